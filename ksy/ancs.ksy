meta:
  id: ancs
  title: Retro Studios animation character set (ANCS), read far enough to place each character's PAS4 database
  application:
    - Metroid Prime
    - Metroid Prime 2 Echoes
  file-extension: ancs
  license: MIT
  ks-version: "0.11"
  endian: be
  imports:
    - pas4
doc: |
  An ANCS file holds a character set (one character info per character: its
  name, model ids, animation names, its PAS4 database, particles, effects,
  overlays ...) and then an animation set. animre reads it to find where
  each character's PAS4 database (`ksy/pas4.ksy`) starts and ends; the
  animation set after the characters is not read. The file is the type
  `ancs_file`: the spec has no top-level fields, so it is not a format of its
  own (the `pas4` format reads ANCS files through it).

  The character info layout changes with its version (1 to 10): Prime 1
  writes a second string per animation name (version < 10), Prime 2
  (version 10) reads one word instead of a third particle list, adds spawn
  particles, a second unknown word, bone ids instead of bone names in effect
  components, spatial primitives and indexed bounding boxes. A field with
  `if:` is read only in the versions that have it.

  Every count is checked against the bytes left before looping, with the
  smallest size of one element (an animation name 6 bytes, 5 in version 10;
  a bounding box 25; an effect 5; a component 21; an indexed box 28; a
  character 51), so a hostile count fails at once with its field path.
doc-ref:
  - metaforce engine source (CCharacterSet, CCharacterInfo, CAnimationSet readers)
  - retro-data-structures ANCS description (character info versions 1-10)
types:
  ancs_file:
    seq:
      - id: version
        type: u2
        valid: 1
        doc: ANCS version, 1 in Metroid Prime 1 and 2.
      - id: character_set
        type: character_set
  character_set:
    seq:
      - id: version
        type: u2
        valid: 1
        doc: Character set version, 1.
      - id: num_characters
        type: u4
        valid:
          expr: _ * 51 <= _io.size - _io.pos
      - id: characters
        type: character
        repeat: expr
        repeat-expr: num_characters
  character:
    seq:
      - id: id
        type: u4
        doc: Character id within the set.
      - id: info_version
        type: u2
        valid:
          min: 1
          max: 10
        doc: Character info version; 10 in Metroid Prime 2, lower in Prime 1.
      - id: name
        type: strz
        encoding: ASCII
      - id: model_id
        type: u4
        doc: CMDL asset id.
      - id: skin_id
        type: u4
        doc: CSKR asset id.
      - id: skeleton_id
        type: u4
        doc: CINF asset id.
      - id: num_animation_names
        type: u4
        valid:
          expr: '_ * (info_version < 10 ? 6 : 5) <= _io.size - _io.pos'
      - id: animation_names
        type: animation_name(info_version)
        repeat: expr
        repeat-expr: num_animation_names
      - id: pas4
        type: pas4
        doc: The character's parameterized animation state database.
      - id: particles
        type: particle_lists(info_version)
      - id: unknown
        size: 'info_version >= 10 ? 8 : 4'
      - id: num_animation_aabbs
        type: u4
        if: info_version > 1
        valid:
          expr: _ * 25 <= _io.size - _io.pos
      - id: animation_aabbs
        type: animation_aabb
        repeat: expr
        repeat-expr: num_animation_aabbs
        if: info_version > 1
      - id: num_effects
        type: u4
        if: info_version > 2
        valid:
          expr: _ * 5 <= _io.size - _io.pos
      - id: effects
        type: effect(info_version)
        repeat: expr
        repeat-expr: num_effects
        if: info_version > 2
      - id: overlay_model_id
        type: u4
        if: info_version > 3
      - id: overlay_skin_id
        type: u4
        if: info_version > 3
      - id: animation_index_map
        type: id_list
        if: info_version > 4
      - id: spatial_primitives
        size: 5
        if: info_version >= 10
        doc: A spatial-primitives asset id and one byte.
      - id: num_indexed_aabbs
        type: u4
        if: info_version >= 10
        valid:
          expr: _ * 28 <= _io.size - _io.pos
      - id: indexed_aabbs
        size: 28
        repeat: expr
        repeat-expr: num_indexed_aabbs
        if: info_version >= 10
  animation_name:
    params:
      - id: info_version
        type: u2
    seq:
      - id: animation_id
        type: u4
      - id: unknown
        type: strz
        encoding: ASCII
        if: info_version < 10
      - id: name
        type: strz
        encoding: ASCII
  particle_lists:
    params:
      - id: info_version
        type: u2
    seq:
      - id: part
        type: id_list
      - id: swhc
        type: id_list
      - id: unknown_word
        type: u4
        if: info_version >= 10
      - id: unknown
        type: id_list
        if: info_version < 10
        doc: A third list, empty in known files.
      - id: elsc
        type: id_list
        if: info_version > 5
      - id: spsc
        type: id_list
        if: info_version >= 10
  id_list:
    seq:
      - id: num_ids
        type: u4
        valid:
          expr: _ * 4 <= _io.size - _io.pos
      - id: ids
        type: u4
        repeat: expr
        repeat-expr: num_ids
  animation_aabb:
    seq:
      - id: name
        type: strz
        encoding: ASCII
      - id: box
        type: f4
        repeat: expr
        repeat-expr: 6
  effect:
    params:
      - id: info_version
        type: u2
    seq:
      - id: name
        type: strz
        encoding: ASCII
      - id: num_components
        type: u4
        valid:
          expr: _ * 21 <= _io.size - _io.pos
      - id: components
        type: effect_component(info_version)
        repeat: expr
        repeat-expr: num_components
  effect_component:
    params:
      - id: info_version
        type: u2
    seq:
      - id: name
        type: strz
        encoding: ASCII
      - id: particle_type
        type: str
        size: 4
        encoding: ASCII
      - id: particle_id
        type: u4
      - id: bone_id
        type: u4
        if: info_version >= 10
      - id: bone_name
        type: strz
        encoding: ASCII
        if: info_version < 10
      - id: scale
        type: f4
      - id: parented_mode
        type: u4
      - id: flags
        type: u4
