"""One Must Fall 2097 fighter (``FIGHTR*.AF``) and arena (``*.BK``) files.

Two formats share the animation and sprite records of ``ksy/omf_common.ksy``:
``af`` and ``bk``. Their tables come from the specs (``af_fighters``,
``af_moves``, ``af_sprites``, ``af_coords``, ``af_extra_strings``;
``bk_files``, ``bk_animations``, ``bk_sprites``, ``bk_coords``,
``bk_extra_strings``, ``bk_palettes``); this module adds detection, a few
derived columns and the notes' claims. Sprite pixels are decoded by
:mod:`animre.formats.omf.sprites`.
"""

from __future__ import annotations

import re
import struct

import pandas as pd

from ..base import CLAIM_COLUMNS, Claim, Format, column_claim, derived, row_claim

__all__ = ["FORMATS", "AF", "BK", "detect_af", "detect_bk", "SOURCE_NOTES", "SOURCE_OPENOMF"]

SOURCE_NOTES = "One Must Fall 2097 community format notes (HAR file format, OpenOMF wiki)"
SOURCE_OPENOMF = "openomf engine source (AF and BK file readers)"
AF_HEADER_SIZE = 29
BK_PALETTE_SIZE = 256 * 3 + 19 * 256
BK_TERMINATOR_SIZE = 5  # the terminator record: u4 ofs_next + u1 anim_number (bk.ksy anim_record)


# ----------------------------------------------------------------------------- detection


def _animation_header_ok(head: bytes, pos: int, size: int) -> bool | None:
    """Plausibility of an animation header at ``pos`` (None when it lies beyond ``head``)."""
    if pos + 11 > len(head):
        return None
    _sx, _sy, unk, ncoords, nsprites = struct.unpack_from("<hhIHB", head, pos)
    return unk == 0 and ncoords * 4 + nsprites * 12 <= size - pos - 11


def detect_af(head: bytes, size: int, name: str) -> float:
    """AF: 29-byte header (0x32, 0x14 at 27/28, small exec window), a move number < 70, a sane animation."""
    named = name.lower().endswith(".af")
    if size < AF_HEADER_SIZE + 1 + 31 or len(head) < AF_HEADER_SIZE + 1:
        return 0.0
    fid, window = struct.unpack_from("<HH", head, 0)
    score = 0.0
    if head[27] == 0x32 and head[28] == 0x14:
        score += 0.45
    if 1 <= window <= 100:
        score += 0.15 if window == 10 else 0.05
    if fid < 256:
        score += 0.05
    first = head[AF_HEADER_SIZE]
    if first < 70:
        ok = _animation_header_ok(head, AF_HEADER_SIZE + 1, size)
        if ok is False:
            return 0.1 if named else 0.0
        score += 0.2
    elif first != 250:
        return 0.1 if named else 0.0
    if score < 0.45:
        return min(score, 0.2) + (0.1 if named else 0.0)
    return min(1.0, score + (0.1 if named else 0.0))


def detect_bk(head: bytes, size: int, name: str) -> float:
    """BK: width/height that fit the file, then a plausible animation record (offset, number)."""
    named = name.lower().endswith(".bk")
    if size < 9 + 5 + 1 + 30 or len(head) < 14:
        return 0.0
    _fid, _unk, w, h = struct.unpack_from("<IBHH", head, 0)
    if w == 0 or h == 0 or w * h + 9 + 5 + 1 + 30 > size:
        return 0.0
    ofs_next, number = struct.unpack_from("<IB", head, 9)
    score = 0.35
    if number < 50:
        if not (14 < ofs_next <= size):
            return 0.1 if named else 0.0
        hdr = 9 + 5 + 7
        if len(head) >= hdr + 2:
            (flen,) = struct.unpack_from("<H", head, hdr)
            ok = _animation_header_ok(head, hdr + 2 + flen, size)
            if ok is False:
                return 0.1 if named else 0.0
            if ok:
                score += 0.2
    elif ofs_next > size:
        return 0.1 if named else 0.0
    else:
        rest = size - (9 + 5 + w * h) - 1 - 30
        if rest >= 0 and rest % BK_PALETTE_SIZE == 0:
            score += 0.3
    if (w, h) == (320, 200):
        score += 0.2
    return min(1.0, score + (0.1 if named else 0.0))


