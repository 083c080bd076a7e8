"""Retro PAK, ANCS structure and GameCube disc images, checked against the generators' planted truth."""

from __future__ import annotations

import hashlib
import io
import json
import os
import struct
import subprocess
import sys
import tempfile
import tracemalloc
import zlib
from pathlib import Path

import pandas as pd
import pytest

import animre
from animre.base.errors import ParseError
from animre.formats.mot.gcdisc_samples import IMAGE_FORMATS, convert, encode_gcm, encode_wii
from animre.formats.pas4 import block_info, locate
from animre.formats.pas4.ancs import characters, pas4_length
from animre.formats.pas4.pak_samples import compress, encode_pak
from animre.formats.pas4.samples import encode_ancs
from animre.sources.containers import detect_container
from animre.sources.containers.base import MAX_MEMBER
from animre.sources.containers.gcdisc import fst_files, image_format
from animre.sources.containers.gcdisc import members as disc_members
from animre.sources.containers.pak import members as pak_members
from animre.spec.compiler import PROJECT_ROOT
from animre.tables.read import parse, parse_blocks

PAS4_TABLES = ("pas4", "pas4_states", "pas4_parms", "pas4_anims", "pas4_anim_values")
NOT_VALUES = ["file", "block", "character", "located_by", "block_offset", "len_after_block"]


@pytest.fixture(scope="module")
def pak_truth(manifest) -> tuple[str, dict]:
    """(the PAK's corpus name, {member name: manifest entry})."""
    sec = manifest["formats"]["pak"]
    arch = sec["planted"]["archive"]
    return arch, {f[len(arch) + 1:]: e for f, e in sec["files"].items() if e.get("container") == arch}


IMAGES = ("ISO",) + IMAGE_FORMATS  # the sample GCM and the copies nod's writer made of it


@pytest.fixture(scope="module")
def disc_images(manifest) -> dict[str, tuple[str, dict]]:
    """Per image format, (the image's corpus name, {path inside the disc: manifest entry})."""
    sec = manifest["formats"]["gcdisc"]
    names = {"ISO": sec["planted"]["disc"], **sec["planted"]["images"]}
    return {fmt: (disc, {f[len(disc) + 1:]: e for f, e in sec["files"].items() if e.get("container") == disc})
            for fmt, disc in names.items()}


@pytest.fixture(scope="module")
def disc_truth(disc_images) -> tuple[str, dict]:
    """(the plain GCM's corpus name, {path inside the disc: manifest entry})."""
    return disc_images["ISO"]


def _values(corpus, table: str, file: str, character: str | None = None) -> pd.DataFrame:
    df = corpus.tables[table]
    sel = df["file"] == file
    if character is not None:
        sel &= df["character"] == character
    return df[sel].drop(columns=[c for c in NOT_VALUES if c in df.columns]).reset_index(drop=True)


# ---------------------------------------------------------------- PAK directory


def test_pak_members_match_manifest(samples_dir, pak_truth):
    name, truth = pak_truth
    with open(samples_dir / name, "rb") as fh:
        assert detect_container(fh.read(4096), name).name == "pak"
        got = {m.name: m for m in pak_members(fh, name)}
        assert set(got) == set(truth)
        for mname, t in truth.items():
            m = got[mname]
            assert m.compressed == (t["compression"] != "none"), mname
            data = m.read()
            assert len(data) == t["read_size"], mname
            if t["compression"] == "none":  # stored as it is, padded to 32 bytes with 0xFF (the size says so)
                assert m.size == t["read_size"] == t["size"] + (-t["size"] % 32), mname
                assert set(data[t["size"]:]) <= {0xFF}
            else:
                assert t["read_size"] == t["size"]
            assert m.offset % 32 == 0 and m.offset + m.size <= (samples_dir / name).stat().st_size
    kinds = {t["compression"] for t in truth.values() if t["type"] == "ANCS"}
    assert kinds == {"none", "zlib", "lzo"}
    lzo = [t for t in truth.values() if t["compression"] == "lzo" and t["type"] == "ANCS"]
    assert lzo[0]["size"] > 0x4000  # more than one LZO segment


def test_named_resource_names_the_member(pak_truth):
    _, truth = pak_truth
    assert "Samus_AnimSet.ANCS" in truth
    assert "0A1B2C3D.ANCS" not in truth


# ---------------------------------------------------------------- ANCS by structure


