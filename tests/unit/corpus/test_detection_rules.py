"""Detection that does not guess, and every skip explained.

Specs and files are written here; what is planted decides what each file must be:
a spec with no magic claims a file by its declared extension, or (declaring
none) by a trial parse that reads the file plausibly, never an archive member
by a parse alone; every skipped file says why.
"""

from __future__ import annotations

import struct
import zipfile

import pytest

import animre
from animre.cli import main

TABLE = ("meta:\n  id: tbl\n  file-extension: tbl\n  endian: le\nseq:\n  - id: n\n    type: u2\n"
         "  - id: entries\n    type: entry\n    repeat: expr\n    repeat-expr: n\n"
         "types:\n  entry:\n    seq:\n      - id: ofs\n        type: u4\n      - id: len\n        type: u4\n"
         "    instances:\n      body:\n        pos: ofs\n        size: len\n")
BLIND = ("meta:\n  id: blind\n  endian: le\nseq:\n  - id: n\n    type: u1\n  - id: vals\n    type: u2\n"
         "    repeat: expr\n    repeat-expr: n\ninstances:\n  first:\n    value: vals[0]\n")
MAGIC = "meta:\n  id: mg\n  endian: le\nseq:\n  - id: magic\n    contents: [0x0a]\n  - id: v\n    type: u1\n"


def table_file(entries: list[bytes]) -> bytes:
    head = 2 + 8 * len(entries)
    out, pos = bytearray(struct.pack("<H", len(entries))), head
    for e in entries:
        out += struct.pack("<II", pos, len(e))
        pos += len(e)
    return bytes(out) + b"".join(entries)


@pytest.fixture()
def folder(tmp_path):
    specs = tmp_path / "specs"
    specs.mkdir()
    for n, t in (("tbl", TABLE), ("blind", BLIND), ("mg", MAGIC)):
        (specs / f"{n}.ksy").write_text(t, encoding="utf-8")
    d = tmp_path / "game"
    d.mkdir()
    (d / "ARCHIVE.TBL").write_bytes(table_file([b"abc", b"defgh"]))
    (d / "SPRITE.ICN").write_bytes(table_file([b"xyz"]))       # a table too, but not a .tbl
    (d / "whole.dat").write_bytes(bytes([2]) + struct.pack("<2H", 7, 9))            # blind reads it whole
    (d / "leftover.dat").write_bytes(bytes([1]) + struct.pack("<H", 7) + b"tail!")  # parses, bytes left over
    (d / "empty.dat").write_bytes(bytes([0]))                                       # value instance fails
    (d / "pic.mg").write_bytes(b"\x00\x01")                                         # lacks mg's magic
    with zipfile.ZipFile(d / "pack.zip", "w") as z:
        z.writestr("inner.dat", bytes([2]) + struct.pack("<2H", 1, 2))              # blind would read it whole
        z.writestr("INNER.TBL", table_file([b"q"]))
    return d, specs


def test_a_magicless_spec_claims_only_files_with_its_extension(folder):
    d, specs = folder
    c = animre.open_corpus(d, specs=[specs / "tbl.ksy"], formats=["tbl"], cache=False, workers=1)
    f = c.files.set_index("file")
    assert f.loc["ARCHIVE.TBL", "format"] == "tbl" and f.loc["ARCHIVE.TBL", "detected_by"] == "extension"
    assert f.loc["pack.zip/INNER.TBL", "format"] == "tbl"
    assert f.loc["SPRITE.ICN", "status"] == "skipped"
    assert ".tbl" in f.loc["SPRITE.ICN", "reason"] and ".icn" in f.loc["SPRITE.ICN", "reason"]
    assert len(c.tables["tbl_entries"]) == 3  # 2 entries of ARCHIVE.TBL + 1 of INNER.TBL, nothing of SPRITE.ICN


def test_a_spec_with_neither_magic_nor_extension_needs_a_plausible_parse(folder):
    d, specs = folder
    c = animre.open_corpus(d, specs=[specs / "blind.ksy"], formats=["blind"], cache=False, workers=1)
    f = c.files.set_index("file")
    assert f.loc["whole.dat", "format"] == "blind" and "trial parse" in f.loc["whole.dat", "detected_by"]
    assert f.loc["leftover.dat", "status"] == "skipped"
    assert "reads 3 of 8 bytes" in f.loc["leftover.dat", "reason"]
    assert f.loc["empty.dat", "status"] == "skipped" and "instance first" in f.loc["empty.dat", "reason"]
    assert f.loc["pack.zip/inner.dat", "status"] == "skipped"
    assert "archive members are not trial-parsed" in f.loc["pack.zip/inner.dat", "reason"]


def test_a_skip_names_the_magic_expected_and_found(folder):
    d, specs = folder
    c = animre.open_corpus(d, specs=[specs / "mg.ksy"], formats=["mg"], cache=False, workers=1)
    f = c.files.set_index("file")
    assert f.loc["pic.mg", "reason"] == "mg: magic 0a expected at 0, found 00"
    assert f.loc[f["status"] == "skipped", "reason"].notna().all()


def test_every_skipped_file_has_a_reason_with_all_formats(folder):
    d, specs = folder
    c = animre.open_corpus(d, specs=[specs], cache=False, workers=1)
    skipped = c.files[c.files["status"] == "skipped"]
    assert len(skipped) and skipped["reason"].str.len().gt(10).all()
    assert c.files.loc[c.files["status"] == "parsed", "reason"].isna().all()


def test_scan_prints_the_reasons(folder, capsys):
    d, specs = folder
    main(["scan", str(d), "--spec", str(specs / "mg.ksy"), "--format", "mg", "--no-cache"])
    out = capsys.readouterr().out
    assert "skipped (why no format reads them)" in out and "magic 0a expected at 0, found 00" in out


def test_a_float_in_the_fixed_part_does_not_stop_detection(tmp_path):
    spec = tmp_path / "fl.ksy"
    spec.write_text("meta: {id: fl, endian: le}\nseq:\n  - {id: magic, contents: FL}\n  - {id: scale, type: f4}\n"
                    "  - {id: version, type: u2, valid: 3}\n", encoding="utf-8")
    d = tmp_path / "d"
    d.mkdir()
    (d / "a.fl").write_bytes(b"FL" + struct.pack("<fH", 1.5, 3))
    (d / "b.fl").write_bytes(b"FL" + struct.pack("<fH", 1.5, 4))  # version 4: the valid after the float gates
    c = animre.open_corpus(d, specs=[spec], formats=["fl"], cache=False, workers=1)
    f = c.files.set_index("file")
    assert f.loc["a.fl", "status"] == "parsed"
    assert f.loc["b.fl", "status"] == "skipped" and f.loc["b.fl", "reason"] == "fl: version 3 expected at 6, found 4"
