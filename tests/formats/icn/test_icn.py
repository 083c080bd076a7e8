"""ICN sprite sheets: decoding against the planted pixels, the sprite table, hostile input, FRM sequences."""

from __future__ import annotations

import hashlib
import struct
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from animre.base.errors import ParseError
from animre.formats.icn.decode import (
    IcnSprite,
    decode_sprite,
    icn_for_frm,
    icn_palette,
    icn_sprites,
    read_icn,
    sequence_frames,
    sprite_rgba,
)


def _icn(sprites: list[tuple[tuple, bytes]]) -> bytes:
    """An ICN written by hand: (offset_x, offset_y, width, height, type_byte), data per sprite."""
    table, ofs = b"", 13 * len(sprites)
    for (ox, oy, w, h, tb), d in sprites:
        table += struct.pack("<hhHHBI", ox, oy, w, h, tb, ofs)
        ofs += len(d)
    block = table + b"".join(d for _, d in sprites)
    return struct.pack("<HI", len(sprites), len(block)) + block


@pytest.fixture(scope="module")
def icn_truth(manifest):
    """The generator's section with only the ICN files under ``files`` (KB.PAL has its own test)."""
    sec = dict(manifest["formats"]["icn"])
    sec["files"] = {f: v for f, v in sec["files"].items() if f.endswith(".ICN")}
    assert len(sec["files"]) >= 3
    return sec


@pytest.fixture(scope="module")
def decoded(samples_dir, icn_truth):
    return {f: icn_sprites(samples_dir / f) for f in icn_truth["files"]}


def test_every_sprite_equals_its_planted_truth(decoded, icn_truth):
    n = 0
    for f, v in icn_truth["files"].items():
        sprites = decoded[f]
        assert len(sprites) == v["num_sprites"]
        for s, t in zip(sprites, v["sprites"]):
            assert s.image.shape == (t["height"], t["width"]), (f, s.index)
            assert (s.offset_x, s.offset_y, s.type_byte) == (t["offset_x"], t["offset_y"], t["type_byte"])
            assert hashlib.sha256(s.image.tobytes() + s.transform.tobytes()).hexdigest() == t["sha256"], (f, s.index)
            assert int((~s.transparent).sum() - s.shadow.sum() - (s.transform >= 6).sum()) == t["n_opaque"]
            assert int(s.transparent.sum()) == t["n_transparent"]
            assert int(s.shadow.sum()) == t["n_shadow"]
            for x, y, index, level in t["planted"]:
                assert int(s.transform[y, x]) == level, (f, s.index, x, y)
                if level == 0:
                    assert int(s.image[y, x]) == index
                n += 1
    assert n > 1000


def test_samples_reach_every_pixel_kind(decoded, icn_truth):
    sample = decoded["icn/SAMPLE.ICN"]
    tf = np.concatenate([s.transform.ravel() for s in sample])
    assert {0, 1} <= set(np.unique(tf))
    assert ((tf >= 2) & (tf <= 5)).any() and (tf >= 6).any()
    f, k = icn_truth["planted"]["monochrome"]
    mono = decoded[f][k]
    assert mono.monochrome and mono.type_byte == 0x20
    assert not mono.image.any()  # monochrome pixels have no colour bytes: index 0
    assert set(np.unique(mono.transform)) == {0, 1}
    assert int((mono.transform == 0).sum()) == icn_truth["files"][f]["sprites"][k]["n_opaque"] > 0
    f, k = icn_truth["planted"]["zero_size"]
    assert decoded[f][k].image.shape == (0, 0)


def test_commands_written_by_hand():
    # row 0: literal 2, skip 1, fill 3 (0xC3), end row; row 1: shadow level 2 x1 (low bits),
    # light level 6 x2 (count byte), 0xC0 without 0x40 (skip 1), 0xC1 fill 2 of 7, end of sprite without 0x00
    data = bytes([0x02, 10, 11, 0x81, 0xC3, 5, 0x00,
                  0xC0, 0x41, 0xC0, 0x50, 2, 0xC0, 0x01, 0xC1, 2, 7, 0x80])
    img, tf = decode_sprite(data, 7, 3)
    assert img.tolist() == [[10, 11, 0, 5, 5, 5, 0], [0, 0, 0, 0, 7, 7, 0], [0] * 7]
    assert tf.tolist() == [[0, 0, 1, 0, 0, 0, 1], [2, 6, 6, 1, 0, 0, 1], [1] * 7]
    # levels 16 and 17 are ignored; monochrome: 0x01-0x7F opaque without colour bytes, 0x81-0xFF skips
    _, tf = decode_sprite(bytes([0xC0, 0x79, 0xC0, 0x7D, 0x80]), 2, 1)
    assert tf.tolist() == [[1, 1]]
    img, tf = decode_sprite(bytes([0x81, 0x02, 0x00, 0xC1, 0x80]), 3, 2, monochrome=True)
    assert tf.tolist() == [[1, 0, 0], [1, 1, 1]] and not img.any()


