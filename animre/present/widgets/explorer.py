"""The corpus explorer: file -> record tree -> field, the field's bytes highlighted in the hex view.

Examples
--------
>>> from animre import open_corpus
>>> from animre.present.widgets import corpus_explorer
>>> ex = corpus_explorer(open_corpus("data/samples/frm", cache=False))
>>> sel = ex.select(file="GOBLNFRM.BIN", path="walk_speed").selected
>>> sel["file"], sel["path"], sel["start"], sel["end"]
('GOBLNFRM.BIN', 'walk_speed', 162, 166)
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w
import pandas as pd

from ... import research
from ...base.display import fmt as show
from ...base.errors import AnimreError, ParseError, UsageError
from .common import df_html
from .hexview import hex_view
from .records import ROOT_RECORD, ExplorerRecords

__all__ = ["CorpusExplorer", "corpus_explorer"]


class CorpusExplorer(ExplorerRecords):
    """File -> record tree (with a path filter) -> field pickers, a hex view and the value in every representation.

    Records (every struct and array of a file) are shown as a tree grouped by
    their path: a record with children opens when selected (``▸`` closed,
    ``▾`` open), and the filter box lists every record whose path contains the
    typed text, so a file with a thousand records stays navigable.

    Attributes
    ----------
    widget : ipywidgets.VBox
        The container (CSS class ``animre-explorer``).
    selected : dict
        ``file, path, name, type, value, start, end`` of the selected field.
    hex_html : str
        The hex view's HTML (selected bytes carry the class ``hl``).
    representations : DataFrame
        The selected bytes read as every type (from :mod:`animre.research`).
    """

    def __init__(self, corpus):
        self.corpus = corpus
        files = corpus.files
        self._status = dict(zip(files["file"], files["status"], strict=True))
        parsed = [f for f, s in self._status.items() if s == "parsed"]
        if not parsed:
            raise UsageError("the corpus has no parsed file to explore")
        self._members: dict[str, list[str]] = {}
        if "container" in files.columns:
            for f, cont in zip(files["file"], files["container"], strict=True):
                if isinstance(cont, str):
                    self._members.setdefault(cont, []).append(f)
        self._fields: dict[str, pd.DataFrame] = {}
        self._children: dict[str, dict[str, list[str]]] = {}
        self._expanded: set[str] = {ROOT_RECORD}
        self._busy = False
        self._data: tuple[str, int, bytes] | None = None  # (file, base offset, bytes) last read for the hex view
        self.selected: dict[str, Any] = {}
        self.error: str | None = None
        self.representations = pd.DataFrame()
        lay = w.Layout(width="420px")
        self.file = w.Dropdown(options=[(self._file_label(f), f) for f in files["file"]], description="file",
                               layout=lay)
        self.filter = w.Text(value="", description="find", placeholder="part of a record path, e.g. chunks[3]",
                             continuous_update=False, layout=lay)
        self.members = w.Select(options=[], description="members", rows=8, layout=w.Layout(width="420px",
                                                                                            display="none"))
        self.up = w.Button(description="container", icon="arrow-up", tooltip="open the container of this file",
                           layout=w.Layout(width="160px", display="none"))
        self.record = w.Select(options=[], description="record", rows=10, layout=lay)
        self.field = w.Dropdown(options=[], description="field", layout=lay)
        self.info = w.HTML()
        self.message = w.HTML()
        self.hex = w.HTML()
        self.values = w.HTML()
        self.file.observe(self._on_file, "value")
        self.filter.observe(self._on_filter, "value")
        self.members.observe(self._on_member, "value")
        self.up.on_click(lambda _: self._guard(lambda: self.select(file=self._container_of(self.file.value))))
        self.record.observe(self._on_record, "value")
        self.field.observe(self._on_field, "value")
        self.widget = w.VBox([
            w.HTML("<b>Corpus explorer</b>: pick a file, a record (tree by path, or type part of a path) and a "
                   "field; its bytes are highlighted. A container lists its members: pick one to open it."),
            w.HBox([w.VBox([self.file, self.up, self.filter, self.members, self.record, self.field, self.message,
                            self.info], layout=w.Layout(width="440px", min_width="440px")),
                    w.Box([self.values], layout=w.Layout(flex="1 1 auto", max_height="360px",
                                                         overflow="auto"))]),
            self.hex,
        ])
        self.widget.add_class("animre-explorer")
        self._set_file(parsed[0])

    def _file_label(self, file: str) -> str:
        status = self._status.get(file)
        n = len(self._members.get(file, ()))
        if status == "parsed" and not n:
            return file
        return f"{file}   [{status}{f', {n} members' if n else ''}]"

    # -- callbacks ---------------------------------------------------------------------

    def _set_file(self, file: str) -> None:
        """Open ``file``: its record tree and first field, a container's members, or its error; nothing stale."""
        self._busy = True
        try:
            self.file.value = file
            self._expanded = {ROOT_RECORD}
        finally:
            self._busy = False
        self._clear(file)
        self._show_members()
        self.up.layout.display = None if self._container_of(file) else "none"
        status = self._status.get(file)
        if self.corpus.format_of(file) is None or status in ("container", "skipped"):
            self._show_unparsed(file, status)
            return
        try:
            f = self.fields(file)  # a file that fails to parse shows its error here, in place of any field
            self._busy = True
            try:
                self.record.options = self._record_options(ROOT_RECORD)
                self.record.value = ROOT_RECORD
            finally:
                self._busy = False
        except AnimreError as e:
            self._show_error(file, e)
            return
        # start on the file's first value read from bytes, inside whatever record holds it
        kind = f["kind"]
        first = f[(kind == "value") & f["start"].notna() & (f["end"] > f["start"])]
        if len(first):
            self._set_record(first.iloc[0]["parent"] or ROOT_RECORD, first.iloc[0]["path"])
        else:
            self._set_record(ROOT_RECORD)

    def _clear(self, file: str) -> None:
        """Empty every output and picker (a new file never shows the previous one's fields or bytes)."""
        self._busy = True
        try:
            self.record.options = []
            self.field.options = []
        finally:
            self._busy = False
        self.selected = {"file": file, "path": None}
        self.error = None
        self.representations = pd.DataFrame()
        self.info.value = self.message.value = self.hex.value = self.values.value = ""

    def _member_options(self, file: str) -> list[tuple[str, str]]:
        kids = self._members.get(file, [])
        text = self.filter.value.strip().lower()
        hits = [m for m in kids if text in m.lower()] if text else kids
        ft = self.corpus.files.set_index("file")
        opts = []
        for m in hits[: self.MAX_ROWS]:
            fmt_name = self.corpus.format_of(m) or self._status.get(m, "")
            n = len(self._members.get(m, ()))
            what = f"{fmt_name}, {n} members" if n else f"{fmt_name}, {show(ft.at[m, 'size'])} bytes"
            opts.append((f"{m[len(file) + 1:] if m.startswith(file + '/') else m}   ({what})", m))
        if len(hits) > self.MAX_ROWS:
            opts.append((f"... {len(hits) - self.MAX_ROWS} more: type part of a name in find", ""))
        if text and not hits and kids:
            opts.append((f"(no member name contains {text!r})", ""))
        return opts

    def _show_members(self) -> None:
        opts = self._member_options(self.file.value)
        self._busy = True
        try:
            self.members.options = opts
            self.members.value = None
        finally:
            self._busy = False
        self.members.layout.display = None if opts else "none"

    def _show_unparsed(self, file: str, status: str | None) -> None:
        """A container (its members are listed above), a file no format reads, or a container that failed."""
        ft = self.corpus.files.set_index("file")
        kind = ft.at[file, "kind"] if "kind" in ft.columns else None
        n = len(self._members.get(file, ()))
        self.selected = {"file": file, "path": None, "status": status, "members": list(self._members.get(file, []))}
        if status == "failed":
            err = self.corpus.errors
            row = err[err["file"] == file]
            if len(row):
                r = row.iloc[0]
                self._show_error(file, ParseError(file, str(r.get("path") or ""), int(r.get("offset") or 0),
                                                  str(r.get("message", ""))))
                return
        if n:
            what = f"a {html.escape(str(kind))} container" if isinstance(kind, str) else "a container"
            self.info.value = (f"<div class='animre-kv'><b>{html.escape(file)}</b>: {what} of {n} member(s), "
                               "no fields of its own: pick a member above to open it</div>")
            return
        self.info.value = (f"<div class='animre-kv'><b>{html.escape(file)}</b>: no format recognises this file "
                           f"({html.escape(str(status))}; listed, not an error); its first bytes:</div>")
        got = self._bytes_around(file, 0, 0)
        self.hex.value = hex_view(got[1], base=got[0], max_lines=16) if got else ""

    def _show_error(self, file: str, e: Exception) -> None:
        """The error in the widget: file, field path, byte offset and reason, the bytes at the offset marked."""
        self._clear(file)
        path, offset = getattr(e, "path", None), getattr(e, "offset", None)
        reason = getattr(e, "reason", None) or str(e)
        self.error = str(e)
        self.selected = {"file": file, "path": None, "error": str(e), "error_path": path, "error_offset": offset}
        where = ""
        if isinstance(e, ParseError):
            where = (f"<br>field path: <code>{html.escape(path or '(file)')}</code><br>"
                     f"byte offset: <code>0x{offset:X} ({offset})</code>")
        self.message.value = (
            "<div class='animre-error' style='color:#d1495b; white-space: normal; max-width: 420px'>"
            f"<b>cannot read {html.escape(file)}</b>{where}<br>{html.escape(type(e).__name__)}: "
            f"{html.escape(str(reason))}</div>")
        if isinstance(e, ParseError):
            try:
                got = self._bytes_around(file, offset, offset + 1)
            except (AnimreError, OSError):
                got = None
            if got is not None:
                self.hex.value = hex_view(got[1], offset, offset + 1, base=got[0])

    def _guard(self, action) -> None:
        """Run a callback's action; any error shows in the widget (never only in the log console)."""
        try:
            action()
        except Exception as e:  # noqa: BLE001 - a widget callback must show what went wrong, not swallow it
            self._show_error(self.file.value, e)

    def _set_record(self, record: str, field: str | None = None, *, toggle: bool = False) -> None:
        if toggle and self.children(record) and not self.filter.value.strip():
            if record in self._expanded and record != ROOT_RECORD:
                self._expanded.discard(record)
            else:
                self._expanded.add(record)
        sub = self.fields_of(record)
        opts, leaves = [], []
        for _, r in sub.iterrows():
            if r.get("kind", "value") == "value" and not pd.isna(r["start"]) and r["end"] > r["start"]:
                leaves.append(r["path"])
            rng = "computed" if pd.isna(r["start"]) else f"[{int(r['start'])}, {int(r['end'])})"
            opts.append((f"{r['path']}  {r['type']}  {rng}", r["path"]))
        self._busy = True
        try:
            self.record.options = self._record_options(record)
            self.record.value = record
            self.field.options = opts
            paths = [p for _, p in opts]
            default = leaves[0] if leaves else (paths[0] if paths else None)
            self.field.value = field if field in paths else default
        finally:
            self._busy = False
        self._show()

    def _on_file(self, change) -> None:
        if not self._busy and change["new"]:
            self._guard(lambda: self._set_file(change["new"]))

    def _on_filter(self, change) -> None:
        if self._busy:
            return
        self._show_members()
        if self.error is not None or not len(self.record.options):
            return  # nothing to filter: a container, a file no format reads, or an error shown
        self._busy = True
        try:
            self._guard(lambda: setattr(self.record, "options", self._record_options(self.record.value
                                                                                    or ROOT_RECORD)))
        finally:
            self._busy = False

    def _on_member(self, change) -> None:
        if not self._busy and change["new"]:
            self._guard(lambda: self.select(file=change["new"]))

    def _on_record(self, change) -> None:
        if not self._busy and change["new"]:
            self._guard(lambda: self._set_record(change["new"], toggle=True))

    def _on_field(self, change) -> None:
        if not self._busy:
            self._guard(self._show)

    def _show(self) -> None:
        file, path = self.file.value, self.field.value
        f = self.fields(file)
        self.message.value = ""
        if path is None:
            self.selected = {"file": file, "path": None}
            got = self._bytes_around(file, 0, 0)
            self.hex.value = hex_view(got[1], base=got[0]) if got else ""
            self.values.value = ""
            self.info.value = ""
            return
        row = f[f["path"] == path].iloc[0]
        start = None if pd.isna(row["start"]) else int(row["start"])
        end = None if pd.isna(row["end"]) else int(row["end"])
        self.selected = {"file": file, "path": path, "name": row["name"], "type": row["type"],
                         "kind": row.get("kind"), "value": row["value"], "start": start, "end": end}
        got = self._bytes_around(file, start, end)
        base, data = got if got is not None else (0, b"")
        self.hex.value = hex_view(data, start, end, base=base) if got is not None else \
            "<i>a member this large is not shown as hex</i>"
        fmt_name = self.corpus.format_of(file)
        where = "computed from other fields" if start is None else \
            f"bytes [{start}, {end}) = 0x{start:X}..0x{end:X}, {end - start} byte(s)"
        self.info.value = (f"<div class='animre-kv'><b>{html.escape(path)}</b> ({fmt_name})<br>{where}"
                           f"{self._container_html(file, start)}<br>"
                           f"parsed value: {self._value_html(row)}</div>")
        if start is None or end is None or end <= start or not base <= start <= end <= base + len(data):
            self.representations = pd.DataFrame()
            self.values.value = ""
            return
        self.representations = representations(data[start - base:end - base])
        self.values.value = "<b>same bytes, other readings</b>" + df_html(self.representations[["type", "shown"]], 40)

    # -- public ----------------------------------------------------------------------------

    @property
    def hex_html(self) -> str:
        """The hex view HTML currently shown."""
        return self.hex.value

    def select(self, file: str | None = None, record: str | None = None,
               path: str | None = None) -> CorpusExplorer:
        """Select a file, a record and/or a field (by its full path, e.g. ``idle_weights[2]``).

        A container shows its members (:attr:`members`, and ``selected["members"]``);
        a file that cannot be read shows its error (:attr:`error`, ``selected["error"]``).

        Examples
        --------
        >>> ex = corpus_explorer(corpus)
        >>> ex.select(file="frm/GOBLNFRM.BIN", path="walk_speed").selected["start"]
        162
        >>> ex.select(file="zip/CIV3UNITS.ZIP").selected["members"][:1]
        ['zip/CIV3UNITS.ZIP/run0/Warrior/Default.flc']
        """
        if file is not None:
            if file not in self._status:
                raise UsageError(f"{file!r} is not a file of the corpus")
            if file != self.file.value or self.error is not None:
                self._set_file(file)
        if (path is not None or record is not None) and (self.error is not None or not len(self.record.options)):
            why = self.error or "it has no fields of its own (a container, or no format reads it)"
            raise UsageError(f"{self.file.value}: nothing to select: {why}")
        if path is not None:
            f = self.fields()
            hit = f[f["path"] == path]
            if not len(hit):
                raise UsageError(f"{self.file.value}: no field {path!r}")
            parent = hit.iloc[0]["parent"] or ROOT_RECORD
            self._set_record(parent, path)
        elif record is not None:
            if record not in self.records():
                raise UsageError(f"{self.file.value}: no record {record!r}")
            self._set_record(record)
        return self


def representations(raw: bytes) -> pd.DataFrame:
    """``raw`` read as every type of its size (type, value), from :mod:`animre.research`,
    and ``shown``: the value written by :func:`animre.base.display.fmt` in the precision of its type."""
    rep = research.representations(raw)
    return rep.assign(shown=[v if t == "hex" else show(v, ksy_type=t.replace("bf16be", "f4"))
                             for t, v in zip(rep["type"], rep["value"])])


def corpus_explorer(corpus) -> CorpusExplorer:
    """A file -> record -> field explorer with a hex view of the selected bytes.

    Parameters
    ----------
    corpus : Corpus
        From :func:`animre.open_corpus`.

    Examples
    --------
    >>> ex = corpus_explorer(corpus)
    >>> type(ex.widget).__name__
    'VBox'
    """
    return CorpusExplorer(corpus)
