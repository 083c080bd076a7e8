"""The HTML report: one self-contained file with every section, on the samples and the real settler files."""

from __future__ import annotations

import base64
import re
import struct
import subprocess
import sys
from html.parser import HTMLParser

import matplotlib

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


def test_report_cli_on_the_real_settler_files(realdata, tmp_path):
    out = tmp_path / "settler.html"
    r = subprocess.run([sys.executable, "-m", "animre", "report", str(realdata / "flic" / "civ3" / "settler"),
                        "-o", str(out), "-q", "--no-cache"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["settler.html"]  # one file, nothing beside it
    page = out.read_text(encoding="utf-8")
    refs = _check_self_contained(page)
    assert {s for s, _ in SECTIONS} <= refs.ids
    for action in ("Build", "Captured", "Death", "Default", "Fidget", "Run"):
        assert f"{action}.flc" in page
    assert "Every file parsed." in page  # the six real files parse
    # the contact sheet: 8 directions of the first file, 8 of its 15 frames, whole pixels at one zoom
    first = sorted(p for p in (realdata / "flic" / "civ3" / "settler").iterdir())[0]
    w, h = struct.unpack_from("<HH", first.read_bytes(), 8)  # FLC header: width, height at 8 and 10
    m = re.search(r'<img class="px" src="data:image/png;base64,([^"]+)" alt="Civ3 contact sheet: ([^"]+)" '
                  r'width="(\d+)" height="(\d+)"', page)
    assert m and "rows SW, S, SE, E, NE, N, NW, W; first 8 of 15 frames" in m.group(2)
    width, height = int(m.group(3)), int(m.group(4))
    k = next(z for z in range(1, 5) if 8 * (w * z + 2) - 2 == width)  # the zoom the sheet used
    assert height == 8 * (h * k + 2) - 2


def test_report_cli_usage_error(tmp_path):
    r = subprocess.run([sys.executable, "-m", "animre", "report"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2


def test_a_failing_section_does_not_break_the_report(sample_corpus, monkeypatch):
    import animre.present.report as rep

    def boom(corpus):
        raise RuntimeError("planted failure")

    for name in ("_coverage", "_relations"):
        monkeypatch.setattr(rep, name, boom)
    page = rep.report_html(sample_corpus)
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
    assert re.search(r'alt="[^"]*FRM\.BIN: move_main with the sprites of [^"]*\.ICN', page)


def test_counterexamples_are_formatted_once_for_board_and_report():
    from animre.tableview import counterexample_table

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

    from animre.present.widgets import claims_board
    from animre.tableview import counterexample_table

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
