"""Deprecated: animre.htmltable moved to animre.tableview (one module for tables on screen).

Kept for one release: ``table`` is :func:`animre.tableview.html_table`, ``HASH_SHOWN`` is
:data:`animre.tableview.HASH_CHARS`.
"""

import warnings

from .tableview import *  # noqa: F403
from .tableview import HASH_CHARS as HASH_SHOWN
from .tableview import __all__ as moved
from .tableview import html_table as table

__all__ = [*moved, "table", "HASH_SHOWN"]

warnings.warn("animre.htmltable moved to animre.tableview (table is now html_table)", DeprecationWarning,
              stacklevel=2)
