"""Tables from the spec: one generic flattener for every format.

The spec (``ksy/<id>.ksy``) says which tables a format yields; this module
reads those declarations and turns parsed objects into tidy tables whose
columns are named after the spec's field ids. Nothing here knows a format.

The rules (documented once, used everywhere)
--------------------------------------------
* A format with spec id ``X`` has a root table named ``X`` (or
  ``X_<name>`` when ``meta`` has ``-animre-table: <name>``): one row per
  parsed file (per block for containers).
* A repeated field with ``-animre-table: <name>`` becomes the table
  ``X_<name>``: one row per element, with the parent table's key columns
  and its own key column ``-animre-key`` (the element's position in the
  array; default ``<name>_index``). ``-animre-where: <expression>`` keeps
  only elements for which the expression (Kaitai syntax: ``_.move_number <
  70``) is true. Arrays of user types without ``-animre-table`` become
  tables named after the field.
* Every other field is a column of the table of the record that holds it.
  **A column's name is the field's path relative to the record**, exactly as
  in :meth:`Corpus.fields` paths: ``walk_speed``, ``footer.unknown_4`` (a
  nested non-repeated type adds ``<id>.``), ``idle_weights[2]`` (arrays with
  ``-animre-spread: true`` give one column per element), ``projectile_offsets[1].x``.
  ``-animre-inline: true`` on a nested type drops its ``<id>.`` prefix.
  Other arrays of values are one column holding the list.
* An enum field gives the integer column and a ``<column>_name`` column.
* ``seq`` fields and ``pos:`` instances carry their byte range; ``value:``
  instances have none, unless ``-animre-bytes: <sibling id>`` names the field
  their bits come from.
* ``-animre-skip: true`` leaves a field out of every table (it still appears
  in :meth:`Corpus.fields`).
* ``-animre-id: true`` marks a field whose values identify the records of
  its table (a move number): other columns are tested as references to it.

The compiler ignores keys that start with ``-``, so these declarations live
in the spec beside the fields they describe. The flattener works per column:
for every column it walks the records of its table once and fills a value
array and two int32 offset arrays (``-1`` = not read from the file).
"""

from __future__ import annotations

import ast
import enum
import functools
import hashlib
import keyword
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml
from kaitaistruct import KaitaiStruct

from .errors import SpecError
from .ksy_numbers import spec_int
from .parse import Bases

EXTENT = "~"  #: prefix of the span-only entries of skipped fields in a table's offsets (``~body.data``)

__all__ = [
    "EXTENT",
    "column_values",
    "FieldDef",
    "TypeDef",
    "SpecModel",
    "Column",
    "TablePlan",
    "Plan",
    "load_spec",
    "plan_for",
    "flatten",
    "Chunk",
    "COLUMN_INFO",
]

COLUMN_INFO = ["table", "column", "kind", "type", "enum", "doc", "field", "spec", "is_id", "path", "magic"]

_PRIM = re.compile(r"^(?:[us][1248]|f[48]|b\d+)(?:le|be)?$|^(?:str|strz)$")


# ------------------------------------------------------------------ the spec model


@dataclass(frozen=True)
class FieldDef:
    """One field of a spec type (a ``seq`` attribute or an instance)."""

    id: str
    kind: str  # "seq", "pos" (positional instance) or "value" (computed instance)
    type: str  # ksy type as written (u2, s4le, str, bytes, a user type, "switch", "value")
    users: tuple  # resolved user type keys (several for switch-on)
    repeat: bool
    repeat_n: int | None
    enum: str | None
    doc: str
    opts: dict = field(hash=False, compare=False, default_factory=dict)
    magic: bool = field(default=False, compare=False)  # ``contents`` or a ``valid`` constant (or set of them)
    value_expr: str | None = field(default=None, compare=False)  # a value instance's expression

    @property
    def is_user(self) -> bool:
        return bool(self.users)


@dataclass
class TypeDef:
    """A type of a spec: its fields in spec order (seq, then instances)."""

    spec: str
    path: tuple[str, ...]
    fields: list[FieldDef]
    doc: str = ""

    @property
    def name(self) -> str:
        return self.path[-1] if self.path else self.spec


@dataclass
class SpecModel:
    """Every type of a spec and of the specs it imports."""

    id: str
    meta: dict
    types: dict[tuple, TypeDef]
    text_hash: str
    annotated: bool = True  # the spec has ``-animre-*`` keys; without any, the default table rule applies

    @property
    def root(self) -> TypeDef:
        return self.types[(self.id, ())]


