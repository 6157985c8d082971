"""Noise families as the calibrator sees them: a shape times a scale, more scale is more noise.

A :class:`Family` is what :mod:`fhsym.calibration.calibrator` searches over.  For a law whose
privacy depends on the parameters only through (shape, sensitivity/scale) -- every continuous law of
fhsym: ``make(shape, scale)`` is the member, its 1-D profile at sensitivity R is that of
``make(shape, 1)`` at R/scale, and its variance is scale^2 times that of ``make(shape, 1)`` -- the
least scale at a given shape is one monotone root in u = R/scale (the profile grows with the
sensitivity: Lemma 11 of the paper for flipped Huber, likewise for every log-concave law and for the
staircase), and the optimum is a 1-D search over the shape of

    F(shape) = log v(shape) - 2 log u*(shape),    v(shape) = Var make(shape, 1).

The base class evaluates ``log_profile`` and ``log_variance`` one member at a time; a law with
vectorised kernels overrides them (flipped Huber), so the search evaluates hundreds of (shape, u)
pairs in one call.  ``kinks`` name the u at which the profile falls steeply (a root finder would only
bisect there), and ``curves`` the shape-versus-u curves along which optima sit when the feasible set
has a corner (flipped Huber: the kink eps = b u).
"""

from __future__ import annotations

import functools
import math
from typing import Any, Callable, Optional, Sequence, Tuple

import numpy as np

__all__ = ["Family", "ScaleFamily"]


