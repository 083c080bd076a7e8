"""Does an inferred spec generalize? ``infer_spec`` on real formats nobody tuned it for, scored against their readers.

    .venv/bin/python benchmarks/infer_corpus.py --out /tmp/infer_corpus          # once: the files
    ANIMRE_INFER_CORPUS=/tmp/infer_corpus .venv/bin/python benchmarks/infer_general.py [--half test]
    .venv/bin/python benchmarks/infer_corpus.py --manifest benchmarks/infer_fresh.json --out /tmp/infer_fresh
    .venv/bin/python benchmarks/infer_general.py --manifest benchmarks/infer_fresh.json --corpus /tmp/infer_fresh
    .venv/bin/python benchmarks/infer_general.py --corpus /tmp/infer_corpus --half both --loo 8

The formats, their truth layouts (the fixed header as each format's reader defines it: a Kaitai
gallery spec or an engine's / tool's reader, cited in ``infer_corpus.json``) and their files are
in the manifest; the formats are split once, by a seeded shuffle recorded there, into a tuning half
(thresholds and rules may be chosen on it) and a test half (the headline; never tuned on).

Per format present: ``animre.infer_spec(files, name=format)``, then

- boundaries: precision / recall / F1 over the truth's fixed header, adjacent constant fields
  counted as one (BinaryInferno's definition), summed over the files: the scorer of
  ``animre/infer/_score.py`` (``boundary_scores``, ``inferred_fields``, ``roles_found``);
- roles: magic, file size and offset fields of the truth found at their offset (found / in truth);
- used: the truth's counts used as a ``repeat-expr`` and its sizes as a ``size:`` in the inferred
  spec (the inferred field at the truth field's offset is named in that expression);
- leave-one-out: for up to ``--loo`` files, a spec inferred from all the other files is compiled
  and parses the file left out (no ParseError);

then negative controls (random bytes, raw sound, zlib-compressed data; 10 files each from a fixed
seed) that must get no count, offset, size or length field. Per half: macro F1, the formats below
0.6, roles %, counts / sizes used % (pooled, and per format: each format weighed once, as a tracker's
31 sample lengths otherwise outweigh a dozen formats), leave-one-out %. A format that is absent from the corpus folder
is named, not measured; an error in one format is printed and scores 0, and the run goes on.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
import traceback
import zlib
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from infer_corpus import ENV, MANIFEST, load  # noqa: E402

import animre  # noqa: E402
from animre.base.errors import ParseError, UsageError  # noqa: E402
from animre.infer._score import boundary_scores, header_truth, inferred_fields, roles_found  # noqa: E402
from animre.spec.compiler import compile_spec  # noqa: E402
from animre.spec.parse import parse_bytes  # noqa: E402

HEAD = 4096  # bytes of every file the boundaries are scored on (as _score.measure does)
FOUND_ROLES = ("magic", "file_size", "offset")
STRUCT = ("file_size", "offset", "count", "size")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# ---------------------------------------------------------------- what the inferred spec says

def per_file_fields(spec, heads: list[bytes]) -> list[list[dict]]:
    """Each file's inferred header fields (its variant's too), as the scorer takes them.

    From the layout (``inferred_fields``); if the layout's shape is not the one the scorer knows,
    from the spec text itself (its fixed-size prefix, as for a truth).
    """
    try:
        lay = spec.layout
        tagpos = lay.fields[-1].offset if lay.variants else None
        return [inferred_fields(lay, h[tagpos] if tagpos is not None and tagpos < len(h) else None) for h in heads]
    except Exception:  # noqa: BLE001 - another shape of layout: read the spec instead
        fields = header_truth(spec.ksy)
        return [fields for _ in heads]


def _walk(x, out: dict) -> None:
    if isinstance(x, dict):
        for key in ("repeat-expr", "size", "pos"):
            v = x.get(key)
            if isinstance(v, str):
                out[key].update(_IDENT.findall(v))
        for v in x.values():
            _walk(v, out)
    elif isinstance(x, list):
        for v in x:
            _walk(v, out)


def used_names(ksy: str, type_name: str | None = None) -> dict[str, set[str]]:
    """The field names each of ``repeat-expr``, ``size`` and ``pos`` expressions name, anywhere in the spec (or
    only inside the type ``type_name``: a record's own fields are named there, unqualified)."""
    out: dict[str, set[str]] = {"repeat-expr": set(), "size": set(), "pos": set()}
    try:
        doc = yaml.safe_load(ksy)
    except yaml.YAMLError:
        return out
    if type_name is not None:
        doc = ((doc or {}).get("types") or {}).get(type_name)
    _walk(doc, out)
    return out


def used(truth: list[dict], inferred: list[dict], ksy: str) -> dict:
    """Counts of the truth used as ``repeat-expr`` and sizes as ``size:``: ``{"count": (used, n), "size": ...}``.

    A field of a record laid out at a constant position (``inferred_fields`` names it ``<type>.<field>``) is used
    when its type's own expressions name it (a chained frame's length: ``size: len_0x00 - 16`` inside the frame).
    """
    names = used_names(ksy)
    at = {}
    for g in inferred:
        at.setdefault(g["offset"], g.get("id"))

    def named(fid, key: str) -> bool:
        if not isinstance(fid, str):
            return False
        if "." in fid:
            tname, _, own = fid.rpartition(".")
            return own in used_names(ksy, tname)[key]
        return fid in names[key]

    out = {}
    for role, key in (("count", "repeat-expr"), ("size", "size")):
        fs = [t for t in truth if t.get("role") == role]
        out[role] = (sum(1 for t in fs if named(at.get(t["offset"]), key)), len(fs))
    return out


def structural_fields(spec) -> int:
    """Fields of a spec that claim structure: count, offset, size or file-size roles, ``len_/num_/ofs_`` names,
    or names used as ``repeat-expr`` / ``size`` / ``pos``."""
    n = 0
    try:
        n = int(spec.evidence["role"].isin(STRUCT).sum())
    except Exception:  # noqa: BLE001
        pass
    names = used_names(spec.ksy)
    try:
        doc = yaml.safe_load(spec.ksy) or {}
    except yaml.YAMLError:
        doc = {}
    ids = [f.get("id", "") for f in doc.get("seq") or [] if isinstance(f, dict)]
    for t in (doc.get("types") or {}).values():
        ids += [f.get("id", "") for f in (t or {}).get("seq") or [] if isinstance(f, dict)]
    by_name = sum(1 for i in ids if str(i).startswith(("len_", "num_", "ofs_")) or
                  i in names["repeat-expr"] | names["size"] | names["pos"])
    return max(n, by_name)


# ---------------------------------------------------------------- one format

def leave_one_out(files: list[Path], fmt: str, k: int) -> tuple[int, int, list[str]]:
    """Of up to ``k`` files (spread over the sorted list), how many a spec inferred from the others parses.

    Returns ``(parsed, tried, reasons)``. A file whose others are too few for inference (it refuses
    with a UsageError: fewer than 5 files it counts as distinct, by size and first bytes) is not tried.
    """
    if len(files) < 3 or k <= 0:
        return 0, 0, []
    m = min(k, len(files))
    idx = sorted({round(i * (len(files) - 1) / max(1, m - 1)) for i in range(m)})
    ok, n, why = 0, 0, []
    for i in idx:
        rest = files[:i] + files[i + 1:]
        try:
            spec = animre.infer_spec(rest, name=fmt, min_files=min(5, len(rest)))
        except UsageError as e:
            why.append(f"{files[i].name}: not tried: {str(e)[:120]}")
            continue
        except Exception as e:  # noqa: BLE001 - an inference that crashes parses nothing
            n += 1
            why.append(f"{files[i].name}: {type(e).__name__}: {str(e)[:120]}")
            continue
        n += 1
        try:
            mod = compile_spec(spec.ksy)
            parse_bytes(files[i].read_bytes(), mod, files[i].name)
            ok += 1
        except ParseError as e:
            why.append(f"{files[i].name}: {str(e)[:120]}")
        except Exception as e:  # noqa: BLE001 - a spec that does not infer or compile parses nothing
            why.append(f"{files[i].name}: {type(e).__name__}: {str(e)[:120]}")
    return ok, n, why


def measure_format(fmt: dict, folder: Path, loo: int) -> dict:
    files = sorted(p for p in folder.iterdir() if p.is_file())
    truth = fmt["fields"]
    t0 = time.perf_counter()
    spec = animre.infer_spec(files, name=fmt["id"])
    t_infer = time.perf_counter() - t0
    heads = [p.read_bytes()[:HEAD] for p in files]
    # the inference may have dropped files (empty, duplicate contents): score the ones it kept, in its order
    kept = getattr(spec, "files", None)
    if kept and len(kept) != len(files):
        by = {str(p): h for p, h in zip(files, heads)} | {p.name: h for p, h in zip(files, heads)}
        heads = [by[str(n)] for n in kept if str(n) in by] or heads
    per = per_file_fields(spec, heads)
    sc = boundary_scores(truth, per, heads)
    roles = roles_found(truth, per[0])
    use = used(truth, per[0], spec.ksy)
    ok, n, why = leave_one_out(files, fmt["id"], loo)
    return {"files": len(files), "f1": sc["f1"], "precision": sc["precision"], "recall": sc["recall"],
            "typed": sc["typed"], "header_bytes": sc["header_bytes"], "roles": roles, "used": use,
            "loo": (ok, n), "loo_fail": why, "infer_s": t_infer, "s": time.perf_counter() - t0}


def _ratio(a: int, b: int) -> str:
    return f"{a}/{b}" if b else "-"


def line(fid: str, fmt: dict, half: str, m: dict) -> str:
    if "error" in m:
        return f"[general] {fid:<16} {half:<6} {'game' if fmt['game'] else '':<4} ERROR {m['error']}"
    r = m["roles"]
    roles = " ".join(f"{k} {_ratio(*r[k])}" for k in ("magic", "file_size", "offset", "count", "size") if k in r)
    u = m["used"]
    n_skip = sum("not tried" in w for w in m["loo_fail"])
    skipped = f" (+{n_skip} not tried)" if n_skip else ""
    return (f"[general] {fid:<16} {half:<6} {'game' if fmt['game'] else '':<4} files {m['files']:>3}  "
            f"P {m['precision']:.2f} R {m['recall']:.2f} F1 {m['f1']:.2f} ({m['header_bytes']} B)  "
            f"roles: {roles or '-'}  used: count {_ratio(*u['count'])} size {_ratio(*u['size'])}  "
            f"loo {_ratio(*m['loo'])}{skipped}  {m['s']:.1f} s")


def summary(name: str, results: dict, formats: dict) -> dict:
    ms = {k: v for k, v in results.items() if "absent" not in v}
    absent = sorted(k for k, v in results.items() if "absent" in v)
    if absent:
        print(f"[general] {name}: {len(absent)} formats absent from the corpus folder: {', '.join(absent)}")
    if not ms:
        print(f"[general] {name}: no format present")
        return {"absent": absent}
    f1 = {k: (v.get("f1", 0.0) if "error" not in v else 0.0) for k, v in ms.items()}
    below = sorted(k for k, v in f1.items() if v < 0.6)
    good = [v for v in ms.values() if "error" not in v]
    rf = sum(v["roles"].get(r, (0, 0))[0] for v in good for r in FOUND_ROLES)
    rt = sum(v["roles"].get(r, (0, 0))[1] for v in good for r in FOUND_ROLES)
    uf = sum(v["used"][r][0] for v in good for r in ("count", "size"))
    ut = sum(v["used"][r][1] for v in good for r in ("count", "size"))
    per = [sum(v["used"][r][0] for r in ("count", "size")) / sum(v["used"][r][1] for r in ("count", "size"))
           for v in good if sum(v["used"][r][1] for r in ("count", "size"))]  # each format weighed once
    lf = sum(v["loo"][0] for v in good)
    lt = sum(v["loo"][1] for v in good) + sum(1 for v in ms.values() if "error" in v)
    game = [f1[k] for k in ms if formats[k]["game"]]
    out = {"formats": len(ms), "macro_f1": sum(f1.values()) / len(f1), "below_0_6": below,
           "roles": (rf, rt), "used": (uf, ut), "loo": (lf, lt),
           "used_per_format": sum(per) / len(per) if per else None, "errors": sorted(k for k in ms if "error" in ms[k]),
           "game_macro_f1": sum(game) / len(game) if game else None, "game_formats": len(game),
           "absent": absent}
    pct = lambda a, b: f"{a / b:.0%} ({a}/{b})" if b else "-"  # noqa: E731
    print(f"[general] {name}: {len(ms)} formats: macro F1 {out['macro_f1']:.2f} "
          f"(game formats {out['game_macro_f1'] if out['game_macro_f1'] is None else round(out['game_macro_f1'], 2)}"
          f" over {len(game)}); below 0.6: {len(below)} ({', '.join(f'{k} {f1[k]:.3f}' for k in below) or '-'}); "
          f"roles (magic, file size, offset) {pct(rf, rt)}; counts/sizes used {pct(uf, ut)}"
          + (f" (per format {sum(per) / len(per):.0%} over {len(per)})" if per else "") + "; "
          f"leave-one-out {pct(lf, lt)}" + (f"; errors: {', '.join(out['errors'])}" if out["errors"] else ""))
    return out


# ---------------------------------------------------------------- negative controls

def controls(seed: int = 2028, n: int = 10) -> dict[str, list[tuple[str, bytes]]]:
    """Random bytes, raw 16-bit sound (no header) and zlib streams: ``n`` files each, from ``seed``."""
    rng = np.random.default_rng(seed)
    rand = [(f"random_{i}.bin", rng.integers(0, 256, int(rng.integers(2_000, 40_000)), dtype=np.uint8).tobytes())
            for i in range(n)]
    sound = []
    for i in range(n):
        rate, secs = 22_050, float(rng.uniform(0.3, 1.5))
        t = np.arange(int(rate * secs)) / rate
        y = sum(rng.uniform(0.1, 0.4) * np.sin(2 * np.pi * rng.uniform(80, 2_000) * t + rng.uniform(0, 6))
                for _ in range(int(rng.integers(1, 4))))
        y = y * np.exp(-t * rng.uniform(0.2, 3)) + rng.normal(0, 0.01, t.size)
        sound.append((f"sound_{i}.raw", (np.clip(y, -1, 1) * 32_000).astype("<i2").tobytes()))
    words = [bytes(rng.integers(97, 123, int(rng.integers(2, 9)), dtype=np.uint8)) for _ in range(300)]
    comp = []
    for i in range(n):
        text = b" ".join(words[int(j)] for j in rng.integers(0, len(words), int(rng.integers(2_000, 20_000))))
        comp.append((f"deflate_{i}.z", zlib.compress(text, int(rng.integers(1, 10)))))
    return {"random": rand, "raw sound": sound, "zlib": comp}


def section_controls() -> dict:
    out = {}
    for kind, files in controls().items():
        try:
            spec = animre.infer_spec(files, name="control")
            k = structural_fields(spec)
            out[kind] = k
            print(f"[general] control {kind:<10} {len(files)} files: {k} count/offset/size/length fields"
                  f"{'' if k == 0 else '  <- must be 0'}")
        except Exception as e:  # noqa: BLE001
            out[kind] = None
            print(f"[general] control {kind:<10} ERROR {type(e).__name__}: {e}")
    return out


# ---------------------------------------------------------------- run

def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=os.environ.get(ENV),
                    help=f"the folder infer_corpus.py filled (default: ${ENV})")
    ap.add_argument("--half", choices=("tuning", "test", "both", "fresh", "all"), default=None,
                    help="both: tuning and test; all: every half of the manifest's split (default: both for a "
                         "manifest with a tuning and a test half, else all; infer_fresh.json has one, fresh)")
    ap.add_argument("--formats", help="only these formats (comma-separated ids)")
    ap.add_argument("--loo", type=int, default=8, help="files left out per format (0: no leave-one-out)")
    ap.add_argument("--no-controls", action="store_true")
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--manifest", type=Path, default=MANIFEST)
    a = ap.parse_args(argv)
    if a.corpus is None:
        ap.error(f"give --corpus DIR or set {ENV} (fill it with benchmarks/infer_corpus.py)")
    doc = load(a.manifest)
    formats = {f["id"]: f for f in doc["formats"]}
    in_split = tuple(k for k, v in doc["split"].items() if isinstance(v, list))
    half = a.half or ("both" if {"tuning", "test"} <= set(in_split) else "all")
    halves = ("tuning", "test") if half == "both" else in_split if half == "all" else (half,)
    if not set(halves) <= set(in_split):
        ap.error(f"{a.manifest} has no half {', '.join(sorted(set(halves) - set(in_split)))} (it has {in_split})")
    only = set(a.formats.split(",")) if a.formats else None
    os.environ.setdefault("ANIMRE_CACHE_DIR", tempfile.mkdtemp(prefix="animre-general-cache-"))
    print(f"[general] corpus {a.corpus}; split seed {doc['split'].get('seed', '-')}; halves: {', '.join(halves)}")
    res: dict = {"split": doc["split"], "halves": {}, "formats": {}}
    for half in halves:
        results = {}
        for fid in doc["split"][half]:
            if only and fid not in only:
                continue
            fmt, folder = formats[fid], Path(a.corpus) / fid
            if not folder.is_dir() or not any(folder.iterdir()):
                results[fid] = {"absent": True}
                print(f"[general] {fid:<16} {half:<6} absent: no folder {folder} (run benchmarks/infer_corpus.py)")
                continue
            try:
                m = measure_format(fmt, folder, a.loo)
            except Exception as e:  # noqa: BLE001 - one format never stops the run
                m = {"error": f"{type(e).__name__}: {str(e)[:200]}",
                     "where": traceback.format_exc(limit=-3).strip().splitlines()[-3:]}
            results[fid] = m
            print(line(fid, fmt, half, m), flush=True)
        res["formats"].update(results)
        res["halves"][half] = summary(half, results, formats)
    if not a.no_controls:
        res["controls"] = section_controls()
    if a.json:
        a.json.write_text(json.dumps(res, indent=1, default=str) + "\n")
    return res


if __name__ == "__main__":
    main()
