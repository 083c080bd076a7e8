"""The record-by-record filler of a table: Python source written once per table plan, then run per file.

Why generated code: the flattener visits every cell of every file, and a
loop that re-decides per cell how to reach a field (path, index, enum,
which debug entry holds its span) costs several times the parse itself.
The plan already knows all of that, so it is written out once as plain
Python, like the Kaitai compiler writes the parsers.
"""

from __future__ import annotations

import enum
import keyword
from collections.abc import Callable
from typing import Any

from kaitaistruct import KaitaiStruct

from .plan import TablePlan

__all__ = ["row_filler"]

def _attr(expr: str, name: str) -> str:
    """``expr.name`` as Python source (``getattr`` with a literal for names that are not identifiers)."""
    if name.isidentifier() and not keyword.iskeyword(name):
        return f"{expr}.{name}"
    return f"getattr({expr}, {name!r})"



def row_filler(t: TablePlan, skip: frozenset = frozenset()) -> Callable:
    """A function filling every column of ``t`` for a list of records, generated once per table plan.

    Why generated code: the flattener visits every cell of every file, and a
    loop that re-decides per cell how to reach a field (path, index, enum,
    which debug entry holds its span) costs several times the parse itself.
    The plan already knows all of that, so it is written out once as plain
    Python, like the Kaitai compiler writes the parsers. Only attribute names
    (checked identifiers, else ``getattr`` with a quoted literal), quoted
    strings and integers from the plan reach the source; nothing is taken
    from the file being read.
    """
    cache = t.__dict__.setdefault("_fillers", {})
    fn = cache.get(skip)
    if fn is not None:
        return fn
    lines = ["def fill(recs, base, V, S, E):",
             "    _Enum = Enum; _KS = KaitaiStruct"]
    cols = {j: c for j, c in enumerate(t.columns + t.extents) if j not in skip}  # original positions
    groups: dict[tuple, int] = {}
    for c in cols.values():
        groups.setdefault(tuple(c.steps[:-1]), len(groups))
    for j in cols:
        lines.append(f"    v{j} = V[{j}]; s{j} = S[{j}]; e{j} = E[{j}]")
    lines.append("    for i, r in enumerate(recs):")
    for path, g in groups.items():
        ind = "        "
        if path:
            expr = "r"
            for a, ix in path:
                expr = _attr(expr, a) + ("" if ix is None else f"[{int(ix)}]")
            lines += [f"{ind}try:", f"{ind}    h{g} = {expr}", f"{ind}except Exception:",
                      f"{ind}    h{g} = None"]
        else:
            lines.append(f"{ind}h{g} = r")
        lines += [f"{ind}if h{g} is not None:", f"{ind}    d{g} = getattr(h{g}, '_debug', None); b{g} = None"]
        ind = "            "
        for j, c in cols.items():
            if tuple(c.steps[:-1]) != path:
                continue
            attr, idx = c.steps[-1]
            get = _attr(f"h{g}", attr) + ("" if idx is None else f"[{int(idx)}]")
            dkey = c.span_from or (("_m_" + attr) if c.field.kind != "seq" else attr)
            lines += [f"{ind}try:", f"{ind}    x = {get}", f"{ind}except Exception:", f"{ind}    x = None",
                      f"{ind}if x is not None:"]
            body = ind + "    "
            if c.role in ("extent", "records"):  # only where its bytes are
                lines += [f"{body}if d{g}:"]
            elif c.role == "raw":  # a switch's bytes where no case typed them
                lines += [f"{body}if d{g} and isinstance(x, (bytes, bytearray)):"]
            elif c.role == "enum_name":
                lines += [f"{body}x = x.name if isinstance(x, _Enum) else None"]
                lines += [f"{body}v{j}[i] = x", f"{body}if x is not None and d{g}:"]
            elif c.role == "list":
                lines += [f"{body}v{j}[i] = [y.value if isinstance(y, _Enum) else y for y in x]",
                          f"{body}if d{g}:"]
            elif c.field.enum is None and c.field.kind == "seq" and not c.field.is_user and c.field.type != "switch":
                lines += [f"{body}v{j}[i] = x", f"{body}if d{g}:"]  # a plain number, string or bytes
            elif c.field.kind == "value":  # a computed value: a number, or an object no cell can hold
                lines += [f"{body}v{j}[i] = x.value if isinstance(x, _Enum) else (None if isinstance(x, _KS) else x)",
                          f"{body}if d{g}:"]
            else:
                lines += [f"{body}v{j}[i] = x.value if isinstance(x, _Enum) else x", f"{body}if d{g}:"]
            body += "    "
            lines.append(f"{body}q = d{g}.get({dkey!r})")
            if c.span_from is None and c.field.kind == "seq":  # read from its object's own stream (no ``io:``)
                if idx is not None:
                    lines += [f"{body}q = q.get('arr') if q is not None else None",
                              f"{body}q = q[{int(idx)}] if q and {int(idx)} < len(q) else None"]
                lines += [f"{body}if q is not None:", f"{body}    qs = q.get('start'); qe = q.get('end')",
                          f"{body}    if qs is not None and qe is not None:",
                          f"{body}        if b{g} is None:", f"{body}            b{g} = base(h{g})",
                          f"{body}        s{j}[i] = b{g} + qs; e{j}[i] = b{g} + qe"]
                continue
            if c.span_from is not None:
                lines.append(f"{body}q = q if q is not None else d{g}.get({'_m_' + c.span_from!r})")
            lines.append(f"{body}qt = q")  # the entry the stream is known by (an ``io:`` instance keeps its own)
            if idx is not None and c.span_from is None:
                lines += [f"{body}q = q.get('arr') if q is not None else None",
                          f"{body}q = q[{int(idx)}] if q and {int(idx)} < len(q) else None"]
            lines += [f"{body}if q is not None and 'end' in q and 'start' in q:",
                      f"{body}    if 'io' in qt:", f"{body}        bb = base(h{g}, qt)",
                      f"{body}    else:", f"{body}        if b{g} is None:", f"{body}            b{g} = base(h{g})",
                      f"{body}        bb = b{g}",
                      f"{body}    s{j}[i] = bb + q['start']; e{j}[i] = bb + q['end']"]
    if not cols:
        lines.append("        pass")
    scope: dict[str, Any] = {"Enum": enum.Enum, "KaitaiStruct": KaitaiStruct}
    exec(compile("\n".join(lines), f"<animre flattener: {t.name}>", "exec"), scope)  # noqa: S102 - see docstring
    cache[skip] = scope["fill"]
    return cache[skip]
