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

from . import corpus, export, formats, infer, research, spec, tables
from ._version import __version__
from .base.errors import AnimreError, ParseError, SpecError, ToolchainError, UsageError
from .corpus import Corpus, open_corpus
from .export import wiki_table
from .export.adopt import apply_suggestions
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
