"""Byte writers of the OMF samples: an AF or BK file from its manifest entry, with :mod:`struct` only."""

from __future__ import annotations

import struct


def pack_coord(x: int, y: int, frame: int, unused: int = 0) -> int:
    """Pack a collision point: bits 0-9 x, 10-15 unused, 16-25 y, 26-31 frame (x, y two's complement)."""
    return (x & 0x3FF) | ((unused & 0x3F) << 10) | ((y & 0x3FF) << 16) | ((frame & 0x3F) << 26)


def _write_anim_string(b: bytearray, text: str) -> None:
    raw = text.encode("latin-1")
    b += struct.pack("<H", len(raw)) + raw + b"\x00"


def _write_footer_string(b: bytearray, s: dict) -> None:
    b += struct.pack("<H", s["len"])
    if s["len"]:
        raw = s["text"].encode("latin-1")
        assert len(raw) + 1 == s["len"]
        b += raw + b"\x00"


def _write_animation(b: bytearray, a: dict, streams: dict) -> None:
    a["ofs"] = len(b)
    b += struct.pack("<hhIHB", a["start_x"], a["start_y"], a["unknown_4"], len(a["coords"]), len(a["sprites"]))
    for c in a["coords"]:
        b += struct.pack("<I", c["raw"])
    _write_anim_string(b, a["anim_string"])
    b += struct.pack("<B", len(a["extra_strings"]))
    for s in a["extra_strings"]:
        _write_anim_string(b, s)
    for s in a["sprites"]:
        s["ofs"] = len(b)
        b += struct.pack("<HhhHHBB", s["len_data"], s["x"], s["y"], s["width"], s["height"], s["index"], s["missing"])
        if not s["missing"] and s["len_data"]:
            data = streams[id(s)]
            assert len(data) == s["len_data"]
            b += data


def encode_af(v: dict, streams: dict) -> bytes:
    """Write one AF file from its manifest entry (records ``ofs*`` offsets into it)."""
    h = v["header"]
    b = bytearray()
    b += struct.pack(
        "<HHIBHiiiiBB", h["fighter_id"], h["exec_window"], h["endurance"], h["unknown_8"], h["health"],
        h["forward_speed"], h["reverse_speed"], h["jump_speed"], h["fall_speed"], h["unknown_27"], h["unknown_28"],
    )
    assert len(b) == 29
    for m in v["moves"]:
        m["ofs"] = len(b)
        b += struct.pack("<B", m["move"])
        _write_animation(b, m["animation"], streams)
        f = m["footer"]
        m["ofs_footer"] = len(b)
        b += struct.pack("<HH8B9B", f["ai_flags"], f["pos_constraint"],
                         *[f[f"unknown_{i}"] for i in range(4, 12)],
                         f["next_anim_on_hit"], f["category"], f["block_damage"], f["block_stun"],
                         f["successor_id"], f["damage"], f["unknown_18"], f["extra_string_selector"], f["points"])
        raw = bytes.fromhex(m["move_string_raw"])
        assert len(raw) == 21
        b += raw
        _write_footer_string(b, m["footer_string"])
    v["ofs_terminator"] = len(b)
    b += struct.pack("<B", v["terminator"])
    v["ofs_sound_table"] = len(b)
    b += bytes(v["sound_ids"])
    v["size"] = len(b)
    return bytes(b)


def encode_bk(v: dict, streams: dict) -> bytes:
    """Write one BK file from its manifest entry (records ``ofs*`` offsets into it)."""
    h = v["header"]
    b = bytearray()
    b += struct.pack("<IBHH", h["file_id"], h["unknown_4"], h["width"], h["height"])
    for a in v["animations"]:
        a["ofs"] = len(b)
        b += struct.pack("<IB", 0, a["anim"])  # ofs_next patched below
        k = a["header"]
        b += struct.pack("<BBBBHB", k["unknown_0"], k["chain_if_hit"], k["chain_if_no_hit"], k["repeat"],
                         k["probability"], k["hazard_damage"])
        _write_footer_string(b, k["footer_string"])
        _write_animation(b, a["animation"], streams)
        a["ofs_next"] = len(b)
        struct.pack_into("<I", b, a["ofs"], a["ofs_next"])
    v["ofs_terminator"] = len(b)
    b += struct.pack("<IB", v["terminator_ofs_next"], v["terminator"])
    v["ofs_background"] = len(b)
    bg = streams["background"]
    assert len(bg) == h["width"] * h["height"]
    b += bg
    b += struct.pack("<B", len(v["palettes"]))
    for p in v["palettes"]:
        b += bytes.fromhex(p["colors"]) + b"".join(bytes.fromhex(r) for r in p["remaps"])
    v["ofs_sound_table"] = len(b)
    b += bytes(v["sound_ids"])
    v["size"] = len(b)
    return bytes(b)
