"""mpmath ground truth for the flipped Huber (FH) distribution.

This module is the project's single high-precision reference ("harness").
Everything here is computed from the two *definitions* of the paper only:

* the flipped Huber loss (eq. 7)::

      rho_alpha(t) = alpha*|t|               if |t| <= alpha
                   = (t**2 + alpha**2) / 2   if |t| >  alpha

* the density (eq. 8)  g(t) = exp(-rho_alpha(t)/gamma**2) / kappa,
  with the normaliser kappa = integral of exp(-rho_alpha/gamma**2).

No closed form of the paper is used anywhere (no omega formula, no erfc/Q of
the tails, no moment formulas): every probability, moment and normaliser is an
mpmath quadrature of ``exp(-rho/gamma**2)`` (times a weight), every quantile is
a root of such a quadrature, and the privacy-profile crossing point is a root of
the loss difference evaluated from the definition of rho.  The only analytic
facts used are

* rho is even (so P(T <= -y) = P(T >= y); used by :func:`ppf` = ``-isf``),
* the derivative of each branch of rho (``rho'(t) = alpha*sign(t)`` inside,
  ``t`` outside, needed for the Fisher information ``psi'``); this is checked
  against a numerical derivative in ``tests/test_reference_harness.py``.

Standardised units
------------------
The family is a scale family: with ``s = t/gamma`` and ``b = alpha/gamma``,
``rho_alpha(t)/gamma**2 = r_b(s)`` where ``r_b(s) = b|s|`` for ``|s| <= b`` and
``(s**2 + b**2)/2`` otherwise.  All integrals are done in ``s`` and scaled back:
``pdf(t) = h(s)/gamma``, ``cdf(t) = H(s)``, ``var(T) = gamma**2 var(S)``,
``I_T = I_S/gamma**2``, ``M_T(u) = M_S(u*gamma)``, where ``h = exp(-r_b)/Z(b)``
and ``Z(b) = integral exp(-r_b(s)) ds`` (:func:`normaliser`; kappa = gamma*Z).
The inputs are converted to mpf exactly (pass Python floats to get the exact
binary value; a decimal string is rounded at the working precision), and
``s``/``b`` are formed in mpmath, so the harness evaluates the exact float
parameters handed to the numeric code, not a decimal approximation of them.

Quadrature discipline (the engine :func:`_integrate`)
----------------------------------------------------
Every integral has the form  ``I = int_lo^hi w(x) exp(-phi(x)) dx``  with
``phi`` minimal at a known point ``m`` of ``[lo, hi]`` and non-decreasing away
from it (phi = r_b, or r_b - c*x for the MGF, or r_b - u*x**2/2 for the
Orlicz functional).  The engine

1. factors out the peak: ``I = exp(-phi(m)) * M`` with
   ``M = int w(x) exp(-(phi(x) - phi(m))) dx``; the log of a result is
   ``-phi(m) + log M``, so e.g. ``sf`` at ``t/gamma = 1e3`` (about
   ``exp(-5e5)``) is an O(1)-conditioned computation;
2. shifts the variable, ``x = m + d*y`` (d = +1 / -1 for the two sides), so
   quadrature nodes near the peak are resolved even when ``|m|`` is large;
3. splits at every kink of the integrand (the points ``+-b`` where rho changes
   branch, 0, and for the privacy profile ``+-b - Delta/gamma`` and the crossing
   point), and between kinks at geometrically growing steps ``h, 3h, 7h, ...``
   where ``h`` is the local scale on which the exponent grows by ~1 (so a
   Laplace-like piece of slope ``b = 1e4`` is cut at ``1e-4, 3e-4, ...``);
4. stops marching once the exponent exceeds ``K = ln(10)*workdps + 20`` and
   integrates the remainder ``[y_K, end]`` (possibly infinite) as one last piece
   whose contribution is below the working precision;
5. calls ``mpmath.quad(..., error=True)`` (tanh-sinh) on the split list and
   raises :class:`HarnessError` unless the error estimate is below
   ``10**-(dps + 3)`` relative to the value.

Precision: every public function takes ``dps`` (target significant digits,
default 40) and works at ``dps + guard`` where the guard is 20 digits plus the
number of digits lost when forming ``phi(x) - phi(m)`` at the largest
``|phi|`` involved (``log10(1 + s**2 + b**2 + ...)``).  Use :func:`confirm` to
evaluate a function at two precisions (``dps`` and ``dps + 15``) and raise if
they disagree beyond the target; the reference data in ``tests/data`` is
produced that way.
"""

