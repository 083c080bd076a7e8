"""Animations for a wiki post: RGBA frames to an animated GIF or APNG, written atomically."""

from __future__ import annotations

import io
import os
from collections.abc import Iterable
from pathlib import Path

import numpy as np
from PIL import Image

from ..atomic import write_atomic
from ..errors import UsageError

__all__ = ["export_animation"]


def export_animation(frames: Iterable[np.ndarray], path: str | os.PathLike,
                     durations: float | Iterable[float] = 100, *, loop: int = 0) -> Path:
    """Write a sequence of frames as an animated GIF or APNG (by the suffix), atomically.

    Parameters
    ----------
    frames : iterable of arrays
        RGBA (height, width, 4) or RGB (height, width, 3) uint8 frames of one
        size (e.g. :func:`animre.decode.flc.civ3_rgba` output or a player's
        ``frames``). Alpha 0 stays transparent.
    path : path-like
        ``.gif`` or ``.png``/``.apng``.
    durations : number or iterable of numbers
        Milliseconds per frame (one number for all). GIF stores hundredths of a
        second, so GIF durations are rounded to 10 ms; GIF transparency is one
        bit (alpha below 128 becomes transparent).
    loop : int
        Number of loops, 0 = forever.

    Notes
    -----
    Pillow writes the file; like every GIF/APNG writer it merges a frame that
    is identical to the one before it into that frame (durations added).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from PIL import Image
    >>> fs = [np.full((2, 2, 4), (255, 0, 0, 255), np.uint8), np.zeros((2, 2, 4), np.uint8)]
    >>> p = export_animation(fs, pathlib.Path(tempfile.mkdtemp()) / "a.gif", [100, 50])
    >>> im = Image.open(p); im.n_frames, im.info["duration"]
    (2, 100)
    """


    arrays = [np.asarray(f) for f in frames]
    if not arrays:
        raise UsageError("export_animation: no frames")
    shape = arrays[0].shape
    if len(shape) != 3 or shape[2] not in (3, 4) or any(a.shape != shape for a in arrays):
        raise UsageError(f"export_animation: frames must be RGB(A) arrays of one size, got shapes "
                         f"{sorted({a.shape for a in arrays})[:3]}")
    if isinstance(durations, (int, float, np.integer, np.floating)):
        ms = [float(durations)] * len(arrays)
    else:
        ms = [float(d) for d in durations]
        if len(ms) != len(arrays):
            raise UsageError(f"export_animation: {len(arrays)} frames but {len(ms)} durations")
    suffix = Path(path).suffix.lower()
    if suffix not in (".gif", ".png", ".apng"):
        raise UsageError(f"export_animation: {path}: the suffix must be .gif, .png or .apng")
    rgba = [a.astype(np.uint8) if shape[2] == 4 else
            np.concatenate([a.astype(np.uint8), np.full(shape[:2] + (1,), 255, np.uint8)], axis=2) for a in arrays]
    buf = io.BytesIO()
    if suffix == ".gif":
        images = []
        for a in rgba:
            a = a.copy()
            a[..., 3] = np.where(a[..., 3] >= 128, 255, 0)
            a[a[..., 3] == 0] = 0
            images.append(Image.fromarray(a, "RGBA"))
        images[0].save(buf, format="GIF", save_all=True, append_images=images[1:],
                       duration=[int(round(d / 10)) * 10 for d in ms], loop=loop, disposal=2)
    else:
        images = [Image.fromarray(a, "RGBA") for a in rgba]
        images[0].save(buf, format="PNG", save_all=True, append_images=images[1:], duration=ms,
                       loop=loop, disposal=1, blend=0)
    write_atomic(path, buf.getvalue())
    return Path(path)
