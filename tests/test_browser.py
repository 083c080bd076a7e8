"""The quick-start notebook in a real JupyterLab, driven by headless Chromium (playwright).

Starts the venv's JupyterLab on a free port with a token and ``notebooks/`` as
root, opens ``00_quickstart.ipynb``, runs all cells and waits until the corpus
explorer widget renders with its highlighted bytes; saves a screenshot to
``test-artifacts/quickstart.png``. Chromium comes from Debian (``make browser``);
playwright's own browser download is never used.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from animre.compile import PROJECT_ROOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = PROJECT_ROOT / "test-artifacts"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SERVER_START_S = 120
RENDER_MS = 240_000


def _chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
    if not Path(path).exists():
        pytest.fail("Chromium is required for the browser test and was not found "
                    "(/usr/bin/chromium): install it with `make browser` (Debian: apt-get install chromium)")
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _jupyter() -> str:
    exe = Path(sys.executable).with_name("jupyter")
    assert exe.exists(), f"JupyterLab is not installed next to {sys.executable} (pip install 'animre[lab]')"
    return str(exe)


def _wait_for_server(proc: subprocess.Popen, url: str, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"JupyterLab exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.5)
    pytest.fail(f"JupyterLab did not answer on {url} within {SERVER_START_S} s:\n{log.read_text()[-3000:]}")


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM lets the server shut its kernels down; the process group is killed if it hangs."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


@pytest.fixture
def jupyterlab(tmp_path, samples_dir):
    port = _free_port()
    token = secrets.token_hex(16)
    home = tmp_path / "jupyter"
    env = dict(
        os.environ,
        ANIMRE_DATA=str(samples_dir),
        ANIMRE_OUT=str(tmp_path / "out"),
        ANIMRE_CACHE_DIR=str(tmp_path / "cache"),
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
    )
    # no "official Jupyter news?" toast over the screenshot
    notif = home / "settings" / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notif.parent.mkdir(parents=True)
    notif.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    # never write outputs into the committed notebook (no autosave; checkpoints in tmp)
    docmanager = home / "settings" / "@jupyterlab" / "docmanager-extension" / "plugin.jupyterlab-settings"
    docmanager.parent.mkdir(parents=True)
    docmanager.write_text(json.dumps({"autosave": False}))
    log = tmp_path / "jupyterlab.log"
    cmd = [_jupyter(), "lab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
           f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={PROJECT_ROOT / 'notebooks'}",
           "--ServerApp.port_retries=0", "--LabApp.expose_app_in_browser=True",
           f"--FileCheckpoints.checkpoint_dir={home / 'checkpoints'}",
           "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # CI runs as root
    with open(log, "wb") as fh:
        proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, env=env, cwd=tmp_path,
                                start_new_session=True)
    try:
        _wait_for_server(proc, f"http://127.0.0.1:{port}/api/status?token={token}", log)
        yield {"url": f"http://127.0.0.1:{port}", "token": token, "log": log, "out": tmp_path / "out"}
    finally:
        _stop(proc)


def test_quickstart_renders_corpus_explorer(jupyterlab):
    from playwright.sync_api import sync_playwright

    notebook = PROJECT_ROOT / "notebooks" / "00_quickstart.ipynb"
    stored = notebook.read_bytes()

    chromium = _chromium()
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "quickstart.png"
    url = f"{jupyterlab['url']}/lab/tree/00_quickstart.ipynb?token={jupyterlab['token']}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url, wait_until="domcontentloaded", timeout=RENDER_MS)
            # the notebook is open and its kernel is ready
            page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=RENDER_MS)
            page.wait_for_function(
                """() => {
                    const app = window.jupyterapp;
                    const w = app && app.shell.currentWidget;
                    const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
                    return !!k && k.status === 'idle';
                }""", timeout=RENDER_MS)
            page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
            explorer = page.locator(".animre-explorer")
            explorer.wait_for(state="visible", timeout=RENDER_MS)
            # the hex view renders with the first field's bytes highlighted
            page.locator(".animre-explorer .animre-hex .hl").first.wait_for(state="visible", timeout=RENDER_MS)
            assert page.locator(".animre-explorer select").count() >= 3  # file, record, field pickers
            # the last cell (the export) finishes too: the kernel goes idle with every cell run
            # (or a cell failed, which stops "run all")
            page.wait_for_function(
                """() => {
                    const w = window.jupyterapp.shell.currentWidget;
                    const cells = w.content.widgets.filter(c => c.model.type === 'code');
                    const k = w.sessionContext.session.kernel;
                    const failed = cells.some(c => c.model.outputs.toJSON().some(o => o.output_type === 'error'));
                    return k.status === 'idle' && (failed || cells.every(c => c.model.executionCount !== null));
                }""", timeout=RENDER_MS)
            errors = page.evaluate(
                """() => window.jupyterapp.shell.currentWidget.content.widgets
                    .flatMap(c => c.model.type === 'code' ? c.model.outputs.toJSON() : [])
                    .filter(o => o.output_type === 'error').map(o => o.ename + ': ' + o.evalue)""")
            assert errors == [], f"a quick-start cell failed in JupyterLab: {errors}"
            explorer.scroll_into_view_if_needed()
            page.screenshot(path=str(shot))
        finally:
            browser.close()
    assert shot.stat().st_size > 10_000
    assert notebook.read_bytes() == stored, "JupyterLab wrote into the committed notebook"
    assert not (PROJECT_ROOT / "notebooks" / ".ipynb_checkpoints").exists()
    written = sorted(p.name for p in jupyterlab["out"].glob("*"))
    assert "files.csv" in written and "files.md" in written, json.dumps(written)
