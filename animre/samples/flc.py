"""Civilization III unit FLC sample generator (FlicAnim FLCs) plus one plain FLC.

Writes little-endian files with :mod:`struct` and numpy only (its own
BYTE_RUN, DELTA_FLC, DELTA_FLI and COPY encoders, independent of
:mod:`animre.decode.flc`). Layout as in the format notes in the spec and the seed
note: the 128-byte FLC header with the 28-byte FlicAnimHeader at 0x58, then
per direction one BYTE_RUN frame (the file's first frame also carries the
palette, stored after the pixels as in the real files), DELTA_FLC frames for
the rest of the direction, and a ring frame that turns the direction's last
image back into its first. Sprites are made-up shapes (a body ellipse, a
rotating pointer, a moving dot) drawn over the transparent index 255, each
direction moving and turning its own way, clipped to a box inside the
240 x 240 unit canvas.

``flc/<Unit>/<Action>.flc`` are unit animations (8 directions, 0xFF);
``flc/Plain/Title.flc`` is a plain FLC without a FlicAnim header (prefix
chunk, PSTAMP, COPY, BLACK, DELTA_FLI, a COLOR_64 palette change and a final
ring frame). :func:`sprite_images` and :func:`expected_palettes` rebuild the
exact indexed images and palettes of a file from its manifest entry.

Planted regularities (recorded under ``planted``):

- ``speed`` lies in 44-125 ms in every unit file except ``speed_4_file``
  (speed 4 at byte 0x10, the value the seed note claims).
- ``anim_time == anim_length * speed`` except in ``speed_4_file`` (where it
  keeps the speed the file would have had).
- ``x_offset == (240 - width) // 2`` (the box is centred horizontally) in
  every unit file; ``y_offset + height == 170`` except ``feet_line_exception``.
- Palette chunks with the declared size 0xCDCDCDCD (``cdcd_palettes``).
- Frames declaring one more sub-chunk than they hold (``extra_subchunk_frames``).
- The frame header's reserved word is 1 in ring frames of unit files and 0
  everywhere else (``ring_reserved_flag``).
- ``updater`` is pure random (``random_column``, false-discovery guard).
- Frames whose image equals the previous one hold no sub-chunk at all
  (``empty_frames``).
"""

from __future__ import annotations

import math
import struct
from pathlib import Path

import numpy as np

__all__ = [
    "generate",
    "sprite_images",
    "expected_palettes",
    "encode_byte_run",
    "encode_delta_flc",
    "encode_delta_fli",
    "SUBDIR",
    "UNITS",
    "DIRECTION_NAMES",
]

SUBDIR = "flc"
DIRECTION_NAMES = ("SW", "S", "SE", "E", "NE", "N", "NW", "W")
# unit -> (box width, box height, actions with their frames per direction)
UNITS = {
    "Warrior": (36, 40, {"Default": 4, "Run": 6, "Attack": 5}),
    "Catapult": (45, 32, {"Default": 4, "Run": 5}),
    "Galley": (52, 30, {"Default": 3, "Death": 5}),
}
SPEED_4_FILE = "flc/Catapult/Run.flc"
FEET_EXCEPTION = "flc/Galley/Death.flc"
CDCD_FILES = ("flc/Warrior/Run.flc", "flc/Galley/Default.flc")
EXTRA_SUBCHUNK = {"flc/Warrior/Attack.flc": 2, "flc/Galley/Default.flc": 5}  # file -> frame ordinal
PLAIN_FILE = "flc/Plain/Title.flc"
HOLD_FILE = "flc/Catapult/Default.flc"  # one image repeats the previous: an empty frame chunk
CREATOR_CIV3 = 0xF1F1F2F2
CREATOR_FLIB = 0x464C4942
CDCD = 0xCDCDCDCD
TRANSPARENT = 255
FRAME, PREFIX = 0xF1FA, 0xF100
COLOR_256, DELTA_FLC, COLOR_64, DELTA_FLI, BLACK, BYTE_RUN, COPY, PSTAMP = 4, 7, 11, 12, 13, 15, 16, 18
# screen direction of each Civ3 direction (dx, dy), SW first
DIR_VECTORS = [(-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0)]


# ---------------------------------------------------------------------------- images


