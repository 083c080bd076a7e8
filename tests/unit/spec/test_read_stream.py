"""The parse's reading stream (``spec.parse.ReadStream``) reads exactly what the Kaitai runtime's stream reads."""

from __future__ import annotations

import random
from io import BytesIO

import pytest
from kaitaistruct import KaitaiStream

from animre.spec.streams import ReadStream

NUMBERS = ["u1", "s1", "u2le", "u2be", "s2le", "s2be", "u4le", "u4be", "s4le", "s4be", "u8le", "u8be", "s8le",
           "s8be", "f4le", "f4be", "f8le", "f8be"]


def _outcome(stream, op):
    try:
        got = op(stream)
    except Exception as e:  # noqa: BLE001 - the error is part of the outcome
        return ("error", type(e).__name__, str(e), stream.pos())
    return ("value", repr(got), stream.pos(), stream.bits_left)


def _ops(rng: random.Random) -> list:
    ops = []
    for _ in range(40):
        k = rng.random()
        if k < 0.6:
            name = rng.choice(NUMBERS)
            ops.append(lambda s, n=name: getattr(s, "read_" + n)())
        elif k < 0.75:
            n = rng.choice([0, 1, 3, 7, -1])
            ops.append(lambda s, n=n: s.read_bytes(n))
        elif k < 0.85:
            n = rng.randint(1, 12)
            ops.append(lambda s, n=n: s.read_bits_int_be(n))
        elif k < 0.9:
            ops.append(lambda s: s.read_bytes_term(0, False, True, False))
        elif k < 0.95:
            ops.append(lambda s: s.size())
        else:
            ops.append(lambda s: s.is_eof())
    return ops


@pytest.mark.parametrize("seed", range(60))
def test_every_read_equals_the_runtime_stream(seed):
    rng = random.Random(seed)
    data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 64)))
    ops = _ops(rng)
    ours, theirs = ReadStream(BytesIO(data)), KaitaiStream(BytesIO(data))
    for op in ops:
        assert _outcome(ours, op) == _outcome(theirs, op)


def test_running_out_of_bytes_is_the_runtime_error():
    for name in NUMBERS:
        want = _outcome(KaitaiStream(BytesIO(b"\x01")), lambda s, n=name: getattr(s, "read_" + n)())
        got = _outcome(ReadStream(BytesIO(b"\x01")), lambda s, n=name: getattr(s, "read_" + n)())
        assert got == want
    assert _outcome(ReadStream(BytesIO(b"ab")), lambda s: s.read_bytes(5))[:3] == (
        "error", "EndOfStreamError", "requested 5 bytes, but only 2 bytes available")


def test_a_huge_size_is_checked_before_reading_as_the_runtime_does():
    op = lambda s: s.read_bytes(9 * 1024 * 1024)  # noqa: E731
    assert _outcome(ReadStream(BytesIO(b"abc")), op) == _outcome(KaitaiStream(BytesIO(b"abc")), op)


def test_a_new_stream_is_the_runtimes_new_stream():
    for data in (b"", b"abc", bytes(range(256))):
        ours, theirs = ReadStream(BytesIO(data)), KaitaiStream(BytesIO(data))
        got = {k: v for k, v in vars(ours).items() if k not in ("_io", "pos")}
        assert got == {k: v for k, v in vars(theirs).items() if k != "_io"}
        assert ours.size() == theirs.size() == len(data) and ours.pos() == theirs.pos() == 0


def test_the_parsers_substreams_read_as_the_root_stream():
    from animre.spec.compiler import load_parser

    mod = load_parser("af")
    assert mod.omf_common.KaitaiStream is ReadStream
