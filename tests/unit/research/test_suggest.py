"""Suggestions back into the spec, checked against the generators' planted truth.

The truth comes from ``manifest.json`` and the generators (animre/samples/*.py):
constants they write in every file, flag fields built from independent bits,
counts, relations with their listed exceptions, and columns of pure random
values that must get no suggestion.
"""

from __future__ import annotations

import difflib
import re
import shutil
import struct
import warnings

import pytest
import yaml

import animre
from animre.formats import all_formats
from animre.research._suggest import derived_reads
from animre.samples import generate_all, load_manifest, planted_files
from animre.spec.compiler import KSY_DIR
from animre.spec.patch import find_field


def _open(path, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return animre.open_corpus(path, cache=False, progress=False, **kw)


OTHER_SEED = 5  # a second generated corpus: the truth is read from its own manifest


@pytest.fixture(scope="module", params=["samples", OTHER_SEED], ids=["seed2097", f"seed{OTHER_SEED}"])
def case(request, samples_dir, tmp_path_factory):
    """(corpus, manifest, suggestions) of one generated sample corpus."""
    if request.param == "samples":  # the corpus and suggestions the other tests read: computed once
        return request.getfixturevalue("corpus"), load_manifest(samples_dir), request.getfixturevalue("sugg")
    folder = tmp_path_factory.mktemp(f"samples{request.param}")
    generate_all(folder, seed=request.param)
    c = _open(folder)
    return c, load_manifest(folder), animre.suggest(c, include_in_spec=True)


@pytest.fixture(scope="module")
def corpus(sample_corpus):
    return sample_corpus  # the session's corpus of the samples (opened without cache, as _open does)


@pytest.fixture(scope="module")
def sugg(corpus):
    return animre.suggest(corpus, include_in_spec=True)


def _rows(s, field, kind=None, spec=None):
    m = s["field"] == field
    if kind is not None:
        m &= s["kind"] == kind
    if spec is not None:
        m &= s["spec"] == spec
    return s[m]


def _constant_keys(records: list[dict]) -> dict:
    """Integer keys with one value in every record (what the generator wrote everywhere)."""
    out = {}
    for k in records[0]:
        vals = {r.get(k) for r in records if isinstance(r.get(k), int) and not isinstance(r.get(k), bool)}
        if len(vals) == 1 and all(k in r for r in records):
            out[k] = vals.pop()
    return out


def test_planted_constants_become_valid(case):
    corpus, manifest, sugg = case
    omf = manifest["formats"]["omf"]["files"]
    af = [v for f, v in omf.items() if f.startswith("af/")]
    headers = _constant_keys([v["header"] for v in af])
    footers = _constant_keys([m["footer"] for v in af for m in v["moves"]])
    assert headers["exec_window"] == manifest["formats"]["omf"]["planted"]["exec_window"]
    expected = [("af", k, v) for k, v in headers.items() if k in corpus.tables["af_fighters"]]
    expected += [("af", k, v) for k, v in footers.items() if k in corpus.tables["af_moves"]]
    anims = _constant_keys([m["animation"] for v in omf.values() for m in v.get("moves", v.get("animations", []))])
    expected += [("omf_common", k, v) for k, v in anims.items()]
    mot = list(manifest["formats"]["mot"]["files"].values())
    expected += [("mot", k, v) for k, v in _constant_keys(mot).items() if k in corpus.tables["mot"]]
    expected += [("mot", k, v) for k, v in _constant_keys([a for m in mot for a in m["animations"]]).items()
                 if k in corpus.tables["mot_animations"]]
    assert len(expected) >= 10
    for spec, field, value in expected:
        if field.startswith("num_") or field in ("len_file",):
            continue
        rows = _rows(sugg, field, "valid", spec)
        assert len(rows) == 1, (spec, field)
        assert rows.iloc[0]["edit"]["set"] == {"valid": value}, (spec, field)
        assert rows.iloc[0]["evidence"].split(" in ")[1].startswith(f"{rows.iloc[0]['of']}/{rows.iloc[0]['of']} files")


def test_near_constants_stay_doc_with_their_exception(case):
    corpus, manifest, sugg = case
    frm = manifest["formats"]["frm"]["planted"]
    assert _rows(sugg, "unknown_magic", "valid").empty
    doc = _rows(sugg, "unknown_magic", "doc", "frm").iloc[0]
    assert [e["file"] for e in doc["counterexamples"]] == [frm["odd_magic_file"]]
    assert doc["counterexamples"][0]["offset"] == 0
    exc = manifest["formats"]["omf"]["planted"]["unknown_9_constant"]["exception"]
    doc = _rows(sugg, "unknown_9", "doc", "af").iloc[0]
    assert [(e["file"], e["value"], e["offset"]) for e in doc["counterexamples"]] == \
        [(exc["file"], exc["value"], exc["offset"])]
    exc = manifest["formats"]["mot"]["planted"]["unknown_0c_exception"]
    doc = _rows(sugg, "unknown_0c", "doc", "mot").iloc[0]
    assert [(e["file"], e["offset"]) for e in doc["counterexamples"]] == [(exc["file"], exc["offset"])]
    assert "Evidence - " in doc["edit"]["doc"] and doc["holds"] == doc["of"] - 1


def test_planted_flag_fields_split_into_bits(case):
    corpus, manifest, sugg = case
    moves = [m["footer"] for f, v in manifest["formats"]["omf"]["files"].items() if f.startswith("af/")
             for m in v["moves"]]
    for field in ("ai_flags", "pos_constraint"):
        row = _rows(sugg, field, "flags", "af").iloc[0]
        inst = row["edit"]["instances"]
        bits = {int(v["value"].split("& ")[1].split(")")[0], 16) for v in inst.values()}
        planted = {1 << b for b in range(16) if any(m[field] >> b & 1 for m in moves)}
        assert bits == planted, field
        for v in inst.values():
            mask = int(v["value"].split("& ")[1].split(")")[0], 16)
            assert f"set in {sum(1 for m in moves if m[field] & mask)}/{len(moves)} rows" in v["doc"]
            assert v["-animre-bytes"] == field
    assert manifest["formats"]["omf"]["planted"]["pos_constraint_bit"]["bit"] == 2
    assert "pos_constraint_bit1" in _rows(sugg, "pos_constraint", "flags").iloc[0]["edit"]["instances"]
    tracks = [t for m in planted_files(manifest, "mot").values() for a in m["animations"] for t in a["tracks"]]
    row = _rows(sugg, "track_flags", "flags", "mot").iloc[0]  # mot.ksy has one instance per bit already
    assert row["status"] == "in spec" and row["edit"] is None
    assert "is_disabled (0x40)" in row["evidence"]  # DISABLED, planted on the tracks without coordinates
    assert f"0x40 in {sum(1 for t in tracks if t['track_flags'] & 0x40)}/{len(tracks)} rows" in row["evidence"]


def test_count_links(case):
    corpus, manifest, sugg = case
    counts = sugg[sugg["kind"] == "count"]
    in_spec = set(counts.loc[counts["status"] == "in spec", "field"])
    assert {"num_coords", "num_sprites", "num_extra_strings", "num_tracks", "num_keys", "num_parm_infos",
            "num_anim_infos", "num_anim_states"} <= in_spec
    mot = planted_files(manifest, "mot")  # with the disc image's .mot files
    n_tracks = sum(len(a["tracks"]) for m in mot.values() for a in m["animations"])
    keys = counts[counts["field"] == "num_keys"].iloc[0]
    assert keys["holds"] == keys["of"] == n_tracks
    partial = counts[(counts["field"] == "num_chunks") & (counts["status"] == "proposed")].iloc[0]
    planted = manifest["formats"]["flc"]["planted"]["extra_subchunk_frames"]
    assert sorted((e["file"], e["value"], e["found"]) for e in partial["counterexamples"]) == \
        sorted((p["file"], p["declared"], p["found"]) for p in planted)
    assert partial["of"] - partial["holds"] == len(planted)
    assert counts["edit"].map(lambda e: e is None or "doc" in e or "set" in e).all()
    # a size link the spec states (text: size: len_str), with the generator's string lengths
    size = sugg[(sugg["kind"] == "size") & (sugg["field"] == "len_str")].iloc[0]
    moves = [m for f, v in manifest["formats"]["omf"]["files"].items() if f.startswith("af/") for m in v["moves"]]
    assert size["status"] == "in spec" and size["holds"] == size["of"] == len(moves)
    assert len({len(m["animation"]["anim_string"]) for m in moves}) >= 3  # lengths that vary: not a constant
    # a pos link the spec states (gnta: pos: ofs_gnta), one per animation the generator wrote
    pos = sugg[(sugg["kind"] == "pos") & (sugg["field"] == "ofs_gnta")].iloc[0]
    n_anims = sum(len(m["animations"]) for m in planted_files(manifest, "mot").values())
    assert pos["status"] == "in spec" and pos["holds"] == pos["of"] == n_anims


def test_planted_relations(case):
    corpus, manifest, sugg = case
    mot = manifest["formats"]["mot"]["planted"]
    assert mot["total_time_is_last_key_time"] and mot["end_time_is_max_total_time"]
    full = sugg[(sugg["kind"] == "relation") & (sugg["holds"] == sugg["of"])]
    assert "= last_key_time" in full[full["field"] == "total_time"].iloc[0]["suggestion"]
    assert "= max_total_time" in full[full["field"] == "end_time"].iloc[0]["suggestion"]
    # partial relations: a doc line whose exceptions are the planted ones
    u6 = _rows(sugg, "unknown_6", "relation", "af").iloc[0]
    exc = manifest["formats"]["omf"]["planted"]["unknown_6_damage_half"]["exceptions"]
    assert "damage // 2" in u6["suggestion"] and u6["of"] - u6["holds"] == len(exc)
    assert {e["file"] for e in u6["counterexamples"]} <= {e["file"] for e in exc}
    u18 = _rows(sugg, "unknown_18", "relation", "mot").iloc[0]
    assert u18["of"] - u18["holds"] == len(mot["unknown_18_exceptions"])
    assert [(e["file"], e["offset"]) for e in u18["counterexamples"]] == \
        [(e["file"], e["offset"]) for e in mot["unknown_18_exceptions"]]
    at = _rows(sugg, "anim_time", "relation", "flc").iloc[0]
    assert [e["file"] for e in at["counterexamples"]] == manifest["formats"]["flc"]["planted"]["anim_time_exceptions"]
    lf = _rows(sugg, "len_file", "relation", "mot").iloc[0]
    assert [(e["file"], e["offset"]) for e in lf["counterexamples"]] == \
        [(mot["len_file_exception"]["file"], mot["len_file_exception"]["offset"])]


def test_no_evidence_from_a_derived_column_computed_from_the_field(case):
    """num_image_frames counts frames by header.num_frames (its declared reads): no evidence for num_frames."""
    corpus, manifest, sugg = case
    rel = animre.relations(corpus, "flc_files")
    same = rel[(rel["relation"] == "equal") & (rel["support"] == 1.0)]
    pairs = {frozenset((a, b)) for a, b in zip(same["target"], same["source"])}
    # the generator writes num_frames = image frames, so the equality is there to be (mis)used as evidence
    assert frozenset(("header.num_frames", "num_image_frames")) in pairs
    flc = all_formats()["flc"]
    declared = {d.column: set(d.reads) for d in flc.derived}
    assert ("flc_files", "header.num_frames") in declared["num_image_frames"] | declared["is_ring"]
    reads = derived_reads()
    for r in sugg[sugg["kind"].isin(["relation", "rename"])].itertuples(index=False):
        formula = r.suggestion.split("= ", 1)[-1] if r.kind == "relation" else r.evidence
        for (t, col), used in reads.items():
            if t == r.table and re.search(rf"(?<![\w.]){re.escape(col)}(?![\w.])", formula):
                assert (r.table, r.column) not in used, (r.field, r.evidence)
    nf = _rows(sugg, "num_frames", spec="flc")
    assert not nf["evidence"].str.contains("num_image_frames|num_ring_frames|num_frame_chunks").any()


def test_no_suggestion_on_random_columns(case):
    corpus, manifest, sugg = case
    rnd = manifest["formats"]["omf"]["planted"]["random_field"]
    assert rnd["table"] == "af_moves"
    for field in (rnd["column"], manifest["formats"]["flc"]["planted"]["random_column"], "unknown_1c"):
        assert _rows(sugg, field).empty, field
        assert not sugg["evidence"].str.contains(rf"\b{field}\b").any(), field


def _touched_blocks(text: str, edits: list[dict]) -> set[int]:
    """Line numbers (0-based) of the mappings of the fields the edits touch."""
    lines = text.splitlines()
    touched: set[int] = set()
    for e in edits:
        for i, line in enumerate(lines):
            stripped = line.strip()
            if stripped in (f"- id: {e['field']}", f"{e['field']}:"):
                indent = len(line) - len(line.lstrip())
                j = i + 1
                while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent):
                    j += 1
                touched.update(range(i, j))
    return touched


