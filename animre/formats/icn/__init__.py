"""HoMM2 sprite sheets (``*.ICN``): run-length encoded sprites, recognised by structure.

ICN has no magic. A file is taken for an ICN when its 6-byte header is
consistent with its length (the u4 block size is the file size minus 6 and
the sprite headers fit) and the sprite headers it can see have data offsets
in range, in order, and plausible sizes.
"""

from __future__ import annotations

import struct

import numpy as np

from ..base import Format, derived, row_claim

__all__ = ["FORMAT", "HEADER_SIZE", "SPRITE_HEADER_SIZE"]

HEADER_SIZE = 6
SPRITE_HEADER_SIZE = 13

ENGINE = "fheroes2 engine source (ICN reader and sprite decoder)"
NOTE = "Heroes of Might and Magic II format notes (ICN sprite sheets)"
ICN = "icn"
SPRITES = "icn_sprites"


def detect(head: bytes, size: int, name: str) -> float:
    """ICN: count and block size consistent with the file length, sprite offsets in range.

    Examples
    --------
    >>> hdr = struct.pack("<HI", 1, 14) + struct.pack("<hhHHBI", 0, 0, 1, 1, 0, 13) + bytes([0x80])
    >>> detect(hdr, len(hdr), "x") >= 0.8
    True
    >>> detect(b"\\x01" * 821, 821, "x")
    0.0
    """
    if size < HEADER_SIZE or len(head) < HEADER_SIZE:
        return 0.0
    count, block = struct.unpack_from("<HI", head, 0)
    if count == 0 or block != size - HEADER_SIZE or HEADER_SIZE + count * SPRITE_HEADER_SIZE > size:
        return 0.0
    table_end = count * SPRITE_HEADER_SIZE
    seen = min(count, (len(head) - HEADER_SIZE) // SPRITE_HEADER_SIZE)
    prev = table_end
    for i in range(seen):
        _, _, w, h, _, ofs = struct.unpack_from("<hhHHBI", head, HEADER_SIZE + i * SPRITE_HEADER_SIZE)
        if ofs < prev or ofs >= block or w > 4096 or h > 4096:
            return 0.5  # header and size agree: report the broken table against ICN
        prev = ofs
    score = 0.8 if seen else 0.5
    return min(1.0, score + (0.1 if name.lower().endswith(".icn") else 0.0))


@derived(ICN, "len_block_matches_size", ["len_block"],
         "The block size equals the file size minus the 6-byte header.")
def _len_block_matches_size(df, ctx):
    sizes = ctx.file_sizes(df).to_numpy(dtype="int64")
    return df["len_block"].to_numpy(dtype="int64") == sizes - HEADER_SIZE


@derived(SPRITES, "data_follows_headers", ["ofs_data", "sprite"],
         "The first sprite's data starts right after the sprite headers (other sprites: True).")
def _data_follows_headers(df, ctx):
    n = np.asarray(ctx.lookup(df, ICN, "num_sprites"), dtype="int64")
    first = df["sprite"].to_numpy() == 0
    return ~first | (df["ofs_data"].to_numpy(dtype="int64") == n * SPRITE_HEADER_SIZE)


FORMAT = Format(
    name="icn",
    picture="animre.formats.icn.pictures:icn",
    title="HoMM2 sprite sheet (*.ICN)",
    extensions=(".icn",),
    detect=detect,
    derived=(_len_block_matches_size, _data_follows_headers),
    claims=(
        row_claim("The u4 after the sprite count is the file size minus 6.", NOTE, ICN,
                  lambda r: bool(r["len_block_matches_size"]), offset_column="len_block",
                  value="len_block", reads=["len_block_matches_size"]),
        row_claim("Sprite data starts right after the 13-byte sprite headers.", ENGINE, SPRITES,
                  lambda r: bool(r["data_follows_headers"]), where=lambda r: r["sprite"] == 0,
                  offset_column="ofs_data", value="ofs_data", reads=["data_follows_headers", "sprite"]),
    ),
)