from __future__ import annotations

from typing import Any, Callable

import mpmath
from mpmath import mp, mpf

__all__ = [
    "DEFAULT_DPS",
    "CONFIRM_EXTRA",
    "HarnessError",
    "rho",
    "rho_prime",
    "psi",
    "normaliser",
    "log_normaliser",
    "kappa",
    "log_omega",
    "pdf",
    "logpdf",
    "cdf",
    "sf",
    "logcdf",
    "logsf",
    "tail_bundle",
    "ppf",
    "isf",
    "variance",
    "fisher_information",
    "nfi",
    "mgf",
    "log_mgf",
    "orlicz",
    "privacy_profile",
    "confirm",
    "confirm_report",
    "agree_digits",
]

DEFAULT_DPS = 40
CONFIRM_EXTRA = 15
_GUARD = 20


class HarnessError(ArithmeticError):
    """The quadrature or root finder could not certify the requested accuracy."""


# ---------------------------------------------------------------------------
# definitions
# ---------------------------------------------------------------------------


def _r(s: mpf, b: mpf) -> mpf:
    """Standardised loss r_b(s) = rho_alpha(gamma*s)/gamma**2 (eq. 7)."""
    a = abs(s)
    if a <= b:
        return b * a
    return (s * s + b * b) / 2


def _dr(s: mpf, b: mpf) -> mpf:
    """d r_b / ds, branch by branch (r_b is C^1, so the kink value is either)."""
    a = abs(s)
    if a <= b:
        return b * mpmath.sign(s)
    return s


def rho(t: Any, alpha: Any, dps: int = DEFAULT_DPS) -> mpf:
    """The flipped Huber loss rho_alpha(t) of eq. (7), verbatim."""
    with mp.workdps(dps + _GUARD):
        t, alpha = mpf(t), mpf(alpha)
        if abs(t) <= alpha:
            v = alpha * abs(t)
        else:
            v = (t * t + alpha * alpha) / 2
    with mp.workdps(dps):
        return +v


def rho_prime(t: Any, alpha: Any, dps: int = DEFAULT_DPS) -> mpf:
    """Derivative of rho_alpha (branch by branch): alpha*sign(t) or t."""
    with mp.workdps(dps + _GUARD):
        t, alpha = mpf(t), mpf(alpha)
        v = alpha * mpmath.sign(t) if abs(t) <= alpha else t
    with mp.workdps(dps):
        return +v


def psi(t: Any, alpha: Any, gamma: Any, dps: int = DEFAULT_DPS) -> mpf:
    """psi = -log g = rho_alpha(t)/gamma**2 + log(kappa)."""
    with mp.workdps(dps + _GUARD):
        t, alpha, gamma = mpf(t), mpf(alpha), mpf(gamma)
        b = alpha / gamma
        v = _r(t / gamma, b) + _log_Z(b) + mpmath.log(gamma)
    with mp.workdps(dps):
        return +v


# ---------------------------------------------------------------------------
# the quadrature engine
# ---------------------------------------------------------------------------

_MAX_STEPS = 4000


def _local_scale(D: Callable[[mpf], mpf], y: mpf, ymax: mpf) -> mpf:
    """A step h <= ymax - y over which D grows by about 1 (at most 1)."""
    D0 = D(y)
    h = mpf(1)
    if ymax - y < h:
        h = ymax - y
    for _ in range(_MAX_STEPS):
        if D(y + h) - D0 <= 1:
            break
        h /= 2
    else:  # pragma: no cover - would need an exponent steeper than 2**-4000
        raise HarnessError("local scale search did not terminate")
    for _ in range(_MAX_STEPS):
        if y + 2 * h > ymax or D(y + 2 * h) - D0 > 1:
            break
        h *= 2
    return h


