"""Where a parse failed: the field path and offset of the field being read, and every failing instance.

A failed ``_read()`` leaves debug entries that started but never ended:
:func:`locate_failure` follows them down to the field being read (a
recursion: the instance that called itself again). :func:`value_failures`
reads every instance of a parsed tree, as a Kaitai user asking for them
would, so an outcome equals the ordinary compile's.
"""

from __future__ import annotations

import ast
import linecache
import re
import types

from kaitaistruct import KaitaiStruct

from ..base.errors import ParseError
from .ranges import debug_name, value_instances, walk
from .streams import entry_base, stored_range, stream_base

__all__ = ["locate_failure", "value_failures", "failure_reason", "MAX_VALUE_FAILURES"]


def failure_reason(exc: BaseException) -> str:
    """``Type: message`` of an exception (a recursion said in words)."""
    name = type(exc).__name__
    msg = str(exc) or repr(exc)
    if isinstance(exc, RecursionError):
        msg = "structure nests too deeply (self-referencing offsets?)"
    return f"{name}: {msg}"


#: Distinct failing value instances reported per file (one per type and instance; the rest are alike).
MAX_VALUE_FAILURES = 8


_PROPS: dict[type, tuple[str, ...]] = {}


def _props(cls: type, cache: dict = _PROPS) -> tuple[str, ...]:
    """The value instances of a parser class: its properties that ``_fetch_instances`` does not read."""
    out = cache.get(cls)
    if out is None:
        fetch = getattr(cls, "_fetch_instances", None)
        fetched = set(getattr(getattr(fetch, "__code__", None), "co_names", ()))
        out = cache[cls] = tuple(n for n in value_instances(cls) if n not in fetched)
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


def value_failures(root: KaitaiStruct, file: str = "<bytes>", complete: bool = False) -> list[ParseError]:
    """Every instance of the tree that raises when read (value instances included), as ParseErrors.

    ``_fetch_instances()`` reads only positional instances; a Kaitai user who
    asks for a value instance (``bmp``'s ``is_color_mask_here`` on an OS/2
    header) gets the exception the generated code raises there. This reads
    every instance of every object once, so an outcome equals the ordinary
    compile's; one error per type and instance name (at most
    :data:`MAX_VALUE_FAILURES`), naming the instance's path and the offset
    of its object.

    ``complete``: every object of the tree read all of its ``seq`` (``_read()`` and ``_fetch_instances()``
    returned). A value instance that cannot raise then (:func:`_cannot_raise`: integer arithmetic over
    numbers its object always reads) is not asked for, and objects from which no other instance can be
    reached are not visited: what is reported is the same.
    """
    out: list[ParseError] = []
    if not _has_values(type(root)):
        return out
    props_of, visit = (_risky, _reaches_risk) if complete else (_props, None)
    if visit is not None and not visit(type(root)):
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
        for name in props_of(t):
            if f"_m_{name}" in obj.__dict__ or (type(obj), name) in seen_kind:
                continue
            try:
                getattr(obj, name)
            except Exception as exc:  # noqa: BLE001 - every failure is reported with its location
                seen_kind.add((type(obj), name))
                out.append(ParseError(file, _path(item) + name, _object_start(obj), "instance: " + failure_reason(exc),
                                      partial=root))
        d = obj.__dict__
        for k in (getattr(obj, "_debug", None) or ()):
            v = d.get(k)
            if isinstance(v, KaitaiStruct):
                if visit is None or visit(type(v)):
                    stack.append((v, (item, debug_name(k), None)))
            elif isinstance(v, list) and v:
                first = next((el for el in v if el is not None), None)
                if isinstance(first, KaitaiStruct):  # arrays of numbers and bytes hold no instances
                    nm = debug_name(k)
                    stack.extend((el, (item, nm, i)) for i, el in reversed(list(enumerate(v)))
                                 if isinstance(el, KaitaiStruct) and (visit is None or visit(type(el))))
    return out


# ----------------------------------------------------------------------------- instances that cannot fail

