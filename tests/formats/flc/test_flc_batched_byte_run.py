"""The batched BYTE_RUN and word-literal paths of ``plan_deltas`` against the sequential codecs, byte for byte."""

from __future__ import annotations

import numpy as np
import pytest

from animre.base.errors import ParseError
from animre.formats.flc.decode import _codecs, _delta, _layout

H, W = 3, 6
# per line: the obsolete count byte, then packets (c < 128: a run of c of the next byte, c >= 128: 256 - c literals)
LINES = [
    bytes([9, 0, 0x55, 2, 0x11, 0xFC, 1, 2, 3, 4]),  # a run of 0 (draws nothing), a run of 2, 4 literals
    bytes([0, 6, 0x22]),  # one run fills the line
    bytes([0, 0xFF, 7, 0xFB, 8, 9, 10, 11, 12]),  # 1 literal, 5 literals
]


def _sequential(data: bytes, t: int, start: int, end: int) -> bytes:
    out = memoryview(bytearray(H * W))
    _codecs.PIXEL_CODECS[t](out, 0, H, W, data, memoryview(data), ("x", "p", start, end))
    return bytes(out)


def _batched(data: bytes, t: int, start: int, end: int) -> bytes | None:
    plans = _delta.plan_deltas(data, np.frombuffer(data, np.uint8), [("k", t, start, end)], H, W)
    if "k" not in plans:
        return None
    lp, dst, vals = plans["k"]
    frame = np.zeros(H * W, np.uint8)
    if dst is None:
        frame[:] = vals
    else:
        frame[dst] = vals
    return frame.tobytes()


@pytest.mark.parametrize("lead", [0, 1, 5])
def test_byte_run_batched_equals_sequential(lead):
    body = b"".join(LINES)
    data = bytes(range(lead)) + body + b"\xAA\xBB"  # bytes before and after the chunk
    start, end = lead, lead + len(body)
    want = _sequential(data, _layout.BYTE_RUN, start, end)
    assert _batched(data, _layout.BYTE_RUN, start, end) == want
    assert want[:W] == bytes([0x11, 0x11, 1, 2, 3, 4])


def test_byte_run_that_breaks_a_rule_is_left_to_the_codec():
    over = LINES[0] + bytes([0, 7, 0x22]) + LINES[2]  # a run of 7 passes the width 6
    assert _batched(over, _layout.BYTE_RUN, 0, len(over)) is None
    with pytest.raises(ParseError, match="passes the width"):
        _sequential(over, _layout.BYTE_RUN, 0, len(over))
    body = b"".join(LINES)
    short = body[:-2]  # the last literal packet runs past the chunk's end
    assert _batched(body, _layout.BYTE_RUN, 0, len(short)) is None


def test_flc_literal_words_and_runs_at_odd_offsets():
    # 2 lines; line 0: skip 1, 2 literal words; line 1: skip 0, a run of 1 word, skip 0, a run of 2 words
    body = bytes([2, 0, 1, 0, 1, 2, 0x31, 0x32, 0x33, 0x34,
                  2, 0, 0, 0xFF, 0x41, 0x42, 0, 0xFE, 0x51, 0x52])
    for lead in (0, 1):  # the words at even and at odd file offsets
        data = bytes(lead) + body
        start, end = lead, lead + len(body)
        want = _sequential(data, _layout.DELTA_FLC, start, end)
        assert _batched(data, _layout.DELTA_FLC, start, end) == want
        assert want[:2 * W] == bytes([0, 0x31, 0x32, 0x33, 0x34, 0, 0x41, 0x42, 0x51, 0x52, 0x51, 0x52])
