"""Quantiles and sampling of the flipped Huber distribution (Appendix B, derived in fhsym): methods of
:class:`fhsym.FlippedHuber`.

ppf/isf invert the CDF of eq 10 piecewise in standard units s = t/gamma, b = alpha/gamma: the Laplace
centre by a log1p form, the Gaussian tails through ``log_ndtr``/``ndtri_exp``; ``rvs`` and ``sampler``
draw with the ziggurat of :mod:`fhsym.noise.flipped_huber_ziggurat` (one 64-bit word per proposal).
A mixin: it reads ``alpha``, ``gamma``, ``b`` and the generated kernels only.

>>> import fhsym
>>> fh = fhsym.FlippedHuber(alpha=1.0, gamma=2.0)
>>> bool(abs(fh.cdf(fh.ppf(0.9)) - 0.9) < 1e-14)
True
"""

from __future__ import annotations

from typing import Union

import numpy as np
from numpy.typing import ArrayLike

from .._core import domains as V
from .._core.random import RandomState, as_generator, random_words, size_to_shape
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
    """ppf, isf and rvs of :class:`fhsym.FlippedHuber` (see the module docstring)."""

    # --------------------------------------------------------------- quantile
    def _isf_std(self, p: np.ndarray, h: np.ndarray) -> np.ndarray:
        """s with P(S > s) = p for p in (0, 1/2]; h = 1/2 - p (exact where p >= 1/4).

        The quantile of the paper's missing Appendix B, derived by inverting eq 10
        piece by piece (see fhsym.symbolic.definitions.ppf_center / ppf_tail_upper).
        """
        return KP.isf_std(self.b, p, h, self._lw, self._tail_mass, self._isf_direct_min)

    def _quantile_std(self, q: np.ndarray, upper: bool) -> np.ndarray:
        """Standardised isf (upper=True) or ppf (upper=False) of probabilities q in [0, 1]."""
        out = np.empty_like(q)
        low = q <= 0.5  # p = q in (0, 1/2]: the far side is computed from q itself
        hi = ~low
        # q <= 1/2: isf(q) = +s(q); ppf(q) = -s(q)
        ql = q[low]
        res = np.full_like(ql, np.inf)
        pos = ql > 0
        res[pos] = self._isf_std(ql[pos], 0.5 - ql[pos])
        out[low] = res if upper else -res
        # q > 1/2: p = 1 - q and h = q - 1/2 are exact in floating point
        qh = q[hi]
        res = np.full_like(qh, np.inf)
        pos = qh < 1
        res[pos] = self._isf_std(1.0 - qh[pos], qh[pos] - 0.5)
        out[hi] = -res if upper else res
        return out

    def ppf(self, q: ArrayLike) -> Float:
        """Quantile function (inverse CDF; Appendix B, derived): the x with P(T <= x) = q.

        eq 10 inverted piece by piece (the paper's Appendix B is missing; the inverse is
        derived in :mod:`fhsym.symbolic.definitions`).  For q >= 1/2:
        x = -(gamma^2/alpha) log(1 - (alpha omega/gamma) e^{-alpha^2/(2 gamma^2)} (q - 1/2)) on the
        centre (q <= 1 - P(T > alpha)), x = gamma Q^{-1}((1 - q) omega/sqrt(2 pi)) on the tail;
        ppf(q) = -ppf(1 - q) below.  ppf(0) = -inf, ppf(1) = +inf.  Vectorised in ``q`` in [0, 1].

        Examples
        --------
        >>> from scipy.stats import norm
        >>> from fhsym import FlippedHuber
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> round(float(fh.ppf(fh.cdf(0.7))), 12)          # ppf(cdf(x)) = x
        0.7
        >>> fh.ppf([0.0, 0.5, 1.0])                         # the median is +0.0, not -0.0
        array([-inf,   0.,  inf])
        >>> round(float(FlippedHuber(alpha=0.0, gamma=1.5).ppf(0.975)), 12)   # alpha = 0: N(0, 1.5^2)
        2.93994597681
        >>> round(float(norm.ppf(0.975, scale=1.5)), 12)
        2.93994597681
        """
        qa = V.check_array(q, V.PROBABILITY)
        return scalar_or_array(self.gamma * self._quantile_std(qa, upper=False) + 0.0)  # + 0.0: no -0.0

    def isf(self, q: ArrayLike) -> Float:
        """Inverse survival function: the x with P(T > x) = q; isf(q) = -ppf(q).

        The inverse of 1 - eq 10 (Appendix B, derived; see :meth:`ppf`).  For q <= 1/2
        computed from q directly (not from 1 - q), so it is accurate for q down to the
        smallest floats.
        Vectorised in ``q`` in [0, 1].

        Examples
        --------
        >>> from fhsym import FlippedHuber
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> round(float(fh.isf(0.25)), 12)
        1.322261268292
        >>> round(float(-fh.ppf(0.25)), 12)
        1.322261268292
        >>> x = fh.isf(1e-300)                              # far tail
        >>> f"{float(x):.10g}", f"{float(fh.sf(x)):.6g}"
        ('74.09328019', '1e-300')
        """
        qa = V.check_array(q, V.PROBABILITY)
        return scalar_or_array(self.gamma * self._quantile_std(qa, upper=True))

    # ---------------------------------------------------------------- sampling
    def rvs(self, size=None, random_state: RandomState = None) -> Float:
        """Draw samples with a ziggurat on the half-line density exp(-rho_alpha(t)/gamma^2) (eq 8).

        256 layers of equal area built for the shape alpha/gamma (cached per shape); one 64-bit word
        per proposal (layer, sign, 53-bit uniform), about 98-99 % accepted at once, the rest decided by
        one word of a second stream: the wedge test against the exact density, or beyond the base
        edge the exact tail by inversion of eq 10 (:mod:`fhsym.noise.flipped_huber_ziggurat`).  Never
        returns +-inf or -0.0.  The first n samples of a larger request equal a request of n.  Like
        every floating-point sampler it is not hardened against floating-point side channels (Mironov
        2012): see docs/security.md and :class:`fhsym.DiscreteFlippedHuber` for the exact sampler.

        ``size=None`` returns one sample (a numpy float64), otherwise an array of that
        shape; ``random_state`` is None, an int seed, a numpy ``Generator`` or
        ``RandomState`` (scipy conventions).  Distribution of the samples: eq 8, tested by
        Kolmogorov-Smirnov against :meth:`cdf` (``tests/test_sampling.py``).

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
        shape = size_to_shape(size)
        n = int(np.prod(shape)) if shape else 1
        out = self.sample_stream(random_state).draw(n)
        return out.reshape(shape) if shape else out[0]

    def rvs_inversion(self, size=None, random_state: RandomState = None) -> Float:
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
        raw = random_words(as_generator(random_state), n)
        p = (raw >> np.uint64(1)).view(np.int64).astype(np.float64)
        p *= 2.0**-64
        p += 2.0**-65
        s = self._isf_std(p, 0.5 - p) * self.gamma
        xb = s.view(np.uint64)
        xb ^= raw << np.uint64(63)
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
