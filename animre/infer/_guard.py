"""The guard against invented structure: how unlikely a relation is by coincidence.

Every role inference gives a field (file size, offset, count, size, float,
string) is a claim that a predicate holds in many independent samples. The
guard accepts it only when the chance of that happening by coincidence,
multiplied by the number of candidates tried (Bonferroni), stays below
``alpha`` (default 0.01):

- **Independent samples.** Files with the same size and first bytes count
  once; inside records, identical values count once. At least ``min_files``
  (default 5) independent files are needed before any role is considered.
- **Null rate from the data itself.** The chance ``q`` that the predicate
  holds at random is measured on the same files at every other offset (the
  fraction of positions where, say, a ``u4le`` lies inside the file), and is
  never taken below what uniform bytes give. Raw sound, whose small
  samples lie inside the file at every offset, thus has ``q`` near 1 and gets
  no offset; random bytes have ``q = size / 2^32`` for a ``u4``.
- **Chance in n samples.** A predicate that holds in ``k`` of ``n``
  samples has the binomial tail ``P(X >= k | n, q)``; an equation fitted on
  the first file (``field == file size + k``, ``count * stride == end - start``)
  has ``q^(n-1)`` with ``q`` the most frequent value's share.
- **Multiple comparisons.** ``n_tests`` is the number of (offset, type,
  relation) candidates tried; a claim needs ``p * n_tests < alpha``.
- **Stationarity.** A plain integer without any role is typed only when its
  byte pattern (constant high bytes, fewer distinct high than low bytes) is
  not seen at most other offsets of the files: a pattern that holds
  everywhere (16-bit sound samples) describes the data, not a header.
- **Where plain integers go.** Only up to the last field with evidence (a
  role, a constant in every file, the start of a table directory); past it
  the header goes on only while integers of one sign (no signal around
  zero) of 2 or 4 bytes follow each other, and stops at the first byte
  that is not one.
- **Table directories** (:mod:`animre.infer._directory`): the chance of an
  offset column in ``c`` records at random is ``q^d`` (``d`` distinct
  values), times every (count, stride, start, column) tried.
"""

from __future__ import annotations

import math

import numpy as np

from ._limits import ALPHA

__all__ = ["binom_tail_log10", "equation_log10", "per_file_log10", "equal_share_log10", "accepted", "ALPHA"]


def binom_tail_log10(k: int, n: int, q: float) -> float:
    """``log10 P(X >= k)`` for ``X ~ Binomial(n, q)`` (exact sum, in log space).

    Examples
    --------
    >>> round(binom_tail_log10(5, 5, 0.5), 3)   # five heads in five tosses: 1/32
    -1.505
    >>> binom_tail_log10(0, 5, 0.1)
    0.0
    """
    if k <= 0:
        return 0.0
    q = min(max(q, 1e-300), 1.0)
    if q >= 1.0:
        return 0.0
    terms = []
    for i in range(k, n + 1):
        terms.append(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                     + i * math.log(q) + (n - i) * math.log1p(-q))
    m = max(terms)
    return (m + math.log(sum(math.exp(t - m) for t in terms))) / math.log(10)


def equation_log10(q: float, n: int) -> float:
    """``log10`` of the chance that an equation fitted on one sample holds in the other ``n - 1``.

    Examples
    --------
    >>> equation_log10(0.1, 5)
    -4.0
    """
    return (n - 1) * math.log10(min(max(q, 1e-300), 1.0))


def per_file_log10(rates, fitted: int) -> float:
    """``log10`` chance of a relation in the files it was not fitted on: the product of each file's own null
    rate (one rate per independent file), the ``fitted`` highest left out (the files it was fitted on or
    read from; they are no test). Rates come smoothed by the caller, so none is 0.

    Examples
    --------
    >>> per_file_log10([0.1, 0.01, 0.5], fitted=1)
    -3.0
    >>> per_file_log10([0.5], fitted=1)
    0.0
    """
    r = sorted(float(x) for x in rates)
    return sum(math.log10(x) for x in r[:len(r) - fitted]) if len(r) > fitted else 0.0


def equal_share_log10(view, rows, targets, fitted: int) -> float:
    """:func:`per_file_log10` of each row's null rate for a relation that asks for ``targets[k]`` in row
    ``rows[k]``: the share of that row's integers of the field's type (``view``: rows x offsets) equal to it,
    ``+1`` smoothed (so never 0). A common value (0, 1, a sound sample) is a likely coincidence; the one value
    that spells a region's length in each file is not.

    Examples
    --------
    >>> import numpy as np
    >>> view = np.array([[0, 0, 7, 0], [0, 9, 1, 1]])
    >>> round(equal_share_log10(view, [0, 1], [7, 9], fitted=0), 3)   # (1+1)/5 twice
    -0.796
    """
    rows = np.asarray(rows)
    hits = (view[rows] == np.asarray(targets)[:, None]).sum(axis=1)
    return per_file_log10((hits + 1) / (view.shape[1] + 1), fitted=fitted)


def accepted(log10_p: float, n_tests: int, alpha: float = ALPHA) -> bool:
    """True when ``p * n_tests < alpha`` (Bonferroni).

    Examples
    --------
    >>> accepted(-8.0, 10_000), accepted(-3.0, 10_000)
    (True, False)
    """
    return log10_p + math.log10(max(n_tests, 1)) < math.log10(alpha)
