"""Parse the files of a corpus: one file at a time, or in batches in forked worker processes.

A worker parses its batch and concatenates the batch's tables there, so
only column arrays come back (never parse trees or per-cell objects). The
files to parse are handed to forked workers through :data:`POOL_STATE`,
which they inherit: nothing of it is pickled.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor

from ..base.errors import AnimreError, ParseError, UsageError
from ..sources import keep_open, read_source
from ..tables.read import fast_reader, read_tables
from .collector import Collector
from .identify import Ident
from .results import FileResult, error_row

__all__ = ["process_file", "process_files", "scan", "fast_runs", "worker_count", "batch_size", "advance",
           "fast_batches", "PARALLEL_MIN_FILES", "SERIAL_BATCH", "FAST_BATCH", "FAST_BYTES"]

def process_file(ident: Ident, parsers) -> FileResult:
    src, fmt = ident.src, ident.fmt
    res = FileResult(src.name, str(src.path), fmt.name if fmt else None, src.size, src.sha256, False,
                     status="failed", container=src.container, offset=src.offset, kind=src.kind,
                     members=src.members, detected_by=ident.by, reason=ident.reason)
    if src.error is not None and fmt is None:
        res.error = _listing_error(src)
        return res
    if fmt is None:
        res.ok, res.status = (True, "container") if src.kind else (False, "skipped")
        return res
    try:
        later: list[ParseError] = []
        res.chunks = read_tables(ident.data if ident.data is not None else read_source(src), src.name, fmt, parsers,
                                 instance_errors=later)
        res.ok, res.status = True, "parsed"
        if later:  # the seq parsed, an instance did not: values kept, the instance is an error row
            res.error = error_row(later[0], fmt.name, src.container)
            res.error["file"] = src.name
            if len(later) > 1:
                more = ", ".join(dict.fromkeys(e.path for e in later[1:]))
                res.error["message"] += f" (and {len(later) - 1} more failing instance(s): {more})"
    except ParseError as e:
        res.error = error_row(e, fmt.name, src.container)
        res.error["file"] = src.name
    except (AnimreError, Exception) as e:  # noqa: BLE001 - a bad file never aborts a corpus
        res.error = {"file": src.name, "format": fmt.name, "path": "", "offset": 0,
                     "message": f"{src.name}: (tables) @ 0x0 (0): {type(e).__name__}: {e}",
                     "container": src.container}
        res.chunks = {}
    if src.error is not None:  # a container that cannot be listed, read as a format all the same
        own, res.error = res.error, _listing_error(src)
        if own is not None and own["message"] != res.error["message"]:
            res.error["message"] += f" (and as {fmt.name}: {own['message'].removeprefix(src.name + ': ')})"
    return res


def _listing_error(src) -> dict:
    return error_row(ParseError(src.name, src.error.path, src.error.offset, src.error.reason), None,
                     src.container)


# ------------------------------------------------------------------ the corpus



PARALLEL_MIN_FILES = 256  # below this, starting worker processes costs more than it saves
SERIAL_BATCH = 64  # files parsed (and their tables concatenated) at a time in this process
FAST_BATCH = 16384  # files a fixed-layout reader reads at once (each column one gather over all of them) ...
FAST_BYTES = 32 << 20  # ... and at most this many of their bytes (a file larger than that: alone)
_POOL_STATE: tuple | None = None  # (idents, parsers) inherited by forked workers: nothing of it is pickled


def worker_count(workers: int | None) -> int:
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


def process_batch(bounds: tuple[int, int]) -> tuple[list[FileResult], dict]:
    """Worker side: parse ``idents[start:end]`` and concatenate the batch's tables here.

    What goes back is the files' results (no rows) and, per table, column
    arrays for the whole batch (DataFrames of values and int32 offsets), so
    the parent only appends them: never parse trees, never per-cell objects.
    """
    idents, parsers = _POOL_STATE
    with keep_open():  # a container read from memory (and its temporary copy) closes with the batch
        return process_files(idents[bounds[0]:bounds[1]], parsers)


def process_files(idents: list[Ident], parsers) -> tuple[list[FileResult], dict]:
    """Parse files and concatenate their tables: ``(results, tables)`` as :meth:`Collector.absorb` takes them.

    Consecutive files of one format with a fixed-layout reader
    (:func:`animre.tables.read.fast_reader`) are read at once, every column
    one gather over all of them; when any of them is not read so, the run is
    read again in halves, down to runs of :data:`SPLIT_MIN` files, each of
    which then goes through :func:`process_file` (the fast reader, else the
    Kaitai parse, with its exact error).
    """
    results: list[FileResult] = []
    collector = Collector(every=len(idents) + 1)
    k = 0
    while k < len(idents):
        fmt = idents[k].fmt
        reader = fast_reader(fmt, parsers) if fmt is not None and idents[k].src.error is None else None
        end = k + 1
        while reader is not None and end < len(idents) and idents[end].fmt is fmt and idents[end].src.error is None:
            end += 1
        run = idents[k:end]
        if reader is not None and len(run) > 1:
            _read_run(run, _blobs(run), reader, parsers, collector, results)
        else:
            _one_by_one(run, parsers, collector, results)
        k = end
    collector._flush()
    return results, collector.chunks


SPLIT_MIN = 64  # a run the fixed reader cannot read at once is split in halves down to this many files


def _read_run(run: list[Ident], blobs: list, reader, parsers, collector: Collector,
              results: list[FileResult]) -> None:
    got = _read_at_once(run, blobs, reader) if len(run) > 1 and all(b is not None for b in blobs) else None
    if got is not None:
        collector.add_many([r.file for r in got[0]], got[1])
        results.extend(got[0])
    elif len(run) > SPLIT_MIN:
        h = len(run) // 2
        _read_run(run[:h], blobs[:h], reader, parsers, collector, results)
        _read_run(run[h:], blobs[h:], reader, parsers, collector, results)
    else:
        _one_by_one(run, parsers, collector, results)


def _one_by_one(run: list[Ident], parsers, collector: Collector, results: list[FileResult]) -> None:
    for i in run:
        r = process_file(i, parsers)
        collector.add(r)
        results.append(r)


def _blobs(run: list[Ident]) -> list[bytes | None]:
    """The bytes of each file (None: it cannot be read; :func:`process_file` names the error)."""
    out: list[bytes | None] = []
    for i in run:
        try:
            out.append(i.data if i.data is not None else read_source(i.src))
        except Exception:  # noqa: BLE001 - that file is read on its own, and its own error named
            out.append(None)
    return out


def _read_at_once(run: list[Ident], blobs: list[bytes], reader) -> tuple[list[FileResult], dict] | None:
    try:
        tables = reader.read_many(blobs)
    except Exception:  # noqa: BLE001 - each file is then read on its own, and its own error named
        return None
    if tables is None:
        return None
    return [FileResult(i.src.name, str(i.src.path), i.fmt.name, i.src.size, i.src.sha256, True, status="parsed",
                       container=i.src.container, offset=i.src.offset, kind=i.src.kind, members=i.src.members,
                       detected_by=i.by, reason=i.reason) for i in run], tables


def batch_size(n: int, workers: int) -> int:
    """Files per worker batch: a few batches per worker (for balance), 16..256 files each."""
    return max(16, min(256, -(-n // (workers * 4))))


def fast_runs(todo: list[Ident], parsers) -> list[tuple[bool, int, int]]:
    """``todo`` cut into consecutive runs ``(fast, start, end)``: files a fixed-layout reader reads
    (:func:`animre.tables.read.fast_reader`), and the others."""
    readers: dict[int, bool] = {}
    runs: list[tuple[bool, int, int]] = []
    for k, i in enumerate(todo):
        fast = False
        if i.fmt is not None and i.src.error is None:
            got = readers.get(id(i.fmt))
            if got is None:
                got = readers[id(i.fmt)] = fast_reader(i.fmt, parsers) is not None
            fast = got
        if runs and runs[-1][0] == fast:
            runs[-1] = (fast, runs[-1][1], k + 1)
        else:
            runs.append((fast, k, k + 1))
    return runs


def scan(todo: list[Ident], parsers, workers: int, parallel: bool, bar) -> Iterable[tuple[list, dict | None]]:
    """Parse every file of ``todo`` in order, in ``workers`` forked processes when ``parallel``.

    Yields ``(results, tables)``: a batch of files with their tables already
    concatenated (:func:`process_files`), in a worker or in this process.
    Files a fixed-layout reader reads are read in this process in large batches (:func:`fast_batches`; a
    worker's tables would cost more to send back than to read), while the workers parse the others.
    """
    runs = fast_runs(todo, parsers)
    slow = sum(e - s for fast, s, e in runs if not fast)
    done = 0
    if parallel and workers > 1 and slow > 1 and "fork" in mp.get_all_start_methods():
        global _POOL_STATE
        _POOL_STATE = (todo, parsers)
        try:
            with ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("fork")) as ex:
                size = batch_size(slow, workers)
                jobs = {s: [ex.submit(process_batch, (k, min(k + size, e))) for k in range(s, e, size)]
                        for fast, s, e in runs if not fast}
                for fast, s, e in runs:
                    if fast:
                        for k, k2 in fast_batches(todo, s, e):
                            batch, tables = process_files(todo[k:k2], parsers)
                            done += len(batch)
                            yield batch, tables
                            advance(bar, batch)
                        continue
                    for job in jobs.pop(s):
                        batch, tables = job.result()
                        done += len(batch)
                        yield batch, tables
                        advance(bar, batch)
            return
        except Exception:  # noqa: BLE001 - a broken pool (e.g. a worker killed) falls back to one process
            pass
        finally:
            _POOL_STATE = None
    for fast, s, e in runs:
        s = max(s, done)
        bounds = fast_batches(todo, s, e) if fast else [(k, min(k + SERIAL_BATCH, e))
                                                        for k in range(s, e, SERIAL_BATCH)]
        for k, k2 in bounds:
            batch, tables = process_files(todo[k:k2], parsers)
            yield batch, tables
            advance(bar, batch)


def fast_batches(todo: list[Ident], start: int, end: int) -> list[tuple[int, int]]:
    """``todo[start:end]`` in batches of at most :data:`FAST_BATCH` files and :data:`FAST_BYTES` bytes."""
    out, k, n, size = [], start, 0, 0
    for j in range(start, end):
        if n and (n == FAST_BATCH or size + todo[j].src.size > FAST_BYTES):
            out.append((k, j))
            k, n, size = j, 0, 0
        n += 1
        size += todo[j].src.size
    if n:
        out.append((k, end))
    return out


def advance(bar, done: list[FileResult]) -> None:
    """Move the progress bar by files, showing the bytes parsed so far."""
    if bar is None:
        return
    bar.update(len(done))
    bar.bytes_done = getattr(bar, "bytes_done", 0) + sum(r.size for r in done)
    bar.set_postfix_str(f"{bar.bytes_done / 1e6:.1f} of {bar.bytes_total / 1e6:.1f} MB", refresh=False)
