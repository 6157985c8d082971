"""The Laplace-limit pieces for huge shape b = alpha/gamma > 64 (issue 13): the quick proofs pass.

``proofs/laplace_limit.py`` (quick subset, ~2 s): SymPy proves the cancellation-free rewrites of
eq 9, 11, 12, and the generated float64 functions (``log_kappa_std``, ``variance_of_b``,
``fisher_of_b``, ``nfi_of_b``, ``tail_mass_of_b``, ``FlippedHuber.log_mgf``) agree with mpmath at
50 digits to 1e-12 relative for b in [64, 1e300].  The remainder bounds (~2000-digit checks) run in
the full ``python -m proofs`` (proofs/REPORT.md).
"""

from __future__ import annotations

import numpy as np

import fhsym
from proofs import _harness as H
from proofs import laplace_limit


def test_quick_laplace_limit_proofs_pass():
    checks = [c for c in laplace_limit.topic.checks if c.quick]
    assert {c.name for c in checks} == {"rearranged_forms", "fused_vs_mpmath"}
    results = H.run(checks, quick=True, jobs=1)
    for r in results:
        print(r.key, r.verdict, r.worst, *r.evidence, sep="\n  ")
    assert all(r.verdict == H.PASS for r in results), [(r.key, r.evidence) for r in results if r.verdict != H.PASS]


def test_the_switch_at_b_64_is_continuous():
    # the exact piece at b = 64, the Laplace piece at 64 + 1 ulp (relative step 2.2e-16): the remainders are
    # below 1e-880, so the values differ by the step's effect (Var ~ 2/b^2: 4.4e-16) and rounding only
    lo, hi = 64.0, float(np.nextafter(64.0, 100.0))
    for method in ("var", "nfi", "log_omega"):
        a, b = getattr(fhsym.FlippedHuber(lo, 1.0), method)(), getattr(fhsym.FlippedHuber(hi, 1.0), method)()
        assert abs(a - b) <= 1e-15 * abs(a), (method, a, b)
    a, b = fhsym.FlippedHuber(lo, 1.0).log_mgf(10.0), fhsym.FlippedHuber(hi, 1.0).log_mgf(10.0)
    assert abs(a - b) <= 1e-15 * abs(a)
