"""The proofs of the kdim topic pass (quick subset)."""

from __future__ import annotations


import pytest


from proofs import _harness as H  # noqa: E402
from proofs import kdim  # noqa: E402


@pytest.fixture(scope="module")
def quick_results():
    return H.run([c for c in kdim.topic.checks if c.quick], quick=True, jobs=1)


def test_quick_kdim_checks_pass(quick_results):
    assert len(quick_results) >= 12
    failed = [f"{r.key}: {r.claim}\n  " + "\n  ".join(r.evidence) for r in quick_results if r.verdict != H.PASS]
    assert not failed, "failing proofs:\n" + "\n".join(failed)


def test_errata_are_declared(quick_results):
    declared = {eid for eid, _ in kdim.topic.errata}
    used = {r.erratum for r in quick_results if r.erratum}
    assert used <= declared and {"K1", "K2", "K3", "K4"} <= used
