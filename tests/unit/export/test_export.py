"""Export: round trips, wiki Markdown that parses back as a table, atomic writes."""

from __future__ import annotations

import importlib
import json

import numpy as np
import pandas as pd
import pytest

import animre
from animre.export import export, to_markdown, wiki_table
from animre.research import profile

export_mod = importlib.import_module("animre.export")  # the module, even if animre.export is the function


def _sample_frame() -> pd.DataFrame:
    return pd.DataFrame({
        "file": ["frm/A.BIN", "frm/B|C.BIN", "omf/FIGHTR0.AF"],
        "offset": [0, 118, 14014],
        "value": [1.5, -0.25, 3.125e-5],
        "count": [10, 0, 7],
        "ok": [True, False, True],
        "note": ["plain", "line one\nline two", "pipe | inside"],
    })


def parse_pipe_tables(text: str) -> list[list[list[str]]]:
    """A minimal GitHub pipe-table parser: tables as lists of rows of unescaped cells."""
    tables, cur = [], []
    for line in text.splitlines():
        if line.startswith("|") and line.endswith("|"):
            cells, buf, esc = [], "", False
            for ch in line[1:-1]:
                if esc:
                    buf += ch
                    esc = False
                elif ch == "\\":
                    esc = True
                elif ch == "|":
                    cells.append(buf.strip())
                    buf = ""
                else:
                    buf += ch
            cells.append(buf.strip())
            cur.append(cells)
        elif cur:
            tables.append(cur)
            cur = []
    if cur:
        tables.append(cur)
    out = []
    for t in tables:
        assert len(t) >= 2 and all(set(c) <= {"-", ":"} and c for c in t[1]), t[:2]
        assert all(len(r) == len(t[0]) for r in t), "ragged table"
        out.append([t[0]] + t[2:])
    return out


def test_csv_and_parquet_round_trip(tmp_path):
    df = _sample_frame()
    paths = export(df, tmp_path, ["csv", "parquet", "json"], name="findings")
    assert [p.name for p in paths] == ["findings.csv", "findings.parquet", "findings.json"]
    back_csv = pd.read_csv(tmp_path / "findings.csv", keep_default_na=False)
    pd.testing.assert_frame_equal(back_csv, df, check_dtype=False)
    back_pq = pd.read_parquet(tmp_path / "findings.parquet")
    pd.testing.assert_frame_equal(back_pq, df, check_dtype=False)
    assert json.loads((tmp_path / "findings.json").read_text()) == df.to_dict("records")


def test_markdown_parses_back_as_a_table(tmp_path):
    df = _sample_frame()
    export(df, tmp_path, "md", name="t")
    text = (tmp_path / "t.md").read_text()
    assert text.startswith("## t\n")
    (table,) = parse_pipe_tables(text)
    assert table[0] == list(df.columns)
    assert len(table) == 1 + len(df)
    assert table[2][0] == "frm/B|C.BIN"  # escaped pipe survives
    assert table[3][5] == "pipe | inside"
    assert table[2][5] == "line one<br>line two"
    assert [r[1] for r in table[1:]] == ["0", "118", "14014"]
    assert [float(r[2]) for r in table[1:]] == df["value"].tolist()


def test_dict_writes_one_file_per_table_per_format(tmp_path):
    tables = {"a": _sample_frame(), "b": pd.DataFrame({"x": [1, 2, 3]})}
    paths = export(tables, tmp_path, ("csv", "md", "parquet", "xlsx", "json"))
    assert sorted(p.name for p in paths) == sorted(f"{t}.{e}" for t in "ab"
                                                   for e in ("csv", "md", "parquet", "xlsx", "json"))
    assert all(p.is_file() and p.stat().st_size > 0 for p in paths)
    xl = pd.read_excel(tmp_path / "b.xlsx")
    pd.testing.assert_frame_equal(xl, tables["b"])
    assert not list(tmp_path.glob(".*.tmp"))


def test_export_writes_atomically(tmp_path, monkeypatch):
    df = _sample_frame()
    export(df, tmp_path, ["csv"], name="keep")
    before = (tmp_path / "keep.csv").read_bytes()

    def broken(frame, fh, name):  # writes half a file, then fails
        fh.write(b"col_a,col_b\n1,")
        fh.flush()
        raise OSError("disk full (simulated)")

    monkeypatch.setitem(export_mod.WRITERS, "xlsx", broken)
    with pytest.raises(OSError, match="disk full"):
        export({"keep": pd.DataFrame({"x": [9]}), "other": df}, tmp_path, ["csv", "md", "xlsx", "json"])
    assert (tmp_path / "keep.csv").read_bytes() == before  # old file untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.csv"]  # nothing new, no temp files


def test_export_rejects_bad_input(tmp_path):
    with pytest.raises(animre.UsageError):
        export(pd.DataFrame({"a": [1]}), tmp_path, ["docx"])
    with pytest.raises(animre.UsageError):
        export({"a": [1, 2]}, tmp_path, ["csv"])
    assert list(tmp_path.iterdir()) == []


