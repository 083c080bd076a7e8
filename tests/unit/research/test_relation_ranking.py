"""Relations on planted tables (issue 29): each fact once, no circular evidence, laws ranked by what they explain.

The planted tables are unit libraries like a Civilization III unit folder tree: 29 folders of 6-8 animation
files, ``x_offset = floor(120 - width / 2)`` and ``anim_time = speed * anim_length`` at 92-93% of the files,
``num_chunks = num_frames + 8`` at 95%, beside exact restatements (``height = width``,
``num_frame_chunks = num_chunks``, ``num_frames = 8 * anim_length``), computed columns that restate their
source (``num_image_frames``, ``duration_ms``), a 15-value lookup (``y_offset`` of ``width``) and random
columns.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import animre
from animre.research._relation_columns import make_col
from animre.research._relation_score import score
from animre.research._relations import MIN_SCORE

SIZES = [41, 44, 47, 50, 53, 56, 59, 62, 65, 68, 71, 74, 77, 80, 83]  #: 15 widths (and heights) of the units
COMPUTED = {"num_image_frames": ["num_frames"], "duration_ms": ["speed"]}  #: like the FLC plugin's columns
LAWS = {frozenset(("anim_time", "speed * anim_length")), frozenset(("num_chunks", "num_frames")),
        frozenset(("x_offset", "width"))}


def _broken(rng: np.random.Generator, n: int, rate: float) -> np.ndarray:
    """Exactly ``round(n * (1 - rate))`` rows, at random, that break a law."""
    out = np.zeros(n, dtype=bool)
    out[rng.choice(n, int(round(n * (1 - rate))), replace=False)] = True
    return out


def unit_library(seed: int, n_units: int = 29, law_rate: float = 0.92, product_rate: float = 0.93,
                 noise: int = 4) -> pd.DataFrame:
    """A unit library with the laws, restatements, lookup and random columns of the module doc."""
    rng = np.random.default_rng(seed)
    y_of = {w: int(rng.integers(100, 180)) for w in SIZES}
    per = [int(rng.integers(6, 9)) for _ in range(n_units)]
    n = sum(per)
    bx, ba, bc = _broken(rng, n, law_rate), _broken(rng, n, product_rate), _broken(rng, n, 0.95)
    rows, i = [], 0
    for u in range(n_units):
        w = int(rng.choice(SIZES))
        for f in range(per[u]):
            speed, length = int(rng.integers(40, 161)), int(rng.choice([8, 10, 12, 15]))
            nf = 8 * length
            nc = nf + 8 if not bc[i] else nf + int(rng.integers(9, 20))
            row = {"file": f"unit{u:02d}/anim{f}.flc", "num_frames": nf, "width": w, "height": w, "speed": speed,
                   "anim_length": length,
                   "x_offset": int(np.floor(120 - w / 2)) + (int(rng.choice([-7, -5, -3, 3, 5, 7])) if bx[i] else 0),
                   "y_offset": y_of[w], "anim_time": speed * length if not ba[i] else int(rng.integers(300, 2400)),
                   "num_chunks": nc, "num_frame_chunks": nc, "num_image_frames": nf, "duration_ms": speed}
            row.update({f"noise_{k}": int(rng.integers(0, 256)) for k in range(noise)})
            rows.append(row)
            i += 1
    return pd.DataFrame(rows)


def _random_frame(rng: np.random.Generator, n: int) -> pd.DataFrame:
    return pd.DataFrame({"file": [f"f{i % 7}" for i in range(n)], "r_u8": rng.integers(0, 256, n),
                         "r_u8b": rng.integers(0, 256, n), "r_small": rng.integers(0, 4, n),
                         "r_small2": rng.integers(0, 4, n), "r_bool": rng.random(n) < 0.5,
                         "r_u32": rng.integers(0, 2**32, n), "r_flags": rng.choice([0, 1, 2, 4, 8, 0x10, 3, 0x21], n)})


def _pair(r: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    return r[((r["target"] == a) & (r["source"] == b)) | ((r["target"] == b) & (r["source"] == a))]


# ----------------------------------------------------------------------------- 1. each fact once


def test_equal_and_affine_columns_are_one_class_named_by_the_spec_field():
    df = unit_library(0)
    # a computed copy before the fields in the table's order: the class is still named by a field
    df.insert(1, "width_px2", 2 * df["width"])
    r = animre.relations(None, df, computed={**COMPUTED, "width_px2": ["width"]})
    members = set(r["members"])
    assert "width = height = width_px2" in members
    assert "num_chunks = num_frame_chunks" in members
    assert "num_frames = anim_length = num_image_frames" in members
    same = r[r["role"] != "finding"].set_index("target")
    assert (same.at["height", "source"], same.at["height", "relation"], same.at["height", "role"]) == \
        ("width", "equal", "class")
    assert (same.at["width_px2", "relation"], same.at["width_px2", "parameter"], same.at["width_px2", "role"]) == \
        ("multiple", 2, "definition")  # computed from width: its definition, not a finding
    assert (same.at["anim_length", "relation"], same.at["anim_length", "parameter"]) == ("multiple", 0.125)
    # each member is stated once, against its class's name; no finding names a member that is not the name
    assert not same.index.duplicated().any()
    findings = r[r["role"] == "finding"]
    named = {c for t, s in zip(findings["target"], findings["source"]) for c in [t, *s.split(" * ")]}
    assert not named & {"height", "width_px2", "num_frame_chunks", "num_image_frames"}
    # the law is found once, between the classes (not four times: chunks x frames members)
    law = findings[findings["relation"] == "offset"]
    assert len(law) == 1 and (law.iloc[0]["target"], law.iloc[0]["source"]) == ("num_chunks", "num_frames")
    assert law.iloc[0]["members"] == "num_chunks = num_frame_chunks; num_frames = anim_length = num_image_frames"


def test_columns_of_two_values_form_a_class_only_when_equal():
    rng = np.random.default_rng(2)
    odd = rng.random(120) < 0.2  # one odd file in five: many two-valued columns split the rows alike
    df = pd.DataFrame({"file": [f"u{i % 12}/f{i}" for i in range(120)], "flags": np.where(odd, 3, 0),
                       "creator": np.where(odd, 0x464C4942, 0xF1F1F2F2), "is_anim": ~odd, "is_anim_2": ~odd})
    r = animre.relations(None, df)
    assert set(r.loc[r["role"] == "class", "members"]) == {"is_anim = is_anim_2"}


# ----------------------------------------------------------------------------- 2. no circular evidence


def test_a_derived_column_never_testifies_about_its_source_nor_its_class():
    rng = np.random.default_rng(4)
    n = 180
    speed = rng.integers(40, 160, n)
    df = pd.DataFrame({"file": [f"u{i % 20}/f{i}.flc" for i in range(n)], "speed": speed, "speed_copy": speed,
                       "length": rng.choice([8, 10, 12, 15], n)})
    df["duration_ms"] = np.where(rng.random(n) < 0.95, df["speed"], df["speed"] + 3)  # computed from speed
    df["frames_ms"] = df["duration_ms"] * df["length"]  # computed from the computed column
    df["sibling"] = df["speed"] // 4  # computed from speed too: no evidence about duration_ms either
    computed = {"duration_ms": ["speed"], "frames_ms": ["duration_ms", "length"], "sibling": ["speed"]}
    r = animre.relations(None, df, computed=computed)
    findings = r[r["role"] == "finding"]
    reads = {"duration_ms": {"speed", "speed_copy"}, "frames_ms": {"duration_ms", "length", "speed", "speed_copy"},
             "sibling": {"speed", "speed_copy"}}
    for t, s in zip(findings["target"], findings["source"]):
        cols = {t, *s.split(" * ")}
        for c, used in reads.items():
            assert not (c in cols and cols & used), (t, s)
        assert not {"duration_ms", "frames_ms", "sibling"} <= cols
    # the derived column that restates its source is listed under its definition, with its exceptions
    d = _pair(r, "duration_ms", "speed")
    assert list(d["role"]) == ["definition"] and d.iloc[0]["relation"] == "equal"
    assert len(d.iloc[0]["counterexamples"]) == int(d.iloc[0]["n_rows"] - d.iloc[0]["n_agree"]) > 0
    assert list(_pair(r, "sibling", "speed")["role"]) == ["definition"]
    assert r.loc[r["role"] == "class", "members"].tolist() == ["speed = speed_copy"]
    roles = r["role"].tolist()
    assert roles == sorted(roles, key=["finding", "class", "definition"].index)


def test_the_corpus_knows_what_derived_columns_read(sample_corpus):
    r = animre.relations(sample_corpus, "flc_files")
    findings = r[r["role"] == "finding"]
    # num_image_frames counts frames by header.num_frames, duration_ms is header.speed in ms
    for computed, source in (("num_image_frames", "header.num_frames"), ("duration_ms", "header.speed")):
        assert findings[findings["target"].eq(computed) | findings["source"].str.contains(computed)].empty
        row = _pair(r, computed, source)
        assert list(row["role"]) == ["definition"], row
    assert "header.len_file = file_size" in set(r.loc[r["role"] == "class", "members"])


# ----------------------------------------------------------------------------- 3. ranking


def test_a_law_at_92_percent_ranks_first_beside_restatements_and_a_lookup():
    df = unit_library(7)[["file", "width", "height", "x_offset", "y_offset", "num_frames", "num_image_frames",
                          "speed", "duration_ms", "num_chunks", "num_frame_chunks"]]
    df = df.assign(num_chunks=df["num_frames"] + 8, num_frame_chunks=df["num_frames"] + 8)  # exact restatements
    df["width_px2"] = 2 * df["width"]
    support = (df["x_offset"] == np.floor(120 - df["width"] / 2)).mean()
    assert 0.9 <= support <= 0.93 and df.groupby("width")["y_offset"].nunique().max() == 1  # y: a lookup of width
    r = animre.relations(None, df, computed={**COMPUTED, "width_px2": ["width"]})
    best = r.iloc[0]
    assert (best["target"], best["source"], best["relation"], best["parameter"]) == \
        ("x_offset", "width", "linear", "k=-0.5, c=120, floor")
    assert best["support"] == support and best["members"] == "width = height = width_px2"
    assert len(best["counterexamples"]) == int(best["n_rows"] - best["n_agree"])
    # the lookup, if listed at all, ranks below the law; no restatement is a finding
    lookups = r[(r["target"] == "y_offset") & r["relation"].isin(["functional", "one_to_one"])]
    assert all(i > 0 for i in lookups.index)
    findings = r[r["role"] == "finding"]
    for a, b in (("height", "width"), ("num_image_frames", "num_frames"), ("duration_ms", "speed"),
                 ("num_chunks", "num_frames"), ("num_frame_chunks", "num_chunks"), ("width_px2", "width")):
        assert _pair(findings, a, b).empty, (a, b)
    assert r["score"].iloc[: len(findings)].is_monotonic_decreasing


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_planted_laws_rank_first_in_unit_libraries(seed):
    r = animre.relations(None, unit_library(seed), computed=COMPUTED)
    top = {frozenset((t, s)) for t, s in zip(r["target"].head(3), r["source"].head(3))}
    assert top == LAWS, r.head(5)
    assert (r["role"].head(3) == "finding").all()
    assert not r["target"].str.startswith("noise").any() and not r["source"].str.contains("noise").any()


def test_a_lookup_costs_its_entries_a_law_its_constants():
    """The formula of the docstring on one table: 29 groups, x a law of w in 27, y a 15-value lookup of w."""
    rng = np.random.default_rng(1)
    w = rng.choice(SIZES, 29)
    x = np.floor(120 - w / 2).astype(int)
    x[:2] += 5
    y = np.array([SIZES.index(v) * 7 + 100 for v in w])
    gid = np.arange(29)
    cw, cx, cy = make_col(pd.Series(w), "w"), make_col(pd.Series(x), "x"), make_col(pd.Series(y), "y")
    rows = np.ones(29, dtype=bool)
    law = {"relation": "linear", "source": "w", "_rows": rows, "_agree": x == np.floor(120 - w / 2), "_t": cx,
           "_s": cw}
    lookup = {"relation": "functional", "source": "w", "_rows": rows, "_agree": rows, "_t": cy, "_s": cw}
    info_x = -np.log2(pd.Series(x).map(pd.Series(x).value_counts(normalize=True)).to_numpy())
    expected = info_x[2:].sum() - 2 * 0.5 * np.log2(29) - np.log2(29 * 28 / 2)
    assert score(law, gid, {}) == pytest.approx(expected)
    # the lookup explains y in every group, but pays for each of its entries (and its unseen-twice values)
    assert score(lookup, gid, {}) < score(law, gid, {})


def test_min_score_is_chosen_on_tuning_seeds_and_holds_on_held_out_seeds():
    """MIN_SCORE, the bits a finding must save, separates the planted laws from everything else.

    Tuning seeds 0-2 (below): with no threshold, no finding besides the planted laws and the planted lookup
    saves any bit, and every planted law saves at least 8; MIN_SCORE = 0 (the description-length break-even)
    was chosen there. Checked here on held-out seeds 3-6 and, in the other tests, on the planted corpora of
    tests/unit/research/test_research.py and test_evidence.py (laws over 3-8 folders save 2-30 bits).
    """
    def labelled(seeds):
        out = []
        for s in seeds:
            for df, comp in ((unit_library(s), COMPUTED), (unit_library(s, n_units=8, noise=8), COMPUTED),
                             (unit_library(s, n_units=60, law_rate=0.91, product_rate=0.91, noise=6), COMPUTED),
                             (_random_frame(np.random.default_rng(100 + s), 60), None),
                             (_random_frame(np.random.default_rng(200 + s), 400), None)):
                r = animre.relations(None, df, computed=comp, min_score=-np.inf)
                for f in r[r["role"] == "finding"].itertuples():
                    kind = "law" if frozenset((f.target, f.source)) in LAWS else \
                        "lookup" if {f.target, f.source} == {"y_offset", "width"} and "when" not in f.relation \
                        else "other"
                    out.append((kind, f.score))
        return out

    for seeds in ((0, 1, 2), (3, 4, 5, 6)):
        found = labelled(seeds)
        laws = [s for k, s in found if k == "law"]
        other = [s for k, s in found if k == "other"]
        assert len(laws) == 3 * 3 * len(seeds), seeds
        assert min(laws) > 8 > MIN_SCORE >= max(other, default=-np.inf), (seeds, sorted(other)[-3:])


# ----------------------------------------------------------------------------- conditional laws and links


def _records(seed: int = 0, n_files: int = 30) -> pd.DataFrame:
    """Records with an offset: ``ref_offset == ofs_data`` when ``format == 0x40``, else another record's."""
    rng = np.random.default_rng(seed)
    rows = []
    for f in range(n_files):
        n = int(rng.integers(5, 12))
        ofs = np.sort(rng.choice(np.arange(64, 60000, 4), n, replace=False))
        for i in range(n):
            fmt = int(rng.choice([0x40, 0x10, 0x20], p=[0.4, 0.3, 0.3]))
            rows.append({"file": f"f{f:02d}.bin", "format": fmt, "ofs_data": int(ofs[i]),
                         "ref_offset": int(ofs[i]) if fmt == 0x40 else int(rng.choice(ofs)),
                         "palette": int(rng.integers(0, n)), "noise": int(rng.integers(0, 60000))})
    return pd.DataFrame(rows)


