"""Deprecated: moved to :mod:`animre.spec.parse` and :mod:`animre.spec.ranges` (kept for one release; it warns)."""

import warnings

from .spec import parse as _parse
from .spec import ranges as _ranges
from .spec.parse import *  # noqa: F403
from .spec.ranges import *  # noqa: F403

__all__ = [*_parse.__all__, *_ranges.__all__]

warnings.warn("animre.parse moved to animre.spec.parse (walk, Bases: animre.spec.ranges); the old module goes in "
              "the next release", DeprecationWarning, stacklevel=2)
