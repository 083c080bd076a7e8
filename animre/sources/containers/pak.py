"""Retro Studios PAK archives (Metroid Prime 1 and 2, GameCube): a resource directory.

Layout (big-endian; from the retro-data-structures PAK reader, the metaforce
engine's resource factory and the Metroid Prime community wiki's PAK page):
u2 version major (3), u2 version minor (5), u4 unused (0); u4 named-resource
count, each a type fourcc, u4 resource id, u4 name length and the name; u4
resource count, each 20 bytes: u4 compressed flag, type fourcc, u4 id, u4
stored size, u4 offset from the start of the PAK. Resource data follows,
32-byte aligned.

A compressed resource starts with its u4 decompressed size. Metroid Prime 1
compresses it as one zlib stream; Metroid Prime 2 as LZO1X segments of at
most 0x4000 decompressed bytes, each an s2 length (positive: that many LZO
bytes; negative: that many stored bytes). The two are told apart by the
bytes after the size: a valid zlib header (``0x78``, checksum divisible by
31) cannot be an LZO segment length (at most about 0x4000).

LZO is decompressed by ``lzallright`` (a maintained, memory-safe Rust port of
lzokay, the LZO implementation the retro-data-structures tools use; it has
wheels for current Pythons and a compressor, which the samples use). The
older ``python-lzo`` binds the C liblzo2 and gets few releases. zlib is the
standard library's. Neither is asked for more than the declared size:
zlib output is capped with ``max_length``, each LZO segment must produce
exactly its segment size (at most 0x4000 bytes; one LZO call can never
produce more than 255 times its at most 32 KiB input).

An uncompressed resource's stored size includes the 0xFF padding to 32
bytes (the PAK records no other size), so its member ends with that padding.

Members are named ``<ID>.<TYPE>`` (``0A1B2C3D.ANCS``), or ``<name>.<TYPE>``
when the named-resource table names the resource.
"""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Callable
from typing import BinaryIO

from ...base.errors import ParseError
from ...base.inflate import inflate_at_most
from .base import MAX_MEMBER, Container, Member, check_span, decode_name, read_span

__all__ = ["CONTAINER", "MAGIC", "LZO_SEGMENT", "detect", "members", "decompress"]

MAGIC = b"\x00\x03\x00\x05\x00\x00\x00\x00"  # version 3.5, unused 0
LZO_SEGMENT = 0x4000
_NAME_OK = re.compile(r"[A-Za-z0-9_ .()#&+,=@\[\]-]{1,255}\Z")  # printable, no path separators
_FOURCC_OK = re.compile(r"[A-Z0-9]{4}\Z")


def detect(head: bytes, name: str) -> bool:
    """A Retro PAK starts with version 3.5 and an unused zero word.

    Examples
    --------
    >>> detect(bytes.fromhex("0003000500000000") + bytes(8), "x.bin")
    True
    >>> detect(b"PK\\x03\\x04" + bytes(12), "x.pak")
    False
    """
    return head[:8] == MAGIC


def _read_exact(fh: BinaryIO, offset: int, n: int, file: str, path: str) -> bytes:
    fh.seek(offset)
    b = fh.read(n)
    if len(b) != n:
        raise ParseError(file, path, offset, f"needs {n} bytes, only {len(b)} left")
    return b


def _fourcc(raw: bytes, file: str, path: str, offset: int) -> str:
    try:
        s = raw.decode("ascii")
    except UnicodeDecodeError:
        s = ""
    if not _FOURCC_OK.match(s):
        raise ParseError(file, path, offset, f"resource type {raw!r} is not a fourcc of A-Z/0-9")
    return s


