"""Byte coverage: which bytes of each file some parsed field describes, and the gaps.

As in hachoir, bytes that no field describes are explicit gaps, so a user
sees what is not understood yet. Coverage counts the byte ranges of leaf
values (and of records or arrays that have no parsed children, e.g. raw
``size``-only blocks) from :meth:`Corpus.fields`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from ..display import fmt

__all__ = ["coverage", "covered_mask", "COVERAGE_COLUMNS", "GAP_COLUMNS"]

COVERAGE_COLUMNS = ["file", "format", "size", "covered", "share", "n_gaps", "uncovered", "ok"]
GAP_COLUMNS = ["file", "format", "start", "end", "length", "preview"]


def covered_mask(fields: pd.DataFrame, size: int) -> np.ndarray:
    """Boolean array of ``size``: True where a leaf field of ``fields`` (one file) lies.

    Examples
    --------
    >>> import pandas as pd
    >>> f = pd.DataFrame({"path": ["a", "b"], "kind": ["value", "value"], "start": [0, 2], "end": [1, 4]})
    >>> covered_mask(f, 5).tolist()
    [True, False, True, True, False]
    """
    mask = np.zeros(size, dtype=bool)
    if fields is None or not len(fields):
        return mask
    f = fields[fields["start"].notna() & fields["end"].notna()]
    kind = f["kind"]
    leaves = f[kind == "value"]
    containers = f[kind != "value"]
    if len(containers):
        # a record or array with no parsed child (raw block) covers its own range
        if "parent" in fields.columns:
            prefixes = set(fields["parent"].dropna())
        else:
            prefixes = {p[:i] for p in fields["path"] for i, ch in enumerate(p) if ch in ".["}
        bare = containers[~containers["path"].isin(prefixes)]
        leaves = pd.concat([leaves, bare]) if len(bare) else leaves
    for s, e in zip(leaves["start"].to_numpy(dtype=np.int64), leaves["end"].to_numpy(dtype=np.int64)):
        if e > s:
            mask[max(0, s):min(size, e)] = True
    return mask


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) runs of False in mask."""
    if mask.all():
        return []
    x = np.concatenate([[True], mask, [True]]).astype(np.int8)
    d = np.diff(x)
    starts = np.flatnonzero(d == -1)
    ends = np.flatnonzero(d == 1)
    return list(zip(starts.tolist(), ends.tolist()))


def coverage(corpus: Any, files: Iterable[str] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Share of each file's bytes that parsed fields describe, and the uncovered gaps.

    Parameters
    ----------
    corpus : Corpus
        An opened corpus.
    files : iterable of str, optional
        Only these files (default: all).

    Returns
    -------
    (per_file, gaps) : tuple of DataFrame
        ``per_file``: file, format, size, covered (bytes), share (0..1),
        n_gaps, uncovered (bytes), ok (parsed); files that failed to parse
        have NaN share. ``gaps``: file, format, start, end (exclusive),
        length, preview (hex of the first 16 bytes of the gap).

    Examples
    --------
    >>> per_file, gaps = coverage(c)
    >>> float(per_file.set_index("file").at["frm/GOBLNFRM.BIN", "share"])
    1.0
    """
    ft = corpus.files
    if files is not None:
        wanted = set(files)
        ft = ft[ft["file"].isin(wanted)]
    per, gaps = [], []
    for r in ft.itertuples(index=False):
        fmt_name = None if pd.isna(r.format) else r.format
        if not r.ok:
            per.append({"file": r.file, "format": fmt_name, "size": int(r.size), "covered": 0,
                        "share": float("nan"), "n_gaps": 0, "uncovered": int(r.size), "ok": False})
            continue
        data = corpus.read_bytes(r.file)
        size = len(data)
        mask = covered_mask(corpus.fields(r.file, values=False), size)
        runs = _runs(mask)
        for s, e in runs:
            gaps.append({"file": r.file, "format": fmt_name, "start": s, "end": e, "length": e - s,
                         "preview": fmt(data[s:min(e, s + 16)])})
        cov = int(mask.sum())
        per.append({"file": r.file, "format": fmt_name, "size": size, "covered": cov,
                    "share": cov / size if size else 1.0, "n_gaps": len(runs),
                    "uncovered": size - cov, "ok": True})
    per_df = pd.DataFrame(per, columns=COVERAGE_COLUMNS)
    gaps_df = pd.DataFrame(gaps, columns=GAP_COLUMNS)
    for c in ("start", "end", "length"):
        gaps_df[c] = gaps_df[c].astype("int64")
    return per_df, gaps_df


def byte_matrix(corpus: Any, format: str | None = None, files: Iterable[str] | None = None,
                length: int | None = None) -> pd.DataFrame:
    """Files x byte offsets: the raw byte values (NaN past a file's end), for variation heatmaps.

    Parameters
    ----------
    corpus : Corpus
    format : str, optional
        Only files of this format (e.g. ``"frm"``).
    files : iterable of str, optional
        Only these files.
    length : int, optional
        Only the first ``length`` bytes (default: the longest file).

    Examples
    --------
    >>> m = byte_matrix(corpus, "frm")
    >>> m.shape
    (37, 821)
    """
    ft = corpus.files
    if format is not None:
        ft = ft[ft["format"] == format]
    names = list(ft["file"]) if files is None else list(files)
    blobs = [corpus.read_bytes(f) for f in names]
    n = length if length is not None else max((len(b) for b in blobs), default=0)
    out = np.full((len(blobs), n), np.nan)
    for i, b in enumerate(blobs):
        k = min(n, len(b))
        out[i, :k] = np.frombuffer(b[:k], dtype=np.uint8)
    return pd.DataFrame(out, index=pd.Index(names, name="file"), columns=pd.RangeIndex(n, name="offset"))
