"""Pictures of a format's files for the report: what each format plugin names as its ``picture``.

A format record (:class:`animre.formats.base.Format`) names its picture
function as ``"module:function"`` (``picture="animre.present.pictures:icn"``); the
report imports it for every format present, so nothing outside a format's
plugin names a format. Each function is ``fn(corpus, files) -> list of
(caption, picture)``: ``files`` are the corpus files of that format that
parsed, a picture is PNG bytes (pixel art at a whole-number zoom; an animated
PNG plays in the page) or a matplotlib Figure. Every caption starts with the
file it shows. A file whose picture cannot be drawn gives ``(caption, None)``
with the caption saying why; nothing is dropped silently.

For every animation file (byte-identical copies once, at most
:data:`MAX_FILES` per format, the others listed by name in a last caption)
there is its frames as a contact sheet and the animation itself playing,
each frame shown for the time the file declares:

- FLC: a Civ3 unit's directions (a row each; side by side while playing) at
  the header speed; a plain FLI/FLC's frames in order;
- FRM with its ICN: every sequence (a row each; played in turn, aligned on
  the unit's anchor) at the engine's interval of each sequence;
- OMF AF/BK: the first :data:`MAX_MOVES` moves (a row each; played in turn)
  at their animation strings' ticks;
- GNT4 MOT: the key curves of its busiest animation with a time cursor
  moving in real time (steps of 1 / :data:`CURVE_FPS` s).

Frames are decoded by :mod:`animre.decode`, composed by
:mod:`animre.present.frames` and laid out or played by
:mod:`animre.present.sheets`.

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

from ..base.errors import AnimreError
from ..decode import flc as flc_decode
from ..decode import icn as icn_decode
from ..decode import omf_sprites
from . import plots
from .frames import OMF_TABLES, CurveCursor, move_frames
from .sheets import animation, distinct, grid, in_turn, sheet, side_by_side, zoom_for

__all__ = ["Picture", "flc", "omf", "icn", "frm", "mot", "pal", "sheet", "distinct", "MAX_FILES", "MAX_MOVES",
           "CURVE_FPS", "OMF_MS_PER_TICK", "PLAYING"]

#: (caption, PNG bytes or Figure or None).
Picture = tuple[str, Any]
#: At most this many files of one format are drawn (the others are listed by name).
MAX_FILES = 24
#: Sprites per ICN sprite sheet.
MAX_SPRITES = 32
#: Frames of a plain FLI/FLC shown on its contact sheet / played.
MAX_SHEET_FRAMES, MAX_PLAYED_FRAMES = 48, 400
#: OMF moves per file shown and played.
MAX_MOVES = 12
#: Cursor steps per second of animation time in a GNT4 curve animation.
CURVE_FPS = 10
#: Milliseconds per OMF tick (openomf's engine tick).
OMF_MS_PER_TICK = 10
#: The words after the file name that mark an animation's caption.
PLAYING = "playing"


def _name(file: str) -> str:
    return PurePosixPath(file).name


def _failed(file: str, e: Exception) -> Picture:
    return (f"{file}: no picture: {type(e).__name__}: {e}", None)


def _rest(files: Sequence[Any]) -> list[Picture]:
    """The files past the cap (:data:`MAX_FILES`), by name: nothing is left out without being named."""
    limit = MAX_FILES
    names = [f[0] if isinstance(f, tuple) else f for f in files[limit:]]
    if not names:
        return []
    shown = ", ".join(names[:500]) + (f" ... ({len(names) - 500} more)" if len(names) > 500 else "")
    return [(f"{len(names)} more file(s) not drawn (at most {limit} per format): {shown}", None)]


def _also(copies: Sequence[str]) -> str:
    if not copies:
        return ""
    return f"; the same bytes as {', '.join(copies[:3])}{' ...' if len(copies) > 3 else ''}"


def _ms(d: float) -> str:
    return f"{d:g} ms"


def _timing(durations: Sequence[float]) -> str:
    ds = sorted({round(float(d), 3) for d in durations})
    return f"{_ms(ds[0])} each" if len(ds) == 1 else f"{_ms(ds[0])}-{_ms(ds[-1])} per frame"


def _playing(name: str, frames: list[np.ndarray], durations: list[float], zoom: int, what: str) -> Picture:
    """The caption and animated PNG of an animation (a still PNG when it has one frame)."""
    if len(frames) < 2:
        return (f"{name}: one frame only, nothing to play: {what}", animation(frames, durations, zoom=zoom))
    return (f"{name}: {PLAYING}: {len(frames)} frames, {_timing(durations)}, {what}",
            animation(frames, durations, zoom=zoom))


# ----------------------------------------------------------------------------- FLC


def flc(corpus: Any, files: Sequence[str]) -> list[Picture]:
    """Every FLC's contact sheet and its animation playing at the header speed.

    Examples
    --------
    >>> pics = flc(corpus, ["flc/Warrior/Run.flc"])
    >>> [c.split(": ")[1] for c, _ in pics]
    ['Civ3 contact sheet', 'playing']
    """
    out: list[Picture] = []
    unique = distinct(corpus, files)
    for name, copies in unique[:MAX_FILES]:
        try:
            data = corpus.read_bytes(name)
            d = flc_decode.decode_all(data, name=name)
            ms = flc_decode.frame_duration_ms(data)
        except AnimreError as e:
            out.append(_failed(name, e))
            continue
        images = [r for r in d.roles if not r.is_ring]
        if not images:
            out.append((f"{name}: no picture: no image frame", None))
            continue
        civ3 = d.flicanim is not None and d.flicanim["num_anims"] > 0 and d.flicanim["anim_length"] > 0
        if civ3:
            rows: dict[str, list[np.ndarray]] = {}
            for r in images:
                rows.setdefault(r.direction_name or str(r.direction), []).append(
                    flc_decode.civ3_rgba(d.frames[r.frame], d.palettes[r.frame]))
            n = min(len(v) for v in rows.values())
            k = zoom_for(rows[next(iter(rows))], cell=96)
            out.append((f"{name}: Civ3 contact sheet: rows {', '.join(rows)}; {n} frames each (transparent and "
                        f"shadow pixels over a checkerboard){_also(copies)}", grid(list(rows.values()), zoom=k)))
            frames = [side_by_side([v[i] for v in rows.values()]) for i in range(n)]
            out.append(_playing(name, frames, [ms] * n, k, f"the header speed; directions {', '.join(rows)} "
                                                          "side by side"))
            continue
        rgba = [np.concatenate([d.palettes[r.frame][d.frames[r.frame]],
                                np.full(d.frames[r.frame].shape + (1,), 255, np.uint8)], axis=2) for r in images]
        k = zoom_for(rgba, cell=96)
        cut = f"first {MAX_SHEET_FRAMES} of " if len(rgba) > MAX_SHEET_FRAMES else ""
        out.append((f"{name}: contact sheet: {cut}{len(rgba)} frames in file order{_also(copies)}",
                    sheet(rgba[:MAX_SHEET_FRAMES], zoom=k)))
        cut = f"the first {MAX_PLAYED_FRAMES} of {len(rgba)} frames; " if len(rgba) > MAX_PLAYED_FRAMES else ""
        out.append(_playing(name, rgba[:MAX_PLAYED_FRAMES], [ms] * len(rgba[:MAX_PLAYED_FRAMES]), k,
                            f"{cut}the header speed"))
    return out + _rest(unique)


# ----------------------------------------------------------------------------- OMF


def omf(corpus: Any, files: Sequence[str]) -> list[Picture]:
    """Each AF (or BK) file's first moves as a contact sheet and played in turn at their animation strings' ticks.

    Colours: the first BK file's palette when the corpus has one, else index colours.

    Examples
    --------
    >>> pics = omf(corpus, ["af/FIGHTR0.AF"])
    >>> [c.split(": ")[1] for c, _ in pics]
    ['contact sheet', 'playing']
    """
    ft = corpus.files
    bks = ft.loc[(ft["format"] == "bk") & (ft["status"] == "parsed") & ft["container"].isna(), "file"].tolist() \
        if "container" in ft.columns else []
    palette, where = None, "index colours (no BK palette in the corpus)"
    if bks:
        try:
            palette, where = omf_sprites.bk_palette(str(corpus.path(bks[0]))), f"palette of {bks[0]}"
        except (AnimreError, ValueError):
            pass  # a BK whose palette cannot be read: index colours, and the caption says so
    containers = dict(zip(ft["file"], ft["container"], strict=True)) if "container" in ft.columns else {}
    out: list[Picture] = []
    unique = distinct(corpus, files)
    for name, copies in unique[:MAX_FILES]:
        if isinstance(containers.get(name), str):
            out.append((f"{name}: no picture: sprites of a container member are not drawn", None))
            continue
        fmt = corpus.format_of(name)
        fmt = fmt if fmt in OMF_TABLES else "af"
        table, _, _, number = OMF_TABLES[fmt]
        moves = corpus.tables.get(table)
        numbers = [] if moves is None else [int(m) for m in moves.loc[moves["file"] == name, number]]
        try:
            sprites = omf_sprites.sprite_images(corpus.path(name), strict=False)
        except AnimreError as e:
            out.append(_failed(name, e))
            continue
        rows, frames, durations, origins, shown, failed = [], [], [], [], [], []
        for m in numbers[:MAX_MOVES]:
            try:
                mf = move_frames(corpus, name, m, palette=palette, format=fmt, sprites=sprites)
            except AnimreError:
                failed.append(m)
                continue
            firsts = dict.fromkeys(mf.sprites)  # each sprite once, in the order the string shows them
            rows.append([mf.frames[mf.sprites.index(s)] for s in firsts])
            frames += mf.frames
            durations += [t * OMF_MS_PER_TICK for t in mf.ticks]
            origins += [mf.origin] * len(mf.frames)
            shown.append(m)
        if not frames:
            out.append((f"{name}: no picture: no move with sprites", None))
            continue
        which = (f"moves {', '.join(map(str, shown))}" + (f" (the first {MAX_MOVES} of {len(numbers)})"
                                                           if len(numbers) > MAX_MOVES else ""))
        bad = f"; moves {', '.join(map(str, failed))} not drawn (no sprites)" if failed else ""
        k = zoom_for([a for r in rows for a in r], cell=128)
        out.append((f"{name}: contact sheet: {which}, a row each: its sprites as its animation string shows them "
                    f"(grey: sprite boxes, red: collision points; {where}){bad}{_also(copies)}", grid(rows, zoom=k)))
        out.append(_playing(name, in_turn(frames, origins), durations, k,
                            f"{which} in turn, {OMF_MS_PER_TICK} ms per tick of each animation string"))
    return out + _rest(unique)


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
    return out + _rest(unique)


def frm(corpus: Any, files: Sequence[str]) -> list[Picture]:
    """The idle weights of every FRM, and each FRM's sequences (with its ICN's sprites) as a contact sheet and
    played in turn, each frame for the engine's interval of its sequence.

    Examples
    --------
    >>> pics = frm(corpus, ["frm/GOBLNFRM.BIN"])
    >>> [c.split(": ")[0 if i == 0 else 1] for i, (c, _) in enumerate(pics)]
    ['idle weights', 'contact sheet', 'playing']
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
    seqs = corpus.tables.get("frm_sequences", pd.DataFrame(columns=["file", "slot", "num_frames"]))
    unique = distinct(corpus, files)
    lonely = [f for f, _ in unique if icn_decode.icn_for_frm(f) not in icns]
    unique = [(f, c) for f, c in unique if f not in set(lonely)]
    for f, copies in unique[:MAX_FILES]:
        i = icns[icn_decode.icn_for_frm(f)]
        try:
            sprites = icn_decode.read_icn(corpus.read_bytes(i), i)
        except AnimreError as e:
            out.append(_failed(f, e))
            continue
        mine = seqs[(seqs["file"] == f) & (seqs["num_frames"] > 0)].sort_values("slot")
        rows, names, frames, durations, origins, bad = [], [], [], [], [], []
        for _, s in mine.iterrows():
            label = str(s.get("animation_name") or f"slot {int(s['slot'])}")
            try:
                fr, info = icn_decode.sequence_frames(corpus.tables, sprites, int(s["slot"]), palette=palette, file=f)
            except AnimreError:
                bad.append(label)
                continue
            if not len(fr):
                continue
            rows.append(list(fr))
            names.append(label)
            frames += list(fr)
            durations += [float(v) for v in info["interval_ms"]]
            origins += [(-int(x), -int(y)) for x, y in zip(info["anchor_x"], info["anchor_y"], strict=True)]
        if not frames:
            out.append((f"{f}: no picture: no sequence with frames", None))
            continue
        note = f"; {', '.join(bad)} not drawn (frame ids the ICN lacks)" if bad else ""
        k = zoom_for([a for r in rows for a in r], cell=96)
        out.append((f"{f}: contact sheet: sequences {', '.join(names)}, a row each, with the sprites of {i} "
                    f"({colours}){note}{_also(copies)}", grid(rows, zoom=k)))
        out.append(_playing(f, in_turn(frames, origins), durations, k,
                            f"the {len(names)} sequences in turn on the unit's anchor, each at the engine's "
                            "interval of its sequence"))
    if lonely:
        out.append((f"{len(lonely)} FRM file(s) without their ICN in the corpus, so no sequence is drawn: "
                    f"{', '.join(lonely[:500])}", None))
    return out + _rest(unique)


