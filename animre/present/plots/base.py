"""What every plot shares: a new figure (or the caller's axes), short file labels, required columns.

Examples
--------
>>> fig, ax = new_axes(None, (3.0, 2.0))
>>> ax.figure is fig, short_label("frm/GOBLNFRM.BIN")
(True, 'GOBLNFRM')
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ...base.errors import UsageError

__all__ = [
    "new_axes",
    "distinct_labels",
    "short_label",
    "require_columns",
]


def new_axes(ax: Axes | None, figsize: tuple[float, float]) -> tuple[Figure, Axes]:
    if ax is not None:
        return ax.figure, ax
    fig = Figure(figsize=figsize, layout="constrained")
    return fig, fig.add_subplot()


def distinct_labels(files: Sequence[str]) -> list[str]:
    """Short labels (stems) for files, longer where two files share a stem (folder or container kept).

    Examples
    --------
    >>> distinct_labels(["frm/GOBLNFRM.BIN", "agg/HEROES2.AGG/GOBLNFRM.BIN", "frm/ORC__FRM.BIN"])
    ['frm/GOBLNFRM', 'agg/HEROES2.AGG/GOBLNFRM', 'ORC__FRM']
    """
    short = [short_label(f) for f in files]
    seen = pd.Series(short).value_counts()
    return [s if seen[s] == 1 else (f.rsplit(".", 1)[0] if "." in f.rsplit("/", 1)[-1] else f)
            for f, s in zip(files, short)]


def short_label(name: str) -> str:
    """A file's short label: its base name without the extension."""
    base = str(name).rsplit("/", 1)[-1]
    return base.rsplit(".", 1)[0] if "." in base else base


def require_columns(df: pd.DataFrame, columns: Sequence[str], what: str) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise UsageError(f"{what}: the table lacks column(s) {', '.join(missing)}; "
                         f"it has {', '.join(map(str, df.columns))}")
