"""The FLC player: an FLI/FLC file, or one direction of a Civ3 unit, at the header's speed.

Examples
--------
>>> p = flc_player("data/samples/flc/Warrior/Run.flc", direction="S")
>>> len(p.frames), p.durations[0], p.play.interval
(6, 88.0, 88)
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import ipywidgets as w
import numpy as np

from ...base.errors import UsageError
from ...present.players.player import Player, image_player
from . import decode as flc_decode
from .decode import civ3_rgba, decode_all, frame_duration_ms

__all__ = ["flc_player"]


def _palette_legend(palette: np.ndarray) -> str:
    """HTML strip of the Civ3 palette roles: civilization colours, shadows, transparent."""
    def cells(idx: Sequence[int]) -> str:
        return "".join(
            f"<span title='index {i}' style='display:inline-block;width:10px;height:12px;"
            f"background:rgb({int(palette[i][0])},{int(palette[i][1])},{int(palette[i][2])})'></span>" for i in idx)
    return ("<div style='font-size:12px;line-height:16px'>"
            f"civilization colours (indices 0-15 and even 16-62, replaced by the owner's colour): "
            f"{cells(flc_decode.CIV3_CIV_COLOURS)}<br>shadows (240-253, drawn as translucent black): "
            f"{cells(flc_decode.CIV3_SHADOWS)}"
            f"<br>transparent (254, 255): {cells(flc_decode.CIV3_TRANSPARENT)}</div>")


def flc_player(src: str | os.PathLike | bytes, direction: str | int | None = None, *,
               scale: int | None = None, name: str | None = None) -> Player:
    """Play an FLI/FLC file, or one direction of a Civ3 unit animation, at the header's speed.

    Parameters
    ----------
    src : path or bytes
        The file.
    direction : str or int, optional
        Civ3: a direction name (``SW``, ``S`` ...) or its position; default the
        first. Ignored for files without directions (every image frame plays).
    scale : int, optional
        Integer enlargement (default: the frame's longer side to about 480 px, at most 8 x).

    Civ3 units are coloured as the game draws them (:func:`animre.formats.flc.decode.civ3_rgba`):
    the transparent indices are transparent, shadows translucent; the
    civilization-colour indices are listed under the picture.

    Examples
    --------
    >>> p = flc_player("data/samples/flc/Warrior/Run.flc", direction="SW")
    >>> p.frames[0].shape, len(p)
    ((40, 36, 4), 6)
    """
    d = decode_all(src, name=name)
    ms = frame_duration_ms(src)
    civ3 = d.flicanim is not None and d.flicanim["num_anims"] > 0 and d.flicanim["anim_length"] > 0
    images = [r for r in d.roles if not r.is_ring]
    label = d.file.rsplit("/", 1)[-1]
    if civ3:
        names = list(dict.fromkeys(r.direction_name or f"direction_{r.direction}" for r in images
                                   if r.direction is not None))
        if direction is None:
            direction = names[0]
        if isinstance(direction, int):
            if not 0 <= direction < len(names):
                raise UsageError(f"{d.file}: no direction {direction}; it has {len(names)}: {', '.join(names)}")
            direction = names[direction]
        if direction not in names:
            raise UsageError(f"{d.file}: no direction {direction!r}; it has {', '.join(names)}")
        images = [r for r in images if (r.direction_name or f"direction_{r.direction}") == direction]
        frames = [civ3_rgba(d.frames[r.frame], d.palettes[r.frame]) for r in images]
        title = f"{label}: direction {direction}, {len(frames)} frames, {ms:g} ms per frame (header speed)"
        extra = [w.HTML(_palette_legend(d.palettes[images[0].frame]))]
    else:
        frames = []
        for r in images:
            pal = np.concatenate([d.palettes[r.frame], np.full((256, 1), 255, np.uint8)], axis=1)
            frames.append(pal[d.frames[r.frame]])
        title = f"{label}: {len(frames)} frames, {ms:g} ms per frame (header speed)"
        extra = []
    return image_player(frames, [ms] * len(frames), title=title, scale=scale,
                         caption=lambda i: f"(frame chunk {images[i].frame})", extra=extra)
