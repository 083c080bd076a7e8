"""Where :func:`~animre.research.reinterpret` finds its bytes: a field path, a table cell, an offset.

:func:`locate_bytes` answers a locator with one row per byte range (file,
where, offset, raw): from the tables' byte spans when every field the path
names is a table column, else by walking the parsed files
(:meth:`Corpus.fields`); a column of a DataFrame is re-encoded.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from ..base.errors import AnimreError, UsageError
from ._util import integral_values, is_missing

__all__ = ["locate_bytes", "path_matches", "records_from_columns"]


def _norm(path: str) -> str:
    return re.sub(r"\[\d+\]", "[]", path)


def path_matches(paths: pd.Series, loc: str) -> pd.Series:
    """Rows whose path is ``loc`` or ends with ``.loc``; array indices are wildcards unless given.

    ``"footer.unknown_4"`` matches ``moves[3].footer.unknown_4``; ``"idle_weights"``
    matches ``idle_weights[0]`` ... ``idle_weights[4]``; ``"sequences[3].frame_ids"``
    only the arrays of sequence 3.
    """
    tail = paths.str.replace(r"(\[\d+\])+$", "", regex=True)  # elements of a named array
    exact = (paths == loc) | paths.str.endswith("." + loc) | (tail == loc) | tail.str.endswith("." + loc)
    if re.search(r"\[\d+\]", loc):
        return exact
    plain = loc.replace("[]", "")
    stripped = paths.map(_norm).str.replace("[]", "", regex=False)
    return exact | (stripped == plain) | stripped.str.endswith("." + plain)


def locate_bytes(source, locator, offset, length, format_id, byteorder, *,
                 failures: list[dict] | None = None) -> pd.DataFrame:
    """file, where, offset, raw of every byte range ``locator`` names (see :func:`~animre.research.reinterpret`).

    Only parsed files are read (a container, a file no format recognises or
    one that failed has no fields); a file whose fields cannot be read again
    is left out and appended to ``failures`` (file, message), never the end of the others.
    """
    if isinstance(source, pd.DataFrame):
        return _records_from_table(source, locator, length, byteorder)
    corpus = source
    if not hasattr(corpus, "fields"):
        raise UsageError("source must be a Corpus or a DataFrame")
    files = corpus.files
    if "status" in files:
        ok = files[files["status"] == "parsed"]
    else:
        ok = files[files["ok"].astype(bool)] if "ok" in files else files
    failures = [] if failures is None else failures
    if format_id is not None:
        ok = ok[ok["format"] == format_id]
    data_cache: dict[str, bytes] = {}

    def data(f):
        if f not in data_cache:
            data_cache[f] = corpus.read_bytes(f)
        return data_cache[f]

    rows = []
    if isinstance(locator, (int, np.integer)) and not isinstance(locator, bool):
        if length is None:
            raise UsageError("an absolute offset needs length=")
        for f in ok["file"]:
            d = data(f)
            start = int(locator)
            if start + length <= len(d):
                rows.append({"file": f, "where": f"@{start:#x}", "offset": start,
                             "raw": d[start:start + length]})
        return pd.DataFrame(rows, columns=["file", "where", "offset", "raw"])
    table = column = None
    if isinstance(locator, tuple) and len(locator) == 2:
        table, column = locator
    elif isinstance(locator, str) and "." in locator and locator.split(".", 1)[0] in corpus.tables \
            and locator.split(".", 1)[1] in corpus.tables[locator.split(".", 1)[0]].columns:
        table, column = locator.split(".", 1)
    if table is not None:
        df = corpus.tables[table]
        if column not in df.columns:
            raise UsageError(f"no column {column!r} in table {table!r}")
        starts, ends = corpus.spans[table][0][column], corpus.spans[table][1][column]
        for i in df.index:
            s, e = starts.at[i], ends.at[i]
            if pd.isna(s) or pd.isna(e):
                continue
            s = int(s) + (offset or 0)
            e = s + length if length is not None else int(e)
            f = df.at[i, "file"]
            if format_id is not None and f not in set(ok["file"]):
                continue
            rows.append({"file": f, "where": f"{table}[{i}].{column}", "offset": s, "raw": data(f)[s:e]})
        if not rows:
            raise UsageError(f"{table}.{column} is computed, not read from bytes")
        return pd.DataFrame(rows, columns=["file", "where", "offset", "raw"])
    if not isinstance(locator, str):
        raise UsageError(f"cannot locate bytes with {locator!r}")
    fast = records_from_columns(corpus, locator, offset, length, format_id, ok, data)
    if fast is not None:
        return fast
    parts = []
    for f in ok["file"]:
        try:
            parts.append(corpus.fields([f], values=False))
        except AnimreError as e:
            failures.append({"file": f, "message": str(e)})
    fields = pd.concat(parts, ignore_index=True) if parts else corpus.fields([], values=False)
    fields = fields[fields["start"].notna() & fields["end"].notna()]
    hit = fields[path_matches(fields["path"], locator)]
    kind = hit["kind"]
    if offset is None and length is None:
        hit = hit[kind == "value"]
    elif (kind != "array").any():
        hit = hit[kind != "array"]  # records or leaves, not the array that holds them
    for r in hit.itertuples(index=False):
        s = int(r.start) + (offset or 0)
        e = s + length if length is not None else int(r.end)
        d = data(r.file)
        if e > len(d):
            continue
        rows.append({"file": r.file, "where": r.path, "offset": s, "raw": d[s:e]})
    return pd.DataFrame(rows, columns=["file", "where", "offset", "raw"])


def records_from_columns(corpus, locator: str, offset, length, format_id, ok: pd.DataFrame,
                          data) -> pd.DataFrame | None:
    """A field path answered from the tables' byte spans, without parsing the files again.

    Used when every field the path matches is a table column read from the
    file (not computed, not skipped by the spec, not inside a container with
    several blocks); otherwise None, and the caller walks the parsed files.
    The rows are the same as the walk's: file order, then offset.
    """
    if not hasattr(corpus, "schema"):
        return None
    sch = corpus.schema
    sch = sch[sch["path"].notna() & (sch["kind"] != "enum name")]
    if format_id is not None:
        sch = sch[sch["spec"] == format_id]
    hit = sch[path_matches(sch["path"], locator)]
    if hit.empty or not hit["kind"].isin(["read", "pos"]).all():
        return None
    plans = {spec: corpus.plan(spec) for spec in set(sch["spec"])}
    for plan in plans.values():
        skipped = pd.Series(plan.skipped, dtype=object)
        if len(skipped) and path_matches(skipped, locator).any():
            return None
    for r in hit.itertuples(index=False):  # a table that keeps only some elements lacks the others
        t = plans[r.spec].tables.get(r.table)
        while t is not None:
            if t.where is not None:
                return None
            t = plans[r.spec].tables.get(t.parent) if t.parent else None
    wanted = set(ok["file"])
    rank = {f: i for i, f in enumerate(ok["file"])}
    rows = []
    for order, r in enumerate(hit.itertuples(index=False)):
        df = corpus.tables.get(r.table)
        if df is None or "block" in df.columns:
            return None if df is not None else pd.DataFrame(columns=["file", "where", "offset", "raw"])
        positions = [k for k in corpus.keys(r.table) if k != "file"]
        starts = corpus.spans[r.table][0][r.column].to_numpy(dtype="float64", na_value=np.nan)
        ends = corpus.spans[r.table][1][r.column].to_numpy(dtype="float64", na_value=np.nan)
        files = df["file"].to_numpy()
        pos = df[positions].to_numpy() if positions else np.zeros((len(df), 0), dtype=int)
        parts = r.path.split("[]")
        for i in np.flatnonzero(~np.isnan(starts) & ~np.isnan(ends)):
            f = files[i]
            if f not in wanted:
                continue
            s = int(starts[i]) + (offset or 0)
            e = s + length if length is not None else int(ends[i])
            d = data(f)
            if e > len(d):
                continue
            where = parts[0] + "".join(f"[{int(p)}]{rest}" for p, rest in zip(pos[i], parts[1:]))
            rows.append(((rank[f], tuple(int(p) for p in pos[i]), order), f, where, s, d[s:e]))
    rows.sort(key=lambda x: x[0])  # the walk's order: file, then record by record
    return pd.DataFrame([r[1:] for r in rows], columns=["file", "where", "offset", "raw"])


def _records_from_table(df: pd.DataFrame, column: Any, length: int | None, byteorder: str) -> pd.DataFrame:
    if column not in df.columns:
        raise UsageError(f"no column {column!r} in the table")
    s = df[column]
    keep = [not is_missing(v) for v in s]
    vals = s[keep]
    out = pd.DataFrame({"file": df.loc[keep, "file"]} if "file" in df.columns else {}, index=vals.index)
    out["where"] = [f"{column}[{i}]" for i in vals.index]
    out["offset"] = pd.NA
    if len(vals) and all(isinstance(v, (bytes, bytearray)) for v in vals):
        out["raw"] = [bytes(v) for v in vals]
        return out
    ints = integral_values(vals)
    if ints is None:
        raise UsageError(f"column {column!r} holds neither bytes nor integers")
    if length is None:
        lo, hi = int(ints.min()), int(ints.max())
        length = next((n for n in (1, 2, 4, 8) if (lo >= -(1 << (8 * n - 1)) and hi < (1 << (8 * n)))), 8)
    mask = (1 << (8 * length)) - 1
    out["raw"] = [(int(v) & mask).to_bytes(length, byteorder) for v in ints]
    return out
