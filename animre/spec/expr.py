"""Kaitai expressions written out as Python: the one translator of the spec's expression language.

Used for ``-animre-where`` record filters, column-wise value instances
(:mod:`animre.tables.values`), claims in a spec (``-animre-claims``) and a
researcher's hypotheses (:func:`animre.check`). Only names, operators and
constants of an expression reach the Python source: never a call, a
subscript, an attribute of a value or a Python internal, and never the text
itself through ``eval``.
"""

from __future__ import annotations

import ast
import keyword
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..base.errors import SpecError, UsageError
from .ranges import enum_value

__all__ = ["Untranslatable", "expr_source", "record_filter", "compile_expr", "compile_row_expr", "expr_columns",
           "Ref", "FILE_SIZE", "ARRAY_PROPERTIES"]

_BIN_SRC = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Div: "//", ast.Mod: "%",
            ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}
_CMP_SRC = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_UNARY_SRC = {ast.Not: "not ", ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}


class Untranslatable(ValueError):
    """An expression (or one of its names) that :func:`expr_source` does not write out."""


def expr_source(node: ast.AST, name: Callable[[ast.AST], str],
                subscript: Callable[[ast.Subscript], str] | None = None) -> str:
    """Python source for a small Kaitai expression: constants, arithmetic and bit operators, comparisons,
    ``and``/``or``/``not``; every name and attribute access is written by ``name`` (which raises
    :class:`Untranslatable` for what it does not know), every subscript by ``subscript`` (none allowed
    without it). The one translator of the spec's expressions (``-animre-where`` filters, column-wise value
    instances, claims): only identifiers, operators and constants of the expression reach the source, never
    a call or Python internal (``__x__``); what ``name`` and ``subscript`` write is the caller's."""

    def src(n: ast.AST) -> str:
        if isinstance(n, ast.Constant) and (n.value is None or isinstance(n.value, (int, float, bool, str))):
            return repr(n.value)
        if isinstance(n, (ast.Name, ast.Attribute)):
            if getattr(n, "id", getattr(n, "attr", "")).startswith("__"):
                raise Untranslatable("it names a Python internal")
            return name(n)
        if isinstance(n, ast.Subscript) and subscript is not None:
            return subscript(n)
        if isinstance(n, ast.BoolOp):
            op = " and " if isinstance(n.op, ast.And) else " or "
            return "(" + op.join(f"bool({src(v)})" for v in n.values) + ")"
        if isinstance(n, ast.UnaryOp) and type(n.op) in _UNARY_SRC:
            return f"({_UNARY_SRC[type(n.op)]}{src(n.operand)})"
        if isinstance(n, ast.BinOp) and type(n.op) in _BIN_SRC:
            return f"({src(n.left)} {_BIN_SRC[type(n.op)]} {src(n.right)})"
        if isinstance(n, ast.Compare) and all(type(o) in _CMP_SRC for o in n.ops):
            parts = [src(n.left)]
            for op, comp in zip(n.ops, n.comparators):
                parts += [_CMP_SRC[type(op)], src(comp)]
            return "(" + " ".join(parts) + ")"
        raise Untranslatable(f"{ast.dump(n)[:60]} is not allowed")

    return src(node)


def record_filter(expr: str, where: str) -> Callable[[Any], bool]:
    """A record filter from a small Kaitai expression (names are the element's fields, ``_`` the element).

    Written out once as a Python function by :func:`expr_source` (like
    :func:`animre.tables.fill.row_filler`, for the same reason: it runs once per record of every
    file); anything else in the expression is a :class:`SpecError`.
    """
    def name(n: ast.AST) -> str:
        if isinstance(n, ast.Name):
            return "el" if n.id == "_" else f"_plain(el.{n.id})"
        return f"_plain(({expr_source(n.value, name)}).{n.attr})"

    try:
        body = expr_source(ast.parse(expr.strip(), mode="eval").body, name)
    except SyntaxError as e:
        raise SpecError(where, f"-animre-where: cannot read {expr!r}: {e.msg}") from None
    except Untranslatable as e:
        raise SpecError(where, f"-animre-where: {e} in {expr!r}") from None
    code = compile(f"lambda el: {body}", f"<animre where: {where}>", "eval")
    test = eval(code, {"_plain": enum_value, "__builtins__": {"bool": bool}})  # noqa: S307 - see docstring

    def pred(el) -> bool:
        try:
            return bool(test(el))
        except (AttributeError, TypeError):
            return False

    return pred


_PATH = re.compile(r"(?<![\w.\]])([A-Za-z_]\w*(?:\[\d+\])?(?:\.[A-Za-z_]\w*(?:\[\d+\])?)*)")
_WORDS = {"and": "and", "or": "or", "not": "not", "true": "True", "false": "False"}
FILE_SIZE = "_file_size"  #: the name of the file's size in a claim's expression


