"""The animre exception hierarchy.

Modelled on the Kaitai Python runtime: a small set of classes that also
inherit the matching built-in, carry their facts as attributes, and whose
messages start with the location.
"""

from __future__ import annotations

__all__ = ["AnimreError", "ToolchainError", "SpecError", "ParseError", "UsageError"]


class AnimreError(Exception):
    """Base class of every error animre raises on purpose."""


class ToolchainError(AnimreError, RuntimeError):
    """The Kaitai compiler toolchain (node, npm package) is missing or failed.

    The message names the make target that installs what is missing.
    """


class SpecError(AnimreError, ValueError):
    """A ``.ksy`` spec does not compile; ``compiler_message`` is the compiler's own text."""

    def __init__(self, spec: str, compiler_message: str):
        self.spec = spec
        self.compiler_message = compiler_message
        super().__init__(f"{spec}: {compiler_message}")


class UsageError(AnimreError, ValueError):
    """A function or command was called with arguments that make no sense."""


class ParseError(AnimreError, ValueError):
    """A file could not be parsed (completely).

    Attributes
    ----------
    file : str
        The file (path or name) that failed.
    path : str
        The field path inside the parsed structure, e.g. ``moves[3].footer.unknown_4``.
    offset : int
        The absolute byte offset in the file where reading failed.
    reason : str
        What went wrong.
    partial : object or None
        The partially parsed object (explicit ``_read()`` keeps what was read).

    Examples
    --------
    >>> str(ParseError("a.bin", "header.magic", 4, "expected 0xAF12"))
    'a.bin: header.magic @ 0x4 (4): expected 0xAF12'
    """

    def __init__(self, file: str, path: str, offset: int, reason: str, partial=None):
        self.file = str(file)
        self.path = path
        self.offset = int(offset)
        self.reason = reason
        self.partial = partial
        super().__init__(f"{self.file}: {path or '(file)'} @ {self.offset:#x} ({self.offset}): {reason}")

    def __reduce__(self):  # keep exceptions picklable for multiprocessing without the partial tree
        return (ParseError, (self.file, self.path, self.offset, self.reason))
