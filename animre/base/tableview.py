"""Tables on screen: every cell through the one formatter, in a notebook, the report and the claims board.

A corpus table is a plain DataFrame (its values stay numbers); shown in a
notebook through :class:`TableView` (``corpus.show(table)``), magic values,
flags, hashes and ids print in the same hex as the claims (``0x0202``,
``0xE808122D``), integers with gaps stay integers, floats keep their type's
precision and long hashes are shortened to :data:`HASH_CHARS` digits (the
full value in a tooltip). Which columns are hex is decided by
:func:`animre.base.display.formatters` from the spec's column info
(``corpus.columns(table)``). The report writes its tables with
:func:`html_table` (shares as percentages, other statistics to 4
significant digits). A claim's counterexamples are one small table,
:func:`counterexamples`, whose ``found`` reads like its ``expected``; the
report and the claims board show the same (:func:`counterexample_table`).

Like :mod:`animre.base.display`, this module imports nothing else from animre,
so any layer may show a table through it (``Corpus.show`` does).

Examples
--------
>>> import pandas as pd
>>> info = pd.DataFrame({"column": ["flags", "speed"], "type": ["u2", "u2"], "doc": ["", ""],
...                      "magic": [False, False]})
>>> v = TableView(pd.DataFrame({"file": ["a.mot"], "flags": [514], "speed": [70]}), info)
>>> print(v)
 file  flags speed
a.mot 0x0202    70
>>> "title=" in html_table(pd.DataFrame({"sha256": ["ab" * 32]}))
True
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .display import fmt, formatters

__all__ = ["TableView", "counterexamples", "counterexample_table", "show_table", "html_table", "value_html",
           "stat", "HASH_CHARS", "HASH", "MAX_ROWS", "MAX_COUNTEREXAMPLES", "COUNTEREXAMPLE_COLUMNS",
           "SHARES", "STATISTICS"]

#: Characters of a long hex hash (a sha256) shown in a table; the full value is in the cell's tooltip.
HASH_CHARS = 12
#: A hash value (hex digest) is shown by its first :data:`HASH_CHARS` digits.
HASH = re.compile(r"^[0-9a-f]{32,128}$")
HEX_TOKEN = re.compile(r"0x([0-9A-Fa-f]+)")
#: Rows of an HTML table shown before "... n more rows".
MAX_ROWS = 200
#: Counterexamples shown per failing claim (the count of all is beside them).
MAX_COUNTEREXAMPLES = 10
COUNTEREXAMPLE_COLUMNS = ["file", "offset", "expected", "found", "detail"]
#: Columns holding shares (shown as percentages) and other statistics (4 significant digits).
SHARES = frozenset({"share", "p_zeros", "p_distinct", "p_missing", "support", "groups_agree"})
STATISTICS = frozenset({"p_value", "baseline", "mean", "entropy", "ratio", "std"})


class TableView:
    """A DataFrame shown through the one formatter (HTML in a notebook, text elsewhere).

    Parameters
    ----------
    frame : DataFrame
        The rows to show (kept unchanged in :attr:`frame`).
    info : DataFrame, optional
        The spec's column info (``corpus.columns(table)``: column, type, doc,
        magic) deciding hex digits and float precision per column.
    rows : int, optional
        Show at most this many rows (the first ones; the total is said).
    title : str, optional
        A caption.
    style : mapping, optional
        ``{column: f(value) -> str}`` overriding the spec's formatters.

    Examples
    --------
    >>> v = TableView(pd.DataFrame({"sha256": ["ab" * 32], "n": [1.0]}))
    >>> v.text().loc[0, "sha256"], v.text().loc[0, "n"]
    ('abababababab…', '1.0')
    """

    def __init__(self, frame: pd.DataFrame, info: pd.DataFrame | None = None, *, rows: int | None = None,
                 title: str | None = None, style: Mapping[str, Callable[[Any], str]] | None = None):
        self.frame = frame
        self.rows = rows
        self.title = title
        self.style = {**formatters(info), **(style or {})}

    def _cell(self, column: str, v: Any) -> str:
        f = self.style.get(str(column))
        return f(v) if f is not None else fmt(v)

    def _shown(self) -> pd.DataFrame:
        return self.frame if self.rows is None else self.frame.head(self.rows)

    def text(self, *, shorten: bool = True) -> pd.DataFrame:
        """The shown rows as the formatter writes them (a DataFrame of strings, hashes shortened).

        Examples
        --------
        >>> TableView(pd.DataFrame({"x": [1, None]}, dtype="Int64")).text()["x"].tolist()
        ['1', '']
        """
        df = self._shown()
        out = {}
        for c in df.columns:
            cells = [self._cell(c, v) for v in df[c].tolist()]
            out[c] = [_short(s) for s in cells] if shorten else cells
        return pd.DataFrame(out, index=df.index, columns=df.columns)

    def _caption(self) -> str:
        n, shown = len(self.frame), len(self._shown())
        more = f"{shown} of {n} rows" if shown < n else ""
        return " · ".join(x for x in (self.title or "", more) if x)

    def __repr__(self) -> str:
        body = self.text().to_string(index=False)
        cap = self._caption()
        return f"{cap}\n{body}" if cap else body

    def _repr_html_(self) -> str:
        df = self._shown()
        head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
        body = []
        for row in zip(*(df[c].tolist() for c in df.columns)) if len(df.columns) else ():
            cells = []
            for c, v in zip(df.columns, row):
                full = self._cell(c, v)
                short = _short(full)
                tip = f' title="{html.escape(full)}"' if short != full else ""
                align = ' style="text-align:right"' if _numeric(v) else ""
                cells.append(f"<td{tip}{align}>{html.escape(short)}</td>")
            body.append("<tr>" + "".join(cells) + "</tr>")
        cap = self._caption()
        caption = f"<caption style='caption-side:bottom'>{html.escape(cap)}</caption>" if cap else ""
        return (f"<table class='dataframe animre-table'>{caption}<thead><tr>{head}</tr></thead>"
                f"<tbody>{''.join(body)}</tbody></table>")


def _numeric(v: Any) -> bool:
    """A number (right-aligned): Python or numpy ints and floats, never booleans."""
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))


def _missing(v: Any) -> bool:
    return v is None or (isinstance(v, (float, np.floating)) and np.isnan(v)) or v is pd.NA


def _short(s: str) -> str:
    return s[:HASH_CHARS] + "…" if HASH.match(s) else s


def _like(expected: Any, value: Any) -> str:
    """``value`` written like ``expected``: in hex with the same digits when ``expected`` quotes hex."""
    if isinstance(expected, str) and _numeric(value) and not _missing(value):
        m = HEX_TOKEN.search(expected)
        if m and value == int(value):
            return fmt(int(value), hex_digits=len(m.group(1)))
    return fmt(value, max_len=80)


def _offset(v: Any) -> str:
    """Where a value was read, in decimal and hex (``158 (0x9E)``); empty when unknown."""
    if not _numeric(v) or _missing(v):
        return fmt(v)
    o = int(v)
    return f"{o} (0x{o:X})"


def counterexamples(cases: Iterable[Mapping[str, Any]] | None, *, limit: int | None = MAX_COUNTEREXAMPLES,
                    title: str | None = None) -> TableView:
    """A claim's counterexamples as a small table: file, offset, expected, found, detail.

    ``offset`` (where the value found was read) prints in decimal and hex;
    ``found`` in the reading of ``expected`` (hex with the same digits when
    ``expected`` quotes a hex value); ``detail`` ends with the files of the
    same bytes (``copies``), which count once. ``limit`` rows are shown, and the total.

    Examples
    --------
    >>> cases = [{"file": "agg/HEROES2.AGG", "offset": 158, "expected": "0xE808122D", "value": 3892843054,
    ...           "detail": "GOBLIN.ICN"}]
    >>> print(counterexamples(cases))
               file     offset   expected      found     detail
    agg/HEROES2.AGG 158 (0x9E) 0xE808122D 0xE808122E GOBLIN.ICN
    """
    rows = list(cases) if isinstance(cases, Iterable) and not isinstance(cases, (str, bytes, Mapping)) else []
    frame = pd.DataFrame([{"file": fmt(r.get("file")), "offset": _offset(r.get("offset")),
                           "expected": fmt(r.get("expected"), max_len=80),
                           "found": _like(r.get("expected"), r.get("value")),
                           "detail": _detail(r.get("detail"), r.get("copies"))}
                          for r in rows], columns=COUNTEREXAMPLE_COLUMNS)
    return TableView(frame, rows=limit, title=title)


def _detail(detail: Any, copies: Any) -> str:
    """A counterexample's detail, then the byte-identical copies of its file (counted once, listed here)."""
    text = fmt(detail, max_len=120)
    names = [str(c) for c in copies] if isinstance(copies, (list, tuple)) else []
    if not names:
        return text
    more = f" ... ({len(names)} copies)" if len(names) > 3 else ""
    also = f"the same bytes as {', '.join(names[:3])}{more}"
    return f"{text}; {also}" if text else also


