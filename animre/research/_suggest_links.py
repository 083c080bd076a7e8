"""Suggestions from the structure of the tables: counts, sizes and offsets of other fields.

An integer field that equals the number of rows of a child table per
record (:func:`count_links`), the byte length of a sibling field
(:func:`size_links`) or the absolute offset of a sibling structure
(:func:`pos_links`) becomes a ``repeat-expr``, ``size`` or doc line.
"""

from __future__ import annotations

import numpy as np

from ..spec.patch import find_field
from ._suggest_rows import counterexamples, field_edit, n_independent, parent_path, suggestion_row
from ._util import at_offset, integral_values

__all__ = ["count_links", "size_links", "pos_links"]

def count_links(corpus, col_to_key, info, docs, sha, min_files, include_in_spec) -> list[dict]:
    """Integer fields equal to the number of rows of a child table per record."""
    out = []
    schema = corpus.schema
    keys = {t: [k for k in corpus.keys(t) if k in df.columns] for t, df in corpus.tables.items() if t != "files"}
    for child, cdf in corpus.tables.items():
        if child == "files" or not len(cdf):
            continue
        ckeys = keys[child]
        if len(ckeys) < 2:
            continue
        pkeys = ckeys[:-1]
        parent = next((t for t in keys if t != child and keys[t] == pkeys), None)
        if parent is None:
            continue
        pdf = corpus.tables[parent]
        n = cdf.groupby(pkeys, sort=False).size().rename("_n")
        merged = pdf[pkeys].join(n, on=pkeys)["_n"].fillna(0).astype(np.int64).to_numpy()
        cpaths = schema[(schema["table"] == child) & schema["path"].notna()]["path"]
        arr_path = None
        for p in cpaths:
            if "[]" in p:
                arr_path = p[: p.rfind("[]") + 2]
                break
        for (t, col), key in col_to_key.items():
            if t != parent:
                continue
            iv = integral_values(pdf[col])
            if iv is None or pdf[col].isna().any():
                continue
            eq = iv == merged
            if len(np.unique(iv)) < 3:
                continue
            holds = int(eq.sum())
            files_all = pdf["file"]
            n_files = n_independent(files_all.unique(), sha)
            if n_files < min_files or holds < 0.9 * len(eq):
                continue
            spec, owner, fid = key
            cols = [(t, col)]
            what = f"the number of {child} rows per {parent} record"
            if holds == len(eq):
                ev = f"{col} = {what} in {holds}/{len(eq)} records of {files_all.nunique()} files"
                xpath = schema[(schema["table"] == t) & (schema["column"] == col)]["path"].iloc[0]
                same_record = arr_path is not None and isinstance(xpath, str) and \
                    parent_path(xpath) == parent_path(arr_path[:-2])
                arr_id = arr_path[:-2].rsplit(".", 1)[-1] if arr_path else None
                _, arr, _ = find_field(docs[spec], owner, arr_id) if arr_id else (None, None, "")
                if same_record and arr is not None and str(arr.get("repeat-expr", "")).strip() == fid:
                    if include_in_spec:
                        out.append(suggestion_row(key, cols, "count", f"repeat-expr: {fid} (already in the spec)", ev,
                                                  holds, len(eq), "records", n_files, [], None, status="in spec"))
                    continue
                if same_record and arr is not None and arr.get("repeat") in ("eos", "until"):
                    edit = {"spec": spec, "type": owner, "field": arr_id,
                            "set": {"repeat": "expr", "repeat-expr": fid}}
                    out.append(suggestion_row(key, cols, "count", f"{arr_id}: repeat-expr: {fid}", ev, holds, len(eq),
                                              "records", n_files, [], edit))
                    continue
                out.append(suggestion_row(key, cols, "count", f"doc: count of {child}", ev, holds, len(eq), "records",
                                          n_files, [],
                                          field_edit(key, doc=f"Evidence - equals {what} in {holds}/{len(eq)} "
                                                              f"records.")))
            else:
                bad = pdf.loc[~eq, ["file"]].assign(value=iv[~eq], found=merged[~eq],
                                                   offset=corpus.offsets(t, col, pdf.index[~eq]).to_numpy())
                cx = counterexamples(bad, "found")
                ev = (f"{col} = {what} in {holds}/{len(eq)} records; except "
                      + ", ".join(f"{e['file']} has {e['value']} for {e['found']} rows"
                                  + at_offset(e) for e in cx[:3]))
                out.append(suggestion_row(key, cols, "count", f"doc: count of {child} (partial)", ev, holds, len(eq),
                                          "records", n_files, cx, field_edit(key, doc=f"Evidence - {ev}.")))
    return out


