meta:
  id: frm
  title: Heroes of Might and Magic II monster animation (*FRM.BIN)
  application: Heroes of Might and Magic II (The Price of Loyalty)
  file-extension: bin
  license: MIT
  ks-version: "0.11"
  endian: le
doc: |
  Per-monster battle animation description stored in HEROES2.AGG as
  `<monster>FRM.BIN`, always 821 bytes: eye position, per-slot X offsets for
  the movement sequences, idle weights, speeds, projectile geometry, the
  troop-count box and 34 frame sequences of up to 16 frame ids each.
  Readings follow the engine remake (fheroes2) where it disagrees with the
  note: X offsets are signed, idle probabilities are relative weights, the
  count byte (not the 0xFF fill) gives a sequence's length, and 235/239 are
  the troop-count box offsets for the left- and right-facing sprite.
doc-ref:
  - Heroes of Might and Magic II community notes, "Bin file structure" (monster animation .bin files)
  - fheroes2 engine source, the monster animation reader (how the game uses each field)
seq:
  - id: unknown_magic
    type: u1
    doc: Byte 0; the note calls it a magic 0x01, the engine never checks it and a real mod file has 0x00.
  - id: eye_x
    type: s2
    doc: X position of the creature's eyes (note, bytes 1-2).
  - id: eye_y
    type: s2
    doc: Y position of the creature's eyes (note, bytes 3-4).
  - id: x_offsets
    -animre-table: x_offset_slots
    -animre-key: slot
    type: move_x_offsets(_index)
    size: 16
    repeat: expr
    repeat-expr: 7
    doc: Bytes 5-116, signed X offset per frame for movement slots 0-6 (all zero for fliers).
  - id: num_idles_raw
    type: u1
    doc: Byte 117, number of idle animations as stored; the engine clamps it to 5.
  - id: idle_weights
    -animre-spread: true
    type: f4
    repeat: expr
    repeat-expr: 5
    doc: Bytes 118-137, relative weights of idle 1-5 (only the first num_idles are used; not required to sum to 1).
  - id: idle_delays
    -animre-spread: true
    type: u4
    repeat: expr
    repeat-expr: 5
    doc: Bytes 138-157, per-idle delays in ms; read but unused by the engine.
  - id: idle_interval
    type: u4
    doc: Bytes 158-161, delay between idle animations in ms (used).
  - id: walk_speed
    type: u4
    doc: Bytes 162-165, walking animation time to move one hex, ms.
  - id: shoot_speed
    type: u4
    doc: Bytes 166-169, shooting animation time, ms.
  - id: fly_speed
    type: u4
    doc: Bytes 170-173, flying speed (pixels per second in the note; used by the engine).
  - id: projectile_offsets
    -animre-spread: true
    type: point16
    repeat: expr
    repeat-expr: 3
    doc: Bytes 174-185, projectile start offsets for shooting up, straight and down.
  - id: num_projectile_frames_raw
    type: u1
    doc: Byte 186, number of projectile sprites/angles as stored; the engine clamps it to 12.
  - id: projectile_angles
    -animre-spread: true
    type: f4
    repeat: expr
    repeat-expr: 12
    doc: Bytes 187-234, angles (degrees) at which each projectile sprite is used; only the first num_projectile_frames count.
  - id: troop_box_left
    type: s4
    doc: Bytes 235-238, troop-count box offset for the left-facing sprite (the note says "x").
  - id: troop_box_right
    type: s4
    doc: Bytes 239-242, troop-count box offset for the right-facing sprite (the note says "y").
  - id: num_frames_raw
    -animre-table: frame_counts
    -animre-key: slot
    type: u1
    repeat: expr
    repeat-expr: 34
    doc: Bytes 243-276, frame count per sequence slot as stored; the engine clamps it to 16.
  - id: sequences
    -animre-table: sequences
    -animre-key: slot
    type: frame_sequence(_index)
    size: 16
    repeat: expr
    repeat-expr: 34
    doc: Bytes 277-820, 16 frame ids per slot; 0xFF marks an unused position.
  - id: trailing
    size-eos: true
    valid:
      expr: _.size == 0
    doc: Nothing may follow byte 820; a longer file is not an FRM.BIN.
