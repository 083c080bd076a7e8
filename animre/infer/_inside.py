"""Inside a known format: fields proposed for the raw bytes a spec leaves opaque.

The bytes of one ``bytes`` column (a reserved area, a blob read with
``size:``) in every row of a corpus are laid out by the same solver as an
unknown format's records (every row a sample, the same guard); every typed
field becomes a ``value`` instance over the blob (``blob[4] | blob[5] << 8``
with ``-animre-bytes`` naming the blob, so its byte range is known), as a
suggestion row that :func:`animre.suggest_patch` and
:func:`animre.apply_suggestions` accept.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..base.errors import UsageError
from ..research import SUGGESTION_COLUMNS
from ._guard import ALPHA
from ._ksy import to_ksy
from ._layout import solve
from ._limits import MIN_FILES
from ._result import InferredSpec, evidence
from ._rows import Rows

__all__ = ["propose_fields"]



def _expr(blob: str, o: int, w: int, t: str) -> str | None:
    if t[0] not in "us" or w > 4:
        return None
    order = range(w) if (t.endswith("le") or w == 1) else range(w - 1, -1, -1)
    parts = [f"{blob}[{o + i}]" + (f" << {8 * k}" if k else "") for k, i in enumerate(order)]
    return " | ".join(parts) if len(parts) > 1 else parts[0]


def propose_fields(corpus: Any, table: str | None, column: str | None, *, min_files: int = MIN_FILES,
                   alpha: float = ALPHA) -> Any:
    """Suggestion rows for the fields inside the raw bytes of ``table.column`` (see the module doc).

    Returns an :class:`~animre.infer.InferredSpec` whose ``suggestions`` holds the rows; ``ksy`` is
    the layout of the blob alone, as a spec of its own.
    """

    if table not in getattr(corpus, "tables", {}) or column not in corpus.tables[table].columns:
        raise UsageError(f"no column {table}.{column} in the corpus")
    sch = corpus.schema
    hit = sch[(sch["table"] == table) & (sch["column"] == column)]
    if not len(hit) or not isinstance(hit.iloc[0]["field"], str):
        raise UsageError(f"{table}.{column} is not a field of a spec")
    owner, fid = hit.iloc[0]["field"].rsplit(".", 1)
    spec = str(hit.iloc[0]["spec"])
    df = corpus.tables[table]
    vals = [(f, bytes(v)) for f, v in zip(df["file"], df[column]) if isinstance(v, (bytes, bytearray))]
    if not vals:
        raise UsageError(f"{table}.{column} holds no raw bytes")
    files = sorted({f for f, _ in vals})
    if len(files) < min_files:
        raise UsageError(f"{table}.{column}: {len(files)} file(s); proposing fields needs {min_files}")
    width = min(len(b) for _, b in vals)
    idx = {f: i for i, f in enumerate(files)}
    sizes = corpus.files.set_index("file")["size"]
    rows = Rows.of([b[:width] for _, b in vals], [int(sizes.get(f, 0)) for f, _ in vals],
                   file=[idx[f] for f, _ in vals], header=False)
    lay = solve(rows, [], alpha=alpha, name=f"{fid}_fields", depth=2)
    out = []
    for f in lay.fields:
        if f.role in ("raw",) or f.type is None:
            continue
        expr = _expr(fid, f.offset, f.width, f.type)
        if expr is None:
            continue
        name = f"{fid}_{f.name}"
        doc = f"Bytes {f.offset}..{f.end - 1} of {fid} read as {f.type}: {f.evidence} (proposed by animre.infer_spec)."
        edit = {"spec": spec, "type": owner, "field": fid,
                "instances": {name: {"value": expr, "-animre-bytes": fid, "doc": doc}}}
        out.append({"spec": spec, "type": owner, "field": fid, "table": table, "column": column, "kind": "doc",
                    "suggestion": f"instance {name}: {f.type} at byte {f.offset} of {fid}", "evidence": f.evidence,
                    "holds": f.holds, "of": f.of, "unit": "rows", "n_files": len(files), "counterexamples": [],
                    "edit": edit, "status": "proposed"})
    sug = pd.DataFrame(out, columns=SUGGESTION_COLUMNS)
    return InferredSpec(to_ksy(lay, name=f"{fid}_fields", n_files=len(files)), evidence(lay), lay, files,
                        suggestions=sug)
