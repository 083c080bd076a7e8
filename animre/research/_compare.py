"""One field across every file, keyed by record: a file x record grid with the differing cells marked.

The question a reverse engineer asks again and again ("what is footer byte 7
of every move, in every fighter?") as one table: rows are files, columns are
records (by their id, e.g. the move number), cells are the field's values.
A cell *differs* when it is not the value most files hold for that record,
so a value that one file changes stands out at once.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ..base.errors import UsageError
from ._calls import frames_html
from ._util import hashable, is_missing, resolve_table

__all__ = ["compare", "Comparison"]


class Comparison(NamedTuple):
    """Result of :func:`compare`: four frames with the same files x records shape."""

    values: pd.DataFrame  #: the field's value per file (rows) and record (columns); NaN/None where absent
    differs: pd.DataFrame  #: True where the value is not the record's most common value
    common: pd.Series  #: the most common value of every record (column)
    offsets: pd.DataFrame  #: absolute byte offset of every cell (NA where absent or computed)

    def _repr_html_(self) -> str:
        marked = int(self.differs.to_numpy().sum())
        return frames_html(f"Comparison of {self.common.name}: {marked} differing cells",
                           {"values": self.values, "common": self.common})


def _default_by(df: pd.DataFrame, name: str | None, corpus: Any) -> list[str]:
    if corpus is not None and name is not None and hasattr(corpus, "ids"):
        info = corpus.columns(name) if hasattr(corpus, "columns") else None
        ids = [] if info is None else [c for c in info.loc[info["is_id"].astype(bool), "column"] if c in df]
        if ids:
            return ids[:1]
        keys = [k for k in corpus.keys(name) if k in df.columns and k not in ("file", "block")]
        if keys:
            return keys
    return []


def compare(corpus: Any, table: str | pd.DataFrame, column: str, by: str | list[str] | None = None) -> Comparison:
    """One field of every file side by side, keyed by record, with the differing cells marked.

    Parameters
    ----------
    corpus : Corpus or None
        The corpus (for the table by name, its record ids and byte offsets).
    table : str or DataFrame
        A table name (or the table) with a ``file`` column.
    column : str
        The field to compare.
    by : str or list of str, optional
        The record key(s) that make the grid's columns. Default: the table's
        id field (``-animre-id`` in the spec, e.g. ``move_number``), else its
        position keys (``slot``, ``anim_id`` + ``track`` ...); a table with
        one row per file gives a single column.

    Returns
    -------
    Comparison
        ``values`` (files x records), ``differs`` (bool, same shape: the
        cell is present and differs from the record's most common value),
        ``common`` (that value per record) and ``offsets`` (byte offsets).

    Examples
    --------
    >>> cmp = compare(c, "frm", "unknown_magic")
    >>> cmp.values.shape, int(cmp.differs.to_numpy().sum()), cmp.differs.index[cmp.differs.iloc[:, 0]].tolist()
    ((51, 1), 1, ['frm/ODDMGFRM.BIN'])
    """
    df, name = resolve_table(table, corpus)
    if "file" not in df.columns:
        raise UsageError("compare needs a table with a file column")
    if column not in df.columns:
        raise UsageError(f"no column {column!r} in the table")
    keys = _default_by(df, name, corpus) if by is None else ([by] if isinstance(by, str) else list(by))
    missing = [k for k in keys if k not in df.columns]
    if missing:
        raise UsageError(f"by: no column(s) {', '.join(missing)} in the table")
    if "block" in df.columns and "block" not in keys and df.groupby("file")["block"].nunique().max() > 1:
        keys = ["block"] + keys
    if len(keys) > 1:
        rec = pd.Series(list(zip(*(df[k].to_numpy(dtype=object) for k in keys))), index=df.index, dtype=object)
    elif keys:
        rec = pd.Series(df[keys[0]].to_numpy(dtype=object), index=df.index, dtype=object)
    else:
        rec = pd.Series("value", index=df.index)
    dup = pd.DataFrame({"file": df["file"], "rec": rec}).duplicated()
    if dup.any():
        raise UsageError(f"{', '.join(keys) or 'file'} does not identify the records of a file "
                         f"({int(dup.sum())} repeats): pass by= the key column(s)")
    long = pd.DataFrame({"file": df["file"].to_numpy(), "rec": rec.to_numpy(),
                         "value": df[column].to_numpy(dtype=object)}, index=df.index)
    offs = corpus.offsets(name, column, df.index) if corpus is not None and name is not None \
        and hasattr(corpus, "offsets") else pd.Series(pd.NA, index=df.index, dtype="Int64")
    long["offset"] = offs.to_numpy()
    files = list(dict.fromkeys(df["file"]))
    recs = list(dict.fromkeys(long["rec"]))
    try:
        recs = sorted(recs)
    except TypeError:
        pass
    fi = {f: i for i, f in enumerate(files)}
    ri = {r: j for j, r in enumerate(recs)}
    vals = np.full((len(files), len(recs)), None, dtype=object)
    off = np.full((len(files), len(recs)), None, dtype=object)
    for f, r, v, o in long[["file", "rec", "value", "offset"]].itertuples(index=False, name=None):
        vals[fi[f], ri[r]] = v
        off[fi[f], ri[r]] = None if is_missing(o) else int(o)
    differs = np.zeros(vals.shape, dtype=bool)
    common = []
    for j in range(len(recs)):
        col = [(i, hashable(v)) for i, v in enumerate(vals[:, j]) if not is_missing(v)]
        if not col:
            common.append(None)
            continue
        counts = pd.Series([h for _, h in col]).value_counts(sort=True)
        top = counts.index[0]
        common.append(next(vals[i, j] for i, h in col if h == top))
        if counts.iloc[0] < len(col):
            for i, h in col:
                differs[i, j] = h != top
    index = pd.Index(files, name="file")
    cols = pd.Index(recs, name=", ".join(keys) if keys else None, tupleize_cols=False)
    values = pd.DataFrame(vals, index=index, columns=cols)
    present = [v for v in vals.ravel() if not is_missing(v)]
    if present and all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in present):
        values = values.astype("Int64")  # integers stay integers where a file lacks the record
    elif present and all(isinstance(v, (float, np.floating)) for v in present):
        values = values.astype("float64")
    return Comparison(values, pd.DataFrame(differs, index=index, columns=cols),
                      pd.Series(common, index=cols, dtype=object, name=column),
                      pd.DataFrame(off, index=index, columns=cols).astype("Int64"))
