"""Quantiles and sampling of the flipped Huber distribution (Appendix B, derived in fhsym): methods of
:class:`fhsym.FlippedHuber`.

The kernels ``_isf`` (behind the template's ``ppf`` and ``isf``) and ``_rvs`` (behind ``rvs``) of
:class:`fhsym.noise.base.NoiseDistribution`: ``_isf`` inverts the CDF of eq 10 piecewise in standard units
s = t/gamma, b = alpha/gamma (the Laplace centre by a log1p form, the Gaussian tails through
``log_ndtr``/``ndtri_exp``); ``_rvs`` draws with the ziggurat of :mod:`fhsym.noise.flipped_huber_ziggurat`
(one 64-bit word per proposal).  A mixin: it reads ``alpha``, ``gamma``, ``b``, the constants of the
constructor and the generated kernels only.

>>> import fhsym
>>> fh = fhsym.FlippedHuber(alpha=1.0, gamma=2.0)
>>> bool(abs(fh.cdf(fh.ppf(0.9)) - 0.9) < 1e-14)
True
"""

from __future__ import annotations

from typing import Callable, Optional, Tuple, Union

import numpy as np
from numpy.typing import ArrayLike

from .._core import domains as V
from .._core.random import RandomState, Rng, as_generator, random_words, size_to_shape
from .._generated import flipped_huber_pieces as KP
from .flipped_huber_ziggurat import BLOCK, ZigguratSampler

__all__ = ["FlippedHuberQuantileMethods", "RVS_CHUNK", "scalar_or_array"]

Float = Union[float, np.ndarray]

#: proposals per block in ``rvs`` (the output does not depend on it; kept as a 0.2 name)
RVS_CHUNK = BLOCK


def scalar_or_array(a: np.ndarray) -> Float:
    """A 0-d array as its scalar, any other array unchanged (scipy.stats' return convention)."""
    return a[()] if a.ndim == 0 else a


