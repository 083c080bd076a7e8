"""The claims board: every claim of the notes checked on the corpus, with its counterexamples."""

from __future__ import annotations

import html
from collections.abc import Sequence

import ipywidgets as w
import pandas as pd

from ... import research
from ...base.errors import UsageError
from ...base.tableview import counterexample_table
from .. import plots
from ..png import figure_png, show_png
from .common import df_html, shown_failure

__all__ = ["ClaimsBoard", "claims_board"]


class ClaimsBoard:
    """The notes' claims checked on the corpus: a board and each claim's counterexamples.

    Attributes
    ----------
    widget : ipywidgets.VBox
        The container (CSS class ``animre-claims``).
    summary : DataFrame
        One row per claim, from :func:`animre.research.claims` (claim, format,
        source, holds, tested, fails, share, verdict, holds_all, counterexamples, error).
    details : DataFrame
        The counterexamples of the selected claim (file, offset, expected,
        value found, detail).
    figure : Figure
    """

    def __init__(self, corpus, formats: Sequence[str] | None = None):
        self.corpus = corpus
        self.summary = research.claims(corpus, formats=formats)
        self.figure = plots.claims_board(self.summary)
        self.details = pd.DataFrame()
        opts = [(f"{i}: [{r.get('format', '')}] {r.get('verdict', '')}: {r['claim']}", i)
                for i, (_, r) in enumerate(self.summary.iterrows())]
        self.claim = w.Dropdown(options=opts, description="claim", layout=w.Layout(width="760px"))
        self.board = w.Image(format="png")
        show_png(self.board, figure_png(self.figure))  # at its own pixel size, not stretched
        self.detail = w.HTML()
        self.claim.observe(lambda ch: self._safely(), "value")
        self.widget = w.VBox([w.HTML("<b>Claims board</b>: every claim of the notes, tested on the corpus."),
                              self.board, self.claim, self.detail])
        self.widget.add_class("animre-claims")
        if opts:
            self._safely()

    def _safely(self) -> None:
        """A pick: the claim's counterexamples, or the failure shown in their place."""
        def failed(text: str) -> None:
            self.details = pd.DataFrame()
            self.detail.value = text
        shown_failure(failed, f"showing claim {self.claim.value}", self._show)

    def select(self, claim: int) -> ClaimsBoard:
        """Show the counterexamples of claim number ``claim`` (row of :attr:`summary`).

        Examples
        --------
        >>> board = claims_board(corpus, formats=["frm"])
        >>> byte_0 = board.summary.index[board.summary["claim"].str.contains("byte 0")][0]
        >>> board.select(byte_0).details["file"].tolist()
        ['frm/ODDMGFRM.BIN']
        """
        if not 0 <= claim < len(self.summary):
            raise UsageError(f"no claim {claim}; there are {len(self.summary)}")
        if self.claim.value != claim:
            self.claim.value = claim  # the observer shows it
        else:
            self._show()
        return self

    def _show(self) -> None:
        row = self.summary.iloc[self.claim.value]
        ce = row.get("counterexamples")
        self.details = pd.DataFrame(list(ce) if isinstance(ce, (list, tuple)) else [],
                                    columns=["file", "offset", "expected", "value", "detail"])
        shown = counterexample_table(list(ce) if isinstance(ce, (list, tuple)) else [], limit=None)
        bad = row["tested"] and row["holds"] < row["tested"]
        colour = "#d1495b" if bad else "#3a9d5d"
        err = row.get("error")
        err_html = "" if err is None or (isinstance(err, float) and pd.isna(err)) or err == "" else \
            f"<br><span style='color:#d1495b'>check failed: {html.escape(str(err))}</span>"
        self.detail.value = (
            f"<div style='white-space: normal; max-width: 760px'><b>{html.escape(str(row['claim']))}</b><br>"
            f"<i>source: {html.escape(str(row.get('source', '')))}</i><br>"
            f"<span style='color:{colour}; font-weight:bold'>{html.escape(str(row.get('verdict', '')))}</span>"
            f"{err_html}{self._copies_html(row)}</div>counterexamples (offset: where the value found was read):"
            + df_html(shown))


    @staticmethod
    def _copies_html(row: pd.Series) -> str:
        copies = row.get("copies")
        if not isinstance(copies, (list, tuple)) or not copies:
            return ""
        names = ", ".join(html.escape(str(c)) for c in copies[:5]) + (" ..." if len(copies) > 5 else "")
        return (f"<br><i>{len(copies)} byte-identical cop{'y' if len(copies) == 1 else 'ies'} of other files "
                f"counted once: {names}</i>")


def claims_board(corpus, formats: Sequence[str] | None = None) -> ClaimsBoard:
    """Every claim of the notes checked on the corpus, with the counterexamples of each.

    Examples
    --------
    >>> board = claims_board(corpus, formats=["frm"])
    >>> len(board.summary)
    9
    """
    return ClaimsBoard(corpus, formats)
