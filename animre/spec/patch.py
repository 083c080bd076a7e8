"""Edit a ``.ksy`` spec in place of its text: round-trip YAML, reviewable unified diffs.

A suggestion's edit (see :func:`animre.suggest`) is applied with the
round-trip library ruamel.yaml, and only the lines the edit changes are
written back into the spec's own text (indented like their neighbours), so
every comment, key order, quoting, indentation and block style the edit does
not touch stays byte for byte as it was; no edit, no change. The result is
shown as a unified diff. Nothing here parses files or opens a corpus.

An edit is a dict with the keys ``spec`` (the spec id), ``type`` (the type
holding the field; the spec id for the root type) and ``field`` (the field
id), and any of

- ``set``: ``{key: value}`` set on the field (``valid``, ``enum``, ``repeat``,
  ``repeat-expr`` ...), inserted after ``type`` when new;
- ``doc``: a line appended to the field's ``doc`` (a ``doc`` is added when
  the field has none);
- ``rename``: the field's new id;
- ``enums``: ``{enum name: {value: label}}`` added to the spec's ``enums``;
- ``instances``: ``{id: {key: value}}`` added to the type's ``instances``.
"""

from __future__ import annotations

import difflib
import functools
import io
import os
import re
from collections.abc import Iterable, Mapping, MutableMapping
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import (
    DoubleQuotedScalarString,
    LiteralScalarString,
    SingleQuotedScalarString,
)

from ..base.display import hex_digits
from ..base.errors import SpecError, UsageError
from .numbers import ksy_contents, ksy_enum_key, ksy_int

__all__ = ["edits_of", "find_field", "find_type", "patch_text", "spec_references", "suggest_patch",
           "unified_diff"]

_EXPR_KEYS = {"repeat-expr", "repeat-until", "size", "pos", "if", "value", "switch-on", "expr", "io",
              "process", "terminator", "-animre-where", "-animre-bytes"}


def _yaml() -> YAML:
    y = YAML()
    y.preserve_quotes = True
    y.width = 4096
    y.indent(mapping=2, sequence=4, offset=2)
    return y


def _load(text: str):
    return _yaml().load(text)


def _dump(doc) -> str:
    s = io.StringIO()
    _yaml().dump(doc, s)
    return s.getvalue()


@functools.lru_cache(maxsize=64)
def _as_written(text: str) -> str:
    """``text`` loaded and written back by the YAML library (the base every patch of it is spliced against;
    a research loop patches the same spec over and over, and a round trip costs 0.1-0.2 s)."""
    return _dump(_load(text))


def find_type(doc: Mapping, type_name: str) -> Mapping | None:
    """The mapping of type ``type_name`` in a loaded spec (the root when it is the spec id).

    Examples
    --------
    >>> import yaml
    >>> d = yaml.safe_load("meta: {id: a}\\ntypes: {b: {types: {c: {seq: []}}}}")
    >>> find_type(d, "c"), find_type(d, "a") is d
    ({'seq': []}, True)
    """
    if (doc.get("meta") or {}).get("id") == type_name:
        return doc

    def walk(types: Any) -> Mapping | None:
        if not isinstance(types, Mapping):
            return None
        if type_name in types:
            return types[type_name]
        for t in types.values():
            if isinstance(t, Mapping):
                got = walk(t.get("types"))
                if got is not None:
                    return got
        return None

    return walk(doc.get("types"))


def find_field(doc: Mapping, type_name: str, field_id: str) -> tuple[Mapping | None, Mapping | None, str]:
    """``(type mapping, field mapping, "seq" or "instances")`` of a field in a loaded spec.

    Examples
    --------
    >>> import yaml
    >>> d = yaml.safe_load("meta: {id: a}\\nseq: [{id: x, type: u1}]\\ninstances: {y: {value: x}}")
    >>> find_field(d, "a", "x")[1], find_field(d, "a", "y")[2]
    ({'id': 'x', 'type': 'u1'}, 'instances')
    """
    t = find_type(doc, type_name)
    if t is None:
        return None, None, ""
    for f in t.get("seq") or []:
        if isinstance(f, Mapping) and f.get("id") == field_id:
            return t, f, "seq"
    inst = t.get("instances") or {}
    if field_id in inst:
        return t, inst[field_id], "instances"
    return t, None, ""


