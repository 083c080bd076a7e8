"""Export tables and findings: CSV, Markdown (wiki-ready), Parquet, Excel, JSON.

Every file is written atomically: all outputs of one :func:`export` call are
first written to temporary files next to their targets and only moved into
place (``os.replace``) once every writer has succeeded, so an error leaves no
half-written file and no partial set of outputs behind.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pandas as pd

from .atomic import write_all_atomic, write_atomic
from .display import fmt, formatters, plain
from .errors import UsageError

__all__ = ["export", "export_animation", "wiki_table", "to_markdown", "WRITERS", "EXPORT_FORMATS"]

EXPORT_FORMATS = ("csv", "md", "parquet", "xlsx", "json")
_EXT = {"csv": "csv", "md": "md", "parquet": "parquet", "xlsx": "xlsx", "json": "json"}


# ----------------------------------------------------------------------------- cell conversion


def _jsonable(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, set)):
        return [_jsonable(x) for x in v]
    if isinstance(v, np.ndarray):
        return [_jsonable(x) for x in plain(v)]
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    v = plain(v)
    if v is None or v is pd.NA or v is pd.NaT:
        return None
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None if math.isnan(v) else ("inf" if v > 0 else "-inf")
    if isinstance(v, (str, int, float, bool)):
        return v
    return str(v)


def _cell_text(v: Any) -> Any:
    """A scalar for text formats: lists/dicts -> JSON, bytes -> hex, others unchanged."""
    if isinstance(v, (list, tuple, dict, set, np.ndarray)):
        return json.dumps(_jsonable(v), ensure_ascii=False)
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    return v


def _flat(df: pd.DataFrame, keep_bytes: bool = False) -> pd.DataFrame:
    """Object columns holding lists/dicts/bytes/mixed types become text columns."""
    out = df.copy()
    out.columns = [str(c) for c in out.columns]
    for c in out.columns:
        s = out[c]
        if s.dtype != object:
            continue
        vals = [v for v in s if v is not None and not (isinstance(v, float) and math.isnan(v))]
        if all(isinstance(v, str) for v in vals):
            continue
        if keep_bytes and vals and all(isinstance(v, (bytes, bytearray)) for v in vals):
            continue
        types = {type(v) for v in vals}
        if len(types) == 1 and types <= {int, float, bool}:
            continue
        out[c] = [None if (v is None or (isinstance(v, float) and math.isnan(v))) else
                  (_cell_text(v) if isinstance(_cell_text(v), str) else str(v)) for v in s]
    return out


# ----------------------------------------------------------------------------- markdown


def _md_cell(v: Any, show: Callable[[Any], str] = fmt) -> str:
    s = show(v)
    return s.replace("\\", "\\\\").replace("|", "\\|").replace("\r\n", "<br>").replace("\n", "<br>")


def to_markdown(df: pd.DataFrame, title: str | None = None,
                style: Mapping[str, Callable[[Any], str]] | None = None) -> str:
    """A pipe table (GitHub / wiki Markdown), with an optional ``## title`` heading.

    Cells are written by :func:`animre.display.fmt`; ``style`` gives a
    formatter per column (:func:`animre.display.formatters`: hex for magic
    values, flags and ids).

    Examples
    --------
    >>> import pandas as pd
    >>> print(to_markdown(pd.DataFrame({"offset": [0], "name": ["magic"]})))
    | offset | name |
    | --- | --- |
    | 0 | magic |
    <BLANKLINE>
    """
    cols = [str(c) for c in df.columns]
    lines = []
    if title:
        lines += [f"## {title}", ""]
    lines.append("| " + " | ".join(_md_cell(c) for c in cols) + " |")
    lines.append("| " + " | ".join("---" for _ in cols) + " |")
    shows = [(style or {}).get(c, fmt) for c in cols]
    for row in df.itertuples(index=False, name=None):
        lines.append("| " + " | ".join(_md_cell(v, shows[i]) for i, v in enumerate(row)) + " |")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- writers


def _w_csv(df: pd.DataFrame, fh: BinaryIO, name: str) -> None:
    fh.write(_flat(df).to_csv(index=False).encode("utf-8"))


def _w_md(df: pd.DataFrame, fh: BinaryIO, name: str, style: Mapping | None = None) -> None:
    fh.write(to_markdown(df, name, style).encode("utf-8"))


def _w_parquet(df: pd.DataFrame, fh: BinaryIO, name: str) -> None:
    buf = io.BytesIO()
    _flat(df, keep_bytes=True).to_parquet(buf, index=False)
    fh.write(buf.getvalue())


def _w_xlsx(df: pd.DataFrame, fh: BinaryIO, name: str) -> None:
    flat = _flat(df)
    for c in flat.columns:
        if flat[c].dtype == object or pd.api.types.is_string_dtype(flat[c].dtype):
            flat[c] = [v[:32767] if isinstance(v, str) else v for v in flat[c]]
    buf = io.BytesIO()
    sheet = re.sub(r"[\[\]:*?/\\]", "_", name)[:31] or "table"
    flat.to_excel(buf, index=False, sheet_name=sheet, engine="openpyxl")
    fh.write(buf.getvalue())


def _w_json(df: pd.DataFrame, fh: BinaryIO, name: str) -> None:
    recs = [{str(k): _jsonable(v) for k, v in r.items()} for r in df.to_dict("records")]
    fh.write(json.dumps(recs, ensure_ascii=False, indent=1, allow_nan=False).encode("utf-8"))


WRITERS: dict[str, Callable[[pd.DataFrame, BinaryIO, str], None]] = {
    "csv": _w_csv, "md": _w_md, "parquet": _w_parquet, "xlsx": _w_xlsx, "json": _w_json,
}


def _tables(obj: Any, name: str | None) -> dict[str, pd.DataFrame]:
    if isinstance(obj, pd.DataFrame):
        return {name or "table": obj}
    if hasattr(obj, "_asdict") and callable(obj._asdict):  # NamedTuple results (reinterpret)
        obj = obj._asdict()
    if isinstance(obj, Mapping):
        out = {}
        for k, v in obj.items():
            if not isinstance(v, pd.DataFrame):
                raise UsageError(f"{k!r} is a {type(v).__name__}, not a DataFrame")
            out[f"{name}_{k}" if name else str(k)] = v
        return out
    if isinstance(obj, (tuple, list)) and all(isinstance(v, pd.DataFrame) for v in obj):
        base = name or "table"
        return {f"{base}_{i + 1}": v for i, v in enumerate(obj)}
    raise UsageError(f"cannot export {type(obj).__name__}: give a DataFrame or a dict of DataFrames")


def _safe(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._")
    return s or "table"


def export(tables_or_findings: Any, folder: str | os.PathLike,
           formats: Iterable[str] | str = EXPORT_FORMATS, name: str | None = None, *,
           corpus: Any = None) -> list[Path]:
    """Write tables or findings to ``folder`` in several formats, atomically.

    Parameters
    ----------
    tables_or_findings : DataFrame, dict of DataFrames, or a result tuple
        One table, several (one file per table per format), or a result
        such as :func:`animre.reinterpret`'s (values, ranking).
    folder : path
        Output folder (created if missing).
    formats : iterable of str
        Any of ``csv``, ``md`` (wiki pipe table), ``parquet``, ``xlsx``, ``json``.
    name : str, optional
        File name stem (a prefix for dicts); default ``table`` / the dict keys.
    corpus : Corpus, optional
        Markdown tables named like a corpus table write their cells as the
        spec reads them (magic values, flags and ids in hex, see
        :mod:`animre.display`); the other formats keep plain values.

    Returns
    -------
    list of Path
        The written files. Either all are written or, after an error, none
        is changed (temporary files are removed).

    Examples
    --------
    >>> import pandas as pd, tempfile
    >>> out = export(pd.DataFrame({"a": [1, 2]}), tempfile.mkdtemp(), ["csv", "md"], name="demo")
    >>> [p.name for p in out]
    ['demo.csv', 'demo.md']
    """
    fmts = [formats] if isinstance(formats, str) else list(formats)
    unknown = [f for f in fmts if f not in WRITERS]
    if unknown:
        raise UsageError(f"unknown export format(s) {', '.join(unknown)}; known: {', '.join(WRITERS)}")
    tables = _tables(tables_or_findings, name)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    jobs = [(folder / f"{_safe(t)}.{_EXT[f]}", f, t, df) for t, df in tables.items() for f in fmts]

    def write(fh, fmt, t, df):
        if fmt == "md" and corpus is not None and t in getattr(corpus, "tables", {}):
            return _w_md(df, fh, t, formatters(corpus.columns(t)))
        return WRITERS[fmt](df, fh, t)

    return write_all_atomic([(path, lambda fh, fmt=fmt, t=t, df=df: write(fh, fmt, t, df))
                             for path, fmt, t, df in jobs])


# ----------------------------------------------------------------------------- wiki table


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
    ``0x01 in 46/47 files; frm/ODDMGFRM.BIN: 0x00`` (values through :func:`animre.display.fmt`: hex for magic values, flags and ids).

    Examples
    --------
    >>> w = wiki_table(c, "frm")
    >>> w.iloc[0][["offset", "type", "name", "observed"]].tolist()
    ['0', 'u1', 'unknown_magic', '0x01 in 46/47 files; frm/ODDMGFRM.BIN: 0x00']
    """
    from .research import profile

    if table not in corpus.tables:
        raise UsageError(f"no table {table!r}; tables: {', '.join(corpus.tables)}")
    df = corpus.tables[table]
    starts, ends = corpus.spans.get(table, (pd.DataFrame(index=df.index), pd.DataFrame(index=df.index)))
    full = [c for c in starts.columns if c != "file" and len(starts) and starts[c].notna().all()]
    row_min = starts[full].min(axis=1) if full else pd.Series(np.nan, index=df.index)
    prof = profile(table, corpus=corpus).set_index("column")
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


