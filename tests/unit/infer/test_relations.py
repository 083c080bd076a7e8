"""Counts and sizes used in the inferred spec, each on a planted layout: ``repeat-expr: <count field>``,
``size: <size field>``, ``pos: <offset field>``. The planted offsets are the truth; the spec's field at each
planted offset must be the one the expression names, and the next file's region must be read as planted.
"""

from __future__ import annotations

import random
import struct

import yaml

import animre
from animre.spec.parse import parse_bytes


def _at(spec, offset: int) -> str:
    """The inferred field's name at a planted byte offset of the root."""
    ev = spec.evidence
    row = ev[(ev["offset"] == offset) & (ev["type"] == ev["type"].iloc[0])]
    assert len(row), (offset, spec.ksy)
    return str(row["field"].iloc[0])


def _instances(spec) -> dict:
    """The inferred spec's root instances, by name."""
    return yaml.safe_load(spec.ksy).get("instances") or {}


def _where(spec, key: str, value) -> list[dict]:
    """The inferred spec's root instances whose ``key`` is ``value``."""
    return [r for r in _instances(spec).values() if r.get(key) == value]


def _region_of(spec, offset: int, key: str) -> dict:
    """The root instance whose ``key`` (``size``, ``repeat-expr``) names the field at a planted offset."""
    got = _where(spec, key, _at(spec, offset))
    assert got, spec.ksy
    return got[0]


