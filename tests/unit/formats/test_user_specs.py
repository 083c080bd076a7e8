"""A format is a spec: folders opened with specs the package does not ship.

The spec ``tests/specs/gallery_like/fmt/tpk/tpk.ksy`` is written for these
tests in the public gallery's style with the gallery's constructs (imports,
enums, switch types, pos and value instances, repeat expr/until/eos, sized
substreams, bit-sized integers, process, parameters, encodings). Its files
are written here byte by byte with struct, and every value checked is the
value planted; the parse outcome of every file is compared with the same
spec compiled the ordinary way (no debug mode) by the official compiler.
"""

from __future__ import annotations

import random
import shutil
import struct
from pathlib import Path

import pandas as pd
import pytest

import animre
import animre.spec.bridge
from animre.base.errors import SpecError, UsageError
from animre.spec import source as specsource
from animre.spec.compiler import load_modules, run_compiler
from animre.spec.parse import main_class

SPECS = Path(__file__).parent / "specs" / "gallery_like"
TPK = SPECS / "fmt" / "tpk" / "tpk.ksy"
SAMPLES = Path("data/samples")


def make_tpk(rng: random.Random, *, footer: bool = True, version: int | None = None) -> tuple[bytes, dict]:
    """One TPK file and the values planted in it (offsets included)."""
    version = version or rng.choice([1, 2])
    hi, lo = rng.randrange(16), rng.randrange(16)
    kind = rng.choice([0, 1])
    name = rng.choice(["Ork", "Elf", "Gnöm", "Troll"]) + str(rng.randrange(100))
    n_items = rng.randrange(1, 5)
    items = [(1 if i == n_items - 1 else 0, rng.randrange(-3000, 3000)) for i in range(n_items)]
    title = rng.choice(["Alpha", "Beta", "Gamma!"]).ljust(4)[:4]
    secret = bytes(rng.randrange(256) for _ in range(4))
    raw = rng.randrange(1000)
    points = [rng.choice([0.5, -1.25, 3.0, 100.0]) for _ in range(rng.randrange(0, 4))]
    entries = []
    for _ in range(rng.randrange(1, 5)):
        if rng.random() < 0.5:
            entries.append((1, ("t" + str(rng.randrange(1000))).encode() + b"\0"))
        else:
            vals = [rng.randrange(-500, 500) for _ in range(rng.randrange(1, 4))]
            entries.append((2, struct.pack(f"<{len(vals)}h", *vals)))
    name_b = name.encode()
    body = struct.pack("<B", len(points)) + struct.pack(f"<{len(points)}f", *points)
    fixed = (4 + 1 + 1 + 4 + 2 + 1 + 1 + len(name_b) + 7 * len(entries) + 3 * n_items + 8 + 4 + 2 + 2 + len(body))
    pos = fixed
    table, blobs = [], b""
    for tag, blob in entries:
        table.append((pos, len(blob), tag))
        blobs += blob
        pos += len(blob)
    if len(blobs) % 2:
        blobs += b"\0"
    tail = blobs + (b"END!" if footer else b"NONE")
    size = fixed + len(tail)
    out = bytearray(b"TPK1" + bytes([version, hi << 4 | lo]) + struct.pack("<IHB", size, len(entries), kind))
    out += bytes([len(name_b)]) + name_b
    ofs_entries = len(out)
    for ofs, ln, tag in table:
        out += struct.pack("<IHB", ofs, ln, tag)
    ofs_items = len(out)
    for last, value in items:
        out += struct.pack("<Bh", last, value)
    out += title.encode("utf-16-le")
    ofs_secret = len(out)
    out += bytes(b ^ 0x5A for b in secret)
    out += struct.pack("<HH", raw, len(body)) + body
    assert len(out) == fixed
    out += tail
    truth = {"version": version, "flags.hi": hi, "flags.lo": lo, "len_file": size, "num_entries": len(entries),
             "kind": kind, "name.value": name, "title": title, "secret": secret, "pair.raw": raw,
             "pair.scaled": raw * version, "is_packed": kind == 1, "total": len(entries) * 2 + version,
             "entries": table, "entry_data": entries, "items": items, "points": points, "footer": footer,
             "ofs_entries": ofs_entries, "ofs_items": ofs_items, "ofs_secret": ofs_secret,
             "tail": list(struct.unpack(f"<{len(tail) // 2}H", tail))}
    return bytes(out), truth


