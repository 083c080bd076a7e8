"""Check the statements of the format notes against a corpus.

Every format module lists its notes' claims as executable
:class:`~animre.formats.base.Claim` objects; :func:`claims` runs all of them
(for the formats present in a corpus) and reports how often each holds, with
the counterexamples' files and byte offsets. :func:`row_claim` and
:func:`file_claim` build claims over table rows and over the ``files`` table.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd

from ..base.display import fmt as show
from ..base.display import plain
from ..formats import NotInSpec, spec_enums
from ..formats.base import (  # noqa: F401
    CLAIM_COLUMNS,
    Claim,
    expr_claim,
    file_claim,
    not_testable,
    row_claim,
)
from ..formats.base import not_in_spec as _not_in_spec
from ._util import copies_of

__all__ = ["claims", "check", "row_claim", "file_claim", "verdict", "CLAIMS_COLUMNS"]

CLAIMS_COLUMNS = ["claim", "format", "source", "holds", "tested", "fails", "share", "verdict", "holds_all",
                  "counterexamples", "error", "status", "copies"]
MAX_COUNTEREXAMPLES = 1000
#: Placeholders a claim's ``detail`` may hold, filled from what the corpus holds (:func:`corpus_holds`).
DETAIL_FIELDS = ("{range}", "{values}")
MAX_VALUES = 8  #: distinct values ``{values}`` names, most common first


def claims(corpus: Any, formats: Iterable[str] | None = None, *,
           max_counterexamples: int = MAX_COUNTEREXAMPLES) -> pd.DataFrame:
    """Run every claim of every format present in the corpus.

    Parameters
    ----------
    corpus : Corpus
        An opened corpus.
    formats : iterable of str, optional
        Only these formats (default: every format with files in the corpus).
    max_counterexamples : int
        At most this many counterexamples per claim (``holds``/``tested`` count all).

    Returns
    -------
    DataFrame
        One row per claim: ``claim`` (the full text), ``format``, ``source``
        (the public source it comes from, named in words), ``holds`` (items
        where it holds), ``tested`` (items tested), ``fails`` (tested - holds),
        ``share`` (holds / tested), ``verdict`` (``50/51 hold, 1 fails``),
        ``holds_all``, ``counterexamples`` (list of dicts: file, offset (the
        absolute byte offset of the value; None only for a value not read
        from one place), expected, value (what was found), detail),
        ``error`` (when the check itself failed) and
        ``status``: ``holds``, ``fails``, ``no data``, ``error`` or ``not
        testable: field T.C is not in the spec`` (the loaded spec lacks a
        field the claim reads, e.g. after a rename), and ``copies``: the
        files left out because their bytes repeat an earlier file's.

    Byte-identical files (a loose FRM and its copy inside the AGG) are one
    item: only the first in corpus order is tested, and each of its
    counterexamples lists the copies (``copies``). A claim's ``detail`` may
    say what this corpus holds: ``{range}`` becomes the range of the values
    tested (``44-166``), ``{values}`` the distinct values, most common first.

    Examples
    --------
    >>> r = claims(c, formats=["frm"]).set_index("claim")
    >>> row = r.loc["FRM byte 0 is 0x01 (magic value)."]
    >>> int(row["holds"]), int(row["tested"]), row["status"], row["counterexamples"][0]["offset"]
    (46, 47, 'fails', 0)
    >>> row["verdict"], row["counterexamples"][0]["expected"], row["counterexamples"][0]["value"]
    ('46/47 hold, 1 fails', '0x01', 0)
    >>> row["copies"][:1]  # the AGG's members repeat loose files: they count once
    ['agg/HEROES2.AGG/GOBLNFRM.BIN']
    """
    present = set(corpus.files["format"].dropna())
    wanted = set(formats) if formats is not None else present
    rows = []
    for fmt in corpus.formats.values():
        if fmt.name not in wanted:
            continue
        for cl in fmt.claims:
            rows.append(_run(corpus, cl, fmt.name, max_counterexamples))
    return pd.DataFrame(rows, columns=CLAIMS_COLUMNS)


def check(corpus: Any, table: str, expr: str, text: str | None = None, *, source: str = "a hypothesis",
          max_counterexamples: int = MAX_COUNTEREXAMPLES) -> pd.DataFrame:
    """Test a hypothesis, written as a Kaitai expression, over every row of a table.

    The expression is the spec's language over the row (:mod:`animre.formats._rowref`):
    column paths (``file_hdr.ofs_bitmap < file_hdr.len_file``,
    ``idle_weights[2] > 0``), elements of an array that is a table of the
    same file (``frames[num_frames].ofs_data == _file_size``), ``.first``,
    ``.last``, ``.size`` of arrays and byte fields (``data[data.size - 1]``,
    ``data.last == 0x80``), ``_file_size`` (the size of the row's file);
    ``and``/``or``/``not``, arithmetic, bit operators and comparisons as in a
    spec. No value instance is needed to ask. Rows where a value it reads is
    missing are not tested. The same claim can live in a spec (``-animre-claims``).

    Returns
    -------
    DataFrame
        One row, as :func:`claims` gives it: holds, tested, verdict, and the
        counterexamples (file, the byte offset of the first field the
        expression reads, expected: the expression, value: the values read).

    Examples
    --------
    >>> r = check(c, "frm", "walk_speed > 0").iloc[0]
    >>> r["verdict"], r["status"]
    ('47/47 hold', 'holds')
    >>> bad = check(c, "frm", "walk_speed < 0").iloc[0]
    >>> int(bad["fails"]), bad["counterexamples"][0]["offset"]
    (47, 162)
    >>> check(c, "frm", "num_frames_raw.size == sequences.size and sequences[7].frame_ids.last >= 0").iloc[0]["verdict"]
    '47/47 hold'
    """
    formats = getattr(corpus, "formats", {}) or {}
    ids = [f for f in formats if table == f or table.startswith(f + "_")]
    fmt = max(ids, key=len) if ids else table.split("_", 1)[0]
    cl = expr_claim(text or expr, source, table, expr, format=fmt,
                    enums=spec_enums(formats[fmt].source) if fmt in formats else None)
    return pd.DataFrame([_run(corpus, cl, fmt, max_counterexamples)], columns=CLAIMS_COLUMNS)


def _run(corpus: Any, cl: Claim, format: str, max_counterexamples: int) -> dict:
    """One claim's row of :func:`claims`."""
    row = {"claim": cl.text, "format": cl.format or format, "source": cl.source,
           "holds": 0, "tested": 0, "fails": 0, "share": float("nan"), "verdict": "not tested",
           "holds_all": False, "counterexamples": [], "error": None, "status": "no data", "copies": []}
    missing = not_testable(corpus, cl.reads) if hasattr(corpus, "has_column") else []
    if missing:
        row["status"] = _not_in_spec(missing)
        return row
    try:
        res = cl.check(corpus)
        res = pd.DataFrame(columns=CLAIM_COLUMNS) if res is None else pd.DataFrame(res).reset_index(drop=True)
        copy_of = copies_of(corpus)
        same: dict[str, list[str]] = {}
        if copy_of and len(res):
            is_copy = res["file"].isin(copy_of).to_numpy()
            for f in dict.fromkeys(res.loc[is_copy, "file"]):
                same.setdefault(copy_of[f], []).append(f)
            row["copies"] = [f for fs in same.values() for f in fs]
            res = res[~is_copy]
        if "detail" in res.columns and len(res):
            res = res.assign(detail=[corpus_holds(d, res["value"]) for d in res["detail"]])
        ok = res["holds"].astype(bool) if len(res) else pd.Series([], dtype=bool)
        row["holds"] = int(ok.sum())
        row["tested"] = len(res)
        row["holds_all"] = bool(len(res)) and bool(ok.all())
        bad = res[~ok.to_numpy()] if len(res) else res
        row["fails"] = row["tested"] - row["holds"]
        if len(res):
            row["share"] = row["holds"] / row["tested"]
            row["verdict"] = verdict(row["holds"], row["tested"])
        row["counterexamples"] = [_counter(r, cl.expected, same.get(r.get("file"), []))
                                  for r in bad.head(max_counterexamples).to_dict("records")]
        if len(res):
            row["status"] = "holds" if row["holds_all"] else "fails"
    except NotInSpec as e:
        row["status"] = _not_in_spec([f"{e.table}.{e.path}"])
    except Exception as e:  # noqa: BLE001 - one broken check must not hide the others
        row["error"] = f"{type(e).__name__}: {e}"
        row["status"] = "error"
    return row


def verdict(holds: int, tested: int) -> str:
    """``"36/37 hold, 1 fails"``: the share holding with the failing count in words.

    Examples
    --------
    >>> verdict(36, 37), verdict(5, 5), verdict(0, 0)
    ('36/37 hold, 1 fails', '5/5 hold', 'not tested')
    """
    if not tested:
        return "not tested"
    fails = tested - holds
    return f"{holds}/{tested} hold" + (f", {fails} fail{'s' if fails == 1 else ''}" if fails else "")


def _missing(v: Any) -> bool:
    return v is None or (not isinstance(v, (list, tuple, dict, str, bytes)) and bool(pd.isna(v)))


def _counter(r: dict, expected: str = "", copies: list[str] | None = None) -> dict:
    off = r.get("offset")
    exp = r.get("expected")
    exp = expected if _missing(exp) or exp == "" else plain(exp)
    return {
        "file": r.get("file"),
        "offset": None if _missing(off) else int(off),
        "expected": exp,
        "value": plain(r.get("value")),
        "detail": "" if _missing(r.get("detail", "")) else r.get("detail", ""),
        "copies": list(copies or []),
    }


def corpus_holds(detail: Any, values: Any) -> Any:
    """A claim's detail with ``{range}`` / ``{values}`` filled from the values the corpus holds.

    ``{range}``: the smallest and largest number (``44-166``; one value
    alone when all are equal); ``{values}``: the distinct values, most common
    first, with their counts (``88 (12), 166 (3)``). Values through
    :func:`animre.base.display.fmt`; a detail without placeholders is returned as it is.

    Examples
    --------
    >>> corpus_holds("the notes say 4; this corpus holds {range} ms", [88, 44, 166, 88])
    'the notes say 4; this corpus holds 44-166 ms'
    >>> corpus_holds("found {values}", [88, 44, 88])
    'found 88 (2), 44 (1)'
    """
    if not isinstance(detail, str) or not any(k in detail for k in DETAIL_FIELDS):
        return detail
    vals = [plain(v) for v in values if not _missing(v)]
    if "{range}" in detail:
        nums = [v for v in vals if isinstance(v, (int, float)) and not isinstance(v, bool)]
        lo, hi = (min(nums), max(nums)) if nums else (None, None)
        text = "no number" if lo is None else show(lo) if lo == hi else f"{show(lo)}-{show(hi)}"
        detail = detail.replace("{range}", text)
    if "{values}" in detail:
        counts = pd.Series([show(v) for v in vals], dtype=object).value_counts(sort=True)
        text = ", ".join(f"{v} ({int(n)})" for v, n in counts.head(MAX_VALUES).items())
        more = f", ... ({len(counts)} distinct)" if len(counts) > MAX_VALUES else ""
        detail = detail.replace("{values}", (text + more) or "no value")
    return detail
