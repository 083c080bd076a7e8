"""Where the kit keeps what it computes (the cache folder), and where it never writes (a folder it reads)."""

from __future__ import annotations

import os
from pathlib import Path

from .errors import UsageError

__all__ = ["default_cache_dir", "check_outside"]


def default_cache_dir() -> Path:
    """``$ANIMRE_CACHE_DIR``, else ``$XDG_CACHE_HOME/animre``, else ``~/.cache/animre``.

    Examples
    --------
    >>> default_cache_dir().name in ("animre",) or "ANIMRE_CACHE_DIR" in os.environ
    True
    """
    env = os.environ.get("ANIMRE_CACHE_DIR")
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "animre"


def check_outside(target: str | os.PathLike, *read: str | os.PathLike | None) -> Path:
    """Raise :class:`~animre.base.errors.UsageError` when ``target`` is (inside) a folder or file being read.

    ``read`` are the folders (or files) the run reads; ``None`` entries are
    ignored. Returns ``target`` as a Path. Every command and function that
    writes asks this one helper (``animre.folders`` re-exports it).

    Examples
    --------
    >>> check_outside("/tmp/out/x", "/tmp/game").as_posix()
    '/tmp/out/x'
    >>> check_outside("/tmp/game/x.ksy", "/tmp/game")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    animre.base.errors.UsageError: /tmp/game/x.ksy is inside /tmp/game, the folder being read: animre never writes ...
    """
    t = Path(target).expanduser().resolve()
    for r in read:
        if r is None:
            continue
        src = Path(r).expanduser().resolve()
        if t == src and src.is_file():
            raise UsageError(f"{target} is {r}, a file being read: animre never writes over a file it reads; "
                             "choose another output")
        if t == src or src in t.parents:
            raise UsageError(f"{target} is inside {r}, the folder being read: animre never writes into a folder "
                             "it reads; choose an output outside it")
    return Path(target)
