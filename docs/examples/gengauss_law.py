"""Bring your own noise law: the generalised Gaussian e^{-|t|^p} at p = 3/2, declared once in SymPy (docs/declare.md).

Its density (scale b) is e^{-|t/b|^{3/2}} / (2 b Gamma(5/3)); in standard units g(t) = e^{-t^{3/2}} on t >= 0, which is
log-concave (psi = t^{3/2}, psi'' = 3/(4 sqrt t) >= 0, psi'(0+) = 0).  Its tail has no elementary form: fhsym derives
sf(t) = Gamma(2/3, t^{3/2}) / (2 Gamma(2/3)) (the incomplete gamma antiderivative of c x^m e^{-a x^p}), proves
d sf/dt = -g/Z and prints it for numpy (scipy.special.gammaincc * gamma) and arb (arb.gamma_upper), so that

    fhsym.calibrate(1.0, 1e-6, mechanism="gengauss")

returns a certified calibration (re-checked by fhsym.verify_certificate).
"""

import sympy as sp

import fhsym

t = sp.Symbol("t", positive=True)

DECLARATION = fhsym.Declaration(
    name="gengauss",
    display_name="generalised Gaussian (p = 3/2)",
    t=t,
    pieces=((sp.exp(-t ** sp.Rational(3, 2)), (0, sp.oo)),),
    scale="b",
    source="the generalised normal distribution (Subbotin 1923) with shape p = 3/2: density e^{-|t|^p}/(2 Gamma(1 + 1/p))",
)

GenGauss = fhsym.declare_law(DECLARATION)
