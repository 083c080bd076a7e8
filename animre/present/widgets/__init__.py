"""Interactive explorers (ipywidgets) over a corpus, one module per widget.

Each function returns a small object whose ``.widget`` is the ipywidgets
container to display, and whose methods (``select`` ...) drive it from code,
so every callback can be tested without a browser. All numbers shown come
from :mod:`animre.research` (profiles, reinterpretations, claims) or straight
from the corpus tables; the widgets only lay them out and call
:mod:`animre.present.plots` to draw.

Examples
--------
>>> from animre.present import widgets
>>> prof = widgets.column_profiler(corpus, "frm", "walk_speed")
>>> prof.profile_row["column"], "animre-profiler" in prof.widget._dom_classes
('walk_speed', True)
"""

from .claims import ClaimsBoard, claims_board
from .compare import GRID_FILES, GRID_RECORDS, CompareView, compare_view
from .css import HEX_CSS
from .explorer import CorpusExplorer, corpus_explorer
from .hexview import hex_view
from .profiler import ColumnProfiler, column_profiler
from .records import ROOT_RECORD
from .reinterpret import ReinterpretExplorer, reinterpret_explorer
from .relations import RelationsView, relations_view

__all__ = [
    "corpus_explorer",
    "column_profiler",
    "reinterpret_explorer",
    "claims_board",
    "compare_view",
    "relations_view",
    "CorpusExplorer",
    "ColumnProfiler",
    "ReinterpretExplorer",
    "ClaimsBoard",
    "CompareView",
    "RelationsView",
    "hex_view",
    "HEX_CSS",
    "ROOT_RECORD",
    "GRID_RECORDS",
    "GRID_FILES",
]
