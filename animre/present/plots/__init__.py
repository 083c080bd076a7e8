"""Matplotlib figures of research output, by kind of picture.

Every function here takes tables or arrays that the parser, the decoders or
:mod:`animre.research` already produced and only draws them: no statistic,
decoding or conversion is computed here. Each returns a
:class:`matplotlib.figure.Figure` (made without :mod:`matplotlib.pyplot`, so
no global state and no GUI backend is needed); in a notebook with
``%matplotlib inline`` the figure displays when it is the cell's last value.
Pass ``ax=`` to draw into an existing axes instead.

Modules by kind of picture: :mod:`~animre.present.plots.bars` (bars and
histograms, the claims board), :mod:`~animre.present.plots.matrices` (bits,
bytes and differing cells as grids), :mod:`~animre.present.plots.timelines`
(sequences, key curves, readings) and :mod:`~animre.present.plots.images`
(pixels: contact sheets, palettes, sprites).

Examples
--------
>>> import pandas as pd
>>> from animre.present import plots
>>> fig = plots.bar_values(pd.DataFrame({"file": ["a", "b"], "speed": [3, 5]}), ["speed"])
>>> len(fig.axes[0].patches)
2
"""

from .bars import bar_values, bit_rates, claims_board, histogram_by_file
from .base import distinct_labels, new_axes, require_columns, short_label
from .colours import FAILS_COLOUR, HOLDS_COLOUR, UNTESTED_COLOUR
from .images import contact_sheet, palette_swatch, sequence_strip, sprite_collisions, sprite_sheet
from .matrices import MAX_CELL_TEXTS, bit_matrix, byte_variation, compare_grid, compare_subset
from .timelines import key_curves, reinterpretation, sequence_timeline

__all__ = [
    "bar_values",
    "sequence_timeline",
    "bit_matrix",
    "key_curves",
    "contact_sheet",
    "palette_swatch",
    "byte_variation",
    "sprite_collisions",
    "claims_board",
    "histogram_by_file",
    "bit_rates",
    "reinterpretation",
    "compare_grid",
    "compare_subset",
    "sprite_sheet",
    "sequence_strip",
    "distinct_labels",
    "short_label",
    "new_axes",
    "require_columns",
    "HOLDS_COLOUR",
    "FAILS_COLOUR",
    "UNTESTED_COLOUR",
    "MAX_CELL_TEXTS",
]
