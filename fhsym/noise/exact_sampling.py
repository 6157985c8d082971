"""Exact lattice samplers: integer and rational arithmetic only, from random bits to output.

Floating-point noise leaks (Mironov, CCS 2012): the low-order bits of ``x + noise`` computed
in doubles depend on ``x``.  The samplers here never touch a float between the random bits
and the output.  Their output is an integer lattice index ``k``; the released value is
``k * step`` and any conversion to float happens afterwards, outside this module
(:meth:`fhsym.noise.discrete_flipped_huber.DiscreteFlippedHuber.rvs`).

Construction (every step exact):

1. **Exact Bernoulli(p) by lazy comparison.**  A probability ``p`` is known through an
   oracle that returns integers ``lo <= 2^n p <= hi`` for any ``n`` (exact integer interval
   arithmetic, see :func:`exp_neg_bounds`).  A uniform real ``U`` is revealed 32 bits at a
   time; ``U < p`` is decided as soon as the revealed prefix lies entirely below ``lo`` or
   above ``hi`` (probability of needing more bits: at most ``2^-31`` per trial, then the
   comparison continues at 96, 160, ... bits).  The outcome is exactly ``1{U < p}``, so
   ``P(1) = p`` exactly, for irrational ``p = e^{-y}`` as well (Flajolet-Saheb style
   lazy sampling; compare CKS20 Alg 1, which builds Bernoulli(exp(-y)) from rational
   Bernoullis).
2. **Geometric with ratio e^{-theta}** (theta rational): the binary digits of a geometric
   variable are independent, ``P(bit i = 1) = 1 / (1 + e^{theta 2^i})``, and the part above
   bit ``I`` is again geometric with ratio ``e^{-theta 2^I}`` (sampled by repeated
   Bernoulli trials, needed with probability ``< e^{-45}``).
3. **Two-sided discrete Laplace** ``P(k) ~ e^{-theta |k|}``: sign times geometric, the pair
   (negative sign, 0) rejected (CKS20 Alg 2, last step).
4. **Rejection to the target** ``P(k) ~ exp(-E(|k|))`` where ``E`` is convex and piecewise
   quadratic with rational coefficients (the discrete flipped Huber energy
   ``rho_alpha(k h) / gamma^2``).  A candidate is accepted with probability
   ``exp(-q(|k|))``, ``q(n) = E(n) - theta n - m >= 0`` (``m`` = its exact minimum).  On
   each piece ``q = A + B j + C j^2`` with ``A, B, C >= 0`` rational and ``j >= 0`` an
   integer offset, so ``exp(-q)`` is a product of Bernoullis with *fixed* probabilities:
   ``e^{-A}``, ``e^{-(B 2^i + C 4^i)}`` for each set bit ``i`` of ``j`` and ``e^{-C 2^{i+l+1}}``
   for each pair of set bits ``i < l`` (from ``j^2 = sum_i 4^i j_i + sum_{i<l} 2^{i+l+1} j_i j_l``).
   Their thresholds are computed once, so the trials vectorise over NumPy integer arrays.

References: C. Canonne, G. Kamath, T. Steinke, *The discrete Gaussian for differential
privacy*, NeurIPS 2020 (CKS20), Algorithms 1-3; the OpenDP library's exact samplers; I.
Mironov, *On significance of the least significant bits for differential privacy*, CCS 2012.

Randomness: the operating system (``secrets.token_bytes``) by default; for tests a seed
(``int``, PCG64), a ``numpy.random.Generator``/``RandomState`` or a ``random.Random`` used
only as a source of uniform random integers.  The acceptance loop runs a data-dependent
number of times: the *running time* depends on the output (see docs/security.md).

This module contains no float literal, no ``float(...)``, no true division ``/`` and no
``math`` import; ``tests/test_exact_sampling.py`` audits that statically and at run time.
"""

from __future__ import annotations

