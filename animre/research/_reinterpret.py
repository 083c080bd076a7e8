"""Read the same bytes in every file or record as other types, and rank the readings.

A reading is plausible when its values are cheap to write down: small
integers, short binary fractions (3.125, 5.0) or short decimals (-76.9),
no NaN / infinity / denormals, no absurd magnitudes, and (for records in
sequence) values that change smoothly. :func:`reinterpret` scores every
candidate type by the mean description length of its values in bits
(fewer is better) with penalties for invalid values and roughness.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ..display import fmt, plain
from ..errors import UsageError
from ._util import integral_values, is_missing

__all__ = ["reinterpret", "Reinterpretation", "TYPES", "decode"]


def _ints(b: np.ndarray, dtype: str) -> np.ndarray:
    return np.ascontiguousarray(b).view(dtype).reshape(-1)


def _f16(b: np.ndarray, order: str) -> np.ndarray:
    return np.ascontiguousarray(b).view(order + "f2").reshape(-1).astype(np.float64)


def _gnt4(b: np.ndarray, order: str) -> np.ndarray:
    u = np.ascontiguousarray(b).view(order + "u2").reshape(-1).astype(np.uint32) << np.uint32(16)
    return u.view(np.float32).astype(np.float64)


# name -> (size in bytes, kind, decoder(uint8 array of shape (n, size)) -> values)
TYPES: dict[str, tuple[int, str, Callable[[np.ndarray], np.ndarray]]] = {
    "u8": (1, "int", lambda b: _ints(b, "u1").astype(np.int64)),
    "s8": (1, "int", lambda b: _ints(b, "i1").astype(np.int64)),
    "u16le": (2, "int", lambda b: _ints(b, "<u2").astype(np.int64)),
    "u16be": (2, "int", lambda b: _ints(b, ">u2").astype(np.int64)),
    "s16le": (2, "int", lambda b: _ints(b, "<i2").astype(np.int64)),
    "s16be": (2, "int", lambda b: _ints(b, ">i2").astype(np.int64)),
    "f16le": (2, "float16", lambda b: _f16(b, "<")),
    "f16be": (2, "float16", lambda b: _f16(b, ">")),
    "fix8.8le": (2, "fixed8", lambda b: _ints(b, "<i2").astype(np.float64) / 256),
    "fix8.8be": (2, "fixed8", lambda b: _ints(b, ">i2").astype(np.float64) / 256),
    "gnt4half": (2, "float32", lambda b: _gnt4(b, ">")),
    "u32le": (4, "int", lambda b: _ints(b, "<u4").astype(np.int64)),
    "u32be": (4, "int", lambda b: _ints(b, ">u4").astype(np.int64)),
    "s32le": (4, "int", lambda b: _ints(b, "<i4").astype(np.int64)),
    "s32be": (4, "int", lambda b: _ints(b, ">i4").astype(np.int64)),
    "f32le": (4, "float32", lambda b: _ints(b, "<f4").astype(np.float64)),
    "f32be": (4, "float32", lambda b: _ints(b, ">f4").astype(np.float64)),
    "fix24.8le": (4, "fixed8", lambda b: _ints(b, "<i4").astype(np.float64) / 256),
    "fix24.8be": (4, "fixed8", lambda b: _ints(b, ">i4").astype(np.float64) / 256),
    "fix16.16le": (4, "fixed16", lambda b: _ints(b, "<i4").astype(np.float64) / 65536),
    "fix16.16be": (4, "fixed16", lambda b: _ints(b, ">i4").astype(np.float64) / 65536),
}


class Reinterpretation(NamedTuple):
    """Result of :func:`reinterpret`: the decoded ``values`` and the candidates' ``ranking``."""

    values: pd.DataFrame
    ranking: pd.DataFrame

    @property
    def best(self) -> str | None:
        """The name of the best-ranked type."""
        return None if self.ranking.empty else str(self.ranking["type"].iloc[0])


