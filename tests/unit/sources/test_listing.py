"""Listing a folder: which files a corpus reads, in which order (hidden parts, notes and exports left out)."""

from __future__ import annotations

import os
from pathlib import Path

from animre.sources import collect_files, list_sources


def _tree(root: Path) -> None:
    for rel in ["a/1.bin", "a-b/2.bin", "a b/3.BIN", "B/7.bin", "c/d/8", "A.bin", "b.bin", "w.",
                ".hid/x/4.bin", "sub/.h/5.bin", "sub/deep/er/6.bin", ".dotfile", ".z.bin",
                "x.json", "y.JSON", "z.png", "notes.txt", "q.bin.tmp", "s/.ipynb_checkpoints/n.bin"]:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(rel.encode())
    os.symlink(root / "a" / "1.bin", root / "link.bin")  # a symlink to a file: read
    os.symlink(root / "sub", root / "linkdir")  # a symlinked folder: not entered
    os.symlink(root / "nowhere", root / "broken.bin")  # a broken symlink: no file


# sorted part by part, as paths sort ("a" < "a b" < "a-b"; capitals first)
EXPECTED = ["A.bin", "B/7.bin", "a/1.bin", "a b/3.BIN", "a-b/2.bin", "b.bin", "c/d/8", "link.bin",
            "sub/deep/er/6.bin", "w."]


def test_a_folder_lists_its_files_as_planted(tmp_path):
    root = tmp_path / "corpus"
    root.mkdir()
    _tree(root)
    got_root, files = collect_files(root)
    assert got_root == root
    assert [f.relative_to(root).as_posix() for f in files] == EXPECTED
    assert all(isinstance(f, Path) and f.is_absolute() for f in files)
    _, kept = collect_files(root, keep=[".PNG", ".json"])  # suffixes a format of the open claims
    assert [f.relative_to(root).as_posix() for f in kept] == sorted(EXPECTED + ["x.json", "y.JSON", "z.png"],
                                                                      key=lambda r: r.split("/"))
    _, src = list_sources(root)
    assert [s.name for s in src] == EXPECTED
    assert next(s for s in src if s.name == "link.bin").size == len(b"a/1.bin")


def test_the_current_folder_lists_its_top_level_files(tmp_path, monkeypatch):
    root = tmp_path / "corpus"
    root.mkdir()
    _tree(root)
    monkeypatch.chdir(root)
    got_root, files = collect_files(".")
    assert got_root == Path(".")
    assert [f.as_posix() for f in files] == EXPECTED
    assert [s.name for s in list_sources(".")[1]] == EXPECTED


def test_a_file_is_hashed_whole_with_its_first_bytes(tmp_path):
    import hashlib

    import numpy as np

    rng = np.random.default_rng(1)
    for n in [0, 1, 4095, 4096, 4097, 65535, 65536, 65537, 1 << 20, (1 << 20) + 65536 + 3, 3 * (1 << 20) + 11]:
        data = rng.integers(0, 256, n, dtype=np.uint8).tobytes()
        (tmp_path / f"F{n:08d}.BIN").write_bytes(data)
    _, src = list_sources(tmp_path)
    for s in src:
        data = s.path.read_bytes()
        assert (s.sha256, s.size, s.head) == (hashlib.sha256(data).hexdigest(), len(data), data[:4096]), s.name
    assert len(src) == 11
