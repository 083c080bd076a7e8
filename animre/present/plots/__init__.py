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
>>> from animre import open_corpus
>>> from animre.present import plots
>>> c = open_corpus("data/samples/frm", cache=False)
>>> fig = plots.idle_weights(c.tables["frm"])
>>> len(fig.axes[0].containers)  # one stacked bar series per idle
5
"""

from .bars import IDLE_TOP, bar_values, bit_rates, claims_board, histogram_by_file, idle_weights
from .base import distinct_labels, short_label
from .colours import FAILS_COLOUR, HOLDS_COLOUR, UNTESTED_COLOUR
from .images import contact_sheet, palette_swatch, sequence_strip, sprite_collisions, sprite_sheet
from .matrices import MAX_CELL_TEXTS, bit_matrix, byte_variation, compare_grid, compare_subset
from .timelines import key_curves, reinterpretation, sequence_timeline

__all__ = [
    "idle_weights",
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
    "HOLDS_COLOUR",
    "FAILS_COLOUR",
    "UNTESTED_COLOUR",
    "IDLE_TOP",
    "MAX_CELL_TEXTS",
]