@pytest.fixture(scope="module")
def tpk_folder(tmp_path_factory) -> tuple[Path, dict]:
    d = tmp_path_factory.mktemp("tpk")
    rng = random.Random(19)
    truth = {}
    for i in range(12):
        data, t = make_tpk(rng, footer=i % 5 != 3)
        (d / f"f{i:02d}.tpk").write_bytes(data)
        truth[f"f{i:02d}.tpk"] = t
    good, _ = make_tpk(rng)
    (d / "cut.tpk").write_bytes(good[:23])  # truncated inside the entries
    (d / "huge.tpk").write_bytes(good[:10] + struct.pack("<H", 0xFFFF) + good[12:])  # absurd entry count
    (d / "other.tpk").write_bytes(b"TPK9" + good[4:])  # wrong magic: not this format
    return d, truth


@pytest.fixture(scope="module")
def tpk(tpk_folder):
    d, truth = tpk_folder
    return animre.open_corpus(d, specs=[TPK], cache=False), truth


def test_planted_values_in_default_tables(tpk):
    c, truth = tpk
    root = c.tables["tpk"].set_index("file")
    for f, t in truth.items():
        row = root.loc[f]
        for col in ("version", "flags.hi", "flags.lo", "len_file", "num_entries", "kind", "name.value", "title",
                    "secret", "pair.raw", "pair.scaled", "is_packed", "total"):
            assert row[col] == t[col], (f, col)
        assert row["kind_name"] == ("packed" if t["kind"] else "plain")
        if t["footer"]:
            assert row["footer"] == 0x21444E45
    ent = c.tables["tpk_entries"]
    assert list(ent.columns[:2]) == ["file", "entries_index"]
    for f, t in truth.items():
        rows = ent[ent["file"] == f].sort_values("entries_index")
        assert [tuple(r) for r in rows[["ofs_data", "len_data", "tag"]].itertuples(index=False)] == t["entries"]
        texts = [b[:-1].decode() for tag, b in t["entry_data"] if tag == 1]
        assert [x for x in rows["data.text"] if isinstance(x, str)] == texts
    items = c.tables["tpk_items"]
    for f, t in truth.items():
        assert [tuple(r) for r in items[items["file"] == f][["last", "value"]].itertuples(index=False)] == t["items"]
    pts = c.tables["tpk_body_points"]
    for f, t in truth.items():
        assert pts[pts["file"] == f]["points"].tolist() == t["points"]
    tail = c.tables["tpk_tail"]
    for f, t in truth.items():
        assert tail[tail["file"] == f]["tail"].tolist() == t["tail"]
    nums = c.tables["tpk_entries_data_values"]
    for f, t in truth.items():
        want = [v for tag, b in t["entry_data"] if tag == 2 for v in struct.unpack(f"<{len(b) // 2}h", b)]
        assert nums[nums["file"] == f]["values"].tolist() == want
    assert not any("[" in col for tname, df in c.tables.items() if tname.startswith("tpk") for col in df.columns)


def test_byte_ranges_hold_their_values(tpk, tpk_folder):
    c, truth = tpk
    d, _ = tpk_folder
    root = c.tables["tpk"]
    for i, f in enumerate(root["file"]):
        data = (d / f).read_bytes()
        t = truth[f]
        s, e = c.span("tpk", i, "len_file")
        assert (s, e) == (6, 10) and struct.unpack("<I", data[s:e])[0] == t["len_file"]
        s, e = c.span("tpk", i, "secret")
        assert s == t["ofs_secret"] and bytes(b ^ 0x5A for b in data[s:e]) == t["secret"]
        s, e = c.span("tpk", i, "name.value")
        assert data[s:e].decode() == t["name.value"]
    ent = c.tables["tpk_entries"]
    for i in range(len(ent)):
        f = ent.at[i, "file"]
        data = (d / f).read_bytes()
        s, e = c.span("tpk_entries", i, "ofs_data")
        assert struct.unpack("<I", data[s:e])[0] == ent.at[i, "ofs_data"]
        if isinstance(ent.at[i, "data.text"], str):  # a pos instance in the root stream: absolute range
            s, e = c.span("tpk_entries", i, "data.text")
            assert data[s:e].rstrip(b"\0").decode() == ent.at[i, "data.text"]
            assert s == ent.at[i, "ofs_data"]


