"""Values written the way a reverse engineer reads them: the one formatter of animre.

Profiles, widgets, exports and wiki tables all show values through
:func:`fmt`: plain Python numbers (never ``np.int64(619)``), hex padded to the
field's width for magic values, flags and ids (``0xAF12`` for a ``u2``,
``0xF1F1F2F2`` for a ``u4``), floats with the precision of their type (an
``f4`` keeps about 7 significant digits), arrays element by element and bytes
as hex. Which fields are shown in hex is decided once, by :func:`hex_digits`,
from what the spec says (``contents``/``valid`` constants, names such as
``magic``, ``flags``, ``*_id``, docs that speak of a bitmask or quote a hex
constant) and from what a profile saw (a constant with many set bits, bits
switched on and off like flags).

This is a bottom layer: it imports nothing from animre.

Examples
--------
>>> import numpy as np
>>> fmt(np.int64(619)), fmt(np.False_), fmt(np.float32(0.1), ksy_type="f4")
('619', 'False', '0.1')
>>> fmt(44818, hex_digits=hex_digits("magic", "u2"))
'0xAF12'
>>> fmt(np.array([1, -2, 3], dtype=np.int8))
'[1, -2, 3]'
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from .ktypes import NUMBER

__all__ = ["plain", "fmt", "hex_digits", "says_decimal", "type_bytes", "formatters", "HEX_ALERTS", "DECIMAL_WORDS"]

#: Profile alerts that make a column show in hex.
HEX_ALERTS = ("LOOKS_LIKE_FLAGS",)

_HEX_NAME = re.compile(r"(?:^|[._])(?:magic|signature|fourcc|flags?|[a-z0-9]*_flags|mask|[a-z0-9]*_mask|"
                       r"crc|checksum|hash|creator|id|[a-z0-9]+_id)(?:$|[._\[])")
#: Words of a field's name that say it holds a quantity (shown in decimal): counts, sizes, offsets, dimensions,
#: positions and times (:func:`says_decimal`).
DECIMAL_WORDS = frozenset({
    "num", "n", "nb", "len", "length", "lengths", "size", "sizes", "count", "counts", "cnt", "total", "ofs", "offset",
    "offsets", "off", "pos", "position", "start", "end", "width", "height", "w", "h", "x", "y", "z", "xs", "ys",
    "dx", "dy", "left", "top", "right", "bottom", "depth", "bpp", "speed", "time", "times", "duration", "delay",
    "delays", "ms", "fps", "rate", "tick", "ticks", "frames", "index", "idx", "scale", "weight", "weights",
    "angle", "angles", "distance", "interval", "lines", "rows", "columns", "cols", "padding", "pad",
})
_HEX_DOC = re.compile(r"\b(?:magic|signature|bitmask|bit mask|bit set|bitset|bit field|bitfield|flags|fourcc)\b"
                      r"|\b0x[0-9A-Fa-f]{4,}\b", re.IGNORECASE)


def plain(v: Any) -> Any:
    """``v`` with numpy scalars and arrays turned into plain Python values (recursively).

    Examples
    --------
    >>> import numpy as np
    >>> plain([(np.int64(3), np.bool_(True))]), plain(np.arange(3, dtype=np.uint8))
    ([(3, True)], [0, 1, 2])
    """
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, np.ndarray):
        return [plain(x) for x in v.tolist()]
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, tuple):
        return tuple(plain(x) for x in v)
    if isinstance(v, dict):
        return {plain(k): plain(x) for k, x in v.items()}
    return v


def type_bytes(ksy_type: str | None) -> int | None:
    """Bytes of a primitive ksy type (``u2`` -> 2, ``f4be`` -> 4, ``b12`` -> 2), else None.

    Examples
    --------
    >>> type_bytes("u4le"), type_bytes("s1"), type_bytes("b3"), type_bytes("str")
    (4, 1, 1, None)
    """
    if not isinstance(ksy_type, str):
        return None
    m = NUMBER.match(ksy_type.strip())
    if not m:
        return None
    n = int(m.group(2))
    return (n + 7) // 8 if m.group(1) == "b" else n


def _last_name(column: str) -> str:
    """The field's own name: the last part of a column path, array indices dropped (``a.b[3].c_d`` -> ``c_d``)."""
    return re.sub(r"\[\d*\]", "", column.lower()).rsplit(".", 1)[-1]


