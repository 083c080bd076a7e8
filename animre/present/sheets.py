"""Frames laid out or played: contact sheets (PNG) and inline animations (APNG) for the report's pictures.

A contact sheet shows every frame at once, row by row (:func:`sheet`,
:func:`grid`), on white; an animation plays the frames in their order, each
for the milliseconds the file declares (:func:`animation`: an animated PNG,
which is a PNG a browser plays). Transparent pixels stay transparent in both
(the report draws a checkerboard behind pixel art), and both are stored with
a palette when the frames hold at most 256 colours (three times smaller). Pixel art is enlarged by one whole
number with nearest-neighbour, never smoothed. :func:`side_by_side` and
:func:`on_canvas` compose frames of different sizes (the eight directions of
a Civ3 unit; sequences or moves played in turn, aligned on their anchor).

Examples
--------
>>> import io
>>> from PIL import Image
>>> frames = [np.full((3, 5, 4), v, np.uint8) for v in (0, 255)]
>>> im = Image.open(io.BytesIO(animation(frames, [80, 120], zoom=2)))
>>> im.size, im.n_frames
((10, 6), 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..export import animation_bytes, image_bytes

__all__ = ["sheet", "grid", "animation", "side_by_side", "on_canvas", "in_turn", "distinct", "zoom_for", "GAP",
           "CANVAS_PX"]

GAP = 2  #: pixels between the images of a sheet or of frames side by side
CANVAS_PX = 640 * 480  #: frames played in turn keep their own coordinates up to this canvas size


def zoom_for(images: Sequence[np.ndarray], *, cell: int = 64, max_width: int = 800) -> int:
    """The whole-number zoom (1 to 4) that brings the median image near ``cell`` pixels, the widest within
    ``max_width``.

    Examples
    --------
    >>> zoom_for([np.zeros((40, 36, 4))]), zoom_for([np.zeros((100, 100, 4))])
    (1, 1)
    >>> zoom_for([np.zeros((16, 16, 4))], cell=64)
    4
    """
    imgs = [np.asarray(a) for a in images if np.asarray(a).size]
    if not imgs:
        return 1
    longest = sorted(max(a.shape[:2]) for a in imgs)
    widest = max(a.shape[1] for a in imgs)
    return max(1, min(4, cell // max(1, longest[len(longest) // 2]), max_width // max(1, widest)))


def sheet(images: Sequence[np.ndarray], *, columns: int | None = None, gap: int = GAP, zoom: int | None = None,
          cell: int = 64, max_width: int = 800) -> bytes:
    """PNG of RGBA images laid out in rows on white, at one whole-number zoom (see :func:`grid`).

    ``zoom`` defaults to :func:`zoom_for`. Images are placed left to right
    and wrap at ``max_width`` (or after ``columns`` images of equal width: a
    grid). Empty images are left out.

    Examples
    --------
    >>> from PIL import Image
    >>> import io
    >>> Image.open(io.BytesIO(sheet([np.zeros((3, 5, 4), np.uint8)] * 3, columns=2, zoom=1))).size
    (12, 8)
    """
    imgs = [np.asarray(a) for a in images if np.asarray(a).size]
    if not imgs:
        return image_bytes(np.zeros((1, 1, 4), np.uint8))
    k = zoom or zoom_for(imgs, cell=cell, max_width=max_width)
    widest = max(a.shape[1] for a in imgs)
    limit = columns * (widest * k + gap) - gap if columns else max(max_width, widest * k)
    rows: list[list[np.ndarray]] = [[]]
    x = 0
    for a in imgs:
        w = a.shape[1] * k
        if x and x + w > limit:
            rows.append([])
            x = 0
        rows[-1].append(a)
        x += w + gap
    return grid(rows, zoom=k, gap=gap)


def grid(rows: Sequence[Sequence[np.ndarray]], *, zoom: int | None = None, gap: int = GAP, cell: int = 64,
         max_width: int = 1600) -> bytes:
    """PNG of rows of RGBA images (one row per list: a Civ3 direction, an FRM sequence, an OMF move) on
    white, ``gap`` pixels apart, at one whole-number zoom; transparent pixels stay transparent.

    Examples
    --------
    >>> from PIL import Image
    >>> import io
    >>> Image.open(io.BytesIO(grid([[np.zeros((2, 3, 4))] * 2, [np.zeros((4, 3, 4))]], zoom=1))).size
    (8, 8)
    """
    rows = [[np.asarray(a) for a in r if np.asarray(a).size] for r in rows]
    rows = [r for r in rows if r]
    if not rows:
        return image_bytes(np.zeros((1, 1, 4), np.uint8))
    k = zoom or zoom_for([a for r in rows for a in r], cell=cell, max_width=max_width)
    heights = [max(a.shape[0] for a in r) * k for r in rows]
    widths = [sum(a.shape[1] * k for a in r) + gap * (len(r) - 1) for r in rows]
    out = np.full((sum(heights) + gap * (len(rows) - 1), max(widths), 4), 255, np.uint8)
    y = 0
    for r, h in zip(rows, heights, strict=True):
        x = 0
        for a in r:
            big = np.repeat(np.repeat(_rgba(a), k, axis=0), k, axis=1)
            out[y:y + big.shape[0], x:x + big.shape[1]] = big
            x += big.shape[1] + gap
        y += h + gap
    return image_bytes(out)


def _rgba(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a, dtype=np.uint8)
    return a if a.shape[2] == 4 else np.concatenate([a, np.full(a.shape[:2] + (1,), 255, np.uint8)], axis=2)


def side_by_side(images: Sequence[np.ndarray], *, gap: int = GAP) -> np.ndarray:
    """RGBA images left to right on one transparent canvas, ``gap`` transparent pixels apart, top-aligned.

    Examples
    --------
    >>> side_by_side([np.ones((2, 2, 4), np.uint8), np.ones((3, 1, 4), np.uint8)]).shape
    (3, 5, 4)
    """
    imgs = [np.asarray(a, dtype=np.uint8) for a in images]
    h = max(a.shape[0] for a in imgs)
    w = sum(a.shape[1] for a in imgs) + gap * (len(imgs) - 1)
    out = np.zeros((h, w, 4), np.uint8)
    x = 0
    for a in imgs:
        out[:a.shape[0], x:x + a.shape[1]] = a
        x += a.shape[1] + gap
    return out


def on_canvas(frames: Sequence[np.ndarray], origins: Sequence[tuple[int, int]]) -> list[np.ndarray]:
    """Frames of different sizes on one transparent canvas, each with its top-left at its origin ``(x, y)``
    in a common coordinate system (an anchor, an animation's coordinates); the canvas is their union.

    Examples
    --------
    >>> out = on_canvas([np.ones((1, 1, 4), np.uint8), np.ones((2, 2, 4), np.uint8)], [(0, 0), (-1, -1)])
    >>> [a.shape for a in out], out[0][1, 1].tolist()
    ([(2, 2, 4), (2, 2, 4)], [1, 1, 1, 1])
    """
    x0 = min(x for x, _ in origins)
    y0 = min(y for _, y in origins)
    x1 = max(x + a.shape[1] for a, (x, _) in zip(frames, origins, strict=True))
    y1 = max(y + a.shape[0] for a, (_, y) in zip(frames, origins, strict=True))
    out = []
    for a, (x, y) in zip(frames, origins, strict=True):
        c = np.zeros((y1 - y0, x1 - x0, 4), np.uint8)
        c[y - y0:y - y0 + a.shape[0], x - x0:x - x0 + a.shape[1]] = a
        out.append(c)
    return out


def in_turn(frames: Sequence[np.ndarray], origins: Sequence[tuple[int, int]], *,
            max_pixels: int = CANVAS_PX) -> list[np.ndarray]:
    """Frames of several moves or sequences, played one after the other, on one canvas: at their origins
    (:func:`on_canvas`) when the union is at most ``max_pixels``, else each centred on a canvas as large as
    the largest frame.

    Examples
    --------
    >>> [a.shape for a in in_turn([np.ones((1, 1, 4)), np.ones((1, 1, 4))], [(0, 0), (5, 0)])]
    [(1, 6, 4), (1, 6, 4)]
    >>> [a.shape for a in in_turn([np.ones((1, 1, 4)), np.ones((1, 1, 4))], [(0, 0), (5, 0)], max_pixels=2)]
    [(1, 1, 4), (1, 1, 4)]
    """
    placed = on_canvas(frames, origins)
    if placed[0].shape[0] * placed[0].shape[1] <= max_pixels:
        return placed
    h, w = max(a.shape[0] for a in frames), max(a.shape[1] for a in frames)
    return on_canvas(frames, [(w // 2 - a.shape[1] // 2, h // 2 - a.shape[0] // 2) for a in frames])


def animation(frames: Sequence[np.ndarray], durations: Sequence[float], *, zoom: int = 1) -> bytes:
    """An animated PNG of RGBA frames of one size, each shown its own milliseconds, enlarged ``zoom`` times.

    Transparent pixels stay transparent (the report draws a checkerboard
    behind). A frame equal to the one before it is merged into it, the two
    durations added (what every APNG writer does; nothing shown changes).

    Examples
    --------
    >>> import io
    >>> from PIL import Image
    >>> im = Image.open(io.BytesIO(animation([np.zeros((1, 1, 4), np.uint8), np.ones((1, 1, 4), np.uint8)], [50, 70])))
    >>> [im.seek(k) or im.info["duration"] for k in range(im.n_frames)]
    [50.0, 70.0]
    """
    k = max(1, int(zoom))
    big = [np.repeat(np.repeat(np.asarray(a, dtype=np.uint8), k, axis=0), k, axis=1) for a in frames]
    return animation_bytes(big, list(durations), format="png")


def distinct(corpus: Any, files: Sequence[str]) -> list[tuple[str, list[str]]]:
    """The files with different bytes (by SHA-256), each with its byte-identical copies, in corpus order.

    Examples
    --------
    >>> [f for f, copies in distinct(corpus, ["agg/GOBLNFRM.BIN", "agg/HEROES2.AGG/GOBLNFRM.BIN"])]
    ['agg/GOBLNFRM.BIN']
    """
    ft = corpus.files
    sha = dict(zip(ft["file"], ft["sha256"], strict=True)) if "sha256" in ft.columns else {}
    groups: dict[Any, list[str]] = {}
    for f in files:
        groups.setdefault(sha.get(f) or f, []).append(f)
    return [(g[0], g[1:]) for g in groups.values()]
