"""No call leaves files in the system temp folder once it returns (compiling, adopting, opening, discs).

The temp folder (``tempfile.tempdir`` and ``$TMPDIR``, which the compiler's
Node process sees too) is pointed at an empty folder; after each call it
must be empty again.
"""

from __future__ import annotations

import inspect
import io
import shutil
import tempfile
import traceback
import warnings
import zipfile
from pathlib import Path

import pytest

import animre
from animre.spec.compiler import KSY_DIR

SAMPLES = Path("data/samples")
TINY = """meta:
  id: tiny_litter
  file-extension: tny
  endian: le
seq:
  - id: magic
    contents: TNY1
  - id: num_items
    type: u2
  - id: items
    type: u2
    repeat: expr
    repeat-expr: num_items
"""


@pytest.fixture
def temp_dir(tmp_path, monkeypatch):
    """An empty folder as the system temp folder of this process and of the processes it starts."""
    d = tmp_path / "systemp"
    d.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(d))
    monkeypatch.setenv("TMPDIR", str(d))
    monkeypatch.setenv("ANIMRE_CACHE_DIR", str(tmp_path / "cache"))  # the kit's own cache: not the temp folder
    return d


def _left(d: Path) -> list[str]:
    return sorted(p.relative_to(d).as_posix() for p in d.rglob("*"))


def _open(path, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return animre.open_corpus(path, progress=False, **kw)


def test_compile_spec_leaves_nothing_and_keeps_the_source_readable(temp_dir):
    mod = animre.spec.compile_spec(TINY)
    assert _left(temp_dir) == []
    t = mod.TinyLitter.from_bytes(b"TNY1\x02\x00\x05\x00\x07\x00")
    t._read()
    assert t.items == [5, 7]
    assert "class TinyLitter" in inspect.getsource(mod)  # the files are gone, their code is not
    bad = mod.TinyLitter.from_bytes(b"TNY1\x09\x00")
    with pytest.raises(Exception) as ei:
        bad._read()
    shown = "".join(traceback.format_exception(ei.value))
    assert "tiny_litter.py" in shown and "self._io.read_u2le()" in shown  # tracebacks still show the lines
    with pytest.raises(animre.SpecError):
        animre.spec.compile_spec(TINY.replace("type: u2\n    repeat", "type: no_such\n    repeat"))
    assert _left(temp_dir) == []


def test_apply_suggestions_on_a_copy_of_the_specs_leaves_nothing(temp_dir, tmp_path):
    ksy = tmp_path / "ksy"
    shutil.copytree(KSY_DIR, ksy)
    c = _open(SAMPLES / "af", cache=False)
    s = animre.suggest(c, spec="af", with_relations=False)
    assert _left(temp_dir) == []
    r = animre.apply_suggestions(s, ksy / "af.ksy", c)
    assert r.ok and r.written == ksy / "af.ksy"
    assert _left(temp_dir) == []


def test_opening_a_corpus_with_a_user_spec_leaves_nothing(temp_dir, tmp_path):
    game = tmp_path / "game"
    game.mkdir()
    for i in range(3):
        (game / f"F{i}.TNY").write_bytes(b"TNY1" + bytes([i, 0]) + bytes(2 * i))
    spec = tmp_path / "specs" / "tiny_litter.ksy"
    spec.parent.mkdir()
    spec.write_text(TINY)
    for cache in (True, False):
        c = _open(game, specs=[spec], cache=cache)
        assert c.files["format"].tolist() == ["tiny_litter"] * 3 and c.errors.empty
        assert _left(temp_dir) == []


@pytest.mark.parametrize("workers", [1, 2], ids=["one-process", "forked-workers"])
def test_disc_images_held_in_memory_leave_no_copy(temp_dir, tmp_path, workers):
    """A disc image inside a zip is read by nod through a temporary copy: gone when the call returns."""
    pytest.importorskip("nod_rs")
    game = tmp_path / "game"
    game.mkdir()
    with zipfile.ZipFile(game / "DISCS.ZIP", "w") as z:
        for name in ("ANIMRE.gcm", "ANIMRE.rvz"):
            z.write(SAMPLES / "gcdisc" / name, name)
    c = _open(game, cache=False, workers=workers)
    members = c.files[c.files["container"].isin(["DISCS.ZIP/ANIMRE.gcm", "DISCS.ZIP/ANIMRE.rvz"])]
    assert len(members) >= 4 and c.files["status"].ne("failed").all(), c.errors
    assert _left(temp_dir) == []
    data = c.read_bytes(members["file"].iloc[0])  # read again later: the copy is made and removed again
    assert len(data) == members["size"].iloc[0]
    assert _left(temp_dir) == []
    with animre.sources.keep_open():  # many reads: the copy is kept for the block, then removed
        sizes = [len(c.read_bytes(f)) for f in members["file"]]
        assert _left(temp_dir) != []
    assert sizes == members["size"].tolist()
    assert _left(temp_dir) == []


def test_a_disc_held_in_memory_by_the_caller_is_removed_with_its_members(temp_dir):
    pytest.importorskip("nod_rs")
    from animre.sources.containers.gcdisc import members

    ms = members(io.BytesIO((SAMPLES / "gcdisc" / "ANIMRE.rvz").read_bytes()), "mem.rvz")
    assert all(len(m.read()) == m.size for m in ms)
    del ms
    assert _left(temp_dir) == []
