"""Sample corpora with known truth.

Every shipped format has a generator in its folder (``animre/formats/<id>/samples``; a
container of its files: ``<container>_samples`` beside it), found here by name, with its own
byte-level writer (``struct`` / numpy, never the Kaitai parsers); :mod:`.synthetic` (an unknown
format for inference) is the one generator here. ``generate(out_dir, seed)``
writes realistic files under ``out_dir/<subdir>/`` and returns a manifest
section: every value it wrote per file and the regularities it planted.
:func:`generate_all` writes all of them plus ``manifest.json``.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import pkgutil
import zlib
from pathlib import Path

import numpy as np

from ..base.dirs import check_outside
from ..base.errors import UsageError

__all__ = ["MANIFEST", "check_sample_target", "generate_all", "generator_names", "generators", "load_manifest",
           "planted_files",
           "seed_for", "to_jsonable"]


FORMATS_PACKAGE = "animre.formats"  #: where the shipped formats' folders are (found by name, never imported here)


@functools.cache
def generators() -> dict[str, str]:
    """Every sample generator: section name -> module (a format's ``samples``, a container's ``<id>_samples``).

    Examples
    --------
    >>> g = generators()
    >>> g["synthetic"], g["frm"], g["pak"]
    ('animre.samples.synthetic', 'animre.formats.frm.samples', 'animre.formats.pas4.pak_samples')
    """
    out = {"synthetic": f"{__name__}.synthetic"}
    root = Path(importlib.util.find_spec(FORMATS_PACKAGE).submodule_search_locations[0])
    for folder in sorted(p for p in root.iterdir() if (p / "__init__.py").is_file()):
        for m in pkgutil.iter_modules([str(folder)]):
            if m.name == "samples":
                out[folder.name] = f"{FORMATS_PACKAGE}.{folder.name}.samples"
            elif m.name.endswith("_samples"):
                out[m.name[: -len("_samples")]] = f"{FORMATS_PACKAGE}.{folder.name}.{m.name}"
    return dict(sorted(out.items()))


def _module(name: str):
    return importlib.import_module(generators()[name])


def generator_names() -> list[str]:
    """Names of the sample generators, each after the ones it ``USES``.

    A generator that packs other samples into a container (a PAK, a disc
    image) lists their generators in ``USES`` and reads their files.

    Examples
    --------
    >>> names = generator_names()
    >>> names.index("pas4") < names.index("pak") < names.index("gcdisc")
    True
    """
    done: list[str] = []

    def visit(n: str) -> None:
        if n not in done:
            for u in getattr(_module(n), "USES", ()):
                visit(u)
            done.append(n)

    for n in generators():
        visit(n)
    return done


def _with_uses(only: list[str]) -> set[str]:
    need: set[str] = set()
    todo = list(only)
    while todo:
        n = todo.pop()
        if n not in need:
            need.add(n)
            todo += getattr(_module(n), "USES", ())
    return need


def to_jsonable(v):
    """Convert numpy scalars/arrays and bytes to JSON-friendly values (bytes -> hex string)."""
    if isinstance(v, dict):
        return {str(k): to_jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [to_jsonable(x) for x in v]
    if isinstance(v, np.ndarray):
        return to_jsonable(v.tolist())
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    return v


def seed_for(seed: int, name: str) -> int:
    """The seed a generator gets: stable whatever other generators exist."""
    return (seed * 1_000_003 + zlib.crc32(name.encode())) % (2**32)


MANIFEST = "manifest.json"


def check_sample_target(folder: str | Path) -> Path:
    """Refuse a folder that holds other files (a user's game folder) as the target of samples.

    Samples go into an empty (or new) folder, or over an earlier sample
    corpus (a folder with the ``manifest.json`` the generator writes), never
    into a folder inside a sample corpus (the kit reads those).

    Examples
    --------
    >>> import tempfile
    >>> check_sample_target(tempfile.mkdtemp()).is_dir()
    True
    """
    f = Path(folder)
    if f.exists() and not f.is_dir():
        raise UsageError(f"{folder}: not a folder; samples are written into a folder")
    check_outside(f, *(p for p in f.expanduser().resolve().parents if (p / MANIFEST).is_file()))
    if f.is_dir() and not (f / MANIFEST).is_file() and any(f.iterdir()):
        raise UsageError(f"{folder} holds files and no {MANIFEST}: samples are generated only into an empty "
                         "folder or an earlier sample folder (the kit's own data/samples), never among "
                         "a user's files")
    return f


def generate_all(out_dir: str | Path, seed: int = 2097, only: list[str] | None = None) -> dict:
    """Write every format's sample corpus and ``manifest.json`` into ``out_dir``.

    ``out_dir`` must be empty, new, or an earlier sample folder
    (:func:`check_sample_target`): samples never land among a user's files.

    Examples
    --------
    >>> import tempfile
    >>> m = generate_all(tempfile.mkdtemp(), seed=1)
    >>> sorted(m["formats"])
    ['agg', 'flc', 'frm', 'gcdisc', 'icn', 'mot', 'omf', 'pak', 'pas4', 'synthetic', 'zip']
    """
    out = check_sample_target(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    manifest = {"seed": seed, "formats": {}}
    need = _with_uses(only) if only else None
    for name in generator_names():
        if need is not None and name not in need:
            continue
        mod = _module(name)
        manifest["formats"][name] = to_jsonable(mod.generate(out, seed_for(seed, name)))
    tmp = out / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=1, sort_keys=True))
    tmp.replace(out / MANIFEST)
    return manifest


def load_manifest(out_dir: str | Path) -> dict:
    """Read ``manifest.json`` written by :func:`generate_all`."""
    return json.loads((Path(out_dir) / MANIFEST).read_text())


def planted_files(manifest: dict, fmt: str) -> dict[str, dict]:
    """Every file of format ``fmt`` in a sample corpus with its planted values, by corpus name.

    The format's own section, plus the archive members and loose copies that
    other sections list (an entry with ``format`` = ``fmt`` and its values
    under the key ``fmt``): e.g. the FRM files inside the generated AGG.

    Examples
    --------
    >>> m = {"formats": {"frm": {"files": {"frm/A.BIN": {"x": 1}}},
    ...                  "agg": {"files": {"agg/H.AGG/B.BIN": {"format": "frm", "frm": {"x": 2}},
    ...                                    "agg/H.AGG": {"format": "agg"}}},
    ...                  "disc": {"files": {"d.iso/A.BIN": {"format": "frm", "loose": "frm/A.BIN"}}}}}
    >>> sorted(planted_files(m, "frm"))
    ['agg/H.AGG/B.BIN', 'd.iso/A.BIN', 'frm/A.BIN']
    """
    own = manifest["formats"].get(fmt, {}).get("files", {})
    out = dict(own)
    for name, section in manifest["formats"].items():
        if name == fmt:
            continue
        for f, v in section.get("files", {}).items():
            if v.get("format") != fmt:
                continue
            if isinstance(v.get(fmt), dict):
                out[f] = v[fmt]
            elif v.get("loose") in own:  # the same bytes as a loose file of the format (a disc member)
                out[f] = own[v["loose"]]
    return out
