"""The proofs of the privacy topic pass (quick subset), and the committed report covers every privacy kernel.

* ``test_quick_privacy_checks_pass`` runs ``python -m proofs --only privacy_profile --quick``
  in-process (same checks and seeds as the full run, fewer random points, the five base regimes
  for the quadrature) and requires every verdict to be PASS.  The full run, ``python -m proofs``,
  writes ``proofs/REPORT.md``.
* ``test_report_mentions_every_privacy_kernel_and_object`` guards the committed report: every
  kernel of ``PROFILE_KERNELS`` and ``LOSS_KERNELS`` and every object of
  ``fhsym.symbolic.privacy.OBJECTS`` has a row.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

from proofs import _harness as H  # noqa: E402
from proofs import privacy_profile  # noqa: E402

REPORT = ROOT / "proofs" / "REPORT.md"


@pytest.fixture(scope="module")
def quick_results():
    checks = [c for c in privacy_profile.topic.checks if c.quick]
    return H.run(checks, quick=True, jobs=1)


@pytest.mark.slow  # the quick proof subset (~10 s)
def test_quick_privacy_checks_pass(quick_results):
    assert len(quick_results) >= 40
    failed = [
        f"{r.key} ({r.obj}, {r.paper}): {r.claim}\n  method: {r.method}\n  worst: {r.worst} {r.where}\n  " + "\n  ".join(r.evidence)
        for r in quick_results
        if r.verdict != H.PASS
    ]
    assert not failed, "failing proofs:\n" + "\n".join(failed)


@pytest.mark.slow  # the quick proof subset (~10 s)
def test_quick_subset_covers_every_kernel_and_case(quick_results):
    from fhsym.symbolic.privacy import LOSS_KERNELS, PROFILE_KERNELS

    objs = {r.obj for r in quick_results}
    assert {k.name for k in PROFILE_KERNELS + LOSS_KERNELS} <= objs
    assert {f"delta_case_{c}" for c in ("i", "ii", "iii", "iv", "v")} <= objs
    names = {r.name for r in quick_results}
    # every kernel has both an identity check and a negative control in the quick subset
    for k in PROFILE_KERNELS + LOSS_KERNELS:
        assert f"kernel_{k.name}" in names and f"control_{k.name}" in names, k.name


@pytest.mark.slow  # the quick proof subset (~10 s)
def test_erratum_checks_are_marked(quick_results):
    declared = {eid for eid, _ in privacy_profile.topic.errata}
    used = {r.erratum for r in quick_results if r.erratum}
    assert used <= declared
    assert "PP1" in used  # eq 15 at nu = -alpha Delta/gamma^2


def test_report_mentions_every_privacy_kernel_and_object():
    from fhsym.symbolic.privacy import LOSS_KERNELS, OBJECTS, PROFILE_KERNELS

    text = REPORT.read_text()
    missing = [k.name for k in PROFILE_KERNELS + LOSS_KERNELS if f"`{k.name}`" not in text]
    missing += [o.name for o in OBJECTS if f"`{o.name}`" not in text]
    assert not missing, f"proofs/REPORT.md has no row for {missing}; run `python -m proofs` and commit the report"
    assert "--only privacy_profile" in text
