"""Civ3 corpora of real size for the benchmarks, built from the real settler files.

``make_civ3(dst, n)`` writes ``n`` unit FLCs made from the six real settler
animations (README, "Real files"), each with its own header (speed, FlicAnim
anim_time, offsets, the "updated" stamp) and its own first-frame palette, so
every file has distinct content and the values vary the way a unit library's
do: ``anim_time = speed x anim_length`` holds in about 9 of 10 files.

Two sections of ``benchmarks/run.py`` use them:

- ``section_latency``: every research call and widget action on a 200-file
  corpus, after the corpus is open (the issue's 1 s budget);
- ``section_modder``: a unit library of 2,000 FLCs beside the 10,000 FRM
  corpus: parse only, cold scan (every core and one worker), warm scan, the
  scan after a one-field spec edit, peak memory per phase.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# FLC header fields (offsets in the 128-byte header; the FlicAnim block starts at 0x58)
_SPEED, _UPDATED, _X_OFS, _Y_OFS, _ANIM_LENGTH, _ANIM_TIME = 0x10, 0x1E, 0x64, 0x66, 0x62, 0x6C


def _palette_offsets(files: list[Path]) -> dict[Path, int]:
    """Byte offset of the first colour of each file's first palette chunk (from the flc tables)."""
    import animre

    c = animre.open_corpus(files, cache=False, progress=False)
    ch = c.tables["flc_chunks"]
    start = c.offsets("flc_chunks", "len_chunk")
    out = {}
    for f in files:
        rows = ch[(ch["file"] == str(f)) & ch["chunk_type"].isin([4, 11])]
        if len(rows):
            out[f] = int(start.loc[rows.index[0]]) + 6 + 2 + 2  # chunk header, packet count, skip + count
    return out


def _settler(realdata: Path, section: str) -> Path | None:
    """The real settler folder the Civ3 corpora are built from, or None (said once) when it is absent."""
    settler = realdata / "flic" / "civ3" / "settler"
    if settler.is_dir():
        return settler
    print(f"[{section}] skipped: real files not present ({settler.name} folder; README, 'Real files')")
    return None


def make_civ3(dst: Path, n: int, settler: Path, seed: int = 11) -> int:
    """Write ``n`` distinct Civ3 unit FLCs built from the real settler files into ``dst``; returns bytes."""
    import numpy as np

    rng = np.random.default_rng(seed)
    src = sorted(settler.glob("*.flc"))
    pal = _palette_offsets(src)
    blobs = [bytearray(f.read_bytes()) for f in src]
    dst.mkdir(parents=True, exist_ok=True)
    total = 0
    for i in range(n):
        k = i % len(src)
        data = bytearray(blobs[k])
        speed = int(rng.integers(40, 160))
        anim_length = struct.unpack_from("<H", data, _ANIM_LENGTH)[0]
        anim_time = speed * anim_length if rng.random() < 0.9 else int(rng.integers(100, 3000))
        struct.pack_into("<I", data, _SPEED, speed)
        struct.pack_into("<I", data, _ANIM_TIME, anim_time)
        struct.pack_into("<I", data, _UPDATED, i)
        for at in (_X_OFS, _Y_OFS):
            v = struct.unpack_from("<H", data, at)[0]
            struct.pack_into("<H", data, at, max(0, v + int(rng.integers(-8, 9))))
        p = pal.get(src[k])
        if p is not None:  # recolour the first 16 palette entries (the unit's civilization colours)
            data[p:p + 48] = rng.integers(0, 256, 48, dtype=np.uint8).tobytes()
        unit = dst / f"unit{i // len(src):04d}"
        unit.mkdir(exist_ok=True)
        (unit / src[k].name).write_bytes(bytes(data))
        total += len(data)
    return total


def _timed(fn, budget: float = 1.0) -> tuple[float, str]:
    t = time.perf_counter()
    try:
        fn()
        status = "ok"
    except Exception as e:  # noqa: BLE001 - the benchmark lists a failing call, it does not stop
        status = f"error: {type(e).__name__}: {e}"[:120]
    el = time.perf_counter() - t
    return el, status if status != "ok" or el <= budget else "over 1 s"


