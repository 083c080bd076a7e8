"""Synthetic formats with planted structure, and corpora with no structure at all.

The truth of every generated file is known, which is what the inference of
a spec for an unknown format (``animre.infer_spec``) is measured against.
``generate`` writes the folder ``unknown/`` of the sample corpus: 20 files
of the format ``SYNA`` below, for which no spec ships.

SYNA (all integers little-endian)::

    offset  type     field       meaning
    0       4 bytes  magic       "SYNA"
    4       u2       version     2 in every file
    6       u2       num_frames  number of frame records
    8       u4       len_file    the file's size in bytes
    12      u4       ofs_frames  offset of the frame records (44 + 0..47 padding bytes)
    16      u4       ofs_names   offset of the name strings = ofs_frames + 16 * num_frames
    20      u2       width       8 .. 640
    22      u2       height      8 .. 480
    24      16 bytes title       ASCII, zero-padded
    40      u4       reserved    0
    44      ...      padding     random bytes up to ofs_frames
    ofs_frames: num_frames x 16 bytes: f4 x, f4 y, f4 z (-100 .. 100), u2 duration (1 .. 60),
                u2 name_index (< num_frames)
    ofs_names:  num_frames NUL-terminated ASCII names, to the end of the file

SYNV is the same idea with a variant byte: ``magic "SYNV"``, ``u1 kind`` (1
or 2), ``u1 pad`` (0), ``u2 num_records``, ``u4 len_file``, then records
from offset 12 to the end: kind 1 records are 12 bytes (f4 x, f4 y, f4 z),
kind 2 records 8 bytes (u4 time, increasing; f4 value).

SYNB is big-endian with no structural field at all (the byte order shows
only in which bytes vary): an 8-byte binary signature ``\\x8aSYB\\r\\n\\x1a\\n``,
``u4 13`` (a constant length), the tag ``"HEAD"``, ``u4 width`` (1 ..
4000), ``u4 height`` (1 .. 3000), ``u1 depth`` (1, 2, 4, 8 or 16), ``u1
mode`` (0, 2, 3, 4 or 6), ``u1 0``, ``u1 0``, ``u1 flags`` (0 or 1), then
random bytes (compressed-like) to the end.

SYND has a table directory no header field bounds: ``"SYND"``, ``u2be
num_tables`` (4 .. 24), ``u2be 0x10``, ``u4be reserved 0``, then from
offset 12 ``num_tables`` records of 16 bytes (``tag`` 4 ASCII letters,
``u4be checksum`` random, ``u4be ofs_table``, ``u4be len_table``), then the
tables' bytes (random, 4-aligned, in order) to the end.

SYNS (a sprite table of ``count + 2`` entries with 24-bit offsets) and SYNP
(an archive whose directory at the end is sized in bytes) are described by
their generators, :func:`syns_files` and :func:`synp_files`.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

__all__ = ["generate", "syna_files", "synv_files", "synb_files", "synd_files", "syns_files", "synp_files",
           "random_files", "sound_files", "SYNA_HEADER", "SYNV_HEADER", "SYNB_HEADER", "SYND_HEADER", "SYNS_HEADER",
           "SYNP_HEADER"]

SYNA_HEADER = [  # (offset, width, field, role); role None for plain values
    (0, 4, "magic", "magic"), (4, 2, "version", "const"), (6, 2, "num_frames", "count"),
    (8, 4, "len_file", "file_size"), (12, 4, "ofs_frames", "offset"), (16, 4, "ofs_names", "offset"),
    (20, 2, "width", None), (22, 2, "height", None), (24, 16, "title", "string"), (40, 4, "reserved", "const"),
]
SYNV_HEADER = [(0, 4, "magic", "magic"), (4, 1, "kind", None), (5, 1, "pad", "const"),
               (6, 2, "num_records", "count"), (8, 4, "len_file", "file_size")]
SYNB_HEADER = [(0, 8, "signature", "magic"), (8, 4, "len_head", "const"), (12, 4, "tag", "const"),
               (16, 4, "width", None), (20, 4, "height", None), (24, 1, "depth", None), (25, 1, "mode", None),
               (26, 1, "comp", "const"), (27, 1, "filter", "const"), (28, 1, "flags", None)]
SYND_HEADER = [(0, 4, "magic", "magic"), (4, 2, "num_tables", "count"), (6, 2, "unit", "const"),
               (8, 4, "reserved", "const")]
SYNS_HEADER = [(0, 2, "num_frames", "count"), (2, 2, "x", "const"), (4, 2, "y", "const"), (6, 2, "width", None),
               (8, 2, "height", None), (10, 2, "largest", None), (12, 2, "flags", "const")]
SYNP_HEADER = [(0, 4, "magic", "magic"), (4, 4, "ofs_dir", "offset"), (8, 4, "len_dir", "size")]
_WORDS = ["idle", "walk", "run", "jump", "fall", "land", "hit", "block", "kick", "punch", "spin", "dash", "roll",
          "duck", "taunt", "win", "lose", "throw", "grab", "climb"]


def _name(rng: np.random.Generator) -> bytes:
    return ("_".join(rng.choice(_WORDS, size=int(rng.integers(1, 3)))) + str(int(rng.integers(0, 99)))).encode()


def syna_files(n: int = 20, seed: int = 1) -> list[tuple[str, bytes, dict]]:
    """``n`` SYNA files: ``(name, bytes, planted values)``.

    Examples
    --------
    >>> name, data, v = syna_files(1, seed=3)[0]
    >>> data[:4], v["len_file"] == len(data), v["ofs_names"] == v["ofs_frames"] + 16 * v["num_frames"]
    (b'SYNA', True, True)
    """
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        nf = int(rng.integers(1, 40))
        pad = int(rng.integers(0, 48))
        ofs_frames = 44 + pad
        ofs_names = ofs_frames + 16 * nf
        names = [_name(rng) for _ in range(nf)]
        blob = b"".join(x + b"\0" for x in names)
        size = ofs_names + len(blob)
        title = _name(rng)[:15]
        w, h = int(rng.integers(8, 641)), int(rng.integers(8, 481))
        head = struct.pack("<4sHHIIIHH16sI", b"SYNA", 2, nf, size, ofs_frames, ofs_names, w, h, title, 0)
        frames = b"".join(struct.pack("<fffHH", *rng.uniform(-100, 100, 3), int(rng.integers(1, 61)),
                                      int(rng.integers(0, nf))) for _ in range(nf))
        data = head + rng.integers(0, 256, pad, dtype=np.uint8).tobytes() + frames + blob
        vals = {"version": 2, "num_frames": nf, "len_file": size, "ofs_frames": ofs_frames, "ofs_names": ofs_names,
                "width": w, "height": h, "title": title.decode(), "reserved": 0}
        out.append((f"ANIM{i:02d}.SYN", data, vals))
    return out


def synv_files(n: int = 24, seed: int = 2) -> list[tuple[str, bytes, dict]]:
    """``n`` SYNV files, half of kind 1, half of kind 2.

    Examples
    --------
    >>> [d[4] for _, d, _ in synv_files(4)]
    [1, 2, 1, 2]
    """
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        kind = 1 + i % 2
        nr = int(rng.integers(2, 60))
        if kind == 1:
            recs = b"".join(struct.pack("<fff", *rng.uniform(-10, 10, 3)) for _ in range(nr))
        else:
            t = np.cumsum(rng.integers(1, 30, nr))
            recs = b"".join(struct.pack("<If", int(x), float(rng.uniform(0, 1))) for x in t)
        size = 12 + len(recs)
        data = struct.pack("<4sBBHI", b"SYNV", kind, 0, nr, size) + recs
        out.append((f"V{i:02d}.SYV", data, {"kind": kind, "num_records": nr, "len_file": size}))
    return out


def synb_files(n: int = 24, seed: int = 3) -> list[tuple[str, bytes, dict]]:
    """``n`` SYNB files (big-endian, no structural field).

    Examples
    --------
    >>> name, data, v = synb_files(1)[0]
    >>> data[12:16], int.from_bytes(data[16:20], "big") == v["width"]
    (b'HEAD', True)
    """
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        w, h = int(rng.integers(1, 4001)), int(rng.integers(1, 3001))
        depth, mode, flags = int(rng.choice([1, 2, 4, 8, 16])), int(rng.choice([0, 2, 3, 4, 6])), int(i % 3 == 0)
        head = struct.pack(">8sI4sIIBBBBB", b"\x8aSYB\r\n\x1a\n", 13, b"HEAD", w, h, depth, mode, 0, 0, flags)
        body = rng.integers(0, 256, int(rng.integers(64, 3000)), dtype=np.uint8).tobytes()
        out.append((f"B{i:02d}.SYB", head + body, {"width": w, "height": h, "depth": depth, "mode": mode,
                                                  "flags": flags}))
    return out


def synd_files(n: int = 24, seed: int = 4) -> list[tuple[str, bytes, dict]]:
    """``n`` SYND files: a table directory of ``num_tables`` 16-byte records right after a 12-byte header.

    Examples
    --------
    >>> name, data, v = synd_files(1)[0]
    >>> int.from_bytes(data[4:6], "big") == len(v["tables"]), data[v["tables"][0][1]:][:0]
    (True, b'')
    """
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        nt = int(rng.integers(4, 25))
        at = 12 + 16 * nt
        recs, blobs, tables = [], [], []
        for _ in range(nt):
            tag = bytes(rng.integers(97, 123, 4, dtype=np.uint8))
            ln = int(rng.integers(1, 400))
            recs.append(struct.pack(">4sIII", tag, int(rng.integers(0, 1 << 32)), at, ln))
            blobs.append(rng.integers(0, 256, ln, dtype=np.uint8).tobytes() + bytes(-ln % 4))
            tables.append((tag.decode(), at, ln))
            at += ln + (-ln % 4)
        data = struct.pack(">4sHHI", b"SYND", nt, 16, 0) + b"".join(recs) + b"".join(blobs)
        out.append((f"D{i:02d}.SYD", data, {"num_tables": nt, "tables": tables}))
    return out


def syns_files(n: int = 30, seed: int = 5, extra: bool = True) -> list[tuple[str, bytes, dict]]:
    """``n`` SYNS files: a sprite sheet as some games keep one. A 14-byte header (``u2 num_frames``, ``u2 0``,
    ``u2 0``, ``u2 width``, ``u2 height``, ``u2 largest``, ``u2 0``), then ``num_frames + 2`` 8-byte entries
    (a 24-bit offset with a format byte 0x80/0x40/0x20 in the top 8, a 24-bit reference with its own format
    byte); entry ``num_frames`` holds the file's size, the last is zeros; the frames follow. With
    ``extra=False``: exactly ``num_frames`` entries of a 32-bit offset and a 32-bit length. The planted values:
    ``offsets``, every entry's offset.

    Examples
    --------
    >>> name, data, v = syns_files(1)[0]
    >>> v["offsets"][-2] == len(data), v["offsets"][0] == 14 + 8 * (v["num_frames"] + 2)
    (True, True)
    """
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        count = int(rng.integers(1, 40))
        head = struct.pack("<7H", count, 0, 0, *(int(x) for x in rng.integers(8, 64, 2)), int(rng.integers(100, 3000)),
                           0)
        sizes = [int(x) for x in rng.integers(20, 400, count)]
        pos = len(head) + 8 * (count + (2 if extra else 0))
        offs = []
        for size in sizes:
            offs.append(pos)
            pos += size
        table = b""
        for k, (o, size) in enumerate(zip(offs, sizes)):
            if extra:
                fmt = 0x80 if k == 0 else int(rng.choice([0x20, 0x40, 0x80]))
                ref = 0 if fmt == 0x80 else offs[k - 1]
                table += struct.pack("<II", o | fmt << 24, ref | (0x48 if ref else 0) << 24)
            else:
                table += struct.pack("<II", o, size)
        if extra:
            table += struct.pack("<II", pos, 0) + bytes(8)
            offs += [pos, 0]
        frames = rng.integers(0, 256, pos - len(head) - len(table), dtype=np.uint8).tobytes()
        out.append((f"S{i:03d}.SHP", head + table + frames, {"num_frames": count, "offsets": offs}))
    return out


def synp_files(n: int = 20, seed: int = 4) -> list[tuple[str, bytes, dict]]:
    """``n`` SYNP files: an archive as Quake keeps one. ``"PACK"``, ``u4 ofs_dir``, ``u4 len_dir`` (bytes), the
    members, then the directory at the end: 64-byte entries (a name padded with zeros to 56 bytes, ``u4``
    offset, ``u4`` size). The planted values: ``ofs_dir``, ``len_dir``.

    Examples
    --------
    >>> name, data, v = synp_files(1)[0]
    >>> v["ofs_dir"] + v["len_dir"] == len(data), v["len_dir"] % 64
    (True, 0)
    """
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        members = [rng.integers(0, 256, int(rng.integers(0, 300)), dtype=np.uint8).tobytes()
                   for _ in range(int(rng.integers(2, 30)))]
        pos, entries = 12, b""
        for j, m in enumerate(members):
            entries += f"maps/m{j}.bsp".encode().ljust(56, b"\0") + struct.pack("<II", pos, len(m))
            pos += len(m)
        data = b"PACK" + struct.pack("<II", pos, len(entries)) + b"".join(members) + entries
        out.append((f"P{i:02d}.PAK", data, {"ofs_dir": pos, "len_dir": len(entries)}))
    return out


def random_files(n: int, size: tuple[int, int] = (64, 4096), seed: int = 0,
                 prefix: bytes = b"") -> list[tuple[str, bytes]]:
    """``n`` files of uniformly random bytes (after an optional constant ``prefix``), sizes in ``size``.

    Examples
    --------
    >>> [len(d) for _, d in random_files(2, (10, 11))]
    [10, 10]
    """
    rng = np.random.default_rng(seed)
    return [(f"R{i:04d}.BIN", prefix + rng.integers(0, 256, int(rng.integers(*size)), dtype=np.uint8).tobytes())
            for i in range(n)]


def sound_files(n: int, seconds: tuple[float, float] = (0.05, 0.5), seed: int = 0) -> list[tuple[str, bytes]]:
    """``n`` headerless 16-bit mono sound files (22050 Hz tones with noise and a fade).

    Examples
    --------
    >>> name, data = sound_files(1)[0]
    >>> name, len(data) % 2
    ('S0000.RAW', 0)
    """
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        k = int(22050 * rng.uniform(*seconds))
        t = np.arange(k) / 22050
        amp = rng.uniform(200, 12000)
        y = amp * np.sin(2 * np.pi * rng.uniform(80, 2000) * t) * np.linspace(1, 0.2, k)
        y += rng.normal(0, amp / 20, k)
        out.append((f"S{i:04d}.RAW", np.clip(y, -32768, 32767).astype("<i2").tobytes()))
    return out


def generate(out_dir: str | Path, seed: int) -> dict:
    """Write ``unknown/``: 20 SYNA files; returns their planted values and the header layout."""
    folder = Path(out_dir) / "unknown"
    folder.mkdir(parents=True, exist_ok=True)
    files = {}
    for name, data, vals in syna_files(20, seed):
        (folder / name).write_bytes(data)
        files[f"unknown/{name}"] = {"format": "syna", **vals}
    return {"files": files, "header": [list(x) for x in SYNA_HEADER], "format": "SYNA (see animre.samples.synthetic)"}
