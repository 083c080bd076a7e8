"""Generic flattening of parsed objects into tidy tables."""

from __future__ import annotations

import functools

import pandas as pd

from ..spec.compiler import KSY_DIR
from ..spec.model import load_spec
from ..spec.parse import camel
from ..spec.ranges import Bases, walk

__all__ = ["fields_table", "spec_types", "FIELDS_COLUMNS"]

FIELDS_COLUMNS = ["file", "path", "parent", "index", "name", "kind", "type", "value", "start", "end",
                  "bit_start", "bit_end", "stream_start", "stream_end", "stored_start", "stored_end"]


def _type_text(f) -> str:
    t = f.type
    if f.enum:
        t += f" enum {f.enum}"
    if f.repeat:
        t += "[]"
    return t


@functools.lru_cache(maxsize=64)
def spec_types(spec_text: str) -> dict[str, dict[str, str]]:
    """Map class name -> field id -> the ksy type (``u2``, ``s4``, ``str``, ``bytes``, user type ...).

    Imported specs under ``ksy/`` are included.

    Examples
    --------
    >>> spec_types(open("ksy/frm.ksy").read())["Frm"]["eye_x"]
    's2'
    """
    model = load_spec(spec_text)
    out: dict[str, dict[str, str]] = {}
    for t in model.types.values():
        m = out.setdefault(camel(t.name), {})
        for f in t.fields:
            m[f.id] = _type_text(f)
    return out


def _types_for(obj) -> dict[str, dict[str, str]]:
    """The ksy types of the spec a parsed object was compiled from (shipped or compile_spec)."""
    g = getattr(type(obj)._read, "__globals__", {})
    text = g.get("__animre_spec_text__")
    if text is None:
        p = KSY_DIR / f"{type(obj).__module__.rsplit('.', 1)[-1]}.ksy"
        if not p.exists():
            return {}
        text = p.read_text(encoding="utf-8")
    try:
        return spec_types(text)
    except Exception:  # noqa: BLE001 - types are a convenience; never fail a fields table
        return {}


def _type_name(f, types: dict) -> str:
    t = types.get(type(f.obj).__name__, {}).get(f.name)
    if t is not None:
        if f.index is not None and t.endswith("[]"):
            return t[:-2]
        return t
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
    position or NA), name, kind (``value`` for a leaf value, ``struct`` for a
    record, ``array`` for a whole array), type (the ksy type: ``u2``, ``s4``, ``f4``, ``str``,
    ``bytes``, a user type name, ``value`` for computed instances; ``[]`` marks
    a whole array), value, start, end (absolute byte offsets, ``end`` exclusive;
    NA for computed values), bit_start, bit_end (a bit field: absolute bit positions, byte x 8 + bit in
    reading order), stream_start, stream_end, stored_start, stored_end (a field read from the bytes of a
    ``process:``: its range in that stream, and the absolute range of the stored bytes it was made from;
    ``start``/``end`` are NA there). Records and arrays have ``value`` NA.

    Examples
    --------
    >>> from animre.tables.read import parse
    >>> _, obj, bases = parse("data/samples/frm/GOBLNFRM.BIN")
    >>> ft = fields_table(obj, "GOBLNFRM.BIN")
    >>> ft.query("name == 'walk_speed'")[["type", "value", "start", "end"]].values.tolist()
    [['u4', 400, 162, 166]]
    """
    if obj is None:
        return pd.DataFrame(columns=FIELDS_COLUMNS)
    types = _types_for(obj)
    rows = [
        (file, f.path, f.parent, f.index, f.name, f.kind, _type_name(f, types), f.value, f.start, f.end,
         f.bit_start, f.bit_end, *(f.stream or (None, None)), *(f.stored or (None, None)))
        for f in walk(obj, bases, values=values)
    ]
    df = pd.DataFrame(rows, columns=FIELDS_COLUMNS)
    for c in ("index", "start", "end", *FIELDS_COLUMNS[10:]):
        df[c] = df[c].astype("Int64")
    return df
