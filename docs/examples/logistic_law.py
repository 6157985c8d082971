"""Bring your own noise law: logistic noise, declared once in SymPy (docs/declare.md).

The logistic law (scale ``s``) has density e^{-|t|/s} / (s (1 + e^{-|t|/s})^2); in standard units
g(t) = e^{-t}/(1 + e^{-t})^2 on t >= 0, which is log-concave (psi'' = 1/(2 cosh^2(t/2)) >= 0).
This module is all the code the law needs: fhsym derives its formulas, proves its facts, prints its
numerics for numpy and arb, and registers it, so that

    fhsym.calibrate(1.0, 1e-6, mechanism="logistic")

returns a certified calibration (re-checked by fhsym.verify_certificate).
"""

import sympy as sp

import fhsym

t = sp.Symbol("t", positive=True)

DECLARATION = fhsym.Declaration(
    name="logistic",
    display_name="logistic",
    t=t,
    pieces=((sp.exp(-t) / (1 + sp.exp(-t)) ** 2, (0, sp.oo)),),
    scale="s",
    source="the logistic distribution (density e^{-t}/(1 + e^{-t})^2, standard units)",
)

Logistic = fhsym.declare_law(DECLARATION)
