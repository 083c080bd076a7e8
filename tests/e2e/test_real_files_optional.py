"""A clone without ``../shared`` skips the real-file tests with one reason; with ``CI`` set it fails.

The checkout is copied into a temporary folder that has no ``shared/`` beside
it, and a small subset of the suite runs there (the two tests that need the
real files and one that does not), once without and once with ``CI`` set.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from animre.spec.compiler import PROJECT_ROOT


@pytest.fixture(scope="module")
def lone_clone(tmp_path_factory):
    root = tmp_path_factory.mktemp("lone") / "animre"
    files = subprocess.run(["git", "-C", str(PROJECT_ROOT), "ls-files"], check=True, capture_output=True,
                           text=True).stdout.split()
    for f in files:
        src = PROJECT_ROOT / f
        if src.is_file():
            (root / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, root / f)
    assert not (root.parent / "shared").exists()
    return root


def _run(clone, ci: bool):
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "ANIMRE_REALDATA")}
    env["ANIMRE_CACHE_DIR"] = str(clone / ".cache")
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "-rs",  # one process: a subset
         "tests/unit/formats/test_detect.py::test_real_files_are_recognised_without_their_names",
         "tests/e2e/test_fuzz.py::test_originals_reach_every_type", "tests/unit/test_layers.py"],
        cwd=clone, env=env, capture_output=True, text=True, timeout=900)


def test_without_real_files_the_clone_skips_with_one_reason(lone_clone):
    r = _run(lone_clone, ci=False)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-3000:]
    assert "real files not present: ../shared/realdata" in out
    assert "2 skipped" in out and "passed" in out  # the tests without real files still run
    assert "animre: 2 test(s) skipped because the real files not present" in out


def test_with_ci_set_missing_real_files_fail(lone_clone):
    r = _run(lone_clone, ci=True)
    out = r.stdout + r.stderr
    assert r.returncode == 1, out[-3000:]
    assert "2 errors" in out and "CI always has the real files" in out  # failed in the fixture
