"""Privacy loss distributions (PLDs) with a certified upper and a lower bound on delta(eps): the class and composition.

Builders (from a privacy profile; for FH, Gaussian, Laplace) are in :mod:`fhsym.accounting.pld_builders`;
:mod:`fhsym.accounting.pld` re-exports both.

What is computed
----------------
For a pair of output distributions (P, Q) (mechanism on neighbouring datasets) the
privacy loss is L = log(dP/dQ) under P and the privacy profile (hockey-stick
divergence) is::

    delta(eps) = E_P[(1 - e^{eps - L})_+] = sup_S P(S) - e^eps Q(S).

For independent mechanisms (the coordinates of an i.i.d. noise vector, or L
rounds) the losses add, so the profile of the composition is that of the sum of
independent losses, a convolution (computed by FFT).  A
:class:`PrivacyLossDistribution` carries two discrete losses on the lattice
``step * Z``:

* ``upper``: a *pessimistic* discretisation.  Its delta is a certified upper bound
  of the true delta for every eps, for the mechanism itself and for every
  composition built from pessimistic pieces.
* ``lower``: an *optimistic* discretisation; its delta is a lower bound.

Construction of one mechanism (:func:`from_privacy_profile`), from the exact vectorised profile
delta(eps) of a *symmetric* pair (delta_{P||Q} = delta_{Q||P}, true for every symmetric additive
noise) on the grid eps_j = j h, j = 0..n (n h: where delta <= ``tail_mass``).  The hockey-stick
curve H(u) = delta(log u) is convex and non-increasing in u = e^eps; a pair whose curve lies above
H everywhere dominates the true pair (Blackwell: the true pair is a garbling of it), and stays so
under composition; one whose curve lies below H is dominated by it.  Both bounds are built on
u >= 1 and mirrored: for a symmetric pair the loss pmf satisfies p(-l) = e^{-l} p(l), and the curve
on u <= 1 is the perspective u H(1/u) + 1 - u of the curve on u >= 1.

1. Upper (connect-the-dots, Doroshenko, Ghazi, Kamath, Kumar, Manurangsi, PETS 2022): the chord
   interpolation of over-estimates w_j = delta_j (1 + r) (r = ``profile_rtol``), made
   non-increasing and replaced by its lower convex hull (chords of nodes >= delta lie above the
   convex H); flat beyond eps_n (the mass at +inf is w_n).  Its on-grid pair has survival
   S_j = w_j + (w_j - w_{j+1})/(e^h - 1), rounded up.  O(h^2) from the truth, plus O(r).
2. Lower: nodes v_j = delta_j (1 - r) - max(g_{j-1}, g_j), where on [u_j, u_{j+1}] the chord of H
   exceeds H by at most g_j = du_j a_j b_j / (a_j + b_j) (a_j, b_j: the chord-slope changes at the
   two ends, over-estimated by their rounding; one-sided derivatives of a convex function are
   bracketed by the neighbouring chord slopes), lowered to convexity and ending at 0: a curve below
   H.  Survival rounded down.  O(h^2) as well; an atom of the true loss off the grid costs it O(h).
3. Floating point: every rounding moves the survival function in the safe direction; where the
   rounding of the profile breaks convexity, making the survival monotone (up for the upper bound,
   down for the lower) keeps the bound valid, since on u >= 1 the curve is a positive linear
   functional of the survival function.  The atom at 0 is the remaining mass (it must be >= 0 for a
   valid pair; if rounding makes it negative, mass is moved up to +inf for the upper bound or down
   to 0 for the lower, which only raises, resp. lowers, the curve).

Composition (:meth:`PrivacyLossDistribution.compose`, :meth:`~PrivacyLossDistribution.self_compose`).
Invariant: the upper side's measure is obtained from the loss pmf of a pair that dominates the
mechanism by adding mass and moving mass to larger losses (up to an L1 ``slack``); the lower side's
from that of a dominated pair by removing mass and moving it down.  delta(eps) = sum_j p_j w_j + p_inf
with weights w_j = (1 - e^{eps - l_j})_+ in [0, 1], non-decreasing in l_j, is monotone in that order,
and convolution preserves it (adding or moving up mass in one factor adds or moves up mass in the
product), so the invariant survives composition.  The certified error terms:

1. Window (truncation).  The K-fold sum is kept on [L, U] with P(S < L), P(S > U) <= tau (=
   ``tail_mass``, 1e-18) by Chernoff bounds computed from the *operands* (their moment generating
   functions, bounded block-wise through the chord of e^{tj}); the true mass outside goes to +inf in
   the upper side and is dropped from the lower one.  The window therefore follows the width of the
   sum, ~sqrt(K) times the 1-D width, whatever the rounding noise in the tails.
2. FFT round-off, componentwise (5-smooth lengths N).  Each pass of pocketfft combines r = 2, 3, 4 or 5
   inputs, each first multiplied by a twiddle factor of modulus 1 known to mu ~ u, with additions and
   multiplications by real constants of modulus <= 1; complex addition rounds by <= sqrt(2) u |.|, a
   twiddle product by <= (sqrt(2) gamma_2 + mu) |b| (Higham, *Accuracy and Stability*, Lemma 3.5), and
   errors of the inputs pass through with weight <= 1.  A pass adds at most ~6.3 u (radix 2), ~4.9 u
   (radix 3), ~3.2 u (radix 4) or ~4.4 u (radix 5) per log2 of its radix times the sum of |inputs|
   feeding the output, so by induction over the passes every output of a length-N transform is off by
   at most c_N ||x||_1, c_N = 8 (log2 N + 2) u (8 u per level; two extra levels cover the real-input
   packing and the 1/N scaling).  A product
   of spectra X~ Y~ then errs by e_X |Y~| + e_Y |X~| + e_X e_Y + 3u |X~ Y~|, the K-th power by
   K (|X~| + e)^{K-1} e plus 3.1 (2 log2 K + 1) u |X~^K| (repeated squaring), and the inverse transform
   turns a spectral error dY_k into an entrywise error (1/N) sum_k dY_k, plus c_N (1/N) sum_k |Y~_k|
   of its own.  These sums are taken over the computed spectra, so the bound E is a posteriori and
   tight where the transform decays (a spread-out loss); it is added to every entry of the window of
   the upper side (and subtracted, at 0, from the lower one).  Measured errors against an extended
   precision direct convolution are 2e-4 to 1.2e-3 of E (``tests/kdim/test_kdim_pld.py``).  Short
   compositions (at most 4e7 products) are summed directly instead: entrywise relative error
   (min(n_a, n_b) + 2) u, and no error floor at all (so an atom-dominated loss stays exact at its atoms).
3. The aliasing of the one-shot power (a circular convolution of length N >= U - L + 1): the mass
   outside the window (<= 2 tau) lands inside; harmless for the upper side (extra mass), subtracted
   from the lower side through its slack.
4. Lattice rounding/discretisation: the connect-the-dots construction above (a dominating pair; exact
   at the lattice points).  The FH loss atoms +-alpha Delta/gamma^2 are put on the lattice by
   :func:`fhsym.accounting.aligned_step` wherever the caller leaves the step to fhsym (``kdim_pld``,
   the K-dim calibration, the DP-CD accountant): an atom on the lattice costs nothing, off it up to a
   step of loss.

Self composition raises the transform to the K-th power in one shot (its error grows like K u
log N times the spectrum's decay: at K = 1000, ~5e-16 per lattice point); binary powering (log2 K
pairwise compositions) is used for short supports (direct sums) or when ``fp_budget`` forbids the
one-shot error.  Bounded work: :meth:`PrivacyLossDistribution.self_compose_fft_size` estimates the FFT
length from the window before anything is convolved; lengths above ``MAX_FFT`` (2^23) are refused.

Evaluation: delta(eps) = sum_{l_j > eps} p_j (1 - e^{eps - l_j}) + p_inf, non-negative terms
(relative error <= (log2 n + 10) u, plus 3 u (|eps| + max |l|) times the mass above eps for the
rounding of the lattice points l_j = (offset + j) step), plus/minus the slack.  The upper value is
clipped to 1 and the lower to 0.

Which difference vectors a K-fold result covers is stated where it is built
(:mod:`fhsym.accounting.kdim`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Tuple, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import fft as sfft

from .._core.types import ComplexArray, FloatArray, Real
from .._core import domains as V

__all__ = [
    "DiscreteLoss",
    "PrivacyLossDistribution",
    "compose",
    "DEFAULT_TAIL_MASS",
    "DEFAULT_FP_BUDGET",
    "MAX_FFT",
    "MAX_GRID",
    "U",
    "fft_size",
]

U = 2.0**-53  # unit roundoff of float64
DEFAULT_TAIL_MASS = 1e-18  # true mass moved out of a composition window, per side (accounted, never dropped from the upper bound)
DEFAULT_FP_BUDGET = math.inf  # self_compose: the one-shot FFT power is used when its error bound is below this (binary powering otherwise)
MAX_GRID = 50_000_000  # refuse to build one-dimensional grids larger than this (memory)
MAX_FFT = 1 << 23  # refuse compositions whose window needs a longer FFT (memory ~0.5 GB, seconds per transform)
_FFT_C = 8.0  # rounding of one radix-2 level of pocketfft, in units of u times sum|input| (module docstring)
_DIRECT = 4096  # windows of compositions whose full support is shorter are not cut
_DIRECT_MACS = 40_000_000  # convolutions of at most this many products are summed directly (entrywise relative error)
_MARGIN = 1.0 + 1e-9  # covers the rounding of the error bounds' own sums (< N u for N <= MAX_FFT)


@dataclass(frozen=True)
class DiscreteLoss:
    """A discrete privacy loss on the lattice step * Z (one side of the bracket).

    ``pmf[i]`` is the mass at loss ``(offset + i) * step``; ``inf_mass`` the mass at
    +inf; missing mass (``1 - sum(pmf) - inf_mass`` in the lower bound) is at -inf.
    The upper side's ``pmf`` is the loss pmf of a pair that dominates the mechanism with mass
    added and moved up (the lower side's: of a dominated pair, mass removed or moved down; see
    the module docstring).  ``slack`` bounds the remaining L1 error of ``pmf`` (added to the
    upper delta, subtracted from the lower).
    """

    offset: int
    pmf: FloatArray
    inf_mass: float
    slack: float

    @property
    def mass(self) -> float:
        return float(math.fsum(self.pmf)) + self.inf_mass

    def losses(self, step: float) -> NDArray[np.floating[Any]]:
        return (self.offset + np.arange(self.pmf.size)) * step


# ---------------------------------------------------------------------------
# evaluation
# ---------------------------------------------------------------------------


def _delta_raw(b: DiscreteLoss, step: float, eps: FloatArray, upper: bool = True) -> FloatArray:
    """sum_{l_j > eps} p_j (-expm1(eps - l_j)) + inf_mass for each eps, rounded outwards.

    Rounding: the loss l_j = (offset + j) step is formed with relative error <= u, the weight
    w(l) = 1 - e^{eps - l} is 1-Lipschitz in l (and 0 at l = eps, so a term misplaced across
    eps costs at most p_j |l_j - fl(l_j)|), expm1 and the products are correct to a few ulp and
    the pairwise sum of non-negative terms to (log2 n + 2) u: the result is moved by
    (log2 n + 10) u relative plus 3 u (|eps| + max|l|) sum_{j >= k-1} p_j, up for the upper
    side and down for the lower.
    """
    out = np.empty(eps.shape, dtype=float)
    flat = eps.reshape(-1)
    res = out.reshape(-1)
    n = b.pmf.size
    rt = (math.log2(max(n, 2)) + 10.0) * U
    lmax = max(abs(b.offset), abs(b.offset + n - 1)) * step
    for i, e in enumerate(flat):
        k = int(math.floor(e / step)) - b.offset + 1  # first index with loss > e
        k = min(max(k, 0), n)
        while k > 0 and (b.offset + k - 1) * step > e:
            k -= 1
        while k < n and (b.offset + k) * step <= e:
            k += 1
        if k >= n:
            res[i] = b.inf_mass
            continue
        l = (b.offset + np.arange(k, n)) * step
        s = float(np.sum(b.pmf[k:] * -np.expm1(e - l)))
        a = 3.0 * U * (abs(e) + lmax) * float(np.sum(b.pmf[max(k - 1, 0):]))
        res[i] = (s * (1.0 + rt) + a if upper else s * (1.0 - rt) - a) + b.inf_mass
    return out


def _eps_array(epsilon: ArrayLike) -> FloatArray:
    return np.asarray(V.check_array(epsilon, V.Domain("epsilon", -math.inf, math.inf)), dtype=float)


# ---------------------------------------------------------------------------
# convolution with entrywise error bounds
# ---------------------------------------------------------------------------


def fft_size(m: int) -> int:
    """The FFT length used for m output points: the next 5-smooth length (radix-2/3/4/5 passes, module docstring)."""
    return int(sfft.next_fast_len(max(int(m), 16), real=True))


def _fft_abs(N: int) -> float:
    """c_N with |fl(F x)_k - (F x)_k| <= c_N ||x||_1 for every k (forward, or inverse times N), N 5-smooth."""
    return _FFT_C * (math.log2(N) + 2.0) * U


def _sum_up(x: FloatArray) -> float:
    """sum(x) of a non-negative vector, rounded up."""
    return float(np.sum(x)) * (1.0 + (math.log2(max(x.size, 2)) + 2.0) * U)


def _full_sum(h: FloatArray, N: int) -> float:
    """Sum over the full length-N spectrum of a quantity given on rfft's half spectrum (Hermitian symmetry)."""
    if N % 2 == 0:
        return float(h[0] + h[-1] + 2.0 * np.sum(h[1:-1]))
    return float(h[0] + 2.0 * np.sum(h[1:]))


