"""HoMM2 monster animation files (``*FRM.BIN``, 821 bytes)."""

from __future__ import annotations

from .base import F, Format, column_claim, file_claim, row_claim

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


def tables(r, ctx) -> dict[str, list[dict]]:
    """Curated tables: ``frm`` (one row per file), ``frm_slots``, ``frm_sequences``."""
    row = {
        "unknown_magic": F(r, "unknown_magic"),
        "eye_x": F(r, "eye_x"),
        "eye_y": F(r, "eye_y"),
        "num_idles_raw": F(r, "num_idles_raw"),
        "num_idles": r.num_idles,
    }
    for i in range(5):
        row[f"idle_weight_{i}"] = F(r, "idle_weights", i)
    for i in range(5):
        row[f"idle_delay_{i}"] = F(r, "idle_delays", i)
    for k in ("idle_interval", "walk_speed", "shoot_speed", "fly_speed"):
        row[k] = F(r, k)
    for i, d in enumerate(("up", "straight", "down")):
        row[f"projectile_{d}_x"] = F(r.projectile_offsets[i], "x")
        row[f"projectile_{d}_y"] = F(r.projectile_offsets[i], "y")
    row["num_projectile_frames_raw"] = F(r, "num_projectile_frames_raw")
    row["num_projectile_frames"] = r.num_projectile_frames
    for i in range(12):
        row[f"projectile_angle_{i}"] = F(r, "projectile_angles", i)
    row["troop_box_left"] = F(r, "troop_box_left")
    row["troop_box_right"] = F(r, "troop_box_right")
    row["idle_weight_sum"] = float(sum(r.idle_weights[: r.num_idles]))
    row["x_offsets_all_zero"] = all(o == 0 for xo in r.x_offsets for o in xo.offsets)

    slots, seqs = [], []
    for s in r.sequences:
        slots.append({
            "slot": s.slot,
            "slot_name": s.slot_name.name,
            "num_frames_raw": F(r, "num_frames_raw", s.slot),
            "num_frames": s.num_frames,
            "len_by_fill": s.len_by_fill,
            "count_matches_fill": s.num_frames == s.len_by_fill,
        })
        for p in range(16):
            seqs.append({
                "slot": s.slot,
                "slot_name": s.slot_name.name,
                "position": p,
                "frame_id": F(s, "frame_ids", p),
                "in_sequence": p < s.num_frames,
                "x_offset": F(r.x_offsets[s.slot], "offsets", p) if s.slot < 7 else None,
            })
    return {"frm": [row], "frm_slots": slots, "frm_sequences": seqs}


FORMAT = Format(
    name="frm",
    spec="frm",
    title="HoMM2 monster animation (*FRM.BIN)",
    extensions=(".bin",),
    detect=detect,
    tables=tables,
    table_keys={"frm": (), "frm_slots": ("slot",), "frm_sequences": ("slot", "position")},
    claims=(
        file_claim("FRM files are 821 bytes.", "seeds/001_0340b32678dbfebf.txt", "frm",
                   lambda r: r["size"] == FRM_SIZE, offset=lambda r: min(int(r["size"]), FRM_SIZE)),
        column_claim("FRM byte 0 is 0x01 (magic value).", "seeds/001_0340b32678dbfebf.txt",
                     "frm", "unknown_magic", lambda v: v == 1),
        row_claim("The idle probabilities of the first idle-count idles sum to 1.",
                  "seeds/001_0340b32678dbfebf.txt", "frm",
                  lambda r: abs(r["idle_weight_sum"] - 1.0) < 1e-3,
                  offset_column="idle_weight_0", value="idle_weight_sum"),
        column_claim("Each animation section has at most 16 frames.", "seeds/001_0340b32678dbfebf.txt",
                     "frm_slots", "num_frames_raw", lambda v: v <= 16),
        row_claim("Section 7 (slot 6) is not in use (always empty).", "seeds/001_0340b32678dbfebf.txt",
                  "frm_slots", lambda r: r["num_frames_raw"] == 0 and r["len_by_fill"] == 0,
                  where=lambda r: r["slot"] == 6, offset_column="num_frames_raw"),
        row_claim("X offsets are all zeros for flying monsters (fly_speed > 0).",
                  "seeds/001_0340b32678dbfebf.txt", "frm", lambda r: bool(r["x_offsets_all_zero"]),
                  where=lambda r: r["fly_speed"] > 0, offset=5, value="x_offsets_all_zero"),
        row_claim("The frame count byte equals the number of ids before the 0xFF fill.",
                  "formats/NOTES.md §2", "frm_slots",
                  lambda r: r["num_frames_raw"] == r["len_by_fill"], offset_column="num_frames_raw"),
        column_claim("The idle animation count is at most 5.", "formats/NOTES.md §2", "frm",
                     "num_idles_raw", lambda v: v <= 5),
        column_claim("The projectile sprite count is at most 12.", "formats/NOTES.md §2", "frm",
                     "num_projectile_frames_raw", lambda v: v <= 12),
    ),
)

