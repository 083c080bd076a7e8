"""Retro PAS4: spec, format module and sample generator, checked against the manifest."""

from __future__ import annotations

import math
import struct

import numpy as np
import pandas as pd
import pytest

import animre
from animre.base.errors import ParseError
from animre.formats import detect_format, get_format
from animre.formats.pas4 import locate
from animre.spec.compiler import KSY_DIR
from animre.tables.planner import plan_for
from animre.tables.read import parse

FAMILY = "pas4"


@pytest.fixture(scope="module")
def pas_manifest(manifest) -> dict:
    return manifest["formats"][FAMILY]


@pytest.fixture(scope="module")
def pas_files(pas_manifest) -> dict:
    return pas_manifest["files"]


@pytest.fixture(scope="module")
def tables(sample_corpus, pas_files) -> dict[str, pd.DataFrame]:
    """The PAS4 tables of the pas4 samples (copies inside the PAK and disc samples: tests/unit/sources/)."""
    return {t: df[df["file"].isin(list(pas_files))].reset_index(drop=True) if "file" in df.columns else df
            for t, df in sample_corpus.tables.items()}


def _same(a, b) -> bool:
    """Equal values; a missing manifest value (unknown parm type) must be NA in the table."""
    if b is None:
        return a is None or a is pd.NA or (isinstance(a, float) and math.isnan(a))
    return a == b


INTEGER_TYPES = {0, 1, 3, 4}  # int32, uint32, bool, enum (the spec's parm_type enum)


def _typed_value(row, prefix: str, parm_type: int, planted) -> bool:
    """A value keeps the type its parm type gives it: an integer parm's value is an integer in
    ``<prefix>integer`` (the real column NA), a Real's a float in ``<prefix>real``; both NA when unknown."""
    integer, real = row[prefix + "integer"], row[prefix + "real"]
    if parm_type in INTEGER_TYPES:
        return (isinstance(planted, int) and isinstance(integer, (int, np.integer)) and integer == planted
                and pd.isna(real))
    if parm_type == 2:
        return isinstance(real, float) and real == planted and pd.isna(integer)
    return planted is None and pd.isna(integer) and pd.isna(real)


def _pas4(states, default=None) -> bytes:
    """A tiny hand-made PAS4 block: states = [(type, [(ptype, wf, weight, min_b, max_b)], [bytes])]."""
    b = bytearray(b"PAS4")
    b += struct.pack(">Ii", len(states), -1 if default is None else default)
    for st_type, parms, anims in states:
        b += struct.pack(">III", st_type, len(parms), len(anims))
        for ptype, wf, weight, lo, hi in parms:
            b += struct.pack(">IIf", ptype, wf, weight) + lo + hi
        for a in anims:
            b += a
    return bytes(b)


# ---------------------------------------------------------------- corpus shape


def test_corpus_has_bare_and_embedded_samples(pas_files, pas_manifest):
    kinds = [e["kind"] for e in pas_files.values()]
    assert kinds.count("bare") >= 12 and kinds.count("ancs") >= 3
    parms = [p for e in pas_files.values() for s in e["states"] for p in s["parms"]]
    assert {p["parm_type"] for p in parms} >= {0, 1, 2, 3, 4}
    assert {p["weight_function"] for p in parms} == {0, 1, 2, 3}
    states = [s for e in pas_files.values() for s in e["states"]]
    assert any(s["num_parm_infos"] == 0 and s["num_anim_infos"] > 0 for s in states)
    assert any(s["num_parm_infos"] > 0 and s["num_anim_infos"] == 0 for s in states)
    assert any(s["num_parm_infos"] == 0 and s["num_anim_infos"] == 0 for s in states)
    empty = pas_files[pas_manifest["planted"]["empty_file"]]
    assert empty["states"] == [] and empty["default_anim_state"] == -1


def test_every_sample_detected_and_parsed(sample_corpus, pas_files):
    files = sample_corpus.files.set_index("file")
    for name in pas_files:
        assert files.at[name, "format"] == FAMILY, name
        assert files.at[name, "ok"], name
    assert not sample_corpus.errors["file"].isin(list(pas_files)).any()