def spec_references(doc: Mapping, name: str) -> int:
    """How many expressions of a loaded spec name ``name`` (docs and ids do not count).

    Examples
    --------
    >>> import yaml
    >>> spec_references(yaml.safe_load("seq: [{id: n, type: u1}, {id: a, size: n * 2, doc: n}]"), "n")
    1
    """
    pat = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
    n = 0

    def walk(x: Any, key: str | None) -> None:
        nonlocal n
        if isinstance(x, Mapping):
            for k, v in x.items():
                if k in ("doc", "doc-ref", "meta", "title"):
                    continue
                walk(v, str(k))
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif isinstance(x, str) and key in _EXPR_KEYS:
            n += len(pat.findall(x))
        elif isinstance(x, str) and key == "type" and "(" in x:
            n += len(pat.findall(x[x.index("("):]))

    walk(doc, None)
    return n


def _scalar(v: Any, digits: int | None = None) -> Any:
    """A YAML value for an edit value: integers through :func:`ksy_int`, lists in flow style.

    ``digits``: hex digits for integers (None: decimal, except values past
    the 32-bit range, which :func:`ksy_int` always writes as hex strings).
    """
    if isinstance(v, bool):
        return v
    if isinstance(v, int) or (hasattr(v, "__index__") and not isinstance(v, str)):
        return ksy_int(v, hex_digits=digits)
    if isinstance(v, (list, tuple)):
        s = CommentedSeq(_scalar(x, digits) for x in v)
        s.fa.set_flow_style()
        return s
    if isinstance(v, Mapping):
        m = CommentedMap()
        for k, x in v.items():
            m[k] = _scalar(x, digits)
        if all(not isinstance(x, (Mapping, list, tuple)) for x in v.values()) and len(v) <= 2 \
                and "doc" not in v:
            m.fa.set_flow_style()
        return m
    return v


def _digits(f: Mapping) -> int | None:
    """Hex digits to write a field's constants with (its name or doc says magic, flags, id ...), else None.

    The rule of :func:`animre.base.display.hex_digits`, from what the spec says of the field.
    """
    return hex_digits(str(f.get("id", "")), str(f.get("type")) if f.get("type") else None,
                      doc=str(f.get("doc") or ""))


def _field_values(f: Mapping, sets: Mapping, endian: str | None) -> dict:
    """The YAML values of an edit's ``set`` for field ``f`` (raises ValueError when one cannot be written).

    ``contents`` given as an integer becomes the integer's bytes in the
    field's type and byte order (the field's ``type`` is then dropped).
    """
    out = {}
    for k, v in sets.items():
        if k == "contents" and isinstance(v, int) and not isinstance(v, bool):
            out[k] = _scalar(ksy_contents(v, str(f.get("type")), endian), 2)
        elif k == "contents" and isinstance(v, (list, tuple)):
            if not all(isinstance(b, int) and 0 <= b <= 255 for b in v):
                raise ValueError(f"contents must be bytes (0..255), got {list(v)}")
            out[k] = _scalar(list(v), 2)
        elif k in ("valid", "repeat-expr", "size", "pos"):
            out[k] = _scalar(v, _digits(f))
        else:
            out[k] = _scalar(v)
    return out


def _enum_map(values: Mapping, digits: int | None) -> CommentedMap:
    """An ``enums`` entry: keys through :func:`ksy_enum_key` (raises ValueError for keys it cannot hold)."""
    m = CommentedMap()
    for val, label in sorted(values.items(), key=lambda kv: int(kv[0])):
        m[ksy_enum_key(int(val), hex_digits=digits)] = label
    return m


def _set_after(m: MutableMapping, key: str, value: Any, after: Iterable[str]) -> None:
    if key in m:
        m[key] = value
        return
    keys = list(m.keys())
    pos = len(keys)
    for a in after:
        if a in keys:
            pos = keys.index(a) + 1
            break
    m.insert(pos, key, value)


def _append_doc(m: MutableMapping, line: str) -> None:
    old = m.get("doc")
    if old is None:
        m.insert(len(m), "doc", line)  # before nothing: a new key goes last
        return
    if line in str(old):
        return
    if isinstance(old, LiteralScalarString) or "\n" in str(old):
        m["doc"] = LiteralScalarString(str(old).rstrip("\n") + "\n" + line + "\n")
    else:
        new = f"{str(old).rstrip()} {line}"
        for style in (SingleQuotedScalarString, DoubleQuotedScalarString):  # keep the quoting it had
            if isinstance(old, style):
                new = style(new)
        m["doc"] = new


