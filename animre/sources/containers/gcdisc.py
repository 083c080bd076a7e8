"""GameCube and Wii disc images in every format Dolphin users keep: the files of the disc's file system.

The images are read with ``nod_rs``, the Python bindings of the Rust nod
disc library (package ``nod-rs``, the optional ``disc`` extra:
``pip install 'animre[disc]'``); without it a disc image is an error row
naming that extra, and the scan goes on. Image formats are told by content:
plain ISO/GCM (GameCube magic 0xC2339F3D at 0x1C, Wii magic 0x5D1C9EA3 at
0x18), RVZ and WIA (``RVZ\\x01`` / ``WIA\\x01``), CISO (``CISO``), GCZ
(0xB10BC001, little-endian) and WBFS (``WBFS``). A GameCube disc's members
are the paths of its file system (``GAME.rvz/anim/0000.mot``, exactly as in
the plain image); a Wii disc's are the files of its partitions: the first
data partition's by their paths, every other partition's below
``<kind><index>/`` (``update0/...``). A member's offset is where the file
lies in the disc (for a plain GameCube image, in the file itself; in a
compressed image, in the disc it holds; on a Wii disc, in its partition's
decrypted data); members are read lazily, one at a time, through nod.

nod is native code, so what can be checked cheaply is checked first: the
sizes a compressed image's header declares against the file (a truncated
RVZ, WIA, GCZ or CISO is an error naming that header field), and a plain
GameCube image's file system table, read from the file (below). Every
partition's file system table that nod then reads is validated the same
way (disc header ``boot.bin``: DOL offset, FST offset and size at 0x420;
the file system table: 12-byte entries, a root directory whose third word
is the entry count, directories ``[0x01 | name offset, parent, next]``,
files ``[name offset, offset, size]``, offsets shifted left by 2 on Wii,
then NUL-terminated names): every count is bounded by the table's size,
every directory range nests, every file lies inside the disc, names are
strict ASCII without "/"; nod's own file list must equal it. Anything nod
reports (an error, or a panic of its Rust code) is a ParseError naming the
image. A disc held in memory (inside another container) is written to a
temporary file for nod, which opens paths only.
"""

from __future__ import annotations

import os
import struct
import tempfile
import weakref
from collections.abc import Callable
from typing import BinaryIO

from ...base.errors import ParseError
from .base import Container, Member, check_span, decode_name, file_size

__all__ = ["CONTAINER", "GCN_MAGIC", "WII_MAGIC", "IMAGE_FORMATS", "MAX_DISC", "detect", "image_format",
           "members", "fst_files", "fst_entries"]

GCN_MAGIC = 0xC2339F3D
WII_MAGIC = 0x5D1C9EA3
MAX_DISC = 8_511_160_320  # a dual-layer Wii disc: no disc image holds more
IMAGE_FORMATS = ("ISO", "RVZ", "WIA", "CISO", "GCZ", "WBFS")
EXTRA = ("GameCube and Wii disc images need the nod-rs library: install the 'disc' extra "
         "(pip install 'animre[disc]')")
_MAGICS = ((b"RVZ\x01", "RVZ"), (b"WIA\x01", "WIA"), (b"CISO", "CISO"), (b"\x01\xc0\x0b\xb1", "GCZ"),
           (b"WBFS", "WBFS"))
_FATAL = (KeyboardInterrupt, SystemExit, GeneratorExit)
# what nod was reading when it failed (the start of its message) -> field path and offset in the disc
_NOD_WHERE = (("Reading partition FST", "header.fst_size", 0x428), ("Reading DOL", "header.dol_offset", 0x420),
              ("Seeking to DOL", "header.dol_offset", 0x420), ("Reading apploader", "apploader", 0x2440),
              ("Reading boot.bin", "header", 0), ("Reading bi2.bin", "bi2", 0x440),
              ("Reading partition group", "partition_table.groups", 0x40000),
              ("Reading partition header", "partition_table.entries", 0x40020))


