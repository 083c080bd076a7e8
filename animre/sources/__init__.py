"""Sources: a folder (or a list of files) and every container in it, as one list of entries.

The first layer of the data flow. :func:`list_sources` walks a folder, hashes
every file, and looks inside every file that is a container (a HoMM2 AGG
archive, a zip file, and whatever :mod:`animre.sources.containers` knows),
recursively: a member is an entry named ``CONTAINER/MEMBER`` that keeps its
container and its offset inside it. A container that cannot be listed, a
member that cannot be read, a container nested deeper than
:data:`MAX_DEPTH` or one that contains itself becomes an entry with an
error; nothing stops the walk. :func:`read_source` reads an entry's bytes
again (in any process: it reopens the container from its path); inside
:func:`keep_open` the containers it read from memory stay open for the next
read, and are closed when the block ends.
"""

from __future__ import annotations

import hashlib
import io
import os
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from ..base.errors import AnimreError, ParseError, UsageError
from .containers import detect_container
from .containers.base import Member

__all__ = ["Source", "list_sources", "read_source", "keep_open", "collect_files", "MAX_DEPTH", "HEAD",
           "IGNORED_SUFFIXES"]

HEAD = 4096
MAX_DEPTH = 8  # containers inside containers, at most this deep
IGNORED_SUFFIXES = {  # notes, and everything the kit writes (specs, exports, reports, patches, animations)
    ".json", ".md", ".txt", ".csv", ".parquet", ".xlsx", ".ipynb", ".py", ".png", ".jpg",
    ".html", ".tmp", ".ksy", ".yaml", ".yml", ".log", ".patch", ".gif", ".apng",
}


@dataclass(frozen=True)
class Source:
    """One file of a corpus: a file on disk or a member of a container.

    Attributes
    ----------
    name : str
        Its corpus name: the path relative to the folder, for members
        ``CONTAINER/MEMBER`` (nested: ``A.ZIP/B.AGG/C.BIN``).
    path : Path
        The file on disk that holds it.
    chain : tuple of str
        Member names from that file down to this entry (empty: the file itself).
    container : str or None
        Corpus name of the container it is stored in.
    offset : int or None
        Offset of its stored bytes inside that container.
    size, sha256, head
        Its size (decompressed), content hash and first 4096 bytes.
    kind : str or None
        The container id when the entry is itself a container.
    members : int or None
        Its member count (containers).
    error : ParseError or None
        Why it could not be read or listed.
    """

    name: str
    path: Path
    chain: tuple[str, ...] = ()
    container: str | None = None
    offset: int | None = None
    size: int = 0
    sha256: str = ""
    head: bytes = b""
    kind: str | None = None
    members: int | None = None
    error: ParseError | None = None


def collect_files(path: str | os.PathLike | Iterable, keep: Iterable[str] = ()) -> tuple[Path | None, list[Path]]:
    """``(root, files)``: every file of a folder (no hidden ones, no notes or exports), or the files given.

    ``keep``: suffixes (``.png``) read all the same, because a format of the open claims them.

    Examples
    --------
    >>> root, files = collect_files("data/samples/frm")
    >>> root.name, files[0].name
    ('frm', 'ARCHRFRM.BIN')
    """
    kept = {k.lower() for k in keep}
    if isinstance(path, (str, os.PathLike)):
        p = Path(path)
        if p.is_dir():
            found: list[list[str]] = []
            _walk(str(p), [], kept, found)
            found.sort()  # as the paths sort: part by part
            top = str(p)
            return p, [Path(os.path.join(top, *parts)) for parts in found]
        if p.is_file():
            return p.parent, [p]
        raise UsageError(f"{p}: no such file or folder")
    files = [Path(os.path.abspath(f)) for f in path]  # as given, not resolved: names stay relative to the
    missing = [str(f) for f in files if not f.is_file()]  # folder the caller named, through any symlink
    if missing:
        raise UsageError(f"no such file: {', '.join(missing[:5])}")
    try:
        root = Path(os.path.commonpath([str(f.parent) for f in files])) if files else None
    except ValueError:
        root = None
    return root, files


def _walk(folder: str, parts: list[str], kept: set[str], found: list[list[str]]) -> None:
    """The files below ``folder`` (as lists of the parts below the top folder) into ``found``, as ``rglob``
    finds them (one ``scandir`` per folder, no ``stat`` for a plain entry): hidden parts (a dot first) left
    out, ignored suffixes left out unless ``kept``, symlinks to files kept, symlinked folders not entered,
    folders that cannot be read skipped."""
    try:
        with os.scandir(folder) as it:
            entries = list(it)
    except PermissionError:
        return
    for e in entries:
        name = e.name
        if name.startswith("."):
            continue
        try:
            is_dir = e.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            if not e.is_symlink():
                _walk(e.path, parts + [name], kept, found)
            continue
        suffix = _suffix(name)
        if suffix in IGNORED_SUFFIXES and suffix not in kept:
            continue
        try:
            is_file = e.is_file()
        except OSError:
            is_file = False
        if is_file:
            found.append(parts + [name])


