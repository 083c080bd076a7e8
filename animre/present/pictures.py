"""Pictures of a format's files for the report: what each format plugin names as its ``picture``.

A format record (:class:`animre.formats.base.Format`) names its picture
function as ``"module:function"`` (a shipped format's is in its folder:
``picture="animre.formats.icn.pictures:icn"``; a user's plugin names its
own); the report imports it for every format present. Each function is
``fn(corpus, files) -> list of (caption, picture)``: ``files`` are the corpus
files of that format that parsed, a picture is PNG bytes (pixel art at a
whole-number zoom; an animated PNG plays in the page) or a matplotlib
Figure. Every caption starts with the file it shows. A file whose picture
cannot be drawn gives ``(caption, None)`` with the caption saying why;
nothing is dropped silently.

This module holds what every picture function shares: the caption of an
animation playing (:func:`playing`), the cap on files per format
(:data:`MAX_FILES`, the others named by :func:`rest`), failures
(:func:`failed`) and copies (:func:`also`). Sheets and animations are laid out
by :mod:`animre.present.sheets`.

Examples
--------
>>> import numpy as np
>>> caption, png = playing("a.flc", [np.zeros((2, 2, 4), np.uint8)] * 3, [50, 50, 50], 1, "the header speed")
>>> caption, png[:4]
('a.flc: playing: 3 frames, 50 ms each, the header speed', b'\\x89PNG')
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import Any

import numpy as np

from .sheets import animation

__all__ = ["Picture", "MAX_FILES", "PLAYING", "drawn", "name_of", "failed", "rest", "also", "timing", "playing"]

#: (caption, PNG bytes or Figure or None).
Picture = tuple[str, Any]
#: At most this many files of one format are drawn (the others are listed by name).
MAX_FILES = 24
#: The words after the file name that mark an animation's caption.
PLAYING = "playing"


def drawn(files: Sequence[Any]) -> list[Any]:
    """The files a format's pictures draw: the first :data:`MAX_FILES` (:func:`rest` names the others)."""
    return list(files[:MAX_FILES])


def name_of(file: str) -> str:
    return PurePosixPath(file).name


def failed(file: str, e: Exception) -> Picture:
    return (f"{file}: no picture: {type(e).__name__}: {e}", None)


def rest(files: Sequence[Any]) -> list[Picture]:
    """The files past the cap (:data:`MAX_FILES`), by name: nothing is left out without being named."""
    limit = MAX_FILES
    names = [f[0] if isinstance(f, tuple) else f for f in files[limit:]]
    if not names:
        return []
    shown = ", ".join(names[:500]) + (f" ... ({len(names) - 500} more)" if len(names) > 500 else "")
    return [(f"{len(names)} more file(s) not drawn (at most {limit} per format): {shown}", None)]


def also(copies: Sequence[str]) -> str:
    if not copies:
        return ""
    return f"; the same bytes as {', '.join(copies[:3])}{' ...' if len(copies) > 3 else ''}"


def ms(d: float) -> str:
    return f"{d:g} ms"


def timing(durations: Sequence[float]) -> str:
    ds = sorted({round(float(d), 3) for d in durations})
    return f"{ms(ds[0])} each" if len(ds) == 1 else f"{ms(ds[0])}-{ms(ds[-1])} per frame"


def playing(name: str, frames: list[np.ndarray], durations: list[float], zoom: int, what: str) -> Picture:
    """The caption and animated PNG of an animation (a still PNG when it has one frame)."""
    if len(frames) < 2:
        return (f"{name}: one frame only, nothing to play: {what}", animation(frames, durations, zoom=zoom))
    return (f"{name}: {PLAYING}: {len(frames)} frames, {timing(durations)}, {what}",
            animation(frames, durations, zoom=zoom))
