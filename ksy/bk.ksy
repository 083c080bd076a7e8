meta:
  id: bk
  title: One Must Fall 2097 arena / scene file
  application: One Must Fall 2097
  file-extension: bk
  license: MIT
  ks-version: "0.11"
  endian: le
  imports:
    - omf_common
  -animre-table: files
doc: |
  `*.BK` files hold an arena or menu scene: a 9-byte header, animation
  records (each starting with the absolute offset of the next record)
  until an animation number >= 50 (writers use 51), the width x height
  background bitmap, palettes (256 six-bit RGB colours plus 19 remap tables
  each) and the 30-byte sound table. Animations and sprites are the records
  shared with the fighter files (omf_common).
doc-ref:
  - One Must Fall 2097 community format notes, HAR File Format (.AF) (Animation, Sprites, sound table "0 in all known AF/BK files")
  - openomf engine source (BK file reader, sd_bk_anim_load)
seq:
  - id: file_id
    type: u4
    doc: File id (0 in files written by openomf).
  - id: unknown_4
    type: u1
    doc: Unknown header byte (openomf calls it unknown_a).
  - id: width
    type: u2
    valid:
      min: 1
    doc: Background width in pixels (320 in known files).
  - id: height
    type: u2
    valid:
      expr: _ >= 1 and width * _ <= _io.size - _io.pos
    doc: Background height in pixels (200 in known files); width x height must fit in the file.
  - id: animations
    -animre-table: animations
    -animre-key: animation
    -animre-where: _.anim_number < 50
    type: anim_record
    repeat: until
    repeat-until: _.anim_number >= 50
    doc: Animation records; the last is the terminator (animation number >= 50, 51 when written by openomf).
  - id: background
    size: width * height
    doc: Background bitmap, one palette index per pixel, row by row.
  - id: num_palettes
    type: u1
    valid:
      expr: _ * 5632 <= _io.size - _io.pos
    doc: Number of palettes that follow (5632 bytes each).
  - id: palettes
    -animre-table: palettes
    -animre-key: palette
    type: palette
    repeat: expr
    repeat-expr: num_palettes
    doc: Palettes with their remap tables.
  - id: sound_table
    -animre-inline: true
    type: omf_common::sound_table
    doc: 30-byte sound table (entry n = SOUNDS.DAT sample for tag s<n>).
  - id: trailing
    size-eos: true
    doc: Bytes after the sound table; empty in known files.
instances:
  num_animations:
    value: animations.size - 1
    doc: Number of animations (without the terminator record).
  terminator:
    value: animations.last.anim_number
    doc: Animation number of the terminator record (>= 50; 51 when written by openomf).
  terminator_ofs_next:
    value: animations.last.ofs_next
    doc: The terminator record's next-record offset (0 when written by openomf).
types:
  anim_record:
    doc: One animation record or the terminator.
    seq:
      - id: ofs_next
        type: u4
        valid:
          expr: _ <= _io.size
        doc: Absolute offset of the next record (0 in the terminator written by openomf).
      - id: anim_number
        type: u1
        -animre-id: true
        doc: Animation number, < 50; >= 50 ends the list.
      - id: header
        -animre-inline: true
        type: bk_anim_header
        if: anim_number < 50
        doc: Arena-specific animation properties and footer string.
      - id: animation
        type: omf_common::animation
        if: anim_number < 50
        doc: The animation (shared record).
  bk_anim_header:
    doc: Arena-specific header of an animation record (openomf sd_bk_anim_load).
    seq:
      - id: unknown_0
        type: u1
        doc: Unknown byte (openomf calls it null).
      - id: chain_if_hit
        type: u1
        doc: Animation to chain to if this one hit.
      - id: chain_if_no_hit
        type: u1
        doc: Animation to chain to if it did not hit.
      - id: repeat
        type: u1
        doc: Repeat / load-on-start flag.
      - id: probability
        type: u2
        doc: Probability of the animation being played.
      - id: hazard_damage
        type: u1
        doc: Damage dealt by an arena hazard.
      - id: footer_string
        type: omf_common::footer_string
        doc: Footer string (u2 length including the NUL).
  palette:
    doc: One palette (256 colours, 6 bits per channel) and its 19 remap tables.
    seq:
      - id: colors
        size: 768
        doc: 256 x (r, g, b), each 0-63 (6-bit VGA DAC values).
      - id: remaps
        size: 256
        repeat: expr
        repeat-expr: 19
        doc: 19 colour remap tables of 256 palette indices each.

# The notes' claims that are expressions over one row (animre.claims runs them; animre.check runs yours).
-animre-claims:
  - text: "Animation unknown u4 (+4) is always 0 (BK)"
    table: bk_animations
    expr: "animation.unknown_4 == 0"
    expected: "0"
    source: "One Must Fall 2097 community format notes (HAR file format, OpenOMF wiki)"
  - text: "Sound table entry 0 is 0 in all known BK files"
    table: bk_files
    expr: "sound_ids[0] == 0"
    expected: "0"
    source: "One Must Fall 2097 community format notes (HAR file format, OpenOMF wiki)"
  - text: "Animation string NUL is always present (BK)"
    table: bk_animations
    expr: "animation.anim_string.terminator == 0"
    expected: "0"
    source: "openomf engine source (AF and BK file readers)"
