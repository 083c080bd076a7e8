meta:
  id: stamp
  endian: le
  bit-endian: le
seq:
  - id: lo
    type: b5
  - id: mid
    type: b6
  - id: hi
    type: b5
