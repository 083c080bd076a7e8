"""One Must Fall 2097 sprite pixels: decode the pixel streams of AF and BK sprites.

Hand-written because no library decodes OMF sprite streams (image libraries
know nothing of them, and a Kaitai spec cannot express a drawing program):
the stream is a sequence of little-endian u2 words, ``op = w & 3`` and
``arg = w >> 2``:

- op 0: set x = arg
- op 2: set y = arg
- op 1: copy the next ``arg`` bytes (palette indices) to (x, y), (x + 1, y), ...
  then x = 0
- op 3: end of the stream

Pixels that no copy touches are transparent; images come back as numpy
masked arrays (uint8 palette indices, ``mask`` True = transparent).

Examples
--------
>>> img = decode_sprite(bytes([0x05, 0x00, 7, 0x03, 0x00]), 2, 1)  # copy 1 byte at (0, 0), end
>>> img.filled(255).tolist()
[[7, 255]]
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ...base.errors import ParseError, UsageError
from ...spec.compiler import load_parser
from ...spec.parse import parse_bytes
from ...spec.ranges import Bases

__all__ = ["decode_sprite", "sprite_images", "to_rgba", "SpriteImage", "grey_palette", "bk_palette"]


class SpriteImage(NamedTuple):
    """One sprite of an AF or BK file, decoded.

    Attributes
    ----------
    number : int
        Move number (AF) or animation number (BK).
    sprite : int
        Position of the sprite in its animation (frame, 0-based).
    image : numpy.ma.MaskedArray
        uint8 palette indices of shape (height, width); masked = transparent.
    x, y : int
        Sprite offset from the animation position.
    index : int
        The sprite record's index byte.
    missing : bool
        True when the record had no pixels and reuses an earlier sprite's.
    source : tuple of (int, int) or None
        (number, sprite) of the sprite whose pixels were reused.
    """

    number: int
    sprite: int
    image: np.ma.MaskedArray
    x: int
    y: int
    index: int
    missing: bool
    source: tuple[int, int] | None


def decode_sprite(pixel_bytes: bytes, width: int, height: int, *, strict: bool = True,
                  file: str = "<sprite>", path: str = "pixels", offset: int = 0) -> np.ma.MaskedArray:
    """Decode one OMF sprite pixel stream into a masked array of shape (height, width).

    Parameters
    ----------
    pixel_bytes : bytes
        The stream (the sprite record's ``pixels`` field). Empty = fully transparent.
    width, height : int
        Sprite size from the record header.
    strict : bool
        True: a copy that writes outside the sprite, a copy that runs past
        the end of the stream, or a half word at the end raise
        :class:`~animre.base.errors.ParseError`. False: such writes are clipped
        and a truncated copy uses the bytes that are there.
    file, path, offset : str, str, int
        Where the stream comes from, for error messages (``offset`` is the
        absolute offset of the stream's first byte).

    Returns
    -------
    numpy.ma.MaskedArray
        uint8 palette indices; mask True where no pixel was written.

    Examples
    --------
    >>> bool(decode_sprite(b"", 3, 2).mask.all())
    True
    """
    width, height = int(width), int(height)
    data = np.zeros((height, width), np.uint8)
    written = np.zeros((height, width), bool)
    buf = bytes(pixel_bytes)
    n = len(buf)
    i = x = y = 0

    def fail(at: int, why: str):
        raise ParseError(file, path, offset + at, why)

    while i < n:
        if i + 2 > n:
            if strict:
                fail(i, f"truncated pixel stream: half a word at byte {i} of {n}")
            break
        w = buf[i] | (buf[i + 1] << 8)
        op, arg = w & 3, w >> 2
        at = i
        i += 2
        if op == 0:
            x = arg
        elif op == 2:
            y = arg
        elif op == 1:
            run = buf[i:i + arg]
            if len(run) < arg and strict:
                fail(at, f"truncated pixel stream: copy of {arg} bytes with {len(run)} left")
            i += arg
            if run:
                if strict and (y >= height or x + len(run) > width):
                    fail(at, f"copy of {len(run)} pixels at ({x}, {y}) outside the {width}x{height} sprite")
                if y < height and x < width:
                    k = min(len(run), width - x)
                    data[y, x:x + k] = np.frombuffer(run[:k], np.uint8)
                    written[y, x:x + k] = True
            x = 0
        else:  # op == 3
            break
    return np.ma.MaskedArray(data, mask=~written)


def sprite_images(path: str | os.PathLike, *, strict: bool = True) -> list[SpriteImage]:
    """Decode every sprite of an AF or BK file, in file order.

    Missing sprites (``missing != 0``, no pixels stored) are resolved to the
    most recent earlier sprite with the same ``index`` (over all moves or
    animations in file order) and decoded with that sprite's width and height.

    Parameters
    ----------
    path : path-like
        An AF or BK file (detected by content).
    strict : bool
        Passed to :func:`decode_sprite`; also, True raises
        :class:`~animre.base.errors.ParseError` for a missing sprite with no
        earlier sprite of its index, False gives it a fully transparent image
        of its own size.

    Examples
    --------
    >>> imgs = sprite_images("data/samples/af/FIGHTR0.AF")
    >>> imgs[0].number, imgs[0].sprite, imgs[0].image.shape
    (0, 0, (22, 19))
    """
    kind, obj, bases = _parse_omf(path)
    if kind == "af":
        records = [(m.move_number, m.animation, f"moves[{k}]") for k, m in enumerate(obj.moves[:-1])]
    elif kind == "bk":
        records = [(a.anim_number, a.animation, f"animations[{k}]") for k, a in enumerate(obj.animations[:-1])]
    else:
        raise ParseError(str(path), "", 0, "not an OMF AF or BK file")
    name = str(path)
    out: list[SpriteImage] = []
    latest: dict[int, tuple[tuple[int, int], np.ma.MaskedArray]] = {}
    for number, anim, rpath in records:
        for p, sp in enumerate(anim.sprites):
            spath = f"{rpath}.animation.sprites[{p}]"
            source = None
            if sp.missing:
                if sp.index in latest:
                    source, img = latest[sp.index]
                elif strict:
                    raise ParseError(name, spath + ".index", bases.span(sp, "index")[0],
                                     f"missing sprite with index {sp.index} and no earlier sprite of that index")
                else:
                    img = np.ma.MaskedArray(np.zeros((sp.height, sp.width), np.uint8), mask=True)
            else:
                start = bases.span(sp, "pixels")[0]
                img = decode_sprite(sp.pixels, sp.width, sp.height, strict=strict, file=name,
                                    path=spath + ".pixels", offset=start)
                latest[sp.index] = ((number, p), img)
            out.append(SpriteImage(number, p, img, sp.x, sp.y, sp.index, bool(sp.missing), source))
    return out


def _parse_omf(path, kinds: tuple[str, ...] | None = None):
    """Parse an AF or BK file with the shipped parsers: ``(kind, object, bases)``.

    The kind is tried by file suffix first, then the other one; decoders sit
    below format detection and the corpus, so they parse with the compiled
    parsers directly.
    """
    data = Path(path).read_bytes()
    if kinds is None:
        kinds = ("bk", "af") if str(path).lower().endswith(".bk") else ("af", "bk")
    first = None
    for kind in kinds:
        try:
            obj = parse_bytes(data, load_parser(kind), str(path))
            return kind, obj, Bases(obj)
        except ParseError as e:
            first = first or e
    raise first


def grey_palette() -> np.ndarray:
    """The default palette of :func:`to_rgba`: a grey ramp, index i -> (i, i, i, 255)."""
    ramp = np.arange(256, dtype=np.uint8)
    return np.stack([ramp, ramp, ramp, np.full(256, 255, np.uint8)], axis=1)


def bk_palette(path_or_colors, palette: int = 0) -> np.ndarray:
    """A BK palette as a (256, 4) uint8 RGBA table.

    ``path_or_colors`` is a BK file path or the 768 ``colors`` bytes of a
    palette record. Each 6-bit channel c (0-63) becomes ``(c << 2) | (c >> 4)``
    (0 -> 0, 63 -> 255), the scaling OpenOMF uses.
    """
    if isinstance(path_or_colors, (bytes, bytearray, memoryview)):
        colors = bytes(path_or_colors)
    else:
        _, obj, _ = _parse_omf(path_or_colors, ("bk",))
        if palette >= len(obj.palettes):
            raise UsageError(f"{path_or_colors}: palette {palette} requested, the file has {len(obj.palettes)}")
        colors = obj.palettes[palette].colors
    if len(colors) != 768:
        raise ValueError(f"a palette has 768 colour bytes, got {len(colors)}")
    c = np.frombuffer(colors, np.uint8).reshape(256, 3) & 0x3F
    rgb = (c << 2) | (c >> 4)
    return np.concatenate([rgb, np.full((256, 1), 255, np.uint8)], axis=1).astype(np.uint8)


def to_rgba(image: np.ma.MaskedArray, palette=None) -> np.ndarray:
    """Colour an indexed sprite image: (height, width, 4) uint8, transparent pixels alpha 0.

    Parameters
    ----------
    image : numpy.ma.MaskedArray
        From :func:`decode_sprite` or :func:`sprite_images`.
    palette : None, (256, 3|4) array, 768 bytes, or a BK file path
        None uses :func:`grey_palette` (index i -> grey level i). Bytes or a
        path are read as a 6-bit BK palette (:func:`bk_palette`); an array is
        taken as 8-bit RGB(A).

    Examples
    --------
    >>> to_rgba(decode_sprite(bytes([0x05, 0x00, 7, 0x03, 0x00]), 2, 1))[0].tolist()
    [[7, 7, 7, 255], [0, 0, 0, 0]]
    """
    if palette is None:
        pal = grey_palette()
    elif isinstance(palette, (bytes, bytearray, memoryview, str, os.PathLike)):
        pal = bk_palette(palette)
    else:
        pal = np.asarray(palette, dtype=np.uint8)
        if pal.ndim != 2 or pal.shape[0] != 256 or pal.shape[1] not in (3, 4):
            raise ValueError(f"palette must have shape (256, 3) or (256, 4), got {pal.shape}")
        if pal.shape[1] == 3:
            pal = np.concatenate([pal, np.full((256, 1), 255, np.uint8)], axis=1)
    idx = np.ma.getdata(image).astype(np.intp)
    out = pal[idx].copy()
    out[np.ma.getmaskarray(image)] = 0
    return out
