"""Inference of a first spec for an unknown format: planted truth, the guard, hostile input, the CLI.

The truth is the synthetic generator's planted layout (``animre.samples.synthetic``) and the
shipped specs' fixed headers; the floors are what the benchmark (``benchmarks/infer.py``) measured.
"""

from __future__ import annotations

import os
import struct

import numpy as np
import pytest
import yaml

import animre
from animre.base.errors import ParseError, UsageError
from animre.cli import main
from animre.infer._score import header_truth, measure, roles_found
from animre.samples import synthetic as syn
from animre.spec.parse import parse_bytes

STRUCT = ["file_size", "offset", "count", "size"]


def _truth(header):
    return [{"offset": o, "width": w, "id": n, "role": r} for o, w, n, r in header]


@pytest.fixture(scope="module")
def syna():
    files = [(n, d) for n, d, _ in syn.syna_files(30, seed=4)]
    return files, measure(files, _truth(syn.SYNA_HEADER), name="syna")


def test_syna_spec_compiles_and_parses_every_file(syna):
    files, m = syna
    assert m["parsed"] == m["files"] == 30


def test_syna_boundaries_and_roles_against_the_planted_layout(syna):
    _, m = syna
    assert m["f1"] >= 0.9 and m["typed"] >= 0.9
    assert m["roles"] == {"magic": (1, 1), "count": (1, 1), "file_size": (1, 1), "offset": (2, 2)}


def test_syna_written_in_kaitai_itself(syna):
    files, m = syna
    doc = yaml.safe_load(m["spec"].ksy)
    seq = {f["id"]: f for f in doc["seq"]}
    assert seq["magic"]["contents"] == "SYNA"  # text magic as the gallery writes it
    assert seq["len_file_0x08"]["valid"] == {"expr": "_ == _root._io.size"}
    # constants that are no magic are documented, never enforced: the next file may hold another version
    assert "valid" not in seq["unknown_0x04"] and seq["unknown_0x04"]["doc"].startswith("= 0x2 in ")
    assert "valid" not in seq["unknown_0x28"] and seq["unknown_0x28"]["doc"].startswith("= 0x0 in ")
    assert seq["str_0x18"]["type"] == "str" and seq["str_0x18"]["size"] == 16
    rec = doc["instances"]["records_0x06"]
    assert rec == {**rec, "pos": "ofs_0x0c", "repeat": "expr", "repeat-expr": "num_0x06"}
    first = doc["types"][rec["type"]]["seq"][0]
    assert (first["type"], first["repeat"], first["repeat-expr"]) == ("f4", "expr", 3)  # x, y, z: one array
    assert doc["instances"]["at_ofs_0x10"]["type"] == "strz"  # the names
    assert "in 30/30 files" in seq["len_file_0x08"]["doc"]


def test_syna_values_read_by_the_inferred_spec_are_the_planted_ones():
    planted = syn.syna_files(12, seed=9)
    spec = animre.infer_spec([(n, d) for n, d, _ in planted], name="syna")
    mod = animre.spec.compile_spec(spec.ksy)
    for n, d, v in planted:
        r = parse_bytes(d, mod, n)
        assert (r.num_0x06, r.ofs_0x0c, r.ofs_0x10, r.len_file_0x08) == \
            (v["num_frames"], v["ofs_frames"], v["ofs_names"], v["len_file"])
        assert r.str_0x18 == v["title"] and len(r.records_0x06) == v["num_frames"]


def test_big_endian_header_without_structural_fields():
    """SYNB: only which bytes vary shows the byte order; width and height read as the planted values."""
    planted = syn.synb_files(30, seed=6)
    files = [(n, d) for n, d, _ in planted]
    m = measure(files, _truth(syn.SYNB_HEADER), name="synb")
    assert m["parsed"] == 30 and m["f1"] >= 0.85 and m["roles"]["magic"] == (1, 1)
    assert yaml.safe_load(m["spec"].ksy)["meta"]["endian"] == "be"
    assert not set(m["spec"].evidence["role"]) & set(STRUCT + ["float"])
    mod = animre.spec.compile_spec(m["spec"].ksy)
    for n, d, v in planted:
        r = parse_bytes(d, mod, n)
        assert (r.unknown_0x10, r.unknown_0x14) == (v["width"], v["height"])


def test_table_directory_no_header_field_bounds():
    """SYND: num_tables x 16-byte records right after the 12-byte header, each pointing at its table."""
    planted = syn.synd_files(30, seed=8)
    files = [(n, d) for n, d, _ in planted]
    m = measure(files, _truth(syn.SYND_HEADER), name="synd")
    assert m["parsed"] == 30 and m["f1"] == 1.0 and m["roles"]["count"] == (1, 1)
    inst = yaml.safe_load(m["spec"].ksy)["instances"]["records_0x04"]
    assert (inst["pos"], inst["repeat-expr"]) == (12, "num_0x04")
    mod = animre.spec.compile_spec(m["spec"].ksy)
    for n, d, v in planted:
        r = parse_bytes(d, mod, n)
        assert [(x.str_0x00, x.ofs_0x08) for x in r.records_0x04] == [(t, o) for t, o, _ in v["tables"]]


