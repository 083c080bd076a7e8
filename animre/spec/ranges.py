"""Absolute byte ranges of a parse tree: every field with its ``[start, end)`` in the file (:func:`walk`).

The parsers are compiled in debug mode, so every object has a ``_debug``
map of field -> {start, end[, arr]} relative to the stream it was read
from; :mod:`.streams` says where each stream lies, and this module adds the
two up: the one place a field's range is computed.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kaitaistruct import KaitaiStruct

from .streams import entry_base, stored_range, stream_base

__all__ = ["Bases", "FieldSpan", "walk", "enum_value", "debug_name", "value_instances"]


class Bases:
    """Absolute byte ranges of the fields of one parse, from where its streams lie (:mod:`.streams`).

    ``offset`` is where the parsed bytes start in the file (a block of a
    container); every stream of the parse knows its own start in those bytes.
    """

    def __init__(self, root: KaitaiStruct, offset: int = 0):
        self.root = root
        self.offset = offset

    def base(self, obj: KaitaiStruct) -> int | None:
        """Absolute offset of ``obj``'s stream; ``None`` for the bytes of a ``process:``."""
        b = stream_base(obj._io)
        return None if b is None else self.offset + b

    def enter(self, child: KaitaiStruct, parent_base: int | None = None, rel_start: int | None = None) -> int | None:
        """The base of ``child``'s stream (the arguments are ignored: every stream knows its place)."""
        return self.base(child)

    def entry(self, obj: KaitaiStruct, name: str) -> dict | None:
        """The debug entry of field ``name`` of ``obj`` (``seq`` field or instance)."""
        debug = getattr(obj, "_debug", None)
        return debug and (debug.get(name) or debug.get(f"_m_{name}"))

    def span(self, obj: KaitaiStruct, name: str, index: int | None = None) -> tuple[int | None, int | None]:
        """Absolute ``[start, end)`` of field ``name`` (or its element ``index``) of ``obj``.

        ``(None, None)`` for computed values, fields not read (yet) and the bytes of a ``process:``.

        Examples
        --------
        >>> from animre.spec.compiler import load_parser
        >>> from animre.spec.parse import parse_bytes
        >>> root = parse_bytes(open("data/samples/frm/GOBLNFRM.BIN", "rb").read(), load_parser("frm"))
        >>> Bases(root).span(root.sequences[2], "frame_ids", 3)
        (312, 313)
        """
        top = self.entry(obj, name)
        d = top
        if d and index is not None:
            arr = d.get("arr") or ()
            d = arr[index] if index < len(arr) else None
        if not d:
            return None, None
        b = entry_base(obj, top)
        if b is None:
            return None, None
        st, en = d.get("start"), d.get("end")
        b += self.offset
        return (None if st is None else b + st), (None if en is None else b + en)

    def stored_of(self, io) -> tuple[int, int] | None:
        """For a stream of processed bytes: the absolute range of the stored bytes it was made from; else None."""
        r = stored_range(io)
        return None if r is None else (self.offset + r[0], self.offset + r[1])


@dataclass
class FieldSpan:
    """One value read from a file (or computed from values read)."""

    path: str
    parent: str
    name: str
    index: int | None
    value: Any
    start: int | None
    end: int | None
    obj: Any
    kind: str  # 'struct', 'array' or 'value'
    bit_start: int | None = None  # a bit field: absolute bit positions (byte * 8 + bit, in reading order)
    bit_end: int | None = None
    stream: tuple[int, int] | None = None  # read from processed bytes: its [start, end) in that stream ...
    stored: tuple[int, int] | None = None  # ... and the absolute [start, end) of the stored bytes it came from


def debug_name(key: str) -> str:
    """The field name of a debug key (``_m_x`` for an instance -> ``x``)."""
    return key[3:] if key.startswith("_m_") else key


def value_instances(cls: type) -> list[str]:
    """The names of a parser class's instances (its public properties), its bases' included."""
    out = []
    for klass in cls.__mro__:
        if klass in (KaitaiStruct, object):
            continue
        for n, v in vars(klass).items():
            if isinstance(v, property) and not n.startswith("_"):
                out.append(n)
    return out


