"""The report's pictures of HoMM2 ICN sprite files, coloured by the corpus's ``KB.PAL``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...base.errors import AnimreError
from ...present.pictures import Picture, also, drawn, failed, name_of, rest
from ...present.sheets import distinct, sheet
from . import decode as icn_decode

#: Sprites per ICN sprite sheet.
MAX_SPRITES = 32


def kb_palette(corpus: Any) -> tuple[np.ndarray, str]:
    ft = corpus.files
    pals = [f for f in ft.loc[(ft["format"] == "pal") & (ft["status"] == "parsed"), "file"]
            if name_of(f).upper() == "KB.PAL"]
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
    palette, colours = kb_palette(corpus)
    out: list[Picture] = []
    unique = distinct(corpus, files)
    for name, copies in drawn(unique):
        try:
            sprites = icn_decode.read_icn(corpus.read_bytes(name), name)
        except AnimreError as e:
            out.append(failed(name, e))
            continue
        if not sprites:
            out.append((f"{name}: no sprite", None))
            continue
        shown = sprites[:MAX_SPRITES]
        out.append((f"{name}: sprites 0-{len(shown) - 1} of {len(sprites)} ({colours}){also(copies)}",
                    sheet([icn_decode.sprite_rgba(s, palette) for s in shown])))
    return out + rest(unique)
