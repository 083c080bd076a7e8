"""Suggestions from relations between columns: renames and doc lines with a formula.

:func:`relation_suggestions` runs :func:`~animre.research.relations` per
table and keeps the laws that save the bits the Bonferroni guard of
:mod:`animre.research` 's suggestions asks for (their description-length
score); :func:`derived_reads` (re-exported from
:mod:`animre.research._relation_reads`) tells which columns a derived column
is computed from, so that a field is never "explained" by a column computed
from it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..base.display import fmt
from ..spec.patch import find_field, spec_references
from ._relation_rank import ARITHMETIC
from ._relation_reads import derived_reads
from ._relations import DERIVED, relations
from ._suggest_rows import (
    MAX_COUNTEREXAMPLES,
    except_text,
    field_edit,
    n_independent,
    suggestion_row,
)
from ._util import is_missing

__all__ = ["relation_suggestions", "derived_reads"]

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


def relation_suggestions(corpus, by_table, col_to_key, info, docs, sha, min_files, alpha) -> list[dict]:
    out = []
    schema = corpus.schema
    reads = derived_reads(getattr(corpus, "formats", None))
    for t, cols in by_table.items():
        df = corpus.tables[t]
        if len(df) < 5 or df["file"].nunique() < min_files:
            continue
        rel = relations(corpus, t, min_support=0.85, n_permutations=10)
        if not len(rel):
            continue
        # equality is symmetric: put the spec field on the target side
        in_spec = {c for tt, c in col_to_key if tt == t}
        swap = (rel["relation"] == "equal") & ~rel["target"].isin(in_spec) & rel["source"].isin(in_spec)
        rel.loc[swap, ["target", "source"]] = rel.loc[swap, ["source", "target"]].to_numpy()
        n_cols = max(2, int((schema["table"] == t).sum()))
        bits = math.log2(len(set(cols)) * n_cols * len(ARITHMETIC) / alpha)  # what a finding must save
        done: set = set()
        for r in rel.itertuples(index=False):
            if r.relation not in ARITHMETIC or r.target in done or (t, r.target) not in col_to_key:
                continue
            if r.role == "definition" or not r.score >= bits:
                continue  # a computed column restating its source, or no more than chance explains
            key = col_to_key[(t, r.target)]
            if info[key]["node"] is None or "value" in (info[key]["node"] or {}):
                continue
            if _trivial(r.source, key, t, r.target, schema, docs, reads):
                continue
            rows = df[r.target].notna()
            n_rows = int(rows.sum())
            files = df.loc[rows, "file"].unique()
            n_files = n_independent(files, sha)
            if n_files < min_files or r.support < 0.85:
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
                if new and not refs and not _id_taken(docs[key[0]], key[1], new):
                    out.append(suggestion_row(key, [(t, r.target)], "rename", f"rename {fid} -> {new}", ev, n_rows,
                                              n_rows, "rows", n_files, [],
                                              field_edit(key, rename=new, doc=f"Evidence - {ev}.")))
                else:
                    out.append(suggestion_row(key, [(t, r.target)], "relation", f"doc: = {formula}", ev, n_rows, n_rows,
                                              "rows", n_files, [], field_edit(key, doc=f"Evidence - {ev}.")))
            else:
                cx = [{"file": e.get("file"), "value": e.get("target_value"), "source_value": e.get("source_value"),
                       **({"offset": int(o)} if not is_missing(o := _offset(corpus, t, r.target, e)) else {})}
                      for e in (r.counterexamples or [])[:MAX_COUNTEREXAMPLES]]
                ev = (f"{r.target} = {formula} in {int(r.n_agree)}/{int(r.n_rows)} rows of {len(files)} files; "
                      f"except {except_text(cx, int(r.n_rows) - int(r.n_agree), info[key]['show'])}")
                out.append(suggestion_row(key, [(t, r.target)], "relation", f"doc: = {formula} (partial)", ev,
                                          int(r.n_agree), int(r.n_rows), "rows", n_files, cx,
                                          field_edit(key, doc=f"Evidence - {ev}.")))
    return out


def _offset(corpus, t, col, e) -> Any:
    row = e.get("row")
    if row is None:
        return None
    o = corpus.offsets(t, col, [row]).iloc[0]
    return None if pd.isna(o) else int(o)


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
        if part in DERIVED:
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


def _id_taken(doc: Mapping, owner: str, new: str) -> bool:
    return find_field(doc, owner, new)[1] is not None
