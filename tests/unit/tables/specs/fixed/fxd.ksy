meta:
  id: fxd
  title: Fixed records (the fast-path equality test)
  file-extension: fxd
  endian: le
  encoding: ASCII
doc: |
  A record of a fixed layout written the way the public gallery writes them:
  a text magic, a version checked with any-of, enums (one member named like a
  Python keyword), a padded string, a terminated tag inside a fixed size, a
  strz, a float, a big-endian number, a constant array of numbers, an array
  of records that take their index as a parameter and read their parent's
  fields, a record in its own sized stream with its own byte order, a
  positional instance in that stream, and the rest of the file.
seq:
  - id: magic
    contents: FXD1
  - id: version
    type: u2
    valid:
      any-of: [1, 2]
  - id: kind
    type: u1
    enum: kind
  - id: flags
    type: u1
  - id: name
    type: str
    size: 8
    pad-right: 0
  - id: tag
    size: 4
    terminator: 0
  - id: label
    type: strz
    size: 6
  - id: scale
    type: f4
  - id: big
    type: u4be
  - id: n_used
    type: u1
    valid:
      max: 4
  - id: speeds
    type: s2
    repeat: expr
    repeat-expr: 4
  - id: points
    type: point(_index)
    repeat: expr
    repeat-expr: 4
  - id: footer
    type: footer
    size: 12
  - id: rest
    size-eos: true
instances:
  total_speed:
    value: speeds[0] + speeds[1]
  is_v2:
    value: 'version == 2 ? 1 : 0'
  peek:
    pos: 4
    type: u2
  name_len:
    value: name.length
  last_speed:
    value: speeds.last
  tail_size:
    value: _io.size - 75
types:
  point:
    params:
      - id: idx
        type: u1
    seq:
      - id: x
        type: s2
      - id: y
        type: s2
      - id: w
        type: u1
        enum: kind
    instances:
      used:
        value: idx < _parent.n_used
      scaled:
        value: x * 2 + idx
      own_speed:
        value: _parent.speeds[idx]
  footer:
    meta:
      endian: be
    seq:
      - id: crc
        type: u4
      - id: stamp
        type: u2
      - id: code
        type: u1
        valid:
          min: 1
          max: 200
      - id: pad
        type: u1
    instances:
      at_start:
        pos: 0
        type: u2
enums:
  kind:
    0: none
    1: walk
    2: run
    3: import