def members(fh: BinaryIO, name: str) -> list[Member]:
    """The validated resource directory of a PAK (no resource body is read).

    Raises :class:`~animre.base.errors.ParseError` (the PAK, field path such as
    ``resources[3].offset``, offset) for counts larger than the bytes left,
    spans outside the file, names that are not text and unknown flags.

    Examples
    --------
    >>> import io
    >>> from animre.formats.pas4.pak_samples import encode_pak
    >>> pak = encode_pak([("ANCS", 0x0A1B2C3D, b"hello", "none"), ("ANCS", 7, b"hi", "zlib")], {})
    >>> [(m.name, m.compressed, m.read()[:5]) for m in members(io.BytesIO(pak), "Metroid1.pak")]
    [('0A1B2C3D.ANCS', False, b'hello'), ('00000007.ANCS', True, b'hi')]
    """
    size = fh.seek(0, 2)
    head = _read_exact(fh, 0, 12, name, "header")
    if head[:8] != MAGIC:
        raise ParseError(name, "header.version", 0, f"expected PAK version 3.5 + 0, found {head[:8].hex()}")
    (n_named,) = struct.unpack_from(">I", head, 8)
    pos = 12
    if n_named * 12 > size - pos:
        raise ParseError(name, "num_named_resources", 8,
                         f"{n_named} named resources need at least {n_named * 12} bytes, {size - pos} left")
    names: dict[tuple[str, int], str] = {}
    for i in range(n_named):
        path = f"named_resources[{i}]"
        raw_type, rid, n = struct.unpack(">4sII", _read_exact(fh, pos, 12, name, path))
        rtype = _fourcc(raw_type, name, f"{path}.type", pos)
        if n > 255 or n > size - pos - 12:
            raise ParseError(name, f"{path}.len_name", pos + 8, f"name length {n} is not plausible (max 255, "
                             f"{size - pos - 12} bytes left)")
        raw = _read_exact(fh, pos + 12, n, name, f"{path}.name")
        text = decode_name(raw, name, f"{path}.name", pos + 12)
        if not _NAME_OK.match(text):
            raise ParseError(name, f"{path}.name", pos + 12, f"name {raw[:40]!r} is not printable text "
                             "without path separators")
        names.setdefault((rtype, rid), text)
        pos += 12 + n
    (n_res,) = struct.unpack(">I", _read_exact(fh, pos, 4, name, "num_resources"))
    if n_res * 20 > size - pos - 4:
        raise ParseError(name, "num_resources", pos,
                         f"{n_res} resources need {n_res * 20} bytes, {size - pos - 4} left")
    table = _read_exact(fh, pos + 4, n_res * 20, name, "resources")
    out: list[Member] = []
    seen: dict[str, tuple[int, int]] = {}
    for i in range(n_res):
        at = pos + 4 + 20 * i
        flag, raw_type, rid, rsize, roff = struct.unpack_from(">I4sIII", table, 20 * i)
        path = f"resources[{i}]"
        rtype = _fourcc(raw_type, name, f"{path}.type", at + 4)
        if flag > 1:
            raise ParseError(name, f"{path}.compressed", at, f"compressed flag is {flag}, expected 0 or 1")
        check_span(name, path, roff, rsize, size, at)
        mname = f"{names.get((rtype, rid), f'{rid:08X}')}.{rtype}"
        if mname in seen:
            if seen[mname] == (roff, rsize):
                continue  # the same resource listed twice
            mname = f"{rid:08X}-{i}.{rtype}"
        seen[mname] = (roff, rsize)
        out.append(Member(mname, roff, rsize, _reader(fh, f"{name}/{mname}", roff, rsize, bool(flag)),
                          bool(flag)))
    return out


def _reader(fh: BinaryIO, file: str, offset: int, size: int, compressed: bool) -> Callable[[], bytes]:
    def read() -> bytes:
        data = read_span(fh, offset, size, file)
        return decompress(data, file, offset) if compressed else data
    return read


