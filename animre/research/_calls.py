"""One way to call a research verb: ``f(corpus, table=None, *, ...)``, and how its result shows.

Results that hold several tables show them in a
notebook through :func:`frames_html`, every cell written by
:func:`animre.base.display.fmt`.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import pandas as pd

from ..base.display import fmt
from ..base.errors import UsageError
from ._util import resolve_table, unique_file_rows

__all__ = ["frames_html", "need_table", "HTML_ROWS"]

HTML_ROWS = 10  #: rows of each table a result shows in a notebook


def need_table(verb: str, corpus: Any, table: Any) -> Any:
    """``table``, or a :class:`~animre.base.errors.UsageError` naming the corpus' tables when it is missing.

    Examples
    --------
    >>> need_table("profile", None, "frm")
    'frm'
    """
    if table is not None:
        return table
    names = [t for t in getattr(corpus, "tables", {}) if t != "files"]
    known = f"; tables: {', '.join(names)}" if names else ""
    raise UsageError(f"{verb}(corpus, table) needs a table (a name or a DataFrame){known}")


def table_rows(verb: str, corpus: Any, table: Any, unique_files: bool) -> tuple[pd.DataFrame, str | None]:
    """The rows a verb works on: ``table`` (a name or a DataFrame) resolved, one row set per distinct file content
    when ``unique_files``; ``(rows, table name or None)``.

    Examples
    --------
    >>> rows, name = table_rows("profile", None, pd.DataFrame({"a": [1]}), False)
    >>> len(rows), name
    (1, None)
    """
    df, name = resolve_table(need_table(verb, corpus, table), corpus)
    return (unique_file_rows(df, corpus) if unique_files else df), name


def frames_html(title: str, frames: Mapping[str, pd.DataFrame], rows: int = HTML_ROWS) -> str:
    """HTML of a result's tables: a title, then each table's first ``rows`` rows, values through ``fmt``.

    Examples
    --------
    >>> import pandas as pd
    >>> h = frames_html("Coverage", {"per_file": pd.DataFrame({"share": [0.5]})})
    >>> "<b>Coverage</b>" in h and "per_file: 1 rows" in h and "0.5" in h
    True
    """
    parts = [f"<div><b>{html.escape(title)}</b>"]
    for name, df in frames.items():
        shown = df.head(rows).map(fmt) if isinstance(df, pd.DataFrame) else pd.DataFrame({name: df.head(rows).map(fmt)})
        parts.append(f"<p>{html.escape(name)}: {len(df)} rows</p>{shown.to_html(escape=True)}")
    return "".join(parts) + "</div>"
