"""What a claim's expression names in a table row: columns, nested fields, arrays and their elements.

A claim written in the spec's expression language (``-animre-claims``,
:func:`animre.check`) is evaluated row by row of one table;
:func:`animre.spec.expr.compile_row_expr` turns its references into calls of
a :class:`RowResolver`, which answers them from the corpus tables the way the
spec reads the file:

- a column of the row (``header.width``, ``idle_weights[2]``; a nested
  struct is a prefix of column paths: ``header`` then ``.width``);
- an array that is a table of its own (``frames`` of a file is the child table
  whose rows are its elements): ``frames[k]`` is the element at position
  ``k`` (the child table's key), ``frames.first`` / ``.last`` the first and
  last element, ``frames.size`` the number of elements the table holds for
  this record (with ``-animre-where``, those it keeps); an element's fields are
  the child table's columns (``frames[num_frames].ofs_data``); the element of
  an array of values is the value;
- a byte field, a list or a string: ``data[k]``, ``data[a:b]``, ``.first``,
  ``.last``, ``.size`` (``.length`` of a string), ``.min``, ``.max``;
- arrays spread into columns (``idle_weights[0]`` ... ``[4]``): ``.size``,
  ``.first``, ``.last`` and ``[k]``;
- ``_file_size`` and ``_io.size``: the size of the row's file.

A value the row does not hold (a missing cell, an index past the end) makes
the row "not tested" (:class:`Absent`); a name the table cannot hold at all
is :class:`NotInSpec` (the claim is then "not testable").

Examples
--------
>>> import pandas as pd
>>> from animre.spec.expr import compile_row_expr
>>> class C:
...     tables = {"t": pd.DataFrame({"file": ["a"], "n": [1]}),
...               "t_items": pd.DataFrame({"file": ["a", "a"], "item": [0, 1], "x": [5, 7]})}
...     files = pd.DataFrame({"file": ["a"], "size": [10]})
>>> r = RowResolver(C(), "t", children={"items": ("t_items", "item", ["file"], None)})
>>> fn, refs = compile_row_expr("items[n].x + items.size == _file_size - 1")
>>> fn(r.at(0)), sorted(r.values.items())
(True, [(0, 7), (1, 1), (2, 2), (3, 10)])
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..base.errors import UsageError
from ..spec.expr import ARRAY_PROPERTIES, FILE_SIZE

__all__ = ["RowResolver", "Absent", "NotInSpec", "children_of", "resolvable", "format_of_table"]


class Absent(Exception):
    """A value this row does not hold (a missing cell, an index past the end): the row is not tested."""


class NotInSpec(UsageError):
    """A reference that names no column, nested field or array of the table."""

    def __init__(self, table: str, path: str):
        self.table, self.path = table, path
        super().__init__(f"{table}.{path} is neither a column, a nested field nor an array of {table}")


class _Prefix:
    """A nested struct or a spread array: a prefix of column paths of one row."""

    def __init__(self, scope: _Scope, i: int, path: str):
        self.scope, self.i, self.path = scope, i, path


class _Array:
    """The elements of a child table that belong to one record: (position, row number) in file order."""

    def __init__(self, scope: _Scope, rows: list[tuple[Any, int]], path: str, value: str | None):
        self.scope, self.rows, self.path, self.value = scope, rows, path, value


class _Element:
    """One element of a child table (a row of it)."""

    def __init__(self, scope: _Scope, i: int, path: str):
        self.scope, self.i, self.path = scope, i, path


class _Io:
    """The file's stream (``_io``): only its size is known."""

    path = "_io"


