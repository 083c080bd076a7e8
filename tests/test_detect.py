"""Formats are recognised by content, not by file name."""

from __future__ import annotations

import shutil

import animre


def test_every_sample_is_recognised_without_its_name(sample_corpus, samples_dir, tmp_path):
    files = sample_corpus.files
    files = files[files["container"].isna() & files["kind"].isna()]  # files on disk, not containers
    d = tmp_path / "anon"
    d.mkdir()
    truth = {}
    for i, r in enumerate(files.itertuples()):
        name = f"blob{i:04d}.dat"
        shutil.copy(samples_dir / r.file, d / name)
        truth[name] = r.format
    c = animre.open_corpus(d, cache=False)
    got = dict(zip(c.files.file, c.files.format))
    assert got == truth
    assert c.files.ok.all() and c.errors.empty


def test_real_files_are_recognised_without_their_names(realdata, tmp_path):
    expected = {"flic/civ3/settler/Run.flc": "flc", "flic/standard/a.fli": "flc",
                "flic/standard/2422.flc": "flc", "omf/openomf.bk": "bk"}
    for i, rel in enumerate(expected):
        shutil.copy(realdata / rel, tmp_path / f"x{i}.bin")
    c = animre.open_corpus(tmp_path, cache=False)
    assert list(c.files.format) == list(expected.values())
    assert c.files.ok.all()
