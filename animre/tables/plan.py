"""A table plan: which tables a spec yields, their keys and columns, and where each cell's field sits.

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

Without any ``-animre-*`` key in a spec (a spec from the public gallery, a
researcher's first spec) the default rule applies: the root type is the
table ``<id>``, every repeated field at any depth a table
``<parent table>_<field path>`` keyed by its parents' keys and
``<field>_index``, nested types dotted columns. :mod:`animre.tables.planner`
builds plans; this module holds what a plan is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..spec.model import FieldDef

__all__ = ["EXTENT", "COLUMN_INFO", "Column", "TablePlan", "Plan", "steps_path"]

EXTENT = "~"  #: prefix of the span-only entries of skipped fields in a table's offsets (``~body.data``)

COLUMN_INFO = ["table", "column", "kind", "type", "enum", "doc", "field", "spec", "is_id", "path", "magic"]


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
        steps = steps_path(c.steps)
        if t.primitive is not None:
            return t.path
        return f"{t.path}.{steps}" if t.path else steps


def steps_path(steps: tuple) -> str:
    """Accessor steps as a field path: ``(("footer", None), ("ids", 2))`` -> ``footer.ids[2]``."""
    return ".".join(a + ("" if i is None else f"[{i}]") for a, i in steps)
