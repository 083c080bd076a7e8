"""The `animre` command line: every command, its help, its exit codes."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pandas as pd
import pytest

import animre
from animre.base.errors import UsageError
from animre.cli import main

COMMANDS = ["compile", "samples", "scan", "profile", "claims", "coverage", "export", "suggest", "demo"]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "animre", *args], capture_output=True, text=True)


@pytest.fixture(scope="module")
def frm_dir(samples_dir, tmp_path_factory):
    d = tmp_path_factory.mktemp("cli_frm")
    for f in sorted((samples_dir / "frm").glob("*FRM.BIN"))[:6]:
        shutil.copy(f, d / f.name)
    return d


@pytest.mark.parametrize("cmd", COMMANDS)
def test_every_command_has_help(cmd):
    r = run(cmd, "--help")
    assert r.returncode == 0 and "usage: animre " + cmd in r.stdout and len(r.stdout) > 200


def test_no_command_and_bad_usage_exit_2(tmp_path):
    assert run().returncode == 2
    assert run("scan").returncode == 2  # DIR missing
    assert run("scan", str(tmp_path / "missing")).returncode == 2
    assert run("profile", str(tmp_path)).returncode == 2  # --table missing


def test_scan_clean_corpus_exits_0(samples_dir, manifest, expected_status, capsys):
    assert main(["scan", str(samples_dir), "--no-cache", "-q"]) == 0
    out = capsys.readouterr().out
    entries = [t for sec in manifest["formats"].values() for t in sec["files"].values()]
    n = len(entries)
    status = [expected_status(t) for t in entries]  # containers and skipped members are listed too
    assert f"{n} files, {status.count('parsed')} parsed, 0 failed, {status.count('skipped')} skipped" in out
    for fmt in ("af", "bk", "frm", "mot", "pas4", "flc"):
        assert f"\n{fmt:>6}" in out or f" {fmt} " in out


def test_scan_with_bad_files_exits_1_and_lists_them(frm_dir, tmp_path, capsys):
    d = tmp_path / "bad"
    shutil.copytree(frm_dir, d)
    (d / "CUT__FRM.BIN").write_bytes(next(frm_dir.iterdir()).read_bytes()[:300])
    assert main(["scan", str(d), "--no-cache", "-q"]) == 1
    out = capsys.readouterr().out
    assert "1 failed" in out and "CUT__FRM.BIN" in out


def test_profile_table(frm_dir, capsys):
    assert main(["profile", str(frm_dir), "--table", "frm", "-q", "--no-cache"]) == 0
    out = capsys.readouterr().out
    assert "walk_speed" in out and "CONSTANT" in out  # e.g. projectile counts of non-shooters
    assert main(["profile", str(frm_dir), "--table", "nope", "-q", "--no-cache"]) == 2


def test_claims_and_coverage(frm_dir, capsys):
    assert main(["claims", str(frm_dir), "-q", "--no-cache"]) == 0
    out = capsys.readouterr().out
    assert "FRM files are 821 bytes" in out
    assert main(["coverage", str(frm_dir), "-q", "--no-cache"]) == 0
    out = capsys.readouterr().out
    assert "1.0" in out or "100" in out


def test_export_writes_requested_formats(frm_dir, tmp_path, capsys):
    out = tmp_path / "exp"
    assert main(["export", str(frm_dir), "--out", str(out), "--format", "csv,md,parquet", "-q",
                 "--no-cache"]) == 0
    names = {p.name for p in out.rglob("*") if p.is_file()}
    assert {"frm.csv", "frm.md", "frm.parquet"} <= names, names
    df = pd.read_parquet(out / "frm.parquet")
    assert len(df) == 6 and df.columns[0] == "file"


def test_samples_command(tmp_path):
    r = run("samples", str(tmp_path / "s"), "--only", "frm", "--seed", "5")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "s" / "manifest.json").exists() and len(list((tmp_path / "s" / "frm").iterdir())) > 20


def test_quiet_when_not_a_terminal(frm_dir, tmp_path):
    d = tmp_path / "many"
    d.mkdir()
    for i in range(25):  # enough files for a progress bar on a terminal
        shutil.copy(next(frm_dir.iterdir()), d / f"M{i:02d}_FRM.BIN")
    r = run("scan", str(d), "--no-cache")
    assert r.returncode == 0 and "animre: parsing" not in r.stderr


def test_suggest_prints_evidence_writes_the_patch_and_applies(samples_dir, manifest, tmp_path, capsys):
    """exec_window is 10 in every generated AF file: a valid, proven on the files, written to a spec copy."""
    from animre.spec.compiler import KSY_DIR

    ksy = tmp_path / "ksy"
    shutil.copytree(KSY_DIR, ksy)
    out = tmp_path / "out"
    value = manifest["formats"]["omf"]["planted"]["exec_window"]
    n_af = sum(1 for f in manifest["formats"]["omf"]["files"] if f.startswith("af/"))
    args = ["suggest", str(samples_dir / "af"), "--format", "af", "--no-cache", "-q", "--ksy", str(ksy),
            "--out", str(out)]
    assert main(args + ["--min-files", str(n_af + 1)]) == 0
    assert f"valid: {value}" not in capsys.readouterr().out  # fewer independent files than asked for
    assert main(args + ["--apply"]) == 0
    text = capsys.readouterr().out
    assert f"valid: {value}" in text and f"{value} in {n_af}/{n_af} files" in text
    patch = (out / "suggestions.patch").read_text()
    assert patch.startswith("--- a/af.ksy") and f"+    valid: {value}\n" in patch
    assert "af.ksy: " in text and "every file still parses" in text
    assert f"valid: {value}" in (ksy / "af.ksy").read_text()
    assert (KSY_DIR / "af.ksy").read_text() != (ksy / "af.ksy").read_text()
    assert main(["suggest", str(samples_dir / "af"), "--format", "nope", "-q", "--out", str(out)]) == 2


def _state(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() if p.is_file() else None for p in folder.rglob("*")}


@pytest.mark.parametrize("args", [
    ["export", "{d}", "--out", "{d}/findings", "-q"],
    ["export", "{d}", "--out", "{d}", "-q"],
    ["report", "{d}", "--out", "{d}/report.html", "-q"],
    ["suggest", "{d}", "--out", "{d}/suggest", "-q"],
    ["suggest", "{d}", "--apply", "--ksy", "{d}/ksy", "--out", "{o}", "-q"],
    ["suggest", "{d}", "--spec", "{d}/specs/frm.ksy", "--apply", "--out", "{o}", "-q", "--no-cache"],
    ["samples", "{d}"],
    ["samples", "{d}/sub/.."],
    ["infer", "{d}", "-o", "{d}/unknown.ksy", "-q"],
    ["infer", "{d}", "-o", "{d}/sub/deeper/unknown.ksy", "-q"],
    ["demo", "--real", "{d}", "--out", "{d}/out"],
], ids=["export-inside", "export-same", "report", "suggest-out", "suggest-ksy", "suggest-own-spec", "samples",
        "samples-dotdot", "infer-inside", "infer-below", "demo-real"])
def test_commands_refuse_to_write_into_the_folder_they_read(frm_dir, tmp_path, args, capsys):
    """A user's folder is read-only to the kit: exit 2 with a clear message naming both paths, nothing written."""
    from animre.spec.compiler import KSY_DIR

    d = tmp_path / "game"
    shutil.copytree(frm_dir, d)
    (d / "sub").mkdir()
    (d / "specs").mkdir()
    shutil.copy(KSY_DIR / "frm.ksy", d / "specs" / "frm.ksy")  # a user's spec kept in the game folder
    before = _state(d)
    code = main([a.format(d=d, o=tmp_path / "o") for a in args])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "never" in err and str(d) in err
    if args[0] in ("infer", "demo"):
        assert "the folder being read" in err and err.count(str(d)) >= 2, err  # the output and the folder read
    assert _state(d) == before


