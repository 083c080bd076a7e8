"""Which relations :func:`~animre.research.relations` keeps: each fact once, ranked by its score.

Findings are counted in independent groups (:func:`by_groups`); per pair of
columns one full relation is kept, the one with the best description-length
score (:mod:`animre.research._relation_score`), a lookup that laws between
its columns already explain is dropped, partial rules are kept only where
they add something (:func:`dedupe`), and rules between record numbers and
row numbers are dropped (:func:`index_rule`).
"""

from __future__ import annotations

import re

import numpy as np

from ._relation_checks import log_binom_tail

__all__ = ["by_groups", "dedupe", "restated", "index_rule", "parts", "RELATION_KINDS", "SPECIFICITY", "PARTIAL",
           "ARITHMETIC", "LOOKUPS"]

RELATION_KINDS = ("equal", "offset", "multiple", "divide", "linear", "mask", "one_to_one", "functional",
                  "one_of", "index_of", "equal_when", "only_when", "when")
SPECIFICITY = {k: i for i, k in enumerate(RELATION_KINDS)}
PARTIAL = ("equal_when", "only_when", "when")
ARITHMETIC = ("equal", "offset", "multiple", "divide", "linear", "mask")
LOOKUPS = ("functional", "one_to_one")
MAX_PARTIAL_PER_PAIR = 3


def parts(f: dict) -> set[str]:
    """Columns a finding relates: its target and every factor of its source (``a * b``)."""
    return {f["target"], *str(f["source"]).split(" * ")}


def index_rule(f: dict, index_cols: set[str]) -> bool:
    """A rule between a column that numbers records and the row number (``frame == row_in_file``)."""
    cols = parts(f)
    return bool(cols & index_cols) and bool(cols & {"row_in_file", "rows_in_file"})


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


def _key(f: dict) -> tuple:
    """Best first: score, then support, the simpler kind, the orientation that reads as a law."""
    return (-f["score"], -f["support"], SPECIFICITY[f["relation"]], -_orient(f), f["target"], str(f["source"]))


def restated(found: list[dict], alias: dict[str, str]) -> list[dict]:
    """One finding per fact when a computed column restates a field (``alias``: computed column -> that field):
    a finding about ``num_idles`` and the same about ``num_idles_raw`` are one; the field's is kept."""
    if not alias:
        return found

    def canon(x: str) -> str:
        return " * ".join(alias.get(p, p) for p in x.split(" * "))

    best: dict[tuple, dict] = {}
    for f in found:
        param = str(f["parameter"])
        for d, fld in alias.items():
            param = re.sub(rf"(?<![\w.\[]){re.escape(d)}(?![\w\[])", fld, param)
        k = (f["relation"], frozenset((canon(f["target"]), canon(str(f["source"])))), param)
        n_alias = sum(p in alias for p in parts(f))
        if k not in best or (n_alias, _key(f)) < (sum(p in alias for p in parts(best[k])), _key(best[k])):
            best[k] = f
    keep = {id(f) for f in best.values()}
    return [f for f in found if id(f) in keep]


