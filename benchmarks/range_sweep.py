"""An invariant over the public gallery: every cell's byte range holds the cell's value.

For every spec of a checked-out Kaitai format gallery that has a folder of real files
(``FILES/<spec path>/``, as ``gallery_files.py`` assembles it), the folder is opened with that spec
alone, and for every cell of every table that has a byte range the bytes stored at
``[start, end)`` in its file (a container member's bytes for a member) are decoded with the
field's own type, as the spec defines it, and compared with the cell:

- ``u1``..``u8``, ``s1``..``s8``, ``f4``, ``f8``: the range is the type's width; the endian is the
  type's suffix, else the enclosing types' or the spec's ``meta/endian`` (a switchable endian:
  either is accepted); a ``switch-on`` type: any primitive case type of the range's width;
- ``b<N>`` bit fields: the range is the bytes holding the bits (``(end-start)*8 >= N``), the value
  fits in N bits and is found in those bytes at a bit offset that starts in the first byte and ends
  in the last, read in the spec's ``bit-endian`` (the tables give no bit offsets, so the exact
  position is not checked);
- ``str``/``strz``/``bytes``: the spec's ``pad-right`` strip, ``terminator`` (``include``) cut,
  ``process: zlib`` and ``encoding`` applied to the bytes, as the compiled parser does;
  ``contents``: equal bytes;
- enums: the integer column as its type; the name column as the enum member of that integer;
- small arrays spread into a list cell: element by element.

A cell with no range is not checked; a cell whose type this script cannot decode (a computed
value with a range, a ``process`` other than zlib, ...) is counted as unchecked, per type. Printed
per spec: files, cells checked, wrong, unchecked, the columns with wrong cells and up to
``--examples`` wrong cells (file, table, column, range, value, bytes found); then a total line.
Exit status 1 when any cell is wrong. A spec that fails as a whole is reported and counted, and
the sweep goes on. Cells of one column that come from several types of the spec (switch cases,
32/64-bit variants sharing a field name) and decode only with a same-named field of another type
are counted apart as ``mistyped``: their range holds their value, the column's type names another
case. ``--shift 1`` moves every range by a byte, to see the checker catch misplaced ranges.

    .venv/bin/python benchmarks/range_sweep.py --gallery /tmp/ksf --files $ANIMRE_GALLERY_FILES [--spec image/png ...]
"""

from __future__ import annotations

import argparse
import math
import os
import re
import struct
import sys
import time
import traceback
import warnings
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import animre  # noqa: E402
from animre.spec.source import read_spec  # noqa: E402

INT = re.compile(r"^([us])([1248])(le|be)?$")
FLOAT = re.compile(r"^f([48])(le|be)?$")
BITS = re.compile(r"^b([1-9][0-9]*)(le|be)?$")
EXAMPLES = 5


# -- the spec, as YAML: every type's attributes with the endian, bit-endian and encoding in force --------------


@dataclass
class TypeInfo:
    spec: str
    path: tuple
    attrs: dict  # id -> attribute mapping (seq and instances)
    endian: str | None  # "le", "be", "either" (switchable) or None
    bit_endian: str
    encoding: str | None
    enums: list  # enum mappings in scope, innermost first: [{name: {int: member}}]


def _enum_map(raw: Any) -> dict:
    out = {}
    for k, v in (raw or {}).items():
        try:
            key = int(k) if not isinstance(k, bool) else int(k)
        except (TypeError, ValueError):
            continue
        out[key] = v.get("id") if isinstance(v, dict) else v
    return out


def _meta_endian(meta: dict, inherited: str | None) -> str | None:
    e = meta.get("endian", None)
    if e is None:
        return inherited
    return e if e in ("le", "be") else "either"


