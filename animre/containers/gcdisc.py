"""GameCube disc images (``.iso`` / ``.gcm``): the files of the disc's file system, read through nod.

The disc is opened with the Python bindings of the nod disc library
(package ``nod``, the optional ``disc`` extra: ``pip install 'animre[disc]'``);
without it a disc image is an error row naming that extra, and the scan
goes on. nod reads plain GameCube images (ISO/GCM); compressed images
(RVZ, WIA, CISO) are not read by these bindings and are not detected.

nod is native code, so the directory is validated here first, in the
layout nod and the console read (disc header ``boot.bin``: magic 0xC2339F3D
at 0x1C, DOL offset, FST offset and size at 0x420; the file system table:
12-byte entries, a root directory whose third word is the entry count,
directories ``[0x01 | name offset, parent, next]``, files ``[name offset,
offset, size]``, then NUL-terminated names): every count is bounded by the
table's size, every directory range nests, every file lies inside the
image, names are strict ASCII without "/". Only a valid table is handed to
nod, whose file list must then equal it. Member offsets come from the table;
member bytes from nod. A disc held in memory (inside another container) is
written to a temporary file for nod, which opens paths only.
"""

from __future__ import annotations

import os
import struct
import tempfile
import weakref
from collections.abc import Callable
from typing import BinaryIO

from ..errors import ParseError
from .base import Container, Member, check_span, decode_name, file_size

__all__ = ["CONTAINER", "GCN_MAGIC", "detect", "members", "fst_files"]

GCN_MAGIC = 0xC2339F3D
EXTRA = "GameCube disc images need the nod library: install the 'disc' extra (pip install 'animre[disc]')"


def detect(head: bytes, name: str) -> bool:
    """A GameCube disc image has the magic 0xC2339F3D at 0x1C.

    Examples
    --------
    >>> detect(bytes(0x1C) + bytes.fromhex("C2339F3D"), "x.iso")
    True
    >>> detect(bytes(64), "x.iso")
    False
    """
    return len(head) >= 0x20 and struct.unpack_from(">I", head, 0x1C)[0] == GCN_MAGIC


def fst_files(fh: BinaryIO, name: str) -> list[tuple[str, int, int]]:
    """``(path, offset, size)`` of every file in the disc's file system table, validated.

    Examples
    --------
    >>> import io
    >>> from animre.samples.gcdisc import encode_gcm
    >>> img, _ = encode_gcm({"anim": {"a.mot": b"hello"}})
    >>> [p for p, _, _ in fst_files(io.BytesIO(img), "D.gcm")]
    ['anim/a.mot']
    """
    total = file_size(fh)
    head = fh.read(0x440)
    if len(head) < 0x440:
        raise ParseError(name, "header", 0, f"a disc header is 0x440 bytes, the file has {total}")
    if struct.unpack_from(">I", head, 0x1C)[0] != GCN_MAGIC:
        raise ParseError(name, "header.gcn_magic", 0x1C, "not a GameCube disc (magic 0xC2339F3D missing)")
    dol_off, fst_off, fst_size = struct.unpack_from(">III", head, 0x420)
    if dol_off >= total:
        raise ParseError(name, "header.dol_offset", 0x420, f"DOL offset {dol_off} is past the end ({total} bytes)")
    if fst_size < 12 or fst_off + fst_size > total:
        raise ParseError(name, "header.fst_size", 0x428, f"file system table of {fst_size} bytes at {fst_off} "
                         f"does not fit the {total}-byte image")
    fh.seek(fst_off)
    fst = fh.read(fst_size)
    flags, _, n = struct.unpack_from(">III", fst, 0)
    if flags >> 24 != 1:
        raise ParseError(name, "fst.entries[0].flags", fst_off, "the root entry is not a directory")
    if n < 1 or n * 12 > fst_size:
        raise ParseError(name, "fst.num_entries", fst_off + 8, f"{n} entries need {n * 12} bytes, the table has "
                         f"{fst_size}")
    names = fst[n * 12:]
    out: list[tuple[str, int, int]] = []
    stack: list[tuple[int, str]] = [(n, "")]  # (end index, path prefix) of the open directories
    for i in range(1, n):
        while i >= stack[-1][0]:
            stack.pop()
        at = fst_off + 12 * i
        path = f"fst.entries[{i}]"
        word, a, b = struct.unpack_from(">III", fst, 12 * i)
        kind, name_off = word >> 24, word & 0xFFFFFF
        end = names.find(b"\0", name_off)
        if name_off >= len(names) or end < 0:
            raise ParseError(name, f"{path}.name_offset", at, f"name offset {name_off} is outside the "
                             f"{len(names)}-byte name table")
        text = decode_name(names[name_off:end], name, f"{path}.name", fst_off + n * 12 + name_off)
        if "/" in text or text in (".", ".."):
            raise ParseError(name, f"{path}.name", fst_off + n * 12 + name_off, f"name {text!r} is not a "
                             "file name")
        if kind == 1:
            if not i < b <= stack[-1][0]:
                raise ParseError(name, f"{path}.next", at + 8, f"directory end {b} does not nest in "
                                 f"{i + 1}..{stack[-1][0]}")
            stack.append((b, stack[-1][1] + text + "/"))
        elif kind == 0:
            check_span(name, path, a, b, total, at)
            out.append((stack[-1][1] + text, a, b))
        else:
            raise ParseError(name, f"{path}.flags", at, f"entry kind {kind} is neither file (0) nor directory (1)")
    return out


