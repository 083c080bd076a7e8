"""One Must Fall 2097 AF and BK: specs, generator, tables, claims and sprite decoding vs the manifest
(sprite streams and the generator's images: test_omf_sprites.py)."""

from __future__ import annotations

import hashlib
import shutil
import struct

import numpy as np
import pandas as pd
import pytest

import animre
from animre.base.errors import ParseError
from animre.formats import detect_format, get_format
from animre.formats.omf import SOURCE_NOTES, SOURCE_OPENOMF
from animre.formats.omf import samples as gen
from animre.formats.omf.sprites import (
    bk_palette,
    sprite_images,
)
from animre.spec.parse import parse_bytes
from animre.tables.read import parse

AF, BK = get_format("af"), get_format("bk")  # as registered: the plugin's claims and the spec's

FOOTER_LAYOUT = [  # (column, offset in the move footer, struct format) from the openomf AF reader
    ("ai_flags", 0, "<H"), ("pos_constraint", 2, "<H"),
    *[(f"unknown_{i}", i, "<B") for i in range(4, 12)],
    ("next_anim_on_hit", 12, "<B"), ("category", 13, "<B"), ("block_damage", 14, "<B"),
    ("block_stun", 15, "<B"), ("successor_id", 16, "<B"), ("damage", 17, "<B"), ("unknown_18", 18, "<B"),
    ("extra_string_selector", 19, "<B"), ("points", 20, "<B"),
]
CATEGORY_NAMES = {  # the community notes' educated guesses for footer byte 13
    0: "misc", 2: "close", 4: "low", 5: "medium", 6: "high", 7: "jumping", 8: "projectile",
    9: "basic", 10: "victory_or_fire_ice", 11: "defeat_or_victory", 12: "scrap", 13: "destruction",
}
HEADER_FIELDS = ["fighter_id", "exec_window", "endurance", "unknown_8", "health", "forward_speed",
                 "reverse_speed", "jump_speed", "fall_speed", "unknown_27", "unknown_28"]




@pytest.fixture(scope="module")
def af_truth(truth):
    return {f: v for f, v in truth["files"].items() if f.endswith(".AF")}


@pytest.fixture(scope="module")
def bk_truth(truth):
    return {f: v for f, v in truth["files"].items() if f.endswith(".BK")}


@pytest.fixture(scope="module")
def real_bk(realdata):
    return realdata / "omf" / "openomf.bk"


def _by(df, *keys):
    return {tuple(r[k] for k in keys): r for r in df.to_dict("records")}


def _nul(v):
    return None if v is None or pd.isna(v) else int(v)


def _row(corpus, table: str, file: str) -> int:
    (i,) = corpus.tables[table].index[corpus.tables[table]["file"] == file]
    return int(i)


def _ours(files: pd.Series) -> pd.Series:
    return files.str.startswith(("af/", "bk/"))


# ----------------------------------------------------------------------------- the corpus


def test_generator_shape(af_truth, bk_truth):
    assert sorted(af_truth) == sorted(f"af/FIGHTR{i}.AF" for i in range(11))
    assert 2 <= len(bk_truth) <= 3 and all(f.startswith("bk/") for f in bk_truth)
    for name, v in af_truth.items():
        assert 40 <= len(v["moves"]) <= 70, name
        assert v["header"]["exec_window"] == 10
        assert v["sound_ids"][-5:] == list(b"FGHED")
    coords = [c for v in af_truth.values() for m in v["moves"] for c in m["animation"]["coords"]]
    assert any(c["x"] < 0 for c in coords) and any(c["y"] < 0 for c in coords)
    sprites = [s for v in af_truth.values() for m in v["moves"] for s in m["animation"]["sprites"]]
    assert sum(s["missing"] for s in sprites) >= 20
    assert any(s["len_data"] == 0 and not s["missing"] for s in sprites)  # an empty image: no pixel bytes
    assert all(bk["animations"] for bk in bk_truth.values())


