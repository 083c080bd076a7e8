"""Relations between the columns of a table, guarded against chance findings.

For every ordered pair (target, source) :func:`relations` tests whether the
target equals the source, is the source plus a constant, a constant multiple
of it (``k * source``, also halves), the source floor-divided
(``source // d``), a simple linear function of it (``c - source``,
``(c - source) // 2`` ...), the source under a bit mask, or is functionally
determined by it; and, for categorical sources, partial rules
(``source == v -> target == c``, ``target bit set -> source == v``).
Columns that split the rows identically (``slot`` / ``slot_name``) are
reported once as ``one_to_one``. Derived quantities (record index within its
file, records per file, file size) and the single bits of flag-like columns
take part too.

A finding is kept only when it holds in at least ``min_support`` of the rows
and far more often than on shuffled data (permutation test), or, for the
partial rules, when its binomial tail probability is tiny; columns of random
values therefore produce no high-support findings.

Rows are not independent samples: the files of one folder (one unit, one
fighter, one character) share values, and a copied file repeats all of its
rows. Files with identical content therefore count once, and rows are
grouped (by default by the file's folder): every finding reports how many
independent groups it was tested on and holds in, a finding backed by a
single group is dropped, and a partial rule's p-value counts groups, not rows.
General rules (arithmetic, products, masks, dependencies) rank above partial
``when`` rules.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..display import fmt
from ..errors import UsageError
from ..formats import all_formats
from ._util import integral_values, numeric_column, plain, resolve_table, unique_file_rows

__all__ = ["relations", "RELATION_KINDS", "RELATION_COLUMNS"]

RELATION_KINDS = ("equal", "offset", "multiple", "divide", "linear", "mask", "one_to_one",
                  "functional", "only_when", "when")
MAX_PRODUCT_COLUMNS = 40  # products of pairs: the number of candidate pairs grows quadratically
_SPECIFICITY = {k: i for i, k in enumerate(RELATION_KINDS)}
RELATION_COLUMNS = ["target", "source", "relation", "parameter", "support", "n_agree", "n_rows",
                    "n_groups", "groups_agree", "baseline", "p_value", "counterexamples"]
PARTIAL = ("only_when", "when")
ARITHMETIC = ("equal", "offset", "multiple", "divide", "linear", "mask")
KEY_NAMES = ("move", "sprite", "track", "key", "state", "parm", "anim", "frame", "chunk", "slot",
             "position", "animation", "index", "id")
DERIVED = ("row_in_file", "rows_in_file", "file_size")


@dataclass
class _Col:
    name: str
    num: np.ndarray | None  # float64 with NaN for missing
    ints: np.ndarray | None  # int64 where present (garbage elsewhere) when integral
    codes: np.ndarray  # factorized codes, -1 missing
    n_distinct: int
    present: np.ndarray
    source_only: bool = False
    parent: str | None = None
    label_values: list | None = None
    minority: int = 0  # rows whose value is not the most common one


def relations(table: pd.DataFrame | str, columns: Iterable[str] | None = None, *, derived: bool = True,
              min_support: float = 0.9, corpus: Any = None, bits: bool | str = "flags",
              n_permutations: int = 20, seed: int = 0, max_counterexamples: int = 20,
              products: bool = True, groups: str | pd.Series | None = "folder",
              unique_files: bool = True) -> pd.DataFrame:
    """Find relations between columns of a table.

    Parameters
    ----------
    table : DataFrame or str
        A table (or its name in ``corpus.tables``).
    columns : iterable of str, optional
        Only these columns (default: all but ``file`` and, with ``corpus``, the
        table's key columns, which are record positions).
    derived : bool
        Also test against ``row_in_file``, ``rows_in_file`` and ``file_size``
        (file size needs ``corpus``).
    min_support : float
        Share of rows that must agree for a finding to be reported.
    corpus : Corpus, optional
        Source of file sizes and of table key columns for counterexamples.
    bits : bool or "flags"
        Test single bits of integer columns as targets (``"flags"``: only
        columns whose values look like bit flags).
    n_permutations : int
        Shuffles of the source per candidate for the chance baseline.
    seed : int
        Random seed of the shuffles (results are deterministic).
    products : bool
        Also test whether a column equals the product of two others
        (``anim_time = anim_length * speed``); the source is then named
        ``"a * b"``. Only integer columns, at most
        :data:`MAX_PRODUCT_COLUMNS` of them, and only products that hold on
        rows where the target is not 0 (a 0 * x = 0 coincidence proves nothing).
    groups : str, Series or None
        What makes samples independent: ``"folder"`` (default: the file's
        folder, or the file itself when every file sits in one folder),
        ``"file"``, a column name (``"unit"``, ``"fighter"``), a Series
        aligned with the table, or None (every row on its own). A finding
        whose agreeing rows all come from one group is not reported, and
        partial rules are tested on groups.
    unique_files : bool
        With ``corpus``: rows of a file whose content (sha256) repeats an
        earlier file are left out, so identical files count once.

    Returns
    -------
    DataFrame
        ``target, source, relation`` (one of :data:`RELATION_KINDS`),
        ``parameter`` (offset c, factor k, divisor d, ``"k=-1, c=170"``,
        mask, rule text), ``support`` (share of rows that
        agree), ``n_agree``, ``n_rows``, ``n_groups`` (independent groups
        tested), ``groups_agree`` (groups where most rows agree), ``baseline`` (mean support on
        shuffled data, or the rate expected by chance), ``p_value``, and
        ``counterexamples`` (file, row, key columns and both values of rows
        that disagree). General rules first (by support, then simplicity),
        then partial rules.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"damage": [10, 20, 31, 40, 50, 64, 70, 82, 90, 100],
    ...                    "unknown_6": [5, 10, 15, 20, 25, 32, 35, 41, 45, 99]})
    >>> r = relations(df)
    >>> best = r.iloc[0]
    >>> best["target"], best["source"], best["relation"], best["parameter"], int(best["n_agree"])
    ('unknown_6', 'damage', 'divide', 2, 9)
    >>> [c["row"] for c in best["counterexamples"]]
    [9]
    """
    df, name = resolve_table(table, corpus)
    if unique_files:
        df = unique_file_rows(df, corpus)
    gid = _group_ids(df, groups)
    positions: set = set()
    if columns is None and corpus is not None and name is not None and hasattr(corpus, "keys"):
        positions = set(corpus.keys(name))  # record positions: trivially equal to row_in_file and kin
    index_cols = _index_columns(df, name, corpus)
    cols_wanted = [c for c in (columns if columns is not None else df.columns)
                   if c != "file" and c not in positions]
    n = len(df)
    cols: list[_Col] = []
    for c in cols_wanted:
        col = _make_col(df[c], str(c))
        if col is not None:
            cols.append(col)
    if derived and "file" in df.columns and n:
        g = df.groupby("file", sort=False)
        cols.append(_make_col(pd.Series(g.cumcount().to_numpy(), index=df.index), "row_in_file",
                              source_only=True))
        cols.append(_make_col(pd.Series(g["file"].transform("size").to_numpy(), index=df.index),
                              "rows_in_file", source_only=True))
        if corpus is not None:
            sizes = corpus.files.set_index("file")["size"]
            fs = df["file"].map(sizes)
            col = _make_col(pd.Series(fs.to_numpy(dtype="float64"), index=df.index), "file_size",
                            source_only=True)
            if col is not None:
                cols.append(col)
    cols = [c for c in cols if c is not None]
    if bits:
        cols += _bit_cols([c for c in cols if not c.source_only], only_flags=(bits == "flags"))
    keys = _key_columns(df, name, corpus)
    rng = np.random.default_rng(seed)
    found: list[dict] = []
    # columns that split the rows identically (slot / slot_name / row_in_file) are aliases:
    # relate each alias to its representative once, and test only the representative further
    reps: dict[bytes, _Col] = {}
    active: list[_Col] = []
    for c in cols:
        sig = c.codes.tobytes()
        cnt = np.bincount(c.codes[c.present]) if c.present.any() else np.zeros(1, int)
        if (cnt >= 2).sum() < 2 or cnt[cnt >= 2].sum() < 0.5 * len(c.codes):
            active.append(c)  # (nearly) unique values: sharing their partition proves nothing
            continue
        rep = reps.get(sig)
        if rep is None:
            reps[sig] = c
            active.append(c)
            continue
        t, s_ = (rep, c) if c.source_only else (c, rep)
        if t.source_only or c.n_distinct < 2:
            continue
        both = t.present & s_.present
        found += _test_pair(t, s_, both, int(both.sum()), min_support, 0, rng, alias=True)
    active_ids = {id(c) for c in active}
    rep_of = {id(c): c if id(c) in active_ids else reps[c.codes.tobytes()] for c in cols}
    for t in cols:
        if t.source_only or t.n_distinct < 2 or t.minority < 3:
            continue
        for s in cols:
            if s is t or s.n_distinct < 2 or s.name == t.parent or t.name == s.parent:
                continue
            if s.parent is not None and s.parent == t.parent:
                continue
            both = t.present & s.present
            nb = int(both.sum())
            if nb < 5:
                continue
            # arithmetic between any columns, aliases too (width and x_offset can split the rows
            # alike and still obey a law); partition rules only between representatives
            categorical = id(t) in active_ids and id(s) in active_ids and rep_of[id(s)] is not rep_of[id(t)]
            found += _test_pair(t, s, both, nb, min_support, n_permutations, rng,
                                categorical=categorical)
    if products:
        found += _products(cols, min_support, n_permutations, rng)
    found = [f for f in found if not _index_rule(f, index_cols)]
    found = _by_groups(found, gid)
    found = _dedupe(found)
    out = []
    for f in found:
        agree = f.pop("_agree")
        rows_mask = f.pop("_rows")
        t, s = f.pop("_t"), f.pop("_s")
        bad = np.flatnonzero(rows_mask & ~agree)
        f["counterexamples"] = [_counter(df, keys, i, t, s) for i in bad[:max_counterexamples]]
        out.append(f)
    res = pd.DataFrame(out, columns=RELATION_COLUMNS)
    res["parameter"] = pd.Series([f["parameter"] for f in out], index=res.index, dtype=object)
    if len(res):
        res["_partial"] = res["relation"].isin(PARTIAL)
        res["_spec"] = res["relation"].map(_SPECIFICITY)
        res["_bin"] = (res["support"] * 100).round().astype(int)
        res["_explained"] = _explained_by_law(res)
        res = res.sort_values(["_partial", "_explained", "_bin", "_spec", "groups_agree", "support", "n_rows"],
                              ascending=[True, True, False, True, False, False, False],
                              kind="stable").drop(columns=["_partial", "_explained", "_spec", "_bin"]) \
            .reset_index(drop=True)
    return res


def _group_ids(df: pd.DataFrame, groups: Any) -> np.ndarray:
    """Integer group of every row (independent samples); each row its own group when unknown."""
    n = len(df)
    if groups is None or (isinstance(groups, str) and groups in ("folder", "file") and "file" not in df.columns):
        return np.arange(n)
    if isinstance(groups, pd.Series):
        labels = groups.reindex(df.index)
    elif groups == "folder":
        folders = df["file"].astype(str).map(lambda f: f.rsplit("/", 1)[0] if "/" in f else "")
        labels = folders if folders.nunique() >= 2 else df["file"]
    elif groups in df.columns:
        labels = df[groups]
    else:
        raise UsageError(f"groups={groups!r}: not 'folder', 'file' or a column of the table")
    codes, _ = pd.factorize(labels.astype(str).where(labels.notna(), None), use_na_sentinel=True)
    codes = np.asarray(codes, dtype=np.int64)
    missing = codes < 0
    codes[missing] = codes.max(initial=-1) + 1 + np.arange(int(missing.sum()))  # ungrouped rows stand alone
    return codes


def _parts(f: dict) -> set[str]:
    """Columns a finding relates: its target and every factor of its source (``a * b``)."""
    return {f["target"], *str(f["source"]).split(" * ")}


def _index_columns(df: pd.DataFrame, name: str | None, corpus: Any) -> set[str]:
    """Columns that number records: the spec's keys and ``-animre-id`` fields, and derived columns
    computed from keys only (``flc_frames.frame`` from ``chunk_index``); without a corpus, key names."""
    if corpus is None or name is None or not hasattr(corpus, "keys"):
        return {c for c in df.columns if str(c) in KEY_NAMES}
    keys = set(corpus.keys(name))
    out = keys | set(corpus.ids(name) if hasattr(corpus, "ids") else ())
    for f in all_formats().values():
        for d in f.derived:
            if d.table == name and d.reads and all(c in (keys if t == name else corpus.keys(t))
                                                   for t, c in d.reads if t in corpus.tables):
                out.add(d.column)
    return out


def _index_rule(f: dict, index_cols: set[str]) -> bool:
    """A rule between a column that numbers records and the row number (``frame == row_in_file``)."""
    parts = _parts(f)
    return bool(parts & index_cols) and bool(parts & {"row_in_file", "rows_in_file"})


def _explained_by_law(res: pd.DataFrame) -> list[bool]:
    """Dependencies (functional, one-to-one) between columns that an arithmetic law listed relates."""
    laws = [_parts(r) for r in res.to_dict("records") if r["relation"] in ARITHMETIC]
    return [r["relation"] in ("functional", "one_to_one") and any({r["target"], r["source"]} <= p for p in laws)
            for r in res.to_dict("records")]


def _by_groups(found: list[dict], gid: np.ndarray) -> list[dict]:
    """Count every finding in independent groups; drop what a single group backs.

    ``n_groups``: groups among the tested rows; ``groups_agree``: groups where
    most tested rows agree. When groups are coarser than rows, a finding
    must hold in at least two groups, and its p-value is at least the
    binomial tail of ``groups_agree`` of ``n_groups`` at its chance
    baseline; a partial rule is kept only when that tail is below 0.01.
    """
    coarse = len(gid) and len(np.unique(gid)) < len(gid)
    out = []
    for f in found:
        rows, agree = f["_rows"], f["_agree"]
        g_rows = gid[rows]
        uniq, inv = np.unique(g_rows, return_inverse=True)
        n_agree_g = np.bincount(inv, weights=agree[rows].astype(float), minlength=len(uniq))
        n_rows_g = np.bincount(inv, minlength=len(uniq))
        agree_g = int((n_agree_g * 2 > n_rows_g).sum())
        f["n_groups"], f["groups_agree"] = len(uniq), agree_g
        if coarse:
            if agree_g < 2:
                continue
            q = f["baseline"] if isinstance(f["baseline"], float) and f["baseline"] == f["baseline"] else 0.5
            lp = _log_binom_tail(agree_g, len(uniq), q)
            if f["relation"] in PARTIAL:
                if lp > -2:
                    continue
                f["p_value"] = 10 ** lp
            elif isinstance(f["p_value"], float) and f["p_value"] == f["p_value"]:
                f["p_value"] = max(f["p_value"], 10 ** lp)  # no smaller than the groups allow
        out.append(f)
    return out


def _products(cols: list[_Col], min_support: float, n_perm: int, rng: np.random.Generator) -> list[dict]:
    """Targets equal to the product of two other integer columns (cheap prefilter, then full test)."""
    cand = [c for c in cols if c.ints is not None and c.parent is None and c.n_distinct >= 2]
    if len(cand) > MAX_PRODUCT_COLUMNS:
        cand = sorted(cand, key=lambda c: -c.n_distinct)[:MAX_PRODUCT_COLUMNS]
    out: list[dict] = []
    for t in cand:
        if t.source_only or t.n_distinct < 3 or t.minority < 3:
            continue
        for i, a in enumerate(cand):
            for b in cand[i + 1:]:
                if t is a or t is b:
                    continue
                both = t.present & a.present & b.present
                nb = int(both.sum())
                if nb < 5:
                    continue
                with np.errstate(over="ignore"):
                    prod = a.ints * b.ints
                agree = both & (t.ints == prod)
                if agree.sum() < min_support * nb or (agree & (t.ints != 0)).sum() < 5:
                    continue
                pc = _make_col(pd.Series(np.where(both, prod.astype(np.float64), np.nan)),
                               f"{a.name} * {b.name}", source_only=True)
                if pc is None:
                    continue
                out += [f for f in _test_pair(t, pc, both, nb, min_support, n_perm, rng, categorical=False)
                        if f["relation"] == "equal"]
    return out


# ----------------------------------------------------------------------------- columns


def _make_col(s: pd.Series, name: str, source_only: bool = False) -> _Col | None:
    num_s = numeric_column(s)
    num = None if num_s is None else num_s.to_numpy(dtype=np.float64)
    ints = None
    if num is not None and (pd.api.types.is_bool_dtype(s.dtype) or integral_values(s) is not None):
        ints = np.where(np.isnan(num), 0, num).astype(np.int64)
    try:
        codes, uniq = pd.factorize(s if num is None else pd.Series(num), use_na_sentinel=True)
    except TypeError:
        codes, uniq = pd.factorize(s.map(repr), use_na_sentinel=True)
    codes = np.asarray(codes, dtype=np.int64)
    present = codes >= 0
    counts = np.bincount(codes[present], minlength=len(uniq)) if len(uniq) else np.zeros(1, int)
    return _Col(name, num, ints, codes, len(uniq), present, source_only,
                label_values=[plain(u) for u in uniq], minority=int(present.sum() - counts.max()))


def _bit_cols(cols: list[_Col], only_flags: bool) -> list[_Col]:
    from ._profile import _flags_note

    out = []
    for c in cols:
        if c.ints is None or c.n_distinct < 3 or c.parent is not None:
            continue
        v = c.ints[c.present]
        if not len(v) or v.min() < 0 or v.max() >= 1 << 32:
            continue
        u = v.astype(np.uint64)
        width = 8 if v.max() < 256 else 16 if v.max() < 65536 else 32
        rates = [float(((u >> np.uint64(b)) & np.uint64(1)).mean()) for b in range(width)]
        if only_flags and not _flags_note(v, u, rates, c.n_distinct, len(v)):
            continue
        for b, r in enumerate(rates):
            if 0 < r < 1:
                m = 1 << b
                bit = np.where(c.present, (c.ints & m) != 0, False).astype(np.float64)
                bit[~c.present] = np.nan
                col = _make_col(pd.Series(bit), f"{c.name} & 0x{m:x}")
                col.parent = c.name
                out.append(col)
    return out


def _key_columns(df: pd.DataFrame, name: str | None, corpus: Any) -> list[str]:
    keys: list[str] = []
    if corpus is not None and name is not None and hasattr(corpus, "keys"):
        keys = [k for k in corpus.keys(name) if k in df.columns and k != "file"]
    if not keys:
        keys = [c for c in df.columns if str(c) in KEY_NAMES][:3]
    return keys


def _counter(df: pd.DataFrame, keys: list[str], i: int, t: _Col, s: _Col) -> dict:
    d: dict[str, Any] = {}
    if "file" in df.columns:
        d["file"] = df["file"].iat[i]
    d["row"] = plain(df.index[i])
    for k in keys:
        d[k] = plain(df[k].iat[i])
    d["target_value"] = _val(t, i)
    d["source_value"] = _val(s, i)
    return d


def _val(c: _Col, i: int) -> Any:
    if c.codes[i] < 0:
        return None
    v = c.label_values[c.codes[i]] if c.label_values is not None else None
    if c.parent is not None:
        return bool(v)
    if isinstance(v, float) and c.ints is not None and v == int(v):
        return int(v)
    return v


# ----------------------------------------------------------------------------- testing


def _mode(x: np.ndarray):
    if not len(x):
        return None, 0
    vals, counts = np.unique(x, return_counts=True)
    j = int(np.argmax(counts))
    return vals[j], int(counts[j])


_LINEAR_K = (-1.0, 2.0, -2.0, 0.5, -0.5, 4.0, -4.0, 0.25, -0.25)


def _round_sig(x: np.ndarray, digits: int = 6) -> np.ndarray:
    """Round to ``digits`` significant digits (float32 noise must not split a mode)."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        mag = np.where(x == 0, 0.0, np.floor(np.log10(np.abs(np.where(x == 0, 1.0, x)))))
        m = 10.0 ** (mag - (digits - 1))
        return np.where(np.isfinite(x), np.round(x / m) * m, x)


