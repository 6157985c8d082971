"""What a user's type checker sees of fhsym's public API (checked by mypy, never run).

Listed in ``[tool.mypy] files`` (pyproject.toml), so ``python -m mypy`` (and
``tests/test_typing.py``) fails when a public name's type degrades to ``Any`` or changes:
``assert_type`` is an error unless the inferred type is exactly the one given.  The module is
not a test module and is never imported (nothing here runs).
"""

from __future__ import annotations

from typing import Union

import numpy as np
from typing_extensions import assert_type

import fhsym
from fhsym.calibration.verify import Verdict, Verification, check_certificate

Float = Union[float, np.ndarray]


def _public_api_types() -> None:
    cal = fhsym.calibrate(1.0, 1e-6)
    assert_type(cal, fhsym.Calibration)
    assert_type(cal.variance, float)
    assert_type(cal.std, float)
    assert_type(cal.mechanism, fhsym.NoiseDistribution)
    assert_type(cal.certificate, fhsym.Certificate)
    assert_type(cal.certificate.to_json(), str)
    assert_type(fhsym.Certificate.from_json(cal.certificate.to_json()), fhsym.Certificate)
    assert_type(fhsym.verify_certificate(cal.certificate), Verdict)
    assert_type(check_certificate(cal.certificate).verdict, Verdict)
    assert_type(check_certificate(cal.certificate), Verification)

    fh = fhsym.FlippedHuber(alpha=1.0, gamma=2.0)
    assert_type(fh.var(), float)
    assert_type(fh.epsilon_for_delta(1e-6), Float)
    assert_type(fhsym.privacy_profile(1.0, alpha=1.0, gamma=2.0), Float)
    assert_type(fhsym.Gaussian(sigma=1.0).privacy_profile(1.0), Float)
