"""Deprecated: animre.pictures moved to animre.present.pictures (this module goes in the next release)."""

import warnings

from .present.pictures import *  # noqa: F403
from .present.pictures import __all__  # noqa: F401

warnings.warn("animre.pictures moved to animre.present.pictures", DeprecationWarning, stacklevel=2)
