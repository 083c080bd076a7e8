"""FLI/FLC frame pixels: decode every frame of an FLI, FLC or Civ3 FlicAnim FLC.

Hand-written with numpy because Pillow refuses Civilization III unit FLCs:
its FLI plugin requires zeros in the header's reserved area at 0x58, where
Civ3 keeps the 28-byte FlicAnimHeader. For standard FLI/FLC files Pillow's
decoder is the reference this module is tested against (indexed frames and
palettes pixel-identical), so its conventions are followed:

- the canvas starts as zeros and every frame is drawn over the previous one;
- BYTE_RUN (15): per line, the packet-count byte is ignored and the line is
  decoded until it is full; a negative count copies literal bytes, a
  positive one repeats the next byte;
- DELTA_FLI (12, "LC"): u2 first line, u2 line count, then per line a u1
  packet count and packets of (u1 skip, s1 count);
- DELTA_FLC (7, "SS2", Civ3's FLI_WORD_LC): u2 line count, then per line
  option words (0xC000: skip lines, 0x8000: last pixel of an odd-width line)
  and packets of (u1 column skip **in bytes** — as the Civ3 note says, and
  as Pillow reads it — s1 count of words);
- COPY (16) and BLACK (13) fill the whole frame;
- COLOR_256 (4) sets 8-bit components, COLOR_64 (11) 6-bit components
  shifted left by 2 (as Pillow does); the palette starts as a grey ramp.
  Pillow reads only the first frame's palette; here later palette chunks
  apply from their frame on (``palette_changes=False`` mimics Pillow);
- PSTAMP (18) previews are skipped, the frame header's width/height
  overrides are ignored (as Pillow does), any other sub-chunk type is an
  error; only 8-bit files (depth 8, or 0 in old writers) are decoded.

Ring frames (the extra frame that turns the last image back into the first,
for looping) are told apart by the counts (:func:`frame_roles`): a Civ3
FlicAnim with ``num_anims x (anim_length + 1)`` frame chunks has one ring
frame after each direction; any other file whose frame chunks number
``frames + 1`` ends with one ring frame.

Every failure of a bad stream is an :class:`~animre.errors.ParseError` with
the file, the sub-chunk's field path and the absolute byte offset; all work
is bounded by the input size.

Examples
--------
>>> frames, palettes = decode_frames("data/samples/flc/Warrior/Run.flc")
>>> frames.shape, palettes.shape
((48, 40, 36), (48, 256, 3))
>>> dirs = civ3_directions("data/samples/flc/Warrior/Run.flc")
>>> list(dirs)
['SW', 'S', 'SE', 'E', 'NE', 'N', 'NW', 'W']
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..compile import load_parser
from ..errors import ParseError, UsageError
from ..parse import Bases, parse_bytes

__all__ = [
    "DIRECTION_NAMES",
    "FrameRole",
    "DecodedFlic",
    "frame_roles",
    "decode_all",
    "decode_frames",
    "ring_frames",
    "civ3_directions",
    "place_on_canvas",
]

#: Civ3 direction names by bit of the FlicAnim ``directions`` field (bit 0 first).
DIRECTION_NAMES = ("SW", "S", "SE", "E", "NE", "N", "NW", "W")

FRAME_TYPE = 0xF1FA
COLOR_256, DELTA_FLC, COLOR_64, DELTA_FLI, BLACK, BYTE_RUN, COPY, PSTAMP = 4, 7, 11, 12, 13, 15, 16, 18
#: Pixels a file may decode to per byte of input (an empty 16-byte frame repeats a whole canvas).
PIXELS_PER_BYTE = 4096
MIN_PIXEL_BUDGET = 1 << 24


@dataclass(frozen=True)
class FrameRole:
    """What one frame chunk of a file is.

    Attributes
    ----------
    frame : int
        Ordinal of the frame chunk among the file's frame chunks (0-based).
    chunk : int
        Index of the chunk among all top-level chunks (the prefix counts).
    image : int or None
        Index of the image frame it shows; None for a ring frame.
    is_ring : bool
        True for a ring frame (loops the animation back to its first image).
    direction : int or None
        Civ3: index of the direction group the frame belongs to.
    direction_name : str or None
        Civ3: SW, S, SE, E, NE, N, NW or W (from the ``directions`` bits).
    """

    frame: int
    chunk: int
    image: int | None
    is_ring: bool
    direction: int | None
    direction_name: str | None


@dataclass
class DecodedFlic:
    """Every frame chunk of a file decoded.

    Attributes
    ----------
    file : str
        Name used in error messages.
    frames : numpy.ndarray
        uint8 palette indices, shape (number of frame chunks, height, width),
        ring frames included.
    palettes : numpy.ndarray
        uint8 RGB, shape (number of frame chunks, 256, 3): the palette in
        force for each frame.
    roles : list of FrameRole
        One per frame chunk.
    flicanim : dict or None
        The FlicAnimHeader fields when the file has one.
    """

    file: str
    frames: np.ndarray
    palettes: np.ndarray
    roles: list[FrameRole]
    flicanim: dict | None

    @property
    def image_mask(self) -> np.ndarray:
        """Boolean mask over frame chunks: True for image frames."""
        return np.array([not r.is_ring for r in self.roles], dtype=bool)


# ---------------------------------------------------------------------------- roles


def _direction_names(directions: int, num_anims: int) -> list[str | None]:
    bits = [DIRECTION_NAMES[b] for b in range(8) if (directions >> b) & 1]
    return [bits[d] if d < len(bits) else None for d in range(num_anims)]


def _roles(num_frames: int, frame_chunks: list[int], civ3: tuple[int, int, int] | None) -> list[FrameRole]:
    """Roles from the counts; ``civ3`` = (num_anims, anim_length, directions) or None."""
    n = len(frame_chunks)
    out: list[FrameRole] = []
    if civ3 is not None:
        num_anims, anim_length, directions = civ3
        names = _direction_names(directions & 0xFF, num_anims)
        if num_anims > 0 and anim_length > 0 and n == num_anims * (anim_length + 1):
            image = 0
            for k, chunk in enumerate(frame_chunks):
                d, pos = divmod(k, anim_length + 1)
                ring = pos == anim_length
                out.append(FrameRole(k, chunk, None if ring else image, ring, d, names[d]))
                image += 0 if ring else 1
            return out
    ring_last = num_frames >= 1 and n == num_frames + 1
    for k, chunk in enumerate(frame_chunks):
        ring = ring_last and k == n - 1
        d = name = None
        if civ3 is not None and civ3[0] > 0 and civ3[1] > 0:
            num_anims, anim_length, directions = civ3
            d = (n - 2 if ring else k) // anim_length
            if d >= num_anims:
                d = None
            else:
                name = _direction_names(directions & 0xFF, num_anims)[d]
        out.append(FrameRole(k, chunk, None if ring else k, ring, d, name))
    return out


def frame_roles(parsed: Any) -> list[FrameRole]:
    """The role of every frame chunk of a parsed file (image frame, ring frame, direction).

    Parameters
    ----------
    parsed : Flc
        A file parsed by the ``flc`` spec.

    Examples
    --------
    >>> from animre import parse_file
    >>> _, obj, _ = parse_file("data/samples/flc/Warrior/Run.flc")
    >>> [r.frame for r in frame_roles(obj) if r.is_ring]
    [6, 13, 20, 27, 34, 41, 48, 55]
    """
    frame_chunks = [i for i, c in enumerate(parsed.chunks) if _int(c.chunk_type) == FRAME_TYPE]
    fa = parsed.header.flicanim
    civ3 = (fa.num_anims, fa.anim_length, fa.directions) if parsed.is_flicanim else None
    return _roles(parsed.header.num_frames, frame_chunks, civ3)


# ---------------------------------------------------------------------------- loading


def _int(v: Any) -> int:
    return int(getattr(v, "value", v))


def _load(src: str | os.PathLike | bytes | bytearray | memoryview, name: str | None) -> tuple[bytes, str]:
    if isinstance(src, (bytes, bytearray, memoryview)):
        return bytes(src), name or "<bytes>"
    if isinstance(src, (str, os.PathLike)):
        p = Path(src)
        try:
            return p.read_bytes(), name or str(p)
        except OSError as e:
            raise UsageError(f"{p}: cannot read: {e}") from e
    raise UsageError(f"expected a path or bytes, got {type(src).__name__}")


def _parse(data: bytes, name: str):
    """(parsed FLI/FLC, its Bases) from the bytes, with the shipped parser of the ``flc`` spec."""
    root = parse_bytes(data, load_parser("flc"), name)
    return root, Bases(root)


# ---------------------------------------------------------------------------- pixel codecs


class _Stream:
    """Bounds-checked reads over one sub-chunk body; errors carry the absolute offset."""

    __slots__ = ("data", "n", "base", "file", "path")

    def __init__(self, data: bytes, base: int, file: str, path: str):
        self.data, self.n, self.base, self.file, self.path = data, len(data), base, file, path

    def fail(self, pos: int, reason: str):
        raise ParseError(self.file, self.path, self.base + pos, reason)

    def need(self, pos: int, k: int, what: str) -> None:
        if pos + k > self.n:
            self.fail(pos, f"{what}: needs {k} byte(s) at {pos}, the chunk body has {self.n}")

    def u16(self, pos: int) -> int:
        return self.data[pos] | (self.data[pos + 1] << 8)


def _byte_run(canvas: np.ndarray, s: _Stream) -> None:
    h, w = canvas.shape
    data = s.data
    pos = 0
    for y in range(h):
        row = canvas[y]
        pos += 1  # the packet count byte is obsolete: lines are decoded until full
        x = 0
        while x < w:
            s.need(pos, 2, f"BYTE_RUN line {y}")
            c = data[pos]
            if c & 0x80:
                i = 256 - c
                if x + i > w:
                    s.fail(pos, f"BYTE_RUN line {y}: a literal run of {i} at x={x} passes the width {w}")
                s.need(pos + 1, i, f"BYTE_RUN line {y}")
                row[x:x + i] = np.frombuffer(data, np.uint8, i, pos + 1)
                pos += 1 + i
            else:
                i = c
                if x + i > w:
                    s.fail(pos, f"BYTE_RUN line {y}: a run of {i} at x={x} passes the width {w}")
                row[x:x + i] = data[pos + 1]
                pos += 2
            x += i


def _delta_fli(canvas: np.ndarray, s: _Stream) -> None:
    h, w = canvas.shape
    data = s.data
    s.need(0, 4, "DELTA_FLI header")
    y = s.u16(0)
    ymax = y + s.u16(2)
    pos = 4
    while y < ymax and y < h:
        row = canvas[y]
        s.need(pos, 1, f"DELTA_FLI line {y}")
        packets = data[pos]
        pos += 1
        x = 0
        for _ in range(packets):
            s.need(pos, 2, f"DELTA_FLI line {y}")
            x += data[pos]
            c = data[pos + 1]
            if c & 0x80:
                i = 256 - c
                if x + i > w:
                    s.fail(pos, f"DELTA_FLI line {y}: a run of {i} at x={x} passes the width {w}")
                s.need(pos, 3, f"DELTA_FLI line {y}")
                row[x:x + i] = data[pos + 2]
                pos += 3
            else:
                i = c
                if x + i > w:
                    s.fail(pos, f"DELTA_FLI line {y}: {i} literal bytes at x={x} pass the width {w}")
                s.need(pos + 2, i, f"DELTA_FLI line {y}")
                row[x:x + i] = np.frombuffer(data, np.uint8, i, pos + 2)
                pos += 2 + i
            x += i
        y += 1
    if y < ymax:
        s.fail(0, f"DELTA_FLI: lines up to {ymax} pass the height {h}")


def _delta_flc(canvas: np.ndarray, s: _Stream) -> None:
    h, w = canvas.shape
    data = s.data
    s.need(0, 2, "DELTA_FLC header")
    lines = s.u16(0)
    pos = 2
    y = line = 0
    while line < lines and y < h:
        s.need(pos, 2, f"DELTA_FLC line {y}")
        word = s.u16(pos)
        pos += 2
        while word & 0x8000:
            if word & 0x4000:
                y += 0x10000 - word  # skip lines
                if y >= h:
                    s.fail(pos - 2, f"DELTA_FLC: a line skip reaches line {y} of {h}")
            else:
                canvas[y, w - 1] = word & 0xFF  # last pixel of an odd-width line
            s.need(pos, 2, f"DELTA_FLC line {y}")
            word = s.u16(pos)
            pos += 2
        row = canvas[y]
        x = 0
        for _ in range(word):
            s.need(pos, 2, f"DELTA_FLC line {y}")
            x += data[pos]  # column skip in bytes (pixels)
            c = data[pos + 1]
            if c >= 128:
                i = 256 - c
                if x + 2 * i > w:
                    s.fail(pos, f"DELTA_FLC line {y}: a run of {i} words at x={x} passes the width {w}")
                s.need(pos, 4, f"DELTA_FLC line {y}")
                row[x:x + 2 * i] = np.tile(np.frombuffer(data, np.uint8, 2, pos + 2), i)
                pos += 4
                x += 2 * i
            else:
                i = 2 * c
                if x + i > w:
                    s.fail(pos, f"DELTA_FLC line {y}: {c} literal words at x={x} pass the width {w}")
                s.need(pos + 2, i, f"DELTA_FLC line {y}")
                row[x:x + i] = np.frombuffer(data, np.uint8, i, pos + 2)
                pos += 2 + i
                x += i
        line += 1
        y += 1
    if line < lines:
        s.fail(0, f"DELTA_FLC: {lines} lines declared, the frame has room for {line}")


def _copy(canvas: np.ndarray, s: _Stream) -> None:
    h, w = canvas.shape
    s.need(0, h * w, "COPY")
    canvas[:] = np.frombuffer(s.data, np.uint8, h * w).reshape(h, w)


def _black(canvas: np.ndarray, s: _Stream) -> None:
    canvas[:] = 0


_PIXEL_CODECS = {BYTE_RUN: _byte_run, DELTA_FLI: _delta_fli, DELTA_FLC: _delta_flc, COPY: _copy, BLACK: _black}


def _apply_palette(pal: np.ndarray, body: Any, shift: int, file: str, path: str, base: int) -> None:
    idx = 0
    for k, packet in enumerate(body.packets):
        idx += packet.num_skip
        n = len(packet.colors)
        if idx + n > 256:
            raise ParseError(file, f"{path}.packets[{k}]", base,
                             f"too much palette data: {n} colours from index {idx}")
        rgb = np.array([(c.r, c.g, c.b) for c in packet.colors], dtype=np.int32).reshape(-1, 3) << shift
        if (rgb > 255).any():
            raise ParseError(file, f"{path}.packets[{k}]", base,
                             "palette data out of range: a COLOR_64 component above 63")
        pal[idx:idx + n] = rgb
        idx += n


# ---------------------------------------------------------------------------- decoding


def decode_all(src: str | os.PathLike | bytes, *, palette_changes: bool = True, max_pixels: int | None = None,
               name: str | None = None) -> DecodedFlic:
    """Decode every frame chunk of an FLI/FLC file, ring frames included.

    Parameters
    ----------
    src : path or bytes
        The file.
    palette_changes : bool
        Apply palette chunks of later frames from their frame on (default).
        False applies only the first palette chunk of the first frame, as
        Pillow does.
    max_pixels : int, optional
        Refuse files that would decode to more pixels than this (all frame
        chunks together); default ``max(2**24, 4096 * file size)``.
    name : str, optional
        File name for error messages (default: the path, or ``<bytes>``).

    Raises
    ------
    ParseError
        The file does not parse, or a pixel or palette stream is bad.

    Examples
    --------
    >>> d = decode_all("data/samples/flc/Warrior/Run.flc")
    >>> d.frames.shape, sum(r.is_ring for r in d.roles)
    ((56, 40, 36), 8)
    """
    data, file = _load(src, name)
    root, bases = _parse(data, file)
    hdr = root.header
    h, w = hdr.height, hdr.width
    roles = frame_roles(root)
    if h == 0 or w == 0:
        raise ParseError(file, "header.width", 8, f"frame size {w} x {h} has no pixels")
    if hdr.depth not in (0, 8):
        raise ParseError(file, "header.depth", 12, f"depth {hdr.depth}: only 8-bit FLI/FLC pixels are decoded")
    budget = max_pixels if max_pixels is not None else max(MIN_PIXEL_BUDGET, PIXELS_PER_BYTE * len(data))
    if len(roles) * h * w > budget:
        raise ParseError(file, "header.width", 8,
                         f"{len(roles)} frames of {w} x {h} pixels exceed the decoding budget of {budget} pixels")
    frames = np.zeros((len(roles), h, w), dtype=np.uint8)
    palettes = np.zeros((len(roles), 256, 3), dtype=np.uint8)
    canvas = np.zeros((h, w), dtype=np.uint8)
    pal = np.repeat(np.arange(256, dtype=np.uint8)[:, None], 3, axis=1)
    palette_seen = False
    for role in roles:
        chunk = root.chunks[role.chunk]
        fbody = chunk.body
        cpath = f"chunks[{role.chunk}].body"
        for j, sub in enumerate(fbody.chunks):
            t = _int(sub.chunk_type)
            spath = f"{cpath}.chunks[{j}]"
            if t in (COLOR_256, COLOR_64):
                body = sub.body if sub.has_valid_size else sub.palette_unsized
                field = "body" if sub.has_valid_size else "palette_unsized"
                if palette_changes or (role.frame == 0 and not palette_seen):
                    _apply_palette(pal, body, 2 if t == COLOR_64 else 0, file, f"{spath}.{field}",
                                   bases.span(sub, field)[0])
                    palette_seen = True
                continue
            if t == PSTAMP:
                continue  # a preview of the first frame; it does not change the image
            codec = _PIXEL_CODECS.get(t)
            if codec is None:
                raise ParseError(file, f"{spath}.chunk_type", bases.span(sub, "chunk_type")[0],
                                 f"sub-chunk type {t} is not a pixel or palette chunk this decoder knows")
            codec(canvas, _Stream(sub.body, bases.span(sub, "body")[0], file, f"{spath}.body"))
        frames[role.frame] = canvas
        palettes[role.frame] = pal
    fa = hdr.flicanim
    flicanim = None
    if root.is_flicanim:
        flicanim = {k: getattr(fa, k) for k in ("len_header", "flags", "num_anims", "anim_length", "x_offset",
                                                 "y_offset", "xs_orig", "ys_orig", "anim_time", "directions")}
    return DecodedFlic(file, frames, palettes, roles, flicanim)


def decode_frames(src: str | os.PathLike | bytes, *, palette_changes: bool = True,
                  max_pixels: int | None = None, name: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Decode the image frames of any FLI/FLC file (ring frames left out).

    Parameters
    ----------
    src : path or bytes
        The file.
    palette_changes : bool
        Apply later palette chunks (default); False = first palette only, like Pillow.
    max_pixels : int, optional
        Decoding budget, see :func:`decode_all`.

    Returns
    -------
    frames : numpy.ndarray
        uint8 palette indices, shape (n, height, width), one per image frame.
    palettes : numpy.ndarray
        uint8 RGB, shape (n, 256, 3), the palette of each image frame.

    Examples
    --------
    >>> frames, palettes = decode_frames("data/samples/flc/Warrior/Run.flc")
    >>> frames.shape  # 48 image frames: the 8 ring frames are left out
    (48, 40, 36)
    """
    d = decode_all(src, palette_changes=palette_changes, max_pixels=max_pixels, name=name)
    keep = d.image_mask
    return d.frames[keep], d.palettes[keep]


