"""The discrete flipped Huber distribution on the lattice step*Z, with an exact sampler.

Probability mass function (the paper's loss, eq 7, on the lattice; eq 8 with a sum in
place of the integral)::

    P(X = k h) = exp(-rho_alpha(k h) / gamma^2) / Z,   k in Z,  h = step,
    rho_alpha(t) = alpha |t|            for |t| <= alpha,
                 = (t^2 + alpha^2) / 2  for |t| >  alpha,
    Z = 1 + 2 sum_{n=1}^{K} e^{-lam n} + 2 e^{-b^2/2} sum_{n > K} e^{-c^2 n^2/2},

with K = floor(alpha/h), lam = alpha h/gamma^2, b = alpha/gamma, c = h/gamma
(:mod:`fhsym.symbolic.discrete`).  alpha = 0 is the discrete Gaussian, alpha >= gamma^2/h-ish
shapes approach the discrete Laplace.

Arguments of ``pmf``/``cdf``/... are values on the real line.  A value within a relative
1e-9 (at most 1e-3 steps) of a lattice point k h is that point, so ``fl(k * step)``, the
float the sampler returns, is recognised as k h.  Every method evaluates the stable forms
of :mod:`fhsym.noise.lattice_sums` in log space; the energy, the loss and the log-space assembly (log Z, log T,
log P(X <= k), the variance, the profile) are the programs printed from :mod:`fhsym.symbolic.lattice_float`.

Sampling is exact (:mod:`fhsym.noise.exact_sampling`): integer arithmetic from the random
bits to the lattice index; only ``output="value"`` converts ``k * step`` to a float, as the
very last step.

Accuracy (``tests/test_discrete.py``, ``proofs/discrete.py``, against exact 60-digit
summation): see docs/accuracy.md.
"""

from __future__ import annotations

import decimal
import math
from fractions import Fraction
from typing import Any, Optional, Tuple, Union

import numpy as np
from numpy.typing import ArrayLike

from .._core import domains as V
from .._core.random import size_to_shape
from .._core.search import first_true_int
from .._generated.declared import discrete_flipped_huber as _gen
from . import lattice_sums as LS
from . import exact_sampling as XS
from .lattice import LatticeNoise
from .scipy_methods import as_numbers

__all__ = ["DiscreteFlippedHuber", "lattice_sensitivity", "lattice_index", "STEP"]

STEP = V.STEP
_SNAP_REL = 1e-9
_SNAP_MAX = 1e-3
_COND_MAX = 5e-13  # float profile: estimated relative error beyond which the arb enclosure is used
_SEARCH_COND_MAX = 1e-8  # the same in the calibrator's search (polished and certified after it)
_ULP = 2.0**-52
_C_MIN, _C_MAX = 2.2250738585072014e-308, 1e150  # step/gamma: a normal float ((c n)^2 stays finite for n = 1)
_K_FAR = 2**1000  # the float search's end: past it k + S overflows the float loss (the arb enclosure decides)
_LAM_MIN, _LAM_MAX = 2.2250738585072014e-308, 1e300  # alpha step/gamma^2: a normal float with a finite exponential sum
_TINY = 2.2250738585072014e-308

Float = Union[float, np.ndarray]


def _finish(a: np.ndarray, nan: Optional[np.ndarray] = None) -> Float:
    """A 0-d array as its numpy scalar; NaN where ``nan`` holds (a NaN argument)."""
    if nan is not None:
        a = np.where(nan, np.nan, a)
    return a[()] if a.ndim == 0 else a


def _decimal(q: Fraction, digits: int = 21) -> str:
    """``q`` to ``digits`` significant digits (so that a ratio next to an integer shows how far it is)."""
    with decimal.localcontext() as ctx:
        ctx.prec = digits
        return str(decimal.Decimal(q.numerator) / decimal.Decimal(q.denominator))


