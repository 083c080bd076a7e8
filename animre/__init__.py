"""animre: a Jupyter research kit for reverse-engineering game animation files.

Kaitai Struct specs (``ksy/``, yours, or the public gallery's) compiled into
Python parsers, every parsed file flattened into pandas tables, and research
functions that compare values across all files of a corpus.

The top level holds the corpus, the errors and the research verbs; every
other name lives in its subpackage: :mod:`animre.spec` (compile, parse, the
spec model), :mod:`animre.tables`, :mod:`animre.corpus`,
:mod:`animre.formats`, :mod:`animre.decode`, :mod:`animre.research`,
:mod:`animre.export`, :mod:`animre.infer`, and the presentation layer.

Examples
--------
>>> import animre
>>> c = animre.open_corpus("data/samples")          # doctest: +SKIP
>>> animre.profile(c.tables["af_moves"])             # doctest: +SKIP
>>> animre.claims(c)                                 # doctest: +SKIP
"""

import importlib
import warnings

from . import corpus, decode, export, formats, infer, research, spec, tables
from ._adopt import apply_suggestions
from ._version import __version__
from .corpus import Corpus, open_corpus
from .errors import AnimreError, ParseError, SpecError, ToolchainError, UsageError
from .export import wiki_table
from .infer import InferredSpec, infer_spec
from .research import (
    check,
    claims,
    compare,
    coverage,
    diff,
    diff_corpora,
    profile,
    reinterpret,
    relations,
    suggest,
)
from .spec.patch import suggest_patch

__all__ = [
    "__version__",
    "AnimreError",
    "Corpus",
    "InferredSpec",
    "ParseError",
    "SpecError",
    "ToolchainError",
    "UsageError",
    "apply_suggestions",
    "check",
    "claims",
    "compare",
    "corpus",
    "coverage",
    "decode",
    "diff",
    "diff_corpora",
    "export",
    "formats",
    "infer",
    "infer_spec",
    "open_corpus",
    "profile",
    "reinterpret",
    "relations",
    "research",
    "spec",
    "suggest",
    "suggest_patch",
    "tables",
    "wiki_table",
]

#: names the top level held in earlier releases -> the module that holds them now
MOVED = {
    "compile_all": "animre.spec",
    "compile_spec": "animre.spec",
    "load_parser": "animre.spec",
    "fields_table": "animre.tables",
    "parse_file": "animre.tables",
    "Adoption": "animre._adopt",
    "decode_frames": "animre.decode.flc",
    "icn_sprites": "animre.decode.icn",
    "sprite_images": "animre.decode.omf_sprites",
    "export_animation": "animre.export",
}


def __getattr__(name: str):
    """Names moved to their subpackage keep working for one release, with a DeprecationWarning."""
    if name in MOVED:
        warnings.warn(f"animre.{name} moved to {MOVED[name]}.{name}; the old name goes in the next release",
                      DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(MOVED[name]), name)
    raise AttributeError(f"module 'animre' has no attribute {name!r}")
