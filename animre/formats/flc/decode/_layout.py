"""The chunk layout of an FLI/FLC file: what decoding needs from the chunk tree, read by the spec or
from the chunk headers alone.

The chunk tree comes from the Kaitai parse of ``ksy/flc.ksy`` (the spec
decides what a well-formed file is and reports what is wrong);
:func:`layout_of_bytes` reads the same layout from the chunk headers of a
plainly well-formed file, faster, and steps aside (None) for anything else.
"""

from __future__ import annotations

import struct
from typing import Any

from ....spec.compiler import load_parser
from ....spec.parse import parse_bytes
from ....spec.ranges import Bases

_CHUNK_TYPE = load_parser("flc").Flc.ChunkType  # the spec's enum: no chunk type is repeated here
FRAME_TYPE = int(_CHUNK_TYPE.frame)
PREFIX_TYPE = int(_CHUNK_TYPE.prefix)
COLOR_256, DELTA_FLC, COLOR_64, DELTA_FLI, BLACK, BYTE_RUN, COPY, PSTAMP = 4, 7, 11, 12, 13, 15, 16, 18


def enum_int(v: Any) -> int:
    """The integer of a parsed enum value (or of a plain integer, which a parser keeps for unknown values).

    Examples
    --------
    >>> enum_int(_CHUNK_TYPE.frame) == FRAME_TYPE, enum_int(7)
    (True, 7)
    """
    return int(getattr(v, "value", v))


def parse_flc(data: bytes, name: str) -> tuple[Any, Bases]:
    """(parsed FLI/FLC, its Bases) from the bytes, with the shipped parser of the ``flc`` spec.

    Examples
    --------
    >>> root, bases = parse_flc(open("data/samples/flc/Warrior/Run.flc", "rb").read(), "Run.flc")
    >>> root.header.num_frames, bases.span(root.chunks[0], "len_chunk")[0]
    (48, 128)
    """
    root = parse_bytes(data, load_parser("flc"), name)
    return root, Bases(root)


class SubChunk:
    """One sub-chunk of a frame: where its bytes are, for the codecs and the error messages."""

    __slots__ = ("index", "type", "ofs", "start", "end", "field", "packets")

    def __init__(self, index: int, type_: int, ofs: int, start: int, end: int, field: str,
                 packets: list[tuple[int, int, int]] | None):
        self.index, self.type, self.ofs, self.start, self.end = index, type_, ofs, start, end
        self.field, self.packets = field, packets

    def key(self) -> tuple:
        return (self.index, self.type, self.ofs, self.start, self.end, self.field, self.packets)


class Layout:
    """What decoding needs from a parsed file: header values and, per frame chunk, its sub-chunks."""

    __slots__ = ("num_frames", "width", "height", "depth", "flicanim", "frames")

    def __init__(self, num_frames: int, width: int, height: int, depth: int, flicanim: dict | None,
                 frames: list[tuple[int, list[SubChunk]]]):
        self.num_frames, self.width, self.height, self.depth = num_frames, width, height, depth
        self.flicanim, self.frames = flicanim, frames

    def key(self) -> tuple:
        return (self.num_frames, self.width, self.height, self.depth, self.flicanim,
                [(c, [s.key() for s in subs]) for c, subs in self.frames])


_U16, _U32 = struct.Struct("<H"), struct.Struct("<I")
_FLICANIM = struct.Struct("<IiHHHHHHIi")
_FLICANIM_KEYS = ("len_header", "flags", "num_anims", "anim_length", "x_offset", "y_offset", "xs_orig", "ys_orig",
                  "anim_time", "directions")


def _palette_packets(data: bytes, p: int, end: int) -> tuple[list[tuple[int, int, int]], int] | None:
    """The packets of a palette body at ``p`` as (skip, colours, offset of the colours), and the end of
    the last packet; None where the spec's ``palette_body`` does not parse."""
    if p + 2 > end:
        return None
    num = data[p] | (data[p + 1] << 8)
    p += 2
    if num * 2 > end - p:
        return None
    packets = []
    for _ in range(num):
        if p + 2 > end:
            return None
        n = data[p + 1] or 256
        if p + 2 + 3 * n > end:
            return None
        packets.append((data[p], n, p + 2))
        p += 2 + 3 * n
    return packets, p