def _data_start_and_size(n: int, seed: int) -> list[tuple[str, bytes]]:
    """``SNDX``, u4be where the data starts (a header of 24 to 44 bytes), u4be the data's size, zeros, data."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        h, d = 24 + 4 * rng.randrange(6), rng.randrange(50, 400)
        out.append((f"s{i}.snd", b"SNDX" + struct.pack(">II", h, d) + bytes(h - 12)
                    + bytes(rng.randrange(256) for _ in range(d))))
    return out


def test_an_offset_to_the_data_and_its_size_used_as_pos_and_size():
    spec = animre.infer_spec(_data_start_and_size(7, seed=1), name="snd_like")
    ofs, size = _at(spec, 4), _at(spec, 8)
    inst = _where(spec, "pos", ofs)
    assert inst and inst[0].get("size") == size, spec.ksy
    # the next file: a header of another length, its data read where and as long as planted
    nxt = b"SNDX" + struct.pack(">II", 52, 9) + bytes(40) + b"abcdefghi" + b"tail"
    tree = parse_bytes(nxt, animre.spec.compile_spec(spec.ksy), "next.snd")
    name = next(k for k, r in _instances(spec).items() if r.get("pos") == ofs)
    assert getattr(tree, name) == b"abcdefghi"


def test_a_count_of_records_to_the_end_used_as_repeat_expr():
    rng = random.Random(2)
    files = []
    for i in range(8):  # "RECS", u2le count, u2le 0, then count records of 12 random bytes to the end
        k = rng.randrange(2, 40)
        files.append((f"r{i}.rec", b"RECS" + struct.pack("<HH", k, 0)
                      + bytes(rng.randrange(256) for _ in range(12 * k))))
    spec = animre.infer_spec(files, name="recs")
    assert _region_of(spec, 4, "repeat-expr").get("pos") == 8, spec.ksy


def test_a_chunk_length_after_its_tag_used_as_size():
    rng = random.Random(3)
    files = []
    for i in range(7):  # "CHNK", u4le length of everything after the 8-byte chunk head, then that many bytes
        d = rng.randrange(30, 300)
        files.append((f"c{i}.chk", b"CHNK" + struct.pack("<I", d) + bytes(rng.randrange(256) for _ in range(d))))
    spec = animre.infer_spec(files, name="chunk")
    assert _region_of(spec, 4, "size").get("pos") == 8, spec.ksy


def test_no_size_in_random_bytes_after_a_magic():
    rng = random.Random(4)
    files = [(f"x{i}.bin", b"RAND" + bytes(rng.randrange(256) for _ in range(rng.randrange(40, 400))))
             for i in range(10)]
    spec = animre.infer_spec(files, name="rand")
    assert not spec.evidence["role"].isin(["count", "size", "offset", "file_size"]).any(), spec.ksy


def _fixed_records(n: int = 6, seed: int = 7) -> list[tuple[str, bytes]]:
    """A fixed 56-byte record, no magic: 5 f4le at 0, 8 u2le at 0x14, 12 bytes of at most 5 at 0x24, 8 zeros."""
    rng = random.Random(seed)
    return [(f"r{i}.rec", struct.pack("<5f", *(rng.uniform(0.5, 40) for _ in range(5)))
             + struct.pack("<8H", *(rng.randrange(1, 600) for _ in range(8)))
             + bytes(rng.randrange(6) for _ in range(12)) + bytes(8)) for i in range(n)]


def test_a_fixed_record_of_arrays_with_6_files():
    spec = animre.infer_spec(_fixed_records(), name="rec")
    seq = yaml.safe_load(spec.ksy)["seq"]
    arrays = {(f["type"], f["repeat-expr"]) for f in seq if f.get("repeat") == "expr"}
    assert {("f4", 5), ("u2", 8)} <= arrays, spec.ksy
    assert not any("contents" in f or "valid" in f for f in seq)  # no magic, and the zeros are not enforced
    assert not spec.evidence["role"].isin(["count", "size", "offset", "file_size"]).any()


def test_small_bytes_in_a_row_are_one_u1_array():
    seq = yaml.safe_load(animre.infer_spec(_fixed_records(), name="rec").ksy)["seq"]
    assert any(f.get("type") == "u1" and f.get("repeat-expr") == 12 for f in seq)


def test_a_text_that_is_empty_in_some_files_is_one_str_field():
    rng = random.Random(8)
    words = [b"", b"drum loop", b"", b"bass", b"lead synth", b"", b"pad", b"vox chop"]
    files = []
    for i, w in enumerate(words):  # "NAME", u2le 1, a 16-byte name padded with zeros (empty in 3 files), random
        files.append((f"n{i}.smp", b"NAME\x01\x00" + w.ljust(16, b"\0")
                      + bytes(rng.randrange(256) for _ in range(40 + i))))
    seq = yaml.safe_load(animre.infer_spec(files, name="names").ksy)["seq"]
    text = [f for f in seq if f.get("type") == "str"]
    assert len(text) == 1 and text[0]["id"].endswith("0x06") and 10 <= text[0]["size"] <= 16, seq


def _named(n: int, seed: int) -> list[tuple[str, bytes]]:
    """``NMDX``, u2le flags, u1 length of the name, the name (letters, 1 to 20), then 40 to 200 random bytes."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        name = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz_ ") for _ in range(rng.randrange(1, 21))).encode()
        body = bytes(rng.randrange(128, 256) for _ in range(rng.randrange(40, 200)))  # no text: the name ends
        out.append((f"n{i}.nmd", b"NMDX" + struct.pack("<H", rng.randrange(4)) + bytes([len(name)]) + name + body))
    return out


def test_a_length_prefixed_name_used_as_the_texts_size():
    spec = animre.infer_spec(_named(8, seed=11), name="named")
    length = _at(spec, 6)
    text = [(k, r) for k, r in _instances(spec).items() if r.get("size") == length]
    assert text and text[0][1].get("pos") == 7 and text[0][1].get("type") == "str", spec.ksy
    # the next file: a name longer than any seen, read as planted
    nxt = b"NMDX\x01\x00" + bytes([33]) + b"a_name_longer_than_any_seen_here_" + bytes(range(200, 250))
    tree = parse_bytes(nxt, animre.spec.compile_spec(spec.ksy), "next.nmd")
    assert getattr(tree, text[0][0]) == "a_name_longer_than_any_seen_here_"


