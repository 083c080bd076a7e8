"""Pictures of a format's files for the report: what each format plugin names as its ``picture``.

A format record (:class:`animre.formats.base.Format`) names its picture
function as ``"module:function"`` (``picture="animre.present.pictures:icn"``); the
report imports it for every format present, so nothing outside a format's
plugin names a format. Each function is ``fn(corpus, files) -> list of
(caption, picture)``: ``files`` are the corpus files of that format that
parsed, a picture is PNG bytes (pixel art at a whole-number zoom) or a
matplotlib Figure. A file whose picture cannot be drawn gives ``(caption,
None)`` with the caption saying why; nothing is dropped silently. At most
:data:`MAX_FILES` files per format are drawn and the last caption says how
many were left out.

Frames are decoded by :mod:`animre.decode`, figures drawn by
:mod:`animre.present.plots`, pixels composed by :mod:`animre.present.png`.

Examples
--------
>>> from animre import open_corpus
>>> pics = icn(open_corpus("data/samples/icn", cache=False), ["GOBLIN.ICN"])
>>> pics[0][0][:10], pics[0][1][:4]
('GOBLIN.ICN', b'\\x89PNG')
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import Any

import numpy as np
import pandas as pd

from ..decode import flc as flc_decode
from ..decode import icn as icn_decode
from ..decode import omf_sprites
from ..errors import AnimreError
from . import plots
from .png import checkerboard, image_png, index_palette

__all__ = ["Picture", "flc", "omf", "icn", "frm", "mot", "pal", "sheet", "distinct", "MAX_FILES"]

#: (caption, PNG bytes or Figure or None).
Picture = tuple[str, Any]
#: At most this many files of one format are drawn.
MAX_FILES = 6
#: Sprites per ICN sprite sheet.
MAX_SPRITES = 32


def _name(file: str) -> str:
    return PurePosixPath(file).name


def _failed(file: str, e: Exception) -> Picture:
    return (f"{file}: no picture: {type(e).__name__}: {e}", None)


def _more(files: Sequence[str], limit: int = MAX_FILES) -> list[Picture]:
    return [(f"first {limit} of {len(files)} files drawn", None)] if len(files) > limit else []


def sheet(images: Sequence[np.ndarray], *, columns: int | None = None, gap: int = 2, zoom: int | None = None,
          cell: int = 64, max_width: int = 800) -> bytes:
    """PNG of RGBA images laid out in rows, each on its own checkerboard, at one whole-number zoom.

    ``zoom`` defaults to the largest (1 to 4) that brings the median image
    near ``cell`` pixels while the widest stays within ``max_width``.
    Images are placed left to right and wrap at ``max_width`` (or after
    ``columns`` images of equal width: a grid). Empty images are left out.

    Examples
    --------
    >>> from PIL import Image
    >>> import io
    >>> Image.open(io.BytesIO(sheet([np.zeros((3, 5, 4), np.uint8)] * 3, columns=2, zoom=1))).size
    (12, 8)
    """
    imgs = [np.asarray(a) for a in images if np.asarray(a).size]
    if not imgs:
        return image_png(np.zeros((1, 1, 4), np.uint8))
    longest = sorted(max(a.shape[:2]) for a in imgs)
    widest = max(a.shape[1] for a in imgs)
    k = zoom or max(1, min(4, cell // max(1, longest[len(longest) // 2]), max_width // widest))
    if columns:
        limit = columns * (max(a.shape[1] for a in imgs) * k + gap) - gap
    else:
        limit = max(max_width, widest * k)
    places, x, y, row = [], 0, 0, 0
    for a in imgs:
        h, w = a.shape[0] * k, a.shape[1] * k
        if x and x + w > limit:
            x, y, row = 0, y + row + gap, 0
        places.append((y, x))
        x, row = x + w + gap, max(row, h)
    height = y + row
    width = max(px + a.shape[1] * k for (_, px), a in zip(places, imgs, strict=True))
    out = np.full((height, width, 3), 255, np.uint8)
    for (py, px), a in zip(places, imgs, strict=True):
        big = checkerboard(np.repeat(np.repeat(a, k, axis=0), k, axis=1), cell=8 if k > 1 else 4)
        out[py:py + big.shape[0], px:px + big.shape[1]] = big
    return image_png(out, 1, checker=False)


def distinct(corpus: Any, files: Sequence[str]) -> list[tuple[str, list[str]]]:
    """The files with different bytes (by SHA-256), each with its byte-identical copies, in corpus order.

    Examples
    --------
    >>> [f for f, copies in distinct(corpus, ["agg/GOBLNFRM.BIN", "agg/HEROES2.AGG/GOBLNFRM.BIN"])]
    ['agg/GOBLNFRM.BIN']
    """
    ft = corpus.files
    sha = dict(zip(ft["file"], ft["sha256"], strict=True)) if "sha256" in ft.columns else {}
    groups: dict[Any, list[str]] = {}
    for f in files:
        groups.setdefault(sha.get(f) or f, []).append(f)
    return [(g[0], g[1:]) for g in groups.values()]


def _also(copies: Sequence[str]) -> str:
    if not copies:
        return ""
    return f"; the same bytes as {', '.join(copies[:3])}{' ...' if len(copies) > 3 else ''}"


# ----------------------------------------------------------------------------- Civ3 FLC


def flc(corpus: Any, files: Sequence[str]) -> list[Picture]:
    """A contact sheet (directions x frames) of the first Civ3 unit and the first frame of each file.

    Examples
    --------
    >>> pics = flc(corpus, ["flc/Warrior/Run.flc"])
    >>> [c.split(":")[0] for c, _ in pics]
    ['Civ3 contact sheet', 'first frames']
    """
    out: list[Picture] = []
    firsts, names = [], []
    for name in files[:MAX_FILES]:
        try:
            d = flc_decode.decode_all(corpus.read_bytes(name), name=name)
        except AnimreError as e:
            out.append(_failed(name, e))
            continue
        images = [r for r in d.roles if not r.is_ring]
        if not images:
            out.append((f"{name}: no image frame", None))
            continue
        civ3 = d.flicanim is not None and d.flicanim["num_anims"] > 0 and d.flicanim["anim_length"] > 0
        rgba = [flc_decode.civ3_rgba(d.frames[r.frame], d.palettes[r.frame]) if civ3 else
                np.concatenate([d.palettes[r.frame][d.frames[r.frame]],
                                np.full(d.frames[r.frame].shape + (1,), 255, np.uint8)], axis=2) for r in images]
        firsts.append(rgba[0])
        names.append(_name(name))
        if civ3 and not any(c.startswith("Civ3 contact sheet") for c, _ in out):
            rows: dict[str, list[np.ndarray]] = {}
            for r, img in zip(images, rgba, strict=True):
                rows.setdefault(r.direction_name or str(r.direction), []).append(img)
            n = max(len(v) for v in rows.values())
            shown = min(8, n)
            grid = [img for v in rows.values() for img in (v[:shown] + [np.zeros_like(v[0])] * (shown - len(v)))]
            out.insert(0, (f"Civ3 contact sheet: {name}: rows {', '.join(rows)}; first {shown} of {n} frames "
                           "(transparent and shadow pixels over a checkerboard)", sheet(grid, columns=shown)))
    if firsts:
        out.append((f"first frames: {', '.join(names)}", sheet(firsts, cell=160)))
    return out + _more(files)


# ----------------------------------------------------------------------------- OMF


def omf(corpus: Any, files: Sequence[str]) -> list[Picture]:
    """The first sprite of the first moves of each AF (or animations of each BK) file.

    Colours: the first BK file's palette when the corpus has one, else index colours.

    Examples
    --------
    >>> pics = omf(corpus, ["af/FIGHTR0.AF"])
    >>> pics[0][0].startswith("FIGHTR0.AF: first sprite of")
    True
    """
    ft = corpus.files
    bks = ft.loc[(ft["format"] == "bk") & (ft["status"] == "parsed") & ft["container"].isna(), "file"].tolist() \
        if "container" in ft.columns else []
    palette = str(corpus.path(bks[0])) if bks else index_palette()
    where = f"palette of {bks[0]}" if bks else "index colours (no BK palette in the corpus)"
    out: list[Picture] = []
    for name in files[:MAX_FILES]:
        if "container" in ft.columns and isinstance(ft.loc[ft["file"] == name, "container"].iloc[0], str):
            out.append((f"{name}: sprites of a container member are not drawn", None))
            continue
        try:
            sprites = omf_sprites.sprite_images(corpus.path(name), strict=False)
            firsts = [s for s in sprites if s.sprite == 0][:8]
            imgs = [omf_sprites.to_rgba(s.image, palette) for s in firsts]
        except AnimreError as e:
            out.append(_failed(name, e))
            continue
        if imgs:
            out.append((f"{_name(name)}: first sprite of {', '.join(str(s.number) for s in firsts)} ({where})",
                        sheet(imgs)))
    return out + _more(files)


# ----------------------------------------------------------------------------- HoMM2


def _kb_palette(corpus: Any) -> tuple[np.ndarray, str]:
    ft = corpus.files
    pals = [f for f in ft.loc[(ft["format"] == "pal") & (ft["status"] == "parsed"), "file"]
            if _name(f).upper() == "KB.PAL"]
    for p in pals:
        try:
            return icn_decode.kb_palette(corpus.read_bytes(p)), f"colours of {p}"
        except AnimreError:
            continue
    return icn_decode.stand_in_palette(), "grey stand-in palette (no KB.PAL in the corpus)"


def icn(corpus: Any, files: Sequence[str]) -> list[Picture]:
    """A sprite sheet of each ICN file (its first sprites), coloured by the corpus's ``KB.PAL``.

    Examples
    --------
    >>> pics = icn(corpus, ["icn/GOBLIN.ICN"])
    >>> "sprites" in pics[0][0]
    True
    """
    palette, colours = _kb_palette(corpus)
    out: list[Picture] = []
    unique = distinct(corpus, files)
    for name, copies in unique[:MAX_FILES]:
        try:
            sprites = icn_decode.read_icn(corpus.read_bytes(name), name)
        except AnimreError as e:
            out.append(_failed(name, e))
            continue
        if not sprites:
            out.append((f"{name}: no sprite", None))
            continue
        shown = sprites[:MAX_SPRITES]
        out.append((f"{name}: sprites 0-{len(shown) - 1} of {len(sprites)} ({colours}){_also(copies)}",
                    sheet([icn_decode.sprite_rgba(s, palette) for s in shown])))
    return out + _more(unique)


def frm(corpus: Any, files: Sequence[str]) -> list[Picture]:
    """The idle weights of every FRM and the ``move_main`` sequence strip of the first FRMs with their ICN.

    Examples
    --------
    >>> pics = frm(corpus, ["frm/GOBLNFRM.BIN"])
    >>> [c.split(":")[0] for c, _ in pics]
    ['idle weights', 'frm/GOBLNFRM.BIN']
    """
    out: list[Picture] = []
    table = corpus.tables.get("frm")
    if table is not None and len(table):
        rows = table[table["file"].isin(files)].head(40)
        out.append((f"idle weights: {len(rows)} of {len(files)} files", plots.idle_weights(rows)))
    ft = corpus.files
    icns: dict[str, str] = {}
    for f in ft.loc[(ft["format"] == "icn") & (ft["status"] == "parsed"), "file"]:
        icns.setdefault(_name(f).upper(), f)
    palette, colours = _kb_palette(corpus)
    paired = [(f, copies, icns.get(icn_decode.icn_for_frm(f))) for f, copies in distinct(corpus, files)]
    strips = [(f, c, i) for f, c, i in paired if i is not None][:3]
    for f, copies, i in strips:
        try:
            sprites = icn_decode.read_icn(corpus.read_bytes(i), i)
            frames, info = icn_decode.sequence_frames(corpus.tables, sprites, "move_main", palette=palette, file=f)
        except AnimreError as e:
            out.append(_failed(f, e))
            continue
        out.append((f"{f}: move_main with the sprites of {i} ({colours}; red cross: the anchor){_also(copies)}",
                    plots.sequence_strip(frames, info, title=f"{_name(f)}: move_main")))
    if not strips and files:
        out.append((f"no sequence strip: none of the {len(files)} FRM files has its ICN in the corpus", None))
    return out


def pal(corpus: Any, files: Sequence[str]) -> list[Picture]:
    """The 256 colours of each palette.

    Examples
    --------
    >>> pal(corpus, ["agg/HEROES2.AGG/KB.PAL"])[0][0]
    'agg/HEROES2.AGG/KB.PAL: 256 colours (6-bit components x 4)'
    """
    out: list[Picture] = []
    for name in files[:MAX_FILES]:
        try:
            colours = icn_decode.kb_palette(corpus.read_bytes(name))[:, :3]
        except AnimreError as e:
            out.append(_failed(name, e))
            continue
        out.append((f"{name}: 256 colours (6-bit components x 4)", plots.palette_swatch(colours, title=_name(name))))
    return out + _more(files)


# ----------------------------------------------------------------------------- GNT4


def mot(corpus: Any, files: Sequence[str]) -> list[Picture]:
    """The key curves of the bone with the most keys in the animation with the most keys.

    Examples
    --------
    >>> mot(corpus, corpus.files.query("format == 'mot'")["file"].tolist())[0][0].startswith("key curves")
    True
    """
    keys = corpus.tables.get("mot_keys")
    if keys is None or not len(keys):
        return [("no keys in the corpus", None)] if files else []
    keys = keys[keys["file"].isin(files)]
    if not len(keys):
        return [("no keys in these files", None)]
    file, anim = keys.groupby(["file", "anim_id"]).size().idxmax()
    k = keys[(keys["file"] == file) & (keys["anim_id"] == anim)]
    bone = k.groupby("bone_id").size().idxmax()
    sel = k[k["bone_id"] == bone]
    return [(f"key curves: {file} animation {anim}, bone {bone} ({len(sel)} keys)",
             plots.key_curves(pd.DataFrame(sel), title=f"{_name(file)} animation {anim}, bone {bone}"))]
