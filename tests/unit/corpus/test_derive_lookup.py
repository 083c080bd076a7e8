"""``DeriveContext.lookup``: a child row finds its parent's value, whether its rows come in runs or not."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from animre.corpus.derive import DeriveContext


class _Corpus:
    def __init__(self, tables: dict, keys: dict):
        self.tables, self._keys = tables, keys

    def keys(self, table: str) -> list[str]:
        return self._keys[table]


def _truth(df: pd.DataFrame, parent: pd.DataFrame, keys: list[str], column: str) -> list:
    """Row by row, from a dict of the parent's first row per key (independent of the code under test)."""
    first: dict = {}
    for row in parent[keys + [column]].itertuples(index=False):
        first.setdefault(tuple(row[:-1]), row[-1])
    return [first.get(tuple(r), None) for r in df[keys].itertuples(index=False)]


def _same(got: np.ndarray, want: list) -> bool:
    return len(got) == len(want) and all((w is None and pd.isna(g)) or (w is not None and g == w)
                                         for g, w in zip(got.tolist(), want))


@pytest.mark.parametrize("shuffle", [False, True])
def test_lookup_in_runs_and_out_of_order(shuffle):
    rng = np.random.default_rng(5)
    files = [f"F{i:03d}.BIN" for i in range(40)]
    parent = pd.DataFrame({"file": np.repeat(files, 6), "slot": np.tile(np.arange(6), 40)})
    parent["n"] = rng.integers(0, 17, len(parent))
    parent = parent[~((parent["file"] == "F007.BIN") & (parent["slot"] == 3))]  # a child without a parent
    child = pd.DataFrame({"file": np.repeat(files, 6 * 16), "slot": np.tile(np.repeat(np.arange(6), 16), 40),
                          "position": np.tile(np.arange(16), 240)})
    if shuffle:
        child = child.iloc[rng.permutation(len(child))].reset_index(drop=True)
    corpus = _Corpus({"p": parent, "c": child}, {"p": ["file", "slot"], "c": ["file", "slot", "position"]})
    got = DeriveContext(corpus).lookup(child, "p", "n")
    assert _same(got, _truth(child, parent, ["file", "slot"], "n"))
    assert np.isnan(got[(child["file"] == "F007.BIN").to_numpy() & (child["slot"] == 3).to_numpy()]).all()
    # the run-wise lookup gives what a row-by-row index lookup gives, dtype included
    right = parent.drop_duplicates(["file", "slot"])
    keys = ["file", "slot"]
    pos = pd.MultiIndex.from_frame(right[keys]).get_indexer(pd.MultiIndex.from_frame(child[keys]))
    ref = right["n"].reset_index(drop=True).reindex(pos).to_numpy()
    assert got.dtype == ref.dtype and np.array_equal(got, ref, equal_nan=True)


def test_lookup_with_missing_keys_and_one_key():
    parent = pd.DataFrame({"file": ["a", "b", None], "v": pd.array([1, 2, 3], dtype="Int64")})
    child = pd.DataFrame({"file": ["a", "a", None, None, "b", "c", "c", "a"]})
    corpus = _Corpus({"p": parent, "c": child}, {"p": ["file"], "c": ["file"]})
    got = DeriveContext(corpus).lookup(child, "p", "v")
    ref = parent["v"].reset_index(drop=True).reindex(pd.Index(parent["file"]).get_indexer(child["file"])).to_numpy()
    assert len(got) == len(ref) and all((pd.isna(a) and pd.isna(b)) or a == b for a, b in zip(got, ref))
    assert [None if pd.isna(x) else int(x) for x in got] == [1, 1, 3, 3, 2, None, None, 1]


@pytest.mark.parametrize("dtype", ["int64", "Int64", "float64", "str"])
def test_lookup_of_a_child_whose_runs_are_its_parents_rows(dtype):
    """Every parent row has its run of child rows, in the parent's order: the values come back row for row,
    of the dtype an index lookup gives."""
    files = [f"F{i:03d}.BIN" for i in range(30)]
    parent = pd.DataFrame({"file": np.repeat(files, 4), "slot": np.tile(np.arange(4), 30)})
    values = pd.Series(np.arange(len(parent)) % 7, dtype="int64")
    if dtype == "Int64":
        values = values.astype("Int64").mask(values == 3)
    elif dtype == "float64":
        values = values.astype("float64").mask(values == 3)
    elif dtype == "str":
        values = values.astype(str)
    parent["n"] = values
    child = pd.DataFrame({"file": np.repeat(files, 4 * 5), "slot": np.tile(np.repeat(np.arange(4), 5), 30),
                          "position": np.tile(np.arange(5), 120)})
    corpus = _Corpus({"p": parent, "c": child}, {"p": ["file", "slot"], "c": ["file", "slot", "position"]})
    got = DeriveContext(corpus).lookup(child, "p", "n")
    keys = ["file", "slot"]
    pos = pd.MultiIndex.from_frame(parent[keys]).get_indexer(pd.MultiIndex.from_frame(child[keys]))
    ref = parent["n"].reset_index(drop=True).reindex(pos).to_numpy()
    assert got.dtype == ref.dtype
    assert [None if pd.isna(x) else x for x in got.tolist()] == [None if pd.isna(x) else x for x in ref.tolist()]
    if dtype in ("int64", "str"):  # no missing value: the row-by-row truth compares as it is
        assert _same(got, _truth(child, parent, keys, "n"))
    # the same lookup for the parent's own rows (a table and one row per parent row)
    own = DeriveContext(corpus).lookup(parent[keys], "p", "n")
    assert own.dtype == parent["n"].to_numpy().dtype
