"""Declared laws, continued (issue 28): the generalised Gaussian e^{-|t|^{3/2}} (an incomplete-gamma tail) and OSGT
declared with its shape theta (the ShapeParameter path), each against 30-digit quadrature of the declared density
(never fhsym's own formulas); OSGT also against the hand-written fhsym.OSGT (code against code) and its calibration.
"""

from __future__ import annotations


import mpmath
import numpy as np
import pytest
import sympy as sp

import fhsym
from fhsym.noise import NOISE_CLASSES

from declared_examples import EXAMPLES, example


@pytest.fixture(scope="module")
def GG():
    """docs/examples/gengauss_law.py, declared on first use (tests/declared_examples.py), not at collection."""
    return example("gengauss")


@pytest.fixture(scope="module")
def OSGT():
    """docs/examples/osgt_law.py, declared on first use."""
    return example("osgt")


#: quadrature breakpoints from 1e-4 on: OSGT at theta = 900 has width ~1/theta near 0
_PTS = [0, 1e-4, 1e-3, 1e-2, 0.1, 1, 4, 16, 64, mpmath.inf]


class REF:
    """30-digit mpmath quadrature of a one-piece declaration's density at scale s and the given shapes."""

    def __init__(self, decl, s, shapes=()):
        sub = dict(zip(decl.shape_symbols, (sp.Float(str(v), 40) for v in shapes)))
        self.g = sp.lambdify(decl.t, decl.pieces[0][0].subs(sub), "mpmath")
        self.s = mpmath.mpf(s)
        with mpmath.workdps(30):
            self.Z = 2 * self._int(lambda v: 1)

    def _int(self, h):  # int_0^oo h g, relative to g(0) (OSGT at theta = 900: g(0) = e^{-405000})
        c = self.g(0)
        return c * mpmath.quad(lambda v: h(v) * self.g(v) / c, _PTS)

    def tail(self, z):  # int_z^oo g / Z, z >= 0, scaled so that mpmath's absolute tolerance keeps far tails' digits
        c = self.g(z)
        return c * mpmath.quad(lambda v: self.g(v) / c, [z + k for k in _PTS[:-1]] + [mpmath.inf]) / self.Z

    def sf(self, x):
        z = mpmath.mpf(x) / self.s
        return self.tail(z) if z >= 0 else 1 - self.tail(-z)

    def var(self):
        return 2 * self._int(lambda v: v * v) / self.Z * self.s**2


def _rel(a, b):
    """Relative error; below the floats (|b| < 1e-300: a tail the double underflows) only a <= 1e-300 is asked."""
    a, b = mpmath.mpf(float(a)), mpmath.mpf(b)
    if abs(b) < 1e-300:
        assert abs(a) <= 1e-300, (a, b)
        return 0.0
    return 0.0 if a == b else float(abs(a - b) / abs(b))


def test_gengauss_derivation_uses_the_incomplete_gamma_tail(GG):
    dv = GG.GenGauss.derivation
    t = GG.t
    assert dv.sf[0] == sp.uppergamma(sp.Rational(2, 3), t ** sp.Rational(3, 2)) / (2 * sp.gamma(sp.Rational(2, 3)))
    assert sp.simplify(sp.diff(dv.sf[0], t) + GG.DECLARATION.pieces[0][0] / dv.Z) == 0  # the rewrite, proven
    assert {f.name: f.status for f in dv.facts} == {"symmetric": "PROVEN", "log-concave": "PROVEN"}
    assert "gammaincc" in GG.GenGauss.kernels.sf[0].source and "uppergamma" in GG.GenGauss.kernels.sf_arb[0].source
    assert len((EXAMPLES / "gengauss_law.py").read_text().splitlines()) <= 60


@pytest.mark.parametrize("s", [0.4, 1.0, 3.0])
def test_gengauss_numerics_against_quadrature(GG, s):
    law, ref = GG.GenGauss(s), REF(GG.DECLARATION, s)
    worst = {}
    with mpmath.workdps(30):
        xs = [-30 * s, -2.1 * s, -0.3 * s, 0.05 * s, 1.0 * s, 6.0 * s, 40.0 * s, 120.0 * s]
        worst["sf"] = max(_rel(law.sf(x), ref.sf(x)) for x in xs)
        worst["logsf"] = max(_rel(law.logsf(x), mpmath.log(ref.sf(x))) for x in xs if x > 0)
        worst["isf"] = max(_rel(ref.sf(law.isf(q)), q) for q in (1e-250, 1e-9, 0.01, 0.3, 0.7))
        worst["var"] = _rel(law.var(), ref.var())
    print(f"\ngengauss b={s}: worst relative error vs 30-digit quadrature: {worst}")
    assert max(worst.values()) < 1e-12


