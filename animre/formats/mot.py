"""Naruto GNT4 (GameCube) motion files (``.mot``): a MOT header over GNTA animations."""

from __future__ import annotations

import struct

import pandas as pd

from ..decode.gnt4 import half_to_float
from .base import CLAIM_COLUMNS, Claim, F, Format, column_claim

__all__ = ["FORMAT", "detect", "tables"]

SOURCE_SEED = "seeds/002_964d7e002e7b5b15.txt"
SOURCE_NOTES = "formats/NOTES.md section 3"


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


def _half(v: int) -> float:
    return float(half_to_float(v))


def tables(r, ctx) -> dict[str, list[dict]]:
    """Curated tables: ``mot`` (one row per file), ``mot_animations``, ``mot_tracks``, ``mot_keys``."""
    present = [s for s in r.anims if s.ofs_gnta != 0]
    mot = [{
        "unknown_0": F(r, "unknown_0"),
        "num_anim_ids": F(r, "num_anim_ids"),
        "len_header": F(r, "len_header"),
        "len_file": F(r, "len_file"),
        "real_size": ctx.size,
        "num_animations": len(present),
        "len_pad_offsets": r.len_pad_offsets,
        "pad_offsets": F(r, "pad_offsets"),
    }]
    storage_rank = {id(s): k for k, s in enumerate(sorted(present, key=lambda s: s.ofs_gnta))}
    anims, tracks, keys = [], [], []
    for s in present:
        g = s.gnta
        aid = s.anim_id
        anims.append({
            "anim_id": aid,
            "offset": F(s, "ofs_gnta"),
            "num_tracks": F(g, "num_tracks"),
            "len_header": F(g, "len_header"),
            "play_speed": F(g, "play_speed"),
            "end_time": F(g, "end_time"),
            "storage_rank": storage_rank[id(s)],
            "max_total_time": max((t.total_time for t in g.tracks), default=None),
        })
        for t in g.tracks:
            ti = t.track_index
            tracks.append({
                "anim_id": aid,
                "track": ti,
                "offset": g.ofs_base + 16 + 32 * ti,
                "flags": F(t, "flags"),
                "len_component": t.len_component,
                "has_coords_flag": t.has_coords_flag,
                "track_flags": F(t, "track_flags"),
                "kind": getattr(t.kind, "name", None),
                "is_enabled": t.is_enabled,
                "is_disabled": t.is_disabled,
                "bone_id": F(t, "bone_id"),
                "bone_name": getattr(t.bone, "name", None),
                "num_keys": F(t, "num_keys"),
                "total_time": F(t, "total_time"),
                "unknown_0c": F(t, "unknown_0c"),
                "ofs_times": F(t, "ofs_times"),
                "ofs_coords": F(t, "ofs_coords"),
                "unknown_18": F(t, "unknown_18"),
                "unknown_1c": F(t, "unknown_1c"),
                "last_key_time": t.times[-1] if t.num_keys else None,
                "pad_times": F(t, "pad_times"),
                "pad_coords": F(t, "pad_coords") if t.has_coords else None,
            })
            coords = t.coords if t.has_coords else None
            half = t.len_component == 2
            for k in range(t.num_keys):
                row = {"anim_id": aid, "track": ti, "key": k, "bone_id": t.bone_id, "time": F(t, "times", k)}
                c = coords[k] if coords else None
                for comp in "xyzw":
                    if c is None:
                        row[comp] = None
                    elif half:
                        row[comp] = F(c, comp, transform=_half)
                    else:
                        row[comp] = F(c, comp)
                for comp in "xyzw":
                    row[f"{comp}_raw"] = F(c, comp) if (c is not None and half) else None
                keys.append(row)
    return {"mot": mot, "mot_animations": anims, "mot_tracks": tracks, "mot_keys": keys}


def _empty() -> pd.DataFrame:
    return pd.DataFrame(columns=CLAIM_COLUMNS)


def _check_len_file(corpus) -> pd.DataFrame:
    df = corpus.tables.get("mot")
    if df is None or not len(df):
        return _empty()
    starts = corpus.offsets("mot", "len_file")
    return pd.DataFrame({
        "file": df["file"],
        "holds": (df["len_file"] == df["real_size"]).astype(bool),
        "offset": starts,
        "value": df["len_file"],
        "detail": [f"real size {n}" for n in df["real_size"]],
    })


def _check_descending(corpus) -> pd.DataFrame:
    df = corpus.tables.get("mot_animations")
    if df is None or not len(df):
        return _empty()
    starts = corpus.offsets("mot_animations", "offset")
    rows = []
    for file, g in df.groupby("file", sort=False):
        g = g.sort_values("anim_id")
        prev = None
        for i, r in g.iterrows():
            if prev is not None:
                rows.append({
                    "file": file,
                    "holds": bool(r["offset"] < prev[1]),
                    "offset": starts.at[i],
                    "value": int(r["offset"]),
                    "detail": f"id {int(r['anim_id']):#x} at {int(r['offset']):#x} after id {prev[0]:#x} at {prev[1]:#x}",
                })
            prev = (int(r["anim_id"]), int(r["offset"]))
    out = pd.DataFrame(rows, columns=CLAIM_COLUMNS)
    out["offset"] = out["offset"].astype("Int64")
    return out


CLAIMS = (
    column_claim("MOT header size is always 0x10", SOURCE_SEED, "mot", "len_header", lambda v: v == 0x10),
    Claim("MOT file size field equals the real file length", SOURCE_NOTES, _check_len_file, "mot"),
    column_claim("MOT header word 0 is zero (padding)", SOURCE_SEED, "mot", "unknown_0", lambda v: v == 0),
    column_claim("Animations are 16-byte aligned", SOURCE_NOTES, "mot_animations", "offset",
                 lambda v: v % 16 == 0),
    Claim("Animations are stored in descending id order", SOURCE_NOTES, _check_descending, "mot"),
    column_claim("GNTA header size is always 0x10", SOURCE_SEED, "mot_animations", "len_header",
                 lambda v: v == 0x10),
    column_claim("GNTA play speed is usually between .03 and .25", SOURCE_SEED, "mot_animations", "play_speed",
                 lambda v: 0.03 <= v <= 0.25),
    column_claim("GNTA end time is usually between .03 and 5.0", SOURCE_SEED, "mot_animations", "end_time",
                 lambda v: 0.03 <= v <= 5.0),
    column_claim("Track flags are 0x0202 or 0x0000", SOURCE_SEED, "mot_tracks", "flags",
                 lambda v: v in (0x0202, 0x0000), detail="flags u2 at track header +0x00"),
    column_claim("Track total time is frames / 60 (a whole number of frames)", SOURCE_SEED, "mot_tracks",
                 "total_time", lambda v: abs(v * 60 - round(v * 60)) < 1e-3),
    column_claim("Track header word at 0x0C is zero (padding)", SOURCE_SEED, "mot_tracks", "unknown_0c",
                 lambda v: v == 0),
    column_claim("Track header word at 0x18 is zero (padding)", SOURCE_SEED, "mot_tracks", "unknown_18",
                 lambda v: v == 0),
)

FORMAT = Format(
    name="mot",
    spec="mot",
    title="Naruto GNT4 motion file (MOT/GNTA)",
    extensions=(".mot",),
    detect=detect,
    tables=tables,
    table_keys={
        "mot": (),
        "mot_animations": ("anim_id",),
        "mot_tracks": ("anim_id", "track"),
        "mot_keys": ("anim_id", "track", "key"),
    },
    claims=tuple(Claim(c.text, c.source, c.check, "mot") for c in CLAIMS),
)
