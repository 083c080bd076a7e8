"""Deprecated: moved to :mod:`animre.tables.read` (kept for one release; it warns)."""

import warnings

from .tables.read import *  # noqa: F403
from .tables.read import __all__  # noqa: F401

warnings.warn("animre.read moved to animre.tables.read; the old module goes in the next release",
              DeprecationWarning, stacklevel=2)
