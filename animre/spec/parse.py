"""Parse bytes with a compiled Kaitai parser: every failure a ParseError with file, field path and offset.

Byte ranges of the parsed tree: :mod:`.ranges`; where a failure happened and
which instances fail: :mod:`.failures`.
"""

from __future__ import annotations

import struct
import types
from io import BytesIO
from typing import BinaryIO

from kaitaistruct import EndOfStreamError, KaitaiStream, KaitaiStruct

from ..base.errors import ParseError
from .failures import failure_reason, locate_failure, value_failures

__all__ = ["parse_bytes", "main_class", "camel", "ReadStream"]


_LARGE = 8 * 1024 * 1024  #: from this many bytes on, the runtime checks the size left before it reads


class ReadStream(KaitaiStream):
    """The Kaitai stream a parse reads a file from: the runtime's own, with its reads of bytes and of numbers
    taken in one step each (the runtime goes through four Python calls per number: the number, ``read_bytes``,
    aligning to a byte, the read itself) and its position the file's own ``tell``.

    Every value, position and error is the runtime's: the same alignment (a read of bytes drops the bits left
    over from a bit field), the same ``EndOfStreamError`` and message when the bytes run out, a negative or
    very large size handed to the runtime's own code. Only reading: a parse never writes, so the position is
    the file's (the runtime adds a byte only while writing bits).

    Examples
    --------
    >>> s = ReadStream(BytesIO(b"\\x01\\x02\\x03"))
    >>> s.read_u2le(), s.pos(), s.read_u1()
    (513, 2, 3)
    >>> s.read_u1()
    Traceback (most recent call last):
    kaitaistruct.EndOfStreamError: requested 1 bytes, but only 0 bytes available
    """

    def __init__(self, io):
        super().__init__(io)
        self.pos = io.tell

    def read_bytes(self, n):
        self.bits_left = 0
        self.bits = 0
        if n < 0 or n >= _LARGE:
            return self._read_bytes_not_aligned(n)
        r = self._io.read(n)
        if len(r) < n:
            raise EndOfStreamError(f"requested {n} bytes, but only {len(r)} bytes available", n, len(r))
        return r


def _number(fmt: str):
    unpack = struct.Struct(fmt).unpack
    n = struct.calcsize(fmt)

    def read(self):
        self.bits_left = 0
        self.bits = 0
        r = self._io.read(n)
        if len(r) < n:
            raise EndOfStreamError(f"requested {n} bytes, but only {len(r)} bytes available", n, len(r))
        return unpack(r)[0]

    return read


for _name, _fmt in (("u1", "B"), ("s1", "b"), ("u2le", "<H"), ("u2be", ">H"), ("s2le", "<h"), ("s2be", ">h"),
                    ("u4le", "<I"), ("u4be", ">I"), ("s4le", "<i"), ("s4be", ">i"), ("u8le", "<Q"), ("u8be", ">Q"),
                    ("s8le", "<q"), ("s8be", ">q"), ("f4le", "<f"), ("f4be", ">f"), ("f8le", "<d"), ("f8be", ">d")):
    setattr(ReadStream, f"read_{_name}", _number(_fmt))
del _name, _fmt


def camel(spec_id: str) -> str:
    """The class name the Kaitai compiler gives a type id (``frm`` -> ``Frm``)."""
    return "".join(p[:1].upper() + p[1:] for p in spec_id.split("_"))


def main_class(module: types.ModuleType) -> type:
    """The top-level parser class of a compiled module."""
    name = camel(module.__name__.rsplit(".", 1)[-1])
    cls = getattr(module, name, None)
    if cls is None:
        cands = [
            v for v in vars(module).values()
            if isinstance(v, type) and issubclass(v, KaitaiStruct) and v.__module__ == module.__name__
        ]
        if len(cands) != 1:
            raise ValueError(f"cannot tell the top-level class of parser module {module.__name__}")
        cls = cands[0]
    return cls


def parse_bytes(data: bytes | BinaryIO, module: types.ModuleType, file: str = "<bytes>", cls: type | None = None,
                fetch_instances: bool = True, instance_errors: list | None = None) -> KaitaiStruct:
    """Parse ``data`` with a compiled parser module; every failure becomes a ParseError.

    Parameters
    ----------
    data : bytes or seekable binary file
        The whole file (a file object is read only where the spec reads, e.g.
        an archive's directory without its members).
    module : module
        A parser module from :func:`animre.spec.compiler.load_parser` or :func:`animre.spec.compile_spec`.
    file : str
        Name used in error messages.
    fetch_instances : bool
        Also read every instance (positional fields), so errors surface now.
    instance_errors : list, optional
        When given, an instance that fails (a footer the file lacks) is
        appended here as a ParseError instead of raised: the ``seq`` parsed,
        and its values are kept.

    Examples
    --------
    >>> from animre.spec.compiler import load_parser
    >>> parse_bytes(b"\\x01", load_parser("frm"), "x.bin")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    animre.base.errors.ParseError: x.bin: eye_x @ 0x1 (1): EndOfStreamError: ...
    """
    cls = cls or main_class(module)
    root = cls(ReadStream(data if hasattr(data, "read") else BytesIO(data)))
    try:
        root._read()
    except Exception as exc:  # noqa: BLE001 - every failure is reported with its location
        path, offset = locate_failure(root, exc)
        raise ParseError(file, path, offset, failure_reason(exc), partial=root) from exc
    if fetch_instances:
        complete = True
        try:
            root._fetch_instances()
        except Exception as exc:  # noqa: BLE001 - every failure is reported with its location
            path, offset = locate_failure(root, exc)
            err = ParseError(file, path, offset, "instance: " + failure_reason(exc), partial=root)
            if instance_errors is None:
                raise err from exc
            instance_errors.append(err)  # the seq parsed: its values stay, the instance is an error row
            complete = False
        for err in value_failures(root, file, complete):  # what the ordinary parser raises when a value is asked for
            if instance_errors is None:
                raise err
            instance_errors.append(err)
    return root
