"""The fast path: a file of a fixed layout read into its tables with numpy, without the Kaitai parse.

When every table of a spec's plan sits in types of a fixed layout
(:func:`animre.spec.layout.fixed_layouts`), every cell's byte range is known
before a file is read: the record offsets of each table, then each column's
offset in its record. Reading a file is then one gather per column from the
file's bytes, and the value instances are evaluated column by column over
Python integers (object arrays, so results equal the parser's properties).
What the Kaitai parse would check is checked too (``contents``, ``valid``,
every instance evaluated); a file where anything fails, or that is shorter
than its layout, is read by the Kaitai parse instead, which gives its exact
error: :meth:`FixedReader.read` returns None for it. A spec with a
construct the reader does not know gets no reader (:func:`fixed_reader`
says why), so the Kaitai parse stays the reference and the fallback.
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass

import numpy as np

from ..base import yamlio
from ..spec.compiler import KSY_DIR
from ..spec.layout import Layout, Slot, contents_bytes, fixed_layouts, numpy_dtype
from ..spec.model import load_model
from ..spec.numbers import spec_int
from .columnwise import (
    FileValues,
    Rows,
    Unsupported,
    ValueOf,
    child_rows,
    compile_columnwise,
    const,
    gather,
    is_record,
    root_rows,
)
from .flattener import Chunk
from .plan import Plan, TablePlan

__all__ = ["FixedReader", "fixed_reader", "why_not"]


@dataclass
class _TableRows:
    """How one table's rows sit in the files read: its records, or the elements of a primitive array."""

    plan: TablePlan
    keys: list[tuple]  # the key columns' values of one file's rows
    rows: Rows | None  # the records (None for a primitive array's elements)
    holder: Rows | None = None  # a primitive array's holder records
    slot: Slot | None = None  # the primitive array


class _Placement:
    """Where every record of some files sits (files of these sizes, one after another): the root records,
    each table's rows, and the records of every user-type field, each made once."""

    def __init__(self, reader: FixedReader, sizes: np.ndarray):
        self.reader = reader
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        self.root = root_rows(reader.root, starts, sizes.astype(np.int64))
        self.children: dict[tuple, tuple] = {}
        self.tables = self._place()

    def child(self, rows: Rows, slot: Slot, index: int | None) -> Rows:
        key = (id(rows), slot.id, index)
        got = self.children.get(key)
        if got is None:
            got = self.children[key] = (child_rows(self.reader.layouts, rows, slot, index), rows)
        return got[0]

    def _place(self) -> dict[str, _TableRows]:
        out: dict[str, _TableRows] = {}
        for t in self.reader.plan.tables.values():
            if t.where is not None:
                raise Unsupported(f"{t.name}: -animre-where")
            if t.parent is None:
                out[t.name] = _TableRows(t, [()], self.root)
                continue
            parent = out[t.parent]
            if parent.rows is None:
                raise Unsupported(f"{t.name}: a table inside a primitive array")
            holder = parent.rows
            *path, (arr, _) = t.steps
            for attr, idx in path:
                holder = self.child(holder, _slot(holder.layout, attr, "user"), idx)
            slot = _slot(holder.layout, arr, None)
            if slot.count is None:
                raise Unsupported(f"{t.name}: {arr} is not an array")
            keys = [k + (i,) for k in parent.keys for i in range(slot.count)]
            if t.primitive is not None:
                out[t.name] = _TableRows(t, keys, None, holder, slot)
            elif slot.kind == "user":
                out[t.name] = _TableRows(t, keys, self.child(holder, slot, None))
            else:
                raise Unsupported(f"{t.name}: rows of {slot.kind}")
        return out


_READ_ERRORS = (Unsupported, UnicodeDecodeError, LookupError, ArithmeticError, TypeError, ValueError)


