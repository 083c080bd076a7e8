"""HoMM2 ``*.ICN`` sprite sheet and ``KB.PAL`` sample generator.

Writes with :mod:`struct` / numpy only (never the parsers or the decoder).
Every sprite is drawn first as truth arrays (colour index and the engine's
transform level per pixel: 0 opaque, 1 transparent, 2-5 shadow, 6-10 light),
then encoded with the run-length commands the fheroes2 engine decodes. The
manifest keeps, per sprite, its header values, a SHA-256 of the truth
(``image`` bytes then ``transform`` bytes, row by row) with pixel counts,
and a few planted pixels ``[x, y, index, level]`` of each kind present.

Files:

- ``icn/SAMPLE.ICN``: a handful of sprites that use every command: literal
  runs, short (0xC2-0xFF) and long (0xC1) fills, transparent skips, shadow and
  light levels with the count in the low bits or in an extra byte, 0xC0 runs
  without the 0x40 bit (skipped) and with levels 16/17 (ignored), rows left
  short, a last row ended by 0x80 without 0x00, a zero-size sprite and a
  monochrome sprite (type byte 0x20).
- ``icn/MONO.ICN``: monochrome sprites only (type byte 0x20).
- ``icn/ANIM.ICN``: an adventure-map style animation: sprite 0's type byte
  holds the number of frames that follow (7), the frames carry shadows.
- ``icn/<MONSTER>.ICN``: 255 small sprites each for the monsters of
  :data:`PAIRS`, named as the engine's monster table names the ICN of the
  FRM sample ``frm/<X>FRM.BIN``; frame ids 0-254 all exist.
- ``pal/KB.PAL``: 256 colours of three 6-bit values; index i is
  ``(i >> 2, (i * 5) & 63, (255 - i) >> 2)``.

:func:`icn_members` gives the same files as ``(name, bytes)`` for an AGG archive.
"""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

import numpy as np

__all__ = ["generate", "icn_members", "encode_icn", "encode_sprite", "draw_sprite", "kb_pal", "PAIRS"]

SUBDIR = "icn"
PAL_SUBDIR = "pal"
# FRM sample -> its monster's ICN, as the engine's monster table pairs them
PAIRS = [("GOBLNFRM.BIN", "GOBLIN.ICN"), ("PHOENFRM.BIN", "PHOENIX.ICN")]
MONSTER_SPRITES = 255


def kb_pal() -> bytes:
    """The sample ``KB.PAL``: 768 bytes of 6-bit components."""
    i = np.arange(256)
    rgb = np.stack([i >> 2, (i * 5) & 63, (255 - i) >> 2], axis=1).astype(np.uint8)
    return rgb.tobytes()


# ------------------------------------------------------------------ drawing + encoding


def _segments(rng, width: int, kinds: list[str]) -> list[tuple]:
    """A row as runs (kind, length, value) that fit in ``width``; the rest stays transparent."""
    segs, x = [], 0
    while x < width and rng.random() < 0.9:
        kind = kinds[int(rng.integers(len(kinds)))]
        room = width - x
        if kind == "lit":
            n = int(rng.integers(1, min(room, 127) + 1))
            segs.append(("lit", n, rng.integers(0, 256, n).astype(np.uint8).tobytes()))
        elif kind == "fill":
            n = int(rng.integers(1, min(room, 255) + 1))
            segs.append(("fill", n, int(rng.integers(0, 256))))
        elif kind == "skip":
            n = int(rng.integers(1, min(room, 63) + 1))
            segs.append(("skip", n, None))
        elif kind == "mono":
            n = int(rng.integers(1, min(room, 127) + 1))
            segs.append(("mono", n, None))
        elif kind == "mskip":
            n = int(rng.integers(1, min(room, 127) + 1))
            segs.append(("mskip", n, None))
        else:  # shadow (2-5), light (6-10), c0skip (no 0x40 bit), c0ignored (level 16/17)
            n = int(rng.integers(1, min(room, 255) + 1))
            level = {"shadow": (2, 6), "light": (6, 11), "c0skip": (2, 16), "c0ignored": (16, 18)}[kind]
            segs.append((kind, n, int(rng.integers(*level))))
        x += segs[-1][1]
    return segs


