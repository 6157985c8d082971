"""fhsym.OSGT on its generated numerics (issue 28): logpdf, sf, logsf from fhsym/_generated/declared/osgt.py.

References: 40-digit mpmath quadrature of the density e^{-(|x|/varrho + theta)^2/2} (normalised by quadrature), never
the code under test; shapes over the typical range theta in {0} U [1e-3, 1e4], far tails included.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

import fhsym
from fhsym._generated.declared import osgt as gen


def _tail(u, th):
    """int_u^oo e^{-(v + th)^2/2} dv by quadrature (v = u + w, the factor e^{-(u + th)^2/2} taken out)."""
    s = u + th
    pts = [mpmath.mpf(0)] + [mpmath.mpf(c) / (s + 1) for c in (0.01, 0.1, 1, 10, 100)] + [mpmath.inf]
    return mpmath.exp(-s * s / 2) * mpmath.quad(lambda w: mpmath.exp(-s * w - w * w / 2), pts)


@pytest.mark.parametrize("theta", [0.0, 1e-3, 0.7, 3.7, 20.0, 40.0, 1e3, 1e4])
@pytest.mark.parametrize("varrho", [1.0, 0.3])
def test_logpdf_sf_logsf_against_quadrature(theta, varrho):
    law = fhsym.OSGT(theta * varrho, varrho)
    scale = 1.0 / (theta + 1.0)
    us = np.array([0.0, 1e-8, 1e-3, 0.1, 1.0, 5.0, 30.0, 200.0, 2e3, 3.5e4]) * scale
    xs = us * varrho
    worst = dict.fromkeys(("logpdf", "sf", "logsf", "cdf"), 0.0)  # printed: docs/declare.md states them
    with mpmath.workdps(40):
        th = mpmath.mpf(theta)
        i0 = _tail(mpmath.mpf(0), th)
        for x, u, lp, s, ls, sn in zip(xs, us, law.logpdf(xs), law.sf(xs), law.logsf(xs), law.sf(-xs)):
            um = mpmath.mpf(u)
            ref_lp = -(um + th) ** 2 / 2 - mpmath.log(2 * i0 * varrho)
            worst["logpdf"] = max(worst["logpdf"], abs(lp - float(ref_lp)) / max(1.0, abs(float(ref_lp))))
            assert abs(lp - float(ref_lp)) <= 4e-15 * max(1.0, abs(float(ref_lp))), (x, lp, ref_lp)
            ref_sf = _tail(um, th) / (2 * i0)
            lr = float(mpmath.log(ref_sf))
            worst["logsf"] = max(worst["logsf"], abs(ls - lr) / max(1.0, abs(lr)))
            worst["cdf"] = max(worst["cdf"], abs(sn - float(1 - ref_sf)))
            assert abs(ls - float(mpmath.log(ref_sf))) <= 4e-15 * max(1.0, abs(float(mpmath.log(ref_sf)))), (x, ls)
            if ref_sf > 1e-300:
                worst["sf"] = max(worst["sf"], abs(float(s / ref_sf - 1)))
                assert abs(s / float(ref_sf) - 1) < 1e-13, (x, s, ref_sf)
            assert abs(sn - float(1 - ref_sf)) <= 1e-15, (x, sn)
    print(f"\nOSGT(theta={theta}, varrho={varrho}) vs 40-digit quadrature, worst error (logpdf, logsf relative to "
          f"max(1, |ref|); sf relative; sf(-x) = cdf(x) absolute): " + ", ".join(f"{k} {v:.2g}" for k, v in worst.items()))


def test_sf_is_the_generated_erfc_ratio_near_0_and_exp_log_sf_beyond():
    law = fhsym.OSGT(0.5, 1.0)
    u = np.array([0.1, 1.0, 1.5])  # u + theta <= 2
    assert np.array_equal(law.sf(u), gen.sf_0(u, 0.5))
    v = np.array([2.0, 9.0, 40.0])
    assert np.array_equal(law.sf(v), np.exp(gen.logsf_0(v, 0.5)))
    assert np.array_equal(law.logsf(v), gen.logsf_0(v, 0.5))
    big = fhsym.OSGT(1e4, 1.0)  # both erfc tails underflow: the erfc ratio would be nan
    assert np.all(np.isfinite(big.sf(np.array([0.0, 1e-4, 1e-2])))) and big.sf(np.array([0.0]))[0] == 0.5
    assert fhsym.OSGT(0.0, 1.0).logpdf(np.array([np.inf]))[0] == -np.inf  # inf * 0 in the printed form