def export_animation(frames: Iterable[np.ndarray], path: str | os.PathLike,
                     durations: float | Iterable[float] = 100, *, loop: int = 0) -> Path:
    """Write a sequence of frames as an animated GIF or APNG (by the suffix), atomically.

    Parameters
    ----------
    frames : iterable of arrays
        RGBA (height, width, 4) or RGB (height, width, 3) uint8 frames of one
        size (e.g. :func:`animre.decode.flc.civ3_rgba` output or a player's
        ``frames``). Alpha 0 stays transparent.
    path : path-like
        ``.gif`` or ``.png``/``.apng``.
    durations : number or iterable of numbers
        Milliseconds per frame (one number for all). GIF stores hundredths of a
        second, so GIF durations are rounded to 10 ms; GIF transparency is one
        bit (alpha below 128 becomes transparent).
    loop : int
        Number of loops, 0 = forever.

    Notes
    -----
    Pillow writes the file; like every GIF/APNG writer it merges a frame that
    is identical to the one before it into that frame (durations added).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from PIL import Image
    >>> fs = [np.full((2, 2, 4), (255, 0, 0, 255), np.uint8), np.zeros((2, 2, 4), np.uint8)]
    >>> p = export_animation(fs, pathlib.Path(tempfile.mkdtemp()) / "a.gif", [100, 50])
    >>> im = Image.open(p); im.n_frames, im.info["duration"]
    (2, 100)
    """
    from PIL import Image

    arrays = [np.asarray(f) for f in frames]
    if not arrays:
        raise UsageError("export_animation: no frames")
    shape = arrays[0].shape
    if len(shape) != 3 or shape[2] not in (3, 4) or any(a.shape != shape for a in arrays):
        raise UsageError(f"export_animation: frames must be RGB(A) arrays of one size, got shapes "
                         f"{sorted({a.shape for a in arrays})[:3]}")
    if isinstance(durations, (int, float, np.integer, np.floating)):
        ms = [float(durations)] * len(arrays)
    else:
        ms = [float(d) for d in durations]
        if len(ms) != len(arrays):
            raise UsageError(f"export_animation: {len(arrays)} frames but {len(ms)} durations")
    suffix = Path(path).suffix.lower()
    if suffix not in (".gif", ".png", ".apng"):
        raise UsageError(f"export_animation: {path}: the suffix must be .gif, .png or .apng")
    rgba = [a.astype(np.uint8) if shape[2] == 4 else
            np.concatenate([a.astype(np.uint8), np.full(shape[:2] + (1,), 255, np.uint8)], axis=2) for a in arrays]
    buf = io.BytesIO()
    if suffix == ".gif":
        images = []
        for a in rgba:
            a = a.copy()
            a[..., 3] = np.where(a[..., 3] >= 128, 255, 0)
            a[a[..., 3] == 0] = 0
            images.append(Image.fromarray(a, "RGBA"))
        images[0].save(buf, format="GIF", save_all=True, append_images=images[1:],
                       duration=[int(round(d / 10)) * 10 for d in ms], loop=loop, disposal=2)
    else:
        images = [Image.fromarray(a, "RGBA") for a in rgba]
        images[0].save(buf, format="PNG", save_all=True, append_images=images[1:], duration=ms,
                       loop=loop, disposal=1, blend=0)
    write_atomic(path, buf.getvalue())
    return Path(path)