def size_links(corpus, col_to_key, docs, sha, min_files, include_in_spec) -> list[dict]:
    """Integer fields equal to the byte length of another field of the same record, in every row."""
    out = []
    schema = corpus.schema
    paths = dict(zip(zip(schema["table"], schema["column"]), schema["path"]))
    by_table: dict[str, list] = {}
    for (t, col), key in col_to_key.items():
        by_table.setdefault(t, []).append((col, key))
    for t, cols in by_table.items():
        df = corpus.tables[t]
        if t not in corpus.spans or df["file"].nunique() < min_files:
            continue
        starts, ends = corpus.spans[t]
        lengths = {c: (ends[c] - starts[c]) for c in starts.columns if c in ends.columns}
        for col, key in cols:
            iv = integral_values(df[col])
            if iv is None or df[col].isna().any() or len(np.unique(iv)) < 3:
                continue
            for other, ln in lengths.items():
                if other == col or (t, other) not in col_to_key or ln.isna().any():
                    continue
                if not (ln.to_numpy(dtype=np.int64) == iv).all():
                    continue
                xp, op = paths.get((t, col)), paths.get((t, other))
                if not isinstance(xp, str) or not isinstance(op, str) or parent_path(xp) != parent_path(op):
                    continue
                okey = col_to_key[(t, other)]
                node = find_field(docs[okey[0]], okey[1], okey[2])[1] or {}
                n_files = n_independent(df["file"].unique(), sha)
                ev = f"{col} = byte length of {other} in {len(df)}/{len(df)} rows of {df['file'].nunique()} files"
                if str(node.get("size", "")).strip() == key[2]:
                    if include_in_spec:
                        out.append(suggestion_row(key, [(t, col)], "size", f"size: {key[2]} (already in the spec)", ev,
                                                  len(df), len(df), "rows", n_files, [], None, status="in spec"))
                elif "size" in node or "size-eos" in node or "terminator" in node:
                    out.append(suggestion_row(key, [(t, col)], "size", f"{okey[2]}: size: {key[2]}", ev, len(df),
                                              len(df), "rows", n_files, [],
                                              {"spec": okey[0], "type": okey[1], "field": okey[2],
                                                          "set": {"size": key[2]}}))
                else:
                    out.append(suggestion_row(key, [(t, col)], "size", f"doc: size of {other}", ev, len(df), len(df),
                                              "rows", n_files, [], field_edit(key, doc=f"Evidence - {ev}.")))
                break
    return out


def pos_links(corpus, col_to_key, docs, sha, min_files, include_in_spec) -> list[dict]:
    """Integer fields equal to the absolute offset of a structure of the same record, in every row."""
    out = []
    schema = corpus.schema
    paths = dict(zip(zip(schema["table"], schema["column"]), schema["path"]))
    for t in dict.fromkeys(t for t, _ in col_to_key):
        df = corpus.tables[t]
        if t not in corpus.spans or df["file"].nunique() < min_files or len(df) < 5:
            continue
        starts = corpus.spans[t][0]
        full = {c: starts[c].to_numpy(dtype=np.int64) for c in starts.columns
                if isinstance(paths.get((t, c)), str) and not starts[c].isna().any()}
        for col in [c for tt, c in col_to_key if tt == t]:
            key = col_to_key[(t, col)]
            iv = integral_values(df[col])
            xp = paths.get((t, col))
            if iv is None or df[col].isna().any() or len(np.unique(iv)) < 3 or not isinstance(xp, str):
                continue
            best = None
            for other, st in full.items():
                op = paths[(t, other)]
                if other != col and (st == iv).all() and parent_path(op) != parent_path(xp):
                    best = op
                    break
            if best is None:
                continue
            struct_path = parent_path(best)
            if parent_path(struct_path) != parent_path(xp):
                continue  # the structure is not a sibling of the offset field
            sid = struct_path.rsplit(".", 1)[-1]
            node = find_field(docs[key[0]], key[1], sid)[1] or {}
            n_files = n_independent(df["file"].unique(), sha)
            ev = f"{col} = absolute offset of {sid} in {len(df)}/{len(df)} rows of {df['file'].nunique()} files"
            if str(node.get("pos", "")).strip() == key[2]:
                if include_in_spec:
                    out.append(suggestion_row(key, [(t, col)], "pos", f"{sid}: pos: {key[2]} (already in the spec)", ev,
                                              len(df), len(df), "rows", n_files, [], None, status="in spec"))
            else:
                out.append(suggestion_row(key, [(t, col)], "pos", f"doc: offset of {sid}", ev, len(df), len(df), "rows",
                                          n_files, [], field_edit(key, doc=f"Evidence - {ev}.")))
    return out
