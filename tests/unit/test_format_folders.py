"""One folder per shipped format: outside ``animre/formats/<id>/`` nothing names a format.

A shipped format is ``ksy/<id>.ksy`` plus ``animre/formats/<id>/`` (its plugin, decoders, sample generator,
pictures, player); the generic layers find it by name through the registry. The check reads every module's
code (names and strings, not docstrings or comments, not attribute names after a dot such as pandas'
``.agg``) and fails on a format's id or one of its specific names outside its folder. A container plugin
(``sources/containers/<id>.py``) is a plugin of its own kind and may name its own id.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "animre"
#: each shipped format's id and the names only its folder should use (the game, the file kinds, its magic)
NAMES = {"flc": {"flc", "fli", "flic", "civ3"}, "frm": {"frm", "homm2", "heroes2"}, "icn": {"icn"},
         "agg": {"agg"}, "pal": {"kb.pal"}, "omf": {"omf", "af", "bk", "fightr"}, "mot": {"mot", "gnt4", "gnta"},
         "pas4": {"pas4", "ancs"}}


def _docstring_lines(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.body:
            b = n.body[0]
            if isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant) and isinstance(b.value.value, str):
                out.update(range(b.lineno, b.end_lineno + 1))
    return out


def named_formats(src: str) -> dict[str, list[str]]:
    """format id -> the tokens of ``src``'s code that name it.

    >>> named_formats('x = df.agg("sum")\\nname = "flc"\\n')
    {'flc': ['"flc"']}
    """
    doc = _docstring_lines(ast.parse(src))
    out: dict[str, list[str]] = {}
    prev = None
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        after_dot = prev is not None and prev.type == tokenize.OP and prev.string == "."
        prev = tok
        if tok.type not in (tokenize.NAME, tokenize.STRING) or tok.start[0] in doc:
            continue
        line = tok.line.lstrip()
        if line.startswith(("from ", "import ")) and not line.startswith(("from .", "from animre", "import animre")):
            continue  # another package's module path (matplotlib's backend_agg)
        if tok.type == tokenize.NAME and after_dot and not tok.line.lstrip().startswith(("from ", "import ")):
            continue  # an attribute (pandas' .agg), not a module path
        words = set(re.split(r"[^a-z0-9.]+|\.(?!pal)", tok.string.lower()))
        for fid, names in NAMES.items():
            if names & words:
                out.setdefault(fid, []).append(tok.string)
    return out


def _generic_modules() -> list[Path]:
    out = []
    for p in sorted(PACKAGE.rglob("*.py")):
        rel = p.relative_to(PACKAGE)
        if rel.parts[0] == "parsers" or (rel.parts[0] == "formats" and len(rel.parts) > 2):
            continue  # generated parsers; a format's own folder
        out.append(p)
    return out


def test_every_shipped_format_has_its_folder():
    specs = {p.stem for p in (PACKAGE.parent / "ksy").glob("*.ksy")}
    folders = {p.name for p in (PACKAGE / "formats").iterdir() if (p / "__init__.py").is_file()}
    assert set(NAMES) <= folders, set(NAMES) - folders
    assert folders <= specs | {"omf"}, folders - specs  # omf's folder serves the af and bk specs


@pytest.mark.parametrize("path", _generic_modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_nothing_generic_names_a_format(path):
    rel = path.relative_to(PACKAGE)
    found = named_formats(path.read_text(encoding="utf-8"))
    if rel.parts[:2] == ("sources", "containers") and path.stem in found:
        found.pop(path.stem)  # a container plugin names itself
    assert found == {}, f"{rel} names {found}"


def test_the_check_finds_a_format_named_in_generic_code():
    assert named_formats('from ..formats.flc import decode\nk = "civ3"\n') == {"flc": ["flc", '"civ3"']}
    assert named_formats('def f():\n    """An FRM example: frm."""\n    return 1\n') == {}
