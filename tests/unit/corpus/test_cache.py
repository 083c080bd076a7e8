"""The per-file JSON cache: warm opens read it, changed files are re-parsed."""

from __future__ import annotations

import shutil

import pandas as pd
import pytest

import animre


def _copy_frm(samples_dir, tmp_path, n=8):
    d = tmp_path / "corpus"
    d.mkdir()
    for f in sorted((samples_dir / "frm").glob("*FRM.BIN"))[:n]:
        shutil.copy(f, d / f.name)
    return d


def test_warm_open_reads_cache_and_equals_cold(samples_dir, tmp_path):
    d = _copy_frm(samples_dir, tmp_path)
    cache = tmp_path / "cache"
    cold = animre.open_corpus(d, cache=cache)
    assert not any(r.cached for r in cold.results)
    warm = animre.open_corpus(d, cache=cache)
    assert all(r.cached for r in warm.results)
    for t in cold.tables:
        pd.testing.assert_frame_equal(cold.tables[t], warm.tables[t], check_dtype=False)
        if t in cold.spans:
            pd.testing.assert_frame_equal(cold.spans[t][0], warm.spans[t][0])
    assert not list(cache.rglob("*.tmp")), "no half-written cache entries"
    assert not list(cache.rglob("*.pkl")) and not list(cache.rglob("*.pickle"))


def test_modified_file_is_reparsed(samples_dir, tmp_path):
    d = _copy_frm(samples_dir, tmp_path)
    cache = tmp_path / "cache"
    animre.open_corpus(d, cache=cache)
    victim = sorted(d.iterdir())[2]
    data = bytearray(victim.read_bytes())
    data[162:166] = (12345).to_bytes(4, "little")  # walk_speed (NOTES.md section 2)
    victim.write_bytes(bytes(data))
    again = animre.open_corpus(d, cache=cache)
    cached = {r.file: r.cached for r in again.results}
    assert cached[victim.name] is False
    assert sum(cached.values()) == len(cached) - 1
    frm = again.tables["frm"].set_index("file")
    assert frm.loc[victim.name, "walk_speed"] == 12345


def test_cache_false_bypasses(samples_dir, tmp_path, monkeypatch):
    d = _copy_frm(samples_dir, tmp_path, n=3)
    monkeypatch.setenv("ANIMRE_CACHE_DIR", str(tmp_path / "envcache"))
    animre.open_corpus(d)  # default cache location from the environment
    assert list((tmp_path / "envcache").rglob("*.json"))
    c = animre.open_corpus(d, cache=False)
    assert not any(r.cached for r in c.results)


def test_edited_spec_reparses_only_its_format(samples_dir, tmp_path):
    from animre.spec.compiler import KSY_DIR

    d = _copy_frm(samples_dir, tmp_path, n=3)
    cache = tmp_path / "cache"
    animre.open_corpus(d, cache=cache)
    text = (KSY_DIR / "frm.ksy").read_text().replace("- id: walk_speed", "- id: unknown_walk")
    mod = animre.spec.compile_spec(text)
    c = animre.open_corpus(d, cache=cache, parsers={"frm": mod})
    assert not any(r.cached for r in c.results)
    c2 = animre.open_corpus(d, cache=cache, parsers={"frm": mod})
    assert all(r.cached for r in c2.results)
    # edited again: every file re-parsed, and no column of the previous edit is kept (as a column of NA)
    other = animre.spec.compile_spec(text.replace("- id: unknown_walk", "- id: walk_time"))
    c3 = animre.open_corpus(d, cache=cache, parsers={"frm": other})
    assert not any(r.cached for r in c3.results)
    assert "walk_time" in c3.tables["frm"] and "unknown_walk" not in c3.tables["frm"]
    assert list(c3.tables["frm"].columns) == list(animre.open_corpus(d, cache=False, parsers={"frm": other})
                                                  .tables["frm"].columns)


