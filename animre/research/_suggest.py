"""Suggestions: turn the evidence of profiles and relations back into spec edits.

:func:`suggest` reads what the other research functions already found
(:func:`~animre.research.profile` for constants, value sets and flag bits,
:func:`~animre.research.relations` for arithmetic relations, the tables'
parent/child structure for counts) and proposes, per spec field, the exact
``.ksy`` edit with its evidence. :func:`animre.suggest_patch` turns the
edits into a reviewable diff; :func:`animre.apply_suggestions` proves them
on the corpus before writing.

Flag fields are split into one boolean ``value`` instance per varying bit
(``(ai_flags & 0x2) != 0``, its byte range taken from the field with
``-animre-bytes``) rather than into ``b1`` fields: the field is still read
as it was (no change of layout or bit order), and every bit becomes a
column of its own. Bits the spec already tests this way are not proposed
again.

The false-discovery guard (why columns of random values get no suggestion):

- every suggestion needs at least ``min_files`` independent files (files
  with distinct contents: byte-identical copies count once);
- ``valid`` (``eq``): the value is the same in every row of every file;
  ``any-of`` and ``enum``: a closed set, i.e. every value occurs in at least
  two independent files (the Good-Turing estimate of the chance of an unseen
  value, values seen in one file / files, is then 0), at most 4 values for
  ``any-of`` and 16 for ``enum``;
- flags: the profile's ``LOOKS_LIKE_FLAGS`` rule (few repeated values made
  of independently set bits);
- relations: they beat every shuffle in :func:`relations` and, with the
  chance that a column with the target's value distribution agrees with any
  function of the source by accident (the collision probability ``sum p²``
  per row, to the power of the rows), below ``alpha / n_tests`` where
  ``n_tests`` = target columns x source columns x 6 relation kinds
  (Bonferroni);
- ``doc`` lines for fields that stay unknown only when one value holds at
  least half of the rows or there are at most 16 values.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..display import fmt, formatters
from ..formats import all_formats
from ..spec.compiler import KSY_DIR
from ..spec.patch import find_field, find_type, spec_references
from ._profile import profile
from ._relations import relations
from ._util import integral_values, is_missing, plain

__all__ = ["suggest", "SUGGESTION_COLUMNS", "SUGGESTION_KINDS"]

SUGGESTION_KINDS = ("valid", "enum", "flags", "count", "size", "pos", "rename", "relation", "doc")
SUGGESTION_COLUMNS = ["spec", "type", "field", "table", "column", "kind", "suggestion", "evidence", "holds",
                      "of", "unit", "n_files", "counterexamples", "edit", "status"]
_INT = re.compile(r"^(?:[us][1248](?:le|be)?|b\d+(?:le|be)?)$")
_QUANTITY = re.compile(r"^(?:num|len|ofs|size|count)_|(?:^|_)(?:speed|time|x|y|width|height|size|len|ofs|count|"
                       r"delay|offset|orig|length|frames|weight|damage|points|health)$")
_ARITH = ("equal", "offset", "multiple", "divide", "linear", "mask")
_DERIVED_SOURCES = ("row_in_file", "rows_in_file", "file_size")
MAX_COUNTEREXAMPLES = 10


def suggest(corpus: Any, spec: str | Path | None = None, *, min_files: int = 5, alpha: float = 0.05,
            tables: list[str] | None = None, include_in_spec: bool = False,
            relations_: bool = True) -> pd.DataFrame:
    """Spec edits that the evidence of a corpus supports, one row per field and kind.

    Parameters
    ----------
    corpus : Corpus
        The parsed files (``animre.open_corpus``).
    spec : str or path, optional
        Only fields of this spec: a spec id (``"frm"``, ``"omf_common"``) or
        a ``.ksy`` path (its text is read instead of the shipped one). Default:
        every spec the corpus uses.
    min_files : int
        Independent files (distinct contents) a suggestion needs (default 5).
    alpha : float
        Family-wise error rate of the relation guard (see the module doc).
    tables : list of str, optional
        Only these tables.
    include_in_spec : bool
        Also list links the spec already states (``repeat-expr: num_coords``),
        with status ``in spec`` and no edit.
    relations_ : bool
        Search relations between columns (the slowest part).

    Returns
    -------
    DataFrame
        ``spec, type, field`` (where the edit goes), ``table, column`` (where
        the evidence is), ``kind`` (one of :data:`SUGGESTION_KINDS`),
        ``suggestion`` (the edit in words), ``evidence`` (``"0x32 in 11/11
        files"``), ``holds`` / ``of`` / ``unit`` (files, rows or records),
        ``n_files`` (independent files), ``counterexamples`` (file, value,
        offset), ``edit`` (for :func:`animre.suggest_patch`) and ``status``.

    Examples
    --------
    >>> s = suggest(c, spec="af")
    >>> s.query("column == 'exec_window'")[["kind", "suggestion", "evidence"]].values.tolist()
    [['valid', 'valid: 10', '10 in 11/11 files (11 rows)']]
    """
    docs = _spec_docs(corpus, spec, KSY_DIR)
    only_spec = None
    if spec is not None:
        only_spec = Path(spec).stem if str(spec).endswith(".ksy") else str(spec)
    schema = corpus.schema
    files = corpus.files.set_index("file")
    sha = files["sha256"] if "sha256" in files.columns else pd.Series(files.index, index=files.index)
    groups: dict[tuple, list[tuple[str, str]]] = {}
    info: dict[tuple, dict] = {}
    styles: dict[str, dict] = {}
    for r in schema.itertuples(index=False):
        if r.table == "files" or r.kind not in ("read", "pos") or not isinstance(r.field, str):
            continue
        if tables is not None and r.table not in tables:
            continue
        if r.table not in corpus.tables or r.column not in corpus.tables[r.table].columns:
            continue
        owner, fid = r.field.rsplit(".", 1)
        defspec = _defining_spec(docs, r.spec, owner, fid, find_field)
        if defspec is None or (only_spec is not None and defspec != only_spec):
            continue
        key = (defspec, owner, fid)
        groups.setdefault(key, []).append((r.table, r.column))
        if key not in info:
            _, node, where = find_field(docs[defspec], owner, fid)
            if r.table not in styles:
                styles[r.table] = formatters(corpus.columns(r.table))
            info[key] = {"node": node, "where": where, "type": str(r.type), "enum": r.enum
                         if isinstance(r.enum, str) else None,
                         "referenced": sum(spec_references(d, fid) for d in docs.values()),
                         "show": styles[r.table].get(r.column, fmt)}
    out: list[dict] = []
    profiles: dict[str, pd.DataFrame] = {}
    by_table: dict[str, list[str]] = {}
    for cols in groups.values():
        for t, col in cols:
            by_table.setdefault(t, []).append(col)
    for t, cols in by_table.items():
        profiles[t] = profile(t, corpus=corpus, columns=list(dict.fromkeys(cols)),
                              key_tables={}).set_index("column")
    col_to_key = {(t, col): k for k, cols in groups.items() for t, col in cols}
    filtered = _filtered_tables(corpus, docs)
    per_field: list[dict] = []
    for key, cols in groups.items():
        per_field += _field_suggestions(corpus, key, cols, info[key], sha, profiles, min_files,
                                        filtered=any(tc in filtered for tc in cols),
                                        bits_in_spec=_bits_in_spec(docs[key[0]], key[1], key[2]),
                                        include_in_spec=include_in_spec)
    links = _count_links(corpus, col_to_key, info, docs, sha, min_files, include_in_spec)
    links += _size_links(corpus, col_to_key, docs, sha, min_files, include_in_spec)
    links += _pos_links(corpus, col_to_key, docs, sha, min_files, include_in_spec)
    if relations_:
        links += _relation_suggestions(corpus, by_table, col_to_key, info, docs, sha, min_files, alpha)
    # a field that a full relation or count explains is a quantity, not a set of codes
    explained = {(r["spec"], r["type"], r["field"]) for r in links if r["holds"] == r["of"]}
    for r in per_field:
        is_set = r["kind"] == "enum" or (r["kind"] == "valid" and "any-of" in r["suggestion"])
        if not (is_set and (r["spec"], r["type"], r["field"]) in explained):
            out.append(r)
    out += links
    out += _unknown_docs(corpus, groups, info, sha, out, min_files)
    res = pd.DataFrame(out, columns=SUGGESTION_COLUMNS)
    if len(res):
        res = res.drop_duplicates(subset=["spec", "type", "field", "kind"], keep="first").reset_index(drop=True)
    return res


# ----------------------------------------------------------------------------- inputs


def _spec_docs(corpus: Any, spec: Any, ksy_dir: Path) -> dict[str, Mapping]:
    """Loaded YAML of every spec the corpus uses (and their imports), by spec id."""
    import yaml

    texts: dict[str, str] = {}
    for sid, mod in (getattr(corpus, "parsers", None) or {}).items():
        t = getattr(mod, "__animre_spec_text__", None)
        if t:
            texts[sid] = t
    base = ksy_dir
    if spec is not None and str(spec).endswith(".ksy"):
        p = Path(spec)
        texts[p.stem] = p.read_text(encoding="utf-8")
        base = p.parent
    wanted = set(corpus.schema["spec"].dropna()) | set(texts)
    docs: dict[str, Mapping] = {}
    todo = list(wanted)
    while todo:
        sid = todo.pop()
        if sid in docs:
            continue
        text = texts.get(sid)
        if text is None:
            for d in (base, ksy_dir):
                if (Path(d) / f"{sid}.ksy").is_file():
                    text = (Path(d) / f"{sid}.ksy").read_text(encoding="utf-8")
                    break
        if text is None:
            continue
        docs[sid] = yaml.safe_load(text)
        for imp in (docs[sid].get("meta") or {}).get("imports") or []:
            todo.append(str(imp).rsplit("/", 1)[-1])
    return docs


def _defining_spec(docs: dict, main: str, owner: str, fid: str, find_field) -> str | None:
    order = [main] + [str(i).rsplit("/", 1)[-1] for i in ((docs.get(main) or {}).get("meta") or {}).get("imports") or []]
    for sid in order:
        if sid in docs and find_field(docs[sid], owner, fid)[1] is not None:
            return sid
    return None


def _values(corpus: Any, cols: list[tuple[str, str]]) -> pd.DataFrame:
    """file, value, offset, table, row of every cell of a field (all its columns, missing left out)."""
    parts = []
    for t, col in cols:
        df = corpus.tables[t]
        s = df[col]
        keep = [not is_missing(v) for v in s] if s.dtype == object else s.notna().to_numpy()
        idx = df.index[keep]
        parts.append(pd.DataFrame({"file": df["file"].loc[idx].to_numpy(), "value": s.loc[idx].to_numpy(),
                                   "offset": corpus.offsets(t, col, idx).to_numpy(),
                                   "table": t, "column": col, "row": idx.to_numpy()}))
    if not parts:
        return pd.DataFrame(columns=["file", "value", "offset", "table", "column", "row"])
    return pd.concat(parts, ignore_index=True)


def _n_indep(files: Any, sha: pd.Series) -> int:
    return int(pd.Series(list(files)).map(sha).fillna(pd.Series(list(files))).nunique())


def _counter(rows: pd.DataFrame, extra: str | None = None) -> list[dict]:
    out = []
    for r in rows.head(MAX_COUNTEREXAMPLES).itertuples(index=False):
        d = {"file": r.file, "value": plain(r.value)}
        if extra is not None:
            d[extra] = plain(getattr(r, extra))
        if not is_missing(r.offset):
            d["offset"] = int(r.offset)
        out.append(d)
    return out


def _except_text(cx: list[dict], total: int, show=fmt) -> str:
    def one(e):
        at = f" @ {e['offset']:#x}" if "offset" in e else ""
        return f"{e['file']}={show(e['value'])}{at}"

    more = f" (+{total - 3} more)" if total > 3 else ""
    return ", ".join(one(e) for e in cx[:3]) + more


def _row(key: tuple, cols: list[tuple[str, str]], kind: str, suggestion: str, evidence: str, holds: int,
         of: int, unit: str, n_files: int, counterexamples: list, edit: dict | None,
         status: str = "proposed") -> dict:
    spec, owner, fid = key
    return {"spec": spec, "type": owner, "field": fid, "table": cols[0][0],
            "column": ", ".join(dict.fromkeys(c for _, c in cols)), "kind": kind, "suggestion": suggestion,
            "evidence": evidence, "holds": int(holds), "of": int(of), "unit": unit, "n_files": int(n_files),
            "counterexamples": counterexamples, "edit": edit, "status": status}


def _edit(key: tuple, **kw) -> dict:
    spec, owner, fid = key
    return {"spec": spec, "type": owner, "field": fid, **{k: v for k, v in kw.items() if v}}


# ----------------------------------------------------------------------------- per field


def _filtered_tables(corpus: Any, docs: dict) -> set:
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


def _bits_in_spec(doc: Mapping, owner: str, fid: str) -> dict[int, str]:
    """``{mask: instance id}`` of the type's instances that already test one bit of ``fid``."""
    t = find_type(doc, owner) or {}
    pat = re.compile(rf"^\(?\s*{re.escape(fid)}(?:\.to_i)?\s*&\s*(0x[0-9a-fA-F]+|\d+)\s*\)?\s*!=\s*0$")
    out = {}
    for name, body in (t.get("instances") or {}).items():
        m = pat.match(str((body or {}).get("value", "")).strip()) if isinstance(body, Mapping) else None
        if m:
            out[int(m.group(1), 0)] = str(name)
    return out


def _field_suggestions(corpus, key, cols, inf, sha, profiles, min_files, filtered=False,
                       bits_in_spec: dict | None = None, include_in_spec: bool = False) -> list[dict]:
    node = inf["node"] or {}
    show = inf["show"]
    if not _INT.match(inf["type"]) or "contents" in node:
        return []
    # a valid applies to every element, also those a filtered table leaves out; enums take enum values
    has_valid = "valid" in node or filtered or inf["enum"] is not None
    v = _values(corpus, cols)
    ints = integral_values(v["value"]) if len(v) else None
    if ints is None or not len(ints):
        return []
    v = v.assign(value=ints)
    n_rows = len(v)
    per_file = v.groupby("file", sort=False)["value"]
    file_list = list(per_file.groups)
    n_files = _n_indep(file_list, sha)
    counts = v["value"].value_counts()
    fid = key[2]
    out = []
    # valid: eq
    if len(counts) == 1 and not has_valid:
        val = int(counts.index[0])
        ev = f"{show(val)} in {len(file_list)}/{len(file_list)} files ({n_rows} rows)"
        if n_files >= min_files:
            out.append(_row(key, cols, "valid", f"valid: {show(val)}", ev, len(file_list), len(file_list),
                            "files", n_files, [], _edit(key, set={"valid": val}, doc=f"Evidence - {ev}.")))
        return out
    # valid: any-of (a small closed set)
    files_per_value = v.drop_duplicates(["file", "value"]).assign(h=lambda d: d["file"].map(sha)) \
        .drop_duplicates(["h", "value"]).groupby("value").size()
    closed = bool((files_per_value >= 2).all())
    quantity = bool(_QUANTITY.search(fid)) and not fid.startswith("unknown")
    if 2 <= len(counts) <= 4 and closed and n_files >= 2 * min_files and not has_valid and not quantity:
        vals = sorted(int(x) for x in counts.index)
        ev = (f"{len(vals)} values {', '.join(show(x) for x in vals)} in {n_rows} rows of {len(file_list)} "
              f"files, each in >= {int(files_per_value.min())} independent files")
        out.append(_row(key, cols, "valid", f"valid: any-of [{', '.join(show(x) for x in vals)}]", ev,
                        len(file_list), len(file_list), "files", n_files, [],
                        _edit(key, set={"valid": {"any-of": vals}}, doc=f"Evidence - {ev}.")))
    # flags
    flags_note = None
    for t, col in cols:
        p = profiles.get(t)
        if p is not None and col in p.index and "LOOKS_LIKE_FLAGS" in p.at[col, "alerts"]:
            flags_note = dict(p.at[col, "notes"]).get("LOOKS_LIKE_FLAGS")
            break
    if flags_note and n_files >= min_files and not quantity:
        u = v["value"].to_numpy(dtype=np.int64)
        width = max(8, int(u.max()).bit_length())
        ref = f"{fid}.to_i" if inf["enum"] else fid
        inst, parts, have = {}, [], []
        for b in range(width):
            k = int(((u >> b) & 1).sum())
            if 0 < k < len(u):
                m = 1 << b
                parts.append(f"{m:#x} in {k}/{len(u)} rows")
                if m in (bits_in_spec or {}):
                    have.append(f"{bits_in_spec[m]} ({m:#x})")
                    continue
                nf = v.loc[((u >> b) & 1) == 1, "file"].nunique()
                doc = f"Bit {m:#x} of {fid} - set in {k}/{len(u)} rows of {nf} files (suggested by animre)."
                inst[f"{fid}_bit{b}"] = {"value": f"({ref} & {m:#x}) != 0", "-animre-bytes": fid, "doc": doc}
        ev = f"{flags_note}; bits set: {', '.join(parts)}"
        if have:
            ev += f"; already in the spec: {', '.join(have)}"
        if inst:
            out.append(_row(key, cols, "flags", f"{len(inst)} bit instances {', '.join(inst)}", ev, n_rows,
                            n_rows, "rows", n_files, [], _edit(key, instances=inst)))
        elif have and include_in_spec:
            out.append(_row(key, cols, "flags", f"bits already in the spec: {', '.join(have)}", ev, n_rows,
                            n_rows, "rows", n_files, [], None, status="in spec"))
    # enum: a small closed set of codes
    referenced = inf.get("referenced", 0) > 0  # an enum would break the expressions that use the field
    if (not flags_note and inf["enum"] is None and 3 <= len(counts) <= 16 and closed and n_files >= min_files
            and n_rows >= 3 * len(counts) and not quantity and not referenced and int(counts.index.min()) >= 0
            and "value" not in node):
        vals = sorted(int(x) for x in counts.index)
        ename = fid if fid not in _enum_names(corpus) else f"{fid}_values"
        labels = {x: _enum_label(x) for x in vals}
        ev = (f"{len(vals)} codes {', '.join(show(x) for x in vals)} in {n_rows} rows of {len(file_list)} files, "
              f"each in >= {int(files_per_value.min())} independent files")
        out.append(_row(key, cols, "enum", f"enum: {ename} ({len(vals)} values)", ev, n_rows, n_rows, "rows",
                        n_files, [], _edit(key, set={"enum": ename}, enums={ename: labels})))
    return out


def _enum_label(v: int) -> str:
    """The label of a suggested enum value: ``value_0x05``, ``value_minus_0x01``."""
    return f"value_{v:#04x}" if v >= 0 else f"value_minus_{-v:#04x}"


def _enum_names(corpus: Any) -> set:
    s = corpus.schema
    return set(s["enum"].dropna())


# ----------------------------------------------------------------------------- counts


def _count_links(corpus, col_to_key, info, docs, sha, min_files, include_in_spec) -> list[dict]:
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
            n_files = _n_indep(files_all.unique(), sha)
            if n_files < min_files or holds < 0.9 * len(eq):
                continue
            spec, owner, fid = key
            cols = [(t, col)]
            what = f"the number of {child} rows per {parent} record"
            if holds == len(eq):
                ev = f"{col} = {what} in {holds}/{len(eq)} records of {files_all.nunique()} files"
                xpath = schema[(schema["table"] == t) & (schema["column"] == col)]["path"].iloc[0]
                same_record = arr_path is not None and isinstance(xpath, str) and \
                    _parent_path(xpath) == _parent_path(arr_path[:-2])
                arr_id = arr_path[:-2].rsplit(".", 1)[-1] if arr_path else None
                _, arr, _ = find_field(docs[spec], owner, arr_id) if arr_id else (None, None, "")
                if same_record and arr is not None and str(arr.get("repeat-expr", "")).strip() == fid:
                    if include_in_spec:
                        out.append(_row(key, cols, "count", f"repeat-expr: {fid} (already in the spec)", ev,
                                        holds, len(eq), "records", n_files, [], None, status="in spec"))
                    continue
                if same_record and arr is not None and arr.get("repeat") in ("eos", "until"):
                    edit = {"spec": spec, "type": owner, "field": arr_id,
                            "set": {"repeat": "expr", "repeat-expr": fid}}
                    out.append(_row(key, cols, "count", f"{arr_id}: repeat-expr: {fid}", ev, holds, len(eq),
                                    "records", n_files, [], edit))
                    continue
                out.append(_row(key, cols, "count", f"doc: count of {child}", ev, holds, len(eq), "records",
                                n_files, [], _edit(key, doc=f"Evidence - equals {what} in {holds}/{len(eq)} "
                                                          f"records.")))
            else:
                bad = pdf.loc[~eq, ["file"]].assign(value=iv[~eq], found=merged[~eq],
                                                   offset=corpus.offsets(t, col, pdf.index[~eq]).to_numpy())
                cx = _counter(bad, "found")
                ev = (f"{col} = {what} in {holds}/{len(eq)} records; except "
                      + ", ".join(f"{e['file']} has {e['value']} for {e['found']} rows"
                                  + (f" @ {e['offset']:#x}" if "offset" in e else "") for e in cx[:3]))
                out.append(_row(key, cols, "count", f"doc: count of {child} (partial)", ev, holds, len(eq),
                                "records", n_files, cx, _edit(key, doc=f"Evidence - {ev}.")))
    return out


def _size_links(corpus, col_to_key, docs, sha, min_files, include_in_spec) -> list[dict]:
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
                if not isinstance(xp, str) or not isinstance(op, str) or _parent_path(xp) != _parent_path(op):
                    continue
                okey = col_to_key[(t, other)]
                node = find_field(docs[okey[0]], okey[1], okey[2])[1] or {}
                n_files = _n_indep(df["file"].unique(), sha)
                ev = f"{col} = byte length of {other} in {len(df)}/{len(df)} rows of {df['file'].nunique()} files"
                if str(node.get("size", "")).strip() == key[2]:
                    if include_in_spec:
                        out.append(_row(key, [(t, col)], "size", f"size: {key[2]} (already in the spec)", ev,
                                        len(df), len(df), "rows", n_files, [], None, status="in spec"))
                elif "size" in node or "size-eos" in node or "terminator" in node:
                    out.append(_row(key, [(t, col)], "size", f"{okey[2]}: size: {key[2]}", ev, len(df), len(df),
                                    "rows", n_files, [], {"spec": okey[0], "type": okey[1], "field": okey[2],
                                                          "set": {"size": key[2]}}))
                else:
                    out.append(_row(key, [(t, col)], "size", f"doc: size of {other}", ev, len(df), len(df), "rows",
                                    n_files, [], _edit(key, doc=f"Evidence - {ev}.")))
                break
    return out


def _pos_links(corpus, col_to_key, docs, sha, min_files, include_in_spec) -> list[dict]:
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
                if other != col and (st == iv).all() and _parent_path(op) != _parent_path(xp):
                    best = op
                    break
            if best is None:
                continue
            struct_path = _parent_path(best)
            if _parent_path(struct_path) != _parent_path(xp):
                continue  # the structure is not a sibling of the offset field
            sid = struct_path.rsplit(".", 1)[-1]
            node = find_field(docs[key[0]], key[1], sid)[1] or {}
            n_files = _n_indep(df["file"].unique(), sha)
            ev = f"{col} = absolute offset of {sid} in {len(df)}/{len(df)} rows of {df['file'].nunique()} files"
            if str(node.get("pos", "")).strip() == key[2]:
                if include_in_spec:
                    out.append(_row(key, [(t, col)], "pos", f"{sid}: pos: {key[2]} (already in the spec)", ev,
                                    len(df), len(df), "rows", n_files, [], None, status="in spec"))
            else:
                out.append(_row(key, [(t, col)], "pos", f"doc: offset of {sid}", ev, len(df), len(df), "rows",
                                n_files, [], _edit(key, doc=f"Evidence - {ev}.")))
    return out


# ----------------------------------------------------------------------------- relations


def _parent_path(p: str) -> str:
    return p.rsplit(".", 1)[0] if "." in p else ""


def _formula(rel: str, param: Any, src: str) -> str | None:
    if rel == "equal":
        return src
    if rel == "offset":
        return f"{src} + {param}" if param >= 0 else f"{src} - {-param}"
    if rel == "multiple":
        return f"{param} * {src}"
    if rel == "divide":
        return f"{src} // {param}"
    if rel == "mask":
        return f"{src} & {param}"
    if rel == "linear":
        m = re.match(r"k=([-\d.]+), c=([-\d.e+]+)(, floor)?", str(param))
        if not m:
            return None
        k, c, floor = m.group(1), m.group(2), m.group(3)
        if k in ("-0.5", "0.5") and floor:
            twice = fmt(_integral(float(c) * 2))
            return f"({twice} - {src}) // 2" if k == "-0.5" else f"({src} + {twice}) // 2"
        body = f"{c} - {src}" if k == "-1" else f"{k} * {src} + {c}"
        return f"floor({body})" if floor else body
    return None


def _integral(x: float) -> int | float:
    """``x`` as an int when it is one (a formula's constant reads ``240``, not ``240.0``)."""
    return int(x) if x == int(x) else x


def _new_name(rel: str, param: Any, src: str) -> str | None:
    short = re.sub(r"[^a-z0-9_]", "_", src.split(".")[-1].lower()).strip("_")
    if not short or not short[0].isalpha():
        return None
    if rel == "equal":
        return f"{short}_copy"
    if rel == "offset" and isinstance(param, (int, np.integer)):
        return f"{short}_plus_{param}" if param >= 0 else f"{short}_minus_{-param}"
    if rel == "multiple" and isinstance(param, (int, np.integer)) and param > 0:
        return f"{short}_times_{param}"
    if rel == "divide":
        return f"{short}_div_{param}"
    return None


def _chance_log10(values: pd.Series) -> float:
    """log10 of the chance that a column with these values' distribution agrees row by row by accident."""
    p = values.value_counts(normalize=True).to_numpy()
    return float(len(values) * math.log10(max(float((p ** 2).sum()), 1e-300)))


def _relation_suggestions(corpus, by_table, col_to_key, info, docs, sha, min_files, alpha) -> list[dict]:
    out = []
    schema = corpus.schema
    reads = derived_reads()
    for t, cols in by_table.items():
        df = corpus.tables[t]
        if len(df) < 5 or df["file"].nunique() < min_files:
            continue
        rel = relations(t, corpus=corpus, min_support=0.85, n_permutations=10)
        if not len(rel):
            continue
        # equality is symmetric: put the spec field on the target side
        in_spec = {c for tt, c in col_to_key if tt == t}
        swap = (rel["relation"] == "equal") & ~rel["target"].isin(in_spec) & rel["source"].isin(in_spec)
        rel.loc[swap, ["target", "source"]] = rel.loc[swap, ["source", "target"]].to_numpy()
        n_cols = max(2, int((schema["table"] == t).sum()))
        threshold = math.log10(alpha / (len(set(cols)) * n_cols * len(_ARITH)))
        done: set = set()
        for r in rel.itertuples(index=False):
            if r.relation not in _ARITH or r.target in done or (t, r.target) not in col_to_key:
                continue
            key = col_to_key[(t, r.target)]
            if info[key]["node"] is None or "value" in (info[key]["node"] or {}):
                continue
            if _trivial(r.source, key, t, r.target, schema, docs, reads):
                continue
            rows = df[r.target].notna()
            n_rows = int(rows.sum())
            files = df.loc[rows, "file"].unique()
            n_files = _n_indep(files, sha)
            if n_files < min_files or r.support < 0.85:
                continue
            agree_rows = df.loc[rows, r.target]
            if _chance_log10(agree_rows) * r.support > threshold:
                continue
            formula = _formula(r.relation, r.parameter, r.source)
            if formula is None:
                continue
            fid = key[2]
            done.add(r.target)
            if r.support == 1.0:
                ev = f"{r.target} = {formula} in {n_rows}/{n_rows} rows of {len(files)} files"
                new = _new_name(r.relation, r.parameter, r.source) if fid.startswith("unknown") else None
                refs = sum(spec_references(d, fid) for d in docs.values()) if new else 0
                if new and not refs and not _id_taken(docs[key[0]], key[1], new, find_field):
                    out.append(_row(key, [(t, r.target)], "rename", f"rename {fid} -> {new}", ev, n_rows, n_rows,
                                    "rows", n_files, [], _edit(key, rename=new, doc=f"Evidence - {ev}.")))
                else:
                    out.append(_row(key, [(t, r.target)], "relation", f"doc: = {formula}", ev, n_rows, n_rows,
                                    "rows", n_files, [], _edit(key, doc=f"Evidence - {ev}.")))
            else:
                cx = [{"file": e.get("file"), "value": e.get("target_value"), "source_value": e.get("source_value"),
                       **({"offset": int(o)} if not is_missing(o := _offset(corpus, t, r.target, e)) else {})}
                      for e in (r.counterexamples or [])[:MAX_COUNTEREXAMPLES]]
                ev = (f"{r.target} = {formula} in {int(r.n_agree)}/{int(r.n_rows)} rows of {len(files)} files; "
                      f"except {_except_text(cx, int(r.n_rows) - int(r.n_agree), info[key]['show'])}")
                out.append(_row(key, [(t, r.target)], "relation", f"doc: = {formula} (partial)", ev,
                                int(r.n_agree), int(r.n_rows), "rows", n_files, cx, _edit(key, doc=f"Evidence - {ev}.")))
    return out


def _offset(corpus, t, col, e) -> Any:
    row = e.get("row")
    if row is None:
        return None
    o = corpus.offsets(t, col, [row]).iloc[0]
    return None if pd.isna(o) else int(o)


def derived_reads() -> dict[tuple[str, str], set[tuple[str, str]]]:
    """Every derived column ``(table, column)`` -> every ``(table, column)`` it is computed from.

    Through other derived columns too (``num_image_frames`` reads
    ``flc_frames.is_ring``, which reads ``header.num_frames``): what each
    format module declares in :attr:`animre.formats.base.Derived.reads`.
    """
    direct = {(d.table, d.column): set(d.reads) for f in all_formats().values() for d in f.derived}
    out: dict[tuple[str, str], set[tuple[str, str]]] = {}

    def walk(k: tuple[str, str], seen: frozenset) -> set:
        if k in out:
            return out[k]
        acc = set(direct.get(k, ()))
        for r in list(acc):
            if r in direct and r not in seen:
                acc |= walk(r, seen | {r})
        out[k] = acc
        return acc

    for k in direct:
        walk(k, frozenset({k}))
    return out


def _reads_field(expr: Any, fid: str) -> bool:
    return bool(re.search(rf"(?<![A-Za-z0-9_]){re.escape(fid)}(?![A-Za-z0-9_])", str(expr or "")))


def _trivial(source: str, key: tuple, table: str, column: str, schema: pd.DataFrame, docs: dict,
             reads: dict) -> bool:
    """A source computed from the target itself: a value instance or a derived column that reads it.

    ``num_idles`` from ``num_idles_raw`` (the spec's own ``value``), or
    ``num_image_frames``, which a format module counts from
    ``header.num_frames`` (its declared reads, followed through other
    derived columns and the value instances they read).
    """
    fid = key[2]
    kinds = dict(zip(zip(schema["table"], schema["column"]), schema["kind"]))
    fields = dict(zip(zip(schema["table"], schema["column"]), schema["field"]))

    def value_reads(tc: tuple) -> bool:
        f = fields.get(tc)
        if not isinstance(f, str):
            return True
        owner, sid = f.rsplit(".", 1)
        return any(_reads_field((find_field(d, owner, sid)[1] or {}).get("value"), fid) for d in docs.values())

    for part in source.split(" * "):
        if part in _DERIVED_SOURCES:
            continue
        tc = (table, part)
        kind = kinds.get(tc)
        if kind is None:
            return True  # not a column the spec or a format module declares: nothing says what it reads
        if kind in ("value", "value (bits)", "enum name") and value_reads(tc):
            return True
        if kind == "derived":
            used = reads.get(tc)
            if used is None or (table, column) in used:
                return True
            if any(kinds.get(r) in ("value", "value (bits)") and value_reads(r) for r in used):
                return True
    return False


def _id_taken(doc: Mapping, owner: str, new: str, find_field) -> bool:
    return find_field(doc, owner, new)[1] is not None


# ----------------------------------------------------------------------------- unknown fields


def _unknown_docs(corpus, groups, info, sha, found, min_files) -> list[dict]:
    """Evidence lines for ``unknown_*`` fields that no other suggestion explains."""
    explained = {(r["spec"], r["type"], r["field"]) for r in found
                 if r["kind"] in ("valid", "rename", "relation", "enum", "flags", "count")}
    out = []
    for key, cols in groups.items():
        if not key[2].startswith("unknown") or key in explained:
            continue
        v = _values(corpus, cols)
        show = info[key]["show"]
        if not len(v):
            continue
        try:
            counts = v["value"].map(lambda x: x if not isinstance(x, (list, np.ndarray)) else tuple(x)).value_counts()
        except TypeError:
            continue
        top, k = counts.index[0], int(counts.iloc[0])
        n_rows, files = len(v), v["file"].unique()
        n_files = _n_indep(files, sha)
        if isinstance(top, (bytes, tuple)):
            continue
        if len(counts) == 1:
            ev = f"{show(top)} in {len(files)}/{len(files)} files ({n_rows} rows)"
            why = f"; {n_files} independent files, fewer than the {min_files} a valid needs" \
                if n_files < min_files else ""
            out.append(_row(key, cols, "doc", f"doc: {ev}", ev + why, len(files), len(files), "files", n_files, [],
                            _edit(key, doc=f"Evidence - {ev}.")))
            continue
        if k * 2 >= n_rows:
            bad = v[v["value"] != top]
            cx = _counter(bad)
            top_files = int(v.loc[v["value"] == top, "file"].nunique())
            ev = (f"{show(top)} in {k}/{n_rows} rows ({top_files}/{len(files)} files); except "
                  f"{_except_text(cx, len(bad), show)}")
            out.append(_row(key, cols, "doc", f"doc: mostly {show(top)}", ev, k, n_rows, "rows", n_files, cx,
                            _edit(key, doc=f"Evidence - {ev}.")))
        elif len(counts) <= 16:
            vals = ", ".join(show(x) for x in sorted(counts.index.tolist())[:16])
            ev = f"{len(counts)} values ({vals}) in {n_rows} rows of {len(files)} files"
            out.append(_row(key, cols, "doc", f"doc: {len(counts)} values", ev, n_rows, n_rows, "rows", n_files,
                            [], _edit(key, doc=f"Evidence - {ev}.")))
    return out
