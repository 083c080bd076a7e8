"""The HTML report: one self-contained file with every section, on the samples and the real settler files."""

from __future__ import annotations

import base64
import html
import io
import re
import struct
import subprocess
import sys
from html.parser import HTMLParser

import matplotlib
import numpy as np
from PIL import Image

matplotlib.use("Agg")

import animre  # noqa: E402
from animre.present.report import SECTIONS, report_html  # noqa: E402

URL_ATTRS = ("src", "href", "srcset", "data", "action", "poster")


class _Refs(HTMLParser):
    """Every attribute that loads or links something, and the ids of the page."""

    def __init__(self):
        super().__init__()
        self.refs: list[tuple[str, str, str]] = []
        self.ids: set[str] = set()
        self.tags: dict[str, int] = {}

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        for k, v in attrs:
            if k == "id":
                self.ids.add(v)
            if k in URL_ATTRS and v is not None:
                self.refs.append((tag, k, v))


def _check_self_contained(page: str) -> _Refs:
    p = _Refs()
    p.feed(page)
    assert not re.search(r"(?:src|href)\s*=\s*[\"']?\s*(?:https?:)?//", page, re.I)  # no network reference
    assert "@import" not in page and "url(" not in page.replace("data:", "")  # CSS loads nothing either
    for tag, attr, value in p.refs:
        if attr == "href":
            assert value.startswith("#"), (tag, value)  # only links inside the page
            assert value[1:] in p.ids
        else:
            assert value.startswith("data:image/png;base64,"), (tag, value[:40])
            png = base64.b64decode(value.split(",", 1)[1])
            assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return p


def test_report_of_the_samples_has_every_section(sample_corpus, manifest, tmp_path):
    page = report_html(sample_corpus)
    refs = _check_self_contained(page)
    assert [s for s, _ in SECTIONS if s in refs.ids] == [s for s, _ in SECTIONS]
    # files: every file of the corpus is listed
    for name in sample_corpus.files["file"]:
        assert f">{name}<" in page
    # errors: the planted bad files are named with their field path
    for _, e in sample_corpus.errors.iterrows():
        assert f">{e['file']}<" in page
    # claims: each claim with its counts
    claims = animre.claims(sample_corpus)
    for text in claims["claim"]:
        assert re.escape(str(text)[:30]).replace("\\", "") in page.replace("&#x27;", "'").replace("&quot;", '"')
    # profiles: one heading per non-empty table
    for t, df in sample_corpus.tables.items():
        if t != "files" and len(df):
            assert f'id="profile-{t}"' in page
    # pictures: one section per format plugin that names a picture, a Civ3 contact sheet among them
    from animre.formats import all_formats

    present = set(sample_corpus.files.loc[sample_corpus.files["status"] == "parsed", "format"])
    for name, f in all_formats().items():
        assert (f'id="pictures-{name}"' in page) == bool(f.picture and name in present), name
    assert "Civ3 contact sheet" in page and refs.tags.get("img", 0) > 10
    assert re.search(r"this page: [\d.]+ [kM]B \([\d,]+ bytes\)", page)


IMG = re.compile(r'<img class="([^"]*)" src="data:image/png;base64,([^"]+)" alt="([^"]*)" '
                 r'width="(\d+)" height="(\d+)"')


def _pictures_of(page: str) -> dict[str, list[tuple[str, str, bytes, int, int]]]:
    """file -> its pictures (what the caption says after the file name, CSS classes, PNG bytes, width, height)."""
    out: dict[str, list] = {}
    for m in IMG.finditer(page):
        alt = html.unescape(m.group(3))
        file, _, what = alt.partition(": ")
        out.setdefault(file, []).append((what, m.group(1), base64.b64decode(m.group(2)), int(m.group(4)),
                                         int(m.group(5))))
    return out


def _played(png: bytes) -> tuple[list[np.ndarray], list[float]]:
    """The frames an animated PNG shows (RGBA) and the milliseconds of each, as a browser plays it."""
    im = Image.open(io.BytesIO(png))
    frames, ms = [], []
    for k in range(im.n_frames):
        im.seek(k)
        frames.append(np.asarray(im.convert("RGBA")))
        ms.append(float(im.info["duration"]))
    return frames, ms


def _runs(frames: list[np.ndarray], ms: list[float]) -> tuple[list[np.ndarray], list[float]]:
    """Equal consecutive frames as one, their durations added (what an APNG stores: nothing shown changes)."""
    out, dur = [], []
    for f, d in zip(frames, ms, strict=True):
        if out and out[-1].shape == f.shape and (out[-1] == f).all():
            dur[-1] += d
        else:
            out.append(f)
            dur.append(d)
    return out, dur