def _breakpoints(D: Callable[[mpf], mpf], end: mpf, kinks: list, K: mpf) -> list:
    """Split points (offsets y >= 0 from the peak) for int_0^end exp(-D(y)) dy.

    ``D(0) = 0`` and D is non-decreasing.  Splits at every kink, and between
    kinks at h, 3h, 7h, ... (h = local scale); once D exceeds K the rest up to
    ``end`` (possibly +inf) is one final piece.
    """
    specials = sorted({k for k in kinks if 0 < k < end})
    specials.append(end)
    pts = [mpf(0)]
    y = mpf(0)
    for seg_end in specials:
        h = _local_scale(D, y, seg_end)
        for _ in range(_MAX_STEPS):
            if D(y) > K:
                if pts[-1] != end:
                    pts.append(end)
                return pts
            nxt = y + h
            if nxt >= seg_end:
                y = seg_end
                pts.append(seg_end)
                break
            pts.append(nxt)
            y = nxt
            h *= 2
        else:  # pragma: no cover
            raise HarnessError("breakpoint march did not terminate")
    return pts


def _integrate(
    phi: Callable[[mpf], mpf],
    m: mpf,
    lo: mpf,
    hi: mpf,
    kinks: list,
    w: Callable[[mpf], mpf] | None = None,
) -> tuple[mpf, mpf]:
    """int_lo^hi w(x) exp(-phi(x)) dx = exp(-phi(m)) * M; returns (phi(m), M).

    ``phi`` must be minimal at ``m`` and non-decreasing away from it on
    [lo, hi]; ``w`` must be >= 0.  Raises HarnessError when the quadrature
    error estimate is not below 10**-(workdps - _GUARD + 3) relative to M.
    The error estimate is at the round-off level of the O(1)-scaled integrand,
    so when M itself is tiny (a weight w that vanishes at the peak, as in the
    privacy profile) the quadrature is repeated once with log10(1/M) extra digits.
    """
    try:
        return _integrate_once(phi, m, lo, hi, kinks, w)
    except _SmallIntegral as exc:
        extra = int(-mpmath.log10(exc.total)) + 10
        with mp.workdps(mp.dps + extra):
            phim, total = _integrate_once(phi, m, lo, hi, kinks, w, target_dps=mp.dps - extra)
        return +phim, +total


class _SmallIntegral(HarnessError):
    def __init__(self, message: str, total: mpf):
        super().__init__(message)
        self.total = total


def _integrate_once(phi, m, lo, hi, kinks, w=None, target_dps=None):
    phim = phi(m)
    K = mpmath.ln(10) * mp.dps + 20
    total = mpf(0)
    err = mpf(0)
    for d in (1, -1):
        end = (hi - m) if d > 0 else (m - lo)
        if end == 0:
            continue

        def D(y, d=d):
            return phi(m + d * y) - phim

        kk = [abs(k - m) for k in kinks if (k - m) * d > 0]
        pts = _breakpoints(D, end, kk, K)
        if w is None:

            def f(y, d=d):
                return mpmath.exp(-(phi(m + d * y) - phim))

        else:

            def f(y, d=d):
                x = m + d * y
                return w(x) * mpmath.exp(-(phi(x) - phim))

        v, e = mp.quad(f, pts, error=True)
        total += v
        err += e
    target = mpf(10) ** (-((mp.dps if target_dps is None else target_dps) - _GUARD + 3))
    if not total > 0:
        raise HarnessError("non-positive integral %s" % mpmath.nstr(total, 5))
    if err > target * total:
        msg = "quadrature error estimate %s exceeds %s relative to value %s" % (
            mpmath.nstr(err, 3), mpmath.nstr(target, 3), mpmath.nstr(total, 10))
        if target_dps is None and total < 1e-3:
            raise _SmallIntegral(msg, total)
        raise HarnessError(msg)
    return phim, total


# ---------------------------------------------------------------------------
# precision management
# ---------------------------------------------------------------------------


def _guard_digits(*values: Any) -> int:
    """Digits lost forming phi(x) - phi(m) when |phi| ~ max(values)**2."""
    with mp.workdps(15):
        big = max([mpf(1)] + [abs(mpf(v)) for v in values if mpmath.isfinite(mpf(v))])
        return _GUARD + int(mpmath.ceil(mpmath.log10(1 + big * big)))


def _std(x: Any, alpha: Any, gamma: Any) -> tuple[mpf, mpf]:
    """(s, b) = (x/gamma, alpha/gamma) at the current precision, checked."""
    alpha, gamma = mpf(alpha), mpf(gamma)
    if not (mpmath.isfinite(alpha) and alpha >= 0):
        raise ValueError("alpha must be finite and >= 0; got %s" % alpha)
    if not (mpmath.isfinite(gamma) and gamma > 0):
        raise ValueError("gamma must be finite and > 0; got %s" % gamma)
    return mpf(x) / gamma, alpha / gamma


