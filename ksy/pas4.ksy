meta:
  id: pas4
  title: Retro Studios parameterized animation state database (PAS4)
  application:
    - Metroid Prime
    - Metroid Prime 2 Echoes
    - Metroid Prime 3 Corruption
    - Donkey Kong Country Returns
    - "Donkey Kong Country: Tropical Freeze"
  file-extension: pas4
  license: MIT
  ks-version: "0.11"
  endian: be
doc: |
  The parameterized animation state database ("PAS4") that a character uses
  to pick an animation from gameplay parameters: a list of anim states (fall,
  locomotion, melee attack ...), each with typed parameter descriptions
  (type, weighting function, weight, min, max) and a table of animations
  giving one value per parameter.

  There is no length field: the block ends after its last anim state. It is
  embedded in ANCS (Metroid Prime 1/2) and CHAR (Prime 3, DKC) files and is
  found there by its magic; this spec reads a bare block (bytes after the
  block are not part of it and are not read).

  Value widths follow the engine readers (metaforce CPASParmInfo and
  CPASAnimState): Bool values (min, max, per-animation values) are 1 byte,
  Int32 / UInt32 / Enum / Real are 4 bytes (Real is f4). An unknown parm
  type takes 0 bytes in every engine reader; here its values are absent and
  `is_known_type` is false, so the reading is flagged instead of guessed.

  Every count is checked against the bytes left before looping: an anim
  state takes at least 12 bytes, a parm info at least 12 (13 or more for a
  known type), an anim info at least 4.

  Tables (animre): `pas4` (one row per block), `pas4_states` (key `state`),
  `pas4_parms` (keys `state`, `parm`), `pas4_anims` (keys `state`, `anim`)
  and `pas4_anim_values` (keys `state`, `anim`, `parm`: one row per value,
  `parm` is the position of the parm info the value belongs to). A value
  (min, max, an anim's) is two columns: `integer` for Int32, UInt32, Bool
  and Enum parms, `real` for Real parms; the other is NA.
doc-ref:
  - Retro Modding Wiki, Parameterized Animation State Database page
  - metaforce engine source (CPASDatabase, CPASAnimState, CPASParmInfo, CPASAnimInfo readers)
seq:
  - id: magic
    contents: PAS4
    doc: Always "PAS4" (note, FourCC). Its span start is where the block starts in the file.
  - id: num_anim_states
    type: u4
    valid:
      expr: _ * 12 <= _io.size - _io.pos - 4
    doc: Number of anim states (each at least 12 bytes; checked against the bytes left after the default state field).
  - id: default_anim_state
    type: s4
    doc: Anim state used by default, an anim state type id; -1 when there are no anim states.
  - id: anim_states
    type: anim_state(_index)
    repeat: expr
    repeat-expr: num_anim_states
    -animre-table: states
    -animre-key: state
    doc: The anim states in file order (the engine sorts them by state type; file order does not matter to it).
instances:
  len_block:
    value: _io.pos
    doc: |
      Length of the block in bytes: the stream position after the last anim
      state, i.e. where the engine reader stops (evaluated after the block is
      parsed; nothing is read after the last seq field).
types:
  anim_state:
    doc: One anim state (note, "Anim State").
    params:
      - id: state_index
        type: u4
        doc: Position of this state in the file (0-based).
    seq:
      - id: state_type
        type: u4
        enum: anim_state_type
        doc: Anim state type id (0-20 in the note; 21-24 additive states in later games).
      - id: num_parm_infos
        type: u4
        valid:
          expr: _ * 12 <= _io.size - _io.pos - 4
        doc: Number of parameters (the engine allows at most 8; each parm info is at least 12 bytes).
      - id: num_anim_infos
        type: u4
        valid:
          expr: _ * 4 + num_parm_infos * 12 <= _io.size - _io.pos
        doc: Number of animations (each anim info is at least 4 bytes, after the parm infos).
      - id: parm_infos
        type: parm_info
        repeat: expr
        repeat-expr: num_parm_infos
        -animre-table: parms
        -animre-key: parm
        doc: Parameter descriptions; their types decide the widths of all values below.
      - id: anim_infos
        type: anim_info
        repeat: expr
        repeat-expr: num_anim_infos
        -animre-table: anims
        -animre-key: anim
        doc: Animations selectable in this state, one value per parm info each.
  parm_info:
    doc: One parameter description (note, "Parm Info").
    seq:
      - id: parm_type
        type: u4
        enum: parm_type
        doc: Parameter type; controls the width and type of min, max and every anim value of this parameter.
      - id: weight_function
        type: u4
        enum: weight_function
        doc: Weighting algorithm used for this parameter during selection.
      - id: weight
        type: f4
        doc: Influence of this parameter during selection.
      - id: min_value
        type: parm_value(parm_type)
        doc: Minimum value this parameter can represent (typed by parm_type).
      - id: max_value
        type: parm_value(parm_type)
        doc: Maximum value this parameter can represent (typed by parm_type).
    instances:
      is_known_type:
        value: min_value.is_known_type
        doc: False when parm_type is not 0-4; then min, max and anim values take 0 bytes (engine behaviour), not a guess.
  anim_info:
    doc: One selectable animation (note, "Anim Info").
    seq:
      - id: anim_id
        type: u4
        doc: Character-relative anim index (Prime 1/2 index it into the character's anim list).
      - id: values
        type: parm_value(_parent.parm_infos[_index].parm_type)
        repeat: expr
        repeat-expr: _parent.num_parm_infos
        -animre-table: anim_values
        -animre-key: parm
        doc: One value per parm info of the state; value i is typed by parm_infos[i].parm_type.
  parm_value:
    doc: |
      A value whose width and type come from a parm type (min, max, or an
      anim's value). It is read into one field per kind of number, `integer`
      or `real`, so integers stay integers (a uint32 such as 1816825000 is
      never a float) and reals stay floats; the parm type says which.
    params:
      - id: parm_type
        type: u4
        enum: parm_type
        doc: The parm type of the parameter this value belongs to.
    seq:
      - id: integer
        type:
          switch-on: parm_type
          cases:
            parm_type::int32: s4
            parm_type::uint32: u4
            parm_type::bool: u1
            parm_type::enum: s4
        if: is_known_type and parm_type != parm_type::real
        doc: The value of an integer parm (Int32 s4, UInt32 u4, Bool u1 0/1, Enum s4 index); absent (NA) for a Real or an unknown parm type.
      - id: real
        type: f4
        if: parm_type == parm_type::real
        doc: The value of a Real parm (f4); absent (NA) for every other parm type.
    instances:
      is_known_type:
        value: >-
          parm_type == parm_type::int32 or parm_type == parm_type::uint32
          or parm_type == parm_type::real or parm_type == parm_type::bool
          or parm_type == parm_type::enum
        doc: False for a parm type outside 0-4; such a value takes 0 bytes and is not read.
enums:
  anim_state_type:
    0: fall
    1: get_up
    2: lie_on_ground
    3: step
    4: death
    5: locomotion
    6: knock_back
    7: melee_attack
    8: turn
    9: loop_attack
    10: loop_reaction
    11: ground_hit
    12: generate
    13: jump
    14: hurled
    15: slide
    16: taunt
    17: scripted
    18: projectile_attack
    19: cover
    20: wall_hang
    21: additive_idle
    22: additive_aim
    23: additive_flinch
    24: additive_reaction
  parm_type:
    0: int32
    1: uint32
    2: real
    3: bool
    4: enum
  weight_function:
    0: exact_match
    1: percent_error
    2: angular_percent
    3: no_weight

# The notes' claims that are expressions over one row (animre.claims runs them; animre.check runs yours).
-animre-claims:
  - text: "At most 8 parms per anim state (engine limit)."
    table: pas4_states
    expr: "num_parm_infos >= 0 and num_parm_infos <= 8"
    expected: "0..8"
    source: "metaforce engine source (CPASDatabase, CPASAnimState, CPASParmInfo, CPASAnimInfo readers)"
  - text: "Parm types are 0-4 (Int32, UInt32, Real, Bool, Enum)."
    table: pas4_parms
    expr: "parm_type >= 0 and parm_type <= 4"
    expected: "0..4"
    source: "Retro Modding Wiki, Parameterized Animation State Database page"
  - text: "Weight functions are 0-3 (exact match, percent error, angular percent, no weight)."
    table: pas4_parms
    expr: "weight_function >= 0 and weight_function <= 3"
    expected: "0..3"
    source: "Retro Modding Wiki, Parameterized Animation State Database page"
  - text: "Anim state types are 0-20 (the note's table)."
    table: pas4_states
    expr: "state_type >= 0 and state_type <= 20"
    expected: "0..20"
    detail: "ids 21-24 are the additive states (metaforce pas::EAnimationState)"
    source: "Retro Modding Wiki, Parameterized Animation State Database page"
  - text: "Anim state types are 0-24 (with the additive states of later games)."
    table: pas4_states
    expr: "state_type >= 0 and state_type <= 24"
    expected: "0..24"
    source: "metaforce engine source (pas::EAnimationState)"
