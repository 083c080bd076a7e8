"""Decode the frames of an FLI/FLC file: every frame chunk drawn over the previous one, palettes in force.

Each frame is drawn in place over a copy of the previous one; the delta and
BYTE_RUN chunks come from the batched path (:mod:`._delta`) where it applies,
every other sub-chunk from the sequential codecs (:mod:`._codecs`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ....base.errors import ParseError, UsageError
from ._codecs import FULL_FRAME, PIXEL_CODECS, apply_palette
from ._delta import plan_deltas
from ._layout import (
    BYTE_RUN,
    COLOR_64,
    COLOR_256,
    DELTA_FLC,
    DELTA_FLI,
    PSTAMP,
    layout_of_bytes,
    layout_of_tree,
    parse_flc,
)
from ._roles import FrameRole, roles_from_counts

#: Pixels a file may decode to per byte of input (an empty 16-byte frame repeats a whole canvas).
PIXELS_PER_BYTE = 4096
MIN_PIXEL_BUDGET = 1 << 24
#: Sub-chunk types the batched path (:func:`._delta.plan_deltas`) draws.
_BATCHED = frozenset((DELTA_FLI, DELTA_FLC, BYTE_RUN))


@dataclass
class DecodedFlic:
    """Every frame chunk of a file decoded.

    Attributes
    ----------
    file : str
        Name used in error messages.
    frames : numpy.ndarray
        uint8 palette indices, shape (number of frame chunks, height, width),
        ring frames included.
    palettes : numpy.ndarray
        uint8 RGB, shape (number of frame chunks, 256, 3): the palette in
        force for each frame.
    roles : list of FrameRole
        One per frame chunk.
    flicanim : dict or None
        The FlicAnimHeader fields when the file has one.
    """

    file: str
    frames: np.ndarray
    palettes: np.ndarray
    roles: list[FrameRole]
    flicanim: dict | None

    @property
    def image_mask(self) -> np.ndarray:
        """Boolean mask over frame chunks: True for image frames."""
        return np.array([not r.is_ring for r in self.roles], dtype=bool)


def _load(src: str | os.PathLike | bytes | bytearray | memoryview, name: str | None) -> tuple[bytes, str]:
    if isinstance(src, (bytes, bytearray, memoryview)):
        return bytes(src), name or "<bytes>"
    if isinstance(src, (str, os.PathLike)):
        p = Path(src)
        try:
            return p.read_bytes(), name or str(p)
        except OSError as e:
            raise UsageError(f"{p}: cannot read: {e}") from e
    raise UsageError(f"expected a path or bytes, got {type(src).__name__}")


def decode_all(src: str | os.PathLike | bytes, *, palette_changes: bool = True, max_pixels: int | None = None,
               name: str | None = None) -> DecodedFlic:
    """Decode every frame chunk of an FLI/FLC file, ring frames included.

    Parameters
    ----------
    src : path or bytes
        The file.
    palette_changes : bool
        Apply palette chunks of later frames from their frame on (default).
        False applies only the first palette chunk of the first frame, as
        Pillow does.
    max_pixels : int, optional
        Refuse files that would decode to more pixels than this (all frame
        chunks together); default ``max(2**24, 4096 * file size)``.
    name : str, optional
        File name for error messages (default: the path, or ``<bytes>``).

    Raises
    ------
    ParseError
        The file does not parse, or a pixel or palette stream is bad.

    Examples
    --------
    >>> d = decode_all("data/samples/flc/Warrior/Run.flc")
    >>> d.frames.shape, sum(r.is_ring for r in d.roles)
    ((56, 40, 36), 8)
    """
    return DecodedFlic(*_decode(src, palette_changes, max_pixels, name, images_only=False))


def _decode(src: str | os.PathLike | bytes, palette_changes: bool, max_pixels: int | None, name: str | None,
            images_only: bool) -> tuple[str, np.ndarray, np.ndarray, list[FrameRole], dict | None]:
    """(file, frames, palettes, roles, flicanim); with ``images_only`` the ring frames are drawn in a scratch
    slot and left out of ``frames`` and ``palettes`` (no copy of the result to drop them)."""
    data, file = _load(src, name)
    layout = layout_of_bytes(data)
    if layout is None:  # not plainly well-formed: the spec reads it and names what is wrong
        root, bases = parse_flc(data, file)
        layout = layout_of_tree(root, bases, data)
    h, w = layout.height, layout.width
    fa = layout.flicanim
    civ3 = (fa["num_anims"], fa["anim_length"], fa["directions"]) if fa is not None else None
    roles = roles_from_counts(layout.num_frames, [c for c, _ in layout.frames], civ3)
    if h == 0 or w == 0:
        raise ParseError(file, "header.width", 8, f"frame size {w} x {h} has no pixels")
    if layout.depth not in (0, 8):
        raise ParseError(file, "header.depth", 12, f"depth {layout.depth}: only 8-bit FLI/FLC pixels are decoded")
    budget = max_pixels if max_pixels is not None else max(MIN_PIXEL_BUDGET, PIXELS_PER_BYTE * len(data))
    if len(roles) * h * w > budget:
        raise ParseError(file, "header.width", 8,
                         f"{len(roles)} frames of {w} x {h} pixels exceed the decoding budget of {budget} pixels")
    hw = h * w
    if images_only:  # slot of each frame chunk in the output; ring frames share the scratch slot at the end
        n = sum(not r.is_ring for r in roles)
        slots, i = [], 0
        for r in roles:
            slots.append(n if r.is_ring else i)
            i += not r.is_ring
        frames = np.empty((n + (n < len(roles)), h, w), dtype=np.uint8)
    else:
        n = len(roles)
        slots = list(range(n))
        frames = np.empty((n, h, w), dtype=np.uint8)
    # every frame is written whole (a full-frame chunk, or a copy of the previous frame before its deltas);
    # only the first is drawn over the blank canvas
    if slots:
        frames[slots[0]] = 0
    # each frame is drawn in place over a copy of the previous one (frame 0 over the zeroed canvas)
    plans = plan_deltas(data, np.frombuffer(data, np.uint8),
                         [((k, s.index), s.type, s.start, s.end) for k, (_, subs) in enumerate(layout.frames)
                          for s in subs if s.type in _BATCHED], h, w)
    pal = np.repeat(np.arange(256, dtype=np.uint8)[:, None], 3, axis=1)
    pals = [pal.copy()]  # every palette in force, in order; each frame points at one
    which = np.zeros(len(frames), dtype=np.intp)
    palette_seen = False
    prev = 0
    with memoryview(frames.reshape(-1)) as out, memoryview(data) as raw:
        for (chunk, subs), role, slot in zip(layout.frames, roles, slots):
            k = role.frame
            base = slot * hw
            ready = k == 0
            for sub in subs:
                t = sub.type
                if t == COLOR_256 or t == COLOR_64:
                    if palette_changes or (k == 0 and not palette_seen):
                        pal = pal.copy()
                        apply_palette(pal, data, sub.packets, 2 if t == COLOR_64 else 0, file,
                                       f"chunks[{chunk}].body.chunks[{sub.index}].{sub.field}", sub.start)
                        pals.append(pal)
                        palette_seen = True
                    continue
                if t == PSTAMP:
                    continue  # a preview of the first frame; it does not change the image
                codec = PIXEL_CODECS.get(t)
                if codec is None:
                    raise ParseError(file, f"chunks[{chunk}].body.chunks[{sub.index}].chunk_type", sub.ofs + 4,
                                     f"sub-chunk type {t} is not a pixel or palette chunk this decoder knows")
                if not ready and t not in FULL_FRAME:
                    out[base:base + hw] = out[prev:prev + hw]
                ready = True
                plan = plans.get((k, sub.index))
                if plan is None:
                    codec(out, base, h, w, data, raw, (file, f"chunks[{chunk}].body.chunks[{sub.index}].body",
                                                       sub.start, sub.end))
                elif plan[1] is None:  # a whole frame (BYTE_RUN)
                    out[base:base + hw] = plan[2]
                else:
                    flat = frames[slot].reshape(-1)
                    if plan[0] is not None:
                        flat[plan[0][0]] = plan[0][1]
                    flat[plan[1]] = plan[2]
            if not ready:
                out[base:base + hw] = out[prev:prev + hw]
            which[slot] = len(pals) - 1
            prev = base
    frames = frames[:n]
    palettes = np.stack(pals)[which[:n]]
    return file, frames, palettes, roles, fa


def decode_frames(src: str | os.PathLike | bytes, *, palette_changes: bool = True,
                  max_pixels: int | None = None, name: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Decode the image frames of any FLI/FLC file (ring frames left out).

    Parameters
    ----------
    src : path or bytes
        The file.
    palette_changes : bool
        Apply later palette chunks (default); False = first palette only, like Pillow.
    max_pixels : int, optional
        Decoding budget, see :func:`decode_all`.

    Returns
    -------
    frames : numpy.ndarray
        uint8 palette indices, shape (n, height, width), one per image frame.
    palettes : numpy.ndarray
        uint8 RGB, shape (n, 256, 3), the palette of each image frame.

    Examples
    --------
    >>> frames, palettes = decode_frames("data/samples/flc/Warrior/Run.flc")
    >>> frames.shape  # 48 image frames: the 8 ring frames are left out
    (48, 40, 36)
    """
    _, frames, palettes, _, _ = _decode(src, palette_changes, max_pixels, name, images_only=True)
    return frames, palettes


