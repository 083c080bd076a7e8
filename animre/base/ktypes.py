"""Kaitai Struct's primitive type names: the one place that reads them (``u2le``, ``s4``, ``f8be``, ``b3``).

Every module that asks what a ksy type is (the spec model, column-wise value instances, suggestions, the
value formatter) asks here; it imports nothing from animre.

Examples
--------
>>> bool(PRIMITIVE.match("u2le")), bool(PRIMITIVE.match("strz")), bool(PRIMITIVE.match("header"))
(True, True, False)
>>> bool(INTEGER.match("s4be")), bool(INTEGER.match("f4le")), type_bits("u4le"), type_bits("b3"), type_bits("x")
(True, False, ('u', 32), ('b', 3), None)
"""

from __future__ import annotations

import re

__all__ = ["PRIMITIVE", "INTEGER", "NUMBER", "BYTE_INT", "BYTE_FLOAT", "BYTE_NUMBER", "type_bits"]

#: every primitive type: integers, floats, bit-sized integers, strings
PRIMITIVE = re.compile(r"^(?:[us][1248]|f[48]|b\d+)(?:le|be)?$|^(?:str|strz)$")
#: integer types (byte-sized and bit-sized)
INTEGER = re.compile(r"^(?:[us][1248](?:le|be)?|b\d+(?:le|be)?)$")
#: numbers: the kind letter (u, s, f, b) and the size (bytes; bits for b)
NUMBER = re.compile(r"^([usfb])(\d+)(?:le|be)?$")
#: byte-sized integers: the sign letter, the width in bytes, the byte order (None when the spec's default)
BYTE_INT = re.compile(r"^([us])([1248])(le|be)?$")
#: floats: the width in bytes, the byte order
BYTE_FLOAT = re.compile(r"^f([48])(le|be)?$")
#: byte-sized numbers: the kind letter (u, s, f), the width in bytes, the byte order
BYTE_NUMBER = re.compile(r"^([usf])([1248])(le|be)?$")


def type_bits(ksy_type: str) -> tuple[str, int] | None:
    """``(kind, bits)`` of a numeric type (``u4le`` -> ``("u", 32)``, ``b3`` -> ``("b", 3)``); None otherwise."""
    m = NUMBER.match(str(ksy_type).strip())
    if m is None:
        return None
    n = int(m.group(2))
    return m.group(1), n if m.group(1) == "b" else 8 * n
