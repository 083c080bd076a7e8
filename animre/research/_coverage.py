"""Byte coverage: which bytes of each file a typed field explains, which are opaque, and the gaps.

As in hachoir, bytes that no field describes are explicit gaps, so a user
sees what is not understood yet. Bytes that a field reads without a type
(raw ``size:`` bytes, a switch with no case for the value: FLC pixel chunks,
compressed streams, sprite pixel data; records or arrays with no parsed
child) are *opaque*: read, bounded, but not explained. Bytes under a typed
leaf (integers, floats, strings, enums, ``contents``) are *typed*. The bytes
of a container (an AGG, a zip, a PAK, a disc image) that hold its members
are *members*: each member is a file of the corpus with its own coverage,
so they are neither a gap nor counted twice in a format's totals; the rest
of a container no format reads is its directory, read and checked by the
container's reader (:mod:`animre.sources.containers`), and counts as typed.
Coverage counts each category per file (:func:`coverage`) and per format
(:func:`coverage_by_format`), from the byte ranges of :meth:`Corpus.fields`.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from ..base.display import fmt
from ..base.errors import UsageError
from ..sources.containers import get_container
from ..tables.plan import EXTENT
from ._calls import frames_html

__all__ = ["coverage", "Coverage", "coverage_by_format", "covered_mask", "byte_categories", "member_spans",
           "COVERAGE_COLUMNS", "GAP_COLUMNS", "GAP", "OPAQUE", "TYPED"]

GAP, OPAQUE, TYPED = 0, 1, 2  #: byte categories of :func:`byte_categories`
RECORDS = 3  # bytes of records a ``-animre-where`` keeps out of their table (typed unless a cell says opaque)
COVERAGE_COLUMNS = ["file", "format", "size", "typed", "opaque", "members", "covered", "share_typed",
                    "share_opaque", "share_members", "share", "n_gaps", "uncovered", "ok"]
_RAW_TYPES = ("bytes",)  # raw ``size:`` bytes; a ``switch`` leaf is raw when no case typed its value
GAP_COLUMNS = ["file", "format", "start", "end", "length", "preview"]


def covered_mask(fields: pd.DataFrame, size: int) -> np.ndarray:
    """Boolean array of ``size``: True where a leaf field of ``fields`` (one file) lies.

    Examples
    --------
    >>> import pandas as pd
    >>> f = pd.DataFrame({"path": ["a", "b"], "kind": ["value", "value"], "start": [0, 2], "end": [1, 4]})
    >>> covered_mask(f, 5).tolist()
    [True, False, True, True, False]
    """
    return byte_categories(fields, size) != GAP


def byte_categories(fields: pd.DataFrame, size: int) -> np.ndarray:
    """Per byte of one file: :data:`TYPED` (2), :data:`OPAQUE` (1) or :data:`GAP` (0).

    ``fields`` is :meth:`Corpus.fields` of the file (``type`` tells raw bytes
    from typed values; without it every leaf counts as typed).

    Examples
    --------
    >>> import pandas as pd
    >>> f = pd.DataFrame({"path": ["a", "pixels"], "kind": ["value", "value"], "type": ["u2", "bytes"],
    ...                   "start": [0, 2], "end": [2, 5]})
    >>> byte_categories(f, 6).tolist()
    [2, 2, 1, 1, 1, 0]
    """
    cat = np.zeros(size, dtype=np.int8)
    if fields is None or not len(fields):
        return cat
    f = fields[fields["start"].notna() & fields["end"].notna()]
    kind = f["kind"]
    leaves = f[kind == "value"]
    containers = f[kind != "value"]
    if len(containers):
        # a record or array with no parsed child (raw block) covers its own range
        if "parent" in fields.columns:
            prefixes = set(fields["parent"].dropna())
        else:
            prefixes = {p[:i] for p in fields["path"] for i, ch in enumerate(p) if ch in ".["}
        bare = containers[~containers["path"].isin(prefixes)]
    else:
        bare = containers
    raw = _raw(leaves)
    opaque = pd.concat([leaves[raw], bare]) if len(containers) else leaves[raw]
    for part, value in ((opaque, OPAQUE), (leaves[~raw], TYPED)):  # typed wins where both lie
        for s, e in zip(part["start"].to_numpy(dtype=np.int64), part["end"].to_numpy(dtype=np.int64)):
            if e > s:
                cat[max(0, s):min(size, e)] = value
    return cat


def _raw(leaves: pd.DataFrame) -> pd.Series:
    """Leaves that hold raw bytes: ksy type ``bytes``, or a switch whose value stayed bytes (no case)."""
    if "type" not in leaves.columns:
        return pd.Series(False, index=leaves.index)
    t = leaves["type"].astype(str)
    raw = t.isin(_RAW_TYPES)
    sw = t.eq("switch")
    if sw.any():
        if "value" in leaves.columns:
            raw |= sw & leaves["value"].map(lambda v: isinstance(v, (bytes, bytearray, memoryview)))
        else:
            raw |= sw
    return raw


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) runs of False in mask."""
    if mask.all():
        return []
    x = np.concatenate([[True], mask, [True]]).astype(np.int8)
    d = np.diff(x)
    starts = np.flatnonzero(d == -1)
    ends = np.flatnonzero(d == 1)
    return list(zip(starts.tolist(), ends.tolist()))


