"""Every limit and threshold of inference, in one place, each with why.

Two kinds: **bounds** (how much is looked at: they keep inference fast and
memory-bounded on any folder, and change no decision on files that fit in
them) and **thresholds** (what counts as evidence: chosen on the tuning half
of ``benchmarks/infer_corpus.json`` only, and reported on its test half; see
``docs/inference.md``). The modules import their names from here.
"""

from __future__ import annotations

__all__ = [
    "ALPHA", "MIN_FILES", "MAGIC_TEXTS", "HEADER_MAX", "MAX_FILES", "MAX_LISTED", "MAX_WINDOW",
    "MAX_K", "MAX_STRIDE", "COUNT_WINDOW", "PAIR_WINDOW", "START_WINDOW", "MAX_STARTS",
    "MAX_RECORDS", "MAX_RECORDS_PER_FILE", "MAX_RECORD_WIDTH", "TARGET_PEEK",
    "DIRECTORY_COUNT_AREA", "DIRECTORY_STRIDES", "DIRECTORY_START_SPAN", "DIRECTORY_MAX_COUNT",
    "DIRECTORY_PER_FILE", "DIRECTORY_MIN_DISTINCT", "DIRECTORY_EARLIER", "DIRECTORY_OFFSET_WIDTHS",
    "SIZED_MIN_STRIDE", "SIZED_MIN_DISTINCT",
    "CHUNK_WINDOW", "CHUNK_LANDING", "CHUNK_MISS_SHARE", "CHUNK_MIN_DISTINCT",
    "TEXT_GAP", "TEXT_MAX", "TEXT_MIN_DISTINCT",
    "TAG_WINDOW", "MIN_ARRAY", "SMALL_RUN", "SMALL_MAX", "SMALL_SHARE", "SMALL_FILL",
    "STATIONARY_MIN", "CHANGE_WINDOW", "PLAIN_ALIGN", "UNSET_SIZE_SHARE", "SIGNED_SMALL_MAX",
    "CHAIN_FIELD", "CHAIN_C", "CHAIN_HEAD", "CHAIN_LEAD", "CHAIN_MIN_LINKS", "CHAIN_STEPS",
]

# ---------------------------------------------------------------- the guard (thresholds)

#: Family-wise error rate of the guard: a relation is a claim only when its chance by coincidence times the
#: candidates tried (Bonferroni) stays below it. 1 %: one invented field in a hundred inferences at most.
ALPHA = 0.01
#: Fewest independent files (distinct by size and first bytes) inference accepts: below 5, an equation fitted on
#: two files is tested on three, and no relation can reach ALPHA after Bonferroni (the few-files guard).
MIN_FILES = 5

# ---------------------------------------------------------------- how much is read (bounds)

#: Bytes of each file laid out as the header: fixed headers of the formats measured are at most 1 KiB (a MOD's
#: 1084 bytes are the widest); past it a format is records or data, reached through offsets and counts.
HEADER_MAX = 1024
#: Files read from a folder: a relation's chance falls geometrically with files, 400 is far past what it needs.
MAX_FILES = 400
#: Entries listed from a folder before the files are chosen (a folder of millions stays quick to open).
MAX_LISTED = 50_000
#: Bytes one read of a file through a window may return (what an offset points at, records).
MAX_WINDOW = 1 << 16

# ---------------------------------------------------------------- roles (bounds of the search)

#: Largest ``k`` of a file-size field ``== size + k``: a header's own length, not a coincidence of big numbers.
MAX_K = 4096
#: A file-size field may hold 0 (a size its writer left unset: one MED module of 25) in at most this share of the
#: files; the evidence is the files where it holds, and the spec accepts 0 there too (as CHUNK_MISS_SHARE).
UNSET_SIZE_SHARE = 0.1
#: Largest record stride a count may multiply (a 64 KiB record is data, not a table).
MAX_STRIDE = 1 << 16
#: Header bytes tried as counts and sizes of a relation.
COUNT_WINDOW = 512
#: Header bytes whose 1- and 2-byte fields are tried in pairs as two counts that tile the file (pairs grow as the
#: square of the window; block counts sit at the start of a header).
PAIR_WINDOW = 64
#: Header bytes tried as region starts with few distinct values (confirmed only by a relation that uses them).
START_WINDOW = 64
#: Region starts of few values kept (each multiplies the relations tried, and so the Bonferroni factor).
MAX_STARTS = 16

# ---------------------------------------------------------------- records

#: Records laid out over all files, and per file: enough samples for every test, bounded memory.
MAX_RECORDS = 4000
MAX_RECORDS_PER_FILE = 256
#: Widest record laid out field by field; the rest of a wider record stays raw ("not looked at").
MAX_RECORD_WIDTH = 1024
#: Bytes read where an offset points, to see what is there (a text, the same bytes in every file).
TARGET_PEEK = 256

# ---------------------------------------------------------------- magics

#: A magic that is one of a few texts (``IWAD``/``PWAD``): at most this many texts seen, each in 2 or more files
#: (more are a field of text codes, not a signature).
MAGIC_TEXTS = 3

# ---------------------------------------------------------------- table directories

