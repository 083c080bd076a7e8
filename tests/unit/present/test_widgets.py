"""Widgets driven from code (no browser): selections highlight exactly the field's bytes, pickers update."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import re  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from animre import research  # noqa: E402
from animre.base.errors import UsageError  # noqa: E402
from animre.present.widgets import (  # noqa: E402
    claims_board,
    column_profiler,
    corpus_explorer,
    hex_view,
    reinterpret_explorer,
)

HL = re.compile(r'class="b hl" data-o="(\d+)"')
CELL = re.compile(r'class="b(?: hl)?" data-o="(\d+)"')


def highlighted(html: str) -> list[int]:
    return [int(o) for o in HL.findall(html)]


@pytest.fixture(scope="module")
def explorer(sample_corpus):
    return corpus_explorer(sample_corpus)




def _field(corpus, file, path):
    f = corpus.fields(file)
    row = f[f["path"] == path].iloc[0]
    return int(row["start"]), int(row["end"])


# ----------------------------------------------------------------------------- hex view


def test_hex_view_marks_exactly_the_range():
    data = bytes(range(256)) * 4
    h = hex_view(data, 37, 41)
    assert highlighted(h) == [37, 38, 39, 40]
    shown = [int(o) for o in CELL.findall(h)]
    assert shown[0] == 0 and shown[-1] >= 41 + 16 * 3  # context lines around the range
    assert "25 26 27 28" not in h  # bytes are cells, not plain text
    assert hex_view(data, 0, 0).count(" hl") == 0


def test_hex_view_long_range_is_cut_and_says_so():
    data = bytes(4096)
    h = hex_view(data, 16, 4000, max_lines=8)
    assert highlighted(h)[0] == 16
    assert "range continues" in h


# ----------------------------------------------------------------------------- explorer


@pytest.mark.parametrize("file,path", [
    ("frm/GOBLNFRM.BIN", "walk_speed"),
    ("frm/GOBLNFRM.BIN", "idle_weights[2]"),
    ("frm/ODDMGFRM.BIN", "unknown_magic"),
    ("frm/ARCHRFRM.BIN", "x_offsets[3].offsets[5]"),
    ("frm/ARCHRFRM.BIN", "projectile_offsets[1]"),
])
def test_select_highlights_the_fields_byte_range(explorer, sample_corpus, file, path):
    explorer.select(file=file, path=path)
    start, end = _field(sample_corpus, file, path)
    assert (explorer.selected["file"], explorer.selected["path"]) == (file, path)
    assert (explorer.selected["start"], explorer.selected["end"]) == (start, end)
    assert highlighted(explorer.hex_html) == list(range(start, end))
    data = sample_corpus.read_bytes(file)
    cells = dict((int(o), b) for o, b in re.findall(r'data-o="(\d+)">([0-9A-F]{2})<', explorer.hex_html))
    assert all(cells[o] == f"{data[o]:02X}" for o in range(start, end))


def test_select_in_other_formats(explorer, sample_corpus):
    for fmt in ("mot", "af", "flc", "pas4"):
        file = sample_corpus.files.query("format == @fmt")["file"].iloc[0]
        f = sample_corpus.fields(file)
        leaf = f[(f["kind"] == "value") & f["start"].notna()].iloc[len(f) // 3]
        explorer.select(file=file, path=leaf["path"])
        assert highlighted(explorer.hex_html) == list(range(int(leaf["start"]), int(leaf["end"]))), fmt


def test_representations_come_from_research(explorer, homm2):
    explorer.select(file="frm/GOBLNFRM.BIN", path="idle_weights[1]")
    rep = explorer.representations.set_index("type")["value"]
    assert np.float32(rep["f4le"]) == np.float32(homm2["files"]["frm/GOBLNFRM.BIN"]["idle_weights"][1])
    raw = bytes.fromhex(rep["hex"].replace(" ", ""))
    assert len(raw) == 4
    assert rep["u4le"] == int.from_bytes(raw, "little")
    assert "f4le" in explorer.values.value


def test_dropdowns_drive_the_selection(explorer, sample_corpus, homm2):
    explorer.file.value = "frm/DWARFFRM.BIN"  # as a click would
    assert explorer.record.value == "(file)"
    assert explorer.selected["path"] == "unknown_magic"
    assert highlighted(explorer.hex_html) == [0]
    explorer.record.value = "idle_weights"
    assert explorer.selected["path"] == "idle_weights[0]"
    assert highlighted(explorer.hex_html) == list(range(118, 122))
    explorer.field.value = "idle_weights[4]"
    assert highlighted(explorer.hex_html) == list(range(134, 138))
    assert explorer.selected["value"] == pytest.approx(homm2["files"]["frm/DWARFFRM.BIN"]["idle_weights"][4])


def test_records_and_fields_follow_the_fields_table(explorer, sample_corpus):
    explorer.select(file="frm/GOBLNFRM.BIN", record="sequences[3]")
    f = sample_corpus.fields("frm/GOBLNFRM.BIN")
    expected = f.loc[f["parent"] == "sequences[3]", "path"].tolist()
    assert [v for _, v in explorer.field.options] == expected
    assert "sequences[3]" in [v for _, v in explorer.record.options]  # the tree opened down to it


def test_computed_field_has_no_highlight(explorer, sample_corpus):
    f = sample_corpus.fields("frm/GOBLNFRM.BIN")
    computed = f[f["start"].isna()]["path"].iloc[0]
    explorer.select(file="frm/GOBLNFRM.BIN", path=computed)
    assert explorer.selected["start"] is None
    assert highlighted(explorer.hex_html) == []
    assert "computed" in explorer.info.value


def test_explorer_rejects_unknown_names(explorer):
    with pytest.raises(UsageError):
        explorer.select(file="nope.bin")
    with pytest.raises(UsageError):
        explorer.select(file="frm/GOBLNFRM.BIN", path="no_such_field")


def test_explorer_widget_has_its_css_class(explorer):
    assert "animre-explorer" in explorer.widget._dom_classes


# ----------------------------------------------------------------------------- profiler


def test_profiler_shows_research_profile(sample_corpus, homm2):
    prof = column_profiler(sample_corpus, "frm", "unknown_magic")
    expected = research.profile(sample_corpus, "frm", columns=["unknown_magic"]).iloc[0]
    assert prof.profile_row["column"] == "unknown_magic"
    assert prof.profile_row["n_distinct"] == expected["n_distinct"] == 2
    assert prof.exceptions["file"].tolist() == [homm2["planted"]["odd_magic_file"]]
    assert prof.exceptions["value"].tolist() == [0]
    assert "NEARLY_CONSTANT" in prof.alerts.value
    heights = [float(p.get_height()) for p in prof.figures["bit_rates"].axes[0].patches]
    assert heights == pytest.approx(list(expected["bit_rates"]))
    assert prof.hist.value[:4] == b"\x89PNG" and prof.bits.value[:4] == b"\x89PNG"
    assert "animre-profiler" in prof.widget._dom_classes


def test_changing_the_column_updates_the_profile(sample_corpus, homm2):
    prof = column_profiler(sample_corpus, "frm", "unknown_magic")
    prof.column.value = "walk_speed"  # as the dropdown would
    assert prof.profile_row["column"] == "walk_speed"
    speeds = [v["walk_speed"] for v in homm2["files"].values()]
    assert prof.profile_row["min"] == min(speeds) and prof.profile_row["max"] == max(speeds)
    assert prof.exceptions.empty
    hist = prof.figures["histogram"].axes[0]
    total = sum(p.get_height() for c in hist.containers for p in c.patches)
    assert total == len(speeds)


def test_changing_the_table_picks_its_columns(sample_corpus):
    prof = column_profiler(sample_corpus, "frm")
    prof.table.value = "af_moves"
    assert list(prof.column.options) == [c for c in sample_corpus.tables["af_moves"].columns if c != "file"]
    assert prof.profile_row["column"] == prof.column.options[0]
    prof.select(column="ai_flags")
    assert "LOOKS_LIKE_FLAGS" in prof.profile_row["alerts"]
    with pytest.raises(UsageError):
        prof.select(table="nope")


# ----------------------------------------------------------------------------- reinterpret


def test_reinterpret_explorer_reads_idle_weights_as_floats(sample_corpus, homm2):
    rx = reinterpret_explorer(sample_corpus, "idle_weights", types=["u4le", "f4le", "s4be"])
    assert rx.result.best == "f4le"
    v = rx.result.values
    row = v[(v["file"] == "frm/GOBLNFRM.BIN") & (v["where"] == "idle_weights[1]")].iloc[0]
    assert np.float32(row["f4le"]) == np.float32(homm2["files"]["frm/GOBLNFRM.BIN"]["idle_weights"][1])
    assert len(rx.figure.axes) == 3
    assert rx.plot.value[:4] == b"\x89PNG"
    assert "animre-reinterpret" in rx.widget._dom_classes


def test_reinterpret_explorer_absolute_offset_and_errors(sample_corpus, homm2):
    rx = reinterpret_explorer(sample_corpus)
    assert rx.result is None
    rx.run("162", format="frm", length=4, types=["u4le"])  # walk_speed
    got = dict(zip(rx.result.values["file"], rx.result.values["u4le"], strict=True))
    assert got == {f: v["walk_speed"] for f, v in homm2["files"].items()}
    rx.locator.value = "no_such_field_anywhere"
    rx.run_button.click()  # a bad locator is reported in the widget, not raised
    assert "nothing found" in rx.message.value


# ----------------------------------------------------------------------------- claims


def test_claims_board_lists_counterexamples(sample_corpus, homm2, count_distinct):
    board = claims_board(sample_corpus, formats=["frm"])
    expected = research.claims(sample_corpus, formats=["frm"])
    assert board.summary["claim"].tolist() == expected["claim"].tolist()
    i = next(i for i, t in enumerate(board.summary["claim"]) if "byte 0" in t)
    board.select(i)
    assert board.details["file"].tolist() == [homm2["planted"]["odd_magic_file"]]
    assert board.details["offset"].tolist() == [0]
    assert board.details["expected"].tolist() == ["0x01"]
    n_frm = count_distinct(homm2["files"])  # a loose file and its copy in the AGG count once
    assert f"{n_frm - 1}/{n_frm} hold, 1 fails" in board.detail.value
    copies = len(homm2["files"]) - n_frm
    assert f"{copies} byte-identical copies of other files counted once" in board.detail.value
    widths = [float(p.get_width()) for p in board.figure.axes[0].patches]
    n = len(board.summary)
    share = (board.summary["holds"] / board.summary["tested"]).tolist()
    assert widths[:n] == pytest.approx(share)
    assert [a + b for a, b in zip(widths[:n], widths[n:], strict=True)] == pytest.approx([1.0] * n)
    board.claim.value = 0  # the dropdown
    assert board.summary["claim"].iloc[0] in board.detail.value
    assert "animre-claims" in board.widget._dom_classes


def test_profile_of_a_text_column_has_no_histogram(sample_corpus, homm2):
    prof = column_profiler(sample_corpus, "frm_sequences", "animation_name")
    assert prof.profile_row["column"] == "animation_name"
    assert prof.profile_row["n_distinct"] == len(homm2["slot_names"])
    assert "histogram" not in prof.figures and prof.hist.value == b""
    prof.select(column="num_frames_raw")
    assert "histogram" in prof.figures and prof.hist.value[:4] == b"\x89PNG"


def test_reinterpret_explorer_clears_stale_output(sample_corpus, homm2):
    rx = reinterpret_explorer(sample_corpus, "idle_weights", format="frm", types=["f4le", "u4le"])
    assert rx.result is not None and rx.ranking.value and rx.plot.value
    rx.locator.value = "no_such_field_anywhere"
    rx.run_button.click()  # the error replaces the previous result: no old ranking or plot under it
    assert "nothing found" in rx.message.value
    assert rx.result is None and rx.figure is None
    assert rx.ranking.value == "" and rx.plot.value == b""


def test_reinterpret_explorer_says_when_types_do_not_fit(sample_corpus, homm2):
    # walk_speed is 4 bytes (u4 in the spec): 2-byte types cannot read it
    rx = reinterpret_explorer(sample_corpus, "walk_speed", format="frm", types=["u2le", "s2le"])
    assert rx.result is None
    assert "do not fit the field size (4 bytes)" in rx.message.value
    assert "u2le (2 bytes)" in rx.message.value
    rx.run(types=["u2le", "u4le"])  # one fits: it is read, the other is named as skipped
    assert list(rx.result.ranking["type"]) == ["u4le"]
    assert "u2le (2 bytes) do not fit" in rx.message.value and "skipped" in rx.message.value
    assert rx.progress.value == rx.progress.max


def test_explorer_tree_filter_finds_a_record_by_path(sample_corpus):
    ex = corpus_explorer(sample_corpus)
    name = "flc/Warrior/Run.flc"
    ex.select(file=name)
    f = sample_corpus.fields(name)
    records = f.loc[f["kind"].isin(["struct", "array"]), "path"].tolist()
    assert len(records) > 100  # a file with many records
    target = next(r for r in records if r.startswith("chunks[20].") and r.count(".") >= 2)
    # the tree starts closed: only the top level, not every record in one list
    assert len(ex.record.options) < 20 and target not in [v for _, v in ex.record.options]
    ex.filter.value = target
    assert [v for _, v in ex.record.options][:1] == [target] or target in [v for _, v in ex.record.options]
    assert all(target.lower() in v.lower() for _, v in ex.record.options if v != ex.record.value)
    ex.record.value = target  # as a click would
    assert [v for _, v in ex.field.options] == f.loc[f["parent"] == target, "path"].tolist()
    ex.filter.value = ""
    assert target in [v for _, v in ex.record.options]  # the tree is opened down to it


def test_explorer_array_field_shows_its_elements(sample_corpus, homm2):
    ex = corpus_explorer(sample_corpus)
    name = next(f for f, t in homm2["files"].items() if len(set(t["idle_weights"])) > 2)
    ex.select(file=name, path="idle_weights")
    assert "parsed value: None" not in ex.info.value
    shown = re.search(r"<code>\[(.*?)\]</code> \((\d+) elements\)", ex.info.value)
    assert int(shown.group(2)) == len(homm2["files"][name]["idle_weights"])
    values = [np.float32(float(v)) for v in shown.group(1).split(", ")]
    assert values == [np.float32(v) for v in homm2["files"][name]["idle_weights"]]


def test_explorer_says_where_a_member_sits_in_its_archive(sample_corpus, manifest):
    """An AGG member's field: its offset in the member, and where the member's bytes start in the archive."""
    entry = next(e for e in manifest["formats"]["agg"]["entries"] if e["name"].endswith("FRM.BIN"))
    ex = corpus_explorer(sample_corpus)
    ex.select(file=f"agg/HEROES2.AGG/{entry['name']}", path="walk_speed")
    assert "bytes [162, 166)" in ex.info.value
    assert f"member of agg/HEROES2.AGG, its stored bytes from 0x{entry['ofs_data']:X}" in ex.info.value
    assert f"at 0x{entry['ofs_data'] + 162:X} of the container" in ex.info.value
    assert "if stored uncompressed" not in ex.info.value  # AGG members are never compressed
    ex.select(file=sorted(manifest["formats"]["frm"]["files"])[0], path="walk_speed")
    assert "member of" not in ex.info.value


# ----------------------------------------------------------------------------- explorer: containers and errors


def _members_of(manifest, container: str) -> list[str]:
    """The manifest's members of a container (its direct members, in no particular order)."""
    out = []
    for section in manifest["formats"].values():
        out += [name for name, e in section.get("files", {}).items() if e.get("container") == container]
    return out


