"""Suggestions: turn the evidence of profiles and relations back into spec edits.

:func:`suggest` reads what the other research functions already found
(:func:`~animre.research.profile` for constants, value sets and flag bits,
:func:`~animre.research.relations` for arithmetic relations, the tables'
parent/child structure for counts) and proposes, per spec field, the exact
``.ksy`` edit with its evidence. :func:`animre.suggest_patch` turns the
edits into a reviewable diff; :func:`animre.apply_suggestions` proves them
on the corpus before writing.

Flag fields are split into one boolean ``value`` instance per varying bit
(``(ai_flags & 0x2) != 0``, its byte range taken from the field with
``-animre-bytes``) rather than into ``b1`` fields: the field is still read
as it was (no change of layout or bit order), and every bit becomes a
column of its own. Bits the spec already tests this way are not proposed
again.

The false-discovery guard (why columns of random values get no suggestion):

- every suggestion needs at least ``min_files`` independent files (files
  with distinct contents: byte-identical copies count once);
- ``valid`` (``eq``): the value is the same in every row of every file;
  ``any-of`` and ``enum``: a closed set, i.e. every value occurs in at least
  two independent files (the Good-Turing estimate of the chance of an unseen
  value, values seen in one file / files, is then 0), at most 4 values for
  ``any-of`` and 16 for ``enum``;
- flags: the profile's ``LOOKS_LIKE_FLAGS`` rule (few repeated values made
  of independently set bits), and only the bits that are switched on and
  off alone (two values seen in two independent files each that differ in
  that bit only): the bits of a mostly zero coordinate change together;
- one proposal per field: flag bits, else ``valid: any-of``, else an enum
  (they do not compile together), and one doc line (rename, relation or
  doc);
- relations: they beat every shuffle in :func:`relations`, are not a
  computed column's definition, and save at least ``log2(n_tests / alpha)``
  bits (their description-length score, :func:`relations`; by the
  no-hypercompression inequality a relation fitted to chance saves ``B``
  bits with probability at most ``2 ** -B``), where ``n_tests`` = target
  columns x source columns x 6 relation kinds (Bonferroni): a coefficient
  fitted on mostly zero columns saves nothing;
- ``doc`` lines for fields that stay unknown only when one value holds at
  least half of the rows or there are at most 16 values.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pandas as pd

from ..base.display import fmt, formatters
from ..base.errors import UsageError
from ..spec.compiler import KSY_DIR
from ..spec.patch import find_field, spec_references
from ._profile import profile
from ._suggest_fields import bits_in_spec, field_suggestions, filtered_tables, unknown_docs
from ._suggest_links import count_links, pos_links, size_links
from ._suggest_relations import derived_reads, relation_suggestions
from ._suggest_rows import defining_spec, n_independent, spec_docs, spec_id

__all__ = ["suggest", "one_per_field", "SUGGESTION_COLUMNS", "SUGGESTION_KINDS", "derived_reads"]

SUGGESTION_KINDS = ("valid", "enum", "flags", "count", "size", "pos", "rename", "relation", "doc")
SUGGESTION_COLUMNS = ["spec", "type", "field", "table", "column", "kind", "suggestion", "evidence", "holds",
                      "of", "unit", "n_files", "counterexamples", "edit", "status"]


def suggest(corpus: Any, spec: str | Path | None = None, *, min_files: int = 5, alpha: float = 0.05,
            tables: list[str] | None = None, include_in_spec: bool = False,
            with_relations: bool = True) -> pd.DataFrame:
    """Spec edits that the evidence of a corpus supports, one row per field and kind.

    Parameters
    ----------
    corpus : Corpus
        The parsed files (``animre.open_corpus``).
    spec : str or path, optional
        Only fields of this spec: a spec id (``"frm"``, ``"omf_common"``) or
        a ``.ksy`` path (its text is read instead of the shipped one; the spec
        is its ``meta/id``, whatever the file's name). Default: every spec the
        corpus uses. A spec the corpus was not read with is a
        :class:`~animre.base.errors.UsageError` naming the ones it was.
    min_files : int
        Independent files (distinct contents) a suggestion needs (default 5).
    alpha : float
        Family-wise error rate of the relation guard (see the module doc).
    tables : list of str, optional
        Only these tables.
    include_in_spec : bool
        Also list links the spec already states (``repeat-expr: num_coords``),
        with status ``in spec`` and no edit.
    with_relations : bool
        Search relations between columns (the slowest part).

    Returns
    -------
    DataFrame
        ``spec, type, field`` (where the edit goes), ``table, column`` (where
        the evidence is), ``kind`` (one of :data:`SUGGESTION_KINDS`),
        ``suggestion`` (the edit in words), ``evidence`` (``"0x32 in 11/11
        files"``), ``holds`` / ``of`` / ``unit`` (files, rows or records),
        ``n_files`` (independent files), ``counterexamples`` (file, value,
        offset), ``edit`` (for :func:`animre.suggest_patch`) and ``status``.
        With no row, ``attrs["why"]`` says why (also as a warning).

    Examples
    --------
    >>> s = suggest(c, spec="af")
    >>> s.query("column == 'exec_window'")[["kind", "suggestion", "evidence"]].values.tolist()
    [['valid', 'valid: 10', '10 in 11/11 files (11 rows)']]
    """
    docs = spec_docs(corpus, spec, KSY_DIR)
    only_spec = None if spec is None else spec_id(spec)
    schema = corpus.schema
    used: dict[str, int] = {}  # spec -> fields of it in the tables
    files = corpus.files.set_index("file")
    sha = files["sha256"] if "sha256" in files.columns else pd.Series(files.index, index=files.index)
    groups: dict[tuple, list[tuple[str, str]]] = {}
    info: dict[tuple, dict] = {}
    styles: dict[str, dict] = {}
    for r in schema.itertuples(index=False):
        if r.table == "files" or r.kind not in ("read", "pos") or not isinstance(r.field, str):
            continue
        if tables is not None and r.table not in tables:
            continue
        if r.table not in corpus.tables or r.column not in corpus.tables[r.table].columns:
            continue
        owner, fid = r.field.rsplit(".", 1)
        defspec = defining_spec(docs, r.spec, owner, fid)
        if defspec is not None:
            used[defspec] = used.get(defspec, 0) + 1
        if defspec is None or (only_spec is not None and defspec != only_spec):
            continue
        key = (defspec, owner, fid)
        groups.setdefault(key, []).append((r.table, r.column))
        if key not in info:
            _, node, where = find_field(docs[defspec], owner, fid)
            if r.table not in styles:
                styles[r.table] = formatters(corpus.columns(r.table))
            info[key] = {"node": node, "where": where, "type": str(r.type), "enum": r.enum
                         if isinstance(r.enum, str) else None,
                         "referenced": sum(spec_references(d, fid) for d in docs.values()),
                         "show": styles[r.table].get(r.column, fmt)}
    if only_spec is not None and only_spec not in used:
        given = f" ({spec}: meta/id {only_spec!r})" if str(spec).endswith(".ksy") else ""
        raise UsageError(f"suggest(spec={str(spec)!r}): the corpus holds no field of spec {only_spec!r}{given}; "
                         f"its tables come from {', '.join(sorted(used)) or 'no spec'}"
                         + (" (open the corpus with specs=[...] to read it with yours)" if given else ""))
    out: list[dict] = []
    profiles: dict[str, pd.DataFrame] = {}
    by_table: dict[str, list[str]] = {}
    for cols in groups.values():
        for t, col in cols:
            by_table.setdefault(t, []).append(col)
    for t, cols in by_table.items():
        profiles[t] = profile(corpus, t, columns=list(dict.fromkeys(cols)), key_tables={}).set_index("column")
    col_to_key = {(t, col): k for k, cols in groups.items() for t, col in cols}
    filtered = filtered_tables(corpus, docs)
    per_field: list[dict] = []
    for key, cols in groups.items():
        per_field += field_suggestions(corpus, key, cols, info[key], sha, profiles, min_files,
                                       filtered=any(tc in filtered for tc in cols),
                                       bits_in_spec=bits_in_spec(docs[key[0]], key[1], key[2]),
                                       include_in_spec=include_in_spec)
    links = count_links(corpus, col_to_key, info, docs, sha, min_files, include_in_spec)
    links += size_links(corpus, col_to_key, docs, sha, min_files, include_in_spec)
    links += pos_links(corpus, col_to_key, docs, sha, min_files, include_in_spec)
    if with_relations:
        links += relation_suggestions(corpus, by_table, col_to_key, info, docs, sha, min_files, alpha)
    # a field that a full relation or count explains is a quantity, not a set of codes
    explained = {(r["spec"], r["type"], r["field"]) for r in links if r["holds"] == r["of"]}
    for r in per_field:
        is_set = r["kind"] == "enum" or (r["kind"] == "valid" and "any-of" in r["suggestion"])
        if not (is_set and (r["spec"], r["type"], r["field"]) in explained):
            out.append(r)
    out += links
    out += unknown_docs(corpus, groups, info, sha, out, min_files)
    res = pd.DataFrame(one_per_field(out), columns=SUGGESTION_COLUMNS)
    if not len(res):
        res.attrs["why"] = _why_none(corpus, groups, sha, min_files, only_spec)
        warnings.warn(f"suggest: no suggestion: {res.attrs['why']}", UserWarning, stacklevel=2)
    return res


_CONSTRAINTS = ("flags", "valid", "enum")  # by priority: one of them per field
_DOC_LINES = ("rename", "relation", "doc")


def one_per_field(rows: list[dict]) -> list[dict]:
    """One proposal per field and kind, at most one of flags / valid / enum and one of rename / relation / doc.

    Examples
    --------
    >>> rows = [{"spec": "s", "type": "t", "field": "f", "kind": k} for k in ("valid", "enum", "doc", "count")]
    >>> [r["kind"] for r in one_per_field(rows)]
    ['valid', 'doc', 'count']
    """
    out, seen = [], set()
    for r in rows:
        k = r["kind"]
        group = "constraint" if k in _CONSTRAINTS else "doc" if k in _DOC_LINES else k
        key = (r["spec"], r["type"], r["field"], group)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def _why_none(corpus, groups: dict, sha: pd.Series, min_files: int, only_spec: str | None) -> str:
    """Why :func:`suggest` found nothing: no field, too few independent files, or no field passed the guards."""
    which = f"spec {only_spec!r}" if only_spec else "the corpus' specs"
    if not groups:
        return f"no field of {which} is in the tables"
    files = {f for cols in groups.values() for t, _ in cols for f in corpus.tables[t]["file"].unique()}
    n = n_independent(files, sha)
    if n < min_files:
        return (f"{n} independent files (distinct contents) hold fields of {which}, fewer than the "
                f"min_files={min_files} every suggestion needs")
    return (f"none of the {len(groups)} fields of {which} passed the guards over {n} independent files "
            f"(constants, closed value sets, flags, counts, relations)")