import random as _pyrandom
import secrets
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Dict, List, Optional, Tuple, Union

import numpy as np

from .._core.types import BoolArray, U32Array

__all__ = [
    "as_fraction",
    "exp_neg_bounds",
    "logistic_bounds",
    "ExactProbability",
    "RandomBits",
    "bernoulli",
    "Geometric",
    "sample_discrete_laplace",
    "sample_discrete_gaussian",
    "ExactLatticeSampler",
    "discrete_flipped_huber_sampler",
]

Rational = Union[int, Fraction]
_U32 = 1 << 32
_FIRST_BITS = 32  # bits revealed by the vectorised first stage of a Bernoulli trial
_MORE_BITS = 64  # bits revealed per refinement step (scalar, rare)
_GUARD = 64  # guard bits of the fixed-point interval arithmetic
_LN2_UP = Fraction(6931471806, 10**10)  # > ln 2 (ln 2 = 0.69314718055994...)
_HIGH_PART = 45  # the geometric's part above bit I has ratio e^{-theta 2^I} <= e^{-45}
_INT64_SAFE = 1 << 62


# ---------------------------------------------------------------------------
# rational parameters
# ---------------------------------------------------------------------------


def as_fraction(x: object, name: str = "x") -> Fraction:
    """The exact rational value of an int, Fraction or binary floating-point number.

    A float is an exact dyadic rational; ``as_integer_ratio`` returns it without rounding.

    >>> as_fraction(0.375)
    Fraction(3, 8)
    """
    if isinstance(x, bool):
        raise ValueError(f"{name} must be a finite real number; got {x!r}")
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    try:
        num, den = x.as_integer_ratio()  # type: ignore[attr-defined]  # float, numpy floating, Decimal; others raise, caught
    except (AttributeError, OverflowError, ValueError, TypeError):
        raise ValueError(f"{name} must be a finite real number; got {x!r}") from None
    return Fraction(num, den)


def _floor(x: Fraction) -> int:
    return x.numerator // x.denominator


