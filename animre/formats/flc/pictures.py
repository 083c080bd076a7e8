"""The report's pictures of FLC files: a Civ3 unit's directions (a row each; side by side while playing) at
the header speed; a plain FLI/FLC's frames in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...base.errors import AnimreError
from ...present.pictures import Picture, also, drawn, failed, playing, rest
from ...present.sheets import distinct, grid, sheet, side_by_side, zoom_for
from . import decode as flc_decode

#: Frames of a plain FLI/FLC shown on its contact sheet / played.
MAX_SHEET_FRAMES, MAX_PLAYED_FRAMES = 48, 400


def flc(corpus: Any, files: Sequence[str]) -> list[Picture]:
    """Every FLC's contact sheet and its animation playing at the header speed.

    Examples
    --------
    >>> pics = flc(corpus, ["flc/Warrior/Run.flc"])
    >>> [c.split(": ")[1] for c, _ in pics]
    ['Civ3 contact sheet', 'playing']
    """
    out: list[Picture] = []
    unique = distinct(corpus, files)
    for name, copies in drawn(unique):
        try:
            data = corpus.read_bytes(name)
            d = flc_decode.decode_all(data, name=name)
            ms = flc_decode.frame_duration_ms(data)
        except AnimreError as e:
            out.append(failed(name, e))
            continue
        images = [r for r in d.roles if not r.is_ring]
        if not images:
            out.append((f"{name}: no picture: no image frame", None))
            continue
        civ3 = d.flicanim is not None and d.flicanim["num_anims"] > 0 and d.flicanim["anim_length"] > 0
        if civ3:
            rows: dict[str, list[np.ndarray]] = {}
            for r in images:
                rows.setdefault(r.direction_name or str(r.direction), []).append(
                    flc_decode.civ3_rgba(d.frames[r.frame], d.palettes[r.frame]))
            n = min(len(v) for v in rows.values())
            k = zoom_for(rows[next(iter(rows))], cell=96)
            out.append((f"{name}: Civ3 contact sheet: rows {', '.join(rows)}; {n} frames each (transparent and "
                        f"shadow pixels over a checkerboard){also(copies)}", grid(list(rows.values()), zoom=k)))
            frames = [side_by_side([v[i] for v in rows.values()]) for i in range(n)]
            out.append(playing(name, frames, [ms] * n, k, f"the header speed; directions {', '.join(rows)} "
                                                          "side by side"))
            continue
        rgba = [np.concatenate([d.palettes[r.frame][d.frames[r.frame]],
                                np.full(d.frames[r.frame].shape + (1,), 255, np.uint8)], axis=2) for r in images]
        k = zoom_for(rgba, cell=96)
        cut = f"first {MAX_SHEET_FRAMES} of " if len(rgba) > MAX_SHEET_FRAMES else ""
        out.append((f"{name}: contact sheet: {cut}{len(rgba)} frames in file order{also(copies)}",
                    sheet(rgba[:MAX_SHEET_FRAMES], zoom=k)))
        cut = f"the first {MAX_PLAYED_FRAMES} of {len(rgba)} frames; " if len(rgba) > MAX_PLAYED_FRAMES else ""
        out.append(playing(name, rgba[:MAX_PLAYED_FRAMES], [ms] * len(rgba[:MAX_PLAYED_FRAMES]), k,
                            f"{cut}the header speed"))
    return out + rest(unique)
