"""The candidate types of :func:`~animre.research.reinterpret`, named as in a Kaitai spec.

``u1`` ``s1`` ``u2le`` ``s4be`` ``f4le`` ... are the spec's own type names;
``f2le``/``f2be`` (IEEE half floats), ``fix8.8le`` ``fix24.8le``
``fix16.16le`` (fixed point) and ``bf16be`` (the upper half of a
big-endian f4, as GNT4 keys store it) have no Kaitai name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from ..base.display import fmt, plain
from ..base.errors import UsageError

__all__ = ["TYPES", "decode", "representations"]


def _ints(b: np.ndarray, dtype: str) -> np.ndarray:
    return np.ascontiguousarray(b).view(dtype).reshape(-1)


def _f16(b: np.ndarray, order: str) -> np.ndarray:
    return np.ascontiguousarray(b).view(order + "f2").reshape(-1).astype(np.float64)


def _bf16(b: np.ndarray, order: str) -> np.ndarray:
    u = np.ascontiguousarray(b).view(order + "u2").reshape(-1).astype(np.uint32) << np.uint32(16)
    return u.view(np.float32).astype(np.float64)


# name -> (size in bytes, kind, decoder(uint8 array of shape (n, size)) -> values)
TYPES: dict[str, tuple[int, str, Callable[[np.ndarray], np.ndarray]]] = {
    "u1": (1, "int", lambda b: _ints(b, "u1").astype(np.int64)),
    "s1": (1, "int", lambda b: _ints(b, "i1").astype(np.int64)),
    "u2le": (2, "int", lambda b: _ints(b, "<u2").astype(np.int64)),
    "u2be": (2, "int", lambda b: _ints(b, ">u2").astype(np.int64)),
    "s2le": (2, "int", lambda b: _ints(b, "<i2").astype(np.int64)),
    "s2be": (2, "int", lambda b: _ints(b, ">i2").astype(np.int64)),
    "f2le": (2, "float16", lambda b: _f16(b, "<")),
    "f2be": (2, "float16", lambda b: _f16(b, ">")),
    "fix8.8le": (2, "fixed8", lambda b: _ints(b, "<i2").astype(np.float64) / 256),
    "fix8.8be": (2, "fixed8", lambda b: _ints(b, ">i2").astype(np.float64) / 256),
    "bf16be": (2, "float32", lambda b: _bf16(b, ">")),
    "u4le": (4, "int", lambda b: _ints(b, "<u4").astype(np.int64)),
    "u4be": (4, "int", lambda b: _ints(b, ">u4").astype(np.int64)),
    "s4le": (4, "int", lambda b: _ints(b, "<i4").astype(np.int64)),
    "s4be": (4, "int", lambda b: _ints(b, ">i4").astype(np.int64)),
    "f4le": (4, "float32", lambda b: _ints(b, "<f4").astype(np.float64)),
    "f4be": (4, "float32", lambda b: _ints(b, ">f4").astype(np.float64)),
    "fix24.8le": (4, "fixed8", lambda b: _ints(b, "<i4").astype(np.float64) / 256),
    "fix24.8be": (4, "fixed8", lambda b: _ints(b, ">i4").astype(np.float64) / 256),
    "fix16.16le": (4, "fixed16", lambda b: _ints(b, "<i4").astype(np.float64) / 65536),
    "fix16.16be": (4, "fixed16", lambda b: _ints(b, ">i4").astype(np.float64) / 65536),
}

def decode(raw: Sequence[bytes], name: str) -> np.ndarray:
    """Decode equal-length byte strings as one candidate type (see :data:`TYPES`).

    Examples
    --------
    >>> decode([bytes.fromhex("4048")], "bf16be").tolist()
    [3.125]
    """
    size, _, fn = TYPES[name]
    if not len(raw):
        return np.zeros(0)
    arr = np.frombuffer(b"".join(raw), dtype=np.uint8).reshape(len(raw), -1)
    if arr.shape[1] != size:
        raise UsageError(f"{name} needs {size} bytes, got {arr.shape[1]}")
    with np.errstate(all="ignore"):  # NaN/inf bit patterns are data here, not errors
        return fn(arr)


def representations(raw: bytes) -> pd.DataFrame:
    """One value read as every candidate type of its size: columns ``type, value``.

    The first row is the hex of the bytes (shortened after 32 bytes).

    Examples
    --------
    >>> representations(bytes.fromhex("4048"))["type"].tolist()[:3]
    ['hex', 'u2le', 'u2be']
    """
    raw = bytes(raw)
    shown = fmt(raw)
    rows: list[dict] = [{"type": "hex", "value": shown}]
    for t, (size, _, _) in TYPES.items():
        if size == len(raw):
            v = decode([raw], t)[0]
            rows.append({"type": t, "value": plain(v)})
    return pd.DataFrame(rows, columns=["type", "value"])
