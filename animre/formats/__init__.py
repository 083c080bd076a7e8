"""Formats: every spec is one, with an optional plugin module for what a spec cannot say.

A format is its spec (``ksy/<id>.ksy``, a user's ``.ksy`` given with
``specs=`` / ``--spec`` / ``$ANIMRE_SPECS``, or a spec from the public Kaitai
format gallery) plus, optionally, one plugin: a module in this package (the
shipped formats) or a ``<id>.py`` file beside a user's ``<id>.ksy``, defining
``FORMAT = Format(...)`` (or ``FORMATS``) with detection refinements, derived
columns, claims that need Python, decoders and a picture. A spec's own claims
(``-animre-claims``) join the plugin's.

Detection (:func:`detect`) asks the spec first: a file whose bytes contradict
the spec's magic or fixed constants is never given to it. Then the plugin's
``detect`` (if any), else the magic's strength, else ``meta.file-extension``;
a spec with neither is tried by a bounded trial parse (:func:`needs_trial`).
"""

from __future__ import annotations

import importlib.util
import sys
import types
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from ..base.errors import SpecError, UsageError
from ..base.plugins import discover
from ..spec.compiler import KSY_DIR
from ..spec.model import load_spec
from ..spec.signature import Signature, signature
from ..spec.source import SpecSource, env_specs, read_spec, spec_files
from ._rowref import NotInSpec
from .base import Claim, Derived, Format, derived, expr_claim

__all__ = ["Claim", "Derived", "Format", "derived", "all_formats", "spec_enums", "get_format", "detect_format",
           "registry", "Detection", "detect", "signature_of", "MIN_SCORE", "NotInSpec"]

MIN_SCORE = 0.3  #: a format claims a file from this confidence on
TRIAL_SCORE = 0.2  #: a spec with no magic and no matching extension: only a trial parse can tell
_SHIPPED: dict[str, Format] | None = None
_SIGS: dict[tuple, Signature] = {}  # (spec id, spec text) -> its signature
_SIG_OF: dict[int, tuple] = {}  # id of a spec object -> (that object, its signature): detection per file


def _with_spec(fmt: Format, src: SpecSource, plugin: str) -> Format:
    meta = src.doc.get("meta") or {}
    ext = meta.get("file-extension") or []
    ext = (ext,) if isinstance(ext, str) else tuple(ext)
    claims = tuple(fmt.claims) + spec_claims(src)
    return replace(fmt, title=fmt.title or str(meta.get("title") or src.id),
                   extensions=fmt.extensions or tuple(f".{str(e).lower().lstrip('.')}" for e in ext),
                   claims=claims, source=src, plugin=plugin)


def spec_claims(src: SpecSource) -> tuple[Claim, ...]:
    """The claims a spec carries (``-animre-claims``: a list of ``{text, expr, table, source}``).

    ``table`` is a table name (``frm_sequences``) or the short name after the
    spec id (``sequences``); default the root table. Optional: ``where`` (an
    expression choosing the rows tested), ``expected`` (what a
    counterexample says was expected; default the expression) and ``detail``
    (a note beside each counterexample; ``{range}`` and ``{values}`` in it
    say what the corpus holds: :func:`animre.research.claims`).
    """
    doc = src.doc
    items = doc.get("-animre-claims") or (doc.get("meta") or {}).get("-animre-claims") or []
    out = []
    for k, it in enumerate(items):
        if not isinstance(it, Mapping) or "expr" not in it or "text" not in it:
            raise SpecError(src.name, f"-animre-claims[{k}] needs text and expr")
        table = str(it.get("table") or src.id)
        if table != src.id and not table.startswith(src.id + "_"):
            table = f"{src.id}_{table}"
        try:
            out.append(expr_claim(str(it["text"]), str(it.get("source") or "the spec"), table, str(it["expr"]),
                                  where=str(it["where"]) if it.get("where") else None, format=src.id,
                                  expected=None if it.get("expected") is None else str(it["expected"]),
                                  detail=str(it.get("detail") or ""), enums=spec_enums(src)))
        except UsageError as e:
            raise SpecError(src.name, f"-animre-claims[{k}]: {e}") from None
    return tuple(out)


def spec_enums(src: SpecSource | None) -> dict[str, dict[str, int]]:
    """Every enum of a spec and of the specs it imports (the spec model's): id -> {member: value}."""
    return {} if src is None else load_spec(src.text, imports=src.import_texts).enums


