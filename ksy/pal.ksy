meta:
  id: pal
  title: Heroes of Might and Magic II palette (KB.PAL)
  application: Heroes of Might and Magic II (The Price of Loyalty)
  file-extension: pal
  license: MIT
  ks-version: "0.11"
  endian: le
doc: |
  The game palette stored in HEROES2.AGG as KB.PAL: 256 colours of three
  6-bit VGA components (0-63) each, 768 bytes. The engine scales a component
  to 8 bits by shifting it left by 2 (63 -> 252). ICN sprites index it.

  Tables (animre.flatten): `pal` (one row per file) and `pal_colors` (one row
  per colour, key `color`).
doc-ref:
  - fheroes2 engine source, the game palette loader (KB.PAL, 6-bit components shifted left by 2)
seq:
  - id: colors
    -animre-table: colors
    -animre-key: color
    type: rgb6
    repeat: expr
    repeat-expr: 256
    doc: The 256 palette entries.
  - id: trailing
    size-eos: true
    valid:
      expr: _.size == 0
    doc: Nothing may follow the 768 bytes.
types:
  rgb6:
    seq:
      - id: r
        type: u1
        doc: Red, 6-bit VGA value (0-63).
      - id: g
        type: u1
        doc: Green, 6-bit VGA value (0-63).
      - id: b
        type: u1
        doc: Blue, 6-bit VGA value (0-63).

# The notes' claims that are expressions over one row (animre.claims runs them; animre.check runs yours).
-animre-claims:
  - text: "Palette components are 6-bit (0-63)."
    table: pal_colors
    expr: "r <= 63"
    expected: ""
    source: "fheroes2 engine source (game palette loader)"
