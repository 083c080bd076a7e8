"""Measuring an inferred spec against a known layout: field boundaries, typed bytes, roles.

A boundary is a position between two adjacent bytes where one field ends
and the next begins; adjacent fields whose bytes are constant in every file
count as one (the definition of BinaryInferno, NDSS 2023). Precision,
recall and F1 are summed over the files (each file's own variant).
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from pathlib import Path

import yaml

from ..base.errors import ParseError
from ..base.ktypes import BYTE_NUMBER
from ..spec.compiler import KSY_DIR, compile_spec
from ..spec.imports import import_name, walk_imports
from ..spec.parse import parse_bytes
from ._api import infer_spec, spec_time
from ._model import Layout

__all__ = ["header_truth", "inferred_fields", "boundary_scores", "roles_found", "measure", "STRUCT_ROLES"]

STRUCT_ROLES = ("magic", "file_size", "offset", "count", "size")


def _types_of(doc: Mapping, ksy_dir: Path) -> dict:
    """Every type a spec declares or imports from ``ksy_dir``, by name (an imported spec by its id too)."""
    out: dict = {}

    def walk(types: Mapping | None) -> None:
        for k, v in (types or {}).items():
            if isinstance(v, Mapping):
                out.setdefault(k, v)
                walk(v.get("types"))

    def load(entry: str, _importer: object) -> tuple[Path, Mapping] | None:
        p = Path(ksy_dir) / f"{import_name(entry)}.ksy"
        return (p, yaml.safe_load(p.read_text(encoding="utf-8"))) if p.is_file() else None

    for key, d in walk_imports(None, doc, load):
        if key is not None:
            out.setdefault(d["meta"]["id"], d)
        walk(d.get("types"))
    return out


def _role(f: Mapping, offset: int, uses: dict) -> str | None:
    fid = str(f.get("id", ""))
    if "contents" in f:
        return "magic" if offset == 0 else "const"
    v = f.get("valid")
    expr = str(v.get("expr", "")) if isinstance(v, Mapping) else ""
    if ("==" in expr and "_io.size" in expr) or fid in ("len_file", "file_size"):
        return "file_size"
    if fid.startswith("ofs_") or uses.get(fid) == "pos":
        return "offset"
    if fid.startswith("num_") or uses.get(fid) == "repeat-expr":
        return "count"
    if fid.startswith(("len_", "size_")) or uses.get(fid) == "size":
        return "size"
    return None


def _uses(doc: Mapping) -> dict:
    out: dict = {}

    def walk(x) -> None:
        if isinstance(x, Mapping):
            for k in ("pos", "repeat-expr", "size"):
                if isinstance(x.get(k), str) and re.fullmatch(r"[a-z_][a-z0-9_]*", x[k]):
                    out.setdefault(x[k], k)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(doc)
    return out


def header_truth(spec: str | Path, ksy_dir: Path = KSY_DIR) -> list[dict]:
    """The fixed header of a spec: ``offset, width, id, role`` of every field up to the first of variable size.

    Examples
    --------
    >>> [(f["offset"], f["width"], f["role"]) for f in header_truth("ksy/mot.ksy")][:4]
    [(0, 4, None), (4, 4, 'count'), (8, 4, 'size'), (12, 4, 'file_size')]
    """
    text = Path(spec).read_text(encoding="utf-8") if isinstance(spec, Path) or str(spec).endswith(".ksy") \
        else str(spec)
    doc = yaml.safe_load(text)
    types = _types_of(doc, ksy_dir)
    uses = _uses(doc)
    for t in types.values():
        for k, v in _uses(t).items():
            uses.setdefault(k, v)
    out: list[dict] = []

    def lay(seq: list, at: int, prefix: str, depth: int) -> int | None:
        for f in seq or []:
            if "if" in f or depth > 6:
                return None
            n = 1
            if f.get("repeat") == "expr":
                if not isinstance(f.get("repeat-expr"), int):
                    return None
                n = f["repeat-expr"]
            elif "repeat" in f:
                return None
            for i in range(n):
                name = prefix + str(f.get("id")) + (f"[{i}]" if n > 1 else "")
                if "contents" in f:
                    c = f["contents"]
                    w = len(c) if isinstance(c, list) else len(str(c).encode())
                elif isinstance(f.get("size"), int):
                    w = f["size"]
                    t = f.get("type")
                    if isinstance(t, str) and t.split("(")[0] in types and "str" not in t:
                        sub = lay(types[t.split("(")[0]].get("seq"), at, name + ".", depth + 1)
                        if sub is None or sub > at + w:
                            return None
                        if sub < at + w:
                            out.append({"offset": sub, "width": at + w - sub, "id": name + ".rest", "role": None})
                        at += w
                        continue
                elif isinstance(f.get("type"), str) and BYTE_NUMBER.match(f["type"]):
                    w = int(BYTE_NUMBER.match(f["type"]).group(2))
                elif isinstance(f.get("type"), str) and f["type"].split("(")[0] in types:
                    end = lay(types[f["type"].split("(")[0]].get("seq"), at, name + ".", depth + 1)
                    if end is None:
                        return None
                    at = end
                    continue
                else:
                    return None
                out.append({"offset": at, "width": w, "id": name, "role": _role(f, at, uses)})
                at += w
        return at

    lay(doc.get("seq"), 0, "", 0)
    return out


def inferred_fields(lay: Layout, tag_value: int | None = None) -> list[dict]:
    """The inferred header fields (``offset, width, id, role``) of one file (its variant's body), and the first
    record's fields of a table the spec places at a constant position (a table right after the header: its
    first entry's bytes are described by the record's fields, as a reader's fixed header describes them)."""
    out = [{"offset": f.offset, "width": f.width, "id": f.name, "role": f.role} for f in lay.fields]
    for r in lay.regions:
        if r.kind in ("records", "chain") and r.record is not None and isinstance(r.start, int) and not r.absolute:
            out += [{"offset": r.start + f.offset, "width": f.width, "id": f"{r.record.name}.{f.name}",
                     "role": f.role} for f in r.record.fields]
    if lay.variants and tag_value in lay.variants:
        at = out[-1]["offset"] + out[-1]["width"] if out else 0
        out += [{"offset": f.offset + at, "width": f.width, "id": f.name, "role": f.role}
                for f in lay.variants[tag_value].fields]
    return out


def _boundaries(fields: list[dict], length: int, heads: list[bytes]) -> set:
    def const(f):
        a, b = f["offset"], f["offset"] + f["width"]
        return all(h[a:b] == heads[0][a:b] for h in heads)

    fs = [f for f in sorted(fields, key=lambda f: f["offset"]) if f["offset"] < length]
    out = set()
    for x, y in zip(fs, fs[1:]):
        end = x["offset"] + x["width"]
        if end != y["offset"] or not 0 < end < length:
            continue
        if const(x) and const(y):
            continue
        out.add(end)
    return out


def boundary_scores(truth: list[dict], per_file: list[list[dict]], heads: list[bytes]) -> dict:
    """Boundary precision, recall, F1 and the share of header bytes typed, summed over files.

    ``per_file``: each file's inferred fields (:func:`inferred_fields`), in the order of ``heads``.

    Examples
    --------
    >>> t = [{"offset": 0, "width": 2}, {"offset": 2, "width": 2}, {"offset": 4, "width": 4}]
    >>> g = [{"offset": 0, "width": 2, "role": "int"}, {"offset": 2, "width": 6, "role": "raw"}]
    >>> s = boundary_scores(t, [g, g], [b"\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08", bytes(8)])
    >>> s["precision"], s["recall"], s["typed"]
    (1.0, 0.5, 0.25)
    """
    length = max((f["offset"] + f["width"] for f in truth), default=0)
    length = min([length] + [len(h) for h in heads])
    tp = fp = fn = 0
    typed = 0
    for fields in per_file:
        tb = _boundaries(truth, length, heads)
        ib = _boundaries(fields, length, heads)
        tp, fp, fn = tp + len(tb & ib), fp + len(ib - tb), fn + len(tb - ib)
        cov = set()
        for f in fields:
            if f.get("role") not in ("raw", None):
                cov |= set(range(f["offset"], min(length, f["offset"] + f["width"])))
        typed += len(cov) / max(1, length)
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": p, "recall": r, "f1": f1, "typed": typed / max(1, len(heads)), "header_bytes": length}


def roles_found(truth: list[dict], inferred: list[dict]) -> dict:
    """Per structural role: ``(found, in truth)``; a role is found at the truth's offset (magic: from 0).

    Examples
    --------
    >>> roles_found([{"offset": 0, "width": 4, "role": "magic"}, {"offset": 4, "width": 4, "role": "offset"}],
    ...             [{"offset": 0, "width": 4, "role": "magic"}, {"offset": 4, "width": 4, "role": "int"}])
    {'magic': (1, 1), 'offset': (0, 1)}
    """
    out: dict = {}
    for t in truth:
        r = t.get("role")
        if r not in STRUCT_ROLES:
            continue
        same = (r, "file_size") if r == "size" else (r,)
        hit = any(g.get("role") in same and (g["offset"] == t["offset"] or r == "magic" and g["offset"] == 0)
                  for g in inferred)
        a, b = out.get(r, (0, 0))
        out[r] = (a + int(hit), b + 1)
    return out


def measure(files: list[tuple[str, bytes]], truth: list[dict], name: str = "unknown", *,
            tags: int | None = None, **kw) -> dict:
    """Infer a spec from ``files`` (name, bytes), compile it, parse every file, score it against ``truth``.

    ``tags``: the offset of a variant tag byte in the truth (each file scored with its own variant).
    Returns the figures of the benchmark: ``f1``, ``precision``, ``recall``, ``typed``, ``roles``,
    ``parsed`` / ``files``, ``infer_s`` and ``parse_s`` (opening the files with the inferred spec).
    """
    spec = infer_spec(files, name=name, **kw)
    t0 = time.perf_counter()
    mod = compile_spec(spec.ksy)
    t1 = time.perf_counter()
    ok = 0
    for n, d in files:
        try:
            parse_bytes(d, mod, n)
            ok += 1
        except ParseError:
            pass
    t2 = time.perf_counter()
    heads = [d[:4096] for _, d in files]
    lay = spec.layout
    tagpos = lay.fields[-1].offset if lay.variants else None
    per = [inferred_fields(lay, h[tagpos] if tagpos is not None and tagpos < len(h) else None) for h in heads]
    sc = boundary_scores(truth, per, heads)
    roles = roles_found(truth, per[0])
    return {**sc, "roles": roles, "files": len(files), "parsed": ok, "spec": spec,
            "infer_s": spec_time(spec), "compile_s": t1 - t0, "parse_s": t2 - t1}