def test_a_chunk_length_that_lands_on_the_next_chunks_tag():
    rng = random.Random(12)
    files = []
    for i in range(7):  # "FORM", "fmt ", u4le length (16, 18 or 40), that many bytes, another tag in each file
        k = (16, 18, 40)[i % 3]
        nxt = rng.choice((b"data", b"LIST", b"cue "))
        files.append((f"w{i}.frm", b"FORMfmt " + struct.pack("<I", k) + bytes(rng.randrange(256) for _ in range(k))
                      + nxt + bytes(rng.randrange(256) for _ in range(rng.randrange(1000, 3000)))))
    spec = animre.infer_spec(files, name="form")
    assert _region_of(spec, 8, "size").get("pos") == 12, spec.ksy


def test_two_block_counts_that_tile_the_file():
    rng = random.Random(13)
    files = []
    for i in range(12):  # "ROM\x1a", u1 count of 1 KiB blocks, u1 count of 256-byte blocks, 10 zeros, the blocks
        a, b = rng.randrange(1, 5), rng.randrange(0, 4)
        files.append((f"g{i}.rom", b"ROM\x1a" + bytes([a, b]) + bytes(10)
                      + bytes(rng.randrange(256) for _ in range(1024 * a + 256 * b))))
    spec = animre.infer_spec(files, name="rom")
    a, b = _at(spec, 4), _at(spec, 5)
    sizes = {r.get("size") for r in _instances(spec).values()}
    assert {f"{a} * 1024", f"{b} * 256"} <= sizes, spec.ksy
    nxt = b"ROM\x1a\x02\x03" + bytes(10) + b"\x01" * 2048 + b"\x02" * 768
    tree = parse_bytes(nxt, animre.spec.compile_spec(spec.ksy), "next.rom")
    blocks = [getattr(tree, k) for k, r in _instances(spec).items() if r.get("size") in (f"{a} * 1024", f"{b} * 256")]
    assert sorted(blocks) == [b"\x01" * 2048, b"\x02" * 768]


def test_a_big_endian_offset_is_not_read_as_a_count_of_its_own_halves():
    """A u4be offset equals its high half x 65536 + its low half: no count of 65536-byte records."""
    import numpy as np

    from animre.infer._model import Field
    from animre.infer._roles import relation_fields, views
    from animre.infer._rows import Rows

    rng = random.Random(14)
    vals = [rng.randrange(1 << 16, 7 << 16) for _ in range(24)]
    data = [b"BEOF" + struct.pack(">I", v) + bytes(24) for v in vals]
    rows = Rows.of(data, [v + 5000 for v in vals])
    v = views(rows)
    offsets = {"ofs_0x04": (Field(4, 4, "u4be", "offset"), v[(4, "be")][:, 4]),
               "ofs_0x06": (Field(6, 2, "u2be", "offset"), v[(2, "be")][:, 6])}
    got = relation_fields(rows, v, np.zeros(rows.width, bool), offsets, 0.01, "be")
    assert not [(f.offset, f.type, r.start, r.end) for f, r in got if 4 <= f.offset < 8]


