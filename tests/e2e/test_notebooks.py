"""Every notebook runs headless on the generated samples and exports its findings; `run_demo` collects them.

The notebooks run once, on a read-only folder as a user keeps one (the generated samples without their
manifest, plus real files), named in each notebook's parameter cell: the folder is unchanged afterwards.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import stat
import struct
from pathlib import Path

import nbformat
import pandas as pd
import pytest

import animre
from animre import demo
from animre.demo import NotebookError, notebook_paths, run_demo, run_notebook
from animre.spec import read_spec
from animre.spec.compiler import PROJECT_ROOT

NOTEBOOKS = notebook_paths()
EXPECTED = ["00_quickstart", "01_omf_af", "02_homm2_frm", "03_gnt4_mot", "04_retro_pas4", "05_civ3_flc",
            "06_spec_experiment", "07_your_own_format", "08_unknown_format"]


def test_all_notebooks_present():
    assert [p.stem for p in NOTEBOOKS] == EXPECTED


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_stored_without_outputs_and_parameter_cell_first(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.outputs == [] and c.execution_count is None for c in code), "strip outputs before committing"
    first = nb.cells[0]
    assert first.cell_type == "code" and "parameters" in first.metadata.get("tags", [])
    assert 'DATA = os.environ.get("ANIMRE_DATA"' in first.source
    assert 'OUT = os.environ.get("ANIMRE_OUT"' in first.source
    setup = code[1].source
    assert f'run_folder(DATA, "{path.stem}", out=OUT)' in setup  # default OUT: out/<notebook>/<DATA's name>
    assert "prepare_run(DATA, OUT)" in setup
    assert "generate_all" not in path.read_text()  # samples only through prepare_run (the kit's own folder)
    assert "export(" in code[-1].source and "OUT" in code[-1].source
    assert nb.metadata["kernelspec"]["name"] == "python3"


def _state(folder: Path) -> dict[str, tuple[str, str]]:
    """Every entry under ``folder`` (the folder itself too): kind and mode, and a hash of each file's bytes."""
    out = {}
    for p in [folder, *sorted(folder.rglob("*"))]:
        st = p.lstat()
        digest = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else ""
        out[p.relative_to(folder.parent).as_posix()] = (stat.filemode(st.st_mode), digest)
    return out


def _with_data_in_cell(nb_path: Path, folder: Path, data: Path) -> Path:
    """A copy of the notebook whose parameter cell names ``data`` itself (as a user edits it)."""
    nb = nbformat.read(nb_path, as_version=4)
    line = 'DATA = os.environ.get("ANIMRE_DATA", str(SAMPLES_DIR))'
    assert nb.cells[0].source.count(line) == 1, nb_path.name
    nb.cells[0].source = nb.cells[0].source.replace(line, f"DATA = {str(data)!r}")
    target = folder / nb_path.name
    nbformat.write(nb, target)
    return target


@pytest.fixture(scope="module")
def user_folder(tmp_path_factory, samples_dir, real_or_none):
    """A folder as a user keeps one, read-only: the samples without their manifest (loose files, the AGG,
    zip, PAK and disc image), and the real files when present (in ``game/``), all copied at test time."""
    parent = tmp_path_factory.mktemp("user")
    folder = parent / "MyGames"
    shutil.copytree(samples_dir, folder, ignore=shutil.ignore_patterns("manifest.json"))
    if real_or_none is not None:
        shutil.copytree(real_or_none, folder / "game", ignore=shutil.ignore_patterns("*.md"))
    for p in [folder, *folder.rglob("*")]:
        p.chmod(p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))  # chmod -R a-w
    yield folder
    for p in [folder, *folder.rglob("*")]:
        p.chmod(p.stat().st_mode | stat.S_IWUSR)


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory, user_folder):
    """All notebooks executed once, each with DATA set in its parameter cell to the read-only user folder.

    No ANIMRE_DATA in the kernels' environment; ANIMRE_OUT names the run folder. Returns the
    exports' folder, the files written, and the user folder's state before and after.
    """
    out = tmp_path_factory.mktemp("demo-out")
    copies = tmp_path_factory.mktemp("notebooks")
    before = _state(user_folder.parent)
    written = []
    with pytest.MonkeyPatch.context() as mp:  # the kernels inherit it: keep their cache out of ~
        mp.setenv("ANIMRE_CACHE_DIR", str(tmp_path_factory.mktemp("demo-cache")))
        mp.delenv("ANIMRE_DATA", raising=False)
        for p in NOTEBOOKS:
            executed = run_notebook(_with_data_in_cell(p, copies, user_folder), out, None)
            written += [executed, *sorted(f for f in (out / p.stem).rglob("*") if f.is_file() and f != executed)]
    return out, written, (before, _state(user_folder.parent))