def test_table_directory_the_order_of_the_tables_does_not_matter():
    """Tables stored in another order than their records (as in TrueType): the records alone are the evidence."""
    planted = []
    for n, d, v in syn.synd_files(20, seed=10):
        b = bytearray(d)
        nt = v["num_tables"]
        recs = [bytes(b[12 + 16 * j:28 + 16 * j]) for j in range(nt)]
        b[12:12 + 16 * nt] = b"".join(recs[::-1])
        planted.append((n, bytes(b), nt))
    spec = animre.infer_spec([(n, d) for n, d, _ in planted], name="synd")
    mod = animre.spec.compile_spec(spec.ksy)
    for n, d, nt in planted:
        assert len(parse_bytes(d, mod, n).records_0x04) == nt


@pytest.mark.parametrize("width", [2, 4])
def test_bytes_that_vary_together_are_one_field(width):
    """A planted version of 3 values whose bytes all vary, each deciding the others, is one field."""
    vers = [bytes(range(1 + k * width, 1 + (k + 1) * width)) for k in range(3)]
    files = [(n, b"TIED" + vers[i % 3] + d) for i, (n, d) in enumerate(syn.random_files(30, (64, 512), seed=3))]
    m = measure(files, _truth([(0, 4, "magic", "magic"), (4, width, "version", None)]), name="tied")
    assert m["f1"] == 1.0
    ev = m["spec"].evidence.set_index("offset")
    assert ev.loc[4, "width"] == width and ev.loc[4, "kind"] in (f"u{width}le", f"u{width}be")  # no byte order shown


def test_a_constant_field_holding_where_the_records_start_is_an_offset():
    """Planted (as gettext's originals offset 28): u4 count, u4 = 20 always (the records' start), u4 end of them."""
    rng = np.random.default_rng(12)
    files = []
    for i in range(30):
        n = int(rng.integers(1, 50))
        recs = rng.integers(0, 256, 8 * n, dtype=np.uint8).tobytes()
        tail = rng.integers(0, 256, int(rng.integers(1, 300)), dtype=np.uint8).tobytes()
        files.append((f"c{i}", struct.pack("<4sIIII", b"CNST", 0, n, 20, 20 + 8 * n) + recs + tail))
    truth = _truth([(0, 4, "magic", "magic"), (4, 4, "zero", "const"), (8, 4, "num", "count"),
                    (12, 4, "ofs_recs", "offset"), (16, 4, "ofs_end", "offset")])
    m = measure(files, truth, name="cnst")
    assert m["parsed"] == 30 and m["roles"]["offset"] == (2, 2) and m["roles"]["count"] == (1, 1)
    inst = yaml.safe_load(m["spec"].ksy)["instances"]
    assert any(r.get("pos") == "ofs_0x0c" and r.get("repeat-expr") == "num_0x08" for r in inst.values())


def test_variants_split_on_the_kind_byte():
    files = [(n, d) for n, d, _ in syn.synv_files(30, seed=5)]
    m = measure(files, _truth(syn.SYNV_HEADER), name="synv")
    assert m["parsed"] == 30 and m["f1"] >= 0.8
    doc = yaml.safe_load(m["spec"].ksy)
    body = doc["seq"][-1]
    assert body["type"]["switch-on"] == "tag_0x04" and sorted(body["type"]["cases"]) == [1, 2]
    strides = {k: doc["types"][v]["instances"]["records_0x06"]["doc"] for k, v in body["type"]["cases"].items()}
    assert "count x 12" in strides[1] and "count x 8" in strides[2]


@pytest.mark.parametrize("n", [5, 20, 100])
@pytest.mark.parametrize("kind", ["random", "sound", "prefixed"])
def test_guard_no_structure_in_random_bytes_or_raw_sound(kind, n):
    files = {"random": lambda: syn.random_files(n, seed=n), "sound": lambda: syn.sound_files(n, seed=n),
             "prefixed": lambda: syn.random_files(n, seed=n, prefix=b"HDR\x01")}[kind]()
    spec = animre.infer_spec(files)
    roles = list(spec.evidence["role"])
    assert not set(roles) & set(STRUCT), spec.ksy
    past_prefix = [r for r in roles if r not in ("magic", "const")]
    assert set(past_prefix) <= {"raw"}, spec.ksy
    if kind == "prefixed":  # the constant prefix: the magic (its text) and a constant byte
        seq = yaml.safe_load(spec.ksy)["seq"]
        assert seq[0]["contents"] == "HDR" and "valid" not in seq[1] and seq[1]["doc"].startswith("= 0x1 in ")
    mod = animre.spec.compile_spec(spec.ksy)
    for name, data in files:
        parse_bytes(data, mod, name)


