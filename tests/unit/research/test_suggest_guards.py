"""Suggestions worth reading (issue 29, point 7), on a planted format of one's own.

The spec ``my_spec.ksy`` declares ``meta/id: planted_fmt`` (a researcher's spec, named otherwise than its
id); 48 files in 8 folders hold a constant ``version``, three codes ``kind``, a mostly zero ``coord`` with a
``coord_b`` that is zero where it is (one pair of values in several files makes ``coord_b = 0.551282 *
coord`` hold in 92% of the files: chance), flags built from three independent bits, and a mostly zero
``unknown_pos`` whose values use two bits each (it looks like flags, but no bit is ever switched alone).
"""

from __future__ import annotations

import difflib
import shutil
import struct
import warnings

import numpy as np
import pytest
import yaml

import animre
from animre.base.errors import UsageError
from animre.research._suggest_fields import toggling_bits
from animre.spec.compiler import KSY_DIR
from animre.spec.patch import patch_text

SPEC = """meta:
  id: planted_fmt
  title: A planted format
  file-extension: plf
  endian: le
seq:
- id: magic
  contents: [0x50, 0x4c]
- id: version   # the same in every file
  type: u2
- id: kind      # three codes
  type: u1
- id: coord     # a mostly zero coordinate
  type: u2
- id: coord_b   # zero where coord is, else a value of its own
  type: u2
- id: unknown_flags
  type: u1
- id: unknown_pos   # mostly zero, a few positions
  type: u2
- id: speed
  type: u2
- id: ofs_end
  type: u4
"""


def _write(folder, seed: int = 0, n_units: int = 8, per: int = 6) -> None:
    rng = np.random.default_rng(seed)
    for u in range(n_units):
        d = folder / f"unit{u}"
        d.mkdir(parents=True, exist_ok=True)
        for f in range(per):
            kind = int(rng.choice([1, 2, 3]))
            if rng.random() < 0.9:
                c = cb = 0
            elif rng.random() < 0.8:
                c, cb = 78, 43  # one pair in several files: the ratio 43/78 that the zeros make look like a law
            else:
                c, cb = int(rng.choice([3, 5, 6, 12, 24, 48])), int(rng.integers(1, 500))
            flags = int(rng.random() < 0.4) | int(rng.random() < 0.3) << 2 | int(rng.random() < 0.5) << 4
            pos = 0 if rng.random() < 0.6 else int(rng.choice([3, 5, 10, 12, 17, 40]))
            body = struct.pack("<HBHHBHH", 3, kind, c, cb, flags, pos, int(rng.integers(40, 160)))
            (d / f"a{f}.plf").write_bytes(b"PL" + body + struct.pack("<I", len(body) + 6))


def _open(folder, spec):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return animre.open_corpus(folder, specs=[spec], cache=False, progress=False)


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    root = tmp_path_factory.mktemp("planted_fmt")
    _write(root / "data")
    spec = root / "specs" / "my_spec.ksy"
    spec.parent.mkdir()
    spec.write_text(SPEC)
    c = _open(root / "data", spec)
    return root, spec, c, animre.suggest(c, spec=spec)


def _rows(s, field, kind=None):
    return s[(s["field"] == field) & ((s["kind"] == kind) if kind else True)]


def test_suggest_finds_a_spec_by_its_id(planted):
    _, spec, c, s = planted
    assert set(c.tables) == {"files", "planted_fmt"}
    assert len(s) >= 4 and set(s["spec"]) == {"planted_fmt"}
    by_id = animre.suggest(c, spec="planted_fmt")
    assert by_id[["field", "kind", "suggestion"]].values.tolist() == s[["field", "kind", "suggestion"]].values.tolist()
    assert _rows(s, "version", "valid").iloc[0]["edit"]["set"] == {"valid": 3}


