"""Containers: HoMM2 AGG and zip members are corpus files like any other, hostile archives are error rows."""

from __future__ import annotations

import io
import shutil
import struct
import zipfile

import pandas as pd
import pytest

import animre
from animre.base.errors import ParseError
from animre.cli import main
from animre.formats.agg import name_hash
from animre.formats.agg.samples import build_agg
from animre.sources import MAX_DEPTH, list_sources, read_source
from animre.sources.containers import MAX_MEMBER, containers, detect_container


def _frm_tables(c):
    return [t for t in c.tables if t == "frm" or t.startswith("frm_")]


def _rows(c, table, file):
    df = c.tables[table]
    return df[df["file"] == file].drop(columns="file").reset_index(drop=True)


@pytest.fixture(scope="module")
def agg_truth(manifest):
    return manifest["formats"]["agg"]


@pytest.fixture(scope="module")
def agg_corpus(samples_dir):
    return animre.open_corpus(samples_dir / "agg", cache=False)


def test_registry_finds_agg_and_zip():
    assert {"agg", "zip"} <= set(containers())


def test_agg_members_are_corpus_files(agg_corpus, agg_truth, expected_status):
    f = agg_corpus.files.set_index("file")
    arch = agg_truth["planted"]["archive"].split("/", 1)[1]  # names are relative to the opened folder
    assert f.at[arch, "kind"] == "agg" and f.at[arch, "members"] == len(agg_truth["entries"])
    for e in agg_truth["entries"]:
        name = f"{arch}/{e['name']}"
        assert f.at[name, "container"] == arch
        assert f.at[name, "offset"] == e["ofs_data"] and f.at[name, "size"] == e["len_data"]
    for name, truth in agg_truth["files"].items():  # KB.PAL: skipped unless a format reads palettes
        assert f.at[name.split("/", 1)[1], "status"] == expected_status(truth), name
    assert agg_corpus.errors.empty


def test_agg_members_equal_their_loose_copies(agg_corpus, agg_truth):
    loose = agg_truth["planted"]["loose_copies"]
    assert loose
    for copy, member in loose.items():
        copy, member = copy.split("/", 1)[1], member.split("/", 1)[1]
        assert agg_corpus.format_of(member) == "frm"
        for t in _frm_tables(agg_corpus):
            a, b = _rows(agg_corpus, t, member), _rows(agg_corpus, t, copy)
            assert len(a) > 0 or t != "frm"
            pd.testing.assert_frame_equal(a, b, check_dtype=False)
        assert agg_corpus.read_bytes(member) == agg_corpus.read_bytes(copy)


def test_agg_member_values_match_planted(agg_corpus, agg_truth):
    frm = agg_corpus.tables["frm"].set_index("file")
    arch = agg_truth["planted"]["archive"].split("/", 1)[1]
    n = 0
    for name, truth in agg_truth["files"].items():
        if truth.get("format") != "frm" or truth.get("container") is None:
            continue
        v = truth["frm"]
        rel = name.split("/", 1)[1]
        assert rel.startswith(arch + "/")
        assert frm.at[rel, "walk_speed"] == v["walk_speed"] and frm.at[rel, "eye_x"] == v["eye_x"]
        n += 1
    assert n >= 2
    # detection is by content: the member stored under a name without FRM parses as FRM
    renamed = agg_truth["planted"]["renamed_frm"].split("/", 1)[1]
    assert agg_corpus.format_of(renamed) == "frm"


def test_agg_entries_and_hash_claim(agg_corpus, agg_truth):
    e = agg_corpus.tables["agg_entries"]
    assert list(e["name"]) == [x["name"] for x in agg_truth["entries"]]
    assert list(e["name_hash"]) == [x["name_hash"] for x in agg_truth["entries"]]
    assert list(agg_corpus.offsets("agg_entries", "name_hash")) == [x["record_offset"] for x in agg_truth["entries"]]
    from animre.formats import get_format

    claim = get_format("agg").claims[0]
    res = claim.check(agg_corpus)
    wrong = agg_truth["planted"]["wrong_hash"]
    bad = res[~res["holds"]]
    assert len(bad) == 1 and int(bad["offset"].iloc[0]) == wrong["offset"]
    assert res["holds"].sum() == len(agg_truth["entries"]) - 1


def test_name_hash_against_the_generator(agg_truth):
    wrong = agg_truth["planted"]["wrong_hash"]["entry"]
    for e in agg_truth["entries"]:
        assert (name_hash(e["name"]) == e["name_hash"]) == (e["entry"] != wrong), e["name"]


