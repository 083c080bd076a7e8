"""Suggestions from the values of one field: ``valid``, ``any-of``, ``enum``, flag bits, doc lines.

:func:`field_suggestions` reads the values of every spec field (and the
profile's flag alert); :func:`unknown_docs` writes an evidence line for an
``unknown_*`` field that no other suggestion explains.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..base.ktypes import INTEGER
from ..spec.patch import find_type
from ._suggest_rows import (
    counterexamples,
    except_text,
    field_edit,
    field_values,
    n_independent,
    suggestion_row,
)
from ._util import integral_values

__all__ = ["field_suggestions", "unknown_docs", "filtered_tables", "bits_in_spec", "toggling_bits"]

_QUANTITY = re.compile(r"^(?:num|len|ofs|size|count)_|(?:^|_)(?:speed|time|x|y|width|height|size|len|ofs|count|"
                       r"delay|offset|orig|length|frames|weight|damage|points|health)$")


def filtered_tables(corpus: Any, docs: dict) -> set:
    """(table, column) read directly in the elements of an array that ``-animre-where`` filters.

    Such a field is also read in the elements the table leaves out (a ``valid``
    would apply to them); fields of sub-structures (``footer.*``, read only
    when the element is one the table keeps) are not listed.
    """
    where_ids = set()

    def walk(x: Any) -> None:
        if isinstance(x, Mapping):
            if "-animre-where" in x and "id" in x:
                where_ids.add(str(x["id"]))
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    for d in docs.values():
        walk(d)
    s = corpus.schema
    out = set()
    for t, c, p in zip(s["table"], s["column"], s["path"]):
        if isinstance(p, str) and "[]" in p:
            arr = p[: p.rfind("[]")].rsplit(".", 1)[-1]
            if arr in where_ids and "." not in p[p.rfind("[]") + 3:]:
                out.add((t, c))
    return out


def bits_in_spec(doc: Mapping, owner: str, fid: str) -> dict[int, str]:
    """``{mask: instance id}`` of the type's instances that already test one bit of ``fid``."""
    t = find_type(doc, owner) or {}
    pat = re.compile(rf"^\(?\s*{re.escape(fid)}(?:\.to_i)?\s*&\s*(0x[0-9a-fA-F]+|\d+)\s*\)?\s*!=\s*0$")
    out = {}
    for name, body in (t.get("instances") or {}).items():
        m = pat.match(str((body or {}).get("value", "")).strip()) if isinstance(body, Mapping) else None
        if m:
            out[int(m.group(1), 0)] = str(name)
    return out


