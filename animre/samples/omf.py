"""One Must Fall 2097 sample generator: fighter (``FIGHTR*.AF``) and arena (``*.BK``) files.

Writes with :mod:`struct` only (never the Kaitai parsers). Every sprite holds
a real small image (rectangles, ellipses, rings, triangles, crosses,
checkerboards with transparent holes) encoded as an OMF pixel stream by
:func:`encode_pixels`; the manifest records each image's shape parameters,
and :func:`encoded_images` rebuilds the exact indexed pixels + transparency
mask that were encoded, per file / move / sprite.

Planted regularities (manifest ``planted``):

- ``unknown_6`` of the move footer equals ``damage // 2`` in all moves except
  those listed under ``unknown_6_damage_half.exceptions``.
- ``pos_constraint`` bit 0x2 is set only in moves of category 7 (jumping).
- ``unknown_9`` is 0 everywhere except one move of one file
  (``unknown_9_constant.exception``: file, move, absolute offset, value).
- ``unknown_11`` is uniformly random 0-255 (a false-discovery guard).
- Move strings with non-zero bytes after the first NUL are listed under
  ``move_string_labels``.

Also true in every file: exec window 10, move terminator 250 at byte -31,
sound table ending with ``FGHED``, animation ``unknown_4`` 0, coordinate
bits 10-15 zero, collision points with negative coordinates, missing
sprites that reuse an earlier sprite's index.
"""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

import numpy as np

__all__ = [
    "generate",
    "make_image",
    "encode_pixels",
    "encoded_images",
    "pack_coord",
    "AF_DIR",
    "BK_DIR",
    "AF_NAMES",
    "BK_NAMES",
]