class FixedReader:
    """Reads the tables of one spec's files of a fixed layout; built once per plan by :func:`fixed_reader`.

    :meth:`read` reads one file into per-file chunks (what the Kaitai path
    gives); :meth:`read_many` reads many files at once, each column one
    gather over all of them, into one chunk per table with the file of each
    row (what a corpus scan gathers).
    """

    def __init__(self, plan: Plan, layouts: dict, root: Layout, enums: dict, encoding: str | None):
        self.plan, self.layouts, self.root, self.enums, self.encoding = plan, layouts, root, enums, encoding
        self._exprs: dict[str, object] = {}
        self._names: dict[str, dict[int, str]] = {}
        self._single: dict[int, _Placement] = {}  # one file's placement by its size
        self.min_size = root.size
        _Placement(self, np.array([root.size]))  # what cannot be placed is known now: no reader

    def expression(self, text: str):
        fn = self._exprs.get(text)
        if fn is None:
            fn = self._exprs[text] = compile_columnwise(text, self.enums)
        return fn

    def read(self, data: bytes) -> dict[str, Chunk] | None:
        """The tables of one file, or None when the Kaitai parse must read it (its error is the parse's)."""
        if len(data) < self.min_size:
            return None
        place = self._single.get(len(data))
        if place is None:
            if len(self._single) > 64:
                self._single.clear()
            place = self._single[len(data)] = _Placement(self, np.array([len(data)]))
        f = FileValues(self, data, place.root, place.child)
        try:
            self._check(f, place, place.root)
            return {name: self._table(f, place, tr, False)[1] for name, tr in place.tables.items()}
        except _READ_ERRORS:
            return None

    def read_many(self, blobs: list[bytes]) -> dict[str, tuple[np.ndarray, Chunk]] | None:
        """The tables of several files at once: table -> (file index of each row, chunk of every row, file
        after file, in the order of ``blobs``); None when any file is not read by the fast path (read them
        one by one: :meth:`read`, then the Kaitai parse). Number cells are numpy arrays (int64, float64)."""
        sizes = np.array([len(b) for b in blobs], dtype=np.int64)
        if not len(blobs) or int(sizes.min()) < self.min_size:
            return None
        try:
            place = _Placement(self, sizes)
            f = FileValues(self, b"".join(blobs), place.root, place.child)
            self._check(f, place, place.root)
            return {name: self._table(f, place, tr, True) for name, tr in place.tables.items()}
        except _READ_ERRORS:
            return None

    def _check(self, f: FileValues, place: _Placement, rows: Rows) -> None:
        """What the Kaitai parse checks: contents, valid, every instance (which it evaluates too)."""
        for s in rows.layout.slots.values():
            if s.kind == "contents":
                want = np.frombuffer(contents_bytes(s.raw), dtype=np.uint8)
                at = f.places(rows, s).reshape(-1)
                if len(at) and not np.array_equal(f.buf[at[:, None] + np.arange(len(want))],
                                                  np.broadcast_to(want, (len(at), len(want)))):
                    raise Unsupported("contents")
            if "valid" in s.raw and not _valid(self, f, rows, s):
                raise Unsupported("valid")
            if s.kind == "user":
                self._check(f, place, place.child(rows, s, None))
        for iid in rows.layout.instances:
            f.instance(rows, iid)

    def _table(self, f: FileValues, place: _Placement, tr: _TableRows, typed: bool) -> tuple[np.ndarray, Chunk]:
        t = tr.plan
        cols = t.columns + t.extents
        file = tr.rows.file if tr.rows is not None else np.repeat(tr.holder.file, tr.slot.count)
        n = len(file)
        nfiles = len(place.root.offsets)
        data: dict[str, object] = {k: [kk[j] for kk in tr.keys] for j, k in enumerate(t.keys)}
        if typed:  # the same keys in every file
            data = {k: np.tile(np.array(v, dtype=np.int64), nfiles) for k, v in data.items()}
        # offsets relative to each row's file, int32 (-1: none), written column by column
        st = np.empty((len(cols), n), dtype=np.int32)
        en = np.empty((len(cols), n), dtype=np.int32)
        base = size = None
        small = not n or int(place.root.ends[-1]) < 2**31  # every offset of the batch fits int32 as it is
        for j, c in enumerate(cols):
            vals, s, e = self._column(f, place, tr, c, typed)
            if j < len(t.columns):
                data[c.name] = vals
            if s is None:
                st[j] = en[j] = -1
                continue
            if base is None:
                base = place.root.offsets[file]
            if small:  # relative offsets written straight into the int32 rows
                s = np.subtract(np.broadcast_to(s, (n,)), base, out=st[j], casting="unsafe")
                if isinstance(e, int):
                    e = np.add(s, e, out=en[j])
                else:
                    e = np.subtract(np.broadcast_to(e, (n,)), base, out=en[j], casting="unsafe")
            else:
                s = np.broadcast_to(s, (n,)) - base
                e = s + e if isinstance(e, int) else np.broadcast_to(e, (n,)) - base
            bad = None
            # before the file's bytes, or past its end: none (every file read is at least min_size bytes long:
            # ranges inside the first min_size bytes are inside their file)
            if n and (s.min() < 0 or max(s.max(), e.max()) > self.min_size):
                if size is None:
                    size = (place.root.ends - place.root.offsets)[file]
                bad = (s < -base) | (s > size) | (e > size)
            if c.role == "enum_name":  # a value no member names has no name, and so no range
                none = np.array([v is None for v in vals], dtype=bool)
                bad = none if bad is None else bad | none
            if bad is not None and bad.any():
                s[bad] = e[bad] = -1
            if not small:
                st[j], en[j] = s, e
        return file, Chunk(list(data), data, [c.name for c in cols], st, en, n)

    def _column(self, f: FileValues, place: _Placement, tr: _TableRows, c, typed: bool):
        """A column's values, starts and ends (an array, or an int: the width of every cell, end = start +
        width), or ``None, None`` for a cell without bytes of its own."""
        if tr.rows is None:  # the elements of a primitive array
            h, s = tr.holder, tr.slot
            at = f.places(h, s).ravel()
            if typed and s.kind == "num" and _typed_ok(s.dtype):
                return _wide(gather(f.buf, at, s.dtype)), at, int(s.size)
            return self._cells(c, f.read_at(s, at)), at, int(s.size)
        rows = tr.rows
        *path, (attr, idx) = c.steps
        for a, i in path:
            rows = place.child(rows, _slot(rows.layout, a, "user"), i)
        lay = rows.layout
        if attr in lay.slots:
            s = lay.slots[attr]
            start = rows.offsets + s.offset
            if s.kind == "eos":
                return self._cells(c, f.values(rows, s)), start, rows.ends
            if s.kind == "user":
                raise Unsupported(f"{c.name}: a record as a cell")
            if idx is not None:
                if s.count is None or idx >= s.count:
                    raise Unsupported(f"{c.name}: no element {idx}")
                start = start + idx * s.size
                if typed and s.kind == "num" and _typed_ok(s.dtype) and c.role == "value":
                    return _wide(f.numbers(rows, s)[:, idx]), start, int(s.size)
                return self._cells(c, f.read_at(s, start)), start, int(s.size)
            if s.count is not None:  # one cell holding the list
                vals = f.values(rows, s)
                lists = [list(r) for r in vals.tolist()] if vals.size else [[] for _ in range(rows.n)]
                return [self._cells(c, np.array(v + [None], dtype=object)[:-1]) for v in lists], \
                    start, int(s.span)
            if typed and s.kind == "num" and _typed_ok(s.dtype) and c.role == "value":
                return _wide(f.numbers(rows, s)), start, int(s.span)
            return self._cells(c, f.values(rows, s)), start, int(s.span)
        if attr not in lay.instances:
            raise Unsupported(f"{c.name}: no field {attr}")
        a = lay.instances[attr]
        vals = f.instance(rows, attr)
        if "value" not in a:
            start = rows.bases + spec_int(a["pos"])
            dt = numpy_dtype(str(a.get("type")), lay.endian) if a.get("type") else None
            width = np.dtype(dt).itemsize if dt is not None else spec_int(a["size"])
            return self._cells(c, vals), start, int(width)
        if c.span_from is not None:
            s = lay.slots.get(c.span_from)
            if s is None:
                raise Unsupported(f"{c.name}: -animre-bytes {c.span_from}")
            start = rows.offsets + s.offset
            return self._cells(c, vals), start, int(s.span)
        return self._cells(c, vals), None, None

    def _cells(self, c, vals: np.ndarray) -> list:
        out = vals.tolist()
        if any(is_record(v) for v in out[:1]):
            raise Unsupported(f"{c.name}: a record as a value")
        if c.role == "enum_name":
            names = self._enum_names(c.field.enum)
            return [names.get(v) if type(v) is int else None for v in out]
        return out

    def _enum_names(self, enum: str) -> dict[int, str]:
        out = self._names.get(enum)
        if out is None:
            members = self.enums.get(str(enum).split("::")[-1])
            if members is None:
                raise Unsupported(f"enum {enum}")
            out = self._names[enum] = {}
            for name, v in members.items():
                out.setdefault(v, name + "_" if keyword.iskeyword(name) else name)
        return out


