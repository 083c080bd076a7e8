"""What the Kaitai debug parser costs: the same spec compiled the ordinary way against the kit's debug parse.

For every shipped format, over its loose sample files (and the real files of
``../shared/realdata`` for FLC and OMF when present), best of ``--repeat``:

- ``plain``: the ordinary parser (compiled by the same pinned compiler without
  debug mode): the constructor reads the ``seq``;
- ``plain+inst``: the same, then every instance read (what the kit's parse
  reads too: positional instances, and value instances for their errors);
- ``debug seq``: the debug parser's ``_read()`` alone (against ``plain``);
- ``debug``: the kit's parse (:func:`animre.spec.parse.parse_bytes`: debug
  parser, ``_read()``, positional instances, failing value instances);
- ``tables``: the kit's bytes-to-tables of one file (parse, flatten every
  table with every cell's byte range: :func:`animre.tables.read.read_tables`).

Ratios are against ``plain+inst`` measured in the same run, file by file in
turn. The cyclic garbage collector is paused during every timing and run
between them (the kit's parse pauses it per file and collects once after the
file: :func:`animre.tables.read.read_tables`); with it running, the variants'
ratios measure the collector's passes over their trees. Prints one line per
format and the totals.

    .venv/bin/python benchmarks/debug_cost.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import gc
import io
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kaitaistruct import KaitaiStream  # noqa: E402
from run import REALDATA, ROOT, best  # noqa: E402 - the timing rule and the real files of every benchmark
from spec_outcomes import ordinary, read_all  # noqa: E402

from animre.formats import all_formats, detect_format  # noqa: E402
from animre.sources import HEAD  # noqa: E402
from animre.spec.compiler import KSY_DIR, load_parser  # noqa: E402
from animre.spec.parse import parse_bytes  # noqa: E402
from animre.tables.read import read_tables  # noqa: E402


def _files(fmt: str) -> list[tuple[str, bytes]]:
    """Loose files of ``fmt`` among the samples and the real files, detected as the kit detects them."""
    out = []
    for base in (ROOT / "data" / "samples", REALDATA):
        if not base.is_dir():
            continue
        for p in sorted(base.rglob("*")):
            if not p.is_file() or p.suffix.lower() in (".md", ".json"):
                continue
            data = p.read_bytes()
            got, _ = detect_format(data[:HEAD], len(data), p.name)
            if got is not None and got.name == fmt and got.locate is None:
                out.append((str(p), data))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    formats = all_formats()
    print(f"{'format':8} {'files':>5} {'MB':>6} {'plain':>8} {'debug seq':>9} {'plain+inst':>10} {'debug':>8} "
          f"{'tables':>8} {'seq/plain':>9} {'debug/plain+inst':>16} {'tables/plain+inst':>17}")
    total = {"plain": 0.0, "dseq": 0.0, "inst": 0.0, "debug": 0.0, "tables": 0.0}
    for name, fmt in sorted(formats.items()):
        files = _files(name)
        if not files:
            continue
        cls = ordinary(KSY_DIR / f"{fmt.spec}.ksy")
        debug_mod = load_parser(fmt.spec)
        ok = []
        for f, data in files:  # only files the ordinary parser reads whole (the others end in errors either way)
            try:
                read_all(cls(KaitaiStream(io.BytesIO(data))))
                parse_bytes(data, debug_mod, f)
                ok.append((f, data))
            except Exception:  # noqa: BLE001 - a file that fails is left out of the timing
                continue
        if not ok:
            continue

        def plain(ok=ok, cls=cls):
            for _, data in ok:
                cls(KaitaiStream(io.BytesIO(data)))

        def inst(ok=ok, cls=cls):
            for _, data in ok:
                read_all(cls(KaitaiStream(io.BytesIO(data))))

        def debug_seq(ok=ok, mod=debug_mod):
            for f, data in ok:
                parse_bytes(data, mod, f, fetch_instances=False)

        def debug(ok=ok, mod=debug_mod):
            for f, data in ok:
                parse_bytes(data, mod, f)

        def tables(ok=ok, fmt=fmt):
            for f, data in ok:
                read_tables(data, f, fmt)

        t = {k: _paused(fn, args.repeat) for k, fn in
             (("plain", plain), ("dseq", debug_seq), ("inst", inst), ("debug", debug), ("tables", tables))}
        for k in total:
            total[k] += t[k]
        mb = sum(len(d) for _, d in ok) / 1e6
        _line(name, f"{len(ok):5d} {mb:6.2f}", t)
    _line("all", f"{'':5} {'':6}", total)
    return 0


def _paused(fn, repeat: int) -> float:
    """Best of ``repeat`` timings of ``fn`` with the garbage collector paused (and run before each)."""
    was = gc.isenabled()
    gc.disable()
    try:
        times = []
        for _ in range(repeat):
            gc.collect()
            times.append(best(fn, 1))
        return min(times)
    finally:
        if was:
            gc.enable()


def _line(name: str, size: str, t: dict) -> None:
    print(f"{name:8} {size} {t['plain']:8.3f} {t['dseq']:9.3f} {t['inst']:10.3f} {t['debug']:8.3f} "
          f"{t['tables']:8.3f} {t['dseq'] / t['plain']:8.2f}x {t['debug'] / t['inst']:15.2f}x "
          f"{t['tables'] / t['inst']:16.2f}x")


if __name__ == "__main__":
    raise SystemExit(main())
