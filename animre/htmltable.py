"""Tables and values as HTML for people: the report's and the claims board's cells.

Every value goes through the one formatter (:func:`animre.display.fmt`, with
the column's hex digits where the spec asks for them); hashes show their
first :data:`HASH_SHOWN` digits with the whole value in a ``title`` tooltip;
shares are percentages and other statistics keep 4 significant digits (no
``0.0005926709``); a claim's counterexamples are one small table
(:func:`counterexample_table`).

Examples
--------
>>> "title=" in table(pd.DataFrame({"sha256": ["ab" * 32]}))
True
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from .display import fmt

__all__ = ["table", "value_html", "stat", "counterexample_table", "HASH_SHOWN", "MAX_COUNTEREXAMPLES", "MAX_ROWS"]

#: Rows of a table shown before "... n more rows".
MAX_ROWS = 200
#: Counterexamples shown per failing claim (the count of all is beside them).
MAX_COUNTEREXAMPLES = 10
#: A hash value (hex digest) is shown by its first digits, the whole value in a tooltip.
HASH = re.compile(r"^[0-9a-f]{32,128}$")
HASH_SHOWN = 12
HEX_TEXT = re.compile(r"^-?0x([0-9A-F]+)$")
#: Columns holding shares (shown as percentages) and other statistics (4 significant digits).
SHARES = frozenset({"share", "p_zeros", "p_distinct", "p_missing", "support", "groups_agree"})
STATISTICS = frozenset({"p_value", "baseline", "mean", "entropy", "ratio", "std"})


def _e(v: Any) -> str:
    return html.escape(str(v))


def _missing(v: Any) -> bool:
    return v is None or (isinstance(v, (float, np.floating)) and np.isnan(v)) or v is pd.NA


def stat(column: str, v: Any) -> str | None:
    """A statistic written for people: shares as percentages, other statistics to 4 significant digits.

    Returns None for a column that holds no statistic (its values go through :func:`animre.display.fmt`).

    Examples
    --------
    >>> stat("share_typed", 0.0005926709), stat("p_value", 0.0005926709), stat("walk_speed", 0.5)
    ('0.0593%', '0.0005927', None)
    """
    if not isinstance(v, (float, np.floating)) or isinstance(v, bool) or _missing(v):
        return None
    if column in SHARES or column.startswith("share"):
        return f"{100 * float(v):.3g}%"
    if column in STATISTICS:
        return fmt(float(f"{float(v):.4g}"))
    return None


def value_html(column: str, v: Any, style: dict[str, Callable[..., str]] | None = None) -> str:
    """One cell's HTML: hashes shortened (the full value in a tooltip), statistics rounded, values formatted."""
    if isinstance(v, str) and HASH.match(v):
        return f'<code title="{_e(v)}">{_e(v[:HASH_SHOWN])}&hellip;</code>'
    s = stat(column, v)
    if s is not None:
        return _e(s)
    f = (style or {}).get(column)
    return _e(f(v, max_len=160) if f is not None else fmt(v, max_len=160))


def table(df: pd.DataFrame | None, max_rows: int = MAX_ROWS, *,
           cell: Callable[[str, Any], str | None] | None = None,
           style: dict[str, Callable[..., str]] | None = None) -> str:
    """An HTML table; every value through the one formatter (hex where the spec says), numbers right-aligned."""
    if df is None or not len(df):
        return '<p class="note">none</p>'
    shown = df.head(max_rows)
    head = "".join(f"<th>{_e(c)}</th>" for c in shown.columns)
    rows = []
    for rec in shown.itertuples(index=False, name=None):
        tds = []
        for c, v in zip(shown.columns, rec, strict=True):
            custom = cell(str(c), v) if cell is not None else None
            if custom is not None:
                tds.append(f"<td>{custom}</td>")
                continue
            num = isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
            tds.append(f'<td class="n">{value_html(str(c), v, style)}</td>' if num else
                       f"<td>{value_html(str(c), v, style)}</td>")
        rows.append("<tr>" + "".join(tds) + "</tr>")
    more = f'<p class="note">... {len(df) - max_rows} more rows</p>' if len(df) > max_rows else ""
    return f'<table class="t"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>{more}'


def counterexample_table(counterexamples: Any, limit: int | None = MAX_COUNTEREXAMPLES) -> pd.DataFrame:
    """A claim's counterexamples as text for people: file, offset, expected, found, detail.

    The one formatter of counterexamples (the claims board and the report):
    offsets in decimal and hex, values through :func:`animre.display.fmt`,
    a value found shown in the hex of its expected value when that is hex
    (``0xE808122D`` beside ``0xE808122E``, not ``3892843054``). At most
    ``limit`` rows.

    Examples
    --------
    >>> t = counterexample_table([{"file": "a.bin", "offset": 4, "expected": "0x01", "value": 0, "detail": ""}])
    >>> t.iloc[0].tolist()
    ['a.bin', '4 (0x4)', '0x01', '0x00', '']
    """
    items = list(counterexamples) if isinstance(counterexamples, (list, tuple)) else []
    rows = []
    for r in items[:limit]:
        exp, off = r.get("expected"), r.get("offset")
        m = HEX_TEXT.match(exp) if isinstance(exp, str) else None
        digits = len(m.group(1)) if m else None
        found = r.get("value")
        rows.append({"file": fmt(r.get("file")),
                     "offset": f"{int(off)} (0x{int(off):X})" if not _missing(off) else "",
                     "expected": fmt(exp, max_len=80),
                     "found": fmt(found, hex_digits=digits, max_len=80),
                     "detail": fmt(r.get("detail"), max_len=120)})
    return pd.DataFrame(rows, columns=["file", "offset", "expected", "found", "detail"])