_RISKY: dict[type, tuple[str, ...]] = {}
_REACH: dict[type, bool] = {}
_INT_READ = re.compile(r"^read_(?:[us][1248](?:le|be)?|bits_int_(?:be|le))$")
_SAFE_BIN = (ast.Add, ast.Sub, ast.Mult, ast.BitAnd, ast.BitOr, ast.BitXor)
_SAFE_CMP = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_SAFE_UNARY = (ast.USub, ast.UAdd, ast.Invert, ast.Not)
_MODULE_CLASSES: dict[tuple[str, int], dict[str, ast.ClassDef]] = {}


def _class_def(cls: type) -> ast.ClassDef | None:
    """The generated source of a parser class (from the module's file, or the source kept for a compiled one)."""
    g = getattr(getattr(cls, "_read", None), "__globals__", None) or {}
    path = g.get("__file__")
    if not path:
        return None
    lines = linecache.getlines(path)
    if not lines:
        return None
    key = (path, hash("".join(lines)))
    found = _MODULE_CLASSES.get(key)
    if found is None:
        found = {}
        try:
            tree = ast.parse("".join(lines))
        except SyntaxError:
            tree = ast.Module(body=[], type_ignores=[])
        todo = [(n, "") for n in tree.body]
        while todo:
            n, prefix = todo.pop()
            if isinstance(n, ast.ClassDef):
                found[prefix + n.name] = n
                todo.extend((b, f"{prefix}{n.name}.") for b in n.body)
        if len(_MODULE_CLASSES) > 16:  # a module's syntax tree is large; its classes are asked for once
            _MODULE_CLASSES.clear()
        _MODULE_CLASSES[key] = found
    return found.get(cls.__qualname__)


def _methods(node: ast.ClassDef) -> dict[str, ast.FunctionDef]:
    return {f.name: f for f in node.body if isinstance(f, ast.FunctionDef)}


def _self_attr(n: ast.AST) -> str | None:
    if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self":
        return n.attr
    return None


def _int_fields(read: ast.FunctionDef | None) -> set[str]:
    """Fields ``_read()`` always sets to an integer: a number read at its top level (no ``if``, loop or
    ``try`` around it, no enum), or in a run of numbers (:func:`animre.spec.streams.run_source`: both of its
    branches set the same fields, the field-by-field one as here)."""
    out: set[str] = set()
    todo = list(read.body) if read is not None else []
    while todo:
        st = todo.pop(0)
        if (isinstance(st, ast.If) and isinstance(st.test, ast.Compare) and isinstance(st.test.left, ast.Name)
                and st.test.left.id == "_animre_r" and isinstance(st.test.ops[0], ast.Is)):
            todo[:0] = st.body
            continue
        if (isinstance(st, ast.Assign) and len(st.targets) == 1 and _self_attr(st.targets[0])
                and isinstance(st.value, ast.Call) and not st.value.args and not st.value.keywords
                and isinstance(st.value.func, ast.Attribute) and _self_attr(st.value.func.value) == "_io"
                and _INT_READ.match(st.value.func.attr)):
            out.add(_self_attr(st.targets[0]))
    return out


def _value_expr(fn: ast.FunctionDef, name: str) -> ast.AST | None:
    """The expression of a generated value instance (``if hasattr(self, '_m_x'): return ...``, then
    ``self._m_x = <expression>``, then the return); None for any other body."""
    body = [st for st in fn.body if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))]
    if len(body) != 3 or not isinstance(body[0], ast.If) or not isinstance(body[2], ast.Return):
        return None
    test = body[0].test
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "hasattr"
            and len(test.args) == 2 and isinstance(test.args[1], ast.Constant) and test.args[1].value == f"_m_{name}"):
        return None
    st = body[1]
    if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and _self_attr(st.targets[0]) == f"_m_{name}"):
        return None
    return st.value