def test_block_found_and_parsed_to_its_end(tables, pas_files):
    head = tables["pas4"].set_index("file")
    for name, e in pas_files.items():
        assert head.at[name, "block_offset"] == e["pas4_offset"], name
        assert head.at[name, "block_offset"] + head.at[name, "len_block"] == e["pas4_end"], name
        assert head.at[name, "len_after_block"] == e["size"] - e["pas4_end"], name
        assert head.at[name, "num_anim_states"] == len(e["states"])
        assert head.at[name, "default_anim_state"] == e["default_anim_state"]


def test_decoy_magic_is_skipped(tables, pas_manifest, samples_dir):
    decoy = pas_manifest["planted"]["decoy_magic"]
    data = (samples_dir / decoy["file"]).read_bytes()
    assert data[decoy["offset"]:decoy["offset"] + 4] == b"PAS4"
    assert decoy["offset"] < decoy["pas4_offset"]
    assert locate(data) == decoy["pas4_offset"]


# ---------------------------------------------------------------- tables from the spec


def test_tables_come_from_the_spec():
    """The spec declares the tables, their key columns and column names (flatten rules)."""
    plan = plan_for((KSY_DIR / "pas4.ksy").read_text(encoding="utf-8"))
    layout = {t.name: (t.keys, [c.name for c in t.columns]) for t in plan.tables.values()}
    assert list(layout) == ["pas4", "pas4_states", "pas4_parms", "pas4_anims", "pas4_anim_values"]
    assert layout["pas4"] == ((), ["magic", "num_anim_states", "default_anim_state", "len_block"])
    assert layout["pas4_states"] == (("state",), ["state_type", "state_type_name", "num_parm_infos",
                                                  "num_anim_infos"])
    assert layout["pas4_parms"][0] == ("state", "parm")
    assert {"parm_type", "parm_type_name", "weight_function", "weight_function_name", "weight",
            "min_value.integer", "min_value.real", "max_value.integer", "max_value.real",
            "is_known_type"} <= set(layout["pas4_parms"][1])
    assert layout["pas4_anims"] == (("state", "anim"), ["anim_id"])
    assert layout["pas4_anim_values"] == (("state", "anim", "parm"), ["integer", "real", "is_known_type"])


def test_derived_columns_and_claims_declare_spec_columns():
    """A renamed field must make them "not testable": every column they read is in the spec's plan."""
    plan = plan_for((KSY_DIR / "pas4.ksy").read_text(encoding="utf-8"))
    spec_cols = {(t.name, c) for t in plan.tables.values() for c in t.keys + tuple(c.name for c in t.columns)}
    fmt = get_format(FAMILY)
    assert {(d.table, d.column) for d in fmt.derived} >= {
        ("pas4", "block_offset"), ("pas4", "len_after_block"), ("pas4", "default_is_state_type"),
        ("pas4", "states_sorted"), ("pas4_states", "is_default"), ("pas4_anim_values", "parm_type")}
    for d in fmt.derived:
        assert d.reads and set(d.reads) <= spec_cols, (d.column, set(d.reads) - spec_cols)
        assert (d.table, d.column) not in spec_cols, d.column
    for c in fmt.claims:
        assert c.reads and set(c.reads) <= spec_cols, (c.text, set(c.reads) - spec_cols)
        assert "/" not in c.source and ".md" not in c.source and "seeds" not in c.source, c.source


# ---------------------------------------------------------------- values against the manifest


def test_states_match_manifest(tables, pas_files):
    df = tables["pas4_states"].set_index(["file", "state"])
    n = 0
    for name, e in pas_files.items():
        for si, s in enumerate(e["states"]):
            row = df.loc[(name, si)]
            assert row["state_type"] == s["state_type"]
            assert row["state_type_name"] == s["state_type_name"]
            assert row["num_parm_infos"] == s["num_parm_infos"] == len(s["parms"])
            assert row["num_anim_infos"] == s["num_anim_infos"] == len(s["anims"])
            assert bool(row["is_default"]) == s["is_default"]
            n += 1
    assert n == len(df)


