"""What every suggestion is made of: the specs it edits, the values of a field, evidence and rows.

:func:`spec_docs` loads the YAML of every spec a corpus uses (and their
imports); :func:`field_values` gathers every cell of one spec field with its
file and byte offset; :func:`suggestion_row` and :func:`field_edit` make one
row of :func:`~animre.research.suggest` and its ``.ksy`` edit;
:func:`n_independent` counts files with distinct contents.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from ..base import yamlio
from ..base.display import fmt, plain
from ..base.errors import UsageError
from ..spec.imports import import_name, import_names, walk_imports
from ..spec.patch import find_field
from ._util import at_offset, is_missing

__all__ = ["spec_docs", "spec_id", "defining_spec", "field_values", "n_independent", "counterexamples", "except_text",
           "suggestion_row", "field_edit", "parent_path", "MAX_COUNTEREXAMPLES"]

MAX_COUNTEREXAMPLES = 10


def spec_docs(corpus: Any, spec: Any, ksy_dir: Path) -> dict[str, Mapping]:
    """Loaded YAML of every spec the corpus uses (and their imports), by spec id."""
    texts: dict[str, str] = {}
    for sid, mod in (getattr(corpus, "parsers", None) or {}).items():
        t = getattr(mod, "__animre_spec_text__", None)
        if t:
            texts[sid] = t
    in_use = corpus.formats_in_use() if hasattr(corpus, "formats_in_use") else []
    for src in (getattr(f, "source", None) for f in in_use):  # the specs the corpus was read with (yours too)
        if src is not None and getattr(src, "text", None):
            texts.setdefault(src.id, src.text)
            for iid, _, itext in getattr(src, "imports", ()):
                texts.setdefault(iid, itext)
    base = ksy_dir
    if spec is not None and str(spec).endswith(".ksy"):
        p = Path(spec)
        texts[spec_id(p)] = p.read_text(encoding="utf-8")
        base = p.parent
    wanted = set(corpus.schema["spec"].dropna()) | set(texts)
    docs: dict[str, Mapping] = {}

    def text_of(sid: str) -> str | None:
        if sid in texts:
            return texts[sid]
        files = [Path(d) / f"{sid}.ksy" for d in (base, ksy_dir)]
        return next((f.read_text(encoding="utf-8") for f in files if f.is_file()), None)

    def load(entry: str, _importer: str) -> tuple[str, Mapping] | None:
        sid = import_name(entry)
        if sid in docs:
            return sid, docs[sid]
        text = text_of(sid)
        return (sid, yamlio.load(text)) if text is not None else None

    for sid in sorted(wanted):
        found = None if sid in docs else load(sid, sid)
        if found is not None:
            docs.update(walk_imports(sid, found[1], load))
    return docs


def spec_id(spec: Any) -> str:
    """The id of a spec given by id or as a ``.ksy`` path: its ``meta/id`` (the file's name when it has none).

    Examples
    --------
    >>> spec_id("frm")
    'frm'
    """
    if not str(spec).endswith(".ksy"):
        return str(spec)
    p = Path(spec)
    if not p.is_file():
        raise UsageError(f"no spec file {p}")
    try:
        doc = yamlio.load(p.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise UsageError(f"{p} is not a spec (YAML): {e}") from None
    meta = doc.get("meta") if isinstance(doc, Mapping) else None
    sid = meta.get("id") if isinstance(meta, Mapping) else None
    return str(sid) if sid else p.stem


def defining_spec(docs: dict, main: str, owner: str, fid: str) -> str | None:
    """The spec (``main`` or one it imports) that declares field ``fid`` of type ``owner``."""
    order = [main] + import_names(docs.get(main) or {})
    for sid in order:
        if sid in docs and find_field(docs[sid], owner, fid)[1] is not None:
            return sid
    return None


def field_values(corpus: Any, cols: list[tuple[str, str]]) -> pd.DataFrame:
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


def n_independent(files: Any, sha: pd.Series) -> int:
    return int(pd.Series(list(files)).map(sha).fillna(pd.Series(list(files))).nunique())


def counterexamples(rows: pd.DataFrame, extra: str | None = None) -> list[dict]:
    out = []
    for r in rows.head(MAX_COUNTEREXAMPLES).itertuples(index=False):
        d = {"file": r.file, "value": plain(r.value)}
        if extra is not None:
            d[extra] = plain(getattr(r, extra))
        if not is_missing(r.offset):
            d["offset"] = int(r.offset)
        out.append(d)
    return out


def except_text(cx: list[dict], total: int, show=fmt) -> str:
    def one(e):
        return f"{e['file']}={show(e['value'])}{at_offset(e)}"

    more = f" (+{total - 3} more)" if total > 3 else ""
    return ", ".join(one(e) for e in cx[:3]) + more


def suggestion_row(key: tuple, cols: list[tuple[str, str]], kind: str, suggestion: str, evidence: str, holds: int,
                   of: int, unit: str, n_files: int, counterexamples: list, edit: dict | None,
                   status: str = "proposed") -> dict:
    spec, owner, fid = key
    return {"spec": spec, "type": owner, "field": fid, "table": cols[0][0],
            "column": ", ".join(dict.fromkeys(c for _, c in cols)), "kind": kind, "suggestion": suggestion,
            "evidence": evidence, "holds": int(holds), "of": int(of), "unit": unit, "n_files": int(n_files),
            "counterexamples": counterexamples, "edit": edit, "status": status}


def field_edit(key: tuple, **kw) -> dict:
    spec, owner, fid = key
    return {"spec": spec, "type": owner, "field": fid, **{k: v for k, v in kw.items() if v}}


def parent_path(p: str) -> str:
    return p.rsplit(".", 1)[0] if "." in p else ""
