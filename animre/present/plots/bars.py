"""Bars: values per file, histograms by file, bit set rates and the claims board."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from ...research import verdict
from .base import new_axes, require_columns, short_label
from .colours import FAILS_COLOUR, HOLDS_COLOUR, UNTESTED_COLOUR

__all__ = ["bar_values", "histogram_by_file", "bit_rates", "claims_board"]


def bar_values(df: pd.DataFrame, columns: Sequence[str], *, label: str = "file",
               title: str = "", ylabel: str = "", ax: Axes | None = None) -> Figure:
    """Grouped bars of several columns per row (e.g. FRM walk/shoot/fly speeds).

    Examples
    --------
    >>> fig = bar_values(corpus.tables["frm"], ["walk_speed", "shoot_speed", "fly_speed"])
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    ['walk_speed', 'shoot_speed', 'fly_speed']
    """
    require_columns(df, list(columns) + [label], "bar_values")
    fig, ax = new_axes(ax, (max(6.0, 0.28 * len(df) + 2), 4.0))
    x = np.arange(len(df))
    w = 0.8 / max(1, len(columns))
    for i, c in enumerate(columns):
        ax.bar(x + (i - (len(columns) - 1) / 2) * w, df[c].to_numpy(dtype=float), width=w, label=c)
    ax.set_xticks(x, [short_label(v) for v in df[label]], rotation=90, fontsize=7)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7)
    return fig


def histogram_by_file(values: pd.DataFrame, *, column: str = "value", by: str = "file",
                      bins: int | Sequence[float] = 30, max_files: int = 12, title: str = "",
                      ax: Axes | None = None) -> Figure:
    """Stacked histogram of a column's values, one colour per file.

    Files beyond ``max_files`` are pooled as "other files".

    Examples
    --------
    >>> df = pd.DataFrame({"file": ["a", "a", "b"], "value": [1, 2, 2]})
    >>> fig = histogram_by_file(df, bins=[0.5, 1.5, 2.5])
    >>> len(fig.axes[0].containers)
    2
    """
    require_columns(values, [column, by], "histogram_by_file")
    fig, ax = new_axes(ax, (6.0, 3.2))
    data = values[[by, column]].dropna()
    num = pd.to_numeric(data[column], errors="coerce")
    data = data[num.notna()].assign(**{column: num[num.notna()].astype(float)})
    files = list(dict.fromkeys(data[by]))
    series, labels = [], []
    for f in files[:max_files]:
        series.append(data.loc[data[by] == f, column].to_numpy())
        labels.append(short_label(f))
    if len(files) > max_files:
        series.append(data.loc[data[by].isin(files[max_files:]), column].to_numpy())
        labels.append(f"{len(files) - max_files} other files")
    if series:
        ax.hist(series, bins=bins, stacked=True, label=labels)
        ax.legend(fontsize=6, ncols=2)
    ax.set_xlabel(column)
    ax.set_ylabel("count")
    ax.set_title(title or f"{column} by file")
    return fig


def bit_rates(rates: pd.DataFrame | pd.Series, *, title: str = "", ax: Axes | None = None) -> Figure:
    """Bar chart of how often each bit is set (from :func:`animre.research.profile`).

    ``rates`` is a Series indexed by bit number, or a DataFrame with columns
    ``bit`` and ``set_rate``.

    Examples
    --------
    >>> fig = bit_rates(pd.Series([0.5, 0.0, 1.0]))
    >>> [float(p.get_height()) for p in fig.axes[0].patches]
    [0.5, 0.0, 1.0]
    """
    if isinstance(rates, pd.DataFrame):
        require_columns(rates, ["bit", "set_rate"], "bit_rates")
        bits, r = rates["bit"].to_numpy(), rates["set_rate"].to_numpy(dtype=float)
    else:
        bits, r = np.asarray(rates.index), rates.to_numpy(dtype=float)
    fig, ax = new_axes(ax, (max(4.0, 0.25 * len(bits) + 2), 3.0))
    colours = [UNTESTED_COLOUR if x in (0.0, 1.0) else "#6fa8dc" for x in r]
    ax.bar(np.arange(len(bits)), r, color=colours)
    ax.set_xticks(np.arange(len(bits)), [str(b) for b in bits], fontsize=7)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("bit")
    ax.set_ylabel("set rate")
    ax.set_title(title or "bit set rates (grey: never or always set)")
    return fig


def claims_board(summary: pd.DataFrame, *, text: str = "claim", holds: str = "holds",
                 tested: str = "tested", group: str | None = "format", source: str | None = "source",
                 wrap: int = 60, title: str = "", ax: Axes | None = None) -> Figure:
    """Claims board: one bar per claim, the share of tested items where it holds (green) and fails (red).

    ``summary`` is :func:`animre.research.claims` output: one row per claim
    with the number of items where it ``holds`` out of the items ``tested``.
    Bars are shares, so a claim tested on 37 files and one tested on 1,258
    records read alike; beside each bar the verdict (``36/37 hold, 1 fails``)
    is written in red whenever any item fails, so a single failure stands out;
    the claim's full text is wrapped (never cut) with its source below it. A
    claim with no tested item is labelled "not tested".

    Examples
    --------
    >>> s = pd.DataFrame({"claim": ["a", "b"], "holds": [36, 1], "tested": [37, 3]})
    >>> fig = claims_board(s, group=None)
    >>> [round(float(p.get_width()), 3) for p in fig.axes[0].patches]
    [0.973, 0.333, 0.027, 0.667]
    >>> [t.get_text() for t in fig.axes[0].texts]
    ['  36/37 hold, 1 fails', '  1/3 hold, 2 fail']
    """
    require_columns(summary, [text, holds, tested], "claims_board")
    df = summary.reset_index(drop=True)
    names = []
    for _, r in df.iterrows():
        s = str(r[text])
        if group and group in df.columns and not pd.isna(r[group]):
            s = f"[{r[group]}] {s}"
        label = textwrap.fill(s, wrap)
        if source and source in df.columns and isinstance(r[source], str) and r[source]:
            label += "\n" + textwrap.fill(f"source: {r[source]}", wrap)
        names.append(label)
    lines = np.array([n.count("\n") + 1 for n in names], dtype=float)
    step = np.maximum(1.0, 0.45 * lines)
    yy = np.concatenate([[0.0], np.cumsum(step)[:-1]]) if len(df) else np.zeros(0)
    fig, ax = new_axes(ax, (10.0, max(2.5, 0.3 * float(step.sum()) + 1.2)))
    h = pd.to_numeric(df[holds], errors="coerce").fillna(0).to_numpy(dtype=float)
    n = pd.to_numeric(df[tested], errors="coerce").fillna(0).to_numpy(dtype=float)
    share = np.divide(h, n, out=np.zeros_like(h), where=n > 0)
    fail = np.where(n > 0, 1.0 - share, 0.0)
    ax.barh(yy, share, height=0.7, color=HOLDS_COLOUR, label="holds")
    ax.barh(yy, fail, left=share, height=0.7, color=FAILS_COLOUR, label="fails")
    ax.set_yticks(yy, names, fontsize=7)
    for tick, bad in zip(ax.get_yticklabels(), (n > 0) & (h < n)):
        if bad:
            tick.set_color(FAILS_COLOUR)
    ax.invert_yaxis()
    for i in range(len(df)):
        if n[i] == 0:
            ax.text(0, yy[i], " not tested (no data)", va="center", fontsize=7, color="#666666")
        else:
            bad = h[i] < n[i]
            ax.text(1.0, yy[i], "  " + verdict(int(h[i]), int(n[i])), va="center", fontsize=8,
                    color=FAILS_COLOUR if bad else HOLDS_COLOUR, fontweight="bold" if bad else "normal")
    ax.set_xlim(0, 1.45)
    ax.set_xticks([0, 0.25, 0.5, 0.75, 1.0], ["0", "25%", "50%", "75%", "100%"])
    ax.set_xlabel("share of tested items")
    # above the axes: inside them it covered the verdict of the last claim
    ax.legend(handles=[Patch(color=HOLDS_COLOUR, label="holds"), Patch(color=FAILS_COLOUR, label="fails")],
              fontsize=7, loc="lower right", bbox_to_anchor=(1.0, 1.0), ncols=2, frameon=False)
    ax.set_title(title or "claims from the notes, checked on the corpus", loc="left")
    return fig
