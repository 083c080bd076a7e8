"""Which relations :func:`~animre.research.relations` keeps, and in which order.

Findings are counted in independent groups (:func:`by_groups`), one per
pair and orientation is kept (:func:`dedupe`: the most specific kind, laws
before the lookups they explain, partial rules only where they add
something), and rules between record numbers and row numbers are dropped
(:func:`index_rule`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._relation_checks import log_binom_tail

__all__ = ["by_groups", "dedupe", "explained_by_law", "index_rule", "parts", "RELATION_KINDS", "SPECIFICITY",
           "PARTIAL", "ARITHMETIC"]

RELATION_KINDS = ("equal", "offset", "multiple", "divide", "linear", "mask", "one_to_one",
                  "functional", "only_when", "when")
SPECIFICITY = {k: i for i, k in enumerate(RELATION_KINDS)}
PARTIAL = ("only_when", "when")
ARITHMETIC = ("equal", "offset", "multiple", "divide", "linear", "mask")


def parts(f: dict) -> set[str]:
    """Columns a finding relates: its target and every factor of its source (``a * b``)."""
    return {f["target"], *str(f["source"]).split(" * ")}


def index_rule(f: dict, index_cols: set[str]) -> bool:
    """A rule between a column that numbers records and the row number (``frame == row_in_file``)."""
    cols = parts(f)
    return bool(cols & index_cols) and bool(cols & {"row_in_file", "rows_in_file"})


def explained_by_law(res: pd.DataFrame) -> list[bool]:
    """Dependencies (functional, one-to-one) between columns that an arithmetic law listed relates."""
    laws = [parts(r) for r in res.to_dict("records") if r["relation"] in ARITHMETIC]
    return [r["relation"] in ("functional", "one_to_one") and any({r["target"], r["source"]} <= p for p in laws)
            for r in res.to_dict("records")]


def by_groups(found: list[dict], gid: np.ndarray) -> list[dict]:
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
            lp = log_binom_tail(agree_g, len(uniq), q)
            if f["relation"] in PARTIAL:
                if lp > -2:
                    continue
                f["p_value"] = 10 ** lp
            elif isinstance(f["p_value"], float) and f["p_value"] == f["p_value"]:
                f["p_value"] = max(f["p_value"], 10 ** lp)  # no smaller than the groups allow
        out.append(f)
    return out


def dedupe(found: list[dict]) -> list[dict]:
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
                        key=lambda x: (SPECIFICITY[x["relation"]], -x["support"]))
        arith = [x for x in fs if x["relation"] in ARITHMETIC]
        if best[key]["relation"] in ("functional", "one_to_one") and arith:
            # a law with exceptions explains most of a lookup: list both (the law ranks first)
            laws.append(min(arith, key=lambda x: (-x["support"], SPECIFICITY[x["relation"]])))
    kept = {}
    for key, f in best.items():
        rkey = (key[1], key[0])
        other = best.get(rkey)
        if other is not None and f["relation"] not in ("functional",) and \
                other["relation"] not in ("functional",):
            a = (f["support"], -SPECIFICITY[f["relation"]], _orient(f))
            b = (other["support"], -SPECIFICITY[other["relation"]], _orient(other))
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
