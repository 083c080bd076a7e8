"""Evidence rules of inference, each on a planted layout: what is enforced, how a magic ends, the spec's id.

Files are written here with ``random`` and ``struct``; the planted layout is the truth.
"""

from __future__ import annotations

import random
import struct

import pytest
import yaml

import animre
from animre.base.errors import ParseError
from animre.samples import synthetic as syn
from animre.spec.parse import parse_bytes


def _files(n: int, head: bytes, seed: int = 1, body: int = 40) -> list[tuple[str, bytes]]:
    rng = random.Random(seed)
    return [(f"f{i}.bin", head + bytes(rng.randrange(256) for _ in range(body + rng.randrange(8))))
            for i in range(n)]


def test_a_zero_that_happens_in_every_file_is_no_magic_and_is_not_enforced():
    files = _files(7, bytes(4))  # 4 zero bytes at the start of the 7 files, random bytes after
    spec = animre.infer_spec(files, name="zeros")
    seq = yaml.safe_load(spec.ksy)["seq"]
    assert not any("contents" in f or "valid" in f for f in seq), spec.ksy
    nxt = b"\x01\x02\x03\x04" + bytes(60)  # the next file found holds something else there: still read
    parse_bytes(nxt, animre.spec.compile_spec(spec.ksy), "next.bin")


def test_a_text_magic_does_not_swallow_the_size_after_it():
    # "DDS " then a header size of 124 (0x7c, a printable '|') as u4le, then random bytes
    files = _files(8, b"DDS " + struct.pack("<I", 124))
    spec = animre.infer_spec(files, name="dds_like")
    seq = yaml.safe_load(spec.ksy)["seq"]
    assert seq[0]["id"] == "magic" and seq[0]["contents"] == "DDS "
    assert seq[1].get("type") == "u4" and "= 0x7c" in seq[1]["doc"] and "valid" not in seq[1]


def test_a_binary_magic_is_written_as_hex_bytes():
    spec = animre.infer_spec(_files(8, b"\x1f\x8b\x08"), name="gz_like")
    assert "contents: [0x1f, 0x8b" in spec.ksy


def test_a_constant_never_rejects_the_next_file():
    files = _files(6, b"MAGI" + bytes([3, 0]))  # a version byte 3 in the 6 files seen
    spec = animre.infer_spec(files, name="ver")
    mod = animre.spec.compile_spec(spec.ksy)
    parse_bytes(b"MAGI" + bytes([4, 0]) + bytes(44), mod, "v4.bin")  # version 4: read, not rejected
    try:
        parse_bytes(b"MAGX" + bytes(46), mod, "other.bin")
    except ParseError as e:
        assert e.path == "magic"  # the magic is what is enforced
    else:
        raise AssertionError("a file without the magic was read as this format")


def test_the_spec_id_comes_from_the_output_name(tmp_path):
    spec = animre.infer_spec(_files(6, b"TILE"))
    out = tmp_path / "My-Tiles.ksy"
    spec.save(out)
    meta = yaml.safe_load(out.read_text())["meta"]
    assert meta["id"] == "my_tiles" and meta["title"].startswith("my_tiles ")
    (tmp_path / "none").mkdir()
    c = animre.open_corpus(tmp_path / "none", specs=[out], formats=["my_tiles"], cache=False)
    assert "my_tiles" in c.formats
    named = animre.infer_spec(_files(6, b"TILE"), name="given")
    named.save(tmp_path / "other.ksy")
    assert yaml.safe_load((tmp_path / "other.ksy").read_text())["meta"]["id"] == "given"


def test_leave_one_out_reads_the_file_left_out():
    loo = animre.infer.leave_one_out(_files(8, b"LOO1" + struct.pack("<H", 2)), trials=3)
    assert len(loo) == 3 and loo["parses"].all(), loo


def test_a_magic_past_the_start_and_an_array_of_floats():
    rng = random.Random(5)
    files = []
    for i in range(8):  # a version byte, 3 floats, then "SCRM" at 16, then random bytes
        body = bytes([i % 3]) + bytes(3) + struct.pack("<3f", *(rng.uniform(-50, 50) for _ in range(3)))
        files.append((f"s{i}.bin", body + b"SCRM" + bytes(rng.randrange(256) for _ in range(30 + i))))
    spec = animre.infer_spec(files, name="later")
    seq = yaml.safe_load(spec.ksy)["seq"]
    assert {"id": "magic_0x10", "contents": "SCRM"}.items() <= next(f for f in seq if f.get("contents")).items()
    arr = [f for f in seq if f.get("repeat") == "expr"]
    assert arr and arr[0]["type"] == "f4" and arr[0]["repeat-expr"] == 3, spec.ksy
    assert seq[-1].get("size-eos") is True  # the bytes to the end: to the end of a longer or shorter next file
    parse_bytes(files[0][1][:20] + bytes(3), animre.spec.compile_spec(spec.ksy), "short.bin")