def _opts(d: dict) -> dict:
    return {k[len("-animre-"):]: v for k, v in d.items() if isinstance(k, str) and k.startswith("-animre-")}


def _strip_params(t: str) -> str:
    return t.split("(", 1)[0].strip()


def _ksy_type(a: dict) -> str:
    if "contents" in a:
        return "contents"
    if "value" in a:
        return "value"
    t = a.get("type")
    if isinstance(t, dict):
        return "switch"
    if t is None:
        return "bytes"
    return _strip_params(str(t))


def _collect(sid: str, doc: dict, path: tuple, raw: dict) -> None:
    raw[(sid, path)] = doc
    for tid, tdoc in (doc.get("types") or {}).items():
        _collect(sid, tdoc or {}, path + (str(tid),), raw)


def _resolve(ref: str, sid: str, path: tuple, raw: dict) -> tuple | None:
    ref = _strip_params(ref)
    if "::" in ref:
        parts = ref.split("::")
        key = (parts[0], tuple(parts[1:]))
        return key if key in raw else None
    if _PRIM.match(ref) or ref == "bytes":
        return None
    for k in range(len(path), -1, -1):
        key = (sid, path[:k] + (ref,))
        if key in raw:
            return key
    if (ref, ()) in raw:  # the top-level type of an imported spec
        return (ref, ())
    return None


def _field(fid: str, a: dict, kind: str, sid: str, path: tuple, raw: dict) -> FieldDef:
    t = _ksy_type(a)
    users: tuple = ()
    if t == "switch":
        cases = (a.get("type") or {}).get("cases") or {}
        users = tuple(dict.fromkeys(
            k for k in (_resolve(str(c), sid, path, raw) for c in cases.values()) if k is not None))
    elif t not in ("value", "bytes"):
        k = _resolve(t, sid, path, raw)
        users = (k,) if k is not None else ()
    n = a.get("repeat-expr")
    valid = a.get("valid")
    if isinstance(valid, dict):
        valid = valid.get("eq", valid.get("any-of"))
    consts = valid if isinstance(valid, list) else [valid]
    magic = "contents" in a or (valid is not None and all(spec_int(x) is not None for x in consts))
    return FieldDef(
        id=str(fid), kind=kind, type=t, users=users, repeat="repeat" in a,
        repeat_n=n if isinstance(n, int) else None, enum=a.get("enum"),
        doc=str(a.get("doc") or "").strip(), opts=_opts(a), magic=magic,
        value_expr=str(a["value"]) if "value" in a else None,
    )


@functools.lru_cache(maxsize=64)
def _load(text: str, ksy_dir: str, imports: tuple[tuple[str, str], ...] = ()) -> SpecModel:
    try:
        main = yaml.safe_load(text) or {}
    except yaml.YAMLError as e:
        raise SpecError("spec", f"YAML error: {e}") from e
    meta = main.get("meta") or {}
    sid = str(meta.get("id", "spec"))
    raw: dict[tuple, dict] = {}
    todo, seen = [(sid, main)], set()
    while todo:
        s, doc = todo.pop()
        if s in seen:
            continue
        seen.add(s)
        _collect(s, doc, (), raw)
        for imp in (doc.get("meta") or {}).get("imports") or []:
            name = Path(str(imp)).name
            if name.endswith(".ksy"):
                name = name[:-4]
            given = dict(imports)
            if name in given:
                sub = yaml.safe_load(given[name]) or {}
                todo.append((str((sub.get("meta") or {}).get("id", name)), sub))
                continue
            p = Path(ksy_dir) / f"{name}.ksy"
            if p.exists():
                todo.append((name, yaml.safe_load(p.read_text(encoding="utf-8")) or {}))
    types: dict[tuple, TypeDef] = {}
    for (s, path), doc in raw.items():
        fields = [_field(a["id"], a, "seq", s, path, raw)
                  for a in doc.get("seq") or [] if isinstance(a, dict) and "id" in a]
        for iid, a in (doc.get("instances") or {}).items():
            if isinstance(a, dict):
                fields.append(_field(iid, a, "value" if "value" in a else "pos", s, path, raw))
        types[(s, path)] = TypeDef(s, path, fields, str(doc.get("doc") or "").strip())
    return SpecModel(sid, meta, types, hashlib.sha256(text.encode()).hexdigest(), _annotated(main))


