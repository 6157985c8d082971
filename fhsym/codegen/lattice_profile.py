"""The discrete flipped Huber's exact 1-D privacy profile in C99 and JAX (issue 28): the control flow of
``fhsym.DiscreteFlippedHuber._log_profile_one`` as a printed template around the programs printed from the law's
declaration.

Every formula the profile evaluates is a program of :mod:`fhsym.symbolic.lattice_float` (the energy, the hinge-form
loss, the tail's entry gap, the centre gap, ``rho`` of the centre, ``log T``, ``log Z``, the reflected tail, ``x`` and
``log delta``) or of :mod:`fhsym.symbolic.lattice_em` / :mod:`fhsym.symbolic.lattice_laws` (the Gaussian tail's
summand exponent, its Euler-Maclaurin sum ``em_log_r0``, the centre's scaled log tail), printed into the same file by
:mod:`fhsym.codegen.lattice_laws`; ``proofs/lattice_laws.py`` proves each equal to its derived form (rows
``generated``, ``printed``, ``assembly``).  What is written here is the class's control flow:

* the law's constants as ``DiscreteFlippedHuber.__init__`` (``K = floor(alpha/step)`` exactly: corrected by the sign of
  ``alpha - K step`` with one rounding, C's ``fma``, JAX's ``sub_prod``);
* ``log R_0(m)`` as ``fhsym.noise.lattice_sums``: a direct sum of the terms that matter (``_terms``, at most 2048) or
  the Euler-Maclaurin program;
* ``k* = min{k : L(k) > eps}`` by ``fhsym._core.search.first_true_int``'s doubling and bisection (the same integers,
  the same float losses); JAX runs fixed loop lengths, each step a no-op once the search has ended;
* ``log delta`` by the ``k* >= 1`` form (``rho``) or the reflected tails, and the class's error estimate: where the
  class switches to its arb enclosure (a loss within 1e-14 (eps + 1) of eps, or cancellation in ``1 - e^x``), the
  float value is returned with that estimate, which the caller reads (``rel_err``); where it has no finite bound
  (``x >= 0``: ``1 - e^x`` below the float form's resolution; or the estimate overflows) the value is an upper end,
  ``T(k*)/Z`` (its log raised by its error bound) times ``(1 - e^x)_+`` plus the error bound of x (at most 1), and
  ``rel_err`` is infinite (so too where
  the search passes 2^51: ``T(n)/Z`` at an index ``n <= k*`` from the tail's exact loss ``c^2 S (k + S/2)``, raised by
  its error: log T(n) within about 2^-43 of log T(k*), and delta = (T(k*)/Z) (1 - e^x), so the end is tight in log
  delta where |log(1 - e^x)| is small beside |log T(k*)| (1.2e-13 relative at the test's 4 points), not where x -> 0;
  n is at most 1e25/c (the Euler-Maclaurin program's Hermite polynomials overflow to NaN from c n = 2e28) and 2^1000,
  and is K + 1 where eps/S is subnormal: valid upper ends, loose (``FAR_EDGE`` of the test)).

The direct sums run over exactly the terms one point needs (the class pads a group of points to its longest), C's
compensated, JAX's pairwise in a fixed order (numpy's ``np.sum`` is pairwise in blocks): the result agrees with the
class to its stated accuracy, not bit for bit (``tests/test_lattice_profile_targets.py``).
"""

from __future__ import annotations

import textwrap

__all__ = ["C_LOGADDEXP", "C_PROFILE", "JAX_PROFILE", "c_profile", "c_logaddexp", "jax_profile"]

#: numpy's ``npy_logaddexp`` (the class's ``np.logaddexp``), the same operations
C_LOGADDEXP = """\
static double P__logaddexp(double x, double y)
{
    double t;
    if (x == y) return x + 0.693147180559945309417232121458176568;
    t = x - y;
    if (t > 0.0) return x + log1p(exp(-t));
    if (t <= 0.0) return y + log1p(exp(t));
    return t;
}
"""

