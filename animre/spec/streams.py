"""Where every stream of a parse lies in the file: the one place byte ranges come from.

A parser compiled in debug mode records, for every field, where it starts
and ends *in the stream it was read from*. A spec makes many streams: every
``size:``, ``size-eos:`` or ``terminator`` field of a user type reads its
bytes into a substream of its own (at any depth, in arrays too, in every case
of a switch), an ``io:`` instance reads another object's stream (``_root._io``,
``_parent._io``, ``slot._io``), and ``process:`` (zlib, xor, rotate, a custom
process) turns the stored bytes into bytes that are in no place of the file.
Guessing a stream's place from the parse tree afterwards gets some of these
wrong; so the generated code is rewritten (:func:`place_source`, like
:mod:`animre.spec.guard`) to say it at the moment the stream is made:

- after ``_io__raw_x = KaitaiStream(BytesIO(self._raw_x))`` a call of
  :func:`place` gives the new stream its absolute start (``_animre_base``,
  relative to the bytes given to the parse): the parent stream's base plus
  the field's debug ``start``; a processed field's stream gets no base
  (``None``) and keeps the stored bytes' range (``_animre_stored``);
- a debug entry measured in another object's stream (an ``io:`` instance)
  keeps that stream (``'io'`` in the entry), so its range is taken in it;
- a bit field's start is the byte that holds its first bit (the stream's
  position has already passed that byte when bits are left over from an
  earlier bit field), and the entry keeps ``bit_start``/``bit_end``, the bit
  positions in the stream in reading order (big-endian bits: most
  significant first; little-endian: least significant first);
- a run of numbers one after another (a record's header: ``u2 u2 s4 u1 ...``)
  is read in one step where the stream holds all of its bytes
  (:func:`run_source`, :func:`run`): one ``struct`` unpack, and each field's
  debug entry written from its place in the run, the same entries the
  field-by-field code writes; where the bytes run out, the field-by-field
  code reads it, so a failure is the same.

:func:`stream_base` and :func:`entry_base` read it back. The rewritten
parser defines plain fallbacks, so it also runs without animre;
:func:`place_module` (called whenever animre loads a parser) puts the real
functions in their place. A change of the rewrite changes
:data:`animre.spec.compiler.OUTPUT_VERSION`.
"""

from __future__ import annotations

import re
import struct
import types

from kaitaistruct import EndOfStreamError, KaitaiStream

__all__ = ["place", "bit_start", "bit_end", "place_source", "place_module", "stream_base", "stored_range",
           "entry_base", "run", "run_source", "ReadStream"]

_SUB = re.compile(r"^( +)(_io__raw_(\w+)) = KaitaiStream\(BytesIO\(self\._raw_(\w+)(\[(?:i|-1)\])?\)\)$", re.M)
_START = r"self\._debug\['{k}'\](?:\['start'\] = |\['arr'\]\.append\(\{{'start': )([\w.]+)\.pos\(\)"
_BIT_START = re.compile(r"^( +)(self\._debug\['(\w+)'\])\['start'\] = ([\w.]+)\.pos\(\)\n"
                        r"(\1self\.\w+ = [^\n]*?\b\4\.read_bits_int_(?:be|le)\(\d+\)[^\n]*)\n"
                        r"\1\2\['end'\] = \4\.pos\(\)$", re.M)
_IO_ENTRY = re.compile(r"^( +)(self\._debug\['_m_\w+'\])\['start'\] = io\.pos\(\)$", re.M)
_FALLBACK = (
    "\n\ndef _animre_place(sub, io, start, stored):  # animre replaces these (animre/spec/streams.py)\n"
    "    pass\n"
    "\n\ndef _animre_bit_start(io, d):\n"
    "    return io.pos()\n"
    "\n\ndef _animre_bit_end(io, d):\n"
    "    return io.pos()\n"
)


_LARGE = 8 * 1024 * 1024  #: from this many bytes on, the runtime checks the size left before it reads


