"""The images and palettes of the FLC samples: made-up unit sprites per direction and frame, the plain
file's images, and what a manifest entry's file decodes to."""

from __future__ import annotations

import math

import numpy as np

TRANSPARENT = 255
# screen direction of each Civ3 direction (dx, dy), SW first
DIR_VECTORS = [(-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0)]


def _render(sp: dict, w: int, h: int, d: int, k: int, n: int) -> np.ndarray:
    """One indexed image: direction ``d``, frame ``k`` of ``n`` (pure function of its arguments)."""
    yy, xx = np.mgrid[0:h, 0:w]
    img = np.full((h, w), TRANSPARENT, dtype=np.uint8)
    dx, dy = DIR_VECTORS[d]
    phase = 2 * math.pi * k / n
    step = sp["step"] * math.sin(phase)
    cx = w / 2 + dx * step
    cy = h / 2 + dy * step * 0.5
    rx, ry = sp["rx"], sp["ry"]
    body = ((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2 <= 1.0
    img[body] = sp["body"] + d  # each direction its own body colour
    ang = math.atan2(dy, dx) + sp["spin"] * phase
    for t in np.linspace(0, sp["arm"], 2 * sp["arm"] + 1):
        px, py = int(round(cx + t * math.cos(ang))), int(round(cy + t * math.sin(ang)))
        if 0 <= px < w and 0 <= py < h:
            img[py, px] = sp["accent"]
    ox = int(round(cx - dx * sp["arm"] * 0.6 + 2 * math.cos(phase)))
    oy = int(round(cy - dy * sp["arm"] * 0.6 + 2 * math.sin(phase)))
    img[max(0, oy - 1):max(0, oy + 1), max(0, ox - 1):max(0, ox + 1)] = sp["dot"]
    img[h - 1, (k * 3 + d) % w] = sp["accent"]  # a ground mark moving along the last row
    return img


def frame_image(sp: dict, w: int, h: int, d: int, k: int, n: int) -> np.ndarray:
    """Frame ``k`` of direction ``d``; a planted ``hold`` [d, k] repeats the previous frame."""
    if sp.get("hold") == [d, k]:
        k -= 1
    return _render(sp, w, h, d, k, n)


def sprite_images(entry: dict) -> np.ndarray:
    """The exact indexed images a manifest entry's file encodes (image frames, file order).

    Parameters
    ----------
    entry : dict
        ``manifest["formats"]["flc"]["files"][name]``.

    Returns
    -------
    numpy.ndarray
        uint8, shape (number of image frames, height, width); ring frames
        are not included (a ring frame's image equals its direction's first).

    Examples
    --------
    >>> from animre.samples import load_manifest
    >>> m = load_manifest("data/samples")["formats"]["flc"]
    >>> sprite_images(m["files"]["flc/Warrior/Run.flc"]).shape
    (48, 40, 36)
    """
    w, h = entry["header"]["width"], entry["header"]["height"]
    if entry["kind"] == "plain":
        return np.array(plain_images(entry["sprite"], w, h), dtype=np.uint8)
    n = entry["flicanim"]["anim_length"]
    return np.stack([frame_image(entry["sprite"], w, h, d, k, n)
                     for d in range(entry["flicanim"]["num_anims"]) for k in range(n)])


def plain_images(sp: dict, w: int, h: int) -> list[np.ndarray]:
    """The six images of the plain FLC (``sp`` holds its seed)."""
    rng = np.random.default_rng(sp["seed"])
    base = rng.integers(0, 200, (h, w), dtype=np.uint8)
    imgs = [base]
    a = base.copy()
    a[5:15, 3:40] = 201
    imgs.append(a)
    imgs.append(np.zeros((h, w), np.uint8))  # BLACK
    b = np.zeros((h, w), np.uint8)
    b[:, : w // 2] = 7
    b[10:20, 20:30] = rng.integers(0, 256, (10, 10), dtype=np.uint8)
    imgs.append(b)
    c = b.copy()
    c[30:34, 5:60] = 99
    c[40, 1:4] = (1, 2, 3)
    imgs.append(c)
    e = c.copy()
    e[0:3, w - 3:w] = 150
    imgs.append(e)
    return imgs


def civ3_palette(rng: np.random.Generator) -> np.ndarray:
    """A unit palette: a tinted ramp, magenta shadow shades at 240-253, green 254, magenta 255."""
    pal = np.zeros((256, 3), dtype=np.int64)
    t = np.linspace(0, 1, 240)
    tint = rng.integers(0, 256, 3)
    for c in range(3):
        pal[:240, c] = (t * 255 * (0.4 + 0.6 * (c == 0)) + tint[c] * (1 - t)).astype(int) % 256
    pal[240:254] = np.stack([np.linspace(120, 250, 14).astype(int), np.zeros(14, int),
                             np.linspace(120, 250, 14).astype(int)], axis=1)
    pal[254] = (0, 255, 0)
    pal[255] = (255, 0, 255)
    return pal.astype(np.uint8)


def expected_palettes(entry: dict) -> np.ndarray:
    """The palette in force for each image frame of a manifest entry's file, shape (n, 256, 3)."""
    pal0 = np.array(entry["palette"], dtype=np.uint8)
    n = len(sprite_images(entry))
    out = np.repeat(pal0[None], n, axis=0)
    for change in entry.get("palette_changes", []):
        for idx, rgb in zip(change["indices"], change["colors"]):
            out[change["image"]:, idx] = np.array(rgb, dtype=np.int64) << 2
    return out