def _inverse_error(dY: FloatArray, Y: ComplexArray, N: int) -> float:
    """Entrywise bound on |irfft(Y~) - (exact inverse of the exact spectrum)| given |Y~ - Y_exact| <= dY."""
    return (_full_sum(dY, N) + (_fft_abs(N) + U) * _full_sum(np.abs(Y), N)) / N * _MARGIN


def _convolve(a: FloatArray, b: FloatArray) -> Tuple[FloatArray, float, float]:
    """Linear convolution c of two non-negative vectors with |c~_j - c_j| <= rel c~_j + E for every j.

    Returns (c~, E, rel).  Direct sums (short inputs): each entry is a sum of at most
    min(n_a, n_b) products of non-negative numbers, so rel = (min + 2) u, E = 0.  FFT: E from
    the entrywise bounds of the transforms (module docstring), computed from the spectra.
    """
    m = a.size + b.size - 1
    if min(a.size, b.size) <= 64 or a.size * b.size <= _DIRECT_MACS:
        return np.convolve(a, b), 0.0, (min(a.size, b.size) + 2) * U * 1.01
    N = fft_size(m)
    cN = _fft_abs(N)
    A, B = sfft.rfft(a, N), sfft.rfft(b, N)
    ea, eb = cN * _sum_up(a), cN * _sum_up(b)
    Y = A * B
    aA, aB = np.abs(A) * (1 + 2 * U), np.abs(B) * (1 + 2 * U)
    dY = ea * (aB + eb) + eb * aA + 3.0 * U * aA * aB  # |A~B~ - AB| and the product's rounding (Higham Lemma 3.5)
    E = _inverse_error(dY, Y, N)
    return sfft.irfft(Y, N)[:m], E, 0.0


