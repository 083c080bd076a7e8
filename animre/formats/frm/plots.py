"""Plots of the HoMM2 FRM tables: the idle weights of every monster."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ...base.display import fmt
from ...present.plots import distinct_labels, new_axes, require_columns

__all__ = ["IDLE_TOP", "idle_weights"]


IDLE_TOP = 2.1  #: the idle-weights plot's axis stops here; bars above it are marked with their sum


def idle_weights(frm: pd.DataFrame, *, label: str = "file", n_idles: int = 5,
                 ax: Axes | None = None) -> Figure:
    """Stacked bars of the idle weights of every monster (HoMM2 ``frm`` table).

    One bar per row; segment ``i`` has the height ``idle_weights[i]`` as read
    from the file (unused idles are drawn too, so a non-zero weight beyond
    ``num_idles`` stays visible). A dashed line marks 1.0, so monsters whose
    weights are not normalised stand out.

    Parameters
    ----------
    frm : DataFrame
        The ``frm`` table (columns ``idle_weights[0]`` .. ``idle_weights[4]``, the spec's
        spread array; a missing column raises an error naming it).
    label : str
        Column naming each bar (file names are shortened to their stem).

    Examples
    --------
    >>> frm = corpus.tables["frm"]
    >>> fig = idle_weights(frm[frm["file"].str.startswith("frm/")])
    >>> [round(float(p.get_height()), 3) for p in fig.axes[0].containers[0]][:3]
    [0.432, 0.134, 0.248]
    """
    cols = [f"idle_weights[{i}]" for i in range(n_idles)]
    require_columns(frm, cols + [label], "idle_weights")
    fig, ax = new_axes(ax, (max(6.0, 0.28 * len(frm) + 2), 4.0))
    names = distinct_labels([str(v) for v in frm[label]])
    x = np.arange(len(frm))
    bottom = np.zeros(len(frm))
    for i, c in enumerate(cols):
        h = frm[c].to_numpy(dtype=float)
        ax.bar(x, h, bottom=bottom, label=f"idle {i + 1}", width=0.8)
        bottom = bottom + h
    ax.axhline(1.0, color="k", linestyle="--", linewidth=0.8)
    top = max(1.2, float(np.nanmax(bottom)) * 1.05) if len(bottom) else 1.2
    if top > IDLE_TOP:  # a few huge sums would flatten the rest: cut the axis and say so on each cut bar
        top = IDLE_TOP
        for xi, total in zip(x, bottom):
            if total > IDLE_TOP:
                ax.annotate(f"\u25b2 {fmt(float(total), ksy_type='f4')}", (xi, IDLE_TOP), ha="center",
                            va="top", fontsize=6, rotation=90, color="#d1495b")
    ax.set_ylim(0, top)
    ax.set_xticks(x, names, rotation=90, fontsize=7)
    ax.set_ylabel("idle weight (stacked)")
    ax.set_title("HoMM2 idle weights per monster")
    ax.legend(fontsize=7, ncols=n_idles, loc="upper left")
    return fig
