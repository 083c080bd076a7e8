"""Research functions against the generators' planted truth (manifest) and synthetic tables."""

from __future__ import annotations

import re
import struct
import warnings

import numpy as np
import pandas as pd
import pytest

import animre
from animre.research import (
    claims,
    coverage,
    diff,
    diff_corpora,
    profile,
    reinterpret,
    relations,
)

# ----------------------------------------------------------------------------- helpers


def _planted(manifest, family):
    return manifest["formats"][family]["planted"]


def _prof_row(prof: pd.DataFrame, column: str) -> pd.Series:
    return prof.set_index("column").loc[column]


def _rel(r: pd.DataFrame, target: str, source: str, partial: bool = False) -> pd.DataFrame:
    """Findings for one (target, source) pair: full relations, or the partial rules."""
    sel = r[(r["target"] == target) & (r["source"] == source)]
    is_partial = sel["relation"].isin(["when", "only_when"])
    return sel[is_partial] if partial else sel[~is_partial]


@pytest.fixture(scope="module")
def profiles(sample_corpus):
    """Profiles of every curated table, computed once."""
    return {t: profile(sample_corpus, t) for t in sample_corpus.tables if t != "files"}


# ----------------------------------------------------------------------------- profile: synthetic


def test_profile_synthetic_alerts():
    rng = np.random.default_rng(1)
    n = 60
    files = [f"f{i:02d}.bin" for i in range(n)]
    magic = np.ones(n, dtype=int)
    magic[17] = 0
    df = pd.DataFrame({
        "file": files,
        "version": 3,
        "magic": magic,
        "flags": rng.choice([0, 0x1, 0x2, 0x4, 0x10, 0x3, 0x11], n),
        "count": rng.integers(0, 12, n),
        "speed": rng.integers(-8, 9, n) * 128,  # 24.8 fixed point, halves included
        "angle_bits": [struct.unpack("<I", struct.pack("<f", a))[0] for a in rng.uniform(-90, 90, n)],
        "noise": rng.integers(0, 2**32, n),
        "next_move": rng.choice([3, 7, 12, 40, 41, 66], n),
    })
    p = profile(None, df, key_tables={"moves": [3, 7, 12, 40, 41, 66, 68]})
    alerts = p.set_index("column")["alerts"]
    assert alerts["version"] == ["CONSTANT"]
    assert "NEARLY_CONSTANT" in alerts["magic"]
    assert _prof_row(p, "magic")["exceptions"] == [{"file": "f17.bin", "row": 17, "value": 0}]
    assert "LOOKS_LIKE_FLAGS" in alerts["flags"]
    assert "LOOKS_LIKE_FIXED_POINT" in alerts["speed"]
    assert "LOOKS_LIKE_FLOAT" in alerts["angle_bits"]
    assert "LOOKS_LIKE_INDEX" in alerts["next_move"]
    # quantities and noise raise no alert
    assert alerts["count"] == [] and alerts["noise"] == []
    row = _prof_row(p, "flags")
    assert row["bits"][:5] == ["varies", "varies", "varies", "always 0", "varies"]
    assert row["n_distinct"] == 7 and not row["is_unique"]
    c = _prof_row(p, "count")
    assert c["min"] == df["count"].min() and c["max"] == df["count"].max()
    assert c["zeros"] == int((df["count"] == 0).sum())
    assert c["most_common"][0][1] == df["count"].value_counts().iloc[0]


def test_profile_monotonic_within_files():
    df = pd.DataFrame({"file": ["a"] * 4 + ["b"] * 3, "key": [0, 1, 2, 3, 0, 1, 2],
                       "down": [9, 8, 7, 1, 5, 4, 4], "mixed": [1, 3, 2, 4, 1, 2, 3]})
    mono = profile(None, df).set_index("column")["monotonic"]
    assert mono.to_dict() == {"key": "increasing", "down": "decreasing", "mixed": "none"}


# ----------------------------------------------------------------------------- profile: planted


def test_profile_frm_planted(profiles, manifest):
    planted = _planted(manifest, "frm")
    frm = profiles["frm"]
    magic = _prof_row(frm, "unknown_magic")
    assert "NEARLY_CONSTANT" in magic["alerts"]
    odd = planted["odd_magic_file"]
    assert [(e["file"], e["value"], e["offset"]) for e in magic["exceptions"]] == \
        [(odd, manifest["formats"]["frm"]["files"][odd]["unknown_magic"], 0)]
    for i in range(5):
        row = _prof_row(frm, f"idle_delays[{i}]")
        assert "NEARLY_CONSTANT" in row["alerts"]
        assert [e["file"] for e in row["exceptions"]] == [planted["idle_delays_exception"]]
        assert row["exceptions"][0]["offset"] == 138 + 4 * i


