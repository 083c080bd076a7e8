"""One Must Fall 2097 fighter (``FIGHTR*.AF``) and arena (``*.BK``) files.

Two formats share the animation and sprite records of ``ksy/omf_common.ksy``:
``af`` (spec ``af``) and ``bk`` (spec ``bk``). Sprite pixels are
decoded by :mod:`animre.decode.omf_sprites`.
"""

from __future__ import annotations

import re
import struct

import pandas as pd

from .base import CLAIM_COLUMNS, Claim, F, Format, column_claim

__all__ = ["FORMATS", "AF", "BK", "detect_af", "detect_bk"]

SOURCE_SEED = "seeds/000_6ee84fe160122c13.txt"
SOURCE_NOTES = "formats/NOTES.md section 1"
AF_HEADER_SIZE = 29
BK_PALETTE_SIZE = 256 * 3 + 19 * 256
CATEGORY_NAMES = {
    0: "misc", 2: "close", 4: "low", 5: "medium", 6: "high", 7: "jumping", 8: "projectile",
    9: "basic", 10: "victory_or_fire_ice", 11: "defeat_or_victory", 12: "scrap", 13: "destruction",
}


# ----------------------------------------------------------------------------- detection


def _animation_header_ok(head: bytes, pos: int, size: int) -> bool | None:
    """Plausibility of an animation header at ``pos`` (None when it lies beyond ``head``)."""
    if pos + 11 > len(head):
        return None
    _sx, _sy, unk, ncoords, nsprites = struct.unpack_from("<hhIHB", head, pos)
    return unk == 0 and ncoords * 4 + nsprites * 12 <= size - pos - 11


def detect_af(head: bytes, size: int, name: str) -> float:
    """AF: 29-byte header (0x32, 0x14 at 27/28, small exec window), a move number < 70, a sane animation."""
    named = name.lower().endswith(".af")
    if size < AF_HEADER_SIZE + 1 + 31 or len(head) < AF_HEADER_SIZE + 1:
        return 0.0
    fid, window = struct.unpack_from("<HH", head, 0)
    score = 0.0
    if head[27] == 0x32 and head[28] == 0x14:
        score += 0.45
    if 1 <= window <= 100:
        score += 0.15 if window == 10 else 0.05
    if fid < 256:
        score += 0.05
    first = head[AF_HEADER_SIZE]
    if first < 70:
        ok = _animation_header_ok(head, AF_HEADER_SIZE + 1, size)
        if ok is False:
            return 0.1 if named else 0.0
        score += 0.2
    elif first != 250:
        return 0.1 if named else 0.0
    if score < 0.45:
        return min(score, 0.2) + (0.1 if named else 0.0)
    return min(1.0, score + (0.1 if named else 0.0))


def detect_bk(head: bytes, size: int, name: str) -> float:
    """BK: width/height that fit the file, then a plausible animation record (offset, number)."""
    named = name.lower().endswith(".bk")
    if size < 9 + 5 + 1 + 30 or len(head) < 14:
        return 0.0
    _fid, _unk, w, h = struct.unpack_from("<IBHH", head, 0)
    if w == 0 or h == 0 or w * h + 9 + 5 + 1 + 30 > size:
        return 0.0
    ofs_next, number = struct.unpack_from("<IB", head, 9)
    score = 0.35
    if number < 50:
        if not (14 < ofs_next <= size):
            return 0.1 if named else 0.0
        hdr = 9 + 5 + 7
        if len(head) >= hdr + 2:
            (flen,) = struct.unpack_from("<H", head, hdr)
            ok = _animation_header_ok(head, hdr + 2 + flen, size)
            if ok is False:
                return 0.1 if named else 0.0
            if ok:
                score += 0.2
    elif ofs_next > size:
        return 0.1 if named else 0.0
    else:
        rest = size - (9 + 5 + w * h) - 1 - 30
        if rest >= 0 and rest % BK_PALETTE_SIZE == 0:
            score += 0.3
    if (w, h) == (320, 200):
        score += 0.2
    return min(1.0, score + (0.1 if named else 0.0))


# ----------------------------------------------------------------------------- tables


def _bits(c, name: str):
    """A collision-point bit field as a cell: the value from the spec, the span of the raw u4."""
    return F(c, "raw", transform=lambda _v, c=c, name=name: getattr(c, name))