def _ordinary(tpk_path: Path, tmp: Path):
    """The same spec compiled the ordinary way (no debug mode): the reference reader."""
    src = specsource.read_spec(tpk_path)
    res = run_compiler({src.id: src.text, **src.import_texts}, [src.id], list(src.dirs), debug=False)[src.id]
    assert "files" in res, res
    for n, code in res["files"].items():
        (tmp / n).write_text(code)
    return main_class(load_modules(tmp, src.id, "ordinary"))


def _outcome(cls, data: bytes) -> str:
    try:
        obj = cls.from_bytes(data)
    except Exception:  # noqa: BLE001 - any failure is the outcome
        return "fails"
    try:
        obj.footer  # noqa: B018 - reading the instance is the point
        for e in obj.entries:
            e.data  # noqa: B018
    except Exception:  # noqa: BLE001
        return "instance fails"
    return "parses"


def test_outcomes_equal_the_ordinary_compile(tpk, tpk_folder, tmp_path):
    c, _ = tpk
    d, _ = tpk_folder
    cls = _ordinary(TPK, tmp_path)
    files = c.files.set_index("file")
    errors = c.errors.set_index("file")
    for p in sorted(d.iterdir()):
        want = _outcome(cls, p.read_bytes())
        row = files.loc[p.name]
        if p.name == "other.tpk":  # the magic is not TPK1: never given to the spec
            assert row["status"] == "skipped" and want == "fails"
            continue
        got = ("fails" if row["status"] == "failed" else
               "instance fails" if p.name in errors.index else "parses")
        assert got == want, p.name
    # a file without its footer keeps its values, and its error names the instance
    no_footer = [p.name for p in sorted(d.iterdir()) if p.name.startswith("f") and b"NONE" in p.read_bytes()]
    assert no_footer
    for f in no_footer:
        assert f in set(c.tables["tpk"]["file"])
        err = errors.loc[f]
        assert err["path"] == "footer" and "instance" in err["message"] and f in err["message"]


def test_bad_files_are_error_rows_with_path_and_offset(tpk):
    c, _ = tpk
    e = c.errors.set_index("file")
    assert e.loc["cut.tpk", "path"].startswith("entries[") and e.loc["cut.tpk", "offset"] <= 23
    assert e.loc["huge.tpk", "path"].startswith("entries[")
    assert "cut.tpk" in e.loc["cut.tpk", "message"]
    assert c.files.set_index("file").loc["f00.tpk", "detected_by"] == "magic"


def test_research_runs_on_a_user_format(tpk):
    c, _ = tpk
    assert len(animre.profile(c, "tpk_entries"))
    assert len(animre.wiki_table(c, "tpk"))
    cov = animre.coverage(c)
    assert cov is not None
    assert c.columns("tpk").set_index("column").at["kind", "enum"] == "kind"
    r = animre.check(c, "tpk", "len_file == _file_size").iloc[0]
    assert r["status"] == "holds" and r["tested"] == 12


