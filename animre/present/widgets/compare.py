"""The compare view: one field across every file keyed by record, as a grid and a plot."""

from __future__ import annotations

import html
from collections.abc import Sequence

import ipywidgets as w
import pandas as pd

from ... import research
from ...base.display import fmt as show
from ...base.display import formatters
from ...base.errors import UsageError
from .. import plots
from ..png import figure_png, show_png
from .common import shown_failure
from .css import HEX_CSS

__all__ = ["GRID_RECORDS", "GRID_FILES", "CompareView", "compare_view"]


#: The compare view's HTML grid shows at most this many records and files (those with differing cells first).
GRID_RECORDS = 80


GRID_FILES = 200


class CompareView:
    """One field across every file keyed by record: table, column and key pickers, the grid, a plot.

    Attributes
    ----------
    widget : ipywidgets.VBox
        The container (CSS class ``animre-compare``).
    result : Comparison
        From :func:`animre.research.compare` (values, differs, common, offsets).
    grid_html : str
        The grid as an HTML table; differing cells carry the class ``diff``
        and ``data-offset`` (their byte offset).
    figure : Figure
        :func:`animre.present.plots.compare_grid` of the result.
    """

    def __init__(self, corpus, table: str | None = None, column: str | None = None,
                 by: str | Sequence[str] | None = None):
        self.corpus = corpus
        names = [t for t in corpus.tables if t != "files" and len(corpus.tables[t])
                 and "file" in corpus.tables[t].columns]
        if not names:
            raise UsageError("the corpus has no table to compare")
        self._busy = False
        self._shown_table: str | None = None
        self.table = w.Dropdown(options=names, description="table", layout=w.Layout(width="320px"))
        self.column = w.Dropdown(options=[], description="column", layout=w.Layout(width="320px"))
        self.by = w.Text(value="", description="by", placeholder="record key(s), comma-separated",
                         layout=w.Layout(width="320px"))
        self.message = w.HTML()
        self.grid = w.HTML()
        self.plot = w.Image(format="png")
        self.table.observe(lambda ch: self._busy or self._safely(lambda: self.select(table=ch["new"])), "value")
        self.column.observe(lambda ch: self._busy or self._safely(lambda: self.select(column=ch["new"])), "value")
        self.by.observe(lambda ch: self._busy or self._safely(lambda: self.select(by=ch["new"])), "value")
        self.widget = w.VBox([
            w.HTML("<b>Compare</b>: one field in every file, by record; red cells differ from the "
                   "record's most common value."),
            w.HBox([self.table, self.column, self.by]), self.message, self.plot, self.grid])
        self.widget.add_class("animre-compare")
        self.result = None
        self.figure = None
        self.select(table=table or names[0], column=column, by=by)

    @property
    def grid_html(self) -> str:
        return self.grid.value

    def _safely(self, action) -> None:
        """A pick: its grid, or its failure shown in place of the grid (nothing stale beside it)."""
        def failed(text: str) -> None:
            self.result = self.figure = None
            self.message.value = text
            self.grid.value = ""
            show_png(self.plot, b"")
        shown_failure(failed, f"comparing {self.table.value}.{self.column.value}", action)

    def select(self, table: str | None = None, column: str | None = None,
               by: str | Sequence[str] | None = None) -> CompareView:
        """Compare ``table.column`` across files, keyed by ``by`` (default: the table's record id).

        Examples
        --------
        >>> view = compare_view(corpus, "af_moves", "unknown_9")
        >>> int(view.result.differs.to_numpy().sum()) == view.grid_html.count('class="diff"')
        True
        """
        self._busy = True
        try:
            if table is not None and table != self._shown_table or not self.column.options:
                table = table or self.table.value
                if table not in self.table.options:
                    raise UsageError(f"no table {table!r} to compare; tables: {', '.join(self.table.options)}")
                keys = set(self.corpus.keys(table)) if hasattr(self.corpus, "keys") else {"file"}
                cols = [c for c in self.corpus.tables[table].columns if c not in keys]
                self.table.value = table
                self.column.options = cols
                self.column.value = column if column in cols else cols[0]
                self._shown_table = table  # a pick in the table dropdown changes the value before this runs
            elif column is not None:
                if column not in self.column.options:
                    raise UsageError(f"no column {column!r} in {self.table.value}")
                self.column.value = column
            if by is not None:
                self.by.value = by if isinstance(by, str) else ", ".join(by)
        finally:
            self._busy = False
        self._show()
        return self

    def _show(self) -> None:
        keys = [k.strip() for k in self.by.value.split(",") if k.strip()] or None
        try:
            res = research.compare(self.corpus, self.table.value, self.column.value, by=keys)
        except UsageError as e:
            self.result = self.figure = None
            self.message.value = f"<span style='color:#d1495b'>{html.escape(str(e))}</span>"
            self.grid.value = ""
            show_png(self.plot, b"")
            return
        self.result = res
        style = formatters(self.corpus.columns(self.table.value) if hasattr(self.corpus, "columns") else None)
        value = style.get(self.column.value, show)
        n = int(res.differs.to_numpy().sum())
        self.message.value = (f"{len(res.values)} files x {res.values.shape[1]} records; "
                              f"<b style='color:{'#d1495b' if n else '#3a9d5d'}'>{n} cell(s) differ</b>")
        self.figure = plots.compare_grid(res)
        show_png(self.plot, figure_png(self.figure))
        files, cols = plots.compare_subset(res.differs, GRID_RECORDS, GRID_FILES)
        vals = res.values.loc[files, cols].to_numpy(dtype=object)
        offs = res.offsets.reindex(index=files, columns=cols).to_numpy(dtype=object)
        diff = res.differs.loc[files, cols].to_numpy(dtype=bool)
        head = "".join(f"<th>{html.escape(show(c))}</th>" for c in cols)
        rows = []
        for i, f in enumerate(files):
            cells = []
            for j in range(len(cols)):
                v = vals[i, j]
                if pd.isna(v) if not isinstance(v, (list, tuple, bytes)) else False:
                    cells.append('<td class="absent"></td>')
                    continue
                o = offs[i, j]
                attr = "" if pd.isna(o) else f' data-offset="{int(o)}" title="offset {int(o)} (0x{int(o):X})"'
                cls = ' class="diff"' if diff[i, j] else ""
                cells.append(f"<td{cls}{attr}>{html.escape(value(v))}</td>")
            rows.append(f"<tr><th>{html.escape(str(f))}</th>{''.join(cells)}</tr>")
        cut = ""
        if len(cols) < res.values.shape[1] or len(files) < len(res.values):
            cut = (f"<p>showing {len(files)} of {len(res.values)} files and {len(cols)} of "
                   f"{res.values.shape[1]} records (records with differing cells first); the whole grid is "
                   f"<code>view.result.values</code></p>")
        self.grid.value = (HEX_CSS + cut + f"<table class='animre-grid'><tr><th>"
                           f"{html.escape(str(res.values.columns.name or ''))}</th>{head}</tr>{''.join(rows)}</table>")


def compare_view(corpus, table: str | None = None, column: str | None = None,
                 by: str | Sequence[str] | None = None) -> CompareView:
    """One field across every file keyed by record, differing cells highlighted (see :class:`CompareView`).

    Examples
    --------
    >>> view = compare_view(corpus, "frm", "unknown_magic")
    >>> view.result.differs.index[view.result.differs.iloc[:, 0]].tolist()
    ['frm/ODDMGFRM.BIN']
    """
    return CompareView(corpus, table, column, by)
