"""FLI/FLC frame decoding (``animre.formats.flc.decode``) against the generator's images and palettes, Pillow (the
oracle for standard FLI/FLC pixels) and hostile input; the tables and claims of the spec are in test_flc.py."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from animre.base.errors import ParseError, UsageError
from animre.formats.flc import samples as civ3_samples
from animre.formats.flc.decode import (
    DIRECTION_NAMES,
    civ3_directions,
    decode_frames,
    place_on_canvas,
    ring_frames,
)
from animre.tables.read import parse

PILLOW_FILES = ("a.fli", "hopper.fli", "hopper_palette_chunk_second.fli")




# ---------------------------------------------------------------------------- decoding generated samples


def test_decoded_samples_equal_the_encoded_images(truth, samples_dir):
    for name, v in truth["files"].items():
        frames, palettes = decode_frames(samples_dir / name)
        expected = civ3_samples.sprite_images(v)
        assert frames.shape == expected.shape == (v["header"]["num_frames"], v["header"]["height"],
                                                  v["header"]["width"])
        assert np.array_equal(frames, expected), name
        assert np.array_equal(palettes, civ3_samples.expected_palettes(v)), name
        idx, rings = ring_frames(samples_dir / name)
        assert idx == [f["frame"] for f in v["frames"] if f["is_ring"]]
        if v["kind"] == "unit":
            n = v["flicanim"]["anim_length"]
            assert np.array_equal(rings, expected[::n])  # each ring frame shows its direction's first image
            dirs = civ3_directions(samples_dir / name)
            assert list(dirs) == list(DIRECTION_NAMES)
            for d, key in enumerate(dirs):
                assert np.array_equal(dirs[key], expected[d * n:(d + 1) * n])
            canvas = place_on_canvas(frames[0], v["flicanim"])
            fa = v["flicanim"]
            assert canvas.shape == (240, 240)
            box = canvas[fa["y_offset"]:fa["y_offset"] + frames.shape[1],
                         fa["x_offset"]:fa["x_offset"] + frames.shape[2]]
            assert np.array_equal(box, frames[0])
            assert (canvas == 255).sum() == 240 * 240 - frames[0].size + (frames[0] == 255).sum()
        else:
            with pytest.raises(UsageError):
                civ3_directions(samples_dir / name)


def test_pillow_refuses_civ3_flcs(realdata):
    """Why animre has its own decoder: the FlicAnim header sits where Pillow expects zeros."""
    from PIL import Image, UnidentifiedImageError

    with pytest.raises(UnidentifiedImageError):
        Image.open(realdata / "flic/civ3/settler/Run.flc")


@pytest.mark.parametrize("name", PILLOW_FILES)
def test_decoding_equals_pillow(realdata, name):
    from PIL import Image

    path = realdata / "flic" / "standard" / name
    frames, palettes = decode_frames(path, palette_changes=False)
    with Image.open(path) as im:
        assert im.n_frames == len(frames)
        for i in range(im.n_frames):
            im.seek(i)
            assert np.array_equal(np.asarray(im), frames[i]), (name, i)
            pal = np.array(im.getpalette(), dtype=np.uint8).reshape(-1, 3)
            assert np.array_equal(pal, palettes[i]), (name, i)


def _unit_sample(truth, samples_dir):
    name = "flc/Catapult/Default.flc"
    return name, (samples_dir / name).read_bytes(), truth["files"][name]


def test_hostile_sizes_are_rejected(truth, samples_dir):
    name, data, v = _unit_sample(truth, samples_dir)
    f1 = v["frames"][1]
    for pos, value, path in ((f1["offset"], 0xFFFFFFFF, "len_chunk"),
                             (f1["offset"], 3, "len_chunk"),
                             (f1["chunks"][0]["offset"], 0x7FFFFFF0, "body"),
                             (f1["chunks"][0]["offset"], 2, "body")):
        bad = bytearray(data)
        struct.pack_into("<I", bad, pos, value)
        with pytest.raises(ParseError) as ei:
            parse(bytes(bad), name, "flc")
        assert ei.value.path.endswith(path), ei.value
        assert ei.value.offset in (pos, pos + 6)
        with pytest.raises(ParseError):
            decode_frames(bytes(bad), name=name)
    huge = bytearray(data)
    struct.pack_into("<HH", huge, 8, 0xFFFF, 0xFFFF)  # 65535 x 65535 frames from 7 KB: over the budget
    with pytest.raises(ParseError, match="budget"):
        decode_frames(bytes(huge))


def test_bad_pixel_streams_give_parse_errors(truth, samples_dir):
    """Mutated pixel data decodes or fails with a ParseError pointing into its sub-chunk body."""
    name, data, v = _unit_sample(truth, samples_dir)
    bodies = [(c["offset"] + 6, c["offset"] + c["len_real"]) for f in v["frames"] for c in f["chunks"]
              if c["type"] in (7, 15)]
    rng = np.random.default_rng(2097)
    errors = 0
    for trial in range(300):
        s, e = bodies[rng.integers(len(bodies))]
        bad = bytearray(data)
        for _ in range(int(rng.integers(1, 4))):
            bad[int(rng.integers(s, e))] = int(rng.choice([0, 0x7F, 0x80, 0xFF, rng.integers(256)]))
        try:
            decode_frames(bytes(bad), name=f"{name}#{trial}")
        except ParseError as err:
            errors += 1
            assert err.file == f"{name}#{trial}" and ".body" in err.path
            assert 128 <= err.offset < len(data)
    assert errors > 0
    for cut in (0, 10, 127, 140, len(data) // 2, len(data) - 3):
        with pytest.raises(ParseError):
            decode_frames(data[:cut])
    frames, palettes = decode_frames(data[:128])  # a header and no chunk: no frames, not an error
    assert frames.shape == (0, v["header"]["height"], v["header"]["width"]) and palettes.shape == (0, 256, 3)


def test_place_on_canvas_checks_its_input():
    hdr = {"x_offset": 200, "y_offset": 0, "xs_orig": 240, "ys_orig": 240}
    with pytest.raises(UsageError):
        place_on_canvas(np.zeros((10, 50), np.uint8), hdr)
    with pytest.raises(UsageError):
        place_on_canvas(np.zeros((10, 10), np.uint8), dict(hdr, xs_orig=0))
    out = place_on_canvas(np.ones((2, 3), np.uint8), dict(hdr, x_offset=237, y_offset=238), fill=0)
    assert out.sum() == 6 and out[238:, 237:].all()
