"""Small helpers shared by the research modules (private)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from ..base.errors import UsageError

__all__: list[str] = []  # helpers of the research modules

SENTINELS = (0, -1, 0xFF, 0xFFFF, 0xFFFFFFFF)


def resolve_table(table: Any, corpus: Any = None) -> tuple[pd.DataFrame, str | None]:
    """``(DataFrame, table name or None)`` from a DataFrame or a table name + corpus."""
    if isinstance(table, str):
        if corpus is None:
            raise UsageError(f"table {table!r} given by name: pass corpus= as well")
        if table not in corpus.tables:
            raise UsageError(f"no table {table!r} in the corpus; tables: {', '.join(corpus.tables)}")
        return corpus.tables[table], table
    if not isinstance(table, pd.DataFrame):
        raise UsageError(f"expected a DataFrame or a table name, got {type(table).__name__}")
    name = None
    if corpus is not None:
        for n, df in corpus.tables.items():
            if df is table:
                name = n
                break
    return table, name


def copies_of(corpus: Any) -> dict[str, str]:
    """Every file whose bytes repeat an earlier file's (same sha256 in ``corpus.files``) -> that earlier file.

    The earlier file is the first with those bytes in corpus order (a loose
    file before its copy inside an archive listed after it).

    Examples
    --------
    >>> copies_of(c)["agg/HEROES2.AGG/GOBLNFRM.BIN"]
    'agg/GOBLNFRM.BIN'
    """
    files = getattr(corpus, "files", None)
    if files is None or "sha256" not in files.columns or "file" not in files.columns:
        return {}
    f = files.dropna(subset=["sha256"]).drop_duplicates("file")
    first = f.drop_duplicates("sha256").set_index("sha256")["file"]
    dup = f[f["sha256"].duplicated()]
    return dict(zip(dup["file"], dup["sha256"].map(first), strict=True))


def unique_file_rows(df: pd.DataFrame, corpus: Any) -> pd.DataFrame:
    """``df`` without the rows of files whose content repeats an earlier file's (same sha256 in ``corpus.files``).

    Identical files are one sample, however many copies a corpus holds (:func:`copies_of`).
    """
    if corpus is None or "file" not in df.columns or not len(df):
        return df
    dup = copies_of(corpus)
    if not dup:
        return df
    return df[~df["file"].isin(dup)]


def hashable(v: Any) -> Any:
    """A hashable stand-in for a cell (lists -> tuples, arrays -> tuples, dicts -> sorted tuples)."""
    if isinstance(v, (list, tuple)):
        return tuple(hashable(x) for x in v)
    if isinstance(v, np.ndarray):
        return tuple(hashable(x) for x in v.tolist())
    if isinstance(v, dict):
        return tuple(sorted((str(k), hashable(x)) for k, x in v.items()))
    if isinstance(v, (bytearray, memoryview)):
        return bytes(v)
    if isinstance(v, np.generic):
        return v.item()
    return v


def is_missing(v: Any) -> bool:
    if v is None or v is pd.NA or v is pd.NaT:
        return True
    if isinstance(v, float) and math.isnan(v):
        return True
    return False


def integral_values(s: pd.Series) -> np.ndarray | None:
    """The non-missing values of ``s`` as an int64 array if the column holds integers, else None.

    Float columns count as integer only when they hold missing values (pandas
    turns an int column with gaps into float) and every other value is integral.
    """
    if pd.api.types.is_bool_dtype(s.dtype):
        return None
    if pd.api.types.is_integer_dtype(s.dtype):
        v = s.dropna()
        try:
            return v.to_numpy(dtype=np.int64)
        except (OverflowError, ValueError, TypeError):
            return None
    if pd.api.types.is_float_dtype(s.dtype):
        if not s.isna().any():
            return None
        v = s.dropna().to_numpy(dtype=np.float64)
        if len(v) and np.all(np.isfinite(v)) and np.all(v == np.round(v)) and np.all(np.abs(v) < 2**62):
            return v.astype(np.int64)
        return None
    if s.dtype == object:
        v = [x for x in s if not is_missing(x)]
        if v and all(isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)) for x in v):
            try:
                return np.array(v, dtype=np.int64)
            except OverflowError:
                return None
    return None


def numeric_values(s: pd.Series) -> np.ndarray | None:
    """Non-missing values as float64 if the column is numeric (ints, floats, bools), else None."""
    if pd.api.types.is_bool_dtype(s.dtype) or pd.api.types.is_numeric_dtype(s.dtype):
        return s.dropna().to_numpy(dtype=np.float64)
    iv = integral_values(s)
    if iv is not None:
        return iv.astype(np.float64)
    return None


def numeric_column(s: pd.Series) -> pd.Series | None:
    """``s`` as a float64 Series (same index, NaN for missing), or None when not numeric."""
    if pd.api.types.is_bool_dtype(s.dtype) or pd.api.types.is_numeric_dtype(s.dtype):
        return s.astype("float64")
    if s.dtype == object:
        v = [x for x in s if not is_missing(x)]
        if v and all(isinstance(x, (int, float, np.integer, np.floating, bool, np.bool_)) for x in v):
            return pd.Series([np.nan if is_missing(x) else float(x) for x in s], index=s.index)
    return None


def width_from_spans(corpus: Any, name: str | None, column: str) -> int | None:
    """Bit width of a column's cells from the corpus spans (most common byte length x 8)."""
    if corpus is None or name is None or name not in getattr(corpus, "spans", {}):
        return None
    starts, ends = corpus.spans[name]
    if column not in starts:
        return None
    ln = (ends[column] - starts[column]).dropna()
    if not len(ln):
        return None
    n = int(ln.mode().iloc[0])
    return n * 8 if n in (1, 2, 4, 8) else None


def infer_width(values: np.ndarray) -> int:
    """Smallest of 8/16/32/64 bits that holds every value (two's complement if any is negative)."""
    if not len(values):
        return 8
    lo, hi = int(values.min()), int(values.max())
    for w in (8, 16, 32):
        if lo < 0:
            if lo >= -(1 << (w - 1)) and hi < (1 << (w - 1)):
                return w
        elif hi < (1 << w):
            return w
    return 64


def to_unsigned(values: np.ndarray, width: int) -> np.ndarray:
    """Two's complement bit patterns of ``values`` in ``width`` bits, as uint64."""
    if width >= 64:
        return values.astype(np.int64).view(np.uint64)
    mask = np.uint64((1 << width) - 1)
    return values.astype(np.int64).view(np.uint64) & mask


def offsets_for(corpus: Any, name: str | None, column: str, index) -> pd.Series | None:
    """Absolute start offsets (Int64) of ``column`` cells for rows ``index``, if known."""
    if corpus is None or name is None or name not in getattr(corpus, "spans", {}) \
            or column not in corpus.spans[name][0]:
        return None
    return corpus.offsets(name, column, index)


def f32_from_u32(u: np.ndarray) -> np.ndarray:
    """IEEE single floats from uint bit patterns (any int dtype)."""
    return (np.asarray(u, dtype=np.uint64) & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.float32)


def at_offset(example: dict) -> str:
    """`` @ 162 (0xA2)`` for a counterexample with a byte offset, else nothing: the one way evidence names a
    position (in decimal, as every offset is written, and in hex, as a hex editor shows it).

    Examples
    --------
    >>> at_offset({"file": "a", "offset": 162}), at_offset({"file": "a"})
    (' @ 162 (0xA2)', '')
    """
    return f" @ {int(example['offset'])} (0x{int(example['offset']):X})" if "offset" in example else ""