def dedupe(found: list[dict], class_of: dict[str, str] | None = None,
           alias: dict[str, str] | None = None, min_score: float = -np.inf) -> list[dict]:
    """Each fact once: per unordered pair the best-scoring full relation; lookups laws explain, dropped;
    partial rules where they add to the pair's full relation, at most :data:`MAX_PARTIAL_PER_PAIR` a pair;
    then only what scores above ``min_score``.

    ``class_of``: column -> the name of its class (laws connect classes); ``alias``: computed column -> the
    field it restates (:func:`restated`). A relation below ``min_score`` still explains: a 15-value lookup
    too weak to report is not reported again entry by entry as 15 partial rules.
    """
    class_of = class_of or {}
    found = restated(found, alias or {})
    best: dict[frozenset, dict] = {}
    partial: list[dict] = []
    for f in found:
        if f["relation"] in PARTIAL:
            partial.append(f)
            continue
        # a lookup says which column determines which: its two orientations are two facts
        k = (f["target"], str(f["source"])) if f["relation"] == "functional" else \
            frozenset((f["target"], str(f["source"])))
        if k not in best or _key(f) < _key(best[k]):
            best[k] = f
    everything = list(best.values())
    kept = [f for f in everything if f["score"] > min_score]
    # a lookup between columns that laws (or one-to-one splits) connect follows from them
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        x = class_of.get(x, x)
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for f in kept:
        if (f["relation"] in ARITHMETIC or f["relation"] == "one_to_one") and " * " not in str(f["source"]):
            a, b = find(f["target"]), find(str(f["source"]))
            if a != b:
                parent[a] = b
    kept = [f for f in kept if not (f["relation"] == "functional" and find(f["target"]) == find(str(f["source"])))]
    # ... and a lookup t <- s that goes through another column: s determines c, c determines t (better)
    determines: dict[tuple[str, str], float] = {}  # (source, target) -> the best score saying so
    for g in found:
        if g["relation"] in PARTIAL or " * " in str(g["source"]):
            continue
        t, src = g["target"], str(g["source"])
        edges = [(src, t)]
        if g["relation"] == "one_to_one" or (g["relation"] in ("equal", "offset", "multiple")) or \
                (g["relation"] == "linear" and "floor" not in str(g["parameter"])):
            edges.append((t, src))  # invertible
        for e in edges:
            determines[e] = max(determines.get(e, -np.inf), g["score"])
    via = {}
    for a, b in determines:
        via.setdefault(a, set()).add(b)
    kept = [f for f in kept if f["relation"] != "functional" or not any(
        c != f["target"] and determines.get((c, f["target"]), -np.inf) > f["score"]
        for c in via.get(str(f["source"]), ()))]
    by_pair: dict[frozenset, list[dict]] = {}
    for f in everything:
        by_pair.setdefault(frozenset((f["target"], str(f["source"]))), []).append(f)

    def adds(rule: dict) -> bool:
        """A partial rule adds to its pair's full relation only where that relation fails (a law's
        exceptions are listed with it: the law explains them)."""
        held = rule["_rows"] & rule["_agree"]
        told = rule["source"] if rule["relation"] == "only_when" else rule["target"]  # what the rule tells
        for g in by_pair.get(frozenset((rule["target"], str(rule["source"]))), []):
            if g["relation"] == "functional" and g["target"] != told and rule["relation"] == "only_when":
                continue  # "bit set -> category == 5" beside "category determines the bit": the other way round
            fails_there = (held & ~(g["_rows"] & g["_agree"])).any()
            if g["relation"] in ARITHMETIC or (g["relation"] in LOOKUPS and not fails_there):
                return False  # (a link across rows says nothing of the values of one row)
        return True

    partial = [f for f in partial if adds(f)]
    # ... and connects columns that no kept relation connects already (x_offset == 90 -> y_offset == 106
    # after x_offset = 120 - width / 2 and y_offset, a lookup of width)
    for f in kept:
        if " * " not in str(f["source"]):
            a, b = find(f["target"]), find(str(f["source"]))
            if a != b:
                parent[a] = b
    direct = {frozenset((f["target"], str(f["source"]))) for f in kept}
    partial = [f for f in partial if f["relation"] == "equal_when" or find(f["target"]) != find(str(f["source"]))
               or frozenset((f["target"], str(f["source"]))) in direct]
    # ... and follows from a listed law of its columns (a product too) on every row where it holds
    laws = [f for f in kept if f["relation"] in ARITHMETIC]
    partial = [f for f in partial if not any(_follows(f, law) for law in laws)]
    # ... and, of the rules one condition implies, those whose target another's target determines
    # (category == 0 -> damage == 0 says block_damage == 0 once block_damage = damage // 4)
    by_condition: dict[tuple, list[dict]] = {}
    for f in sorted(partial, key=_key):
        if f["relation"] == "when":
            by_condition.setdefault((str(f["source"]), str(f["parameter"]).split(" -> ")[0]), []).append(f)
    implied = set()
    for group in by_condition.values():
        told: list[str] = []
        for f in group:
            if any((t, f["target"]) in determines for t in told):
                implied.add(id(f))
            else:
                told.append(f["target"])
    partial = [f for f in partial if id(f) not in implied]
    partial = sorted((f for f in partial if f["score"] > min_score), key=_key)
    per_pair: dict[tuple, int] = {}
    kept_partial = []
    for f in partial:
        k = (f["target"], f["source"])
        if per_pair.get(k, 0) >= MAX_PARTIAL_PER_PAIR:
            continue
        per_pair[k] = per_pair.get(k, 0) + 1
        kept_partial.append(f)
    return sorted(kept + kept_partial, key=_key)


def _follows(rule: dict, law: dict) -> bool:
    """A partial rule between a law's target and one of its factors, where the law holds on every row
    the rule holds on.

    ``anim_time == 650 -> speed == 65`` after ``anim_time = speed * anim_length``; a rule between two
    factors (``anim_length == 15 -> speed == 61``) is not implied by the law and stays.
    """
    if rule["relation"] == "equal_when":
        return False
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
