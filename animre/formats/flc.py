"""FLI/FLC animations, with Civilization III's FlicAnim header (``*.flc``, ``*.fli``).

Tables: ``flc_files`` (one row per file: header, FlicAnim fields, counts),
``flc_frames`` (one row per frame chunk, key ``frame`` = its ordinal among
the frame chunks; ``chunk_index`` = its index among all top-level chunks:
image frame or ring frame, direction, sizes, sub-chunk counts declared vs
found) and ``flc_chunks`` (one row per sub-chunk, keys ``frame`` and
``chunk`` = its index in the frame: type, declared and real size, offset). Frame pixels
are decoded by :mod:`animre.decode.flic`.
"""

from __future__ import annotations

import struct

from ..decode.flic import FRAME_TYPE, frame_roles
from .base import CLAIM_COLUMNS, Claim, F, Format

__all__ = ["FORMAT", "SUB_CHUNK_NAMES", "CHUNK_NAMES", "CIV3_CREATOR"]

SEED = "seeds/004_c186af7a9e412f4e.txt"
NOTES = "formats/NOTES.md section 5"
CIV3_CREATOR = 0xF1F1F2F2
CHUNK_NAMES = {0xF100: "prefix", 0xF1FA: "frame"}
SUB_CHUNK_NAMES = {4: "color_256", 7: "delta_flc", 11: "color_64", 12: "delta_fli", 13: "black",
                   15: "byte_run", 16: "copy", 18: "pstamp"}
PALETTE_TYPES = (4, 11)


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
    if len(head) >= 134 and struct.unpack_from("<H", head, 132)[0] in (0xF100, FRAME_TYPE):
        score += 0.35
    if len(head) >= 0x5C and struct.unpack_from("<I", head, 0x58)[0] == 0x1C:
        score += 0.05
    if name.lower().endswith((".flc", ".fli")):
        score += 0.05
    return min(1.0, score)


def _int(v) -> int:
    return int(getattr(v, "value", v))


def tables(r, ctx) -> dict[str, list[dict]]:
    """Curated tables ``flc_files``, ``flc_frames`` and ``flc_chunks``."""
    h = r.header
    fa = h.flicanim
    roles = {role.chunk: role for role in frame_roles(r)}
    chunk_starts = r._debug["chunks"].get("arr", [])
    frames, subs = [], []
    n_palettes = n_cdcd = n_mismatch = 0
    palette_frames: list[int] = []
    for i, c in enumerate(r.chunks):
        if _int(c.chunk_type) != FRAME_TYPE:
            continue
        role = roles[i]
        ofs = ctx.offset + chunk_starts[i]["start"]
        body = c.body
        body_base = ctx.offset + c._debug["body"]["start"]  # chunks are read from the file's own stream
        sub_starts = body._debug["chunks"].get("arr", [])
        found = len(body.chunks)
        types = []
        for j, s in enumerate(body.chunks):
            t = _int(s.chunk_type)
            types.append(SUB_CHUNK_NAMES.get(t, f"type_{t}"))
            real = sub_starts[j]["end"] - sub_starts[j]["start"]
            if t in PALETTE_TYPES:
                n_palettes += 1
                n_cdcd += not s.has_valid_size
                if role.frame not in palette_frames:
                    palette_frames.append(role.frame)
            subs.append({
                "frame": role.frame,
                "chunk": j,
                "chunk_type": F(s, "chunk_type"),
                "type_name": SUB_CHUNK_NAMES.get(t, f"type_{t}"),
                "len_chunk": F(s, "len_chunk"),
                "len_real": real,
                "size_matches": s.len_chunk == real,
                "ofs_chunk": body_base + sub_starts[j]["start"],
                "image_frame": role.image,
                "is_ring": role.is_ring,
            })
        n_mismatch += body.num_chunks != found
        frames.append({
            "frame": role.frame,
            "chunk_index": i,
            "image_frame": role.image,
            "is_ring": role.is_ring,
            "direction": role.direction,
            "direction_name": role.direction_name,
            "len_chunk": F(c, "len_chunk"),
            "len_real": chunk_starts[i]["end"] - chunk_starts[i]["start"],
            "ofs_chunk": ofs,
            "num_chunks": F(body, "num_chunks"),
            "num_chunks_found": found,
            "delay": F(body, "delay"),
            "reserved_4": F(body, "reserved_4"),
            "width": F(body, "width"),
            "height": F(body, "height"),
            "chunk_types": "+".join(types),
        })
    n_frame_chunks = len(frames)
    n_ring = sum(1 for f in frames if f["is_ring"])
    row = {
        "magic": F(h, "magic"),
        "len_file": F(h, "len_file"),
        "len_file_matches": h.len_file == ctx.size,
        "num_frames": F(h, "num_frames"),
        "width": F(h, "width"),
        "height": F(h, "height"),
        "depth": F(h, "depth"),
        "flags": F(h, "flags"),
        "speed": F(h, "speed"),
        "duration_ms": r.duration_ms,
        "created": F(h, "created"),
        "creator": F(h, "creator"),
        "updated": F(h, "updated"),
        "updater": F(h, "updater"),
        "aspect_x": F(h, "aspect_x"),
        "aspect_y": F(h, "aspect_y"),
        "ofs_frame1": F(h, "ofs_frame1"),
        "ofs_frame2": F(h, "ofs_frame2"),
        "is_flicanim": bool(r.is_flicanim),
        "len_flicanim": F(fa, "len_header"),
        "flicanim_flags": F(fa, "flags"),
        "num_anims": F(fa, "num_anims"),
        "anim_length": F(fa, "anim_length"),
        "x_offset": F(fa, "x_offset"),
        "y_offset": F(fa, "y_offset"),
        "xs_orig": F(fa, "xs_orig"),
        "ys_orig": F(fa, "ys_orig"),
        "anim_time": F(fa, "anim_time"),
        "directions": F(fa, "directions"),
        "num_chunks": len(r.chunks),
        "has_prefix": any(_int(c.chunk_type) == 0xF100 for c in r.chunks),
        "num_frame_chunks": n_frame_chunks,
        "num_image_frames": n_frame_chunks - n_ring,
        "num_ring_frames": n_ring,
        "num_palette_chunks": n_palettes,
        "num_palettes_bad_size": n_cdcd,
        "palette_only_in_first_frame": palette_frames == [0],
        "num_frames_count_mismatch": n_mismatch,
        "is_truncated": bool(r.chunks and r.chunks[-1].is_truncated),
    }
    return {"flc_files": [row], "flc_frames": frames, "flc_chunks": subs}


