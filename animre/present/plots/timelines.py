"""Along time or file order: sequence timelines, key curves, readings of bytes under other types."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ...base.errors import UsageError
from .base import new_axes, require_columns, short_label
from .colours import FAILS_COLOUR

__all__ = ["sequence_timeline", "key_curves", "reinterpretation"]


def sequence_timeline(sequences: pd.DataFrame, *, slot_label: str = "animation_name",
                      frame_column: str = "frame_ids", title: str = "", ax: Axes | None = None) -> Figure:
    """Frame sequences of one file as timelines: one row per slot, one cell per frame.

    ``sequences`` is a slice of ``frm_frames`` for one file (columns slot,
    position, ``frame_column``, in_sequence; a ``slot_label`` column, e.g.
    joined from ``frm_sequences``, names the rows). Cells inside the sequence
    show the frame id; positions past the count byte are hatched when they
    still hold a frame id (count/fill disagreement) and left blank when 0xFF.

    Examples
    --------
    >>> fr = c.tables["frm_frames"].query("file == 'frm/GOBLNFRM.BIN'")
    >>> fig = sequence_timeline(fr)
    >>> len(fig.axes[0].get_yticklabels())  # one row per slot
    34
    """
    require_columns(sequences, ["slot", "position", frame_column, "in_sequence"], "sequence_timeline")
    slots = sorted(sequences["slot"].unique())
    npos = int(sequences["position"].max()) + 1 if len(sequences) else 16
    fig, ax = new_axes(ax, (8.0, max(3.0, 0.22 * len(slots) + 1)))
    row_of = {s: i for i, s in enumerate(slots)}
    for _, r in sequences.iterrows():
        y, x, fid = row_of[r["slot"]], int(r["position"]), r[frame_column]
        if bool(r["in_sequence"]):
            ax.add_patch(Rectangle((x, y), 1, 1, facecolor="#6fa8dc", edgecolor="white"))
            ax.text(x + 0.5, y + 0.5, str(int(fid)), ha="center", va="center", fontsize=6)
        elif fid is not None and not pd.isna(fid) and int(fid) != 0xFF:
            ax.add_patch(Rectangle((x, y), 1, 1, fill=False, edgecolor=FAILS_COLOUR, hatch="///"))
            ax.text(x + 0.5, y + 0.5, str(int(fid)), ha="center", va="center", fontsize=6,
                    color=FAILS_COLOUR)
    labels = slots
    if slot_label in sequences.columns:
        first = sequences.drop_duplicates("slot").set_index("slot")[slot_label]
        labels = [f"{s} {first.get(s, '')}" for s in slots]
    ax.set_xlim(0, npos)
    ax.set_ylim(len(slots), 0)
    ax.set_yticks(np.arange(len(slots)) + 0.5, labels, fontsize=6)
    ax.set_xticks(np.arange(npos) + 0.5, [str(i) for i in range(npos)], fontsize=6)
    ax.set_xlabel("position in sequence")
    ax.set_title(title or "frame sequences (hatched: frame id after the count byte)")
    return fig


def key_curves(keys: pd.DataFrame, *, time: str = "time",
               components: Sequence[str] = ("x", "y", "z", "w"), group: str | None = "track",
               group_labels: Mapping[Any, str] | None = None,
               title: str = "", ax: Axes | None = None) -> Figure:
    """Key values over time for one animation + bone (GNT4 ``mot_keys`` rows).

    ``keys`` holds the already selected and decoded keys: one row per key
    with a time column and one column per component. With ``group`` (e.g.
    the track: one bone has a translate, a rotate and a scale track) each
    group gets its own subplot, titled by ``group_labels`` (e.g. track ->
    kind). Lines join the keys linearly, as the game interpolates them.

    Examples
    --------
    >>> k = pd.DataFrame({"time": [0, .5, 1], "x": [0, 1, 0], "y": [1, 1, 1]})
    >>> fig = key_curves(k, components=["x", "y"], group=None)
    >>> fig.axes[0].lines[0].get_ydata().tolist()
    [0.0, 1.0, 0.0]
    """
    comps = [c for c in components if c in keys.columns]
    require_columns(keys, [time], "key_curves")
    if not comps:
        require_columns(keys, list(components), "key_curves")
    groups: list[tuple[Any, pd.DataFrame]]
    if group and group in keys.columns:
        groups = list(keys.groupby(group, sort=True))
    else:
        groups = [(None, keys)]
    if ax is not None:
        fig, axes = ax.figure, [ax] * len(groups)
    else:
        fig = Figure(figsize=(7.0, 2.4 * max(1, len(groups))), layout="constrained")
        axes = fig.subplots(max(1, len(groups)), 1, sharex=True, squeeze=False)[:, 0].tolist()
    for a, (g, df) in zip(axes, groups, strict=True):
        df = df.sort_values(time)
        t = df[time].to_numpy(dtype=float)
        for c in comps:
            a.plot(t, df[c].to_numpy(dtype=float), marker="o", markersize=3, label=c)
        a.set_ylabel("value" if g is None else str((group_labels or {}).get(g, f"{group} {g}")))
        a.legend(fontsize=7, loc="upper right")
        a.grid(alpha=0.3)
    axes[-1].set_xlabel(f"{time} (s)")
    fig.suptitle(title or "key curves")
    return fig


def reinterpretation(table: pd.DataFrame, *, types: Sequence[str] | None = None, label: str = "file",
                     title: str = "", ax: Axes | None = None) -> Figure:
    """Values of one byte range read as several types, one line/subplot per type.

    ``table`` is the output of :func:`animre.research.reinterpret`: one row
    per occurrence (file/record) and one column per candidate type.

    Examples
    --------
    >>> t = pd.DataFrame({"file": ["a", "b"], "u1": [1, 2], "s1": [1, 2]})
    >>> fig = reinterpretation(t, types=["u1", "s1"])
    >>> len(fig.axes)
    2
    """
    types = [t for t in (types or []) if t in table.columns]
    if not types:
        raise UsageError("reinterpretation: none of the candidate types is a column of the table")
    if ax is not None:
        fig, axes = ax.figure, [ax] * len(types)
    else:
        fig = Figure(figsize=(7.0, 1.9 * len(types) + 0.6), layout="constrained")
        axes = fig.subplots(len(types), 1, sharex=True, squeeze=False)[:, 0].tolist()
    x = np.arange(len(table))
    for a, t in zip(axes, types, strict=True):
        y = pd.to_numeric(table[t], errors="coerce").to_numpy(dtype=float)
        a.plot(x, y, marker=".", linestyle="-", linewidth=0.6, label=t)
        a.set_ylabel(t)
        a.grid(alpha=0.3)
    if label in table.columns and len(table) <= 40:
        axes[-1].set_xticks(x, [short_label(v) for v in table[label]], rotation=90, fontsize=6)
    axes[-1].set_xlabel("occurrence")
    fig.suptitle(title or "one byte range, several readings")
    return fig
