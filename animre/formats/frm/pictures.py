"""The report's pictures of HoMM2 FRM files: the idle weights, and every sequence drawn with its ICN's
sprites (a row each; played in turn, aligned on the unit's anchor) at the engine's interval of each sequence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from ...base.errors import AnimreError
from ...present.pictures import Picture, also, drawn, failed, name_of, playing, rest
from ...present.sheets import distinct, grid, in_turn, zoom_for
from ..icn import decode as icn_decode
from ..icn.pictures import kb_palette
from .plots import idle_weights


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
        out.append((f"idle weights: {len(rows)} of {len(files)} files", idle_weights(rows)))
    ft = corpus.files
    icns: dict[str, str] = {}
    for f in ft.loc[(ft["format"] == "icn") & (ft["status"] == "parsed"), "file"]:
        icns.setdefault(name_of(f).upper(), f)
    palette, colours = kb_palette(corpus)
    seqs = corpus.tables.get("frm_sequences", pd.DataFrame(columns=["file", "slot", "num_frames"]))
    unique = distinct(corpus, files)
    lonely = [f for f, _ in unique if icn_decode.icn_for_frm(f) not in icns]
    unique = [(f, c) for f, c in unique if f not in set(lonely)]
    for f, copies in drawn(unique):
        i = icns[icn_decode.icn_for_frm(f)]
        try:
            sprites = icn_decode.read_icn(corpus.read_bytes(i), i)
        except AnimreError as e:
            out.append(failed(f, e))
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
                    f"({colours}){note}{also(copies)}", grid(rows, zoom=k)))
        out.append(playing(f, in_turn(frames, origins), durations, k,
                            f"the {len(names)} sequences in turn on the unit's anchor, each at the engine's "
                            "interval of its sequence"))
    if lonely:
        out.append((f"{len(lonely)} FRM file(s) without their ICN in the corpus, so no sequence is drawn: "
                    f"{', '.join(lonely[:500])}", None))
    return out + rest(unique)
