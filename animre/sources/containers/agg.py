"""HoMM2 resource archives (``HEROES2.AGG``) as a container: members from the parsed directory.

The directory is read with the archive's spec (``ksy/agg.ksy``) straight
from the file (member bodies are not read), then checked as the engine
does and more: the records and names fit in the file, every member lies
inside it, names are text, unique, and no two members overlap.
"""

from __future__ import annotations

import struct
from typing import BinaryIO

import numpy as np

from ...base.errors import ParseError
from ...spec.compiler import load_parser
from ...spec.parse import parse_bytes
from .base import Container, Member, check_span, decode_name, file_size, read_span

__all__ = ["CONTAINER", "NAME", "RECORD", "plausible"]

RECORD = 12  # u4 hash, u4 offset, u4 size
NAME = 15  # one name at the end of the file


def plausible(head: bytes, size: int | None = None) -> bool:
    """Whether the first bytes look like an AGG directory: records right after the count.

    The first member's bytes start where the records end (``2 + 12 x count``),
    every record in ``head`` points past the records, and (with ``size``) the
    records and names fit in the file.

    Examples
    --------
    >>> plausible(struct.pack("<HIII", 1, 0, 14, 3) + b"abc" + b"A.BIN".ljust(15, b"\\0"))
    True
    """
    if len(head) < 2 + RECORD:
        return False
    (n,) = struct.unpack_from("<H", head)
    end = 2 + RECORD * n
    if n == 0 or (size is not None and end + NAME * n > size):
        return False
    k = min(n, (len(head) - 2) // RECORD)
    recs = np.frombuffer(head, "<u4", count=3 * k, offset=2).reshape(k, 3)
    if int(recs[0, 1]) != end or (recs[:, 1] < end).any():
        return False
    return size is None or bool((recs[:, 1].astype("int64") + recs[:, 2] <= size).all())


def detect(head: bytes, name: str) -> bool:
    """An ``.agg`` file, or any file whose first bytes are a plausible AGG directory."""
    return name.lower().endswith(".agg") or plausible(head)


def members(fh: BinaryIO, name: str) -> list[Member]:
    """The members of an AGG archive, checked against the file's size."""
    total = file_size(fh)
    head = fh.read(2)
    if len(head) < 2:
        raise ParseError(name, "num_entries", 0, f"file of {total} bytes is too short for an AGG archive")
    (n,) = struct.unpack("<H", head)
    need = 2 + (RECORD + NAME) * n
    if need > total:
        raise ParseError(name, "num_entries", 0, f"{n} entries need {need} bytes of records and names; "
                                                 f"the file has {total}")
    fh.seek(0)
    root = parse_bytes(fh, load_parser("agg"), name)
    out: list[Member] = []
    seen: set[str] = set()
    spans = []
    for i, e in enumerate(root.entries):
        at = 2 + RECORD * i
        where = f"entries[{i}]"
        name_at = root.ofs_names + NAME * i
        mname = decode_name(e.name.encode("ascii"), name, f"{where}.name", name_at)
        if mname in seen:
            raise ParseError(name, f"{where}.name", name_at, f"member name {mname!r} is repeated")
        seen.add(mname)
        check_span(name, f"{where}.ofs_data", e.ofs_data, e.len_data, root.ofs_names, at + 4)
        if e.ofs_data < 2 + RECORD * n and e.len_data:
            raise ParseError(name, f"{where}.ofs_data", at + 4,
                             f"member bytes {e.ofs_data}.. start inside the entry records")
        if e.len_data:
            spans.append((e.ofs_data, e.ofs_data + e.len_data, i, mname))
        out.append(Member(mname, e.ofs_data, e.len_data, _reader(fh, e.ofs_data, e.len_data, f"{name}/{mname}")))
    spans.sort()
    for (_, a1, _, an), (b0, _, kb, bn) in zip(spans, spans[1:]):
        if b0 < a1:
            raise ParseError(name, f"entries[{kb}].ofs_data", 2 + RECORD * kb + 4,
                             f"members {an!r} and {bn!r} overlap (bytes {b0}..{a1})")
    return out


def _reader(fh: BinaryIO, offset: int, size: int, display: str):
    return lambda: read_span(fh, offset, size, display)


CONTAINER = Container(
    name="agg",
    title="AGG resource archive (Heroes of Might and Magic II)",
    extensions=(".agg",),
    detect=detect,
    members=members,
    never_compressed=True,
)
