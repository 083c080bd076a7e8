"""The tests of one candidate relation between two columns, and the guard against chance.

:func:`check_pair` tries every kind of relation of a target and a source
(arithmetic laws, a functional dependency, partial ``when`` rules) and keeps
what beats the shuffled baseline (:func:`beats_chance`) or has a tiny
binomial tail (:func:`log_binom_tail`); :func:`product_findings` tests
targets that are the product of two columns.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from ..base.display import fmt, plain
from ._relation_columns import Col, make_col

__all__ = ["check_pair", "product_findings", "log_binom_tail", "beats_chance", "literal", "mode", "MAX_PRODUCT_COLUMNS"]

MAX_PRODUCT_COLUMNS = 40  # products of pairs: the number of candidate pairs grows quadratically


def mode(x: np.ndarray):
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


_TESTED_AT = {"offset": 2, "multiple": 2, "divide": 2, "linear": 3, "mask": 2}


def _arith(kind: str, t: np.ndarray, s: np.ndarray, ti: np.ndarray | None, si: np.ndarray | None):
    """(parameter, agree mask) of the best relation of one kind, or (None, None).

    A law with a fitted constant must hold at more distinct source values than it takes to fit it (2, 3 for
    ``linear``), zeros left out for a multiple: ``coord_b = 0.551282 * coord`` fitted on the one pair of
    values (78, 43) that three files share, with zeros everywhere else, is not tested by anything.
    """
    param, agree = _fit(kind, t, s, ti, si)
    need = _TESTED_AT.get(kind)
    if agree is not None and need is not None:
        points = s[agree & (s != 0)] if kind == "multiple" else s[agree]
        if len(np.unique(points)) < need:
            return None, None
    return param, agree


def _fit(kind: str, t: np.ndarray, s: np.ndarray, ti: np.ndarray | None, si: np.ndarray | None):
    flt = ti is None or si is None

    def close(x, y):
        return np.isclose(x, y, rtol=1e-6, atol=1e-9) if flt else x == y

    with np.errstate(all="ignore"):
        if kind == "equal":
            return None, close(t, s)
        if kind == "offset":
            c, _ = mode(_round_sig(t - s) if flt else t - s)
            if c is None or c == 0 or not np.isfinite(c):
                return None, None
            return _pnum(c), close(t - s, c)
        if kind == "multiple":
            nz = s != 0
            if nz.sum() < 3:
                return None, None
            k, cnt = mode(_round_sig(t[nz] / s[nz]))
            if k is None or not np.isfinite(k) or cnt < 3:
                return None, None  # a ratio of fewer than 3 rows is fitted to them (zeros agree with any k)
            k = _nice(float(k))
            if k in (0.0, 1.0):
                return None, None
            return _pnum(k), np.isclose(t, k * s, rtol=1e-6, atol=1e-9)
        if kind == "linear":
            best = (None, None, -1)
            for k in _LINEAR_K:
                for floor in ((False, True) if not flt and k != int(k) else (False,)):
                    ks = np.floor(k * s) if floor else k * s
                    c, n = mode(_round_sig(t - ks) if flt else t - ks)
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
            d, cnt = mode(np.round(si[nz] / ti[nz]))
            if d is None or d < 2 or not np.isfinite(d) or cnt < 3:
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


def log_binom_tail(k: int, n: int, p: float) -> float:
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


def beats_chance(support: float, perms: list[float]) -> tuple[bool, float, float]:
    """The false-discovery guard: (holds far above chance, baseline, p-value).

    ``perms`` are the supports of the same relation on shuffled sources. A
    finding must beat every shuffle and close at least half of the gap
    between the chance baseline and a perfect 1.0.
    """
    base = float(np.mean(perms)) if perms else 0.0
    hits = sum(1 for x in perms if x >= support)
    ok = not hits and support - base >= 0.5 * (1 - base) and support > max(perms, default=0.0)
    return ok, base, (hits + 1) / (len(perms) + 1)


def check_pair(t: Col, s: Col, both: np.ndarray, nb: int, min_support: float, n_perm: int,
               rng: np.random.Generator, alias: bool = False, categorical: bool = True) -> list[dict]:
    out: list[dict] = []
    idx = np.flatnonzero(both)

    def emit(kind, param, agree_sub, baseline, p_value, rows=idx, **extra):
        agree = np.zeros(len(both), dtype=bool)
        agree[rows] = agree_sub
        in_rows = np.zeros(len(both), dtype=bool)
        in_rows[rows] = True
        n_agree = int(agree_sub.sum())
        out.append({"target": t.name, "source": s.name, "relation": kind, "parameter": param,
                    "support": n_agree / len(agree_sub), "n_agree": n_agree, "n_rows": len(agree_sub),
                    "baseline": baseline, "p_value": p_value, "_agree": agree, "_rows": in_rows,
                    "_t": t, "_s": s, **extra})

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
            ok, base, p_value = beats_chance(sup, perms)
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
            ok, base, p_value = beats_chance(sup, perms)
            if ok:
                emit("functional", f"{int((counts_s >= 2).sum())} source values", agree, base,
                     p_value, idx[multi], _all=both)  # the score counts the rows left out against it
    # target value / bit set -> one source value (only for bits and two-valued targets)
    if t.parent is not None or nt == 2:
        counts_t = np.bincount(tmap, minlength=nt)
        for j in range(nt):
            if counts_t[j] < 3 or counts_t[j] * 2 > nb or nb - counts_t[j] < 3:
                continue
            if t.parent is not None and not t.label_values[tcodes[j]]:
                continue  # bit cleared: not informative
            sel = tmap == j
            rule = _partial_rule(smap, sel, min_support, -4)
            if rule is None:
                continue
            v, q, lp = rule
            tval = t.label_values[tcodes[j]]
            sval = s.label_values[scodes[v]]
            tdesc = f"{t.name} set" if t.parent is not None else f"{t.name} == {literal(t, tval)}"
            emit("only_when", f"{tdesc} -> {s.name} == {literal(s, sval)}", smap[sel] == v, q, 10 ** lp,
                 idx[sel], _pred=s, _given=t.codes)  # it tells the source's value
    # source value -> constant target (partial dependency)
    for j in range(ns):
        n_v = int(counts_s[j])
        if n_v < max(5, 0.01 * nb) or (n_v * 2 > nb and ns > 2) or nb - n_v < 3:
            continue
        sel = smap == j
        rule = _partial_rule(tmap, sel, min_support, -6, min_other=3)  # (nearly) constant targets say nothing
        if rule is None:
            continue
        c, q, lp = rule
        tval = t.label_values[tcodes[c]]
        sval = s.label_values[scodes[j]]
        tdesc = f"{t.name} {'set' if tval else 'clear'}" if t.parent is not None else \
            f"{t.name} == {literal(t, tval)}"
        emit("when", f"{s.name} == {literal(s, sval)} -> {tdesc}", tmap[sel] == c, q, 10 ** lp, idx[sel])
    return out


def _partial_rule(values: np.ndarray, sel: np.ndarray, min_support: float, max_log10_p: float,
                  min_other: int = 0) -> tuple[Any, float, float] | None:
    """The most common of ``values`` where ``sel`` holds, when it makes a partial rule: ``(value, chance, log10 p)``.

    A rule needs ``min_support`` of the selected rows to agree, the value to be rarer than 1 in 2 elsewhere
    (its chance), and the binomial tail of the agreeing rows under that chance at most ``10 ** max_log10_p``;
    ``min_other``: rows elsewhere that differ from it (a value nearly everywhere says nothing).
    """
    v, k = mode(values[sel])
    if k / int(sel.sum()) < min_support:
        return None
    rest = values[~sel]
    if min_other and (rest != v).sum() < min_other:
        return None
    q = float((rest == v).mean())
    if q > 0.5:
        return None
    lp = log_binom_tail(k, int(sel.sum()), q)
    return None if lp > max_log10_p else (v, q, lp)


def literal(c: Col, v: Any) -> str:
    """A value in a rule's text: through :func:`animre.base.display.fmt` (an integer column's values as
    integers, also when gaps made them floats); strings quoted, as in an expression."""
    return repr(v) if isinstance(v, str) else fmt(v, ksy_type="s8" if c.ints is not None else None)


def _mode_share(v: np.ndarray) -> float:
    return mode(v)[1] / len(v) if len(v) else 1.0


def product_findings(cols: list[Col], min_support: float, n_perm: int, rng: np.random.Generator,
                     circular=None) -> list[dict]:
    """Targets equal to the product of two other integer columns (cheap prefilter, then full test).

    A factor that only holds 0 and 1 (a flag) makes no product: ``t = a * flag`` restates ``t = a`` where the
    flag is set. ``circular(x, y)``: pairs of columns computed one from the other (or from a common field),
    which never make a product together.
    """
    cand = [c for c in cols if c.ints is not None and c.parent is None and c.n_distinct >= 2
            and not set(np.unique(c.ints[c.present]).tolist()) <= {0, 1}]
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
                if circular is not None and (circular(t, a) or circular(t, b) or circular(a, b)):
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
                if max(_mode_share(a.ints[agree]), _mode_share(b.ints[agree])) >= 0.9:
                    continue  # a factor (nearly) constant where the product holds: t = k * the other
                pc = make_col(pd.Series(np.where(both, prod.astype(np.float64), np.nan)),
                              f"{a.name} * {b.name}", source_only=True)
                if pc is None:
                    continue
                out += [f for f in check_pair(t, pc, both, nb, min_support, n_perm, rng, categorical=False)
                        if f["relation"] == "equal"]
    return out
