"""Deprecated: moved to :mod:`animre.corpus.cache` (kept for one release; it warns)."""

import warnings

from .corpus.cache import *  # noqa: F403
from .corpus.cache import __all__  # noqa: F401

warnings.warn("animre.cache moved to animre.corpus.cache; the old module goes in the next release",
              DeprecationWarning, stacklevel=2)
