"""Every integer the kit writes into a spec compiles, and the compiled parser reads exactly that integer.

The truth is arithmetic: each value is packed into bytes with ``int.to_bytes``
(not with anything of animre), the edit is written by the kit's spec writer
(:func:`animre.spec.patch.patch_text`, which every suggestion goes through),
the patched spec is compiled with the pinned compiler (``animre.spec.compile_spec``)
and the bytes are parsed: a ``valid`` accepts exactly its value, an enum key
resolves to its label, ``contents`` matches exactly its bytes.
"""

from __future__ import annotations

import pytest
import yaml
from kaitaistruct import ValidationFailedError, ValidationNotEqualError

import animre
from animre.spec.numbers import (
    ENUM_KEY_MAX,
    ENUM_KEY_MIN,
    ksy_contents,
    ksy_enum_key,
    ksy_int,
    spec_int,
)
from animre.spec.patch import patch_text

EXTREMES = [0, 1, 2**31 - 1, 2**31, 2**32 - 1, 2**63 - 1, 2**63, 2**64 - 1,
            -1, -(2**31), -(2**31) - 1, -(2**63)]
TYPES = ["u1", "u2le", "u2be", "u4le", "u4be", "u8le", "u8be", "s1", "s2le", "s2be", "s4le", "s4be", "s8le", "s8be"]


def _range(t: str) -> tuple[int, int]:
    n = int(t[1]) * 8
    return (0, 2**n - 1) if t[0] == "u" else (-(2 ** (n - 1)), 2 ** (n - 1) - 1)


def _cases() -> list[tuple[str, str, int]]:
    """(field id, type, value): every extreme that fits each type, and the type's own bounds."""
    out = []
    for t in TYPES:
        lo, hi = _range(t)
        vals = sorted({v for v in EXTREMES + [lo, hi] if lo <= v <= hi})
        out += [(f"f_{t}_{i}", t, v) for i, v in enumerate(vals)]
    return out


CASES = _cases()


def _spec(fields) -> str:
    seq = "".join(f"  - id: {fid}\n    type: {t}\n" for fid, t, _ in fields)
    return f"meta:\n  id: numbers\n  endian: le\nseq:\n{seq}"


def _pack(fields, bump: str | None = None) -> bytes:
    """The values as the file holds them; ``bump`` gives that field another value of its type."""
    out = b""
    for fid, t, v in fields:
        lo, hi = _range(t)
        if fid == bump:
            v = v + 1 if v < hi else v - 1
        out += v.to_bytes(int(t[1]), "big" if t.endswith("be") else "little", signed=t[0] == "s")
    return out


def _edit(fid: str, **kw) -> dict:
    return {"spec": "numbers", "type": "numbers", "field": fid, **kw}


def _parse(mod, data: bytes):
    obj = mod.Numbers.from_bytes(data)
    obj._read()
    return obj


def test_cases_cover_every_width_sign_and_extreme():
    assert {t for _, t, _ in CASES} == set(TYPES)
    values = {v for _, _, v in CASES}
    assert set(EXTREMES) <= values


