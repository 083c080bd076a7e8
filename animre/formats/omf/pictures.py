"""The report's pictures of OMF AF/BK files: the first :data:`MAX_MOVES` moves (a row each; played in turn)
at their animation strings' ticks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...base.errors import AnimreError
from ...present.pictures import Picture, also, drawn, failed, playing, rest
from ...present.sheets import distinct, grid, in_turn, zoom_for
from . import sprites as omf_sprites
from .frames import OMF_MS_PER_TICK, OMF_TABLES, move_frames

#: OMF moves per file shown and played.
MAX_MOVES = 12


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
    for name, copies in drawn(unique):
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
            out.append(failed(name, e))
            continue
        rows, frames, durations, origins, shown, broken = [], [], [], [], [], []
        for m in numbers[:MAX_MOVES]:
            try:
                mf = move_frames(corpus, name, m, palette=palette, format=fmt, sprites=sprites)
            except AnimreError:
                broken.append(m)
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
        bad = f"; moves {', '.join(map(str, broken))} not drawn (no sprites)" if broken else ""
        k = zoom_for([a for r in rows for a in r], cell=128)
        out.append((f"{name}: contact sheet: {which}, a row each: its sprites as its animation string shows them "
                    f"(grey: sprite boxes, red: collision points; {where}){bad}{also(copies)}", grid(rows, zoom=k)))
        out.append(playing(name, in_turn(frames, origins), durations, k,
                            f"{which} in turn, {OMF_MS_PER_TICK} ms per tick of each animation string"))
    return out + rest(unique)
