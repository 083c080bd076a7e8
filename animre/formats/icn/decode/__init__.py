"""Heroes of Might and Magic II ICN sprites: decode their run-length pixel commands.

Hand-written because no library decodes ICN sprites (image libraries do not
know the format, and a Kaitai spec cannot express a drawing program). The
rules follow the fheroes2 engine's ICN sprite decoder. Every pixel starts
transparent (colour index 0); ``x`` starts at 0 on row 0. Commands of a
normal sprite:

- ``0x00``: end of the row (the rest of it stays transparent), next row.
- ``0x01``-``0x7F`` = n: copy the next n bytes as colour indices.
- ``0x80``: end of the sprite (it may end the last row without a ``0x00``).
- ``0x81``-``0xBF``: skip (c - 0x80) transparent pixels.
- ``0xC0`` then t: n = t & 3, or the next byte when that is 0; when
  ``t & 0x40`` the n pixels get the transform level ((t & 0x3C) >> 2) + 2
  (levels 16 and 17 are ignored); otherwise they are skipped. Levels 2 (strong)
  to 5 (light) darken the background (shadows), 6 (strong) to 10 (light)
  lighten it.
- ``0xC1`` n c: n pixels of colour c.
- ``0xC2``-``0xFF`` c: (c - 0xC0) pixels of colour c.

A monochrome sprite (type byte bit ``0x20``) has ``0x00`` end of row,
``0x01``-``0x7F`` = n opaque pixels (colour 0, no colour bytes), ``0x80`` end,
``0x81``-``0xFF`` skip (c - 0x80). Decoding also stops at the end of the
sprite's data (the next sprite's data offset).

Result per pixel: the colour index and the engine's transform level (0
opaque, 1 transparent, 2-15 shadow and light levels). With ``strict=True``
(the default) data the engine would read past or pixels it would write
outside the sprite raise :class:`~animre.base.errors.ParseError` naming the file,
the field path and the absolute offset; ``strict=False`` stops where the
engine stops (a literal run past the data) and clips writes. Work is bounded
by the data length and the output by ``width * height`` (capped at
:data:`MAX_PIXELS` per sprite and :data:`MAX_TOTAL_PIXELS` per file).

Examples
--------
>>> img, tf = decode_sprite(bytes([0x02, 7, 8, 0x81, 0xC3, 9, 0x80]), 6, 1)
>>> img.tolist(), tf.tolist()
([[7, 8, 0, 9, 9, 9]], [[0, 0, 1, 0, 0, 0]])
"""

from __future__ import annotations

from ._palette import LIGHT_ALPHA, SHADOW_ALPHA, icn_palette, kb_palette, sprite_rgba, stand_in_palette
from ._sequences import (
    BATTLE_FRAME_DELAY_MS,
    BATTLE_IDLE_DELAY_MS,
    IDLE_SLOTS,
    MONSTER_FILES,
    MOVE_SLOTS,
    SHOOT_SLOTS,
    icn_for_frm,
    sequence_frames,
    sequence_interval_ms,
)
from ._sprites import HEADER_SIZE, MAX_PIXELS, MAX_TOTAL_PIXELS, IcnSprite, decode_sprite, icn_sprites, read_icn

__all__ = [
    "IcnSprite",
    "decode_sprite",
    "read_icn",
    "icn_sprites",
    "kb_palette",
    "stand_in_palette",
    "icn_palette",
    "sprite_rgba",
    "sequence_frames",
    "sequence_interval_ms",
    "icn_for_frm",
    "MONSTER_FILES",
    "MAX_PIXELS",
    "MAX_TOTAL_PIXELS",
    "SHADOW_ALPHA",
    # constants importable from here before the split too
    "LIGHT_ALPHA",
    "HEADER_SIZE",
    "MOVE_SLOTS",
    "SHOOT_SLOTS",
    "IDLE_SLOTS",
    "BATTLE_FRAME_DELAY_MS",
    "BATTLE_IDLE_DELAY_MS",
]