class Family:
    """A noise family for the calibrator: shapes, scales, and the float profile the search uses.

    ``cls`` is the noise law; ``shape_range`` (low, high, include 0) the shapes scanned (None: no
    shape); :meth:`make` builds a member; :meth:`log_profile` is log delta(eps) of ``make(shape, 1)``
    at sensitivities ``u`` (arrays broadcast together; -inf where delta = 0, +inf where it is not
    finite); :meth:`log_variance` is log Var ``make(shape, 1)``.
    """

    #: the calibrator polishes the scale to the last ulp against the members' public float profile
    polish: bool = True
    #: the privacy of make(shape, scale) depends on sensitivity/scale only and its variance is scale^2 v(shape): the
    #: 1-D search may then compare shapes by one profile evaluation each (:func:`fhsym.calibration.search.search_1d`)
    scale_family: bool = True
    #: the shape from which on every member is one law at a given variance to within float accuracy (its limit: a
    #: K-fold search evaluates one shape past it and skips the others, :func:`fhsym.calibration.search_kfold.search_kfold`);
    #: None: no such shape is known
    limit_shape: Optional[float] = None
    #: the searches scan shapes one point at a time (:meth:`log_profile_point` is a cheap scalar form and
    #: :meth:`log_profile` a loop over it); otherwise all shapes at once through :meth:`log_profile`
    point_search: bool = False

    def __init__(self, cls: Any, shape_range: Optional[Tuple[float, float, bool]] = None) -> None:
        self.cls = cls
        self.shape_range = shape_range

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.cls.__name__})"

    @property
    def name(self) -> str:
        return str(self.cls.name)

    def make(self, shape: float, scale: float) -> Any:
        """The member of the family with this shape and scale."""
        return self.cls.from_family(shape, scale)

    def shapes(self, points: int) -> np.ndarray:
        """The shapes of a scan: ``points`` on a log grid over ``shape_range`` (and 0), or [0] without shapes."""
        if self.shape_range is None:
            return np.zeros(1)
        lo, hi, zero = self.shape_range
        grid = np.geomspace(lo, hi, points)
        return np.concatenate([[0.0], grid]) if zero else grid

    def log_profile(self, eps: float, shapes: np.ndarray, u: np.ndarray, sensitivity: float) -> np.ndarray:
        """log delta(eps) of the member (shape, sensitivity/u) at ``sensitivity``, elementwise: for a scale family
        that of make(shape, 1) at u (+inf where unknown, never NaN)."""
        shapes, u = np.broadcast_arrays(np.asarray(shapes, dtype=float), np.asarray(u, dtype=float))
        out = np.empty(shapes.shape)
        for idx in np.ndindex(shapes.shape):
            out[idx] = self._log_profile_one(eps, float(shapes[idx]), float(u[idx]), sensitivity)
        return out

    def _log_profile_one(self, eps: float, shape: float, u: float, sensitivity: float) -> float:
        if not (0.0 < u < math.inf):
            return -math.inf if u == 0.0 else math.inf
        try:
            d = float(self.make(shape, 1.0).privacy_profile(eps, u))
        except (ValueError, FloatingPointError):
            return math.inf
        return math.log(d) if d > 0.0 else -math.inf

    def log_profile_point(self, eps: float, shape: float, u: float, sensitivity: float) -> float:
        """:meth:`log_profile` at one point of floats (the searches' one-point path; a law with a scalar form is
        faster here than through arrays)."""
        return float(self.log_profile(eps, np.array([shape]), np.array([u]), sensitivity)[0])

    def log_variance_point(self, shape: float) -> float:
        """:meth:`log_variance` of one shape."""
        return float(self.log_variance(np.array([shape]))[0])

    def profile_members(self, eps: float, shapes: np.ndarray, scales: np.ndarray, sensitivity: float) -> np.ndarray:
        """delta(eps) of the members make(shape, scale) themselves at ``sensitivity`` (the floats a calibration
        returns, their public profile with its every rounding), elementwise: for the last-ulp polish of the scale
        (inf where the member does not exist)."""
        shapes, scales = np.broadcast_arrays(np.asarray(shapes, dtype=float), np.asarray(scales, dtype=float))
        out = np.empty(shapes.shape)
        for idx in np.ndindex(shapes.shape):
            try:
                out[idx] = float(self.make(float(shapes[idx]), float(scales[idx])).privacy_profile(eps, sensitivity))
            except (ValueError, FloatingPointError):
                out[idx] = math.inf
        return out

    def log_variance(self, shapes: np.ndarray) -> np.ndarray:
        """log Var make(shape, 1) for each shape (+inf where it is not a finite positive number)."""
        shapes = np.asarray(shapes, dtype=float)
        out = np.empty(shapes.shape)
        for idx in np.ndindex(shapes.shape):
            try:
                out[idx] = math.log(self.make(float(shapes[idx]), 1.0).var())
            except ValueError:
                out[idx] = math.inf
        return out

    def objective(self, shapes: np.ndarray, u: np.ndarray, sensitivity: float) -> np.ndarray:
        """log (Var / sensitivity^2) of the members (shape, sensitivity/u): log v(shape) - 2 log u for a scale family
        (+inf where no u is feasible or the variance is not finite)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            F = self.log_variance(shapes) - 2.0 * np.log(u)
        return np.where((np.asarray(u) > 0) & np.isfinite(F), F, np.inf)

    def kinks(self, eps: float, shapes: np.ndarray) -> Optional[np.ndarray]:
        """u at which the profile of make(shape, 1) falls steeply (a bracket seed for the root), or None."""
        return None

    def curves(self, eps: float, folds: int) -> Sequence[Callable[[float], float]]:
        """Functions u -> shape along which corner optima sit (tried besides the shape scan)."""
        return ()

    def kink_lines(self, eps: float) -> Sequence[float]:
        """Values of u, the same for every shape, where the profile falls steeply and corner optima sit."""
        return ()

    def curve_guess(self, eps: float, log_target: float) -> float:
        """Where the root along :meth:`curves` likely is (the start of its bracket walk; any positive u is valid)."""
        return 1.0


@functools.lru_cache(maxsize=4096)
def _unit_log_variance(cls: Any, shape: float) -> float:
    """log Var cls.from_family(shape, 1): ScaleFamily.log_variance, remembered per (law, shape)."""
    return float(Family.log_variance(ScaleFamily(cls), np.array([shape]))[0])


class ScaleFamily(Family):
    """:class:`Family` of a law from its class hooks (``shape_range`` unless given, ``from_family``,
    ``unit_loss_atom``, ``unit_corner_curves``, and ``unit_log_profile`` where the law has a scalar form of its
    profile).

    ``cls.unit_log_profile(eps, shape, u)``, if the law defines it, is log delta(eps) of make(shape, 1) at
    sensitivity u for one point of floats, without checks (it may raise ``ArithmeticError`` or ``ValueError``
    where a float overflows: the member's public profile then answers).
    """

    def __init__(self, cls: Any, shape_range: Optional[Tuple[float, float, bool]] = None) -> None:
        super().__init__(cls, shape_range if shape_range is not None else getattr(cls, "shape_range", None))
        self._unit = getattr(cls, "unit_log_profile", None)
        self.point_search = self._unit is not None

    def curves(self, eps: float, folds: int) -> Sequence[Callable[[float], float]]:
        # a law's corner curves in standard units (``unit_corner_curves``), as OSGT's case switch
        hook = getattr(self.cls, "unit_corner_curves", None)
        return hook(eps, folds) if hook is not None else ()

    def log_profile_point(self, eps: float, shape: float, u: float, sensitivity: float) -> float:
        if self._unit is not None and 0.0 < u < math.inf:
            try:
                v = float(self._unit(eps, shape, u))
                return math.inf if v != v else v
            except (ArithmeticError, ValueError):
                pass
        return self._log_profile_one(eps, shape, u, sensitivity)

    def log_profile(self, eps: float, shapes: np.ndarray, u: np.ndarray, sensitivity: float) -> np.ndarray:
        shapes, u = np.broadcast_arrays(np.asarray(shapes, dtype=float), np.asarray(u, dtype=float))
        out = np.empty(shapes.shape)
        for idx in np.ndindex(shapes.shape):
            out[idx] = self.log_profile_point(eps, float(shapes[idx]), float(u[idx]), sensitivity)
        return out

    def log_variance(self, shapes: np.ndarray) -> np.ndarray:
        # log Var make(shape, 1) depends on the law and the shape only: remembered per (law, shape) (the scan's and the
        # zoom's shapes recur from call to call; one variance can cost ~70 us, OSGT's moment ratios)
        shapes = np.asarray(shapes, dtype=float)
        out = np.empty(shapes.shape)
        for idx in np.ndindex(shapes.shape):
            out[idx] = _unit_log_variance(self.cls, float(shapes[idx]))
        return out

    def kinks(self, eps: float, shapes: np.ndarray) -> Optional[np.ndarray]:
        # a loss atom u (the atom of the member (shape, 1) at sensitivity u is u): the profile falls steeply where the
        # atom reaches eps, u = eps; or the law's own (``unit_kinks``)
        hook = getattr(self.cls, "unit_kinks", None)
        if hook is not None:
            kinks: Optional[np.ndarray] = hook(eps, np.asarray(shapes, dtype=float))
            return kinks
        if not getattr(self.cls, "unit_loss_atom", False) or not eps > 0:
            return None
        return np.full(np.shape(shapes), float(eps))

    def kink_lines(self, eps: float) -> Sequence[float]:
        return (float(eps),) if getattr(self.cls, "unit_loss_atom", False) and eps > 0 else ()
