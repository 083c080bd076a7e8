"""Write the FLC sample files (``flc/``) and their manifest section."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ._files import (
    CDCD,
    DIRECTION_NAMES,
    FEET_EXCEPTION,
    PLAIN_FILE,
    SPEED_4_FILE,
    SUBDIR,
    UNITS,
    plain_file,
    unit_file,
)


def generate(out_dir: Path, seed: int) -> dict:
    """Write ``flc/<Unit>/<Action>.flc`` and ``flc/Plain/Title.flc``; return the manifest section."""
    rng = np.random.default_rng(seed)
    root = Path(out_dir)
    files: dict[str, dict] = {}
    planted: dict = {"cdcd_palettes": [], "extra_subchunk_frames": [], "empty_frames": []}
    for unit, (w, h, actions) in UNITS.items():
        for action, n in actions.items():
            name = f"{SUBDIR}/{unit}/{action}.flc"
            real_speed = int(rng.integers(44, 126))
            speed = 4 if name == SPEED_4_FILE else real_speed
            y_offset = 170 - h if name != FEET_EXCEPTION else 170 - h - 7
            data, entry = unit_file(name, w, h, n, rng, speed, real_speed, y_offset)
            p = root / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
            files[name] = entry
            for fr in entry["frames"]:
                for c in fr["chunks"]:
                    if c["len_chunk"] == CDCD:
                        planted["cdcd_palettes"].append({"file": name, "frame": fr["frame"],
                                                         "offset": c["offset"]})
                if fr["num_chunks"] != fr["num_chunks_found"]:
                    planted["extra_subchunk_frames"].append({"file": name, "frame": fr["frame"],
                                                             "offset": fr["offset"] + 6,
                                                             "declared": fr["num_chunks"],
                                                             "found": fr["num_chunks_found"]})
            planted["empty_frames"] += [{"file": name, "frame": f} for f in entry["empty_frames"]]
    data, entry = plain_file(rng)
    p = root / PLAIN_FILE
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    files[PLAIN_FILE] = entry
    planted.update({
        "speed_4_file": {"file": SPEED_4_FILE, "offset": 0x10, "value": 4},
        "speed_range": [44, 125],
        "anim_time_rule": "anim_time == anim_length * speed",
        "anim_time_exceptions": [SPEED_4_FILE],
        "x_offset_rule": "x_offset == (240 - width) // 2",
        "feet_line_rule": "y_offset + height == 170",
        "feet_line_exception": FEET_EXCEPTION,
        "ring_reserved_flag": {"field": "frame reserved_4", "value": 1, "category": "ring frames of unit files"},
        "random_column": "updater",
        "plain_file": PLAIN_FILE,
        "unit_files": [f for f in files if f != PLAIN_FILE],
    })
    return {"files": files, "planted": planted, "direction_names": list(DIRECTION_NAMES)}
