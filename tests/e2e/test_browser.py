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
import re
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

from animre.spec.compiler import PROJECT_ROOT

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
    # every cell rendered (no windowing): a screenshot scrolled to a widget shows the cells around it
    tracker = home / "settings" / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings"
    tracker.parent.mkdir(parents=True)
    tracker.write_text(json.dumps({"windowingMode": "none"}))
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
            # a container in the file list shows its members; a click on one opens it, bytes highlighted
            pick = r"""(args) => {
                const [nth, text] = args;
                const sel = [...document.querySelectorAll('.animre-explorer select')][nth];
                const opt = sel && [...sel.options].find(o => o.textContent.replace(/\s+/g, ' ').includes(text));
                if (!opt) return false;
                sel.value = opt.value;
                sel.dispatchEvent(new Event('change', {bubbles: true}));
                return true;
            }"""
            assert page.evaluate(pick, [0, "CIV3UNITS.ZIP [container"])
            members = page.locator(".animre-explorer select").nth(1)
            page.wait_for_function("""() => {
                const s = [...document.querySelectorAll('.animre-explorer select')][1];
                return s && s.offsetParent !== null && s.options.length > 0
                    && !document.querySelector('.animre-explorer .animre-hex');
            }""", timeout=RENDER_MS)
            assert members.evaluate("s => [...s.options].some(o => o.textContent.includes('Default.flc'))")
            assert page.evaluate(pick, [1, "Default.flc"])
            page.wait_for_function("""() => {
                const f = document.querySelector('.animre-explorer select');
                return f.options[f.selectedIndex].textContent.startsWith('zip/CIV3UNITS.ZIP/')
                    && !!document.querySelector('.animre-explorer .animre-hex .hl');
            }""", timeout=RENDER_MS)
            assert page.locator(".animre-explorer .animre-error").count() == 0
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


# ----------------------------------------------------------------------------- every notebook, the report

#: The widget each notebook shows that a screenshot should catch (the first one that exists).
FOCUS = {"01_omf_af": ".animre-player", "03_gnt4_mot": ".animre-player", "05_civ3_flc": ".animre-player",
         "02_homm2_frm": ".jp-OutputArea-output img", "04_retro_pas4": ".jp-OutputArea-output",
         "06_spec_experiment": ".jp-OutputArea-output"}


def _open_and_run(page, url: str, name: str) -> list[str]:
    """Open a notebook in JupyterLab, run every cell, wait until all ran; the error outputs."""
    page.goto(url, wait_until="domcontentloaded", timeout=RENDER_MS)
    page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=RENDER_MS)
    ready = """(name) => {
        const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
        const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
        return !!k && k.status === 'idle' && w.context.path.endsWith(name + '.ipynb');
    }"""
    page.wait_for_function(ready, arg=name, timeout=RENDER_MS)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(
        """(name) => {
            const w = window.jupyterapp.shell.currentWidget;
            if (!w.context.path.endsWith(name + '.ipynb')) return false;
            const cells = w.content.widgets.filter(c => c.model.type === 'code');
            const k = w.sessionContext.session.kernel;
            const failed = cells.some(c => c.model.outputs.toJSON().some(o => o.output_type === 'error'));
            return k.status === 'idle' && (failed || cells.every(c => c.model.executionCount !== null));
        }""", arg=name, timeout=RENDER_MS)
    return page.evaluate(
        """() => window.jupyterapp.shell.currentWidget.content.widgets
            .flatMap(c => c.model.type === 'code' ? c.model.outputs.toJSON() : [])
            .filter(o => o.output_type === 'error').map(o => o.ename + ': ' + o.evalue)""")


def test_every_notebook_runs_in_jupyterlab_with_its_players(jupyterlab):
    """Notebooks 01-06 (00 has its own test above) run in a real JupyterLab; one screenshot each."""
    from playwright.sync_api import sync_playwright

    names = [n for n in FOCUS]
    stored = {n: (PROJECT_ROOT / "notebooks" / f"{n}.ipynb").read_bytes() for n in names}
    ARTIFACTS.mkdir(exist_ok=True)
    failures = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
        try:
            for name in sorted(names):
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                page = context.new_page()
                try:
                    # its own workspace: JupyterLab does not reopen the previous notebook beside it
                    errors = _open_and_run(page, f"{jupyterlab['url']}/lab/workspaces/nb{name[:2]}/tree/"
                                                 f"{name}.ipynb?reset&token={jupyterlab['token']}", name)
                    if errors:
                        failures[name] = errors
                    focus = page.locator(FOCUS[name]).first
                    if FOCUS[name] == ".animre-player":
                        # the player rendered: play button, frame slider and a picture with pixels
                        focus.wait_for(state="visible", timeout=RENDER_MS)
                        assert page.locator(".animre-player .widget-play, .animre-player .jupyter-widgets.widget-play"
                                            ).count() + page.locator(".animre-player button").count() >= 1, name
                        img = page.locator(".animre-player img").first
                        img.wait_for(state="visible", timeout=RENDER_MS)
                        size = img.evaluate("i => [i.naturalWidth, i.naturalHeight, i.clientWidth, i.clientHeight]")
                        assert size[0] > 0 and size[:2] == size[2:], (name, size)  # shown at native size
                        focus.screenshot(path=str(ARTIFACTS / f"{name}-player.png"))
                    if focus.count():
                        focus.scroll_into_view_if_needed()
                    page.wait_for_timeout(1500)  # let the scrolled-to cells paint
                    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
                    page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
                finally:
                    context.close()
        finally:
            browser.close()
    assert failures == {}, f"cells failed in JupyterLab: {failures}"
    for name in names:
        assert (ARTIFACTS / f"{name}.png").stat().st_size > 10_000, name
        assert (PROJECT_ROOT / "notebooks" / f"{name}.ipynb").read_bytes() == stored[name], \
            f"JupyterLab wrote into the committed notebook {name}"


