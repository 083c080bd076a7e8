"""A cold scan in several processes gives exactly what one process gives."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

import animre
from animre.base.errors import UsageError


def _open(samples_dir, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return animre.open_corpus(samples_dir, cache=False, progress=False, **kw)


def test_two_workers_equal_one(samples_dir, tmp_path):
    bad = tmp_path / "mixed"
    bad.mkdir()
    for f in sorted((samples_dir / "frm").glob("*.BIN"))[:40]:
        (bad / f.name).write_bytes(f.read_bytes())
    (bad / "TRUNCFRM.BIN").write_bytes((samples_dir / "frm" / "GOBLNFRM.BIN").read_bytes()[:300])
    for folder in (samples_dir, bad):
        one, two = _open(folder, workers=1), _open(folder, workers=2)
        assert list(one.tables) == list(two.tables)
        for t in one.tables:
            pd.testing.assert_frame_equal(one.tables[t], two.tables[t])
            if t in one.spans:
                for k in (0, 1):
                    pd.testing.assert_frame_equal(one.spans[t][k], two.spans[t][k])
        pd.testing.assert_frame_equal(one.errors, two.errors)
    assert list(two.errors["file"]) == ["TRUNCFRM.BIN"]


def test_workers_from_the_environment(samples_dir, monkeypatch):
    monkeypatch.setenv("ANIMRE_WORKERS", "none")
    with pytest.raises(UsageError, match="ANIMRE_WORKERS"):
        _open(samples_dir / "frm")
    monkeypatch.setenv("ANIMRE_WORKERS", "1")
    assert len(_open(samples_dir / "frm").tables["frm"]) == len(list((samples_dir / "frm").glob("*.BIN")))