def _nice(k: float) -> float:
    """Snap a ratio to a nearby integer or simple fraction."""
    for den in (1, 2, 3, 4, 8, 10, 16, 60, 100, 256):
        r = round(k * den) / den
        if abs(r - k) <= 1e-6 * max(1.0, abs(k)):
            return r
    return k


def _pnum(v: float) -> int | float:
    v = plain(v)
    return int(v) if isinstance(v, float) and v == int(v) and abs(v) < 2**53 else v


def _arith(kind: str, t: np.ndarray, s: np.ndarray, ti: np.ndarray | None, si: np.ndarray | None):
    """(parameter, agree mask) of the best relation of one kind, or (None, None)."""
    flt = ti is None or si is None

    def close(x, y):
        return np.isclose(x, y, rtol=1e-6, atol=1e-9) if flt else x == y

    with np.errstate(all="ignore"):
        if kind == "equal":
            return None, close(t, s)
        if kind == "offset":
            c, _ = _mode(_round_sig(t - s) if flt else t - s)
            if c is None or c == 0 or not np.isfinite(c):
                return None, None
            return _pnum(c), close(t - s, c)
        if kind == "multiple":
            nz = s != 0
            if nz.sum() < 3:
                return None, None
            k, _ = _mode(_round_sig(t[nz] / s[nz]))
            if k is None or not np.isfinite(k):
                return None, None
            k = _nice(float(k))
            if k in (0.0, 1.0):
                return None, None
            return _pnum(k), np.isclose(t, k * s, rtol=1e-6, atol=1e-9)
        if kind == "linear":
            best = (None, None, -1)
            for k in _LINEAR_K:
                for floor in ((False, True) if not flt and k != int(k) else (False,)):
                    ks = np.floor(k * s) if floor else k * s
                    c, n = _mode(_round_sig(t - ks) if flt else t - ks)
                    if c is None or not np.isfinite(c) or n <= best[2]:
                        continue
                    if c == 0 and not floor:
                        continue  # a plain multiple
                    param = f"k={_pnum(k)}, c={_pnum(c)}" + (", floor" if floor else "")
                    best = (param, close(t, ks + c), n)
            return best[0], best[1]
        if kind == "divide":
            if ti is None or si is None:
                return None, None
            nz = ti != 0
            if nz.sum() < 3:
                return None, None
            d, _ = _mode(np.round(si[nz] / ti[nz]))
            if d is None or d < 2 or not np.isfinite(d):
                return None, None
            d = int(d)
            return d, ti == np.floor_divide(si, d)
        if kind == "mask":
            if ti is None or si is None or ti.min() < 0 or si.min() < 0 or si.max() >= 1 << 62:
                return None, None
            m = 0
            top = int(max(ti.max(), si.max())).bit_length()
            for b in range(top):
                sb = ((si >> b) & 1) == 1
                if not sb.any():
                    continue
                tb = ((ti >> b) & 1) == 1
                if (tb & sb).sum() * 2 > sb.sum():
                    m |= 1 << b
            full = (1 << top) - 1
            if m == 0 or (m & int(np.bitwise_or.reduce(si))) == int(np.bitwise_or.reduce(si)) or m == full:
                return None, None
            return f"0x{m:x}", ti == (si & m)
    return None, None


