"""Read the same bytes in every file or record as other types, and rank the readings.

A reading is plausible when its values are cheap to write down: small
integers, short binary fractions (3.125, 5.0) or short decimals (-76.9),
no NaN / infinity / denormals, no absurd magnitudes, and (for records in
sequence) values that change smoothly. :func:`reinterpret` scores every
candidate type by the mean description length of its values in bits
(fewer is better) with penalties for invalid values and roughness.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ..base.display import plain
from ..base.errors import UsageError
from ._calls import frames_html
from ._locate import locate_bytes
from ._types import TYPES

__all__ = ["reinterpret", "Reinterpretation"]


class Reinterpretation(NamedTuple):
    """Result of :func:`reinterpret`: the decoded ``values``, the candidates' ``ranking`` and the files that
    could not be read (``failures``: file, message; they are left out of the values)."""

    values: pd.DataFrame
    ranking: pd.DataFrame
    failures: pd.DataFrame | None = None

    @property
    def best(self) -> str | None:
        """The name of the best-ranked type."""
        return None if self.ranking.empty else str(self.ranking["type"].iloc[0])

    def _repr_html_(self) -> str:
        return frames_html(f"Reinterpretation: best {self.best}", {"ranking": self.ranking, "values": self.values})


def reinterpret(corpus: Any, locator: Any, *, table: pd.DataFrame | str | None = None,
                types: Iterable[str] | None = None, offset: int | None = None, length: int | None = None,
                format: str | None = None, byteorder: str = "little") -> Reinterpretation:
    """Read the same bytes in every file or record as each candidate type; rank the readings.

    Parameters
    ----------
    corpus : Corpus or None
        Bytes are read from its files; None with a DataFrame ``table``.
    locator : str, tuple or int
        - a field path, array indices optional: ``"idle_weights"``,
          ``"moves.footer.unknown_4"``, ``"sequences[3].frame_ids"``;
          with ``offset``/``length`` the path names the record and the bytes
          are read at ``offset`` inside it (``"tracks"``, offset=12, length=4);
        - ``"table.column"`` or ``(table, column)``: the bytes of a curated
          table cell (from the corpus spans);
        - an int: an absolute file offset, read with ``length`` bytes in
          every file (of ``format``, if given);
        - with ``table``: a column name.
    table : DataFrame or str, optional
        A table whose column ``locator`` holds raw bytes or integers
        (re-encoded with ``length`` bytes in ``byteorder``), or a table name
        of ``corpus`` (then ``locator`` is its column, as ``"table.column"``).
    types : iterable of str, optional
        Candidate types, named as in a spec (``u2le``, ``s4be``, ``f4le``;
        default: every type in :data:`TYPES` of the right size).
    offset, length : int, optional
        Position inside the located record / the number of bytes to read.
    format : str, optional
        Only files of this format (for absolute offsets).

    Returns
    -------
    Reinterpretation
        ``values``: one row per record (file, where, offset, raw hex) and one
        column per candidate; ``ranking``: one row per candidate, best first,
        with ``score`` (higher is better), ``mean_bits``, ``p_valid``,
        ``p_denormal``, ``p_extreme``, ``p_zero``, ``p_distinct``,
        ``roughness``, ``min``, ``max`` and ``examples``; ``failures``: the
        files whose fields could not be read (file, message), one row each:
        a file no format reads never stops the others.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"raw": [bytes.fromhex(h) for h in ("4048", "3f80", "c120", "4000")]})
    >>> reinterpret(None, "raw", table=df).best
    'bf16be'
    >>> reinterpret(c, "walk_speed", types=["f4le", "u4le"], format="frm").ranking["type"].tolist()
    ['u4le', 'f4le']
    """
    source: Any = corpus
    if isinstance(table, pd.DataFrame):
        source = table
    elif isinstance(table, str):
        locator = (table, locator)
    failures: list[dict] = []
    recs = locate_bytes(source, locator, offset, length, format, byteorder, failures=failures)
    if not len(recs):
        unread = f"; {len(failures)} file(s) could not be read ({failures[0]['message']})" if failures else ""
        raise UsageError(f"nothing found at {locator!r}{unread}")
    lens = recs["raw"].map(len)
    size = int(lens.mode().iloc[0])
    if (lens != size).any():
        bad = recs.loc[lens != size].iloc[0]
        raise UsageError(f"located byte ranges differ in length ({size} vs {len(bad['raw'])} in "
                         f"{bad.get('file', '')}); give offset= and length=")
    labels = list(types) if types is not None else [t for t, (sz, _, _) in TYPES.items() if sz == size]
    unknown = [t for t in labels if t not in TYPES]
    if unknown:
        raise UsageError(f"unknown type(s) {', '.join(unknown)}; known: {', '.join(TYPES)}")
    names = [t for t in labels if TYPES[t][0] == size]
    if not names:
        raise UsageError(f"no candidate type reads {size} bytes; give offset= and length= "
                         "(1, 2 or 4 bytes)")
    arr = np.frombuffer(b"".join(recs["raw"]), dtype=np.uint8).reshape(len(recs), size)
    values = recs.drop(columns=["raw"]).copy()
    values["raw"] = [r.hex() for r in recs["raw"]]
    groups = recs["file"].to_numpy() if "file" in recs.columns else np.zeros(len(recs))
    ranking = []
    for order, t in enumerate(names):
        _, kind, fn = TYPES[t]
        with np.errstate(all="ignore"):
            v = fn(arr)
        values[t] = v
        ranking.append(_score(t, kind, v, groups, order))
    rk = pd.DataFrame(ranking).sort_values(["score", "_order"], ascending=[False, True],
                                           kind="stable").drop(columns="_order")
    rk.insert(1, "rank", range(1, len(rk) + 1))
    return Reinterpretation(values.reset_index(drop=True), rk.reset_index(drop=True),
                            pd.DataFrame(failures, columns=["file", "message"]))


# ----------------------------------------------------------------------------- scoring

_DENORMAL = {"float32": 1.1754943508222875e-38, "float16": 6.103515625e-05}
_CAST = {"float32": np.float32, "float16": np.float16}


def _bits(kind: str, v: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per value: description length in bits, valid?, denormal?, extreme magnitude?"""
    n = len(v)
    if kind == "int":
        a = np.abs(v.astype(np.float64))
        return np.log2(a + 1) + 1, np.ones(n, bool), np.zeros(n, bool), np.zeros(n, bool)
    x = v.astype(np.float64)
    valid = np.isfinite(x)
    xs = np.where(valid, x, 0.0)
    a = np.abs(xs)
    denorm = (a > 0) & (a < _DENORMAL.get(kind, 0.0))
    extreme = valid & (a > 0) & ((a > 1e9) | (a < 1e-9))
    # binary fraction m / 2**e with m odd
    mant, exp = np.frexp(xs)
    M = np.round(np.abs(mant) * 2.0**53).astype(np.int64)
    low = M & -M
    tz = np.where(M > 0, np.log2(np.maximum(low, 1)).round().astype(np.int64), 0)
    m = np.where(M > 0, M >> tz, 0)
    e = 53 - exp - tz
    dy = np.where(e <= 0, np.log2(a + 1) + 1, np.log2(m.astype(np.float64) + 1) + 1 + np.log2(np.maximum(e, 0) + 1))
    cost = dy
    cast = _CAST.get(kind)
    for d in (1, 2, 3):
        scale = 10.0**d
        nn = np.round(xs * scale)
        if cast is not None:
            match = cast(nn / scale) == cast(xs)
        else:
            match = np.isclose(nn / scale, xs, rtol=0, atol=1e-12)
        dc = np.log2(np.abs(nn) + 1) + 1 + 3.3 * d
        cost = np.where(match & (dc < cost), dc, cost)
    cost = np.where(valid, cost, 64.0)
    cost = np.where(denorm, 48.0, cost)
    cost = np.where(extreme, cost + 16.0, cost)
    return cost, valid, denorm, extreme