SPECS = ["af", "omf_common", "bk", "frm", "mot", "flc", "pas4"]


@pytest.mark.parametrize("spec", SPECS)
def test_patch_on_each_shipped_spec_is_proven(spec, sugg, corpus, tmp_path):
    ksy = tmp_path / "ksy"
    shutil.copytree(KSY_DIR, ksy)
    original = (ksy / f"{spec}.ksy").read_text()
    patch = animre.suggest_patch(sugg, ksy / f"{spec}.ksy")
    r = animre.apply_suggestions(sugg, ksy / f"{spec}.ksy", corpus)
    assert r.ok, r.problems
    assert r.withdrawn.empty, r.withdrawn[["field", "reason"]]
    assert r.patch == patch
    edits = [e for e in sugg["edit"] if isinstance(e, dict) and e["spec"] == spec]
    if not edits:
        assert patch == "" and r.written is None
        return
    assert r.written == ksy / f"{spec}.ksy"
    patched = r.written.read_text()
    # every file that parsed still parses, with identical values of the untouched fields
    assert r.after.files["status"].tolist() == r.before.files["status"].tolist()
    assert not r.after.files["status"].eq("failed").any()
    changed = r.diff[r.diff["change"] != "added"]
    assert changed.empty, changed
    # the YAML outside the suggested fields' lines is untouched (new lines may be added)
    allowed = _touched_blocks(original, edits)
    sm = difflib.SequenceMatcher(a=original.splitlines(), b=patched.splitlines(), autojunk=False)
    for op, i1, i2, _, _ in sm.get_opcodes():
        if op in ("replace", "delete"):
            assert set(range(i1, i2)) <= allowed, (op, original.splitlines()[i1:i2])
    doc = yaml.safe_load(patched)
    for e in edits:
        _, node, _ = find_field(doc, e["type"], e.get("rename") or e["field"])
        assert node is not None
        for k, v in (e.get("set") or {}).items():
            assert node[k] == v
    # and the patched spec is what the shipped compiler accepts: compile it once more from disk
    assert animre.spec.compile_spec(ksy / f"{spec}.ksy", ksy_dir=ksy) is not None


