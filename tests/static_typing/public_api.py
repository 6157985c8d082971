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


def _law_contract() -> None:
    """Every registered law meets the law contract (fhsym.noise.contract): mypy checks the class objects against
    LawClass and the instances against ContinuousLaw / LatticeLaw (an error here: a hook's type drifted)."""
    from fhsym.noise.contract import ContinuousLaw, LatticeLaw, LawClass
    from fhsym.noise.piecewise_uniform import PiecewiseUniform

    classes: list[LawClass] = [fhsym.FlippedHuber, fhsym.Gaussian, fhsym.Laplace, fhsym.TruncatedLaplace,
                               fhsym.Staircase, fhsym.OSGT, PiecewiseUniform, fhsym.DiscreteFlippedHuber]
    laws: list[ContinuousLaw] = [fhsym.FlippedHuber(1.0, 1.0), fhsym.Gaussian(1.0), fhsym.Laplace(1.0),
                                 fhsym.TruncatedLaplace(1.0, 5.0), fhsym.Staircase(1.0, 1.0, 0.3), fhsym.OSGT(1.0, 1.0),
                                 PiecewiseUniform(1.0, [1, 1])]
    lattice: LatticeLaw = fhsym.DiscreteFlippedHuber(1.0, 1.0, 0.5)
    del classes, laws, lattice