def _annotated(doc: Any) -> bool:
    """True when a spec document carries any ``-animre-*`` key."""
    if isinstance(doc, dict):
        return any(isinstance(k, str) and k.startswith("-animre-") for k in doc) or any(
            _annotated(v) for v in doc.values())
    if isinstance(doc, list):
        return any(_annotated(v) for v in doc)
    return False


def load_spec(text: str, ksy_dir: str | Path | None = None, imports: dict[str, str] | None = None) -> SpecModel:
    """The types of a spec (YAML text), its imports taken from ``imports`` (``{id: text}``, as
    :class:`animre.specsource.SpecSource` resolves them) or else from ``ksy_dir`` (default ``ksy/``).

    Examples
    --------
    >>> m = load_spec(open("ksy/frm.ksy").read())
    >>> [f.id for f in m.root.fields][:3]
    ['unknown_magic', 'eye_x', 'eye_y']
    """
    if ksy_dir is None:
        from .compile import KSY_DIR

        ksy_dir = KSY_DIR
    return _load(text, str(ksy_dir), tuple(sorted((imports or {}).items())))


# ------------------------------------------------------------------ the plan


@dataclass(frozen=True)
class Column:
    """One column of a table: how to reach the value from a record, and what it is."""

    name: str
    steps: tuple  # ((attr, index or None), ...) from the record
    field: FieldDef
    owner: str  # the spec type holding the field
    role: str  # "value", "enum_name" or "list"
    span_from: str | None = None
    spec: str = ""  # the spec (main or imported) that defines the field

    @property
    def kind(self) -> str:
        if self.role == "enum_name":
            return "enum name"
        if self.role == "list":
            return "list"
        if self.field.kind == "value":
            return "value" if self.span_from is None else "value (bits)"
        return "read" if self.field.kind == "seq" else "pos"


@dataclass
class TablePlan:
    """A table: where its records are, its keys and its columns."""

    name: str
    parent: str | None
    steps: tuple  # from the parent record to the array holder; the last step names the array
    key: str | None
    keys: tuple[str, ...]
    columns: list[Column]
    primitive: FieldDef | None = None  # rows are the values of a primitive array
    where: Callable[[Any], bool] | None = None
    owner: str = ""
    path: str = ""  # field path of a record, array positions as [] (``moves[]``)
    extents: list[Column] = field(default_factory=list)  # -animre-skip fields: byte ranges only (EXTENT + name)


@dataclass
class Plan:
    """Every table a spec yields, in parent-before-child order."""

    spec: str
    tables: dict[str, TablePlan]
    skipped: list[str] = field(default_factory=list)  # paths of -animre-skip fields (not in any table)
    notes: list[str] = field(default_factory=list)  # constructs the flattener could not tabulate

    def extent_info(self) -> pd.DataFrame:
        """The span-only entries of every table: table, name (``~`` + field path), category.

        ``typed``/``opaque``: a field left out by ``-animre-skip`` (opaque when
        it is raw bytes); ``opaque``: a switch field whose bytes no case typed;
        ``records``: an array whose ``-animre-where`` keeps records out of
        their table (the whole array's bytes, under its kept records' cells).
        """
        rows = [(t.name, c.name, "records" if c.role == "records" else
                 "opaque" if c.role == "raw" or c.field.type == "bytes" else "typed")
                for t in self.tables.values() for c in t.extents]
        return pd.DataFrame(rows, columns=["table", "name", "category"])

    def info(self) -> pd.DataFrame:
        """One row per column: table, column, kind, type, enum, doc, field, spec, is_id, path, magic.

        ``path`` is where the cell's field sits in :meth:`Corpus.fields` paths,
        array positions written ``[]`` (``moves[].footer.unknown_4``); ``magic``
        is True for ``contents`` and ``valid`` constants (shown in hex).
        """
        rows = []
        for t in self.tables.values():
            for k in t.keys:
                rows.append((t.name, k, "key", "index", None, "Position of the record in its array.", None,
                             self.spec, False, None, False))
            for c in t.columns:
                ty = c.field.type + ("[]" if c.role == "list" else "")
                if c.role == "enum_name":
                    ty = "str"
                rows.append((t.name, c.name, c.kind, ty, c.field.enum, c.field.doc,
                             f"{c.owner}.{c.field.id}", self.spec,
                             bool(c.field.opts.get("id")) and c.role == "value", self.path_of(t, c),
                             c.field.magic and c.role == "value"))
        return pd.DataFrame(rows, columns=COLUMN_INFO)

    @staticmethod
    def path_of(t: TablePlan, c: Column) -> str:
        """The field path of a column's cells (array positions as ``[]``)."""
        steps = _steps_path(c.steps)
        if t.primitive is not None:
            return t.path
        return f"{t.path}.{steps}" if t.path else steps


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


