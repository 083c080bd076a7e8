"""The Kaitai toolchain: compile, --check, compile_spec, toolchain errors."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

import animre
from animre.errors import SpecError, ToolchainError
from animre.spec.compiler import KSY_DIR, PARSERS_DIR, compile_all


def test_committed_parsers_match_specs():
    assert compile_all(check=True) == []


def test_check_names_files_after_a_spec_edit(tmp_path):
    ksy = tmp_path / "ksy"
    out = tmp_path / "parsers"
    shutil.copytree(KSY_DIR, ksy)
    shutil.copytree(PARSERS_DIR, out, ignore=shutil.ignore_patterns("__pycache__"))
    assert (out / "SPECS.json").exists()
    assert compile_all(check=True, ksy_dir=ksy, out_dir=out) == []
    spec = ksy / "frm.ksy"
    spec.write_text(spec.read_text().replace("doc: X position of the creature's eyes",
                                             "doc: X position of the eyes (edited)"))
    assert compile_all(check=True, ksy_dir=ksy, out_dir=out) == ["SPECS.json"]
    spec.write_text(spec.read_text().replace("- id: eye_x", "- id: eye_x_renamed"))
    assert compile_all(check=True, ksy_dir=ksy, out_dir=out) == ["SPECS.json", "frm.py"]


def test_cli_check_exit_codes(tmp_path):
    r = subprocess.run([sys.executable, "-m", "animre", "compile", "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([sys.executable, "-m", "animre", "compile", "--bogus"], capture_output=True, text=True)
    assert r.returncode == 2


def test_compile_spec_from_text_gives_fresh_module():
    mod = animre.spec.compile_spec("meta: {id: tiny_probe, endian: le}\nseq:\n  - id: a\n    type: u2\n")
    obj = mod.TinyProbe.from_bytes(b"\x34\x12")
    obj._read()
    assert obj.a == 0x1234
    assert obj._debug["a"] == {"start": 0, "end": 2}
    assert not (PARSERS_DIR / "tiny_probe.py").exists()


def test_compile_spec_from_path_resolves_imports_and_keeps_shipped_parser(tmp_path):
    text = (KSY_DIR / "frm.ksy").read_text().replace("- id: eye_x", "- id: eye_x_edited")
    p = tmp_path / "frm.ksy"
    p.write_text(text)
    mod = animre.spec.compile_spec(p)
    assert "eye_x_edited" in mod.Frm.SEQ_FIELDS
    shipped = animre.spec.load_parser("frm")
    assert "eye_x" in shipped.Frm.SEQ_FIELDS and mod is not shipped


def test_broken_spec_carries_compiler_message():
    with pytest.raises(SpecError) as ei:
        animre.spec.compile_spec("meta: {id: broken_probe, endian: le}\nseq:\n  - id: a\n    type: no_such_type\n")
    msg = str(ei.value)
    assert "/seq/0/type" in msg and "no_such_type" in msg
    with pytest.raises(SpecError) as ei:
        animre.spec.compile_spec("meta: {id: broken_yaml\nseq: [\n")
    assert "YAML" in str(ei.value)


def test_missing_node_names_make_target(monkeypatch):
    monkeypatch.setenv("ANIMRE_NODE", "definitely-not-node-xyz")
    with pytest.raises(ToolchainError) as ei:
        animre.spec.compile_spec("meta: {id: t, endian: le}\nseq: [{id: a, type: u1}]\n")
    assert "make setup" in str(ei.value)


def test_missing_compiler_names_make_target(monkeypatch, tmp_path):
    import animre.spec.compiler as c

    monkeypatch.setattr(c, "PROJECT_ROOT", tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ANIMRE_NODE_MODULES", raising=False)
    with pytest.raises(ToolchainError) as ei:
        animre.spec.compile_spec("meta: {id: t, endian: le}\nseq: [{id: a, type: u1}]\n")
    assert "make setup" in str(ei.value) and "kaitai-struct-compiler" in str(ei.value)
