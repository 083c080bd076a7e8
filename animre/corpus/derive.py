"""Derived columns: each format plugin's columns computed across a corpus, or why they are not testable."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from ..formats.base import not_in_spec, not_testable
from .results import UNAVAILABLE_COLUMNS

__all__ = ["DeriveContext", "derive"]

class DeriveContext:
    """What a derived column's function may look at besides its own table."""

    def __init__(self, corpus):
        self._c = corpus
        self._shared: dict = {}

    @property
    def files(self) -> pd.DataFrame:
        return self._c.files

    def shared(self, key, fn):
        """``fn()`` computed once per derivation and shared by every derived column that asks for ``key``."""
        if key not in self._shared:
            self._shared[key] = fn()
        return self._shared[key]

    def table(self, name: str) -> pd.DataFrame:
        df = self._c.tables.get(name)
        return df if df is not None else pd.DataFrame(columns=self._c.keys(name))

    def starts(self, table: str, column: str) -> pd.Series:
        return self._c.offsets(table, column)

    def file_sizes(self, df: pd.DataFrame) -> pd.Series:
        """The size in bytes of each row's file (Int64, aligned with ``df``)."""
        sizes = self.files.drop_duplicates("file").set_index("file")["size"]
        return df["file"].map(sizes).astype("Int64")

    def lookup(self, df: pd.DataFrame, table: str, column: str) -> np.ndarray:
        """``table.column`` for every row of ``df``, matched on the key columns both tables have.

        A record's key columns name its parents (``file``, ``block``, ``slot`` ...), so a child
        row finds its parent's value this way (NA where there is none).
        """
        other = self.table(table)
        keys = [k for k in self._c.keys(table) if k in df.columns and k in other.columns]
        right = other[keys + [column]].drop_duplicates(keys)
        # a child's rows come in runs of one parent (a file's 16 frames of one slot): each run is looked up
        # once, its value repeated over the run (a run ends wherever a key changes or is missing)
        first = _run_starts(df, keys)
        wanted = df[keys].iloc[first] if len(first) < len(df) else df
        if _same_keys(wanted, right, keys):  # row for row the other table's rows (a table and its children)
            got = right[column].reset_index(drop=True).to_numpy()
        # positions through an index, not a merge: no copy of the key columns per row
        elif len(keys) == 1:
            pos = pd.Index(right[keys[0]]).get_indexer(wanted[keys[0]])
            got = right[column].reset_index(drop=True).reindex(pos).to_numpy()
        else:
            pos = pd.MultiIndex.from_frame(right[keys]).get_indexer(pd.MultiIndex.from_frame(wanted[keys]))
            got = right[column].reset_index(drop=True).reindex(pos).to_numpy()
        if len(first) == len(df):
            return got
        return np.repeat(got, np.diff(np.append(first, len(df))))

    def ends(self, table: str, column: str) -> pd.Series:
        return self._c.offsets(table, column, end=True)



def _same_keys(a: pd.DataFrame, b: pd.DataFrame, keys: list[str]) -> bool:
    """Whether ``a`` and ``b`` have the same keys row for row (a missing key is never the same)."""
    if len(a) != len(b) or not keys:
        return False
    for k in keys:
        try:
            eq = a[k].reset_index(drop=True) == b[k].reset_index(drop=True)
            if not eq.to_numpy(dtype=bool, na_value=False).all():
                return False
        except (TypeError, ValueError):
            return False
    return True


def _run_starts(df: pd.DataFrame, keys: list[str]) -> np.ndarray:
    """The rows of ``df`` whose keys are not those of the row before (row 0 always; a missing key, or one
    that does not compare equal, always starts a run)."""
    n = len(df)
    if n < 2 or not keys:
        return np.arange(n)
    same = np.ones(n - 1, dtype=bool)
    for k in keys:
        col = df[k]
        try:
            eq = col.iloc[1:].reset_index(drop=True) == col.iloc[:-1].reset_index(drop=True)
            eq = eq.to_numpy(dtype=bool, na_value=False) if eq.dtype != bool else eq.to_numpy()
        except (TypeError, ValueError):  # keys that do not compare (lists): every row its own run
            return np.arange(n)
        same &= eq
    return np.flatnonzero(np.concatenate([[True], ~same]))


def derive(corpus) -> None:
        """Add every format's derived columns whose spec fields exist; record the others."""
        corpus._derived_ok: set[tuple[str, str]] = set()
        corpus._schema = None
        rows = []
        ctx = DeriveContext(corpus)
        for f in corpus.formats_in_use():
            for d in f.derived:
                df = corpus.tables.get(d.table)
                if df is not None and d.column in df.columns:
                    corpus.tables[d.table] = df = df.drop(columns=[d.column])
                missing = not_testable(corpus, d.reads)
                if missing:
                    rows.append(("derived", f.name, d.table, d.column, missing,
                                 not_in_spec(missing)))
                    continue
                corpus._derived_ok.add((d.table, d.column))
                if df is None:
                    continue
                try:
                    vals = d.fn(df, ctx)
                    df = df.copy(deep=False)  # copy-on-write: the new column never touches the old frame
                    if isinstance(vals, pd.Series):
                        vals = vals.array  # keeps nullable integer types (no float NaN)
                    elif not isinstance(vals, (np.ndarray, pd.api.extensions.ExtensionArray)):
                        vals = list(vals)
                    if len(vals) != len(df):
                        raise ValueError(f"{len(vals)} values for {len(df)} rows")
                    df[d.column] = vals
                    corpus.tables[d.table] = df
                except Exception as e:  # noqa: BLE001 - one broken derivation must not hide the tables
                    corpus._derived_ok.discard((d.table, d.column))
                    rows.append(("derived", f.name, d.table, d.column, [],
                                 f"could not compute: {type(e).__name__}: {e}"))
            for cl in f.claims:
                missing = not_testable(corpus, cl.reads)
                if missing:
                    rows.append(("claim", f.name, cl.reads[0][0] if cl.reads else "", cl.text, missing,
                                 not_in_spec(missing)))
        corpus._schema = None
        corpus.unavailable = pd.DataFrame(rows, columns=UNAVAILABLE_COLUMNS)
        if rows:
            warnings.warn(
                "animre: " + "; ".join(f"{r[0]} {r[3]!r} ({r[1]}): {r[5]}" for r in rows[:8])
                + (f"; and {len(rows) - 8} more (corpus.unavailable)" if len(rows) > 8 else ""),
                stacklevel=3)

    # -- access --------------------------------------------------------------------