def _suffix(name: str) -> str:
    """``Path(name).suffix.lower()`` of a file name, without making a Path."""
    i = name.rfind(".")
    return name[i:].lower() if 0 < i < len(name) - 1 else ""


def _hash_file(path: Path) -> tuple[str, int, bytes]:
    """``(sha256, size, first bytes)`` of a file, read once (without a buffered file object: a small file costs
    one open, one read and one close)."""
    h = hashlib.sha256()
    size = 0
    head = b""
    fd = os.open(path, os.O_RDONLY)
    try:
        step = 1 << 16  # most files of a corpus are small: the first read is short
        while True:
            chunk = os.read(fd, step)
            if not chunk:
                break
            if size == 0:
                head = chunk[:HEAD]
            h.update(chunk)
            size += len(chunk)
            step = 1 << 20
    finally:
        os.close(fd)
    return h.hexdigest(), size, head


def _as_parse_error(e: BaseException, name: str, path: str = "", offset: int = 0) -> ParseError:
    if isinstance(e, ParseError):
        return e
    return ParseError(name, path, offset, f"{type(e).__name__}: {e}")


def list_sources(path: str | os.PathLike | Iterable[str | os.PathLike],
                 keep: Iterable[str] = ()) -> tuple[Path | None, list[Source]]:
    """``(root, entries)``: every file of a folder and every member of every container in it.

    ``keep``: suffixes that :func:`collect_files` reads although it ignores them by default.

    Containers come before their members; a member's ``name`` is
    ``CONTAINER/MEMBER``. Member bodies are read once here (to hash them and
    to look inside nested containers), one at a time.

    Examples
    --------
    >>> root, src = list_sources("data/samples/agg")
    >>> agg = next(s for s in src if s.kind == "agg")
    >>> agg.name, agg.members > 0
    ('HEROES2.AGG', True)
    >>> m = next(s for s in src if s.container == "HEROES2.AGG")
    >>> m.name.startswith("HEROES2.AGG/"), m.offset > 0
    (True, True)
    """
    root, files = collect_files(path, keep)
    out: list[Source] = []
    prefix = str(root).rstrip(os.sep) + os.sep if root else None
    for f in files:
        full = str(f)
        if prefix is not None and full.startswith(prefix):  # what relative_to gives, as a string
            name = full[len(prefix):].replace(os.sep, "/")
        else:
            name = f.relative_to(root).as_posix() if root and f.is_relative_to(root) else full
        try:
            sha, size, head = _hash_file(f)
        except OSError as e:
            out.append(Source(name, f, error=ParseError(name, "", 0, f"cannot read: {e}")))
            continue
        src = Source(name, f, size=size, sha256=sha, head=head)
        cont = detect_container(head, name)
        if cont is None:
            out.append(src)
            continue
        try:
            with open(f, "rb") as fh:
                _expand(fh, cont, src, (sha,), 1, out)
        except OSError as e:
            out.append(replace(src, error=ParseError(name, "", 0, f"cannot read: {e}")))
    return root, out


def _expand(fh: BinaryIO, cont, src: Source, ancestors: tuple[str, ...], depth: int, out: list[Source]) -> None:
    """Append ``src`` (a container) and, recursively, its members to ``out``."""
    try:
        members = cont.members(fh, src.name)
    except Exception as e:  # noqa: BLE001 - a bad directory is an error entry, never a stopped walk
        out.append(replace(src, kind=cont.name, error=_as_parse_error(e, src.name)))
        return
    out.append(replace(src, kind=cont.name, members=len(members)))
    for m in members:
        name = f"{src.name}/{m.name}"
        entry = Source(name, src.path, src.chain + (m.name,), src.name, m.offset, m.size)
        try:
            data = m.read()
        except Exception as e:  # noqa: BLE001 - one bad member is one error entry
            out.append(replace(entry, error=_as_parse_error(e, name, "", m.offset)))
            continue
        sha = hashlib.sha256(data).hexdigest()
        entry = replace(entry, size=len(data), sha256=sha, head=data[:HEAD])
        sub = detect_container(entry.head, m.name)
        if sub is None:
            out.append(entry)
        elif sha in ancestors:
            out.append(replace(entry, kind=sub.name, error=ParseError(
                name, "", 0, f"{sub.title} contains itself (same content as its container "
                             f"{src.name}); not opened again")))
        elif depth >= MAX_DEPTH:
            out.append(replace(entry, kind=sub.name, error=ParseError(
                name, "", 0, f"containers nested deeper than {MAX_DEPTH}; not opened")))
        else:
            _expand(io.BytesIO(data), sub, entry, ancestors + (sha,), depth + 1, out)
        del data


