"""Column-wise evaluation over the records of a fixed layout: the parts of :mod:`animre.tables.fixed` that
read a file's bytes into arrays and evaluate a spec's expressions over them.

A type's records in one file are a :class:`Rows` (where each record starts,
the stream it was read from, its parent record, its params); a field's
values over them are one gather from the file's bytes (:func:`gather`); an
instance's or a ``valid: expr``'s expression is compiled once by
:func:`compile_columnwise` into a function over whole columns, whose names
and attributes :class:`Resolver` resolves. What cannot be evaluated so
raises :class:`Unsupported`: the caller then reads the file with the Kaitai
parse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..base.errors import UsageError
from ..spec.expr import compile_row_expr
from ..spec.layout import Layout, Slot, numpy_dtype
from ..spec.numbers import spec_int

__all__ = ["Unsupported", "Rows", "root_rows", "child_rows", "gather", "cut_all", "FileValues", "Resolver",
           "compile_columnwise",
           "ValueOf", "const", "is_record"]

_TERNARY = re.compile(r"^([^?:]+)\?([^?:]+):([^?:]+)$")


class Unsupported(Exception):
    """A construct the fixed reader does not read (at build time: no reader; at read time: the Kaitai parse)."""


@dataclass
class Rows:
    """Records of one type in the files being read, as arrays over the records: where each starts, the
    stream it was read from (start and end), its file, its parent record and what it was passed."""

    layout: Layout
    offsets: np.ndarray  # absolute start of each record (in the bytes of every file read, one after another)
    bases: np.ndarray  # absolute start of the stream each record was read from
    ends: np.ndarray  # absolute end of that stream
    file: np.ndarray  # the file (0, 1, ...) each record is in
    parent: Rows | None
    parent_row: np.ndarray | None  # the parent record of each record
    params: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def n(self) -> int:
        return len(self.offsets)


def root_rows(layout: Layout, starts: np.ndarray, sizes: np.ndarray) -> Rows:
    """The root records of files laid one after another from ``starts``, of ``sizes`` bytes."""
    return Rows(layout, starts, starts, starts + sizes, np.arange(len(starts), dtype=np.int32), None, None)


def child_rows(layouts: dict, rows: Rows, slot: Slot, index: int | None) -> Rows:
    """The records of a user-type field (element ``index`` of an array, or all elements when None)."""
    sub = layouts[slot.user]
    if slot.count is None or index is not None:
        at = rows.offsets + slot.offset + (index or 0) * slot.size
        parent_row = np.arange(rows.n)
        elem = np.full(rows.n, index or 0)
    else:
        k = slot.count
        at = (rows.offsets[:, None] + slot.offset + np.arange(k)[None, :] * slot.size).ravel()
        parent_row = np.repeat(np.arange(rows.n), k)
        elem = np.tile(np.arange(k), rows.n)
    if slot.substream:
        bases, ends = at.copy(), at + slot.size
    else:
        bases, ends = rows.bases[parent_row], rows.ends[parent_row]
    params = {}
    for p, a in zip(sub.params, slot.args):
        if a == "_index":
            params[p] = elem.astype(object)
        elif spec_int(a) is not None:
            params[p] = np.full(len(at), spec_int(a), dtype=object)
        else:
            raise Unsupported(f"argument {a!r} of {slot.id}")
    return Rows(sub, at, bases, ends, rows.file[parent_row], rows, parent_row, params)


def gather(buf: np.ndarray, offsets: np.ndarray, dtype: str) -> np.ndarray:
    """Values of ``dtype`` at ``offsets`` (any shape) of the file's bytes, as an array of that shape."""
    width = np.dtype(dtype).itemsize
    flat = offsets.reshape(-1)
    if width == 1:
        got = buf[flat].view(dtype)
    else:
        got = np.ascontiguousarray(buf[flat[:, None] + np.arange(width)]).view(dtype).reshape(-1)
    return got.reshape(offsets.shape)


def cut_all(raw: dict, blobs: list[bytes]) -> list[bytes]:
    """Values of a sized field as the parser keeps them: ``pad-right`` stripped, then cut at its
    ``terminator`` (read once for all the values)."""
    pad, term = raw.get("pad-right"), raw.get("terminator")
    if pad is not None:
        pad_b = bytes([spec_int(pad)])
        blobs = [b.rstrip(pad_b) for b in blobs]
    if term is not None:
        term_b, keep = bytes([spec_int(term)]), 1 if raw.get("include") else 0
        out = []
        for b in blobs:
            i = b.find(term_b)
            out.append(b[:i + keep] if i >= 0 else b)
        blobs = out
    return blobs


