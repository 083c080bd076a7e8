"""Parse bytes with a compiled Kaitai parser and walk the result.

The parsers are compiled in debug mode, so every object has a ``_debug``
map of field -> {start, end[, arr]} relative to its own stream. This module
turns those into absolute byte ranges (:func:`walk`), and, when a parse fails,
finds the field that was being read (:func:`parse_bytes` raises
:class:`~animre.errors.ParseError` with file, field path and offset).
"""

from __future__ import annotations

import enum
import types
from collections.abc import Iterator
from dataclasses import dataclass
from io import BytesIO
from typing import Any, BinaryIO

from kaitaistruct import KaitaiStream, KaitaiStruct

from ..errors import ParseError
from .streams import entry_base, stored_range, stream_base

__all__ = ["parse_bytes", "main_class", "walk", "FieldSpan", "Bases", "camel", "enum_value"]


def camel(spec_id: str) -> str:
    """The class name the Kaitai compiler gives a type id (``frm`` -> ``Frm``)."""
    return "".join(p[:1].upper() + p[1:] for p in spec_id.split("_"))


def main_class(module: types.ModuleType) -> type:
    """The top-level parser class of a compiled module."""
    name = camel(module.__name__.rsplit(".", 1)[-1])
    cls = getattr(module, name, None)
    if cls is None:
        cands = [
            v for v in vars(module).values()
            if isinstance(v, type) and issubclass(v, KaitaiStruct) and v.__module__ == module.__name__
        ]
        if len(cands) != 1:
            raise ValueError(f"cannot tell the top-level class of parser module {module.__name__}")
        cls = cands[0]
    return cls


def _reason(exc: BaseException) -> str:
    name = type(exc).__name__
    msg = str(exc) or repr(exc)
    if isinstance(exc, RecursionError):
        msg = "structure nests too deeply (self-referencing offsets?)"
    return f"{name}: {msg}"


def parse_bytes(data: bytes | BinaryIO, module: types.ModuleType, file: str = "<bytes>", cls: type | None = None,
                fetch_instances: bool = True, instance_errors: list | None = None) -> KaitaiStruct:
    """Parse ``data`` with a compiled parser module; every failure becomes a ParseError.

    Parameters
    ----------
    data : bytes or seekable binary file
        The whole file (a file object is read only where the spec reads, e.g.
        an archive's directory without its members).
    module : module
        A parser module from :func:`animre.spec.compiler.load_parser` or :func:`animre.spec.compile_spec`.
    file : str
        Name used in error messages.
    fetch_instances : bool
        Also read every instance (positional fields), so errors surface now.
    instance_errors : list, optional
        When given, an instance that fails (a footer the file lacks) is
        appended here as a ParseError instead of raised: the ``seq`` parsed,
        and its values are kept.

    Examples
    --------
    >>> from animre.spec.compiler import load_parser
    >>> parse_bytes(b"\\x01", load_parser("frm"), "x.bin")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    animre.errors.ParseError: x.bin: eye_x @ 0x1 (1): EndOfStreamError: ...
    """
    cls = cls or main_class(module)
    root = cls(KaitaiStream(data if hasattr(data, "read") else BytesIO(data)))
    try:
        root._read()
    except Exception as exc:  # noqa: BLE001 - every failure is reported with its location
        path, offset = locate_failure(root, exc)
        raise ParseError(file, path, offset, _reason(exc), partial=root) from exc
    if fetch_instances:
        try:
            root._fetch_instances()
        except Exception as exc:  # noqa: BLE001 - every failure is reported with its location
            path, offset = locate_failure(root, exc)
            err = ParseError(file, path, offset, "instance: " + _reason(exc), partial=root)
            if instance_errors is None:
                raise err from exc
            instance_errors.append(err)  # the seq parsed: its values stay, the instance is an error row
        for err in value_failures(root, file):  # what the ordinary parser raises when a value is asked for
            if instance_errors is None:
                raise err
            instance_errors.append(err)
    return root


#: Distinct failing value instances reported per file (one per type and instance; the rest are alike).
MAX_VALUE_FAILURES = 8


_PROPS: dict[type, tuple[str, ...]] = {}


def _props(cls: type, cache: dict = _PROPS) -> tuple[str, ...]:
    """The value instances of a parser class: its properties that ``_fetch_instances`` does not read."""
    out = cache.get(cls)
    if out is None:
        fetch = getattr(cls, "_fetch_instances", None)
        fetched = set(getattr(getattr(fetch, "__code__", None), "co_names", ()))
        out = cache[cls] = tuple(n for n in _value_instances(cls) if n not in fetched)
    return out