def _anim_cells(a) -> dict:
    s = a.anim_string
    return {
        "start_x": F(a, "start_x"),
        "start_y": F(a, "start_y"),
        "anim_unknown_4": F(a, "unknown_4"),
        "num_coords": F(a, "num_coords"),
        "num_sprites": F(a, "num_sprites"),
        "anim_string_len": F(s, "len_str"),
        "anim_string": F(s, "text"),
        "anim_string_nul": F(s, "terminator"),
        "num_extra_strings": F(a, "num_extra_strings"),
    }


def _footer_string_cells(fs) -> dict:
    return {
        "footer_string_len": F(fs, "len_str"),
        "footer_string": F(fs, "text"),
        "footer_string_nul": F(fs, "terminator") if fs.len_str > 0 else None,
    }


def _anim_children(key: str, number: int, a, sprites: list, coords: list, extras: list) -> None:
    for i, sp in enumerate(a.sprites):
        sprites.append({
            key: number,
            "sprite": i,
            "len_data": F(sp, "len_data"),
            "x": F(sp, "x"),
            "y": F(sp, "y"),
            "width": F(sp, "width"),
            "height": F(sp, "height"),
            "index": F(sp, "index"),
            "missing": F(sp, "missing"),
            "has_pixels": bool(sp.has_pixels),
            "len_pixels": len(sp.pixels),
        })
    for i, c in enumerate(a.coords):
        coords.append({
            key: number,
            "coord": i,
            "raw": F(c, "raw"),
            "x": _bits(c, "x"),
            "y": _bits(c, "y"),
            "frame": _bits(c, "frame"),
            "unknown_bits_10_15": _bits(c, "unknown_bits_10_15"),
        })
    for i, s in enumerate(a.extra_strings):
        extras.append({
            key: number,
            "string": i,
            "len_str": F(s, "len_str"),
            "text": F(s, "text"),
            "nul": F(s, "terminator"),
        })


def _sound_cells(st) -> dict:
    return {f"sound_{i}": F(st, "sound_ids", i) for i in range(len(st.sound_ids))}


def af_tables(r, ctx) -> dict[str, list[dict]]:
    """Curated tables: ``af_fighters``, ``af_moves``, ``af_sprites``, ``af_coords``, ``af_extra_strings``."""
    moves, sprites, coords, extras = [], [], [], []
    term = r.moves[-1]
    fighter = {
        "fighter_id": F(r, "fighter_id"),
        "exec_window": F(r, "exec_window"),
        "endurance": F(r, "endurance"),
        "unknown_8": F(r, "unknown_8"),
        "health": F(r, "health"),
        "forward_speed": F(r, "forward_speed"),
        "reverse_speed": F(r, "reverse_speed"),
        "jump_speed": F(r, "jump_speed"),
        "fall_speed": F(r, "fall_speed"),
        "unknown_27": F(r, "unknown_27"),
        "unknown_28": F(r, "unknown_28"),
        "num_moves": len(r.moves) - 1,
        "terminator": F(term, "move_number"),
        "ofs_terminator_from_end": ctx.size - (ctx.offset + _start(term, "move_number")),
        **_sound_cells(r.sound_table),
        "len_trailing": len(r.trailing),
    }
    for m in r.moves[:-1]:
        a, f = m.animation, m.footer
        num = m.move_number
        row = {"move": F(m, "move_number"), **_anim_cells(a)}
        row.update({
            "ai_flags": F(f, "ai_flags"),
            "pos_constraint": F(f, "pos_constraint"),
            **{f"unknown_{i}": F(f, f"unknown_{i}") for i in range(4, 12)},
            "next_anim_on_hit": F(f, "next_anim_on_hit"),
            "category": F(f, "category"),
            "category_name": CATEGORY_NAMES.get(_int(f.category), "unknown"),
            "block_damage": F(f, "block_damage"),
            "block_stun": F(f, "block_stun"),
            "successor_id": F(f, "successor_id"),
            "damage": F(f, "damage"),
            "unknown_18": F(f, "unknown_18"),
            "extra_string_selector": F(f, "extra_string_selector"),
            "points": F(f, "points"),
            "move_string": F(f.move_string, "text"),
            "move_string_raw": F(f.move_string, "raw"),
            **_footer_string_cells(f.footer_string),
        })
        moves.append(row)
        _anim_children("move", num, a, sprites, coords, extras)
    return {"af_fighters": [fighter], "af_moves": moves, "af_sprites": sprites, "af_coords": coords,
            "af_extra_strings": extras}


