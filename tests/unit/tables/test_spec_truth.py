"""The spec is the source of truth: renaming a field in a shipped spec renames its columns, nothing else.

For every format, a primitive field of the root table and one of a row table
are renamed in the shipped ``.ksy`` (text edit, compiled with
``animre.spec.compile_spec``) and the same files are opened with ``parsers=``.
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
import yaml

import animre
from animre.formats import all_formats
from animre.spec.compiler import KSY_DIR
from animre.tables.planner import plan_for

FORMATS = sorted(all_formats())


def _word(name: str) -> re.Pattern:
    return re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")


def _column_word(name: str) -> re.Pattern:
    """The field's id inside a column name: a whole path segment, or the enum name column's stem."""
    return re.compile(rf"(?<![\w]){re.escape(name)}(?=$|_name$|[.\[])")


def _references(node, name: str) -> int:
    """How often ``name`` occurs as a word in the spec outside ``doc`` text (ids, expressions, keys)."""
    if isinstance(node, dict):
        return sum(_references(k, name) + (0 if k in ("doc", "doc-ref") else _references(v, name))
                   for k, v in node.items())
    if isinstance(node, list):
        return sum(_references(v, name) for v in node)
    return len(_word(name).findall(node)) if isinstance(node, str) else 0


def _candidates(fmt: str, integers: bool = False) -> list[tuple[str, str, str, str]]:
    """(table, field id, ksy type) of renameable primitive fields: one in the root table, one in a row table.

    A candidate's id occurs once in its spec (no expression refers to it), so the
    renamed spec still compiles; fields that claims or derived columns read come first.
    """
    text = (KSY_DIR / f"{fmt}.ksy").read_text()
    tree = yaml.safe_load(text)
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
                if c.role != "value" or fd.kind != "seq" or fd.is_user or c.spec != fmt:
                    continue
                if fd.repeat and t.primitive is not fd:  # an array's elements as rows are fine
                    continue
                if _references(tree, fd.id) != 1 or text.count(f"- id: {fd.id}\n") != 1:
                    continue
                if integers and not re.match(r"^u[1248](le|be)?$", fd.type):
                    continue
                score = (c.name in read_by_kit, fd.type.startswith("u"))
                if best is None or score > best[0]:
                    best = (score, (t.name, fd.id, fd.type, f"{c.owner}.{fd.id}"))
        if best is not None:
            out.append(best[1])
    return out


CASES = [(fmt, *c) for fmt in FORMATS for c in _candidates(fmt)]
INT_CASES = [(fmt, *_candidates(fmt, integers=True)[0]) for fmt in FORMATS]


def _affected(f, table: str, columns: set[str]) -> tuple[set, set]:
    """Derived columns (closure: derived reading derived) and claims that read the field's columns."""
    derived: set = set()
    reads = {(table, c) for c in columns}
    grew = True
    while grew:
        grew = False
        for d in f.derived:
            if (d.table, d.column) not in derived and reads & set(d.reads):
                derived.add((d.table, d.column))
                reads.add((d.table, d.column))
                grew = True
    claims = {cl.text for cl in f.claims if reads & set(cl.reads)}
    return derived, claims


# formats whose root table has no field a rename could test, and why
NO_ROOT_CASE = {"agg": "its root holds only the entry count, which the spec's expressions use",
                "icn": "its root holds the sprite count and the block size, which the spec's expressions use"}


def test_every_format_has_a_root_and_a_row_table_case():
    for fmt in FORMATS:
        tables = {c[1] for c in CASES if c[0] == fmt}
        assert len(tables) == (1 if fmt in NO_ROOT_CASE else 2), (fmt, tables)
    assert {c[0] for c in INT_CASES} == set(FORMATS)


@pytest.fixture(scope="module")
def old_corpora(samples_dir):
    out = {}
    full = animre.open_corpus(samples_dir, cache=False)
    for fmt in FORMATS:
        ft = full.files  # the files on disk (an archive's members come with it)
        files = [samples_dir / f for f in ft.loc[(ft["format"] == fmt) & ft["ok"] & ft["container"].isna(), "file"]]
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