class ReadStream(KaitaiStream):
    """The Kaitai stream a parse reads a file from: the runtime's own, with its reads of bytes and of numbers
    taken in one step each (the runtime goes through four Python calls per number: the number, ``read_bytes``,
    aligning to a byte, the read itself) and its position the file's own ``tell``.

    Every value, position and error is the runtime's: the same alignment (a read of bytes drops the bits left
    over from a bit field), the same ``EndOfStreamError`` and message when the bytes run out, a negative or
    very large size handed to the runtime's own code. Only reading: a parse never writes, so the position is
    the file's (the runtime adds a byte only while writing bits) and the size the one the stream started with.
    The parse's root stream, and (:func:`place_module`) every substream a parser module makes.

    Examples
    --------
    >>> from io import BytesIO
    >>> s = ReadStream(BytesIO(b"\\x01\\x02\\x03"))
    >>> s.read_u2le(), s.pos(), s.read_u1()
    (513, 2, 3)
    >>> s.read_u1()
    Traceback (most recent call last):
    kaitaistruct.EndOfStreamError: requested 1 bytes, but only 0 bytes available
    """

    def __init__(self, io):  # the runtime's, in one call
        self._io = io
        self.bits_left = 0
        self.bits = 0
        self.bits_le = False
        self.bits_write_mode = False
        self.write_back_handler = None
        self.child_streams = []
        try:
            self._size = KaitaiStream.size(self)
        except (OSError, ValueError):
            pass
        self.pos = io.tell

    def size(self):
        """The stream's size, known from its start (a parse never writes); the runtime's ``size()`` otherwise."""
        try:
            return self._size
        except AttributeError:
            return KaitaiStream.size(self)

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


def place(sub, io, start: int, stored: int | None) -> None:
    """Give substream ``sub`` its place: read at ``start`` of stream ``io``; ``stored`` bytes if processed."""
    base = getattr(io, "_animre_base", 0)
    if stored is not None or base is None:
        sub._animre_base = None
        sub._animre_stored = (stored_range(io) if base is None
                              else (base + start, base + start + stored))
    else:
        sub._animre_base = base + start


def bit_start(io, d: dict) -> int:
    """The byte holding a bit field's first bit; its bit position goes to ``d['bit_start']``."""
    bits = io.pos() * 8 - io.bits_left
    d["bit_start"] = bits
    return bits >> 3


def bit_end(io, d: dict) -> int:
    """The byte after a bit field's last bit; its bit position goes to ``d['bit_end']``."""
    d["bit_end"] = io.pos() * 8 - io.bits_left
    return io.pos()


def stream_base(io) -> int | None:
    """Absolute start of stream ``io`` in the parsed bytes; ``None`` for the bytes of a ``process:``."""
    return getattr(io, "_animre_base", 0)


def stored_range(io) -> tuple[int, int] | None:
    """For a processed stream: ``(start, end)`` of the stored bytes it was made from; else ``None``."""
    return getattr(io, "_animre_stored", None)


def entry_base(obj, entry: dict) -> int | None:
    """Absolute start of the stream a debug ``entry`` of ``obj`` was measured in (see the module)."""
    io = entry.get("io")
    return getattr(io if io is not None else obj._io, "_animre_base", 0)


def _io_of(code: str, end: int, key: str) -> str:
    """The stream expression the debug entry ``key`` was started with, last before ``end`` in ``code``."""
    found = None
    for m in re.finditer(_START.format(k=re.escape(key)), code[:end]):
        found = m[1]
    return found or "self._io"


def place_source(code: str) -> str:
    """Generated Python parser code that records where each of its streams and bit fields lies."""
    n = 0

    def sub(m: re.Match) -> str:
        nonlocal n
        ind, var, _, raw, idx = m[1], m[2], m[3], m[4], m[5] or ""
        io = _io_of(code, m.start(), raw)
        entry = f"self._debug['{raw}']" + (f"['arr']{idx}" if idx else "")
        stored = f"len(self._raw__raw_{raw}{idx})" if f"self._raw__raw_{raw}" in code else "None"
        n += 1
        return f"{m[0]}\n{ind}_animre_place({var}, {io}, {entry}['start'], {stored})"

    out = _SUB.sub(sub, code)
    out, k = _BIT_START.subn(lambda m: (f"{m[1]}{m[2]}['start'] = _animre_bit_start({m[4]}, {m[2]})\n{m[5]}\n"
                                        f"{m[1]}{m[2]}['end'] = _animre_bit_end({m[4]}, {m[2]})"), out)
    out, j = _IO_ENTRY.subn(lambda m: f"{m[0]}\n{m[1]}{m[2]}['io'] = io", out)
    if not (n or k or j):
        return code
    return out.rstrip("\n") + _FALLBACK