class SpecIndex:
    """Types of a spec and its imports, found by (spec id, type name) as the tables' columns name them."""

    def __init__(self, spec_path: Path):
        src = read_spec(spec_path)
        self.id = src.id
        self.by_name: dict[tuple[str, str], list[TypeInfo]] = defaultdict(list)
        docs = [(src.id, yaml.safe_load(src.text))] + [(sid, yaml.safe_load(text)) for sid, _, text in src.imports]
        for sid, doc in docs:
            meta = doc.get("meta") or {}
            self._walk(sid, doc, (), _meta_endian(meta, None), meta.get("bit-endian", "be"), meta.get("encoding"), [])

    def _walk(self, sid, doc, path, endian, bit_endian, encoding, enums):
        meta = doc.get("meta") or {}
        if path:
            endian = _meta_endian(meta, endian)
            bit_endian = meta.get("bit-endian", bit_endian)
            encoding = meta.get("encoding", encoding)
        scope = [{n: _enum_map(m) for n, m in (doc.get("enums") or {}).items()}] + enums
        attrs = {}
        for a in doc.get("seq") or []:
            if isinstance(a, dict) and "id" in a:
                attrs[a["id"]] = a
        for k, a in (doc.get("instances") or {}).items():
            if isinstance(a, dict):
                attrs[k] = a
        name = path[-1] if path else sid
        self.by_name[(sid, name)].append(TypeInfo(sid, path, attrs, endian, bit_endian, encoding, scope))
        for tname, tdoc in (doc.get("types") or {}).items():
            if isinstance(tdoc, dict):
                self._walk(sid, tdoc, path + (tname,), endian, bit_endian, encoding, scope)

    def field(self, spec: str, owner: str, fid: str) -> tuple[dict, TypeInfo] | None:
        for cand in (self.by_name.get((spec, owner)) or []) + [t for (s, n), ts in self.by_name.items()
                                                               if n == owner and s != spec for t in ts]:
            if fid in cand.attrs:
                return cand.attrs[fid], cand
        return None

    def others(self, a: dict, fid: str, ti: TypeInfo) -> list[tuple[dict, TypeInfo]]:
        """Attributes of the same id in other types (cells of one column can come from several switch cases),
        types whose names share the longest prefix with ``ti``'s first (``section_64`` for ``section``)."""
        name = ti.path[-1] if ti.path else ti.spec
        out = [(t.attrs[fid], t) for ts in self.by_name.values() for t in ts
               if fid in t.attrs and t.attrs[fid] is not a]
        return sorted(out, key=lambda x: -len(os.path.commonprefix([name, x[1].path[-1] if x[1].path else x[1].spec])))

    def enum(self, ti: TypeInfo, ref: str) -> dict | None:
        name = ref.split("::")[-1]
        for scope in ti.enums:
            if name in scope:
                return scope[name]
        for ts in self.by_name.values():
            for t in ts:
                for scope in t.enums:
                    if name in scope:
                        return scope[name]
        return None


# -- decoding ---------------------------------------------------------------------------------------------------


class Unchecked(Exception):
    """The cell's type is one this script does not decode (the message names it)."""


def _endians(suffix: str | None, ti: TypeInfo) -> tuple[str, ...]:
    if suffix:
        return (suffix,)
    if ti.endian in ("le", "be"):
        return (ti.endian,)
    return ("le", "be")


def _type_of(a: dict) -> Any:
    t = a.get("type")
    if isinstance(t, str):
        return t.split("(", 1)[0].strip()
    return t


def _primitive_cases(t: Any) -> list[str]:
    if isinstance(t, dict) and "cases" in t:
        return [str(v).split("(", 1)[0].strip() for v in t["cases"].values()]
    return [t] if isinstance(t, str) else []


def _width(t: str) -> int | None:
    m = INT.match(t) or FLOAT.match(t)
    if m:
        return int(m.group(2) if m.re is INT else m.group(1))
    return None


def decode_numbers(t: str, ti: TypeInfo, b: bytes) -> list:
    """Every reading of ``b`` as primitive type ``t`` (one per admissible endian)."""
    m = INT.match(t)
    if m:
        w = int(m.group(2))
        if len(b) != w:
            return []
        return [int.from_bytes(b, "little" if e == "le" else "big", signed=m.group(1) == "s")
                for e in _endians(m.group(3), ti)]
    m = FLOAT.match(t)
    if m:
        w = int(m.group(1))
        if len(b) != w:
            return []
        return [struct.unpack(("<" if e == "le" else ">") + ("f" if w == 4 else "d"), b)[0]
                for e in _endians(m.group(2), ti)]
    raise Unchecked(t)


