"""The fast path (:mod:`animre.tables.fixed`) gives what the Kaitai parse gives: every table, value and range.

Three kinds of truth: the Kaitai parse of the same files (``read_tables(...,
fast=False)``, the reference), the values and offsets the writer below
planted, and real files (the FLIC headers of ``../shared/realdata``, unpacked
here with :mod:`struct`). Files the fast path cannot read (a failed ``valid``,
a wrong magic, too short) are read by the Kaitai parse, so their errors are
its errors, field path and offset.
"""

from __future__ import annotations

import math
import struct
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import animre
from animre.base.errors import ParseError
from animre.corpus.collector import Collector
from animre.corpus.results import FileResult
from animre.formats import all_formats, registry
from animre.tables.fixed import FixedReader, why_not
from animre.tables.planner import plan_for
from animre.tables.read import fast_reader, plan_of, read_tables, spec_text

SPECS = Path(__file__).parent / "specs" / "fixed"
ROOT = Path(__file__).resolve().parents[3]
REAL = Path(__file__).resolve().parents[4] / "shared" / "realdata"


def same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def assert_same_tables(data: bytes, name: str, fmt) -> dict:
    """The fast path read this file (not the fallback) and its tables equal the Kaitai parse's."""
    got = fast_reader(fmt).read(data)
    assert got is not None, f"{name}: the fast path fell back"
    ref = read_tables(data, name, fmt, fast=False)
    assert list(got) == list(ref)
    for t, c in ref.items():
        g = got[t]
        assert g.columns == c.columns and g.span_cols == c.span_cols and g.n == c.n, t
        for col in c.columns:
            bad = [i for i, (x, y) in enumerate(zip(c.data[col], g.data[col])) if not same(x, y)]
            assert len(c.data[col]) == len(g.data[col]) and not bad, \
                (t, col, bad[:3], [c.data[col][i] for i in bad[:3]], [g.data[col][i] for i in bad[:3]])
        assert np.array_equal(c.st, g.st) and np.array_equal(c.en, g.en), (t, np.argwhere(c.st != g.st)[:3])
    return got


class Writer:
    """Bytes written field by field, with the (start, end) and value of each named field."""

    def __init__(self):
        self.b = bytearray()
        self.at: dict[str, tuple[int, int]] = {}
        self.val: dict[str, object] = {}

    def put(self, path: str, fmt: str, value) -> None:
        start = len(self.b)
        self.b += struct.pack(fmt, value)
        self.at[path], self.val[path] = (start, len(self.b)), value

    def raw(self, path: str, data: bytes, value=None) -> None:
        start = len(self.b)
        self.b += data
        self.at[path], self.val[path] = (start, len(self.b)), data if value is None else value


def build(seed: int, version: int = 1, code: int = 9) -> tuple[bytes, Writer]:
    w = Writer()
    w.raw("magic", b"FXD1")
    w.put("version", "<H", version)
    w.put("kind", "<B", seed % 4)
    w.put("flags", "<B", 0x80 | seed)
    name = "unit"[: 1 + seed % 4]
    w.raw("name", name.encode().ljust(8, b"\0"), name)
    w.raw("tag", b"ab\0z", b"ab")
    w.raw("label", b"lbl\0xy", "lbl")
    w.put("scale", "<f", 0.5 + seed)
    w.put("big", ">I", 0x01020304 + seed)
    w.put("n_used", "<B", 1 + seed % 4)
    for j in range(4):
        w.put(f"speeds[{j}]", "<h", -300 + 100 * j + seed)
    for j in range(4):
        w.put(f"points[{j}].x", "<h", 10 * j - seed)
        w.put(f"points[{j}].y", "<h", 1000 + j)
        w.put(f"points[{j}].w", "<B", (j + seed) % 5)  # 4 is no member of the enum
    w.put("footer.crc", ">I", 0xDEADBEEF ^ seed)
    w.put("footer.stamp", ">H", 0x1234 + seed)
    w.put("footer.code", ">B", code)
    w.put("footer.pad", ">B", 0)
    w.raw("footer.tail", b"\xff" * 4)
    w.raw("rest", bytes(range(seed + 3)))
    return bytes(w.b), w


@pytest.fixture(scope="module")
def fxd():
    return registry(specs=[SPECS / "fxd.ksy"], formats=["fxd"], env=False)["fxd"]


def test_the_gallery_style_spec_gets_a_fast_reader(fxd):
    assert why_not(spec_text(fxd), plan_of(fxd)) is None


@pytest.mark.parametrize("seed", range(6))
def test_tables_equal_the_kaitai_parse(fxd, seed):
    data, _ = build(seed, version=1 + seed % 2)
    assert_same_tables(data, f"f{seed}.fxd", fxd)


