"""Naruto GNT4 MOT/GNTA: spec, decoder, tables and claims against the generator's manifest.

Tables and columns are named by ``ksy/mot.ksy``: ``mot``, ``mot_animations`` (key ``anim_id``),
``mot_tracks`` (key ``track``), ``mot_keys`` (key ``key``).
"""

from __future__ import annotations

import struct

import numpy as np
import pandas as pd
import pytest

import animre
from animre.base.errors import ParseError
from animre.formats import detect_format, get_format
from animre.formats.base import CLAIM_COLUMNS, not_testable
from animre.formats.mot.decode import float_to_half, half_to_float, rotation_direction_twist, track_coords
from animre.tables.read import parse

KEY_COLS = ["file", "anim_id", "track", "key"]




@pytest.fixture(scope="module")
def files(truth):
    return truth["files"]


@pytest.fixture(scope="module")
def tables(sample_corpus):
    return sample_corpus.tables


def _tracks(files):
    for name, v in files.items():
        for a in v["animations"]:
            for i, t in enumerate(a["tracks"]):
                yield name, a, i, t


# ------------------------------------------------------------------ parsing and tables


def test_every_sample_parses_to_its_end(files, sample_corpus, samples_dir):
    assert len(files) == 40
    f = sample_corpus.files.set_index("file")
    for name, v in files.items():
        assert f.loc[name, "format"] == "mot", name
        assert bool(f.loc[name, "ok"]), name
        assert f.loc[name, "size"] == v["size"] == (samples_dir / name).stat().st_size
    assert not sample_corpus.errors.file.str.startswith("mot/").any()


def test_header_and_offset_table_equal_manifest(files, tables, sample_corpus):
    mot = tables["mot"].set_index("file")
    for name, v in files.items():
        row = mot.loc[name]
        for k in ("unknown_0", "num_anim_ids", "len_header", "len_file"):
            assert row[k] == v[k], (name, k)
        assert row["real_size"] == v["size"]
        assert row["num_animations"] == len(v["animations"])
        assert row["pad_offsets"] == bytes.fromhex(v["pad_offsets"])
        obj = sample_corpus.parse(name)
        assert [s.ofs_gnta for s in obj.anims] == v["offsets"], name
        assert [s.anim_id for s in obj.anims] == list(range(v["num_anim_ids"]))
        absent = [s for s in obj.anims if s.ofs_gnta == 0]
        assert all(s.gnta is None for s in absent)
        assert len(absent) == v["num_anim_ids"] - len(v["animations"])
        assert absent or v["num_anim_ids"] == 1


def test_animations_equal_manifest(files, tables):
    an = tables["mot_animations"].set_index(["file", "anim_id"])
    expected = {(n, a["anim_id"]) for n, v in files.items() for a in v["animations"]}
    got = {k for k in an.index if k[0].startswith("mot/")}
    assert got == expected
    for name, v in files.items():
        for a in v["animations"]:
            row = an.loc[(name, a["anim_id"])]
            assert row["ofs_gnta"] == a["offset"] == v["offsets"][a["anim_id"]]
            assert row["num_tracks"] == a["num_tracks"] == len(a["tracks"])
            assert row["len_header"] == a["len_header"] == 0x10
            assert row["play_speed"] == a["play_speed"]
            assert row["end_time"] == a["end_time"]
        order = an.loc[name].sort_values("storage_rank").index.tolist()
        assert order == v["storage_order"], name


def test_tables_and_derived_columns_come_from_the_spec(sample_corpus):
    assert {"mot", "mot_animations", "mot_tracks", "mot_keys"} <= set(sample_corpus.tables)
    assert sample_corpus.keys("mot_keys") == KEY_COLS
    fmt = get_format("mot")
    for d in fmt.derived:
        assert d.reads or d.column == "real_size", d.column
        assert not not_testable(sample_corpus, d.reads), d.column
        assert d.column in sample_corpus.tables[d.table], d.column
    un = sample_corpus.unavailable
    assert not (un["format"] == "mot").any(), un


