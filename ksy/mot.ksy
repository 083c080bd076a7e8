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
  0x4048 -> 3.125): it is read raw (x_raw ... w_raw, u2) and its float value
  (x ... w) is computed here from sign, exponent and mantissa bits; the same
  decoding in numpy is animre.decode.mot.half_to_float. Tables: mot (one row
  per file), mot_animations (present ids only, key anim_id), mot_tracks (key
  track) and mot_keys (key key: time and x, y, z, w per key frame). The
  16-byte alignment padding after the offset table and after every key array
  is kept as bytes: in real files it is non-zero junk. Every count and offset
  is checked against the file size before anything is looped over or
  allocated.
doc-ref:
  - GNT4 community motion-format notes by Sifo and Icylittlething (MOT Header, GNTA Header, Bone Animation Header)
  - animre format notes on GNT4 MOT/GNTA (16-bit components, descending storage order, junk padding)
seq:
  - id: unknown_0
    type: u4
    doc: Zero in files. The community notes read it as three u2 paddings, the middle one set to 1 at run time by LoadObj_readMOTHeader.
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
    doc: MOT file size as stored (the notes say it equals the real length; checked as a claim, not enforced).
  - id: anims
    -animre-table: animations
    -animre-key: anim_id
    -animre-where: ofs_gnta != 0
    type: anim_slot(_index)
    repeat: expr
    repeat-expr: num_anim_ids
    doc: One slot per animation id; a slot holds the absolute offset of that id's GNTA (0 = absent). Table mot_animations holds the present ones, keyed by anim_id (the slot index).
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
        -animre-inline: true
        pos: ofs_gnta
        type: gnta(ofs_gnta)
        if: ofs_gnta != 0
        doc: The animation (present only when ofs_gnta is not 0); its header fields are columns of mot_animations.
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
        doc: Number of bone tracks (the community notes read u2 padding + u2 count).
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
        -animre-table: tracks
        -animre-key: track
        type: track(_index)
        repeat: expr
        repeat-expr: num_tracks
        doc: One 0x20-byte header per bone track (table mot_tracks, keyed by track).
  track:
    params:
      - id: track_index
        type: u4
        doc: Index of the track inside its GNTA.
    seq:
      - id: flags
        type: u2
        doc: 0x0200 = coordinates present; low byte = size of one coordinate component (2 = upper half of an f32, 4 = f32). 0x0202 or 0x0000 per the community notes.
      - id: track_flags
        type: u2
        doc: Track kind bits (TRANSLATE 0x01, SCALE 0x02, ROTATE 0x08, ENABLED 0x20, DISABLED 0x40); 0x21 / 0x28 are most common.
      - id: bone_id
        type: u2
        enum: bone
        doc: Bone the track animates (same ids as the jcv/seq files; 0xFFFF root?); bone_id_name where the notes know the bone.
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
        doc: Zero per the community notes (padding); kept raw in case it is not.
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
        doc: Zero per the community notes (padding); suspected to carry a value in some files.
      - id: unknown_1c
        type: u4
        doc: Zero per the animre format notes (the community notes' table stops at 0x18); meaning unknown.
    instances:
      ofs_header:
        value: _parent.ofs_base + 0x10 + track_index * 0x20
        doc: Absolute offset of this track header (the GNTA's 16-byte header, then 0x20 bytes per track).
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
      keys:
        -animre-table: keys
        -animre-key: key
        pos: _parent.ofs_base + ofs_times
        type: key(_index)
        repeat: expr
        repeat-expr: num_keys
        doc: The key frames (table mot_keys, keyed by key); each key's time is read here, its coordinates through ofs_coords.
      last_key_time:
        value: keys.last.time
        if: num_keys > 0
        doc: Time of the last key (seconds); the notes' total time should equal it.
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
  key:
    params:
      - id: key_index
        type: u4
        doc: Index of the key inside its track.
    seq:
      - id: time
        type: f4
        doc: Key time in seconds (frame / 60), from the track's key times (ofs_times).
    instances:
      ofs_coord:
        -animre-skip: true
        value: _parent._parent.ofs_base + _parent.ofs_coords + key_index * 4 * _parent.len_component
        doc: Absolute offset of this key's coordinates.
      coord:
        -animre-inline: true
        pos: ofs_coord
        type: coord(_parent.len_component, ofs_coord)
        if: _parent.has_coords
        doc: The key's coordinates (x, y, z, w), from the track's key coordinates (ofs_coords); absent when the track has none.
  coord:
    doc: |
      One key's four components, 16-bit or f32. The stored bytes are read once
      as u2 or f4 (x_stored ..., not a table column); x_raw ... re-read the
      16-bit halves so that they are null (and have no bytes) for f32 tracks;
      x ... are floats. The half decoding uses sign, exponent and mantissa
      (value = (128 + mantissa) * 2^(exponent - 134)) with integer shifts up to
      1 << 134: exact in Python, not portable to targets with 64-bit integers.
    params:
      - id: len_component
        type: u1
        doc: Size of one component, 2 (upper half of an f32) or 4 (f32).
      - id: ofs_coord
        type: u4
        doc: Absolute offset of these coordinates (where the raw halves are read).
    seq:
      - id: x_stored
        -animre-skip: true
        type:
          switch-on: len_component
          cases:
            2: u2
            4: f4
        doc: X as stored; the tables show it as x (float) and x_raw (the 16-bit half).
      - id: y_stored
        -animre-skip: true
        type:
          switch-on: len_component
          cases:
            2: u2
            4: f4
        doc: Y as stored; the tables show it as y (float) and y_raw (the 16-bit half).
      - id: z_stored
        -animre-skip: true
        type:
          switch-on: len_component
          cases:
            2: u2
            4: f4
        doc: Z as stored; the tables show it as z (float) and z_raw (the 16-bit half).
      - id: w_stored
        -animre-skip: true
        type:
          switch-on: len_component
          cases:
            2: u2
            4: f4
        doc: W (twist in degrees for ROTATE tracks) as stored; the tables show it as w (float) and w_raw (the 16-bit half).
    instances:
      x:
        value: "len_component == 2 ? (x_raw >> 15 == 1 ? -1.0 : 1.0) * (((x_raw >> 7) & 0xff) == 255 ? ((x_raw & 0x7f) == 0 ? 1.0e300 * 1.0e300 : 1.0e300 * 1.0e300 - 1.0e300 * 1.0e300) : ((x_raw >> 7) & 0xff) == 0 ? (x_raw & 0x7f) * 1.0 / (1 << 133) : ((x_raw >> 7) & 0xff) >= 134 ? ((128 + (x_raw & 0x7f)) << (((x_raw >> 7) & 0xff) - 134)) * 1.0 : (128 + (x_raw & 0x7f)) * 1.0 / (1 << (134 - ((x_raw >> 7) & 0xff)))) : x_stored.as<f4>"
        -animre-bytes: x_stored
        doc: X as a float; a 16-bit component is decoded as the f32 whose upper half it is (bits << 16).
      y:
        value: "len_component == 2 ? (y_raw >> 15 == 1 ? -1.0 : 1.0) * (((y_raw >> 7) & 0xff) == 255 ? ((y_raw & 0x7f) == 0 ? 1.0e300 * 1.0e300 : 1.0e300 * 1.0e300 - 1.0e300 * 1.0e300) : ((y_raw >> 7) & 0xff) == 0 ? (y_raw & 0x7f) * 1.0 / (1 << 133) : ((y_raw >> 7) & 0xff) >= 134 ? ((128 + (y_raw & 0x7f)) << (((y_raw >> 7) & 0xff) - 134)) * 1.0 : (128 + (y_raw & 0x7f)) * 1.0 / (1 << (134 - ((y_raw >> 7) & 0xff)))) : y_stored.as<f4>"
        -animre-bytes: y_stored
        doc: Y as a float; a 16-bit component is decoded as the f32 whose upper half it is (bits << 16).
      z:
        value: "len_component == 2 ? (z_raw >> 15 == 1 ? -1.0 : 1.0) * (((z_raw >> 7) & 0xff) == 255 ? ((z_raw & 0x7f) == 0 ? 1.0e300 * 1.0e300 : 1.0e300 * 1.0e300 - 1.0e300 * 1.0e300) : ((z_raw >> 7) & 0xff) == 0 ? (z_raw & 0x7f) * 1.0 / (1 << 133) : ((z_raw >> 7) & 0xff) >= 134 ? ((128 + (z_raw & 0x7f)) << (((z_raw >> 7) & 0xff) - 134)) * 1.0 : (128 + (z_raw & 0x7f)) * 1.0 / (1 << (134 - ((z_raw >> 7) & 0xff)))) : z_stored.as<f4>"
        -animre-bytes: z_stored
        doc: Z as a float; a 16-bit component is decoded as the f32 whose upper half it is (bits << 16).
      w:
        value: "len_component == 2 ? (w_raw >> 15 == 1 ? -1.0 : 1.0) * (((w_raw >> 7) & 0xff) == 255 ? ((w_raw & 0x7f) == 0 ? 1.0e300 * 1.0e300 : 1.0e300 * 1.0e300 - 1.0e300 * 1.0e300) : ((w_raw >> 7) & 0xff) == 0 ? (w_raw & 0x7f) * 1.0 / (1 << 133) : ((w_raw >> 7) & 0xff) >= 134 ? ((128 + (w_raw & 0x7f)) << (((w_raw >> 7) & 0xff) - 134)) * 1.0 : (128 + (w_raw & 0x7f)) * 1.0 / (1 << (134 - ((w_raw >> 7) & 0xff)))) : w_stored.as<f4>"
        -animre-bytes: w_stored
        doc: W (twist in degrees for ROTATE tracks) as a float; a 16-bit component is decoded as the f32 whose upper half it is (bits << 16).
      x_raw:
        pos: ofs_coord + 0
        type: u2
        if: len_component == 2
        doc: The raw 16-bit X (upper half of an f32) of a 16-bit track, read at the component's position; null for f32 tracks.
      y_raw:
        pos: ofs_coord + 2
        type: u2
        if: len_component == 2
        doc: The raw 16-bit Y (upper half of an f32) of a 16-bit track, read at the component's position; null for f32 tracks.
      z_raw:
        pos: ofs_coord + 4
        type: u2
        if: len_component == 2
        doc: The raw 16-bit Z (upper half of an f32) of a 16-bit track, read at the component's position; null for f32 tracks.
      w_raw:
        pos: ofs_coord + 6
        type: u2
        if: len_component == 2
        doc: The raw 16-bit W (upper half of an f32) of a 16-bit track, read at the component's position; null for f32 tracks.
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

# The notes' claims that are expressions over one row (animre.claims runs them; animre.check runs yours).
-animre-claims:
  - text: "MOT header size is always 0x10"
    table: mot
    expr: "len_header == 0x10"
    expected: "0x10"
    source: "GNT4 community motion-format notes (MOT and GNTA files, by Sifo and Icylittlething)"
  - text: "MOT header word 0 is zero (padding)"
    table: mot
    expr: "unknown_0 == 0"
    expected: "0"
    source: "GNT4 community motion-format notes (MOT and GNTA files, by Sifo and Icylittlething)"
  - text: "Animations are 16-byte aligned"
    table: mot_animations
    expr: "ofs_gnta % 16 == 0"
    expected: "a multiple of 16"
    source: "animre format notes on GNT4 MOT/GNTA (docs/formats/mot.md: public reference implementations and real files)"
  - text: "GNTA header size is always 0x10"
    table: mot_animations
    expr: "len_header == 0x10"
    expected: "0x10"
    source: "GNT4 community motion-format notes (MOT and GNTA files, by Sifo and Icylittlething)"
  - text: "GNTA play speed is usually between .03 and .25"
    table: mot_animations
    expr: "play_speed >= 0.03 and play_speed <= 0.25"
    expected: "0.03..0.25"
    source: "GNT4 community motion-format notes (MOT and GNTA files, by Sifo and Icylittlething)"
  - text: "GNTA end time is usually between .03 and 5.0"
    table: mot_animations
    expr: "end_time >= 0.03 and end_time <= 5.0"
    expected: "0.03..5.0"
    source: "GNT4 community motion-format notes (MOT and GNTA files, by Sifo and Icylittlething)"
  - text: "Track flags are 0x0202 or 0x0000"
    table: mot_tracks
    expr: "flags == 0x0202 or flags == 0x0000"
    expected: "0x0202 or 0x0000"
    detail: "flags u2 at track header +0x00"
    source: "GNT4 community motion-format notes (MOT and GNTA files, by Sifo and Icylittlething)"
  - text: "Track header word at 0x0C is zero (padding)"
    table: mot_tracks
    expr: "unknown_0c == 0"
    expected: "0"
    source: "GNT4 community motion-format notes (MOT and GNTA files, by Sifo and Icylittlething)"
  - text: "Track header word at 0x18 is zero (padding)"
    table: mot_tracks
    expr: "unknown_18 == 0"
    expected: "0"
    source: "GNT4 community motion-format notes (MOT and GNTA files, by Sifo and Icylittlething)"
