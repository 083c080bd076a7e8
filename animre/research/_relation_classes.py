"""Columns that hold one fact: equal in every row, or affine copies of each other (``end = base + 16``).

:func:`relations` finds relations between classes, not between their
members: :func:`column_classes` groups the columns, names each class by its
best-ranked member (a spec field before a value instance, a derived column
or a built-in such as ``file_size``), and :func:`class_rows` states each
member once against that name (``num_frame_chunks = num_chunks``).
"""

from __future__ import annotations

import numpy as np

from ._relation_columns import Col

__all__ = ["column_classes", "affine", "class_text", "class_findings"]


def _norm(c: Col) -> np.ndarray | None:
    """The column scaled to [0, 1] (rounded): two columns are affine copies when these are equal or mirrored."""
    if c.num is None or c.n_distinct < 2:
        return None
    v = c.num[c.present]
    if not np.all(np.isfinite(v)):
        return None
    lo, hi = float(v.min()), float(v.max())
    if hi <= lo:
        return None
    return np.round((v - lo) / (hi - lo), 9)


def affine(t: Col, s: Col) -> tuple[str, object] | None:
    """``(relation, parameter)`` when ``t`` is an exact affine function of ``s`` in every row, else None.

    ``equal``, ``offset`` (c), ``multiple`` (k) or ``linear`` (``"k=-1, c=170"``). Columns of two values are
    affine copies of any column that splits the rows alike (a flag and a constant but for one file): they
    make a class only when equal.
    """
    if t.num is None or s.num is None or not np.array_equal(t.present, s.present):
        return None
    tv, sv = t.num[t.present], s.num[s.present]
    if not len(tv):
        return None
    if min(t.n_distinct, s.n_distinct) < 3:
        return ("equal", None) if np.array_equal(tv, sv) else None
    i, j = int(np.argmin(sv)), int(np.argmax(sv))
    if sv[j] == sv[i]:
        return None
    k = (tv[j] - tv[i]) / (sv[j] - sv[i])
    c = tv[i] - k * sv[i]
    if k == 0 or not np.allclose(tv, k * sv + c, rtol=1e-9, atol=1e-9):
        return None
    k, c = _plain(k), _plain(c)
    if k == 1:
        return ("equal", None) if c == 0 else ("offset", c)
    if c == 0:
        return "multiple", k
    return "linear", f"k={k}, c={c}"


def _plain(x: float) -> int | float:
    x = float(x)
    r = round(x)
    if abs(x - r) <= 1e-9 * max(1.0, abs(x)):
        return int(r)
    return float(f"{x:.10g}")


def column_classes(cols: list[Col], rank: dict[str, int]) -> list[list[Col]]:
    """Classes of columns equal or affine in every row, each sorted by ``rank`` then table order (the name first).

    Columns of two values, and columns without a numeric reading, join a class only when equal value for
    value. Every column is in exactly one class (most are alone).
    """
    parent = list(range(len(cols)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    seen: dict[bytes, int] = {}
    for i, c in enumerate(cols):
        if c.n_distinct < 2:
            continue
        n = _norm(c) if c.n_distinct >= 3 else None
        if n is not None:
            keys = [c.present.tobytes() + n.tobytes(), c.present.tobytes() + (1 - n).round(9).tobytes()]
        elif c.num is not None:
            keys = [b"v" + c.present.tobytes() + np.where(c.present, c.num, 0).tobytes()]
        else:
            keys = [b"s" + c.codes.tobytes() + repr(c.label_values).encode()]
        for key in keys:
            j = seen.setdefault(key, i)
            if j != i and (n is None or affine(c, cols[j]) is not None):
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(len(cols)):
        groups.setdefault(find(i), []).append(i)
    return [[cols[i] for i in sorted(g, key=lambda i: (rank.get(cols[i].name, 0), i))] for g in groups.values()]


def class_text(members: list[Col]) -> str:
    """``"num_chunks = num_frame_chunks"``: a class's members, its name first."""
    return " = ".join(m.name for m in members)


def class_findings(classes: list[list[Col]], restates) -> list[dict]:
    """One row per member of every class of two or more, stated against the class's name (``m = k * name + c``).

    ``restates(a, b)``: True when one is computed from the other (the row is then a definition, not a class).
    """
    out = []
    for k in classes:
        head = k[0]
        for m in k[1:]:
            t, s = (head, m) if m.source_only else (m, head)  # a built-in (file_size) is a source only
            rel, param = affine(t, s) or ("equal", None)
            n = int(m.present.sum())
            out.append({"target": t.name, "source": s.name, "relation": rel, "parameter": param, "support": 1.0,
                        "n_agree": n, "n_rows": n, "baseline": float("nan"), "p_value": float("nan"),
                        "_agree": m.present.copy(), "_rows": m.present.copy(), "_t": t, "_s": s,
                        "role": "definition" if restates(m, head) else "class"})
    return out
