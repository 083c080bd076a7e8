"""Tables shown through the one formatter: the same hex as the claims, counterexamples as a small table."""

from __future__ import annotations

import re
import struct

import animre
from animre.base.tableview import HASH_CHARS, counterexamples


def test_flags_print_in_the_hex_the_claims_use(sample_corpus):
    """mot track flags: the claim says "0x0202 or 0x0000"; the table view writes every flag word that way."""
    claim = animre.claims(sample_corpus, formats=["mot"]).set_index("claim")
    expected = next(e for e in claim.index if "0x0202" in e)
    assert "0x0202" in expected
    view = sample_corpus.show("mot_tracks", ["file", "flags", "num_keys"], rows=None)
    text = view.text()
    raw = sample_corpus.tables["mot_tracks"]["flags"]
    assert (text["flags"].str.fullmatch(r"0x[0-9A-F]{4}")).all()  # u2: four digits, as in the claim
    assert [int(t, 16) for t in text["flags"]] == raw.tolist()
    assert "0x0202" in set(text["flags"])
    assert not text["num_keys"].str.startswith("0x").any()  # counts stay decimal
    html = view._repr_html_()
    assert "<td style=\"text-align:right\">0x0202</td>" in html


def test_hashes_are_shortened_with_the_full_value_in_a_tooltip(sample_corpus, samples_dir):
    import hashlib

    view = sample_corpus.show("files", ["file", "sha256"], rows=3)
    first = view.frame.iloc[0]
    digest = hashlib.sha256((samples_dir / first["file"]).read_bytes()).hexdigest()
    assert view.text().iloc[0]["sha256"] == digest[:HASH_CHARS] + "…"
    assert f'title="{digest}"' in view._repr_html_()
    assert re.search(r"3 of \d+ rows", repr(view))


def test_integer_parameters_print_as_integers(sample_corpus, manifest):
    """PAS4 uint32 values (planted random 32-bit column) print whole, never 1.816825e+09."""
    rc = manifest["formats"]["pas4"]["planted"]["random_column"]
    planted = [a["values"][rc["parm"]] for a in manifest["formats"]["pas4"]["files"][rc["file"]]
               ["states"][rc["state"]]["anims"]]
    vals = sample_corpus.tables["pas4_anim_values"]
    rows = vals[(vals["file"] == rc["file"]) & (vals["state"] == rc["state"]) & (vals["parm"] == rc["parm"])]
    text = sample_corpus.show("pas4_anim_values", ["integer", "real"], frame=rows, rows=None).text()
    assert sorted(text["integer"]) == sorted(str(v) for v in planted)
    assert (text["real"] == "").all()


def test_agg_counterexample_is_a_small_table_in_the_reading_of_expected(sample_corpus, samples_dir, manifest):
    """The wrong name hash: found in the same 8-digit hex as expected, at the planted record's offset."""
    wrong = manifest["formats"]["agg"]["planted"]["wrong_hash"]
    row = animre.claims(sample_corpus, formats=["agg"]).iloc[0]
    view = counterexamples(row["counterexamples"])
    text = view.text()
    assert list(text.columns) == ["file", "offset", "expected", "found", "detail"]
    assert len(text) == 1
    got = text.iloc[0]
    assert got["file"] == wrong["file"] and got["detail"] == wrong["name"]
    assert got["offset"] == f"{wrong['offset']} (0x{wrong['offset']:X})"
    stored = struct.unpack_from("<I", (samples_dir / wrong["file"]).read_bytes(), wrong["offset"])[0]
    assert got["found"] == f"0x{stored:08X}"  # the bytes of the file, in the claim's own notation
    assert re.fullmatch(r"0x[0-9A-F]{8}", got["expected"]) and got["expected"] != got["found"]
    assert "<table" in view._repr_html_() and "{" not in view._repr_html_()  # never a raw list of dicts


def test_counterexamples_shows_the_first_ten_and_the_count():
    cases = [{"file": f"f{i}", "offset": i, "expected": "0..8", "value": 9 + i, "detail": ""} for i in range(25)]
    view = counterexamples(cases)
    assert len(view.text()) == 10 and "10 of 25 rows" in repr(view)
    assert view.text()["found"].tolist()[:2] == ["9", "10"]  # decimal when expected is decimal
    assert len(counterexamples(None).text()) == 0
