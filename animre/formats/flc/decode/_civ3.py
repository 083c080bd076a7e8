"""Civ3 unit pictures: a frame back on its sprite canvas, and the palette roles (transparent, shadow and
civilization-colour indices) the game draws them with."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ....base.errors import UsageError


def _header_value(header: Any, key: str) -> int:
    if isinstance(header, Mapping):
        return int(header[key])
    obj = header
    if hasattr(obj, "header"):  # a parsed file
        obj = obj.header
    if hasattr(obj, "flicanim"):
        obj = obj.flicanim
    return int(getattr(obj, key))


def place_on_canvas(frame: np.ndarray, header: Any, fill: int = 255) -> np.ndarray:
    """Put a clipped Civ3 frame back on its full sprite canvas (240 x 240 for units).

    Parameters
    ----------
    frame : numpy.ndarray
        One decoded frame, shape (height, width).
    header : mapping or parsed object
        The FlicAnim fields ``x_offset``, ``y_offset``, ``xs_orig``,
        ``ys_orig``: a dict (e.g. :attr:`DecodedFlic.flicanim`), the parsed
        file, its header or its FlicAnim header.
    fill : int
        Palette index for the canvas around the box (255, Civ3's transparent
        magenta, by default).

    Returns
    -------
    numpy.ndarray
        Shape (ys_orig, xs_orig), the frame at (y_offset, x_offset).

    Examples
    --------
    >>> hdr = {"x_offset": 1, "y_offset": 2, "xs_orig": 4, "ys_orig": 4}
    >>> place_on_canvas(np.zeros((2, 2), np.uint8), hdr).tolist()
    [[255, 255, 255, 255], [255, 255, 255, 255], [255, 0, 0, 255], [255, 0, 0, 255]]
    """
    frame = np.asarray(frame)
    if frame.ndim != 2:
        raise UsageError(f"expected one frame of shape (height, width), got shape {frame.shape}")
    xo, yo = _header_value(header, "x_offset"), _header_value(header, "y_offset")
    xs, ys = _header_value(header, "xs_orig"), _header_value(header, "ys_orig")
    h, w = frame.shape
    if xs == 0 or ys == 0:
        raise UsageError("the FlicAnim header gives no canvas size (xs_orig/ys_orig are 0): not a Civ3 unit")
    if xo + w > xs or yo + h > ys:
        raise UsageError(f"a {w} x {h} frame at ({xo}, {yo}) does not fit the {xs} x {ys} canvas")
    canvas = np.full((ys, xs), fill, dtype=frame.dtype)
    canvas[yo:yo + h, xo:xo + w] = frame
    return canvas


#: Palette indices a Civ3 unit draws as fully transparent (255 magenta, 254 green), as the C7 engine
#: (an open re-implementation of Civilization III) loads unit FLCs.
CIV3_TRANSPARENT: tuple[int, ...] = (254, 255)
#: Shadow indices: black with alpha ``(255 - index) * 16`` (240 darkest ... 253 faintest), as the C7 engine
#: draws them; the files store them as shades of magenta.
CIV3_SHADOWS: tuple[int, ...] = tuple(range(240, 254))
#: Indices the game replaces by the owner's civilization colours: 0-15 and the even indices 16-62.
CIV3_CIV_COLOURS: tuple[int, ...] = tuple(range(16)) + tuple(range(16, 64, 2))
#: The palette roles of a Civ3 unit, for :func:`animre.present.plots.palette_swatch` ``marks=``.
CIV3_MARKS = {"civilization colours": CIV3_CIV_COLOURS, "shadows": CIV3_SHADOWS, "transparent": CIV3_TRANSPARENT}


def civ3_rgba(frames: np.ndarray, palette: np.ndarray) -> np.ndarray:
    """Civ3 unit frames as RGBA: transparent indices alpha 0, shadow indices translucent black.

    Parameters
    ----------
    frames : numpy.ndarray
        uint8 palette indices, shape (..., height, width).
    palette : numpy.ndarray
        (256, 3) uint8 RGB.

    Returns
    -------
    numpy.ndarray
        uint8, shape (..., height, width, 4).

    Examples
    --------
    >>> pal = np.zeros((256, 3), np.uint8); pal[5] = (9, 8, 7)
    >>> civ3_rgba(np.array([[5, 255, 240]], np.uint8), pal)[0].tolist()
    [[9, 8, 7, 255], [0, 0, 0, 0], [0, 0, 0, 240]]
    """
    pal = np.asarray(palette, dtype=np.uint8)
    if pal.shape != (256, 3):
        raise UsageError(f"a palette has shape (256, 3), got {pal.shape}")
    table = np.concatenate([pal, np.full((256, 1), 255, np.uint8)], axis=1)
    for i in CIV3_SHADOWS:
        table[i] = (0, 0, 0, (255 - i) * 16)
    table[list(CIV3_TRANSPARENT)] = 0
    return table[np.asarray(frames, dtype=np.uint8)]
