"""FLI/FLC animations, with Civilization III's FlicAnim header (``*.flc``, ``*.fli``).

The tables come from ``ksy/flc.ksy``: ``flc_files`` (one row per file:
``header.*``, ``header.flicanim.*`` and the root instances), ``flc_frames``
(one row per frame chunk, key ``chunk_index`` = the chunk's index among all
top-level chunks: ``len_chunk``, ``body.num_chunks``, ``body.delay``, ...) and
``flc_chunks`` (one row per sub-chunk of a frame, keys ``chunk_index`` and
``chunk`` = its index in the frame). This module adds what the spec cannot
say, computed for the whole corpus (:data:`DERIVED`): each frame's role
(``frame`` ordinal among the frame chunks, ``image_frame``, ``is_ring``,
``direction``, ``direction_name``; the rule of
:func:`animre.formats.flc.decode.frame_roles`), the sub-chunk types of a frame, the
real size of sub-chunks (``len_real``; original Civ3 palettes declare
0xCDCDCDCD) and per-file counts. Frame pixels are decoded by
:mod:`animre.formats.flc.decode`.
"""

from __future__ import annotations

import struct

import numpy as np
import pandas as pd

from ..base import Format, derived, file_keys, row_claim
from .decode import FRAME_TYPE, PREFIX_TYPE, roles_from_counts

__all__ = ["FORMAT", "DERIVED", "CIV3_CREATOR"]

# Public sources, named in words (the project ships no copy of them).
NOTE = "Civilization III FlicAnim community notes"
CIV3_CREATOR = 0xF1F1F2F2

FILES, FRAMES, CHUNKS = "flc_files", "flc_frames", "flc_chunks"
# flc_files columns the frame roles depend on
_ROLE_READS = [(FILES, "is_flicanim"), (FILES, "header.num_frames"), (FILES, "header.flicanim.num_anims"),
               (FILES, "header.flicanim.anim_length"), (FILES, "header.flicanim.directions"),
               (FRAMES, "chunk_index")]


def detect(head: bytes, size: int, name: str) -> float:
    """FLI/FLC: magic 0xAF11/0xAF12 at offset 4 and a prefix or frame chunk at 128."""
    if len(head) < 16:
        return 0.0
    (magic,) = struct.unpack_from("<H", head, 4)
    if magic not in (0xAF11, 0xAF12):
        return 0.0
    score = 0.45
    width, height, depth = struct.unpack_from("<HHH", head, 8)
    if depth in (0, 8) and width and height:
        score += 0.1
    if len(head) >= 134 and struct.unpack_from("<H", head, 132)[0] in (PREFIX_TYPE, FRAME_TYPE):
        score += 0.35
    if len(head) >= 0x5C and struct.unpack_from("<I", head, 0x58)[0] == 0x1C:
        score += 0.05
    if name.lower().endswith((".flc", ".fli")):
        score += 0.05
    return min(1.0, score)


# ---------------------------------------------------------------------------- derived columns


def _per_file(values: pd.Series, files: pd.DataFrame, fill) -> np.ndarray:
    """A per-file Series (indexed by the file keys) aligned with the rows of ``files``."""
    keys = file_keys(files)
    idx = pd.MultiIndex.from_frame(files[keys]) if len(keys) > 1 else pd.Index(files[keys[0]])
    return values.reindex(idx).fillna(fill).to_numpy()


def _frame_ordinal(fr: pd.DataFrame) -> np.ndarray:
    """Ordinal of each frame chunk among its file's frame chunks (0-based)."""
    if not len(fr):
        return np.zeros(0, dtype="int64")
    keys = file_keys(fr)
    return (fr.groupby(keys)["chunk_index"].rank(method="first").to_numpy(dtype="int64") - 1)


def _roles(fr: pd.DataFrame, ctx) -> pd.DataFrame:
    """Frame roles of every frame chunk by the decoder's own rule (roles_from_counts), computed once per open."""
    return ctx.shared("flc roles", lambda: _compute_roles(fr, ctx))