def test_parse_member_and_spans_relative(agg_corpus, agg_truth):
    loose = next(iter(agg_truth["planted"]["loose_copies"].values())).split("/", 1)[1]
    obj = agg_corpus.parse(loose)
    assert obj.walk_speed == agg_corpus.tables["frm"].set_index("file").at[loose, "walk_speed"]
    i = agg_corpus.tables["frm"].index[agg_corpus.tables["frm"]["file"] == loose][0]
    assert agg_corpus.span("frm", i, "walk_speed") == (162, 166)  # relative to the member


def test_scan_exits_0_on_agg_with_loose_copies(samples_dir, agg_truth, expected_status, tmp_path, capsys):
    d = tmp_path / "game"
    shutil.copytree(samples_dir / "agg", d)
    assert main(["scan", str(d), "--no-cache", "-q"]) == 0
    out = capsys.readouterr().out
    skipped = sum(expected_status(t) == "skipped" for t in agg_truth["files"].values())
    assert "0 failed" in out and f"{skipped} skipped" in out


def test_zip_members_parse_as_loose(samples_dir, manifest):
    z = manifest["formats"]["zip"]
    c = animre.open_corpus(samples_dir / "zip", cache=False)
    assert c.errors.empty
    f = c.files.set_index("file")
    arch = z["planted"]["archive"].split("/", 1)[1]
    assert f.at[arch, "status"] == "container" and f.at[arch, "kind"] == "zip"
    members = [n.split("/", 1)[1] for n, t in z["files"].items() if t.get("container")]
    assert all(f.at[m, "container"] == arch and f.at[m, "format"] == "flc" for m in members)
    for copy, member in z["planted"]["loose_copies"].items():
        copy, member = copy.split("/", 1)[1], member.split("/", 1)[1]
        for t in [t for t in c.tables if t.startswith("flc")]:
            pd.testing.assert_frame_equal(_rows(c, t, member), _rows(c, t, copy), check_dtype=False)


def test_cache_reuses_members(samples_dir, tmp_path):
    d = tmp_path / "g"
    shutil.copytree(samples_dir / "agg", d)
    first = animre.open_corpus(d, cache=tmp_path / "cache")
    second = animre.open_corpus(d, cache=tmp_path / "cache")
    assert any(r.cached for r in second.results if r.container)
    pd.testing.assert_frame_equal(first.tables["frm"], second.tables["frm"])
    pd.testing.assert_frame_equal(first.files, second.files, check_dtype=False)


def test_parallel_scan_reads_members(samples_dir):
    one = animre.open_corpus(samples_dir / "agg", cache=False, workers=1)
    two = animre.open_corpus(samples_dir / "agg", cache=False, workers=2)
    for t in one.tables:
        pd.testing.assert_frame_equal(one.tables[t], two.tables[t])


def test_nested_containers(samples_dir, tmp_path):
    agg = (samples_dir / "agg" / "HEROES2.AGG").read_bytes()
    with zipfile.ZipFile(tmp_path / "MOD.ZIP", "w") as z:
        z.writestr("data/HEROES2.AGG", agg)
    c = animre.open_corpus(tmp_path, cache=False)
    f = c.files.set_index("file")
    assert f.at["MOD.ZIP/data/HEROES2.AGG", "container"] == "MOD.ZIP"
    assert f.at["MOD.ZIP/data/HEROES2.AGG/GOBLNFRM.BIN", "container"] == "MOD.ZIP/data/HEROES2.AGG"
    assert f.at["MOD.ZIP/data/HEROES2.AGG/GOBLNFRM.BIN", "format"] == "frm"
    assert len(c.read_bytes("MOD.ZIP/data/HEROES2.AGG/GOBLNFRM.BIN")) == 821
    assert c.errors.empty


# ------------------------------------------------------------------ hostile archives


def _agg(members, n=None, records=None):
    data, _ = build_agg(members)
    if n is not None:
        data = struct.pack("<H", n) + data[2:]
    if records is not None:
        body = bytearray(data)
        for i, rec in records.items():
            body[2 + 12 * i: 14 + 12 * i] = struct.pack("<III", *rec)
        data = bytes(body)
    return data


def _one_error(folder, name):
    c = animre.open_corpus(folder, cache=False)
    errs = c.errors.set_index("file")
    assert name in errs.index, c.errors
    return c, errs.loc[name]


FRM = bytes(821)


