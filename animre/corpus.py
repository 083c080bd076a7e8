"""Open a folder of game files: detect, parse, tabulate, keep errors, cache.

``open_corpus(path)`` detects every file's format by content, reads it into
the tables its spec declares (:mod:`animre.read`, :mod:`animre.flatten`:
every cell traced to its byte range), keeps one error row per file that
failed instead of stopping, adds each format's derived columns, and caches
the result (:mod:`animre.cache`): re-opening re-parses only files whose
content, spec or animre version changed.
"""

from __future__ import annotations

import hashlib
import os
import time
import types
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from . import __version__
from .atomic import write_atomic  # noqa: F401 - re-exported for callers of the old location
from .cache import default_cache_dir, read_snapshot, snapshot_dir, write_snapshot
from .errors import AnimreError, ParseError, SpecError, ToolchainError, UsageError
from .flatten import COLUMN_INFO, EXTENT, Chunk, column_values
from .formats import MIN_SCORE, Format, detect, registry
from .formats.base import not_in_spec as _not_in_spec
from .formats.base import not_testable
from .read import module_for, parse_blocks, parse_data, parse_file, plan_of, read_chunks
from .sources import Source, list_sources, read_source
from .tableview import TableView, show_table

__all__ = ["Corpus", "open_corpus", "parse_file", "parse_data", "parse_blocks", "FileResult",
           "default_cache_dir", "UNAVAILABLE_COLUMNS"]

ERROR_COLUMNS = ["file", "format", "path", "offset", "message", "container"]
FILES_COLUMNS = ["file", "format", "size", "sha256", "ok", "status", "container", "offset", "kind", "members",
                 "detected_by"]
UNAVAILABLE_COLUMNS = ["kind", "format", "table", "name", "missing", "message"]
_KEY_SCHEMA = "files-v3"  # bump when the files table's columns change: older snapshots are not reused


@dataclass
class FileResult:
    """What one file yielded: its table rows with byte spans, or its error.

    ``status`` is ``parsed``, ``failed``, ``skipped`` (not recognised as any
    format: listed, not an error) or ``container`` (a container no format
    reads; its members are files of their own).
    """

    file: str
    path: str
    format: str | None
    size: int
    sha256: str
    ok: bool
    chunks: dict[str, Chunk] = field(default_factory=dict)
    error: dict | None = None
    cached: bool = False
    status: str = "parsed"
    container: str | None = None
    offset: int | None = None
    kind: str | None = None
    members: int | None = None
    detected_by: str | None = None

    def row(self) -> dict:
        """Its row of the ``files`` table."""
        return {c: getattr(self, c) for c in FILES_COLUMNS}


# ------------------------------------------------------------------ one file


@dataclass
class _Ident:
    src: Source
    fmt: Format | None
    key: str | None
    by: str | None = None

    @property
    def name(self) -> str:
        return self.src.name


def _trial(src: Source, fmt: Format) -> bool:
    """Does the file parse with the format's spec (its ``seq``; instances are not needed to decide)?"""
    try:
        parse_data(read_source(src), src.name, fmt, instance_errors=[])
        return True
    except (SpecError, ToolchainError):  # the spec itself is broken: say so, never "not this format"
        raise
    except (AnimreError, Exception):  # noqa: BLE001 - a failed trial only rules the format out
        return False


