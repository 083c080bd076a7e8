"""A cold scan's fixed-layout files read in large batches: a batch with bad files is read again in halves, and
gives what the Kaitai parse of every file gives (planted values, the errors named)."""

from __future__ import annotations

import json
import warnings

import pandas as pd

import animre
import animre.corpus.scan as scan_mod
from animre.formats.frm.samples import encode_frm


def _frm_folder(samples_dir, tmp_path, n: int = 300) -> tuple:
    values = list(json.loads((samples_dir / "manifest.json").read_text())["formats"]["frm"]["files"].values())
    d = tmp_path / "frm"
    d.mkdir()
    planted = {}
    for i in range(n):
        v = dict(values[i % len(values)], walk_speed=100 + i)
        data = encode_frm(v)
        name = f"M{i:04d}FRM.BIN"
        if i == 37:
            data = data[:500]  # too short
        elif i == 200:
            data = data + b"\0"  # trailing bytes: `trailing` fails its valid
        else:
            planted[name] = 100 + i
        (d / name).write_bytes(data)
    return d, planted


def _open(d, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return animre.open_corpus(d, cache=False, progress=False, workers=1, **kw)


def test_a_batch_with_bad_files_is_read_in_halves_and_equals_the_kaitai_parse(samples_dir, tmp_path, monkeypatch):
    d, planted = _frm_folder(samples_dir, tmp_path)
    one_by_one = []
    real = scan_mod.process_file

    def counting(ident, parsers):
        one_by_one.append(ident.name)
        return real(ident, parsers)

    monkeypatch.setattr(scan_mod, "process_file", counting)
    fast = _open(d)
    # the two bad files' halves are read one by one, the rest at once
    assert {"M0037FRM.BIN", "M0200FRM.BIN"} <= set(one_by_one) and len(one_by_one) <= 2 * scan_mod.SPLIT_MIN
    got = fast.tables["frm"].set_index("file")["walk_speed"].to_dict()
    assert {k: got[k] for k in planted} == planted
    assert sorted(fast.errors["file"]) == ["M0037FRM.BIN", "M0200FRM.BIN"]
    assert fast.errors.set_index("file").loc["M0200FRM.BIN", "path"] == "trailing"

    monkeypatch.setattr(scan_mod, "fast_reader", lambda fmt, parsers=None: None)  # every file: the Kaitai parse
    ref = _open(d)
    assert list(ref.tables) == list(fast.tables)
    for t in ref.tables:
        pd.testing.assert_frame_equal(ref.tables[t], fast.tables[t])
        if t in ref.spans:
            for k in (0, 1):
                pd.testing.assert_frame_equal(ref.spans[t][k], fast.spans[t][k])
    pd.testing.assert_frame_equal(ref.errors, fast.errors)


def test_fast_batches_keep_their_bounds(samples_dir, tmp_path, monkeypatch):
    d, planted = _frm_folder(samples_dir, tmp_path, n=50)
    whole = _open(d)
    monkeypatch.setattr(scan_mod, "FAST_BATCH", 7)
    monkeypatch.setattr(scan_mod, "FAST_BYTES", 821 * 5 + 10)  # 5 files a batch
    sizes = []
    real = scan_mod.process_files

    def recording(idents, parsers):
        sizes.append(len(idents))
        return real(idents, parsers)

    monkeypatch.setattr(scan_mod, "process_files", recording)
    small = _open(d)
    assert sizes == [5] * 10
    for t in whole.tables:
        pd.testing.assert_frame_equal(whole.tables[t], small.tables[t])
        if t in whole.spans:
            for k in (0, 1):
                pd.testing.assert_frame_equal(whole.spans[t][k], small.spans[t][k])


def test_small_files_are_parsed_from_the_bytes_the_listing_hashed(samples_dir, tmp_path, monkeypatch):
    """A file the listing read whole (at most 4 KiB) is not read again: what is parsed is what was hashed."""
    d, planted = _frm_folder(samples_dir, tmp_path, n=80)
    before = _open(d)

    def no_second_read(src):
        raise AssertionError(f"{src.name} read again")

    monkeypatch.setattr(scan_mod, "read_source", no_second_read)
    for fast in (True, False):
        if not fast:
            monkeypatch.setattr(scan_mod, "fast_reader", lambda fmt, parsers=None: None)
        c = _open(d)
        got = c.tables["frm"].set_index("file")["walk_speed"].to_dict()
        assert {k: got[k] for k in planted} == planted
        for t in before.tables:
            pd.testing.assert_frame_equal(before.tables[t], c.tables[t])
        pd.testing.assert_frame_equal(before.errors, c.errors)


def test_a_column_of_python_numbers_is_typed_as_pandas_would_infer_it():
    """A fast-path column of Python numbers (``column_data``, made without pandas' inference) is what pandas'
    own inference makes of the values: same dtype, same values; integers with gaps are Int64 (an ``if:``
    field), and ``column_values`` gives the same as a Series."""
    import numpy as np

    from animre.tables.flattener import column_data, column_values

    for values in ([1, 2, 3], [1.5, float("nan")], [True, False], [2**63 - 1, 0], [2**63, 1], [-2**63, 5],
                   [1, None], [1, 2.0], [], ["a", "b"], [b"x"], [True, 1], [np.int64(3)]):
        want = pd.Series(pd.array(values, dtype="Int64")) if values == [1, None] else pd.Series(values)
        got = column_data(values)
        pd.testing.assert_series_equal(pd.Series(got) if isinstance(got, np.ndarray) else got, want)
        pd.testing.assert_series_equal(column_values(values), want)
