meta:
  id: icn
  title: Heroes of Might and Magic II sprite sheet (*.ICN)
  application: Heroes of Might and Magic II (The Price of Loyalty)
  file-extension: icn
  license: MIT
  ks-version: "0.11"
  endian: le
doc: |
  A set of run-length encoded 8-bit sprites stored in HEROES2.AGG (monster
  battle animations, interface pieces, cursors). No magic: a u2 sprite count,
  a u4 size of everything after these 6 bytes (the file size minus 6), then
  13 bytes per sprite: s2 x offset, s2 y offset, u2 width, u2 height, a type
  byte and a u4 data offset counted from byte 6. A sprite's data runs to the
  next sprite's data offset; the last one runs to the end of the block.
  The pixel data is kept as raw bytes; animre.decode.icn decodes it (the
  run-length commands, transparency, shadow levels and monochrome sprites).
  A monster's *FRM.BIN frame ids are indices into the sprites of its ICN.

  Tables (animre.flatten): `icn` (one row per file) and `icn_sprites` (one
  row per sprite, key `sprite`).
doc-ref:
  - fheroes2 engine source, the ICN header reader, the ICN loader (data ranges) and the ICN sprite decoder
seq:
  - id: num_sprites
    type: u2
    valid:
      expr: _ * 13 <= _io.size - 6
    doc: Number of sprites; their 13-byte headers must fit in the file.
  - id: len_block
    type: u4
    valid:
      expr: _ <= _io.size - _io.pos
    doc: Size of the block after the 6-byte file header (headers + pixel data); the file size minus 6 in known files.
  - id: sprites
    -animre-table: sprites
    -animre-key: sprite
    type: sprite_header(_index)
    repeat: expr
    repeat-expr: num_sprites
    doc: Sprite headers, one per sprite.
instances:
  len_trailing:
    value: _io.size - 6 - len_block
    doc: Bytes after the block (0 in known files; the engine ignores them).
types:
  sprite_header:
    params:
      - id: index
        type: u2
        doc: Position of the sprite in the file (its frame id for FRM sequences).
    seq:
      - id: offset_x
        type: s2
        doc: X offset of the sprite's top-left corner from the drawing anchor.
      - id: offset_y
        type: s2
        doc: Y offset of the sprite's top-left corner from the drawing anchor (negative above it).
      - id: width
        type: u2
        doc: Width in pixels.
      - id: height
        type: u2
        doc: Height in pixels.
      - id: type_byte
        type: u1
        doc: |
          The engine's "animation frames" byte: bit 0x20 set = monochrome sprite
          (opaque pixels without colour bytes); for adventure-map animations the
          low 5 bits hold a frame count (modulo 32).
      - id: ofs_data
        type: u4
        doc: Offset of the sprite's pixel commands, counted from byte 6 (the end of the file header).
    instances:
      is_monochrome:
        value: (type_byte & 0x20) != 0
        doc: Bit 0x20 of type_byte; the engine decodes the sprite with the monochrome commands.
      ofs_data_end:
        value: "index + 1 < _parent.num_sprites ? _parent.sprites[index + 1].ofs_data : _parent.len_block"
        doc: Where the sprite's data ends (next sprite's data offset; the block size for the last sprite).
      len_data:
        value: ofs_data_end - ofs_data
        doc: Size of the sprite's pixel commands (negative when offsets are out of order).
      data:
        pos: 6 + ofs_data
        size: len_data
        -animre-skip: true
        doc: The sprite's run-length encoded pixel commands (decoded by animre.decode.icn).

# The notes' claims that are expressions over one row (animre.claims runs them; animre.check runs yours).
-animre-claims:
  - text: "Every sprite has at least one data byte (an empty sprite is a single 0x80)."
    table: icn_sprites
    expr: "len_data >= 1"
    expected: ""
    source: "fheroes2 engine source (ICN reader and sprite decoder)"
