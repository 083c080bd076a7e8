"""Field-level differences between two files, and between two parses of a corpus."""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np
import pandas as pd

from ..base.display import plain
from ..base.errors import UsageError
from ..tables.fields import fields_table
from ..tables.read import parse
from ._util import is_missing

__all__ = ["diff", "diff_corpora", "DIFF_COLUMNS", "DIFF_CORPORA_COLUMNS"]

DIFF_COLUMNS = ["path", "status", "type", "old", "new", "old_start", "old_end", "new_start", "new_end"]
DIFF_CORPORA_COLUMNS = ["table", "field_a", "field_b", "change", "columns_a", "columns_b", "type_a",
                        "type_b", "n_rows", "n_files", "n_values_changed", "examples"]


def _fields_of(x: Any, corpus: Any, parsers: Any) -> tuple[pd.DataFrame, str | None, str]:

    if corpus is not None and isinstance(x, str) and x in set(corpus.files["file"]):
        return corpus.fields(x, values=True), corpus.format_of(x), x
    if isinstance(x, (str, os.PathLike)):
        fmt, obj, bases = parse(x, parsers=parsers or (getattr(corpus, "parsers", None) or None))
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


def diff(corpus: Any, /, a: str | os.PathLike, b: str | os.PathLike | None = None, *, parsers: Any = None,
         unchanged: bool = False, moved: bool = True) -> pd.DataFrame:
    """Field-level differences between two files of one format.

    Parameters
    ----------
    corpus : Corpus or None
        Where ``a`` and ``b`` are looked up (and its parsers used); None for
        two paths.
    a, b : str or path
        File names of ``corpus`` (as in its ``file`` column), or file paths.
    parsers : dict spec id -> module, optional
        Parser modules to use (e.g. from :func:`animre.spec.compile_spec`).
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
    >>> d = diff(c, "frm/GOBLNFRM.BIN", "frm/ORC__FRM.BIN")
    >>> [int(v) for v in d.set_index("path").loc["walk_speed", ["old", "new", "old_start"]]]
    [400, 200, 162]
    """
    if b is None:
        raise UsageError("diff(corpus, a, b) compares two files: give both")
    fa, fmt_a, _ = _fields_of(a, corpus, parsers)
    fb, fmt_b, _ = _fields_of(b, corpus, parsers)
    if fmt_a != fmt_b:
        raise UsageError(f"{a} is {fmt_a} but {b} is {fmt_b}: diff compares two files of one format")

    def leaves(f):
        kind = f["kind"]
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


def _row_pairs(a: Any, b: Any, t: str) -> tuple[np.ndarray, np.ndarray]:
    """Row positions of table ``t`` in ``a`` and ``b`` matched by file and the key columns both have."""
    ta, tb = a.tables[t], b.tables[t]
    keys = [k for k in a.keys(t) if k in b.keys(t) and k in ta.columns and k in tb.columns] or ["file"]
    la = ta[keys].assign(_n=ta.groupby(keys, sort=False).cumcount(), _ia=np.arange(len(ta)))
    lb = tb[keys].assign(_n=tb.groupby(keys, sort=False).cumcount(), _ib=np.arange(len(tb)))
    m = la.merge(lb, on=keys + ["_n"], how="inner")
    return m["_ia"].to_numpy(), m["_ib"].to_numpy()


def _fields(c: Any, t: str) -> dict[str, dict]:
    """Spec fields of table ``t``: field -> {columns, type, kind, read (has bytes)}."""
    out: dict[str, dict] = {}
    for r in c.columns(t).itertuples(index=False):
        if r.kind == "key":
            continue
        f = r.field if isinstance(r.field, str) and r.kind != "derived" else f"(derived).{r.column}"
        d = out.setdefault(f, {"columns": [], "type": r.type, "kind": r.kind, "read": False})
        d["columns"].append(r.column)
        if r.kind in ("read", "pos", "value (bits)", "list"):
            d["read"] = True
        if r.kind != "enum name":
            d["type"] = r.type
    return out


