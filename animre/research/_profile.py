"""Per-column profiles of a table, with alerts that point at likely meanings.

Statistics are named the way ydata-profiling names them (``n_distinct``,
``is_constant``, ``is_unique``, ``p_zeros``, ``monotonic`` ...). Computing is
kept apart from rendering: :func:`profile` returns a DataFrame; turning it into
a wiki table is :mod:`animre.export`'s job.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..display import fmt, hex_digits
from ._util import (
    SENTINELS,
    f32_from_u32,
    hashable,
    infer_width,
    integral_values,
    is_missing,
    numeric_values,
    offsets_for,
    plain,
    resolve_table,
    to_unsigned,
    unique_file_rows,
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


def profile(table: pd.DataFrame | str, *, corpus: Any = None,
            key_tables: Mapping[str, Any] | None = None,
            columns: Iterable[str] | None = None, unique_files: bool = True) -> pd.DataFrame:
    """Profile every column of a table: one row per column, with alerts.

    Parameters
    ----------
    table : DataFrame or str
        A curated table (or its name in ``corpus.tables``). A ``file`` column,
        when present, is used to name exception files and is not profiled.
    corpus : Corpus, optional
        Gives bit widths and byte offsets (from ``corpus.spans``) and the key
        columns of all curated tables for ``LOOKS_LIKE_INDEX``.
    key_tables : dict, optional
        Key value sets to test ``LOOKS_LIKE_INDEX`` against:
        ``{"af_moves": "move"}`` (a column of ``corpus.tables``) or
        ``{"move ids": [0, 1, 5, ...]}`` (the values themselves). Default:
        the record identifiers of every table of ``corpus`` (``corpus.ids(table)``: positions and ``-animre-id`` fields).
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
    >>> p = profile(df)
    >>> p.loc[0, "alerts"]
    ['NEARLY_CONSTANT']
    >>> p.loc[0, "exceptions"]
    [{'file': 'f', 'row': 5, 'value': 0}]
    """
    df, name = resolve_table(table, corpus)
    if unique_files:
        df = unique_file_rows(df, corpus)
    cols = [c for c in (columns if columns is not None else df.columns) if c != "file"]
    missing = [c for c in cols if c not in df.columns]
    if missing:
        from ..errors import UsageError

        raise UsageError(f"no column(s) {', '.join(map(str, missing))} in the table")
    keysets = _key_sets(corpus, key_tables)
    rows = [_profile_column(df, c, corpus, name, keysets) for c in cols]
    return pd.DataFrame(rows, columns=PROFILE_COLUMNS)


def profile_alerts(prof: pd.DataFrame) -> pd.DataFrame:
    """The alerts of a :func:`profile` result in long form: column, alert, note.

    Examples
    --------
    >>> import pandas as pd
    >>> profile_alerts(profile(pd.DataFrame({"a": [7, 7, 7, 7]}))).to_dict("records")
    [{'column': 'a', 'alert': 'CONSTANT', 'note': '7 in 4/4 rows'}]
    """
    out = []
    for _, r in prof.iterrows():
        notes = dict(r["notes"]) if isinstance(r["notes"], (list, tuple)) else {}
        for a in r["alerts"]:
            out.append({"column": r["column"], "alert": a, "note": notes.get(a, "")})
    return pd.DataFrame(out, columns=["column", "alert", "note"])


# ----------------------------------------------------------------------------- internals


def _key_sets(corpus: Any, key_tables: Mapping[str, Any] | None) -> list[dict]:
    """Key value sets: [{name, table, column, values (set), per_file {file: set} or None}]."""
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
            flags = _flags_note(ints, u, rates, n_distinct, count)
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
            + (f" @ {e['offset']:#x}" if "offset" in e else "") for e in exc[:5])
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
        for note in _index_notes(df, col, ints, present.index, name, keysets, files):
            alerts.append("LOOKS_LIKE_INDEX")
            notes.append(("LOOKS_LIKE_INDEX", note))
            break
    fixed = _fixed_note(ints, width)
    if fixed:
        alerts.append("LOOKS_LIKE_FIXED_POINT")
        notes.append(("LOOKS_LIKE_FIXED_POINT", fixed))
    flt = _float_note(u, width)
    if flt:
        alerts.append("LOOKS_LIKE_FLOAT")
        notes.append(("LOOKS_LIKE_FLOAT", flt))
    return row


def _is_pow2(x: int) -> bool:
    return x > 0 and (x & (x - 1)) == 0


def _flags_note(ints: np.ndarray, u: np.ndarray, rates: list[float], n_distinct: int,
                count: int) -> str | None:
    """Few repeated values built from bits that are switched on and off independently.

    Quantities are told apart by a common step that is not a power of two
    (50, 100, 150), by filling their range densely once scaled by the lowest
    varying bit (0, 4, 8, 12), and by bits that only ever appear nested in
    one another (0, 1, 9: a length); flags need two bit groups that are set
    independently of each other (0x1 and 0x2 in 0, 1, 2, 3).
    """
    if ints.min() < 0 or count < 10 or n_distinct < 3 or n_distinct > 32 or n_distinct > max(3, count // 3):
        return None
    vc = pd.Series(u).value_counts()
    if (count - int(vc.iloc[0])) / (n_distinct - 1) < 2:
        return None  # the values besides the most common one hardly repeat
    varying = [b for b, r in enumerate(rates) if 0 < r < 1]
    ones = [b for b, r in enumerate(rates) if r == 1]
    if len(varying) < 2:
        return None
    distinct = sorted({int(x) for x in u.tolist()})
    g = 0
    for d in distinct[1:]:
        g = math.gcd(g, d - distinct[0])
    if g and not _is_pow2(g):
        return None  # a common step that is not a power of two: a quantity (50, 100, 150 ...)
    vmask = 0
    for b in varying:
        vmask |= 1 << b
    # values of 99% of the rows, scaled by the lowest varying bit: a count fills its range
    bulk = vc.index[: max(3, int((vc.cumsum() < 0.99 * count).sum()) + 1)]
    scaled = sorted({(int(d) & vmask) >> varying[0] for d in bulk})
    if len(scaled) >= 2 and len(scaled) / (scaled[-1] - scaled[0] + 1) >= 0.5:
        return None
    nonzero = [d & vmask for d in distinct if d & vmask]
    if nonzero and sum(bin(d).count("1") for d in nonzero) / len(nonzero) > 2.0:
        return None  # flags combine few bits at a time; ids and sizes use many
    groups: dict[frozenset, int] = {}
    for b in varying:
        rows = frozenset(d for d in distinct if d >> b & 1)
        groups[rows] = groups.get(rows, 0) | (1 << b)
    sets = list(groups)
    independent = any(not (x <= y or y <= x) for i, x in enumerate(sets) for y in sets[i + 1:])
    if not independent:
        return None
    bits = ", ".join(f"0x{1 << b:x}" for b in varying)
    const = f"; always set: {', '.join(f'0x{1 << b:x}' for b in ones)}" if ones else ""
    return f"{n_distinct} distinct values; varying bits {bits}{const}"


def _index_notes(df, col, ints, idx, name, keysets, files) -> list[str]:
    """Every value lies in another table's key values, far more often than chance allows."""
    out = []
    lo, hi = int(ints.min()), int(ints.max())
    rng = hi - lo + 1
    pairs = None
    for ks in keysets:
        if ks["table"] is not None and ks["table"] == name and ks["column"] == col:
            continue
        keys = ks["values"]
        per_file = ks["per_file"] if files is not None else None
        if per_file is not None:
            if pairs is None:
                pairs = set(zip(files.reindex(idx).tolist(), ints.tolist()))
            items = pairs
        else:
            items = {(None, int(v)) for v in ints.tolist()}
        distinct_vals = {v for _, v in items}
        if len(distinct_vals) < 3:
            continue
        outside = {v for f, v in items
                   if v not in (per_file.get(f, set()) if per_file is not None else keys)}
        sentinel = None
        if outside:
            if len(outside) == 1 and next(iter(outside)) in SENTINELS:
                sentinel = next(iter(outside))
            else:
                continue
        logp = 0.0
        inside: dict = {}  # keys of the file (or of the table) within the values' range, counted once each
        for f, v in items:
            if v == sentinel:
                continue
            if f not in inside:
                kset = per_file.get(f, set()) if per_file is not None else keys
                inside[f] = math.log10(max(sum(1 for k in kset if lo <= k <= hi), 1) / rng)
            logp += inside[f]
        if logp > -3:
            continue
        extra = f" ({sentinel} = none)" if sentinel is not None else ""
        scope = " of the same file" if per_file is not None else ""
        out.append(f"all values are {ks['name']} values{scope}{extra}; chance p ~ 1e{logp:.0f}")
    return out