def _has_values(cls: type) -> bool:
    """Whether any parser class of ``cls``'s module (and of the parser modules it imports) has a value instance
    (kept in the module itself: a cache keyed by ``id`` could answer for a module garbage-collected since)."""
    g = getattr(cls._read, "__globals__", None)
    if g is None:
        return True
    out = g.get("__animre_has_values__")
    if out is None:
        mods = [g] + [vars(m) for m in list(g.values())
                      if isinstance(m, types.ModuleType) and hasattr(m, "KaitaiStruct")]
        out = g["__animre_has_values__"] = any(_props(c) for m in mods for c in _classes(m))
    return out


def _classes(namespace: dict) -> list[type]:
    name = namespace.get("__name__")
    out, todo = [], [v for v in namespace.values() if isinstance(v, type) and issubclass(v, KaitaiStruct)]
    while todo:
        c = todo.pop()
        if c.__module__ != name or c in out:
            continue
        out.append(c)
        todo.extend(v for v in vars(c).values() if isinstance(v, type) and issubclass(v, KaitaiStruct))
    return out


def value_failures(root: KaitaiStruct, file: str = "<bytes>") -> list[ParseError]:
    """Every instance of the tree that raises when read (value instances included), as ParseErrors.

    ``_fetch_instances()`` reads only positional instances; a Kaitai user who
    asks for a value instance (``bmp``'s ``is_color_mask_here`` on an OS/2
    header) gets the exception the generated code raises there. This reads
    every instance of every object once, so an outcome equals the ordinary
    compile's; one error per type and instance name (at most
    :data:`MAX_VALUE_FAILURES`), naming the instance's path and the offset
    of its object.
    """
    out: list[ParseError] = []
    if not _has_values(type(root)):
        return out
    seen_obj: set[int] = set()
    seen_kind: set[tuple[type, str]] = set()
    stack: list = [(root, None)]  # (object, (parent entry, name, index)): paths are written only for a failure
    while stack and len(out) < MAX_VALUE_FAILURES:
        item = stack.pop()
        obj = item[0]
        if id(obj) in seen_obj:
            continue
        seen_obj.add(id(obj))
        t = type(obj)
        props = _PROPS.get(t)
        for name in (_props(t) if props is None else props):
            if f"_m_{name}" in obj.__dict__ or (type(obj), name) in seen_kind:
                continue
            try:
                getattr(obj, name)
            except Exception as exc:  # noqa: BLE001 - every failure is reported with its location
                seen_kind.add((type(obj), name))
                out.append(ParseError(file, _path(item) + name, _object_start(obj), "instance: " + _reason(exc),
                                      partial=root))
        d = obj.__dict__
        for k in (getattr(obj, "_debug", None) or ()):
            v = d.get(k)
            if isinstance(v, KaitaiStruct):
                stack.append((v, (item, _debug_name(k), None)))
            elif isinstance(v, list) and v:
                first = next((el for el in v if el is not None), None)
                if isinstance(first, KaitaiStruct):  # arrays of numbers and bytes hold no instances
                    nm = _debug_name(k)
                    stack.extend((el, (item, nm, i)) for i, el in reversed(list(enumerate(v)))
                                 if isinstance(el, KaitaiStruct))
    return out


def _path(item) -> str:
    """The field path (with a trailing dot) of a stack item of :func:`value_failures`."""
    parts = []
    while item[1] is not None:
        item, name, i = item[1]
        parts.append(name if i is None else f"{name}[{i}]")
    return "".join(p + "." for p in reversed(parts))


def _object_start(obj: KaitaiStruct) -> int:
    """Where an object's first field starts (its stream's start if it read nothing)."""
    b = stream_base(obj._io)
    debug = getattr(obj, "_debug", None) or {}
    for d in debug.values():
        if "start" in d and "io" not in d:
            return (b or 0) + d["start"]
    return b or 0


# --------------------------------------------------------------------------- walking


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


def _debug_name(key: str) -> str:
    return key[3:] if key.startswith("_m_") else key


def _value_instances(cls: type) -> list[str]:
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
        name = _debug_name(key)
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
        for name in _value_instances(type(obj)):
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


