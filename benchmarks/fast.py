"""The fast-path targets (issue 31), one line each, every figure a ratio against its baseline in the same run.

1. FRM: a cold scan of 10,000 HoMM2 FRM files (fresh process, every core)
   against a plain ``struct`` reader of every field of the same files;
2. AF: a cold open of the generated OMF fighter files against the compiled
   parsers alone (the kit's parse of every file, no tables), and against the
   public pure-Python reader pyomftools (github.com/omf2097/pyomftools, not on
   PyPI) when a Python that imports it is named by ``$PYOMFTOOLS_PYTHON``:
   ``git clone https://github.com/omf2097/pyomftools /tmp/pyomftools &&
   python3 -m venv /tmp/omf && /tmp/omf/bin/pip install validx pillow natsort jinja2``,
   then ``PYOMFTOOLS_PYTHON=/tmp/omf/bin/python PYOMFTOOLS_PATH=/tmp/pyomftools``;
3. Civ3: a cold open of 202 real-size unit FLCs (built from the real settler
   files, ``benchmarks/civ3.py``) against the parsers alone;
4. memory: the peak of the FRM cold scan, the workers counted (the
   proportional set size of the scanning process and its forked workers,
   sampled every 10 ms, above the process after its imports), against the
   size of the tables and spans it returns (pandas deep size).

    .venv/bin/python benchmarks/fast.py [--frm 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import civ3  # noqa: E402 - the Civ3 corpora beside this script
import run as bench  # noqa: E402 - the shared timing helpers and corpora of benchmarks/run.py

ROOT = bench.ROOT

# Proportional set size (shared pages split between the processes sharing them) of a process and its
# descendants: a forked worker's copy-on-write pages count once, not once per process.
_TREE_PSS = """
def _tree_pss():
    total, todo = 0, [os.getpid()]
    while todo:
        pid = todo.pop()
        try:
            with open(f'/proc/{pid}/smaps_rollup') as fh:
                total += int(re.search(r'Pss:\\s+(\\d+)', fh.read()).group(1))
            with open(f'/proc/{pid}/task/{pid}/children') as fh:
                todo += [int(x) for x in fh.read().split()]
        except (OSError, AttributeError):
            pass
    return total / 1024
"""

_COLD_TREE = """
import os, re, sys, threading, time, json
D, C = sys.argv[1], sys.argv[2]
{tree}
import animre, pandas
base = _tree_pss()
peak, stop = [base], []
def _sample():
    while not stop:
        peak[0] = max(peak[0], _tree_pss())
        time.sleep(0.01)
threading.Thread(target=_sample, daemon=True).start()
t = time.perf_counter()
c = animre.open_corpus(D, cache=C, progress=False)
elapsed = time.perf_counter() - t
stop.append(1)
time.sleep(0.02)
tables = (sum(int(df.memory_usage(deep=True).sum()) for df in c.tables.values())
          + sum(int(x.memory_usage(deep=True).sum()) for t in c.spans for x in c.spans[t])) / 2**20
print(json.dumps([elapsed, peak[0] - base, tables]))
""".replace("{tree}", _TREE_PSS)

# In one process, imports and parser loading out of the timing: best-of-n cold open (no cache) and the
# compiled parsers alone (the kit's parse of every block of every file, formats known), alternately.
_OPEN_VS_PARSE = """
import json, sys, time
from pathlib import Path
import animre
from animre.formats import detect_format
from animre.tables.read import parse_blocks
folder, n = sys.argv[1], int(sys.argv[2])
files = [f for f in sorted(Path(folder).rglob('*')) if f.is_file()]
fmts = [detect_format(f.read_bytes()[:4096], f.stat().st_size, f.name)[0] for f in files]
def parse_only():
    for f, fm in zip(files, fmts):
        for _ in parse_blocks(f.read_bytes(), f.name, fm):
            pass
def cold():
    animre.open_corpus(folder, cache=False, progress=False, workers=1)
cold(); parse_only()
opens, parses = [], []
for _ in range(n):
    for fn, out in ((cold, opens), (parse_only, parses)):
        t = time.perf_counter(); fn(); out.append(time.perf_counter() - t)
print(json.dumps([min(opens), min(parses)]))
"""

_PYOMFTOOLS = """
import json, sys, time
from pathlib import Path
from omftools.pyshadowdive.af import AFFile
files = sys.argv[2:]
times = []
for _ in range(int(sys.argv[1])):
    t = time.perf_counter()
    for f in files:
        AFFile.load_native(f)
    times.append(time.perf_counter() - t)
