"""Variants: files that disagree on a small leading field get one layout each (``switch-on``).

A byte among the first :data:`TAG_WINDOW` that no role claimed, taking 2 to
4 values each in at least ``min_files`` files, splits the files; the split is
kept when the layouts of the groups find structure (file size, offsets,
counts, sizes) that one layout over all files does not. The tag byte stays
in the common prefix; what follows it becomes one body type per value.
"""

from __future__ import annotations

import numpy as np

from ._layout import solve
from ._limits import TAG_WINDOW
from ._model import Field, Layout
from ._rows import Rows

__all__ = ["split_variants", "TAG_WINDOW"]


_STRUCT = ("file_size", "offset", "count", "size")


def _n_struct(lay: Layout) -> int:
    return sum(f.role in _STRUCT for f in lay.fields) + sum(r.record is not None for r in lay.regions)


def split_variants(lay: Layout, rows: Rows, samples: list, *, alpha: float, min_files: int) -> Layout | None:
    """A layout with a ``switch-on`` over a leading tag byte, or None when one layout explains the files."""

    base = _n_struct(lay)
    best = None
    claimed = {i for f in lay.fields if f.role in _STRUCT or f.role == "magic" for i in range(f.offset, f.end)}
    for p in range(min(TAG_WINDOW, rows.width - 1)):
        if p in claimed:
            continue
        vals, cnt = np.unique(rows.m[:, p], return_counts=True)
        if not 2 <= len(vals) <= 4 or cnt.min() < min_files:
            continue
        # the fields before the tag must be the same for every group: cut the bodies after it
        body = Rows(rows.m[:, p + 1:], rows.fsize, np.full(rows.n, p + 1, np.int64), rows.file)
        parts = {}
        for v in vals:
            sub = body.part(rows.m[:, p] == v)
            parts[int(v)] = solve(sub, samples, alpha=alpha, name=f"body_{int(v)}")
        gain = min(_n_struct(x) for x in parts.values()) - base
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, p, parts)
    if best is None:
        return None
    _, p, parts = best
    head = [g for g in lay.fields if g.end <= p]
    if head and head[-1].end < p:
        head.append(Field(head[-1].end, p - head[-1].end, None, "raw", "varies", 0, rows.n,
                          name=f"unknown_0x{head[-1].end:02x}"))
    tag = Field(p, 1, "u1", "int", "", rows.n, rows.n)
    head.append(tag)
    tag.role, tag.name = "int", f"tag_0x{p:02x}"
    tag.evidence = (f"variant tag: {len(parts)} values, each in >= {min_files} files; the layout after it "
                    f"differs by value")
    out = Layout(lay.name, lay.width, head, [], lay.endian, lay.n, parts, tag.name)
    return out