@pytest.mark.slow
def test_notebooks_leave_a_folder_they_read_unchanged(demo_run, user_folder):
    """Byte for byte: no file added, removed or changed in the folder (nor beside it), no mode changed."""
    _, _, (before, after) = demo_run
    assert len(before) > 100 and any("/game/" in f for f in before) == (user_folder / "game").is_dir()
    added, removed = sorted(set(after) - set(before)), sorted(set(before) - set(after))
    changed = sorted(f for f in before if f in after and before[f] != after[f])
    assert (added, removed, changed) == ([], [], [])


@pytest.mark.slow
def test_every_notebook_runs_on_the_read_only_folder(demo_run):
    out, written, _ = demo_run
    for name in EXPECTED:
        executed = out / name / f"{name}.ipynb"
        assert executed in written
        nb = nbformat.read(executed, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert all(c.execution_count is not None for c in code), name
        errors = [o for c in code for o in c.outputs if o.get("output_type") == "error"]
        assert not errors, (name, errors[:1])
        tracebacks = [o for c in code for o in c.outputs if o.get("name") == "stderr" and "Traceback" in o["text"]]
        assert not tracebacks, (name, tracebacks[:1])
        deprecated = [o for c in code for o in c.outputs
                      if o.get("name") == "stderr" and "DeprecationWarning" in o["text"]]
        assert not deprecated, (name, deprecated[:1])  # no call in a notebook is deprecated


@pytest.mark.slow
@pytest.mark.parametrize("name", EXPECTED)
def test_notebook_exports_findings(demo_run, name):
    out, written, _ = demo_run
    folder = out / name
    csvs = sorted(folder.glob("*.csv"))
    mds = sorted(folder.glob("*.md"))
    assert csvs, f"{name} exported no CSV"
    assert [p.stem for p in csvs] == [p.stem for p in mds], "every table as CSV and Markdown"
    for p in csvs + mds:
        assert p in written
    for p in csvs:
        df = pd.read_csv(p)
        assert len(df.columns) >= 1, p


@pytest.mark.slow
def test_pas4_notebook_shows_the_databases_per_character_of_the_pak(demo_run, manifest):
    out, _, _ = demo_run
    chars = pd.read_csv(out / "04_retro_pas4" / "pas4_characters.csv")
    arch = manifest["formats"]["pak"]["planted"]["archive"]
    got = chars[chars["pak"] == arch]
    want = [(f.rsplit("/", 1)[1], k, c["name"]) for f, e in manifest["formats"]["pak"]["files"].items()
            for k, c in enumerate(e.get("characters", []))]
    assert sorted(zip(got["resource"], got["block"], got["character"])) == sorted(want)
    assert (got["located_by"] == "ANCS structure").all()
    bare = {e["pas4"]: len(manifest["formats"]["pas4"]["files"][e["pas4"]]["states"])
            for f, t in manifest["formats"]["pak"]["files"].items() for e in t.get("characters", [])}
    by_name = dict(zip(got["character"], got["num_anim_states"]))
    assert {f"pas4/{n}.pas4": v for n, v in by_name.items()} == bare


@pytest.mark.slow
def test_exports_carry_the_planted_findings(demo_run, manifest, user_folder):
    out, _, _ = demo_run
    homm2 = manifest["formats"]["frm"]["planted"]
    weights = pd.read_csv(out / "02_homm2_frm" / "frm_idle_weights.csv")
    off = weights.loc[(weights["idle_weight_sum"] - 1).abs() > 1e-5, "file"]
    assert sorted(off) == sorted(homm2["weights_not_normalised"])
    mism = pd.read_csv(out / "02_homm2_frm" / "frm_count_fill_mismatch.csv")
    planted = {(m["file"], m["slot"]) for m in homm2["count_fill_mismatch"] if m["count"] <= 16}
    assert {(f, s) for f, s in zip(mism["file"], mism["slot"], strict=True)} == planted
    readings = pd.read_csv(out / "03_gnt4_mot" / "mot_component_readings.csv")
    assert readings.loc[0, "type"] == "bf16be"  # the note's reading of the 16-bit components wins
    files = pd.read_csv(out / "00_quickstart" / "files.csv")
    real = sorted(files.loc[files["file"].str.startswith("game/"), "file"])
    assert real == sorted(p.relative_to(user_folder).as_posix() for p in (user_folder / "game").rglob("*")
                          if p.is_file() and p.suffix != ".md")
    assert len(files) - len(real) == sum(len(s["files"]) for s in manifest["formats"].values())
    diff = pd.read_csv(out / "06_spec_experiment" / "spec_experiment_diff.csv")
    assert diff[["field_a", "field_b", "change"]].values.tolist() == [
        ["frm.unknown_magic", "frm.format_version", "renamed, retyped"]]
    claims = pd.read_csv(out / "06_spec_experiment" / "spec_experiment_claims.csv").set_index("claim")
    assert claims.at["FRM byte 0 is 0x01 (magic value).", "status"] == \
        "not testable: field frm.unknown_magic is not in the spec"


@pytest.mark.slow
def test_spec_experiment_on_real_files(tmp_path, realdata, samples_dir):
    """Notebook 06 on the real Civ3 / FLIC files (what `make demo` passes it): one changed field."""
    nb = NOTEBOOKS[EXPECTED.index("06_spec_experiment")]
    assert demo.real_data_folder(nb) == "flic"
    written = run_demo(tmp_path / "out", data=samples_dir, notebooks=[nb], real=realdata)
    folder = tmp_path / "out" / "06_spec_experiment" / "flic"  # never over the samples run's exports
    assert folder / "06_spec_experiment.ipynb" in written and folder / "spec_experiment_diff.csv" in written
    assert not (tmp_path / "out" / "06_spec_experiment" / samples_dir.name).exists()
    diff = pd.read_csv(folder / "spec_experiment_diff.csv")
    assert diff[["table", "field_a", "field_b"]].values.tolist() == [
        ["flc_files", "flicanim_header.flags", "flicanim_header.tool_flags"]]
    assert diff.at[0, "change"].startswith("renamed, retyped")
    real_flc = sum(1 for p in (realdata / "flic").rglob("*") if p.suffix.lower() in (".flc", ".fli"))
    assert 0 < diff.at[0, "n_files"] <= real_flc


@pytest.mark.slow
def test_failing_notebook_names_notebook_and_cell(tmp_path, samples_dir):
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# broken"),
        nbformat.v4.new_code_cell("import os\nx = 1"),
        nbformat.v4.new_code_cell("raise ValueError('planted failure ' + os.environ['ANIMRE_OUT'])"),
        nbformat.v4.new_code_cell("never = True"),
    ])
    path = tmp_path / "99_broken.ipynb"
    nbformat.write(nb, path)
    with pytest.raises(NotebookError) as ei:
        run_notebook(path, tmp_path / "out", samples_dir)
    e = ei.value
    assert (e.notebook, e.cell) == ("99_broken.ipynb", 2)
    assert str(e).startswith("99_broken.ipynb: cell 2: ValueError: planted failure")
    run = tmp_path / "out" / "99_broken" / samples_dir.name
    assert str(run) in str(e)  # ANIMRE_OUT = out/<notebook name>/<data folder name>
    executed = nbformat.read(run / "99_broken.ipynb", as_version=4)
    assert executed.cells[2].outputs[0]["output_type"] == "error"
    assert executed.cells[3].execution_count is None


