"""Numbers written into a spec: the one writer every spec edit uses (and its reader).

The Kaitai compiler reads its YAML with a reader that turns every integer of
2^31 or more (and below -2^31) into a floating-point number, so
``valid: 0xF1F1F2F2`` is refused ("expected string or map, got 4059165426
(class java.lang.Double)") and an enum key past 2^53 silently loses its low
bits. An expression string holding the same literal (``valid: '0xF1F1F2F2'``)
is read by the compiler's expression parser, which keeps 64-bit integers
exact. Enum keys are read differently: as a Java ``long`` (64-bit signed),
from a decimal or positive hex string, so a key of 2^63 or more cannot be
written at all.

- :func:`ksy_int`: a YAML scalar the compiler reads as exactly the integer
  meant, in an expression position (``valid``, ``any-of``, ``min``/``max``,
  ``repeat-expr``, ``size``, ``pos`` ...), whatever its width and sign;
- :func:`ksy_enum_key`: the same for an enum key (or :class:`ValueError`);
- :func:`ksy_contents`: the bytes of an integer as a ``contents`` list;
- :func:`spec_int`: the integer a spec's scalar means (the reverse).
"""

from __future__ import annotations

import re
from typing import Any

from ruamel.yaml.scalarint import HexCapsInt

from ..base.ktypes import BYTE_INT

__all__ = ["ksy_int", "ksy_enum_key", "ksy_contents", "spec_int", "YAML_INT_MIN", "YAML_INT_MAX",
           "ENUM_KEY_MIN", "ENUM_KEY_MAX"]

YAML_INT_MIN = -(2**31)
YAML_INT_MAX = 2**31 - 1
ENUM_KEY_MIN = -(2**63)
ENUM_KEY_MAX = 2**63 - 1
_INT_TEXT = re.compile(r"^\s*(-)?\s*(0x[0-9a-fA-F_]+|0b[01_]+|0o[0-7_]+|\d[\d_]*)\s*$")


def _hex_int(value: int, digits: int | None) -> Any:
    return HexCapsInt(value, width=digits) if digits else HexCapsInt(value)


def ksy_int(value: int, *, hex_digits: int | None = None) -> int | str:
    """A YAML scalar the Kaitai compiler reads as exactly ``value`` (an expression position).

    Integers in the 32-bit signed range stay numbers (in hex when
    ``hex_digits`` is given: the round-trip YAML writer prints them as
    ``0x00F1``); integers outside it become expression strings (hex for
    positive values, ``-0x...`` for negative ones), which the compiler's
    expression parser reads exactly.

    Examples
    --------
    >>> ksy_int(7), ksy_int(2**31 - 1), ksy_int(0xF1F1F2F2), ksy_int(-(2**63))
    (7, 2147483647, '0xF1F1F2F2', '-0x8000000000000000')
    >>> ksy_int(2**64 - 1), ksy_int(0xAF12, hex_digits=4) == 0xAF12
    ('0xFFFFFFFFFFFFFFFF', True)
    """
    v = _as_int(value)
    if YAML_INT_MIN <= v <= YAML_INT_MAX:
        return _hex_int(v, hex_digits) if hex_digits and v >= 0 else v
    digits = f"{abs(v):X}"
    if hex_digits:
        digits = digits.rjust(hex_digits, "0")
    return ("-0x" if v < 0 else "0x") + digits


def ksy_enum_key(value: int, *, hex_digits: int | None = None) -> int | str:
    """A YAML key the Kaitai compiler reads as exactly ``value`` in an ``enums`` map.

    The compiler reads enum keys as 64-bit signed integers: numbers in the
    32-bit signed range stay numbers, others become strings (hex when
    ``hex_digits`` is given and the key is positive, else decimal). Keys
    the compiler cannot hold (2^63 and above, below -2^63) raise
    :class:`ValueError` saying so.

    Examples
    --------
    >>> ksy_enum_key(3), ksy_enum_key(0xF1F1F2F2), ksy_enum_key(-(2**63))
    (3, '4059165426', '-9223372036854775808')
    >>> ksy_enum_key(0xF1F1F2F2, hex_digits=8)
    '0xF1F1F2F2'

    >>> ksy_enum_key(2**63)
    Traceback (most recent call last):
    ...
    ValueError: enum key 0x8000000000000000 is outside the 64-bit signed range the Kaitai compiler reads enum keys in
    """
    v = _as_int(value)
    if not ENUM_KEY_MIN <= v <= ENUM_KEY_MAX:
        raise ValueError(f"enum key {v:#x} is outside the 64-bit signed range the Kaitai compiler reads "
                         f"enum keys in")
    if YAML_INT_MIN <= v <= YAML_INT_MAX:
        return _hex_int(v, hex_digits) if hex_digits and v >= 0 else v
    return f"0x{v:0{hex_digits}X}" if hex_digits and v > 0 else str(v)


def ksy_contents(value: int, ksy_type: str, endian: str | None = None) -> list[int]:
    """The bytes of integer ``value`` read as ``ksy_type``, as a ``contents`` list.

    ``endian`` (``"le"``/``"be"``) is the spec's default when the type has no
    suffix. Raises :class:`ValueError` when the value does not fit the type.

    Examples
    --------
    >>> [hex(b) for b in ksy_contents(0xF1F1F2F2, "u4le")]
    ['0xf2', '0xf2', '0xf1', '0xf1']
    >>> ksy_contents(-2, "s2", "be"), ksy_contents(7, "u1")
    ([255, 254], [7])
    """
    m = BYTE_INT.match(str(ksy_type).strip())
    if not m:
        raise ValueError(f"contents from an integer needs an integer type (u1..u8, s1..s8), not {ksy_type!r}")
    signed, n, end = m.group(1) == "s", int(m.group(2)), m.group(3) or endian
    if n > 1 and end not in ("le", "be"):
        raise ValueError(f"{ksy_type}: no byte order (give the type a le/be suffix or the spec a meta endian)")
    v = _as_int(value)
    try:
        raw = v.to_bytes(n, "big" if end == "be" else "little", signed=signed)
    except OverflowError:
        raise ValueError(f"{v} does not fit in {ksy_type}") from None
    return list(raw)


def spec_int(x: Any) -> int | None:
    """The integer a spec scalar means (a YAML integer or an integer literal string), else None.

    Examples
    --------
    >>> spec_int(7), spec_int("0xF1F1F2F2"), spec_int("-0x10"), spec_int("n + 1"), spec_int(True)
    (7, 4059165426, -16, None, None)
    """
    if isinstance(x, bool):
        return None
    if isinstance(x, int):
        return int(x)
    if isinstance(x, str):
        m = _INT_TEXT.match(x)
        if m:
            digits = m.group(2).replace("_", "")
            v = int(digits, 10) if digits.isdigit() else int(digits, 0)
            return -v if m.group(1) else v
    return None


def _as_int(value: Any) -> int:
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"expected an integer, got {type(value).__name__} {value!r}")
    return int(value)
