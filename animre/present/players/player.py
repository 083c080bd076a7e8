"""The player: a Play button, a frame slider and the picture, each frame shown for its own duration.

Examples
--------
>>> p = sequence_player(np.zeros((2, 3, 5, 4), np.uint8), interval_ms=50)
>>> len(p), p.play.interval
(2, 50)
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import ipywidgets as w
import numpy as np
import pandas as pd

from ...base.display import fmt
from ...base.errors import UsageError
from ...export import export_animation
from ..png import auto_scale, image_png, show_png

__all__ = ["MIN_STEP_MS", "Player", "play_steps", "image_player", "sequence_player"]


#: The shortest Play step (ms): durations that differ are played in steps of their common divisor, not below this.
MIN_STEP_MS = 10


class Player:
    """Play button + frame slider + picture; one frame per step, each shown for its own duration.

    The Play button advances in steps of a fixed ``play.interval`` (the
    greatest common divisor of the frame durations: one step per frame when
    every frame lasts the same, one OMF tick when they differ) and each frame
    spans as many steps as its duration holds. The browser's timer alone
    decides when a step comes, so every frame is shown exactly its own time;
    changing the interval from the kernel as frames come would reach the
    browser only after it had scheduled the next step with the old one (each
    frame then lasts the previous frame's time).

    Attributes
    ----------
    widget : ipywidgets.VBox
        The container (CSS class ``animre-player``).
    play : ipywidgets.Play
        Steps ``0 .. len(steps) - 1`` every ``play.interval`` ms.
    slider : ipywidgets.IntSlider
        The frame number (follows ``play``; dragging it moves ``play`` to the frame's first step).
    image : ipywidgets.Image
        The current frame as PNG at its exact pixel size.
    frames : list of numpy.ndarray or None
        RGBA frames in play order (image players; None for the curve player).
    durations : list of float
        Milliseconds per frame, from the file.
    steps : list of int
        Play steps per frame.
    """

    def __init__(self, n: int, render: Callable[[int], bytes], durations: Sequence[float], *, title: str = "",
                 caption: Callable[[int], str] | None = None, frames: list[np.ndarray] | None = None,
                 extra: Sequence[Any] = (), steps: Sequence[int] | None = None, tick_ms: float | None = None):
        if n < 1:
            raise UsageError("nothing to play: no frames")
        if len(durations) != n:
            raise UsageError(f"{n} frames but {len(durations)} durations")
        self.n = n
        self.frames = frames
        self.durations = [float(d) for d in durations]
        if steps is None or tick_ms is None:
            steps, tick_ms = play_steps(self.durations)
        if len(steps) != n or any(int(k) < 0 for k in steps) or not sum(steps):
            raise UsageError(f"{n} frames need one whole number of steps each, not {list(steps)}")
        self.steps = [int(k) for k in steps]
        self._frame_of = np.repeat(np.arange(n), self.steps)
        self._first = np.concatenate([[0], np.cumsum(self.steps)[:-1]]).astype(int)
        self._render = render
        self._caption = caption
        self._pngs: dict[int, bytes] = {}
        self._stepping = False
        self.play = w.Play(value=0, min=0, max=len(self._frame_of) - 1, step=1, interval=max(1, round(tick_ms)),
                           description="play", show_repeat=True)
        self.play.repeat = True
        self.slider = w.IntSlider(value=0, min=0, max=n - 1, description="frame", continuous_update=True)
        self.image = w.Image(format="png")
        self.label = w.HTML()
        self.play.observe(self._on_step, "value")
        self.slider.observe(self._on_frame, "value")
        self.widget = w.VBox([w.HTML(f"<b>{title}</b>") if title else w.HTML(),
                              w.HBox([self.play, self.slider, self.label]), self.image, *extra])
        self.widget.add_class("animre-player")
        self.show(0)

    @property
    def schedule(self) -> pd.DataFrame:
        """What the Play button shows: per frame its steps, first step, start and length in ms.

        Examples
        --------
        >>> p = Player(3, lambda i: b"", [30, 80, 170])
        >>> p.schedule["ms"].tolist(), p.play.interval
        ([30, 80, 170], 10)
        """
        ms = self.play.interval
        return pd.DataFrame({"frame": range(self.n), "steps": self.steps, "first_step": self._first,
                             "start_ms": self._first * ms, "ms": np.asarray(self.steps) * ms})

    def _on_step(self, change) -> None:
        i = int(self._frame_of[min(max(int(change["new"]), 0), len(self._frame_of) - 1)])
        if self.slider.value != i:
            self._stepping = True
            try:
                self.slider.value = i
            finally:
                self._stepping = False

    def _on_frame(self, change) -> None:
        i = int(change["new"])
        self._draw(i)
        if not self._stepping and self.steps[i] and int(self._frame_of[self.play.value]) != i:
            self.play.value = int(self._first[i])  # a drag: play on from the frame's first step

    def __len__(self) -> int:
        return self.n

    def __iter__(self) -> Iterator[tuple[int, float]]:
        """(frame number, milliseconds) in play order."""
        return iter(enumerate(self.durations))

    def png(self, i: int) -> bytes:
        """The PNG shown for frame ``i`` (rendered once, then cached)."""
        if not 0 <= i < self.n:
            raise UsageError(f"no frame {i}; the player has {self.n}")
        if i not in self._pngs:
            self._pngs[i] = self._render(i)
        return self._pngs[i]

    def show(self, i: int) -> Player:
        """Show frame ``i`` (moves the slider, and the Play button to the frame's first step)."""
        i = int(i)
        if self.slider.value != i:
            self.slider.value = i  # the observer draws it
            return self
        self._draw(i)
        return self

    def _draw(self, i: int) -> None:
        show_png(self.image, self.png(i))
        extra = self._caption(i) if self._caption else ""
        self.label.value = f"frame {i} (0-{self.n - 1}), {self.durations[i]:.4g} ms {extra}"  # as the slider counts

    def export(self, path: str | os.PathLike) -> Path:
        """Write the frames as an animated GIF or APNG (by the suffix) with their durations.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> import numpy as np
        >>> p = image_player([np.zeros((4, 4, 4), np.uint8)] * 2, [50, 50], title="two frames", scale=1)
        >>> p.export(pathlib.Path(tempfile.mkdtemp()) / "run_s.png").suffix
        '.png'
        """
        if self.frames is None:
            raise UsageError("this player shows a figure, not image frames: nothing to export")
        return export_animation(self.frames, path, self.durations)


def play_steps(durations: Sequence[float]) -> tuple[list[int], float]:
    """Steps per frame and the step length (ms) that play ``durations`` exactly.

    Equal durations: one step each. Whole milliseconds: steps of their
    greatest common divisor (at least :data:`MIN_STEP_MS`; shorter ones are
    rounded to it). Otherwise steps of the shortest duration, rounded.

    Examples
    --------
    >>> play_steps([88.0] * 3), play_steps([30, 80, 170]), play_steps([40, 100])
    (([1, 1, 1], 88.0), ([3, 8, 17], 10), ([2, 5], 20))
    """
    d = [float(x) for x in durations]
    if not d or len(set(d)) == 1:
        return [1] * len(d), (d[0] if d else 1.0)
    if all(abs(x - round(x)) < 1e-9 for x in d):
        g = max(MIN_STEP_MS, math.gcd(*(int(round(x)) for x in d)))
    else:
        g = max(MIN_STEP_MS, min(x for x in d if x > 0))
    return [max(0, int(round(x / g))) for x in d], g


def image_player(frames: list[np.ndarray], durations: Sequence[float], *, title: str, scale: int | None,
                  caption: Callable[[int], str] | None = None, extra: Sequence[Any] = ()) -> Player:
    h, w = frames[0].shape[:2]
    k = scale or auto_scale(h, w)
    return Player(len(frames), lambda i: image_png(frames[i], k), durations, title=title, caption=caption,
                  frames=frames, extra=extra)


def sequence_player(frames: Any, info: pd.DataFrame | None = None, *, interval_ms: float | None = None,
                    title: str = "", scale: int | None = None) -> Player:
    """Play RGBA frames of one timing, e.g. an FRM sequence from :func:`animre.formats.icn.decode.sequence_frames`.

    The interval is ``interval_ms`` or else ``info``'s ``interval_ms`` per
    frame (the engine's timing of that FRM sequence: walk or shoot speed
    spread over its frames, else the battle frame or idle delay); the
    caption shows the frame's ``info`` row (frame id, X offset, anchor).

    Examples
    --------
    >>> p = sequence_player(np.zeros((4, 3, 5, 4), np.uint8), interval_ms=100)
    >>> len(p), p.play.interval, p.durations[-1]
    (4, 100, 100.0)
    """
    frames = list(frames)
    if interval_ms is not None:
        durations = [float(interval_ms)] * len(frames)
    elif info is not None and "interval_ms" in info.columns and len(info) == len(frames):
        durations = [float(v) for v in info["interval_ms"]]
    else:
        durations = [120.0] * len(frames)

    def caption(i: int) -> str:
        if info is None or i >= len(info):
            return ""
        return "; " + ", ".join(f"{c} {fmt(info[c].iloc[i])}" for c in info.columns if c != "interval_ms")

    return image_player(frames, durations, title=title, scale=scale, caption=caption)