def test_profile_omf_planted(profiles, manifest):
    planted = _planted(manifest, "omf")
    assert _prof_row(profiles["af_fighters"], "exec_window")["alerts"] == ["CONSTANT"]
    assert _prof_row(profiles["af_fighters"], "exec_window")["most_common"][0][0] == planted["exec_window"]
    u9 = _prof_row(profiles["af_moves"], "unknown_9")
    exc = planted["unknown_9_constant"]["exception"]
    assert "NEARLY_CONSTANT" in u9["alerts"]
    assert [(e["file"], e["offset"], e["value"]) for e in u9["exceptions"]] == \
        [(exc["file"], exc["offset"], exc["value"])]
    pos = _prof_row(profiles["af_moves"], "pos_constraint")
    assert "LOOKS_LIKE_FLAGS" in pos["alerts"]
    bit = planted["pos_constraint_bit"]["bit"]
    assert pos["bits"][bit.bit_length() - 1] == "varies"
    for speed in ("forward_speed", "reverse_speed", "jump_speed", "fall_speed"):  # 24.8 fixed point
        assert "LOOKS_LIKE_FIXED_POINT" in _prof_row(profiles["af_fighters"], speed)["alerts"]
    # the random column raises no alert
    assert _prof_row(profiles["af_moves"], planted["random_field"]["column"])["alerts"] == []


def test_profile_gnt4_planted(profiles, manifest):
    planted = _planted(manifest, "mot")
    u0c = _prof_row(profiles["mot_tracks"], "unknown_0c")
    exc = planted["unknown_0c_exception"]
    assert "NEARLY_CONSTANT" in u0c["alerts"]
    assert [(e["file"], e["offset"], e["value"]) for e in u0c["exceptions"]] == \
        [(exc["file"], exc["offset"], exc["value"])]
    tf = _prof_row(profiles["mot_tracks"], "track_flags")
    assert "LOOKS_LIKE_FLAGS" in tf["alerts"]
    assert tf["bits"][6] == "varies"  # DISABLED 0x40, set only in tracks without coordinates
    assert "LOOKS_LIKE_FLAGS" in _prof_row(profiles["mot_tracks"], "flags")["alerts"]
    assert "LOOKS_LIKE_FIXED_POINT" in _prof_row(profiles["mot_tracks"], "unknown_18")["alerts"]
    assert _prof_row(profiles["mot_tracks"], "unknown_1c")["alerts"] == []


def test_profile_other_planted(profiles, manifest):
    civ3 = _planted(manifest, "flc")
    row = _prof_row(profiles["flc_files"], "header.flicanim.num_anims")
    assert "NEARLY_CONSTANT" in row["alerts"]
    assert [e["file"] for e in row["exceptions"]] == [civ3["plain_file"]]
    assert _prof_row(profiles["flc_files"], "header." + civ3["random_column"])["alerts"] == []
    pas4 = _planted(manifest, "pas4")
    row = _prof_row(profiles["pas4_parms"], "is_known_type")
    assert "NEARLY_CONSTANT" in row["alerts"]
    assert [e["file"] for e in row["exceptions"]] == [pas4["unknown_parm_type"]["file"]]


def test_profile_index_into_other_table(sample_corpus):
    # the default anim state is a state type of the same file (-1 = none)
    p = profile(sample_corpus, "pas4", key_tables={"pas4_states": "state_type"})
    assert "LOOKS_LIKE_INDEX" in _prof_row(p, "default_anim_state")["alerts"]
    p = profile(sample_corpus, "af_moves")
    assert "LOOKS_LIKE_INDEX" in _prof_row(p, "successor_id")["alerts"]
    assert "LOOKS_LIKE_INDEX" not in _prof_row(p, "damage")["alerts"]


# ----------------------------------------------------------------------------- relations: synthetic


def _random_frame(rng, n):
    return pd.DataFrame({
        "file": [f"f{i % 7}" for i in range(n)],
        "r_u8": rng.integers(0, 256, n), "r_u8b": rng.integers(0, 256, n),
        "r_small": rng.integers(0, 4, n), "r_small2": rng.integers(0, 4, n),
        "r_bool": rng.random(n) < 0.5, "r_rare": (rng.random(n) < 0.05).astype(int),
        "r_float": rng.random(n), "r_u32": rng.integers(0, 2**32, n),
        "r_flags": rng.choice([0, 1, 2, 4, 8, 0x10, 3, 0x21], n),
    })


@pytest.mark.parametrize("n", [12, 60, 400])
def test_relations_random_columns_find_nothing(n):
    for seed in range(4):
        df = _random_frame(np.random.default_rng(seed), n)
        r = relations(None, df, min_support=0.9)
        assert r.empty, r.drop(columns="counterexamples").to_string()


def test_relations_synthetic_planted():
    rng = np.random.default_rng(7)
    n = 300
    damage = rng.integers(0, 60, n)
    half = damage // 2
    bad = [5, 77, 150]
    half[bad] += 3
    cat = rng.integers(0, 8, n)
    flags = (rng.random(n) < 0.3).astype(int) | (rng.random(n) < 0.4).astype(int) << 2
    flags = flags | np.where((cat == 5) & (rng.random(n) < 0.8), 0x10, 0)
    df = pd.DataFrame({
        "file": [f"f{i // 30}" for i in range(n)],
        "damage": damage, "unknown_6": half,
        "base": rng.integers(0, 1000, n),
        "category": cat, "flags": flags,
        "noise": rng.integers(0, 256, n),
    })
    df["end"] = df["base"] + 16
    df["scaled"] = df["base"] * 3
    df["low"] = df["flags"] & 0x5
    df["index"] = df.groupby("file").cumcount()
    df["kind"] = df["category"].map(lambda c: "jump" if c == 5 else "other")
    r = relations(None, df, max_counterexamples=100)
    d = _rel(r, "unknown_6", "damage").iloc[0]
    assert d["relation"] in ("divide", "multiple") and d["parameter"] in (2, 0.5)
    assert d["n_agree"] == n - len(bad)
    assert sorted(c["row"] for c in d["counterexamples"]) == bad
    assert {c["file"] for c in d["counterexamples"]} == {df.at[i, "file"] for i in bad}
    e = _rel(r, "end", "base").iloc[0]
    assert (e["relation"], e["parameter"], e["support"]) == ("offset", 16, 1.0)
    m = _rel(r, "scaled", "base").iloc[0]
    assert (m["relation"], m["parameter"]) == ("multiple", 3)
    k = _rel(r, "low", "flags").iloc[0]
    assert (k["relation"], k["parameter"]) == ("mask", "0x5")
    # a column that numbers records equals the row number by construction: no rule (issue 23)
    assert (df["index"] == df.groupby("file").cumcount()).all()
    assert r[r["target"].isin(["index", "row_in_file"]) & r["source"].isin(["index", "row_in_file"])].empty
    only = _rel(r, "flags & 0x10", "category", partial=True)
    assert "category == 5" in only.iloc[0]["parameter"] and only.iloc[0]["support"] == 1.0
    assert not _rel(r, "kind", "category").empty  # determined by the category
    # nothing relates the noise column
    assert r[(r["target"] == "noise") | (r["source"] == "noise")].empty


