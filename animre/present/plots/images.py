"""Pixels: contact sheets, palettes, sprites with collision points, sprite sheets and sequence strips."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from ...base.errors import UsageError
from ..png import board
from .base import new_axes, require_columns

__all__ = ["contact_sheet", "palette_swatch", "sprite_collisions", "sprite_sheet", "sequence_strip"]


def _rgb(image: np.ndarray, palette: np.ndarray | None) -> np.ndarray:
    """Indexed image + (256, 3) palette -> RGB array for display (a lookup, no decoding)."""
    img = np.asarray(image)
    if img.ndim == 3 or palette is None:
        return img
    pal = np.asarray(palette)
    if pal.dtype != np.uint8:
        pal = pal.astype(float)
        pal = pal / pal.max() if pal.max() > 1 else pal
    return pal[img]


def contact_sheet(frames: Sequence[np.ndarray] | Mapping[str, np.ndarray],
                  grid: Mapping[str, Sequence[int]] | Sequence[Sequence[int]] | None = None,
                  *, palette: np.ndarray | None = None, bbox: tuple[int, int, int, int] | None = None,
                  title: str = "", thumb: float = 1.1, transparent: Sequence[int] | np.ndarray | None = None,
                  max_cols: int = 8, page: int = 0) -> Figure:
    """A direction x frame grid of decoded frames (Civ3 FlicAnim), capped and paged.

    Parameters
    ----------
    frames : dict direction -> frames, or sequence of frames
        Either the output of ``animre.formats.flc.decode.civ3_directions`` (direction
        name -> array of shape (n, height, width)), one row per direction; or
        decoded frames in file order (``decode_frames``) with ``grid`` saying
        which frame goes where.
    grid : dict direction -> frame indices, or list of index lists, optional
        Only with a sequence of frames; row = direction.
    palette : (256, 3) array, optional
        Palette for indexed frames.
    bbox : (x, y, width, height), optional
        A rectangle drawn on every cell (the FlicAnim bounding box on the canvas).
    transparent : sequence of int, or a (256, 4) RGBA table, optional
        Indexed frames: the indices made transparent, or each index's RGBA
        colour as the game draws it (a format's own table, e.g.
        ``animre.formats.flc.decode.civ3_rgba(np.arange(256), palette)``).
        Transparent pixels show a checkerboard.
    max_cols, page : int
        At most ``max_cols`` frames per row; ``page`` picks which columns
        (page 1 = frames ``max_cols`` .. ``2 * max_cols - 1``). The title says
        which frames are shown and how many pages there are.

    Examples
    --------
    >>> fs = [np.full((4, 4), i, np.uint8) for i in range(6)]
    >>> fig = contact_sheet(fs, {"SW": [0, 1, 2], "S": [3, 4, 5]})
    >>> len(fig.axes)
    6
    >>> fig = contact_sheet({"SW": np.zeros((30, 4, 4), np.uint8)}, page=1)
    >>> len(fig.axes), fig.axes[0].get_title()
    (8, '8')
    """
    if isinstance(frames, Mapping):
        rows = [(str(k), list(v)) for k, v in frames.items()]
    else:
        if grid is None:
            grid = [list(range(len(frames)))]
        items = list(grid.items()) if isinstance(grid, Mapping) else [(str(i), r) for i, r in enumerate(grid)]
        rows = [(str(k), [frames[i] for i in idxs]) for k, idxs in items]
    total = max((len(r) for _, r in rows), default=1)
    max_cols = max(1, int(max_cols))
    pages = max(1, -(-total // max_cols))
    if not 0 <= page < pages:
        raise UsageError(f"contact_sheet: page {page} of {pages} (pages 0..{pages - 1}, {max_cols} frames each)")
    first = page * max_cols
    rows = [(name, imgs[first:first + max_cols]) for name, imgs in rows]
    ncols = max((len(r) for _, r in rows), default=1)
    table = None
    if palette is not None and transparent is not None:
        pal = np.asarray(palette, dtype=np.uint8)
        if isinstance(transparent, np.ndarray) and transparent.shape == (256, 4):
            table = np.asarray(transparent, dtype=np.uint8)
        else:
            table = np.concatenate([pal, np.full((256, 1), 255, np.uint8)], axis=1)
            table[list(transparent)] = 0
    # fixed margins instead of constrained layout: a 64-cell sheet renders several times faster
    wi, hi = max(3.0, thumb * ncols + 0.5), max(2.0, thumb * len(rows) + 0.6)
    fig = Figure(figsize=(wi, hi))
    axes = fig.subplots(max(1, len(rows)), max(1, ncols), squeeze=False,
                        gridspec_kw={"left": 0.45 / wi, "right": 1 - 0.05 / wi, "bottom": 0.05 / hi,
                                     "top": 1 - 0.55 / hi, "wspace": 0.08, "hspace": 0.12})
    for i, (name, imgs) in enumerate(rows):
        for j in range(ncols):
            a = axes[i, j]
            a.set_xticks([])
            a.set_yticks([])
            if j >= len(imgs):
                a.set_axis_off()
                continue
            img = np.asarray(imgs[j])
            if table is not None and img.ndim == 2:
                a.imshow(board(*img.shape), interpolation="nearest")
                a.imshow(table[img], interpolation="nearest")
            else:
                a.imshow(_rgb(img, palette), interpolation="nearest")
            if bbox is not None:
                x, y, w, h = bbox
                a.add_patch(Rectangle((x - 0.5, y - 0.5), w, h, fill=False, edgecolor="red", linewidth=0.6))
            if i == 0:
                a.set_title(str(first + j), fontsize=7)
            if j == 0:
                a.set_ylabel(str(name), fontsize=8)
    shown = f"frames {first}-{first + ncols - 1} of {total}, page {page + 1} of {pages}" if pages > 1 else ""
    fig.suptitle((title or "directions x frames") + (f" ({shown})" if shown else ""))
    return fig


def palette_swatch(palette: np.ndarray, *, title: str = "palette",
                   marks: Mapping[str, Sequence[int]] | None = None, ax: Axes | None = None) -> Figure:
    """A 16 x 16 grid of the 256 palette colours (index = row * 16 + column).

    ``marks`` outlines groups of indices (name -> indices) with a legend
    (a format's palette roles, e.g. ``animre.formats.flc.decode.CIV3_MARKS``).

    Examples
    --------
    >>> fig = palette_swatch(np.zeros((256, 3), np.uint8))
    >>> fig.axes[0].images[0].get_array().shape[:2]
    (16, 16)
    >>> fig = palette_swatch(np.zeros((256, 3), np.uint8), marks={"shadows": range(240, 248)})
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()][0]
    'shadows (8)'
    """
    pal = np.asarray(palette)
    fig, ax = new_axes(ax, (4.2, 4.2) if marks else (3.5, 3.5))
    n = len(pal)
    padded = np.zeros((256, pal.shape[1]), dtype=pal.dtype)
    padded[:n] = pal[:256]
    ax.imshow(_rgb(np.arange(256).reshape(16, 16), padded), interpolation="nearest")
    ax.set_xticks(range(16), [f"{i:X}" for i in range(16)], fontsize=6)
    ax.set_yticks(range(16), [f"{i:X}0" for i in range(16)], fontsize=6)
    if marks:
        colours = ["#00e5ff", "#ffcc00", "#ff2d55", "#7cff00"]
        handles = []
        for k, (name, idx) in enumerate(marks.items()):
            c = colours[k % len(colours)]
            for i in idx:
                ax.add_patch(Rectangle((i % 16 - 0.45, i // 16 - 0.45), 0.9, 0.9, fill=False, edgecolor=c,
                                       linewidth=1.2))
            handles.append(Patch(facecolor="none", edgecolor=c, label=f"{name} ({len(idx)})"))
        ax.legend(handles=handles, fontsize=6, loc="upper center", bbox_to_anchor=(0.5, -0.04), ncols=2)
    ax.set_title(title)
    return fig


def sprite_collisions(image: np.ndarray, points: pd.DataFrame, *, origin: tuple[float, float] = (0, 0),
                      palette: np.ndarray | None = None, x: str = "x", y: str = "y",
                      title: str = "", ax: Axes | None = None) -> Figure:
    """An OMF sprite drawn at its position with the collision points of its frame.

    Parameters
    ----------
    image : 2-D indexed or 3-D RGB(A) array
        The decoded sprite (``animre.formats.omf.sprites``); transparent
        pixels may be masked or NaN.
    points : DataFrame
        Collision coordinates of that frame (``af_coords`` rows) with
        columns ``x`` and ``y`` in the animation's coordinate space.
    origin : (x, y)
        Where the sprite's top-left corner sits in that space (the sprite
        record's x and y).

    Examples
    --------
    >>> fig = sprite_collisions(np.zeros((4, 4)), pd.DataFrame({"x": [1], "y": [2]}))
    >>> fig.axes[0].collections[0].get_offsets().tolist()
    [[1.0, 2.0]]
    """
    require_columns(points, [x, y], "sprite_collisions")
    img = np.asarray(image)
    h, w = img.shape[:2]
    fig, ax = new_axes(ax, (4.5, 4.5))
    ox, oy = origin
    shown = _rgb(img, palette) if img.ndim == 2 and palette is not None else img
    ax.imshow(shown, extent=(ox - 0.5, ox + w - 0.5, oy + h - 0.5, oy - 0.5),
              cmap=None if shown.ndim == 3 else "gray", interpolation="nearest")
    ax.scatter(points[x].to_numpy(dtype=float), points[y].to_numpy(dtype=float), s=14,
               color="#ff3355", edgecolor="white", linewidth=0.5, zorder=3, label="collision points")
    ax.add_patch(Rectangle((ox - 0.5, oy - 0.5), w, h, fill=False, edgecolor="#888888", linewidth=0.6))
    ax.set_aspect("equal")
    if not ax.yaxis_inverted():
        ax.invert_yaxis()
    ax.legend(fontsize=7, loc="best")
    ax.set_title(title or f"sprite {w}x{h} at ({ox}, {oy}), {len(points)} collision points")
    return fig


def _draw_rgba(a: Axes, rgba: np.ndarray) -> None:
    h, w = rgba.shape[:2]
    a.imshow(board(max(h, 1), max(w, 1)), interpolation="nearest")
    if h and w:
        a.imshow(rgba, interpolation="nearest")
    a.set_xticks([])
    a.set_yticks([])


def sprite_sheet(images: Sequence[np.ndarray], *, labels: Sequence[str] | None = None, columns: int = 12,
                 title: str = "", thumb: float = 0.9) -> Figure:
    """A grid of RGBA sprites over a checkerboard (transparent pixels show the board, shadows darken it).

    Parameters
    ----------
    images : sequence of (h, w, 4) uint8 arrays
        E.g. :func:`animre.formats.icn.decode.sprite_rgba` of every ICN sprite.
    labels : sequence of str, optional
        One per image (default: its position).

    Examples
    --------
    >>> fig = sprite_sheet([np.zeros((3, 2, 4), np.uint8)] * 5, columns=4)
    >>> len(fig.axes)
    8
    """
    n = len(images)
    cols = max(1, min(columns, n))
    rows = max(1, -(-n // cols))
    fig = Figure(figsize=(max(3.0, thumb * cols), max(1.5, thumb * rows)), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    for k, a in enumerate(axes.ravel()):
        if k >= n:
            a.set_axis_off()
            continue
        _draw_rgba(a, np.asarray(images[k]))
        a.set_title(str(labels[k]) if labels is not None else str(k), fontsize=6)
    fig.suptitle(title or f"{n} sprites")
    return fig


def sequence_strip(frames: np.ndarray, info: pd.DataFrame, *, title: str = "", thumb: float = 1.4) -> Figure:
    """The frames of an FRM sequence side by side on their common canvas, the anchor marked.

    ``frames`` and ``info`` come from :func:`animre.formats.icn.decode.sequence_frames`;
    each panel is titled with the frame id, the FRM X offset and the interval.

    Examples
    --------
    >>> info = pd.DataFrame({"frame_id": [4, 5], "x_offset": [0, 3], "anchor_x": [1, 1],
    ...                      "anchor_y": [2, 2], "interval_ms": [120.0, 120.0]})
    >>> len(sequence_strip(np.zeros((2, 3, 3, 4), np.uint8), info).axes)
    2
    """
    require_columns(info, ["frame_id", "x_offset", "anchor_x", "anchor_y", "interval_ms"], "sequence_strip")
    n = max(1, len(frames))
    fig = Figure(figsize=(max(3.0, thumb * n), thumb * 1.4), layout="constrained")
    axes = fig.subplots(1, n, squeeze=False)[0]
    for k, a in enumerate(axes):
        if k >= len(frames):
            a.set_axis_off()
            continue
        r = info.iloc[k]
        _draw_rgba(a, frames[k])
        a.plot([r["anchor_x"]], [r["anchor_y"]], marker="+", color="red", markersize=8)
        a.set_title(f"id {int(r['frame_id'])}  dx {int(r['x_offset']):+d}\n{r['interval_ms']:.0f} ms", fontsize=6)
    fig.suptitle(title or "sequence")
    return fig
