"""Naruto GNT4 (GameCube) ``.mot`` sample generator: MOT files holding GNTA animations.

Writes big-endian files with :mod:`struct` only (16-bit components are cut
from the f32 bit pattern here, independently of :mod:`animre.formats.mot.decode`).
Layout as in the format notes in the spec: MOT header, one absolute u4 offset per
animation id (0 = absent), then the GNTA animations, 16-byte aligned and stored
in descending id order; inside a GNTA the header, the track headers, then per
track the key times and the key coordinates, each padded to 16 bytes with
non-zero junk. Offsets inside a GNTA are relative to its start.

For each character ``mot/<chr>/0000.mot`` holds many animations and
``mot/<chr>/0001.mot`` only the idle animation (id 0), byte-identical to the
idle GNTA of ``0000.mot``.

Planted regularities (recorded under ``planted``):

- ``play_speed`` lies in [.03, .25] except ``play_speed_exceptions``.
- flags 0x0204 (f32 components) only in the files of ``F32_CHARACTERS``,
  listed one by one in ``f32_tracks`` (counterexamples to the note's
  "0x0202 or 0x0000").
- flags 0x0000 (no coordinates) tracks carry DISABLED (0x40) in their track
  flags, and only they do (``no_coord_tracks``).
- ``unknown_18`` = frame count of the track (last key frame) in 24.8 fixed
  point (``frames * 256``) except ``unknown_18_exceptions`` (0 there).
- ``unknown_0c`` is 0 except in exactly one track (``unknown_0c_exception``).
- ``unknown_1c`` is pure random (false-discovery guard).
- ``len_file`` equals the real size except one file (``len_file_exception``).
- a track's ``total_time`` equals its last key time; a GNTA's ``end_time``
  is the largest ``total_time`` of its tracks.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

__all__ = ["generate", "CHARACTERS", "ANIM_IDS", "SUBDIR", "upper_half", "from_upper_half"]

SUBDIR = "mot"
CHARACTERS = [
    "ank", "bou", "cho", "gai", "gar", "hin", "ino", "ita", "jir", "kab",
    "kak", "kib", "nar", "nej", "oro", "sak", "sas", "sik", "ten", "tsu",
]
F32_CHARACTERS = ("gar", "kak", "oro", "sas")
ANIM_IDS = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x0A, 0x13, 0x20, 0x21, 0x24, 0x28,
    0x30, 0x31, 0x32, 0x33, 0x41, 0x43, 0x47, 0x4F, 0x58, 0x66, 0x6E, 0x71, 0x77, 0x90, 0x91,
    0x92, 0x93, 0xA0, 0xA1, 0xA2, 0xA3, 0xD6, 0xD7, 0xF0, 0xF6, 0x100, 0x109, 0x110, 0x12A,
    0x140, 0x146, 0x160, 0x1B0, 0x1B3, 0x1E0, 0x1E3, 0x1F0,
]
TRANSLATE, SCALE, ROTATE, ENABLED, DISABLED = 0x01, 0x02, 0x08, 0x20, 0x40
BONES_TRANSLATE = [0xFFFF, 0x00, 0x01, 0x02]
BONES_BODY = list(range(0x03, 0x16))
BONES_EXTRA = [0x1E, 0x23, 0x2D, 0x33, 0x3C, 0x3F, 0x42, 0x4B, 0x4E, 0x5D, 0x6F, 0x70, 0x74, 0x77]
BONES_HAIR = {0x6F, 0x70, 0x74}
LEN_FILE_EXCEPTION = "tsu/0000.mot"
UNKNOWN_0C_FILE = "sak/0000.mot"


def upper_half(value: float) -> int:
    """Upper 16 bits of the big-endian f32 bit pattern of ``value`` (truncating)."""
    return struct.unpack(">I", struct.pack(">f", value))[0] >> 16


def from_upper_half(raw: int) -> float:
    """The f32 whose upper half is ``raw`` and lower half zero."""
    return struct.unpack(">f", struct.pack(">I", raw << 16))[0]


def _f32(x: float) -> float:
    return struct.unpack(">f", struct.pack(">f", x))[0]


def _junk(rng: np.random.Generator, n: int) -> bytes:
    return rng.integers(1, 256, n, dtype=np.uint8).tobytes()


def _pad_len(n: int) -> int:
    return (16 - n % 16) % 16


def _track_values(rng: np.random.Generator, kind: int) -> list[float]:
    if kind == ROTATE:
        d = rng.normal(size=3)
        d /= np.linalg.norm(d)
        return [float(d[0]), float(d[1]), float(d[2]), float(np.round(rng.uniform(-180, 180) * 2) / 2)]
    if kind == TRANSLATE:
        return [float(np.round(rng.uniform(-50, 50), 2)) for _ in range(3)] + [0.0]
    return [float(np.round(rng.uniform(0.8, 1.2), 3)) for _ in range(3)] + [1.0]


def _make_gnta(rng: np.random.Generator, chr_name: str, anim_id: int, play_speed: float,
               no_unknown_18: set[int]) -> tuple[bytes, dict]:
    """Build one GNTA (bytes, truth with offsets relative to the GNTA start)."""
    n_tracks = int(rng.integers(3, 11))
    pool = BONES_TRANSLATE[: int(rng.integers(1, 5))] + sorted(
        rng.choice(BONES_BODY + BONES_EXTRA, n_tracks, replace=False).tolist())
    bones = pool[:n_tracks]
    n_tracks = len(bones)
    length = int(rng.integers(6, 91))  # animation length in frames
    tracks = []
    for ti, bone in enumerate(bones):
        if bone in BONES_TRANSLATE:
            kind = TRANSLATE
        elif bone in BONES_HAIR and rng.random() < 0.5:
            kind = SCALE
        else:
            kind = ROTATE
        r = rng.random()
        if r < 0.06:
            flags = 0x0000
        elif chr_name in F32_CHARACTERS and r < 0.35:
            flags = 0x0204
        else:
            flags = 0x0202
        track_flags = kind | (DISABLED if flags == 0 else ENABLED)
        last = length if rng.random() < 0.8 else int(rng.integers(2, length + 1))
        n_keys = int(rng.integers(2, min(9, last + 2)))
        inner = sorted(rng.choice(np.arange(1, last), n_keys - 2, replace=False).tolist()) if n_keys > 2 else []
        frames = [0] + [int(f) for f in inner] + [last]
        times = [_f32(f / 60) for f in frames]
        raw = values = None
        if flags & 0x0200:
            base = _track_values(rng, kind)
            vals = []
            for _ in frames:
                jitter = rng.normal(scale=0.15, size=4)
                v = [base[0] + jitter[0], base[1] + jitter[1], base[2] + jitter[2], base[3]]
                if kind == ROTATE:
                    xyz = np.array(v[:3])
                    xyz /= np.linalg.norm(xyz)
                    v = [float(xyz[0]), float(xyz[1]), float(xyz[2]),
                         float(np.clip(base[3] + np.round(jitter[3] * 40), -180, 180))]
                vals.append([float(x) for x in v])
            if flags == 0x0202:
                raw = [[upper_half(x) for x in v] for v in vals]
                values = [[from_upper_half(x) for x in r4] for r4 in raw]
            else:
                values = [[_f32(x) for x in v] for v in vals]
        tracks.append({
            "flags": flags, "track_flags": track_flags, "bone_id": bone, "num_keys": len(frames),
            "total_time": times[-1], "frames": frames, "times": times, "raw": raw, "values": values,
            "unknown_0c": 0,
            "unknown_18": 0 if ti in no_unknown_18 else last * 256,
            "unknown_1c": int(rng.integers(0, 2**32)),
        })
    end_time = max(t["total_time"] for t in tracks)
    # layout: header, track headers, then per track times (+pad), coordinates (+pad)
    pos = 16 + 32 * n_tracks
    body = bytearray()
    for t in tracks:
        t["ofs_times"] = pos
        chunk = struct.pack(f">{t['num_keys']}f", *t["times"])
        t["pad_times"] = _junk(rng, _pad_len(len(chunk)))
        body += chunk + t["pad_times"]
        pos += len(chunk) + len(t["pad_times"])
        if t["flags"] & 0x0200:
            t["ofs_coords"] = pos
            if t["flags"] == 0x0202:
                chunk = b"".join(struct.pack(">4H", *r4) for r4 in t["raw"])
            else:
                chunk = b"".join(struct.pack(">4f", *v) for v in t["values"])
            t["pad_coords"] = _junk(rng, _pad_len(len(chunk)))
            body += chunk + t["pad_coords"]
            pos += len(chunk) + len(t["pad_coords"])
        else:
            t["ofs_coords"] = 0
            t["pad_coords"] = None
    out = bytearray(struct.pack(">IIff", n_tracks, 0x10, play_speed, end_time))
    for t in tracks:
        out += struct.pack(">HHHHfIIIII", t["flags"], t["track_flags"], t["bone_id"], t["num_keys"],
                           t["total_time"], t["unknown_0c"], t["ofs_times"], t["ofs_coords"],
                           t["unknown_18"], t["unknown_1c"])
    out += body
    assert len(out) % 16 == 0
    truth = {"anim_id": anim_id, "num_tracks": n_tracks, "len_header": 0x10, "play_speed": play_speed,
             "end_time": end_time, "length_frames": length, "tracks": tracks}
    return bytes(out), truth


def _write_mot(rng: np.random.Generator, anims: list[tuple[int, bytes, dict]], num_ids: int,
               len_file_delta: int = 0) -> tuple[bytes, dict]:
    """Lay out a MOT file (GNTAs in descending id order); return bytes and the file truth."""
    table_end = 16 + 4 * num_ids
    pad = _junk(rng, _pad_len(table_end))
    pos = table_end + len(pad)
    offsets = [0] * num_ids
    body = bytearray()
    placed = []
    for anim_id, blob, truth in sorted(anims, key=lambda a: -a[0]):
        offsets[anim_id] = pos
        body += blob
        placed.append((anim_id, pos, truth))
        pos += len(blob)
    size = pos
    head = struct.pack(">IIII", 0, num_ids, 0x10, size + len_file_delta)
    data = head + struct.pack(f">{num_ids}I", *offsets) + pad + bytes(body)
    assert len(data) == size
    animations = []
    for _anim_id, at, truth in sorted(placed):
        a = dict(truth, offset=at, tracks=[dict(t, offset=at + 16 + 32 * i) for i, t in enumerate(truth["tracks"])])
        animations.append(a)
    v = {"size": size, "unknown_0": 0, "num_anim_ids": num_ids, "len_header": 0x10,
         "len_file": size + len_file_delta, "offsets": offsets, "pad_offsets": pad,
         "storage_order": [a for a, _, _ in placed], "animations": animations}
    return data, v


def generate(out_dir: Path, seed: int) -> dict:
    """Write ``mot/<chr>/0000.mot`` and ``0001.mot`` under ``out_dir``; return the manifest section."""
    rng = np.random.default_rng(seed)
    root = Path(out_dir) / SUBDIR
    files: dict[str, dict] = {}
    speed_exc, f32_tracks, no_coord, u18_exc, idle_copies = [], [], [], [], {}
    u0c = None
    exception_speeds = {("gai", 0x90): 0.5, ("ino", 0x01): 1.0, ("kab", 0xA0): 0.0125}
    u18_plan = {("cho", 0x00): {1}, ("jir", 0x31): {0, 2}}
    for chr_name in CHARACTERS:
        d = root / chr_name
        d.mkdir(parents=True, exist_ok=True)
        others = rng.choice(ANIM_IDS[1:], int(rng.integers(5, 10)), replace=False).tolist()
        ids = sorted({0, *others, *(a for c, a in exception_speeds if c == chr_name),
                      *(a for c, a in u18_plan if c == chr_name)})
        anims = []
        for anim_id in ids:
            speed = exception_speeds.get((chr_name, anim_id), float(np.round(rng.uniform(0.03, 0.25), 3)))
            blob, truth = _make_gnta(rng, chr_name, anim_id, _f32(speed), u18_plan.get((chr_name, anim_id), set()))
            anims.append((anim_id, blob, truth))
        num_ids = max(ids) + 1 + int(rng.integers(0, 17))
        name = f"{chr_name}/0000.mot"
        key = f"{SUBDIR}/{name}"
        if name == UNKNOWN_0C_FILE:  # the one track whose unknown_0c is not zero
            anim_id, blob, truth = anims[len(anims) // 2]
            blob = bytearray(blob)
            struct.pack_into(">I", blob, 16 + 32 * 1 + 0x0C, 0x3F800000)
            truth["tracks"][1]["unknown_0c"] = 0x3F800000
            anims[len(anims) // 2] = (anim_id, bytes(blob), truth)
        data, v = _write_mot(rng, anims, num_ids, 0x40 if name == LEN_FILE_EXCEPTION else 0)
        (d / "0000.mot").write_bytes(data)
        files[key] = v
        # 0001.mot: only the idle animation, the same GNTA bytes as in 0000.mot
        idle = next(x for x in anims if x[0] == 0)
        data1, v1 = _write_mot(rng, [idle], 1)
        (d / "0001.mot").write_bytes(data1)
        files[f"{SUBDIR}/{chr_name}/0001.mot"] = v1
        idle_copies[f"{SUBDIR}/{chr_name}/0001.mot"] = key
    for key, v in files.items():
        chr_name = key.split("/")[1]
        for a in v["animations"]:
            for i, t in enumerate(a["tracks"]):
                loc = {"file": key, "anim_id": a["anim_id"], "track": i, "offset": t["offset"]}
                if t["flags"] == 0x0204:
                    f32_tracks.append(loc)
                if t["flags"] == 0:
                    no_coord.append(loc)
                if t["unknown_0c"]:
                    u0c = dict(loc, offset=t["offset"] + 0x0C, value=t["unknown_0c"])
                if t["unknown_18"] != t["frames"][-1] * 256:
                    u18_exc.append(dict(loc, offset=t["offset"] + 0x18, value=t["unknown_18"]))
            if (chr_name, a["anim_id"]) in exception_speeds:
                speed_exc.append({"file": key, "anim_id": a["anim_id"], "offset": a["offset"] + 8,
                                  "value": a["play_speed"]})
    return {
        "files": files,
        "planted": {
            "play_speed_range": [0.03, 0.25],
            "play_speed_exceptions": speed_exc,
            "f32_characters": list(F32_CHARACTERS),
            "f32_tracks": f32_tracks,
            "no_coord_tracks": no_coord,
            "disabled_bit_only_without_coords": True,
            "unknown_18_rule": "last key frame * 256 (24.8 fixed point frame count of the track)",
            "unknown_18_exceptions": u18_exc,
            "unknown_0c_exception": u0c,
            "unknown_1c": "random u4 (no meaning)",
            "len_file_exception": {"file": f"{SUBDIR}/{LEN_FILE_EXCEPTION}", "offset": 12,
                                   "value": files[f"{SUBDIR}/{LEN_FILE_EXCEPTION}"]["len_file"],
                                   "real_size": files[f"{SUBDIR}/{LEN_FILE_EXCEPTION}"]["size"]},
            "idle_copies": idle_copies,
            "descending_id_order": True,
            "total_time_is_last_key_time": True,
            "end_time_is_max_total_time": True,
        },
    }