def test_a_spec_is_compiled_once(tpk_folder, tmp_path, monkeypatch):
    d, _ = tpk_folder
    monkeypatch.setenv("ANIMRE_CACHE_DIR", str(tmp_path / "cache"))
    work = tmp_path / "spec"
    shutil.copytree(SPECS, work)
    spec = work / "fmt" / "tpk" / "tpk.ksy"
    spec.write_text(spec.read_text() + "\n# a copy, so its hash is new to this cache\n")
    calls = []
    real = animre.spec.bridge.compiler_request

    def counting(*a, **k):
        calls.append(a)
        return real(*a, **k)

    monkeypatch.setattr(animre.spec.compiler, "compiler_request", counting)
    animre.open_corpus(d, specs=[spec], cache=False)
    assert len(calls) == 1
    specsource._MODULES.clear()  # a new session: only the cache folder remembers the parser
    c = animre.open_corpus(d, specs=[spec], cache=False)
    assert len(calls) == 1
    assert "tpk" in c.tables
    spec.write_text(spec.read_text().replace("valid: 0x21444e45", "valid: 0x21444e46"))  # the spec changed
    animre.open_corpus(d, specs=[spec], cache=False)
    assert len(calls) == 2


def test_broken_spec_names_file_and_line(tmp_path, tpk_folder):
    d, _ = tpk_folder
    bad = tmp_path / "bad.ksy"
    bad.write_text("meta:\n  id: bad\n  endian: le\nseq:\n  - id: a\n    type: u2\n  - id: b\n    type: nosuch\n")
    with pytest.raises(SpecError) as e:
        animre.open_corpus(d, specs=[bad], cache=False).tables  # noqa: B018
    # the compiler only runs when a file is given to the spec: a spec without magic is tried on every file
    assert f"{bad}:8" in str(e.value) and "nosuch" in str(e.value)
    missing = tmp_path / "imp.ksy"
    missing.write_text("meta:\n  id: imp\n  imports: [/nowhere/x]\nseq:\n  - id: a\n    type: u1\n")
    with pytest.raises(SpecError, match="imported spec not found: /nowhere/x"):
        animre.open_corpus(d, specs=[missing], cache=False)
    with pytest.raises(UsageError, match="no such file"):
        animre.open_corpus(d, specs=[tmp_path / "none.ksy"])


def test_mixed_folder_each_file_its_format(tmp_path, tpk_folder):
    d, _ = tpk_folder
    mix = tmp_path / "mix"
    mix.mkdir()
    for p in sorted(d.glob("f0*.tpk"))[:3]:
        shutil.copy(p, mix / p.name)
    shutil.copy(SAMPLES / "frm" / "GOBLNFRM.BIN", mix)
    shutil.copy(SAMPLES / "mot" / "ank" / "0000.mot", mix / "ank.mot")
    # a magic-less spec, known by its extension; and one known only by a trial parse
    (tmp_path / "rec.ksy").write_text("meta:\n  id: rec\n  file-extension: rec\n  endian: le\nseq:\n"
                                      "  - id: n\n    type: u2\n  - id: v\n    type: u2\n    repeat: expr\n"
                                      "    repeat-expr: n\n")
    (mix / "a.rec").write_bytes(struct.pack("<3H", 2, 7, 9))
    (tmp_path / "pairs.ksy").write_text("meta:\n  id: pairs\n  endian: be\nseq:\n  - id: count\n    type: u1\n"
                                        "    valid: {max: 3}\n  - id: pairs\n    type: u2\n    repeat: expr\n"
                                        "    repeat-expr: count\n  - id: end\n    contents: [0xEE]\n")
    (mix / "p.dat").write_bytes(bytes([2, 0, 1, 0, 2, 0xEE]))
    (mix / "noise.dat").write_bytes(bytes(range(200, 256)))
    c = animre.open_corpus(mix, specs=[TPK, tmp_path / "rec.ksy", tmp_path / "pairs.ksy"], cache=False)
    f = c.files.set_index("file")
    assert f.loc["GOBLNFRM.BIN", "format"] == "frm" and f.loc["ank.mot", "format"] == "mot"
    assert all(f.loc[p.name, "format"] == "tpk" for p in sorted(d.glob("f0*.tpk"))[:3])
    assert f.loc["a.rec", "format"] == "rec" and f.loc["a.rec", "detected_by"] == "extension"
    assert f.loc["p.dat", "format"] == "pairs" and "trial parse" in f.loc["p.dat", "detected_by"]
    assert c.tables["pairs_pairs"]["pairs"].tolist() == [1, 2]
    assert f.loc["noise.dat", "status"] == "skipped"
    # limiting detection to some formats
    only = animre.open_corpus(mix, specs=[TPK], formats=["tpk"], cache=False)
    assert set(only.files["format"].dropna()) == {"tpk"}
    with pytest.raises(UsageError, match="unknown format"):
        animre.open_corpus(mix, formats=["nosuch"], cache=False)


