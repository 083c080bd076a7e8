"""Claims and hypotheses in the spec's expression language over arrays, on a planted format; byte-identical files
counted once; a claim's detail saying what the corpus holds.

The spec ``arr`` below has no value instance: an array of frames (a table of its own), a byte field, and two
claims. Its files are written here byte by byte, with one planted break of each rule.
"""

from __future__ import annotations

import random
import shutil
import struct
from pathlib import Path

import pytest

import animre
from animre.research import check, claims

SPEC = """\
meta:
  id: arr
  title: A test format with arrays
  file-extension: arr
  endian: le
doc: Frames with data offsets, the last one the file size, and a data blob ending in 0x80.
seq:
  - id: magic
    contents: ARR1
  - id: num_frames
    type: u2
  - id: frames
    type: frame
    repeat: expr
    repeat-expr: num_frames + 1
  - id: data
    size-eos: true
types:
  frame:
    seq:
      - id: ofs_data
        type: u4
      - id: x
        type: u2
-animre-claims:
  - text: "The last frame's data offset is the file size."
    expr: "frames.last.ofs_data == _file_size"
    source: "a planted test"
  - text: "Data ends with 0x80."
    expr: "data.last == 0x80"
    source: "a planted test"
    detail: "this corpus holds {values}"
  - text: "Frame x is 10 per frame."
    expr: "frames[1].x == 10"
    source: "a planted test"
    detail: "x of frame 1: this corpus holds {range}"
"""

BAD_OFFSET, BAD_END = "F2.arr", "F4.arr"  # the planted breaks


def _write(folder: Path) -> dict[str, dict]:
    """Six files; F2's last offset is 7 past the end, F4's data ends with 0x81. Returns what was planted."""
    rng = random.Random(29)
    truth = {}
    for k in range(6):
        n = rng.randrange(1, 5)
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(3, 9))) + (b"\x81" if k == 4 else b"\x80")
        head = 4 + 2 + 6 * (n + 1)
        ofs = sorted(rng.randrange(head, head + len(data)) for _ in range(n)) + [head + len(data) + 7 * (k == 2)]
        raw = b"ARR1" + struct.pack("<H", n) + b"".join(struct.pack("<IH", o, i * 10) for i, o in enumerate(ofs))
        (folder / f"F{k}.arr").write_bytes(raw + data)
        truth[f"F{k}.arr"] = {"n": n, "size": len(raw) + len(data), "last_ofs_at": 6 + 6 * n, "data_at": head,
                              "last": data[-1]}
    return truth


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    d = tmp_path_factory.mktemp("arr")
    (d / "specs").mkdir()
    (d / "specs" / "arr.ksy").write_text(SPEC)
    (d / "data").mkdir()
    truth = _write(d / "data")
    c = animre.open_corpus(d / "data", specs=[d / "specs" / "arr.ksy"], cache=False)
    return c, truth, d


def _row(c, expr):
    return check(c, "arr", expr).iloc[0]


def test_check_indexes_an_array_that_is_a_table_of_the_same_file(planted):
    c, truth, _ = planted
    assert "arr_frames" in c.tables and "frames" not in c.tables["arr"].columns  # an array of its own
    r = _row(c, "frames[num_frames].ofs_data == _file_size")
    assert r["status"] == "fails" and (r["holds"], r["tested"]) == (5, 6)
    (ce,) = r["counterexamples"]
    t = truth[BAD_OFFSET]
    # the offset of the element's ofs_data, where the value compared was read
    assert ce["file"] == BAD_OFFSET and ce["offset"] == t["last_ofs_at"]
    assert ce["value"] == f"frames[num_frames].ofs_data={t['size'] + 7}, num_frames={t['n']}, _file_size={t['size']}"
    stored = struct.unpack_from("<I", (planted[2] / "data" / BAD_OFFSET).read_bytes(), ce["offset"])[0]
    assert stored == t["size"] + 7
    assert _row(c, "frames.last.ofs_data == _file_size")["counterexamples"][0]["offset"] == t["last_ofs_at"]
    assert _row(c, "frames.size == num_frames + 1 and frames.first.x == 0")["verdict"] == "6/6 hold"
    assert _row(c, "frames[num_frames + 5].x == 0")["status"] == "no data"  # past the end: not tested


def test_check_reads_bytes_of_a_byte_field(planted):
    c, truth, _ = planted
    for expr in ("data.last == 0x80", "data[data.size - 1] == 0x80"):
        r = _row(c, expr)
        assert (r["holds"], r["tested"]) == (5, 6), expr
        (ce,) = r["counterexamples"]
        assert ce["file"] == BAD_END and ce["offset"] == truth[BAD_END]["data_at"], expr
    assert _row(c, "data.last == 0x80")["counterexamples"][0]["value"] == 0x81
    assert _row(c, "data[0:2].size == 2 and data.first == data[0] and _io.size == _file_size")["verdict"] == "6/6 hold"


def test_what_the_table_cannot_hold_is_not_testable_or_an_error(planted):
    c, _, _ = planted
    r = _row(c, "frames[0].nope == 1")
    assert r["status"] == "not testable: field arr.frames[0].nope is not in the spec"
    r = _row(c, "frames == 1")
    assert r["status"] == "error" and "frames is not a value" in r["error"]
    with pytest.raises(animre.UsageError):
        check(c, "arr", "frames.size(")


def test_claims_in_the_spec_over_arrays_and_their_detail(planted):
    c, truth, _ = planted
    assert not len(c.unavailable)  # the spec's claims read fields the spec has
    r = claims(c).set_index("claim")
    last = r.loc["The last frame's data offset is the file size."]
    assert last["verdict"] == "5/6 hold, 1 fails" and last["counterexamples"][0]["file"] == BAD_OFFSET
    end = r.loc["Data ends with 0x80."]
    assert end["counterexamples"][0]["detail"] == "this corpus holds 128 (5), 129 (1)"
    xs = [10 for t in truth.values() if t["n"] >= 1]  # frame 1 exists in every file (n >= 1)
    x = r.loc["Frame x is 10 per frame."]
    assert x["verdict"] == f"{len(xs)}/{len(xs)} hold" and x["status"] == "holds"


def test_byte_identical_copies_count_once_and_are_listed(planted, tmp_path):
    _, truth, d = planted
    data = tmp_path / "data"
    shutil.copytree(d / "data", data)
    (data / "copies").mkdir()
    shutil.copy(data / BAD_END, data / "copies" / "AGAIN.arr")  # a copy of a failing file
    shutil.copy(data / "F0.arr", data / "copies" / "F0_COPY.arr")  # and of one that holds
    c = animre.open_corpus(data, specs=[d / "specs" / "arr.ksy"], cache=False)
    assert len(c.files) == 8
    end = claims(c).set_index("claim").loc["Data ends with 0x80."]
    assert end["verdict"] == "5/6 hold, 1 fails"  # the eight files hold six contents
    # the later file of the same bytes in corpus order is the copy (``F...`` sorts before ``copies/``)
    assert sorted(end["copies"]) == ["copies/AGAIN.arr", "copies/F0_COPY.arr"]
    (ce,) = end["counterexamples"]
    assert ce["file"] == BAD_END and ce["copies"] == ["copies/AGAIN.arr"]
    assert ce["detail"] == "this corpus holds 128 (5), 129 (1)"  # what the six contents hold
    from animre.base.tableview import counterexample_table

    shown = counterexample_table(end["counterexamples"]).iloc[0]["detail"]
    assert shown == "this corpus holds 128 (5), 129 (1); the same bytes as copies/AGAIN.arr"
