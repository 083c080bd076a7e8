"""Chained records: records of varying size, each one's length read inside it, their number a header field.

A tracker's patterns (a 9-byte head holding the packed data's size, then the data), an animation's frames
(each starting with its own size) or a chunked file's chunks follow each other: record ``k + 1`` starts at
``start_k + c + v_k``, with ``v_k`` the integer at ``start_k + a``. Such a chain is evidenced by what its
records share: the first one starts with the same bytes in every file (a marker: a constant of the header a
few bytes past a start, or what a length of the header lands on), and a chain whose next record starts with
those bytes again, record after record, is no coincidence. The chance of one landing on the marker by
coincidence is the share of the file's first bytes that start it (smoothed); a chain's chance is the product
over every landing past the first record of every file, times every (start, ``a``, width, ``c``) tried.
Where a header integer equals the number of records of the chain in every file (the guard of
:mod:`animre.infer._guard`: the share of the header's integers equal to it, per file), it is the chain's
count, and the spec reads ``repeat-expr: <count>`` records whose body has the size the record says.
"""

from __future__ import annotations

import numpy as np

from ._chunks import landing
from ._guard import accepted, equal_share_log10
from ._limits import (
    CHAIN_C,
    CHAIN_FIELD,
    CHAIN_HEAD,
    CHAIN_LEAD,
    CHAIN_MIN_LINKS,
    CHAIN_STEPS,
    CHUNK_MISS_SHARE,
    MAX_RECORDS,
)
from ._model import Field, Layout, Region
from ._roles import type_name
from ._rows import Rows, sized_ends
from ._sample import Sample
from ._values import segment

__all__ = ["chained_records"]


def _starts(rows: Rows, samples: list[Sample], regions: list[Region], fields: list[Field], width: int):
    """``(start expression, per-row starts, marker offset, marker bytes)`` to try: where a sized part of the
    header ends (its landing bytes the marker), and a few bytes before each constant of the header."""
    out = []
    for r, st in sized_ends(rows, fields, regions):
        mark, _ = landing([samples[int(i)].window(int(x), 4) for i, x in zip(rows.file, st)])
        if len(mark) >= 2 and any(mark):
            out.append((f"{int(r.start)} + {r.size}", st, 0, mark))
    cst = rows.const
    p = 8  # the file's own magic is no record's marker
    while p < width - 1:
        if not cst[p] or not rows.m[0, p]:  # a marker starts at a constant byte that is not zero
            p += 1
            continue
        q = p
        while q < width and cst[q] and rows.m[0, q] and q - p < 4:
            q += 1
        if q - p >= 2:
            for d in range(0, min(CHAIN_LEAD, p - 8) + 1):
                out.append((p - d, np.full(rows.n, p - d, np.int64), d, bytes(rows.m[0, p:q])))
        p = q
    return out


def _walk(s: Sample, pos: int, a: int, w: int, e: str, c: int, d: int, mark: bytes) -> tuple[int, set, list]:
    """Records of the chain from ``pos`` whose bytes at ``d`` are ``mark``: ``(records, lengths, [(start,
    length)])``; a record whose length reaches past the file or not past its own head is the chain's last."""
    k, lens, where = 0, set(), []
    while k < CHAIN_STEPS and s.window(pos + d, len(mark)) == mark:
        raw = s.window(pos + a, w)
        if len(raw) < w:
            break
        v = int.from_bytes(raw, "little" if e == "le" else "big")
        k += 1
        if c + v <= max(a + w, d + len(mark)) or pos + c + v > s.size:
            break
        lens.add(v)
        where.append((pos, c + v))
        pos += c + v
    return k, lens, where


def _marked(heads: list[bytes], mark: bytes) -> np.ndarray:
    """Where ``mark`` starts in each of ``heads``: files x positions (of the longest head), booleans."""
    width = max(len(h) for h in heads)
    out = np.zeros((len(heads), width), bool)
    for r, h in enumerate(heads):
        arr = np.frombuffer(h, np.uint8)
        n = len(arr) - len(mark) + 1
        if n > 0:
            ok = np.ones(n, bool)
            for k, b in enumerate(mark):
                ok &= arr[k:k + n] == b
            out[r, :n] = ok
    return out