def members(fh: BinaryIO, name: str) -> list[Member]:
    """The files of a GameCube disc image, found by path in its file system (no file body is read).

    Raises :class:`~animre.errors.ParseError` for a bad header or file
    system table, and when nod is not installed (the message names the
    ``disc`` extra).

    Examples
    --------
    >>> import io
    >>> from animre.samples.gcdisc import encode_gcm
    >>> img, _ = encode_gcm({"anim": {"a.mot": b"hello"}})
    >>> [(m.name, m.read()) for m in members(io.BytesIO(img), "D.gcm")]
    [('anim/a.mot', b'hello')]
    """
    try:
        import nod
    except ImportError:
        raise ParseError(name, "", 0, EXTRA) from None
    files = fst_files(fh, name)
    disc = _Disc(fh, name, nod)
    listed = disc.partition.files()
    if sorted(listed) != sorted(p for p, _, _ in files):
        raise ParseError(name, "fst", 0, f"nod lists {len(listed)} files, the file system table {len(files)}")
    return [Member(p, off, size, _reader(disc, p, size, f"{name}/{p}", off)) for p, off, size in files]


class _Disc:
    """A disc opened by nod (from its path, or from a temporary copy when held in memory)."""

    def __init__(self, fh: BinaryIO, name: str, nod):
        path = getattr(fh, "name", None)
        if not (isinstance(path, str) and os.path.isfile(path) and os.path.getsize(path) == file_size(fh)):
            fd, path = tempfile.mkstemp(suffix=".gcm", prefix="animre-disc-")
            with os.fdopen(fd, "wb") as out:
                fh.seek(0)
                while chunk := fh.read(1 << 20):
                    out.write(chunk)
            weakref.finalize(self, os.unlink, path)
        try:
            disc, is_wii = nod.open_disc_from_image(path)
            part = disc.get_data_partition() if not is_wii else None
        except Exception as e:  # noqa: BLE001 - nod reports bad images as RuntimeError and others
            raise ParseError(name, "", 0, f"nod cannot open the disc: {e}") from None
        if part is None:
            raise ParseError(name, "", 0, "nod finds no GameCube data partition")
        self.disc, self.partition = disc, part


def _reader(disc: _Disc, path: str, size: int, file: str, offset: int) -> Callable[[], bytes]:
    def read() -> bytes:
        try:
            stream = disc.partition.read_file(path)
            data = stream.read(size)
        except Exception as e:  # noqa: BLE001
            raise ParseError(file, "", offset, f"nod cannot read the file: {e}") from None
        if len(data) != size:
            raise ParseError(file, "", offset, f"nod read {len(data)} bytes, the file system table says {size}")
        return bytes(data)
    return read


CONTAINER = Container("gcdisc", "GameCube disc image (ISO/GCM)", (".iso", ".gcm"), detect, members)
