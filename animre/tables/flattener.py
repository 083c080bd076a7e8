"""Flatten one parsed file into the tables of its plan: column chunks of values and int32 byte offsets.

The flattener works per column: for every table it gathers the records
once, then fills a value array and two int32 offset arrays (``-1`` = not
read from the file) per column, with the plan's generated filler
(:mod:`animre.tables.fill`) and column-wise value instances
(:mod:`animre.tables.values`). Nothing here knows a format.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..spec.ranges import Bases, enum_value
from ..spec.streams import stream_base
from .fill import row_filler
from .plan import Plan, TablePlan
from .values import computed_columns, value_plan

__all__ = ["Chunk", "flatten", "column_values", "column_data"]

@dataclass
class Chunk:
    """Rows of one table from one or more parsed objects, column by column.

    ``data``: column -> list of values. Offsets are two int32 matrices,
    ``st`` and ``en``, one row per column of ``span_cols`` (absolute offsets,
    ``-1`` = not read from the file): a table with hundreds of columns costs
    one array per file, and chunks of many files are concatenated with one
    call per table, never cell by cell.
    """

    columns: list[str]
    data: dict[str, list]
    span_cols: list[str]
    st: np.ndarray
    en: np.ndarray
    n: int

    @property
    def starts(self) -> dict[str, np.ndarray]:
        """column -> start offsets (views into ``st``)."""
        return dict(zip(self.span_cols, self.st))

    @property
    def ends(self) -> dict[str, np.ndarray]:
        """column -> end offsets (views into ``en``)."""
        return dict(zip(self.span_cols, self.en))

    def extend(self, other: Chunk) -> None:
        """Append ``other``'s rows (same columns)."""
        for c in self.columns:
            self.data[c].extend(other.data[c])
        self.st = np.concatenate([self.st, other.st], axis=1)
        self.en = np.concatenate([self.en, other.en], axis=1)
        self.n += other.n

    def frames(self) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
        """(values, start offsets, end offsets) as DataFrames (offsets int32, -1 = none)."""
        cols = self.columns
        df = (pd.DataFrame({c: column_values(self.data[c]) for c in cols}, columns=cols) if self.n
              else pd.DataFrame({c: [] for c in cols}, columns=cols))
        empty = np.full(self.n, -1, dtype=np.int32)
        starts, ends = self.starts, self.ends
        s = pd.DataFrame({c: starts.get(c, empty) for c in cols}, columns=cols)
        e = pd.DataFrame({c: ends.get(c, empty) for c in cols}, columns=cols)
        return df, s, e


_MISS = object()
_NOWHERE = -(2**40)  #: the base of a stream that is no place of the file (the bytes of a ``process:``)
_INT64 = (-(2**63), 2**63 - 1)


_PLAIN = {int: np.int64, float: np.float64, bool: np.bool_}


def column_data(values: list) -> np.ndarray | pd.Series:
    """One column's values typed as :func:`column_values` types them: Python numbers of one type as the numpy
    array pandas would infer (int64, float64, bool), made without pandas' inference; anything else as a Series.

    Examples
    --------
    >>> column_data([1, 2]).dtype, str(column_data([1, None]).dtype)
    (dtype('int64'), 'Int64')
    """
    kinds = set(map(type, values))
    if len(kinds) == 1:
        dtype = _PLAIN.get(next(iter(kinds)))
        if dtype is not None:
            try:
                return np.array(values, dtype=dtype)
            except OverflowError:  # integers beyond int64: pandas decides
                pass
    out = pd.Series(values)
    if out.dtype.kind == "f" and _ints_with_gaps(values, kinds):
        return pd.Series(pd.array(values, dtype="Int64"))
    return out


def column_values(values: list) -> pd.Series:
    """One column's values as a Series; integers with gaps (an ``if:`` field) stay integers (Int64).

    Examples
    --------
    >>> str(column_values([1, None, 3]).dtype), str(column_values([1.5, None]).dtype)
    ('Int64', 'float64')
    """
    data = column_data(values)
    return pd.Series(data, copy=False) if isinstance(data, np.ndarray) else data


def _ints_with_gaps(values: list, kinds: set | None = None) -> bool:
    """Whether ``values`` (of Python types ``kinds``) holds Python integers (within int64) and None, both.

    Examples
    --------
    >>> _ints_with_gaps([1, None, 3]), _ints_with_gaps([1.5, None]), _ints_with_gaps([1, 2])
    (True, False, False)
    """
    if (set(map(type, values)) if kinds is None else kinds) != {int, type(None)}:
        return False
    ints = [v for v in values if v is not None]
    return _INT64[0] <= min(ints) and max(ints) <= _INT64[1]


def _debug_entry(obj, attr: str):
    d = getattr(obj, "_debug", None)
    if not d:
        return None
    return d.get(attr) or d.get("_m_" + attr)


def _get(obj, attr: str):
    try:
        return getattr(obj, attr)
    except AttributeError:
        return _MISS
    except Exception:  # noqa: BLE001 - a value instance that cannot be computed is no value
        return _MISS