def test_tracks_equal_manifest(files, tables):
    tr = tables["mot_tracks"].set_index(["file", "anim_id", "track"])
    n = 0
    for name, a, i, t in _tracks(files):
        row = tr.loc[(name, a["anim_id"], i)]
        for k in ("flags", "track_flags", "bone_id", "num_keys", "total_time", "unknown_0c", "ofs_times",
                  "ofs_coords", "unknown_18", "unknown_1c"):
            assert row[k] == t[k], (name, a["anim_id"], i, k)
        assert row["ofs_header"] == t["offset"]
        assert row["len_component"] == t["flags"] & 0xFF
        assert row["has_coords_flag"] == bool(t["flags"] & 0x0200)
        assert row["kind"] == t["track_flags"] & 0x0F
        assert row["kind_name"] == {0x01: "translate", 0x02: "scale", 0x08: "rotate"}[t["track_flags"] & 0x0F]
        assert row["is_disabled"] == bool(t["track_flags"] & 0x40)
        assert row["is_enabled"] == bool(t["track_flags"] & 0x20)
        assert row["last_key_time"] == t["times"][-1]
        assert row["pad_times"] == bytes.fromhex(t["pad_times"])
        if t["pad_coords"] is None:
            assert row["pad_coords"] is None or pd.isna(row["pad_coords"])
        else:
            assert row["pad_coords"] == bytes.fromhex(t["pad_coords"])
        n += 1
    assert n == sum(r.file.startswith("mot/") for r in tables["mot_tracks"].itertuples())
    assert {0x0202, 0x0204, 0x0000} <= set(tables["mot_tracks"]["flags"])


def test_keys_equal_manifest(files, tables):
    """Every key row equals the generator's key: its time (frames / 60 as f4), bone, values and raw halves."""
    keys = tables["mot_keys"].set_index(KEY_COLS)
    vals, raws = ["x", "y", "z", "w"], ["x_raw", "y_raw", "z_raw", "w_raw"]
    nan4 = [np.nan] * 4
    rows = []
    for name, a, i, t in _tracks(files):
        for k, time in enumerate(t["times"]):
            assert time == np.float32(t["frames"][k] / 60)
            rows.append((name, a["anim_id"], i, k, time, t["bone_id"],
                         *(nan4 if t["values"] is None else t["values"][k]),
                         *(nan4 if t["raw"] is None else t["raw"][k])))
    want = pd.DataFrame(rows, columns=[*KEY_COLS, "time", "bone_id", *vals, *raws]).set_index(KEY_COLS)
    got = keys.loc[want.index]  # one lookup for every planted key (a KeyError names a missing one)
    assert (got["time"].to_numpy() == want["time"].to_numpy()).all()
    assert (got["bone_id"].to_numpy() == want["bone_id"].to_numpy()).all()
    for cols in (vals, raws):  # exact values; no value where the generator wrote none
        g, w = got[cols].astype(float).to_numpy(), want[cols].to_numpy(dtype=float)
        bad = ~((g == w) | (np.isnan(g) & np.isnan(w)))
        assert not bad.any(), want.index[bad.any(axis=1)][:5].tolist()
    assert len(want) == len(keys.loc[[f for f in files]])