def _grouped_law_table(n_broken: int) -> tuple[pd.DataFrame, set]:
    """Units (folders) of 6 files: x_offset = (240 - width) // 2, except ``n_broken`` units of their own width.

    Pairs of widths (41, 42) share an x_offset, so x_offset is a function of width but not the reverse.
    """
    rng = np.random.default_rng(11)
    shared = np.array([41, 42, 61, 62, 81, 82, 101, 102, 121, 122])
    widths = [int(w) for w in rng.choice(shared, 29 - n_broken)] + [151 + 6 * i for i in range(n_broken)]
    rows = []
    for u, w in enumerate(widths):
        y = (240 - w) // 2 + (7 if u >= 29 - n_broken else 0)
        rows += [{"file": f"unit{u}/f{f}.flc", "width": w, "x_offset": y, "speed": int(rng.integers(50, 200))}
                 for f in range(6)]
    return pd.DataFrame(rows), {f"unit{u}" for u in range(29 - n_broken, 29)}


@pytest.mark.parametrize("n_broken", [2, 4])
def test_relations_planted_law_over_groups_ranks_above_the_lookups_of_its_columns(n_broken):
    df, broken = _grouped_law_table(n_broken)
    r = relations(None, df, min_support=0.85)
    pair = r["target"].isin(["width", "x_offset"]) & r["source"].isin(["width", "x_offset"])
    law = r[pair & (r["relation"] == "linear")]
    assert len(law) == 1
    law_row = law.iloc[0]
    assert (law_row["target"], law_row["source"], law_row["parameter"]) == ("x_offset", "width", "k=-0.5, c=120, floor")
    assert (law_row["n_groups"], law_row["groups_agree"]) == (29, 29 - n_broken)
    assert {c["file"].split("/")[0] for c in law_row["counterexamples"]} == broken
    lookups = r[pair & r["relation"].isin(["functional", "one_to_one"])]
    assert all(i > law.index[0] for i in lookups.index)


def test_relations_no_when_rule_that_a_listed_product_law_implies():
    rng = np.random.default_rng(3)
    rows = []
    for u in range(30):
        speed = int(rng.choice([50, 65, 80, 100, 120]))
        for f in range(5):
            length = 10 if rng.random() < 0.8 else int(rng.choice([8, 12, 15]))
            rows.append({"file": f"u{u}/f{f}", "speed": speed, "anim_length": length, "anim_time": speed * length})
    df = pd.DataFrame(rows)
    r = relations(None, df)
    law = r[(r["target"] == "anim_time") & (r["relation"] == "equal")]
    assert set(law["source"]) == {"speed * anim_length"} and law.iloc[0]["support"] == 1.0
    # anim_time == 650 -> speed == 65 holds in every file (length 10 is common), but follows from the law
    assert ((df["anim_time"] == 650) <= (df["speed"] == 65)).all() and (df["anim_time"] == 650).sum() >= 5
    assert r[r["relation"].isin(["when", "only_when"])].empty


def test_relations_no_rule_between_a_record_number_and_the_row_number(sample_corpus):
    fr = sample_corpus.tables["flc_frames"]
    # flc_frames.frame numbers the frame chunks (derived from the chunk_index key only): the row number
    assert (fr["frame"].to_numpy() == fr.groupby("file").cumcount().to_numpy()).all()
    for t in ("flc_frames", "flc_chunks", "af_moves", "frm_frames"):
        if t not in sample_corpus.tables:
            continue
        r = relations(sample_corpus, t)
        index = set(sample_corpus.ids(t)) | ({"frame"} if t.startswith("flc") else set())
        rows = {"row_in_file", "rows_in_file"}
        for tg, src in zip(r["target"], r["source"]):
            parts = {tg, *src.split(" * ")}
            assert not (parts & index and parts & rows), (t, tg, src)


# ----------------------------------------------------------------------------- relations: planted


