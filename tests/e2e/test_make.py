"""The README's commands: `make lab` starts JupyterLab on the notebooks (then we stop it)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request

import pytest

from animre.spec.compiler import PROJECT_ROOT


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is part of the documented setup")
def test_make_lab_answers_on_its_port(tmp_path):
    port = _free_port()
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "rt"), JUPYTER_CONFIG_DIR=str(tmp_path / "cfg"))
    proc = subprocess.Popen(
        ["make", "-s", "lab", f"PORT={port}",
         "LAB_ARGS=--no-browser --ServerApp.token=animre-test --ServerApp.ip=127.0.0.1"],
        cwd=PROJECT_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        body = None
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/lab?token=animre-test", timeout=5) as r:
                    body = r.read().decode("utf-8", "replace")
                    break
            except OSError:
                time.sleep(1)
        assert body is not None, (proc.stdout.read1(20000) if proc.poll() is not None else b"").decode()
        assert "JupyterLab" in body or "jupyter" in body.lower()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/contents?token=animre-test", timeout=10) as r:
            listing = r.read().decode()
        assert "00_quickstart.ipynb" in listing  # JupyterLab is rooted at notebooks/
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
