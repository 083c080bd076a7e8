"""HoMM2 palette (``KB.PAL``): 256 colours of three 6-bit VGA components, 768 bytes."""

from __future__ import annotations

from ..base import Format

__all__ = ["FORMAT", "PAL_SIZE"]

PAL_SIZE = 768
ENGINE = "fheroes2 engine source (game palette loader)"


def detect(head: bytes, size: int, name: str) -> float:
    """KB.PAL: exactly 768 bytes, every one a 6-bit value (0-63); the name helps.

    Examples
    --------
    >>> detect(bytes(range(64)) * 12, 768, "KB.PAL")
    0.9
    >>> detect(bytes(range(64)) * 12, 768, "x") > detect(bytes([200]) * 768, 768, "x")
    True
    """
    named = name.lower().endswith(".pal")
    if size != PAL_SIZE or len(head) < PAL_SIZE:
        return 0.0
    if max(head[:PAL_SIZE]) > 63:
        return 0.5 if named else 0.0  # a named palette with 8-bit values: reported against PAL
    return 0.9 if named else 0.7


FORMAT = Format(
    name="pal",
    picture="animre.formats.pal.pictures:pal",
    title="HoMM2 palette (KB.PAL)",
    extensions=(".pal",),
    detect=detect,
)
