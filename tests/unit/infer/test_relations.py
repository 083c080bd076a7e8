"""Counts and sizes used in the inferred spec, each on a planted layout: ``repeat-expr: <count field>``,
``size: <size field>``, ``pos: <offset field>``. The planted offsets are the truth; the spec's field at each
planted offset must be the one the expression names, and the next file's region must be read as planted.
"""

from __future__ import annotations

import random
import struct

import pytest
import yaml

import animre
from animre.spec.parse import parse_bytes


def _at(spec, offset: int) -> str:
    """The inferred field's name at a planted byte offset of the root."""
    ev = spec.evidence
    row = ev[(ev["offset"] == offset) & (ev["type"] == ev["type"].iloc[0])]
    assert len(row), (offset, spec.ksy)
    return str(row["field"].iloc[0])


def _data_start_and_size(n: int, seed: int) -> list[tuple[str, bytes]]:
    """``SNDX``, u4be where the data starts (a header of 24 to 44 bytes), u4be the data's size, zeros, data."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        h, d = 24 + 4 * rng.randrange(6), rng.randrange(50, 400)
        out.append((f"s{i}.snd", b"SNDX" + struct.pack(">II", h, d) + bytes(h - 12)
                    + bytes(rng.randrange(256) for _ in range(d))))
    return out


def test_an_offset_to_the_data_and_its_size_used_as_pos_and_size():
    spec = animre.infer_spec(_data_start_and_size(7, seed=1), name="snd_like")
    doc = yaml.safe_load(spec.ksy)
    ofs, size = _at(spec, 4), _at(spec, 8)
    inst = [r for r in (doc.get("instances") or {}).values() if r.get("pos") == ofs]
    assert inst and inst[0].get("size") == size, spec.ksy
    # the next file: a header of another length, its data read where and as long as planted
    nxt = b"SNDX" + struct.pack(">II", 52, 9) + bytes(40) + b"abcdefghi" + b"tail"
    tree = parse_bytes(nxt, animre.spec.compile_spec(spec.ksy), "next.snd")
    name = next(k for k, r in doc["instances"].items() if r.get("pos") == ofs)
    assert getattr(tree, name) == b"abcdefghi"


def test_a_count_of_records_to_the_end_used_as_repeat_expr():
    rng = random.Random(2)
    files = []
    for i in range(8):  # "RECS", u2le count, u2le 0, then count records of 12 random bytes to the end
        k = rng.randrange(2, 40)
        files.append((f"r{i}.rec", b"RECS" + struct.pack("<HH", k, 0)
                      + bytes(rng.randrange(256) for _ in range(12 * k))))
    spec = animre.infer_spec(files, name="recs")
    doc = yaml.safe_load(spec.ksy)
    count = _at(spec, 4)
    rep = [r for r in (doc.get("instances") or {}).values() if r.get("repeat-expr") == count]
    assert rep and rep[0].get("pos") == 8, spec.ksy


def test_a_chunk_length_after_its_tag_used_as_size():
    rng = random.Random(3)
    files = []
    for i in range(7):  # "CHNK", u4le length of everything after the 8-byte chunk head, then that many bytes
        d = rng.randrange(30, 300)
        files.append((f"c{i}.chk", b"CHNK" + struct.pack("<I", d) + bytes(rng.randrange(256) for _ in range(d))))
    spec = animre.infer_spec(files, name="chunk")
    doc = yaml.safe_load(spec.ksy)
    length = _at(spec, 4)
    body = [r for r in (doc.get("instances") or {}).values() if r.get("size") == length]
    assert body and body[0].get("pos") == 8, spec.ksy


def test_no_size_in_random_bytes_after_a_magic():
    rng = random.Random(4)
    files = [(f"x{i}.bin", b"RAND" + bytes(rng.randrange(256) for _ in range(rng.randrange(40, 400))))
             for i in range(10)]
    spec = animre.infer_spec(files, name="rand")
    assert not spec.evidence["role"].isin(["count", "size", "offset", "file_size"]).any(), spec.ksy


def _fixed_records(n: int = 6, seed: int = 7) -> list[tuple[str, bytes]]:
    """A fixed 56-byte record, no magic: 5 f4le at 0, 8 u2le at 0x14, 12 bytes of at most 5 at 0x24, 8 zeros."""
    rng = random.Random(seed)
    return [(f"r{i}.rec", struct.pack("<5f", *(rng.uniform(0.5, 40) for _ in range(5)))
             + struct.pack("<8H", *(rng.randrange(1, 600) for _ in range(8)))
             + bytes(rng.randrange(6) for _ in range(12)) + bytes(8)) for i in range(n)]


def test_a_fixed_record_of_arrays_with_6_files():
    spec = animre.infer_spec(_fixed_records(), name="rec")
    seq = yaml.safe_load(spec.ksy)["seq"]
    arrays = {(f["type"], f["repeat-expr"]) for f in seq if f.get("repeat") == "expr"}
    assert {("f4", 5), ("u2", 8)} <= arrays, spec.ksy
    assert not any("contents" in f or "valid" in f for f in seq)  # no magic, and the zeros are not enforced
    assert not spec.evidence["role"].isin(["count", "size", "offset", "file_size"]).any()


@pytest.mark.xfail(strict=True, reason="open (issue 28): a run of small bytes stays a raw blob, not a u1 array")
def test_small_bytes_in_a_row_are_one_u1_array():
    seq = yaml.safe_load(animre.infer_spec(_fixed_records(), name="rec").ksy)["seq"]
    assert any(f.get("type") == "u1" and f.get("repeat-expr") == 12 for f in seq)


def test_a_text_that_is_empty_in_some_files_is_one_str_field():
    rng = random.Random(8)
    words = [b"", b"drum loop", b"", b"bass", b"lead synth", b"", b"pad", b"vox chop"]
    files = []
    for i, w in enumerate(words):  # "NAME", u2le 1, a 16-byte name padded with zeros (empty in 3 files), random
        files.append((f"n{i}.smp", b"NAME\x01\x00" + w.ljust(16, b"\0")
                      + bytes(rng.randrange(256) for _ in range(40 + i))))
    seq = yaml.safe_load(animre.infer_spec(files, name="names").ksy)["seq"]
    text = [f for f in seq if f.get("type") == "str"]
    assert len(text) == 1 and text[0]["id"].endswith("0x06") and 10 <= text[0]["size"] <= 16, seq
