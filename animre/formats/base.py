"""What a format module provides, and how curated table rows point at bytes."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from kaitaistruct import KaitaiStruct

from ..parse import Bases

__all__ = ["Format", "F", "Ref", "Claim", "column_claim", "row_claim", "file_claim", "resolve_rows"]


@dataclass(frozen=True)
class Ref:
    """A value in a parsed object, to be resolved to (value, start, end)."""

    obj: Any
    name: str
    index: int | None = None
    transform: Callable[[Any], Any] | None = None


def F(obj: Any, name: str, index: int | None = None, transform: Callable[[Any], Any] | None = None) -> Ref:
    """Refer to ``obj.name`` (or ``obj.name[index]``) in a curated table row.

    The corpus resolves the reference to the plain value (enums become their
    integer) and records the field's absolute byte range, so every cell of a
    curated table can be traced back to its bytes.

    Examples
    --------
    >>> rows.append({"slot": 3, "frame_id": F(seq, "frame_ids", 2)})  # doctest: +SKIP
    """
    return Ref(obj, name, index, transform)


_SIMPLE = (int, float, str, bool, type(None))


def _plain(v: Any) -> Any:
    if v.__class__ in _SIMPLE:
        return v
    if isinstance(v, enum.Enum):
        return v.value
    if isinstance(v, bytes):
        return bytes(v)
    return v


def resolve_rows(rows: list[dict], bases: Bases) -> tuple[list[dict], list[dict], list[dict]]:
    """Resolve :class:`Ref` cells: (plain rows, start offsets, end offsets).

    Computed cells (plain values) get no offsets; a reference gets the
    absolute ``[start, end)`` of the field it names.
    """
    out, starts, ends = [], [], []
    for row in rows:
        r, s, e = {}, {}, {}
        for k, v in row.items():
            if v.__class__ is not Ref:
                r[k] = _plain(v)
                continue
            obj, name = v.obj, v.name
            val = getattr(obj, name, _MISSING)
            if val is _MISSING:
                # an edited spec (animre.compile_spec) may rename or drop a field:
                # the cell becomes missing instead of failing the file
                r[k] = s[k] = e[k] = None
                continue
            if v.index is not None:
                val = val[v.index]
            val = _plain(val)
            if v.transform is not None:
                val = v.transform(val)
            r[k] = val
            s[k], e[k] = bases.span(obj, name, v.index)
        out.append(r)
        starts.append(s)
        ends.append(e)
    return out, starts, ends


_MISSING = object()


@dataclass(frozen=True)
class Format:
    """A file format animre knows.

    Attributes
    ----------
    name : str
        Short name used in tables (``frm``, ``af``, ``bk``, ``mot``, ``pas4``, ``flc``).
    spec : str
        The ksy id whose compiled parser reads it.
    title : str
        Human name.
    extensions : tuple of str
        Lower-case file name suffixes (``.bin``) that suggest the format.
    detect : callable(head: bytes, size: int, name: str) -> float
        Confidence 0..1 that a file is of this format, from its first 4 KiB,
        size and name. Content decides; the name only breaks ties.
    tables : callable(parsed, ctx) -> dict[str, list[dict]]
        Curated table rows (cells may be :func:`F` references).
    table_keys : dict
        Key columns of each curated table (after ``file``).
    locate : callable(data: bytes) -> int, optional
        Offset of the parsed block inside a container (PAS4 inside ANCS).
    next_block : callable(data: bytes, start: int) -> int, optional
        For containers holding several blocks: offset of the next block at or
        after ``start`` (the end of the previous one), or -1. Curated tables
        then get a ``block`` key column.
    """

    name: str
    spec: str
    title: str
    extensions: tuple[str, ...]
    detect: Callable[[bytes, int, str], float]
    tables: Callable[[KaitaiStruct, Any], dict[str, list[dict]]]
    table_keys: dict[str, tuple[str, ...]] = field(default_factory=dict)
    locate: Callable[[bytes], int] | None = None
    claims: tuple[Claim, ...] = ()
    next_block: Callable[[bytes, int], int] | None = None


CLAIM_COLUMNS = ["file", "holds", "offset", "value", "detail"]


@dataclass(frozen=True)
class Claim:
    """A statement from a format note, as an executable check over a corpus.

    ``check(corpus)`` returns one row per tested item (a file or a record)
    with columns ``file, holds, offset, value, detail``; ``offset`` is the
    absolute byte offset of the tested value (or NA), ``value`` what was found.
    """

    text: str
    source: str
    check: Callable[[Any], Any]
    format: str = ""


def column_claim(text: str, source: str, table: str, column: str,
                 predicate: Callable[[Any], bool], detail: str = "") -> Claim:
    """A claim that every value of ``table.column`` satisfies ``predicate``.

    Offsets come from the corpus spans, so a counterexample points at its bytes.

    Examples
    --------
    >>> column_claim("exec window is always 10", "seeds/000_6ee84fe160122c13.txt",
    ...              "af_fighters", "exec_window", lambda v: v == 10)  # doctest: +SKIP
    """
    import pandas as pd

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
        })
        return out

    return Claim(text, source, check)


def row_claim(text: str, source: str, table: str, predicate: Callable[[pd.Series], bool], *,
              where: Callable[[pd.Series], bool] | None = None, offset_column: str | None = None,
              offset: int | None = None, value: Callable[[pd.Series], Any] | str | None = None,
              detail: str = "", format: str = "") -> Claim:
    """A claim that ``predicate(row)`` holds for every row of ``table`` (where ``where(row)``).

    ``offset`` of each tested row: the span start of ``offset_column`` (from
    ``corpus.spans``) or the fixed absolute ``offset``; ``value``: a column
    name or a function of the row (default: the offset column's value).

    Examples
    --------
    >>> row_claim("slot 6 is empty", "seeds/001_0340b32678dbfebf.txt", "frm_slots",
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
            "detail": detail,
        }, columns=CLAIM_COLUMNS)

    return Claim(text, source, check, format)


def file_claim(text: str, source: str, format: str, predicate: Callable[[pd.Series], bool], *,
               offset: int | Callable[[pd.Series], int] | None = None, value: str = "size",
               detail: str = "") -> Claim:
    """A claim over the ``files`` table (file, format, size, sha256, ok) of one format.

    Files that failed to parse are tested too (a size claim is about them as well).

    Examples
    --------
    >>> file_claim("FRM files are 821 bytes", "formats/NOTES.md §2", "frm",
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
        }, columns=CLAIM_COLUMNS)

    return Claim(text, source, check, format)
