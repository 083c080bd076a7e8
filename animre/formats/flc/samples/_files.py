"""The FLC sample files: chunks, the 128-byte header, and each file's plan (a Civ3 unit animation, the
plain FLC) with its manifest entry."""

from __future__ import annotations

import struct

import numpy as np

from ._encoders import encode_byte_run, encode_delta_flc, encode_delta_fli
from ._images import civ3_palette, frame_image, plain_images

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
FRAME, PREFIX = 0xF1FA, 0xF100
COLOR_256, DELTA_FLC, COLOR_64, DELTA_FLI, BLACK, BYTE_RUN, COPY, PSTAMP = 4, 7, 11, 12, 13, 15, 16, 18


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


def unit_file(name: str, w: int, h: int, n: int, rng: np.random.Generator, speed: int, anim_speed: int,
               y_offset: int) -> tuple[bytes, dict]:
    """The bytes and manifest entry of one Civ3 unit animation (8 directions of ``n`` frames, ``w`` x ``h``)."""
    sp = {
        "step": int(rng.integers(2, 5)), "rx": float(rng.integers(5, 8)), "ry": float(rng.integers(4, 7)),
        "spin": float(rng.choice([0.25, 0.5, -0.5])), "arm": int(rng.integers(6, 10)),
        "body": int(rng.integers(16, 120)), "accent": int(rng.integers(130, 200)),
        "dot": int(rng.integers(200, 240)),
    }
    if name == HOLD_FILE:
        sp["hold"] = [3, 2]
    pal = civ3_palette(rng)
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
        imgs = [frame_image(sp, w, h, d, k, n) for k in range(n)]
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


def plain_file(rng: np.random.Generator) -> tuple[bytes, dict]:
    """The bytes and manifest entry of ``flc/Plain/Title.flc``: a plain FLC with every chunk type."""
    w, h = 64, 48
    sp = {"seed": int(rng.integers(0, 2**31))}
    imgs = plain_images(sp, w, h)
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
    stamp = (struct.pack("<HHH", stamp_img.shape[0], stamp_img.shape[1], 1)
             + _sub(BYTE_RUN, encode_byte_run(stamp_img))[0])
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