def test_cells_map_to_their_bytes(files, sample_corpus, samples_dir):
    checks = {
        "mot_animations": {"ofs_gnta": ">I", "num_tracks": ">I", "play_speed": ">f", "end_time": ">f"},
        "mot_tracks": {"flags": ">H", "track_flags": ">H", "bone_id": ">H", "num_keys": ">H",
                       "total_time": ">f", "ofs_times": ">I", "ofs_coords": ">I", "unknown_18": ">I"},
        "mot_keys": {"time": ">f", "x_raw": ">H", "w_raw": ">H", "x": None, "w": None},
    }
    data = {n: (samples_dir / n).read_bytes() for n in files}
    for table, cols in checks.items():
        df = sample_corpus.tables[table]
        rows = df.index[df.file.str.startswith("mot/")][::7]
        for i in rows:
            name = df.at[i, "file"]
            for col, fmt in cols.items():
                if pd.isna(df.at[i, col]):
                    continue
                s, e = sample_corpus.span(table, i, col)
                raw = data[name][s:e]
                if fmt is None:  # decoded component: 2 raw bytes (upper half) or an f32
                    (val,) = struct.unpack(">H" if e - s == 2 else ">f", raw)
                    val = float(half_to_float(val)) if e - s == 2 else val
                else:
                    assert e - s == struct.calcsize(fmt)
                    (val,) = struct.unpack(fmt, raw)
                assert val == df.at[i, col], (table, col, name, s)
    # a null cell has no bytes: f32 tracks have no raw halves, tracks without coordinates no x
    keys = sample_corpus.tables["mot_keys"]
    ks, _ = sample_corpus.spans["mot_keys"]
    for col in ("x_raw", "w_raw", "x"):
        assert ks.loc[keys[col].isna(), col].isna().all(), col
        assert ks.loc[keys[col].notna(), col].notna().all(), col
    # documented positions: MOT header fields and a track's fields relative to its header
    mot = sample_corpus.tables["mot"]
    r = mot.index[mot.file == "mot/nar/0000.mot"][0]
    assert sample_corpus.span("mot", r, "len_file") == (12, 16)
    tr = sample_corpus.tables["mot_tracks"]
    r = tr.index[tr.file == "mot/nar/0000.mot"][3]
    base = int(tr.at[r, "ofs_header"])
    assert sample_corpus.span("mot_tracks", r, "bone_id") == (base + 4, base + 6)
    assert sample_corpus.span("mot_tracks", r, "ofs_coords") == (base + 0x14, base + 0x18)


def test_key_arrays_are_relative_to_the_gnta(files, sample_corpus):
    tr = sample_corpus.tables["mot_tracks"]
    an = sample_corpus.tables["mot_animations"].set_index(["file", "anim_id"])
    keys = sample_corpus.tables["mot_keys"]
    ks, _ = sample_corpus.spans["mot_keys"]
    first = keys[keys.key == 0].set_index(["file", "anim_id", "track"])
    first_start = ks.loc[keys.key == 0].set_index(first.index)
    for r in tr[tr.file.str.startswith("mot/")].itertuples():
        gnta = an.loc[(r.file, r.anim_id), "ofs_gnta"]
        assert first_start.loc[(r.file, r.anim_id, r.track), "time"] == gnta + r.ofs_times
        if r.ofs_coords:
            assert first_start.loc[(r.file, r.anim_id, r.track), "x"] == gnta + r.ofs_coords


def test_byte_coverage_is_complete(files, sample_corpus):
    for name, v in files.items():
        f = sample_corpus.fields(name)
        leaves = f[f["kind"] == "value"].dropna(subset=["start"])
        covered = np.zeros(v["size"], bool)
        for s, e in zip(leaves.start, leaves.end):
            covered[int(s):int(e)] = True
        assert covered.all(), (name, np.flatnonzero(~covered)[:20])
        # the junk padding is part of the coverage, not a gap
        pads = leaves[leaves.name.str.startswith("pad_")]
        assert (pads.end - pads.start).sum() > 0


# ------------------------------------------------------------------ decoder


def test_half_to_float_known_values():
    assert float(half_to_float(0x4048)) == 3.125
    assert half_to_float(np.array([0x3F80, 0xBF80, 0x0000, 0x4348], np.uint16)).tolist() == [1.0, -1.0, 0.0, 200.0]
    assert half_to_float(np.array([0x4048], np.uint16)).dtype == np.float32
    assert int(float_to_half(3.125)) == 0x4048
    assert int(float_to_half(3.1415927)) == 0x4049  # truncates the low 16 mantissa bits
    with pytest.raises(ValueError):
        half_to_float([0x10000])


def test_decoder_matches_generator(files, sample_corpus):
    raws = np.array([r for _, _, _, t in _tracks(files) if t["raw"] for r in t["raw"]], np.uint16)
    vals = np.array([r for _, _, _, t in _tracks(files) if t["raw"] for r in t["values"]], np.float32)
    assert len(raws) > 100
    assert (half_to_float(raws) == vals).all()
    assert (float_to_half(vals) == raws).all()
    # whole tracks of a parsed file, 16-bit and f32 alike
    name = "mot/kak/0000.mot"
    obj = sample_corpus.parse(name)
    seen = set()
    for a in files[name]["animations"]:
        g = obj.anims[a["anim_id"]].gnta
        for t, tt in zip(g.tracks, a["tracks"]):
            got = track_coords(t)
            if tt["values"] is None:
                assert got.shape == (0, 4)
            else:
                assert got.dtype == np.float32 and got.tolist() == tt["values"]
            seen.add(tt["flags"])
    assert seen == {0x0202, 0x0204, 0x0000}