class FileValues:
    """The files being read (their bytes one after another): the values of every field asked for, each read
    once.

    ``reader`` is the :class:`animre.tables.fixed.FixedReader` reading them
    (its ``expression`` and ``encoding``); ``child`` makes (and keeps) the
    records of a user-type field; ``root`` is the files' root records.
    """

    def __init__(self, reader, data: bytes, root: Rows, child):
        self.reader, self.data, self.root, self.child = reader, data, root, child
        self.buf = np.frombuffer(data, dtype=np.uint8)
        self.memo: dict = {}

    def values(self, rows: Rows, slot: Slot) -> np.ndarray | Rows:
        """A field's values over ``rows``: (n,) or (n, count) object arrays; a nested type's records."""
        key = (id(rows), slot.id)
        got = self.memo.get(key)
        if got is not None:
            return got[0]
        if slot.kind == "user":
            if slot.count is not None:
                raise Unsupported(f"{slot.id}: an array of records in an expression")
            got = self.child(rows, slot, None)
        elif slot.kind == "eos":
            got = np.array([self.data[a:e] for a, e in zip((rows.offsets + slot.offset).tolist(),
                                                           rows.ends.tolist())] + [None], dtype=object)[:-1]
        elif slot.kind == "num":
            got = np.array(self.numbers(rows, slot).tolist(), dtype=object)
        else:
            got = self.read_at(slot, self.places(rows, slot))
        self.memo[key] = (got, rows)  # rows kept alive: its id stays unique while memoised
        return got

    @staticmethod
    def places(rows: Rows, slot: Slot) -> np.ndarray:
        """Where a field's values start: (n,), or (n, count) for an array."""
        at = rows.offsets + slot.offset
        if slot.count is not None:
            at = at[:, None] + np.arange(slot.count)[None, :] * slot.size
        return at

    def numbers(self, rows: Rows, slot: Slot) -> np.ndarray:
        """A number field's values as a numpy array of its own dtype."""
        key = (id(rows), slot.id, "typed")
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = (gather(self.buf, self.places(rows, slot), slot.dtype), rows)
        return got[0]

    def read_at(self, slot: Slot, at: np.ndarray) -> np.ndarray:
        if slot.kind == "num":
            return np.array(gather(self.buf, at, slot.dtype).tolist(), dtype=object).reshape(at.shape)
        size, data = slot.size, self.data
        got = [data[a:a + size] for a in at.reshape(-1).tolist()]
        if slot.kind in ("bytes", "str"):
            got = cut_all(slot.raw, got)
        if slot.kind == "str":
            enc = str(slot.raw.get("encoding") or self.reader.encoding)
            got = [b.decode(enc) for b in got]
        return np.array(got + [None], dtype=object)[:-1].reshape(at.shape)

    def instance(self, rows: Rows, iid: str):
        key = (id(rows), "_m_" + iid)
        got = self.memo.get(key)
        if got is not None:
            return got[0]
        a = rows.layout.instances[iid]
        if "value" in a:
            got = self.reader.expression(str(a["value"]))(self, rows)
            if not isinstance(got, np.ndarray):
                got = np.array([got] * rows.n + [None], dtype=object)[:-1]
        else:
            dt = numpy_dtype(str(a.get("type")), rows.layout.endian) if a.get("type") else None
            at = rows.bases + spec_int(a["pos"])
            size = np.dtype(dt).itemsize if dt is not None else spec_int(a["size"])
            if np.any(at + size > rows.ends):
                raise Unsupported(f"instance {iid} past the end of its stream")
            if dt is not None:
                got = np.array(gather(self.buf, at, dt).tolist(), dtype=object)
            else:
                got = np.array(cut_all(a, [self.data[p:p + size] for p in at.tolist()]) + [None], dtype=object)[:-1]
        self.memo[key] = (got, rows)
        return got


