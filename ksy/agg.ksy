meta:
  id: agg
  title: Heroes of Might and Magic II resource archive (HEROES2.AGG)
  application: Heroes of Might and Magic II (The Price of Loyalty)
  file-extension: agg
  license: MIT
  ks-version: "0.11"
  endian: le
doc: |
  The archive holding every resource of the game (monster animation
  FRM.BIN files, ICN sprite sheets, KB.PAL, ...): a u2 entry count, one
  12-byte record per entry (name hash, offset, size) right after it, the
  members' bytes, and, at the very end of the file, one 15-byte name per
  entry (an 8.3 name of up to 13 characters, NUL-terminated and padded).
  The engine refuses an archive whose records and names (27 bytes per
  entry) do not fit in the file, and one with a repeated name; it skips the
  hash. The game looks a name up by its hash: the name read from its last
  character to its first, letters upper-cased, h = rotl(h, 5) + sum + c with
  sum the running total of the characters (32-bit wrap-around).
doc-ref:
  - fheroes2 engine source, the AGG archive reader (layout, 15-byte names at the end, checks on open)
  - Heroes of Might and Magic II reverse-engineered game source, the resource id hash of a file name
seq:
  - id: num_entries
    type: u2
    doc: Number of members.
  - id: entries
    -animre-table: entries
    -animre-key: entry
    type: entry(_index)
    repeat: expr
    repeat-expr: num_entries
    doc: One record per member, in the same order as the names at the end of the file.
instances:
  ofs_names:
    value: _io.size - num_entries * 15
    doc: Where the name table starts (the last 15 x num_entries bytes of the file).
types:
  entry:
    params:
      - id: i
        type: u2
    seq:
      - id: name_hash
        type: u4
        doc: The game's hash of the member's name (see the archive's doc for the rule).
      - id: ofs_data
        type: u4
        doc: Offset of the member's bytes from the start of the archive.
      - id: len_data
        type: u4
        doc: Size of the member in bytes.
    instances:
      name:
        io: _root._io
        pos: _root.ofs_names + i * 15
        size: 15
        type: strz
        encoding: ASCII
        doc: The member's name (up to 13 characters, NUL-terminated; the bytes after the NUL are padding).

# The notes' claims that are expressions over one row (animre.claims runs them; animre.check runs yours).
-animre-claims:
  - text: "No entry is empty (the engine reads nothing for a size of 0)."
    table: agg_entries
    expr: "len_data > 0"
    expected: ""
    source: "fheroes2 engine source (AGG archive reader)"