def enum_value(v: Any) -> Any:
    """The integer of an enum member (a Kaitai enum field's value), anything else as it is."""
    if isinstance(v, enum.Enum):
        return v.value
    return v


def walk(root: KaitaiStruct, bases: Bases | None = None, values: bool = True) -> Iterator[FieldSpan]:
    """Yield every field of a parsed object tree with its absolute byte range.

    Paths look like ``moves[12].footer.unknown_4``. Arrays yield one entry for
    the whole array and one per element. Value instances (computed, no bytes)
    are yielded with ``start = end = None`` when ``values`` is true; lazily
    read positional instances appear once they have been read.

    Examples
    --------
    >>> from animre.spec.compiler import load_parser
    >>> from animre.spec.parse import parse_bytes
    >>> obj = parse_bytes(open("data/samples/frm/GOBLNFRM.BIN", "rb").read(), load_parser("frm"))
    >>> [f.path for f in walk(obj)][:3]
    ['unknown_magic', 'eye_x', 'eye_y']
    """
    bases = bases or Bases(root)
    seen: set[int] = set()
    yield from _walk(root, "", bases, values, seen)


def _at(b: int | None, x: int | None) -> int | None:
    return None if b is None or x is None else b + x


def _rel(stored, d: dict) -> tuple[int, int] | None:
    """A processed field's ``[start, end)`` in its own stream (``None`` for a field of the file itself)."""
    if stored is None or d.get("start") is None or d.get("end") is None:
        return None
    return d["start"], d["end"]


def _walk(obj, prefix, bases, values, seen):
    if id(obj) in seen:
        return
    seen.add(id(obj))
    debug = getattr(obj, "_debug", {}) or {}
    done = set()
    for key, d in list(debug.items()):
        name = debug_name(key)
        done.add(name)
        if not hasattr(obj, key if key.startswith("_m_") else name):
            continue
        val = getattr(obj, key if key.startswith("_m_") else name)
        path = f"{prefix}{name}"
        b = entry_base(obj, d)
        b = None if b is None else b + bases.offset
        stored = None
        if b is None:  # processed bytes: the range in that stream, and where the stored bytes lie
            io = d.get("io")
            stored = bases.stored_of(io if io is not None else obj._io)
        is_list = isinstance(val, list)
        is_struct = isinstance(val, KaitaiStruct)
        yield FieldSpan(path, prefix.rstrip("."), name, None, None if (is_list or is_struct) else enum_value(val),
                        _at(b, d.get("start")), _at(b, d.get("end")),
                        obj, "array" if is_list else "struct" if is_struct else "value",
                        _at(None if b is None else 8 * b, d.get("bit_start")),
                        _at(None if b is None else 8 * b, d.get("bit_end")),
                        _rel(stored, d), stored)
        if is_list:
            arr = d.get("arr", [])
            for i, el in enumerate(val):
                ed = arr[i] if i < len(arr) else {}
                es, ee = _at(b, ed.get("start")), _at(b, ed.get("end"))
                epath = f"{path}[{i}]"
                kind = "struct" if isinstance(el, KaitaiStruct) else "value"
                yield FieldSpan(epath, path, name, i, None if kind == "struct" else enum_value(el), es, ee, obj, kind,
                                _at(None if b is None else 8 * b, ed.get("bit_start")),
                                _at(None if b is None else 8 * b, ed.get("bit_end")), _rel(stored, ed), stored)
                if kind == "struct":
                    yield from _walk(el, epath + ".", bases, values, seen)
        elif is_struct:
            yield from _walk(val, path + ".", bases, values, seen)
    if values:
        for name in value_instances(type(obj)):
            if name in done or f"_m_{name}" in debug:
                continue
            if not hasattr(obj, f"_m_{name}"):
                try:
                    getattr(obj, name)
                except Exception:  # noqa: BLE001 - a value that cannot be computed is skipped
                    continue
            val = getattr(obj, f"_m_{name}", None)
            if isinstance(val, (KaitaiStruct, list)):
                continue
            yield FieldSpan(f"{prefix}{name}", prefix.rstrip("."), name, None, enum_value(val), None, None, obj,
                            "value")