def children_of(corpus: Any, format: str | None, table: str) -> dict[str, tuple[str, str, list[str], str | None]]:
    """The arrays of a table that are tables of their own: array path -> (child table, its position column,
    the keys it shares with ``table``, the column holding its values when they are plain values).

    Examples
    --------
    >>> children_of(c, "frm", "frm")["num_frames_raw"]
    ('frm_frame_counts', 'slot', ['file'], 'num_frames_raw')
    """
    try:
        plan = corpus.plan(format) if format else None
    except (AttributeError, KeyError, UsageError):
        plan = None
    if plan is None:
        return {}
    keys = corpus.keys(table) if hasattr(corpus, "keys") else ["file"]
    out = {}
    for t in plan.tables.values():
        if t.parent != table or not t.key or t.name not in corpus.tables:
            continue
        path = ".".join(a if i is None else f"{a}[{i}]" for a, i in t.steps)
        value = t.steps[-1][0] if t.primitive is not None and t.steps else None
        out[path] = (t.name, t.key, [k for k in keys if k in corpus.tables[t.name].columns], value)
    return out


class _Scope:
    """One table: its columns, the prefixes of their paths and its child arrays (built once)."""

    def __init__(self, resolver: RowResolver, table: str, children: Mapping[str, tuple]):
        self.resolver, self.table = resolver, table
        self.df = resolver.corpus.tables[table]
        self.columns = set(map(str, self.df.columns))
        self.prefixes = {c[:k] for c in self.columns for k, ch in enumerate(c) if ch in ".[" and k}
        self.children = dict(children)
        self._cells: dict[str, np.ndarray] = {}
        self._groups: dict[str, dict[tuple, list[tuple[Any, int]]]] = {}

    def cell(self, i: int, column: str) -> Any:
        if column not in self._cells:
            self._cells[column] = self.df[column].to_numpy(dtype=object)
        v = self._cells[column][i]
        if v is None or v is pd.NA or (isinstance(v, float) and v != v):
            raise Absent(column)
        self.resolver.read(self.table, i, column)
        return _plain(v)

    def lookup(self, i: int, path: str) -> Any:
        if path in self.prefixes:  # a nested field (that may be a column too: its value when used as one)
            return _Prefix(self, i, path)
        if path in self.columns:
            return self.cell(i, path)
        if path in self.children:
            return self.array(i, path)
        raise NotInSpec(self.table, path)

    def array(self, i: int, path: str) -> _Array:
        child, key, shared, value = self.children[path]
        groups = self._groups.get(path)
        if groups is None:
            df = self.resolver.corpus.tables[child]
            ks = df[shared].to_numpy(dtype=object)
            pos = df[key].to_numpy(dtype=object)
            groups = {}
            for j in range(len(df)):
                groups.setdefault(tuple(_plain(x) for x in ks[j]), []).append((_plain(pos[j]), j))
            self._groups[path] = groups
        mine = tuple(_plain(x) for x in self.df[shared].iloc[i].tolist())
        return _Array(self.resolver.scope(child), groups.get(mine, []), path, value)