@pytest.mark.parametrize("container", ["zip/CIV3UNITS.ZIP", "pak/Metroid1.pak", "gcdisc/ANIMRE.gcm"])
def test_explorer_shows_a_container_as_its_members(sample_corpus, manifest, container):
    ex = corpus_explorer(sample_corpus)
    ex.select(file="frm/GOBLNFRM.BIN", path="walk_speed")
    assert [v for _, v in ex.file.options].count(container) == 1  # the file list offers it
    ex.file.value = container  # as a click in the file list would
    assert ex.error is None and ex.message.value == ""
    members = [v for _, v in ex.members.options]
    assert sorted(members) == sorted(_members_of(manifest, container)) and members
    assert ex.members.layout.display != "none"
    # nothing of the previous file stays: no fields, no records, no hex, no readings
    assert ex.selected["path"] is None and ex.selected["members"] == members
    assert list(ex.record.options) == [] and list(ex.field.options) == []
    assert ex.hex_html == "" and ex.values.value == "" and ex.representations.empty
    assert "walk_speed" not in ex.info.value and container in ex.info.value
    assert f"{len(members)} member(s)" in ex.info.value


def test_explorer_opens_a_zip_member_with_one_click(sample_corpus, manifest):
    truth = manifest["formats"]["zip"]["files"]
    ex = corpus_explorer(sample_corpus)
    ex.file.value = "zip/CIV3UNITS.ZIP"
    member = next(v for _, v in ex.members.options if v.endswith(".flc"))
    ex.members.value = member  # one click
    assert ex.file.value == member and ex.error is None
    assert ex.members.layout.display == "none"  # a member that is no container lists nothing
    assert ex.up.layout.display != "none"
    header = truth[member]["flc"]["header"]
    ex.select(path="header.len_file")
    assert ex.selected["value"] == header["len_file"] == truth[member]["flc"]["size"]
    assert highlighted(ex.hex_html) == [0, 1, 2, 3]
    ex.record.value = "header"  # record and field clicks work
    ex.field.value = "header.magic"
    assert ex.selected["value"] == header["magic"] and highlighted(ex.hex_html) == [4, 5]
    ex.up.click()  # back to the container
    assert ex.file.value == "zip/CIV3UNITS.ZIP" and member in [v for _, v in ex.members.options]


