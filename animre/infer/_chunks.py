"""Chunk lengths: a header field whose value, counted from the field, lands on the same bytes in every file.

A length that says where the next part starts (a segment's length before the next marker, a chunk's length
before the next tag) is evidenced when ``field position (+ its width) + value`` holds the same first bytes
in every file while the value differs between files, or holds a chunk's tag (four letters or digits, as
``data`` or ``LIST`` after a RIFF's ``fmt `` chunk) in every file while the value takes two values or
more. The chance of that by coincidence is measured in
each file itself: the share of the file's first bytes that are that prefix (a zero or a sound sample's
common byte lands everywhere; a marker does not), multiplied over the files of distinct values but the
one the prefix is read from (for a tag: the share of positions where a tag starts, over every file of a
distinct value), times every (offset, type, reference) tried (the guard of
:mod:`animre.infer._guard`). A landing on zeros is no evidence: zeros pad regions everywhere (as a zero is
never a magic).
"""

from __future__ import annotations

import math

import numpy as np

from ._guard import accepted, equal_share_log10, per_file_log10
from ._limits import CHUNK_LANDING as LANDING
from ._limits import CHUNK_MIN_DISTINCT as MIN_DISTINCT
from ._limits import CHUNK_MISS_SHARE as MISS_SHARE
from ._limits import CHUNK_WINDOW as WINDOW
from ._limits import TEXT_GAP, TEXT_MAX, TEXT_MIN_DISTINCT
from ._model import Field, Region
from ._roles import type_name
from ._rows import Rows
from ._sample import Sample

__all__ = ["chunk_lengths", "text_lengths", "landing"]


#: What a chunk's tag is made of (``data``, ``LIST``, ``IHDR``, ``fmt ``): letters and digits, a space at the end.
_TAG_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ")


def _tag(b: bytes) -> bool:
    """``b`` is a chunk tag: :data:`LANDING` letters or digits, at least two letters, no space before a letter."""
    return (len(b) >= LANDING and all(c in _TAG_CHARS for c in b[:LANDING]) and
            sum(chr(c).isalpha() for c in b[:LANDING]) >= 2 and b[:LANDING].rstrip(b" ").find(b" ") < 0)


def _tags(head: bytes) -> int:
    """Positions of ``head`` where a tag starts (the null rate of a landing on a tag)."""
    arr = np.frombuffer(head, np.uint8)
    if len(arr) < LANDING:
        return 0
    ok = np.isin(arr, np.frombuffer(bytes(sorted(_TAG_CHARS)), np.uint8))
    win = np.lib.stride_tricks.sliding_window_view(ok, LANDING).all(axis=1)
    return int(win.sum())


def _length_candidates(views: dict, taken: np.ndarray, endian: str, keep) -> list[tuple]:
    """``(offset, width, endian, values)`` of the free header integers of the byte order (and bytes) in the first
    :data:`WINDOW` bytes that ``keep(values)`` accepts, by offset, the widest first."""
    cands = []
    for (w, e), v in views.items():
        if w > 1 and e != endian:
            continue
        for o in range(min(v.shape[1], WINDOW)):
            if not taken[o:o + w].any() and keep(v[:, o]):
                cands.append((o, w, e, v[:, o]))
    return sorted(cands, key=lambda t: (t[0], -t[1]))


def landing(peeks: list[bytes]) -> tuple[bytes, np.ndarray]:
    """The bytes most landings start with and which landings do: ``(prefix, hit mask)``: the most common first
    :data:`LANDING` bytes when the other landings are at most :data:`MISS_SHARE` of them, else the prefix every
    landing shares (possibly ``b""``), every landing a hit.

    Examples
    --------
    >>> pre, hit = landing([b"\\x09\\0\\0\\0"] * 9 + [b"\\x10\\1\\0\\0"])
    >>> pre, int(hit.sum())
    (b'\\t\\x00\\x00\\x00', 9)
    """
    heads = [p[:LANDING] for p in peeks]
    best = max(set(heads), key=heads.count)
    hit = np.array([h == best for h in heads])
    n = len(best)
    if (~hit).sum() > MISS_SHARE * len(peeks):  # the most common landing is not most landings: their shared prefix
        hit[:] = True
        n = 0
        while n < LANDING and all(len(p) > n and p[n] == peeks[0][n] for p in peeks):
            n += 1
        return peeks[0][:n], hit
    return best[:n], hit


def _length(rows: Rows, o: int, w: int, e: str, ev: str, logp: float, n_tests: int, region: str, kind: str,
            start: int) -> tuple[Field, Region]:
    """A length field at ``o`` and the region of that size it bounds, both with the evidence ``ev``."""
    f = Field(o, w, type_name(w, e), "size", ev, rows.n, rows.n, name=f"len_0x{o:02x}",
              alternatives=[f"chance 10^{logp:.0f} x {n_tests} tests"])
    return f, Region(region, kind, start, size=f.name, evidence=ev)


