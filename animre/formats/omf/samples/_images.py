"""The sprite images of the OMF samples: small shapes, their OMF pixel streams, and the images a file holds."""

from __future__ import annotations

import struct

import numpy as np

SHAPES = ["rect", "ellipse", "ring", "triangle", "cross", "checker"]


def make_image(spec: dict) -> np.ma.MaskedArray:
    """The indexed image described by ``spec`` (a manifest ``image`` entry).

    ``spec`` has ``kind`` (one of rect, ellipse, ring, triangle, cross,
    checker, empty), ``width``, ``height``, ``color`` and ``seed``. Returns a
    uint8 masked array of shape (height, width); masked = transparent.

    Examples
    --------
    >>> img = make_image({"kind": "rect", "width": 4, "height": 3, "color": 7, "seed": 1})
    >>> img.shape
    (3, 4)
    """
    kind, w, h = spec["kind"], int(spec["width"]), int(spec["height"])
    rng = np.random.default_rng(int(spec["seed"]))
    yy, xx = np.mgrid[0:h, 0:w]
    cx, cy = (w - 1) / 2, (h - 1) / 2
    rx, ry = max(w / 2, 0.5), max(h / 2, 0.5)
    if kind == "empty":
        opaque = np.zeros((h, w), bool)
    elif kind == "rect":
        opaque = (xx >= 1) & (xx < w - 1) & (yy >= 1) & (yy < h - 1)
    elif kind == "ellipse":
        opaque = ((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2 <= 1.0
    elif kind == "ring":
        r2 = ((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2
        opaque = (r2 <= 1.0) & (r2 >= 0.35)
    elif kind == "triangle":
        opaque = xx * h <= (yy + 1) * w
    elif kind == "cross":
        opaque = (np.abs(xx - cx) <= max(1, w // 6)) | (np.abs(yy - cy) <= max(1, h // 6))
    elif kind == "checker":
        opaque = ((xx // 2) + (yy // 2)) % 2 == 0
    else:
        raise ValueError(f"unknown image kind {kind!r}")
    pixels = (int(spec["color"]) + (xx + 2 * yy) % 8 + rng.integers(0, 3, (h, w))) % 256
    pixels = pixels.astype(np.uint8)
    if w > 2 and h > 2:
        pixels[h // 2, w // 2] = 0  # an opaque pixel of value 0: transparency is the mask, not index 0
    return np.ma.MaskedArray(pixels, mask=~opaque)


def encode_pixels(img: np.ma.MaskedArray) -> bytes:
    """Encode an image as an OMF sprite pixel stream.

    u2 words: op = w & 3, arg = w >> 2; 0 set x, 2 set y, 1 copy ``arg`` raw
    bytes at (x, y) then x = 0, 3 end. Only opaque runs are written, so
    untouched pixels stay transparent. A fully transparent image is an empty
    stream (``len_data`` 0).
    """
    mask = np.ma.getmaskarray(img)
    data = np.ma.getdata(img)
    h, w = data.shape
    out = bytearray()
    cur_y = 0
    for y in range(h):
        row = ~mask[y]
        if not row.any():
            continue
        if y != cur_y:
            out += struct.pack("<H", (y << 2) | 2)
            cur_y = y
        x = 0
        while x < w:
            if not row[x]:
                x += 1
                continue
            x0 = x
            while x < w and row[x]:
                x += 1
            if x0 != 0:  # x is 0 at the start and after every copy
                out += struct.pack("<H", (x0 << 2) | 0)
            out += struct.pack("<H", ((x - x0) << 2) | 1)
            out += data[y, x0:x].tobytes()
    if not out:
        return b""
    out += struct.pack("<H", 3)
    return bytes(out)


def encoded_images(entry: dict) -> list[tuple[int, int, np.ma.MaskedArray]]:
    """The images the generator encoded into one file, in file order.

    Parameters
    ----------
    entry : dict
        A manifest file entry (``manifest["formats"]["omf"]["files"]["af/FIGHTR0.AF"]``).

    Returns
    -------
    list of (number, sprite position, masked uint8 image of shape (height, width))
        ``number`` is the move (AF) or animation (BK) number; missing sprites
        give the image of the sprite they reuse.

    Examples
    --------
    >>> from animre.samples import load_manifest
    >>> imgs = encoded_images(load_manifest("data/samples")["formats"]["omf"]["files"]["af/FIGHTR0.AF"])
    >>> len(imgs) > 0
    True
    """
    records = entry["moves"] if "moves" in entry else entry["animations"]
    key = "move" if "moves" in entry else "anim"
    by_pos: dict[tuple[int, int], np.ma.MaskedArray] = {}
    out = []
    for rec in records:
        for p, s in enumerate(rec["animation"]["sprites"]):
            if s["missing"]:
                img = by_pos[tuple(s["source"])]
            else:
                img = make_image(s["image"])
            by_pos[(rec[key], p)] = img
            out.append((rec[key], p, img))
    return out
