"""Matrices of cells: the bits of values, bytes that vary across files, values that differ between files."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure

from ...base.display import fmt
from .base import new_axes, short_label
from .colours import FAILS_COLOUR

__all__ = ["MAX_CELL_TEXTS", "bit_matrix", "byte_variation", "compare_subset", "compare_grid"]


#: compare_grid writes the values of differing cells only up to this many cells.
MAX_CELL_TEXTS = 400


def bit_matrix(values: pd.Series | Sequence[int], *, bits: int | None = None,
               labels: Sequence[Any] | None = None, bit_names: Mapping[int, str] | None = None,
               title: str = "", ax: Axes | None = None) -> Figure:
    """Records x bits of an integer column as a black/white matrix.

    Row ``i`` is record ``i``; column ``b`` is bit ``b`` (value ``1 << b``),
    least significant bit on the left. The image array is exactly
    ``(values >> b) & 1``.

    Parameters
    ----------
    values : Series or sequence of int
        e.g. ``af_moves["ai_flags"]``.
    bits : int, optional
        Number of bit columns (default: enough for the largest value, at least 8).
    labels : sequence, optional
        Row labels (e.g. move ids); default the Series index.
    bit_names : dict bit -> name, optional
        Names for known bits (e.g. ``{0: "TRANSLATE", 1: "SCALE"}``).

    Examples
    --------
    >>> fig = bit_matrix(pd.Series([1, 2, 3]), bits=4)
    >>> fig.axes[0].images[0].get_array().tolist()
    [[1, 0, 0, 0], [0, 1, 0, 0], [1, 1, 0, 0]]
    """
    s = pd.Series(values)
    v = np.asarray(pd.to_numeric(s, errors="coerce").fillna(0), dtype=np.int64)
    if bits is None:
        top = int(v.max()) if len(v) else 0
        bits = max(8, int(top).bit_length())
        bits = ((bits + 7) // 8) * 8
    m = ((v[:, None] >> np.arange(bits)[None, :]) & 1).astype(np.int64)
    fig, ax = new_axes(ax, (max(4.0, 0.3 * bits + 2), max(2.5, min(12.0, 0.16 * len(v) + 1.5))))
    ax.imshow(m, cmap=ListedColormap(["#f4f4f4", "#222222"]), vmin=0, vmax=1,
              aspect="auto", interpolation="nearest")
    names = [bit_names.get(b, f"0x{1 << b:X}") if bit_names else f"0x{1 << b:X}" for b in range(bits)]
    ax.set_xticks(np.arange(bits), names, rotation=90, fontsize=6)
    ax.set_xticks(np.arange(bits + 1) - 0.5, minor=True)
    ax.grid(which="minor", axis="x", color="#bbbbbb", linewidth=0.4)
    ax.tick_params(which="minor", length=0)
    top = ax.secondary_xaxis("top")  # bit numbers above, values/names below
    top.set_xticks(np.arange(bits), [str(b) for b in range(bits)], fontsize=6)
    top.set_xlabel("bit number", fontsize=7)
    rl = list(labels) if labels is not None else list(s.index)
    if len(rl) <= 60:
        ax.set_yticks(np.arange(len(v)), [str(x) for x in rl], fontsize=6)
    else:
        step = -(-len(rl) // 40)
        ax.set_yticks(np.arange(0, len(v), step), [str(x) for x in rl[::step]], fontsize=6)
    ax.set_xlabel("bit value (or name)")
    ax.set_ylabel("record")
    ax.set_title(title or (f"bits of {s.name}" if s.name else "bit matrix"))
    return fig


def byte_variation(matrix: pd.DataFrame, *, title: str = "", max_labels: int = 40,
                   ax: Axes | None = None) -> Figure:
    """Files x byte offsets: constant bytes in flat grey, varying bytes coloured by value.

    ``matrix`` has one row per file (index = file) and one column per byte
    offset, holding byte values 0..255 (NaN where a file is shorter). The
    varying/constant split is read from the matrix columns (a column with
    more than one distinct value varies).

    Examples
    --------
    >>> m = pd.DataFrame([[1, 5], [1, 7]], index=["a", "b"], columns=[0, 1])
    >>> fig = byte_variation(m)
    >>> len(fig.axes[0].images)
    2
    """
    vals = matrix.to_numpy(dtype=float)
    varies = np.asarray(matrix.nunique(dropna=True) > 1)
    fig, ax = new_axes(ax, (max(6.0, min(18.0, 0.05 * matrix.shape[1] + 3)),
                         max(2.5, min(12.0, 0.18 * matrix.shape[0] + 1.5))))
    const = np.where(varies[None, :], np.nan, vals)
    vary = np.where(varies[None, :], vals, np.nan)
    ax.imshow(const, cmap=ListedColormap(["#dddddd"]), vmin=0, vmax=255, aspect="auto",
              interpolation="nearest")
    im = ax.imshow(vary, cmap="viridis", vmin=0, vmax=255, aspect="auto", interpolation="nearest")
    fig.colorbar(im, ax=ax, label="byte value (varying bytes)", shrink=0.8)
    if matrix.shape[0] <= max_labels:
        ax.set_yticks(np.arange(matrix.shape[0]), [short_label(i) for i in matrix.index], fontsize=6)
    cols = list(matrix.columns)
    step = max(1, len(cols) // 32)
    ax.set_xticks(np.arange(0, len(cols), step), [str(c) for c in cols[::step]], rotation=90, fontsize=6)
    ax.set_xlabel("byte offset")
    ax.set_title(title or f"byte variation across files ({int(varies.sum())} of {len(varies)} bytes vary)")
    return fig


def compare_subset(differs: pd.DataFrame, max_records: int, max_files: int) -> tuple[list, list]:
    """(files, records) of a comparison to draw: all that fit, else those with differing cells first.

    Both keep their order; a grid of 200 files x 900 records stays readable
    (and quick to draw) as at most ``max_files`` x ``max_records``.

    Examples
    --------
    >>> d = pd.DataFrame({1: [False, True, False], 2: [False] * 3, 3: [True, False, False]}, index=list("abc"))
    >>> compare_subset(d, 2, 2)
    (['a', 'b'], [1, 3])
    """

    def pick(labels: list, hot: np.ndarray, limit: int) -> list:
        if len(labels) <= limit:
            return labels
        keep = [x for x, h in zip(labels, hot) if h][:limit]
        keep += [x for x, h in zip(labels, hot) if not h][:limit - len(keep)]
        chosen = set(keep)
        return [x for x in labels if x in chosen]

    d = differs.to_numpy(dtype=bool)
    return (pick(list(differs.index), d.any(axis=1), max_files),
            pick(list(differs.columns), d.any(axis=0), max_records))


def compare_grid(comparison: Any, *, title: str = "", max_records: int = 80, max_files: int = 40,
                 annotate: int = 30,
                 ax: Axes | None = None) -> Figure:
    """The file x record grid of :func:`animre.compare`: differing cells in red, absent cells grey.

    Cells holding the record's most common value are light; a cell that
    differs from it is drawn in the fails colour with its value written in
    it (values are written in every cell when the grid has at most
    ``annotate`` records). At most ``max_files`` files and ``max_records`` records are drawn: the
    ones with differing cells first.

    Examples
    --------
    >>> import pandas as pd
    >>> from animre.research import Comparison
    >>> v = pd.DataFrame({1: [0, 0, 3], 2: [5, 5, 5]}, index=["a", "b", "c"])
    >>> d = pd.DataFrame({1: [False, False, True], 2: [False] * 3}, index=v.index)
    >>> cmp = Comparison(v, d, pd.Series([0, 5], index=[1, 2]), v * 0)
    >>> fig = compare_grid(cmp)
    >>> fig.axes[0].images[0].get_array().tolist()
    [[1, 1], [1, 1], [2, 1]]
    """
    values, differs = comparison.values, comparison.differs
    files, cols = compare_subset(differs, max_records, max_files)
    v, d = values.loc[files, cols], differs.loc[files, cols].to_numpy(dtype=bool)
    present = v.notna().to_numpy()
    grid = np.where(d, 2, np.where(present, 1, 0))
    cell = 0.32 if len(cols) <= annotate else 0.17  # room for values in small grids; colours only in big ones
    fig, ax = new_axes(ax, (max(4.0, cell * len(cols) + 2.5), max(2.0, min(0.28, cell) * len(v) + 1.2)))
    ax.imshow(grid, cmap=ListedColormap(["#eeeeee", "#cfe8d5", FAILS_COLOUR]), vmin=0, vmax=2,
              aspect="auto", interpolation="nearest")
    ax.set_yticks(range(len(v)), [short_label(f) for f in v.index], fontsize=7)
    ax.set_xticks(range(len(cols)), [fmt(c) for c in cols], fontsize=7, rotation=90)
    ax.set_xlabel(str(values.columns.name or "record"))
    write_diffs = int(d.sum()) <= MAX_CELL_TEXTS  # beyond that the colours say it and texts cost seconds
    for i in range(len(v)):
        for j in range(len(cols)):
            if present[i, j] and ((d[i, j] and write_diffs) or len(cols) <= annotate):
                ax.text(j, i, fmt(v.iat[i, j], max_len=6), ha="center", va="center", fontsize=6,
                        color="white" if d[i, j] else "#333333", fontweight="bold" if d[i, j] else "normal")
    n = int(differs.to_numpy(dtype=bool).sum())
    shown = "" if (len(files), len(cols)) == differs.shape else f" ({len(files)} files x {len(cols)} records shown)"
    ax.set_title(title or f"{comparison.common.name or 'value'}: {n} cell(s) differ from their record's "
                 f"most common value{shown}", fontsize=9)
    return fig