def section_latency(realdata: Path, n: int = 200) -> dict:
    """Every research call and widget action on ``n`` real-size Civ3 FLCs, after the corpus is open."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    import animre
    from animre.present import players, widgets

    settler = _settler(realdata, "latency")
    if settler is None:
        return {"skipped": "real files not present"}
    work = Path(tempfile.mkdtemp(prefix="animre-bench-civ3-"))
    try:
        data = work / "units"
        size = make_civ3(data, n, settler)
        cache = work / "cache"
        t = time.perf_counter()
        c = animre.open_corpus(data, cache=cache, progress=False)
        t_open = time.perf_counter() - t
        t = time.perf_counter()
        c = animre.open_corpus(data, cache=cache, progress=False)
        t_reopen = time.perf_counter() - t
        first = c.files.file.iloc[0]
        plt.close(plt.figure())  # matplotlib's one-time set-up (fonts) is not a widget's latency
        calls = {
            "profile(flc_frames)": lambda: animre.profile(c, "flc_frames"),
            "profile(flc_files)": lambda: animre.profile(c, "flc_files"),
            "relations(flc_files)": lambda: animre.relations(c, "flc_files"),
            "claims()": lambda: animre.claims(c),
            "coverage()": lambda: animre.coverage(c),
            "wiki_table(flc_frames)": lambda: animre.wiki_table(c, "flc_frames"),
            "reinterpret(header.flicanim.flags)": lambda: animre.reinterpret(c, "header.flicanim.flags"),
            "reinterpret(file offset 0x5C, 4 bytes)": lambda: animre.reinterpret(c, 0x5C, length=4),
            "fields(one file)": lambda: c.fields(first),
            "decode_frames(one file)": lambda: animre.formats.flc.decode.decode_frames(c.read_bytes(first)),
            "corpus_explorer + select": lambda: widgets.corpus_explorer(c).select(file=first),
            "column_profiler(flc_files.speed)": lambda: widgets.column_profiler(c, "flc_files", "header.speed"),
            "reinterpret_explorer(header.speed)": lambda: widgets.reinterpret_explorer(c, "header.speed"),
            "claims_board": lambda: widgets.claims_board(c),
            "compare(flc_files.header.speed)": lambda: animre.compare(c, "flc_files", "header.speed"),
            "compare_view(flc_frames.body.delay)": lambda: widgets.compare_view(c, "flc_frames", "body.delay"),
            "flc_player(one file, SW)": lambda: players.flc_player(c.read_bytes(first), direction="SW"),
            "suggest(flc_files)": lambda: animre.suggest(c, tables=["flc_files"]),
        }
        res = {"files": n, "MB": size / 1e6, "open_s": t_open, "reopen_s": t_reopen, "calls": {}}
        print(f"[latency] {n} Civ3 unit FLCs ({size / 1e6:.1f} MB, built from the real settler files): "
              f"first open {t_open:.2f} s, reopen {t_reopen:.2f} s")
        for name, fn in calls.items():
            el, status = _timed(fn)
            plt.close("all")
            res["calls"][name] = {"s": el, "status": status}
            print(f"  {name:42s} {el:6.2f} s  {status}")
        return res
    finally:
        shutil.rmtree(work, ignore_errors=True)


_EDIT = """
import animre, pathlib
spec = (pathlib.Path({root!r}) / 'ksy' / 'flc.ksy').read_text()
edited = spec.replace('      - id: anim_time\\n', '      - id: animation_time\\n', 1)
assert edited != spec
mod = animre.spec.compile_spec(edited)
t = time.perf_counter()  # the edit loop: compile out of the timing, then reopen with the edited spec
c = animre.open_corpus(D, cache=C, progress=False, parsers={{'flc': mod}})
"""


def section_modder(realdata: Path, n_flc: int, n_frm: int, make_frm, run_phase, last_phase, print_phases) -> dict:
    """A modder's unit library (``n_flc`` real-size Civ3 FLCs) beside ``n_frm`` FRM files."""
    settler = _settler(realdata, "modder")
    if settler is None:
        return {"skipped": "real files not present"}
    work = Path(tempfile.mkdtemp(prefix="animre-bench-modder-"))
    try:
        data, cache = work / "corpus", work / "cache"
        size = make_civ3(data / "units", n_flc, settler)
        make_frm(data / "homm2", n_frm)
        mb = sum(f.stat().st_size for f in data.rglob("*") if f.is_file()) / 1e6
        print(f"[modder] {n_flc} Civ3 unit FLCs ({size / 1e6:.0f} MB) + {n_frm} FRM files: {mb:.0f} MB")
        res: dict = {"flc_files": n_flc, "frm_files": n_frm, "MB": mb}
        t_parse, _ = run_phase("parse", data, cache)
        res["parse_only_s"] = t_parse
        for name in ("cold1", "cold", "warm"):
            t, rss = run_phase(name, data, cache)
            res[name] = {"s": t, "peak_MB": rss - last_phase["rss_before_MB"], "tables_MB": last_phase["tables_MB"],
                         "phases": last_phase["phases"], "over_parse_only": t / t_parse}
        t, rss = run_phase("edit", data, cache, code=_EDIT.format(root=str(ROOT)))
        res["after_edit"] = {"s": t, "peak_MB": rss - last_phase["rss_before_MB"], "phases": last_phase["phases"]}
        cold, cold1 = res["cold"], res["cold1"]
        print(f"  parse only (one process, no tables) {t_parse:.1f} s")
        print(f"  cold scan, every core ({os.cpu_count()}): {cold['s']:.1f} s = {cold['s'] / t_parse:.2f}x parse only; "
              f"one worker {cold1['s']:.1f} s = {cold1['s'] / t_parse:.2f}x -> {cold1['s'] / cold['s']:.2f}x faster "
              f"in parallel")
        print(f"  peak memory of the cold scan {cold['peak_MB']:.0f} MB above the imports; tables + spans "
              f"{cold['tables_MB']:.0f} MB -> {cold['peak_MB'] / cold['tables_MB']:.1f}x")
        print_phases(cold["phases"], cold["tables_MB"])
        print(f"  warm scan {res['warm']['s']:.2f} s = {cold['s'] / res['warm']['s']:.0f}x faster than cold")
        print(f"  after a one-field edit of the flc spec (FLCs re-parsed, FRM from the cache): "
              f"{res['after_edit']['s']:.1f} s = {res['after_edit']['s'] / cold['s']:.2f}x the cold scan")
        print_phases(res["after_edit"]["phases"], cold["tables_MB"])
        return res
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":  # build a folder to try the kit on: python benchmarks/civ3.py DST N
    import sys

    real = Path(os.environ.get("ANIMRE_REALDATA") or ROOT.parent / "shared" / "realdata")
    print(json.dumps({"bytes": make_civ3(Path(sys.argv[1]), int(sys.argv[2]), real / "flic" / "civ3" / "settler")}))