@pytest.mark.parametrize("case, path_start", [
    ("outside", "entries[0].ofs_data"),
    ("overlap", "entries[1].ofs_data"),
    ("count", "num_entries"),
    ("badname", "entries[0].name"),
    ("dupname", "entries[1].name"),
])
def test_hostile_agg_is_an_error_row(tmp_path, case, path_start):
    members = [("A.BIN", b"x" * 40), ("B.BIN", b"y" * 40)]
    if case == "outside":
        data = _agg(members, records={0: (0, 26, 10**6)})
        offset = 6
    elif case == "overlap":
        data = _agg(members, records={1: (0, 30, 40)})
        offset = 18
    elif case == "count":
        data = _agg(members, n=65535)
        offset = 0
    elif case == "badname":
        data = bytearray(_agg(members))
        data[-30] = 0xFF
        data = bytes(data)
        offset = len(data) - 30
    else:
        data = _agg([("A.BIN", b"x"), ("A.BIN", b"y")])
        offset = len(data) - 15
    (tmp_path / "H.AGG").write_bytes(data)
    (tmp_path / "GOOD.AGG").write_bytes(_agg([("A.BIN", FRM)]))
    c, e = _one_error(tmp_path, "H.AGG")
    assert e["path"].startswith(path_start) and e["offset"] == offset, e
    assert "H.AGG" in e["message"]
    assert c.files.set_index("file").at["GOOD.AGG/A.BIN", "format"] == "frm"  # the scan went on


def _zip(entries):
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w") as z:
        for name, data, method in entries:
            z.writestr(name, data, compress_type=method)
    return bytearray(b.getvalue())


def _patch_sizes(data: bytearray, index: int, file_size: int) -> None:
    """Set the declared uncompressed size of member ``index`` in its local and central headers."""
    pos = -1
    for _ in range(index + 1):
        pos = data.index(b"PK\x01\x02", pos + 1)
    struct.pack_into("<I", data, pos + 24, file_size)
    local = struct.unpack_from("<I", data, pos + 42)[0]
    struct.pack_into("<I", data, local + 22, file_size)


def test_zip_bomb_declared_4gb(tmp_path):
    data = _zip([("big.bin", b"\0" * 5000, zipfile.ZIP_DEFLATED), ("ok.bin", FRM, zipfile.ZIP_STORED)])
    _patch_sizes(data, 0, 0xFFFFFFFE)
    (tmp_path / "B.ZIP").write_bytes(bytes(data))
    _, e = _one_error(tmp_path, "B.ZIP")
    assert "decompression bomb" in e["message"] and e["path"].startswith("central_directory[0]")
    assert 0xFFFFFFFE > MAX_MEMBER


def test_zip_stream_expanding_beyond_declared_size(tmp_path):
    data = _zip([("x.bin", b"\0" * 100_000, zipfile.ZIP_DEFLATED), ("FRM.BIN", FRM, zipfile.ZIP_STORED)])
    _patch_sizes(data, 0, 1000)
    (tmp_path / "E.ZIP").write_bytes(bytes(data))
    c, e = _one_error(tmp_path, "E.ZIP/x.bin")
    assert "decompression bomb" in e["message"] and e["container"] == "E.ZIP" and e["path"] == "data"
    assert e["offset"] > 0
    assert c.files.set_index("file").at["E.ZIP/FRM.BIN", "format"] == "frm"


def test_zip_member_outside_the_file(tmp_path):
    data = _zip([("a.bin", b"a" * 100, zipfile.ZIP_STORED)])
    pos = data.index(b"PK\x01\x02")
    struct.pack_into("<I", data, pos + 20, 10**6)  # compressed size
    (tmp_path / "O.ZIP").write_bytes(bytes(data))
    _, e = _one_error(tmp_path, "O.ZIP")
    assert e["path"].startswith("central_directory[0]") and "outside the file" in e["message"]


def test_zip_overlapping_members(tmp_path):
    data = _zip([("a.bin", b"a" * 100, zipfile.ZIP_STORED), ("b.bin", b"b" * 100, zipfile.ZIP_STORED)])
    first = data.index(b"PK\x01\x02")
    second = data.index(b"PK\x01\x02", first + 1)
    struct.pack_into("<I", data, second + 42, 0)  # b's local header is a's
    (tmp_path / "V.ZIP").write_bytes(bytes(data))
    _, e = _one_error(tmp_path, "V.ZIP")
    assert "overlap" in e["message"] or "repeated" in e["message"] or "signature" in e["message"]


def test_zip_crc_mismatch(tmp_path):
    data = _zip([("a.bin", b"a" * 100, zipfile.ZIP_STORED)])
    data[40] ^= 0xFF  # inside the stored bytes
    (tmp_path / "C.ZIP").write_bytes(bytes(data))
    _, e = _one_error(tmp_path, "C.ZIP/a.bin")
    assert "CRC" in e["message"]