def test_characters_found_by_structure(sample_corpus, pak_truth):
    name, truth = pak_truth
    head = sample_corpus.tables["pas4"]
    for mname, t in truth.items():
        rows = head[head.file == f"{name}/{mname}"].sort_values("block")
        assert rows["character"].tolist() == [c["name"] for c in t["characters"]], mname
        assert rows["block_offset"].tolist() == [c["pas4_offset"] for c in t["characters"]], mname
        assert (rows["located_by"] == "ANCS structure").all()


def test_pas4_in_pak_members_equals_bare_blocks(sample_corpus, pak_truth):
    """The acceptance check: every table row of a database read inside a (compressed) PAK member
    equals the same database read as a bare block."""
    name, truth = pak_truth
    compared = set()
    for mname, t in truth.items():
        for ch in t["characters"]:
            for table in PAS4_TABLES:
                inside = _values(sample_corpus, table, f"{name}/{mname}", ch["name"])
                bare = _values(sample_corpus, table, ch["pas4"])
                assert len(bare) > 0 or table != "pas4"
                pd.testing.assert_frame_equal(inside, bare, check_dtype=False, obj=f"{mname} {ch['name']} {table}")
            compared.add(t["compression"])
    assert compared == {"none", "zlib", "lzo"}


def test_single_character_ancs_samples_name_their_character(sample_corpus, manifest):
    head = sample_corpus.tables["pas4"].set_index("file")
    for f, e in manifest["formats"]["pas4"]["files"].items():
        if e["kind"] == "ancs":
            assert head.at[f, "character"] == e["container"]["name"]
            assert head.at[f, "located_by"] == "ANCS structure"
        else:
            assert pd.isna(head.at[f, "character"]) and head.at[f, "located_by"] == "bare block"


def test_walker_block_length_is_the_spec_len_block(samples_dir, manifest):
    for f, e in manifest["formats"]["pas4"]["files"].items():
        data = (samples_dir / f).read_bytes()
        _, obj, _ = parse(data, f, "pas4")
        assert pas4_length(data, e["pas4_offset"]) == obj.len_block == e["pas4_end"] - e["pas4_offset"], f


def test_decoy_magic_in_an_animation_name_is_not_a_block(manifest, samples_dir):
    d = manifest["formats"]["pas4"]["planted"]["decoy_magic"]
    data = (samples_dir / d["file"]).read_bytes()
    assert [c.pas4_offset for c in characters(data)] == [d["pas4_offset"]]


def test_unreadable_structure_falls_back_to_magic_search_with_a_note(samples_dir, manifest):
    f, e = next((f, e) for f, e in manifest["formats"]["pas4"]["files"].items() if e["kind"] == "ancs")
    data = bytearray((samples_dir / f).read_bytes())
    data[12:14] = b"\xff\xff"  # character info version 65535: the structure does not hold
    data = bytes(data)
    assert locate(data) == e["pas4_offset"]
    info = block_info(data, e["pas4_offset"])
    assert info["character"] is None
    assert info["located_by"].startswith("magic search: the ANCS structure did not read")
    assert "info_version" in info["located_by"]
    blocks = list(parse_blocks(data, "x.ancs", "pas4"))
    assert [b.offset for *_, b in blocks] == [e["pas4_offset"]]


def test_several_characters_and_a_broken_third(samples_dir, manifest):
    bare = [f for f, e in manifest["formats"]["pas4"]["files"].items() if e["kind"] == "bare"][:3]
    blocks = [(samples_dir / f).read_bytes() for f in bare]
    data, offsets = encode_ancs([{"id": i, "name": f"C{i}"} for i in range(3)], blocks)
    assert [(c.name, c.pas4_offset) for c in characters(data)] == [("C0", offsets[0]), ("C1", offsets[1]),
                                                                   ("C2", offsets[2])]
    cut = data[:offsets[2] + 6]
    with pytest.raises(ParseError) as ei:
        characters(cut, "cut.ancs")
    assert ei.value.path.startswith("character_set.characters[2].pas4") and ei.value.file == "cut.ancs"


# ---------------------------------------------------------------- disc images


def test_sample_images_are_written_by_nod_in_every_format(samples_dir, disc_images, manifest):
    assert set(disc_images) == set(IMAGES)
    sizes = {}
    for fmt, (name, _) in disc_images.items():
        head = (samples_dir / name).read_bytes()[:64]
        assert image_format(head) == fmt == manifest["formats"]["gcdisc"]["files"][name]["image_format"]
        sizes[fmt] = (samples_dir / name).stat().st_size
    assert all(sizes[f] < sizes["ISO"] for f in ("RVZ", "WIA", "GCZ"))  # compressed
    assert sizes["CISO"] < 2_200_000  # nod's CISO writer: one 2 MiB block


