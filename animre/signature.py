"""Deprecated: moved to :mod:`animre.spec.signature` (kept for one release; it warns)."""

import warnings

from .spec.signature import *  # noqa: F403
from .spec.signature import __all__  # noqa: F401

warnings.warn("animre.signature moved to animre.spec.signature; the old module goes in the next release",
              DeprecationWarning, stacklevel=2)