def test_damaged_cache_entry_is_recomputed(samples_dir, tmp_path):
    d = _copy_frm(samples_dir, tmp_path, n=2)
    cache = tmp_path / "cache"
    animre.open_corpus(d, cache=cache)
    for p in cache.rglob("*.json"):
        p.write_text("{not json")
    c = animre.open_corpus(d, cache=cache)
    assert c.files["ok"].all() and not any(r.cached for r in c.results)


def test_interrupted_cache_write_leaves_nothing_half_written(samples_dir, tmp_path, monkeypatch):
    import os

    import pytest

    import animre.corpus.cache as corpus_mod

    d = _copy_frm(samples_dir, tmp_path, n=2)
    cache = tmp_path / "cache"
    real_replace = os.replace

    def interrupted(src, dst):
        raise KeyboardInterrupt("simulated Ctrl-C while the cache is written")

    monkeypatch.setattr(corpus_mod.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        animre.open_corpus(d, cache=cache)
    monkeypatch.setattr(corpus_mod.os, "replace", real_replace)
    leftovers = [p for p in cache.rglob("*") if p.is_file()]
    assert leftovers == [], leftovers
    c = animre.open_corpus(d, cache=cache)  # and the next open works normally
    assert c.files["ok"].all()


def test_corpus_opened_earlier_keeps_its_own_spans(samples_dir, tmp_path):
    """Byte spans load lazily from the snapshot generation the corpus was opened from."""
    d = _copy_frm(samples_dir, tmp_path, n=3)
    cache = tmp_path / "cache"
    animre.open_corpus(d, cache=cache)
    first = animre.open_corpus(d, cache=cache)  # warm: spans not read yet
    victim = sorted(d.iterdir())[0]
    data = victim.read_bytes()
    victim.write_bytes(data + b"\0")  # now 822 bytes: an error, and a new snapshot generation
    second = animre.open_corpus(d, cache=cache)
    assert victim.name in set(second.errors.file)
    row = first.tables["frm"].index[first.tables["frm"].file == victim.name][0]
    assert first.span("frm", row, "walk_speed") == (162, 166)
    assert victim.name not in set(second.tables["frm"].file)


def test_a_file_no_format_reads_leaves_the_cache_as_it_is(samples_dir, tmp_path):
    """A folder with a file no format reads (looked at on every open): a warm open writes no new snapshot, and
    its tables are the cold open's."""
    d = _copy_frm(samples_dir, tmp_path)
    (d / "NOTES.BIN").write_bytes(b"not a format of the kit\n")
    cache = tmp_path / "cache"
    cold = animre.open_corpus(d, cache=cache)
    gens = sorted(p.name for p in cache.rglob("g*") if p.is_dir())
    warm = animre.open_corpus(d, cache=cache)
    assert sorted(p.name for p in cache.rglob("g*") if p.is_dir()) == gens
    assert set(warm.files["status"]) == {"parsed", "skipped"}
    for t in cold.tables:
        if t != "files":
            pd.testing.assert_frame_equal(cold.tables[t], warm.tables[t], check_dtype=False)
            pd.testing.assert_frame_equal(cold.spans[t][1], warm.spans[t][1])


@pytest.mark.parametrize("unread", [False, True], ids=["every-file-read", "with-a-file-no-format-reads"])
def test_a_file_removed_since_the_last_open_leaves_every_table(samples_dir, tmp_path, unread):
    d = _copy_frm(samples_dir, tmp_path)
    if unread:
        (d / "NOTES.BIN").write_bytes(b"not a format of the kit\n")
    cache = tmp_path / "cache"
    animre.open_corpus(d, cache=cache)
    gone = sorted(d.glob("*FRM.BIN"))[3]
    gone.unlink()
    warm = animre.open_corpus(d, cache=cache)
    assert all(r.cached for r in warm.results if r.format is not None)
    for t, df in warm.tables.items():
        assert gone.name not in set(df["file"]), t
    again = animre.open_corpus(d, cache=cache)  # and the snapshot written then holds it no more
    assert all(gone.name not in set(df["file"]) for df in again.tables.values())
    assert len(again.tables["frm"]) == 7
