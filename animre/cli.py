"""The ``animre`` command line.

Exit codes: 0 success, 1 some recognised files (or containers) failed to parse (or parsers
differ from specs), 2 usage error. Files no format recognises are listed as skipped, not failed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .base.errors import AnimreError, SpecError, ToolchainError, UsageError
from .folders import check_outside
from .spec.compiler import KSY_DIR

__all__ = ["main"]


def _cmd_compile(args) -> int:
    from .spec.compiler import compile_all

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


EXPORT_TYPES = ("csv", "md", "parquet", "xlsx", "json")


def _format_ids(args) -> list[str] | None:
    """The ``--format`` ids (repeatable, or comma lists); export's legacy output types are left out."""
    ids = [x.strip() for v in (getattr(args, "format", None) or []) for x in v.split(",") if x.strip()]
    ids = [x for x in ids if not (args.command == "export" and x in EXPORT_TYPES)]
    return ids or None


def _open(args):
    from .corpus import open_corpus

    progress = None if not args.quiet else False
    cache = False if args.no_cache else True
    return open_corpus(args.dir, specs=args.spec or None, formats=_format_ids(args), cache=cache,
                       progress=progress)


def _print_df(df, limit: int | None = None) -> None:
    import pandas as pd

    from .base.display import fmt

    if limit is not None and len(df) > limit:
        df = df.head(limit)
    shown = df.copy()
    for c in shown.columns:  # lists, bytes, numpy scalars and floats as the one formatter writes them
        if shown[c].dtype == object or pd.api.types.is_float_dtype(shown[c].dtype):
            shown[c] = [fmt(v) for v in shown[c]]
    with pd.option_context("display.max_rows", limit or 200, "display.max_columns", 50,
                           "display.width", 200, "display.max_colwidth", 60):
        print(shown.to_string(index=False))


def _status(corpus) -> int:
    return 1 if len(corpus.errors) else 0


def _cmd_scan(args) -> int:
    c = _open(args)
    f = c.files
    st = f["status"].value_counts()
    print(f"{len(f)} files, {int(st.get('parsed', 0))} parsed, {len(c.errors)} failed, "
          f"{int(st.get('skipped', 0))} skipped (not recognised), {int(f['kind'].notna().sum())} containers")
    what = f["format"].fillna(f["kind"]).fillna("(unknown)")
    summary = f.assign(format=what, parsed=f["status"] == "parsed").groupby("format").agg(
        files=("file", "size"), parsed=("parsed", "sum"), bytes=("size", "sum")).reset_index()
    _print_df(summary)
    tables = [(t, len(df)) for t, df in c.tables.items() if t != "files"]
    if tables:
        print("tables: " + ", ".join(f"{t} ({n} rows)" for t, n in tables))
    if len(c.errors):
        print("errors:")
        _print_df(c.errors[["file", "path", "offset", "message"]], limit=args.limit)
    skipped = f[f["status"] == "skipped"]
    if len(skipped):
        print("skipped (why no format reads them):")
        _print_df(skipped[["file", "reason"]], limit=args.limit)
    return _status(c)


def _cmd_profile(args) -> int:
    from .research import profile

    c = _open(args)
    if args.table not in c.tables:
        raise UsageError(f"no table {args.table!r}; tables: {', '.join(c.tables)}")
    p = profile(c, args.table)
    cols = [k for k in ("column", "dtype", "n_distinct", "is_constant", "min", "max", "alerts") if k in p]
    _print_df(p[cols])
    return _status(c)


def _cmd_claims(args) -> int:
    from .research import claims

    c = _open(args)
    r = claims(c)
    cols = [k for k in ("format", "claim", "holds", "tested", "source") if k in r]
    _print_df(r[cols])
    return _status(c)


def _cmd_coverage(args) -> int:
    from .research import coverage

    c = _open(args)
    cov = coverage(c)
    per_file, gaps = cov.per_file, cov.gaps
    _print_df(per_file)
    if len(gaps):
        print(f"{len(gaps)} unclaimed byte ranges:")
        _print_df(gaps, limit=args.limit)
    return _status(c)


def _cmd_export(args) -> int:
    from .export import export

    check_outside(args.out, args.dir)
    c = _open(args)
    legacy = [x.strip() for v in (args.format or []) for x in v.split(",") if x.strip() in EXPORT_TYPES]
    formats = tuple(x.strip() for x in (args.to or ",".join(legacy) or "csv,md").split(",") if x.strip())
    tables = {t: df for t, df in c.tables.items() if not args.table or t in args.table}
    tables["errors"] = c.errors
    written = export(tables, args.out, formats=formats, corpus=c)
    print(f"wrote {len(written)} files to {args.out}")
    return _status(c)


def _cmd_report(args) -> int:
    # imported here, not at the top: the command line's start-up time
    from .present.report import write_report

    check_outside(args.out, args.dir)
    c = _open(args)
    path = write_report(c, args.out, title=args.title)
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB): files, errors, coverage, profiles, claims, "
          "relations, pictures")
    return _status(c)


