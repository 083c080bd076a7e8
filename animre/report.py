"""Deprecated: animre.report moved to animre.present.report (this module goes in the next release)."""

import warnings

from .present.report import *  # noqa: F403
from .present.report import __all__  # noqa: F401

warnings.warn("animre.report moved to animre.present.report", DeprecationWarning, stacklevel=2)
