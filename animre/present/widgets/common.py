"""What the widgets share: small tables as HTML through the one formatter, a failure shown in the widget,
the old ``fmt=`` keyword.

Examples
--------
>>> import pandas as pd
>>> "animre-kv" in df_html(pd.DataFrame({"x": [1.5]}))
True
>>> failure_html(ValueError("bad"), "reading x")
"<div class='animre-error' style='color:#d1495b; white-space: normal'>reading x failed: ValueError: bad</div>"
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import pandas as pd

from ...base.display import fmt as show

__all__ = ["df_html", "failure_html", "shown_failure", "failures_html"]


def df_html(df: pd.DataFrame, max_rows: int = 30) -> str:
    if df is None or not len(df):
        return "<i>none</i>"
    more = f"<br><i>... {len(df) - max_rows} more rows</i>" if len(df) > max_rows else ""
    head = df.head(max_rows).copy()
    for c in head.columns:  # lists, numpy scalars, floats: as the one formatter writes them
        if head[c].dtype == object or pd.api.types.is_float_dtype(head[c].dtype):
            head[c] = [show(v, max_len=120) for v in head[c]]
    return head.to_html(index=False, classes="animre-kv", border=0, na_rep="") + more


def failure_html(e: BaseException, what: str) -> str:
    """A failure as the widgets show it, in place of a result: what was tried, the error's type and message."""
    return ("<div class='animre-error' style='color:#d1495b; white-space: normal'>"
            f"{html.escape(what)} failed: {html.escape(type(e).__name__)}: {html.escape(str(e))}</div>")


def shown_failure(show: Callable[[str], Any], what: str, action: Callable[[], Any]) -> Any:
    """Run ``action``; any error is shown by ``show(html)`` (the widget's message) instead of escaping from a
    callback, where a browser would only log it and the widget would wait forever. Returns the action's value,
    or None when it failed."""
    try:
        return action()
    except Exception as e:  # noqa: BLE001 - a widget shows what went wrong in itself, never only in the log
        show(failure_html(e, what))
        return None


def failures_html(failures: pd.DataFrame | None, what: str = "could not be read") -> str:
    """Files a result left out, one line each (``file: message``): a file no format reads is a line of the
    result, not the end of it."""
    if failures is None or not len(failures):
        return ""
    lines = "".join(f"<br>{html.escape(str(r['file']))}: {html.escape(str(r['message']))}"
                    for _, r in failures.head(20).iterrows())
    more = f"<br>... {len(failures) - 20} more" if len(failures) > 20 else ""
    return (f"<div class='animre-failures' style='color:#d1495b; white-space: normal'>{len(failures)} file(s) "
            f"{html.escape(what)}, left out:{lines}{more}</div>")