def test_parms_match_manifest(tables, pas_files):
    df = tables["pas4_parms"].set_index(["file", "state", "parm"])
    n = 0
    for name, e in pas_files.items():
        for si, s in enumerate(e["states"]):
            for pi, p in enumerate(s["parms"]):
                row = df.loc[(name, si, pi)]
                assert row["parm_type"] == p["parm_type"]
                assert _same(row["parm_type_name"] if isinstance(row["parm_type_name"], str) else None,
                             p["parm_type_name"])
                assert bool(row["is_known_type"]) == p["is_known_type"]
                assert row["weight_function"] == p["weight_function"]
                assert row["weight_function_name"] == p["weight_function_name"]
                assert row["weight"] == p["weight"]
                assert _typed_value(row, "min_value.", p["parm_type"], p["min_value"]), (name, si, pi)
                assert _typed_value(row, "max_value.", p["parm_type"], p["max_value"]), (name, si, pi)
                assert bool(row["min_value.is_known_type"]) == bool(row["max_value.is_known_type"]) \
                    == p["is_known_type"]
                n += 1
    assert n == len(df)


def test_anims_and_values_match_manifest(tables, pas_files):
    anims = tables["pas4_anims"].set_index(["file", "state", "anim"])
    values = tables["pas4_anim_values"]
    # the anim a value belongs to: join on the key columns (file, state, anim)
    vals = values.merge(tables["pas4_anims"][["file", "state", "anim", "anim_id"]],
                        on=["file", "state", "anim"], how="left", validate="many_to_one")
    vals = vals.set_index(["file", "state", "anim", "parm"])
    num_values = values.groupby(["file", "state", "anim"]).size()
    na = nv = 0
    for name, e in pas_files.items():
        for si, s in enumerate(e["states"]):
            for ai, a in enumerate(s["anims"]):
                assert anims.loc[(name, si, ai), "anim_id"] == a["anim_id"]
                assert num_values.get((name, si, ai), 0) == len(s["parms"])
                na += 1
                for pi, v in enumerate(a["values"]):
                    row = vals.loc[(name, si, ai, pi)]
                    assert row["anim_id"] == a["anim_id"]
                    assert row["parm_type"] == s["parms"][pi]["parm_type"]
                    assert _typed_value(row, "", s["parms"][pi]["parm_type"], v), (name, si, ai, pi, v)
                    nv += 1
    assert na == len(anims) and nv == len(vals)


def test_cells_point_at_their_bytes(sample_corpus, samples_dir, pas_files):
    """Spans are absolute (block offset added for containers) and hold the value's bytes."""
    df = sample_corpus.tables["pas4_anim_values"]
    starts, ends = sample_corpus.spans["pas4_anim_values"]
    checked = 0
    for i in df.index[df["is_known_type"] & df["file"].isin(list(pas_files))]:
        name = df.at[i, "file"]
        data = (samples_dir / name).read_bytes()
        ptype = df.at[i, "parm_type"]
        col, other = ("real", "integer") if ptype == 2 else ("integer", "real")
        s, e = int(starts.at[i, col]), int(ends.at[i, col])
        assert pd.isna(starts.at[i, other])  # the other column read nothing
        fmt = {0: ">i", 1: ">I", 2: ">f", 3: ">B", 4: ">i"}[ptype]
        assert e - s == struct.calcsize(fmt)
        assert struct.unpack(fmt, data[s:e])[0] == df.at[i, col]
        assert pas_files[name]["pas4_offset"] <= s < pas_files[name]["pas4_end"]
        checked += 1
    assert checked > 100


def test_byte_coverage_of_block_is_complete(sample_corpus, pas_files):
    for name, e in pas_files.items():
        fields = sample_corpus.fields(name, values=False)
        leaves = fields[(fields["type"] != "struct") & (fields["type"] != "array") & fields["start"].notna()]
        covered = bytearray(e["size"])
        for s, t in zip(leaves["start"], leaves["end"]):
            covered[int(s):int(t)] = b"\x01" * (int(t) - int(s))
        off, end = e["pas4_offset"], e["pas4_end"]
        assert all(covered[off:end]), (name, covered[off:end].find(0) + off)
        # container bytes outside the block are the expected gaps, nothing else is read
        assert not any(covered[:off]) and not any(covered[end:]), name


