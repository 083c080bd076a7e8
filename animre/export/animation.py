"""Animations for a wiki post or a report: RGBA frames to an animated GIF or APNG, in memory or written atomically."""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from ..base.atomic import write_atomic
from ..base.errors import UsageError

__all__ = ["export_animation", "animation_bytes", "image_bytes", "indexed"]


def animation_bytes(frames: Iterable[np.ndarray], durations: float | Iterable[float] = 100, *,
                    format: str = "png", loop: int = 0) -> bytes:
    """RGBA frames as the bytes of an animated PNG (APNG) or GIF, each frame shown its own milliseconds.

    What :func:`export_animation` writes, and what the report embeds as a
    ``data:`` URI (an APNG is a PNG: browsers play it, others show its first
    frame). ``format``: ``"png"`` (APNG: full alpha, whole milliseconds) or
    ``"gif"`` (1-bit transparency, durations rounded to 10 ms).

    Examples
    --------
    >>> import io
    >>> from PIL import Image
    >>> fs = [np.full((2, 2, 4), (255, 0, 0, 255), np.uint8), np.zeros((2, 2, 4), np.uint8)]
    >>> im = Image.open(io.BytesIO(animation_bytes(fs, [100, 50])))
    >>> im.format, im.n_frames, [im.seek(k) or im.info["duration"] for k in range(im.n_frames)]
    ('PNG', 2, [100.0, 50.0])
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
    if format not in ("png", "gif"):
        raise UsageError(f"animation_bytes: format is 'png' (APNG) or 'gif', not {format!r}")
    rgba = [a.astype(np.uint8) if shape[2] == 4 else
            np.concatenate([a.astype(np.uint8), np.full(shape[:2] + (1,), 255, np.uint8)], axis=2) for a in arrays]
    buf = io.BytesIO()
    if format == "gif":
        images = []
        for a in rgba:
            a = a.copy()
            a[..., 3] = np.where(a[..., 3] >= 128, 255, 0)
            a[a[..., 3] == 0] = 0
            images.append(Image.fromarray(a, "RGBA"))
        images[0].save(buf, format="GIF", save_all=True, append_images=images[1:],
                       duration=[int(round(d / 10)) * 10 for d in ms], loop=loop, disposal=2)
    else:
        images = _png_images(rgba)
        # each frame replaces the one before (blend: source), which stays as it is (disposal: none): Pillow
        # stores the part that changed and merges a frame into the previous one only when the two are equal
        # (clearing to the background would merge a frame that equals the cleared canvas, and drop it)
        images[0].save(buf, format="PNG", save_all=True, append_images=images[1:], duration=ms,
                       loop=loop, disposal=0, blend=0, **_png_options(images[0]))
    return buf.getvalue()


def indexed(frames: Sequence[np.ndarray]) -> tuple[list[np.ndarray], np.ndarray] | None:
    """RGBA frames of at most 256 colours as palette indices and their (n, 4) RGBA palette; None when they
    hold more colours. The same pixels either way: a PNG of indices with this palette decodes to the frames.

    Examples
    --------
    >>> idx, pal = indexed([np.array([[[1, 2, 3, 255], [0, 0, 0, 0]]], np.uint8)])
    >>> idx[0].tolist(), pal.tolist()
    ([[0, 1]], [[1, 2, 3, 255], [0, 0, 0, 0]])
    """
    first = np.ascontiguousarray(frames[0], dtype=np.uint8).reshape(-1, 4).view(np.uint32).ravel()
    if len(np.unique(first[:: max(1, len(first) // 65536)])) > 256:
        return None  # a figure (antialiased lines): many colours from the first pixels on
    flat = np.concatenate([np.ascontiguousarray(f, dtype=np.uint8).reshape(-1, 4) for f in frames])
    inverse, colours = pd.factorize(flat.view(np.uint32).ravel())  # by hashing: colours in order of appearance
    if len(colours) > 256:
        return None
    colours = np.asarray(colours, dtype=np.uint32)
    out, at = [], 0
    for f in frames:
        n = f.shape[0] * f.shape[1]
        out.append(inverse[at:at + n].reshape(f.shape[:2]).astype(np.uint8))
        at += n
    return out, colours.view(np.uint8).reshape(-1, 4)


def _png_images(rgba: Sequence[np.ndarray]) -> list[Image.Image]:
    """PIL images of RGBA frames: palette images sharing one palette when they hold at most 256 colours
    (about three times smaller), else RGBA."""
    found = indexed(rgba)
    if found is None:
        return [Image.fromarray(a, "RGBA") for a in rgba]
    idx, pal = found
    images = []
    for a in idx:
        im = Image.fromarray(a, "P")
        im.putpalette(pal[:, :3].ravel().tolist(), rawmode="RGB")
        im.info["transparency"] = bytes(pal[:, 3].tolist())
        images.append(im)
    return images


def _png_options(im: Image.Image) -> dict:
    return {"transparency": im.info["transparency"]} if im.mode == "P" else {}


def image_bytes(image: np.ndarray) -> bytes:
    """A still RGB(A) image as PNG bytes, palette-indexed (with each colour's alpha) when it holds at most
    256 colours, at the highest compression: the report's contact sheets.

    Examples
    --------
    >>> import io
    >>> from PIL import Image
    >>> a = np.zeros((2, 3, 4), np.uint8); a[0, 0] = (255, 0, 0, 255)
    >>> im = Image.open(io.BytesIO(image_bytes(a)))
    >>> im.mode, (np.asarray(im.convert("RGBA")) == a).all()
    ('P', np.True_)
    """
    a = np.asarray(image, dtype=np.uint8)
    if a.ndim != 3 or a.shape[2] not in (3, 4):
        raise UsageError(f"image_bytes: an RGB(A) image of shape (height, width, 3|4), not {a.shape}")
    if a.shape[2] == 3:
        a = np.concatenate([a, np.full(a.shape[:2] + (1,), 255, np.uint8)], axis=2)
    (im,) = _png_images([a])
    buf = io.BytesIO()
    im.save(buf, format="PNG", optimize=True, **_png_options(im))
    return buf.getvalue()


def export_animation(frames: Iterable[np.ndarray], path: str | os.PathLike,
                     durations: float | Iterable[float] = 100, *, loop: int = 0) -> Path:
    """Write a sequence of frames as an animated GIF or APNG (by the suffix), atomically.

    Parameters
    ----------
    frames : iterable of arrays
        RGBA (height, width, 4) or RGB (height, width, 3) uint8 frames of one
        size (e.g. :func:`animre.formats.flc.decode.civ3_rgba` output or a player's
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
    Pillow writes the file (:func:`animation_bytes`); like every GIF/APNG
    writer it merges a frame that is identical to the one before it into that
    frame (durations added).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from PIL import Image
    >>> fs = [np.full((2, 2, 4), (255, 0, 0, 255), np.uint8), np.zeros((2, 2, 4), np.uint8)]
    >>> p = export_animation(fs, pathlib.Path(tempfile.mkdtemp()) / "a.gif", [100, 50])
    >>> im = Image.open(p); im.n_frames, im.info["duration"]
    (2, 100)
    """
    suffix = Path(path).suffix.lower()
    if suffix not in (".gif", ".png", ".apng"):
        raise UsageError(f"export_animation: {path}: the suffix must be .gif, .png or .apng")
    data = animation_bytes(frames, durations, format="gif" if suffix == ".gif" else "png", loop=loop)
    write_atomic(path, data)
    return Path(path)