def test_explorer_walks_nested_containers(sample_corpus, manifest):
    ex = corpus_explorer(sample_corpus)
    ex.file.value = "gcdisc/ANIMRE.gcm"
    pak = next(v for _, v in ex.members.options if v.endswith(".pak"))
    ex.members.value = pak
    assert ex.file.value == pak and sorted(v for _, v in ex.members.options) == sorted(_members_of(manifest, pak))
    disc = manifest["formats"]["gcdisc"]["files"]
    skipped = next(m for m, e in disc.items() if e.get("container") == pak and e["status"] == "skipped")
    ex.members.value = skipped  # a member no format reads: listed, its first bytes shown, no error
    assert ex.file.value == skipped and ex.error is None
    assert "no format recognises this file" in ex.info.value
    cells = dict((int(o), b) for o, b in re.findall(r'data-o="(\d+)">([0-9A-F]{2})<', ex.hex_html))
    assert sorted(cells) == list(range(disc[skipped]["size"]))  # every byte of the 200 or 37 shown
    with pytest.raises(UsageError):
        ex.select(path="anything")  # a file with no fields says so


def test_a_container_that_parses_shows_fields_and_members(sample_corpus, manifest):
    agg = manifest["formats"]["agg"]
    ex = corpus_explorer(sample_corpus)
    ex.file.value = "agg/HEROES2.AGG"
    assert ex.error is None and ex.selected["path"] is not None  # the AGG directory is a format of its own
    assert sorted(v for _, v in ex.members.options) == sorted(f"agg/HEROES2.AGG/{e['name']}" for e in agg["entries"])
    ex.filter.value = "FRM"  # the find box narrows the member list too
    assert {v for _, v in ex.members.options} == {f"agg/HEROES2.AGG/{e['name']}" for e in agg["entries"]
                                                  if "FRM" in e["name"]}


