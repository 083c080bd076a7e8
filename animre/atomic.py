"""Atomic file writes: no reader ever sees a half-written file."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO

__all__ = ["write_atomic", "write_all_atomic"]


def write_all_atomic(jobs: Sequence[tuple[str | os.PathLike, Callable[[BinaryIO], None]]]) -> list[Path]:
    """Write several files all or nothing: each ``write(fh)`` fills a temporary file, then all are renamed.

    After an error no target is changed and the temporary files are removed.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> [p.name for p in write_all_atomic([(d / "a.txt", lambda fh: fh.write(b"a"))])]
    ['a.txt']
    """
    staged: list[tuple[str, Path]] = []
    try:
        for target, write in jobs:
            path = Path(target)
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            staged.append((tmp, path))
            with os.fdopen(fd, "wb") as fh:
                write(fh)
        for tmp, path in staged:
            os.replace(tmp, path)
    except BaseException:
        for tmp, _ in staged:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
        raise
    return [p for _, p in staged]


def write_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, then rename it.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> write_atomic(p, b"ok")
    >>> p.read_bytes()
    b'ok'
    """
    write_all_atomic([(path, lambda fh: fh.write(data))])