def test_relations_omf_planted(sample_corpus, manifest):
    planted = _planted(manifest, "omf")
    r = relations(sample_corpus, "af_moves", max_counterexamples=1000)
    half = _rel(r, "unknown_6", "damage")
    assert len(half) == 1
    h = half.iloc[0]
    assert h["relation"] in ("divide", "multiple") and h["parameter"] in (2, 0.5)
    expected = {(e["file"], e["move"]) for e in planted["unknown_6_damage_half"]["exceptions"]}
    files = manifest["formats"]["omf"]["files"]  # the key `move` is the position; the manifest knows the numbers
    assert {(c["file"], files[c["file"]]["moves"][c["move"]]["move"]) for c in h["counterexamples"]} == expected
    assert h["support"] >= 0.9
    bit = planted["pos_constraint_bit"]
    only = _rel(r, f"pos_constraint & 0x{bit['bit']:x}", "category", partial=True)
    only = only[only["relation"] == "only_when"]
    assert len(only) == 1 and only.iloc[0]["support"] == 1.0
    assert only.iloc[0]["parameter"].endswith(f"category == {bit['only_category']}")
    rnd = planted["random_field"]["column"]
    assert r[((r["target"] == rnd) | (r["source"] == rnd)) & (r["support"] >= 0.9)].empty


def test_relations_gnt4_planted(sample_corpus, manifest):
    planted = _planted(manifest, "mot")
    r = relations(sample_corpus, "mot_tracks", max_counterexamples=1000)
    u18 = r[(r["target"] == "unknown_18") & r["source"].isin(["total_time", "last_key_time"])]
    assert len(u18) >= 1
    row = u18.iloc[0]
    assert (row["relation"], row["parameter"]) == ("multiple", 60 * 256)  # frames * 256, frames = time * 60
    assert {(c["file"], c["anim_id"], c["track"]) for c in row["counterexamples"]} == \
        {(e["file"], e["anim_id"], e["track"]) for e in planted["unknown_18_exceptions"]}
    rnd = "unknown_1c"
    assert r[((r["target"] == rnd) | (r["source"] == rnd)) & (r["support"] >= 0.9)].empty
    # DISABLED (0x40) is set exactly in the tracks without coordinates (flags 0x0000)
    r2 = relations(sample_corpus, "mot_tracks", columns=["flags", "track_flags"])
    coords = {"flags", "flags & 0x200"}  # 0x0200 = coordinates present
    dis = r2[((r2["target"] == "track_flags & 0x40") & r2["source"].isin(coords))
             | ((r2["source"] == "track_flags & 0x40") & r2["target"].isin(coords))]
    assert len(dis) == 1 and dis.iloc[0]["support"] == 1.0
    # the header's file size equals the real size except in one file
    r3 = relations(sample_corpus, "mot")
    ln = _rel(r3, "len_file", "file_size").iloc[0]
    exc = planted["len_file_exception"]
    assert ln["relation"] == "equal"
    assert [(c["file"], c["target_value"]) for c in ln["counterexamples"]] == [(exc["file"], exc["value"])]


def test_relations_pas4_and_civ3_planted(sample_corpus, manifest):
    pas4 = _planted(manifest, "pas4")
    # one file breaks the rule in 5 of the 44 no-weight parms: below the default 0.9 support
    # each database is a character of its own: files are the independent samples (by folder, the loose
    # databases, the PAK and the disc would be three groups, too few for a partial rule)
    r = relations(sample_corpus, "pas4_parms", min_support=0.8, max_counterexamples=100, groups="file")
    w = _rel(r, "weight", "weight_function", partial=True)
    assert len(w) == 1
    # weight is an f4 field: its value reads as a float (the one formatter, animre.base.display.fmt)
    assert w.iloc[0]["parameter"] == f"weight_function == 3 -> weight == {float(pas4['no_weight_weight'])!r}"
    exc = pas4["no_weight_weight_exception"]
    assert {(c["file"], c["state"], c["parm"]) for c in w.iloc[0]["counterexamples"]} == \
        {(exc["file"], p["state"], p["parm"]) for p in exc["parms"]}
    civ3 = _planted(manifest, "flc")
    flc = sample_corpus.tables["flc_files"]
    units = flc[flc["file"].isin(civ3["unit_files"])]  # the rules are about unit sprites
    r = relations(sample_corpus, units, min_support=0.8)
    fa = "header.flicanim."
    feet = pd.concat([_rel(r, fa + "y_offset", "header.height"), _rel(r, "header.height", fa + "y_offset")]).iloc[0]
    assert (feet["relation"], feet["parameter"]) == ("linear", "k=-1, c=170")  # y_offset + height == 170
    assert [c["file"] for c in feet["counterexamples"]] == [civ3["feet_line_exception"]]
    x = _rel(r, fa + "x_offset", "header.width").iloc[0]  # x_offset == (240 - width) // 2
    assert (x["relation"], x["parameter"]) == ("linear", "k=-0.5, c=120, floor")
    # anim_time == anim_length * speed: a product of two columns
    assert civ3["anim_time_rule"] == "anim_time == anim_length * speed"
    pair = [f"header.speed * {fa}anim_length", f"{fa}anim_length * header.speed"]
    prod = r[(r["target"] == fa + "anim_time") & r["source"].isin(pair)]
    assert len(prod) == 1 and prod.iloc[0]["relation"] == "equal"
    assert [c["file"] for c in prod.iloc[0]["counterexamples"]] == civ3["anim_time_exceptions"]
    rnd = "header." + civ3["random_column"]
    assert r[(r["target"] == rnd) | r["source"].str.contains(re.escape(rnd) + r"\b")].empty
    ring = relations(sample_corpus, "flc_frames", columns=["is_ring", "body.reserved_4"])
    assert not _rel(ring, "body.reserved_4", "is_ring").empty


