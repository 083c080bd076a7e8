"""animre benchmarks: every figure is a ratio against a baseline measured in the same run.

    .venv/bin/python benchmarks/run.py            # all sections (make bench)
    .venv/bin/python benchmarks/run.py --quick    # skip the 10,000 FRM + 1,000 FLC corpus

Sections
--------
1. cold vs warm (cached) open of the full generated sample corpus;
2. FLC decode: frames per second on the Civ3 samples, and time per pixel
   relative to Pillow decoding the real ``flic/standard/a.fli`` (README, "Real files");
3. parse + tables per MB for each format, relative to reading the same bytes;
   hostile files and archives (counts of 2^32, AGG entries past the end, zip
   bombs, Retro PAK and GameCube disc directories and zlib/LZO streams): time
   to reject, relative to parsing or listing the valid sample;
4. a generated corpus of 10,000 FRM and 1,000 FLC files: cold scan, warm scan,
   profile of every table, peak memory — against the compiled parsers alone
   (parse only, no tables, one process), reading the bytes and (FRM) a plain
   ``struct`` reader; time and peak memory per phase of the open;
5. latency: every research call and widget action on 200 real-size Civ3 unit
   FLCs built from the real settler files (``benchmarks/civ3.py``);
6. modder scale: 2,000 such FLCs beside the 10,000 FRM files: parse only,
   cold scan (every core, one worker), warm scan, the scan after a one-field
   spec edit, peak memory per phase;
7. with ``--baseline-rev REV``: cold open of the samples, and the FLC decode
   of the real a.fli and Civ3 unit FLCs, by this checkout against the same by
   an earlier git revision, in fresh interpreters, alternately;
8. notebooks on a 200-file Civ3 corpus (civ200, built from the real settler
   files, README "Real files"): notebooks 05 and 00 executed headless with
   ``DATA`` pointing at it; the slowest cell against the 5 s a researcher
   waits at most (``--notebooks`` runs this section alone);
9. the fast-path targets (``benchmarks/fast.py``): FRM cold scan against a
   plain ``struct`` reader, AF and Civ3 cold opens against the parsers alone
   (and AF against pyomftools when present), the scan's peak memory (workers
   counted) against the tables it returns.

Machines are shared and noisy: each timing is the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import civ3  # noqa: E402 - the Civ3 corpora beside this script

REALDATA = Path(os.environ.get("ANIMRE_REALDATA") or ROOT.parent / "shared" / "realdata")  # see README
AFLI = REALDATA / "flic" / "standard" / "a.fli"  # the real standard FLI that Pillow also decodes


def real_civ3_flcs() -> list[Path]:
    """The real Civ3 unit FLCs (README, "Real files"); none when they are not present."""
    return sorted((REALDATA / "flic" / "civ3").rglob("*.flc"))


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def read_all(files) -> int:
    n = 0
    for f in files:
        n += len(Path(f).read_bytes())
    return n


def section_open(samples: Path, repeat: int) -> dict:
    import animre

    out = {}
    files = [f for f in samples.rglob("*") if f.is_file() and f.suffix != ".json"]
    t_read = best(lambda: read_all(files), repeat)

    def cold():
        d = tempfile.mkdtemp(prefix="animre-bench-cache-")
        try:
            animre.open_corpus(samples, cache=d, progress=False)
        finally:
            shutil.rmtree(d, ignore_errors=True)

    t_cold = best(cold, repeat)
    cache = tempfile.mkdtemp(prefix="animre-bench-cache-")
    animre.open_corpus(samples, cache=cache, progress=False)
    t_warm = best(lambda: animre.open_corpus(samples, cache=cache, progress=False), repeat)
    shutil.rmtree(cache, ignore_errors=True)
    out.update(files=len(files), cold_s=t_cold, warm_s=t_warm, cold_over_warm=t_cold / t_warm,
               warm_over_read=t_warm / t_read)
    print(f"[open] sample corpus: {len(files)} files; cold open {t_cold:.2f} s, warm open {t_warm:.3f} s "
          f"-> warm is {t_cold / t_warm:.1f}x faster than cold; warm = {t_warm / t_read:.1f}x reading the bytes")
    return out


def section_flc(samples: Path, repeat: int) -> dict:
    import numpy as np
    from PIL import Image

    from animre.formats.flc.decode import decode_frames

    civ = sorted((samples / "flc").rglob("*.flc"))
    n_frames = n_pix = 0

    def ours():
        nonlocal n_frames, n_pix
        n_frames = n_pix = 0
        for f in civ:
            frames, _ = decode_frames(f)
            n_frames += frames.shape[0]
            n_pix += int(np.prod(frames.shape))

    t_ours = best(ours, repeat)
    if not AFLI.is_file():
        print(f"[flc] Civ3 samples: {n_frames} frames in {t_ours:.3f} s; the Pillow comparison is skipped: "
              f"real files not present: {AFLI} (see README, 'Real files')")
        return {"civ3_frames": n_frames, "skipped": "real files not present"}

    def pillow(copy: bool = False):
        im = Image.open(AFLI)
        n = 0
        for i in range(im.n_frames):
            im.seek(i)
            im.load()
            if copy:  # the same output as decode_frames: every frame as its own array
                np.asarray(im)
            n += im.width * im.height
        return n

    pil_pix = pillow()
    t_pil = best(pillow, repeat)
    t_pil_copy = best(lambda: pillow(copy=True), repeat)
    a_pix = 0

    def ours_afli():
        nonlocal a_pix
        frames, _ = decode_frames(AFLI)
        a_pix = int(np.prod(frames.shape))

    t_ours_a = best(ours_afli, repeat)
    real_blobs = [f.read_bytes() for f in real_civ3_flcs()]
    r_pix = 0

    def ours_real():
        nonlocal r_pix
        r_pix = sum(int(decode_frames(b)[0].size) for b in real_blobs)

    t_real = best(ours_real, repeat) if real_blobs else float("nan")
    per_pix_real = t_real / r_pix if r_pix else float("nan")
    per_pix_civ = t_ours / n_pix
    per_pix_pil = t_pil / pil_pix
    per_pix_pil_copy = t_pil_copy / pil_pix
    per_pix_a = t_ours_a / a_pix
    print(f"[flc] Civ3 samples: {n_frames} frames in {t_ours:.3f} s = {n_frames / t_ours:.0f} frames/s, "
          f"{per_pix_civ * 1e9:.1f} ns per pixel (small generated frames)")
    print(f"[flc] real Civ3 unit FLCs ({len(real_blobs)} files, {r_pix / 1e6:.1f} M pixels): "
          f"{per_pix_real * 1e9:.1f} ns per pixel (target: at most 10)")
    print(f"[flc] Pillow on a.fli: {per_pix_pil * 1e9:.2f} ns per pixel decoding only (its C decoder touches "
          f"only changed pixels), {per_pix_pil_copy * 1e9:.2f} ns per pixel with each frame copied out "
          f"as an array (what decode_frames returns)")
    print(f"[flc] time per pixel relative to Pillow (decode + frame arrays) on a.fli: Civ3 samples "
          f"{per_pix_civ / per_pix_pil_copy:.1f}x, animre on a.fli itself {per_pix_a / per_pix_pil_copy:.1f}x; "
          f"relative to Pillow decoding only: {per_pix_civ / per_pix_pil:.0f}x and {per_pix_a / per_pix_pil:.0f}x")
    return {"civ3_frames": n_frames, "civ3_fps": n_frames / t_ours, "ns_per_pixel_civ3": per_pix_civ * 1e9,
            "ns_per_pixel_real_civ3": per_pix_real * 1e9,
            "ns_per_pixel_pillow_afli": per_pix_pil * 1e9,
            "ns_per_pixel_pillow_afli_with_arrays": per_pix_pil_copy * 1e9,
            "civ3_over_pillow_arrays": per_pix_civ / per_pix_pil_copy,
            "afli_over_pillow_arrays": per_pix_a / per_pix_pil_copy,
            "civ3_over_pillow_decode_only": per_pix_civ / per_pix_pil,
            "afli_over_pillow_decode_only": per_pix_a / per_pix_pil}


def _parse_only(data: bytes, fm) -> list:
    """The compiled parser alone reading one file: every field and every instance of the spec (Kaitai's
    ``_read`` and ``_fetch_instances``, what any program reading all values does; the tables read the
    lazy instances too), under the same garbage-collector regime as a scan's parse + tables (paused for
    the file, one young collection after it), so the ratio is what the tables add."""
    from animre.tables.read import _one_file_of_garbage, parse_blocks

    with _one_file_of_garbage():
        blocks = list(parse_blocks(data, "x", fm))
        for _, _, obj, _ in blocks:
            obj._fetch_instances()
        return blocks


def _every_value(obj, seen: set | None = None) -> int:
    """Read every value the spec defines from a parsed object: its fields and all its instances (value
    instances too, which Kaitai's ``_fetch_instances`` leaves lazy), recursively; returns how many."""
    from kaitaistruct import KaitaiStruct

    seen = set() if seen is None else seen
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    cls = type(obj)
    names = getattr(cls, "_animre_names", None)
    if names is None:
        names = cls._animre_names = tuple(getattr(cls, "SEQ_FIELDS", ())) + tuple(
            n for k in cls.__mro__ for n, v in vars(k).items() if isinstance(v, property))
    n = 0
    for name in names:
        try:
            v = getattr(obj, name)
        except Exception:  # noqa: BLE001 - a value that cannot be computed is not read
            continue
        n += 1
        if isinstance(v, KaitaiStruct):
            n += _every_value(v, seen)
        elif isinstance(v, list):
            for el in v:
                if isinstance(el, KaitaiStruct):
                    n += _every_value(el, seen)
    return n


def _parse_every_value(data: bytes, fm) -> list:
    """:func:`_parse_only` plus every value instance read: what a program using the parser for all values does."""
    from animre.tables.read import _one_file_of_garbage, parse_blocks

    with _one_file_of_garbage():
        blocks = list(parse_blocks(data, "x", fm))
        for _, _, obj, _ in blocks:
            obj._fetch_instances()
            _every_value(obj)
        return blocks


def section_formats(samples: Path, repeat: int) -> dict:
    import animre
    from animre.formats import all_formats
    from animre.tables.read import read_tables

    c = animre.open_corpus(samples, cache=False, progress=False)
    out = {}
    on_disk = c.files[c.files.ok & c.files.container.isna()]  # archive members are timed with their archive
    for fmt, g in on_disk.groupby("format"):
        files = [samples / f for f in g.file]
        mb = g["size"].sum() / 1e6
        t_read = best(lambda files=files: read_all(files), repeat)
        t_parse = best(lambda files=files: animre.open_corpus(files, cache=False, progress=False), repeat)
        blobs = [f.read_bytes() for f in files]
        fm = all_formats()[fmt]
        only, values, tables = [], [], []
        for _ in range(max(repeat, 5)):  # alternately, so all see the same machine
            only.append(best(lambda blobs=blobs, fm=fm: [_parse_only(b, fm) for b in blobs], 1))
            values.append(best(lambda blobs=blobs, fm=fm: [_parse_every_value(b, fm) for b in blobs], 1))
            tables.append(best(lambda blobs=blobs, fm=fm: [read_tables(b, "x", fm) for b in blobs], 1))
        t_only, t_values, t_tables = min(only), min(values), min(tables)
        out[fmt] = {"files": len(files), "MB": mb, "s_per_MB": t_parse / mb, "read_s_per_MB": t_read / mb,
                    "ratio": t_parse / t_read, "parse_only_s": t_only, "parse_and_tables_s": t_tables,
                    "tables_over_parse": t_tables / t_only, "parse_every_value_s": t_values,
                    "tables_over_every_value": t_tables / t_values}
        print(f"[format {fmt}] {len(files)} files, {mb:.2f} MB: open {t_parse / mb:.2f} s/MB "
              f"= {t_parse / t_read:.0f}x reading the same bytes ({t_read / mb * 1000:.2f} ms/MB); "
              f"parse + tables {t_tables * 1000:.1f} ms = {t_tables / t_only:.2f}x parse alone "
              f"({t_only * 1000:.1f} ms: fields and instances, Kaitai's _read + _fetch_instances), "
              f"{t_tables / t_values:.2f}x the parser with every value read ({t_values * 1000:.1f} ms)")
    return out


def section_hostile(samples: Path, repeat: int) -> dict:
    """Files claiming 2^32 elements: time to reject vs time to parse the valid original."""
    import animre
    from animre.tables.read import parse

    c = animre.open_corpus(samples, cache=False, progress=False)
    out = {}
    for fmt, g in c.files[c.files.status == "parsed"].groupby("format"):
        name = g.sort_values("size").iloc[len(g) // 2].file
        data = c.read_bytes(name)
        _, obj, bases = parse(data, name, fmt)
        f = animre.tables.fields_table(obj, name, bases, values=False)
        f = f[(f.kind == "value") & f.type.str.match(r"^[us][24]") & f.start.notna()
              & f.name.str.contains("num_|count|len_|ofs_|size")]
        order = "big" if fmt in ("mot", "pas4") else "little"
        err, accepted, r = None, 0, None
        for r in f.itertuples():  # the first count/offset field whose maximum value is rejected
            s_, e_ = int(r.start), int(r.end)
            bad = bytearray(data)
            bad[s_:e_] = ((1 << (8 * (e_ - s_))) - 1).to_bytes(e_ - s_, order)
            bad = bytes(bad)
            try:
                parse(bad, name, fmt)
                accepted += 1  # e.g. a header length nothing depends on
            except animre.ParseError as e:
                err = e
                break
        if err is None:
            continue

        def reject(bad=bad, name=name, fmt=fmt):
            try:
                parse(bad, name, fmt)
            except animre.ParseError:
                pass

        t_bad = best(reject, repeat)
        t_ok = best(lambda data=data, name=name, fmt=fmt: parse(data, name, fmt), repeat)
        out[fmt] = {"field": r.path, "reject_ms": t_bad * 1000, "parse_ms": t_ok * 1000,
                    "error": str(err), "harmless_before": accepted}
        print(f"[hostile {fmt}] {r.path} = 0x{(1 << (8 * (e_ - s_))) - 1:X}: rejected in {t_bad * 1000:.2f} ms "
              f"= {t_bad / t_ok:.2f}x parsing the valid {len(data)}-byte file; the error names "
              f"{err.path} @ {err.offset}" + (f" ({accepted} earlier header field(s) at their maximum "
                                              "parsed harmlessly)" if accepted else ""))
    out.update(_hostile_archives(samples, repeat))
    return out


def _hostile_archives(samples: Path, repeat: int) -> dict:
    """Hostile archives listed like a scan lists them: time to reject vs listing the valid sample."""
    import io
    import zipfile

    from animre.sources import list_sources

    agg = (samples / "agg" / "HEROES2.AGG").read_bytes()
    outside = bytearray(agg)
    outside[6:14] = struct.pack("<II", len(agg), 10**9)  # entry 0: offset and size past the end
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w") as z:
        z.writestr("bomb.bin", b"\0" * 100_000, compress_type=zipfile.ZIP_DEFLATED)
    expanding = bytearray(b.getvalue())
    cd = expanding.index(b"PK\x01\x02")
    struct.pack_into("<I", expanding, cd + 24, 1000)  # declares 1000 bytes, the stream gives 100,000
    struct.pack_into("<I", expanding, 22, 1000)
    declared_4gb = bytearray(expanding)
    struct.pack_into("<I", declared_4gb, cd + 24, 0xFFFFFFFE)
    civ3_zip = samples / "zip" / "CIV3UNITS.ZIP"
    cases = {"agg: 65535 entries in 40 bytes": ("H.AGG", struct.pack("<H", 65535) + bytes(38), agg),
             "agg: member outside the file": ("H.AGG", bytes(outside), agg),
             "zip: member declaring 4 GB": ("B.ZIP", bytes(declared_4gb), civ3_zip.read_bytes()),
             "zip: stream beyond its size": ("B.ZIP", bytes(expanding), civ3_zip.read_bytes())}
    cases.update(_hostile_retro(samples))
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label, (name, bad, good) in cases.items():
            d_bad, d_ok = Path(tmp) / "bad", Path(tmp) / "ok"
            for d, data in ((d_bad, bad), (d_ok, good)):
                shutil.rmtree(d, ignore_errors=True)
                d.mkdir()
                (d / name).write_bytes(data)
            err = next(s.error for s in list_sources(d_bad)[1] if s.error)
            t_bad = best(lambda d=d_bad: list_sources(d), repeat)
            t_ok = best(lambda d=d_ok: list_sources(d), repeat)
            out[label] = {"reject_ms": t_bad * 1000, "list_ms": t_ok * 1000, "error": str(err)}
            print(f"[hostile {label}] rejected in {t_bad * 1000:.2f} ms = {t_bad / t_ok:.2f}x listing the valid "
                  f"{len(good)}-byte archive; the error names {err.file}: {err.path} @ {err.offset}")
    return out


def _hostile_retro(samples: Path) -> dict:
    """Hostile Retro PAKs and GameCube disc images made from the valid samples: label -> (name, bad, good)."""
    pak = (samples / "pak" / "Metroid1.pak").read_bytes()
    (n_named,) = struct.unpack_from(">I", pak, 8)
    pos = 12
    for _ in range(n_named):
        pos += 12 + struct.unpack_from(">I", pak, pos + 8)[0]
    table = pos + 4
    entries = [struct.unpack_from(">I4sIII", pak, table + 20 * i) for i in range(struct.unpack_from(">I", pak, pos)[0])]

    def edit(at: int, fmt: str, *v, data: bytes = pak) -> bytes:
        b = bytearray(data)
        struct.pack_into(fmt, b, at, *v)
        return bytes(b)

    zlib_at = next(off for flag, _, _, _, off in entries if flag and pak[off + 4] == 0x78)
    lzo_at = next(off for flag, _, _, size, off in entries if flag and pak[off + 4] != 0x78 and size > 4096)
    disc = (samples / "gcdisc" / "ANIMRE.gcm").read_bytes()
    fst = struct.unpack_from(">I", disc, 0x424)[0]
    rvz = (samples / "gcdisc" / "ANIMRE.rvz").read_bytes() if (samples / "gcdisc" / "ANIMRE.rvz").exists() else b""
    return {
        **({"gcdisc: truncated RVZ": ("D.rvz", rvz[:len(rvz) // 2], rvz),
            "gcdisc: RVZ with a damaged header": ("D.rvz", edit(0x50, ">B", rvz[0x50] ^ 0x10, data=rvz), rvz)}
           if rvz else {}),
        "pak: 2^32 resources": ("M.pak", edit(pos, ">I", 0xFFFFFFFF), pak),
        "pak: resource outside the file": ("M.pak", edit(table + 16, ">I", 10**9), pak),
        "pak: resource declaring 4 GB": ("M.pak", edit(zlib_at, ">I", 0xFFFFFFFF), pak),
        "pak: zlib stream beyond its size": ("M.pak", edit(zlib_at, ">I", 100), pak),
        "pak: LZO stream beyond its size": ("M.pak", edit(lzo_at, ">I", 0x4000 + 7), pak),
        "pak: name that is not text": ("M.pak", pak.replace(b"Samus_AnimSet", b"Samus\xff\x01nimSet"), pak),
        "pak: inside itself": ("M.pak", edit(table + 12, ">II", len(pak), 0), pak),
        "gcdisc: 2^32 file system entries": ("D.gcm", edit(fst + 8, ">I", 0xFFFFFFFF, data=disc), disc),
        "gcdisc: file outside the image": ("D.gcm", edit(fst + 12 * 2 + 4, ">I", 10**9, data=disc), disc),
    }


# ---------------------------------------------------------------- the big corpus


def make_frm(dst: Path, samples: Path, n_frm: int) -> None:
    """``n_frm`` distinct FRM files from the generated samples' values (walk speed and eye x varied)."""
    import numpy as np

    from animre.formats.frm.samples import encode_frm

    manifest = json.loads((samples / "manifest.json").read_text())
    frm_values = list(manifest["formats"]["frm"]["files"].values())
    rng = np.random.default_rng(7)
    dst.mkdir(parents=True)
    for i in range(n_frm):
        v = dict(frm_values[i % len(frm_values)])
        v["walk_speed"] = int(rng.integers(100, 2000))  # distinct content, realistic values
        v["eye_x"] = int(rng.integers(-100, 100))
        (dst / f"M{i:05d}FRM.BIN").write_bytes(encode_frm(v))


def make_big(dst: Path, samples: Path, n_frm: int, n_flc: int) -> None:
    make_frm(dst / "frm", samples, n_frm)
    civ = sorted((samples / "flc").rglob("*.flc"))
    (dst / "flc").mkdir()
    for i in range(n_flc):
        data = bytearray(civ[i % len(civ)].read_bytes())
        data[0x1E:0x22] = struct.pack("<I", i)  # FLC header "updated" stamp: unique content
        (dst / "flc" / f"unit{i:04d}.flc").write_bytes(bytes(data))


def struct_frm_reader(files) -> int:
    """Baseline: a plain struct reader for the 821-byte FRM layout (NOTES.md section 2)."""
    head = struct.Struct("<Bhh112bB5f5I4I6hB12fii34B544B")
    n = 0
    for f in files:
        vals = head.unpack(Path(f).read_bytes())
        n += len(vals)
    return n


PARSE_ONLY = """
from pathlib import Path
from animre.formats import detect_format
from animre.tables.read import parse_blocks
files = [f for f in sorted(Path(D).rglob('*')) if f.is_file()]
fmts = [detect_format(f.read_bytes()[:4096], f.stat().st_size, f.name)[0] for f in files]
t = time.perf_counter()  # the compiled parsers alone, one process: formats known, no tables
for f, fm in zip(files, fmts):
    if fm is not None:
        for _ in parse_blocks(f.read_bytes(), f.name, fm):
            pass
"""

PHASES = {
    "read": "from pathlib import Path\nfiles=[f for f in Path(D).rglob('*') if f.is_file()]\n"
            "blobs=[f.read_bytes() for f in files]",
    "parse": PARSE_ONLY,
    "cold": "import animre\nc=animre.open_corpus(D, cache=C, progress=False)",
    "cold1": "import animre\nc=animre.open_corpus(D, cache=C + '-1', progress=False, workers=1)",
    "warm": "import animre\nc=animre.open_corpus(D, cache=C, progress=False)",
    "profile": "import animre\nfrom animre.research import profile\n"
               "c=animre.open_corpus(D, cache=C, progress=False)\n"
               "[profile(df) for t, df in c.tables.items()]",
}


LAST_PHASE: dict = {}
_TABLES_MB = ("TABLES_MB=(sum(int(df.memory_usage(deep=True).sum()) for df in c.tables.values())"
              "+sum(int(x.memory_usage(deep=True).sum()) for t in c.spans for x in c.spans[t]))/2**20")
AFTER = {"cold": _TABLES_MB, "cold1": _TABLES_MB}  # measured after the timing: the size of what the phase returned


_SAMPLER = """
import threading
SAMPLES = []
def _sample():  # RSS every 10 ms, to split the peak by the open's phases (corpus.timings)
    while not _STOP:
        SAMPLES.append((time.perf_counter(), _rss('VmRSS')))
        time.sleep(0.01)
_STOP = False
threading.Thread(target=_sample, daemon=True).start()
"""

_PER_PHASE = """
_STOP = True
PHASE_PEAKS = {}
if 'c' in dir() and hasattr(c, 'timings'):
    for _, row in c.timings.iterrows():
        got = [m for tt, m in SAMPLES if row.start <= tt <= row.end]
        PHASE_PEAKS[row.phase] = [row.seconds, (max(got) - rss0) if got else None]
"""


def run_phase(name: str, data: Path, cache: Path, code: str | None = None) -> tuple[float, float]:
    """Run one phase in a fresh process: (seconds, peak RSS in MB).

    ``LAST_PHASE`` gets the RSS after imports, the returned tables' size and,
    for phases that open a corpus, seconds and peak memory per phase of the
    open (``phases``: phase -> [seconds, MB above the imports]).
    """
    # peak RSS from /proc/self/status VmHWM: unlike ru_maxrss it is not inherited from the
    # (large) parent process across fork + exec, so the baseline is the child's own
    code = (f"import time,re,json\nD={str(data)!r}\nC={str(cache)!r}\nTABLES_MB=0\n"
            "def _rss(k):\n"
            "    return int(re.search(k + r':\\s+(\\d+)', open('/proc/self/status').read()).group(1))/1024\n"
            "import animre, pandas\n"  # the libraries' own memory is not the scan's
            f"rss0=_rss('VmRSS')\n{_SAMPLER}\n"
            f"t=time.perf_counter()\n{code or PHASES[name]}\nelapsed=time.perf_counter()-t\n"
            f"hwm=_rss('VmHWM')\n{_PER_PHASE}\n"
            f"{AFTER.get(name, '')}\nprint(json.dumps([elapsed, hwm, rss0, TABLES_MB, PHASE_PEAKS]))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    if r.returncode:
        raise SystemExit(f"phase {name} failed:\n{r.stderr[-3000:]}")
    t, rss, rss0, tables_mb, phases = json.loads(r.stdout.strip().splitlines()[-1])
    LAST_PHASE.update(rss_before_MB=rss0, tables_MB=tables_mb, phases=phases)
    return t, rss


def print_phases(phases: dict, tables_mb: float) -> None:
    for ph, (sec, mb) in phases.items():
        mem = f"peak {mb:.0f} MB = {mb / tables_mb:.1f}x the tables" if mb is not None and tables_mb else ""
        print(f"    {ph:22s} {sec:7.2f} s  {mem}")


def section_big(samples: Path, n_frm: int, n_flc: int) -> dict:
    work = Path(tempfile.mkdtemp(prefix="animre-bench-big-"))
    try:
        data, cache = work / "corpus", work / "cache"
        make_big(data, samples, n_frm, n_flc)
        frm_files = sorted((data / "frm").iterdir())
        t_struct = best(lambda: struct_frm_reader(frm_files), 3)
        t_read_frm = best(lambda: read_all(frm_files), 3)
        t_read, rss_read = run_phase("read", data, cache)
        t_parse, _ = run_phase("parse", data, cache)
        t_cold1, _ = run_phase("cold1", data, cache)
        phases1 = LAST_PHASE["phases"]
        t_cold, rss_cold = run_phase("cold", data, cache)
        cold_extra, tables_mb = rss_cold - LAST_PHASE["rss_before_MB"], LAST_PHASE["tables_MB"]
        phases = LAST_PHASE["phases"]
        t_warm, rss_warm = run_phase("warm", data, cache)
        t_prof, rss_prof = run_phase("profile", data, cache)
        frm_only = work / "frm_only_cache"
        t_cold_frm, _ = run_phase("cold", data / "frm", frm_only)
        res = {
            "files": n_frm + n_flc, "read_s": t_read, "cold_s": t_cold, "cold_1_worker_s": t_cold1,
            "workers": len(os.sched_getaffinity(0)), "one_worker_over_all": t_cold1 / t_cold, "warm_s": t_warm,
            "profile_s": t_prof, "cold_over_read": t_cold / t_read, "warm_over_read": t_warm / t_read,
            "cold_over_warm": t_cold / t_warm, "profile_over_read": t_prof / t_read,
            "frm_cold_over_struct": t_cold_frm / t_struct, "frm_struct_over_read": t_struct / t_read_frm,
            "peak_rss_read_MB": rss_read, "peak_rss_cold_MB": rss_cold, "peak_rss_warm_MB": rss_warm,
            "peak_rss_profile_MB": rss_prof, "cold_rss_over_read": rss_cold / rss_read,
            "tables_MB": tables_mb, "cold_peak_over_imports_MB": cold_extra,
            "cold_peak_over_tables": cold_extra / tables_mb,
            "parse_only_s": t_parse, "cold_over_parse_only": t_cold / t_parse,
            "cold_1_worker_over_parse_only": t_cold1 / t_parse, "phases": phases, "phases_1_worker": phases1,
        }
        mb = sum(f.stat().st_size for f in data.rglob('*') if f.is_file()) / 1e6
        print(f"[big] {n_frm} FRM + {n_flc} FLC files ({mb:.1f} MB)")
        print(f"  baseline: reading the bytes {t_read:.2f} s (peak {rss_read:.0f} MB RSS); "
              f"struct reader on the FRM files {t_struct:.2f} s")
        print(f"  parse only (compiled parsers, no tables, one process) {t_parse:.1f} s; cold scan "
              f"{t_cold:.1f} s = {t_cold / t_parse:.2f}x that (one worker: {t_cold1 / t_parse:.2f}x)")
        print("  cold scan by phase (every core):")
        print_phases(phases, tables_mb)
        print("  cold scan by phase (one worker):")
        print_phases(phases1, tables_mb)
        print(f"  cold scan {t_cold:.1f} s = {t_cold / t_read:.0f}x reading; warm scan {t_warm:.2f} s = "
              f"{t_warm / t_read:.1f}x reading; cold/warm = {t_cold / t_warm:.0f}x")
        print(f"  cold scan memory: peak {cold_extra:.0f} MB above the imported libraries, tables + spans "
              f"{tables_mb:.0f} MB (pandas deep size) -> {cold_extra / tables_mb:.1f}x the returned tables")
        print(f"  cold scan with every core ({len(os.sched_getaffinity(0))} workers) {t_cold:.1f} s, with one "
              f"{t_cold1:.1f} s -> {t_cold1 / t_cold:.2f}x faster in parallel")
        print(f"  FRM only: cold scan {t_cold_frm:.1f} s = {t_cold_frm / t_struct:.0f}x the plain struct reader")
        print(f"  profile of every table (warm open included) {t_prof:.1f} s = {t_prof / t_read:.0f}x reading")
        print(f"  peak memory: cold {rss_cold:.0f} MB = {rss_cold / rss_read:.1f}x the reading baseline; "
              f"warm {rss_warm:.0f} MB = {rss_warm / rss_read:.1f}x; profile {rss_prof:.0f} MB = "
              f"{rss_prof / rss_read:.1f}x")
        return res
    finally:
        shutil.rmtree(work, ignore_errors=True)


_OPEN_TIMER = """
import sys, time
sys.path.insert(0, sys.argv[1])
import animre
assert animre.__file__.startswith(sys.argv[1]), animre.__file__
folder, n = sys.argv[2], int(sys.argv[3])
animre.open_corpus(folder, cache=False, progress=False)  # imports and parser loading out of the timing
times = []
for _ in range(n):
    t = time.perf_counter()
    animre.open_corpus(folder, cache=False, progress=False)
    times.append(time.perf_counter() - t)
print(min(times))
"""

# The FLC decoder of either revision: the module it lived in there (the package split of f171ba7 and the
# format folders of c0f2e25 moved it), then best-of-n time to decode each file, a JSON list of seconds.
_DECODE_TIMER = """
import importlib, json, sys, time
sys.path.insert(0, sys.argv[1])
for name in ("animre.formats.flc.decode", "animre.decode.flc", "animre.decode.flic"):
    try:
        dec = importlib.import_module(name)
        break
    except ImportError:
        continue
assert dec.__file__.startswith(sys.argv[1]), dec.__file__
n, files = int(sys.argv[2]), sys.argv[3:]
out = []
for f in files:
    dec.decode_frames(f)
    times = []
    for _ in range(n):
        t = time.perf_counter()
        dec.decode_frames(f)
        times.append(time.perf_counter() - t)
    out.append(min(times))
print(json.dumps(out))
"""


DECODE_REPEAT = 5  # decodes of each file per round; the best is kept


def section_revision(samples: Path, rev: str, repeat: int) -> dict:
    """Cold open of the sample corpus by this checkout and by an earlier revision, in the same run.

    The revision is exported with ``git archive`` into a temporary folder (its
    committed parsers included) and both versions open the same files in fresh
    interpreters, alternately, ``repeat`` rounds of ``repeat`` opens each.
    """
    tmp = Path(tempfile.mkdtemp(prefix="animre-bench-rev-"))
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive, check=True)
        times = {"this": [], rev: []}
        groups = {k: [str(f) for f in v] for k, v in
                  (("a.fli", [AFLI] if AFLI.is_file() else []), ("real Civ3 unit FLCs", real_civ3_flcs())) if v}
        files = [f for v in groups.values() for f in v]
        decode: dict = {"this": [], rev: []}
        for _ in range(repeat):
            for name, root in (("this", ROOT), (rev, tmp)):
                out = subprocess.run([sys.executable, "-c", _OPEN_TIMER, str(root), str(samples), str(repeat)],
                                     check=True, capture_output=True, text=True).stdout
                times[name].append(float(out.strip().splitlines()[-1]))
                if files:
                    out = subprocess.run([sys.executable, "-c", _DECODE_TIMER, str(root), str(DECODE_REPEAT), *files],
                                         check=True, capture_output=True, text=True).stdout
                    decode[name].append(json.loads(out.strip().splitlines()[-1]))
        t_new, t_old = min(times["this"]), min(times[rev])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"[revision] cold open of the sample corpus (no cache): this checkout {t_new:.2f} s, {rev} "
          f"{t_old:.2f} s -> {t_new / t_old:.2f}x the time of {rev}")
    res = {"rev": rev, "this_s": t_new, "rev_s": t_old, "this_over_rev": t_new / t_old}
    fastest = {name: [min(per_file) for per_file in zip(*rounds)] for name, rounds in decode.items()}
    i = 0
    for label, group in groups.items():
        new, old = (sum(fastest[name][i:i + len(group)]) for name in ("this", rev))
        i += len(group)
        print(f"[revision] FLC decode of {label} ({len(group)} files, best per file): this checkout "
              f"{new * 1e3:.1f} ms, {rev} {old * 1e3:.1f} ms -> {new / old:.2f}x the time of {rev}")
        res[f"decode {label}"] = {"this_ms": new * 1e3, "rev_ms": old * 1e3, "this_over_rev": new / old}
    if not groups:
        print("[revision] FLC decode: skipped (real files not present, see README)")
    return res


# ---------------------------------------------------------------- notebooks on 200 real-size Civ3 units

CELL_BUDGET_S = 5.0


def _cell_seconds(executed: Path) -> list[tuple[int, float, str]]:
    """(cell index, seconds, first source line) of every code cell, from nbclient's recorded timing."""
    from datetime import datetime

    import nbformat

    nb = nbformat.read(executed, as_version=4)
    out = []
    for i, c in enumerate(nb.cells):
        t = c.get("metadata", {}).get("execution", {})
        a, b = t.get("iopub.execute_input"), t.get("shell.execute_reply")
        if c.cell_type == "code" and a and b:
            sec = (datetime.fromisoformat(b.replace("Z", "+00:00")) -
                   datetime.fromisoformat(a.replace("Z", "+00:00"))).total_seconds()
            out.append((i, sec, c.source.splitlines()[0][:70] if c.source else ""))
    return out


def section_notebooks(n: int = 200, notebooks: tuple[str, ...] = ("05_civ3_flc", "00_quickstart")) -> dict:
    """Notebooks executed on the civ200 folder: the slowest cell of each (cold cache, then warm)."""
    from animre.demo import run_notebook

    if not (REALDATA / "flic" / "civ3" / "settler").is_dir():
        print("notebooks on civ200: skipped (real files not present, see README)")
        return {}
    tmp = Path(tempfile.mkdtemp(prefix="animre-bench-civ200-"))
    res: dict = {}
    try:
        data = tmp / "civ200"
        size = civ3.make_civ3(data, n, REALDATA / "flic" / "civ3" / "settler")
        print(f"notebooks on civ200: {n} Civ3 unit FLCs, {size / 1e6:.1f} MB (built from the real settler files)")
        env = {"ANIMRE_CACHE_DIR": str(tmp / "cache")}
        for phase in ("cold", "warm"):
            for name in notebooks:
                t0 = time.perf_counter()
                executed = run_notebook(ROOT / "notebooks" / f"{name}.ipynb", tmp / f"out-{phase}", data, env=env,
                                        timeout=600)
                wall = time.perf_counter() - t0
                cells = _cell_seconds(executed)
                i, sec, src = max(cells, key=lambda c: c[1])
                over = [c for c in cells if c[1] > CELL_BUDGET_S]
                res[f"{name}_{phase}"] = {"wall_s": wall, "slowest_cell": i, "slowest_s": sec,
                                          "cells_over_budget": [c[0] for c in over]}
                print(f"  {name} ({phase} cache): {wall:.1f} s in all; slowest cell [{i}] {sec:.2f} s "
                      f"({sec / CELL_BUDGET_S:.2f} x the {CELL_BUDGET_S:g} s budget): {src}")
                for c in sorted(cells, key=lambda c: -c[1])[1:4]:
                    print(f"      next: [{c[0]}] {c[1]:.2f} s  {c[2]}")
                if over:
                    print(f"      cells over {CELL_BUDGET_S:g} s: {[c[0] for c in over]}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="skip the 10,000 FRM + 1,000 FLC corpus")
    ap.add_argument("--repeat", type=int, default=3, help="timing repeats; the best is kept (default 3)")
    ap.add_argument("--frm", type=int, default=10_000, help="FRM files in the big corpus")
    ap.add_argument("--flc", type=int, default=1_000, help="FLC files in the big corpus")
    ap.add_argument("--modder-flc", type=int, default=2_000,
                    help="real-size Civ3 unit FLCs in the modder-scale corpus (with the --frm FRM files)")
    ap.add_argument("--json", type=Path, help="also write the figures as JSON here")
    ap.add_argument("--notebooks", action="store_true",
                    help="only section 8: notebooks 05 and 00 on the 200-file Civ3 corpus, slowest cell")
    ap.add_argument("--baseline-rev", metavar="REV",
                    help="also time a cold open of the samples by this git revision (e.g. the last release)")
    args = ap.parse_args(argv)
    if args.notebooks:
        res = {"notebooks": section_notebooks()}
        if args.json:
            args.json.write_text(json.dumps(res, indent=1))
        return 0
    from animre.samples import generate_all

    tmp = Path(tempfile.mkdtemp(prefix="animre-bench-samples-"))
    try:
        generate_all(tmp, seed=2097)
        res = {"open": section_open(tmp, args.repeat), "flc": section_flc(tmp, args.repeat),
               "formats": section_formats(tmp, args.repeat), "hostile": section_hostile(tmp, args.repeat)}
        if args.baseline_rev:
            res["revision"] = section_revision(tmp, args.baseline_rev, args.repeat)
        res["latency"] = civ3.section_latency(REALDATA)
        infer_script = str(Path(__file__).with_name("infer.py"))
        res["infer"] = subprocess.run([sys.executable, infer_script], check=False).returncode
        fast_script = str(Path(__file__).with_name("fast.py"))  # the fast-path targets, one line each
        res["fast"] = subprocess.run([sys.executable, fast_script, "--frm", str(args.frm if not args.quick else 2000),
                                      "--repeat", str(args.repeat)], check=False).returncode
        if not args.quick:
            res["big"] = section_big(tmp, args.frm, args.flc)
            res["notebooks"] = section_notebooks()
            res["modder"] = civ3.section_modder(REALDATA, args.modder_flc, args.frm,
                                                lambda d, n: make_frm(d, tmp, n), run_phase, LAST_PHASE, print_phases)
        res["peak_rss_MB_this_process"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
