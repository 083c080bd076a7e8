"""ICN sprites: the run-length pixel commands of one sprite decoded, and every sprite of a file."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ....base.errors import ParseError
from ....spec.compiler import load_parser
from ....spec.parse import parse_bytes

MAX_PIXELS = 1 << 22  # 4 Mpixel per sprite; the game's largest sprites are full screens (640 x 480)
MAX_TOTAL_PIXELS = 1 << 24  # per file: 16 Mpixel (two uint8 layers: 32 MB)
HEADER_SIZE = 6


class IcnSprite(NamedTuple):
    """One decoded ICN sprite.

    Attributes
    ----------
    index : int
        Position in the ICN file (the frame id FRM sequences use).
    image : numpy.ndarray
        uint8 colour indices, shape (height, width); 0 where nothing was drawn.
    transform : numpy.ndarray
        uint8 engine transform level per pixel: 0 opaque, 1 transparent,
        2-5 shadow (darkening, 2 strongest), 6-15 lightening.
    offset_x, offset_y : int
        The sprite header's offsets from the drawing anchor.
    type_byte : int
        The header's type byte (bit 0x20: monochrome).
    """

    index: int
    image: np.ndarray
    transform: np.ndarray
    offset_x: int
    offset_y: int
    type_byte: int

    @property
    def transparent(self) -> np.ndarray:
        """Boolean mask of transparent pixels (transform level 1)."""
        return self.transform == 1

    @property
    def shadow(self) -> np.ndarray:
        """Boolean mask of shadow pixels (darkening levels 2-5)."""
        return (self.transform >= 2) & (self.transform <= 5)

    @property
    def monochrome(self) -> bool:
        """True when the type byte marks a monochrome sprite (bit 0x20)."""
        return bool(self.type_byte & 0x20)


def decode_sprite(data: bytes, width: int, height: int, monochrome: bool = False, *, strict: bool = True,
                  file: str = "<icn>", path: str = "data", offset: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Decode one sprite's pixel commands into ``(image, transform)`` arrays of shape (height, width).

    Parameters
    ----------
    data : bytes
        The sprite's commands (from its data offset to the next sprite's).
    width, height : int
        From the sprite header; more than :data:`MAX_PIXELS` pixels is an error.
    monochrome : bool
        Decode with the monochrome commands (type byte bit 0x20).
    strict : bool
        True: a command whose operands or pixels run past the data, or that
        draws outside the sprite, raises :class:`~animre.base.errors.ParseError`.
        False: stop / clip as described in the module docstring.
    file, path, offset : str, str, int
        For error messages; ``offset`` is the absolute offset of ``data[0]``.

    Examples
    --------
    >>> img, tf = decode_sprite(bytes([0x02, 0x00, 0x81, 0x01, 0x80]), 2, 2, monochrome=True)
    >>> tf.tolist()
    [[0, 0], [1, 0]]
    """
    width, height = int(width), int(height)

    def fail(at: int, why: str):
        raise ParseError(file, path, offset + at, why)

    if width < 0 or height < 0 or width * height > MAX_PIXELS:
        fail(0, f"sprite of {width} x {height} pixels exceeds the limit of {MAX_PIXELS} pixels")
    image = np.zeros((height, width), np.uint8)
    transform = np.ones((height, width), np.uint8)
    buf = bytes(data)
    n = len(buf)
    i = x = y = 0

    def span(at: int, count: int) -> tuple[int, int] | None:
        """The columns [x, x + count) of row y inside the sprite, or None (strict: an error)."""
        if count == 0:
            return None
        if y >= height or x + count > width:
            if strict:
                fail(at, f"{count} pixels at ({x}, {y}) outside the {width} x {height} sprite")
            if y >= height or x >= width:
                return None
            return x, width
        return x, x + count

    def operand(at: int, k: int) -> int:
        """Byte ``k`` after the command at ``at``; past the data is an error (strict) or the end."""
        if at + k >= n:
            if strict:
                fail(at, f"command 0x{buf[at]:02X} needs {k} operand byte(s), the data ends at {n}")
            return -1
        return buf[at + k]

    while i < n:
        c = buf[i]
        at = i
        if c == 0x00:
            y += 1
            x = 0
            i += 1
        elif c == 0x80:
            break
        elif monochrome:
            if c < 0x80:
                s = span(at, c)
                if s:
                    transform[y, s[0]:s[1]] = 0
            else:
                pass  # 0x81-0xFF: transparent pixels
            x += c if c < 0x80 else c - 0x80
            i += 1
        elif c < 0x80:
            if i + 1 + c > n:
                if strict:
                    fail(at, f"copy of {c} pixels with {n - i - 1} data bytes left")
                break  # the engine stops here
            s = span(at, c)
            if s:
                image[y, s[0]:s[1]] = np.frombuffer(buf, np.uint8, s[1] - s[0], i + 1)
                transform[y, s[0]:s[1]] = 0
            x += c
            i += 1 + c
        elif c < 0xC0:
            x += c - 0x80
            i += 1
        elif c == 0xC0:
            t = operand(at, 1)
            if t < 0:
                break
            count, used = t & 3, 2
            if count == 0:
                count = operand(at, 2)
                if count < 0:
                    break
                used = 3
            level = ((t & 0x3C) >> 2) + 2
            if t & 0x40 and level < 16:
                s = span(at, count)
                if s:
                    transform[y, s[0]:s[1]] = level
            x += count
            i += used
        else:
            if c == 0xC1:
                count = operand(at, 1)
                colour = operand(at, 2) if count >= 0 else -1
                used = 3
            else:
                count, colour, used = c - 0xC0, operand(at, 1), 2
            if count < 0 or colour < 0:
                break
            s = span(at, count)
            if s:
                image[y, s[0]:s[1]] = colour
                transform[y, s[0]:s[1]] = 0
            x += count
            i += used
    image[transform != 0] = 0  # only opaque pixels carry a colour
    return image, transform