def test_a_two_byte_magic_past_a_size_and_a_version_that_is_not_one():
    rng = random.Random(21)
    files = []
    for i in range(8):  # u4le file size, magic E0 A5, u2le frames, u2le version 1.04 (04 01) in every file, random
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(40, 400)))
        files.append((f"a{i}.ase", struct.pack("<I", 10 + len(body)) + b"\xe0\xa5"
                      + struct.pack("<H", rng.randrange(1, 300)) + b"\x04\x01" + body))
    spec = animre.infer_spec(files, name="ase_like")
    seq = yaml.safe_load(spec.ksy)["seq"]
    by = {f["id"]: f for f in seq}
    magic = [f for f in seq if "contents" in f]
    assert [bytes(f["contents"]) for f in magic] == [b"\xe0\xa5"], spec.ksy
    # the version is documented, not enforced: the next file's version 1.05 still parses
    assert not any("contents" in f or "valid" in f for f in seq if f is not by.get("len_file_0x00") and f not in magic)
    nxt = struct.pack("<I", 20) + b"\xe0\xa5\x07\x00\x05\x01" + bytes(10)
    parse_bytes(nxt, animre.spec.compile_spec(spec.ksy), "next.ase")


@pytest.mark.parametrize("n", [5, 30])  # 5 files: the table directory's evidence inside each file decides
def test_a_table_of_offsets_starts_where_its_offsets_do_with_count_plus_two_entries_of_24_bits(n):
    files = syn.syns_files(n, seed=5)
    spec = animre.infer_spec([(n, d) for n, d, _ in files], name="sprites")
    doc = yaml.safe_load(spec.ksy)
    count = doc["seq"][0]["id"]
    table = next(v for v in doc["instances"].values() if v.get("repeat") == "expr")
    assert table["pos"] == 14 and table["repeat-expr"] == f"{count} + 2", spec.ksy
    rec = doc["types"][table["type"]]["seq"]
    assert rec[0]["type"] == "b24le" and rec[1]["type"] == "u1", spec.ksy  # the offset, then its format byte
    mod = animre.spec.compile_spec(spec.ksy)
    for name, data, v in syn.syns_files(3, seed=99):  # files the spec never saw: every planted offset read
        obj = parse_bytes(data, mod, name)
        got = [getattr(r, rec[0]["id"]) for r in getattr(obj, next(k for k, v in doc["instances"].items()
                                                                   if v is table))]
        assert got == v["offsets"]


def test_a_table_of_exactly_count_entries_keeps_its_start():
    files = syn.syns_files(30, seed=6, extra=False)
    spec = animre.infer_spec([(n, d) for n, d, _ in files], name="plain")
    doc = yaml.safe_load(spec.ksy)
    count = doc["seq"][0]["id"]
    tables = [v for v in (doc.get("instances") or {}).values() if v.get("repeat") == "expr"] + \
             [f for f in doc["seq"] if f.get("repeat") == "expr" and f.get("repeat-expr") == count]
    assert tables and all(t.get("repeat-expr") == count for t in tables), spec.ksy


def test_a_spec_without_a_magic_opens_the_folder_it_was_inferred_from_by_the_files_suffix(tmp_path):
    folder = tmp_path / "sprites"
    folder.mkdir()
    files = syn.syns_files(12, seed=7)
    for name, data, _ in files:
        (folder / name).write_bytes(data)
    spec = animre.infer_spec(folder, name="sprites")
    assert "contents" not in spec.ksy and yaml.safe_load(spec.ksy)["meta"]["file-extension"] == "shp"
    spec.save(tmp_path / "sprites.ksy")
    c = animre.open_corpus(folder, specs=[tmp_path / "sprites.ksy"], formats=["sprites"], cache=False,
                           progress=False)
    assert sorted(c.tables["sprites"]["file"]) == sorted(n for n, _, _ in files)
    table = next(t for t in c.tables if t.startswith("sprites_records"))
    assert len(c.tables[table]) == sum(len(v["offsets"]) for _, _, v in files)  # count + 2 entries per file