def test_report_opens_in_the_browser_without_errors(realdata, tmp_path):
    """`animre report` on the real settler files: one HTML file that Chromium shows with no console error
    and no request leaving the file."""
    from playwright.sync_api import sync_playwright

    report = tmp_path / "report.html"
    r = subprocess.run([sys.executable, "-m", "animre", "report", str(realdata / "flic" / "civ3" / "settler"),
                        "-o", str(report), "-q", "--no-cache"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    ARTIFACTS.mkdir(exist_ok=True)
    console, requests = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.on("console", lambda m: console.append(f"{m.type}: {m.text}") if m.type in ("error", "warning")
                    else None)
            page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
            page.on("request", lambda q: requests.append(q.url))
            page.goto(report.as_uri(), wait_until="load", timeout=RENDER_MS)
            # every picture decoded (a broken data URI has naturalWidth 0)
            broken = page.evaluate("() => [...document.images].filter(i => !i.complete || i.naturalWidth === 0)"
                                   ".map(i => i.alt)")
            n_images = page.evaluate("() => document.images.length")
            sections = page.evaluate("() => [...document.querySelectorAll('section')].map(s => s.id)")
            page.screenshot(path=str(ARTIFACTS / "report.png"))
            page.locator("#pictures").scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "report-pictures.png"))
        finally:
            browser.close()
    assert console == []
    assert broken == [] and n_images >= 12  # each of the six files: its contact sheet and its animation playing
    assert sections == ["files", "errors", "coverage", "profiles", "claims", "relations", "pictures"]
    assert [u for u in requests if not u.startswith(("file:", "data:"))] == []


def test_homm2_report_in_the_browser(samples_dir, tmp_path, homm2_folder):
    """`animre report` on a HoMM2 folder (the samples' frm, icn and agg folders and a planted FRM whose idle
    count, byte 117, is 9): the page Chromium shows has the failing claim's counterexample with file and
    offset, pictures of its ICN sprites, no 64-character hash and a status for every file."""
    from playwright.sync_api import sync_playwright

    folder = homm2_folder
    report = tmp_path / "report.html"
    r = subprocess.run([sys.executable, "-m", "animre", "report", str(folder), "-o", str(report), "-q",
                        "--no-cache"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    n_files = sum(1 for p in folder.rglob("*") if p.is_file())
    ARTIFACTS.mkdir(exist_ok=True)
    console = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.on("console", lambda m: console.append(f"{m.type}: {m.text}") if m.type == "error" else None)
            page.goto(report.as_uri(), wait_until="load", timeout=RENDER_MS)
            counter = page.evaluate("""() => {
                const h = [...document.querySelectorAll('h3.claim')]
                    .find(e => e.textContent.startsWith('The idle animation count is at most 5.'));
                let t = h && h.nextElementSibling;
                while (t && t.tagName !== 'TABLE') t = t.nextElementSibling;
                return t ? [...t.querySelectorAll('tbody tr')].map(r => [...r.cells].map(c => c.innerText)) : null;
            }""")
            icn = page.evaluate("""() => [...document.querySelectorAll('#pictures-icn img')]
                .filter(i => i.complete && i.naturalWidth > 0).map(i => i.alt)""")
            text = page.evaluate("() => document.body.innerText")
            statuses = page.evaluate("""() => {
                const t = [...document.querySelectorAll('#files table')][1];
                const col = [...t.querySelectorAll('thead th')].map(h => h.innerText).indexOf('status');
                return [...t.querySelectorAll('tbody tr')].map(r => r.cells[col].innerText);
            }""")
            page.locator("#pictures-icn").scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "report-homm2-icn.png"))
        finally:
            browser.close()
    assert console == []
    assert counter is not None and ["PLANTFRM.BIN", "117 (0x75)", "<= 5", "9", ""] in counter
    assert len(icn) >= 5 and any("GOBLIN.ICN: sprites" in a for a in icn)
    assert not re.search(r"\b[0-9a-f]{64}\b", text)
    # every file on disk and every AGG member has a status (the folder has no failed or skipped file)
    assert len(statuses) >= n_files and set(statuses) <= {"parsed", "failed", "skipped", "container"}
    assert statuses.count("parsed") == len(statuses)
