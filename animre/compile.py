"""Deprecated: moved to :mod:`animre.spec.compiler` (kept for one release; it warns)."""

import warnings

from .spec.compiler import *  # noqa: F403
from .spec.compiler import __all__  # noqa: F401

warnings.warn("animre.compile moved to animre.spec.compiler; the old module goes in the next release",
              DeprecationWarning, stacklevel=2)