def _roughness(v: np.ndarray, groups: np.ndarray) -> float:
    """Mean |step| between consecutive records of a file, in ranks, relative to random order (~1)."""
    x = np.where(np.isfinite(v.astype(np.float64)), v.astype(np.float64), np.nan)
    r = pd.Series(x).rank(method="average").to_numpy()
    n_valid = np.isfinite(r).sum()
    if n_valid < 4:
        return float("nan")
    steps = []
    g = pd.Series(groups)
    for _, idx in g.groupby(g, sort=False).indices.items():
        if len(idx) >= 3:
            d = np.abs(np.diff(r[idx]))
            steps.append(d[np.isfinite(d)])
    if not steps:
        return float("nan")
    st = np.concatenate(steps)
    if not len(st):
        return float("nan")
    return float(st.mean() / (n_valid / 3))


def _score(name: str, kind: str, v: np.ndarray, groups: np.ndarray, order: int) -> dict:
    cost, valid, denorm, extreme = _bits(kind, v)
    rough = _roughness(v, groups)
    with np.errstate(all="ignore"):
        fin = v[np.isfinite(v.astype(np.float64))] if len(v) else v
    # smoothness only earns a bonus when consecutive records are clearly closer than in random order
    bonus = 4.0 * max(0.0, 1.0 - rough / 0.7) if np.isfinite(rough) else 0.0
    score = -float(cost.mean()) + bonus
    ser = pd.Series(v)
    return {
        "type": name,
        "score": score,
        "mean_bits": float(cost.mean()),
        "p_valid": float(valid.mean()),
        "p_denormal": float(denorm.mean()),
        "p_extreme": float(extreme.mean()),
        "p_zero": float((v == 0).mean()),
        "p_distinct": float(ser.nunique(dropna=False) / len(v)) if len(v) else float("nan"),
        "roughness": rough,
        "min": (fin.min().item() if len(fin) else None),
        "max": (fin.max().item() if len(fin) else None),
        "examples": [plain(x) for x in v[:5]],
        "_order": order,
    }