def _choose(src: Source, reg: Mapping[str, Format]) -> tuple[Format | None, str | None]:
    """The format of one file and why (``detected_by``): magic, plugin, extension, trial parse, tie."""
    found = detect(src.head, src.size, src.name, reg)
    sure = [d for d in found if d.score >= MIN_SCORE and not d.needs_trial]
    if sure:
        best = sure[0]
        rivals = [d for d in sure[1:] if best.score - d.score < 0.05]
        if not rivals:
            return best.format, best.by
        parsed = [d for d in [best, *rivals] if _trial(src, d.format)]
        if len(parsed) == 1:
            return parsed[0].format, f"{parsed[0].by}; the only one of {1 + len(rivals)} claiming specs that parses"
        if not parsed:
            return best.format, best.by
        names = ", ".join(d.format.name for d in parsed)
        return parsed[0].format, f"{parsed[0].by}; tie: {names} all parse it ({parsed[0].format.name} chosen)"
    trials = [d for d in found if d.needs_trial]
    parsed = [d for d in trials if _trial(src, d.format)]
    if parsed:
        d = parsed[0]
        tie = f"; tie: {', '.join(x.format.name for x in parsed)} all parse it" if len(parsed) > 1 else ""
        return d.format, ("weak magic + trial parse" if d.by == "weak magic" else "trial parse") + tie
    return None, None


def _identify(src: Source, parsers, spec_hashes: dict[str, str] | None = None,
              reg: Mapping[str, Format] | None = None) -> _Ident:
    """Detect one entry's format; the cache key ties content, place, spec and animre version."""
    if src.error is not None:
        return _Ident(src, None, None)
    fmt, by = _choose(src, reg if reg is not None else registry(parsers=parsers, env=False))
    if fmt is None:
        return _Ident(src, None, None)
    if spec_hashes is not None and fmt.name in spec_hashes:
        shash = spec_hashes[fmt.name]
    else:
        shash = module_for(fmt, parsers)[1]
        if spec_hashes is not None:
            spec_hashes[fmt.name] = shash
    place = f"{src.container}|{src.offset}|{src.kind}|{src.members}"
    key = hashlib.sha256(f"{src.sha256}|{fmt.name}|{shash}|{__version__}|{_KEY_SCHEMA}|{place}".encode()).hexdigest()
    return _Ident(src, fmt, key, by)


def _error_row(e: ParseError, fmt: str | None, container: str | None) -> dict:
    return {"file": e.file, "format": fmt, "path": e.path, "offset": e.offset, "message": str(e),
            "container": container}


def _process(ident: _Ident, parsers) -> FileResult:
    src, fmt = ident.src, ident.fmt
    res = FileResult(src.name, str(src.path), fmt.name if fmt else None, src.size, src.sha256, False,
                     status="failed", container=src.container, offset=src.offset, kind=src.kind,
                     members=src.members, detected_by=ident.by)
    if src.error is not None:
        res.error = _error_row(ParseError(src.name, src.error.path, src.error.offset, src.error.reason),
                               None, src.container)
        return res
    if fmt is None:
        res.ok, res.status = (True, "container") if src.kind else (False, "skipped")
        return res
    try:
        later: list[ParseError] = []
        res.chunks = read_chunks(read_source(src), src.name, fmt, parsers, instance_errors=later)
        res.ok, res.status = True, "parsed"
        if later:  # the seq parsed, an instance did not: values kept, the instance is an error row
            res.error = _error_row(later[0], fmt.name, src.container)
            res.error["file"] = src.name
            if len(later) > 1:
                res.error["message"] += f" (and {len(later) - 1} more blocks)"
    except ParseError as e:
        res.error = _error_row(e, fmt.name, src.container)
        res.error["file"] = src.name
    except (AnimreError, Exception) as e:  # noqa: BLE001 - a bad file never aborts a corpus
        res.error = {"file": src.name, "format": fmt.name, "path": "", "offset": 0,
                     "message": f"{src.name}: (tables) @ 0x0 (0): {type(e).__name__}: {e}",
                     "container": src.container}
        res.chunks = {}
    return res


# ------------------------------------------------------------------ the corpus


