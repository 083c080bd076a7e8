meta:
  id: mot
  title: Naruto Gekitou Ninja Taisen 4 motion file (MOT holding GNTA animations)
  application: Naruto Gekitou Ninja Taisen 4 / Clash of Ninja (GameCube)
  file-extension: mot
  license: MIT
  ks-version: "0.11"
  endian: be
doc: |
  A character's motion file (`files/chr/<chr>/0000.mot`, `0001.mot`, ...):
  a 16-byte MOT header, one absolute u4 offset per animation id (0 = the id
  has no animation), then the animations themselves ("GNTA", an unofficial
  name), 16-byte aligned and stored in descending id order. A GNTA is a
  16-byte header followed by one 0x20-byte header per bone track; each track
  points (relative to the GNTA start) at its key times (f4, frame / 60) and
  its key coordinates (four components x, y, z, w per key, 16-bit or f32).
  A 16-bit component is the upper half of an IEEE f32 (value = bits << 16,
  0x4048 -> 3.125); it is kept raw (u2) here and decoded in Python
  (animre.decode.gnt4.half_to_float). The 16-byte alignment padding after the
  offset table and after every key array is kept as bytes: in real files it is
  non-zero junk. Every count and offset is checked against the file size
  before anything is looped over or allocated.
doc-ref:
  - seeds/002_964d7e002e7b5b15.txt (MOT Files, GNTA Files, MOT Header, GNTA Header, Bone Animation Header)
  - formats/NOTES.md section 3
seq:
  - id: unknown_0
    type: u4
    doc: Zero in files. The note reads it as three u2 paddings, the middle one set to 1 at run time by LoadObj_readMOTHeader.
  - id: num_anim_ids
    type: u4
    valid:
      expr: _ * 4 <= _io.size - 16
    doc: Number of animation ids = number of offset slots that follow the header (may exceed the animations present).
  - id: len_header
    type: u4
    valid: 0x10
    doc: Size of the MOT header, always 0x10.
  - id: len_file
    type: u4
    doc: MOT file size as stored (NOTES.md says it equals the real length; checked as a claim, not enforced).
  - id: anims
    type: anim_slot(_index)
    repeat: expr
    repeat-expr: num_anim_ids
    doc: One slot per animation id; a slot holds the absolute offset of that id's GNTA (0 = absent).
instances:
  ofs_offsets_end:
    value: 16 + num_anim_ids * 4
    doc: End of the offset table (absolute).
  len_pad_offsets:
    value: "(16 - ofs_offsets_end % 16) % 16 <= _io.size - ofs_offsets_end ? (16 - ofs_offsets_end % 16) % 16 : _io.size - ofs_offsets_end"
    doc: Bytes from the end of the offset table to the next 16-byte boundary (clamped to the file).
  pad_offsets:
    pos: ofs_offsets_end
    size: len_pad_offsets
    doc: Alignment padding after the offset table (junk bytes in real files).