def image_format(head: bytes) -> str | None:
    """The disc image format of a file from its first bytes (``ISO``, ``RVZ``, ``WIA``, ``CISO``, ``GCZ``, ``WBFS``).

    Examples
    --------
    >>> image_format(bytes(0x1C) + bytes.fromhex("C2339F3D"))
    'ISO'
    >>> image_format(b"RVZ\\x01" + bytes(60)), image_format(bytes(64))
    ('RVZ', None)
    """
    for magic, fmt in _MAGICS:
        if head[:4] == magic:
            return fmt
    if len(head) >= 0x20 and GCN_MAGIC in struct.unpack_from(">II", head, 0x18)[1:]:
        return "ISO"
    if len(head) >= 0x1C and struct.unpack_from(">I", head, 0x18)[0] == WII_MAGIC:
        return "ISO"
    return None


def detect(head: bytes, name: str) -> bool:
    """A GameCube or Wii disc image in any format nod reads, told by its magic.

    Examples
    --------
    >>> detect(bytes(0x1C) + bytes.fromhex("C2339F3D"), "x.iso"), detect(b"WIA\\x01" + bytes(60), "x.bin")
    (True, True)
    >>> detect(bytes(64), "x.iso")
    False
    """
    return image_format(head) is not None


def fst_entries(boot: bytes, fst: bytes, total: int, name: str, wii: bool = False) -> list[tuple[str, int, int]]:
    """``(path, offset, size)`` of every file of a file system table ``fst`` read at ``boot``'s FST offset.

    ``boot`` is the disc header (0x440 bytes), ``total`` the size of the disc
    (or partition) the files must lie in; on Wii (``wii=True``) offsets are
    stored shifted right by 2. Raises ParseError (field path, offset in the disc).

    Examples
    --------
    >>> from animre.formats.mot.gcdisc_samples import encode_gcm
    >>> img, _ = encode_gcm({"anim": {"a.mot": b"hello"}})
    >>> fst_off, fst_size = struct.unpack_from(">II", img, 0x424)
    >>> fst_entries(img[:0x440], img[fst_off:fst_off + fst_size], len(img), "D.gcm")[0][0]
    'anim/a.mot'
    """
    shift = 2 if wii else 0
    if len(boot) < 0x440:
        raise ParseError(name, "header", 0, f"a disc header is 0x440 bytes, the disc has {len(boot)}")
    dol_off, fst_off, fst_size = (v << shift for v in struct.unpack_from(">III", boot, 0x420))
    if dol_off >= total:
        raise ParseError(name, "header.dol_offset", 0x420, f"DOL offset {dol_off} is past the end ({total} bytes)")
    if fst_size < 12 or fst_off + fst_size > total or len(fst) < min(fst_size, 12):
        raise ParseError(name, "header.fst_size", 0x428, f"file system table of {fst_size} bytes at {fst_off} "
                         f"does not fit the {total}-byte disc")
    fst = fst[:fst_size]
    flags, _, n = struct.unpack_from(">III", fst, 0)
    if flags >> 24 != 1:
        raise ParseError(name, "fst.entries[0].flags", fst_off, "the root entry is not a directory")
    if n < 1 or n * 12 > len(fst):
        raise ParseError(name, "fst.num_entries", fst_off + 8, f"{n} entries need {n * 12} bytes, the table has "
                         f"{len(fst)}")
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
            check_span(name, path, a << shift, b, total, at)
            out.append((stack[-1][1] + text, a << shift, b))
        else:
            raise ParseError(name, f"{path}.flags", at, f"entry kind {kind} is neither file (0) nor directory (1)")
    return out