def bits_candidates(n: int, bit_endian: str, b: bytes) -> set[int]:
    """The N-bit values that ``b`` holds at a bit offset starting in its first byte and ending in its last."""
    L = len(b)
    if L * 8 < n or L == 0:
        return set()
    out = set()
    mask = (1 << n) - 1
    if bit_endian == "le":
        big = int.from_bytes(b, "little")
        for o in range(8):
            if o + n <= L * 8 and o + n > (L - 1) * 8:
                out.add((big >> o) & mask)
    else:
        big = int.from_bytes(b, "big")
        for o in range(8):
            if o + n <= L * 8 and o + n > (L - 1) * 8:
                out.add((big >> (L * 8 - o - n)) & mask)
    return out


def _contents(c: Any) -> bytes:
    if isinstance(c, str):
        return c.encode("utf-8")
    if isinstance(c, int):
        return bytes([c])
    out = b""
    for x in c:
        out += _contents(x)
    return out


def decode_bytes(t: str, a: dict, ti: TypeInfo, b: bytes) -> Any:
    """``b`` read as a ``bytes``/``str``/``strz`` attribute: pad-right strip, terminator cut, process, decode."""
    proc = a.get("process")
    if proc is not None:
        if str(proc).strip() != "zlib":
            raise Unchecked(f"{t} (process: {proc})")
        b = zlib.decompress(b)
    term = a.get("terminator", 0 if t == "strz" else None)
    if "pad-right" in a:
        pad = a["pad-right"]
        b = b.rstrip(bytes([pad]))
    if term is not None:
        i = b.find(bytes([term]))
        if i >= 0:
            b = b[:i + 1] if a.get("include", False) else b[:i]
    if t == "bytes":
        return b
    enc = a.get("encoding") or ti.encoding
    if enc is None:
        raise Unchecked(f"{t} (no encoding)")
    return b.decode(enc)


# -- the sweep --------------------------------------------------------------------------------------------------


def _is_na(v: Any) -> bool:
    if v is None or v is pd.NA:
        return True
    try:
        return bool(pd.isna(v)) if not isinstance(v, (bytes, str, list, tuple, np.ndarray)) else False
    except (TypeError, ValueError):
        return False


def _same_number(v: Any, d: Any) -> bool:
    if isinstance(d, float):
        try:
            fv = float(v)
        except (TypeError, ValueError):
            return False
        return fv == d or (math.isnan(fv) and math.isnan(d))
    try:
        return int(v) == d and float(v) == float(d) if not isinstance(v, (int, np.integer, bool, np.bool_)) \
            else int(v) == d
    except (TypeError, ValueError, OverflowError):
        return False


@dataclass
class SpecResult:
    files: int = 0
    parsed: int = 0
    checked: int = 0
    wrong: int = 0
    #: wrong with the column's type, right with a same-named field of another type (the spec's switch
    #: cases or 32/64-bit variants share one column, whose type names one of them): not counted as wrong
    mistyped: int = 0
    mistyped_by_column: Counter = field(default_factory=Counter)
    mistyped_examples: list = field(default_factory=list)
    unchecked: Counter = field(default_factory=Counter)
    notes: Counter = field(default_factory=Counter)
    wrong_by_column: Counter = field(default_factory=Counter)
    examples: list = field(default_factory=list)
    seconds: float = 0.0


def _fmt(v: Any, n: int = 40) -> str:
    r = repr(v.tolist() if isinstance(v, np.ndarray) else v)
    return r if len(r) <= n else r[:n - 3] + "..."