class RowResolver:
    """Answers the references of :func:`animre.spec.expr.compile_row_expr` in the rows of one table.

    ``at(i)`` prepares row ``i`` (a position in ``corpus.tables[table]``); the
    compiled function is then called with the resolver. After a call,
    :attr:`values` holds each reference's value (by its number) and
    :attr:`first` the cell the first reference's value was read from (table,
    row position, column): where a counterexample points. ``children`` (array path -> child table, position
    column, shared keys, value column) replaces what the corpus's table plan says.
    """

    def __init__(self, corpus: Any, table: str, *, format: str | None = None,
                 children: Mapping[str, tuple] | None = None):
        self.corpus = corpus
        self.format = format
        self._scopes: dict[str, _Scope] = {}
        self._scopes[table] = _Scope(self, table, children if children is not None else
                                     children_of(corpus, format, table))
        self.root = self._scopes[table]
        self.i = 0
        self.values: dict[int, Any] = {}
        self.cells: dict[int, tuple[str, int, str] | None] = {}  # per reference: the cell its value came from
        self._last: tuple[str, int, str] | None = None
        self._sizes: dict | None = None

    def scope(self, table: str) -> _Scope:
        if table not in self._scopes:
            self._scopes[table] = _Scope(self, table, children_of(self.corpus, self.format, table))
        return self._scopes[table]

    def at(self, i: int) -> RowResolver:
        """Prepare row ``i``: the next call of a compiled expression reads this row."""
        self.i, self.values, self.cells, self._last = i, {}, {}, None
        return self

    @property
    def first(self) -> tuple[str, int, str] | None:
        """Where the first reference's value was read (table, row position, column): the cell its last step
        read (``frames[num_frames].ofs_data``: that element's ``ofs_data``); for a reference that reads no
        cell (``frames.size``), the next one's."""
        return next((self.cells[k] for k in sorted(self.cells) if self.cells[k] is not None), None)

    def read(self, table: str, i: int, column: str) -> None:
        self._last = (table, i, column)

    def file_size(self) -> int:
        if self._sizes is None:
            self._sizes = self.corpus.files.drop_duplicates("file").set_index("file")["size"].to_dict()
        size = self._sizes.get(self.root.df["file"].iloc[self.i])
        if size is None or size != size:
            raise Absent(FILE_SIZE)
        return int(size)

    # -- the calls of a compiled expression ---------------------------------------------------

    def name(self, n: str) -> Any:
        if n == FILE_SIZE:
            return self.file_size()
        if n == "_io":
            return _Io()
        return self.root.lookup(self.i, n)

    def attr(self, v: Any, a: str) -> Any:
        if isinstance(v, _Io):
            if a == "size":
                return self.file_size()
            raise UsageError(f"_io.{a}: only _io.size (the file size) is known")
        if isinstance(v, _Prefix):
            path = f"{v.path}.{a}"
            s = v.scope
            if a not in ARRAY_PROPERTIES or path in s.columns or path in s.children or path in s.prefixes:
                return s.lookup(v.i, path)
            if v.path in s.columns:
                return _property(s.cell(v.i, v.path), a, f"{s.table}.{path}")
            return _property(_spread(v), a, f"{s.table}.{path}")
        if isinstance(v, _Element):
            return v.scope.lookup(v.i, a)
        if isinstance(v, _Array):
            if a not in ARRAY_PROPERTIES:
                raise UsageError(f"{v.path} is an array: name one of its elements ({v.path}[0].{a}, "
                                 f"{v.path}.first.{a})")
            if a in ("size", "length"):
                return len(v.rows)
            if not v.rows:
                raise Absent(v.path)
            if a in ("first", "last"):
                return self._element(v, v.rows[0 if a == "first" else -1][1])
            return _property([self._element(v, j) for _, j in v.rows], a, v.path)
        return _property(v, a, a)

    def item(self, v: Any, k: Any) -> Any:
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
            raise UsageError(f"an index is a whole number, not {k!r}")
        k = int(k)
        if isinstance(v, _Prefix):
            path = f"{v.path}[{k}]"
            if path in v.scope.columns or path in v.scope.prefixes:
                return v.scope.lookup(v.i, path)
            if v.path in v.scope.columns:
                return self.item(v.scope.cell(v.i, v.path), k)
            if any(c.startswith(v.path + "[") for c in v.scope.columns):
                raise Absent(path)  # an index past the spread columns
            raise NotInSpec(v.scope.table, path)
        if isinstance(v, _Array):
            for p, j in v.rows:
                if p == k:
                    return self._element(v, j)
            raise Absent(f"{v.path}[{k}]")
        if isinstance(v, (bytes, bytearray, list, tuple, str)):
            if 0 <= k < len(v):
                return v[k]
            raise Absent(f"[{k}]")
        raise UsageError(f"a {type(v).__name__} value ({v!r}) has no elements")

    def slice(self, v: Any, lo: Any, hi: Any) -> Any:
        v = _as_value(v)
        if not isinstance(v, (bytes, bytearray, list, tuple, str)):
            raise UsageError(f"only byte fields, lists and strings are sliced, not a {type(v).__name__} value")
        return v[lo:hi]

    def ref(self, k: int, v: Any) -> Any:
        v = _as_value(v)
        if isinstance(v, (_Prefix, _Array, _Element, _Io)):
            raise UsageError(f"{v.path} is not a value: name a field of it")
        self.values[k] = v
        self.cells[k], self._last = self._last, None
        return v

    def _element(self, arr: _Array, j: int) -> Any:
        return arr.scope.cell(j, arr.value) if arr.value else _Element(arr.scope, j, arr.path)