def test_a_text_magic_keeps_the_end_of_text_byte_that_guards_it():
    files = _files(8, b"NES\x1a")  # iNES: "NES" and DOS's end-of-text byte
    seq = yaml.safe_load(animre.infer_spec(files, name="rom").ksy)["seq"]
    assert seq[0]["id"] == "magic" and seq[0]["contents"] == [0x4E, 0x45, 0x53, 0x1A]


def test_a_magic_that_is_one_of_two_texts_is_enforced_as_either():
    files = [(n, (b"IWAD" if i % 3 else b"PWAD") + d) for i, (n, d) in enumerate(_files(9, b"", body=60))]
    spec = animre.infer_spec(files, name="wadlike")
    seq = yaml.safe_load(spec.ksy)["seq"]
    assert seq[0]["id"] == "magic" and sorted(seq[0]["valid"]["any-of"]) == ['"IWAD"', '"PWAD"'], spec.ksy
    mod = animre.spec.compile_spec(spec.ksy)
    parse_bytes(b"PWAD" + bytes(60), mod, "next.wad")
    try:
        parse_bytes(b"XWAD" + bytes(60), mod, "other.wad")
    except ParseError as e:
        assert e.path == "magic"
    else:
        raise AssertionError("a file with neither text was read as this format")


def test_a_directory_at_the_end_is_read_from_its_offset_with_its_length_as_size():
    spec = animre.infer_spec([(n, d) for n, d, _ in syn.synp_files(20, seed=4)], name="pak")
    doc = yaml.safe_load(spec.ksy)
    ofs, length = doc["seq"][1]["id"], doc["seq"][2]["id"]  # the two header words after the magic
    key, body = next((k, v) for k, v in doc["instances"].items() if v.get("pos") == ofs)
    assert body.get("size") == length, spec.ksy
    records = doc["types"][body["type"]]["seq"][0]  # the directory's 64-byte entries, as many as fill it
    assert records["repeat"] == "eos" and doc["types"][records["type"]]["seq"][0]["type"] == "str", spec.ksy
    mod = animre.spec.compile_spec(spec.ksy)
    for name, data, v in syn.synp_files(3, seed=40):  # files the spec never saw
        obj = parse_bytes(data, mod, name)
        assert (getattr(obj, ofs), getattr(obj, length)) == (v["ofs_dir"], v["len_dir"])
        assert len(getattr(obj, key).records) == v["len_dir"] // 64


def test_a_packed_little_endian_record_at_odd_offsets_is_read_little_endian(samples_dir):
    # HoMM2's 821-byte FRM record: a byte, then signed 16-bit words at 1 and 3, floats and words at odd offsets
    spec = animre.infer_spec(samples_dir / "frm", name="frm")
    assert yaml.safe_load(spec.ksy)["meta"]["endian"] == "le"


def _frame_lists(n: int, seed: int) -> list[tuple[str, bytes]]:
    """A fixed 130-byte record: a u2 id, 6 slots of 16 frame ids each (small, consecutive, the slot's unused
    tail 0xFF; the last 6 positions of every slot unused in every file), then 32 bytes of other data."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        slots = b""
        for _ in range(6):
            k = rng.randrange(9, 11)
            first = rng.randrange(0, 40)
            slots += bytes(range(first, first + k)) + b"\xff" * (16 - k)
        other = bytes(rng.randrange(256) for _ in range(32))
        out.append((f"R{i:02d}.BIN", struct.pack("<H", rng.randrange(1, 999)) + slots + other))
    return out


def test_small_ids_with_unused_slots_of_0xff_are_arrays_and_the_fill_is_never_a_magic():
    spec = animre.infer_spec(_frame_lists(12, seed=3), name="frames")
    doc = yaml.safe_load(spec.ksy)
    assert "contents" not in spec.ksy and "valid" not in spec.ksy, spec.ksy  # FF FF FF FF in every file: a fill
    arrays = [f for f in doc["seq"] if f.get("type") == "u1" and f.get("repeat") == "expr"]
    assert arrays and all("0xFF (unused)" in f["doc"] for f in arrays), spec.ksy
    nxt = bytearray(_frame_lists(1, seed=30)[0][1])
    nxt[2 + 15] = 7  # the next file uses a slot every file seen left unused: still read
    parse_bytes(bytes(nxt), animre.spec.compile_spec(spec.ksy), "next.bin")


def _versions(n: int, seed: int, short: bool = False) -> list[tuple[str, bytes]]:
    """``XYZ1`` (u2 count, u4 file size) and ``XYZ2`` (u4 count, u4 flags, u4 file size) headers, then data."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(5, 10) if short else rng.randrange(50, 300)))
        if i % 2:
            d = b"XYZ1" + struct.pack("<HI", rng.randrange(1, 50), 0) + body
            d = d[:6] + struct.pack("<I", len(d)) + d[10:]
        else:
            d = b"XYZ2" + struct.pack("<III", rng.randrange(1, 50), rng.choice([1, 3, 5]), 0) + body
            d = d[:12] + struct.pack("<I", len(d)) + d[16:]
        out.append((f"f{i}.xyz", d))
    return out


