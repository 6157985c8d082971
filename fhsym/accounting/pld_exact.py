"""A proven upper bound of delta(eps) for the K-fold composition of a symmetric 1-D mechanism (exact arithmetic).

:func:`exact_delta_upper` returns a float ``>= delta(eps)`` of the ``folds``-fold composition of the 1-D
mechanism "add this noise at sensitivity Delta" (``noise`` a noise law with
ball-arithmetic profile enclosures, :meth:`fhsym.NoiseDistribution.profile_enclosure`), computed on an :class:`ExactGrid`.  No float kernel, no FFT and
no float rounding enters the bound: the only inputs are ball-arithmetic enclosures (python-flint ``arb``)
of the 1-D profile at the exact binary parameters, and everything after them is integer arithmetic
(python-flint ``fmpz_poly``) or ball arithmetic.  The computation is deterministic, so the same grid gives
the same bound bit for bit (a certificate records its grid, :meth:`ExactGrid.to_dict`), and *every* grid
gives a valid bound: the grid decides how tight the bound is, never whether it holds.

Why the result is >= the true delta
-----------------------------------
Masses are integers in units of 2^-P (P = ``bits``).  The invariant (as in :mod:`fhsym.accounting.pld_core`):
the represented measure on the loss lattice h Z (plus +inf) is obtained from the loss distribution of a
pair of distributions that *dominates* the mechanism by adding mass and moving mass to larger losses.
delta(eps) = sum_j p_j (1 - e^{eps - l_j})_+ + p_inf has weights in [0, 1], non-decreasing in l_j, so it
only grows under both operations, and a convolution of such measures is such a measure for the
composition (adding or moving up mass in a factor adds or moves up mass in the product).

1. Nodes.  W_j >= 2^P delta(j h), j = 0..n: the upper end of :meth:`~fhsym.NoiseDistribution.profile_enclosure`
   at eps = j h (rounded down to a float when j h is not one: delta is non-increasing), rounded up to
   an integer.  Then W_j := min(W_0, ..., W_j) (delta is non-increasing, so each is still an upper bound).
2. The dominating pair (connect-the-dots; Doroshenko, Ghazi, Kamath, Kumar, Manurangsi, PETS 2022).  The
   hockey-stick curve H(u) = delta(log u) is convex and non-increasing on u = e^eps >= 1, so the chord
   interpolation of the nodes at u_j = e^{j h}, flat at W_n beyond u_n, lies above H.  A loss measure on
   {h, ..., n h, +inf} with survival S_k = P(L > k h) has on u >= 1 the curve
   sum_{j >= k} S_j (e^{(k-j) h} - e^{(k-j-1) h}) (+ S_n at the top) at u_k, linear between nodes: a
   *positive* linear functional of S.  The chord curve has S_k = W_k + (W_k - W_{k+1})/(e^h - 1), S_n = W_n;
   S is computed with an upper bound of 1/(e^h - 1), rounded up, then made non-increasing from the top
   (S_k := max(S_k, S_{k+1})): a curve above the chord curve, above H.  Positive atoms p_j = S_{j-1} - S_j
   (j = 1..n), p_inf = S_n.  The pair is symmetric: the atom at -j h is q_j = e^{-j h} p_j (rounded up,
   with an upper bound of e^{-j h}) and the atom at 0 is p_0 = 1 - p_inf - sum_j (p_j + q_j), rounded up
   with a lower bound of e^{-j h}.  The pair exists when p_0 >= 0, checked with the upper bounds of
   e^{-j h}; if not, the lowest positive atoms are moved to +inf (mass moved up: the curve only rises and
   p_0 gains q_j) until it holds.  A pair whose curve lies above H on u >= 1 lies above it everywhere
   (on u <= 1 the curve is the perspective u H(1/u) + 1 - u), so it dominates the mechanism (Blackwell),
   and the product of dominating pairs dominates the composition.
3. Composition: binary powering (``folds`` in binary, lowest bit first), each product an exact
   ``fmpz_poly`` product re-rounded UP to units 2^-P; the +inf mass of a product is
   a_inf (|b| + b_inf) + |a| b_inf, rounded up.  After each product the window is cut: the lowest
   coefficients whose sum is <= ``cut_low`` are moved UP to the first coefficient kept, the highest whose
   sum is <= ``cut_high`` are moved to +inf.  Both move mass up, so validity does not depend on the cuts.
4. Evaluation: delta(eps) <= 2^-P (p_inf + sum_{l_i > eps} c_i - e^{eps - l_k} sum_{i >= k} c_i e^{-(i-k) h})
   with k the first index with l_i > eps: exact integer sums and a lower bound of the second sum by
   ``arb_poly`` evaluation at a ball containing e^{-h}; the ball's upper end, rounded up to a float.

What the grid costs (tightness only): the discretisation (O(h^2), as the float PLD), the mass above the
top node moved to +inf (folds * delta(n h)), the rounding (at most one unit 2^-P per coefficient of every
rounded vector) and the cuts (at most ``cut_low + cut_high`` units per product).

>>> g = ExactGrid(step=Fraction(1, 256), nodes=1280, bits=64, cut_low=0, cut_high=0)
>>> import fhsym
>>> up = exact_delta_upper(fhsym.Gaussian(2.0), 1.0, 1.0, 4, g).upper
>>> exact = fhsym.Gaussian(1.0).profile_enclosure(1.0, 1.0).upper   # 4 x N(0, 4) at Delta = 1: sigma = 2/sqrt(4)
>>> bool(exact <= up <= exact * (1 + 1e-4))
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Dict, List, Mapping, Optional, Tuple

from flint import arb, arb_poly, ctx, fmpq, fmpz, fmpz_poly

from .._core.arb.core import float_up
from .._core.limits import (BASE_BYTES, BASE_SECONDS, NODE_SECONDS, PRODUCT_BYTES_PER_BIT, PRODUCT_BYTES_PER_TERM,
                            PRODUCT_SECONDS, Cost)

__all__ = ["ExactGrid", "ExactBound", "exact_delta_upper", "exact_cost", "GRID_FORMAT", "SERIES_FORMAT",
           "GRID_FORMATS", "METHOD", "MAX_NODES", "MAX_BITS", "MAX_TERMS"]

GRID_FORMAT = "pld-exact-1"  # nodes: the law's profile_upper_ends (one ball-arithmetic enclosure per node)
SERIES_FORMAT = "pld-exact-2"  # nodes: the law's profile_series_upper_ends (flipped Huber: shared Taylor series)
GRID_FORMATS = (GRID_FORMAT, SERIES_FORMAT)
METHOD = {GRID_FORMAT: "pld-exact", SERIES_FORMAT: "pld-exact-2"}  # a certificate's method for each grid format
_NODE_RULE = {GRID_FORMAT: "profile_enclosure upper ends at the lattice points",
              SERIES_FORMAT: "series upper ends at the lattice points (fhsym.noise.plans.fh_nodes, Taylor series of "
                             "the Mills ratio on cells)"}
MAX_NODES = 100_000  # refuse grids with more nodes (each is a ball-arithmetic profile evaluation)
MAX_BITS = 4096  # refuse finer fixed point (a unit 2^-4096 is far below any delta a float can state)
MAX_TERMS = 1 << 22  # refuse a product longer than this (memory and run time; a genuine grid's windows are far shorter)
NODE_REL_WIDTH = 2.0**-40  # the node enclosures are refined to this relative width (tightness only)
NODE_MAX_PREC = 1024
_GUARD = 40  # extra bits of the fixed-point bounds of e^{-j h} and 1/(e^h - 1)


def _floor_int(x: arb) -> int:
    """floor of the lower end of the ball x (an exact dyadic) as a Python int."""
    m, e = x.lower().man_exp()
    man, ex = int(m), int(e)
    return man << ex if ex >= 0 else man >> -ex


def _ceil_int(x: arb) -> int:
    """ceil of the upper end of the ball x as a Python int."""
    return -_floor_int(-x)


def _digits(x: str) -> bool:
    """A non-empty string of ASCII digits (``str.isdigit`` alone admits other scripts' digits)."""
    return x.isascii() and x.isdigit()


def _ceil_div(a: int, b: int) -> int:
    return -((-a) // b)


@dataclass(frozen=True)
class ExactGrid:
    """What :func:`exact_delta_upper` computes on: everything a re-check needs besides the mechanism.

    ``step`` h > 0 (an exact rational: a dyadic, or a loss atom / m), ``nodes`` n (profile nodes at
    j h, j = 0..n), ``bits`` P (masses in units 2^-P), ``cut_low`` / ``cut_high`` (the window rule, in
    units 2^-P).  Any values give a valid bound (module docstring); they set its tightness and cost.
    ``format``: how the nodes' balls are formed -- :data:`GRID_FORMAT` ("pld-exact-1"): the law's
    ``profile_upper_ends`` (each node its own enclosure); :data:`SERIES_FORMAT` ("pld-exact-2"): the law's
    ``profile_series_upper_ends`` (flipped Huber: its Gaussian-branch nodes from Taylor series shared by the nodes of
    a cell, :mod:`fhsym.noise.plans.fh_nodes`).  Either is a ball containing the profile at every node, so either
    gives a valid bound; a certificate records which, and a re-check forms the nodes the same way.

    >>> g = ExactGrid(Fraction(3, 1024), 200, 80, 5, 7)
    >>> ExactGrid.from_dict(g.to_dict()) == g
    True
    """

    step: Fraction
    nodes: int
    bits: int
    cut_low: int
    cut_high: int
    format: str = GRID_FORMAT

    def __post_init__(self) -> None:
        if self.format not in GRID_FORMATS:
            raise ValueError(f"grid format must be one of {GRID_FORMATS}; got {self.format!r}")
        if not isinstance(self.step, Fraction) or not Fraction(1, 2**1074) <= self.step <= Fraction(2**1023):
            raise ValueError(f"grid step must be an exact rational in [2^-1074, 2^1023]; got {self.step!r}")
        for name, lo, hi in (("nodes", 1, MAX_NODES), ("bits", 8, MAX_BITS), ("cut_low", 0, None), ("cut_high", 0, None)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
                rng = f"[{lo}, {hi}]" if hi is not None else f">= {lo}"
                raise ValueError(f"grid {name} must be an integer in {rng}; got {v!r}")

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready: the step as "p/q" (exact), the integers as integers (cuts as decimal strings)."""
        return {"format": self.format, "step": f"{self.step.numerator}/{self.step.denominator}",
                "step_decimal": repr(float(self.step)), "nodes": self.nodes, "bits": self.bits,
                "cut_low": str(self.cut_low), "cut_high": str(self.cut_high),
                "node_enclosures": f"{_NODE_RULE[self.format]}, rel_width 2^-40, max_prec {NODE_MAX_PREC}"}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ExactGrid":
        """Parse :meth:`to_dict` output; a malformed grid raises ``ValueError`` naming the field."""
        if not isinstance(d, Mapping):
            raise ValueError(f"the PLD grid must be a JSON object; got {type(d).__name__}")
        fmt = d.get("format")
        if not isinstance(fmt, str) or fmt not in GRID_FORMATS:
            raise ValueError(f"unsupported PLD grid format {str(fmt)[:80]!r} (expected one of {GRID_FORMATS})")
        missing = [k for k in ("step", "nodes", "bits", "cut_low", "cut_high") if k not in d]
        if missing:
            raise ValueError(f"the PLD grid is missing the field {missing[0]!r}")
        raw = d["step"]
        num, _, den = raw.partition("/") if isinstance(raw, str) and len(raw) <= 1000 else ("", "", "")
        if not (_digits(num.lstrip("-")) and _digits(den) and int(den) > 0):
            raise ValueError(f"grid step must be an exact rational 'p/q'; got {str(raw)[:80]!r}")
        step = Fraction(int(num), int(den))
        if raw != f"{step.numerator}/{step.denominator}":
            raise ValueError(f"grid step must be written in lowest terms as 'p/q' "
                             f"({step.numerator}/{step.denominator}); got {raw!r}")
        if not Fraction(1, 2**1074) <= step <= Fraction(2**1023):
            raise ValueError(f"grid step must be an exact rational in [2^-1074, 2^1023]; got {raw[:80]!r}")
        if "step_decimal" in d and d["step_decimal"] != repr(float(step)):
            raise ValueError(f"grid step_decimal {str(d['step_decimal'])[:80]!r} is not the step {raw!r}")
        ints = {}
        for k in ("nodes", "bits"):  # JSON integers
            v = d[k]
            if isinstance(v, bool) or not isinstance(v, int):
                raise ValueError(f"grid {k} must be an integer; got {str(v)[:80]!r}")
            ints[k] = v
        for k in ("cut_low", "cut_high"):  # decimal strings (units 2^-bits: up to 2^4096, beyond a JSON reader's ints)
            v = d[k]
            if not (isinstance(v, str) and 0 < len(v) <= 1300 and _digits(v) and str(int(v)) == v):
                raise ValueError(f"grid {k} must be a non-negative integer written in decimal (a string); got "
                                 f"{str(v)[:80]!r}")
            ints[k] = int(v)
        return cls(step, ints["nodes"], ints["bits"], ints["cut_low"], ints["cut_high"], fmt)


@dataclass(frozen=True)
class ExactBound:
    """The proven upper bound (a float) on ``grid`` for ``folds``, and what it cost (1-D support, longest window)."""

    upper: float
    grid: ExactGrid
    folds: int
    support_1d: int
    max_window: int
    final_window: int

    def record(self) -> Dict[str, Any]:
        """The grid as a certificate records it, with the folds and the sizes (the sizes are information only)."""
        return {**self.grid.to_dict(), "folds": self.folds, "support_1d": self.support_1d,
                "max_window": self.max_window, "final_window": self.final_window}


@dataclass
class _Dist:
    poly: fmpz_poly  # coefficient i: mass at loss (offset + i) h, units 2^-P
    offset: int
    inf: int


# ---------------------------------------------------------------------------
# 1. nodes and 2. the dominating pair


def _eps_float_down(x: Fraction) -> float:
    """The largest float <= x (x >= 0)."""
    f = float(x)
    if Fraction(f) > x:
        f = math.nextafter(f, -math.inf)
    return f


def _node_eps(step: Fraction, nodes: int) -> List[float]:
    """:func:`_eps_float_down` of j * step, j = 0..nodes, in integers: p j / q (int true division, correctly rounded
    as float(Fraction) is), lowered by one ulp where it lies above p j / q (compared exactly in integers)."""
    p, q = step.numerator, step.denominator
    out: List[float] = []
    for j in range(nodes + 1):
        f = (p * j) / q
        a, b = f.as_integer_ratio()
        if a * q > p * j * b:
            f = math.nextafter(f, -math.inf)
        out.append(f)
    return out


def _nodes(noise: Any, sensitivity: float, grid: ExactGrid) -> List[int]:
    """W_j >= 2^P delta(j h), j = 0..n, non-increasing (step 1 of the module docstring)."""
    eps = _node_eps(grid.step, grid.nodes)
    if grid.format == SERIES_FORMAT:
        series = getattr(noise, "profile_series_upper_ends", None)
        if series is None:
            raise ValueError(f"grid format {SERIES_FORMAT!r} is for a law with series profile nodes (flipped Huber); "
                             f"{type(noise).__name__} has none")
        ends = series(eps, sensitivity, rel_width=NODE_REL_WIDTH, max_prec=NODE_MAX_PREC)
    else:
        ends = noise.profile_upper_ends(eps, sensitivity, rel_width=NODE_REL_WIDTH, max_prec=NODE_MAX_PREC)
    out: List[int] = []
    for man, ex in ends:
        s = ex + grid.bits  # W = ceil(man 2^(ex + P))
        w = man << s if s >= 0 else -((-man) >> -s)
        out.append(w if not out or w < out[-1] else out[-1])
    return out


def _pair(W: List[int], h: Fraction, P: int) -> _Dist:
    """The dominating symmetric pair's loss measure from the nodes (step 2 of the module docstring)."""
    n = len(W) - 1
    one = 1 << P
    Q = P + _GUARD
    with ctx.workprec(Q + 64):
        hq = arb(fmpq(h.numerator, h.denominator))
        c_up = _ceil_int((1 << Q) / hq.expm1())  # >= 2^Q / (e^h - 1)
        z = (-hq).exp()
        e_lo: List[int] = [1 << Q]
        e_hi: List[int] = [1 << Q]
        zj = arb(1)
        for j in range(1, n + 1):
            zj = zj * z
            # floor / ceil of the ends of zj 2^Q (_floor_int, _ceil_int of that ball): its ends are zj's times 2^Q
            # exactly, and the upper end of a ball is minus the lower end of its negation
            m, e = zj.lower().man_exp()
            sh = int(e) + Q
            e_lo.append(int(m) << sh if sh >= 0 else int(m) >> -sh)
            m, e = zj.upper().man_exp()
            sh = int(e) + Q
            e_hi.append(int(m) << sh if sh >= 0 else -((-int(m)) >> -sh))
    S = [W[k] + _ceil_div((W[k] - W[k + 1]) * c_up, 1 << Q) for k in range(n)] + [W[n]]
    for k in range(n - 1, -1, -1):  # non-increasing, raising only
        if S[k] < S[k + 1]:
            S[k] = S[k + 1]
    if S[0] >= one:  # P(L > 0) >= 1: no valid pair below; the bound is the trivial delta <= 1
        return _Dist(fmpz_poly([]), 0, one)
    p = [0] + [S[j - 1] - S[j] for j in range(1, n + 1)]  # p[j]: atom at j h
    inf = S[n]
    # p_0 >= 0 (proven with the upper bounds of e^{-j h}); else move the lowest atoms to +inf
    slack = (one - S[0]) << Q  # 2^Q (1 - P(L > 0)), units 2^-P
    need = sum(p[j] * e_hi[j] for j in range(1, n + 1))
    j = 1
    while need > slack:  # terminates: with all positive mass at +inf, need = 0 <= slack
        need -= p[j] * e_hi[j]
        inf += p[j]
        p[j] = 0
        j += 1
    q = [_ceil_div(p[j] * e_hi[j], 1 << Q) for j in range(1, n + 1)]
    p0 = _ceil_div((one - (inf + sum(p))) * (1 << Q) - sum(p[j] * e_lo[j] for j in range(1, n + 1)), 1 << Q)
    coeffs = q[::-1] + [max(p0, 0)] + p[1:]
    return _Dist(fmpz_poly(coeffs), -n, inf)


# ---------------------------------------------------------------------------
# 3. composition


def _prefix(c: fmpz_poly, k: int) -> int:
    """sum of the coefficients of index < k (exact)."""
    return int(c.truncate(k)(1)) if k > 0 else 0


def _suffix(c: fmpz_poly, k: int) -> int:
    """sum of the coefficients of index >= k (exact)."""
    return int(c.right_shift(k)(1)) if k < c.length() else 0


def _cut(c: fmpz_poly, offset: int, inf: int, cut_low: int, cut_high: int) -> _Dist:
    """Move the lowest coefficients (sum <= cut_low) up to the first one kept, the highest (sum <= cut_high) to +inf.

    The window [L, U]: L the largest index in [0, n - 1] with prefix(L) <= cut_low, U the smallest in [L, n - 1] with
    suffix(U + 1) <= cut_high (prefix(k), suffix(k): the sums of the coefficients of index < k, >= k; monotone, the
    masses being >= 0).  Each is bracketed by steps 1, 2, 4, ... from its end of the window (the cuts are tiny: only
    short sums near the ends are formed), then bisected."""
    n = c.length()
    if n == 0:
        return _Dist(c, offset, inf)
    lo, hi, k = 0, n - 1, 1  # prefix(lo) <= cut_low (prefix(0) = 0); the answer is in [lo, hi]
    while k <= hi:
        if _prefix(c, k) <= cut_low:
            lo, k = k, 2 * k
        else:
            hi = k - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _prefix(c, mid) <= cut_low:
            lo = mid
        else:
            hi = mid - 1
    L = lo
    a, b, k = L, n - 1, 1  # suffix(b + 1) <= cut_high (suffix(n) = 0); the answer is in [a, b]
    while b - k >= a:
        if _suffix(c, b - k + 1) <= cut_high:
            b, k = b - k, 2 * k
        else:
            a = b - k + 1
    while a < b:
        mid = (a + b) // 2
        if _suffix(c, mid + 1) <= cut_high:
            b = mid
        else:
            a = mid + 1
    U = a
    low = _prefix(c, L)
    high = _suffix(c, U + 1)
    kept = c.truncate(U + 1)
    if L:
        kept = kept.right_shift(L) + low
    return _Dist(kept, offset + L, inf + high)


def _product(a: _Dist, b: _Dist, grid: ExactGrid) -> _Dist:
    """a * b re-rounded up to units 2^-P, +inf mass rounded up, then the window cut."""
    if a.poly.length() + b.poly.length() - 1 > MAX_TERMS:
        raise ValueError(f"the PLD grid is too large: a product of {a.poly.length() + b.poly.length() - 1} terms "
                         f"(at most {MAX_TERMS}); its cuts are too small for its step")
    unit = fmpz(1) << grid.bits
    c = -((-(a.poly * b.poly)) // unit)
    fa, fb = int(a.poly(1)), int(b.poly(1))
    inf = _ceil_div(a.inf * (fb + b.inf) + fa * b.inf, 1 << grid.bits)
    return _cut(c, a.offset + b.offset, inf, grid.cut_low, grid.cut_high)


def _window_limit(length: int, limit: Optional[int]) -> None:
    if limit is not None and length > limit:
        raise ValueError(f"certificate field 'grid.max_window' = {limit} is below a window of the computation it "
                         f"records ({length} coefficients): its cost was understated; the re-check stops there")


def _power(x: _Dist, folds: int, grid: ExactGrid, limit: Optional[int] = None) -> Tuple[_Dist, int]:
    """x composed ``folds`` times by binary powering (lowest bit first); also the longest window seen
    (``ValueError`` as soon as a window exceeds ``limit``, a recorded ``max_window``)."""
    result: Optional[_Dist] = None
    base = x
    k = folds
    longest = x.poly.length()
    _window_limit(longest, limit)
    while k:
        if k & 1:
            result = base if result is None else _product(result, base, grid)
            longest = max(longest, result.poly.length())
            _window_limit(longest, limit)
        k >>= 1
        if k:
            base = _product(base, base, grid)
            longest = max(longest, base.poly.length())
            _window_limit(longest, limit)
    assert result is not None
    return result, longest


def _product_lengths(support: int, folds: int, max_window: int) -> List[Tuple[int, int]]:
    """The input lengths of every product of :func:`_power`, bounded above by the recorded windows."""
    out: List[Tuple[int, int]] = []
    result: Optional[int] = None
    base, k = min(support, max_window), folds
    while k:
        if k & 1:
            if result is None:
                result = base
            else:
                out.append((result, base))
                result = min(result + base - 1, max_window)
        k >>= 1
        if k:
            out.append((base, base))
            base = min(2 * base - 1, max_window)
    return out


def exact_cost(grid: ExactGrid, folds: int, max_window: int, final_window: int) -> Cost:
    """What :func:`exact_delta_upper` on ``grid`` will cost, from the sizes a certificate records, before any work.

    The nodes (one ball-arithmetic enclosure each), the pair (``nodes`` fixed-point numbers of ``bits + 40``
    bits), every product of the binary powering (its inputs: at most the recorded ``max_window``
    coefficients, fewer while they grow from the pair's ``2 nodes + 1``, of ``bits`` bits) and the evaluation of the
    final window; seconds and bytes at the rates of :mod:`fhsym._core.limits`.  A re-check with
    ``max_window`` stops as soon as a window exceeds it, so the estimate bounds the work done.

    >>> c = exact_cost(ExactGrid(Fraction(1, 131072), 20000, 4096, 0, 0), 4, 160001, 160001)
    >>> c.field, round(c.seconds), c.bytes >> 20
    ('grid.max_window', 130, 963)
    """
    P = grid.bits
    n = grid.nodes + 1
    pairs = _product_lengths(2 * n - 1, folds, max_window)
    terms = sum(a + b for a, b in pairs) + final_window
    node_s = n * NODE_SECONDS + n * (2 * P + 144) * PRODUCT_SECONDS
    product_s = terms * (2 * P + 64) * (1 + P / 512) * PRODUCT_SECONDS
    widest = max([a + b for a, b in pairs] + [final_window])
    byts = BASE_BYTES + max(6 * n * ((P + 104) // 8 + 40), int(widest * (PRODUCT_BYTES_PER_BIT * P + PRODUCT_BYTES_PER_TERM)))
    field = "grid.nodes" if node_s >= product_s else "grid.max_window"
    return Cost(BASE_SECONDS + node_s + product_s, byts, field,
                f"{n} profile nodes, {len(pairs)} products of up to {max_window} coefficients of {P} bits")


# ---------------------------------------------------------------------------
# 4. evaluation


def _delta_upper(d: _Dist, h: Fraction, eps: Fraction, P: int) -> float:
    """2^-P (inf + sum_{l_i > eps} c_i (1 - e^{eps - l_i})) rounded up to a float (step 4)."""
    n = d.poly.length()
    # first index k with (offset + k) h > eps
    k = math.floor(eps / h) - d.offset + 1
    k = min(max(k, 0), n)
    total = int(d.poly(1)) if n else 0
    A = total - _prefix(d.poly, k)
    with ctx.workprec(P + 64 + max(n, 2).bit_length()):
        if k < n:
            hq = arb(fmpq(h.numerator, h.denominator))
            tail = arb_poly(d.poly.right_shift(k))
            z = (-hq).exp()
            t = arb(fmpq((d.offset + k) * h.numerator, h.denominator))  # l_k
            B = (arb(fmpq(eps.numerator, eps.denominator)) - t).exp() * tail(z)
        else:
            B = arb(0)
        val = (arb(d.inf + A) - B) / arb(2) ** P
        return min(float_up(val), 1.0)


def exact_delta_upper(noise: Any, sensitivity: float, epsilon: float, folds: int, grid: ExactGrid, *,
                      max_window: Optional[int] = None) -> ExactBound:
    """A proven upper bound of delta(epsilon) of ``folds`` compositions of the 1-D mechanism (module docstring).

    ``noise``: a noise law with ball-arithmetic profile ends
    (:meth:`fhsym.NoiseDistribution.profile_upper_ends`; a symmetric law whose privacy loss is monotone:
    the log-concave ones); ``epsilon >= 0``; ``folds >= 1``.  ``max_window`` (a re-check: the recorded
    longest window): ``ValueError`` as soon as a window, the 1-D pair's included, is longer.
    """
    if isinstance(folds, bool) or not isinstance(folds, int) or folds < 1:
        raise ValueError(f"folds must be an integer >= 1; got {folds!r}")
    eps = float(epsilon)
    if not (math.isfinite(eps) and eps >= 0.0):
        raise ValueError(f"epsilon must be a finite real number in [0, inf); got {epsilon!r}")
    W = _nodes(noise, sensitivity, grid)
    one = _pair(W, grid.step, grid.bits)
    support = one.poly.length()
    if one.poly.length() == 0:  # the trivial bound
        return ExactBound(1.0, grid, folds, 0, 0, 0)
    out, longest = _power(one, folds, grid, max_window)
    up = _delta_upper(out, grid.step, Fraction(eps), grid.bits)
    return ExactBound(up, grid, folds, support, longest, out.poly.length())