def expr_columns(expr: str) -> list[str]:
    """The column paths an expression reads, in the order they first appear (``_file_size`` included).

    Examples
    --------
    >>> expr_columns("file_hdr.ofs_bitmap < file_hdr.len_file and idle_weights[2] >= 0")
    ['file_hdr.ofs_bitmap', 'file_hdr.len_file', 'idle_weights[2]']
    """
    out: list[str] = []
    for m in _PATH.finditer(_strip_strings(expr)):
        name = m.group(1)
        if name not in _WORDS and name not in out:
            out.append(name)
    return out


def _strip_strings(expr: str) -> str:
    return re.sub(r"'[^']*'|\"[^\"]*\"", lambda m: " " * len(m.group(0)), expr)


_ENUM_LITERAL = re.compile(r"\b([a-z_][a-z0-9_]*(?:::[a-z_][a-z0-9_]*)+)\b")


def _enum_literals(expr: str, enums: Mapping[str, Mapping[str, int]] | None, where: str) -> str:
    """``enum::member`` (or ``type::enum::member``) written as the member's value."""

    def repl(m: re.Match) -> str:
        *_, eid, member = m.group(1).split("::")
        vals = (enums or {}).get(eid)
        if vals is None:
            raise UsageError(f"{where}: {m.group(1)!r}: the spec has no enum {eid!r}"
                             + (f" (it has {', '.join(sorted(enums))})" if enums else ""))
        if member not in vals:
            raise UsageError(f"{where}: {m.group(1)!r}: enum {eid!r} has no member {member!r} "
                             f"(it has {', '.join(vals)})")
        return str(vals[member])

    parts = re.split(r"('[^']*'|\"[^\"]*\")", expr)
    return "".join(p if i % 2 else _ENUM_LITERAL.sub(repl, p) for i, p in enumerate(parts))


def compile_expr(expr: str, where: str = "expression",
                 enums: Mapping[str, Mapping[str, int]] | None = None) -> tuple[Callable[[tuple], Any], list[str]]:
    """A function of the values of the columns an expression reads, and those columns.

    The expression is Kaitai's (``and``/``or``/``not``, ``true``/``false``,
    arithmetic, bit operators, comparisons, ``enum::member`` of ``enums``,
    as :attr:`animre.spec.model.SpecModel.enums` reads them); column paths are its names
    (``footer.unknown_4``, ``idle_weights[2]``) and ``_file_size`` is the size
    of the row's file. It is written out as Python by the flattener's one
    expression translator, which lets only names, operators and constants
    through: no call, subscript or attribute of a value, no ``eval`` of the
    text itself.

    Raises
    ------
    UsageError
        The expression uses anything else, or does not read.

    Examples
    --------
    >>> fn, cols = compile_expr("a + 1 == b.c")
    >>> cols, fn((1, 2)), fn((1, 3))
    (['a', 'b.c'], True, False)
    >>> compile_expr("op == raster_op::not", enums={"raster_op": {"not": 6}})[0]((6,))
    True
    """
    if "::" in expr:
        expr = _enum_literals(expr, enums, where)
    cols = expr_columns(expr)
    src = expr
    index = {c: i for i, c in enumerate(cols)}

    def repl(m: re.Match) -> str:
        name = m.group(1)
        return _WORDS.get(name) or f"ANIMRE_C{index[name]}"

    # replace names outside string literals only
    parts = re.split(r"('[^']*'|\"[^\"]*\")", src)
    py = "".join(p if i % 2 else _PATH.sub(repl, p) for i, p in enumerate(parts))

    def name(n: ast.AST) -> str:
        if isinstance(n, ast.Name) and n.id.startswith("ANIMRE_C"):
            return f"R[{int(n.id[8:])}]"
        if isinstance(n, ast.Name) and n.id in ("True", "False"):
            return n.id
        raise Untranslatable(f"{ast.unparse(n)} is not a column")

    try:
        body = expr_source(ast.parse(py.strip(), mode="eval").body, name)
    except SyntaxError as e:
        raise UsageError(f"{where}: cannot read {expr!r}: {e.msg}") from None
    except Untranslatable as e:
        raise UsageError(f"{where}: {e} in {expr!r}") from None
    fn = eval(compile(f"lambda R: {body}", f"<animre claim: {where}>", "eval"),  # noqa: S307 - see docstring
              {"__builtins__": {"bool": bool}})
    return fn, cols


# ----------------------------------------------------------------------------- expressions over a record

#: Properties of an array, a byte field or a string in an expression (``frames.size``, ``data.last``).
ARRAY_PROPERTIES = ("first", "last", "size", "length", "min", "max")
_KEYWORD_SUFFIX = "__kw"  # a field named like a Python keyword (``from``) is renamed while the text is read


@dataclass(frozen=True)
class Ref:
    """One reference of an expression: a name followed by attributes and indices (``frames[num_frames].x``).

    ``text`` is the reference as written; ``column`` the column path it names when it is a plain path
    (names, attributes and whole-number indices, no array property: ``header.width``, ``idle_weights[2]``),
    else None (``frames[num_frames].x``, ``data.last``).
    """

    text: str
    column: str | None