def test_relations_frm_clamp(sample_corpus, manifest):
    planted = _planted(manifest, "frm")
    r = relations(sample_corpus, "frm")
    pair = ["num_idles", "num_idles_raw"]
    rows = r[r["target"].isin(pair) & r["source"].isin(pair)]
    assert len(rows) == 1 and rows.iloc[0]["relation"] == "equal"
    assert [c["file"] for c in rows.iloc[0]["counterexamples"]] == [planted["clamped_idle_count_file"]]


# ----------------------------------------------------------------------------- reinterpret


def test_reinterpret_frm_floats(sample_corpus):
    for loc, kw in (("idle_weights", {"format": "frm"}), ("projectile_angles", {"format": "frm"}),
                    ("frm.idle_weights[0]", {}), (118, {"length": 4, "format": "frm"})):
        res = reinterpret(sample_corpus, loc, **kw)
        assert res.best == "f4le", (loc, res.ranking.head(3))
        assert list(res.ranking["rank"]) == list(range(1, len(res.ranking) + 1))
    res = reinterpret(sample_corpus, "frm.idle_weights[0]")
    assert len(res.values) == len(sample_corpus.tables["frm"]) and (res.values["offset"] == 118).all()


def test_reinterpret_frm_values_match_manifest(sample_corpus, truths):
    files = truths("frm")
    res = reinterpret(sample_corpus, "idle_weights", types=["f4le", "u4le"], format="frm")
    for r in res.values.itertuples(index=False):
        i = int(r.where.rsplit("[", 1)[1].rstrip("]"))
        assert r.f4le == pytest.approx(files[r.file]["idle_weights"][i], rel=1e-6)
        assert r.u4le == struct.unpack("<I", struct.pack("<f", files[r.file]["idle_weights"][i]))[0]


def test_reinterpret_af_speeds_are_24_8(sample_corpus):
    for field in ("forward_speed", "reverse_speed", "jump_speed", "fall_speed"):
        assert reinterpret(sample_corpus, field, format="af").best == "fix24.8le", field


def test_reinterpret_gnt4_halves(samples_dir, manifest):
    f32 = set(_planted(manifest, "mot")["f32_characters"])
    files = sorted(p for p in (samples_dir / "mot").rglob("*.mot") if p.parent.name not in f32)
    c = animre.open_corpus(files, cache=False)
    for comp in ("coord.x_raw", "coord.w_raw"):
        res = reinterpret(c, comp)
        assert res.best == "bf16be", res.ranking.head(3)
        assert res.ranking.set_index("type").loc["bf16be", "p_valid"] == 1.0
    assert reinterpret(c, "unknown_18").best == "fix24.8be"  # frames * 256, big-endian


def test_reinterpret_table_source_and_errors(sample_corpus):
    df = pd.DataFrame({"file": list("abcd"),
                       "raw": [bytes.fromhex(h) for h in ("4048", "3f80", "c120", "4000")]})
    res = reinterpret(None, "raw", table=df)
    assert res.best == "bf16be"
    assert res.values["bf16be"].tolist() == [3.125, 1.0, -10.0, 2.0]
    ints = pd.DataFrame({"v": [1280, -1792, 384, 2560]})
    assert reinterpret(None, "v", table=ints, length=4).best == "fix24.8le"
    with pytest.raises(animre.UsageError):
        reinterpret(sample_corpus, "no_such_field_anywhere", format="frm")
    with pytest.raises(animre.UsageError):
        reinterpret(sample_corpus, 0)  # an absolute offset needs a length


# ----------------------------------------------------------------------------- claims


def test_claims_run_for_every_format(sample_corpus):
    res = claims(sample_corpus, max_counterexamples=10**6)
    present = set(sample_corpus.files["format"].dropna())
    assert set(res["format"]) == present
    for fmt in present:
        fewest = {"agg": 4, "icn": 3, "pal": 1}.get(fmt, 5)  # archive layout; sprite sheet; a bare palette
        assert (res["format"] == fmt).sum() >= fewest, fmt
    assert res["error"].isna().all(), res[res["error"].notna()][["claim", "error"]]
    assert (res["tested"] > 0).all(), res[res["tested"] == 0]["claim"].tolist()
    assert (res["holds_all"] == (res["holds"] == res["tested"])).all()
    assert all(len(c) == t - h for c, t, h in zip(res["counterexamples"], res["tested"], res["holds"]))


def _all_counterexamples(res: pd.DataFrame) -> set[tuple]:
    return {(c["file"], c["offset"]) for cs in res["counterexamples"] for c in cs}


