"""Adopt suggestions: patch a spec, prove the patch on the corpus, then write it atomically.

The proof compiles the patched spec (and every spec that imports it) with
the official compiler, re-parses the corpus files of the affected formats
with it, and compares both parses with :func:`animre.diff_corpora`. A
``valid`` that rejects a file is withdrawn (the file named) and the rest is
tried again; other edits that stop a file from parsing are withdrawn the
same way. Nothing is written unless every file that parsed before still
parses and no value of an untouched field changed.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from ._ksy_patch import edits_of, patch_text, unified_diff
from .atomic import write_atomic
from .compile import compile_spec
from .corpus import Corpus, open_corpus
from .errors import UsageError
from .research import diff_corpora
from .research._diff import DIFF_CORPORA_COLUMNS

__all__ = ["Adoption", "apply_suggestions"]

MAX_ROUNDS = 12


@dataclass
class Adoption:
    """What :func:`apply_suggestions` did: the patch, what was withdrawn, and the proof.

    Attributes
    ----------
    patch : str
        Unified diff of the adopted edits (empty if none survived).
    adopted : list of dict
        The edits in the patch.
    withdrawn : DataFrame
        ``spec, type, field, edit, reason, files``: edits left out, and the
        files that made them fail (file names of the corpus).
    diff : DataFrame
        :func:`animre.diff_corpora` between the parse before and after.
    problems : list of str
        Why the patch was not written (empty when the proof holds).
    written : Path or None
        Where the patched spec was written.
    before, after : Corpus or None
        The two parses of the affected files.
    """

    patch: str
    adopted: list
    withdrawn: pd.DataFrame
    diff: pd.DataFrame
    problems: list = field(default_factory=list)
    written: Path | None = None
    before: Any = None
    after: Any = None

    @property
    def ok(self) -> bool:
        """True when every file still parses and no untouched value changed."""
        return not self.problems


WITHDRAWN_COLUMNS = ["spec", "type", "field", "edit", "reason", "files"]


def _spec_id(text: str) -> str:
    return str(((yaml.safe_load(text) or {}).get("meta") or {}).get("id"))


def _affected_formats(folder: Path, spec_id: str, formats: set) -> list[str]:
    """Formats of the corpus whose spec is ``spec_id`` or imports it (from ``folder``)."""
    out = []
    for f in sorted(formats):
        p = folder / f"{f}.ksy"
        if f == spec_id:
            out.append(f)
        elif p.is_file():
            imports = ((yaml.safe_load(p.read_text(encoding="utf-8")) or {}).get("meta") or {}).get("imports") or []
            if any(str(i).rsplit("/", 1)[-1] == spec_id for i in imports):
                out.append(f)
    return out


def _compile(folder: Path, spec_id: str, text: str, formats: list[str]) -> dict:
    """Parser modules of ``formats`` with ``spec_id`` replaced by ``text`` (in a scratch copy of the folder)."""
    tmp = Path(tempfile.mkdtemp(prefix="animre-adopt-"))
    try:
        for p in folder.glob("*.ksy"):
            shutil.copy2(p, tmp / p.name)
        (tmp / f"{spec_id}.ksy").write_text(text, encoding="utf-8")
        return {f: compile_spec(tmp / f"{f}.ksy", ksy_dir=tmp) for f in formats}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _blame(err: pd.Series, edits: list[dict]) -> list[dict]:
    """The edits an error row points at: the field named last in its path or message."""
    path = str(err.get("path") or "")
    names = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", path.split(".")[-1] if path else ""))
    names |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", str(err.get("message") or "")))
    hit = [e for e in edits if (e.get("rename") or e["field"]) in names or e["field"] in names]
    valid_hits = [e for e in hit if "valid" in (e.get("set") or {})]
    return valid_hits or hit


def apply_suggestions(suggestions: Any, spec_path: str | os.PathLike, corpus: Corpus | None = None, *,
                      out: str | os.PathLike | None = None, write: bool = True) -> Adoption:
    """Patch a spec with suggestions, prove the patch on the corpus, and write it atomically.

    Parameters
    ----------
    suggestions : DataFrame or list of dict
        Rows of :func:`animre.suggest` (or their edits); those for other
        specs are ignored.
    spec_path : path
        The ``.ksy`` to patch. The specs that import it are read from the
        same folder (work on a copy of ``ksy/`` to try things out).
    corpus : Corpus, optional
        The files the proof re-parses (those of the formats the spec reads).
        Without it nothing is proven and nothing is withdrawn.
    out : path, optional
        Write the patched spec here instead of over ``spec_path``.
    write : bool
        Write the patched spec when the proof holds (default True).

    Returns
    -------
    Adoption
        ``patch``, ``adopted``, ``withdrawn`` (with the files that made an
        edit fail), ``diff`` (:func:`animre.diff_corpora`), ``problems``,
        ``written``, ``before`` and ``after``.

    Examples
    --------
    >>> import shutil, tempfile, pathlib
    >>> ksy = pathlib.Path(tempfile.mkdtemp()) / "ksy"
    >>> _ = shutil.copytree("ksy", ksy)
    >>> s = animre.suggest(c, spec="af", relations_=False)
    >>> result = animre.apply_suggestions(s, ksy / "af.ksy", c)
    >>> result.ok, result.written == ksy / "af.ksy", result.withdrawn.empty
    (True, True, True)
    >>> "valid: 10" in result.written.read_text()
    True
    """
    path = Path(spec_path)
    if not path.is_file():
        raise UsageError(f"no spec file {path}")
    text = path.read_text(encoding="utf-8")
    spec_id = _spec_id(text)
    edits = [e for e in edits_of(suggestions) if e.get("spec") == spec_id]
    withdrawn: list[dict] = []
    problems: list[str] = []
    before = after = None
    diff = pd.DataFrame(columns=DIFF_CORPORA_COLUMNS)
    formats: list[str] = []
    files: list[Path] = []
    name_of: dict[str, str] = {}  # file name in the re-parse -> file name in ``corpus``
    if corpus is not None:
        present = set(corpus.files["format"].dropna())
        formats = _affected_formats(path.parent, spec_id, present)
        ok = corpus.files[corpus.files["format"].isin(formats)]
        files = [corpus.path(f) for f in ok["file"]]
        if files:
            with warnings.catch_warnings():  # the specs of the folder as they are now
                warnings.simplefilter("ignore")
                before = open_corpus(files, cache=False, progress=False,
                                     parsers=_compile(path.parent, spec_id, text, formats))
            by_path = {str(corpus.path(f).resolve()): f for f in ok["file"]}
            name_of = {n: by_path.get(str(before.path(n).resolve()), n) for n in before.files["file"]}
    new_text = text
    for _ in range(MAX_ROUNDS):
        new_text, log = patch_text(text, edits)
        for item in log:
            if not item["applied"]:
                withdrawn.append(_withdraw(item["edit"], item["reason"], []))
        edits = [item["edit"] for item in log if item["applied"]]
        if before is None:
            break
        try:
            parsers = _compile(path.parent, spec_id, new_text, formats)
        except Exception as e:  # noqa: BLE001 - a compiler error withdraws the structural edits
            structural = [x for x in edits if x.get("set") or x.get("enums") or x.get("instances")
                          or x.get("rename")]
            if not structural:
                raise
            named = [x for x in structural if _names(x) & set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", str(e)))]
            culprits = named or structural[-1:]
            for x in culprits:
                withdrawn.append(_withdraw(x, f"the patched spec does not compile: {e}", []))
            edits = [x for x in edits if all(x is not y for y in culprits)]
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            after = open_corpus(files, cache=False, progress=False, parsers=parsers)
        was_ok = set(before.files.loc[before.files["ok"], "file"])
        now_bad = [f for f in after.files.loc[~after.files["ok"], "file"] if f in was_ok]
        if not now_bad:
            break
        errs = after.errors[after.errors["file"].isin(now_bad)]
        blamed: dict[int, tuple[dict, list]] = {}
        for _, err in errs.iterrows():
            for e in _blame(err, edits) or [x for x in edits if "valid" in (x.get("set") or {})] or edits:
                blamed.setdefault(id(e), (e, []))[1].append(name_of.get(err["file"], str(err["file"])))
        for e, fs in blamed.values():
            why = "rejects " if "valid" in (e.get("set") or {}) else "breaks "
            withdrawn.append(_withdraw(e, why + ", ".join(sorted(set(fs))), sorted(set(fs))))
        drop = {id(e) for e, _ in blamed.values()}
        edits = [x for x in edits if id(x) not in drop]
    else:
        problems.append(f"still failing after {MAX_ROUNDS} rounds of withdrawals")
    if before is not None and after is not None:
        diff = diff_corpora(before, after)
        problems += _proof_problems(diff, edits, before, after)
    patch = unified_diff(text, new_text, path.name)
    written = None
    if write and not problems and patch:
        written = Path(out) if out is not None else path
        write_atomic(written, new_text.encode("utf-8"))
    return Adoption(patch, edits, pd.DataFrame(withdrawn, columns=WITHDRAWN_COLUMNS), diff, problems, written,
                    before, after)


def _names(e: dict) -> set:
    """Ids an edit brings into the spec or changes (field, new name, enums, instances)."""
    out = {e["field"]} | set(e.get("enums") or {}) | set(e.get("instances") or {})
    if e.get("rename"):
        out.add(e["rename"])
    return out


def _withdraw(e: dict, reason: str, files: list) -> dict:
    return {"spec": e.get("spec"), "type": e.get("type"), "field": e.get("field"), "edit": e, "reason": reason,
            "files": files}


def _proof_problems(diff: pd.DataFrame, edits: list[dict], before: Corpus, after: Corpus) -> list[str]:
    """Files that stopped parsing, values of untouched fields that changed, renames that lost values."""
    out = []
    was_ok = set(before.files.loc[before.files["ok"], "file"])
    lost = [f for f in after.files.loc[~after.files["ok"], "file"] if f in was_ok]
    if lost:
        out.append(f"{len(lost)} file(s) no longer parse: {', '.join(lost[:5])}")
    touched = {e["field"] for e in edits} | {e["rename"] for e in edits if e.get("rename")}
    touched |= {n for e in edits for n in (e.get("instances") or {})}
    for r in diff.itertuples(index=False):
        a = str(r.field_a).rsplit(".", 1)[-1] if isinstance(r.field_a, str) else None
        b = str(r.field_b).rsplit(".", 1)[-1] if isinstance(r.field_b, str) else None
        if r.change in ("same",):
            continue
        if "values changed" in str(r.change) and (r.n_values_changed or 0) > 0:
            out.append(f"{r.table}: values of {r.field_a} changed in {r.n_values_changed} rows")
        elif a not in touched and b not in touched and str(r.change) not in ("added",):
            out.append(f"{r.table}: untouched field {r.field_a or r.field_b} {r.change}")
    return out