def _where(expr: str, where: str) -> Callable[[Any], bool]:
    """A record filter from a small Kaitai expression (names are the element's fields, ``_`` the element).

    Written out once as a Python function by :func:`expr_source` (like
    :func:`_row_filler`, for the same reason: it runs once per record of every
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
    test = eval(code, {"_plain": _plain, "__builtins__": {"bool": bool}})  # noqa: S307 - see docstring

    def pred(el) -> bool:
        try:
            return bool(test(el))
        except (AttributeError, TypeError):
            return False

    return pred


def _plain(v: Any) -> Any:
    if isinstance(v, enum.Enum):
        return v.value
    return v


def _steps_path(steps: tuple) -> str:
    """Accessor steps as a field path: ``(("footer", None), ("ids", 2))`` -> ``footer.ids[2]``."""
    return ".".join(a + ("" if i is None else f"[{i}]") for a, i in steps)


class _Planner:
    def __init__(self, model: SpecModel):
        self.m = model
        self.tables: dict[str, TablePlan] = {}
        self.skipped: list[str] = []
        self.notes: list[str] = []

    def table_name(self, short: str) -> str:
        return f"{self.m.id}_{short}"

    def add_table(self, t: TablePlan) -> None:
        if t.name in self.tables:
            if self.m.annotated:
                raise SpecError(f"{self.m.id}.ksy", f"two fields declare the table {t.name!r}")
            k = 2
            while f"{t.name}_{k}" in self.tables:
                k += 1
            self.note(f"two fields would make the table {t.name!r}; the second is {t.name}_{k}")
            t.name = f"{t.name}_{k}"
        self.tables[t.name] = t

    def note(self, text: str) -> None:
        """Say once what the flattener cannot tabulate (the rest of the tables is still built)."""
        if text not in self.notes:
            self.notes.append(text)

    def record_columns(self, tkey: tuple, table: TablePlan, prefix: str, steps: tuple, depth: int,
                       stack: tuple) -> None:
        tdef = self.m.types.get(tkey)
        if tdef is None:
            return
        for f in tdef.fields:
            if f.opts.get("skip"):
                self.skipped.append(".".join(x for x in (table.path, _steps_path(steps), f.id) if x))
                # no column, but its bytes stay known (coverage): a span-only extent of the record
                table.extents.append(Column(EXTENT + prefix + f.id, steps + ((f.id, None),), f, tdef.name,
                                            "extent", spec=tdef.spec))
                continue
            self.field_columns(f, tdef, table, prefix, steps, depth, stack)

    def field_columns(self, f: FieldDef, tdef: TypeDef, table: TablePlan, prefix: str, steps: tuple,
                      depth: int, stack: tuple) -> None:
        owner = tdef.name
        spec = tdef.spec
        name = prefix + f.id
        default = not self.m.annotated  # the default rule: every repeated field is a table
        if f.repeat and (f.opts.get("table") or (f.is_user and not f.opts.get("spread")) or default):
            short = str(f.opts.get("table") or f.id)
            key = str(f.opts.get("key") or f"{short}_index")
            if default:
                short = (table.name[len(self.m.id) + 1:] + "_" if table.parent else "") + \
                    (prefix.replace(".", "_").replace("[", "_").replace("]", "") + f.id)
                k = 2
                while key in table.keys:
                    key, k = f"{f.id}_index{k}", k + 1
            where = None
            if f.opts.get("where"):
                where = _where(str(f.opts["where"]), f"{self.m.id}.ksy: {owner}.{f.id}")
            base_path = ".".join(x for x in (table.path, _steps_path(steps)) if x)
            child = TablePlan(self.table_name(short), table.name, steps + ((f.id, None),), key,
                              table.keys + (key,), [], None if f.is_user else f, where, owner,
                              f"{base_path}.{f.id}[]" if base_path else f"{f.id}[]")
            if where is not None:  # the records it keeps out still occupy bytes: the array's whole extent
                table.extents.append(Column(EXTENT + name + "[]", steps + ((f.id, None),), f, owner, "records",
                                            spec=spec))
            self.add_table(child)
            if f.is_user:
                for u in f.users:
                    if u in stack:
                        self.note(f"{owner}.{f.id}: type {u[-1][-1] if u[1] else u[0]} holds itself; its nested "
                                  "levels are not tabulated")
                        continue
                    self.record_columns(u, child, "", (), 0, stack + (u,))
            else:
                child.columns.append(Column(f.id, (), f, owner, "value", spec=spec))
                if f.enum:
                    child.columns.append(Column(f.id + "_name", (), f, owner, "enum_name", spec=spec))
            return
        if f.repeat and f.opts.get("spread"):
            if f.repeat_n is None:
                raise SpecError(f"{self.m.id}.ksy", f"{owner}.{f.id}: -animre-spread needs a constant repeat-expr")
            for i in range(f.repeat_n):
                st = steps + ((f.id, i),)
                if f.is_user:
                    for u in f.users:
                        if u not in stack:
                            self.record_columns(u, table, f"{name}[{i}].", st, depth + 1, stack + (u,))
                else:
                    self.leaf(table, f"{name}[{i}]", st, f, owner, spec)
            return
        if f.is_user and not f.repeat:
            if depth > 12:
                return
            if f.type == "switch":  # no case for the value: the field stays raw bytes, known by its extent
                table.extents.append(Column(EXTENT + name, steps + ((f.id, None),), f, owner, "raw", spec=spec))
            inner = prefix if f.opts.get("inline") else name + "."
            for u in f.users:
                if u not in stack:
                    self.record_columns(u, table, inner, steps + ((f.id, None),), depth + 1, stack + (u,))
            return
        if f.repeat:
            table.columns.append(Column(name, steps + ((f.id, None),), f, owner, "list", spec=spec))
            return
        self.leaf(table, name, steps + ((f.id, None),), f, owner, spec)

    def leaf(self, table: TablePlan, name: str, steps: tuple, f: FieldDef, owner: str, spec: str) -> None:
        span_from = f.opts.get("bytes")
        table.columns.append(Column(name, steps, f, owner, "value", str(span_from) if span_from else None,
                                    spec))
        if f.enum:
            table.columns.append(Column(name + "_name", steps, f, owner, "enum_name", spec=spec))

    def plan(self) -> Plan:
        root = self.m.root
        short = (self.m.meta or {}).get("-animre-table")
        name = self.table_name(str(short)) if short else self.m.id
        t = TablePlan(name, None, (), None, (), [], owner=root.name)
        self.add_table(t)
        self.record_columns((self.m.id, ()), t, "", (), 0, ((self.m.id, ()),))
        for tp in self.tables.values():
            uniq: dict[tuple, Column] = {}
            for c in tp.columns:  # switch cases sharing a field: one column
                uniq.setdefault((c.name, c.steps, c.role), c)
            tp.columns = list(uniq.values())
            seen: dict[str, int] = {}
            for c in tp.columns:
                seen[c.name] = seen.get(c.name, 0) + 1
            dup = [n for n, k in seen.items() if k > 1 or n in tp.keys]
            if dup and self.m.annotated:
                raise SpecError(f"{self.m.id}.ksy", f"table {tp.name}: column names used twice: {dup}")
            if dup:
                self.note(f"table {tp.name}: columns {dup} would be named twice; the first of each is kept")
                kept: set[str] = set(tp.keys)
                cols = []
                for c in tp.columns:
                    if c.name not in kept:
                        kept.add(c.name)
                        cols.append(c)
                tp.columns = cols
        return Plan(self.m.id, self.tables, self.skipped, self.notes)


@functools.lru_cache(maxsize=64)
def _plan_cached(text: str, ksy_dir: str, imports: tuple = ()) -> Plan:
    return _Planner(_load(text, ksy_dir, imports)).plan()


def plan_for(text: str, ksy_dir: str | Path | None = None, imports: dict[str, str] | None = None) -> Plan:
    """The tables a spec (YAML text) yields; ``imports``: ``{id: text}`` of the specs it imports.

    Examples
    --------
    >>> p = plan_for(open("ksy/frm.ksy").read())
    >>> list(p.tables)[0]
    'frm'
    """
    if ksy_dir is None:
        from .compile import KSY_DIR

        ksy_dir = KSY_DIR
    return _plan_cached(text, str(ksy_dir), tuple(sorted((imports or {}).items())))


# ------------------------------------------------------------------ flattening one parsed object


@dataclass
class Chunk:
    """Rows of one table from one or more parsed objects, column by column.

    ``data``: column -> list of values. Offsets are two int32 matrices,
    ``st`` and ``en``, one row per column of ``span_cols`` (absolute offsets,
    ``-1`` = not read from the file): a table with hundreds of columns costs
    one array per file, and chunks of many files are concatenated with one
    call per table, never cell by cell.
    """

    columns: list[str]
    data: dict[str, list]
    span_cols: list[str]
    st: np.ndarray
    en: np.ndarray
    n: int

    @property
    def starts(self) -> dict[str, np.ndarray]:
        """column -> start offsets (views into ``st``)."""
        return dict(zip(self.span_cols, self.st))

    @property
    def ends(self) -> dict[str, np.ndarray]:
        """column -> end offsets (views into ``en``)."""
        return dict(zip(self.span_cols, self.en))

    def extend(self, other: Chunk) -> None:
        """Append ``other``'s rows (same columns)."""
        for c in self.columns:
            self.data[c].extend(other.data[c])
        self.st = np.concatenate([self.st, other.st], axis=1)
        self.en = np.concatenate([self.en, other.en], axis=1)
        self.n += other.n

    def frames(self) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
        """(values, start offsets, end offsets) as DataFrames (offsets int32, -1 = none)."""
        cols = self.columns
        df = (pd.DataFrame({c: column_values(self.data[c]) for c in cols}, columns=cols) if self.n
              else pd.DataFrame({c: [] for c in cols}, columns=cols))
        empty = np.full(self.n, -1, dtype=np.int32)
        starts, ends = self.starts, self.ends
        s = pd.DataFrame({c: starts.get(c, empty) for c in cols}, columns=cols)
        e = pd.DataFrame({c: ends.get(c, empty) for c in cols}, columns=cols)
        return df, s, e


