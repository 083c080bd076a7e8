"""Deprecated: moved to :mod:`animre.spec.parse` (kept for one release; it warns)."""

import warnings

from .spec.parse import *  # noqa: F403
from .spec.parse import __all__  # noqa: F401

warnings.warn("animre.parse moved to animre.spec.parse; the old module goes in the next release",
              DeprecationWarning, stacklevel=2)
