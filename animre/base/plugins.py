"""Find the plugin modules of a package: one module per format or container, registered by its id.

Both :mod:`animre.formats` and :mod:`animre.sources.containers` hold one module per
id; a module offers its object(s) under an attribute (``FORMAT`` or
``FORMATS``, ``CONTAINER``). Modules whose name starts with ``_`` and the
package's ``base`` module are helpers, not plugins.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from typing import Any


def discover(path: Iterable[str], package: str, offered: Callable[[Any], Iterable[Any]]) -> dict[str, Any]:
    """``{obj.name: obj}`` for every object ``offered(module)`` yields, modules in name order.

    Examples
    --------
    >>> import animre.sources.containers as c
    >>> sorted(discover(c.__path__, c.__name__, lambda m: [getattr(m, "CONTAINER", None)]))
    ['agg', 'gcdisc', 'pak', 'zip']
    """
    reg: dict[str, Any] = {}
    for m in sorted(pkgutil.iter_modules(path), key=lambda m: m.name):
        if m.name.startswith("_") or m.name == "base":
            continue
        for obj in offered(importlib.import_module(f"{package}.{m.name}")):
            if obj is not None:
                reg[obj.name] = obj
    return reg
