"""Parse bytes with a compiled Kaitai parser: every failure a ParseError with file, field path and offset.

Byte ranges of the parsed tree: :mod:`.ranges`; where a failure happened and
which instances fail: :mod:`.failures`.
"""

from __future__ import annotations

import types
from io import BytesIO
from typing import BinaryIO

from kaitaistruct import KaitaiStruct

from ..base.errors import ParseError
from .failures import failure_reason, locate_failure, value_failures
from .streams import ReadStream

__all__ = ["parse_bytes", "main_class", "camel", "ReadStream"]


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