def test_values_and_ranges_are_the_planted_ones(fxd):
    data, w = build(3, version=2)
    got = fast_reader(fxd).read(data)
    root, points = got["fxd"], got["fxd_points"]
    for f in ("version", "kind", "flags", "name", "tag", "label", "big", "n_used", "rest"):
        j = root.span_cols.index(f)
        assert root.data[f] == [w.val[f]], f
        assert (int(root.st[j, 0]), int(root.en[j, 0])) == w.at[f], f
    assert root.data["scale"] == [3.5]
    assert root.data["kind_name"] == ["import_"]  # a member named like a Python keyword, as the parser names it
    assert root.data["is_v2"] == [1] and root.data["peek"] == [2] and root.data["name_len"] == [4]
    assert root.data["total_speed"] == [w.val["speeds[0]"] + w.val["speeds[1]"]]
    assert root.data["last_speed"] == [w.val["speeds[3]"]]
    assert root.data["tail_size"] == [len(data) - 75]
    assert points.data["x"] == [w.val[f"points[{j}].x"] for j in range(4)]
    assert points.data["used"] == [j < w.val["n_used"] for j in range(4)]
    assert points.data["scaled"] == [2 * w.val[f"points[{j}].x"] + j for j in range(4)]
    assert points.data["own_speed"] == [w.val[f"speeds[{j}]"] for j in range(4)]
    assert points.data["w_name"] == [{0: "none", 1: "walk", 2: "run", 3: "import_"}.get((j + 3) % 5)
                                     for j in range(4)]
    jx = points.span_cols.index("x")
    assert [(int(a), int(b)) for a, b in zip(points.st[jx], points.en[jx])] == [w.at[f"points[{j}].x"]
                                                                               for j in range(4)]
    foot = {t: c for t, c in got.items() if "footer" in t or t == "fxd"}
    crc = next((c, c.span_cols.index(k)) for c in foot.values() for k in c.span_cols if k.endswith("crc"))
    assert (int(crc[0].st[crc[1], 0]), int(crc[0].en[crc[1], 0])) == w.at["footer.crc"]


@pytest.mark.parametrize("case,path,offset", [
    ("version", "version", 4), ("code", "footer.code", 69), ("magic", "magic", 0), ("short", None, None)])
def test_a_file_the_fast_path_cannot_read_gets_the_kaitai_error(fxd, case, path, offset):
    data, w = build(2, version=7 if case == "version" else 1, code=0 if case == "code" else 9)
    if case == "magic":
        data = b"FXD2" + data[4:]
    if case == "short":
        data = data[:50]
    assert fast_reader(fxd).read(data) is None
    with pytest.raises(ParseError) as fast_err:
        read_tables(data, "bad.fxd", fxd)
    with pytest.raises(ParseError) as ref_err:
        read_tables(data, "bad.fxd", fxd, fast=False)
    assert str(fast_err.value) == str(ref_err.value)
    assert "bad.fxd" in str(fast_err.value)
    if path is not None:
        assert (fast_err.value.path, fast_err.value.offset) == (path, offset)


@pytest.mark.parametrize("with_bad", [False, True])
def test_a_corpus_of_the_spec_reads_the_planted_values(fxd, tmp_path, with_bad, monkeypatch):
    """Files read at once (no bad file among them) or one by one (a bad file sends them all there)."""
    at_once = []
    read_many = FixedReader.read_many
    monkeypatch.setattr(FixedReader, "read_many", lambda self, blobs: at_once.append(
        read_many(self, blobs) is not None) or read_many(self, blobs))
    for s in range(6):
        (tmp_path / f"f{s}.fxd").write_bytes(build(s)[0])
    if with_bad:
        (tmp_path / "bad.fxd").write_bytes(build(1, code=0)[0])  # detection takes it (no constant is broken)
    c = animre.open_corpus(tmp_path, specs=[SPECS / "fxd.ksy"], formats=["fxd"], cache=False, workers=1)
    assert len(c.files[c.files.status == "parsed"]) == 6
    want = [["bad.fxd", "footer.code", 69]] if with_bad else []
    assert c.errors[["file", "path", "offset"]].values.tolist() == want
    points = c.tables["fxd_points"]
    assert sorted(zip(points.file, points.x)) == sorted((f"f{s}.fxd", 10 * j - s) for s in range(6) for j in range(4))
    starts, ends = c.spans["fxd_points"]
    assert sorted(set(starts.x)) == [43 + 5 * j for j in range(4)] and sorted(set(ends.x)) == [45 + 5 * j
                                                                                               for j in range(4)]
    assert at_once == [not with_bad]
    root = c.tables["fxd"].set_index("file")
    assert [root.at[f"f{s}.fxd", "big"] for s in range(6)] == [0x01020304 + s for s in range(6)]
    assert [root.at[f"f{s}.fxd", "rest"] for s in range(6)] == [bytes(range(s + 3)) for s in range(6)]


