"""Compile ``ksy/*.ksy`` into Python parsers with the official Kaitai Struct compiler.

The compiler is the npm package ``kaitai-struct-compiler`` (pinned in
``package-lock.json``), run by Node.js through ``animre/spec/ksc.js`` (:mod:`.bridge`) in debug mode:
every field records its ``_debug`` start/end and parsing is an explicit
``_read()``, so a failed parse keeps what it read.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import keyword
import linecache
import os
import re
import sys
import tempfile
import threading
import types
import weakref
from collections.abc import Mapping
from pathlib import Path

from ..base import yamlio
from ..base.errors import SpecError, ToolchainError
from .bridge import PROJECT_ROOT, compiler_request
from .guard import guard_module, guard_source
from .streams import place_module, place_source, run_source

__all__ = [
    "PROJECT_ROOT",
    "KSY_DIR",
    "PARSERS_DIR",
    "compile_all",
    "compile_spec",
    "load_parser",
    "load_files",
    "load_modules",
    "run_compiler",
    "spec_hash",
]

PACKAGE_DIR = Path(__file__).resolve().parent.parent  # animre/
KSY_DIR = PROJECT_ROOT / "ksy"
PARSERS_DIR = PACKAGE_DIR / "parsers"
_GENERATED_MARK = "# This is a generated file!"
_STAMP = "SPECS.json"  # sha256 of every spec the parsers were compiled from: catches any spec edit
_LOCK = threading.RLock()


def run_compiler(specs: dict[str, str], mains: list[str], dirs: list[Path], *, debug: bool = True) -> dict[str, dict]:
    """Run the compiler bridge once for several specs; returns {main: {"files"|"error": ...}}.

    ``debug=False`` compiles the ordinary way (no position tracking, parsing in the constructor).
    """
    out = compiler_request({"mains": mains, "specs": specs, "dirs": [str(d) for d in dirs], "debug": debug})
    if "toolchain" in out:
        raise ToolchainError(out["toolchain"] + "; run `make setup` to install it")
    for res in out["results"].values():
        for n, code in res.get("files", {}).items():
            if n.endswith(".py"):
                code = repair(code)
                # repeats bounded, streams placed, runs of numbers read at once
                res["files"][n] = run_source(place_source(guard_source(code))) if debug else code
    return out["results"]


#: The version of what animre does to the compiler's output (:func:`repair`, :func:`.guard.guard_source`,
#: :func:`.streams.place_source`, :func:`.streams.run_source`):
#: part of every compiled parser's cache key, so a change recompiles users' specs.
OUTPUT_VERSION = "5"
_KEYWORDS = "|".join(k for k in keyword.kwlist if k.islower())
_ENUM_MEMBER = re.compile(rf"^(\s+)({_KEYWORDS}) = (-?\d+)$", re.M)
_ENUM_REF = re.compile(rf"(\b[A-Z]\w*\.)({_KEYWORDS})\b")


def repair(code: str) -> str:
    """The compiler's Python made loadable where the compiler's Python target writes invalid code.

    An enum member named with a Python keyword (the gallery's ``wmf.ksy`` has
    ``not``, ``sudoers_ts.ksy`` has ``global``) becomes ``not_`` (the trailing
    underscore PEP 8 gives such names), in its enum and where it is used;
    a backslash in a spec's ``doc`` is escaped in the docstring (``regf.ksy``
    documents ``\\N``, which Python reads as a broken escape). A field named
    with a keyword (``class``) stays: :func:`load_modules` reports it.

    Examples
    --------
    >>> repair("        not = 6")
    '        not_ = 6'
    >>> repair("x = Spec.Op.not")
    'x = Spec.Op.not_'
    """
    code = _ENUM_MEMBER.sub(r"\1\2_ = \3", code)
    code = _ENUM_REF.sub(r"\1\2_", code)
    if "\\" not in code:
        return code
    out, in_doc = [], False
    for line in code.split("\n"):
        opens = line.lstrip().startswith('"""')
        if in_doc or opens:
            body = line.replace("\\", "\\\\")
            quotes = line.count('"""')
            in_doc = (in_doc and quotes == 0) or (not in_doc and opens and quotes == 1)
            line = body
        out.append(line)
    return "\n".join(out)