class _Collector:
    """Gathers the tables of freshly parsed files column by column, consolidating every ``every`` files.

    Each file yields column chunks (lists of values, int32 offset arrays); they
    are concatenated per column into one DataFrame per table and flush, so a
    scan of 10,000 files builds a few large frames instead of thousands of
    small ones, and its memory stays close to the size of the final tables.
    """

    def __init__(self, every: int = 256):
        self.every = every
        self.n = 0
        self.pending: dict[str, list[tuple[str, Chunk]]] = {}
        self.chunks: dict[str, list] = {}

    def add(self, r: FileResult) -> None:
        for t, ch in r.chunks.items():
            if ch.n:
                self.pending.setdefault(t, []).append((r.file, ch))
        r.chunks = {}
        self.n += 1
        if self.n % self.every == 0:
            self._flush()

    def absorb(self, tables: dict[str, list]) -> None:
        """Append tables a worker already concatenated (after everything added so far)."""
        self._flush()
        for t, parts in tables.items():
            self.chunks.setdefault(t, []).extend(parts)

    def _flush(self) -> None:
        """Turn the pending files' chunks into column arrays: one part per table, three dicts
        (values, start offsets, end offsets), each ``{"file": ..., column: array}``."""
        for t, parts in self.pending.items():
            cols = parts[0][1].columns
            n = sum(c.n for _, c in parts)
            vals: dict[str, Any] = {"file": pd.Series(np.repeat([f for f, _ in parts], [c.n for _, c in parts]))}
            for col in cols:
                v: list = []
                for _, ch in parts:
                    v.extend(ch.data[col])
                vals[col] = column_values(v)  # integers with gaps stay integers (Int64)
            span_cols = parts[0][1].span_cols
            same = all(ch.span_cols == span_cols for _, ch in parts)
            spans = []
            for which in ("st", "en"):
                sp = {"file": pd.Series(pd.arrays.IntegerArray(np.zeros(n, np.int32), np.ones(n, bool)))}
                if same:  # one concatenation per table: offsets are (columns x rows) int32 matrices
                    m = np.concatenate([getattr(ch, which) for _, ch in parts], axis=1)
                    rows = dict(zip(span_cols, m))
                else:
                    rows = {c: np.concatenate([dict(zip(ch.span_cols, getattr(ch, which))).get(
                        c, np.full(ch.n, -1, np.int32)) for _, ch in parts]) for c in cols}
                none = np.full(n, -1, np.int32)
                for col in cols + [c for c in span_cols if c not in vals]:  # + extents (skipped fields)
                    a = rows.get(col, none)
                    sp[col] = pd.Series(pd.arrays.IntegerArray(np.maximum(a, 0), a < 0))
                spans.append(sp)
            self.chunks.setdefault(t, []).append((vals, spans[0], spans[1]))
        self.pending = {}

    def tables(self) -> dict[str, tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]]:
        """Every table as (values, starts, ends) DataFrames.

        Parts are joined column by column and each part's column is released as
        soon as it is joined, and the frames are built without copying the
        joined arrays, so the peak stays near the size of the result.
        """
        self._flush()
        out = {}
        for t in list(self.chunks):
            parts = self.chunks.pop(t)
            sizes = [len(p[0]["file"]) for p in parts]
            frames = []
            for k, fill in ((0, None), (1, pd.NA), (2, pd.NA)):
                cols: list[str] = list(dict.fromkeys(c for p in parts for c in p[k]))
                data = {}
                for col in cols:
                    pieces = [p[k].pop(col, None) for p in parts]
                    pieces = [x if x is not None else pd.Series([fill] * m, dtype=None if k == 0 else "Int32")
                              for x, m in zip(pieces, sizes)]
                    if len(pieces) == 1:
                        joined = pieces[0]
                    else:
                        joined = pd.concat(pieces, ignore_index=True)
                        if k == 0 and len({str(x.dtype) for x in pieces}) > 1:
                            # a part where the column was all None inferred another dtype: infer once
                            # (integers with gaps stay nullable integers)
                            known = {str(x.dtype) for x in pieces if x.notna().any()}
                            joined = (joined.astype("Int64") if known and known <= {"int64", "Int64"}
                                      else pd.Series(joined.tolist()))
                    del pieces
                    data[col] = joined.reset_index(drop=True)
                frames.append(pd.DataFrame(data, columns=cols, copy=False))
            out[t] = tuple(frames)
        return out


