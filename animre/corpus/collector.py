"""Gather the tables of freshly parsed files, column by column, into one DataFrame per table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ..tables.flattener import Chunk, column_data, column_values
from .results import FileResult

__all__ = ["Collector", "Spans"]

class Collector:
    """Gathers the tables of freshly parsed files column by column, consolidating every ``every`` files.

    Each file yields column chunks (lists of values, int32 offset arrays); they
    are concatenated per column into one DataFrame per table and flush, so a
    scan of 10,000 files builds a few large frames instead of thousands of
    small ones, and its memory stays close to the size of the final tables.
    """

    def __init__(self, every: int = 256):
        self.every = every
        self.n = 0
        self.pending: dict[str, list[tuple[str, Chunk]]] = {}
        self.chunks: dict[str, list] = {}

    def add(self, r: FileResult) -> None:
        for t, ch in r.chunks.items():
            if ch.n:
                self.pending.setdefault(t, []).append((r.file, ch))
        r.chunks = {}
        self.n += 1
        if self.n % self.every == 0:
            self._flush()

    def absorb(self, tables: dict[str, list]) -> None:
        """Append tables a worker already concatenated (after everything added so far)."""
        self._flush()
        for t, parts in tables.items():
            self.chunks.setdefault(t, []).extend(parts)

    def add_many(self, names: list[str], tables: Mapping[str, tuple[np.ndarray, Chunk]]) -> None:
        """Add the tables of files read at once (:meth:`animre.tables.fixed.FixedReader.read_many`): per
        table, the file (an index into ``names``) of each row and one chunk of every row; after everything
        added so far."""
        self._flush()
        names_arr = np.asarray(names, dtype=object)
        for t, (file, ch) in tables.items():
            if not ch.n:
                continue
            vals: dict[str, Any] = {"file": _Files(names_arr, file)}
            for col in ch.columns:
                v = ch.data[col]
                vals[col] = v if isinstance(v, np.ndarray) else column_data(v)
            spans = [_offsets(ch.columns, dict(zip(ch.span_cols, m)), ch.n) for m in (ch.st, ch.en)]
            self.chunks.setdefault(t, []).append((vals, spans[0], spans[1]))
        self.n += len(names)

    def _flush(self) -> None:
        """Turn the pending files' chunks into column arrays: one part per table, three dicts
        (values, start offsets, end offsets), each ``{"file": ..., column: array}``: values as Series or
        numpy arrays, offsets as int32 arrays (-1 = none), turned into Series once, by :meth:`tables`."""
        for t, parts in self.pending.items():
            cols = parts[0][1].columns
            n = sum(c.n for _, c in parts)
            vals: dict[str, Any] = {"file": _Files(np.asarray([f for f, _ in parts], dtype=object),
                                                   np.repeat(np.arange(len(parts)), [c.n for _, c in parts]))}
            for col in cols:
                v: list = []
                for _, ch in parts:
                    v.extend(ch.data[col])
                vals[col] = column_values(v)  # integers with gaps stay integers (Int64)
            span_cols = parts[0][1].span_cols
            if all(ch.span_cols == span_cols for _, ch in parts):  # one concatenation per table
                st = np.concatenate([ch.st for _, ch in parts], axis=1)
                en = np.concatenate([ch.en for _, ch in parts], axis=1)
                spans = [_offsets(cols, dict(zip(span_cols, m)), n) for m in (st, en)]
            else:  # the extents (of the first part) without offsets
                extents = {c: np.full(n, -1, np.int32) for c in span_cols if c not in cols}
                spans = [_offsets(cols, {**{c: np.concatenate([dict(zip(ch.span_cols, getattr(ch, which))).get(
                    c, np.full(ch.n, -1, np.int32)) for _, ch in parts]) for c in cols}, **extents}, n)
                    for which in ("st", "en")]
            self.chunks.setdefault(t, []).append((vals, spans[0], spans[1]))
        self.pending = {}

    def tables(self) -> dict[str, tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]]:
        """Every table as (values, starts, ends) DataFrames.

        Parts are joined column by column and each part's column is released as
        soon as it is joined, and the frames are built without copying the
        joined arrays, so the peak stays near the size of the result.
        """
        self._flush()
        out = {}
        for t in list(self.chunks):
            parts = self.chunks.pop(t)
            sizes = [len(p[0]["file"].index) for p in parts]
            frames = []
            owned: set[int] = set()  # arrays a column of this table already is (a part's one piece is used as
            for k in range(3):       # it is, unless another column already is that array)
                cols: list[str] = list(dict.fromkeys(c for p in parts for c in p[k]))
                data = {}
                for col in cols:
                    pieces = [p[k].pop(col, None) for p in parts]
                    data[col] = _join_values(pieces, sizes, owned) if k == 0 else _join_offsets(pieces, sizes, owned)
                    del pieces
                frames.append(pd.DataFrame(data, columns=cols, copy=False))
            out[t] = tuple(frames)
        return out


@dataclass
class _Files:
    """A part's ``file`` column: its files' names, and the file (an index into them) of each row."""

    names: np.ndarray
    index: np.ndarray


_STR = pd.Series(["file"]).dtype  # what pandas makes of a column of file names


def _join_files(pieces: list[_Files]) -> pd.Series:
    """The ``file`` column of every part, made as pandas would make it from the names, without one Python
    string per row: each distinct name once, then one take (a column of 10,000 files' rows is 20x faster)."""
    if len(pieces) == 1:
        names, index = pieces[0].names, pieces[0].index
    else:
        names = np.concatenate([p.names for p in pieces])
        first = np.cumsum([0] + [len(p.names) for p in pieces[:-1]])
        index = np.concatenate([p.index + k for p, k in zip(pieces, first)])
    if isinstance(_STR, pd.StringDtype) and _STR.storage == "pyarrow":
        return pd.Series(pd.array(pa.array(names, type=pa.large_string()).take(pa.array(index)), dtype=_STR),
                         copy=False)
    return pd.Series(names[index])


def _own(x: np.ndarray, owned: set[int]) -> np.ndarray:
    """A part's only piece of a column as the column's own array: itself, or a copy when another column of
    the table already is that array."""
    if id(x) in owned:
        x = x.copy()
    owned.add(id(x))
    return x


def _join_values(pieces: list, sizes: list[int], owned: set[int]) -> pd.Series:
    """One value column of every part: numpy arrays of one dtype joined as they are; else as Series, with one
    inference over the whole column when the parts' dtypes differ (integers with gaps stay nullable)."""
    if all(isinstance(x, _Files) for x in pieces):
        return _join_files(pieces)
    if all(isinstance(x, np.ndarray) for x in pieces) and len({x.dtype for x in pieces}) == 1:
        # the joined array is the column's own: no further copy (pandas copies an array it is given otherwise)
        return pd.Series(np.concatenate(pieces) if len(pieces) > 1 else _own(pieces[0], owned), copy=False)
    pieces = [pd.Series([None] * m) if x is None else pd.Series(x) if isinstance(x, np.ndarray) else x
              for x, m in zip(pieces, sizes)]
    if len(pieces) == 1:
        return pieces[0].reset_index(drop=True)
    joined = pd.concat(pieces, ignore_index=True)
    if len({str(x.dtype) for x in pieces}) > 1:
        # a part where the column was all None inferred another dtype: infer once
        known = {str(x.dtype) for x in pieces if x.notna().any()}
        joined = joined.astype("Int64") if known and known <= {"int64", "Int64"} else pd.Series(joined.tolist())
    return joined.reset_index(drop=True)


def _join_offsets(pieces: list, sizes: list[int], owned: set[int]) -> pd.Series:
    """One offset column of every part (int32, -1 = none; a part without it: none) as an Int32 Series."""
    if len(pieces) == 1 and pieces[0] is not None and pieces[0].dtype == np.int32:  # used as it is (never
        a = _own(pieces[0], owned)                                                    # changed: it may be shared)
        none = a < 0
        if none.all():  # zeros not yet written (calloc): a column without offsets costs only its mask
            a = np.zeros(len(a), np.int32)
        elif none.any():
            a = np.where(none, np.int32(0), a)
    else:
        a = np.concatenate([np.full(m, -1, np.int32) if x is None else x for x, m in zip(pieces, sizes)])
        none = a < 0
        a[none] = 0  # the joined array is the column's own: no further copy
    return pd.Series(pd.arrays.IntegerArray(a, none), copy=False)


def _offsets(cols: list[str], rows: dict[str, np.ndarray], n: int) -> dict[str, np.ndarray]:
    """One part's start (or end) offsets: ``{"file": ..., column: int32 array}``, -1 = none, for ``cols`` and
    the extents (skipped fields) of ``rows``."""
    none = np.full(n, -1, np.int32)
    return {"file": none, **{col: rows.get(col, none) for col in cols + [c for c in rows if c not in cols]}}


class Spans(Mapping):
    """table -> (start DataFrame, end DataFrame); tables from a snapshot load on first use."""

    def __init__(self):
        self._d: dict[str, Any] = {}

    def __getitem__(self, t: str) -> tuple[pd.DataFrame, pd.DataFrame]:
        v = self._d[t]
        if callable(v):
            v = self._d[t] = v()
        return v

    def __setitem__(self, t: str, v) -> None:
        self._d[t] = v

    def __iter__(self):
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)