def says_decimal(column: str) -> bool:
    """True when a column's own name says it holds a quantity: a count, size, offset, dimension or time.

    The name is split at ``_`` (trailing digits dropped); one word of
    :data:`DECIMAL_WORDS` (``num``, ``len``, ``ofs``, ``width``, ``x_offset``,
    ``bit_depth``, ``anim_time`` ...) is enough, unless the name is a
    magic/flags/id name (``frame_flags``, ``sprite_id``).

    Examples
    --------
    >>> says_decimal("header.width"), says_decimal("header.flicanim.x_offset"), says_decimal("ofs_frame1")
    (True, True, True)
    >>> says_decimal("header.flags"), says_decimal("frame_id"), says_decimal("unknown_18")
    (False, False, False)
    """
    name = _last_name(column)
    if _HEX_NAME.search(name):
        return False
    return any(re.sub(r"\d+$", "", w) in DECIMAL_WORDS for w in name.split("_"))


def hex_digits(column: str, ksy_type: str | None = None, *, doc: str | None = None, magic: bool = False,
               alerts: Iterable[str] = (), constant: Any = None, width: int | None = None) -> int | None:
    """Hex digits to show a column with, or None when it reads best in decimal.

    Hex is for what is a pattern of bits rather than a quantity: a magic,
    flags, a hash or an id. A column is hex when its own name is a
    magic/flags/id name (``magic``, ``flags``, ``*_flags``, ``*_mask``,
    ``*_id``, ``hash``, ``crc``, ``creator`` ...). A name that says it holds a
    quantity (:func:`says_decimal`: counts, sizes, offsets, dimensions, times)
    is decimal whatever else is seen, even a ``valid`` constant (a header
    size of 16). Otherwise it is hex when the spec marks it as a magic value
    (``magic``: ``contents`` or a ``valid`` constant), its doc speaks
    of a magic value, bitmask or flags or quotes a hex constant of 4+ digits,
    a profile found it flag-like (:data:`HEX_ALERTS`), or it is a constant
    that reads as a bit pattern (13+ significant bits, 4+ of them set, not a
    round decimal: 0xAF12, not 320 or 5000). The digits are twice the bytes
    of ``ksy_type`` (or ``width`` bits / 4).

    Examples
    --------
    >>> hex_digits("magic", "u2"), hex_digits("creator", "u4"), hex_digits("speed", "u2")
    (4, 8, None)
    >>> hex_digits("unknown_0", "u4", constant=0xF1F1F2F2), hex_digits("width", "u2", constant=320)
    (8, None)
    >>> hex_digits("header.width", "u2", constant=120), hex_digits("num_chunks", "u2", doc="chunks (0xF1FA)")
    (None, None)
    """
    n = type_bytes(ksy_type)
    if ksy_type is not None and isinstance(ksy_type, str) and ksy_type.startswith("f"):
        return None
    digits = 2 * n if n else (max(2, (width + 3) // 4) if width else 2)
    if _HEX_NAME.search(_last_name(column)):
        return digits
    if says_decimal(column):
        return None
    if magic:
        return digits
    if doc and _HEX_DOC.search(doc):
        return digits
    if any(a in HEX_ALERTS for a in alerts):
        return digits
    c = plain(constant)
    if isinstance(c, int) and not isinstance(c, bool) and c >= 0x1000 and c % 10:
        if bin(c).count("1") >= 4:
            return digits
    return None


def _is_int_type(ksy_type: str | None) -> bool:
    """True for integer ksy types (``u2``, ``s4be``, ``b3``) and record positions (``index``)."""
    if ksy_type == "index":
        return True
    return isinstance(ksy_type, str) and bool(NUMBER.match(ksy_type.strip())) and ksy_type[0] in "usb"


def _float(v: float, ksy_type: str | None) -> str:
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == int(v) and abs(v) < 1e15:
        return str(int(v)) + ".0" if abs(v) < 1e7 else f"{v:.7g}"
    n = type_bytes(ksy_type)
    if n == 4 or (isinstance(ksy_type, str) and ksy_type.startswith("f32")):
        x = np.float32(v)
        if 1e-4 <= abs(v) < 1e7:
            return np.format_float_positional(x, unique=True, trim="-")
        return np.format_float_scientific(x, unique=True, trim="-", exp_digits=1)
    if n == 8 or (isinstance(ksy_type, str) and ksy_type.startswith("f64")):
        s = repr(v)
        return s if len(s) <= 12 else f"{v:.10g}"
    return f"{v:.7g}"


def fmt(v: Any, *, hex_digits: int | None = None, ksy_type: str | None = None,
        max_items: int = 16, max_len: int | None = None) -> str:
    """A value as text for people: numbers plain, hex where asked, short floats, arrays element-wise.

    Parameters
    ----------
    v : any
        A cell, a numpy scalar or array, a list, bytes ...
    hex_digits : int, optional
        Show integers as ``0x`` + this many upper-case hex digits (from
        :func:`hex_digits`); negative values as ``-0x..``.
    ksy_type : str, optional
        The value's ksy type: ``f4``/``f32`` floats keep float32 precision.
    max_items : int
        Elements of an array shown before ``...``.
    max_len : int, optional
        Cut the text at this length (``...``).

    Examples
    --------
    >>> import numpy as np
    >>> fmt(np.float64(0.012934599816799164)), fmt(1.2e27, ksy_type="f32le")
    ('0.0129346', '1.2e+27')
    >>> fmt(bytes([1, 0xAB])), fmt([0x202, 5], hex_digits=4), fmt(None)
    ('01 ab', '[0x0202, 0x0005]', '')
    >>> fmt(64.0), fmt(64.0, ksy_type="u1"), fmt(64.0, ksy_type="f4")
    ('64.0', '64', '64.0')
    """
    s = _fmt(v, hex_digits, ksy_type, max_items)
    if max_len is not None and len(s) > max_len:
        s = s[: max(0, max_len - 3)] + "..."
    return s


def _fmt(v: Any, hd: int | None, ksy_type: str | None, max_items: int) -> str:
    v = plain(v) if isinstance(v, (np.generic, np.ndarray)) else v
    if v is None:
        return ""
    if type(v).__name__ in ("NAType", "NaTType"):
        return ""
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        if hd:
            return f"{'-' if v < 0 else ''}0x{abs(v):0{hd}X}"
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return ""
        if (hd or _is_int_type(ksy_type)) and not math.isinf(v) and v == int(v):
            return _fmt(int(v), hd, ksy_type, max_items)  # an integer column with gaps (pandas made it float)
        return _float(v, ksy_type)
    if isinstance(v, (bytes, bytearray, memoryview)):
        b = bytes(v)
        more = f" ... ({len(b)} bytes)" if len(b) > 32 else ""
        return b[:32].hex(" ") + more
    if isinstance(v, str):
        return v
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_fmt(x, hd, ksy_type, max_items)}" for k, x in v.items()) + "}"
    if isinstance(v, tuple):
        return "(" + ", ".join(_fmt(x, hd, ksy_type, max_items) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, (list, set, frozenset)):
        items = list(v)
        shown = ", ".join(_fmt(x, hd, ksy_type, max_items) for x in items[:max_items])
        more = f", ... ({len(items)} items)" if len(items) > max_items else ""
        return f"[{shown}{more}]"
    return str(v)


