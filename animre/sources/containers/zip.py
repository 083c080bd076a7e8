"""Zip archives (the standard library's ``zipfile``), with bounded decompression.

Members are the archive's files (folders are left out). The directory is
checked before any member is read: every member's local header and stored
bytes lie inside the file, no two members overlap (overlapping members are
how "zip bombs" multiply one compressed stream), and names are unique. A
member never decompresses to more than its declared size, nor to more than
:data:`~animre.sources.containers.base.MAX_MEMBER` bytes.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from typing import BinaryIO

from ...base.errors import ParseError
from ...base.inflate import inflate_at_most
from .base import MAX_MEMBER, Container, Member, file_size, read_span

__all__ = ["CONTAINER"]

_LOCAL = struct.Struct("<4s22xHH")  # local file header: signature ... name length, extra length
_BAD = (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError, struct.error,
        NotImplementedError, RuntimeError, zlib.error, KeyError, IndexError, OverflowError, MemoryError)


def detect(head: bytes, name: str) -> bool:
    """A zip file starts with a local file header (or is an empty archive's end record)."""
    return head[:4] == b"PK\x03\x04" or (head[:4] == b"PK\x05\x06" and name.lower().endswith(".zip"))


def members(fh: BinaryIO, name: str) -> list[Member]:
    """The files of a zip archive, checked against the archive's size."""
    total = file_size(fh)
    try:
        zf = zipfile.ZipFile(fh)
        infos = [i for i in zf.infolist() if not i.is_dir()]
    except _BAD as e:
        raise ParseError(name, "central_directory", 0,
                         f"not a readable zip directory: {type(e).__name__}: {e}") from None
    cd = min(max(0, int(getattr(zf, "start_dir", 0))), total)  # where the central directory starts
    out: list[Member] = []
    seen: set[str] = set()
    spans = []
    for k, info in enumerate(infos):
        where = f"central_directory[{k}]"
        if info.filename in seen:
            raise ParseError(name, where, cd, f"member name {info.filename!r} is repeated")
        seen.add(info.filename)
        if info.header_offset < 0 or info.header_offset + _LOCAL.size > total:
            raise ParseError(name, where, cd,
                             f"local header at {info.header_offset} lies outside the file ({total} bytes)")
        fh.seek(info.header_offset)
        sig, n_name, n_extra = _LOCAL.unpack(fh.read(_LOCAL.size))
        if sig != b"PK\x03\x04":
            raise ParseError(name, f"{where}.local_header", info.header_offset, f"bad local header signature {sig!r}")
        start = info.header_offset + _LOCAL.size + n_name + n_extra
        if start + info.compress_size > total:
            raise ParseError(name, f"{where}.compress_size", info.header_offset,
                             f"member bytes {start}..{start + info.compress_size} lie outside the file "
                             f"({total} bytes)")
        if info.file_size > MAX_MEMBER:
            raise ParseError(name, f"{where}.file_size", cd,
                             f"decompression bomb: member declares {info.file_size} bytes, "
                             f"more than the limit ({MAX_MEMBER} bytes)")
        spans.append((info.header_offset, start + info.compress_size, k, info.filename))
        out.append(Member(info.filename, start, info.compress_size, _reader(zf, info, f"{name}/{info.filename}", start),
                          compressed=info.compress_type != zipfile.ZIP_STORED))
    spans.sort()
    for (_, a1, _, an), (b0, _, kb, bn) in zip(spans, spans[1:]):
        if b0 < a1:
            raise ParseError(name, f"central_directory[{kb}]", b0,
                             f"members {an!r} and {bn!r} overlap (bytes {b0}..{a1})")
    return out


def _reader(zf: zipfile.ZipFile, info: zipfile.ZipInfo, display: str, start: int):
    def read() -> bytes:
        if info.flag_bits & 1:
            raise ParseError(display, "flag_bits", start, "member is encrypted")
        limit = min(info.file_size, MAX_MEMBER)
        try:
            if info.compress_type in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                # stored and deflated members: decompressed here with an explicit output limit
                raw = read_span(zf.fp, start, info.compress_size, display)
                if info.compress_type == zipfile.ZIP_STORED:
                    data = raw
                else:
                    data, more, _ = inflate_at_most(raw, limit, -15)
                    if more:
                        raise ParseError(display, "data", start, f"decompression bomb: expands beyond its "
                                                                 f"declared {info.file_size} bytes")
                if zlib.crc32(data) != info.CRC:
                    raise ParseError(display, "data", start, "CRC-32 of the member does not match the directory")
            else:
                with zf.open(info) as f:
                    data = f.read(limit)
                    if len(data) == limit and f.read(1):
                        raise ParseError(display, "data", start, f"decompression bomb: expands beyond its "
                                                                 f"declared {info.file_size} bytes")
        except ParseError:
            raise
        except _BAD as e:
            raise ParseError(display, "data", start, f"{type(e).__name__}: {e}") from None
        if len(data) != info.file_size:
            raise ParseError(display, "data", start,
                             f"expands to {len(data)} bytes, the directory declares {info.file_size}")
        return data
    return read


CONTAINER = Container(
    name="zip",
    title="zip archive",
    extensions=(".zip",),
    detect=detect,
    members=members,
)
