"""Every spec of a checked-out Kaitai format gallery through animre: registry, compile, plan, parse.

For each ``.ksy`` under GALLERY (the public ``kaitai_struct_formats``, or any
folder of specs): the registry takes it as a user's spec, the spec is
compiled, and a few byte patterns (zeros, random bytes, 0xFF) are parsed and
tabulated with it. Such bytes are rarely a valid file, so a ``ParseError``
(file, field path, offset) is the expected outcome; anything else is a bug
of the kit (or of the compiler's Python output) and is printed with its
traceback. A spec that cannot be a format of its own (root ``params``) is
skipped with the registry's warning; a ``SpecError`` is listed, not counted.
Exit status 1 when any spec crashed.

    .venv/bin/python benchmarks/gallery_sweep.py GALLERY [NAME_PART ...]
"""

from __future__ import annotations

import random
import sys
import traceback
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from animre.base.errors import ParseError, SpecError  # noqa: E402
from animre.formats import registry  # noqa: E402
from animre.spec.source import read_spec  # noqa: E402
from animre.tables.read import read_tables  # noqa: E402


def patterns() -> list[bytes]:
    rng = random.Random(1)
    return [bytes(64), bytes(4096), bytes(rng.randrange(256) for _ in range(4096)), b"\xff" * 300]


def sweep(gallery: Path, only: list[str]) -> int:
    specs = sorted(p for p in gallery.rglob("*.ksy") if "_build" not in p.parts)
    if only:
        specs = [p for p in specs if any(a in str(p) for a in only)]
    crashed = spec_errors = 0
    for p in specs:
        name = p.relative_to(gallery)
        try:
            with warnings.catch_warnings(record=True) as said:
                warnings.simplefilter("always")
                fmt = registry(specs=[p], env=False).get(read_spec(p).id)
            for w in said:
                print(f"skipped  {name}: {w.message}")
        except SpecError as e:
            spec_errors += 1
            print(f"spec     {name}: {str(e)[:200]}")
            continue
        if fmt is None:
            continue  # only imported by others (no seq, or parameters)
        for data in patterns():
            try:
                read_tables(data, "x.bin", fmt, None, instance_errors=[])
            except ParseError:
                pass
            except SpecError as e:
                spec_errors += 1
                print(f"spec     {name}: {str(e)[:200]}")
                break
            except Exception as e:  # noqa: BLE001 - what the sweep is for
                crashed += 1
                print(f"CRASH    {name} ({len(data)} bytes): {type(e).__name__}: {str(e)[:300]}")
                traceback.print_exc(limit=-3)
                break
    print(f"{len(specs)} specs: {crashed} crashed, {spec_errors} spec errors")
    return 1 if crashed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    raise SystemExit(sweep(Path(sys.argv[1]), sys.argv[2:]))
