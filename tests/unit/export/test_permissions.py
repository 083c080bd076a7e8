"""Outputs get the mode any new file of the user gets (0o666 less the umask), not mkstemp's 0600."""

from __future__ import annotations

import os
import stat

import matplotlib
import pandas as pd
import pytest

matplotlib.use("Agg")

import animre  # noqa: E402
from animre.base.atomic import current_umask, write_atomic  # noqa: E402
from animre.export import export  # noqa: E402
from animre.present.report import write_report  # noqa: E402

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX modes")


@pytest.fixture(scope="module")
def frm():
    return animre.open_corpus("data/samples/frm", cache=False, progress=False)


@pytest.fixture
def umask():
    """``umask(mask)`` sets the process's umask for one test; the old one is set back after it."""
    old = os.umask(0o022)
    yield os.umask
    os.umask(old)


def _mode(p) -> int:
    return stat.S_IMODE(os.stat(p).st_mode)


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_report_and_exports_get_the_mode_of_a_new_file(frm, tmp_path, umask, mask, mode):
    umask(mask)
    assert current_umask() == mask
    report = write_report(frm, tmp_path / "report.html")
    written = export({"frm": frm.tables["frm"]}, tmp_path / "exp", ["csv", "md", "parquet", "json"])
    assert {p.suffix for p in written} == {".csv", ".md", ".parquet", ".json"}
    for p in [report, *written]:
        assert _mode(p) == mode, (p.name, oct(_mode(p)))
    assert not [p for p in tmp_path.rglob(".*")]  # no temporary file left beside them


def test_an_overwritten_output_gets_the_mode_of_a_new_file_too(tmp_path, umask):
    """A file written 0600 by an earlier release is 0644 again once rewritten under umask 022."""
    p = tmp_path / "findings.csv"
    p.write_text("old")
    os.chmod(p, 0o600)
    umask(0o022)
    write_atomic(p, b"new")
    assert p.read_bytes() == b"new" and _mode(p) == 0o644
    export(pd.DataFrame({"a": [1]}), tmp_path, ["csv"], name="findings")
    assert _mode(p) == 0o644
