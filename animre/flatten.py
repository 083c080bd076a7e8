"""Deprecated: the flattener is now :mod:`animre.tables` (plan, planner, flattener) and :mod:`animre.spec.model`.

Kept for one release; it warns.
"""

import warnings

from .spec.expr import Untranslatable, expr_source
from .spec.model import FieldDef, SpecModel, TypeDef, load_spec
from .tables.flattener import Chunk, column_values, flatten
from .tables.plan import COLUMN_INFO, EXTENT, Column, Plan, TablePlan
from .tables.planner import plan_for

__all__ = ["EXTENT", "column_values", "FieldDef", "TypeDef", "SpecModel", "Column", "TablePlan", "Plan", "load_spec",
           "plan_for", "flatten", "Chunk", "COLUMN_INFO", "Untranslatable", "expr_source"]

warnings.warn("animre.flatten moved to animre.tables (and animre.spec.model); the old module goes in the next "
              "release", DeprecationWarning, stacklevel=2)
