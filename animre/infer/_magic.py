"""Magics: the signature a format's files start with, and constants past the start that are signatures too."""

from __future__ import annotations

from ._limits import MAGIC_TEXTS, MIN_FILES
from ._model import Field
from ._rows import Rows

__all__ = ["MAGIC_TEXT", "start_magic", "later_magics"]

#: Bytes a text magic is made of (``RIFF``, ``.snd``, ``GIF89a``, ``DDS ``): letters, digits and a few marks.
#: Other printable bytes (``|`` = 124, ``(`` = 40) are as often the low byte of a size after the magic; a text
#: magic that ran on into them would swallow that field.
MAGIC_TEXT = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ._-#!")


#: Control bytes a text magic ends in so that text tools stop or show a changed transfer: DOS's end of text
#: (``^Z``, 0x1A: ``NES\x1a``) with carriage return and line feed (``\r\n\x1a\n``). Only a run holding the 0x1A
#: joins the magic: a 10 or 13 alone is as often the low byte of a size.
MAGIC_GUARD = frozenset(b"\r\n\x1a")


def start_magic(rows: Rows) -> Field | None:
    """The magic at the start of every file: the constant prefix (text up to its guard bytes, else up to 4
    bytes), not all zero; or one of a few texts."""
    cst = rows.const
    run = 0
    while run < rows.width and cst[run]:
        run += 1
    if run < 2 and rows.n:
        return _magic_texts(rows)
    if run < 2 or not rows.n:
        return None
    head = bytes(rows.m[0, :run])
    printable = 0
    while printable < run and head[printable] in MAGIC_TEXT:
        printable += 1
    if printable >= 2:  # a text magic may end in the control bytes that guard it (NES\x1a, \r\n\x1a\n)
        tail = printable
        while tail < run and tail - printable < 4 and head[tail] in MAGIC_GUARD:
            tail += 1
        if 0x1A in head[printable:tail]:
            printable = tail
    n = printable if printable >= 2 else min(run, 4)
    if not any(head[:n]):
        return None  # zeros are no magic: a field that is 0 in every file here may not be 0 in the next
    return Field(0, n, None, "magic", f"the same {n} bytes at the start of {rows.n}/{rows.n} files",
                 rows.n, rows.n, value=head[:n])


def _magic_texts(rows: Rows) -> Field | None:
    """A magic that is one of a few texts (``IWAD`` or ``PWAD``, ``RIFF`` or ``RIFX``): the first 4 bytes are
    magic characters in every file, at most :data:`MAGIC_TEXTS` texts that differ in one byte, each in 2 or
    more files. The texts seen are enforced (``valid: any-of``)."""
    w = 4
    if rows.width < w or rows.n < MIN_FILES:
        return None
    heads = [bytes(r[:w]) for r in rows.m]
    if not all(c in MAGIC_TEXT and chr(c).isalnum() for h in heads for c in h):
        return None
    got = sorted(set(heads))
    if not 2 <= len(got) <= MAGIC_TEXTS or min(heads.count(t) for t in got) < 2:
        return None
    if sum(len({t[i] for t in got}) > 1 for i in range(w)) != 1:
        return None
    return Field(0, w, None, "magic", f"one of {', '.join(t.decode() for t in got)} at the start of "
                 f"{rows.n}/{rows.n} files", rows.n, rows.n, value=got)


def later_magics(rows: Rows, fields: list[Field]) -> None:
    """Constants past the start that are magics too (``SCRM`` at 44 of an S3M, ``E0 A5`` at 4 of an Aseprite
    file): the same text of 2 or more magic characters, 2 or 3 bytes in the first 8 (after a size at most: past
    them the same two bytes are as often a stream's own header, as zlib's 78 DA) none of them zero and at most
    one below 16 (a version 1.04 is 04 01), or 4 or more bytes of which 3 are not zero, in every file; one byte
    repeated (FF FF FF FF) is a fill, never a magic. Other constants (a small number: its high byte is zero)
    stay documented."""
    for f in fields:
        if f.role != "const" or f.offset == 0 or f.width < 2 or f.end > rows.width:
            continue
        b = bytes(rows.m[0, f.offset:f.end])
        if len(set(b)) < 2:  # one byte repeated is a fill (0xFF of unused slots), not a signature
            continue
        text = all(c in MAGIC_TEXT for c in b) and sum(chr(c).isalpha() for c in b) >= 2
        short = f.offset <= 8 and all(b) and sum(c < 0x10 for c in b) <= 1
        if text or (f.width >= 4 and sum(c != 0 for c in b) >= 3) or short:
            f.role, f.type, f.value = "magic", None, b
            f.evidence = f"the same {f.width} bytes at 0x{f.offset:x} of {rows.n}/{rows.n} files"
            f.name = f"magic_0x{f.offset:02x}"