def _workdps(dps: int, *values: Any) -> int:
    return dps + _guard_digits(*values)


def _std_mags(x: Any, alpha: Any, gamma: Any) -> list:
    """Magnitudes |s|, b (low precision) used for the guard digits."""
    with mp.workdps(15):
        g = mpf(gamma)
        if not (g > 0 and mpmath.isfinite(g)):
            raise ValueError("gamma must be finite and > 0; got %s" % g)
        return [mpf(x) / g if x is not None else 0, mpf(alpha) / g]


# ---------------------------------------------------------------------------
# normaliser
# ---------------------------------------------------------------------------

_Z_CACHE: dict = {}


def _Z_parts(b: mpf) -> tuple[mpf, mpf]:
    """Z(b) = int_{-inf}^{inf} exp(-r_b(s)) ds at the current precision.

    Recipe: peak at s = 0 (phi(0) = 0), march both sides, splits at 0 and
    +-b.  Cached per (b, precision).
    """
    key = (b, mp.prec)
    if key not in _Z_CACHE:
        _, M = _integrate(lambda s: _r(s, b), mpf(0), mp.ninf, mp.inf, [-b, b])
        _Z_CACHE[key] = M
        if len(_Z_CACHE) > 4096:
            _Z_CACHE.clear()
    return _Z_CACHE[key]


def _log_Z(b: mpf) -> mpf:
    return mpmath.log(_Z_parts(b))


def normaliser(b: Any, dps: int = DEFAULT_DPS) -> mpf:
    """Z(b) = int exp(-r_b(s)) ds (standardised normaliser; kappa = gamma*Z).

    Integrand exp(-r_b(s)), peak 0, splits at 0, +-b, geometric steps of the
    local scale (1/b on the Laplace piece, 1 on the Gaussian piece).
    """
    with mp.workdps(_workdps(dps, b)):
        b = mpf(b)
        if not (mpmath.isfinite(b) and b >= 0):
            raise ValueError("b must be finite and >= 0; got %s" % b)
        v = _Z_parts(b)
    with mp.workdps(dps):
        return +v


def log_normaliser(b: Any, dps: int = DEFAULT_DPS) -> mpf:
    """log Z(b) (same quadrature as :func:`normaliser`)."""
    with mp.workdps(_workdps(dps, b)):
        v = _log_Z(mpf(b))
    with mp.workdps(dps):
        return +v


def kappa(alpha: Any, gamma: Any, dps: int = DEFAULT_DPS) -> mpf:
    """kappa = int exp(-rho_alpha(t)/gamma**2) dt = gamma * Z(alpha/gamma)."""
    with mp.workdps(_workdps(dps, *_std_mags(None, alpha, gamma))):
        _, b = _std(0, alpha, gamma)
        v = mpf(gamma) * _Z_parts(b)
    with mp.workdps(dps):
        return +v


def log_omega(alpha: Any, gamma: Any, dps: int = DEFAULT_DPS) -> mpf:
    """log omega where the paper *defines* omega by kappa = gamma*omega*exp(-b**2/2).

    i.e. log omega = log Z(b) + b**2/2 with Z from quadrature (eq. 9's closed
    form is not used).
    """
    with mp.workdps(_workdps(dps, *_std_mags(None, alpha, gamma))):
        _, b = _std(0, alpha, gamma)
        v = _log_Z(b) + b * b / 2
    with mp.workdps(dps):
        return +v


# ---------------------------------------------------------------------------
# pointwise functions
# ---------------------------------------------------------------------------


def logpdf(x: Any, alpha: Any, gamma: Any, dps: int = DEFAULT_DPS) -> mpf:
    """log g(x) = -r_b(x/gamma) - log Z(b) - log gamma."""
    with mp.workdps(_workdps(dps, *_std_mags(x, alpha, gamma))):
        s, b = _std(x, alpha, gamma)
        v = -_r(s, b) - _log_Z(b) - mpmath.log(mpf(gamma))
    with mp.workdps(dps):
        return +v


