"""Layer 0: what every other layer stands on.

:mod:`~fhsym._core.domains` (parameter domains, declared once, and the checks that raise
``ValueError``), :mod:`~fhsym._core.numerics` (error-free transformations and the
standard-unit special functions the generated kernels call), :mod:`~fhsym._core.random`
(random-state handling for the float samplers).  Nothing here imports from the rest of fhsym.
"""
