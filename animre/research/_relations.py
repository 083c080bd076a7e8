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

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from ..errors import UsageError
from ..formats import all_formats
from ._calls import deprecated, legacy_corpus, table_rows
from ._relation_checks import MAX_PRODUCT_COLUMNS, check_pair, product_findings
from ._relation_columns import KEY_NAMES, Col, bit_cols, counterexample, key_columns, make_col
from ._relation_rank import (
    PARTIAL,
    RELATION_KINDS,
    SPECIFICITY,
    by_groups,
    dedupe,
    explained_by_law,
    index_rule,
)

__all__ = ["relations", "RELATION_KINDS", "RELATION_COLUMNS", "MAX_PRODUCT_COLUMNS"]

RELATION_COLUMNS = ["target", "source", "relation", "parameter", "support", "n_agree", "n_rows",
                    "n_groups", "groups_agree", "baseline", "p_value", "counterexamples"]
DERIVED = ("row_in_file", "rows_in_file", "file_size")


def relations(corpus: Any = None, /, table: pd.DataFrame | str | None = None, *,
              columns: Iterable[str] | None = None, derived: bool = True,
              min_support: float = 0.9, bits: bool | str = "flags",
              n_permutations: int = 20, seed: int = 0, max_counterexamples: int = 20,
              products: bool = True, groups: str | pd.Series | None = "folder",
              unique_files: bool = True, **legacy: Any) -> pd.DataFrame:
    """Find relations between columns of a table.

    Parameters
    ----------
    corpus : Corpus or None
        Source of file sizes, content hashes and of the table's key columns
        (from the spec) for counterexamples; None for a table on its own.
    table : str or DataFrame
        A table's name in ``corpus.tables`` (or a table). The old form
        ``relations(table, columns, corpus=c)`` still works for one release,
        with a DeprecationWarning.
    columns : iterable of str, optional
        Only these columns (default: all but ``file`` and, with ``corpus``, the
        table's key columns, which are record positions).
    derived : bool
        Also test against ``row_in_file``, ``rows_in_file`` and ``file_size``
        (file size needs ``corpus``).
    min_support : float
        Share of rows that must agree for a finding to be reported.
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
    >>> r = relations(None, df)
    >>> best = r.iloc[0]
    >>> best["target"], best["source"], best["relation"], best["parameter"], int(best["n_agree"])
    ('unknown_6', 'damage', 'divide', 2, 9)
    >>> [c["row"] for c in best["counterexamples"]]
    [9]
    """
    kw_corpus = legacy_corpus("relations", legacy)
    if isinstance(corpus, (pd.DataFrame, str)):  # the old form relations(table, columns, corpus=c)
        deprecated("relations(table, columns, corpus=c)", "relations(c, table, columns=columns)")
        if table is not None:
            columns = table
        corpus, table = kw_corpus, corpus
    elif corpus is None:
        corpus = kw_corpus
    df, name = table_rows("relations", corpus, table, unique_files)
    gid = _group_ids(df, groups)
    positions: set = set()
    if columns is None and corpus is not None and name is not None and hasattr(corpus, "keys"):
        positions = set(corpus.keys(name))  # record positions: trivially equal to row_in_file and kin
    index_cols = _index_columns(df, name, corpus)
    cols_wanted = [c for c in (columns if columns is not None else df.columns)
                   if c != "file" and c not in positions]
    n = len(df)
    cols: list[Col] = []
    for c in cols_wanted:
        col = make_col(df[c], str(c))
        if col is not None:
            cols.append(col)
    if derived and "file" in df.columns and n:
        g = df.groupby("file", sort=False)
        cols.append(make_col(pd.Series(g.cumcount().to_numpy(), index=df.index), "row_in_file",
                             source_only=True))
        cols.append(make_col(pd.Series(g["file"].transform("size").to_numpy(), index=df.index),
                             "rows_in_file", source_only=True))
        if corpus is not None:
            sizes = corpus.files.set_index("file")["size"]
            fs = df["file"].map(sizes)
            col = make_col(pd.Series(fs.to_numpy(dtype="float64"), index=df.index), "file_size",
                           source_only=True)
            if col is not None:
                cols.append(col)
    cols = [c for c in cols if c is not None]
    if bits:
        cols += bit_cols([c for c in cols if not c.source_only], only_flags=(bits == "flags"))
    keys = key_columns(df, name, corpus)
    rng = np.random.default_rng(seed)
    found: list[dict] = []
    # columns that split the rows identically (slot / slot_name / row_in_file) are aliases:
    # relate each alias to its representative once, and test only the representative further
    reps: dict[bytes, Col] = {}
    active: list[Col] = []
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
        found += check_pair(t, s_, both, int(both.sum()), min_support, 0, rng, alias=True)
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
            found += check_pair(t, s, both, nb, min_support, n_permutations, rng,
                                categorical=categorical)
    if products:
        found += product_findings(cols, min_support, n_permutations, rng)
    found = [f for f in found if not index_rule(f, index_cols)]
    found = by_groups(found, gid)
    found = dedupe(found)
    out = []
    for f in found:
        agree = f.pop("_agree")
        rows_mask = f.pop("_rows")
        t, s = f.pop("_t"), f.pop("_s")
        bad = np.flatnonzero(rows_mask & ~agree)
        f["counterexamples"] = [counterexample(df, keys, i, t, s) for i in bad[:max_counterexamples]]
        out.append(f)
    res = pd.DataFrame(out, columns=RELATION_COLUMNS)
    res["parameter"] = pd.Series([f["parameter"] for f in out], index=res.index, dtype=object)
    if len(res):
        res["_partial"] = res["relation"].isin(PARTIAL)
        res["_spec"] = res["relation"].map(SPECIFICITY)
        res["_bin"] = (res["support"] * 100).round().astype(int)
        res["_explained"] = explained_by_law(res)
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


def _index_columns(df: pd.DataFrame, name: str | None, corpus: Any) -> set[str]:
    """Columns that number records: the spec's keys and ``-animre-id`` fields, and derived columns
    computed from keys only (``flc_frames.frame`` from ``chunk_index``); without a corpus, key names."""
    if corpus is None or name is None or not hasattr(corpus, "keys"):
        return {c for c in df.columns if str(c) in KEY_NAMES}
    keys = set(corpus.keys(name))
    out = keys | set(corpus.ids(name) if hasattr(corpus, "ids") else ())
    for f in (getattr(corpus, "formats", None) or all_formats()).values():
        for d in f.derived:
            if d.table == name and d.reads and all(c in (keys if t == name else corpus.keys(t))
                                                   for t, c in d.reads if t in corpus.tables):
                out.add(d.column)
    return out