def test_gengauss_calibration_certified_and_its_distance_to_the_optimum(GG):  # GG: "gengauss" registered
    out = []
    for eps, delta in ((1.0, 1e-6), (0.5, 1e-9)):
        cal = fhsym.calibrate(eps, delta, mechanism="gengauss")
        assert cal.achieved_delta <= delta and fhsym.verify_certificate(cal.certificate.to_json())
        enc = cal.mechanism.profile_enclosure(eps, 1.0)
        assert enc.upper == cal.achieved_delta
        opt = fhsym.optimal_variance(eps, delta, bins=8)
        assert cal.variance >= opt.lower
        out.append(f"eps={eps} delta={delta}: b={cal.parameters['b']!r}, variance {cal.variance:.7g}, optimum in "
                   f"[{opt.lower:.7g}, {opt.upper:.7g}], <= {100 * (cal.variance / opt.lower - 1):.4g} % over it")
    print("\n" + "\n".join(out))


def test_osgt_shape_parameter_path(OSGT):
    cls = OSGT.DeclaredOSGT
    assert cls.shape_range == (1e-3, 1e4, False) and [d.name for d in cls.parameter_domains] == ["varrho", "theta"]
    m = cls.from_family(2.5, 1.5)
    assert (m.family_shape, m.family_scale) == (2.5, 1.5) and m == cls(varrho=1.5, theta=2.5)
    with pytest.raises(ValueError, match=r"theta must be a finite real number in \(0, 1e\+08\)"):
        cls(1.0, -1.0)
    with pytest.raises(ValueError, match="missing"):
        cls(1.0)
    assert cls.derivation.facts[1].status == "PROVEN"
    # numerics at shapes across the typical range against quadrature of the declared density
    worst = {}
    with mpmath.workdps(30):
        for theta in (1e-3, 0.7, 20.0, 900.0):
            law, ref = cls(1.3, theta), REF(OSGT.DECLARATION, 1.3, (theta,))
            for x in (-9.0, -0.4, 0.3, 2.0, 11.0):
                worst["sf"] = max(worst.get("sf", 0.0), _rel(law.sf(x), ref.sf(x)))
            worst["var"] = max(worst.get("var", 0.0), _rel(law.var(), ref.var()))
            for q in (1e-200, 1e-6, 0.2):
                worst["isf"] = max(worst.get("isf", 0.0), _rel(ref.sf(law.isf(q)), q))
    print(f"\ndeclared OSGT vs 30-digit quadrature, theta in (1e-3, 0.7, 20, 900): {worst}")
    assert max(worst.values()) < 1e-12


def _twin_worst(OSGT):
    worst = {}
    xs, qs = np.array([-40.0, -3.3, -0.7, 0.2, 1.9, 8.0, 35.0]), np.array([1e-250, 1e-12, 1e-3, 0.2, 0.8])
    for theta in OSGT.TWIN_SHAPES:
        for s in (0.25, 1.0, 3.7):
            a, b = OSGT.DeclaredOSGT(s, theta), OSGT.TWIN(s, theta)
            for k, (u, v) in {"logpdf": (a.logpdf(xs), b.logpdf(xs)), "sf": (a.sf(xs), b.sf(xs)),
                              "isf": (a.isf(qs), b.isf(qs)), "var": (a.var(), b.var()),
                              "profile": (a.privacy_profile([0.01, 0.3, 1.0, 2.0], 1.0),
                                          b.privacy_profile([0.01, 0.3, 1.0, 2.0], 1.0))}.items():
                u, v = np.asarray(u), np.asarray(v)
                m = v > 1e-300
                worst[k] = max(worst.get(k, 0.0), float(np.max(np.abs(u[m] / v[m] - 1), initial=0.0)))
    return worst


def test_osgt_reproduces_hand_written(OSGT):
    worst = _twin_worst(OSGT)
    print(f"\ndeclared OSGT vs fhsym.OSGT (CROSS-CHECK) at theta {OSGT.TWIN_SHAPES}: {worst}")
    assert max(v for k, v in worst.items() if k != "profile") < 1e-12 and worst["profile"] < 1e-10


@pytest.mark.parametrize("eps,delta", [(1.0, 1e-6), (0.1, 1e-6), (3.0, 1e-5)])
def test_osgt_calibration_matches_hand_written(OSGT, eps, delta):
    """The calibrator's scale-family search over the declared shape finds the hand-written OSGT's variance."""
    a = fhsym.calibrate(eps, delta, mechanism="declared_osgt")
    b = fhsym.calibrate(eps, delta, mechanism="osgt")
    assert a.achieved_delta <= delta and fhsym.verify_certificate(a.certificate.to_json())
    print(f"\nOSGT eps={eps} delta={delta}: declared {a.variance!r} (theta {a.parameters['theta']:.6g}), hand-written "
          f"{b.variance!r} (theta {b.parameters['vartheta'] / b.parameters['varrho']:.6g}), relative "
          f"{a.variance / b.variance - 1:.2e}")
    assert abs(a.variance / b.variance - 1) <= 1e-6
    assert NOISE_CLASSES["declared_osgt"] is OSGT.DeclaredOSGT
