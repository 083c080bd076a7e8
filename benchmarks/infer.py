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

import glob
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from animre.base.errors import ParseError, UsageError  # noqa: E402
from animre.infer import infer_spec  # noqa: E402
from animre.infer._score import STRUCT_ROLES, header_truth, measure  # noqa: E402
from animre.samples import generate_all  # noqa: E402
from animre.samples import synthetic as syn  # noqa: E402
from animre.spec.compiler import KSY_DIR, load_parser  # noqa: E402
from animre.spec.parse import parse_bytes  # noqa: E402

SHIPPED = ["af", "bk", "frm", "icn", "mot", "pas4", "flc", "agg", "pal"]
_SCRATCH: list[Path] = []  # the run's scratch folder: removed when main() returns


def scratch(prefix: str) -> Path:
    """A new folder inside the run's scratch folder (the system temp folder outside :func:`main`)."""
    return Path(tempfile.mkdtemp(prefix=prefix, dir=_SCRATCH[-1] if _SCRATCH else None))
SPEC_OF = {"af": "af", "bk": "bk"}


def shipped_files(fmt: str, min_files: int = 8, seeds: int = 6) -> list[tuple[str, bytes]]:
    """Files of ``fmt`` from generated sample corpora (several seeds) that the shipped parser reads."""
    out: dict[str, bytes] = {}
    gen = {"af": "omf", "bk": "omf", "pal": "icn"}.get(fmt, fmt)
    mod = load_parser(fmt)
    for seed in range(seeds):
        d = scratch("animre-infer-bench-")
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
    out["syns"] = row("syns", measure([(n, d) for n, d, _ in syn.syns_files(40, 7)], syn_truth(syn.SYNS_HEADER),
                                      name="syns"))
    out["synp"] = row("synp", measure([(n, d) for n, d, _ in syn.synp_files(40, 7)], syn_truth(syn.SYNP_HEADER),
                                      name="synp"))
    return out


def _t(*xs) -> list[dict]:
    return [{"offset": o, "width": w, "id": n, "role": r} for o, w, n, r in xs]


_PY = "/root/.pyenv/versions/*/lib/python*"
# formats the project does not know: real files of this machine, their published layouts (Kaitai gallery) as truth
REAL = {
    "gettext .mo": (["/usr/share/locale/**/*.mo"], _t(
        (0, 4, "magic", "magic"), (4, 4, "revision", None), (8, 4, "num_strings", "count"),
        (12, 4, "ofs_originals", "offset"), (16, 4, "ofs_translations", "offset"), (20, 4, "len_hash", None),
        (24, 4, "ofs_hash", "offset"))),
    "gzip": (["/usr/share/doc/**/*.gz"], _t((0, 2, "id", "magic"), (2, 1, "cm", None), (3, 1, "flg", None),
                                           (4, 4, "mtime", None), (8, 1, "xfl", None), (9, 1, "os", None))),
    "TrueType": (["/usr/share/fonts/**/*.ttf"], _t(
        (0, 4, "sfnt_version", "magic"), (4, 2, "num_tables", "count"), (6, 2, "search_range", None),
        (8, 2, "entry_selector", None), (10, 2, "range_shift", None))),
    "PNG": (["/usr/share/**/*.png"], _t(
        (0, 8, "signature", "magic"), (8, 4, "len_ihdr", None), (12, 4, "ihdr", "magic"), (16, 4, "width", None),
        (20, 4, "height", None), (24, 1, "bit_depth", None), (25, 1, "color_type", None), (26, 1, "compression", None),
        (27, 1, "filter", None), (28, 1, "interlace", None))),
    "WAV": (["/usr/share/**/*.wav", "/tmp/real/wav/*"], _t(
        (0, 4, "riff", "magic"), (4, 4, "len_riff", "file_size"), (8, 4, "wave", "magic"), (12, 4, "fmt", "magic"),
        (16, 4, "len_fmt", None), (20, 2, "format_tag", None), (22, 2, "channels", None), (24, 4, "rate", None),
        (28, 4, "byte_rate", None), (32, 2, "block_align", None), (34, 2, "bits", None))),
    "GIF": ([f"{_PY}/idlelib/Icons/*.gif", "/usr/share/**/*.gif", "/tmp/real/gif/*"], _t(
        (0, 3, "magic", "magic"), (3, 3, "version", None), (6, 2, "width", None), (8, 2, "height", None),
        (10, 1, "flags", None), (11, 1, "bg_color", None), (12, 1, "aspect", None))),
    "JPEG": (["/usr/share/**/*.jpg", "/tmp/real/jpg/*"], _t(
        (0, 2, "soi", "magic"), (2, 1, "magic", "magic"), (3, 1, "marker", None), (4, 2, "len_segment", "size"))),
    "ELF": (["/usr/lib/x86_64-linux-gnu/*.so*"], _t(
        (0, 4, "magic", "magic"), (4, 1, "bits", None), (5, 1, "endian", None), (6, 1, "ei_version", None),
        (7, 1, "abi", None), (8, 1, "abi_version", None), (9, 7, "pad", None), (16, 2, "e_type", None),
        (18, 2, "machine", None), (20, 4, "e_version", None), (24, 8, "entry_point", None),
        (32, 8, "ofs_program_headers", "offset"), (40, 8, "ofs_section_headers", "offset"), (48, 4, "flags", None),
        (52, 2, "e_ehsize", None), (54, 2, "program_header_entry_size", None), (56, 2, "qty_program_header", "count"),
        (58, 2, "section_header_entry_size", None), (60, 2, "qty_section_header", "count"),
        (62, 2, "section_names_idx", None)), b"\x7fELF"),
    "ICO": (["/usr/share/**/*.ico", "/tmp/real/ico/*"], _t((0, 4, "magic", "magic"), (4, 2, "num_images", "count"))),
}