def test_a_version_s_layout_reads_a_next_file_shorter_than_any_seen_to_its_end():
    spec = animre.infer_spec(_versions(24, seed=2), name="xyz")
    doc = yaml.safe_load(spec.ksy)
    assert len(doc["seq"][-1]["type"]["cases"]) == 2, spec.ksy  # one layout per version
    mod = animre.spec.compile_spec(spec.ksy)
    for name, data in _versions(2, seed=20, short=True):  # 5 to 9 bytes of data: fewer than in any file seen
        obj = parse_bytes(data, mod, name)
        assert obj._io.pos() == len(data)


def _archive(n: int, seed: int, random_dir: bool = False) -> list[tuple[str, bytes]]:
    """``ARCV``, a u4le entry count, a u4le offset to a directory after the data, then the data, the directory
    (per entry: u4le offset and u4le size of its data, an 8-byte name) and a trailer of 1 to 40 random bytes, so
    that no relation ends the directory at the file's end. ``random_dir``: random bytes where the directory is."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        k = rng.randrange(2, 30)
        data, entries = b"", []
        for j in range(k):
            blob = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 200)))
            entries.append((12 + len(data) if blob else 0, len(blob), f"LUMP{j:03d}".encode()[:8]))
            data += blob
        directory = b"".join(struct.pack("<II", o, s) + name.ljust(8, b"\0") for o, s, name in entries)
        if random_dir:
            directory = bytes(rng.randrange(256) for _ in range(len(directory)))
        trailer = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 41)))
        out.append((f"a{i}.arc", b"ARCV" + struct.pack("<II", k, 12 + len(data)) + data + directory + trailer))
    return out


def test_a_count_of_the_entries_of_a_directory_an_offset_points_at_is_used_as_repeat_expr():
    files = _archive(12, seed=31)
    spec = animre.infer_spec(files, name="arcv")
    doc = yaml.safe_load(spec.ksy)
    (inst,) = [v for v in doc["instances"].values() if v.get("repeat") == "expr"]
    assert inst["pos"] == "ofs_0x08" and inst["repeat-expr"] == "num_0x04", spec.ksy
    mod = animre.spec.compile_spec(spec.ksy)
    for name, data in _archive(3, seed=32):  # files not seen: every planted entry read where it is
        obj = parse_bytes(data, mod, name)
        k, at = struct.unpack_from("<II", data, 4)
        recs = getattr(obj, next(iter(doc["instances"])))
        assert len(recs) == k
        first = doc["types"][inst["type"]]["seq"][0]["id"]  # the entry's data offset, as planted
        assert [getattr(r, first) for r in recs] == [struct.unpack_from("<I", data, at + 16 * j)[0] for j in range(k)]


def test_random_bytes_where_an_offset_points_are_no_directory():
    spec = animre.infer_spec(_archive(12, seed=33, random_dir=True), name="arcr")
    assert "repeat-expr" not in spec.ksy, spec.ksy


def _flagged(n: int, seed: int) -> list[tuple[str, bytes]]:
    """``FLGS``, a u2le version 0x0102, two flag bytes at 6 and 7 (bits, as planted), two zero bytes, a u4le length
    of at most 200 at 10 (off a multiple of 4, its high bytes 0), then random bytes."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        head = b"FLGS" + struct.pack("<H", 0x0102) + bytes([rng.choice([0, 1, 2, 16, 17, 48, 64]),
                                                            rng.choice([0, 8])]) + bytes(2)
        head += struct.pack("<I", rng.randrange(1, 200))
        out.append((f"g{i}.flg", head + bytes(rng.randrange(256) for _ in range(rng.randrange(40, 80)))))
    return out


def test_flag_bytes_off_a_multiple_of_4_are_not_one_32_bit_integer_and_a_small_length_is():
    spec = animre.infer_spec(_flagged(20, seed=41), name="flagged")
    by = {f.offset: f for f in spec.layout.fields}
    assert 6 in by and by[6].end <= 8, spec.ksy  # the flags end where the planted zero bytes start
    assert by[10].width == 4 and by[10].type == "u4le", spec.ksy  # high bytes constant: one integer


