"""Are the tables of this checkout equal to those of another git revision? (values and byte ranges)

Opens the sample corpus and the real-file folder (``$ANIMRE_REALDATA``, else
``../shared/realdata``) with this checkout and with the revision ``--rev``
(checked out into a temporary git worktree, run in its own process), and
compares every table: columns, values and start/end offsets, cell by cell.
Columns that only one side has are listed (a new column is not a changed
value); the exit status is 1 when any shared cell differs.

    .venv/bin/python benchmarks/same_tables.py --rev HEAD~1
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

DUMP = r"""
import hashlib, json, sys
import pandas as pd
import animre
out = {}
for folder in sys.argv[1:]:
    c = animre.open_corpus(folder, cache=False, workers=1)
    for t, df in c.tables.items():
        cols = {}
        spans = c.spans[t] if t in c.spans else None
        for col in df.columns:
            vals = ["nan" if isinstance(v, float) and v != v else repr(v) for v in df[col].tolist()]
            h = hashlib.sha256("\x00".join(vals).encode()).hexdigest()
            if spans is not None and col in spans[0].columns:
                s = [str(x) for x in spans[0][col].tolist() + spans[1][col].tolist()]
                h += ":" + hashlib.sha256(",".join(s).encode()).hexdigest()
            cols[col] = h
        out[f"{folder}::{t}"] = {"rows": len(df), "cols": cols}
    cl = animre.claims(c)
    for r in cl.itertuples(index=False):
        ce = [(x["file"], x["offset"], str(x["expected"]), repr(x["value"])) for x in r.counterexamples]
        out[f"{folder}::claim::{r.claim}"] = {"rows": int(r.tested), "cols": {
            "holds": str(int(r.holds)), "status": r.status,
            "counterexamples": hashlib.sha256(repr(ce).encode()).hexdigest()}}
    err = c.errors
    out[f"{folder}::errors"] = {"rows": len(err), "cols": {"rows": hashlib.sha256(
        err[["file", "path", "offset"]].to_csv(index=False).encode()).hexdigest()}}
print(json.dumps(out))
"""

def dump(pkg_root: Path, folders: list[str]) -> dict:
    with tempfile.TemporaryDirectory(prefix="animre-cmp-") as cache:
        env = dict(os.environ, PYTHONPATH=str(pkg_root), ANIMRE_CACHE_DIR=cache)
        env.pop("ANIMRE_SPECS", None)
        proc = subprocess.run([sys.executable, "-c", DUMP, *folders], cwd=pkg_root, env=env, capture_output=True,
                              text=True, check=False)
    if proc.returncode:
        raise SystemExit(f"dump failed in {pkg_root}:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default="HEAD", help="git revision to compare with (default HEAD)")
    ap.add_argument("folders", nargs="*", help="folders (default: data/samples and the real-file folder)")
    a = ap.parse_args(argv)
    real = os.environ.get("ANIMRE_REALDATA", str(ROOT.parent / "shared" / "realdata"))
    folders = [str(Path(f).resolve()) for f in a.folders] or [str(ROOT / "data" / "samples")] + (
        [real] if Path(real).is_dir() else [])
    with tempfile.TemporaryDirectory(prefix="animre-rev-") as tmp:
        wt = Path(tmp) / "rev"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(wt), a.rev], cwd=ROOT, check=True)
        try:
            for link in ("node_modules",):
                if (ROOT / link).exists():
                    (wt / link).symlink_to(ROOT / link)
            old = dump(wt, folders)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(wt)], cwd=ROOT, check=False)
    new = dump(ROOT, folders)
    bad = 0
    for t in sorted(set(old) | set(new)):
        if t not in new or t not in old:
            print(f"table {t}: only in {'the revision' if t in old else 'this checkout'}")
            bad += t in old
            continue
        o, n = old[t], new[t]
        if o["rows"] != n["rows"]:
            print(f"table {t}: {o['rows']} rows vs {n['rows']}")
            bad += 1
        only_old = sorted(set(o["cols"]) - set(n["cols"]))
        only_new = sorted(set(n["cols"]) - set(o["cols"]))
        changed = sorted(c for c in set(o["cols"]) & set(n["cols"]) if o["cols"][c] != n["cols"][c])
        if only_old:
            print(f"table {t}: columns gone: {only_old}")
            bad += 1
        if only_new:
            print(f"table {t}: new columns: {only_new}")
        if changed:
            print(f"table {t}: changed values or byte ranges: {changed}")
            bad += 1
    n_cols = sum(len(v["cols"]) for v in new.values())
    print(f"compared {len(new)} tables, {n_cols} columns of {', '.join(folders)} against {a.rev}: "
          + ("all equal" if not bad else f"{bad} differences"))
    return 1 if bad else 0

if __name__ == "__main__":
    raise SystemExit(main())