def fst_files(fh: BinaryIO, name: str) -> list[tuple[str, int, int]]:
    """``(path, offset, size)`` of every file of a plain GameCube image's file system table, validated.

    Examples
    --------
    >>> import io
    >>> from animre.formats.mot.gcdisc_samples import encode_gcm
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
    fst_off, fst_size = struct.unpack_from(">II", head, 0x424)
    fst = b""
    if 12 <= fst_size and fst_off + fst_size <= total:
        fh.seek(fst_off)
        fst = fh.read(fst_size)
    return fst_entries(head, fst, total, name)


def _check_image(fh: BinaryIO, fmt: str, name: str, total: int) -> None:
    """The sizes a compressed image's header declares, against the file (a truncated image fails here)."""
    fh.seek(0)
    head = fh.read(0x8000)
    if fmt in ("RVZ", "WIA"):
        _header_fits(head, 0x48, "0x48", fmt, name, "wia_header", total)
        iso_size, wia_size = struct.unpack_from(">QQ", head, 0x24)
        if wia_size != total:
            raise ParseError(name, "wia_header.wia_file_size", 0x2C, f"the {fmt} header says the image is "
                             f"{wia_size} bytes, the file has {total} (truncated or not this image)")
        _disc_fits(iso_size, name, "wia_header.iso_file_size", 0x24)
    elif fmt == "GCZ":
        _header_fits(head, 32, "32", fmt, name, "gcz_header", total)
        packed, disc, _, blocks = struct.unpack_from("<QQII", head, 8)
        if 32 + 12 * blocks + packed > total:
            raise ParseError(name, "gcz_header.compressed_data_size", 8, f"{blocks} blocks and {packed} "
                             f"compressed bytes need {32 + 12 * blocks + packed} bytes, the file has {total}")
        _disc_fits(disc, name, "gcz_header.data_size", 16)
    elif fmt == "CISO":
        _header_fits(head, 0x8000, "0x8000", fmt, name, "ciso_header", total)
        (block,) = struct.unpack_from("<I", head, 4)
        used = sum(1 for b in head[8:] if b)
        if 0x8000 + used * block > total:
            raise ParseError(name, "ciso_header.block_map", 8, f"{used} blocks of {block} bytes need "
                             f"{0x8000 + used * block} bytes, the file has {total}")


def _header_fits(head: bytes, size: int, shown: str, fmt: str, name: str, path: str, total: int) -> None:
    """A compressed image's header is all there (``shown``: its size as the format's notes write it)."""
    if len(head) < size:
        raise ParseError(name, path, 0, f"a {fmt} header is {shown} bytes, the file has {total}")


def _disc_fits(size: int, name: str, path: str, offset: int) -> None:
    """A declared disc size is one a disc can have."""
    if size > MAX_DISC:
        raise ParseError(name, path, offset, f"a disc of {size} bytes is larger than any disc ({MAX_DISC} bytes)")

def _nod(call: Callable, name: str, path: str, offset: int, what: str):
    """``call()``, with anything nod raises (its Rust panics too) as a ParseError naming the image."""
    try:
        return call()
    except _FATAL:
        raise
    except BaseException as e:  # noqa: BLE001 - nod reports bad images as OSError, ValueError, panics
        base = path[:-6] if path.endswith("header") else ""  # a partition's fields: below its prefix
        path, offset = next(((base + p, o) for s, p, o in _NOD_WHERE if str(e).startswith(s)), (path, offset))
        raise ParseError(name, path, offset, f"nod cannot {what}: {e}") from None


class _Disc:
    """An image opened by nod (from its path, or from a temporary copy when held in memory).

    nod opens the image by path again whenever it reads, so a copy lives as long as the image: it is
    removed when the image is no longer used (the sources layer closes the containers it read from
    memory when a read ends, see :func:`animre.sources.keep_open`), by the process that made it.
    """

    def __init__(self, fh: BinaryIO, name: str, nod_rs, fmt: str):
        path = getattr(fh, "name", None)
        if not (isinstance(path, str) and os.path.isfile(path) and os.path.getsize(path) == file_size(fh)):
            fd, path = tempfile.mkstemp(suffix=f".{fmt.lower()}", prefix="animre-disc-")
            weakref.finalize(self, _remove_copy, path, os.getpid())
            with os.fdopen(fd, "wb") as out:
                fh.seek(0)
                while chunk := fh.read(1 << 20):
                    out.write(chunk)
        where = fmt.lower()
        self.reader = _nod(lambda: nod_rs.DiscReader(path), name, where, 0, f"open the {fmt} image")
        size = _nod(self.reader.disc_size, name, where, 0, f"read the {fmt} image")
        if size > MAX_DISC:
            raise ParseError(name, where, 0, f"nod reads a disc of {size} bytes, larger than any disc "
                             f"({MAX_DISC} bytes)")
        self.size = size
        self.wii = _nod(lambda: self.reader.header().is_wii, name, where, 0, "read the disc header")


def _remove_copy(path: str, pid: int) -> None:
    """Remove a temporary copy, in the process that made it (a forked worker drops its parent's images)."""
    if os.getpid() == pid:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass


