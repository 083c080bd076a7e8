"""Retro Studios PAS4 parameterized animation state databases (bare or inside ANCS/CHAR)."""

from __future__ import annotations

import struct

import numpy as np
import pandas as pd

from ...base.errors import ParseError
from ...sources.containers.pak import MAGIC as PAK_MAGIC
from ..base import CLAIM_COLUMNS, Claim, Format, derived, file_keys
from .ancs import Character, characters

__all__ = ["FORMAT", "MAGIC", "locate", "next_block", "block_info", "detect"]

MAGIC = b"PAS4"
WIKI = "Retro Modding Wiki, Parameterized Animation State Database page"
ENGINE = "metaforce engine source (CPASDatabase, CPASAnimState, CPASParmInfo, CPASAnimInfo readers)"
STATE_ENUM = "metaforce engine source (pas::EAnimationState)"
CONTAINER_SUFFIXES = (".ancs", ".char")
BARE = "bare block"
STRUCTURE = "ANCS structure"
MAGIC_SEARCH = "magic search"
ANCS_HEAD = b"\x00\x01\x00\x01"  # ANCS version 1, character set version 1


def _plausible(buf: bytes, off: int, total: int) -> bool:
    """Whether a PAS4 header at ``off`` fits: state count within the bytes left, sane default."""
    if off + 12 > len(buf):
        return False
    n, default = struct.unpack_from(">Ii", buf, off + 4)
    return n * 12 <= total - off - 12 and -1 <= default <= 0xFFFF and (n > 0 or default == -1)


_LAST: list = [None, None]  # (data, walk result) of the last file walked: blocks are looked up once per file


def _walk(data: bytes) -> tuple[list[Character] | None, str]:
    """(characters read by the ANCS structure, or None; how the blocks are located)."""
    if _LAST[0] is data:
        return _LAST[1]
    if data[:4] == MAGIC:
        res: tuple[list[Character] | None, str] = (None, BARE)
    else:
        try:
            res = (characters(data), STRUCTURE)
        except ParseError as e:
            res = (None, f"{MAGIC_SEARCH}: the ANCS structure did not read ({e.path} @ {e.offset:#x}: {e.reason})")
    _LAST[0], _LAST[1] = data, res
    return res


def locate(data: bytes) -> int:
    """Offset of the first PAS4 block: 0 for a bare block, else the first character's database.

    An ANCS file is read with its spec, ``ksy/ancs.ksy`` (:func:`animre.formats.pas4.ancs.characters`):
    character set, characters, each character's PAS4 database. When the
    structure does not read (a CHAR file of a later game, a damaged or
    unknown layout), the block is searched by its magic instead, and the
    tables say so in ``located_by``: the first plausible ``PAS4`` magic (a
    ``PAS4`` string whose header cannot be a database, e.g. inside a name,
    is skipped); without a plausible one the first occurrence (so the parse
    error explains why), and -1 when there is none.

    Examples
    --------
    >>> locate(b"PAS4" + bytes([0, 0, 0, 0, 255, 255, 255, 255]))
    0
    >>> locate(b"junk" + b"PAS4" + bytes([0, 0, 0, 0, 255, 255, 255, 255]))
    4
    """
    chars, _ = _walk(data)
    if data[:4] == MAGIC:
        return 0
    if chars is not None:
        return chars[0].pas4_offset if chars else -1
    pos = _search(data, 0)
    return pos if pos >= 0 else data.find(MAGIC)


def next_block(data: bytes, start: int) -> int:
    """Offset of the next PAS4 block at or after ``start``, or -1.

    ANCS character sets hold one database per character: the next
    character's (by structure), or the next plausible magic when the
    structure did not read.

    Examples
    --------
    >>> block = b"PAS4" + bytes([0, 0, 0, 0, 255, 255, 255, 255])
    >>> next_block(block + b"pad" + block, 12)
    15
    """
    chars, _ = _walk(data)
    if chars is not None:
        return next((c.pas4_offset for c in chars if c.pas4_offset >= start), -1)
    return _search(data, start)


def block_info(data: bytes, offset: int) -> dict:
    """Columns naming the block at ``offset``: its ``character`` and how it was ``located_by``.

    Examples
    --------
    >>> block_info(b"PAS4" + bytes([0, 0, 0, 0, 255, 255, 255, 255]), 0)
    {'character': None, 'located_by': 'bare block'}
    """
    chars, note = _walk(data)
    name = next((c.name for c in chars or () if c.pas4_offset == offset), None)
    return {"character": name, "located_by": note}


def _search(data: bytes, start: int) -> int:
    pos = data.find(MAGIC, start)
    while pos >= 0:
        if _plausible(data, pos, len(data)):
            return pos
        pos = data.find(MAGIC, pos + 1)
    return -1


def detect(head: bytes, size: int, name: str) -> float:
    """A bare block starts with ``PAS4``; an ANCS/CHAR holds a plausible ``PAS4`` header in its head
    (or starts like an ANCS character set: versions 1 and 1, a character count that fits)."""
    lname = name.lower()
    if head[:8] == PAK_MAGIC:
        return 0.0  # a Retro PAK holding ANCS resources is a container, read member by member
    if head[:4] == MAGIC:
        score = 0.9 if _plausible(head, 0, size) else 0.7
        return score + (0.05 if lname.endswith(".pas4") else 0.0)
    pos = head.find(MAGIC)
    while pos >= 0:
        if _plausible(head, pos, size):
            return 0.7 + (0.1 if lname.endswith(CONTAINER_SUFFIXES) else 0.0)
        pos = head.find(MAGIC, pos + 1)
    if head[:4] == ANCS_HEAD and 0 < int.from_bytes(head[4:8], "big") <= size // 51:
        return 0.6 + (0.1 if lname.endswith(".ancs") else 0.0)  # an ANCS whose first block lies past the head
    if lname.endswith(CONTAINER_SUFFIXES + (".pas4",)):
        return 0.35  # claim it so a missing/broken block is reported against PAS4
    return 0.0


