"""Retro Studios PAS4 sample generator (parameterized animation state databases).

Writes big-endian PAS4 blocks with :mod:`struct` only: bare blocks
(``pas4/<name>.pas4``) and a few one-character ANCS files
(``pas4/<name>.ancs``) in the Metroid Prime 1 layout (character info
version 6: the block sits between the animation names and the particle
lists; :func:`encode_ancs` also writes several characters, for the PAK
samples). Value widths follow the format notes in the spec: Bool = 1 byte, Int32 /
UInt32 / Enum / Real = 4 bytes, an unknown parm type = 0 bytes.

Planted regularities (recorded in the manifest under ``planted``):

- ``weight`` is 1.0 whenever the weight function is ``no_weight`` (3), except
  in one file (``no_weight_weight_exception``).
- Every Real anim value lies within its parm's [min, max] except one value
  (``real_out_of_range``).
- Real parms with min -180 and max 180 (angles) always use ``angular_percent``
  (2); other Real parms use ``percent_error`` (1); Bool parms use
  ``exact_match`` (0) unless ``no_weight`` (``weight_function_by_type``).
- One UInt32 parameter column holds pure random values (``random_column``).
- State type ids 21-24 (additive states) appear only in one "later game"
  file (``later_game_file``).
- One database has no states and default -1 (``empty_file``).
- One state has more than 8 parms (``too_many_parms``), one parm has the
  unknown type 7 whose values take 0 bytes (``unknown_parm_type``).
- States are written sorted by type id except in ``states_unsorted`` files.
- The default anim state is a state type present in the file.
- One container holds a decoy "PAS4" string before the real block
  (``decoy_magic``).
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

__all__ = ["generate", "encode_pas4", "encode_ancs", "encode_character", "STATE_TYPE_NAMES", "PARM_TYPE_NAMES",
           "WEIGHT_FUNCTION_NAMES", "SUBDIR"]

SUBDIR = "pas4"
STATE_TYPE_NAMES = [
    "fall", "get_up", "lie_on_ground", "step", "death", "locomotion", "knock_back", "melee_attack",
    "turn", "loop_attack", "loop_reaction", "ground_hit", "generate", "jump", "hurled", "slide",
    "taunt", "scripted", "projectile_attack", "cover", "wall_hang", "additive_idle", "additive_aim",
    "additive_flinch", "additive_reaction",
]
PARM_TYPE_NAMES = ["int32", "uint32", "real", "bool", "enum"]
WEIGHT_FUNCTION_NAMES = ["exact_match", "percent_error", "angular_percent", "no_weight"]
INT32, UINT32, REAL, BOOL, ENUM = range(5)
EXACT, PERCENT, ANGULAR, NO_WEIGHT = range(4)
UNKNOWN_PARM_TYPE = 7

BARE = [
    "Samus", "SpacePirate", "Metroid", "Sheegoth", "ChozoGhost", "Flaahgra", "Beetle", "Zoomer",
    "Parasite", "Puffer", "Grizby", "Thardus", "WarWasp", "EmptyProp", "DarkSamus",
]
CONTAINERS = ["OmegaPirate", "Ridley", "BabySheegoth"]

EMPTY = "EmptyProp"
LATER = "DarkSamus"
NO_WEIGHT_EXCEPTION = "Flaahgra"
REAL_EXCEPTION = "SpacePirate"
RANDOM_COLUMN = "Sheegoth"
TOO_MANY = "Thardus"
UNKNOWN_TYPE = "Grizby"
UNSORTED = ("ChozoGhost", "WarWasp", "Ridley")
DECOY = "Ridley"


def _f32(x: float) -> float:
    return struct.unpack(">f", struct.pack(">f", x))[0]


def _pack_value(parm_type: int, v) -> bytes:
    if parm_type in (INT32, ENUM):
        return struct.pack(">i", v)
    if parm_type == UINT32:
        return struct.pack(">I", v)
    if parm_type == REAL:
        return struct.pack(">f", v)
    if parm_type == BOOL:
        return struct.pack(">B", v)
    return b""  # unknown parm type: 0 bytes, as every engine reader does


def encode_pas4(db: dict) -> bytes:
    """Write one PAS4 block from a manifest entry (``states``, ``default_anim_state``)."""
    b = bytearray(b"PAS4")
    b += struct.pack(">Ii", len(db["states"]), db["default_anim_state"])
    for st in db["states"]:
        b += struct.pack(">III", st["state_type"], len(st["parms"]), len(st["anims"]))
        for p in st["parms"]:
            b += struct.pack(">IIf", p["parm_type"], p["weight_function"], p["weight"])
            b += _pack_value(p["parm_type"], p["min_value"])
            b += _pack_value(p["parm_type"], p["max_value"])
        for a in st["anims"]:
            b += struct.pack(">I", a["anim_id"])
            for p, v in zip(st["parms"], a["values"]):
                b += _pack_value(p["parm_type"], v)
    return bytes(b)


def _cstr(s: str) -> bytes:
    return s.encode("ascii") + b"\0"


def _ids(xs) -> bytes:
    return struct.pack(">I", len(xs)) + b"".join(struct.pack(">I", x) for x in xs)


def encode_character(c: dict, pas4: bytes) -> tuple[bytes, int]:
    """One Metroid Prime 1 character info (info version ``c["info_version"]``, 1-6) around a PAS4 block.

    Returns the bytes and the block's offset in them. Missing keys take
    empty or zero defaults. Layout after the Metroid Prime engine reader:
    u4 id, u2 info version, name, u4 model / skin / skeleton ids, u4
    animation-name count + (u4 id, string, name) each, the PAS4 block, the
    particle lists (part, swoosh, an empty third list, electric from version 6),
    u4 unknown, animation boxes (name + 6 f4, version > 1), effects (version
    > 2), overlay model and skin (version > 3), animation index map (version > 4).
    """
    ver = c.get("info_version", 6)
    b = bytearray(struct.pack(">IH", c["id"], ver))
    b += _cstr(c["name"])
    b += struct.pack(">III", c.get("cmdl_id", 0), c.get("cskr_id", 0), c.get("cinf_id", 0))
    b += struct.pack(">I", len(c.get("anim_names", [])))
    for aid, name, note in c.get("anim_names", []):
        b += struct.pack(">I", aid) + _cstr(note) + _cstr(name)
    off = len(b)
    b += pas4
    b += _ids(c.get("particle_ids", [])) + _ids(c.get("swoosh_ids", [])) + _ids([])
    if ver > 5:
        b += _ids(c.get("electric_ids", []))
    b += struct.pack(">I", c.get("unknown", 0))
    if ver > 1:
        boxes = c.get("aabbs", [])
        b += struct.pack(">I", len(boxes))
        for name, box in boxes:
            b += _cstr(name) + struct.pack(">6f", *box)
    if ver > 2:
        effects = c.get("effects", [])
        b += struct.pack(">I", len(effects))
        for name, comps in effects:
            b += _cstr(name) + struct.pack(">I", len(comps))
            for cname, part_id, bone, scale in comps:
                b += _cstr(cname) + b"PART" + struct.pack(">I", part_id) + _cstr(bone)
                b += struct.pack(">fII", scale, 0, 0)
    if ver > 3:
        b += struct.pack(">II", c.get("frozen_cmdl_id", 0), c.get("frozen_cskr_id", 0))
    if ver > 4:
        b += _ids(c.get("anim_index_map", []))
    return bytes(b), off


def encode_ancs(chars: list[dict], blocks: list[bytes]) -> tuple[bytes, list[int]]:
    """A Metroid Prime 1 ANCS file: a character set (one PAS4 block per character) and an empty animation set.

    Returns the bytes and each block's offset. The animation set is
    written empty (u2 table count 1, no animations, no transitions, a
    "snap" default transition, no animation resources): only the
    character set matters to PAS4.
    """
    b = bytearray(struct.pack(">HHI", 1, 1, len(chars)))
    offsets = []
    for c, pas4 in zip(chars, blocks):
        data, off = encode_character(c, pas4)
        offsets.append(len(b) + off)
        b += data
    b += struct.pack(">HIII", 1, 0, 0, 3) + struct.pack(">I", 0)
    return bytes(b), offsets


def _value(rng, parm_type: int, lo, hi):
    if parm_type == REAL:
        return _f32(round(float(rng.uniform(lo, hi)), 2))
    if parm_type == BOOL:
        return int(rng.integers(0, 2))
    return int(rng.integers(lo, hi + 1))


def _parm(rng, parm_type: int) -> dict:
    """A parm info with a range and weighting following the planted rules."""
    if parm_type == INT32:
        lo, hi = int(rng.integers(-10, 1)), int(rng.integers(1, 21))
        wf = int(rng.choice([EXACT, PERCENT]))
    elif parm_type == UINT32:
        lo, hi = 0, int(rng.integers(1, 101))
        wf = EXACT
    elif parm_type == REAL:
        if rng.random() < 0.4:
            lo, hi, wf = -180.0, 180.0, ANGULAR
        else:
            lo = float(rng.choice([0.0, -1.0, -30.0]))
            hi = float(rng.choice([1.0, 10.0, 30.0, 90.0]))
            wf = PERCENT
        lo, hi = _f32(lo), _f32(hi)
    elif parm_type == BOOL:
        lo, hi, wf = 0, 1, EXACT
    else:  # ENUM
        lo, hi = 0, int(rng.integers(1, 8))
        wf = EXACT
    if rng.random() < 0.2:
        wf = NO_WEIGHT
    weight = 1.0 if wf == NO_WEIGHT else _f32(float(rng.choice([0.25, 0.5, 1.0, 2.0, 3.0, 4.0])))
    return {"parm_type": parm_type, "parm_type_name": PARM_TYPE_NAMES[parm_type], "weight_function": wf,
            "weight_function_name": WEIGHT_FUNCTION_NAMES[wf], "weight": weight, "min_value": lo,
            "max_value": hi, "is_known_type": True}


def _database(rng, name: str, anim_counter: list[int]) -> tuple[dict, dict]:
    """Build one database (manifest entry) and the planted facts it carries."""
    planted: dict = {}
    if name == EMPTY:
        return {"num_anim_states": 0, "default_anim_state": -1, "states": []}, planted
    pool = list(range(21))
    k = int(rng.integers(2, 7))
    types = [int(t) for t in rng.choice(pool, size=k, replace=False)]
    if name == LATER:
        types = types[:3] + [21, 22, 23, 24]
    if 5 not in types and rng.random() < 0.6:
        types[0] = 5  # most characters have locomotion
    types = sorted(set(types))
    if name in UNSORTED:
        types = types[1:] + types[:1]  # k >= 2 distinct types, so this is out of order
    states = []
    for si, st_type in enumerate(types):
        n_parms = int(rng.integers(0, 6))
        n_anims = int(rng.integers(1, 7))
        if name == "Zoomer" and si == 0:
            n_parms, n_anims = 0, 2  # a state selected without parameters
        if name == "Beetle" and si == 0:
            n_parms, n_anims = max(n_parms, 2), 0  # described parameters, no animations
        if name == "Puffer" and si == 0:
            n_parms, n_anims = 0, 0
        if name == TOO_MANY and si == 0:
            n_parms, n_anims = 9, max(n_anims, 2)
        if name == REAL_EXCEPTION and si == 0:
            n_parms, n_anims = max(n_parms, 1), max(n_anims, 3)
        if name == RANDOM_COLUMN and si == 0:
            n_parms, n_anims = max(n_parms, 2), 6
        ptypes = [int(t) for t in rng.choice(5, size=n_parms, p=[0.2, 0.15, 0.35, 0.15, 0.15])]
        if name == REAL_EXCEPTION and si == 0:
            ptypes[0] = REAL
        if name == RANDOM_COLUMN and si == 0:
            ptypes[1] = UINT32
        parms = [_parm(rng, t) for t in ptypes]
        if name == RANDOM_COLUMN and si == 0:
            parms[1].update(min_value=0, max_value=0xFFFFFFFF, weight_function=PERCENT,
                            weight_function_name="percent_error", weight=_f32(0.5))
            planted["random_column"] = {"state": si, "parm": 1}
        if name == NO_WEIGHT_EXCEPTION:
            # this file has one no_weight parm per state whose weight is not 1.0
            if not parms:
                parms.append(_parm(rng, INT32))
            odd = parms[-1]
            odd.update(weight_function=NO_WEIGHT, weight_function_name="no_weight", weight=_f32(0.75))
            planted.setdefault("no_weight_weight_exception", []).append(
                {"state": si, "parm": len(parms) - 1, "weight": 0.75})
        if name == UNKNOWN_TYPE and si == len(types) - 1:
            parms.append({"parm_type": UNKNOWN_PARM_TYPE, "parm_type_name": None, "weight_function": EXACT,
                          "weight_function_name": "exact_match", "weight": 1.0, "min_value": None,
                          "max_value": None, "is_known_type": False})
            planted["unknown_parm_type"] = {"state": si, "parm": len(parms) - 1,
                                            "parm_type": UNKNOWN_PARM_TYPE}
        anims = []
        for _ in range(n_anims):
            aid = anim_counter[0]
            anim_counter[0] += int(rng.integers(1, 3))
            values = []
            for pi, p in enumerate(parms):
                if not p["is_known_type"]:
                    values.append(None)
                elif name == RANDOM_COLUMN and si == 0 and pi == 1:
                    values.append(int(rng.integers(0, 2**32)))
                else:
                    values.append(_value(rng, p["parm_type"], p["min_value"], p["max_value"]))
            anims.append({"anim_id": aid, "values": values})
        if name == REAL_EXCEPTION and si == 0:
            bad = _f32(parms[0]["max_value"] + 12.5)
            anims[2]["values"][0] = bad
            planted["real_out_of_range"] = {"state": si, "anim": 2, "parm": 0, "value": bad,
                                            "min": parms[0]["min_value"], "max": parms[0]["max_value"]}
        states.append({"state_type": st_type, "state_type_name": STATE_TYPE_NAMES[st_type],
                       "num_parm_infos": len(parms), "num_anim_infos": len(anims),
                       "parms": parms, "anims": anims})
    default = 5 if 5 in types else int(rng.choice(types))
    for st in states:
        st["is_default"] = st["state_type"] == default
    return {"num_anim_states": len(states), "default_anim_state": default, "states": states}, planted


def _container(rng, name: str, db: dict) -> dict:
    anim_ids = sorted({a["anim_id"] for st in db["states"] for a in st["anims"]})
    note = "anim/PAS4 draft.txt" if name == DECOY else f"anim/{name.lower()}.txt"
    return {
        "id": int(rng.integers(0, 2**16)),
        "info_version": 6,
        "name": name,
        "cmdl_id": int(rng.integers(0, 2**32)),
        "cskr_id": int(rng.integers(0, 2**32)),
        "cinf_id": int(rng.integers(0, 2**32)),
        "anim_names": [[aid, f"{name}_anim{aid:03d}", note] for aid in anim_ids],
        "particle_ids": [int(x) for x in rng.integers(0, 2**32, size=int(rng.integers(1, 5)))],
        "aabbs": [[f"{name}_anim{aid:03d}", [-1.0, -1.0, 0.0, 1.0, 1.0, 2.0]] for aid in anim_ids[:2]],
        "effects": [["Step", [["Dust", int(rng.integers(0, 2**32)), "L_foot", 1.0]]]],
        "anim_index_map": anim_ids,
    }


def generate(out_dir: Path, seed: int) -> dict:
    """Write ``pas4/*.pas4`` and ``pas4/*.ancs`` under ``out_dir``; return the manifest section."""
    rng = np.random.default_rng(seed)
    d = Path(out_dir) / SUBDIR
    d.mkdir(parents=True, exist_ok=True)
    files: dict[str, dict] = {}
    planted: dict = {
        "empty_file": f"{SUBDIR}/{EMPTY}.pas4",
        "later_game_file": f"{SUBDIR}/{LATER}.pas4",
        "later_game_state_types": [21, 22, 23, 24],
        "states_unsorted": [],
        "no_weight_weight_exception": None,
        "real_out_of_range": None,
        "random_column": None,
        "too_many_parms": None,
        "unknown_parm_type": None,
        "decoy_magic": None,
        "weight_function_by_type": {
            "real_min_-180_max_180": "angular_percent unless no_weight",
            "real_other": "percent_error unless no_weight",
            "bool": "exact_match unless no_weight",
        },
        "no_weight_weight": 1.0,
        "default_is_present_state_type": True,
    }
    for name in BARE + CONTAINERS:
        counter = [int(rng.integers(0, 4))]
        db, facts = _database(rng, name, counter)
        pas4 = encode_pas4(db)
        if name in CONTAINERS:
            fname = f"{SUBDIR}/{name}.ancs"
            cont = _container(rng, name, db)
            data, (off,) = encode_ancs([cont], [pas4])
            entry = {"kind": "ancs", "container": cont}
            if name == DECOY:
                pos = data.index(b"PAS4")
                assert pos < off
                planted["decoy_magic"] = {"file": fname, "offset": pos, "pas4_offset": off}
        else:
            fname = f"{SUBDIR}/{name}.pas4"
            data, off = pas4, 0
            entry = {"kind": "bare"}
        entry.update(db, pas4_offset=off, pas4_end=off + len(pas4), size=len(data))
        (d / Path(fname).name).write_bytes(data)
        files[fname] = entry
        if name in UNSORTED:
            planted["states_unsorted"].append(fname)
        for key in ("real_out_of_range", "random_column", "unknown_parm_type"):
            if key in facts:
                planted[key] = {"file": fname, **facts[key]}
        if "no_weight_weight_exception" in facts:
            planted["no_weight_weight_exception"] = {"file": fname,
                                                     "parms": facts["no_weight_weight_exception"]}
        if name == TOO_MANY:
            planted["too_many_parms"] = {"file": fname, "state": 0,
                                         "num_parm_infos": db["states"][0]["num_parm_infos"]}
    return {"files": files, "state_type_names": STATE_TYPE_NAMES, "parm_type_names": PARM_TYPE_NAMES,
            "weight_function_names": WEIGHT_FUNCTION_NAMES, "planted": planted}