def all_formats() -> dict[str, Format]:
    """The shipped formats by id (each with its spec), e.g. ``{"frm": Format(...), ...}``."""
    global _SHIPPED
    if _SHIPPED is None:
        reg = discover(__path__, __name__, lambda mod: getattr(mod, "FORMATS", [getattr(mod, "FORMAT", None)]))
        out = {}
        for name, fmt in reg.items():
            out[name] = _with_spec(fmt, read_spec(KSY_DIR / f"{name}.ksy"), fmt.plugin or _module_of(fmt))
        for p in sorted(KSY_DIR.glob("*.ksy")):  # a shipped spec without a plugin is a format all the same
            if p.stem not in out:
                src = read_spec(p)
                if src.doc.get("seq") or src.doc.get("instances"):
                    out[src.id] = _with_spec(Format(src.id), src, "")
        _SHIPPED = out
    return _SHIPPED


def _module_of(fmt: Format) -> str:
    fn = fmt.detect or fmt.locate
    return getattr(fn, "__module__", "") or ""


def get_format(name: str) -> Format:
    """The shipped format called ``name`` (``frm``, ``af``, ``bk``, ``mot``, ``pas4``, ``flc`` ...)."""
    try:
        return all_formats()[name]
    except KeyError:
        raise KeyError(f"unknown format {name!r}; known: {', '.join(all_formats())}") from None


def _user_plugin(spec_path: Path, sid: str) -> Format | None:
    """The plugin beside a user's spec: ``<id>.py`` (or ``<stem>.py``) defining ``FORMAT``/``FORMATS``."""
    for cand in dict.fromkeys([spec_path.with_name(f"{sid}.py"), spec_path.with_suffix(".py")]):
        if not cand.is_file():
            continue
        modname = f"animre_plugin_{sid}"
        spec = importlib.util.spec_from_file_location(modname, cand)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[modname] = mod
        try:
            spec.loader.exec_module(mod)
        except Exception as e:  # noqa: BLE001 - a broken plugin is the user's error, named with its file
            raise SpecError(str(cand), f"the plugin does not load: {type(e).__name__}: {e}") from e
        for fmt in getattr(mod, "FORMATS", [getattr(mod, "FORMAT", None)]):
            if fmt is not None and fmt.name == sid:
                return replace(fmt, plugin=str(cand))
        raise SpecError(str(cand), f"the plugin defines no FORMAT named {sid!r}")
    return None


def registry(specs: Iterable[str | Path] | str | Path | None = None, formats: Iterable[str] | None = None,
             parsers: Mapping[str, types.ModuleType] | None = None, *, env: bool = True) -> dict[str, Format]:
    """The formats an open reads with: the shipped ones, ``specs`` (and ``$ANIMRE_SPECS``), ``parsers``.

    Parameters
    ----------
    specs : paths
        ``.ksy`` files or folders of them (searched recursively). A spec whose
        id is a shipped format's replaces that spec and keeps its plugin.
    formats : ids, optional
        Only these formats take part in detection.
    parsers : dict id -> module, optional
        Compiled parser modules (:func:`animre.spec.compile_spec`) replacing a
        format's parser; an id no format has becomes a format of its own.

    Examples
    --------
    >>> sorted(registry(formats=["frm", "flc"]))
    ['flc', 'frm']
    """
    reg = dict(all_formats())
    items: list = []
    if specs is not None:
        items += [specs] if isinstance(specs, (str, Path)) else list(specs)
    if env:
        items += env_specs()
    named = {Path(it).expanduser().resolve() for it in items if Path(it).expanduser().is_file()}
    for path in spec_files(items) if items else []:
        src = read_spec(path)
        if not (src.doc.get("seq") or src.doc.get("instances")):
            continue  # a spec only others import (common types)
        if src.doc.get("params"):  # a type another spec reads with arguments (the gallery's common/bcd.ksy)
            if path in named:
                names = ", ".join(str(p.get("id")) for p in src.doc["params"] if isinstance(p, Mapping))
                warnings.warn(f"animre: {src.name} takes parameters ({names}): only a spec that imports it can "
                              "read with it; it is not a format of its own", stacklevel=2)
            continue
        plugin = _user_plugin(path, src.id)
        base = plugin or (replace(reg[src.id], claims=_plugin_claims(reg[src.id])) if src.id in reg
                          else Format(src.id))
        reg[src.id] = _with_spec(base, src, base.plugin)
    for sid, mod in (parsers or {}).items():
        text = getattr(mod, "__animre_spec_text__", None)
        if sid in reg:  # an edited spec: the plugin stays, the claims are the edited spec's
            fmt = reg[sid]
            if text is not None and fmt.source is not None and text != fmt.source.text:
                edited = read_spec(text, name=f"{sid}.ksy")
                fmt = replace(fmt, claims=_plugin_claims(fmt) + spec_claims(edited))
            reg[sid] = replace(fmt, parser=mod)
            continue
        if text is None:
            raise UsageError(f"parser {sid!r} has no spec text (compile it with animre.spec.compile_spec)")
        reg[sid] = replace(_with_spec(Format(sid), read_spec(text, name=f"{sid}.ksy"), ""), parser=mod)
    if formats is not None:
        wanted = list(dict.fromkeys(formats))
        unknown = [f for f in wanted if f not in reg]
        if unknown:
            raise UsageError(f"unknown format {', '.join(unknown)}; known: {', '.join(reg)}")
        reg = {k: reg[k] for k in wanted}
    return reg


