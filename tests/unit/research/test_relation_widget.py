"""The relations widget shows the ranking, the classes and the definitions of research.relations (issue 29, 5)."""

from __future__ import annotations

import pytest

import animre
from animre.base.errors import UsageError
from animre.present import widgets


@pytest.fixture(scope="module")
def view(sample_corpus):
    return widgets.relations_view(sample_corpus, "flc_files")


def test_the_view_shows_the_ranking_classes_and_definitions(view, sample_corpus):
    r = animre.relations(sample_corpus, "flc_files")
    assert view.findings["target"].tolist() == r.loc[r["role"] == "finding", "target"].tolist()
    assert view.findings["score"].is_monotonic_decreasing
    assert view.findings.iloc[0]["target"] == "header.flicanim.anim_time"  # the planted product law first
    classes = view.classes.set_index("member")
    assert classes.at["file_size", "name"] == "header.len_file"
    assert classes.at["num_image_frames", "role"] == "definition"  # computed from header.num_frames
    assert set(view.definitions["target"]) >= {"duration_ms", "num_image_frames"}
    html = view.ranking.value
    assert "finding(s) in flc_files" in html and "header.speed * header.flicanim.anim_length" in html
    assert "header.len_file = file_size" in view.classes_html.value
    assert "animre-relations" in view.widget._dom_classes


def test_picking_a_finding_lists_its_counterexamples(view, sample_corpus, manifest):
    view.select(finding=0)
    planted = manifest["formats"]["flc"]["planted"]["anim_time_exceptions"]
    assert sorted(view.details["file"]) == sorted(planted)
    assert "counterexamples" in view.detail.value
    with pytest.raises(UsageError):
        view.select(finding=len(view.findings))


def test_another_table_and_a_failure_shown_in_the_widget(sample_corpus, monkeypatch):
    v = widgets.relations_view(sample_corpus, "frm")
    assert v.table.value == "frm" and set(v.definitions["target"]) >= {"num_idles"}
    from animre.present.widgets import relations as mod

    def boom(*a, **k):
        raise RuntimeError("planted failure")

    monkeypatch.setattr(mod.research, "relations", boom)
    v.table.value = "flc_files"  # the picker's callback: the failure is shown, nothing escapes
    assert "planted failure" in v.ranking.value