print(json.dumps(min(times)))
"""


def _python(code: str, *args) -> list:
    r = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True, cwd=ROOT)
    if r.returncode:
        raise SystemExit(r.stderr[-3000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def frm_line(work: Path, samples: Path, n: int, repeat: int) -> dict:
    bench.make_frm(work / "frm", samples, n)
    files = sorted((work / "frm").iterdir())
    t_struct = bench.best(lambda: bench.struct_frm_reader(files), repeat)
    t_cold, peak_mb, tables_mb = _python(_COLD_TREE, work / "frm", work / "cache")
    print(f"[fast] FRM {n} files cold scan {t_cold:.2f} s = {t_cold / t_struct:.1f}x the plain struct reader "
          f"({t_struct:.3f} s; target <= 5x)")
    print(f"[fast] FRM cold scan peak {peak_mb:.0f} MB (PSS, workers counted) = {peak_mb / tables_mb:.2f}x the "
          f"tables and spans it returns ({tables_mb:.0f} MB; target <= 2x)")
    return {"frm_files": n, "frm_cold_s": t_cold, "frm_struct_s": t_struct, "frm_cold_over_struct": t_cold / t_struct,
            "frm_peak_MB": peak_mb, "frm_tables_MB": tables_mb, "frm_peak_over_tables": peak_mb / tables_mb}


def af_line(work: Path, samples: Path, repeat: int) -> dict:
    af = work / "af"
    af.mkdir()
    for f in sorted((samples / "af").glob("*.AF")):
        shutil.copy(f, af / f.name)
    files = sorted(af.iterdir())
    t_open, t_parse = _python(_OPEN_VS_PARSE, af, max(repeat, 5))
    out = {"af_files": len(files), "af_cold_s": t_open, "af_parse_s": t_parse, "af_cold_over_parse": t_open / t_parse}
    line = (f"[fast] AF {len(files)} fighter files cold open {t_open * 1000:.0f} ms = {t_open / t_parse:.2f}x the "
            f"parsers alone ({t_parse * 1000:.0f} ms; target <= 1.5x)")
    omf = os.environ.get("PYOMFTOOLS_PYTHON")
    if omf:
        env = {**os.environ, "PYTHONPATH": os.environ.get("PYOMFTOOLS_PATH", "")}
        r = subprocess.run([omf, "-c", _PYOMFTOOLS, str(max(repeat, 5)), *map(str, files)], capture_output=True,
                           text=True, env=env)
        if r.returncode == 0:
            t_omf = json.loads(r.stdout.strip().splitlines()[-1])
            out.update(af_pyomftools_s=t_omf, af_cold_over_pyomftools=t_open / t_omf)
            line += f"; {t_open / t_omf:.2f}x pyomftools ({t_omf * 1000:.0f} ms; target <= 1.0x)"
        else:
            line += f"; pyomftools failed: {r.stderr.strip().splitlines()[-1:]}"
    else:
        line += "; pyomftools: set PYOMFTOOLS_PYTHON to a Python with pyomftools installed (see the docstring)"
    print(line)
    return out


def civ3_line(work: Path, repeat: int, n: int = 202) -> dict:
    settler = civ3._settler(bench.REALDATA, "fast")
    if settler is None:
        return {"civ3": "real files not present"}
    civ3.make_civ3(work / "civ3", n, settler)
    t_open, t_parse = _python(_OPEN_VS_PARSE, work / "civ3", repeat)
    print(f"[fast] Civ3 {n} unit FLCs cold open {t_open:.2f} s = {t_open / t_parse:.2f}x the parsers alone "
          f"({t_parse:.2f} s; target <= 1.5x)")
    return {"civ3_files": n, "civ3_cold_s": t_open, "civ3_parse_s": t_parse, "civ3_cold_over_parse": t_open / t_parse}


def section_fast(samples: Path, n_frm: int, repeat: int) -> dict:
    work = Path(tempfile.mkdtemp(prefix="animre-bench-fast-"))
    try:
        return {**frm_line(work, samples, n_frm, repeat), **af_line(work, samples, repeat),
                **civ3_line(work, repeat)}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frm", type=int, default=10_000, help="FRM files in the cold scan (default 10,000)")
    ap.add_argument("--repeat", type=int, default=3, help="timing repeats; the best is kept (default 3)")
    ap.add_argument("--json", type=Path, help="also write the figures as JSON here")
    args = ap.parse_args(argv)
    from animre.samples import generate_all

    tmp = Path(tempfile.mkdtemp(prefix="animre-bench-samples-"))
    try:
        generate_all(tmp, seed=2097)
        res = section_fast(tmp, args.frm, args.repeat)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