def field_suggestions(corpus, key, cols, inf, sha, profiles, min_files, filtered=False,
                      bits_in_spec: dict | None = None, include_in_spec: bool = False) -> list[dict]:
    node = inf["node"] or {}
    show = inf["show"]
    if not INTEGER.match(inf["type"]) or "contents" in node:
        return []
    # a valid applies to every element, also those a filtered table leaves out; enums take enum values
    has_valid = "valid" in node or filtered or inf["enum"] is not None
    v = field_values(corpus, cols)
    ints = integral_values(v["value"]) if len(v) else None
    if ints is None or not len(ints):
        return []
    v = v.assign(value=ints)
    n_rows = len(v)
    per_file = v.groupby("file", sort=False)["value"]
    file_list = list(per_file.groups)
    n_files = n_independent(file_list, sha)
    counts = v["value"].value_counts()
    fid = key[2]
    out = []
    # valid: eq
    if len(counts) == 1 and not has_valid:
        val = int(counts.index[0])
        ev = f"{show(val)} in {len(file_list)}/{len(file_list)} files ({n_rows} rows)"
        if n_files >= min_files:
            out.append(suggestion_row(key, cols, "valid", f"valid: {show(val)}", ev, len(file_list), len(file_list),
                                      "files", n_files, [],
                                      field_edit(key, set={"valid": val}, doc=f"Evidence - {ev}.")))
        return out
    # one proposal per field: flag bits, else a small closed set (valid: any-of), else an enum of codes
    files_per_value = v.drop_duplicates(["file", "value"]).assign(h=lambda d: d["file"].map(sha)) \
        .drop_duplicates(["h", "value"]).groupby("value").size()
    closed = bool((files_per_value >= 2).all())
    quantity = bool(_QUANTITY.search(fid)) and not fid.startswith("unknown")
    flags = _flags(key, cols, v, profiles, inf, n_files, n_rows, min_files, quantity, files_per_value,
                   bits_in_spec or {}, include_in_spec)
    if flags is not None:
        return out + [flags]
    if 2 <= len(counts) <= 4 and closed and n_files >= 2 * min_files and not has_valid and not quantity:
        vals = sorted(int(x) for x in counts.index)
        ev = (f"{len(vals)} values {', '.join(show(x) for x in vals)} in {n_rows} rows of {len(file_list)} "
              f"files, each in >= {int(files_per_value.min())} independent files")
        return out + [suggestion_row(key, cols, "valid", f"valid: any-of [{', '.join(show(x) for x in vals)}]", ev,
                                     len(file_list), len(file_list), "files", n_files, [],
                                     field_edit(key, set={"valid": {"any-of": vals}}, doc=f"Evidence - {ev}."))]
    # enum: a small closed set of codes
    referenced = inf.get("referenced", 0) > 0  # an enum would break the expressions that use the field
    if (inf["enum"] is None and 3 <= len(counts) <= 16 and closed and n_files >= min_files
            and n_rows >= 3 * len(counts) and not quantity and not referenced and int(counts.index.min()) >= 0
            and "value" not in node and not _looks_like_flags(cols, profiles)):
        vals = sorted(int(x) for x in counts.index)
        ename = fid if fid not in _enum_names(corpus) else f"{fid}field_values"
        labels = {x: _enum_label(x) for x in vals}
        ev = (f"{len(vals)} codes {', '.join(show(x) for x in vals)} in {n_rows} rows of {len(file_list)} files, "
              f"each in >= {int(files_per_value.min())} independent files")
        out.append(suggestion_row(key, cols, "enum", f"enum: {ename} ({len(vals)} values)", ev, n_rows, n_rows, "rows",
                                  n_files, [], field_edit(key, set={"enum": ename}, enums={ename: labels})))
    return out


def _looks_like_flags(cols, profiles) -> str | None:
    """The profile's ``LOOKS_LIKE_FLAGS`` note of the field's first column that has one."""
    for t, col in cols:
        p = profiles.get(t)
        if p is not None and col in p.index and "LOOKS_LIKE_FLAGS" in p.at[col, "alerts"]:
            return dict(p.at[col, "notes"]).get("LOOKS_LIKE_FLAGS")
    return None


def toggling_bits(files_per_value) -> set[int]:
    """Masks of the bits switched on and off alone: two values seen in >= 2 independent files each that
    differ in that bit only (``0x1``: 0 and 1, or 0x21 and 0x20).

    Flags vary independently of each other; the bits of a quantity (a mostly zero coordinate: 0, 37, 120)
    only change together with others.

    Examples
    --------
    >>> import pandas as pd
    >>> sorted(toggling_bits(pd.Series([5, 6, 9, 1], index=[0, 1, 0x30, 0x31])))  # 0x31: one file only
    [1]
    """
    seen = {int(x) for x, n in files_per_value.items() if n >= 2}
    return {a ^ b for a in seen for b in seen if a < b and bin(a ^ b).count("1") == 1}