def patch_text(text: str, edits: Iterable[Mapping]) -> tuple[str, list[dict]]:
    """Apply edits to a spec's text; returns ``(new text, [{edit, applied, reason}])``.

    Edits for another spec id are skipped (``applied`` False, with the reason).

    Examples
    --------
    >>> text = "meta:\\n  id: t\\nseq:\\n  - id: unknown_a  # kept\\n    type: u1\\n"
    >>> new, log = patch_text(text, [{"spec": "t", "type": "t", "field": "unknown_a", "set": {"valid": 1}}])
    >>> print(new, end="")
    meta:
      id: t
    seq:
      - id: unknown_a  # kept
        type: u1
        valid: 1
    """
    doc = _load(text)
    if not isinstance(doc, Mapping):
        raise UsageError("the spec text is not a YAML mapping")
    spec_id = (doc.get("meta") or {}).get("id")
    endian = (doc.get("meta") or {}).get("endian")
    endian = endian if isinstance(endian, str) else None
    log = []
    for e in edits:
        if e.get("spec") != spec_id:
            log.append({"edit": e, "applied": False, "reason": f"edit of spec {e.get('spec')!r}, not {spec_id!r}"})
            continue
        t, f, where = find_field(doc, e["type"], e["field"])
        if f is None:
            log.append({"edit": e, "applied": False, "reason": f"no field {e['type']}.{e['field']} in {spec_id}.ksy"})
            continue
        try:  # every value first: an edit that cannot be written changes nothing
            values = _field_values(f, e.get("set") or {}, endian)
            enum_digits = _digits(f)
            new_enums = {name: _enum_map(vals, enum_digits) for name, vals in (e.get("enums") or {}).items()
                         if name not in (doc.get("enums") or {})}
        except (ValueError, TypeError) as err:
            log.append({"edit": e, "applied": False,
                        "reason": f"{spec_id}.ksy {e['type']}.{e['field']}: cannot be written: {err}"})
            continue
        for k, v in values.items():
            if k == "repeat" and v == "expr":
                f.pop("repeat-until", None)
            if k == "contents":
                f.pop("type", None)
            _set_after(f, k, v, ("contents", "enum", "type", "size", "pos", "value", "id"))
        if e.get("doc"):
            _append_doc(f, e["doc"])
        for name, m in new_enums.items():
            if "enums" not in doc:
                doc["enums"] = CommentedMap()
            doc["enums"][name] = m
        if e.get("instances"):
            if "instances" not in t:
                pos = len(t)
                if "types" in t:
                    pos = list(t.keys()).index("types")
                t.insert(pos, "instances", CommentedMap())
            for name, body in e["instances"].items():
                if name not in t["instances"]:
                    m = CommentedMap()
                    for k, v in body.items():
                        m[k] = v
                    t["instances"][name] = m
        if e.get("rename"):
            new = e["rename"]
            if where == "seq":
                f["id"] = new
            else:
                keys = list(t["instances"].keys())
                t["instances"].insert(keys.index(e["field"]), new, t["instances"].pop(e["field"]))
        log.append({"edit": e, "applied": True, "reason": ""})
    if not any(x["applied"] for x in log):
        return text, log
    return _splice(text, _as_written(text), _dump(doc)), log


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _splice(text: str, base: str, new: str) -> str:
    """``new`` (the edited spec as the YAML library writes it) as changes to ``text`` (the spec as its author
    wrote it): only the lines the edits change, re-indented like their neighbours; ``base`` is ``text``
    written by the library. ``new`` itself when the lines cannot be matched."""
    orig, b_lines, n_lines = text.splitlines(keepends=True), base.splitlines(keepends=True), \
        new.splitlines(keepends=True)
    norm = [" ".join(x.split()) for x in orig], [" ".join(x.split()) for x in b_lines]
    to_orig = {}  # base line -> the author's line
    for a, b, size in difflib.SequenceMatcher(None, norm[0], norm[1], autojunk=False).get_matching_blocks():
        for k in range(size):
            to_orig[b + k] = a + k
    out, pos = [], 0  # pos: the next author's line not yet copied
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, b_lines, n_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if any(i not in to_orig for i in range(i1, i2)):
            return new
        if i2 > i1:
            start, end = to_orig[i1], to_orig[i2 - 1] + 1
        else:  # an insertion: after the author's copy of the line before it
            start = end = to_orig[i1 - 1] + 1 if i1 - 1 in to_orig else to_orig.get(i1, len(orig))
        if start < pos:
            return new
        out += orig[pos:start]
        out += _reindent(n_lines[j1:j2], b_lines, orig, to_orig, i1)
        pos = end
    out += orig[pos:]
    spliced = "".join(out)
    try:
        same = _yaml().load(spliced) == _yaml().load(new)
    except Exception:  # noqa: BLE001 - a splice that does not read back is not used
        same = False
    return spliced if same else new


