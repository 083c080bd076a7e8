"""The report's pictures of HoMM2 palettes: the 256 colours of each.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...base.errors import AnimreError
from ...present.pictures import Picture, also, drawn, failed, name_of, rest
from ...present.plots import palette_swatch
from ...present.sheets import distinct
from ..icn import decode as icn_decode


def pal(corpus: Any, files: Sequence[str]) -> list[Picture]:
    """The 256 colours of each palette.

    Examples
    --------
    >>> pal(corpus, ["agg/HEROES2.AGG/KB.PAL"])[0][0]
    'agg/HEROES2.AGG/KB.PAL: 256 colours (6-bit components x 4)'
    """
    out: list[Picture] = []
    unique = distinct(corpus, files)
    for name, copies in drawn(unique):
        try:
            colours = icn_decode.kb_palette(corpus.read_bytes(name))[:, :3]
        except AnimreError as e:
            out.append(failed(name, e))
            continue
        out.append((f"{name}: 256 colours (6-bit components x 4){also(copies)}",
                    palette_swatch(colours, title=name_of(name))))
    return out + rest(unique)
