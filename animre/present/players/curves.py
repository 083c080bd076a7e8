"""The key-curve player: GNT4 key curves with a time cursor that moves at the game's frame rate.

Examples
--------
>>> p = key_curve_player(pd.DataFrame({"time": [0, 1], "x": [0, 1]}), components=["x"], group=None, fps=2)
>>> p.times
[0.0, 0.5, 1.0]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg

from ..plots import key_curves
from ..png import image_png
from .player import Player

__all__ = ["CURSOR_RGB", "key_curve_player"]


#: Colour of the time cursor of :func:`key_curve_player` (none of matplotlib's first line colours).
CURSOR_RGB = (120, 0, 170)


def key_curve_player(keys: pd.DataFrame, *, time: str = "time", end_time: float | None = None,
                     fps: float = 60.0, components: Sequence[str] = ("x", "y", "z", "w"),
                     group: str | None = "track", group_labels: Mapping[Any, str] | None = None,
                     title: str = "", max_steps: int = 600) -> Player:
    """Key curves (:func:`animre.present.plots.key_curves`) with a time cursor that moves at ``fps``.

    The figure is drawn once; each step only moves a red cursor line across
    every subplot (so playing is cheap).

    Parameters
    ----------
    keys : DataFrame
        Keys of one animation and bone (``mot_keys`` rows).
    end_time : float, optional
        The animation's end time (``mot_animations.end_time``); default the last key time.
    fps : float
        Cursor steps per second of animation time (the game draws 60 frames a second).

    Examples
    --------
    >>> k = pd.DataFrame({"time": [0, .5, 1], "x": [0, 1, 0]})
    >>> p = key_curve_player(k, components=["x"], group=None)
    >>> len(p), round(p.durations[0], 2), p.times[:2]
    (61, 16.67, [0.0, 0.016666666666666666])
    """
    fig = key_curves(keys, time=time, components=components, group=group, group_labels=group_labels,
                           title=title)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    base = np.asarray(canvas.buffer_rgba())[..., :3].copy()
    hpx = base.shape[0]
    end = float(end_time) if end_time is not None else float(pd.to_numeric(keys[time]).max() or 0.0)
    steps = min(max_steps, int(round(end * fps)) + 1) if end > 0 else 1
    times = [k / fps for k in range(steps)]
    axes = fig.axes

    def render(i: int) -> bytes:
        img = base.copy()
        for ax in axes:
            x = ax.transData.transform((times[i], 0))[0]
            x0, y0, x1, y1 = ax.bbox.extents
            if not x0 <= x <= x1:
                continue
            col = int(round(x))
            img[int(hpx - y1):int(hpx - y0), max(0, col - 1):col + 1] = CURSOR_RGB
        return image_png(img, 1, checker=False)

    p = Player(steps, render, [1000.0 / fps] * steps, title=title or "key curves",
               caption=lambda i: f"t = {times[i]:.3f} s")
    p.times = times
    p.figure = fig
    return p
