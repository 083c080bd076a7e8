"""An OMF move's frames with its collision points, composed once for the player and the report's pictures alike.

Examples
--------
>>> anim_string_frames("A10-B3")
[(0, 10), (1, 3)]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ...base.errors import UsageError
from ...present.png import index_palette
from .sprites import sprite_images, to_rgba

__all__ = ["OMF_MS_PER_TICK", "OMF_MARGIN", "COLLISION_RGBA", "OMF_TABLES", "MoveFrames", "move_frames",
           "anim_string_frames"]


#: Milliseconds per OMF tick (openomf's engine tick).
OMF_MS_PER_TICK = 10


#: Transparent pixels around the union of an OMF move's sprites and collision points.
OMF_MARGIN = 4


#: Colour of an OMF collision point.
COLLISION_RGBA = (255, 40, 70, 255)


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


@dataclass
class MoveFrames:
    """An OMF move (AF) or animation (BK) drawn frame by frame, as its animation string plays it.

    Attributes
    ----------
    frames : list of numpy.ndarray
        RGBA frames of one size, in play order: the sprite of each frame of the
        animation string, a grey box around it, each collision point of that
        sprite as a red cross.
    ticks : list of int
        Ticks per frame, from the animation string.
    sprites : list of int
        The sprite each frame shows.
    origin : (int, int)
        The animation coordinate of the frames' top-left pixel.
    bbox : (int, int, int, int)
        The union of the sprites' boxes and the collision points, end exclusive.
    text : str
        The animation string.
    dropped : int
        Frames of the string that name a sprite the move lacks (not drawn).
    points : dict
        Collision points per sprite.
    """

    frames: list
    ticks: list
    sprites: list
    origin: tuple
    bbox: tuple
    text: str
    dropped: int
    points: dict


#: (table of moves, table of collision points, key column, number column) of the AF and BK formats.
OMF_TABLES = {"af": ("af_moves", "af_coords", "move", "move_number"),
              "bk": ("bk_animations", "bk_coords", "animation", "anim_number")}


def move_frames(corpus: Any, file: str, move: int, *, palette: Any = None, format: str = "af",
                sprites: Sequence[Any] | None = None) -> MoveFrames:
    """The frames of an OMF move (``format="af"``) or BK animation (``"bk"``) in animation-string order.

    The picture is the union of every sprite's box and every collision point
    of the move (the animation's coordinates), with :data:`OMF_MARGIN`
    transparent pixels around; ``palette`` as :func:`animre.formats.omf.sprites.to_rgba`; ``sprites``: the
    file's :func:`animre.formats.omf.sprites.sprite_images`, when the caller already has them.

    Examples
    --------
    >>> m = move_frames(corpus, "af/FIGHTR0.AF", 1)
    >>> m.ticks, len(m.frames), m.frames[0].shape[2]
    ([10, 3, 8, 14], 4, 4)
    """
    table, coords_table, key, number = OMF_TABLES[format]
    moves = corpus.tables.get(table)
    if moves is None:
        raise UsageError(f"the corpus has no OMF {'fighter' if format == 'af' else 'arena'} ({table})")
    row = moves[(moves["file"] == file) & (moves[number] == move)]
    if not len(row):
        raise UsageError(f"{file}: no move {move}")
    sprites = [s for s in (sprite_images(corpus.path(file)) if sprites is None else sprites) if s.number == move]
    if not sprites:
        raise UsageError(f"{file}: move {move} has no sprites")
    text = row["animation.anim_string.text"].iloc[0]
    tags = anim_string_frames(text)
    seq = [(sp, t) for sp, t in tags if sp < len(sprites)]
    dropped = len(tags) - len(seq)
    if not seq:
        seq = [(k, 1) for k in range(len(sprites))]
    coords = corpus.tables.get(coords_table, pd.DataFrame(columns=["file", key, "frame", "x", "y"]))
    pts = coords[(coords["file"] == file) & (coords[key] == int(row[key].iloc[0]))]
    px, py = pts["x"].astype(int).tolist(), pts["y"].astype(int).tolist()
    bx0 = min([s.x for s in sprites] + px)
    by0 = min([s.y for s in sprites] + py)
    bx1 = max([s.x + s.image.shape[1] for s in sprites] + [x + 1 for x in px])
    by1 = max([s.y + s.image.shape[0] for s in sprites] + [y + 1 for y in py])
    x0, y0 = bx0 - OMF_MARGIN, by0 - OMF_MARGIN
    width, height = bx1 - bx0 + 2 * OMF_MARGIN, by1 - by0 + 2 * OMF_MARGIN
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
    return MoveFrames([pictures[sp] for sp, _ in seq], [t for _, t in seq], [sp for sp, _ in seq], (x0, y0),
                      (bx0, by0, bx1, by1), text, dropped,
                      {k: int((pts["frame"] == k).sum()) for k in pictures})
