"""Formats are recognised by content, not by file name."""

from __future__ import annotations

import shutil

import animre


def test_every_sample_is_recognised_without_its_name(sample_corpus, samples_dir, tmp_path):
    files = sample_corpus.files
    files = files[files.container.isna()]  # the files on disk (archives included, by content)
    d = tmp_path / "anon"
    d.mkdir()
    truth = {}
    for i, r in enumerate(files.itertuples()):
        name = f"blob{i:04d}.dat"
        shutil.copy(samples_dir / r.file, d / name)
        truth[name] = r.format
    c = animre.open_corpus(d, cache=False)
    top = c.files[c.files.container.isna()]
    got = dict(zip(top.file, top.format))
    assert got == truth
    known = top.format.notna()  # the samples' unknown/ folder is a format no spec ships: skipped, not failed
    assert top[known].ok.all() and c.errors.empty
    assert top[~known].status.isin(["skipped", "container"]).all()
    assert (top[~known].status == "skipped").sum() == len(list((samples_dir / "unknown").iterdir()))
    kinds = dict(zip(top.file, top.kind))  # containers are recognised by content too
    assert sorted(k for k in kinds.values() if k) == sorted(k for k in files.kind if k)


def test_real_files_are_recognised_without_their_names(realdata, tmp_path):
    expected = {"flic/civ3/settler/Run.flc": "flc", "flic/standard/a.fli": "flc",
                "flic/standard/2422.flc": "flc", "omf/openomf.bk": "bk"}
    for i, rel in enumerate(expected):
        shutil.copy(realdata / rel, tmp_path / f"x{i}.bin")
    c = animre.open_corpus(tmp_path, cache=False)
    assert list(c.files.format) == list(expected.values())
    assert c.files.ok.all()