def _slot(lay: Layout, attr: str, kind: str | None) -> Slot:
    s = lay.slots.get(attr)
    if s is None or (kind is not None and s.kind != kind):
        raise Unsupported(f"{attr}: not a {kind or 'field'} of {lay.key[1] or 'the root'}")
    return s


def _valid(reader: FixedReader, f: FileValues, rows: Rows, s: Slot) -> bool:
    v = s.raw["valid"]
    if s.kind == "user":
        raise Unsupported("valid on a record")
    got = f.values(rows, s).reshape(-1)
    if not isinstance(v, dict):
        v = {"eq": v}
    for k, want in v.items():
        if k == "eq":
            ok = all(x == const(want) for x in got.tolist())
        elif k == "any-of":
            opts = [const(w) for w in want]
            ok = all(x in opts for x in got.tolist())
        elif k == "min":
            ok = all(x >= const(want) for x in got.tolist())
        elif k == "max":
            ok = all(x <= const(want) for x in got.tolist())
        elif k == "expr":
            res = reader.expression(str(want))(f, ValueOf(rows, got))
            ok = bool(np.all(np.asarray(res, dtype=bool)))
        else:
            raise Unsupported(f"valid: {k}")
        if not ok:
            return False
    return True


MAX_BYTES = 1 << 26  #: a fixed layout larger than this (64 MiB) is read by the Kaitai parse
MAX_RECORDS = 1 << 20  #: as is one of more records per file (the reader places every record of a file at once)


