"""The batched numpy delta decoding against the sequential per-packet codecs: same pixels, same errors."""

from __future__ import annotations

import numpy as np

from animre.base.errors import ParseError
from animre.formats.flc import decode as flc_decode
from animre.formats.flc.decode import _delta, _frames, _layout

REAL = ("standard/a.fli", "standard/2422.flc", "standard/hopper.fli", "civ3/settler/Run.flc",
        "civ3/settler/Death.flc")


def _slow(monkeypatch):
    monkeypatch.setattr(_frames, "plan_deltas", lambda *a, **k: {})


def _outcome(data, name):
    try:
        d = flc_decode.decode_all(data, name=name)
    except ParseError as e:
        return ("error", e.path, e.offset, str(e))
    return ("ok", d.frames.tobytes(), d.palettes.tobytes(), d.frames.shape, d.roles, d.flicanim)


def _files(samples_dir, realdata):
    out = sorted((samples_dir / "flc").rglob("*.flc"))
    if realdata is not None:
        out += [realdata / "flic" / r for r in REAL if (realdata / "flic" / r).is_file()]
    return out


def test_fast_and_slow_paths_agree_on_files(samples_dir, real_or_none, monkeypatch):
    files = _files(samples_dir, real_or_none)
    fast = [_outcome(p.read_bytes(), p.name) for p in files]
    _slow(monkeypatch)
    assert [_outcome(p.read_bytes(), p.name) for p in files] == fast


def test_decode_frames_equals_decode_all_without_rings(samples_dir, real_or_none):
    for p in _files(samples_dir, real_or_none):
        d = flc_decode.decode_all(p)
        frames, palettes = flc_decode.decode_frames(p)
        assert np.array_equal(frames, d.frames[d.image_mask]), p
        assert np.array_equal(palettes, d.palettes[d.image_mask]), p


def test_fast_and_slow_paths_agree_on_mutations(samples_dir, real_or_none, monkeypatch):
    """Random byte changes anywhere (headers, sizes, packets): both paths end alike, errors included."""
    rng = np.random.default_rng(4242)
    originals = [p.read_bytes() for p in _files(samples_dir, None)[:4]]
    if real_or_none is not None:
        originals.append((real_or_none / "flic/civ3/settler/Default.flc").read_bytes())
    cases = []
    for trial in range(160):
        data = bytearray(originals[trial % len(originals)])
        for _ in range(int(rng.integers(1, 5))):
            pos = int(rng.integers(0, len(data))) if trial % 4 else int(rng.integers(0, min(len(data), 400)))
            data[pos] = int(rng.choice([0, 1, 0x7F, 0x80, 0xC0, 0xFE, 0xFF, rng.integers(256)]))
        if trial % 7 == 0:
            data = data[:int(rng.integers(100, len(data)))]
        cases.append(bytes(data))
    fast = [_outcome(d, f"m{i}") for i, d in enumerate(cases)]
    assert any(o[0] == "error" for o in fast) and any(o[0] == "ok" for o in fast)
    _slow(monkeypatch)
    slow = [_outcome(d, f"m{i}") for i, d in enumerate(cases)]
    for i, (a, b) in enumerate(zip(fast, slow)):
        assert a == b, (i, a[:4] if a[0] == "error" else a[0], b[:4] if b[0] == "error" else b[0])


def _tree_layout(data):
    try:
        root, bases = _layout.parse_flc(data, "x")
    except ParseError:
        return None
    return _layout.layout_of_tree(root, bases, data).key()


def test_header_walk_equals_the_spec_walk(samples_dir, real_or_none):
    """The chunk-header walk gives the spec's layout or steps aside (None), on valid and mutated files."""
    rng = np.random.default_rng(97)
    originals = [p.read_bytes() for p in _files(samples_dir, real_or_none)]
    if real_or_none is not None:
        originals += [p.read_bytes() for p in sorted((real_or_none / "flic").rglob("*.fl?"))]
    walked = 0
    for data in originals:
        fast = _layout.layout_of_bytes(data)
        if fast is not None:
            walked += 1
            assert fast.key() == _tree_layout(data)
    assert walked >= len(originals) - 4  # every clean file takes the fast walk
    agreed = stepped_aside = 0
    for trial in range(600):
        data = bytearray(originals[trial % len(originals)])
        for _ in range(int(rng.integers(1, 4))):
            pos = int(rng.integers(0, len(data))) if trial % 3 else int(rng.integers(0, min(len(data), 300)))
            data[pos] = int(rng.choice([0, 1, 5, 6, 0x7F, 0x80, 0xCD, 0xFE, 0xFF, rng.integers(256)]))
        if trial % 5 == 0:
            data = data[:int(rng.integers(100, len(data)))]
        data = bytes(data)
        fast = _layout.layout_of_bytes(data)
        if fast is None:
            stepped_aside += 1
            continue
        assert fast.key() == _tree_layout(data), trial
        agreed += 1
    assert agreed > 100 and stepped_aside > 50, (agreed, stepped_aside)


def test_batched_run_after_an_odd_number_of_pixels():
    """An FLC word run whose first pixel is odd in the file's batch (after an FLI literal of 3 pixels) still
    repeats its word's two bytes in order (format rule: a negative SS2 count repeats the next word)."""
    fli = bytes([0, 0, 1, 0, 1, 0, 3, 0x10, 0x11, 0x12])  # y0 0, 1 line; 1 packet: skip 0, 3 literal bytes
    flc = bytes([1, 0, 1, 0, 0, 0xFE, 0x21, 0x22])  # 1 line, 1 packet: skip 0, run of 2 words 21 22
    data = fli + flc
    plans = _delta.plan_deltas(data, np.frombuffer(data, np.uint8),
                               [("a", _layout.DELTA_FLI, 0, len(fli)), ("b", _layout.DELTA_FLC, len(fli), len(data))],
                               2, 8)
    assert plans["a"][1].tolist() == [0, 1, 2] and plans["a"][2].tolist() == [0x10, 0x11, 0x12]
    assert plans["b"][1].tolist() == [0, 1, 2, 3] and plans["b"][2].tolist() == [0x21, 0x22, 0x21, 0x22]