def read_icn(data: bytes, name: str = "<icn>", *, strict: bool = True) -> list[IcnSprite]:
    """Decode every sprite of an ICN file's bytes, in file order.

    The headers are read with the shipped ``icn`` parser (the spec is the
    source of truth); each sprite's data is decoded with :func:`decode_sprite`.

    Examples
    --------
    >>> import struct
    >>> icn = struct.pack("<HI", 1, 16) + struct.pack("<hhHHBI", -1, -2, 2, 1, 0, 13) + bytes([0xC2, 5, 0x80])
    >>> s = read_icn(icn)[0]
    >>> s.image.tolist(), s.offset_x, s.offset_y
    ([[5, 5]], -1, -2)
    """
    root = parse_bytes(bytes(data), load_parser("icn"), name)
    out = []
    total = 0
    for k, sp in enumerate(root.sprites):
        total += sp.width * sp.height if sp.width * sp.height <= MAX_PIXELS else 0  # else: decode_sprite refuses it
        if total > MAX_TOTAL_PIXELS:
            raise ParseError(name, f"sprites[{k}].width", HEADER_SIZE + 13 * k + 4,
                             f"the sprites up to this one add up to {total} pixels, "
                             f"more than the limit of {MAX_TOTAL_PIXELS} per file")
        img, tf = decode_sprite(sp.data, sp.width, sp.height, sp.is_monochrome, strict=strict, file=name,
                                path=f"sprites[{k}].data", offset=HEADER_SIZE + sp.ofs_data)
        out.append(IcnSprite(k, img, tf, sp.offset_x, sp.offset_y, sp.type_byte))
    return out


def icn_sprites(path: str | os.PathLike, *, strict: bool = True) -> list[IcnSprite]:
    """Decode every sprite of an ICN file.

    Examples
    --------
    >>> sprites = icn_sprites("data/samples/icn/GOBLIN.ICN")
    >>> sprites[0].image.shape == sprites[0].transform.shape
    True
    """
    return read_icn(Path(path).read_bytes(), str(path), strict=strict)
