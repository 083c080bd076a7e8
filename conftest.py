"""Doctest namespace: the docstring examples run against the bundled sample corpus (``make samples``)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def _doctest_corpus():
    import warnings

    import animre
    from animre.spec.compiler import PROJECT_ROOT

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return animre.open_corpus(PROJECT_ROOT / "data" / "samples", cache=False, progress=False)


@pytest.fixture(autouse=True)
def _doctest_names(request, doctest_namespace):
    """``c`` / ``corpus``: the sample corpus; ``animre`` and its top-level functions."""
    if "doctest" not in request.node.__class__.__name__.lower():
        return
    import animre

    corpus = request.getfixturevalue("_doctest_corpus")
    own = getattr(getattr(request.node, "dtest", None), "globs", {})  # a module's own names win
    names = {**{n: getattr(animre, n) for n in animre.__all__}, "animre": animre, "c": corpus, "corpus": corpus}
    for n, v in names.items():
        if n in own:
            doctest_namespace.pop(n, None)  # the namespace is shared by all doctests
        else:
            doctest_namespace[n] = v
