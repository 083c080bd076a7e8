"""The tables layer: a parsed file into the tables its spec declares, every cell with its byte range.

- :mod:`.plan` / :mod:`.planner`: which tables a spec yields (the ``-animre-*``
  keys, or the default rule for a spec without them);
- :mod:`.flatten`, :mod:`.fill`, :mod:`.values`: one parsed file into column
  chunks (generated fillers, column-wise value instances);
- :mod:`.read`: one file: detect, parse every block, flatten;
- :mod:`.fields`: the long ``fields`` table (every value read, with its range).
"""

from .fields import FIELDS_COLUMNS, fields_table, spec_types
from .flattener import Chunk, flatten
from .plan import COLUMN_INFO, EXTENT, Plan
from .planner import plan_for
from .read import parse, parse_blocks, read_tables

__all__ = ["fields_table", "spec_types", "FIELDS_COLUMNS", "Chunk", "flatten", "Plan", "plan_for", "COLUMN_INFO",
           "EXTENT", "parse", "parse_blocks", "read_tables"]