def _functional(tc: np.ndarray, sc: np.ndarray, nt: int, ns: int):
    """Support of 'source determines target' and the agree mask (majority target per source value)."""
    table = np.bincount(sc * nt + tc, minlength=ns * nt).reshape(ns, nt)
    best = table.argmax(axis=1)
    agree = tc == best[sc]
    return agree


def _log_binom_tail(k: int, n: int, p: float) -> float:
    """log10 P(X >= k), X ~ Binomial(n, p)."""
    p = min(max(p, 1e-12), 1 - 1e-12)
    terms = []
    for j in range(k, n + 1):
        terms.append(math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1)
                     + j * math.log(p) + (n - j) * math.log1p(-p))
    if not terms:
        return 0.0
    mx = max(terms)
    return (mx + math.log(sum(math.exp(x - mx) for x in terms))) / math.log(10)


def _beats_chance(support: float, perms: list[float]) -> tuple[bool, float, float]:
    """The false-discovery guard: (holds far above chance, baseline, p-value).

    ``perms`` are the supports of the same relation on shuffled sources. A
    finding must beat every shuffle and close at least half of the gap
    between the chance baseline and a perfect 1.0.
    """
    base = float(np.mean(perms)) if perms else 0.0
    hits = sum(1 for x in perms if x >= support)
    ok = not hits and support - base >= 0.5 * (1 - base) and support > max(perms, default=0.0)
    return ok, base, (hits + 1) / (len(perms) + 1)


