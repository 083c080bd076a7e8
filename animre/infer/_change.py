"""Offsets to where the data starts: a header integer whose value is, in each file, where its content changes kind.

The start of the pixels, of the section headers or of the sample data is rarely marked by the same bytes in
every file (what :func:`animre.infer._chunks.chunk_lengths` and the offset stage look for), but the bytes
before and after it differ in kind: a header's small integers and zeros, then pixels; text, then a table. The
change at a position is the total variation distance between the byte classes (zero, ``FF``, the high nibble
of any other byte) of the :data:`CHANGE_WINDOW` bytes before and after it. The chance that a value lands on a
change that sharp by coincidence is measured in each file itself: the share of the file's first bytes'
positions whose change is at least as sharp (+1 smoothed). Files are combined by Fisher's method (the chance
that independent uniform shares multiply to as little), times every candidate tried (the guard of
:mod:`animre.infer._guard`). A candidate is an integer that lies inside the file in every file, more often
than chance, but whose targets share no bytes (a weak offset of the offset stage).
"""

from __future__ import annotations

import math

import numpy as np

from ._guard import accepted
from ._limits import CHANGE_WINDOW as W
from ._limits import MIN_FILES
from ._sample import Sample

__all__ = ["change_log10", "content_change"]

#: Byte classes: 0 is zero, 1 is FF, 2.. the high nibble of any other byte.
_CLASS = np.array([0 if b == 0 else 1 if b == 0xFF else 2 + (b >> 4) for b in range(256)], np.int64)
_K = 18


def _changes(data: bytes) -> np.ndarray:
    """The change at every position ``p`` of ``data`` with :data:`W` bytes on both sides (``W <= p <= len - W``)."""
    arr = np.frombuffer(data, np.uint8)
    if len(arr) < 2 * W:
        return np.zeros(0)
    one = np.zeros((len(arr) + 1, _K), np.int32)
    one[1:][np.arange(len(arr)), _CLASS[arr]] = 1
    c = one.cumsum(axis=0)
    p = np.arange(W, len(arr) - W + 1)
    before, after = c[p] - c[p - W], c[p + W] - c[p]
    return np.abs(before - after).sum(axis=1) / (2.0 * W)


def _fisher_log10(shares: list[float]) -> float:
    """``log10`` of the chance that ``len(shares)`` independent uniform shares multiply to at most their product
    (Fisher's method: ``-2 sum ln q`` is chi-squared with ``2n`` degrees of freedom; its tail in closed form).

    Examples
    --------
    >>> round(_fisher_log10([0.5]), 3), round(_fisher_log10([0.01] * 5), 1)
    (-0.301, -5.9)
    """
    if not shares:
        return 0.0
    x = -sum(math.log(q) for q in shares)
    terms = [-x + k * math.log(x) - math.lgamma(k + 1) for k in range(len(shares))] if x > 0 else [0.0]
    m = max(terms)
    return min(0.0, (m + math.log(sum(math.exp(t - m) for t in terms))) / math.log(10))


def change_log10(samples: list[Sample], files, values) -> tuple[float, int]:
    """``(log10 chance, files tested)`` of the values landing where each file's content changes kind."""
    shares = []
    for i, v in zip(files, values):
        s = samples[int(i)]
        v = int(v)
        if v < W or v + W > s.size:
            continue
        null = _changes(s.head)
        at = _changes(s.window(v - W, 2 * W))
        if not len(null) or not len(at):
            continue
        shares.append((1 + int((null >= at[0] - 1e-12).sum())) / (1 + len(null)))
    return _fisher_log10(shares), len(shares)


def content_change(samples: list[Sample], rows, weak: dict, alpha: float, min_files: int = MIN_FILES) -> list[tuple]:
    """The weak offsets (``name -> (field, values)``) whose values land where the content changes kind in
    their files: ``[(name, log10 chance, files tested)]``.

    Examples
    --------
    >>> import random, struct
    >>> from animre.infer._model import Field
    >>> from animre.infer._rows import Rows
    >>> rng = random.Random(5)
    >>> data = []
    >>> for i in range(8):  # a header of small integers and zeros, then pixels from where a u4 says
    ...     start = 64 + 4 * rng.randrange(40)
    ...     head = b"PIX0" + struct.pack("<I", start) + bytes(rng.randrange(3) for _ in range(start - 8))
    ...     data.append(head + bytes(rng.randrange(256) for _ in range(rng.randrange(600, 900))))
    >>> rows = Rows.of([d[:64] for d in data], [len(d) for d in data])
    >>> samples = [Sample.of_bytes(str(i), d) for i, d in enumerate(data)]
    >>> vals = np.array([struct.unpack_from("<I", d, 4)[0] for d in data])
    >>> [n for n, _, _ in content_change(samples, rows, {"ofs_0x04": (Field(4, 4, "u4le", "offset"), vals)}, 0.01)]
    ['ofs_0x04']
    """
    out = []
    n_tests = max(1, len(weak))
    for name, (_f, v) in weak.items():
        logp, n = change_log10(samples, rows.file, v)
        if n >= min_files and accepted(logp, n_tests, alpha):
            out.append((name, logp, n))
    return out