# ------------------------------------------------------------------ derived columns
#
# Tables come from ksy/pas4.ksy: pas4 (one row per block), pas4_states, pas4_parms, pas4_anims,
# pas4_anim_values. Containers (ANCS/CHAR) get a leading ``block`` key column from the corpus,
# so every join below is on ``file`` (+ ``block``) + the spec's key columns.


@derived("pas4", "block_offset", ["magic"],
         "Absolute offset of the PAS4 block in its file (0 for a bare block; ANCS/CHAR: where its magic is).")
def _block_offset(df, ctx):
    return ctx.starts("pas4", "magic").reindex(df.index)


@derived("pas4", "len_after_block", ["magic", "len_block"],
         "Bytes of the file after the block (container data, or trailing bytes of a bare file).")
def _len_after_block(df, ctx):
    start = ctx.starts("pas4", "magic").reindex(df.index)
    return (ctx.file_sizes(df) - start - df["len_block"].astype("Int64")).astype("Int64")


def _block_states(df, ctx):
    """The file keys of the pas4 rows and the anim states of their blocks (None when either is empty)."""
    k = file_keys(df)
    states = ctx.table("pas4_states")
    return k, (states if states is not None and len(states) and len(df) else None)


@derived("pas4", "default_is_state_type", ["default_anim_state", ("pas4_states", "state_type")],
         "Whether default_anim_state is the state type of one of the block's anim states.")
def _default_is_state_type(df, ctx):
    k, states = _block_states(df, ctx)
    if states is None:
        return np.zeros(len(df), dtype=bool)
    have = pd.MultiIndex.from_frame(states[k + ["state_type"]])
    want = pd.MultiIndex.from_frame(df[k + ["default_anim_state"]])
    return want.isin(have)


@derived("pas4", "states_sorted", [("pas4_states", "state"), ("pas4_states", "state_type")],
         "Whether the anim states are in ascending state-type order in the file (the engine sorts them "
         "itself, so file order is the tool's choice).")
def _states_sorted(df, ctx):
    k, states = _block_states(df, ctx)
    if states is None:
        return np.ones(len(df), dtype=bool)
    st = states.sort_values(k + ["state"])
    falls = st.groupby(k, sort=False)["state_type"].diff() < 0
    unsorted = st.loc[falls, k].drop_duplicates()
    return ~pd.MultiIndex.from_frame(df[k]).isin(pd.MultiIndex.from_frame(unsorted))


@derived("pas4_states", "is_default", ["state_type", ("pas4", "default_anim_state")],
         "Whether this state's type is the block's default_anim_state.")
def _is_default(df, ctx):
    default = ctx.lookup(df, "pas4", "default_anim_state")
    return pd.Series(default, index=df.index).eq(df["state_type"]).fillna(False).astype(bool).to_numpy()


@derived("pas4_anim_values", "parm_type",
         ["state", "parm", ("pas4_parms", "state"), ("pas4_parms", "parm"), ("pas4_parms", "parm_type")],
         "Parm type of the parm info this value belongs to (pas4_parms row with the same state and parm): "
         "it decides the value's width and type.")
def _value_parm_type(df, ctx):
    return pd.Series(ctx.lookup(df, "pas4_parms", "parm_type"), index=df.index, dtype="Int64")


DERIVED = (_block_offset, _len_after_block, _default_is_state_type, _states_sorted, _is_default,
           _value_parm_type)


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
    }, columns=CLAIM_COLUMNS).reset_index(drop=True)


def _check_default_empty(corpus) -> pd.DataFrame:
    return _rows(corpus, "pas4", "default_anim_state", lambda d: d["num_anim_states"] == 0,
                 lambda d: d["default_anim_state"] == -1, "databases with no anim states")


def _check_default_valid(corpus) -> pd.DataFrame:
    return _rows(corpus, "pas4", "default_anim_state", lambda d: d["num_anim_states"] > 0,
                 lambda d: d["default_is_state_type"], "default names a state type present in the file")


def _check_bool_values(corpus) -> pd.DataFrame:
    return _rows(corpus, "pas4_anim_values", "integer", lambda d: d["parm_type"] == 3,
                 lambda d: d["integer"].isin([0, 1]), "per-animation values of Bool parms")


_VALUE_PARM_TYPE = (("pas4_anim_values", "state"), ("pas4_anim_values", "parm"), ("pas4_parms", "state"),
                    ("pas4_parms", "parm"), ("pas4_parms", "parm_type"))

CLAIMS = (
    Claim("The default anim state is -1 when there are no anim states.", WIKI, _check_default_empty, "pas4",
          expected="-1", reads=(("pas4", "num_anim_states"), ("pas4", "default_anim_state"))),
    Claim("The default anim state is one of the file's anim state types.", ENGINE, _check_default_valid, "pas4",
          expected="a state type of the file",
          reads=(("pas4", "num_anim_states"), ("pas4", "default_anim_state"), ("pas4_states", "state_type"))),
    Claim("Bool anim values are 0 or 1.", ENGINE, _check_bool_values, "pas4", expected="0 or 1",
          reads=(("pas4_anim_values", "integer"),) + _VALUE_PARM_TYPE),
)


FORMAT = Format(
    name="pas4",
    title="Retro Studios parameterized animation state database (PAS4)",
    extensions=(".pas4", ".ancs", ".char"),
    detect=detect,
    derived=DERIVED,
    claims=CLAIMS,
    locate=locate,
    next_block=next_block,
    block_info=block_info,
)