AF_DIR = "af"  # sample folder = format id
BK_DIR = "bk"
AF_NAMES = [f"FIGHTR{i}.AF" for i in range(11)]
BK_NAMES = ["ARENA0.BK", "ARENA1.BK", "ARENA2.BK"]
SHAPES = ["rect", "ellipse", "ring", "triangle", "cross", "checker"]
CATEGORIES = [0, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
ATTACK_CATEGORIES = {2, 4, 5, 6, 7, 8, 12, 13}
COMBOS = ["P", "K", "2P", "2K", "8P", "8K", "236P", "214K", "63P", "B4P", "D2K", "412K", "6K", "4P", "2369P"]
LABELS = [b"lbl", b"throw", b"x1", b"JMP", b"Z9"]
MOVE_TERMINATOR = 250
BK_TERMINATOR = 51


# ----------------------------------------------------------------------------- images


def make_image(spec: dict) -> np.ma.MaskedArray:
    """The indexed image described by ``spec`` (a manifest ``image`` entry).

    ``spec`` has ``kind`` (one of rect, ellipse, ring, triangle, cross,
    checker, empty), ``width``, ``height``, ``color`` and ``seed``. Returns a
    uint8 masked array of shape (height, width); masked = transparent.

    Examples
    --------
    >>> img = make_image({"kind": "rect", "width": 4, "height": 3, "color": 7, "seed": 1})
    >>> img.shape
    (3, 4)
    """
    kind, w, h = spec["kind"], int(spec["width"]), int(spec["height"])
    rng = np.random.default_rng(int(spec["seed"]))
    yy, xx = np.mgrid[0:h, 0:w]
    cx, cy = (w - 1) / 2, (h - 1) / 2
    rx, ry = max(w / 2, 0.5), max(h / 2, 0.5)
    if kind == "empty":
        opaque = np.zeros((h, w), bool)
    elif kind == "rect":
        opaque = (xx >= 1) & (xx < w - 1) & (yy >= 1) & (yy < h - 1)
    elif kind == "ellipse":
        opaque = ((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2 <= 1.0
    elif kind == "ring":
        r2 = ((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2
        opaque = (r2 <= 1.0) & (r2 >= 0.35)
    elif kind == "triangle":
        opaque = xx * h <= (yy + 1) * w
    elif kind == "cross":
        opaque = (np.abs(xx - cx) <= max(1, w // 6)) | (np.abs(yy - cy) <= max(1, h // 6))
    elif kind == "checker":
        opaque = ((xx // 2) + (yy // 2)) % 2 == 0
    else:
        raise ValueError(f"unknown image kind {kind!r}")
    pixels = (int(spec["color"]) + (xx + 2 * yy) % 8 + rng.integers(0, 3, (h, w))) % 256
    pixels = pixels.astype(np.uint8)
    if w > 2 and h > 2:
        pixels[h // 2, w // 2] = 0  # an opaque pixel of value 0: transparency is the mask, not index 0
    return np.ma.MaskedArray(pixels, mask=~opaque)


def encode_pixels(img: np.ma.MaskedArray) -> bytes:
    """Encode an image as an OMF sprite pixel stream.

    u2 words: op = w & 3, arg = w >> 2; 0 set x, 2 set y, 1 copy ``arg`` raw
    bytes at (x, y) then x = 0, 3 end. Only opaque runs are written, so
    untouched pixels stay transparent. A fully transparent image is an empty
    stream (``len_data`` 0).
    """
    mask = np.ma.getmaskarray(img)
    data = np.ma.getdata(img)
    h, w = data.shape
    out = bytearray()
    cur_y = 0
    for y in range(h):
        row = ~mask[y]
        if not row.any():
            continue
        if y != cur_y:
            out += struct.pack("<H", (y << 2) | 2)
            cur_y = y
        x = 0
        while x < w:
            if not row[x]:
                x += 1
                continue
            x0 = x
            while x < w and row[x]:
                x += 1
            if x0 != 0:  # x is 0 at the start and after every copy
                out += struct.pack("<H", (x0 << 2) | 0)
            out += struct.pack("<H", ((x - x0) << 2) | 1)
            out += data[y, x0:x].tobytes()
    if not out:
        return b""
    out += struct.pack("<H", 3)
    return bytes(out)


def encoded_images(entry: dict) -> list[tuple[int, int, np.ma.MaskedArray]]:
    """The images the generator encoded into one file, in file order.

    Parameters
    ----------
    entry : dict
        A manifest file entry (``manifest["formats"]["omf"]["files"]["af/FIGHTR0.AF"]``).

    Returns
    -------
    list of (number, sprite position, masked uint8 image of shape (height, width))
        ``number`` is the move (AF) or animation (BK) number; missing sprites
        give the image of the sprite they reuse.

    Examples
    --------
    >>> from animre.samples import load_manifest
    >>> imgs = encoded_images(load_manifest("data/samples")["formats"]["omf"]["files"]["af/FIGHTR0.AF"])
    >>> len(imgs) > 0
    True
    """
    records = entry["moves"] if "moves" in entry else entry["animations"]
    key = "move" if "moves" in entry else "anim"
    by_pos: dict[tuple[int, int], np.ma.MaskedArray] = {}
    out = []
    for rec in records:
        for p, s in enumerate(rec["animation"]["sprites"]):
            if s["missing"]:
                img = by_pos[tuple(s["source"])]
            else:
                img = make_image(s["image"])
            by_pos[(rec[key], p)] = img
            out.append((rec[key], p, img))
    return out


# ----------------------------------------------------------------------------- writers


def pack_coord(x: int, y: int, frame: int, unused: int = 0) -> int:
    """Pack a collision point: bits 0-9 x, 10-15 unused, 16-25 y, 26-31 frame (x, y two's complement)."""
    return (x & 0x3FF) | ((unused & 0x3F) << 10) | ((y & 0x3FF) << 16) | ((frame & 0x3F) << 26)


def _write_anim_string(b: bytearray, text: str) -> None:
    raw = text.encode("latin-1")
    b += struct.pack("<H", len(raw)) + raw + b"\x00"


def _write_footer_string(b: bytearray, s: dict) -> None:
    b += struct.pack("<H", s["len"])
    if s["len"]:
        raw = s["text"].encode("latin-1")
        assert len(raw) + 1 == s["len"]
        b += raw + b"\x00"


def _write_animation(b: bytearray, a: dict, streams: dict) -> None:
    a["ofs"] = len(b)
    b += struct.pack("<hhIHB", a["start_x"], a["start_y"], a["unknown_4"], len(a["coords"]), len(a["sprites"]))
    for c in a["coords"]:
        b += struct.pack("<I", c["raw"])
    _write_anim_string(b, a["anim_string"])
    b += struct.pack("<B", len(a["extra_strings"]))
    for s in a["extra_strings"]:
        _write_anim_string(b, s)
    for s in a["sprites"]:
        s["ofs"] = len(b)
        b += struct.pack("<HhhHHBB", s["len_data"], s["x"], s["y"], s["width"], s["height"], s["index"], s["missing"])
        if not s["missing"] and s["len_data"]:
            data = streams[id(s)]
            assert len(data) == s["len_data"]
            b += data


def encode_af(v: dict, streams: dict) -> bytes:
    """Write one AF file from its manifest entry (records ``ofs*`` offsets into it)."""
    h = v["header"]
    b = bytearray()
    b += struct.pack(
        "<HHIBHiiiiBB", h["fighter_id"], h["exec_window"], h["endurance"], h["unknown_8"], h["health"],
        h["forward_speed"], h["reverse_speed"], h["jump_speed"], h["fall_speed"], h["unknown_27"], h["unknown_28"],
    )
    assert len(b) == 29
    for m in v["moves"]:
        m["ofs"] = len(b)
        b += struct.pack("<B", m["move"])
        _write_animation(b, m["animation"], streams)
        f = m["footer"]
        m["ofs_footer"] = len(b)
        b += struct.pack("<HH8B9B", f["ai_flags"], f["pos_constraint"],
                         *[f[f"unknown_{i}"] for i in range(4, 12)],
                         f["next_anim_on_hit"], f["category"], f["block_damage"], f["block_stun"],
                         f["successor_id"], f["damage"], f["unknown_18"], f["extra_string_selector"], f["points"])
        raw = bytes.fromhex(m["move_string_raw"])
        assert len(raw) == 21
        b += raw
        _write_footer_string(b, m["footer_string"])
    v["ofs_terminator"] = len(b)
    b += struct.pack("<B", v["terminator"])
    v["ofs_sound_table"] = len(b)
    b += bytes(v["sound_ids"])
    v["size"] = len(b)
    return bytes(b)


def encode_bk(v: dict, streams: dict) -> bytes:
    """Write one BK file from its manifest entry (records ``ofs*`` offsets into it)."""
    h = v["header"]
    b = bytearray()
    b += struct.pack("<IBHH", h["file_id"], h["unknown_4"], h["width"], h["height"])
    for a in v["animations"]:
        a["ofs"] = len(b)
        b += struct.pack("<IB", 0, a["anim"])  # ofs_next patched below
        k = a["header"]
        b += struct.pack("<BBBBHB", k["unknown_0"], k["chain_if_hit"], k["chain_if_no_hit"], k["repeat"],
                         k["probability"], k["hazard_damage"])
        _write_footer_string(b, k["footer_string"])
        _write_animation(b, a["animation"], streams)
        a["ofs_next"] = len(b)
        struct.pack_into("<I", b, a["ofs"], a["ofs_next"])
    v["ofs_terminator"] = len(b)
    b += struct.pack("<IB", v["terminator_ofs_next"], v["terminator"])
    v["ofs_background"] = len(b)
    bg = streams["background"]
    assert len(bg) == h["width"] * h["height"]
    b += bg
    b += struct.pack("<B", len(v["palettes"]))
    for p in v["palettes"]:
        b += bytes.fromhex(p["colors"]) + b"".join(bytes.fromhex(r) for r in p["remaps"])
    v["ofs_sound_table"] = len(b)
    b += bytes(v["sound_ids"])
    v["size"] = len(b)
    return bytes(b)


# ----------------------------------------------------------------------------- values


class _Sprites:
    """Sprite value factory for one file: unique indexes, missing sprites reusing earlier ones."""

    def __init__(self, rng: np.random.Generator, p_missing: float):
        self.rng = rng
        self.p_missing = p_missing
        self.next_index = 0
        self.done: list[tuple[tuple[int, int], dict]] = []  # ((number, pos), sprite) non-missing
        self.streams: dict[int, bytes] = {}

    def make(self, number: int, pos: int) -> dict:
        rng = self.rng
        force_missing = self.next_index >= 256
        if self.done and (force_missing or rng.random() < self.p_missing):
            src_key, src = self.done[int(rng.integers(0, len(self.done)))]
            return {
                "len_data": src["len_data"], "x": int(rng.integers(-40, 10)), "y": int(rng.integers(-90, -5)),
                "width": src["width"], "height": src["height"], "index": src["index"], "missing": 1,
                "image": None, "source": list(src_key),
            }
        w, h = int(rng.integers(3, 25)), int(rng.integers(3, 25))
        kind = "empty" if rng.random() < 0.03 else SHAPES[int(rng.integers(0, len(SHAPES)))]
        spec = {"kind": kind, "width": w, "height": h, "color": int(rng.integers(0, 256)),
                "seed": int(rng.integers(0, 2**31))}
        data = encode_pixels(make_image(spec))
        s = {
            "len_data": len(data), "x": -w // 2, "y": -h, "width": w, "height": h,
            "index": self.next_index, "missing": 0, "image": spec, "source": None,
        }
        self.next_index += 1
        self.streams[id(s)] = data
        self.done.append(((number, pos), s))
        return s


def _animation(rng: np.random.Generator, sprites: _Sprites, number: int, bk: bool = False) -> dict:
    n_sprites = int(rng.integers(1, 5)) if rng.random() > 0.03 else 0
    coords = []
    for _ in range(int(rng.integers(0, 7))):
        x, y = int(rng.integers(-120, 121)), int(rng.integers(-200, 40))
        frame = int(rng.integers(0, max(n_sprites, 1)))
        coords.append({"raw": pack_coord(x, y, frame), "x": x, "y": y, "frame": frame, "unknown_bits_10_15": 0})
    frames = "-".join(f"{chr(65 + i)}{int(rng.integers(1, 20))}" for i in range(n_sprites))
    tag = ["", "s1", "bpd", "x+20", "m5"][int(rng.integers(0, 5))]
    anim_string = (tag + "-" + frames).strip("-") if frames or tag else ""
    extra = [f"A{int(rng.integers(1, 9))}-B{int(rng.integers(1, 9))}" for _ in range(int(rng.integers(0, 4)))]
    if extra and rng.random() < 0.2:
        extra[0] = ""  # an empty extra string: length 0, NUL still present
    return {
        "start_x": int(rng.integers(-20, 340)) if bk else int(rng.integers(80, 240)),
        "start_y": int(rng.integers(-10, 200)),
        "unknown_4": 0,
        "coords": coords,
        "anim_string": anim_string,
        "extra_strings": extra,
        "sprites": [sprites.make(number, p) for p in range(n_sprites)],
    }


def _footer_string(rng: np.random.Generator, p: float) -> dict:
    r = rng.random()
    if r < p:
        text = f"A{int(rng.integers(1, 9))}-B{int(rng.integers(1, 9))}-s{int(rng.integers(0, 9))}"
        return {"len": len(text) + 1, "text": text, "nul": 0}
    if r < p + 0.05:
        return {"len": 1, "text": "", "nul": 0}  # only the NUL
    return {"len": 0, "text": "", "nul": None}  # no bytes at all


def _move_string(rng: np.random.Generator, cat: int) -> tuple[str, bytes, bool]:
    text = "" if cat in (0, 9, 11) and rng.random() < 0.6 else COMBOS[int(rng.integers(0, len(COMBOS)))]
    raw = bytearray(21)
    raw[: len(text)] = text.encode()
    labelled = rng.random() < 0.2
    if labelled:
        lab = LABELS[int(rng.integers(0, len(LABELS)))]
        start = len(text) + 1 + int(rng.integers(0, 3))
        raw[start: start + len(lab)] = lab
    return text, bytes(raw), labelled


def _af_values(rng: np.random.Generator, idx: int, planted: dict) -> tuple[dict, dict]:
    name = f"{AF_DIR}/{AF_NAMES[idx]}"
    sprites = _Sprites(rng, 0.15)
    header = {
        "fighter_id": idx,
        "exec_window": 10,
        "endurance": int(rng.integers(100, 400)) * 256 * 100,
        "unknown_8": 2 if rng.random() < 0.8 else int(rng.integers(1, 51)),
        "health": int(rng.integers(1000, 8718)),
        "forward_speed": int(rng.integers(2, 8)) * 256,
        "reverse_speed": -int(rng.integers(2, 7)) * 256,
        "jump_speed": -int(rng.integers(6, 14)) * 256,
        "fall_speed": int(rng.integers(1, 4)) * 128,
        "unknown_27": 0x32,
        "unknown_28": 0x14,
    }
    n_moves = int(rng.integers(40, 71))
    numbers = sorted(int(n) for n in rng.choice(70, size=n_moves, replace=False))
    moves = []
    for num in numbers:
        cat = CATEGORIES[int(rng.integers(0, len(CATEGORIES)))]
        damage = int(rng.integers(2, 61)) if cat in ATTACK_CATEGORIES else 0
        unknown_6 = damage // 2
        if rng.random() < 0.05:
            unknown_6 = damage // 2 + int(rng.integers(1, 6))
            planted["unknown_6_damage_half"]["exceptions"].append(
                {"file": name, "move": num, "unknown_6": unknown_6, "damage": damage})
        pos = 0
        if cat == 7 and rng.random() < 0.75:
            pos |= 0x2
        if rng.random() < 0.1:
            pos |= 0x1
        if cat == 12 and rng.random() < 0.5:
            pos |= 0x40
        text, raw, labelled = _move_string(rng, cat)
        if labelled:
            planted["move_string_labels"].append({"file": name, "move": num})
        footer = {
            "ai_flags": int(rng.choice([0, 0x1, 0x2, 0x4, 0x8, 0x10, 0x3, 0x21])),
            "pos_constraint": pos,
            "unknown_4": 0, "unknown_5": 0, "unknown_6": unknown_6, "unknown_7": 0,
            "unknown_8": 0, "unknown_9": 0, "unknown_10": 0,
            "unknown_11": int(rng.integers(0, 256)),
            "next_anim_on_hit": int(rng.choice(numbers)) if rng.random() < 0.3 else 0,
            "category": cat,
            "block_damage": damage // 4 if damage else 0,
            "block_stun": int(rng.integers(0, 21)) if damage else 0,
            "successor_id": int(rng.choice(numbers)) if rng.random() < 0.3 else 0,
            "damage": damage,
            "unknown_18": 0x20 if rng.random() < 0.07 else 0,
            "extra_string_selector": int(rng.integers(0, 6)) if damage else 0,
            "points": int(rng.integers(0, 21)) if damage else 0,
        }
        moves.append({
            "move": num,
            "animation": _animation(rng, sprites, num),
            "footer": footer,
            "move_string": text,
            "move_string_raw": raw.hex(),
            "footer_string": _footer_string(rng, 0.25),
        })
    sounds = [0] + [int(rng.integers(0, 80)) for _ in range(24)] + list(b"FGHED")
    v = {"header": header, "moves": moves, "terminator": MOVE_TERMINATOR, "sound_ids": sounds,
         "num_moves": len(moves)}
    return v, sprites.streams


def _bk_values(rng: np.random.Generator, idx: int) -> tuple[dict, dict]:
    sprites = _Sprites(rng, 0.2)
    w, h = 320, 200
    yy, xx = np.mgrid[0:h, 0:w]
    background = ((xx // 8 + yy // 8 + idx) % 48 + rng.integers(0, 4, (h, w))).astype(np.uint8)
    numbers = sorted(int(n) for n in rng.choice(50, size=int(rng.integers(2, 7)), replace=False))
    anims = []
    for num in numbers:
        anims.append({
            "anim": num,
            "header": {
                "unknown_0": 0,
                "chain_if_hit": int(rng.choice(numbers)) if rng.random() < 0.3 else 0,
                "chain_if_no_hit": int(rng.choice(numbers)) if rng.random() < 0.3 else 0,
                "repeat": int(rng.integers(0, 2)),
                "probability": int(rng.integers(0, 1000)),
                "hazard_damage": int(rng.integers(0, 30)) if rng.random() < 0.3 else 0,
                "footer_string": _footer_string(rng, 0.5),
            },
            "animation": _animation(rng, sprites, num, bk=True),
        })
    palettes = []
    for _ in range(int(rng.integers(1, 3))):
        colors = rng.integers(0, 64, 768).astype(np.uint8)
        remaps = [rng.integers(0, 256, 256).astype(np.uint8).tobytes().hex() for _ in range(19)]
        palettes.append({"colors": colors.tobytes().hex(), "remaps": remaps})
    v = {
        "header": {"file_id": int(rng.integers(0, 2**32, dtype=np.uint64)), "unknown_4": 0, "width": w, "height": h},
        "animations": anims,
        "terminator": BK_TERMINATOR,
        "terminator_ofs_next": 0,
        "background_sha256": hashlib.sha256(background.tobytes()).hexdigest(),
        "palettes": palettes,
        "sound_ids": [0] + [int(rng.integers(0, 80)) for _ in range(29)],
        "num_animations": len(anims),
    }
    sprites.streams["background"] = background.tobytes()
    return v, sprites.streams


# ----------------------------------------------------------------------------- generate


def generate(out_dir: Path, seed: int) -> dict:
    """Write ``af/FIGHTR0.AF`` .. ``FIGHTR10.AF`` and ``bk/ARENA*.BK``; return the manifest section.

    One generator for the family: the manifest section is ``omf``, its file
    keys name the folder of each format (``af/...``, ``bk/...``).
    """
    rng = np.random.default_rng(seed)
    d_af, d_bk = Path(out_dir) / AF_DIR, Path(out_dir) / BK_DIR
    d_af.mkdir(parents=True, exist_ok=True)
    d_bk.mkdir(parents=True, exist_ok=True)
    files: dict[str, dict] = {}
    planted: dict = {
        "unknown_6_damage_half": {"rule": "move footer unknown_6 == damage // 2", "exceptions": []},
        "pos_constraint_bit": {"bit": 0x2, "only_category": 7,
                               "rule": "pos_constraint & 0x2 is set only in category-7 (jumping) moves"},
        "unknown_9_constant": {"value": 0},
        "random_field": {"table": "af_moves", "column": "unknown_11", "distribution": "uniform 0-255"},
        "move_string_labels": [],
        "exec_window": 10,
    }
    odd_file = 7
    for i, fname in enumerate(AF_NAMES):
        v, streams = _af_values(rng, i, planted)
        if i == odd_file:  # planted: the one break of the unknown_9 constant
            m = v["moves"][len(v["moves"]) // 2]
            m["footer"]["unknown_9"] = 3
        (d_af / fname).write_bytes(encode_af(v, streams))
        if i == odd_file:
            planted["unknown_9_constant"]["exception"] = {
                "file": f"{AF_DIR}/{fname}", "move": m["move"], "offset": m["ofs_footer"] + 9, "value": 3}
        files[f"{AF_DIR}/{fname}"] = v
    for i, fname in enumerate(BK_NAMES):
        v, streams = _bk_values(rng, i)
        (d_bk / fname).write_bytes(encode_bk(v, streams))
        files[f"{BK_DIR}/{fname}"] = v
    return {"files": files, "planted": planted}