def draw_sprite(rows: list[list[tuple]], width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """Truth arrays of a sprite from its row runs: (image, transform), both uint8 (height, width)."""
    image = np.zeros((height, width), np.uint8)
    tf = np.ones((height, width), np.uint8)
    for y, segs in enumerate(rows):
        x = 0
        for kind, n, v in segs:
            if kind == "lit":
                image[y, x:x + n] = np.frombuffer(v, np.uint8)
                tf[y, x:x + n] = 0
            elif kind == "fill":
                image[y, x:x + n] = v
                tf[y, x:x + n] = 0
            elif kind == "mono":
                tf[y, x:x + n] = 0
            elif kind in ("shadow", "light"):
                tf[y, x:x + n] = v
            x += n
    return image, tf


def encode_sprite(rows: list[list[tuple]], rng, end_without_newline: bool = False) -> bytes:
    """The run-length commands of a sprite's rows, ended by 0x80."""
    out = bytearray()
    for y, segs in enumerate(rows):
        for kind, n, v in segs:
            if kind == "lit":
                out += bytes([n]) + v
            elif kind == "fill":
                if n >= 2 and n <= 63 and rng.random() < 0.7:
                    out += bytes([0xC0 + n, v])
                else:
                    out += bytes([0xC1, n, v])
            elif kind in ("skip", "mskip"):
                out += bytes([0x80 + n])
            elif kind == "mono":
                out += bytes([n])
            else:
                flag = 0x00 if kind == "c0skip" else 0x40
                t = flag | ((v - 2) << 2)
                out += bytes([0xC0, t | n]) if n <= 3 and rng.random() < 0.7 else bytes([0xC0, t, n])
        if not (end_without_newline and y == len(rows) - 1):
            out.append(0x00)
    out.append(0x80)
    return bytes(out)


def encode_icn(headers: list[tuple], datas: list[bytes]) -> bytes:
    """An ICN file from (offset_x, offset_y, width, height, type_byte) headers and sprite data."""
    table = bytearray()
    ofs = len(headers) * 13
    for (ox, oy, w, h, tb), d in zip(headers, datas):
        table += struct.pack("<hhHHBI", ox, oy, w, h, tb, ofs)
        ofs += len(d)
    block = bytes(table) + b"".join(datas)
    return struct.pack("<HI", len(headers), len(block)) + block


def _truth(image: np.ndarray, tf: np.ndarray, rng) -> dict:
    """Hash, counts and a few planted pixels of each kind present."""
    planted = []
    for sel in (tf == 0, tf == 1, (tf >= 2) & (tf <= 5), tf >= 6):
        ys, xs = np.nonzero(sel)
        for k in rng.choice(len(ys), size=min(2, len(ys)), replace=False) if len(ys) else []:
            planted.append([int(xs[k]), int(ys[k]), int(image[ys[k], xs[k]]), int(tf[ys[k], xs[k]])])
    return {
        "sha256": hashlib.sha256(image.tobytes() + tf.tobytes()).hexdigest(),
        "n_opaque": int((tf == 0).sum()),
        "n_transparent": int((tf == 1).sum()),
        "n_shadow": int(((tf >= 2) & (tf <= 5)).sum()),
        "n_light": int((tf >= 6).sum()),
        "planted": planted,
    }


def _sprite(rng, width: int, height: int, kinds: list[str], type_byte: int = 0, offsets=None,
            end_without_newline: bool = False) -> tuple[tuple, bytes, dict]:
    rows = [_segments(rng, width, kinds) for _ in range(height)]
    image, tf = draw_sprite(rows, width, height)
    data = encode_sprite(rows, rng, end_without_newline)
    ox, oy = offsets if offsets is not None else (int(rng.integers(-30, 11)), int(rng.integers(-60, -4)))
    header = (ox, oy, width, height, type_byte)
    truth = {"offset_x": ox, "offset_y": oy, "width": width, "height": height, "type_byte": type_byte,
             "len_data": len(data), **_truth(image, tf, rng)}
    return header, data, truth


NORMAL = ["lit", "fill", "skip", "shadow", "light", "c0skip", "c0ignored"]


def _sample_icn(rng) -> tuple[bytes, list[dict]]:
    """SAMPLE.ICN: every command kind, a zero-size sprite and a monochrome sprite."""
    specs = [
        dict(width=24, height=10, kinds=NORMAL),
        dict(width=40, height=6, kinds=["fill", "skip", "shadow"], end_without_newline=True),
        dict(width=0, height=0, kinds=NORMAL),
        dict(width=30, height=12, kinds=["mono", "mskip"], type_byte=0x20),
        dict(width=300, height=3, kinds=["fill", "lit", "c0skip", "shadow"]),  # long runs: 0xC1 / count bytes
        dict(width=16, height=16, kinds=NORMAL, type_byte=3),  # an animation frame count in the type byte
    ]
    headers, datas, truths = [], [], []
    for s in specs:
        h, d, t = _sprite(rng, **s)
        headers.append(h)
        datas.append(d)
        truths.append(t)
    return encode_icn(headers, datas), truths


def _mono_icn(rng) -> tuple[bytes, list[dict]]:
    sizes = [(12, 9), (33, 5), (1, 1), (130, 2)]
    parts = [_sprite(rng, w, h, ["mono", "mskip"], type_byte=0x20) for w, h in sizes]
    return encode_icn([p[0] for p in parts], [p[1] for p in parts]), [p[2] for p in parts]


def _anim_icn(rng) -> tuple[bytes, list[dict]]:
    parts = [_sprite(rng, 20, 14, ["lit", "fill", "skip", "shadow"], type_byte=7 if k == 0 else 0,
                     offsets=(-10 + k, -14)) for k in range(8)]
    return encode_icn([p[0] for p in parts], [p[1] for p in parts]), [p[2] for p in parts]


def _monster_icn(rng) -> tuple[bytes, list[dict]]:
    headers, datas, truths = [], [], []
    for _ in range(MONSTER_SPRITES):
        w, h = int(rng.integers(4, 15)), int(rng.integers(4, 13))
        hd, d, t = _sprite(rng, w, h, ["lit", "fill", "skip", "shadow"])
        headers.append(hd)
        datas.append(d)
        truths.append(t)
    return encode_icn(headers, datas), truths


def _build(seed_or_rng) -> tuple[list[tuple[str, bytes]], dict]:
    rng = seed_or_rng if isinstance(seed_or_rng, np.random.Generator) else np.random.default_rng(seed_or_rng)
    members, truth = [], {}
    data, t = _sample_icn(rng)
    members.append(("SAMPLE.ICN", data))
    truth["SAMPLE.ICN"] = t
    for name, make in (("MONO.ICN", _mono_icn), ("ANIM.ICN", _anim_icn)):
        data, t = make(rng)
        members.append((name, data))
        truth[name] = t
    for _, icn in PAIRS:
        data, t = _monster_icn(rng)
        members.append((icn, data))
        truth[icn] = t
    members.append(("KB.PAL", kb_pal()))
    return members, truth


def icn_members(rng_or_seed) -> list[tuple[str, bytes]]:
    """The sample ICN files and ``KB.PAL`` as ``(name, bytes)``, e.g. for an AGG archive.

    Examples
    --------
    >>> [n for n, _ in icn_members(1)][:2], len(dict(icn_members(1))["KB.PAL"])
    (['SAMPLE.ICN', 'MONO.ICN'], 768)
    """
    return _build(rng_or_seed)[0]


def generate(out_dir: Path, seed: int) -> dict:
    """Write ``icn/*.ICN`` and ``pal/KB.PAL`` under ``out_dir``; return the manifest section."""
    members, truth = _build(seed)
    d = Path(out_dir) / SUBDIR
    p = Path(out_dir) / PAL_SUBDIR
    d.mkdir(parents=True, exist_ok=True)
    p.mkdir(parents=True, exist_ok=True)
    files = {}
    for name, data in members:
        if name.endswith(".PAL"):
            (p / name).write_bytes(data)
            files[f"{PAL_SUBDIR}/{name}"] = {"size": len(data),
                                              "colors": [list(data[i:i + 3]) for i in range(0, len(data), 3)]}
        else:
            (d / name).write_bytes(data)
            files[f"{SUBDIR}/{name}"] = {"num_sprites": len(truth[name]), "size": len(data),
                                          "sprites": truth[name]}
    return {
        "files": files,
        "palette": f"{PAL_SUBDIR}/KB.PAL",
        "pairs": {f"frm/{f}": f"{SUBDIR}/{i}" for f, i in PAIRS},
        "planted": {
            "monochrome": [f"{SUBDIR}/SAMPLE.ICN", 3],
            "zero_size": [f"{SUBDIR}/SAMPLE.ICN", 2],
            "ends_without_newline": [f"{SUBDIR}/SAMPLE.ICN", 1],
        },
    }
