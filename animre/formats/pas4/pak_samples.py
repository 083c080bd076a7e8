"""Retro PAK sample generator: ANCS character sets built from the bare PAS4 samples.

Writes ``pak/Metroid1.pak`` with :mod:`struct`, :mod:`zlib` and the
``lzallright`` LZO compressor, in the Metroid Prime 1/2 PAK layout (see
:mod:`animre.sources.containers.pak`). Its resources:

- an uncompressed ANCS (characters Samus, Zoomer), named by the
  named-resource table (``Samus_AnimSet.ANCS``);
- a zlib-compressed ANCS (Metroid Prime 1 compression; Metroid, Beetle);
- an LZO-compressed ANCS (Metroid Prime 2 compression, two 0x4000-byte
  segments: Parasite, Puffer; the second character carries many animation
  boxes so the file spans more than one segment);
- a small LZO-compressed CMDL stand-in of CRC-32 bytes (stored as a raw
  segment: LZO does not shrink it) and an uncompressed STRG stand-in.

Each character's PAS4 database is the exact bytes of the bare sample of the
same name (``pas4/<name>.pas4``), so a test compares the tables read inside
the PAK with the bare blocks. Manifest: every resource with its type, id,
compression, stored and decompressed size, and its characters (name, id,
the bare sample, block offset inside the decompressed ANCS).
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from .samples import encode_ancs

__all__ = ["generate", "build", "encode_pak", "compress", "USES", "SUBDIR"]

SUBDIR = "pak"
USES = ("pas4",)  # the bare PAS4 samples become the characters' databases
LZO_SEGMENT = 0x4000
# (resource id, compression, named-resource name, characters): characters whose bare sample carries
# no planted irregularity, so the whole sample corpus keeps the PAS4 generator's planted counts
ANCS_SETS = [
    (0x0A1B2C3D, "none", "Samus_AnimSet", ["Samus", "Zoomer"]),
    (0x1BADB002, "zlib", None, ["Metroid", "Beetle"]),
    (0x2C0FFEE0, "lzo", None, ["Parasite", "Puffer"]),
]


def compress(data: bytes, kind: str) -> bytes:
    """A PAK resource body: ``data`` itself, or u4 size + zlib stream, or u4 size + LZO segments.

    Examples
    --------
    >>> from animre.sources.containers.pak import decompress
    >>> decompress(compress(b"abc" * 9000, "lzo")) == b"abc" * 9000
    True
    """
    if kind == "none":
        return data
    if kind == "zlib":
        return struct.pack(">I", len(data)) + zlib.compress(data, 9)
    # optional dependency (Python 3.11+ only): only the LZO PAK needs it
    from lzallright import LZOCompressor

    lzo = LZOCompressor()
    out = bytearray(struct.pack(">I", len(data)))
    for i in range(0, len(data), LZO_SEGMENT):
        seg = data[i:i + LZO_SEGMENT]
        packed = lzo.compress(seg)
        if len(packed) < len(seg):
            out += struct.pack(">h", len(packed)) + packed
        else:  # a negative length stores the segment as it is
            out += struct.pack(">h", -len(seg)) + seg
    return bytes(out)


def encode_pak(resources: list[tuple[str, int, bytes, str]], named: dict[tuple[str, int], str]) -> bytes:
    """A PAK (version 3.5) from ``(type, id, data, compression)`` resources and named resources.

    ``compression`` is ``none``, ``zlib`` or ``lzo``; bodies are 32-byte
    aligned and padded with 0xFF, as the game's PAKs are.
    """
    head = bytearray(struct.pack(">HHI", 3, 5, 0))
    head += struct.pack(">I", len(named))
    for (rtype, rid), name in named.items():
        head += rtype.encode("ascii") + struct.pack(">II", rid, len(name)) + name.encode("ascii")
    head += struct.pack(">I", len(resources))
    table_at = len(head)
    head += bytes(20 * len(resources))
    head += b"\xff" * (-len(head) % 32)
    body = bytearray()
    for i, (rtype, rid, data, kind) in enumerate(resources):
        stored = compress(data, kind)
        stored += b"\xff" * (-len(stored) % 32)
        struct.pack_into(">I4sIII", head, table_at + 20 * i, int(kind != "none"), rtype.encode("ascii"), rid,
                         len(stored), len(head) + len(body))
        body += stored
    return bytes(head + body)


OTHER = [("CMDL", 0x3D3D3D3D, "lzo"), ("STRG", 0x4E4E4E4E, "none")]  # not animation files: skipped


def build(out_dir: Path, container: str) -> tuple[bytes, dict[str, dict]]:
    """The PAK and the manifest entries of its members below corpus name ``container``.

    A pure function of the bare PAS4 samples in ``out_dir/pas4`` (ids and
    stand-in bytes come from CRC-32s of the names, not from a random
    generator), so the disc image generator rebuilds the same PAK with the
    same truth. Each ANCS entry lists its characters (name, id, the bare
    sample holding the same database, block start and end in the
    decompressed ANCS) and ``read_size``: the bytes its member reads (an
    uncompressed resource keeps its 0xFF padding to 32 bytes).

    Examples
    --------
    >>> import tempfile
    >>> from animre.samples import generate_all
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = generate_all(d, seed=1, only=["pas4"])
    >>> pak, entries = build(d, "P.pak")
    >>> sorted(entries)[:2], pak[:4].hex()
    (['P.pak/1BADB002.ANCS', 'P.pak/2C0FFEE0.ANCS'], '00030005')
    """
    out = Path(out_dir)
    files: dict[str, dict] = {}
    resources, named = [], {}
    for rid, kind, rname, chars in ANCS_SETS:
        blocks = [(out / "pas4" / f"{c}.pas4").read_bytes() for c in chars]
        infos = []
        for c in chars:
            crc = zlib.crc32(c.encode())
            info = {"id": crc & 0xFFFF, "name": c, "info_version": 6, "cmdl_id": crc, "particle_ids": [crc ^ rid]}
            if kind == "lzo" and c == chars[-1]:
                info["aabbs"] = [[f"{c}_anim{k:03d}", [-1.0, -1.0, 0.0, 1.0, 1.0, float(k)]] for k in range(700)]
            infos.append(info)
        data, offsets = encode_ancs(infos, blocks)
        resources.append(("ANCS", rid, data, kind))
        if rname:
            named[("ANCS", rid)] = rname
        files[f"{container}/{rname or f'{rid:08X}'}.ANCS"] = {
            "status": "parsed", "format": "pas4", "container": container, "type": "ANCS", "id": rid,
            "compression": kind, "size": len(data), "read_size": _read_size(len(data), kind),
            "characters": [{"name": c, "id": i["id"], "pas4": f"pas4/{c}.pas4", "pas4_offset": o,
                            "pas4_end": o + len(b)} for c, i, o, b in zip(chars, infos, offsets, blocks)]}
    other = {"CMDL": b"".join(zlib.crc32(bytes([k])).to_bytes(4, "big") for k in range(50)),
             "STRG": b"STRG stand-in: not an animation file\n"}
    for rtype, rid, kind in OTHER:
        resources.append((rtype, rid, other[rtype], kind))
        files[f"{container}/{rid:08X}.{rtype}"] = {
            "status": "skipped", "format": None, "container": container, "type": rtype, "id": rid,
            "compression": kind, "size": len(other[rtype]), "read_size": _read_size(len(other[rtype]), kind),
            "characters": []}
    return encode_pak(resources, named), files


def _read_size(size: int, kind: str) -> int:
    return size + (-size % 32) if kind == "none" else size


def generate(out_dir: Path, seed: int) -> dict:
    """Write ``pak/Metroid1.pak`` from the bare PAS4 samples; return the manifest section.

    Manifest ``files``: the PAK (status ``container``) and every member by
    corpus name (``pak/Metroid1.pak/<member>``), see :func:`build`. The PAK
    depends on ``seed`` only through the PAS4 samples it packs.
    """
    out = Path(out_dir)
    arch = f"{SUBDIR}/Metroid1.pak"
    pak, files = build(out, arch)
    d = out / SUBDIR
    d.mkdir(parents=True, exist_ok=True)
    (out / arch).write_bytes(pak)
    files[arch] = {"status": "container", "format": None, "kind": "pak", "members": len(ANCS_SETS) + len(OTHER),
                   "size": len(pak)}
    assert max(t["size"] for t in files.values() if t.get("compression") == "lzo") > LZO_SEGMENT
    return {"files": files, "planted": {"archive": arch}}
