"""ICN colours: the game palette (``KB.PAL``) or a stand-in, and a sprite coloured as the engine draws it."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ....base.errors import UsageError
from ...omf.sprites import grey_palette
from ._sprites import IcnSprite

SHADOW_ALPHA = 128  # a shadow pixel: black at half opacity
LIGHT_ALPHA = 64  # a lightening pixel: white at quarter opacity


def kb_palette(data: bytes) -> np.ndarray:
    """A ``KB.PAL`` palette (768 bytes of 6-bit VGA values) as (256, 4) uint8 RGBA.

    Components are scaled the engine's way, ``c << 2`` (63 -> 252).

    Examples
    --------
    >>> kb_palette(bytes([63, 0, 1]) * 256)[0].tolist()
    [252, 0, 4, 255]
    """
    if len(data) != 768:
        raise UsageError(f"a KB.PAL palette has 768 bytes, got {len(data)}")
    c = np.frombuffer(bytes(data), np.uint8).reshape(256, 3) & 0x3F
    return np.concatenate([c << 2, np.full((256, 1), 255, np.uint8)], axis=1).astype(np.uint8)


def stand_in_palette() -> np.ndarray:
    """The palette used when no ``KB.PAL`` is at hand: a grey ramp, index i -> (i, i, i).

    Not the game's colours; it only makes index differences visible.
    """
    return grey_palette()


def icn_palette(source: str | os.PathLike | bytes | None = None) -> np.ndarray:
    """The game palette as (256, 4) RGBA: from ``KB.PAL`` when there is one, else :func:`stand_in_palette`.

    ``source``: the 768 bytes, a ``KB.PAL`` path, or a folder searched
    (recursively) for a file named ``KB.PAL`` (any case); None = the stand-in.

    Examples
    --------
    >>> icn_palette("data/samples").shape
    (256, 4)
    """
    if source is None:
        return stand_in_palette()
    if isinstance(source, (bytes, bytearray, memoryview)):
        return kb_palette(bytes(source))
    p = Path(source)
    if p.is_dir():
        found = sorted(q for q in p.rglob("*") if q.name.upper() == "KB.PAL" and q.is_file())
        return kb_palette(found[0].read_bytes()) if found else stand_in_palette()
    return kb_palette(p.read_bytes())


def sprite_rgba(sprite: IcnSprite, palette: np.ndarray | None = None) -> np.ndarray:
    """Colour a sprite: (height, width, 4) uint8 RGBA.

    Opaque pixels take their palette colour; transparent pixels get alpha 0;
    shadow pixels (levels 2-5) are black with alpha :data:`SHADOW_ALPHA`;
    lightening pixels (6-15) white with alpha 64.

    Examples
    --------
    >>> s = IcnSprite(0, np.array([[3, 0, 0]], np.uint8), np.array([[0, 1, 2]], np.uint8), 0, 0, 0)
    >>> sprite_rgba(s).tolist()
    [[[3, 3, 3, 255], [0, 0, 0, 0], [0, 0, 0, 128]]]
    """
    pal = stand_in_palette() if palette is None else np.asarray(palette, np.uint8)
    if pal.shape[-1] == 3:
        pal = np.concatenate([pal, np.full((len(pal), 1), 255, np.uint8)], axis=1)
    out = pal[sprite.image.astype(np.intp)].copy()
    tf = sprite.transform
    out[tf == 1] = 0
    out[(tf >= 2) & (tf <= 5)] = (0, 0, 0, SHADOW_ALPHA)
    out[tf >= 6] = (255, 255, 255, LIGHT_ALPHA)
    return out