# ---------------------------------------------------------------- planted regularities


def test_planted_regularities_visible_in_tables(tables, pas_manifest):
    planted = pas_manifest["planted"]
    parms = tables["pas4_parms"]
    nw = parms[parms["weight_function"] == 3]
    exc = planted["no_weight_weight_exception"]
    assert (nw.loc[nw["file"] != exc["file"], "weight"] == 1.0).all()
    odd = nw[(nw["file"] == exc["file"]) & (nw["weight"] != 1.0)]
    assert sorted(zip(odd["state"], odd["parm"])) == sorted((p["state"], p["parm"]) for p in exc["parms"])

    vals = tables["pas4_anim_values"]
    ranges = parms[["file", "state", "parm", "min_value.real", "max_value.real"]].rename(
        columns={"min_value.real": "parm_min", "max_value.real": "parm_max"})
    real = vals[vals["parm_type"] == 2].merge(ranges, on=["file", "state", "parm"], how="left")
    out = real[(real["real"] < real["parm_min"]) | (real["real"] > real["parm_max"])]
    r = planted["real_out_of_range"]
    assert list(zip(out["file"], out["state"], out["anim"], out["parm"])) == [
        (r["file"], r["state"], r["anim"], r["parm"])]

    states = tables["pas4_states"]
    later = states[states["state_type"] >= 21]
    assert set(later["file"]) == {planted["later_game_file"]}
    assert set(later["state_type"]) == set(planted["later_game_state_types"])

    head = tables["pas4"]
    assert sorted(head.loc[~head["states_sorted"], "file"]) == sorted(planted["states_unsorted"])

    rc = planted["random_column"]
    col = vals[(vals["file"] == rc["file"]) & (vals["state"] == rc["state"]) & (vals["parm"] == rc["parm"])]
    assert len(col) >= 5 and col["integer"].nunique() == len(col) and col["integer"].max() > 2**20
    # a uint32 past 2**31 stays an exact integer (no float rounding, no 1.816825e+09)
    assert str(col["integer"].dtype) == "Int64" and col["real"].isna().all()
    planted = [a["values"][rc["parm"]] for a in pas_manifest["files"][rc["file"]]["states"][rc["state"]]["anims"]]
    assert sorted(int(v) for v in col["integer"]) == sorted(planted)


def test_unknown_parm_type_is_flagged_not_guessed(tables, pas_manifest):
    u = pas_manifest["planted"]["unknown_parm_type"]
    parms = tables["pas4_parms"].set_index(["file", "state", "parm"])
    row = parms.loc[(u["file"], u["state"], u["parm"])]
    assert row["parm_type"] == u["parm_type"] == 7
    assert not row["is_known_type"]
    assert all(pd.isna(row[f"{m}.{k}"]) for m in ("min_value", "max_value") for k in ("integer", "real"))
    assert pd.isna(row["parm_type_name"])
    assert not row["min_value.is_known_type"] and not row["max_value.is_known_type"]
    vals = tables["pas4_anim_values"]
    col = vals[(vals["file"] == u["file"]) & (vals["state"] == u["state"]) & (vals["parm"] == u["parm"])]
    assert len(col) > 0 and (~col["is_known_type"]).all() and col[["integer", "real"]].isna().all().all()
    # every other value of the corpus is known
    assert vals.drop(col.index)["is_known_type"].all()


