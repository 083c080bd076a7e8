"""Gather the tables of freshly parsed files, column by column, into one DataFrame per table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..tables.flattener import Chunk, column_values
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

    def _flush(self) -> None:
        """Turn the pending files' chunks into column arrays: one part per table, three dicts
        (values, start offsets, end offsets), each ``{"file": ..., column: array}``."""
        for t, parts in self.pending.items():
            cols = parts[0][1].columns
            n = sum(c.n for _, c in parts)
            vals: dict[str, Any] = {"file": pd.Series(np.repeat([f for f, _ in parts], [c.n for _, c in parts]))}
            for col in cols:
                v: list = []
                for _, ch in parts:
                    v.extend(ch.data[col])
                vals[col] = column_values(v)  # integers with gaps stay integers (Int64)
            span_cols = parts[0][1].span_cols
            same = all(ch.span_cols == span_cols for _, ch in parts)
            spans = []
            for which in ("st", "en"):
                sp = {"file": pd.Series(pd.arrays.IntegerArray(np.zeros(n, np.int32), np.ones(n, bool)))}
                if same:  # one concatenation per table: offsets are (columns x rows) int32 matrices
                    m = np.concatenate([getattr(ch, which) for _, ch in parts], axis=1)
                    rows = dict(zip(span_cols, m))
                else:
                    rows = {c: np.concatenate([dict(zip(ch.span_cols, getattr(ch, which))).get(
                        c, np.full(ch.n, -1, np.int32)) for _, ch in parts]) for c in cols}
                none = np.full(n, -1, np.int32)
                for col in cols + [c for c in span_cols if c not in vals]:  # + extents (skipped fields)
                    a = rows.get(col, none)
                    sp[col] = pd.Series(pd.arrays.IntegerArray(np.maximum(a, 0), a < 0))
                spans.append(sp)
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
            sizes = [len(p[0]["file"]) for p in parts]
            frames = []
            for k, fill in ((0, None), (1, pd.NA), (2, pd.NA)):
                cols: list[str] = list(dict.fromkeys(c for p in parts for c in p[k]))
                data = {}
                for col in cols:
                    pieces = [p[k].pop(col, None) for p in parts]
                    pieces = [x if x is not None else pd.Series([fill] * m, dtype=None if k == 0 else "Int32")
                              for x, m in zip(pieces, sizes)]
                    if len(pieces) == 1:
                        joined = pieces[0]
                    else:
                        joined = pd.concat(pieces, ignore_index=True)
                        if k == 0 and len({str(x.dtype) for x in pieces}) > 1:
                            # a part where the column was all None inferred another dtype: infer once
                            # (integers with gaps stay nullable integers)
                            known = {str(x.dtype) for x in pieces if x.notna().any()}
                            joined = (joined.astype("Int64") if known and known <= {"int64", "Int64"}
                                      else pd.Series(joined.tolist()))
                    del pieces
                    data[col] = joined.reset_index(drop=True)
                frames.append(pd.DataFrame(data, columns=cols, copy=False))
            out[t] = tuple(frames)
        return out


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
