meta:
  id: flc
  title: Autodesk FLI/FLC animation, with the Civilization III FlicAnim header
  application:
    - Autodesk Animator / Animator Pro
    - Sid Meier's Civilization III (unit animations)
  file-extension:
    - flc
    - fli
  license: MIT
  ks-version: "0.11"
  endian: le
  -animre-table: files
doc: |
  FLI (magic 0xAF11) and FLC (0xAF12) animations: a 128-byte header, an
  optional prefix chunk (0xF100), then frame chunks (0xF1FA) up to the end of
  the file, each holding sub-chunks (palettes, compressed pixels, a postage
  stamp). Civilization III unit animations are FLCs whose reserved header area
  at 0x58 holds the 28-byte FlicAnimHeader (directions, frames per direction,
  clipping box inside the 240 x 240 sprite); `is_flicanim` tells them from
  plain files.

  Everything is bounded by its container, because real files break the
  declared sizes: a frame may declare one more sub-chunk than it holds
  (sub-chunks are walked until the frame's bytes end), original Civ3 palette
  chunks declare the size 0xCDCDCDCD (the palette is then read by its packets
  from the frame's bytes; the declared size is kept in `len_chunk`), and the
  last chunk of a file may lack its final padding byte (hopper.fli declares
  one byte more than it has). A chunk that runs further past its container is
  an error. Compressed pixel data (BYTE_RUN, DELTA_FLC, DELTA_FLI, BLACK, COPY)
  is kept as raw bytes; animre.decode.flc decodes it.

  Tables (animre.flatten): `flc_files` (one row per file), `flc_frames`
  (one row per frame chunk, key `chunk_index` = the chunk's index among all
  top-level chunks, so a prefix chunk counts) and `flc_chunks` (one row per
  sub-chunk of a frame, keys `chunk_index` and `chunk`). Palette packets and
  the postage stamp's image are left out of the tables.
doc-ref:
  - Civilization III FlicAnim community notes (FlicAnimHeader, FLC header fields, palette and SS2 bugs)
  - FLIC format description by Jim Kent / Autodesk (Animator Pro file formats)
  - https://www.compuphase.com/flic.htm (FLIC file format)
seq:
  - id: header
    type: flic_header
    size: 128
    doc: The 128-byte FLI/FLC header (with the FlicAnimHeader in its reserved area at 0x58).
  - id: chunks
    type: chunk
    repeat: eos
    doc: Top-level chunks walked by their sizes to the end of the file (prefix, frames, others kept raw).
    -animre-table: frames
    -animre-key: chunk_index
    -animre-where: _.chunk_type == 0xf1fa
instances:
  is_flicanim:
    value: header.flicanim.len_header == 0x1c
    doc: True when the reserved area at 0x58 holds a FlicAnimHeader (its size field is 28).
  is_fli:
    value: header.magic == 0xaf11
    doc: True for the original FLI format (320 x 200, 6-bit palettes, speed in 1/70 s).
  duration_ms:
    value: "header.magic == 0xaf11 ? header.speed * 1000 / 70 : header.speed"
    doc: Frame delay in milliseconds (FLI speeds count 1/70 s jiffies, FLC speeds are ms).
  len_file_matches:
    value: header.len_file == _io.size
    doc: True when the header's declared file size is the size of the file.
  num_chunks:
    value: chunks.size
    doc: Number of top-level chunks (prefix, frames and any other).
  has_prefix:
    value: chunks.size > 0 and chunks.first.chunk_type == chunk_type::prefix
    doc: True when the first chunk is a prefix chunk (0xF100).
  is_truncated:
    value: chunks.size > 0 and chunks.last.is_truncated
    doc: True when the last chunk declares more bytes than the file has (by one byte at most).
types:
  flic_header:
    seq:
      - id: len_file
        type: u4
        doc: Declared size of the whole file in bytes (hopper.fli declares one byte more than it has).
      - id: magic
        type: u2
        valid:
          any-of: [0xaf11, 0xaf12]
        doc: 0xAF11 = FLI, 0xAF12 = FLC.
      - id: num_frames
        type: u2
        doc: Number of image frames, not counting ring frames (Civ3 - num_anims x anim_length).
      - id: width
        type: u2
        doc: Frame width in pixels (Civ3 - width of the clipped box).
      - id: height
        type: u2
        doc: Frame height in pixels (Civ3 - height of the clipped box).
      - id: depth
        type: u2
        doc: Bits per pixel, 8.
      - id: flags
        type: u2
        doc: FLC flags (3 = written properly by Animator Pro; 0 in Civ3 files and FLIs).
      - id: speed
        type: u4
        doc: Delay between frames (FLC - milliseconds; FLI - u2 in 1/70 s plus a zero word); the community notes say Civ3 uses 4, real files use 44-125.
      - id: reserved_14
        type: u2
        doc: Reserved, zero.
      - id: created
        type: u4
        doc: Creation time (MS-DOS date/time) or zero.
      - id: creator
        type: u4
        doc: Serial number of the creating program (Civ3 FlicAnim tool - 0xF1F1F2F2, FLIB - 0x464C4942).
      - id: updated
        type: u4
        doc: Time of the last update (MS-DOS date/time) or zero.
      - id: updater
        type: u4
        doc: Serial number of the updating program or zero.
      - id: aspect_x
        type: u2
        doc: Pixel aspect ratio, x part (0 = unknown).
      - id: aspect_y
        type: u2
        doc: Pixel aspect ratio, y part (0 = unknown).
      - id: reserved_2a
        size: 38
        doc: Reserved up to 0x50 (zero in all known files; kept raw).
      - id: ofs_frame1
        type: u4
        doc: File offset of the first frame chunk (FLC only; 0 in FLIs).
      - id: ofs_frame2
        type: u4
        doc: File offset of the second frame chunk, where a loop restarts (0 when not set).
      - id: flicanim
        type: flicanim_header
        doc: Bytes 0x58-0x73 read as the Civ3 FlicAnimHeader; all zero in plain files (see is_flicanim).
      - id: reserved_74
        size: 12
        doc: Rest of the reserved area up to 0x80 (zero in Civ3 files; kept raw).
  flicanim_header:
    doc: Civ3's FlicAnimHeader, 28 bytes at header offset 0x58 (community notes).
    seq:
      - id: len_header
        type: u4
        doc: Size of the FlicAnimHeader, 28 (0x1C) in Civ3 files; 0 in plain files.
      - id: flags
        type: s4
        doc: Used internally by the FlicAnim tool; the note says it is 0.
      - id: num_anims
        type: u2
        doc: Number of directions stored (0 = a plain FLC such as a leader head).
      - id: anim_length
        type: u2
        doc: Frames per direction (every direction has the same number).
      - id: x_offset
        type: u2
        doc: Left edge of the clipped box inside the xs_orig x ys_orig sprite.
      - id: y_offset
        type: u2
        doc: Top edge of the clipped box inside the sprite.
      - id: xs_orig
        type: u2
        doc: Width of the unclipped sprite (240 for Civ3 units).
      - id: ys_orig
        type: u2
        doc: Height of the unclipped sprite (240 for Civ3 units).
      - id: anim_time
        type: u4
        doc: Duration of one direction in ms (note - anim_length * 1000 / fps; real files - anim_length * speed).
      - id: directions
        type: s4
        doc: Bit set of the directions present, bit 0 SW, 1 S, 2 SE, 3 E, 4 NE, 5 N, 6 NW, 7 W (0xFF = all eight).
  chunk:
    doc: A top-level chunk - u4 size (including this 6-byte header), u2 type, body.
    seq:
      - id: len_chunk
        type: u4
        valid:
          expr: _ >= 6 and _ - 6 <= _io.size - _io.pos - 2 + 1
        doc: Declared chunk size including the 6-byte header; may exceed the file by one byte (a missing final pad byte), no more.
      - id: chunk_type
        type: u2
        enum: chunk_type
        doc: 0xF1FA frame, 0xF100 prefix; other types are kept raw.
      - id: body
        size: len_body
        type:
          switch-on: chunk_type
          cases:
            chunk_type::frame: frame_body
        doc: The chunk's bytes after its header (raw for every type but frames).
    instances:
      len_body:
        value: "len_chunk - 6 > _io.size - _io.pos ? _io.size - _io.pos : len_chunk - 6"
        doc: Bytes of the body actually present (the declared size, or up to the end of the file).
      is_truncated:
        value: len_chunk - 6 > len_body
        doc: True when the declared size runs past the end of the file (by one byte at most).
  frame_body:
    doc: Body of a frame chunk (0xF1FA) - a 10-byte frame header, then sub-chunks up to the frame's end.
    seq:
      - id: num_chunks
        type: u2
        doc: Declared number of sub-chunks; original Civ3 files may declare one more than the frame holds.
      - id: delay
        type: u2
        doc: Per-frame delay override in ms (0 = use the header speed; 1 in every real Civ3 frame).
      - id: reserved_4
        type: u2
        doc: Reserved, zero.
      - id: width
        type: u2
        doc: Per-frame width override (0 = header width).
      - id: height
        type: u2
        doc: Per-frame height override (0 = header height).
      - id: chunks
        type: sub_chunk(_io.pos)
        repeat: eos
        doc: The sub-chunks, walked by their sizes until the frame's bytes end (not by num_chunks).
        -animre-table: chunks
        -animre-key: chunk
    instances:
      num_chunks_found:
        value: chunks.size
        doc: Number of sub-chunks actually present in the frame.
  sub_chunk:
    doc: |
      A sub-chunk of a frame - u4 size (including its 6-byte header), u2 type,
      body. The body must fit in the rest of the frame (a larger size fails
      on `body` with the number of bytes requested and available), except for
      palette chunks whose size is impossible (original Civ3 files write
      0xCDCDCDCD there): those are read by their packets instead.
    params:
      - id: ofs_chunk
        type: u4
        doc: Offset of this sub-chunk inside its frame's body.
    seq:
      - id: len_chunk
        type: u4
        doc: Declared size including the 6-byte header (0xCDCDCDCD in original Civ3 palette chunks).
      - id: chunk_type
        type: u2
        enum: sub_chunk_type
        doc: Sub-chunk type.
      - id: body
        size: len_chunk - 6
        if: has_valid_size or not is_palette
        type:
          switch-on: chunk_type
          cases:
            sub_chunk_type::color_256: palette_body(true)
            sub_chunk_type::color_64: palette_body(true)
            sub_chunk_type::pstamp: pstamp_body
        doc: The body by the declared size (bounded by the frame); palettes and PSTAMP typed, pixel data kept raw.
      - id: palette_unsized
        type: palette_body(false)
        if: not has_valid_size and is_palette
        doc: A palette whose declared size is impossible, read by its packets from the frame's bytes.
    instances:
      has_valid_size:
        value: len_chunk >= 6 and len_chunk <= _io.size - ofs_chunk
        doc: True when the declared size fits in what is left of the frame.
      is_palette:
        value: chunk_type == sub_chunk_type::color_256 or chunk_type == sub_chunk_type::color_64
        doc: True for COLOR_256 and COLOR_64 chunks.
  palette_body:
    doc: COLOR_256 (8-bit components) or COLOR_64 (6-bit components) - packets of skip, count, colours.
    params:
      - id: is_sized
        type: bool
        doc: True when read inside the declared size; false for a palette read by its packets.
    seq:
      - id: num_packets
        type: u2
        valid:
          expr: _ * 2 <= _io.size - _io.pos
        doc: Number of packets (each at least 2 bytes).
      - id: packets
        type: palette_packet
        repeat: expr
        repeat-expr: num_packets
        doc: Packets, each skipping some palette entries then setting some.
        -animre-skip: true
      - id: padding
        size: "is_sized ? _io.size - _io.pos : (_io.size - _io.pos < 6 ? _io.size - _io.pos : 0)"
        doc: Bytes after the packets inside the chunk (or, for an unsized palette, fewer than 6 bytes left in the frame).
  palette_packet:
    seq:
      - id: num_skip
        type: u1
        doc: Palette entries to skip before this packet's colours.
      - id: num_colors_raw
        type: u1
        doc: Number of colours that follow; 0 means 256.
      - id: colors
        type: rgb
        repeat: expr
        repeat-expr: num_colors
        doc: The colours, in palette order from the current index.
    instances:
      num_colors:
        value: "num_colors_raw == 0 ? 256 : num_colors_raw"
        doc: Number of colours in this packet.
  rgb:
    seq:
      - id: r
        type: u1
        doc: Red (0-255 in COLOR_256, 0-63 in COLOR_64).
      - id: g
        type: u1
        doc: Green.
      - id: b
        type: u1
        doc: Blue.
  pstamp_body:
    doc: PSTAMP (18) postage stamp - a small preview image of the first frame.
    seq:
      - id: height
        type: u2
        doc: Height of the postage stamp in pixels.
      - id: width
        type: u2
        doc: Width of the postage stamp in pixels.
      - id: color_translation
        type: u2
        doc: Colour translation type (1 = six-cube).
      - id: data
        size-eos: true
        doc: The stamp's image as an embedded sub-chunk (e.g. BYTE_RUN), kept raw.
        -animre-skip: true
enums:
  chunk_type:
    0xf100: prefix
    0xf1fa: frame
  sub_chunk_type:
    4: color_256
    7: delta_flc
    11: color_64
    12: delta_fli
    13: black
    15: byte_run
    16: copy
    18: pstamp