class FlippedHuberQuantileMethods:
    """The quantile and sampling kernels of :class:`fhsym.FlippedHuber` (see the module docstring)."""

    # what the mixin reads of the law (FlippedHuber sets them; arrays for array parameters)
    gamma: float
    b: float
    _lw: float
    _tail_mass: float
    _isf_direct_min: float
    _array_shape: Tuple[int, ...]
    _logsf_std_nonneg: Callable[[np.ndarray], np.ndarray]

    # --------------------------------------------------------------- quantile
    def _isf_std(self, p: np.ndarray, h: np.ndarray) -> np.ndarray:
        """s with P(S > s) = p for p in (0, 1/2]; h = 1/2 - p (exact where p >= 1/4).

        The quantile of the paper's missing Appendix B, derived by inverting eq 10
        piece by piece (see fhsym.symbolic.definitions.ppf_center / ppf_tail_upper).
        """
        return KP.isf_std(self.b, p, h, self._lw, self._tail_mass, self._isf_direct_min)

    def _quantile_std(self, q: np.ndarray, upper: bool) -> np.ndarray:
        """Standardised isf (upper=True) or ppf (upper=False) of probabilities q in [0, 1]."""
        low = q <= 0.5
        if self._array_shape:  # array parameters: one kernel call with the constants broadcast
            p = np.where(low, q, 1.0 - q)  # p = q below the median, 1 - q (exact) above it
            h = np.where(low, 0.5 - q, q - 0.5)
            inner = p > 0
            res = np.where(inner, KP.isf_std(self.b, np.where(inner, p, 0.25), np.where(inner, h, 0.25), self._lw,
                                             self._tail_mass, self._isf_direct_min), np.inf)
            return np.where(low != upper, -res, res)
        out = np.full_like(q, np.inf)  # q = 0 below the median, q = 1 above it: an infinite quantile
        m = low & (q > 0)  # p = q in (0, 1/2]: the far side is computed from q itself
        out[m] = self._isf_std(q[m], 0.5 - q[m])
        high = ~low
        m = high & (q < 1)  # q > 1/2: p = 1 - q and h = q - 1/2 are exact in floating point
        out[m] = self._isf_std(1.0 - q[m], q[m] - 0.5)
        flip = high if upper else low  # isf(q) = +s(q) for q <= 1/2; ppf(q) = -s(q) there
        out[flip] = -out[flip]
        return out

    def _isf(self, q: np.ndarray) -> np.ndarray:
        """The x with P(T > x) = q (Appendix B, derived): eq 10 inverted piece by piece; ``ppf(q)`` is ``-isf(q)``.

        For q <= 1/2: x = gamma Q^{-1}(q omega/sqrt(2 pi)) on the tail (q <= P(T > alpha)), and on the centre
        x = -(gamma^2/alpha) log(1 - (alpha omega/gamma) e^{-alpha^2/(2 gamma^2)} (1/2 - q)) (the paper's Appendix B
        is missing; the inverse is derived in :mod:`fhsym.symbolic.definitions`); isf(q) = -isf(1 - q) above 1/2,
        with 1 - q and q - 1/2 exact.  Computed from q itself (not 1 - q) for q <= 1/2, so it is accurate down to the
        smallest floats.  isf(0) = +inf, isf(1) = -inf; the median is +0.0.

        Examples
        --------
        >>> from scipy.stats import norm
        >>> from fhsym import FlippedHuber
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> round(float(fh.isf(0.25)), 12), round(float(-fh.ppf(0.25)), 12)
        (1.322261268292, 1.322261268292)
        >>> round(float(fh.ppf(fh.cdf(0.7))), 12)          # ppf(cdf(x)) = x
        0.7
        >>> fh.ppf([0.0, 0.5, 1.0])                         # the median is +0.0, not -0.0
        array([-inf,   0.,  inf])
        >>> x = fh.isf(1e-300)                              # far tail
        >>> f"{float(x):.10g}", f"{float(fh.sf(x)):.6g}"
        ('74.09328019', '1e-300')
        >>> g = FlippedHuber(alpha=0.0, gamma=1.5)          # alpha = 0: N(0, 1.5^2)
        >>> round(float(g.ppf(0.975)), 12), round(float(norm.ppf(0.975, scale=1.5)), 12)
        (2.93994597681, 2.93994597681)
        """
        return self.gamma * self._quantile_std(q, upper=True)

    # ---------------------------------------------------------------- sampling
    def _rvs(self, rng: Rng, shape: Tuple[int, ...]) -> np.ndarray:
        """Samples by a ziggurat on the half-line density exp(-rho_alpha(t)/gamma^2) (eq 8).

        256 layers of equal area built for the shape alpha/gamma (cached per shape); one 64-bit word
        per proposal (layer, sign, 53-bit uniform), about 98-99 % accepted at once, the rest decided by
        one word of a second stream: the wedge test against the exact density, or beyond the base
        edge the exact tail by inversion of eq 10 (:mod:`fhsym.noise.flipped_huber_ziggurat`).  Never
        returns +-inf or -0.0.  The first n samples of a larger request equal a request of n.  Like
        every floating-point sampler it is not hardened against floating-point side channels (Mironov
        2012): see docs/security.md and :class:`fhsym.DiscreteFlippedHuber` for the exact sampler.
        Distribution of the samples: eq 8, tested by Kolmogorov-Smirnov against ``cdf``
        (``tests/test_sampling.py``).

        Examples
        --------
        >>> from fhsym import FlippedHuber
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> x = fh.rvs(size=(2, 3), random_state=0)
        >>> x.shape, x.dtype
        ((2, 3), dtype('float64'))
        >>> bool(np.array_equal(x, fh.rvs(size=(2, 3), random_state=0)))   # reproducible
        True
        >>> y = fh.rvs(size=100_000, random_state=1)
        >>> bool(abs(y.var() / fh.var() - 1) < 0.02)                         # eq 11
        True
        """
        n = int(np.prod(shape)) if shape else 1
        if self._array_shape:  # array parameters: inversion, one word per sample, each with its element's constants
            return self._inversion(random_words(rng, n), shape)
        return ZigguratSampler(self, rng).draw(n)

    def _inversion(self, raw: np.ndarray, shape: Optional[Tuple[int, ...]] = None) -> np.ndarray:
        """x = +-gamma isf_std(p) from 64-bit words (eq 10 inverted): the top 63 bits k give p = (k + 1/2) 2^-64 in
        (0, 1/2), the lowest bit the sign.  With array parameters ``shape`` is the sample shape they broadcast to."""
        p = (raw >> np.uint64(1)).view(np.int64).astype(np.float64)
        p *= 2.0**-64
        p += 2.0**-65
        if shape is None:
            s = self._isf_std(p, 0.5 - p) * self.gamma
        else:
            b, lw, tail, direct, gamma = (np.broadcast_to(c, shape).ravel()
                                          for c in (self.b, self._lw, self._tail_mass, self._isf_direct_min, self.gamma))
            s = KP.isf_std(b, p, 0.5 - p, lw, tail, direct) * gamma
        xb = s.view(np.uint64)
        xb ^= raw << np.uint64(63)
        return s

    def rvs_inversion(self, size: object = None, random_state: RandomState = None) -> Float:
        """Draw samples by inversion: x = +-gamma isf_std(p), one 64-bit word per sample (eq 10 inverted).

        The top 63 bits k give p = (k + 1/2) 2^-64 in (0, 1/2), the lowest bit the sign.  Slower than
        :meth:`rvs` (0.27-0.32x numpy's Laplace throughput at 10^6 draws), but monotone in the word:
        the same seed gives samples of different shapes that are coupled as closely as possible (common random numbers for paired comparisons:
        FH at alpha = 0 and the Gaussian get the same numbers, and FH at a small alpha/gamma numbers
        close to them).  Same law as :meth:`rvs`.

        >>> import numpy as np
        >>> from fhsym import FlippedHuber
        >>> a = FlippedHuber(0.0, 1.0).rvs_inversion(5, random_state=3)
        >>> b = FlippedHuber(0.01, 1.0).rvs_inversion(5, random_state=3)
        >>> bool(np.max(np.abs(a - b)) < 0.05)
        True
        """
        shape = size_to_shape(size)
        n = int(np.prod(shape)) if shape else 1
        s = self._inversion(random_words(as_generator(random_state), n))
        return s.reshape(shape) if shape else s[0]

    def sample_stream(self, random_state: RandomState = None) -> ZigguratSampler:
        """A stream of samples: ``s = fh.sample_stream(rng); s.draw(m1); s.draw(m2)`` gives the samples of one
        ``rvs(m1 + m2)`` call (for drawing in chunks with bounded memory).

        >>> import numpy as np
        >>> from fhsym import FlippedHuber
        >>> fh = FlippedHuber(alpha=0.5, gamma=1.0)
        >>> s = fh.sample_stream(7)
        >>> bool(np.array_equal(np.concatenate([s.draw(4), s.draw(6)]), fh.rvs(10, random_state=7)))
        True
        """
        return ZigguratSampler(self, as_generator(random_state))