def _cell_intervals(corpus: Any, codes: dict[str, int]) -> tuple[np.ndarray, ...]:
    """(file code, start, end, opaque) of every cell read from the files ``codes`` names, from the tables'
    offset arrays: value columns and the span-only extents of skipped or untyped fields."""
    category = {(t, n): k for t, n, k in corpus.extents.itertuples(index=False)}
    parts: list[tuple[np.ndarray, ...]] = []
    for t in list(corpus.spans):
        df = corpus.tables.get(t)
        if df is None or "file" not in df.columns or not len(df):
            continue
        fi = df["file"].map(codes).fillna(-1).to_numpy(dtype=np.int64)
        if not (fi >= 0).any():
            continue
        starts, ends = corpus.spans[t]
        types = corpus.columns(t).set_index("column")["type"].astype(str).to_dict()
        for col in starts.columns:
            if col == "file":
                continue
            s = starts[col].to_numpy(dtype=np.int64, na_value=-1)
            e = ends[col].to_numpy(dtype=np.int64, na_value=-1)
            ok = (fi >= 0) & (s >= 0) & (e > s)
            if not ok.any():
                continue
            typ = types.get(col, "").removesuffix("[]")
            if col.startswith(EXTENT):
                op = np.full(len(s), {"opaque": OPAQUE, "records": RECORDS}.get(category.get((t, col)), TYPED))
            elif typ in _RAW_TYPES:
                op = np.full(len(s), OPAQUE)
            elif typ == "switch" and col in df.columns:  # raw where no case typed the value
                raw = df[col].map(lambda v: isinstance(v, (bytes, bytearray, memoryview))).to_numpy(dtype=bool)
                op = np.where(raw, OPAQUE, TYPED)
            else:
                op = np.full(len(s), TYPED)
            parts.append((fi[ok], s[ok], e[ok], op[ok].astype(np.int8)))
    if not parts:
        z = np.zeros(0, dtype=np.int64)
        return z, z, z, z.astype(np.int8)
    return tuple(np.concatenate(x) for x in zip(*parts))


def _paint(size: int, s: np.ndarray, e: np.ndarray) -> np.ndarray:
    """True on the bytes any [s, e) interval covers (a difference array: no per-interval loop)."""
    d = np.zeros(size + 1, dtype=np.int32)
    np.add.at(d, np.clip(s, 0, size), 1)
    np.add.at(d, np.clip(e, 0, size), -1)
    return np.cumsum(d[:-1]) > 0


def member_spans(corpus: Any, file: str) -> list[tuple[int, int]]:
    """``[start, end)`` of every member's stored bytes in container ``file`` (its directory read again).

    A compressed member's span is its compressed bytes. A file that is no
    container (no ``kind`` in ``corpus.files``) has none.

    Examples
    --------
    >>> spans = member_spans(c, "zip/CIV3UNITS.ZIP")
    >>> len(spans), spans[0][0]
    (5, 54)
    """
    row = corpus.files.drop_duplicates("file").set_index("file").loc[file]
    if pd.isna(row["kind"]):
        return []
    reader = get_container(str(row["kind"])).members
    if pd.isna(row["container"]):  # a file on disk: read its directory in place (a disc image can be large)
        with open(corpus.path(file), "rb") as fh:
            members = reader(fh, file)
    else:
        members = reader(io.BytesIO(corpus.read_bytes(file)), file)
    return sorted((int(m.offset), int(m.offset) + int(m.size)) for m in members)


