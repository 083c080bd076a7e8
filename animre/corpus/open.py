"""``open_corpus``: list a folder's files, detect, parse (in parallel), tabulate, cache."""

from __future__ import annotations

import os
import time
import types
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path

import pandas as pd

from ..formats import registry
from ..sources import keep_open, list_sources
from .cache import default_cache_dir, read_snapshot, snapshot_dir, write_snapshot
from .collector import Collector
from .identify import identify
from .model import Corpus
from .results import FileResult
from .scan import PARALLEL_MIN_FILES, scan, worker_count

__all__ = ["open_corpus", "WHOLE_HEADS"]

WHOLE_HEADS = 64 << 20  # the listing's first bytes of small files kept (whole files) for their parse, at most

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
        :func:`animre.spec.compile_spec` after editing a spec; an id that no format
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
    with keep_open():  # containers read from memory stay open for the whole open, then close
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
        idents = [identify(s, parsers, spec_hashes, reg) for s in sources]
        budget = WHOLE_HEADS
        for i in idents:  # the first bytes served detection; the corpus keeps no copy of them ...
            head = i.src.head
            if i.fmt is not None and i.src.error is None and len(head) == i.src.size and len(head) <= budget:
                i.data = head  # ... but a file they hold whole is parsed from them (not read again)
                budget -= len(head)
            i.src = replace(i.src, head=b"")
        sources = [i.src for i in idents]
        keys = {i.name: i.key for i in idents}
        clock.lap("list, hash and detect")
        snapshot, sdir, stale = None, None, False
        if cache_dir is not None:
            sdir = snapshot_dir(cache_dir, root, files, {
                **(parsers or {}),
                **{f"{f.name}:{f.source.hash}": None for f in reg.values()
                   if f.source is not None and not f.source.shipped and f.name not in (parsers or {})},
                **({"formats:" + ",".join(reg): None} if formats is not None else {})})
            got = read_snapshot(sdir)
            if got is not None:
                old_keys, snapshot = got
                # keep only files whose content, format and spec are unchanged
                reuse = {n for n, k in keys.items() if k is not None and old_keys.get(n) == k}
                if reuse != set(old_keys) or len(reuse) != len(keys):
                    snapshot["files"] = snapshot["files"][snapshot["files"]["file"].isin(reuse)]
                stale = reuse != {n for n, k in old_keys.items() if k is not None}  # gone or changed: rewritten
                snapshot["stale"] = stale
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
            bar = tqdm(total=len(todo), desc="animre: parsing", unit="file",
                       disable=None if progress is None else False, postfix=f"0.0 of {total_bytes / 1e6:.1f} MB")
            bar.bytes_total = total_bytes
        n_workers = worker_count(workers)
        parallel = n_workers > 1 and (workers is not None or len(todo) >= PARALLEL_MIN_FILES)
        collector = Collector()
        try:
            for batch, tables in scan(todo, parsers, n_workers, parallel, bar):
                if tables:
                    collector.absorb(tables)
                for r in batch:
                    collector.add(r)
                results.extend(batch)
        finally:
            if bar is not None:
                bar.close()
        for i in idents:
            i.data = None
        clock.lap("parse and flatten")
        fresh = collector.tables()
        clock.lap("concatenate")
        corpus = Corpus(root, results, parsers, snapshot=snapshot, order=names, fresh_tables=fresh, sources=sources,
                        formats=reg)
        del fresh
        clock.lap("assemble")
        # a new snapshot when something was parsed that a snapshot keeps (files without a format, or that cannot
        # be read, have no key: they are looked at again on every open, and rewriting the cache for them costs
        # more than the rest of a warm open)
        if sdir is not None and (snapshot is None or stale or any(keys.get(i.name) is not None for i in todo)):
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