def test_claims_name_planted_counterexamples(sample_corpus, manifest):
    res = claims(sample_corpus)
    found = _all_counterexamples(res)
    homm2 = _planted(manifest, "frm")
    frm = res[res["format"] == "frm"].set_index("claim")
    ce = frm["counterexamples"]
    assert [(c["file"], c["offset"]) for c in ce["FRM byte 0 is 0x01 (magic value)."]] == \
        [(homm2["odd_magic_file"], 0)]
    assert {c["file"] for c in ce["The idle probabilities of the first idle-count idles sum to 1."]} == \
        set(homm2["weights_not_normalised"])
    assert {(c["file"], c["offset"]) for c in
            ce["The frame count byte equals the number of ids before the 0xFF fill."]} == \
        {(m["file"], 243 + m["slot"]) for m in homm2["count_fill_mismatch"]}
    assert [(c["file"], c["offset"]) for c in ce["The idle animation count is at most 5."]] == \
        [(homm2["clamped_idle_count_file"], 117)]
    assert [(c["file"], c["offset"], c["value"]) for c in ce["Each animation section has at most 16 frames."]] \
        == [(m["file"], 243 + m["slot"], m["count"]) for m in homm2["count_fill_mismatch"] if m["count"] > 16]
    assert frm.loc["FRM files are 821 bytes.", "holds_all"]
    # planted breaks of other formats' claims, by file and byte offset
    gnt4 = _planted(manifest, "mot")
    expected = [(gnt4["len_file_exception"]["file"], gnt4["len_file_exception"]["offset"]),
                (gnt4["unknown_0c_exception"]["file"], gnt4["unknown_0c_exception"]["offset"])]
    expected += [(e["file"], e["offset"]) for e in gnt4["play_speed_exceptions"]]
    expected += [(e["file"], e["offset"]) for e in gnt4["f32_tracks"]]
    civ3 = _planted(manifest, "flc")
    # anim_time (u4 at 0x58 + 20 in the FlicAnim header, NOTES.md section 5) breaks its rule
    expected += [(f, 0x58 + 20) for f in civ3["anim_time_exceptions"]]
    missing = [e for e in expected if e not in found]
    assert not missing, missing
    pas4 = _planted(manifest, "pas4")
    files = {c["file"] for cs in res["counterexamples"] for c in cs}
    assert {pas4["too_many_parms"]["file"], pas4["unknown_parm_type"]["file"], pas4["later_game_file"]} <= files


# ----------------------------------------------------------------------------- coverage


def _expected_gaps(manifest) -> set[tuple]:
    gaps = set()
    for fam in manifest["formats"].values():
        for g in fam.get("planted", {}).get("gaps", []) or []:
            gaps.add((g["file"], g["start"], g["end"]))
        for name, v in fam["files"].items():
            if isinstance(v, dict) and v.get("characters"):  # ANCS in a PAK: the bytes around its blocks
                pos = 0
                for ch in v["characters"]:
                    if ch["pas4_offset"] > pos:
                        gaps.add((name, pos, ch["pas4_offset"]))
                    pos = ch["pas4_end"]
                if pos < v["read_size"]:
                    gaps.add((name, pos, v["read_size"]))
            if isinstance(v, dict) and "pas4_offset" in v and "pas4_end" in v:  # block inside a container
                if v["pas4_offset"] > 0:
                    gaps.add((name, 0, v["pas4_offset"]))
                if v["pas4_end"] < v["size"]:
                    gaps.add((name, v["pas4_end"], v["size"]))
    return gaps


def test_coverage_matches_generator(sample_corpus, manifest, samples_dir):
    cov = coverage(sample_corpus)
    per_file, gaps = cov.per_file, cov.gaps
    assert len(per_file) == len(sample_corpus.files)
    # every parsed file is covered; skipped files and a zip (no format reads them) are not
    assert list(per_file["ok"]) == list(sample_corpus.files["status"] == "parsed")
    expected = _expected_gaps(manifest)
    assert {(g.file, g.start, g.end) for g in gaps.itertuples()} == expected
    gap_files = {f for f, _, _ in expected}
    full = per_file[per_file["ok"] & ~per_file["file"].isin(gap_files)]
    assert (full["share"] == 1.0).all(), full[full["share"] < 1]
    for r in per_file[per_file["file"].isin(gap_files)].itertuples():
        lost = sum(e - s for f, s, e in expected if f == r.file)
        assert r.uncovered == lost and r.covered == r.size - lost
    for g in gaps.itertuples():
        data = sample_corpus.read_bytes(g.file)  # archive members: from their container
        assert g.preview == data[g.start:min(g.end, g.start + 16)].hex(" ")
        assert g.length == g.end - g.start


def test_coverage_counts_a_containers_members_apart(sample_corpus, manifest, samples_dir):
    """An archive's member bytes are `members` (each member has its own coverage), its directory typed;
    per-format totals count a member's bytes once. Truth: the AGG generator's entries, and the zip read
    with the standard library's zipfile."""
    import zipfile

    from animre.research import coverage_by_format

    cov = coverage(sample_corpus)
    per_file, gaps = cov.per_file, cov.gaps
    pf = per_file.set_index("file")
    agg = manifest["formats"]["agg"]
    arch = agg["planted"]["archive"]
    span = agg["planted"]["member_bytes"]
    entries = [v for f, v in agg["files"].items() if v.get("container") == arch]
    planted_members = sum(v["size"] for v in entries)
    assert planted_members == span["end"] - span["start"]  # the members fill their span (no padding)
    size = (samples_dir / arch).stat().st_size
    row = pf.loc[arch]
    assert (row["members"], row["typed"], row["opaque"], row["uncovered"]) == \
        (planted_members, size - planted_members, 0, 0)
    assert row["share"] == 1.0 and row["ok"]
    assert arch not in set(gaps["file"])
    # the zip: no format reads it; its members' stored (compressed) bytes, the rest is its directory
    zname = manifest["formats"]["zip"]["planted"]["archive"]
    with zipfile.ZipFile(samples_dir / zname) as z:
        stored = sum(i.compress_size for i in z.infolist())
        assert any(i.compress_size != i.file_size for i in z.infolist())  # some are deflated
    zsize = (samples_dir / zname).stat().st_size
    zrow = pf.loc[zname]
    assert (zrow["members"], zrow["typed"], zrow["uncovered"]) == (stored, zsize - stored, 0)
    assert not zrow["ok"]  # no spec parsed it
    # totals: the AGG format's own bytes are its directory, all typed; FRM counts its members' bytes
    by = coverage_by_format(per_file).set_index("format")
    assert (by.at["agg", "members"], by.at["agg", "share_typed"], by.at["agg", "share_gaps"]) == \
        (planted_members, 1.0, 0.0)
    frm_rows = per_file[per_file["ok"] & (per_file["format"] == "frm")]
    assert by.at["frm", "size"] == frm_rows["size"].sum() == 821 * len(frm_rows)
    own = per_file.loc[per_file["ok"], "size"].sum() - per_file.loc[per_file["ok"], "members"].sum()
    assert (by["size"] - by["members"]).sum() == own  # every parsed byte counted once


