"""The staircase composed through a proven privacy-loss distribution (the frontier's ``staircase_pld``).

Since issue 28 this is a strategy of the one calibrator: :func:`fhsym.calibrate` with ``method="auto"`` tries it
for the staircase on K coordinates and T releases (K T >= 2) beside the pure calibration (basic composition of
pure DP, eps0 = eps / (K T)) and returns the smaller variance; ``method="kfold-pld-sup"`` asks for it alone (plan
``kfold-sup`` of :mod:`fhsym.calibration.plans`).  The staircase's float bound of the composition and its search
are the law's own hook (:meth:`fhsym.Staircase.sup_calibration`, :mod:`fhsym.noise.staircase_composed`, where the
closed form is derived); the result is certified at its exact floats by the claim ``"pld-kfold-sup"``
(:mod:`fhsym.accounting.claims`) and is re-checked by :func:`fhsym.verify_certificate` like every certificate.
This module keeps the names it had: :func:`calibrate_staircase_pld` delegates to :func:`fhsym.calibrate`.

>>> cal = calibrate_staircase_pld(3.0, 1e-6, dim=5)
>>> cal.certificate.claim, cal.achieved_delta <= 1e-6, cal.variance < calibrate_pure(3.0, 1e-6, dim=5).variance
('pld-kfold-sup', True, True)
"""

from __future__ import annotations

from typing import Tuple

from .._core import domains as V
from ..calibration import Calibration, calibrate
from ..noise import Staircase
from ..noise.staircase import staircase_optimal_gamma
from ..noise.staircase_composed import composed_delta, loss_mass
from ..noise.staircase_composed import search as _search

__all__ = ["calibrate_staircase_pld", "calibrate_pure", "composed_delta", "loss_mass", "search", "METHOD"]

#: the calibrator's method key (and the result's ``method``) of the composed staircase
METHOD = "kfold-pld-sup"


def search(epsilon: float, delta: float, folds: int) -> Tuple[float, float]:
    """(eps0, gamma) of least variance with composed_delta <= delta (1 - 1e-6), at Delta = Delta0 = 1 (floats).

    >>> e0, g = search(3.0, 1e-6, 5)
    >>> e0 > 3.0 / 5, composed_delta(e0, g, 3.0, 5) <= 1e-6
    (True, True)
    """
    return _search(epsilon, delta, folds, lambda e, g: Staircase(e, 1.0, g).var(), staircase_optimal_gamma)


def calibrate_staircase_pld(epsilon: float, delta: float, dim: int = 1, compositions: int = 1,
                            sensitivity: float = 1.0) -> Calibration:
    """The staircase on ``dim`` coordinates, ``compositions`` releases, over the box ||d||_inf <= ``sensitivity``,
    certified by the proven PLD of claim ``"pld-kfold-sup"``: ``fhsym.calibrate(..., mechanism="staircase",
    method="kfold-pld-sup")``.  ``dim * compositions >= 2``."""
    V.check_int(dim, "dim", 1)
    V.check_int(compositions, "compositions", 1)
    if dim * compositions < 2:
        raise ValueError(f"dim * compositions must be >= 2 for the composed staircase (one coordinate: its 1-D "
                         f"calibration); got dim = {dim}, compositions = {compositions}")
    return calibrate(epsilon, delta, sensitivity=sensitivity, dim=dim, compositions=compositions,
                     mechanism=Staircase.name, method=METHOD)


def calibrate_pure(epsilon: float, delta: float, dim: int = 1, compositions: int = 1,
                   sensitivity: float = 1.0) -> Calibration:
    """The pure staircase (basic composition), for comparison: ``fhsym.calibrate(..., method="pure")``."""
    return calibrate(epsilon, delta, sensitivity=sensitivity, dim=dim, compositions=compositions,
                     mechanism=Staircase.name, method="pure")
