"""Inference of a first spec for an unknown format: planted truth, the guard, hostile input, the CLI.

The truth is the synthetic generator's planted layout (``animre.samples.synthetic``) and the
shipped specs' fixed headers; the floors are what the benchmark (``benchmarks/infer.py``) measured.
"""

from __future__ import annotations

import os

import pytest
import yaml

import animre
from animre.cli import main
from animre.errors import ParseError, UsageError
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
    assert seq["magic"]["contents"] == list(b"SYNA")
    assert seq["len_file_0x08"]["valid"] == {"expr": "_ == _root._io.size"}
    assert seq["unknown_0x04"]["valid"] == 2  # version
    assert seq["unknown_0x28"]["valid"] == 0  # reserved
    assert seq["str_0x18"]["type"] == "str" and seq["str_0x18"]["size"] == 16
    rec = doc["instances"]["records_0x06"]
    assert rec == {**rec, "pos": "ofs_0x0c", "repeat": "expr", "repeat-expr": "num_0x06"}
    types = [f["type"] for f in doc["types"][rec["type"]]["seq"][:3]]
    assert types == ["f4", "f4", "f4"]  # x, y, z of every record of every file
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
        assert seq[0]["contents"] == list(b"HDR") and seq[1]["valid"] == 1
    mod = animre.spec.compile_spec(spec.ksy)
    for name, data in files:
        parse_bytes(data, mod, name)


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