# ----------------------------------------------------------------------------- diff


def test_diff_two_files(sample_corpus, manifest, samples_dir):
    files = manifest["formats"]["frm"]["files"]
    a, b = "frm/GOBLNFRM.BIN", manifest["formats"]["frm"]["planted"]["odd_magic_file"]
    d = diff(sample_corpus, a, b).set_index("path")
    assert (d.loc["unknown_magic", "old"], d.loc["unknown_magic", "new"]) == \
        (files[a]["unknown_magic"], files[b]["unknown_magic"])
    assert d.loc["unknown_magic", "old_start"] == 0 and d.loc["unknown_magic", "new_end"] == 1
    changed = {p for p in d.index if d.loc[p, "status"] == "changed"}
    assert ("walk_speed" in changed) == (files[a]["walk_speed"] != files[b]["walk_speed"])
    assert set(d["status"]) <= {"changed"}  # same layout: nothing added, removed or moved
    same = diff(None, samples_dir / a, samples_dir / a)
    assert same.empty
    with pytest.raises(animre.UsageError):
        diff(sample_corpus, "frm/GOBLNFRM.BIN", "af/FIGHTR0.AF")


def test_diff_corpora_after_spec_edit(samples_dir, manifest):
    from animre.spec.compiler import KSY_DIR

    homm2 = samples_dir / "frm"
    text = (KSY_DIR / "frm.ksy").read_text()
    edited = text.replace("  - id: eye_x\n    type: s2", "  - id: eye_x\n    type: u2", 1)
    assert edited != text
    old = animre.open_corpus(homm2, cache=False)
    new = animre.open_corpus(homm2, cache=False, parsers={"frm": animre.spec.compile_spec(edited)})
    d = diff_corpora(old, new)
    assert list(zip(d["table"], d["field_a"], d["field_b"], d["change"])) == [
        ("frm", "frm.eye_x", "frm.eye_x", "retyped, values changed")]
    negative = sum(1 for v in manifest["formats"]["frm"]["files"].values() if v["eye_x"] < 0)
    assert d.iloc[0]["n_values_changed"] == d.iloc[0]["n_rows"] == negative
    assert d.iloc[0]["n_files"] == negative
    ex = d.iloc[0]["examples"][0]
    assert ex["new"] == ex["old"] + 65536
    assert diff_corpora(old, old).empty


FRAME_FIELD = "      - id: reserved_4\n        type: u2\n"


