"""What a relation explains for what it costs: the description-length score that ranks :func:`relations`.

The score of a finding is the number of bits it saves in describing its
target column, counted on independent observations (a two-part code:
what the values cost without the relation, less what the relation and its
exceptions cost)::

    score = sum over agreeing observations of -log2 p(v)  -  cost  -  log2 C(n, e)

- an *observation* is one distinct (group, target value, source value) among
  the tested rows: the six files of one folder that share a width and an
  offset are one observation, not six (support across independent groups is
  what counts);
- ``p(v)``: the share of the target's value ``v`` among the (group, value)
  pairs of the whole column, ``H`` the entropy of that distribution: a value
  the column holds nearly everywhere explains almost nothing, so agreeing
  on the zeros of mostly-zero columns does not beat chance;
- ``cost``: what the relation itself takes to write down. A law's fitted
  constants cost ``(1/2) log2 n`` bits each (the usual price of a fitted
  parameter): 1 for an equality, 2 for a law with a constant (offset,
  multiple, divide, linear, mask) or a product of two columns, 1 for a link
  across rows. A lookup lists its entries, each a source value and the
  target value it gives: ``H + log2 S`` bits an entry (``S`` source values),
  so a 15-value ``functional`` costs 15 entries where a law costs 2
  constants; an entry seen in one group only predicts nothing, its
  observations count as exceptions. A partial rule is one entry; a
  conditional law (``a == b when c == k``) names its condition's value
  (``log2`` of ``c``'s values) and costs an equality. A link
  (``one_of``, ``index_of``) only narrows the value down to the ``m`` values
  of its set: it explains ``-log2 p(v) - log2 m`` per observation, never
  less than 0;
- ``n`` observations, ``e`` of them exceptions: naming which ones are the
  exceptions costs ``log2 C(n, e)`` bits (their values are listed as
  counterexamples).

A score in bits is also a significance level: by the no-hypercompression
inequality, data that a random relation fits saves ``B`` bits with
probability at most ``2 ** -B`` (:func:`animre.suggest` asks for
``log2(n_tests / alpha)`` bits).
"""

from __future__ import annotations

import math

import numpy as np

from ._relation_columns import Col

__all__ = ["score", "PARAMETERS", "log2_choose"]

PARAMETERS = {"equal": 1, "offset": 2, "multiple": 2, "divide": 2, "linear": 2, "mask": 2, "one_of": 1,
              "index_of": 1}  #: fitted constants of a law by kind (a product of two columns: 2)


def log2_choose(n: int, k: int) -> float:
    """log2 of the binomial coefficient C(n, k).

    Examples
    --------
    >>> round(log2_choose(29, 2), 3), log2_choose(5, 0)
    (8.665, 0.0)
    """
    if k <= 0 or k >= n:
        return 0.0
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)) / math.log(2)


def _info(c: Col, gid: np.ndarray, cache: dict) -> tuple[np.ndarray, float]:
    """``-log2 p(v)`` for every code of ``c`` (p over the column's (group, value) pairs) and the entropy H."""
    got = cache.get(id(c))
    if got is not None:
        return got
    m = c.present
    pairs = np.unique(np.stack([gid[m], c.codes[m]]), axis=1) if m.any() else np.zeros((2, 0), dtype=np.int64)
    counts = np.bincount(pairs[1], minlength=max(c.n_distinct, 1)).astype(np.float64)
    p = counts / max(counts.sum(), 1.0)
    with np.errstate(divide="ignore"):
        info = np.where(p > 0, -np.log2(np.where(p > 0, p, 1.0)), 0.0)
    h = float((p * info).sum())
    cache[id(c)] = (info, h)
    return info, h


def score(f: dict, gid: np.ndarray, cache: dict) -> float:
    """The description-length score (bits) of one finding of :func:`relations` (module doc).

    ``f`` holds the tested rows ``_rows``, the agreeing rows ``_agree``, the target ``_t`` and source ``_s``
    columns, and optionally the predicted column ``_pred`` (a partial rule's consequence), the codes that
    make an observation distinct ``_given`` and, for links, each row's set size ``_setsize``.
    """
    pred: Col = f.get("_pred") or f["_t"]
    given = f.get("_given")
    if given is None:
        given = f["_s"].codes
    kind = f["relation"]
    lookup = kind in ("functional", "one_to_one")
    rows = np.flatnonzero(f.get("_all", f["_rows"]) if lookup else f["_rows"])
    if not len(rows):
        return float("-inf")
    info, h = _info(pred, gid, cache)
    given = np.asarray(given)
    key = np.stack([gid[rows], pred.codes[rows], given[rows]])
    _, first, inv = np.unique(key, axis=1, return_index=True, return_inverse=True)
    inv = inv.reshape(-1)
    agree = np.bincount(inv, weights=f["_agree"][rows].astype(np.float64), minlength=len(first)) > 0
    if lookup:  # an entry seen in one group only predicts nothing: its observations count against the lookup
        g_of = np.unique(np.stack([given[rows[first]], gid[rows[first]]]), axis=1)[0]
        vals, n_groups = np.unique(g_of, return_counts=True)
        agree &= np.isin(given[rows[first]], vals[n_groups >= 2])
    n, e = len(first), int((~agree).sum())
    gain_rows = info[np.maximum(pred.codes[rows[first]], 0)]
    if "_setsize" in f:
        gain_rows = np.maximum(0.0, gain_rows - np.log2(np.maximum(f["_setsize"][rows[first]], 1)))
    gain = float(gain_rows[agree].sum())
    return gain - _cost(f, kind, n, h, given[rows], given[rows[first][agree]]) - log2_choose(n, e)


def _cost(f: dict, kind: str, n: int, h: float, given: np.ndarray, given_agree: np.ndarray) -> float:
    """Bits the relation itself costs (module doc): fitted constants, entries, a condition."""
    half_log = 0.5 * math.log2(max(n, 2))
    if kind in ("functional", "one_to_one"):  # an entry: a source value (log2 S) and its target value (H)
        return len(np.unique(given_agree)) * (h + math.log2(max(len(np.unique(given)), 2)))
    if kind in ("when", "only_when"):  # one entry: the condition's value and the consequence's
        cond = f["_s"] if kind == "when" else f["_t"]
        return h + math.log2(max(cond.n_distinct, 2))
    if kind == "equal_when":
        return math.log2(max(f["_cond"].n_distinct, 2)) + half_log
    params = 2 if kind == "equal" and " * " in str(f["source"]) else PARAMETERS.get(kind, 2)
    return params * half_log
