"""Bounded parsing: specs whose repeats would not end on hostile files stop with the element and its offset.

Each spec here is valid Kaitai, and each file makes its repeat endless (the
ordinary compile of these specs hangs or grows without bound on them). The
files are written byte by byte; the offsets checked are where the planted
repeat starts.
"""

from __future__ import annotations

import struct

import pytest

import animre
from animre.spec import guard

ZERO_EOS = """meta: {id: zeos, file-extension: zz}
seq:
  - id: magic
    contents: ZZ
  - id: items
    type: empty
    repeat: eos
types:
  empty:
    seq:
      - id: nothing
        size: 0
"""

# a count read from the file, then that many elements of no bytes
COUNTED_NOTHING = "- id: n\n  type: u4\n- id: items\n  size: 0\n  repeat: expr\n  repeat-expr: n\n"


def _indent(text: str, n: int) -> str:
    return "".join(" " * n + line + "\n" for line in text.splitlines())


ZERO_COUNT = "meta: {id: zcnt, file-extension: zc, endian: le}\nseq:\n  - id: magic\n    contents: ZC\n" + \
    _indent(COUNTED_NOTHING, 2)

ZERO_UNTIL = """meta: {id: zunt, file-extension: zu}
seq:
  - id: magic
    contents: ZU
  - id: items
    type: peek
    repeat: until
    repeat-until: _.first == 0xEE
types:
  peek:
    instances:
      first:
        pos: 0
        type: u1
"""

IN_A_SUBSTREAM = """meta: {id: zsub, file-extension: zs, endian: le}
seq:
  - id: magic
    contents: ZS
  - id: len_body
    type: u1
  - id: body
    size: len_body
    type: inner
types:
  inner:
    seq:
""" + _indent(COUNTED_NOTHING, 6)


@pytest.mark.timeout(300)  # without the guard these parses never end: a failure, not a hung suite
@pytest.mark.parametrize("spec, name, data, path, offset", [
    (ZERO_EOS, "a.zz", b"ZZabc", "items[4095]", 2),
    (ZERO_COUNT, "b.zc", b"ZC" + struct.pack("<I", 0xFFFFFFFF), "items[4095]", 6),
    (ZERO_UNTIL, "c.zu", b"ZU\x00", "items[4095]", 2),
    (IN_A_SUBSTREAM, "d.zs", b"ZS\x04" + struct.pack("<I", 0xFFFFFFFF), "body.items[4095]", 7),
])
def test_an_endless_repeat_is_an_error_row(tmp_path, spec, name, data, path, offset):
    (tmp_path / "spec.ksy").write_text(spec)
    d = tmp_path / "files"
    d.mkdir()
    (d / name).write_bytes(data)
    (d / "ok.zz").write_bytes(b"ZZ")  # a file of the first spec with nothing to repeat
    c = animre.open_corpus(d, specs=[tmp_path / "spec.ksy"], cache=False)
    e = c.errors.set_index("file").loc[name]
    assert e["path"] == path and e["offset"] == offset, e
    assert "NoProgressError" in e["message"] and "read no bytes" in e["message"]
    assert name in e["message"]


def test_long_arrays_that_read_bytes_are_not_stopped(tmp_path):
    spec = tmp_path / "long.ksy"
    spec.write_text("meta: {id: long, file-extension: lg}\nseq:\n  - id: flags\n    type: b1\n    repeat: expr\n"
                    "    repeat-expr: 8 * 6000\n  - id: rest\n    type: u1\n    repeat: eos\n")
    d = tmp_path / "files"
    d.mkdir()
    flags = bytes((k * 37) & 0xFF for k in range(6000))
    rest = bytes((k * 11) & 0xFF for k in range(20000))
    (d / "a.lg").write_bytes(flags + rest)
    c = animre.open_corpus(d, specs=[spec], cache=False)
    assert c.errors.empty
    bits = [(b >> (7 - k)) & 1 for b in flags for k in range(8)]
    assert c.tables["long_flags"]["flags"].astype(int).tolist() == bits
    assert c.tables["long_rest"]["rest"].tolist() == list(rest)


def test_the_guard_is_in_every_parser_animre_loads():
    from animre.spec.compiler import load_parser

    mod = load_parser("frm")
    assert mod._animre_check is guard.check
    code = guard.guard_source("        for i in range(n):\n"
                              "            self._debug['a']['arr'].append({'start': self._io.pos()})\n")
    assert "_animre_check(self._debug['a']['arr'], self._io)" in code and "def _animre_check" in code


ZLIB_BODY = """meta: {id: zbody, file-extension: zb, endian: le}
seq:
  - id: magic
    contents: ZB
  - id: len_body
    type: u4
  - id: body
    size: len_body
    process: zlib
"""


def test_zlib_that_inflates_out_of_proportion_is_an_error_row(tmp_path, monkeypatch):
    import zlib

    monkeypatch.setattr(guard, "INFLATE_BASE", 1 << 20)
    (tmp_path / "zbody.ksy").write_text(ZLIB_BODY)
    d = tmp_path / "files"
    d.mkdir()
    small, bomb = zlib.compress(b"planted " * 100), zlib.compress(bytes(8 << 20), 9)
    (d / "ok.zb").write_bytes(b"ZB" + struct.pack("<I", len(small)) + small)
    (d / "bomb.zb").write_bytes(b"ZB" + struct.pack("<I", len(bomb)) + bomb)
    c = animre.open_corpus(d, specs=[tmp_path / "zbody.ksy"], cache=False, workers=1)
    assert c.tables["zbody"].set_index("file").loc["ok.zb", "body"] == b"planted " * 100
    e = c.errors.set_index("file").loc["bomb.zb"]
    assert e["path"] == "body" and e["offset"] == 6 and "inflates past" in e["message"], e