def test_unknown_parm_type_takes_no_bytes_in_a_hand_made_block():
    anim = struct.pack(">I", 42) + struct.pack(">f", 0.5)  # the unknown parm contributes 0 bytes
    data = _pas4([(5, [(7, 0, 1.0, b"", b""), (2, 1, 2.0, struct.pack(">f", 0.0), struct.pack(">f", 1.0))],
                   [anim])], default=5)
    _, obj, _ = parse(data, "hand.pas4", "pas4")
    st = obj.anim_states[0]
    assert not st.parm_infos[0].is_known_type and st.parm_infos[1].is_known_type
    assert not hasattr(st.parm_infos[0].min_value, "integer") and not hasattr(st.parm_infos[0].min_value, "real")
    assert st.anim_infos[0].anim_id == 42
    assert st.anim_infos[0].values[1].real == 0.5 and not hasattr(st.anim_infos[0].values[1], "integer")
    assert obj._debug["anim_states"]["end"] == len(data)
    assert obj.len_block == len(data)  # the spec's block length: where the engine reader stops


# ---------------------------------------------------------------- claims


def test_claims(sample_corpus, pas_manifest):
    claims = get_format(FAMILY).claims
    assert len(claims) >= 5
    planted = pas_manifest["planted"]
    results = {c.text: c.check(sample_corpus) for c in claims}
    for text, df in results.items():
        assert list(df.columns) == ["file", "holds", "offset", "value", "detail", "expected"], text
        assert len(df) > 0, text
        assert df["offset"].notna().all(), text
    by = {t.split(" (")[0].split(".")[0]: df for t, df in results.items()}
    assert by["The default anim state is -1 when there are no anim states"]["holds"].all()
    assert by["The default anim state is one of the file's anim state types"]["holds"].all()
    assert by["Bool anim values are 0 or 1"]["holds"].all()
    assert by["Weight functions are 0-3"]["holds"].all()
    many = by["At most 8 parms per anim state"]
    assert list(many.loc[~many["holds"], "file"]) == [planted["too_many_parms"]["file"]]
    ptypes = by["Parm types are 0-4"]
    bad = ptypes[~ptypes["holds"]]
    assert list(bad["file"]) == [planted["unknown_parm_type"]["file"]] and list(bad["value"]) == [7]
    old = by["Anim state types are 0-20"]
    assert set(old.loc[~old["holds"], "file"]) == {planted["later_game_file"]}


def test_claim_offsets_point_at_bytes(sample_corpus, samples_dir, pas_files):
    claim = next(c for c in get_format(FAMILY).claims if c.text.startswith("The default anim state is one"))
    df = claim.check(sample_corpus)
    df = df[df["file"].isin(list(pas_files))]
    assert len(df)
    for _, row in df.iterrows():
        data = (samples_dir / row["file"]).read_bytes()
        assert row["offset"] == pas_files[row["file"]]["pas4_offset"] + 8
        assert struct.unpack_from(">i", data, int(row["offset"]))[0] == row["value"]


# ---------------------------------------------------------------- hostile input


def test_huge_state_count_fails_naming_the_field():
    data = b"PAS4" + b"\xff\xff\xff\xff" + struct.pack(">i", -1) + bytes(64)
    with pytest.raises(ParseError) as ei:
        parse(data, "huge.pas4", "pas4")
    assert ei.value.path == "num_anim_states" and ei.value.offset == 4
    assert str(ei.value).startswith("huge.pas4: num_anim_states @ 0x4")


def test_huge_state_count_in_a_container_reports_absolute_offset():
    data = b"made-up ANCS head" + b"PAS4" + b"\xff\xff\xff\xff" + struct.pack(">i", -1) + bytes(8)
    with pytest.raises(ParseError) as ei:
        parse(data, "huge.ancs", "pas4")
    assert ei.value.path == "num_anim_states" and ei.value.offset == 17 + 4


@pytest.mark.parametrize("which, path", [
    (1, "anim_states[0].num_parm_infos"),
    (2, "anim_states[0].num_anim_infos"),
])
def test_huge_inner_counts_fail_naming_the_field(which, path):
    counts = [5, 0, 0]
    counts[which] = 0xFFFFFFFF
    data = b"PAS4" + struct.pack(">Ii", 1, 5) + struct.pack(">III", *counts) + bytes(32)
    with pytest.raises(ParseError) as ei:
        parse(data, "huge.pas4", "pas4")
    assert ei.value.path == path
    assert ei.value.offset == 12 + 4 * which


