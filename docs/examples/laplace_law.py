"""fhsym's Laplace law declared through the pipeline (proof that it reproduces the hand-written fhsym.Laplace)."""

import sympy as sp

import fhsym

t = sp.Symbol("t", positive=True)

TWIN = fhsym.Laplace  # the hand-written law it must reproduce (proofs/declared.py cross-checks them)

DECLARATION = fhsym.Declaration(name="declared_laplace", display_name="Laplace (declared)", t=t,
                                pieces=((sp.exp(-t), (0, sp.oo)),), scale="beta",
                                source="Laplace L(0, beta): density e^{-|t|/beta}/(2 beta)")

DeclaredLaplace = fhsym.declare_law(DECLARATION)
