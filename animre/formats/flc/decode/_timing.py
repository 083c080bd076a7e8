"""Frame timing of an FLI/FLC file, from the fixed 128-byte header alone."""

from __future__ import annotations

import os
import struct

from ....base.errors import ParseError, UsageError

_HEADER = struct.Struct("<IHHHHHHI")


def frame_duration_ms(src: str | os.PathLike | bytes) -> float:
    """Milliseconds per frame of an FLI/FLC file, from its header speed.

    FLC (magic 0xAF12) stores milliseconds; FLI (0xAF11) stores 1/70 s ticks
    (the ``duration_ms`` instance of ``ksy/flc.ksy`` says the same). Only the
    fixed 128-byte header is read.

    Examples
    --------
    >>> frame_duration_ms("data/samples/flc/Warrior/Run.flc")
    88.0
    """
    if isinstance(src, (bytes, bytearray, memoryview)):
        head, name = bytes(src[:_HEADER.size]), "<bytes>"
    else:
        try:
            with open(src, "rb") as fh:
                head, name = fh.read(_HEADER.size), str(src)
        except OSError as e:
            raise UsageError(f"{src}: cannot read: {e}") from e
    if len(head) < _HEADER.size:
        raise ParseError(name, "header.speed", len(head), "file too short for an FLI/FLC header")
    _, magic, _, _, _, _, _, speed = _HEADER.unpack(head)
    if magic not in (0xAF11, 0xAF12):
        raise ParseError(name, "header.magic", 4, f"magic 0x{magic:04X} is neither FLI (0xAF11) nor FLC (0xAF12)")
    return speed * 1000 / 70 if magic == 0xAF11 else float(speed)
