"""Civilization III unit FLC sample generator (FlicAnim FLCs) plus one plain FLC.

Writes little-endian files with :mod:`struct` and numpy only (its own
BYTE_RUN, DELTA_FLC, DELTA_FLI and COPY encoders, independent of
:mod:`animre.formats.flc.decode`). Layout as in the format notes in the spec and the seed
note: the 128-byte FLC header with the 28-byte FlicAnimHeader at 0x58, then
per direction one BYTE_RUN frame (the file's first frame also carries the
palette, stored after the pixels as in the real files), DELTA_FLC frames for
the rest of the direction, and a ring frame that turns the direction's last
image back into its first. Sprites are made-up shapes (a body ellipse, a
rotating pointer, a moving dot) drawn over the transparent index 255, each
direction moving and turning its own way, clipped to a box inside the
240 x 240 unit canvas.

``flc/<Unit>/<Action>.flc`` are unit animations (8 directions, 0xFF);
``flc/Plain/Title.flc`` is a plain FLC without a FlicAnim header (prefix
chunk, PSTAMP, COPY, BLACK, DELTA_FLI, a COLOR_64 palette change and a final
ring frame). :func:`sprite_images` and :func:`expected_palettes` rebuild the
exact indexed images and palettes of a file from its manifest entry.

Planted regularities (recorded under ``planted``):

- ``speed`` lies in 44-125 ms in every unit file except ``speed_4_file``
  (speed 4 at byte 0x10, the value the seed note claims).
- ``anim_time == anim_length * speed`` except in ``speed_4_file`` (where it
  keeps the speed the file would have had).
- ``x_offset == (240 - width) // 2`` (the box is centred horizontally) in
  every unit file; ``y_offset + height == 170`` except ``feet_line_exception``.
- Palette chunks with the declared size 0xCDCDCDCD (``cdcd_palettes``).
- Frames declaring one more sub-chunk than they hold (``extra_subchunk_frames``).
- The frame header's reserved word is 1 in ring frames of unit files and 0
  everywhere else (``ring_reserved_flag``).
- ``updater`` is pure random (``random_column``, false-discovery guard).
- Frames whose image equals the previous one hold no sub-chunk at all
  (``empty_frames``).
"""

from __future__ import annotations

from ._encoders import encode_byte_run, encode_delta_flc, encode_delta_fli
from ._files import (
    BLACK,
    BYTE_RUN,
    CDCD,
    CDCD_FILES,
    COLOR_64,
    COLOR_256,
    COPY,
    CREATOR_CIV3,
    CREATOR_FLIB,
    DELTA_FLC,
    DELTA_FLI,
    DIRECTION_NAMES,
    EXTRA_SUBCHUNK,
    FEET_EXCEPTION,
    FRAME,
    HOLD_FILE,
    PLAIN_FILE,
    PREFIX,
    PSTAMP,
    SPEED_4_FILE,
    SUBDIR,
    UNITS,
)
from ._generate import generate
from ._images import DIR_VECTORS, TRANSPARENT, expected_palettes, sprite_images

__all__ = [
    "generate",
    "sprite_images",
    "expected_palettes",
    "encode_byte_run",
    "encode_delta_flc",
    "encode_delta_fli",
    "SUBDIR",
    "UNITS",
    "DIRECTION_NAMES",
    # the file plan and chunk numbers, importable from here before the split too
    "BLACK",
    "BYTE_RUN",
    "CDCD",
    "CDCD_FILES",
    "COLOR_256",
    "COLOR_64",
    "COPY",
    "CREATOR_CIV3",
    "CREATOR_FLIB",
    "DELTA_FLC",
    "DELTA_FLI",
    "DIR_VECTORS",
    "EXTRA_SUBCHUNK",
    "FEET_EXCEPTION",
    "FRAME",
    "HOLD_FILE",
    "PLAIN_FILE",
    "PREFIX",
    "PSTAMP",
    "SPEED_4_FILE",
    "TRANSPARENT",
]