@pytest.mark.parametrize("fmt", IMAGES)
def test_disc_members_match_manifest(samples_dir, disc_images, fmt):
    name, truth = disc_images[fmt]
    with open(samples_dir / name, "rb") as fh:
        assert detect_container(fh.read(4096), name).name == "gcdisc"
        got = {m.name: m for m in disc_members(fh, name)}
    assert set(got) == set(truth) == {"anim/0000.mot", "Metroid/Metroid1.pak"}
    for p, t in truth.items():
        m = got[p]
        assert (m.offset, m.size, m.compressed) == (t["offset"], t["size"], fmt != "ISO")  # offsets in the disc
        data = m.read()
        assert hashlib.sha256(data).hexdigest() == t["sha256"]
        assert data == (samples_dir / t["loose"]).read_bytes()


@pytest.mark.parametrize("fmt", IMAGES)
def test_files_inside_the_disc_parse_as_the_same_files_loose(sample_corpus, disc_images, fmt):
    name, truth = disc_images[fmt]
    assert sample_corpus.files.set_index("file").at[name, "status"] == "container"
    files = sample_corpus.files.set_index("file")
    for p, t in truth.items():
        inner = f"{name}/{p}"
        for col in ("format", "kind", "members", "size", "sha256"):
            a, b = files.at[inner, col], files.at[t["loose"], col]
            assert (pd.isna(a) and pd.isna(b)) or a == b, (inner, col, a, b)
        for table, df in sample_corpus.tables.items():
            if table == "files" or "file" not in df.columns:
                continue
            # a container inside the disc: its members are compared by their own names below the disc
            for f_in, f_out in ((inner, t["loose"]),) + tuple(
                    (g, t["loose"] + g[len(inner):]) for g in set(df.file) if g.startswith(inner + "/")):
                a = df[df.file == f_in].drop(columns="file").reset_index(drop=True)
                b = df[df.file == f_out].drop(columns="file").reset_index(drop=True)
                assert len(a) == len(b), (table, f_in)
                offs = [c for c in a.columns if c in ("block_offset", "len_after_block")]
                pd.testing.assert_frame_equal(a.drop(columns=offs), b.drop(columns=offs), check_dtype=False)


def test_disc_without_nod_names_the_extra(samples_dir, disc_images, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "nod_rs", None)  # import nod_rs now fails
    for fmt, (name, _) in disc_images.items():
        with open(samples_dir / name, "rb") as fh, pytest.raises(ParseError, match=r"'disc' extra") as ei:
            disc_members(fh, name)
        assert ei.value.file == name, fmt
        (tmp_path / name.split("/")[-1]).write_bytes((samples_dir / name).read_bytes())
    c = animre.open_corpus(tmp_path, cache=False)  # one error row per image, naming the extra
    assert sorted(c.errors.file) == sorted(n.split("/")[-1] for n, _ in disc_images.values())
    assert c.errors.message.str.contains("'disc' extra").all()


@pytest.mark.parametrize("fmt", ["ISO", "RVZ"])
def test_disc_held_in_memory_is_read_through_a_temporary_copy(samples_dir, disc_images, fmt):
    name, truth = disc_images[fmt]
    img = (samples_dir / name).read_bytes()
    got = {m.name: m.read() for m in disc_members(io.BytesIO(img), f"mem.{fmt.lower()}")}
    assert {p: hashlib.sha256(d).hexdigest() for p, d in got.items()} == {
        p: t["sha256"] for p, t in truth.items()}


def test_wbfs_copy_reads_the_same_files(samples_dir, disc_truth, tmp_path):
    """WBFS (a Wii format nod also writes for GameCube discs; 4 MiB, so it is made here, not a sample)."""
    name, truth = disc_truth
    convert(samples_dir / name, tmp_path / "A.wbfs", "WBFS")
    with open(tmp_path / "A.wbfs", "rb") as fh:
        assert image_format(fh.read(64)) == "WBFS"
        got = {m.name: m.read() for m in disc_members(fh, "A.wbfs")}
    assert {p: hashlib.sha256(d).hexdigest() for p, d in got.items()} == {p: t["sha256"] for p, t in truth.items()}


