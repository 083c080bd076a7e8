"""The corpus layer: a folder of files read into tables, with errors, derived columns and a cache.

``open_corpus(path)`` lists every file and container member
(:mod:`animre.sources`), decides each file's format (:mod:`.identify`),
parses every file into the tables its spec declares (:mod:`.scan`, in
forked workers for large folders; :mod:`animre.tables`), gathers the rows
column by column (:mod:`.collector`), merges them with the rows a cache
snapshot kept (:mod:`.assemble`, :mod:`.cache`) and adds each format's
derived columns (:mod:`.derive`). :class:`Corpus` is the result.
"""

from ..tables.read import parse, parse_blocks
from .cache import default_cache_dir
from .model import Corpus
from .open import open_corpus
from .results import ERROR_COLUMNS, FILES_COLUMNS, UNAVAILABLE_COLUMNS, FileResult

__all__ = ["Corpus", "open_corpus", "parse", "parse_blocks", "FileResult",
           "default_cache_dir", "UNAVAILABLE_COLUMNS", "FILES_COLUMNS", "ERROR_COLUMNS"]
