"""Structural roles of integer fields: the file's size, offsets, counts x strides, sizes.

Each detector tries every offset and integer type of the rows, measures the
chance of its relation by coincidence on the same files (see
:mod:`animre.infer._guard`) and keeps what the guard accepts.
"""

from __future__ import annotations

import math

import numpy as np

from ._guard import accepted, equal_share_log10, equation_log10
from ._limits import COUNT_WINDOW, MAX_K, MAX_STARTS, MAX_STRIDE, PAIR_WINDOW, START_WINDOW, UNSET_SIZE_SHARE
from ._model import Field, Region
from ._rows import TYPES, Rows, int_view

__all__ = ["file_size_fields", "offset_fields", "relation_fields", "pair_sizes", "start_candidates", "type_name"]


def type_name(w: int, e: str, signed: bool = False) -> str:
    """Kaitai's name of an integer type (``u1``, ``u4le``, ``s2be``)."""
    return f"{'s' if signed else 'u'}{w}" + ("" if w == 1 else e)


def views(rows: Rows) -> dict:
    return {(w, e): int_view(rows.m, w, e) for w, e in TYPES}


def _free(taken: np.ndarray, o: int, w: int) -> bool:
    return not taken[o:o + w].any()


def file_size_fields(rows: Rows, views: dict, alpha: float) -> list[Field]:
    """Fields equal to the file's size plus a constant in every file (sizes must differ between files)."""
    sizes = np.unique(rows.fsize)
    if len(sizes) < 3 or not rows.header:
        return []
    out = []
    n_tests = sum(v.shape[1] for v in views.values())
    for (w, e), v in views.items():
        if w == 1 or not v.shape[1]:
            continue
        d = v - rows.fsize[:, None]
        ok = (d == d[0]).all(axis=0) & (np.abs(d[0]) <= MAX_K)
        if not ok.any():
            continue
        near = (np.abs(d) <= 64).mean()
        q = max(2.0 ** (-8 * w), near / 129)
        logp = equation_log10(q, len(sizes))
        if not accepted(logp, n_tests, alpha):
            continue
        for o in np.flatnonzero(ok):
            out.append(_size_field(int(o), w, e, int(d[0, o]), rows.n, rows.n, len(sizes), logp, n_tests))
    return out + _unset_file_sizes(rows, views, alpha, n_tests, {f.offset for f in out})


def _unset_file_sizes(rows: Rows, views: dict, alpha: float, n_tests: int, found: set) -> list[Field]:
    """Fields equal to the file's size plus a constant in every file but a few that hold 0 there (a size the
    writer left unset): at most ``UNSET_SIZE_SHARE`` of the files, at least one. The evidence is the files where it
    holds (their distinct sizes), as for :func:`file_size_fields`; the spec accepts 0 too."""
    out = []
    for (w, e), v in views.items():
        if w == 1 or not v.shape[1]:
            continue
        zero = v == 0
        nz = (~zero).sum(axis=0)
        d = v - rows.fsize[:, None]
        for o in np.flatnonzero((zero.any(axis=0)) & (zero.mean(axis=0) <= UNSET_SIZE_SHARE)):
            if int(o) in found or any(int(o) < g + 4 and g < int(o) + w for g in found):
                continue
            held = ~zero[:, o]
            dd = d[held, o]
            if not (dd == dd[0]).all() or abs(int(dd[0])) > MAX_K:
                continue
            hs = np.unique(rows.fsize[held])
            if len(hs) < 3:
                continue
            near = (np.abs(d[held]) <= 64).mean()
            logp = equation_log10(max(2.0 ** (-8 * w), near / 129), len(hs))
            if not accepted(logp, n_tests, alpha):
                continue
            out.append(_size_field(int(o), w, e, int(dd[0]), int(nz[o]), rows.n, len(hs), logp, n_tests))
    return out


def _size_field(o: int, w: int, e: str, k: int, held: int, n: int, n_sizes: int, logp: float, n_tests: int
                ) -> Field:
    """A file-size field ``== size + k`` that holds in ``held`` of ``n`` files (0, unset, in the others)."""
    sign = f"+ {k}" if k > 0 else (f"- {-k}" if k < 0 else "")
    ev = f"= file size {sign}".rstrip() + f" in {held}/{n} files ({n_sizes} sizes)"
    ev += f", 0 (unset) in {n - held}" if held < n else ""
    return Field(o, w, type_name(w, e), "file_size", ev, held, n, value=0 if held < n else None, k=k,
                 alternatives=[f"chance by coincidence 10^{logp:.0f} x {n_tests} tests"])