def test_every_sample_parses_to_its_end(truth, sample_corpus, samples_dir):
    files = sample_corpus.files.set_index("file")
    for name, v in truth["files"].items():
        assert files.loc[name, "format"] == ("af" if name.endswith(".AF") else "bk"), name
        assert bool(files.loc[name, "ok"]), name
        assert files.loc[name, "size"] == v["size"] == (samples_dir / name).stat().st_size
    assert not _ours(sample_corpus.errors["file"]).any()
    for t in ("af_fighters", "bk_files"):
        assert (sample_corpus.tables[t]["len_trailing"] == 0).all()
        assert (sample_corpus.tables[t]["trailing"] == b"").all()
    # every derived column and claim reads columns the specs have
    assert sample_corpus.unavailable[sample_corpus.unavailable["format"].isin(["af", "bk"])].empty


def test_tables_and_keys_come_from_the_specs(sample_corpus):
    want = {"af_fighters": [], "af_moves": ["move"], "af_sprites": ["move", "sprite"],
            "af_coords": ["move", "coord"], "af_extra_strings": ["move", "string"], "bk_files": [],
            "bk_animations": ["animation"], "bk_sprites": ["animation", "sprite"],
            "bk_coords": ["animation", "coord"], "bk_extra_strings": ["animation", "string"],
            "bk_palettes": ["palette"]}
    for t, keys in want.items():
        assert sample_corpus.keys(t) == ["file", *keys], t
    cols = sample_corpus.columns("af_moves").set_index("column")
    assert cols.at["category_name", "kind"] == "enum name"
    assert cols.at["footer_string.text", "field"] == "footer_string.text"


def test_af_fighters_equal_manifest(af_truth, sample_corpus):
    rows = _by(sample_corpus.tables["af_fighters"], "file")
    assert set(rows) == {(f,) for f in af_truth}
    for name, v in af_truth.items():
        r = rows[(name,)]
        for k in HEADER_FIELDS:
            assert r[k] == v["header"][k], (name, k)
        assert r["num_moves"] == len(v["moves"])
        assert r["terminator"] == v["terminator"] == 250
        assert r["ofs_terminator_from_end"] == v["size"] - v["ofs_terminator"] == 31
        assert [r[f"sound_ids[{i}]"] for i in range(30)] == v["sound_ids"]


def test_af_moves_equal_manifest(af_truth, sample_corpus):
    rows = _by(sample_corpus.tables["af_moves"], "file", "move")  # move = position in the file
    assert len(rows) == sum(len(v["moves"]) for v in af_truth.values())
    for name, v in af_truth.items():
        for pos, m in enumerate(v["moves"]):
            r = rows[(name, pos)]
            a, f, fs = m["animation"], m["footer"], m["footer_string"]
            assert r["move_number"] == m["move"], (name, pos)
            for k in ("start_x", "start_y"):
                assert r[f"animation.{k}"] == a[k], (name, m["move"], k)
            assert r["animation.unknown_4"] == a["unknown_4"]
            assert r["animation.num_coords"] == len(a["coords"])
            assert r["animation.num_sprites"] == len(a["sprites"])
            assert r["animation.anim_string.text"] == a["anim_string"]
            assert r["animation.anim_string.len_str"] == len(a["anim_string"])
            assert r["animation.anim_string.terminator"] == 0
            assert r["animation.num_extra_strings"] == len(a["extra_strings"])
            for col, _, _ in FOOTER_LAYOUT:
                assert r[col] == f[col], (name, m["move"], col)
            assert r["category_name"] == CATEGORY_NAMES[f["category"]]
            assert r["move_string.text"] == m["move_string"]
            assert r["move_string.raw"] == bytes.fromhex(m["move_string_raw"])
            assert r["footer_string.len_str"] == fs["len"]
            assert r["footer_string.text"] == fs["text"]
            assert _nul(r["footer_string.terminator"]) == fs["nul"]


