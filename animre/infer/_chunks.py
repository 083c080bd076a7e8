"""Chunk lengths: a header field whose value, counted from the field, lands on the same bytes in every file.

A length that says where the next part starts (a segment's length before the next marker, a chunk's length
before the next tag) is evidenced when ``field position (+ its width) + value`` holds the same first bytes
in every file while the value differs between files. The chance of that by coincidence is measured in
each file itself: the share of the file's first bytes that are that prefix (a zero or a sound sample's
common byte lands everywhere; a marker does not), multiplied over the files of distinct values but the
one the prefix is read from, times every (offset, type, reference) tried (the guard of
:mod:`animre.infer._guard`). A landing on zeros is no evidence: zeros pad regions everywhere (as a zero is
never a magic).
"""

from __future__ import annotations

import numpy as np

from ._guard import accepted, per_file_log10
from ._limits import CHUNK_LANDING as LANDING
from ._limits import CHUNK_MIN_DISTINCT as MIN_DISTINCT
from ._limits import CHUNK_WINDOW as WINDOW
from ._model import Field, Region
from ._roles import type_name
from ._rows import Rows
from ._sample import Sample

__all__ = ["chunk_lengths"]


def chunk_lengths(rows: Rows, samples: list[Sample], views: dict, taken: np.ndarray, alpha: float,
                  endian: str) -> list[tuple[Field, Region]]:
    """Length fields of the root header and the region each one bounds (``pos`` a constant, ``size`` the field).

    Examples
    --------
    >>> import struct
    >>> from animre.infer._roles import views as row_views
    >>> data = [b"HD" + struct.pack("<H", k) + b"\\x07" * k + b"\\xff\\xd9NEXT" + bytes(20) for k in (5, 9, 17, 30, 44)]
    >>> rows = Rows.of([d[:8] for d in data], [len(d) for d in data])
    >>> samples = [Sample.of_bytes(str(i), d) for i, d in enumerate(data)]
    >>> [(f.offset, f.type, reg.start) for f, reg in chunk_lengths(rows, samples, row_views(rows),
    ...                                                           np.zeros(8, bool), 0.01, "le")]
    [(2, 'u2le', 4)]
    """
    if not rows.header or rows.base.any() or rows.n < 5:
        return []
    cands = []
    for (w, e), v in views.items():
        if w > 1 and e != endian:
            continue
        for o in range(min(v.shape[1], WINDOW)):
            if taken[o:o + w].any():
                continue
            c = v[:, o]
            if len(np.unique(c)) >= MIN_DISTINCT and c.max() < (1 << 24):
                cands.append((o, w, e, c))
    cands.sort(key=lambda t: (t[0], -t[1]))
    n_tests = max(1, 2 * len(cands))
    claimed = taken.copy()
    out = []
    for o, w, e, c in cands:
        if claimed[o:o + w].any():
            continue
        for ref in (o + w, o):
            t = ref + c
            if (t < o + w).any() or (t + 1 > rows.fsize).any():
                continue
            peeks = [samples[int(i)].window(int(x), LANDING) for i, x in zip(rows.file, t)]
            n = 0
            while n < LANDING and all(len(p) > n and p[n] == peeks[0][n] for p in peeks):
                n += 1
            pre = peeks[0][:n]
            if not any(pre):  # zeros are padding, found wherever a region is padded: no marker
                continue
            _, first = np.unique(c, return_index=True)
            rates = [(samples[int(rows.file[i])].head.count(pre) + 1) /
                     max(2, len(samples[int(rows.file[i])].head) - n + 2) for i in first]
            logp = per_file_log10(rates, fitted=1)  # the file the prefix is read from is no test
            if not accepted(logp, n_tests, alpha):
                continue
            ev = (f"size of the bytes from {ref:#x}: {ref:#x} + it holds {pre.hex(' ')} in {rows.n}/{rows.n} files "
                  f"({len(first)} distinct values)")
            f = Field(o, w, type_name(w, e), "size", ev, rows.n, rows.n, name=f"len_0x{o:02x}",
                      alternatives=[f"chance 10^{logp:.0f} x {n_tests} tests"])
            out.append((f, Region(f"body_0x{o:02x}", "bytes", ref, size=f.name, evidence=ev)))
            claimed[o:o + w] = True
            break
    return out