def test_truncated_block_is_a_parse_error(samples_dir, pas_files):
    name = next(n for n, e in pas_files.items() if e["kind"] == "bare" and e["size"] > 200)
    data = (samples_dir / name).read_bytes()[:-3]
    with pytest.raises(ParseError) as ei:
        parse(data, name, "pas4")
    assert ei.value.path.startswith("anim_states[")


def test_container_without_block():
    with pytest.raises(ParseError, match="no .* block found"):
        parse(b"\x00\x01" + bytes(40), "nothing.ancs", "pas4")


def test_detection_by_content():
    block = _pas4([(5, [], [struct.pack(">I", 0)])], default=5)
    fmt, score = detect_format(block, len(block), "whatever.bin")
    assert fmt is not None and fmt.name == FAMILY and score >= 0.9
    wrapped = b"\x00\x01" + bytes(30) + block + bytes(10)
    fmt, _ = detect_format(wrapped, len(wrapped), "x.dat")
    assert fmt is not None and fmt.name == FAMILY
    assert get_format(FAMILY).detect(bytes(64), 64, "x.dat") == 0.0


def test_empty_block_round_trip():
    data = _pas4([])
    _, obj, _ = parse(data, "e.pas4", "pas4")
    assert obj.num_anim_states == 0 and obj.default_anim_state == -1 and obj.anim_states == []


def test_open_corpus_on_a_single_container(samples_dir, pas_files):
    name = next(n for n, e in pas_files.items() if e["kind"] == "ancs")
    c = animre.open_corpus(samples_dir / name, cache=False)
    assert c.errors.empty
    assert c.tables["pas4"]["block_offset"].tolist() == [pas_files[name]["pas4_offset"]]


def test_container_with_several_blocks_yields_every_block(samples_dir, manifest, tmp_path):
    """An ANCS character set holds one PAS4 per character: every block is parsed, keyed by `block`."""
    truth = manifest["formats"]["pas4"]["files"]
    bare = sorted(n for n, e in truth.items() if n.endswith(".pas4") and e["num_anim_states"] > 0)[:3]
    junk = b"CHARINFO" + bytes(range(40))  # made-up character data between the databases
    data, offsets = junk, []
    for n in bare:
        offsets.append(len(data))
        data += (samples_dir / n).read_bytes() + junk
    (tmp_path / "Set.ancs").write_bytes(data)
    c = animre.open_corpus(tmp_path, cache=False)
    assert c.errors.empty, c.errors.message.tolist()
    head = c.tables["pas4"]
    assert head["block"].tolist() == [0, 1, 2]
    assert head["block_offset"].tolist() == offsets
    states = c.tables["pas4_states"]
    parms = c.tables["pas4_parms"]
    for k, n in enumerate(bare):
        e = truth[n]
        assert head.loc[k, "num_anim_states"] == e["num_anim_states"]
        assert head.loc[k, "default_anim_state"] == e["default_anim_state"]
        got = states[states.block == k]
        assert got["state_type"].tolist() == [s["state_type"] for s in e["states"]]
        # derived columns join within their own block, never across blocks of one file
        assert got["is_default"].tolist() == [s["is_default"] for s in e["states"]]
        assert bool(head.loc[k, "default_is_state_type"]) == any(s["is_default"] for s in e["states"])
        assert head.loc[k, "len_block"] == e["pas4_end"] - e["pas4_offset"]
        want_w = [p["weight"] for s in e["states"] for p in s["parms"]]
        assert np.allclose(parms[parms.block == k]["weight"].to_numpy(dtype=float), want_w)
    # spans are absolute in the container: the default-state word of block k sits at offset + 8
    s, _ = c.spans["pas4"]
    assert [int(x) for x in s["default_anim_state"]] == [o + 8 for o in offsets]
    f = c.fields("Set.ancs")
    assert {p.split(".")[0] for p in f.path} == {"blocks[0]", "blocks[1]", "blocks[2]"}