def _settle(c: FloatArray, E: float, rel: float, upper: bool) -> FloatArray:
    """The entrywise bound of computed values c~ (|c~ - c| <= rel |c~| + E, c >= 0), rounded outwards."""
    if upper:
        return (np.maximum(c, 0.0) * (1.0 + rel) + E) * (1.0 + 4 * U)
    return np.maximum(c * (1.0 - rel) - E, 0.0) * (1.0 - 4 * U)


def _log_mgf_bounds(pmf: FloatArray, ts: FloatArray) -> FloatArray:
    """Upper bounds on log sum_j p_j e^{t j} (index units) for each t, from blocks of the pmf.

    On a block [lo, hi] with mass m and mean mu, e^{t j} lies below its chord (convexity), so the
    block contributes at most m (e^{t lo} (hi - mu) + e^{t hi} (mu - lo)) / (hi - lo): an upper
    bound whose excess is second order in the block width (it does not grow with the number of
    draws the window is for).  Rounded up; used only to size windows.
    """
    n = pmf.size
    c = max(1, n // 512)
    nb = -(-n // c)
    pad = np.zeros(nb * c)
    pad[:n] = pmf
    blk = pad.reshape(nb, c)
    mass = blk.sum(axis=1)
    keep = mass > 0
    if not keep.any():
        return np.full(ts.shape, -math.inf)
    lo = (np.arange(nb) * c)[keep].astype(float)
    hi = np.minimum(lo + c - 1, n - 1)
    mu = np.clip(lo + (blk[keep] @ np.arange(c, dtype=float)) / mass[keep], lo, hi)
    w = np.maximum(hi - lo, 1.0)
    a, b = np.where(hi > lo, (hi - mu) / w, 1.0), np.where(hi > lo, (mu - lo) / w, 0.0)
    t = ts[:, None]
    width = hi - lo  # c - 1 on every block but the last: e^{t width} once per distinct width (the same values)
    widths, which = np.unique(width, return_inverse=True)
    with np.errstate(divide="ignore"):
        if widths.size == 1 and widths[0] == 0.0:  # one-point blocks: a = 1, b = 0, log(a + b e^{t width}) = log 1 = 0
            z = np.log(mass[keep])[None, :] + t * lo[None, :] + 0.0
        else:
            grow = np.exp(t * widths[None, :])[:, which.reshape(-1)]
            z = np.log(mass[keep])[None, :] + t * lo[None, :] + np.log(a[None, :] + b[None, :] * grow)
    zm = np.max(z, axis=1)
    out: FloatArray = zm + np.log(np.sum(np.exp(z - zm[:, None]), axis=1)) + 1e-12 * (1.0 + np.abs(zm))
    return out


_T_FACTORS = np.geomspace(1 / 8, 8, 9)  # the Chernoff t's of _window around the Gaussian optimum (one array)


def _window(parts: Sequence[Tuple[FloatArray, int]], tau: float) -> Tuple[int, int, float, float]:
    """[L, U] (index units, relative to the sum of the offsets) with P(S < L), P(S > U) <= tau each.

    S is the sum of independent draws, ``times`` of them from each (finite part of a) pmf in
    ``parts``: Chernoff, P(S > U) <= exp(sum times log M(t) - t U) at the t's tried (chosen
    around the Gaussian optimum, t* = sqrt(2 log(1/tau))/sd(S)).  Returns (L, U, bound below L,
    bound above U); a bound is 0 when the window reaches that end of the support.
    """
    full_hi = sum((p.size - 1) * k for p, k in parts)
    if full_hi < _DIRECT:  # short: keep the whole support
        return 0, full_hi, 0.0, 0.0
    var = 0.0
    for p, k in parts:
        ar = np.arange(p.size, dtype=float)
        tot = max(float(np.sum(p)), 1e-300)
        mean = float(np.sum(ar * p)) / tot
        var += k * float(np.sum((ar - mean) ** 2 * p)) / tot
    log_tau = math.log(tau)
    base = math.sqrt(-2.0 * log_tau) / math.sqrt(max(var, 1.0)) * _T_FACTORS
    ts = np.concatenate([-base[::-1], base])
    lm = cast(FloatArray, sum(k * _log_mgf_bounds(p, ts) for p, k in parts))  # an array: parts is not empty
    Uidx, Lidx = full_hi, 0
    for t, l in zip(ts, lm):
        if not math.isfinite(l):
            continue
        bound = (l - log_tau) / t
        if t > 0:
            Uidx = min(Uidx, int(math.ceil(bound)) if bound < full_hi else full_hi)
        else:
            Lidx = max(Lidx, int(math.floor(bound)) if bound > 0 else 0)
    Lidx = max(0, min(Lidx, full_hi))
    Uidx = min(full_hi, max(Uidx, Lidx))
    return Lidx, Uidx, (0.0 if Lidx <= 0 else tau), (0.0 if Uidx >= full_hi else tau)


# ---------------------------------------------------------------------------
# the PLD
# ---------------------------------------------------------------------------


class PrivacyLossDistribution:
    """A certified bracket [lower, upper] on the privacy profile of a (composed) mechanism.

    Build one with :func:`flipped_huber_pld`, :func:`gaussian_pld`,
    :func:`laplace_pld` or :func:`from_privacy_profile`; compose with
    :meth:`compose` / :meth:`self_compose` (same ``step`` required).

    >>> from fhsym.accounting.pld import gaussian_pld
    >>> pld = gaussian_pld(sigma=1.0, sensitivity=1.0, step=1e-3).self_compose(4)
    >>> lo, up = pld.delta_bounds(1.0)
    >>> bool(lo <= up)
    True
    """

    def __init__(self, step: float, upper: DiscreteLoss, lower: Optional[DiscreteLoss], label: str = "", tail_mass: float = DEFAULT_TAIL_MASS):
        self.step = float(step)
        self.upper = upper
        self.lower = lower
        self.label = label
        self.tail_mass = tail_mass

    def __repr__(self) -> str:
        return (
            f"PrivacyLossDistribution({self.label or 'unnamed'}, step={self.step:g}, "
            f"support={self.upper.pmf.size} points, inf_mass={self.upper.inf_mass:.3g}, slack={self.upper.slack:.2g})"
        )

    # -- evaluation -------------------------------------------------------
    def delta_upper(self, epsilon: ArrayLike) -> Real:
        """Certified upper bound on delta(eps) (vectorised; any real eps)."""
        eps = _eps_array(epsilon)
        raw = _delta_raw(self.upper, self.step, eps, True)
        out = np.minimum(raw + self.upper.slack, 1.0)
        return out[()] if out.ndim == 0 else out

    def delta_lower(self, epsilon: ArrayLike) -> Real:
        """Lower bound on delta(eps) (vectorised)."""
        if self.lower is None:
            raise ValueError("this PrivacyLossDistribution was built without its lower bound (upper_only=True)")
        eps = _eps_array(epsilon)
        raw = _delta_raw(self.lower, self.step, eps, False)
        out = np.maximum(raw - self.lower.slack, 0.0)
        return out[()] if out.ndim == 0 else out

    def delta_bounds(self, epsilon: ArrayLike) -> Tuple[Real, Real]:
        """(lower, upper) bounds on delta(eps)."""
        return self.delta_lower(epsilon), self.delta_upper(epsilon)

    def delta(self, epsilon: ArrayLike) -> Real:
        """The certified value: the upper bound (alias of :meth:`delta_upper`)."""
        return self.delta_upper(epsilon)

    def epsilon(self, delta: float, upper: bool = True) -> float:
        """Smallest eps on which the upper (or lower) delta is <= ``delta``.

        With ``upper=True`` (default) the result is certified: the mechanism is
        (eps, delta)-DP.  With ``upper=False`` it is a lower bound on the true eps(delta).
        """
        dl = V.check_scalar(delta, V.DELTA)
        f = self.delta_upper if upper else self.delta_lower
        b = self.upper if upper else self.lower
        if b is None:
            raise ValueError("this PrivacyLossDistribution was built without its lower bound (upper_only=True)")
        if b.inf_mass + (b.slack if upper else 0.0) > dl:
            return math.inf
        lo_idx = b.offset
        hi_idx = b.offset + b.pmf.size
        lo, hi = lo_idx * self.step - self.step, hi_idx * self.step
        if float(f(lo)) <= dl:
            # delta <= target everywhere on the support; search below it
            while float(f(lo)) <= dl and lo > -1e6:
                lo = 2.0 * lo - 1.0
            if float(f(lo)) <= dl:
                return lo
        if float(f(hi)) > dl:
            return math.inf
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if mid in (lo, hi):
                break
            if float(f(mid)) <= dl:
                hi = mid
            else:
                lo = mid
        return hi if upper else lo

    def epsilon_bounds(self, delta: float) -> Tuple[float, float]:
        """(lower, upper) bounds on the smallest eps with delta(eps) <= ``delta``."""
        return self.epsilon(delta, upper=False), self.epsilon(delta, upper=True)

    def self_compose_fft_size(self, times: int, tail_mass: Optional[float] = None) -> int:
        """The FFT length :meth:`self_compose` would use for ``times`` (a cost estimate; nothing is convolved).

        The window is the Chernoff window of the upper side; ``self_compose`` refuses above
        ``MAX_FFT`` (memory and seconds per transform).
        """
        k = V.check_int(times, "times", 1)
        tau = self.tail_mass if tail_mass is None else float(tail_mass)
        L, Ui, _, _ = _window([(self.upper.pmf, k)], tau)
        return fft_size(Ui - L + 1)

    # -- composition ------------------------------------------------------
    def _check_step(self, other: "PrivacyLossDistribution") -> None:
        if not isinstance(other, PrivacyLossDistribution):
            raise TypeError(f"can only compose with a PrivacyLossDistribution; got {type(other).__name__}")
        if other.step != self.step:
            raise ValueError(f"step must be equal to compose; got {self.step!r} and {other.step!r}")

    def compose(self, other: "PrivacyLossDistribution", tail_mass: Optional[float] = None) -> "PrivacyLossDistribution":
        """The PLD of running both mechanisms (independent noise): losses add."""
        self._check_step(other)
        tau = self.tail_mass if tail_mass is None else float(tail_mass)
        up = _compose_bounds(self.upper, other.upper, tau, upper=True)
        lo = None if (self.lower is None or other.lower is None) else _compose_bounds(self.lower, other.lower, tau, upper=False)
        return PrivacyLossDistribution(self.step, up, lo, f"({self.label}) + ({other.label})", tau)

    def self_compose(self, times: int, tail_mass: Optional[float] = None, fp_budget: float = DEFAULT_FP_BUDGET,
                     fft: bool = False) -> "PrivacyLossDistribution":
        """The PLD of ``times`` independent runs (e.g. K i.i.d. coordinates, or L rounds).

        ``fft=True``: the one-shot FFT power (its error bounded entrywise, module docstring) also where direct sums
        would be short enough (a search's bound: faster; the direct sums have no error floor)."""
        k = V.check_int(times, "times", 1)
        if not isinstance(fft, bool):
            raise ValueError(f"fft must be True or False; got {fft!r}")
        if k == 1:
            return self
        tau = self.tail_mass if tail_mass is None else float(tail_mass)
        up = _self_compose_bound(self.upper, k, tau, True, fp_budget, fft)
        lo = None if self.lower is None else _self_compose_bound(self.lower, k, tau, False, fp_budget, fft)
        return PrivacyLossDistribution(self.step, up, lo, f"{k} x ({self.label})", tau)

    def __add__(self, other: "PrivacyLossDistribution") -> "PrivacyLossDistribution":
        return self.compose(other)

    def __mul__(self, times: int) -> "PrivacyLossDistribution":
        return self.self_compose(times)

    __rmul__ = __mul__

    @property
    def bracket_slack(self) -> Tuple[float, float]:
        """(lower slack, upper slack): the absolute floating-point allowances."""
        return (math.nan if self.lower is None else self.lower.slack), self.upper.slack


def compose(plds: Sequence[PrivacyLossDistribution], tail_mass: Optional[float] = None) -> PrivacyLossDistribution:
    """Compose a sequence of PLDs (same step)."""
    plds = list(plds)
    if not plds:
        raise ValueError("plds must be a non-empty sequence of PrivacyLossDistribution")
    out = plds[0]
    for p in plds[1:]:
        out = out.compose(p, tail_mass)
    return out


def _cut(c: FloatArray, E: float, rel: float, L: int, Ui: int, b_lo: float, b_hi: float, inf: float, slack: float,
         upper: bool) -> Tuple[FloatArray, float, float]:
    """Keep c~[L:Ui+1] as an entrywise bound; the true mass outside (<= b_lo, b_hi) goes to +inf (upper) or is dropped."""
    q = _settle(c[L : Ui + 1], E, rel, upper)
    if upper:
        inf = min(inf + (b_lo + b_hi) * (1 + 4 * U), 1.0)
    return q, inf, slack


def _compose_bounds(a: DiscreteLoss, b: DiscreteLoss, tau: float, upper: bool) -> DiscreteLoss:
    c, E, rel = _convolve(a.pmf, b.pmf)
    ma, mb = _sum_up(a.pmf), _sum_up(b.pmf)
    inf = a.inf_mass + b.inf_mass - a.inf_mass * b.inf_mass
    slack = (a.slack * (mb + b.inf_mass) + b.slack * (ma + a.inf_mass) + a.slack * b.slack) * (1 + 4 * U)
    if upper:
        inf = min(inf + 4 * U, 1.0)  # rounding of the inf-mass formula, to the pessimistic side
    L, Ui, b_lo, b_hi = _window([(a.pmf, 1), (b.pmf, 1)], tau)
    q, inf, slack = _cut(c, E, rel, L, Ui, b_lo, b_hi, inf, slack, upper)
    return DiscreteLoss(a.offset + b.offset + L, q, inf, slack)


def _power(p: FloatArray, times: int, N: int) -> Tuple[FloatArray, float]:
    """irfft(rfft(p)^times) (circular, length N) and an entrywise bound E on its error.

    Forward: |X~_k - X_k| <= e = c_N ||p||_1.  Power: |X~^K - X^K| <= K (|X~_k| + e)^{K-1} e,
    and repeated squaring (m <= 2 log2 K + 1 products, each with relative error <= sqrt(2) gamma_2
    <= 3u) rounds by <= 3.03 m u |X~|^K <= 3.1 m u |Y~_k|.  Inverse: :func:`_inverse_error`.
    """
    cN = _fft_abs(N)
    e = cN * _sum_up(p)
    if p.size > N:  # wrap the input mod N (the circular K-fold of the wrapped pmf is the K-fold wrapped mod N)
        r = -(-p.size // N)
        e += (r + 1) * U * _sum_up(p)  # rounding of the wrapped sums: an input error, like the forward transform's
        p = np.concatenate([p, np.zeros(r * N - p.size)]).reshape(r, N).sum(axis=0)
    X = sfft.rfft(p, N)
    Y = _cpow(X, times)
    aX = np.abs(X) * (1 + 2 * U)
    m = 2 * int(math.log2(times)) + 1
    with np.errstate(divide="ignore", under="ignore"):
        prop = times * e * np.exp((times - 1) * np.log(aX + e)) * (1.0 + 1e-6)
    dY = prop + 3.1 * m * U * np.abs(Y) * (1 + 2 * U)
    return sfft.irfft(Y, N), _inverse_error(dY, Y, N)


def _self_compose_bound(b: DiscreteLoss, times: int, tau: float, upper: bool, fp_budget: float = DEFAULT_FP_BUDGET,
                        fft: bool = False) -> DiscreteLoss:
    """The ``times``-fold composition of one side: one FFT power inside a Chernoff window, or binary powering.

    Binary powering (``log2 K`` pairwise compositions) is used for short supports (direct sums,
    entrywise relative error, no FFT error floor; ``fft=True``: only below 64 points) and when the one-shot error
    bound exceeds ``fp_budget``.
    """
    p = b.pmf
    inf = -math.expm1(times * math.log1p(-b.inf_mass)) if b.inf_mass < 1.0 else 1.0
    s = _sum_up(p)
    # L1 error of the times-fold product of a vector known to within b.slack: (s + slack)^K - s^K
    slack_in = (s**times * math.expm1(times * math.log1p(b.slack / s)) if (b.slack > 0 and s > 0) else times * b.slack) * (1 + 1e-9)
    L, Ui, b_lo, b_hi = _window([(p, times)], tau)
    N = fft_size(Ui - L + 1)
    if N > MAX_FFT:
        raise ValueError(f"times must be smaller for this PLD: its {times}-fold composition needs an FFT of {N} points "
                         f"(window of {Ui - L + 1} lattice points; at most {MAX_FFT})")
    if (p.size * p.size * times > _DIRECT_MACS or (fft and p.size > 64)) and fp_budget > 0.0:
        y, E = _power(p, times, N)
        hi = min(L + N - 1, (p.size - 1) * times)
        if E * (hi - L + 1) <= fp_budget:
            c = y[np.arange(L, hi + 1) % N]  # the circular result: true mass outside [L, L + N) is aliased in
            if upper:
                inf = min(inf + 4 * U, 1.0)
                q, inf, slack = _cut(c, E, 0.0, 0, c.size - 1, b_lo, b_hi, inf, slack_in, True)
            else:
                q, inf, slack = _cut(c, E, 0.0, 0, c.size - 1, 0.0, 0.0, inf, slack_in + b_lo + b_hi, False)
            return DiscreteLoss(times * b.offset + L, q, inf, slack)
    # binary powering, each product cut to its Chernoff window
    result: Optional[DiscreteLoss] = None
    base = b
    k = times
    while k:
        if k & 1:
            result = base if result is None else _compose_bounds(result, base, tau, upper)
        k >>= 1
        if k:
            base = _compose_bounds(base, base, tau, upper)
    assert result is not None
    return result


def _cpow(X: ComplexArray, k: int) -> ComplexArray:
    """X**k by repeated squaring (at most 2 log2(k) + 1 complex products per entry), k >= 1."""
    result: Optional[ComplexArray] = None
    base = X.copy()
    while k:
        if k & 1:
            result = base.copy() if result is None else result * base
        k >>= 1
        if k:
            base = base * base
    assert result is not None  # k >= 1
    return result