def test_valids_from_one_corpus_report_the_files_of_another(sugg, tmp_path):
    """Corpus B is generated with another seed and differs in one constant: exec_window 12 in two files."""
    data = tmp_path / "b"
    generate_all(data, seed=11, only=["omf"])
    changed = ["af/FIGHTR2.AF", "af/FIGHTR5.AF"]
    for name in changed:
        p = data / name
        raw = bytearray(p.read_bytes())
        assert struct.unpack_from("<H", raw, 2)[0] == 10  # the generator packs "<HH...": id, exec_window
        struct.pack_into("<H", raw, 2, 12)
        p.write_bytes(bytes(raw))
    b = _open(data)
    ksy = tmp_path / "ksy"
    shutil.copytree(KSY_DIR, ksy)
    r = animre.apply_suggestions(sugg, ksy / "af.ksy", b)
    w = r.withdrawn.set_index("field")
    assert list(w.index) == ["exec_window"]
    assert w.at["exec_window", "files"] == changed
    assert "rejects af/FIGHTR2.AF, af/FIGHTR5.AF" in w.at["exec_window", "reason"]
    assert r.ok and r.after.files["ok"].all()
    doc = yaml.safe_load(r.written.read_text())
    assert "valid" not in find_field(doc, "af", "exec_window")[1]
    assert find_field(doc, "af", "unknown_27")[1]["valid"] == 0x32


