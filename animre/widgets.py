"""Deprecated: animre.widgets moved to animre.present.widgets (this module goes in the next release)."""

import warnings

from .present.widgets import *  # noqa: F403
from .present.widgets import __all__  # noqa: F401

warnings.warn("animre.widgets moved to animre.present.widgets", DeprecationWarning, stacklevel=2)
