"""Per-column profiles of a table, with alerts that point at likely meanings.

Statistics are named the way ydata-profiling names them (``n_distinct``,
``is_constant``, ``is_unique``, ``p_zeros``, ``monotonic`` ...). Computing is
kept apart from rendering: :func:`profile` returns a DataFrame; turning it into
a wiki table is :mod:`animre.export`'s job.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..base.display import fmt, hex_digits, plain
from ..base.errors import UsageError
from ._alerts import fixed_note, flags_note, float_note, index_notes
from ._calls import table_rows
from ._util import (
    at_offset,
    hashable,
    infer_width,
    integral_values,
    is_missing,
    numeric_values,
    offsets_for,
    to_unsigned,
    width_from_spans,
)

__all__ = ["profile", "profile_alerts", "ALERTS", "PROFILE_COLUMNS"]

ALERTS = (
    "CONSTANT",
    "NEARLY_CONSTANT",
    "LOOKS_LIKE_FLAGS",
    "LOOKS_LIKE_INDEX",
    "LOOKS_LIKE_FIXED_POINT",
    "LOOKS_LIKE_FLOAT",
    "ALL_MISSING",
)

PROFILE_COLUMNS = [
    "column", "dtype", "count", "n_missing", "n_distinct", "p_distinct", "is_constant",
    "is_unique", "min", "max", "mean", "zeros", "p_zeros", "monotonic", "most_common",
    "entropy", "width", "bits", "bit_rates", "alerts", "exceptions", "notes",
]

MAX_EXCEPTIONS = 20


def profile(corpus: Any = None, /, table: pd.DataFrame | str | None = None, *,
            columns: Iterable[str] | None = None, key_tables: Mapping[str, Any] | None = None,
            unique_files: bool = True) -> pd.DataFrame:
    """Profile every column of a table: one row per column, with alerts.

    Parameters
    ----------
    corpus : Corpus or None
        Gives bit widths and byte offsets (from ``corpus.spans``) and the key
        columns of all curated tables for ``LOOKS_LIKE_INDEX``; None for a
        table on its own.
    table : str or DataFrame
        A curated table's name in ``corpus.tables`` (or a table). A ``file``
        column, when present, is used to name exception files and is not
        profiled.
    key_tables : dict, optional
        Key value sets to test ``LOOKS_LIKE_INDEX`` against:
        ``{"af_moves": "move"}`` (a column of ``corpus.tables``) or
        ``{"move ids": [0, 1, 5, ...]}`` (the values themselves). Default:
        the record identifiers of every table of ``corpus``
        (``corpus.ids(table)``: positions and ``-animre-id`` fields).
    columns : iterable of str, optional
        Only these columns.
    unique_files : bool
        With ``corpus``: leave out the rows of files whose content repeats an
        earlier file (same sha256), so identical files count once.

    Returns
    -------
    DataFrame
        Columns ``column, dtype, count, n_missing, n_distinct, p_distinct,
        is_constant, is_unique, min, max, mean, zeros, p_zeros, monotonic,
        most_common`` (top 5 ``(value, count)``), ``entropy`` (bits),
        ``width`` (bits, integer columns), ``bits`` (per bit ``always 0`` /
        ``always 1`` / ``varies``), ``bit_rates`` (per bit set share),
        ``alerts`` (list of alert names, see :data:`ALERTS`), ``exceptions``
        (rows that break a near-constant: file, row, value, offset) and
        ``notes`` (``(alert, readable text)`` pairs; see :func:`profile_alerts`).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"file": list("abcdef"), "magic": [1, 1, 1, 1, 1, 0]})
    >>> p = profile(None, df)
    >>> p.loc[0, "alerts"]
    ['NEARLY_CONSTANT']
    >>> p.loc[0, "exceptions"]
    [{'file': 'f', 'row': 5, 'value': 0}]
    """
    df, name = table_rows("profile", corpus, table, unique_files)
    cols = [c for c in (columns if columns is not None else df.columns) if c != "file"]
    missing = [c for c in cols if c not in df.columns]
    if missing:
        raise UsageError(f"no column(s) {', '.join(map(str, missing))} in the table")
    keysets = _key_sets(corpus, key_tables)
    rows = [_profile_column(df, c, corpus, name, keysets) for c in cols]
    return pd.DataFrame(rows, columns=PROFILE_COLUMNS)


def profile_alerts(prof: pd.DataFrame) -> pd.DataFrame:
    """The alerts of a :func:`profile` result in long form: column, alert, note.

    Examples
    --------
    >>> import pandas as pd
    >>> profile_alerts(profile(None, pd.DataFrame({"a": [7, 7, 7, 7]}))).to_dict("records")
    [{'column': 'a', 'alert': 'CONSTANT', 'note': '7 in 4/4 rows'}]
    """
    out = []
    for _, r in prof.iterrows():
        notes = dict(r["notes"]) if isinstance(r["notes"], (list, tuple)) else {}
        for a in r["alerts"]:
            out.append({"column": r["column"], "alert": a, "note": notes.get(a, "")})
    return pd.DataFrame(out, columns=["column", "alert", "note"])


# ----------------------------------------------------------------------------- internals


_KEY_SETS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # corpus -> (its tables' identity, key sets)


def _key_sets(corpus: Any, key_tables: Mapping[str, Any] | None) -> list[dict]:
    """Key value sets: [{name, table, column, values (set), per_file {file: set} or None}].

    A corpus's own key sets are computed once for as long as its tables are the same objects: a profile of
    every table would otherwise gather every table's keys per table.
    """
    if key_tables is None and corpus is not None:
        token = tuple((t, id(df), len(df)) for t, df in corpus.tables.items())
        try:
            got = _KEY_SETS.get(corpus)
        except TypeError:  # an object that takes no weak reference: no memory of it
            return _gather_key_sets(corpus, None)
        if got is None or got[0] != token:
            got = (token, _gather_key_sets(corpus, None))
            _KEY_SETS[corpus] = got
        return got[1]
    return _gather_key_sets(corpus, key_tables)


def _gather_key_sets(corpus: Any, key_tables: Mapping[str, Any] | None) -> list[dict]:
    out = []
    specs: list[tuple[str, Any]] = []
    if key_tables is not None:
        specs = list(key_tables.items())
    elif corpus is not None and hasattr(corpus, "ids"):
        for t in corpus.tables:
            if t == "files":
                continue
            for k in corpus.ids(t):
                specs.append((t, k))
    for t, spec in specs:
        if isinstance(spec, str):
            if corpus is None or t not in corpus.tables or spec not in corpus.tables[t]:
                continue
            kdf = corpus.tables[t]
            iv = integral_values(kdf[spec])
            if iv is None:
                continue
            per_file = None
            if "file" in kdf.columns:
                sub = kdf[["file", spec]].dropna()
                per_file = {f: set(int(x) for x in g) for f, g in sub.groupby("file", sort=False)[spec]}
            out.append({"name": f"{t}.{spec}", "table": t, "column": spec,
                        "values": set(int(x) for x in iv), "per_file": per_file})
        else:
            vals = {int(x) for x in spec if not is_missing(x)}
            out.append({"name": str(t), "table": None, "column": None, "values": vals, "per_file": None})
    return out


def _monotonic(s: pd.Series, files: pd.Series | None) -> str:
    s = s.dropna()
    if len(s) < 2 or s.nunique() < 2:
        return "none"
    try:
        if files is not None:
            groups = [g for _, g in s.groupby(files.reindex(s.index), sort=False) if len(g) > 1]
            if groups:
                if all(g.is_monotonic_increasing for g in groups):
                    return "increasing"
                if all(g.is_monotonic_decreasing for g in groups):
                    return "decreasing"
                return "none"
        if s.is_monotonic_increasing:
            return "increasing"
        if s.is_monotonic_decreasing:
            return "decreasing"
    except TypeError:
        pass
    return "none"


def _spec_info(corpus: Any, name: str | None, col: str) -> dict:
    """The spec's type, doc and magic mark of a column (empty when unknown)."""
    if corpus is None or name is None or not hasattr(corpus, "columns"):
        return {}
    info = corpus.columns(name)
    hit = info[info["column"] == col]
    if not len(hit):
        return {}
    r = hit.iloc[0]
    t = r["type"] if isinstance(r["type"], str) and r["type"] not in ("derived", "value") else None
    return {"ksy_type": t, "doc": r["doc"] if isinstance(r["doc"], str) else None,
            "magic": bool(r["magic"]) if "magic" in r.index and r["magic"] == r["magic"] else False}


