"""What a format module provides: detection, derived columns and the notes' claims.

Tables come from the spec (:mod:`animre.flatten`); a format module only says
what a spec cannot: how to recognise a file, columns computed from several
fields (:class:`Derived`), and the notes' statements as executable
:class:`Claim` objects. Both declare the spec columns they read, so that a
renamed or removed field makes them "not testable" instead of silently
computing from nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from ..base.errors import AnimreError
from ..spec.expr import FILE_SIZE, compile_row_expr
from ._rowref import Absent, RowResolver, format_of_table, resolvable

__all__ = ["Format", "Claim", "Derived", "derived", "column_claim", "row_claim", "file_claim", "expr_claim",
           "not_testable", "not_in_spec", "file_keys", "CLAIM_COLUMNS"]


Read = tuple[str, str]  # (table, column) a derived column or a claim reads


def _reads(table: str, reads: Iterable[str | Read]) -> tuple[Read, ...]:
    return tuple(r if isinstance(r, tuple) else (table, r) for r in reads)


@dataclass(frozen=True)
class Derived:
    """A column computed from spec columns, for the whole corpus at once.

    ``fn(df, ctx)`` gets the assembled table ``table`` and a context with
    ``ctx.table(name)`` (any other table), ``ctx.files``,
    ``ctx.starts(table, column)`` / ``ctx.ends`` (absolute offsets, Int64),
    ``ctx.file_sizes(df)`` (each row's file size) and
    ``ctx.lookup(df, table, column)`` (a parent's value for every row, matched
    on the shared key columns) and ``ctx.shared(key, fn)`` (one computation
    shared by several columns), and returns values aligned with ``df``. ``reads`` lists every ``(table, column)`` it
    uses; when one is not in the loaded spec the column is not computed and
    the corpus reports why (``corpus.unavailable``).
    """

    table: str
    column: str
    reads: tuple[Read, ...]
    fn: Callable[[pd.DataFrame, Any], Any]
    doc: str = ""


def file_keys(df: pd.DataFrame) -> list[str]:
    """The columns naming a table row's file: ``file`` and, for containers, ``block``.

    Examples
    --------
    >>> file_keys(pd.DataFrame(columns=["file", "block", "state"]))
    ['file', 'block']
    """
    return [c for c in ("file", "block") if c in df.columns]


def derived(table: str, column: str, reads: Iterable[str | Read], doc: str = ""):
    """Decorator: declare ``fn(df, ctx)`` as the derived column ``table.column``.

    ``reads``: columns of ``table`` (strings) or ``(other_table, column)`` pairs.

    Examples
    --------
    >>> @derived("frm", "idle_weight_sum", ["num_idles", "idle_weights[0]"], "Sum of the used weights.")
    ... def _sum(df, ctx):
    ...     return df["idle_weights[0]"]
    >>> _sum.reads
    (('frm', 'num_idles'), ('frm', 'idle_weights[0]'))
    """
    def wrap(fn) -> Derived:
        return Derived(table, column, _reads(table, reads), fn, doc or (fn.__doc__ or "").strip())
    return wrap


@dataclass(frozen=True)
class Format:
    """A file format animre knows.

    Attributes
    ----------
    name : str
        The format's one id: its spec is ``ksy/<name>.ksy``, its tables are
        ``<name>`` and ``<name>_*``, its samples ``data/samples/<name>/``.
    title : str
        Human name.
    extensions : tuple of str
        Lower-case file name suffixes (``.bin``) that suggest the format.
    detect : callable(head: bytes, size: int, name: str) -> float, optional
        A detection refinement: confidence 0..1 that a file is of this format,
        from its first 4 KiB, size and name. Without it the spec decides
        (its magic, constants and extensions: :mod:`animre.signature`); with
        it, a file whose bytes contradict the spec's magic is still never
        given to the format.
    derived : tuple of Derived
        Columns computed from several spec columns.
    claims : tuple of Claim
        The notes' statements as executable checks.
    locate : callable(data: bytes) -> int, optional
        Offset of the parsed block inside a container (PAS4 inside ANCS).
    next_block : callable(data: bytes, start: int) -> int, optional
        For containers holding several blocks: offset of the next block at or
        after ``start`` (the end of the previous one), or -1. Tables then get
        a ``block`` key column.
    block_info : callable(data: bytes, offset: int) -> dict, optional
        Extra columns for the block at ``offset`` (PAS4: the ``character``
        an ANCS block belongs to and how the block was ``located_by``); every
        block of the format returns the same keys.
    picture : callable or "module:function", optional
        A picture of the format's files for the report and the players:
        ``fn(corpus, files) -> list of (caption, PNG bytes or matplotlib Figure)``.
    source, parser, plugin
        Set by the registry: the spec the format reads with, a parser module
        replacing the spec's compiled one, the plugin module's name.
    """

    name: str
    title: str = ""
    extensions: tuple[str, ...] = ()
    detect: Callable[[bytes, int, str], float] | None = None
    derived: tuple[Derived, ...] = ()
    claims: tuple[Claim, ...] = ()
    locate: Callable[[bytes], int] | None = None
    next_block: Callable[[bytes, int], int] | None = None
    block_info: Callable[[bytes, int], dict] | None = None
    picture: Callable[..., Any] | str | None = None
    source: Any = None  # the spec (:class:`animre.spec.source.SpecSource`), set when the format is registered
    parser: Any = None  # a parser module replacing the spec's own (an edited spec compiled on the fly)
    plugin: str = ""  # the module that declared the format ("" for a spec without a plugin)

    def __post_init__(self) -> None:
        # a claim belongs to the format that lists it: say so once, here
        object.__setattr__(self, "claims", tuple(c if c.format else replace(c, format=self.name)
                                                 for c in self.claims))

    @property
    def spec(self) -> str:
        """The spec id (the same as the format's name)."""
        return self.name


CLAIM_COLUMNS = ["file", "holds", "offset", "value", "detail", "expected"]


@dataclass(frozen=True)
class Claim:
    """A statement from a format note, as an executable check over a corpus.

    ``check(corpus)`` returns one row per tested item (a file or a record)
    with columns ``file, holds, offset, value, detail`` and optionally
    ``expected``; ``offset`` is the absolute byte offset of the tested value
    (NA only when the value is not read from one place in the file),
    ``value`` what was found, ``expected`` what the claim expects there
    (default: :attr:`expected`). ``source`` names the public source the
    claim comes from, in words (a community note, an engine's reader).
    """

    text: str
    source: str
    check: Callable[[Any], Any]
    format: str = ""
    reads: tuple[Read, ...] = ()
    expected: str = ""


def not_in_spec(missing: list[str]) -> str:
    """The "not testable" message for fields the loaded spec lacks."""
    if len(missing) == 1:
        return f"not testable: field {missing[0]} is not in the spec"
    return f"not testable: fields {', '.join(missing)} are not in the spec"


def not_testable(corpus: Any, reads: Iterable[Read]) -> list[str]:
    """The ``table.column`` names among ``reads`` that the corpus's specs do not have.

    A read that is no column may name an element of a child table (``frames[3].x``) or an array
    (:func:`animre.formats._rowref.resolvable`).
    """
    return [f"{t}.{c}" for t, c in reads if not corpus.has_column(t, c) and not resolvable(corpus, t, c)]


def column_claim(text: str, source: str, table: str, column: str,
                 predicate: Callable[[Any], bool], detail: str = "", expected: str = "") -> Claim:
    """A claim that every value of ``table.column`` satisfies ``predicate``.

    Offsets come from the corpus spans, so a counterexample points at its bytes;
    ``expected`` says what the claim expects (``"== 0x01"``).

    Examples
    --------
    >>> column_claim("exec window is always 10", "One Must Fall 2097 community format notes",
    ...              "af_fighters", "exec_window", lambda v: v == 10).reads
    (('af_fighters', 'exec_window'),)
    """
    def check(corpus):
        df = corpus.tables.get(table)
        if df is None or column not in df:
            return pd.DataFrame(columns=CLAIM_COLUMNS)
        out = pd.DataFrame({
            "file": df["file"],
            "holds": [bool(predicate(v)) for v in df[column]],
            "offset": corpus.offsets(table, column, df.index),
            "value": df[column],
            "detail": detail,
            "expected": expected,
        })
        return out

    return Claim(text, source, check, reads=((table, column),), expected=expected)


def row_claim(text: str, source: str, table: str, predicate: Callable[[pd.Series], bool], *,
              where: Callable[[pd.Series], bool] | None = None, offset_column: str | None = None,
              offset: int | None = None, value: Callable[[pd.Series], Any] | str | None = None,
              detail: Callable[[pd.Series], str] | str = "", format: str = "", reads: Iterable[str | Read] = (),
              expected: Callable[[pd.Series], Any] | str = "") -> Claim:
    """A claim that ``predicate(row)`` holds for every row of ``table`` (where ``where(row)``).

    ``reads``: every column the predicate, ``where`` and ``value`` use (the
    offset and value columns are added); a column missing from the spec makes
    the claim "not testable".

    ``offset`` of each tested row: the span start of ``offset_column`` (from
    ``corpus.spans``) or the fixed absolute ``offset``; ``value``: a column
    name or a function of the row (default: the offset column's value);
    ``detail`` and ``expected``: text, or a function of the row.

    Examples
    --------
    >>> row_claim("slot 6 is empty", "HoMM2 community notes on monster .bin files", "frm_slots",
    ...           lambda r: r["num_frames_raw"] == 0, where=lambda r: r["slot"] == 6,
    ...           offset_column="num_frames_raw").text
    'slot 6 is empty'
    """

    def check(corpus):
        df = corpus.tables.get(table)
        if df is None or not len(df):
            return pd.DataFrame(columns=CLAIM_COLUMNS)
        sel = df if where is None else df[[bool(where(r)) for _, r in df.iterrows()]]
        if offset_column is not None:
            offs = corpus.offsets(table, offset_column, sel.index)
        else:
            offs = pd.Series(pd.NA if offset is None else offset, index=sel.index, dtype="Int64")
        if callable(value):
            vals = [value(r) for _, r in sel.iterrows()]
        else:
            col = value if isinstance(value, str) else offset_column
            vals = list(sel[col]) if col is not None and col in sel else [None] * len(sel)
        return pd.DataFrame({
            "file": sel["file"].tolist(),
            "holds": [bool(predicate(r)) for _, r in sel.iterrows()],
            "offset": offs.tolist(),
            "value": vals,
            "detail": [detail(r) for _, r in sel.iterrows()] if callable(detail) else detail,
            "expected": [expected(r) for _, r in sel.iterrows()] if callable(expected) else expected,
        }, columns=CLAIM_COLUMNS)

    used = list(reads) + [c for c in (offset_column, value if isinstance(value, str) else None) if c]
    return Claim(text, source, check, format, _reads(table, dict.fromkeys(used)),
                 expected="" if callable(expected) else expected)


def file_claim(text: str, source: str, format: str, predicate: Callable[[pd.Series], bool], *,
               offset: int | Callable[[pd.Series], int] | None = None, value: str = "size",
               detail: str = "", expected: str = "") -> Claim:
    """A claim over the ``files`` table (file, format, size, sha256, ok) of one format.

    Files that failed to parse are tested too (a size claim is about them as well).

    Examples
    --------
    >>> file_claim("FRM files are 821 bytes", "fheroes2 engine source", "frm",
    ...            lambda r: r["size"] == 821).text
    'FRM files are 821 bytes'
    """

    def check(corpus):
        ft = corpus.files
        sel = ft[ft["format"] == format]
        offs = [offset(r) if callable(offset) else offset for _, r in sel.iterrows()]
        return pd.DataFrame({
            "file": sel["file"].tolist(),
            "holds": [bool(predicate(r)) for _, r in sel.iterrows()],
            "offset": pd.array(offs, dtype="Int64"),
            "value": sel[value].tolist(),
            "detail": detail,
            "expected": expected,
        }, columns=CLAIM_COLUMNS)

    return Claim(text, source, check, format, expected=expected)


# ------------------------------------------------------------------ claims written as Kaitai expressions

def expr_claim(text: str, source: str, table: str, expr: str, *, where: str | None = None, format: str = "",
               expected: str | None = None, detail: str = "",
               enums: Mapping[str, Mapping[str, int]] | None = None) -> Claim:
    """A claim that the Kaitai expression ``expr`` holds in every row of ``table`` (where ``where`` holds).

    The expression speaks the spec's language over the row and its arrays
    (:mod:`animre.formats._rowref`): columns (``header.width``), elements of a
    child table of the same file (``frames[num_frames].ofs_data``),
    ``.first``/``.last``/``.size``, bytes of a byte field (``data[data.size -
    1]``, ``data.last == 0x80``) and ``_file_size``; no value instance is
    needed. A counterexample names the file, the byte offset of the first
    field the expression reads, ``expected`` (default: the expression itself),
    ``detail`` and the value read (``a=1, b=2`` when it reads several); rows
    where a value the expression reads is missing (or an index past the end)
    are not tested. ``enums`` (enum id -> {member: value}) give
    ``enum::member`` its value.

    Examples
    --------
    >>> expr_claim("walk speed is a multiple of 50", "mine", "frm", "walk_speed % 50 == 0").reads
    (('frm', 'walk_speed'),)
    """
    fn, refs = compile_row_expr(expr, f"claim {text!r}", enums)
    exp = expr if expected is None else expected
    wfn, wrefs = compile_row_expr(where, f"claim {text!r} (where)", enums) if where else (None, [])
    texts = {r.text for r in refs}

    def check(corpus):
        df = corpus.tables.get(table)
        if df is None or not len(df):
            return pd.DataFrame(columns=CLAIM_COLUMNS)
        fmt = format or format_of_table(corpus, table)
        ask, test = RowResolver(corpus, table, format=fmt), RowResolver(corpus, table, format=fmt)
        holds, keep, found, firsts = [], [], [], []
        for i in range(len(df)):
            if wfn is not None and not _row_holds(wfn, test.at(i)):
                continue
            try:
                ok = _safe(fn, ask.at(i))
            except Absent:
                continue
            holds.append(ok)
            keep.append(i)
            vals = {r.text: ask.values[k] for k, r in enumerate(refs) if k in ask.values}
            found.append(next(iter(vals.values())) if len(texts) == 1 and vals else
                         ", ".join(f"{t}={v}" for t, v in vals.items()))
            firsts.append(ask.first)
        offs = _offsets(corpus, firsts)
        return pd.DataFrame({"file": df["file"].to_numpy()[keep] if len(keep) else [],
                             "holds": holds, "offset": pd.array(offs, dtype="Int64"), "value": found,
                             "detail": detail, "expected": exp}, columns=CLAIM_COLUMNS)

    reads = [r.column for r in refs + wrefs if r.column is not None and r.column != FILE_SIZE]
    return Claim(text, source, check, format, _reads(table, dict.fromkeys(reads)), expected=exp)


def _row_holds(fn: Callable[[Any], Any], r: RowResolver) -> bool:
    try:
        return _safe(fn, r)
    except Absent:
        return False


def _offsets(corpus: Any, firsts: list) -> list:
    """The absolute offsets of the first cells expressions read ((table, row position, column) or None each):
    one look-up per table and column, not per row."""
    out: list = [pd.NA] * len(firsts)
    groups: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for j, first in enumerate(firsts):
        if first is not None:
            groups.setdefault((first[0], first[2]), []).append((j, first[1]))
    for (table, column), items in groups.items():
        idx = corpus.tables[table].index[[i for _, i in items]]
        for (j, _), v in zip(items, corpus.offsets(table, column, idx).tolist(), strict=True):
            out[j] = v
    return out


def _safe(fn: Callable[[Any], Any], arg: Any) -> bool:
    """``bool(fn(arg))``; False when the values do not combine (``None + 1``, a division by zero)."""
    try:
        return bool(fn(arg))
    except AnimreError:
        raise  # a reference that names nothing, an array used as a value: the claim's error, not a row's
    except (TypeError, ValueError, ArithmeticError):
        return False
