"""The HTML report: one self-contained file with every section, on the samples and the real settler files."""

from __future__ import annotations

import base64
import re
import subprocess
import sys
from html.parser import HTMLParser

import matplotlib

matplotlib.use("Agg")

import animre  # noqa: E402
from animre.report import SECTIONS, report_html  # noqa: E402

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
    # pictures: a Civ3 contact sheet and first frames
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
    # the contact sheet: 8 directions of the first file, 8 of its 15 frames shown
    sheet = page[page.index("Civ3 contact sheet"):]
    sheet = sheet[:sheet.index("</table>")]
    assert sheet.count("<tr>") == 8 and sheet.count("<img") == 64 and "of 15 frames" in sheet


def test_report_cli_usage_error(tmp_path):
    r = subprocess.run([sys.executable, "-m", "animre", "report"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2


def test_a_failing_section_does_not_break_the_report(sample_corpus, monkeypatch):
    import animre.report as rep

    def boom(corpus):
        raise RuntimeError("planted failure")

    for name in ("_coverage", "_relations"):
        monkeypatch.setattr(rep, name, boom)
    page = rep.report_html(sample_corpus)
    assert page.count("this section failed: RuntimeError: planted failure") == 2
    assert all(f'id="{s}"' in page for s, _ in SECTIONS)
