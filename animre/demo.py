"""``make demo``: run every notebook headless and collect what it found.

Each notebook in ``notebooks/`` is executed with :mod:`nbclient` in an
IPython kernel (ipykernel, started with the Python running animre) with
``ANIMRE_DATA`` pointing at the corpus and ``ANIMRE_OUT`` at
``<out>/<notebook name>/<name of the data folder>/`` (a run on real files
never overwrites the sample run's exports). The executed notebook is
written into that folder too; the notebook's own last cell exports its
findings (CSV + Markdown) there. Nothing is written into the data folder.

Examples
--------
>>> from animre.demo import run_demo
>>> [p.name for p in notebook_paths()][:2]
['00_quickstart.ipynb', '01_omf_af.ipynb']
>>> real_data_folder(NOTEBOOK_DIR / "06_spec_experiment.ipynb")  # run on real FLC files when given
'flic'
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from .base.atomic import write_atomic
from .base.errors import AnimreError, UsageError
from .folders import SAMPLES_DIR, check_outside, prepare_run, run_folder
from .spec.compiler import PROJECT_ROOT

__all__ = ["run_demo", "run_notebook", "notebook_paths", "real_data_folder", "NotebookError", "NOTEBOOK_DIR",
           "DEFAULT_DATA"]

NOTEBOOK_DIR = PROJECT_ROOT / "notebooks"
DEFAULT_DATA = SAMPLES_DIR
CELL_TIMEOUT = 600


class NotebookError(AnimreError, RuntimeError):
    """A notebook failed while running headless.

    Attributes
    ----------
    notebook : str
        The notebook's file name.
    cell : int
        Index of the failing cell (0-based, counting markdown cells too).
    reason : str
        The error the cell raised (exception name and message).
    """

    def __init__(self, notebook: str, cell: int, reason: str):
        self.notebook = notebook
        self.cell = cell
        self.reason = reason
        super().__init__(f"{notebook}: cell {cell}: {reason}")


def notebook_paths(folder: str | os.PathLike | None = None) -> list[Path]:
    """The notebooks that :func:`run_demo` runs, in name order.

    Examples
    --------
    >>> [p.name for p in notebook_paths()][0]
    '00_quickstart.ipynb'
    """
    d = Path(folder) if folder is not None else NOTEBOOK_DIR
    return sorted(p for p in d.glob("*.ipynb") if not p.name.startswith("."))


def _kernel_manager(socket_dir: Path):
    """A kernel manager that starts ipykernel with *this* interpreter (never a stray kernelspec).

    The kernel talks over local IPC sockets in ``socket_dir`` (no TCP port).
    """
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    try:
        import ipykernel  # noqa: F401
    except ImportError as e:  # pragma: no cover - the `lab` extra installs it
        raise UsageError("ipykernel is needed to run notebooks: pip install 'animre[lab]'") from e
    # With no kernel directories, "python3" resolves to ipykernel's own spec, whose
    # command is [sys.executable, "-m", "ipykernel_launcher", ...].
    ksm = KernelSpecManager(kernel_dirs=[])
    return KernelManager(kernel_name="python3", kernel_spec_manager=ksm, transport="ipc",
                         ip=str(socket_dir / "kernel"))


def _error_text(cell) -> str:
    for o in cell.get("outputs", []):
        if o.get("output_type") == "error":
            return f"{o.get('ename', 'Error')}: {o.get('evalue', '')}"
    return "cell failed"


def run_notebook(path: str | os.PathLike, out_dir: str | os.PathLike, data: str | os.PathLike | None,
                 *, env: Mapping[str, str] | None = None, timeout: int = CELL_TIMEOUT) -> Path:
    """Execute one notebook headless; write the executed copy into its run folder.

    The run folder is ``out_dir/<name>/<name of data>/`` (``out_dir/<name>/``
    when ``data`` is None): the notebook sees ``ANIMRE_DATA=data`` and
    ``ANIMRE_OUT`` = that folder, and runs with the notebook's folder as
    working directory. With ``data=None`` no ``ANIMRE_DATA`` is set (not even
    an inherited one): the notebook reads the ``DATA`` of its parameter cell.
    Raises :class:`NotebookError` naming the notebook and the failing cell
    (the executed copy, with the error output, is written first), and
    :class:`~animre.base.errors.UsageError` when the run folder lies inside ``data``.

    Examples
    --------
    >>> import tempfile, nbformat; out = tempfile.mkdtemp()
    >>> cell = nbformat.v4.new_code_cell("import os; print(os.environ['ANIMRE_DATA'])")
    >>> nbformat.write(nbformat.v4.new_notebook(cells=[cell]), f"{out}/hello.ipynb")
    >>> p = run_notebook(f"{out}/hello.ipynb", out, "data/samples")
    >>> p.relative_to(out).as_posix()
    'hello/samples/hello.ipynb'
    >>> nbformat.read(p, as_version=4).cells[0].outputs[0]["text"].strip().endswith("data/samples")
    True
    """
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError


    path = Path(path)
    run_dir = run_folder(data, path.stem, base=out_dir) if data is not None else Path(out_dir) / path.stem
    check_outside(run_dir, data)
    run_dir.mkdir(parents=True, exist_ok=True)
    nb = nbformat.read(path, as_version=4)
    kenv = dict(os.environ)
    kenv.update(env or {})
    kenv.pop("ANIMRE_DATA", None)
    if data is not None:
        kenv["ANIMRE_DATA"] = str(Path(data).resolve())
    kenv["ANIMRE_OUT"] = str(run_dir.resolve())
    kenv.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    # the kernel must import this animre, whatever the notebook's folder
    kenv["PYTHONPATH"] = os.pathsep.join(
        [str(PROJECT_ROOT)] + ([kenv["PYTHONPATH"]] if kenv.get("PYTHONPATH") else []))
    failed: dict[str, int] = {}

    def on_error(cell, cell_index, execute_reply):
        failed.setdefault("cell", cell_index)

    target = run_dir / path.name
    sockets = tempfile.TemporaryDirectory(prefix="animre-kernel-")
    km = _kernel_manager(Path(sockets.name))
    client = NotebookClient(nb, km=km, timeout=timeout,
                            allow_errors=False, on_cell_error=on_error,
                            resources={"metadata": {"path": str(path.parent.resolve())}})
    try:
        client.execute(env=kenv)
    except (CellExecutionError, CellTimeoutError, DeadKernelError) as e:
        idx = failed.get("cell")
        if idx is None:
            idx = next((i for i, c in enumerate(nb.cells)
                        if c.get("cell_type") == "code" and any(o.get("output_type") == "error"
                                                                for o in c.get("outputs", []))), -1)
        reason = _error_text(nb.cells[idx]) if idx >= 0 else f"{type(e).__name__}: {e}"
        if isinstance(e, (CellTimeoutError, DeadKernelError)):
            reason = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        write_atomic(target, nbformat.writes(nb).encode())
        raise NotebookError(path.name, idx, reason) from None
    finally:
        # nbclient leaves a kernel manager it was given running: stop the kernel here
        if km.has_kernel:
            km.shutdown_kernel(now=True)
        km.cleanup_resources()
        sockets.cleanup()
    write_atomic(target, nbformat.writes(nb).encode())
    return target


def real_data_folder(path: str | os.PathLike) -> str | None:
    """The real-file folder a notebook asks for (notebook metadata ``animre.real_data``), if any."""
    meta = json.loads(Path(path).read_text(encoding="utf-8")).get("metadata", {})
    sub = (meta.get("animre") or {}).get("real_data")
    return str(sub) if sub else None


def run_demo(out_dir: str | os.PathLike = "out", data: str | os.PathLike | None = None,
             notebooks: Iterable[str | os.PathLike] | None = None,
             real: str | os.PathLike | None = None) -> list[Path]:
    """Run every notebook headless; return the files written (notebooks + exports).

    Parameters
    ----------
    out_dir : path
        Where each notebook's run folder goes: ``<name>/<name of the data
        folder>/`` holds the executed notebook and its exports (``*.csv``,
        ``*.md``). Never inside a folder being read.
    data : path, optional
        The corpus the notebooks open (``ANIMRE_DATA``); default the project's
        ``data/samples``, generated first if it is missing. Only read.
    notebooks : paths, optional
        Run only these notebooks (default: all of ``notebooks/``).
    real : path, optional
        A folder of real game files. A notebook whose metadata names a
        sub-folder (``"animre": {"real_data": "flic"}``) opens ``real/<sub-folder>``
        instead of ``data`` when it exists (``make demo`` passes the real-file folder
        described in the README, "Real files", when there is one).

    Raises
    ------
    NotebookError
        When a notebook fails; the message names the notebook and the cell.

    Examples
    --------
    A notebook of one cell that writes a table into its run folder (the
    notebooks of ``notebooks/`` run the same way; the tests run each of them):

    >>> import tempfile, nbformat; out = tempfile.mkdtemp()
    >>> cell = nbformat.v4.new_code_cell("import os; open(os.environ['ANIMRE_OUT'] + '/t.csv', 'w').write('a')")
    >>> nbformat.write(nbformat.v4.new_notebook(cells=[cell]), f"{out}/table.ipynb")
    >>> files = run_demo(out, notebooks=[f"{out}/table.ipynb"])
    >>> sorted(p.relative_to(out).as_posix() for p in files)
    ['table/samples/t.csv', 'table/samples/table.ipynb']
    """
    out = Path(out_dir)
    data = prepare_run(DEFAULT_DATA if data is None else data, out)
    if real is not None:
        check_outside(out, real)
    paths = [Path(p) for p in notebooks] if notebooks is not None else notebook_paths()
    if not paths:
        raise UsageError(f"no notebooks found in {NOTEBOOK_DIR}")
    written: list[Path] = []
    for p in paths:
        sub = real_data_folder(p) if real is not None else None
        use = Path(real) / sub if sub and (Path(real) / sub).is_dir() else data
        before = _listing(out / p.stem)
        target = run_notebook(p, out, use)
        written.append(target)
        written.extend(sorted(f for f, m in _listing(out / p.stem).items()
                              if before.get(f) != m and f != target))
    return written


def _listing(folder: Path) -> dict[Path, int]:
    if not folder.is_dir():
        return {}
    return {f: f.stat().st_mtime_ns for f in folder.rglob("*") if f.is_file()}


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - thin wrapper for the CLI
    """``python -m animre.demo [OUT]``: run :func:`run_demo` and list what it wrote."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = args[0] if args else "out"
    try:
        files = run_demo(out)
    except AnimreError as e:
        print(f"animre: {e}", file=sys.stderr)
        return 1
    for f in files:
        print(f)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
