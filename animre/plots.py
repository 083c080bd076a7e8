"""Deprecated: animre.plots moved to animre.present.plots (this module goes in the next release)."""

import warnings

from .present.plots import *  # noqa: F403
from .present.plots import __all__  # noqa: F401

warnings.warn("animre.plots moved to animre.present.plots", DeprecationWarning, stacklevel=2)