def ring_frames(src: str | os.PathLike | bytes, *, max_pixels: int | None = None,
                name: str | None = None) -> tuple[list[int], np.ndarray]:
    """The ring frames of a file: their frame-chunk ordinals and decoded images.

    A ring frame turns the last image of a loop back into its first, so its
    image equals the first image of its direction (or of the file).

    Returns
    -------
    indices : list of int
        Ordinals of the ring frames among the frame chunks.
    frames : numpy.ndarray
        uint8, shape (number of ring frames, height, width).

    Examples
    --------
    >>> idx, rings = ring_frames("data/samples/flc/Warrior/Run.flc")
    >>> idx
    [6, 13, 20, 27, 34, 41, 48, 55]
    """
    d = decode_all(src, max_pixels=max_pixels, name=name)
    idx = [r.frame for r in d.roles if r.is_ring]
    return idx, d.frames[idx]


def civ3_directions(src: str | os.PathLike | bytes, *, max_pixels: int | None = None,
                    name: str | None = None) -> dict[str, np.ndarray]:
    """A Civ3 unit animation's image frames per direction, in file order.

    Returns
    -------
    dict of str -> numpy.ndarray
        Direction name (SW, S, SE, E, NE, N, NW, W, as the ``directions``
        bits say) -> uint8 frames of shape (anim_length, height, width).

    Raises
    ------
    UsageError
        The file has no FlicAnim header or no directions (a plain FLC).

    Examples
    --------
    >>> dirs = civ3_directions("data/samples/flc/Warrior/Run.flc")
    >>> dirs["SW"].shape
    (6, 40, 36)
    """
    d = decode_all(src, max_pixels=max_pixels, name=name)
    if d.flicanim is None or d.flicanim["num_anims"] == 0 or d.flicanim["anim_length"] == 0:
        raise UsageError(f"{d.file}: not a Civ3 unit animation (no FlicAnim header with directions)")
    out: dict[str, list[np.ndarray]] = {}
    for r in d.roles:
        if r.is_ring or r.direction is None:
            continue
        key = r.direction_name or f"direction_{r.direction}"
        out.setdefault(key, []).append(d.frames[r.frame])
    return {k: np.stack(v) for k, v in out.items()}