def test_archive_inside_itself_and_depth(tmp_path):
    inner = bytes(_zip([("x.bin", b"hello", zipfile.ZIP_STORED)]))
    outer = bytes(_zip([("inner.zip", inner, zipfile.ZIP_STORED)]))
    src = list_sources_from_bytes(tmp_path, "S.ZIP", outer)
    assert not any(s.error for s in src)
    # an archive holding a byte-copy of itself cannot be built (a fixed point), so the guard is fed
    # a container whose member has the content of an ancestor on its path
    from animre import sources as srcmod

    out = []
    cont = detect_container(inner, "inner.zip")
    s = srcmod.Source("T.ZIP", tmp_path / "T.ZIP", size=len(inner), sha256=__import__("hashlib").sha256(
        inner).hexdigest(), head=inner[:4096])
    wrapped = bytes(_zip([("again.zip", inner, zipfile.ZIP_STORED)]))
    srcmod._expand(io.BytesIO(wrapped), cont, s, (s.sha256,), 1, out)
    err = [x for x in out if x.error]
    assert len(err) == 1 and "contains itself" in err[0].error.reason and err[0].name == "T.ZIP/again.zip"
    # depth: zips nested deeper than MAX_DEPTH
    data = b"hello"
    for k in range(MAX_DEPTH + 2):
        data = bytes(_zip([(f"l{k}.zip" if k else "x.bin", data, zipfile.ZIP_STORED)]))
    src = list_sources_from_bytes(tmp_path, "DEEP.ZIP", data)
    errs = [s for s in src if s.error]
    assert len(errs) == 1 and "deeper" in errs[0].error.reason


def list_sources_from_bytes(tmp_path, name, data):
    d = tmp_path / name.replace(".", "_")
    d.mkdir()
    (d / name).write_bytes(data)
    return list_sources(d)[1]


def test_member_error_names_container_member_path_offset(tmp_path):
    short = FRM[:300]
    (tmp_path / "T.AGG").write_bytes(_agg([("CUT__FRM.BIN", short), ("GOOD_FRM.BIN", FRM)]))
    c = animre.open_corpus(tmp_path, cache=False)
    e = c.errors.set_index("file").loc["T.AGG/CUT__FRM.BIN"]
    assert e["container"] == "T.AGG" and e["format"] == "frm" and e["path"] and e["offset"] <= 300
    assert "T.AGG/CUT__FRM.BIN" in e["message"]
    assert main(["scan", str(tmp_path), "--no-cache", "-q"]) == 1


def test_read_source_after_change_is_an_error(tmp_path):
    (tmp_path / "A.AGG").write_bytes(_agg([("X.BIN", FRM)]))
    _, src = list_sources(tmp_path)
    m = next(s for s in src if s.container)
    assert read_source(m) == FRM  # its container is now open in this process
    (tmp_path / "A.AGG").write_bytes(_agg([("Y.BIN", FRM), ("Z.BIN", b"z")]))
    with pytest.raises(ParseError):
        read_source(m)


def test_hostile_agg_bounded(tmp_path):
    """65535 entries claimed by a 40-byte file: refused from the count, before any allocation."""
    data = struct.pack("<H", 65535) + bytes(38)
    cont = detect_container(data, "X.AGG")
    with pytest.raises(ParseError) as ei:
        cont.members(io.BytesIO(data), "X.AGG")
    assert ei.value.path == "num_entries" and ei.value.offset == 0


def test_zip_directory_claiming_huge_counts(tmp_path):
    """End record: 65535 entries in a central directory of 4 GB, in a file of a few hundred bytes."""
    data = _zip([("a.bin", b"a" * 100, zipfile.ZIP_STORED)])
    eocd = data.rindex(b"PK\x05\x06")
    struct.pack_into("<HHI", data, eocd + 8, 0xFFFF, 0xFFFF, 0xFFFFFFFF)
    (tmp_path / "N.ZIP").write_bytes(bytes(data))
    _, e = _one_error(tmp_path, "N.ZIP")
    assert e["path"] == "central_directory" and "N.ZIP" in e["message"]


def test_agg_claims_find_gaps_names_and_empty_entries(tmp_path):
    """An archive with a gap before its second member, a lower-case name and an empty member."""
    members = [("A.BIN", b"a" * 10), ("b.bin", b"b" * 10), ("E.BIN", b"")]
    data, entries = build_agg(members)
    body = bytearray(data)
    struct.pack_into("<II", body, 2 + 12 * 1 + 4, entries[1]["ofs_data"] + 2, 8)  # b.bin: 2 bytes later, 2 shorter
    (tmp_path / "G.AGG").write_bytes(bytes(body))
    c = animre.open_corpus(tmp_path, cache=False)
    from animre.formats import get_format

    res = {cl.text: cl.check(c) for cl in get_format("agg").claims}
    bad = {t: sorted(int(o) for o in r.loc[~r["holds"], "offset"]) for t, r in res.items()}
    assert bad["Members are stored back to back in entry order, right after the records."] == [18]
    assert bad["Names are DOS 8.3 names in upper case (the engine looks them up as such)."] == [len(data) - 30]
    assert bad["No entry is empty (the engine reads nothing for a size of 0)."] == [2 + 12 * 2 + 8]
    assert bad["The last member ends where the name table starts (no unused bytes)."] == []
    assert bad["Every entry's stored hash is the game's hash of its name."] == []
