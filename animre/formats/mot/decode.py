"""GNT4 MOT/GNTA key coordinates: 16-bit floats and rotation tracks.

A GNTA track with flags 0x0202 stores every coordinate component as the
upper 16 bits of a big-endian IEEE 754 single (animre format notes on GNT4 MOT/GNTA):
``value = float32 from bits << 16``, so ``0x4048`` is 3.125. This is neither
an IEEE half float (``numpy.float16`` would read 0x4048 as 2.140625) nor a
fixed-point number, so no library decodes it; it is a shift and a
reinterpretation, written here by hand with a numpy view. Flags 0x0204 store
plain f32 components. ``ksy/mot.ksy`` reads the raw halves (``x_raw`` ...)
and also computes the floats (``x`` ...) from the sign, exponent and mantissa
bits; this module is the vectorised reference those values are tested against.

ROTATE tracks hold a direction (x, y, z) and a twist (w, degrees); keys are
interpolated linearly by the game.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["half_to_float", "float_to_half", "rotation_direction_twist", "track_coords"]


def half_to_float(raw: Any) -> np.ndarray | np.float32:
    """Decode GNT4 16-bit components (upper half of an f32) to float32.

    Parameters
    ----------
    raw : int or array_like of int
        Raw u2 values as read from the file (0..0xFFFF).

    Returns
    -------
    numpy.float32 or numpy.ndarray of float32
        Same shape as ``raw`` (a scalar for a scalar).

    Examples
    --------
    >>> float(half_to_float(0x4048))
    3.125
    >>> half_to_float([0x3F80, 0xBF80, 0x0000]).tolist()
    [1.0, -1.0, 0.0]
    """
    a = np.asarray(raw)
    if a.size and (a.min() < 0 or a.max() > 0xFFFF):
        raise ValueError("16-bit components must lie in 0..0xFFFF")
    out = (a.astype(np.uint32) << np.uint32(16)).view(np.float32)
    return out[()] if out.ndim == 0 else out


def float_to_half(values: Any) -> np.ndarray | np.uint16:
    """The 16-bit GNT4 encoding of float32 values (truncates the low mantissa bits).

    Examples
    --------
    >>> int(float_to_half(3.125))
    16456
    >>> hex(int(float_to_half(-1.0)))
    '0xbf80'
    """
    a = np.asarray(values, dtype=np.float32)
    out = (a.view(np.uint32) >> np.uint32(16)).astype(np.uint16)
    return out[()] if out.ndim == 0 else out


def rotation_direction_twist(coords: Any) -> tuple[np.ndarray, np.ndarray]:
    """Split ROTATE keys into a unit direction and a twist angle.

    Parameters
    ----------
    coords : array_like, shape (n, 4)
        Decoded x, y, z, w per key (floats).

    Returns
    -------
    direction : ndarray, shape (n, 3)
        ``(x, y, z)`` normalised to length 1 (a zero vector stays zero).
    twist : ndarray, shape (n,)
        ``w``, the twist about the direction in degrees.

    Examples
    --------
    >>> d, t = rotation_direction_twist([[0.0, 3.0, 4.0, 90.0]])
    >>> d.round(3).tolist(), t.tolist()
    ([[0.0, 0.6, 0.8]], [90.0])
    """
    c = np.asarray(coords, dtype=np.float64).reshape(-1, 4)
    xyz = c[:, :3]
    norm = np.linalg.norm(xyz, axis=1, keepdims=True)
    direction = np.divide(xyz, norm, out=np.zeros_like(xyz), where=norm > 0)
    return direction, c[:, 3].copy()


def track_coords(track: Any) -> np.ndarray:
    """Decoded ``(num_keys, 4)`` float32 coordinates of a parsed GNTA track.

    ``track`` is a ``Mot.Track`` from the compiled parser; every key's
    ``coord`` holds the stored components. 16-bit ones (``x_raw`` ...) are
    decoded here with :func:`half_to_float` (independently of the spec's own
    ``x`` ... value instances, which compute the same floats), f32 ones are
    taken as read. A track without coordinates gives an empty ``(0, 4)`` array.

    Examples
    --------
    >>> from animre.tables import parse
    >>> _, mot, _ = parse("data/samples/mot/nar/0001.mot")
    >>> track_coords(mot.anims[0].gnta.tracks[0]).shape
    (5, 4)
    """
    if not track.has_coords or not track.num_keys:
        return np.zeros((0, 4), np.float32)
    coords = [k.coord for k in track.keys]
    if track.len_component == 2:
        raw = np.array([[c.x_raw, c.y_raw, c.z_raw, c.w_raw] for c in coords], np.uint16)
        return half_to_float(raw)
    return np.array([[c.x_stored, c.y_stored, c.z_stored, c.w_stored] for c in coords], np.float32)