def _test_pair(t: _Col, s: _Col, both: np.ndarray, nb: int, min_support: float, n_perm: int,
               rng: np.random.Generator, alias: bool = False, categorical: bool = True) -> list[dict]:
    out: list[dict] = []
    idx = np.flatnonzero(both)

    def emit(kind, param, agree_sub, baseline, p_value, rows=idx):
        agree = np.zeros(len(both), dtype=bool)
        agree[rows] = agree_sub
        in_rows = np.zeros(len(both), dtype=bool)
        in_rows[rows] = True
        n_agree = int(agree_sub.sum())
        out.append({"target": t.name, "source": s.name, "relation": kind, "parameter": param,
                    "support": n_agree / len(agree_sub), "n_agree": n_agree, "n_rows": len(agree_sub),
                    "baseline": baseline, "p_value": p_value, "_agree": agree, "_rows": in_rows,
                    "_t": t, "_s": s})

    # --- arithmetic relations between numeric columns with enough distinct values
    if t.num is not None and s.num is not None and t.n_distinct >= 3 and s.n_distinct >= 3:
        tv, sv = t.num[idx], s.num[idx]
        ti = t.ints[idx] if t.ints is not None else None
        si = s.ints[idx] if s.ints is not None else None
        for kind in ("equal", "offset", "multiple", "divide", "linear", "mask"):
            param, agree = _arith(kind, tv, sv, ti, si)
            if agree is None or agree.mean() < min_support:
                continue
            sup = agree.mean()
            if alias:
                emit(kind, param, agree, float("nan"), float("nan"))
                return out
            perms = []
            for _ in range(n_perm):
                pi = rng.permutation(len(idx))
                _, pa = _arith(kind, tv, sv[pi], ti, None if si is None else si[pi])
                perms.append(0.0 if pa is None else pa.mean())
            ok, base, p_value = _beats_chance(sup, perms)
            if ok:
                emit(kind, param, agree, base, p_value)
    if alias:
        emit("one_to_one", f"{t.n_distinct} values", np.ones(len(idx), dtype=bool),
             float("nan"), float("nan"))
        return out
    # --- categorical source: functional dependency and partial rules
    if not categorical:
        return out
    ns_present = int(len(np.unique(s.codes[idx])))
    if ns_present < 2 or ns_present > max(2, min(64, nb // 4)):
        return out
    tcodes, tmap = np.unique(t.codes[idx], return_inverse=True)
    scodes, smap = np.unique(s.codes[idx], return_inverse=True)
    nt, ns = len(tcodes), len(scodes)
    if nt < 2:
        return out
    counts_s = np.bincount(smap, minlength=ns)
    # singleton source values say nothing about a dependency: leave their rows out
    multi = counts_s[smap] >= 2
    if (counts_s >= 2).sum() >= 2 and multi.sum() >= 0.5 * nb:
        sub_t, sub_s = tmap[multi], smap[multi]
        agree = _functional(sub_t, sub_s, nt, ns)
        sup = agree.mean()
        minority = len(sub_t) - np.bincount(sub_t).max()
        if sup >= min_support and minority >= 3:
            perms = [_functional(sub_t, sub_s[rng.permutation(len(sub_s))], nt, ns).mean()
                     for _ in range(n_perm)]
            ok, base, p_value = _beats_chance(sup, perms)
            if ok:
                emit("functional", f"{int((counts_s >= 2).sum())} source values", agree, base,
                     p_value, idx[multi])
    # target value / bit set -> one source value (only for bits and two-valued targets)
    if t.parent is not None or nt == 2:
        counts_t = np.bincount(tmap, minlength=nt)
        for j in range(nt):
            if counts_t[j] < 3 or counts_t[j] * 2 > nb or nb - counts_t[j] < 3:
                continue
            if t.parent is not None and not t.label_values[tcodes[j]]:
                continue  # bit cleared: not informative
            sel = tmap == j
            v, k = _mode(smap[sel])
            n_c = int(sel.sum())
            if k / n_c < min_support:
                continue
            q = float((smap[~sel] == v).mean())
            if q > 0.5:
                continue
            lp = _log_binom_tail(k, n_c, q)
            if lp > -4:
                continue
            tval = t.label_values[tcodes[j]]
            sval = s.label_values[scodes[v]]
            tdesc = f"{t.name} set" if t.parent is not None else f"{t.name} == {_literal(t, tval)}"
            emit("only_when", f"{tdesc} -> {s.name} == {_literal(s, sval)}", smap[sel] == v, q, 10 ** lp,
                 idx[sel])
    # source value -> constant target (partial dependency)
    for j in range(ns):
        n_v = int(counts_s[j])
        if n_v < max(5, 0.01 * nb) or (n_v * 2 > nb and ns > 2) or nb - n_v < 3:
            continue
        sel = smap == j
        c, k = _mode(tmap[sel])
        if k / n_v < min_support:
            continue
        rest = tmap[~sel]
        if (rest != c).sum() < 3:
            continue  # the target is (nearly) constant anyway
        q = float((rest == c).mean())
        if q > 0.5:
            continue
        lp = _log_binom_tail(k, n_v, q)
        if lp > -6:
            continue
        tval = t.label_values[tcodes[c]]
        sval = s.label_values[scodes[j]]
        tdesc = f"{t.name} {'set' if tval else 'clear'}" if t.parent is not None else \
            f"{t.name} == {_literal(t, tval)}"
        emit("when", f"{s.name} == {_literal(s, sval)} -> {tdesc}", tmap[sel] == c, q, 10 ** lp, idx[sel])
    return out


def _literal(c: _Col, v: Any) -> str:
    """A value in a rule's text: through :func:`animre.display.fmt` (an integer column's values as
    integers, also when gaps made them floats); strings quoted, as in an expression."""
    return repr(v) if isinstance(v, str) else fmt(v, ksy_type="s8" if c.ints is not None else None)


def _dedupe(found: list[dict]) -> list[dict]:
    """Per ordered pair keep one full relation; per unordered pair one orientation of symmetric kinds."""
    best: dict[tuple, dict] = {}
    partial: list[dict] = []
    by_pair: dict[tuple, list[dict]] = {}
    for f in found:
        if f["relation"] in ("when", "only_when"):
            partial.append(f)
        else:
            by_pair.setdefault((f["target"], f["source"]), []).append(f)
    laws: list[dict] = []
    for key, fs in by_pair.items():
        top = max(x["support"] for x in fs)
        # the most specific relation that holds almost as often as the best one
        best[key] = min((x for x in fs if x["support"] >= top - 0.1),
                        key=lambda x: (_SPECIFICITY[x["relation"]], -x["support"]))
        arith = [x for x in fs if x["relation"] in ARITHMETIC]
        if best[key]["relation"] in ("functional", "one_to_one") and arith:
            # a law with exceptions explains most of a lookup: list both (the law ranks first)
            laws.append(min(arith, key=lambda x: (-x["support"], _SPECIFICITY[x["relation"]])))
    kept = {}
    for key, f in best.items():
        rkey = (key[1], key[0])
        other = best.get(rkey)
        if other is not None and f["relation"] not in ("functional",) and \
                other["relation"] not in ("functional",):
            a = (f["support"], -_SPECIFICITY[f["relation"]], _orient(f))
            b = (other["support"], -_SPECIFICITY[other["relation"]], _orient(other))
            if b > a or (a == b and key > rkey):
                continue
        kept[key] = f
    full_support: dict[tuple, float] = {}
    for (tn, sn), f in kept.items():
        # an arithmetic relation explains its pair's partial rules (its exceptions are listed)
        sup = f["support"] if f["relation"] in ("functional", "one_to_one") else 2.0
        for k in ((tn, sn), (sn, tn)):
            full_support[k] = max(full_support.get(k, 0.0), sup)
    # a partial rule adds something only where the full relation of its pair has exceptions
    partial = [f for f in partial if f["support"] > full_support.get((f["target"], f["source"]), -1.0)]
    # ... and follows from a listed law of its columns (a product too) on every row where it holds
    listed = [f for f in list(kept.values()) + laws if f["relation"] in ARITHMETIC]
    partial = [f for f in partial if not any(_follows(f, law) for law in listed)]
    # partial rules: at most 3 per pair (strongest first)
    partial.sort(key=lambda f: (f["p_value"], -f["n_rows"]))
    per_pair: dict[tuple, int] = {}
    kept_partial = []
    for f in partial:
        k = (f["target"], f["source"])
        if per_pair.get(k, 0) >= 3:
            continue
        per_pair[k] = per_pair.get(k, 0) + 1
        kept_partial.append(f)
    return list(kept.values()) + laws + kept_partial


def _follows(rule: dict, law: dict) -> bool:
    """A partial rule between a law's target and one of its factors, where the law holds on every row
    the rule holds on.

    ``anim_time == 650 -> speed == 65`` after ``anim_time = speed * anim_length``; a rule between two
    factors (``anim_length == 15 -> speed == 61``) is not implied by the law and stays.
    """
    cols = {rule["target"], rule["source"]}
    factors = set(str(law["source"]).split(" * "))
    if law["target"] not in cols or not (cols - {law["target"]}) <= factors:
        return False
    held = rule["_rows"] & rule["_agree"]
    return bool(held.any()) and not (held & ~(law["_rows"] & law["_agree"])).any()


def _orient(f: dict) -> int:
    p = f["parameter"]
    if f["relation"] == "multiple" and isinstance(p, (int, float)):
        return 1 if abs(p) >= 1 else 0
    if f["relation"] == "offset" and isinstance(p, (int, float)):
        return 1 if p > 0 else 0
    return 0
