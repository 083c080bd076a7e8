"""Assemble the folder of real files for ``range_sweep.py`` from local git mirrors of public repositories.

``gallery_files.json`` (beside this script) lists every file: the gallery spec it is read with
(``image/png`` for ``image/png.ksy``), the public repository, the commit, the path in that
repository and its sha256. The files are never kept in this repository: they are taken with
``git --git-dir MIRROR show COMMIT:PATH`` from mirrors under ``--mirrors`` (``owner+name/repo``,
as the search tool's fetch lays them) and written to ``DIR/<spec path>/<file name>``. A mirror
that is absent (or lacks the commit) is reported with the specs it leaves without files; the
other files are still written. A file whose sha256 differs from the manifest is an error.

    .venv/bin/python benchmarks/gallery_files.py --out /tmp/gallery_files [--mirrors /work/.mirror]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

MANIFEST = Path(__file__).resolve().parent / "gallery_files.json"


def git_dir(mirrors: Path, repo: str) -> Path:
    return mirrors / repo.replace("/", "+") / "repo"


def assemble(out: Path, mirrors: Path, manifest: Path = MANIFEST) -> int:
    entries = json.loads(manifest.read_text())["files"]
    absent: dict[str, set[str]] = defaultdict(set)  # repository -> specs short of files
    bad = written = 0
    for e in entries:
        gd = git_dir(mirrors, e["repository"])
        dest = out / e["spec"] / e["path"].rsplit("/", 1)[-1]
        if not gd.is_dir():
            absent[e["repository"]].add(e["spec"])
            continue
        r = subprocess.run(["git", "--git-dir", str(gd), "show", f"{e['commit']}:{e['path']}"], capture_output=True)
        if r.returncode:
            absent[e["repository"]].add(e["spec"])
            print(f"missing  {e['repository']}@{e['commit'][:10]}:{e['path']}: {r.stderr.decode().strip()[:120]}")
            continue
        if hashlib.sha256(r.stdout).hexdigest() != e["sha256"]:
            bad += 1
            print(f"sha256   {e['repository']}:{e['path']}: differs from the manifest, not written")
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(r.stdout)
        written += 1
    for repo, specs in sorted(absent.items()):
        print(f"absent   {repo} (no mirror at {git_dir(mirrors, repo)} or no such commit): "
              f"specs short of files: {', '.join(sorted(specs))}")
    n_specs = len({e["spec"] for e in entries})
    print(f"{written} of {len(entries)} files written to {out} ({n_specs} specs); "
          f"{sum(len(s) for s in absent.values())} spec folders short, {bad} sha256 mismatches")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, type=Path, help="folder to fill: OUT/<spec path>/<file name>")
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"), help="folder of owner+name/repo git dirs")
    ap.add_argument("--manifest", type=Path, default=MANIFEST)
    a = ap.parse_args(argv)
    return assemble(a.out, a.mirrors, a.manifest)


if __name__ == "__main__":
    sys.exit(main())
