"""fhsym.privacy.certify: the arbitrary-precision re-check of a privacy claim at exact float parameters.

Reference: proofs.reference.privacy_profile (mpmath quadrature of the definition), which
shares no code with fhsym.certify (closed-form survival function + bisection of the loss).
"""

import mpmath as mp
import pytest

import fhsym
from fhsym.privacy.certify import certified_profile
from proofs import reference as R

POINTS = [
    (1.0, 1.0, 2.0, 1.0),
    (0.05, 0.1, 1.0, 1.0),
    (0.2, 2.0, 1.0, 1.0),
    (0.6, 0.4, 1.0, 1.0),
    (1.2, 0.7, 1.0, 1.0),
    (7.674816127907644e-4, 65.21939086714883, 1.0, 1.1767690599167292e-05),
    (0.5, 0.0, 1.0, 1e-3),
    (0.0, 2.0, 1.0, 1.0),
]


@pytest.mark.parametrize("eps,a,g,D", POINTS)
def test_certified_profile_matches_quadrature(eps, a, g, D):
    cert = certified_profile(eps, a, g, D)
    ref = R.privacy_profile(eps, a, g, D, dps=60)
    with mp.workdps(60):
        assert cert >= ref * (1 - mp.mpf(10) ** -40)  # an upper bound (to the quadrature's 40 digits) ...
        assert cert <= ref * (1 + mp.mpf(10) ** -18)  # ... and a tight one


def test_certificate_at_a_calibrated_kink():
    """Calibrated optima sit at eps ~ alpha*Delta/gamma^2 where float rounding of alpha/gamma matters:
    the certificate is the quadrature value at the exact floats, not the float kernels' value."""
    cal = fhsym.calibrate(1.0, 1e-15)
    ref = R.privacy_profile(1.0, cal.alpha, cal.gamma, 1.0, dps=60)
    assert ref <= 1e-15
    assert abs(cal.achieved_delta - float(ref)) <= 1e-18 * 1e-15 + 1e-12 * float(ref)


def test_is_private():
    assert fhsym.is_private(1.0, 7e-3, 1.0, 2.0, 1.0)
    assert not fhsym.is_private(1.0, 6e-3, 1.0, 2.0, 1.0)
    with pytest.raises(ValueError, match="delta"):
        fhsym.is_private(1.0, 0.0, 1.0, 2.0)
