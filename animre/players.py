"""Players: watch an animation in a notebook, frame by frame, at the file's own timing.

A player is an ipywidgets ``Play`` button linked to a frame slider and an
image: a Civ3 FLC direction (:func:`flc_player`, timed by the FLC header
speed), an OMF move (:func:`omf_player`: its sprites with each frame's
collision points, timed by the move's animation string) or a GNT4
animation's key curves with a moving time cursor (:func:`key_curve_player`).
Frames are decoded by :mod:`animre.decode`; this module only composes and
shows them.

Pictures are shown at native resolution: indexed frames become RGBA, are
enlarged by an integer factor with nearest-neighbour (no smoothing), drawn
over a checkerboard where they are transparent, and the image widget is
given its exact pixel size so the browser does not rescale it. Every image
player exports its frames as GIF or APNG (:meth:`Player.export`).

Examples
--------
>>> from animre.players import flc_player
>>> p = flc_player("data/samples/flc/Warrior/Run.flc", direction="S")
>>> len(p.frames), p.durations[0], p.play.interval
(6, 88.0, 88)
"""

from __future__ import annotations

import io
import math
import os
import re
import struct
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib import colormaps

from .display import fmt
from .errors import UsageError

__all__ = [
    "Player",
    "play_steps",
    "flc_player",
    "omf_player",
    "key_curve_player",
    "sequence_player",
    "anim_string_frames",
    "index_palette",
    "omf_zoom",
    "checkerboard",
    "board",
    "image_png",
    "figure_png",
    "show_png",
]

#: The longer side (pixels) an OMF frame is enlarged to at most (:func:`omf_zoom`).
OMF_VIEW_PX = 720
#: Transparent pixels around the union of an OMF move's sprites and collision points.
OMF_MARGIN = 4
#: Colour of an OMF collision point.
COLLISION_RGBA = (255, 40, 70, 255)
#: Milliseconds per OMF tick (the openomf engine's static tick; the game's speed setting slows it down).
OMF_MS_PER_TICK = 10
#: The shortest Play step (ms): durations that differ are played in steps of their common divisor, not below this.
MIN_STEP_MS = 10
CHECKER = ((204, 204, 204), (255, 255, 255))
#: Colour of the time cursor of :func:`key_curve_player` (none of matplotlib's first line colours).
CURSOR_RGB = (120, 0, 170)


# ============================================================================ pictures at native size


def checkerboard(rgba: np.ndarray, cell: int = 4) -> np.ndarray:
    """An RGBA image composited over a grey/white checkerboard: (height, width, 3) uint8.

    Examples
    --------
    >>> img = np.zeros((1, 2, 4), np.uint8); img[0, 1] = (9, 9, 9, 255)
    >>> checkerboard(img).tolist()
    [[[204, 204, 204], [9, 9, 9]]]
    """
    a = np.asarray(rgba)
    if a.ndim != 3 or a.shape[2] not in (3, 4):
        raise UsageError(f"expected an RGB(A) image of shape (height, width, 3|4), got {a.shape}")
    if a.shape[2] == 3:
        return a.astype(np.uint8)
    alpha = a[..., 3:4].astype(np.float32) / 255
    out = a[..., :3].astype(np.float32) * alpha + board(*a.shape[:2], cell=cell) * (1 - alpha)
    return np.rint(out).astype(np.uint8)


