"""Inference of a first spec for an unknown format from many of its files.

Sampling (bounded windows of every file), candidate detectors (constants,
widths and endianness, file size, offsets, counts x strides, strings,
floats, table directories), the layout solver, variants, the guard against invented
structure, and the Kaitai writer. :func:`infer_spec` is the entry point.
"""

from ._api import EVIDENCE_COLUMNS, InferredSpec, infer_spec
from ._holdout import leave_one_out
from ._result import spec_id_of
from ._score import boundary_scores, inferred_fields, roles_found

__all__ = ["EVIDENCE_COLUMNS", "InferredSpec", "infer_spec", "spec_id_of", "leave_one_out", "boundary_scores",
           "inferred_fields", "roles_found"]