def _render(sp: dict, w: int, h: int, d: int, k: int, n: int) -> np.ndarray:
    """One indexed image: direction ``d``, frame ``k`` of ``n`` (pure function of its arguments)."""
    yy, xx = np.mgrid[0:h, 0:w]
    img = np.full((h, w), TRANSPARENT, dtype=np.uint8)
    dx, dy = DIR_VECTORS[d]
    phase = 2 * math.pi * k / n
    step = sp["step"] * math.sin(phase)
    cx = w / 2 + dx * step
    cy = h / 2 + dy * step * 0.5
    rx, ry = sp["rx"], sp["ry"]
    body = ((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2 <= 1.0
    img[body] = sp["body"] + d  # each direction its own body colour
    ang = math.atan2(dy, dx) + sp["spin"] * phase
    for t in np.linspace(0, sp["arm"], 2 * sp["arm"] + 1):
        px, py = int(round(cx + t * math.cos(ang))), int(round(cy + t * math.sin(ang)))
        if 0 <= px < w and 0 <= py < h:
            img[py, px] = sp["accent"]
    ox = int(round(cx - dx * sp["arm"] * 0.6 + 2 * math.cos(phase)))
    oy = int(round(cy - dy * sp["arm"] * 0.6 + 2 * math.sin(phase)))
    img[max(0, oy - 1):max(0, oy + 1), max(0, ox - 1):max(0, ox + 1)] = sp["dot"]
    img[h - 1, (k * 3 + d) % w] = sp["accent"]  # a ground mark moving along the last row
    return img


def _image(sp: dict, w: int, h: int, d: int, k: int, n: int) -> np.ndarray:
    """Frame ``k`` of direction ``d``; a planted ``hold`` [d, k] repeats the previous frame."""
    if sp.get("hold") == [d, k]:
        k -= 1
    return _render(sp, w, h, d, k, n)


def sprite_images(entry: dict) -> np.ndarray:
    """The exact indexed images a manifest entry's file encodes (image frames, file order).

    Parameters
    ----------
    entry : dict
        ``manifest["formats"]["flc"]["files"][name]``.

    Returns
    -------
    numpy.ndarray
        uint8, shape (number of image frames, height, width); ring frames
        are not included (a ring frame's image equals its direction's first).

    Examples
    --------
    >>> from animre.samples import load_manifest
    >>> m = load_manifest("data/samples")["formats"]["flc"]
    >>> sprite_images(m["files"]["flc/Warrior/Run.flc"]).shape
    (48, 40, 36)
    """
    w, h = entry["header"]["width"], entry["header"]["height"]
    if entry["kind"] == "plain":
        return np.array(_plain_images(entry["sprite"], w, h), dtype=np.uint8)
    n = entry["flicanim"]["anim_length"]
    return np.stack([_image(entry["sprite"], w, h, d, k, n)
                     for d in range(entry["flicanim"]["num_anims"]) for k in range(n)])


def _plain_images(sp: dict, w: int, h: int) -> list[np.ndarray]:
    rng = np.random.default_rng(sp["seed"])
    base = rng.integers(0, 200, (h, w), dtype=np.uint8)
    imgs = [base]
    a = base.copy()
    a[5:15, 3:40] = 201
    imgs.append(a)
    imgs.append(np.zeros((h, w), np.uint8))  # BLACK
    b = np.zeros((h, w), np.uint8)
    b[:, : w // 2] = 7
    b[10:20, 20:30] = rng.integers(0, 256, (10, 10), dtype=np.uint8)
    imgs.append(b)
    c = b.copy()
    c[30:34, 5:60] = 99
    c[40, 1:4] = (1, 2, 3)
    imgs.append(c)
    e = c.copy()
    e[0:3, w - 3:w] = 150
    imgs.append(e)
    return imgs


def _civ3_palette(rng: np.random.Generator) -> np.ndarray:
    pal = np.zeros((256, 3), dtype=np.int64)
    t = np.linspace(0, 1, 240)
    tint = rng.integers(0, 256, 3)
    for c in range(3):
        pal[:240, c] = (t * 255 * (0.4 + 0.6 * (c == 0)) + tint[c] * (1 - t)).astype(int) % 256
    pal[240:254] = np.stack([np.linspace(120, 250, 14).astype(int), np.zeros(14, int),
                             np.linspace(120, 250, 14).astype(int)], axis=1)
    pal[254] = (0, 255, 0)
    pal[255] = (255, 0, 255)
    return pal.astype(np.uint8)


def expected_palettes(entry: dict) -> np.ndarray:
    """The palette in force for each image frame of a manifest entry's file, shape (n, 256, 3)."""
    pal0 = np.array(entry["palette"], dtype=np.uint8)
    n = len(sprite_images(entry))
    out = np.repeat(pal0[None], n, axis=0)
    for change in entry.get("palette_changes", []):
        for idx, rgb in zip(change["indices"], change["colors"]):
            out[change["image"]:, idx] = np.array(rgb, dtype=np.int64) << 2
    return out


# ---------------------------------------------------------------------------- encoders


def encode_byte_run(img: np.ndarray) -> bytes:
    """BYTE_RUN body: per line a packet count byte, then runs (count > 0) and literals (count < 0)."""
    out = bytearray()
    for row in np.asarray(img, dtype=np.uint8):
        packets = bytearray()
        n = 0
        x, w = 0, len(row)
        while x < w:
            run = 1
            while x + run < w and row[x + run] == row[x] and run < 127:
                run += 1
            if run >= 3 or x + run == w and run == 2:
                packets += bytes([run, row[x]])
                x += run
            else:
                lit = x
                while lit < w and lit - x < 128:
                    r = 1
                    while lit + r < w and row[lit + r] == row[lit] and r < 3:
                        r += 1
                    if r >= 3:
                        break
                    lit += 1
                k = lit - x
                packets += bytes([256 - k]) + row[x:lit].tobytes()
                x = lit
            n += 1
        out += bytes([min(n, 255)]) + packets
    return bytes(out)


def _word_groups(changed: np.ndarray) -> list[tuple[int, int]]:
    """Runs of True in a boolean array as (start, stop)."""
    out, i, n = [], 0, len(changed)
    while i < n:
        if changed[i]:
            j = i
            while j < n and changed[j]:
                j += 1
            out.append((i, j))
            i = j
        else:
            i += 1
    return out


def encode_delta_flc(prev: np.ndarray, cur: np.ndarray) -> bytes | None:
    """DELTA_FLC (SS2) body turning ``prev`` into ``cur``; None when nothing changed.

    Word packets cover the even part of each line (column skips in bytes);
    the last pixel of an odd-width line goes in a 0x8000 option word.
    """
    h, w = cur.shape
    even = w & ~1
    body = bytearray()
    lines = 0
    skip = 0
    for y in range(h):
        a, b = prev[y], cur[y]
        words = (a[:even:2] != b[:even:2]) | (a[1:even:2] != b[1:even:2])
        last = bool(w & 1) and a[w - 1] != b[w - 1]
        if not words.any() and not last:
            skip += 1
            continue
        if skip:
            body += struct.pack("<H", 0x10000 - skip)
            skip = 0
        if last:
            body += struct.pack("<H", 0x8000 | int(b[w - 1]))
        packets = bytearray()
        count = 0
        x = 0
        for s, e in _word_groups(words):
            s_px = 2 * s
            while s_px - x > 255:  # a skip longer than a byte: an empty literal packet
                packets += bytes([255, 0])
                x += 255
                count += 1
            k = s
            while k < e:
                m = 1
                while k + m < e and m < 127 and b[2 * (k + m)] == b[2 * k] and b[2 * (k + m) + 1] == b[2 * k + 1]:
                    m += 1
                skip_px = 2 * k - x
                if m >= 2:
                    packets += bytes([skip_px, 256 - m]) + b[2 * k:2 * k + 2].tobytes()
                    k += m
                else:
                    lit = k + 1
                    while lit < e and lit - k < 127 and not (
                        lit + 1 < e and b[2 * lit] == b[2 * lit + 2] and b[2 * lit + 1] == b[2 * lit + 3]
                    ):
                        lit += 1
                    packets += bytes([skip_px, lit - k]) + b[2 * k:2 * lit].tobytes()
                    k = lit
                x = 2 * k
                count += 1
        body += struct.pack("<H", count) + packets
        lines += 1
    if lines == 0:
        return None
    return struct.pack("<H", lines) + bytes(body)


def encode_delta_fli(prev: np.ndarray, cur: np.ndarray) -> bytes:
    """DELTA_FLI (LC) body: first changed line, line count, byte packets per line."""
    h, w = cur.shape
    rows = [y for y in range(h) if (prev[y] != cur[y]).any()]
    if not rows:
        return struct.pack("<HH", 0, 0)
    y0, y1 = rows[0], rows[-1] + 1
    out = bytearray(struct.pack("<HH", y0, y1 - y0))
    for y in range(y0, y1):
        a, b = prev[y], cur[y]
        packets = bytearray()
        count = 0
        x = 0
        for s, e in _word_groups(a != b):
            while s - x > 255:
                packets += bytes([255, 0])
                x += 255
                count += 1
            k = s
            while k < e:
                m = min(e - k, 127)
                packets += bytes([k - x, m]) + b[k:k + m].tobytes()
                k += m
                x = k
                count += 1
        out += bytes([count]) + packets
    return bytes(out)


def _sub(ctype: int, body: bytes, declared: int | None = None) -> tuple[bytes, dict]:
    size = 6 + len(body)
    raw = struct.pack("<IH", size if declared is None else declared, ctype) + body
    return raw, {"type": ctype, "len_chunk": size if declared is None else declared, "len_real": size}


def _palette_body(pairs: list[tuple[int, list]]) -> bytes:
    """Palette packets from (skip, colours) pairs."""
    out = bytearray(struct.pack("<H", len(pairs)))
    for skip, colors in pairs:
        out += bytes([skip, len(colors) % 256])
        for c in colors:
            out += bytes(int(v) for v in c)
    return bytes(out)


def _frame(subs: list[tuple[bytes, dict]], reserved: int, delay: int, extra: int = 0) -> tuple[bytes, dict]:
    body = b"".join(s[0] for s in subs)
    size = 16 + len(body)
    head = struct.pack("<IHHHHHH", size, FRAME, len(subs) + extra, delay, reserved, 0, 0)
    return head + body, {"len_chunk": size, "num_chunks": len(subs) + extra, "num_chunks_found": len(subs),
                         "delay": delay, "reserved": reserved, "chunks": [s[1] for s in subs]}


def _header(v: dict, fa: dict | None) -> bytes:
    b = struct.pack("<IHHHHHHIHIIIIHH", v["len_file"], v["magic"], v["num_frames"], v["width"], v["height"],
                    v["depth"], v["flags"], v["speed"], 0, v["created"], v["creator"], v["updated"],
                    v["updater"], v["aspect_x"], v["aspect_y"])
    b += bytes(38) + struct.pack("<II", v["ofs_frame1"], v["ofs_frame2"])
    if fa is None:
        b += bytes(28)
    else:
        b += struct.pack("<IiHHHHHHIi", fa["len_header"], fa["flags"], fa["num_anims"], fa["anim_length"],
                         fa["x_offset"], fa["y_offset"], fa["xs_orig"], fa["ys_orig"], fa["anim_time"],
                         fa["directions"])
    b += bytes(12)
    assert len(b) == 128
    return b


def _assemble(header: dict, fa: dict | None, chunks: list[tuple[bytes, dict, str]]) -> tuple[bytes, list[dict]]:
    """Header + chunks; fills offsets, len_file, ofs_frame1/2; returns bytes and chunk records."""
    pos = 128
    records = []
    frame_offsets = []
    for raw, rec, kind in chunks:
        rec = dict(rec, offset=pos, kind=kind)
        if kind == "frame":
            frame_offsets.append(pos)
            sub_pos = pos + 16
            for c in rec["chunks"]:
                c["offset"] = sub_pos
                sub_pos += c["len_real"]
        records.append(rec)
        pos += len(raw)
    header["len_file"] = pos
    if header["magic"] == 0xAF12 and header.get("set_frame_offsets"):
        header["ofs_frame1"] = frame_offsets[0]
        header["ofs_frame2"] = frame_offsets[1] if len(frame_offsets) > 1 else 0
    data = _header(header, fa) + b"".join(c[0] for c in chunks)
    return data, records


def _unit_file(name: str, w: int, h: int, n: int, rng: np.random.Generator, speed: int, anim_speed: int,
               y_offset: int) -> tuple[bytes, dict]:
    sp = {
        "step": int(rng.integers(2, 5)), "rx": float(rng.integers(5, 8)), "ry": float(rng.integers(4, 7)),
        "spin": float(rng.choice([0.25, 0.5, -0.5])), "arm": int(rng.integers(6, 10)),
        "body": int(rng.integers(16, 120)), "accent": int(rng.integers(130, 200)),
        "dot": int(rng.integers(200, 240)),
    }
    if name == HOLD_FILE:
        sp["hold"] = [3, 2]
    pal = _civ3_palette(rng)
    fa = {"len_header": 0x1C, "flags": 0, "num_anims": 8, "anim_length": n, "x_offset": (240 - w) // 2,
          "y_offset": y_offset, "xs_orig": 240, "ys_orig": 240, "anim_time": n * anim_speed,
          "directions": 0xFF}
    header = {"magic": 0xAF12, "num_frames": 8 * n, "width": w, "height": h, "depth": 8, "flags": 0,
              "speed": speed, "created": 0, "creator": CREATOR_CIV3, "updated": 0,
              "updater": int(rng.integers(0, 2**32)), "aspect_x": 0, "aspect_y": 0, "ofs_frame1": 128,
              "ofs_frame2": 0}
    entry = {"kind": "unit", "sprite": sp, "palette": pal.tolist()}
    chunks: list[tuple[bytes, dict, str]] = []
    frames_meta = []
    image = 0
    empty = []
    cdcd = name in CDCD_FILES
    for d in range(8):
        imgs = [_image(sp, w, h, d, k, n) for k in range(n)]
        prev = None
        for k in range(n + 1):
            ring = k == n
            cur = imgs[0] if ring else imgs[k]
            ordinal = d * (n + 1) + k
            subs = []
            if prev is None:
                subs.append(_sub(BYTE_RUN, encode_byte_run(cur)))
                if d == 0:
                    subs.append(_sub(COLOR_256, _palette_body([(0, pal.tolist())]), CDCD if cdcd else None))
            else:
                body = encode_delta_flc(prev, cur)
                if body is not None:
                    subs.append(_sub(DELTA_FLC, body))
            extra = 1 if EXTRA_SUBCHUNK.get(name) == ordinal else 0
            raw, rec = _frame(subs, 1 if ring else 0, 1, extra)
            if not subs:
                empty.append(ordinal)
            rec.update(frame=ordinal, image=None if ring else image, is_ring=ring, direction=d,
                       direction_name=DIRECTION_NAMES[d])
            chunks.append((raw, rec, "frame"))
            frames_meta.append(rec)
            image += 0 if ring else 1
            prev = cur
    data, records = _assemble(header, fa, chunks)
    entry.update(header=header, flicanim=fa, frames=[r for r in records if r["kind"] == "frame"],
                 num_chunks=len(records), num_frame_chunks=len(records), num_ring_frames=8,
                 empty_frames=empty, size=len(data))
    return data, entry


def _plain_file(rng: np.random.Generator) -> tuple[bytes, dict]:
    w, h = 64, 48
    sp = {"seed": int(rng.integers(0, 2**31))}
    imgs = _plain_images(sp, w, h)
    pal = rng.integers(0, 256, (256, 3)).astype(np.uint8)
    change_idx = [10, 11, 12, 200]
    change_rgb = rng.integers(0, 64, (4, 3)).tolist()
    header = {"magic": 0xAF12, "num_frames": len(imgs), "width": w, "height": h, "depth": 8, "flags": 3,
              "speed": 70, "created": int(rng.integers(0, 2**31)), "creator": CREATOR_FLIB,
              "updated": 0, "updater": int(rng.integers(0, 2**32)), "aspect_x": 1, "aspect_y": 1,
              "ofs_frame1": 0, "ofs_frame2": 0, "set_frame_offsets": True}
    header["updated"] = header["created"] + int(rng.integers(1, 10**6))
    prefix_body = struct.pack("<HQ", 0, 0) + b"animre prefix chunk: settings kept raw\x00"
    chunks: list[tuple[bytes, dict, str]] = [
        (struct.pack("<IH", 6 + len(prefix_body), PREFIX) + prefix_body,
         {"len_chunk": 6 + len(prefix_body), "type": PREFIX}, "prefix")]
    stamp_img = imgs[0][::4, ::4]
    stamp = struct.pack("<HHH", stamp_img.shape[0], stamp_img.shape[1], 1) + _sub(BYTE_RUN, encode_byte_run(stamp_img))[0]
    plan = [
        [_sub(PSTAMP, stamp), _sub(COLOR_256, _palette_body([(0, pal.tolist())])),
         _sub(COPY, imgs[0].tobytes())],
        [_sub(DELTA_FLC, encode_delta_flc(imgs[0], imgs[1]))],
        [_sub(BLACK, b"")],
        [_sub(BYTE_RUN, encode_byte_run(imgs[3]))],
        [_sub(DELTA_FLI, encode_delta_fli(imgs[3], imgs[4]))],
        [_sub(COLOR_64, _palette_body([(10, change_rgb[:3]), (187, change_rgb[3:])])),
         _sub(DELTA_FLC, encode_delta_flc(imgs[4], imgs[5]))],
        [_sub(DELTA_FLC, encode_delta_flc(imgs[5], imgs[0]))],  # ring frame
    ]
    for k, subs in enumerate(plan):
        raw, rec = _frame(subs, 0, 0)
        ring = k == len(imgs)
        rec.update(frame=k, image=None if ring else k, is_ring=ring, direction=None, direction_name=None)
        chunks.append((raw, rec, "frame"))
    data, records = _assemble(header, None, chunks)
    header.pop("set_frame_offsets")
    entry = {"kind": "plain", "sprite": sp, "header": header, "flicanim": None, "palette": pal.tolist(),
             "palette_changes": [{"image": 5, "indices": change_idx, "colors": change_rgb}],
             "frames": [r for r in records if r["kind"] == "frame"], "prefix": records[0],
             "num_chunks": len(records), "num_frame_chunks": len(records) - 1, "num_ring_frames": 1,
             "empty_frames": [], "size": len(data)}
    return data, entry


def generate(out_dir: Path, seed: int) -> dict:
    """Write ``flc/<Unit>/<Action>.flc`` and ``flc/Plain/Title.flc``; return the manifest section."""
    rng = np.random.default_rng(seed)
    root = Path(out_dir)
    files: dict[str, dict] = {}
    planted: dict = {"cdcd_palettes": [], "extra_subchunk_frames": [], "empty_frames": []}
    for unit, (w, h, actions) in UNITS.items():
        for action, n in actions.items():
            name = f"{SUBDIR}/{unit}/{action}.flc"
            real_speed = int(rng.integers(44, 126))
            speed = 4 if name == SPEED_4_FILE else real_speed
            y_offset = 170 - h if name != FEET_EXCEPTION else 170 - h - 7
            data, entry = _unit_file(name, w, h, n, rng, speed, real_speed, y_offset)
            p = root / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
            files[name] = entry
            for fr in entry["frames"]:
                for c in fr["chunks"]:
                    if c["len_chunk"] == CDCD:
                        planted["cdcd_palettes"].append({"file": name, "frame": fr["frame"],
                                                         "offset": c["offset"]})
                if fr["num_chunks"] != fr["num_chunks_found"]:
                    planted["extra_subchunk_frames"].append({"file": name, "frame": fr["frame"],
                                                             "offset": fr["offset"] + 6,
                                                             "declared": fr["num_chunks"],
                                                             "found": fr["num_chunks_found"]})
            planted["empty_frames"] += [{"file": name, "frame": f} for f in entry["empty_frames"]]
    data, entry = _plain_file(rng)
    p = root / PLAIN_FILE
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    files[PLAIN_FILE] = entry
    planted.update({
        "speed_4_file": {"file": SPEED_4_FILE, "offset": 0x10, "value": 4},
        "speed_range": [44, 125],
        "anim_time_rule": "anim_time == anim_length * speed",
        "anim_time_exceptions": [SPEED_4_FILE],
        "x_offset_rule": "x_offset == (240 - width) // 2",
        "feet_line_rule": "y_offset + height == 170",
        "feet_line_exception": FEET_EXCEPTION,
        "ring_reserved_flag": {"field": "frame reserved_4", "value": 1, "category": "ring frames of unit files"},
        "random_column": "updater",
        "plain_file": PLAIN_FILE,
        "unit_files": [f for f in files if f != PLAIN_FILE],
    })
    return {"files": files, "planted": planted, "direction_names": list(DIRECTION_NAMES)}
