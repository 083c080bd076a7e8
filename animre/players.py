"""Deprecated: animre.players moved to animre.present.players (this module goes in the next release)."""

import warnings

from .present.players import *  # noqa: F403
from .present.players import __all__ as _players_all
from .present.png import board, checkerboard, figure_png, image_png, index_palette, show_png

__all__ = [*_players_all, "checkerboard", "board", "image_png", "figure_png", "show_png", "index_palette"]

warnings.warn("animre.players moved to animre.present.players", DeprecationWarning, stacklevel=2)
