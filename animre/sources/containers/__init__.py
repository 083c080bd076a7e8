"""Container registry: every module in this package that defines ``CONTAINER``.

A container module reads a container's directory (:mod:`.base`); adding a
container is adding a module. The sources layer (:mod:`animre.sources`) uses
:func:`detect_container` on every file and member to look inside.
"""

from __future__ import annotations

from ...base.plugins import discover
from .base import MAX_MEMBER, Container, Member

__all__ = ["Container", "Member", "MAX_MEMBER", "containers", "get_container", "detect_container"]

_REGISTRY: dict[str, Container] | None = None


def containers() -> dict[str, Container]:
    """All known containers by id, e.g. ``{"agg": Container(...), "zip": Container(...)}``.

    Examples
    --------
    >>> {"agg", "zip"} <= set(containers())
    True
    """
    global _REGISTRY
    if _REGISTRY is None:
        reg = discover(__path__, __name__, lambda mod: [getattr(mod, "CONTAINER", None)])
        _REGISTRY = reg
    return _REGISTRY


def get_container(name: str) -> Container:
    """The container with id ``name``."""
    try:
        return containers()[name]
    except KeyError:
        raise KeyError(f"unknown container {name!r}; known: {', '.join(containers())}") from None


def detect_container(head: bytes, name: str) -> Container | None:
    """The container a file is, from its first 4096 bytes and its name (None: not a container).

    Examples
    --------
    >>> detect_container(b"PK\\x03\\x04" + bytes(26), "x.zip").name
    'zip'
    >>> detect_container(b"hello", "x.txt") is None
    True
    """
    for c in containers().values():
        try:
            if c.detect(head, name):
                return c
        except Exception:  # noqa: BLE001 - a detector must never abort a scan
            continue
    return None
