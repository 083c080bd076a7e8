"""animre: a Jupyter research kit for reverse-engineering game animation files.

Kaitai Struct specs (``ksy/``) compiled into Python parsers, every parsed
file flattened into pandas tables, and research functions that compare
values across all files of a corpus.

Examples
--------
>>> import animre
>>> c = animre.open_corpus("data/samples")          # doctest: +SKIP
>>> animre.profile(c.tables["af_moves"])             # doctest: +SKIP
>>> animre.claims(c)                                 # doctest: +SKIP
"""

__version__ = "0.1.0"

from ._adopt import Adoption, apply_suggestions  # noqa: E402
from .corpus import Corpus, open_corpus, parse_file  # noqa: E402
from .decode.flc import decode_frames  # noqa: E402
from .decode.icn import icn_sprites  # noqa: E402
from .decode.omf_sprites import sprite_images  # noqa: E402
from .errors import AnimreError, ParseError, SpecError, ToolchainError, UsageError  # noqa: E402
from .export import export, export_animation, wiki_table  # noqa: E402
from .infer import InferredSpec, infer_spec  # noqa: E402
from .research import (  # noqa: E402
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
from .spec.compiler import compile_all, compile_spec, load_parser  # noqa: E402
from .spec.patch import suggest_patch  # noqa: E402
from .tables.fields import fields_table  # noqa: E402

__all__ = [
    "__version__",
    "Adoption",
    "AnimreError",
    "Corpus",
    "ParseError",
    "SpecError",
    "ToolchainError",
    "UsageError",
    "apply_suggestions",
    "check",
    "claims",
    "compare",
    "compile_all",
    "compile_spec",
    "coverage",
    "decode_frames",
    "diff",
    "diff_corpora",
    "export",
    "export_animation",
    "fields_table",
    "icn_sprites",
    "infer_spec",
    "InferredSpec",
    "load_parser",
    "open_corpus",
    "parse_file",
    "profile",
    "reinterpret",
    "relations",
    "sprite_images",
    "suggest",
    "suggest_patch",
    "wiki_table",
]
