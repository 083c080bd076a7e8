"""The corpus cache: a Parquet snapshot of every table, keyed per file.

Each snapshot is a generation folder named in ``<dir>/CURRENT``: tables and
their byte spans as Parquet plus ``index.json`` (each file's key: content
hash + spec hash + animre version). Byte spans load lazily, so a corpus
opened earlier keeps reading its own generation after a newer open wrote
another. Nothing is ever pickled (a cache may come from anyone).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
import uuid
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd

from .._version import __version__
from ..base.atomic import write_atomic
from ..base.dirs import default_cache_dir
from ..base.errors import AnimreError

__all__ = ["default_cache_dir", "snapshot_dir", "read_snapshot", "write_snapshot", "KEEP_GENERATIONS"]

KEEP_GENERATIONS = 3
#: Parquet files written at once (one per core, at most 4)
WRITERS = min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def snapshot_dir(cache_dir: Path, root: Path | None, files: list[Path], parsers) -> Path:
    """The snapshot folder of one corpus (its root, the parser overrides and animre's version)."""
    ident = json.dumps([str(root.resolve()) if root else "", sorted((parsers or {}).keys()), __version__])
    if root is None:
        ident += json.dumps(sorted(str(f.resolve()) for f in files))
    return cache_dir / "corpora" / hashlib.sha256(ident.encode()).hexdigest()[:24]


def _span_loader(gen: Path, t: str):
    def load() -> tuple[pd.DataFrame, pd.DataFrame]:
        try:
            return (pd.read_parquet(gen / f"{t}.start.parquet"), pd.read_parquet(gen / f"{t}.end.parquet"))
        except OSError as e:
            raise AnimreError(f"the cached byte spans of table {t!r} are gone ({e}); the corpus was "
                              "re-cached several times since it was opened: open it again") from e
    return load


def read_snapshot(sdir: Path) -> tuple[dict, dict] | None:
    """``(index {file: key}, snapshot)`` or None; snapshot tables are ``(rows, load_spans)``."""
    try:
        gen = sdir / (sdir / "CURRENT").read_text().strip()
        index = json.loads((gen / "index.json").read_text())
        snap = {"files": pd.read_parquet(gen / "files.parquet"),
                "errors": pd.read_parquet(gen / "errors.parquet"), "tables": {}}
        for t in index["tables"]:
            snap["tables"][t] = (pd.read_parquet(gen / f"{t}.rows.parquet"), _span_loader(gen, t))
        return index["keys"], snap
    except (OSError, ValueError, KeyError):
        return None


def write_snapshot(sdir: Path, keys: dict, payload: dict) -> None:
    """Write a new generation folder, then point ``CURRENT`` at it (never half-written).

    ``payload``: ``files`` and ``errors`` DataFrames and ``tables`` {name: (rows, starts, ends)}.
    A table pyarrow cannot store leaves the corpus uncached; nothing half-written survives.
    """
    sdir.mkdir(parents=True, exist_ok=True)
    name = f"g{time.time_ns():020d}-{uuid.uuid4().hex[:8]}"
    tmp = Path(tempfile.mkdtemp(dir=sdir, prefix=f".{name}."))
    try:
        jobs = [(payload["files"], "files"), (payload["errors"], "errors")]
        for t, (df, st_, en) in payload["tables"].items():
            jobs += [(df, f"{t}.rows"), (st_, f"{t}.start"), (en, f"{t}.end")]
        # pyarrow encodes and compresses without the GIL: the files are written side by side, the largest
        # first (the last to start is a small one); no column statistics: only this module reads the files,
        # whole (15% less to compute)
        jobs.sort(key=lambda job: -len(job[0]) * max(1, len(job[0].columns)))
        with ThreadPoolExecutor(max_workers=WRITERS) as ex:
            for f in [ex.submit(df.to_parquet, tmp / f"{stem}.parquet", write_statistics=False) for df, stem in jobs]:
                f.result()  # the first error is raised here, after every write has ended
        (tmp / "index.json").write_text(json.dumps({"keys": keys, "tables": list(payload["tables"])}))
        os.replace(tmp, sdir / name)
        write_atomic(sdir / "CURRENT", name.encode())
    except BaseException as e:  # nothing half-written survives an error or an interrupt
        shutil.rmtree(tmp, ignore_errors=True)
        if not isinstance(e, Exception):
            raise
        warnings.warn(f"animre: the corpus cache was not written ({type(e).__name__}: {e}); "
                      "the next open parses every file again", stacklevel=3)
        return
    gens = sorted(p for p in sdir.iterdir() if p.is_dir() and p.name.startswith("g"))
    for old in gens[:-KEEP_GENERATIONS]:
        shutil.rmtree(old, ignore_errors=True)
