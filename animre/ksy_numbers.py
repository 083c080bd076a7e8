"""Numbers written into a spec: the one writer every spec edit uses.

The Kaitai compiler reads its YAML with a reader that turns every integer of
2^31 or more (and below -2^31) into a floating-point number, so
``valid: 0xF1F1F2F2`` is refused ("expected string or map, got 4059165426
(class java.lang.Double)"). An expression string holding the same literal
(``valid: '0xF1F1F2F2'``) is read by the compiler's expression parser, which
keeps 64-bit integers exact. :func:`ksy_int` gives a YAML scalar that the
compiler reads as exactly the integer meant, whatever its width and sign.
"""

from __future__ import annotations

__all__ = ["ksy_int", "YAML_INT_MIN", "YAML_INT_MAX"]

YAML_INT_MIN = -(2**31)
YAML_INT_MAX = 2**31 - 1


def ksy_int(value: int, *, hex_digits: int | None = None) -> int | str:
    """A YAML scalar the Kaitai compiler reads as exactly ``value``.

    Small integers stay numbers; integers outside the 32-bit signed range
    become expression strings (hex for positive values, ``-0x...`` for
    negative ones), which the compiler's expression parser reads exactly.

    Examples
    --------
    >>> ksy_int(7), ksy_int(2**31 - 1), ksy_int(0xF1F1F2F2), ksy_int(-(2**63))
    (7, 2147483647, '0xF1F1F2F2', '-0x8000000000000000')
    """
    v = int(value)
    if YAML_INT_MIN <= v <= YAML_INT_MAX:
        return v
    digits = f"{abs(v):X}"
    if hex_digits:
        digits = digits.rjust(hex_digits, "0")
    return ("-0x" if v < 0 else "0x") + digits