@pytest.fixture(scope="module")
def broken_folder(tmp_path_factory, samples_dir):
    """A truncated FRM (500 of its 821 bytes) beside a good one."""
    d = tmp_path_factory.mktemp("broken")
    data = (samples_dir / "frm" / "GOBLNFRM.BIN").read_bytes()
    (d / "GOBLNFRM.BIN").write_bytes(data)
    (d / "TRUNCFRM.BIN").write_bytes(data[:500])
    return d


def test_explorer_shows_a_parse_error_in_the_widget(broken_folder):
    from animre import open_corpus

    ex = corpus_explorer(open_corpus(broken_folder, cache=False))
    ex.select(file="GOBLNFRM.BIN", path="walk_speed")
    ex.file.value = "TRUNCFRM.BIN"  # a click: no exception escapes the callback
    # the frame ids of sequence k are 16 bytes at 277 + 16 k (the notes); 500 bytes end inside sequence 13
    k = (500 - 277) // 16
    offset = 277 + 16 * k
    assert ex.error is not None and ex.selected["error_offset"] == offset
    assert ex.selected["error_path"] == f"sequences[{k}]"
    msg = ex.message.value
    assert "TRUNCFRM.BIN" in msg and f"sequences[{k}]" in msg and f"0x{offset:X} ({offset})" in msg
    assert highlighted(ex.hex_html) == [offset]  # the bytes where reading stopped
    assert list(ex.record.options) == [] and list(ex.field.options) == [] and ex.info.value == ""
    assert "walk_speed" not in ex.info.value + ex.values.value
    with pytest.raises(UsageError):
        ex.select(path="walk_speed")
    ex.file.value = "GOBLNFRM.BIN"  # the next file works again, with no trace of the error
    assert ex.error is None and ex.message.value == "" and ex.selected["path"] == "unknown_magic"
    ex.record.value = "idle_weights"
    assert highlighted(ex.hex_html) == list(range(118, 122))