def lattice_sensitivity(sensitivity: object, step: float) -> int:
    """The sensitivity in lattice steps, S = sensitivity/step, as an exact positive integer.

    Exact on the binary values.  A ratio within 1e-9 *below* an integer S is taken as S (a
    larger sensitivity: never less private); any other non-integer ratio raises ValueError.
    ``sensitivity`` may be a ``fractions.Fraction`` (or int) to state an exact multiple of a
    non-dyadic step, e.g. ``17 * Fraction(0.001)``.

    >>> lattice_sensitivity(0.75, 0.25)
    3
    >>> lattice_sensitivity(1.0, 0.1)          # 1.0 / fl(0.1) = 9.99999999999999944...
    10
    >>> lattice_sensitivity(17 * Fraction(0.001), 0.001)
    17
    """
    if isinstance(sensitivity, (Fraction, int)) and not isinstance(sensitivity, bool):
        d = Fraction(sensitivity)
        if d <= 0:
            raise ValueError(f"sensitivity must be a finite real number in (0, inf); got {sensitivity!r}")
    else:
        d = Fraction(V.check_scalar(sensitivity, V.SENSITIVITY))
    ratio = d / Fraction(step)
    s = -((-ratio.numerator) // ratio.denominator)  # ceil
    if s < 1 or s - ratio > Fraction(1, 10**9) * s:
        raise ValueError(
            f"sensitivity must be a positive integer multiple of step={step!r} (exactly, or within 1e-9 below; "
            f"pass a Fraction such as S * Fraction(step) for a non-dyadic step); got {sensitivity!r}, which is "
            f"{_decimal(ratio)}... steps (not an integer)"
        )
    return s


def lattice_index(value: object, step: float) -> int:
    """The lattice point nearest to ``value``: floor(value/step + 1/2), exactly (an int).

    Exact rational arithmetic on the binary values (``Fraction`` inputs are exact too).  For a
    query of sensitivity S steps the snapped indices differ by at most S, because
    floor(a + 1/2) - floor(b + 1/2) <= S whenever a - b <= S (S an integer).

    >>> lattice_index(0.3, 0.25), lattice_index(-0.375, 0.25), lattice_index(Fraction(7, 10), Fraction(1, 10))
    (1, -1, 7)
    """
    if isinstance(value, bool):
        raise ValueError(f"value must be a finite real number; got {value!r}")
    v = value if isinstance(value, (Fraction, int)) else Fraction(V.check_scalar(value, V.Domain("value")))
    h = step if isinstance(step, Fraction) else Fraction(V.check_scalar(step, STEP))
    if h <= 0:
        raise ValueError(f"step must be > 0; got {step!r}")
    return math.floor(Fraction(v) / h + Fraction(1, 2))


class DiscreteFlippedHuber(LatticeNoise):
    """The flipped Huber distribution restricted to the lattice step*Z.

    Parameters
    ----------
    alpha : float
        Transition parameter, finite, >= 0 (0 gives the discrete Gaussian).
    gamma : float
        Scale parameter, finite, > 0.
    step : float
        Lattice spacing h > 0.  The parameters are used at their exact binary values.  The domain: step/gamma in
        [2.2250738585072014e-308, 1e150] (a normal double), alpha/step < 2^52 and, when alpha >= step, alpha
        step/gamma^2 in [2.2e-308, 1e300]; else ValueError naming the ratio and its range.

    Examples
    --------
    >>> d = DiscreteFlippedHuber(alpha=1.0, gamma=2.0, step=0.25)
    >>> float(d.cdf(0.0) + d.sf(0.0)) == 1.0
    True
    >>> round(float(d.pmf(0.25) / d.pmf(0.0)), 12) == round(math.exp(-1.0 * 0.25 / 4), 12)
    True
    >>> k = d.rvs(3, random_state=1, output="index"); k.dtype.kind
    'i'
    """

    #: the mechanism's key (as in :func:`fhsym.calibrate` / certificates)
    name = "discrete_flipped_huber"
    display_name = "discrete flipped Huber"
    parameter_domains = (V.ALPHA, V.GAMMA, STEP)

    def __init__(self, alpha: float, gamma: float, step: float) -> None:
        self.alpha = V.check_scalar(alpha, V.ALPHA)
        self.gamma = V.check_scalar(gamma, V.GAMMA)
        self.step = V.check_scalar(step, STEP)
        K = Fraction(self.alpha) / Fraction(self.step)
        self.K = K.numerator // K.denominator
        if self.K >= 2**52:
            raise ValueError(f"alpha/step must be < 2^52; got alpha={alpha!r}, step={step!r}")
        self.b = self.alpha / self.gamma
        self.c = self.step / self.gamma
        if not (math.isfinite(self.b) and math.isfinite(self.c)) or self.c == 0.0:
            raise ValueError(f"alpha/gamma and step/gamma must be finite and step/gamma > 0; got {alpha!r}, {gamma!r}, {step!r}")
        # the float kernels work with c^2, lam and their exponentials: outside these ranges the law is a point mass at
        # 0 to within exp(-1e300) (c or lam huge) or its centre sums lose every digit (lam subnormal)
        # a subnormal c: the tail sums' term counts (sqrt(88)/c) overflow and c has lost its relative precision
        if not _C_MIN <= self.c <= _C_MAX:
            raise ValueError(f"step/gamma must be in [{_C_MIN!r}, {_C_MAX:g}] (a normal float; above 1e150 the "
                             f"noise is 0 with probability 1 - exp(-1e300)); got step={step!r}, gamma={gamma!r} "
                             f"({self.c!r})")
        self.lam = self.b * self.c
        if self.K >= 1 and not _LAM_MIN <= self.lam <= _LAM_MAX:
            raise ValueError(f"alpha*step/gamma^2 must be in [{_LAM_MIN:g}, {_LAM_MAX:g}] when alpha >= step; got "
                             f"alpha={alpha!r}, gamma={gamma!r}, step={step!r} ({self.lam!r})")
        Kf = float(self.K)
        # d = c (K+1) - b in (0, c]: how far the first tail point lies beyond alpha (standard units)
        self._d = _gen.tail_entry_gap(self.step, Kf, self.alpha, self.gamma)
        self._log_r_first = float(LS.log_r0(np.array(Kf + 1.0), self.c))
        self._log_t1 = float(self._log_upper_tail_pos(np.array(1.0)))
        self._log_z = float(_gen.log_normaliser_float(self._log_t1))
        self._sampler: Optional[XS.ExactLatticeSampler] = None

    # ------------------------------------------------------------------ mechanism facts
    @classmethod
    def from_family(cls, shape: float, scale: float, step: float) -> "DiscreteFlippedHuber":
        return cls(shape * scale, scale, step)

    @classmethod
    def lattice_steps(cls, sensitivity: Any, step: float) -> int:
        s = lattice_sensitivity(sensitivity, step)
        if s > 2**52:  # the noise spans about s steps: its lattice index must stay an exact float
            raise ValueError(f"step must be at least sensitivity/2^52 (the noise on step*Z spans about sensitivity/step "
                             f"points); got step={step!r}, sensitivity={sensitivity!r} ({float(s):.3g} steps)")
        return s

    def _log_profile_steps(self, epsilon: float, steps: int, search: bool = False) -> float:
        return self._log_profile_one(epsilon, steps, _SEARCH_COND_MAX if search else _COND_MAX)

    def lattice_profile_enclosure(self, epsilon: float, sensitivity: Any) -> Tuple[float, float, int]:
        """(lower, upper, S): the arb enclosure of the exact lattice profile at S = sensitivity/step steps.

        >>> d = DiscreteFlippedHuber(1.0, 2.0, 0.25)
        >>> lo, hi, s = d.lattice_profile_enclosure(1.0, 1.0)
        >>> s, bool(0 < lo <= hi)
        (4, True)
        """
        from .discrete_profile_arb import profile_enclosure_steps

        s = lattice_sensitivity(sensitivity, self.step)
        lo, hi = profile_enclosure_steps(epsilon, self.alpha, self.gamma, self.step, s)
        return lo, hi, s

    def at_precision(self, digits: Optional[int] = None, *, bits: Optional[int] = None, ball: bool = False) -> Any:
        """Every quantity at ``digits`` decimal digits (or ``bits``) as mpmath numbers, or arb balls with ``ball=True``
        (:mod:`fhsym.noise.precise_discrete`), at the exact binary values of alpha, gamma and the step.

        >>> import mpmath
        >>> mpmath.nstr(DiscreteFlippedHuber(1.0, 2.0, 0.25).at_precision(30).pmf(0.5), 30)
        '0.0490030756385519408347814147421'
        """
        from .precise_discrete import DiscreteFlippedHuberAtPrecision

        return DiscreteFlippedHuberAtPrecision(self, digits, bits=bits, ball=ball)

    # ------------------------------------------------------------------ basics
    def log_normaliser(self) -> float:
        """log Z, Z = sum_k exp(-rho_alpha(k h)/gamma^2) (:func:`fhsym.symbolic.discrete.normaliser`).

        >>> d = DiscreteFlippedHuber(0.0, 1e-3, 1.0)      # nearly a point mass: Z = 1 + 2e^{-5e5} + ...
        >>> d.log_normaliser()
        0.0
        """
        return self._log_z

    # ------------------------------------------------------------------ index-space kernels
    def _energy(self, n: np.ndarray) -> np.ndarray:
        """E(n) for n >= 0 (hinge form lam n + (c n - b)_+^2/2 is used only through the pieces)."""
        with np.errstate(over="ignore"):  # a huge c or b: the energy is +inf, the mass exp(-E) exactly 0
            out: np.ndarray = _gen.energy_float(n, self.K, self.lam, self.b, self.c)
        return out

    def _rho_pos(self, n: np.ndarray) -> np.ndarray:
        """log(T(n) e^{E(n)}) for n >= 1: moderate-sized, no cancellation."""
        n = np.asarray(n, dtype=float)
        out = np.empty(n.shape)
        tail = n > self.K
        if tail.any():
            out[tail] = LS.log_r0(n[tail], self.c)
        cen = ~tail
        if cen.any():
            nc = n[cen]
            with np.errstate(divide="ignore"):
                la = _gen.log_centre_scaled(nc, self.K, self.lam)  # log(e^(lam n) sum_(j=n)^K e^(-lam j))
            gap = _gen.centre_gap(nc, self.K, self.lam, self._d)  # E(K+1) - E(n) >= 0
            out[cen] = _gen.rho_centre(la, gap, self._log_r_first)
        return out

    def _log_upper_tail_pos(self, n: np.ndarray) -> np.ndarray:
        """log T(n) = log sum_{j >= n} exp(-E(j)) for n >= 1."""
        out: np.ndarray = _gen.log_tail_pos(self._energy(n), self._rho_pos(n))
        return out

    def _log_upper_tail(self, n: np.ndarray) -> np.ndarray:
        """log T(n) for every integer n (n <= 0 through T(n) = Z - T(1 - n))."""
        n = np.asarray(n, dtype=float)
        out = np.empty(n.shape)
        pos = n >= 1
        if pos.any():
            out[pos] = self._log_upper_tail_pos(n[pos])
        if (~pos).any():
            lt = self._log_upper_tail_pos(1.0 - n[~pos])
            out[~pos] = _gen.log_reflected_tail(self._log_z, lt)
        return out

    def _log_cdf_idx(self, k: np.ndarray) -> np.ndarray:
        """log P(index <= k): log T(-k) - log Z for k < 0 (symmetry), log1p(-T(k+1)/Z) for k >= 0."""
        k = np.asarray(k, dtype=float)
        out = np.empty(k.shape)
        neg = k < 0
        if neg.any():
            out[neg] = _gen.log_cdf_neg(self._log_upper_tail_pos(-k[neg]), self._log_z)
        if (~neg).any():
            out[~neg] = _gen.log_cdf_pos(self._log_upper_tail_pos(k[~neg] + 1.0), self._log_z)
        return out

    def _log_sf_idx(self, k: np.ndarray) -> np.ndarray:
        """log P(index > k) = log P(index <= -k - 1) (symmetry)."""
        return self._log_cdf_idx(-np.asarray(k, dtype=float) - 1.0)

    # ------------------------------------------------------------------ lattice arguments
    def _index(self, x: ArrayLike) -> Tuple[np.ndarray, np.ndarray, np.ndarray, Optional[np.ndarray]]:
        """(nearest lattice index, on-lattice mask, floor index with snapping, NaN mask or None) of values x; a NaN
        value is evaluated at 0 and reported in the mask (NaN in, NaN out, as scipy)."""
        x = as_numbers(x, V.REAL)
        nan = np.isnan(x)
        if nan.any():
            x = np.where(nan, 0.0, x)
        else:
            nan = None
        t = x / self.step
        tol = np.minimum(_SNAP_REL * np.maximum(1.0, np.abs(t)), _SNAP_MAX)
        with np.errstate(invalid="ignore"):
            k = np.rint(t)
            on = np.abs(t - k) <= tol
            fl = np.floor(t + tol)
        return k, on, fl, nan

    def logpmf(self, x: ArrayLike) -> Float:
        """log P(X = x) = -rho_alpha(x)/gamma^2 - log Z on the lattice, -inf off it.

        >>> d = DiscreteFlippedHuber(1.0, 2.0, 0.25)
        >>> float(d.logpmf(0.1))
        -inf
        """
        k, on, _, nan = self._index(x)
        n = np.abs(k)
        out = np.full(k.shape, -np.inf)
        fin = on & np.isfinite(n)
        out[fin] = -self._energy(n[fin]) - self._log_z
        return _finish(out, nan)

    def pmf(self, x: ArrayLike) -> Float:
        """P(X = x): exp(-rho_alpha(x)/gamma^2)/Z at lattice points x = k step, 0 elsewhere.

        >>> d = DiscreteFlippedHuber(0.0, 1e-3, 1.0)
        >>> float(d.pmf(0.0))
        1.0
        """
        return _finish(np.exp(np.asarray(self.logpmf(x))))

    def cdf(self, x: ArrayLike) -> Float:
        """P(X <= x) = 1 - T(k+1)/Z (k = floor(x/step) >= 0), T(-k)/Z (k < 0).

        >>> d = DiscreteFlippedHuber(1.0, 2.0, 0.25)
        >>> bool(abs(d.cdf(-0.25) + d.cdf(0.0) - 1.0) < 1e-15)            # symmetry
        True
        """
        _, _, k, nan = self._index(x)
        out = np.empty(k.shape)
        fin = np.isfinite(k)
        out[~fin] = np.where(k[~fin] > 0, 1.0, 0.0)
        kf = k[fin]
        pos = kf >= 0
        res = np.empty(kf.shape)
        if pos.any():
            res[pos] = -np.expm1(self._log_sf_idx(kf[pos]))
        if (~pos).any():
            res[~pos] = np.exp(self._log_cdf_idx(kf[~pos]))
        out[fin] = res
        return _finish(out, nan)

    def logsf(self, x: ArrayLike) -> Float:
        """log P(X > x) = log T(k+1) - log Z (k = floor(x/step)), finite far in the tail.

        >>> d = DiscreteFlippedHuber(1.0, 1.0, 0.5)
        >>> bool(np.isfinite(d.logsf(1e3)))
        True
        """
        _, _, k, nan = self._index(x)
        out = np.empty(k.shape)
        fin = np.isfinite(k)
        out[~fin] = np.where(k[~fin] > 0, -np.inf, 0.0)
        out[fin] = self._log_sf_idx(k[fin])
        return _finish(out, nan)

    def logcdf(self, x: ArrayLike) -> Float:
        """log P(X <= x) = log T(-k)/Z for k = floor(x/step) < 0 (finite far in the left tail), log1p(-T(k+1)/Z) else.

        >>> d = DiscreteFlippedHuber(1.0, 1.0, 0.5)
        >>> bool(np.isfinite(d.logcdf(-1e3))) and float(d.logcdf(np.inf)) == 0.0
        True
        """
        _, _, k, nan = self._index(x)
        out = np.empty(k.shape)
        fin = np.isfinite(k)
        out[~fin] = np.where(k[~fin] > 0, 0.0, -np.inf)
        out[fin] = self._log_cdf_idx(k[fin])
        return _finish(out, nan)

    def sf(self, x: ArrayLike) -> Float:
        """P(X > x) = T(k+1)/Z, k = floor(x/step).

        >>> d = DiscreteFlippedHuber(1.0, 2.0, 0.25)
        >>> bool(abs(d.sf(0.0) - (1 - d.pmf(0.0)) / 2) < 1e-15)
        True
        """
        return _finish(np.exp(np.asarray(self.logsf(x))))

    def ppf(self, q: ArrayLike) -> Float:
        """Smallest lattice value x = k step with cdf(x) >= q (q in [0, 1]; 0 -> -inf, 1 -> inf; NaN for q NaN or
        outside [0, 1], as scipy).

        Integer bisection on the log CDF (q <= 1/2) or the log survival function (q > 1/2).

        >>> d = DiscreteFlippedHuber(1.0, 2.0, 0.25)
        >>> float(d.ppf(0.5))
        0.0
        >>> bool(d.cdf(d.ppf(0.9)) >= 0.9 > d.cdf(d.ppf(0.9) - 0.25))
        True
        >>> d.ppf([1.5, np.nan])
        array([nan, nan])
        """
        return self._quantile(q, upper=False)

    def isf(self, q: ArrayLike) -> Float:
        """Smallest lattice value x = k step with sf(x) <= q (scipy's convention for discrete laws; 0 -> inf,
        1 -> -inf; NaN for q NaN or outside [0, 1]).

        Integer bisection on the log survival function (q <= 1/2) or the log CDF (q > 1/2), so that tiny q keep
        their precision.

        >>> d = DiscreteFlippedHuber(1.0, 2.0, 0.25)
        >>> x = d.isf(1e-12)
        >>> bool(d.sf(x) <= 1e-12 < d.sf(x - 0.25))
        True
        """
        return self._quantile(q, upper=True)

    def _quantile(self, q: ArrayLike, upper: bool) -> Float:
        """ppf (upper=False) or isf (upper=True) of probabilities q as lattice values."""
        qa = as_numbers(q, V.PROBABILITY)
        bad = ~V.PROBABILITY.contains(qa)  # NaN or outside [0, 1]: NaN, as scipy
        qa = np.where(bad, 0.5, qa)
        out = np.empty(qa.shape)
        flat_q = qa.ravel()
        res = np.empty(flat_q.size)
        res[flat_q == 0] = np.inf if upper else -np.inf
        res[flat_q == 1] = -np.inf if upper else np.inf
        mid = (flat_q > 0) & (flat_q < 1)
        if mid.any():
            qq = flat_q[mid]
            lower = qq <= 0.5
            # ppf: P(index <= k) >= q  <=>  log T(-k) - log Z >= log q   (q <= 1/2)
            #                          <=>  log P(index > k) <= log(1 - q)  (q > 1/2)
            # isf: P(index > k) <= q   <=>  log P(index > k) <= log q  (q <= 1/2)
            #                          <=>  log P(index <= k) >= log(1 - q)  (q > 1/2)
            target = np.where(lower, np.log(qq), np.log1p(-qq))
            by_cdf = lower != upper

            def ok(k: np.ndarray) -> np.ndarray:
                holds: np.ndarray = np.where(by_cdf, self._log_cdf_idx(k) >= target, self._log_sf_idx(k) <= target)
                return holds

            hi = np.ones(qq.size)
            while not ok(hi).all():
                hi = np.where(ok(hi), hi, 2.0 * hi)
            lo = -hi.copy()
            while ok(lo).any():
                lo = np.where(ok(lo), 2.0 * lo, lo)
            # invariant: ok(hi), not ok(lo); past 2^53 (a tiny step/gamma) lo and hi end as adjacent doubles, more
            # than 1 apart: the midpoint is then one of them and the search stops there (it looped for ever)
            while True:
                m = np.floor(0.5 * (lo + hi))
                act = (hi - lo > 1) & (m > lo) & (m < hi)
                if not act.any():
                    break
                g = ok(m)
                hi = np.where(act & g, m, hi)
                lo = np.where(act & ~g, m, lo)
            res[mid] = hi * self.step
        out[...] = res.reshape(qa.shape)
        return _finish(out, bad if bad.any() else None)

    # ------------------------------------------------------------------ moments
    def mean(self) -> float:
        """0 (the pmf is symmetric).

        >>> DiscreteFlippedHuber(1.0, 2.0, 0.5).mean()
        0.0
        """
        return 0.0

    def median(self) -> float:
        """0 (symmetric, with an atom at 0)."""
        return 0.0

    def var(self) -> float:
        """Var X = 2 h^2 [sum_{n=1}^K n^2 e^{-lam n} + e^{-b^2/2} Theta_2(K+1)] / Z (symbolic.discrete.variance).

        >>> d = DiscreteFlippedHuber(0.0, 100.0, 1.0)        # discrete Gaussian, sigma = 100 steps
        >>> round(d.var(), 6)
        10000.0
        """
        Kf = float(self.K)
        m = Kf + 1.0
        log_tail = _gen.log_var_tail(float(self._energy(np.array(m))), m, float(LS.log_r2(np.array(m), self.c)))
        if self.K >= 1:
            log_tot = float(_gen.log_var_sum(LS.log_geometric2(Kf, self.lam), log_tail))
        else:
            log_tot = log_tail
        log_var = _gen.log_variance(self.step, log_tot, self._log_z)
        if log_var < math.log(_TINY):  # a positive variance is never returned as 0 (or a subnormal)
            raise ValueError(f"the variance of {self!r} is exp({log_var:.6g}), below the float range (2.2e-308): "
                             f"all but that much of the mass is at 0")
        if log_var > math.log(1.7976931348623157e308):  # nor a finite one as inf (math.exp raised OverflowError)
            raise ValueError(f"the variance of {self!r} is exp({log_var:.6g}), above the float range (1.8e308)")
        return math.exp(log_var)

    def std(self) -> float:
        """sqrt(var())."""
        return math.sqrt(self.var())

    def support(self) -> Tuple[float, float]:
        """(-inf, inf): the lattice step*Z (every lattice point has positive mass)."""
        return (-math.inf, math.inf)

    def to_scipy(self) -> Any:
        """This law as a frozen ``scipy.stats.rv_discrete`` on its lattice values (:class:`fhsym.noise.scipy_adapter.
        LatticeDistribution`): the law's pmf, cdf, sf, ppf, isf and exact sampler, scipy's generic moments, entropy,
        interval and expect on the integer index (its ``index`` attribute, a genuine ``rv_discrete``).

        >>> X = DiscreteFlippedHuber(0.0, 3.0, 1.0).to_scipy()        # the discrete Gaussian on Z
        >>> float(X.cdf(0.0) + X.sf(0.0)), X.median(), X.index.dist.a
        (1.0, 0.0, -inf)
        """
        from .scipy_adapter import lattice_to_scipy

        return lattice_to_scipy(self)

    # ------------------------------------------------------------------ sampling
    def sampler(self) -> XS.ExactLatticeSampler:
        """The exact sampler of the lattice index (built once)."""
        if self._sampler is None:
            self._sampler = XS.discrete_flipped_huber_sampler(self.alpha, self.gamma, self.step)
        return self._sampler

    def rvs(self, size: object = None, random_state: object = None,
            output: str = "value") -> Union[np.ndarray, np.generic, Fraction]:
        """Exact draws; the randomness is the OS CSPRNG unless ``random_state`` is given.

        ``output``: ``"index"`` the lattice indices k (int64, exact); ``"fraction"`` the exact
        values k*step as ``fractions.Fraction`` (object array); ``"value"`` (default) the floats
        fl(k * step), the only float operation, rounding k*step to nearest once.  ``size`` as in
        scipy (None: one draw).  ``random_state``: None (OS), int seed, numpy Generator /
        RandomState or random.Random, used only for random integers.

        >>> d = DiscreteFlippedHuber(1.0, 2.0, 0.25)
        >>> d.rvs(4, random_state=3, output="index").shape
        (4,)
        """
        if output not in ("value", "index", "fraction"):
            raise ValueError(f"output must be 'value', 'index' or 'fraction'; got {output!r}")
        if isinstance(size, (bool, float, np.floating)):
            raise ValueError(f"size must be None, a non-negative integer or a tuple of them; got {size!r}")
        shape = size_to_shape(size)
        count = int(np.prod(shape)) if shape else 1
        k = self.sampler().sample(count, random_state)
        if output == "index":
            res = k
        elif output == "fraction":
            h = Fraction(self.step)
            res = np.array([int(v) * h for v in k.tolist()], dtype=object)
        else:
            res = np.asarray(k, dtype=np.float64) * self.step  # documented conversion
        return res.reshape(shape)[()] if not shape else res.reshape(shape)

    # ------------------------------------------------------------------ privacy
    def _loss(self, k: int, s: int) -> float:
        """L(k) = E(k+s) - E(k) in the hinge form (``loss_float``, printed from fhsym.symbolic.lattice_float)."""
        out: float = _gen.loss_float(abs(k + s), abs(k), self.K, self.lam, self.b, self.c)
        return out

    def _kstar(self, eps: float, s: int) -> Optional[int]:
        """min{k : L(k) > eps} (L non-decreasing: E is convex, symbolic.discrete.convexity_gaps); None where it is
        beyond 2^1000 (a tiny step/gamma: k* ~ eps/(c^2 S)), where k + S no longer converts to a float."""
        # L(-(s // 2) - 1) <= 0 <= eps: the search starts on the left of k*; k > 2^1000 ends it (still monotone)
        ks = first_true_int(lambda k: k > _K_FAR or self._loss(k, s) > eps, -(s // 2) - 1, max(self.K + 1, 1))
        return None if ks > _K_FAR else ks

    def _log_profile_one(self, eps: float, s: int, cond_max: float = _COND_MAX) -> float:
        ks = self._kstar(eps, s)
        if ks is None:  # k* past the float search's end: the arb enclosure (exact rational k*) decides
            from .discrete_profile_arb import profile_enclosure_steps as _far_steps

            return min(_far_steps(eps, self.alpha, self.gamma, self.step, s, log=True)[1], 0.0)
        if ks >= 1:
            r1, r2 = (float(v) for v in self._rho_pos(np.array([float(ks), float(ks + s)])))
            L = self._loss(ks, s)
            x = _gen.log_profile_x_pos(eps, L, r1, r2)
            lt1 = _gen.log_tail_pos(float(self._energy(np.array(float(ks)))), r1)
            scale = abs(eps) + abs(L) + abs(r1) + abs(r2)
        else:
            lt1, lt2 = (float(v) for v in self._log_upper_tail(np.array([float(ks), float(ks + s)])))
            x = _gen.log_profile_x(eps, lt1, lt2)
            scale = abs(eps) + abs(lt1) + abs(lt2)
        # k* from float losses is exact unless a loss lies within rounding of eps: then the terms
        # at that k (possibly a whole flat stretch of the Laplace centre) are decided exactly in arb
        tie = 1e-14 * (abs(eps) + 1.0)
        near_tie = self._loss(ks, s) - eps <= tie or eps - self._loss(ks - 1, s) <= tie
        finite = math.isfinite(x) and math.isfinite(lt1)  # a NaN of the float sums (never returned) is arb's to decide
        if near_tie or not finite or x >= 0 or 4 * _ULP * (scale + 1.0) > cond_max * abs(x):
            from .discrete_profile_arb import profile_enclosure_steps as _enclosure_steps

            # delta <= 1 (a sum of [p(k) - e^eps p(k + S)]_+ <= sum p(k)): the enclosure's end may round above it
            return min(_enclosure_steps(eps, self.alpha, self.gamma, self.step, s, log=True)[1], 0.0)
        out: float = _gen.log_profile_float(lt1, self._log_z, x)
        return out

    def log_privacy_profile(self, epsilon: ArrayLike, sensitivity: float = 1.0) -> Float:
        """log delta(eps) of the mechanism k -> k + noise on the lattice (see :meth:`privacy_profile`).

        >>> d = DiscreteFlippedHuber(1.0, 1.0, 0.5)
        >>> bool(np.isfinite(d.log_privacy_profile(200.0, sensitivity=1.0)))
        True
        """
        s = lattice_sensitivity(sensitivity, self.step)
        e = V.check_array(epsilon, V.EPSILON)
        out = np.array([self._log_profile_one(float(v), s) for v in e.ravel()]).reshape(e.shape)
        return _finish(out)

    def privacy_profile(self, epsilon: ArrayLike, sensitivity: float = 1.0) -> Float:
        """Exact delta(eps) = sum_k [p(k) - e^eps p(k + S)]_+, S = sensitivity/step lattice steps.

        The privacy loss L(k) = E(k + S) - E(k) is non-decreasing, so delta = (T(k*) - e^eps
        T(k* + S))/Z with k* = min{k : L(k) > eps} (symbolic.discrete.profile).  The
        sensitivity must be a multiple of step (:func:`lattice_sensitivity`).  Evaluated in
        float in log space; where that form may lose more than 5e-13 relative to cancellation
        (next to eps = L(k) for some k), or where some L(k) is within 1e-14 of eps (so that the
        float k* could be off), the certified arb enclosure's upper end is returned.

        >>> d = DiscreteFlippedHuber(1.0, 2.0, 0.25)
        >>> tv = float(d.cdf(0.5) - d.cdf(-0.5))     # eps = 0: total variation = P(-1 <= k <= 2), S = 4
        >>> bool(abs(d.privacy_profile(0.0) - tv) < 1e-15)
        True
        """
        return _finish(np.exp(np.asarray(self.log_privacy_profile(epsilon, sensitivity), dtype=float)))

    def epsilon_for_delta(self, delta: ArrayLike, sensitivity: float = 1.0) -> Float:
        """Smallest eps with delta(eps) <= delta, certified: the enclosure's upper end <= delta.

        Bisection on :meth:`log_privacy_profile`, then eps is raised (by 1e-12 relative
        steps) until :func:`fhsym.privacy.discrete_enclosure.discrete_profile_enclosure`
        certifies it.

        >>> d = DiscreteFlippedHuber(1.0, 2.0, 0.25)
        >>> e = d.epsilon_for_delta(1e-6)
        >>> bool(d.privacy_profile(e) <= 1e-6 < d.privacy_profile(e * (1 - 1e-6)))
        True
        """
        from .discrete_profile_arb import profile_enclosure_steps as _enclosure_steps

        s = lattice_sensitivity(sensitivity, self.step)
        dl = V.check_array(delta, V.DELTA)
        out = np.empty(dl.size)
        for i, target in enumerate(dl.ravel().tolist()):
            lt = math.log(target)

            def f(e: float) -> float:
                return self._log_profile_one(e, s) - lt

            if f(0.0) <= 0:
                out[i] = 0.0
                continue
            lo, hi = 0.0, 1.0
            while f(hi) > 0:
                lo, hi = hi, 2.0 * hi
            for _ in range(200):
                mid = 0.5 * (lo + hi)
                if mid in (lo, hi):
                    break
                lo, hi = (lo, mid) if f(mid) <= 0 else (mid, hi)
            e = hi
            while _enclosure_steps(e, self.alpha, self.gamma, self.step, s)[1] > target:
                e = e * (1 + 1e-12) + 1e-300
            out[i] = e
        return _finish(out.reshape(dl.shape))