class Checker:
    def __init__(self, c, idx: SpecIndex, res: SpecResult, n_examples: int, shift: int = 0):
        self.c, self.idx, self.res, self.n_examples, self.shift = c, idx, res, n_examples, shift
        self._data: dict[str, bytes] = {}

    def data(self, file: str) -> bytes:
        d = self._data.get(file)
        if d is None:
            d = self._data[file] = self.c.read_bytes(file)
        return d

    def wrong(self, table, column, file, s, e, value, found, why):
        ex = (file, table, column, s, e, value, found, why)
        if why.startswith("mistyped"):
            self.res.mistyped += 1
            self.res.mistyped_by_column[f"{table}.{column}"] += 1
            if len(self.res.mistyped_examples) < self.n_examples:
                self.res.mistyped_examples.append(ex)
            return
        self.res.wrong += 1
        self.res.wrong_by_column[f"{table}.{column}"] += 1
        if len(self.res.examples) < self.n_examples:
            self.res.examples.append(ex)

    def table(self, t: str, fmt: str) -> None:
        df = self.c.tables[t]
        starts, ends = self.c.spans[t]
        plan_cols = {col.name: col for col in self.c.plan(fmt).tables[t].columns} if t in self.c.plan(fmt).tables \
            else {}
        info = self.c.columns(t).set_index("column")
        files = df["file"].to_numpy(dtype=object)
        for col in df.columns:
            if col in ("file", "block") or col not in starts.columns or col not in info.index:
                continue
            s_col, e_col = starts[col], ends[col]
            has = (s_col.notna() & e_col.notna()).to_numpy()
            if not has.any():
                continue
            rows = np.flatnonzero(has)
            kind = info.at[col, "kind"]
            pc = plan_cols.get(col)
            if kind in ("value", "value (bits)", "derived", "key") or pc is None:
                self.res.unchecked[f"{kind} with a range"] += len(rows)
                continue
            found = self.idx.field(pc.spec or self.idx.id, pc.owner, pc.field.id)
            if found is None:
                self.res.unchecked[f"{pc.field.type} (attribute not found in the spec)"] += len(rows)
                continue
            a, ti = found
            self.column(t, col, kind, pc.field.id, a, ti, df[col].to_numpy(dtype=object)[rows], files[rows],
                        s_col.to_numpy(dtype="int64", na_value=-1)[rows] + self.shift,
                        e_col.to_numpy(dtype="int64", na_value=-1)[rows] + self.shift)

    def column(self, t, col, kind, fid, a, ti, values, files, s, e) -> None:
        ty, enum = self.typing(kind, a, ti)
        if kind == "enum name" and enum is None:
            self.res.unchecked["enum name (enum not found)"] += len(values)
            return
        for v, f, s0, e0 in zip(values, files, s, e):
            if s0 < 0 or e0 < 0:
                continue
            if hasattr(v, "_io"):
                self.res.unchecked["user-type object in a cell"] += 1
                continue
            d = self.data(f)
            if e0 > len(d) or s0 > e0:
                self.res.checked += 1
                self.wrong(t, col, f, s0, e0, v, b"", f"range past the end ({len(d)} bytes)")
                continue
            b = d[s0:e0]
            unchecked = None
            try:
                ok, why = self.cell(ty, kind, a, ti, enum, v, b)
            except Unchecked as u:
                ok, why, unchecked = False, "", str(u)
            except (UnicodeDecodeError, zlib.error) as x:  # bytes that do not decode: a wrong range
                ok, why = False, f"{type(x).__name__}: {x}"[:80]
            if not ok:
                for a2, ti2 in self.idx.others(a, fid, ti):
                    ty2, enum2 = self.typing(kind, a2, ti2)
                    try:
                        ok2 = self.cell(ty2, kind, a2, ti2, enum2, v, b, primary=False)[0]
                    except (Unchecked, UnicodeDecodeError, zlib.error):
                        ok2 = False
                    if ok2:
                        why = (f"mistyped: column typed {_fmt(ty, 20)}, the bytes fit "
                               f"{ti2.path[-1] if ti2.path else ti2.spec}.{fid}: {_fmt(ty2, 20)}")
                        unchecked = None
                        break
            if unchecked is not None:
                self.res.unchecked[unchecked] += 1
                continue
            self.res.checked += 1
            if not ok:
                self.wrong(t, col, f, s0, e0, v, b, why)

    def typing(self, kind, a, ti):
        ty = _type_of(a)
        if "contents" in a:
            ty = "contents"
        elif ty is None:
            ty = "bytes" if ("size" in a or "size-eos" in a or "terminator" in a) else None
        enum = self.idx.enum(ti, a["enum"]) if kind == "enum name" and a.get("enum") else None
        return ty, enum

    def cell(self, ty, kind, a, ti, enum, v, b: bytes, primary: bool = True) -> tuple[bool, str]:
        if kind == "enum name" and enum is None:
            raise Unchecked("enum name (enum not found)")
        if ty == "contents":
            exp = _contents(a["contents"])
            if _is_na(v):
                return b == exp, "not the contents"
            if not isinstance(v, (bytes, bytearray)):
                return False, "not bytes"
            if primary and bytes(v) != exp:
                self.res.notes["a contents cell whose value is not the spec's contents (a failed check kept)"] += 1
            return b == bytes(v), "not the bytes of the value"
        if kind == "list" or isinstance(v, (list, tuple, np.ndarray)):
            if not isinstance(ty, str) or _width(ty) is None:
                raise Unchecked(f"{ty}[] (list)")
            w = _width(ty)
            vals = list(v)
            if len(b) != w * len(vals):
                return False, f"{len(b)} bytes for {len(vals)} x {w}"
            for i, x in enumerate(vals):
                if not any(_same_number(x, d) for d in decode_numbers(ty, ti, b[i * w:(i + 1) * w])):
                    return False, f"element {i}"
            return True, ""
        cases = _primitive_cases(ty)
        if isinstance(ty, dict) and ("size" in a or "size-eos" in a):
            cases.append("bytes")  # a sized switch no case matches: the raw bytes
        if isinstance(ty, dict):  # switch-on: the primitive cases of the range's width
            cases = [c for c in cases if _width(c) == len(b) or c in ("str", "strz", "bytes")] or \
                [c for c in cases if BITS.match(c)]
            if not cases:
                raise Unchecked("switch (no primitive case of that width)")
        reads: list = []
        for c in cases:
            m = BITS.match(c)
            if m:
                n = int(m.group(1))
                if len(b) * 8 < n:
                    return False, f"{len(b)} bytes cannot hold b{n}"
                if len(b) > (n + 14) // 8:
                    return False, f"{len(b)} bytes for b{n}"
                reads += sorted(bits_candidates(n, m.group(2) or ti.bit_endian, b))
            elif _width(c) is not None:
                if _width(c) != len(b):
                    if len(cases) == 1:
                        return False, f"{len(b)} bytes for {c}"
                    continue
                reads += decode_numbers(c, ti, b)
            elif c in ("str", "strz", "bytes"):
                reads.append(decode_bytes(c, a, ti, b))
            else:
                raise Unchecked(str(c))
        if kind == "enum name":
            names = [enum.get(r) for r in reads if isinstance(r, int)]
            if _is_na(v):
                return all(nm is None for nm in names), "no name for a known member"
            return v in names, "not the member of that integer"
        if _is_na(v):
            return False, "a range but no value"
        for r in reads:
            if isinstance(r, (bytes, str)):
                if (bytes(v) if isinstance(r, bytes) and isinstance(v, (bytes, bytearray, memoryview)) else v) == r:
                    return True, ""
            elif isinstance(v, (bytes, str)):
                continue
            elif _same_number(v, r):
                if cases and BITS.match(cases[0]) and int(v) >= 1 << int(BITS.match(cases[0]).group(1)):
                    return False, "value does not fit"
                return True, ""
        return False, f"decodes to {_fmt(reads, 30)}"


