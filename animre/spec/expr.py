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
import re
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import SpecError, UsageError
from .parse import enum_value

__all__ = ["Untranslatable", "expr_source", "record_filter", "compile_expr", "expr_columns", "FILE_SIZE"]

_BIN_SRC = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Div: "//", ast.Mod: "%",
            ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}
_CMP_SRC = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_UNARY_SRC = {ast.Not: "not ", ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}


class Untranslatable(ValueError):
    """An expression (or one of its names) that :func:`expr_source` does not write out."""


def expr_source(node: ast.AST, name: Callable[[ast.AST], str]) -> str:
    """Python source for a small Kaitai expression: constants, arithmetic and bit operators, comparisons,
    ``and``/``or``/``not``; every name and attribute access is written by ``name`` (which raises
    :class:`Untranslatable` for what it does not know). The one translator of the spec's expressions
    (``-animre-where`` filters, column-wise value instances): only identifiers, operators and constants of
    the expression reach the source, never a call, subscript or Python internal (``__x__``)."""

    def src(n: ast.AST) -> str:
        if isinstance(n, ast.Constant) and (n.value is None or isinstance(n.value, (int, float, bool, str))):
            return repr(n.value)
        if isinstance(n, (ast.Name, ast.Attribute)):
            if getattr(n, "id", getattr(n, "attr", "")).startswith("__"):
                raise Untranslatable("it names a Python internal")
            return name(n)
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
