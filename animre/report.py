"""A corpus report to share: one self-contained HTML file.

Files, errors, coverage, per-table profiles with their alerts, the notes'
claims, the strongest relations per format and pictures (a Civ3 contact
sheet and first frames, OMF sprites, HoMM2 idle weights, GNT4 key curves)
in one HTML file a browser opens with no network: CSS inline, every picture
a ``data:`` URI. Every number comes from :mod:`animre.research` or the
corpus tables; values are written by the one formatter
(:func:`animre.display.fmt`). ``animre report DIR -o report.html`` writes it.

Kept fast (seconds for a few hundred files): profiles read the tables alone
(no spec lookups), relations are tested on the widest table of each format
over at most :data:`MAX_RELATION_COLUMNS` columns, pictures are capped.

Examples
--------
>>> from animre import open_corpus
>>> from animre.report import report_html
>>> page = report_html(open_corpus("data/samples/frm", cache=False))
>>> page.startswith("<!DOCTYPE html>"), 'id="claims"' in page, "http://" in page
(True, True, False)
"""

from __future__ import annotations

import base64
import datetime as _dt
import html
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .display import fmt

__all__ = ["report_html", "write_report", "SECTIONS", "MAX_RELATION_COLUMNS"]

#: The report's sections, in order: (anchor id, heading).
SECTIONS = (("files", "Files"), ("errors", "Errors"), ("coverage", "Coverage"), ("profiles", "Profiles"),
            ("claims", "Claims"), ("relations", "Relations"), ("pictures", "Pictures"))
#: Relations are tested over at most this many value columns of a format's widest table.
MAX_RELATION_COLUMNS = 12
MAX_ROWS = 200
MAX_PICTURES = 12

CSS = """
body {font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #222; background: #fafafa;}
header {background: #243447; color: #fff; padding: 14px 24px;}
header h1 {margin: 0 0 4px 0; font-size: 22px;}
header p {margin: 0; font-size: 13px; color: #cfd8e3;}
nav {position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ddd; padding: 6px 24px; z-index: 2;}
nav a {margin-right: 16px; color: #243447; text-decoration: none; font-size: 14px;}
main {padding: 8px 24px 40px 24px;}
section {margin: 18px 0 28px 0;}
h2 {border-bottom: 2px solid #243447; padding-bottom: 3px; font-size: 19px;}
h3 {font-size: 15px; margin: 16px 0 6px 0;}
table.t {border-collapse: collapse; font-size: 12px; margin: 4px 0 8px 0; background: #fff;}
table.t th, table.t td {border: 1px solid #ddd; padding: 2px 7px; text-align: left; vertical-align: top;}
table.t th {background: #eef1f5;}
table.t td.n {text-align: right; font-family: ui-monospace, monospace;}
.note {color: #666; font-size: 12px;}
.ok {color: #3a9d5d; font-weight: bold;} .bad {color: #d1495b; font-weight: bold;}
.alert {display: inline-block; background: #fff3cd; border: 1px solid #e0c36a; border-radius: 3px;
        padding: 0 4px; margin: 1px; font-size: 11px; font-family: ui-monospace, monospace;}
.pics {display: flex; flex-wrap: wrap; gap: 10px; align-items: flex-end;}
figure {margin: 0; text-align: center; font-size: 11px; color: #555;}
img.px {image-rendering: pixelated; image-rendering: crisp-edges;}
.sheet td {padding: 2px; border: none;} .sheet th {font-size: 12px; padding-right: 6px;}
"""


# ----------------------------------------------------------------------------- pieces


def _e(v: Any) -> str:
    return html.escape(str(v))


def _data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _img(png: bytes, alt: str, *, pixelated: bool = False) -> str:
    from .players import _png_size

    w, h = _png_size(png)
    cls = ' class="px"' if pixelated else ""
    return f'<img{cls} src="{_data_uri(png)}" alt="{_e(alt)}" width="{w}" height="{h}">'


def _fig(fig: Any, alt: str) -> str:
    from .players import figure_png

    return _img(figure_png(fig), alt)


def _table(df: pd.DataFrame | None, max_rows: int = MAX_ROWS, *,
           cell: Callable[[str, Any], str] | None = None) -> str:
    """An HTML table; every value through the one formatter, numbers right-aligned."""
    if df is None or not len(df):
        return '<p class="note">none</p>'
    shown = df.head(max_rows)
    head = "".join(f"<th>{_e(c)}</th>" for c in shown.columns)
    rows = []
    for rec in shown.itertuples(index=False, name=None):
        tds = []
        for c, v in zip(shown.columns, rec, strict=True):
            if cell is not None:
                custom = cell(str(c), v)
                if custom is not None:
                    tds.append(f"<td>{custom}</td>")
                    continue
            num = isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
            tds.append(f'<td class="n">{_e(fmt(v, max_len=120))}</td>' if num else
                       f"<td>{_e(fmt(v, max_len=160))}</td>")
        rows.append("<tr>" + "".join(tds) + "</tr>")
    more = f'<p class="note">... {len(df) - max_rows} more rows</p>' if len(df) > max_rows else ""
    return f'<table class="t"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>{more}'


