"""The sequential FLI/FLC codecs: one sub-chunk (pixels or palette) drawn at a time.

The reference decoding: Pillow-compatible, every check with its exact error.
The batched path (:mod:`._delta`: deltas and BYTE_RUN) leaves to these
codecs every chunk that breaks a rule.
"""

from __future__ import annotations

import numpy as np

from ....base.errors import ParseError
from ._layout import BLACK, BYTE_RUN, COPY, DELTA_FLC, DELTA_FLI

# Each codec draws one sub-chunk body data[start:end] into the frame at
# out[base:base + h * w] (``out`` a byte memoryview of the whole frames array).
# Packet headers are read in a tight Python loop; every span of pixels is one
# memoryview slice assignment (a memcpy), never a per-pixel Python step. The
# checks, their order and their messages are those of the reference decoder
# (offsets relative to the body, as ``need``/``fail`` reported them).


def _bad(ctx: tuple, pos: int, reason: str):
    file, path, start, _ = ctx
    raise ParseError(file, path, start + pos, reason)


def _short(ctx: tuple, pos: int, k: int, what: str):
    _bad(ctx, pos, f"{what}: needs {k} byte(s) at {pos}, the chunk body has {ctx[3] - ctx[2]}")


def _run(out, data: bytes, ctx: tuple, o: int, x: int, p: int, n: int, unit: int, w: int, what: str) -> int:
    """Repeat the ``unit`` bytes at ``p`` ``n`` times at line offset ``o + x``, checked against the line's
    width and the chunk's end; returns the pixels drawn."""
    i = n * unit
    if x + i > w:
        _bad(ctx, p - ctx[2], f"{what}: a run of {n} {_UNITS[unit]} at x={x} passes the width {w}")
    if p + unit > ctx[3]:
        _short(ctx, p - ctx[2], unit, what)
    out[o + x:o + x + i] = data[p:p + unit] * n
    return i


def _copy_run(out, src, ctx: tuple, o: int, x: int, p: int, n: int, unit: int, w: int, what: str) -> int:
    """Copy the ``n`` literal units at ``p`` to line offset ``o + x``, checked against the line's width and
    the chunk's end; returns the pixels drawn."""
    i = n * unit
    if x + i > w:
        _bad(ctx, p - ctx[2], f"{what}: {n} literal {_UNITS[unit]} at x={x} pass the width {w}")
    if p + i > ctx[3]:
        _short(ctx, p - ctx[2], i, what)
    out[o + x:o + x + i] = src[p:p + i]
    return i


_UNITS = {1: "bytes", 2: "words"}


def _byte_run(out, base: int, h: int, w: int, data: bytes, src, ctx: tuple) -> None:
    start, end = ctx[2], ctx[3]
    p = start
    for y in range(h):
        p += 1  # the packet count byte is obsolete: lines are decoded until full
        o = base + y * w
        x = 0
        while x < w:
            if p + 2 > end:
                _short(ctx, p - start, 2, f"BYTE_RUN line {y}")
            c = data[p]
            # the pixels are drawn here (the hot loop of most FLC files); a check that fails goes through
            # _copy_run / _run, which raise with the one message of each check
            if c & 0x80:  # a negative count copies literal bytes
                i, q = 256 - c, p + 1
                if x + i > w or q + i > end:
                    _copy_run(out, src, ctx, o, x, q, i, 1, w, f"BYTE_RUN line {y}")
                out[o + x:o + x + i] = src[q:q + i]
                p = q + i
            else:
                i = c
                if x + i > w:
                    _run(out, data, ctx, o, x, p + 1, c, 1, w, f"BYTE_RUN line {y}")
                out[o + x:o + x + i] = data[p + 1:p + 2] * i
                p += 2
            x += i


def _packets(out, data: bytes, src, ctx: tuple, o: int, p: int, packets: int, w: int, unit: int, codec: str,
             y: int) -> int:
    """Draw one line's ``packets`` delta packets starting at ``p`` into line offset ``o``; returns where the
    next line starts.

    A packet is a column skip byte and a count byte; a negative count repeats one ``unit`` (1 byte for
    DELTA_FLI, one 2-byte word for DELTA_FLC) that many times, a positive one copies that many units.
    """
    start, end = ctx[2], ctx[3]
    x = 0
    for _ in range(packets):
        if p + 2 > end:
            _short(ctx, p - start, 2, f"{codec} line {y}")
        x += data[p]  # column skip in pixels
        c = data[p + 1]
        q = p + 2
        # the pixels are drawn here; a check that fails goes through _run / _copy_run, which raise with the
        # one message of each check (no call and no message built per packet)
        if c & 0x80:
            n = 256 - c
            i = n * unit
            if x + i > w or q + unit > end:
                _run(out, data, ctx, o, x, q, n, unit, w, f"{codec} line {y}")
            out[o + x:o + x + i] = data[q:q + unit] * n
            p = q + unit
        else:
            i = c * unit
            if x + i > w or q + i > end:
                _copy_run(out, src, ctx, o, x, q, c, unit, w, f"{codec} line {y}")
            out[o + x:o + x + i] = src[q:q + i]
            p = q + i
        x += i
    return p


