"""GameCube disc image sample generator: a minimal valid GCM holding other samples.

Writes ``gcdisc/ANIMRE.gcm`` with :mod:`struct` only, in the layout the nod
disc library and the GameCube boot ROM read: disc header (``boot.bin``,
0x440 bytes: game id, magic 0xC2339F3D at 0x1C, title, DOL / FST offsets at
0x420), ``bi2.bin`` (0x2000 zero bytes), a 32-byte apploader stand-in at
0x2440 (date, entry point, size, trailer size), a DOL stand-in with one
32-byte text section, the file system table (FST: 12-byte entries, a root
directory, directories ``[flag|name offset, parent, next]``, files
``[name offset, offset, size]``, then the name table) and the files,
32-byte aligned. The files are copies of other samples (a GNT4 ``.mot``, the
Retro PAK), so a test can compare a file inside the disc with the same file
loose. Manifest: per disc, every file's path, offset, size, sha256 and the
loose sample it copies.

The same disc is then written as RVZ, WIA, CISO and GCZ images by the nod
library's own writer (``nod_rs.DiscWriter``, the ``disc`` extra; without it
only the GCM is written): ``gcdisc/ANIMRE.rvz`` and so on, whose members are
the same files at the same disc offsets. nod's CISO writer always uses
2 MiB blocks, so the CISO copy is one 2 MiB block (2.1 MB) whatever the
disc's size; the others are about 8 KB.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import struct
import sys
from collections.abc import Iterator
from pathlib import Path

from ..pas4 import pak_samples

__all__ = ["generate", "encode_gcm", "encode_wii", "convert", "USES", "SUBDIR", "GCN_MAGIC", "IMAGE_FORMATS"]

SUBDIR = "gcdisc"
USES = ("mot", "pak")  # generators whose files this one packs (they run first)
GCN_MAGIC = 0xC2339F3D
WII_MAGIC = 0x5D1C9EA3
_ALIGN = 32
IMAGE_FORMATS = ("RVZ", "WIA", "CISO", "GCZ")  # what nod's writer makes of the sample GCM


def _pad(b: bytearray, align: int = _ALIGN) -> None:
    b += bytes(-len(b) % align)


def _fst(tree: dict[str, bytes | dict]) -> tuple[list[tuple[str, bytes | None, int, int]], bytes]:
    """Flatten a nested {name: bytes | dict} tree into FST order: (path, data, parent, next placeholder)."""
    entries: list[list] = [["", None, 0, 0]]  # root
    names = bytearray(b"\0")  # root name: empty string at offset 0

    def walk(node: dict, parent: int, prefix: str) -> None:
        for name in sorted(node, key=str.lower):
            val = node[name]
            off = len(names)
            names.extend(name.encode("ascii") + b"\0")
            idx = len(entries)
            if isinstance(val, dict):
                entries.append([prefix + name, None, parent, off])
                walk(val, idx, prefix + name + "/")
                entries[idx].append(len(entries))
            else:
                entries.append([prefix + name, val, parent, off])
    walk(tree, 0, "")
    entries[0].append(len(entries))
    return entries, bytes(names)


def encode_gcm(tree: dict[str, bytes | dict], game_id: bytes = b"GANR01",
               title: str = "animre sample disc", wii: bool = False) -> tuple[bytes, dict[str, tuple[int, int]]]:
    """A minimal GameCube disc image holding ``tree`` ({name: bytes or sub-tree}).

    Returns the image and, per file path, its (offset, size) in the image.
    With ``wii=True`` it is the data of a Wii partition instead (Wii magic
    0x5D1C9EA3 at 0x18, offsets stored shifted right by 2), see :func:`encode_wii`.

    Examples
    --------
    >>> img, where = encode_gcm({"a.bin": b"hello", "d": {"b.bin": b"!"}})
    >>> off, size = where["d/b.bin"]
    >>> img[off:off + size], struct.unpack_from(">I", img, 0x1C)[0] == GCN_MAGIC
    (b'!', True)
    """
    b = bytearray(0x440)
    b[0:6] = game_id
    struct.pack_into(">I", b, 0x18 if wii else 0x1C, WII_MAGIC if wii else GCN_MAGIC)
    shift = 2 if wii else 0
    t = title.encode("ascii")[:0x3DF]
    b[0x20:0x20 + len(t)] = t
    b += bytes(0x2000)  # bi2.bin
    # apploader stand-in: date, entry point, size of the code, trailer size, padding, then the code
    b += b"2026/11/30".ljust(16, b"\0") + struct.pack(">IIII", 0x81200000, 32, 0, 0) + bytes(32)
    _pad(b)
    dol_off = len(b)
    dol = bytearray(0x100)
    struct.pack_into(">I", dol, 0x00, 0x100)         # text section 0 offset
    struct.pack_into(">I", dol, 0x48, 0x80003100)    # text section 0 load address
    struct.pack_into(">I", dol, 0x90, 0x20)          # text section 0 size
    struct.pack_into(">I", dol, 0xE0, 0x80003100)    # entry point
    dol += struct.pack(">8I", *([0x4E800020] * 8))   # eight "blr" instructions
    b += dol
    _pad(b)
    entries, names = _fst(tree)
    fst_off = len(b)
    fst_size = 12 * len(entries) + len(names)
    files_at = fst_off + fst_size + (-(fst_off + fst_size) % _ALIGN)
    where: dict[str, tuple[int, int]] = {}
    body = bytearray()
    fst = bytearray()
    for i, (path, data, parent, name_off, *nxt) in enumerate(entries):
        if i == 0:
            fst += struct.pack(">III", 1 << 24, 0, nxt[0])
        elif data is None:
            fst += struct.pack(">III", (1 << 24) | name_off, parent, nxt[0])
        else:
            off = files_at + len(body)
            where[path] = (off, len(data))
            fst += struct.pack(">III", name_off, off >> shift, len(data))
            body += data
            _pad(body)
    fst += names
    b += fst
    _pad(b)
    assert len(b) == files_at
    b += body
    stored = (fst_size + (1 << shift) - 1) >> shift  # on Wii the size in words (the table's padding rounds it up)
    struct.pack_into(">IIII", b, 0x420, dol_off >> shift, fst_off >> shift, stored, stored)
    return bytes(b), where


def encode_wii(partitions: list[tuple[int, dict[str, bytes | dict]]], game_id: bytes = b"RANR01",
               title: str = "animre sample Wii disc") -> tuple[bytes, list[tuple[int, dict[str, tuple[int, int]]]]]:
    """A minimal Wii disc image whose partitions ``[(kind, tree)]`` are stored without encryption and hashes.

    ``kind`` is the partition type (0 data, 1 update, 2 channel). The disc
    header's flags at 0x60 (no partition hashes) and 0x61 (no partition
    encryption) are set, as on development discs, so partition data is
    plain (no title key is needed). Layout: disc header, the partition table
    at 0x40000 (four groups of [count, offset >> 2]; group 0's entries
    [offset >> 2, kind]), each partition from 0x50000 on (a ticket with the
    retail issuer name and common key index 0, data offset and size at
    0x2B8, then its data 0x20000 bytes after its start: :func:`encode_gcm`
    with ``wii=True``, in 0x8000-byte sectors). Returns the image and per
    partition the offset of its data in the image and, per file path, its
    (offset, size) in that data.

    Examples
    --------
    >>> img, parts = encode_wii([(0, {"a.bin": b"hello"})])
    >>> data_at, where = parts[0]
    >>> off, size = where["a.bin"]
    >>> img[data_at + off:data_at + off + size], hex(struct.unpack_from(">I", img, 0x18)[0])
    (b'hello', '0x5d1c9ea3')
    """
    b = bytearray(encode_gcm({}, game_id, title, wii=True)[0][:0x80])  # id, magic, title
    b[0x60:0x62] = b"\x01\x01"  # no partition hashes, no partition encryption
    b += bytes(0x50000 - len(b))
    table = struct.pack(">II", len(partitions), 0x40020 >> 2)
    out = []
    for kind, tree in partitions:
        data, where = encode_gcm(tree, game_id, title, wii=True)
        data += bytes(-len(data) % 0x8000)
        start = len(b)
        table += struct.pack(">II", start >> 2, kind)
        ticket = bytearray(0x2A4)
        struct.pack_into(">I", ticket, 0, 0x10001)  # RSA-2048 signature (not checked)
        ticket[0x140:0x140 + 26] = b"Root-CA00000001-XS00000003"
        ticket[0x1DC:0x1E4] = b"\x00\x01\x00\x00" + game_id[:4]  # title id
        b += ticket + struct.pack(">7I", 0, 0, 0, 0, 0, 0x20000 >> 2, len(data) >> 2)
        b += bytes(start + 0x20000 - len(b))
        out.append((len(b), where))
        b += data
    table = table[:8] + bytes(24) + table[8:]  # groups 1-3 empty, then group 0's entries at 0x40020
    b[0x40000:0x40000 + len(table)] = table
    return bytes(b), out


@contextlib.contextmanager
def _quiet_stdout() -> Iterator[None]:
    """Native code's prints to file descriptor 1 go nowhere (nod's GCZ writer prints every block)."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def convert(src: str | os.PathLike, dst: str | os.PathLike, format: str) -> None:
    """Write the disc image ``src`` as ``dst`` in ``format`` (``RVZ``, ``WIA``, ``CISO``, ``GCZ``...) with nod's writer.

    Needs the ``disc`` extra (``nod_rs``).

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "a.gcm").write_bytes(encode_gcm({"a.bin": b"hello"})[0])
    >>> convert(d / "a.gcm", d / "a.rvz", "RVZ")
    >>> (d / "a.rvz").read_bytes()[:4]
    b'RVZ\\x01'
    """
    import nod_rs  # optional dependency (the disc extra): imported only where a compressed copy is written

    writer = nod_rs.DiscWriter(nod_rs.DiscReader(os.fspath(src)), format)
    tmp = Path(f"{os.fspath(dst)}.tmp")
    with _quiet_stdout():
        writer.process(os.fspath(tmp))
    tmp.replace(dst)