_DOC = ("delta(eps) = sum_k [p(k) - e^eps p(k + S)]_+ of the discrete flipped Huber (alpha, gamma, step) at an integer "
        "shift of S lattice steps (as fhsym.DiscreteFlippedHuber.log_privacy_profile): k* = min{k : L(k) > eps} by "
        "doubling and bisection on the printed loss, then log delta = log T(k*) - log Z + log(1 - e^x), x = log(e^eps "
        "T(k* + S)/T(k*)), every piece a printed program.  rel_err: the estimated relative error of delta (4 ulp of the "
        "sizes of the log terms, plus the error bound of x times e^x/(1 - e^x); a loss within tie = 1e-14 (eps + 1) of eps "
        "may be decided either way: at k >= k* it adds tie/(1 - e^x), at k < k* tie/delta); where the class "
        "would use its arb enclosure the value is the float form's; where that has no finite bound (x >= 0, or it "
        "overflows) rel_err is inf and the value the upper end T(k*)/Z min(1, (1 - e^x)_+ + error bound of x) (+ tie, "
        "for a tie below k*), log T(k*) - log Z raised by its error bound (4 ulp of their sizes).  NaN for eps "
        "< 0 or not finite, S not a whole number in [1, 2^52], alpha < 0, gamma <= 0, step <= 0, a parameter not "
        "finite, alpha/step >= 2^52, step/gamma outside [2.2e-308, 1e150] (subnormal or above) or alpha step/gamma^2 "
        "outside [2.2e-308, 1e300] when alpha >= step (the class's domain).  Where the doubling passes 2^51 (k* "
        "beyond, where k* + S would no longer be an "
        "exact double) the value is the upper end log T(n) - log Z, raised by its error bound (+ tie, for a tie at K + 1), "
        "n <= k* from the tail's exact loss c^2 S (k + S/2) taken 2^-44 relative low (log T(n) about 2^-43 relative above "
        "log T(k*); delta = T(k*)/Z (1 - e^x)) and at most 1e25/c and 2^1000 (looser beyond), rel_err inf.  log_profile "
        "and profile (no rel_err) return the value where rel_err <= 1e-12 and the upper end elsewhere: a delta within "
        "1e-12 or above it, never a float form whose error is not known to be small")

