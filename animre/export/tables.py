"""Export tables and findings: CSV, Markdown (wiki-ready), Parquet, Excel, JSON.

Every file is written atomically: all outputs of one :func:`export` call are
first written to temporary files next to their targets and only moved into
place (``os.replace``) once every writer has succeeded, so an error leaves no
half-written file and no partial set of outputs behind.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pandas as pd

from ..base.atomic import write_all_atomic
from ..base.display import fmt, formatters, plain
from ..base.errors import UsageError

__all__ = ["export", "write_tables", "to_markdown", "WRITERS", "EXPORT_FORMATS"]
EXPORT_FORMATS = ("csv", "md", "parquet", "xlsx", "json")
_EXT = {"csv": "csv", "md": "md", "parquet": "parquet", "xlsx": "xlsx", "json": "json"}


# ----------------------------------------------------------------------------- cell conversion


def _jsonable(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, set)):
        return [_jsonable(x) for x in v]
    if isinstance(v, np.ndarray):
        return [_jsonable(x) for x in plain(v)]
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    v = plain(v)
    if v is None or v is pd.NA or v is pd.NaT:
        return None
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None if math.isnan(v) else ("inf" if v > 0 else "-inf")
    if isinstance(v, (str, int, float, bool)):
        return v
    return str(v)


def _cell_text(v: Any) -> Any:
    """A scalar for text formats: lists/dicts -> JSON, bytes -> hex, others unchanged."""
    if isinstance(v, (list, tuple, dict, set, np.ndarray)):
        return json.dumps(_jsonable(v), ensure_ascii=False)
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    return v


def _flat(df: pd.DataFrame, keep_bytes: bool = False) -> pd.DataFrame:
    """Object columns holding lists/dicts/bytes/mixed types become text columns."""
    out = df.copy()
    out.columns = [str(c) for c in out.columns]
    for c in out.columns:
        s = out[c]
        if s.dtype != object:
            continue
        vals = [v for v in s if v is not None and not (isinstance(v, float) and math.isnan(v))]
        if all(isinstance(v, str) for v in vals):
            continue
        if keep_bytes and vals and all(isinstance(v, (bytes, bytearray)) for v in vals):
            continue
        types = {type(v) for v in vals}
        if len(types) == 1 and types <= {int, float, bool}:
            continue
        out[c] = [None if (v is None or (isinstance(v, float) and math.isnan(v))) else
                  (_cell_text(v) if isinstance(_cell_text(v), str) else str(v)) for v in s]
    return out


# ----------------------------------------------------------------------------- markdown


def _md_cell(v: Any, show: Callable[[Any], str] = fmt) -> str:
    s = show(v)
    return s.replace("\\", "\\\\").replace("|", "\\|").replace("\r\n", "<br>").replace("\n", "<br>")


def to_markdown(df: pd.DataFrame, title: str | None = None,
                style: Mapping[str, Callable[[Any], str]] | None = None) -> str:
    """A pipe table (GitHub / wiki Markdown), with an optional ``## title`` heading.

    Cells are written by :func:`animre.base.display.fmt`; ``style`` gives a
    formatter per column (:func:`animre.base.display.formatters`: hex for magic
    values, flags and ids).

    Examples
    --------
    >>> import pandas as pd
    >>> print(to_markdown(pd.DataFrame({"offset": [0], "name": ["magic"]})))
    | offset | name |
    | --- | --- |
    | 0 | magic |
    <BLANKLINE>
    """
    cols = [str(c) for c in df.columns]
    lines = []
    if title:
        lines += [f"## {title}", ""]
    lines.append("| " + " | ".join(_md_cell(c) for c in cols) + " |")
    lines.append("| " + " | ".join("---" for _ in cols) + " |")
    shows = [(style or {}).get(c, fmt) for c in cols]
    for row in df.itertuples(index=False, name=None):
        lines.append("| " + " | ".join(_md_cell(v, shows[i]) for i, v in enumerate(row)) + " |")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- writers


def _w_csv(df: pd.DataFrame, fh: BinaryIO, name: str) -> None:
    fh.write(_flat(df).to_csv(index=False).encode("utf-8"))


def _w_md(df: pd.DataFrame, fh: BinaryIO, name: str, style: Mapping | None = None) -> None:
    fh.write(to_markdown(df, name, style).encode("utf-8"))


def _w_parquet(df: pd.DataFrame, fh: BinaryIO, name: str) -> None:
    buf = io.BytesIO()
    _flat(df, keep_bytes=True).to_parquet(buf, index=False)
    fh.write(buf.getvalue())


def _w_xlsx(df: pd.DataFrame, fh: BinaryIO, name: str) -> None:
    flat = _flat(df)
    for c in flat.columns:
        if flat[c].dtype == object or pd.api.types.is_string_dtype(flat[c].dtype):
            flat[c] = [v[:32767] if isinstance(v, str) else v for v in flat[c]]
    buf = io.BytesIO()
    sheet = re.sub(r"[\[\]:*?/\\]", "_", name)[:31] or "table"
    flat.to_excel(buf, index=False, sheet_name=sheet, engine="openpyxl")
    fh.write(buf.getvalue())


def _w_json(df: pd.DataFrame, fh: BinaryIO, name: str) -> None:
    recs = [{str(k): _jsonable(v) for k, v in r.items()} for r in df.to_dict("records")]
    fh.write(json.dumps(recs, ensure_ascii=False, indent=1, allow_nan=False).encode("utf-8"))


WRITERS: dict[str, Callable[[pd.DataFrame, BinaryIO, str], None]] = {
    "csv": _w_csv, "md": _w_md, "parquet": _w_parquet, "xlsx": _w_xlsx, "json": _w_json,
}


def _tables(obj: Any, name: str | None) -> dict[str, pd.DataFrame]:
    if isinstance(obj, pd.DataFrame):
        return {name or "table": obj}
    if hasattr(obj, "_asdict") and callable(obj._asdict):  # NamedTuple results (reinterpret)
        obj = obj._asdict()
    if isinstance(obj, Mapping):
        out = {}
        for k, v in obj.items():
            if not isinstance(v, pd.DataFrame):
                raise UsageError(f"{k!r} is a {type(v).__name__}, not a DataFrame")
            out[f"{name}_{k}" if name else str(k)] = v
        return out
    if isinstance(obj, (tuple, list)) and all(isinstance(v, pd.DataFrame) for v in obj):
        base = name or "table"
        return {f"{base}_{i + 1}": v for i, v in enumerate(obj)}
    raise UsageError(f"cannot export {type(obj).__name__}: give a DataFrame or a dict of DataFrames")


def _safe(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._")
    return s or "table"


def export(tables_or_findings: Any, folder: str | os.PathLike,
           formats: Iterable[str] | str = EXPORT_FORMATS, name: str | None = None, *,
           corpus: Any = None) -> list[Path]:
    """Write tables or findings to ``folder`` in several formats, atomically.

    Parameters
    ----------
    tables_or_findings : DataFrame, dict of DataFrames, or a result tuple
        One table, several (one file per table per format), or a result
        such as :func:`animre.reinterpret`'s (values, ranking).
    folder : path
        Output folder (created if missing).
    formats : iterable of str
        Any of ``csv``, ``md`` (wiki pipe table), ``parquet``, ``xlsx``, ``json``.
    name : str, optional
        File name stem (a prefix for dicts); default ``table`` / the dict keys.
    corpus : Corpus, optional
        Markdown tables named like a corpus table write their cells as the
        spec reads them (magic values, flags and ids in hex, see
        :mod:`animre.base.display`); the other formats keep plain values.

    Returns
    -------
    list of Path
        The written files. Either all are written or, after an error, none
        is changed (temporary files are removed).

    Examples
    --------
    >>> import pandas as pd, tempfile
    >>> out = export(pd.DataFrame({"a": [1, 2]}), tempfile.mkdtemp(), ["csv", "md"], name="demo")
    >>> [p.name for p in out]
    ['demo.csv', 'demo.md']
    """
    fmts = [formats] if isinstance(formats, str) else list(formats)
    unknown = [f for f in fmts if f not in WRITERS]
    if unknown:
        raise UsageError(f"unknown export format(s) {', '.join(unknown)}; known: {', '.join(WRITERS)}")
    tables = _tables(tables_or_findings, name)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    jobs = [(folder / f"{_safe(t)}.{_EXT[f]}", f, t, df) for t, df in tables.items() for f in fmts]

    def write(fh, fmt, t, df):
        if fmt == "md" and corpus is not None and t in getattr(corpus, "tables", {}):
            return _w_md(df, fh, t, formatters(corpus.columns(t)))
        return WRITERS[fmt](df, fh, t)

    return write_all_atomic([(path, lambda fh, fmt=fmt, t=t, df=df: write(fh, fmt, t, df))
                             for path, fmt, t, df in jobs])




write_tables = export  #: the same function under a name that says what it writes
