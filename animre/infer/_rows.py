"""Rows: the same bytes of many samples side by side, and their integer and float views.

A header is one row per file (the first ``width`` bytes); a table of
records is one row per record. Every row knows the size of its file, its
absolute offset in it and which file it came from, so an offset read in a
record is checked against its own file.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Rows", "int_view", "field_values", "sized_ends", "distinct_counts", "TYPES"]

TYPES = [(w, e) for w in (1, 2, 4) for e in (("le",) if w == 1 else ("le", "be"))]


@dataclass
class Rows:
    """``m`` (rows x width, uint8), ``fsize`` / ``base`` / ``file`` per row (int64), ``n_files``.

    Examples
    --------
    >>> r = Rows.of([b"AB\\x01\\x00", b"AB\\x02\\x00"], [10, 12])
    >>> r.width, r.n_files, r.const.tolist()
    (4, 2, [True, True, False, True])
    """

    m: np.ndarray
    fsize: np.ndarray
    base: np.ndarray
    file: np.ndarray
    header: bool = True

    @classmethod
    def of(cls, rows: list[bytes], fsize: list[int], base: list[int] | None = None,
           file: list[int] | None = None, header: bool = True) -> Rows:
        w = min((len(r) for r in rows), default=0)
        m = np.frombuffer(b"".join(r[:w] for r in rows), dtype=np.uint8).reshape(len(rows), w) if rows \
            else np.zeros((0, 0), np.uint8)
        n = len(rows)
        return cls(m, np.asarray(fsize, np.int64), np.asarray(base if base is not None else [0] * n, np.int64),
                   np.asarray(file if file is not None else list(range(n)), np.int64), header)

    @property
    def n(self) -> int:
        return int(self.m.shape[0])

    @property
    def width(self) -> int:
        return int(self.m.shape[1])

    @property
    def n_files(self) -> int:
        return int(len(np.unique(self.file)))

    @property
    def const(self) -> np.ndarray:
        if not self.n:
            return np.zeros(self.width, bool)
        return (self.m == self.m[0]).all(axis=0)

    def part(self, mask: np.ndarray) -> Rows:
        """The rows where ``mask`` is true."""
        return Rows(self.m[mask], self.fsize[mask], self.base[mask], self.file[mask], self.header)


def int_view(m: np.ndarray, w: int, e: str) -> np.ndarray:
    """Every ``w``-byte integer of every row at every offset: (rows x (width - w + 1)) int64.

    Examples
    --------
    >>> m = np.array([[1, 2, 3]], np.uint8)
    >>> int_view(m, 2, "le").tolist(), int_view(m, 2, "be").tolist()
    ([[513, 770]], [[258, 515]])
    """
    n, width = m.shape
    k = width - w + 1
    if k <= 0:
        return np.zeros((n, 0), np.int64)
    out = np.zeros((n, k), np.int64)
    for j in range(w):
        shift = 8 * (j if e == "le" else w - 1 - j)
        out |= m[:, j:j + k].astype(np.int64) << shift
    return out


def field_values(rows: Rows, f) -> np.ndarray:
    """The integer a field (``offset``, ``width``, ``type`` ending in its byte order) holds in every row."""
    e = f.type[-2:] if f.type and f.type[-2:] in ("le", "be") else "le"
    return int_view(rows.m[:, f.offset:f.end], f.width, e)[:, 0]


def sized_ends(rows: Rows, fields: list, regions: list) -> list[tuple]:
    """``(region, per-row end)`` of every ``bytes`` region from a constant start whose size is a field of the
    rows (a header's part a size field bounds: what a chain may follow, where an order list may run)."""
    out = []
    for r in regions:
        g = next((f for f in fields if f.name == r.size), None)
        if r.kind == "bytes" and g is not None and isinstance(r.start, (int, np.integer)) and g.end <= rows.width:
            out.append((r, int(r.start) + field_values(rows, g)))
    return out


def distinct_counts(m: np.ndarray) -> np.ndarray:
    """Distinct byte values per column.

    Examples
    --------
    >>> distinct_counts(np.array([[1, 5], [1, 6], [2, 6]], np.uint8)).tolist()
    [2, 2]
    """
    if not m.size:
        return np.zeros(m.shape[1], np.int64)
    s = np.sort(m, axis=0)
    return 1 + (np.diff(s.astype(np.int16), axis=0) != 0).sum(axis=0)
