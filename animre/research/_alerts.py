"""The alerts of a profile that point at a likely meaning: flags, an index, fixed point, a float.

Each note function gets the integer values of one column (and their bits) and
returns the readable text of its alert, or None when the column does not
look that way. :func:`~animre.research.profile` runs them;
:func:`~animre.research.relations` uses :func:`flags_note` to choose the
columns whose single bits it tests.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..base.display import fmt
from ._util import SENTINELS, f32_from_u32

__all__ = ["flags_note", "index_notes", "fixed_note", "float_note"]


def _is_pow2(x: int) -> bool:
    return x > 0 and (x & (x - 1)) == 0


def flags_note(ints: np.ndarray, u: np.ndarray, rates: list[float], n_distinct: int,
                count: int) -> str | None:
    """Few repeated values built from bits that are switched on and off independently.

    Quantities are told apart by a common step that is not a power of two
    (50, 100, 150), by filling their range densely once scaled by the lowest
    varying bit (0, 4, 8, 12), and by bits that only ever appear nested in
    one another (0, 1, 9: a length); flags need two bit groups that are set
    independently of each other (0x1 and 0x2 in 0, 1, 2, 3).
    """
    if ints.min() < 0 or count < 10 or n_distinct < 3 or n_distinct > 32 or n_distinct > max(3, count // 3):
        return None
    vc = pd.Series(u).value_counts()
    if (count - int(vc.iloc[0])) / (n_distinct - 1) < 2:
        return None  # the values besides the most common one hardly repeat
    varying = [b for b, r in enumerate(rates) if 0 < r < 1]
    ones = [b for b, r in enumerate(rates) if r == 1]
    if len(varying) < 2:
        return None
    distinct = sorted({int(x) for x in u.tolist()})
    g = 0
    for d in distinct[1:]:
        g = math.gcd(g, d - distinct[0])
    if g and not _is_pow2(g):
        return None  # a common step that is not a power of two: a quantity (50, 100, 150 ...)
    vmask = 0
    for b in varying:
        vmask |= 1 << b
    # values of 99% of the rows, scaled by the lowest varying bit: a count fills its range
    bulk = vc.index[: max(3, int((vc.cumsum() < 0.99 * count).sum()) + 1)]
    scaled = sorted({(int(d) & vmask) >> varying[0] for d in bulk})
    if len(scaled) >= 2 and len(scaled) / (scaled[-1] - scaled[0] + 1) >= 0.5:
        return None
    nonzero = [d & vmask for d in distinct if d & vmask]
    if nonzero and sum(bin(d).count("1") for d in nonzero) / len(nonzero) > 2.0:
        return None  # flags combine few bits at a time; ids and sizes use many
    groups: dict[frozenset, int] = {}
    for b in varying:
        rows = frozenset(d for d in distinct if d >> b & 1)
        groups[rows] = groups.get(rows, 0) | (1 << b)
    sets = list(groups)
    independent = any(not (x <= y or y <= x) for i, x in enumerate(sets) for y in sets[i + 1:])
    if not independent:
        return None
    bits = ", ".join(f"0x{1 << b:x}" for b in varying)
    const = f"; always set: {', '.join(f'0x{1 << b:x}' for b in ones)}" if ones else ""
    return f"{n_distinct} distinct values; varying bits {bits}{const}"


def index_notes(df, col, ints, idx, name, keysets, files) -> list[str]:
    """Every value lies in another table's key values, far more often than chance allows."""
    out = []
    lo, hi = int(ints.min()), int(ints.max())
    rng = hi - lo + 1
    pairs = None
    for ks in keysets:
        if ks["table"] is not None and ks["table"] == name and ks["column"] == col:
            continue
        keys = ks["values"]
        per_file = ks["per_file"] if files is not None else None
        if per_file is not None:
            if pairs is None:
                pairs = set(zip(files.reindex(idx).tolist(), ints.tolist()))
            items = pairs
        else:
            items = {(None, int(v)) for v in ints.tolist()}
        distinct_vals = {v for _, v in items}
        if len(distinct_vals) < 3:
            continue
        outside = {v for f, v in items
                   if v not in (per_file.get(f, set()) if per_file is not None else keys)}
        sentinel = None
        if outside:
            if len(outside) == 1 and next(iter(outside)) in SENTINELS:
                sentinel = next(iter(outside))
            else:
                continue
        logp = 0.0
        inside: dict = {}  # keys of the file (or of the table) within the values' range, counted once each
        for f, v in items:
            if v == sentinel:
                continue
            if f not in inside:
                kset = per_file.get(f, set()) if per_file is not None else keys
                inside[f] = math.log10(max(sum(1 for k in kset if lo <= k <= hi), 1) / rng)
            logp += inside[f]
        if logp > -3:
            continue
        extra = f" ({sentinel} = none)" if sentinel is not None else ""
        scope = " of the same file" if per_file is not None else ""
        out.append(f"all values are {ks['name']} values{scope}{extra}; chance p ~ 1e{logp:.0f}")
    return out


def fixed_note(ints: np.ndarray, width: int) -> str | None:
    nz = ints[ints != 0]
    if len(nz) < 2 or width < 16:
        return None
    for div, label in ((65536, "16.16"), (256, "8.8" if width == 16 else "24.8")):
        if div == 65536 and width < 32:
            continue
        if np.abs(nz).max() < div:
            continue
        x = nz / div
        round_ = np.mean(((nz % (div // 4)) == 0) & (np.abs(x) <= 1e5))
        if round_ >= 0.9 and len(set(x.tolist())) >= 2:
            ex = ", ".join(fmt(v) for v in sorted(set(x.tolist()))[:5])
            return f"/{div} ({label}) gives round numbers: {ex}"
    return None


def float_note(u: np.ndarray, width: int) -> str | None:
    if width == 32:
        bits, how = u, "as f32"
    elif width == 16:
        bits, how = u << np.uint64(16), "as the upper half of an f32 (bfloat16)"
    else:
        return None
    bits = bits[bits != 0]
    if len(bits) < 3:
        return None
    with np.errstate(invalid="ignore", over="ignore"):
        x = f32_from_u32(bits).astype(np.float64)
        ok = np.isfinite(x) & (np.abs(x) >= 1e-6) & (np.abs(x) <= 1e7)
    if ok.mean() >= 0.9:
        ex = ", ".join(fmt(v, ksy_type="f4") for v in sorted(set(x[ok].tolist()))[:5])
        return f"{how}: {ok.mean():.0%} plausible floats, e.g. {ex}"
    return None
