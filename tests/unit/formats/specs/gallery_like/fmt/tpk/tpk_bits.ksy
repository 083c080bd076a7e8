meta:
  id: tpk_bits
  title: Two 4-bit fields in one byte (imported relatively, from beside tpk.ksy)
  license: MIT
seq:
  - id: hi
    type: b4
  - id: lo
    type: b4
