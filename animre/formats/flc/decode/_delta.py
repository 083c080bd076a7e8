"""Batched numpy decoding of the delta chunks (DELTA_FLI, DELTA_FLC) of a whole file at once."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._layout import DELTA_FLC, DELTA_FLI

# The delta chunks of a file (DELTA_FLI, DELTA_FLC) are decoded in two steps:
# a tight Python loop follows each chunk's chain of line and packet headers
# (one list append and one add per packet, no pixel work), then numpy turns
# all packets of the file at once into (destination pixel, source byte) index
# arrays and gathers the source bytes; each frame is then one copy of the
# previous frame plus one fancy assignment. A chunk whose chain or packets
# break any rule (truncated, past the width or height, repeated last-pixel
# option) is left to the sequential codec (:mod:`._codecs`), which raises its exact error.


def _chain_fli(data: bytes, start: int, end: int, h: int, w: int, starts: list, rows: list, counts: list) -> bool:
    if start + 4 > end:
        return False
    y0 = data[start] | (data[start + 1] << 8)
    ymax = y0 + (data[start + 2] | (data[start + 3] << 8))
    if ymax > h:
        return False
    p = start + 4
    append, adv = starts.append, _FLI_ADVANCE
    rows.extend(range(y0 * w, ymax * w, w))
    count = counts.append
    for _ in range(y0, ymax):
        k = data[p]
        p += 1
        count(k)
        for _ in range(k):
            append(p)
            p += adv[data[p + 1]]
        if p > end:
            return False
    return True


#: Bytes a DELTA_FLI packet takes, by its count byte: skip, count and the literal bytes, or one byte for a run.
_FLI_ADVANCE = tuple(3 if c & 0x80 else c + 2 for c in range(256))


def _chain_flc(data: bytes, start: int, end: int, h: int, w: int, starts: list, rows: list, counts: list,
               last: list) -> bool:
    if start + 2 > end:
        return False
    lines = data[start] | (data[start + 1] << 8)
    p = start + 2
    y = line = 0
    last_y = -1
    append = starts.append
    while line < lines and y < h:
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
        rows.append(y * w)
        counts.append(word)
        for _ in range(word):
            append(p)
            c = data[p + 1]
            p += 4 if c & 0x80 else 2 * c + 2
        if p > end:
            return False
        line += 1
        y += 1
    return line >= lines and p <= end


def plan_deltas(data: bytes, D: np.ndarray, jobs: list[tuple[Any, int, int]], h: int, w: int) -> dict:
    """Index arrays for the delta chunks ``jobs`` = [(key, type, start, end)]: key -> (last-pixel
    destinations, their values, pixel destinations, their values) in frame coordinates."""
    starts: list[int] = []
    rows: list[int] = []
    counts: list[int] = []
    last: list[tuple[int, int]] = []
    kept = []  # (key, first packet, end packet, first line, end line, first last-pixel, end, is_flc)
    for key, t, start, end in jobs:
        marks = (len(starts), len(rows), len(last))
        try:
            if t == DELTA_FLI:
                ok = _chain_fli(data, start, end, h, w, starts, rows, counts)
            else:
                ok = _chain_flc(data, start, end, h, w, starts, rows, counts, last)
        except IndexError:
            ok = False
        if not ok:
            del starts[marks[0]:], rows[marks[1]:], counts[marks[1]:], last[marks[2]:]
            continue
        kept.append((key, marks[0], len(starts), len(last), t == DELTA_FLC, marks[2]))
    if not kept:
        return {}
    S = np.array(starts, dtype=np.intp)
    flc = np.zeros(len(S), dtype=bool)
    for _, a, b, _, is_flc, _ in kept:
        if is_flc:
            flc[a:b] = True
    skip = D[S].astype(np.intp)
    c = D[S + 1].astype(np.intp)
    run = c >= 128
    n = np.where(run, 256 - c, c)
    n[flc] *= 2
    # x after each packet, restarting at 0 on each line
    x_end = np.cumsum(skip + n)
    counts_a = np.array(counts, dtype=np.intp)
    first = np.cumsum(counts_a) - counts_a
    before = np.concatenate(([0], x_end))[first]
    x_end -= np.repeat(before, counts_a)
    bad_packets = np.flatnonzero(x_end > w)
    pix_end = np.cumsum(n)
    total = int(pix_end[-1]) if len(n) else 0
    # per pixel: its position in its packet (j), where it goes, where its value is (repeats of per-packet
    # arrays; no per-pixel gather of packet numbers)
    j = np.arange(total, dtype=np.intp) - np.repeat(pix_end - n, n)
    dst = np.repeat(np.repeat(np.array(rows, dtype=np.intp), counts_a) + x_end - n, n) + j
    # a run repeats its one byte (FLI) or its one word (FLC: j & 1); literals read byte j
    step = np.where(run, flc.astype(np.intp), -1)  # -1: every bit of j kept
    src = np.repeat(S + 2, n) + (j & np.repeat(step, n))
    vals = D[src]
    bad = set(np.searchsorted([a for _, a, *_ in kept], bad_packets, side="right").tolist())
    pix_start = np.concatenate(([0], pix_end))
    out = {}
    if last:
        last_a = np.array(last, dtype=np.intp)
        last_dst, last_val = last_a[:, 0], D[last_a[:, 1]]
    for i, (key, a, b, le, _, la) in enumerate(kept):
        if i + 1 in bad:
            continue
        p0, p1 = int(pix_start[a]), int(pix_start[b])
        lp = (last_dst[la:le], last_val[la:le]) if le > la else None
        out[key] = (lp, dst[p0:p1], vals[p0:p1])
    return out
