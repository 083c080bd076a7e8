"""What one file yields (its table rows with byte spans, or its error) and the columns of the corpus's tables."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..base.errors import ParseError
from ..tables.flattener import Chunk

__all__ = ["FileResult", "ERROR_COLUMNS", "FILES_COLUMNS", "UNAVAILABLE_COLUMNS", "KEY_SCHEMA", "error_row"]

ERROR_COLUMNS = ["file", "format", "path", "offset", "message", "container"]
FILES_COLUMNS = ["file", "format", "size", "sha256", "ok", "status", "container", "offset", "kind", "members",
                 "detected_by", "reason"]
UNAVAILABLE_COLUMNS = ["kind", "format", "table", "name", "missing", "message"]
KEY_SCHEMA = "files-v4"  # bump when the files table's columns change: older snapshots are not reused


@dataclass
class FileResult:
    """What one file yielded: its table rows with byte spans, or its error.

    ``status`` is ``parsed``, ``failed``, ``skipped`` (not recognised as any
    format: listed, not an error, with its ``reason``) or ``container`` (a container no format
    reads; its members are files of their own).
    """

    file: str
    path: str
    format: str | None
    size: int
    sha256: str
    ok: bool
    chunks: dict[str, Chunk] = field(default_factory=dict)
    error: dict | None = None
    cached: bool = False
    status: str = "parsed"
    container: str | None = None
    offset: int | None = None
    kind: str | None = None
    members: int | None = None
    detected_by: str | None = None
    reason: str | None = None  # a skipped file: why no format reads it

    def row(self) -> dict:
        """Its row of the ``files`` table."""
        return {c: getattr(self, c) for c in FILES_COLUMNS}


# ------------------------------------------------------------------ one file




def error_row(e: ParseError, fmt: str | None, container: str | None) -> dict:
    return {"file": e.file, "format": fmt, "path": e.path, "offset": e.offset, "message": str(e),
            "container": container}
