"""Where the kit reads and where it writes: a folder it reads is never written into.

A user's folder of game files is read-only to animre. Samples are generated
only into the kit's own ``data/samples`` (or an empty folder a caller names);
the exports of a notebook run go to ``out/<notebook>/<name of the data
folder>/`` in this checkout (or wherever ``OUT`` says), never inside the
folder being read. The notebooks, ``make demo`` and the commands that write
(``export``, ``report``, ``suggest``, ``infer``, ``samples``) all ask this module (the check itself,
:func:`check_outside`, lives in :mod:`animre.base.dirs`, where the lower layers reach it).

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> game = Path(tempfile.mkdtemp())
>>> run_folder(game / "HEROES2", "02_homm2_frm").relative_to(PROJECT_ROOT).as_posix()
'out/02_homm2_frm/HEROES2'
>>> check_outside(game / "HEROES2" / "findings", game)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
animre.base.errors.UsageError: ...findings is inside ..., the folder being read: animre never writes into a folder ...
"""

from __future__ import annotations

import os
from pathlib import Path

from .base.dirs import check_outside
from .base.errors import UsageError
from .samples import MANIFEST, generate_all
from .spec.compiler import PROJECT_ROOT

__all__ = ["SAMPLES_DIR", "OUT_DIR", "is_samples_dir", "run_folder", "check_outside", "prepare_run"]

SAMPLES_DIR = PROJECT_ROOT / "data" / "samples"
OUT_DIR = PROJECT_ROOT / "out"


def _resolved(p: str | os.PathLike) -> Path:
    return Path(p).expanduser().resolve()


def is_samples_dir(folder: str | os.PathLike) -> bool:
    """Whether ``folder`` is the kit's own sample folder (``data/samples`` of this checkout).

    Examples
    --------
    >>> is_samples_dir(SAMPLES_DIR), is_samples_dir(PROJECT_ROOT / "data")
    (True, False)
    """
    return _resolved(folder) == SAMPLES_DIR.resolve()


def run_folder(data: str | os.PathLike, notebook: str, out: str | os.PathLike | None = None, *,
               base: str | os.PathLike | None = None) -> Path:
    """The folder for the exports of one run: ``<base>/<notebook>/<name of data>/`` (or ``out``).

    ``base`` defaults to ``out/`` of this checkout.

    Runs on different folders (the samples, a game folder) never overwrite
    each other's exports.

    Examples
    --------
    >>> run_folder("data/samples", "00_quickstart").relative_to(OUT_DIR).as_posix()
    '00_quickstart/samples'
    >>> run_folder("data/samples", "00_quickstart", out="/tmp/mine").as_posix()
    '/tmp/mine'
    """
    if out is not None:
        return Path(out)
    return Path(base if base is not None else OUT_DIR) / notebook / (_resolved(data).name or "root")


def prepare_run(data: str | os.PathLike, out: str | os.PathLike | None = None) -> Path:
    """Check the folders of a notebook run; return ``data`` as a Path.

    The kit's own sample folder is generated when it is missing; any other
    ``data`` is only read (it must exist). ``out`` (the exports) must not lie
    inside ``data``.

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> prepare_run(d, d.parent / "elsewhere") == d
    True
    >>> prepare_run(d / "missing")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    animre.base.errors.UsageError: .../missing: no such corpus folder (DATA names the folder of files to read)
    """
    d = Path(data)
    if is_samples_dir(d) and not (d / MANIFEST).is_file():
        generate_all(d)  # what `make samples` writes: the corpus with known truth
    if not d.exists():
        raise UsageError(f"{data}: no such corpus folder (DATA names the folder of files to read)")
    if out is not None:
        check_outside(out, d)
    return d
