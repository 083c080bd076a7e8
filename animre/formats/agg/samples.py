"""HoMM2 ``HEROES2.AGG`` sample generator: an archive of FRM members, a palette and room for ICNs.

Writes ``agg/HEROES2.AGG`` with :mod:`struct` only (its own writer and its
own name hash, independent of the reader's): u2 count, count x (u4 hash,
u4 offset, u4 size), the members' bytes, then count x 15-byte names.
Members:

- FRM files made by the FRM generator (:mod:`animre.formats.frm.samples`, with this
  generator's seed), only monsters with no planted irregularity, so the
  whole sample corpus keeps the FRM generator's planted counts; one is
  stored under a name without ``FRM`` (``CBEHEMOT.BIN``, as in a real mod
  archive): detection is by content;
- ``KB.PAL``: 256 x 3 six-bit VGA components (skipped unless a format reads palettes);
- ICN sprite sheets (and their ``KB.PAL``) when :mod:`animre.formats.icn.samples`
  provides ``icn_members(seed) -> [(name, bytes)]``, and any ``extra_members``.

Each manifest entry says what the file is (``format``; ``archive``: the
container id of an archive): a file whose format the kit reads is parsed,
others are skipped.

Loose copies of some FRM members sit beside the archive (``agg/<name>``).
Planted: one entry's stored hash is wrong (``planted.wrong_hash``); every
other hash follows the game's rule.
"""

from __future__ import annotations

import struct
import tempfile
from pathlib import Path

import numpy as np

from ..frm import samples as frm_samples
from ..icn import samples as icn_samples

__all__ = ["generate", "build_agg", "agg_hash", "SUBDIR", "ARCHIVE"]

SUBDIR = "agg"
ARCHIVE = "HEROES2.AGG"
N_FRM = 10  # FRM members
N_LOOSE = 4  # of which loose copies sit beside the archive
RENAMED = "CBEHEMOT.BIN"


def agg_hash(name: str) -> int:
    """The game's resource hash of a name (this generator's own writing of the rule)."""
    chars = [c - 32 if ord("a") <= c <= ord("z") else c for c in name.encode("ascii")][::-1]
    h = s = 0
    for c in chars:
        h = (h * 32 + (h >> 25)) % 2**32
        s += c
        h = (h + s + c) % 2**32
    return h


def build_agg(members: list[tuple[str, bytes]], wrong_hash: int | None = None) -> tuple[bytes, list[dict]]:
    """Archive bytes and its entry records (name, name_hash, ofs_data, len_data, record offset).

    ``wrong_hash``: index of an entry whose stored hash is deliberately off by one.
    """
    n = len(members)
    pos = 2 + 12 * n
    records, body, entries = [], [], []
    for i, (name, data) in enumerate(members):
        h = agg_hash(name)
        if i == wrong_hash:
            h = (h + 1) % 2**32
        records.append(struct.pack("<III", h, pos, len(data)))
        entries.append({"entry": i, "name": name, "name_hash": h, "ofs_data": pos, "len_data": len(data),
                        "record_offset": 2 + 12 * i})
        body.append(data)
        pos += len(data)
    names = b"".join(name.encode("ascii").ljust(15, b"\0") for name, _ in members)
    return struct.pack("<H", n) + b"".join(records) + b"".join(body) + names, entries


def _palette(rng: np.random.Generator) -> bytes:
    """KB.PAL: 256 colours x (r, g, b), six-bit VGA components (0..63)."""
    return rng.integers(0, 64, 768, dtype=np.uint8).tobytes()


def _icn_members(seed: int) -> list[tuple[str, bytes]]:
    """ICN sprite sheets (and its ``KB.PAL``) from the ICN sample generator, when there is one.

    From :func:`animre.formats.icn.samples.icn_members`.
    """
    return list(icn_samples.icn_members(seed))


def generate(out_dir: Path, seed: int, extra_members: list[tuple[str, bytes]] | None = None) -> dict:
    """Write ``agg/HEROES2.AGG`` and loose copies of some FRM members; return the manifest section."""
    rng = np.random.default_rng(seed)
    d = Path(out_dir) / SUBDIR
    d.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        fm = frm_samples.generate(Path(tmp), seed)
        pl = fm["planted"]
        irregular = {pl["odd_magic_file"], pl["idle_delays_exception"], pl["clamped_idle_count_file"],
                     *pl["weights_not_normalised"], *(m["file"] for m in pl["count_fill_mismatch"])}
        clean = [f for f in fm["files"] if f not in irregular]
        picks = [clean[int(k)] for k in sorted(rng.choice(len(clean), N_FRM, replace=False))]
        frm_bytes = {f: (Path(tmp) / f).read_bytes() for f in picks}
    members: list[tuple[str, bytes]] = []
    frm_truth: dict[str, dict] = {}
    for k, f in enumerate(picks):
        name = RENAMED if k == N_FRM - 1 else f.split("/")[-1]
        members.append((name, frm_bytes[f]))
        frm_truth[name] = fm["files"][f]
    icn = _icn_members(seed) + list(extra_members or [])
    if "KB.PAL" not in dict(icn):  # the ICN generator's palette, else one of this generator's own
        members.append(("KB.PAL", _palette(rng)))
    members += icn
    wrong = int(rng.integers(0, len(members)))
    data, entries = build_agg(members, wrong_hash=wrong)
    (d / ARCHIVE).write_bytes(data)
    arch = f"{SUBDIR}/{ARCHIVE}"
    # "format": what each file is (whether the kit reads it decides parsed or skipped)
    files: dict[str, dict] = {arch: {"format": "agg", "archive": "agg", "members": len(members)}}
    for e, (name, _) in zip(entries, members):
        entry = {"container": arch, "offset": e["ofs_data"], "size": e["len_data"]}
        if name in frm_truth:
            entry.update(format="frm", frm=frm_truth[name])
        else:
            entry.update(format="pal" if name.endswith(".PAL") else "icn" if name.endswith(".ICN") else None)
        files[f"{arch}/{name}"] = entry
    loose = {}
    for name in [m for m, _ in members[:N_LOOSE]]:
        (d / name).write_bytes(dict(members)[name])
        files[f"{SUBDIR}/{name}"] = {"format": "frm", "frm": frm_truth[name]}
        loose[f"{SUBDIR}/{name}"] = f"{arch}/{name}"
    return {
        "files": files,
        "entries": entries,
        "planted": {
            "archive": arch,
            "wrong_hash": {"file": arch, "entry": wrong, "name": members[wrong][0],
                           "offset": entries[wrong]["record_offset"]},
            "loose_copies": loose,
            "renamed_frm": f"{arch}/{RENAMED}",
            "palette": f"{arch}/KB.PAL",
            "icn_members": [f"{arch}/{n}" for n, _ in icn],
            # the members' bytes: no field of the archive's own spec describes them (its members do);
            # coverage counts them as "members", not as a gap
            "member_bytes": {"file": arch, "start": entries[0]["ofs_data"],
                             "end": entries[-1]["ofs_data"] + entries[-1]["len_data"]},
        },
    }