C_PROFILE = """\
/* the law's constants, as fhsym.DiscreteFlippedHuber.__init__ */
struct P__law { double K, lam, b, c, d, log_r_first, log_z; };

/* the number of terms j = 0 .. J-1 of R_0(m) that matter (fhsym.noise.lattice_sums.terms_needed) */
static double P__terms(double m, double c)
{
    double beta = c * c * m, j_lin = beta > 0.0 ? 44.0 / beta : INFINITY, j_quad = sqrt(88.0) / c;
    return ceil(j_lin < j_quad ? j_lin : j_quad) + 2.0;
}

/* log R_0(m) = log(e^(c^2 m^2/2) sum_(n>=m) e^(-c^2 n^2/2)): a direct sum of its J terms (compensated: the terms
   decrease from 1, so Kahan's correction of each addition is exact), else Euler-Maclaurin */
static double P__log_r0(double m, double c)
{
    double J = P__terms(m, c), s = 1.0, comp = 0.0, j, t, y;
    if (J > 2048.0) return P_em_log_r0(m, c);
    for (j = 1.0; j < J; j += 1.0) {
        t = exp(P_tail_exponent(m, j, c));
        y = s + t;
        comp += (s - y) + t;
        s = y;
    }
    return log(s + comp);
}

/* log(e^(E(n)) T(n)), n >= 1 */
static double P__rho_pos(const struct P__law *w, double n)
{
    if (n > w->K) return P__log_r0(n, w->c);
    return P_rho_centre(P_log_centre_scaled(n, w->K, w->lam), P_centre_gap(n, w->K, w->lam, w->d), w->log_r_first);
}

/* log T(n), n >= 1 */
static double P__log_tail_pos(const struct P__law *w, double n)
{
    return P_log_tail_pos(P_energy_float(n, w->K, w->lam, w->b, w->c), P__rho_pos(w, n));
}

/* log T(n) for every integer n (n <= 0: T(n) = Z - T(1 - n)) */
static double P__log_tail(const struct P__law *w, double n)
{
    if (n >= 1.0) return P__log_tail_pos(w, n);
    return P_log_reflected_tail(w->log_z, P__log_tail_pos(w, 1.0 - n));
}

/* L(k) = E(|k + S|) - E(|k|) */
static double P__loss(const struct P__law *w, double k, double S)
{
    return P_loss_float(fabs(k + S), fabs(k), w->K, w->lam, w->b, w->c);
}

/* 1 and the constants for parameters in the class's domain, else 0 */
static int P__law_init(struct P__law *w, double alpha, double gamma, double step)
{
    double K;
    if (!(alpha >= 0.0 && alpha < INFINITY && gamma > 0.0 && gamma < INFINITY && step > 0.0 && step < INFINITY))
        return 0;
    K = floor(alpha / step);
    if (K < 4503599627370496.0) {  /* floor(alpha/step) exactly: the sign of alpha - K step, rounded once */
        if (fma(-K, step, alpha) < 0.0) K -= 1.0;
        else if (fma(-(K + 1.0), step, alpha) >= 0.0) K += 1.0;
    }
    if (!(K < 4503599627370496.0)) return 0;
    w->K = K;
    w->b = alpha / gamma;
    w->c = step / gamma;
    if (!(w->b < INFINITY && w->c >= 2.2250738585072014e-308 && w->c <= 1e150)) return 0;  /* c a normal double */
    w->lam = w->b * w->c;
    if (K >= 1.0 && !(w->lam >= 2.2250738585072014e-308 && w->lam <= 1e300)) return 0;
    w->d = P_tail_entry_gap(step, K, alpha, gamma);
    w->log_r_first = P__log_r0(K + 1.0, w->c);
    w->log_z = P_log_normaliser_float(P__log_tail_pos(w, 1.0));
    return 1;
}

/* an index n <= k* where the doubling passes 2^51 (k* > K + 1, the Gaussian tail): there E(k) = (c^2 k^2 + b^2)/2, so
   L(k) = c^2 S (k + S/2) and k* = floor(A - S/2) + 1, A = eps/(c^2 S) = g^2 (eps/S) (g = gamma/step); A is computed
   2^-44 relative low (its five roundings, g's counted twice, move it by at most 7 ulp; a product that overflows is
   inf: then A is above the cap too), so n <= k* and E(k*) - E(n) >= c^2 n (k* - n), about 2^-43 E(n): far more than the float error of
   log T(n) (a few ulp of E(n)).  eps/S below the smallest normal double gives n = K + 1 (its gradual underflow could
   round A up; a lower n is valid, only looser).  Capped where c n > 1e25 (the Euler-Maclaurin program's Hermite
   polynomials, u^11, stay finite: from c n = 2e28 they overflow to NaN) or n > 2^1000; at least K + 1 (k* >= K + 2
   when L(K + 1) <= eps; a tie there is the caller's) */
static double P__far_index(const struct P__law *w, double eps, double S, double g)
{
    double t = eps / S, A = t >= 0x1p-1022 ? g * t * g * (1.0 - 0x1p-44) : 0.0, n = floor(A - 0.5 * S);
    double cap = 1e25 / w->c;
    cap = floor(cap < 0x1p1000 ? cap : 0x1p1000);
    if (!(n <= cap)) n = cap;
    return n > w->K + 1.0 ? n : w->K + 1.0;
}

static double P__log_profile_capped(double eps, double S, double alpha, double gamma, double step, double *rel_err,
                                     double max_rel)
{
    struct P__law w;
    double lo, hi, mid, ks, L, r1, r2, x, lt1, lt2, scale, tie, ex, dx, r, q, n;
    int up, down;
    if (rel_err) *rel_err = NAN;
    if (!(eps >= 0.0 && eps < INFINITY && S >= 1.0 && S <= 4503599627370496.0 && S == floor(S))) return NAN;
    if (!P__law_init(&w, alpha, gamma, step)) return NAN;
    lo = -floor(0.5 * S) - 1.0;  /* L(lo) <= 0 <= eps */
    hi = w.K + 1.0;
    while (!(P__loss(&w, hi, S) > eps)) {
        if (!(hi < 2251799813685248.0)) {  /* k* > hi >= 2^51: the upper end T(n)/Z >= T(k*)/Z >= delta */
            if (rel_err) *rel_err = INFINITY;
            n = P__far_index(&w, eps, S, gamma / step);
            lt1 = P__log_tail_pos(&w, n);
            return P__logaddexp(P_log_cdf_neg(lt1, w.log_z) + 8.881784197001252e-16 * (fabs(lt1) + fabs(w.log_z) + 1.0),
                                eps - P__loss(&w, w.K + 1.0, S) <= 1e-14 * (eps + 1.0) ? log(1e-14 * (eps + 1.0))
                                                                                      : -INFINITY);
        }
        lo = hi;
        hi = 2.0 * hi + 1.0;
    }
    while (hi - lo > 1.0) {
        mid = floor(0.5 * (lo + hi));
        if (P__loss(&w, mid, S) > eps) hi = mid;
        else lo = mid;
    }
    ks = hi;
    L = P__loss(&w, ks, S);
    if (ks >= 1.0) {
        r1 = P__rho_pos(&w, ks);
        r2 = P__rho_pos(&w, ks + S);
        x = P_log_profile_x_pos(eps, L, r1, r2);
        lt1 = P_log_tail_pos(P_energy_float(ks, w.K, w.lam, w.b, w.c), r1);
        scale = fabs(eps) + fabs(L) + fabs(r1) + fabs(r2);
    } else {
        lt1 = P__log_tail(&w, ks);
        lt2 = P__log_tail(&w, ks + S);
        x = P_log_profile_x(eps, lt1, lt2);
        scale = fabs(eps) + fabs(lt1) + fabs(lt2);
    }
    /* a loss within tie of eps may be decided either way: at k >= k* terms of at most tie T(k*)/Z in all (up), at
       k < k* of at most tie in all (down) */
    tie = 1e-14 * (fabs(eps) + 1.0);
    up = L - eps <= tie;
    down = eps - P__loss(&w, ks - 1.0, S) <= tie;
    ex = 8.881784197001252e-16 * (scale + 1.0);  /* the error of x: 4 ulp of the sizes */
    dx = ex + (up ? tie : 0.0);
    if (x < 0.0) {  /* d log(1 - e^x)/dx = -1/expm1(-x) */
        r = 8.881784197001252e-16 * (fabs(lt1) + fabs(w.log_z) + 1.0) + ex / expm1(-x)
            + ((up ? tie : 0.0) + (down ? tie * exp(w.log_z - lt1) : 0.0)) / -expm1(x);
        if (r < INFINITY && r <= max_rel) {
            if (rel_err) *rel_err = r;
            return P_log_profile_float(lt1, w.log_z, x);
        }
    }
    /* no relative bound (x >= 0, or it overflows), or one above max_rel: the upper end
       T(k*)/Z min(1, (1 - e^x)_+ + dx) (+ tie), log T(k*) - log Z raised by its error (4 ulp of their sizes) */
    if (rel_err) *rel_err = INFINITY;
    q = -expm1(x < 0.0 ? x : 0.0) + dx;
    return P__logaddexp(P_log_profile_float(lt1, w.log_z, log1p(-(q < 1.0 ? q : 1.0)))
                        + 8.881784197001252e-16 * (fabs(lt1) + fabs(w.log_z) + 1.0), down ? log(tie) : -INFINITY);
}

double P_log_profile_parts(double eps, double S, double alpha, double gamma, double step, double *rel_err)
{
    return P__log_profile_capped(eps, S, alpha, gamma, step, rel_err, INFINITY);
}

/* log delta(eps) within 1e-12 relative where the float form is, else its upper end (never below delta where the
   estimate holds): the value of log_profile_parts where its rel_err <= 1e-12, the upper end elsewhere */
double P_log_profile(double eps, double S, double alpha, double gamma, double step)
{
    return P__log_profile_capped(eps, S, alpha, gamma, step, 0, 1e-12);
}

/* delta(eps) = exp(log_profile): within 1e-12 relative, or an upper end */
double P_profile(double eps, double S, double alpha, double gamma, double step)
{
    return exp(P__log_profile_capped(eps, S, alpha, gamma, step, 0, 1e-12));
}
"""