def test_sprite_table_equals_planted_headers(sample_corpus, icn_truth):
    df = sample_corpus.tables["icn_sprites"]
    for f, v in icn_truth["files"].items():
        rows = df[df.file == f].sort_values("sprite")
        assert len(rows) == v["num_sprites"]
        for col in ("offset_x", "offset_y", "width", "height", "type_byte", "len_data"):
            assert rows[col].tolist() == [t[col] for t in v["sprites"]], (f, col)
        assert rows["is_monochrome"].tolist() == [bool(t["type_byte"] & 0x20) for t in v["sprites"]]
        ends = np.cumsum([t["len_data"] for t in v["sprites"]]) + 13 * v["num_sprites"]
        assert rows["ofs_data"].tolist() == [13 * v["num_sprites"]] + ends[:-1].tolist()
    files = sample_corpus.tables["icn"].set_index("file")
    for f, v in icn_truth["files"].items():
        assert files.at[f, "len_block"] == v["size"] - 6
    starts = sample_corpus.offsets("icn_sprites", "ofs_data", df.index)
    assert (np.asarray(starts[df.sprite == 1], dtype=int) == 6 + 13 + 9).all()


def test_palette_from_kb_pal_and_stand_in(samples_dir, tmp_path, manifest, sample_corpus):
    sec = manifest["formats"]["icn"]
    raw = np.array(sec["files"][sec["palette"]]["colors"])
    table = sample_corpus.tables["pal_colors"]
    assert set(table.file) == {sec["palette"], "agg/HEROES2.AGG/KB.PAL"}  # loose and in the archive
    table = table[table.file == sec["palette"]].sort_values("color")
    assert (table[["r", "g", "b"]].to_numpy() == raw).all()
    pal = icn_palette(samples_dir)
    assert (pal[:, :3] == raw.astype(int) * 4).all() and (pal[:, 3] == 255).all()
    stand_in = icn_palette(tmp_path)  # no KB.PAL there
    assert stand_in.shape == (256, 4) and (stand_in[:, 0] == np.arange(256)).all()


def test_icn_for_frm_pairs_the_samples(icn_truth, samples_dir):
    for frm, icn in icn_truth["pairs"].items():
        assert (samples_dir / frm).is_file()
        assert icn_for_frm(frm) == icn.split("/")[-1]
    assert icn_for_frm("XYZABFRM.BIN") == "XYZAB.ICN"


def test_sequence_frames_put_sprites_at_planted_offsets(samples_dir, manifest, icn_truth, sample_corpus, decoded):
    frm_truth = manifest["formats"]["frm"]["files"]
    pal = icn_palette(samples_dir)
    checked = 0
    for frm, icn in icn_truth["pairs"].items():
        fv = frm_truth[frm]
        sprites_truth = icn_truth["files"][icn]["sprites"]
        for slot in (2, 7, 8, 13):
            n = min(fv["num_frames_raw"][slot], 16)
            if n == 0:
                continue
            frames, info = sequence_frames(sample_corpus.tables, decoded[icn], slot, palette=pal, file=frm)
            assert len(frames) == n == len(info)
            for r in info.itertuples():
                p, rx, ry = int(r.position), int(r.x), int(r.y)
                fid = fv["frame_ids"][slot][p]
                xo = fv["x_offsets"][slot][p] if slot < 7 else 0
                t = sprites_truth[fid]
                assert r.frame_id == fid
                assert (rx - r.anchor_x, ry - r.anchor_y) == (t["offset_x"] + xo, t["offset_y"])
                for x, y, index, level in t["planted"]:
                    px = frames[p, ry + y, rx + x]
                    if level == 0:
                        assert px.tolist() == pal[index].tolist()
                    elif level == 1:
                        assert px[3] == 0
                    elif level <= 5:
                        assert px.tolist() == [0, 0, 0, 128]
                    checked += 1
                expected_ms = fv["walk_speed"] / n if slot < 7 else (150 if 8 <= slot <= 12 else 120)
                assert r.interval_ms == pytest.approx(expected_ms)
    assert checked > 100


# ------------------------------------------------------------------ hostile input


def _only_parse_error(data: bytes, name: str, strict: bool = True):
    tracemalloc.start()
    try:
        try:
            read_icn(data, name, strict=strict)
        except ParseError as e:
            assert e.file == name and str(e).startswith(f"{name}: ")
            assert isinstance(e.offset, int) and 0 <= e.offset
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200 * len(data) + 16_000_000, (name, peak)


