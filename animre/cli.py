"""The ``animre`` command line.

Exit codes: 0 success, 1 some files failed (or parsers differ from specs), 2 usage error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import AnimreError, SpecError, ToolchainError, UsageError

__all__ = ["main"]


def _cmd_compile(args) -> int:
    from .compile import compile_all

    if args.check:
        differ = compile_all(check=True)
        if differ:
            print("generated parsers differ from ksy/ (run `animre compile` or `make compile`):")
            for n in differ:
                print(f"  animre/parsers/{n}")
            return 1
        print("animre/parsers/ matches ksy/")
        return 0
    written = compile_all()
    print(f"compiled {len(written)} parser(s): {', '.join(written)}")
    return 0


def _cmd_samples(args) -> int:
    from .samples import generate_all

    m = generate_all(args.out, seed=args.seed, only=args.only)
    n = sum(len(sec.get("files", {})) for sec in m["formats"].values())
    print(f"wrote {n} sample files and manifest.json to {args.out}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="animre",
        description="Research kit for reverse-engineering game animation files (Kaitai Struct + pandas).",
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    c = sub.add_parser("compile", help="compile ksy/*.ksy into animre/parsers/ with the Kaitai compiler",
                       description="Compile every ksy/*.ksy into animre/parsers/<id>.py (debug mode: "
                                   "byte positions of every field, explicit _read()).")
    c.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 and name the files if animre/parsers/ differs from ksy/")
    c.set_defaults(func=_cmd_compile)

    s = sub.add_parser("samples", help="write the generated sample corpus and its manifest",
                       description="Write realistic sample files of every format with known truth "
                                   "(manifest.json) into OUT.")
    s.add_argument("out", type=Path, help="output folder")
    s.add_argument("--seed", type=int, default=2097, help="random seed (default 2097)")
    s.add_argument("--only", nargs="*", help="only these generators (homm2, omf, gnt4, pas4, civ3)")
    s.set_defaults(func=_cmd_samples)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except UsageError as e:
        print(f"animre: usage error: {e}", file=sys.stderr)
        return 2
    except (ToolchainError, SpecError) as e:
        print(f"animre: {e}", file=sys.stderr)
        return 1
    except AnimreError as e:
        print(f"animre: {e}", file=sys.stderr)
        return 1
