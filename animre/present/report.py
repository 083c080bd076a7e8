"""A corpus report to share: one self-contained HTML file.

Files with their status, errors, coverage, per-table profiles with their
alerts, the notes' claims with their counterexamples, the strongest
relations per format and the pictures each format plugin names
(``Format.picture``, drawn by :mod:`animre.present.pictures`: for every
animation file, up to a cap, its contact sheet and the animation itself
playing at the timing the file declares, an animated PNG) in one HTML file
a browser opens with no network: CSS inline, every picture a ``data:`` URI.
The page says its own size.
Every number comes from :mod:`animre.research` or the corpus tables; values
are written by the one formatter (:func:`animre.base.display.fmt`, hex where the
spec says), hashes by their first digits (all of them in a tooltip).
``animre report DIR -o report.html`` writes it.

Kept fast (seconds for a few hundred files): profiles read the tables alone
(no spec lookups), relations are tested on the widest table of each format
over at most :data:`MAX_RELATION_COLUMNS` columns, pictures are capped
(:data:`animre.present.pictures.MAX_FILES` files per format, the others named).

Examples
--------
>>> from animre import open_corpus
>>> from animre.present.report import report_html
>>> page = report_html(open_corpus("data/samples/frm", cache=False))
>>> page.startswith("<!DOCTYPE html>"), 'id="claims"' in page, "http://" in page
(True, True, False)
"""

from __future__ import annotations

import base64
import datetime as _dt
import html
import importlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._version import __version__
from ..base.atomic import write_atomic
from ..base.display import fmt, formatters
from ..base.errors import UsageError
from ..base.tableview import HASH_CHARS, MAX_COUNTEREXAMPLES, counterexample_table, html_table
from ..research import claims, coverage, coverage_by_format, profile, relations
from .pictures import MAX_FILES as MAX_ANIMATION_FILES
from .png import figure_png, png_size

__all__ = ["report_html", "write_report", "picture_function", "page_size", "SECTIONS", "MAX_RELATION_COLUMNS"]

#: The report's sections, in order: (anchor id, heading).
SECTIONS = (("files", "Files"), ("errors", "Errors"), ("coverage", "Coverage"), ("profiles", "Profiles"),
            ("claims", "Claims"), ("relations", "Relations"), ("pictures", "Pictures"))