def members(fh: BinaryIO, name: str) -> list[Member]:
    """The files of a GameCube or Wii disc image, found by path in its file systems (no file body is read).

    Raises :class:`~animre.base.errors.ParseError` for a bad image header, disc
    header or file system table, and when nod-rs is not installed (the
    message names the ``disc`` extra).

    Examples
    --------
    >>> import io
    >>> from animre.formats.mot.gcdisc_samples import encode_gcm
    >>> img, _ = encode_gcm({"anim": {"a.mot": b"hello"}})
    >>> [(m.name, m.read()) for m in members(io.BytesIO(img), "D.gcm")]
    [('anim/a.mot', b'hello')]
    """
    try:
        import nod_rs
    except ImportError:
        raise ParseError(name, "", 0, EXTRA) from None
    total = file_size(fh)
    head = fh.read(0x20)
    fmt = image_format(head) or "ISO"
    plain_gc = None
    if fmt == "ISO" and len(head) == 0x20 and struct.unpack_from(">I", head, 0x1C)[0] == GCN_MAGIC:
        plain_gc = fst_files(fh, name)  # checked from the file itself before nod reads it
    _check_image(fh, fmt, name, total)
    disc = _Disc(fh, name, nod_rs, fmt)
    out: list[Member] = []
    for prefix, where, part in _partitions(disc, name):
        meta = _nod(part.meta, name, where + "header", 0, "read the disc header and file system table")
        try:
            listed = fst_entries(meta.raw_boot, meta.raw_fst, disc.size, name, wii=disc.wii)
        except ParseError as e:
            raise ParseError(name, where + e.path, e.offset, e.reason) from None
        if plain_gc is not None and listed != plain_gc:
            raise ParseError(name, "fst", 0, "nod reads another file system table than the image holds")
        nodes = {n.path: n for n in _nod(lambda m=meta: list(m.fst()), name, where + "fst", 0, "list the files")
                 if n.is_file}
        if sorted(nodes) != sorted(p for p, _, _ in listed):
            raise ParseError(name, where + "fst", 0, f"nod lists {len(nodes)} files, the file system table "
                             f"{len(listed)}")
        out += [Member(prefix + p, off, size, _reader(disc, part, nodes[p], size, f"{name}/{prefix}{p}", off),
                       fmt != "ISO") for p, off, size in listed]
    names = [m.name for m in out]
    if len(set(names)) != len(names):
        raise ParseError(name, "fst", 0, "two files of the disc have the same name")
    return out


def _partitions(disc: _Disc, name: str) -> list[tuple[str, str, object]]:
    """``(member name prefix, field path prefix, partition reader)`` of every partition of the disc."""
    if not disc.wii:
        return [("", "", _nod(lambda: disc.reader.open_partition(0), name, "partition", 0,
                              "open the data partition"))]
    infos = _nod(disc.reader.partitions, name, "partitions", 0x40000, "read the partition table")
    out, named = [], False
    for info in infos:
        where = f"partitions[{info.index}]."
        part = _nod(lambda i=info.index: disc.reader.open_partition(i), name, where[:-1], 0x40000,
                    f"open partition {info.index} ({info.kind})")
        if info.kind == "Data" and not named:
            out.append(("", where, part))
            named = True
        else:
            out.append((f"{info.kind.split()[0].lower()}{info.index}/", where, part))
    if not out:
        raise ParseError(name, "partitions", 0x40000, "the Wii disc has no partition")
    return out


def _reader(disc: _Disc, part, node, size: int, file: str, offset: int) -> Callable[[], bytes]:
    def read() -> bytes:
        data = _nod(lambda: part.read_file(node).read(size), file, "", offset, "read the file")
        if len(data) != size:
            raise ParseError(file, "", offset, f"nod read {len(data)} bytes, the file system table says {size}")
        return bytes(data)
    read.disc = disc  # type: ignore[attr-defined] - the image (and its temporary copy) lives as long as a reader
    return read


CONTAINER = Container("gcdisc", "GameCube or Wii disc image (ISO/GCM, RVZ, WIA, CISO, GCZ, WBFS)",
                      (".iso", ".gcm", ".rvz", ".wia", ".ciso", ".gcz", ".wbfs"), detect, members)
