"""The float sampler of the flipped Huber distribution: a ziggurat (Marsaglia & Tsang, J. Stat. Softw.
5(8), 2000) on the half-line density f(s) = exp(-rho_b(s)) in standard units s = t/gamma, b = alpha/gamma.

rho_b(s) = b s for 0 <= s <= b and (s^2 + b^2)/2 beyond (eq 8 up to the factor 1/kappa), so f is
decreasing on [0, inf) and its inverse is explicit: with L = -log w, f^{-1}(w) = L/b for L <= b^2 and
sqrt(2L - b^2) beyond.  The 256 layers x_1 = r > x_2 > ... > x_255 > x_256 = 0 have equal area

    v = r f(r) + T(r),   x_{i+1} = f^{-1}(f(x_i) + v/x_i),   T(r) = int_r^inf f = kappa~ P(S > r),

with r the root (Brent) of the top layer's closure (f(x_255) + v/x_255 = 1).  One 64-bit word per
proposal: bits 0-7 pick the layer, bit 8 the sign, bits 11-63 the 53-bit uniform U; the proposal
x = U x_i is accepted at once when x < x_{i+1} (about 98-99 % of proposals); otherwise one word of a
second stream decides it: a uniform height in the layer's wedge against f(x), or, in the base layer
beyond r, the exact tail s = isf(U' P(S > r)) (the package's quantile, Appendix B derived).

The two streams are consumed in order (the main stream one word per proposal, the second one word per
proposal that is not accepted at once), so the samples do not depend on how a request is split into
blocks: the first n samples of a larger request are the samples of a request of n.

>>> import numpy as np, fhsym
>>> fh = fhsym.FlippedHuber(alpha=1.0, gamma=2.0)
>>> s = ZigguratSampler(fh, np.random.default_rng(0))
>>> a = np.concatenate([s.draw(3), s.draw(5)])
>>> bool(np.array_equal(a, fh.rvs(8, random_state=0)))
True
"""

from __future__ import annotations

import functools
import math
from typing import Callable, List, Optional, Protocol, Tuple

import numpy as np
from scipy import optimize, special

from .._core.random import Rng, random_words

__all__ = ["LAYERS", "Shape", "ZigguratTables", "ZigguratSampler", "ziggurat_tables"]

#: number of layers (the low 8 bits of a word pick one)
LAYERS = 256
_M53 = 2.0**-53
_SHIFT_U = np.uint64(11)
_SHIFT_SIGN = np.uint64(8)
_ONE = np.uint64(1)
_LAYER_MASK = np.uint64(LAYERS - 1)
_SIGN_POS = np.uint64(63)
#: proposals per block (temporaries stay in cache; the samples do not depend on it)
BLOCK = 1 << 14


class ZigguratTables:
    """Layer tables for one shape b: widths x_i (x_0 = v/f(r), the base layer's virtual width), the
    heights f(x_i), the integer acceptance bounds floor(2^53 x_{i+1}/x_i) and the widths times 2^-53."""

    __slots__ = ("b", "r", "v", "x", "f", "df", "k", "w", "_q_r", "_q_b", "_c", "_a", "_bb")

    def __init__(self, b: float, r: float, v: float, x: np.ndarray, tail_r: float) -> None:
        """tail_r = T(r) = int_r^inf exp(-rho_b) (unnormalised)."""
        self.b, self.r, self.v = b, r, v
        self.x = x  # LAYERS + 1 entries, x[LAYERS] = 0
        self.f = np.array([_f(b, t) for t in x])
        self.f[0] = 0.0  # the base layer's wedge is unused (x >= r there: the exact tail instead)
        self.df = np.diff(self.f)
        ratio = x[1:] / x[:-1]
        self.k = np.floor(ratio * 2.0**53).astype(np.uint64)
        self.w = x[:-1] * _M53
        # the tail beyond r by inversion: T(s) = u T(r).  Beyond b, T(s) = sqrt(2 pi) e^{-b^2/2} Q(s);
        # on [r, b] (only when r < b), T(s) = (e^{-b s} - e^{-b^2})/b + T(b).
        self._q_r = float(special.ndtr(-r))
        self._q_b = float(special.ndtr(-b))
        if r < b:
            t_b = math.sqrt(math.pi / 2.0) * math.exp(-b * b) * float(special.erfcx(b / math.sqrt(2.0)))
            self._c = t_b / tail_r  # P(S > b | S > r): 0 once T(b) underflows (b > ~27)
            self._a = b * tail_r * math.exp(b * r)  # = 1 - e^{-b(b - r)} + b T(b) e^{b r}
            self._bb = math.exp(-b * (b - r))
        else:
            self._c = self._a = self._bb = 1.0

    def tail_quantile(self, u: np.ndarray) -> np.ndarray:
        """The s >= r with T(s) = u T(r), u in (0, 1) (inversion of eq 10 beyond the base edge)."""
        if self.r >= self.b:  # Gaussian beyond r: Q(s) = u Q(r)
            gauss: np.ndarray = -special.ndtri(u * self._q_r)  # scipy is untyped
            return gauss
        out = np.empty_like(u)
        centre = u > self._c
        uc = u[centre]
        out[centre] = self.r - np.log((uc - self._c) * self._a + self._bb) / self.b
        g = ~centre
        if np.any(g):  # Gaussian beyond b: Q(s) = (u / c) Q(b)
            out[g] = -special.ndtri(u[g] / self._c * self._q_b)
        return out


