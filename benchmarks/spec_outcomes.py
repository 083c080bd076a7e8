"""Does animre read a folder with a spec exactly as the spec compiled the ordinary way reads it?

For one spec and one folder: the spec is compiled a second time by the same
pinned compiler without debug mode (the ordinary Python parser a Kaitai user
gets), every file is parsed with it and every instance of the tree is read;
the outcome (parses / an instance fails / fails) must equal animre's (parsed /
parsed with an instance error row / failed or not detected); files detection
does not give to the spec although the ordinary parser reads them (an empty
archive member, for a spec whose magic starts a ``repeat: eos``) are listed
with their ``reason``, apart. Then every
scalar cell of every table is compared with the ordinary parser's value at
the cell's field path, and the cell's byte range is checked to lie inside the
file. Prints one line per spec; exit 1 on any difference.

    .venv/bin/python benchmarks/spec_outcomes.py SPEC.ksy FOLDER [SPEC FOLDER ...]
"""

from __future__ import annotations

import enum
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import animre  # noqa: E402
from animre.spec import source as specsource  # noqa: E402
from animre.spec.compiler import load_files, run_compiler  # noqa: E402
from animre.spec.parse import main_class  # noqa: E402

_STEP = re.compile(r"([^.\[\]]+)(?:\[(\d+)\])?")


def ordinary(spec: Path):
    src = specsource.read_spec(spec)
    res = run_compiler({src.id: src.text, **src.import_texts}, [src.id], list(src.dirs), debug=False)[src.id]
    if "error" in res:
        raise SystemExit(f"{spec}: {res['error']}")
    return main_class(load_files(res["files"], src.id, "ordinary"))  # nothing left on disk


def read_all(obj, seen=None, depth=0) -> None:
    """Read every instance of a parsed tree (properties), raising what the parser raises."""
    from kaitaistruct import KaitaiStruct

    seen = seen if seen is not None else set()
    if id(obj) in seen or depth > 40:
        return
    seen.add(id(obj))
    for klass in type(obj).__mro__:
        for name, v in vars(klass).items():
            if isinstance(v, property) and not name.startswith("_"):
                val = getattr(obj, name)
                _walk(val, seen, depth)
    for name, val in list(vars(obj).items()):
        if not name.startswith("_"):
            _walk(val, seen, depth)
    del KaitaiStruct


def _walk(val, seen, depth) -> None:
    from kaitaistruct import KaitaiStruct

    if isinstance(val, KaitaiStruct):
        read_all(val, seen, depth + 1)
    elif isinstance(val, list):
        for x in val:
            if isinstance(x, KaitaiStruct):
                read_all(x, seen, depth + 1)


def outcome(cls, data: bytes):
    try:
        obj = cls.from_bytes(data)
    except Exception:  # noqa: BLE001
        return "fails", None
    try:
        read_all(obj)
    except Exception:  # noqa: BLE001
        return "instance fails", obj
    return "parses", obj


def value_at(obj, path: str):
    cur = obj
    for name, idx in _STEP.findall(path):
        cur = getattr(cur, name)
        if idx:
            cur = cur[int(idx)]
    return cur.value if isinstance(cur, enum.Enum) else cur


def main(argv: list[str]) -> int:
    if len(argv) < 2 or len(argv) % 2:
        print(__doc__)
        return 2
    bad = 0
    for spec, folder in zip(argv[::2], argv[1::2]):
        spec, folder = Path(spec), Path(folder)
        cls = ordinary(spec)
        c = animre.open_corpus(folder, specs=[spec], formats=[specsource.read_spec(spec).id], cache=False)
        sid = specsource.read_spec(spec).id
        files = c.files.set_index("file")
        errs = set(c.errors["file"])
        diffs, objs, unclaimed = [], {}, []
        for name, row in files.iterrows():
            data = c.read_bytes(name)
            want, obj = outcome(cls, data)
            objs[name] = (obj, len(data))
            if row["format"] != sid:
                got = "fails"  # never given to the spec (its magic, its extension or a plausible parse decide)
                if want != "fails":  # detection declined what the ordinary parser reads: listed, with the reason
                    unclaimed.append(f"{name}: not given to the spec ({row.get('reason')}); ordinary {want}")
                    continue
            elif row["status"] == "failed":
                got = "fails"
            else:
                got = "instance fails" if name in errs else "parses"
            if got != want:
                diffs.append(f"{name}: animre {got}, ordinary {want}")
        cells = wrong = outside = 0
        root = c.tables.get(sid)
        if root is not None:
            for col in root.columns:
                if col == "file" or col.endswith("_name") or col.startswith("~"):
                    continue
                for i, (f, v) in enumerate(zip(root["file"], root[col])):
                    obj, size = objs.get(f, (None, 0))
                    if obj is None or isinstance(v, list):
                        continue
                    try:
                        ref = value_at(obj, col)
                    except Exception:  # noqa: BLE001 - the ordinary parser has no value there either
                        continue
                    if hasattr(ref, "_io"):  # a value instance that is a whole object: no cell holds it
                        continue
                    cells += 1
                    if ref != v and not (isinstance(ref, float) and ref != ref and v != v):
                        wrong += 1
                        if wrong <= 3:
                            diffs.append(f"{f}: {col} = {v!r}, ordinary {ref!r}")
                    s, e = c.spans[sid][0].at[i, col], c.spans[sid][1].at[i, col]
                    if s is not None and str(s) != "<NA>" and not (0 <= int(s) <= int(e) <= size):
                        outside += 1
        bad += bool(diffs) + bool(outside)
        print(f"{spec.name} on {folder}: {len(files)} files, outcomes {'equal' if not diffs else 'DIFFER'}; "
              f"{cells} root cells compared, {wrong} differ, {outside} byte ranges outside the file"
              + (f"; {len(unclaimed)} files the ordinary parser reads were not claimed by detection"
                 if unclaimed else ""))
        for d in diffs[:10] + unclaimed[:5]:
            print("   ", d)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
