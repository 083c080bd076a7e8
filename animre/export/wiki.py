"""A format-wiki field table: offset, type, name, what the corpus shows, alerts, doc."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..base.display import fmt, formatters
from ..base.errors import UsageError
from ..research import profile

__all__ = ["wiki_table"]


def _ktype(lengths: pd.Series, values: pd.Series) -> str:
    ln = lengths.dropna()
    if not len(ln):
        return "computed"
    n = int(ln.mode().iloc[0])
    vals = values.dropna()
    if pd.api.types.is_bool_dtype(values.dtype):
        return f"u{n}"
    if pd.api.types.is_float_dtype(values.dtype) and not (len(vals) and (vals == vals.round()).all()):
        return f"f{n}"
    if pd.api.types.is_float_dtype(values.dtype) and n in (4, 8) and values.notna().all():
        return f"f{n}"
    if pd.api.types.is_numeric_dtype(values.dtype) and n in (1, 2, 4, 8):
        return f"{'s' if len(vals) and vals.min() < 0 else 'u'}{n}"
    if len(vals) and all(isinstance(v, str) for v in vals):
        return f"str({n})" if ln.nunique() == 1 else "str"
    return f"bytes({n})" if ln.nunique() == 1 else "bytes"


def _offset_text(starts: pd.Series, row_min: pd.Series, anchors: list[tuple[str, pd.Series]]) -> str:
    """Absolute offset, ``+n`` inside the record, ``<anchor>+n`` after a moving field, or ``varies``.

    A field whose position moves from record to record (after a variable-length
    string, say) usually sits at a fixed distance from an earlier field of the
    same structure: that earlier field is named as the anchor (``ai_flags+4``).
    """
    s = starts.dropna()
    if not len(s):
        return ""
    if s.nunique() == 1:
        return str(int(s.iloc[0]))
    rel = (starts - row_min).dropna()
    if len(rel) == len(s) and rel.nunique() == 1:
        return f"{int(rel.iloc[0]):+d}"
    for name, a in anchors:
        d = (starts - a).dropna()
        if len(d) == len(s) and d.nunique() == 1 and d.iloc[0] >= 0:
            return f"{name}+{int(d.iloc[0])}"
    anchors.append((starts.name, starts))
    return f"varies ({int(s.min())}..{int(s.max())})"


def wiki_table(corpus: Any, table: str) -> pd.DataFrame:
    """A format-wiki field table of a table: offset, type, name, observed, alerts, doc.

    ``type`` and ``doc`` come from the spec (``corpus.columns(table)``), so a
    renamed or retyped field shows its new name and type; derived columns say
    ``derived``.

    ``offset`` is absolute when it is the same in every file, ``+n`` when it
    is the same inside each record, ``<field>+n`` when it is at a fixed
    distance after an earlier field whose position varies (e.g. the move
    footer after the strings: ``ai_flags+4``), ``varies`` otherwise (empty
    for computed columns); ``observed`` summarises the values across the corpus, e.g.
    ``0x01 in 46/47 files; frm/ODDMGFRM.BIN: 0x00`` (values through :func:`animre.base.display.fmt`: hex for
    magic values, flags and ids).

    Examples
    --------
    >>> w = wiki_table(c, "frm")
    >>> w.iloc[0][["offset", "type", "name", "observed"]].tolist()
    ['0', 'u1', 'unknown_magic', '0x01 in 46/47 files; frm/ODDMGFRM.BIN: 0x00']
    """
    if table not in corpus.tables:
        raise UsageError(f"no table {table!r}; tables: {', '.join(corpus.tables)}")
    df = corpus.tables[table]
    starts, ends = corpus.spans.get(table, (pd.DataFrame(index=df.index), pd.DataFrame(index=df.index)))
    full = [c for c in starts.columns if c != "file" and len(starts) and starts[c].notna().all()]
    row_min = starts[full].min(axis=1) if full else pd.Series(np.nan, index=df.index)
    prof = profile(corpus, table).set_index("column")
    per_file = "file" in df.columns and not df["file"].duplicated().any()
    unit = "files" if per_file else "rows"
    rows = []
    anchors: list[tuple[str, pd.Series]] = []
    info = corpus.columns(table).set_index("column") if hasattr(corpus, "columns") else pd.DataFrame()
    style = formatters(info.reset_index() if len(info) else None, prof.reset_index())
    for c in df.columns:
        if c == "file":
            continue
        spec_type = info.at[c, "type"] if c in info.index else None
        doc = info.at[c, "doc"] if c in info.index and isinstance(info.at[c, "doc"], str) else ""
        st = starts[c] if c in starts.columns else pd.Series(np.nan, index=df.index)
        en = ends[c] if c in ends.columns else pd.Series(np.nan, index=df.index)
        p = prof.loc[c]
        show = style.get(c, fmt)
        n = int(p["count"])
        alerts = [a for a in p["alerts"] if a not in ("CONSTANT", "NEARLY_CONSTANT")]
        if n == 0:
            obs = "never present"
        elif p["is_constant"]:
            obs = f"{show(p['most_common'][0][0])} in {n}/{n} {unit}"
        elif "NEARLY_CONSTANT" in p["alerts"]:
            top, k = p["most_common"][0]
            exc = "; ".join(f"{e.get('file', 'row ' + str(e['row']))}: {show(e['value'])}"
                            for e in p["exceptions"][:3])
            obs = f"{show(top)} in {k}/{n} {unit}; {exc}"
        elif pd.api.types.is_bool_dtype(df[c].dtype):
            obs = f"True in {int(df[c].sum())}/{n} {unit}"
        elif p["min"] is not None and not pd.isna(p["min"]) and not isinstance(p["min"], str):
            obs = f"{show(p['min'])}..{show(p['max'])}, {int(p['n_distinct'])} distinct"
            if p["zeros"] and p["p_zeros"] >= 0.2:
                obs += f", 0 in {int(p['zeros'])}/{n} {unit}"
        else:
            ex = ", ".join(show(v) for v, _ in p["most_common"][:3])
            obs = f"{int(p['n_distinct'])} distinct, e.g. {ex}"
        total = n + int(p["n_missing"])  # rows of distinct files (identical files count once)
        if n < total:
            obs += f" (present in {n}/{total} {unit})"
        ktype = spec_type if isinstance(spec_type, str) else _ktype(en - st, df[c])
        if c in info.index and isinstance(info.at[c, "enum"], str):
            ktype += f" enum {info.at[c, 'enum']}"
        rows.append({"offset": _offset_text(st.rename(c), row_min, anchors), "type": ktype,
                     "name": c, "observed": obs, "alerts": ", ".join(alerts), "doc": " ".join(doc.split())})
    return pd.DataFrame(rows, columns=["offset", "type", "name", "observed", "alerts", "doc"])


# ----------------------------------------------------------------------------- animations