def decode(raw: Sequence[bytes], type_name: str) -> np.ndarray:
    """Decode equal-length byte strings as one candidate type (see :data:`TYPES`).

    Examples
    --------
    >>> decode([bytes.fromhex("4048")], "gnt4half").tolist()
    [3.125]
    """
    size, _, fn = TYPES[type_name]
    if not len(raw):
        return np.zeros(0)
    arr = np.frombuffer(b"".join(raw), dtype=np.uint8).reshape(len(raw), -1)
    if arr.shape[1] != size:
        raise UsageError(f"{type_name} needs {size} bytes, got {arr.shape[1]}")
    with np.errstate(all="ignore"):  # NaN/inf bit patterns are data here, not errors
        return fn(arr)


def representations(raw: bytes) -> pd.DataFrame:
    """One value read as every candidate type of its size: columns ``type, value``.

    The first row is the hex of the bytes (shortened after 32 bytes).

    Examples
    --------
    >>> representations(bytes.fromhex("4048"))["type"].tolist()[:3]
    ['hex', 'u16le', 'u16be']
    """
    raw = bytes(raw)
    shown = fmt(raw)
    rows: list[dict] = [{"type": "hex", "value": shown}]
    for t, (size, _, _) in TYPES.items():
        if size == len(raw):
            v = decode([raw], t)[0]
            rows.append({"type": t, "value": plain(v)})
    return pd.DataFrame(rows, columns=["type", "value"])


def reinterpret(source: Any, locator: Any, types: Iterable[str] | None = None, *,
                offset: int | None = None, length: int | None = None, format: str | None = None,
                byteorder: str = "little") -> Reinterpretation:
    """Read the same bytes in every file or record as each candidate type; rank the readings.

    Parameters
    ----------
    source : Corpus or DataFrame
        A corpus (bytes are read from the files), or a table whose column
        holds raw bytes or integers (re-encoded with ``length`` bytes in
        ``byteorder``).
    locator : str, tuple or int
        - a field path, array indices optional: ``"idle_weights"``,
          ``"moves.footer.unknown_4"``, ``"sequences[3].frame_ids"``;
          with ``offset``/``length`` the path names the record and the bytes
          are read at ``offset`` inside it (``"tracks"``, offset=12, length=4);
        - ``"table.column"`` or ``(table, column)``: the bytes of a curated
          table cell (from the corpus spans);
        - an int: an absolute file offset, read with ``length`` bytes in
          every file (of ``format``, if given);
        - for a DataFrame source: a column name.
    types : iterable of str, optional
        Candidate types (default: every type in :data:`TYPES` of the right size).
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
        ``roughness``, ``min``, ``max`` and ``examples``.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"raw": [bytes.fromhex(h) for h in ("4048", "3f80", "c120", "4000")]})
    >>> reinterpret(df, "raw").best
    'gnt4half'
    """
    recs = _records(source, locator, offset, length, format, byteorder)
    if not len(recs):
        raise UsageError(f"nothing found at {locator!r}")
    lens = recs["raw"].map(len)
    size = int(lens.mode().iloc[0])
    if (lens != size).any():
        bad = recs.loc[lens != size].iloc[0]
        raise UsageError(f"located byte ranges differ in length ({size} vs {len(bad['raw'])} in "
                         f"{bad.get('file', '')}); give offset= and length=")
    names = list(types) if types is not None else [t for t, (sz, _, _) in TYPES.items() if sz == size]
    unknown = [t for t in names if t not in TYPES]
    if unknown:
        raise UsageError(f"unknown type(s) {', '.join(unknown)}; known: {', '.join(TYPES)}")
    names = [t for t in names if TYPES[t][0] == size]
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
    return Reinterpretation(values.reset_index(drop=True), rk.reset_index(drop=True))


# ----------------------------------------------------------------------------- locating


def _norm(path: str) -> str:
    return re.sub(r"\[\d+\]", "[]", path)


