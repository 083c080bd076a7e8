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

import pandas as pd

from ..frames import CURSOR_RGB, CurveCursor
from ..png import image_png
from .player import Player

__all__ = ["CURSOR_RGB", "CurveCursor", "key_curve_player"]


def key_curve_player(keys: pd.DataFrame, *, time: str = "time", end_time: float | None = None,
                     fps: float = 60.0, components: Sequence[str] = ("x", "y", "z", "w"),
                     group: str | None = "track", group_labels: Mapping[Any, str] | None = None,
                     title: str = "", max_steps: int = 600) -> Player:
    """Key curves (:func:`animre.present.plots.key_curves`) with a time cursor that moves at ``fps``.

    The figure is drawn once; each step only moves a cursor line across
    every subplot (so playing is cheap: :class:`CurveCursor`).

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
    cc = CurveCursor(keys, time=time, end_time=end_time, components=components, group=group,
                     group_labels=group_labels, title=title)
    times = cc.times(fps, max_steps)
    p = Player(len(times), lambda i: image_png(cc.at(times[i]), 1, checker=False), [1000.0 / fps] * len(times),
               title=title or "key curves", caption=lambda i: f"t = {times[i]:.3f} s")
    p.times = times
    p.figure = cc.figure
    return p
