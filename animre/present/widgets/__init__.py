"""Interactive explorers (ipywidgets) over a corpus, one module per widget.

Each function returns a small object whose ``.widget`` is the ipywidgets
container to display, and whose methods (``select`` ...) drive it from code,
so every callback can be tested without a browser. All numbers shown come
from :mod:`animre.research` (profiles, reinterpretations, claims) or straight
from the corpus tables; the widgets only lay them out and call
:mod:`animre.present.plots` to draw.

Examples
--------
>>> from animre import open_corpus
>>> from animre.present.widgets import corpus_explorer
>>> ex = corpus_explorer(open_corpus("data/samples/frm", cache=False))
>>> sel = ex.select(file="GOBLNFRM.BIN", path="walk_speed").selected
>>> sel["file"], sel["path"], sel["start"], sel["end"]
('GOBLNFRM.BIN', 'walk_speed', 162, 166)
"""

from .claims import ClaimsBoard, claims_board
from .compare import GRID_FILES, GRID_RECORDS, CompareView, compare_view
from .css import HEX_CSS
from .explorer import CorpusExplorer, corpus_explorer
from .hexview import hex_view
from .profiler import ColumnProfiler, column_profiler
from .records import ROOT_RECORD
from .reinterpret import ReinterpretExplorer, reinterpret_explorer

__all__ = [
    "corpus_explorer",
    "column_profiler",
    "reinterpret_explorer",
    "claims_board",
    "compare_view",
    "CorpusExplorer",
    "ColumnProfiler",
    "ReinterpretExplorer",
    "ClaimsBoard",
    "CompareView",
    "hex_view",
    "HEX_CSS",
    "ROOT_RECORD",
    "GRID_RECORDS",
    "GRID_FILES",
]
