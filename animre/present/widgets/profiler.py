"""The column profiler: a column's profile, its histogram by file, bit set rates and exceptions."""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w
import pandas as pd

from ... import research
from ...base.display import fmt as show
from ...base.display import formatters
from ...base.errors import UsageError
from .. import plots
from ..png import figure_png, show_png
from .common import df_html, shown_failure

__all__ = ["ColumnProfiler", "column_profiler"]


class ColumnProfiler:
    """Table and column pickers showing :func:`animre.research.profile` of the column.

    Attributes
    ----------
    widget : ipywidgets.VBox
        The container (CSS class ``animre-profiler``).
    profile_row : Series
        The profile of the selected column (one row of ``research.profile``).
    exceptions : DataFrame
        Rows that break the column's near-constant (file, row, value, offset).
    figures : dict
        ``histogram`` and (integer columns) ``bit_rates`` figures.
    """

    def __init__(self, corpus, table: str | None = None, column: str | None = None):
        self.corpus = corpus
        names = [t for t in corpus.tables if t != "files" and len(corpus.tables[t])]
        if not names:
            raise UsageError("the corpus has no curated table to profile")
        self._busy = False
        self._cache: dict[tuple[str, str], pd.Series] = {}
        self._shown_table: str | None = None
        self.profile_row = pd.Series(dtype=object)
        self.exceptions = pd.DataFrame()
        self.figures: dict[str, Any] = {}
        self.table = w.Dropdown(options=names, description="table", layout=w.Layout(width="320px"))
        self.column = w.Dropdown(options=[], description="column", layout=w.Layout(width="320px"))
        self.summary = w.HTML()
        self.alerts = w.HTML()
        self.hist = w.Image(format="png")
        self.bits = w.Image(format="png")
        self.exc = w.HTML()
        self.table.observe(lambda ch: self._busy or self._safely(lambda: self.select(table=ch["new"])), "value")
        self.column.observe(lambda ch: self._busy or self._safely(lambda: self.select(column=ch["new"])), "value")
        self.widget = w.VBox([
            w.HTML("<b>Column profiler</b>: statistics, distribution by file, bits and exceptions."),
            w.HBox([self.table, self.column]),
            w.HBox([self.summary, w.VBox([self.alerts, self.exc])]),
            w.HBox([self.hist, self.bits]),
        ])
        self.widget.add_class("animre-profiler")
        self.select(table=table or names[0], column=column)

    @property
    def summary_html(self) -> str:
        return self.summary.value

    def _safely(self, action) -> None:
        """A pick: its profile, or its failure shown in place of the profile (nothing stale beside it)."""
        def failed(text: str) -> None:
            self.summary.value = text
            self.alerts.value = self.exc.value = ""
            show_png(self.hist, b"")
            show_png(self.bits, b"")
        shown_failure(failed, f"profiling {self.table.value}.{self.column.value}", action)

    def select(self, table: str | None = None, column: str | None = None) -> ColumnProfiler:
        """Show the profile of ``table.column`` (a new table selects its first value column).

        Examples
        --------
        >>> prof = column_profiler(corpus, "frm", "walk_speed")
        >>> prof.select(table="frm", column="unknown_magic").profile_row["n_distinct"].item()
        2
        """
        if table is not None and table != self._shown_table or not self.column.options:
            table = table or self.table.value
            if table not in self.table.options:
                raise UsageError(f"no curated table {table!r}; tables: {', '.join(self.table.options)}")
            cols = [c for c in self.corpus.tables[table].columns if c != "file"]
            self._busy = True
            try:
                self.table.value = table
                self.column.options = cols
                self.column.value = column if column in cols else cols[0]
                self._shown_table = table
            finally:
                self._busy = False
        elif column is not None:
            if column not in self.column.options:
                raise UsageError(f"no column {column!r} in {self.table.value}")
            self._busy = True
            try:
                self.column.value = column
            finally:
                self._busy = False
        self._show()
        return self

    def _profile(self, table: str, column: str) -> pd.Series:
        key = (table, column)
        if key not in self._cache:
            p = research.profile(self.corpus, table, columns=[column])
            self._cache[key] = p.iloc[0]
        return self._cache[key]

    def _show(self) -> None:
        table, column = self.table.value, self.column.value
        row = self._profile(table, column)
        self.profile_row = row
        stats = ["dtype", "count", "n_missing", "n_distinct", "p_distinct", "is_constant", "is_unique",
                 "min", "max", "mean", "zeros", "p_zeros", "monotonic", "entropy", "width", "most_common"]
        style = formatters(self.corpus.columns(table) if hasattr(self.corpus, "columns") else None,
                           pd.DataFrame([row]))
        value = style.get(column, show)
        shown = {k: value(row.get(k)) if k in ("min", "max") else
                 "[" + ", ".join(f"{value(v)} ({n})" for v, n in row.get(k)) + "]"
                 if k == "most_common" and isinstance(row.get(k), (list, tuple)) else show(row.get(k))
                 for k in stats if k in row.index}
        kv = "".join(f"<tr><th>{k}</th><td>{html.escape(shown[k])}</td></tr>" for k in shown)
        self.summary.value = f"<b>{html.escape(table)}.{html.escape(column)}</b><table class='animre-kv'>{kv}</table>"
        notes = row.get("notes")
        notes = dict(notes) if isinstance(notes, (list, tuple)) else {}
        alerts = row.get("alerts") if isinstance(row.get("alerts"), (list, tuple)) else []
        self.alerts.value = "<b>alerts</b><br>" + ("<br>".join(
            f"<code>{html.escape(a)}</code> {html.escape(str(notes.get(a, '')))}" for a in alerts) or "<i>none</i>")
        exc = row.get("exceptions")
        self.exceptions = pd.DataFrame(list(exc) if isinstance(exc, (list, tuple)) else [])
        exc_shown = self.exceptions.assign(value=[value(v) for v in self.exceptions["value"]]) \
            if "value" in self.exceptions.columns else self.exceptions
        self.exc.value = "<b>exceptions</b>" + df_html(exc_shown)
        df = self.corpus.tables[table]
        figs = {}
        col = df[column]
        if pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col) and col.notna().any():
            data = df[["file", column]] if "file" in df else df[[column]].assign(file=table)
            figs["histogram"] = plots.histogram_by_file(data, column=column)
        rates = row.get("bit_rates")
        if isinstance(rates, (list, tuple)) and len(rates):
            figs["bit_rates"] = plots.bit_rates(pd.Series(list(rates), dtype=float),
                                                title=f"{column}: bit set rates")
        self.figures = figs
        show_png(self.hist, figure_png(figs["histogram"]) if "histogram" in figs else b"")
        show_png(self.bits, figure_png(figs["bit_rates"]) if "bit_rates" in figs else b"")


def column_profiler(corpus, table: str | None = None, column: str | None = None) -> ColumnProfiler:
    """Table and column pickers with the column's profile, histogram by file, bit rates, exceptions.

    Examples
    --------
    >>> prof = column_profiler(corpus, "frm", "unknown_magic")
    >>> [e["file"] for e in prof.profile_row["exceptions"]]
    ['frm/ODDMGFRM.BIN']
    """
    return ColumnProfiler(corpus, table, column)
