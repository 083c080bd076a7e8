"""Shared fixtures: a freshly generated sample corpus with its manifest, and the real files."""

from __future__ import annotations

from pathlib import Path

import pytest

from animre.compile import PROJECT_ROOT
from animre.samples import generate_all

REALDATA = PROJECT_ROOT.parent / "shared" / "realdata"
SEED = 2097


@pytest.fixture(scope="session")
def samples_dir(tmp_path_factory) -> Path:
    """The whole sample corpus, generated from the seed into a temporary folder."""
    d = tmp_path_factory.mktemp("samples")
    generate_all(d, seed=SEED)
    return d


@pytest.fixture(scope="session")
def manifest(samples_dir) -> dict:
    import json

    return json.loads((samples_dir / "manifest.json").read_text())


@pytest.fixture(scope="session")
def realdata() -> Path:
    """``../shared/realdata`` read in place; CI has it, so a missing folder is a failure."""
    assert REALDATA.is_dir(), f"real files expected at {REALDATA}"
    return REALDATA


@pytest.fixture(scope="session")
def sample_corpus(samples_dir):
    """The sample corpus opened without cache."""
    import animre

    return animre.open_corpus(samples_dir, cache=False)
