"""Assemble a corpus's tables from freshly parsed files and the rows a cache snapshot kept."""

from __future__ import annotations

import pandas as pd

from ..tables.plan import EXTENT
from .results import ERROR_COLUMNS, FILES_COLUMNS

__all__ = ["assemble"]

def assemble(corpus, snapshot: dict, order: list[str], fresh_tables: dict) -> None:
    """Assemble tables from fresh results plus rows kept from a snapshot (cached opens)."""
    rank = {f: i for i, f in enumerate(order)}
    fresh = [r for r in corpus.results if not r.cached or r.error]
    fresh_files = {r.file for r in fresh}
    # the format tables change only when a file with a format was parsed now or a cached file is gone (a file
    # no format reads is looked at on every open and has no rows)
    stale = snapshot.get("stale", True)
    tables_change = stale or any(r.format is not None for r in fresh)
    snap_tables = snapshot.get("tables", {})
    snap_files = snapshot.get("files")

    def merge(old: pd.DataFrame | None, new: pd.DataFrame, changed: bool = bool(fresh) or stale) -> pd.DataFrame:
        if not changed and old is not None:  # everything from the snapshot: already in order
            return old
        if old is None or not len(old):
            df = new
        else:
            old = old[old["file"].isin(set(rank) - fresh_files)]
            # no cached row left (its spec changed): the fresh columns only, never a stale column of NA
            df = pd.concat([old, new], ignore_index=True) if len(new) and len(old) else new if len(new) else old
        if len(df):
            r = df["file"].map(rank).to_numpy()
            if len(r) > 1 and (r[1:] < r[:-1]).any():  # only reorder what is out of order (no copy otherwise)
                df = df.iloc[r.argsort(kind="stable")].reset_index(drop=True)
        return df

    new_files = pd.DataFrame([r.row() for r in fresh], columns=FILES_COLUMNS)
    for col in ("offset", "members"):
        new_files[col] = new_files[col].astype("Int64")
    files = merge(snap_files, new_files).reset_index(drop=True)
    for col in ("format", "container", "kind", "status"):  # one NA (None) whether fresh or cached
        files[col] = files[col].astype(object).where(files[col].notna(), None)
    corpus.tables["files"] = files
    new_errs = pd.DataFrame([r.error for r in fresh if r.error], columns=ERROR_COLUMNS)
    corpus.errors = merge(snapshot.get("errors"), new_errs)
    if len(corpus.errors):
        corpus.errors["offset"] = corpus.errors["offset"].astype("int64")
    names: list[str] = list(snap_tables) + [t for t in fresh_tables if t not in snap_tables]
    for t in names:
        if t in fresh_tables:
            new, new_s, new_e = fresh_tables[t]
        else:
            new = pd.DataFrame(columns=["file"])
            new_s = new_e = pd.DataFrame(columns=["file"])
        if t in snap_tables and not tables_change:  # unchanged tables: spans load when first asked for
            old, load_spans = snap_tables[t]
            if len(old):
                corpus.tables[t] = old
                corpus.spans[t] = load_spans
            continue
        if t in snap_tables:
            old, load_spans = snap_tables[t]
            old_s, old_e = load_spans()
            if len(new):
                new_s["file"] = new["file"]
                new_e["file"] = new["file"]
            old_s = old_s.assign(file=old["file"].values)
            old_e = old_e.assign(file=old["file"].values)
            df = merge(old, new, tables_change)
            ss = merge(old_s, new_s, tables_change)
            ee = merge(old_e, new_e, tables_change)
            ss["file"] = pd.NA
            ee["file"] = pd.NA
        else:
            df, ss, ee = new, new_s, new_e
        if not len(df):
            continue
        cols = list(df.columns)
        cols += [c for c in ss.columns if c.startswith(EXTENT) and c not in cols]  # skipped fields' bytes
        corpus.tables[t] = df
        corpus.spans[t] = (ss.reindex(columns=cols).astype("Int32"), ee.reindex(columns=cols).astype("Int32"))