def _fixed_note(ints: np.ndarray, width: int) -> str | None:
    nz = ints[ints != 0]
    if len(nz) < 2 or width < 16:
        return None
    for div, label in ((65536, "16.16"), (256, "8.8" if width == 16 else "24.8")):
        if div == 65536 and width < 32:
            continue
        if np.abs(nz).max() < div:
            continue
        x = nz / div
        round_ = np.mean(((nz % (div // 4)) == 0) & (np.abs(x) <= 1e5))
        if round_ >= 0.9 and len(set(x.tolist())) >= 2:
            ex = ", ".join(fmt(v) for v in sorted(set(x.tolist()))[:5])
            return f"/{div} ({label}) gives round numbers: {ex}"
    return None


def _float_note(u: np.ndarray, width: int) -> str | None:
    if width == 32:
        bits, how = u, "as f32"
    elif width == 16:
        bits, how = u << np.uint64(16), "as the upper half of an f32 (GNT4 16-bit float)"
    else:
        return None
    bits = bits[bits != 0]
    if len(bits) < 3:
        return None
    with np.errstate(invalid="ignore", over="ignore"):
        x = f32_from_u32(bits).astype(np.float64)
        ok = np.isfinite(x) & (np.abs(x) >= 1e-6) & (np.abs(x) <= 1e7)
    if ok.mean() >= 0.9:
        ex = ", ".join(fmt(v, ksy_type="f4") for v in sorted(set(x[ok].tolist()))[:5])
        return f"{how}: {ok.mean():.0%} plausible floats, e.g. {ex}"
    return None