_MISS = object()
_INT64 = (-(2**63), 2**63 - 1)


def column_values(values: list) -> pd.Series:
    """One column's values as a Series; integers with gaps (an ``if:`` field) stay integers (Int64).

    Examples
    --------
    >>> str(column_values([1, None, 3]).dtype), str(column_values([1.5, None]).dtype)
    ('Int64', 'float64')
    """
    out = pd.Series(values)
    if out.dtype.kind == "f" and _ints_with_gaps(values):
        return pd.Series(pd.array(values, dtype="Int64"))
    return out


def _ints_with_gaps(values: list) -> bool:
    """Whether ``values`` holds Python integers (within int64) and None, both.

    Examples
    --------
    >>> _ints_with_gaps([1, None, 3]), _ints_with_gaps([1.5, None]), _ints_with_gaps([1, 2])
    (True, False, False)
    """
    kinds = set(map(type, values))
    if kinds != {int, type(None)}:
        return False
    ints = [v for v in values if v is not None]
    return _INT64[0] <= min(ints) and max(ints) <= _INT64[1]


def _debug_entry(obj, attr: str):
    d = getattr(obj, "_debug", None)
    if not d:
        return None
    return d.get(attr) or d.get("_m_" + attr)


def _get(obj, attr: str):
    try:
        return getattr(obj, attr)
    except AttributeError:
        return _MISS
    except Exception:  # noqa: BLE001 - a value instance that cannot be computed is no value
        return _MISS