def counterexample_table(cases: Iterable[Mapping[str, Any]] | None,
                         limit: int | None = MAX_COUNTEREXAMPLES) -> pd.DataFrame:
    """The first ``limit`` rows of :func:`counterexamples` as text (the claims board's and the report's cells).

    Examples
    --------
    >>> t = counterexample_table([{"file": "a.bin", "offset": 4, "expected": "0x01", "value": 0, "detail": ""}])
    >>> t.iloc[0].tolist()
    ['a.bin', '4 (0x4)', '0x01', '0x00', '']
    """
    return counterexamples(cases, limit=limit).text(shorten=False)


def show_table(frame: pd.DataFrame, info: pd.DataFrame | None = None, columns: Sequence[str] | str | None = None,
               *, rows: int | None = 20, title: str | None = None) -> TableView:
    """Some columns and the first ``rows`` rows of a table, through the formatter (see :class:`TableView`).

    Examples
    --------
    >>> print(show_table(pd.DataFrame({"a": [1, 2, 3], "b": [0.5, 1.5, 2.5]}), columns=["a"], rows=2))
    2 of 3 rows
    a
    1
    2
    """
    if columns is not None:
        cols = [columns] if isinstance(columns, str) else list(columns)
        missing = [c for c in cols if c not in frame.columns]
        if missing:
            raise KeyError(f"no column(s) {', '.join(map(repr, missing))}; "
                           f"columns: {', '.join(map(str, frame.columns))}")
        frame = frame[cols]
    return TableView(frame, info, rows=rows, title=title)


