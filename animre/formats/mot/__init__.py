"""Naruto GNT4 (GameCube) motion files (``.mot``): a MOT header over GNTA animations.

Tables come from ``ksy/mot.ksy``: ``mot`` (one row per file), ``mot_animations``
(present animation ids, key ``anim_id``), ``mot_tracks`` (key ``track``) and
``mot_keys`` (key ``key``: time, x/y/z/w floats and the raw 16-bit halves).
This module adds what the spec cannot say: detection, columns computed across
records (:data:`DERIVED`) and the notes' statements as claims (:data:`CLAIMS`).
"""

from __future__ import annotations

import struct

import numpy as np
import pandas as pd

from ..base import CLAIM_COLUMNS, Claim, Format, column_claim, derived

__all__ = ["FORMAT", "detect", "DERIVED", "CLAIMS"]

SOURCE_COMMUNITY = "GNT4 community motion-format notes (MOT and GNTA files, by Sifo and Icylittlething)"
SOURCE_NOTES = ("animre format notes on GNT4 MOT/GNTA (docs/formats/mot.md: public reference implementations "
                "and real files)")


def detect(head: bytes, size: int, name: str) -> float:
    """MOT: u4 0, u4 id count, u4 0x10, u4 file size (big-endian); GNTA offsets that fit."""
    named = name.lower().endswith(".mot")
    if len(head) < 16:
        return 0.35 if named else 0.0
    unknown_0, num_ids, len_header, len_file = struct.unpack_from(">IIII", head)
    if len_header != 0x10 or unknown_0 not in (0, 0x10000) or 16 + 4 * num_ids > size or num_ids == 0:
        return 0.35 if named else 0.0
    score = 0.45
    if len_file == size:
        score += 0.3
    n = min(num_ids, (len(head) - 16) // 4)
    offsets = struct.unpack_from(f">{n}I", head, 16) if n else ()
    present = [o for o in offsets if o]
    if present and all(16 + 4 * num_ids <= o <= size - 16 for o in present):
        score += 0.1
        first = present[0]
        if first + 8 <= len(head):
            num_tracks, len_gnta = struct.unpack_from(">II", head, first)
            if len_gnta == 0x10 and 16 + 32 * num_tracks <= size - first:
                score += 0.1
    elif present:
        score -= 0.2
    return min(1.0, score + (0.05 if named else 0.0))


# ------------------------------------------------------------------ derived columns


@derived("mot", "real_size", [], "Real length of the file in bytes (from the files table).")
def _real_size(df, ctx):
    return ctx.file_sizes(df)


@derived("mot", "num_animations", [("mot_animations", "ofs_gnta")],
         "Number of animation ids with a GNTA (non-zero offset).")
def _num_animations(df, ctx):
    an = ctx.table("mot_animations")
    return df["file"].map(an.groupby("file").size()).fillna(0).astype("Int64")


@derived("mot_animations", "storage_rank", ["ofs_gnta"],
         "Position of the animation in the file (0 = stored first, lowest offset).")
def _storage_rank(df, ctx):
    return (df.groupby("file")["ofs_gnta"].rank(method="first") - 1).astype("Int64")


@derived("mot_animations", "max_total_time", [("mot_tracks", "total_time")],
         "Largest total time of the animation's tracks (seconds); the notes' end time should equal it.")
def _max_total_time(df, ctx):
    mx = ctx.table("mot_tracks").groupby(["file", "anim_id"])["total_time"].max()
    idx = pd.MultiIndex.from_frame(df[["file", "anim_id"]])
    return pd.Series(mx.reindex(idx).to_numpy(), index=df.index)


@derived("mot_keys", "bone_id", [("mot_tracks", "bone_id")],
         "Bone of the key's track (a copy of mot_tracks.bone_id, to select a bone's keys without a join).")
def _key_bone_id(df, ctx):
    return pd.Series(ctx.lookup(df, "mot_tracks", "bone_id"), index=df.index).astype("Int64")


DERIVED = (_real_size, _num_animations, _storage_rank, _max_total_time, _key_bone_id)


# ------------------------------------------------------------------ claims


def _check_len_file(corpus) -> pd.DataFrame:
    df = corpus.tables.get("mot")
    if df is None or not len(df) or "len_file" not in df:
        return pd.DataFrame(columns=CLAIM_COLUMNS)
    sizes = corpus.files.drop_duplicates("file").set_index("file")["size"]
    real = df["file"].map(sizes)
    return pd.DataFrame({
        "file": df["file"],
        "holds": (df["len_file"] == real).astype(bool),
        "offset": corpus.offsets("mot", "len_file", df.index),
        "value": df["len_file"],
        "detail": "real size " + real.astype("Int64").astype(str),
        "expected": real.astype("Int64"),
    }, columns=CLAIM_COLUMNS)


def _check_descending(corpus) -> pd.DataFrame:
    """Every animation but the lowest id of its file lies before the previous id's animation."""
    df = corpus.tables.get("mot_animations")
    if df is None or not len(df) or "ofs_gnta" not in df:
        return pd.DataFrame(columns=CLAIM_COLUMNS)
    g = df.sort_values(["file", "anim_id"], kind="stable")
    same = g["file"].eq(g["file"].shift())
    prev_ofs = g["ofs_gnta"].shift()
    prev_id = g["anim_id"].shift()
    g, prev_ofs, prev_id = g[same], prev_ofs[same].astype(np.int64), prev_id[same].astype(np.int64)
    detail = [f"id {a:#x} at {o:#x} after id {pa:#x} at {po:#x}"
              for a, o, pa, po in zip(g["anim_id"], g["ofs_gnta"], prev_id, prev_ofs)]
    out = pd.DataFrame({
        "file": g["file"],
        "holds": (g["ofs_gnta"] < prev_ofs).astype(bool),
        "offset": corpus.offsets("mot_animations", "ofs_gnta", g.index),
        "value": g["ofs_gnta"],
        "detail": detail,
    }, columns=CLAIM_COLUMNS)
    out["offset"] = out["offset"].astype("Int64")
    return out.reset_index(drop=True)


CLAIMS = (
    Claim("MOT file size field equals the real file length", SOURCE_NOTES, _check_len_file,
          reads=(("mot", "len_file"),)),
    Claim("Animations are stored in descending id order", SOURCE_NOTES, _check_descending,
          expected="an offset below the previous id's",
          reads=(("mot_animations", "ofs_gnta"),)),
    column_claim("Track total time is frames / 60 (a whole number of frames)", SOURCE_COMMUNITY, "mot_tracks",
                 "total_time", lambda v: abs(v * 60 - round(v * 60)) < 1e-3,
                 expected="a multiple of 1/60"),
)

FORMAT = Format(
    name="mot",
    picture="animre.formats.mot.pictures:mot",
    title="Naruto GNT4 motion file (MOT/GNTA)",
    extensions=(".mot",),
    detect=detect,
    derived=DERIVED,
    claims=CLAIMS,
)