def _alerts_cell(column: str, v: Any) -> str | None:
    if column != "alerts":
        return None
    items = list(v) if isinstance(v, (list, tuple, np.ndarray)) else []
    return "".join(f'<span class="alert">{_e(a)}</span>' for a in items)


def _holds_cell(column: str, v: Any) -> str | None:
    if column != "holds_all":
        return None
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return '<span class="note">not tested</span>'
    return '<span class="ok">yes</span>' if bool(v) else '<span class="bad">no</span>'


def _claim_cell(column: str, v: Any) -> str | None:
    if column == "board":
        holds, tested = (int(x) if x is not None and not pd.isna(x) else 0 for x in v)
        if not tested:
            return '<span class="note">not tested</span>'
        g = round(120 * holds / tested)
        return (f'<span title="{holds} of {tested}" style="display:inline-block;width:120px;height:10px;'
                f'background:linear-gradient(90deg,#3a9d5d {g}px,#d1495b {g}px)"></span>')
    return _holds_cell(column, v)


# ----------------------------------------------------------------------------- sections


def _files(corpus) -> str:
    f = corpus.files
    summary = f.assign(format=f["format"].fillna("(unknown)")).groupby("format").agg(
        files=("file", "size"), parsed=("ok", "sum"), bytes=("size", "sum")).reset_index()
    cols = [c for c in ("file", "format", "size", "ok", "sha256") if c in f.columns]
    return (_table(summary) + "<h3>Every file</h3>" + _table(f[cols]))


def _errors(corpus) -> str:
    e = corpus.errors
    if not len(e):
        return '<p class="ok">Every file parsed.</p>'
    cols = [c for c in ("file", "format", "path", "offset", "message") if c in e.columns]
    return f"<p>{len(e)} file(s) failed; reading stopped at the field path and byte offset shown.</p>" + \
        _table(e[cols])


def _coverage(corpus) -> str:
    from .research import coverage, coverage_by_format

    per_file, gaps = coverage(corpus)
    return ("<p>Bytes a typed field explains, bytes read as opaque blobs (pixel data, raw bytes) and gaps "
            "no field describes (what is not understood yet), per format and per file.</p>" +
            _table(coverage_by_format(per_file)) + "<h3>Per file</h3>" +
            _table(per_file.sort_values("share")) + "<h3>Largest gaps</h3>" +
            _table(gaps.sort_values("length", ascending=False), 30))


def _profiles(corpus) -> str:
    from .research import profile

    out = ['<p>One row per column; alerts point at likely meanings (constant, flags, index, fixed point ...). '
           'Columns without alerts are left out of the long tables.</p>']
    summary = []
    parts = []
    for name, df in corpus.tables.items():
        if name == "files" or not len(df):
            continue
        p = profile(df)
        alerts = p["alerts"].map(lambda a: len(a) if isinstance(a, (list, tuple, np.ndarray)) else 0)
        summary.append({"table": name, "rows": len(df), "columns": len(p), "columns_with_alerts": int((alerts > 0).sum()),
                        "constant_columns": int(p["is_constant"].astype(bool).sum())})
        cols = [c for c in ("column", "dtype", "n_distinct", "min", "max", "p_zeros", "most_common", "alerts")
                if c in p.columns]
        shown = p.loc[alerts > 0, cols]
        parts.append(f'<h3 id="profile-{_e(name)}">{_e(name)} <span class="note">({len(df)} rows, '
                     f'{len(p)} columns)</span></h3>' + _table(shown, 60, cell=_alerts_cell))
    out.append(_table(pd.DataFrame(summary)))
    out.extend(parts)
    return "".join(out)


def _claims(corpus) -> str:
    from .research import claims

    c = claims(corpus)
    if not len(c):
        return '<p class="note">No claim applies to these formats.</p>'
    table = c.drop(columns=[k for k in ("counterexamples", "error") if k in c.columns]).assign(
        counterexamples=c["counterexamples"].map(lambda x: len(x) if isinstance(x, (list, tuple)) else 0))
    cols = [k for k in ("format", "claim", "holds", "tested", "holds_all", "counterexamples", "status", "source")
            if k in table.columns]
    table = table[cols].assign(board=list(zip(table["holds"], table["tested"], strict=True)))
    return ("<p>Every claim of the format notes checked on the corpus: green = items where it holds, "
            "red = items where it does not.</p>" + _table(table, cell=_claim_cell))


