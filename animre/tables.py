"""Generic flattening of parsed objects into tidy tables."""

from __future__ import annotations

import pandas as pd

from .parse import Bases, walk

__all__ = ["fields_table", "FIELDS_COLUMNS"]

FIELDS_COLUMNS = ["file", "path", "parent", "index", "name", "type", "value", "start", "end"]


def _type_name(f) -> str:
    if f.kind != "value":
        return f.kind
    v = f.value
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, (bytes, bytearray)):
        return "bytes"
    if isinstance(v, str):
        return "str"
    return type(v).__name__


def fields_table(obj, file: str, bases: Bases | None = None, values: bool = True) -> pd.DataFrame:
    """Long table of every field of a parsed object: one row per value or record.

    Columns: file, path (``moves[12].footer.unknown_4``), parent, index (array
    position or NA), name, type, value, start, end (absolute byte offsets,
    ``end`` exclusive; NA for computed values).

    Examples
    --------
    >>> fields_table(obj, "GOBLNFRM.BIN").query("name == 'walk_speed'")  # doctest: +SKIP
    """
    if obj is None:
        return pd.DataFrame(columns=FIELDS_COLUMNS)
    rows = [
        (file, f.path, f.parent, f.index, f.name, _type_name(f), f.value, f.start, f.end)
        for f in walk(obj, bases, values=values)
    ]
    df = pd.DataFrame(rows, columns=FIELDS_COLUMNS)
    for c in ("index", "start", "end"):
        df[c] = df[c].astype("Int64")
    return df
