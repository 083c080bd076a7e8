"""HoMM2 ``*FRM.BIN`` sample generator (821-byte monster animation files).

Writes with :mod:`struct` only. Planted regularities (recorded in the
manifest under ``planted``):

- ``unknown_magic`` is 0x01 in every file but one (``ODDMGFRM.BIN``, 0x00).
- Idle weights of the first ``num_idles`` idles sum to 1 in most files;
  ``weights_not_normalised`` lists those where they do not.
- Fliers have every X offset zero and a non-zero ``fly_speed``; walkers have
  ``fly_speed == 0``.
- Non-shooters have ``shoot_speed == 0`` and no projectile frames.
- ``count_fill_mismatch`` lists (file, slot) where the count byte disagrees
  with the 0xFF fill.
- ``idle_delays`` are unused by the engine: always ``100 * (i + 1)`` except
  one file.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

__all__ = ["generate", "encode_frm", "SLOT_NAMES", "FRM_SIZE"]

FRM_SIZE = 821
SUBDIR = "frm"
SLOT_NAMES = [
    "move_start", "move_tile_start", "move_main", "move_tile_end", "move_stop", "move_one_tile",
    "unused", "static", "idle_1", "idle_2", "idle_3", "idle_4", "idle_5", "death", "wince_up",
    "wince_end", "attack_1_top", "attack_1_top_end", "attack_1_top_double",
    "attack_1_top_double_end", "attack_2_front", "attack_2_front_end", "attack_2_front_double",
    "attack_2_front_double_end", "attack_3_bottom", "attack_3_bottom_end",
    "attack_3_bottom_double", "attack_3_bottom_double_end", "shoot_top", "shoot_top_end",
    "shoot_front", "shoot_front_end", "shoot_bottom", "shoot_bottom_end",
]
MONSTERS = [
    ("PEASN", "walk", False), ("ARCHR", "walk", True), ("PIKMN", "walk", False),
    ("SWORD", "walk", False), ("CAVLR", "walk", False), ("PALAD", "walk", False),
    ("GOBLN", "walk", False), ("ORC__", "walk", True), ("WOLF_", "walk", False),
    ("OGRE_", "walk", False), ("TROLL", "walk", True), ("CYCLO", "walk", True),
    ("SPRIT", "fly", False), ("DWARF", "walk", False), ("ELF__", "walk", True),
    ("DRUID", "walk", True), ("UNICO", "walk", False), ("PHOEN", "fly", False),
    ("CENTR", "walk", True), ("GARGL", "fly", False), ("GRIFF", "fly", False),
    ("MINOT", "walk", False), ("HYDRA", "walk", False), ("DRAGG", "fly", False),
    ("HALFL", "walk", True), ("BOAR_", "walk", False), ("GOLEM", "walk", False),
    ("ROC__", "fly", False), ("MAGE_", "walk", True), ("GIANT", "walk", False),
    ("SKELT", "walk", False), ("ZOMBI", "walk", False), ("MUMMY", "walk", False),
    ("VAMPR", "fly", False), ("LICH_", "walk", True), ("BONED", "fly", False),
    ("ODDMG", "walk", False),
]


def encode_frm(v: dict) -> bytes:
    """Write one FRM.BIN from a value dict (the manifest entry) with struct."""
    b = bytearray()
    b += struct.pack("<Bhh", v["unknown_magic"], v["eye_x"], v["eye_y"])
    for row in v["x_offsets"]:
        b += struct.pack("<16b", *row)
    b += struct.pack("<B", v["num_idles_raw"])
    b += struct.pack("<5f", *v["idle_weights"])
    b += struct.pack("<5I", *v["idle_delays"])
    b += struct.pack("<4I", v["idle_interval"], v["walk_speed"], v["shoot_speed"], v["fly_speed"])
    for x, y in v["projectile_offsets"]:
        b += struct.pack("<hh", x, y)
    b += struct.pack("<B", v["num_projectile_frames_raw"])
    b += struct.pack("<12f", *v["projectile_angles"])
    b += struct.pack("<ii", v["troop_box_left"], v["troop_box_right"])
    b += struct.pack("<34B", *v["num_frames_raw"])
    for ids in v["frame_ids"]:
        b += struct.pack("<16B", *ids)
    assert len(b) == FRM_SIZE, len(b)
    return bytes(b)


def _f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


def generate(out_dir: Path, seed: int) -> dict:
    """Write ``frm/*FRM.BIN`` under ``out_dir``; return the manifest section."""
    rng = np.random.default_rng(seed)
    d = Path(out_dir) / SUBDIR
    d.mkdir(parents=True, exist_ok=True)
    files: dict[str, dict] = {}
    not_normalised, mismatches, fliers, shooters = [], [], [], []
    delay_exception = "GOLEMFRM.BIN"
    for idx, (short, kind, shoots) in enumerate(MONSTERS):
        name = f"{short}FRM.BIN"
        flier = kind == "fly"
        counts = [0] * 34
        frame_ids = [[0xFF] * 16 for _ in range(34)]
        next_frame = 1
        for slot in range(34):
            if slot == 6:
                continue
            if slot >= 28 and not shoots:
                continue
            if slot in (18, 19, 22, 23, 26, 27) and rng.random() < 0.6:
                continue
            n = 1 if slot == 7 else int(rng.integers(2, 9))
            counts[slot] = n
            for p in range(n):
                frame_ids[slot][p] = (next_frame + p) % 0xFF
            next_frame += n
        num_idles = int(rng.integers(1, 6))
        for k in range(5):
            if k >= num_idles:
                counts[8 + k] = 0
                frame_ids[8 + k] = [0xFF] * 16
        # planted: a few files whose count byte disagrees with the 0xFF fill
        if idx in (3, 17, 29):
            slot = 13
            mismatches.append({"file": f"{SUBDIR}/{name}", "slot": slot, "count": counts[slot] - 1,
                               "len_by_fill": counts[slot]})
            counts[slot] -= 1
        if idx == 21:  # a count above 16 (engine clamps)
            counts[14] = 20
            frame_ids[14] = [(40 + p) % 0xFF for p in range(16)]
            mismatches.append({"file": f"{SUBDIR}/{name}", "slot": 14, "count": 20, "len_by_fill": 16})
        x_offsets = [[0] * 16 for _ in range(7)]
        if not flier:
            for slot in range(7):
                for p in range(counts[slot]):
                    x_offsets[slot][p] = int(rng.integers(-40, 41))
        else:
            fliers.append(f"{SUBDIR}/{name}")
        raw_w = rng.random(num_idles) + 0.05
        if idx % 9 == 4:
            weights = [float(round(w * 10)) for w in raw_w]  # planted: not normalised
            not_normalised.append(f"{SUBDIR}/{name}")
        else:
            weights = list(raw_w / raw_w.sum())
        weights = [_f32(w) for w in weights] + [0.0] * (5 - num_idles)
        n_proj = int(rng.integers(3, 13)) if shoots else 0
        angles = sorted(float(a) for a in rng.uniform(-90, 90, n_proj).round(1))
        angles = [_f32(a) for a in angles] + [0.0] * (12 - n_proj)
        if shoots:
            shooters.append(f"{SUBDIR}/{name}")
        v = {
            "unknown_magic": 0 if short == "ODDMG" else 1,
            "eye_x": int(rng.integers(-20, 60)),
            "eye_y": int(rng.integers(-120, -20)),
            "x_offsets": x_offsets,
            "num_idles_raw": num_idles if idx != 11 else 7,
            "idle_weights": weights,
            "idle_delays": [100 * (i + 1) for i in range(5)] if name != delay_exception else [0, 0, 0, 0, 0],
            "idle_interval": int(rng.integers(10, 60)) * 100,
            "walk_speed": int(rng.integers(3, 12)) * 50 if not flier else int(rng.integers(3, 8)) * 50,
            "shoot_speed": int(rng.integers(5, 15)) * 50 if shoots else 0,
            "fly_speed": int(rng.integers(4, 10)) * 100 if flier else 0,
            "projectile_offsets": [[int(rng.integers(-10, 40)), int(rng.integers(-90, -10))] for _ in range(3)]
            if shoots else [[0, 0]] * 3,
            "num_projectile_frames_raw": n_proj,
            "projectile_angles": angles,
            "troop_box_left": int(rng.integers(-30, 10)),
            "troop_box_right": int(rng.integers(-10, 30)),
            "num_frames_raw": counts,
            "frame_ids": frame_ids,
        }
        (d / name).write_bytes(encode_frm(v))
        files[f"{SUBDIR}/{name}"] = v
    return {
        "files": files,
        "slot_names": SLOT_NAMES,
        "planted": {
            "odd_magic_file": f"{SUBDIR}/ODDMGFRM.BIN",
            "weights_not_normalised": not_normalised,
            "count_fill_mismatch": mismatches,
            "fliers": fliers,
            "shooters": shooters,
            "idle_delays_exception": f"{SUBDIR}/{delay_exception}",
            "clamped_idle_count_file": f"{SUBDIR}/{MONSTERS[11][0]}FRM.BIN",
        },
    }
