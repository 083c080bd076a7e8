"""A spec as a file: its text, the specs it imports, its hash, and its compiled parser (cached).

Any ``.ksy`` becomes a format this way: the shipped ones in ``ksy/``, a
researcher's own, or one taken unmodified from the public Kaitai format
gallery. Imports resolve as the official compiler resolves them: a relative
import (``vlq_base128_le``, ``../common/riff``) beside the importing spec, an
absolute one (``/common/riff``) against each parent folder of the main spec
and the folders of ``$ANIMRE_KSY_PATH``; ``ksy/`` is searched last, so an
edited copy of a shipped spec still finds ``omf_common``.

A spec is compiled with the pinned compiler once: the parser is kept in the
cache folder under the hash of the spec, everything it imports and the
compiler's version, so a second open starts no compiler process.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import threading
import types
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from ruamel.yaml import YAML

from ..base import yamlio
from ..base.dirs import default_cache_dir
from ..base.errors import SpecError, UsageError
from .compiler import (
    KSY_DIR,
    OUTPUT_VERSION,
    PARSERS_DIR,
    PROJECT_ROOT,
    load_modules,
    load_parser,
    run_compiler,
    spec_hash,
)
from .imports import walk_imports

__all__ = ["SpecSource", "read_spec", "shipped_spec", "spec_files", "search_dirs", "spec_line", "compiled_dir",
           "env_specs"]

_LOCK = threading.RLock()
_MODULES: dict[str, types.ModuleType] = {}
COMPILER_LOCK = PROJECT_ROOT / "package-lock.json"


@dataclass(frozen=True)
class SpecSource:
    """One spec and everything it imports.

    Attributes
    ----------
    id : str
        ``meta.id`` (the format's id, its tables' prefix).
    path : Path or None
        The ``.ksy`` file (None for a spec given as text).
    text : str
        Its YAML text.
    imports : tuple of (id, path, text)
        Every spec it imports, directly or not, as the compiler resolves them.
    dirs : tuple of Path
        The folders imports are searched in, in order.
    shipped : bool
        One of the package's own specs (``ksy/``): its parser is the committed one.
    """

    id: str
    path: Path | None
    text: str
    imports: tuple[tuple[str, Path, str], ...] = ()
    dirs: tuple[Path, ...] = ()
    shipped: bool = False
    doc: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def hash(self) -> str:
        """sha256 of the spec, its imports and the compiler version (a shipped spec: also its parser)."""
        if self.shipped:
            return spec_hash(self.id)
        h = hashlib.sha256(self.text.encode())
        for sid, _, text in sorted(self.imports):
            h.update(f"\0{sid}\0".encode() + text.encode())
        if COMPILER_LOCK.exists():
            h.update(COMPILER_LOCK.read_bytes())
        h.update(OUTPUT_VERSION.encode())
        return h.hexdigest()

    @property
    def import_texts(self) -> dict[str, str]:
        """``{spec id: text}`` of every imported spec."""
        return {sid: text for sid, _, text in self.imports}

    @property
    def name(self) -> str:
        """What error messages call the spec: its path, else ``<id>.ksy``."""
        return str(self.path) if self.path is not None else f"{self.id}.ksy"

    def module(self) -> types.ModuleType:
        """The compiled parser module (compiled on first use, then taken from the cache)."""
        if self.shipped:
            return load_parser(self.id)
        key = self.hash
        with _LOCK:
            mod = _MODULES.get(key)
            if mod is None:
                mod = _MODULES[key] = _compiled(self)
            return mod


def env_specs() -> list[str]:
    """The paths of ``$ANIMRE_SPECS`` (a path list, like ``PATH``)."""
    return [p for p in os.environ.get("ANIMRE_SPECS", "").split(os.pathsep) if p.strip()]


def search_dirs(path: Path | None) -> tuple[Path, ...]:
    """Where a spec's imports are looked for: its folder and every parent, ``$ANIMRE_KSY_PATH``, ``ksy/``."""
    dirs: list[Path] = []
    if path is not None:
        p = Path(path).resolve().parent
        dirs += [p, *p.parents]
    dirs += [Path(d) for d in os.environ.get("ANIMRE_KSY_PATH", "").split(os.pathsep) if d.strip()]
    dirs.append(KSY_DIR)
    return tuple(dict.fromkeys(dirs))


def spec_files(items) -> list[Path]:
    """The ``.ksy`` files named by ``items`` (files, or folders searched recursively), in order, once each.

    Examples
    --------
    >>> [p.name for p in spec_files(["ksy/frm.ksy", "ksy/frm.ksy"])]
    ['frm.ksy']
    """
    if isinstance(items, (str, os.PathLike)):
        items = [items]
    out: list[Path] = []
    for it in items:
        p = Path(it).expanduser()
        if p.is_dir():
            out += sorted(q for q in p.rglob("*.ksy") if q.is_file())
        elif p.is_file():
            out.append(p)
        else:
            raise UsageError(f"spec {p}: no such file or folder")
    return list(dict.fromkeys(q.resolve() for q in out))


def _load_yaml(text: str, name: str) -> dict:
    try:
        doc = yamlio.load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise SpecError(name, f"YAML error{where}: {e}") from None
    if not isinstance(doc, dict):
        raise SpecError(name, "not a Kaitai spec (the YAML is not a mapping)")
    return doc


