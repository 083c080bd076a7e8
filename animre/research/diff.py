"""Field-level differences between two files, and between two parses of a corpus."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pandas as pd

from ..errors import UsageError
from ._util import is_missing, plain

__all__ = ["diff", "diff_corpora", "DIFF_COLUMNS", "DIFF_CORPORA_COLUMNS"]

DIFF_COLUMNS = ["path", "status", "type", "old", "new", "old_start", "old_end", "new_start", "new_end"]
DIFF_CORPORA_COLUMNS = ["table", "column", "status", "n_rows_a", "n_rows_b", "n_compared",
                        "n_changed", "examples"]


def _fields_of(x: Any, corpus: Any, parsers: Any) -> tuple[pd.DataFrame, str | None, str]:
    from ..corpus import parse_file
    from ..tables import fields_table

    if corpus is not None and isinstance(x, str) and x in set(corpus.files["file"]):
        return corpus.fields(x, values=True), corpus.format_of(x), x
    if isinstance(x, (str, os.PathLike)):
        fmt, obj, bases = parse_file(x, parsers=parsers or (getattr(corpus, "parsers", None) or None))
        return fields_table(obj, str(x), bases, values=True), fmt.name, str(x)
    raise UsageError(f"cannot diff {type(x).__name__}: give a file path or a file name of the corpus")


def _same(x: Any, y: Any) -> bool:
    if is_missing(x) and is_missing(y):
        return True
    if is_missing(x) or is_missing(y):
        return False
    try:
        r = x == y
        return bool(r) if not isinstance(r, np.ndarray) else bool(r.all())
    except Exception:  # noqa: BLE001 - incomparable values differ
        return repr(x) == repr(y)


def diff(a: str | os.PathLike, b: str | os.PathLike, *, corpus: Any = None, parsers: Any = None,
         unchanged: bool = False, moved: bool = True) -> pd.DataFrame:
    """Field-level differences between two files of one format.

    Parameters
    ----------
    a, b : str or path
        File paths, or file names of ``corpus`` (as in its ``file`` column).
    corpus : Corpus, optional
        Where ``a`` and ``b`` are looked up (and its parsers used).
    parsers : dict spec id -> module, optional
        Parser modules to use (e.g. from :func:`animre.compile_spec`).
    unchanged : bool
        Also list fields whose value and position are the same.
    moved : bool
        List fields with the same value at another offset (status ``moved``).

    Returns
    -------
    DataFrame
        ``path, status`` (``changed``, ``added``, ``removed``, ``moved``,
        ``same``), ``type``, ``old``, ``new``, ``old_start``, ``old_end``,
        ``new_start``, ``new_end``; leaf values only, in file order.

    Examples
    --------
    >>> d = diff("frm/GOBLNFRM.BIN", "frm/ORC__FRM.BIN", corpus=c)  # doctest: +SKIP
    >>> d.query("path == 'walk_speed'")[["old", "new"]]  # doctest: +SKIP
    """
    fa, fmt_a, _ = _fields_of(a, corpus, parsers)
    fb, fmt_b, _ = _fields_of(b, corpus, parsers)
    if fmt_a != fmt_b:
        raise UsageError(f"{a} is {fmt_a} but {b} is {fmt_b}: diff compares two files of one format")

    def leaves(f):
        kind = f["kind"] if "kind" in f.columns else f["type"]
        f = f[kind == "value"]
        return f.drop_duplicates("path").set_index("path")

    la, lb = leaves(fa), leaves(fb)
    order = list(dict.fromkeys(list(la.index) + list(lb.index)))
    rows = []
    for p in order:
        ina, inb = p in la.index, p in lb.index
        ra = la.loc[p] if ina else None
        rb = lb.loc[p] if inb else None
        if ina and inb:
            same_v = _same(ra["value"], rb["value"])
            same_pos = _same(ra["start"], rb["start"]) and _same(ra["end"], rb["end"])
            status = "changed" if not same_v else ("same" if same_pos else "moved")
        else:
            status = "removed" if ina else "added"
        if status == "same" and not unchanged or status == "moved" and not moved:
            continue
        rows.append({
            "path": p, "status": status, "type": (ra if ina else rb)["type"],
            "old": plain(ra["value"]) if ina else None, "new": plain(rb["value"]) if inb else None,
            "old_start": ra["start"] if ina else pd.NA, "old_end": ra["end"] if ina else pd.NA,
            "new_start": rb["start"] if inb else pd.NA, "new_end": rb["end"] if inb else pd.NA,
        })
    out = pd.DataFrame(rows, columns=DIFF_COLUMNS)
    for c in ("old_start", "old_end", "new_start", "new_end"):
        out[c] = out[c].astype("Int64")
    return out


def _aligned(df: pd.DataFrame) -> pd.DataFrame:
    df = df.copy()
    if "file" in df.columns:
        df["_n"] = df.groupby("file", sort=False).cumcount()
        return df.set_index(["file", "_n"])
    df["_n"] = np.arange(len(df))
    return df.set_index("_n")


def _differs(x: pd.Series, y: pd.Series) -> np.ndarray:
    try:
        if pd.api.types.is_numeric_dtype(x.dtype) and pd.api.types.is_numeric_dtype(y.dtype):
            xv, yv = x.to_numpy(dtype=np.float64), y.to_numpy(dtype=np.float64)
            return ~((xv == yv) | (np.isnan(xv) & np.isnan(yv)))
    except (TypeError, ValueError):
        pass
    return np.array([not _same(p, q) for p, q in zip(x.tolist(), y.tolist())], dtype=bool)


def diff_corpora(a: Any, b: Any, *, include_same: bool = False, examples: int = 3) -> pd.DataFrame:
    """What changed between two parses of the same files (e.g. before and after a spec edit).

    Rows of a table are matched by file and position within the file.

    Parameters
    ----------
    a, b : Corpus
        The old and the new parse (``open_corpus(path)`` and
        ``open_corpus(path, parsers={spec_id: compile_spec(edited)})``).
    include_same : bool
        Also list columns whose values are all unchanged.
    examples : int
        How many changed cells to show per column.

    Returns
    -------
    DataFrame
        ``table, column, status`` (``table added``, ``table removed``,
        ``column added``, ``column removed``, ``changed``, ``rows changed``,
        ``same``, ``errors new``, ``errors fixed``), ``n_rows_a``,
        ``n_rows_b``, ``n_compared`` (aligned rows), ``n_changed``,
        ``examples`` (dicts: file, row, old, new).

    Examples
    --------
    >>> new = open_corpus("data/samples", parsers={"frm": compile_spec(edited)})  # doctest: +SKIP
    >>> diff_corpora(old, new)  # doctest: +SKIP
    """
    out = []
    names = list(dict.fromkeys(list(a.tables) + list(b.tables)))
    for t in names:
        ta, tb = a.tables.get(t), b.tables.get(t)
        if ta is None or tb is None:
            d = ta if ta is not None else tb
            out.append({"table": t, "column": "", "status": "table removed" if tb is None else "table added",
                        "n_rows_a": 0 if ta is None else len(ta), "n_rows_b": 0 if tb is None else len(tb),
                        "n_compared": 0, "n_changed": len(d), "examples": []})
            continue
        xa, xb = _aligned(ta), _aligned(tb)
        common = xa.index.intersection(xb.index)
        ca = [c for c in xa.columns]
        cb = [c for c in xb.columns]
        if len(xa) != len(xb) or len(common) != len(xa):
            out.append({"table": t, "column": "", "status": "rows changed", "n_rows_a": len(ta),
                        "n_rows_b": len(tb), "n_compared": len(common),
                        "n_changed": len(xa) + len(xb) - 2 * len(common),
                        "examples": [{"file": k[0] if isinstance(k, tuple) else None,
                                      "row": int(k[1] if isinstance(k, tuple) else k),
                                      "side": "a" if k in xa.index else "b"}
                                     for k in xa.index.symmetric_difference(xb.index)[:examples]]})
        for c in list(dict.fromkeys(ca + cb)):
            base = {"table": t, "column": c, "n_rows_a": len(ta), "n_rows_b": len(tb)}
            if c not in xb.columns:
                out.append({**base, "status": "column removed", "n_compared": 0, "n_changed": len(ta),
                            "examples": []})
                continue
            if c not in xa.columns:
                out.append({**base, "status": "column added", "n_compared": 0, "n_changed": len(tb),
                            "examples": []})
                continue
            va, vb = xa.loc[common, c], xb.loc[common, c]
            dif = _differs(va, vb)
            n = int(dif.sum())
            if n == 0 and not include_same:
                continue
            ex = []
            for k in common[dif][:examples]:
                ex.append({"file": k[0] if isinstance(k, tuple) else None,
                           "row": int(k[1] if isinstance(k, tuple) else k),
                           "old": plain(va.loc[k]), "new": plain(vb.loc[k])})
            out.append({**base, "status": "changed" if n else "same", "n_compared": len(common),
                        "n_changed": n, "examples": ex})
    ea, eb = a.errors, b.errors
    fa, fb = set(ea["file"]), set(eb["file"])
    for status, files, src in (("errors new", fb - fa, eb), ("errors fixed", fa - fb, ea)):
        if files:
            sel = src[src["file"].isin(files)]
            out.append({"table": "errors", "column": "", "status": status, "n_rows_a": len(ea),
                        "n_rows_b": len(eb), "n_compared": 0, "n_changed": len(files),
                        "examples": [{"file": r.file, "message": r.message}
                                     for r in sel.head(examples).itertuples(index=False)]})
    return pd.DataFrame(out, columns=DIFF_CORPORA_COLUMNS)
