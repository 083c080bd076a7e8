"""HoMM2 monster animation files (``*FRM.BIN``, 821 bytes)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..base import Format, derived, file_claim, file_keys, row_claim

__all__ = ["FORMAT", "FRM_SIZE"]

FRM_SIZE = 821


def detect(head: bytes, size: int, name: str) -> float:
    """FRM.BIN: exactly 821 bytes with plausible counts; the name helps."""
    named = name.lower().endswith("frm.bin")
    if size != FRM_SIZE:
        return 0.5 if named else 0.0  # claim it so the size error is reported against FRM
    score = 0.4
    if len(head) >= FRM_SIZE:
        counts = head[243:277]
        if head[0] in (0, 1) and max(counts) <= 64 and head[117] <= 16 and head[186] <= 64:
            score = 0.8
        fids = head[277:821]
        if fids.count(0xFF) > 100:
            score += 0.1
    return min(1.0, score + (0.1 if named else 0.0))


# Public sources, named in words (the project ships no copy of them).
NOTE = "Heroes of Might and Magic II community notes on the monster animation .bin files"
ENGINE = "fheroes2 engine source (monster animation reader)"
FRM = "frm"
SEQ = "frm_sequences"


def _weights(df):
    return df[[f"idle_weights[{i}]" for i in range(5)]].to_numpy(dtype="float64")


@derived(FRM, "idle_weight_sum", ["num_idles"] + [f"idle_weights[{i}]" for i in range(5)],
         "Sum of the first num_idles idle weights (the engine's relative weights).")
def _idle_weight_sum(df, ctx):
    n = df["num_idles"].to_numpy(dtype="int64")
    used = np.arange(5)[None, :] < n[:, None]
    return np.where(used, _weights(df), 0.0).sum(axis=1)


@derived(FRM, "x_offsets_all_zero", [("frm_x_offsets", "offsets")],
         "True when every movement X offset of the file is 0 (expected for flying monsters).")
def _x_offsets_all_zero(df, ctx):
    xo = ctx.table("frm_x_offsets")
    keys = file_keys(df)
    allzero = (xo["offsets"].astype("int64") == 0).groupby([xo[k] for k in keys]).all()
    idx = pd.MultiIndex.from_frame(df[keys]) if len(keys) > 1 else pd.Index(df[keys[0]])
    return allzero.reindex(idx).fillna(True).astype(bool).to_numpy()


@derived(SEQ, "count_matches_fill", ["num_frames", "len_by_fill"],
         "The (clamped) count byte equals the number of frame ids before the 0xFF fill.")
def _count_matches_fill(df, ctx):
    return (df["num_frames"].astype("int64") == df["len_by_fill"].astype("int64")).to_numpy()


@derived("frm_frame_counts", "fill_length", [(SEQ, "len_by_fill")],
         "The slot's sequence length by the 0xFF fill (len_by_fill of frm_sequences), beside its count byte.")
def _fill_length(df, ctx):
    return ctx.lookup(df, SEQ, "len_by_fill")


@derived("frm_frames", "in_sequence", [(SEQ, "num_frames")],
         "The position is inside the sequence (position < num_frames).")
def _in_sequence(df, ctx):
    n = pd.Series(ctx.lookup(df, SEQ, "num_frames")).fillna(0).to_numpy(dtype="int64")
    return df["position"].to_numpy() < n


FORMAT = Format(
    name="frm",
    picture="animre.formats.frm.pictures:frm",
    title="HoMM2 monster animation (*FRM.BIN)",
    extensions=(".bin",),
    detect=detect,
    derived=(_idle_weight_sum, _x_offsets_all_zero, _count_matches_fill, _fill_length, _in_sequence),
    claims=(
        file_claim("FRM files are 821 bytes.", NOTE, "frm",
                   lambda r: r["size"] == FRM_SIZE, offset=lambda r: min(int(r["size"]), FRM_SIZE),
                   expected=str(FRM_SIZE)),
        row_claim("The idle probabilities of the first idle-count idles sum to 1.", NOTE, FRM,
                  lambda r: abs(r["idle_weight_sum"] - 1.0) < 1e-3,
                  offset_column="idle_weights[0]", value="idle_weight_sum", expected="1.0"),
        row_claim("X offsets are all zeros for flying monsters (fly_speed > 0).", NOTE, FRM,
                  lambda r: bool(r["x_offsets_all_zero"]), where=lambda r: r["fly_speed"] > 0,
                  offset=5, value="x_offsets_all_zero", reads=["fly_speed"], expected="True"),
        row_claim("The frame count byte equals the number of ids before the 0xFF fill.", ENGINE,
                  "frm_frame_counts", lambda r: r["num_frames_raw"] == r["fill_length"],
                  offset_column="num_frames_raw", reads=["fill_length"],
                  expected=lambda r: r["fill_length"]),
    ),
)