def _header_value(header: Any, key: str) -> int:
    if isinstance(header, Mapping):
        return int(header[key])
    obj = header
    if hasattr(obj, "header"):  # a parsed file
        obj = obj.header
    if hasattr(obj, "flicanim"):
        obj = obj.flicanim
    return int(getattr(obj, key))


def place_on_canvas(frame: np.ndarray, header: Any, fill: int = 255) -> np.ndarray:
    """Put a clipped Civ3 frame back on its full sprite canvas (240 x 240 for units).

    Parameters
    ----------
    frame : numpy.ndarray
        One decoded frame, shape (height, width).
    header : mapping or parsed object
        The FlicAnim fields ``x_offset``, ``y_offset``, ``xs_orig``,
        ``ys_orig``: a dict (e.g. :attr:`DecodedFlic.flicanim`), the parsed
        file, its header or its FlicAnim header.
    fill : int
        Palette index for the canvas around the box (255, Civ3's transparent
        magenta, by default).

    Returns
    -------
    numpy.ndarray
        Shape (ys_orig, xs_orig), the frame at (y_offset, x_offset).

    Examples
    --------
    >>> hdr = {"x_offset": 1, "y_offset": 2, "xs_orig": 4, "ys_orig": 4}
    >>> place_on_canvas(np.zeros((2, 2), np.uint8), hdr).tolist()
    [[255, 255, 255, 255], [255, 255, 255, 255], [255, 0, 0, 255], [255, 0, 0, 255]]
    """
    frame = np.asarray(frame)
    if frame.ndim != 2:
        raise UsageError(f"expected one frame of shape (height, width), got shape {frame.shape}")
    xo, yo = _header_value(header, "x_offset"), _header_value(header, "y_offset")
    xs, ys = _header_value(header, "xs_orig"), _header_value(header, "ys_orig")
    h, w = frame.shape
    if xs == 0 or ys == 0:
        raise UsageError("the FlicAnim header gives no canvas size (xs_orig/ys_orig are 0): not a Civ3 unit")
    if xo + w > xs or yo + h > ys:
        raise UsageError(f"a {w} x {h} frame at ({xo}, {yo}) does not fit the {xs} x {ys} canvas")
    canvas = np.full((ys, xs), fill, dtype=frame.dtype)
    canvas[yo:yo + h, xo:xo + w] = frame
    return canvas
