"""Figures of animre.present.plots: the drawn artists carry exactly the data given (checked against the manifest)."""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from animre.base.errors import UsageError  # noqa: E402
from animre.formats.frm.plots import IDLE_TOP, idle_weights
from animre.present import plots  # noqa: E402

# ----------------------------------------------------------------------------- FRM


def test_idle_weight_bars_equal_manifest(sample_corpus, homm2):
    frm = sample_corpus.tables["frm"]
    fig = idle_weights(frm)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert len(ax.containers) == 5  # one bar container per idle
    for i, cont in enumerate(ax.containers):
        heights = [np.float32(p.get_height()) for p in cont.patches]
        expected = [np.float32(homm2["files"][f]["idle_weights"][i]) for f in frm["file"]]
        assert heights == expected, i
    labels = [t.get_text() for t in ax.get_xticklabels()]
    stems = [f.rsplit("/", 1)[-1].rsplit(".", 1)[0] for f in frm["file"]]
    assert len(set(labels)) == len(labels)  # three GOBLNFRM files (frm/, agg/, inside the AGG): three labels
    for label, stem, f in zip(labels, stems, frm["file"]):
        assert label == (stem if stems.count(stem) == 1 else f.rsplit(".", 1)[0]), (label, f)
    assert sum(stems.count(s) > 1 for s in set(stems)) >= 1  # the samples do hold such copies
    # stacked: each segment starts where the previous idles end
    f0 = list(frm["file"]).index("frm/ARCHRFRM.BIN")
    w = homm2["files"]["frm/ARCHRFRM.BIN"]["idle_weights"]
    assert ax.containers[2].patches[f0].get_y() == pytest.approx(w[0] + w[1], rel=1e-6)


def test_idle_weights_marks_the_bars_it_cuts(sample_corpus):
    """A sum far above 1 would flatten every other bar: the axis stops at 2.1 and the cut bar says its sum."""
    frm = sample_corpus.tables["frm"].head(4).copy()
    frm.loc[frm.index[1], "idle_weights[0]"] = 40.0
    total = float(frm.loc[frm.index[1], [f"idle_weights[{i}]" for i in range(5)]].sum())
    ax = idle_weights(frm).axes[0]
    assert ax.get_ylim()[1] == IDLE_TOP
    marks = [t.get_text() for t in ax.texts]
    assert len(marks) == 1 and float(marks[0].split()[1]) == pytest.approx(total, rel=1e-6)
    ax = idle_weights(sample_corpus.tables["frm"].head(4)).axes[0]
    assert not ax.texts and ax.get_ylim()[1] < IDLE_TOP  # nothing cut, nothing marked


def test_idle_weights_rejects_other_tables(sample_corpus):
    with pytest.raises(UsageError, match=re.escape("idle_weights[0]")):
        idle_weights(sample_corpus.tables["frm_frame_counts"])


def test_speed_bars(sample_corpus, homm2):
    frm = sample_corpus.tables["frm"]
    fig = plots.bar_values(frm, ["walk_speed", "fly_speed"])
    walk, fly = fig.axes[0].containers
    assert [p.get_height() for p in walk.patches] == [homm2["files"][f]["walk_speed"] for f in frm["file"]]
    assert [p.get_height() for p in fly.patches] == [homm2["files"][f]["fly_speed"] for f in frm["file"]]


def test_sequence_timeline_cells(sample_corpus, homm2):
    name = homm2["planted"]["count_fill_mismatch"][0]["file"]  # count byte one less than the fill
    truth = homm2["files"][name]
    seq = sample_corpus.tables["frm_frames"]
    fig = plots.sequence_timeline(seq[seq["file"] == name])
    ax = fig.axes[0]
    rects = [p for p in ax.patches if isinstance(p, Rectangle)]
    filled = [p for p in rects if p.get_fill()]
    hatched = [p for p in rects if p.get_hatch()]
    counts = [min(c, 16) for c in truth["num_frames_raw"]]
    assert len(filled) == sum(counts)
    # positions after the count byte that still hold a frame id
    beyond = sum(1 for s, ids in enumerate(truth["frame_ids"]) for p, v in enumerate(ids)
                 if p >= counts[s] and v != 0xFF)
    assert beyond >= 1 and len(hatched) == beyond
    texts = sorted(int(t.get_text()) for t in ax.texts)
    expected = sorted(v for s, ids in enumerate(truth["frame_ids"]) for p, v in enumerate(ids)
                      if p < counts[s] or v != 0xFF)
    assert texts == expected


