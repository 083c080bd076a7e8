"""Research functions: pure computations over corpus tables that return DataFrames.

Every verb takes the corpus first, ``f(corpus, table=None, *, ...)``, and
returns a DataFrame or a small result holding DataFrames (with
``_repr_html_``); a table of one's own goes where the table goes, with
``None`` for the corpus (``profile(None, df)``).

- :func:`profile` - per-column statistics and alerts (constant, flags, index, fixed point ...)
- :func:`coverage` - share of each file's bytes a typed field explains, opaque blobs, and the gaps (:class:`Coverage`)
- :func:`reinterpret` - read the same bytes as other types (``u2le``, ``f4le`` ...) in every file, ranked
- :func:`relations` - equalities, multiples, offsets, masks, dependencies between columns
- :func:`claims` - run the format notes' claims and list counterexamples
- :func:`compare` - one field of every file side by side, keyed by record, differing cells marked
- :func:`diff` / :func:`diff_corpora` - field-level differences between files / parses
- :func:`suggest` - spec edits (valid, enum, flag bits, counts, names, doc lines) with their evidence

Nothing here plots (results show as tables in a notebook); see :mod:`animre.export` for writing results.
"""

from ._byte_matrix import byte_matrix
from ._claims import check, claims, file_claim, row_claim, verdict
from ._compare import Comparison, compare
from ._coverage import Coverage, byte_categories, coverage, coverage_by_format
from ._diff import DIFF_COLUMNS, DIFF_CORPORA_COLUMNS, diff, diff_corpora
from ._profile import profile, profile_alerts
from ._reinterpret import Reinterpretation, reinterpret
from ._relations import relations
from ._suggest import SUGGESTION_COLUMNS, SUGGESTION_KINDS, suggest
from ._types import TYPES, decode, representations

__all__ = [
    "TYPES",
    "byte_categories",
    "byte_matrix",
    "Reinterpretation",
    "check",
    "claims",
    "compare",
    "Comparison",
    "coverage",
    "Coverage",
    "coverage_by_format",
    "decode",
    "DIFF_COLUMNS",
    "DIFF_CORPORA_COLUMNS",
    "diff",
    "diff_corpora",
    "file_claim",
    "profile",
    "profile_alerts",
    "reinterpret",
    "relations",
    "representations",
    "row_claim",
    "suggest",
    "SUGGESTION_COLUMNS",
    "SUGGESTION_KINDS",
    "verdict",
]
