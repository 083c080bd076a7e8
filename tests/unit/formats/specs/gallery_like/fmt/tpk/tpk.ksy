meta:
  id: tpk
  title: animre test pack
  file-extension: tpk
  license: MIT
  ks-version: "0.11"
  endian: le
  imports:
    - /common/pstring
    - tpk_bits
doc: |
  A made-up format written for animre's tests, laid out the way the public
  Kaitai format gallery writes its specs and using the constructs they use:
  an absolute and a relative import, contents and valid, enums, a
  parameterised type with a value instance, bit-sized integers, repeat
  expr / until / eos, sized substreams, process, a UTF-16 string, positional
  instances in the root stream with a switch on an enum, and a footer
  instance that some files lack. No -animre-* key: tables follow the default
  rule.
seq:
  - id: magic
    contents: TPK1
  - id: version
    type: u1
    valid:
      any-of: [1, 2]
  - id: flags
    type: tpk_bits
  - id: len_file
    type: u4
  - id: num_entries
    type: u2
  - id: kind
    type: u1
    enum: kind
  - id: name
    type: pstring
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: num_entries
  - id: items
    type: item
    repeat: until
    repeat-until: _.last != 0
  - id: title
    type: str
    size: 8
    encoding: UTF-16LE
  - id: secret
    size: 4
    process: xor(0x5a)
  - id: pair
    type: scaled(version)
  - id: len_body
    type: u2
  - id: body
    type: body
    size: len_body
  - id: tail
    type: u2
    repeat: eos
instances:
  footer:
    pos: _io.size - 4
    type: u4
    valid: 0x21444e45
  is_packed:
    value: kind == kind::packed
  total:
    value: num_entries * 2 + version
types:
  entry:
    seq:
      - id: ofs_data
        type: u4
      - id: len_data
        type: u2
      - id: tag
        type: u1
        enum: tag
    instances:
      data:
        io: _root._io
        pos: ofs_data
        size: len_data
        type:
          switch-on: tag
          cases:
            'tag::text': text_rec
            'tag::nums': nums_rec
  text_rec:
    seq:
      - id: text
        type: strz
        encoding: UTF-8
  nums_rec:
    seq:
      - id: values
        type: s2
        repeat: eos
  item:
    seq:
      - id: last
        type: u1
      - id: value
        type: s2
  scaled:
    params:
      - id: factor
        type: u1
    seq:
      - id: raw
        type: u2
    instances:
      scaled:
        value: raw * factor
  body:
    seq:
      - id: count
        type: u1
      - id: points
        type: f4
        repeat: expr
        repeat-expr: count
enums:
  kind:
    0: plain
    1: packed
  tag:
    1: text
    2: nums