def _delta_fli(out, base: int, h: int, w: int, data: bytes, src, ctx: tuple) -> None:
    start, end = ctx[2], ctx[3]
    if start + 4 > end:
        _short(ctx, 0, 4, "DELTA_FLI header")
    y = data[start] | (data[start + 1] << 8)
    ymax = y + (data[start + 2] | (data[start + 3] << 8))
    p = start + 4
    while y < ymax and y < h:
        if p + 1 > end:
            _short(ctx, p - start, 1, f"DELTA_FLI line {y}")
        p = _packets(out, data, src, ctx, base + y * w, p + 1, data[p], w, 1, "DELTA_FLI", y)
        y += 1
    if y < ymax:
        _bad(ctx, 0, f"DELTA_FLI: lines up to {ymax} pass the height {h}")


def _delta_flc(out, base: int, h: int, w: int, data: bytes, src, ctx: tuple) -> None:
    start, end = ctx[2], ctx[3]
    if start + 2 > end:
        _short(ctx, 0, 2, "DELTA_FLC header")
    lines = data[start] | (data[start + 1] << 8)
    p = start + 2
    y = line = 0
    while line < lines and y < h:
        if p + 2 > end:
            _short(ctx, p - start, 2, f"DELTA_FLC line {y}")
        word = data[p] | (data[p + 1] << 8)
        p += 2
        while word & 0x8000:
            if word & 0x4000:
                y += 0x10000 - word  # skip lines
                if y >= h:
                    _bad(ctx, p - 2 - start, f"DELTA_FLC: a line skip reaches line {y} of {h}")
            else:
                out[base + y * w + w - 1] = word & 0xFF  # last pixel of an odd-width line
            if p + 2 > end:
                _short(ctx, p - start, 2, f"DELTA_FLC line {y}")
            word = data[p] | (data[p + 1] << 8)
            p += 2
        p = _packets(out, data, src, ctx, base + y * w, p, word, w, 2, "DELTA_FLC", y)
        line += 1
        y += 1
    if line < lines:
        _bad(ctx, 0, f"DELTA_FLC: {lines} lines declared, the frame has room for {line}")


def _copy(out, base: int, h: int, w: int, data: bytes, src, ctx: tuple) -> None:
    start, end = ctx[2], ctx[3]
    if start + h * w > end:
        _short(ctx, 0, h * w, "COPY")
    out[base:base + h * w] = src[start:start + h * w]


def _black(out, base: int, h: int, w: int, data: bytes, src, ctx: tuple) -> None:
    out[base:base + h * w] = bytes(h * w)


PIXEL_CODECS = {BYTE_RUN: _byte_run, DELTA_FLI: _delta_fli, DELTA_FLC: _delta_flc, COPY: _copy, BLACK: _black}
#: Codecs that draw every pixel of the frame (no need to start from the previous frame).
FULL_FRAME = {BYTE_RUN, COPY, BLACK}


def apply_palette(pal: np.ndarray, data: bytes, packets: list[tuple[int, int, int]], shift: int, file: str,
                   path: str, base: int) -> None:
    """Set the colours of a palette chunk's ``packets`` (from :func:`._layout.layout_of_tree`) in ``pal``, in place.

    ``shift`` 2 scales COLOR_64's 6-bit components; an error names ``file``,
    ``path`` and ``base`` (the chunk body's offset).

    Examples
    --------
    >>> pal = np.zeros((256, 3), np.uint8)
    >>> apply_palette(pal, bytes([1, 2, 3]), [(5, 1, 0)], 2, "x.flc", "palette", 0)
    >>> pal[5].tolist()
    [4, 8, 12]
    """
    idx = 0
    for k, (skip, n, ofs) in enumerate(packets):
        idx += skip
        if idx + n > 256:
            raise ParseError(file, f"{path}.packets[{k}]", base,
                             f"too much palette data: {n} colours from index {idx}")
        rgb = np.frombuffer(data, np.uint8, 3 * n, ofs).reshape(n, 3)
        if shift:
            if (rgb > 255 >> shift).any():
                raise ParseError(file, f"{path}.packets[{k}]", base,
                                 "palette data out of range: a COLOR_64 component above 63")
            rgb = rgb << shift
        pal[idx:idx + n] = rgb
        idx += n
