"""What a computed column is computed from: the spec's value instances, enum names and the plugins' derived columns.

:func:`relations` never takes a computed column as evidence about a column it
is computed from (it would only restate its own definition);
:func:`computed_from` tells, per table, which columns each computed column
reads: a value instance the names of its ``value`` expression, an enum name
its integer, a plugin's derived column what :attr:`animre.formats.base.Derived.reads`
declares (:func:`derived_reads`, followed through other derived columns),
and a researcher's own columns what ``computed=`` says.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..formats import all_formats
from ..spec.expr import expr_columns

__all__ = ["computed_from", "derived_reads", "column_rank"]

_ENUM_LITERAL = re.compile(r"\b\w+(?:::\w+)+")
_METHODS = {"size", "first", "last", "length", "to_i", "to_s", "min", "max", "reverse", "as", "_io", "pos",
            "eof", "_sizeof"}


def derived_reads(formats: Any = None) -> dict[tuple[str, str], set[tuple[str, str]]]:
    """Every derived column ``(table, column)`` -> every ``(table, column)`` it is computed from.

    Through other derived columns too (``num_image_frames`` reads
    ``flc_frames.is_ring``, which reads ``header.num_frames``): what each
    format module declares in :attr:`animre.formats.base.Derived.reads`. ``formats``: the formats a corpus reads
    with (``corpus.formats``: shipped and yours); default the shipped ones.

    Examples
    --------
    >>> ("flc_files", "header.num_frames") in derived_reads()[("flc_files", "num_image_frames")]
    True
    """
    direct = {(d.table, d.column): set(d.reads) for f in (formats or all_formats()).values() for d in f.derived}
    out: dict[tuple[str, str], set[tuple[str, str]]] = {}

    def walk(k: tuple[str, str], seen: frozenset) -> set:
        if k in out:
            return out[k]
        acc = set(direct.get(k, ()))
        for r in list(acc):
            if r in direct and r not in seen:
                acc |= walk(r, seen | {r})
        out[k] = acc
        return acc

    for k in direct:
        walk(k, frozenset({k}))
    return out


def _expr_reads(expr: str, column: str, names: set[str]) -> set[str]:
    """Columns of ``names`` that the value expression of ``column`` reads (paths relative to its record)."""
    prefix = column.rsplit(".", 1)[0].split(".") if "." in column else []
    out: set[str] = set()
    for path in expr_columns(_ENUM_LITERAL.sub(" ", expr)):
        parts = path.split(".")
        base = list(prefix)
        while parts and parts[0] in ("_parent", "_root"):
            base = [] if parts.pop(0) == "_root" else base[:-1]
        while parts and parts[-1] in _METHODS:
            parts.pop()
        for n in range(len(parts), 0, -1):  # the longest prefix of the path that is a column (or a struct)
            name = ".".join(base + parts[:n])
            hit = {name} if name in names else {c for c in names if c.startswith(name + ".") or
                                               c.startswith(name + "[")}
            if hit:
                out |= hit
                break
    return out


def computed_from(corpus: Any, table: str | None, columns: Iterable[str],
                  computed: Mapping[str, Iterable[str]] | None = None) -> dict[str, set[str]]:
    """Column -> the columns it is computed from (transitively), for every computed column: columns of the same
    table by name, another table's as ``"table:column"`` (two columns computed from a common one, here or
    there, restate one rule).

    Parameters
    ----------
    corpus : Corpus or None
        Where the spec's value instances, enum names and the plugins' derived
        columns are known; None: only ``computed``.
    table : str or None
        The table's name in the corpus.
    columns : iterable of str
        The columns of the table.
    computed : mapping, optional
        A researcher's own computed columns: ``{column: [columns it reads]}``.

    Examples
    --------
    >>> {k: sorted(v) for k, v in computed_from(None, None, ["a", "b", "c"], {"b": ["a"], "c": ["b"]}).items()}
    {'b': ['a'], 'c': ['a', 'b']}
    >>> sorted(computed_from(c, "flc_files", c.tables["flc_files"].columns)["duration_ms"])
    ['header.magic', 'header.speed']
    """
    names = {str(c) for c in columns}
    direct: dict[str, set[str]] = {}
    if corpus is not None and table is not None and hasattr(corpus, "schema"):
        schema = corpus.schema
        rows = schema[schema["table"] == table]
        for fmt in dict.fromkeys(rows["spec"].dropna()):
            try:
                plan = corpus.plan(fmt)
            except Exception:  # noqa: BLE001 - a format without a plan says nothing about what it reads
                continue
            tp = plan.tables.get(table)
            for col in (tp.columns if tp is not None else []):
                if col.name not in names:
                    continue
                if col.role == "enum_name":
                    direct[col.name] = {c.name for c in tp.columns if c.field is col.field and c.role == "value"}
                elif col.field.kind == "value" and col.field.value_expr:
                    direct[col.name] = _expr_reads(col.field.value_expr, col.name, names) - {col.name}
        for (t, c), reads in derived_reads(getattr(corpus, "formats", None)).items():
            if t == table and c in names:  # another table's column as "table:column"
                direct[c] = {rc if rt == table else f"{rt}:{rc}" for rt, rc in reads} - {c}
    for c, reads in (computed or {}).items():
        direct[str(c)] = direct.get(str(c), set()) | {str(r) for r in reads}
    out: dict[str, set[str]] = {}
    for c in direct:
        acc, todo = set(), list(direct[c])
        while todo:
            r = todo.pop()
            if r in acc or r == c:
                continue
            acc.add(r)
            todo += direct.get(r, ())
        out[c] = acc
    return out


def column_rank(corpus: Any, table: str | None, computed: Mapping[str, Any]) -> dict[str, int]:
    """How a column names its class: 0 a spec field read from the file, 1 a value instance, 2 an enum name,
    4 a plugin's derived column or one of ``computed`` (built-ins such as ``file_size`` 3, bits of a field 3.5:
    see ``relations``).

    Examples
    --------
    >>> column_rank(c, "flc_files", {})["duration_ms"], column_rank(c, "flc_files", {})["num_image_frames"]
    (1, 4)
    """
    out: dict[str, int] = {}
    if corpus is not None and table is not None and hasattr(corpus, "schema"):
        s = corpus.schema
        rank = {"read": 0, "pos": 0, "key": 0, "value": 1, "value (bits)": 1, "enum name": 2, "list": 0,
                "derived": 4}
        for c, k in zip(s.loc[s["table"] == table, "column"], s.loc[s["table"] == table, "kind"]):
            out[str(c)] = rank.get(str(k), 0)
    for c in computed:
        out[str(c)] = 4
    return out