def _tracker(n: int, seed: int) -> list[tuple[str, bytes]]:
    """``TRKR``, u4le header size counted from itself (8 + the order list), u2le song length, u2le tempo, the order
    list (64 entries in half the files, junk past the song's end in some; as long as the song in the others), then
    a block that starts ``09 00 00 00`` (one file: another kind of block)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        song = rng.randrange(8, 30)
        full = i % 2 == 0
        order = [rng.randrange(20) for _ in range(song)]
        if full:
            order += [rng.randrange(256) if i % 4 == 0 else 0 for _ in range(64 - song)]
        nxt = b"\x10\x01\x00\x00" if i == 3 else b"\x09\x00\x00\x00"
        out.append((f"t{i}.trk", b"TRKR" + struct.pack("<IHH", 8 + len(order), song, rng.randrange(60, 200))
                    + bytes(order) + nxt + bytes(rng.randrange(256) for _ in range(rng.randrange(300, 900)))))
    return out


def test_a_header_size_bounds_the_order_list_that_ends_the_header():
    spec = animre.infer_spec(_tracker(20, seed=15), name="trk")
    size = _at(spec, 4)
    assert any(r.get("size") == size and r.get("pos") == 4 for r in _instances(spec).values()), spec.ksy
    # the order list is one u1 array from 12 to where the longest header ends (4 + 8 + 64)
    arr = [f for f in yaml.safe_load(spec.ksy)["seq"] if f.get("id") in (_at(spec, 12), _at(spec, 12) + "_arr")]
    assert arr and arr[0].get("type") == "u1" and arr[0].get("repeat-expr") == 64, spec.ksy


def _frames(n: int, seed: int) -> list[tuple[str, bytes]]:
    """``ANIM``, u2le frame count, u2le speed, 8 zeros, then the frames: u4le the frame's size (its 8-byte head
    included), ``FR``, u2le duration, the frame's pixels."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        frames = [bytes(rng.randrange(256) for _ in range(rng.randrange(4, 90))) for _ in range(rng.randrange(1, 9))]
        body = b"".join(struct.pack("<I", 8 + len(f)) + b"FR" + struct.pack("<H", rng.randrange(50, 200)) + f
                        for f in frames)
        out.append((f"a{i}.anm", b"ANIM" + struct.pack("<HH", len(frames), rng.randrange(1, 30)) + bytes(8) + body))
    return out


def test_frames_chained_by_their_own_sizes_counted_in_the_header():
    spec = animre.infer_spec(_frames(12, seed=17), name="anm")
    count = _at(spec, 4)
    chain = _where(spec, "repeat-expr", count)
    assert chain and chain[0].get("pos") == 16, spec.ksy
    # the next file: three frames of other sizes, each read whole (a frame's bytes past the record's head: its body)
    frames = [bytes(range(30)), bytes(range(120)), bytes(range(17))]
    nxt = b"ANIM" + struct.pack("<HH", 3, 5) + bytes(8) + b"".join(
        struct.pack("<I", 8 + len(f)) + b"FR" + struct.pack("<H", 9) + f for f in frames)
    tree = parse_bytes(nxt, animre.spec.compile_spec(spec.ksy), "next.anm")
    name = next(k for k, r in _instances(spec).items() if r.get("repeat-expr") == count)
    recs = getattr(tree, name)
    assert len(recs) == 3
    for r, f in zip(recs, frames):
        assert 0 < len(r.body) <= len(f) and r.body == f[len(f) - len(r.body):]


def _pixels(n: int, seed: int) -> list[tuple[str, bytes]]:
    """``PIXL``, u4le where the pixels start, u4le a value inside the file that points nowhere in particular,
    a palette of small numbers and zeros of varying length, then random pixels to the end."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        start = 48 + 4 * rng.randrange(60)
        size = start + rng.randrange(500, 2000)
        decoy = rng.randrange(16, size)
        head = b"PIXL" + struct.pack("<II", start, decoy)
        head += bytes(rng.choice((0, 0, 1, 2, 3)) for _ in range(start - len(head)))
        out.append((f"p{i}.pix", head + bytes(rng.randrange(256) for _ in range(size - start))))
    return out


def test_an_offset_to_where_the_content_changes_kind():
    files = _pixels(12, seed=18)
    spec = animre.infer_spec(files, name="pix")
    ev = spec.evidence
    role = dict(zip(ev["offset"], ev["role"]))
    assert role.get(4) == "offset", ev[["offset", "width", "role", "evidence"]]
    assert role.get(8) != "offset", ev[["offset", "width", "role", "evidence"]]
