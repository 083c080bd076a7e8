"""Assemble the generalization corpus of ``infer_general.py`` from local git mirrors of public repositories.

``infer_corpus.json`` (beside this script) lists every format (its truth layout, its reader) and
every file (repository, commit, path, sha256). The files are never kept in this repository: each
is taken with ``git --git-dir MIRROR cat-file`` / ``show COMMIT:PATH`` from the mirrors under
``--mirrors`` (``owner+name/repo``, as the search tool's fetch lays them) and written to
``DIR/<format>/<n>_<file name>`` (a number keeps two files of the same name apart). A format whose
mirror is absent (or lacks the commit) is reported and left out; the others are still written.
A file whose sha256 differs from the manifest is not written, and counted.

    .venv/bin/python benchmarks/infer_corpus.py --out /tmp/infer_corpus [--mirrors /work/.mirror]
    ANIMRE_INFER_CORPUS=/tmp/infer_corpus .venv/bin/python benchmarks/infer_corpus.py
    .venv/bin/python benchmarks/infer_corpus.py --manifest benchmarks/infer_fresh.json --out /tmp/infer_fresh

``infer_fresh.json`` (made by ``infer_corpus_make.py --fresh``) is the held-out set: formats no rule was
chosen on, assembled the same way from its own mirrors (OpenRA/OpenRA, ValveResourceFormat/ValveResourceFormat,
libxmp/libxmp; electronicarts/CnC_Remastered_Collection is cited for truths only).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

MANIFEST = Path(__file__).resolve().parent / "infer_corpus.json"
ENV = "ANIMRE_INFER_CORPUS"


def load(manifest: Path = MANIFEST) -> dict:
    """The manifest: ``split``, ``formats`` (id, kind, game, truth, fields), ``files``."""
    return json.loads(Path(manifest).read_text())


def git_dir(mirrors: Path, repo: str) -> Path:
    return mirrors / repo.replace("/", "+") / "repo"


def file_name(i: int, path: str) -> str:
    """The name a manifest file gets in its format folder: its index there and its own name."""
    return f"{i:03d}_{path.rsplit('/', 1)[-1]}"


def assemble(out: Path, mirrors: Path, manifest: Path = MANIFEST) -> dict:
    """Write every file of the manifest to ``out/<format>/``; returns ``{"written", "bad", "absent"}``.

    ``absent``: format -> reasons (mirror missing, commit or path missing) for the files not written.
    """
    doc = load(manifest)
    absent: dict[str, set[str]] = defaultdict(set)
    per: dict[str, int] = defaultdict(int)
    bad = written = 0
    for e in doc["files"]:
        fmt = e["format"]
        i = per[fmt]
        per[fmt] += 1
        gd = git_dir(mirrors, e["repository"])
        if not gd.is_dir():
            absent[fmt].add(f"no mirror of {e['repository']} at {gd}")
            continue
        r = subprocess.run(["git", "--git-dir", str(gd), "show", f"{e['commit']}:{e['path']}"], capture_output=True)
        if r.returncode:
            absent[fmt].add(f"{e['repository']}@{e['commit'][:10]} lacks {e['path']}")
            continue
        if hashlib.sha256(r.stdout).hexdigest() != e["sha256"]:
            bad += 1
            print(f"sha256   {e['repository']}:{e['path']}: differs from the manifest, not written")
            continue
        dest = out / fmt / file_name(i, e["path"])
        dest.parent.mkdir(parents=True, exist_ok=True)
        if not dest.is_file() or dest.stat().st_size != len(r.stdout):
            dest.write_bytes(r.stdout)
        written += 1
    ids = [f["id"] for f in doc["formats"]]
    for fmt in ids:
        n = sum(1 for p in (out / fmt).iterdir()) if (out / fmt).is_dir() else 0
        if fmt in absent:
            state = "absent" if n == 0 else f"partial ({n} of {per[fmt]} files)"
            print(f"{state:<8} {fmt}: {'; '.join(sorted(absent[fmt])[:3])}")
    print(f"{written} of {len(doc['files'])} files written to {out} ({len(ids)} formats, "
          f"{sum(1 for f in ids if f in absent)} short of files); {bad} sha256 mismatches")
    return {"written": written, "bad": bad, "absent": {k: sorted(v) for k, v in absent.items()}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=os.environ.get(ENV),
                    help=f"folder to fill: OUT/<format>/<files> (default: ${ENV})")
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"), help="folder of owner+name/repo git dirs")
    ap.add_argument("--manifest", type=Path, default=MANIFEST)
    a = ap.parse_args(argv)
    if a.out is None:
        ap.error(f"give --out DIR or set {ENV}")
    res = assemble(Path(a.out), a.mirrors, a.manifest)
    return 1 if res["bad"] else 0


if __name__ == "__main__":
    sys.exit(main())