def _spec_id(text: str, fallback: str) -> str:
    try:
        doc = yamlio.load(text)
        return str(doc["meta"]["id"])
    except Exception:  # noqa: BLE001 - a broken spec is reported by the compiler itself
        return fallback


def compile_all(check: bool = False, ksy_dir: Path = KSY_DIR, out_dir: Path = PARSERS_DIR) -> list[str]:
    """Compile every ``ksy/*.ksy`` into ``animre/parsers/<id>.py``.

    Parameters
    ----------
    check : bool
        Do not write anything; return the parser files that differ from what
        the specs compile to (changed, missing or stale).

    Returns
    -------
    list of str
        With ``check=True`` the differing file names, otherwise the files written.

    Examples
    --------
    >>> compile_all(check=True)
    []
    """
    specs = {p.stem: p.read_text(encoding="utf-8") for p in sorted(Path(ksy_dir).glob("*.ksy"))}
    for name, text in specs.items():
        sid = _spec_id(text, name)
        if sid != name:
            raise SpecError(f"{name}.ksy", f"meta/id is {sid!r}; it must equal the file name {name!r}")
    results = run_compiler(specs, list(specs), [Path(ksy_dir)])
    files: dict[str, str] = {}
    for name, res in results.items():
        if "error" in res:
            raise SpecError(f"{name}.ksy", res["error"])
        files.update(res["files"])
    stamp = json.dumps(
        {f"{n}.ksy": hashlib.sha256(t.encode()).hexdigest() for n, t in specs.items()}, indent=1, sort_keys=True
    ) + "\n"
    files[_STAMP] = stamp
    existing = {
        p.name
        for p in Path(out_dir).glob("*.py")
        if p.read_text(encoding="utf-8", errors="replace").startswith(_GENERATED_MARK)
    } | ({_STAMP} if (Path(out_dir) / _STAMP).exists() else set())
    if check:
        differ = sorted(
            n for n, code in files.items()
            if not (Path(out_dir) / n).exists() or (Path(out_dir) / n).read_text(encoding="utf-8") != code
        )
        differ += sorted(existing - set(files))
        return differ
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    for n in sorted(existing - set(files)):
        (Path(out_dir) / n).unlink()
    for n, code in sorted(files.items()):
        p = Path(out_dir) / n
        if not p.exists() or p.read_text(encoding="utf-8") != code:
            p.write_text(code, encoding="utf-8")
    return sorted(files)


def load_modules(directory: Path, main: str, tag: str) -> types.ModuleType:
    """Import ``main`` (and the parsers it imports by bare name) from ``directory``.

    Generated parsers import each other as top-level modules (``import
    omf_common``). They are loaded with ``directory`` first on ``sys.path``
    and then removed from ``sys.modules`` again, so that shipped parsers and
    on-the-fly compiled ones never replace each other.
    """
    with _LOCK:
        names = {p.stem for p in Path(directory).glob("*.py")}
        saved = {n: sys.modules.pop(n) for n in list(names) if n in sys.modules}
        sys.path.insert(0, str(directory))
        try:
            importlib.invalidate_caches()
            mod = importlib.import_module(main)
        finally:
            sys.path.remove(str(directory))
            for n in names:
                m = sys.modules.pop(n, None)
                if m is not None:
                    m.__animre_tag__ = tag
                    guard_module(m)
                    place_module(m)
            sys.modules.update(saved)
    return mod


