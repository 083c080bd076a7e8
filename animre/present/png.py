"""Pictures at native size: RGBA over a checkerboard, PNG bytes, images shown at their exact pixel size.

The one place plots, players, widgets and the report turn pixels and
figures into PNG: indexed frames become RGBA elsewhere (:mod:`animre.decode`);
here they are enlarged by a whole number with nearest-neighbour (no
smoothing), drawn over a checkerboard where they are transparent, and an
ipywidgets ``Image`` is given the PNG's exact pixel size so the browser does
not rescale it.

Examples
--------
>>> png = image_png(np.zeros((3, 5, 4), np.uint8), 2)
>>> png_size(png)
(10, 6)
"""

from __future__ import annotations

import io
import struct
from typing import Any

import numpy as np
from matplotlib import colormaps
from PIL import Image

from ..base.errors import UsageError

__all__ = [
    "CHECKER",
    "checkerboard",
    "board",
    "image_png",
    "figure_png",
    "png_size",
    "show_png",
    "auto_scale",
    "index_palette",
]


CHECKER = ((204, 204, 204), (255, 255, 255))


def checkerboard(rgba: np.ndarray, cell: int = 4) -> np.ndarray:
    """An RGBA image composited over a grey/white checkerboard: (height, width, 3) uint8.

    Examples
    --------
    >>> img = np.zeros((1, 2, 4), np.uint8); img[0, 1] = (9, 9, 9, 255)
    >>> checkerboard(img).tolist()
    [[[204, 204, 204], [9, 9, 9]]]
    """
    a = np.asarray(rgba)
    if a.ndim != 3 or a.shape[2] not in (3, 4):
        raise UsageError(f"expected an RGB(A) image of shape (height, width, 3|4), got {a.shape}")
    if a.shape[2] == 3:
        return a.astype(np.uint8)
    alpha = a[..., 3:4].astype(np.float32) / 255
    out = a[..., :3].astype(np.float32) * alpha + board(*a.shape[:2], cell=cell) * (1 - alpha)
    return np.rint(out).astype(np.uint8)


def board(h: int, w: int, cell: int = 4) -> np.ndarray:
    """The grey/white checkerboard transparent pixels are drawn over: (h, w, 3) uint8.

    Examples
    --------
    >>> board(1, 5, cell=4)[0, :, 0].tolist()
    [204, 204, 204, 204, 255]
    """
    yy, xx = np.indices((h, w))
    on = (((yy // cell) + (xx // cell)) % 2 == 0)[..., None]
    return np.where(on, np.array(CHECKER[0], np.uint8), np.array(CHECKER[1], np.uint8))


def image_png(image: np.ndarray, scale: int = 1, *, checker: bool = True) -> bytes:
    """PNG bytes of an RGB(A) image enlarged ``scale`` times with nearest-neighbour.

    With ``checker`` transparent pixels are drawn over a checkerboard of
    8-pixel cells (of the enlarged picture), else alpha is kept in the PNG.

    Examples
    --------
    >>> from PIL import Image
    >>> png = image_png(np.zeros((3, 5, 4), np.uint8), 2)
    >>> Image.open(io.BytesIO(png)).size
    (10, 6)
    """

    a = np.asarray(image)
    scale = int(scale)
    if scale < 1:
        raise UsageError(f"scale must be a whole number >= 1, got {scale}")
    if scale > 1:
        a = np.repeat(np.repeat(a, scale, axis=0), scale, axis=1)
    if checker:
        a = checkerboard(a, cell=8 if scale > 1 else 4)
    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(a.astype(np.uint8))).save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def figure_png(fig: Any, dpi: int = 100) -> bytes:
    """PNG bytes of a matplotlib figure at ``dpi`` (its size in inches x dpi pixels, nothing rescaled).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> figure_png(Figure(figsize=(2, 1)))[:4]
    b'\\x89PNG'
    """
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    if len(png) < 24 or png[:8] != b"\x89PNG\r\n\x1a\n":
        return 0, 0
    return struct.unpack(">II", png[16:24])


def show_png(image_widget: Any, png: bytes) -> None:
    """Put PNG bytes in an ipywidgets ``Image`` at their exact pixel size (no browser rescaling).

    Examples
    --------
    >>> import ipywidgets as w
    >>> im = w.Image(format="png"); show_png(im, image_png(np.zeros((3, 5, 3), np.uint8), 2))
    >>> im.layout.width, im.layout.height
    ('10px', '6px')
    """
    image_widget.value = png
    w, h = png_size(png)
    if w and h:
        image_widget.layout.width = f"{w}px"
        image_widget.layout.height = f"{h}px"
        image_widget.layout.min_width = f"{w}px"
        image_widget.layout.object_fit = "none"
    else:
        image_widget.layout.width = image_widget.layout.height = image_widget.layout.min_width = None


def auto_scale(h: int, w: int, target: int = 480) -> int:
    return max(1, min(8, target // max(1, h, w)))


def index_palette() -> np.ndarray:
    """Colours for indexed sprites when no palette is given: (256, 4) RGBA, dark to bright hues.

    Every index stands out from the checkerboard's grey and white (a grey
    ramp would hide indices near 204 and 255 in it). Not the game's colours.

    Examples
    --------
    >>> index_palette().shape, int(index_palette()[:, 3].min())
    ((256, 4), 255)
    """
    return np.rint(colormaps["turbo"](np.linspace(0.0, 1.0, 256)) * 255).astype(np.uint8)