def test_conditional_laws_and_links_across_rows_are_ranked_with_the_rest():
    df = _records()
    r = animre.relations(None, df)
    got = {(f.target, f.source, f.relation, f.parameter) for f in r.itertuples()}
    assert ("ref_offset", "ofs_data", "one_of", "one of the file's ofs_data") in got
    assert ("ref_offset", "ofs_data", "equal_when", "format == 64") in got
    assert ("palette", "rows_in_file", "index_of", "a row of this table in the same file") in got
    cond = r[r["relation"] == "equal_when"].iloc[0]
    assert cond["support"] == 1.0 and cond["n_rows"] == (df["format"] == 0x40).sum()
    assert r["score"].is_monotonic_decreasing and not r["target"].eq("noise").any()
    assert not r["source"].eq("noise").any()
    # a value that is merely small is no index: shuffled across files it stays one
    df["small"] = np.random.default_rng(1).integers(0, 3, len(df))
    assert r.pipe(lambda _: animre.relations(None, df)).query("target == 'small'").empty


def test_random_columns_still_find_nothing():
    for seed in range(3):
        for n in (12, 60, 400):
            r = animre.relations(None, _random_frame(np.random.default_rng(seed), n))
            assert r.empty, r.drop(columns="counterexamples").to_string()


# ----------------------------------------------------------------------------- real files


def test_real_civ3_files_list_facts_before_classes_and_definitions(realdata):
    c = animre.open_corpus(realdata / "flic" / "civ3", cache=False, progress=False)
    r = animre.relations(c, "flc_files")
    roles = r["role"].tolist()
    assert roles == sorted(roles, key=["finding", "class", "definition"].index)
    row = _pair(r, "duration_ms", "header.speed")
    assert list(row["role"]) == ["definition"]  # the plugin computes it from header.speed
    assert "header.len_file = file_size" in set(r["members"])
    assert _pair(r[r["role"] == "finding"], "num_image_frames", "header.num_frames").empty
