"""Format registry: every module in this package that defines ``FORMAT``.

Each format module says what its spec cannot: how to recognise a file (by
content first), derived columns and the notes' claims. A format's one id
names its spec (``ksy/<id>.ksy``), its tables and its sample folder.
"""

from __future__ import annotations

from .._plugins import discover
from .base import Claim, Derived, Format, derived

__all__ = ["Claim", "Derived", "Format", "derived", "all_formats", "get_format", "detect_format"]

_REGISTRY: dict[str, Format] | None = None


def all_formats() -> dict[str, Format]:
    """All known formats by name, e.g. ``{"frm": Format(...), ...}``."""
    global _REGISTRY
    if _REGISTRY is None:
        reg = discover(__path__, __name__, lambda mod: getattr(mod, "FORMATS", [getattr(mod, "FORMAT", None)]))
        _REGISTRY = reg
    return _REGISTRY


def get_format(name: str) -> Format:
    """The format called ``name`` (``frm``, ``af``, ``bk``, ``mot``, ``pas4``, ``flc``)."""
    try:
        return all_formats()[name]
    except KeyError:
        raise KeyError(f"unknown format {name!r}; known: {', '.join(all_formats())}") from None


def detect_format(head: bytes, size: int, name: str) -> tuple[Format | None, float]:
    """Best format for a file from its first bytes, size and name (content first).

    Examples
    --------
    >>> detect_format(open("data/samples/frm/GOBLNFRM.BIN", "rb").read(), 821, "x")[0].name
    'frm'
    """
    best, score = None, 0.0
    for f in all_formats().values():
        try:
            s = float(f.detect(head, size, name))
        except Exception:  # noqa: BLE001 - a detector must never abort a scan
            s = 0.0
        if s > score:
            best, score = f, s
    return (best, score) if score >= 0.3 else (None, score)
