"""Relations between the columns of a table: each fact once, no circular evidence, ranked by what they explain.

Each fact once. Columns equal in every row, or affine copies of each other
(``end = base + 16``), are one class (:mod:`animre.research._relation_classes`),
named by its spec field before any value instance, derived column or
built-in; relations are searched between classes, and each member is listed
once against its class's name (role ``class``).

No circular evidence. A computed column (a value instance, an enum name, a
plugin's derived column: what :attr:`animre.formats.base.Derived.reads`
declares; :mod:`animre.research._relation_reads`) never testifies about a
column it is computed from, nor about that column's class, nor about a
column computed from the same field: where it restates its source the row
is listed under its definition (role ``definition``), not as a finding.

What is searched (:mod:`animre.research._relation_search`): for every
ordered pair (target, source) whether the target equals the source, is the
source plus a constant, a constant multiple (also halves), the source
floor-divided, a simple linear function of it (``c - source``,
``(c - source) // 2`` ...), the source under a bit mask, or is functionally
determined by it; for categorical sources partial rules
(``source == v -> target == c``, ``target bit set -> source == v``); products
of two columns (``anim_time = speed * anim_length``); conditional laws
(``a == b when c == k``); and links across rows (``a`` is one of the file's
``b``, ``a`` is a row number of a table of the same file). Derived
quantities (record index within its file, records per file, file size) and
the single bits of flag-like columns take part too.

A finding is kept only when it holds in at least ``min_support`` of the rows
and far more often than on shuffled data (permutation test), or, for the
partial rules, when its binomial tail probability is tiny; and when its
description-length score is above ``min_score`` bits.

Rows are not independent samples: files with identical content count once,
rows are grouped (by default by the file's folder), a finding backed by a
single group is dropped, a partial rule's p-value counts groups, and the
score counts distinct observations per group.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..base.errors import UsageError
from ..formats import all_formats
from ._calls import table_rows
from ._relation_checks import MAX_PRODUCT_COLUMNS
from ._relation_classes import class_findings, class_text, column_classes
from ._relation_columns import KEY_NAMES, Col, bit_cols, counterexample, key_columns, make_col
from ._relation_rank import RELATION_KINDS, by_groups, dedupe, index_rule
from ._relation_reads import column_rank, computed_from
from ._relation_score import score
from ._relation_search import search

__all__ = ["relations", "RELATION_KINDS", "RELATION_COLUMNS", "MAX_PRODUCT_COLUMNS", "ROLES", "MIN_SCORE"]

RELATION_COLUMNS = ["target", "source", "relation", "parameter", "support", "n_agree", "n_rows",
                    "n_groups", "groups_agree", "baseline", "p_value", "score", "role", "members",
                    "counterexamples"]
ROLES = ("finding", "class", "definition")  #: the roles of a row, in the order they are listed
DERIVED = ("row_in_file", "rows_in_file", "file_size")  #: the built-in columns (computed here, from no field)
MIN_SCORE = 0.0  #: bits a finding must save (chosen on planted corpora: tests/unit/research/test_relation_ranking.py)
_BUILTIN_RANK, _BIT_RANK = 3, 3.5  # a built-in (file_size) names its class before a derived column


def relations(corpus: Any = None, /, table: pd.DataFrame | str | None = None, *,
              columns: Iterable[str] | None = None, derived: bool = True,
              min_support: float = 0.9, bits: bool | str = "flags",
              n_permutations: int = 20, seed: int = 0, max_counterexamples: int = 20,
              products: bool = True, groups: str | pd.Series | None = "folder",
              unique_files: bool = True, computed: Mapping[str, Iterable[str]] | None = None,
              links: bool = True, min_score: float = MIN_SCORE) -> pd.DataFrame:
    """Find relations between columns of a table, each fact once, ranked by what they explain.

    Parameters
    ----------
    corpus : Corpus or None
        Source of file sizes, content hashes, the table's key columns (from
        the spec) for counterexamples, and of what computed columns read;
        None for a table on its own.
    table : str or DataFrame
        A table's name in ``corpus.tables`` (or a table).
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
        ``"a * b"``. Only integer columns with more values than 0 and 1, at
        most :data:`MAX_PRODUCT_COLUMNS` of them, and only products that hold
        on rows where the target is not 0.
    groups : str, Series or None
        What makes samples independent: ``"folder"`` (default: the file's
        folder, or the file itself when every file sits in one folder),
        ``"file"``, a column name (``"unit"``, ``"fighter"``), a Series
        aligned with the table, or None (every row on its own).
    unique_files : bool
        With ``corpus``: rows of a file whose content (sha256) repeats an
        earlier file are left out, so identical files count once.
    computed : mapping, optional
        Columns of your own computed from others, ``{column: [columns it
        reads]}``: like the spec's value instances and the plugins' derived
        columns, they never testify about what they are computed from.
    links : bool
        Also test links across rows (``one_of``, ``index_of``).
    min_score : float
        Bits a finding must save to be reported (:data:`MIN_SCORE`).

    Returns
    -------
    DataFrame
        ``target, source, relation`` (one of :data:`RELATION_KINDS`),
        ``parameter`` (offset c, factor k, divisor d, ``"k=-1, c=170"``,
        mask, rule text, the condition of ``equal_when``), ``support`` (share
        of rows that agree), ``n_agree``, ``n_rows``, ``n_groups``
        (independent groups tested), ``groups_agree`` (groups where most rows
        agree), ``baseline`` (mean support on shuffled data, or the rate
        expected by chance), ``p_value``, ``score``, ``role`` (one of
        :data:`ROLES`), ``members`` (the classes of the row's columns,
        ``"num_chunks = num_frame_chunks"``) and ``counterexamples`` (file,
        row, key columns and both values of rows that disagree).

        Findings come first, best score first; then every member of a class
        against the class's name (``role == "class"``); then the definitions
        (``role == "definition"``: a computed column against what it is
        computed from, with the rows where it differs).

    Notes
    -----
    The score (bits) of a finding, counted on observations (distinct
    (group, target value, source value) among the tested rows)::

        score = sum over agreeing observations of -log2 p(v) - P * H - log2 C(n, e)

    ``p(v)``: the share of the target's value among the column's (group,
    value) pairs, ``H`` its entropy; ``P`` the relation's parameters (1 for
    an equality, 2 for a law or a product or a partial rule or a link, 3 for
    a conditional law, one per entry of a lookup); ``n`` observations, ``e``
    of them exceptions (listed as counterexamples). A law that holds in 92%
    of the files of 29 folders therefore ranks above a 15-value lookup of the
    same columns (:mod:`animre.research._relation_score`).

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
    >>> df["damage_copy"] = df["damage"] + 1  # one fact: a class, named by the first column
    >>> r = relations(None, df)
    >>> r[["target", "source", "relation", "parameter", "role"]].values.tolist()[-1]
    ['damage_copy', 'damage', 'offset', 1, 'class']
    """
    df, name = table_rows("relations", corpus, table, unique_files)
    name = name or _table_of(df, corpus)  # a part of a corpus table (some files' rows) is that table
    gid = _group_ids(df, groups)
    positions: set = set()
    if columns is None and corpus is not None and name is not None and hasattr(corpus, "keys"):
        positions = set(corpus.keys(name))  # record positions: trivially equal to row_in_file and kin
    index_cols = _index_columns(df, name, corpus)
    cols_wanted = [c for c in (columns if columns is not None else df.columns)
                   if c != "file" and c not in positions]
    cols = [c for c in (make_col(df[c], str(c)) for c in cols_wanted) if c is not None]
    cols += _builtins(df, corpus) if derived else []
    rank = column_rank(corpus, name, computed or {})
    rank.update({b: _BUILTIN_RANK for b in DERIVED})
    reads = computed_from(corpus, name, [*map(str, df.columns), *(c.name for c in cols)], computed)
    # classes: the columns, then the bits of each class's name (a bit can be a copy of a value instance)
    first = column_classes(cols, rank)
    heads = [k[0] for k in first]
    bit = bit_cols([c for c in heads if not c.source_only], only_flags=(bits == "flags")) if bits else []
    for b in bit:
        rank[b.name] = _BIT_RANK
        reads[b.name] = {b.parent} | reads.get(b.parent, set())
    members = {id(k[0]): k for k in first}
    order = {c.name: i for i, c in enumerate(cols + bit)}
    classes = [sorted((m for x in k for m in members.get(id(x), [x])), key=lambda m: (rank.get(m.name, 0),
                                                                                       order[m.name]))
               for k in column_classes(heads + bit, rank)]
    class_of = {m.name: k[0].name for k in classes for m in k}
    text = {k[0].name: class_text(k) for k in classes if len(k) > 1}
    heads = [k[0] for k in classes]
    read_classes = {n: {class_of[r] for r in rs if r in class_of} for n, rs in reads.items()}
    # a class holding a bit of a field is a function of that field, whatever its name
    bit_of = {k[0].name: {class_of[m.parent] for m in k if m.parent in class_of} - {k[0].name} for k in classes}

    def kind_of(a: Col, b: Col) -> str:
        ra, rb = read_classes.get(a.name, set()), read_classes.get(b.name, set())
        ca, cb = class_of.get(a.name, a.name), class_of.get(b.name, b.name)
        if cb in ra or cb in bit_of.get(a.name, ()):
            return "definition"  # a is computed from b
        if ca in rb or ca in bit_of.get(b.name, ()):
            return "defined"  # b is computed from a: the definition is tested the other way round
        common = ra & rb or reads.get(a.name, set()) & reads.get(b.name, set())
        return "circular" if common else "free"

    def restates(a: Col, b: Col) -> bool:  # one computed from the other (two bits of one field are a class)
        return b.name in reads.get(a.name, ()) or a.name in reads.get(b.name, ())

    rng = np.random.default_rng(seed)
    scaled = _scaled_members(classes, reads)
    found, definitions = search(heads, kind_of, min_support, n_permutations, rng, products=products, links=links,
                                files=df["file"] if "file" in df.columns else None,
                                row_counts=_row_counts(df, name, corpus) if links else None, scaled=scaled)
    found = by_groups([f for f in found if not index_rule(f, index_cols)], gid)
    definitions = by_groups([f for f in definitions if not index_rule(f, index_cols)], gid)
    cache: dict = {}
    for f in found + definitions:
        f["score"] = score(f, gid, cache)
    definitions = dedupe(definitions, class_of)
    for f in definitions:
        f["role"] = "definition"
    # a computed column that restates a field (num_idles: num_idles_raw clamped) says what the field says
    alias = {f["target"]: str(f["source"]) for f in reversed(definitions) if f["target"] in reads
             and str(f["source"]) in reads[f["target"]]}
    found = dedupe(found, class_of, alias, min_score)
    for f in found:
        f["role"] = "finding"
    same = by_groups([f for f in class_findings(classes, restates) if not index_rule(f, index_cols)], gid)
    for f in same:
        f["score"] = score(f, gid, cache)
    same.sort(key=lambda f: f["role"] == "definition")
    keys = key_columns(df, name, corpus)
    out = []
    for f in found + same + definitions:
        agree, rows_mask = f.pop("_agree"), f.pop("_rows")
        t, s = f.pop("_t"), f.pop("_s")
        bad = np.flatnonzero(rows_mask & ~agree)
        f["counterexamples"] = [counterexample(df, keys, i, t, s) for i in bad[:max_counterexamples]]
        named = [class_of.get(x, x) for x in (f["target"], *str(f["source"]).split(" * "))]
        f["members"] = "; ".join(dict.fromkeys(text[c] for c in named if c in text))
        out.append({k: v for k, v in f.items() if not k.startswith("_")})
    res = pd.DataFrame(out, columns=RELATION_COLUMNS)
    res["parameter"] = pd.Series([f["parameter"] for f in out], index=res.index, dtype=object)
    return res


def _table_of(df: pd.DataFrame, corpus: Any) -> str | None:
    """The corpus table with exactly ``df``'s columns (``df`` is some of its rows), or None."""
    for t, other in (getattr(corpus, "tables", None) or {}).items():
        if t != "files" and list(other.columns) == list(df.columns):
            return t
    return None


