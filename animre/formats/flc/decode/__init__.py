"""FLI/FLC frame pixels: decode every frame of an FLI, FLC or Civ3 FlicAnim FLC.

Hand-written with numpy because Pillow refuses Civilization III unit FLCs:
its FLI plugin requires zeros in the header's reserved area at 0x58, where
Civ3 keeps the 28-byte FlicAnimHeader. For standard FLI/FLC files Pillow's
decoder is the reference this module is tested against (indexed frames and
palettes pixel-identical), so its conventions are followed:

- the canvas starts as zeros and every frame is drawn over the previous one;
- BYTE_RUN (15): per line, the packet-count byte is ignored and the line is
  decoded until it is full; a negative count copies literal bytes, a
  positive one repeats the next byte;
- DELTA_FLI (12, "LC"): u2 first line, u2 line count, then per line a u1
  packet count and packets of (u1 skip, s1 count);
- DELTA_FLC (7, "SS2", Civ3's FLI_WORD_LC): u2 line count, then per line
  option words (0xC000: skip lines, 0x8000: last pixel of an odd-width line)
  and packets of (u1 column skip **in bytes** — as the Civ3 note says, and
  as Pillow reads it — s1 count of words);
- COPY (16) and BLACK (13) fill the whole frame;
- COLOR_256 (4) sets 8-bit components, COLOR_64 (11) 6-bit components
  shifted left by 2 (as Pillow does); the palette starts as a grey ramp.
  Pillow reads only the first frame's palette; here later palette chunks
  apply from their frame on (``palette_changes=False`` mimics Pillow);
- PSTAMP (18) previews are skipped, the frame header's width/height
  overrides are ignored (as Pillow does), any other sub-chunk type is an
  error; only 8-bit files (depth 8, or 0 in old writers) are decoded.

Ring frames (the extra frame that turns the last image back into the first,
for looping) are told apart by the counts (:func:`frame_roles`): a Civ3
FlicAnim with ``num_anims x (anim_length + 1)`` frame chunks has one ring
frame after each direction; any other file whose frame chunks number
``frames + 1`` ends with one ring frame.

Every failure of a bad stream is an :class:`~animre.base.errors.ParseError` with
the file, the sub-chunk's field path and the absolute byte offset; all work
is bounded by the input size.

Speed (numpy only, no compiled extension): the chunk tree comes from the
Kaitai parse of ``ksy/flc.ksy`` (the spec decides what a well-formed file is
and reports what is wrong); the packet headers of all delta chunks are
followed in one tight loop and
numpy builds the pixels of the whole file at once (BYTE_RUN frames too); each
frame is drawn in place over a copy of the previous one; any pixel chunk that
breaks a rule uses the sequential codecs (memoryview slice copies), which
raise the exact error. ``decode_frames`` draws ring frames in a scratch slot.

Examples
--------
>>> frames, palettes = decode_frames("data/samples/flc/Warrior/Run.flc")
>>> frames.shape, palettes.shape
((48, 40, 36), (48, 256, 3))
>>> dirs = civ3_directions("data/samples/flc/Warrior/Run.flc")
>>> list(dirs)
['SW', 'S', 'SE', 'E', 'NE', 'N', 'NW', 'W']
"""

from __future__ import annotations

from ._civ3 import CIV3_CIV_COLOURS, CIV3_MARKS, CIV3_SHADOWS, CIV3_TRANSPARENT, civ3_rgba, place_on_canvas
from ._frames import (
    MIN_PIXEL_BUDGET,
    PIXELS_PER_BYTE,
    DecodedFlic,
    civ3_directions,
    decode_all,
    decode_frames,
    ring_frames,
)
from ._layout import (
    BLACK,
    BYTE_RUN,
    COLOR_64,
    COLOR_256,
    COPY,
    DELTA_FLC,
    DELTA_FLI,
    FRAME_TYPE,
    PREFIX_TYPE,
    PSTAMP,
)
from ._roles import DIRECTION_NAMES, FrameRole, frame_roles, roles_from_counts
from ._timing import frame_duration_ms

__all__ = [
    "DIRECTION_NAMES",
    "roles_from_counts",
    "FrameRole",
    "DecodedFlic",
    "frame_roles",
    "decode_all",
    "decode_frames",
    "ring_frames",
    "civ3_directions",
    "place_on_canvas",
    "CIV3_TRANSPARENT",
    "CIV3_SHADOWS",
    "CIV3_CIV_COLOURS",
    "CIV3_MARKS",
    "civ3_rgba",
    "frame_duration_ms",
    # chunk type numbers and the decoding budget (importable from here before the split too)
    "FRAME_TYPE",
    "PREFIX_TYPE",
    "COLOR_256",
    "DELTA_FLC",
    "COLOR_64",
    "DELTA_FLI",
    "BLACK",
    "BYTE_RUN",
    "COPY",
    "PSTAMP",
    "PIXELS_PER_BYTE",
    "MIN_PIXEL_BUDGET",
]