class _Spans(Mapping):
    """table -> (start DataFrame, end DataFrame); tables from a snapshot load on first use."""

    def __init__(self):
        self._d: dict[str, Any] = {}

    def __getitem__(self, t: str) -> tuple[pd.DataFrame, pd.DataFrame]:
        v = self._d[t]
        if callable(v):
            v = self._d[t] = v()
        return v

    def __setitem__(self, t: str, v) -> None:
        self._d[t] = v

    def __iter__(self):
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)


class _DeriveContext:
    """What a derived column's function may look at besides its own table."""

    def __init__(self, corpus: Corpus):
        self._c = corpus
        self._shared: dict = {}

    @property
    def files(self) -> pd.DataFrame:
        return self._c.files

    def shared(self, key, fn):
        """``fn()`` computed once per derivation and shared by every derived column that asks for ``key``."""
        if key not in self._shared:
            self._shared[key] = fn()
        return self._shared[key]

    def table(self, name: str) -> pd.DataFrame:
        df = self._c.tables.get(name)
        return df if df is not None else pd.DataFrame(columns=self._c.keys(name))

    def starts(self, table: str, column: str) -> pd.Series:
        return self._c.offsets(table, column)

    def file_sizes(self, df: pd.DataFrame) -> pd.Series:
        """The size in bytes of each row's file (Int64, aligned with ``df``)."""
        sizes = self.files.drop_duplicates("file").set_index("file")["size"]
        return df["file"].map(sizes).astype("Int64")

    def lookup(self, df: pd.DataFrame, table: str, column: str) -> np.ndarray:
        """``table.column`` for every row of ``df``, matched on the key columns both tables have.

        A record's key columns name its parents (``file``, ``block``, ``slot`` ...), so a child
        row finds its parent's value this way (NA where there is none).
        """
        other = self.table(table)
        keys = [k for k in self._c.keys(table) if k in df.columns and k in other.columns]
        right = other[keys + [column]].drop_duplicates(keys)
        # positions through an index, not a merge: no copy of the key columns per row
        if len(keys) == 1:
            pos = pd.Index(right[keys[0]]).get_indexer(df[keys[0]])
        else:
            pos = pd.MultiIndex.from_frame(right[keys]).get_indexer(pd.MultiIndex.from_frame(df[keys]))
        return right[column].reset_index(drop=True).reindex(pos).to_numpy()

    def ends(self, table: str, column: str) -> pd.Series:
        return self._c.offsets(table, column, end=True)


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
        self.spans = _Spans()
        self.unavailable = pd.DataFrame(columns=UNAVAILABLE_COLUMNS)
        self._derived_ok: set[tuple[str, str]] = set()
        self.timings = pd.DataFrame(columns=["phase", "seconds", "start", "end"])
        self._schema = None
        if fresh_tables is None:
            collector = _Collector()
            for r in results:
                collector.add(r)
            fresh_tables = collector.tables()
        self._build(snapshot or {}, order or [r.file for r in results], fresh_tables)

    def _build(self, snapshot: dict, order: list[str], fresh_tables: dict) -> None:
        """Assemble tables from fresh results plus rows kept from a snapshot (cached opens)."""
        rank = {f: i for i, f in enumerate(order)}
        fresh = [r for r in self.results if not r.cached or r.error]
        fresh_files = {r.file for r in fresh}
        snap_tables = snapshot.get("tables", {})
        snap_files = snapshot.get("files")

        def merge(old: pd.DataFrame | None, new: pd.DataFrame) -> pd.DataFrame:
            if not fresh and old is not None:  # everything from the snapshot: already in order
                return old
            if old is None or not len(old):
                df = new
            else:
                old = old[old["file"].isin(set(rank) - fresh_files)]
                # no cached row left (its spec changed): the fresh columns only, never a stale column of NA
                df = pd.concat([old, new], ignore_index=True) if len(new) and len(old) else new if len(new) else old
            if len(df):
                r = df["file"].map(rank).to_numpy()
                if len(r) > 1 and (r[1:] < r[:-1]).any():  # only reorder what is out of order (no copy otherwise)
                    df = df.iloc[r.argsort(kind="stable")].reset_index(drop=True)
            return df

        new_files = pd.DataFrame([r.row() for r in fresh], columns=FILES_COLUMNS)
        for col in ("offset", "members"):
            new_files[col] = new_files[col].astype("Int64")
        files = merge(snap_files, new_files).reset_index(drop=True)
        for col in ("format", "container", "kind", "status"):  # one NA (None) whether fresh or cached
            files[col] = files[col].astype(object).where(files[col].notna(), None)
        self.tables["files"] = files
        new_errs = pd.DataFrame([r.error for r in fresh if r.error], columns=ERROR_COLUMNS)
        self.errors = merge(snapshot.get("errors"), new_errs)
        if len(self.errors):
            self.errors["offset"] = self.errors["offset"].astype("int64")
        names: list[str] = list(snap_tables) + [t for t in fresh_tables if t not in snap_tables]
        for t in names:
            if t in fresh_tables:
                new, new_s, new_e = fresh_tables[t]
            else:
                new = pd.DataFrame(columns=["file"])
                new_s = new_e = pd.DataFrame(columns=["file"])
            if t in snap_tables and not fresh:  # unchanged corpus: spans load when first asked for
                old, load_spans = snap_tables[t]
                if len(old):
                    self.tables[t] = old
                    self.spans[t] = load_spans
                continue
            if t in snap_tables:
                old, load_spans = snap_tables[t]
                old_s, old_e = load_spans()
                if len(new):
                    new_s["file"] = new["file"]
                    new_e["file"] = new["file"]
                old_s = old_s.assign(file=old["file"].values)
                old_e = old_e.assign(file=old["file"].values)
                df = merge(old, new)
                ss = merge(old_s, new_s)
                ee = merge(old_e, new_e)
                ss["file"] = pd.NA
                ee["file"] = pd.NA
            else:
                df, ss, ee = new, new_s, new_e
            if not len(df):
                continue
            cols = list(df.columns)
            cols += [c for c in ss.columns if c.startswith(EXTENT) and c not in cols]  # skipped fields' bytes
            self.tables[t] = df
            self.spans[t] = (ss.reindex(columns=cols).astype("Int32"), ee.reindex(columns=cols).astype("Int32"))

    def _snapshot_payload(self) -> dict:
        return {"files": self.tables["files"], "errors": self.errors,
                "tables": {t: (df, *self.spans[t]) for t, df in self.tables.items() if t in self.spans}}

    # -- the spec's columns, derived columns ---------------------------------------

    def _formats_in_use(self) -> list[Format]:
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
            frames = [plan_of(f, self.parsers).info() for f in self._formats_in_use()]
            extra = []
            for f in self._formats_in_use():
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
        frames = [plan_of(f, self.parsers).extent_info() for f in self._formats_in_use()]
        frames = [x for x in frames if len(x)]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["table", "name", "category"])

    def show(self, table: str, columns: Iterable[str] | None = None, *, rows: int | None = 20,
             frame: pd.DataFrame | None = None) -> TableView:
        """Table ``table`` (or ``frame``, rows taken from it) shown through the one formatter.

        Magic values, flags, hashes and ids print in hex as the claims write them, decided by
        :meth:`columns` (:mod:`animre.tableview`); ``rows``: the first rows shown (None: all).

        Examples
        --------
        >>> print(c.show("mot_tracks", ["file", "flags"], rows=1))
        mot_tracks · 1 of 1292 rows
                                   file  flags
        gcdisc/ANIMRE.gcm/anim/0000.mot 0x0202
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
        return s[s["table"] == table].reset_index(drop=True)

    def has_column(self, table: str, column: str) -> bool:
        """True when the loaded spec (or a derived column) gives ``table`` the column ``column``.

        Examples
        --------
        >>> c.has_column("frm", "walk_speed"), c.has_column("frm", "walking_speed")
        (True, False)
        """
        if column in ("file", "block") or (table, column) in self._derived_ok:
            return True
        s = self.schema
        return bool(((s["table"] == table) & (s["column"] == column)).any())

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
        self._derived_ok: set[tuple[str, str]] = set()
        self._schema = None
        rows = []
        ctx = _DeriveContext(self)
        for f in self._formats_in_use():
            for d in f.derived:
                df = self.tables.get(d.table)
                if df is not None and d.column in df.columns:
                    self.tables[d.table] = df = df.drop(columns=[d.column])
                missing = not_testable(self, d.reads)
                if missing:
                    rows.append(("derived", f.name, d.table, d.column, missing,
                                 _not_in_spec(missing)))
                    continue
                self._derived_ok.add((d.table, d.column))
                if df is None:
                    continue
                try:
                    vals = d.fn(df, ctx)
                    df = df.copy(deep=False)  # copy-on-write: the new column never touches the old frame
                    if isinstance(vals, pd.Series):
                        vals = vals.array  # keeps nullable integer types (no float NaN)
                    elif not isinstance(vals, (np.ndarray, pd.api.extensions.ExtensionArray)):
                        vals = list(vals)
                    if len(vals) != len(df):
                        raise ValueError(f"{len(vals)} values for {len(df)} rows")
                    df[d.column] = vals
                    self.tables[d.table] = df
                except Exception as e:  # noqa: BLE001 - one broken derivation must not hide the tables
                    self._derived_ok.discard((d.table, d.column))
                    rows.append(("derived", f.name, d.table, d.column, [],
                                 f"could not compute: {type(e).__name__}: {e}"))
            for cl in f.claims:
                missing = not_testable(self, cl.reads)
                if missing:
                    rows.append(("claim", f.name, cl.reads[0][0] if cl.reads else "", cl.text, missing,
                                 _not_in_spec(missing)))
        self._schema = None
        self.unavailable = pd.DataFrame(rows, columns=UNAVAILABLE_COLUMNS)
        if rows:
            warnings.warn(
                "animre: " + "; ".join(f"{r[0]} {r[3]!r} ({r[1]}): {r[5]}" for r in rows[:8])
                + (f"; and {len(rows) - 8} more (corpus.unavailable)" if len(rows) > 8 else ""),
                stacklevel=3)

    # -- access --------------------------------------------------------------------

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
        _, obj, _ = parse_data(self.read_bytes(file), file, fmt, self.parsers, formats=self.formats)
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
            raise KeyError(f"{table}.{column} row {row} is computed, not read from bytes")
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
        from .tables import fields_table

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


PARALLEL_MIN_FILES = 256  # below this, starting worker processes costs more than it saves
_POOL_STATE: tuple | None = None  # (idents, parsers) inherited by forked workers: nothing of it is pickled


def _workers(workers: int | None) -> int:
    if workers is None:
        env = os.environ.get("ANIMRE_WORKERS")
        if env:
            try:
                workers = int(env)
            except ValueError:
                raise UsageError(f"ANIMRE_WORKERS must be a whole number, not {env!r}") from None
        else:
            workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, int(workers))


def _process_batch(bounds: tuple[int, int]) -> tuple[list[FileResult], dict]:
    """Worker side: parse ``idents[start:end]`` and concatenate the batch's tables here.

    What goes back is the files' results (no rows) and, per table, column
    arrays for the whole batch (DataFrames of values and int32 offsets), so
    the parent only appends them: never parse trees, never per-cell objects.
    """
    idents, parsers = _POOL_STATE
    results = [_process(i, parsers) for i in idents[bounds[0]:bounds[1]]]
    collector = _Collector(every=len(results) + 1)
    for r in results:
        collector.add(r)
    collector._flush()
    return results, collector.chunks


def _batch_size(n: int, workers: int) -> int:
    """Files per worker batch: a few batches per worker (for balance), 16..256 files each."""
    return max(16, min(256, -(-n // (workers * 4))))


def _scan(todo: list[_Ident], parsers, workers: int, parallel: bool, bar) -> Iterable[tuple[list, dict | None]]:
    """Parse every file of ``todo`` in order, in ``workers`` forked processes when ``parallel``.

    Yields ``(results, tables)``: one file and ``None`` in this process (its
    rows are still in ``results[0].chunks``), or a worker's batch with its
    tables already concatenated.
    """
    import multiprocessing as mp

    if parallel and workers > 1 and len(todo) > 1 and "fork" in mp.get_all_start_methods():
        from concurrent.futures import ProcessPoolExecutor

        global _POOL_STATE
        _POOL_STATE = (todo, parsers)
        done = 0
        try:
            with ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("fork")) as ex:
                size = _batch_size(len(todo), workers)
                batches = [(k, min(k + size, len(todo))) for k in range(0, len(todo), size)]
                for batch, tables in ex.map(_process_batch, batches):
                    done += len(batch)
                    yield batch, tables
                    _advance(bar, batch)
            return
        except Exception:  # noqa: BLE001 - a broken pool (e.g. a worker killed) falls back to one process
            todo = todo[done:]
        finally:
            _POOL_STATE = None
    for ident in todo:
        r = _process(ident, parsers)
        yield [r], None
        _advance(bar, [r])


def _advance(bar, done: list[FileResult]) -> None:
    """Move the progress bar by files, showing the bytes parsed so far."""
    if bar is None:
        return
    bar.update(len(done))
    bar.bytes_done = getattr(bar, "bytes_done", 0) + sum(r.size for r in done)
    bar.set_postfix_str(f"{bar.bytes_done / 1e6:.1f} of {bar.bytes_total / 1e6:.1f} MB", refresh=False)


def open_corpus(path: str | os.PathLike | Iterable[str | os.PathLike], *,
                specs: Iterable[str | os.PathLike] | str | os.PathLike | None = None,
                formats: Iterable[str] | None = None, cache: bool | str | os.PathLike = True,
                parsers: Mapping[str, types.ModuleType] | None = None, progress: bool | None = None,
                workers: int | None = None) -> Corpus:
    """Open a folder (or a list of files): detect, parse and tabulate every file.

    Parameters
    ----------
    path : folder, file, or list of files
    specs : paths, optional
        Your own ``.ksy`` files, or folders of them (a checked-out copy of the
        public Kaitai format gallery works as it is), besides the shipped
        specs and those of ``$ANIMRE_SPECS``. Each is compiled on first use
        and cached by its content hash (and that of what it imports); a
        ``<id>.py`` beside ``<id>.ksy`` is its plugin. A spec whose id is a
        shipped format's replaces that spec.
    formats : format ids, optional
        Only these formats take part in detection (``["frm", "bmp"]``).
    cache : bool or path
        ``True`` uses :func:`default_cache_dir`; a path uses that folder;
        ``False`` parses everything again.
    parsers : dict spec id -> module, optional
        Parser modules to use instead of the specs' own, e.g. from
        :func:`animre.compile_spec` after editing a spec; an id that no format
        has opens as a format of its own.
    progress : bool, optional
        Show a progress bar (files, with the bytes read); by default only for
        20+ files on a terminal.
    workers : int, optional
        Processes that parse in parallel (forked; each returns its files'
        tables as column arrays). Default ``$ANIMRE_WORKERS``, else every core,
        used when at least 256 files need parsing; ``workers=1`` parses in
        this process. Results are the same either way, in the same order.

    Examples
    --------
    >>> c = open_corpus("data/samples/frm", cache=False)
    >>> c.tables["frm"][["file", "walk_speed"]].head(2)
               file  walk_speed
    0  ARCHRFRM.BIN         300
    1  BOAR_FRM.BIN         150
    """
    clock = _Clock()
    reg = registry(specs, formats, parsers)
    root, sources = list_sources(path, keep={e for f in reg.values() for e in f.extensions})
    files = [s.path for s in sources if not s.chain]
    cache_dir = None
    if cache is True:
        cache_dir = default_cache_dir()
    elif cache:
        cache_dir = Path(cache)
    names = [s.name for s in sources]
    spec_hashes: dict[str, str] = {}  # one spec hash per format per open
    idents = [_identify(s, parsers, spec_hashes, reg) for s in sources]
    for i in idents:  # the first bytes served detection; the corpus keeps no copy of them
        i.src = replace(i.src, head=b"")
    sources = [i.src for i in idents]
    keys = {i.name: i.key for i in idents}
    clock.lap("list, hash and detect")
    snapshot, sdir = None, None
    if cache_dir is not None:
        sdir = snapshot_dir(cache_dir, root, files, {
            **(parsers or {}), **{f"{f.name}:{f.source.hash}": None for f in reg.values()
                                  if f.source is not None and not f.source.shipped and f.name not in (parsers or {})},
            **({"formats:" + ",".join(reg): None} if formats is not None else {})})
        got = read_snapshot(sdir)
        if got is not None:
            old_keys, snapshot = got
            # keep only files whose content, format and spec are unchanged
            reuse = {n for n, k in keys.items() if k is not None and old_keys.get(n) == k}
            if reuse != set(old_keys) or len(reuse) != len(keys):
                snapshot["files"] = snapshot["files"][snapshot["files"]["file"].isin(reuse)]
    clock.lap("read cache")
    reused = set()
    if snapshot is not None:
        reused = set(snapshot["files"]["file"])
    todo = [i for i in idents if i.name not in reused]
    results = [FileResult(i.name, str(i.src.path), i.fmt.name if i.fmt else None, i.src.size, i.src.sha256, True,
                          cached=True, container=i.src.container, offset=i.src.offset, kind=i.src.kind,
                          members=i.src.members, detected_by=i.by) for i in idents if i.name in reused]
    bar = None
    if progress is not False and len(todo) >= 20:
        from tqdm.auto import tqdm

        total_bytes = sum(i.src.size for i in todo)
        bar = tqdm(total=len(todo), desc="animre: parsing", unit="file", disable=None if progress is None else False,
                   postfix=f"0.0 of {total_bytes / 1e6:.1f} MB")
        bar.bytes_total = total_bytes
    n_workers = _workers(workers)
    parallel = n_workers > 1 and (workers is not None or len(todo) >= PARALLEL_MIN_FILES)
    collector = _Collector()
    try:
        for batch, tables in _scan(todo, parsers, n_workers, parallel, bar):
            if tables:
                collector.absorb(tables)
            for r in batch:
                collector.add(r)
            results.extend(batch)
    finally:
        if bar is not None:
            bar.close()
    clock.lap("parse and flatten")
    fresh = collector.tables()
    clock.lap("concatenate")
    corpus = Corpus(root, results, parsers, snapshot=snapshot, order=names, fresh_tables=fresh, sources=sources,
                    formats=reg)
    del fresh
    clock.lap("assemble")
    if sdir is not None and (todo or snapshot is None):
        write_snapshot(sdir, keys, corpus._snapshot_payload())
    clock.lap("write cache")
    corpus._derive()
    clock.lap("derive")
    corpus.timings = clock.frame()
    return corpus


class _Clock:
    """Wall-clock windows of the phases of an open (``Corpus.timings``)."""

    def __init__(self):
        self.t0 = self.last = time.perf_counter()
        self.rows: list[tuple[str, float, float]] = []

    def lap(self, phase: str) -> None:
        now = time.perf_counter()
        self.rows.append((phase, self.last, now))
        self.last = now

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame([(p, b - a, a, b) for p, a, b in self.rows],
                            columns=["phase", "seconds", "start", "end"])