def _rename_reserved_4(folder_or_files):
    """(old, new) parses of the files: the shipped FLC spec, and one frame-header field renamed."""
    from animre.spec.compiler import KSY_DIR

    text = (KSY_DIR / "flc.ksy").read_text()
    assert text.count(FRAME_FIELD) == 1
    edited = text.replace(FRAME_FIELD, FRAME_FIELD.replace("reserved_4", "ring_marker"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        old = animre.open_corpus(folder_or_files, cache=False, progress=False)
        new = animre.open_corpus(folder_or_files, cache=False, progress=False,
                                 parsers={"flc": animre.spec.compile_spec(edited)})
    return old, new


PSTAMP_COLUMNS = ("body.height", "body.width", "body.color_translation")  # pstamp_body's fields


def test_diff_corpora_one_rename_is_one_row_beside_a_switch_case_no_file_takes(samples_dir, manifest):
    # the generator writes PSTAMP only into the plain FLC; its Civ3 unit files never take that case
    units = manifest["formats"]["flc"]["planted"]["unit_files"]
    assert manifest["formats"]["flc"]["planted"]["plain_file"] not in units
    old, new = _rename_reserved_4([samples_dir / f for f in units])
    for c in (old, new):
        chunks = c.tables["flc_chunks"]
        assert all(col in chunks.columns and chunks[col].isna().all() for col in PSTAMP_COLUMNS)
    d = diff_corpora(old, new)
    assert list(zip(d["table"], d["field_a"], d["field_b"], d["change"])) == [
        ("flc_frames", "frame_body.reserved_4", "frame_body.ring_marker", "renamed")]
    assert d.iloc[0]["n_rows"] == len(old.tables["flc_frames"]) and d.iloc[0]["n_values_changed"] == 0


def test_diff_corpora_one_rename_on_the_real_civ3_files(realdata):
    old, new = _rename_reserved_4(realdata / "flic" / "civ3")
    assert old.tables["flc_chunks"]["body.color_translation"].isna().all()  # no Civ3 file has a PSTAMP
    d = diff_corpora(old, new)
    assert list(zip(d["field_a"], d["field_b"], d["change"])) == [
        ("frame_body.reserved_4", "frame_body.ring_marker", "renamed")]


def test_reinterpret_locators(sample_corpus, truths):
    files = truths("frm")
    n = len(files)
    one = reinterpret(sample_corpus, "sequences[3].frame_ids", types=["u1"], format="frm").values
    assert len(one) == 16 * n
    for f, grp in one.groupby("file"):
        assert grp["u1"].tolist() == files[f]["frame_ids"][3]
        assert grp["offset"].tolist() == list(range(277 + 48, 277 + 64))
    assert len(reinterpret(sample_corpus, "x_offsets.offsets", types=["s1"], format="frm").values) == 7 * 16 * n
    rec = reinterpret(sample_corpus, "projectile_offsets", offset=2, length=2, types=["s2le"], format="frm")
    ys = {(r.file, r.offset): r.s2le for r in rec.values.itertuples()}
    assert ys == {(f, 176 + 4 * i): v["projectile_offsets"][i][1] for f, v in files.items() for i in range(3)}


@pytest.mark.parametrize("loc,fmt", [("walk_speed", "frm"), ("idle_weights", "frm"), ("frame_ids", "frm"),
                                     ("x_offsets.offsets", "frm"), ("sound_ids", "af"), ("header.speed", "flc")])
def test_reinterpret_from_columns_equals_the_walk(sample_corpus, monkeypatch, loc, fmt):
    """Field paths answered from the tables' spans give exactly the rows a walk of the parsed files gives."""
    from animre.research import _locate as impl

    assert impl.records_from_columns(sample_corpus, loc, None, None, fmt, sample_corpus.files,
                                     sample_corpus.read_bytes) is not None  # the column path is taken
    fast = reinterpret(sample_corpus, loc, format=fmt, types=["u1"] if "frame" in loc else None).values
    monkeypatch.setattr(impl, "records_from_columns", lambda *a, **k: None)
    walk = reinterpret(sample_corpus, loc, format=fmt, types=["u1"] if "frame" in loc else None).values
    pd.testing.assert_frame_equal(fast, walk)


def test_coverage_from_offsets_equals_a_walk_of_every_field(sample_corpus, real_or_none):
    """coverage() reads the stored offset arrays; walking every parsed field of every file (the slow
    way, byte_categories over Corpus.fields) gives the same covered bytes, and the same typed bytes
    except inside records a spec's -animre-where keeps out of a table (counted typed there)."""
    from animre.research._coverage import TYPED, byte_categories

    corpora = [sample_corpus] + ([animre.open_corpus(real_or_none, cache=False)] if real_or_none else [])
    for c in corpora:
        per = coverage(c).per_file
        assert per["ok"].sum() > 0
        for r in per[per["ok"]].itertuples():
            ref = byte_categories(c.fields(r.file), r.size)
            assert r.covered - r.members == int((ref != 0).sum()), r.file  # fields know no members
            assert r.typed >= int((ref == TYPED).sum()), r.file
            if not r.file.startswith(("flc/Plain/Title", "flic/standard/2422")):  # files with kept-out records
                assert r.typed == int((ref == TYPED).sum()), r.file


# ----------------------------------------------------------------------------- one way to call


def test_one_call_form_per_verb(sample_corpus, samples_dir, truths):
    """Every verb is f(corpus, table=None, *, ...); the draft forms (table first, corpus=, old type names) fail."""
    c = sample_corpus
    speeds = {f: t["walk_speed"] for f, t in truths("frm").items()}
    new = profile(c, "frm", columns=["walk_speed"])
    assert new.at[0, "min"] == min(speeds.values()) and new.at[0, "max"] == max(speeds.values())
    with pytest.raises(TypeError, match="corpus"):
        profile("frm", corpus=c, columns=["walk_speed"])
    with pytest.raises(animre.UsageError, match="needs a table.*af_moves"):
        profile(c)
    with pytest.raises(TypeError, match="corpus"):
        relations("af_moves", ["damage"], corpus=c)
    assert dict(zip(*reinterpret(c, "walk_speed", types=["u4le"], format="frm").values[["file", "u4le"]].T.values)) \
        == speeds
    with pytest.raises(animre.UsageError, match="unknown type.*u32le"):
        reinterpret(c, "walk_speed", types=["u32le"], format="frm")
    df = pd.DataFrame({"raw": [bytes.fromhex(h) for h in ("4048", "3f80", "c120", "4000")]})
    assert reinterpret(None, "raw", table=df).values["bf16be"].tolist() == [3.125, 1.0, -10.0, 2.0]
    assert animre.research.decode([struct.pack("<f", 1.5)], "f4le").tolist() == [1.5]
    cov = coverage(c, files=["frm/GOBLNFRM.BIN"])
    assert cov.per_file["size"].tolist() == [(samples_dir / "frm" / "GOBLNFRM.BIN").stat().st_size]
    assert "<b>Coverage</b>" in cov._repr_html_()
    d = diff(c, "frm/GOBLNFRM.BIN", "frm/ORC__FRM.BIN").set_index("path")
    w = d.loc["walk_speed"]
    assert (w["old"], w["new"]) == (speeds["frm/GOBLNFRM.BIN"], speeds["frm/ORC__FRM.BIN"])
    with pytest.raises(TypeError, match="relations_"):
        animre.suggest(c, spec="frm", relations_=False)