def flatten(root, bases: Bases, plan: Plan, keys: dict | None = None, *, frames: bool = True) -> dict:
    """Tables of one parsed object: table -> (values, start offsets, end offsets).

    Offsets are absolute int32 (``-1`` for cells not read from the file).
    ``keys`` are extra leading key columns with one value (e.g. ``block``).
    With ``frames=False`` each table is a :class:`Chunk` (columns as lists and
    arrays, what a corpus scan concatenates) instead of three DataFrames.

    Examples
    --------
    >>> from animre.parse import parse_bytes
    >>> from animre.compile import load_parser
    >>> mod = load_parser("frm")
    >>> data = open("data/samples/frm/GOBLNFRM.BIN", "rb").read()
    >>> obj = parse_bytes(data, mod)
    >>> plan = plan_for(open("ksy/frm.ksy").read())
    >>> vals, starts, ends = flatten(obj, Bases(obj), plan)["frm"]
    >>> int(starts.at[0, "walk_speed"]), int(ends.at[0, "walk_speed"])
    (162, 166)
    """
    keys = keys or {}
    base_cache: dict[int, int] = bases._io_base  # stream id -> absolute base, shared with Bases (which fills it)

    def base(o) -> int:  # an object's base is its stream's: one lookup per stream
        k = id(getattr(o, "_io", o))
        b = base_cache.get(k)
        if b is None:
            b = base_cache[k] = bases.base(o)
        return b

    def sub(h, parent, attr: str) -> int:  # h = parent.attr (a seq field) reading its own sized stream
        d = getattr(parent, "_debug", None)
        q = d.get(attr) if d else None
        if not q or "start" not in q or getattr(h, "_io", None) is getattr(parent, "_io", None):
            return base(h)
        b = base_cache[id(h._io)] = base(parent) + q["start"]
        return b

    base.cache = base_cache  # the generated fillers look a stream up here before calling base
    base.sub = sub

    records: dict[str, tuple[list, list]] = {}  # table -> (records, key tuples)
    out = {}
    for t in plan.tables.values():
        if t.parent is None:
            recs, ks = [root], [()]
        else:
            precs, pks = records[t.parent]
            recs, ks = [], []
            *path, (arr_attr, _) = t.steps
            for r, k in zip(precs, pks):
                holder = r
                for attr, idx in path:
                    holder = _get(holder, attr) if holder is not None else _MISS
                    if holder is _MISS or holder is None:
                        break
                    if idx is not None:
                        holder = holder[idx] if idx < len(holder) else None
                if holder is _MISS or holder is None:
                    continue
                arr = _get(holder, arr_attr)
                if arr is _MISS or arr is None:
                    continue
                if t.primitive is not None:  # one run per array: (holder, attribute, kept positions)
                    idxs = range(len(arr)) if t.where is None else [i for i, el in enumerate(arr) if t.where(el)]
                    recs.append((holder, arr_attr, idxs))
                    ks.extend([k + (i,) for i in idxs])
                    continue
                if arr and getattr(arr[0], "_io", None) is not getattr(holder, "_io", None):
                    _register_streams(holder, arr_attr, arr, base, base_cache)
                for i, el in enumerate(arr):
                    if t.where is not None and not t.where(el):
                        continue
                    recs.append(el)
                    ks.append(k + (i,))
        records[t.name] = (recs, ks)
        chunk = _columns(t, recs, ks, keys, base)
        out[t.name] = chunk.frames() if frames else chunk
    return out


