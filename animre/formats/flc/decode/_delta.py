"""Batched numpy decoding of the pixel chunks (DELTA_FLI, DELTA_FLC, BYTE_RUN) of a whole file at once."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._layout import BYTE_RUN, DELTA_FLC, DELTA_FLI

# The pixel chunks of a file (DELTA_FLI, DELTA_FLC, BYTE_RUN) are decoded in
# two steps: a tight Python loop follows each chunk's chain of line and packet
# headers (one list append and one table look-up per packet, no pixel work),
# then numpy turns all packets of the file at once into pixels: the values are
# one ``np.repeat`` of the file's bytes (a literal byte once, a run's byte or
# word as many times as the run is long), the destinations one cumulative sum
# (+1 per pixel, a jump where a packet starts); each frame is then one copy of
# the previous frame plus one fancy assignment (BYTE_RUN: one copy of the
# whole frame). A chunk whose chain or packets break any rule (truncated, past
# the width or height, repeated last-pixel option) is left to the sequential
# codec (:mod:`._codecs`), which raises its exact error.


def _chain_fli(data: bytes, start: int, end: int, h: int, w: int, starts: list, lines: list) -> bool:
    """Packet starts and lines (``y << 16 | packets``) of a DELTA_FLI chunk."""
    if start + 4 > end:
        return False
    y0 = data[start] | (data[start + 1] << 8)
    ymax = y0 + (data[start + 2] | (data[start + 3] << 8))
    if ymax > h:
        return False
    p = start + 4
    append, adv, line = starts.append, _FLI_ADVANCE, lines.append
    for y in range(y0, ymax):
        k = data[p]
        p += 1
        line(y << 16 | k)
        for _ in range(k):
            append(p)
            p += adv[data[p + 1]]
        if p > end:
            return False
    return True


#: Bytes a DELTA_FLI packet takes, by its count byte: skip, count and the literal bytes, or one byte for a run.
_FLI_ADVANCE = tuple(3 if c & 0x80 else c + 2 for c in range(256))
#: The same for DELTA_FLC: skip, count and the literal words, or one word for a run.
_FLC_ADVANCE = tuple(4 if c & 0x80 else 2 * c + 2 for c in range(256))
#: BYTE_RUN, by a packet's count byte: the bytes it takes (count and literals, or count and one byte) ...
_BYTE_RUN_ADVANCE = tuple(257 - c if c & 0x80 else 2 for c in range(256))
#: ... and the pixels it draws.
_BYTE_RUN_PIXELS = tuple(256 - c if c & 0x80 else c for c in range(256))


def _chain_flc(data: bytes, start: int, end: int, h: int, w: int, starts: list, lines: list, last: list) -> bool:
    """Packet starts, lines (``y << 16 | packets``) and last-pixel options of a DELTA_FLC chunk."""
    if start + 2 > end:
        return False
    p = start + 2
    y = 0
    last_y = -1
    append, adv, line = starts.append, _FLC_ADVANCE, lines.append
    for _ in range(data[start] | (data[start + 1] << 8)):
        if y >= h:
            return False  # more lines declared than the frame has
        word = data[p] | (data[p + 1] << 8)
        p += 2
        while word & 0x8000:
            if word & 0x4000:
                y += 0x10000 - word
                if y >= h:
                    return False
            else:
                if y == last_y:
                    return False  # two last-pixel options on one line: left to the sequential codec
                last_y = y
                last.append((y * w + w - 1, p - 2))
            word = data[p] | (data[p + 1] << 8)
            p += 2
        line(y << 16 | word)  # word < 0x8000: the packet count
        for _ in range(word):
            append(p)
            p += adv[data[p + 1]]
        if p > end:
            return False
        y += 1
    return p <= end


def _chain_byte_run(data: bytes, start: int, end: int, h: int, w: int, starts: list) -> bool:
    """Packet starts of a BYTE_RUN chunk whose every line ends exactly at the width, inside the chunk."""
    p = start
    append, adv, pixels = starts.append, _BYTE_RUN_ADVANCE, _BYTE_RUN_PIXELS
    for _ in range(h):
        p += 1  # the obsolete packet count byte
        x = 0
        while x < w:
            append(p)
            c = data[p]
            x += pixels[c]
            p += adv[c]
        if x != w or p > end:
            return False
    return True


def _repeat_counts(size: int, lit_start: np.ndarray, lit_end: np.ndarray, run_at: np.ndarray,
                   run_n: np.ndarray, stride: int) -> np.ndarray:
    """How often each of ``size`` source units is drawn: once inside a literal range [start, end) (every
    ``stride``-th unit from its start), ``run_n`` times at a run's unit, never elsewhere.

    The ranges and run units of chains in file order are disjoint, so a mark at each start and end and a
    cumulative sum (in place: one array, a large temporary costs its page faults) suffice.
    """
    cnt = np.zeros(size + stride, dtype=np.intp)
    cnt[lit_start] = 1
    cnt[lit_end] = -1
    for r in range(stride):
        np.cumsum(cnt[r::stride], out=cnt[r::stride])
    cnt[run_at] = run_n
    return cnt[:size]


def _destinations(dst0: np.ndarray, n: np.ndarray, total: int) -> np.ndarray:
    """Per pixel, where it goes: ``dst0[k] + j`` for the j-th of the ``n[k]`` pixels of packet k (n > 0)."""
    inc = np.ones(total, dtype=np.intp)
    if len(n):
        jumps = dst0.copy()
        jumps[1:] -= dst0[:-1] + n[:-1] - 1
        inc[np.cumsum(n) - n] = jumps
    return np.cumsum(inc, out=inc)


def _ints(values: list[int]) -> np.ndarray:
    """A list of ints as an intp array (``fromiter`` with the length: faster than ``np.array`` on a list)."""
    return np.fromiter(values, dtype=np.intp, count=len(values))


def _in_file_order(spans: list[tuple[int, int]]) -> bool:
    """True when the chunks' spans follow one another without overlapping (their packets, inside them, are
    then in file order, as :func:`_repeat_counts` needs); a layout that breaks it is left to the codecs."""
    return all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))


def _plan_rows(data: bytes, D: np.ndarray, jobs: list, h: int, w: int, flc: bool) -> dict:
    """The plans of the DELTA_FLI (``flc`` False) or DELTA_FLC chunks ``jobs``."""
    starts: list[int] = []
    lines: list[int] = []
    last: list[tuple[int, int]] = []
    kept = []  # (key, first packet, end packet, end last-pixel, first last-pixel)
    spans = []
    for key, _, start, end in jobs:
        marks = (len(starts), len(lines), len(last))
        try:
            if flc:
                ok = _chain_flc(data, start, end, h, w, starts, lines, last)
            else:
                ok = _chain_fli(data, start, end, h, w, starts, lines)
        except IndexError:
            ok = False
        if not ok:
            del starts[marks[0]:], lines[marks[1]:], last[marks[2]:]
            continue
        kept.append((key, marks[0], len(starts), len(last), marks[2]))
        spans.append((start, end))
    if not kept or not _in_file_order(spans):
        return {}
    lo, hi = spans[0][0], spans[-1][1]
    span = D[lo:hi]
    S = _ints(starts) - lo
    skip = span[S].astype(np.intp)
    c = span[S + 1].astype(np.intp)
    run = c >= 128
    units = np.where(run, 256 - c, c)
    n = units * 2 if flc else units
    # x after each packet, restarting at 0 on each line
    x_end = np.cumsum(skip + n)
    lines_a = _ints(lines)
    counts_a = lines_a & 0xFFFF
    first = np.cumsum(counts_a) - counts_a
    before = np.concatenate(([0], x_end))[first]
    x_end -= np.repeat(before, counts_a)
    bad_packets = np.flatnonzero(x_end > w)
    pix_end = np.cumsum(n)
    total = int(pix_end[-1]) if len(n) else 0
    dst0 = np.repeat((lines_a >> 16) * w, counts_a) + x_end - n
    full = n > 0
    dst = _destinations(dst0[full], n[full], total)
    # values: literals read in order, a run repeats its byte (FLI) or its word (FLC: the bytes read as
    # overlapping little-endian words, one per byte offset), all in one repeat of the chunks' bytes
    lit = full & ~run
    at = S + 2
    if flc:
        words = np.ndarray((len(span) - 1,), dtype="<u2", buffer=span, strides=(1,))
        cnt = _repeat_counts(len(words), at[lit], at[lit] + n[lit], at[run], units[run], 2)
        vals = np.repeat(words, cnt).view(np.uint8)
    else:
        vals = np.repeat(span, _repeat_counts(len(span), at[lit], at[lit] + n[lit], at[run], n[run], 1))
    bad = set(np.searchsorted([a for _, a, *_ in kept], bad_packets, side="right").tolist())
    pix_start = np.concatenate(([0], pix_end))
    out = {}
    if last:
        last_a = np.array(last, dtype=np.intp)
        last_dst, last_val = last_a[:, 0], D[last_a[:, 1]]
    for i, (key, a, b, le, la) in enumerate(kept):
        if i + 1 in bad:
            continue
        p0, p1 = int(pix_start[a]), int(pix_start[b])
        lp = (last_dst[la:le], last_val[la:le]) if le > la else None
        out[key] = (lp, dst[p0:p1], vals[p0:p1])
    return out


def _plan_byte_runs(data: bytes, D: np.ndarray, jobs: list, h: int, w: int) -> dict:
    """The plans of the BYTE_RUN chunks ``jobs``, one chunk at a time (a few per file, each small): each
    one's whole frame (destinations None)."""
    out = {}
    for key, _, start, end in jobs:
        starts: list[int] = []
        try:
            if not _chain_byte_run(data, start, end, h, w, starts):
                continue
        except IndexError:
            continue
        span = D[start:end]
        S = _ints(starts) - (start - 1)  # the byte after each packet's count byte
        c = span[S - 1].astype(np.intp)
        lit = c >= 128
        n = np.where(lit, 256 - c, c)
        run = ~lit
        out[key] = (None, None, np.repeat(span, _repeat_counts(len(span), S[lit], S[lit] + n[lit], S[run],
                                                               n[run], 1)))
    return out


def plan_deltas(data: bytes, D: np.ndarray, jobs: list[tuple[Any, int, int, int]], h: int, w: int) -> dict:
    """Pixel plans for the chunks ``jobs`` = [(key, type, start, end)] (DELTA_FLI, DELTA_FLC or BYTE_RUN, in
    file order): key -> (last-pixel destinations and values or None, pixel destinations or None for the
    whole frame, their values) in frame coordinates; a chunk that breaks a rule has no plan."""
    out: dict = {}
    fli = [j for j in jobs if j[1] == DELTA_FLI]
    flc = [j for j in jobs if j[1] == DELTA_FLC]
    runs = [j for j in jobs if j[1] == BYTE_RUN]
    if fli:
        out.update(_plan_rows(data, D, fli, h, w, False))
    if flc:
        out.update(_plan_rows(data, D, flc, h, w, True))
    if runs:
        out.update(_plan_byte_runs(data, D, runs, h, w))
    return out