def sweep_spec(gallery: Path, folder: Path, rel: str, n_examples: int, shift: int = 0) -> SpecResult:
    spec_path = gallery / f"{rel}.ksy"
    res = SpecResult()
    t0 = time.perf_counter()
    idx = SpecIndex(spec_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = animre.open_corpus(folder, specs=[spec_path], formats=[idx.id], cache=False)
    files = c.files
    res.files = int((files["container"].isna() if "container" in files else pd.Series(True, files.index)).sum())
    res.parsed = int(((files["format"] == idx.id) & (files["status"] == "parsed")).sum())
    ch = Checker(c, idx, res, n_examples, shift)
    for t in c.tables:
        if t == "files" or t not in c.spans:
            continue
        ch.table(t, idx.id)
    res.seconds = time.perf_counter() - t0
    return res


def specs_with_files(gallery: Path, files: Path, only: list[str]) -> list[str]:
    out = []
    for p in sorted(gallery.rglob("*.ksy")):
        if "_build" in p.parts:
            continue
        rel = p.relative_to(gallery).with_suffix("").as_posix()
        d = files / rel
        if d.is_dir() and any(q.is_file() for q in d.iterdir()) and (not only or rel in only):
            out.append(rel)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gallery", required=True, type=Path, help="checked-out Kaitai format gallery")
    ap.add_argument("--files", required=True, type=Path, help="FILES/<spec path>/<files> (gallery_files.py --out)")
    ap.add_argument("--spec", nargs="*", default=[], help="spec paths in the gallery, without .ksy (image/png)")
    ap.add_argument("--examples", type=int, default=EXAMPLES, help="wrong cells shown per spec")
    ap.add_argument("--shift", type=int, default=0,
                    help="move every range by this many bytes before checking (the checker's own test: "
                         "nearly every cell should then be wrong)")
    a = ap.parse_args(argv)
    specs = specs_with_files(a.gallery, a.files, [s.removesuffix(".ksy") for s in a.spec])
    if not specs:
        print(f"no spec of {a.gallery} has files under {a.files}")
        return 1
    tot = SpecResult()
    failed = 0
    for rel in specs:
        try:
            r = sweep_spec(a.gallery, a.files / rel, rel, a.examples, a.shift)
        except Exception as x:  # noqa: BLE001 - one spec never stops the sweep
            failed += 1
            print(f"{rel:36s} FAILED  {type(x).__name__}: {str(x)[:300]}")
            traceback.print_exc(limit=-2, file=sys.stdout)
            continue
        un = sum(r.unchecked.values())
        print(f"{rel:36s} files {r.files:3d}  parsed {r.parsed:3d}  checked {r.checked:7d}  wrong {r.wrong:6d}  "
              f"unchecked {un:6d}  ({r.seconds:.1f} s)" + (f"  mistyped {r.mistyped}" if r.mistyped else ""))
        if r.unchecked:
            print("    unchecked: " + ", ".join(f"{k} {n}" for k, n in r.unchecked.most_common(6)))
        for k, n in r.notes.items():
            print(f"    note: {k}: {n}")
        if r.wrong:
            print("    wrong by column: " + ", ".join(f"{k} {n}" for k, n in r.wrong_by_column.most_common(8)))
        for f, t, col, s0, e0, v, b, why in r.examples:
            print(f"    WRONG {f} {t}.{col} [{s0}, {e0}) value={_fmt(v)} bytes={b[:16].hex()}"
                  f"{'...' if len(b) > 16 else ''} ({why})")
        if r.mistyped:
            print("    mistyped by column: " + ", ".join(f"{k} {n}" for k, n in r.mistyped_by_column.most_common(8)))
        for f, t, col, s0, e0, v, b, why in r.mistyped_examples[:2]:
            print(f"    MISTYPED {f} {t}.{col} [{s0}, {e0}) value={_fmt(v)} bytes={b[:16].hex()}"
                  f"{'...' if len(b) > 16 else ''} ({why.removeprefix('mistyped: ')})")
        tot.files += r.files
        tot.parsed += r.parsed
        tot.checked += r.checked
        tot.wrong += r.wrong
        tot.mistyped += r.mistyped
        tot.unchecked.update(r.unchecked)
    print(f"TOTAL {len(specs)} specs ({failed} failed as a whole): files {tot.files}, parsed {tot.parsed}, "
          f"cells checked {tot.checked}, wrong {tot.wrong}, mistyped {tot.mistyped}, "
          f"unchecked {sum(tot.unchecked.values())}")
    return 1 if tot.wrong or failed else 0


if __name__ == "__main__":
    sys.exit(main())
