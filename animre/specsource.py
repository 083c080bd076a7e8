"""Deprecated: moved to :mod:`animre.spec.source` (kept for one release; it warns)."""

import warnings

from .spec.source import *  # noqa: F403
from .spec.source import __all__  # noqa: F401

warnings.warn("animre.specsource moved to animre.spec.source; the old module goes in the next release",
              DeprecationWarning, stacklevel=2)
