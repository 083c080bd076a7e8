meta:
  id: rng
  title: byte ranges under every way the compiler makes a stream (animre's tests)
  file-extension: rng
  endian: le
  imports:
    - /common/stamp
seq:
  - id: magic
    contents: "RNG1"
  - id: num_recs
    type: u2
  - id: hdr
    size: 6
    type: hdr
  - id: recs
    type: rec
    size: 12
    repeat: expr
    repeat-expr: num_recs
  - id: packed
    size: 9
    process: xor(0x5a)
    type: packed_body
  - id: rot
    size: 2
    process: rol(3)
    type: body_a
  - id: zipped_len
    type: u1
  - id: zipped
    size: zipped_len
    process: zlib
    type: packed_body
  - id: name
    type: strz
    encoding: ASCII
  - id: term_body
    terminator: 0x3b
    type: hdr
  - id: tail
    size-eos: true
    type: tail
instances:
  at_root:
    pos: 2
    type: u2
  via_root_io:
    io: _root._io
    pos: 0
    size: 4
    type: str
    encoding: ASCII
types:
  hdr:
    seq:
      - id: a
        type: u2
      - id: flags
        type: b3
        enum: flag_kind
      - id: rest
        type: b13
      - id: c
        type: u2be
  rec:
    seq:
      - id: kind
        type: u1
      - id: slot
        size: 7
        type: slot_t
      - id: when
        size: 2
        type: stamp
      - id: body
        size: 2
        type:
          switch-on: kind
          cases:
            1: body_a
            2: body_b
    instances:
      slot_val:
        io: slot._io
        pos: 3
        type: u2
      slot_obj:
        io: slot._io
        pos: 1
        type: body_a
      parent_peek:
        io: _parent._io
        pos: 4
        type: u2
  slot_t:
    seq:
      - id: raw
        size-eos: true
  body_a:
    seq:
      - id: x
        type: s2
  body_b:
    seq:
      - id: y1
        type: u1
      - id: inner
        size: 1
        type: nib
  nib:
    seq:
      - id: n_hi
        type: b4
      - id: n_lo
        type: b4
  packed_body:
    seq:
      - id: p
        type: u4
      - id: q
        type: u4
      - id: r
        type: u1
  tail:
    seq:
      - id: items
        size: 3
        type: item
        repeat: eos
    instances:
      tail_peek:
        pos: 1
        type: u1
  item:
    seq:
      - id: v
        type: u2
      - id: w
        type: u1
enums:
  flag_kind:
    2: two
    5: five