def _wii_disc(samples_dir, disc_truth):
    """A Wii disc: an update partition, the data partition (the sample .mot and PAK), a channel partition."""
    _, truth = disc_truth
    loose = {p: (samples_dir / t["loose"]).read_bytes() for p, t in truth.items()}
    tree = {"anim": {"0000.mot": loose["anim/0000.mot"]}, "Metroid": {"Metroid1.pak": loose["Metroid/Metroid1.pak"]}}
    img, parts = encode_wii([(1, {"sys.bin": b"update" * 9}), (0, tree), (2, {"c.bin": b"channel"})])
    expect = {f"update0/{p}": (o, s) for p, (o, s) in parts[0][1].items()}
    expect |= parts[1][1]
    expect |= {f"channel2/{p}": (o, s) for p, (o, s) in parts[2][1].items()}
    return img, parts, expect


@pytest.mark.parametrize("fmt", ["ISO", "RVZ"])
def test_wii_disc_partitions_are_members(samples_dir, disc_truth, tmp_path, fmt):
    img, parts, expect = _wii_disc(samples_dir, disc_truth)
    path = tmp_path / "W.iso"
    path.write_bytes(img)
    if fmt != "ISO":
        convert(tmp_path / "W.iso", tmp_path / "W.rvz", fmt)
        path = tmp_path / "W.rvz"
    with open(path, "rb") as fh:
        assert detect_container(fh.read(4096), path.name).name == "gcdisc"
        got = {m.name: m for m in disc_members(fh, path.name)}
    assert {n: (m.offset, m.size) for n, m in got.items()} == expect  # offsets in the partition's data
    for n, m in got.items():
        part = 0 if n.startswith("update0/") else 2 if n.startswith("channel2/") else 1
        at = parts[part][0] + m.offset
        assert m.read() == img[at:at + m.size], n


def test_files_on_a_wii_rvz_parse_as_the_same_files_loose(samples_dir, disc_truth, tmp_path):
    name, truth = disc_truth
    img, _, _ = _wii_disc(samples_dir, disc_truth)
    (tmp_path / "w.iso").write_bytes(img)
    (tmp_path / "disc").mkdir()
    convert(tmp_path / "w.iso", tmp_path / "disc" / "W.rvz", "RVZ")
    (tmp_path / "loose").mkdir()
    for p, t in truth.items():
        (tmp_path / "loose" / p.split("/")[-1]).write_bytes((samples_dir / t["loose"]).read_bytes())
    a = animre.open_corpus(tmp_path / "disc", cache=False)
    b = animre.open_corpus(tmp_path / "loose", cache=False)
    assert a.errors.empty and b.errors.empty
    assert set(a.tables) == set(b.tables) and {"mot", "pas4"} <= set(a.tables)
    for table in a.tables:
        if table == "files" or "file" not in a.tables[table].columns:
            continue
        x = a.tables[table].copy()
        x["file"] = x.file.str.replace(r"^W\.rvz/(anim|Metroid)/", "", regex=True)
        x = x.sort_values(list(x.columns[:2])).reset_index(drop=True)
        y = b.tables[table].sort_values(list(x.columns[:2])).reset_index(drop=True)
        pd.testing.assert_frame_equal(x, y, check_dtype=False, obj=table)


# ---------------------------------------------------------------- hostile containers


def _pak(res=None, named=None) -> bytes:
    res = res or [("ANCS", 1, b"x" * 64, "none"), ("ANCS", 2, b"y" * 5000, "zlib"), ("ANCS", 3, b"z" * 20000, "lzo")]
    return encode_pak(res, named or {})


def _table(pak: bytes) -> int:
    """Offset of the first resource entry."""
    (n,) = struct.unpack_from(">I", pak, 8)
    pos = 12
    for _ in range(n):
        pos += 12 + struct.unpack_from(">I", pak, pos + 8)[0]
    return pos + 4


def _set(data: bytes, at: int, fmt: str, *v) -> bytes:
    b = bytearray(data)
    struct.pack_into(fmt, b, at, *v)
    return bytes(b)


def _entry(pak: bytes, i: int) -> tuple[int, int, int]:
    at = _table(pak) + 20 * i
    _, _, _, size, off = struct.unpack_from(">I4sIII", pak, at)
    return at, off, size


def _zlib_bomb() -> bytes:
    pak = _pak()
    at, off, size = _entry(pak, 1)
    return _set(pak, off, ">I", 100)  # declares 100 bytes, the zlib stream gives 5000


def _lzo_bomb() -> bytes:
    pak = _pak()
    at, off, size = _entry(pak, 2)
    return _set(pak, off, ">I", 0x4000 + 7)  # declares one segment and 7 bytes: the segments give more


def _pak_in_itself() -> bytes:
    pak = _pak()
    at, _, _ = _entry(pak, 0)
    return _set(pak, at + 12, ">II", len(pak), 0)  # resource 0 is the whole PAK


