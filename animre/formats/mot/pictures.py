"""The report's pictures of GNT4 MOT files: the key curves of the busiest animation with a time cursor moving
in real time (steps of 1 / :data:`CURVE_FPS` s).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...present.frames import CurveCursor
from ...present.pictures import Picture, also, drawn, name_of, playing, rest
from ...present.sheets import distinct

#: Cursor steps per second of animation time in a GNT4 curve animation.
CURVE_FPS = 10


def mot(corpus: Any, files: Sequence[str]) -> list[Picture]:
    """Each MOT file's key curves (the bone with the most keys in its animation with the most keys), a time
    cursor moving over them in real time.

    Examples
    --------
    >>> pics = mot(corpus, corpus.files.query("format == 'mot'")["file"].tolist()[:1])
    >>> pics[0][0].split(": ")[1]
    'playing'
    """
    keys = corpus.tables.get("mot_keys")
    anims = corpus.tables.get("mot_animations")
    out: list[Picture] = []
    unique = distinct(corpus, files)
    for name, copies in drawn(unique):
        k = keys[keys["file"] == name] if keys is not None else pd.DataFrame()
        if not len(k):
            out.append((f"{name}: no picture: no keys", None))
            continue
        anim = k.groupby("anim_id").size().idxmax()
        k = k[k["anim_id"] == anim]
        bone = k.groupby("bone_id").size().idxmax()
        sel = pd.DataFrame(k[k["bone_id"] == bone])
        end = None
        if anims is not None:
            a = anims[(anims["file"] == name) & (anims["anim_id"] == anim)]
            end = float(a["end_time"].iloc[0]) if len(a) and pd.notna(a["end_time"].iloc[0]) else None
        cc = CurveCursor(sel, end_time=end, title=f"{name_of(name)} animation {anim}, bone {bone}")
        times = cc.times(CURVE_FPS)
        frames = [np.concatenate([cc.at(t), np.full(cc.base.shape[:2] + (1,), 255, np.uint8)], axis=2)
                  for t in times]
        out.append(playing(name, frames, [1000 / CURVE_FPS] * len(frames), 1,
                            f"key curves of animation {anim}, bone {bone} ({len(sel)} keys): the cursor moves "
                            f"{1 / CURVE_FPS:g} s of animation time per {1000 / CURVE_FPS:g} ms, to the end at "
                            f"{cc.end:g} s (the game draws 60 frames a second){also(copies)}"))
    return out + rest(unique)