instances:
  num_idles:
    value: "num_idles_raw > 5 ? 5 : num_idles_raw"
    doc: Idle count as the engine uses it (clamped to 5).
  num_projectile_frames:
    value: "num_projectile_frames_raw > 12 ? 12 : num_projectile_frames_raw"
    doc: Projectile sprite count as the engine uses it (clamped to 12).
types:
  point16:
    seq:
      - id: x
        type: s2
        doc: X offset in pixels.
      - id: y
        type: s2
        doc: Y offset in pixels.
  move_x_offsets:
    params:
      - id: slot
        type: u1
        doc: Movement slot 0-6.
    seq:
      - id: offsets
        -animre-table: x_offsets
        -animre-key: position
        type: s1
        repeat: expr
        repeat-expr: 16
        doc: Signed X offset of each frame position in this movement slot.
    instances:
      animation:
        value: slot
        enum: slot
        doc: The movement animation this slot holds (its number, and its name in the name column).
  frame_sequence:
    params:
      - id: slot
        type: u1
        doc: Sequence slot 0-33.
    seq:
      - id: frame_ids
        -animre-table: frames
        -animre-key: position
        type: u1
        repeat: expr
        repeat-expr: 16
        doc: Frame ids; 0xFF = unused position.
    instances:
      animation:
        value: slot
        enum: slot
        doc: The animation this slot holds (the engine's order; the community note swaps top and bottom).
      num_frames_raw:
        value: _parent.num_frames_raw[slot]
        doc: The stored count byte for this slot.
      num_frames:
        value: "num_frames_raw > 16 ? 16 : num_frames_raw"
        doc: Sequence length as the engine uses it (count byte clamped to 16).
      ids_before_fill:
        pos: 0
        size: 16
        terminator: 0xff
        doc: The frame ids up to the first 0xFF (the fill-derived reading).
      len_by_fill:
        value: ids_before_fill.size
        doc: Sequence length derived from the 0xFF fill; may disagree with num_frames in real files.
enums:
  slot:
    0: move_start
    1: move_tile_start
    2: move_main
    3: move_tile_end
    4: move_stop
    5: move_one_tile
    6: unused
    7: static
    8: idle_1
    9: idle_2
    10: idle_3
    11: idle_4
    12: idle_5
    13: death
    14: wince_up
    15: wince_end
    16: attack_1_top
    17: attack_1_top_end
    18: attack_1_top_double
    19: attack_1_top_double_end
    20: attack_2_front
    21: attack_2_front_end
    22: attack_2_front_double
    23: attack_2_front_double_end
    24: attack_3_bottom
    25: attack_3_bottom_end
    26: attack_3_bottom_double
    27: attack_3_bottom_double_end
    28: shoot_top
    29: shoot_top_end
    30: shoot_front
    31: shoot_front_end
    32: shoot_bottom
    33: shoot_bottom_end

# The notes' claims that are expressions over one row (animre.claims runs them; animre.check runs yours).
-animre-claims:
  - text: "FRM byte 0 is 0x01 (magic value)."
    table: frm
    expr: "unknown_magic == 1"
    expected: "0x01"
    source: "Heroes of Might and Magic II community notes on the monster animation .bin files"
  - text: "Each animation section has at most 16 frames."
    table: frm_frame_counts
    expr: "num_frames_raw <= 16"
    expected: "<= 16"
    source: "Heroes of Might and Magic II community notes on the monster animation .bin files"
  - text: "Section 7 (slot 6) is not in use (always empty)."
    table: frm_frame_counts
    expr: "num_frames_raw == 0"
    where: "slot == 6"
    expected: "0"
    source: "Heroes of Might and Magic II community notes on the monster animation .bin files"
  - text: "The idle animation count is at most 5."
    table: frm
    expr: "num_idles_raw <= 5"
    expected: "<= 5"
    source: "fheroes2 engine source (monster animation reader)"
  - text: "The projectile sprite count is at most 12."
    table: frm
    expr: "num_projectile_frames_raw <= 12"
    expected: "<= 12"
    source: "fheroes2 engine source (monster animation reader)"
