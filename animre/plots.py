"""Matplotlib figures of research output.

Every function here takes tables or arrays that the parser, the decoders or
:mod:`animre.research` already produced and only draws them: no statistic,
decoding or conversion is computed here. Each returns a
:class:`matplotlib.figure.Figure` (made without :mod:`matplotlib.pyplot`, so
no global state and no GUI backend is needed); in a notebook with
``%matplotlib inline`` the figure displays when it is the cell's last value.
Pass ``ax=`` to draw into an existing axes instead.

Examples
--------
>>> from animre import open_corpus, plots
>>> c = open_corpus("data/samples/frm", cache=False)
>>> fig = plots.idle_weights(c.tables["frm"])
>>> len(fig.axes[0].containers)  # one stacked bar series per idle
5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from .display import fmt
from .players import board
from .research import verdict

__all__ = [
    "idle_weights",
    "bar_values",
    "sequence_timeline",
    "bit_matrix",
    "key_curves",
    "contact_sheet",
    "palette_swatch",
    "byte_variation",
    "sprite_collisions",
    "claims_board",
    "histogram_by_file",
    "bit_rates",
    "reinterpretation",
    "compare_grid",
    "sprite_sheet",
    "sequence_strip",
]

HOLDS_COLOUR = "#3a9d5d"
FAILS_COLOUR = "#d1495b"
#: compare_grid writes the values of differing cells only up to this many cells.
MAX_CELL_TEXTS = 400
UNTESTED_COLOUR = "#bbbbbb"


def _axes(ax: Axes | None, figsize: tuple[float, float]) -> tuple[Figure, Axes]:
    if ax is not None:
        return ax.figure, ax
    fig = Figure(figsize=figsize, layout="constrained")
    return fig, fig.add_subplot()


IDLE_TOP = 2.1  #: the idle-weights plot's axis stops here; bars above it are marked with their sum


def _distinct_labels(files: Sequence[str]) -> list[str]:
    """Short labels (stems) for files, longer where two files share a stem (folder or container kept).

    Examples
    --------
    >>> _distinct_labels(["frm/GOBLNFRM.BIN", "agg/HEROES2.AGG/GOBLNFRM.BIN", "frm/ORC__FRM.BIN"])
    ['frm/GOBLNFRM', 'agg/HEROES2.AGG/GOBLNFRM', 'ORC__FRM']
    """
    short = [_short(f) for f in files]
    seen = pd.Series(short).value_counts()
    return [s if seen[s] == 1 else (f.rsplit(".", 1)[0] if "." in f.rsplit("/", 1)[-1] else f)
            for f, s in zip(files, short)]


def _short(name: str) -> str:
    """A file's short label: its base name without the extension."""
    base = str(name).rsplit("/", 1)[-1]
    return base.rsplit(".", 1)[0] if "." in base else base


def _require(df: pd.DataFrame, columns: Sequence[str], what: str) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        from .errors import UsageError

        raise UsageError(f"{what}: the table lacks column(s) {', '.join(missing)}; "
                         f"it has {', '.join(map(str, df.columns))}")


# --------------------------------------------------------------------------- FRM


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
    _require(frm, cols + [label], "idle_weights")
    fig, ax = _axes(ax, (max(6.0, 0.28 * len(frm) + 2), 4.0))
    names = _distinct_labels([str(v) for v in frm[label]])
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


def bar_values(df: pd.DataFrame, columns: Sequence[str], *, label: str = "file",
               title: str = "", ylabel: str = "", ax: Axes | None = None) -> Figure:
    """Grouped bars of several columns per row (e.g. FRM walk/shoot/fly speeds).

    Examples
    --------
    >>> fig = bar_values(corpus.tables["frm"], ["walk_speed", "shoot_speed", "fly_speed"])
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    ['walk_speed', 'shoot_speed', 'fly_speed']
    """
    _require(df, list(columns) + [label], "bar_values")
    fig, ax = _axes(ax, (max(6.0, 0.28 * len(df) + 2), 4.0))
    x = np.arange(len(df))
    w = 0.8 / max(1, len(columns))
    for i, c in enumerate(columns):
        ax.bar(x + (i - (len(columns) - 1) / 2) * w, df[c].to_numpy(dtype=float), width=w, label=c)
    ax.set_xticks(x, [_short(v) for v in df[label]], rotation=90, fontsize=7)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7)
    return fig


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
    _require(sequences, ["slot", "position", frame_column, "in_sequence"], "sequence_timeline")
    slots = sorted(sequences["slot"].unique())
    npos = int(sequences["position"].max()) + 1 if len(sequences) else 16
    fig, ax = _axes(ax, (8.0, max(3.0, 0.22 * len(slots) + 1)))
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