# An archive directory in the gallery's style: a count, then (hash, offset, size) records whose data an
# instance reads; the kit ships a format (agg) and a container for such files.
DIRECTORY_SPEC = """meta:
  id: mydir
  file-extension: agg
  endian: le
seq:
  - id: num_files
    type: u2
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: num_files
types:
  entry:
    seq:
      - id: hash
        type: u4
      - id: ofs
        type: u4
      - id: len
        type: u4
    instances:
      body:
        pos: ofs
        size: len
"""


def test_a_users_spec_before_the_shipped_format(tmp_path, samples_dir, manifest):
    spec = tmp_path / "mydir.ksy"
    spec.write_text(DIRECTORY_SPEC)
    c = animre.open_corpus(samples_dir / "agg", specs=[spec], cache=False)
    f = c.files.set_index("file")
    assert f.loc["HEROES2.AGG", "format"] == "mydir"
    assert f.loc["HEROES2.AGG", "detected_by"] == "extension; your spec before the shipped agg"
    assert f.loc["HEROES2.AGG", "kind"] == "agg"  # still a container: its members are read as well
    planted = manifest["formats"]["agg"]["entries"]
    e = c.tables["mydir_entries"]
    assert e["ofs"].tolist() == [p["ofs_data"] for p in planted]
    assert e["len"].tolist() == [p["len_data"] for p in planted]
    assert c.offsets("mydir_entries", "ofs").tolist() == [p["record_offset"] + 4 for p in planted]
    # the FRM files beside it keep their shipped format: the spec does not claim them
    assert f.loc["GOBLNFRM.BIN", "format"] == "frm"
    # a spec that claims the file and cannot read it leaves it to the shipped format
    broken = tmp_path / "other" / "mydir.ksy"
    broken.parent.mkdir()
    broken.write_text(DIRECTORY_SPEC.replace("type: u2", "type: u4"))
    c = animre.open_corpus(samples_dir / "agg", specs=[broken], cache=False)
    assert c.files.set_index("file").loc["HEROES2.AGG", "format"] == "agg"


def test_a_read_of_nothing_past_the_end_has_no_byte_range(tmp_path):
    spec = tmp_path / "mydir.ksy"
    spec.write_text(DIRECTORY_SPEC)
    d = tmp_path / "files"
    d.mkdir()
    # entry 0: 3 bytes at 26; entry 1: 0 bytes at an offset far past the end (4,011,271,975)
    (d / "a.agg").write_bytes(struct.pack("<H3I3I", 2, 1, 26, 3, 2, 4011271975, 0) + b"xyz")
    c = animre.open_corpus(d, specs=[spec], cache=False)
    assert c.files["status"].tolist() == ["parsed"]
    # the shipped AGG container cannot list it (its records are not the ones the container knows): said,
    # and the spec reads it all the same
    assert c.files["kind"].tolist() == ["agg"]
    assert c.errors["message"].str.contains("2 entries need").tolist() == [True]
    e = c.tables["mydir_entries"]
    assert e["body"].tolist() == [b"xyz", b""]
    body = c.offsets("mydir_entries", "body")
    assert body.isna().tolist() == [False, True] and int(body.iloc[0]) == 26
    assert e["ofs"].tolist() == [26, 4011271975]


def test_env_specs_and_ksy_path(tmp_path, tpk_folder, monkeypatch):
    d, _ = tpk_folder
    # an absolute import found through ANIMRE_KSY_PATH when the spec sits elsewhere
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(TPK, alone / "tpk.ksy")
    shutil.copy(TPK.parent / "tpk_bits.ksy", alone / "tpk_bits.ksy")
    with pytest.raises(SpecError, match="pstring"):
        specsource.read_spec(alone / "tpk.ksy")
    monkeypatch.setenv("ANIMRE_KSY_PATH", str(SPECS))
    monkeypatch.setenv("ANIMRE_SPECS", str(alone))
    c = animre.open_corpus(d, cache=False)
    assert "tpk" in c.tables and len(c.tables["tpk"]) == 12