def _ceil(x: Fraction) -> int:
    return -((-x.numerator) // x.denominator)


# ---------------------------------------------------------------------------
# exact integer interval arithmetic for exp(-y)
# ---------------------------------------------------------------------------


def _exp_neg_unit(num: int, den: int, w: int) -> Tuple[int, int]:
    """Integers (L, U) with L <= 2^w exp(-num/den) <= U for 0 <= num/den <= 1.

    Alternating Taylor series with non-increasing terms x^i/i!: the odd partial sums are
    lower bounds and the even ones upper bounds; every term is rounded outward.
    """
    one = 1 << w
    t_lo = t_hi = one  # bounds of 2^w x^i / i!
    lower = upper = one  # bounds of 2^w S_i (S_i the i-th partial sum)
    best_lo, best_hi = 0, one  # S_{-1} := 0 <= e^{-x} <= S_0 = 1
    i = 0
    while True:
        i += 1
        t_lo = (t_lo * num) // (den * i)
        t_hi = -((-t_hi * num) // (den * i))
        if i & 1:
            lower, upper = lower - t_hi, upper - t_lo
            best_lo = max(best_lo, lower)
        else:
            lower, upper = lower + t_lo, upper + t_hi
            best_hi = min(best_hi, upper)
        if t_hi <= 1 and i >= 2:
            return max(best_lo, 0), best_hi


def _pow_fixed(lo: int, hi: int, q: int, w: int) -> Tuple[int, int]:
    """Outward-rounded [lo, hi]^q in fixed point 2^-w (0 <= lo <= hi <= 2^w)."""
    r_lo = r_hi = 1 << w
    while q:
        if q & 1:
            r_lo = (r_lo * lo) >> w
            r_hi = -((-r_hi * hi) >> w)
        q >>= 1
        if q:
            lo = (lo * lo) >> w
            hi = -((-hi * hi) >> w)
    return r_lo, r_hi


def _exp_neg_fixed(y: Fraction, w: int) -> Tuple[int, int]:
    """Integers (L, U), L <= 2^w e^{-y} <= U, for rational y >= 0."""
    if y < 0:
        raise ValueError(f"exp(-y) needs y >= 0; got {y}")
    if y == 0:
        return 1 << w, 1 << w
    if y >= _LN2_UP * (w + 1):  # e^{-y} <= 2^{-(w+1)}
        return 0, 1
    q = _floor(y)
    r = y - q
    lo, hi = _exp_neg_unit(r.numerator, r.denominator, w)
    if q:
        e_lo, e_hi = _exp_neg_unit(1, 1, w)
        q_lo, q_hi = _pow_fixed(e_lo, e_hi, q, w)
        lo = (lo * q_lo) >> w
        hi = -((-hi * q_hi) >> w)
    return lo, hi


def exp_neg_bounds(y: Rational, n: int) -> Tuple[int, int]:
    """Integers (lo, hi) with lo <= 2^n exp(-y) <= hi (y >= 0 rational), hi - lo <= 2.

    Integer fixed-point arithmetic with 64 guard bits and outward rounding; no float.

    >>> lo, hi = exp_neg_bounds(Fraction(1, 2), 20)          # 2^20 e^{-1/2} = 635993.06...
    >>> (lo, hi)
    (635993, 635994)
    """
    y = Fraction(y)
    g = _GUARD + 2 * max(_floor(y), 1).bit_length()
    lo, hi = _exp_neg_fixed(y, n + g)
    return lo >> g, -((-hi) >> g)


def logistic_bounds(y: Rational, n: int) -> Tuple[int, int]:
    """Integers (lo, hi) with lo <= 2^n / (1 + e^y) <= hi (y >= 0 rational).

    >>> logistic_bounds(0, 8)                                   # 1/(1 + 1) = 1/2
    (128, 128)
    """
    y = Fraction(y)
    g = _GUARD + 2 * max(_floor(y), 1).bit_length()
    w = n + g
    e_lo, e_hi = _exp_neg_fixed(y, w)  # bounds of 2^w e^{-y}; p = e/(1+e) increases in e
    one = 1 << w
    lo = (e_lo << n) // (one + e_lo)
    hi = -((-(e_hi << n)) // (one + e_hi))
    return lo, hi


class ExactProbability:
    """A probability p in [0, 1] given by an exact bounds oracle ``bounds(n) -> (lo, hi)``.

    ``lo <= 2^n p <= hi`` must hold for every n >= 32; the first-stage thresholds
    (n = 32) are cached.  ``p == 1`` and ``p == 0`` are recognised when the bounds say so.

    >>> p = ExactProbability.exp_neg(Fraction(0))
    >>> p.always, p.never
    (True, False)
    """

    __slots__ = ("_bounds", "lo", "hi", "always", "never", "label")

    def __init__(self, bounds: Callable[[int], Tuple[int, int]], label: str = "") -> None:
        self._bounds = bounds
        self.label = label
        lo, hi = bounds(_FIRST_BITS)
        if not 0 <= lo <= hi <= _U32:
            raise ArithmeticError(f"bad probability bounds {lo}, {hi} for {label}")
        self.lo, self.hi = lo, hi
        self.always = lo == _U32
        self.never = hi == 0

    @classmethod
    def exp_neg(cls, y: Rational) -> "ExactProbability":
        """p = exp(-y), y >= 0 rational."""
        y = Fraction(y)
        return cls(lambda n: exp_neg_bounds(y, n), f"exp(-{y})")

    @classmethod
    def logistic(cls, y: Rational) -> "ExactProbability":
        """p = 1 / (1 + exp(y)), y >= 0 rational."""
        y = Fraction(y)
        return cls(lambda n: logistic_bounds(y, n), f"1/(1+exp({y}))")

    def bounds(self, n: int) -> Tuple[int, int]:
        return self._bounds(n)

    def refine(self, prefix: int, nbits: int, src: "RandomBits") -> bool:
        """Decide U < p given the first ``nbits`` bits ``prefix`` of U, revealing more bits."""
        while True:
            prefix = (prefix << _MORE_BITS) | src.getrandbits(_MORE_BITS)
            nbits += _MORE_BITS
            lo, hi = self._bounds(nbits)
            if prefix + 1 <= lo:  # U < (prefix + 1) 2^-n <= p
                return True
            if prefix >= hi:  # U >= prefix 2^-n >= p
                return False


# ---------------------------------------------------------------------------
# random bits
# ---------------------------------------------------------------------------


class RandomBits:
    """Uniform random 32-bit words from the OS or a seeded generator, served from a buffer.

    ``random_state``: ``None`` (default) = the operating system's CSPRNG via
    ``secrets.token_bytes``; an ``int`` seed = ``numpy.random.Generator(PCG64(seed))``; a
    ``numpy.random.Generator`` or ``RandomState``; or a ``random.Random`` (including
    ``random.SystemRandom``).  A generator is used only through its uniform-integer
    interface (``integers``, ``randint``, ``getrandbits``), never through its floats.
    """

    _BLOCK = 1 << 16

    def __init__(self, random_state: object = None) -> None:
        rs = random_state
        if rs is None:
            self._fill = self._fill_os
        elif isinstance(rs, (int, np.integer)) and not isinstance(rs, bool):
            if rs < 0:
                raise ValueError(f"random_state must be a non-negative integer seed; got {rs!r}")
            self._gen: Union[np.random.Generator, np.random.RandomState, _pyrandom.Random] = np.random.Generator(np.random.PCG64(int(rs)))
            self._fill = self._fill_numpy
        elif isinstance(rs, np.random.Generator):
            self._gen = rs
            self._fill = self._fill_numpy
        elif isinstance(rs, np.random.RandomState):
            self._gen = rs
            self._fill = self._fill_legacy
        elif isinstance(rs, _pyrandom.Random):
            self._gen = rs
            self._fill = self._fill_pyrandom
        else:
            raise ValueError(
                "random_state must be None (OS randomness), a non-negative int seed, a numpy "
                f"Generator/RandomState or a random.Random; got {rs!r}"
            )
        self._buf = np.empty(0, dtype=np.uint32)
        self._pos = 0

    # -- sources -------------------------------------------------------------
    @staticmethod
    def _fill_os(n: int) -> U32Array:
        return np.frombuffer(secrets.token_bytes(4 * n), dtype=np.uint32)

    def _fill_numpy(self, n: int) -> U32Array:
        assert isinstance(self._gen, np.random.Generator)  # _fill is _fill_numpy only for a Generator
        return self._gen.integers(0, _U32, size=n, dtype=np.uint32)

    def _fill_legacy(self, n: int) -> U32Array:
        assert isinstance(self._gen, np.random.RandomState)  # _fill is _fill_legacy only for a RandomState
        return self._gen.randint(0, _U32, size=n, dtype=np.uint32)

    def _fill_pyrandom(self, n: int) -> U32Array:
        assert isinstance(self._gen, _pyrandom.Random)  # _fill is _fill_pyrandom only for a random.Random
        return np.frombuffer(self._gen.getrandbits(32 * n).to_bytes(4 * n, "little"), dtype=np.uint32)

    # -- interface -----------------------------------------------------------
    def u32(self, n: int) -> U32Array:
        """n independent uniform 32-bit words (uint32)."""
        avail = self._buf.size - self._pos
        if n <= avail:
            out = self._buf[self._pos : self._pos + n]
            self._pos += n
            return out
        if n >= self._BLOCK:
            head = self._buf[self._pos :]
            self._buf, self._pos = np.empty(0, dtype=np.uint32), 0
            return np.concatenate([head, self._fill(n - head.size)])
        head = self._buf[self._pos :]
        self._buf = self._fill(self._BLOCK)
        self._pos = n - head.size
        return np.concatenate([head, self._buf[: self._pos]])

    def bits(self, n: int) -> BoolArray:
        """n independent fair bits (bool)."""
        words = self.u32((n + 31) >> 5)
        return np.unpackbits(words.view(np.uint8))[:n].astype(bool)

    def getrandbits(self, k: int) -> int:
        """A uniform integer in [0, 2^k) (k a multiple of 32)."""
        out = 0
        for w in self.u32(k >> 5).tolist():
            out = (out << 32) | w
        return out


def _as_bits(random_state: object) -> RandomBits:
    return random_state if isinstance(random_state, RandomBits) else RandomBits(random_state)


# ---------------------------------------------------------------------------
# vectorised exact primitives
# ---------------------------------------------------------------------------


def bernoulli(p: ExactProbability, n: int, src: RandomBits) -> np.ndarray:
    """n independent exact Bernoulli(p) draws (bool array)."""
    if p.always:
        return np.ones(n, dtype=bool)
    if p.never:
        return np.zeros(n, dtype=bool)
    u = src.u32(n)
    lo, hi = p.lo, p.hi
    out = u < np.uint32(lo) if lo < _U32 else np.ones(n, dtype=bool)
    # undecided: lo <= u < hi (then the first 32 bits do not settle U < p)
    if hi == lo + 1:
        und = u == np.uint32(lo)
    elif hi == lo:
        return out
    else:
        und = (u >= np.uint32(lo)) & ((u < np.uint32(hi)) if hi < _U32 else True)
    if und.any():
        for i in np.flatnonzero(und).tolist():
            out[i] = p.refine(int(u[i]), _FIRST_BITS, src)
    return out


def _bernoulli_scalar(p: ExactProbability, src: RandomBits) -> bool:
    return bool(bernoulli(p, 1, src)[0])


class Geometric:
    """Exact geometric variables G >= 0 with P(G = g) = (1 - e^{-theta}) e^{-theta g}.

    Bits 0..I-1 of G are independent Bernoulli(1/(1 + e^{theta 2^i})); the part above bit I
    is geometric with ratio e^{-theta 2^I} <= e^{-45}, drawn by repeated trials.

    >>> g = Geometric(Fraction(1, 2))
    >>> x = g.sample(10**4, RandomBits(1))
    >>> int(x.min()) >= 0
    True
    """

    def __init__(self, theta: Rational) -> None:
        theta = Fraction(theta)
        if theta <= 0:
            raise ValueError(f"theta must be > 0; got {theta}")
        self.theta = theta
        i = 0
        while theta * (1 << i) < _HIGH_PART:
            i += 1
        self.nbits = i
        self.bit_probs = [ExactProbability.logistic(theta * (1 << k)) for k in range(i)]
        self.high = ExactProbability.exp_neg(theta * (1 << i))

    def sample(self, n: int, src: RandomBits) -> np.ndarray:
        """n draws (int64; object dtype in the never-observed case of values >= 2^62)."""
        g = np.zeros(n, dtype=np.int64)
        for k, p in enumerate(self.bit_probs):
            g |= bernoulli(p, n, src).astype(np.int64) << np.int64(k)
        more = np.flatnonzero(bernoulli(self.high, n, src))
        if more.size:
            big = []
            for i in more.tolist():
                h = 1
                while _bernoulli_scalar(self.high, src):
                    h += 1
                big.append((i, int(g[i]) + (h << self.nbits)))
            if any(v >= _INT64_SAFE for _, v in big):
                g = g.astype(object)
            for i, v in big:
                g[i] = v
        return g


def _laplace_candidates(geo: Geometric, n: int, src: RandomBits) -> np.ndarray:
    """Two-sided discrete Laplace P(k) ~ e^{-theta |k|}: +-G with (-, 0) rejected; <= n values."""
    g = geo.sample(n, src)
    neg = src.bits(n)
    keep: BoolArray = ~(neg & (g == 0))
    return np.where(neg, -g, g)[keep]


# ---------------------------------------------------------------------------
# rejection to a convex piecewise-quadratic energy
# ---------------------------------------------------------------------------


@dataclass
class _Segment:
    """|k| in [lo, hi] (hi None = infinity); q = A + B j + C j^2 with j = n - lo (up) or hi - n."""

    lo: int
    hi: Optional[int]
    up: bool
    A: Fraction
    B: Fraction
    C: Fraction
    a_prob: Optional[ExactProbability] = None
    _lin: Dict[int, ExactProbability] = field(default_factory=dict)
    _pair: Dict[int, ExactProbability] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.A < 0 or self.B < 0 or self.C < 0:
            raise ArithmeticError(f"segment coefficients must be >= 0: {self.A}, {self.B}, {self.C}")
        if self.A > 0:
            self.a_prob = ExactProbability.exp_neg(self.A)

    @property
    def top(self) -> int:
        assert self.hi is not None, "a descending segment ends at a finite hi (_segments)"
        return self.hi

    def lin(self, i: int) -> ExactProbability:
        p = self._lin.get(i)
        if p is None:
            p = self._lin[i] = ExactProbability.exp_neg(self.B * (1 << i) + self.C * (1 << (2 * i)))
        return p

    def pair(self, m: int) -> ExactProbability:
        p = self._pair.get(m)
        if p is None:
            p = self._pair[m] = ExactProbability.exp_neg(self.C * (1 << m))
        return p

    def accept(self, j: np.ndarray, src: RandomBits) -> np.ndarray:
        """Exact Bernoulli(exp(-(A + B j + C j^2))) for each j (int64 array, j >= 0)."""
        live = bernoulli(self.a_prob, j.size, src) if self.a_prob is not None else np.ones(j.size, dtype=bool)
        if (self.B == 0 and self.C == 0) or j.size == 0:
            return live
        nb = int(j.max()).bit_length()
        bits: List[np.ndarray] = []
        for i in range(nb):
            bi = ((j >> np.int64(i)) & np.int64(1)).astype(bool)
            bits.append(bi)
            sel = np.flatnonzero(bi & live)
            if sel.size:
                live[sel[~bernoulli(self.lin(i), sel.size, src)]] = False
        if self.C != 0:
            for hi_bit in range(1, nb):
                both_hi = bits[hi_bit] & live
                if not both_hi.any():
                    continue
                for lo_bit in range(hi_bit):
                    sel = np.flatnonzero(bits[lo_bit] & both_hi & live)
                    if sel.size:
                        live[sel[~bernoulli(self.pair(lo_bit + hi_bit + 1), sel.size, src)]] = False
        return live


@dataclass(frozen=True)
class _Piece:
    """E(n) = a2 n^2 + a1 n + a0 for integers n in [lo, hi] (hi None = infinity)."""

    lo: int
    hi: Optional[int]
    a2: Fraction
    a1: Fraction
    a0: Fraction

    def at(self, n: int) -> Fraction:
        return (self.a2 * n + self.a1) * n + self.a0


def _integer_min(p: _Piece, shift: Fraction) -> Fraction:
    """min over integers n in the piece of p(n) - shift n (convex in n)."""
    a1 = p.a1 - shift
    cand = [p.lo] + ([p.hi] if p.hi is not None else [])
    if p.a2 > 0:
        v = Fraction(-a1, 2 * p.a2)
        for n in (_floor(v), _ceil(v)):
            if n >= p.lo and (p.hi is None or n <= p.hi):
                cand.append(n)
    elif p.hi is None and a1 < 0:
        raise ArithmeticError("energy minus envelope unbounded below")
    return min(p.a2 * n * n + a1 * n + p.a0 for n in cand)


def _segments(pieces: List[_Piece], theta: Fraction, m: Fraction) -> List[_Segment]:
    """Split each piece of q(n) = E(n) - theta n - m at its vertex; expand in the offset j."""
    out: List[_Segment] = []
    for p in pieces:
        a2, a1, a0 = p.a2, p.a1 - theta, p.a0 - m

        def q(n: int) -> Fraction:
            return (a2 * n + a1) * n + a0

        def up(lo: int, hi: Optional[int]) -> _Segment:  # n = lo + j
            return _Segment(lo, hi, True, q(lo), 2 * a2 * lo + a1, a2)

        def down(lo: int, hi: int) -> _Segment:  # n = hi - j
            return _Segment(lo, hi, False, q(hi), -(2 * a2 * hi + a1), a2)

        if a2 == 0:
            if a1 >= 0:
                out.append(up(p.lo, p.hi))
            else:
                if p.hi is None:
                    raise ArithmeticError("decreasing unbounded piece")
                out.append(down(p.lo, p.hi))
            continue
        v = Fraction(-a1, 2 * a2)
        vf = _floor(v)
        if vf < p.lo:
            out.append(up(p.lo, p.hi))
        elif p.hi is not None and vf >= p.hi:
            out.append(down(p.lo, p.hi))
        else:
            out.append(down(p.lo, vf))
            out.append(up(vf + 1, p.hi))
    return out


class ExactLatticeSampler:
    """Exact sampler of P(k) ~ exp(-E(|k|)) on the integers, E convex piecewise quadratic.

    ``pieces`` partition n = |k| >= 0 into integer intervals on which E is a quadratic with
    rational coefficients; ``theta`` is the rate of the discrete Laplace envelope.  The
    acceptance probability of a candidate k is exp(-(E(|k|) - theta |k| - m)) with m the
    exact integer minimum of E(n) - theta n, so every accepted k has probability exactly
    proportional to exp(-E(|k|)).
    """

    def __init__(self, pieces: List[_Piece], theta: Fraction) -> None:
        if pieces[0].lo != 0 or any(a.hi is None or a.hi + 1 != b.lo for a, b in zip(pieces, pieces[1:])):
            raise ValueError("pieces must partition the non-negative integers in order")
        if pieces[-1].hi is not None:
            raise ValueError("the last piece must be unbounded")
        self.theta = Fraction(theta)
        self.pieces = pieces
        self.m = min(_integer_min(p, self.theta) for p in pieces)
        self.segments = _segments(pieces, self.theta, self.m)
        self.geometric = Geometric(self.theta)

    def sample(self, size: int, random_state: object = None) -> np.ndarray:
        """``size`` exact draws of k (int64 array; object dtype if some |k| >= 2^62)."""
        src = _as_bits(random_state)
        parts: List[np.ndarray] = []
        need = size
        drawn = kept = 0  # per call, so that a seed determines the output
        while need > 0:
            batch = need * (drawn + 64) // (kept + 32) + 64
            k = _laplace_candidates(self.geometric, batch, src)
            ok = self._accept(k, src)
            acc = k[ok][:need]
            drawn, kept = drawn + batch, kept + int(ok.sum())
            parts.append(acc)
            need -= acc.size
        out = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        return out

    def _accept(self, k: np.ndarray, src: RandomBits) -> np.ndarray:
        if k.dtype == object:  # astronomically rare: exact scalar path
            return np.array([self._accept_scalar(int(v), src) for v in k.tolist()], dtype=bool)
        n = np.abs(k)
        ok = np.zeros(k.size, dtype=bool)
        for s in self.segments:
            in_seg = n >= np.int64(s.lo)
            if s.hi is not None:
                in_seg &= n <= np.int64(s.hi)
            idx = np.flatnonzero(in_seg)
            if idx.size == 0:
                continue
            j = n[idx] - np.int64(s.lo) if s.up else np.int64(s.top) - n[idx]
            ok[idx] = s.accept(j, src)
        return ok

    def _accept_scalar(self, k: int, src: RandomBits) -> bool:
        n = abs(k)
        for s in self.segments:
            if n >= s.lo and (s.hi is None or n <= s.hi):
                q = sum((c * (n - s.lo if s.up else s.top - n) ** e for e, c in enumerate((s.A, s.B, s.C))), Fraction(0))
                return _bernoulli_scalar(ExactProbability.exp_neg(q), src)
        raise AssertionError("no segment")


def discrete_flipped_huber_sampler(alpha: object, gamma: object, step: object) -> ExactLatticeSampler:
    """The exact sampler of the discrete flipped Huber index k: P(k) ~ exp(-rho_alpha(k h)/gamma^2).

    With h = step, lambda = alpha h/gamma^2, K = floor(alpha/h): E(n) = lambda n for n <= K and
    (h^2 n^2 + alpha^2)/(2 gamma^2) for n > K (paper eq 7 on the lattice).  Envelope rate
    theta = max(lambda, h/gamma): the Laplace centre itself when alpha >= gamma (then the
    centre is accepted without a trial), the rate 1/sigma of the best Laplace envelope of a
    Gaussian otherwise.  The parameters are exact rationals (floats are converted exactly).

    >>> s = discrete_flipped_huber_sampler(1.0, 2.0, 0.25)
    >>> k = s.sample(5, random_state=7)
    >>> k.dtype.kind, k.shape
    ('i', (5,))
    """
    a = as_fraction(alpha, "alpha")
    g = as_fraction(gamma, "gamma")
    h = as_fraction(step, "step")
    if a < 0:
        raise ValueError(f"alpha must be >= 0; got {alpha!r}")
    if g <= 0:
        raise ValueError(f"gamma must be > 0; got {gamma!r}")
    if h <= 0:
        raise ValueError(f"step must be > 0; got {step!r}")
    if h < g * Fraction(1, 1 << 30):
        raise ValueError(f"step/gamma must be >= 2^-30 for the exact sampler; got step={step!r}, gamma={gamma!r}")
    g2 = g * g
    lam = Fraction(a * h, g2)
    K = _floor(Fraction(a, h))
    centre = _Piece(0, K, Fraction(0), lam, Fraction(0))
    tail = _Piece(K + 1, None, Fraction(h * h, 2 * g2), Fraction(0), Fraction(a * a, 2 * g2))
    theta = max(lam, Fraction(h, g))
    return ExactLatticeSampler([centre, tail], theta)


def sample_discrete_laplace(scale: object, size: int, random_state: object = None) -> np.ndarray:
    """Exact draws of P(k) ~ exp(-|k|/scale) on the integers (scale > 0 rational or float).

    >>> sample_discrete_laplace(3, 4, random_state=0).shape
    (4,)
    """
    t = as_fraction(scale, "scale")
    if t <= 0:
        raise ValueError(f"scale must be > 0; got {scale!r}")
    geo = Geometric(Fraction(1, t))
    src = _as_bits(random_state)
    parts, need = [], size
    while need > 0:
        k = _laplace_candidates(geo, need + need // 2 + 16, src)[:need]
        parts.append(k)
        need -= k.size
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def sample_discrete_gaussian(sigma: object, size: int, random_state: object = None) -> np.ndarray:
    """Exact draws of the discrete Gaussian P(k) ~ exp(-k^2/(2 sigma^2)) on the integers.

    The discrete flipped Huber with alpha = 0 and step 1 (sigma rational or float > 0).

    >>> sample_discrete_gaussian(10, 3, random_state=0).shape
    (3,)
    """
    s = as_fraction(sigma, "sigma")
    if s <= 0:
        raise ValueError(f"sigma must be > 0; got {sigma!r}")
    return discrete_flipped_huber_sampler(0, s, 1).sample(size, random_state)