def _chain_parts(n: ast.AST) -> list | None:
    """``a.b[2].c`` as ``["a", ".b", "[2]", ".c"]`` when every index is a whole number; else None."""
    if isinstance(n, ast.Name):
        return [n.id]
    if isinstance(n, ast.Attribute):
        head = _chain_parts(n.value)
        return None if head is None else head + ["." + n.attr]
    if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant) and type(n.slice.value) is int:
        head = _chain_parts(n.value)
        return None if head is None else head + [f"[{n.slice.value}]"]
    return None


def compile_row_expr(expr: str, where: str = "expression",
                     enums: Mapping[str, Mapping[str, int]] | None = None) -> tuple[Callable[[Any], Any], list[Ref]]:
    """A function of a record resolver evaluating a Kaitai expression over arrays, and its references.

    The expression language of a spec: ``and``/``or``/``not``, ``true``/``false``,
    arithmetic, bit operators, comparisons, ``enum::member`` of ``enums``, and
    references: names, attributes and indices (``frames[num_frames].ofs_data``,
    ``data[data.size - 1]``, ``idle_weights[2]``), the array properties of
    :data:`ARRAY_PROPERTIES` (``frames.last.x``, ``data.size``), slices of byte
    fields (``data[0:4]``) and ``_file_size`` / ``_io.size``. What a reference
    means is the resolver's: the function calls ``R.name(id)``, ``R.attr(value,
    name)``, ``R.item(value, index)``, ``R.slice(value, start, stop)`` and
    ``R.ref(k, value)`` (the value of reference ``k`` of the list returned);
    nothing else of the text reaches Python (no call, no Python internal, no
    ``eval`` of the text).

    Raises
    ------
    UsageError
        The expression uses anything else, or does not read.

    Examples
    --------
    >>> fn, refs = compile_row_expr("frames[num_frames].x == data.last")
    >>> [(r.text, r.column) for r in refs]
    [('frames[num_frames].x', None), ('num_frames', 'num_frames'), ('data.last', None)]
    """
    if "::" in expr:
        expr = _enum_literals(expr, enums, where)
    parts = re.split(r"('[^']*'|\"[^\"]*\")", expr)

    def words(p: str) -> str:
        def w(m: re.Match) -> str:
            x = m.group(0)
            if x in ("true", "false"):
                return x.capitalize()
            return x + _KEYWORD_SUFFIX if keyword.iskeyword(x) and x not in ("and", "or", "not", "True", "False",
                                                                             "None") else x
        return re.sub(r"(?<![\w.])[A-Za-z_]\w*|(?<=\.)[A-Za-z_]\w*", w, p)

    py = "".join(p if i % 2 else words(p) for i, p in enumerate(parts))
    refs: list[Ref] = []

    def ident(x: str) -> str:
        if x.startswith("__"):
            raise Untranslatable("it names a Python internal")
        return x[: -len(_KEYWORD_SUFFIX)] if x.endswith(_KEYWORD_SUFFIX) else x

    def chain(n: ast.AST) -> str:
        if isinstance(n, ast.Name):
            return f"R.name({ident(n.id)!r})"
        if isinstance(n, ast.Attribute):
            return f"R.attr({chain(n.value)}, {ident(n.attr)!r})"
        if isinstance(n, ast.Subscript):
            if isinstance(n.slice, ast.Slice):
                if n.slice.step is not None:
                    raise Untranslatable("a slice with a step is not allowed")
                lo = "None" if n.slice.lower is None else top(n.slice.lower)
                hi = "None" if n.slice.upper is None else top(n.slice.upper)
                return f"R.slice({chain(n.value)}, {lo}, {hi})"
            return f"R.item({chain(n.value)}, {top(n.slice)})"
        return top(n)

    def reference(n: ast.AST) -> str:
        if isinstance(n, ast.Name) and n.id in ("True", "False", "None"):
            return n.id
        k = len(refs)
        text = ast.unparse(n).replace(_KEYWORD_SUFFIX, "")
        parts = _chain_parts(n)
        plain = parts is not None and not any(p[1:] in ARRAY_PROPERTIES for p in parts[1:] if p.startswith("."))
        refs.append(Ref(text, "".join(parts).replace(_KEYWORD_SUFFIX, "") if plain else None))
        return f"R.ref({k}, {chain(n)})"

    def top(n: ast.AST) -> str:
        return expr_source(n, reference, reference)

    try:
        body = top(ast.parse(py.strip(), mode="eval").body)
    except SyntaxError as e:
        raise UsageError(f"{where}: cannot read {expr!r}: {e.msg}") from None
    except Untranslatable as e:
        raise UsageError(f"{where}: {e} in {expr!r}") from None
    fn = eval(compile(f"lambda R: {body}", f"<animre expression: {where}>", "eval"),  # noqa: S307 - see docstring
              {"__builtins__": {"bool": bool}})
    return fn, refs