def _disc(mutate) -> bytes:
    img, _ = encode_gcm({"anim": {"a.mot": b"m" * 100}, "b.bin": b"b" * 10})
    return mutate(img)


def _fst_at(img: bytes) -> int:
    return struct.unpack_from(">I", img, 0x424)[0]


HOSTILE_PAKS = {
    "offset_outside": (lambda: _set(_pak(), _entry(_pak(), 0)[0] + 16, ">I", 10**6), "resources[0]", None),
    "size_outside": (lambda: _set(_pak(), _entry(_pak(), 1)[0] + 12, ">I", 0xFFFFFF00), "resources[1]", None),
    "resource_count_2_32": (lambda: _set(_pak(), _table(_pak()) - 4, ">I", 0xFFFFFFFF), "num_resources", None),
    "named_count_2_32": (lambda: _set(_pak(), 8, ">I", 0xFFFFFFFF), "num_named_resources", None),
    "name_not_text": (lambda: _pak(named={("ANCS", 1): "ab\x01\x7f"}), "named_resources[0].name", None),
    "name_with_slash": (lambda: _pak(named={("ANCS", 1): "../../etc"}), "named_resources[0].name", None),
    "bad_type": (lambda: _pak([("AN\x00S", 1, b"x", "none")]), "resources[0].type", None),
    "claims_4_gb": (lambda: _set(_pak(), _entry(_pak(), 1)[1], ">I", 0xFFFFFFFF), "decompressed_size",
                    "2.ANCS"),
    "zlib_expands": (_zlib_bomb, "zlib_data", "2.ANCS"),
    "lzo_expands": (_lzo_bomb, "lzo_segments", "3.ANCS"),
}


def _bounded(fn, size: int):
    tracemalloc.start()
    try:
        fn()
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert peak < 200 * size + 16_000_000, peak


@pytest.mark.parametrize("case", sorted(HOSTILE_PAKS))
def test_hostile_pak_is_a_parse_error(case):
    build, path, member = HOSTILE_PAKS[case]
    data = build()
    name = "H.pak"

    def run():
        with pytest.raises(ParseError) as ei:
            for m in pak_members(io.BytesIO(data), name):
                m.read()
        e = ei.value
        assert e.path.startswith(path), (case, str(e))
        assert e.file == (name if member is None else f"{name}/0000000{member}"), (case, e.file)
        assert 0 <= e.offset < len(data), (case, e.offset)
        if case in ("zlib_expands", "lzo_expands", "claims_4_gb"):
            assert "declared" in e.reason or "bomb" in e.reason
    _bounded(run, len(data))


HOSTILE_DISCS = {
    "fst_outside": (lambda img: _set(img, 0x428, ">I", 0xFFFFFF00), "header.fst_size"),
    "entry_count_2_32": (lambda img: _set(img, _fst_at(img) + 8, ">I", 0xFFFFFFFF), "fst.num_entries"),
    "file_outside": (lambda img: _set(img, _fst_at(img) + 12 * 3 + 8, ">I", 0xFFFFFFF0), "fst.entries[3]"),
    "dir_not_nested": (lambda img: _set(img, _fst_at(img) + 12 * 1 + 8, ">I", 99), "fst.entries[1].next"),
    "name_not_text": (lambda img: img.replace(b"a.mot\0", b"a\xffmot\0"), "fst.entries"),
    "name_offset_outside": (lambda img: _set(img, _fst_at(img) + 12 * 2, ">I", 0x00FFFFF0), "fst.entries[2]"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_DISCS))
def test_hostile_disc_is_a_parse_error(case):
    mutate, path = HOSTILE_DISCS[case]
    data = _disc(mutate)

    def run():
        with pytest.raises(ParseError) as ei:
            disc_members(io.BytesIO(data), "H.gcm")
        assert ei.value.file == "H.gcm" and ei.value.path.startswith(path), (case, str(ei.value))
        assert 0 <= ei.value.offset < len(data)
    _bounded(run, len(data))


@pytest.fixture(scope="module")
def small_images(tmp_path_factory) -> dict[str, bytes]:
    """The hand-made disc of the hostile cases (``_disc``), as nod's writer stores it in each format."""
    d = tmp_path_factory.mktemp("images")
    (d / "s.gcm").write_bytes(_disc(lambda i: i))
    out = {}
    for fmt in IMAGE_FORMATS:
        convert(d / "s.gcm", d / f"s.{fmt.lower()}", fmt)
        out[fmt] = (d / f"s.{fmt.lower()}").read_bytes()
    return out