def _register_streams(holder, attr: str, arr: list, base, streams: dict) -> None:
    """Bases of an array's elements that each read their own sized stream (``size:`` on a repeated user
    type): the holder's base + the element's start in its debug entry, all at once, before any cell asks."""
    d = getattr(holder, "_debug", None)
    entry = d.get(attr) if d else None
    spans = entry.get("arr") if entry else None
    if not spans:
        return
    b = base(holder)
    for el, q in zip(arr, spans):
        io = getattr(el, "_io", None)
        if io is not None and "start" in q:
            streams.setdefault(id(io), b + q["start"])


def _columns(t: TablePlan, recs: list, ks: list, keys: dict, base) -> Chunk:
    n = len(ks)
    data: dict[str, Any] = {k: [v] * n for k, v in keys.items()}
    for j, k in enumerate(t.keys):
        data[k] = [kk[j] for kk in ks]
    spans = t.columns + t.extents
    vals = [[None] * n for _ in spans]
    st = [[-1] * n for _ in spans]
    en = [[-1] * n for _ in spans]
    if t.primitive is not None:  # rows are the elements of a primitive array
        _primitive_rows(t, recs, base, vals, st, en)
    elif n:
        vec = _value_plan(t)
        _row_filler(t, frozenset(vec))(recs, base, vals, st, en)
        if vec:
            rest = _computed_columns(vec, vals, st, en)
            if rest:  # a value instance that cannot be computed column-wise here: read record by record
                cols = t.columns + t.extents
                _row_filler(t, frozenset(range(len(cols))) - rest)(recs, base, vals, st, en)
    for c, v in zip(t.columns, vals):
        data[c.name] = v
    shape = (len(spans), n)
    return Chunk(list(data), data, [c.name for c in spans],
                 np.array(st, dtype=np.int32).reshape(shape), np.array(en, dtype=np.int32).reshape(shape), n)