def _scaled_members(classes: list[list[Col]], reads: Mapping[str, set]) -> list[Col]:
    """Members of a class at another scale than its name (``anim_length`` beside ``num_frames``), one per
    distinct scale, computed columns and built-ins left out."""
    out = []
    for k in classes:
        seen = [k[0].num]
        for m in k[1:]:
            if m.num is None or m.source_only or reads.get(m.name) or m.parent is not None:
                continue
            if not any(v is not None and np.array_equal(np.nan_to_num(v), np.nan_to_num(m.num)) for v in seen):
                seen.append(m.num)
                out.append(m)
    return out


def _builtins(df: pd.DataFrame, corpus: Any) -> list[Col]:
    """``row_in_file``, ``rows_in_file`` and, with a corpus, ``file_size``: sources only."""
    if "file" not in df.columns or not len(df):
        return []
    g = df.groupby("file", sort=False)
    out = [make_col(pd.Series(g.cumcount().to_numpy(), index=df.index), "row_in_file", source_only=True),
           make_col(pd.Series(g["file"].transform("size").to_numpy(), index=df.index), "rows_in_file",
                    source_only=True)]
    if corpus is not None:
        sizes = corpus.files.set_index("file")["size"]
        fs = df["file"].map(sizes)
        out.append(make_col(pd.Series(fs.to_numpy(dtype="float64"), index=df.index), "file_size", source_only=True))
    return [c for c in out if c is not None]


def _row_counts(df: pd.DataFrame, name: str | None, corpus: Any) -> dict[str, np.ndarray]:
    """Rows of this table and of every other table of the corpus in each row's file (for ``index_of``)."""
    if "file" not in df.columns or not len(df):
        return {}
    out = {"rows_in_file": df.groupby("file", sort=False)["file"].transform("size").to_numpy(np.float64)}
    for t, other in (getattr(corpus, "tables", None) or {}).items():
        if t in ("files", name) or "file" not in other.columns or not len(other):
            continue
        out[t] = df["file"].map(other["file"].value_counts()).to_numpy(dtype=np.float64)
    return out


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