def _second_landings(rows: Rows, samples: list[Sample], views: dict, st: np.ndarray, a: int, w: int, e: str,
                     d: int, mark: bytes, marked: np.ndarray, heads: np.ndarray) -> tuple:
    """For every file and every ``c`` of :data:`CHAIN_C`, where the second record (``start + c + v``) would
    start: ``(starts with the marker in the file's first bytes, lies past them, its position)``, files x c."""
    if (st == st[0]).all() and int(st[0]) + a < views[(w, e)].shape[1]:
        v = views[(w, e)][:, int(st[0]) + a].astype(np.int64)
    else:
        raws = [samples[int(i)].window(int(x) + a, w) for i, x in zip(rows.file, st)]
        v = np.array([int.from_bytes(r, "little" if e == "le" else "big") if len(r) == w else -(1 << 40)
                      for r in raws], np.int64)
    cs = np.arange(CHAIN_C + 1)
    size = cs[None, :] + v[:, None]
    pos = st[:, None] + size + d
    ok = (size > max(a + w, d + len(mark))) & (pos + len(mark) <= rows.fsize[:, None])
    inside = pos < heads[:, None]
    at = marked[np.arange(rows.n)[:, None], np.clip(pos, 0, marked.shape[1] - 1)]
    return ok & inside & at, ok & ~inside, pos


def _may_chain(samples: list[Sample], rows: Rows, second: tuple, c: int, mark: bytes) -> bool:
    """Whether at least 2 files' second records start with the marker: those seen in the files' first bytes,
    then a peek at the second record of up to 4 files where it lies past them."""
    hit, unknown, pos = second
    k = int(hit[:, c].sum())
    for r in np.flatnonzero(unknown[:, c])[:4]:
        if k >= 2:
            break
        k += samples[int(rows.file[r])].window(int(pos[r, c]), len(mark)) == mark
    return k >= 2


def _count_field(rows: Rows, views: dict, taken: np.ndarray, recs: np.ndarray, endian: str, below: int,
                 alpha: float):
    """The free header integer equal to the records of the chain in every file whose first record holds the
    marker, or ``None``."""
    cands = [(o, w, e) for (w, e) in views if w == 1 or e == endian for o in range(min(below, views[(w, e)].shape[1]))
             if not taken[o:o + w].any()]
    hit = np.flatnonzero(recs > 0)
    for o, w, e in sorted(cands, key=lambda t: (t[0], -t[1])):
        v = views[(w, e)][:, o]
        if (v[hit] == recs[hit]).all():
            _, first = np.unique(recs[hit], return_index=True)
            logp = equal_share_log10(views[(w, e)], hit[first], recs[hit][first], fitted=0)
            if accepted(logp, max(1, len(cands)), alpha):
                return o, w, e, logp
    return None