def _rho(b: float, s: float) -> float:
    return b * s if s <= b else 0.5 * (s * s + b * b)


def _f(b: float, s: float) -> float:
    return math.exp(-_rho(b, s))


def _s_of_rho(b: float, L: float) -> float:
    """rho_b^{-1}(L) = f^{-1}(e^{-L}): L/b on the centre (L <= b^2), sqrt(2L - b^2) beyond."""
    if b > 0.0 and L <= b * b:
        return L / b
    return math.sqrt(max(2.0 * L - b * b, 0.0))


def _layers(b: float, r: float, v: float) -> Tuple[float, Optional[List[float]]]:
    """Build x_1 = r, ..., x_{LAYERS-1}; the residual f(x_last) + v/x_last - 1 (> 0: r too small).

    Near the top f is close to 1, so the recursion carries d = 1 - f(x_{i+1}) = (1 - f(x_i)) - v/x_i
    with 1 - f = -expm1(-rho) (no cancellation) and x_{i+1} = rho^{-1}(-log1p(-d))."""
    xs = [r]
    x = r
    for _ in range(LAYERS - 2):
        d = -math.expm1(-_rho(b, x)) - v / x
        if d <= 0.0:
            return 1.0, None
        x = _s_of_rho(b, -math.log1p(-d))
        xs.append(x)
    return v / x + math.expm1(-_rho(b, x)), xs


@functools.lru_cache(maxsize=128)
def _tables_cached(b: float, lk: float, log_sf: Callable[[float], float]) -> ZigguratTables:
    return _build(b, lk, log_sf)


def _build(b: float, lk: float, log_sf: Callable[[float], float]) -> ZigguratTables:
    """Root of the top layer's closure residual in r (the base layer's edge); lk = log kappa~ (the
    normaliser in standard units), log_sf(s) = log P(S > s)."""

    def area(r: float) -> float:
        return r * _f(b, r) + math.exp(log_sf(r) + lk)

    lo, hi = None, None
    scale = 1.0 / b if b > 1.0 else 1.0  # the standardised spread: 1/b in the Laplace limit, 1 otherwise
    r = 3.0 * scale
    for _ in range(200):  # bracket: residual > 0 at lo, < 0 at hi
        res, _ = _layers(b, r, area(r))
        if res > 0.0:
            lo, r = r, r * 2.0
        else:
            hi, r = r, r * 0.5
        if lo is not None and hi is not None:
            break
    if lo is None or hi is None:  # pragma: no cover - the residual changes sign for every b checked
        raise RuntimeError(f"ziggurat: no bracket for the base edge at b={b!r}")
    # the residual is continuous near the root (it jumps only where an intermediate layer overshoots,
    # far below it): Brent's method, about 10 builds instead of 55 bisections
    r = optimize.brentq(lambda t: _layers(b, t, area(t))[0], lo, hi, xtol=lo * 1e-16, rtol=4.0 * 2.0**-52,
                        maxiter=200)
    v = area(r)
    _, xs = _layers(b, r, v)
    assert xs is not None
    x = np.array([v / _f(b, r)] + xs + [0.0])
    return ZigguratTables(b, r, v, x, math.exp(log_sf(r) + lk))


class Shape(Protocol):
    """What the tables and the sampler read of a :class:`fhsym.FlippedHuber` (scalar parameters)."""

    b: float
    gamma: float
    _lw: float

    def _logsf_std_nonneg(self, s: np.ndarray, /) -> np.ndarray: ...