@pytest.mark.parametrize("fmt,table,field,ktype,where", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_rename_renames_exactly_its_columns(old_corpora, fmt, table, field, ktype, where):
    files, old = old_corpora[fmt]
    text = (KSY_DIR / f"{fmt}.ksy").read_text()
    new_id = f"{field}_renamed"
    edited = text.replace(f"- id: {field}\n", f"- id: {new_id}\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        new = animre.open_corpus(files, cache=False, parsers={fmt: animre.spec.compile_spec(edited)})
    assert len(new.errors) == len(old.errors) == 0
    f = all_formats()[fmt]
    made_from = set(old.columns(table).query("field == @where")["column"])
    assert made_from, where
    affected_derived, affected_claims = _affected(f, table, made_from)
    direct = {(table, c) for c in made_from}
    renamed_any = False
    for t, df in old.tables.items():
        if t == "files":
            continue
        nd = new.tables[t]
        expected = {}
        for c in df.columns:
            if (t, c) in affected_derived:
                continue
            # a type several tables read (PAS4's parm_value) renames its columns in each of them
            made_here = made_from if t == table else set(old.columns(t).query("field == @where")["column"])
            e = _column_word(field).sub(new_id, c) if c in made_here else c
            expected[c] = e
            renamed_any |= e != c
        assert list(nd.columns) == list(expected.values()), t
        new_made = set(new.columns(t).query("field == @where.replace(@field, @new_id)")["column"])
        assert not any(_column_word(field).search(c) for c in new_made), t
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
        if direct & set(cl.reads):
            status = res_new.at[cl.text, "status"]
            assert status.startswith("not testable: field") and f"{table}." in status
            assert status.endswith("not in the spec") and cl.text in set(new.unavailable["name"])
        elif cl.text in affected_claims:  # reads a derived column that reads the field
            assert res_new.at[cl.text, "status"].startswith("not testable: field ")
        else:
            assert res_new.at[cl.text, "status"] == res_old.at[cl.text, "status"], cl.text
            assert res_new.at[cl.text, "holds"] == res_old.at[cl.text, "holds"], cl.text
    for dt, dc in affected_derived:
        u = new.unavailable
        row = u[(u["kind"] == "derived") & (u["table"] == dt) & (u["name"] == dc)]
        assert len(row) == 1 and row["message"].iloc[0].startswith("not testable: field")
    if affected_claims or affected_derived:
        assert any("not testable" in str(w.message) for w in caught)
    # the spec's doc and type travel with the renamed column
    info = new.columns(table).set_index("column")
    for c in made_from:
        e = _column_word(field).sub(new_id, c)
        assert info.at[e, "doc"] == old.columns(table).set_index("column").at[c, "doc"]
        if not e.endswith("_name"):
            assert info.at[e, "type"] == ktype


@pytest.mark.parametrize("fmt,table,field,ktype,where", INT_CASES, ids=[f"{c[0]}-{c[2]}" for c in INT_CASES])
def test_diff_corpora_rename_and_retype_is_one_row(old_corpora, fmt, table, field, ktype, where):
    files, old = old_corpora[fmt]
    text = (KSY_DIR / f"{fmt}.ksy").read_text()
    retyped = "s" + ktype[1:]
    at = text.index(f"- id: {field}\n")
    head, tail = text[:at], text[at:].replace(f"- id: {field}\n", f"- id: {field}_new\n", 1)
    edited = head + tail.replace(f"type: {ktype}\n", f"type: {retyped}\n", 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        new = animre.open_corpus(files, cache=False, parsers={fmt: animre.spec.compile_spec(edited)})
    d = animre.diff_corpora(old, new)
    assert len(d) == 1, d[["table", "field_a", "field_b", "change"]]
    row = d.iloc[0]
    assert row["table"] == table and row["field_a"].endswith("." + field)
    assert row["field_b"].endswith("." + field + "_new")
    assert row["change"].startswith("renamed")
    assert ("retyped" in row["change"]) == (retyped != ktype)
    assert row["n_files"] == old.tables[table]["file"].nunique()


def test_frm_rename_and_u1_to_s1_is_one_row(old_corpora):
    """The issue's experiment: FRM byte 0 renamed to format_version and read as s1."""
    files, old = old_corpora["frm"]
    text = (KSY_DIR / "frm.ksy").read_text()
    edited = text.replace("- id: unknown_magic\n    type: u1\n", "- id: format_version\n    type: s1\n")
    assert edited != text
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        new = animre.open_corpus(files, cache=False, parsers={"frm": animre.spec.compile_spec(edited)})
    d = animre.diff_corpora(old, new)
    assert d[["table", "field_a", "field_b", "change"]].values.tolist() == [
        ["frm", "frm.unknown_magic", "frm.format_version", "renamed, retyped"]]
    assert "format_version" in new.tables["frm"] and "unknown_magic" not in new.tables["frm"]
    assert new.tables["frm"]["format_version"].notna().all()


def test_where_expressions_filter_records_and_refuse_other_code():
    """-animre-where: comparisons, arithmetic, and/or/not and field access; calls and the like are a
    SpecError naming the spec, never run."""
    import types

    from animre.base.errors import SpecError
    from animre.spec.expr import record_filter as _where

    el = types.SimpleNamespace(move_number=12, footer=types.SimpleNamespace(category=3))
    cases = {"_.move_number < 70": True, "move_number >= 70 or footer.category == 3": True,
             "not (_.move_number % 2 == 0)": False, "1 < _.move_number + 1 <= 13": True,
             "_.missing == 1": False, "(_.move_number >> 2) & 1 == 1": True}
    for expr, want in cases.items():
        assert _where(expr, "x.ksy: t.f")(el) is want, expr
    for bad in ("__import__('os')", "_.move_number.__class__()", "[1][0]", "lambda: 1", "_ if 1 else 2",
                "_.__class__ == 1"):
        with pytest.raises(SpecError, match="x.ksy: t.f"):
            _where(bad, "x.ksy: t.f")


def test_value_instances_computed_by_column_equal_the_parsers_properties(samples_dir, real_or_none, monkeypatch):
    """Value instances the flattener computes column-wise (coordinates' bit groups, flag bits, offsets) hold
    the values, types and byte ranges the parser's own properties give, in every sample and real file."""
    import numpy as np

    from animre.formats import detect_format
    from animre.tables import flattener as flat
    from animre.tables.read import read_tables

    files = [p for p in sorted(samples_dir.rglob("*")) if p.is_file() and p.name != "manifest.json"]
    if real_or_none is not None:
        files += [p for p in sorted(real_or_none.rglob("*")) if p.is_file() and p.suffix.lower() != ".md"]

    def tables():
        out = {}
        for p in files:
            data = p.read_bytes()
            fm, _ = detect_format(data[:4096], len(data), p.name)
            if fm is not None:
                try:
                    out[p] = read_tables(data, p.name, fm)
                except Exception as e:  # noqa: BLE001 - a bad file must fail alike both ways
                    out[p] = repr(e)
        return out

    plans = [t for f in FORMATS for t in animre.tables.read.plan_of(all_formats()[f]).tables.values()]
    assert {t.name for t in plans if flat.value_plan(t)} >= {"af_coords", "bk_coords", "mot_tracks"}
    fast = tables()
    monkeypatch.setattr(flat, "value_plan", lambda t: {})
    slow = tables()
    assert fast.keys() == slow.keys() and len(fast) > 100
    for p, chunks in fast.items():
        if isinstance(chunks, str):
            assert chunks == slow[p]
            continue
        for t, c in chunks.items():
            d = slow[p][t]
            for k, v in c.data.items():
                assert list(v) == list(d.data[k]) and [type(x) for x in v] == [type(x) for x in d.data[k]], (p, t, k)
            assert np.array_equal(c.st, d.st) and np.array_equal(c.en, d.en), (p, t)
