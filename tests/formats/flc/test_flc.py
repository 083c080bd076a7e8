"""FLI/FLC + Civ3 FlicAnim: spec, tables, claims and frame roles against the manifest and
the real files (read in place); frame decoding against the generator's images and Pillow is in
test_flc_decode.py.

Tables come from the spec (``flc_files`` with ``header.*`` / ``header.flicanim.*`` columns,
``flc_frames`` keyed by ``chunk_index``, ``flc_chunks`` keyed by ``chunk_index, chunk``) plus the
derived columns of ``animre.formats.flc``; every value is checked against the generator's
manifest or the real files' bytes."""

from __future__ import annotations

import struct

import numpy as np
import pandas as pd
import pytest

import animre
from animre.base.errors import ParseError
from animre.formats import detect_format, get_format
from animre.formats.flc.decode import (
    DIRECTION_NAMES,
    civ3_directions,
    decode_all,
    decode_frames,
    frame_roles,
    place_on_canvas,
)
from animre.tables.read import parse

# sub-chunk types of the FLIC format description (Jim Kent / Autodesk): the truth the spec's enum is checked against
SUB_CHUNK_NAMES = {4: "color_256", 7: "delta_flc", 11: "color_64", 12: "delta_fli", 13: "black",
                   15: "byte_run", 16: "copy", 18: "pstamp"}


CDCD = 0xCDCDCDCD
FA = "header.flicanim."
SETTLER = ("Build", "Captured", "Death", "Default", "Fidget", "Run")




@pytest.fixture(scope="module")
def flc_tables(sample_corpus):
    return {k: v for k, v in sample_corpus.tables.items() if k.startswith("flc_")}


@pytest.fixture(scope="module")
def real_corpus(realdata):
    return animre.open_corpus(realdata / "flic", cache=False)


def _rows(df, name):
    return df[df.file == name]


def _na(v):
    return None if v is None or pd.isna(v) else int(v)


def _ofs(corpus, table, column, rows):
    """Absolute start offsets of ``column`` for the rows ``rows`` (a DataFrame slice of ``table``)."""
    return corpus.offsets(table, column, rows.index)


# ---------------------------------------------------------------------------- generated samples


def test_every_sample_parses_to_its_end(truth, samples_dir, sample_corpus):
    files = sample_corpus.files.set_index("file")
    assert len(truth["files"]) == 8
    for name, v in truth["files"].items():
        assert files.loc[name, "format"] == "flc", name
        assert bool(files.loc[name, "ok"]), name
        data = (samples_dir / name).read_bytes()
        assert len(data) == v["size"] == v["header"]["len_file"]
        _, obj, _ = parse(data, name, "flc")
        end = obj._debug["chunks"]["arr"][-1]["end"]
        assert end == len(data) and obj._io.is_eof()
        assert len(obj.chunks) == v["num_chunks"]


def test_files_table_equals_manifest(truth, flc_tables):
    files = flc_tables["flc_files"].set_index("file")
    for name, v in truth["files"].items():
        row = files.loc[name]
        h = v["header"]
        for k in ("magic", "len_file", "num_frames", "width", "height", "depth", "flags", "speed", "created",
                  "creator", "updated", "updater", "aspect_x", "aspect_y", "ofs_frame1", "ofs_frame2"):
            assert row["header." + k] == h[k], (name, k)
        fa = v["flicanim"]
        assert bool(row["is_flicanim"]) == (fa is not None)
        if fa is None:
            assert row[FA + "num_anims"] == 0 and row[FA + "len_header"] == 0
        else:
            assert row[FA + "len_header"] == fa["len_header"] == 28
            assert row[FA + "flags"] == fa["flags"]
            for k in ("num_anims", "anim_length", "x_offset", "y_offset", "xs_orig", "ys_orig", "anim_time",
                      "directions"):
                assert row[FA + k] == fa[k], (name, k)
        assert row["num_chunks"] == v["num_chunks"]
        assert row["num_frame_chunks"] == v["num_frame_chunks"] == len(v["frames"])
        assert row["num_ring_frames"] == v["num_ring_frames"]
        assert row["num_image_frames"] == h["num_frames"]
        assert bool(row["has_prefix"]) == ("prefix" in v)
        assert bool(row["len_file_matches"]) and not row["is_truncated"]
        subs = [c for f in v["frames"] for c in f["chunks"]]
        assert row["num_palette_chunks"] == sum(c["type"] in (4, 11) for c in subs)
        assert row["num_palettes_bad_size"] == sum(c["len_chunk"] == CDCD for c in subs)
        assert row["num_frames_count_mismatch"] == sum(f["num_chunks"] != f["num_chunks_found"] for f in v["frames"])
        palette_frames = sorted({f["frame"] for f in v["frames"] for c in f["chunks"] if c["type"] in (4, 11)})
        assert bool(row["palette_only_in_first_frame"]) == (palette_frames == [0])
        assert row["duration_ms"] == h["speed"]  # FLC speeds are milliseconds


