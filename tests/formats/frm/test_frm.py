"""HoMM2 FRM.BIN: spec, generator and corpus against the generator's manifest."""

from __future__ import annotations

import struct

import numpy as np
import pandas as pd
import pytest

import animre
import animre.tables.read
from animre.base.errors import ParseError

SLOT_COUNT = 34


@pytest.fixture(scope="module")
def frm_truth(manifest):
    return manifest["formats"]["frm"]


@pytest.fixture(scope="module")
def frm_tables(sample_corpus):
    return sample_corpus.tables


def _f32(x):
    return np.float32(x)


def test_every_sample_parses(frm_truth, sample_corpus):
    files = sample_corpus.files.set_index("file")
    for name in frm_truth["files"]:
        assert files.loc[name, "format"] == "frm"
        assert bool(files.loc[name, "ok"]), name
        assert files.loc[name, "size"] == 821


def test_frm_table_equals_manifest(frm_truth, frm_tables):
    frm = frm_tables["frm"].set_index("file")
    scalars = ["unknown_magic", "eye_x", "eye_y", "num_idles_raw", "idle_interval", "walk_speed",
               "shoot_speed", "fly_speed", "num_projectile_frames_raw", "troop_box_left", "troop_box_right"]
    for name, v in frm_truth["files"].items():
        row = frm.loc[name]
        for k in scalars:
            assert row[k] == v[k], (name, k)
        for i in range(5):
            assert _f32(row[f"idle_weights[{i}]"]) == _f32(v["idle_weights"][i]), (name, i)
            assert row[f"idle_delays[{i}]"] == v["idle_delays"][i]
        for i in range(12):
            assert _f32(row[f"projectile_angles[{i}]"]) == _f32(v["projectile_angles"][i])
        for i in range(3):
            pair = (row[f"projectile_offsets[{i}].x"], row[f"projectile_offsets[{i}].y"])
            assert pair == tuple(v["projectile_offsets"][i])
        # the engine clamps the idle count to 5 (NOTES.md section 2)
        assert row["num_idles"] == min(v["num_idles_raw"], 5)


def test_sequences_equal_manifest(frm_truth, frm_tables):
    frames = frm_tables["frm_frames"]
    slots = frm_tables["frm_sequences"]
    counts = frm_tables["frm_frame_counts"]
    xofs = frm_tables["frm_x_offsets"]
    for name, v in frm_truth["files"].items():
        s = frames[frames.file == name].sort_values(["slot", "position"])
        assert len(s) == SLOT_COUNT * 16
        ids = np.array(v["frame_ids"]).ravel()
        assert (s["frame_ids"].to_numpy() == ids).all(), name
        sl = slots[slots.file == name].set_index("slot")
        assert sl["animation_name"].tolist() == frm_truth["slot_names"]
        xo = xofs[xofs.file == name].sort_values(["slot", "position"])["offsets"].to_numpy()
        assert (xo == np.array(v["x_offsets"]).ravel()).all()
        assert counts[counts.file == name].sort_values("slot")["num_frames_raw"].tolist() == v["num_frames_raw"]
        assert sl["num_frames_raw"].tolist() == v["num_frames_raw"]
        fill = [next((i for i, f in enumerate(row) if f == 0xFF), 16) for row in v["frame_ids"]]
        assert sl["len_by_fill"].tolist() == fill
        assert sl["num_frames"].tolist() == [min(c, 16) for c in v["num_frames_raw"]]


def test_planted_mismatches_visible(frm_truth, frm_tables):
    slots = frm_tables["frm_sequences"]
    bad = slots[slots["num_frames_raw"] != slots["len_by_fill"]]
    found = {(r.file, r.slot) for r in bad.itertuples()}
    planted = {(m["file"], m["slot"]) for m in frm_truth["planted"]["count_fill_mismatch"]}
    assert found == planted


def test_zero_first_byte_is_parsed_and_visible(frm_truth, frm_tables):
    odd = frm_truth["planted"]["odd_magic_file"]
    frm = frm_tables["frm"].set_index("file")
    assert frm.loc[odd, "unknown_magic"] == 0
    assert (frm.drop(index=odd)["unknown_magic"] == 1).all()


