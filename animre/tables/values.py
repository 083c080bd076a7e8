"""Value instances computed per column: a handful of array operations instead of a property per record.

A value instance (a coordinate's ``x = x_raw >= 512 ? x_raw - 1024 : x_raw``)
is a Python property the parser computes record by record. Integer
expressions over sibling fields of the same record are translated once
(:func:`animre.spec.expr.expr_source`) and evaluated on object arrays, with
Python's own integers and operators, so results equal the property's;
anything else stays with the record-by-record filler (:mod:`animre.tables.fill`).
"""

from __future__ import annotations

import ast
import re

import numpy as np

from ..base.ktypes import INTEGER
from ..spec.expr import Untranslatable, expr_source
from .plan import TablePlan

__all__ = ["value_plan", "computed_columns"]

_TERNARY = re.compile(r"^([^?:]+)\?([^?:]+):([^?:]+)$")


def value_plan(t: TablePlan) -> dict[int, tuple]:
    """Value-instance columns of ``t`` computed column-wise: column index -> (function of the columns' arrays,
    the indices it reads, the index whose byte range it shares or None), in an order where each reads only
    columns filled before it.

    Why: a value instance (a coordinate's ``x = x_raw >= 512 ? x_raw - 1024 : x_raw``) is a Python property
    the parser computes record by record; over a column it is a handful of array operations. Only integer
    expressions over sibling fields of the same record qualify (arithmetic, bit operations, comparisons and
    one ``c ? a : b``); they are evaluated on object arrays, i.e. with Python's own integers and operators,
    so results equal the property's. Anything else stays with the record-by-record filler.
    """
    plan = getattr(t, "_vec", None)
    if plan is not None:
        return plan
    cols = t.columns + t.extents
    plan = {}
    for j, c in enumerate(cols):
        f = c.field
        if (c.role != "value" or f.kind != "value" or f.enum is not None or f.repeat or not f.value_expr
                or c.steps[-1][1] is not None):
            continue
        group = c.steps[:-1]
        siblings = {cc.steps[-1][0]: k for k, cc in enumerate(cols)
                    if k != j and cc.steps[:-1] == group and cc.steps[-1][1] is None and cc.role == "value"
                    and cc.field.enum is None and not cc.field.repeat
                    and (cc.field.kind == "seq" and INTEGER.match(cc.field.type)
                         or k in plan)}
        got = _vector_source(f.value_expr, siblings)
        if got is None:
            continue
        src, reads = got
        span = siblings.get(c.span_from) if c.span_from else None
        if c.span_from and span is None:
            continue
        fn = eval(compile(f"lambda A: {src}", f"<animre value: {t.name}.{c.name}>", "eval"),  # noqa: S307
                  {"np": np, "__builtins__": {}})
        plan[j] = (fn, tuple(reads), span)
    t._vec = plan
    return plan


def _vector_source(expr: str, names: dict[str, int]) -> tuple[str, set] | None:
    """Python source over ``A[k]`` arrays for a Kaitai value expression (:func:`expr_source`, plus one
    ``c ? a : b``), and the columns it reads; None when it names anything but sibling columns. What does not
    hold for arrays (``and``, ``not``, chained comparisons) raises when evaluated, and the column then stays
    with the record-by-record filler (see :func:`computed_columns`)."""
    m = _TERNARY.match(expr.strip())
    parts = [m.group(1), m.group(2), m.group(3)] if m else [expr]
    reads: set = set()

    def name(n: ast.AST) -> str:
        if isinstance(n, ast.Name) and n.id in names:
            reads.add(names[n.id])
            return f"A[{names[n.id]}]"
        raise Untranslatable("not a sibling column")

    try:
        out = [expr_source(ast.parse(part.strip(), mode="eval").body, name) for part in parts]
    except (SyntaxError, Untranslatable):
        return None
    if not reads:
        return None
    return (f"np.where({out[0]}, {out[1]}, {out[2]})" if m else out[0]), reads


def computed_columns(plan: dict[int, tuple], vals: list, st: list, en: list) -> set[int]:
    """Fill the value-instance columns of ``plan`` from the filled columns they read; the indices it could
    not fill (a record without the field, a value that is not an integer, an error) are returned."""
    arrays: dict[int, np.ndarray] = {}
    failed: set[int] = set()

    def arr(k: int) -> np.ndarray | None:
        a = arrays.get(k)
        if a is None:
            v = vals[k]
            if not set(map(type, v)) <= {int}:  # a missing value or one that is not an integer
                return None
            a = arrays[k] = np.array(v, dtype=object)
        return a

    for j, (fn, reads, span) in plan.items():
        if any(k in failed for k in reads):
            failed.add(j)
            continue
        got = [arr(k) for k in reads]
        if any(a is None for a in got):
            failed.add(j)
            continue
        try:
            res = fn(arrays)
        except Exception:  # noqa: BLE001 - the record-by-record path says per record what it cannot compute
            failed.add(j)
            continue
        out = res.tolist() if isinstance(res, np.ndarray) else [res] * len(vals[j])
        if not set(map(type, out)) <= {int, bool}:  # else each is a Python integer or truth value already
            out = [x if type(x) is int else (bool(x) if isinstance(x, (bool, np.bool_)) else x) for x in out]
            if any(type(x) not in (int, bool) for x in out):
                failed.add(j)
                continue
        vals[j][:] = out
        arrays[j] = np.array(out, dtype=object)
        if span is not None:
            st[j][:] = st[span]
            en[j][:] = en[span]
    return failed