JAX_PROFILE = '''\
def _terms(m: Any, c: Any) -> Any:
    """The number of terms j = 0 .. J-1 of R_0(m) that matter (fhsym.noise.lattice_sums.terms_needed)."""
    beta = c * c * m
    j_lin = xp.where(beta > 0.0, 44.0 / xp.where(beta > 0.0, beta, 1.0), xp.inf)
    return xp.ceil(xp.minimum(j_lin, math.sqrt(88.0) / c)) + 2.0


def _log_r0(m: Any, c: Any) -> Any:
    """log R_0(m): a direct sum of its J terms (J <= 2048, the rest masked; pairwise), else Euler-Maclaurin."""
    J = _terms(m, c)
    j = xp.arange(2048, dtype=xp.float64)
    ex = tail_exponent(m[..., None], j, c[..., None])
    t = xp.where(j == 0.0, 1.0, xp.where(j < J[..., None], xp.exp(xp.where(j == 0.0, 0.0, ex)), 0.0))
    for half in (1024, 512, 256, 128, 64, 32, 16, 8, 4, 2, 1):  # pairwise, in a fixed order
        t = t[..., :half] + t[..., half:]
    return xp.where(J > 2048.0, em_log_r0(m, c), xp.log(t[..., 0]))


def _rho_pos(n: Any, w: Any) -> Any:
    """log(e^(E(n)) T(n)), n >= 1."""
    K, lam, b, c, d, lrf = w[:6]
    centre = rho_centre(log_centre_scaled(n, K, lam), centre_gap(n, K, lam, d), lrf)
    return xp.where(n > K, _log_r0(n, c), centre)


def _log_tail_pos(n: Any, w: Any) -> Any:
    """log T(n), n >= 1."""
    K, lam, b, c = w[:4]
    return log_tail_pos(energy_float(n, K, lam, b, c), _rho_pos(n, w))


def _loss(k: Any, S: Any, w: Any) -> Any:
    K, lam, b, c = w[:4]
    return loss_float(abs(k + S), abs(k), K, lam, b, c)


def log_profile_parts(eps: Any, S: Any, alpha: Any, gamma: Any, step: Any) -> Any:
    """(log delta, rel_err): _log_profile_capped with no cap (the doc below)."""
    return _log_profile_capped(eps, S, alpha, gamma, step, xp.inf)


def _log_profile_capped(eps: Any, S: Any, alpha: Any, gamma: Any, step: Any, max_rel: Any) -> Any:
'''


