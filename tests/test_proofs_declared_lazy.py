"""The declared-law topics (proofs/declared.py) import without deriving their laws (issue 30: verify --quick <= 90 s).

The report's title, the checks and the twin's class are read from each example module's source (``ast``); the module
runs -- ``fhsym.declare_law``, the SymPy derivation -- once per run, in ``Topic.shared`` (a parallel run prepares it in
the parent before the topic's checks fork).  Here: every shipped example is read that way; a module that does not
match what was read makes the checks fail naming the mismatch; a source that does not state its name as literal
keywords falls back to running the module at import; the description is computed on first use.
"""

from __future__ import annotations

import pytest

from proofs import _harness as H
from proofs import declared as PD


def test_every_example_is_read_from_its_source():
    paths = sorted(PD.EXAMPLES.glob("*_law.py"))
    assert len(paths) >= 5
    metas = {p.stem: PD._meta(p) for p in paths}
    assert all(m is not None for m in metas.values()), metas
    assert metas["gaussian_law"] == PD._Meta("declared_gaussian", "Gaussian (declared)", "Gaussian")
    assert metas["osgt_law"] == PD._Meta("declared_osgt", "OSGT (declared)", "OSGT")  # def TWIN(...) -> fhsym.OSGT
    assert metas["logistic_law"] == PD._Meta("logistic", "logistic", None)
    names = {t.name: t for t in PD.topics}
    assert [c.name for c in names["declared_gaussian"].checks][-1] == "twin"
    assert "twin" not in [c.name for c in names["declared_logistic"].checks]


def test_the_module_run_is_checked_against_its_source():
    path = PD.EXAMPLES / "laplace_law.py"
    law = PD._law(path, PD._meta(path))  # the cheapest example: a one-piece law
    assert law.decl.name == "declared_laplace" and law.cls.derivation is law.dv
    with pytest.raises(ValueError, match="declares .* its source was read as"):
        PD._law(path, PD._Meta("declared_laplace", "Laplace (declared)", None))


def test_a_source_without_literal_keywords_is_run_at_import(tmp_path):
    src = (PD.EXAMPLES / "laplace_law.py").read_text()
    assert "name=\"declared_laplace\"" in src
    p = tmp_path / "positional_law.py"
    p.write_text(src.replace('name="declared_laplace", display_name="Laplace (declared)"',
                             'name="declared_laplace", display_name=DISPLAY').replace("import fhsym\n",
                                                                                     "import fhsym\n\nDISPLAY = 'Laplace (declared)'\n"))
    assert PD._meta(p) is None
    t = PD._topic(p)  # runs the module now (the same declaration: declare_law returns the registered class)
    try:
        assert t.title.startswith("Declared law `declared_laplace` (Laplace (declared))")
        assert [c.name for c in t.checks] == ["facts", "sf", "identities", "moments", "profile", "twin"]
    finally:
        del H.TOPICS[t.name]


def test_description_is_computed_on_first_use():
    calls = []
    t = H.Topic("_lazy_description_test", "title")
    try:
        t.describe(lambda: calls.append(1) or "described")
        assert calls == []
        assert t.description == "described" and t.description == "described" and calls == [1]
        assert H.Topic("_plain_description_test", "t", description="given").description == "given"
    finally:
        H.TOPICS.pop("_lazy_description_test", None)
        H.TOPICS.pop("_plain_description_test", None)