def test_valid_constants_compile_and_accept_exactly_their_value():
    text, log = patch_text(_spec(CASES), [_edit(fid, set={"valid": v}) for fid, _, v in CASES])
    assert all(x["applied"] for x in log)
    mod = animre.spec.compile_spec(text)
    obj = _parse(mod, _pack(CASES))
    assert [getattr(obj, fid) for fid, _, _ in CASES] == [v for _, _, v in CASES]
    for fid, _, _ in CASES[:: max(1, len(CASES) // 12)] + [c for c in CASES if c[2] in (2**63, -(2**63))]:
        with pytest.raises(ValidationNotEqualError):
            _parse(mod, _pack(CASES, bump=fid))


def test_any_of_and_ranges_compile_with_64_bit_members():
    big = [(fid, t, v) for fid, t, v in CASES if t.startswith(("u8", "s8"))]
    edits = [_edit(fid, set={"valid": {"any-of": [v, 0 if v else 1]}}) for fid, _, v in big]
    text, _ = patch_text(_spec(big), edits)
    obj = _parse(animre.spec.compile_spec(text), _pack(big))
    assert [getattr(obj, fid) for fid, _, _ in big] == [v for _, _, v in big]
    lo_hi = [_edit(fid, set={"valid": {"min": v, "max": v}}) for fid, _, v in big]
    text, _ = patch_text(_spec(big), lo_hi)
    mod = animre.spec.compile_spec(text)
    assert _parse(mod, _pack(big)) is not None
    with pytest.raises(ValidationFailedError):
        _parse(mod, _pack(big, bump=big[-1][0]))


def test_enum_keys_compile_and_resolve_or_are_refused_with_the_reason():
    edits = [_edit(fid, set={"enum": f"e_{fid}"}, enums={f"e_{fid}": {v: "the_value", (v ^ 1): "other"}})
             for fid, _, v in CASES]
    text, log = patch_text(_spec(CASES), edits)
    refused = {x["edit"]["field"] for x in log if not x["applied"]}
    # the compiler reads enum keys as 64-bit signed integers: a u8 key of 2^63 or more cannot be written
    assert refused == {fid for fid, _, v in CASES if not ENUM_KEY_MIN <= v <= ENUM_KEY_MAX
                       or not ENUM_KEY_MIN <= v ^ 1 <= ENUM_KEY_MAX}
    assert refused and all("64-bit signed" in x["reason"] and "numbers.ksy" in x["reason"]
                           for x in log if not x["applied"])
    obj = _parse(animre.spec.compile_spec(text), _pack(CASES))
    for fid, _, v in CASES:
        got = getattr(obj, fid)
        if fid in refused:
            assert got == v  # no enum: the plain integer
        else:
            assert got.name == "the_value" and got.value == v, fid


def test_contents_compile_and_match_exactly_their_bytes():
    text, log = patch_text(_spec(CASES), [_edit(fid, set={"contents": v}) for fid, _, v in CASES])
    assert all(x["applied"] for x in log)
    fields = yaml.safe_load(text)["seq"]
    assert all("type" not in f and len(f["contents"]) == int(t[1]) for f, (_, t, _) in zip(fields, CASES))
    mod = animre.spec.compile_spec(text)
    data = _pack(CASES)
    obj = _parse(mod, data)
    assert b"".join(getattr(obj, fid) for fid, _, _ in CASES) == data
    with pytest.raises(ValidationNotEqualError):
        _parse(mod, _pack(CASES, bump=CASES[len(CASES) // 2][0]))


def test_repeat_expr_and_size_past_32_bits_are_written_as_exact_expressions():
    text, _ = patch_text("meta: {id: numbers}\nseq:\n  - id: a\n    type: u1\n    repeat: eos\n",
                         [_edit("a", set={"repeat": "expr", "repeat-expr": 2**31})])
    assert yaml.safe_load(text)["seq"][0]["repeat-expr"] == "0x80000000"
    mod = animre.spec.compile_spec(text)  # compiles; reading 2^31 bytes from 3 is a clear EOF error
    with pytest.raises(EOFError):
        _parse(mod, b"\x01\x02\x03")


def test_a_value_that_does_not_fit_its_type_is_refused_not_written():
    text, log = patch_text(_spec([("a", "u2le", 0)]), [_edit("a", set={"contents": 70000})])
    assert not log[0]["applied"] and "does not fit in u2le" in log[0]["reason"]
    assert "contents" not in text


@pytest.mark.parametrize("v", sorted(set(EXTREMES)))
def test_writers_and_reader_agree(v):
    assert spec_int(ksy_int(v)) == v
    assert spec_int(ksy_int(v, hex_digits=8)) == v
    if ENUM_KEY_MIN <= v <= ENUM_KEY_MAX:
        assert spec_int(ksy_enum_key(v)) == v
    else:
        with pytest.raises(ValueError, match="64-bit signed"):
            ksy_enum_key(v)
    for t in TYPES:
        lo, hi = _range(t)
        if lo <= v <= hi:
            raw = bytes(ksy_contents(v, t))
            assert int.from_bytes(raw, "big" if t.endswith("be") else "little", signed=t[0] == "s") == v
