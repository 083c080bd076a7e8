"""The one walk over a spec's ``meta/imports``: every spec it imports, directly or through another, once.

How an import is found differs by caller (beside the importing file and in search folders for a user's
spec; by id among given texts or in ``ksy/`` for a model or a corpus's specs), so the walk takes a
``load`` function; what the walk does is the same everywhere: each spec visited once, cycles ended.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from typing import Any

__all__ = ["import_name", "import_names", "walk_imports"]


def import_name(entry: str) -> str:
    """The spec name of one ``meta/imports`` entry: without its folder and ``.ksy``.

    Examples
    --------
    >>> import_name("../common/riff.ksy")
    'riff'
    """
    n = str(entry).rsplit("/", 1)[-1]
    return n[:-4] if n.endswith(".ksy") else n


def import_names(doc: Any) -> list[str]:
    """The spec names a document imports: each entry of ``meta/imports`` without its folder and ``.ksy``.

    Examples
    --------
    >>> import_names({"meta": {"imports": ["/common/riff", "vlq_base128_le.ksy"]}})
    ['riff', 'vlq_base128_le']
    >>> import_names({"seq": []})
    []
    """
    meta = doc.get("meta") if isinstance(doc, Mapping) else None
    raw = (meta.get("imports") if isinstance(meta, Mapping) else None) or []
    return [import_name(i) for i in raw]


Load = Callable[[str, Hashable], "tuple[Hashable, Mapping] | None"]


def walk_imports(key: Hashable, doc: Mapping, load: Load) -> Iterator[tuple[Hashable, Mapping]]:
    """``(key, doc)`` of the spec and of every spec it imports, each key once, the spec itself first.

    ``load(entry, importer_key)`` finds one ``meta/imports`` entry (as written) of the spec ``importer_key``:
    it returns the imported spec's key and document, or None when it is not found (the walk goes on;
    a caller that must fail raises in ``load``).

    Examples
    --------
    >>> specs = {"a": {"meta": {"imports": ["b", "c"]}}, "b": {"meta": {"imports": ["a"]}}, "c": {}}
    >>> [k for k, _ in walk_imports("a", specs["a"], lambda e, _: (e, specs[e]) if e in specs else None)]
    ['a', 'b', 'c']
    """
    seen = {key}
    todo = [(key, doc)]
    while todo:
        k, d = todo.pop(0)
        yield k, d
        meta = d.get("meta") if isinstance(d, Mapping) else None
        for entry in (meta.get("imports") if isinstance(meta, Mapping) else None) or []:
            found = load(str(entry), k)
            if found is None or found[0] in seen:
                continue
            seen.add(found[0])
            todo.append(found)
