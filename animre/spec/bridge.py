"""The Kaitai Struct compiler, run by Node.js through ``ksc.js`` and kept running between compiles.

The compiler is the npm package ``kaitai-struct-compiler`` (pinned in
``package-lock.json``). Loading it is most of what compiling a small spec
costs (0.4 s of a 0.5 s compile on a 2-core machine): a research loop that
compiles every edit (suggestions applied and bisected, an inferred spec
checked on the file left out) would pay it each time. So one Node.js
process per Python process serves the requests, one JSON line each; it is
started again when the toolchain found changes (``ANIMRE_NODE``,
``ANIMRE_NODE_MODULES``), in a forked child, or after it died, and it ends
when its stdin closes (this process exiting).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from ..base.errors import ToolchainError

__all__ = ["PROJECT_ROOT", "TIMEOUT", "compiler_request"]

PROJECT_ROOT = Path(__file__).resolve().parents[2]
_SCRIPT = Path(__file__).resolve().parent / "ksc.js"
TIMEOUT = 300  # seconds one request may take before the compiler is stopped (pathological specs)
_LOCK = threading.Lock()
_SERVER: list = [None]


def _node_modules() -> Path:
    env = os.environ.get("ANIMRE_NODE_MODULES")
    candidates = [Path(env)] if env else []
    candidates += [PROJECT_ROOT / "node_modules", Path.cwd() / "node_modules"]
    for c in candidates:
        if (c / "kaitai-struct-compiler").is_dir() and (c / "js-yaml").is_dir():
            return c
    raise ToolchainError(
        "the Kaitai Struct compiler (npm kaitai-struct-compiler 0.11.0) is not installed "
        f"(looked in {', '.join(str(c) for c in candidates)}); run `make setup` "
        "(or `make node-env`) in the animre checkout to install it"
    )


def _node() -> str:
    node = shutil.which(os.environ.get("ANIMRE_NODE", "node"))
    if not node:
        raise ToolchainError(
            "Node.js (`node`) is not on PATH; it runs the Kaitai Struct compiler. Install Node.js "
            ">= 18 (Debian: apt-get install nodejs npm), then run `make setup`"
        )
    return node


class _Server:
    """One running ``node ksc.js --serve``: a request is a line of JSON, its answer the next line out."""

    def __init__(self, key: tuple[str, str]):
        self.key, self.pid, self.timed_out = key, os.getpid(), False
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([key[0], str(_SCRIPT), "--serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.log, env=dict(os.environ, NODE_PATH=key[1]),
                                     text=True, encoding="utf-8")

    def _kill(self) -> None:
        self.timed_out = True
        self.proc.kill()

    def ask(self, line: str) -> str:
        timer = threading.Timer(TIMEOUT, self._kill)
        timer.start()
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
            answer = self.proc.stdout.readline()
        except (BrokenPipeError, OSError):
            answer = ""
        finally:
            timer.cancel()
        if not answer:
            self.close()
        return answer

    def stderr(self) -> str:
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace").strip()[-2000:]

    def close(self) -> None:
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _stop() -> None:
    s = _SERVER[0]
    if s is not None and s.pid == os.getpid():
        s.close()


atexit.register(_stop)


def _server(key: tuple[str, str]) -> _Server:
    s = _SERVER[0]
    if s is None or s.key != key or s.pid != os.getpid() or s.proc.poll() is not None:
        if s is not None and s.pid == os.getpid():
            s.close()
        s = _SERVER[0] = _Server(key)
    return s


def compiler_request(request: dict) -> dict:
    """Send one request to the compiler bridge (``ksc.js``); its parsed answer.

    Raises :class:`~animre.base.errors.ToolchainError` when Node.js or the
    compiler is missing, a request takes longer than :data:`TIMEOUT`, or the
    bridge fails twice in a row (its last words in the message).
    """
    key = (_node(), str(_node_modules()))
    line = json.dumps(request)
    with _LOCK:
        for _attempt in range(2):  # a bridge that died between requests is started again once
            s = _server(key)
            answer = s.ask(line)
            if answer:
                return json.loads(answer)
            _SERVER[0] = None
            if s.timed_out:
                raise ToolchainError(f"the Kaitai compiler did not finish in {TIMEOUT} s")
    raise ToolchainError(f"the Kaitai compiler bridge failed (exit {s.proc.returncode}): {s.stderr()}; "
                         "run `make setup` to (re)install the toolchain")