class Coverage:
    """Result of :func:`coverage`: ``per_file`` and ``gaps`` tables, and their totals ``by_format``.
    """

    def __init__(self, per_file: pd.DataFrame, gaps: pd.DataFrame) -> None:
        self.per_file = per_file  #: one row per file (see :func:`coverage`)
        self.gaps = gaps  #: one row per run of bytes no field reads

    @property
    def by_format(self) -> pd.DataFrame:
        """Corpus totals per format (:func:`coverage_by_format` of ``per_file``)."""
        return coverage_by_format(self.per_file)


    def __getitem__(self, i: int) -> pd.DataFrame:
        return self._tuple()[i]

    def __len__(self) -> int:
        return 2

    def __repr__(self) -> str:
        return f"Coverage({len(self.per_file)} files, {len(self.gaps)} gaps)"

    def _repr_html_(self) -> str:
        return frames_html("Coverage", {"by_format": self.by_format, "per_file": self.per_file, "gaps": self.gaps})


def coverage(corpus: Any, table: str | None = None, *, files: Iterable[str] | None = None) -> Coverage:
    """Share of each file's bytes that parsed fields describe, and the uncovered gaps.

    Works from the byte ranges the corpus already holds for every cell (its
    tables' offsets, plus the extents of fields the specs leave out of the
    tables), so no file is parsed again; only the bytes of gaps are read, for
    their preview. :func:`byte_categories` gives the same answer for one
    file from :meth:`Corpus.fields`.

    Parameters
    ----------
    corpus : Corpus
        An opened corpus.
    table : str, optional
        Only the files with rows in this table (``"frm"``).
    files : iterable of str, optional
        Only these files (default: all).

    Returns
    -------
    Coverage
        ``per_file``: file, format, size, typed (bytes a typed field
        explains), opaque (bytes read as a blob: pixel data, compressed
        streams, raw ``size:`` bytes), members (a container's bytes that
        hold its members, see :func:`member_spans`), covered (typed +
        opaque + members), share_typed, share_opaque, share_members, share
        (covered, 0..1), n_gaps, uncovered (bytes), ok (parsed). A container
        no format reads (a zip) counts its members and, as typed, its
        directory (``ok`` False: no spec parsed it); other files that were
        not parsed (failed, skipped) have NaN shares. ``gaps``: file,
        format, start, end (exclusive), length, preview (hex of the first 16
        bytes of the gap); ``by_format``: :func:`coverage_by_format`.

    Examples
    --------
    >>> cov = coverage(c)
    >>> row = cov.per_file.set_index("file").loc["frm/GOBLNFRM.BIN"]
    >>> float(row["share"]), int(row["opaque"])     # every byte of a FRM file is a typed field
    (1.0, 0)
    >>> agg = cov.per_file.set_index("file").loc["agg/HEROES2.AGG"]   # its directory typed, the rest members
    >>> float(agg["share"]), int(agg["typed"] + agg["members"]) == int(agg["size"])
    (1.0, True)
    """
    ft = corpus.files.drop_duplicates("file")
    if table is not None:
        if table not in corpus.tables:
            raise UsageError(f"no table {table!r} in the corpus; tables: {', '.join(corpus.tables)}")
        ft = ft[ft["file"].isin(set(corpus.tables[table]["file"]))]
    if files is not None:
        wanted = set(files)
        ft = ft[ft["file"].isin(wanted)]
    parsed = ft["status"].eq("parsed") if "status" in ft.columns else ft["ok"].astype(bool)
    codes = {f: i for i, f in enumerate(ft.loc[parsed.to_numpy(), "file"])}
    F, S, E, OP = _cell_intervals(corpus, codes)
    order = np.argsort(F, kind="stable")
    F, S, E, OP = F[order], S[order], E[order], OP[order]
    bounds = np.searchsorted(F, np.arange(len(codes) + 1))
    per, gaps = [], []
    status = ft["status"] if "status" in ft.columns else pd.Series("", index=ft.index)
    kinds = ft["kind"] if "kind" in ft.columns else pd.Series(None, index=ft.index, dtype=object)
    for r, is_parsed, st, kind in zip(ft.itertuples(index=False), parsed.to_numpy(), status, kinds):
        fmt_name = None if pd.isna(r.format) else r.format
        size = int(r.size)
        container = not pd.isna(kind) and (is_parsed or st == "container")
        if not is_parsed and not container:
            per.append({"file": r.file, "format": fmt_name, "size": size, "typed": 0, "opaque": 0,
                        "members": 0, "covered": 0, "share_typed": float("nan"),
                        "share_opaque": float("nan"), "share_members": float("nan"),
                        "share": float("nan"), "n_gaps": 0, "uncovered": size, "ok": False})
            continue
        members = np.zeros(size, dtype=bool)
        if container:
            spans = np.array(member_spans(corpus, r.file), dtype=np.int64).reshape(-1, 2)
            members = _paint(size, spans[:, 0], spans[:, 1])
        if is_parsed:
            k = codes[r.file]
            a, b = bounds[k], bounds[k + 1]
            cat, s, e = OP[a:b], S[a:b], E[a:b]
            # typed wins over opaque and members; the bytes of records kept out of a table count as typed
            # unless a kept cell says opaque; a blob over members' bytes is the members
            opaque = _paint(size, s[cat == OPAQUE], e[cat == OPAQUE])
            typed_mask = _paint(size, s[cat == TYPED], e[cat == TYPED]) | (
                _paint(size, s[cat == RECORDS], e[cat == RECORDS]) & ~opaque)
            opaque &= ~members
        else:  # a container no format reads: outside its members, the directory its reader checked
            opaque = np.zeros(size, dtype=bool)
            typed_mask = ~members
        members &= ~typed_mask
        mask = typed_mask | opaque | members
        runs = _runs(mask)
        if runs:
            data = corpus.read_bytes(r.file)
            for s, e in runs:
                gaps.append({"file": r.file, "format": fmt_name, "start": s, "end": e, "length": e - s,
                             "preview": fmt(data[s:min(e, s + 16)])})
        cov, typed, n_members = int(mask.sum()), int(typed_mask.sum()), int(members.sum())
        n_opaque = cov - typed - n_members
        per.append({"file": r.file, "format": fmt_name, "size": size, "typed": typed, "opaque": n_opaque,
                    "members": n_members, "covered": cov, "share_typed": typed / size if size else 1.0,
                    "share_opaque": n_opaque / size if size else 0.0,
                    "share_members": n_members / size if size else 0.0,
                    "share": cov / size if size else 1.0, "n_gaps": len(runs),
                    "uncovered": size - cov, "ok": bool(is_parsed)})
    per_df = pd.DataFrame(per, columns=COVERAGE_COLUMNS)
    gaps_df = pd.DataFrame(gaps, columns=GAP_COLUMNS)
    for c in ("start", "end", "length"):
        gaps_df[c] = gaps_df[c].astype("int64")
    return Coverage(per_df, gaps_df)