# --------------------------------------------------------------------------- bits


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
    fig, ax = _axes(ax, (max(4.0, 0.3 * bits + 2), max(2.5, min(12.0, 0.16 * len(v) + 1.5))))
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
        _require(rates, ["bit", "set_rate"], "bit_rates")
        bits, r = rates["bit"].to_numpy(), rates["set_rate"].to_numpy(dtype=float)
    else:
        bits, r = np.asarray(rates.index), rates.to_numpy(dtype=float)
    fig, ax = _axes(ax, (max(4.0, 0.25 * len(bits) + 2), 3.0))
    colours = [UNTESTED_COLOUR if x in (0.0, 1.0) else "#6fa8dc" for x in r]
    ax.bar(np.arange(len(bits)), r, color=colours)
    ax.set_xticks(np.arange(len(bits)), [str(b) for b in bits], fontsize=7)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("bit")
    ax.set_ylabel("set rate")
    ax.set_title(title or "bit set rates (grey: never or always set)")
    return fig


# --------------------------------------------------------------------------- GNT4


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
    _require(keys, [time], "key_curves")
    if not comps:
        _require(keys, list(components), "key_curves")
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


# --------------------------------------------------------------------------- FLC


def _rgb(image: np.ndarray, palette: np.ndarray | None) -> np.ndarray:
    """Indexed image + (256, 3) palette -> RGB array for display (a lookup, no decoding)."""
    img = np.asarray(image)
    if img.ndim == 3 or palette is None:
        return img
    pal = np.asarray(palette)
    if pal.dtype != np.uint8:
        pal = pal.astype(float)
        pal = pal / pal.max() if pal.max() > 1 else pal
    return pal[img]