def _relations(corpus) -> str:
    from .research import relations

    out = [f"<p>The strongest relations between columns of each format's widest table (at most "
           f"{MAX_RELATION_COLUMNS} columns tested, against a shuffled baseline).</p>"]
    by_format: dict[str, str] = {}
    for name, df in corpus.tables.items():
        if name == "files" or not len(df):
            continue
        fmt_id = name.split("_", 1)[0]
        if fmt_id not in by_format or df.shape[1] > corpus.tables[by_format[fmt_id]].shape[1]:
            by_format[fmt_id] = name
    found = False
    for _, name in sorted(by_format.items()):
        df = corpus.tables[name]
        cols = [c for c in df.columns if c != "file" and pd.api.types.is_numeric_dtype(df[c])
                and not pd.api.types.is_bool_dtype(df[c]) and df[c].nunique(dropna=True) > 1][:MAX_RELATION_COLUMNS]
        if len(cols) < 2:
            continue
        try:
            r = relations(name, columns=cols, corpus=corpus)
        except Exception as e:  # a research error is reported in the report, never fatal to it
            out.append(f"<h3>{_e(name)}</h3><p class='bad'>relations failed: {_e(e)}</p>")
            continue
        if not len(r):
            continue
        found = True
        top = r.sort_values(["support", "n_rows"], ascending=False).head(8)
        keep = [k for k in ("target", "source", "relation", "parameter", "support", "n_agree", "n_rows", "p_value")
                if k in top.columns]
        out.append(f"<h3>{_e(name)}</h3>" + _table(top[keep]))
    if not found:
        out.append('<p class="note">No relation found.</p>')
    return "".join(out)


def _pictures(corpus) -> str:
    out = []
    formats = set(corpus.files["format"].dropna())
    ok = corpus.files[corpus.files["ok"].astype(bool)]
    if "flc" in formats:
        out.append(_flc_pictures(corpus, ok[ok["format"] == "flc"]["file"].tolist()))
    if "af" in formats:
        out.append(_af_pictures(corpus, ok[ok["format"] == "af"]["file"].tolist(),
                                ok[ok["format"] == "bk"]["file"].tolist()))
    if "frm" in formats and "frm" in corpus.tables:
        from . import plots

        frm = corpus.tables["frm"].head(40)
        out.append("<h3>HoMM2 idle weights</h3>" + _fig(plots.idle_weights(frm), "idle weights"))
    if "mot" in formats and "mot_keys" in corpus.tables:
        out.append(_mot_pictures(corpus))
    return "".join(out) or '<p class="note">No format of this corpus has pictures.</p>'


