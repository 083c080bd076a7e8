"""Leave-one-out: does a spec inferred from all files but one read the one left out (the next file found)?"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..base.errors import AnimreError, ParseError
from ..spec.compiler import compile_spec
from ..spec.parse import parse_bytes
from ._api import infer_spec
from ._limits import MIN_FILES
from ._sample import gather

__all__ = ["leave_one_out"]


def _bytes(s) -> bytes:
    if s.data is not None:
        return s.data
    if s.path is not None:
        return s.path.read_bytes()
    return s.window(0, s.size)


def leave_one_out(source: Any, *, trials: int = 5, min_files: int = MIN_FILES, **infer_args) -> pd.DataFrame:
    """For up to ``trials`` files spread over the folder: infer from the others, parse the one left out.

    Returns one row per trial: ``file``, ``parses`` (bool), ``error`` (the
    ParseError's field path and reason when it does not). Needs
    ``min_files + 1`` distinct files; fewer give an empty table.

    Examples
    --------
    >>> from animre.samples.synthetic import syna_files
    >>> loo = leave_one_out([(n, d) for n, d, _ in syna_files(8)], trials=2)
    >>> len(loo), bool(loo["parses"].all())
    (2, True)
    """
    samples = gather(source)
    rows = []
    if len(samples) <= min_files:
        return pd.DataFrame(rows, columns=["file", "parses", "error"])
    data = [(s.name, _bytes(s)) for s in samples]
    step = max(1, len(data) // max(1, trials))
    for i in list(range(0, len(data), step))[:trials]:
        rest = data[:i] + data[i + 1:]
        name, held = data[i]
        try:
            spec = infer_spec(rest, min_files=min_files, **infer_args)
            parse_bytes(held, compile_spec(spec.ksy), name)
            rows.append((name, True, None))
        except ParseError as e:
            rows.append((name, False, f"{e.path} @ {e.offset}: {e.reason}"))
        except AnimreError as e:
            rows.append((name, False, str(e)))
    return pd.DataFrame(rows, columns=["file", "parses", "error"])
