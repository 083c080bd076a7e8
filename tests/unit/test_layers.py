"""The import contract of docs/architecture.md, checked over the import graph of the package.

- the layers of ``[tool.importlinter]`` in pyproject.toml hold (import-linter: a lower layer never imports a
  higher one, not even inside a function);
- no import cycle between modules;
- no module imports a private name (``_x``) of another module, nor a private module of another package;
- no import inside a function, except optional dependencies and the command line's start-up (listed below).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "animre"
#: imports a function may make: optional dependencies (not installed everywhere) and slow imports of the CLI
LAZY_OK = {"nod_rs", "lzallright", "IPython", "IPython.display", "jupyter_client", "jupyter_client.kernelspec",
           "jupyter_client.manager", "nbclient", "nbformat", "ipykernel", "playwright", "tqdm.auto"}
# (the lab extra: jupyter_client, nbclient, nbformat, ipykernel; tqdm.auto finds ipywidgets when a bar starts)
LAZY_OK_MODULES = {"animre.cli"}  # the command line imports a command's modules when the command runs


def _modules() -> list[tuple[str, Path]]:
    out = []
    for p in sorted(PACKAGE.rglob("*.py")):
        if "parsers" in p.relative_to(PACKAGE).parts:
            continue
        parts = ["animre", *p.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out.append((".".join(parts), p))
    return out


def _absolute(module: str, is_pkg: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_pkg else module.split(".")[:-1]
    base = base[:len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def test_layers_hold():
    proc = subprocess.run([str(Path(sys.executable).with_name("lint-imports"))], capture_output=True, text=True,
                          cwd=PACKAGE.parent, check=False)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "1 kept, 0 broken" in proc.stdout


def test_the_contract_fails_on_an_upward_import(tmp_path):
    """The contract is not vacuous: a copy of the package where the spec layer imports the corpus breaks it."""
    copy = tmp_path / "animre"
    subprocess.run(["cp", "-r", str(PACKAGE), str(copy)], check=True)
    (copy / "spec" / "model.py").write_text((copy / "spec" / "model.py").read_text()
                                            + "\nfrom ..corpus import open_corpus  # noqa\n")
    cfg = (PACKAGE.parent / "pyproject.toml").read_text()
    (tmp_path / "pyproject.toml").write_text(cfg[cfg.index("[tool.importlinter]"):])
    proc = subprocess.run([str(Path(sys.executable).with_name("lint-imports"))], capture_output=True, text=True,
                          cwd=tmp_path, check=False, env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert proc.returncode != 0
    assert "animre.spec.model -> animre.corpus" in proc.stdout


def test_no_import_cycles():
    graph = grimp.build_graph("animre")
    mods = sorted(m for m in graph.modules if ".parsers" not in m)
    index, low, stack, on, cycles = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))

    def edges(m: str) -> list[str]:
        out = []
        for d in graph.find_modules_directly_imported_by(m):
            if d in index or d in mods:
                # a package's __init__ importing its own submodules is how a package re-exports: not a cycle
                if not d.startswith(m + "."):
                    out.append(d)
        return out

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for m in mods:
        if m not in index:
            visit(m)
    assert cycles == []


@pytest.mark.parametrize("module,path", _modules(), ids=[m for m, _ in _modules()])
def test_no_private_names_across_modules_and_no_lazy_imports(module, path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            src = _absolute(module, is_pkg, node)
            if not src.startswith("animre"):
                continue
            for a in node.names:
                if a.name.startswith("_") and not a.name.startswith("__"):
                    bad.append(f"line {node.lineno}: imports the private name {a.name} of {src}")
            parts = src.split(".")
            for k, part in enumerate(parts[1:], start=1):  # a private module is for its own package only
                parent = ".".join(parts[:k])
                if part.startswith("_") and not part.startswith("__") and not (
                        module == parent or module.startswith(parent + ".")):
                    bad.append(f"line {node.lineno}: imports the private module {src} of another package")
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [_absolute(module, is_pkg, node)]
                for n in names:
                    if any(n == x or n.startswith(x + ".") for x in LAZY_OK) or module in LAZY_OK_MODULES:
                        continue
                    bad.append(f"line {node.lineno}: imports {n} inside {fn.name}()")
    assert bad == []