def decompress(data: bytes, file: str = "", offset: int = 0) -> bytes:
    """A compressed PAK resource (u4 size, then zlib or LZO segments) -> its bytes, bounded.

    Raises :class:`~animre.base.errors.ParseError` when the declared size exceeds
    ``MAX_MEMBER`` (decompression bomb), when the stream would produce more
    or fewer bytes than declared, or when it is not valid zlib/LZO.
    ``offset`` is where ``data`` starts in the PAK (error offsets are absolute).

    Examples
    --------
    >>> import struct, zlib
    >>> decompress(struct.pack(">I", 5) + zlib.compress(b"hello"))
    b'hello'
    """
    if len(data) < 4:
        raise ParseError(file, "decompressed_size", offset, "compressed resource shorter than its size field")
    (want,) = struct.unpack_from(">I", data)
    if want > MAX_MEMBER:
        raise ParseError(file, "decompressed_size", offset, f"declares {want} bytes, more than the "
                         f"{MAX_MEMBER}-byte limit (decompression bomb)")
    body = data[4:]
    if len(body) >= 2 and body[0] == 0x78 and int.from_bytes(body[:2], "big") % 31 == 0:
        return _zlib(body, want, file, offset + 4)
    return _lzo(body, want, file, offset + 4)


def _zlib(body: bytes, want: int, file: str, offset: int) -> bytes:
    try:
        out, more, ended = inflate_at_most(body, want)
    except zlib.error as e:
        raise ParseError(file, "zlib_data", offset, f"invalid zlib stream: {e}") from None
    if more:
        raise ParseError(file, "zlib_data", offset, f"zlib stream expands beyond its declared size of {want} "
                         "bytes (decompression bomb)")
    if len(out) < want or not ended:
        raise ParseError(file, "zlib_data", offset, f"zlib stream gives {len(out)} bytes, declared {want}"
                         + ("" if ended else " (stream truncated)"))
    return out


def _lzo(body: bytes, want: int, file: str, offset: int) -> bytes:
    try:
        from lzallright import LZOCompressor, LZOError
    except ImportError:  # only on Python 3.10, where lzallright has no wheels
        raise ParseError(file, "lzo_segments", offset, "LZO resources (Metroid Prime 2) need lzallright, "
                         "which needs Python 3.11 or newer") from None

    parts: list[bytes] = []
    done, pos, k = 0, 0, 0
    while done < want:
        seg = min(LZO_SEGMENT, want - done)
        path = f"lzo_segments[{k}]"
        if pos + 2 > len(body):
            raise ParseError(file, f"{path}.len_data", offset + pos, f"LZO data ends after {done} of {want} "
                             "declared bytes")
        (n,) = struct.unpack_from(">h", body, pos)
        raw = body[pos + 2:pos + 2 + abs(n)]
        if n == 0 or len(raw) != abs(n):
            raise ParseError(file, f"{path}.len_data", offset + pos, f"segment length {n} does not fit the "
                             f"{len(body) - pos - 2} bytes left")
        if n < 0:
            out = raw
        else:
            try:
                out = LZOCompressor.decompress(raw, seg)
            except LZOError as e:
                raise ParseError(file, f"{path}.data", offset + pos + 2, f"invalid LZO data: {e!r}") from None
        if len(out) != seg:
            more = len(out) > seg
            raise ParseError(file, f"{path}.data", offset + pos + 2,
                             f"LZO segment gives {len(out)} bytes, expected {seg}"
                             + (" (expands beyond its declared size)" if more else ""))
        parts.append(out)
        done += seg
        pos += 2 + abs(n)
        k += 1
    if pos != len(body) and any(body[pos:].rstrip(b"\xff")):
        raise ParseError(file, f"lzo_segments[{k}]", offset + pos,
                         f"{len(body) - pos} bytes of LZO data after the declared {want} bytes "
                         "(expands beyond its declared size)")
    return b"".join(parts)


CONTAINER = Container("pak", "Retro Studios PAK (Metroid Prime 1/2)", (".pak",), detect, members)
