"""``infer_spec``: a first Kaitai spec for a format nobody has described, from many of its files."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from ..base.errors import UsageError
from ._guard import ALPHA
from ._inside import propose_fields
from ._ksy import to_ksy
from ._layout import solve
from ._limits import HEADER_MAX, MIN_FILES
from ._result import EVIDENCE_COLUMNS, InferredSpec, evidence
from ._rows import Rows
from ._sample import HEAD, MAX_FILES, gather, shared_suffix
from ._variants import split_variants

__all__ = ["InferredSpec", "infer_spec", "spec_time", "EVIDENCE_COLUMNS", "HEADER_MAX"]


def infer_spec(source: Any, *, name: str | None = None, min_files: int = MIN_FILES, files: Any = None,
               alpha: float = ALPHA, head: int = HEAD, max_files: int = MAX_FILES,
               header_max: int = HEADER_MAX, table: str | None = None, column: str | None = None,
               variants: bool = True) -> InferredSpec:
    """Infer a first Kaitai spec from many files of one unknown format.

    Parameters
    ----------
    source : folder, list of files, list of ``(name, bytes)``, or Corpus
        The files (a corpus with ``files=`` to choose some of them).
    name : str, optional
        The spec id (``meta/id``); without it, ``unknown`` until :meth:`InferredSpec.save` takes it from the
        file name (``tiles.ksy`` -> ``tiles``).
    min_files : int
        Independent files (distinct contents) needed at all (default 5).
    files : callable, glob pattern or list of names, optional
        With a corpus: which of its files.
    alpha : float
        Family-wise chance of one invented field (see :mod:`animre.infer._guard`).
    head, max_files, header_max : int
        Bytes read from every file, files read, bytes of the header laid out.
    table, column : str, optional
        Inside a known format: propose fields for the raw bytes of this column
        (see :func:`animre.infer.propose_fields`); ``source`` is then the corpus.
    variants : bool
        Split files that disagree on a small leading field into ``switch-on`` variants.

    Returns
    -------
    InferredSpec
        ``.ksy`` (the spec), ``.evidence`` (one row per field), ``.save(path)``.

    Examples
    --------
    >>> from animre.samples.synthetic import syna_files
    >>> spec = infer_spec([(n, d) for n, d, _ in syna_files(20)], name="syna")
    >>> spec.roles()["offset"] >= 2, "_root._io.size" in spec.ksy
    (True, True)
    """
    if table is not None or column is not None:

        return propose_fields(source, table, column, min_files=min_files, alpha=alpha)
    t0 = time.perf_counter()
    named, name = name is not None, name or "unknown"
    samples = gather(source, files=files, head=head, max_files=max_files)
    if len(samples) < min_files:
        where = source if isinstance(source, (str, os.PathLike)) else f"the {type(source).__name__} given"
        raise UsageError(f"{len(samples)} distinct file(s) in {where}; inference needs at least {min_files} "
                         "(min_files=)")
    if any(s.size == 0 for s in samples):
        samples = [s for s in samples if s.size > 0]
    width = min(min(len(s.head) for s in samples), header_max)
    rows = Rows.of([s.head[:width] for s in samples], [s.size for s in samples])
    lay = solve(rows, samples, alpha=alpha, name=name)
    if variants:
        lay = split_variants(lay, rows, samples, alpha=alpha, min_files=min_files) or lay
    text = to_ksy(lay, name=name, n_files=len(samples), extension=shared_suffix(samples))
    return InferredSpec(text, evidence(lay), lay, [s.name for s in samples], seconds=time.perf_counter() - t0,
                        read_from=_read_from(source), named=named)


def _read_from(source: Any) -> tuple[Path, ...]:
    """The folders (or files) of ``source`` on disk: a spec inferred from them is never saved inside them."""
    if isinstance(source, (str, os.PathLike)):
        return (Path(source),)
    if hasattr(source, "read_bytes") and hasattr(source, "files"):  # a corpus: its folder
        root = getattr(source, "root", None)
        return (Path(root),) if root is not None else ()
    if isinstance(source, (list, tuple)):
        return tuple(Path(s) for s in source if isinstance(s, (str, os.PathLike)))
    return ()


def spec_time(spec: InferredSpec) -> float:
    """Seconds :func:`infer_spec` took (reading the files included)."""
    return spec.seconds