def board(h: int, w: int, cell: int = 4) -> np.ndarray:
    """The grey/white checkerboard transparent pixels are drawn over: (h, w, 3) uint8.

    Examples
    --------
    >>> board(1, 5, cell=4)[0, :, 0].tolist()
    [204, 204, 204, 204, 255]
    """
    yy, xx = np.indices((h, w))
    on = (((yy // cell) + (xx // cell)) % 2 == 0)[..., None]
    return np.where(on, np.array(CHECKER[0], np.uint8), np.array(CHECKER[1], np.uint8))


def image_png(image: np.ndarray, scale: int = 1, *, checker: bool = True) -> bytes:
    """PNG bytes of an RGB(A) image enlarged ``scale`` times with nearest-neighbour.

    With ``checker`` transparent pixels are drawn over a checkerboard of
    8-pixel cells (of the enlarged picture), else alpha is kept in the PNG.

    Examples
    --------
    >>> from PIL import Image
    >>> png = image_png(np.zeros((3, 5, 4), np.uint8), 2)
    >>> Image.open(io.BytesIO(png)).size
    (10, 6)
    """
    from PIL import Image

    a = np.asarray(image)
    scale = int(scale)
    if scale < 1:
        raise UsageError(f"scale must be a whole number >= 1, got {scale}")
    if scale > 1:
        a = np.repeat(np.repeat(a, scale, axis=0), scale, axis=1)
    if checker:
        a = checkerboard(a, cell=8 if scale > 1 else 4)
    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(a.astype(np.uint8))).save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def figure_png(fig: Any, dpi: int = 100) -> bytes:
    """PNG bytes of a matplotlib figure at ``dpi`` (its size in inches x dpi pixels, nothing rescaled).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> figure_png(Figure(figsize=(2, 1)))[:4]
    b'\\x89PNG'
    """
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def _png_size(png: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    if len(png) < 24 or png[:8] != b"\x89PNG\r\n\x1a\n":
        return 0, 0
    return struct.unpack(">II", png[16:24])


def show_png(image_widget: Any, png: bytes) -> None:
    """Put PNG bytes in an ipywidgets ``Image`` at their exact pixel size (no browser rescaling).

    Examples
    --------
    >>> import ipywidgets as w
    >>> im = w.Image(format="png"); show_png(im, image_png(np.zeros((3, 5, 3), np.uint8), 2))
    >>> im.layout.width, im.layout.height
    ('10px', '6px')
    """
    image_widget.value = png
    w, h = _png_size(png)
    if w and h:
        image_widget.layout.width = f"{w}px"
        image_widget.layout.height = f"{h}px"
        image_widget.layout.min_width = f"{w}px"
        image_widget.layout.object_fit = "none"
    else:
        image_widget.layout.width = image_widget.layout.height = image_widget.layout.min_width = None


def _auto_scale(h: int, w: int, target: int = 480) -> int:
    return max(1, min(8, target // max(1, h, w)))


# ============================================================================ the player


class Player:
    """Play button + frame slider + picture; one frame per step, each shown for its own duration.

    The Play button advances in steps of a fixed ``play.interval`` (the
    greatest common divisor of the frame durations: one step per frame when
    every frame lasts the same, one OMF tick when they differ) and each frame
    spans as many steps as its duration holds. The browser's timer alone
    decides when a step comes, so every frame is shown exactly its own time;
    changing the interval from the kernel as frames come would reach the
    browser only after it had scheduled the next step with the old one (each
    frame then lasts the previous frame's time).

    Attributes
    ----------
    widget : ipywidgets.VBox
        The container (CSS class ``animre-player``).
    play : ipywidgets.Play
        Steps ``0 .. len(steps) - 1`` every ``play.interval`` ms.
    slider : ipywidgets.IntSlider
        The frame number (follows ``play``; dragging it moves ``play`` to the frame's first step).
    image : ipywidgets.Image
        The current frame as PNG at its exact pixel size.
    frames : list of numpy.ndarray or None
        RGBA frames in play order (image players; None for the curve player).
    durations : list of float
        Milliseconds per frame, from the file.
    steps : list of int
        Play steps per frame.
    """

    def __init__(self, n: int, render: Callable[[int], bytes], durations: Sequence[float], *, title: str = "",
                 caption: Callable[[int], str] | None = None, frames: list[np.ndarray] | None = None,
                 extra: Sequence[Any] = (), steps: Sequence[int] | None = None, tick_ms: float | None = None):
        import ipywidgets as w

        if n < 1:
            raise UsageError("nothing to play: no frames")
        if len(durations) != n:
            raise UsageError(f"{n} frames but {len(durations)} durations")
        self.n = n
        self.frames = frames
        self.durations = [float(d) for d in durations]
        if steps is None or tick_ms is None:
            steps, tick_ms = play_steps(self.durations)
        if len(steps) != n or any(int(k) < 0 for k in steps) or not sum(steps):
            raise UsageError(f"{n} frames need one whole number of steps each, not {list(steps)}")
        self.steps = [int(k) for k in steps]
        self._frame_of = np.repeat(np.arange(n), self.steps)
        self._first = np.concatenate([[0], np.cumsum(self.steps)[:-1]]).astype(int)
        self._render = render
        self._caption = caption
        self._pngs: dict[int, bytes] = {}
        self._stepping = False
        self.play = w.Play(value=0, min=0, max=len(self._frame_of) - 1, step=1, interval=max(1, round(tick_ms)),
                           description="play", show_repeat=True)
        self.play.repeat = True
        self.slider = w.IntSlider(value=0, min=0, max=n - 1, description="frame", continuous_update=True)
        self.image = w.Image(format="png")
        self.label = w.HTML()
        self.play.observe(self._on_step, "value")
        self.slider.observe(self._on_frame, "value")
        self.widget = w.VBox([w.HTML(f"<b>{title}</b>") if title else w.HTML(),
                              w.HBox([self.play, self.slider, self.label]), self.image, *extra])
        self.widget.add_class("animre-player")
        self.show(0)

    @property
    def schedule(self) -> pd.DataFrame:
        """What the Play button shows: per frame its steps, first step, start and length in ms.

        Examples
        --------
        >>> p = Player(3, lambda i: b"", [30, 80, 170])
        >>> p.schedule["ms"].tolist(), p.play.interval
        ([30, 80, 170], 10)
        """
        ms = self.play.interval
        return pd.DataFrame({"frame": range(self.n), "steps": self.steps, "first_step": self._first,
                             "start_ms": self._first * ms, "ms": np.asarray(self.steps) * ms})

    def _on_step(self, change) -> None:
        i = int(self._frame_of[min(max(int(change["new"]), 0), len(self._frame_of) - 1)])
        if self.slider.value != i:
            self._stepping = True
            try:
                self.slider.value = i
            finally:
                self._stepping = False

    def _on_frame(self, change) -> None:
        i = int(change["new"])
        self._draw(i)
        if not self._stepping and self.steps[i] and int(self._frame_of[self.play.value]) != i:
            self.play.value = int(self._first[i])  # a drag: play on from the frame's first step

    def __len__(self) -> int:
        return self.n

    def __iter__(self) -> Iterator[tuple[int, float]]:
        """(frame number, milliseconds) in play order."""
        return iter(enumerate(self.durations))

    def png(self, i: int) -> bytes:
        """The PNG shown for frame ``i`` (rendered once, then cached)."""
        if not 0 <= i < self.n:
            raise UsageError(f"no frame {i}; the player has {self.n}")
        if i not in self._pngs:
            self._pngs[i] = self._render(i)
        return self._pngs[i]

    def show(self, i: int) -> Player:
        """Show frame ``i`` (moves the slider, and the Play button to the frame's first step)."""
        i = int(i)
        if self.slider.value != i:
            self.slider.value = i  # the observer draws it
            return self
        self._draw(i)
        return self

    def _draw(self, i: int) -> None:
        show_png(self.image, self.png(i))
        extra = self._caption(i) if self._caption else ""
        self.label.value = f"frame {i} (0-{self.n - 1}), {self.durations[i]:.4g} ms {extra}"  # as the slider counts

    def export(self, path: str | os.PathLike) -> Path:
        """Write the frames as an animated GIF or APNG (by the suffix) with their durations.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> p = flc_player("data/samples/flc/Warrior/Run.flc", direction="S")
        >>> p.export(pathlib.Path(tempfile.mkdtemp()) / "run_s.png").suffix
        '.png'
        """
        from .export import export_animation

        if self.frames is None:
            raise UsageError("this player shows a figure, not image frames: nothing to export")
        return export_animation(self.frames, path, self.durations)


def play_steps(durations: Sequence[float]) -> tuple[list[int], float]:
    """Steps per frame and the step length (ms) that play ``durations`` exactly.

    Equal durations: one step each. Whole milliseconds: steps of their
    greatest common divisor (at least :data:`MIN_STEP_MS`; shorter ones are
    rounded to it). Otherwise steps of the shortest duration, rounded.

    Examples
    --------
    >>> play_steps([88.0] * 3), play_steps([30, 80, 170]), play_steps([40, 100])
    (([1, 1, 1], 88.0), ([3, 8, 17], 10), ([2, 5], 20))
    """
    d = [float(x) for x in durations]
    if not d or len(set(d)) == 1:
        return [1] * len(d), (d[0] if d else 1.0)
    if all(abs(x - round(x)) < 1e-9 for x in d):
        g = max(MIN_STEP_MS, math.gcd(*(int(round(x)) for x in d)))
    else:
        g = max(MIN_STEP_MS, min(x for x in d if x > 0))
    return [max(0, int(round(x / g))) for x in d], g


def _image_player(frames: list[np.ndarray], durations: Sequence[float], *, title: str, scale: int | None,
                  caption: Callable[[int], str] | None = None, extra: Sequence[Any] = ()) -> Player:
    h, w = frames[0].shape[:2]
    k = scale or _auto_scale(h, w)
    return Player(len(frames), lambda i: image_png(frames[i], k), durations, title=title, caption=caption,
                  frames=frames, extra=extra)


# ============================================================================ HoMM2 FRM sequences


def sequence_player(frames: Any, info: pd.DataFrame | None = None, *, interval_ms: float | None = None,
                    title: str = "", scale: int | None = None) -> Player:
    """Play RGBA frames of one timing, e.g. an FRM sequence from :func:`animre.decode.icn.sequence_frames`.

    The interval is ``interval_ms`` or else ``info``'s ``interval_ms`` per
    frame (the engine's timing of that FRM sequence: walk or shoot speed
    spread over its frames, else the battle frame or idle delay); the
    caption shows the frame's ``info`` row (frame id, X offset, anchor).

    Examples
    --------
    >>> p = sequence_player(np.zeros((4, 3, 5, 4), np.uint8), interval_ms=100)
    >>> len(p), p.play.interval, p.durations[-1]
    (4, 100, 100.0)
    """
    frames = list(frames)
    if interval_ms is not None:
        durations = [float(interval_ms)] * len(frames)
    elif info is not None and "interval_ms" in info.columns and len(info) == len(frames):
        durations = [float(v) for v in info["interval_ms"]]
    else:
        durations = [120.0] * len(frames)

    def caption(i: int) -> str:
        if info is None or i >= len(info):
            return ""
        return "; " + ", ".join(f"{c} {fmt(info[c].iloc[i])}" for c in info.columns if c != "interval_ms")

    return _image_player(frames, durations, title=title, scale=scale, caption=caption)


# ============================================================================ FLC


def _palette_legend(palette: np.ndarray) -> str:
    """HTML strip of the Civ3 palette roles: civilization colours, shadows, transparent."""
    from .decode.flc import CIV3_CIV_COLOURS, CIV3_SHADOWS, CIV3_TRANSPARENT

    def cells(idx: Sequence[int]) -> str:
        return "".join(
            f"<span title='index {i}' style='display:inline-block;width:10px;height:12px;"
            f"background:rgb({int(palette[i][0])},{int(palette[i][1])},{int(palette[i][2])})'></span>" for i in idx)
    return ("<div style='font-size:12px;line-height:16px'>"
            f"civilization colours (indices 0-15 and even 16-62, replaced by the owner's colour): "
            f"{cells(CIV3_CIV_COLOURS)}<br>shadows (240-253, drawn as translucent black): {cells(CIV3_SHADOWS)}"
            f"<br>transparent (254, 255): {cells(CIV3_TRANSPARENT)}</div>")


def flc_player(src: str | os.PathLike | bytes, direction: str | int | None = None, *,
               scale: int | None = None, name: str | None = None) -> Player:
    """Play an FLI/FLC file, or one direction of a Civ3 unit animation, at the header's speed.

    Parameters
    ----------
    src : path or bytes
        The file.
    direction : str or int, optional
        Civ3: a direction name (``SW``, ``S`` ...) or its position; default the
        first. Ignored for files without directions (every image frame plays).
    scale : int, optional
        Integer enlargement (default: the frame's longer side to about 480 px, at most 8 x).

    Civ3 units are coloured as the game draws them (:func:`animre.decode.flc.civ3_rgba`):
    the transparent indices are transparent, shadows translucent; the
    civilization-colour indices are listed under the picture.

    Examples
    --------
    >>> p = flc_player("data/samples/flc/Warrior/Run.flc", direction="SW")
    >>> p.frames[0].shape, len(p)
    ((40, 36, 4), 6)
    """
    import ipywidgets as w

    from .decode.flc import civ3_rgba, decode_all, frame_duration_ms

    d = decode_all(src, name=name)
    ms = frame_duration_ms(src)
    civ3 = d.flicanim is not None and d.flicanim["num_anims"] > 0 and d.flicanim["anim_length"] > 0
    images = [r for r in d.roles if not r.is_ring]
    label = d.file.rsplit("/", 1)[-1]
    if civ3:
        names = list(dict.fromkeys(r.direction_name or f"direction_{r.direction}" for r in images
                                   if r.direction is not None))
        if direction is None:
            direction = names[0]
        if isinstance(direction, int):
            if not 0 <= direction < len(names):
                raise UsageError(f"{d.file}: no direction {direction}; it has {len(names)}: {', '.join(names)}")
            direction = names[direction]
        if direction not in names:
            raise UsageError(f"{d.file}: no direction {direction!r}; it has {', '.join(names)}")
        images = [r for r in images if (r.direction_name or f"direction_{r.direction}") == direction]
        frames = [civ3_rgba(d.frames[r.frame], d.palettes[r.frame]) for r in images]
        title = f"{label}: direction {direction}, {len(frames)} frames, {ms:g} ms per frame (header speed)"
        extra = [w.HTML(_palette_legend(d.palettes[images[0].frame]))]
    else:
        frames = []
        for r in images:
            pal = np.concatenate([d.palettes[r.frame], np.full((256, 1), 255, np.uint8)], axis=1)
            frames.append(pal[d.frames[r.frame]])
        title = f"{label}: {len(frames)} frames, {ms:g} ms per frame (header speed)"
        extra = []
    return _image_player(frames, [ms] * len(frames), title=title, scale=scale,
                         caption=lambda i: f"(frame chunk {images[i].frame})", extra=extra)


# ============================================================================ OMF


_FRAME_TAG = re.compile(r"([A-Z])(\d*)$")


def anim_string_frames(text: str) -> list[tuple[int, int]]:
    """(sprite, ticks) of every frame of an OMF animation string, in order.

    The string is ``-``-separated tags; a tag ending in a capital letter and
    a number shows that sprite (A = 0) for that many ticks, lower-case tags
    before it are commands (sound, movement ...).

    Examples
    --------
    >>> anim_string_frames("bpd-A10-B3-s1C8")
    [(0, 10), (1, 3), (2, 8)]
    """
    out = []
    for tag in str(text or "").split("-"):
        m = _FRAME_TAG.search(tag.strip())
        if m:
            out.append((ord(m.group(1)) - ord("A"), int(m.group(2) or 1)))
    return out


def index_palette() -> np.ndarray:
    """Colours for indexed sprites when no palette is given: (256, 4) RGBA, dark to bright hues.

    Every index stands out from the checkerboard's grey and white (a grey
    ramp would hide indices near 204 and 255 in it). Not the game's colours.

    Examples
    --------
    >>> index_palette().shape, int(index_palette()[:, 3].min())
    ((256, 4), 255)
    """
    return np.rint(colormaps["turbo"](np.linspace(0.0, 1.0, 256)) * 255).astype(np.uint8)


def omf_zoom(height: int, width: int) -> int:
    """The integer zoom of an OMF frame: the largest that fits its longer side in :data:`OMF_VIEW_PX`, 1 to 8.

    Examples
    --------
    >>> omf_zoom(172, 224), omf_zoom(26, 28), omf_zoom(900, 300)
    (3, 8, 1)
    """
    return max(1, min(8, OMF_VIEW_PX // max(1, height, width)))


def omf_player(corpus: Any, file: str, move: int, *, palette: Any = None, ms_per_tick: float = OMF_MS_PER_TICK,
               scale: int | None = None) -> Player:
    """Play an OMF AF move: its sprites in animation-string order, each frame's collision points in red.

    Each frame of the animation string (``A3-B8``: sprite A for 3 ticks, then
    B for 8) lasts its ticks: the Play button steps one tick every
    ``ms_per_tick`` ms (:attr:`Player.schedule`). The picture is the union of
    every sprite's box and every collision point of the move (the animation's
    coordinates; ``origin`` is its top-left, ``bbox`` the union), enlarged by
    :func:`omf_zoom`; a grey box marks each sprite.

    Parameters
    ----------
    corpus : Corpus
        Supplies the file, ``af_moves`` (animation string) and ``af_coords`` (collision points).
    file : str
        An AF file of the corpus.
    move : int
        The move number.
    palette : optional
        As :func:`animre.decode.omf_sprites.to_rgba` (e.g. a BK file path); default :func:`index_palette`.
    ms_per_tick : float
        Milliseconds per tick of the animation string (openomf's tick, 10 ms).
    scale : int, optional
        Integer enlargement instead of :func:`omf_zoom`.

    Examples
    --------
    >>> p = omf_player(corpus, "af/FIGHTR0.AF", 1)
    >>> [int(d) for d in p.durations], p.steps, p.play.interval
    ([100, 30, 80, 140], [10, 3, 8, 14], 10)
    """
    from .decode.omf_sprites import sprite_images, to_rgba

    moves = corpus.tables.get("af_moves")
    if moves is None:
        raise UsageError("the corpus has no OMF fighter (af_moves)")
    row = moves[(moves["file"] == file) & (moves["move_number"] == move)]
    if not len(row):
        raise UsageError(f"{file}: no move {move}")
    sprites = [s for s in sprite_images(corpus.path(file)) if s.number == move]
    if not sprites:
        raise UsageError(f"{file}: move {move} has no sprites")
    text = row["animation.anim_string.text"].iloc[0]
    tags = anim_string_frames(text)
    seq = [(sp, t) for sp, t in tags if sp < len(sprites)]
    dropped = len(tags) - len(seq)
    if not seq:
        seq = [(k, 1) for k in range(len(sprites))]
    coords = corpus.tables.get("af_coords", pd.DataFrame(columns=["file", "move", "frame", "x", "y"]))
    pts = coords[(coords["file"] == file) & (coords["move"] == int(row["move"].iloc[0]))]
    px, py = pts["x"].astype(int).tolist(), pts["y"].astype(int).tolist()
    bx0 = min([s.x for s in sprites] + px)
    by0 = min([s.y for s in sprites] + py)
    bx1 = max([s.x + s.image.shape[1] for s in sprites] + [x + 1 for x in px])
    by1 = max([s.y + s.image.shape[0] for s in sprites] + [y + 1 for y in py])
    margin = OMF_MARGIN
    x0, y0 = bx0 - margin, by0 - margin
    width, height = bx1 - bx0 + 2 * margin, by1 - by0 + 2 * margin
    if width * height > 4096 * 4096:
        raise UsageError(f"{file}: move {move} spans {width} x {height} pixels: too large to draw")
    pal = index_palette() if palette is None else palette
    pictures: dict[int, np.ndarray] = {}
    for k, s in enumerate(sprites):
        canvas = np.zeros((height, width, 4), np.uint8)
        img = to_rgba(s.image, pal)
        oy, ox = s.y - y0, s.x - x0
        h, w = img.shape[:2]
        region = canvas[oy:oy + h, ox:ox + w]
        opaque = img[..., 3] > 0
        region[opaque] = img[opaque]
        grey = (150, 150, 150, 255)  # the sprite's box, so a small sprite is found on a large canvas
        for yy in (oy - 1, oy + h):
            canvas[yy, max(0, ox - 1):ox + w + 1][canvas[yy, max(0, ox - 1):ox + w + 1, 3] == 0] = grey
        for xx in (ox - 1, ox + w):
            canvas[max(0, oy - 1):oy + h + 1, xx][canvas[max(0, oy - 1):oy + h + 1, xx, 3] == 0] = grey
        for cx, cy in pts.loc[pts["frame"] == k, ["x", "y"]].astype(int).itertuples(index=False):
            cx, cy = cx - x0, cy - y0
            canvas[cy, max(0, cx - 2):cx + 3] = COLLISION_RGBA
            canvas[max(0, cy - 2):cy + 3, cx] = COLLISION_RGBA
        pictures[k] = canvas
    frames = [pictures[sp] for sp, _ in seq]
    n_pts = {k: int((pts["frame"] == k).sum()) for k in pictures}
    zoom = scale or omf_zoom(height, width)
    colours = "index colours (no palette given)" if palette is None else "palette given"
    note = f"; {dropped} frame(s) name a sprite the move lacks, not shown" if dropped else ""
    title = (f"{file.rsplit('/', 1)[-1]}: move {move}, {len(frames)} frames ({text}), {ms_per_tick:g} ms per "
             f"tick; {width} x {height} px at {zoom}x, {colours}; red: collision points{note}")
    p = Player(len(frames), lambda i: image_png(frames[i], zoom), [t * ms_per_tick for _, t in seq], title=title,
               frames=frames, steps=[t for _, t in seq], tick_ms=ms_per_tick,
               caption=lambda i: f"(sprite {seq[i][0]}, {seq[i][1]} ticks, {n_pts[seq[i][0]]} collision points)")
    p.origin = (x0, y0)  # the animation coordinate of the frames' top-left pixel
    p.bbox = (bx0, by0, bx1, by1)  # the union of the sprites' boxes and the collision points, end exclusive
    p.zoom = zoom
    p.sprites = [sp for sp, _ in seq]
    return p


# ============================================================================ GNT4 key curves


def key_curve_player(keys: pd.DataFrame, *, time: str = "time", end_time: float | None = None,
                     fps: float = 60.0, components: Sequence[str] = ("x", "y", "z", "w"),
                     group: str | None = "track", group_labels: Mapping[Any, str] | None = None,
                     title: str = "", max_steps: int = 600) -> Player:
    """Key curves (:func:`animre.plots.key_curves`) with a time cursor that moves at ``fps``.

    The figure is drawn once; each step only moves a red cursor line across
    every subplot (so playing is cheap).

    Parameters
    ----------
    keys : DataFrame
        Keys of one animation and bone (``mot_keys`` rows).
    end_time : float, optional
        The animation's end time (``mot_animations.end_time``); default the last key time.
    fps : float
        Cursor steps per second of animation time (the game draws 60 frames a second).

    Examples
    --------
    >>> k = pd.DataFrame({"time": [0, .5, 1], "x": [0, 1, 0]})
    >>> p = key_curve_player(k, components=["x"], group=None)
    >>> len(p), round(p.durations[0], 2), p.times[:2]
    (61, 16.67, [0.0, 0.016666666666666666])
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from . import plots

    fig = plots.key_curves(keys, time=time, components=components, group=group, group_labels=group_labels,
                           title=title)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    base = np.asarray(canvas.buffer_rgba())[..., :3].copy()
    hpx = base.shape[0]
    end = float(end_time) if end_time is not None else float(pd.to_numeric(keys[time]).max() or 0.0)
    steps = min(max_steps, int(round(end * fps)) + 1) if end > 0 else 1
    times = [k / fps for k in range(steps)]
    axes = fig.axes

    def render(i: int) -> bytes:
        img = base.copy()
        for ax in axes:
            x = ax.transData.transform((times[i], 0))[0]
            x0, y0, x1, y1 = ax.bbox.extents
            if not x0 <= x <= x1:
                continue
            col = int(round(x))
            img[int(hpx - y1):int(hpx - y0), max(0, col - 1):col + 1] = CURSOR_RGB
        return image_png(img, 1, checker=False)

    p = Player(steps, render, [1000.0 / fps] * steps, title=title or "key curves",
               caption=lambda i: f"t = {times[i]:.3f} s")
    p.times = times
    p.figure = fig
    return p
