"""One Must Fall 2097 sample generator: fighter (``FIGHTR*.AF``) and arena (``*.BK``) files.

Writes with :mod:`struct` only (never the Kaitai parsers). Every sprite holds
a real small image (rectangles, ellipses, rings, triangles, crosses,
checkerboards with transparent holes) encoded as an OMF pixel stream by
:func:`encode_pixels`; the manifest records each image's shape parameters,
and :func:`encoded_images` rebuilds the exact indexed pixels + transparency
mask that were encoded, per file / move / sprite.

Planted regularities (manifest ``planted``):

- ``unknown_6`` of the move footer equals ``damage // 2`` in all moves except
  those listed under ``unknown_6_damage_half.exceptions``.
- ``pos_constraint`` bit 0x2 is set only in moves of category 7 (jumping).
- ``unknown_9`` is 0 everywhere except one move of one file
  (``unknown_9_constant.exception``: file, move, absolute offset, value).
- ``unknown_11`` is uniformly random 0-255 (a false-discovery guard).
- Move strings with non-zero bytes after the first NUL are listed under
  ``move_string_labels``.

Also true in every file: exec window 10, move terminator 250 at byte -31,
sound table ending with ``FGHED``, animation ``unknown_4`` 0, coordinate
bits 10-15 zero, collision points with negative coordinates, missing
sprites that reuse an earlier sprite's index.
"""

from __future__ import annotations

from ._generate import generate
from ._images import SHAPES, encode_pixels, encoded_images, make_image
from ._values import (
    AF_DIR,
    AF_NAMES,
    ATTACK_CATEGORIES,
    BK_DIR,
    BK_NAMES,
    BK_TERMINATOR,
    CATEGORIES,
    COMBOS,
    LABELS,
    MOVE_TERMINATOR,
)
from ._writers import encode_af, encode_bk, pack_coord

__all__ = [
    "generate",
    "make_image",
    "encode_pixels",
    "encoded_images",
    "pack_coord",
    "AF_DIR",
    "BK_DIR",
    "AF_NAMES",
    "BK_NAMES",
    # importable from here before the split too
    "encode_af",
    "encode_bk",
    "SHAPES",
    "CATEGORIES",
    "ATTACK_CATEGORIES",
    "COMBOS",
    "LABELS",
    "MOVE_TERMINATOR",
    "BK_TERMINATOR",
]