def test_every_derived_column_and_claim_is_available(sample_corpus, real_corpus):
    """Every spec column the derived columns and claims read exists (a rename would make them "not testable")."""
    fmt = get_format("flc")
    for corpus in (sample_corpus, real_corpus):
        un = corpus.unavailable
        assert un[un["format"] == "flc"].empty, un
        for d in fmt.derived:
            assert d.column in corpus.tables[d.table].columns, (d.table, d.column)
        for c in fmt.claims:
            assert c.reads and all(corpus.has_column(t, col) for t, col in c.reads), c.text
    for c in fmt.claims:  # sources are public documents named in words, not files of the project
        assert "/" not in c.source and not c.source.endswith((".md", ".txt")), c.source


def test_frames_and_chunks_tables_equal_manifest(truth, flc_tables, sample_corpus):
    frames, chunks = flc_tables["flc_frames"], flc_tables["flc_chunks"]
    for name, v in truth["files"].items():
        fr = _rows(frames, name).sort_values("frame")
        fr = fr.assign(ofs_chunk=_ofs(sample_corpus, "flc_frames", "len_chunk", fr).to_numpy()).reset_index(drop=True)
        assert len(fr) == len(v["frames"])
        ch = _rows(chunks, name)
        ch = ch.assign(ofs_chunk=_ofs(sample_corpus, "flc_chunks", "len_chunk", ch).to_numpy()).set_index(
            ["frame", "chunk"])
        for i, f in enumerate(v["frames"]):
            r = fr.loc[i]
            assert r["frame"] == f["frame"] and r["ofs_chunk"] == f["offset"]
            assert r["chunk_index"] == f["frame"] + ("prefix" in v)  # the prefix chunk counts
            assert r["len_chunk"] == r["len_body"] + 6 == f["len_chunk"] and not r["is_truncated"]
            assert r["chunk_type"] == 0xF1FA and r["chunk_type_name"] == "frame"
            assert (r["body.num_chunks"], r["body.num_chunks_found"]) == (f["num_chunks"], f["num_chunks_found"])
            assert (r["body.delay"], r["body.reserved_4"]) == (f["delay"], f["reserved"])
            assert bool(r["is_ring"]) == f["is_ring"]
            assert _na(r["image_frame"]) == f["image"]
            assert _na(r["direction"]) == f["direction"]
            assert (None if pd.isna(r["direction_name"]) else r["direction_name"]) == f["direction_name"]
            assert r["chunk_types"] == "+".join(SUB_CHUNK_NAMES[c["type"]] for c in f["chunks"])
            for j, c in enumerate(f["chunks"]):
                s = ch.loc[(f["frame"], j)]
                assert s["chunk_type"] == c["type"] and s["chunk_type_name"] == SUB_CHUNK_NAMES[c["type"]]
                assert s["len_chunk"] == c["len_chunk"] and s["len_real"] == c["len_real"]
                assert s["ofs_chunk"] == c["offset"] and s["chunk_index"] == r["chunk_index"]
                assert bool(s["has_valid_size"]) == (c["len_chunk"] == c["len_real"])
                assert bool(s["is_palette"]) == (c["type"] in (4, 11))
            assert sum(1 for k in ch.index if k[0] == f["frame"]) == len(f["chunks"])


def test_frame_roles_of_decoder_and_table_agree(truth, samples_dir, flc_tables):
    """The vectorised roles (derived columns) and the decoder's per-file roles give the manifest's roles."""
    frames = flc_tables["flc_frames"]
    for name, v in truth["files"].items():
        fr = _rows(frames, name).sort_values("frame")
        roles = decode_all(samples_dir / name).roles
        expected = [(f["frame"], f["image"], f["is_ring"], f["direction"], f["direction_name"]) for f in v["frames"]]
        assert [(r.frame, r.image, r.is_ring, r.direction, r.direction_name) for r in roles] == expected
        assert [(int(r.frame), _na(r.image_frame), bool(r.is_ring), _na(r.direction),
                 None if pd.isna(r.direction_name) else r.direction_name) for r in fr.itertuples()] == expected


