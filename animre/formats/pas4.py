"""Retro Studios PAS4 parameterized animation state databases (bare or inside ANCS/CHAR)."""

from __future__ import annotations

import enum
import struct

import pandas as pd

from .base import CLAIM_COLUMNS, Claim, F, Format, column_claim

__all__ = ["FORMAT", "MAGIC", "locate", "detect"]

MAGIC = b"PAS4"
SEED = "seeds/003_5577d22ffc5200a7.txt"
NOTES = "formats/NOTES.md section 4"
CONTAINER_SUFFIXES = (".ancs", ".char")


def _plausible(buf: bytes, off: int, total: int) -> bool:
    """Whether a PAS4 header at ``off`` fits: state count within the bytes left, sane default."""
    if off + 12 > len(buf):
        return False
    n, default = struct.unpack_from(">Ii", buf, off + 4)
    return n * 12 <= total - off - 12 and -1 <= default <= 0xFFFF and (n > 0 or default == -1)


def locate(data: bytes) -> int:
    """Offset of the PAS4 block: 0 for a bare block, else the first plausible ``PAS4`` magic.

    Container files (ANCS, CHAR) have no length or offset field for the block,
    so it is found by its magic; a ``PAS4`` string whose header cannot be a
    database (e.g. inside a name) is skipped. Without a plausible one the
    first occurrence is returned (so the parse error explains why), and -1
    when there is none.

    Examples
    --------
    >>> locate(b"PAS4" + bytes([0, 0, 0, 0, 255, 255, 255, 255]))
    0
    >>> locate(b"junk" + b"PAS4" + bytes([0, 0, 0, 0, 255, 255, 255, 255]))
    4
    """
    if data[:4] == MAGIC:
        return 0
    first = data.find(MAGIC)
    pos = first
    while pos >= 0:
        if _plausible(data, pos, len(data)):
            return pos
        pos = data.find(MAGIC, pos + 1)
    return first


def next_block(data: bytes, start: int) -> int:
    """Offset of the next plausible PAS4 block at or after ``start``, or -1.

    ANCS/CHAR character sets hold one database per character, one after another.

    Examples
    --------
    >>> block = b"PAS4" + bytes([0, 0, 0, 0, 255, 255, 255, 255])
    >>> next_block(block + b"pad" + block, 12)
    15
    """
    pos = data.find(MAGIC, start)
    while pos >= 0:
        if _plausible(data, pos, len(data)):
            return pos
        pos = data.find(MAGIC, pos + 1)
    return -1


def detect(head: bytes, size: int, name: str) -> float:
    """A bare block starts with ``PAS4``; a container holds a plausible ``PAS4`` header in its head."""
    lname = name.lower()
    if head[:4] == MAGIC:
        score = 0.9 if _plausible(head, 0, size) else 0.7
        return score + (0.05 if lname.endswith(".pas4") else 0.0)
    pos = head.find(MAGIC)
    while pos >= 0:
        if _plausible(head, pos, size):
            return 0.7 + (0.1 if lname.endswith(CONTAINER_SUFFIXES) else 0.0)
        pos = head.find(MAGIC, pos + 1)
    if lname.endswith(CONTAINER_SUFFIXES + (".pas4",)):
        return 0.35  # claim it so a missing/broken block is reported against PAS4
    return 0.0


def _name(v) -> str | None:
    return v.name if isinstance(v, enum.Enum) else None


def _value_ref(pv):
    """Cell for a typed value: a byte reference when the type is known, else NA (not guessed)."""
    return F(pv, "value") if pv.is_known_type else None