def bk_tables(r, ctx) -> dict[str, list[dict]]:
    """Curated tables: ``bk_files``, ``bk_animations``, ``bk_sprites``, ``bk_coords``, ``bk_palettes``."""
    anims, sprites, coords, extras, palettes = [], [], [], [], []
    term = r.animations[-1]
    bk = {
        "file_id": F(r, "file_id"),
        "unknown_4": F(r, "unknown_4"),
        "width": F(r, "width"),
        "height": F(r, "height"),
        "background_size": F(r, "background", transform=len),
        "num_animations": len(r.animations) - 1,
        "terminator": F(term, "anim_number"),
        "terminator_ofs_next": F(term, "ofs_next"),
        "num_palettes": F(r, "num_palettes"),
        **_sound_cells(r.sound_table),
        "len_trailing": len(r.trailing),
    }
    for rec in r.animations[:-1]:
        h, a = rec.header, rec.animation
        num = rec.anim_number
        row = {
            "animation": F(rec, "anim_number"),
            "ofs_next": F(rec, "ofs_next"),
            "unknown_0": F(h, "unknown_0"),
            "chain_if_hit": F(h, "chain_if_hit"),
            "chain_if_no_hit": F(h, "chain_if_no_hit"),
            "repeat": F(h, "repeat"),
            "probability": F(h, "probability"),
            "hazard_damage": F(h, "hazard_damage"),
            **_footer_string_cells(h.footer_string),
            **_anim_cells(a),
        }
        anims.append(row)
        _anim_children("animation", num, a, sprites, coords, extras)
    for i, p in enumerate(r.palettes):
        palettes.append({
            "palette": i,
            "colors": F(p, "colors"),
            "colors_max": F(p, "colors", transform=lambda v: max(v) if len(v) else 0),
        })
    return {"bk_files": [bk], "bk_animations": anims, "bk_sprites": sprites, "bk_coords": coords,
            "bk_extra_strings": extras, "bk_palettes": palettes}


def _int(v) -> int:
    return int(getattr(v, "value", v))


def _start(obj, name: str) -> int:
    return int(obj._debug[name]["start"])


# ----------------------------------------------------------------------------- claims


def _empty() -> pd.DataFrame:
    return pd.DataFrame(columns=CLAIM_COLUMNS)


def _files_of(corpus, fmt: str) -> list[str]:
    f = corpus.files
    return list(f[(f["format"] == fmt) & f["ok"]]["file"])


def _frame(rows: list[dict]) -> pd.DataFrame:
    out = pd.DataFrame(rows, columns=CLAIM_COLUMNS)
    out["offset"] = out["offset"].astype("Int64")
    return out


def _check_byte_31(corpus) -> pd.DataFrame:
    rows = []
    for f in _files_of(corpus, "af"):
        data = corpus.read_bytes(f)
        off = len(data) - 31
        v = data[off] if off >= 0 else None
        rows.append({"file": f, "holds": v == 250, "offset": max(off, 0), "value": v,
                     "detail": "byte 31 from the end (move list terminator)"})
    return _frame(rows)


def _check_fghed(corpus) -> pd.DataFrame:
    rows = []
    for f in _files_of(corpus, "af"):
        data = corpus.read_bytes(f)
        tail = data[-5:]
        rows.append({"file": f, "holds": tail == b"FGHED", "offset": max(len(data) - 5, 0),
                     "value": tail.decode("latin-1"), "detail": "last 5 bytes (sound ids 70 71 72 69 68)"})
    return _frame(rows)


def _check_fighter_id(corpus) -> pd.DataFrame:
    df = corpus.tables.get("af_fighters")
    if df is None or not len(df):
        return _empty()
    starts = corpus.offsets("af_fighters", "fighter_id")
    rows = []
    for i, r in df.iterrows():
        m = re.search(r"(\d+)\.af$", str(r["file"]), re.IGNORECASE)
        want = int(m.group(1)) if m else None
        rows.append({"file": r["file"], "holds": want is not None and int(r["fighter_id"]) == want,
                     "offset": starts.at[i], "value": int(r["fighter_id"]),
                     "detail": f"number in file name: {want}"})
    return _frame(rows)


def _check_ofs_next(corpus) -> pd.DataFrame:
    df = corpus.tables.get("bk_animations")
    files = corpus.tables.get("bk_files")
    if df is None or files is None or not len(df):
        return _empty()
    starts = corpus.offsets("bk_animations", "ofs_next")
    term_starts = corpus.offsets("bk_files", "terminator_ofs_next")
    term_at = dict(zip(files["file"], term_starts))
    rows = []
    for file, g in df.groupby("file", sort=False):
        st = [int(starts.at[i]) for i in g.index]
        nxt = st[1:] + [int(term_at[file])]
        for i, want in zip(g.index, nxt):
            v = int(df.at[i, "ofs_next"])
            rows.append({"file": file, "holds": v == want, "offset": int(starts.at[i]), "value": v,
                         "detail": f"animation {int(df.at[i, 'animation'])}: next record at {want}"})
    return _frame(rows)