def test_every_cell_maps_to_its_bytes(samples_dir, sample_corpus, truth, truths):
    df = sample_corpus.tables["flc_files"]
    fmts = {"header.speed": "<I", "header.creator": "<I", "header.num_frames": "<H", FA + "anim_time": "<I",
            FA + "x_offset": "<H", FA + "directions": "<i", FA + "len_header": "<I"}
    offsets = {"header.speed": 0x10, "header.creator": 0x1A, "header.num_frames": 0x06, FA + "anim_time": 0x6C,
               FA + "x_offset": 0x64, FA + "directions": 0x70, FA + "len_header": 0x58}
    for i in df.index:
        data = sample_corpus.read_bytes(df.at[i, "file"])
        for col, f in fmts.items():
            s, e = sample_corpus.span("flc_files", i, col)
            assert (s, e - s) == (offsets[col], struct.calcsize(f))
            assert struct.unpack(f, data[s:e])[0] == df.at[i, col]
    ch = sample_corpus.tables["flc_chunks"]
    offs = {(c["file"], c["offset"]) for c in truth["planted"]["cdcd_palettes"]}
    all_offs = {(name, c["offset"]) for name, v in truths("flc").items() for f in v["frames"] for c in f["chunks"]}
    assert offs <= all_offs
    for i in ch.index[::37]:
        data = sample_corpus.read_bytes(ch.at[i, "file"])
        s, _ = sample_corpus.span("flc_chunks", i, "len_chunk")
        assert (ch.at[i, "file"], s) in all_offs  # the sub-chunk's offset in the manifest
        assert struct.unpack_from("<IH", data, s) == (ch.at[i, "len_chunk"], ch.at[i, "chunk_type"])
        s, e = sample_corpus.span("flc_chunks", i, "chunk_type")
        assert e - s == 2 and struct.unpack_from("<H", data, s)[0] == ch.at[i, "chunk_type"]
    fr = sample_corpus.tables["flc_frames"]
    for i in fr.index[::11]:
        data = sample_corpus.read_bytes(fr.at[i, "file"])
        s, e = sample_corpus.span("flc_frames", i, "body.delay")
        assert e - s == 2 and struct.unpack_from("<H", data, s)[0] == fr.at[i, "body.delay"]
        assert s == sample_corpus.span("flc_frames", i, "len_chunk")[0] + 8


def _coverage(corpus, name, size):
    f = corpus.fields(name)
    leaves = f[f["kind"] == "value"].dropna(subset=["start"])  # leaf values only, no records or arrays
    assert len(leaves) > 100
    covered = np.zeros(size, bool)
    for s, e in zip(leaves.start, leaves.end):
        covered[int(s):int(e)] = True
    return covered


def test_byte_coverage_is_complete(truth, sample_corpus):
    for name, v in truth["files"].items():
        covered = _coverage(sample_corpus, name, v["size"])
        assert covered.all(), (name, np.flatnonzero(~covered)[:10])


def test_byte_coverage_of_real_files(real_corpus):
    for name in ("civ3/settler/Default.flc", "standard/2422.flc", "standard/hopper.fli"):
        size = real_corpus.path(name).stat().st_size
        covered = _coverage(real_corpus, name, size)
        assert covered.all(), (name, np.flatnonzero(~covered)[:10])


