"""Bounded parsing: a repeat that reads no bytes is stopped, with the element it was reading.

A spec can loop without end on some files, and no check of the spec alone
can tell: ``repeat: eos`` or ``repeat: until`` over elements that read no
bytes, or ``repeat-expr`` with an absurd count (4,294,967,295 from a hostile
file) over such elements; each element costs memory, so the scan would also
grow without bound. Every repeated element of a parser compiled in debug
mode records where it starts; :func:`guard_source` adds to that line of the
generated code a call of :func:`check` at every :data:`WINDOW`-th element
(the loop's index ``i``, so the other elements cost one test), which stops
the parse when

- the last :data:`WINDOW` elements started at one position (none of them
  read a byte), or
- the array holds more than :data:`ELEMENTS_BASE` + :data:`ELEMENTS_PER_BYTE`
  x its stream's size elements (more than a stream of that size can hold;
  eight per byte are bit fields),

so that a parse's time and memory stay in proportion to its file. For the
same reason ``process: zlib`` inflates through :func:`inflate`, which stops
at :data:`INFLATE_BASE` + :data:`INFLATE_PER_BYTE` x the compressed size (a
"zip bomb" is an error, not gigabytes). The
rewritten parser defines a plain fallback for the function, so it also runs
without animre; :func:`guard_module` (called whenever animre loads a parser)
puts :func:`check` in its place. A change of the rewrite changes
:data:`animre.spec.compiler.OUTPUT_VERSION` (every compiled parser's cache key).
"""

from __future__ import annotations

import re
import types
import zlib

from ..base.inflate import inflate_at_most

__all__ = ["NoProgressError", "check", "inflate", "guard_source", "guard_module"]

WINDOW = 4096  #: elements in a row starting at one position before the parse stops
ELEMENTS_BASE = 65536  #: elements an array may hold in any stream, plus ...
ELEMENTS_PER_BYTE = 8  #: ... this many per byte of its stream
INFLATE_BASE = 64 << 20  #: bytes ``process: zlib`` may inflate to, plus ...
INFLATE_PER_BYTE = 64  #: ... this many per compressed byte

_ELEMENT = re.compile(r"^( +)(self\._debug\['\w+'\]\['arr'\])\.append\(\{'start': self\._io\.pos\(\)\}\)$", re.M)
_FALLBACK = (
    "\n\ndef _animre_check(arr, io):  # animre replaces this with its guard (animre/spec/guard.py)\n"
    "    pass\n"
)


class NoProgressError(Exception):
    """A repeat whose elements read no bytes (or more elements than the stream can hold)."""


def check(arr: list, io) -> None:
    """Called at every :data:`WINDOW`-th element of ``arr``: stop a repeat that cannot end (see the module)."""
    n = len(arr)
    p = arr[-1]["start"]
    if n >= WINDOW and arr[n - WINDOW]["start"] == p:
        raise NoProgressError(f"{WINDOW:,} elements in a row start at byte {p} and read nothing: "
                              "a repeat of elements that read no bytes would not end")
    size = io.size()
    if n > ELEMENTS_BASE + ELEMENTS_PER_BYTE * size:
        raise NoProgressError(f"{n:,} elements in a stream of {size:,} bytes: more than it can hold")


def inflate(data: bytes, wbits: int = zlib.MAX_WBITS, bufsize: int = zlib.DEF_BUF_SIZE) -> bytes:
    """``zlib.decompress`` that stops past :data:`INFLATE_BASE` + :data:`INFLATE_PER_BYTE` x ``len(data)``."""
    cap = INFLATE_BASE + INFLATE_PER_BYTE * len(data)
    out, more, ended = inflate_at_most(data, cap, wbits)
    if more:
        raise NoProgressError(f"zlib data of {len(data):,} bytes inflates past {cap:,} bytes; not inflated further")
    if not ended:
        raise zlib.error("Error -5 while decompressing data: incomplete or truncated stream")
    return out


class _BoundedZlib:
    """The ``zlib`` a guarded parser sees: the module itself, with :func:`inflate` as ``decompress``."""

    decompress = staticmethod(inflate)

    def __getattr__(self, name: str):
        return getattr(zlib, name)


def guard_source(code: str) -> str:
    """Generated Python parser code with every repeated element's start routed through the guard."""
    out, n = _ELEMENT.subn(lambda m: f"{m[0]}\n{m[1]}if i & {WINDOW - 1} == {WINDOW - 1}:\n"
                                       f"{m[1]}    _animre_check({m[2]}, self._io)", code)
    if not n:
        return code
    return out.rstrip("\n") + _FALLBACK


def guard_module(mod: types.ModuleType) -> None:
    """Give a loaded parser module the guard (a module without repeats is left as it is)."""
    if hasattr(mod, "_animre_check"):
        mod._animre_check = check
    if getattr(mod, "zlib", None) is zlib:
        mod.zlib = _BoundedZlib()