def test_spec_floats_equal_the_python_decoder(tables):
    # the spec computes x..w from the raw halves itself; the numpy decoder must agree bit for bit
    keys = _gnt4(tables["mot_keys"])
    half = keys[keys.x_raw.notna()]
    assert len(half) > 100
    for c in "xyzw":
        ref = half_to_float(half[f"{c}_raw"].astype(np.uint16).to_numpy())
        assert (half[c].to_numpy(np.float32) == ref).all(), c
    # f32 tracks: no raw halves, floats as read
    f32 = keys[keys.x_raw.isna() & keys.x.notna()]
    assert len(f32) > 10 and f32[["y_raw", "z_raw", "w_raw"]].isna().all().all()


def test_rotation_tracks_decode_to_direction_and_twist(files):
    n = 0
    for _, _, _, t in _tracks(files):
        if t["values"] is None or t["track_flags"] & 0x0F != 0x08:
            continue
        d, twist = rotation_direction_twist(t["values"])
        assert np.allclose(np.linalg.norm(d, axis=1), 1.0)
        v = np.array(t["values"])
        assert np.allclose(d * np.linalg.norm(v[:, :3], axis=1, keepdims=True), v[:, :3])
        assert twist.tolist() == v[:, 3].tolist() and (np.abs(twist) <= 180).all()
        n += 1
    assert n > 50
    d, _ = rotation_direction_twist([[0.0, 0.0, 0.0, 5.0]])
    assert d.tolist() == [[0.0, 0.0, 0.0]]


# ------------------------------------------------------------------ planted regularities and claims


def test_idle_file_equals_idle_animation_of_0000(truth, files, samples_dir, tables):
    tr = tables["mot_tracks"].drop(columns=["ofs_header"])
    for one, zero in truth["planted"]["idle_copies"].items():
        v1, v0 = files[one], files[zero]
        assert v1["num_anim_ids"] == 1 and [a["anim_id"] for a in v1["animations"]] == [0]
        o1, o0 = v1["offsets"][0], v0["offsets"][0]
        n = v1["size"] - o1
        assert (samples_dir / one).read_bytes()[o1:] == (samples_dir / zero).read_bytes()[o0:o0 + n]
        a = tr[tr.file == one].drop(columns="file").reset_index(drop=True)
        b = tr[(tr.file == zero) & (tr.anim_id == 0)].drop(columns="file").reset_index(drop=True)
        pd.testing.assert_frame_equal(a, b)


def test_planted_relations_visible_in_tables(truth, tables):
    p = truth["planted"]
    tr = tables["mot_tracks"]
    tr = tr[tr.file.str.startswith("mot/")]
    # unknown_18 = frame count in 24.8 fixed point except the listed tracks
    frames = (tr.last_key_time * 60).round().astype(int)
    odd = tr[tr.unknown_18 != frames * 256]
    assert {(r.file, r.anim_id, r.track) for r in odd.itertuples()} == {
        (e["file"], e["anim_id"], e["track"]) for e in p["unknown_18_exceptions"]}
    # DISABLED only, and always, on tracks without coordinates
    assert (tr.is_disabled == (tr["flags"] == 0)).all()
    assert {(r.file, r.ofs_header) for r in tr[tr["flags"] == 0].itertuples()} == {
        (e["file"], e["offset"]) for e in p["no_coord_tracks"]}
    # total time is the last key time; end time is the largest total time
    assert (tr.total_time == tr.last_key_time).all()
    an = tables["mot_animations"]
    an = an[an.file.str.startswith("mot/")]
    assert (an.end_time == an.max_total_time).all()
    # flags 0x0204 only in the f32 characters
    f32_files = set(tr[tr["flags"] == 0x0204].file)
    assert f32_files and {f.split("/")[1] for f in f32_files} <= set(p["f32_characters"])


