"""Files x byte offsets: the raw bytes of a corpus side by side, for variation heatmaps."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["byte_matrix"]


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
    >>> m.shape == ((corpus.files["format"] == "frm").sum(), 821)
    True
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
