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
from ._limits import DIRECTORY_EARLIER as EARLIER
from ._limits import DIRECTORY_MAX_COUNT as MAX_COUNT
from ._limits import DIRECTORY_MIN_DISTINCT as MIN_DISTINCT
from ._limits import DIRECTORY_OFFSET_WIDTHS as OFFSET_WIDTHS
from ._limits import DIRECTORY_PER_FILE as PER_FILE
from ._limits import DIRECTORY_START_SPAN as START_SPAN
from ._limits import DIRECTORY_STRIDES as STRIDES
from ._model import Field, Region
from ._roles import type_name
from ._rows import Rows, int_view
from ._sample import Sample

__all__ = ["directory_field", "offset_directory", "earliest_start", "COUNT_AREA", "STRIDES", "MAX_COUNT"]


def _blobs(samples: list[Sample], rows: Rows, at: int, n: np.ndarray) -> list[bytes]:
    return [samples[int(rows.file[i])].window(at, int(n[i])) for i in range(rows.n)]


def _in_file_share(rows: Rows, v4: np.ndarray) -> float:
    """The share of the header's 32-bit integers that lie inside their file, never below what uniform bytes give:
    the chance of one offset-like value by coincidence."""
    uniform = float(np.mean((rows.fsize + 1) / 2.0 ** 32))
    return min(1.0, max(uniform, float(((v4 >= 1) & (v4 <= rows.fsize[:, None])).mean()) if v4.size else 1.0))


def _score(blobs: list[bytes], c: np.ndarray, fsize: np.ndarray, rel: int, s: int, p: int, e: str,
           q: float) -> tuple[int, float, tuple[int, int], tuple] | None:
    """(in-file columns, log10 chance of the best offset column, its (position, width), and per file with records
    its first record's value and the records' end) for ``c`` records at ``p`` of stride ``s``. A column is a
    32-bit word at a multiple of 4 of the record, or its low 24 bits (an offset with a format byte above)."""
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
    logp, col, vals = 0.0, None, None
    for w, vw in ((4, v), (3, v & 0xFFFFFF)):
        past = ((vw >= end[:, None]) & (vw <= z[:, None])).all(axis=0)
        for j in np.flatnonzero(past):
            d = len(np.unique(vw[:, j]))
            if d >= MIN_DISTINCT and d * math.log10(q) < logp:
                logp, col, vals = d * math.log10(q), (4 * int(j) + (1 if w == 3 and e == "be" else 0), w), vw[:, j]
        if col is not None:
            break
    if col is None:
        return None
    firsts = np.cumsum([0] + [len(r) for r in recs[:-1]])  # each file's first record
    return int(inside.sum()), logp, col, (vals[firsts], end[firsts])


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


def _count_candidates(views: dict, taken: np.ndarray, endian: str) -> list[tuple[int, int, np.ndarray]]:
    """Aligned integers of the header's first COUNT_AREA bytes, unclaimed, that could count a table's records:
    ``(offset, width, values)`` with MIN_DISTINCT distinct values or more, none above MAX_COUNT."""
    out = []
    for (w, e), v in views.items():
        if w > 1 and e != endian:
            continue
        for o in range(min(v.shape[1], COUNT_AREA)):
            if taken[o:o + w].any() or o % w:
                continue
            c = v[:, o]
            if len(np.unique(c)) < MIN_DISTINCT or c.max() > MAX_COUNT:
                continue
            out.append((o, w, c))
    return out