def _in_range(rows: Rows, v: np.ndarray, w: int) -> np.ndarray:
    return (v >= 1) & (v <= rows.fsize[:, None])


def offset_fields(rows: Rows, views: dict, alpha: float) -> list[tuple[float, Field, np.ndarray]]:
    """Fields whose value lies inside the file in every sample, more often than chance allows.

    Returns ``(log10 p, field, values)`` for every accepted candidate (overlaps included).
    """
    out = []
    n_tests = sum(v.shape[1] for v in views.values())
    for (w, e), v in views.items():
        if w == 1 or not v.shape[1]:
            continue
        inr = _in_range(rows, v, w)
        uniform = float(np.mean((rows.fsize + 1) / 2.0 ** (8 * w)))
        q = min(1.0, max(uniform, float(inr.mean())))
        if q >= 0.999:
            continue
        pos = np.arange(v.shape[1])
        ahead = v >= (pos + w)[None, :] + rows.base[:, None]  # forward, past the field itself
        ok = inr.all(axis=0) & ahead.all(axis=0) & ~(v == v[0]).all(axis=0)
        sizes = np.sort(rows.fsize)
        for o in np.flatnonzero(ok):
            col = v[:, o]
            uniq, first = np.unique(col, return_index=True)
            n_eff = len(uniq)
            logp = n_eff * math.log10(q)
            # tight: inside its own file more often than inside the others' (the value tracks its file)
            r = 1.0 - np.searchsorted(sizes, uniq, side="left") / len(sizes)
            logp_tight = float(np.log10(np.maximum(r, 1e-300)).sum())
            if accepted(logp, n_tests, alpha):
                tight = accepted(logp_tight, n_tests, alpha)
                ev = (f"inside the file in {rows.n}/{rows.n} {'files' if rows.header else 'records'} "
                      f"({n_eff} distinct values; chance {q:.2g} each"
                      + (f", and inside the other files' only 10^{logp_tight:.0f} as often)" if tight else ")"))
                f = Field(int(o), w, type_name(w, e), "offset", ev, rows.n, rows.n,
                          alternatives=[f"{n_tests} candidates tried"])
                f.value = tight
                out.append((min(logp, logp_tight), f, col))
    return out


def start_candidates(rows: Rows, views: dict, taken: np.ndarray, endian: str) -> list[tuple[Field, np.ndarray]]:
    """Aligned fields of few values that point forward inside the file in every file: possible region starts.

    Not offsets by themselves (too few distinct values for the guard); one
    becomes an offset only when a count or size relation ends on it or starts
    at it in every file (:func:`relation_fields`).
    """
    out = []
    for w in (4, 2):
        v = views[(w, endian)]
        for o in range(0, min(v.shape[1], START_WINDOW), w):
            if taken[o:o + w].any():
                continue
            col = v[:, o]
            if (col == col[0]).all() or (col < o + w + rows.base).any() or (col > rows.fsize).any():
                continue
            out.append((Field(o, w, type_name(w, endian), "offset", f"inside the file in {rows.n}/{rows.n} files "
                              f"({len(np.unique(col))} distinct values)", rows.n, rows.n), col))
    return out[:MAX_STARTS]


def _fit(c: np.ndarray, z: np.ndarray, x: np.ndarray | None, idx: tuple[int, int]) -> tuple[int, int] | None:
    """(stride, start) with ``z == start + stride * c`` (start fixed, or ``x`` per row).

    ``idx``: the first row where ``c`` differs from row 0, and the first where it is positive (-1: none).
    """
    if x is None:
        i = idx[0]
        if i < 0:
            return None
        num, den = int(z[i] - z[0]), int(c[i] - c[0])
        if den == 0 or num % den:
            return None
        s = num // den
        if s < 1 or s > MAX_STRIDE:
            return None
        p = z - s * c
        if (p != p[0]).any() or p[0] < 0:
            return None
        return s, int(p[0])
    i = idx[1]
    if i < 0:
        return None
    num, den = int(z[i] - x[i]), int(c[i])
    if num <= 0 or num % den:
        return None
    s = num // den
    if s > MAX_STRIDE or (x + s * c != z).any():
        return None
    return s, -1