def _path_matches(paths: pd.Series, loc: str) -> pd.Series:
    """Rows whose path is ``loc`` or ends with ``.loc``; array indices are wildcards unless given.

    ``"footer.unknown_4"`` matches ``moves[3].footer.unknown_4``; ``"idle_weights"``
    matches ``idle_weights[0]`` ... ``idle_weights[4]``; ``"sequences[3].frame_ids"``
    only the arrays of sequence 3.
    """
    tail = paths.str.replace(r"(\[\d+\])+$", "", regex=True)  # elements of a named array
    exact = (paths == loc) | paths.str.endswith("." + loc) | (tail == loc) | tail.str.endswith("." + loc)
    if re.search(r"\[\d+\]", loc):
        return exact
    plain = loc.replace("[]", "")
    stripped = paths.map(_norm).str.replace("[]", "", regex=False)
    return exact | (stripped == plain) | stripped.str.endswith("." + plain)


def _records(source, locator, offset, length, fmt, byteorder) -> pd.DataFrame:
    if isinstance(source, pd.DataFrame):
        return _records_from_table(source, locator, length, byteorder)
    corpus = source
    if not hasattr(corpus, "fields"):
        raise UsageError("source must be a Corpus or a DataFrame")
    files = corpus.files
    ok = files[files["ok"]] if "ok" in files else files
    if fmt is not None:
        ok = ok[ok["format"] == fmt]
    data_cache: dict[str, bytes] = {}

    def data(f):
        if f not in data_cache:
            data_cache[f] = corpus.read_bytes(f)
        return data_cache[f]

    rows = []
    if isinstance(locator, (int, np.integer)) and not isinstance(locator, bool):
        if length is None:
            raise UsageError("an absolute offset needs length=")
        for f in ok["file"]:
            d = data(f)
            start = int(locator)
            if start + length <= len(d):
                rows.append({"file": f, "where": f"@{start:#x}", "offset": start,
                             "raw": d[start:start + length]})
        return pd.DataFrame(rows, columns=["file", "where", "offset", "raw"])
    table = column = None
    if isinstance(locator, tuple) and len(locator) == 2:
        table, column = locator
    elif isinstance(locator, str) and "." in locator and locator.split(".", 1)[0] in corpus.tables \
            and locator.split(".", 1)[1] in corpus.tables[locator.split(".", 1)[0]].columns:
        table, column = locator.split(".", 1)
    if table is not None:
        df = corpus.tables[table]
        if column not in df.columns:
            raise UsageError(f"no column {column!r} in table {table!r}")
        starts, ends = corpus.spans[table][0][column], corpus.spans[table][1][column]
        for i in df.index:
            s, e = starts.at[i], ends.at[i]
            if pd.isna(s) or pd.isna(e):
                continue
            s = int(s) + (offset or 0)
            e = s + length if length is not None else int(e)
            f = df.at[i, "file"]
            if fmt is not None and f not in set(ok["file"]):
                continue
            rows.append({"file": f, "where": f"{table}[{i}].{column}", "offset": s, "raw": data(f)[s:e]})
        if not rows:
            raise UsageError(f"{table}.{column} is computed, not read from bytes")
        return pd.DataFrame(rows, columns=["file", "where", "offset", "raw"])
    if not isinstance(locator, str):
        raise UsageError(f"cannot locate bytes with {locator!r}")
    fast = _records_from_columns(corpus, locator, offset, length, fmt, ok, data)
    if fast is not None:
        return fast
    fields = corpus.fields(list(ok["file"]), values=False)
    fields = fields[fields["start"].notna() & fields["end"].notna()]
    hit = fields[_path_matches(fields["path"], locator)]
    kind = hit["kind"]
    if offset is None and length is None:
        hit = hit[kind == "value"]
    elif (kind != "array").any():
        hit = hit[kind != "array"]  # records or leaves, not the array that holds them
    for r in hit.itertuples(index=False):
        s = int(r.start) + (offset or 0)
        e = s + length if length is not None else int(r.end)
        d = data(r.file)
        if e > len(d):
            continue
        rows.append({"file": r.file, "where": r.path, "offset": s, "raw": d[s:e]})
    return pd.DataFrame(rows, columns=["file", "where", "offset", "raw"])


