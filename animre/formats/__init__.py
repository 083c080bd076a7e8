"""Format registry: every module in this package that defines ``FORMAT``.

Each format module says how to recognise a file (by content first), which
compiled parser reads it, which curated tables it yields, and holds
format-specific decoders a spec cannot express.
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import F, Format, Ref

__all__ = ["F", "Format", "Ref", "all_formats", "get_format", "detect_format", "format_for_spec"]

_REGISTRY: dict[str, Format] | None = None


def all_formats() -> dict[str, Format]:
    """All known formats by name, e.g. ``{"frm": Format(...), ...}``."""
    global _REGISTRY
    if _REGISTRY is None:
        reg = {}
        for m in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
            if m.name.startswith("_") or m.name == "base":
                continue
            mod = importlib.import_module(f"{__name__}.{m.name}")
            for fmt in getattr(mod, "FORMATS", [getattr(mod, "FORMAT", None)]):
                if fmt is not None:
                    reg[fmt.name] = fmt
        _REGISTRY = reg
    return _REGISTRY


def get_format(name: str) -> Format:
    """The format called ``name`` (``frm``, ``af``, ``bk``, ``mot``, ``pas4``, ``flc``)."""
    try:
        return all_formats()[name]
    except KeyError:
        raise KeyError(f"unknown format {name!r}; known: {', '.join(all_formats())}") from None


def format_for_spec(spec_id: str) -> Format | None:
    """The format read by the spec ``spec_id``, if any."""
    for f in all_formats().values():
        if f.spec == spec_id:
            return f
    return None


def detect_format(head: bytes, size: int, name: str) -> tuple[Format | None, float]:
    """Best format for a file from its first bytes, size and name (content first).

    Examples
    --------
    >>> detect_format(b"\\x01" + bytes(820), 821, "GOBLNFRM.BIN")[0].name  # doctest: +SKIP
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