def ring_frames(src: str | os.PathLike | bytes, *, max_pixels: int | None = None,
                name: str | None = None) -> tuple[list[int], np.ndarray]:
    """The ring frames of a file: their frame-chunk ordinals and decoded images.

    A ring frame turns the last image of a loop back into its first, so its
    image equals the first image of its direction (or of the file).

    Returns
    -------
    indices : list of int
        Ordinals of the ring frames among the frame chunks.
    frames : numpy.ndarray
        uint8, shape (number of ring frames, height, width).

    Examples
    --------
    >>> idx, rings = ring_frames("data/samples/flc/Warrior/Run.flc")
    >>> idx
    [6, 13, 20, 27, 34, 41, 48, 55]
    """
    d = decode_all(src, max_pixels=max_pixels, name=name)
    idx = [r.frame for r in d.roles if r.is_ring]
    return idx, d.frames[idx]


def civ3_directions(src: str | os.PathLike | bytes, *, max_pixels: int | None = None,
                    name: str | None = None) -> dict[str, np.ndarray]:
    """A Civ3 unit animation's image frames per direction, in file order.

    Returns
    -------
    dict of str -> numpy.ndarray
        Direction name (SW, S, SE, E, NE, N, NW, W, as the ``directions``
        bits say) -> uint8 frames of shape (anim_length, height, width).

    Raises
    ------
    UsageError
        The file has no FlicAnim header or no directions (a plain FLC).

    Examples
    --------
    >>> dirs = civ3_directions("data/samples/flc/Warrior/Run.flc")
    >>> dirs["SW"].shape
    (6, 40, 36)
    """
    d = decode_all(src, max_pixels=max_pixels, name=name)
    if d.flicanim is None or d.flicanim["num_anims"] == 0 or d.flicanim["anim_length"] == 0:
        raise UsageError(f"{d.file}: not a Civ3 unit animation (no FlicAnim header with directions)")
    out: dict[str, list[np.ndarray]] = {}
    for r in d.roles:
        if r.is_ring or r.direction is None:
            continue
        key = r.direction_name or f"direction_{r.direction}"
        out.setdefault(key, []).append(d.frames[r.frame])
    return {k: np.stack(v) for k, v in out.items()}