def run(io, n: int, unpack):
    """The position and the values of a run of ``n`` bytes of numbers at the position of stream ``io``, read
    in one step; None (nothing read) when fewer than ``n`` bytes are left: the field-by-field code then reads
    them, and fails where the runtime fails."""
    f = io._io
    p = f.tell()
    b = f.read(n)
    if len(b) != n:
        f.seek(p)
        return None
    io.bits_left = 0  # what reading a number does first (the runtime's align_to_byte)
    io.bits = 0
    return p, unpack(b)


# One field read as a number, with its debug entry: ``start``, the read, ``end`` (what debug mode writes).
_FIELD = re.compile(r"^( +)self\._debug\['(\w+)'\]\['start'\] = self\._io\.pos\(\)\n"
                    r"\1self\.\2 = self\._io\.read_([us]1|[usf][248](?:le|be))\(\)\n"
                    r"\1self\._debug\['\2'\]\['end'\] = self\._io\.pos\(\)\n", re.M)
_CODES = {"u1": "B", "s1": "b", "u2": "H", "s2": "h", "u4": "I", "s4": "i", "u8": "Q", "s8": "q", "f4": "f",
          "f8": "d"}
_RUN_FALLBACK = (
    "\n\ndef _animre_run(io, n, unpack):  # animre replaces this (animre/spec/streams.py)\n"
    "    return None\n"
)


def run_source(code: str) -> str:
    """Generated Python parser code that reads each run of two or more numbers one after another (of one byte
    order) in one step (:func:`run`), writing the same debug entries; the field-by-field code stays for a
    stream that ends inside the run."""
    fields = list(_FIELD.finditer(code))
    runs: list[list[re.Match]] = []
    for m in fields:
        kind = m[3]
        order = kind[2:] or None
        last = runs[-1] if runs else None
        if (last and last[-1].end() == m.start() and last[-1][1] == m[1]
                and (order is None or _order(last) in (None, order))):
            last.append(m)
        else:
            runs.append([m])
    runs = [r for r in runs if len(r) > 1]
    if not runs:
        return code
    out, at, consts = [], 0, []
    for k, r in enumerate(runs):
        ind = r[0][1]
        fmt = ("<" if _order(r) != "be" else ">") + "".join(_CODES[m[3][:2]] for m in r)
        n = struct.calcsize(fmt)
        consts.append(f"_animre_run_{k} = _animre_struct.Struct({fmt!r}).unpack")
        original = "".join(m[0] for m in r)
        lines = [f"{ind}_animre_r = _animre_run(self._io, {n}, _animre_run_{k})", f"{ind}if _animre_r is None:"]
        lines += [f"    {line}" for line in original.rstrip("\n").split("\n")]
        lines += [f"{ind}else:", f"{ind}    _animre_p, ({', '.join(f'self.{m[2]}' for m in r)},) = _animre_r",
                  f"{ind}    _animre_d = self._debug"]
        pos = 0
        for m in r:
            w = struct.calcsize("<" + _CODES[m[3][:2]])
            lines.append(f"{ind}    _animre_d['{m[2]}'] = {{'start': _animre_p + {pos}, 'end': _animre_p + {pos + w}}}")
            pos += w
        out += [code[at:r[0].start()], "\n".join(lines) + "\n"]
        at = r[-1].end()
    out.append(code[at:])
    body = "".join(out).rstrip("\n")
    return body + _RUN_FALLBACK + "\n\nimport struct as _animre_struct  # noqa: E402\n" + "\n".join(consts) + "\n"


def _order(run: list[re.Match]) -> str | None:
    return next((m[3][2:] for m in run if m[3][2:]), None)


def place_module(mod: types.ModuleType) -> None:
    """Give a loaded parser module the real functions of this module (one without streams is left alone)."""
    if hasattr(mod, "_animre_place"):
        mod._animre_place = place
        mod._animre_bit_start = bit_start
        mod._animre_bit_end = bit_end
        if getattr(mod, "KaitaiStream", None) is KaitaiStream:  # its substreams read as the root stream does
            mod.KaitaiStream = ReadStream
    if hasattr(mod, "_animre_run"):
        mod._animre_run = run
