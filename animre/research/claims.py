"""Check the statements of the format notes against a corpus.

Every format module lists its notes' claims as executable
:class:`~animre.formats.base.Claim` objects; :func:`claims` runs all of them
(for the formats present in a corpus) and reports how often each holds, with
the counterexamples' files and byte offsets. :func:`row_claim` and
:func:`file_claim` build claims over table rows and over the ``files`` table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pandas as pd

from ..formats.base import CLAIM_COLUMNS, Claim
from ._util import plain

__all__ = ["claims", "row_claim", "file_claim", "CLAIMS_COLUMNS"]

CLAIMS_COLUMNS = ["claim", "format", "source", "holds", "tested", "holds_all", "counterexamples",
                  "error"]
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
        offset, value, detail) and ``error`` (when the check
        itself failed).

    Examples
    --------
    >>> c = open_corpus("data/samples")  # doctest: +SKIP
    >>> claims(c)[["claim", "holds", "tested"]].head()  # doctest: +SKIP
    """
    from ..formats import all_formats

    present = set(corpus.files["format"].dropna())
    wanted = set(formats) if formats is not None else present
    rows = []
    for fmt in all_formats().values():
        if fmt.name not in wanted:
            continue
        for cl in fmt.claims:
            row = {"claim": cl.text, "format": cl.format or fmt.name, "source": cl.source,
                   "holds": 0, "tested": 0, "holds_all": False, "counterexamples": [], "error": None}
            try:
                res = cl.check(corpus)
                res = pd.DataFrame(columns=CLAIM_COLUMNS) if res is None else pd.DataFrame(res)
                ok = res["holds"].astype(bool) if len(res) else pd.Series([], dtype=bool)
                row["holds"] = int(ok.sum())
                row["tested"] = len(res)
                row["holds_all"] = bool(len(res)) and bool(ok.all())
                bad = res[~ok.to_numpy()] if len(res) else res
                row["counterexamples"] = [_counter(r) for r in bad.head(max_counterexamples).to_dict("records")]
            except Exception as e:  # noqa: BLE001 - one broken check must not hide the others
                row["error"] = f"{type(e).__name__}: {e}"
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


def row_claim(text: str, source: str, table: str, predicate: Callable[[pd.Series], bool], *,
              where: Callable[[pd.Series], bool] | None = None, offset_column: str | None = None,
              offset: int | None = None, value: Callable[[pd.Series], Any] | str | None = None,
              detail: str = "", format: str = "") -> Claim:
    """A claim that ``predicate(row)`` holds for every row of ``table`` (where ``where(row)``).

    ``offset`` of each tested row: the span start of ``offset_column`` (from
    ``corpus.spans``) or the fixed absolute ``offset``; ``value``: a column
    name or a function of the row (default: the offset column's value).

    Examples
    --------
    >>> row_claim("slot 6 is empty", "seeds/001_0340b32678dbfebf.txt", "frm_slots",
    ...           lambda r: r["num_frames_raw"] == 0, where=lambda r: r["slot"] == 6,
    ...           offset_column="num_frames_raw").text
    'slot 6 is empty'
    """

    def check(corpus):
        df = corpus.tables.get(table)
        if df is None or not len(df):
            return pd.DataFrame(columns=CLAIM_COLUMNS)
        sel = df if where is None else df[[bool(where(r)) for _, r in df.iterrows()]]
        if offset_column is not None and table in corpus.spans and offset_column in corpus.spans[table][0]:
            offs = corpus.spans[table][0][offset_column].reindex(sel.index).astype("Int64")
        else:
            offs = pd.Series(pd.NA if offset is None else offset, index=sel.index, dtype="Int64")
        if callable(value):
            vals = [value(r) for _, r in sel.iterrows()]
        else:
            col = value if isinstance(value, str) else offset_column
            vals = list(sel[col]) if col is not None and col in sel else [None] * len(sel)
        return pd.DataFrame({
            "file": sel["file"].tolist(),
            "holds": [bool(predicate(r)) for _, r in sel.iterrows()],
            "offset": offs.tolist(),
            "value": vals,
            "detail": detail,
        }, columns=CLAIM_COLUMNS)

    return Claim(text, source, check, format)


def file_claim(text: str, source: str, format: str, predicate: Callable[[pd.Series], bool], *,
               offset: int | Callable[[pd.Series], int] | None = None, value: str = "size",
               detail: str = "") -> Claim:
    """A claim over the ``files`` table (file, format, size, sha256, ok) of one format.

    Files that failed to parse are tested too (a size claim is about them as well).

    Examples
    --------
    >>> file_claim("FRM files are 821 bytes", "formats/NOTES.md §2", "frm",
    ...            lambda r: r["size"] == 821).text
    'FRM files are 821 bytes'
    """

    def check(corpus):
        ft = corpus.files
        sel = ft[ft["format"] == format]
        offs = [offset(r) if callable(offset) else offset for _, r in sel.iterrows()]
        return pd.DataFrame({
            "file": sel["file"].tolist(),
            "holds": [bool(predicate(r)) for _, r in sel.iterrows()],
            "offset": pd.array(offs, dtype="Int64"),
            "value": sel[value].tolist(),
            "detail": detail,
        }, columns=CLAIM_COLUMNS)

    return Claim(text, source, check, format)
