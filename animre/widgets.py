"""Interactive explorers (ipywidgets) over a corpus.

Each function returns a small object whose ``.widget`` is the ipywidgets
container to display, and whose methods (``select`` ...) drive it from code,
so every callback can be tested without a browser. All numbers shown come
from :mod:`animre.research` (profiles, reinterpretations, claims) or straight
from the corpus tables; the widgets only lay them out and call
:mod:`animre.plots` to draw.

Examples
--------
>>> from animre import open_corpus
>>> from animre.widgets import corpus_explorer
>>> ex = corpus_explorer(open_corpus("data/samples/frm", cache=False))
>>> sel = ex.select(file="GOBLNFRM.BIN", path="walk_speed").selected
>>> sel["file"], sel["path"], sel["start"], sel["end"]
('GOBLNFRM.BIN', 'walk_speed', 162, 166)
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import pandas as pd

from . import plots
from .display import fmt as show
from .display import formatters, hex_digits
from .errors import AnimreError, ParseError, UsageError
from .htmltable import counterexample_table
from .players import figure_png, show_png

__all__ = [
    "corpus_explorer",
    "column_profiler",
    "reinterpret_explorer",
    "claims_board",
    "compare_view",
    "CorpusExplorer",
    "ColumnProfiler",
    "ReinterpretExplorer",
    "ClaimsBoard",
    "CompareView",
    "hex_view",
]

HEX_CSS = """<style>
.animre-hex {font-family: monospace; font-size: 12px; line-height: 1.35; white-space: pre;}
.animre-hex .o {color: #888;}
.animre-hex .hl {background: #ffd54f; color: #000; font-weight: bold;}
.animre-hex .a {color: #555;}
.animre-kv td, .animre-kv th {padding: 1px 8px; text-align: left; font-family: monospace; font-size: 12px;}
.animre-grid td, .animre-grid th {padding: 1px 5px; font-family: monospace; font-size: 11px; text-align: right;}
.animre-grid td.diff {background: #d1495b; color: #fff; font-weight: bold;}
.animre-grid td.absent {background: #eee;}
</style>"""
ROOT_RECORD = "(file)"


def _research():
    from . import research

    return research


def _fig_png(fig) -> bytes:
    return figure_png(fig)


def _df_html(df: pd.DataFrame, max_rows: int = 30) -> str:
    if df is None or not len(df):
        return "<i>none</i>"
    more = f"<br><i>... {len(df) - max_rows} more rows</i>" if len(df) > max_rows else ""
    head = df.head(max_rows).copy()
    for c in head.columns:  # lists, numpy scalars, floats: as the one formatter writes them
        if head[c].dtype == object or pd.api.types.is_float_dtype(head[c].dtype):
            head[c] = [show(v, max_len=120) for v in head[c]]
    return head.to_html(index=False, classes="animre-kv", border=0, na_rep="") + more


def hex_view(data: bytes, start: int | None = None, end: int | None = None, *, context: int = 4,
             max_lines: int = 64, width: int = 16, base: int = 0) -> str:
    """HTML hex dump of ``data`` around ``[start, end)`` with exactly those bytes highlighted.

    Every byte cell carries ``data-o="<absolute offset>"``; highlighted cells
    also have the class ``hl``. Shows ``context`` lines before and after the
    range, at most ``max_lines`` lines. ``data`` may be a window of a larger
    file: ``base`` is the offset of its first byte.

    Examples
    --------
    >>> h = hex_view(bytes(range(32)), 3, 5)
    >>> import re
    >>> [int(o) for o in re.findall(r'class="b hl" data-o="(\\d+)"', h)]
    [3, 4]
    """
    n = base + len(data)
    first = base // width
    if start is None or end is None:
        lo_line, hi_line = first, min(first + max_lines, (n + width - 1) // width)
        start = end = -1
    else:
        lo_line = max(first, start // width - context)
        hi_line = min((n + width - 1) // width, (max(end, start + 1) - 1) // width + 1 + context)
        hi_line = min(hi_line, lo_line + max_lines)
    out = [HEX_CSS, '<div class="animre-hex">']
    for line in range(lo_line, hi_line):
        row = line * width
        cells, chars = [], []
        for o in range(row, row + width):
            if o >= n or o < base:
                cells.append("  ")
                chars.append(" ")
                continue
            b = data[o - base]
            hl = start <= o < end
            cells.append(f'<span class="b{" hl" if hl else ""}" data-o="{o}">{b:02X}</span>')
            c = chr(b) if 32 <= b < 127 else "."
            chars.append(f'<span class="a{" hl" if hl else ""}">{html.escape(c)}</span>')
        out.append(f'<span class="o">{row:08X}</span>  ' + " ".join(cells) + "  " + "".join(chars))
    if end > 0 and (hi_line * width) < end:
        out.append(f"<i>... range continues to 0x{end:X} ({end - hi_line * width} more bytes)</i>")
    out.append("</div>")
    return "\n".join(out)


# ============================================================================ corpus explorer


class CorpusExplorer:
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

    #: At most this many rows in the record tree, the member list or the filter's result list.
    MAX_ROWS = 300
    #: Files up to this size are read whole for the hex view; of a larger loose file only a window is read.
    HEX_MAX_BYTES = 32 << 20

    def __init__(self, corpus):
        import ipywidgets as w

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

    def _container_of(self, file: str) -> str | None:
        ft = self.corpus.files
        if "container" not in ft.columns:
            return None
        cont = ft.loc[ft["file"] == file, "container"]
        return cont.iloc[0] if len(cont) and isinstance(cont.iloc[0], str) else None

    # -- data ------------------------------------------------------------------------

    def fields(self, file: str | None = None) -> pd.DataFrame:
        """The long fields table of a file (cached): path, parent, name, type, value, start, end."""
        file = file or self.file.value
        if file not in self._fields:
            self._fields[file] = self.corpus.fields(file).reset_index(drop=True)
        return self._fields[file]

    def records(self, file: str | None = None) -> list[str]:
        """Record paths of a file: the whole file, then every struct and array in file order."""
        f = self.fields(file)
        kind = f["kind"]
        recs = f.loc[kind.isin(["struct", "array"]), "path"].tolist()
        return [ROOT_RECORD] + recs

    def children(self, record: str, file: str | None = None) -> list[str]:
        """The records directly inside ``record`` (its sub-structs and arrays), in file order."""
        file = file or self.file.value
        if file not in self._children:
            f = self.fields(file)
            recs = f[f["kind"].isin(["struct", "array"])]
            tree: dict[str, list[str]] = {}
            for path, parent in zip(recs["path"], recs["parent"].fillna(""), strict=True):
                tree.setdefault(parent or ROOT_RECORD, []).append(path)
            self._children[file] = tree
        return self._children[file].get(record, [])

    def fields_of(self, record: str, file: str | None = None) -> pd.DataFrame:
        """The fields directly inside a record (rows of :meth:`fields` whose parent is it)."""
        f = self.fields(file)
        parent = "" if record == ROOT_RECORD else record
        return f[f["parent"].fillna("") == parent]

    def tree(self) -> list[tuple[str, str]]:
        """The record tree as shown: (indented label, record path), open records expanded."""
        out: list[tuple[str, str]] = []

        def walk(rec: str, depth: int) -> None:
            kids = self.children(rec)
            name = rec if rec == ROOT_RECORD else rec[len(self._parent_of(rec)):].lstrip(".") or rec
            mark = ("▾ " if rec in self._expanded else "▸ ") if kids else "   "
            extra = f"  ({len(kids)})" if kids else ""
            out.append(("\u2003" * depth + mark + name + extra, rec))
            if rec in self._expanded:
                for k in kids:
                    if len(out) >= self.MAX_ROWS:
                        return
                    walk(k, depth + 1)

        walk(ROOT_RECORD, 0)
        return out

    def _parent_of(self, rec: str) -> str:
        f = self.fields()
        hit = f.loc[f["path"] == rec, "parent"]
        return "" if not len(hit) or pd.isna(hit.iloc[0]) else str(hit.iloc[0])

    def find(self, text: str) -> list[str]:
        """Record paths of the current file containing ``text`` (case-insensitive), in file order.

        Examples
        --------
        >>> ex = corpus_explorer(corpus)
        >>> ex.select(file="frm/GOBLNFRM.BIN").find("SEQUENCES[3]")
        ['sequences[3]', 'sequences[3].frame_ids']
        """
        t = str(text).strip().lower()
        return [r for r in self.records() if r != ROOT_RECORD and t in r.lower()]

    # -- callbacks ---------------------------------------------------------------------

    def _record_options(self, record: str) -> list[tuple[str, str]]:
        text = self.filter.value.strip()
        if text:
            hits = self.find(text)
            opts = [(p, p) for p in hits[: self.MAX_ROWS]]
            if len(hits) > self.MAX_ROWS:
                opts.append((f"... {len(hits) - self.MAX_ROWS} more: type more of the path", opts[-1][1]))
            if record not in hits:
                label = record if hits else f"{record}   (no record path contains {text!r})"
                opts.insert(0, (label, record))
            return opts
        # open every record on the way to the selected one
        path, chain = record, []
        while path and path != ROOT_RECORD:
            path = self._parent_of(path) or ROOT_RECORD
            chain.append(path)
        self._expanded.update(chain)
        opts = self.tree()
        if record not in [v for _, v in opts]:
            opts.append((record, record))
        return opts

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

    def _size(self, file: str) -> int:
        ft = self.corpus.files
        size = ft.loc[ft["file"] == file, "size"]
        return int(size.iloc[0]) if len(size) and not pd.isna(size.iloc[0]) else 0

    def _bytes_around(self, file: str, start: int | None, end: int | None) -> tuple[int, bytes] | None:
        """(base offset, bytes) covering ``[start, end)`` for the hex view: the whole file up to
        :attr:`HEX_MAX_BYTES`, else a window of a loose file; None for a large member."""
        if self._data is not None and self._data[0] == file:
            _, base, data = self._data
            lo, hi = start or 0, max(end or 0, start or 0)
            if (base == 0 and len(data) == self._size(file)) or (base <= lo and hi + 1024 <= base + len(data)):
                return base, data
        size = self._size(file)
        if size <= self.HEX_MAX_BYTES:
            data = self.corpus.read_bytes(file)
            self._data = (file, 0, data)
            return 0, data
        if self._container_of(file) is not None:
            return None
        lo = max(0, (start or 0) - 2048) // 16 * 16
        hi = min(size, max(end or 0, start or 0) + 2048, lo + (1 << 20))
        with open(self.corpus.path(file), "rb") as fh:
            fh.seek(lo)
            data = fh.read(hi - lo)
        self._data = (file, lo, data)
        return lo, data

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

    def _value_html(self, row: pd.Series) -> str:
        """The parsed value; an array shows its elements (values, or how many records it holds)."""
        kt = str(row["type"]).rstrip("[]")
        hd = hex_digits(str(row["name"]), kt)
        if row.get("kind") != "array":
            return f"<code>{html.escape(show(row['value'], hex_digits=hd, ksy_type=kt, max_len=400))}</code>"
        f = self.fields()
        kids = f[f["parent"].fillna("") == row["path"]]
        if not len(kids):
            return "<i>empty array</i>"
        if (kids["kind"] == "value").all():  # an array shows its elements, read from the rows below it
            shown = show(kids["value"].tolist(), hex_digits=hd, ksy_type=kt, max_len=400)
            return f"<code>{html.escape(shown)}</code> ({len(kids)} elements)"
        return f"{len(kids)} records: {html.escape(', '.join(kids['path'].head(4)))}{' ...' if len(kids) > 4 else ''}"

    def _container_html(self, file: str, start: int | None) -> str:
        """Where a member's bytes sit in its container (offsets above are the member's own)."""
        ft = self.corpus.files
        if "container" not in ft.columns:
            return ""
        row = ft.loc[ft["file"] == file]
        if not len(row) or pd.isna(row["container"].iloc[0]) or pd.isna(row["offset"].iloc[0]):
            return ""
        cont, ofs = row["container"].iloc[0], int(row["offset"].iloc[0])
        stored = (ft.loc[ft["file"] == cont, "kind"] == "agg").any()  # AGG members are never compressed
        at = "" if start is None else f"; {'' if stored else 'if stored uncompressed, '}this field is at 0x{ofs + start:X} of the container"
        return (f"<br><span class='animre-member'>member of {html.escape(str(cont))}, its stored bytes from "
                f"0x{ofs:X} ({ofs}){at}</span>")

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
        self.representations = _representations(data[start - base:end - base])
        self.values.value = "<b>same bytes, other readings</b>" + _df_html(self.representations[["type", "shown"]], 40)

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


def _representations(raw: bytes) -> pd.DataFrame:
    """``raw`` read as every type of its size (type, value), from :mod:`animre.research`,
    and ``shown``: the value written by :func:`animre.display.fmt` in the precision of its type."""
    rep = _research().representations(raw)
    return rep.assign(shown=[v if t == "hex" else show(v, ksy_type=t.replace("gnt4half", "f4"))
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


# ============================================================================ column profiler


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
        import ipywidgets as w

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
        self.table.observe(lambda ch: self._busy or self.select(table=ch["new"]), "value")
        self.column.observe(lambda ch: self._busy or self.select(column=ch["new"]), "value")
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
            p = _research().profile(table, corpus=self.corpus, columns=[column])
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
        self.exc.value = "<b>exceptions</b>" + _df_html(exc_shown)
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
        show_png(self.hist, _fig_png(figs["histogram"]) if "histogram" in figs else b"")
        show_png(self.bits, _fig_png(figs["bit_rates"]) if "bit_rates" in figs else b"")


def column_profiler(corpus, table: str | None = None, column: str | None = None) -> ColumnProfiler:
    """Table and column pickers with the column's profile, histogram by file, bit rates, exceptions.

    Examples
    --------
    >>> prof = column_profiler(corpus, "frm", "unknown_magic")
    >>> [e["file"] for e in prof.profile_row["exceptions"]]
    ['frm/ODDMGFRM.BIN']
    """
    return ColumnProfiler(corpus, table, column)


# ============================================================================ reinterpret


def _type_sizes() -> dict[str, int]:
    """Candidate type -> its size in bytes (from :data:`animre.research.TYPES`)."""
    from .research import TYPES

    return {t: int(v[0]) for t, v in TYPES.items()}


def _located_size(message: str) -> int | None:
    """The byte size a research error names ("no candidate type reads N bytes")."""
    import re

    m = re.search(r"reads (\d+) bytes", message)
    return int(m.group(1)) if m else None


def _types() -> list[str]:
    r = _research()
    types = getattr(r, "TYPES", None)
    if types is None:
        from .research import TYPES as types
    return list(types)


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

    def __init__(self, corpus, locator: str | int = "", *, fmt: str | None = None,
                 offset: int | None = None, length: int | None = None,
                 types: Sequence[str] | None = None):
        import ipywidgets as w

        self.corpus = corpus
        fmts = sorted(x for x in corpus.files["format"].dropna().unique())
        if not fmts:
            raise UsageError("the corpus has no recognised file")
        all_types = _types()
        self.result = None
        self.figure = None
        self.locator = w.Text(value=str(locator), description="bytes",
                              placeholder="field path, table.column or absolute offset")
        self.format = w.Dropdown(options=["(any)"] + fmts, value=fmt or "(any)", description="format")
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
        try:
            self.run()
        except UsageError as e:
            self.message.value = f"<span style='color:#d1495b'>{html.escape(str(e))}</span>"

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

    def run(self, locator: str | int | None = None, *, fmt: str | None = None, offset: int | None = None,
            length: int | None = None, types: Sequence[str] | None = None) -> ReinterpretExplorer:
        """Reinterpret the located bytes; updates :attr:`result`, the ranking and the plot.

        Examples
        --------
        >>> rx = reinterpret_explorer(corpus, "walk_speed", fmt="frm")
        >>> rx.run("idle_weights", types=["f32le", "u32le"]).result.best
        'f32le'
        """
        if locator is not None:
            self.locator.value = str(locator)
        if fmt is not None:
            self.format.value = fmt
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
        sizes = _type_sizes()
        want = kw.get("length")
        if want is not None and chosen:
            fits = [t for t in chosen if sizes.get(t) == want]
            if not fits:
                raise UsageError(self._size_text(chosen, want, sizes) + "; pick types of that size")
        self._step(1, f"reading {loc!r} in every file ...")
        try:
            res = _research().reinterpret(self.corpus, loc, types=chosen or None, **kw)
        except UsageError as e:
            self.progress.layout.visibility = "hidden"
            size = _located_size(str(e))
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
        self.ranking.value = _df_html(res.ranking, 25)
        self._step(2, "plotting ...")
        self.figure = plots.reinterpretation(res.values, types=shown[:6], label="file",
                                             title=f"{loc}: readings, best first")
        show_png(self.plot, _fig_png(self.figure))
        self._step(3, "")
        self.message.value = (f"{len(res.values)} occurrence(s) of {size} byte(s); best reading: "
                              f"<b>{html.escape(str(res.best))}</b>{note}")
        return self

    @staticmethod
    def _size_text(types: Sequence[str], size: int, sizes: dict[str, int]) -> str:
        listed = ", ".join(f"{t} ({sizes.get(t, '?')} bytes)" for t in types)
        return f"{listed} do not fit the field size ({size} byte{'s' if size != 1 else ''})"


def reinterpret_explorer(corpus, locator: str | int = "", *, fmt: str | None = None,
                         offset: int | None = None, length: int | None = None,
                         types: Sequence[str] | None = None) -> ReinterpretExplorer:
    """Pick bytes (field path, table cell or offset) and candidate types; plot and rank the readings.

    Examples
    --------
    >>> rx = reinterpret_explorer(corpus, "idle_weights", fmt="frm", types=["f32le", "u32le"])
    >>> rx.result.ranking["type"].tolist()
    ['f32le', 'u32le']
    """
    return ReinterpretExplorer(corpus, locator, fmt=fmt, offset=offset, length=length, types=types)


# ============================================================================ claims board


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
        import ipywidgets as w

        self.corpus = corpus
        self.summary = _research().claims(corpus, formats=formats)
        self.figure = plots.claims_board(self.summary)
        self.details = pd.DataFrame()
        opts = [(f"{i}: [{r.get('format', '')}] {r.get('verdict', '')}: {r['claim']}", i)
                for i, (_, r) in enumerate(self.summary.iterrows())]
        self.claim = w.Dropdown(options=opts, description="claim", layout=w.Layout(width="760px"))
        self.board = w.Image(format="png")
        show_png(self.board, _fig_png(self.figure))  # at its own pixel size, not stretched
        self.detail = w.HTML()
        self.claim.observe(lambda ch: self._show(), "value")
        self.widget = w.VBox([w.HTML("<b>Claims board</b>: every claim of the notes, tested on the corpus."),
                              self.board, self.claim, self.detail])
        self.widget.add_class("animre-claims")
        if opts:
            self._show()

    def select(self, claim: int) -> ClaimsBoard:
        """Show the counterexamples of claim number ``claim`` (row of :attr:`summary`).

        Examples
        --------
        >>> board = claims_board(corpus, formats=["frm"])
        >>> board.select(1).details["file"].tolist()
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
            f"{err_html}</div>counterexamples (offset: where the value found was read):"
            + _df_html(shown))


def claims_board(corpus, formats: Sequence[str] | None = None) -> ClaimsBoard:
    """Every claim of the notes checked on the corpus, with the counterexamples of each.

    Examples
    --------
    >>> board = claims_board(corpus, formats=["frm"])
    >>> len(board.summary)
    9
    """
    return ClaimsBoard(corpus, formats)


# ============================================================================ compare


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
        :func:`animre.plots.compare_grid` of the result.
    """

    def __init__(self, corpus, table: str | None = None, column: str | None = None,
                 by: str | Sequence[str] | None = None):
        import ipywidgets as w

        self.corpus = corpus
        names = [t for t in corpus.tables if t != "files" and len(corpus.tables[t])
                 and "file" in corpus.tables[t].columns]
        if not names:
            raise UsageError("the corpus has no table to compare")
        self._busy = False
        self.table = w.Dropdown(options=names, description="table", layout=w.Layout(width="320px"))
        self.column = w.Dropdown(options=[], description="column", layout=w.Layout(width="320px"))
        self.by = w.Text(value="", description="by", placeholder="record key(s), comma-separated",
                         layout=w.Layout(width="320px"))
        self.message = w.HTML()
        self.grid = w.HTML()
        self.plot = w.Image(format="png")
        self.table.observe(lambda ch: self._busy or self.select(table=ch["new"]), "value")
        self.column.observe(lambda ch: self._busy or self.select(column=ch["new"]), "value")
        self.by.observe(lambda ch: self._busy or self.select(by=ch["new"]), "value")
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
            if table is not None and table != self.table.value or not self.column.options:
                table = table or self.table.value
                if table not in self.table.options:
                    raise UsageError(f"no table {table!r} to compare; tables: {', '.join(self.table.options)}")
                keys = set(self.corpus.keys(table)) if hasattr(self.corpus, "keys") else {"file"}
                cols = [c for c in self.corpus.tables[table].columns if c not in keys]
                self.table.value = table
                self.column.options = cols
                self.column.value = column if column in cols else cols[0]
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
            res = _research().compare(self.corpus, self.table.value, self.column.value, by=keys)
        except UsageError as e:
            self.message.value = f"<span style='color:#d1495b'>{html.escape(str(e))}</span>"
            return
        self.result = res
        style = formatters(self.corpus.columns(self.table.value) if hasattr(self.corpus, "columns") else None)
        value = style.get(self.column.value, show)
        n = int(res.differs.to_numpy().sum())
        self.message.value = (f"{len(res.values)} files x {res.values.shape[1]} records; "
                              f"<b style='color:{'#d1495b' if n else '#3a9d5d'}'>{n} cell(s) differ</b>")
        self.figure = plots.compare_grid(res)
        show_png(self.plot, _fig_png(self.figure))
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