def coverage_by_format(per_file: pd.DataFrame) -> pd.DataFrame:
    """Corpus totals of a :func:`coverage` ``per_file`` table, one row per format.

    Columns: format, files, size, members, typed, opaque, uncovered
    (bytes) and share_typed, share_opaque, share_gaps. A container's
    ``members`` bytes are counted once, in the members' own formats: the
    shares are of the format's own bytes (``size - members``), so an
    archive whose directory its spec reads whole is 100% typed.

    Examples
    --------
    >>> cov = coverage(c, files=["frm/GOBLNFRM.BIN", "frm/ODDMGFRM.BIN"])
    >>> coverage_by_format(cov.per_file)[["format", "files", "share_typed"]].values.tolist()
    [['frm', 2, 1.0]]
    >>> coverage(c, "frm").by_format[["format", "files"]].values.tolist()
    [['frm', 51]]
    >>> coverage(c, files=["agg/HEROES2.AGG"]).by_format[["format", "share_typed", "share_gaps"]].values.tolist()
    [['agg', 1.0, 0.0]]
    """
    ok = per_file[per_file["ok"].astype(bool)]
    if "members" not in ok.columns:
        ok = ok.assign(members=0)
    g = ok.groupby("format", sort=True)
    out = pd.DataFrame({"files": g.size(), "size": g["size"].sum(), "members": g["members"].sum(),
                        "typed": g["typed"].sum(), "opaque": g["opaque"].sum(),
                        "uncovered": g["uncovered"].sum()}).reset_index()
    own = out["size"] - out["members"]
    total = own.where(own > 0)
    for c, src in (("share_typed", "typed"), ("share_opaque", "opaque"), ("share_gaps", "uncovered")):
        out[c] = (out[src] / total).fillna(0.0)
    return out