def chunk_lengths(rows: Rows, samples: list[Sample], views: dict, taken: np.ndarray, alpha: float,
                  endian: str) -> list[tuple[Field, Region]]:
    """Length fields of the root header and the region each one bounds (``pos`` a constant, ``size`` the field).

    Examples
    --------
    >>> import struct
    >>> from animre.infer._roles import views as row_views
    >>> data = [b"HD" + struct.pack("<H", k) + b"\\x07" * k + b"\\xff\\xd9NEXT" + bytes(20) for k in (5, 9, 17, 30, 44)]
    >>> rows = Rows.of([d[:8] for d in data], [len(d) for d in data])
    >>> samples = [Sample.of_bytes(str(i), d) for i, d in enumerate(data)]
    >>> [(f.offset, f.type, reg.start) for f, reg in chunk_lengths(rows, samples, row_views(rows),
    ...                                                           np.zeros(8, bool), 0.01, "le")]
    [(2, 'u2le', 4)]
    """
    if not rows.header or rows.base.any() or rows.n < 5:
        return []
    cands = _length_candidates(views, taken, endian, lambda c: (c != c[0]).any() and c.max() < (1 << 24))
    n_tests = max(1, 2 * len(cands))
    claimed = taken.copy()
    out = []
    for o, w, e, c in cands:
        if claimed[o:o + w].any():
            continue
        for ref in (o + w, o):
            t = ref + c
            if (t < o + w).any() or (t + 1 > rows.fsize).any():
                continue
            peeks = [samples[int(i)].window(int(x), LANDING) for i, x in zip(rows.file, t)]
            pre, hit = landing(peeks)
            _, first = np.unique(c, return_index=True)
            _, first_hit = np.unique(c[hit], return_index=True)
            misses = int((~hit).sum())
            if pre and any(pre) and len(first_hit) >= MIN_DISTINCT:
                rates = [(samples[int(rows.file[i])].head.count(pre) + 1) /
                         max(2, len(samples[int(rows.file[i])].head) - len(pre) + 2)
                         for i in np.flatnonzero(hit)[first_hit]]
                # the file the prefix is read from is no test; which files miss is a choice among as many ways
                logp = per_file_log10(rates, fitted=1) + math.log10(math.comb(rows.n, misses))
                lands = f"holds {pre.hex(' ')}"
            elif all(_tag(p) for p in peeks):
                misses = 0  # another chunk's tag in every file (``data``, ``LIST``)
                rates = [(_tags(samples[int(rows.file[i])].head) + 1) /
                         max(2, len(samples[int(rows.file[i])].head) - LANDING + 2) for i in first]
                logp = per_file_log10(rates, fitted=0)  # a tag is no prefix read from a file: every file tests
                lands = f"starts a {LANDING}-letter tag ({', '.join(sorted({p.decode() for p in peeks}))})"
            else:  # zeros are padding, found wherever a region is padded: no marker
                continue
            if not accepted(logp, n_tests, alpha):
                continue
            ev = (f"size of the bytes from {ref:#x}: {ref:#x} + it {lands} in {rows.n - misses}/{rows.n} files "
                  f"({len(first)} distinct values)")
            out.append(_length(rows, o, w, e, ev, logp, n_tests, f"body_0x{o:02x}", "bytes", ref))
            claimed[o:o + w] = True
            break
    return out


def _text_run(b: bytes) -> int:
    """Printable bytes at the start of ``b``."""
    n = 0
    while n < len(b) and 0x20 <= b[n] < 0x7F:
        n += 1
    return n


def text_lengths(rows: Rows, samples: list[Sample], views: dict, taken: np.ndarray, alpha: float,
                 endian: str) -> list[tuple[Field, Region]]:
    """Length-prefixed texts: a header field whose value is the length of the text that starts at a constant
    position just after it (at most :data:`TEXT_GAP` bytes past the field) in every file.

    The evidence is the files where the text ends exactly there (the next byte is no character): the chance
    of that is the share of the file's integers of the field's type (at every offset of the header) equal to
    that file's text length, multiplied over files of distinct lengths (no file fits the relation: the
    position is a candidate, counted in the tests); every file's bytes up to the length are characters.

    Examples
    --------
    >>> from animre.infer._roles import views as row_views
    >>> names = [b"Left_Foot", b"Legs", b"Head_Upper", b"node", b"arm", b"X"]
    >>> data = [b"QB" + bytes([7, 0]) + bytes([len(n)]) + n + bytes([3, 0, 9, 250]) * 8 for n in names]
    >>> rows = Rows.of([d[:24] for d in data], [len(d) for d in data])
    >>> samples = [Sample.of_bytes(str(i), d) for i, d in enumerate(data)]
    >>> [(f.offset, f.type, reg.start, reg.kind) for f, reg in text_lengths(rows, samples, row_views(rows),
    ...                                                                    np.zeros(24, bool), 0.01, "le")]
    [(4, 'u1', 5, 'str')]
    """
    if not rows.header or rows.base.any() or rows.n < 5:
        return []
    cands = _length_candidates(views, taken, endian, lambda c: (c != c[0]).any() and c.max() <= TEXT_MAX
                               and (c > 0).sum() >= TEXT_MIN_DISTINCT)
    n_tests = max(1, len(cands) * TEXT_GAP)
    claimed = taken.copy()
    out = []
    for o, w, e, c in cands:
        if claimed[o:o + w].any():
            continue
        for p in range(o + w, o + w + TEXT_GAP):
            if claimed[p:p + 1].any() or (p + c > rows.fsize).any():
                continue
            runs = np.array([_text_run(samples[int(i)].window(p, int(x) + 1)) for i, x in zip(rows.file, c)])
            if (runs < c).any():
                continue
            exact = np.flatnonzero((runs == c) & (c > 0))
            lens, first = np.unique(c[exact], return_index=True)
            if len(lens) < TEXT_MIN_DISTINCT:
                continue
            logp = equal_share_log10(views[(w, e)], exact[first], lens, fitted=0)
            if not accepted(logp, n_tests, alpha):
                continue
            ev = (f"length of the text at {p:#x} in {rows.n}/{rows.n} files (it ends there in {len(exact)}; "
                  f"{len(lens)} distinct lengths, up to {int(c.max())})")
            out.append(_length(rows, o, w, e, ev, logp, n_tests, f"str_0x{p:02x}", "str", p))
            claimed[o:o + w] = True
            claimed[p] = True
            break
    return out