# ----------------------------------------------------------------------------- bits and bytes


def test_bit_matrix_is_the_bits(sample_corpus, homm2):
    frm = sample_corpus.tables["frm"]
    fig = plots.bit_matrix(frm["num_idles_raw"], labels=frm["file"])
    img = np.asarray(fig.axes[0].images[0].get_array())
    assert img.shape == (len(frm), 8)
    for r, f in enumerate(frm["file"]):
        v = homm2["files"][f]["num_idles_raw"]
        assert img[r].tolist() == [(v >> b) & 1 for b in range(8)], f
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()][:3] == ["0x1", "0x2", "0x4"]


def test_bit_matrix_width_and_names():
    fig = plots.bit_matrix(pd.Series([0x0200, 0x0021], name="flags"), bit_names={0: "TRANSLATE"})
    img = np.asarray(fig.axes[0].images[0].get_array())
    assert img.shape == (2, 16)
    assert img[0].nonzero()[0].tolist() == [9]
    assert img[1].nonzero()[0].tolist() == [0, 5]
    assert fig.axes[0].get_xticklabels()[0].get_text() == "TRANSLATE"


def test_bit_rates_bars():
    fig = plots.bit_rates(pd.DataFrame({"bit": [0, 1, 2], "set_rate": [0.25, 1.0, 0.0]}))
    assert [float(p.get_height()) for p in fig.axes[0].patches] == [0.25, 1.0, 0.0]


def test_byte_variation_marks_varying_bytes(sample_corpus, homm2):
    names = sorted(homm2["files"])
    m = pd.DataFrame([list(sample_corpus.read_bytes(n)) for n in names], index=names)
    fig = plots.byte_variation(m)
    const_img, vary_img = (np.ma.filled(np.asarray(im.get_array(), dtype=float), np.nan)
                           for im in fig.axes[0].images)
    # byte 0 (unknown_magic) varies only because of the odd file; bytes of idle_delays[4] vary
    # only because of GOLEM; byte 1.. eye_x varies
    varies = m.nunique() > 1
    assert np.isnan(const_img[:, varies.to_numpy()]).all()
    assert np.isnan(vary_img[:, (~varies).to_numpy()]).all()
    odd = names.index(homm2["planted"]["odd_magic_file"])
    assert vary_img[odd, 0] == 0 and np.nanmax(vary_img[:, 0]) == 1
    assert f"{int(varies.sum())} of 821 bytes vary" in fig.axes[0].get_title()


def test_histogram_by_file_counts(sample_corpus, homm2):
    frm = sample_corpus.tables["frm"]
    fig = plots.histogram_by_file(frm[["file", "walk_speed"]], column="walk_speed", max_files=100,
                                  bins=np.arange(0, 700, 50) - 25)
    ax = fig.axes[0]
    assert len(ax.containers) == len(frm)
    # stacked counts: the top container's total heights equal the value counts
    top = [p.get_y() + p.get_height() for p in ax.containers[-1].patches]
    speeds = [v["walk_speed"] for v in homm2["files"].values()]
    counts, _ = np.histogram(speeds, bins=np.arange(0, 700, 50) - 25)
    assert np.allclose(top, counts)


def test_reinterpretation_one_axes_per_type():
    t = pd.DataFrame({"file": ["a", "b", "c"], "u2le": [1, 256, 2], "s2le": [1, 256, -2]})
    fig = plots.reinterpretation(t, types=["u2le", "s2le"])
    assert len(fig.axes) == 2
    assert fig.axes[1].lines[0].get_ydata().tolist() == [1, 256, -2]
    with pytest.raises(UsageError):
        plots.reinterpretation(t, types=["f4le"])