def _has_open(obj, seen: set[int] | None = None) -> bool:
    """True if ``obj`` or anything below it has a debug entry that started but never ended."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return False
    seen.add(id(obj))
    for k, d in (getattr(obj, "_debug", {}) or {}).items():
        if "start" in d and "end" not in d:
            return True
        val = getattr(obj, k if k.startswith("_m_") else _debug_name(k), None)
        kids = val if isinstance(val, list) else [val]
        if any(isinstance(c, KaitaiStruct) and _has_open(c, seen) for c in kids):
            return True
    return False


def _open_child(obj, debug: dict):
    """The last completed field whose struct (or array element) holds an unfinished instance.

    ``_fetch_instances()`` runs after ``_read()``: an instance that fails (e.g. a
    GNTA reached by an offset) sits below fields whose debug entries are closed.
    """
    for k, d in reversed(list(debug.items())):
        val = getattr(obj, k if k.startswith("_m_") else _debug_name(k), None)
        if isinstance(val, KaitaiStruct) and _has_open(val):
            return k, d, None, val
        if isinstance(val, list):
            for i in range(len(val) - 1, -1, -1):
                if isinstance(val[i], KaitaiStruct) and _has_open(val[i]):
                    return k, d, i, val[i]
    return None


def _at_entry(obj, top: dict, rel: int | None) -> int:
    """Offset of ``rel`` in the stream the entry ``top`` of ``obj`` was read from (processed bytes: where they
    are stored)."""
    b = entry_base(obj, top)
    if b is None:
        io = top.get("io")
        r = stored_range(io if io is not None else obj._io)
        return r[0] if r else 0
    return b + (rel or 0)


def _path_of(root: KaitaiStruct, target: KaitaiStruct) -> str | None:
    """The field path of object ``target`` inside the tree of ``root`` (``None`` if it is not in it)."""
    if target is root:
        return ""
    for f in walk(root, values=False):
        if f.kind == "struct" and f.index is not None and f.obj is not target:
            el = getattr(f.obj, f.name, [None])
            if isinstance(el, list) and f.index < len(el) and el[f.index] is target:
                return f.path
        if f.kind == "struct" and f.index is None:
            val = getattr(f.obj, f"_m_{f.name}", None) or getattr(f.obj, f.name, None)
            if val is target:
                return f.path
    return None


def _recursion(root: KaitaiStruct, exc: BaseException) -> tuple[str, int] | None:
    """For a recursion: the first instance of the generated code that called itself again (path, offset)."""
    seen = set()
    tb = exc.__traceback__
    while tb is not None:
        fr = tb.tb_frame
        me = fr.f_locals.get("self")
        name = fr.f_code.co_name
        if isinstance(me, KaitaiStruct) and not name.startswith("_"):
            key = (id(me), name)
            if key in seen:
                where = _path_of(root, me)
                if where is None:
                    return None
                b = stream_base(me._io)
                return (f"{where}." if where else "") + name, b or 0
            seen.add(key)
        tb = tb.tb_next
    return None


def locate_failure(root: KaitaiStruct, exc: BaseException) -> tuple[str, int]:
    """Field path and offset (in the parsed bytes) of the field being read when ``exc`` was raised.

    A recursion (an instance whose ``pos:`` reads itself) names the instance where it repeated.
    """
    if isinstance(exc, RecursionError):
        found = _recursion(root, exc)
        if found is not None:
            return found
    obj, prefix = root, ""
    path, offset = "", 0
    for _ in range(10_000):
        debug = getattr(obj, "_debug", {}) or {}
        open_items = [(k, d) for k, d in debug.items() if "start" in d and "end" not in d]
        if not open_items:
            nxt = _open_child(obj, debug)
            if nxt is not None:
                k, d, i, child = nxt
                name = _debug_name(k)
                if i is None:
                    path, offset = prefix + name, _at_entry(obj, d, d.get("start", 0))
                else:
                    arr = d.get("arr") or []
                    es = arr[i].get("start") if i < len(arr) else None
                    path = f"{prefix}{name}[{i}]"
                    offset = _at_entry(obj, d, es if es is not None else d.get("start", 0))
                obj, prefix = child, path + "."
                continue
            if debug:  # validation failures happen after `end` is recorded: blame the last field
                k, d = list(debug.items())[-1]
                if not path or path == prefix.rstrip("."):
                    path, offset = prefix + _debug_name(k), _at_entry(obj, d, d.get("start", 0))
            break
        k, d = open_items[-1]
        name = _debug_name(k)
        path, offset = prefix + name, _at_entry(obj, d, d["start"])
        val = getattr(obj, k if k.startswith("_m_") else name, None)
        if isinstance(val, list):
            arr = d.get("arr", [])
            if not arr:
                break
            i = len(arr) - 1
            path = f"{path}[{i}]"
            offset = _at_entry(obj, d, arr[i].get("start", d["start"]))
            if i < len(val) and isinstance(val[i], KaitaiStruct) and "end" not in arr[i]:
                obj, prefix = val[i], path + "."
                continue
            break
        if isinstance(val, KaitaiStruct):
            obj, prefix = val, path + "."
            continue
        break
    return path, offset