def test_af_children_equal_manifest(af_truth, sample_corpus):
    sprites = _by(sample_corpus.tables["af_sprites"], "file", "move", "sprite")
    coords = _by(sample_corpus.tables["af_coords"], "file", "move", "coord")
    extras = _by(sample_corpus.tables["af_extra_strings"], "file", "move", "string")
    n_s = n_c = n_e = 0
    for name, v in af_truth.items():
        for pos, m in enumerate(v["moves"]):
            a = m["animation"]
            for i, s in enumerate(a["sprites"]):
                r = sprites[(name, pos, i)]
                for k in ("len_data", "x", "y", "width", "height", "index", "missing"):
                    assert r[k] == s[k], (name, m["move"], i, k)
                assert r["has_pixels"] == (s["missing"] == 0 and s["len_data"] > 0)
                assert len(r["pixels"]) == (0 if s["missing"] else s["len_data"])
                n_s += 1
            for i, c in enumerate(a["coords"]):
                r = coords[(name, pos, i)]
                assert (r["raw"], r["x"], r["y"], r["frame"], r["unknown_bits_10_15"]) == (
                    c["raw"], c["x"], c["y"], c["frame"], c["unknown_bits_10_15"]), (name, m["move"], i)
                n_c += 1
            for i, text in enumerate(a["extra_strings"]):
                r = extras[(name, pos, i)]
                assert (r["text"], r["len_str"], r["terminator"]) == (text, len(text), 0)
                n_e += 1
    assert (n_s, n_c, n_e) == (len(sprites), len(coords), len(extras))


def test_collision_coordinate_bits():
    # community notes + openomf: bits 0-9 x, 10-15 unused, 16-25 y, 26-31 frame; x/y 10-bit two's complement
    assert gen.pack_coord(-1, -512, 63) == 0x3FF | (0x200 << 16) | (63 << 26)
    mod = animre.spec.load_parser("omf_common")
    for x, y, frame in [(-1, -512, 63), (511, 0, 0), (-300, 17, 5), (0, -1, 1)]:
        c = parse_bytes(struct.pack("<I", gen.pack_coord(x, y, frame)), mod, cls=mod.OmfCommon.CollisionCoord)
        assert (c.x, c.y, c.frame, c.unknown_bits_10_15) == (x, y, frame, 0)


def test_bk_values_equal_manifest(bk_truth, sample_corpus, samples_dir):
    files = _by(sample_corpus.tables["bk_files"], "file")
    anims = _by(sample_corpus.tables["bk_animations"], "file", "animation")
    sprites = _by(sample_corpus.tables["bk_sprites"], "file", "animation", "sprite")
    coords = _by(sample_corpus.tables["bk_coords"], "file", "animation", "coord")
    pals = _by(sample_corpus.tables["bk_palettes"], "file", "palette")
    for name, v in bk_truth.items():
        r = files[(name,)]
        for k in ("file_id", "unknown_4", "width", "height"):
            assert r[k] == v["header"][k], (name, k)
        assert len(r["background"]) == v["header"]["width"] * v["header"]["height"]
        assert hashlib.sha256(r["background"]).hexdigest() == v["background_sha256"]
        assert sample_corpus.span("bk_files", _row(sample_corpus, "bk_files", name), "background") == (
            v["ofs_background"], v["ofs_background"] + v["header"]["width"] * v["header"]["height"])
        assert r["num_animations"] == len(v["animations"])
        assert (r["terminator"], r["terminator_ofs_next"]) == (v["terminator"], v["terminator_ofs_next"])
        assert r["num_palettes"] == len(v["palettes"])
        assert [r[f"sound_ids[{i}]"] for i in range(30)] == v["sound_ids"]
        for pos, a in enumerate(v["animations"]):
            ar = anims[(name, pos)]  # animation = position in the file
            h, an = a["header"], a["animation"]
            assert ar["anim_number"] == a["anim"]
            assert ar["ofs_next"] == a["ofs_next"]
            for k in ("unknown_0", "chain_if_hit", "chain_if_no_hit", "repeat", "probability", "hazard_damage"):
                assert ar[k] == h[k], (name, a["anim"], k)
            fs = h["footer_string"]
            assert (ar["footer_string.len_str"], ar["footer_string.text"], _nul(ar["footer_string.terminator"])) == (
                fs["len"], fs["text"], fs["nul"])
            assert (ar["animation.start_x"], ar["animation.start_y"], ar["animation.unknown_4"]) == (
                an["start_x"], an["start_y"], 0)
            assert (ar["animation.num_coords"], ar["animation.num_sprites"], ar["animation.num_extra_strings"]) == (
                len(an["coords"]), len(an["sprites"]), len(an["extra_strings"]))
            assert ar["animation.anim_string.text"] == an["anim_string"]
            for i, s in enumerate(an["sprites"]):
                sr = sprites[(name, pos, i)]
                for k in ("len_data", "x", "y", "width", "height", "index", "missing"):
                    assert sr[k] == s[k]
            for i, c in enumerate(an["coords"]):
                cr = coords[(name, pos, i)]
                assert (cr["raw"], cr["x"], cr["y"], cr["frame"]) == (c["raw"], c["x"], c["y"], c["frame"])
        obj = sample_corpus.parse(name)
        assert hashlib.sha256(obj.background).hexdigest() == v["background_sha256"]
        for i, p in enumerate(v["palettes"]):
            assert pals[(name, i)]["colors"] == bytes.fromhex(p["colors"])
            assert pals[(name, i)]["colors_max"] == max(bytes.fromhex(p["colors"]))
            assert [bytes(x) for x in obj.palettes[i].remaps] == [bytes.fromhex(x) for x in p["remaps"]]
            assert [bytes(x) for x in pals[(name, i)]["remaps"]] == [bytes.fromhex(x) for x in p["remaps"]]