def test_run_demo_rejects_missing_corpus(tmp_path):
    from animre.base.errors import UsageError

    with pytest.raises(UsageError, match="no such corpus"):
        run_demo(tmp_path / "out", data=tmp_path / "nowhere")


def test_kernel_is_this_interpreter(tmp_path):
    import sys

    km = demo._kernel_manager(tmp_path)
    assert km.kernel_spec.argv[0] == sys.executable
    assert km.kernel_spec.argv[1:3] == ["-m", "ipykernel_launcher"]


def test_notebooks_are_in_the_project():
    assert demo.NOTEBOOK_DIR == PROJECT_ROOT / "notebooks"
    for p in NOTEBOOKS:
        json.loads(Path(p).read_text())  # plain JSON, no binary junk


@pytest.mark.slow
def test_wiki_exports_read_like_a_format_wiki(demo_run, manifest):
    """The wiki tables give NOTES.md offsets and the planted exceptions by file."""
    out, _, _ = demo_run
    frm = pd.read_csv(out / "02_homm2_frm" / "frm_wiki.csv", dtype=str).set_index("name")
    # offsets from NOTES.md section 2
    assert frm.loc["walk_speed", "offset"] == "162" and frm.loc["troop_box_left", "offset"] == "235"
    odd = manifest["formats"]["frm"]["planted"]["odd_magic_file"]
    assert odd in frm.loc["unknown_magic", "observed"]  # "1 in 36/37 files; frm/ODDMGFRM.BIN: 0"
    moves = pd.read_csv(out / "01_omf_af" / "af_moves_wiki.csv", dtype=str).set_index("name")
    # the footer fields sit at the NOTES.md section 1 offsets relative to the footer start
    assert moves.loc["pos_constraint", "offset"].endswith("+2")
    assert moves.loc["damage", "offset"].endswith("+17")
    assert moves.loc["points", "offset"].endswith("+20")
    u9 = manifest["formats"]["omf"]["planted"]["unknown_9_constant"]
    assert u9["exception"]["file"] in moves.loc["unknown_9", "observed"]
    md = (out / "01_omf_af" / "af_moves_wiki.md").read_text()
    assert "| offset | type | name | observed | alerts |" in md