# ----------------------------------------------------------------------------- derived columns


@derived("af_fighters", "ofs_terminator_from_end", ["sound_ids[0]"])
def _ofs_terminator_from_end(df, ctx):
    """File size minus the offset of the move-list terminator (the byte before the sound table).

    The terminator record is its one move-number byte (``af.ksy`` reads no
    animation after a number >= 70), so it sits right before ``sound_ids[0]``.
    """
    return ctx.file_sizes(df) - (ctx.starts("af_fighters", "sound_ids[0]").reindex(df.index) - 1)


@derived("af_fighters", "len_trailing", ["trailing"])
def _af_len_trailing(df, ctx):
    """Number of bytes after the sound table (0 in all known files)."""
    return df["trailing"].map(len)


@derived("bk_files", "len_trailing", ["trailing"])
def _bk_len_trailing(df, ctx):
    """Number of bytes after the sound table (0 in all known files)."""
    return df["trailing"].map(len)


@derived("bk_palettes", "colors_max", ["colors"])
def _colors_max(df, ctx):
    """Largest colour component of the palette (6-bit VGA values are <= 63)."""
    return df["colors"].map(lambda v: max(v) if len(v) else 0)


# ----------------------------------------------------------------------------- claims


def _empty() -> pd.DataFrame:
    return pd.DataFrame(columns=CLAIM_COLUMNS)


def _files_of(corpus, fmt: str) -> list[str]:
    f = corpus.files
    return list(f[(f["format"] == fmt) & f["ok"]]["file"])


def _frame(rows: list[dict]) -> pd.DataFrame:
    out = pd.DataFrame(rows, columns=CLAIM_COLUMNS)
    out["offset"] = out["offset"].astype("Int64")
    return out


def _check_byte_31(corpus) -> pd.DataFrame:
    rows = []
    for f in _files_of(corpus, "af"):
        data = corpus.read_bytes(f)
        off = len(data) - 31
        v = data[off] if off >= 0 else None
        rows.append({"file": f, "holds": v == 250, "offset": max(off, 0), "value": v,
                     "detail": "byte 31 from the end (move list terminator)"})
    return _frame(rows)


def _check_fghed(corpus) -> pd.DataFrame:
    rows = []
    for f in _files_of(corpus, "af"):
        data = corpus.read_bytes(f)
        tail = data[-5:]
        rows.append({"file": f, "holds": tail == b"FGHED", "offset": max(len(data) - 5, 0),
                     "value": tail.decode("latin-1"), "detail": "last 5 bytes (sound ids 70 71 72 69 68)"})
    return _frame(rows)


def _rows(corpus, table: str) -> pd.DataFrame | None:
    """A table of the corpus, or None when it is missing or empty (the check then has no rows)."""
    df = corpus.tables.get(table)
    return df if df is not None and len(df) else None


def _check_fighter_id(corpus) -> pd.DataFrame:
    if (df := _rows(corpus, "af_fighters")) is None:
        return _empty()
    starts = corpus.offsets("af_fighters", "fighter_id")
    rows = []
    for i, r in df.iterrows():
        m = re.search(r"(\d+)\.af$", str(r["file"]), re.IGNORECASE)
        want = int(m.group(1)) if m else None
        rows.append({"file": r["file"], "holds": want is not None and int(r["fighter_id"]) == want,
                     "offset": starts.at[i], "value": int(r["fighter_id"]),
                     "detail": f"number in file name: {want}"})
    return _frame(rows)


def _check_move_numbers(corpus) -> pd.DataFrame:
    if (df := _rows(corpus, "af_moves")) is None:
        return _empty()
    starts = corpus.offsets("af_moves", "move_number", df.index)
    dup = df.duplicated(["file", "move_number"], keep=False)
    return _frame([{
        "file": r["file"], "holds": int(r["move_number"]) < 70 and not dup.at[i], "offset": starts.at[i],
        "value": int(r["move_number"]), "detail": "used twice in the file" if dup.at[i] else "",
    } for i, r in df.iterrows()])


