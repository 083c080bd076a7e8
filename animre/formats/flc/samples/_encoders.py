"""The FLC samples' own pixel encoders (BYTE_RUN, DELTA_FLC, DELTA_FLI), independent of the decoder."""

from __future__ import annotations

import struct

import numpy as np


def encode_byte_run(img: np.ndarray) -> bytes:
    """BYTE_RUN body: per line a packet count byte, then runs (count > 0) and literals (count < 0)."""
    out = bytearray()
    for row in np.asarray(img, dtype=np.uint8):
        packets = bytearray()
        n = 0
        x, w = 0, len(row)
        while x < w:
            run = 1
            while x + run < w and row[x + run] == row[x] and run < 127:
                run += 1
            if run >= 3 or x + run == w and run == 2:
                packets += bytes([run, row[x]])
                x += run
            else:
                lit = x
                while lit < w and lit - x < 128:
                    r = 1
                    while lit + r < w and row[lit + r] == row[lit] and r < 3:
                        r += 1
                    if r >= 3:
                        break
                    lit += 1
                k = lit - x
                packets += bytes([256 - k]) + row[x:lit].tobytes()
                x = lit
            n += 1
        out += bytes([min(n, 255)]) + packets
    return bytes(out)


def _word_groups(changed: np.ndarray) -> list[tuple[int, int]]:
    """Runs of True in a boolean array as (start, stop)."""
    out, i, n = [], 0, len(changed)
    while i < n:
        if changed[i]:
            j = i
            while j < n and changed[j]:
                j += 1
            out.append((i, j))
            i = j
        else:
            i += 1
    return out


def encode_delta_flc(prev: np.ndarray, cur: np.ndarray) -> bytes | None:
    """DELTA_FLC (SS2) body turning ``prev`` into ``cur``; None when nothing changed.

    Word packets cover the even part of each line (column skips in bytes);
    the last pixel of an odd-width line goes in a 0x8000 option word.
    """
    h, w = cur.shape
    even = w & ~1
    body = bytearray()
    lines = 0
    skip = 0
    for y in range(h):
        a, b = prev[y], cur[y]
        words = (a[:even:2] != b[:even:2]) | (a[1:even:2] != b[1:even:2])
        last = bool(w & 1) and a[w - 1] != b[w - 1]
        if not words.any() and not last:
            skip += 1
            continue
        if skip:
            body += struct.pack("<H", 0x10000 - skip)
            skip = 0
        if last:
            body += struct.pack("<H", 0x8000 | int(b[w - 1]))
        packets = bytearray()
        count = 0
        x = 0
        for s, e in _word_groups(words):
            s_px = 2 * s
            while s_px - x > 255:  # a skip longer than a byte: an empty literal packet
                packets += bytes([255, 0])
                x += 255
                count += 1
            k = s
            while k < e:
                m = 1
                while k + m < e and m < 127 and b[2 * (k + m)] == b[2 * k] and b[2 * (k + m) + 1] == b[2 * k + 1]:
                    m += 1
                skip_px = 2 * k - x
                if m >= 2:
                    packets += bytes([skip_px, 256 - m]) + b[2 * k:2 * k + 2].tobytes()
                    k += m
                else:
                    lit = k + 1
                    while lit < e and lit - k < 127 and not (
                        lit + 1 < e and b[2 * lit] == b[2 * lit + 2] and b[2 * lit + 1] == b[2 * lit + 3]
                    ):
                        lit += 1
                    packets += bytes([skip_px, lit - k]) + b[2 * k:2 * lit].tobytes()
                    k = lit
                x = 2 * k
                count += 1
        body += struct.pack("<H", count) + packets
        lines += 1
    if lines == 0:
        return None
    return struct.pack("<H", lines) + bytes(body)


def encode_delta_fli(prev: np.ndarray, cur: np.ndarray) -> bytes:
    """DELTA_FLI (LC) body: first changed line, line count, byte packets per line."""
    h, w = cur.shape
    rows = [y for y in range(h) if (prev[y] != cur[y]).any()]
    if not rows:
        return struct.pack("<HH", 0, 0)
    y0, y1 = rows[0], rows[-1] + 1
    out = bytearray(struct.pack("<HH", y0, y1 - y0))
    for y in range(y0, y1):
        a, b = prev[y], cur[y]
        packets = bytearray()
        count = 0
        x = 0
        for s, e in _word_groups(a != b):
            while s - x > 255:
                packets += bytes([255, 0])
                x += 255
                count += 1
            k = s
            while k < e:
                m = min(e - k, 127)
                packets += bytes([k - x, m]) + b[k:k + m].tobytes()
                k += m
                x = k
                count += 1
        out += bytes([count]) + packets
    return bytes(out)
