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

from ..display import plain
from ..formats import spec_enums
from ..formats.base import (  # noqa: F401
    CLAIM_COLUMNS,
    Claim,
    expr_claim,
    file_claim,
    not_testable,
    row_claim,
)
from ..formats.base import not_in_spec as _not_in_spec

__all__ = ["claims", "check", "row_claim", "file_claim", "verdict", "CLAIMS_COLUMNS"]

CLAIMS_COLUMNS = ["claim", "format", "source", "holds", "tested", "fails", "share", "verdict", "holds_all",
                  "counterexamples", "error", "status"]
MAX_COUNTEREXAMPLES = 1000


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
        field the claim reads, e.g. after a rename).

    Examples
    --------
    >>> r = claims(c, formats=["frm"]).set_index("claim")
    >>> row = r.loc["FRM byte 0 is 0x01 (magic value)."]
    >>> int(row["holds"]), int(row["tested"]), row["status"], row["counterexamples"][0]["offset"]
    (50, 51, 'fails', 0)
    >>> row["verdict"], row["counterexamples"][0]["expected"], row["counterexamples"][0]["value"]
    ('50/51 hold, 1 fails', '0x01', 0)
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

    Column paths are the expression's names (``file_hdr.ofs_bitmap <
    file_hdr.len_file``, ``idle_weights[2] > 0``), ``_file_size`` is the size
    of the row's file; ``and``/``or``/``not``, arithmetic, bit operators and
    comparisons as in a spec. Rows where a value it reads is missing are not
    tested. The same claim can live in a spec (``-animre-claims``).

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
    ('51/51 hold', 'holds')
    >>> bad = check(c, "frm", "walk_speed < 0").iloc[0]
    >>> int(bad["fails"]), bad["counterexamples"][0]["offset"]
    (51, 162)
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
           "holds_all": False, "counterexamples": [], "error": None, "status": "no data"}
    missing = not_testable(corpus, cl.reads) if hasattr(corpus, "has_column") else []
    if missing:
        row["status"] = _not_in_spec(missing)
        return row
    try:
        res = cl.check(corpus)
        res = pd.DataFrame(columns=CLAIM_COLUMNS) if res is None else pd.DataFrame(res)
        ok = res["holds"].astype(bool) if len(res) else pd.Series([], dtype=bool)
        row["holds"] = int(ok.sum())
        row["tested"] = len(res)
        row["holds_all"] = bool(len(res)) and bool(ok.all())
        bad = res[~ok.to_numpy()] if len(res) else res
        row["fails"] = row["tested"] - row["holds"]
        if len(res):
            row["share"] = row["holds"] / row["tested"]
            row["verdict"] = verdict(row["holds"], row["tested"])
        row["counterexamples"] = [_counter(r, cl.expected)
                                  for r in bad.head(max_counterexamples).to_dict("records")]
        if len(res):
            row["status"] = "holds" if row["holds_all"] else "fails"
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


def _counter(r: dict, expected: str = "") -> dict:
    off = r.get("offset")
    exp = r.get("expected")
    exp = expected if _missing(exp) or exp == "" else plain(exp)
    return {
        "file": r.get("file"),
        "offset": None if _missing(off) else int(off),
        "expected": exp,
        "value": plain(r.get("value")),
        "detail": "" if _missing(r.get("detail", "")) else r.get("detail", ""),
    }