# ---------------------------------------------------------------------------- claims


def _is_unit(df):
    return df["is_flicanim"].astype(bool) & (df["num_anims"] > 0)


def _claim(text: str, source: str, column: str, predicate, population=_is_unit, detail: str = "",
           located: bool = True) -> Claim:
    """A claim over the ``flc_files`` rows of a population (Civ3 unit FLCs by default).

    ``predicate`` gets the whole row; ``value`` is ``column`` and ``offset`` its
    byte offset (NA when ``located`` is false: a count computed over chunks).
    """

    def check(corpus):
        import pandas as pd

        df = corpus.tables.get("flc_files")
        if df is None or not len(df):
            return pd.DataFrame(columns=CLAIM_COLUMNS)
        sub = df[population(df)]
        return pd.DataFrame({
            "file": sub["file"],
            "holds": [bool(predicate(row)) for _, row in sub.iterrows()],
            "offset": (corpus.offsets("flc_files", column, sub.index) if located
                       else pd.Series(pd.NA, index=sub.index, dtype="Int64")),
            "value": sub[column],
            "detail": detail,
        }, columns=CLAIM_COLUMNS)

    return Claim(text, source, check, "flc")


CLAIMS = (
    _claim("Civ3 FLC header speed is 4", SEED, "speed", lambda r: r["speed"] == 4,
           detail="the seed note says 4; the real settler files hold 44-125 ms (= anim_time / anim_length)"),
    _claim("Civ3 FLC creator is 0xF1F1F2F2 (FLICSPRITE_CREATOR)", SEED, "creator",
           lambda r: r["creator"] == CIV3_CREATOR),
    _claim("xs_orig = ys_orig = 240 (unit sprites are 240 x 240)", SEED, "xs_orig",
           lambda r: r["xs_orig"] == 240 and r["ys_orig"] == 240),
    _claim("header frames = num_anims x anim_length", SEED, "num_frames",
           lambda r: r["num_frames"] == r["num_anims"] * r["anim_length"]),
    _claim("FlicAnimHeader size is 28 (0x1C) in files made by the FlicAnim tool", SEED, "len_flicanim",
           lambda r: r["len_flicanim"] == 28, population=lambda df: df["creator"] == CIV3_CREATOR),
    _claim("directions = 0xFF (all eight directions present)", NOTES, "directions",
           lambda r: r["directions"] == 0xFF),
    _claim("one ring frame after each direction: frame chunks = num_anims x (anim_length + 1)", NOTES,
           "num_frame_chunks", lambda r: r["num_frame_chunks"] == r["num_anims"] * (r["anim_length"] + 1),
           detail="value = frame chunks found", located=False),
    _claim("the actual number of frames is Size + 1 (one ring frame)", SEED, "num_frame_chunks",
           lambda r: r["num_frame_chunks"] == r["num_frames"] + 1,
           detail="the seed note's reading; value = frame chunks found", located=False),
    _claim("anim_time = anim_length x 1000 / fps, fps = 1000 / speed", SEED, "anim_time",
           lambda r: r["anim_time"] == r["anim_length"] * r["speed"]),
    _claim("a palette only in the first frame", NOTES, "palette_only_in_first_frame",
           lambda r: bool(r["palette_only_in_first_frame"]), detail="tested over all frame chunks",
           located=False),
)

FORMAT = Format(
    name="flc",
    spec="flc",
    title="FLI/FLC animation (Civ3 FlicAnim)",
    extensions=(".flc", ".fli"),
    detect=detect,
    tables=tables,
    table_keys={"flc_files": (), "flc_frames": ("frame",), "flc_chunks": ("frame", "chunk")},
    claims=CLAIMS,
)