def _runs(df: pd.DataFrame, keys: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Start and end row of each run of equal ``keys`` in a frame sorted by them."""
    if not len(df):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    change = np.zeros(len(df), dtype=bool)
    change[0] = True
    for k in keys:
        v = df[k].to_numpy()
        change[1:] |= v[1:] != v[:-1]
    starts = np.flatnonzero(change)
    return starts, np.append(starts[1:], len(df))


def _compute_roles(fr: pd.DataFrame, ctx) -> pd.DataFrame:
    keys = file_keys(fr)
    cols = ["header.num_frames", "is_flicanim"] + [f"header.flicanim.{c}"
                                                   for c in ("num_anims", "anim_length", "directions")]
    files = ctx.table(FILES).drop_duplicates(keys)
    fs = fr.sort_values(keys + ["chunk_index"])
    head = fs[keys].merge(files[keys + cols], on=keys, how="left")
    chunk_index = fs["chunk_index"].to_numpy().tolist()
    num_frames = head["header.num_frames"].to_numpy()
    is_anim = head["is_flicanim"].to_numpy()
    civ = head[cols[2:]].to_numpy()
    roles: list = []
    for s, e in zip(*_runs(fs, keys)):
        civ3 = tuple(int(x) for x in civ[s]) if bool(is_anim[s]) else None
        roles += roles_from_counts(int(num_frames[s]), chunk_index[s:e], civ3)
    return pd.DataFrame({
        "frame": np.array([r.frame for r in roles], dtype="int64"),
        "image_frame": pd.array([r.image for r in roles], dtype="Int64"),
        "is_ring": np.array([r.is_ring for r in roles], dtype=bool),
        "direction": pd.array([r.direction for r in roles], dtype="Int64"),
        "direction_name": np.array([r.direction_name for r in roles], dtype=object),
    }, index=fs.index).reindex(fr.index)


@derived(FRAMES, "frame", ["chunk_index"], "Ordinal of the frame chunk among the file's frame chunks (0-based).")
def _frame(df, ctx):
    return _frame_ordinal(df)


@derived(FRAMES, "image_frame", _ROLE_READS,
         "Index of the image the frame shows (NA for a ring frame): the counting rule of frame_roles.")
def _image_frame(df, ctx):
    return _roles(df, ctx)["image_frame"]


@derived(FRAMES, "is_ring", _ROLE_READS,
         "True for a ring frame (Civ3: one after each direction; otherwise a last frame beyond num_frames).")
def _is_ring(df, ctx):
    return _roles(df, ctx)["is_ring"].to_numpy()


@derived(FRAMES, "direction", _ROLE_READS, "Civ3: index of the direction group the frame belongs to.")
def _direction(df, ctx):
    return _roles(df, ctx)["direction"]


@derived(FRAMES, "direction_name", _ROLE_READS,
         "Civ3: SW, S, SE, E, NE, N, NW or W (the n-th set bit of header.flicanim.directions).")
def _direction_name_col(df, ctx):
    return _roles(df, ctx)["direction_name"].to_numpy()


@derived(FRAMES, "chunk_types", ["chunk_index", (CHUNKS, "chunk"), (CHUNKS, "chunk_type"),
                                 (CHUNKS, "chunk_type_name")],
         "The frame's sub-chunk types in order, joined by '+' ('' for an empty frame).")
def _chunk_types(df, ctx):
    ch = ctx.table(CHUNKS)
    keys = file_keys(df) + ["chunk_index"]
    if not len(ch):
        return np.full(len(df), "", dtype=object)
    ch = ch.sort_values(keys + ["chunk"])
    names = ch["chunk_type_name"].where(ch["chunk_type_name"].notna(),
                                        "type_" + ch["chunk_type"].astype("int64").astype(str)).to_numpy().tolist()
    starts, ends = _runs(ch, keys)
    joined = pd.Series(["+".join(names[s:e]) for s, e in zip(starts, ends)],
                       index=pd.MultiIndex.from_frame(ch[keys].iloc[starts]))
    return joined.reindex(pd.MultiIndex.from_frame(df[keys])).fillna("").to_numpy()


@derived(CHUNKS, "frame", ["chunk_index", (FRAMES, "chunk_index")],
         "Ordinal of the sub-chunk's frame among the file's frame chunks (flc_frames.frame).")
def _chunk_frame(df, ctx):
    fr = ctx.table(FRAMES)
    keys = file_keys(df) + ["chunk_index"]
    ords = fr[keys].assign(frame=_frame_ordinal(fr))
    return df[keys].merge(ords, on=keys, how="left")["frame"].to_numpy()


@derived(CHUNKS, "len_real", ["chunk_index", "chunk", "len_chunk", (FRAMES, "chunk_index"), (FRAMES, "len_chunk"),
                              (FRAMES, "len_body")],
         "Bytes the sub-chunk really spans: up to the next sub-chunk or the end of its frame "
         "(differs from len_chunk for palettes declaring 0xCDCDCDCD).")
def _len_real(df, ctx):
    keys = file_keys(df) + ["chunk_index"]
    fr = ctx.table(FRAMES)
    frame_end = (ctx.starts(FRAMES, "len_chunk") + 6 + fr["len_body"].astype("Int64")).rename("_end")
    ends = df[keys].merge(fr[keys].assign(_end=frame_end.to_numpy()), on=keys, how="left")["_end"]
    start = ctx.starts(CHUNKS, "len_chunk")
    order = df.sort_values(keys + ["chunk"]).index
    nxt = start.loc[order].groupby([df.loc[order, k] for k in keys]).shift(-1).reindex(df.index)
    end = nxt.fillna(pd.Series(ends.to_numpy(), index=df.index).astype("Int64"))
    return (end - start).astype("Int64")


def _count(df, ctx, table: str, mask_fn) -> np.ndarray:
    t = ctx.table(table)
    keys = file_keys(df)
    if not len(t):
        return np.zeros(len(df), dtype="int64")
    m = mask_fn(t)
    counts = m.groupby([t[k] for k in keys]).sum()
    return _per_file(counts, df, 0).astype("int64")


@derived(FILES, "num_frame_chunks", [(FRAMES, "chunk_index")], "Number of frame chunks (0xF1FA) in the file.")
def _num_frame_chunks(df, ctx):
    return _count(df, ctx, FRAMES, lambda t: pd.Series(True, index=t.index))


@derived(FILES, "num_ring_frames", [(FRAMES, "is_ring"), *_ROLE_READS], "Number of ring frames (flc_frames.is_ring).")
def _num_ring_frames(df, ctx):
    return _count(df, ctx, FRAMES, lambda t: t["is_ring"].astype(bool))


@derived(FILES, "num_image_frames", [(FRAMES, "is_ring"), *_ROLE_READS],
         "Number of frame chunks that are not ring frames.")
def _num_image_frames(df, ctx):
    return _count(df, ctx, FRAMES, lambda t: ~t["is_ring"].astype(bool))


@derived(FILES, "num_palette_chunks", [(CHUNKS, "is_palette")], "Number of COLOR_256 and COLOR_64 sub-chunks.")
def _num_palette_chunks(df, ctx):
    return _count(df, ctx, CHUNKS, lambda t: t["is_palette"].astype(bool))


@derived(FILES, "num_palettes_bad_size", [(CHUNKS, "is_palette"), (CHUNKS, "has_valid_size")],
         "Palette sub-chunks whose declared size is impossible (0xCDCDCDCD in original Civ3 files).")
def _num_palettes_bad_size(df, ctx):
    return _count(df, ctx, CHUNKS, lambda t: t["is_palette"].astype(bool) & ~t["has_valid_size"].astype(bool))


@derived(FILES, "palette_only_in_first_frame", [(CHUNKS, "is_palette"), (CHUNKS, "frame"), *_chunk_frame.reads],
         "True when the file has palette sub-chunks and all of them are in the first frame chunk.")
def _palette_only_in_first_frame(df, ctx):
    ch = ctx.table(CHUNKS)
    if not len(ch):
        return np.zeros(len(df), dtype=bool)
    pal = ch[ch["is_palette"].astype(bool)]
    keys = file_keys(df)
    only_first = (pal["frame"] == 0).groupby([pal[k] for k in keys]).all()
    return _per_file(only_first, df, False).astype(bool)


@derived(FILES, "num_frames_count_mismatch", [(FRAMES, "body.num_chunks"), (FRAMES, "body.num_chunks_found")],
         "Frames whose declared sub-chunk count differs from the sub-chunks they hold.")
def _num_frames_count_mismatch(df, ctx):
    return _count(df, ctx, FRAMES, lambda t: t["body.num_chunks"] != t["body.num_chunks_found"])


# Order matters: a derived column may read the ones before it (flc_files counts read flc_frames.is_ring
# and flc_chunks.frame); it then also declares the spec columns those read, so a renamed field
# makes every column computed from it "not testable", directly or not.
DERIVED = (_frame, _image_frame, _is_ring, _direction, _direction_name_col, _chunk_types, _chunk_frame,
           _len_real, _num_frame_chunks, _num_ring_frames, _num_image_frames, _num_palette_chunks,
           _num_palettes_bad_size, _palette_only_in_first_frame, _num_frames_count_mismatch)


# ---------------------------------------------------------------------------- claims

_UNIT_READS = ["is_flicanim", "header.flicanim.num_anims"]


def _is_unit(r) -> bool:
    return bool(r["is_flicanim"]) and r["header.flicanim.num_anims"] > 0


def _claim(text: str, source: str, column: str, predicate, *, reads=(), where=_is_unit,
           where_reads=_UNIT_READS, detail: str = "", at: str | None = "", uses=(), expected=""):
    """A claim over the ``flc_files`` rows of Civ3 unit FLCs (by default).

    ``predicate`` gets the whole row; ``value`` is ``column`` and ``offset`` the
    byte offset of ``at`` (default: ``column``; a count computed over chunks
    points at the header field it is compared with; None: no single place).
    ``reads``: the other columns the predicate uses; ``uses``: the derived
    columns it reads, whose spec columns it reads too; ``expected``: what the
    claim expects, text or a function of the row.
    """
    via = [r for d in uses for r in d.reads]
    return row_claim(text, source, FILES, predicate, where=where,
                     offset_column=column if at == "" else at, value=column, detail=detail,
                     format="flc", reads=list(reads) + list(where_reads) + via, expected=expected)


CLAIMS = (
    _claim("Civ3 FLC header speed is 4", NOTE, "header.speed", lambda r: r["header.speed"] == 4, expected="4",
           detail="the notes say 4; this corpus holds {range} ms (= anim_time / anim_length)"),
    _claim("Civ3 FLC creator is 0xF1F1F2F2 (FLICSPRITE_CREATOR)", NOTE, "header.creator",
           lambda r: r["header.creator"] == CIV3_CREATOR, expected=f"{CIV3_CREATOR:#X}".replace("0X", "0x")),
    _claim("xs_orig = ys_orig = 240 (unit sprites are 240 x 240)", NOTE, "header.flicanim.xs_orig",
           lambda r: r["header.flicanim.xs_orig"] == 240 and r["header.flicanim.ys_orig"] == 240,
           reads=["header.flicanim.ys_orig"], expected="240 and ys_orig 240"),
    _claim("header frames = num_anims x anim_length", NOTE, "header.num_frames",
           lambda r: r["header.num_frames"] == r["header.flicanim.num_anims"] * r["header.flicanim.anim_length"],
           reads=["header.flicanim.anim_length"],
           expected=lambda r: r["header.flicanim.num_anims"] * r["header.flicanim.anim_length"]),
    _claim("FlicAnimHeader size is 28 (0x1C) in files made by the FlicAnim tool", NOTE,
           "header.flicanim.len_header", lambda r: r["header.flicanim.len_header"] == 28, expected="28",
           where=lambda r: r["header.creator"] == CIV3_CREATOR, where_reads=["header.creator"]),
    _claim("directions = 0xFF (all eight directions present)", NOTE, "header.flicanim.directions",
           lambda r: r["header.flicanim.directions"] == 0xFF, expected="0xFF"),
    _claim("one ring frame after each direction: frame chunks = num_anims x (anim_length + 1)", NOTE,
           "num_frame_chunks",
           lambda r: r["num_frame_chunks"] == r["header.flicanim.num_anims"] * (r["header.flicanim.anim_length"] + 1),
           reads=["header.flicanim.anim_length", "header.num_frames"],
           detail="value = frame chunks found; offset = the header's frame count", at="header.num_frames",
           uses=[_num_frame_chunks],
           expected=lambda r: r["header.flicanim.num_anims"] * (r["header.flicanim.anim_length"] + 1)),
    _claim("the actual number of frames is Size + 1 (one ring frame)", NOTE, "num_frame_chunks",
           lambda r: r["num_frame_chunks"] == r["header.num_frames"] + 1, reads=["header.num_frames"],
           detail="the notes' reading; value = frame chunks found; offset = the header's frame count",
           at="header.num_frames", uses=[_num_frame_chunks], expected=lambda r: r["header.num_frames"] + 1),
    _claim("anim_time = anim_length x 1000 / fps, fps = 1000 / speed", NOTE, "header.flicanim.anim_time",
           lambda r: r["header.flicanim.anim_time"] == r["header.flicanim.anim_length"] * r["header.speed"],
           reads=["header.flicanim.anim_length", "header.speed"],
           expected=lambda r: r["header.flicanim.anim_length"] * r["header.speed"]),
    _claim("a palette only in the first frame", NOTE, "palette_only_in_first_frame",
           lambda r: bool(r["palette_only_in_first_frame"]), detail="tested over all frame chunks",
           at=None, uses=[_palette_only_in_first_frame], expected="True"),
)

FORMAT = Format(
    name="flc",
    picture="animre.formats.flc.pictures:flc",
    title="FLI/FLC animation (Civ3 FlicAnim)",
    extensions=(".flc", ".fli"),
    detect=detect,
    derived=DERIVED,
    claims=CLAIMS,
)
