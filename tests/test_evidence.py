"""Evidence a researcher can read: values, claims, statistics, coverage and comparisons,
checked against what the sample generators planted (data/samples/manifest.json)."""

from __future__ import annotations

import numpy as np

import animre
from animre.display import fmt, formatters, hex_digits
from animre.export import wiki_table

# ----------------------------------------------------------------------------- values


def test_numpy_scalars_print_as_plain_python():
    assert fmt(np.int64(619)) == "619"
    assert fmt(np.False_) == "False" and fmt(np.bool_(True)) == "True"
    assert fmt(np.float64(0.0129345998)) == "0.0129346"
    assert fmt([(np.int64(3), np.int64(5))]) == "[(3, 5)]"


def test_floats_are_short():
    # an f32 reading of an integer's bytes: 27-digit numbers become scientific
    big = float(np.frombuffer(np.uint32(0x6C800000).tobytes(), dtype=np.float32)[0])
    assert len(str(int(big))) > 20
    s = fmt(big, ksy_type="f32le")
    assert "e+" in s and len(s.split("e")[0].replace(".", "")) <= 9  # float32: at most 9 digits
    assert fmt(float(np.float32(0.1)), ksy_type="f4") == "0.1"  # not 0.10000000149011612
    assert fmt(float(np.float32(3.14159274)), ksy_type="f4") == "3.1415927"


def test_arrays_element_by_element_and_bytes_as_hex():
    assert fmt(np.array([1, -2, 3], dtype=np.int8)) == "[1, -2, 3]"
    assert fmt(bytes([0, 0xAB, 0x10])) == "00 ab 10"
    assert fmt(list(range(40)), max_items=3) == "[0, 1, 2, ... (40 items)]"


def test_hex_width_follows_the_ksy_type():
    assert fmt(0x0202, hex_digits=hex_digits("flags", "u2")) == "0x0202"
    assert fmt(0xF1F1F2F2, hex_digits=hex_digits("creator", "u4")) == "0xF1F1F2F2"
    assert fmt(1, hex_digits=hex_digits("magic", "u1")) == "0x01"
    assert hex_digits("walk_speed", "u4") is None and hex_digits("x", "f4", magic=True) is None
    # from the profile: a constant with many set bits; a flag pattern
    assert hex_digits("unknown_0", "u2", constant=0xAF12) == 4
    assert hex_digits("unknown_0", "u2", constant=320) is None
    assert hex_digits("unknown_0", "u2", alerts=["LOOKS_LIKE_FLAGS"]) == 4


def test_magic_fields_in_hex_in_profiles_and_wiki_tables(sample_corpus, manifest):
    files = manifest["formats"]["flc"]["files"]
    civ3 = [f for f, v in files.items() if v["header"].get("creator") == 0xF1F1F2F2]
    magics = {v["header"]["magic"] for v in files.values()}
    assert civ3 and magics == {0xAF12}
    w = wiki_table(sample_corpus, "flc_files").set_index("name")
    assert w.loc["header.magic", "observed"].startswith(f"0x{0xAF12:04X} in ")
    assert w.loc["header.creator", "observed"].startswith(f"0x{0xF1F1F2F2:08X} in {len(civ3)}/")
    prof = animre.profile("flc_files", corpus=sample_corpus)
    notes = dict(prof.set_index("column").at["header.magic", "notes"])
    assert notes["CONSTANT"].startswith("0xAF12 in ")
    # the spec marks magic values: the valid constants of header.magic
    info = sample_corpus.columns("flc_files").set_index("column")
    assert bool(info.at["header.magic", "magic"]) and not bool(info.at["header.width", "magic"])
    style = formatters(info.reset_index(), prof)
    assert style["header.magic"](np.int64(0xAF12)) == "0xAF12"
    assert style["header.width"](np.int64(64)) == "64"


def test_column_profiler_shows_plain_values(sample_corpus):
    from animre.widgets import column_profiler

    prof = column_profiler(sample_corpus, "frm", "walk_speed")
    assert "np." not in prof.summary_html and "np.int64" not in prof.summary_html
    prof.select(table="flc_files", column="header.magic")
    assert "0xAF12" in prof.summary_html


def test_explorer_shows_array_elements(sample_corpus, manifest):
    from animre.widgets import corpus_explorer

    f = "frm/GOBLNFRM.BIN"
    ex = corpus_explorer(sample_corpus).select(file=f, path="x_offsets[0].offsets")
    planted = manifest["formats"]["frm"]["files"][f]
    assert "None" not in ex.info.value
    assert fmt(planted["x_offsets"][0]) in ex.info.value