def _flc_pictures(corpus, files: list[str]) -> str:
    from .decode.flic import civ3_rgba, decode_all
    from .errors import AnimreError
    from .players import image_png

    out = []
    sheet_done = False
    firsts = []
    for name in files[:MAX_PICTURES]:
        try:
            d = decode_all(corpus.path(name), name=name)
        except AnimreError as e:
            firsts.append(f"<figure>{_e(name)}<br><span class='bad'>{_e(e)}</span></figure>")
            continue
        images = [r for r in d.roles if not r.is_ring]
        if not images:
            continue
        civ3 = d.flicanim is not None and d.flicanim["num_anims"] > 0 and d.flicanim["anim_length"] > 0
        first = images[0].frame
        rgba = civ3_rgba(d.frames[first], d.palettes[first]) if civ3 else \
            np.concatenate([d.palettes[first][d.frames[first]], np.full(d.frames[first].shape + (1,), 255,
                                                                           np.uint8)], axis=2)
        k = max(1, min(3, 160 // max(rgba.shape[:2])))
        firsts.append(f"<figure>{_img(image_png(rgba, k), name, pixelated=True)}<br>{_e(name)}</figure>")
        if civ3 and not sheet_done:
            sheet_done = True
            rows = {}
            for r in images:
                rows.setdefault(r.direction_name or str(r.direction), []).append(r.frame)
            trs = []
            ks = max(1, min(4, 96 // max(d.frames.shape[1:])))  # small frames enlarged, whole pixels
            for direction, idx in rows.items():
                cells = "".join(f"<td>{_img(image_png(civ3_rgba(d.frames[i], d.palettes[i]), ks), f'{direction} {j}', pixelated=True)}</td>"
                                for j, i in enumerate(idx[:8]))
                trs.append(f"<tr><th>{_e(direction)}</th>{cells}</tr>")
            n = max(len(v) for v in rows.values())
            out.append(f"<h3>Civ3 contact sheet: {_e(name)}</h3><p class='note'>directions x frames "
                       f"(first {min(8, n)} of {n} frames; transparent and shadow pixels over a checkerboard)</p>"
                       f"<table class='sheet'>{''.join(trs)}</table>")
    more = f"<p class='note'>first {MAX_PICTURES} of {len(files)} files</p>" if len(files) > MAX_PICTURES else ""
    out.append("<h3>FLC first frames</h3><div class='pics'>" + "".join(firsts) + "</div>" + more)
    return "".join(out)


def _af_pictures(corpus, files: list[str], bk_files: list[str]) -> str:
    from .decode.omf_sprites import sprite_images, to_rgba
    from .errors import AnimreError
    from .players import image_png

    palette = str(corpus.path(bk_files[0])) if bk_files else None
    figs = []
    for name in files[:4]:
        try:
            sprites = sprite_images(corpus.path(name), strict=False)
        except AnimreError as e:
            figs.append(f"<figure>{_e(name)}<br><span class='bad'>{_e(e)}</span></figure>")
            continue
        for s in [s for s in sprites if s.sprite == 0][:3]:
            figs.append(f"<figure>{_img(image_png(to_rgba(s.image, palette), 2), name, pixelated=True)}<br>"
                        f"{_e(name)} move {s.number}</figure>")
    return ("<h3>OMF sprites (first sprite of the first moves)</h3>"
            f"<p class='note'>{'palette of ' + _e(bk_files[0]) if palette else 'grey ramp (no BK palette in the corpus)'}</p>"
            "<div class='pics'>" + "".join(figs) + "</div>")


def _mot_pictures(corpus) -> str:
    from . import plots

    keys = corpus.tables["mot_keys"]
    if not len(keys):
        return ""
    file, anim = keys.groupby(["file", "anim_id"]).size().idxmax()
    k = keys[(keys["file"] == file) & (keys["anim_id"] == anim)]
    bone = k.groupby("bone_id").size().idxmax()
    sel = k[k["bone_id"] == bone]
    return (f"<h3>GNT4 key curves: {_e(file)} animation {_e(anim)}, bone {_e(bone)}</h3>" +
            _fig(plots.key_curves(sel, title=f"{file} animation {anim}, bone {bone}"), "key curves"))


# ----------------------------------------------------------------------------- the page


def report_html(corpus, *, title: str | None = None) -> str:
    """The whole report as one HTML string (no external reference: CSS inline, pictures as data URIs).

    Examples
    --------
    >>> page = report_html(corpus)
    >>> [f'id="{s}"' in page for s, _ in SECTIONS]
    [True, True, True, True, True, True, True]
    """
    from . import __version__

    root = getattr(corpus, "root", None)
    title = title or f"animre report: {Path(str(root)).name if root else 'corpus'}"
    f = corpus.files
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    builders = {"files": _files, "errors": _errors, "coverage": _coverage, "profiles": _profiles,
                "claims": _claims, "relations": _relations, "pictures": _pictures}
    body = []
    for sid, heading in SECTIONS:
        try:
            content = builders[sid](corpus)
        except Exception as e:  # one failing section is shown as such; the rest of the report stands
            content = f"<p class='bad'>this section failed: {_e(type(e).__name__)}: {_e(e)}</p>"
        body.append(f'<section id="{sid}"><h2>{_e(heading)}</h2>{content}</section>')
    nav = "".join(f'<a href="#{sid}">{_e(h)}</a>' for sid, h in SECTIONS)
    formats = ", ".join(sorted(set(f["format"].dropna())))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{_e(title)}</title>"
            f"<style>{CSS}</style></head><body><header><h1>{_e(title)}</h1>"
            f"<p>{len(f)} files ({int(f['ok'].sum())} parsed, {len(corpus.errors)} failed), formats: {_e(formats)}"
            f" &middot; {_e(root or '')} &middot; animre {_e(__version__)} &middot; {stamp}</p></header>"
            f"<nav>{nav}</nav><main>{''.join(body)}</main></body></html>\n")


def write_report(corpus, path: str | os.PathLike, *, title: str | None = None) -> Path:
    """Write :func:`report_html` to ``path`` atomically; returns the path.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = write_report(corpus, pathlib.Path(tempfile.mkdtemp()) / "report.html")
    >>> p.read_text().count("<section")
    7
    """
    from .atomic import write_atomic

    write_atomic(path, report_html(corpus, title=title).encode("utf-8"))
    return Path(path)