def _claim(text_start: str):
    fmt = get_format("mot")
    found = [c for c in fmt.claims if c.text.startswith(text_start)]
    assert len(found) == 1, text_start
    return found[0]


def _gnt4(df):
    return df[df.file.str.startswith("mot/")]


def test_claims_are_many_and_well_formed(sample_corpus):
    fmt = get_format("mot")
    assert len(fmt.claims) >= 5
    for c in fmt.claims:
        assert c.format == "mot" and c.source and c.text
        # sources are named in words, not as paths of this project
        assert "seeds/" not in c.source and "NOTES" not in c.source and ".txt" not in c.source, c.source
        # every claim says which spec columns it reads, and the loaded spec has them
        assert c.reads, c.text
        assert not not_testable(sample_corpus, c.reads), c.text
        df = c.check(sample_corpus)
        assert list(df.columns) == CLAIM_COLUMNS
        assert len(_gnt4(df)) > 0, c.text
        assert df["offset"].notna().all(), c.text


def test_flags_claim_reports_the_f32_tracks(truth, sample_corpus):
    df = _gnt4(_claim("Track flags are 0x0202 or 0x0000").check(sample_corpus))
    bad = df[~df.holds]
    assert {(r.file, int(r.offset)) for r in bad.itertuples()} == {
        (e["file"], e["offset"]) for e in truth["planted"]["f32_tracks"]}
    assert (bad.value == 0x0204).all() and len(bad) > 10


def test_play_speed_claim_reports_the_planted_exceptions(truth, sample_corpus):
    df = _gnt4(_claim("GNTA play speed").check(sample_corpus))
    bad = df[~df.holds]
    exc = truth["planted"]["play_speed_exceptions"]
    assert {(r.file, int(r.offset), r.value) for r in bad.itertuples()} == {
        (e["file"], e["offset"], e["value"]) for e in exc}
    assert len(exc) == 3


def test_file_size_and_padding_claims(truth, sample_corpus):
    p = truth["planted"]
    df = _gnt4(_claim("MOT file size field").check(sample_corpus))
    bad = df[~df.holds]
    assert bad[["file", "offset", "value"]].values.tolist() == [
        [p["len_file_exception"]["file"], 12, p["len_file_exception"]["value"]]]
    df = _gnt4(_claim("Track header word at 0x0C").check(sample_corpus))
    bad = df[~df.holds]
    e = p["unknown_0c_exception"]
    assert bad[["file", "offset", "value"]].values.tolist() == [[e["file"], e["offset"], e["value"]]]
    df = _gnt4(_claim("Track header word at 0x18").check(sample_corpus))
    assert set(df[df.holds].offset) == {e["offset"] for e in p["unknown_18_exceptions"]}


def test_structural_claims_hold_on_samples(files, sample_corpus):
    for text in ("MOT header size", "MOT header word 0", "Animations are 16-byte aligned", "GNTA header size",
                 "GNTA end time", "Track total time"):
        df = _gnt4(_claim(text).check(sample_corpus))
        assert df.holds.all() and len(df) > 0, text
    df = _gnt4(_claim("Animations are stored in descending id order").check(sample_corpus))
    assert df.holds.all()
    assert len(df) == sum(len(v["animations"]) - 1 for v in files.values())


def test_descending_claim_catches_ascending_storage(files, samples_dir, tmp_path):
    # swap two GNTA offsets of a file: the animations stay readable, the order claim must fail there
    name = "mot/nar/0000.mot"
    v = files[name]
    data = bytearray((samples_dir / name).read_bytes())
    a, b = v["animations"][1]["anim_id"], v["animations"][2]["anim_id"]
    struct.pack_into(">I", data, 16 + 4 * a, v["offsets"][b])
    struct.pack_into(">I", data, 16 + 4 * b, v["offsets"][a])
    (tmp_path / "swapped.mot").write_bytes(bytes(data))
    c = animre.open_corpus(tmp_path, cache=False)
    df = _claim("Animations are stored in descending id order").check(c)
    bad = df[~df.holds]
    assert len(bad) >= 1 and set(bad.file) == {"swapped.mot"}
    assert int(bad.offset.iloc[0]) in (16 + 4 * a, 16 + 4 * b)


