"""What the widgets share: small tables as HTML through the one formatter, the old ``fmt=`` keyword.

Examples
--------
>>> import pandas as pd
>>> "animre-kv" in df_html(pd.DataFrame({"x": [1.5]}))
True
"""

from __future__ import annotations

import warnings

import pandas as pd

from ...display import fmt as show

__all__ = ["df_html", "format_keyword"]


def df_html(df: pd.DataFrame, max_rows: int = 30) -> str:
    if df is None or not len(df):
        return "<i>none</i>"
    more = f"<br><i>... {len(df) - max_rows} more rows</i>" if len(df) > max_rows else ""
    head = df.head(max_rows).copy()
    for c in head.columns:  # lists, numpy scalars, floats: as the one formatter writes them
        if head[c].dtype == object or pd.api.types.is_float_dtype(head[c].dtype):
            head[c] = [show(v, max_len=120) for v in head[c]]
    return head.to_html(index=False, classes="animre-kv", border=0, na_rep="") + more


def format_keyword(format: str | None, fmt: str | None, where: str) -> str | None:
    """``format=``, or the old ``fmt=`` keyword with a :class:`DeprecationWarning` (kept for one release).

    Examples
    --------
    >>> format_keyword("frm", None, "run")
    'frm'
    """
    if fmt is None:
        return format
    if format is not None and format != fmt:
        raise TypeError(f"{where}: give format= only (fmt= is its deprecated name)")
    warnings.warn(f"{where}(fmt=) is deprecated: use format=", DeprecationWarning, stacklevel=3)
    return fmt
