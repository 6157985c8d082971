"""The truncated Laplace law (Geng, Ding, Guo, Kumar 2020), declared on its bounded support with the shape a = A/lambda.

Scale lambda, bound A: density e^{-|x|/lambda}/(2 lambda (1 - e^{-A/lambda})) on [-A, A], 0 outside.  In units of the
bound A (t = |x|/A) the support is the rational [0, 1) and g(t) = e^{-a t}, a = A/lambda: ``fhsym.TruncatedLaplace``
(scale lambda, bound A) is the member with scale A and shape a.  A bounded support: the last piece ends at 1.
"""

import sympy as sp

from ..declaration import Declaration, ShapeParameter

t = sp.Symbol("t", positive=True)
KEY = __name__.rsplit(".", 1)[-1]  # the law's key is this module's name (its class's module has it too)
a = sp.Symbol("a", positive=True)

DECLARATION = Declaration(
    name=KEY, display_name="truncated Laplace", t=t, pieces=((sp.exp(-a * t), (0, 1)),), scale="bound",
    shapes=(ShapeParameter(a, domain=(0.0, 1e8), typical=(1e-2, 1e3)),),
    source="truncated Laplace (Geng et al. 2020): density e^{-|x|/lambda}/(2 lambda (1 - e^{-A/lambda})) on "
           "[-A, A]; here in units of A with a = A/lambda")
