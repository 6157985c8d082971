"""Noise on a lattice step*Z: the base of the laws with exact (integer-only) samplers.

A :class:`LatticeNoise` is a :class:`~fhsym.noise.parametrised.Parametrised` law whose values are
multiples of its ``step``: a query of sensitivity S steps gets the claim ``"profile-lattice"`` (its
exact lattice profile in ball arithmetic, :meth:`lattice_profile_enclosure`); its calibration family
(:meth:`family`) keeps the step fixed and searches the shape alpha/gamma and the scale gamma.  It is not
a :class:`~fhsym.NoiseDistribution` (no density): its distribution methods are pmf-based.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar, Dict, Optional, Tuple, Type

import numpy as np

from .family import Family
from .parametrised import Parametrised

__all__ = ["LatticeNoise", "LatticeFamily"]


class LatticeNoise(Parametrised):
    """Base of the laws on step*Z (the discrete flipped Huber)."""

    lattice: ClassVar[bool] = True
    step: float

    def lattice_profile_enclosure(self, epsilon: float, sensitivity: Any) -> Tuple[float, float, int]:
        """(lower, upper, S): a proven enclosure of delta(epsilon) at a sensitivity of S = sensitivity/step steps."""
        raise NotImplementedError  # pragma: no cover - every law defines it

    def _log_profile_steps(self, epsilon: float, steps: int, search: bool = False) -> float:
        """log delta(epsilon) at ``steps`` lattice steps from the float kernels; ``search=True``: the calibrator's
        search, which may trade accuracy (a stated relative error, :attr:`search_rtol`) for speed; the scale it finds
        is then polished to the last ulp against the public profile and certified in ball arithmetic."""
        raise NotImplementedError  # pragma: no cover

    @classmethod
    def lattice_steps(cls, sensitivity: Any, step: float) -> int:
        """The sensitivity as a whole number of steps (``ValueError`` if it is not one)."""
        raise NotImplementedError  # pragma: no cover

    @classmethod
    def from_family(cls, shape: float, scale: float, step: float) -> "LatticeNoise":
        raise NotImplementedError  # pragma: no cover

    def var(self) -> float:
        """The variance (the calibration family's objective)."""
        raise NotImplementedError  # pragma: no cover

    @classmethod
    def family(cls, step: float = math.nan, **options: Any) -> "LatticeFamily":
        """The calibration family at lattice spacing ``step`` (required): shape alpha/gamma, scale gamma."""
        if options:
            raise ValueError(f"mechanism {cls.name!r} takes the option step only; got {sorted(options)[0]}=...")
        if math.isnan(step):
            raise ValueError(f"mechanism {cls.name!r} needs step=h > 0 (the lattice spacing of the noise)")
        return LatticeFamily(cls, step)


class LatticeFamily(Family):
    """Shape b = alpha/gamma and scale gamma at a fixed lattice ``step`` (the profile is monotone in gamma)."""

    scale_family = False  # the step is fixed: the profile and the variance are not those of a scale family
    cls: Type[LatticeNoise]

    def __init__(self, cls: Type[LatticeNoise], step: float) -> None:
        super().__init__(cls, (1e-3, 1e2, True))
        self.step = cls.from_family(0.0, 1.0, step).step  # validated by the law's constructor
        self._steps: Dict[float, Optional[int]] = {}  # sensitivity -> its lattice steps (None: not a multiple)

    def steps_at(self, sensitivity: float) -> Optional[int]:
        """``cls.lattice_steps(sensitivity, step)``, once per sensitivity (a search asks at every point); None
        where that raises ``ValueError``."""
        if sensitivity not in self._steps:
            try:
                self._steps[sensitivity] = self.cls.lattice_steps(sensitivity, self.step)
            except ValueError:
                self._steps[sensitivity] = None
        return self._steps[sensitivity]

    def make(self, shape: float, scale: float) -> LatticeNoise:
        return self.cls.from_family(shape, scale, self.step)

    def _log_profile_one(self, eps: float, shape: float, u: float, sensitivity: float) -> float:
        if not (0.0 < u < math.inf):
            return -math.inf if u == 0.0 else math.inf
        steps = self.steps_at(sensitivity)
        if steps is None:
            return math.inf
        try:
            noise = self.make(shape, sensitivity / u)
            return noise._log_profile_steps(eps, steps, search=True)
        except (ValueError, FloatingPointError, OverflowError):
            return math.inf

    def objective(self, shapes: np.ndarray, u: np.ndarray, sensitivity: float) -> np.ndarray:
        """log (Var / sensitivity^2) of the members (shape, sensitivity/u) themselves (the step is fixed: not a scale
        family, so the variance is not scale^2 v(shape))."""
        shapes, u = np.broadcast_arrays(np.asarray(shapes, dtype=float), np.asarray(u, dtype=float))
        out = np.full(shapes.shape, np.inf)
        for idx in np.ndindex(shapes.shape):
            if 0 < u[idx] < math.inf:
                try:
                    out[idx] = math.log(self.make(float(shapes[idx]), sensitivity / float(u[idx])).var()) \
                        - 2.0 * math.log(sensitivity)
                except ValueError:
                    pass
        return out