def test_report_cli_on_the_real_settler_files(realdata, tmp_path):
    """A unit folder's report shows each of its animations: every file's contact sheet (8 directions x 15
    frames) and the file playing inline, its frames those the decoder gives, in their order, each for the
    header speed; the page states its own size."""
    from animre.formats.flc.decode import civ3_rgba, decode_all

    folder = realdata / "flic" / "civ3" / "settler"
    out = tmp_path / "settler.html"
    r = subprocess.run([sys.executable, "-m", "animre", "report", str(folder),
                        "-o", str(out), "-q", "--no-cache"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["settler.html"]  # one file, nothing beside it
    page = out.read_text(encoding="utf-8")
    refs = _check_self_contained(page)
    assert {s for s, _ in SECTIONS} <= refs.ids
    assert "Every file parsed." in page  # the six real files parse
    size = re.search(r"this page: [\d.]+ [kM]B \(([\d,]+) bytes\), one self-contained file", page)
    assert size and int(size.group(1).replace(",", "")) == len(page.encode("utf-8")) == out.stat().st_size
    pictures = _pictures_of(page)
    files = sorted(p.name for p in folder.iterdir())
    assert len(files) == 6 and set(files) <= set(pictures)
    for name in files:
        data = (folder / name).read_bytes()
        w, h = struct.unpack_from("<HH", data, 8)  # FLC header: width, height at 8 and 10
        speed = struct.unpack_from("<I", data, 16)[0]  # the frame delay in ms
        sheets = [p for p in pictures[name] if p[0].startswith("Civ3 contact sheet")]
        playing = [p for p in pictures[name] if p[0].startswith("playing")]
        assert len(sheets) == 1 and len(playing) == 1, name
        # the contact sheet: 8 directions x 15 frames, whole pixels at one zoom
        what, _, _, width, height = sheets[0]
        assert "rows SW, S, SE, E, NE, N, NW, W; 15 frames each" in what
        k = next(z for z in range(1, 5) if 15 * (w * z + 2) - 2 == width)  # the zoom the sheet used
        assert height == 8 * (h * k + 2) - 2
        # the animation: the eight directions side by side, frame by frame as the decoder gives them
        what, classes, png, width, height = playing[0]
        assert "anim" in classes.split() and f"{speed} ms each" in what
        d = decode_all(data, name=name)
        dirs: dict[str, list[np.ndarray]] = {}
        for role in d.roles:
            if not role.is_ring:
                dirs.setdefault(role.direction_name, []).append(civ3_rgba(d.frames[role.frame],
                                                                         d.palettes[role.frame]))
        assert list(dirs) == ["SW", "S", "SE", "E", "NE", "N", "NW", "W"]
        gap = np.zeros((h, 2, 4), np.uint8)
        expected = [np.concatenate([x for v in dirs.values() for x in (v[i], gap)][:-1], axis=1)
                    for i in range(15)]
        z = width // expected[0].shape[1]
        expected = [np.repeat(np.repeat(e, z, axis=0), z, axis=1) for e in expected]
        frames, ms = _played(png)
        assert len(frames) > 1 and (width, height) == (expected[0].shape[1], expected[0].shape[0])
        want_frames, want_ms = _runs(expected, [float(speed)] * 15)
        assert ms == want_ms and sum(ms) == 15 * speed, name
        assert len(frames) == len(want_frames) and all((a == b).all() for a, b in zip(frames, want_frames)), name


_TAG = re.compile(r"([A-Z])(\d*)$")


def _ticks(anim_string: str) -> list[int]:
    """Ticks of each frame of an OMF animation string (``A10-B3``: sprite A for 10, B for 3)."""
    return [int(m.group(2) or 1) for m in (_TAG.search(t.strip()) for t in str(anim_string).split("-")) if m]


def test_every_animation_file_of_the_samples_plays(sample_corpus, monkeypatch):
    """One animation per file of every format with pictures (FLC, FRM with its ICN, OMF AF/BK moves, GNT4
    curves), up to the cap, the others named: each plays (more than one frame), at the timing the file
    declares (the FLC header speed, the engine's interval of each FRM sequence, the OMF animation strings'
    ticks, GNT4 animation time in real time)."""
    from animre.formats.flc import pictures as flc_pictures
    from animre.formats.icn.decode import icn_for_frm, sequence_interval_ms
    from animre.formats.mot.pictures import CURVE_FPS
    from animre.formats.omf.pictures import MAX_MOVES
    from animre.present import pictures

    c = sample_corpus
    ft = c.files[c.files["status"] == "parsed"]
    first = set(ft.drop_duplicates("sha256")["file"])  # the first file of each content: copies count once
    icns = {f.rsplit("/", 1)[-1].upper() for f in ft.loc[ft["format"] == "icn", "file"]}
    checked = {}
    for fmt in ("flc", "frm", "af", "bk", "mot"):
        files = ft.loc[ft["format"] == fmt, "file"].tolist()
        pics = pictures_of(c, fmt, files)
        member = ft.set_index("file")["container"].map(lambda v: isinstance(v, str))
        drawable = [f for f in files if f in first and not (fmt in ("af", "bk") and member[f])]  # sprites: on disk
        if fmt == "frm":
            drawable = [f for f in drawable if icn_for_frm(f) in icns]
        drawn = drawable[:pictures.MAX_FILES]
        playing = {cap.split(": ")[0]: (cap, png) for cap, png in pics if cap.split(": ")[1:2] == ["playing"]}
        assert set(playing) == set(drawn), fmt
        for f in drawn:
            frames, ms = _played(playing[f][1])
            assert len(frames) > 1, (fmt, f)
            if fmt == "flc":
                speed = struct.unpack_from("<I", c.read_bytes(f), 16)[0]
                assert all(d % speed == 0 for d in ms), f  # the header speed (equal frames merged)
            elif fmt == "frm":
                root = c.tables["frm"].set_index("file").loc[f]
                seqs = c.tables["frm_sequences"]
                seqs = seqs[(seqs["file"] == f) & (seqs["num_frames"] > 0)]
                want = sum(sequence_interval_ms(int(r.slot), int(r.num_frames), root) * int(r.num_frames)
                           for r in seqs.itertuples())
                assert abs(sum(ms) - want) < 0.1 * len(ms), f
            elif fmt in ("af", "bk"):
                table, number = ("af_moves", "move_number") if fmt == "af" else ("bk_animations", "anim_number")
                moves = c.tables[table]
                moves = moves[moves["file"] == f].head(MAX_MOVES)
                want = 10 * sum(sum(_ticks(t)) for t in moves["animation.anim_string.text"])
                assert sum(ms) == want, f
            else:  # the cursor in steps of 1 / CURVE_FPS s up to the animation's end time, in real time
                anim = int(re.search(r"animation (\d+), bone", playing[f][0]).group(1))
                a = c.tables["mot_animations"]
                end = float(a.loc[(a["file"] == f) & (a["anim_id"] == anim), "end_time"].iloc[0])
                step = 1000 / CURVE_FPS
                assert all(d % step == 0 for d in ms) and sum(ms) == step * (round(end * CURVE_FPS) + 1), f
            checked[fmt] = checked.get(fmt, 0) + 1
        if len(drawable) > pictures.MAX_FILES:
            rest = pics[-1][0]
            assert pics[-1][1] is None and all(f in rest for f in drawable[pictures.MAX_FILES:]), fmt
    assert all(checked.get(f, 0) >= 2 for f in ("flc", "frm", "af", "bk", "mot")), checked
    # a cap of two: two files drawn, every other file named
    monkeypatch.setattr(pictures, "MAX_FILES", 2)
    files = ft.loc[ft["format"] == "flc", "file"].tolist()
    pics = flc_pictures.flc(c, files)
    assert len([p for p, _ in pics if ": playing: " in p]) == 2
    named = [f for f in files if f in first][2:]
    assert pics[-1][1] is None and pics[-1][0].startswith(f"{len(named)} more file(s) not drawn (at most 2 ")
    assert all(f in pics[-1][0] for f in named)


def pictures_of(corpus, fmt: str, files: list[str]) -> list:
    from animre.present.report import picture_function

    return picture_function(corpus.formats[fmt].picture)(corpus, files)


def test_report_cli_usage_error(tmp_path):
    r = subprocess.run([sys.executable, "-m", "animre", "report"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2


def test_a_failing_section_does_not_break_the_report(samples_dir, monkeypatch):
    import animre.present.report as rep

    small = animre.open_corpus(samples_dir / "frm", cache=False, progress=False)  # any corpus: one folder's

    def boom(corpus):
        raise RuntimeError("planted failure")

    for name in ("_coverage", "_relations"):
        monkeypatch.setattr(rep, name, boom)
    page = rep.report_html(small)
    assert page.count("this section failed: RuntimeError: planted failure") == 2
    assert all(f'id="{s}"' in page for s, _ in SECTIONS)


# ----------------------------------------------------------------------------- a HoMM2 folder




def _text(page: str) -> str:
    """The page's visible text: tags and attribute values (data URIs, tooltips) removed."""
    return re.sub(r"<[^>]*>", " ", re.sub(r"<style>.*?</style>", "", page, flags=re.S))


def test_report_of_a_homm2_folder(samples_dir, manifest, tmp_path, homm2_folder):
    folder = homm2_folder
    corpus = animre.open_corpus(folder, cache=False)
    page = report_html(corpus)
    _check_self_contained(page)
    text = _text(page)
    # the planted failing claim: its counterexample with file, offset, expected and found
    claim = "The idle animation count is at most 5."
    block = page[page.index(f'<h3 class="claim">{claim}'):]
    block = block[:block.index("</table>")]
    rows = re.findall(r"<tr><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td><td[^>]*>([^<]*)</td>", block)
    assert ("PLANTFRM.BIN", "117 (0x75)", "&lt;= 5", "9") in rows
    # a status per file: every file of the folder has a row with its status
    for name, status in zip(corpus.files["file"], corpus.files["status"], strict=True):
        row = rf"<td>{re.escape(name)}</td><td>[^<]*</td><td><span class=\"\w+\">{status}</span>"
        assert re.search(row, page), name
    assert "ok" not in re.findall(r"<th>(\w+)</th>", page[page.index('id="files"'):page.index('id="errors"')])
    # hashes shortened, the whole value in a tooltip only
    assert not re.search(r"[0-9a-f]{64}", text)
    for sha in corpus.files["sha256"]:
        assert f'title="{sha}"' in page and sha[:12] in text
    # numbers through the formatter: no raw (value, count) tuples, no float noise
    assert "[(" not in text and not re.search(r"\d\.\d{8,}", text)
    # pictures of its ICN sprites (each ICN of the folder, up to the cap) and an FRM sequence strip
    icn_alts = re.findall(r'<img class="px" src="data:image/png;base64,[^"]+" alt="([^"]*\.ICN: sprites[^"]*)"', page)
    assert len(icn_alts) >= 5 and any("GOBLIN.ICN" in a for a in icn_alts)
    assert re.search(r'alt="[^"]*FRM\.BIN: contact sheet: sequences [^"]*move_main[^"]* with the sprites of '
                     r'[^"]*\.ICN', page)
    assert re.search(r'<img class="px anim" [^>]*alt="[^"]*FRM\.BIN: playing: \d+ frames', page)


def test_counterexamples_are_formatted_once_for_board_and_report():
    from animre.base.tableview import counterexample_table

    t = counterexample_table([{"file": "a/HEROES2.AGG", "offset": 158, "expected": "0xE808122D",
                               "value": 3892843054, "detail": "GOBLIN.ICN"}] * 12)
    assert len(t) == 10  # the first 10
    assert t.iloc[0].tolist() == ["a/HEROES2.AGG", "158 (0x9E)", "0xE808122D", "0xE808122E", "GOBLIN.ICN"]
    assert counterexample_table([{"file": "x", "offset": None, "expected": "<= 5", "value": 7.0,
                                  "detail": None}]).iloc[0].tolist() == ["x", "", "<= 5", "7.0", ""]


def test_a_flag_found_reads_in_the_hex_its_claim_quotes_on_the_board_and_in_the_report(samples_dir, manifest):
    """mot track flags: the claim quotes "0x0202 or 0x0000"; the planted f32 tracks' flag words are found written
    in that 4-digit hex, read from the file's bytes at the offset given, in the report and on the claims board."""
    import struct

    from animre.base.tableview import counterexample_table
    from animre.present.widgets import claims_board

    corpus = animre.open_corpus(samples_dir / "mot", cache=False)  # names relative to mot/
    tracks = manifest["formats"]["mot"]["planted"]["f32_tracks"]
    planted = {(t["file"].removeprefix("mot/"), t["offset"]) for t in tracks}
    board = claims_board(corpus, formats=["mot"])
    i = next(i for i, t in enumerate(board.summary["claim"]) if "0x0202" in t)
    cases = board.summary["counterexamples"].iloc[i]
    shown = counterexample_table(cases, limit=None)
    assert {(c["file"], c["offset"]) for c in cases} <= planted and len(shown) == len(cases) > 0
    for case, (_, cell) in zip(cases, shown.iterrows(), strict=True):
        stored = struct.unpack_from(">H", (samples_dir / "mot" / case["file"]).read_bytes(), case["offset"])[0]
        assert cell["found"] == f"0x{stored:04X}" and cell["offset"] == f"{case['offset']} (0x{case['offset']:X})"
    board.select(i)
    page = report_html(corpus)
    row = shown.iloc[0]
    assert f"<td>{row['offset']}</td><td>0x0202 or 0x0000</td><td>{row['found']}</td>" in page
    assert f"<td>{row['found']}</td>" in board.detail.value