def _cut(n):
    return lambda b: b[:n] if n > 0 else b[:len(b) + n]


def _half(b: bytes) -> bytes:
    return b[:len(b) // 2]


def _flip(at: int):
    return lambda b: b[:at] + bytes([b[at] ^ 0x10]) + b[at + 1:]


HOSTILE_IMAGES = {  # (format, case): (mutation of the image, field path the error names)
    ("RVZ", "cut_in_header"): (_cut(0x30), "wia_header"),
    ("RVZ", "cut_in_half"): (_half, "wia_header.wia_file_size"),
    ("RVZ", "last_byte_cut"): (_cut(-1), "wia_header.wia_file_size"),
    ("RVZ", "says_one_byte_more"): (lambda b: _set(b, 0x2C, ">Q", len(b) + 1), "wia_header.wia_file_size"),
    ("RVZ", "disc_of_2_40_bytes"): (lambda b: _set(b, 0x24, ">Q", 1 << 40), "wia_header.iso_file_size"),
    ("RVZ", "header_2_flipped"): (_flip(0x50), "rvz"),  # nod checks the header's SHA-1
    ("WIA", "cut_in_half"): (_half, "wia_header.wia_file_size"),
    ("GCZ", "cut_in_header"): (_cut(20), "gcz_header"),
    ("GCZ", "cut_in_half"): (_half, "gcz_header.compressed_data_size"),
    ("GCZ", "disc_of_2_40_bytes"): (lambda b: _set(b, 16, "<Q", 1 << 40), "gcz_header.data_size"),
    ("CISO", "cut_in_header"): (_cut(0x100), "ciso_header"),
    ("CISO", "cut_in_half"): (_half, "ciso_header.block_map"),
}


def _wii(mutate) -> bytes:
    return mutate(encode_wii([(0, {"a.bin": b"x" * 10})])[0])


HOSTILE_WII = {  # plain Wii images: partition table (0x40000) and partition header (0x50000) fields
    "wii_2_32_partitions": (lambda b: _set(b, 0x40000, ">I", 0xFFFFFFFF), "partition_table.groups"),
    "wii_2_28_partitions": (lambda b: _set(b, 0x40000, ">I", 0x10000000), "partition_table.groups"),
    "wii_table_outside": (lambda b: _set(b, 0x40004, ">I", 0x3FFFFFFF), "partition_table.groups"),
    "wii_partition_outside": (lambda b: _set(b, 0x40020, ">I", 0x3FFFFFF0), "partition_table.entries"),
    "wii_data_size_4_gb": (lambda b: _set(b, 0x502BC, ">I", 0xFFFFFFFF), "iso"),
    "wii_tmd_4_gb": (lambda b: _set(b, 0x502A4, ">II", 0xFFFFFFFF, 0x100), "partitions[0].header"),
}


def _hostile_images(small_images) -> dict[str, tuple[bytes, str]]:
    """{file name: (bytes, field path)}: the damaged images, and the hostile GCMs as nod's writer stores them in RVZ."""
    out = {f"{case}.{fmt.lower()}": (mutate(small_images[fmt]), path)
           for (fmt, case), (mutate, path) in HOSTILE_IMAGES.items()}
    with tempfile.TemporaryDirectory() as tmp:
        for case, (mutate, path) in HOSTILE_DISCS.items():
            (Path(tmp) / "h.gcm").write_bytes(_disc(mutate))
            convert(Path(tmp) / "h.gcm", Path(tmp) / "h.rvz", "RVZ")
            out[f"{case}.rvz"] = ((Path(tmp) / "h.rvz").read_bytes(), path)
    out |= {f"{case}.iso": (_wii(mutate), path) for case, (mutate, path) in HOSTILE_WII.items()}
    return out


def test_hostile_compressed_images_are_one_error_row(small_images, samples_dir, disc_images, tmp_path):
    """Truncated and damaged RVZ/WIA/GCZ/CISO images, hostile file system tables inside an RVZ, hostile
    Wii partition tables (2^32 partitions: nod reports it cannot allocate, and goes on):
    each is one error row naming the image, the field and an offset in the image (its header) or in the
    disc it holds (the file system table); the scan goes on (a good RVZ in the same folder parses)."""
    cases = _hostile_images(small_images)
    for fname, (data, _) in cases.items():
        (tmp_path / fname).write_bytes(data)
    (tmp_path / "good.rvz").write_bytes((samples_dir / disc_images["RVZ"][0]).read_bytes())
    c = animre.open_corpus(tmp_path, cache=False)
    errs = c.errors.set_index("file")
    assert errs.index.is_unique and set(errs.index) == set(cases)
    disc_size = len(_wii(lambda i: i))
    for fname, (data, path) in cases.items():
        e = errs.loc[fname]
        assert e.path.startswith(path), (fname, e.path, e.message)
        assert 0 <= e.offset < max(len(data), disc_size), (fname, e.offset)
    inside = c.files[c.files.container == "good.rvz"].set_index("file").status.to_dict()
    assert inside == {"good.rvz/anim/0000.mot": "parsed", "good.rvz/Metroid/Metroid1.pak": "container"}


def test_hostile_compressed_images_stay_bounded_in_native_memory(small_images, samples_dir, disc_images, tmp_path):
    """nod's own allocations are invisible to tracemalloc: a fresh interpreter opens every hostile image,
    every 61st truncation and every 37th one-byte flip of the sample RVZ, reads every member it lists, and
    its peak resident memory grows by less than 64 MB."""
    cases = {n: d for n, (d, _) in _hostile_images(small_images).items()}
    rvz = (samples_dir / disc_images["RVZ"][0]).read_bytes()
    cases |= {f"cut{i}.rvz": rvz[:i] for i in range(1, len(rvz), 61)}
    cases |= {f"flip{i}.rvz": _flip(i)(rvz) for i in range(0, len(rvz), 37)}
    for n, d in cases.items():
        (tmp_path / n).write_bytes(d)
    code = (
        "import json, os, resource, sys\n"
        "from animre.sources.containers.gcdisc import members\n"
        "from animre.base.errors import ParseError\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "outcome = {}\n"
        "for n in sorted(os.listdir(sys.argv[1])):\n"
        "    try:\n"
        "        with open(os.path.join(sys.argv[1], n), 'rb') as fh:\n"
        "            ms = members(fh, n)\n"
        "            for m in ms:\n"
        "                try:\n"
        "                    m.read()\n"
        "                except ParseError:\n"
        "                    pass\n"
        "        outcome[n] = 'listed'\n"
        "    except ParseError as e:\n"
        "        outcome[n] = 'error' if e.file == n else 'misnamed'\n"
        "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(json.dumps({'grew_kb': after - before, 'outcome': outcome}))\n")
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=300,
                       env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)})
    assert r.returncode == 0, r.stderr[-2000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got["grew_kb"] < 64 * 1024, got["grew_kb"]
    assert set(got["outcome"]) == set(cases)
    assert "misnamed" not in got["outcome"].values()
    assert all(got["outcome"][n] == "error" for n in cases if n.startswith("cut"))  # every truncation


def test_valid_hand_made_containers_read(tmp_path):
    """The builders above make valid containers: the hostile cases differ from them only in the mutation."""
    pak = _pak()
    got = {m.name: m.read() for m in pak_members(io.BytesIO(pak), "ok.pak")}
    assert got == {"00000001.ANCS": b"x" * 64, "00000002.ANCS": b"y" * 5000, "00000003.ANCS": b"z" * 20000}
    assert [p for p, _, _ in fst_files(io.BytesIO(_disc(lambda i: i)), "ok.gcm")] == ["anim/a.mot", "b.bin"]
    assert struct.unpack_from(">I", compress(b"q" * 10, "zlib"))[0] == 10
    assert zlib.decompress(compress(b"q" * 10, "zlib")[4:]) == b"q" * 10


def test_hostile_files_are_error_rows_and_the_scan_goes_on(tmp_path, samples_dir, pak_truth):
    """Every hostile container in one folder with a good PAK: error rows, and the good PAK still parses."""
    name, truth = pak_truth
    (tmp_path / "good.pak").write_bytes((samples_dir / name).read_bytes())
    for case, (build, _, _) in HOSTILE_PAKS.items():
        (tmp_path / f"{case}.pak").write_bytes(build())
    (tmp_path / "self.pak").write_bytes(_pak_in_itself())
    for case, (mutate, _) in HOSTILE_DISCS.items():
        (tmp_path / f"{case}.gcm").write_bytes(_disc(mutate))
    c = animre.open_corpus(tmp_path, cache=False)
    errs = c.errors
    for case in HOSTILE_PAKS:
        assert errs.file.str.startswith(f"{case}.pak").any(), case
    for case in HOSTILE_DISCS:
        assert (errs.file == f"{case}.gcm").any(), case
    self_err = errs[errs.message.str.contains("contains itself")]
    assert self_err.file.tolist() == ["self.pak/00000001.ANCS"]
    good = c.tables["pas4"][c.tables["pas4"].file.str.startswith("good.pak/")]
    assert sorted(good.character) == sorted(ch["name"] for t in truth.values() for ch in t["characters"])
    assert not errs.file.str.startswith("good.pak").any()
    assert MAX_MEMBER == 256 * 1024 * 1024


def test_ancs_whose_first_block_lies_past_the_head_is_detected(samples_dir, manifest):
    from animre.formats import detect_format

    bare = next(f for f, e in manifest["formats"]["pas4"]["files"].items() if e["kind"] == "bare"
                and e["num_anim_states"] > 0)
    block = (samples_dir / bare).read_bytes()
    names = [[k, f"Anim_{k:04d}", "anim/long note.txt"] for k in range(300)]
    data, (off,) = encode_ancs([{"id": 1, "name": "Ridley", "anim_names": names}], [block])
    assert off > 4096 and b"PAS4" not in data[:4096]
    fmt, _ = detect_format(data[:4096], len(data), "blob.bin")
    assert fmt is not None and fmt.name == "pas4"
    assert block_info(data, off) == {"character": "Ridley", "located_by": "ANCS structure"}
    _, obj, bases = parse(data, "blob.bin", "pas4")
    assert bases.offset == off and obj.num_anim_states == manifest["formats"]["pas4"]["files"][bare]["num_anim_states"]


def _prime2_character(cid: int, name: str, pas4: bytes) -> bytes:
    """A character info of version 10 (Metroid Prime 2), written here field by field after the
    retro-data-structures ANCS description: no second animation-name string, a single unknown word
    in the particle data, spawn particles, a second unknown word, bone ids, spatial primitives."""
    def ids(*xs):
        return struct.pack(">I", len(xs)) + b"".join(struct.pack(">I", x) for x in xs)
    b = struct.pack(">IH", cid, 10) + name.encode() + b"\0" + struct.pack(">III", 1, 2, 3)
    b += struct.pack(">II", 1, 7) + b"Walk\0"  # one animation name: id, name
    b += pas4
    b += ids(5) + ids() + struct.pack(">I", 0) + ids(6, 7) + ids(8)  # part, swhc, unknown, elsc, spsc
    b += struct.pack(">II", 0, 0)  # unknown, unknown 2
    b += ids()  # animation boxes
    b += struct.pack(">I", 1) + b"Fx\0" + struct.pack(">I", 1) + b"Spark\0"
    b += b"PART" + struct.pack(">IIfII", 9, 4, 1.0, 0, 0)
    b += struct.pack(">II", 0, 0) + ids()  # overlay model and skin, animation index map
    b += struct.pack(">IB", 0xC5C5C5C5, 1) + struct.pack(">I", 1) + struct.pack(">I6f", 3, 0, 0, 0, 1, 1, 1)
    return b


def test_prime2_character_infos_are_walked(samples_dir, manifest):
    bare = [f for f, e in manifest["formats"]["pas4"]["files"].items() if e["kind"] == "bare"][:2]
    blocks = [(samples_dir / f).read_bytes() for f in bare]
    head = struct.pack(">HHI", 1, 1, 2)
    first = _prime2_character(1, "DarkSamus", blocks[0])
    data = head + first + _prime2_character(2, "Splinter", blocks[1]) + bytes(16)
    got = characters(data)
    assert [(c.name, c.info_version) for c in got] == [("DarkSamus", 10), ("Splinter", 10)]
    assert got[0].pas4_offset == data.index(blocks[0]) and got[0].pas4_end == got[0].pas4_offset + len(blocks[0])
    assert got[1].pas4_offset == len(head) + len(first) + data[len(head) + len(first):].index(blocks[1])


def test_a_resource_listed_twice_is_one_member_and_a_clash_keeps_both():
    pak = _pak([("ANCS", 1, b"x" * 64, "none"), ("ANCS", 2, b"y" * 40, "none")])
    at0, off0, size0 = _entry(pak, 0)
    same = _set(pak, at0 + 20 + 8, ">III", 1, size0, off0)  # entry 1 repeats entry 0
    assert [m.name for m in pak_members(io.BytesIO(same), "d.pak")] == ["00000001.ANCS"]
    _, off1, size1 = _entry(pak, 1)
    clash = _set(pak, at0 + 20 + 8, ">I", 1)  # entry 1: same type and id, other bytes
    got = {m.name: m.read()[:2] for m in pak_members(io.BytesIO(clash), "d.pak")}
    assert got == {"00000001.ANCS": b"xx", "00000001-1.ANCS": b"yy"}
