"""What an inference found: the spec text, its evidence per field, and the layout."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..atomic import write_atomic
from ._model import Layout

__all__ = ["InferredSpec", "evidence", "EVIDENCE_COLUMNS"]

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
    """

    ksy: str
    evidence: pd.DataFrame
    layout: Layout
    files: list = field(default_factory=list)
    suggestions: Any = None
    seconds: float = 0.0

    def save(self, path: str | os.PathLike) -> None:
        """Write the spec to ``path`` atomically (a reader never sees half a file)."""
        write_atomic(path, self.ksy.encode("utf-8"))

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
