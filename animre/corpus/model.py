"""The corpus: every file of a folder read into tables, with byte spans, errors and the specs' columns."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import pandas as pd

from ..base.tableview import TableView, show_table
from ..formats import Format, registry
from ..sources import Source, read_source
from ..tables.fields import fields_table
from ..tables.plan import COLUMN_INFO
from ..tables.read import parse, parse_blocks, plan_of
from .assemble import assemble
from .collector import Collector, Spans
from .derive import derive
from .results import UNAVAILABLE_COLUMNS, FileResult

__all__ = ["Corpus"]

class Corpus:
    """A parsed folder of files.

    Attributes
    ----------
    tables : dict of str -> DataFrame
        ``files`` plus each format's curated tables, with a ``file`` column first.
    errors : DataFrame
        One row per file that failed: file, format, path (field path), offset, message.
    unavailable : DataFrame
        Derived columns and claims that read a field the loaded spec does not
        have (kind, format, table, name, missing, message "not testable: ...").
    spans : dict of str -> (DataFrame, DataFrame)
        For every table, the absolute start and end byte offset of
        each cell that was read from the file (nullable Int32; NA for computed cells).
    timings : DataFrame
        Where the open spent its time: one row per phase (list, hash and
        detect; read cache; parse and flatten; concatenate; assemble; write
        cache; derive) with seconds and perf-counter start/end.
    """

    def __init__(self, root: Path | None, results: list[FileResult], parsers=None,
                 snapshot: dict | None = None, order: list[str] | None = None,
                 fresh_tables: dict | None = None, sources: list[Source] | None = None,
                 formats: Mapping[str, Format] | None = None):
        self.root = root
        self.results = results
        self.parsers = dict(parsers or {})
        self.formats: dict[str, Format] = dict(formats) if formats is not None else registry(parsers=parsers,
                                                                                            env=False)
        self._sources = {s.name: s for s in sources} if sources is not None else {
            r.file: Source(r.file, Path(r.path)) for r in results}
        self.tables: dict[str, pd.DataFrame] = {}
        self.spans = Spans()
        self.unavailable = pd.DataFrame(columns=UNAVAILABLE_COLUMNS)
        self._derived_ok: set[tuple[str, str]] = set()
        self.timings = pd.DataFrame(columns=["phase", "seconds", "start", "end"])
        self._schema = None
        if fresh_tables is None:
            collector = Collector()
            for r in results:
                collector.add(r)
            fresh_tables = collector.tables()
        self._build(snapshot or {}, order or [r.file for r in results], fresh_tables)

    def _build(self, snapshot: dict, order: list[str], fresh_tables: dict) -> None:
        """Assemble tables from fresh results plus rows kept from a snapshot (cached opens)."""
        assemble(self, snapshot, order, fresh_tables)

    def _snapshot_payload(self) -> dict:
        return {"files": self.tables["files"], "errors": self.errors,
                "tables": {t: (df, *self.spans[t]) for t, df in self.tables.items() if t in self.spans}}

    # -- the spec's columns, derived columns ---------------------------------------

    def formats_in_use(self) -> list[Format]:
        present = set(self.tables["files"]["format"].dropna())
        return [f for f in self.formats.values() if f.name in present or f.name in self.parsers]

    def plan(self, format: str):
        """The table plan of one format's spec (:class:`animre.flatten.Plan`), as this corpus reads it."""
        return plan_of(self.formats[format], self.parsers)

    @property
    def schema(self) -> pd.DataFrame:
        """Every column of every table of the formats in the corpus, from their specs.

        Columns: table, column, kind (key, read, pos, value, value (bits), enum
        name, list, derived), type (the ksy type), enum, doc, field
        (``type.field_id`` in the spec), spec.
        """
        if getattr(self, "_schema", None) is None:
            frames = [plan_of(f, self.parsers).info() for f in self.formats_in_use()]
            extra = []
            for f in self.formats_in_use():
                for d in f.derived:
                    if (d.table, d.column) in self._derived_ok:
                        extra.append((d.table, d.column, "derived", "derived", None, d.doc, None, f.name,
                                      False, None, False))
            frames.append(pd.DataFrame(extra, columns=COLUMN_INFO))
            frames = [x for x in frames if len(x)]
            self._schema = (pd.concat(frames, ignore_index=True) if frames
                            else pd.DataFrame(columns=COLUMN_INFO))
        return self._schema

    @property
    def extents(self) -> pd.DataFrame:
        """Span-only entries of the tables' offsets (``~`` + field path): fields the specs leave out of
        the tables (``-animre-skip``), switch fields no case typed and arrays whose ``-animre-where``
        keeps records out; table, name, category (typed, opaque, records)."""
        frames = [plan_of(f, self.parsers).extent_info() for f in self.formats_in_use()]
        frames = [x for x in frames if len(x)]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["table", "name", "category"])

    def show(self, table: str, columns: Iterable[str] | None = None, *, rows: int | None = 20,
             frame: pd.DataFrame | None = None) -> TableView:
        """Table ``table`` (or ``frame``, rows taken from it) shown through the one formatter.

        Magic values, flags, hashes and ids print in hex as the claims write them, decided by
        :meth:`columns` (:mod:`animre.base.tableview`); ``rows``: the first rows shown (None: all).

        Examples
        --------
        >>> print(c.show("mot_tracks", ["file", "flags"], rows=1))
        mot_tracks · 1 of 1588 rows
                                    file  flags
        gcdisc/ANIMRE.ciso/anim/0000.mot 0x0202
        """
        return show_table(self.tables[table] if frame is None else frame, self.columns(table),
                          None if columns is None else list(columns), rows=rows, title=table)

    def columns(self, table: str) -> pd.DataFrame:
        """The columns of one table with their kind, ksy type, enum and ``doc`` (from the spec).

        Examples
        --------
        >>> c.columns("frm").set_index("column").at["walk_speed", "type"]
        'u4'
        """
        s = self.schema
        return self._by_table(s)[0].get(table, s.iloc[0:0]).reset_index(drop=True)

    def _by_table(self, s: pd.DataFrame) -> tuple[dict, set]:
        """The schema's rows per table and its (table, column) pairs, split once per schema (a profile of
        every table asks for every table's columns many times)."""
        got = self.__dict__.get("_split")
        if got is None or got[0] is not s:
            rows = {t: g for t, g in s.groupby("table", sort=False)}
            got = self._split = (s, rows, set(zip(s["table"], s["column"])))
        return got[1], got[2]

    def has_column(self, table: str, column: str) -> bool:
        """True when the loaded spec (or a derived column) gives ``table`` the column ``column``.

        Examples
        --------
        >>> c.has_column("frm", "walk_speed"), c.has_column("frm", "walking_speed")
        (True, False)
        """
        if column in ("file", "block") or (table, column) in self._derived_ok:
            return True
        return (table, column) in self._by_table(self.schema)[1]

    def ids(self, table: str) -> list[str]:
        """Columns whose values identify a table's records: its positions and ``-animre-id`` fields.

        Examples
        --------
        >>> c.ids("af_moves")
        ['move', 'move_number']
        """
        info = self.columns(table)
        return [k for k in self.keys(table) if k not in ("file", "block")] + list(
            info[info["is_id"].astype(bool)]["column"])

    def keys(self, table: str) -> list[str]:
        """Key columns of a table (``file``, ``block`` for containers, then positions).

        Examples
        --------
        >>> c.keys("frm_frames"), c.keys("pas4_parms")
        (['file', 'slot', 'position'], ['file', 'block', 'state', 'parm'])
        """
        df = self.tables.get(table)
        ks = list(self.columns(table).query("kind == 'key'")["column"])
        lead = ["file"] + (["block"] if df is not None and "block" in df.columns else [])
        return lead + ks
    def _derive(self) -> None:
        """Add every format's derived columns whose spec fields exist; record the others."""
        derive(self)

    def __repr__(self) -> str:
        # the folder's name only: an executed notebook or a log shared with others shows no local path
        n_ok = int(self.tables["files"]["ok"].sum())
        return (f"<Corpus {self.root.name if self.root else ''}: {len(self.results)} files, {n_ok} parsed, "
                f"{len(self.errors)} errors; tables: {', '.join(self.tables)}>")

    @property
    def files(self) -> pd.DataFrame:
        """The ``files`` table: one row per file and per container member.

        Columns: file, format, size, sha256, ok, status (``parsed``, ``failed``,
        ``skipped`` when no format recognises it, ``container`` for a container
        no format reads), container (the corpus name of the container holding
        it), offset (of its bytes inside that container), kind (the container
        id when the file is a container) and members (its member count).

        Examples
        --------
        >>> f = c.files.set_index("file")
        >>> f.at["agg/HEROES2.AGG", "kind"], f.at["zip/CIV3UNITS.ZIP", "status"]
        ('agg', 'container')
        >>> f.at["agg/HEROES2.AGG/GOBLNFRM.BIN", "container"]
        'agg/HEROES2.AGG'
        """
        return self.tables["files"]

    def path(self, file: str) -> Path:
        """Absolute path of a file of the corpus (for a container member: the file on disk holding it)."""
        return self._sources[file].path

    def read_bytes(self, file: str) -> bytes:
        """The bytes of a file of the corpus (a container member is read from its container).

        Examples
        --------
        >>> len(c.read_bytes("agg/HEROES2.AGG/GOBLNFRM.BIN"))
        821
        """
        return read_source(self._sources[file])

    def format_of(self, file: str) -> str | None:
        """The detected format name of a file.

        Examples
        --------
        >>> c.format_of("frm/GOBLNFRM.BIN")
        'frm'
        """
        fm = getattr(self, "_format_by_file", None)
        if fm is None or len(fm) != len(self.files):
            fm = self._format_by_file = dict(zip(self.files["file"], self.files["format"]))
        fmt = fm.get(file)
        return None if fmt is None or pd.isna(fmt) else fmt

    def parse(self, file: str):
        """Parse one file again and return the Kaitai object tree (with ``_debug`` offsets).

        Offsets of a container member's fields are relative to the member.

        Examples
        --------
        >>> c.parse("agg/HEROES2.AGG/GOBLNFRM.BIN").walk_speed == c.parse("agg/GOBLNFRM.BIN").walk_speed
        True
        """
        fmt = self.format_of(file)
        _, obj, _ = parse(self.read_bytes(file), file, fmt, self.parsers, formats=self.formats)
        return obj

    def span(self, table: str, row: int, column: str) -> tuple[int, int]:
        """Absolute ``[start, end)`` byte range of one curated table cell.

        Examples
        --------
        >>> c.span("frm", 0, "walk_speed")
        (162, 166)
        """
        s, e = self.spans[table]
        start, end = s.at[row, column], e.at[row, column]
        if pd.isna(start) or pd.isna(end):
            raise KeyError(f"{table}.{column} row {row} has no byte range in the file: a computed value, a key, "
                           "or a value read from the bytes of a `process:` (c.fields(file) gives its range in "
                           "that stream and where the stored bytes lie)")
        return int(start), int(end)

    def offsets(self, table: str, column: str, index=None, *, end: bool = False) -> pd.Series:
        """Absolute start offsets (Int64) of one column's cells; NA where a cell was computed.

        ``index`` selects rows (default: all); ``end=True`` gives the end offsets
        (exclusive). Unknown tables or columns give all NA, so claims and research
        code never need to special-case them.

        Examples
        --------
        >>> c.offsets("frm", "walk_speed").unique().tolist()
        [162]
        """
        df = self.tables.get(table)
        idx = (df.index if df is not None else pd.RangeIndex(0)) if index is None else index
        k = 1 if end else 0
        if table not in self.spans or column not in self.spans[table][k]:
            return pd.Series(pd.NA, index=idx, dtype="Int64")
        return self.spans[table][k][column].reindex(idx).astype("Int64")

    def fields(self, files: str | Iterable[str] | None = None, values: bool = True,
               progress: bool | None = None) -> pd.DataFrame:
        """The long ``fields`` table: every value read, with its byte range.

        Columns: file, path, parent, index, name, kind, type, value, start, end.
        ``kind`` is ``value``, ``struct`` (a record) or ``array``; ``type`` is
        the field's ksy type from the spec; value instances computed from other
        fields have no start/end. The files are parsed again (the tables keep
        only what the spec declares), with a progress bar for 20+ files on a
        terminal or in a notebook; interrupting stops it.

        Examples
        --------
        >>> f = c.fields("frm/GOBLNFRM.BIN")
        >>> f.query("path == 'walk_speed'")[["type", "value", "start", "end"]].values.tolist()
        [['u4', 400, 162, 166]]
        """
        if files is None:
            files = [r.file for r in self.results if r.ok and r.format is not None]
        elif isinstance(files, str):
            files = [files]
        else:
            files = list(files)
        it = files
        if progress is not False and len(files) >= 20:
            from tqdm.auto import tqdm

            it = tqdm(files, desc="animre: reading fields", unit="file", disable=None if progress is None else False)
        frames = []
        for f in it:
            blocks = list(parse_blocks(self.read_bytes(f), f, self.format_of(f), self.parsers, formats=self.formats))
            for _, k, obj, bases in blocks:
                ft = fields_table(obj, f, bases, values=values)
                if len(blocks) > 1:  # several blocks in one container: paths say which
                    for c in ("path", "parent"):
                        ft[c] = [f"blocks[{k}]." + p if p else f"blocks[{k}]" for p in ft[c]]
                frames.append(ft)
        if not frames:
            return fields_table(None, "", None)
        return pd.concat(frames, ignore_index=True)
