"""Where the kit keeps what it computes: the cache folder (compiled parsers, table snapshots)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["default_cache_dir"]


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
