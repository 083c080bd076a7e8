"""The spec is the source of truth: renaming a field in a shipped spec renames its columns, nothing else.

For every format, a primitive field of the root table and one of a row table
are renamed in the shipped ``.ksy`` (text edit, compiled with
``animre.compile_spec``) and the same files are opened with ``parsers=``.
Every column made from the field must carry the new id with equal values and
byte spans, no column may keep the old id, nothing else may change, and the
kit's own claims and derived columns that read the field must say "not
testable" instead of silently changing.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

import animre
from animre.compile import KSY_DIR
from animre.flatten import plan_for
from animre.formats import all_formats

FORMATS = sorted(all_formats())


def _word(name: str) -> re.Pattern:
    return re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")


def _candidates(fmt: str) -> list[tuple[str, str, str]]:
    """(table, field id, ksy type) of renameable primitive fields: one in the root table, one in a row table.

    A candidate's id occurs once in its spec (no expression refers to it), so the
    renamed spec still compiles; fields that claims or derived columns read come first.
    """
    text = (KSY_DIR / f"{fmt}.ksy").read_text()
    plan = plan_for(text)
    f = all_formats()[fmt]
    read_by_kit = {c for cl in f.claims for _, c in cl.reads} | {c for d in f.derived for _, c in d.reads}
    out = []
    root = next(iter(plan.tables.values()))
    for want_root in (True, False):
        best = None
        for t in plan.tables.values():
            if (t is root) != want_root:
                continue
            for c in t.columns:
                fd = c.field
                if c.role != "value" or fd.kind != "seq" or fd.is_user or fd.repeat:
                    continue
                if len(_word(fd.id).findall(text)) != 1 or f"- id: {fd.id}\n" not in text:
                    continue
                score = (c.name in read_by_kit, fd.type.startswith("u"))
                if best is None or score > best[0]:
                    best = (score, (t.name, fd.id, fd.type))
        if best is not None:
            out.append(best[1])
    return out


CASES = [(fmt, *c) for fmt in FORMATS for c in _candidates(fmt)]


def test_every_format_has_a_root_and_a_row_table_case():
    for fmt in FORMATS:
        tables = {t for f, t, *_ in CASES if f == fmt}
        assert len(tables) == 2, (fmt, tables)


@pytest.fixture(scope="module")
def old_corpora(samples_dir):
    out = {}
    full = animre.open_corpus(samples_dir, cache=False)
    for fmt in FORMATS:
        files = [samples_dir / f for f in full.files.query("format == @fmt and ok")["file"]]
        assert files, fmt
        out[fmt] = (files, animre.open_corpus(files, cache=False))
    return out


def _missing(x) -> bool:
    return x is None or (isinstance(x, float) and np.isnan(x)) or x is pd.NA


def _same(a: pd.Series, b: pd.Series) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a.tolist(), b.tolist()):
        if _missing(x) or _missing(y):
            if not (_missing(x) and _missing(y)):
                return False
            continue
        try:
            if not bool(np.all(x == y)):
                return False
        except Exception:  # noqa: BLE001 - values that cannot be compared must print alike
            if repr(x) != repr(y):
                return False
    return True


@pytest.mark.parametrize("fmt,table,field,ktype", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_rename_renames_exactly_its_columns(old_corpora, fmt, table, field, ktype):
    files, old = old_corpora[fmt]
    text = (KSY_DIR / f"{fmt}.ksy").read_text()
    new_id = f"{field}_renamed"
    edited = text.replace(f"- id: {field}\n", f"- id: {new_id}\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        new = animre.open_corpus(files, cache=False, parsers={fmt: animre.compile_spec(edited)})
    assert len(new.errors) == len(old.errors) == 0
    f = all_formats()[fmt]
    affected_derived = {(d.table, d.column) for d in f.derived if (table, field) in d.reads}
    renamed_any = False
    for t, df in old.tables.items():
        if t == "files":
            continue
        nd = new.tables[t]
        expected = {}
        for c in df.columns:
            if (t, c) in affected_derived:
                continue
            e = _word(field).sub(new_id, c) if t == table else c
            expected[c] = e
            renamed_any |= e != c
        assert list(nd.columns) == list(expected.values()), t
        assert not any(_word(field).search(c) for c in nd.columns if t == table), t
        for c, e in expected.items():
            assert _same(df[c], nd[e]), (t, c)
            if t in old.spans and c in old.spans[t][0].columns:
                for k in (0, 1):
                    a = old.spans[t][k][c].astype("Int64")
                    b = new.spans[t][k][e].astype("Int64")
                    assert a.equals(b), (t, c, k)
        for c in df.columns:
            if (t, c) in affected_derived:
                assert c not in nd.columns
    assert renamed_any
    # claims and derived columns that read the field are not testable, loudly; the others unchanged
    res_old = animre.claims(old).set_index("claim")
    res_new = animre.claims(new).set_index("claim")
    for cl in f.claims:
        if (table, field) in cl.reads:
            assert res_new.at[cl.text, "status"] == f"not testable: field {table}.{field} is not in the spec"
            assert cl.text in set(new.unavailable["name"])
        else:
            assert res_new.at[cl.text, "status"] == res_old.at[cl.text, "status"], cl.text
            assert res_new.at[cl.text, "holds"] == res_old.at[cl.text, "holds"], cl.text
    for dt, dc in affected_derived:
        u = new.unavailable
        row = u[(u["kind"] == "derived") & (u["table"] == dt) & (u["name"] == dc)]
        assert len(row) == 1 and f"{table}.{field}" in row["message"].iloc[0]
    if any((table, field) in cl.reads for cl in f.claims) or affected_derived:
        assert any("not testable" in str(w.message) for w in caught)
    # the spec's doc and type travel with the renamed column
    info = new.columns(table).set_index("column")
    assert info.at[new_id, "type"] == ktype and isinstance(info.at[new_id, "doc"], str)


@pytest.mark.parametrize("fmt,table,field,ktype", CASES[::2], ids=[f"{c[0]}-{c[2]}" for c in CASES[::2]])
def test_diff_corpora_rename_and_retype_is_one_row(old_corpora, fmt, table, field, ktype):
    files, old = old_corpora[fmt]
    text = (KSY_DIR / f"{fmt}.ksy").read_text()
    retyped = re.sub(r"^u", "s", ktype) if re.match(r"^u[1248]", ktype) else ktype
    pat = re.compile(rf"(- id: ){re.escape(field)}\n(\s+)type: {re.escape(ktype)}\n")
    edited, n = pat.subn(lambda m: f"{m.group(1)}{field}_new\n{m.group(2)}type: {retyped}\n", text)
    assert n == 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        new = animre.open_corpus(files, cache=False, parsers={fmt: animre.compile_spec(edited)})
    d = animre.diff_corpora(old, new)
    assert len(d) == 1, d[["table", "field_a", "field_b", "change"]]
    row = d.iloc[0]
    assert row["table"] == table and row["field_a"].endswith("." + field)
    assert row["field_b"].endswith("." + field + "_new")
    assert row["change"].startswith("renamed")
    assert ("retyped" in row["change"]) == (retyped != ktype)
    assert row["n_files"] == len(files)


def test_frm_rename_and_u1_to_s1_is_one_row(old_corpora):
    """The issue's experiment: FRM byte 0 renamed to format_version and read as s1."""
    files, old = old_corpora["frm"]
    text = (KSY_DIR / "frm.ksy").read_text()
    edited = text.replace("- id: unknown_magic\n    type: u1\n", "- id: format_version\n    type: s1\n")
    assert edited != text
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        new = animre.open_corpus(files, cache=False, parsers={"frm": animre.compile_spec(edited)})
    d = animre.diff_corpora(old, new)
    assert d[["table", "field_a", "field_b", "change"]].values.tolist() == [
        ["frm", "frm.unknown_magic", "frm.format_version", "renamed, retyped"]]
    assert "format_version" in new.tables["frm"] and "unknown_magic" not in new.tables["frm"]
    assert new.tables["frm"]["format_version"].notna().all()
