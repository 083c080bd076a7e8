"""Tables shown the way claims read them: every cell through the one formatter.

A corpus table is a plain DataFrame (its values stay numbers); shown in a
notebook through :class:`TableView` (``corpus.show(table)``), magic values,
flags, hashes and ids print in the same hex as the claims (``0x0202``,
``0xE808122D``), integers with gaps stay integers, floats keep their type's
precision and long hashes are shortened (the full value in a tooltip).
Which columns are hex is decided by :func:`animre.display.formatters` from
the spec's column info (``corpus.columns(table)``). :func:`counterexamples`
turns a claim's counterexamples (a list of dicts) into a small table whose
``found`` reads like its ``expected``.

Like :mod:`animre.display`, this module imports nothing else from animre,
so any layer may show a table through it.

Examples
--------
>>> import pandas as pd
>>> info = pd.DataFrame({"column": ["flags", "speed"], "type": ["u2", "u2"], "doc": ["", ""],
...                      "magic": [False, False]})
>>> v = TableView(pd.DataFrame({"file": ["a.mot"], "flags": [514], "speed": [70]}), info)
>>> print(v)
 file  flags speed
a.mot 0x0202    70
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from .display import fmt, formatters

__all__ = ["TableView", "counterexamples", "show_table", "HASH_CHARS"]

#: Characters of a long hex hash (a sha256) shown in a table; the full value is in the cell's tooltip.
HASH_CHARS = 12
_HASH = re.compile(r"^[0-9a-f]{32,}$")
_HEX_TOKEN = re.compile(r"0x([0-9A-Fa-f]+)")
COUNTEREXAMPLE_COLUMNS = ["file", "offset", "expected", "found", "detail"]


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
    return isinstance(v, (int, float)) and not isinstance(v, bool) or type(v).__module__ == "numpy"


def _short(s: str) -> str:
    return s[:HASH_CHARS] + "…" if _HASH.match(s) else s


def _like(expected: Any, value: Any) -> str:
    """``value`` written like ``expected``: in hex with the same digits when ``expected`` quotes hex."""
    if isinstance(expected, str) and not isinstance(value, bool):
        m = _HEX_TOKEN.search(expected)
        if m and isinstance(value, (int, float)) and value == int(value):
            return fmt(int(value), hex_digits=len(m.group(1)))
    return fmt(value, max_len=80)


def counterexamples(cases: Iterable[Mapping[str, Any]] | None, *, limit: int | None = 10,
                    title: str | None = None) -> TableView:
    """A claim's counterexamples as a small table: file, offset, expected, found, detail.

    ``offset`` (where the value found was read) prints in decimal and hex;
    ``found`` in the reading of ``expected`` (hex with the same digits when
    ``expected`` quotes a hex value). ``limit`` rows are shown, and the total.

    Examples
    --------
    >>> cases = [{"file": "agg/HEROES2.AGG", "offset": 158, "expected": "0xE808122D", "value": 3892843054,
    ...           "detail": "GOBLIN.ICN"}]
    >>> print(counterexamples(cases))
               file       offset   expected      found     detail
    agg/HEROES2.AGG 158 (0x009E) 0xE808122D 0xE808122E GOBLIN.ICN
    """
    rows = list(cases) if isinstance(cases, Iterable) and not isinstance(cases, (str, bytes)) else []
    frame = pd.DataFrame([{"file": r.get("file"), "offset": _offset(r.get("offset")),
                           "expected": fmt(r.get("expected"), max_len=80),
                           "found": _like(r.get("expected"), r.get("value")), "detail": r.get("detail")}
                          for r in rows], columns=COUNTEREXAMPLE_COLUMNS)
    return TableView(frame, rows=limit, title=title)


def _offset(v: Any) -> str:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v:
        return fmt(v)
    o = int(v)
    return f"{o} (0x{o:0{max(4, (o.bit_length() + 7) // 8 * 2)}X})"


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
            raise KeyError(f"no column(s) {', '.join(map(repr, missing))}; columns: {', '.join(map(str, frame.columns))}")
        frame = frame[cols]
    return TableView(frame, info, rows=rows, title=title)