# ----------------------------------------------------------------------------- other formats


def test_key_curves_groups_and_values():
    keys = pd.DataFrame({"track": [1] * 3 + [0] * 2,
                         "time": [0.0, 0.5, 1.0, 0.0, 1.0],
                         "x": [0.0, 1.0, 0.0, 3.125, -1.0], "y": [1.0] * 5, "z": [0.0] * 5, "w": [0, 45, 90, 0, 0]})
    fig = plots.key_curves(keys, group_labels={1: "rotate"})
    assert len(fig.axes) == 2
    assert [a.get_ylabel() for a in fig.axes] == ["track 0", "rotate"]
    assert fig.axes[1].lines[3].get_ydata().tolist() == [0, 45, 90]
    assert fig.axes[0].lines[0].get_ydata().tolist() == [3.125, -1.0]


def test_contact_sheet_grid():
    frames = [np.full((6, 5), i, np.uint8) for i in range(8)]
    pal = np.stack([np.arange(256)] * 3, axis=1).astype(np.uint8)
    fig = plots.contact_sheet(frames, {"SW": [0, 1, 2, 3], "S": [4, 5, 6]}, palette=pal, bbox=(1, 1, 3, 3))
    axes = np.array(fig.axes).reshape(2, 4)
    assert axes[1, 0].get_ylabel() == "S"
    assert not axes[1, 3].axison  # S has only three frames
    img = np.asarray(axes[1, 2].images[0].get_array())
    assert img.shape == (6, 5, 3) and (img == 6).all()  # frame 6 through the palette


def test_sprite_collisions_points_and_position():
    img = np.ma.masked_equal(np.arange(12, dtype=np.uint8).reshape(3, 4), 0)
    pts = pd.DataFrame({"x": [10, 12], "y": [-20, -18]})
    fig = plots.sprite_collisions(img, pts, origin=(10, -20))
    ax = fig.axes[0]
    assert ax.collections[0].get_offsets().tolist() == [[10.0, -20.0], [12.0, -18.0]]
    left, right, bottom, top = ax.images[0].get_extent()
    assert (left, right, bottom, top) == (9.5, 13.5, -17.5, -20.5)
    assert ax.yaxis_inverted()


def test_claims_board_bars():
    s = pd.DataFrame({"format": ["frm", "af"], "claim": ["magic is 1", "window is 10"],
                      "holds": [36, 0], "tested": [37, 0]})
    fig = plots.claims_board(s)
    ax = fig.axes[0]
    widths = [float(p.get_width()) for p in ax.patches]
    assert widths == pytest.approx([36 / 37, 0.0, 1 / 37, 0.0])  # shares of the tested items
    assert [t.get_text() for t in ax.get_yticklabels()] == ["[frm] magic is 1", "[af] window is 10"]
    assert any("not tested" in t.get_text() for t in ax.texts)
    # the one failure in 37 stands out: written beside the bar, in the fails colour, label red too
    verdict = [t for t in ax.texts if "hold" in t.get_text()]
    assert [t.get_text().strip() for t in verdict] == ["36/37 hold, 1 fails"]
    assert verdict[0].get_color() == plots.FAILS_COLOUR
    assert ax.get_yticklabels()[0].get_color() == plots.FAILS_COLOUR


def test_claims_board_keeps_the_full_claim_text():
    long = "one ring frame after each direction: frame chunks = num_anims x (anim_length + 1), " * 2
    s = pd.DataFrame({"claim": [long], "holds": [7], "tested": [7], "source": ["a community note"]})
    label = plots.claims_board(s, group=None).axes[0].get_yticklabels()[0].get_text()
    assert " ".join(label.split()) == " ".join(long.split()) + " source: a community note"


def test_palette_swatch():
    pal = np.zeros((256, 3), np.uint8)
    pal[17] = (255, 0, 0)
    fig = plots.palette_swatch(pal)
    img = np.asarray(fig.axes[0].images[0].get_array())
    assert img[1, 1].tolist() == [255, 0, 0]