def _entries(out: Path, disc: str, img: bytes, where: dict, loose: dict[str, Path]) -> dict[str, dict]:
    """Manifest entries of the files of ``disc`` (and of the PAK inside it)."""
    files: dict[str, dict] = {}
    for p, (o, s) in where.items():
        inner = f"{disc}/{p}"
        entry = {"status": "parsed", "format": "mot", "container": disc, "offset": o, "size": s,
                 "sha256": hashlib.sha256(img[o:o + s]).hexdigest(), "loose": loose[p].relative_to(out).as_posix()}
        if p.endswith(".pak"):
            rebuilt, entries = pak_samples.build(out, inner)
            assert rebuilt == loose[p].read_bytes()
            entry.update(status="container", format=None, kind="pak", members=len(entries))
            files.update(entries)
        files[inner] = entry
    return files


def generate(out_dir: Path, seed: int) -> dict:
    """Write ``gcdisc/ANIMRE.gcm`` (a GNT4 ``.mot`` and the Retro PAK samples inside) and its compressed copies.

    Manifest ``files``: each disc image (status ``container``, its
    ``image_format``), its files by corpus name (``gcdisc/ANIMRE.gcm/<path>``,
    ``gcdisc/ANIMRE.rvz/<path>``) with disc offset, size, sha256 and the loose
    sample each copies, and the members of the PAK inside it. ``planted``:
    the GCM (``disc``), the compressed copies by format (``images``), the
    loose sample of every file of every image (``loose_copies``).
    """
    out = Path(out_dir)
    mot = sorted((out / "mot").rglob("*.mot"))[0]
    pak = out / "pak" / "Metroid1.pak"
    loose = {f"anim/{mot.name}": mot, f"Metroid/{pak.name}": pak}
    tree = {"anim": {mot.name: mot.read_bytes()}, "Metroid": {pak.name: pak.read_bytes()}}
    img, where = encode_gcm(tree)
    d = out / SUBDIR
    d.mkdir(parents=True, exist_ok=True)
    disc = f"{SUBDIR}/ANIMRE.gcm"
    (out / disc).write_bytes(img)
    images = {"ISO": disc}
    try:
        import nod_rs  # noqa: F401 - the disc extra writes the compressed copies
    except ImportError:
        pass
    else:
        for fmt in IMAGE_FORMATS:
            images[fmt] = f"{SUBDIR}/ANIMRE.{fmt.lower()}"
            convert(out / disc, out / images[fmt], fmt)
    files: dict[str, dict] = {}
    copies = {}
    for fmt, name in images.items():
        files[name] = {"status": "container", "format": None, "kind": "gcdisc", "members": len(where),
                       "size": (out / name).stat().st_size, "game_id": "GANR01", "image_format": fmt}
        entries = _entries(out, name, img, where, loose)
        files.update(entries)
        copies.update({f: e["loose"] for f, e in entries.items() if e.get("container") == name})
    return {"files": files, "planted": {"disc": disc, "images": {f: n for f, n in images.items() if f != "ISO"},
                                        "loose_copies": copies}}