def pdf(x: Any, alpha: Any, gamma: Any, dps: int = DEFAULT_DPS) -> mpf:
    """g(x) = exp(logpdf) (mpf has an unbounded exponent range)."""
    with mp.workdps(_workdps(dps, *_std_mags(x, alpha, gamma))):
        v = mpmath.exp(logpdf(x, alpha, gamma, dps=mp.dps))
    with mp.workdps(dps):
        return +v


def _tail(s: mpf, b: mpf) -> tuple[mpf, mpf]:
    """The smaller tail mass at s: int_s^inf (s >= 0) or int_-inf^s (s < 0).

    Integrand exp(-r_b), peak at s itself (r_b is monotone on each side of 0),
    shifted variable y = |x - s|, splits at the kink +-b if it lies in the
    tail.  Returns (r_b(s), M) with tail = exp(-r_b(s)) * M.
    """
    if s >= 0:
        return _integrate(lambda u: _r(u, b), s, s, mp.inf, [b])
    return _integrate(lambda u: _r(u, b), s, mp.ninf, s, [-b])


def tail_bundle(x: Any, alpha: Any, gamma: Any, dps: int = DEFAULT_DPS) -> dict:
    """cdf, sf, logcdf, logsf, pdf, logpdf at x from one tail quadrature.

    The smaller tail p = exp(-r(s)) * M / Z is computed by :func:`_tail`
    (full relative accuracy however small); the other side is 1 - p, which
    is >= 1/2 and so is accurate, and its log is log1p(-p) (accurate for
    p ~ exp(-5e5)).  Values are returned as a dict of mpf.
    """
    with mp.workdps(_workdps(dps, *_std_mags(x, alpha, gamma))):
        s, b = _std(x, alpha, gamma)
        logZ = _log_Z(b)
        if mpmath.isinf(s):
            small, logsmall = mpf(0), mp.ninf
        else:
            rs, M = _tail(s, b)
            logsmall = -rs + mpmath.log(M) - logZ
            small = mpmath.exp(logsmall)
        big = 1 - small
        logbig = mpmath.log1p(-small)
        if s >= 0:
            out = dict(sf=small, logsf=logsmall, cdf=big, logcdf=logbig)
        else:
            out = dict(cdf=small, logcdf=logsmall, sf=big, logsf=logbig)
        if mpmath.isinf(s):
            out["logpdf"] = mp.ninf
        else:
            out["logpdf"] = -_r(s, b) - logZ - mpmath.log(mpf(gamma))
        out["pdf"] = mpmath.exp(out["logpdf"])
        return {k: +v for k, v in out.items()}


def _pick(name: str) -> Callable:
    def fn(x: Any, alpha: Any, gamma: Any, dps: int = DEFAULT_DPS) -> mpf:
        with mp.workdps(dps):
            return +tail_bundle(x, alpha, gamma, dps=dps)[name]

    fn.__name__ = name
    fn.__qualname__ = name
    fn.__doc__ = "%s(x; alpha, gamma) from :func:`tail_bundle`." % name
    return fn


cdf = _pick("cdf")
sf = _pick("sf")
logcdf = _pick("logcdf")
logsf = _pick("logsf")


# ---------------------------------------------------------------------------
# quantiles
# ---------------------------------------------------------------------------


def _central_mass(y: mpf, b: mpf) -> mpf:
    """int_0^y exp(-r_b(u)) du for y >= 0 (peak at 0, split at b)."""
    if y == 0:
        return mpf(0)
    _, M = _integrate(lambda u: _r(u, b), mpf(0), mpf(0), y, [b])
    return M


