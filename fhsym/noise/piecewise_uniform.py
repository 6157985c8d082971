"""Piecewise-uniform noise on a lattice of bins: the primal of the optimum linear program (:mod:`fhsym.optimum`).

Formula
-------
Width ``w > 0`` and non-negative integer weights ``n_0, ..., n_M`` (not all 0).  Bin ``k``
(``|k| <= M``) is ``[(k - 1/2) w, (k + 1/2) w)`` for ``k >= 0`` and its mirror image ``((k - 1/2) w, (k + 1/2) w]``
for ``k < 0`` (the density is a function of ``|x|``: at ``x = -w/2`` it is ``q_1``); it holds probability
``q_k = n_|k| / N``, ``N = n_0 + 2 (n_1 + ... + n_M)`` (exact normalisation), spread uniformly, so

    g(t) = q_k / w   for t in bin k,          T = w K + U,  P(K = k) = q_k,  U ~ Uniform[-w/2, w/2),

(``g`` is evaluated at ``|t|``, so for ``k < 0`` the bin is closed on the right instead: a null set)
    Var(T) = w^2 (sum_k q_k k^2 + 1/12),
    E[T^n] = w^n sum_k q_k ((k + 1/2)^(n+1) - (k - 1/2)^(n+1)) / (n + 1),

and at any shift ``d = (j + theta) w`` (integer ``j >= 0``, ``theta`` in ``[0, 1)``) the profile is
(proof in :mod:`fhsym.noise.plans.piecewise_uniform` and ``docs/optimum.md``)

    delta(eps; d) = (1 - theta) D_j + theta D_{j+1},     D_j = sum_k [q_k - e^eps q_{k+j}]_+.

It is piecewise linear in ``d`` and need not increase with ``d``: the guarantee for every
``|f(D) - f(D')| <= Delta`` is ``sup_{0 < d <= Delta} delta(eps; d)``, given by
:meth:`PiecewiseUniform.sup_privacy_profile` (floats) and
:meth:`PiecewiseUniform.certified_sup_profile` (proven, exact rational arithmetic).

Declared once (issue 28): ``fhsym/symbolic/laws/piecewise_uniform.py`` declares the law as unit cells with the
weights as data (:mod:`fhsym.symbolic.cells`); logpdf, sf, ``P(0 < T <= x)``, the in-cell quantile, the per-cell
moment integral, the entropy per cell, the profile's deficit terms and its interpolation are printed from the derived
forms into ``fhsym/_generated/declared/piecewise_uniform.py`` and run here (``python -m proofs --only
step_piecewise_uniform``).  This class keeps the exact partial sums of the weights (tails, heads), the cell lookup and
the exact-rational certificate (:mod:`fhsym.noise.plans.piecewise_uniform`).

Exact representation: the parameters are one float (the width) and a tuple of Python integers
(the weights), so ``parameters`` is JSON-able as it is and :meth:`from_parameters` rebuilds the
identical distribution; variance and moments are computed in exact rationals and rounded once.

Float accuracy of the profile: each term ``q_k - e^eps q_{k+j}`` is formed in binary64, so a pair
with ``q_k ~ e^eps q_{k+j}`` (the LP's optimum has many) keeps an absolute error ~1e-17 ``q_k``.
Measured on the 12 noises of ``fhsym/optimum/data`` at ``d`` in {0.37, 0.5, 1}: relative error at most
4.9e-9 (where delta ~ 1e-8; absolute 3.9e-17).  Guarantees use the exact bounds
(:meth:`PiecewiseUniform.certified_sup_profile`).

Sources: the staircase (Geng & Viswanath, IEEE Trans. Inf. Theory 62(2), 2016) is the special
case of two weight levels per period; the piecewise-uniform laws here come from the linear
program of :mod:`fhsym.optimum`.
"""

from __future__ import annotations

import math
import functools
from fractions import Fraction
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

import numpy as np

