"""Evidence a researcher can read: values, claims, statistics, coverage and comparisons,
checked against what the sample generators planted (data/samples/manifest.json)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import animre
from animre.base.display import fmt, formatters, hex_digits
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


def test_magic_fields_in_hex_in_profiles_and_wiki_tables(sample_corpus, truths, count_distinct):
    files = truths("flc")  # loose files and archive members
    civ3 = {f: v for f, v in files.items() if v["header"].get("creator") == 0xF1F1F2F2}
    magics = {v["header"]["magic"] for v in files.values()}
    assert civ3 and magics == {0xAF12}
    w = wiki_table(sample_corpus, "flc_files").set_index("name")
    assert w.loc["header.magic", "observed"].startswith(f"0x{0xAF12:04X} in ")
    assert w.loc["header.creator", "observed"].startswith(f"0x{0xF1F1F2F2:08X} in {count_distinct(civ3)}/")
    prof = animre.profile(sample_corpus, "flc_files")
    notes = dict(prof.set_index("column").at["header.magic", "notes"])
    assert notes["CONSTANT"].startswith("0xAF12 in ")
    # the spec marks magic values: the valid constants of header.magic
    info = sample_corpus.columns("flc_files").set_index("column")
    assert bool(info.at["header.magic", "magic"]) and not bool(info.at["header.width", "magic"])
    style = formatters(info.reset_index(), prof)
    assert style["header.magic"](np.int64(0xAF12)) == "0xAF12"
    assert style["header.width"](np.int64(64)) == "64"


def test_markdown_export_writes_magic_values_in_hex(sample_corpus, tmp_path):
    from animre.export import export

    (md,) = export({"flc_files": sample_corpus.tables["flc_files"]}, tmp_path, "md", corpus=sample_corpus)
    text = md.read_text()
    assert "| 0xAF12 |" in text and "| 44818 |" not in text and "np." not in text
    (plain_md,) = export({"flc_files": sample_corpus.tables["flc_files"]}, tmp_path / "p", "md")
    assert "| 44818 |" in plain_md.read_text()  # without the spec, a number is a number


def test_column_profiler_shows_plain_values(sample_corpus):
    from animre.present.widgets import column_profiler

    prof = column_profiler(sample_corpus, "frm", "walk_speed")
    assert "np." not in prof.summary_html and "np.int64" not in prof.summary_html
    prof.select(table="flc_files", column="header.magic")
    assert "0xAF12" in prof.summary_html


def test_explorer_shows_array_elements(sample_corpus, manifest):
    from animre.present.widgets import corpus_explorer

    f = "frm/GOBLNFRM.BIN"
    ex = corpus_explorer(sample_corpus).select(file=f, path="x_offsets[0].offsets")
    planted = manifest["formats"]["frm"]["files"][f]
    assert "None" not in ex.info.value
    assert fmt(planted["x_offsets"][0]) in ex.info.value


# ----------------------------------------------------------------------------- claims


def test_a_claim_failing_on_one_planted_item_stands_out(sample_corpus, manifest, samples_dir, truths,
                                                        count_distinct):
    from animre.present import plots
    from animre.present.widgets import claims_board

    civ3 = manifest["formats"]["flc"]
    (odd,) = civ3["planted"]["anim_time_exceptions"]
    # the unit files: the loose ones and those of the zipped unit pack (byte-identical copies count once)
    units = [f for f, v in truths("flc").items() if v.get("flicanim")]
    assert set(civ3["planted"]["unit_files"]) < set(units)
    n = count_distinct({f: truths("flc")[f] for f in units})
    assert n < len(units)  # the pack repeats some loose files
    board = claims_board(sample_corpus, formats=["flc"])
    s = board.summary.reset_index(drop=True)
    i = next(i for i, t in enumerate(s["claim"]) if t.startswith("anim_time = anim_length"))
    row = s.iloc[i]
    assert (row["holds"], row["tested"], row["fails"]) == (n - 1, n, 1)
    assert row["verdict"] == f"{n - 1}/{n} hold, 1 fails"
    assert len(row["copies"]) == len(units) - n
    # the board: the share, and the failing count written in the fails colour
    ax = board.figure.axes[0]
    texts = [t for t in ax.texts if t.get_text().strip() == row["verdict"]]
    assert len(texts) == 1 and texts[0].get_color() == plots.FAILS_COLOUR
    assert ax.get_yticklabels()[i].get_color() == plots.FAILS_COLOUR
    assert row["claim"] in " ".join(ax.get_yticklabels()[i].get_text().split())  # full text, wrapped
    # the counterexample: file, offset, expected, found; the offset points at the planted bytes
    (ce,) = row["counterexamples"]
    planted = civ3["files"][odd]["flicanim"]
    assert ce["file"] == odd
    raw = (samples_dir / odd).read_bytes()
    assert int.from_bytes(raw[ce["offset"]:ce["offset"] + 4], "little") == planted["anim_time"] == ce["value"]
    assert ce["expected"] == planted["anim_length"] * civ3["files"][odd]["header"]["speed"]
    board.select(i)
    assert board.details.iloc[0]["file"] == odd and "1 fails" in board.detail.value


def test_every_counterexample_has_an_offset_and_every_claim_a_source(sample_corpus):
    res = animre.claims(sample_corpus, max_counterexamples=10**6)
    assert (res["source"].str.len() > 10).all()
    assert not res["source"].str.contains(r"\.\./|NOTES\.md|seeds/", regex=True).any()
    # the only claim without a single place in the file is computed over every frame chunk
    unlocated = {r["claim"] for _, r in res.iterrows() for c in r["counterexamples"] if c["offset"] is None}
    assert unlocated <= {"a palette only in the first frame"}
    assert all("expected" in c for cs in res["counterexamples"] for c in cs)


def _words(text: str) -> str:
    return " ".join(text.split()).lower()


def test_every_format_has_a_page_naming_its_sources():
    import re

    import yaml

    from animre.formats import all_formats
    from animre.spec.compiler import PROJECT_ROOT

    docs = PROJECT_ROOT / "docs" / "formats"
    for name, f in all_formats().items():
        page = docs / f"{name}.md"
        assert page.is_file(), f"no docs/formats/{name}.md"
        text = _words(page.read_text(encoding="utf-8"))
        assert "## sources" in text
        spec = yaml.safe_load((PROJECT_ROOT / "ksy" / f"{name}.ksy").read_text(encoding="utf-8"))
        assert spec.get("doc") and spec.get("doc-ref"), name
        for ref in spec["doc-ref"] if isinstance(spec["doc-ref"], list) else [spec["doc-ref"]]:
            assert "../" not in ref and "NOTES.md" not in ref and "seeds/" not in ref
            if not ref.startswith("http"):
                assert _words(re.split(r"[,(]", ref)[0]) in text, (name, ref)
        for cl in f.claims:
            assert _words(cl.source.split("(")[0]) in text, (name, cl.source)
            assert "../" not in cl.source


# ----------------------------------------------------------------------------- statistics


def _unit_folders(seed: int = 5) -> tuple[pd.DataFrame, dict]:
    """Civ3-like headers: 8 unit folders x 6 actions. Planted: anim_time = speed x anim_length
    (one exception), a 'when' rule confined to the Tank folder (its files share every value),
    and a 'when' rule that holds across folders (category 3 -> loops 1)."""
    rng = np.random.default_rng(seed)
    rows = []
    units = ["Archer", "Catapult", "Galley", "Knight", "Settler", "Spearman", "Warrior", "Tank"]
    for u in units:
        for a in ["Attack", "Default", "Death", "Fidget", "Run", "Victory"]:
            if u == "Tank":
                speed, length, pal = 61, 15, 7
            else:
                speed, length, pal = int(rng.integers(40, 126)), int(rng.integers(4, 13)), int(rng.integers(0, 40))
            cat = int(rng.integers(0, 6))
            rows.append({"file": f"{u}/{a}.flc", "unit": u, "speed": speed, "anim_length": length,
                         "anim_time": speed * length, "palette_id": pal, "category": cat,
                         "loops": 1 if cat == 3 else int(rng.integers(2, 9))})
    df = pd.DataFrame(rows)
    df.loc[3, "anim_time"] += 7  # the one exception of the general rule
    return df, {"when_group": "Tank", "exception_file": df.at[3, "file"]}


def _mentions(r: pd.DataFrame, text: str) -> pd.DataFrame:
    return r[r["parameter"].astype(str).str.contains(text, regex=False)]


def test_a_when_rule_of_one_folder_is_not_a_finding():
    df, planted = _unit_folders()
    r = animre.relations(None, df, columns=["speed", "anim_length", "anim_time", "palette_id", "category", "loops"],
                         derived=False)
    # the Tank folder's shared values (anim_time 915, speed 61, palette 7) make no rule
    assert _mentions(r, "== 915").empty and _mentions(r, "== 61").empty and _mentions(r, "== 7 ").empty
    # ... which counting rows instead of folders would report
    rows = animre.relations(None, df, columns=["speed", "anim_length", "anim_time", "palette_id", "category", "loops"],
                            derived=False, groups=None)
    assert not _mentions(rows, "== 915").empty or not _mentions(rows, "== 61").empty
    # the general product ranks first, with its one exception; groups are counted
    best = r.iloc[0]
    assert best["target"] == "anim_time" and best["source"] in ("speed * anim_length", "anim_length * speed")
    assert best["relation"] == "equal"
    assert [c["file"] for c in best["counterexamples"]] == [planted["exception_file"]]
    assert (best["n_rows"], best["n_agree"], best["n_groups"], best["groups_agree"]) == (48, 47, 8, 8)
    # a partial rule that holds across folders is still found, below every general rule
    loops = _mentions(r, "category == 3 -> loops == 1")
    assert len(loops) == 1 and loops.iloc[0]["groups_agree"] >= 2
    partial = r["relation"].isin(["when", "only_when"]).to_numpy()
    assert not (partial[:-1] & ~partial[1:]).any()  # no general rule after a partial one


def test_groups_can_be_any_column():
    df, _ = _unit_folders()
    df["file"] = [f.replace("/", "_") for f in df["file"]]  # one folder: the unit column groups
    r = animre.relations(None, df, columns=["anim_time", "speed", "palette_id"], derived=False, groups="unit")
    assert _mentions(r, "== 915").empty and _mentions(r, "== 61").empty
    with pytest.raises(animre.UsageError):
        animre.relations(None, df, columns=["anim_time", "speed"], groups="no_such_column")


def test_identical_files_count_once(samples_dir, tmp_path):
    import shutil

    src = sorted((samples_dir / "frm").glob("*.BIN"))
    for f in src:
        shutil.copy(f, tmp_path / f.name)
    copies = tmp_path / "copies"
    copies.mkdir()
    for i in range(5):  # planted: five copies of one file under other names
        shutil.copy(src[0], copies / f"COPY{i}FRM.BIN")
    c = animre.open_corpus(tmp_path, cache=False)
    assert len(c.tables["frm"]) == len(src) + 5
    r = animre.relations(c, "frm", columns=["num_idles", "num_idles_raw"], derived=False)
    r_all = animre.relations(c, "frm", columns=["num_idles", "num_idles_raw"], derived=False,
                             unique_files=False)
    assert len(r) and set(r["n_rows"]) <= set(range(len(src) + 1))
    assert r_all["n_rows"].max() > r["n_rows"].max()
    prof = animre.profile(c, "frm", columns=["walk_speed"])
    assert int(prof.at[0, "count"]) == len(src)
    assert int(animre.profile(c, "frm", columns=["walk_speed"], unique_files=False).at[0, "count"]) \
        == len(src) + 5


# ----------------------------------------------------------------------------- coverage

PIXEL_CHUNKS = {7, 12, 15, 16}  # DELTA_FLC, DELTA_FLI, BYTE_RUN, COPY (FLIC format description)
PALETTE_CHUNKS = {4, 11}


def test_flc_pixel_blobs_are_opaque_and_typed_fields_explained(sample_corpus, manifest):
    from animre.research import byte_categories, coverage_by_format
    from animre.research._coverage import GAP, OPAQUE, TYPED

    files = manifest["formats"]["flc"]["files"]
    n_pixel = n_palette = 0
    for name, v in files.items():
        cat = byte_categories(sample_corpus.fields(name, values=False), v["size"])
        assert (cat[0:6] == TYPED).all()  # len_file, magic
        for fr in v["frames"]:
            assert (cat[fr["offset"]:fr["offset"] + 6] == TYPED).all()  # frame chunk header
            for ch in fr["chunks"]:
                head, body = ch["offset"], ch["offset"] + 6
                end = ch["offset"] + ch["len_real"]
                assert (cat[head:body] == TYPED).all(), (name, ch)
                if ch["type"] in PIXEL_CHUNKS and end > body:
                    n_pixel += 1
                    assert (cat[body:end] == OPAQUE).all(), (name, ch)
                elif ch["type"] in PALETTE_CHUNKS:
                    n_palette += 1
                    assert (cat[body:end] == TYPED).all(), (name, ch)  # packets and colours
        assert not (cat == GAP).any()
    assert n_pixel >= 10 and n_palette >= 5
    per_file = animre.coverage(sample_corpus, files=list(files)).per_file
    assert (per_file["share"] == 1.0).all()  # every byte is read ...
    assert (per_file["share_typed"] < 0.6).all()  # ... but most of an FLC is pixel data, not understood
    assert (per_file["typed"] + per_file["opaque"] == per_file["covered"]).all()
    by = coverage_by_format(per_file).set_index("format")
    assert by.at["flc", "opaque"] == per_file["opaque"].sum() and by.at["flc", "share_opaque"] > 0.4


def test_switch_values_of_a_type_are_typed(sample_corpus, manifest):
    # PAS4 min/max and per-animation values are read through a switch on the parm type (u1/u4/f4):
    # typed, not opaque; the spec reads no raw bytes at all
    files = [f for f in manifest["formats"]["pas4"]["files"] if f.endswith(".pas4")]
    per_file = animre.coverage(sample_corpus, files=files).per_file
    assert per_file["ok"].all() and (per_file["opaque"] == 0).all() and (per_file["typed"] > 0).all()


# ----------------------------------------------------------------------------- compare


def test_compare_grid_marks_exactly_the_planted_cells(sample_corpus, manifest, samples_dir):
    from animre.present import plots
    from animre.present.widgets import compare_view

    planted = manifest["formats"]["omf"]["planted"]["unknown_9_constant"]
    exc = planted["exception"]
    cmp = animre.compare(sample_corpus, "af_moves", "unknown_9", by="move_number")
    fighters = [f for f in manifest["formats"]["omf"]["files"] if f.startswith("af/")]
    assert set(cmp.values.index) == set(fighters)
    cells = {(f, m) for f in cmp.differs.index for m in cmp.differs.columns if cmp.differs.at[f, m]}
    assert cells == {(exc["file"], exc["move"])}
    assert cmp.values.at[exc["file"], exc["move"]] == exc["value"]
    assert cmp.offsets.at[exc["file"], exc["move"]] == exc["offset"]
    assert (samples_dir / exc["file"]).read_bytes()[exc["offset"]] == exc["value"]
    assert set(cmp.common.dropna()) == {planted["value"]}
    # the default key is the spec's record id (move_number)
    assert animre.compare(sample_corpus, "af_moves", "unknown_9").differs.equals(cmp.differs)
    # the plot and the widget mark the same single cell
    img = plots.compare_grid(cmp).axes[0].images[0].get_array()
    assert int((np.asarray(img) == 2).sum()) == 1
    view = compare_view(sample_corpus, "af_moves", "unknown_9")
    assert view.grid_html.count('class="diff"') == 1
    assert f'class="diff" data-offset="{exc["offset"]}"' in view.grid_html
    # one row per file: the odd FRM magic
    frm = animre.compare(sample_corpus, "frm", "unknown_magic")
    odd = manifest["formats"]["frm"]["planted"]["odd_magic_file"]
    assert frm.differs.index[frm.differs.iloc[:, 0]].tolist() == [odd]
    with pytest.raises(animre.UsageError):
        animre.compare(sample_corpus, "af_moves", "unknown_9", by="category")  # not a record key


# ----------------------------------------------------------------------------- readable values, honest counts


def test_quantities_read_in_decimal_and_bit_patterns_in_hex():
    # what a name says: counts, sizes, offsets, dimensions and times are decimal, whatever else is seen
    for name, kw in [("header.width", {"constant": 120}), ("header.flicanim.x_offset", {"constant": 60}),
                     ("header.bit_depth", {"alerts": ["LOOKS_LIKE_FLAGS"]}), ("ofs_frame1", {}),
                     ("num_frame_chunks", {"doc": "Number of frame chunks (0xF1FA) in the file."}),
                     ("len_header", {"magic": True}), ("anim_time", {"constant": 0xF0F0}),
                     ("idle_weights[2]", {"alerts": ["LOOKS_LIKE_FLAGS"]})]:
        assert hex_digits(name, "u2", **kw) is None, name
    # magic values, flags, hashes and ids are hex
    for name, kw in [("header.magic", {}), ("header.flicanim.flags", {}), ("name_hash", {}), ("bone_id", {}),
                     ("unknown_0", {"magic": True}),
                     ("header.flicanim.directions", {"doc": "Bit set of the directions"}),
                     ("unknown_3", {"constant": 0xAF12}), ("unknown_4", {"alerts": ["LOOKS_LIKE_FLAGS"]})]:
        assert hex_digits(name, "u2", **kw) == 4, name
    # a constant that is a round decimal or too short a pattern stays decimal
    assert hex_digits("unknown_5", "u2", constant=5000) is None and hex_digits("unknown_6", "u2", constant=240) is None


def test_dimensions_read_in_decimal_in_tables_profiles_wiki_claims_and_report(sample_corpus, truths, samples_dir):
    from animre.present.report import report_html

    units = {f: v for f, v in truths("flc").items() if v.get("flicanim")}
    w = wiki_table(sample_corpus, "flc_files").set_index("name")
    for col in ("header.width", "header.height", "header.depth", "header.flicanim.x_offset",
                "header.flicanim.y_offset", "header.flicanim.xs_orig", "header.num_frames", "header.ofs_frame1",
                "num_frame_chunks", "header.flicanim.anim_time"):
        if col in w.index:
            assert "0x" not in w.at[col, "observed"], (col, w.at[col, "observed"])
    assert w.at["header.magic", "observed"].startswith("0xAF12") and "0x" in w.at["header.creator", "observed"]
    prof = animre.profile(sample_corpus, "flc_files").set_index("column")
    for col in ("header.flicanim.xs_orig", "header.width", "header.num_frames"):
        notes = " ".join(str(t) for _, t in prof.at[col, "notes"])
        assert "0x" not in re.sub(r" @ \d+ \(0x[0-9A-F]+\)", "", notes), (col, notes)  # 240, not 0x00F0
    assert "0xAF12" in " ".join(str(t) for _, t in prof.at["header.magic", "notes"])
    view = sample_corpus.show("flc_files", columns=["header.width", "header.magic"], rows=3).text()
    assert not view["header.width"].str.startswith("0x").any() and view["header.magic"].str.startswith("0x").all()
    page = report_html(animre.open_corpus(samples_dir / "flc", cache=False, progress=False))  # its FLC files
    block = page[page.index('id="profile-flc_files"'):]
    block = block[:block.index("</table>")]
    for col in ("header.width", "header.flicanim.xs_orig", "header.flicanim.x_offset"):
        row = re.search(rf"<td>{re.escape(col)}</td>(.*?)</tr>", block, re.S)
        assert row is None or "0x" not in row.group(1), col
    # the claim's counterexample reads like the claim: the speed in decimal, beside what this corpus holds
    speeds = sorted({v["header"]["speed"] for v in units.values()})
    speed = animre.claims(sample_corpus, formats=["flc"]).set_index("claim").loc["Civ3 FLC header speed is 4"]
    ce = speed["counterexamples"][0]
    assert ce["detail"] == f"the notes say 4; this corpus holds {speeds[0]}-{speeds[-1]} ms (= anim_time / anim_length)"
    from animre.base.tableview import counterexample_table

    assert not counterexample_table(speed["counterexamples"])["found"].str.startswith("0x").any()


def test_byte_identical_files_count_once_in_claims(homm2_folder, count_distinct, truths):
    c = animre.open_corpus(homm2_folder, cache=False)
    frm = c.files[c.files["format"] == "frm"]
    assert frm["sha256"].duplicated().any()  # loose FRMs and their copies in the AGG
    size = animre.claims(c, formats=["frm"]).set_index("claim").loc["FRM files are 821 bytes."]
    assert size["tested"] == frm["sha256"].nunique() < len(frm)
    assert sorted(size["copies"]) == sorted(frm.loc[frm["sha256"].duplicated(), "file"])