class Resolver:
    """What ``compile_row_expr``'s functions call: names and attributes over a record's columns."""

    def __init__(self, file: FileValues, rows: Rows):
        self.file, self.rows = file, rows

    def _lookup(self, rows: Rows, name: str):
        lay = rows.layout
        if name == "_parent":
            if rows.parent is None:
                raise Unsupported("_parent of the root")
            return _Up(rows)
        if name == "_root":
            return self.file.root
        if name in rows.params:
            return rows.params[name]
        if name in lay.slots:
            return self.file.values(rows, lay.slots[name])
        if name in lay.instances:
            return self.file.instance(rows, name)
        if name == "_file_size" or (name == "_io" and rows.parent is None):
            root = self.file.root
            return _RootStream(np.array((root.ends - root.offsets)[rows.file].tolist() + [None], dtype=object)[:-1])
        raise Unsupported(f"name {name!r}")

    def name(self, name: str):
        return self._lookup(self.rows, name)

    def attr(self, value, name: str):
        if isinstance(value, _Up):
            return _Lifted(self._lookup(value.rows.parent, name), value.rows.parent_row)
        if isinstance(value, Rows):
            return self._lookup(value, name)
        if isinstance(value, _RootStream) and name == "size":
            return value.size
        if isinstance(value, np.ndarray) and value.ndim == 2:
            if name in ("size", "length"):
                return value.shape[1]
            if value.shape[1] and name in ("first", "last"):
                return value[:, 0 if name == "first" else -1]
            if value.shape[1] and name in ("min", "max"):
                pick = min if name == "min" else max
                return np.array([pick(r) for r in value.tolist()] + [None], dtype=object)[:-1]
        if isinstance(value, np.ndarray) and value.ndim == 1 and name in ("size", "length"):
            items = value.tolist()
            if set(map(type, items)) <= {bytes, str} or all(isinstance(x, (bytes, str)) for x in items):
                return np.array(list(map(len, items)) + [None], dtype=object)[:-1]
        raise Unsupported(f".{name}")

    def item(self, value, index):
        if isinstance(value, _Lifted) and isinstance(value.values, np.ndarray) and value.values.ndim == 2:
            rows_of = value.parent_row
            arr = value.values
        elif isinstance(value, np.ndarray) and value.ndim == 2:
            rows_of, arr = np.arange(value.shape[0]), value
        else:
            raise Unsupported("an index into something that is not an array of numbers")
        idx = np.asarray(index, dtype=object)
        idx = np.broadcast_to(idx, rows_of.shape).astype(np.int64)
        if len(idx) and (idx.min() < 0 or idx.max() >= arr.shape[1]):
            raise Unsupported("an index outside its array")
        return arr[rows_of, idx]

    def slice(self, value, start, stop):
        raise Unsupported("a slice")

    def ref(self, _k: int, value):
        if isinstance(value, _Lifted):
            if isinstance(value.values, np.ndarray) and value.values.ndim == 1:
                return value.values[value.parent_row]
            raise Unsupported("a record of the parent")
        if isinstance(value, (Rows, _Up)):
            raise Unsupported("a record as a value")
        if isinstance(value, _RootStream):
            return value.size  # ``_file_size``
        return value


@dataclass
class _RootStream:
    size: np.ndarray  # the file's, per record: ``_io`` of the root, and ``_file_size``


def is_record(value) -> bool:
    """Whether an evaluated value is records (or a reference to them) rather than values."""
    return isinstance(value, (Rows, _Up, _Lifted))


@dataclass
class _Up:
    rows: Rows  # whose parent is meant


@dataclass
class _Lifted:
    values: object  # a field of the parent records
    parent_row: np.ndarray  # the parent record of each record



@dataclass
class ValueOf:
    """The records of a field being validated: ``_`` in a ``valid: expr``."""

    rows: Rows
    value: np.ndarray


def const(x):
    n = spec_int(x)
    if n is None:
        raise Unsupported(f"valid value {x!r}")
    return n


def compile_columnwise(text: str, enums: dict):
    """A Kaitai expression as a function of (file, records) evaluated column-wise; Unsupported when it
    cannot be (a ``? :`` is split here: the one the compiler's expression language adds to Python's)."""
    m = _TERNARY.match(text.strip())
    parts = [m.group(1), m.group(2), m.group(3)] if m else [text]
    try:
        fns = [compile_row_expr(p.strip(), "fixed layout", enums)[0] for p in parts]
    except UsageError as e:
        raise Unsupported(str(e)) from None

    def run(f: FileValues, rows):
        if isinstance(rows, ValueOf):
            r = _ValueResolver(f, rows)
        else:
            r = Resolver(f, rows)
        got = [fn(r) for fn in fns]
        if m:
            cond = np.asarray(got[0], dtype=object).astype(bool)
            return np.where(cond, np.asarray(got[1], dtype=object), np.asarray(got[2], dtype=object))
        return got[0]

    return run


class _ValueResolver(Resolver):
    def __init__(self, file: FileValues, v: ValueOf):
        super().__init__(file, v.rows)
        self.v = v

    def name(self, name: str):
        if name == "_":
            return _Underscore(self.v.value)
        return super().name(name)

    def attr(self, value, name: str):
        if isinstance(value, _Underscore):
            if name in ("size", "length"):
                return np.array([len(x) for x in value.values.tolist()] + [None], dtype=object)[:-1]
            raise Unsupported(f"_.{name}")
        return super().attr(value, name)

    def ref(self, k: int, value):
        if isinstance(value, _Underscore):
            return value.values
        return super().ref(k, value)


@dataclass
class _Underscore:
    values: np.ndarray
