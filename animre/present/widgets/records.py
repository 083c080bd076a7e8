"""The corpus explorer's data: a file's records as a tree by path, its fields, and the bytes for the hex view.

Examples
--------
>>> from animre.present.widgets import corpus_explorer
>>> corpus_explorer(corpus).records("frm/GOBLNFRM.BIN")[:2]
['(file)', 'x_offsets']
"""

from __future__ import annotations

import html

import pandas as pd

from ...base.display import fmt as show
from ...base.display import hex_digits
from ...sources.containers import containers

__all__ = ["ROOT_RECORD", "ExplorerRecords"]

ROOT_RECORD = "(file)"


class ExplorerRecords:
    """Records, fields and bytes of the explorer's files (the part of :class:`CorpusExplorer` without widgets).

    Needs ``corpus``, ``file`` (the file picker), ``filter`` (the find box) and
    ``_expanded``/``_fields``/``_children``/``_data`` from the explorer.
    """

    #: At most this many rows in the record tree, the member list or the filter's result list.
    MAX_ROWS = 300
    #: Files up to this size are read whole for the hex view; of a larger loose file only a window is read.
    HEX_MAX_BYTES = 32 << 20

    def _container_of(self, file: str) -> str | None:
        ft = self.corpus.files
        if "container" not in ft.columns:
            return None
        cont = ft.loc[ft["file"] == file, "container"]
        return cont.iloc[0] if len(cont) and isinstance(cont.iloc[0], str) else None

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
        >>> from animre.present.widgets import corpus_explorer
        >>> ex = corpus_explorer(corpus)
        >>> ex.select(file="frm/GOBLNFRM.BIN").find("SEQUENCES[3]")
        ['sequences[3]', 'sequences[3].frame_ids']
        """
        t = str(text).strip().lower()
        return [r for r in self.records() if r != ROOT_RECORD and t in r.lower()]

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

    def _container_html(self, file: str, start: int | None) -> str:
        """Where a member's bytes sit in its container (offsets above are the member's own)."""
        ft = self.corpus.files
        if "container" not in ft.columns:
            return ""
        row = ft.loc[ft["file"] == file]
        if not len(row) or pd.isna(row["container"].iloc[0]) or pd.isna(row["offset"].iloc[0]):
            return ""
        cont, ofs = row["container"].iloc[0], int(row["offset"].iloc[0])
        known = containers()
        stored = any(known[k].never_compressed for k in set(ft.loc[ft["file"] == cont, "kind"].dropna()) if k in known)
        at = "" if start is None else \
            f"; {'' if stored else 'if stored uncompressed, '}this field is at 0x{ofs + start:X} of the container"
        return (f"<br><span class='animre-member'>member of {html.escape(str(cont))}, its stored bytes from "
                f"0x{ofs:X} ({ofs}){at}</span>")

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
