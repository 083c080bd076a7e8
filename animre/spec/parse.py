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
    return root


# --------------------------------------------------------------------------- walking


class Bases:
    """Absolute start offset of every object's stream (by object id)."""

    def __init__(self, root: KaitaiStruct, offset: int = 0):
        self.root = root
        self.offset = offset
        self._io_base: dict[int, int] = {id(root._io): offset}
        self._obj_base: dict[int, int] = {id(root): offset}
        self._scanned: set[int] = set()  # parents whose child streams are registered

    def enter(self, child: KaitaiStruct, parent_base: int, rel_start: int | None) -> int:
        io = getattr(child, "_io", None)
        key = id(io)
        if key not in self._io_base:
            self._io_base[key] = parent_base + (rel_start or 0)
        base = self._io_base[key]
        self._obj_base[id(child)] = base
        return base

    def base(self, obj: KaitaiStruct) -> int:
        """Absolute offset of ``obj``'s stream, found lazily through its ``_parent`` chain."""
        b = self._obj_base.get(id(obj))
        if b is not None:
            return b
        io = getattr(obj, "_io", None)
        if id(io) in self._io_base:
            b = self._obj_base[id(obj)] = self._io_base[id(io)]
            return b
        parent = getattr(obj, "_parent", None)
        if parent is None or parent is obj or not isinstance(parent, KaitaiStruct):
            return self.offset
        pb = self.base(parent)
        if getattr(parent, "_io", None) is io:  # the parent's own stream
            self._obj_base[id(obj)] = pb
            return pb
        if id(parent) in self._scanned:
            return self._io_base.setdefault(id(io), pb)
        self._scanned.add(id(parent))
        # register every child stream of this parent in one pass (arrays of sized records)
        for k, d in (getattr(parent, "_debug", None) or {}).items():
            v = parent.__dict__.get(k)
            if isinstance(v, KaitaiStruct):
                if id(v._io) not in self._io_base and "start" in d:
                    self._io_base[id(v._io)] = pb + d["start"]
            elif isinstance(v, list):
                arr = d.get("arr") or []
                for i, el in enumerate(v):
                    if isinstance(el, KaitaiStruct) and i < len(arr) and id(el._io) not in self._io_base:
                        self._io_base[id(el._io)] = pb + arr[i].get("start", 0)
        return self._io_base.setdefault(id(io), pb)

    def span(self, obj: KaitaiStruct, name: str, index: int | None = None) -> tuple[int | None, int | None]:
        """Absolute ``[start, end)`` of field ``name`` (or its element ``index``) of ``obj``.

        ``(None, None)`` for computed values and fields not read (yet).

        Examples
        --------
        >>> from animre.spec.compiler import load_parser
        >>> root = parse_bytes(open("data/samples/frm/GOBLNFRM.BIN", "rb").read(), load_parser("frm"))
        >>> Bases(root).span(root.sequences[2], "frame_ids", 3)
        (312, 313)
        """
        debug = getattr(obj, "_debug", None)
        d = debug and (debug.get(name) or debug.get(f"_m_{name}"))
        if d and index is not None:
            arr = d.get("arr") or ()
            d = arr[index] if index < len(arr) else None
        if not d:
            return None, None
        b = self.base(obj)
        st, en = d.get("start"), d.get("end")
        return (None if st is None else b + st), (None if en is None else b + en)


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
    yield from _walk(root, "", bases.offset, bases, values, seen)


def _walk(obj, prefix, base, bases, values, seen):
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
        start = d.get("start")
        end = d.get("end")
        is_list = isinstance(val, list)
        is_struct = isinstance(val, KaitaiStruct)
        yield FieldSpan(path, prefix.rstrip("."), name, None, None if (is_list or is_struct) else enum_value(val),
                        None if start is None else base + start, None if end is None else base + end,
                        obj, "array" if is_list else "struct" if is_struct else "value")
        if is_list:
            arr = d.get("arr", [])
            for i, el in enumerate(val):
                ed = arr[i] if i < len(arr) else {}
                es, ee = ed.get("start"), ed.get("end")
                epath = f"{path}[{i}]"
                if isinstance(el, KaitaiStruct):
                    cb = bases.enter(el, base, es)
                    yield FieldSpan(epath, path, name, i, None, None if es is None else base + es,
                                    None if ee is None else base + ee, obj, "struct")
                    yield from _walk(el, epath + ".", cb, bases, values, seen)
                else:
                    yield FieldSpan(epath, path, name, i, enum_value(el), None if es is None else base + es,
                                    None if ee is None else base + ee, obj, "value")
        elif is_struct:
            cb = bases.enter(val, base, start)
            yield from _walk(val, path + ".", cb, bases, values, seen)
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


def locate_failure(root: KaitaiStruct, exc: BaseException) -> tuple[str, int]:
    """Field path and absolute offset of the field being read when ``exc`` was raised."""
    bases = Bases(root)
    obj, prefix, base = root, "", 0
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
                    path, offset = prefix + name, base + d.get("start", 0)
                    base = bases.enter(child, base, d.get("start"))
                else:
                    arr = d.get("arr") or []
                    es = arr[i].get("start") if i < len(arr) else None
                    path = f"{prefix}{name}[{i}]"
                    offset = base + (es if es is not None else d.get("start", 0))
                    base = bases.enter(child, base, es)
                obj, prefix = child, path + "."
                continue
            if debug:  # validation failures happen after `end` is recorded: blame the last field
                k, d = list(debug.items())[-1]
                if not path or path == prefix.rstrip("."):
                    path, offset = prefix + _debug_name(k), base + d.get("start", 0)
            break
        k, d = open_items[-1]
        name = _debug_name(k)
        path, offset = prefix + name, base + d["start"]
        val = getattr(obj, k if k.startswith("_m_") else name, None)
        if isinstance(val, list):
            arr = d.get("arr", [])
            if not arr:
                break
            i = len(arr) - 1
            path = f"{path}[{i}]"
            offset = base + arr[i].get("start", d["start"])
            if i < len(val) and isinstance(val[i], KaitaiStruct) and "end" not in arr[i]:
                child = val[i]
                base = bases.enter(child, base, arr[i].get("start"))
                obj, prefix = child, path + "."
                continue
            break
        if isinstance(val, KaitaiStruct):
            base = bases.enter(val, base, d["start"])
            obj, prefix = val, path + "."
            continue
        break
    return path, offset
