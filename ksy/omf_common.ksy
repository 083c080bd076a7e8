meta:
  id: omf_common
  title: One Must Fall 2097 shared records (animation, sprite, strings)
  application: One Must Fall 2097
  license: MIT
  ks-version: "0.11"
  endian: le
doc: |
  Records shared by the fighter (`FIGHTR*.AF`) and arena (`*.BK`) files of
  One Must Fall 2097: the animation (start position, collision coordinates,
  animation strings, sprites), the sprite record with its pixel stream, the
  two string encodings and the 30-byte sound table. This spec reads nothing
  by itself; `af` and `bk` import its types.

  The types avoid `_root` and `_parent` so that they read the same wherever
  they are used. Counts are checked against the bytes left in the stream
  before anything is looped over.
doc-ref:
  - One Must Fall 2097 community format notes, HAR File Format (.AF) (Animation, Collision coordinate table, Animation String Header, Sprites)
  - openomf engine source (AF and BK file readers)
seq: []
types:
  animation:
    doc: |
      One animation: header, collision coordinates, animation string, extra
      strings and `num_sprites` sprite records.
    seq:
      - id: start_x
        type: s2
        doc: Initial X position of the sprite (unless spawned from another animation).
      - id: start_y
        type: s2
        doc: Initial Y position of the sprite (unless spawned from another animation).
      - id: unknown_4
        type: u4
        doc: Unknown; 0 in every known AF and BK file (the note suspects a null DWORD).
      - id: num_coords
        type: u2
        valid:
          expr: _ * 4 <= _io.size - _io.pos
        doc: Number of collision coordinates (u4 each) in the overlay table.
      - id: num_sprites
        type: u1
        valid:
          expr: _ * 12 <= _io.size - _io.pos
        doc: Number of sprites (frames) in this animation.
      - id: coords
        -animre-table: coords
        -animre-key: coord
        type: collision_coord
        size: 4
        repeat: expr
        repeat-expr: num_coords
        doc: Collision coordinate table, one little-endian u4 per point.
      - id: anim_string
        type: anim_string
        doc: The animation string (u2 length excluding the NUL that always follows).
      - id: num_extra_strings
        type: u1
        valid:
          expr: _ * 3 <= _io.size - _io.pos
        doc: Number of extra animation strings (engines allow at most 10).
      - id: extra_strings
        -animre-table: extra_strings
        -animre-key: string
        type: anim_string
        repeat: expr
        repeat-expr: num_extra_strings
        doc: Extra animation strings, same encoding as the animation string.
      - id: sprites
        -animre-table: sprites
        -animre-key: sprite
        type: sprite
        repeat: expr
        repeat-expr: num_sprites
        doc: The sprite records, one per frame.

  collision_coord:
    doc: |
      One collision point packed in a little-endian u4: bits 0-9 x, bits
      10-15 unused, bits 16-25 y, bits 26-31 frame index. x and y are read
      as 10-bit two's complement (-512..511), which the note does not say;
      the raw word is kept so other readings can be tested.
    seq:
      - id: raw
        type: u4
        doc: The packed coordinate word as stored.
    instances:
      x_raw:
        -animre-bytes: raw
        value: raw & 0x3ff
        doc: Bits 0-9, the X coordinate as an unsigned 10-bit value.
      unknown_bits_10_15:
        -animre-bytes: raw
        value: (raw >> 10) & 0x3f
        doc: Bits 10-15; the note says "NULL, always 0 ?".
      y_raw:
        -animre-bytes: raw
        value: (raw >> 16) & 0x3ff
        doc: Bits 16-25, the Y coordinate as an unsigned 10-bit value.
      frame:
        -animre-bytes: raw
        value: (raw >> 26) & 0x3f
        doc: Bits 26-31, the frame (sprite) index this point belongs to, 0-based.
      x:
        -animre-bytes: raw
        value: "x_raw >= 512 ? x_raw - 1024 : x_raw"
        doc: X coordinate read as 10-bit two's complement.
      y:
        -animre-bytes: raw
        value: "y_raw >= 512 ? y_raw - 1024 : y_raw"
        doc: Y coordinate read as 10-bit two's complement.

  anim_string:
    doc: |
      Animation or extra string: u2 length that EXCLUDES the terminating
      NUL; the NUL byte is always present, also for length 0.
    seq:
      - id: len_str
        type: u2
        doc: Number of text bytes, not counting the NUL that follows.
      - id: text
        type: str
        size: len_str
        encoding: ISO-8859-1
        doc: The animation string (tags such as `s1`, `bpd`, frame letters and durations).
      - id: terminator
        type: u1
        doc: The NUL after the text; expected 0 (kept to test that claim).

  footer_string:
    doc: |
      Move/animation footer string: u2 length that INCLUDES the terminating
      NUL; a length of 0 means no bytes at all.
    seq:
      - id: len_str
        type: u2
        doc: Number of bytes including the NUL; 0 = empty string with no bytes.
      - id: text
        type: str
        size: "len_str > 0 ? len_str - 1 : 0"
        encoding: ISO-8859-1
        doc: The string without its NUL (in AF files, the animation string for animation 9 of the other HAR on a hit).
      - id: terminator
        type: u1
        if: len_str > 0
        doc: The last counted byte, expected to be the NUL (kept to test that claim).

  sprite:
    doc: |
      Sprite record: 12-byte header, then `len_data` bytes of pixel stream
      only when `missing == 0`. A missing sprite reuses the pixels of an
      earlier sprite with the same index (resolved over all moves in file
      order; see animre.decode.omf_sprites).
    seq:
      - id: len_data
        type: u2
        doc: Length of the pixel stream in bytes.
      - id: x
        type: s2
        doc: X offset of the sprite relative to the animation position.
      - id: y
        type: s2
        doc: Y offset of the sprite relative to the animation position.
      - id: width
        type: u2
        doc: Sprite width in pixels.
      - id: height
        type: u2
        doc: Sprite height in pixels.
      - id: index
        type: u1
        doc: Sprite index; missing sprites refer to an earlier sprite with the same index.
      - id: missing
        type: u1
        doc: Non-zero = no pixel data here, reuse the earlier sprite with this index.
      - id: pixels
        size: "missing == 0 ? len_data : 0"
        doc: |
          Pixel stream (u2 words, op = w & 3, arg = w >> 2: 0 set x, 2 set y,
          1 copy arg raw bytes at (x, y) then x = 0, 3 end); decoded in Python
          by animre.decode.omf_sprites.
    instances:
      has_pixels:
        value: missing == 0 and len_data > 0
        doc: True when pixel data is stored in this record.

  sound_table:
    doc: |
      The 30-byte sound table at the end of AF and BK files: entry n is the
      SOUNDS.DAT sample (1-based) played by an `s<n>` tag. Entry 0 is unused
      (0 in all known files); in AF files the last five entries spell FGHED.
    seq:
      - id: sound_ids
        -animre-spread: true
        type: u1
        repeat: expr
        repeat-expr: 30
        doc: Sample id for each sound slot 0-29 (0 = none).
