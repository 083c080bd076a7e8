"""The relations view: a table's findings ranked by what they explain, its classes of columns, its definitions."""

from __future__ import annotations

import html

import ipywidgets as w
import pandas as pd

from ... import research
from ...base.errors import UsageError
from ...base.tableview import html_table
from .common import df_html, shown_failure

__all__ = ["RelationsView", "relations_view", "FINDING_COLUMNS"]

#: Columns of a finding shown in the ranking.
FINDING_COLUMNS = ["target", "source", "relation", "parameter", "support", "groups_agree", "n_groups", "score",
                   "members"]


class RelationsView:
    """A table picker showing :func:`animre.research.relations` of the table in three parts.

    Attributes
    ----------
    widget : ipywidgets.VBox
        The container (CSS class ``animre-relations``).
    result : DataFrame
        Every row of ``research.relations`` for the table.
    findings : DataFrame
        The findings, best score first (``role == "finding"``).
    classes : DataFrame
        One row per class of columns equal (or affine copies) in every row: its
        name, its members (``"num_chunks = num_frame_chunks"``) and how each
        member follows from the name.
    definitions : DataFrame
        Computed columns against the columns they are computed from.
    details : DataFrame
        The counterexamples of the selected finding.
    """

    def __init__(self, corpus, table: str | None = None, **options):
        self.corpus = corpus
        self.options = options
        names = [t for t in corpus.tables if t != "files" and len(corpus.tables[t])]
        if not names:
            raise UsageError("the corpus has no table to relate columns of")
        self.result = self.findings = self.classes = self.definitions = self.details = pd.DataFrame()
        self._shown: str | None = None
        self.table = w.Dropdown(options=names, description="table", layout=w.Layout(width="320px"))
        self.finding = w.Dropdown(options=[], description="finding", layout=w.Layout(width="760px"))
        self.ranking, self.classes_html, self.definitions_html, self.detail = w.HTML(), w.HTML(), w.HTML(), w.HTML()
        self.table.observe(lambda ch: self._safely(lambda: self.select(table=ch["new"])), "value")
        self.finding.observe(lambda ch: self._safely(self._show), "value")
        self.widget = w.VBox([
            w.HTML("<b>Relations</b>: findings ranked by the bits they save (each fact once, no evidence from "
                   "a column computed from another), then the classes of equal columns and the definitions."),
            self.table, self.ranking, self.finding, self.detail,
            w.HTML("<b>Classes</b> (columns equal, or affine copies, in every row: one fact)"), self.classes_html,
            w.HTML("<b>Definitions</b> (computed columns against what they are computed from)"),
            self.definitions_html,
        ])
        self.widget.add_class("animre-relations")
        self._safely(lambda: self.select(table=table or names[0]))

    def _safely(self, action) -> None:
        def failed(text: str) -> None:
            self.ranking.value = text
            self.classes_html.value = self.definitions_html.value = self.detail.value = ""
        shown_failure(failed, f"relations of {self.table.value}", action)

    def select(self, table: str | None = None, finding: int | None = None) -> RelationsView:
        """Show the relations of ``table`` and the counterexamples of finding number ``finding`` (its rank, 0 first).

        Examples
        --------
        >>> view = relations_view(corpus, "flc_files")
        >>> view.findings.iloc[0]["target"], view.findings.iloc[0]["relation"]
        ('header.flicanim.anim_time', 'equal')
        >>> "header.len_file = file_size" in set(view.classes["members"])
        True
        """
        if table is not None and table != self._shown:
            if table not in self.table.options:
                raise UsageError(f"no table {table!r}; tables: {', '.join(self.table.options)}")
            self._shown = table
            self.table.value = table  # (its observer finds the table shown)
            try:
                self._compute(table)
            except Exception:
                self._shown = None  # picked again, it is computed again
                raise
        if finding is not None:
            if not 0 <= finding < len(self.findings):
                raise UsageError(f"no finding {finding}; there are {len(self.findings)}")
            if self.finding.value == finding:
                self._show()
            self.finding.value = finding  # the observer shows it
        return self

    def _compute(self, table: str) -> None:
        self.result = research.relations(self.corpus, table, **self.options)
        r = self.result
        self.findings = r[r["role"] == "finding"].reset_index(drop=True)
        in_class = pd.Series([role != "finding" and any({t, s} <= set(m.split(" = ")) for m in str(ms).split("; "))
                              for t, s, role, ms in zip(r["target"], r["source"], r["role"], r["members"])],
                             index=r.index, dtype=bool)
        same = r[in_class]
        builtin = same["source"].isin(["file_size", "row_in_file", "rows_in_file"])  # a source only: the member
        self.classes = same.assign(name=same["source"].where(~builtin, same["target"]),
                                   member=same["target"].where(~builtin, same["source"]))[
            ["members", "name", "member", "relation", "parameter", "role"]].reset_index(drop=True)
        self.definitions = r[r["role"] == "definition"].reset_index(drop=True)
        self.ranking.value = (f"<p>{len(self.findings)} finding(s) in {html.escape(table)}, "
                              f"{self.classes['members'].nunique()} class(es), {len(self.definitions)} "
                              f"definition(s)</p>" + (html_table(self.findings[FINDING_COLUMNS])
                                                      if len(self.findings) else "<i>no finding</i>"))
        self.classes_html.value = df_html(self.classes)
        self.definitions_html.value = df_html(self.definitions[["target", "source", "relation", "parameter",
                                                                "support", "members"]])
        opts = [(f"{i + 1}. {f.target} ~ {f.source}: {f.relation} {'' if f.parameter is None else f.parameter} "
                 f"({f.support:.0%}, {f.score:.0f} bits)", i) for i, f in enumerate(self.findings.itertuples())]
        self.finding.options = opts
        if opts:
            self.finding.value = 0
        self._show()

    def _show(self) -> None:
        if self.finding.value is None or not len(self.findings):
            self.details = pd.DataFrame()
            self.detail.value = ""
            return
        row = self.findings.iloc[self.finding.value]
        self.details = pd.DataFrame(list(row["counterexamples"] or []))
        self.detail.value = (f"<b>{html.escape(str(row['target']))} ~ {html.escape(str(row['source']))}</b>: "
                             f"{int(row['n_agree'])}/{int(row['n_rows'])} rows, {int(row['groups_agree'])}/"
                             f"{int(row['n_groups'])} groups agree; counterexamples:" + df_html(self.details))


def relations_view(corpus, table: str | None = None, **options) -> RelationsView:
    """A table's relations: the ranking, its classes of columns and its definitions (``options``: those of
    :func:`animre.research.relations`).

    Examples
    --------
    >>> view = relations_view(corpus, "flc_files")
    >>> "animre-relations" in view.widget._dom_classes and len(view.findings) >= 1
    True
    """
    return RelationsView(corpus, table, **options)
