"""What a container module provides: detection and a member directory.

A container (a HoMM2 AGG archive, a zip file, a Retro PAK, a GameCube disc
image) holds other files. A container module only reads its directory:
:attr:`Container.members` returns one :class:`Member` per stored file with its
offset and stored size, validated against the container's size, and never
reads member bodies; :attr:`Member.read` reads one member lazily (and
decompresses it, bounded). Looking inside members that are containers
themselves is the sources layer's job (:mod:`animre.sources`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO

from ...base.errors import ParseError

__all__ = ["Member", "Container", "MAX_MEMBER", "file_size", "check_span", "read_span", "decode_name"]

MAX_MEMBER = 256 * 1024 * 1024  # no member is ever read or decompressed beyond this many bytes


@dataclass(frozen=True)
class Member:
    """One file stored in a container.

    ``name`` is its "/"-separated path inside the container, ``offset`` and
    ``size`` where its stored bytes are (``size`` is the compressed size when
    ``compressed``), ``read()`` returns its bytes (decompressed) or raises
    :class:`~animre.base.errors.ParseError` (file ``CONTAINER/MEMBER``, field path,
    offset) on bad data or a decompression bomb.
    """

    name: str
    offset: int
    size: int
    read: Callable[[], bytes]
    compressed: bool = False


@dataclass(frozen=True)
class Container:
    """A kind of container animre looks inside.

    Attributes
    ----------
    name : str
        The container's id (``agg``, ``zip``, ``pak``, ``gcdisc``).
    title : str
        Human name.
    extensions : tuple of str
        Lower-case file name suffixes that suggest it.
    detect : callable(head: bytes, name: str) -> bool
        Whether a file is this container, from its first 4096 bytes and name.
    members : callable(fh: BinaryIO, name: str) -> list of Member
        The validated directory of a seekable binary file shown as ``name``;
        raises :class:`~animre.base.errors.ParseError` naming the field and offset.
    never_compressed : bool
        Every member is stored as it is (a member's field is at its offset in the container).
    """

    name: str
    title: str
    extensions: tuple[str, ...]
    detect: Callable[[bytes, str], bool]
    members: Callable[[BinaryIO, str], list[Member]]
    never_compressed: bool = False


def file_size(fh: BinaryIO) -> int:
    """The size of a seekable binary file (its position is left at 0).

    Examples
    --------
    >>> import io
    >>> file_size(io.BytesIO(b"abc"))
    3
    """
    size = fh.seek(0, 2)
    fh.seek(0)
    return size


def check_span(name: str, path: str, offset: int, size: int, total: int, at: int = 0) -> None:
    """Raise ParseError unless ``[offset, offset + size)`` lies inside a file of ``total`` bytes.

    ``at`` is where the directory field that gave the span is stored (the error's offset).

    Examples
    --------
    >>> check_span("A.AGG", "entries[0]", 10, 5, 100)
    >>> check_span("A.AGG", "entries[0]", 98, 5, 100, at=2)
    Traceback (most recent call last):
    ...
    animre.base.errors.ParseError: A.AGG: entries[0] @ 0x2 (2): member bytes 98..103 lie outside the file (100 bytes)
    """
    if offset < 0 or size < 0 or offset + size > total:
        raise ParseError(name, path, at, f"member bytes {offset}..{offset + size} lie outside the file "
                                         f"({total} bytes)")
    if size > MAX_MEMBER:
        raise ParseError(name, path, at, f"member of {size} bytes is larger than the limit ({MAX_MEMBER} bytes)")


def read_span(fh: BinaryIO, offset: int, size: int, name: str) -> bytes:
    """Exactly ``size`` bytes at ``offset`` of ``fh``; ParseError (file ``name``) when fewer are there.

    Examples
    --------
    >>> import io
    >>> read_span(io.BytesIO(b"abcdef"), 2, 3, "X/Y")
    b'cde'
    """
    if size > MAX_MEMBER:
        raise ParseError(name, "", offset, f"member of {size} bytes is larger than the limit ({MAX_MEMBER} bytes)")
    fh.seek(offset)
    data = fh.read(size)
    if len(data) != size:
        raise ParseError(name, "", offset, f"expected {size} bytes, the file holds {len(data)} there")
    return data


def decode_name(raw: bytes, name: str, path: str, at: int, encoding: str = "ascii") -> str:
    """A member name from its stored bytes, decoded strictly (a name that is not text is an error).

    Examples
    --------
    >>> decode_name(b"KB.PAL", "H.AGG", "names[0]", 40)
    'KB.PAL'
    >>> decode_name(b"K\\xffB", "H.AGG", "names[0]", 40)
    Traceback (most recent call last):
    ...
    animre.base.errors.ParseError: H.AGG: names[0] @ 0x28 (40): member name b'K\\xffB' is not ascii text
    """
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError:
        raise ParseError(name, path, at, f"member name {raw!r} is not {encoding} text") from None
    if not text or any(ord(ch) < 32 or ch == "\x7f" for ch in text):
        raise ParseError(name, path, at, f"member name {raw!r} is empty or holds control characters")
    return text