def _cmd_suggest(args) -> int:
    from .base.atomic import write_atomic
    from .export.adopt import apply_suggestions
    from .research import suggest
    from .spec.patch import suggest_patch

    check_outside(args.out, args.dir)
    if args.apply and args.ksy is not None:
        check_outside(args.ksy, args.dir)
    c = _open(args)
    tables = None
    wanted = _format_ids(args)
    if wanted:
        tables = [t for t in c.tables if t != "files" and any(t == f or t.startswith(f + "_") for f in wanted)]
        if not tables:
            raise UsageError(f"no table of format {', '.join(wanted)} in {args.dir}")
    s = suggest(c, tables=tables, min_files=args.min_files)
    why = s.attrs.get("why") if not len(s) else None
    print(f"{len(s)} suggestion(s)" + (f": {why}" if why else
                                       f" (a valid/enum/flags needs >= {args.min_files} independent files)"))
    if len(s):
        _print_df(s[["spec", "type", "field", "kind", "suggestion", "evidence"]], limit=args.limit)
    def spec_path(spec: str) -> Path:
        fmt = c.formats.get(spec)
        if args.ksy is None and fmt is not None and fmt.source is not None and fmt.source.path is not None:
            return fmt.source.path  # the spec the corpus was read with (yours, or ksy/)
        path = (args.ksy or KSY_DIR) / f"{spec}.ksy"
        if not path.is_file():
            raise UsageError(f"no spec {path} (--ksy names the folder of the specs)")
        return path

    paths = {spec: spec_path(spec) for spec in dict.fromkeys(s["spec"])}
    if args.apply:  # the specs --apply writes: never inside DIR either
        for p in paths.values():
            check_outside(p, args.dir)
    patch = "".join(suggest_patch(s, p) for p in paths.values())
    out = args.out / "suggestions.patch"
    write_atomic(out, patch.encode("utf-8"))
    print(f"wrote the patch ({patch.count(chr(10))} lines) to {out}")
    status = _status(c)
    if args.apply:
        for spec in paths:
            r = apply_suggestions(s, paths[spec], c)
            for w in r.withdrawn.itertuples(index=False):
                print(f"{spec}.ksy: withdrawn {w.type}.{w.field}: {w.reason}")
            if r.problems:
                print(f"{spec}.ksy: not written: {'; '.join(r.problems)}")
                status = 1
            elif r.written is not None:
                print(f"{spec}.ksy: {len(r.adopted)} edit(s) written to {r.written}; every file still parses")
        print("run `animre compile` to regenerate the parsers from the patched specs")
    return status


def _cmd_infer(args) -> int:
    from .infer import infer_spec, leave_one_out, spec_id_of

    out = check_outside(args.out or Path(f"{args.format_name or 'unknown'}.ksy"), args.dir)
    if sys.stderr.isatty() and not args.quiet:
        print(f"inferring a spec from the files in {args.dir} ...", file=sys.stderr)
    name = args.format_name or spec_id_of(out)  # meta/id: --format-name, else the output's name
    spec = infer_spec(args.dir, name=name, min_files=args.min_files)
    spec.save(out)
    roles = spec.roles()
    found = ", ".join(f"{k} {roles[k]}" for k in ("magic", "file_size", "offset", "count", "size", "string",
                                                  "float") if k in roles) or "no structure"
    print(f"inferred {out} (meta/id {name}) from {len(spec.files)} files: {found}")
    if args.holdout:
        loo = leave_one_out(args.dir, trials=args.holdout, min_files=args.min_files)
        if len(loo):
            print(f"leave-one-out: a spec inferred without the file parses it in {int(loo['parses'].sum())}/"
                  f"{len(loo)} trials" + "".join(f"\n    {r.file}: {r.error}" for r in loo.itertuples()
                                                if not r.parses))
        else:
            print(f"leave-one-out: not tried (needs more than {args.min_files} files)")
    if args.evidence:
        _print_df(spec.evidence[["type", "field", "offset", "width", "kind", "role", "evidence"]], limit=args.limit)
    return 0


def _cmd_demo(args) -> int:
    from .demo import run_demo

    written = run_demo(args.out, real=args.real)
    print(f"executed the notebooks; wrote {len(written)} files to {args.out}")
    return 0


def _shipped_ids() -> str:
    from .formats import all_formats

    return ", ".join(all_formats())


