"""Frame roles: which frame chunks are images, which are ring frames, and each one's Civ3 direction.

Ring frames (the extra frame that turns the last image back into the first,
for looping) are told apart by the counts: a Civ3 FlicAnim with
``num_anims x (anim_length + 1)`` frame chunks has one ring frame after each
direction; any other file whose frame chunks number ``frames + 1`` ends with
one ring frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._layout import FRAME_TYPE, enum_int

#: Civ3 direction names by bit of the FlicAnim ``directions`` field (bit 0 first).
DIRECTION_NAMES = ("SW", "S", "SE", "E", "NE", "N", "NW", "W")


@dataclass(frozen=True)
class FrameRole:
    """What one frame chunk of a file is.

    Attributes
    ----------
    frame : int
        Ordinal of the frame chunk among the file's frame chunks (0-based).
    chunk : int
        Index of the chunk among all top-level chunks (the prefix counts).
    image : int or None
        Index of the image frame it shows; None for a ring frame.
    is_ring : bool
        True for a ring frame (loops the animation back to its first image).
    direction : int or None
        Civ3: index of the direction group the frame belongs to.
    direction_name : str or None
        Civ3: SW, S, SE, E, NE, N, NW or W (from the ``directions`` bits).
    """

    frame: int
    chunk: int
    image: int | None
    is_ring: bool
    direction: int | None
    direction_name: str | None


def _direction_names(directions: int, num_anims: int) -> list[str | None]:
    bits = [DIRECTION_NAMES[b] for b in range(8) if (directions >> b) & 1]
    return [bits[d] if d < len(bits) else None for d in range(num_anims)]


def roles_from_counts(num_frames: int, frame_chunks: list[int],
                      civ3: tuple[int, int, int] | None) -> list[FrameRole]:
    """The frame-role rule, from the counts alone (the decoder and the ``flc_frames`` table share it).

    ``frame_chunks``: the top-level chunk index of every frame chunk;
    ``civ3`` = (num_anims, anim_length, directions) of a FlicAnim header, or None.

    Examples
    --------
    >>> [r.is_ring for r in roles_from_counts(3, [0, 1, 2, 3], None)]
    [False, False, False, True]
    """
    n = len(frame_chunks)
    out: list[FrameRole] = []
    if civ3 is not None:
        num_anims, anim_length, directions = civ3
        names = _direction_names(directions & 0xFF, num_anims)
        if num_anims > 0 and anim_length > 0 and n == num_anims * (anim_length + 1):
            image = 0
            for k, chunk in enumerate(frame_chunks):
                d, pos = divmod(k, anim_length + 1)
                ring = pos == anim_length
                out.append(FrameRole(k, chunk, None if ring else image, ring, d, names[d]))
                image += 0 if ring else 1
            return out
    ring_last = num_frames >= 1 and n == num_frames + 1
    for k, chunk in enumerate(frame_chunks):
        ring = ring_last and k == n - 1
        d = name = None
        if civ3 is not None and civ3[0] > 0 and civ3[1] > 0:
            num_anims, anim_length, directions = civ3
            d = (n - 2 if ring else k) // anim_length
            if d >= num_anims:
                d = None
            else:
                name = _direction_names(directions & 0xFF, num_anims)[d]
        out.append(FrameRole(k, chunk, None if ring else k, ring, d, name))
    return out


def frame_roles(parsed: Any) -> list[FrameRole]:
    """The role of every frame chunk of a parsed file (image frame, ring frame, direction).

    Parameters
    ----------
    parsed : Flc
        A file parsed by the ``flc`` spec.

    Examples
    --------
    >>> from animre.tables import parse
    >>> _, obj, _ = parse("data/samples/flc/Warrior/Run.flc")
    >>> [r.frame for r in frame_roles(obj) if r.is_ring]
    [6, 13, 20, 27, 34, 41, 48, 55]
    """
    frame_chunks = [i for i, c in enumerate(parsed.chunks) if enum_int(c.chunk_type) == FRAME_TYPE]
    fa = parsed.header.flicanim
    civ3 = (fa.num_anims, fa.anim_length, fa.directions) if parsed.is_flicanim else None
    return roles_from_counts(parsed.header.num_frames, frame_chunks, civ3)
