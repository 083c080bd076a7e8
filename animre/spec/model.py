"""The spec model: every type of a spec (and of the specs it imports) with its fields, as the kit reads them.

One model for every caller: the table plan (:mod:`animre.tables.plan`), the
fields table's types, suggestions and patches read a spec through
:func:`load_spec`. A field knows its kind (``seq``, ``pos`` or ``value``
instance), its ksy type as written, the user types it refers to (several
for a switch), whether it repeats, its enum, its ``doc``, its ``-animre-*``
options and whether it is a magic constant (``contents`` / ``valid``).
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..base import yamlio
from ..base.errors import SpecError
from ..base.ktypes import PRIMITIVE
from .compiler import KSY_DIR
from .imports import import_name, walk_imports
from .numbers import spec_int

__all__ = ["FieldDef", "TypeDef", "SpecModel", "PRIMITIVE", "load_spec", "load_model", "strip_params"]



# ------------------------------------------------------------------ the spec model


@dataclass(frozen=True)
class FieldDef:
    """One field of a spec type (a ``seq`` attribute or an instance)."""

    id: str
    kind: str  # "seq", "pos" (positional instance) or "value" (computed instance)
    type: str  # ksy type as written (u2, s4le, str, bytes, a user type, "switch", "value")
    users: tuple  # resolved user type keys (several for switch-on)
    repeat: bool
    repeat_n: int | None
    enum: str | None
    doc: str
    opts: dict = field(hash=False, compare=False, default_factory=dict)
    magic: bool = field(default=False, compare=False)  # ``contents`` or a ``valid`` constant (or set of them)
    value_expr: str | None = field(default=None, compare=False)  # a value instance's expression

    @property
    def is_user(self) -> bool:
        return bool(self.users)


@dataclass
class TypeDef:
    """A type of a spec: its fields in spec order (seq, then instances)."""

    spec: str
    path: tuple[str, ...]
    fields: list[FieldDef]
    doc: str = ""

    @property
    def name(self) -> str:
        return self.path[-1] if self.path else self.spec


@dataclass
class SpecModel:
    """Every type of a spec and of the specs it imports."""

    id: str
    meta: dict
    types: dict[tuple, TypeDef]
    text_hash: str
    annotated: bool = True  # the spec has ``-animre-*`` keys; without any, the default table rule applies
    #: every enum of the spec's types and of its imports' (the spec's own first): id -> {member: value}
    enums: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def root(self) -> TypeDef:
        return self.types[(self.id, ())]


def _opts(d: dict) -> dict:
    return {k[len("-animre-"):]: v for k, v in d.items() if isinstance(k, str) and k.startswith("-animre-")}


def strip_params(t: str) -> str:
    return t.split("(", 1)[0].strip()


def _ksy_type(a: dict) -> str:
    if "contents" in a:
        return "contents"
    if "value" in a:
        return "value"
    t = a.get("type")
    if isinstance(t, dict):
        return "switch"
    if t is None:
        return "bytes"
    return strip_params(str(t))


def _collect(sid: str, doc: dict, path: tuple, raw: dict) -> None:
    raw[(sid, path)] = doc
    for tid, tdoc in (doc.get("types") or {}).items():
        _collect(sid, tdoc or {}, path + (str(tid),), raw)


def _enums(raw: dict, sid: str) -> dict[str, dict[str, int]]:
    """Every enum of the collected types, the spec's own (``sid``) before its imports'."""
    out: dict[str, dict[str, int]] = {}
    for _, doc in sorted(raw.items(), key=lambda kv: kv[0][0] != sid):
        for eid, members in (doc.get("enums") or {}).items():
            vals = {}
            for v, m in (members or {}).items():
                try:
                    vals[str(m.get("id") if isinstance(m, dict) else m)] = int(v)
                except (TypeError, ValueError):
                    continue
            out.setdefault(str(eid), vals)
    return out


def _resolve(ref: str, sid: str, path: tuple, raw: dict) -> tuple | None:
    ref = strip_params(ref)
    if "::" in ref:
        parts = ref.split("::")
        key = (parts[0], tuple(parts[1:]))
        return key if key in raw else None
    if PRIMITIVE.match(ref) or ref == "bytes":
        return None
    for k in range(len(path), -1, -1):
        key = (sid, path[:k] + (ref,))
        if key in raw:
            return key
    if (ref, ()) in raw:  # the top-level type of an imported spec
        return (ref, ())
    return None


def _field(fid: str, a: dict, kind: str, sid: str, path: tuple, raw: dict) -> FieldDef:
    t = _ksy_type(a)
    users: tuple = ()
    if t == "switch":
        cases = (a.get("type") or {}).get("cases") or {}
        users = tuple(dict.fromkeys(
            k for k in (_resolve(str(c), sid, path, raw) for c in cases.values()) if k is not None))
    elif t not in ("value", "bytes"):
        k = _resolve(t, sid, path, raw)
        users = (k,) if k is not None else ()
    n = a.get("repeat-expr")
    valid = a.get("valid")
    if isinstance(valid, dict):
        valid = valid.get("eq", valid.get("any-of"))
    consts = valid if isinstance(valid, list) else [valid]
    magic = "contents" in a or (valid is not None and all(spec_int(x) is not None for x in consts))
    return FieldDef(
        id=str(fid), kind=kind, type=t, users=users, repeat="repeat" in a,
        repeat_n=n if isinstance(n, int) else None, enum=a.get("enum"),
        doc=str(a.get("doc") or "").strip(), opts=_opts(a), magic=magic,
        value_expr=str(a["value"]) if "value" in a else None,
    )


@functools.lru_cache(maxsize=64)
def load_model(text: str, ksy_dir: str, imports: tuple[tuple[str, str], ...] = ()) -> SpecModel:
    try:
        main = yamlio.load(text) or {}
    except yaml.YAMLError as e:
        raise SpecError("spec", f"YAML error: {e}") from e
    meta = main.get("meta") or {}
    sid = str(meta.get("id", "spec"))
    raw: dict[tuple, dict] = {}
    given = dict(imports)

    def load(entry: str, _importer: object) -> tuple[str, dict] | None:
        name = import_name(entry)
        if name in given:
            sub = yamlio.load(given[name]) or {}
            return str((sub.get("meta") or {}).get("id", name)), sub
        p = Path(ksy_dir) / f"{name}.ksy"
        return (name, yamlio.load(p.read_text(encoding="utf-8")) or {}) if p.exists() else None

    for s, doc in walk_imports(sid, main, load):
        _collect(s, doc, (), raw)
    types: dict[tuple, TypeDef] = {}
    for (s, path), doc in raw.items():
        fields = [_field(a["id"], a, "seq", s, path, raw)
                  for a in doc.get("seq") or [] if isinstance(a, dict) and "id" in a]
        for iid, a in (doc.get("instances") or {}).items():
            if isinstance(a, dict):
                fields.append(_field(iid, a, "value" if "value" in a else "pos", s, path, raw))
        types[(s, path)] = TypeDef(s, path, fields, str(doc.get("doc") or "").strip())
    return SpecModel(sid, meta, types, hashlib.sha256(text.encode()).hexdigest(), _annotated(main), _enums(raw, sid))


def _annotated(doc: Any) -> bool:
    """True when a spec document carries any ``-animre-*`` key."""
    if isinstance(doc, dict):
        return any(isinstance(k, str) and k.startswith("-animre-") for k in doc) or any(
            _annotated(v) for v in doc.values())
    if isinstance(doc, list):
        return any(_annotated(v) for v in doc)
    return False


def load_spec(text: str, ksy_dir: str | Path | None = None, imports: dict[str, str] | None = None) -> SpecModel:
    """The types of a spec (YAML text), its imports taken from ``imports`` (``{id: text}``, as
    :class:`animre.spec.source.SpecSource` resolves them) or else from ``ksy_dir`` (default ``ksy/``).

    Examples
    --------
    >>> m = load_spec(open("ksy/frm.ksy").read())
    >>> [f.id for f in m.root.fields][:3]
    ['unknown_magic', 'eye_x', 'eye_y']
    >>> load_spec("{meta: {id: t}, enums: {op: {1: black, 6: {id: 'not'}}}}").enums
    {'op': {'black': 1, 'not': 6}}
    """
    if ksy_dir is None:
        ksy_dir = KSY_DIR
    return load_model(text, str(ksy_dir), tuple(sorted((imports or {}).items())))


# ------------------------------------------------------------------ the plan
