"""Batched numpy decoding of the pixel chunks (DELTA_FLI, DELTA_FLC, BYTE_RUN) of a whole file at once."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._layout import BYTE_RUN, DELTA_FLC, DELTA_FLI

# The pixel chunks of a file (DELTA_FLI, DELTA_FLC, BYTE_RUN) are decoded in
# two steps: a tight Python loop follows each chunk's chain of line and packet
# headers (one list append and one table look-up per packet, no pixel work),
# then numpy turns all packets of the file at once into pixels: the values are
# one gather of the bytes or words the packets take and one ``np.repeat`` (a
# literal unit once, a run's byte or word as many times as the run is long),
# the destinations one cumulative sum (+1 per pixel, a jump where a packet
# starts); every temporary is as long as the pixels or the packets, never as
# the file. Each frame is then one copy of the previous frame plus one fancy
# assignment (BYTE_RUN: one copy of the whole frame). A chunk whose chain or
# packets break any rule (truncated, past the width or height, repeated
# last-pixel option) is left to the sequential codec (:mod:`._codecs`), which
# raises its exact error.


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


def _values(D: np.ndarray, at: np.ndarray, units: np.ndarray, run: np.ndarray, step: int) -> np.ndarray:
    """The pixel values of packets (none empty) in order: a literal's ``units`` units (bytes for ``step`` 1,
    little-endian words for 2) once each, a run's one unit ``units`` times; packet k's first unit is at
    ``D[at[k]]``, the next ones ``step`` bytes further.

    One gather of the units the packets take and one ``np.repeat``, with arrays as long as those units
    (never as long as the file: a large temporary costs its page faults).
    """
    taken = np.where(run, 1, units)
    first = np.cumsum(taken) - taken
    pos = np.full(int(first[-1] + taken[-1]) if len(taken) else 0, step, dtype=np.intp)
    if len(taken):
        jumps = at.copy()
        jumps[1:] -= at[:-1] + step * (taken[:-1] - 1)
        pos[first] = jumps
    np.cumsum(pos, out=pos)
    times = np.ones(len(pos), dtype=np.intp)
    times[first[run]] = units[run]
    if step == 1:
        return np.repeat(D[pos], times)
    pairs = np.empty((len(pos), 2), dtype=np.uint8)  # a word's two bytes, gathered apart (aligned gathers)
    pairs[:, 0] = D[pos]
    pairs[:, 1] = D[1:][pos]
    return np.repeat(pairs, times, axis=0).reshape(-1)


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


def _plan_rows(data: bytes, D: np.ndarray, jobs: list, h: int, w: int, flc: bool) -> dict:
    """The plans of the DELTA_FLI (``flc`` False) or DELTA_FLC chunks ``jobs``."""
    starts: list[int] = []
    lines: list[int] = []
    last: list[tuple[int, int]] = []
    kept = []  # (key, first packet, end packet, end last-pixel, first last-pixel)
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
    if not kept:
        return {}
    S = _ints(starts)
    skip = D[S].astype(np.intp)
    c = D[S + 1].astype(np.intp)
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
    # values: literals read in order, a run repeats its byte (FLI) or its word (FLC)
    vals = _values(D, S[full] + 2, units[full], run[full], 2 if flc else 1)
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
    """The plans of the BYTE_RUN chunks ``jobs``: each one's whole frame (destinations None)."""
    starts: list[int] = []
    kept = []
    for key, _, start, end in jobs:
        mark = len(starts)
        try:
            ok = _chain_byte_run(data, start, end, h, w, starts)
        except IndexError:
            ok = False
        if ok:
            kept.append(key)
        else:
            del starts[mark:]
    if not kept:
        return {}
    S = _ints(starts)
    c = D[S].astype(np.intp)
    lit = c >= 128
    n = np.where(lit, 256 - c, c)
    full = n > 0  # a run of 0 draws nothing
    vals = _values(D, S[full] + 1, n[full], ~lit[full], 1)
    hw = h * w
    return {key: (None, None, vals[i * hw:(i + 1) * hw]) for i, key in enumerate(kept)}


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
