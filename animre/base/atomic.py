"""Atomic file writes: no reader ever sees a half-written file, and the file gets the mode any new file gets.

The bytes go to a temporary file in the target's folder, which is then
renamed over the target. ``tempfile.mkstemp`` creates that file readable by
its owner only; before the rename it is given the mode any new file of the
user gets: ``0o666`` less the process's umask (``0644`` under the usual
umask ``022``, ``0600`` under ``077``).
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO

__all__ = ["write_atomic", "write_all_atomic", "current_umask", "new_file_mode"]

_UMASK_LOCK = threading.Lock()


def current_umask() -> int:
    """The process's umask, read without changing it where the system says it (Linux), else set back at once.

    Examples
    --------
    >>> old = os.umask(0o027)
    >>> oct(current_umask())
    '0o27'
    >>> _ = os.umask(old)
    """
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _UMASK_LOCK:  # os.umask only sets: set the strictest mask for the instant it takes, then set it back
        mask = os.umask(0o077)
        os.umask(mask)
    return mask


def new_file_mode() -> int:
    """The mode a new file of the user gets: ``0o666`` less the umask.

    Examples
    --------
    >>> old = os.umask(0o022)
    >>> oct(new_file_mode())
    '0o644'
    >>> _ = os.umask(old)
    """
    return 0o666 & ~current_umask()


def write_all_atomic(jobs: Sequence[tuple[str | os.PathLike, Callable[[BinaryIO], None]]]) -> list[Path]:
    """Write several files all or nothing: each ``write(fh)`` fills a temporary file, then all are renamed.

    After an error no target is changed and the temporary files are removed.
    Every file gets the mode of a new file (:func:`new_file_mode`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> [p.name for p in write_all_atomic([(d / "a.txt", lambda fh: fh.write(b"a"))])]
    ['a.txt']
    """
    staged: list[tuple[str, Path]] = []
    mode = new_file_mode()
    try:
        for target, write in jobs:
            path = Path(target)
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            staged.append((tmp, path))
            with os.fdopen(fd, "wb") as fh:
                write(fh)
            os.chmod(tmp, mode)  # mkstemp's 0600 would survive the rename
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
