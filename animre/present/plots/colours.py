"""The plots' colours: a claim's holds and fails, values not tested.

Examples
--------
>>> HOLDS_COLOUR, FAILS_COLOUR
('#3a9d5d', '#d1495b')
"""

__all__ = ["HOLDS_COLOUR", "FAILS_COLOUR", "UNTESTED_COLOUR"]

HOLDS_COLOUR = "#3a9d5d"
FAILS_COLOUR = "#d1495b"
UNTESTED_COLOUR = "#bbbbbb"