OUTSIDE = r"\.\./|NOTES\.md|seeds/|/shared/|realdata"


@pytest.mark.slow
def test_no_notebook_or_export_mentions_a_file_outside_the_repo(demo_run):
    """A user's clone has no notes folder and no real-file folder: nothing cites them."""
    out, _, _ = demo_run
    for p in NOTEBOOKS:
        hits = re.findall(rf".{{0,40}}(?:{OUTSIDE}).{{0,40}}", Path(p).read_text())
        assert not hits, (p, hits)
    exports = [f for f in out.rglob("*") if f.suffix in (".csv", ".md", ".json", ".html", ".txt")]
    assert exports
    for f in exports:
        hits = re.findall(rf".{{0,40}}(?:{OUTSIDE}).{{0,40}}", f.read_text(errors="replace"))
        assert not hits, (f, hits)


def test_spec_experiment_runs_clean_on_the_real_civ3_unit_files(tmp_path, realdata):
    """Notebook 06 on the Civ3 unit folder alone: its suggestions (creator 0xF1F1F2F2 ...) are adopted with proof."""
    nb = NOTEBOOKS[EXPECTED.index("06_spec_experiment")]
    demo.run_notebook(nb, tmp_path, realdata / "flic" / "civ3")
    adopted = pd.read_csv(tmp_path / "06_spec_experiment" / "civ3" / "spec_experiment_suggestions.csv")  # <data name>
    assert "creator" in set(adopted["field"])


OWN_PART = """\
meta:
  id: part
  endian: le
doc: A record of mine.ksy, found through its absolute import /common/part.
seq:
  - id: kind
    type: u1
  - id: len_body
    type: u1
  - id: body
    size: len_body
"""

OWN_SPEC = """\
meta:
  id: mine
  title: A format of the test's own, with an absolute import
  file-extension: mine
  endian: le
  imports:
    - /common/part
seq:
  - id: magic
    contents: MINE
  - id: len_file
    type: u4
  - id: width
    type: u2
  - id: height
    type: u2
  - id: num_parts
    type: u2
  - id: parts
    type: part
    repeat: expr
    repeat-expr: num_parts
"""

# (width, height, parts as (kind, body)) of each file: some taller than wide, some not
OWN_FILES = {"a.mine": (16, 32, [(1, b"xy"), (2, b"")]), "b.mine": (64, 8, [(3, b"abcd")]),
             "c.mine": (5, 5, []), "d.mine": (7, 300, [(1, b"q"), (1, b"rs"), (9, b"tuv")])}