def test_an_error_in_a_click_is_shown_not_raised(broken_folder, monkeypatch):
    from animre import open_corpus

    c = open_corpus(broken_folder, cache=False)
    ex = corpus_explorer(c)

    def gone(file):
        raise OSError(f"{file}: the disk went away")

    monkeypatch.setattr(c, "read_bytes", gone)
    ex._data = None
    ex.field.value = "walk_speed"  # the callback fails inside: the widget says so, no stale hex
    assert "OSError" in ex.message.value and "the disk went away" in ex.message.value
    assert ex.hex_html == "" and ex.selected["path"] is None


def test_format_is_the_one_keyword(sample_corpus):
    rx = reinterpret_explorer(sample_corpus, "walk_speed", format="frm", types=["u2le"])
    assert rx.format.value == "frm"
    rx.run("idle_weights", format="frm", types=["f4le"])
    assert rx.result.best == "f4le"
    with pytest.raises(TypeError, match="fmt"):  # the name of an unreleased draft is not accepted
        reinterpret_explorer(sample_corpus, "walk_speed", fmt="frm")


# ----------------------------------------------------------------------------- a folder with unreadable files


@pytest.fixture(scope="module")
def unreadable_folder(tmp_path_factory, samples_dir):
    """A good FRM, a truncated one, bytes no format reads and a disc image (a container of MOT and ANCS files)."""
    d = tmp_path_factory.mktemp("unreadable")
    data = (samples_dir / "frm" / "GOBLNFRM.BIN").read_bytes()
    (d / "GOBLNFRM.BIN").write_bytes(data)
    (d / "TRUNCFRM.BIN").write_bytes(data[:500])
    (d / "JUNK.DAT").write_bytes(bytes(range(256)) * 12)
    (d / "ANIMRE.ciso").write_bytes((samples_dir / "gcdisc" / "ANIMRE.ciso").read_bytes())
    return d