def formatters(info: Any = None, profile: Any = None) -> dict[str, Callable[[Any], str]]:
    """One formatter per column, from a table's spec info and/or its profile.

    Parameters
    ----------
    info : DataFrame, optional
        ``corpus.columns(table)``: column, type, doc and ``magic``.
    profile : DataFrame, optional
        :func:`animre.profile` of the table: ``alerts``, ``is_constant``,
        ``most_common``, ``width``.

    Returns
    -------
    dict
        ``{column: f(value) -> str}``; columns known to neither give no entry
        (use :func:`fmt`).

    Examples
    --------
    >>> import pandas as pd
    >>> f = formatters(pd.DataFrame({"column": ["magic", "speed"], "type": ["u2", "u2"],
    ...                              "doc": ["", ""], "magic": [False, False]}))
    >>> f["magic"](0xAF12), f["speed"](70)
    ('0xAF12', '70')
    """
    cols: dict[str, dict] = {}
    if info is not None and len(info):
        for r in info.to_dict("records"):
            cols[str(r["column"])] = {"ksy_type": r.get("type") if isinstance(r.get("type"), str) else None,
                                      "doc": r.get("doc") if isinstance(r.get("doc"), str) else None,
                                      "magic": bool(r.get("magic")) if r.get("magic") is not None
                                      and r.get("magic") == r.get("magic") else False}
    if profile is not None and len(profile):
        for r in profile.to_dict("records"):
            d = cols.setdefault(str(r["column"]), {})
            alerts = r.get("alerts")
            d["alerts"] = list(alerts) if isinstance(alerts, (list, tuple)) else []
            mc = r.get("most_common")
            if r.get("is_constant") and isinstance(mc, (list, tuple)) and mc:
                d["constant"] = mc[0][0]
            w = r.get("width")
            d["width"] = int(w) if isinstance(w, (int, np.integer)) or (isinstance(w, float) and w == w) else None
    out = {}
    for c, d in cols.items():
        kt = d.get("ksy_type")
        if kt in ("derived", "value", "str"):
            kt = None
        hd = hex_digits(c, kt, doc=d.get("doc"), magic=d.get("magic", False), alerts=d.get("alerts", ()),
                        constant=d.get("constant"), width=d.get("width"))
        out[c] = _bound(hd, kt)
    return out


def _bound(hd: int | None, kt: str | None) -> Callable[[Any], str]:
    def f(v: Any, **kw: Any) -> str:
        return fmt(v, hex_digits=hd, ksy_type=kt, **kw)
    f.hex_digits = hd  # type: ignore[attr-defined]
    return f