def _spec_id(doc: dict, name: str) -> str:
    sid = (doc.get("meta") or {}).get("id")
    if not isinstance(sid, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", sid):
        raise SpecError(name, f"meta/id must be a lower-case identifier, not {sid!r}")
    return sid


def _find_import(name: str, importer: Path | None, dirs: tuple[Path, ...]) -> Path | None:
    rel = not name.startswith("/")
    n = name.lstrip("/")
    n = n if n.endswith(".ksy") else n + ".ksy"
    cands = ([importer.parent / n] if rel and importer is not None else []) + [d / n for d in dirs]
    for c in cands:
        if c.is_file():
            return c.resolve()
    return None


def _imports(doc: dict, path: Path | None, dirs: tuple[Path, ...], name: str) -> tuple:
    texts: dict[Path | None, str] = {}

    def load(entry: str, importer: Path | None) -> tuple[Path, dict]:
        q = _find_import(entry, importer, dirs)
        if q is None:
            raise SpecError(name if importer == path else str(importer),
                            f"imported spec not found: {entry} (looked beside the spec, in "
                            f"{', '.join(str(x) for x in dirs[:4])}{' ...' if len(dirs) > 4 else ''})")
        texts[q] = q.read_text(encoding="utf-8")
        return q, _load_yaml(texts[q], str(q))

    out: dict[str, tuple[str, Path, str]] = {}
    for q, sub in walk_imports(path, doc, load):
        if q != path:
            sid = _spec_id(sub, str(q))
            out.setdefault(sid, (sid, q, texts[q]))
    return tuple(out.values())


def read_spec(source: str | os.PathLike, *, name: str | None = None) -> SpecSource:
    """A spec from a ``.ksy`` path (or YAML text), with every import resolved.

    Raises
    ------
    SpecError
        The YAML does not read, ``meta/id`` is missing, or an import is not found.

    Examples
    --------
    >>> s = read_spec("ksy/af.ksy")
    >>> s.id, [i[0] for i in s.imports]
    ('af', ['omf_common'])
    """
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source
                                          and source.endswith(".ksy")):
        path: Path | None = Path(source).resolve()
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise UsageError(f"spec {source}: {e.strerror or e}") from None
    else:
        path, text = None, str(source)
    label = name or (str(path) if path is not None else "spec")
    doc = _load_yaml(text, label)
    sid = _spec_id(doc, label)
    dirs = search_dirs(path)
    shipped = path is not None and path.parent == KSY_DIR.resolve() and path.stem == sid and \
        (PARSERS_DIR / f"{sid}.py").exists() and text == (KSY_DIR / f"{sid}.ksy").read_text(encoding="utf-8")
    return SpecSource(sid, path, text, _imports(doc, path, dirs, label), dirs, shipped, doc)


def shipped_spec(spec_id: str) -> SpecSource:
    """The package's own spec ``ksy/<spec_id>.ksy``."""
    return read_spec(KSY_DIR / f"{spec_id}.ksy")


def spec_line(text: str, where: str) -> int | None:
    """The line (1-based) of a spec's YAML node named by a compiler path such as ``/seq/2/type``.

    Examples
    --------
    >>> spec_line("meta:\\n  id: x\\nseq:\\n  - id: a\\n    type: u2\\n  - id: b\\n    type: q\\n", "/seq/1/type")
    7
    """
    try:
        node = YAML(typ="rt").load(text)
    except Exception:  # noqa: BLE001 - the YAML error is reported by the caller
        return None
    line = None
    for part in [p for p in where.strip("/").split("/") if p]:
        try:
            key = int(part) if isinstance(node, list) else part
            lc = getattr(node, "lc", None)
            if lc is not None:
                pos = lc.item(key) if isinstance(node, list) else lc.key(key)
                line = pos[0] + 1
            node = node[key]
        except (KeyError, IndexError, ValueError, TypeError):
            break
    return line


def _spec_error(src: SpecSource, message: str) -> SpecError:
    """The compiler's message, with the spec's file and the line of the YAML node it names."""
    m = re.search(r"(/(?:[\w\-]+/?)+):", message)
    line = spec_line(src.text, m.group(1)) if m else None
    where = src.name + (f":{line}" if line else "")
    return SpecError(where, message.strip())


def compiled_dir(src: SpecSource) -> Path:
    """The cache folder of a spec's compiled parser (``$ANIMRE_CACHE_DIR/parsers/<hash>``)."""
    return default_cache_dir() / "parsers" / src.hash[:24]


def _compiled(src: SpecSource) -> types.ModuleType:
    """Load the cached parser of ``src``, compiling it first when the cache has none."""
    d = compiled_dir(src)
    done = d / "COMPILED.json"
    if not done.exists():
        res = run_compiler({src.id: src.text, **src.import_texts}, [src.id], list(src.dirs))[src.id]
        if "error" in res:
            raise _spec_error(src, res["error"])
        d.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=d.parent))
        for n, code in res["files"].items():
            (tmp / n).write_text(code, encoding="utf-8")
        (tmp / "COMPILED.json").write_text(json.dumps({"id": src.id, "spec": src.name}), encoding="utf-8")
        try:
            tmp.rename(d)
        except OSError:  # another process compiled it first: theirs is the same
            shutil.rmtree(tmp, ignore_errors=True)
    try:
        mod = load_modules(d, src.id, f"spec:{src.hash[:12]}")
    except SyntaxError as e:  # the compiler's Python target writes some specs as invalid Python
        raise SpecError(src.name, f"the Kaitai compiler's Python for this spec does not load: {e.msg} in "
                        f"{Path(e.filename or '?').name} line {e.lineno}: {(e.text or '').strip()!r}; a field "
                        "named with a Python keyword (class, global, not ...) is a limitation of the "
                        "compiler's Python target: rename the field in your copy of the spec") from None
    mod.__animre_spec_text__ = src.text
    mod.__animre_spec_source__ = src
    return mod
