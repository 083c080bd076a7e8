"""Fixed layouts: the spec's types whose every field sits at an offset known before any file is read.

A type is fixed when each ``seq`` field is a byte-sized number (``u1`` ..
``f8``, either byte order), bytes or a string of a constant ``size``,
``contents``, or a fixed user type (with a constant ``size:`` of at least
its own, or none), optionally repeated a constant number of times
(``repeat: expr`` with an integer ``repeat-expr``); the root type may end in
one ``size-eos`` field. ``valid`` checks, enums, ``params``, value
instances and positional instances of constant ``pos`` and ``size`` are
kept for the reader (:mod:`animre.tables.fixed`), which evaluates them
column-wise and falls back to the Kaitai parse for what it cannot.

Anything else (``if:``, ``io:``, ``process:``, a switch, a size or count
read from the file, bit fields, ``strz``, a terminator with no constant ``size``,
an import) makes the type variable: :func:`fixed_layouts` says why, per type.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from ..base import yamlio
from ..base.ktypes import BYTE_NUMBER
from .numbers import spec_int

__all__ = ["Slot", "Layout", "fixed_layouts", "numpy_dtype", "contents_bytes"]

_TYPE_ARGS = re.compile(r"^\s*([A-Za-z_][\w:]*)\s*(?:\((.*)\))?\s*$")
#: keys of a seq field that make its place or its size depend on the file
_VARIABLE_KEYS = ("if", "io", "process", "pos", "terminator", "size-eos", "repeat-until", "include", "consume",
                  "eos-error")
_CUTS = ("terminator", "include", "consume", "eos-error")


@dataclass(frozen=True)
class Slot:
    """One ``seq`` field of a fixed type: where it sits in its record and how it is read."""

    id: str
    offset: int  # from the start of the record
    size: int  # of one element (for a user type: its ``size:``, or the type's own size)
    count: int | None  # constant ``repeat-expr``; None when not repeated
    kind: str  # "num", "bytes", "str", "contents", "user" or "eos" (the root's trailing ``size-eos`` bytes)
    raw: dict = field(hash=False, compare=False)  # the field as written (valid, enum, encoding ...)
    dtype: str | None = None  # numpy dtype of a number ("<u2", ">f4", "i1")
    user: tuple | None = None  # the user type's key in :func:`fixed_layouts`
    args: tuple = ()  # the arguments passed to the user type's params, as written
    substream: bool = False  # the user type is read through its own stream (``size:`` given)

    @property
    def span(self) -> int:
        """Bytes the field takes (every element)."""
        return self.size * (self.count if self.count is not None else 1)


@dataclass
class Layout:
    """A fixed type: its size, its ``seq`` fields by id, its params and instances as written."""

    key: tuple
    size: int
    slots: dict[str, Slot]
    params: tuple[str, ...]
    instances: dict[str, dict]
    endian: str | None


def numpy_dtype(ksy_type: str, endian: str | None) -> str | None:
    """The numpy dtype of a byte-sized number type (``u2le`` -> ``<u2``, ``s1`` -> ``i1``); None otherwise.

    Examples
    --------
    >>> numpy_dtype("u2", "le"), numpy_dtype("f4be", None), numpy_dtype("s1", None), numpy_dtype("u2", None)
    ('<u2', '>f4', 'i1', None)
    """
    m = BYTE_NUMBER.match(str(ksy_type))
    if m is None:
        return None
    kind, width, order = m.group(1), int(m.group(2)), m.group(3) or endian
    letter = {"u": "u", "s": "i", "f": "f"}[kind]
    if width == 1:
        return letter + "1" if kind != "f" else None
    if order not in ("le", "be"):
        return None
    return ("<" if order == "le" else ">") + letter + str(width)


def contents_bytes(raw: dict) -> bytes:
    """The bytes a field's ``contents`` stands for (strings as UTF-8, numbers as bytes).

    >>> contents_bytes({"contents": ["AB", 0, 255]})
    b'AB\\x00\\xff'
    """
    c = raw["contents"]
    out = b""
    for x in c if isinstance(c, list) else [c]:
        out += x.encode("utf-8") if isinstance(x, str) else bytes([int(x) & 0xFF])
    return out


@functools.lru_cache(maxsize=32)
def fixed_layouts(text: str) -> dict[tuple, Layout | str]:
    """Every type of a spec (YAML text) -> its :class:`Layout`, or why it is not fixed.

    Keys are ``(spec id, type path)`` as :class:`animre.spec.model.SpecModel` keys them.

    Examples
    --------
    >>> got = fixed_layouts("meta: {id: t, endian: le}\\nseq: [{id: a, type: u2}, {id: b, size: 3}]")
    >>> lay = got[("t", ())]; lay.size, lay.slots["b"].offset, lay.slots["a"].dtype
    (5, 2, '<u2')
    """
    doc = yamlio.load(text) or {}
    meta = doc.get("meta") or {}
    sid = str(meta.get("id", "spec"))
    raw: dict[tuple, dict] = {}

    def collect(d: dict, path: tuple) -> None:
        raw[(sid, path)] = d
        for tid, td in (d.get("types") or {}).items():
            collect(td or {}, path + (str(tid),))

    collect(doc, ())
    out: dict[tuple, Layout | str] = {}
    if meta.get("imports"):
        return {k: "the spec imports other specs" for k in raw}
    for key in raw:
        _layout(key, raw, out, meta, ())
    return out


def _resolve(name: str, path: tuple, raw: dict, sid: str) -> tuple | None:
    for k in range(len(path), -1, -1):
        key = (sid, path[:k] + (name,))
        if key in raw:
            return key
    return None


def _endian(d: dict, inherited: str | None) -> str | None:
    e = (d.get("meta") or {}).get("endian", inherited)
    return e if e in ("le", "be") else None


def _layout(key: tuple, raw: dict, out: dict, meta: dict, active: tuple) -> Layout | str:
    if key in out:
        return out[key]
    if key in active:
        return "the type contains itself"
    d = raw[key]
    endian = meta.get("endian") if meta.get("endian") in ("le", "be") else None
    for k in range(1, len(key[1]) + 1):  # a type's own meta endian overrides its enclosing types'
        endian = _endian(raw.get((key[0], key[1][:k]), {}), endian)
    slots: dict[str, Slot] = {}
    pos = 0
    attrs = [a for a in d.get("seq") or [] if isinstance(a, dict)]
    for i, a in enumerate(attrs):
        got = _slot(a, pos, endian, key, raw, out, meta, active + (key,), last=i == len(attrs) - 1)
        if isinstance(got, str):
            out[key] = f"{a.get('id', '?')}: {got}"
            return out[key]
        slots[got.id] = got
        pos += got.span
    params = tuple(str(p.get("id")) for p in d.get("params") or [] if isinstance(p, dict))
    inst = {str(k): v for k, v in (d.get("instances") or {}).items() if isinstance(v, dict)}
    for iid, a in inst.items():
        if "value" in a:
            continue
        if any(k in a for k in ("io", "repeat", "if", "process")) or spec_int(a.get("pos")) is None:
            out[key] = f"instance {iid}: not at a constant position"
            return out[key]
        if spec_int(a.get("size")) is None and numpy_dtype(str(a.get("type")), endian) is None:
            out[key] = f"instance {iid}: no constant size"
            return out[key]
    out[key] = Layout(key, pos, slots, params, inst, endian)
    return out[key]


def _slot(a: dict, pos: int, endian, key: tuple, raw: dict, out: dict, meta: dict, active: tuple,
          last: bool) -> Slot | str:
    fid = str(a.get("id"))
    if a.get("size-eos") and key[1] == () and last and "type" not in a and not any(
            k in a for k in _VARIABLE_KEYS if k != "size-eos"):
        return Slot(fid, pos, 0, None, "eos", a)
    sized = spec_int(a.get("size")) is not None  # a terminator inside a constant size only cuts the value
    bad = [k for k in _VARIABLE_KEYS if k in a and not (sized and k in _CUTS)]
    if bad:
        return f"{bad[0]}: is read from the file"
    count = None
    if "repeat" in a:
        count = spec_int(a.get("repeat-expr")) if a.get("repeat") == "expr" else None
        if count is None or count < 0:
            return "a count read from the file"
    if "contents" in a:
        return Slot(fid, pos, len(contents_bytes(a)), count, "contents", a)
    t = a.get("type")
    size = spec_int(a.get("size")) if "size" in a else None
    if "size" in a and (size is None or size < 0):
        return "a size read from the file"
    if t is None:
        return Slot(fid, pos, size, count, "bytes", a) if size is not None else "bytes of no size"
    if isinstance(t, dict):
        return "a switch"
    t = str(t)
    if t in ("str", "strz"):
        if size is None or not (a.get("encoding") or meta.get("encoding")):
            return "a string of no constant size"
        return Slot(fid, pos, size, count, "str", a if t == "str" else {"terminator": 0, **a})
    dt = numpy_dtype(t, endian)
    if dt is not None:
        width = int(dt[-1])
        if size is not None and size != width:
            return "a number with a size"
        return Slot(fid, pos, width, count, "num", a, dtype=dt)
    m = _TYPE_ARGS.match(t)
    user = _resolve(m.group(1), key[1], raw, key[0]) if m and "::" not in m.group(1) else None
    if user is None:
        return f"type {t} is not a fixed type of this spec"
    sub = _layout(user, raw, out, meta, active)
    if isinstance(sub, str):
        return f"type {t}: {sub}"
    args = tuple(x.strip() for x in m.group(2).split(",")) if m.group(2) else ()
    if len(args) != len(sub.params):
        return f"type {t}: {len(args)} arguments for {len(sub.params)} params"
    if size is not None and size < sub.size:
        return f"type {t}: size {size} is shorter than the type ({sub.size})"
    return Slot(fid, pos, size if size is not None else sub.size, count, "user", a, user=user, args=args,
                substream=size is not None)