def test_planted_regularities_are_visible(truth, flc_tables, sample_corpus, truths, count_distinct):
    p = truth["planted"]
    files = flc_tables["flc_files"].set_index("file")
    units = files.loc[p["unit_files"]]
    speed, width, height = units["header.speed"], units["header.width"], units["header.height"]
    assert list(units.index[speed == 4]) == [p["speed_4_file"]["file"]]
    others = units.drop(index=p["speed_4_file"]["file"])
    assert others["header.speed"].between(*p["speed_range"]).all()
    holds = units[FA + "anim_time"] == units[FA + "anim_length"] * speed
    assert list(units.index[~holds]) == p["anim_time_exceptions"]
    assert (units[FA + "x_offset"] == (240 - width) // 2).all()
    feet = units[FA + "y_offset"] + height == 170
    assert list(units.index[~feet]) == [p["feet_line_exception"]]
    chunks = flc_tables["flc_chunks"]
    cd = chunks[chunks.len_chunk == CDCD]
    cd_offs = _ofs(sample_corpus, "flc_chunks", "len_chunk", cd)
    assert sorted(zip(cd.file, cd_offs)) == sorted((c["file"], c["offset"]) for c in p["cdcd_palettes"])
    assert (cd.len_real == 778).all() and (cd.chunk_type_name == "color_256").all()
    assert not cd.has_valid_size.any() and cd["palette_unsized.num_packets"].notna().all()
    frames = flc_tables["flc_frames"]
    bad = frames[frames["body.num_chunks"] != frames["body.num_chunks_found"]]
    assert sorted(zip(bad.file, bad.frame)) == sorted((c["file"], c["frame"]) for c in p["extra_subchunk_frames"])
    assert ((bad["body.num_chunks"] - bad["body.num_chunks_found"]) == 1).all()
    unit_frames = frames[frames.file.isin(p["unit_files"])]
    assert ((unit_frames["body.reserved_4"] == 1) == unit_frames.is_ring.astype(bool)).all()
    all_units = [f for f, v in truths("flc").items() if v.get("flicanim")]  # with the zipped unit pack
    assert (frames[~frames.file.isin(all_units)]["body.reserved_4"] == 0).all()
    empty = frames[frames["body.num_chunks_found"] == 0]
    assert sorted(zip(empty.file, empty.frame)) == sorted((e["file"], e["frame"]) for e in p["empty_frames"])
    assert len(empty) >= 1 and (empty.chunk_types == "").all()
    assert files["header.updater"].nunique() == count_distinct(truths("flc"))  # a loose copy shares its member's


def test_claims_on_samples(sample_corpus, truth, truths):
    p = truth["planted"]
    claims = {c.text: c.check(sample_corpus) for c in get_format("flc").claims}
    assert len(claims) >= 5
    units = [f for f, v in truths("flc").items() if v.get("flicanim")]  # loose and zipped unit files
    for text, r in claims.items():  # every claim is tested on the unit files only (not the plain FLC)
        assert sorted(r.file) == sorted(units), text
        assert r.offset.isna().all() or (r.offset >= 0).all()
    speed = claims["Civ3 FLC header speed is 4"]
    speed = speed[speed.file.str.startswith("flc/")]
    assert list(speed.file[speed.holds]) == [p["speed_4_file"]["file"]]
    assert (speed.offset == 0x10).all()
    anim = claims["anim_time = anim_length x 1000 / fps, fps = 1000 / speed"]
    anim = anim[anim.file.str.startswith("flc/")]
    assert list(anim.file[~anim.holds]) == p["anim_time_exceptions"]
    size_plus_one = claims["the actual number of frames is Size + 1 (one ring frame)"]
    assert not size_plus_one[size_plus_one.file.str.startswith("flc/")].holds.any()
    for text in ("Civ3 FLC creator is 0xF1F1F2F2 (FLICSPRITE_CREATOR)",
                 "xs_orig = ys_orig = 240 (unit sprites are 240 x 240)",
                 "header frames = num_anims x anim_length",
                 "directions = 0xFF (all eight directions present)",
                 "one ring frame after each direction: frame chunks = num_anims x (anim_length + 1)",
                 "a palette only in the first frame"):
        r = claims[text]
        r = r[r.file.str.startswith("flc/")]
        assert len(r) == len(p["unit_files"]) and r.holds.all(), text


def test_palette_with_impossible_size_is_read_by_packets(truth, samples_dir):
    name = truth["planted"]["cdcd_palettes"][0]["file"]
    _, obj, _ = parse((samples_dir / name).read_bytes(), name, "flc")
    sub = obj.chunks[0].body.chunks[1]
    assert sub.len_chunk == CDCD and not sub.has_valid_size and getattr(sub, "body", None) is None
    pal = sub.palette_unsized
    assert pal.num_packets == 1 and pal.packets[0].num_colors == 256 and len(pal.padding) == 0
    rgb = [(c.r, c.g, c.b) for c in pal.packets[0].colors]
    assert rgb == [tuple(c) for c in truth["files"][name]["palette"]]


# ---------------------------------------------------------------------------- real files


def test_settler_flcs(realdata, real_corpus):
    files = real_corpus.tables["flc_files"].set_index("file")
    frames = real_corpus.tables["flc_frames"]
    for action in SETTLER:
        name = f"civ3/settler/{action}.flc"
        r = files.loc[name]
        assert bool(r.is_flicanim) and r[FA + "len_header"] == 28
        assert (r[FA + "num_anims"], r[FA + "anim_length"], r["header.num_frames"]) == (8, 15, 120)
        assert r.num_frame_chunks == 128 and r.num_ring_frames == 8
        assert (r[FA + "xs_orig"], r[FA + "ys_orig"], r[FA + "directions"], r["header.creator"]) == (
            240, 240, 0xFF, 0xF1F1F2F2)
        assert 44 <= r["header.speed"] <= 125 and r[FA + "anim_time"] == 15 * r["header.speed"]
        assert r.num_palette_chunks == 1 and bool(r.palette_only_in_first_frame)
        fr = _rows(frames, name)
        assert sorted(fr.frame[fr.is_ring.astype(bool)]) == [16 * d + 15 for d in range(8)]
        d = decode_all(realdata / "flic" / name)
        assert [(r.frame, r.image, r.is_ring, r.direction, r.direction_name) for r in d.roles] == [
            (int(r.frame), _na(r.image_frame), bool(r.is_ring), _na(r.direction),
             None if pd.isna(r.direction_name) else r.direction_name) for r in fr.sort_values("frame").itertuples()]
        assert d.frames.shape == (128, 100, 100)
        dirs = civ3_directions(realdata / "flic" / name)
        assert list(dirs) == list(DIRECTION_NAMES)
        assert all(v.shape == (15, 100, 100) for v in dirs.values())
        for role in d.roles:  # every frame decoded; each ring frame loops back to its direction's first
            if role.is_ring:
                assert np.array_equal(d.frames[role.frame], dirs[role.direction_name][0])
        assert len(np.unique(dirs["SW"][0])) > 20  # a real picture, not a blank canvas
        assert tuple(d.palettes[0, 255]) == (255, 0, 255)  # Civ3's transparent magenta
        canvas = place_on_canvas(dirs["N"][3], d.flicanim)
        assert canvas.shape == (240, 240)
        assert np.array_equal(canvas[55:155, 70:170], dirs["N"][3])


def test_settler_claims_report_the_speed(real_corpus):
    claims = {c.text: c.check(real_corpus) for c in get_format("flc").claims}
    speed = claims["Civ3 FLC header speed is 4"]
    assert len(speed) == 6 and not speed.holds.any()
    assert speed.value.between(44, 125).all() and (speed.offset == 0x10).all()
    assert not claims["the actual number of frames is Size + 1 (one ring frame)"].holds.any()
    for text in ("Civ3 FLC creator is 0xF1F1F2F2 (FLICSPRITE_CREATOR)",
                 "one ring frame after each direction: frame chunks = num_anims x (anim_length + 1)",
                 "FlicAnimHeader size is 28 (0x1C) in files made by the FlicAnim tool",
                 "a palette only in the first frame"):
        assert len(claims[text]) == 6 and claims[text].holds.all(), text


def test_standard_files(realdata, real_corpus):
    files = real_corpus.tables["flc_files"].set_index("file")
    a = files.loc["standard/a.fli"]
    assert (a["header.magic"], a["header.num_frames"], a["header.width"], a["header.height"],
            a.num_frame_chunks) == (0xAF11, 384, 320, 200, 385)
    assert not a.is_flicanim and a.is_fli and a.duration_ms == a["header.speed"] * 1000 // 70
    frames, palettes = decode_frames(realdata / "flic/standard/a.fli")
    assert frames.shape == (384, 200, 320) and palettes.shape == (384, 256, 3)
    s = files.loc["standard/2422.flc"]
    assert (s["header.num_frames"], s.num_frame_chunks, s.num_ring_frames, s.has_prefix) == (27, 28, 1, True)
    ch = real_corpus.tables["flc_chunks"]
    stamp = ch[(ch.file == "standard/2422.flc") & (ch.chunk_type_name == "pstamp")]
    assert len(stamp) == 1 and stamp.iloc[0].len_chunk == 0x200
    assert _ofs(real_corpus, "flc_chunks", "len_chunk", stamp).tolist() == [2922]
    assert (stamp.iloc[0]["body.height"], stamp.iloc[0]["body.width"], stamp.iloc[0]["body.color_translation"]) == (
        63, 100, 1)
    obj = real_corpus.parse("standard/2422.flc")
    ps = obj.chunks[1].body.chunks[0].body
    assert (ps.height, ps.width, ps.color_translation, len(ps.data)) == (63, 100, 1, 0x200 - 12)
    assert struct.unpack_from("<IH", ps.data) == (500, 15)  # the stamp image is a BYTE_RUN sub-chunk
    assert decode_frames(realdata / "flic/standard/2422.flc")[0].shape == (27, 200, 320)
    frames = real_corpus.tables["flc_frames"]
    for name in ("standard/a.fli", "standard/2422.flc", "standard/hopper.fli"):  # table roles = decoder roles
        fr = _rows(frames, name).sort_values("frame")
        assert [(r.frame, r.chunk, r.image, r.is_ring, r.direction) for r in frame_roles(real_corpus.parse(name))] == [
            (int(r.frame), int(r.chunk_index), _na(r.image_frame), bool(r.is_ring), _na(r.direction))
            for r in fr.itertuples()], name
    for name in ("standard/hopper.fli", "standard/hopper_palette_chunk_second.fli"):
        h = files.loc[name]
        size = (realdata / "flic" / name).stat().st_size
        assert h["header.len_file"] == size + 1 and not h.len_file_matches and h.is_truncated
        assert h.num_frame_chunks == 1 and h.num_image_frames == 1


def test_malformed_fli_gives_a_clear_error(realdata):
    c = animre.open_corpus(realdata / "flic" / "malformed", cache=False)
    assert len(c.errors) == 1 and not c.files.ok.any()
    e = c.errors.iloc[0]
    assert e.file == "fli_overflow.fli" and e.format == "flc"
    assert e.path == "chunks[0].body.chunks[2].body" and e.offset == 549
    assert "requested 1018 bytes" in e.message and e.message.startswith("fli_overflow.fli: ")
    with pytest.raises(ParseError) as ei:
        decode_frames(realdata / "flic/malformed/fli_overflow.fli")
    assert ei.value.offset == 549


def test_later_palette_chunks_apply_from_their_frame(realdata, real_corpus):
    """Pillow keeps the first palette; a.fli changes a few entries at frames 274 and 275."""
    path = realdata / "flic/standard/a.fli"
    data = path.read_bytes()
    first, first_pal = decode_frames(path, palette_changes=False)
    frames, palettes = decode_frames(path)
    assert np.array_equal(frames, first)
    ch = real_corpus.tables["flc_chunks"]
    pals = ch[(ch.file == "standard/a.fli") & (ch.chunk_type_name == "color_64")].sort_values("frame")
    pals = pals.assign(ofs_chunk=_ofs(real_corpus, "flc_chunks", "len_chunk", pals).to_numpy())
    assert list(pals.frame) == [0, 274, 275]
    expected = first_pal[0].astype(int).copy()
    change_at = {}
    for r in pals.iloc[1:].itertuples():  # apply the later packets by hand (6-bit values << 2)
        pos = r.ofs_chunk + 6
        (n,) = struct.unpack_from("<H", data, pos)
        pos += 2
        idx = 0
        for _ in range(n):
            skip, cnt = data[pos], data[pos + 1] or 256
            pos += 2
            idx += skip
            for _ in range(cnt):
                expected[idx] = [v << 2 for v in data[pos:pos + 3]]
                idx += 1
                pos += 3
        change_at[r.frame] = expected.copy()
    assert np.array_equal(palettes[:274], first_pal[:274])
    assert np.array_equal(palettes[274], change_at[274]) and np.array_equal(palettes[275:], np.broadcast_to(
        change_at[275], palettes[275:].shape))
    assert not np.array_equal(palettes[274], first_pal[274])  # frame 275 restores most entries


# ---------------------------------------------------------------------------- bad input


def test_detection_by_content(realdata, samples_dir):
    for p in sorted((realdata / "flic").rglob("*.fl?")):
        head = p.read_bytes()[:4096]
        fmt, _ = detect_format(head, p.stat().st_size, "renamed.bin")
        assert fmt is not None and fmt.name == "flc", p
    rng = np.random.default_rng(1)
    noise = rng.integers(0, 256, 4096, dtype=np.uint8).tobytes()
    assert get_format("flc").detect(noise[:4] + b"\x00\x00" + noise[6:], 4096, "x.flc") == 0.0