def stat(column: str, v: Any) -> str | None:
    """A statistic written for people: shares as percentages, other statistics to 4 significant digits.

    Returns None for a column that holds no statistic (its values go through :func:`animre.base.display.fmt`).

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
    """One cell's HTML: hashes shortened (the full value in a tooltip), statistics rounded, values formatted.

    Examples
    --------
    >>> value_html("share", 0.5), value_html("sha256", "ab" * 32).endswith(">abababababab&hellip;</code>")
    ('50%', True)
    """
    if isinstance(v, str) and HASH.match(v):
        return f'<code title="{html.escape(v)}">{html.escape(v[:HASH_CHARS])}&hellip;</code>'
    s = stat(column, v)
    if s is not None:
        return html.escape(s)
    f = (style or {}).get(column)
    return html.escape(f(v, max_len=160) if f is not None else fmt(v, max_len=160))


def html_table(df: pd.DataFrame | None, max_rows: int = MAX_ROWS, *,
               cell: Callable[[str, Any], str | None] | None = None,
               style: dict[str, Callable[..., str]] | None = None) -> str:
    """An HTML table; every value through the one formatter (hex where the spec says), numbers right-aligned.

    Examples
    --------
    >>> html_table(pd.DataFrame({"n": [3]}))
    '<table class="t"><thead><tr><th>n</th></tr></thead><tbody><tr><td class="n">3</td></tr></tbody></table>'
    """
    if df is None or not len(df):
        return '<p class="note">none</p>'
    shown = df.head(max_rows)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in shown.columns)
    rows = []
    for rec in shown.itertuples(index=False, name=None):
        tds = []
        for c, v in zip(shown.columns, rec, strict=True):
            custom = cell(str(c), v) if cell is not None else None
            if custom is not None:
                tds.append(f"<td>{custom}</td>")
                continue
            tds.append(f'<td class="n">{value_html(str(c), v, style)}</td>' if _numeric(v) else
                       f"<td>{value_html(str(c), v, style)}</td>")
        rows.append("<tr>" + "".join(tds) + "</tr>")
    more = f'<p class="note">... {len(df) - max_rows} more rows</p>' if len(df) > max_rows else ""
    return f'<table class="t"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>{more}'
