"""One Must Fall 2097 sprite decoding (``animre.formats.omf.sprites``) against the generator's images, and
its pixel stream rules; the specs, tables and claims are in test_omf.py."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from animre.base.errors import ParseError
from animre.formats.omf import samples as gen
from animre.formats.omf.sprites import decode_sprite, grey_palette, sprite_images, to_rgba

# ----------------------------------------------------------------------------- sprites


def test_decoded_sprites_equal_generator_images(truth, samples_dir):
    n_missing = 0
    for name, v in truth["files"].items():
        got = sprite_images(samples_dir / name)
        want = gen.encoded_images(v)
        assert len(got) == len(want), name
        recs = v["moves"] if "moves" in v else v["animations"]
        sprites = [s for r in recs for s in r["animation"]["sprites"]]
        for g, (num, pos, img), s in zip(got, want, sprites):
            assert (g.number, g.sprite) == (num, pos)
            assert g.image.shape == img.shape == (s["height"], s["width"])
            assert (np.ma.getmaskarray(g.image) == np.ma.getmaskarray(img)).all(), (name, num, pos)
            assert (g.image.filled(0) == img.filled(0)).all(), (name, num, pos)
            assert g.missing == bool(s["missing"])
            if s["missing"]:
                assert g.source == tuple(s["source"])
                n_missing += 1
    assert n_missing >= 20


def test_decode_sprite_stream_semantics():
    # set y 1, set x 2, copy 3 bytes, copy 1 byte (x reset to 0), end
    stream = struct.pack("<HHH", (1 << 2) | 2, (2 << 2) | 0, (3 << 2) | 1) + bytes([9, 0, 7])
    stream += struct.pack("<H", (1 << 2) | 1) + bytes([5]) + struct.pack("<H", 3) + b"\xff\xff"
    img = decode_sprite(stream, 5, 2)
    assert img.filled(255).tolist() == [[255] * 5, [5, 255, 9, 0, 7]]
    assert not img.mask[1, 3]  # an opaque pixel of value 0
    gimg = gen.make_image({"kind": "ring", "width": 13, "height": 9, "color": 250, "seed": 3})
    back = decode_sprite(gen.encode_pixels(gimg), 13, 9)
    assert (back.mask == gimg.mask).all() and (back.filled(0) == gimg.filled(0)).all()
    rgba = to_rgba(img)
    assert rgba.shape == (2, 5, 4) and rgba[1, 2].tolist() == [9, 9, 9, 255] and rgba[0, 0, 3] == 0
    assert (grey_palette()[:, 0] == np.arange(256)).all()
    pal = bytes([63, 0, 32] * 256)
    assert to_rgba(img, pal)[1, 0].tolist() == [255, 0, 130, 255]


@pytest.mark.parametrize("stream, why", [
    (struct.pack("<HH", (4 << 2) | 0, (3 << 2) | 1) + b"abc", "outside"),  # x 4 + 3 > width 5
    (struct.pack("<HH", (2 << 2) | 2, (1 << 2) | 1) + b"a", "outside"),  # y 2 >= height 2
    (struct.pack("<H", (9 << 2) | 1) + b"abc", "truncated"),
    (struct.pack("<H", (1 << 2) | 1) + b"a" + b"\x01", "truncated"),  # half a word at the end
])
def test_decode_sprite_bad_streams(stream, why):
    with pytest.raises(ParseError, match=why) as e:
        decode_sprite(stream, 5, 2, file="x.af", offset=100)
    assert e.value.file == "x.af" and e.value.offset >= 100
    img = decode_sprite(stream, 5, 2, strict=False)  # clipped
    assert img.shape == (2, 5)


def test_decode_sprite_random_streams_never_crash():
    rng = np.random.default_rng(7)
    for _ in range(300):
        data = rng.integers(0, 256, int(rng.integers(0, 64))).astype(np.uint8).tobytes()
        w, h = int(rng.integers(0, 9)), int(rng.integers(0, 9))
        img = decode_sprite(data, w, h, strict=False)
        assert img.shape == (h, w)
        try:
            decode_sprite(data, w, h)
        except ParseError:
            pass
