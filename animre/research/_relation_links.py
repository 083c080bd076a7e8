"""Relations that hold on part of the rows or across rows: ``a == b when c == k``, ``a`` is one of the file's ``b``.

:func:`conditional_findings` tries, for two columns equal in only some rows,
every value of every categorical column as the condition that makes them
equal; :func:`link_findings` tries whether a column's value is one of the
values another column takes in the same file (``ref_offset`` is one of the
file's ``ofs_data``), or a row number of a table of the same file
(``index_of``). Both are guarded against chance like the other findings (a
binomial tail, shuffled rows) and ranked with them by their score.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from ._relation_checks import beats_chance, literal, log_binom_tail
from ._relation_columns import Col, make_col

__all__ = ["conditional_findings", "link_findings", "MAX_CONDITION_VALUES"]

MAX_CONDITION_VALUES = 16  #: a condition column has at most this many values


def _finding(t: Col, s: Col, kind: str, param, rows: np.ndarray, agree: np.ndarray, baseline: float,
             p_value: float, **extra) -> dict:
    n = int(rows.sum())
    k = int((rows & agree).sum())
    return {"target": t.name, "source": s.name, "relation": kind, "parameter": param, "support": k / n,
            "n_agree": k, "n_rows": n, "baseline": baseline, "p_value": p_value, "_agree": rows & agree,
            "_rows": rows, "_t": t, "_s": s, **extra}


def conditional_findings(cols: list[Col], min_support: float, circular: Callable[[Col, Col], bool]) -> list[dict]:
    """``a == b when c == k``: equal on the rows of one value of a categorical column, not elsewhere.

    A pair qualifies when it is equal in at least 5 rows of at least 3 distinct values, but in fewer than
    ``min_support`` of its rows; the condition must hold in at least 5 rows, make ``min_support`` of them
    equal, and be far from what the rate of equality elsewhere gives (binomial tail below 1e-6).
    """
    num = [c for c in cols if c.num is not None and c.n_distinct >= 3 and c.parent is None]
    conds = [c for c in cols if 2 <= c.n_distinct <= MAX_CONDITION_VALUES]
    out: list[dict] = []
    for i, a in enumerate(num):
        for b in num[i + 1:]:
            if b.source_only or circular(a, b):
                continue
            both = a.present & b.present
            with np.errstate(invalid="ignore"):
                eq = both & np.isclose(a.num, b.num, rtol=1e-9, atol=1e-9)
            k_all = int(eq.sum())
            if k_all < 5 or k_all >= min_support * both.sum() or len(np.unique(a.num[eq])) < 3:
                continue
            for c in conds:
                if c is a or c is b or circular(c, a) or circular(c, b):
                    continue
                m = both & c.present
                codes = np.where(m, c.codes, -1)
                n_v = np.bincount(codes[m], minlength=c.n_distinct)
                k_v = np.bincount(codes[m & eq], minlength=c.n_distinct)
                for v in np.flatnonzero((n_v >= 5) & (k_v >= min_support * n_v)):
                    sel = codes == v
                    rest_n, rest_k = int(m.sum() - n_v[v]), int(k_all - k_v[v])
                    if rest_n < 3 or len(np.unique(a.num[sel & eq])) < 2:
                        continue
                    q = rest_k / rest_n
                    lp = log_binom_tail(int(k_v[v]), int(n_v[v]), max(q, 1e-3))
                    if lp > -6:
                        continue
                    param = f"{c.name} == {literal(c, c.label_values[v])}"
                    # the later column is the one that refers back (ref_offset == ofs_data when format == 0x40)
                    out.append(_finding(b, a, "equal_when", param, sel, eq, q, 10 ** lp, _cond=c))
    return out


def _file_codes(files: pd.Series) -> np.ndarray:
    return np.asarray(pd.factorize(files.astype(str))[0], dtype=np.int64)


def link_findings(cols: list[Col], files: pd.Series | None, row_counts: Mapping[str, np.ndarray],
                  min_support: float, n_perm: int, rng: np.random.Generator,
                  circular: Callable[[Col, Col], bool]) -> list[dict]:
    """``one_of``: a value that is one of the values of another column in the same file (other rows);
    ``index_of``: a value that is a row number (0 .. n-1) of a table in the same file.

    ``row_counts``: table name (``rows_in_file``: this table) -> its number of rows in each row's file (aligned
    with the rows). Both must
    beat every shuffle of the target's values across rows (:func:`beats_chance`).
    """
    if files is None or not len(files):
        return []
    fc = _file_codes(files)
    row_no = pd.Series(fc).groupby(fc).cumcount().to_numpy()
    ints = [c for c in cols if c.ints is not None and c.n_distinct >= 3 and c.parent is None]
    values = {id(c): np.unique(c.ints[c.present], return_counts=True) for c in ints}
    out: list[dict] = []
    for t in ints:
        if t.source_only:
            continue
        ut, nt = values[id(t)]
        for s in ints:
            if s is t or circular(t, s) or np.array_equal(s.ints[s.present], row_no[s.present]):
                continue  # one of a record number's values: a row number, index_of says it
            tv, sv = t.ints, s.ints
            if nt[np.isin(ut, values[id(s)][0])].sum() < min_support * nt.sum():
                continue  # most values are none of the other column's, in any file
            rows = t.present & (np.bincount(fc[s.present], minlength=fc.max() + 1)[fc] > 0)
            if rows.sum() < 5 or (rows & s.present & (tv == sv)).sum() >= 0.5 * rows.sum():
                continue  # the same row's value: an equality, not a link
            member = _member(fc, tv, sv, s.present)
            sup = member[rows].mean()
            if sup < min_support:
                continue
            idx = np.flatnonzero(rows)
            perms = []
            for _ in range(n_perm):
                shuffled = tv.copy()
                shuffled[idx] = tv[idx][rng.permutation(len(idx))]
                perms.append(_member(fc, shuffled, sv, s.present)[rows].mean())
            ok, base, p = beats_chance(sup, perms)
            if not ok:
                continue
            sizes = _set_sizes(fc, sv, s.present)
            out.append(_finding(t, s, "one_of", f"one of the file's {s.name}", rows, member, base, p,
                                _setsize=sizes, _given=fc))
        for table, counts in row_counts.items():
            counts = np.asarray(counts, dtype=np.float64)
            rows = t.present & np.isfinite(counts) & (counts > 0)
            if rows.sum() < 5 or len(np.unique(counts[rows])) < 2:
                continue
            inside = rows & (t.ints >= 0) & (t.ints < np.where(np.isfinite(counts), counts, 0))
            sup = inside[rows].mean()
            if sup < min_support or t.ints[rows].max() < 2:
                continue
            idx = np.flatnonzero(rows)
            perms = []
            for _ in range(n_perm):
                sh = t.ints[idx][rng.permutation(len(idx))]
                perms.append(float(((sh >= 0) & (sh < counts[idx])).mean()))
            ok, base, p = beats_chance(sup, perms)
            if ok:
                own = table == "rows_in_file"
                src = make_col(pd.Series(counts), table if own else f"{table} rows", source_only=True)
                out.append(_finding(t, src, "index_of", f"a row of {'this table' if own else table} in the same file",
                                    rows, inside, base, p, _setsize=np.where(np.isfinite(counts), counts, 1),
                                    _given=fc))
    return out


def _member(fc: np.ndarray, tv: np.ndarray, sv: np.ndarray, s_present: np.ndarray) -> np.ndarray:
    """Rows whose ``tv`` is one of the ``sv`` values of the same file."""
    lo = int(min(tv.min(), sv.min()))
    span = int(max(tv.max(), sv.max())) - lo + 1
    if span <= 0 or (int(fc.max()) + 1) * span >= 2**62:
        keys = set(zip(fc[s_present].tolist(), sv[s_present].tolist()))
        return np.array([(f, v) in keys for f, v in zip(fc.tolist(), tv.tolist())], dtype=bool)
    return np.isin(fc * span + (tv - lo), fc[s_present] * span + (sv[s_present] - lo))


def _set_sizes(fc: np.ndarray, sv: np.ndarray, s_present: np.ndarray) -> np.ndarray:
    """Distinct ``sv`` values of each row's file."""
    pairs = pd.DataFrame({"f": fc[s_present], "v": sv[s_present]}).drop_duplicates()
    per_file = pairs.groupby("f").size()
    return per_file.reindex(fc).fillna(1).to_numpy(dtype=np.float64)
