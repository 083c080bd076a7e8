"""A zip archive of Civ3 FLC samples (``zip/CIV3UNITS.ZIP``), written with the standard library.

The FLC files come from the FLC generator (:mod:`animre.formats.flc.samples`, with
this generator's seed and the next ones; unit files with no planted
irregularity, so the whole sample corpus keeps the FLC generator's planted
counts), stored as ``run<k>/<Unit>/<Action>.flc``, some deflated and
some stored; loose copies of two of them sit beside the zip.
"""

from __future__ import annotations

import tempfile
import zipfile
from pathlib import Path

from . import samples as flc_samples

__all__ = ["generate", "SUBDIR", "ARCHIVE"]

SUBDIR = "zip"
ARCHIVE = "CIV3UNITS.ZIP"
N_FLC = 5
N_LOOSE = 2
STAMP = (2001, 10, 30, 12, 0, 0)  #: every member's modification time (Civ3's release date, noon)


def generate(out_dir: Path, seed: int) -> dict:
    """Write ``zip/CIV3UNITS.ZIP`` and loose copies of some members; return the manifest section."""
    d = Path(out_dir) / SUBDIR
    d.mkdir(parents=True, exist_ok=True)
    blobs: dict[str, bytes] = {}
    truth: dict[str, dict] = {}
    for k in range(8):  # a few FLC generator runs: each has some unit files with no planted irregularity
        with tempfile.TemporaryDirectory() as tmp:
            fm = flc_samples.generate(Path(tmp), seed + k)
            pl = fm["planted"]
            irregular = {pl["speed_4_file"]["file"], pl["feet_line_exception"], pl["plain_file"],
                         *pl["anim_time_exceptions"], *(x["file"] for key in ("cdcd_palettes", "extra_subchunk_frames",
                                                                               "empty_frames") for x in pl[key])}
            for f in sorted(f for f in pl["unit_files"] if f not in irregular):
                name = f"run{k}/{f.split('/', 1)[1]}"
                blobs[name] = (Path(tmp) / f).read_bytes()
                truth[name] = fm["files"][f]
        if len(blobs) >= N_FLC:
            break
    picks = sorted(blobs)[:N_FLC]
    arch = f"{SUBDIR}/{ARCHIVE}"
    files: dict[str, dict] = {arch: {"format": None, "archive": "zip", "members": N_FLC}}
    with zipfile.ZipFile(d / ARCHIVE, "w") as z:
        for k, f in enumerate(picks):
            info = zipfile.ZipInfo(f, date_time=STAMP)  # a fixed time: the same seed writes the same bytes
            info.external_attr = 0o644 << 16
            z.writestr(info, blobs[f], compress_type=zipfile.ZIP_DEFLATED if k % 2 == 0 else zipfile.ZIP_STORED)
            files[f"{arch}/{f}"] = {"format": "flc", "container": arch,
                                    "compressed": k % 2 == 0, "flc": truth[f]}
    loose = {}
    for f in picks[:N_LOOSE]:
        p = d / f
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(blobs[f])
        files[f"{SUBDIR}/{f}"] = {"format": "flc", "flc": truth[f]}
        loose[f"{SUBDIR}/{f}"] = f"{arch}/{f}"
    return {"files": files, "planted": {"archive": arch, "loose_copies": loose}}