def _plugin_claims(fmt: Format) -> tuple[Claim, ...]:
    """A format's claims without those of its (replaced) spec."""
    own = {c.text for c in spec_claims(fmt.source)} if fmt.source is not None else set()
    return tuple(c for c in fmt.claims if c.text not in own)


def signature_of(fmt: Format) -> Signature | None:
    """The detection signature of a format's spec (None without a spec)."""
    src = fmt.source
    if src is None:
        return None
    got = _SIG_OF.get(id(src))  # the spec object itself is kept with it: its id is never another's
    if got is not None and got[0] is src:
        return got[1]
    key = (src.id, src.text, tuple(t for *_, t in src.imports))  # never id(src) alone: a spec read later may
    # get the id of one garbage-collected
    sig = _SIGS.get(key)
    if sig is None:
        sig = _SIGS[key] = signature(src.doc)
    if len(_SIG_OF) > 512:
        _SIG_OF.clear()
    _SIG_OF[id(src)] = (src, sig)
    return sig


@dataclass(frozen=True)
class Detection:
    """How one format judged one file: ``score`` 0..1 and ``by`` (magic, plugin, extension, trial parse)."""

    format: Format
    score: float
    by: str

    @property
    def needs_trial(self) -> bool:
        """Only a trial parse can confirm it (no magic, no matching extension, or a weak magic)."""
        return self.by in ("trial parse", "weak magic")


def detect(head: bytes, size: int, name: str, reg: Mapping[str, Format] | None = None) -> list[Detection]:
    """Every format's judgement of a file, best first (formats that cannot read it are left out).

    Examples
    --------
    >>> d = detect(open("data/samples/frm/GOBLNFRM.BIN", "rb").read(), 821, "GOBLNFRM.BIN")
    >>> d[0].format.name, d[0].by
    ('frm', 'plugin')
    """
    out = []
    for f in (reg or all_formats()).values():
        sig = signature_of(f)
        gate = sig.match(head, size) if sig is not None and f.locate is None else None
        if gate is False:
            continue  # the file lacks the spec's magic: never this format
        if f.detect is not None:
            try:
                s = float(f.detect(head, size, name))
            except Exception:  # noqa: BLE001 - a detector must never abort a scan
                s = 0.0
            if s > 0:
                out.append(Detection(f, s, "magic + plugin" if gate else "plugin"))
            continue
        if gate:
            if sig.strength >= 2:
                out.append(Detection(f, 0.9, "magic"))
            elif sig.extension_matches(name):
                out.append(Detection(f, 0.7, "weak magic + extension"))
            else:
                out.append(Detection(f, 0.6, "weak magic"))
        elif sig is not None and sig.extension_matches(name):
            out.append(Detection(f, 0.5, "extension"))
        elif f.source is not None and not f.source.shipped and not (sig is not None and sig.extensions):
            out.append(Detection(f, TRIAL_SCORE, "trial parse"))  # no magic, no extension: only a parse can tell
    out.sort(key=lambda d: -d.score)
    return out


def detect_format(head: bytes, size: int, name: str,
                  reg: Mapping[str, Format] | None = None) -> tuple[Format | None, float]:
    """Best format for a file from its first bytes, size and name (content first), without trial parses.

    Examples
    --------
    >>> detect_format(open("data/samples/frm/GOBLNFRM.BIN", "rb").read(), 821, "x")[0].name
    'frm'
    """
    got = [d for d in detect(head, size, name, reg) if d.score >= MIN_SCORE]
    return (got[0].format, got[0].score) if got else (None, 0.0)