def _generators() -> list[str]:
    from .samples import generator_names

    return generator_names()


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
    s.add_argument("--only", nargs="*", help=f"only these generators ({', '.join(_generators())})")
    s.set_defaults(func=_cmd_samples)

    def corpus_cmd(name, help, func, desc):
        q = sub.add_parser(name, help=help, description=desc)
        q.add_argument("dir", type=Path, help="folder of game files (sub-folders are scanned)")
        q.add_argument("--no-cache", action="store_true", help="parse everything again, ignore the cache")
        q.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
        q.add_argument("--limit", type=int, default=50, help="rows of long listings to print (default 50)")
        q.add_argument("--spec", action="append", metavar="PATH",
                       help="your own .ksy file or folder of them (repeatable; also $ANIMRE_SPECS)")
        q.add_argument("--format", "-f", action="append", metavar="ID",
                       help=f"only these formats (repeatable or a comma list; shipped: {_shipped_ids()})")
        q.set_defaults(func=func)
        return q

    corpus_cmd("scan", "files per format and the errors", _cmd_scan,
               "Open DIR, detect and parse every file; print files per format, tables and errors. "
               "Containers (zip archives, game archives, disc images) are opened and their members scanned like files. "
               "Exit 1 when some recognised file failed to parse; unrecognised files are skipped.")
    q = corpus_cmd("profile", "profile every column of one table", _cmd_profile,
                   "Profile every column of table T (constant, distinct values, bits, alerts).")
    q.add_argument("--table", "-t", required=True, help="table name (animre scan DIR lists the tables)")
    corpus_cmd("claims", "check the format notes' claims on every file", _cmd_claims,
               "Run every format note's claim as a check: holds in n of m, with counterexamples.")
    corpus_cmd("coverage", "bytes no field describes", _cmd_coverage,
               "Per file the share of bytes that some field describes, and every unclaimed byte range.")
    q = corpus_cmd("export", "write the tables as csv, md, parquet, xlsx, json", _cmd_export,
                   "Export the corpus tables (and errors) to OUT, written atomically.")
    q.add_argument("--out", "-o", type=Path, required=True, help="output folder")
    q.add_argument("--to", default=None, help="comma list of csv,md,parquet,xlsx,json (default csv,md; "
                                              "also accepted as --format for older scripts)")
    q.add_argument("--table", nargs="*", help="only these tables")
    q = corpus_cmd("report", "one self-contained HTML report to share", _cmd_report,
                   "Write one HTML file (no network needed: pictures and CSS inline) with the files, errors, "
                   "coverage, per-table profiles with alerts, claims, top relations and pictures of DIR.")
    q.add_argument("--out", "-o", type=Path, default=Path("report.html"), help="HTML file (default report.html)")
    q.add_argument("--title", default=None, help="title of the report (default: the folder name)")
    q = corpus_cmd("suggest", "spec edits the corpus supports, as a .ksy patch", _cmd_suggest,
                   "Suggest spec edits (valid, enum, flag bits, counts, names, doc lines) with their "
                   "evidence; write them as a unified diff of the specs to OUT/suggestions.patch. "
                   "With --apply, prove them on DIR (compile, re-parse, diff) and write the specs.")
    q.add_argument("--min-files", type=int, default=5,
                   help="independent files (distinct contents) a suggestion needs (default 5)")
    q.add_argument("--apply", action="store_true",
                   help="patch the specs in --ksy after proving the patch on DIR (withdraws what breaks a file)")
    q.add_argument("--ksy", type=Path, default=None,
                   help="folder of the specs to patch (default: the spec each format was read with)")
    q.add_argument("--out", "-o", type=Path, default=Path("out") / "suggest",
                   help="folder for suggestions.patch (default out/suggest)")
    q = sub.add_parser("infer", help="infer a first .ksy spec from many files of an unknown format",
                       description="Infer a first Kaitai spec (magic, file size, offsets, counts x strides, "
                                   "strings, floats, variants) from the files in DIR and write it to -o; every "
                                   "field's doc states its evidence. DIR is only read.")
    q.add_argument("dir", type=Path, help="folder of files of one format")
    q.add_argument("--out", "-o", type=Path, default=None, help="spec to write (default FORMAT_NAME.ksy)")
    q.add_argument("--format-name", default=None, help="the spec id (default: the output's name, -o NAME.ksy)")
    q.add_argument("--min-files", type=int, default=5, help="independent files needed (default 5)")
    q.add_argument("--evidence", action="store_true", help="print the evidence of every field")
    q.add_argument("--holdout", type=int, default=5,
                   help="leave-one-out trials: infer without a file, parse it with that spec (default 5; 0: none)")
    q.add_argument("--quiet", "-q", action="store_true", help="no progress line")
    q.add_argument("--limit", type=int, default=200, help="rows of the evidence to print (default 200)")
    q.set_defaults(func=_cmd_infer)
    d = sub.add_parser("demo", help="run every notebook headless, write findings to OUT",
                       description="Execute every notebook on the sample corpus; write executed "
                                   "notebooks and exported findings to OUT.")
    d.add_argument("--out", type=Path, default=Path("out"), help="output folder (default out/)")
    d.add_argument("--real", type=Path, default=None,
                   help="folder of real game files for the notebooks that show real files "
                        "(a folder per notebook that shows real files); default: the samples only")
    d.set_defaults(func=_cmd_demo)
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
