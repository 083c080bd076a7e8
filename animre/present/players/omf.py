"""The OMF player: an AF move's sprites in the order and ticks of its animation string, with collision points.

Examples
--------
>>> anim_string_frames("A10-B3")
[(0, 10), (1, 3)]
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from ...decode.omf_sprites import sprite_images, to_rgba
from ...errors import UsageError
from ..png import image_png, index_palette
from .player import Player

__all__ = [
    "OMF_VIEW_PX",
    "OMF_MARGIN",
    "COLLISION_RGBA",
    "OMF_MS_PER_TICK",
    "anim_string_frames",
    "omf_zoom",
    "omf_player",
]


#: The longer side (pixels) an OMF frame is enlarged to at most (:func:`omf_zoom`).
OMF_VIEW_PX = 720


#: Transparent pixels around the union of an OMF move's sprites and collision points.
OMF_MARGIN = 4


#: Colour of an OMF collision point.
COLLISION_RGBA = (255, 40, 70, 255)


#: Milliseconds per OMF tick (the openomf engine's static tick; the game's speed setting slows it down).
OMF_MS_PER_TICK = 10


_FRAME_TAG = re.compile(r"([A-Z])(\d*)$")


def anim_string_frames(text: str) -> list[tuple[int, int]]:
    """(sprite, ticks) of every frame of an OMF animation string, in order.

    The string is ``-``-separated tags; a tag ending in a capital letter and
    a number shows that sprite (A = 0) for that many ticks, lower-case tags
    before it are commands (sound, movement ...).

    Examples
    --------
    >>> anim_string_frames("bpd-A10-B3-s1C8")
    [(0, 10), (1, 3), (2, 8)]
    """
    out = []
    for tag in str(text or "").split("-"):
        m = _FRAME_TAG.search(tag.strip())
        if m:
            out.append((ord(m.group(1)) - ord("A"), int(m.group(2) or 1)))
    return out


def omf_zoom(height: int, width: int) -> int:
    """The integer zoom of an OMF frame: the largest that fits its longer side in :data:`OMF_VIEW_PX`, 1 to 8.

    Examples
    --------
    >>> omf_zoom(172, 224), omf_zoom(26, 28), omf_zoom(900, 300)
    (3, 8, 1)
    """
    return max(1, min(8, OMF_VIEW_PX // max(1, height, width)))


def omf_player(corpus: Any, file: str, move: int, *, palette: Any = None, ms_per_tick: float = OMF_MS_PER_TICK,
               scale: int | None = None) -> Player:
    """Play an OMF AF move: its sprites in animation-string order, each frame's collision points in red.

    Each frame of the animation string (``A3-B8``: sprite A for 3 ticks, then
    B for 8) lasts its ticks: the Play button steps one tick every
    ``ms_per_tick`` ms (:attr:`Player.schedule`). The picture is the union of
    every sprite's box and every collision point of the move (the animation's
    coordinates; ``origin`` is its top-left, ``bbox`` the union), enlarged by
    :func:`omf_zoom`; a grey box marks each sprite.

    Parameters
    ----------
    corpus : Corpus
        Supplies the file, ``af_moves`` (animation string) and ``af_coords`` (collision points).
    file : str
        An AF file of the corpus.
    move : int
        The move number.
    palette : optional
        As :func:`animre.decode.omf_sprites.to_rgba` (e.g. a BK file path); default :func:`index_palette`.
    ms_per_tick : float
        Milliseconds per tick of the animation string (openomf's tick, 10 ms).
    scale : int, optional
        Integer enlargement instead of :func:`omf_zoom`.

    Examples
    --------
    >>> p = omf_player(corpus, "af/FIGHTR0.AF", 1)
    >>> [int(d) for d in p.durations], p.steps, p.play.interval
    ([100, 30, 80, 140], [10, 3, 8, 14], 10)
    """
    moves = corpus.tables.get("af_moves")
    if moves is None:
        raise UsageError("the corpus has no OMF fighter (af_moves)")
    row = moves[(moves["file"] == file) & (moves["move_number"] == move)]
    if not len(row):
        raise UsageError(f"{file}: no move {move}")
    sprites = [s for s in sprite_images(corpus.path(file)) if s.number == move]
    if not sprites:
        raise UsageError(f"{file}: move {move} has no sprites")
    text = row["animation.anim_string.text"].iloc[0]
    tags = anim_string_frames(text)
    seq = [(sp, t) for sp, t in tags if sp < len(sprites)]
    dropped = len(tags) - len(seq)
    if not seq:
        seq = [(k, 1) for k in range(len(sprites))]
    coords = corpus.tables.get("af_coords", pd.DataFrame(columns=["file", "move", "frame", "x", "y"]))
    pts = coords[(coords["file"] == file) & (coords["move"] == int(row["move"].iloc[0]))]
    px, py = pts["x"].astype(int).tolist(), pts["y"].astype(int).tolist()
    bx0 = min([s.x for s in sprites] + px)
    by0 = min([s.y for s in sprites] + py)
    bx1 = max([s.x + s.image.shape[1] for s in sprites] + [x + 1 for x in px])
    by1 = max([s.y + s.image.shape[0] for s in sprites] + [y + 1 for y in py])
    margin = OMF_MARGIN
    x0, y0 = bx0 - margin, by0 - margin
    width, height = bx1 - bx0 + 2 * margin, by1 - by0 + 2 * margin
    if width * height > 4096 * 4096:
        raise UsageError(f"{file}: move {move} spans {width} x {height} pixels: too large to draw")
    pal = index_palette() if palette is None else palette
    pictures: dict[int, np.ndarray] = {}
    for k, s in enumerate(sprites):
        canvas = np.zeros((height, width, 4), np.uint8)
        img = to_rgba(s.image, pal)
        oy, ox = s.y - y0, s.x - x0
        h, w = img.shape[:2]
        region = canvas[oy:oy + h, ox:ox + w]
        opaque = img[..., 3] > 0
        region[opaque] = img[opaque]
        grey = (150, 150, 150, 255)  # the sprite's box, so a small sprite is found on a large canvas
        for yy in (oy - 1, oy + h):
            canvas[yy, max(0, ox - 1):ox + w + 1][canvas[yy, max(0, ox - 1):ox + w + 1, 3] == 0] = grey
        for xx in (ox - 1, ox + w):
            canvas[max(0, oy - 1):oy + h + 1, xx][canvas[max(0, oy - 1):oy + h + 1, xx, 3] == 0] = grey
        for cx, cy in pts.loc[pts["frame"] == k, ["x", "y"]].astype(int).itertuples(index=False):
            cx, cy = cx - x0, cy - y0
            canvas[cy, max(0, cx - 2):cx + 3] = COLLISION_RGBA
            canvas[max(0, cy - 2):cy + 3, cx] = COLLISION_RGBA
        pictures[k] = canvas
    frames = [pictures[sp] for sp, _ in seq]
    n_pts = {k: int((pts["frame"] == k).sum()) for k in pictures}
    zoom = scale or omf_zoom(height, width)
    colours = "index colours (no palette given)" if palette is None else "palette given"
    note = f"; {dropped} frame(s) name a sprite the move lacks, not shown" if dropped else ""
    title = (f"{file.rsplit('/', 1)[-1]}: move {move}, {len(frames)} frames ({text}), {ms_per_tick:g} ms per "
             f"tick; {width} x {height} px at {zoom}x, {colours}; red: collision points{note}")
    p = Player(len(frames), lambda i: image_png(frames[i], zoom), [t * ms_per_tick for _, t in seq], title=title,
               frames=frames, steps=[t for _, t in seq], tick_ms=ms_per_tick,
               caption=lambda i: f"(sprite {seq[i][0]}, {seq[i][1]} ticks, {n_pts[seq[i][0]]} collision points)")
    p.origin = (x0, y0)  # the animation coordinate of the frames' top-left pixel
    p.bbox = (bx0, by0, bx1, by1)  # the union of the sprites' boxes and the collision points, end exclusive
    p.zoom = zoom
    p.sprites = [sp for sp, _ in seq]
    return p
