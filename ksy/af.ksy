meta:
  id: af
  title: One Must Fall 2097 fighter (HAR) file
  application: One Must Fall 2097
  file-extension: af
  license: MIT
  ks-version: "0.11"
  endian: le
  imports:
    - omf_common
  -animre-table: fighters
doc: |
  `FIGHTR<n>.AF` describes one HAR (robot): a 29-byte header of speeds and
  endurance, then moves (animation + 21-byte move footer + move string +
  footer string) until a move number >= 70 (writers use 250), then the
  30-byte sound table whose last five entries spell `FGHED`.

  Readings follow the openomf engine source where it disagrees with the
  community notes: the
  header's unknown word is the "exec window", the note's "unknown byte + 29
  sounds" is one 30-byte table, and the footer unknowns are named by their
  offset inside the footer (unknown_4 .. unknown_11, unknown_18).
doc-ref:
  - One Must Fall 2097 community format notes, HAR File Format (.AF)
  - openomf engine source (AF file reader)
seq:
  - id: fighter_id
    type: u2
    doc: HAR number; must equal the number in the file name (FIGHTR1.AF -> 1).
  - id: exec_window
    type: u2
    doc: Timing window for executing special moves; 10 in all known files (1 = very small, 100 = very large).
  - id: endurance
    type: u4
    doc: Stun resistance, raw (engines show it /256, the note says x3.6 after loading; unresolved).
  - id: unknown_8
    type: u1
    doc: Usually 2 (note), openomf reads it as the upwards jump frame limit (1 or 2).
  - id: health
    type: u2
    doc: Health (hit points); the note says at most 8717.
  - id: forward_speed
    type: s4
    doc: Speed towards the opponent, 24.8 fixed point (/256).
  - id: reverse_speed
    type: s4
    doc: Speed away from the opponent, 24.8 fixed point (/256).
  - id: jump_speed
    type: s4
    doc: Initial jump speed, negative, 24.8 fixed point (/256).
  - id: fall_speed
    type: s4
    doc: Falling speed while airborne, positive, 24.8 fixed point (/256).
  - id: unknown_27
    type: u1
    doc: Always 0x32 per the note; meaning unknown.
  - id: unknown_28
    type: u1
    doc: Always 0x14 per the note; openomf reads it as the AI projectile Y threshold.
  - id: moves
    -animre-table: moves
    -animre-key: move
    -animre-where: _.move_number < 70
    type: move_record
    repeat: until
    repeat-until: _.move_number >= 70
    doc: Moves in file order; the last record is the terminator (move number >= 70, 250 in all known files).
  - id: sound_table
    -animre-inline: true
    type: omf_common::sound_table
    doc: 30-byte sound table (the note's "unknown byte + 29 sounds"); ends with FGHED in known files.
  - id: trailing
    size-eos: true
    doc: Bytes after the sound table; empty in every known file.
instances:
  num_moves:
    value: moves.size - 1
    doc: Number of moves (without the terminator record).
  terminator:
    value: moves.last.move_number
    doc: Move number of the terminator record (>= 70; 250 in all known files); its byte is the one before the sound table.
types:
  move_record:
    doc: One move number followed, when it is < 70, by an animation and a move footer.
    seq:
      - id: move_number
        type: u1
        -animre-id: true
        doc: Move (animation) id, < 70; a value >= 70 ends the list (writers use 250).
      - id: animation
        type: omf_common::animation
        if: move_number < 70
        doc: The move's animation (shared record, see omf_common).
      - id: footer
        -animre-inline: true
        type: move_footer
        if: move_number < 70
        doc: The move footer with move string and footer string.
  move_footer:
    doc: |
      21 bytes of move properties, the fixed 21-byte move string and the
      footer string (length including its NUL). Offsets in the field docs
      are relative to the footer start.
    seq:
      - id: ai_flags
        type: u2
        doc: "+0: AI related bitmask (note: Unknown 0)."
      - id: pos_constraint
        type: u2
        doc: |
          +2: position-constraint bitmask (note: 0x1 near wall, 0x2 airborne,
          0x4 close to other HAR; openomf: 0x2 no distance check, 0x4 wall
          bounce, 0x8-0x80 require arena 0-4). Disputed.
      - id: unknown_4
        type: u1
        doc: "+4: unknown, the note says not used."
      - id: unknown_5
        type: u1
        doc: "+5: unknown, the note says not used."
      - id: unknown_6
        type: u1
        doc: "+6: unknown, the note says not used."
      - id: unknown_7
        type: u1
        doc: "+7: unknown, the note says not used."
      - id: unknown_8
        type: u1
        doc: "+8: unknown, the note says not used."
      - id: unknown_9
        type: u1
        doc: "+9: unknown, the note says not used."
      - id: unknown_10
        type: u1
        doc: "+10: unknown, the note says not used."
      - id: unknown_11
        type: u1
        doc: "+11: unknown, the note says not used."
      - id: next_anim_on_hit
        type: u1
        doc: "+12: next animation to play if this one hit (play-if-hit)."
      - id: category
        type: u1
        enum: move_category
        doc: "+13: animation category (note's educated guesses; 10 vs 11 disputed)."
      - id: block_damage
        type: u1
        doc: "+14: damage on block (note: health/damage related)."
      - id: block_stun
        type: u1
        doc: "+15: blockstun time (also scrap amount per openomf)."
      - id: successor_id
        type: u1
        doc: "+16: successor animation id."
      - id: damage
        type: u1
        doc: "+17: damage (the note says the value is divided by 2.0; disputed)."
      - id: unknown_18
        type: u1
        doc: "+18: openomf: throw duration; note: collision special case, 0x20 = move HAR back."
      - id: extra_string_selector
        type: u1
        doc: "+19: which extra string to use (1 arm, 2 leg, 3 special arm, 4 special leg, 5 arm+leg)."
      - id: points
        type: u1
        doc: "+20: points if the move hits, in hundreds (x4 after loading per the note, x400 in game)."
      - id: move_string
        type: move_string
        size: 21
        doc: "+21: the 21-byte key-combo string (NUL-terminated text plus raw bytes)."
      - id: footer_string
        type: omf_common::footer_string
        doc: "+42: footer string (u2 length including the NUL); animation string for animation 9 of the other HAR on a hit."
  move_string:
    doc: |
      Fixed 21-byte move string. The text ends at the first NUL; the bytes
      after it are not always zero (the note suspects animation labels), so
      the raw 21 bytes are kept as well.
    seq:
      - id: raw
        size: 21
        doc: All 21 bytes as stored.
    instances:
      text:
        pos: 0
        size: 21
        type: str
        terminator: 0
        encoding: ISO-8859-1
        doc: The key-combo text, up to the first NUL.
enums:
  move_category:
    0: misc
    2: close
    4: low
    5: medium
    6: high
    7: jumping
    8: projectile
    9: basic
    10: victory_or_fire_ice
    11: defeat_or_victory
    12: scrap
    13: destruction

# The notes' claims that are expressions over one row (animre.claims runs them; animre.check runs yours).
-animre-claims:
  - text: "AF exec window (header word at 2) is always 10"
    table: af_fighters
    expr: "exec_window == 10"
    expected: "10"
    source: "One Must Fall 2097 community format notes (HAR file format, OpenOMF wiki)"
  - text: "Animation unknown u4 (+4) is always 0"
    table: af_moves
    expr: "animation.unknown_4 == 0"
    expected: "0"
    source: "One Must Fall 2097 community format notes (HAR file format, OpenOMF wiki)"
  - text: "Animation string length excludes the NUL, which is always present"
    table: af_moves
    expr: "animation.anim_string.terminator == 0"
    expected: "0"
    source: "openomf engine source (AF and BK file readers)"
  - text: "Sound table entry 0 is 0 in all known AF files"
    table: af_fighters
    expr: "sound_ids[0] == 0"
    expected: "0"
    source: "One Must Fall 2097 community format notes (HAR file format, OpenOMF wiki)"
  - text: "Header byte 27 is always 0x32"
    table: af_fighters
    expr: "unknown_27 == 0x32"
    expected: "0x32"
    source: "One Must Fall 2097 community format notes (HAR file format, OpenOMF wiki)"
  - text: "Header byte 28 is always 0x14"
    table: af_fighters
    expr: "unknown_28 == 0x14"
    expected: "0x14"
    source: "One Must Fall 2097 community format notes (HAR file format, OpenOMF wiki)"
  - text: "Collision coordinate bits 10-15 are always 0"
    table: af_coords
    expr: "unknown_bits_10_15 == 0"
    expected: "0"
    source: "One Must Fall 2097 community format notes (HAR file format, OpenOMF wiki)"
  - text: "Health is at most 8717"
    table: af_fighters
    expr: "health <= 8717"
    expected: "<= 8717"
    source: "One Must Fall 2097 community format notes (HAR file format, OpenOMF wiki)"
