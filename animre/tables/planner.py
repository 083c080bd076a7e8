"""Build the table plan of a spec: walk its types from the root and decide tables, keys and columns.

The rules are those of :mod:`animre.tables.plan`. A construct the planner
cannot tabulate in a spec without ``-animre-*`` keys (two fields making one
table or column name, a type that holds itself) is noted once in
``Plan.notes`` and the rest of the tables is still built; in an annotated
spec the same is a :class:`~animre.base.errors.SpecError`.
"""

from __future__ import annotations

import functools
from pathlib import Path

from ..base.errors import SpecError
from ..spec.compiler import KSY_DIR
from ..spec.expr import record_filter
from ..spec.model import FieldDef, SpecModel, TypeDef, load_model
from .plan import EXTENT, Column, Plan, TablePlan, steps_path

__all__ = ["plan_for"]

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
                self.skipped.append(".".join(x for x in (table.path, steps_path(steps), f.id) if x))
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
                where = record_filter(str(f.opts["where"]), f"{self.m.id}.ksy: {owner}.{f.id}")
            base_path = ".".join(x for x in (table.path, steps_path(steps)) if x)
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
    return _Planner(load_model(text, ksy_dir, imports)).plan()


def plan_for(text: str, ksy_dir: str | Path | None = None, imports: dict[str, str] | None = None) -> Plan:
    """The tables a spec (YAML text) yields; ``imports``: ``{id: text}`` of the specs it imports.

    Examples
    --------
    >>> p = plan_for(open("ksy/frm.ksy").read())
    >>> list(p.tables)[0]
    'frm'
    """
    if ksy_dir is None:
        ksy_dir = KSY_DIR
    return _plan_cached(text, str(ksy_dir), tuple(sorted((imports or {}).items())))
