"""The values of the OMF samples: every field of a fighter (AF) or an arena (BK), drawn from the seed, with
the planted regularities."""

from __future__ import annotations

import hashlib

import numpy as np

from ._images import SHAPES, encode_pixels, make_image
from ._writers import pack_coord

AF_DIR = "af"  # sample folder = format id
BK_DIR = "bk"
AF_NAMES = [f"FIGHTR{i}.AF" for i in range(11)]
BK_NAMES = ["ARENA0.BK", "ARENA1.BK", "ARENA2.BK"]
CATEGORIES = [0, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
ATTACK_CATEGORIES = {2, 4, 5, 6, 7, 8, 12, 13}
COMBOS = ["P", "K", "2P", "2K", "8P", "8K", "236P", "214K", "63P", "B4P", "D2K", "412K", "6K", "4P", "2369P"]
LABELS = [b"lbl", b"throw", b"x1", b"JMP", b"Z9"]
MOVE_TERMINATOR = 250
BK_TERMINATOR = 51


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


def af_values(rng: np.random.Generator, idx: int, planted: dict) -> tuple[dict, dict]:
    """The manifest entry of fighter ``idx`` and its pixel streams (by ``id`` of each sprite entry); the
    planted exceptions are added to ``planted``."""
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


def bk_values(rng: np.random.Generator, idx: int) -> tuple[dict, dict]:
    """The manifest entry of arena ``idx`` and its pixel streams (and its ``background``)."""
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
