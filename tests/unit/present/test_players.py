"""Players, animation export, transparency and paged contact sheets against planted truth and real files."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from animre.base.errors import UsageError  # noqa: E402
from animre.export import export_animation  # noqa: E402
from animre.formats.flc.decode import CIV3_SHADOWS, CIV3_TRANSPARENT, civ3_rgba, decode_frames  # noqa: E402
from animre.formats.flc.player import flc_player  # noqa: E402
from animre.formats.omf.player import anim_string_frames, omf_player  # noqa: E402
from animre.present import plots  # noqa: E402
from animre.present.players import CURSOR_RGB, key_curve_player, sequence_player  # noqa: E402
from animre.present.png import image_png  # noqa: E402

SETTLER = ("Build", "Captured", "Death", "Default", "Fidget", "Run")


@pytest.fixture(scope="module")
def civ3(manifest):
    return manifest["formats"]["flc"]


def _truth_frames(truth: dict, direction: str) -> list[dict]:
    return [f for f in truth["frames"] if f.get("kind") == "frame" and not f["is_ring"]
            and f["direction_name"] == direction]


# ----------------------------------------------------------------------------- FLC player


def test_flc_player_plays_each_direction_in_order_at_the_header_speed(sample_corpus, civ3):
    for name in civ3["planted"]["unit_files"]:
        truth = civ3["files"][name]
        path = sample_corpus.path(name)
        frames, palettes = decode_frames(path)
        n_len = truth["flicanim"]["anim_length"]
        for k, direction in enumerate(civ3["direction_names"][: truth["flicanim"]["num_anims"]]):
            p = flc_player(path, direction=direction)
            assert len(p) == n_len == len(_truth_frames(truth, direction))
            assert p.durations == [float(truth["header"]["speed"])] * n_len  # the FLC header speed, ms
            assert p.play.interval == truth["header"]["speed"]
            # the decoded image frames of this direction, in file order, coloured as Civ3 draws them
            expect = [civ3_rgba(frames[i], palettes[i]) for i in range(k * n_len, (k + 1) * n_len)]
            assert all(np.array_equal(a, b) for a, b in zip(p.frames, expect, strict=True))
            assert [i for i, _ in p] == list(range(n_len))


def test_flc_player_slider_shows_each_frame(sample_corpus, civ3):
    name = civ3["planted"]["unit_files"][0]
    p = flc_player(sample_corpus.path(name), direction=1, scale=2)
    h, w = civ3["files"][name]["header"]["height"], civ3["files"][name]["header"]["width"]
    for i in range(len(p)):
        p.slider.value = i  # as the Play button or a drag would
        img = Image.open(io.BytesIO(p.image.value))
        assert img.size == (2 * w, 2 * h)  # integer scale, nothing resampled
        assert p.image.layout.width == f"{2 * w}px"
        assert p.label.value.startswith(f"frame {i} (0-{len(p) - 1})")  # counts as the slider does
    assert "civilization colours" in p.widget.children[-1].value
    with pytest.raises(UsageError):
        flc_player(sample_corpus.path(name), direction="XX")


def test_flc_player_on_the_real_settler_files(realdata):
    from animre.formats.flc.decode import frame_duration_ms

    folder = realdata / "flic" / "civ3" / "settler"
    for action in SETTLER:
        path = folder / f"{action}.flc"
        frames, palettes = decode_frames(path)
        assert frames.shape[0] == 8 * 15
        speed = frame_duration_ms(path)
        assert 44 <= speed <= 125  # what the real files carry (ms per frame)
        for d in (0, 7):
            p = flc_player(path, direction=d)
            assert len(p) == 15 and p.durations == [speed] * 15
            assert np.array_equal(p.frames[14], civ3_rgba(frames[d * 15 + 14], palettes[d * 15 + 14]))


# ----------------------------------------------------------------------------- transparency


def test_civ3_transparent_pixels_are_transparent(realdata):
    path = realdata / "flic" / "civ3" / "settler" / "Run.flc"
    frames, palettes = decode_frames(path)
    rgba = civ3_rgba(frames[0], palettes[0])
    idx = frames[0]
    assert (idx == 255).any() and (rgba[idx == 255][:, 3] == 0).all()
    shadow = np.isin(idx, CIV3_SHADOWS)
    assert shadow.any()  # the settler has a shadow
    assert (rgba[shadow][:, :3] == 0).all() and ((rgba[shadow][:, 3] > 0) & (rgba[shadow][:, 3] < 255)).all()
    body = ~np.isin(idx, CIV3_TRANSPARENT + CIV3_SHADOWS)
    assert (rgba[body][:, 3] == 255).all()
    assert (rgba[body][:, :3] == palettes[0][idx[body]]).all()


def test_exported_frames_keep_transparency(tmp_path, realdata):
    p = flc_player(realdata / "flic" / "civ3" / "settler" / "Run.flc", direction="S")
    idx = decode_frames(realdata / "flic" / "civ3" / "settler" / "Run.flc")[0][15:30]
    for suffix in (".gif", ".png"):
        out = p.export(tmp_path / f"run_s{suffix}")
        im = Image.open(out)
        assert im.n_frames == 15
        for k in (0, 7):
            im.seek(k)
            alpha = np.asarray(im.convert("RGBA"))[..., 3]
            assert (alpha[idx[k] == 255] == 0).all()  # the transparent index is alpha 0
            assert (alpha[~np.isin(idx[k], CIV3_TRANSPARENT + CIV3_SHADOWS)] == 255).all()


# ----------------------------------------------------------------------------- export


@pytest.mark.parametrize("suffix", [".gif", ".png"])
def test_export_animation_round_trips_frames_and_durations(tmp_path, suffix):
    rng = np.random.default_rng(7)
    frames = [rng.integers(0, 256, (9, 11, 4), dtype=np.uint8) for _ in range(5)]
    for f in frames:
        f[..., 3] = 255
        f[0, 0, 3] = 0
    durations = [40, 120, 60, 200, 90]
    out = export_animation(frames, tmp_path / f"a{suffix}", durations)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left
    im = Image.open(out)
    assert im.n_frames == 5
    got = []
    for k in range(5):
        im.seek(k)
        got.append(im.info["duration"])
        rgba = np.asarray(im.convert("RGBA"))
        assert rgba.shape == (9, 11, 4) and rgba[0, 0, 3] == 0
        if suffix == ".png":  # APNG is lossless
            assert np.array_equal(rgba[1:], frames[k][1:])
    assert got == durations


def test_export_animation_rejects_bad_input(tmp_path):
    with pytest.raises(UsageError):
        export_animation([], tmp_path / "a.gif")
    with pytest.raises(UsageError):
        export_animation([np.zeros((2, 2, 4), np.uint8)], tmp_path / "a.bmp")
    with pytest.raises(UsageError):
        export_animation([np.zeros((2, 2, 4), np.uint8)] * 2, tmp_path / "a.gif", [10])


# ----------------------------------------------------------------------------- OMF and GNT4 players


def _string_ticks(text: str) -> list[tuple[int, int]]:
    """(sprite, ticks) of the generator's animation strings, read here by hand: the generator writes a
    command tag or none, then ``A<ticks>-B<ticks>-...`` (animre/samples/omf.py)."""
    return [(ord(tag[0]) - ord("A"), int(tag[1:])) for tag in text.split("-") if tag[:1].isupper()]


def _as_the_browser_plays(p) -> list[tuple[int, float, bytes]]:
    """Step the Play widget as its browser timer does (value + 1 every ``interval`` ms, the interval it had
    when the step was scheduled) and record (frame shown, ms it stayed, picture) per frame in play order."""
    shown: list[list] = []
    for step in range(p.play.min, p.play.max + 1):
        interval = p.play.interval  # the browser schedules the next step with the interval it has now
        p.play.value = step
        if shown and shown[-1][0] == p.slider.value:
            shown[-1][1] += interval
        else:
            shown.append([p.slider.value, interval, p.image.value])
    return [tuple(x) for x in shown]


def _omf_moves(manifest):
    omf = manifest["formats"]["omf"]["files"]
    name = next(f for f in omf if f.endswith(".AF"))
    return name, [m for m in omf[name]["moves"] if m["animation"]["sprites"]]


def test_omf_player_shows_each_frame_for_its_own_ticks(sample_corpus, manifest):
    name, moves = _omf_moves(manifest)
    checked = 0
    for move in moves:
        ticks = _string_ticks(move["animation"]["anim_string"])
        if len(ticks) < 2:
            continue
        p = omf_player(sample_corpus, name, int(move["move"]))
        assert p.sprites == [s for s, _ in ticks]
        played = _as_the_browser_plays(p)
        assert [f for f, _, _ in played] == list(range(len(ticks)))  # every frame once, in string order
        assert [ms for _, ms, _ in played] == [10.0 * t for _, t in ticks]  # each for its own ticks, 10 ms each
        assert [png for _, _, png in played] == [p.png(k) for k in range(len(ticks))]
        assert p.schedule["ms"].tolist() == [10 * t for _, t in ticks]
        checked += 1
    assert checked >= 5


def test_omf_player_timing_of_the_move_in_the_issue(sample_corpus, manifest):
    """FIGHTR0.AF move 5, "m5-A3-B8-C17": 30, 80 and 170 ms (it was shown about 180, 40 and 70 ms)."""
    name, moves = _omf_moves(manifest)
    move = next(m for m in moves if m["move"] == 5 and name.endswith("FIGHTR0.AF"))
    assert move["animation"]["anim_string"] == "m5-A3-B8-C17"
    p = omf_player(sample_corpus, name, 5)
    assert [ms for _, ms, _ in _as_the_browser_plays(p)] == [30, 80, 170]
    p.play.value = 0
    assert p.slider.value == 0
    p.slider.value = 2  # a drag to the last frame: play goes on from its first tick
    assert p.play.value == 3 + 8 and p.slider.value == 2
    p.play.value = p.play.max  # the last tick still shows the last frame
    assert p.slider.value == 2


def test_omf_player_frames_sprites_and_collision_points(sample_corpus, manifest):
    from animre.formats.omf.player import OMF_MARGIN, OMF_VIEW_PX

    name, moves = _omf_moves(manifest)
    for move in moves[:12]:
        a = move["animation"]
        p = omf_player(sample_corpus, name, int(move["move"]))
        boxes = [(s["x"], s["y"], s["x"] + s["width"], s["y"] + s["height"]) for s in a["sprites"]]
        boxes += [(c["x"], c["y"], c["x"] + 1, c["y"] + 1) for c in a["coords"]]
        union = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                 max(b[3] for b in boxes))
        assert p.bbox == union  # the planted sprites' boxes and collision points, nothing else
        w, h = union[2] - union[0] + 2 * OMF_MARGIN, union[3] - union[1] + 2 * OMF_MARGIN
        assert all(f.shape == (h, w, 4) for f in p.frames)
        longest = max(w, h)
        # a readable zoom: the largest whole factor that keeps the picture within the view (at most 8x)
        assert p.zoom * longest <= OMF_VIEW_PX or p.zoom == 1
        assert p.zoom == 8 or (p.zoom + 1) * longest > OMF_VIEW_PX
        assert Image.open(io.BytesIO(p.png(0))).size == (w * p.zoom, h * p.zoom)
        x0, y0 = p.origin
        for k, sprite in enumerate(p.sprites):
            for c in a["coords"]:  # every collision point of the frame's sprite in red at its coordinate
                if c["frame"] == sprite:
                    assert p.frames[k][c["y"] - y0, c["x"] - x0].tolist() == [255, 40, 70, 255]
            sp = a["sprites"][sprite]  # the sprite itself at its planted position, in colours that show
            body = p.frames[k][sp["y"] - y0:sp["y"] - y0 + sp["height"], sp["x"] - x0:sp["x"] - x0 + sp["width"]]
            if body[..., 3].any():
                colours = body[body[..., 3] > 0][:, :3].astype(int)
                assert (colours.max(axis=1) - colours.min(axis=1)).max() > 60  # not a grey on the grey board


def test_anim_string_frames():
    assert anim_string_frames("s1-A2-B14") == [(0, 2), (1, 14)]
    assert anim_string_frames("m5-A3-B8-C17") == [(0, 3), (1, 8), (2, 17)]
    assert anim_string_frames("bpd-A10-B3-s1C8") == [(0, 10), (1, 3), (2, 8)]  # a command before a frame
    assert anim_string_frames("") == []


def test_play_steps_keep_every_duration():
    from animre.present.players import Player, play_steps

    assert play_steps([30, 80, 170]) == ([3, 8, 17], 10)
    assert play_steps([61.0] * 4) == ([1, 1, 1, 1], 61.0)
    p = Player(3, lambda i: image_png(np.full((1, 1, 3), i, np.uint8)), [40, 100, 60])
    assert [ms for _, ms, _ in _as_the_browser_plays(p)] == [40, 100, 60]
    with pytest.raises(UsageError):
        Player(2, lambda i: b"", [10, 20], steps=[1], tick_ms=10)


def test_key_curve_player_cursor_moves_over_time(sample_corpus, manifest):
    name, truth = next(iter(manifest["formats"]["mot"]["files"].items()))
    anim = truth["animations"][0]
    keys = sample_corpus.tables["mot_keys"]
    track = next(t for t in anim["tracks"] if t["num_keys"] >= 3)
    sel = keys[(keys["file"] == name) & (keys["anim_id"] == anim["anim_id"]) & (keys["bone_id"] == track["bone_id"])]
    p = key_curve_player(sel, end_time=anim["end_time"])
    assert len(p) == round(anim["end_time"] * 60) + 1 and p.times[-1] == pytest.approx(anim["end_time"])
    first = np.asarray(Image.open(io.BytesIO(p.png(0))))
    last = np.asarray(Image.open(io.BytesIO(p.png(len(p) - 1))))
    cursor = lambda a: set(np.argwhere((a[..., :3] == CURSOR_RGB).all(axis=-1))[:, 1].tolist())  # noqa: E731
    assert cursor(first) and cursor(last) and max(cursor(first)) < min(cursor(last))
    assert p.frames is None
    with pytest.raises(UsageError):
        p.export("x.gif")


# ----------------------------------------------------------------------------- pictures at native size


def test_image_png_is_an_integer_nearest_neighbour_enlargement():
    img = np.zeros((2, 3, 4), np.uint8)
    img[0, 1] = (10, 20, 30, 255)
    out = np.asarray(Image.open(io.BytesIO(image_png(img, 3, checker=False))))
    assert out.shape == (6, 9, 4)
    assert (out[0:3, 3:6] == (10, 20, 30, 255)).all() and (out[3:, :, 3] == 0).all()


def test_contact_sheet_pages(realdata):
    from animre.formats.flc.decode import civ3_directions, decode_all

    path = realdata / "flic" / "civ3" / "settler" / "Run.flc"
    dirs = civ3_directions(path)
    pal = decode_all(path).palettes[0]
    pages = []
    for page in range(2):
        fig = plots.contact_sheet(dirs, palette=pal, transparent=civ3_rgba(np.arange(256, dtype=np.uint8), pal),
                                  page=page)
        axes = np.array(fig.axes).reshape(8, -1)
        pages.append([a.get_title() for a in axes[0] if a.get_title()])
        img = np.asarray(axes[0, 0].images[-1].get_array())
        assert img.shape[-1] == 4 and (img[dirs["SW"][8 * page] == 255][:, 3] == 0).all()
        assert len(axes[0, 0].images) == 2  # the checkerboard under the frame
    assert pages == [[str(i) for i in range(8)], [str(i) for i in range(8, 15)]]
    with pytest.raises(UsageError):
        plots.contact_sheet(dirs, palette=pal, page=2)


def test_bit_matrix_labels_bit_numbers():
    fig = plots.bit_matrix(pd.Series([1, 0x80]), bits=8)
    top = fig.axes[0].child_axes[0]
    assert [t.get_text() for t in top.get_xticklabels()] == [str(b) for b in range(8)]


def test_sequence_player_caption_writes_integers_as_integers():
    """The caption goes through the formatter: a row mixing ints and floats never prints 9.0 for 9."""
    frames = [np.zeros((2, 2, 4), np.uint8)] * 3
    info = pd.DataFrame({"frame_id": [9, 10, 11], "x_offset": [-36, 0, 4], "interval_ms": [125.0] * 3,
                         "scale": [0.5, 1.0, 1.5]})
    p = sequence_player(frames, info)
    assert "frame_id 9, x_offset -36, scale 0.5" in p.label.value and "9.0" not in p.label.value
    assert p.label.value.startswith("frame 0 (0-2)")  # the slider's own count