def _primitive_rows(t: TablePlan, runs: list, base, vals: list, st: list, en: list) -> None:
    """Rows that are the elements of primitive arrays: ``runs`` of (holder, attribute, kept positions)."""
    for j, c in enumerate(t.columns):
        out, s, e = vals[j], st[j], en[j]
        names = c.role == "enum_name"
        plain = not names and c.field.enum is None
        pos = 0
        for holder, attr, idxs in runs:
            m = len(idxs)
            if not m:
                continue
            seq = getattr(holder, attr)
            full = isinstance(idxs, range) and m == len(seq)
            got = seq if full else [seq[i] for i in idxs]
            if plain:
                out[pos:pos + m] = got
            elif names:
                out[pos:pos + m] = [v.name if isinstance(v, enum.Enum) else None for v in got]
            else:
                out[pos:pos + m] = [_plain(v) for v in got]
            d = _debug_entry(holder, attr)
            arr = d.get("arr") if d else None
            if arr:
                b, na = base(holder), len(arr)
                s[pos:pos + m] = [b + arr[i].get("start", -1 - b) if i < na else -1 for i in idxs]
                e[pos:pos + m] = [b + arr[i].get("end", -1 - b) if i < na else -1 for i in idxs]
            pos += m


def _attr(expr: str, name: str) -> str:
    """``expr.name`` as Python source (``getattr`` with a literal for names that are not identifiers)."""
    if name.isidentifier() and not keyword.iskeyword(name):
        return f"{expr}.{name}"
    return f"getattr({expr}, {name!r})"


_TERNARY = re.compile(r"^([^?:]+)\?([^?:]+):([^?:]+)$")


def _value_plan(t: TablePlan) -> dict[int, tuple]:
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
                    and (cc.field.kind == "seq" and re.fullmatch(r"[us][1248](le|be)?|b\d+", cc.field.type)
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
    with the record-by-record filler (see :func:`_computed_columns`)."""
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


def _computed_columns(plan: dict[int, tuple], vals: list, st: list, en: list) -> set[int]:
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
        out = [x if type(x) is int else (bool(x) if isinstance(x, (bool, np.bool_)) else x)
               for x in (res.tolist() if isinstance(res, np.ndarray) else [res] * len(vals[j]))]
        if any(type(x) not in (int, bool) for x in out):
            failed.add(j)
            continue
        vals[j][:] = out
        arrays[j] = np.array(out, dtype=object)
        if span is not None:
            st[j][:] = st[span]
            en[j][:] = en[span]
    return failed


def _row_filler(t: TablePlan, skip: frozenset = frozenset()) -> Callable:
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
    lines = ["def fill(recs, base, V, S, E):", "    _Enum = Enum; _KS = KaitaiStruct; _bc = base.cache.get; _sub = base.sub"]
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
            if c.span_from is not None:
                lines.append(f"{body}q = q if q is not None else d{g}.get({'_m_' + c.span_from!r})")
            if idx is not None and c.span_from is None:
                lines += [f"{body}q = q.get('arr') if q is not None else None",
                          f"{body}q = q[{int(idx)}] if q and {int(idx)} < len(q) else None"]
            if path and path[-1][1] is None:  # a field of a field: its stream starts where the parent read it
                pexpr = "r"
                for a, ix in path[:-1]:
                    pexpr = _attr(pexpr, a) + ("" if ix is None else f"[{int(ix)}]")
                resolve = f"_sub(h{g}, {pexpr}, {path[-1][0]!r})"
            else:
                resolve = f"base(h{g})"
            lines += [f"{body}if q is not None and 'end' in q and 'start' in q:",
                      f"{body}    if b{g} is None:", f"{body}        b{g} = _bc(id(h{g}._io))",
                      f"{body}        if b{g} is None:", f"{body}            b{g} = {resolve}",
                      f"{body}    s{j}[i] = b{g} + q['start']; e{j}[i] = b{g} + q['end']"]
    if not cols:
        lines.append("        pass")
    scope: dict[str, Any] = {"Enum": enum.Enum, "KaitaiStruct": KaitaiStruct}
    exec(compile("\n".join(lines), f"<animre flattener: {t.name}>", "exec"), scope)  # noqa: S102 - see docstring
    cache[skip] = scope["fill"]
    return cache[skip]