def tables(r, ctx) -> dict[str, list[dict]]:
    """Curated tables: ``pas4`` (one row per block: one per bare file, one per character in
    a container), ``pas4_states``, ``pas4_parms``, ``pas4_anims``, ``pas4_anim_values``; the
    corpus puts the ``block`` number in front of every row."""
    block_end = r._debug["anim_states"]["end"]
    state_types = [int(s.state_type) for s in r.anim_states]
    default = r.default_anim_state
    head = {
        "block_offset": ctx.offset,
        "len_block": block_end,
        "len_after_block": ctx.size - ctx.offset - block_end,
        "num_anim_states": F(r, "num_anim_states"),
        "default_anim_state": F(r, "default_anim_state"),
        "default_is_state_type": default in state_types,
        "states_sorted": state_types == sorted(state_types),
    }
    states, parms, anims, values = [], [], [], []
    for si, s in enumerate(r.anim_states):
        st = int(s.state_type)
        states.append({
            "state": si,
            "state_type": F(s, "state_type"),
            "state_type_name": _name(s.state_type),
            "num_parm_infos": F(s, "num_parm_infos"),
            "num_anim_infos": F(s, "num_anim_infos"),
            "is_default": st == default,
        })
        for pi, p in enumerate(s.parm_infos):
            parms.append({
                "state": si,
                "parm": pi,
                "state_type": F(s, "state_type"),
                "parm_type": F(p, "parm_type"),
                "parm_type_name": _name(p.parm_type),
                "is_known_type": p.is_known_type,
                "weight_function": F(p, "weight_function"),
                "weight_function_name": _name(p.weight_function),
                "weight": F(p, "weight"),
                "min_value": _value_ref(p.min_value),
                "max_value": _value_ref(p.max_value),
            })
        for ai, a in enumerate(s.anim_infos):
            anims.append({
                "state": si,
                "anim": ai,
                "state_type": F(s, "state_type"),
                "anim_id": F(a, "anim_id"),
                "num_values": len(a.values),
            })
            for pi, v in enumerate(a.values):
                p = s.parm_infos[pi]
                values.append({
                    "state": si,
                    "anim": ai,
                    "parm": pi,
                    "state_type": F(s, "state_type"),
                    "anim_id": F(a, "anim_id"),
                    "parm_type": F(p, "parm_type"),
                    "parm_type_name": _name(p.parm_type),
                    "is_known_type": v.is_known_type,
                    "value": _value_ref(v),
                    "parm_min": _value_ref(p.min_value),
                    "parm_max": _value_ref(p.max_value),
                })
    return {"pas4": [head], "pas4_states": states, "pas4_parms": parms, "pas4_anims": anims,
            "pas4_anim_values": values}


# ------------------------------------------------------------------ claims


def _rows(corpus, table: str, column: str, mask, holds, detail: str) -> pd.DataFrame:
    df = corpus.tables.get(table)
    if df is None or column not in df or not len(df):
        return pd.DataFrame(columns=CLAIM_COLUMNS)
    sub = df[mask(df)]
    return pd.DataFrame({
        "file": sub["file"],
        "holds": [bool(h) for h in holds(sub)],
        "offset": corpus.offsets(table, column, sub.index),
        "value": sub[column],
        "detail": detail,
    }).reset_index(drop=True)


def _check_default_empty(corpus) -> pd.DataFrame:
    return _rows(corpus, "pas4", "default_anim_state", lambda d: d["num_anim_states"] == 0,
                 lambda d: d["default_anim_state"] == -1, "databases with no anim states")


def _check_default_valid(corpus) -> pd.DataFrame:
    return _rows(corpus, "pas4", "default_anim_state", lambda d: d["num_anim_states"] > 0,
                 lambda d: d["default_is_state_type"], "default names a state type present in the file")


def _check_bool_values(corpus) -> pd.DataFrame:
    return _rows(corpus, "pas4_anim_values", "value", lambda d: d["parm_type"] == 3,
                 lambda d: d["value"].isin([0, 1]), "per-animation values of Bool parms")


CLAIMS = (
    Claim("The default anim state is -1 when there are no anim states.", SEED, _check_default_empty, "pas4"),
    Claim("The default anim state is one of the file's anim state types.", NOTES, _check_default_valid, "pas4"),
    column_claim("At most 8 parms per anim state (engine limit).", NOTES, "pas4_states", "num_parm_infos",
                 lambda v: 0 <= v <= 8),
    column_claim("Parm types are 0-4 (Int32, UInt32, Real, Bool, Enum).", SEED, "pas4_parms", "parm_type",
                 lambda v: 0 <= v <= 4),
    column_claim("Weight functions are 0-3 (exact match, percent error, angular percent, no weight).",
                 SEED, "pas4_parms", "weight_function", lambda v: 0 <= v <= 3),
    Claim("Bool anim values are 0 or 1.", NOTES, _check_bool_values, "pas4"),
    column_claim("Anim state types are 0-20 (the note's table).", SEED, "pas4_states", "state_type",
                 lambda v: 0 <= v <= 20, "ids 21-24 are additive states of later games (NOTES.md)"),
    column_claim("Anim state types are 0-24 (with the additive states of later games).", NOTES,
                 "pas4_states", "state_type", lambda v: 0 <= v <= 24),
)


FORMAT = Format(
    name="pas4",
    spec="pas4",
    title="Retro Studios parameterized animation state database (PAS4)",
    extensions=(".pas4", ".ancs", ".char"),
    detect=detect,
    tables=tables,
    table_keys={
        "pas4": ("block",),
        "pas4_states": ("block", "state"),
        "pas4_parms": ("block", "state", "parm"),
        "pas4_anims": ("block", "state", "anim"),
        "pas4_anim_values": ("block", "state", "anim", "parm"),
    },
    locate=locate,
    next_block=next_block,
    claims=CLAIMS,
)