def _records(layouts: dict, lay: Layout) -> int:
    """Records of one file of this layout (itself and every nested record), capped past the limit."""
    n = 1
    for s in lay.slots.values():
        if s.kind == "user":
            n += (s.count if s.count is not None else 1) * _records(layouts, layouts[s.user])
            if n > MAX_RECORDS:
                return n
    return n


def _typed_ok(dtype: str) -> bool:
    """Whether a number's values fit int64 or float64 unchanged (not ``u8``: Python integers keep those)."""
    return dtype[-2:] != "u8"


def _wide(values: np.ndarray) -> np.ndarray:
    """A number column as the Kaitai path's Python numbers would make it: int64 or float64."""
    return values.astype(np.float64 if values.dtype.kind == "f" else np.int64)


def _reader_for(text: str, plan: Plan, enums: dict | None) -> FixedReader | str:
    """Built once per plan (kept on it, as the row fillers are kept on their table plans)."""
    got = plan.__dict__.get("_fixed_reader")
    if got is not None and got[0] == text:
        return got[1]
    layouts = fixed_layouts(text)
    if enums is None:
        enums = load_model(text, str(KSY_DIR)).enums
    root = next((v for k, v in layouts.items() if k[1] == ()), None)
    if not isinstance(root, Layout):
        out: FixedReader | str = f"the root type is not fixed: {root}"
    elif root.size > MAX_BYTES or _records(layouts, root) > MAX_RECORDS:
        out = f"a fixed layout of {root.size} bytes, {_records(layouts, root)} records: too large to place"
    else:
        try:
            encoding = ((yamlio.load(text) or {}).get("meta") or {}).get("encoding")
            out = FixedReader(plan, layouts, root, enums, encoding)
        except Unsupported as e:
            out = str(e)
    plan.__dict__["_fixed_reader"] = (text, out)
    return out


def fixed_reader(text: str, plan: Plan, enums: dict[str, dict[str, int]] | None = None) -> FixedReader | None:
    """The fixed reader of a spec (YAML text) with its plan (and enums: the spec's own by default); None when
    it has a construct the reader does not know (the Kaitai parse reads its files). :func:`why_not` says
    which.

    Examples
    --------
    >>> from animre.tables.planner import plan_for
    >>> text = open("ksy/frm.ksy").read()
    >>> r = fixed_reader(text, plan_for(text))
    >>> chunk = r.read(open("data/samples/frm/GOBLNFRM.BIN", "rb").read())["frm_frames"]
    >>> chunk.columns, int(chunk.st[chunk.span_cols.index("frame_ids"), 0])
    (['slot', 'position', 'frame_ids'], 277)
    """
    got = _reader_for(text, plan, enums)
    return got if isinstance(got, FixedReader) else None


def why_not(text: str, plan: Plan, enums: dict[str, dict[str, int]] | None = None) -> str | None:
    """Why a spec gets no fixed reader (None when it gets one)."""
    got = _reader_for(text, plan, enums)
    return None if isinstance(got, FixedReader) else got