def test_infer_in_the_folder_it_reads_refuses_its_default_output(frm_dir, tmp_path, monkeypatch, capsys):
    """``animre infer .`` would write unknown.ksy into the folder it reads (and count it next time)."""
    d = tmp_path / "game"
    shutil.copytree(frm_dir, d)
    monkeypatch.chdir(d)
    before = _state(d)
    assert main(["infer", ".", "-q"]) == 2
    err = capsys.readouterr().err
    assert "unknown.ksy is inside ., the folder being read" in err
    assert _state(d) == before
    assert main(["infer", ".", "-q", "-o", str(tmp_path / "unknown.ksy")]) == 0  # beside it: fine
    assert (tmp_path / "unknown.ksy").is_file() and _state(d) == before


def test_samples_refuse_a_folder_inside_a_sample_corpus(tmp_path, capsys):
    """The kit reads a sample corpus as a whole: samples never go into a folder inside one."""
    corpus = tmp_path / "samples"
    assert main(["samples", str(corpus), "--only", "frm"]) == 0  # new, then over itself: fine
    assert main(["samples", str(corpus), "--only", "frm"]) == 0
    capsys.readouterr()
    before = _state(corpus)
    assert main(["samples", str(corpus / "frm" / "more"), "--only", "frm"]) == 2
    err = capsys.readouterr().err
    assert f"is inside {corpus}, the folder being read" in err
    assert _state(corpus) == before


def test_infer_never_counts_what_the_kit_wrote(samples_dir, tmp_path, capsys):
    """The spec, exports, report and patch the kit writes are not samples of the format, wherever they lie."""
    d = tmp_path / "unknown"
    shutil.copytree(samples_dir / "unknown", d)
    n = len(list(d.iterdir()))
    assert main(["infer", str(d), "-o", str(tmp_path / "unknown.ksy"), "-q"]) == 0
    assert f"from {n} files" in capsys.readouterr().out
    for name in ("unknown.ksy", "report.html", "unknown.csv", "unknown.md", "unknown.parquet", "unknown.json",
                 "suggestions.patch", "run.gif", "run.png", "run.apng", "08_unknown_format.ipynb"):
        (d / name).write_bytes((tmp_path / "unknown.ksy").read_bytes())  # e.g. copied in by hand
    spec = animre.infer_spec(d)
    assert len(spec.files) == n and not [f for f in spec.files if not f.upper().endswith(".SYN")]
    with pytest.raises(UsageError, match="the folder being read"):
        spec.save(d / "again.ksy")
    with pytest.raises(UsageError, match="a file being read"):
        animre.infer_spec([d / f for f in sorted(spec.files)[:6]]).save(d / sorted(spec.files)[0])  # over an input


def test_commands_write_beside_the_folder_they_read(frm_dir, tmp_path, capsys):
    """An output folder next to (or above) the one read is fine."""
    assert main(["export", str(frm_dir), "--out", str(tmp_path / "exp"), "-q", "--no-cache"]) == 0
    assert (tmp_path / "exp" / "frm.csv").is_file()
