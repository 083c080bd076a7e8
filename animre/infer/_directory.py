"""Table directories: a count x stride region right after the header whose records point into the file.

No header field marks where such a region ends (TrueType's table
directory after ``numTables``), so the count relation of
:func:`animre.infer._roles.relation_fields` cannot see it. The evidence is
in the records themselves: for a count field ``c``, a stride ``s`` and a
start ``p``, the ``c`` records of every file at ``p, p + s, ...`` hold a
column whose values, in every record of every file, lie between the end of
the region and the end of the file (offsets to the data the directory
describes). The chance of one such column at random is ``q ** d`` (``q``:
the share of in-file values at the header's other offsets, never below what
uniform bytes give; ``d``: distinct values), and the guard multiplies it by
every (count, stride, start, column) tried (Bonferroni). Among accepted
candidates the one with the strongest evidence, then the most in-file
columns (offsets and lengths), then the earliest start and the smallest
stride wins.
"""

from __future__ import annotations

import math

import numpy as np

from ._guard import accepted
from ._limits import DIRECTORY_COUNT_AREA as COUNT_AREA
from ._limits import DIRECTORY_MAX_COUNT as MAX_COUNT
from ._limits import DIRECTORY_MIN_DISTINCT as MIN_DISTINCT
from ._limits import DIRECTORY_PER_FILE as PER_FILE
from ._limits import DIRECTORY_START_SPAN as START_SPAN
from ._limits import DIRECTORY_STRIDES as STRIDES
from ._model import Field, Region
from ._roles import type_name
from ._rows import Rows, int_view
from ._sample import Sample

__all__ = ["directory_field", "COUNT_AREA", "STRIDES", "MAX_COUNT"]


def _blobs(samples: list[Sample], rows: Rows, at: int, n: np.ndarray) -> list[bytes]:
    return [samples[int(rows.file[i])].window(at, int(n[i])) for i in range(rows.n)]


def _score(blobs: list[bytes], c: np.ndarray, fsize: np.ndarray, rel: int, s: int, p: int, e: str,
           q: float) -> tuple[int, float] | None:
    """(in-file columns, log10 chance of the best offset column) for ``c`` records at ``p`` of stride ``s``."""
    recs, fs, ends = [], [], []
    for b, k, z in zip(blobs, c, fsize):
        k, full = int(min(k, PER_FILE)), int(k)
        if k == 0:
            continue
        chunk = b[rel:rel + k * s]
        if len(chunk) < k * s:
            return None
        recs.append(np.frombuffer(chunk, np.uint8).reshape(k, s))
        fs.append(np.full(k, z, np.int64))
        ends.append(np.full(k, p + s * full, np.int64))
    if len(recs) < MIN_DISTINCT:
        return None
    m, z, end = np.concatenate(recs), np.concatenate(fs), np.concatenate(ends)
    v = int_view(m, 4, e)[:, ::4]
    inside = ((v >= 1) & (v <= z[:, None])).all(axis=0)
    past = ((v >= end[:, None]) & (v <= z[:, None])).all(axis=0)
    logp = 0.0
    for j in np.flatnonzero(past):
        d = len(np.unique(v[:, j]))
        if d >= MIN_DISTINCT:
            logp = min(logp, d * math.log10(q))
    if logp == 0.0:
        return None
    return int(inside.sum()), logp


def _fits(fwd: np.ndarray, anchors: np.ndarray, c: np.ndarray, x: int, s: int) -> bool:
    """Column ``x`` of every record that lies inside the header rows points forward inside its file."""
    if x >= len(anchors) or not anchors[x]:
        return False
    j = 1
    while x + j * s < len(anchors):
        if not fwd[c > j, x + j * s].all():
            return False
        j += 1
    return True


def directory_field(rows: Rows, samples: list[Sample], views: dict, taken: np.ndarray, alpha: float,
                    endian: str) -> tuple[Field, Region] | None:
    """The count field of a table directory and its region (start a constant position), or None."""
    if not rows.header or rows.n < 3 or rows.base.any():
        return None
    v4 = views[(4, endian)]
    uniform = float(np.mean((rows.fsize + 1) / 2.0 ** 32))
    q = min(1.0, max(uniform, float(((v4 >= 1) & (v4 <= rows.fsize[:, None])).mean()) if v4.size else 1.0))
    if q >= 0.999:
        return None
    cands = []
    for (w, e), v in views.items():
        if w > 1 and e != endian:
            continue
        for o in range(min(v.shape[1], COUNT_AREA)):
            if taken[o:o + w].any() or o % w:
                continue
            c = v[:, o]
            if len(np.unique(c)) < MIN_DISTINCT or c.max() > MAX_COUNT:
                continue
            cands.append((o, w, c))
    if not cands:
        return None
    n_tests = len(cands) * len(STRIDES) * (START_SPAN // 2) * (max(STRIDES) // 4)
    # columns that point forward inside the file in every file: where record 0's offset column can be
    pos = np.arange(v4.shape[1])
    fwd = (v4 >= (pos + 4)[None, :]) & (v4 <= rows.fsize[:, None])
    anchors = fwd.all(axis=0)
    best = None
    for o, w, c in cands:
        lo = o + w
        blobs = None
        for s in STRIDES:
            for p in range(lo + (-lo) % 2, lo + START_SPAN, 2):
                if (p + s * c > rows.fsize).any():
                    continue
                if not any(_fits(fwd, anchors, c, p + r, s) for r in range(0, s - 3, 4)):
                    continue
                if blobs is None:
                    blobs = _blobs(samples, rows, lo, np.minimum(c, PER_FILE) * max(STRIDES) + START_SPAN)
                got = _score(blobs, c, rows.fsize, p - lo, s, p, endian, q)
                if got is None or not accepted(got[1], n_tests, alpha):
                    continue
                key = (got[1], -got[0], p, s, -w)
                if best is None or key < best[0]:
                    best = (key, o, w, c, s, p)
    if best is None:
        return None
    (logp, neg_cols, _p, _s, _w), o, w, c, s, p = best
    ev = (f"count x {s} of the records from {p:#x}, which hold offsets past their end in every record of "
          f"{rows.n}/{rows.n} files ({len(np.unique(c))} distinct counts)")
    f = Field(o, w, type_name(w, endian), "count", ev, rows.n, rows.n,
              alternatives=[f"chance 10^{logp:.0f} x {n_tests} tests", f"{-neg_cols} in-file columns"])
    return f, Region("", "records", p, stride=s, evidence=ev)