def real_files(patterns: list[str], k: int = 40) -> list[tuple[str, bytes]]:
    """Up to ``k`` distinct files matching ``patterns`` (a fixed shuffle), read in place."""
    paths = sorted({p for pat in patterns for p in glob.glob(pat, recursive=True) if os.path.isfile(p)
                    and os.path.getsize(p) > 0})
    random.Random(0).shuffle(paths)
    out, seen = [], set()
    for p in paths:
        data = Path(p).read_bytes()
        if data not in seen:
            seen.add(data)
            out.append((p, data))
        if len(out) >= k:
            break
    return out


def section_real() -> dict:
    out = {}
    for name, (patterns, truth, *keep) in REAL.items():
        # ELF: the .so files that are ELF files (not the linker scripts named .so)
        files = real_files(patterns, k=40 if not keep else 400)
        if keep:
            files = [f for f in files if f[1].startswith(keep[0])][:40]
        if len(files) < 5:
            print(f"[infer] real {name:<11} only {len(files)} distinct files on this machine: not measured")
            continue
        out[name] = row(name, measure(files, truth, name="real"))
    f1 = [m["f1"] for m in out.values()]
    if f1:
        print(f"[infer] real formats (published layouts as truth): macro F1 {sum(f1) / len(f1):.2f} over "
              f"{len(f1)} formats")
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

    d = scratch("animre-infer-speed-")
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
    tiny = scratch("animre-infer-tiny-")
    for i in range(20_000):
        (tiny / f"{i:06d}.bin").write_bytes(bytes([i % 7]) * 3)
    t = time.perf_counter()
    infer_spec(tiny)
    t_tiny = time.perf_counter() - t
    one = scratch("animre-infer-one-")
    for i in range(8):
        (one / f"{i}.bin").write_bytes(b"\xAA" * (1000 + 37 * i))
    t = time.perf_counter()
    infer_spec(one)
    t_one = time.perf_counter() - t
    print(f"[infer] hostile: 20,000 tiny files {t_tiny:.2f} s; files of one repeated byte {t_one:.2f} s")
    return {"files": 200, "mb": total / 1e6, "infer_s": dt, "read_s": t_read, "tiny_s": t_tiny, "one_byte_s": t_one}


def main() -> dict:
    with tempfile.TemporaryDirectory(prefix="animre-infer-") as tmp:  # nothing of the run stays behind
        _SCRATCH.append(Path(tmp))
        os.environ.setdefault("ANIMRE_CACHE_DIR", str(Path(tmp) / "cache"))
        try:
            return {"shipped": section_shipped(), "synthetic": section_synthetic(), "real": section_real(),
                    "guard": section_guard(),
                    "speed": section_speed()}
        finally:
            _SCRATCH.pop()


if __name__ == "__main__":
    main()
