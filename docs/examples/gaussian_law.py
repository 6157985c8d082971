"""fhsym's Gaussian law declared through the pipeline (proof that it reproduces the hand-written fhsym.Gaussian)."""

import sympy as sp

import fhsym

t = sp.Symbol("t", positive=True)

TWIN = fhsym.Gaussian  # the hand-written law it must reproduce (proofs/declared.py cross-checks them)

DECLARATION = fhsym.Declaration(name="declared_gaussian", display_name="Gaussian (declared)", t=t,
                                pieces=((sp.exp(-t**2 / 2), (0, sp.oo)),), scale="sigma",
                                source="Gaussian N(0, sigma^2): density e^{-t^2/(2 sigma^2)}/(sigma sqrt(2 pi))")

DeclaredGaussian = fhsym.declare_law(DECLARATION)
