"""Runs of numbers read in one step (``spec.streams.run_source``): the same values, debug entries and failures as
the field-by-field code the compiler writes."""

from __future__ import annotations

import random

import pytest
from kaitaistruct import KaitaiStruct

from animre.base.errors import ParseError
from animre.spec.compiler import load_files, run_compiler
from animre.spec.guard import guard_source
from animre.spec.parse import parse_bytes
from animre.spec.streams import place_source, run_source

SPEC = """
meta: {id: runs, endian: le}
seq:
  - {id: a, type: u2}
  - {id: b, type: s4}
  - {id: c, type: u1}
  - {id: d, type: f4}
  - {id: e, type: u2be}
  - {id: f, type: s2be}
  - {id: g, type: u1}
  - {id: n, type: u1, valid: {max: 3}}
  - {id: h, type: u1}
  - {id: i, type: f8be}
  - {id: items, type: item, repeat: expr, repeat-expr: n}
  - {id: boxed, type: item, size: 6}
  - {id: tail, type: u4}
types:
  item:
    seq:
      - {id: x, type: s1}
      - {id: y, type: u8}
      - {id: bits, type: b3}
      - {id: z, type: u2}
      - {id: w, type: u2}
"""


@pytest.fixture(scope="module")
def modules():
    res = run_compiler({"runs": SPEC}, ["runs"], [])["runs"]
    code = res["files"]["runs.py"]
    assert "_animre_run(self._io" in code  # the compiler's output is read in runs
    plain = code.split("\n\ndef _animre_run(")[0]
    plain = plain.replace("_animre_r = _animre_run(", "_animre_r = None and (")  # every run field by field
    return load_files({"runs.py": code}, "runs", "runs"), load_files({"runs.py": plain}, "runs", "plain")


def _tree(obj):
    """Every value and debug entry of a parse tree."""
    out = {"debug": {k: dict(v) for k, v in obj._debug.items()}}
    for k, v in vars(obj).items():
        if k.startswith("_"):
            continue
        if isinstance(v, KaitaiStruct):
            out[k] = _tree(v)
        elif isinstance(v, list):
            out[k] = [_tree(x) if isinstance(x, KaitaiStruct) else x for x in v]
        else:
            out[k] = v
    return out


def _outcome(mod, data: bytes):
    try:
        return "ok", _tree(parse_bytes(data, mod, "f.runs"))
    except ParseError as e:
        return "error", e.path, e.offset, e.reason, _tree(e.partial)


def test_the_generated_code_has_runs_of_one_byte_order():
    res = run_compiler({"runs": SPEC}, ["runs"], [], debug=True)["runs"]["files"]["runs.py"]
    assert "Struct('<HiBf').unpack" in res and "Struct('>HhBB').unpack" in res and "Struct('>Bd').unpack" in res
    assert "Struct('<bQ').unpack" in res and "Struct('<HH').unpack" in res


def test_code_without_runs_is_left_alone():
    code = "class A:\n    def _read(self):\n        self._debug['a']['start'] = self._io.pos()\n" \
           "        self.a = self._io.read_u1()\n        self._debug['a']['end'] = self._io.pos()\n"
    assert run_source(code) == code
    assert place_source(guard_source(code)) == code


@pytest.mark.parametrize("seed", range(80))
def test_values_entries_and_failures_are_the_field_by_field_codes(modules, seed):
    runs, plain = modules
    rng = random.Random(seed)
    full = bytes(rng.randrange(256) for _ in range(80))
    full = full[:21] + bytes([rng.choice([0, 1, 2, 3, 4])]) + full[22:]
    cut = rng.choice([len(full), rng.randint(0, 70)])
    data = full[:cut]
    assert _outcome(runs, data) == _outcome(plain, data)
