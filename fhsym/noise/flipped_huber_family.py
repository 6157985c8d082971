"""The flipped Huber family for the calibrator: vectorised profile and variance in standard units.

FH(alpha, gamma^2) with shape b = alpha/gamma and scale gamma: the 1-D profile at sensitivity R is
that of FH(b, 1) at D = R/gamma (eq 13 depends on b and D only) and Var = gamma^2 v(b) (eq 11), so
the calibrator's search runs on the generated kernels ``log_profile_std(eps, b, D, log kappa)`` and
``variance_of_b`` for whole arrays of (b, D) at once.

Corner optima.  For b > 0 the loss has atoms +-b D (t and t + D on one side of the Laplace centre);
at eps = b D (the kink, Table I) the profile falls from the Laplace-like to the Gaussian-tail value, a
cliff where the least-variance shape often sits when delta is small: :meth:`FlippedHuberFamily.kinks`
gives D = eps/b as a bracket seed, and :meth:`FlippedHuberFamily.curves` the curve b = eps/(K D) along
which the K atoms of a K-fold release add up to eps.
"""

from __future__ import annotations

import math
from typing import Callable, Optional, Sequence

import numpy as np

from .._generated import flipped_huber_pieces as KP
from .._generated import privacy_pieces as PP
from .family import Family
from .flipped_huber_profile import log_profile_std

__all__ = ["FlippedHuberFamily"]


class FlippedHuberFamily(Family):
    """:class:`~fhsym.noise.family.Family` of FH(b gamma, gamma^2) with the vectorised kernels."""

    def log_profile(self, eps: float, shapes: np.ndarray, u: np.ndarray, sensitivity: float = 1.0) -> np.ndarray:
        b, D = np.broadcast_arrays(np.asarray(shapes, dtype=float), np.asarray(u, dtype=float))
        with np.errstate(all="ignore"):
            v = log_profile_std(np.float64(eps), b, D, KP.log_kappa_std(b))
        v = np.where(np.isnan(v), np.inf, v)  # NaN (a kernel outside its range) counts as infeasible
        return np.where(D <= 0.0, -np.inf, v)

    def log_profile_point(self, eps: float, shape: float, u: float, sensitivity: float = 1.0) -> float:
        """:meth:`log_profile` at one point: the generated kernels on the scalar namespace (``*_point``)."""
        if 0.0 < u <= 1e150:
            try:
                v = PP.log_profile_std_point(shape, u, eps, KP.log_kappa_std_point(shape))
                return math.inf if v != v else v
            except (ArithmeticError, ValueError):
                pass
        return float(self.log_profile(eps, np.array([shape]), np.array([u]), sensitivity)[0])

    def log_variance_point(self, shape: float) -> float:
        try:
            return math.log(KP.variance_of_b_point(shape, KP.log_kappa_std_point(shape)))
        except (ArithmeticError, ValueError):
            return float(self.log_variance(np.array([shape]))[0])

    #: no last-ulp polish: the float profile is accurate to 1e-9 next to the kink, where optima sit (the ball-arithmetic
    #: certificate decides there), so the search's 1e-12 root is as close as the floats can tell
    polish = False
    #: b >= 7: FH(b gamma, gamma^2) is Laplace(gamma/b) but for the mass beyond |t| = b gamma, e^{-b^2} <= 5e-22 (below
    #: the float PLD's tail mass 1e-18), and its variance is 2 gamma^2/b^2 to that relative accuracy: at one variance
    #: every member with b >= 7 is the same Laplace law as far as a float bound can tell
    limit_shape = 7.0

    def log_variance(self, shapes: np.ndarray) -> np.ndarray:
        b = np.asarray(shapes, dtype=float)
        with np.errstate(all="ignore"):
            return np.log(KP.variance_of_b(b, KP.log_kappa_std(b)))

    def kinks(self, eps: float, shapes: np.ndarray) -> Optional[np.ndarray]:
        b = np.asarray(shapes, dtype=float)
        with np.errstate(divide="ignore"):
            return np.where((b > 0) & (eps > 0), eps / np.where(b > 0, b, 1.0), np.nan)

    def curve_guess(self, eps: float, log_target: float) -> float:
        # on the kink the least-variance b = eps/D grows like 0.6 sqrt(2 log(1/delta)) (b ~ 2.2, 3.2, 3.9 at delta =
        # 1e-3, 1e-6, 1e-9 within ~30 % for eps in [0.1, 5]): a start within one step of the root
        return eps / max(1.0, 0.6 * math.sqrt(max(-2.0 * log_target, 0.0))) if eps > 0 else 1.0

    def curves(self, eps: float, folds: int) -> Sequence[Callable[[float], float]]:
        if eps <= 0:
            return ()
        return (lambda u: eps / (folds * u),)