def _cannot_raise(cls: type) -> frozenset[str]:
    """The value instances of ``cls`` that cannot raise once its ``_read()`` returned: integer expressions
    (constants, ``+ - * & | ^ ~``, comparisons, ``and``/``or``/``not``, ``c ? a : b``, shifts by a constant of
    at most 1024, ``//`` and ``%`` by a non-zero constant) over numbers ``_read()`` always reads and over such
    instances of the same object. What the generated code says, read from its source; anything else may
    raise."""
    node = _class_def(cls)
    if node is None:
        return frozenset()
    methods = _methods(node)
    ints = _int_fields(methods.get("_read"))
    props = set(_props(cls))
    state: dict[str, bool] = {}

    def safe_prop(name: str) -> bool:
        if name not in state:
            state[name] = False  # a cycle is not proven
            fn = methods.get(name)
            e = _value_expr(fn, name) if fn is not None else None
            state[name] = e is not None and safe(e)
        return state[name]

    def safe(n: ast.AST) -> bool:
        if isinstance(n, ast.Constant):
            return type(n.value) in (int, bool)
        a = _self_attr(n)
        if a is not None:
            return a in ints or (a in props and safe_prop(a))
        if isinstance(n, ast.BinOp):
            if not (safe(n.left) and safe(n.right)):
                return False
            if isinstance(n.op, _SAFE_BIN):
                return True
            k = n.right.value if isinstance(n.right, ast.Constant) and type(n.right.value) is int else None
            if isinstance(n.op, (ast.LShift, ast.RShift)):
                return k is not None and 0 <= k <= 1024
            return isinstance(n.op, (ast.FloorDiv, ast.Mod)) and k not in (None, 0)
        if isinstance(n, ast.UnaryOp):
            return isinstance(n.op, _SAFE_UNARY) and safe(n.operand)
        if isinstance(n, ast.Compare):
            return all(isinstance(o, _SAFE_CMP) for o in n.ops) and all(map(safe, [n.left, *n.comparators]))
        if isinstance(n, ast.BoolOp):
            return all(map(safe, n.values))
        if isinstance(n, ast.IfExp):
            return safe(n.test) and safe(n.body) and safe(n.orelse)
        return False

    return frozenset(p for p in props if safe_prop(p))


def _risky(cls: type) -> tuple[str, ...]:
    """The value instances of ``cls`` that :func:`value_failures` asks for in a complete tree."""
    out = _RISKY.get(cls)
    if out is None:
        safe = _cannot_raise(cls)
        out = _RISKY[cls] = tuple(p for p in _props(cls) if p not in safe)
    return out


def _children(cls: type) -> set[type] | None:
    """The parser classes whose objects ``cls``'s code makes (its fields, elements, instances); None when a
    call of it names something that cannot be told."""
    node = _class_def(cls)
    g = getattr(getattr(cls, "_read", None), "__globals__", None)
    if node is None or g is None:
        return None
    out: set[type] = set()
    for fn in _methods(node).values():
        for n in ast.walk(fn):
            if not isinstance(n, ast.Call):
                continue
            chain, f = [], n.func
            while isinstance(f, ast.Attribute):
                chain.append(f.attr)
                f = f.value
            if not isinstance(f, ast.Name) or f.id not in g:
                continue  # a method of self or of a stream, a local, a builtin
            obj = g[f.id]
            try:
                for a in reversed(chain):
                    obj = getattr(obj, a)
            except AttributeError:
                return None
            if isinstance(obj, type) and issubclass(obj, KaitaiStruct):
                out.add(obj)
    return out


def _reaches_risk(cls: type) -> bool:
    """Whether an object of ``cls``, or one below it, may have an instance :func:`value_failures` asks for."""
    got = _REACH.get(cls)
    if got is None:
        seen, todo, got = {cls}, [cls], False
        while todo and not got:
            c = todo.pop()
            kids = _children(c)
            got = kids is None or bool(_risky(c))
            for k in kids or ():
                if k not in seen:
                    seen.add(k)
                    todo.append(k)
        _REACH[cls] = got
    return got


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


def _has_open(obj, seen: set[int] | None = None) -> bool:
    """True if ``obj`` or anything below it has a debug entry that started but never ended."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return False
    seen.add(id(obj))
    for k, d in (getattr(obj, "_debug", {}) or {}).items():
        if "start" in d and "end" not in d:
            return True
        val = getattr(obj, k if k.startswith("_m_") else debug_name(k), None)
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
        val = getattr(obj, k if k.startswith("_m_") else debug_name(k), None)
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
                name = debug_name(k)
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
                    path, offset = prefix + debug_name(k), _at_entry(obj, d, d.get("start", 0))
            break
        k, d = open_items[-1]
        name = debug_name(k)
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