# ---------------------------------------------------------------- reading an entry again

_OPEN: OrderedDict = OrderedDict()  # (pid, path, chain) -> (file object, {member name: Member})
_OPEN_MAX = 8
_KEEP = {"pid": None, "depth": 0}  # the keep_open blocks this process is in
_KEEP_LOCK = threading.Lock()


@contextmanager
def keep_open() -> Iterator[None]:
    """Keep the containers :func:`read_source` reads from memory open until the outermost block ends.

    A container held in memory (an AGG inside a zip, a disc image inside a
    zip, whose reader works on a temporary copy) is opened again for every
    read outside such a block, and closed after it, so that nothing a read
    needed stays behind (a temporary copy is removed when its container
    closes). Opening a corpus and a worker's batch read inside one.

    Examples
    --------
    >>> root, src = list_sources("data/samples/zip")
    >>> members = [s for s in src if s.chain and not s.kind]
    >>> with keep_open():
    ...     sizes = [len(read_source(s)) for s in members[:3]]
    >>> sizes == [s.size for s in members[:3]]
    True
    """
    with _KEEP_LOCK:
        if _KEEP["pid"] != os.getpid():  # a forked worker: its parent's blocks are not its own
            _KEEP.update(pid=os.getpid(), depth=0)
        _KEEP["depth"] += 1
    try:
        yield
    finally:
        with _KEEP_LOCK:
            _KEEP["depth"] -= 1
            done = not _KEEP["depth"]
        if done:
            _close_held()


def _keeping() -> bool:
    return _KEEP["pid"] == os.getpid() and _KEEP["depth"] > 0


def _close_held() -> None:
    """Close every container held in memory (those below a file: ``chain`` is not empty)."""
    for key in [k for k in _OPEN if k[-1]]:
        got = _OPEN.pop(key, None)
        if got is not None:
            got[0].close()


def _directory(src_path: Path, chain: tuple[str, ...], display: str) -> dict[str, Member]:
    """The members of the container at ``chain`` inside ``src_path`` (kept open, a few at a time)."""
    st = src_path.stat()  # a file changed on disk is opened again, never read at stale offsets
    key = (os.getpid(), str(src_path), st.st_mtime_ns, st.st_size, chain)
    got = _OPEN.get(key)
    if got is not None:
        _OPEN.move_to_end(key)
        return got[1]
    if chain:
        parent = _directory(src_path, chain[:-1], display.rsplit("/", 1)[0])
        m = parent.get(chain[-1])
        if m is None:
            raise ParseError(display, "", 0, "member no longer in its container")
        fh: BinaryIO = io.BytesIO(m.read())
    else:
        fh = open(src_path, "rb")  # noqa: SIM115 - kept open for lazy member reads, closed on eviction
    head = fh.read(HEAD)
    fh.seek(0)
    cont = detect_container(head, chain[-1] if chain else src_path.name)
    if cont is None:
        fh.close()
        raise ParseError(display, "", 0, "no longer a container")
    try:
        members = {m.name: m for m in cont.members(fh, display)}
    except BaseException:
        fh.close()
        raise
    _OPEN[key] = (fh, members)
    while len(_OPEN) > _OPEN_MAX:
        _, (old, _) = _OPEN.popitem(last=False)
        old.close()
    return members


def read_source(src: Source) -> bytes:
    """The bytes of an entry: the file itself, or its member read from its container again.

    Raises :class:`~animre.base.errors.ParseError` (the member's name, field path,
    offset) when the container changed or the member cannot be read.

    Examples
    --------
    >>> root, src = list_sources("data/samples/agg")
    >>> m = next(s for s in src if s.container == "HEROES2.AGG")
    >>> len(read_source(m)) == m.size
    True
    """
    if not src.chain:
        return src.path.read_bytes()
    if os.getpid() != getattr(read_source, "_pid", None):  # a forked worker: never share the parent's handles
        _OPEN.clear()
        read_source._pid = os.getpid()  # type: ignore[attr-defined]
    try:
        try:
            members = _directory(src.path, src.chain[:-1], src.container or src.path.name)
        except OSError as e:
            raise ParseError(src.name, "", 0, f"cannot read its container: {e}") from e
        m = members.get(src.chain[-1])
        if m is None:
            raise ParseError(src.name, "", 0, "member no longer in its container")
        try:
            return m.read()
        except (AnimreError, ParseError):
            raise
        except Exception as e:  # noqa: BLE001
            raise _as_parse_error(e, src.name, "", m.offset) from e
    finally:
        if not _keeping():
            _close_held()