def test_findings_with_lists_export_everywhere(tmp_path, sample_corpus):
    prof = profile(sample_corpus, "frm")
    paths = export({"frm_profile": prof}, tmp_path)
    assert len(paths) == 5
    back = pd.read_parquet(tmp_path / "frm_profile.parquet")
    assert list(back["column"]) == list(prof["column"])
    row = back.set_index("column").loc["unknown_magic"]
    assert json.loads(row["alerts"]) == ["NEARLY_CONSTANT"]
    recs = json.loads((tmp_path / "frm_profile.json").read_text())
    assert recs[0]["column"] == "unknown_magic" and recs[0]["alerts"] == ["NEARLY_CONSTANT"]
    (table,) = parse_pipe_tables((tmp_path / "frm_profile.md").read_text())
    assert [r[0] for r in table[1:]] == list(prof["column"])


def test_wiki_table_of_frm(sample_corpus, manifest, truths, count_distinct):
    files = truths("frm")  # loose files and archive members
    planted = manifest["formats"]["frm"]["planted"]
    w = wiki_table(sample_corpus, "frm")
    assert list(w.columns[:4]) == ["offset", "type", "name", "observed"]
    w = w.set_index("name")
    n = count_distinct(files)  # identical files count once
    odd = planted["odd_magic_file"]
    assert (w.loc["unknown_magic", "offset"], w.loc["unknown_magic", "type"]) == ("0", "u1")
    # a field named magic reads in hex, padded to its u1 width
    assert w.loc["unknown_magic", "observed"] == \
        f"0x01 in {n - 1}/{n} files; {odd}: 0x{files[odd]['unknown_magic']:02X}"
    assert (w.loc["eye_x", "offset"], w.loc["eye_x", "type"]) == ("1", "s2")
    assert (w.loc["idle_weights[0]", "offset"], w.loc["idle_weights[0]", "type"]) == ("118", "f4")
    assert (w.loc["walk_speed", "offset"], w.loc["walk_speed", "type"]) == ("162", "u4")
    ws = [v["walk_speed"] for v in files.values()]
    assert w.loc["walk_speed", "observed"] == f"{min(ws)}..{max(ws)}, {len(set(ws))} distinct"
    assert w.loc["num_idles", "type"] == "value" and w.loc["num_idles", "offset"] == ""  # a value instance
    assert w.loc["walk_speed", "doc"].startswith("Bytes 162-165")  # the spec's doc travels with the column
    md = to_markdown(w.reset_index()[["offset", "type", "name", "observed"]], "FRM fields")
    (table,) = parse_pipe_tables(md)
    assert table[0] == ["offset", "type", "name", "observed"]
    assert table[1][:3] == ["0", "u1", "unknown_magic"]


def test_wiki_table_relative_offsets(sample_corpus):
    w = wiki_table(sample_corpus, "frm_frame_counts").set_index("name")
    assert w.loc["num_frames_raw", "offset"] == "+0" and w.loc["num_frames_raw", "type"] == "u1"
    ws = wiki_table(sample_corpus, "frm_frames").set_index("name")
    assert ws.loc["frame_ids", "offset"] == "+0" and ws.loc["frame_ids", "type"] == "u1"
    assert ws.loc["in_sequence", "type"] == "derived"
    # a record whose fields sit at fixed distances: the BK animation header
    wa = wiki_table(sample_corpus, "bk_animations").set_index("name")
    assert wa.loc["ofs_next", "offset"] == "+0" and wa.loc["anim_number", "offset"] == "+4"
    assert np.isin(["offset", "type", "name", "observed", "alerts", "doc"], ws.reset_index().columns).all()


def test_names_in_exports_are_relative_to_the_folder_named_even_through_a_symlink(samples_dir, tmp_path):
    """Notebook 06 opens the files of DATA as a list of paths (``corpus.path``): their names, and so the wiki
    table's and every export's, are relative to the folder the user named, also when that folder is reached
    through a symlink (a temporary folder on macOS is one): never absolute temporary paths."""
    import shutil

    import animre
    from animre.export import wiki_table, write_tables

    real = tmp_path / "real" / "homm2"
    shutil.copytree(samples_dir / "frm", real / "frm")
    link = tmp_path / "DATA"
    link.symlink_to(tmp_path / "real")
    corpus = animre.open_corpus(link / "homm2", cache=False)
    assert corpus.files["file"].iloc[0].startswith("frm/")
    files = [corpus.path(f) for f in corpus.files["file"]]
    assert all(str(p).startswith(str(link)) for p in files)  # as given, through the link
    again = animre.open_corpus(files, cache=False)
    assert list(again.files["file"]) == [f.removeprefix("frm/") for f in corpus.files["file"]]
    wiki = wiki_table(again, "frm")
    written = write_tables({"wiki": wiki, "frm": again.tables["frm"]}, tmp_path / "out", formats=("csv", "md"))
    for p in written:
        text = p.read_text()
        assert str(tmp_path) not in text and "/real/" not in text, p
    assert "ODDMGFRM.BIN" in " ".join(wiki["observed"])