# ----------------------------------------------------------------------------- with decoded sample data


def test_key_curves_of_a_gnt4_bone_equal_manifest(sample_corpus, manifest):
    name, truth = next(iter(manifest["formats"]["mot"]["files"].items()))
    anim = truth["animations"][0]
    track = next(t for t in anim["tracks"] if t["num_keys"] >= 3 and t["flags"] == 0x0202)
    keys = sample_corpus.tables["mot_keys"]
    sel = keys[(keys["file"] == name) & (keys["anim_id"] == anim["anim_id"]) & (keys["bone_id"] == track["bone_id"])]
    fig = plots.key_curves(sel)
    ti = anim["tracks"].index(track)
    ax = fig.axes[sorted(sel["track"].unique()).index(ti)]
    x_line, w_line = ax.lines[0], ax.lines[3]
    assert np.float32(x_line.get_xdata()).tolist() == np.float32(track["times"]).tolist()
    assert x_line.get_ydata().tolist() == [v[0] for v in track["values"]]
    assert w_line.get_ydata().tolist() == [v[3] for v in track["values"]]


def test_contact_sheet_of_a_civ3_unit(sample_corpus, manifest):
    from animre.formats.flc.decode import civ3_directions, decode_all

    civ3 = manifest["formats"]["flc"]
    name = civ3["planted"]["unit_files"][0]
    truth = civ3["files"][name]
    dirs = civ3_directions(sample_corpus.path(name))
    palette = decode_all(sample_corpus.path(name)).palettes[0]
    fig = plots.contact_sheet(dirs, palette=palette)
    n_dirs, n_frames = truth["flicanim"]["num_anims"], truth["flicanim"]["anim_length"]
    axes = np.array(fig.axes).reshape(n_dirs, n_frames)
    names = [f["direction_name"] for f in truth["frames"] if f.get("kind") == "frame" and not f["is_ring"]]
    assert [a.get_ylabel() for a in axes[:, 0]] == list(dict.fromkeys(names))
    img = np.asarray(axes[1, 2].images[0].get_array())
    h, w = truth["header"]["height"], truth["header"]["width"]
    assert img.shape == (h, w, 3)
    colours = {tuple(c) for c in truth["palette"]}
    assert {tuple(int(v) for v in px) for px in img.reshape(-1, 3)} <= colours


def test_sprite_with_collision_points_of_an_af_move(sample_corpus, manifest):
    from animre.formats.omf.sprites import sprite_images

    omf = manifest["formats"]["omf"]["files"]
    name = next(f for f in omf if f.endswith(".AF"))
    move = next(m for m in omf[name]["moves"] if m["animation"]["coords"] and m["animation"]["sprites"])
    frame = move["animation"]["coords"][0]["frame"]
    sp_truth = move["animation"]["sprites"][frame]
    img = next(s for s in sprite_images(sample_corpus.path(name))
               if s.number == int(move["move"]) and s.sprite == frame)
    coords = sample_corpus.tables["af_coords"]
    pts = coords[(coords["file"] == name) & (coords["move"] == int(move["move"])) & (coords["frame"] == frame)]
    fig = plots.sprite_collisions(img.image, pts, origin=(img.x, img.y))
    ax = fig.axes[0]
    expected = [[float(c["x"]), float(c["y"])] for c in move["animation"]["coords"] if c["frame"] == frame]
    assert ax.collections[0].get_offsets().tolist() == expected
    left, right, bottom, top = ax.images[0].get_extent()
    assert (left + 0.5, top + 0.5) == (sp_truth["x"], sp_truth["y"])
    assert (right - left, bottom - top) == (sp_truth["width"], sp_truth["height"])


# ----------------------------------------------------------------------------- one path per module


@pytest.mark.parametrize("old", ["animre.plots", "animre.players", "animre.widgets", "animre.report",
                                 "animre.pictures", "animre.htmltable", "animre.parse", "animre.flatten"])
def test_the_draft_module_paths_are_gone(old):
    import importlib

    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)
