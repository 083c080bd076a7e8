"""Values without a structural role: floats, strings, constants and plain integers.

Floats and strings pass the same guard as the roles (their chance at random
is measured at every other offset of the same files); a plain integer is
typed only when its byte pattern says so and that pattern is not what most
offsets of the files look like (see :mod:`animre.infer._guard`).
"""

from __future__ import annotations

import math

import numpy as np

from ._guard import accepted, binom_tail_log10
from ._limits import PLAIN_ALIGN, SIGNED_SMALL_MAX, SMALL_FILL, SMALL_MAX, SMALL_RUN, SMALL_SHARE
from ._model import Field
from ._roles import type_name
from ._rows import Rows, distinct_counts, int_view

__all__ = ["float_fields", "string_fields", "small_byte_runs", "segment", "byte_order_vote"]

F_LO, F_HI = 1e-4, 1e6
_TIED = "bytes that vary together"


def _plausible(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    f = v.astype(np.uint32).view(np.float32)
    a = np.abs(f)
    with np.errstate(invalid="ignore"):
        nz = np.isfinite(f) & (a >= F_LO) & (a <= F_HI)
    return nz | (v == 0), nz


def _fixed_head(rows: Rows, e: str) -> np.ndarray:
    """Per 4-byte offset: the two most significant bytes are the same in every row (sign, exponent and the top 7
    mantissa bits): values that differ by less than 1/128 of themselves in every file are an integer's constant
    high bytes read with the bytes before them (a 320 x 200 screen's 0x0140 after a random id), not a float."""
    cst = rows.const
    k = rows.width - 3
    hi, hi2 = (np.arange(k), np.arange(k) + 1) if e == "be" else (np.arange(k) + 3, np.arange(k) + 2)
    return cst[hi] & cst[hi2]


def _int_tail(rows: Rows, e: str) -> np.ndarray:
    """Per 4-byte offset: the least significant byte varies under two constant mantissa bytes (an integer's)."""
    cst = rows.const
    k = rows.width - 3
    lo, m1, m2 = (np.arange(k) + 3, np.arange(k) + 2, np.arange(k) + 1) if e == "be" else \
        (np.arange(k), np.arange(k) + 1, np.arange(k) + 2)
    return ~cst[lo] & cst[m1] & cst[m2]


def float_fields(rows: Rows, alpha: float) -> list[tuple[float, Field]]:
    """``f4`` fields: every value zero or of a plausible magnitude, most of them not zero."""
    out = []
    if rows.width < 4 or rows.n < 2:
        return out
    for e in ("le", "be"):
        v = int_view(rows.m, 4, e)
        ok, nz = _plausible(v)
        q = min(1.0, max(float(nz.mean()), 0.16))
        n_tests = 2 * v.shape[1]
        good = ok.all(axis=0) & (nz.sum(axis=0) * 2 >= rows.n) & ~(v == v[0]).all(axis=0) & ~_int_tail(rows, e) \
            & ~_fixed_head(rows, e)
        for o in np.flatnonzero(good):
            vals = np.unique(v[nz[:, o], o])
            k = len(vals)
            logp = binom_tail_log10(k, k, q)
            if k >= 3 and accepted(logp, n_tests, alpha):
                fl = v[nz[:, o], o].astype(np.uint32).view(np.float32)
                ev = (f"a float in {int(ok[:, o].sum())}/{rows.n} {'files' if rows.header else 'records'} "
                      f"({k} distinct, {float(fl.min()):.4g} .. {float(fl.max()):.4g})")
                out.append((logp, Field(int(o), 4, f"f4{e}", "float", ev, int(ok[:, o].sum()), rows.n,
                                        alternatives=[f"u4{e}", f"chance {q:.2f} per value, {n_tests} tests"])))
    return out


def string_fields(rows: Rows, alpha: float, taken: np.ndarray | None = None) -> list[tuple[float, Field]]:
    """Fixed-size ASCII strings padded with zeros (``type: str``, ``pad-right: 0``).

    A text starts after a byte that is not a character in some file, or after a byte ``taken`` by another
    field (a name right after a text magic, as an XM's after ``Extended Module: ``)."""
    m = rows.m
    if not rows.n or rows.width < 2:
        return []
    if taken is not None:  # constant bytes right after a claimed field go on with it (a magic's ": ")
        taken = taken.copy()
        cst = rows.const
        for o in range(1, min(len(taken), rows.width)):
            taken[o] |= taken[o - 1] and cst[o]
    pr = (m >= 0x20) & (m < 0x7F)
    zr = m == 0
    rp, rz = max(float(pr.mean()), 1e-3), max(float(zr.mean()), 1e-3)
    out = []
    o = 0
    width = rows.width
    while o < width:
        # a text starts where every file has a character or (an empty text) a zero, and most a character
        after_text = o > 0 and pr[:, o - 1].all() and (taken is None or not taken[o - 1])
        if taken is not None and taken[o] or not (pr[:, o] | zr[:, o]).all() or pr[:, o].mean() < 0.5 or after_text:
            o += 1
            continue
        state = np.ones(rows.n, bool)  # still inside the text
        lens = np.zeros(rows.n, np.int64)
        e = o
        while e < width:
            nxt_in = state & pr[:, e]
            nxt_pad = (state & zr[:, e]) | (~state & zr[:, e])
            if not (nxt_in | nxt_pad).all():
                break
            lens += nxt_in
            state = nxt_in
            e += 1
        last = o + int(lens.max())  # zeros in every file after the longest text belong to the next field
        e = min(e, last + 1 + (-(last + 1 - o)) % 4)
        w = e - o
        if w >= 2 and lens.max() >= 4 and lens.mean() >= 2:
            vals = {bytes(r) for r in m[:, o:e]}
            per = [a * math.log10(rp) + ((w - a) * math.log10(rz) if w > a else 0.0) for a in lens]
            logp = sum(sorted(per)[-len(vals):]) if len(vals) > 1 else 0.0
            if len(vals) >= 2 and accepted(logp, width, alpha):
                ev = (f"ASCII text padded with zeros in {rows.n}/{rows.n} {'files' if rows.header else 'records'} "
                      f"({len(vals)} distinct, up to {int(lens.max())} characters)")
                out.append((logp, Field(o, w, "str", "string", ev, rows.n, rows.n,
                                        alternatives=["raw bytes"])))
        o = max(e, o + 1)
    return out


def small_byte_runs(rows: Rows, taken: np.ndarray, alpha: float, inside: np.ndarray | None = None) -> list[Field]:
    """Arrays of small bytes (an order list, per-slot counts of at most 5): one ``u1`` field per byte.

    A run starts at :data:`SMALL_RUN` or more adjacent bytes that vary between the rows and are at most
    :data:`SMALL_MAX` or the fill byte :data:`SMALL_FILL` (an unused slot) in every row (wider integers of
    small values have constant high bytes between their varying low bytes, so they never make such a run;
    mostly characters are a text, not a run); it goes on over bytes that vary and are small in
    :data:`SMALL_SHARE` of the rows (the unused tail of an order list, where a few files keep junk); bytes
    constant in every row end it (documented as constants). A run that would start right after a byte that
    varies widely starts one byte later (that byte is the high byte of a wider integer). Its chance by
    coincidence is the share of the rows' bytes that are at most the run's largest value (or the fill, where
    the run holds it), to the power of its distinct (column, value) pairs, times every start tried.
    ``inside`` (rows x bytes, optional): where a byte lies inside its file's part of the header (a header whose
    size field ends it earlier in some files); past the core, a byte counts only in the files it lies inside, the
    run ends where it lies inside none, and once the header has ended in some files the run goes on to where it
    has ended in all (only the table can still be there).

    Examples
    --------
    >>> import random
    >>> rng = random.Random(1)
    >>> rows = Rows.of([b"HD" + bytes(rng.randrange(6) for _ in range(12)) + bytes([200, 9]) for _ in range(6)],
    ...                [16] * 6)
    >>> got = small_byte_runs(rows, np.zeros(16, bool), 0.01)
    >>> [(f.offset, f.type) for f in got][:2], len(got)
    ([(2, 'u1'), (3, 'u1')], 12)
    """
    m = rows.m
    if rows.n < 2 or rows.width < SMALL_RUN:
        return []
    free = ~taken[:rows.width]
    fill = m == SMALL_FILL
    is_small = (m <= SMALL_MAX) | fill
    small = is_small.all(axis=0) & free
    ins = np.ones(m.shape, bool) if inside is None else inside[:, :rows.width]
    n_in = ins.sum(axis=0)
    # past the core: an unused tail, junk in a few (of the files the byte lies inside)
    mostly = ((is_small & ins).sum(axis=0) >= SMALL_SHARE * np.maximum(n_in, 1)) & (n_in > 0) & free
    vary = ~rows.const
    out: list[Field] = []
    p = 0
    unit = "files" if rows.header else "records"
    while p < rows.width:
        q = p
        while q < rows.width and small[q] and vary[q]:
            q += 1
        if p > 0 and free[p - 1] and vary[p - 1] and q > p:  # after a byte that varies widely: its high byte
            p += 1
        if q - p < SMALL_RUN:
            p = q + 1
            continue
        e = q
        while e < rows.width and mostly[e] and vary[e]:
            e += 1
        e0 = e
        if inside is not None and e < rows.width and 0 < n_in[e] < rows.n:  # where the header ended in some files
            z = e
            while z < rows.width and n_in[z] > 0 and free[z]:
                z += 1
            if z == rows.width or n_in[z] == 0:  # nothing else starts before the header ends in every file
                e = z
        core = m[:, p:q]
        if ((core >= 0x20) & (core < 0x7F)).mean() > 0.3:  # characters: a text (a name padded with spaces)
            p = q
            continue
        used = core[core != SMALL_FILL]
        top = int(used.max()) if used.size else 0  # the evidence is the core's: every byte of it small in every row
        filled = bool((core == SMALL_FILL).any())
        share = max(float(((m <= top) | (fill if filled else False)).mean()), 1e-3)
        n_eff = int(distinct_counts(core).sum())
        logp = n_eff * math.log10(share) if share < 1 else 0.0
        if accepted(logp, rows.width, alpha):
            what = f"0..{top}" + (f" or 0x{SMALL_FILL:X} (unused)" if filled else "")
            ev = f"a byte of {what} in {rows.n}/{rows.n} {unit} for {q - p} bytes in a row" + (
                f", then of 0..{SMALL_MAX} in {SMALL_SHARE:.0%} of them for {e0 - q} more" if e0 > q else "") + (
                f", then {e - e0} more to where the header ends in every file (its size field)" if e > e0 else "")
            out += [Field(c, 1, "u1", "int", ev, rows.n, rows.n, alternatives=[f"chance 10^{logp:.0f}"])
                    for c in range(p, e)]
        p = e
    return out


def signed_byte_runs(rows: Rows, taken: np.ndarray, alpha: float) -> list[Field]:
    """Arrays of small signed bytes (a sprite's per-frame x offsets, -40..40): one ``s1`` field per byte.

    A run is :data:`SMALL_RUN` or more adjacent free bytes that vary between the rows and lie within
    ``-SIGNED_SMALL_MAX..SIGNED_SMALL_MAX`` read as signed bytes in every row, with values of both signs (of one
    sign it is :func:`small_byte_runs`'s). Its chance by coincidence is the share of the rows' bytes within the
    run's largest magnitude, to the power of its distinct (column, value) pairs, times every start tried: a
    signal around zero (raw sound) has such bytes everywhere, so its share is near 1 and it proves nothing.

    Examples
    --------
    >>> import random
    >>> rng = random.Random(2)
    >>> rows = Rows.of([b"HD" + bytes(rng.randrange(-9, 10) % 256 for _ in range(12)) + bytes([200, 99, 1, 3])
    ...                 for _ in range(8)], [18] * 8)
    >>> got = signed_byte_runs(rows, np.zeros(18, bool), 0.01)
    >>> [(f.offset, f.type) for f in got][:2], len(got)
    ([(2, 's1'), (3, 's1')], 12)
    """
    if rows.n < 2 or rows.width < SMALL_RUN:
        return []
    sv = np.abs(rows.m.view(np.int8).astype(np.int16))
    sg = rows.m.view(np.int8)
    near = (sv <= SIGNED_SMALL_MAX).all(axis=0) & ~taken[:rows.width] & ~rows.const
    unit = "files" if rows.header else "records"
    out: list[Field] = []
    p = 0
    while p < rows.width:
        q = p
        while q < rows.width and near[q]:
            q += 1
        core = sg[:, p:q]
        if q - p < SMALL_RUN or not ((core < 0).any() and (core > 0).any()):
            p = q + 1
            continue
        top = int(sv[:, p:q].max())
        share = max(float((sv <= top).mean()), 1e-3)
        logp = int(distinct_counts(rows.m[:, p:q]).sum()) * math.log10(share) if share < 1 else 0.0
        if accepted(logp, rows.width, alpha):
            ev = f"a signed byte of -{top}..{top} in {rows.n}/{rows.n} {unit} for {q - p} bytes in a row"
            out += [Field(c, 1, "s1", "int", ev, rows.n, rows.n, alternatives=[f"chance 10^{logp:.0f}"])
                    for c in range(p, q)]
        p = q
    return out


def _int_like(d: np.ndarray, c: np.ndarray, hi_vals: np.ndarray) -> bool:
    """Bytes given low to high significance: distinct counts ``d``, constancy ``c``."""
    if c.all():
        return False
    if (np.diff(d) > 0).any():
        return False
    top = d[-1]
    return bool(c[-1] or top * 2 <= d[0])


def _pattern(rows: Rows, dc: np.ndarray, cst: np.ndarray, o: int, w: int, e: str) -> bool:
    idx = np.arange(o, o + w) if e == "le" else np.arange(o + w - 1, o - 1, -1)
    return _int_like(dc[idx], cst[idx], rows.m[:, idx[-1]])


def byte_order_vote(rows: Rows) -> dict:
    """Windows of 2 and 4 varying bytes that read as integers in one byte order only: ``{"le": n, "be": n}``.

    A small number's high bytes are zero (or few-valued) in every file: read in
    the right order, the distinct values per byte fall from low to high
    significance; read in the wrong order they rise.
    """
    dc = distinct_counts(rows.m)
    cst = rows.const
    votes = {"le": 0, "be": 0}
    for w in (2, 4):
        for o in range(0, rows.width - w + 1, w):
            if cst[o:o + w].all():
                continue
            le, be = _pattern(rows, dc, cst, o, w, "le"), _pattern(rows, dc, cst, o, w, "be")
            if le != be:
                votes["le" if le else "be"] += 1
    return votes


def _stationary(rows: Rows, dc: np.ndarray, cst: np.ndarray, w: int, e: str, cache: dict) -> float:
    """Share of all offsets of the rows where a ``w``-byte integer pattern holds."""
    key = (w, e)
    if key not in cache:
        k = rows.width - w + 1
        hits = sum(_pattern(rows, dc, cst, p, w, e) for p in range(0, k, max(1, k // 256)))
        cache[key] = hits / max(1, len(range(0, k, max(1, k // 256))))
    return cache[key]


def _signed(rows: Rows, o: int, w: int, e: str) -> bool:
    hi = rows.m[:, o + w - 1] if e == "le" else rows.m[:, o]
    vals = set(np.unique(hi).tolist())
    return vals == {0, 0xFF} or (0xFF in vals and vals <= {0xFF, 0xFE, 0, 1})


def segment(rows: Rows, a: int, b: int, endian: str, cache: dict, ints: bool | str = True,
            stop: int | None = None) -> list[Field]:
    """Fields for the bytes ``[a, b)`` that no role claimed: constants, plain integers, raw bytes.

    ``ints``: type plain integers (True), none (False), or only up to the first raw byte (``"lead"``);
    from ``stop`` on, True becomes ``"lead"`` (a field may still cross ``stop``).
    """
    dc = distinct_counts(rows.m)
    cst = rows.const
    out: list[Field] = []
    raw_start = None
    p = a
    unit = "files" if rows.header else "records"

    def flush(upto: int) -> None:
        nonlocal raw_start
        if raw_start is not None and upto > raw_start:
            why = "no pattern found" if ints else "no evidence of structure around it"
            out.append(Field(raw_start, upto - raw_start, None, "raw", f"varies in {unit}; {why}", 0, rows.n))
        raw_start = None

    while p < b:
        if stop is not None and p >= stop and ints is True:
            ints = "lead"
        got = None
        for w in (4, 2, 1):
            if p + w > b or got is not None or not ints or (w > 1 and p % 2):  # plain integers are aligned
                continue
            high = cst[p + 1:p + w] if endian == "le" else cst[p:p + w - 1]
            if w > 2 and p % PLAIN_ALIGN and not high.all():  # off its alignment only a byte's value: PLAIN_ALIGN
                continue
            if ints is True and stop is not None and p + w > stop + 1:  # past the zone by its low byte at most
                continue
            if w == 1 and ints == "lead":  # a byte of few values alone does not make a header
                okp = False
            elif w == 1:
                okp = (not cst[p]) and dc[p] <= max(2, rows.n // 8) and _stationary(rows, dc, cst, 1, endian,
                                                                                    cache) <= 0.3
            else:
                okp = _pattern(rows, dc, cst, p, w, endian) and _stationary(rows, dc, cst, w, endian, cache) <= 0.3
                if okp and ints == "lead":  # values of both signs (a signal around zero) do not start a header
                    hi = rows.m[:, p + w - 1] if endian == "le" else rows.m[:, p]
                    okp = bool((hi < 0x80).all() or (hi >= 0x80).all())
            if w == 2 and not okp and ints == "lead" and _few(rows, dc, cst, p) and _few(rows, dc, cst, p + 1) \
                    and _same_partition(rows.m[:, p], rows.m[:, p + 1]):
                got = Field(p, 2, type_name(2, endian), "int", f"{_TIED} in {rows.n}/{rows.n} "
                            f"{unit} ({dc[p]} values)", rows.n, rows.n, alternatives=["raw bytes"])
            elif okp:
                sg = _signed(rows, p, w, endian)
                got = Field(p, w, type_name(w, endian, sg), "int",
                            f"an integer ({'signed, ' if sg else ''}{dc[p]} distinct low bytes)",
                            rows.n, rows.n, alternatives=["raw bytes"])
        if got is None and cst[p]:
            q = p
            while q < b and cst[q]:
                q += 1
            run = q - p
            w = 4 if run >= 4 else 2 if run >= 2 else 1  # no u8: the compiler reads 64-bit literals as signed
            val = int(int_view(rows.m[:1, p:p + w], w, endian)[0, 0]) if rows.n else 0
            got = Field(p, w, type_name(w, endian), "const", f"= {val:#x} in {rows.n}/{rows.n} {unit}", rows.n,
                        rows.n, value=val)
        if got is None:
            if ints == "lead":
                ints = False
            if raw_start is None:
                raw_start = p
            p += 1
            continue
        flush(p)
        out.append(got)
        p = got.end
    flush(b)
    return _tied(rows, out, endian)


def _few(rows: Rows, dc: np.ndarray, cst: np.ndarray, p: int) -> bool:
    return bool(not cst[p] and dc[p] <= max(2, rows.n // 8))


def _same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    k = len(np.unique(a))
    return k == len(np.unique(b)) == len(np.unique(a.astype(np.int64) * 256 + b))


def _loose(f: Field) -> bool:
    """A single byte, or bytes already found to vary together."""
    return f.width == 1 or f.type is None or f.evidence.startswith(_TIED)


def _tied(rows: Rows, fields: list[Field], endian: str) -> list[Field]:
    """Adjacent single-byte integers that vary together (one byte's value decides the other's) are one field."""
    out: list[Field] = []
    for f in fields:
        g = out[-1] if out else None
        if g is not None and f.role == g.role == "int" and _loose(f) and _loose(g) and g.end == f.offset \
                and g.width + f.width <= 4 and _same_partition(rows.m[:, g.end - 1], rows.m[:, f.offset]):
            w = g.width + f.width
            out[-1] = Field(g.offset, w, type_name(w, endian) if w in (2, 4) else None, "int",
                            f"{_TIED} in {rows.n}/{rows.n} "
                            f"{'files' if rows.header else 'records'} ({len(np.unique(rows.m[:, f.offset]))} values)",
                            rows.n, rows.n, alternatives=["raw bytes"])
            continue
        out.append(f)
    for f in out:
        if f.role == "int" and f.type is None:
            f.role = "raw"
    return out