def _profile_column(df: pd.DataFrame, col: str, corpus: Any, name: str | None, keysets) -> dict:
    s = df[col]
    hs = s.map(lambda v: None if is_missing(v) else hashable(v)) if s.dtype == object else s
    n = len(s)
    present = hs[~hs.isna()] if hs.dtype != object else hs[[not is_missing(v) for v in hs]]
    count = len(present)
    try:
        vc = present.value_counts(dropna=True, sort=True)
    except TypeError:
        vc = present.map(repr).value_counts(dropna=True, sort=True)
    n_distinct = len(vc)
    files = df["file"] if "file" in df.columns else None
    row: dict[str, Any] = {c: None for c in PROFILE_COLUMNS}
    row.update(
        column=col, dtype=str(s.dtype), count=count, n_missing=n - count, n_distinct=n_distinct,
        p_distinct=(n_distinct / count) if count else float("nan"),
        is_constant=n_distinct == 1, is_unique=count > 0 and n_distinct == count,
        most_common=[(plain(v), int(c)) for v, c in vc.head(5).items()],
        monotonic="none", alerts=[], exceptions=[], notes=[],
    )
    if count:
        p = vc.to_numpy(dtype=np.float64) / count
        row["entropy"] = float(-(p * np.log2(p)).sum()) + 0.0
    num = numeric_values(s)
    if num is not None and count:
        row["min"], row["max"], row["mean"] = plain(present.min()), plain(present.max()), float(num.mean())
        if pd.api.types.is_bool_dtype(s.dtype):
            row["min"], row["max"] = bool(row["min"]), bool(row["max"])
        row["zeros"] = int((num == 0).sum())
        row["p_zeros"] = row["zeros"] / count
        row["monotonic"] = _monotonic(s.astype("float64") if s.dtype != object else
                                      pd.Series(num, index=present.index), files)
    alerts, notes = row["alerts"], row["notes"]
    if count == 0:
        alerts.append("ALL_MISSING")
        notes.append(("ALL_MISSING", f"no value in {n} rows"))
        return row
    top_value, top_count = vc.index[0], int(vc.iloc[0])
    unit = "rows"
    ints = integral_values(s)
    width = u = rates = None
    flags = None
    if ints is not None and len(ints):
        width = width_from_spans(corpus, name, col) or infer_width(ints)
        if ints.min() < -(1 << (width - 1)) or (ints.max() >= (1 << width) and width < 64):
            width = infer_width(ints)
        u = to_unsigned(ints, width)
        rates = [float(((u >> np.uint64(b)) & np.uint64(1)).mean()) for b in range(width)]
        if n_distinct >= 2:
            flags = flags_note(ints, u, rates, n_distinct, count)
    spec = _spec_info(corpus, name, col)
    hd = hex_digits(col, spec.get("ksy_type"), doc=spec.get("doc"), magic=spec.get("magic", False),
                    alerts=("LOOKS_LIKE_FLAGS",) if flags else (),
                    constant=top_value if n_distinct == 1 else None, width=width)

    kt = spec.get("ksy_type") or ("index" if ints is not None else None)  # integers with gaps stay integers

    def show(v: Any) -> str:
        return fmt(v, hex_digits=hd, ksy_type=kt, max_len=40)

    if n_distinct == 1 and count >= 2:
        alerts.append("CONSTANT")
        notes.append(("CONSTANT", f"{show(top_value)} in {count}/{count} {unit}"))
    elif n_distinct >= 2 and count >= 4 and count - top_count <= max(1, int(0.05 * count)):
        alerts.append("NEARLY_CONSTANT")
        idx = present.index[[v != top_value for v in present]]
        offs = offsets_for(corpus, name, col, idx)
        exc = []
        for i in idx[:MAX_EXCEPTIONS]:
            e = {}
            if files is not None:
                e["file"] = files.at[i]
            e["row"] = plain(i)
            e["value"] = plain(s.at[i])
            if offs is not None and not pd.isna(offs.at[i]):
                e["offset"] = int(offs.at[i])
            exc.append(e)
        row["exceptions"] = exc
        where = ", ".join(
            f"{e.get('file', 'row ' + str(e['row']))}={show(e['value'])}"
            + at_offset(e) for e in exc[:5])
        more = f" (+{len(idx) - 5} more)" if len(idx) > 5 else ""
        notes.append(("NEARLY_CONSTANT",
                      f"{show(top_value)} in {top_count}/{count} {unit}; except {where}{more}"))
    if ints is None or not len(ints):
        return row
    row["width"] = width
    row["bit_rates"] = rates
    row["bits"] = ["always 0" if r == 0 else "always 1" if r == 1 else "varies" for r in rates]
    if n_distinct >= 2:
        if flags:
            alerts.append("LOOKS_LIKE_FLAGS")
            notes.append(("LOOKS_LIKE_FLAGS", flags))
        for note in index_notes(df, col, ints, present.index, name, keysets, files):
            alerts.append("LOOKS_LIKE_INDEX")
            notes.append(("LOOKS_LIKE_INDEX", note))
            break
    fixed = fixed_note(ints, width)
    if fixed:
        alerts.append("LOOKS_LIKE_FIXED_POINT")
        notes.append(("LOOKS_LIKE_FIXED_POINT", fixed))
    flt = float_note(u, width)
    if flt:
        alerts.append("LOOKS_LIKE_FLOAT")
        notes.append(("LOOKS_LIKE_FLOAT", flt))
    return row