def test_full_relation_renames_an_unknown_field(samples_dir, tmp_path):
    """With the planted exceptions of unknown_6 = damage // 2 repaired, the relation is full: a rename."""
    data = tmp_path / "af"
    shutil.copytree(samples_dir / "af", data)
    planted = load_manifest(samples_dir)["formats"]["omf"]["planted"]["unknown_6_damage_half"]["exceptions"]
    c = _open(data)
    moves = c.tables["af_moves"]
    for e in planted:
        name = e["file"].split("/", 1)[1]
        i = moves.index[(moves["file"] == name) & (moves["move_number"] == e["move"])][0]
        off = int(c.offsets("af_moves", "unknown_6")[i])
        p = data / name
        raw = bytearray(p.read_bytes())
        assert raw[off] == e["unknown_6"]
        raw[off] = e["damage"] // 2
        p.write_bytes(bytes(raw))
    c = _open(data)
    s = animre.suggest(c, spec="af")
    row = _rows(s, "unknown_6", "rename").iloc[0]
    assert row["edit"]["rename"] == "damage_div_2"
    assert row["holds"] == row["of"] == len(c.tables["af_moves"])
    ksy = tmp_path / "ksy"
    shutil.copytree(KSY_DIR, ksy)
    r = animre.apply_suggestions(s[s["kind"] == "rename"], ksy / "af.ksy", c)
    assert r.ok, r.problems
    d = r.diff.set_index("field_b").loc["move_footer.damage_div_2"]
    assert d["change"] == "renamed" and d["n_values_changed"] == 0
    assert r.after.tables["af_moves"]["damage_div_2"].tolist() == r.before.tables["af_moves"]["unknown_6"].tolist()
    assert "- id: damage_div_2" in r.written.read_text()


