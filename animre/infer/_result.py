"""What an inference found: the spec text, its evidence per field, and the layout."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from ..base.atomic import write_atomic
from ..base.dirs import check_outside
from ._model import Layout

__all__ = ["InferredSpec", "evidence", "EVIDENCE_COLUMNS", "spec_id_of"]


def spec_id_of(path: str | os.PathLike) -> str:
    """A spec id (``meta/id``: lower case, digits, underscores, a letter first) from a file name.

    Examples
    --------
    >>> spec_id_of("out/My Tiles-v2.ksy")
    'my_tiles_v2'
    """
    stem = re.sub(r"[^a-z0-9]+", "_", Path(path).stem.lower()).strip("_")
    return stem if stem[:1].isalpha() else f"f_{stem}" if stem else "unknown"

EVIDENCE_COLUMNS = ["type", "field", "offset", "width", "kind", "role", "holds", "of", "evidence", "alternatives"]


@dataclass
class InferredSpec:
    """What :func:`infer_spec` found: the spec text, its evidence per field, and the layout.

    Attributes
    ----------
    ksy : str
        The spec (YAML), ready for :func:`animre.spec.compile_spec` or ``open_corpus(specs=...)``.
    evidence : DataFrame
        One row per field: ``type, field, offset, width, kind, role, holds, of, evidence, alternatives``.
    layout : Layout
        The fields, records and regions (``animre.infer._model``).
    files : list of str
        The files it was inferred from (distinct contents).
    suggestions : DataFrame or None
        Inside a known format (``table=``/``column=``): rows for :func:`animre.suggest_patch`.
    read_from : tuple of Path
        The folders (or files) it was inferred from: :meth:`save` never writes inside them.
    """

    ksy: str
    evidence: pd.DataFrame
    layout: Layout
    files: list = field(default_factory=list)
    suggestions: Any = None
    seconds: float = 0.0
    read_from: tuple = ()
    named: bool = True  # False: no ``name=`` was given, and :meth:`save` takes ``meta/id`` from the file name

    def save(self, path: str | os.PathLike) -> None:
        """Write the spec to ``path`` atomically (a reader never sees half a file).

        Raises :class:`~animre.base.errors.UsageError` when ``path`` lies inside a
        folder the spec was inferred from (``read_from``): the kit never
        writes into a folder it reads.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> spec = InferredSpec("meta: {id: x}\\n", pd.DataFrame(), None, read_from=(pathlib.Path("data"),))
        >>> spec.save("data/x.ksy")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        animre.base.errors.UsageError: data/x.ksy is inside data, the folder being read: animre never writes ...
        >>> out = pathlib.Path(tempfile.mkdtemp()) / "x.ksy"; spec.save(out); out.read_text()
        'meta: {id: x}\\n'
        """
        check_outside(path, *self.read_from)
        if not self.named:
            self.rename(spec_id_of(path))
        write_atomic(path, self.ksy.encode("utf-8"))

    def rename(self, spec_id: str) -> None:
        """Give the spec another ``meta/id`` (and title): the id a spec is opened by (``formats=[id]``).

        Examples
        --------
        >>> spec = InferredSpec("meta:\\n  id: unknown\\n  title: unknown (inferred)\\n", pd.DataFrame(), None)
        >>> spec.rename("tiles"); print(spec.ksy)
        meta:
          id: tiles
          title: tiles (inferred)
        <BLANKLINE>
        """
        old = re.search(r"^meta:\n  id: (\S+)\n", self.ksy)
        if old is None:
            return
        head = f"meta:\n  id: {spec_id}\n"
        rest = self.ksy[old.end():]
        rest = re.sub(rf"^  title: {re.escape(old[1])} ", f"  title: {spec_id} ", rest, count=1)
        self.ksy, self.named = head + rest, True
        if len(self.evidence) and "type" in self.evidence:
            self.evidence["type"] = self.evidence["type"].replace(old[1], spec_id)

    def roles(self) -> dict:
        """How many fields of each role (``magic``, ``file_size``, ``offset``, ``count``, ``size`` ...)."""
        return self.evidence["role"].value_counts().to_dict()

    def _repr_html_(self) -> str:
        return f"<pre>{self.ksy}</pre>" + self.evidence.to_html(index=False)


def evidence(lay: Layout) -> pd.DataFrame:
    """One row per field of a layout (and of its records and variants): the evidence table."""
    rows = []

    def walk(t: Layout) -> None:
        for f in t.fields:
            kind = f.type or ("contents" if f.role == "magic" else "bytes")
            rows.append([t.name, f.name, f.offset, f.width, kind, f.role, f.holds, f.of, f.evidence,
                         "; ".join(f.alternatives)])
        for r in t.regions:
            rows.append([t.name, r.name, None, r.stride or None, r.kind, "instance", None, None, r.evidence, ""])
            if r.record is not None:
                walk(r.record)
        for v in t.variants.values():
            walk(v)

    walk(lay)
    return pd.DataFrame(rows, columns=EVIDENCE_COLUMNS)