def test_every_cell_maps_to_its_bytes(samples_dir, sample_corpus):
    frm = sample_corpus.tables["frm"]
    starts, ends = sample_corpus.spans["frm"]
    fmts = {"unknown_magic": "<B", "eye_x": "<h", "walk_speed": "<I", "idle_weights[2]": "<f",
            "troop_box_left": "<i", "projectile_offsets[2].y": "<h", "projectile_angles[11]": "<f"}
    for i in range(0, len(frm), 5):
        data = sample_corpus.read_bytes(frm.at[i, "file"])  # archive members: from their container
        for col, f in fmts.items():
            s, e = sample_corpus.span("frm", i, col)
            assert e - s == struct.calcsize(f)
            (val,) = struct.unpack(f, data[s:e])
            assert np.float32(val) == np.float32(frm.at[i, col])
    # documented byte offsets from NOTES.md section 2
    assert sample_corpus.span("frm", 0, "walk_speed") == (162, 166)
    assert sample_corpus.span("frm", 0, "troop_box_left") == (235, 239)
    assert sample_corpus.span("frm", 0, "troop_box_right") == (239, 243)
    seq = sample_corpus.tables["frm_frames"]
    s0, _ = sample_corpus.spans["frm_frames"]
    row = seq[(seq.slot == 2) & (seq.position == 3)].index[0]
    assert s0.at[row, "frame_ids"] == 277 + 2 * 16 + 3
    counts = sample_corpus.tables["frm_frame_counts"]
    row = counts[counts.slot == 9].index[0]
    assert sample_corpus.span("frm_frame_counts", row, "num_frames_raw") == (243 + 9, 244 + 9)


def test_byte_coverage_is_complete(samples_dir, sample_corpus):
    name = next(iter(sample_corpus.files.file))
    f = sample_corpus.fields(name)
    leaves = f[f["kind"] == "value"].dropna(subset=["start"])
    covered = np.zeros(821, bool)
    for s, e in zip(leaves.start, leaves.end):
        covered[int(s):int(e)] = True
    assert covered.all(), np.flatnonzero(~covered)


def test_bad_files_give_one_error_row_each(samples_dir, tmp_path):
    good = sorted((samples_dir / "frm").glob("*FRM.BIN"))[:5]
    folder = tmp_path / "mixed"
    folder.mkdir()
    for g in good:
        (folder / g.name).write_bytes(g.read_bytes())
    (folder / "TRUNCFRM.BIN").write_bytes(good[0].read_bytes()[:500])
    (folder / "EMPTYFRM.BIN").write_bytes(b"")
    rng = np.random.default_rng(0)
    (folder / "noise.bin").write_bytes(rng.integers(0, 256, 2 * 1024 * 1024, dtype=np.uint8).tobytes())
    c = animre.open_corpus(folder, cache=False)
    assert sorted(c.tables["frm"].file) == sorted(g.name for g in good)
    errs = c.errors.set_index("file")
    assert sorted(errs.index) == ["EMPTYFRM.BIN", "TRUNCFRM.BIN"]  # noise is not recognised: skipped
    assert c.files.set_index("file").at["noise.bin", "status"] == "skipped"
    assert errs["offset"].dtype.kind == "i"
    # the truncated file fails where the data runs out: inside sequences (byte 277+) at 496 or before
    t = errs.loc["TRUNCFRM.BIN"]
    assert t["path"].startswith("sequences[") and 277 <= t["offset"] <= 500
    assert "TRUNCFRM.BIN" in t["message"] and t["path"] in t["message"]
    assert errs.loc["EMPTYFRM.BIN", "offset"] == 0
    assert not c.files.set_index("file").loc[["EMPTYFRM.BIN", "TRUNCFRM.BIN", "noise.bin"], "ok"].any()


def test_wrong_size_is_an_error(samples_dir):
    data = next((samples_dir / "frm").glob("*FRM.BIN")).read_bytes()
    with pytest.raises(ParseError) as ei:
        animre.tables.read.parse(data + b"\0\0", "LONG_FRM.BIN", "frm")
    assert ei.value.path == "trailing" and ei.value.offset == 821
    with pytest.raises(ParseError) as ei:
        animre.tables.read.parse(data[:100], "SHORTFRM.BIN", "frm")
    assert ei.value.path == "x_offsets[5].offsets[15]" or ei.value.path.startswith("x_offsets[")
    assert ei.value.offset <= 100


def test_progress_bar_on_many_files(samples_dir, capsys):
    c = animre.open_corpus(samples_dir / "frm", cache=False, progress=True)
    err = capsys.readouterr().err
    assert "animre: parsing" in err and len(c.tables["frm"]) >= 20


def test_tables_have_file_first(frm_tables):
    for name in ("frm", "frm_frame_counts", "frm_sequences", "frm_frames", "frm_x_offsets"):
        assert frm_tables[name].columns[0] == "file"
    assert isinstance(frm_tables["files"], pd.DataFrame)
    assert list(frm_tables["files"].columns) == ["file", "format", "size", "sha256", "ok", "status", "container",
                                                 "offset", "kind", "members", "detected_by", "reason"]
