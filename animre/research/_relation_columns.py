"""The columns :func:`~animre.research.relations` relates: numbers, codes and single bits, with counterexamples.

A :class:`Col` holds one column as arrays (float values, integers when
integral, factorized codes); :func:`bit_cols` adds one column per varying
bit of flag-like integers; :func:`counterexample` describes a row that
breaks a finding by its file, row, key columns and both values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..base.display import plain
from ._alerts import flags_note
from ._util import integral_values, numeric_column

__all__ = ["Col", "make_col", "bit_cols", "key_columns", "counterexample", "KEY_NAMES"]

KEY_NAMES = ("move", "sprite", "track", "key", "state", "parm", "anim", "frame", "chunk", "slot",
             "position", "animation", "index", "id")  #: record keys guessed by name, only for a table without a corpus


@dataclass
class Col:
    name: str
    num: np.ndarray | None  # float64 with NaN for missing
    ints: np.ndarray | None  # int64 where present (garbage elsewhere) when integral
    codes: np.ndarray  # factorized codes, -1 missing
    n_distinct: int
    present: np.ndarray
    source_only: bool = False
    parent: str | None = None
    label_values: list | None = None
    minority: int = 0  # rows whose value is not the most common one


def make_col(s: pd.Series, name: str, source_only: bool = False) -> Col | None:
    num_s = numeric_column(s)
    num = None if num_s is None else num_s.to_numpy(dtype=np.float64)
    ints = None
    if num is not None and (pd.api.types.is_bool_dtype(s.dtype) or integral_values(s) is not None):
        ints = np.where(np.isnan(num), 0, num).astype(np.int64)
    try:
        codes, uniq = pd.factorize(s if num is None else pd.Series(num), use_na_sentinel=True)
    except TypeError:
        codes, uniq = pd.factorize(s.map(repr), use_na_sentinel=True)
    codes = np.asarray(codes, dtype=np.int64)
    present = codes >= 0
    counts = np.bincount(codes[present], minlength=len(uniq)) if len(uniq) else np.zeros(1, int)
    return Col(name, num, ints, codes, len(uniq), present, source_only,
                label_values=[plain(u) for u in uniq], minority=int(present.sum() - counts.max()))


def bit_cols(cols: list[Col], only_flags: bool) -> list[Col]:
    out = []
    for c in cols:
        if c.ints is None or c.n_distinct < 3 or c.parent is not None:
            continue
        v = c.ints[c.present]
        if not len(v) or v.min() < 0 or v.max() >= 1 << 32:
            continue
        u = v.astype(np.uint64)
        width = 8 if v.max() < 256 else 16 if v.max() < 65536 else 32
        rates = [float(((u >> np.uint64(b)) & np.uint64(1)).mean()) for b in range(width)]
        if only_flags and not flags_note(v, u, rates, c.n_distinct, len(v)):
            continue
        for b, r in enumerate(rates):
            if 0 < r < 1:
                m = 1 << b
                bit = np.where(c.present, (c.ints & m) != 0, False).astype(np.float64)
                bit[~c.present] = np.nan
                col = make_col(pd.Series(bit), f"{c.name} & 0x{m:x}")
                col.parent = c.name
                out.append(col)
    return out


def key_columns(df: pd.DataFrame, name: str | None, corpus: Any) -> list[str]:
    """The record keys of a table: the spec's (``corpus.keys``), guessed by name only without a corpus."""
    if corpus is not None and name is not None and hasattr(corpus, "keys"):
        return [k for k in corpus.keys(name) if k in df.columns and k != "file"]
    return [c for c in df.columns if str(c) in KEY_NAMES][:3]


def counterexample(df: pd.DataFrame, keys: list[str], i: int, t: Col, s: Col) -> dict:
    d: dict[str, Any] = {}
    if "file" in df.columns:
        d["file"] = df["file"].iat[i]
    d["row"] = plain(df.index[i])
    for k in keys:
        d[k] = plain(df[k].iat[i])
    d["target_value"] = _val(t, i)
    d["source_value"] = _val(s, i)
    return d


def _val(c: Col, i: int) -> Any:
    if c.codes[i] < 0:
        return None
    v = c.label_values[c.codes[i]] if c.label_values is not None else None
    if c.parent is not None:
        return bool(v)
    if isinstance(v, float) and c.ints is not None and v == int(v):
        return int(v)
    return v