def _upper_quantile(p: mpf, b: mpf, dps: int) -> mpf:
    """y >= 0 with P(S >= y) = p, for 0 < p <= 1/2 (standardised).

    * p >= 1/4: Newton on C(y) = int_0^y exp(-r_b) - (1/2 - p) Z (C' =
      exp(-r_b(y)); C is concave so Newton from 0 converges monotonically
      from below).  Solving for the central mass keeps full relative
      accuracy of y near p = 1/2.
    * p < 1/4: Newton on F(y) = log tail(y) - log Z - log p (F' = -1/M(y),
      F concave by log-concavity, monotone convergence from the right after
      the first step), started at 0.
    Iterations run at 25 digits until the step is < 1e-13 relative, then at
    the working precision until it is < 10**-(dps+2) (or < 10**-dps once
    steps stop shrinking quadratically, i.e. the noise floor of the
    quadrature is reached); iterates are kept inside a bisection bracket.
    """
    if p == mpf(1) / 2:
        return mpf(0)
    target_dps = mp.dps

    def solve(y, lo, hi, tol_digits):
        prev = mp.inf
        for _ in range(400):
            if p >= mpf(1) / 4:
                Z = _Z_parts(b)
                G = _central_mass(y, b) - (mpf(1) / 2 - p) * Z
                dG = mpmath.exp(-_r(y, b))
                if G < 0:
                    lo = max(lo, y)
                else:
                    hi = min(hi, y)
                step = G / dG
            else:
                rs, M = _tail(y, b)
                F = -rs + mpmath.log(M) - _log_Z(b) - mpmath.log(p)
                if F > 0:
                    lo = max(lo, y)
                else:
                    hi = min(hi, y)
                step = F * M  # = -F/F'
            ynew = y - step if p >= mpf(1) / 4 else y + step
            delta = abs(ynew - y)
            if delta <= mpf(10) ** (-tol_digits) * abs(ynew):
                return ynew, lo, hi
            # noise floor of F reached (no quadratic decrease any more)
            if delta <= mpf(10) ** (-(tol_digits - 2)) * abs(ynew) and delta > prev / 4:
                return ynew, lo, hi
            prev = delta
            if not (lo <= ynew <= hi):
                ynew = (lo + hi) / 2 if mpmath.isfinite(hi) else 2 * y + 1
            y = ynew
        raise HarnessError("quantile Newton iteration did not converge (p=%s)" % p)

    with mp.workdps(25):
        y0, _, _ = solve(mpf(0), mpf(0), mp.inf, 13)
    with mp.workdps(target_dps):
        # fresh bracket: the 25-digit signs near the root are not trustworthy
        y, _, _ = solve(mpf(y0), mpf(0), mp.inf, dps + 2)
    return y


def isf(q: Any, alpha: Any, gamma: Any, dps: int = DEFAULT_DPS) -> mpf:
    """x with P(T > x) = q (root of the quadrature SF, see _upper_quantile).

    q < 1/2: x = gamma * y(q);  q > 1/2: x = -gamma * y(1 - q) (1 - q is exact
    for a binary float q >= 1/2); q = 0, 1 give +inf, -inf.
    """
    with mp.workdps(dps + 10):
        q_ = mpf(q)
        if not (0 <= q_ <= 1):
            raise ValueError("q must be in [0, 1]; got %s" % q_)
        if q_ == 0:
            return mp.inf
        if q_ == 1:
            return mp.ninf
        ylog = -mpmath.log(min(q_, 1 - q_))
    with mp.workdps(_workdps(dps, *_std_mags(0, alpha, gamma), ylog)):
        _, b = _std(0, alpha, gamma)
        q_ = mpf(q)
        if q_ <= mpf(1) / 2:
            v = _upper_quantile(q_, b, dps) * mpf(gamma)
        else:
            v = -_upper_quantile(1 - q_, b, dps) * mpf(gamma)
    with mp.workdps(dps):
        return +v


def ppf(q: Any, alpha: Any, gamma: Any, dps: int = DEFAULT_DPS) -> mpf:
    """x with P(T <= x) = q; = -isf(q) because rho is even (P(T<=-y)=P(T>=y))."""
    v = isf(q, alpha, gamma, dps=dps)
    with mp.workdps(dps):
        return -v


# ---------------------------------------------------------------------------
# moments and functionals
# ---------------------------------------------------------------------------


def _moment(w: Callable[[mpf], mpf], b: mpf) -> mpf:
    """(2/Z) int_0^inf w(s) exp(-r_b(s)) ds for an even weight w."""
    _, M = _integrate(lambda u: _r(u, b), mpf(0), mpf(0), mp.inf, [b], w=w)
    return 2 * M / _Z_parts(b)


def variance(alpha: Any, gamma: Any, dps: int = DEFAULT_DPS) -> mpf:
    """Var T = gamma**2 (2/Z) int_0^inf s**2 exp(-r_b(s)) ds (mean is 0 by symmetry)."""
    with mp.workdps(_workdps(dps, *_std_mags(None, alpha, gamma))):
        _, b = _std(0, alpha, gamma)
        v = _moment(lambda u: u * u, b) * mpf(gamma) ** 2
    with mp.workdps(dps):
        return +v


