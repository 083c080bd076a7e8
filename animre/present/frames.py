"""Key curves with a time cursor, composed once for the players and the report's pictures alike.

Both the notebook players (:mod:`animre.present.players`, ipywidgets) and the
report's animations (a format's ``pictures``, no widgets) draw their frames
here, so a curve looks the same in both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg

from .plots import key_curves

__all__ = ["CURSOR_RGB", "CurveCursor"]


#: Colour of the time cursor of :func:`key_curve_player` (none of matplotlib's first line colours).
CURSOR_RGB = (120, 0, 170)


class CurveCursor:
    """Key curves drawn once, and the same figure with a time cursor at any time (an RGB array).

    Examples
    --------
    >>> cc = CurveCursor(pd.DataFrame({"time": [0, 1], "x": [0, 1]}), components=["x"], group=None)
    >>> cc.at(0.5).shape[2], cc.end
    (3, 1.0)
    """

    def __init__(self, keys: pd.DataFrame, *, time: str = "time", end_time: float | None = None,
                 components: Sequence[str] = ("x", "y", "z", "w"), group: str | None = "track",
                 group_labels: Mapping[Any, str] | None = None, title: str = ""):
        self.figure = key_curves(keys, time=time, components=components, group=group, group_labels=group_labels,
                                 title=title)
        canvas = FigureCanvasAgg(self.figure)
        canvas.draw()
        self.base = np.asarray(canvas.buffer_rgba())[..., :3].copy()
        self.end = float(end_time) if end_time is not None else float(pd.to_numeric(keys[time]).max() or 0.0)

    def times(self, fps: float, max_steps: int = 600) -> list[float]:
        """The cursor's times: every ``1 / fps`` s from 0 to the end (at most ``max_steps``)."""
        steps = min(max_steps, int(round(self.end * fps)) + 1) if self.end > 0 else 1
        return [k / fps for k in range(steps)]

    def at(self, t: float) -> np.ndarray:
        """The figure with the cursor at time ``t`` across every subplot: (height, width, 3) uint8."""
        img = self.base.copy()
        hpx = img.shape[0]
        for ax in self.figure.axes:
            x = ax.transData.transform((t, 0))[0]
            x0, y0, x1, y1 = ax.bbox.extents
            if not x0 <= x <= x1:
                continue
            col = int(round(x))
            img[int(hpx - y1):int(hpx - y0), max(0, col - 1):col + 1] = CURSOR_RGB
        return img
