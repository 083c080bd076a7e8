"""What a spec says about recognising its files: magic bytes, constants at fixed offsets, extensions.

Detection reads these from the spec alone. From the start of the root type's
``seq``, fields are walked while their offsets are fixed (primitive integers
and floats, ``contents``, sized strings and bytes, nested user types made of
such fields); every ``contents`` there is a magic check, every ``valid`` on
an integer at a fixed offset a constant check (``eq``, ``any-of``, ``min`` /
``max``); the first element of a ``repeat: eos``/``until`` array of a user
type starts at a fixed offset too. Positional instances at a constant ``pos`` with ``contents`` or
``valid`` add checks at their offsets. The walk stops at the first field
whose size or presence depends on the data (``if``, ``repeat``, ``size:``
expressions, switch types, bit-sized integers, ``process``).

Examples
--------
>>> import yaml
>>> sig = signature(yaml.safe_load(open("ksy/flc.ksy")))
>>> [(c.offset, c.width) for c in sig.checks][:1]
[(4, 2)]
>>> sig.match(bytes(4) + b"\\x12\\xaf" + bytes(122), 128)
True
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..base.ktypes import BYTE_FLOAT, BYTE_INT

__all__ = ["Check", "Signature", "signature"]

MAX_WALK = 64  # fields walked from the start; magic sits in the first few


@dataclass(frozen=True)
class Check:
    """One constraint at a fixed offset: ``data`` bytes, or an integer in ``values`` / ``[lo, hi]``."""

    offset: int
    width: int
    data: bytes | None = None
    fmt: str | None = None  # struct format of the integer
    values: tuple[int, ...] | None = None
    lo: int | None = None
    hi: int | None = None
    field: str = ""

    def holds(self, head: bytes) -> bool | None:
        """True/False when ``head`` reaches the field, None when it is too short to tell."""
        end = self.offset + self.width
        if len(head) < end:
            return None
        if self.data is not None:
            return head[self.offset:end] == self.data
        (v,) = struct.unpack_from(self.fmt, head, self.offset)
        if self.values is not None and v not in self.values:
            return False
        if self.lo is not None and v < self.lo:
            return False
        return not (self.hi is not None and v > self.hi)

    @property
    def strength(self) -> float:
        """Bytes of evidence: a constant byte counts one, a choice among k values of an n-byte field less."""
        if self.data is not None:
            return float(len(self.data))
        if self.values is not None:
            return max(0.0, self.width - 0.25 * (len(self.values) - 1))
        return 0.25


@dataclass(frozen=True)
class Signature:
    """The checks and extensions a spec declares; ``min_size`` is the end of the last check."""

    checks: tuple[Check, ...] = ()
    extensions: tuple[str, ...] = ()
    fixed: int = 0  # bytes of the root seq at fixed offsets

    @property
    def strength(self) -> float:
        return sum(c.strength for c in self.checks)

    @property
    def min_size(self) -> int:
        return max((c.offset + c.width for c in self.checks), default=0)

    def match(self, head: bytes, size: int) -> bool | None:
        """True when every check holds, False when one fails (or the file is too short), None: no checks."""
        if not self.checks:
            return None
        if size < self.min_size:
            return False
        for c in self.checks:
            if c.holds(head) is False:
                return False
        return True

    def mismatch(self, head: bytes, size: int) -> str | None:
        """Why a file lacks the magic, in words (``magic 0a expected at 0, found 00``); None when it has it.

        Examples
        --------
        >>> Signature((Check(0, 1, data=b"\\x0a", field="magic"),)).mismatch(b"\\x00rest", 5)
        'magic 0a expected at 0, found 00'
        """
        if size < self.min_size:
            return f"{size} bytes: shorter than the magic ({self.min_size} bytes)"
        for c in self.checks:
            if c.holds(head) is not False:
                continue
            found = head[c.offset:c.offset + c.width]
            if c.data is not None:
                return f"{c.field or 'magic'} {c.data.hex(' ')} expected at {c.offset}, found {found.hex(' ')}"
            (v,) = struct.unpack_from(c.fmt, head, c.offset)
            want = (" or ".join(map(str, c.values)) if c.values is not None
                    else f"{c.lo if c.lo is not None else '..'}..{c.hi if c.hi is not None else ''}")
            return f"{c.field} {want} expected at {c.offset}, found {v}"
        return None

    def extension_matches(self, name: str) -> bool:
        low = name.lower()
        return any(low.endswith("." + e) for e in self.extensions)


def _ints(v: Any) -> list[int] | None:
    vals = v if isinstance(v, list) else [v]
    out = []
    for x in vals:
        if isinstance(x, bool):
            return None
        if isinstance(x, int):
            out.append(x)
        elif isinstance(x, str):
            try:
                out.append(int(x.strip().replace("_", ""), 0))
            except ValueError:
                return None
        else:
            return None
    return out


def _contents(v: Any) -> bytes | None:
    items = v if isinstance(v, list) else [v]
    out = bytearray()
    for x in items:
        if isinstance(x, bool):
            return None
        if isinstance(x, int) and 0 <= x <= 255:
            out.append(x)
        elif isinstance(x, str):
            out += x.encode("utf-8")
        else:
            return None
    return bytes(out)


class _Walker:
    def __init__(self, doc: Mapping):
        self.doc = doc
        meta = doc.get("meta") or {}
        e = meta.get("endian")
        self.endian = e if e in ("le", "be") else None
        self.checks: list[Check] = []
        self.steps = 0

    def find_type(self, name: str, scope: list[Mapping]) -> Mapping | None:
        for t in reversed(scope):
            found = (t.get("types") or {}).get(name)
            if isinstance(found, Mapping):
                return found
        return None

    def walk(self, tdoc: Mapping, offset: int, scope: list[Mapping], prefix: str) -> tuple[int, bool]:
        """Walk ``tdoc``'s seq from ``offset``; (offset after the fixed part, True if all of it is fixed)."""
        endian = self.endian
        me = (tdoc.get("meta") or {}).get("endian")
        if me in ("le", "be"):
            endian = me
        elif isinstance(me, Mapping):
            endian = None
        for a in tdoc.get("seq") or []:
            self.steps += 1
            if not isinstance(a, Mapping) or self.steps > MAX_WALK:
                return offset, False
            if a.get("repeat") in ("eos", "until") and not any(k in a for k in ("if", "process", "size", "io")):
                # the first element of such an array starts here (an empty file has no element: min_size)
                sub = self.find_type(a["type"], scope) if isinstance(a.get("type"), str) else None
                if sub is not None:
                    self.walk(sub, offset, scope + [sub], f"{prefix}{a.get('id', '')}[0].")
                return offset, False
            if any(k in a for k in ("if", "repeat", "process", "io", "pos")):
                return offset, False
            fid = f"{prefix}{a.get('id', '')}"
            if "contents" in a:
                data = _contents(a["contents"])
                if data is None:
                    return offset, False
                self.checks.append(Check(offset, len(data), data=data, field=fid))
                offset += len(data)
                continue
            t = a.get("type")
            size = a.get("size")
            if t is None or t in ("str", "strz"):
                if t == "strz" or "terminator" in a or not isinstance(size, int) or isinstance(size, bool):
                    return offset, False
                offset += size
                continue
            if not isinstance(t, str) or "(" in t:
                return offset, False
            m, f = BYTE_INT.match(t), BYTE_FLOAT.match(t)
            if m or f:
                width = int(m.group(2)) if m else int(f.group(1))  # u2 / s4be; f4 / f8le
                end = (m.group(3) if m else f.group(2)) or endian
                if m and "valid" in a and (end is not None or width == 1):
                    self._valid(a["valid"], offset, width, m.group(1) == "s", end or "le", fid)
                offset += width
                continue
            sub = self.find_type(t, scope)
            if sub is None:
                return offset, False
            if isinstance(size, int) and not isinstance(size, bool):
                self.walk(sub, offset, scope + [sub], fid + ".")
                offset += size
                continue
            if size is not None:
                return offset, False
            offset, whole = self.walk(sub, offset, scope + [sub], fid + ".")
            if not whole:
                return offset, False
        return offset, True

    def _valid(self, v: Any, offset: int, width: int, signed: bool, endian: str, fid: str) -> None:
        code = {1: "b", 2: "h", 4: "i", 8: "q"}[width]
        fmt = ("<" if endian == "le" else ">") + (code if signed else code.upper())
        if isinstance(v, Mapping):
            if "eq" in v:
                vals = _ints(v["eq"])
            elif "any-of" in v:
                vals = _ints(v["any-of"])
            else:
                lo, hi = _ints(v.get("min", [])) or None, _ints(v.get("max", [])) or None
                if lo or hi:
                    self.checks.append(Check(offset, width, fmt=fmt, lo=lo[0] if lo else None,
                                             hi=hi[0] if hi else None, field=fid))
                return
        else:
            vals = _ints(v)
        if vals:
            self.checks.append(Check(offset, width, fmt=fmt, values=tuple(vals), field=fid))


def signature(doc: Mapping) -> Signature:
    """The detection :class:`Signature` of a spec's YAML document."""
    w = _Walker(doc)
    fixed, _ = w.walk(doc, 0, [doc], "")
    for iid, a in (doc.get("instances") or {}).items():
        if not isinstance(a, Mapping) or not isinstance(a.get("pos"), int) or "io" in a or "if" in a:
            continue
        if "contents" in a:
            data = _contents(a["contents"])
            if data:
                w.checks.append(Check(a["pos"], len(data), data=data, field=str(iid)))
        elif "valid" in a and isinstance(a.get("type"), str):
            m = BYTE_INT.match(a["type"])
            if m and (m.group(3) or w.endian):
                w._valid(a["valid"], a["pos"], int(m.group(2)), m.group(1) == "s", m.group(3) or w.endian,
                         str(iid))
    ext = (doc.get("meta") or {}).get("file-extension") or []
    ext = [ext] if isinstance(ext, str) else list(ext)
    return Signature(tuple(w.checks), tuple(str(e).lower().lstrip(".") for e in ext), fixed)