def _reindent(lines: list[str], base: list[str], orig: list[str], to_orig: dict, at: int) -> list[str]:
    """New lines indented as the author indents lines of their depth: a line takes the shift of the nearest
    matched base line of the same indentation and kind (a sequence item or a key) around ``at``; the lines
    nested under it keep their place relative to it."""
    near = [i for i in range(at, -1, -1) if i in to_orig] + [i for i in range(at + 1, len(base)) if i in to_orig]
    out, anchor, shift = [], None, 0
    for line in lines:
        if not line.strip():
            out.append(line)
            continue
        want = _indent(line)
        if anchor is None or want <= anchor:
            anchor, shift = want, 0
            dash = line.lstrip(" ").startswith("- ")
            for i in near:
                if _indent(base[i]) == want and base[i].strip() and base[i].lstrip(" ").startswith("- ") == dash:
                    shift = _indent(orig[to_orig[i]]) - _indent(base[i])
                    break
        out.append(" " * max(0, want + shift) + line.lstrip(" "))
    return out


def unified_diff(old: str, new: str, name: str) -> str:
    """A unified diff of two spec texts (``a/NAME`` -> ``b/NAME``), empty when equal.

    Examples
    --------
    >>> print(unified_diff("a: 1\\n", "a: 2\\n", "x.ksy"), end="")
    --- a/x.ksy
    +++ b/x.ksy
    @@ -1 +1 @@
    -a: 1
    +a: 2
    """
    return "".join(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                        f"a/{name}", f"b/{name}"))


def suggest_patch(suggestions: Any, spec_path: str | os.PathLike) -> str:
    """The unified diff that adopting ``suggestions`` makes to the spec at ``spec_path``.

    Only the suggestions whose ``spec`` is this file's spec id are used;
    everything the edits do not touch (comments, key order, quoting,
    formatting) stays as it is.

    Parameters
    ----------
    suggestions : DataFrame or list of dict
        Rows of :func:`animre.suggest` (their ``edit`` column), or edits.
    spec_path : path
        A ``.ksy`` file.

    Returns
    -------
    str
        The diff (``--- a/<name>`` / ``+++ b/<name>``); empty when nothing changes.

    Examples
    --------
    >>> import animre
    >>> s = animre.suggest(c, spec="omf_common")
    >>> patch = animre.suggest_patch(s, "ksy/omf_common.ksy")
    >>> patch.splitlines()[0]
    '--- a/omf_common.ksy'
    """
    path = Path(spec_path)
    if not path.is_file():
        raise UsageError(f"no spec file {path}")
    text = path.read_text(encoding="utf-8")
    new, _ = patch_text(text, edits_of(suggestions))
    return unified_diff(text, new, path.name)


def edits_of(suggestions: Any) -> list[dict]:
    """The edits of suggestion rows (a DataFrame with an ``edit`` column, or a list of edits).

    Examples
    --------
    >>> edits_of([{"spec": "frm", "type": "frm", "field": "unknown_magic", "doc": "x"}])[0]["field"]
    'unknown_magic'
    """
    if hasattr(suggestions, "columns"):
        if "edit" not in suggestions.columns:
            raise UsageError("expected the DataFrame of animre.suggest (no 'edit' column)")
        return [e for e in suggestions["edit"] if isinstance(e, Mapping)]
    out = []
    for e in suggestions:
        if not isinstance(e, Mapping):
            raise SpecError("suggestions", f"an edit must be a mapping, got {type(e).__name__}")
        out.append(e["edit"] if "edit" in e and isinstance(e["edit"], Mapping) else e)
    return out