def directory_field(rows: Rows, samples: list[Sample], views: dict, taken: np.ndarray, alpha: float,
                    endian: str) -> tuple[Field, Region] | None:
    """The count field of a table directory and its region (start a constant position), or None."""
    if not rows.header or rows.n < 3 or rows.base.any():
        return None
    v4 = views[(4, endian)]
    q = _in_file_share(rows, v4)
    if q >= 0.999:
        return None
    cands = _count_candidates(views, taken, endian)
    if not cands:
        return None
    n_tests = len(cands) * len(STRIDES) * (START_SPAN // 2) * (max(STRIDES) // 4)
    # columns that point forward inside the file in every file: where record 0's offset column can be
    pos = np.arange(v4.shape[1])
    v3 = v4 & 0xFFFFFF
    fwd = ((v4 >= (pos + 4)[None, :]) & (v4 <= rows.fsize[:, None])) | \
        ((v3 >= (pos + 4)[None, :]) & (v3 <= rows.fsize[:, None]))
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
                extra, marks = _trailing(samples, rows, c, p, s, got[2], endian)
                first, end = got[3]
                follows = bool((first == end + s * extra).all())  # the data starts where the table ends
                key = (got[1], not follows, -got[0], p, s, -w)
                if best is None or key < best[0]:
                    best = (key, o, w, c, s, p, got[2], extra, marks)
    if best is None:
        return None
    (logp, _f, neg_cols, _p, _s, _w), o, w, c, s, p, col, extra, marks = best
    ev = (f"count x {s} of the records from {p:#x}, which hold offsets past their end in every record of "
          f"{rows.n}/{rows.n} files ({len(np.unique(c))} distinct counts)" + (f"; {marks}" if marks else ""))
    f = Field(o, w, type_name(w, endian), "count", ev, rows.n, rows.n,
              alternatives=[f"chance 10^{logp:.0f} x {n_tests} tests", f"{-neg_cols} in-file columns"])
    return f, Region("", "records", p, stride=s, evidence=ev, extra=extra, column=col if col[1] == 3 else None)


def _trailing(samples: list[Sample], rows: Rows, c: np.ndarray, p: int, s: int, col: tuple[int, int],
              endian: str) -> tuple[int, str]:
    """Records past the count that still belong to the table: one whose offset column holds the file's size in
    every file (the end of the last entry's data), then one of zeros in every file (a terminator)."""
    j, w = col
    tail = [samples[int(rows.file[i])].window(p + s * int(c[i]), 2 * s) for i in range(rows.n)]
    if any(len(t) < s for t in tail):
        return 0, ""
    ends = [int.from_bytes(t[j:j + w], "little" if endian == "le" else "big") for t in tail]
    if any(e != int(z) for e, z in zip(ends, rows.fsize)):
        return 0, ""
    if all(len(t) == 2 * s and not any(t[s:]) for t in tail):
        return 2, "record count holds the file's size and record count + 1 is zeros: count + 2 records"
    return 1, "record count holds the file's size: count + 1 records"


def _table_records(samples: list[Sample], rows: Rows, at: int, n: np.ndarray, s: int) -> list[np.ndarray] | None:
    """Each row's ``n`` records of ``s`` bytes at ``at`` (the first :data:`PER_FILE` and the last two), or None
    where a file is too short for them."""
    out = []
    for i in range(rows.n):
        k = int(n[i])
        smp = samples[int(rows.file[i])]
        if k <= PER_FILE + 2:
            b = smp.window(at, k * s)
        else:
            b = smp.window(at, PER_FILE * s) + smp.window(at + (k - 2) * s, 2 * s)
            k = PER_FILE + 2
        if len(b) < k * s:
            return None
        out.append(np.frombuffer(b, np.uint8).reshape(k, s))
    return out


def _offset_column(recs: list[np.ndarray], end: np.ndarray, fsize: np.ndarray, endian: str
                   ) -> tuple[int, int] | None:
    """The first ``(column, width)`` whose integers, record after record, do not decrease and lie between the
    table's end and the file's end in every file (a last record of zeros excepted: a terminator), with at least
    :data:`MIN_DISTINCT` distinct values."""
    s = recs[0].shape[1]
    for j in range(s):
        for w in OFFSET_WIDTHS:
            if j + w > s:
                continue
            seen: set = set()
            for m, z, fs in zip(recs, end, fsize):
                if len(m) and not m[-1].any():
                    m = m[:-1]
                v = int_view(m[:, j:j + w], w, endian)[:, 0]
                if len(v) and ((v < z) | (v > fs)).any() or (np.diff(v) < 0).any():
                    break
                seen.update(v.tolist())
            else:
                if len(seen) >= MIN_DISTINCT:
                    return j, w
    return None


def earliest_start(rows: Rows, samples: list[Sample], count: np.ndarray, start: int, s: int, end: np.ndarray,
                   floor: int, endian: str, alpha: float) -> tuple[int, tuple[int, int], str] | None:
    """How many records (``k``) a table of offsets starts before ``start``, its offset column, and why.

    A count relation (``end == start + s * count``) fits any start ``s`` bytes earlier with ``count + 1``
    records just as well: the equation cannot tell where the table starts. Its records can: a table of offsets
    has a column that grows record after record and points past the table's end into the file. The table
    starts ``k`` records early while the records before ``start`` hold that column too (a game's sprite table:
    ``count + 2`` entries, the next-to-last the file's size, the last zeros). The chance that a header integer
    passes by coincidence is the share of the header's integers that point into the file (never below what
    uniform bytes give), per file and added record; the guard multiplies it by every record and column tried.
    ``floor``: the first byte the table may take (past the count and every other field before ``start``).
    """
    if rows.n < 3:
        return None
    v4 = int_view(rows.m, 4, endian)
    q = _in_file_share(rows, v4)
    n_tests = EARLIER * s * len(OFFSET_WIDTHS)
    best = None
    for k in range(0, EARLIER + 1):
        p = start - s * k
        if p < floor:
            break
        recs = _table_records(samples, rows, p, count + k, s)
        if recs is None:
            break
        col = _offset_column(recs, end, rows.fsize, endian)
        if col is None:
            if k == 0:
                return None
            break
        if k and not accepted(k * rows.n * math.log10(q), n_tests, alpha):
            break
        best = (k, col)
    if best is None or best[0] == 0:
        return None
    k, (j, w) = best
    _, marks = _trailing(samples, rows, count, start - s * k, s, (j, w), endian)
    why = (f"{k} record(s) before {start:#x} hold the offset column at +{j} ({w} bytes) too: the table starts at "
           f"{start - s * k:#x} with count + {k} records in {rows.n}/{rows.n} files" + (f" ({marks})" if marks else ""))
    return k, (j, w), why


def _zero_or_in_file_share(rows: Rows, v4: np.ndarray) -> float:
    """The share of the header's 32-bit integers that are zero or lie inside their file, never below what uniform
    bytes give: the chance of one value of a directory's offset column (an empty entry holds 0) by coincidence."""
    uniform = float(np.mean((rows.fsize + 2) / 2.0 ** 32))
    return min(1.0, max(uniform, float((v4 <= rows.fsize[:, None]).mean()) if v4.size else 1.0))


def offset_directory(rows: Rows, samples: list[Sample], views: dict, taken: np.ndarray, offsets: dict,
                     alpha: float, endian: str) -> tuple[Field, Region] | None:
    """The count field of a directory that an offset field points at (an archive's directory after its data:
    ``pos: <offset>, repeat-expr: <count>``), or None.

    No relation bounds such a table when it is not the last thing in every file. The evidence is in its records,
    as for a directory after the header: for a count ``c``, a stride ``s`` and a confirmed offset ``o``, the ``c``
    records at ``o`` of every file hold a column whose values lie inside the file (or are 0: an empty entry) in
    every record of every file, with ``d`` distinct values that are not 0. The chance by coincidence is ``q ** d``
    (``q``: the share of the header's integers that are 0 or inside the file, never below what uniform bytes
    give); the guard multiplies it by every (offset, count, stride, column) tried. Among accepted candidates the
    strongest evidence, then the smallest stride, wins (a multiple of the stride holds the same column)."""
    if not rows.header or rows.n < 3 or rows.base.any() or not offsets:
        return None
    v4 = views[(4, endian)]
    q = _zero_or_in_file_share(rows, v4)
    if q >= 0.999:
        return None
    counts = _count_candidates(views, taken, endian)
    if not counts:
        return None
    n_tests = len(offsets) * len(counts) * len(STRIDES) * (max(STRIDES) // 4)
    best = None
    for name, (_f, at) in offsets.items():
        at = np.asarray(at, np.int64)
        if at.shape != (rows.n,):
            continue
        blobs = None
        for o, w, c in counts:
            for s in STRIDES:
                k = np.minimum(c, PER_FILE)
                if (at + s * c > rows.fsize).any() or not k.any():
                    continue
                if blobs is None:
                    blobs = [samples[int(rows.file[i])].window(int(at[i]), PER_FILE * max(STRIDES))
                             for i in range(rows.n)]
                if any(len(b) < int(n) * s for b, n in zip(blobs, k)):
                    continue
                recs = [np.frombuffer(b[:int(n) * s], np.uint8).reshape(int(n), s) for b, n in zip(blobs, k) if n]
                if len(recs) < MIN_DISTINCT:
                    continue
                z = np.concatenate([np.full(len(r), rows.fsize[i], np.int64)
                                    for i, r in zip(np.flatnonzero(k), recs)])
                vals = int_view(np.concatenate(recs), 4, endian)[:, ::4]
                ok = (vals <= z[:, None]).all(axis=0)
                for j in np.flatnonzero(ok):
                    col = vals[:, j]
                    d = len(np.unique(col[col > 0]))
                    if d < MIN_DISTINCT:
                        continue
                    logp = d * math.log10(q)
                    if not accepted(logp, n_tests, alpha):
                        continue
                    key = (logp, s, o, -w)  # the widest reading of one count: its high bytes are its own
                    if best is None or key < best[0]:
                        best = (key, name, o, w, c, s, 4 * int(j), d)
    if best is None:
        return None
    (logp, _s, _o, _w), name, o, w, c, s, j, d = best
    ev = (f"count x {s} of the records at {name}, which hold a value inside the file (or 0) at +{j} in every "
          f"record of {rows.n}/{rows.n} files ({d} distinct; {len(np.unique(c))} distinct counts)")
    f = Field(o, w, type_name(w, endian), "count", ev, rows.n, rows.n,
              alternatives=[f"chance 10^{logp:.0f} x {n_tests} tests"])
    return f, Region("", "records", name, stride=s, evidence=ev)
