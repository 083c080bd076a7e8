"""The inferred layout: fields with their evidence, records and pointed-to regions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Field", "Region", "Layout", "ROLES", "field_name"]

ROLES = ("magic", "const", "file_size", "offset", "count", "size", "float", "string", "int", "raw")


@dataclass
class Field:
    """One field of a type: ``offset`` and ``width`` in the type, ``type`` as Kaitai writes it.

    ``role`` is one of :data:`ROLES`; ``value`` the constant (bytes for
    ``magic``, an int for ``const``); ``k`` the constant of a file-size field
    (``_ == _root._io.size + k``); ``evidence`` the doc line; ``holds`` /
    ``of`` the samples it holds in; ``alternatives`` what else was tried.
    """

    offset: int
    width: int
    type: str | None
    role: str
    evidence: str = ""
    holds: int = 0
    of: int = 0
    value: Any = None
    k: int = 0
    alternatives: list = field(default_factory=list)
    name: str = ""

    @property
    def end(self) -> int:
        return self.offset + self.width


@dataclass
class Region:
    """Something an offset or a count leads to: records, a string, raw bytes.

    ``start``: a field name (an offset field) or a constant position;
    ``count``: the count field's name for records; ``stride``: record size;
    ``size``: a size field's name or a constant byte count; ``record``: the
    record's :class:`Layout`; ``kind``: ``records``, ``strz`` or ``bytes``.
    """

    name: str
    kind: str
    start: Any
    count: str | None = None
    stride: int = 0
    size: Any = None
    record: Any = None
    evidence: str = ""
    absolute: bool = False
    end: Any = None  # what a count's or a size's relation ends at: an offset field's name or ``_root._io.size``
    extra: int = 0  # records past the count (a table of ``count + 2`` entries)
    per: int = 0  # records of ``stride`` bytes filling a region whose ``size`` is a field (an archive's directory)
    column: tuple | None = None  # (position, width) of the records' offset column, when one is evidenced

    @property
    def count_expr(self) -> str | None:
        """The number of records as the spec writes it (``num_0x00 + 2``)."""
        return self.count if not self.extra or self.count is None else f"{self.count} + {self.extra}"


@dataclass
class Layout:
    """Fields in order (covering ``width`` bytes), the regions they point at, and the variants."""

    name: str
    width: int
    fields: list = field(default_factory=list)
    regions: list = field(default_factory=list)
    endian: str = "le"
    n: int = 0
    variants: dict = field(default_factory=dict)
    tag: str | None = None

    def by_offset(self, offset: int) -> Field | None:
        for f in self.fields:
            if f.offset == offset:
                return f
        return None


def field_name(f: Field, base: int = 0) -> str:
    """A field's name from its role and offset (``len_file_0x08``, ``ofs_0x0c``; ``magic`` alone)."""
    pre = {"magic": "magic", "file_size": "len_file", "offset": "ofs", "count": "num", "size": "len",
           "float": "float", "string": "str", "int": "unknown", "const": "unknown", "raw": "unknown"}[f.role]
    return pre if f.role == "magic" else f"{pre}_0x{f.offset + base:02x}"