def test_byte_coverage_is_complete(truth, sample_corpus):
    for name, v in truth["files"].items():
        f = sample_corpus.fields(name)
        leaves = f[f["kind"] == "value"].dropna(subset=["start"])
        covered = np.zeros(v["size"], bool)
        for s, e in zip(leaves.start, leaves.end):
            covered[int(s):int(e)] = True
        gaps = np.flatnonzero(~covered)
        assert gaps.size == 0, (name, gaps[:10])


def test_af_move_cells_point_at_their_bytes(af_truth, samples_dir, sample_corpus):
    df = sample_corpus.tables["af_moves"]
    starts, ends = sample_corpus.spans["af_moves"]
    index = {(r.file, r.move): i for i, r in enumerate(df[["file", "move"]].itertuples(index=False))}
    coords = sample_corpus.tables["af_coords"]
    cindex = {k: i for i, k in enumerate(coords[["file", "move", "coord"]].itertuples(index=False, name=None))}
    checked = 0
    for name, v in af_truth.items():
        data = (samples_dir / name).read_bytes()
        for pos in range(0, len(v["moves"]), 6):
            m = v["moves"][pos]
            i = index[(name, pos)]
            foot, anim = m["ofs_footer"], m["animation"]["ofs"]
            assert (starts.at[i, "move_number"], ends.at[i, "move_number"]) == (m["ofs"], m["ofs"] + 1)
            assert data[m["ofs"]] == m["move"] == df.at[i, "move_number"]
            for col, rel, fmt in FOOTER_LAYOUT:
                s, e = sample_corpus.span("af_moves", i, col)
                assert (s, e) == (foot + rel, foot + rel + struct.calcsize(fmt)), (name, m["move"], col)
                assert struct.unpack(fmt, data[s:e])[0] == m["footer"][col]
            for col, rel in (("start_x", 0), ("start_y", 2)):
                s, e = sample_corpus.span("af_moves", i, f"animation.{col}")
                assert (s, e) == (anim + rel, anim + rel + 2)
                assert struct.unpack("<h", data[s:e])[0] == m["animation"][col]
            s, e = sample_corpus.span("af_moves", i, "move_string.raw")
            assert (s, e) == (foot + 21, foot + 42)
            assert data[s:e].hex() == m["move_string_raw"]
            s, e = sample_corpus.span("af_moves", i, "footer_string.len_str")
            assert s == foot + 42 and struct.unpack("<H", data[s:e])[0] == m["footer_string"]["len"]
            for k, c in enumerate(m["animation"]["coords"]):  # bit fields point at their u4 (-animre-bytes)
                at = anim + 11 + 4 * k
                for col in ("raw", "x", "y", "frame", "unknown_bits_10_15"):
                    assert sample_corpus.span("af_coords", cindex[(name, pos, k)], col) == (at, at + 4), col
                assert struct.unpack("<I", data[at:at + 4])[0] == c["raw"]
            checked += 1
    assert checked >= 50


# ----------------------------------------------------------------------------- planted regularities