def _span_arrays(c: Any, t: str, cols: list[str], rows: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """(starts, ends) as float arrays (NaN = not read) of each of a field's columns, for the matched rows."""
    if t not in c.spans:
        return []
    s, e = c.spans[t]
    return [(s[x].to_numpy(dtype="float64", na_value=np.nan)[rows],
             e[x].to_numpy(dtype="float64", na_value=np.nan)[rows]) for x in cols if x in s.columns]


def _spans(c: Any, t: str, cols: list[str], rows: np.ndarray) -> tuple | None:
    """A fingerprint of where a field's columns sit in the files (None when nothing was read)."""
    parts = {(np.nan_to_num(st, nan=-1).tobytes(), np.nan_to_num(en, nan=-1).tobytes())
             for st, en in _span_arrays(c, t, cols, rows) if not np.isnan(st).all()}
    return tuple(sorted(parts)) if parts else None


def _changed_rows(ta, tb, ca: list[str], cb: list[str], ia, ib) -> np.ndarray:
    """Rows where the field's values differ (columns compared in order; enum names ignored)."""
    dif = np.zeros(len(ia), dtype=bool)
    for x, y in zip(ca, cb):
        dif |= _differs(ta[x].iloc[ia].reset_index(drop=True), tb[y].iloc[ib].reset_index(drop=True))
    return dif


def _name(field: str) -> str:
    return field.rsplit(".", 1)[-1]


def _differs(x: pd.Series, y: pd.Series) -> np.ndarray:
    try:
        if pd.api.types.is_numeric_dtype(x.dtype) and pd.api.types.is_numeric_dtype(y.dtype):
            xv, yv = x.to_numpy(dtype=np.float64, na_value=np.nan), y.to_numpy(dtype=np.float64, na_value=np.nan)
            return ~((xv == yv) | (np.isnan(xv) & np.isnan(yv)))
    except (TypeError, ValueError):
        pass
    return np.array([not _same(p, q) for p, q in zip(x.tolist(), y.tolist())], dtype=bool)


def diff_corpora(a: Any, b: Any, *, include_same: bool = False, examples: int = 3,
                 derived: bool = False) -> pd.DataFrame:
    """What changed between two parses of the same files: one row per changed spec field.

    Fields read from the file are matched by the byte ranges they cover in
    every row (so a rename or a retype of the same bytes is one row);
    computed fields, and fields no row reaches on either side (a switch case
    no file takes: empty columns, no bytes), are matched by name and type.
    Rows are matched by file and key columns.

    Parameters
    ----------
    a, b : Corpus
        The old and the new parse (``open_corpus(path)`` and
        ``open_corpus(path, parsers={spec_id: compile_spec(edited)})``).
    include_same : bool
        Also list fields that did not change at all.
    examples : int
        How many changed cells to show per field.
    derived : bool
        Also compare the formats' derived columns (not spec fields; a derived
        column whose fields the new spec lacks is listed in ``b.unavailable``).

    Returns
    -------
    DataFrame
        ``table``, ``field_a``, ``field_b`` (spec field ``type.id``),
        ``change`` (``renamed``, ``retyped``, ``values changed`` joined by
        ", "; or ``added``, ``removed``, ``split``, ``merged``, ``table
        added``, ``table removed``, ``errors new``, ``errors fixed``,
        ``same``), ``columns_a``, ``columns_b``, ``type_a``, ``type_b``,
        ``n_rows`` and ``n_files`` affected (every row for a rename),
        ``n_values_changed`` (rows whose value differs), ``examples`` (file,
        old, new).

    Examples
    --------
    >>> old = open_corpus("data/samples/frm", cache=False)
    >>> edited = open("ksy/frm.ksy").read().replace("- id: unknown_magic\\n    type: u1",
    ...                                             "- id: format_version\\n    type: s1")
    >>> import warnings; warnings.simplefilter("ignore")  # the magic-byte claim is now not testable
    >>> from animre.spec import compile_spec
    >>> new = open_corpus("data/samples/frm", cache=False, parsers={"frm": compile_spec(edited)})
    >>> diff_corpora(old, new)[["field_a", "field_b", "change", "n_files"]].values.tolist()
    [['frm.unknown_magic', 'frm.format_version', 'renamed, retyped', 37]]
    """
    out: list[dict] = []
    names = list(dict.fromkeys([t for t in a.tables if t != "files"] + [t for t in b.tables if t != "files"]))
    for t in names:
        ta, tb = a.tables.get(t), b.tables.get(t)
        if ta is None or tb is None:
            d = ta if ta is not None else tb
            out.append(_row(t, None, None, "table added" if ta is None else "table removed", len(d),
                            d["file"].nunique() if "file" in d else 0))
            continue
        out.extend(_diff_table(a, b, t, ta, tb, include_same, examples, derived))
    ea, eb = a.errors, b.errors
    fa, fb = set(ea["file"]), set(eb["file"])
    for status, files, src in (("errors new", fb - fa, eb), ("errors fixed", fa - fb, ea)):
        if files:
            sel = src[src["file"].isin(files)]
            out.append({**_row("errors", None, None, status, len(sel), len(files)),
                        "examples": [{"file": r.file, "message": r.message}
                                     for r in sel.head(examples).itertuples(index=False)]})
    return pd.DataFrame(out, columns=DIFF_CORPORA_COLUMNS)


def _row(t, fa, fb, change, n_rows, n_files, **kw) -> dict:
    return {"table": t, "field_a": fa, "field_b": fb, "change": change,
            "columns_a": kw.get("columns_a", []), "columns_b": kw.get("columns_b", []),
            "type_a": kw.get("type_a"), "type_b": kw.get("type_b"), "n_rows": int(n_rows),
            "n_files": int(n_files), "n_values_changed": kw.get("n_values_changed", 0),
            "examples": kw.get("examples", [])}


def _diff_table(a, b, t, ta, tb, include_same, examples, derived) -> list[dict]:
    ia, ib = _row_pairs(a, b, t)
    fa, fb = _fields(a, t), _fields(b, t)
    if not derived:
        fa = {f: d for f, d in fa.items() if d["kind"] != "derived"}
        fb = {f: d for f, d in fb.items() if d["kind"] != "derived"}
    files = ta["file"].to_numpy()[ia] if "file" in ta.columns else np.zeros(len(ia))
    out = []
    fp_b: dict[tuple, list[str]] = {}
    for f, d in fb.items():
        fp = _spans(b, t, d["columns"], ib) if d["read"] else None
        if fp is not None:
            fp_b.setdefault(fp, []).append(f)
    matched_b: set[str] = set()
    unmatched_a: list[str] = []
    unread_b = {f for f, d in fb.items() if not d["read"] or _spans(b, t, d["columns"], ib) is None}
    for f, d in fa.items():
        g = None
        fp = _spans(a, t, d["columns"], ia) if d["read"] else None
        if fp is not None:
            cands = [x for x in fp_b.get(fp, []) if x not in matched_b]
            # several fields on the same bytes (bit fields, a text view of raw bytes): same name first
            g = next((x for x in cands if x == f), None) or next(
                (x for x in cands if x not in fa), None) or (cands[0] if cands else None)
        elif f in unread_b and ((not d["read"] and not fb[f]["read"]) or fb[f]["type"] == d["type"]):
            g = f  # no bytes on either side: computed (by name), or a switch case no file reaches (name and type)
        if g is None or g in matched_b:
            unmatched_a.append(f)
            continue
        matched_b.add(g)
        e = fb[g]
        ca = [c for c in d["columns"] if not c.endswith("_name") or c == d["columns"][0]]
        cb = [c for c in e["columns"] if not c.endswith("_name") or c == e["columns"][0]]
        dif = _changed_rows(ta, tb, ca, cb, ia, ib) if len(ca) == len(cb) else np.ones(len(ia), bool)
        kinds = []
        if _name(f) != _name(g):
            kinds.append("renamed")
        if d["type"] != e["type"]:
            kinds.append("retyped")
        if dif.any():
            kinds.append("values changed")
        if not kinds and not include_same:
            continue
        ex = [{"file": files[i], "old": plain(ta[ca[0]].iloc[ia[i]]), "new": plain(tb[cb[0]].iloc[ib[i]])}
              for i in np.flatnonzero(dif)[:examples]] if ca and cb else []
        if "renamed" in kinds or not dif.any():  # every row's cell is now another column / type
            n, nf = len(ia), len(set(files))
        else:
            n, nf = int(dif.sum()), len(set(files[dif]))
        out.append(_row(t, f, g, ", ".join(kinds) or "same", n, nf, columns_a=d["columns"],
                        columns_b=e["columns"], type_a=d["type"], type_b=e["type"], examples=ex,
                        n_values_changed=int(dif.sum())))
    unmatched_b = [g for g in fb if g not in matched_b]
    ranges_b = {g: _range(b, t, fb[g]["columns"], ib) for g in unmatched_b}
    used_b: set[str] = set()
    for f in unmatched_a:
        r = _range(a, t, fa[f]["columns"], ia)
        inside = [g for g, rg in ranges_b.items() if r and rg and r[0] <= rg[0] and rg[1] <= r[1]]
        cover = [g for g, rg in ranges_b.items() if r and rg and rg[0] <= r[0] and r[1] <= rg[1]]
        if len(inside) > 1:
            used_b.update(inside)
            out.append(_row(t, f, ", ".join(inside), "split", len(ia), len(set(files)),
                            columns_a=fa[f]["columns"], columns_b=[c for g in inside for c in fb[g]["columns"]],
                            type_a=fa[f]["type"]))
        elif cover:
            used_b.update(cover[:1])
            out.append(_row(t, f, cover[0], "merged", len(ia), len(set(files)), columns_a=fa[f]["columns"],
                            columns_b=fb[cover[0]]["columns"], type_a=fa[f]["type"],
                            type_b=fb[cover[0]]["type"]))
        else:
            out.append(_row(t, f, None, "removed", len(ta), ta["file"].nunique(), columns_a=fa[f]["columns"],
                            type_a=fa[f]["type"]))
    merged = {}
    for r in out:  # several old fields merged into one new field: one row
        if r["change"] == "merged":
            merged.setdefault(r["field_b"], []).append(r)
    for rs in merged.values():
        if len(rs) > 1:
            for r in rs[1:]:
                out.remove(r)
            rs[0]["field_a"] = ", ".join(r["field_a"] for r in rs)
            rs[0]["columns_a"] = [c for r in rs for c in r["columns_a"]]
    for g in unmatched_b:
        if g not in used_b:
            out.append(_row(t, None, g, "added", len(tb), tb["file"].nunique(), columns_b=fb[g]["columns"],
                            type_b=fb[g]["type"]))
    return out


def _range(c, t, cols, rows) -> tuple[int, int] | None:
    """Byte range [start, end) of a field in the first matched row where it was read."""
    arrays = _span_arrays(c, t, cols, rows) if len(rows) else []
    if not arrays:
        return None
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN rows: fields not read there
        st = np.nanmin(np.vstack([a for a, _ in arrays]), axis=0)
        en = np.nanmax(np.vstack([b for _, b in arrays]), axis=0)
    ok = np.flatnonzero(~np.isnan(st))
    if not len(ok):
        return None
    return int(st[ok[0]]), int(en[ok[0]])