def test_check_on_the_samples():
    import json

    c = animre.open_corpus(SAMPLES / "flc", cache=False)
    planted = json.loads((SAMPLES / "manifest.json").read_text())["formats"]["flc"]["planted"]
    h = "header.flicanim."
    r = animre.check(c, "flc_files", f"{h}anim_time == {h}anim_length * header.speed").iloc[0]
    fails = {x["file"] for x in r["counterexamples"]}
    assert fails == {f.split("flc/", 1)[1] for f in planted["anim_time_exceptions"]}
    assert r["tested"] == r["holds"] + len(fails)
    # a false relation fails everywhere; each counterexample points at the field (FLC header: width at 8)
    bad = animre.check(c, "flc_files", "header.width < 0").iloc[0]
    assert bad["holds"] == 0 and bad["fails"] == len(c.tables["flc_files"])
    assert {x["offset"] for x in bad["counterexamples"]} == {8}
    assert all(x["expected"] == "header.width < 0" for x in bad["counterexamples"])
    with pytest.raises(UsageError):
        animre.check(c, "flc_files", "__import__('os')")
    with pytest.raises(UsageError):
        animre.check(c, "flc_files", "header.width.bit_length() > 0")


def test_a_format_from_a_temporary_folder_with_a_plugin(tmp_path, tpk_folder):
    d, truth = tpk_folder
    specs = tmp_path / "myformats"
    shutil.copytree(SPECS, specs)
    spec = specs / "fmt" / "tpk" / "tpk.ksy"
    spec.write_text(spec.read_text() + (
        "-animre-claims:\n"
        "  - text: The file size field is the file's size.\n"
        "    expr: len_file == _file_size\n"
        "    source: the tests\n"
        "  - text: Every entry points past the header.\n"
        "    table: entries\n"
        "    expr: ofs_data >= 16\n"
        "    source: the tests\n"))
    (spec.parent / "tpk.py").write_text(
        "from animre.formats.base import Format, derived, file_claim\n"
        "@derived('tpk', 'name_length', ['name.value'])\n"
        "def _n(df, ctx):\n"
        "    return df['name.value'].str.len()\n"
        "def picture(corpus, files):\n"
        "    import matplotlib.pyplot as plt\n"
        "    fig, ax = plt.subplots(figsize=(3, 2))\n"
        "    ax.bar(range(len(files)), corpus.tables['tpk']['num_entries'])\n"
        "    return [(f'entries of {len(files)} TPK files', fig)]\n"
        "FORMAT = Format('tpk', title='TPK (with a plugin)', derived=(_n,),\n"
        "                claims=(file_claim('TPK files are under 1 MB', 'the tests', 'tpk',\n"
        "                                   lambda r: r['size'] < 1 << 20),),\n"
        "                picture=picture)\n")
    c = animre.open_corpus(d, specs=[specs], cache=False)
    fmt = c.formats["tpk"]
    assert fmt.title == "TPK (with a plugin)" and fmt.plugin.endswith("tpk.py")
    root = c.tables["tpk"].set_index("file")
    assert all(root.loc[f, "name_length"] == len(t["name.value"]) for f, t in truth.items())
    cl = animre.claims(c).set_index("claim")
    assert cl.loc["The file size field is the file's size.", "status"] == "holds"
    assert cl.loc["Every entry points past the header.", "status"] == "holds"
    assert cl.loc["TPK files are under 1 MB", "tested"] == len(c.files[c.files["format"] == "tpk"])
    from animre.present.report import report_html

    html = report_html(c)
    assert f"entries of {len(c.tables['tpk'])} TPK files" in html and "data:image/png;base64" in html
    assert pd.api.types.is_integer_dtype(c.tables["tpk"]["len_file"])