#: Relations are tested over at most this many value columns of a format's widest table.
MAX_RELATION_COLUMNS = 12
#: Pictures per format (a plugin's pictures past this many are counted, not shown).
MAX_PICTURES = 100
MAX_FILES = 5000  #: the file list is the inventory: every file up to this many, then a count
SIZE_MARK = "\x00size\x00"  #: where the header states the page's size (replaced once the page is whole)
#: File statuses (``corpus.files["status"]``), in the order the summary shows them.
STATUSES = ("parsed", "failed", "skipped", "container")

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
figure {margin: 0; text-align: center; font-size: 11px; color: #555; max-width: 100%;}
figure.none {color: #666; max-width: 320px; text-align: left;} figure.none.bad {color: #d1495b;}
figcaption {max-width: 760px; margin: 2px auto;}
img.px {image-rendering: pixelated; image-rendering: crisp-edges;}
img {max-width: 100%; height: auto;}
img.px, img.anim {background: repeating-conic-gradient(#ccc 0 25%, #fff 0 50%) 0 0 / 16px 16px;}
.sheet td {padding: 2px; border: none;} .sheet th {font-size: 12px; padding-right: 6px;}
"""


# ----------------------------------------------------------------------------- pieces


def _e(v: Any) -> str:
    return html.escape(str(v))


def _data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _animated(png: bytes) -> bool:
    """An animated PNG: its animation control chunk comes before the first image data."""
    head = png[:png.find(b"IDAT")] if b"IDAT" in png else png
    return b"acTL" in head


def _img(png: bytes, alt: str, *, pixelated: bool = False) -> str:
    w, h = png_size(png)
    classes = " ".join(c for c, on in (("px", pixelated), ("anim", _animated(png))) if on)
    cls = f' class="{classes}"' if classes else ""
    return f'<img{cls} src="{_data_uri(png)}" alt="{_e(alt)}" width="{w}" height="{h}">'


def _fig(fig: Any, alt: str) -> str:
    return _img(figure_png(fig), alt)


def _alerts_cell(column: str, v: Any) -> str | None:
    if column != "alerts":
        return None
    items = list(v) if isinstance(v, (list, tuple, np.ndarray)) else []
    return "".join(f'<span class="alert">{_e(a)}</span>' for a in items)


def _claim_cell(column: str, v: Any) -> str | None:
    if column != "board":
        return None
    holds, tested = (int(x) if x is not None and not pd.isna(x) else 0 for x in v)
    if not tested:
        return '<span class="note">not tested</span>'
    g = round(120 * holds / tested)
    return (f'<span title="{holds} of {tested}" style="display:inline-block;width:120px;height:10px;'
            f'background:linear-gradient(90deg,#3a9d5d {g}px,#d1495b {g}px)"></span>')


def _status_cell(column: str, v: Any) -> str | None:
    if column != "status":
        return None
    cls = {"failed": "bad", "error": "bad", "fails": "bad", "parsed": "ok", "holds": "ok"}.get(str(v))
    return f'<span class="{cls}">{_e(v)}</span>' if cls else _e(v)


# ----------------------------------------------------------------------------- sections


def _files(corpus) -> str:
    f = corpus.files
    status = f["status"] if "status" in f.columns else f["ok"].map({True: "parsed", False: "failed"})
    f = f.assign(format=f["format"].fillna("(none)"), status=status)
    summary = f.groupby("format").agg(files=("file", "size"), bytes=("size", "sum")).reset_index()
    for s in STATUSES:
        summary[s] = summary["format"].map(f[f["status"] == s].groupby("format").size()).fillna(0).astype(int)
    cols = [c for c in ("file", "format", "status", "size", "container", "sha256") if c in f.columns]
    return ('<p class="note">status: <b>parsed</b> (its rows are in the tables), <b>failed</b> (recognised but '
            'bad: see Errors), <b>skipped</b> (no format recognises it; not an error), <b>container</b> (a '
            'container no format reads; its members are files of their own). Hashes: SHA-256, the first '
            f'{HASH_CHARS} digits (hover for all 64).</p>' + html_table(summary, cell=_status_cell) +
            "<h3>Every file</h3>" + html_table(f[cols], MAX_FILES, cell=_status_cell))


def _errors(corpus) -> str:
    e = corpus.errors
    f = corpus.files
    counts = f["status"].value_counts() if "status" in f.columns else pd.Series(dtype=int)
    others = ", ".join(f"{int(counts[s])} {s}" for s in ("skipped", "container") if counts.get(s, 0))
    if not len(e):
        if not others:
            return '<p class="ok">Every file parsed.</p>'
        return (f'<p class="ok">No file failed.</p><p class="note">{int(counts.get("parsed", 0))} parsed, {others} '
                "(skipped: no format recognises them; containers: their members are files of their own).</p>")
    cols = [c for c in ("file", "format", "path", "offset", "message") if c in e.columns]
    shown = e[cols].assign(offset=[f"{int(o)} (0x{int(o):X})" if not pd.isna(o) else "" for o in e["offset"]]) \
        if "offset" in cols else e[cols]
    return (f"<p class='bad'>{len(e)} file(s) failed; reading stopped at the field path and byte offset shown."
            f"</p>{'<p class=note>Also ' + others + '.</p>' if others else ''}" + html_table(shown))


def _coverage(corpus) -> str:
    cov = coverage(corpus)
    per_file, gaps = cov.per_file, cov.gaps
    return ("<p>Bytes a typed field explains, bytes read as opaque blobs (pixel data, raw bytes) and gaps "
            "no field describes (what is not understood yet), per format and per file.</p>" +
            html_table(coverage_by_format(per_file)) + "<h3>Per file</h3>" +
            html_table(per_file.sort_values("share")) + "<h3>Largest gaps</h3>" +
            html_table(gaps.sort_values("length", ascending=False), 30))


def _most_common(v: Any, f: Callable[..., str]) -> str:
    """``[(0, 14), (350, 1)]`` as ``0 ×14, 350 ×1``, each value through the column's formatter."""
    items = list(v) if isinstance(v, (list, tuple, np.ndarray)) else []
    return ", ".join(f"{_e(f(x[0], max_len=40))} &times;{int(x[1])}" if isinstance(x, (list, tuple)) and len(x) == 2
                     else _e(fmt(x)) for x in items[:6]) + (" ..." if len(items) > 6 else "")


def _profiles(corpus) -> str:
    out = ['<p>One row per column; alerts point at likely meanings (constant, flags, index, fixed point ...). '
           'Columns without alerts are left out of the long tables. Values are written as the spec types them '
           '(hex for magic values, flags and ids).</p>']
    summary = []
    parts = []
    for name, df in corpus.tables.items():
        if name == "files" or not len(df):
            continue
        p = profile(None, df)
        alerts = p["alerts"].map(lambda a: len(a) if isinstance(a, (list, tuple, np.ndarray)) else 0)
        summary.append({"table": name, "rows": len(df), "columns": len(p),
                        "columns_with_alerts": int((alerts > 0).sum()),
                        "constant_columns": int(p["is_constant"].astype(bool).sum())})
        try:
            info = corpus.columns(name)
        except Exception:  # noqa: BLE001 - a table the spec does not describe is shown with the plain formatter
            info = None
        style = formatters(info, p)
        cols = [c for c in ("column", "dtype", "n_distinct", "min", "max", "p_zeros", "most_common", "alerts")
                if c in p.columns]
        shown = p.loc[alerts > 0, cols]
        fs = [style.get(str(c), fmt) for c in shown["column"]]
        shown = shown.assign(**{c: [f(v, max_len=60) if not pd.isna(v) else "" for f, v in zip(fs, shown[c],
                                                                                          strict=True)]
                                for c in ("min", "max") if c in shown.columns})
        if "most_common" in shown.columns:
            shown = shown.assign(most_common=[_most_common(v, f) for f, v in zip(fs, shown["most_common"],
                                                                                strict=True)])
        parts.append(f'<h3 id="profile-{_e(name)}">{_e(name)} <span class="note">({len(df)} rows, '
                     f'{len(p)} columns)</span></h3>' + html_table(shown, 60, cell=lambda c, v: _alerts_cell(c, v)
                                                               or (v if c == "most_common" else None)))
    out.append(html_table(pd.DataFrame(summary)))
    out.extend(parts)
    return "".join(out)


def _claims(corpus) -> str:
    c = claims(corpus)
    if not len(c):
        return '<p class="note">No claim applies to these formats.</p>'
    cols = [k for k in ("format", "claim", "verdict", "status", "source") if k in c.columns]
    table = c[cols].assign(board=list(zip(c["holds"], c["tested"], strict=True)))
    out = ["<p>Every claim of the format notes checked on the corpus: green = items where it holds, "
           "red = items where it does not. Each failing claim lists its counterexamples below (file, the byte "
           f"offset of the value found, expected, found; the first {MAX_COUNTEREXAMPLES}).</p>",
           html_table(table, cell=lambda k, v: _claim_cell(k, v) or _status_cell(k, v))]
    for _, r in c.iterrows():
        ce = r.get("counterexamples")
        n = int(r.get("fails") or 0)
        if not n and not (isinstance(r.get("error"), str) and r.get("error")):
            continue
        out.append(f'<h3 class="claim">{_e(r["claim"])} <span class="note">[{_e(r.get("format", ""))}] '
                   f'{_e(r.get("verdict", ""))}</span></h3>')
        if isinstance(r.get("error"), str) and r.get("error"):
            out.append(f"<p class='bad'>check failed: {_e(r['error'])}</p>")
        rows = counterexample_table(ce)
        out.append(html_table(rows))
        if n > len(rows):
            out.append(f'<p class="note">{len(rows)} of {n} counterexamples shown</p>')
    return "".join(out)


def _relations(corpus) -> str:
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
            r = relations(corpus, name, columns=cols)
        except Exception as e:  # noqa: BLE001 - a research error is reported in the report, never fatal to it
            out.append(f"<h3>{_e(name)}</h3><p class='bad'>relations failed: {_e(e)}</p>")
            continue
        if not len(r):
            continue
        found = True
        if "role" in r and "score" in r:  # findings first by what they explain, then classes and definitions
            order = r["role"].map({"finding": 0, "class": 1, "definition": 2}).fillna(3)
            top = r.assign(_o=order).sort_values(["_o", "score"], ascending=[True, False]).drop(columns="_o").head(8)
        else:
            top = r.sort_values(["support", "n_rows"], ascending=False).head(8)
        keep = [k for k in ("target", "source", "relation", "parameter", "support", "n_agree", "n_rows", "score",
                            "role", "p_value")
                if k in top.columns]
        out.append(f"<h3>{_e(name)}</h3>" + html_table(top[keep]))
    if not found:
        out.append('<p class="note">No relation found.</p>')
    return "".join(out)


def picture_function(spec: str | Callable) -> Callable[[Any, list[str]], list]:
    """The function a format's ``picture`` names (``"module:function"``), imported; a function as it is.

    Examples
    --------
    >>> picture_function("animre.formats.icn.pictures:icn").__name__
    'icn'
    """
    if callable(spec):
        return spec
    module, _, name = str(spec).partition(":")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as e:
        raise UsageError(f"picture {spec!r}: no function {name!r} in module {module!r} ({e})") from e


def _pictures(corpus) -> str:
    f = corpus.files
    parsed = f[f["status"] == "parsed"] if "status" in f.columns else f[f["ok"].astype(bool)]
    out = []
    for name, spec in sorted(corpus.formats.items()):
        files = parsed.loc[parsed["format"] == name, "file"].tolist()
        if not files or not spec.picture:
            continue
        try:
            pics = picture_function(spec.picture)(corpus, files)
        except Exception as e:  # noqa: BLE001 - one format's pictures failing leaves the others
            out.append(f"<h3>{_e(spec.title)}</h3><p class='bad'>pictures failed: {_e(type(e).__name__)}: "
                       f"{_e(e)}</p>")
            continue
        figs = []
        if len(pics) > MAX_PICTURES:
            pics = pics[:MAX_PICTURES] + [(f"{len(pics) - MAX_PICTURES} more pictures of {spec.title} not shown "
                                           f"(at most {MAX_PICTURES} per format)", None)]
        for caption, pic in pics:
            if pic is None:
                bad = " bad" if "no picture" in caption else ""
                figs.append(f"<figure class='none{bad}'><figcaption>{_e(caption)}</figcaption></figure>")
            elif isinstance(pic, (bytes, bytearray)):
                figs.append(f"<figure>{_img(bytes(pic), caption, pixelated=True)}"
                            f"<figcaption>{_e(caption)}</figcaption></figure>")
            else:
                figs.append(f"<figure>{_fig(pic, caption)}<figcaption>{_e(caption)}</figcaption></figure>")
        out.append(f'<div id="pictures-{_e(name)}"><h3>{_e(spec.title)}</h3><div class="pics">{"".join(figs)}</div>'
                   '</div>')
    if not out:
        return '<p class="note">No format of this corpus has pictures.</p>'
    return ('<p class="note">For every animation file (byte-identical copies once; at most '
            f'{MAX_ANIMATION_FILES} files per format, the others named): its frames as a contact sheet and the '
            'animation playing (an animated PNG) at the timing the file declares.</p>' + "".join(out))


# ----------------------------------------------------------------------------- the page


def report_html(corpus, *, title: str | None = None) -> str:
    """The whole report as one HTML string (no external reference: CSS inline, pictures as data URIs).

    Examples
    --------
    >>> from animre import open_corpus
    >>> page = report_html(open_corpus("data/samples/frm", cache=False, progress=False))
    >>> [f'id="{s}"' in page for s, _ in SECTIONS]
    [True, True, True, True, True, True, True]
    """
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
    counts = f["status"].value_counts() if "status" in f.columns else pd.Series(dtype=int)
    tally = ", ".join(f"{int(counts.get(s, 0))} {s}" for s in STATUSES if counts.get(s, 0) or s == "failed")
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{_e(title)}</title>"
            f"<style>{CSS}</style></head><body><header><h1>{_e(title)}</h1>"
            f"<p>{len(f)} files ({_e(tally)}), formats: {_e(formats)}"
            f" &middot; {_e(Path(str(root)).name if root else '')} &middot; animre {_e(__version__)} &middot; "
            f"{stamp} &middot; {SIZE_MARK}</p></header>"
            f"<nav>{nav}</nav><main>{''.join(body)}</main></body></html>\n")
    return _with_size(page)


def page_size(n: int) -> str:
    """How the report states its size: ``this page: 1.4 MB (1,448,113 bytes), one self-contained file``.

    Examples
    --------
    >>> page_size(1448113)
    'this page: 1.4 MB (1,448,113 bytes), one self-contained file'
    """
    amount = f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.0f} kB"
    return f"this page: {amount} ({n:,} bytes), one self-contained file"


def _with_size(page: str) -> str:
    """The page with :data:`SIZE_MARK` replaced by its own size in UTF-8 bytes (the statement included)."""
    base = len(page.encode("utf-8")) - len(SIZE_MARK)
    n = base
    for _ in range(4):  # the statement's own length changes the size; a few rounds settle it
        n = base + len(page_size(n))
    return page.replace(SIZE_MARK, page_size(n), 1)


def write_report(corpus, path: str | os.PathLike, *, title: str | None = None) -> Path:
    """Write :func:`report_html` to ``path`` atomically; returns the path.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from animre import open_corpus
    >>> frm = open_corpus("data/samples/frm", cache=False, progress=False)
    >>> p = write_report(frm, pathlib.Path(tempfile.mkdtemp()) / "report.html")
    >>> p.read_text().count("<section")
    7
    """
    write_atomic(path, report_html(corpus, title=title).encode("utf-8"))
    return Path(path)