def test_truncated_files(samples_dir):
    data = (samples_dir / "icn" / "SAMPLE.ICN").read_bytes()
    for cut in range(len(data)):
        _only_parse_error(data[:cut], f"SAMPLE.ICN@{cut}")
    with pytest.raises(ParseError) as e:
        read_icn(data[:-3], "cut.icn")
    assert e.value.path in ("len_block", "sprites[5].data")


def test_data_offset_outside_the_file():
    good = _icn([((0, 0, 2, 1, 0), bytes([0xC2, 1, 0x80])), ((0, 0, 1, 1, 0), bytes([0x01, 3, 0x80]))])
    bad = bytearray(good)
    struct.pack_into("<I", bad, 6 + 13 + 9, 0xFFFFFF00)
    with pytest.raises(ParseError) as e:
        read_icn(bytes(bad), "ofs.icn")
    assert e.value.path.startswith("sprites[")


def test_absurd_size_is_refused_before_allocation():
    data = _icn([((0, 0, 65535, 65535, 0), bytes([0x80]))])
    tracemalloc.start()
    try:
        with pytest.raises(ParseError) as e:
            read_icn(data, "huge.icn")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "exceeds" in e.value.reason and e.value.path == "sprites[0].data" and e.value.offset == 6 + 13
    assert peak < 16_000_000
    many = _icn([((0, 0, 2000, 2000, 0), bytes([0x80]))] * 8)  # each allowed, together too many
    with pytest.raises(ParseError) as e:
        read_icn(many, "many.icn")
    assert e.value.path.startswith("sprites[") and e.value.path.endswith("].width") and "limit" in e.value.reason


def test_runs_past_the_data_or_the_sprite_are_errors():
    cases = {
        "literal past the data": (bytes([0x05, 1, 2]), 8, 1, 0),
        "fill past the row": (bytes([0xC5, 1, 0x80]), 4, 1, 0),
        "row past the height": (bytes([0x00, 0x01, 9, 0x80]), 2, 1, 1),
        "0xC0 without its count byte": (bytes([0xC0, 0x40]), 4, 1, 0),
        "0xC1 without its colour": (bytes([0xC1, 2]), 4, 1, 0),
    }
    for why, (d, w, h, at) in cases.items():
        with pytest.raises(ParseError) as e:
            decode_sprite(d, w, h, file="h.icn", path="sprites[0].data", offset=100)
        assert e.value.offset == 100 + at, why
        img, tf = decode_sprite(d, w, h, strict=False)  # the engine's tolerance: stop or clip
        assert img.shape == (h, w)


def test_endless_commands_end_with_the_data():
    # no 0x80 anywhere: skips and fills that never end the sprite, far more rows than it has
    data = bytes([0xBF, 0xC1, 0xFF, 3, 0x00] * 20000)
    with pytest.raises(ParseError):
        read_icn(_icn([((0, 0, 8, 8, 0), data)]), "endless.icn")
    img, tf = decode_sprite(data, 8, 8, strict=False)
    assert (tf == 1).all()  # every run starts past the 8 columns: nothing drawn


@seed(2097)
@settings(max_examples=60, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_mutations_give_sprites_or_parse_errors(samples_dir, data):
    buf = bytearray((samples_dir / "icn" / "SAMPLE.ICN").read_bytes())
    for _ in range(data.draw(st.integers(1, 6))):
        i = data.draw(st.integers(0, len(buf) - 1))
        kind = data.draw(st.sampled_from(["byte", "word", "cut", "insert"]))
        if kind == "byte":
            buf[i] = data.draw(st.integers(0, 255))
        elif kind == "word":
            buf[i:i + 2] = data.draw(st.sampled_from([b"\xff\xff", b"\x00\x00", b"\xff\x7f"]))
        elif kind == "cut":
            del buf[max(i, 1):]
        else:
            buf[i:i] = data.draw(st.binary(min_size=1, max_size=8))
    for strict in (True, False):
        _only_parse_error(bytes(buf), "mutated.icn", strict)


def test_rgba_of_a_sprite():
    s = IcnSprite(0, np.array([[4, 0, 0, 0]], np.uint8), np.array([[0, 1, 3, 7]], np.uint8), 0, 0, 0)
    pal = np.zeros((256, 3), np.uint8)
    pal[4] = (1, 2, 3)
    assert sprite_rgba(s, pal).tolist() == [[[1, 2, 3, 255], [0, 0, 0, 0], [0, 0, 0, 128], [255, 255, 255, 64]]]