def test_suggest_patch_is_a_unified_diff_of_the_spec(sugg):
    patch = animre.suggest_patch(sugg, KSY_DIR / "af.ksy")
    lines = patch.splitlines()
    assert lines[:2] == ["--- a/af.ksy", "+++ b/af.ksy"]
    assert "+    valid: 10" in lines  # exec_window, 10 in every AF file
    assert all(not x.startswith("-") or x.startswith("---") or "doc:" in x for x in lines)  # only docs replaced


BAD_COMPILE = {"spec": "flc", "type": "frame_body", "field": "delay", "set": {"enum": "no_such_enum"}}
BAD_REJECT = {"spec": "flc", "type": "flic_header", "field": "speed", "set": {"valid": 12345}}


@pytest.mark.parametrize("bisect", [False, True], ids=["located", "bisected"])
@pytest.mark.parametrize("bad", [BAD_COMPILE, BAD_REJECT], ids=["does-not-compile", "rejects-files"])
def test_apply_withdraws_exactly_the_one_bad_edit(bad, bisect, sugg, samples_dir, tmp_path, monkeypatch):
    """One planted bad edit among the good suggestions: it alone is withdrawn, with the reason."""
    from animre.export import adopt as _adopt

    if bisect:  # as if no message named the spec location: the edit is found by trial
        monkeypatch.setattr(_adopt, "_edits_at", lambda *a, **k: [])
    c = _open(samples_dir / "flc")
    good = [e for e in animre.spec.patch.edits_of(sugg[(sugg["spec"] == "flc") & (sugg["status"] == "proposed")])]
    assert len(good) >= 4 and not any(e["field"] == bad["field"] and e["type"] == bad["type"] for e in good)
    edits = good[: len(good) // 2] + [bad] + good[len(good) // 2:]
    ksy = tmp_path / "ksy"
    shutil.copytree(KSY_DIR, ksy)
    result = animre.apply_suggestions(edits, ksy / "flc.ksy", c)
    assert result.ok, result.problems
    assert [(w["type"], w["field"]) for w in result.withdrawn.to_dict("records")] == [(bad["type"], bad["field"])]
    why = result.withdrawn.iloc[0]["reason"]
    if bad is BAD_COMPILE:
        assert "does not compile" in why and "no_such_enum" in why
    else:
        n_files = len(c.files[c.files["format"] == "flc"])
        assert why.startswith("rejects ") and "header.speed" in why and "12345" in why
        assert len(result.withdrawn.iloc[0]["files"]) == n_files
    assert len(result.adopted) == len(good)
    written = yaml.safe_load(result.written.read_text())
    for e in good:
        node = find_field(written, e["type"], e.get("rename") or e["field"])[1]
        assert node is not None and all(k in node for k in (e.get("set") or {})), e
    assert "12345" not in result.written.read_text() and "no_such_enum" not in result.written.read_text()


def test_suggestions_on_the_real_civ3_files_are_adopted_whole(realdata, tmp_path):
    """The FLC header's creator, 0xF1F1F2F2 in every Civ3 file (past 2^31), becomes a valid the compiler takes."""
    folder = realdata / "flic" / "civ3"
    before = {p: p.read_bytes() for p in folder.rglob("*.flc")}
    c = _open(folder)
    s = animre.suggest(c, spec="flc")
    creator = _rows(s, "creator", "valid", "flc")
    assert creator.iloc[0]["edit"]["set"] == {"valid": 0xF1F1F2F2}
    ksy = tmp_path / "ksy"
    shutil.copytree(KSY_DIR, ksy)
    result = animre.apply_suggestions(s, ksy / "flc.ksy", c)
    assert result.ok and result.withdrawn.empty, (result.problems, result.withdrawn)
    node = find_field(yaml.safe_load(result.written.read_text()), "flic_header", "creator")[1]
    assert node["valid"] == "0xF1F1F2F2"
    assert len(result.adopted) == len(s[s["edit"].notna()])
    assert {p: p.read_bytes() for p in folder.rglob("*.flc")} == before  # the real files are only read
