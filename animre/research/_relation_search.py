"""The candidates :func:`~animre.research.relations` tests between the classes of a table's columns.

:func:`search` runs every test of :mod:`animre.research._relation_checks`
(laws, lookups, partial rules, products) and of
:mod:`animre.research._relation_links` (conditional laws, links across rows)
between the names of the classes, never between a computed column and what
it is computed from: those pairs only restate a definition, and are tested
for the laws alone, to be listed as definitions (with their exceptions).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from ._relation_checks import check_pair, product_findings
from ._relation_columns import Col
from ._relation_links import conditional_findings, link_findings
from ._relation_rank import ARITHMETIC

__all__ = ["search"]


def search(heads: list[Col], kind_of: Callable[[Col, Col], str], min_support: float, n_perm: int,
           rng: np.random.Generator, *, products: bool = True, links: bool = True,
           files: pd.Series | None = None, row_counts: Mapping[str, np.ndarray] | None = None,
           scaled: list[Col] | None = None) -> tuple[list[dict], list[dict]]:
    """``(findings, definitions)`` between the class names ``heads``.

    ``kind_of(a, b)``: ``"free"`` (test everything), ``"definition"`` (``a`` is computed from ``b``: laws
    only, listed as definitions), ``"defined"`` (``b`` from ``a``: nothing, the definition is tested the
    other way round) or ``"circular"`` (both computed from a common column: nothing).
    ``scaled``: members of a class that are affine copies of its name, not equal to it (``anim_length``
    beside ``num_frames = 8 * anim_length``): a product needs the factor at its own scale.
    """
    found: list[dict] = []
    definitions: list[dict] = []
    # columns that split the rows identically (slot / slot_name) are aliases: relate each alias to its
    # representative once, and test only the representative with partition rules
    reps: dict[bytes, Col] = {}
    active: list[Col] = []
    for c in heads:
        cnt = np.bincount(c.codes[c.present]) if c.present.any() else np.zeros(1, int)
        if (cnt >= 2).sum() < 2 or cnt[cnt >= 2].sum() < 0.5 * len(c.codes):
            active.append(c)  # (nearly) unique values: sharing their partition proves nothing
            continue
        sig = c.codes.tobytes()
        rep = reps.get(sig)
        if rep is None:
            reps[sig] = c
            active.append(c)
            continue
        t, s_ = (rep, c) if c.source_only else (c, rep)
        if t.source_only or c.n_distinct < 2 or kind_of(t, s_) != "free":
            continue
        both = t.present & s_.present
        found += check_pair(t, s_, both, int(both.sum()), min_support, 0, rng, alias=True)
    active_ids = {id(c) for c in active}
    rep_of = {id(c): c if id(c) in active_ids else reps[c.codes.tobytes()] for c in heads}
    for t in heads:
        if t.source_only or t.n_distinct < 2 or t.minority < 3:
            continue
        for s in heads:
            if s is t or s.n_distinct < 2 or s.name == t.parent or t.name == s.parent:
                continue
            if s.parent is not None and s.parent == t.parent:
                continue
            kind = kind_of(t, s)
            if kind in ("circular", "defined"):
                continue
            both = t.present & s.present
            nb = int(both.sum())
            if nb < 5:
                continue
            if kind == "definition":
                definitions += [f for f in check_pair(t, s, both, nb, min_support, n_perm, rng, categorical=False)
                                if f["relation"] in ARITHMETIC]
                continue
            # arithmetic between any columns, aliases too (width and x_offset can split the rows alike and
            # still obey a law); partition rules only between representatives
            categorical = id(t) in active_ids and id(s) in active_ids and rep_of[id(s)] is not rep_of[id(t)]
            found += check_pair(t, s, both, nb, min_support, n_perm, rng, categorical=categorical)

    def circular(a: Col, b: Col) -> bool:
        return kind_of(a, b) != "free"

    if products:
        found += product_findings(heads + list(scaled or []), min_support, n_perm, rng, circular=circular)
    found += conditional_findings(heads, min_support, circular)
    if links:
        found += link_findings(heads, files, row_counts or {}, min_support, n_perm, rng, circular)
    return found, definitions