def flatten(root, bases: Bases, plan: Plan, keys: dict | None = None, *, frames: bool = True) -> dict:
    """Tables of one parsed object: table -> (values, start offsets, end offsets).

    Offsets are absolute int32 (``-1`` for cells not read from the file).
    ``keys`` are extra leading key columns with one value (e.g. ``block``).
    With ``frames=False`` each table is a :class:`Chunk` (columns as lists and
    arrays, what a corpus scan concatenates) instead of three DataFrames.

    Examples
    --------
    >>> from animre.spec.parse import parse_bytes
    >>> from animre.spec.compiler import load_parser
    >>> from animre.tables.planner import plan_for
    >>> mod = load_parser("frm")
    >>> data = open("data/samples/frm/GOBLNFRM.BIN", "rb").read()
    >>> obj = parse_bytes(data, mod)
    >>> plan = plan_for(open("ksy/frm.ksy").read())
    >>> vals, starts, ends = flatten(obj, Bases(obj), plan)["frm"]
    >>> int(starts.at[0, "walk_speed"]), int(ends.at[0, "walk_speed"])
    (162, 166)
    """
    keys = keys or {}
    off = bases.offset

    def base(o, q=None) -> int:  # where o's stream (or the stream entry q was read from) starts; -2**40 = nowhere
        io = q.get("io") if q is not None else None
        b = stream_base(io if io is not None else o._io)
        return _NOWHERE if b is None else off + b

    limit = off + _size(root)  # no byte range ends past the file (a read of 0 bytes beyond it)
    records: dict[str, tuple[list, list]] = {}  # table -> (records, key tuples)
    out = {}
    for t in plan.tables.values():
        if t.parent is None:
            recs, ks = [root], [()]
        else:
            precs, pks = records[t.parent]
            recs, ks = [], []
            *path, (arr_attr, _) = t.steps
            for r, k in zip(precs, pks):
                holder = r
                for attr, idx in path:
                    holder = _get(holder, attr) if holder is not None else _MISS
                    if holder is _MISS or holder is None:
                        break
                    if idx is not None:
                        holder = holder[idx] if idx < len(holder) else None
                if holder is _MISS or holder is None:
                    continue
                arr = _get(holder, arr_attr)
                if arr is _MISS or arr is None:
                    continue
                if t.primitive is not None:  # one run per array: (holder, attribute, kept positions)
                    idxs = range(len(arr)) if t.where is None else [i for i, el in enumerate(arr) if t.where(el)]
                    recs.append((holder, arr_attr, idxs))
                    ks.extend([k + (i,) for i in idxs])
                    continue
                for i, el in enumerate(arr):
                    if t.where is not None and not t.where(el):
                        continue
                    recs.append(el)
                    ks.append(k + (i,))
        records[t.name] = (recs, ks)
        chunk = _columns(t, recs, ks, keys, base, limit)
        out[t.name] = chunk.frames() if frames else chunk
    return out


def _size(root) -> int:
    try:
        return root._io.size()
    except Exception:  # noqa: BLE001 - a root without a stream (a test double): no limit
        return np.iinfo(np.int32).max


def _spans(st: list, en: list, shape: tuple, limit: int) -> tuple[np.ndarray, np.ndarray]:
    """Start and end offsets as int32 matrices; a range not inside the file (a read of nothing at an offset
    past its end) is no range (-1, -1)."""
    s = np.array(st, dtype=np.int64).reshape(shape)
    e = np.array(en, dtype=np.int64).reshape(shape)
    out = (s > limit) | (e > limit) | (s < 0) | (e < 0)
    if out.any():
        s[out] = e[out] = -1
    return s.astype(np.int32), e.astype(np.int32)


def _columns(t: TablePlan, recs: list, ks: list, keys: dict, base, limit: int) -> Chunk:
    n = len(ks)
    data: dict[str, Any] = {k: [v] * n for k, v in keys.items()}
    for j, k in enumerate(t.keys):
        data[k] = [kk[j] for kk in ks]
    spans = t.columns + t.extents
    vals = [[None] * n for _ in spans]
    st = [[-1] * n for _ in spans]
    en = [[-1] * n for _ in spans]
    if t.primitive is not None:  # rows are the elements of a primitive array
        _primitive_rows(t, recs, base, vals, st, en)
    elif n:
        vec = value_plan(t)
        row_filler(t, frozenset(vec))(recs, base, vals, st, en)
        if vec:
            rest = computed_columns(vec, vals, st, en)
            if rest:  # a value instance that cannot be computed column-wise here: read record by record
                cols = t.columns + t.extents
                row_filler(t, frozenset(range(len(cols))) - rest)(recs, base, vals, st, en)
    for c, v in zip(t.columns, vals):
        data[c.name] = v
    shape = (len(spans), n)
    return Chunk(list(data), data, [c.name for c in spans], *_spans(st, en, shape, limit), n)


def _primitive_rows(t: TablePlan, runs: list, base, vals: list, st: list, en: list) -> None:
    """Rows that are the elements of primitive arrays: ``runs`` of (holder, attribute, kept positions)."""
    for j, c in enumerate(t.columns):
        out, s, e = vals[j], st[j], en[j]
        names = c.role == "enum_name"
        plain = not names and c.field.enum is None
        pos = 0
        for holder, attr, idxs in runs:
            m = len(idxs)
            if not m:
                continue
            seq = getattr(holder, attr)
            full = isinstance(idxs, range) and m == len(seq)
            got = seq if full else [seq[i] for i in idxs]
            if plain:
                out[pos:pos + m] = got
            elif names:
                out[pos:pos + m] = [v.name if isinstance(v, enum.Enum) else None for v in got]
            else:
                out[pos:pos + m] = [enum_value(v) for v in got]
            d = _debug_entry(holder, attr)
            arr = d.get("arr") if d else None
            if arr:
                b, na = base(holder, d), len(arr)
                s[pos:pos + m] = [b + arr[i].get("start", -1 - b) if i < na else -1 for i in idxs]
                e[pos:pos + m] = [b + arr[i].get("end", -1 - b) if i < na else -1 for i in idxs]
            pos += m
