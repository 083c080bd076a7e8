"""Adopt suggestions: patch a spec, prove the patch on the corpus, then write it atomically.

The proof compiles the patched spec (and every spec that imports it) with
the official compiler, re-parses the corpus files of the affected formats
with it, and compares both parses with :func:`animre.diff_corpora`.

When the patched spec does not compile, or stops a file from parsing, exactly
the edit responsible is withdrawn, with the reason (the compiler's message, or
the files it rejects and the error: field path, offset, message): the
compiler and the generated parsers name the spec location
(``/types/flic_header/seq/10/valid``), which is resolved to the field's
edits; when a message names no location, the edit is found by bisection over
the edits (the shortest prefix of edits that fails ends with it). The rest
is tried again. Nothing is written unless every file that parsed before
still parses and no value of an untouched field changed.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from ..base import yamlio
from ..base.atomic import write_atomic
from ..base.errors import SpecError, UsageError
from ..corpus import Corpus, open_corpus
from ..research import DIFF_CORPORA_COLUMNS, diff_corpora
from ..spec.compiler import compile_spec
from ..spec.imports import import_names
from ..spec.patch import edits_of, patch_text, unified_diff

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
    return str(((yamlio.load(text) or {}).get("meta") or {}).get("id"))


def _affected_formats(folder: Path, spec_id: str, formats: set) -> list[str]:
    """Formats of the corpus whose spec is ``spec_id`` or imports it (from ``folder``)."""
    out = []
    for f in sorted(formats):
        p = folder / f"{f}.ksy"
        if f == spec_id:
            out.append(f)
        elif p.is_file():
            if spec_id in import_names(yamlio.load(p.read_text(encoding="utf-8")) or {}):
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


_SPEC_PATH = re.compile(r"(/(?:types/[A-Za-z0-9_]+/)*(?:seq/\d+|instances/[A-Za-z0-9_]+))(?:/([A-Za-z0-9_-]+))?")


def _edits_at(message: str, patched: Mapping, spec_id: str, edits: list[dict]) -> list[dict]:
    """The edits of the field a compiler or validation message points at (``/types/T/seq/N/valid``).

    Both the compiler and the generated parser's validation errors name the
    spec location; it is resolved in the patched spec to ``(type, field)``
    and the edits of that field (of that key, when the message names one).
    """
    out: list[dict] = []
    for path, key in _SPEC_PATH.findall(str(message)):
        parts = path.strip("/").split("/")
        t, tname = patched, spec_id
        while parts and parts[0] == "types" and isinstance(t, Mapping):
            tname, t = parts[1], (t.get("types") or {}).get(parts[1])
            parts = parts[2:]
        if not isinstance(t, Mapping) or len(parts) != 2:
            continue
        if parts[0] == "seq":
            seq = t.get("seq") or []
            i = int(parts[1])
            fid = seq[i].get("id") if i < len(seq) and isinstance(seq[i], Mapping) else None
        else:
            fid = parts[1]
        for e in edits:
            on_field = e["type"] == tname and fid in (e["field"], e.get("rename"))
            in_instances = e["type"] == tname and fid in (e.get("instances") or {})
            if (on_field and (not key or key in (e.get("set") or {}) or key == "id")) or in_instances:
                if all(e is not x for x in out):
                    out.append(e)
    return out


def _first_culprit(edits: list[dict], fails: Callable[[list[dict]], str | None]) -> tuple[int, str]:
    """``(index, why)`` of the edit whose addition makes the patch fail: bisection over prefixes.

    ``fails(edits)`` says why a patch with these edits fails (None when it
    holds); the patch with every edit fails, the patch with none holds (it is
    the spec the files parsed with). ``log2(len(edits))`` trials.

    Examples
    --------
    >>> edits = [{"n": i} for i in range(10)]
    >>> _first_culprit(edits, lambda es: "7 is bad" if any(e["n"] == 7 for e in es) else None)
    (7, '7 is bad')
    """
    lo, hi = 0, len(edits)
    why = fails(edits) or "fails"
    while hi - lo > 1:
        mid = (lo + hi) // 2
        r = fails(edits[:mid])
        if r:
            hi, why = mid, r
        else:
            lo = mid
    return hi - 1, why


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
    >>> s = animre.suggest(c, spec="af", with_relations=False)
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
            before = _reparse(files, _compile(path.parent, spec_id, text, formats))  # the specs as they are
            by_path = {str(corpus.path(f).resolve()): f for f in ok["file"]}
            name_of = {n: by_path.get(str(before.path(n).resolve()), n) for n in before.files["file"]}
    new_text = text
    was_ok = set(before.files.loc[before.files["ok"], "file"]) if before is not None else set()

    def compile_fails(es: list[dict]) -> str | None:
        try:
            _compile(path.parent, spec_id, patch_text(text, es)[0], formats)
        except SpecError as e:
            return f"the patched spec does not compile: {e}"
        return None

    def parse_fails(names: list[str]) -> Callable[[list[dict]], str | None]:
        def fails(es: list[dict]) -> str | None:
            why = compile_fails(es)
            if why:
                return why
            trial = _reparse([before.path(n) for n in names], _compile(path.parent, spec_id,
                                                                        patch_text(text, es)[0], formats))
            bad = trial.errors[trial.errors["file"].isin(names)]
            return _rejects(bad, name_of) if len(bad) else None
        return fails

    rounds = max(MAX_ROUNDS, len(edits) + 2)  # every failing round withdraws at least one edit
    for _ in range(rounds):
        new_text, log = patch_text(text, edits)
        for item in log:
            if not item["applied"]:
                withdrawn.append(_withdraw(item["edit"], item["reason"], []))
        edits = [item["edit"] for item in log if item["applied"]]
        if before is None:
            break
        patched = yamlio.load(new_text) or {}
        try:
            parsers = _compile(path.parent, spec_id, new_text, formats)
        except SpecError as e:
            culprits = _edits_at(str(e), patched, spec_id, edits)
            why = f"the patched spec does not compile: {e}"
            if not culprits:  # the message names no field of the patch: find the edit by trial
                i, why = _first_culprit(edits, compile_fails)
                culprits = [edits[i]]
            for x in culprits:
                withdrawn.append(_withdraw(x, why, []))
            edits = [x for x in edits if all(x is not y for y in culprits)]
            continue
        after = _reparse(files, parsers)
        now_bad = [f for f in after.files.loc[~after.files["ok"], "file"] if f in was_ok]
        if not now_bad:
            break
        errs = after.errors[after.errors["file"].isin(now_bad)]
        blamed: dict[int, tuple[dict, list]] = {}
        unexplained = []
        for _, err in errs.iterrows():
            hit = _edits_at(str(err["message"]), patched, spec_id, edits)
            if not hit:
                unexplained.append(err["file"])
            for e in hit:
                blamed.setdefault(id(e), (e, []))[1].append(err)
        if unexplained and not blamed:  # the message names no field of the patch: find the edit by trial
            i, why = _first_culprit(edits, parse_fails(sorted(set(unexplained))))
            withdrawn.append(_withdraw(edits[i], why, sorted({name_of.get(f, f) for f in unexplained})))
            edits = edits[:i] + edits[i + 1:]
            continue
        for e, rows in blamed.values():
            bad = pd.DataFrame(rows)
            fs = sorted({name_of.get(f, str(f)) for f in bad["file"]})
            withdrawn.append(_withdraw(e, _rejects(bad, name_of), fs))
        drop = {id(e) for e, _ in blamed.values()}
        edits = [x for x in edits if id(x) not in drop]
    else:
        problems.append(f"still failing after {rounds} rounds of withdrawals")
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


def _reparse(files: list, parsers: dict) -> Corpus:
    with warnings.catch_warnings():  # claims a patched spec leaves untestable warn; the proof is the diff
        warnings.simplefilter("ignore")
        return open_corpus(files, cache=False, progress=False, parsers=parsers)


def _rejects(errors: pd.DataFrame, name_of: Mapping) -> str:
    """Why an edit is withdrawn: the files it stops from parsing and the first error (path, offset, message)."""
    names = sorted({name_of.get(f, str(f)) for f in errors["file"]})
    first = errors.iloc[0]
    msg = str(first["message"])
    msg = msg.split(": ", 1)[1] if msg.startswith(str(first["file"])) else msg
    more = f" (+{len(names) - 3} more)" if len(names) > 3 else ""
    return f"rejects {', '.join(names[:3])}{more}: {msg}"


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