def _records_from_columns(corpus, locator: str, offset, length, fmt, ok: pd.DataFrame, data) -> pd.DataFrame | None:
    """A field path answered from the tables' byte spans, without parsing the files again.

    Used when every field the path matches is a table column read from the
    file (not computed, not skipped by the spec, not inside a container with
    several blocks); otherwise None, and the caller walks the parsed files.
    The rows are the same as the walk's: file order, then offset.
    """
    if not hasattr(corpus, "schema"):
        return None
    sch = corpus.schema
    sch = sch[sch["path"].notna() & (sch["kind"] != "enum name")]
    if fmt is not None:
        sch = sch[sch["spec"] == fmt]
    hit = sch[_path_matches(sch["path"], locator)]
    if hit.empty or not hit["kind"].isin(["read", "pos"]).all():
        return None
    plans = {spec: corpus.plan(spec) for spec in set(sch["spec"])}
    for plan in plans.values():
        skipped = pd.Series(plan.skipped, dtype=object)
        if len(skipped) and _path_matches(skipped, locator).any():
            return None
    for r in hit.itertuples(index=False):  # a table that keeps only some elements lacks the others
        t = plans[r.spec].tables.get(r.table)
        while t is not None:
            if t.where is not None:
                return None
            t = plans[r.spec].tables.get(t.parent) if t.parent else None
    wanted = set(ok["file"])
    rank = {f: i for i, f in enumerate(ok["file"])}
    rows = []
    for order, r in enumerate(hit.itertuples(index=False)):
        df = corpus.tables.get(r.table)
        if df is None or "block" in df.columns:
            return None if df is not None else pd.DataFrame(columns=["file", "where", "offset", "raw"])
        positions = [k for k in corpus.keys(r.table) if k != "file"]
        starts = corpus.spans[r.table][0][r.column].to_numpy(dtype="float64", na_value=np.nan)
        ends = corpus.spans[r.table][1][r.column].to_numpy(dtype="float64", na_value=np.nan)
        files = df["file"].to_numpy()
        pos = df[positions].to_numpy() if positions else np.zeros((len(df), 0), dtype=int)
        parts = r.path.split("[]")
        for i in np.flatnonzero(~np.isnan(starts) & ~np.isnan(ends)):
            f = files[i]
            if f not in wanted:
                continue
            s = int(starts[i]) + (offset or 0)
            e = s + length if length is not None else int(ends[i])
            d = data(f)
            if e > len(d):
                continue
            where = parts[0] + "".join(f"[{int(p)}]{rest}" for p, rest in zip(pos[i], parts[1:]))
            rows.append(((rank[f], tuple(int(p) for p in pos[i]), order), f, where, s, d[s:e]))
    rows.sort(key=lambda x: x[0])  # the walk's order: file, then record by record
    return pd.DataFrame([r[1:] for r in rows], columns=["file", "where", "offset", "raw"])


def _records_from_table(df: pd.DataFrame, column: Any, length: int | None, byteorder: str) -> pd.DataFrame:
    if column not in df.columns:
        raise UsageError(f"no column {column!r} in the table")
    s = df[column]
    keep = [not is_missing(v) for v in s]
    vals = s[keep]
    out = pd.DataFrame({"file": df.loc[keep, "file"]} if "file" in df.columns else {}, index=vals.index)
    out["where"] = [f"{column}[{i}]" for i in vals.index]
    out["offset"] = pd.NA
    if len(vals) and all(isinstance(v, (bytes, bytearray)) for v in vals):
        out["raw"] = [bytes(v) for v in vals]
        return out
    ints = integral_values(vals)
    if ints is None:
        raise UsageError(f"column {column!r} holds neither bytes nor integers")
    if length is None:
        lo, hi = int(ints.min()), int(ints.max())
        length = next((n for n in (1, 2, 4, 8) if (lo >= -(1 << (8 * n - 1)) and hi < (1 << (8 * n)))), 8)
    mask = (1 << (8 * length)) - 1
    out["raw"] = [(int(v) & mask).to_bytes(length, byteorder) for v in ints]
    return out


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