def pal(corpus: Any, files: Sequence[str]) -> list[Picture]:
    """The 256 colours of each palette.

    Examples
    --------
    >>> pal(corpus, ["agg/HEROES2.AGG/KB.PAL"])[0][0]
    'agg/HEROES2.AGG/KB.PAL: 256 colours (6-bit components x 4)'
    """
    out: list[Picture] = []
    unique = distinct(corpus, files)
    for name, copies in unique[:MAX_FILES]:
        try:
            colours = icn_decode.kb_palette(corpus.read_bytes(name))[:, :3]
        except AnimreError as e:
            out.append(_failed(name, e))
            continue
        out.append((f"{name}: 256 colours (6-bit components x 4){_also(copies)}",
                    plots.palette_swatch(colours, title=_name(name))))
    return out + _rest(unique)


# ----------------------------------------------------------------------------- GNT4


def mot(corpus: Any, files: Sequence[str]) -> list[Picture]:
    """Each MOT file's key curves (the bone with the most keys in its animation with the most keys), a time
    cursor moving over them in real time.

    Examples
    --------
    >>> pics = mot(corpus, corpus.files.query("format == 'mot'")["file"].tolist()[:1])
    >>> pics[0][0].split(": ")[1]
    'playing'
    """
    keys = corpus.tables.get("mot_keys")
    anims = corpus.tables.get("mot_animations")
    out: list[Picture] = []
    unique = distinct(corpus, files)
    for name, copies in unique[:MAX_FILES]:
        k = keys[keys["file"] == name] if keys is not None else pd.DataFrame()
        if not len(k):
            out.append((f"{name}: no picture: no keys", None))
            continue
        anim = k.groupby("anim_id").size().idxmax()
        k = k[k["anim_id"] == anim]
        bone = k.groupby("bone_id").size().idxmax()
        sel = pd.DataFrame(k[k["bone_id"] == bone])
        end = None
        if anims is not None:
            a = anims[(anims["file"] == name) & (anims["anim_id"] == anim)]
            end = float(a["end_time"].iloc[0]) if len(a) and pd.notna(a["end_time"].iloc[0]) else None
        cc = CurveCursor(sel, end_time=end, title=f"{_name(name)} animation {anim}, bone {bone}")
        times = cc.times(CURVE_FPS)
        frames = [np.concatenate([cc.at(t), np.full(cc.base.shape[:2] + (1,), 255, np.uint8)], axis=2)
                  for t in times]
        out.append(_playing(name, frames, [1000 / CURVE_FPS] * len(frames), 1,
                            f"key curves of animation {anim}, bone {bone} ({len(sel)} keys): the cursor moves "
                            f"{1 / CURVE_FPS:g} s of animation time per {1000 / CURVE_FPS:g} ms, to the end at "
                            f"{cc.end:g} s (the game draws 60 frames a second){_also(copies)}"))
    return out + _rest(unique)