from .._core.types import FloatArray
from .._generated.declared import piecewise_uniform as _gen
from .._core.arb import Enclosure
from .plans.piecewise_uniform import check_weights, profile_bounds, sup_profile_bounds, sup_profile_terms
from .._core.limits import BASE_BYTES, TERM_SECONDS, Cost
from .._core.domains import Domain, check_scalar
from .base import NoiseDistribution


@functools.lru_cache(maxsize=1 << 14)
def _moment_cell(n: int, k: int) -> Fraction:
    """The generated cell integral ``c_n(k)`` (an exact rational), memoised: the same (n, k) recur in every law."""
    return Fraction(_gen.moment_cell(n, k))

__all__ = ["PiecewiseUniform", "piecewise_uniform_profile"]

WIDTH = Domain("width", 0.0, math.inf, typical=(0.1, 1.0))
WEIGHTS = Domain("weights", 0.0, math.inf, closed_lower=True, typical=(1.0, 8.0))  # (element range: integers)

_CHUNK = 1 << 20  # elements of the eps x bins matrix per block of the profile


def piecewise_uniform_profile(eps: FloatArray, d: float, width: float, q: FloatArray) -> FloatArray:
    """delta(eps; d) for bin masses ``q`` (float array over k = -M..M, symmetric), no validation."""
    eps = np.asarray(eps, dtype=float)
    M = (len(q) - 1) // 2
    u = d / width
    if not u <= 2 * M + 1:  # disjoint supports (also d/width = inf)
        return np.ones(eps.shape)
    j = math.floor(u)
    theta = u - j
    out = _deficit(eps, q, M, j)
    if theta > 0.0:
        out = _gen.profile(theta, out, _deficit(eps, q, M, j + 1))
    return out


