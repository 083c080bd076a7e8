"""ANCS character sets read with ``ksy/ancs.ksy``, far enough to place each character's PAS4 database.

Metroid Prime 1 and 2 keep a character's PAS4 database inside its character
info in an ANCS file. The layout (character set, character infos of
versions 1 to 10, the PAS4 database read by ``ksy/pas4.ksy`` through the
spec's import) is the spec's; this module only turns the parsed character
set (the spec's ``ancs_file`` type: the spec has no top-level fields, so it
is not a format of its own) into :class:`Character` rows: where each database starts and ends is
the span the debug parser recorded for the character's ``pas4`` field. A
structure that does not hold is a :class:`~animre.base.errors.ParseError`
with the spec's field path (``character_set.characters[1].name``) and
offset.
"""

from __future__ import annotations

from dataclasses import dataclass

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


def pas4_length(data: bytes, offset: int, file: str = "") -> int:
    """Length of the PAS4 database at ``offset``: where ``ksy/pas4.ksy``'s parse of it ends.

    Examples
    --------
    >>> pas4_length(b"PAS4" + bytes(4) + b"\\xff" * 4, 0)
    12
    """
    obj = parse_bytes(data[offset:], load_parser("pas4"), file, fetch_instances=False)
    return obj._io.pos()


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
    mod = load_parser("ancs")
    root = parse_bytes(data, mod, file, cls=mod.Ancs.AncsFile, fetch_instances=False)
    out = []
    for i, ch in enumerate(root.character_set.characters):
        span = ch._debug["pas4"]
        out.append(Character(i, ch.id, ch.name, ch.info_version, span["start"], span["end"]))
    return out