# ------------------------------------------------------------------ detection and hostile input


def test_detected_by_content(files, samples_dir):
    for name in list(files)[::3]:
        data = (samples_dir / name).read_bytes()
        fmt, score = detect_format(data[:4096], len(data), "renamed.bin")
        assert fmt is not None and fmt.name == "mot", name
        assert score >= 0.5
    fmt, _ = detect_format(bytes(64), 64, "zeros.bin")
    assert fmt is None or fmt.name != "mot"
    noise = np.random.default_rng(1).integers(0, 256, 4096, dtype=np.uint8).tobytes()
    fmt, _ = detect_format(noise, len(noise), "noise.bin")
    assert fmt is None or fmt.name != "mot"


def _mutated(samples_dir, name, pos, fmt, value):
    data = bytearray((samples_dir / name).read_bytes())
    struct.pack_into(fmt, data, pos, value)
    return bytes(data)


def test_key_count_beyond_the_file_fails_naming_the_field(files, samples_dir):
    name = "mot/nar/0000.mot"
    a = files[name]["animations"][1]
    t = a["tracks"][2]
    slot = a["anim_id"]
    for fmt, pos, value in ((">H", t["offset"] + 6, 0xFFFF), (">I", t["offset"] + 4, 0xFFFFFFFF)):
        bad = _mutated(samples_dir, name, pos, fmt, value)
        with pytest.raises(ParseError) as ei:
            parse(bad, "bad.mot", "mot")
        e = ei.value
        assert e.path == f"anims[{slot}].gnta.tracks[2].num_keys", e.path
        assert e.offset == t["offset"] + 6
        assert "65535" in str(e) and str(e).startswith("bad.mot: ")


@pytest.mark.parametrize("field, where, value", [
    ("num_anim_ids", "header", 0xFFFFFFFF),
    ("num_tracks", "gnta", 0xFFFFFFFF),
    ("ofs_times", "track", 0xFFFFFFFF),
    ("ofs_coords", "track", 0xFFFFFFF0),
    ("ofs_gnta", "slot", 0x7FFFFFF0),
])
def test_hostile_counts_and_offsets_fail_naming_the_field(files, samples_dir, field, where, value):
    name = "mot/sas/0000.mot"
    v = files[name]
    a = v["animations"][2]
    t = next(t for t in a["tracks"] if t["ofs_coords"])
    ti = a["tracks"].index(t)
    pos, path = {
        "header": (4, "num_anim_ids"),
        "slot": (16 + 4 * a["anim_id"], f"anims[{a['anim_id']}].ofs_gnta"),
        "gnta": (a["offset"], f"anims[{a['anim_id']}].gnta.num_tracks"),
        "track": (t["offset"] + {"ofs_times": 0x10, "ofs_coords": 0x14}.get(field, 0),
                  f"anims[{a['anim_id']}].gnta.tracks[{ti}].{field}"),
    }[where]
    with pytest.raises(ParseError) as ei:
        parse(_mutated(samples_dir, name, pos, ">I", value), "bad.mot", "mot")
    assert ei.value.path == path and ei.value.offset == pos


def test_truncated_and_empty_files_are_parse_errors(files, samples_dir, tmp_path):
    name = "mot/ino/0000.mot"
    data = (samples_dir / name).read_bytes()
    for cut in (0, 3, 15, 16, 40, len(data) // 2):
        with pytest.raises(ParseError) as ei:
            parse(data[:cut], f"cut{cut}.mot", "mot")
        assert 0 <= ei.value.offset <= max(cut, 16)
    (tmp_path / "half.mot").write_bytes(data[: len(data) // 2])
    (tmp_path / "good.mot").write_bytes(data)
    c = animre.open_corpus(tmp_path, cache=False)
    assert c.errors.file.tolist() == ["half.mot"] and c.errors.format.tolist() == ["mot"]
    assert len(c.tables["mot_animations"]) == len(files[name]["animations"])