def _deficit(eps: FloatArray, q: FloatArray, M: int, j: int) -> FloatArray:
    """D_j(eps) = sum_k [q_k - e^eps q_{k+j}]_+ (vectorised in eps)."""
    if j == 0:
        return np.zeros(eps.shape)
    if j > 2 * M:
        return np.ones(eps.shape)
    shifted = np.zeros_like(q)
    shifted[: len(q) - j] = q[j:]  # shifted[k] = q[k + j]
    free = float(q[shifted == 0.0].sum())  # terms without a partner: [q_k]_+ exactly
    qa, sa = q[shifted > 0.0], shifted[shifted > 0.0]
    flat = eps.reshape(-1)
    res = np.empty(flat.shape)
    step = max(1, _CHUNK // max(1, len(qa)))
    for s in range(0, len(flat), step):
        e = np.exp(flat[s:s + step])[:, None]
        with np.errstate(over="ignore", invalid="ignore"):
            t = _gen.deficit_term(qa[None, :], sa[None, :], e)
        res[s:s + step] = t.sum(axis=1) + free
    return res.reshape(eps.shape)


class PiecewiseUniform(NoiseDistribution):
    """Additive noise with a piecewise-constant density on bins of width ``width``.

    Parameters
    ----------
    width : float in (0, inf)
        The bin width ``w``; bin ``k >= 0`` is ``[(k - 1/2) w, (k + 1/2) w)``, bin ``-k`` its mirror image.
    weights : sequence of non-negative integers ``n_0, ..., n_M``, not all 0
        Bin ``k`` holds probability ``n_|k| / N``, ``N = n_0 + 2 (n_1 + ... + n_M)``.

    Notes
    -----
    Formulas in the module docstring: variance ``w^2 (sum_k q_k k^2 + 1/12)``, profile
    ``(1 - theta) D_j + theta D_{j+1}`` at ``d = (j + theta) w``.  This is the noise at the
    upper end of :func:`fhsym.optimal_variance`.

    Examples
    --------
    >>> pu = PiecewiseUniform(width=0.5, weights=[2, 1])     # masses 1/4, 1/2, 1/4 on [-3/4, 3/4)
    >>> pu.var(), float(pu.cdf(0.25)), float(pu.pdf(0.0)), pu.support()
    (0.14583333333333334, 0.75, 1.0, (-0.75, 0.75))
    >>> f"{pu.privacy_profile(0.5, 0.5):.12f}"                 # D_1 = 3/4 - e^(1/2)/4
    '0.337819682325'
    """

    name = "piecewise_uniform"
    display_name = "piecewise uniform"
    parameter_domains = (WIDTH, WEIGHTS)
    broadcast_parameters = False  # the weights are one vector parameter
    log_concave = False  # a step density whose profile need not increase with the shift
    solver_calibrated = True  # calibrated by the linear program of fhsym.optimum (fhsym.calibration.plans.SOLVER)
    calibration_methods = ("auto", "exact")

    def __new__(cls, *args: Any, **kwargs: Any) -> "PiecewiseUniform":
        # the weights are one vector parameter, never a broadcast array of distributions
        return object.__new__(cls)

    def __init__(self, width: float, weights: Sequence[int]) -> None:
        self.width = check_scalar(width, WIDTH)
        self.weights: Tuple[int, ...] = check_weights(weights)
        n = self.weights
        self._total = n[0] + 2 * sum(n[1:])
        M = len(n) - 1
        self._top = max(k for k in range(M + 1) if n[k] > 0)  # the outermost bin with mass
        N = self._total
        self._q = np.array([float(Fraction(v, N)) for v in n])
        # tails S_k = sum_{i >= k} q_i, exactly, then rounded
        tails, acc = [0] * (M + 2), 0
        for k in range(M, -1, -1):
            acc += n[k]
            tails[k] = acc
        self._tail = np.array([float(Fraction(v, N)) for v in tails])  # index k: S_k; S_{M+1} = 0
        # below B_k = P(0 < T < (k - 1/2) w) = q_0/2 + q_1 + ... + q_(k-1) (k >= 1), exactly, then rounded
        below, head = [Fraction(0)] * (M + 1), Fraction(n[0], 2)
        for k in range(1, M + 1):
            below[k] = head
            head += n[k]
        self._below = np.array([float(v / N) for v in below])
        with np.errstate(divide="ignore"):
            self._logdens = _gen.logpdf(self._q, self.width)
        self._full = np.concatenate([self._q[:0:-1], self._q])  # k = -M..M

    # ------------------------------------------------------------ identity
    @classmethod
    def typical_parameters(cls, rng: np.random.Generator) -> Dict[str, Any]:
        """The width from its typical range, and 4 integer weights from theirs (``WEIGHTS.typical``: the range of an
        element), non-increasing from the centre bin.

        >>> p = PiecewiseUniform.typical_parameters(np.random.default_rng(0))
        >>> len(p["weights"]), all(1 <= w <= 8 for w in p["weights"])
        (4, True)
        """
        lo, hi = WIDTH.typical or (1.0, 1.0)
        wlo, whi = WEIGHTS.typical or (1.0, 1.0)
        weights = sorted((int(rng.integers(int(wlo), int(whi) + 1)) for _ in range(4)), reverse=True)
        return {"width": float(np.exp(rng.uniform(np.log(lo), np.log(hi)))), "weights": weights}

    @classmethod
    def from_parameters(cls, parameters: Mapping[str, Any]) -> "PiecewiseUniform":
        """``PiecewiseUniform(width, weights)`` from ``{'width': float, 'weights': integers}`` (``ValueError`` otherwise).

        >>> PiecewiseUniform.from_parameters({"width": 0.5, "weights": [2, 1]}) == PiecewiseUniform(0.5, (2, 1))
        True
        """
        if not isinstance(parameters, Mapping) or sorted(parameters) != ["weights", "width"]:
            got = sorted(parameters) if isinstance(parameters, Mapping) else parameters
            raise ValueError(f"PiecewiseUniform takes parameters ['width', 'weights']; got {got!r}")
        return cls(parameters["width"], parameters["weights"])

    @property
    def parameters(self) -> Dict[str, Any]:
        """``{'width': w, 'weights': (n_0, ..., n_M)}``: JSON-able, exact (a float and integers)."""
        return {"width": self.width, "weights": self.weights}

    def __repr__(self) -> str:
        return (f"PiecewiseUniform(width={self.width!r}, weights=<{len(self.weights)} integers, "
                f"bins |k| <= {self._top}>)")

    @property
    def masses(self) -> Tuple[Fraction, ...]:
        """The exact bin probabilities ``q_0, ..., q_M`` (each bin ``k`` and ``-k`` holds ``q_|k|``)."""
        return tuple(Fraction(v, self._total) for v in self.weights)

    def exact_variance(self) -> Fraction:
        """The variance as an exact rational: ``w^2 (sum_k q_k k^2 + 1/12)`` at the exact float width.

        >>> PiecewiseUniform(0.5, [2, 1]).exact_variance()
        Fraction(7, 48)
        """
        w = Fraction(self.width)
        return w * w * self._exact_moment_std(2)

    def _exact_moment_std(self, n: int) -> Fraction:
        """``E[T^n]`` in units of the width, exactly: ``sum_|k|<=M q_|k| c_n(k)``, ``c_n(k)`` the generated integral of
        ``t^n`` over cell k (``c_n(-k) = c_n(k)`` for even n)."""
        memo: Dict[int, Fraction] = self.__dict__.setdefault("_exact_moments", {})  # the weights are a fixed tuple
        if n not in memo:
            total = Fraction(0)
            for k, v in enumerate(self.weights):
                if v:
                    total += (1 if k == 0 else 2) * v * _moment_cell(n, k)
            memo[n] = total / self._total
        return memo[n]

    def support(self) -> Tuple[float, float]:
        """``(-(M' + 1/2) w, (M' + 1/2) w)``, ``M'`` the outermost bin with positive weight."""
        h = (self._top + 0.5) * self.width
        return (-h, h)

    # ------------------------------------------------------------ kernels
    def _bin(self, a: FloatArray) -> FloatArray:
        """The bin index floor(a + 1/2) of |x|/w = a >= 0, as float (may exceed M)."""
        return np.floor(a + 0.5)

    def _logpdf(self, x: FloatArray) -> FloatArray:
        a = np.abs(x) / self.width
        k = self._bin(a)
        inside = k <= len(self.weights) - 1
        idx = np.where(inside, k, 0).astype(np.intp)
        return np.where(inside, self._logdens[idx], -np.inf)

    def _half_mass(self, x: FloatArray) -> FloatArray:
        # P(0 < T <= x), x >= 0: q_0 a for a < 1/2; q_0/2 + C_{k-1} + q_k (a - k + 1/2) in bin k >= 1
        a = np.abs(np.asarray(x, dtype=float)) / self.width
        k = self._bin(a)
        M = len(self.weights) - 1
        inside = k <= M
        ki = np.where(inside, k, 0).astype(np.intp)
        val = np.where(ki == 0, _gen.half_0(a, self._q[0]), _gen.half(a - ki + 0.5, self._q[ki], self._below[ki]))
        return np.where(inside, val, 0.5)

    def _sf(self, x: FloatArray) -> FloatArray:
        a = np.abs(x) / self.width
        k = self._bin(a)
        M = len(self.weights) - 1
        inside = k <= M
        ki = np.where(inside, k, 0).astype(np.intp)
        upper = _gen.sf(ki + 0.5 - a, self._q[ki], self._tail[ki + 1])  # P(T > |x|)
        upper = np.where(inside, upper, 0.0)
        return np.where(x >= 0, upper, 0.5 + np.asarray(self._half_mass(a * self.width)))

    def _isf(self, p: FloatArray) -> FloatArray:
        p = np.asarray(p, dtype=float)
        lower_half = p <= 0.5
        r = np.where(lower_half, p, 1.0 - p)  # isf(p) = -isf(1 - p)
        tails = self._tail[1:]  # S_1 >= S_2 >= ... >= S_{M+1} = 0
        k = np.searchsorted(-tails, -r, side="left")  # number of S_i (i >= 1) strictly above r
        k = np.minimum(k, len(self.weights) - 1)
        qk = self._q[k]
        with np.errstate(divide="ignore", invalid="ignore"):
            frac = np.where(qk > 0, _gen.isf(r, qk, self._tail[k + 1]), 0.0)
        x = (k + 0.5 - np.clip(frac, 0.0, k + 0.5)) * self.width
        out: FloatArray = np.where(lower_half, x, -x)
        return out

    def _var(self) -> float:
        return float(self.exact_variance())

    def _moment(self, n: int) -> float:
        return float(self._exact_moment_std(n) * Fraction(self.width) ** n)

    def _entropy(self) -> float:
        q = self._q[self._q > 0]
        mult = np.where(np.arange(len(self._q))[self._q > 0] == 0, 1.0, 2.0)
        return float((mult * _gen.entropy_cell(q, self.width)).sum())

    def _profile(self, eps: FloatArray, d: float) -> FloatArray:
        return piecewise_uniform_profile(eps, d, self.width, self._full)

    def _privacy_loss(self, t: FloatArray, d: FloatArray) -> FloatArray:
        a, b = self._logpdf(t), self._logpdf(t + d)
        with np.errstate(invalid="ignore"):
            out = a - b
        # outside both supports the loss is undefined; 0 by convention (the law never puts mass there)
        return np.where(np.isneginf(a) & np.isneginf(b), 0.0, out)

    def _precise_view(self, digits: Optional[int], bits: Optional[int], ball: bool) -> Any:
        from .precise_steps import PiecewiseUniformAtPrecision  # at_precision's view of this law (issue 29)

        return PiecewiseUniformAtPrecision(self, digits, bits=bits, ball=ball)

    def _kinks(self) -> Tuple[float, ...]:
        return tuple((k + 0.5) * self.width for k in range(self._top + 1))

    # ------------------------------------------------------------ privacy over a range of shifts
    def sup_privacy_profile(self, epsilon: float, sensitivity: float = 1.0) -> float:
        """``sup_{0 < d <= Delta} delta(eps; d)`` (floats): the largest lattice value ``D_j``, ``j w <= Delta``, or delta at Delta.

        Two bumps (mass 1/2 on each of the bins k = -1, 1): the shift d = 2 maps one onto the
        other, d = 1 separates them completely.

        >>> pu = PiecewiseUniform(1.0, [0, 1])
        >>> pu.sup_privacy_profile(0.5, 2.0), float(pu.privacy_profile(0.5, 2.0))
        (1.0, 0.5)
        """
        eps = check_scalar(epsilon, Domain("epsilon", 0.0, math.inf, closed_lower=True))
        Delta = check_scalar(sensitivity, Domain("sensitivity", 0.0, math.inf))
        u = Delta / self.width
        J = math.floor(u) if u <= 2 * len(self.weights) else 2 * len(self.weights)
        vals = [float(self.privacy_profile(eps, Delta))]
        for j in range(1, min(J, 2 * len(self.weights) - 1) + 1):
            vals.append(float(self.privacy_profile(eps, j * self.width)))
        return max(vals)

    def certified_sup_profile(self, epsilon: float, sensitivity: float = 1.0) -> float:
        """A proven upper bound on ``sup_{0 < d <= Delta} delta(eps; d)`` at the exact parameters.

        Exact rational arithmetic with a ball enclosure of ``e^eps``
        (:func:`fhsym.noise.plans.piecewise_uniform.sup_profile_bounds`), rounded up to a float.

        >>> PiecewiseUniform(1.0, [1]).certified_sup_profile(0.0, 0.5)     # uniform: TV distance 1/2
        0.5
        """
        return sup_profile_bounds(self.width, self.weights, epsilon, sensitivity)[1]

    def profile_enclosure(self, epsilon: float, sensitivity: float = 1.0) -> Enclosure:  # type: ignore[override]  # exact: no ball options
        """A proven enclosure of delta(eps; Delta) at the one shift ``Delta``, in exact rationals
        (:func:`fhsym.noise.plans.piecewise_uniform.profile_bounds`; the ball options of the base class do not apply).

        >>> e = PiecewiseUniform(0.5, [2, 1]).profile_enclosure(0.5, 0.5)
        >>> e.lower <= 0.75 - math.exp(0.5) / 4 <= e.upper
        True
        """
        lo, hi = profile_bounds(self.width, self.weights, epsilon, sensitivity)
        return Enclosure(lo, hi, "", 0, "exact rational arithmetic (a ball enclosure of e^eps) at the shift Delta")

    def worst_profile_enclosure(self, epsilon: float, sensitivity: float = 1.0) -> Enclosure:
        """The proven enclosure of ``sup_{0 < d <= Delta} delta(eps; d)`` (:meth:`certified_sup_profile`'s bounds).

        >>> e = PiecewiseUniform(1.0, [1]).worst_profile_enclosure(0.0, 0.5)
        >>> e.lower, e.upper
        (0.5, 0.5)
        """
        lo, hi = sup_profile_bounds(self.width, self.weights, epsilon, sensitivity)
        return Enclosure(lo, hi, "", 0, "exact rational arithmetic (a ball enclosure of e^eps) at every lattice node "
                                         "D_j, j w <= Delta, and at Delta: the profile is linear between the nodes")

    def profile_cost(self, epsilon: float, sensitivity: float = 1.0) -> Cost:
        """The cost of :meth:`worst_profile_enclosure`: its exact-rational terms (``2 M + 1`` per lattice node
        ``j w <= Delta``), at the measured rate, stated before any of them is summed.

        >>> c = PiecewiseUniform(2.0**-10, [1000 + i % 7 for i in range(6000)]).profile_cost(1.0, 6000 * 2.0**-10)
        >>> c.field, c.work, c.seconds > 60
        ('parameters.weights', '72017998 exact-rational lattice terms (6000 weights x 6002 shifts)', True)
        """
        terms = sup_profile_terms(self.width, self.weights, sensitivity)
        shifts = terms // (2 * len(self.weights) - 1)
        return Cost(terms * TERM_SECONDS, BASE_BYTES, "parameters.weights",
                    f"{terms} exact-rational lattice terms ({len(self.weights)} weights x {shifts} shifts)")

    # ------------------------------------------------------------ scipy
    def _fixed_weights_class(self) -> type:
        """A subclass of PiecewiseUniform with these weights fixed and the width its only parameter (scipy's
        objects take numeric parameters only)."""
        cls = _FIXED.get(self.weights)
        if cls is None:
            weights = self.weights

            def init(obj: PiecewiseUniform, width: float) -> None:
                PiecewiseUniform.__init__(obj, width, weights)

            cls = type("PiecewiseUniform", (PiecewiseUniform,), {"__init__": init, "parameter_domains": (WIDTH,)})
            if len(_FIXED) < 64:
                _FIXED[self.weights] = cls
        return cls

    def to_scipy(self, *, loc: Any = 0.0, scale: Any = 1.0) -> Any:
        """scipy's frozen ``rv_continuous`` with these weights and its width as the shape ``width`` (the law of
        ``loc + scale * T``; see ``NoiseDistribution.to_scipy``).

        >>> X = PiecewiseUniform(0.5, [2, 1]).to_scipy()
        >>> float(X.cdf(0.25)), float(X.ppf(0.75))
        (0.75, 0.25)
        """
        from .scipy_rv import frozen

        return frozen(self._fixed_weights_class()(self.width), loc, scale)

    @classmethod
    def scipy_rv(cls) -> Any:
        """Refused (``ValueError``): the weights are a tuple, not a scipy shape; ``to_scipy()`` of an instance holds
        them fixed (its scipy object has the width as its only shape: ``to_scipy().dist``)."""
        raise ValueError("PiecewiseUniform.scipy_rv(): the weights are not a scipy shape parameter; use "
                         "PiecewiseUniform(width, weights).to_scipy().dist, the rv_continuous with these weights fixed")

    def to_scipy_distribution(self) -> Any:
        """A ``scipy.stats`` distribution of the new type with these weights and its width as the parameter ``width``.

        >>> X = PiecewiseUniform(0.5, [2, 1]).to_scipy_distribution()
        >>> float(X.cdf(0.25)), float(X.icdf(0.75))
        (0.75, 0.25)
        """
        from .scipy_adapter import scipy_class

        return scipy_class(self._fixed_weights_class())(width=self.width)


_FIXED: Dict[Tuple[int, ...], type] = {}
