"""Deprecated: moved to :mod:`animre.spec.numbers` (kept for one release; it warns)."""

import warnings

from .spec.numbers import *  # noqa: F403
from .spec.numbers import __all__  # noqa: F401

warnings.warn("animre.ksy_numbers moved to animre.spec.numbers; the old module goes in the next release",
              DeprecationWarning, stacklevel=2)