def load_files(files: Mapping[str, str], main: str, tag: str) -> types.ModuleType:
    """Import ``main`` from generated parser files (``{file name: code}``); nothing stays on disk.

    The files live in a temporary folder only while :func:`load_modules`
    imports them; their code stays known to :mod:`linecache` while the modules
    live, so tracebacks and :func:`inspect.getsource` still show it.

    Examples
    --------
    >>> import inspect
    >>> code = "def answer():\\n    return 42\\n"
    >>> mod = load_files({"tiny_load.py": code}, "tiny_load", "example")
    >>> inspect.getsource(mod) == code, Path(mod.__file__).exists()
    (True, False)
    """
    with tempfile.TemporaryDirectory(prefix="animre-load-") as tmp:
        names = []
        for n, code in files.items():
            p = Path(tmp) / n
            p.write_text(code, encoding="utf-8")
            if n.endswith(".py"):
                names.append(str(p))
                linecache.cache[str(p)] = (len(code), None, code.splitlines(True), str(p))  # no mtime: kept
        try:
            mod = load_modules(Path(tmp), main, tag)
        except BaseException:
            _forget(names)
            raise
    weakref.finalize(mod, _forget, names)
    return mod


def _forget(names: list[str]) -> None:
    for n in names:
        linecache.cache.pop(n, None)


_LOADED: dict[str, types.ModuleType] = {}


def load_parser(spec_id: str) -> types.ModuleType:
    """The shipped parser module compiled from ``ksy/<spec_id>.ksy``.

    Examples
    --------
    >>> load_parser("frm").Frm
    <class 'frm.Frm'>
    """
    with _LOCK:
        if spec_id not in _LOADED:
            if not (PARSERS_DIR / f"{spec_id}.py").exists():
                raise ToolchainError(f"no compiled parser for {spec_id!r}; run `make compile`")
            _LOADED[spec_id] = load_modules(PARSERS_DIR, spec_id, "shipped")
        return _LOADED[spec_id]


def spec_hash(spec_id: str) -> str:
    """sha256 of a shipped spec, its compiled parser and the parsers it imports (cache key part)."""
    h = hashlib.sha256()
    todo, seen = [spec_id], set()
    while todo:
        sid = todo.pop()
        if sid in seen:
            continue
        seen.add(sid)
        for p in (KSY_DIR / f"{sid}.ksy", PARSERS_DIR / f"{sid}.py"):
            if p.exists():
                data = p.read_bytes()
                h.update(data)
                if p.suffix == ".py":
                    for m in re.findall(rb"^import (\w+)$", data, re.M):
                        if (PARSERS_DIR / f"{m.decode()}.py").exists():
                            todo.append(m.decode())
    return h.hexdigest()


def compile_spec(text_or_path: str | os.PathLike, ksy_dir: Path = KSY_DIR) -> types.ModuleType:
    """Compile a spec (YAML text or a path) into a freshly imported parser module.

    Nothing under ``animre/parsers/`` is touched; imports of other specs are
    resolved from the spec's own folder, then from ``ksy/``.

    Raises
    ------
    SpecError
        The spec does not compile; the message is the compiler's own.

    Examples
    --------
    >>> mod = compile_spec("meta: {id: tiny, endian: le}\\nseq: [{id: a, type: u2}]")
    >>> t = mod.Tiny.from_bytes(b"\\x01\\x00"); t._read(); t.a
    1
    """
    dirs = [Path(ksy_dir)]
    if isinstance(text_or_path, os.PathLike) or (
        isinstance(text_or_path, str) and "\n" not in text_or_path and text_or_path.endswith(".ksy")
    ):
        path = Path(text_or_path)
        text = path.read_text(encoding="utf-8")
        dirs.insert(0, path.parent)
        fallback = path.stem
    else:
        text = str(text_or_path)
        fallback = "spec"
    main = _spec_id(text, fallback)
    res = run_compiler({main: text}, [main], dirs)[main]
    if "error" in res:
        raise SpecError(f"{main}.ksy", res["error"])
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    mod = load_files(res["files"], main, f"compiled:{digest}")
    mod.__animre_spec_text__ = text
    return mod