def _flags(key, cols, v, profiles, inf, n_files, n_rows, min_files, quantity, files_per_value, bits_in_spec,
           include_in_spec) -> dict | None:
    """The flags suggestion of a field: one bit instance per bit that toggles alone (:func:`toggling_bits`),
    or the bits the spec tests already; None when the field does not look like flags."""
    note = _looks_like_flags(cols, profiles)
    if not note or n_files < min_files or quantity:
        return None
    fid = key[2]
    u = v["value"].to_numpy(dtype=np.int64)
    width = max(8, int(u.max()).bit_length())
    ref = f"{fid}.to_i" if inf["enum"] else fid
    alone = toggling_bits(files_per_value)
    inst, parts, have, tied = {}, [], [], []
    for b in range(width):
        k = int(((u >> b) & 1).sum())
        if not 0 < k < len(u):
            continue
        m = 1 << b
        parts.append(f"{m:#x} in {k}/{len(u)} rows")
        if m in bits_in_spec:
            have.append(f"{bits_in_spec[m]} ({m:#x})")
        elif m not in alone:
            tied.append(f"{m:#x}")
        else:
            nf = v.loc[((u >> b) & 1) == 1, "file"].nunique()
            doc = f"Bit {m:#x} of {fid} - set in {k}/{len(u)} rows of {nf} files (suggested by animre)."
            inst[f"{fid}_bit{b}"] = {"value": f"({ref} & {m:#x}) != 0", "-animre-bytes": fid, "doc": doc}
    ev = f"{note}; bits set: {', '.join(parts)}"
    if have:
        ev += f"; already in the spec: {', '.join(have)}"
    if tied:
        ev += f"; never switched alone (not proposed): {', '.join(tied)}"
    if len(inst) + len(have) >= 2 and inst:
        return suggestion_row(key, cols, "flags", f"{len(inst)} bit instances {', '.join(inst)}", ev, n_rows,
                              n_rows, "rows", n_files, [], field_edit(key, instances=inst))
    if have and include_in_spec:
        return suggestion_row(key, cols, "flags", f"bits already in the spec: {', '.join(have)}", ev, n_rows,
                              n_rows, "rows", n_files, [], None, status="in spec")
    return None


def _enum_label(v: int) -> str:
    """The label of a suggested enum value: ``value_0x05``, ``value_minus_0x01``."""
    return f"value_{v:#04x}" if v >= 0 else f"value_minus_{-v:#04x}"


def _enum_names(corpus: Any) -> set:
    s = corpus.schema
    return set(s["enum"].dropna())


def unknown_docs(corpus, groups, info, sha, found, min_files) -> list[dict]:
    """Evidence lines for ``unknown_*`` fields that no other suggestion explains."""
    explained = {(r["spec"], r["type"], r["field"]) for r in found
                 if r["kind"] in ("valid", "rename", "relation", "enum", "flags", "count")}
    out = []
    for key, cols in groups.items():
        if not key[2].startswith("unknown") or key in explained:
            continue
        v = field_values(corpus, cols)
        show = info[key]["show"]
        if not len(v):
            continue
        try:
            counts = v["value"].map(lambda x: x if not isinstance(x, (list, np.ndarray)) else tuple(x)).value_counts()
        except TypeError:
            continue
        top, k = counts.index[0], int(counts.iloc[0])
        n_rows, files = len(v), v["file"].unique()
        n_files = n_independent(files, sha)
        if isinstance(top, (bytes, tuple)):
            continue
        if len(counts) == 1:
            ev = f"{show(top)} in {len(files)}/{len(files)} files ({n_rows} rows)"
            why = f"; {n_files} independent files, fewer than the {min_files} a valid needs" \
                if n_files < min_files else ""
            out.append(suggestion_row(key, cols, "doc", f"doc: {ev}", ev + why, len(files), len(files), "files",
                                      n_files, [], field_edit(key, doc=f"Evidence - {ev}.")))
            continue
        if k * 2 >= n_rows:
            bad = v[v["value"] != top]
            cx = counterexamples(bad)
            top_files = int(v.loc[v["value"] == top, "file"].nunique())
            ev = (f"{show(top)} in {k}/{n_rows} rows ({top_files}/{len(files)} files); except "
                  f"{except_text(cx, len(bad), show)}")
            out.append(suggestion_row(key, cols, "doc", f"doc: mostly {show(top)}", ev, k, n_rows, "rows", n_files, cx,
                                      field_edit(key, doc=f"Evidence - {ev}.")))
        elif len(counts) <= 16:
            vals = ", ".join(show(x) for x in sorted(counts.index.tolist())[:16])
            ev = f"{len(counts)} values ({vals}) in {n_rows} rows of {len(files)} files"
            out.append(suggestion_row(key, cols, "doc", f"doc: {len(counts)} values", ev, n_rows, n_rows, "rows",
                                      n_files, [], field_edit(key, doc=f"Evidence - {ev}.")))
    return out