def ziggurat_tables(fh: Shape) -> ZigguratTables:
    """The (cached) tables of a :class:`fhsym.FlippedHuber` (built once per shape b, 2-5 ms).

    >>> import fhsym
    >>> t = ziggurat_tables(fhsym.FlippedHuber(alpha=0.0, gamma=1.0))   # the Gaussian: numpy's r
    >>> round(t.r, 10)
    3.6541528854
    """
    return _tables_cached(float(fh.b), float(fh._lw), _LogSf(fh))


class _LogSf:
    """log P(S > s) of one shape (hashable by b, so the table cache is keyed by the shape)."""

    __slots__ = ("b", "fh")

    def __init__(self, fh: Shape) -> None:
        self.b, self.fh = float(fh.b), fh

    def __call__(self, s: float) -> float:
        return float(self.fh._logsf_std_nonneg(np.array([s]))[0])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _LogSf) and other.b == self.b

    def __hash__(self) -> int:
        return hash(("logsf", self.b))


class ZigguratSampler:
    """A stream of FH(alpha, gamma^2) samples from one random generator: ``draw(m)`` returns the next m.

    Consecutive draws give the samples of one larger draw (the leftover accepted proposals of a block
    are kept for the next call).  Two words of ``rng`` seed the second stream (used only when a proposal
    is not accepted at once).
    """

    def __init__(self, fh: Shape, rng: Rng) -> None:
        self.t = ziggurat_tables(fh)
        self.gamma = float(fh.gamma)
        self.fh = fh
        self.rng = rng
        seed = random_words(rng, 2)
        self._seed = [int(seed[0]), int(seed[1])]
        self._aux: Optional[np.random.Generator] = None
        self._left = np.empty(0)

    def _auxrandom_words(self, n: int) -> np.ndarray:
        if self._aux is None:
            self._aux = np.random.Generator(np.random.PCG64(np.random.SeedSequence(self._seed)))
        return np.asarray(self._aux.bit_generator.random_raw(n), dtype=np.uint64)

    def _block(self, n: int) -> np.ndarray:
        """n proposals -> the accepted ones (scaled by gamma, signed), in proposal order."""
        t = self.t
        w = random_words(self.rng, n)
        j = w >> _SHIFT_U
        i = (w & _LAYER_MASK).astype(np.intp)
        ok = j < t.k.take(i)
        x = j.view(np.int64).astype(np.float64)
        x *= t.w.take(i)
        slow = np.flatnonzero(~ok)
        if slow.size:
            ok[slow], x[slow] = self._slow(i[slow], x[slow])
        x *= self.gamma
        xb = x.view(np.uint64)
        xb ^= ((w >> _SHIFT_SIGN) & _ONE) << _SIGN_POS
        accepted: np.ndarray = x[ok] if slow.size else x
        return accepted

    def _slow(self, i: np.ndarray, x: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """Proposals not accepted at once: one word of the second stream each."""
        t = self.t
        u = (self._auxrandom_words(i.size) >> _SHIFT_U).view(np.int64).astype(np.float64)
        u += 0.5
        u *= _M53  # in (0, 1), never 0 or 1
        # wedge (layers 1..255): a uniform height in [f(x_i), f(x_{i+1})] against f(x) = exp(-rho_b(x))
        b = t.b
        c = np.minimum(x, b)
        rho = x - c
        rho *= x + c
        rho *= 0.5
        rho += b * c  # b x for x <= b, (x^2 + b^2)/2 beyond
        np.negative(rho, out=rho)
        ok = t.f.take(i) + u * t.df.take(i) < np.exp(rho, out=rho)
        base = np.flatnonzero(i == 0)
        if base.size:  # the base layer beyond r: the exact tail, always accepted
            x[base] = t.tail_quantile(u[base])
            ok[base] = True
        return ok, x

    def draw(self, m: int) -> np.ndarray:
        """The next m samples."""
        out = np.empty(m)
        k = min(m, self._left.size)
        out[:k] = self._left[:k]
        self._left = self._left[k:]
        while k < m:
            need = m - k
            got = self._block(min(BLOCK, need + need // 32 + 16))
            g = min(got.size, need)
            out[k : k + g] = got[:g]
            self._left = got[g:]
            k += g
        out += 0.0  # no -0.0
        return out
