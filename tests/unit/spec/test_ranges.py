"""Every byte range right, or none: planted values at planted offsets under every way a spec makes a stream.

The spec ``specs/ranges/fmt/rng.ksy`` (with ``/common/stamp``, resolved against
its parent folders as the compiler does) uses sized substreams in the root and
in a repeated table, an imported sized type of little-endian bit fields,
big-endian bit fields that share bytes, a switch in a sized slot with a sized
type of bit fields in one case, ``io:`` instances reading ``_root._io``,
``_parent._io`` and another field's stream (``slot._io``), ``pos:`` instances
in substreams, ``terminator`` and ``size-eos`` substreams, a ``repeat: eos``
of sized records, and ``process:`` xor, rol and zlib. The files are written
here by :class:`Writer`, which records the offset of every value it writes:
that record is the truth the ranges are checked against.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pandas as pd
import pytest

import animre

SPEC = Path(__file__).parent / "specs" / "ranges" / "fmt" / "rng.ksy"


class Writer:
    """Bytes written field by field; ``at[path] = (start, end)`` of each, ``bits[path]`` = (bit start, bit end)."""

    def __init__(self):
        self.b = bytearray()
        self.at: dict[str, tuple[int, int]] = {}
        self.val: dict[str, object] = {}
        self.bits: dict[str, tuple[int, int]] = {}

    def put(self, path: str | None, fmt: str, value) -> None:
        start = len(self.b)
        self.b += struct.pack(fmt, value)
        if path:
            self.at[path], self.val[path] = (start, len(self.b)), value

    def raw(self, data: bytes) -> None:
        self.b += data

    def bit_fields(self, fields: list[tuple[str, int, int]], order: str) -> None:
        """Bit fields (path, width, value) packed into whole bytes, most (``be``) or least (``le``) significant
        bit first; each field's range is the bytes holding its bits."""
        total = sum(w for _, w, _ in fields)
        start, acc, pos = len(self.b), 0, 0
        for path, w, v in fields:
            if order == "be":
                acc |= v << (total - pos - w)
            else:
                acc |= v << pos
            self.at[path] = (start + pos // 8, start + -(-(pos + w) // 8))
            self.bits[path] = (8 * start + pos, 8 * start + pos + w)
            self.val[path] = v
            pos += w
        self.b += acc.to_bytes(total // 8, "big" if order == "be" else "little")


def build(seed: int) -> tuple[bytes, Writer, dict]:
    w = Writer()
    w.raw(b"RNG1")
    w.at["magic"], w.val["magic"] = (0, 4), b"RNG1"
    w.put("num_recs", "<H", 2)
    w.put("hdr.a", "<H", 1000 + seed)
    w.bit_fields([("hdr.flags", 3, 5), ("hdr.rest", 13, 0x1234 - seed)], "be")
    w.put("hdr.c", ">H", 0xBEEF ^ seed)
    recs = []
    for k in (1, 2):
        r = f"recs[{k - 1}]"
        rec0 = len(w.b)
        w.put(f"{r}.kind", "<B", k)
        slot0 = len(w.b)
        slot = bytes((10 * k + j + seed) & 0xFF for j in range(7))
        w.raw(slot)
        w.at[f"{r}.slot.raw"], w.val[f"{r}.slot.raw"] = (slot0, slot0 + 7), slot
        w.bit_fields([(f"{r}.when.lo", 5, 3 + k), (f"{r}.when.mid", 6, 33 + k + seed), (f"{r}.when.hi", 5, 17)], "le")
        if k == 1:
            w.put(f"{r}.body.x", "<h", -5 * k - seed)
        else:
            w.put(f"{r}.body.y1", "<B", 7 + seed)
            w.bit_fields([(f"{r}.body.inner.n_hi", 4, 9), (f"{r}.body.inner.n_lo", 4, seed % 16)], "be")
        # io: instances: slot._io at 3 and 1, _parent._io (the root's stream) at 4
        w.at[f"{r}.slot_val"], w.val[f"{r}.slot_val"] = (slot0 + 3, slot0 + 5), struct.unpack("<H", slot[3:5])[0]
        w.at[f"{r}.slot_obj.x"] = (slot0 + 1, slot0 + 3)
        w.val[f"{r}.slot_obj.x"] = struct.unpack("<h", slot[1:3])[0]
        w.at[f"{r}.parent_peek"], w.val[f"{r}.parent_peek"] = (4, 6), 2
        recs.append(rec0)
    packed = struct.pack("<IIB", 0x11223344 + seed, 0x55667788, 0x99)
    stored = {"packed": (len(w.b), len(w.b) + 9)}
    w.raw(bytes(x ^ 0x5A for x in packed))
    rot = struct.pack("<h", -1234 + seed)
    stored["rot"] = (len(w.b), len(w.b) + 2)
    w.raw(bytes(((x >> 3) | (x << 5)) & 0xFF for x in rot))  # stored rotated right: the spec's rol(3) undoes it
    z = zlib.compress(struct.pack("<IIB", 7, 8 + seed, 9))
    w.put("zipped_len", "<B", len(z))
    stored["zipped"] = (len(w.b), len(w.b) + len(z))
    w.raw(z)
    name0 = len(w.b)
    w.raw(b"hello\0")
    w.at["name"], w.val["name"] = (name0, name0 + 6), "hello"
    w.put("term_body.a", "<H", 42 + seed)
    w.bit_fields([("term_body.flags", 3, 2), ("term_body.rest", 13, 77)], "be")
    w.put("term_body.c", ">H", 3)
    w.raw(b";")
    tail0 = len(w.b)
    for j in range(3 + seed % 2):
        w.put(f"tail.items[{j}].v", "<H", 500 + j)
        w.put(f"tail.items[{j}].w", "<B", j)
    w.at["tail.tail_peek"], w.val["tail.tail_peek"] = (tail0 + 1, tail0 + 2), w.b[tail0 + 1]
    w.at["at_root"], w.val["at_root"] = (2, 4), struct.unpack("<H", w.b[2:4])[0]
    w.at["via_root_io"], w.val["via_root_io"] = (0, 4), "RNG1"
    processed = {"packed.p": (0, 4, 0x11223344 + seed), "packed.q": (4, 8, 0x55667788), "packed.r": (8, 9, 0x99),
                 "rot.x": (0, 2, -1234 + seed), "zipped.q": (4, 8, 8 + seed)}
    return bytes(w.b), w, {"processed": processed, "stored": stored}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    d = tmp_path_factory.mktemp("rng")
    truth = {}
    for s in range(6):
        data, w, extra = build(s)
        (d / f"f{s}.rng").write_bytes(data)
        truth[f"f{s}.rng"] = (data, w, extra)
    c = animre.open_corpus(d, specs=[SPEC], formats=["rng"], cache=False, workers=1)
    return c, truth


def test_every_file_parses(corpus):
    c, truth = corpus
    assert c.errors.empty, c.errors.to_dict("records")
    assert set(c.files.loc[c.files.status == "parsed", "file"]) == set(truth)


def test_fields_ranges_are_the_planted_offsets(corpus):
    c, truth = corpus
    for f, (_, w, _) in truth.items():
        ft = c.fields(f).set_index("path")
        for path, (start, end) in w.at.items():
            row = ft.loc[path]
            assert (row["start"], row["end"]) == (start, end), (f, path)
            assert row["value"] == w.val[path], (f, path)
        for path, (bs, be) in w.bits.items():
            assert (ft.loc[path, "bit_start"], ft.loc[path, "bit_end"]) == (bs, be), (f, path)


def test_processed_bytes_have_no_file_range_but_their_stream_range_and_the_stored_range(corpus):
    c, truth = corpus
    for f, (_, _, extra) in truth.items():
        ft = c.fields(f).set_index("path")
        for path, (s, e, v) in extra["processed"].items():
            row = ft.loc[path]
            assert row["value"] == v
            assert pd.isna(row["start"]) and pd.isna(row["end"]), path
            assert (row["stream_start"], row["stream_end"]) == (s, e)
            assert (row["stored_start"], row["stored_end"]) == extra["stored"][path.split(".")[0]]


def test_table_cells_have_the_planted_ranges(corpus):
    """The same truth through the tables (the flattener's own path to ranges), root and repeated tables."""
    c, truth = corpus
    for table, prefix_of in (("rng", lambda r: ""), ("rng_recs", lambda r: f"recs[{r['recs_index']}]."),
                             ("rng_tail_items", lambda r: f"tail.items[{r['items_index']}].")):
        df = c.tables[table]
        starts, ends = c.spans[table]
        checked = 0
        for i, r in df.iterrows():
            w = truth[r["file"]][1]
            for col in df.columns:
                path = prefix_of(r) + col
                if path in w.at:
                    assert (starts.at[i, col], ends.at[i, col]) == w.at[path], (table, r["file"], col)
                    assert r[col] == w.val[path]
                    checked += 1
                elif col.endswith("_name") and prefix_of(r) + col[:-5] in w.at:  # an enum's name: its field's bytes
                    assert (starts.at[i, col], ends.at[i, col]) == w.at[prefix_of(r) + col[:-5]]
                elif col in starts.columns and pd.notna(starts.at[i, col]):
                    pytest.fail(f"{table}.{col} has a range {starts.at[i, col]} that no planted value has")
        assert checked > 0


def test_every_range_holds_its_value(corpus):
    """The invariant itself: the bytes at every integer cell's range decode, with the field's type, to its value."""
    c, _ = corpus
    widths = {"u1": "<B", "u2": "<H", "s2": "<h", "u4": "<I", "u2be": ">H"}
    n = 0
    for table in ("rng", "rng_recs", "rng_tail_items"):
        cols = c.columns(table).set_index("column")
        df = c.tables[table]
        starts, ends = c.spans[table]
        for i, r in df.iterrows():
            data = c.read_bytes(r["file"])
            for col in df.columns:
                t = cols.at[col, "type"] if col in cols.index else None
                if t not in widths or col not in starts.columns or pd.isna(starts.at[i, col]):
                    continue
                s, e = int(starts.at[i, col]), int(ends.at[i, col])
                assert struct.unpack(widths[t], data[s:e])[0] == r[col], (table, col)
                n += 1
    assert n > 100


def test_a_span_without_range_says_why(corpus):
    c, _ = corpus
    with pytest.raises(KeyError, match="process"):
        c.span("rng", 0, "packed.p")


def test_recursion_names_the_instance_where_it_repeated(tmp_path):
    spec = tmp_path / "loop.ksy"
    spec.write_text("meta: {id: loop, endian: le, file-extension: loop}\n"
                    "seq: [{id: magic, contents: LOOP}, {id: n, type: u1}]\n"
                    "instances:\n  again: {pos: again, type: u1}\n", encoding="utf-8")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.loop").write_bytes(b"LOOP\x01\x02")
    c = animre.open_corpus(tmp_path / "d", specs=[spec], formats=["loop"], cache=False, workers=1)
    err = c.errors.iloc[0]
    assert err["path"] == "again" and "nests too deeply" in err["message"]


def test_a_value_instance_that_raises_is_an_error_row_and_the_seq_stays(tmp_path):
    """As the ordinary compile raises when a Kaitai user asks for the instance (bmp's OS/2 header case)."""
    spec = tmp_path / "vi.ksy"
    spec.write_text("meta: {id: vi, endian: le, file-extension: vi}\n"
                    "seq:\n  - {id: magic, contents: VI}\n  - {id: kind, type: u1}\n  - {id: x, type: u2}\n"
                    "instances:\n  per_kind:\n    value: x / kind\n", encoding="utf-8")
    d = tmp_path / "d"
    d.mkdir()
    (d / "good.vi").write_bytes(b"VI\x02" + struct.pack("<H", 42))
    (d / "bad.vi").write_bytes(b"VI\x00" + struct.pack("<H", 77))
    c = animre.open_corpus(d, specs=[spec], formats=["vi"], cache=False, workers=1)
    assert set(c.files["status"]) == {"parsed"}
    err = c.errors.set_index("file").loc["bad.vi"]
    assert err["path"] == "per_kind" and "ZeroDivisionError" in err["message"] and err["offset"] == 0
    assert "good.vi" not in set(c.errors["file"])
    root = c.tables["vi"].set_index("file")
    assert root.at["good.vi", "per_kind"] == 21
    assert root.at["bad.vi", "x"] == 77 and root.at["bad.vi", "kind"] == 0  # the seq's values are kept