@pytest.mark.parametrize("n", [5, 20, 100])
def test_guard_sound_after_a_prefix_and_a_count_of_nothing(n):
    """Raw sound behind a constant prefix stays raw; a small planted integer before random bytes counts no records."""
    sound = [(a, b"SND1" + d) for a, d in syn.sound_files(n, seed=n)]
    assert set(animre.infer_spec(sound).evidence["role"]) <= {"magic", "const", "raw"}
    rng = np.random.default_rng(n)
    counted = [(f"r{i}", b"DIR1" + struct.pack("<H", int(rng.integers(1, 30)))
                + rng.integers(0, 256, int(rng.integers(600, 3000)), dtype=np.uint8).tobytes()) for i in range(n)]
    roles = set(animre.infer_spec(counted).evidence["role"])
    assert not roles & set(STRUCT) and roles <= {"magic", "const", "raw", "int"}


def test_files_of_one_repeated_byte_and_too_few_files(tmp_path):
    for i in range(6):
        (tmp_path / f"{i}.bin").write_bytes(b"\xAA" * (100 + 7 * i))
    spec = animre.infer_spec(tmp_path)
    assert set(spec.evidence["role"]) <= {"magic", "const", "raw", "file_size"}
    with pytest.raises(UsageError, match="at least 5"):
        animre.infer_spec([("a", b"1234"), ("b", b"1235")])


def test_a_huge_file_is_read_through_bounded_windows_only(tmp_path):
    files = syn.syna_files(6, seed=2)
    for n, d, _ in files:
        (tmp_path / n).write_bytes(d)
    big = tmp_path / "ANIM99.SYN"
    with open(big, "wb") as fh:  # sparse: 4 GiB that are never read
        fh.write(files[0][1])
        fh.truncate(1 << 32)
    spec = animre.infer_spec(tmp_path)
    assert spec.files and "magic" in spec.roles()


def test_save_is_atomic_and_the_cli_writes_the_spec(tmp_path, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    for n, d, _ in syn.syna_files(20, seed=3):
        (folder / n).write_bytes(d)
    before = sorted(os.listdir(folder))
    assert main(["infer", str(folder), "-o", str(tmp_path / "x.ksy"), "--format-name", "syna", "-q"]) == 0
    assert "from 20 files: magic 1, file_size 1, offset 2" in capsys.readouterr().out
    assert yaml.safe_load((tmp_path / "x.ksy").read_text())["meta"]["id"] == "syna"
    assert sorted(os.listdir(folder)) == before  # the user's folder is only read
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_shipped_mot_with_its_spec_hidden(samples_dir):
    files = sorted((p.name, p.read_bytes()) for p in (samples_dir / "mot").rglob("*.mot"))
    mod = animre.spec.load_parser("mot")
    good = []
    for n, d in files:
        try:
            parse_bytes(d, mod, n)
            good.append((n, d))
        except ParseError:
            pass
    m = measure(good, header_truth("ksy/mot.ksy"), name="hidden_mot")
    assert m["parsed"] == len(good) >= 5
    assert m["f1"] >= 0.6


def test_roles_found_counts_the_truth():
    assert roles_found([{"offset": 8, "width": 4, "role": "size"}],
                       [{"offset": 8, "width": 4, "role": "file_size"}]) == {"size": (1, 1)}


BLK_KSY = """meta:
  id: blk
  file-extension: blk
  endian: le
seq:
  - id: magic
    contents: BLK1
  - id: reserved
    size: 12
  - id: body
    size-eos: true
"""


def test_inside_a_known_format_fields_proposed_for_a_raw_blob(tmp_path):
    """Part 2: a spec leaves 12 bytes opaque; planted u2 width and height inside are proposed and proven."""
    rng = np.random.default_rng(1)
    folder = tmp_path / "files"
    folder.mkdir()
    planted = {}
    for i in range(20):
        w, h = int(rng.integers(1, 600)), int(rng.integers(1, 400))
        blob = struct.pack("<HH", w, h) + rng.integers(0, 256, 8, dtype=np.uint8).tobytes()
        body = rng.integers(0, 256, int(rng.integers(10, 200)), dtype=np.uint8).tobytes()
        (folder / f"f{i}.blk").write_bytes(b"BLK1" + blob + body)
        planted[f"f{i}.blk"] = (w, h)
    ksy = tmp_path / "blk.ksy"
    ksy.write_text(BLK_KSY)
    c = animre.open_corpus(folder, specs=[ksy], cache=False, progress=False)
    s = animre.infer_spec(c, table="blk", column="reserved")
    got = set(s.suggestions["suggestion"])
    assert {"instance reserved_unknown_0x00: u2le at byte 0 of reserved",
            "instance reserved_unknown_0x02: u2le at byte 2 of reserved"} <= got
    assert "reserved_unknown_0x00" in animre.suggest_patch(s.suggestions, ksy)
    a = animre.apply_suggestions(s.suggestions, ksy, c, out=tmp_path / "blk2.ksy")
    assert a.ok
    mod = animre.spec.compile_spec((tmp_path / "blk2.ksy").read_text())
    for name, (w, h) in planted.items():
        r = parse_bytes((folder / name).read_bytes(), mod, name)
        assert (r.reserved_unknown_0x00, r.reserved_unknown_0x02) == (w, h)
