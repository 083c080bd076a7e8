meta:
  id: pstring
  title: Length-prefixed UTF-8 string (a shared type, imported absolutely as /common/pstring)
  license: MIT
  endian: le
seq:
  - id: len_value
    type: u1
  - id: value
    type: str
    size: len_value
    encoding: UTF-8
