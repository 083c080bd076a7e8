"""Sampling: the files inference looks at, read through bounded windows only.

A :class:`Sample` keeps a file's size and the first ``head`` bytes; any other
bytes (the records an offset points at, the bytes after a count) are read
with :meth:`Sample.window`, at most :data:`MAX_WINDOW` bytes at a time, so a
huge file is never read whole. A folder is listed with ``os.scandir`` and at
most :data:`MAX_LISTED` entries are looked at (hidden files and the files a
folder of the kit skips, :data:`animre.sources.IGNORED_SUFFIXES`, are not:
an inferred spec never counts the kit's own outputs); of those, at most
``max_files`` (evenly spaced in name order) are read. Files with the same
size and head count once (they are not independent evidence).
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..base.errors import UsageError
from ..sources import HEAD, IGNORED_SUFFIXES
from ._limits import MAX_FILES, MAX_LISTED, MAX_WINDOW

__all__ = ["Sample", "gather", "HEAD", "MAX_WINDOW", "MAX_LISTED", "MAX_FILES", "shared_suffix"]


@dataclass
class Sample:
    """One file seen by inference: its name, size, first bytes, and a way to read more.

    Examples
    --------
    >>> s = Sample.of_bytes("a.bin", b"MAGIC" + bytes(10))
    >>> s.size, s.head[:5], s.window(3, 4)
    (15, b'MAGIC', b'IC\\x00\\x00')
    """

    name: str
    size: int
    head: bytes
    path: Path | None = None
    data: bytes | None = None
    reader: Callable[[int, int], bytes] | None = None
    _cache: dict = field(default_factory=dict, repr=False)

    @classmethod
    def of_bytes(cls, name: str, data: bytes, head: int = HEAD) -> Sample:
        """A sample held in memory."""
        return cls(name, len(data), bytes(data[:head]), data=bytes(data))

    def window(self, offset: int, n: int) -> bytes:
        """Up to ``n`` (at most :data:`MAX_WINDOW`) bytes at ``offset``; fewer at the end of the file."""
        n = max(0, min(int(n), MAX_WINDOW, self.size - int(offset)))
        offset = int(offset)
        if n <= 0 or offset < 0:
            return b""
        if offset + n <= len(self.head):
            return self.head[offset:offset + n]
        if self.data is not None:
            return self.data[offset:offset + n]
        key = (offset, n)
        if key not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            if self.reader is not None:
                self._cache[key] = self.reader(offset, n)
            else:
                with open(self.path, "rb") as fh:
                    fh.seek(offset)
                    self._cache[key] = fh.read(n)
        return self._cache[key]


def _listed(folder: Path) -> list[Path]:
    out: list[Path] = []
    todo = [folder]
    while todo and len(out) < MAX_LISTED:
        d = todo.pop()
        try:
            with os.scandir(d) as it:
                for e in it:
                    if e.name.startswith("."):
                        continue
                    if e.is_dir(follow_symlinks=False):
                        todo.append(Path(e.path))
                    elif e.is_file(follow_symlinks=False) and Path(e.name).suffix.lower() not in IGNORED_SUFFIXES:
                        out.append(Path(e.path))  # not the kit's own outputs (specs, exports, reports)
                        if len(out) >= MAX_LISTED:
                            break
        except OSError as exc:
            raise UsageError(f"{d}: cannot list the folder: {exc}") from exc
    return sorted(out)


def _spaced(items: list, k: int) -> list:
    if len(items) <= k:
        return items
    step = len(items) / k
    return [items[int(i * step)] for i in range(k)]


def _from_path(p: Path, root: Path | None, head: int) -> Sample:
    size = p.stat().st_size
    with open(p, "rb") as fh:
        h = fh.read(min(size, head))
    name = str(p.relative_to(root)) if root is not None else str(p)
    return Sample(name, size, h, path=p)


def _from_corpus(corpus: Any, files: Any, head: int, max_files: int) -> list[Sample]:
    table = corpus.files
    names = [str(n) for n in table["file"]]
    if "kind" in table.columns:
        names = [n for n, k in zip(names, table["kind"]) if not isinstance(k, str)]
    if callable(files):
        names = [n for n in names if files(n)]
    elif isinstance(files, str):

        names = [n for n in names if fnmatch.fnmatch(n, files)]
    elif files is not None:
        wanted = {str(f) for f in files}
        names = [n for n in names if n in wanted]
    out = []
    for n in _spaced(names, max_files):
        data = corpus.read_bytes(n)
        out.append(Sample.of_bytes(n, data, head))
    return out


def gather(source: Any, *, files: Any = None, head: int = HEAD, max_files: int = MAX_FILES) -> list[Sample]:
    """The distinct samples of ``source``: a folder, a list of paths or bytes, or a corpus and a filter.

    Parameters
    ----------
    source : path, list of paths, list of (name, bytes), or Corpus
        Where the files are.
    files : callable, glob pattern or list of names, optional
        With a corpus: which of its files (``lambda name: name.endswith(".mo")``).
    head : int
        Bytes read from the start of every file.
    max_files : int
        At most this many files are read (evenly spaced in name order).

    Examples
    --------
    >>> ss = gather([("a", b"AB\\x01"), ("b", b"AB\\x02"), ("c", b"AB\\x02")])
    >>> [s.name for s in ss]
    ['a', 'b']
    """
    if hasattr(source, "files") and hasattr(source, "read_bytes"):
        samples = _from_corpus(source, files, head, max_files)
    elif isinstance(source, (str, os.PathLike)):
        root = Path(source)
        if not root.exists():
            raise UsageError(f"{root}: no such file or folder")
        paths = _listed(root) if root.is_dir() else [root]
        samples = [_from_path(p, root if root.is_dir() else None, head) for p in _spaced(paths, max_files)]
    elif isinstance(source, Iterable):
        items = list(source)
        samples = []
        for i, it in enumerate(_spaced(items, max_files)):
            if isinstance(it, Sample):
                samples.append(it)
            elif isinstance(it, tuple) and len(it) == 2 and isinstance(it[1], (bytes, bytearray)):
                samples.append(Sample.of_bytes(str(it[0]), bytes(it[1]), head))
            elif isinstance(it, (bytes, bytearray)):
                samples.append(Sample.of_bytes(f"#{i}", bytes(it), head))
            else:
                samples.append(_from_path(Path(it), None, head))
    else:
        raise UsageError(f"cannot infer from {type(source).__name__}: give a folder, files or a corpus")
    seen: set = set()
    out = []
    for s in samples:
        key = (s.size, hashlib.sha256(s.head).digest())
        if key not in seen:
            seen.add(key)
            out.append(s)
    return out


def shared_suffix(samples: list[Sample]) -> str | None:
    """The file suffix (lower case, no dot) every sample's name has, or None (names without one, or several).

    Examples
    --------
    >>> shared_suffix([Sample("A.SHP", 1, b""), Sample("b.shp", 1, b"")]), shared_suffix([Sample("a.x", 1, b"")])
    ('shp', 'x')
    >>> shared_suffix([Sample("a.shp", 1, b""), Sample("b.pal", 1, b"")]) is None
    True
    """
    got = {Path(s.name).suffix.lower() for s in samples}
    if len(got) != 1:
        return None
    suffix = got.pop()[1:]
    return suffix if suffix.isalnum() else None