def _sized(n: int, seed: int, unset: int) -> list[tuple[str, bytes]]:
    """``SIZD``, a u4le holding the file's size (0 in the first ``unset`` files: left unset), then random bytes."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(40, 400)))
        out.append((f"s{i}.szd", b"SIZD" + struct.pack("<I", 0 if i < unset else 8 + len(body)) + body))
    return out


def test_a_file_size_left_unset_in_a_few_files_is_still_the_file_size_and_0_is_accepted():
    spec = animre.infer_spec(_sized(24, seed=51, unset=2), name="sized")
    f = spec.layout.by_offset(4)
    assert f is not None and f.role == "file_size" and "0 (unset) in 2" in f.evidence, spec.ksy
    mod = animre.spec.compile_spec(spec.ksy)
    parse_bytes(b"SIZD" + bytes(4) + bytes(50), mod, "unset.szd")  # a next file that left it unset: read
    parse_bytes(b"SIZD" + struct.pack("<I", 58) + bytes(50), mod, "set.szd")
    with pytest.raises(ParseError):
        parse_bytes(b"SIZD" + struct.pack("<I", 57) + bytes(50), mod, "wrong.szd")


def test_a_field_that_is_0_in_many_files_is_no_file_size():
    spec = animre.infer_spec(_sized(24, seed=52, unset=12), name="halfsized")  # half the files: not a few
    assert not any(f.role == "file_size" for f in spec.layout.fields), spec.ksy


def _offsets(n: int, seed: int) -> list[tuple[str, bytes]]:
    """``SPRX``, 16 signed one-byte x offsets of -30..30 (of both signs), a u2le width of 300 to 60000, then 40 to
    80 random bytes. (A small positive field right after the offsets would be read as one more element.)"""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        xs = bytes(rng.randrange(-30, 31) % 256 for _ in range(16))
        out.append((f"x{i}.spr", b"SPRX" + xs + struct.pack("<H", rng.randrange(300, 60000))
                    + bytes(rng.randrange(256) for _ in range(rng.randrange(40, 80)))))
    return out


def test_small_signed_bytes_in_a_row_are_an_array_of_s1():
    spec = animre.infer_spec(_offsets(8, seed=61), name="sprx")
    xs = [spec.layout.by_offset(o) for o in range(4, 20)]
    assert all(f is not None and f.type == "s1" for f in xs), spec.ksy
    assert "type: s1" in spec.ksy and "repeat-expr: 16" in spec.ksy, spec.ksy


def test_a_quiet_8_bit_signal_is_no_array_of_signed_bytes():
    rng = random.Random(62)
    files = [(f"q{i}.raw", bytes(int(rng.gauss(0, 12)) % 256 for _ in range(rng.randrange(900, 2000))))
             for i in range(10)]
    spec = animre.infer_spec(files, name="quiet")
    assert "s1" not in spec.ksy and "signed byte" not in spec.ksy, spec.ksy


def test_an_integer_s_constant_high_bytes_after_random_bytes_are_no_float():
    rng = random.Random(71)  # a random u4 id, a zero byte, a 320 x 200 screen (u2le each): bytes 2..5 as f4 are ~2.0
    files = [(f"b{i}.bk", struct.pack("<IBHH", rng.randrange(1 << 32), 0, 320, 200)
              + bytes(rng.randrange(256) for _ in range(rng.randrange(40, 90)))) for i in range(9)]
    spec = animre.infer_spec(files, name="screen")
    assert not any(f.role == "float" for f in spec.layout.fields), spec.ksy


def test_small_signed_bytes_in_the_data_past_the_header_are_no_array():
    rng = random.Random(63)  # HDRX, then random data in which 16 bytes happen to be small signed values

    def one(n: int) -> bytes:
        data = bytearray(rng.randrange(256) for _ in range(n))
        data[68:84] = bytes(rng.randrange(-30, 31) % 256 for _ in range(16))
        return b"HDRX" + bytes(data[4:])

    spec = animre.infer_spec([(f"d{i}.hdr", one(rng.randrange(300, 600))) for i in range(10)], name="hdrx")
    assert "signed byte" not in spec.ksy, spec.ksy
    parse_bytes(b"HDRX" + bytes(56), animre.spec.compile_spec(spec.ksy), "short.hdr")  # a next, shorter file
