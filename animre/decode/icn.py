"""Heroes of Might and Magic II ICN sprites: decode their run-length pixel commands.

Hand-written because no library decodes ICN sprites (image libraries do not
know the format, and a Kaitai spec cannot express a drawing program). The
rules follow the fheroes2 engine's ICN sprite decoder. Every pixel starts
transparent (colour index 0); ``x`` starts at 0 on row 0. Commands of a
normal sprite:

- ``0x00``: end of the row (the rest of it stays transparent), next row.
- ``0x01``-``0x7F`` = n: copy the next n bytes as colour indices.
- ``0x80``: end of the sprite (it may end the last row without a ``0x00``).
- ``0x81``-``0xBF``: skip (c - 0x80) transparent pixels.
- ``0xC0`` then t: n = t & 3, or the next byte when that is 0; when
  ``t & 0x40`` the n pixels get the transform level ((t & 0x3C) >> 2) + 2
  (levels 16 and 17 are ignored); otherwise they are skipped. Levels 2 (strong)
  to 5 (light) darken the background (shadows), 6 (strong) to 10 (light)
  lighten it.
- ``0xC1`` n c: n pixels of colour c.
- ``0xC2``-``0xFF`` c: (c - 0xC0) pixels of colour c.

A monochrome sprite (type byte bit ``0x20``) has ``0x00`` end of row,
``0x01``-``0x7F`` = n opaque pixels (colour 0, no colour bytes), ``0x80`` end,
``0x81``-``0xFF`` skip (c - 0x80). Decoding also stops at the end of the
sprite's data (the next sprite's data offset).

Result per pixel: the colour index and the engine's transform level (0
opaque, 1 transparent, 2-15 shadow and light levels). With ``strict=True``
(the default) data the engine would read past or pixels it would write
outside the sprite raise :class:`~animre.errors.ParseError` naming the file,
the field path and the absolute offset; ``strict=False`` stops where the
engine stops (a literal run past the data) and clips writes. Work is bounded
by the data length and the output by ``width * height`` (capped at
:data:`MAX_PIXELS` per sprite and :data:`MAX_TOTAL_PIXELS` per file).

Examples
--------
>>> img, tf = decode_sprite(bytes([0x02, 7, 8, 0x81, 0xC3, 9, 0x80]), 6, 1)
>>> img.tolist(), tf.tolist()
([[7, 8, 0, 9, 9, 9]], [[0, 0, 1, 0, 0, 0]])
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..errors import ParseError, UsageError
from ..spec.compiler import load_parser
from ..spec.parse import parse_bytes
from .omf_sprites import grey_palette

__all__ = [
    "IcnSprite",
    "decode_sprite",
    "read_icn",
    "icn_sprites",
    "kb_palette",
    "stand_in_palette",
    "icn_palette",
    "sprite_rgba",
    "sequence_frames",
    "sequence_interval_ms",
    "icn_for_frm",
    "MONSTER_FILES",
    "MAX_PIXELS",
    "MAX_TOTAL_PIXELS",
    "SHADOW_ALPHA",
]

MAX_PIXELS = 1 << 22  # 4 Mpixel per sprite; the game's largest sprites are full screens (640 x 480)
MAX_TOTAL_PIXELS = 1 << 24  # per file: 16 Mpixel (two uint8 layers: 32 MB)
HEADER_SIZE = 6
SHADOW_ALPHA = 128  # a shadow pixel: black at half opacity
LIGHT_ALPHA = 64  # a lightening pixel: white at quarter opacity

# The engine's monster table pairs each monster's FRM.BIN with its ICN
# (only monsters whose FRM name is unique to one ICN; upgrades sharing an FRM are left out).
MONSTER_FILES: dict[str, str] = {
    "PEAS_FRM.BIN": "PEASANT.ICN", "ARCHRFRM.BIN": "ARCHER.ICN", "PIKMNFRM.BIN": "PIKEMAN.ICN",
    "SWRDSFRM.BIN": "SWORDSMN.ICN", "CVLRYFRM.BIN": "CAVALRYR.ICN", "PALADFRM.BIN": "PALADIN.ICN",
    "GOBLNFRM.BIN": "GOBLIN.ICN", "ORC__FRM.BIN": "ORC.ICN", "WOLF_FRM.BIN": "WOLF.ICN",
    "OGRE_FRM.BIN": "OGRE.ICN", "TROLLFRM.BIN": "TROLL.ICN", "CYCLOFRM.BIN": "CYCLOPS.ICN",
    "SPRITFRM.BIN": "SPRITE.ICN", "DWARFFRM.BIN": "DWARF.ICN", "ELF__FRM.BIN": "ELF.ICN",
    "DRUIDFRM.BIN": "DRUID.ICN", "UNICOFRM.BIN": "UNICORN.ICN", "PHOENFRM.BIN": "PHOENIX.ICN",
    "CENTRFRM.BIN": "CENTAUR.ICN", "GARGLFRM.BIN": "GARGOYLE.ICN", "GRIFFFRM.BIN": "GRIFFIN.ICN",
    "MINOTFRM.BIN": "MINOTAUR.ICN", "HYDRAFRM.BIN": "HYDRA.ICN", "DRAGGFRM.BIN": "DRAGGREE.ICN",
    "HALFLFRM.BIN": "HALFLING.ICN", "BOAR_FRM.BIN": "BOAR.ICN", "GOLEMFRM.BIN": "GOLEM.ICN",
    "ROC__FRM.BIN": "ROC.ICN", "MAGE1FRM.BIN": "MAGE1.ICN", "SKEL_FRM.BIN": "SKELETON.ICN",
    "ZOMB_FRM.BIN": "ZOMBIE.ICN", "MUMMYFRM.BIN": "MUMMYW.ICN", "VAMPIFRM.BIN": "VAMPIRE.ICN",
    "LICH_FRM.BIN": "LICH.ICN", "DRABNFRM.BIN": "DRAGBONE.ICN", "GHOSTFRM.BIN": "GHOST.ICN",
}


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
        draws outside the sprite, raises :class:`~animre.errors.ParseError`.
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


def kb_palette(data: bytes) -> np.ndarray:
    """A ``KB.PAL`` palette (768 bytes of 6-bit VGA values) as (256, 4) uint8 RGBA.

    Components are scaled the engine's way, ``c << 2`` (63 -> 252).

    Examples
    --------
    >>> kb_palette(bytes([63, 0, 1]) * 256)[0].tolist()
    [252, 0, 4, 255]
    """
    if len(data) != 768:
        raise UsageError(f"a KB.PAL palette has 768 bytes, got {len(data)}")
    c = np.frombuffer(bytes(data), np.uint8).reshape(256, 3) & 0x3F
    return np.concatenate([c << 2, np.full((256, 1), 255, np.uint8)], axis=1).astype(np.uint8)


def stand_in_palette() -> np.ndarray:
    """The palette used when no ``KB.PAL`` is at hand: a grey ramp, index i -> (i, i, i).

    Not the game's colours; it only makes index differences visible.
    """
    return grey_palette()


def icn_palette(source: str | os.PathLike | bytes | None = None) -> np.ndarray:
    """The game palette as (256, 4) RGBA: from ``KB.PAL`` when there is one, else :func:`stand_in_palette`.

    ``source``: the 768 bytes, a ``KB.PAL`` path, or a folder searched
    (recursively) for a file named ``KB.PAL`` (any case); None = the stand-in.

    Examples
    --------
    >>> icn_palette("data/samples").shape
    (256, 4)
    """
    if source is None:
        return stand_in_palette()
    if isinstance(source, (bytes, bytearray, memoryview)):
        return kb_palette(bytes(source))
    p = Path(source)
    if p.is_dir():
        found = sorted(q for q in p.rglob("*") if q.name.upper() == "KB.PAL" and q.is_file())
        return kb_palette(found[0].read_bytes()) if found else stand_in_palette()
    return kb_palette(p.read_bytes())


def sprite_rgba(sprite: IcnSprite, palette: np.ndarray | None = None) -> np.ndarray:
    """Colour a sprite: (height, width, 4) uint8 RGBA.

    Opaque pixels take their palette colour; transparent pixels get alpha 0;
    shadow pixels (levels 2-5) are black with alpha :data:`SHADOW_ALPHA`;
    lightening pixels (6-15) white with alpha 64.

    Examples
    --------
    >>> s = IcnSprite(0, np.array([[3, 0, 0]], np.uint8), np.array([[0, 1, 2]], np.uint8), 0, 0, 0)
    >>> sprite_rgba(s).tolist()
    [[[3, 3, 3, 255], [0, 0, 0, 0], [0, 0, 0, 128]]]
    """
    pal = stand_in_palette() if palette is None else np.asarray(palette, np.uint8)
    if pal.shape[-1] == 3:
        pal = np.concatenate([pal, np.full((len(pal), 1), 255, np.uint8)], axis=1)
    out = pal[sprite.image.astype(np.intp)].copy()
    tf = sprite.transform
    out[tf == 1] = 0
    out[(tf >= 2) & (tf <= 5)] = (0, 0, 0, SHADOW_ALPHA)
    out[tf >= 6] = (255, 255, 255, LIGHT_ALPHA)
    return out


def icn_for_frm(name: str) -> str:
    """The ICN file a monster's ``*FRM.BIN`` animates, by the engine's monster table.

    Names the table does not hold fall back to the same stem
    (``XYZFRM.BIN`` -> ``XYZ.ICN``).

    Examples
    --------
    >>> icn_for_frm("frm/GOBLNFRM.BIN"), icn_for_frm("MYMONFRM.BIN")
    ('GOBLIN.ICN', 'MYMON.ICN')
    """
    base = Path(str(name).replace("\\", "/")).name.upper()
    if base in MONSTER_FILES:
        return MONSTER_FILES[base]
    stem = base[:-len(".BIN")] if base.endswith(".BIN") else base
    stem = stem[:-len("FRM")] if stem.endswith("FRM") else stem
    return f"{stem}.ICN"


MOVE_SLOTS = range(0, 7)  # slots with per-position X offsets (move_start .. unused)
SHOOT_SLOTS = range(28, 34)
IDLE_SLOTS = range(8, 13)
BATTLE_FRAME_DELAY_MS = 120  # the engine's battle frame delay at normal battle speed
BATTLE_IDLE_DELAY_MS = 150  # the engine's idle animation frame delay at normal speed


def sequence_interval_ms(slot: int, num_frames: int, frm: Mapping) -> float:
    """Milliseconds per frame of an FRM sequence, as the engine times it at normal battle speed.

    Movement slots (0-6) spread ``walk_speed`` over the sequence's frames,
    shooting slots (28-33) spread ``shoot_speed``; idles use the engine's idle
    delay (150 ms) and everything else its battle frame delay (120 ms).
    ``frm``: the FRM's root row (``walk_speed``, ``shoot_speed``).

    Examples
    --------
    >>> sequence_interval_ms(2, 4, {"walk_speed": 400, "shoot_speed": 0})
    100.0
    >>> sequence_interval_ms(13, 4, {"walk_speed": 400, "shoot_speed": 0})
    120.0
    """
    n = max(int(num_frames), 1)
    if slot in MOVE_SLOTS and int(frm["walk_speed"]) > 0:
        return int(frm["walk_speed"]) / n
    if slot in SHOOT_SLOTS and int(frm["shoot_speed"]) > 0:
        return int(frm["shoot_speed"]) / n
    return float(BATTLE_IDLE_DELAY_MS if slot in IDLE_SLOTS else BATTLE_FRAME_DELAY_MS)


def sequence_frames(tables: Mapping[str, pd.DataFrame], sprites: list[IcnSprite], sequence: int | str,
                    *, palette: np.ndarray | None = None, file: str | None = None,
                    ) -> tuple[np.ndarray, pd.DataFrame]:
    """The frames of one FRM sequence as RGBA images on a common canvas.

    Each frame is its ICN sprite drawn at the anchor plus the sprite's own
    offsets plus, for movement slots, the FRM X offset of its position (the
    engine shifts a moving unit by it); the canvas is the union of all
    frames' boxes. Transparent pixels have alpha 0, shadows are
    semi-transparent black (:func:`sprite_rgba`).

    Parameters
    ----------
    tables : mapping of table name -> DataFrame
        The FRM tables (``frm``, ``frm_sequences``, ``frm_frames``,
        ``frm_x_offsets``), e.g. ``corpus.tables`` or the values of
        :func:`animre.tables.read.read_tables`; with several files pass ``file``.
    sprites : list of IcnSprite
        The monster's ICN (:func:`icn_sprites` of :func:`icn_for_frm`'s file).
    sequence : int or str
        Slot number or name (``"idle_1"``, ``"attack_2_front"`` ...).
    palette : (256, 3|4) array, optional
        Default :func:`stand_in_palette`.

    Returns
    -------
    frames : numpy.ndarray
        uint8 array of shape (n, canvas height, canvas width, 4).
    info : pandas.DataFrame
        One row per frame: ``position``, ``frame_id``, ``x_offset`` (FRM),
        ``x``, ``y`` (the frame's top-left on the canvas), ``anchor_x``,
        ``anchor_y`` (the anchor on the canvas) and ``interval_ms``
        (:func:`sequence_interval_ms`).

    Examples
    --------
    >>> from animre.formats import get_format
    >>> from animre.tables.read import read_tables
    >>> t = {k: v[0] for k, v in read_tables(open("data/samples/frm/GOBLNFRM.BIN", "rb").read(),
    ...                                      "GOBLNFRM.BIN", get_format("frm")).items()}
    >>> frames, info = sequence_frames(t, icn_sprites("data/samples/icn/GOBLIN.ICN"), "static")
    >>> frames.shape[0], frames.shape[-1]
    (1, 4)
    """
    def pick(name: str) -> pd.DataFrame:
        if name not in tables:
            raise UsageError(f"sequence_frames needs the table {name!r}")
        df = tables[name]
        if file is not None and "file" in df:
            df = df[df["file"] == file]
        elif "file" in df and df["file"].nunique() > 1:
            raise UsageError(f"{name} holds several files; pass file=")
        return df

    seqs, frames_t, xo, root = pick("frm_sequences"), pick("frm_frames"), pick("frm_x_offsets"), pick("frm")
    if isinstance(sequence, str):
        hit = seqs[seqs["animation_name"] == sequence] if "animation_name" in seqs else seqs.iloc[:0]
        if hit.empty:
            raise UsageError(f"no sequence named {sequence!r}")
        slot = int(hit["slot"].iloc[0])
    else:
        slot = int(sequence)
    srow = seqs[seqs["slot"] == slot]
    if srow.empty:
        raise UsageError(f"no sequence slot {slot}")
    n = int(srow["num_frames"].iloc[0])
    ids = frames_t[(frames_t["slot"] == slot) & (frames_t["position"] < n)].sort_values("position")
    ids = ids["frame_ids"].astype(int).tolist()
    offs = [0] * len(ids)
    if slot in MOVE_SLOTS:
        row = xo[xo["slot"] == slot].sort_values("position")["offsets"].astype(int).tolist()
        offs = [row[p] if p < len(row) else 0 for p in range(len(ids))]
    for p, fid in enumerate(ids):
        if fid >= len(sprites):
            raise UsageError(f"slot {slot} position {p}: frame id {fid} but the ICN has {len(sprites)} sprites")
    interval = sequence_interval_ms(slot, n, root.iloc[0])
    if not ids:
        return np.zeros((0, 1, 1, 4), np.uint8), pd.DataFrame(
            columns=["position", "frame_id", "x_offset", "x", "y", "anchor_x", "anchor_y", "interval_ms"])
    boxes = [(sprites[f].offset_x + o, sprites[f].offset_y, sprites[f].image.shape[1], sprites[f].image.shape[0])
             for f, o in zip(ids, offs)]
    x0 = min(min(b[0] for b in boxes), 0)
    y0 = min(min(b[1] for b in boxes), 0)
    x1 = max(max(b[0] + b[2] for b in boxes), 1)
    y1 = max(max(b[1] + b[3] for b in boxes), 1)
    if (y1 - y0) * (x1 - x0) > MAX_PIXELS:
        raise UsageError(f"slot {slot}: a canvas of {x1 - x0} x {y1 - y0} pixels exceeds {MAX_PIXELS} pixels "
                         "(sprite or FRM offsets far apart)")
    out = np.zeros((len(ids), y1 - y0, x1 - x0, 4), np.uint8)
    rows = []
    for k, (fid, o, (bx, by, bw, bh)) in enumerate(zip(ids, offs, boxes)):
        out[k, by - y0:by - y0 + bh, bx - x0:bx - x0 + bw] = sprite_rgba(sprites[fid], palette)
        rows.append((k, fid, o, bx - x0, by - y0, -x0, -y0, interval))
    info = pd.DataFrame(rows, columns=["position", "frame_id", "x_offset", "x", "y", "anchor_x", "anchor_y",
                                       "interval_ms"])
    return out, info