def _terminator_starts(corpus) -> pd.Series:
    """Absolute offset of each BK file's terminator record: it ends where the background starts."""
    return corpus.offsets("bk_files", "background") - BK_TERMINATOR_SIZE


def _check_ofs_next(corpus) -> pd.DataFrame:
    df = corpus.tables.get("bk_animations")
    files = corpus.tables.get("bk_files")
    if df is None or files is None or not len(df):
        return _empty()
    starts = corpus.offsets("bk_animations", "ofs_next", df.index)
    term_at = dict(zip(files["file"], _terminator_starts(corpus)))
    rows = []
    for file, g in df.sort_values(["file", "animation"]).groupby("file", sort=False):
        st = [int(starts.at[i]) for i in g.index]
        nxt = st[1:] + [int(term_at[file])]
        for i, want in zip(g.index, nxt):
            v = int(df.at[i, "ofs_next"])
            rows.append({"file": file, "holds": v == want, "offset": int(starts.at[i]), "value": v,
                         "detail": f"animation {int(df.at[i, 'anim_number'])}: next record at {want}"})
    return _frame(rows)


def _check_bk_terminator(corpus) -> pd.DataFrame:
    if (files := _rows(corpus, "bk_files")) is None:
        return _empty()
    offs = _terminator_starts(corpus) + 4  # the terminator's anim_number byte
    return _frame([{"file": r["file"], "holds": r["terminator"] == 51, "offset": offs.at[i],
                    "value": int(r["terminator"]), "detail": "animation number of the terminator record"}
                   for i, r in files.iterrows()])


def _nul_or_absent(v) -> bool:
    return v is None or pd.isna(v) or v == 0


AF_DERIVED = (_ofs_terminator_from_end, _af_len_trailing)
BK_DERIVED = (_bk_len_trailing, _colors_max)

AF_CLAIMS = (
    Claim("The byte 31 from the end of an AF file is 250 (>= 70 required)", SOURCE_NOTES, _check_byte_31,
          expected="250"),
    Claim("AF files end with FGHED", SOURCE_NOTES, _check_fghed, expected="FGHED"),
    column_claim("Move footer string length includes its NUL (last counted byte is 0)", SOURCE_OPENOMF,
                 "af_moves", "footer_string.terminator", _nul_or_absent, expected="0"),
    Claim("HAR number equals the number in the file name", SOURCE_NOTES, _check_fighter_id,
          expected="the number in the file name", reads=(("af_fighters", "fighter_id"),)),
    Claim("Move numbers are unique identifiers below 70", SOURCE_NOTES, _check_move_numbers,
          expected="a unique number < 70", reads=(("af_moves", "move_number"),)),
)

BK_CLAIMS = (
    Claim("Each BK animation record starts with the absolute offset of the next record", SOURCE_OPENOMF,
          _check_ofs_next, expected="the next record's offset",
          reads=(("bk_animations", "ofs_next"), ("bk_animations", "anim_number"),
                                  ("bk_files", "background"))),
    Claim("BK animation list ends with animation number 51", SOURCE_OPENOMF, _check_bk_terminator,
          expected="51", reads=(("bk_files", "terminator"), ("bk_files", "background"))),
    row_claim("BK palette colours are 6-bit (0-63)", SOURCE_OPENOMF, "bk_palettes",
              lambda r: r["colors_max"] <= 63, offset_column="colors", value="colors_max",
              expected="<= 63"),
    column_claim("BK footer string length includes its NUL", SOURCE_OPENOMF, "bk_animations",
                 "footer_string.terminator", _nul_or_absent, expected="0"),
)

AF = Format(
    name="af",
    picture="animre.formats.omf.pictures:omf",
    title="One Must Fall 2097 fighter (FIGHTR*.AF)",
    extensions=(".af",),
    detect=detect_af,
    derived=AF_DERIVED,
    claims=AF_CLAIMS,
)

BK = Format(
    name="bk",
    picture="animre.formats.omf.pictures:omf",
    title="One Must Fall 2097 arena / scene (*.BK)",
    extensions=(".bk",),
    detect=detect_bk,
    derived=BK_DERIVED,
    claims=BK_CLAIMS,
)

FORMATS = [AF, BK]
