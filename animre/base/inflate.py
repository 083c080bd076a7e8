"""Bounded zlib inflation: never more output than the caller allows, however small the input.

zlib's own ``decompress`` gives whatever the stream holds (a kilobyte can
hold a gigabyte of zeros); every inflation of the kit's (a zip member, a
Retro PAK resource, a spec's ``process: zlib``) goes through
:func:`inflate_at_most`, which stops one byte past the caller's limit and
says whether the stream wanted more and whether it ended.
"""

from __future__ import annotations

import zlib

__all__ = ["inflate_at_most"]


def inflate_at_most(data: bytes, limit: int, wbits: int = zlib.MAX_WBITS) -> tuple[bytes, bool, bool]:
    """``(output, more, ended)``: at most ``limit`` bytes inflated from ``data``; ``more`` when the stream
    holds more than ``limit`` bytes, ``ended`` when it ended (a complete stream). ``zlib.error`` for data
    that is no zlib (or raw deflate, ``wbits=-15``) stream.

    Examples
    --------
    >>> inflate_at_most(zlib.compress(b"x" * 10), 20)
    (b'xxxxxxxxxx', False, True)
    >>> inflate_at_most(zlib.compress(b"x" * 10), 4)[1:]
    (True, False)
    """
    d = zlib.decompressobj(wbits)
    out = d.decompress(data, limit + 1)
    more = len(out) > limit or bool(d.unconsumed_tail)
    return out[:limit], more, d.eof and not more
