"""Failing value instances: the parse reports what the ordinary compile raises when each instance is asked for,
also where it leaves out the instances that cannot raise (``spec.failures.value_failures(complete=True)``)."""

from __future__ import annotations

import io
import random

import pytest
from kaitaistruct import KaitaiStream, KaitaiStruct

from animre.spec import failures
from animre.spec.compiler import compile_spec, load_files, run_compiler
from animre.spec.parse import main_class, parse_bytes

SPEC = """
meta: {id: vf, endian: le}
seq:
  - {id: kind, type: u1}
  - {id: x, type: u2}
  - {id: opt, type: u1, if: kind == 1}
  - {id: items, type: item, repeat: expr, repeat-expr: 3}
  - {id: leaf, type: leaf}
instances:
  bits: {value: (x >> 4) & 0xf}
  signed: {value: "x >= 0x8000 ? x - 0x10000 : x"}
  flag: {value: kind == 2 and x > 3}
  from_bits: {value: bits * 3 + 1}
  per_kind: {value: x / kind}
  with_opt: {value: opt + 1}
  shifted: {value: x >> (kind - 1)}
types:
  item:
    seq: [{id: a, type: u1}, {id: b, type: u1}]
    instances:
      ratio: {value: a / b}
      total: {value: a + b * 2}
  leaf:
    seq: [{id: c, type: u1}]
    instances:
      twice: {value: c * 2}
"""


@pytest.fixture(scope="module")
def parsers():
    debug = compile_spec(SPEC)
    res = run_compiler({"vf": SPEC}, ["vf"], [], debug=False)["vf"]
    return debug, main_class(load_files(res["files"], "vf", "ordinary"))


def _asked(obj, out: set) -> None:
    """Ask every instance of every object of an ordinary parse, as a Kaitai user would: what raises."""
    for name, v in vars(type(obj)).items():
        if isinstance(v, property) and not name.startswith("_"):
            try:
                getattr(obj, name)
            except Exception as e:  # noqa: BLE001 - the failure is the truth
                out.add((type(obj).__name__, name, type(e).__name__))
    for name, v in list(vars(obj).items()):
        if name.startswith("_"):
            continue
        for el in v if isinstance(v, list) else [v]:
            if isinstance(el, KaitaiStruct):
                _asked(el, out)


def test_instances_that_cannot_raise_are_told_from_the_generated_code(parsers):
    mod = parsers[0]
    root = main_class(mod)
    assert failures._cannot_raise(root) == {"bits", "signed", "flag", "from_bits"}
    assert failures._cannot_raise(root.Item) == {"total"}
    assert failures._cannot_raise(root.Leaf) == {"twice"}
    assert failures._reaches_risk(root) and failures._reaches_risk(root.Item)
    assert not failures._reaches_risk(root.Leaf)


@pytest.mark.parametrize("seed", range(40))
def test_the_failures_are_the_ordinary_parsers(parsers, seed):
    mod, ordinary = parsers
    rng = random.Random(seed)
    kind = rng.choice([0, 1, 2])
    data = bytes([kind]) + bytes(rng.randrange(256) for _ in range(2 + (kind == 1)))
    data += bytes(rng.choice([0, 1, 7]) for _ in range(6)) + bytes([rng.randrange(256)])
    truth: set = set()
    _asked(ordinary(KaitaiStream(io.BytesIO(data))), truth)
    got = []
    parse_bytes(data, mod, "f.vf", instance_errors=got)
    kinds = {(e.path.split(".")[-1], e.reason.split(":")[1].strip()) for e in got}
    assert kinds == {(name, err) for _, name, err in truth}
    exhaustive = failures.value_failures(parse_bytes(data, mod, "f.vf", fetch_instances=False), "f.vf", False)
    assert [(e.path, e.offset, e.reason) for e in got] == [(e.path, e.offset, e.reason) for e in exhaustive]