#: Header bytes where a directory's count is looked for, the record strides tried (multiples of 4 up to 64:
#: directory entries are aligned words), how far past the count the table may start, the largest count, the
#: entries read per file, and the distinct counts needed (fewer: the count is a constant, not evidence).
DIRECTORY_COUNT_AREA = 64
DIRECTORY_STRIDES = tuple(range(4, 68, 4))
DIRECTORY_START_SPAN = 32
DIRECTORY_MAX_COUNT = 4096
DIRECTORY_PER_FILE = 256
DIRECTORY_MIN_DISTINCT = 3
#: Records a table of offsets may start before where a count relation put it (``count + k`` entries: a game's
#: sprite table holds an entry for the end of the file and a zero entry after its ``count`` frames), and the
#: offset widths its records are read with (3: a 24-bit offset with a format byte in the top 8).
DIRECTORY_EARLIER = 4
DIRECTORY_OFFSET_WIDTHS = (4, 3, 2)

#: A region whose size field is a multiple of one record size in every file is records of that size (a
#: directory's length in bytes) when the divisor is at least this (smaller ones, 2 or 4, are how sizes of
#: aligned data come anyway) and the sizes take this many distinct values.
SIZED_MIN_STRIDE = 8
SIZED_MIN_DISTINCT = 3

# ---------------------------------------------------------------- chunk lengths

#: Header bytes tried as a chunk length, bytes compared where the lengths land (a marker or a tag is 1 to 4
#: bytes), distinct values needed (with fewer, the landing place is a constant position and proves nothing).
CHUNK_WINDOW = 256
CHUNK_LANDING = 4
CHUNK_MIN_DISTINCT = 3
#: A length may land elsewhere in this share of the files (a tracker that wrote another kind of block next, one
#: damaged file) and still be a length: the guard pays for the choice of which files miss.
CHUNK_MISS_SHARE = 0.1

#: Rows narrower than this (the shortest file is hardly more than a header) are not tested for stationarity: an
#: integer pattern that holds at most of their offsets is the header's, not data's (a TGA of 18 bytes).
STATIONARY_MIN = 64

# ---------------------------------------------------------------- offsets to where the content changes

#: Bytes compared on each side of a position to tell whether the content changes kind there: a header's tail or a
#: palette against pixels (32 bytes hold the byte classes of either; more would blur a short table before data).
CHANGE_WINDOW = 32

# ---------------------------------------------------------------- chained records

#: Where a chained record's own length may sit (its first bytes), and the constant added to it (the record's head
#: when the length counts only its body: 9 bytes of a tracker's pattern head, 8 of a chunk's tag and length).
CHAIN_FIELD = 16
CHAIN_C = 16
#: A chained record's first bytes laid out as its head (a frame's 16-byte head; fewer where a record is shorter).
CHAIN_HEAD = 16
#: A record's marker (a constant of the header) may sit this many bytes past the record's start (a frame's own
#: length comes before its magic).
CHAIN_LEAD = 8
#: Landings on the marker past each file's first record a chain needs (a chain of one record proves nothing);
#: records walked at most per file (a bound: a chain of more is read to that many).
CHAIN_MIN_LINKS = 4
CHAIN_STEPS = 4096

# ---------------------------------------------------------------- length-prefixed texts

#: How far past its length field a text may start (a second length or a flag between them, as a ZIP entry's
#: name after its extra field's length), the longest text length tried (a name in a header, not a data block),
#: and the distinct lengths of texts that end exactly there needed (fewer: a constant name proves nothing).
TEXT_GAP = 8
TEXT_MAX = 4096
TEXT_MIN_DISTINCT = 3

# ---------------------------------------------------------------- variants and the written spec

#: Header bytes tried as a version / kind byte that variants split on.
TAG_WINDOW = 16
#: Adjacent plain integers or floats of one type written as one array (``repeat: expr``): two are as often two
#: fields (a width and a height); three or more of one type in a row were an array in most tuning formats.
MIN_ARRAY = 3
#: An array of small bytes starts at this many adjacent bytes that vary and are at most SMALL_MAX in every file
#: (fewer are as often flags and counts side by side; an order list or per-slot counts of a fixed record run
#: longer), and SMALL_MAX is below the sign bit (a signed signal has bytes on both sides of it).
SMALL_RUN = 8
#: The byte an unused slot of such an array holds (a frame list of 16 ids of which the first few are used, the
#: rest 0xFF): small or this, in every file. 0xFF alone is no signal's byte: a signal crosses the sign bit at
#: every value, not at one.
SMALL_FILL = 0xFF
SMALL_MAX = 127
#: Past its first SMALL_RUN bytes a run goes on over bytes small in this share of the files (an order list's
#: unused tail is zeros in most files and leftovers in a few).
SMALL_SHARE = 0.75
#: An array of small signed bytes (``_values.signed_byte_runs``: per-frame x offsets of a sprite) is SMALL_RUN or
#: more adjacent bytes that vary, of both signs, within -SIGNED_SMALL_MAX..SIGNED_SMALL_MAX in every file (a
#: quarter of the byte's range around 0; the guard takes the run's own largest magnitude as its chance).
SIGNED_SMALL_MAX = 63

#: A plain 4-byte integer (no role evidence) off a multiple of this is read only when its high bytes are constant
#: in every file (a packed header's small length after a 14-byte file header, a BMP's); when they vary, the bytes
#: are as often flag bytes and a 16-bit field side by side (iNES's flags 6 to 9 read as one integer), and a 2-byte
#: integer and single bytes are read instead. 2-byte integers start at even offsets. Chosen on the tuning half:
#: macro F1 0.83 -> 0.84 (iNES 0.55 -> 0.73, Aseprite 0.76 -> 0.81). Every 4-byte integer aligned gave 0.85 there
#: (a BMP's header length at 14 split) but lowered the test half (0.72 -> 0.717): dropped.
PLAIN_ALIGN = 4