def test_suggest_says_why_it_found_nothing(planted, tmp_path):
    root, spec, c, _ = planted
    with pytest.raises(UsageError, match=r"no field of spec 'frm'.*planted_fmt"):
        animre.suggest(c, spec=KSY_DIR / "frm.ksy")
    with pytest.raises(UsageError, match="no field of spec 'no_such_spec'"):
        animre.suggest(c, spec="no_such_spec")
    few = tmp_path / "few"
    for f in sorted((root / "data" / "unit0").iterdir())[:3]:
        (few / "unit0").mkdir(parents=True, exist_ok=True)
        shutil.copy(f, few / "unit0" / f.name)
    known = tmp_path / "known.ksy"  # no unknown_* field: nothing gets even a doc line
    known.write_text(SPEC.replace("unknown_", "field_"))
    c3 = _open(few, known)
    with pytest.warns(UserWarning, match="3 independent files"):
        s = animre.suggest(c3, spec=known)
    assert s.empty and "fewer than the min_files=5" in s.attrs["why"]


def test_one_proposal_per_field(planted):
    *_, s = planted
    constraints = s[s["kind"].isin(["valid", "enum", "flags"])]
    assert not constraints.duplicated(["spec", "type", "field"]).any()
    docs = s[s["kind"].isin(["rename", "relation", "doc"])]
    assert not docs.duplicated(["spec", "type", "field"]).any()
    kind = _rows(s, "kind")
    assert kind["kind"].tolist() == ["valid"] and kind.iloc[0]["edit"]["set"] == {"valid": {"any-of": [1, 2, 3]}}


def test_a_coefficient_fitted_on_mostly_zero_columns_is_chance(planted):
    _, _, c, s = planted
    df = c.tables["planted_fmt"]
    k = df["coord_b"] == 43 / 78 * df["coord"]
    assert k.mean() >= 0.9 and (k & (df["coord"] != 0)).sum() >= 3  # the zeros agree with any coefficient
    r = animre.relations(c, "planted_fmt", min_support=0.85, min_score=-np.inf)
    pair = r[r["target"].isin(["coord", "coord_b"]) & r["source"].isin(["coord", "coord_b"])]
    assert not pair["parameter"].map(lambda p: isinstance(p, float) and abs(p - 43 / 78) < 1e-6).any()
    assert (pair["score"] < 8).all()  # whatever the pair shows explains almost nothing
    assert _rows(s, "coord_b", "relation").empty and not s["suggestion"].str.contains("0.55").any()


def test_flags_only_where_bits_switch_alone(planted):
    _, _, c, s = planted
    prof = animre.profile(c, "planted_fmt").set_index("column")
    assert "LOOKS_LIKE_FLAGS" in prof.at["unknown_pos", "alerts"]  # the profile alone would split it into bits
    assert _rows(s, "unknown_pos", "flags").empty
    flags = _rows(s, "unknown_flags", "flags").iloc[0]
    assert sorted(v["value"] for v in flags["edit"]["instances"].values()) == \
        sorted(f"(unknown_flags & {m}) != 0" for m in ("0x1", "0x4", "0x10"))
    import pandas as pd

    assert toggling_bits(pd.Series({0: 9, 2: 2, 6: 2, 1: 1})) == {0x2, 0x4}  # 1: in one file only


def test_the_patch_touches_only_the_lines_it_changes(planted, tmp_path):
    _, spec, c, s = planted
    assert animre.suggest_patch(s.iloc[:0], spec) == ""  # no suggestion, no change
    assert patch_text(SPEC, [])[0] == SPEC
    patch = animre.suggest_patch(s, spec)
    new, _ = patch_text(SPEC, animre.spec.patch.edits_of(s))
    old_lines, new_lines = SPEC.splitlines(), new.splitlines()
    for op, i1, i2, _, _ in difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False).get_opcodes():
        assert op in ("equal", "insert"), (op, old_lines[i1:i2])  # every line of the spec stays as written
    assert "- id: version   # the same in every file" in new_lines and "  valid: 3" in new_lines
    assert patch.count("\n-") == patch.count("\n---")  # the diff removes nothing
    doc = yaml.safe_load(new)
    assert {f["id"]: f.get("valid") for f in doc["seq"]}["version"] == 3
    # and it is adopted whole: it compiles and every file still parses (no enum beside an any-of)
    mine = tmp_path / "my_spec.ksy"
    shutil.copy(spec, mine)
    result = animre.apply_suggestions(s, mine, c)
    assert result.ok and result.withdrawn.empty, (result.problems, result.withdrawn)
