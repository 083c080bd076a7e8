"""The OMF player: an AF move's sprites in the order and ticks of its animation string, with collision points.

Examples
--------
>>> anim_string_frames("A10-B3")
[(0, 10), (1, 3)]
"""

from __future__ import annotations

from typing import Any

from ...present.players.player import Player
from ...present.png import image_png
from .frames import COLLISION_RGBA, OMF_MARGIN, OMF_MS_PER_TICK, OMF_TABLES, MoveFrames, anim_string_frames, move_frames

__all__ = [
    "OMF_VIEW_PX",
    "OMF_MARGIN",
    "COLLISION_RGBA",
    "OMF_MS_PER_TICK",
    "anim_string_frames",
    "omf_zoom",
    "omf_player",
    "move_frames",
    "MoveFrames",
    "OMF_TABLES",
]


#: The longer side (pixels) an OMF frame is enlarged to at most (:func:`omf_zoom`).
OMF_VIEW_PX = 720




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
    :func:`omf_zoom`; a grey box marks each sprite (:func:`move_frames`).

    Parameters
    ----------
    corpus : Corpus
        Supplies the file, ``af_moves`` (animation string) and ``af_coords`` (collision points).
    file : str
        An AF file of the corpus.
    move : int
        The move number.
    palette : optional
        As :func:`animre.formats.omf.sprites.to_rgba` (e.g. a BK file path); default :func:`index_palette`.
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
    m = move_frames(corpus, file, move, palette=palette)
    frames = m.frames
    height, width = frames[0].shape[:2]
    zoom = scale or omf_zoom(height, width)
    colours = "index colours (no palette given)" if palette is None else "palette given"
    note = f"; {m.dropped} frame(s) name a sprite the move lacks, not shown" if m.dropped else ""
    title = (f"{file.rsplit('/', 1)[-1]}: move {move}, {len(frames)} frames ({m.text}), {ms_per_tick:g} ms per "
             f"tick; {width} x {height} px at {zoom}x, {colours}; red: collision points{note}")
    p = Player(len(frames), lambda i: image_png(frames[i], zoom), [t * ms_per_tick for t in m.ticks], title=title,
               frames=frames, steps=m.ticks, tick_ms=ms_per_tick,
               caption=lambda i: f"(sprite {m.sprites[i]}, {m.ticks[i]} ticks, {m.points[m.sprites[i]]} "
                                 "collision points)")
    p.origin = m.origin  # the animation coordinate of the frames' top-left pixel
    p.bbox = m.bbox  # the union of the sprites' boxes and the collision points, end exclusive
    p.zoom = zoom
    p.sprites = m.sprites
    return p