def _relation_null_log10(v: np.ndarray, c: np.ndarray, span: np.ndarray, stride: int) -> float:
    """``log10`` chance that ``count * stride == span`` holds by coincidence in the files after the two it was
    fitted on, with each file's null rate measured in that file (:func:`~._guard.equal_share_log10`), one file
    per distinct value of the count, the two highest rates left out (the two files the relation is fitted on)."""
    _, first = np.unique(c, return_index=True)  # files with the same value are one test
    return equal_share_log10(v, first, span[first] // stride, fitted=2)


def relation_fields(rows: Rows, views: dict, taken: np.ndarray, offsets: dict[str, tuple[Field, np.ndarray]],
                    alpha: float, endian: str = "le", confirmed: frozenset = frozenset()) -> list[tuple[Field, Region]]:
    """Counts and sizes: ``count * stride == end - start`` in every file.

    ``end`` is an offset field or the file's size; ``start`` an offset field
    or a position fitted on the files. A stride of 1 makes the field the
    region's size. ``confirmed``: the offsets that land on the same bytes in every file (a start read either
    way is the smaller of the two, unless only the larger is confirmed: a directory at the end of an archive).
    """
    bounds = [(n, v) for n, (f, v) in offsets.items()] + [("_root._io.size", rows.fsize)]
    starts = [(None, None)] + [(n, v) for n, (f, v) in offsets.items()]
    spans = {n: (f.offset, f.end) for n, (f, v) in offsets.items()}

    def overlap(o: int, w: int, xn, zn) -> bool:
        """Two of the count, the start and the end share bytes (a big-endian offset's high half read as a count
        of 65536s from its low half)."""
        parts = [(o, o + w)] + [spans[n] for n in (xn, zn) if n in spans]
        return any(a[0] < b[1] and b[0] < a[1] for i, a in enumerate(parts) for b in parts[i + 1:])

    cands = []
    for (w, e), v in views.items():
        for o in range(min(v.shape[1], COUNT_WINDOW)):
            if not _free(taken, o, w):
                continue
            c = v[:, o]
            if (c == c[0]).all() or c.max() > (1 << 24) or (w > 1 and e != endian):
                continue
            cands.append((o, w, e, c))
    cands.sort(key=lambda t: (t[0], -t[1]))
    n_tests = max(1, len(cands) * len(bounds) * len(starts))
    out = []
    used: set = set()
    for o, w, e, c in cands:
        vals, cnt = np.unique(c, return_counts=True)
        q = (cnt.max() + 1) / (rows.n + 1)
        logp = equation_log10(q, rows.n - 1)
        ne, pos = np.flatnonzero(c != c[0]), np.flatnonzero(c > 0)
        idx = (int(ne[0]) if len(ne) else -1, int(pos[0]) if len(pos) else -1)
        for zn, z in bounds:
            for xn, x in starts:
                if xn == zn or (o, w, zn) in used or overlap(o, w, xn, zn):
                    continue
                got = _fit(c, z, x, idx)
                if got is None:
                    continue
                s, p = got
                if x is None and p < o + w + int(rows.base[0]):
                    continue
                chance = logp
                if not accepted(chance, n_tests, alpha):
                    chance = _relation_null_log10(views[(w, e)], c, z - (x if x is not None else p), s)
                    if not accepted(chance, n_tests, alpha):
                        continue
                if x is None and zn == "_root._io.size" and s == 1:
                    continue  # that is a file-size field
                if s == 1 and x is not None and x.max() > c.max() and xn not in confirmed and \
                        any(n2 and np.array_equal(v2, c) for n2, v2 in starts):
                    continue  # start + size == end read either way: the start is the smaller (a header is short)
                start = xn if x is not None else p
                role = "size" if s == 1 else "count"
                what = f"{'size' if s == 1 else f'count x {s}'} of the bytes from " \
                       f"{start if isinstance(start, str) else hex(start)} to {zn.replace('_root._io.size', 'the end')}"
                ev = f"{what} in {rows.n}/{rows.n} files ({len(vals)} distinct values)"
                f = Field(o, w, type_name(w, e), role, ev, rows.n, rows.n,
                          alternatives=[f"chance 10^{chance:.0f} x {n_tests} tests"])
                reg = Region("", "records" if s > 1 else "bytes", start, stride=s, evidence=ev, end=zn)
                out.append((f, reg))
                used.add((o, w, zn))
    return out


def pair_sizes(rows: Rows, views: dict, taken: np.ndarray, alpha: float,
               endian: str = "le") -> list[tuple[Field, Region]]:
    """Two counts that tile the rest of the file: ``file size == start + s1 * c1 + s2 * c2`` in every file.

    A header that counts two kinds of blocks of fixed sizes (a ROM's 16 KiB program banks and 8 KiB picture
    banks after a 16-byte header). Pairs of 1- and 2-byte fields in the first :data:`PAIR_WINDOW` bytes are
    fitted by least squares on the files' distinct pairs of values; a fit is kept when it is exact in every
    file with integer strides. Its chance by coincidence is measured as a count's
    (:func:`~._guard.equal_share_log10`): per distinct pair, the share of the file's integers equal to the
    second count the equation asks for, the three highest left out (three files fit the three numbers).
    Returns the two fields (``count``, or ``size`` with a stride of 1) and the two regions of bytes they size,
    one after the other.

    Examples
    --------
    >>> data = [b"RM" + bytes([a, b]) + bytes(12) + bytes(a * 64 + b * 32) for a, b in
    ...         [(1, 0), (2, 1), (1, 3), (4, 2), (3, 0), (2, 5), (1, 1)]]
    >>> rows = Rows.of([d[:16] for d in data], [len(d) for d in data])
    >>> [(f.offset, f.type, reg.size) for f, reg in pair_sizes(rows, views(rows), np.zeros(16, bool), 0.01)]
    [(2, 'u1', 'num_0x02 * 64'), (3, 'u1', 'num_0x03 * 32')]
    """
    if not rows.header or rows.base.any() or rows.n < 5:
        return []
    cands = []
    for (w, e), v in views.items():
        if w > 2 or (w > 1 and e != endian):
            continue
        for o in range(min(v.shape[1], PAIR_WINDOW)):
            c = v[:, o]
            if _free(taken, o, w) and not (c == c[0]).all() and c.max() <= (1 << 16):
                cands.append((o, w, e, c))
    if len(cands) < 2:
        return []
    n_tests = max(1, len(cands) * (len(cands) - 1) // 2)
    z = rows.fsize.astype(np.float64)
    for i, (o1, w1, e1, c1) in enumerate(cands):
        for o2, w2, e2, c2 in cands[i + 1:]:
            if o2 < o1 + w1:
                continue
            pts, first = np.unique(np.stack([c1, c2], axis=1), axis=0, return_index=True)
            if len(pts) < 5:
                continue
            a = np.stack([np.ones(len(pts)), pts[:, 0], pts[:, 1]], axis=1).astype(np.float64)
            coef, _res, rank, _sv = np.linalg.lstsq(a, z[first], rcond=None)
            if rank < 3:
                continue
            p0, s1, s2 = (int(round(x)) for x in coef)
            if s1 < 1 or s2 < 1 or s1 > MAX_STRIDE or s2 > MAX_STRIDE or p0 < o2 + w2:
                continue
            if (p0 + s1 * c1 + s2 * c2 != rows.fsize).any():
                continue
            target = (rows.fsize[first] - p0 - s1 * c1[first]) // s2
            logp = equal_share_log10(views[(w2, e2)], first, target, fitted=3)
            if not accepted(logp, n_tests, alpha):
                continue
            names = [f"{'len' if s == 1 else 'num'}_0x{o:02x}" for o, s in ((o1, s1), (o2, s2))]
            sizes = [n if s == 1 else f"{n} * {s}" for n, s in zip(names, (s1, s2))]
            ev = (f"file size = {p0:#x} + {sizes[0]} + {sizes[1]} in {rows.n}/{rows.n} files "
                  f"({len(pts)} distinct pairs)")
            starts = [p0, f"{p0} + {sizes[0]}"]
            return [(Field(o, w, type_name(w, e), "size" if s == 1 else "count", ev, rows.n, rows.n, name=n,
                           alternatives=[f"chance 10^{logp:.0f} x {n_tests} tests"]),
                     Region(f"blocks_0x{o:02x}", "bytes", st, size=sz, evidence=ev))
                    for (o, w, e, s), n, sz, st in zip(((o1, w1, e1, s1), (o2, w2, e2, s2)), names, sizes, starts)]
    return []
