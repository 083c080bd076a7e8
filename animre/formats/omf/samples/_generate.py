"""Write the OMF sample files (``af/``, ``bk/``) and their manifest section."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ._values import AF_DIR, AF_NAMES, BK_DIR, BK_NAMES, af_values, bk_values
from ._writers import encode_af, encode_bk


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
        v, streams = af_values(rng, i, planted)
        if i == odd_file:  # planted: the one break of the unknown_9 constant
            m = v["moves"][len(v["moves"]) // 2]
            m["footer"]["unknown_9"] = 3
        (d_af / fname).write_bytes(encode_af(v, streams))
        if i == odd_file:
            planted["unknown_9_constant"]["exception"] = {
                "file": f"{AF_DIR}/{fname}", "move": m["move"], "offset": m["ofs_footer"] + 9, "value": 3}
        files[f"{AF_DIR}/{fname}"] = v
    for i, fname in enumerate(BK_NAMES):
        v, streams = bk_values(rng, i)
        (d_bk / fname).write_bytes(encode_bk(v, streams))
        files[f"{BK_DIR}/{fname}"] = v
    return {"files": files, "planted": planted}
