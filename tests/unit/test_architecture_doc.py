"""docs/architecture.md draws the layers from the import contract: the two lists are the same, in order."""

from __future__ import annotations

import re
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]


def doc_layers(text: str) -> list[str]:
    """The lines of the first ```layers block of a Markdown text.

    >>> doc_layers("x\\n```layers\\nanimre.cli\\nanimre.base\\n```\\n")
    ['animre.cli', 'animre.base']
    """
    m = re.search(r"```layers\n(.*?)```", text, re.S)
    return [ln.strip() for ln in m.group(1).splitlines() if ln.strip()] if m else []


def test_the_architecture_doc_lists_the_contracts_layers():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (contract,) = [c for c in cfg["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    assert doc_layers((ROOT / "docs" / "architecture.md").read_text()) == contract["layers"]


def test_every_package_of_animre_is_in_a_layer():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (contract,) = [c for c in cfg["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    named = {m.strip() for layer in contract["layers"] for m in re.split(r"[:|]", layer)}
    top = {f"animre.{p.name}" for p in (ROOT / "animre").iterdir() if (p / "__init__.py").is_file()} | \
          {f"animre.{p.stem}" for p in (ROOT / "animre").glob("*.py") if not p.stem.startswith("_")}
    top -= {"animre.parsers", "animre.formats"}  # generated code; formats is split into its folders and registry
    assert top <= named, top - named