def _jax_body() -> str:
    return '''\
    eps, S, alpha, gamma, step = (xp.asarray(v, dtype=xp.float64) for v in (eps, S, alpha, gamma, step))
    z = 0.0 * (eps + S + alpha + gamma + step)
    eps, S, alpha, gamma, step = eps + z, S + z, alpha + z, gamma + z, step + z
    ok = (eps >= 0.0) & (eps < xp.inf) & (S >= 1.0) & (S <= 4503599627370496.0) & (S == xp.floor(S))
    ok = ok & (alpha >= 0.0) & (alpha < xp.inf) & (gamma > 0.0) & (gamma < xp.inf) & (step > 0.0) & (step < xp.inf)
    eps, S = xp.where(ok, eps, 0.0), xp.where(ok, S, 1.0)  # refused: run on harmless values, NaN at the end
    alpha, gamma, step = xp.where(ok, alpha, 0.0), xp.where(ok, gamma, 1.0), xp.where(ok, step, 1.0)
    K = xp.floor(alpha / step)  # floor(alpha/step) exactly: the sign of alpha - K step, rounded once
    K = xp.where(xp.sub_prod(alpha, K, step) < 0.0, K - 1.0,
                 xp.where(xp.sub_prod(alpha, K + 1.0, step) >= 0.0, K + 1.0, K))
    b, c = alpha / gamma, step / gamma
    lam = b * c
    ok = ok & (K < 4503599627370496.0) & (b < xp.inf) & (c >= 2.2250738585072014e-308) & (c <= 1e150)  # c normal
    ok = ok & ((K < 1.0) | ((lam >= 2.2250738585072014e-308) & (lam <= 1e300)))
    K, b, c = xp.where(ok, K, 0.0), xp.where(ok, b, 0.0), xp.where(ok, c, 1.0)
    lam = xp.where(ok, lam, 0.0)
    d = tail_entry_gap(step, K, alpha, gamma)
    w = (K, lam, b, c, d, _log_r0(K + 1.0, c))
    log_z = log_normaliser_float(_log_tail_pos(1.0 + z, w))

    def grow(_: int, carry: Any) -> Any:  # hi = 2 hi + 1 until L(hi) > eps
        lo, hi = carry
        go = ~(_loss(hi, S, w) > eps) & (hi < 2251799813685248.0)
        return xp.where(go, hi, lo), xp.where(go, 2.0 * hi + 1.0, hi)

    def bisect(_: int, carry: Any) -> Any:  # (lo, hi]: L(lo) <= eps < L(hi)
        lo, hi = carry
        mid = xp.floor(0.5 * (lo + hi))
        go, t = hi - lo > 1.0, _loss(mid, S, w) > eps
        return xp.where(go & ~t, mid, lo), xp.where(go & t, mid, hi)

    lo, hi = xp.fori_loop(0, 53, grow, (-xp.floor(0.5 * S) - 1.0, K + 1.0))
    found = _loss(hi, S, w) > eps  # else k* > hi >= 2^51: the upper end T(n)/Z >= T(k*)/Z >= delta
    # n <= k*: past K + 1, L(k) = c^2 S (k + S/2), k* = floor(A - S/2) + 1, A = g^2 (eps/S) taken 2^-44 relative low
    # (the C template's _far_index: that margin is far more than the float error of log T(n); a product that
    # overflows is inf, then A is above the cap too; eps/S below the smallest normal: n = K + 1); c n <= 1e25 (the
    # Euler-Maclaurin program's u^11 stays finite), n <= 2^1000
    g, t = gamma / step, eps / S
    A = xp.where(t >= 2.2250738585072014e-308, g * t * g * (1.0 - 2.0**-44), 0.0)
    n = xp.floor(A - 0.5 * S)
    cap = xp.floor(xp.minimum(1e25 / c, 2.0**1000))
    n = xp.where(n <= cap, n, cap)
    n = xp.where(n > K + 1.0, n, K + 1.0)
    lt_far = _log_tail_pos(n, w)
    tie_far = 1e-14 * (eps + 1.0)
    far = xp.logaddexp(log_cdf_neg(lt_far, log_z) + 8.881784197001252e-16 * (abs(lt_far) + abs(log_z) + 1.0),
                       xp.where(eps - _loss(K + 1.0, S, w) <= tie_far, xp.log(tie_far), -xp.inf))
    lo, hi = xp.fori_loop(0, 56, bisect, (lo, hi))
    ks = hi
    L = _loss(ks, S, w)
    kp = xp.maximum(ks, 1.0)  # the k* >= 1 form
    r1, r2 = _rho_pos(kp, w), _rho_pos(kp + S, w)
    x_pos = log_profile_x_pos(eps, L, r1, r2)
    lt1_pos = log_tail_pos(energy_float(kp, K, lam, b, c), r1)

    def log_tail(n: Any) -> Any:  # log T(n), n <= 0 through T(n) = Z - T(1 - n)
        pos = _log_tail_pos(xp.maximum(n, 1.0), w)
        return xp.where(n >= 1.0, pos, log_reflected_tail(log_z, _log_tail_pos(xp.maximum(1.0 - n, 1.0), w)))

    lt1_neg, lt2_neg = log_tail(ks), log_tail(ks + S)
    x_neg = log_profile_x(eps, lt1_neg, lt2_neg)
    first = ks >= 1.0
    x, lt1 = xp.where(first, x_pos, x_neg), xp.where(first, lt1_pos, lt1_neg)
    scale = xp.where(first, abs(eps) + abs(L) + abs(r1) + abs(r2),
                     abs(eps) + abs(lt1_neg) + abs(lt2_neg))
    # a loss within tie of eps may be decided either way: at k >= k* terms of at most tie T(k*)/Z in all (up), at
    # k < k* of at most tie in all (down)
    tie = 1e-14 * (abs(eps) + 1.0)
    up, down = L - eps <= tie, eps - _loss(ks - 1.0, S, w) <= tie
    ex = 8.881784197001252e-16 * (scale + 1.0)  # the error of x: 4 ulp of the sizes
    dx = ex + xp.where(up, tie, 0.0)
    xn = xp.minimum(x, 0.0)
    rel = 8.881784197001252e-16 * (abs(lt1) + abs(log_z) + 1.0) + ex / xp.expm1(-xn) + (  # d log(1 - e^x)/dx
        xp.where(up, tie, 0.0) + xp.where(down, tie * xp.exp(log_z - lt1), 0.0)) / -xp.expm1(xn)
    bounded = (x < 0.0) & (rel < xp.inf) & (rel <= max_rel)
    # no relative bound (x >= 0, or it overflows), or one above max_rel: the upper end
    # T(k*)/Z min(1, (1 - e^x)_+ + dx) (+ tie), log T(k*) - log Z raised by its error (4 ulp of their sizes)
    xu = xp.log1p(-xp.minimum(-xp.expm1(xn) + dx, 1.0))
    upper = xp.logaddexp(log_profile_float(lt1, log_z, xu) + 8.881784197001252e-16 * (abs(lt1) + abs(log_z) + 1.0),
                         xp.where(down, xp.log(tie), -xp.inf))
    value = xp.where(bounded, log_profile_float(lt1, log_z, xp.where(bounded, x, -1.0)), upper)
    rel = xp.where(bounded & found, rel, xp.inf)
    value = xp.where(found, value, far)
    return xp.where(ok, value, float("nan")), xp.where(ok, rel, float("nan"))


def log_profile(eps: Any, S: Any, alpha: Any, gamma: Any, step: Any) -> Any:
    """log delta(eps) within 1e-12 relative where the float form is, else its upper end (never below delta where the
    estimate holds): log_profile_parts's value where its rel_err <= 1e-12, the upper end elsewhere."""
    return _log_profile_capped(eps, S, alpha, gamma, step, 1e-12)[0]


def profile(eps: Any, S: Any, alpha: Any, gamma: Any, step: Any) -> Any:
    """delta(eps) = exp(log_profile): within 1e-12 relative, or an upper end."""
    return xp.exp(_log_profile_capped(eps, S, alpha, gamma, step, 1e-12)[0])
'''