def _flicanim(data: bytes, is_flicanim: bool) -> dict | None:
    return dict(zip(_FLICANIM_KEYS, _FLICANIM.unpack_from(data, 0x58))) if is_flicanim else None


def layout_of_tree(root: Any, bases: Bases, data: bytes) -> Layout:
    """The chunk layout decoding needs, from the Kaitai parse of the ``flc`` spec (the spec decides)."""
    hdr = root.header
    frames: list[tuple[int, list[SubChunk]]] = []
    for k, chunk in enumerate(root.chunks):
        if enum_int(chunk.chunk_type) != FRAME_TYPE:
            continue
        fend = bases.span(chunk, "body")[1]
        subs = []
        for j, sub in enumerate(chunk.body.chunks):
            t = enum_int(sub.chunk_type)
            q = bases.span(sub, "len_chunk")[0]
            field = "body" if sub.has_valid_size or not sub.is_palette else "palette_unsized"
            start, end = bases.span(sub, field)
            packets = None
            if sub.is_palette:
                got = _palette_packets(data, start, end if field == "body" else fend)
                packets = got[0] if got is not None else []
            subs.append(SubChunk(j, t, q, start, end, field, packets))
        frames.append((k, subs))
    return Layout(hdr.num_frames, hdr.width, hdr.height, hdr.depth, _flicanim(data, bool(root.is_flicanim)), frames)


def layout_of_bytes(data: bytes) -> Layout | None:
    """The same layout as :func:`layout_of_tree` for a file whose chunks are all well-formed, read from the
    chunk headers alone; None for anything else (the spec's parse then decides and reports).

    Why a second reader: for a plain FLI such as Pillow's ``a.fli`` (385 chunks, most of them tiny
    deltas) the Kaitai walk of the chunk tree costs more than decoding the pixels. This walk only
    accepts what the spec reads the same way: the header's magic, top-level chunks of at least 6
    bytes that end inside the file, frame bodies with a full 10-byte header, sub-chunks whose declared
    size fits the frame (or palettes with an impossible size, read by their packets as the spec does),
    palettes whose packets parse, PSTAMP bodies of at least 6 bytes. A test checks that both readers
    give equal layouts on every sample, the real files and hundreds of mutations.
    """
    size = len(data)
    if size < 128 or _U16.unpack_from(data, 4)[0] not in (0xAF11, 0xAF12):
        return None
    u16, u32 = _U16.unpack_from, _U32.unpack_from
    frames: list[tuple[int, list[SubChunk]]] = []
    pos, k = 128, 0
    while pos < size:
        if pos + 6 > size:
            return None
        n = u32(data, pos)[0]
        if n < 6 or pos + n > size:
            return None
        if u16(data, pos + 4)[0] == FRAME_TYPE:
            fb, fend = pos + 6, pos + n
            if fend - fb < 10:
                return None
            subs: list[SubChunk] = []
            q, j = fb + 10, 0
            while q < fend:
                if q + 6 > fend:
                    return None
                ln, t = u32(data, q)[0], u16(data, q + 4)[0]
                palette = t == COLOR_256 or t == COLOR_64
                start = q + 6
                if 6 <= ln <= fend - q:  # has_valid_size
                    end, field, packets = q + ln, "body", None
                    if palette:
                        got = _palette_packets(data, start, end)
                        if got is None:
                            return None
                        packets = got[0]
                    elif t == PSTAMP and end - start < 6:
                        return None
                elif palette:  # an impossible size: the packets say where the palette ends
                    got = _palette_packets(data, start, fend)
                    if got is None:
                        return None
                    packets, end = got
                    if fend - end < 6:
                        end = fend
                    field = "palette_unsized"
                else:
                    return None
                subs.append(SubChunk(j, t, q, start, end, field, packets))
                q, j = end, j + 1
            frames.append((k, subs))
        pos, k = pos + n, k + 1
    num_frames, width, height, depth = struct.unpack_from("<4H", data, 6)
    return Layout(num_frames, width, height, depth, _flicanim(data, u32(data, 0x58)[0] == 0x1C), frames)
