"""Shared fixtures: a freshly generated sample corpus with its manifest, and the real files."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from animre.samples import generate_all, planted_files
from animre.spec.compiler import PROJECT_ROOT

# The real files: this project's CI keeps them beside the checkout; ANIMRE_REALDATA points elsewhere.
REALDATA = Path(os.environ.get("ANIMRE_REALDATA") or PROJECT_ROOT.parent / "shared" / "realdata")
SEED = 2097


@pytest.fixture(scope="session")
def samples_dir(tmp_path_factory) -> Path:
    """The whole sample corpus, generated from the seed into a temporary folder."""
    d = tmp_path_factory.mktemp("samples")
    generate_all(d, seed=SEED)
    return d


def _expected_status(entry: dict) -> str:
    from animre.formats import all_formats

    if "status" in entry:  # the generator says (Retro PAK, disc image)
        return entry["status"]
    if "format" not in entry and "archive" not in entry:
        return "parsed"
    if entry.get("format") in all_formats():
        return "parsed"
    return "container" if entry.get("archive") else "skipped"


@pytest.fixture(scope="session")
def expected_status():
    """A manifest entry's status in ``corpus.files``: what the file is, and whether the kit reads that.

    ``format`` says what the file is, ``archive`` the container id of an archive; entries
    without either are files of their section's own format (parsed).
    """
    return _expected_status


@pytest.fixture(scope="session")
def manifest(samples_dir) -> dict:
    import json

    return json.loads((samples_dir / "manifest.json").read_text())


def distinct(truths: dict[str, dict]) -> int:
    """How many different files the truths describe (copies of one file count once)."""
    import json

    return len({json.dumps(v, sort_keys=True) for v in truths.values()})


@pytest.fixture(scope="session")
def truths(manifest):
    """``truths(fmt)``: file -> planted values of every file of that format (animre.samples.planted_files)."""
    return lambda fmt: planted_files(manifest, fmt)


@pytest.fixture(scope="session")
def count_distinct():
    """``count_distinct(truths)``: how many different files (copies count once)."""
    return distinct


MISSING_REAL = f"real files not present: {os.environ.get('ANIMRE_REALDATA') or '../shared/realdata'}"
_skipped_for_real: list[str] = []


@pytest.fixture(scope="session")
def realdata() -> Path:
    """The real files, read in place.

    A user's clone has no such folder: the test is skipped with one clear reason.
    This project's CI always has it, so with ``CI`` set a missing folder fails the
    test instead (nothing silently stops being checked there).
    """
    if REALDATA.is_dir():
        return REALDATA
    if os.environ.get("CI"):
        pytest.fail(f"{MISSING_REAL} (CI is set, and CI always has the real files)", pytrace=False)
    pytest.skip(MISSING_REAL)


@pytest.fixture(scope="session")
def real_or_none(request) -> Path | None:
    """The real files when present, else None: for tests that add them to what the samples cover."""
    try:
        return request.getfixturevalue("realdata")
    except pytest.skip.Exception:
        return None


def pytest_runtest_logreport(report):
    if report.skipped and MISSING_REAL in str(report.longrepr):
        _skipped_for_real.append(report.nodeid)


def pytest_terminal_summary(terminalreporter):
    n = len(set(_skipped_for_real))
    if n:
        terminalreporter.write_line(
            f"animre: {n} test(s) skipped because the {MISSING_REAL} (they run in this project's CI; "
            "see README, 'Real files')", yellow=True)


@pytest.fixture(scope="session")
def sample_corpus(samples_dir):
    """The sample corpus opened without cache."""
    import animre

    return animre.open_corpus(samples_dir, cache=False)


@pytest.fixture(scope="module")
def truth(request, manifest):
    """The manifest section of the format a test module is about: its folder's name (``tests/formats/<id>/``)."""
    return manifest["formats"][Path(request.module.__file__).parent.name]


@pytest.fixture(scope="module")
def homm2(manifest, truths):
    """The FRM section with the planted values of every FRM file (loose, in the AGG, loose copies)."""
    return {**manifest["formats"]["frm"], "files": truths("frm")}


@pytest.fixture
def homm2_folder(samples_dir: Path, tmp_path: Path) -> Path:
    """The samples' HoMM2 folders (frm, icn, agg) in a folder with a planted copy: GOBLNFRM.BIN with its idle
    count (byte 117, just before the five idle weights at 118 of the notes) set to 9, past the engine's 5."""
    d = tmp_path / "homm2"
    for sub in ("frm", "icn", "agg"):
        shutil.copytree(samples_dir / sub, d / sub)
    data = bytearray((samples_dir / "frm" / "GOBLNFRM.BIN").read_bytes())
    data[117] = 9
    (d / "PLANTFRM.BIN").write_bytes(bytes(data))
    return d
