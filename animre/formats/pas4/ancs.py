"""ANCS character sets read by structure, far enough to find each character's PAS4 database.

Metroid Prime 1 and 2 keep a character's PAS4 database inside its character
info in an ANCS file. This walker reads the character set field by field
(layout from the metaforce engine's character-set and character-info
readers and the retro-data-structures ANCS description): u2 ANCS version
(1), u2 character-set version (1), u4 character count, then per character
u4 id, u2 info version, name (NUL-terminated), u4 model / skin / skeleton
ids, u4 animation-name count (each: u4 animation id, a second string before
info version 10 (Prime 1), the name), the PAS4 database, then the
version-dependent rest: particle lists (part, swoosh, a third list that is
empty in known files, electric when version > 5; Prime 2 (version 10) reads
a single word instead of the third list and adds spawn particles), u4
unknown (+ u4 from version 10), animation bounding boxes (version > 1),
effects (version > 2; Prime 1 names the bone, Prime 2 gives its id), overlay
model and skin (version > 3), animation index map (version > 4) and, from
version 10, a spatial-primitives id, a byte and indexed bounding boxes.

The PAS4 block is stepped over by reading it with the spec itself
(``ksy/pas4.ksy``): its length is where the spec's parse ends, so no width
of the spec is repeated here.
Every count is checked against the bytes left before looping, so a hostile
file fails fast with a :class:`~animre.base.errors.ParseError`.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ...base.errors import ParseError
from ...spec.compiler import load_parser
from ...spec.parse import parse_bytes

__all__ = ["Character", "characters", "pas4_length"]



@dataclass(frozen=True)
class Character:
    """One character of an ANCS character set: where its PAS4 database is."""

    index: int
    id: int
    name: str
    info_version: int
    pas4_offset: int
    pas4_end: int


class _Reader:
    def __init__(self, data: bytes, file: str):
        self.data, self.file, self.pos = data, file, 0

    def fail(self, path: str, reason: str, at: int | None = None):
        raise ParseError(self.file, path, self.pos if at is None else at, reason)

    def take(self, n: int, path: str) -> int:
        if n > len(self.data) - self.pos:
            self.fail(path, f"needs {n} bytes, {len(self.data) - self.pos} left")
        at = self.pos
        self.pos += n
        return at

    def u(self, fmt: str, path: str) -> int:
        at = self.take(struct.calcsize(fmt), path)
        return struct.unpack_from(fmt, self.data, at)[0]

    def count(self, path: str, min_size: int) -> int:
        at = self.pos
        n = self.u(">I", path)
        if n * min_size > len(self.data) - self.pos:
            self.fail(path, f"count {n} needs at least {n * min_size} bytes, {len(self.data) - self.pos} left", at)
        return n

    def string(self, path: str) -> str:
        end = self.data.find(b"\0", self.pos, self.pos + 4096)
        if end < 0:
            self.fail(path, "no NUL-terminated string within 4096 bytes")
        raw = self.data[self.pos:end]
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            self.fail(path, f"string {raw[:40]!r} is not ASCII text")
        if not text.isprintable():
            self.fail(path, f"string {raw[:40]!r} is not printable text")
        self.pos = end + 1
        return text

    def skip_list(self, path: str, item: int) -> None:
        n = self.count(path, item)
        self.take(n * item, path)


def pas4_length(data: bytes, offset: int, file: str = "") -> int:
    """Length of the PAS4 database at ``offset`` (magic, counts, parm and anim infos).

    Examples
    --------
    >>> pas4_length(b"PAS4" + bytes(4) + b"\\xff" * 4, 0)
    12
    """
    r = _Reader(data, file)
    r.pos = offset
    _pas4(r, "pas4")
    return r.pos - offset


def _pas4(r: _Reader, path: str) -> None:
    """Step over the PAS4 database at ``r.pos``: its length is what the spec reads (``ksy/pas4.ksy``)."""
    try:
        obj = parse_bytes(r.data[r.pos:], load_parser("pas4"), r.file, fetch_instances=False)
    except ParseError as e:
        r.fail(f"{path}.{e.path}" if e.path else path, e.reason, r.pos + e.offset)
    r.pos += obj._io.pos()


def characters(data: bytes, file: str = "") -> list[Character]:
    """Every character of an ANCS file with its name and PAS4 block span.

    Raises :class:`~animre.base.errors.ParseError` (file, field path such as
    ``character_set.characters[1].name``, offset) where the structure does
    not hold.

    Examples
    --------
    >>> from animre.formats.pas4.samples import encode_ancs
    >>> block = b"PAS4" + bytes(4) + b"\\xff" * 4
    >>> data, offsets = encode_ancs([{"id": 7, "name": "Zoomer"}], [block])
    >>> [(c.name, c.pas4_offset, c.pas4_end) for c in characters(data)], offsets
    ([('Zoomer', 37, 49)], [37])
    """
    r = _Reader(data, file)
    if r.u(">H", "version") != 1:
        r.fail("version", "ANCS version is not 1", 0)
    if r.u(">H", "character_set.version") != 1:
        r.fail("character_set.version", "character set version is not 1", 2)
    n = r.count("character_set.num_characters", 51)  # smallest character info: 51 bytes
    out = []
    for i in range(n):
        p = f"character_set.characters[{i}]"
        cid = r.u(">I", f"{p}.id")
        at = r.pos
        ver = r.u(">H", f"{p}.info_version")
        if not 1 <= ver <= 10:
            r.fail(f"{p}.info_version", f"character info version {ver} is not 1-10", at)
        name = r.string(f"{p}.name")
        r.take(12, f"{p}.model_ids")
        n_anims = r.count(f"{p}.animation_names", 6 if ver < 10 else 5)
        for a in range(n_anims):
            r.take(4, f"{p}.animation_names[{a}].animation_id")
            if ver < 10:
                r.string(f"{p}.animation_names[{a}].unknown")
            r.string(f"{p}.animation_names[{a}].name")
        start = r.pos
        _pas4(r, f"{p}.pas4")
        out.append(Character(i, cid, name, ver, start, r.pos))
        _rest(r, p, ver)
    return out


def _rest(r: _Reader, p: str, ver: int) -> None:
    """Step over a character's fields after its PAS4 database."""
    r.skip_list(f"{p}.particles.part", 4)
    r.skip_list(f"{p}.particles.swhc", 4)
    if ver >= 10:
        r.take(4, f"{p}.particles.unknown")
    else:
        r.skip_list(f"{p}.particles.unknown", 4)
    if ver > 5:
        r.skip_list(f"{p}.particles.elsc", 4)
    if ver >= 10:
        r.skip_list(f"{p}.particles.spsc", 4)
    r.take(8 if ver >= 10 else 4, f"{p}.unknown")
    if ver > 1:
        for k in range(r.count(f"{p}.animation_aabbs", 25)):
            r.string(f"{p}.animation_aabbs[{k}].name")
            r.take(24, f"{p}.animation_aabbs[{k}].box")
    if ver > 2:
        for k in range(r.count(f"{p}.effects", 5)):
            e = f"{p}.effects[{k}]"
            r.string(f"{e}.name")
            for j in range(r.count(f"{e}.components", 21)):
                c = f"{e}.components[{j}]"
                r.string(f"{c}.name")
                r.take(8, f"{c}.particle")
                if ver >= 10:
                    r.take(4, f"{c}.bone_id")
                else:
                    r.string(f"{c}.bone_name")
                r.take(12, f"{c}.scale_mode_flags")
    if ver > 3:
        r.take(8, f"{p}.overlay_ids")
    if ver > 4:
        r.skip_list(f"{p}.animation_index_map", 4)
    if ver >= 10:
        r.take(5, f"{p}.spatial_primitives")
        r.skip_list(f"{p}.indexed_aabbs", 28)