def c_profile(prefix: str) -> str:
    """The C template with ``P_`` the law's ``prefix`` (the printed programs' names)."""
    doc = textwrap.fill(_DOC, 113, initial_indent="/* ", subsequent_indent="   ") + " */\n"
    text = C_PROFILE.replace("double P_log_profile_parts(double eps, double S, double alpha, double gamma, double step, "
                             "double *rel_err)\n", doc + "double P_log_profile_parts(double eps, double S, double alpha, "
                             "double gamma, double step, double *rel_err)\n")
    return text.replace("P_", prefix)


def c_logaddexp(prefix: str) -> str:
    return C_LOGADDEXP.replace("P_", prefix)


def jax_profile() -> str:
    """The JAX template (``(log delta, rel_err)`` by ``log_profile_parts``; ``log_profile``, ``profile``)."""
    doc = textwrap.fill("(log delta, rel_err): " + _DOC + "; where rel_err would exceed max_rel, the upper end with "
                        "rel_err inf (log_profile_parts: no cap; log_profile and profile: 1e-12). Under jit: fixed loop "
                        "lengths (53 doublings, 56 bisection steps); every argument may be traced and broadcast.", 112,
                        initial_indent='    """',
                        subsequent_indent="    ") + '"""\n'
    return JAX_PROFILE + doc + _jax_body()