def _own_format(root: Path) -> tuple[Path, Path]:
    """``root/specs/image/mine.ksy`` importing ``/common/part`` (``root/specs/common/part.ksy``), and a
    read-only folder ``root/MyFiles`` of files written byte by byte; returns (spec, folder)."""
    (root / "specs" / "image").mkdir(parents=True)
    (root / "specs" / "common").mkdir()
    spec = root / "specs" / "image" / "mine.ksy"
    spec.write_text(OWN_SPEC, encoding="utf-8")
    (root / "specs" / "common" / "part.ksy").write_text(OWN_PART, encoding="utf-8")
    folder = root / "MyFiles"
    folder.mkdir()
    for name, (width, height, parts) in OWN_FILES.items():
        body = b"".join(bytes([kind, len(data)]) + data for kind, data in parts)
        size = 4 + 4 + 2 + 2 + 2 + len(body)
        (folder / name).write_bytes(b"MINE" + struct.pack("<IHHH", size, width, height, len(parts)) + body)
    for p in [*root.rglob("*"), root]:
        p.chmod(p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))  # chmod -R a-w
    return spec, folder


@pytest.mark.slow
@pytest.mark.parametrize("given", ["environment", "parameter cell"])
def test_07_your_own_format_reads_a_users_spec_where_it_lies(tmp_path, monkeypatch, given):
    """Notebook 07 with SPEC = a spec whose import resolves against its parent folders, on a folder of its
    files: every cell runs, its tables and hypotheses come from that spec, and only OUT is written."""
    nb = NOTEBOOKS[EXPECTED.index("07_your_own_format")]
    user = tmp_path / "user"
    user.mkdir()
    spec, folder = _own_format(user)
    before = _state(user)
    for name in ("ANIMRE_SPEC", "ANIMRE_SPECS", "ANIMRE_DATA"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ANIMRE_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    try:
        if given == "environment":
            executed = run_notebook(nb, out, folder, env={"ANIMRE_SPEC": str(spec)})
        else:  # as a user edits the parameter cell: DATA and SPEC named there
            copy = _with_data_in_cell(nb, tmp_path, folder)
            edited = nbformat.read(copy, as_version=4)
            line = 'SPEC = os.environ.get("ANIMRE_SPEC") or None'
            assert edited.cells[0].source.count(line) == 1
            edited.cells[0].source = edited.cells[0].source.replace(line, f"SPEC = {str(spec)!r}")
            nbformat.write(edited, copy)
            executed = run_notebook(copy, out, None)
    finally:
        after = _state(user)
        for p in [*user.rglob("*"), user]:
            p.chmod(p.stat().st_mode | stat.S_IWUSR)
    assert after == before  # neither the data folder nor the spec's folders were written into
    run = out / "07_your_own_format" / ("MyFiles" if given == "environment" else "")
    assert executed == run / "07_your_own_format.ipynb"
    code = [c for c in nbformat.read(executed, as_version=4).cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in code)
    outputs = json.dumps([c.outputs for c in code])
    assert "Traceback" not in outputs and '"error"' not in outputs
    assert "syna" not in outputs.lower()  # nothing of the notebook's own SYNA demonstration ran
    assert sorted(p.name for p in run.iterdir()) == [
        "07_your_own_format.ipynb", "mine.csv", "mine.md", "mine_claims.csv", "mine_claims.md",
        "mine_claims.yaml", "mine_hypotheses.csv", "mine_hypotheses.md"]
    table = pd.read_csv(run / "mine.csv")
    assert sorted(zip(table["file"], table["width"], table["height"], table["num_parts"])) == sorted(
        (name, w, h, len(parts)) for name, (w, h, parts) in OWN_FILES.items())
    hyp = pd.read_csv(run / "mine_hypotheses.csv").set_index("claim")
    n_parts = sum(len(parts) for _, _, parts in OWN_FILES.values())
    assert hyp.at["mine.len_file is at most the file's size", "verdict"] == "4/4 hold"
    assert hyp.at["mine.num_parts is at most the file's size", "status"] == "holds"
    assert hyp.at["mine_parts.len_body is at most the file's size", "verdict"] == f"{n_parts}/{n_parts} hold"
    taller = sum(w < h for w, h, _ in OWN_FILES.values())
    assert hyp.at["width is smaller than height", "verdict"] == f"{taller}/4 hold, {4 - taller} fail"
    snippet = (run / "mine_claims.yaml").read_text()
    assert "expr: len_file <= _file_size" in snippet and "width < height" not in snippet


def _tile_files() -> dict[str, bytes]:
    """Files of a small format of the test's own, byte by byte: magic ``TIL1``, ``u4`` file size, ``u2``
    count, ``u2`` palette, then count records of 8 bytes (``u2`` x, ``u2`` y, ``u1`` kind, ``u1`` 0, ``u2`` z);
    and 2 files of another suffix (768 bytes each, no structure), which the notebook must leave aside."""
    rng = random.Random(28)
    out = {}
    for i, n in enumerate((3, 17, 8, 25, 12, 30, 5, 21, 14, 9)):
        recs = [struct.pack("<HHBBH", rng.randrange(4096), rng.randrange(2048), rng.randrange(1, 8), 0,
                            rng.randrange(65536)) for _ in range(n)]
        size = 4 + 4 + 2 + 2 + 8 * n
        out[f"LEVEL{i:02d}.TILES"] = b"TIL1" + struct.pack("<IHH", size, n, rng.randrange(1, 5)) + b"".join(recs)
    for k in range(2):
        out[f"COLORS{k}.PAL"] = bytes(rng.randrange(256) for _ in range(768))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("given", ["environment", "parameter cell"])
def test_08_unknown_format_infers_from_a_users_folder(tmp_path, monkeypatch, given):
    """Notebook 08 with DATA = a read-only folder of a format of the test's own (10 .tiles files, 2 .pal):
    the spec is inferred from the largest suffix group, and it says so; no truth, so no boundary score;
    the spec saved into OUT has meta/id from its name and opens the folder; only OUT is written."""
    nb = NOTEBOOKS[EXPECTED.index("08_unknown_format")]
    folder = tmp_path / "user" / "MyTiles"
    folder.mkdir(parents=True)
    files = _tile_files()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    for p in [folder, *folder.iterdir()]:
        p.chmod(p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))  # chmod -R a-w
    before = _state(folder.parent)
    monkeypatch.delenv("ANIMRE_DATA", raising=False)
    monkeypatch.setenv("ANIMRE_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    try:
        if given == "environment":
            executed = run_notebook(nb, out, folder)
        else:  # as a user edits the parameter cell
            executed = run_notebook(_with_data_in_cell(nb, tmp_path, folder), out, None)
    finally:
        after = _state(folder.parent)
        for p in [folder, *folder.iterdir()]:
            p.chmod(p.stat().st_mode | stat.S_IWUSR)
    assert after == before  # the folder read is unchanged, byte for byte
    run = out / "08_unknown_format" / ("MyTiles" if given == "environment" else "")
    assert executed == run / "08_unknown_format.ipynb"
    code = [c for c in nbformat.read(executed, as_version=4).cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in code)
    outputs = json.dumps([c.outputs for c in code])
    assert "Traceback" not in outputs and '"error"' not in outputs and "DeprecationWarning" not in outputs
    assert "syna" not in outputs.lower()  # nothing of the samples' synthetic format ran
    assert "the 10 .tiles files (not read: 2 .pal)" in outputs  # the largest group, said in a printed line
    assert "no truth exists" in outputs and not (run / "boundaries.csv").exists()
    assert {"tiles.ksy", "evidence.csv", "evidence.md", "leave_one_out.csv", "leave_one_out.md", "roles.csv",
            "roles.md"} <= {p.name for p in run.iterdir()}
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["user", "out", "cache"] + ([nb.name] if given == "parameter cell" else []))
    loo = pd.read_csv(run / "leave_one_out.csv")
    assert len(loo) == 5 and set(loo["file"]) <= {n for n in files if n.endswith(".TILES")}
    assert {"magic", "file_size", "count"} <= set(pd.read_csv(run / "roles.csv")["role"])
    saved = run / "tiles.ksy"
    assert read_spec(saved).id == "tiles"  # meta/id from the file's name
    c = animre.open_corpus(folder, specs=[saved], formats=["tiles"], cache=False, progress=False)
    tiles = c.files[c.files["format"] == "tiles"]
    assert sorted(tiles["file"]) == sorted(n for n in files if n.endswith(".TILES")) and tiles["ok"].all()
    assert len(c.tables["tiles"]) == 10