def contact_sheet(frames: Sequence[np.ndarray] | Mapping[str, np.ndarray],
                  grid: Mapping[str, Sequence[int]] | Sequence[Sequence[int]] | None = None,
                  *, palette: np.ndarray | None = None, bbox: tuple[int, int, int, int] | None = None,
                  title: str = "", thumb: float = 1.1, transparent: Sequence[int] | str | None = None,
                  max_cols: int = 8, page: int = 0) -> Figure:
    """A direction x frame grid of decoded frames (Civ3 FlicAnim), capped and paged.

    Parameters
    ----------
    frames : dict direction -> frames, or sequence of frames
        Either the output of ``animre.decode.flc.civ3_directions`` (direction
        name -> array of shape (n, height, width)), one row per direction; or
        decoded frames in file order (``decode_frames``) with ``grid`` saying
        which frame goes where.
    grid : dict direction -> frame indices, or list of index lists, optional
        Only with a sequence of frames; row = direction.
    palette : (256, 3) array, optional
        Palette for indexed frames.
    bbox : (x, y, width, height), optional
        A rectangle drawn on every cell (the FlicAnim bounding box on the canvas).
    transparent : ``"civ3"`` or sequence of int, optional
        Indexed frames: ``"civ3"`` colours them as the game draws units
        (:func:`animre.decode.flc.civ3_rgba`: transparent and shadow indices);
        a sequence of indices makes those indices transparent. Transparent
        pixels show a checkerboard.
    max_cols, page : int
        At most ``max_cols`` frames per row; ``page`` picks which columns
        (page 1 = frames ``max_cols`` .. ``2 * max_cols - 1``). The title says
        which frames are shown and how many pages there are.

    Examples
    --------
    >>> fs = [np.full((4, 4), i, np.uint8) for i in range(6)]
    >>> fig = contact_sheet(fs, {"SW": [0, 1, 2], "S": [3, 4, 5]})
    >>> len(fig.axes)
    6
    >>> fig = contact_sheet({"SW": np.zeros((30, 4, 4), np.uint8)}, page=1)
    >>> len(fig.axes), fig.axes[0].get_title()
    (8, '8')
    """
    if isinstance(frames, Mapping):
        rows = [(str(k), list(v)) for k, v in frames.items()]
    else:
        if grid is None:
            grid = [list(range(len(frames)))]
        items = list(grid.items()) if isinstance(grid, Mapping) else [(str(i), r) for i, r in enumerate(grid)]
        rows = [(str(k), [frames[i] for i in idxs]) for k, idxs in items]
    total = max((len(r) for _, r in rows), default=1)
    max_cols = max(1, int(max_cols))
    pages = max(1, -(-total // max_cols))
    if not 0 <= page < pages:
        from .errors import UsageError

        raise UsageError(f"contact_sheet: page {page} of {pages} (pages 0..{pages - 1}, {max_cols} frames each)")
    first = page * max_cols
    rows = [(name, imgs[first:first + max_cols]) for name, imgs in rows]
    ncols = max((len(r) for _, r in rows), default=1)
    table = None
    if palette is not None and transparent is not None:
        pal = np.asarray(palette, dtype=np.uint8)
        if isinstance(transparent, str):
            from .decode.flc import civ3_rgba

            table = civ3_rgba(np.arange(256, dtype=np.uint8), pal)
        else:
            table = np.concatenate([pal, np.full((256, 1), 255, np.uint8)], axis=1)
            table[list(transparent)] = 0
    # fixed margins instead of constrained layout: a 64-cell sheet renders several times faster
    wi, hi = max(3.0, thumb * ncols + 0.5), max(2.0, thumb * len(rows) + 0.6)
    fig = Figure(figsize=(wi, hi))
    axes = fig.subplots(max(1, len(rows)), max(1, ncols), squeeze=False,
                        gridspec_kw={"left": 0.45 / wi, "right": 1 - 0.05 / wi, "bottom": 0.05 / hi,
                                     "top": 1 - 0.55 / hi, "wspace": 0.08, "hspace": 0.12})
    for i, (name, imgs) in enumerate(rows):
        for j in range(ncols):
            a = axes[i, j]
            a.set_xticks([])
            a.set_yticks([])
            if j >= len(imgs):
                a.set_axis_off()
                continue
            img = np.asarray(imgs[j])
            if table is not None and img.ndim == 2:
                a.imshow(board(*img.shape), interpolation="nearest")
                a.imshow(table[img], interpolation="nearest")
            else:
                a.imshow(_rgb(img, palette), interpolation="nearest")
            if bbox is not None:
                x, y, w, h = bbox
                a.add_patch(Rectangle((x - 0.5, y - 0.5), w, h, fill=False, edgecolor="red", linewidth=0.6))
            if i == 0:
                a.set_title(str(first + j), fontsize=7)
            if j == 0:
                a.set_ylabel(str(name), fontsize=8)
    shown = f"frames {first}-{first + ncols - 1} of {total}, page {page + 1} of {pages}" if pages > 1 else ""
    fig.suptitle((title or "directions x frames") + (f" ({shown})" if shown else ""))
    return fig


def palette_swatch(palette: np.ndarray, *, title: str = "palette",
                   marks: Mapping[str, Sequence[int]] | str | None = None, ax: Axes | None = None) -> Figure:
    """A 16 x 16 grid of the 256 palette colours (index = row * 16 + column).

    ``marks`` outlines groups of indices (name -> indices) with a legend;
    ``"civ3"`` marks the Civ3 unit palette roles: civilization colours,
    shadows and transparent indices.

    Examples
    --------
    >>> fig = palette_swatch(np.zeros((256, 3), np.uint8))
    >>> fig.axes[0].images[0].get_array().shape[:2]
    (16, 16)
    >>> fig = palette_swatch(np.zeros((256, 3), np.uint8), marks="civ3")
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()][0]
    'civilization colours (40)'
    """
    pal = np.asarray(palette)
    fig, ax = _axes(ax, (4.2, 4.2) if marks else (3.5, 3.5))
    n = len(pal)
    padded = np.zeros((256, pal.shape[1]), dtype=pal.dtype)
    padded[:n] = pal[:256]
    ax.imshow(_rgb(np.arange(256).reshape(16, 16), padded), interpolation="nearest")
    ax.set_xticks(range(16), [f"{i:X}" for i in range(16)], fontsize=6)
    ax.set_yticks(range(16), [f"{i:X}0" for i in range(16)], fontsize=6)
    if isinstance(marks, str):
        from .decode.flc import CIV3_CIV_COLOURS, CIV3_SHADOWS, CIV3_TRANSPARENT

        marks = {"civilization colours": CIV3_CIV_COLOURS, "shadows": CIV3_SHADOWS,
                 "transparent": CIV3_TRANSPARENT}
    if marks:
        colours = ["#00e5ff", "#ffcc00", "#ff2d55", "#7cff00"]
        handles = []
        for k, (name, idx) in enumerate(marks.items()):
            c = colours[k % len(colours)]
            for i in idx:
                ax.add_patch(Rectangle((i % 16 - 0.45, i // 16 - 0.45), 0.9, 0.9, fill=False, edgecolor=c,
                                       linewidth=1.2))
            handles.append(Patch(facecolor="none", edgecolor=c, label=f"{name} ({len(idx)})"))
        ax.legend(handles=handles, fontsize=6, loc="upper center", bbox_to_anchor=(0.5, -0.04), ncols=2)
    ax.set_title(title)
    return fig


# --------------------------------------------------------------------------- bytes


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
    fig, ax = _axes(ax, (max(6.0, min(18.0, 0.05 * matrix.shape[1] + 3)),
                         max(2.5, min(12.0, 0.18 * matrix.shape[0] + 1.5))))
    const = np.where(varies[None, :], np.nan, vals)
    vary = np.where(varies[None, :], vals, np.nan)
    ax.imshow(const, cmap=ListedColormap(["#dddddd"]), vmin=0, vmax=255, aspect="auto",
              interpolation="nearest")
    im = ax.imshow(vary, cmap="viridis", vmin=0, vmax=255, aspect="auto", interpolation="nearest")
    fig.colorbar(im, ax=ax, label="byte value (varying bytes)", shrink=0.8)
    if matrix.shape[0] <= max_labels:
        ax.set_yticks(np.arange(matrix.shape[0]), [_short(i) for i in matrix.index], fontsize=6)
    cols = list(matrix.columns)
    step = max(1, len(cols) // 32)
    ax.set_xticks(np.arange(0, len(cols), step), [str(c) for c in cols[::step]], rotation=90, fontsize=6)
    ax.set_xlabel("byte offset")
    ax.set_title(title or f"byte variation across files ({int(varies.sum())} of {len(varies)} bytes vary)")
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
    _require(values, [column, by], "histogram_by_file")
    fig, ax = _axes(ax, (6.0, 3.2))
    data = values[[by, column]].dropna()
    num = pd.to_numeric(data[column], errors="coerce")
    data = data[num.notna()].assign(**{column: num[num.notna()].astype(float)})
    files = list(dict.fromkeys(data[by]))
    series, labels = [], []
    for f in files[:max_files]:
        series.append(data.loc[data[by] == f, column].to_numpy())
        labels.append(_short(f))
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
        from .errors import UsageError

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
        axes[-1].set_xticks(x, [_short(v) for v in table[label]], rotation=90, fontsize=6)
    axes[-1].set_xlabel("occurrence")
    fig.suptitle(title or "one byte range, several readings")
    return fig


# --------------------------------------------------------------------------- OMF


def sprite_collisions(image: np.ndarray, points: pd.DataFrame, *, origin: tuple[float, float] = (0, 0),
                      palette: np.ndarray | None = None, x: str = "x", y: str = "y",
                      title: str = "", ax: Axes | None = None) -> Figure:
    """An OMF sprite drawn at its position with the collision points of its frame.

    Parameters
    ----------
    image : 2-D indexed or 3-D RGB(A) array
        The decoded sprite (``animre.decode.omf_sprites``); transparent
        pixels may be masked or NaN.
    points : DataFrame
        Collision coordinates of that frame (``af_coords`` rows) with
        columns ``x`` and ``y`` in the animation's coordinate space.
    origin : (x, y)
        Where the sprite's top-left corner sits in that space (the sprite
        record's x and y).

    Examples
    --------
    >>> fig = sprite_collisions(np.zeros((4, 4)), pd.DataFrame({"x": [1], "y": [2]}))
    >>> fig.axes[0].collections[0].get_offsets().tolist()
    [[1.0, 2.0]]
    """
    _require(points, [x, y], "sprite_collisions")
    img = np.asarray(image)
    h, w = img.shape[:2]
    fig, ax = _axes(ax, (4.5, 4.5))
    ox, oy = origin
    shown = _rgb(img, palette) if img.ndim == 2 and palette is not None else img
    ax.imshow(shown, extent=(ox - 0.5, ox + w - 0.5, oy + h - 0.5, oy - 0.5),
              cmap=None if shown.ndim == 3 else "gray", interpolation="nearest")
    ax.scatter(points[x].to_numpy(dtype=float), points[y].to_numpy(dtype=float), s=14,
               color="#ff3355", edgecolor="white", linewidth=0.5, zorder=3, label="collision points")
    ax.add_patch(Rectangle((ox - 0.5, oy - 0.5), w, h, fill=False, edgecolor="#888888", linewidth=0.6))
    ax.set_aspect("equal")
    if not ax.yaxis_inverted():
        ax.invert_yaxis()
    ax.legend(fontsize=7, loc="best")
    ax.set_title(title or f"sprite {w}x{h} at ({ox}, {oy}), {len(points)} collision points")
    return fig


# --------------------------------------------------------------------------- claims


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
    import textwrap

    _require(summary, [text, holds, tested], "claims_board")
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
    fig, ax = _axes(ax, (10.0, max(2.5, 0.3 * float(step.sum()) + 1.2)))
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
    fig, ax = _axes(ax, (max(4.0, cell * len(cols) + 2.5), max(2.0, min(0.28, cell) * len(v) + 1.2)))
    ax.imshow(grid, cmap=ListedColormap(["#eeeeee", "#cfe8d5", FAILS_COLOUR]), vmin=0, vmax=2,
              aspect="auto", interpolation="nearest")
    ax.set_yticks(range(len(v)), [_short(f) for f in v.index], fontsize=7)
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


def _draw_rgba(a: Axes, rgba: np.ndarray) -> None:
    h, w = rgba.shape[:2]
    a.imshow(board(max(h, 1), max(w, 1)), interpolation="nearest")
    if h and w:
        a.imshow(rgba, interpolation="nearest")
    a.set_xticks([])
    a.set_yticks([])


def sprite_sheet(images: Sequence[np.ndarray], *, labels: Sequence[str] | None = None, columns: int = 12,
                 title: str = "", thumb: float = 0.9) -> Figure:
    """A grid of RGBA sprites over a checkerboard (transparent pixels show the board, shadows darken it).

    Parameters
    ----------
    images : sequence of (h, w, 4) uint8 arrays
        E.g. :func:`animre.decode.icn.sprite_rgba` of every ICN sprite.
    labels : sequence of str, optional
        One per image (default: its position).

    Examples
    --------
    >>> fig = sprite_sheet([np.zeros((3, 2, 4), np.uint8)] * 5, columns=4)
    >>> len(fig.axes)
    8
    """
    n = len(images)
    cols = max(1, min(columns, n))
    rows = max(1, -(-n // cols))
    fig = Figure(figsize=(max(3.0, thumb * cols), max(1.5, thumb * rows)), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    for k, a in enumerate(axes.ravel()):
        if k >= n:
            a.set_axis_off()
            continue
        _draw_rgba(a, np.asarray(images[k]))
        a.set_title(str(labels[k]) if labels is not None else str(k), fontsize=6)
    fig.suptitle(title or f"{n} sprites")
    return fig


def sequence_strip(frames: np.ndarray, info: pd.DataFrame, *, title: str = "", thumb: float = 1.4) -> Figure:
    """The frames of an FRM sequence side by side on their common canvas, the anchor marked.

    ``frames`` and ``info`` come from :func:`animre.decode.icn.sequence_frames`;
    each panel is titled with the frame id, the FRM X offset and the interval.

    Examples
    --------
    >>> info = pd.DataFrame({"frame_id": [4, 5], "x_offset": [0, 3], "anchor_x": [1, 1],
    ...                      "anchor_y": [2, 2], "interval_ms": [120.0, 120.0]})
    >>> len(sequence_strip(np.zeros((2, 3, 3, 4), np.uint8), info).axes)
    2
    """
    _require(info, ["frame_id", "x_offset", "anchor_x", "anchor_y", "interval_ms"], "sequence_strip")
    n = max(1, len(frames))
    fig = Figure(figsize=(max(3.0, thumb * n), thumb * 1.4), layout="constrained")
    axes = fig.subplots(1, n, squeeze=False)[0]
    for k, a in enumerate(axes):
        if k >= len(frames):
            a.set_axis_off()
            continue
        r = info.iloc[k]
        _draw_rgba(a, frames[k])
        a.plot([r["anchor_x"]], [r["anchor_y"]], marker="+", color="red", markersize=8)
        a.set_title(f"id {int(r['frame_id'])}  dx {int(r['x_offset']):+d}\n{r['interval_ms']:.0f} ms", fontsize=6)
    fig.suptitle(title or "sequence")
    return fig
