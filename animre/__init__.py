"""animre: a Jupyter research kit for reverse-engineering game animation files.

Kaitai Struct specs (``ksy/``) compiled into Python parsers, every parsed
file flattened into pandas tables, and research functions that compare
values across all files of a corpus.
"""

__version__ = "0.1.0"

from .compile import compile_all, compile_spec, load_parser  # noqa: E402
from .corpus import Corpus, open_corpus, parse_file  # noqa: E402
from .errors import AnimreError, ParseError, SpecError, ToolchainError, UsageError  # noqa: E402
from .tables import fields_table  # noqa: E402

__all__ = [
    "__version__",
    "AnimreError",
    "Corpus",
    "ParseError",
    "SpecError",
    "ToolchainError",
    "UsageError",
    "compile_all",
    "compile_spec",
    "fields_table",
    "load_parser",
    "open_corpus",
    "parse_file",
]
