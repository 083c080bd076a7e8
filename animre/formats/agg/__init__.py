"""HoMM2 resource archives (``HEROES2.AGG``): the entry table and the name-hash claim.

The archive is also a container (:mod:`animre.sources.containers.agg`): its members
are corpus files of their own. As a format it gives the ``agg_entries``
table (name, name hash, offset, size of every member).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from ...sources.containers.agg import RECORD, plausible  # the directory's shape is the container's
from ..base import Format, column_claim, derived, row_claim

__all__ = ["FORMAT", "name_hash"]

ENGINE = "fheroes2 engine source (AGG archive reader)"
GAME = "Heroes of Might and Magic II reverse-engineered game source (resource id of a file name)"


def name_hash(name: str) -> int:
    """The game's hash of a member name, as stored in the archive's entry records.

    The name is read from its last character to its first, ASCII letters
    upper-cased; each step replaces the 32-bit hash by (hash << 5) + (hash >> 25),
    adds the character to a running sum and adds both the sum and the character
    to the hash (32-bit wrap-around).

    Examples
    --------
    >>> hex(name_hash("A")), name_hash("kb.pal") == name_hash("KB.PAL")
    ('0x82', True)
    """
    h, total = 0, 0
    for ch in reversed(name.encode("latin-1")):
        c = ch - 32 if 97 <= ch <= 122 else ch
        h = ((h << 5) + (h >> 25)) & 0xFFFFFFFF
        total += c
        h = (h + total + c) & 0xFFFFFFFF
    return h


def detect(head: bytes, size: int, name: str) -> float:
    """An AGG archive: a plausible directory; the ``.agg`` name helps, and alone claims it."""
    named = name.lower().endswith(".agg")
    if plausible(head, size):
        return 1.0 if named else 0.9
    return 0.5 if named else 0.0  # claim it so the error is reported against AGG


ENTRIES = "agg_entries"


@derived(ENTRIES, "expected_hash", ["name"], "The game's hash of the entry's name (see name_hash).")
def _expected_hash(df, ctx):
    return pd.array([name_hash(n) if isinstance(n, str) else None for n in df["name"]], dtype="UInt32")


@derived(ENTRIES, "ofs_packed", ["ofs_data", "len_data", ("agg", "num_entries")],
         "Where the member would start if members were stored back to back in entry order right after the "
         "records (2 + 12 x count for the first, the previous member's end for the others).")
def _ofs_packed(df, ctx):
    n = ctx.lookup(df, "agg", "num_entries").astype("int64")
    end = (df["ofs_data"].astype("int64") + df["len_data"].astype("int64")).to_numpy()
    prev = np.r_[0, end[:-1]]
    first = df["entry"].to_numpy() == 0
    return np.where(first, 2 + RECORD * n, prev)


@derived("agg", "data_end", [(ENTRIES, "ofs_data"), (ENTRIES, "len_data")],
         "End of the member stored last (the largest offset + size of the archive's entries).")
def _data_end(df, ctx):
    e = ctx.table(ENTRIES)
    ends = (e["ofs_data"].astype("int64") + e["len_data"].astype("int64")).groupby(e["file"]).max()
    return df["file"].map(ends).astype("Int64").array


DOS_NAME = re.compile(r"^[A-Z0-9_$~!#%&{}()@'`^-]{1,8}(\.[A-Z0-9_$~!#%&{}()@'`^-]{1,3})?$")

FORMAT = Format(
    name="agg",
    title="HoMM2 resource archive (AGG)",
    extensions=(".agg",),
    detect=detect,
    derived=(_expected_hash, _ofs_packed, _data_end),
    claims=(
        row_claim("Every entry's stored hash is the game's hash of its name.", GAME, ENTRIES,
                  lambda r: int(r["name_hash"]) == int(r["expected_hash"]),
                  where=lambda r: isinstance(r["name"], str),  # a name that is no text has no hash to test
                  offset_column="name_hash", reads=["expected_hash", "name"],
                  expected=lambda r: f"0x{int(r['expected_hash']):08X}", detail=lambda r: str(r["name"])),
        row_claim("Members are stored back to back in entry order, right after the records.", ENGINE, ENTRIES,
                  lambda r: int(r["ofs_data"]) == int(r["ofs_packed"]),
                  offset_column="ofs_data", reads=["ofs_packed"], expected=lambda r: int(r["ofs_packed"])),
        row_claim("The last member ends where the name table starts (no unused bytes).", ENGINE, "agg",
                  lambda r: int(r["data_end"]) == int(r["ofs_names"]),
                  offset_column="num_entries", value="data_end", reads=["ofs_names"],
                  expected=lambda r: int(r["ofs_names"])),
        column_claim("Names are DOS 8.3 names in upper case (the engine looks them up as such).", ENGINE,
                     ENTRIES, "name", lambda v: bool(DOS_NAME.match(str(v)))),
    ),
)