@pytest.mark.parametrize("name", ["frm", "pal", "fxd"])
def test_files_read_at_once_give_the_tables_of_files_read_one_by_one(name, fxd):
    """``read_many`` and ``Collector.add_many`` against the Kaitai parse of each file, frame for frame."""
    fmt = fxd if name == "fxd" else all_formats()[name]
    if name == "fxd":
        names, blobs = [f"f{s}.fxd" for s in range(6)], [build(s, version=1 + s % 2)[0] for s in range(6)]
    else:
        files = _sample_files(name)
        names, blobs = [str(p) for p in files], [p.read_bytes() for p in files]
    one = Collector()
    for n, b in zip(names, blobs):
        one.add(FileResult(n, n, name, len(b), "", True, chunks=read_tables(b, n, fmt, fast=False)))
    many = Collector()
    many.add_many(names, fast_reader(fmt).read_many(blobs))
    want, got = one.tables(), many.tables()
    assert list(got) == list(want)
    for t in want:
        for w, g in zip(want[t], got[t]):
            pd.testing.assert_frame_equal(g, w, check_exact=True)


def _sample_files(name: str) -> list[Path]:
    return sorted(p for p in (ROOT / "data" / "samples" / name).rglob("*") if p.is_file()
                  and p.suffix.lower() not in (".json", ".md", ".txt"))


@pytest.mark.parametrize("name", sorted(all_formats()))
def test_every_shipped_format_with_a_fast_reader_reads_its_samples_the_same(name):
    fmt = all_formats()[name]
    if fast_reader(fmt) is None:
        assert why_not(spec_text(fmt), plan_of(fmt)) or fmt.locate or fmt.next_block or fmt.block_info
        return
    files = _sample_files(name)
    assert files, f"no samples of {name}"
    for p in files:
        assert_same_tables(p.read_bytes(), str(p), fmt)


def test_the_formats_a_fixed_record_is_made_of_get_one():
    """HoMM2's 821-byte FRM record and the 768-byte palette are fixed from start to end."""
    assert fast_reader(all_formats()["frm"]) is not None and fast_reader(all_formats()["pal"]) is not None


FLH = """
meta: {id: flh, endian: le, file-extension: [flc, fli]}
seq:
  - {id: size, type: u4}
  - {id: magic, type: u2, valid: {any-of: [0xaf11, 0xaf12]}}
  - {id: frames, type: u2}
  - {id: width, type: u2}
  - {id: height, type: u2}
  - {id: depth, type: u2}
  - {id: flags, type: u2}
  - {id: speed, type: u4}
  - {id: reserved, size: 108}
  - {id: body, size-eos: true}
instances:
  is_flc: {value: 'magic == 0xaf12 ? 1 : 0'}
  pixels: {value: width * height}
"""


def test_real_flic_headers_through_a_users_fixed_spec(tmp_path):
    spec = tmp_path / "flh.ksy"
    spec.write_text(FLH)
    fmt = registry(specs=[spec], formats=["flh"], env=False)["flh"]
    files = sorted(p for p in (REAL / "flic").rglob("*") if p.suffix.lower() in (".flc", ".fli"))
    assert len(files) >= 8, "the real FLIC files of ../shared/realdata"
    read = 0
    for p in files:
        data = p.read_bytes()
        size, magic, frames, width, height = struct.unpack_from("<IHHHH", data)
        if magic not in (0xAF11, 0xAF12):
            assert fast_reader(fmt).read(data) is None
            continue
        got = assert_same_tables(data, str(p), fmt)["flh"]
        assert got.data["frames"] == [frames] and got.data["pixels"] == [width * height]
        j = got.span_cols.index("body")
        assert (int(got.st[j, 0]), int(got.en[j, 0])) == (128, len(data))
        read += 1
    assert read >= 8


def test_an_absurd_fixed_layout_gets_no_reader():
    """A constant count of 10^8 empty records places nothing: the Kaitai parse (and its guard) reads it."""
    text = ("meta: {id: huge, endian: le}\nseq:\n  - {id: recs, type: e, repeat: expr, repeat-expr: 100000000}\n"
            "types:\n  e:\n    seq: []\n")
    assert "too large" in why_not(text, plan_for(text))
    text = "meta: {id: huge2, endian: le}\nseq:\n  - {id: blob, size: 0x10000000}\n"
    assert "too large" in why_not(text, plan_for(text))