def _as_value(v: Any) -> Any:
    """A nested field that is also a column, used as a value: the column's value."""
    if isinstance(v, _Prefix) and v.path in v.scope.columns:
        return v.scope.cell(v.i, v.path)
    return v


def _spread(p: _Prefix) -> list:
    """The values of a spread array (``idle_weights[0]`` ... ``[n]``) of one row, in index order."""
    n = 0
    while f"{p.path}[{n}]" in p.scope.columns:
        n += 1
    if not n:
        raise NotInSpec(p.scope.table, p.path)
    return [p.scope.cell(p.i, f"{p.path}[{k}]") for k in range(n)]


def _property(v: Any, a: str, where: str) -> Any:
    if a not in ARRAY_PROPERTIES or not isinstance(v, (bytes, bytearray, list, tuple, str)):
        raise UsageError(f"{where}: a {type(v).__name__} value has no property {a!r} "
                         f"(arrays, byte fields and strings have {', '.join(ARRAY_PROPERTIES)})")
    if a in ("size", "length"):
        return len(v)
    if not len(v):
        raise Absent(where)
    if a == "first":
        return v[0]
    if a == "last":
        return v[-1]
    return min(v) if a == "min" else max(v)


def _plain(v: Any) -> Any:
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, memoryview):
        return bytes(v)
    return v


_PART = re.compile(r"\[\d+\]|[^.\[\]]+")


def resolvable(corpus: Any, table: str, column: str, *, format: str | None = None) -> bool:
    """True when a plain reference (``header.width``, ``frames[3].x``) names a field ``table`` can hold.

    A field is a value, a nested struct or an array (using one of the latter
    two as a value is the expression's error, said when it is checked).

    Examples
    --------
    >>> resolvable(c, "frm", "walk_speed"), resolvable(c, "frm", "num_frames_raw[3]"), resolvable(c, "frm", "x")
    (True, True, False)
    """
    if table not in getattr(corpus, "tables", {}):
        return False
    r = RowResolver(corpus, table, format=format or format_of_table(corpus, table))
    scope, path = r.root, ""
    parts = _PART.findall(column)
    for n, part in enumerate(parts):
        if part.startswith("[") and path in scope.children:
            child, _, _, value = scope.children[path]
            if value or n == len(parts) - 1:
                return n == len(parts) - 1  # an element: a value, or a record of the child table
            scope, path = r.scope(child), ""
            continue
        if part.startswith("[") and path in scope.columns and path + part not in scope.columns \
                and path + part not in scope.prefixes:
            return n == len(parts) - 1  # an element of a byte field or a list column: a value
        path = path + part if part.startswith("[") else (f"{path}.{part}" if path else part)
        if path not in scope.columns and path not in scope.prefixes and path not in scope.children:
            return False
    return bool(path)


def format_of_table(corpus: Any, table: str) -> str | None:
    """The format whose tables ``table`` is one of (the longest format id it starts with).

    Examples
    --------
    >>> format_of_table(c, "frm_sequences"), format_of_table(c, "nothing")
    ('frm', None)
    """
    ids = [f for f in (getattr(corpus, "formats", {}) or {}) if table == f or table.startswith(f + "_")]
    return max(ids, key=len) if ids else None