def test_planted_regularities_visible(truth, sample_corpus):
    p = truth["planted"]
    mv = sample_corpus.tables["af_moves"]
    starts = sample_corpus.spans["af_moves"][0]
    off = mv[mv["unknown_6"] != mv["damage"] // 2]
    assert {(r.file, r.move_number) for r in off.itertuples()} == {
        (e["file"], e["move"]) for e in p["unknown_6_damage_half"]["exceptions"]}
    assert 0 < len(off) < len(mv) // 10
    bit = mv[(mv["pos_constraint"] & p["pos_constraint_bit"]["bit"]) != 0]
    assert len(bit) > 0 and set(bit["category"]) == {p["pos_constraint_bit"]["only_category"]}
    odd = mv[mv["unknown_9"] != p["unknown_9_constant"]["value"]]
    exc = p["unknown_9_constant"]["exception"]
    assert len(odd) == 1
    i = odd.index[0]
    assert (odd.at[i, "file"], odd.at[i, "move_number"], odd.at[i, "unknown_9"]) == (
        exc["file"], exc["move"], exc["value"])
    assert int(starts.at[i, "unknown_9"]) == exc["offset"]
    assert mv[p["random_field"]["column"]].nunique() > 150
    labelled = mv[[bool(raw[len(t) + 1:].strip(b"\0"))
                   for raw, t in zip(mv["move_string.raw"], mv["move_string.text"])]]
    assert {(r.file, r.move_number) for r in labelled.itertuples()} == {
        (e["file"], e["move"]) for e in p["move_string_labels"]}
    assert len(labelled) > 0


# ----------------------------------------------------------------------------- claims


def test_claims_hold_on_samples_with_offsets(sample_corpus):
    assert len(AF.claims) >= 5 and len(BK.claims) >= 5
    for claim in AF.claims + BK.claims:
        assert claim.source in (SOURCE_NOTES, SOURCE_OPENOMF)  # public sources named in words, no paths
        assert claim.format in ("af", "bk") and (claim in AF.claims) == (claim.format == "af")
        df = claim.check(sample_corpus)
        assert len(df) > 0, claim.text
        assert df["holds"].all(), (claim.text, df[~df["holds"]].head())
        tested = df.dropna(subset=["offset"])
        assert len(tested) > 0, claim.text


def test_claims_fail_where_the_bytes_disagree(tmp_path, samples_dir):
    src = samples_dir / "af" / "FIGHTR3.AF"
    data = bytearray(src.read_bytes())
    data[2:4] = struct.pack("<H", 7)  # exec window
    data[-1:] = b"X"  # FGHED -> FGHEX
    (tmp_path / "FIGHTR3.AF").write_bytes(bytes(data))
    shutil.copy(samples_dir / "af" / "FIGHTR4.AF", tmp_path / "FIGHTR9.AF")  # HAR number 4 named 9
    c = animre.open_corpus(tmp_path, cache=False)
    assert c.errors.empty
    res = {cl.text: cl.check(c).set_index("file") for cl in AF.claims}
    window = res["AF exec window (header word at 2) is always 10"]
    assert not window.at["FIGHTR3.AF", "holds"] and window.at["FIGHTR3.AF", "offset"] == 2
    assert window.at["FIGHTR3.AF", "value"] == 7 and window.at["FIGHTR9.AF", "holds"]
    fghed = res["AF files end with FGHED"]
    assert not fghed.at["FIGHTR3.AF", "holds"] and fghed.at["FIGHTR3.AF", "offset"] == len(data) - 5
    har = res["HAR number equals the number in the file name"]
    assert har.at["FIGHTR3.AF", "holds"] and not har.at["FIGHTR9.AF", "holds"]


# ----------------------------------------------------------------------------- the real file


def test_real_bk_background_and_palette(real_bk):
    c = animre.open_corpus([real_bk], cache=False)
    assert c.errors.empty
    row = c.tables["bk_files"].iloc[0]
    assert (row["width"], row["height"], len(row["background"])) == (320, 200, 64000)
    assert row["num_animations"] == 0 and row["terminator"] == 51
    assert "bk_animations" not in c.tables
    assert row["num_palettes"] == 1 and row["len_trailing"] == 0
    assert c.span("bk_files", 0, "background") == (14, 14 + 64000)
    pal = c.tables["bk_palettes"]
    assert len(pal) == 1 and len(pal.at[0, "colors"]) == 768 and pal.at[0, "colors_max"] <= 63
    data = real_bk.read_bytes()
    assert pal.at[0, "colors"] == data[64015:64015 + 768]
    f = c.fields(real_bk.name)
    leaves = f[f["kind"] == "value"].dropna(subset=["start"])
    covered = np.zeros(len(data), bool)
    for s, e in zip(leaves.start, leaves.end):
        covered[int(s):int(e)] = True
    assert covered.all()
    rgba = bk_palette(real_bk)
    raw = np.frombuffer(pal.at[0, "colors"], np.uint8).reshape(256, 3)
    assert (rgba[:, :3] == ((raw << 2) | (raw >> 4))).all() and (rgba[:, 3] == 255).all()
    assert detect_format(data[:4096], len(data), "openomf.bk")[0].name == "bk"
    assert sprite_images(real_bk) == []


def _tiny_af(sprites: list[dict], streams: dict) -> bytes:
    header = dict(fighter_id=1, exec_window=10, endurance=1, unknown_8=2, health=100, forward_speed=256,
                  reverse_speed=-256, jump_speed=-1024, fall_speed=128, unknown_27=0x32, unknown_28=0x14)
    footer = {c: 0 for c, _, _ in FOOTER_LAYOUT}
    move = {"move": 3, "animation": {"start_x": 0, "start_y": 0, "unknown_4": 0, "coords": [], "anim_string": "A1",
                                     "extra_strings": [], "sprites": sprites},
            "footer": footer, "move_string_raw": bytes(21).hex(), "footer_string": {"len": 0, "text": ""}}
    v = {"header": header, "moves": [move], "terminator": 250, "sound_ids": [0] * 25 + list(b"FGHED")}
    return gen.encode_af(v, streams)


def test_unresolvable_missing_sprite(tmp_path):
    s = {"len_data": 4, "x": 0, "y": 0, "width": 2, "height": 2, "index": 9, "missing": 1}
    p = tmp_path / "FIGHTR1.AF"
    p.write_bytes(_tiny_af([s], {}))
    with pytest.raises(ParseError, match="no earlier sprite"):
        sprite_images(p)
    (img,) = sprite_images(p, strict=False)
    assert img.image.shape == (2, 2) and img.image.mask.all()


def test_sprite_writing_outside_is_a_parse_error(tmp_path):
    data = struct.pack("<HH", (1 << 2) | 2, (2 << 2) | 1) + b"ab" + struct.pack("<H", 3)  # y 1 of height 1
    s = {"len_data": len(data), "x": 0, "y": 0, "width": 2, "height": 1, "index": 0, "missing": 0}
    p = tmp_path / "FIGHTR1.AF"
    raw = _tiny_af([s], {id(s): data})
    p.write_bytes(raw)
    with pytest.raises(ParseError) as e:
        sprite_images(p)
    assert e.value.path.endswith("sprites[0].pixels")
    assert e.value.offset == raw.index(data) + 2  # the copy word that writes outside
    (img,) = sprite_images(p, strict=False)
    assert img.image.mask.all()


# ----------------------------------------------------------------------------- hostile input, detection


def test_huge_counts_fail_fast_with_the_field_named(samples_dir):
    data = bytearray((samples_dir / "af" / "FIGHTR0.AF").read_bytes())
    data[29 + 1 + 8: 29 + 1 + 10] = b"\xff\xff"  # num_coords of the first move
    with pytest.raises(ParseError, match="num_coords") as e:
        parse(bytes(data), "bad.af", "af")
    assert e.value.offset == 29 + 1 + 8
    bk = bytearray((samples_dir / "bk" / "ARENA0.BK").read_bytes())
    bk[7:9] = b"\xff\xff"  # height
    with pytest.raises(ParseError, match="height"):
        parse(bytes(bk), "bad.bk", "bk")
    with pytest.raises(ParseError):
        parse(bytes(data[:200]), "short.af", "af")


def test_detection_by_content(truth, samples_dir, sample_corpus):
    for name in truth["files"]:
        data = (samples_dir / name).read_bytes()
        fmt, score = detect_format(data[:4096], len(data), "unnamed.bin")
        assert fmt is not None and fmt.name == ("af" if name.endswith(".AF") else "bk"), name
    others = sample_corpus.files[~_ours(sample_corpus.files["file"])]
    for name in others["file"]:
        data = sample_corpus.read_bytes(name)
        assert AF.detect(data[:4096], len(data), name) < 0.3, name
        assert BK.detect(data[:4096], len(data), name) < 0.3, name