def _nul_or_absent(v) -> bool:
    return v is None or pd.isna(v) or v == 0


AF_CLAIMS = (
    column_claim("AF exec window (header word at 2) is always 10", SOURCE_SEED, "af_fighters", "exec_window",
                 lambda v: v == 10),
    Claim("The byte 31 from the end of an AF file is 250 (>= 70 required)", SOURCE_SEED, _check_byte_31),
    Claim("AF files end with FGHED", SOURCE_SEED, _check_fghed),
    column_claim("Animation unknown u4 (+4) is always 0", SOURCE_SEED, "af_moves", "anim_unknown_4",
                 lambda v: v == 0),
    column_claim("Move footer string length includes its NUL (last counted byte is 0)", SOURCE_NOTES,
                 "af_moves", "footer_string_nul", _nul_or_absent),
    column_claim("Animation string length excludes the NUL, which is always present", SOURCE_NOTES,
                 "af_moves", "anim_string_nul", lambda v: v == 0),
    column_claim("Sound table entry 0 is 0 in all known AF files", SOURCE_SEED, "af_fighters", "sound_0",
                 lambda v: v == 0),
    Claim("HAR number equals the number in the file name", SOURCE_SEED, _check_fighter_id),
    column_claim("Header byte 27 is always 0x32", SOURCE_SEED, "af_fighters", "unknown_27", lambda v: v == 0x32),
    column_claim("Header byte 28 is always 0x14", SOURCE_SEED, "af_fighters", "unknown_28", lambda v: v == 0x14),
    column_claim("Collision coordinate bits 10-15 are always 0", SOURCE_SEED, "af_coords", "unknown_bits_10_15",
                 lambda v: v == 0),
    column_claim("Health is at most 8717", SOURCE_SEED, "af_fighters", "health", lambda v: v <= 8717),
    column_claim("Move numbers are below 70", SOURCE_SEED, "af_moves", "move", lambda v: v < 70),
)

BK_CLAIMS = (
    Claim("Each BK animation record starts with the absolute offset of the next record", SOURCE_NOTES,
          _check_ofs_next),
    column_claim("BK animation list ends with animation number 51", SOURCE_NOTES, "bk_files", "terminator",
                 lambda v: v == 51),
    column_claim("Animation unknown u4 (+4) is always 0 (BK)", SOURCE_SEED, "bk_animations", "anim_unknown_4",
                 lambda v: v == 0),
    column_claim("BK palette colours are 6-bit (0-63)", SOURCE_NOTES, "bk_palettes", "colors_max",
                 lambda v: v <= 63),
    column_claim("Sound table entry 0 is 0 in all known BK files", SOURCE_SEED, "bk_files", "sound_0",
                 lambda v: v == 0),
    column_claim("BK footer string length includes its NUL", SOURCE_NOTES, "bk_animations", "footer_string_nul",
                 _nul_or_absent),
    column_claim("Animation string NUL is always present (BK)", SOURCE_NOTES, "bk_animations", "anim_string_nul",
                 lambda v: v == 0),
)

AF = Format(
    name="af",
    spec="af",
    title="One Must Fall 2097 fighter (FIGHTR*.AF)",
    extensions=(".af",),
    detect=detect_af,
    tables=af_tables,
    table_keys={
        "af_fighters": (),
        "af_moves": ("move",),
        "af_sprites": ("move", "sprite"),
        "af_coords": ("move", "coord"),
        "af_extra_strings": ("move", "string"),
    },
    claims=tuple(Claim(c.text, c.source, c.check, "af") for c in AF_CLAIMS),
)

BK = Format(
    name="bk",
    spec="bk",
    title="One Must Fall 2097 arena / scene (*.BK)",
    extensions=(".bk",),
    detect=detect_bk,
    tables=bk_tables,
    table_keys={
        "bk_files": (),
        "bk_animations": ("animation",),
        "bk_sprites": ("animation", "sprite"),
        "bk_coords": ("animation", "coord"),
        "bk_extra_strings": ("animation", "string"),
        "bk_palettes": ("palette",),
    },
    claims=tuple(Claim(c.text, c.source, c.check, "bk") for c in BK_CLAIMS),
)

FORMATS = [AF, BK]
