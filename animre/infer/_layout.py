"""The layout solver: from rows of bytes to fields, the records they count and what they point at.

Order of precedence (a byte belongs to the first that claims it), one stage each in :func:`solve`: the
constant prefix (magic, :mod:`._magic`), file-size fields, the byte order (:func:`_byte_order`), offsets
(:func:`_offset_stage`), counts and sizes, the relations between them (:func:`_relation_stage`), a table
directory, chunk lengths (:mod:`._chunks`), the header's cut where records start, strings, floats; the
rest is segmented into constants, plain integers and raw bytes (:func:`_segment_rest`). Records found by a
count are laid out by the same solver, every record of every file a sample (:func:`_record_stage`); what
the other offsets point at is peeked at (:func:`_target_stage`). The stages pass one :class:`_Work`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from dataclasses import field as dc_field

import numpy as np

from ._chain import chained_records
from ._change import content_change
from ._chunks import chunk_lengths, text_lengths
from ._directory import directory_field, earliest_start, offset_directory
from ._guard import accepted
from ._limits import (
    MAX_RECORD_WIDTH,
    MAX_RECORDS,
    SIZED_MIN_DISTINCT,
    SIZED_MIN_STRIDE,
    STATIONARY_MIN,
    TARGET_PEEK,
)
from ._magic import later_magics, start_magic
from ._model import Field, Layout, Region, field_name
from ._records import lay_out_offset_column, offset_size_pairs, record_rows
from ._roles import file_size_fields, offset_fields, pair_sizes, relation_fields, start_candidates
from ._roles import views as row_views
from ._rows import Rows, field_values, sized_ends
from ._sample import Sample
from ._values import byte_order_vote, float_fields, segment, signed_byte_runs, small_byte_runs, string_fields

__all__ = ["solve", "MAX_RECORDS", "MAX_RECORD_WIDTH"]


def _claim(taken: np.ndarray, f: Field) -> bool:
    if f.end > len(taken) or taken[f.offset:f.end].any():
        return False
    taken[f.offset:f.end] = True
    return True


def _endian(fields: list[Field], rows: Rows) -> str:
    votes = {"le": 0, "be": 0}
    for f in fields:
        if f.type and f.type.endswith(("le", "be")) and f.role in ("file_size", "offset", "count", "size", "float"):
            votes[f.type[-2:]] += 1
    if votes["le"] != votes["be"]:
        return max(votes, key=votes.get)
    # the side of multi-byte words where the bytes are zero more often
    if rows.width >= 2 and rows.n:
        z = (rows.m == 0).mean(axis=0)
        lo, hi = z[0:rows.width - 1:2].sum(), z[1:rows.width:2].sum()
        return "be" if lo > hi * 1.2 else "le"
    return "le"


def _consistent(samples: list[Sample], rows: Rows, vals: np.ndarray) -> bool:
    """The offsets land on the same two bytes, or on a NUL-terminated text, in every sample."""
    peeks = [samples[int(i)].window(int(v), TARGET_PEEK) for i, v in zip(rows.file, vals)]
    if len(peeks) >= 3 and all(len(p) >= 2 and p[:2] == peeks[0][:2] for p in peeks):
        return True
    return _target(samples, rows, vals)[0] == "strz"


def _target(samples: list[Sample], rows: Rows, vals: np.ndarray) -> tuple[str, int]:
    """What the offsets point at: ``("strz", 0)`` or ``("bytes", n)``."""
    room = int((rows.fsize - vals).min())
    peeks = [samples[int(i)].window(int(v), TARGET_PEEK) for i, v in zip(rows.file, vals)]
    if all(p and p.find(b"\0") >= 1 and all(0x20 <= c < 0x7F for c in p[:p.find(b"\0")]) for p in peeks):
        return "strz", 0
    return "bytes", max(0, min(16, room))


def _rest_sizes(fields: list[Field], regions: list[Region]) -> None:
    """A file-size field ``== size - k`` whose ``k`` lies past it is the size of the bytes from ``k`` to the end
    (a chunk's length after its tag): a region of that size, so the field is used as ``size:``."""
    for f in fields:
        if f.role == "file_size" and f.k < 0 and -f.k >= f.end:
            regions.append(Region(f"body_{f.name}", "bytes", -f.k, size=f.name,
                                  evidence=f"the bytes from {-f.k:#x} to the end: {f.name} of them ({f.evidence})"))


def _directory(got: tuple[Field, Region], fields: list[Field], regions: list[Region], taken: np.ndarray,
               b0: int) -> None:
    """Add a table directory's count field and its records."""
    f, reg = got
    _claim(taken, f)
    f.name = field_name(f, b0)
    fields.append(f)
    reg.count, reg.name = f.name, f"records_0x{f.offset + b0:02x}"
    regions.append(reg)


def _cut(regions: list[Region], fields: list[Field], offsets: dict, taken: np.ndarray, width: int, b0: int) -> int:
    """The header ends where records or a text of variable length at a constant position start: its width
    (fields past it dropped).

    ``b0``: where the rows start in the file (a variant's body); region starts are file positions.
    """
    starts = [int(r.start) - b0 for r in regions if r.kind in ("records", "str", "chain")
              and isinstance(r.start, (int, np.integer)) and 0 < int(r.start) - b0 < width]
    if not starts:
        return width
    p = min(starts)
    gone = set()
    for g in [g for g in fields if g.end > p]:
        fields.remove(g)
        offsets.pop(g.name, None)
        gone.add(g.name)
    # a region bounded by a field dropped here would name a field the spec no longer has
    regions[:] = [r for r in regions if not gone & {r.start, r.count, r.size}]
    taken[p:] = False
    return p


@dataclass
class _Work:
    """What the stages of :func:`solve` pass on: the bytes claimed, the fields and regions found so far, the
    offsets confirmed (name -> field, values per row) and the weak ones (a relation may still confirm them)."""

    rows: Rows
    samples: list[Sample]
    alpha: float
    b0: int
    width: int
    taken: np.ndarray
    fields: list[Field] = dc_field(default_factory=list)
    regions: list[Region] = dc_field(default_factory=list)
    offsets: dict = dc_field(default_factory=dict)
    weak: dict = dc_field(default_factory=dict)
    endian: str = "le"


def _byte_order(w: _Work, views: dict, cands: list) -> str:
    """The byte order: of the file-size fields, else of the aligned offsets that land on the same bytes in every
    file, else of the aligned 32-bit offsets, else of the integers' zero bytes, else of the floats."""
    rows, fields = w.rows, w.fields
    if any(f.role == "file_size" for f in fields):
        return _endian(fields, rows)
    # offsets that land on the same bytes in every file; else 32-bit ones (a 16-bit value lies inside a file by
    # coincidence far more often: two of them made a packed little-endian record at odd offsets big-endian)
    sure = [f for _, f, v in cands if _consistent(w.samples, rows, v)] or [f for _, f, _ in cands if f.width == 4]
    if sure:
        le = sum(1 for f in sure if f.type.endswith("le") and f.offset % f.width == 0)
        be = sum(1 for f in sure if f.type.endswith("be") and f.offset % f.width == 0)
        return "le" if le >= be else "be"
    vote = byte_order_vote(rows)
    hi, lo = max(vote.values()), min(vote.values())
    if hi - lo >= 2 and hi >= 2 * lo:
        return max(vote, key=vote.get)
    fl = float_fields(rows, w.alpha)
    le = sum(1 for _, f in fl if f.type.endswith("le"))
    be = sum(1 for _, f in fl if f.type.endswith("be"))
    return "le" if le > be else "be" if be > le else _endian(fields, rows)


def _offset_stage(w: _Work, cands: list) -> None:
    """Offsets of the byte order: the widest reading of one value, confirmed where they land on the same bytes
    (or a text) in every sample; the others kept weak."""
    cands = [c for c in cands if c[1].type.endswith(w.endian)]
    widest = {}
    for c in cands:  # the same values read narrower (zero high bytes) are the same field
        k = c[1].offset
        if k not in widest or c[1].width > widest[k][1].width and (c[2] == widest[k][2]).all():
            widest[k] = c
    for _logp, f, v in sorted(widest.values(), key=lambda t: (t[1].offset % t[1].width != 0, t[0], -t[1].width)):
        if w.taken[f.offset:f.end].any():
            continue
        f.name = field_name(f, w.b0)
        strong = f.value or _consistent(w.samples, w.rows, v)
        f.value = None
        if strong:
            _claim(w.taken, f)
            w.fields.append(f)
            w.offsets[f.name] = (f, v)
        else:
            w.weak[f.name] = (f, v)


def _confirm(w: _Work, bound, f: Field) -> None:
    """A weak offset that a count's or size's relation starts or ends at is an offset."""
    if isinstance(bound, str) and bound in w.weak and bound not in w.offsets:
        g = w.weak[bound][0]
        if _claim(w.taken, g):
            g.evidence += f"; {f.evidence.split(' in ')[0].replace('of the bytes', 'bounds the bytes')}"
            w.fields.append(g)
            w.offsets[bound] = w.weak[bound]


def _relation_stage(w: _Work, views: dict) -> None:
    """Counts and sizes (``count * stride == end - start``), their bounds confirmed as offsets, their regions."""
    rows, b0 = w.rows, w.b0
    for f, v in start_candidates(rows, views, w.taken, w.endian):
        f.name = field_name(f, b0)
        if f.name not in w.weak and f.name not in w.offsets:
            w.weak[f.name] = (f, v)
    for f, reg in relation_fields(rows, views, w.taken, {**w.offsets, **w.weak}, w.alpha, w.endian,
                                  frozenset(w.offsets)):
        for bound in (reg.start, reg.end):
            _confirm(w, bound, f)
        if isinstance(reg.start, str) and reg.start not in w.offsets:
            continue
        if not (reg.end == "_root._io.size" or reg.end in w.offsets or reg.start in w.offsets):
            continue
        have = next((g for g in w.fields if g.offset == f.offset), None)
        if have is None:
            if not _claim(w.taken, f):
                continue
            w.fields.append(f)
            have = f
        elif have.width != f.width or have.role != f.role:
            continue
        if reg.kind == "records" and isinstance(reg.start, int):
            _earlier(w, reg, have)
        if reg.kind == "bytes" and reg.stride == 1:
            _sized_records(w, reg, have)
        if isinstance(reg.start, int):  # a constant field holding the start is an offset
            for g in w.fields:
                if g.role == "const" and g.value == reg.start:
                    g.role, g.evidence = "offset", f"= {reg.start:#x}, where {field_name(f, b0)}'s region starts"
                    reg.start = field_name(g, b0)
        reg.count = field_name(have, b0)
        reg.name = f"{'records' if reg.kind == 'records' else 'body'}_0x{have.offset + b0:02x}"
        if any(r.name == reg.name for r in w.regions):
            reg.name += f"_{len(w.regions)}"
        w.regions.append(reg)


def _earlier(w: _Work, reg: Region, count: Field) -> None:
    """A table of offsets whose count relation fits a later start than its own: its ``count + k`` records start
    where the offsets do (see :func:`animre.infer._directory.earliest_start`)."""
    rows = w.rows
    end = rows.fsize if reg.end == "_root._io.size" else {**w.weak, **w.offsets}.get(reg.end, (None, None))[1]
    if end is None:
        return
    floor = max([count.end] + [g.end for g in w.fields if g.end <= reg.start - w.b0 and g.name != reg.end]) + w.b0
    got = earliest_start(rows, w.samples, field_values(rows, count), reg.start, reg.stride, end, floor, w.endian,
                         w.alpha)
    if got is None:
        return
    k, col, why = got
    reg.start, reg.extra, reg.column = reg.start - reg.stride * k, k, col
    count.evidence = reg.evidence = f"count of the {reg.stride}-byte records from {reg.start:#x}: {why}"


def _sized_records(w: _Work, reg: Region, size: Field) -> None:
    """A region whose size is a multiple of one record size in every file: records that fill it (an archive's
    directory, its length in bytes). The sizes' greatest common divisor is the stride, when it is at least
    ``SIZED_MIN_STRIDE``; a divisor that large shared by ``d`` distinct sizes has a chance of ``stride ** -(d-1)``
    by coincidence (the guard pays for every size relation)."""
    c = field_values(w.rows, size)
    vals = np.unique(c[c > 0])
    if len(vals) < SIZED_MIN_DISTINCT:
        return
    g = int(np.gcd.reduce(vals))
    if not SIZED_MIN_STRIDE <= g <= MAX_RECORD_WIDTH:
        return
    if not accepted(-(len(vals) - 1) * math.log10(g), max(1, len(w.regions) + 1), w.alpha):
        return
    reg.kind, reg.stride, reg.per, reg.size = "records", g, g, size.name if size.name else field_name(size, w.b0)
    reg.evidence += (f"; a multiple of {g} in {w.rows.n}/{w.rows.n} files ({len(vals)} distinct sizes): "
                     f"records of {g} bytes")


def _change_stage(w: _Work) -> None:
    """A weak offset whose values land where each file's content changes kind is an offset (the start of the
    data: see :mod:`animre.infer._change`)."""
    weak = {n: fv for n, fv in w.weak.items() if n not in w.offsets}
    for name, logp, n in sorted(content_change(w.samples, w.rows, weak, w.alpha), key=lambda t: t[1]):
        f, v = w.weak[name]
        if _claim(w.taken, f):
            f.evidence += f"; where the content changes kind in {n}/{w.rows.n} files (chance 10^{logp:.0f})"
            w.fields.append(f)
            w.offsets[name] = (f, v)


def _zone(w: _Work) -> int:
    """Where the evidenced header ends: past the last field found and (in 3 or more files) the last byte constant
    in every file; records are all header."""
    if not w.rows.header:
        return w.width
    cst = np.flatnonzero(w.rows.const[:w.width]) if w.rows.n >= 3 else np.zeros(0, int)
    return max([f.end for f in w.fields] + [int(cst[-1]) + 1 if len(cst) else 0])


def _segment_rest(w: _Work) -> list[Field]:
    """Every byte not claimed: constants, plain integers (only where other evidence is) and raw bytes."""
    rows, width, fields = w.rows, w.width, sorted(w.fields, key=lambda f: f.offset)
    zone = max((f.end for f in fields), default=0) if rows.header and not rows.base.any() else width
    if rows.header and rows.n >= 3:  # bytes constant in every file (but not at random) mark the header too
        cst = np.flatnonzero(rows.const[:width])
        zone = max(zone, int(cst[-1]) + 1 if len(cst) else 0)
    if width < rows.width:  # the header before a table directory
        zone = width
    # before a table directory the header is evidenced: the stationarity test (for headerless data) is moot
    # and where the shortest file is hardly longer than a header, its rows hold no data that could be stationary
    moot = width < rows.width or rows.width < STATIONARY_MIN
    cache: dict = {(k, e): 0.0 for k in (1, 2, 4) for e in ("le", "be")} if moot else {}
    full, p = [], 0
    for f in fields + [None]:
        b = f.offset if f is not None else width
        if b > p:
            # past the zone the header goes on while plain integers follow each other
            full += segment(rows, p, b, w.endian, cache, ints=True if p < zone else "lead" if p == zone else False,
                            stop=zone)
        if f is not None:
            full.append(f)
            p = f.end
    for f in full:
        f.name = f.name or field_name(f, w.b0)
    for r in w.regions:  # a constant field holding a region's (constant) start is an offset
        g = next((g for g in full if g.role == "const" and g.width > 1 and isinstance(r.start, (int, np.integer))
                  and g.value == r.start and g.end <= r.start), None)
        if g is not None:
            g.role, g.evidence = "offset", f"= {int(r.start):#x} in {rows.n}/{rows.n} files, where {r.count}'s " \
                                           f"records start"
            g.name = field_name(g, w.b0)
            r.start = g.name
    return full


def _record_stage(w: _Work, lay: Layout, name: str, depth: int) -> None:
    """Every region of records laid out by :func:`solve`, every record of every file a sample."""
    rows, b0 = w.rows, w.b0
    for r in w.regions:
        if r.kind != "records" or depth > 1:
            continue
        cf = next((f for f in lay.fields if f.name == r.count), None)
        if cf is None:  # the count lies past the header laid out here: the records stay unlaid
            continue
        cnt = field_values(rows, cf) // (r.per or 1) + r.extra
        st = w.offsets[r.start][1] if isinstance(r.start, str) else np.full(rows.n, r.start, np.int64)
        rr = record_rows(w.samples, rows, st, cnt, r.stride)
        if rr.n >= 2 and rr.width == min(r.stride, MAX_RECORD_WIDTH):
            pre = "" if name == "root" or rows.header and not b0 else f"{name}_"
            r.record = solve(rr, w.samples, alpha=w.alpha, name=f"{pre}rec_0x{cf.offset + b0:02x}", depth=depth + 1)
            if r.stride > rr.width:
                r.record.fields.append(Field(rr.width, r.stride - rr.width, None, "raw", "not looked at", 0, rr.n,
                                             name=f"unknown_0x{rr.width:02x}"))
            if r.column is not None:
                lay_out_offset_column(r.record, rr, r.column, w.endian)


def _target_stage(w: _Work) -> None:
    """What every offset that starts no region points at (a text, or a peek at its bytes)."""
    starts = {r.start for r in w.regions if isinstance(r.start, str)}
    for n, (_f, v) in list(w.offsets.items()):
        if n in starts:
            continue
        kind, size = _target(w.samples, w.rows, v)
        w.regions.append(Region(f"at_{n}", kind, n, size=size, evidence=f"what {n} points at",
                                absolute=not w.rows.header))


def _inside(w: _Work) -> np.ndarray | None:
    """rows x bytes: where a byte lies inside each file's part of the header that a size field bounds (a region
    from a constant start, of a header field's size), or ``None`` when no size bounds one."""
    mask = None
    cols = np.arange(w.rows.width)
    for r, end in sized_ends(w.rows, w.fields, w.regions):
        mask = np.ones((w.rows.n, w.rows.width), bool) if mask is None else mask
        mask &= (cols[None, :] < end[:, None] - w.b0) | (cols[None, :] < int(r.start) - w.b0)
    return mask


def solve(rows: Rows, samples: list[Sample], *, alpha: float, name: str, depth: int = 0) -> Layout:
    """Fields for every byte of ``rows`` (and the regions they lead to), stage by stage (see the module doc)."""
    b0 = int(rows.base[0]) if rows.header and rows.n else 0
    w = _Work(rows, samples, alpha, b0, rows.width, np.zeros(rows.width, bool))
    root = rows.header and not rows.base.any()
    if root:
        mg = start_magic(rows)
        if mg is not None and _claim(w.taken, mg):
            w.fields.append(mg)
    views = row_views(rows)
    for f in sorted(file_size_fields(rows, views, alpha), key=lambda f: (-f.width, f.offset)):
        if _claim(w.taken, f):
            w.fields.append(f)
    cands = offset_fields(rows, views, alpha)
    w.endian = _byte_order(w, views, cands)
    _offset_stage(w, cands)
    if rows.header:
        _relation_stage(w, views)
        if not any(r.kind == "records" for r in w.regions):
            got = directory_field(rows, samples, views, w.taken, alpha, w.endian)
            if got is not None:
                _directory(got, w.fields, w.regions, w.taken, b0)
        starts = {r.start for r in w.regions}
        got = offset_directory(rows, samples, views, w.taken, {n: fv for n, fv in w.offsets.items() if n not in starts},
                               alpha, w.endian)
        if got is not None:
            _directory(got, w.fields, w.regions, w.taken, b0)
        for f, reg in chunk_lengths(rows, samples, views, w.taken, alpha, w.endian) + \
                text_lengths(rows, samples, views, w.taken, alpha, w.endian):
            if _claim(w.taken, f):
                w.fields.append(f)
                w.regions.append(reg)
        for f, reg in pair_sizes(rows, views, w.taken, alpha, w.endian):  # free bytes only: both are claimed
            _claim(w.taken, f)
            w.fields.append(f)
            w.regions.append(reg)
        for f, reg in chained_records(rows, samples, views, w.taken, w.fields, w.regions, alpha, w.endian):
            if _claim(w.taken, f):
                w.fields.append(f)
                w.regions.append(reg)
        if root:  # the weakest evidence of an offset, after every relation that may explain the field
            _change_stage(w)
        w.width = _cut(w.regions, w.fields, w.offsets, w.taken, w.width, b0)
    floats = [t for t in float_fields(rows, alpha) if t[1].type.endswith(w.endian) and t[1].end <= w.width]
    for _logp, f in sorted(string_fields(rows, alpha, w.taken) + floats, key=lambda t: t[0]):
        if f.end <= w.width and _claim(w.taken, f):
            w.fields.append(f)
    for f in small_byte_runs(rows, w.taken, alpha, _inside(w)):
        if f.end <= w.width and _claim(w.taken, f):
            w.fields.append(f)
    zone, start, prev = _zone(w), None, None
    for f in signed_byte_runs(rows, w.taken, alpha):  # a run that starts in the header (not in data past it)
        start = f.offset if prev is None or f.offset != prev.end else start
        prev = f
        if start <= zone and f.end <= w.width and _claim(w.taken, f):
            w.fields.append(f)
    full = _segment_rest(w)
    if root:
        later_magics(rows, full)
        _rest_sizes(full, w.regions)
    lay = Layout(name, w.width, full, w.regions, w.endian, rows.n)
    for f in full:  # constant offsets found by relations
        if f.role == "offset" and f.name not in w.offsets:
            w.offsets[f.name] = (f, field_values(rows, f))
    _record_stage(w, lay, name, depth)
    _target_stage(w)
    if not rows.header:
        offset_size_pairs(rows, full, w.regions)
    return lay