def chained_records(rows: Rows, samples: list[Sample], views: dict, taken: np.ndarray, fields: list[Field],
                    regions: list[Region], alpha: float, endian: str) -> list[tuple[Field, Region]]:
    """Count fields of the root header and the chain of records each one counts (see the module doc).

    Examples
    --------
    >>> import random, struct
    >>> from animre.infer._roles import views as row_views
    >>> rng = random.Random(3)
    >>> data = []
    >>> for i in range(8):
    ...     recs = [bytes(rng.randrange(256) for _ in range(rng.randrange(5, 60))) for _ in range(rng.randrange(2, 9))]
    ...     body = b"".join(b"FR" + struct.pack("<H", len(r)) + r for r in recs)
    ...     data.append(b"ANIM" + struct.pack("<HH", len(recs), 7) + bytes(8) + body)
    >>> rows = Rows.of([d[:24] for d in data], [len(d) for d in data])
    >>> samples = [Sample.of_bytes(str(i), d) for i, d in enumerate(data)]
    >>> [(f.offset, f.type, r.start, r.record.fields[-1].value) for f, r in chained_records(
    ...     rows, samples, row_views(rows), np.zeros(24, bool), [], [], 0.01, "le")]
    [(4, 'u2le', 16, 'len_0x02')]
    """
    if not rows.header or rows.base.any() or rows.n < 5:
        return []
    starts = _starts(rows, samples, regions, fields, rows.width)
    templates = [(a, w, c) for w in (4, 2) for a in range(CHAIN_FIELD) if a + w <= CHAIN_FIELD
                 for c in range(CHAIN_C + 1)]  # the widest length first: it wins a tie
    n_tests = max(1, len(starts) * len(templates))
    claimed = taken.copy()
    out = []
    marks: dict = {}
    shares: dict = {}
    heads = np.array([len(samples[int(i)].head) for i in rows.file], np.int64)
    for expr, st, d, mark in starts:
        if isinstance(expr, int) and claimed[expr:expr + 1].any():
            continue
        if mark not in marks:  # where the marker starts in each file's first bytes, and log10 of its share there
            marks[mark] = _marked([samples[int(i)].head for i in rows.file], mark)
            shares[mark] = np.log10((marks[mark].sum(axis=1) + 1) / np.maximum(2, heads))
        best = None
        seconds = {}
        for a, w, c in templates:
            if a < d + len(mark) and d < a + w:  # the length is no part of the marker
                continue
            if (a, w) not in seconds:
                sec = _second_landings(rows, samples, views, st, a, w, endian, d, mark, marks[mark], heads)
                seconds[(a, w)] = sec, set(np.flatnonzero((sec[0].sum(axis=0) >= 2) | sec[1].any(axis=0)).tolist())
            sec, maybe = seconds[(a, w)]
            if c not in maybe or not _may_chain(samples, rows, sec, c, mark):  # its second record: the marker again
                continue
            walks = [_walk(samples[int(i)], int(x), a, w, endian, c, d, mark) for i, x in zip(rows.file, st)]
            recs = np.array([k for k, _, _ in walks])
            links = int(np.maximum(recs - 1, 0).sum())
            if links < CHAIN_MIN_LINKS or len(set().union(*(n for _, n, _ in walks))) < 2 or \
                    (recs == 0).sum() > CHUNK_MISS_SHARE * rows.n:
                continue
            logp = float((np.maximum(recs - 1, 0) * shares[mark]).sum())
            if accepted(logp, n_tests, alpha) and (best is None or links > best[0]):
                best = (links, a, w, c, recs, logp, walks)
        if best is None:
            continue
        links, a, w, c, recs, logp, walks = best
        below = expr if isinstance(expr, int) else rows.width
        got = _count_field(rows, views, claimed, recs, endian, below, alpha)
        if got is None:
            continue
        o, cw, ce, clog = got
        name = f"num_0x{o:02x}"
        ev = (f"records chained from {expr if isinstance(expr, str) else hex(expr)} in {rows.n}/{rows.n} files: "
              f"each {c} + the u{w} at +{a} bytes long, {mark.hex(' ')} at +{d} of each ({links} links)")
        f = Field(o, cw, type_name(cw, ce), "count", f"number of the {ev}", rows.n, rows.n, name=name,
                  alternatives=[f"chain 10^{logp:.0f} x {n_tests} tests, count 10^{clog:.0f}"])
        rr = _record_rows(samples, rows, walks, max(a + w, d + len(mark)), c)
        rec = Layout(f"chunk_0x{o:02x}", rr.width, _record_fields(rr, a, w, endian, c), [], endian, rr.n)
        out.append((f, Region(f"chunks_0x{o:02x}", "chain", expr, count=name, record=rec, evidence=ev)))
        claimed[o:o + cw] = True
    return out


def _record_rows(samples: list[Sample], rows: Rows, walks: list, head: int, c: int) -> Rows:
    """Every walked record's first bytes (its ``c`` bytes of head when its length counts only what follows them;
    else at most :data:`CHAIN_HEAD`, at least its ``head``, as many as the shortest record holds) as rows, up to
    :data:`MAX_RECORDS` of them. The spec reads that many bytes of every record as its head: where the length
    counts the whole record, a next file's record shorter than every record seen does not parse."""
    where = [(int(f), p, n) for f, (_, _, ws) in zip(rows.file, walks) for p, n in ws][:MAX_RECORDS]
    # a length that counts only what follows a head of c bytes says where the head ends: c
    width = c if c >= head else max(head, min([CHAIN_HEAD] + [n for _, _, n in where]))
    got = [(f, p, samples[f].window(p, width)) for f, p, _ in where]
    got = [(f, p, b) for f, p, b in got if len(b) == width]
    return Rows.of([b for _, _, b in got], [samples[f].size for f, _, _ in got], [p for _, p, _ in got],
                   [f for f, _, _ in got], header=False)


def _record_fields(rr: Rows, a: int, w: int, endian: str, c: int) -> list[Field]:
    """A chained record's fields: its head's bytes around its length (as any record's: constants, plain integers,
    raw bytes), the length, and its body (a raw field whose ``value`` is its size expression)."""
    ln = f"len_0x{a:02x}"
    head = rr.width
    length = Field(a, w, type_name(w, endian), "size", f"the record is {c} + it bytes long", rr.n, rr.n, name=ln)
    # a chain evidences its records' heads: the stationarity test (for headerless data) is moot
    moot = {(k, e): 0.0 for k in (1, 2, 4) for e in ("le", "be")}
    out = segment(rr, 0, a, endian, moot) + [length] + segment(rr, a + w, head, endian, moot)
    for f in out:
        f.name = f.name or f"unknown_0x{f.offset:02x}"
    rest = c - head
    out.append(Field(head, 0, None, "raw", "the rest of the record", name="body",
                     value=f"{ln} + {rest}" if rest > 0 else f"{ln} - {-rest}" if rest < 0 else ln))
    return out
