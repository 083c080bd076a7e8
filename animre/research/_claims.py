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

from ..formats import all_formats
from ..formats.base import CLAIM_COLUMNS, Claim, file_claim, not_testable, row_claim  # noqa: F401
from ..formats.base import not_in_spec as _not_in_spec
from ._util import plain

__all__ = ["claims", "row_claim", "file_claim", "CLAIMS_COLUMNS"]

CLAIMS_COLUMNS = ["claim", "format", "source", "holds", "tested", "holds_all", "counterexamples",
                  "error", "status"]
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
        One row per claim: ``claim`` (text), ``format``, ``source`` (the note
        it comes from), ``holds`` (items where it holds), ``tested`` (items
        tested), ``holds_all``, ``counterexamples`` (list of dicts: file,
        offset, value, detail), ``error`` (when the check itself failed) and
        ``status``: ``holds``, ``fails``, ``no data``, ``error`` or ``not
        testable: field T.C is not in the spec`` (the loaded spec lacks a
        field the claim reads, e.g. after a rename).

    Examples
    --------
    >>> r = claims(c, formats=["frm"]).set_index("claim")
    >>> row = r.loc["FRM byte 0 is 0x01 (magic value)."]
    >>> int(row["holds"]), int(row["tested"]), row["status"], row["counterexamples"][0]["offset"]
    (50, 51, 'fails', 0)
    """
    present = set(corpus.files["format"].dropna())
    wanted = set(formats) if formats is not None else present
    rows = []
    for fmt in all_formats().values():
        if fmt.name not in wanted:
            continue
        for cl in fmt.claims:
            row = {"claim": cl.text, "format": cl.format or fmt.name, "source": cl.source,
                   "holds": 0, "tested": 0, "holds_all": False, "counterexamples": [], "error": None,
                   "status": "no data"}
            missing = not_testable(corpus, cl.reads) if hasattr(corpus, "has_column") else []
            if missing:
                row["status"] = _not_in_spec(missing)
                rows.append(row)
                continue
            try:
                res = cl.check(corpus)
                res = pd.DataFrame(columns=CLAIM_COLUMNS) if res is None else pd.DataFrame(res)
                ok = res["holds"].astype(bool) if len(res) else pd.Series([], dtype=bool)
                row["holds"] = int(ok.sum())
                row["tested"] = len(res)
                row["holds_all"] = bool(len(res)) and bool(ok.all())
                bad = res[~ok.to_numpy()] if len(res) else res
                row["counterexamples"] = [_counter(r) for r in bad.head(max_counterexamples).to_dict("records")]
                if len(res):
                    row["status"] = "holds" if row["holds_all"] else "fails"
            except Exception as e:  # noqa: BLE001 - one broken check must not hide the others
                row["error"] = f"{type(e).__name__}: {e}"
                row["status"] = "error"
            rows.append(row)
    return pd.DataFrame(rows, columns=CLAIMS_COLUMNS)


def _counter(r: dict) -> dict:
    off = r.get("offset")
    return {
        "file": r.get("file"),
        "offset": None if off is None or pd.isna(off) else int(off),
        "value": plain(r.get("value")),
        "detail": r.get("detail", "") if not pd.isna(r.get("detail", "")) else "",
    }
