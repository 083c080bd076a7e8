"""Inference of a first spec, measured: every shipped format with its spec hidden, synthetic formats, guards.

    .venv/bin/python benchmarks/infer.py            # (also a section of benchmarks/run.py)

Per format: field-boundary precision / recall / F1 over the fixed header
(the shipped spec's fixed-size prefix is the truth; adjacent constant fields
count as one), share of header bytes typed, roles found (magic, file size,
offsets, counts, sizes: found / in the truth), the files the inferred spec
parses, and the time of inference against opening the same files with the
inferred spec (compile once, parse every file). Then the false roles on
random bytes and raw sound, and inference over 200 files of ~100 KB.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from animre.errors import ParseError, UsageError  # noqa: E402
from animre.infer import infer_spec  # noqa: E402
from animre.infer._score import STRUCT_ROLES, header_truth, measure  # noqa: E402
from animre.samples import generate_all  # noqa: E402
from animre.samples import synthetic as syn  # noqa: E402
from animre.spec.compiler import KSY_DIR, load_parser  # noqa: E402
from animre.spec.parse import parse_bytes  # noqa: E402

SHIPPED = ["af", "bk", "frm", "icn", "mot", "pas4", "flc", "agg", "pal"]
SPEC_OF = {"af": "af", "bk": "bk"}


def shipped_files(fmt: str, min_files: int = 8, seeds: int = 6) -> list[tuple[str, bytes]]:
    """Files of ``fmt`` from generated sample corpora (several seeds) that the shipped parser reads."""
    out: dict[str, bytes] = {}
    gen = {"af": "omf", "bk": "omf", "pal": "icn"}.get(fmt, fmt)
    mod = load_parser(fmt)
    for seed in range(seeds):
        d = Path(tempfile.mkdtemp(prefix="animre-infer-bench-"))
        generate_all(d, seed=1000 + seed, only=[gen])
        for p in sorted(d.rglob("*")):
            if not p.is_file() or p.name == "manifest.json":
                continue
            data = p.read_bytes()
            suffix = p.suffix.upper()
            if fmt == "pal" and suffix != ".PAL" or fmt in ("af", "bk") and suffix != f".{fmt.upper()}":
                continue
            try:
                parse_bytes(data, mod, p.name)
            except ParseError:
                continue
            out[f"{seed}/{p.relative_to(d)}"] = data
        if len(out) >= min_files:
            break
    return sorted(out.items())


def roles_text(roles: dict) -> str:
    return ", ".join(f"{r} {roles[r][0]}/{roles[r][1]}" for r in STRUCT_ROLES if r in roles) or "-"


def row(name: str, m: dict) -> dict:
    print(f"[infer] {name:<10} files {m['files']:>4}  parsed {m['parsed']:>4}  "
          f"P {m['precision']:.2f} R {m['recall']:.2f} "
          f"F1 {m['f1']:.2f}  typed {m['typed']:.0%} of {m['header_bytes']} B  roles: {roles_text(m['roles'])}  "
          f"infer {m['infer_s']:.2f} s vs open {m['parse_s']:.2f} s")
    return {k: v for k, v in m.items() if k != "spec"}


def section_shipped() -> dict:
    out = {}
    for fmt in SHIPPED:
        files = shipped_files(fmt)
        truth = header_truth(KSY_DIR / f"{fmt}.ksy")
        if len(files) < 5:
            print(f"[infer] {fmt:<10} only {len(files)} files: not measured (min_files=5)")
            continue
        try:
            out[fmt] = row(fmt, measure(files, truth, name=f"hidden_{fmt}"))
        except UsageError as e:
            print(f"[infer] {fmt:<10} not measured: {e}")
    f1 = [m["f1"] for m in out.values()]
    print(f"[infer] shipped formats, spec hidden: macro F1 {sum(f1) / len(f1):.2f} over {len(f1)} formats")
    return out


def syn_truth(header) -> list[dict]:
    return [{"offset": o, "width": w, "id": n, "role": r} for o, w, n, r in header]


def section_synthetic() -> dict:
    out = {}
    out["syna"] = row("syna", measure([(n, d) for n, d, _ in syn.syna_files(40, 7)], syn_truth(syn.SYNA_HEADER),
                                      name="syna"))
    out["synv"] = row("synv", measure([(n, d) for n, d, _ in syn.synv_files(40, 7)], syn_truth(syn.SYNV_HEADER),
                                      name="synv"))
    out["synb"] = row("synb", measure([(n, d) for n, d, _ in syn.synb_files(40, 7)], syn_truth(syn.SYNB_HEADER),
                                      name="synb"))
    out["synd"] = row("synd", measure([(n, d) for n, d, _ in syn.synd_files(40, 7)], syn_truth(syn.SYND_HEADER),
                                      name="synd"))
    return out


def false_roles(files) -> int:
    s = infer_spec(files)
    return int(s.evidence["role"].isin(["file_size", "offset", "count", "size"]).sum()), \
        int((~s.evidence["role"].isin(["raw", "magic", "const", "instance"])).sum())


def section_guard() -> dict:
    out = {}
    for n in (5, 20, 100, 400):
        for kind, files in (("random", syn.random_files(n, seed=n)), ("sound", syn.sound_files(n, seed=n)),
                            ("random+prefix", syn.random_files(n, seed=n + 1, prefix=b"HDR\x01"))):
            roles, typed = false_roles(files)
            out[f"{kind}_{n}"] = (roles, typed)
            print(f"[infer] guard: {kind:<14} {n:>4} files: {roles} count/offset/size/length fields, "
                  f"{typed} typed fields past the constant prefix")
    return out


def section_speed() -> dict:
    import numpy as np

    d = Path(tempfile.mkdtemp(prefix="animre-infer-speed-"))
    rng = np.random.default_rng(5)
    for n, data, _ in syn.syna_files(200, 11):
        pad = rng.integers(0, 256, 100_000 - len(data) % 100_000, dtype=np.uint8).tobytes()
        (d / n).write_bytes(data + pad)
    total = sum(p.stat().st_size for p in d.iterdir())
    t = time.perf_counter()
    spec = infer_spec(d, max_files=200)
    dt = time.perf_counter() - t
    t = time.perf_counter()
    for p in d.iterdir():
        p.read_bytes()
    t_read = time.perf_counter() - t
    print(f"[infer] speed: 200 files, {total / 1e6:.1f} MB: inference {dt:.2f} s (reading every byte once: "
          f"{t_read:.2f} s); roles {spec.roles()}")
    tiny = Path(tempfile.mkdtemp(prefix="animre-infer-tiny-"))
    for i in range(20_000):
        (tiny / f"{i:06d}.bin").write_bytes(bytes([i % 7]) * 3)
    t = time.perf_counter()
    infer_spec(tiny)
    t_tiny = time.perf_counter() - t
    one = Path(tempfile.mkdtemp(prefix="animre-infer-one-"))
    for i in range(8):
        (one / f"{i}.bin").write_bytes(b"\xAA" * (1000 + 37 * i))
    t = time.perf_counter()
    infer_spec(one)
    t_one = time.perf_counter() - t
    print(f"[infer] hostile: 20,000 tiny files {t_tiny:.2f} s; files of one repeated byte {t_one:.2f} s")
    return {"files": 200, "mb": total / 1e6, "infer_s": dt, "read_s": t_read, "tiny_s": t_tiny, "one_byte_s": t_one}


def main() -> dict:
    os.environ.setdefault("ANIMRE_CACHE_DIR", tempfile.mkdtemp(prefix="animre-infer-cache-"))
    return {"shipped": section_shipped(), "synthetic": section_synthetic(), "guard": section_guard(),
            "speed": section_speed()}


if __name__ == "__main__":
    main()
