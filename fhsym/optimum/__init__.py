"""The certified optimum of additive noise in one dimension: ``lower <= V*(eps, delta, Delta) <= upper``.

:func:`optimal_variance` (also ``fhsym.optimal_variance``) returns an :class:`OptimumInterval`;
:func:`calibrate_piecewise_uniform` the noise at its upper end.  Modules: :mod:`.lp` (the
quantised-output linear program), :mod:`.solve` (HiGHS), :mod:`.dual` (the exact weak-duality
check), :mod:`.transport` (a dual written down at large eps), :mod:`.primal` (the private piecewise-uniform
noise), :mod:`.api`, :mod:`.recorded` (the
bounds recorded in ``data/optimum_bounds.json``).  Method and proofs: ``docs/optimum.md``.
"""

from .api import OptimumInterval, calibrate_piecewise_uniform, optimal_variance
from .dual import DualCertificate

__all__ = ["OptimumInterval", "optimal_variance", "calibrate_piecewise_uniform", "DualCertificate"]
