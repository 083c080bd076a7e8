"""The reinterpret explorer: located bytes read under candidate types in every file, plotted and ranked."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

import ipywidgets as w

from ... import research
from ...base.errors import UsageError
from .. import plots
from ..png import figure_png, show_png
from .common import df_html, failure_html, failures_html

__all__ = ["ReinterpretExplorer", "reinterpret_explorer"]


def type_sizes() -> dict[str, int]:
    """Candidate type -> its size in bytes (from :data:`animre.research.TYPES`)."""
    return {t: int(v[0]) for t, v in research.TYPES.items()}


def located_size(message: str) -> int | None:
    """The byte size a research error names ("no candidate type reads N bytes")."""
    m = re.search(r"reads (\d+) bytes", message)
    return int(m.group(1)) if m else None


def candidate_types() -> list[str]:
    """The candidate types of :func:`animre.research.reinterpret`, in its order."""
    return list(research.TYPES)


class ReinterpretExplorer:
    """A byte range + candidate types -> every file's values under each reading, plotted and ranked.

    The bytes are located as :func:`animre.research.reinterpret` locates them:
    a field path (``idle_weights``), a table cell (``frm.idle_weight_0``) or an
    absolute offset (``118``, with a length), optionally with an offset and
    length inside the located record.

    Attributes
    ----------
    widget : ipywidgets.VBox
        The container (CSS class ``animre-reinterpret``).
    result : Reinterpretation or None
        ``values`` (one row per occurrence, one column per type) and ``ranking``.
    figure : Figure or None
    """

    def __init__(self, corpus, locator: str | int = "", *, format: str | None = None,
                 offset: int | None = None, length: int | None = None,
                 types: Sequence[str] | None = None):
        self.corpus = corpus
        fmts = sorted(x for x in corpus.files["format"].dropna().unique())
        if not fmts:
            raise UsageError("the corpus has no recognised file")
        all_types = candidate_types()
        self.result = None
        self.figure = None
        self.locator = w.Text(value=str(locator), description="bytes",
                              placeholder="field path, table.column or absolute offset")
        self.format = w.Dropdown(options=["(any)"] + fmts, value=format or "(any)", description="format")
        self.offset = w.Text(value="" if offset is None else str(offset), description="offset",
                             placeholder="inside the record")
        self.length = w.Text(value="" if length is None else str(length), description="length",
                             placeholder="bytes (1, 2 or 4)")
        self.types = w.SelectMultiple(options=all_types, description="types", rows=8,
                                      value=tuple(t for t in (types or ()) if t in all_types))
        self.run_button = w.Button(description="reinterpret", button_style="primary")
        self.run_button.on_click(lambda _: self._run_safely())
        self.message = w.HTML()
        self.progress = w.IntProgress(value=0, min=0, max=3, description="", bar_style="info",
                                      layout=w.Layout(width="240px", visibility="hidden"))
        self.ranking = w.HTML()
        self.plot = w.Image(format="png")
        self.widget = w.VBox([
            w.HTML("<b>Reinterpret</b>: read the same bytes of every file or record as other types "
                   "(no type selected = every type of the right size)."),
            w.HBox([w.VBox([self.locator, self.format, self.offset, self.length, self.run_button]),
                    self.types]),
            w.HBox([self.progress, self.message]), self.ranking, self.plot,
        ])
        self.widget.add_class("animre-reinterpret")
        if str(locator) != "":
            self._run_safely()

    def _run_safely(self) -> None:
        """A click: the run, or its failure shown in the widget (never "reading ..." forever)."""
        try:
            self.run()
        except UsageError as e:
            self.progress.layout.visibility = "hidden"
            self.message.value = f"<span style='color:#d1495b'>{html.escape(str(e))}</span>"
        except Exception as e:  # noqa: BLE001 - a widget shows what went wrong in itself, never only in the log
            self.progress.layout.visibility = "hidden"
            self.message.value = failure_html(e, f"reading {self.locator.value.strip()!r}")

    def _clear(self) -> None:
        """Drop the previous result, ranking and plot (nothing stale stays under a new message)."""
        self.result = None
        self.figure = None
        self.ranking.value = ""
        show_png(self.plot, b"")
        self.message.value = ""

    def _step(self, k: int, text: str) -> None:
        """Progress of a run (locate, rank, plot): the bar and the message update while the kernel works."""
        self.progress.layout.visibility = "visible" if k < self.progress.max else "hidden"
        self.progress.value = k
        self.message.value = f"<i>{html.escape(text)}</i>"

    def run(self, locator: str | int | None = None, *, format: str | None = None, offset: int | None = None,
            length: int | None = None, types: Sequence[str] | None = None) -> ReinterpretExplorer:
        """Reinterpret the located bytes; updates :attr:`result`, the ranking and the plot.

        Examples
        --------
        >>> rx = reinterpret_explorer(corpus, "walk_speed", format="frm")
        >>> rx.run("idle_weights", types=["f4le", "u4le"]).result.best
        'f4le'
        """
        if locator is not None:
            self.locator.value = str(locator)
        if format is not None:
            self.format.value = format
        if offset is not None:
            self.offset.value = str(offset)
        if length is not None:
            self.length.value = str(length)
        if types is not None:
            self.types.value = tuple(types)
        self._clear()
        loc: str | int = self.locator.value.strip()
        if not loc:
            raise UsageError("say which bytes: a field path, table.column or an absolute offset")
        if str(loc).lstrip("-").isdigit() or str(loc).lower().startswith("0x"):
            loc = int(str(loc), 0)
        kw = {}
        for name, box in (("offset", self.offset), ("length", self.length)):
            if box.value.strip():
                kw[name] = int(box.value.strip(), 0)
        if self.format.value != "(any)":
            kw["format"] = self.format.value
        chosen = list(self.types.value)
        sizes = type_sizes()
        want = kw.get("length")
        if want is not None and chosen:
            fits = [t for t in chosen if sizes.get(t) == want]
            if not fits:
                raise UsageError(self._size_text(chosen, want, sizes) + "; pick types of that size")
        self._step(1, f"reading {loc!r} in every file ...")
        try:
            res = research.reinterpret(self.corpus, loc, types=chosen or None, **kw)
        except UsageError as e:
            self.progress.layout.visibility = "hidden"
            size = located_size(str(e))
            if size is not None and chosen:
                raise UsageError(f"{self._size_text(chosen, size, sizes)}: pick types of that size, or give an "
                                 "offset and a length inside it") from e
            raise
        self._step(2, f"{len(res.values)} occurrence(s) read; ranking ...")
        self.result = res
        shown = list(res.ranking["type"])
        size = len(str(res.values["raw"].iloc[0])) // 2 if len(res.values) else None
        skipped = [t for t in chosen if t not in shown]
        note = f"<br><span style='color:#d1495b'>{html.escape(self._size_text(skipped, size, sizes))}: " \
               "skipped</span>" if skipped and size is not None else ""
        self.ranking.value = df_html(res.ranking, 25)
        self._step(2, "plotting ...")
        self.figure = plots.reinterpretation(res.values, types=shown[:6], label="file",
                                             title=f"{loc}: readings, best first")
        show_png(self.plot, figure_png(self.figure))
        self._step(3, "")
        self.message.value = (f"{len(res.values)} occurrence(s) of {size} byte(s); best reading: "
                              f"<b>{html.escape(str(res.best))}</b>{note}"
                              + failures_html(getattr(res, "failures", None)))
        return self

    @staticmethod
    def _size_text(types: Sequence[str], size: int, sizes: dict[str, int]) -> str:
        listed = ", ".join(f"{t} ({sizes.get(t, '?')} bytes)" for t in types)
        return f"{listed} do not fit the field size ({size} byte{'s' if size != 1 else ''})"


def reinterpret_explorer(corpus, locator: str | int = "", *, format: str | None = None,
                         offset: int | None = None, length: int | None = None,
                         types: Sequence[str] | None = None) -> ReinterpretExplorer:
    """Pick bytes (field path, table cell or offset) and candidate types; plot and rank the readings.

    Examples
    --------
    >>> rx = reinterpret_explorer(corpus, "idle_weights", format="frm", types=["f4le", "u4le"])
    >>> rx.result.ranking["type"].tolist()
    ['f4le', 'u4le']
    """
    return ReinterpretExplorer(corpus, locator, format=format,
                               offset=offset, length=length, types=types)