def fisher_information(alpha: Any, gamma: Any, dps: int = DEFAULT_DPS) -> mpf:
    """I = int psi'(t)**2 g(t) dt = (1/gamma**2) (2/Z) int_0^inf r_b'(s)**2 exp(-r_b) ds.

    psi'(t) = rho_alpha'(t)/gamma**2 = r_b'(s)/gamma; r_b' = b on (0, b), s beyond.
    """
    with mp.workdps(_workdps(dps, *_std_mags(None, alpha, gamma))):
        _, b = _std(0, alpha, gamma)
        v = _moment(lambda u: _dr(u, b) ** 2, b) / mpf(gamma) ** 2
    with mp.workdps(dps):
        return +v


def nfi(alpha: Any, gamma: Any, dps: int = DEFAULT_DPS) -> mpf:
    """Normalised Fisher information I * Var (scale free)."""
    with mp.workdps(dps + 5):
        v = fisher_information(alpha, gamma, dps=dps + 5) * variance(alpha, gamma, dps=dps + 5)
    with mp.workdps(dps):
        return +v


def _log_mgf_std(c: mpf, b: mpf) -> mpf:
    """log E[exp(c S)] = log( (1/Z) int exp(-(r_b(x) - c x)) dx ).

    phi(x) = r_b(x) - c x is convex; its minimiser solves r_b'(m) = c, i.e.
    m = 0 for |c| <= b and m = c for |c| > b (r_b' = b sign on (-b, b), x
    beyond).  Whole line, splits at -b, 0, b.
    """
    m = mpf(0) if abs(c) <= b else c
    phim, M = _integrate(lambda x: _r(x, b) - c * x, m, mp.ninf, mp.inf, [-b, mpf(0), b])
    return -phim + mpmath.log(M) - _log_Z(b)


def log_mgf(s: Any, alpha: Any, gamma: Any, dps: int = DEFAULT_DPS) -> mpf:
    """log M_T(s) = log E[exp(s T)] = log M_S(s*gamma) (see _log_mgf_std)."""
    with mp.workdps(15):
        cmag = abs(mpf(s) * mpf(gamma))
    with mp.workdps(_workdps(dps, *_std_mags(None, alpha, gamma), cmag)):
        _, b = _std(0, alpha, gamma)
        v = _log_mgf_std(mpf(s) * mpf(gamma), b)
    with mp.workdps(dps):
        return +v


def mgf(s: Any, alpha: Any, gamma: Any, dps: int = DEFAULT_DPS) -> mpf:
    """M_T(s) = E[exp(s T)] = exp(log_mgf)."""
    with mp.workdps(dps + 5):
        v = mpmath.exp(log_mgf(s, alpha, gamma, dps=dps + 5))
    with mp.workdps(dps):
        return +v


def orlicz(s: Any, alpha: Any, gamma: Any, dps: int = DEFAULT_DPS) -> mpf:
    """E[exp(s T**2/(2 gamma**2))] * sqrt(1 - s) for s in [0, 1).

    = sqrt(1-s) (2/Z) int_0^inf exp(-(r_b(x) - s x**2/2)) dx; the exponent is
    increasing on [0, inf) (slope b - s x > 0 on (0, b), (1-s) x beyond), so
    the peak is at 0; splits at b.  Equals 1 for alpha = 0; sub-Gaussianity
    with variance proxy gamma**2 is orlicz <= 1.
    """
    with mp.workdps(_workdps(dps, *_std_mags(None, alpha, gamma))):
        _, b = _std(0, alpha, gamma)
        u = mpf(s)
        if not (0 <= u < 1):
            raise ValueError("s must be in [0, 1); got %s" % u)
        _, M = _integrate(lambda x: _r(x, b) - u * x * x / 2, mpf(0), mpf(0), mp.inf, [b])
        v = 2 * M / _Z_parts(b) * mpmath.sqrt(1 - u)
    with mp.workdps(dps):
        return +v


# ---------------------------------------------------------------------------
# the privacy profile and the two-precision confirmation live in their own modules
# (reference_profile.py, reference_confirm.py); they are part of this module's API
# ---------------------------------------------------------------------------

from .reference_confirm import _compare, agree_digits, confirm, confirm_report  # noqa: E402,F401
from .reference_profile import _crossing, privacy_profile  # noqa: E402,F401