types:
  anim_slot:
    params:
      - id: anim_id
        type: u4
        doc: Animation id = index of this slot in the offset table.
    seq:
      - id: ofs_gnta
        type: u4
        valid:
          expr: _ == 0 or (_ >= _root.ofs_offsets_end and _ <= _io.size - 16)
        doc: Absolute offset of this id's GNTA animation (after the offset table); 0 = no animation for the id.
    instances:
      gnta:
        pos: ofs_gnta
        type: gnta(ofs_gnta)
        if: ofs_gnta != 0
        doc: The animation (present only when ofs_gnta is not 0).
  gnta:
    params:
      - id: ofs_base
        type: u4
        doc: Absolute offset of this GNTA; every offset inside it is relative to it.
    seq:
      - id: num_tracks
        type: u4
        valid:
          expr: _ * 0x20 <= _io.size - _io.pos
        doc: Number of bone tracks (the note reads u2 padding + u2 count).
      - id: len_header
        type: u4
        doc: GNTA header size, always 0x10 per the notes (track headers follow the 16-byte header regardless).
      - id: play_speed
        type: f4
        doc: Play speed; "lower is bouncier", usually between .03 and .25.
      - id: end_time
        type: f4
        doc: End time in seconds (frames / 60), usually between .03 and 5.0.
      - id: tracks
        type: track(_index)
        repeat: expr
        repeat-expr: num_tracks
        doc: One 0x20-byte header per bone track.
  track:
    params:
      - id: track_index
        type: u4
        doc: Index of the track inside its GNTA.
    seq:
      - id: flags
        type: u2
        doc: 0x0200 = coordinates present; low byte = size of one coordinate component (2 = upper half of an f32, 4 = f32). 0x0202 or 0x0000 per the note.
      - id: track_flags
        type: u2
        doc: Track kind bits (TRANSLATE 0x01, SCALE 0x02, ROTATE 0x08, ENABLED 0x20, DISABLED 0x40); 0x21 / 0x28 are most common.
      - id: bone_id
        type: u2
        doc: Bone the track animates (same ids as the jcv/seq files; 0xFFFF root?).
      - id: num_keys
        type: u2
        valid:
          expr: _ * 4 <= _io.size - _parent.ofs_base
        doc: Number of key frames.
      - id: total_time
        type: f4
        doc: Total time of the track in seconds (frames / 60).
      - id: unknown_0c
        type: u4
        doc: Zero per the note (padding); kept raw in case it is not.
      - id: ofs_times
        type: u4
        valid:
          expr: _parent.ofs_base + _ + num_keys * 4 <= _io.size
        doc: Offset of the key times, relative to the GNTA start.
      - id: ofs_coords
        type: u4
        valid:
          expr: _ == 0 or _parent.ofs_base + _ + num_keys * 4 * (flags & 0xff) <= _io.size
        doc: Offset of the key coordinates, relative to the GNTA start; 0 = no coordinates.
      - id: unknown_18
        type: u4
        doc: Zero per the notes (padding); suspected to carry a value in some files.
      - id: unknown_1c
        type: u4
        doc: Zero per NOTES.md (the seed's table stops at 0x18); meaning unknown.
    instances:
      has_coords_flag:
        value: (flags & 0x0200) != 0
        doc: Flag bit 0x0200, coordinates present.
      len_component:
        value: flags & 0xff
        doc: Size of one coordinate component in bytes (2 = raw upper half of an f32, 4 = f32).
      has_coords:
        value: ofs_coords != 0 and (len_component == 2 or len_component == 4)
        doc: The coordinates are read (non-zero offset and a known component size).
      is_translate:
        value: (track_flags & 0x01) != 0
        doc: TRANSLATE bit.
      is_scale:
        value: (track_flags & 0x02) != 0
        doc: SCALE bit.
      is_rotate:
        value: (track_flags & 0x08) != 0
        doc: ROTATE bit (xyz = direction, w = twist in degrees).
      is_enabled:
        value: (track_flags & 0x20) != 0
        doc: ENABLED bit.
      is_disabled:
        value: (track_flags & 0x40) != 0
        doc: DISABLED bit.
      kind:
        value: track_flags & 0x0f
        enum: track_flag
        doc: The track's kind (translate, scale or rotate) from the low bits of track_flags.
      bone:
        value: bone_id
        enum: bone
        doc: Bone name where the note knows it.
      times:
        pos: _parent.ofs_base + ofs_times
        type: f4
        repeat: expr
        repeat-expr: num_keys
        doc: Key times in seconds (frame / 60).
      ofs_times_end:
        value: ofs_times + num_keys * 4
        doc: End of the key times, relative to the GNTA start.
      len_pad_times:
        value: "(16 - ofs_times_end % 16) % 16 <= _io.size - _parent.ofs_base - ofs_times_end ? (16 - ofs_times_end % 16) % 16 : _io.size - _parent.ofs_base - ofs_times_end"
        doc: Bytes from the end of the key times to the next 16-byte boundary (clamped to the file).
      pad_times:
        pos: _parent.ofs_base + ofs_times_end
        size: len_pad_times
        doc: Alignment padding after the key times (junk bytes in real files).
      coords:
        pos: _parent.ofs_base + ofs_coords
        type:
          switch-on: len_component
          cases:
            2: coord_u2
            4: coord_f4
        repeat: expr
        repeat-expr: num_keys
        if: has_coords
        doc: Key coordinates, one x, y, z, w set per key.
      ofs_coords_end:
        value: "ofs_coords + num_keys * 4 * len_component"
        doc: End of the key coordinates, relative to the GNTA start.
      len_pad_coords:
        value: "(16 - ofs_coords_end % 16) % 16 <= _io.size - _parent.ofs_base - ofs_coords_end ? (16 - ofs_coords_end % 16) % 16 : _io.size - _parent.ofs_base - ofs_coords_end"
        doc: Bytes from the end of the coordinates to the next 16-byte boundary (clamped to the file).
      pad_coords:
        pos: _parent.ofs_base + ofs_coords_end
        size: len_pad_coords
        if: has_coords
        doc: Alignment padding after the coordinates (junk bytes in real files).
  coord_u2:
    seq:
      - id: x
        type: u2
        doc: X as the upper 16 bits of an f32 (decode with bits << 16).
      - id: y
        type: u2
        doc: Y as the upper 16 bits of an f32.
      - id: z
        type: u2
        doc: Z as the upper 16 bits of an f32.
      - id: w
        type: u2
        doc: W as the upper 16 bits of an f32 (twist in degrees for ROTATE tracks).
  coord_f4:
    seq:
      - id: x
        type: f4
        doc: X.
      - id: y
        type: f4
        doc: Y.
      - id: z
        type: f4
        doc: Z.
      - id: w
        type: f4
        doc: W (twist in degrees for ROTATE tracks).
enums:
  track_flag:
    0x01: translate
    0x02: scale
    0x08: rotate
    0x20: enabled
    0x40: disabled
  bone:
    0xffff: root
    0x00: y
    0x01: x
    0x02: z
    0x03: hip
    0x04: waist
    0x05: breast
    0x06: head
    0x07: right_collar
    0x08: right_high_arm
    0x09: right_lower_arm
    0x0a: right_hand
    0x0b: left_collar
    0x0c: left_high_arm
    0x0d: left_lower_arm
    0x0e: left_hand
    0x0f: right_high_leg
    0x10: right_lower_leg
    0x11: right_foot
    0x12: left_high_leg
    0x13: left_lower_leg
    0x14: left_foot
    0x15: neck
    0x1e: right_high_arm_ex
    0x1f: right_high_arm_ex_eff
    0x23: left_high_arm_ex
    0x24: left_high_arm_ex_eff
    0x28: right_high_leg_ex
    0x29: right_high_leg_ex_eff
    0x2d: right_toe
    0x2e: left_high_leg_ex
    0x2f: left_high_leg_ex_eff
    0x33: left_toe
    0x3c: right_thumb_1
    0x3d: right_thumb_2
    0x3e: right_thumb_3
    0x3f: right_index_finger_1
    0x40: right_index_finger_2
    0x41: right_index_finger_3
    0x42: right_middle_finger_1
    0x43: right_middle_finger_2
    0x44: right_middle_finger_3
    0x45: right_ring_finger_1
    0x46: right_ring_finger_2
    0x47: right_ring_finger_3
    0x48: right_pinky_1
    0x49: right_pinky_2
    0x4a: right_pinky_3
    0x4b: left_thumb_1
    0x4c: left_thumb_2
    0x4d: left_thumb_3
    0x4e: left_index_finger_1
    0x4f: left_index_finger_2
    0x50: left_index_finger_3
    0x51: left_middle_finger_1
    0x52: left_middle_finger_2
    0x53: left_middle_finger_3
    0x54: left_ring_finger_1
    0x55: left_ring_finger_2
    0x56: left_ring_finger_3
    0x57: left_pinky_1
    0x58: left_pinky_2
    0x59: left_pinky_3
    0x5c: mouth_top_lip
    0x5d: jaw
    0x5e: mouth_right_side
    0x5f: mouth_left_side
    0x66: mouth_bottom_lip
    0x6e: pelvic_bone
    0x6f: hair_base
    0x70: hair_right_1
    0x71: hair_right_2
    0x72: hair_right_3
    0x74: hair_left_1
    0x75: hair_left_2
    0x76: hair_left_3
    0x77: upper_breast
    0x78: lower_breast
