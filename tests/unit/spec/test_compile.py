"""The Kaitai toolchain: compile, --check, compile_spec, toolchain errors."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

import animre
from animre.base.errors import SpecError, ToolchainError, UsageError
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
    import animre.spec.bridge as c

    monkeypatch.setattr(c, "PROJECT_ROOT", tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ANIMRE_NODE_MODULES", raising=False)
    with pytest.raises(ToolchainError) as ei:
        animre.spec.compile_spec("meta: {id: t, endian: le}\nseq: [{id: a, type: u1}]\n")
    assert "make setup" in str(ei.value) and "kaitai-struct-compiler" in str(ei.value)


# What the compiler's Python target writes as invalid Python, in specs of the gallery's kind: an enum
# member named with a Python keyword (wmf.ksy: ``not``), a doc with a backslash (regf.ksy: ``\N``).
KEYWORD_ENUM = r"""meta: {id: kw_enum, file-extension: kwe}
doc: 'Paths such as C:\New\Notes are kept as written.'
seq:
  - id: op
    type: u1
    enum: raster_op
  - id: scope
    type: u1
    enum: scope
enums:
  raster_op: {1: black, 6: not, 7: xorpen}
  scope: {0: local, 1: global}
"""


def test_keyword_enum_members_and_backslash_docs_load(tmp_path):
    spec = tmp_path / "kw_enum.ksy"
    spec.write_text(KEYWORD_ENUM)
    d = tmp_path / "files"
    d.mkdir()
    (d / "a.kwe").write_bytes(bytes([6, 1]))
    (d / "b.kwe").write_bytes(bytes([7, 0]))
    c = animre.open_corpus(d, specs=[spec], cache=False)
    t = c.tables["kw_enum"].set_index("file")
    assert t.loc["a.kwe", "op"] == 6 and t.loc["a.kwe", "op_name"] == "not_"
    assert t.loc["a.kwe", "scope_name"] == "global_" and t.loc["b.kwe", "op_name"] == "xorpen"
    r = animre.check(c, "kw_enum", "op == raster_op::not").iloc[0]  # the enum from the spec of kw_enum
    assert r["fails"] == 1 and r["counterexamples"][0]["file"] == "b.kwe"
    assert animre.check(c, "kw_enum", "scope == kw_enum::scope::global").iloc[0]["holds"] == 1
    with pytest.raises(UsageError, match="enum 'raster_op' has no member 'nand'"):
        animre.check(c, "kw_enum", "op == raster_op::nand")


def test_a_keyword_field_is_a_spec_error_naming_it(tmp_path):
    spec = tmp_path / "kwfield.ksy"
    spec.write_text("meta: {id: kwfield, file-extension: kwf}\nseq:\n  - id: class\n    type: u1\n")
    d = tmp_path / "files"
    d.mkdir()
    (d / "a.kwf").write_bytes(b"\x01")
    with pytest.raises(SpecError, match=r"kwfield\.ksy.*self\.class = .*rename the field"):
        animre.open_corpus(d, specs=[spec], cache=False)


def test_a_spec_with_parameters_is_no_format_of_its_own(tmp_path):
    lib = tmp_path / "digits.ksy"
    lib.write_text("meta: {id: digits}\nparams:\n  - id: num_digits\n    type: u1\nseq:\n  - id: d\n"
                   "    type: u1\n    repeat: expr\n    repeat-expr: num_digits\n")
    user = tmp_path / "uses.ksy"
    user.write_text("meta: {id: uses, file-extension: dg, imports: [digits]}\nseq:\n  - id: n\n    type: u1\n"
                    "  - id: digits\n    type: digits(n)\n")
    d = tmp_path / "files"
    d.mkdir()
    (d / "a.dg").write_bytes(bytes([3, 7, 8, 9]))
    with pytest.warns(UserWarning, match="digits.ksy takes parameters \\(num_digits\\)"):
        c = animre.open_corpus(d, specs=[lib, user], cache=False)
    assert set(c.files["format"]) == {"uses"}
    assert c.tables["uses_digits_d"]["d"].tolist() == [7, 8, 9]
    c = animre.open_corpus(d, specs=[tmp_path], cache=False)  # a folder of specs: skipped without a word
    assert set(c.files["format"]) == {"uses"}


def test_the_compiler_keeps_running_between_compiles_and_starts_again_when_it_died():
    from animre.spec import bridge

    def tiny(i):
        mod = animre.spec.compile_spec(f"meta: {{id: keep{i}, endian: le}}\nseq: [{{id: a, type: u2}}]\n")
        t = getattr(mod, f"Keep{i}").from_bytes(b"\x07\x01")
        t._read()
        return t.a

    assert tiny(0) == 0x107
    first = bridge._SERVER[0].proc
    assert tiny(1) == 0x107 and bridge._SERVER[0].proc is first  # the same process answered
    first.kill()
    first.wait()
    assert tiny(2) == 0x107 and bridge._SERVER[0].proc is not first


def test_a_compile_that_takes_too_long_is_stopped(monkeypatch, tmp_path):
    from animre.spec import bridge

    # a compiler that reads its requests and never answers (a real compile can beat any short timeout)
    silent = tmp_path / "silent.js"
    silent.write_text("process.stdin.on('data', () => {}); setInterval(() => {}, 1000);\n")
    monkeypatch.setattr(bridge, "_SCRIPT", silent)
    monkeypatch.setattr(bridge, "TIMEOUT", 0.5)
    monkeypatch.setattr(bridge, "_SERVER", [None])  # this test's own compiler process
    with pytest.raises(ToolchainError) as ei:
        animre.spec.compile_spec("meta: {id: slow_probe, endian: le}\nseq: [{id: a, type: u2}]\n")
    assert "did not finish" in str(ei.value)
    monkeypatch.undo()
    assert animre.spec.compile_spec("meta: {id: after_probe, endian: le}\nseq: [{id: a, type: u1}]\n")