def _failure_shown(html: str, what: str) -> bool:
    return "animre-error" in html and what in html


def test_every_widget_shows_a_failure_in_itself(unreadable_folder, monkeypatch):
    """Each widget over a folder holding files no format reads, a failed file and a container: every callback
    (a pick in a dropdown, a click) ends with the result or the failure written in the widget, never with an
    exception escaping into the browser's log while the widget waits ("reading ..." forever)."""
    from animre import open_corpus
    from animre.base.errors import ParseError
    from animre.present.widgets import compare_view

    c = open_corpus(unreadable_folder, cache=False)
    status = dict(zip(c.files["file"], c.files["status"]))
    assert {"parsed", "failed", "skipped", "container"} <= set(status.values())
    # the explorer: every file picked, each shows its fields, its members, its error or its first bytes
    ex = corpus_explorer(c)
    for f in c.files["file"]:
        ex.file.value = f
        assert ex.file.value == f and (ex.info.value or ex.message.value), f
    assert ex.error is None or "TRUNCFRM.BIN" in ex.message.value
    # the reinterpret explorer on notebook 03's input, every format: the disc image's MOT is read, the
    # container, the bytes no format reads and the failed FRM are no end of it
    rx = reinterpret_explorer(c, "tracks.unknown_18")
    assert rx.result is not None and "occurrence(s)" in rx.message.value and "in every file" not in rx.message.value
    real_fields = c.fields

    gone = "ANIMRE.ciso/Metroid/Metroid1.pak/1BADB002.ANCS"

    def fields(files, *a, **k):  # one file whose fields cannot be read again (a disc that went away)
        if gone in list(files):
            raise ParseError(gone, "", 0, "cannot read: the disc went away")
        return real_fields(files, *a, **k)

    monkeypatch.setattr(c, "fields", fields)
    rx.locator.value = "state_type"  # read by walking the parsed files (ANCS blocks)
    rx.run_button.click()  # the click: the other files' values, the unreadable one a line of the result
    assert rx.result is not None and len(rx.result.values) and "animre-failures" in rx.message.value
    assert list(rx.result.failures["file"]) == [gone] and gone not in set(rx.result.values["file"])
    assert "the disc went away" in rx.message.value and rx.progress.layout.visibility == "hidden"
    monkeypatch.setattr(c, "fields", lambda files, *a, **k: fields([gone]))
    rx.run_button.click()  # no file can be read: said, and why
    assert rx.result is None and "the disc went away" in rx.message.value
    monkeypatch.setattr(c, "fields", real_fields)

    def boom(*a, **k):
        raise RuntimeError("planted failure")

    # the profiler: every table picked; a failing profile is shown in place of the profile
    prof = column_profiler(c)
    for t in prof.table.options:
        prof.table.value = t
        assert prof.profile_row["column"] == prof.column.value
    monkeypatch.setattr(research, "profile", boom)
    prof._cache.clear()
    prof.column.value = [x for x in prof.column.options if x != prof.column.value][0]
    assert _failure_shown(prof.summary.value, "planted failure") and prof.alerts.value == ""
    monkeypatch.undo()
    # the compare view: a failing comparison is shown in place of the grid
    view = compare_view(c)
    for t in view.table.options:
        view.table.value = t
        assert view.result is not None and "file" in view.message.value
    monkeypatch.setattr(research, "compare", boom)
    view.column.value = [x for x in view.column.options if x != view.column.value][0]
    assert _failure_shown(view.message.value, "planted failure") and view.grid.value == ""
    monkeypatch.undo()
    # the claims board: every claim picked; a failing detail is shown in place of the counterexamples
    import animre.present.widgets.claims as claims_module

    board = claims_board(c)
    for i in range(len(board.summary)):
        board.claim.value = i
        assert "counterexamples" in board.detail.value
    monkeypatch.setattr(claims_module, "counterexample_table", boom)
    board.claim.value = 0 if board.claim.value else 1
    assert _failure_shown(board.detail.value, "planted failure") and board.details.empty
