/* ---------------------------------------------------------------------------------------------
 * fhsym C library (declared in fhsym.h), one translation unit, libm only:
 *   fhsym_special.c    the hand-written runtime of special functions C99 lacks;
 *   fhsym_kernels.inc  the kernels and region dispatch printed from SymPy by
 *                      `python -m fhsym.codegen --target c`;
 *   below              the hand-written public API: parameter checks, standard units and symmetry
 *                      around the region dispatch, mirroring fhsym/noise/flipped_huber.py and
 *                      fhsym/privacy/profile.py.
 * `python -m fhsym.codegen --target c --out DIR` writes all four files into DIR; then
 * cc -std=c99 -O2 -c DIR/fhsym.c (link with -lm); never -ffast-math.
 * Invalid parameters: NaN with errno = EDOM.  Valid calls leave errno as they found it.
 * ------------------------------------------------------------------------------------------- */

#include "fhsym.h"

#include <errno.h>
#include <math.h>

#include "fhsym_special.c"

#include "fhsym_kernels.inc"

static double fhsym__edom(void)
{
    errno = EDOM;
    return NAN;
}

/* the result of a valid call, with errno back to what the caller had (libm may set ERANGE on the way) */
static double fhsym__valid(int saved_errno, double out)
{
    errno = saved_errno;
    return out;
}

/* ---------------------------------------------------------------------------------------------
 * The set-up, once per distribution: standard units b = alpha/gamma, lw = log(kappa/gamma), the tail
 * mass, the dispatch thresholds and (FHSYM__ALL) the upper quartile s_q and the kernels' parameter-only
 * subexpressions (fhsym_s_<fn> of fhsym_kernels.inc) in d->k; the one-call API sets up only what its
 * function needs (FHSYM__QUARTILE for the survival functions).
 * ------------------------------------------------------------------------------------------- */
#define FHSYM__QUARTILE 1
#define FHSYM__ALL 3
/* where each function's parameter-only subexpressions are in d->k */
#define FHSYM__K_SF 0
#define FHSYM__K_LOGSF (FHSYM__K_SF + FHSYM__NC_SF_STD_NONNEG)
#define FHSYM__K_ISF (FHSYM__K_LOGSF + FHSYM__NC_LOGSF_STD_NONNEG)
/* compile-time check that they fit (a negative array size otherwise) */
typedef char fhsym__k_fits[(FHSYM__K_ISF + FHSYM__NC_ISF_STD <= sizeof(((fhsym_dist *)0)->k) / sizeof(double)) ? 1 : -1];

static int fhsym__dist_setup(fhsym_dist *d, double alpha, double gamma, int what)
{
    size_t i;
    d->alpha = alpha;
    d->gamma = gamma;
    d->b = d->lw = d->log_gamma = d->p_tail = d->p_direct = d->s_q = NAN;
    for (i = 0; i < sizeof(d->k) / sizeof(double); i++) d->k[i] = NAN;
    d->hoisted = d->valid = 0;
    if (!(alpha >= 0.0) || !isfinite(alpha) || !(gamma > 0.0) || !isfinite(gamma) || !isfinite(alpha / gamma)) return 0;
    d->b = alpha / gamma;
    d->log_gamma = log(gamma);
    d->lw = fhsym_p_log_kappa_std(d->b);
    d->p_tail = fhsym_p_tail_mass_of_b(d->b, d->lw);
    /* smallest p with p omega/sqrt(2 pi) >= 1e-290: ndtri directly above, from log p below */
    d->p_direct = exp(fhsym__min(-290.0 * log(10.0) - (d->lw + 0.5 * d->b * d->b) + 0.5 * log(2.0 * FHSYM__PI), 0.0));
    if (what & FHSYM__QUARTILE) d->s_q = fhsym_p_isf_std(d->b, 0.25, 0.25, d->lw, d->p_tail, d->p_direct);
    if (what == FHSYM__ALL) {
        fhsym_s_sf_std_nonneg(d->b, d->lw, d->k + FHSYM__K_SF);
        fhsym_s_logsf_std_nonneg(d->b, d->lw, d->k + FHSYM__K_LOGSF);
        fhsym_s_isf_std(d->b, d->lw, d->k + FHSYM__K_ISF);
        d->hoisted = 1;
    }
    d->valid = 1;
    return 1;
}

int fhsym_dist_init(fhsym_dist *d, double alpha, double gamma)
{
    int saved = errno;
    if (!fhsym__dist_setup(d, alpha, gamma, FHSYM__ALL)) {
        errno = EDOM;
        return EDOM;
    }
    errno = saved;
    return 0;
}

/* the region dispatch of the survival functions and the quantile: from d->k where it is set (the same values) */
static double fhsym__sf_std(const fhsym_dist *d, double s)
{
    if (d->hoisted) return fhsym_h_sf_std_nonneg(d->k + FHSYM__K_SF, d->b, s, d->lw, d->s_q);
    return fhsym_p_sf_std_nonneg(d->b, s, d->lw, d->s_q);
}

static double fhsym__logsf_std(const fhsym_dist *d, double s)
{
    if (d->hoisted) return fhsym_h_logsf_std_nonneg(d->k + FHSYM__K_LOGSF, d->b, s, d->lw, d->s_q);
    return fhsym_p_logsf_std_nonneg(d->b, s, d->lw, d->s_q);
}

static double fhsym__isf_std(const fhsym_dist *d, double p, double h)
{
    if (d->hoisted) return fhsym_h_isf_std(d->k + FHSYM__K_ISF, d->b, p, h, d->lw, d->p_tail, d->p_direct);
    return fhsym_p_isf_std(d->b, p, h, d->lw, d->p_tail, d->p_direct);
}

/* ---------------------------------------------------------------------------------------------
 * Each function at one valid point of a valid distribution (no checks, errno untouched by us)
 * ------------------------------------------------------------------------------------------- */
static double fhsym__logpdf_at(const fhsym_dist *d, double t)
{
    return fhsym_p_logpdf_std(d->b, fabs(t / d->gamma), d->lw) - d->log_gamma;
}

static double fhsym__pdf_at(const fhsym_dist *d, double t)
{
    return exp(fhsym__logpdf_at(d, t));
}

static double fhsym__sf_at(const fhsym_dist *d, double t)
{
    double s = t / d->gamma;
    if (s >= 0.0) return fhsym__sf_std(d, s);
    return 1.0 - fhsym__sf_std(d, -s);
}

static double fhsym__cdf_at(const fhsym_dist *d, double t)
{
    return fhsym__sf_at(d, -t);
}

static double fhsym__logsf_at(const fhsym_dist *d, double t)
{
    double s = t / d->gamma;
    if (s >= 0.0) return fhsym__logsf_std(d, s);
    return log1p(-fhsym__sf_std(d, -s));
}

static double fhsym__ppf_at(const fhsym_dist *d, double q)
{
    if (q == 0.0) return -HUGE_VAL;
    if (q == 1.0) return HUGE_VAL;
    if (q <= 0.5) /* p = q, h = 1/2 - q (exact for q >= 1/4) */
        return -d->gamma * fhsym__isf_std(d, q, 0.5 - q) + 0.0;
    /* p = 1 - q and h = q - 1/2, both exact */
    return d->gamma * fhsym__isf_std(d, 1.0 - q, q - 0.5);
}

/* the profile at eps of a valid distribution with D = sensitivity/gamma valid (c: fhsym_s_log_profile_std's
   subexpressions of (b, D, lw), or NULL) */
static double fhsym__profile_at(const fhsym_dist *d, const double *c, double D, double eps)
{
    if (c) return exp(fhsym_h_log_profile_std(c, d->b, D, eps, d->lw));
    return exp(fhsym_p_log_profile_std(d->b, D, eps, d->lw));
}

/* which points are valid */
static int fhsym__ok_t(double t) { return t == t; }
static int fhsym__ok_q(double q) { return q >= 0.0 && q <= 1.0; }
static int fhsym__ok_eps(double eps) { return eps >= 0.0 && isfinite(eps); }

/* D = sensitivity/gamma, NaN outside the range the profile answers on (as fhsym.privacy.profile): D a
   normal double with a finite square (Table I uses D^2/2), and alpha Delta/gamma^2 = b D finite */
static double fhsym__profile_D(const fhsym_dist *d, double sensitivity)
{
    double D;
    if (!d->valid || !(sensitivity > 0.0) || !isfinite(sensitivity)) return NAN;
    D = sensitivity / d->gamma;
    if (!isfinite(D) || D < 2.2250738585072014e-308 || D > 1e150 || !isfinite(d->b * D)) return NAN;
    return D;
}

/* ---------------------------------------------------------------------------------------------
 * The handle API: one point (checked), and n points in a loop
 * ------------------------------------------------------------------------------------------- */
#define FHSYM__POINT(name, at, ok)                                                                  \
    double fhsym_dist_##name(const fhsym_dist *d, double x)                                         \
    {                                                                                               \
        int saved = errno;                                                                          \
        if (!d->valid || !ok(x)) return fhsym__edom();                                              \
        return fhsym__valid(saved, at(d, x));                                                       \
    }                                                                                               \
    int fhsym_dist_##name##_n(const fhsym_dist *d, size_t n, const double *x, double *out)          \
    {                                                                                               \
        int saved = errno, bad = 0;                                                                 \
        size_t i;                                                                                   \
        for (i = 0; i < n; i++) {                                                                   \
            if (d->valid && ok(x[i])) {                                                             \
                out[i] = at(d, x[i]);                                                               \
            } else {                                                                                \
                out[i] = NAN;                                                                       \
                bad = 1;                                                                            \
            }                                                                                       \
        }                                                                                           \
        errno = bad ? EDOM : saved;                                                                 \
        return bad ? EDOM : 0;                                                                      \
    }

FHSYM__POINT(logpdf, fhsym__logpdf_at, fhsym__ok_t)
FHSYM__POINT(pdf, fhsym__pdf_at, fhsym__ok_t)
FHSYM__POINT(sf, fhsym__sf_at, fhsym__ok_t)
FHSYM__POINT(cdf, fhsym__cdf_at, fhsym__ok_t)
FHSYM__POINT(logsf, fhsym__logsf_at, fhsym__ok_t)
FHSYM__POINT(ppf, fhsym__ppf_at, fhsym__ok_q)

double fhsym_dist_variance(const fhsym_dist *d)
{
    int saved = errno;
    if (!d->valid) return fhsym__edom();
    if (d->b > 64.0) /* gamma^2 * 2/b^2 = 2 (gamma/b)^2: the Laplace kernel at b/gamma (no intermediate underflow) */
        return fhsym__valid(saved, fhsym_k_variance_std_laplace(d->b / d->gamma));
    return fhsym__valid(saved, d->gamma * d->gamma * fhsym_p_variance_of_b(d->b, d->lw));
}

double fhsym_dist_privacy_profile(const fhsym_dist *d, double eps, double sensitivity)
{
    int saved = errno;
    double D = fhsym__profile_D(d, sensitivity);
    if (D != D || !fhsym__ok_eps(eps)) return fhsym__edom();
    return fhsym__valid(saved, fhsym__profile_at(d, NULL, D, eps));
}

int fhsym_dist_privacy_profile_n(const fhsym_dist *d, double sensitivity, size_t n, const double *eps, double *out)
{
    int saved = errno, bad = 0;
    double D = fhsym__profile_D(d, sensitivity), c[FHSYM__NC_LOG_PROFILE_STD];
    size_t i;
    if (D != D) {
        for (i = 0; i < n; i++) out[i] = NAN;
        errno = EDOM;
        return EDOM;
    }
    fhsym_s_log_profile_std(d->b, D, d->lw, c); /* once for the n points */
    for (i = 0; i < n; i++) {
        if (fhsym__ok_eps(eps[i])) {
            out[i] = fhsym__profile_at(d, c, D, eps[i]);
        } else {
            out[i] = NAN;
            bad = 1;
        }
    }
    errno = bad ? EDOM : saved;
    return bad ? EDOM : 0;
}

/* ---------------------------------------------------------------------------------------------
 * The one-call API: the set-up, then the handle's function (the upper quartile only where needed;
 * errno restored after the set-up, whose libm calls may set ERANGE)
 * ------------------------------------------------------------------------------------------- */
#define FHSYM__ONE_CALL(name, quartile)                                                             \
    double fhsym_##name(double x, double alpha, double gamma)                                       \
    {                                                                                               \
        fhsym_dist d;                                                                               \
        int saved = errno;                                                                          \
        fhsym__dist_setup(&d, alpha, gamma, quartile);                                              \
        errno = saved;                                                                              \
        return fhsym_dist_##name(&d, x);                                                            \
    }

FHSYM__ONE_CALL(logpdf, 0)
FHSYM__ONE_CALL(pdf, 0)
FHSYM__ONE_CALL(sf, FHSYM__QUARTILE)
FHSYM__ONE_CALL(cdf, FHSYM__QUARTILE)
FHSYM__ONE_CALL(logsf, FHSYM__QUARTILE)
FHSYM__ONE_CALL(ppf, 0)

double fhsym_variance(double alpha, double gamma)
{
    fhsym_dist d;
    int saved = errno;
    fhsym__dist_setup(&d, alpha, gamma, 0);
    errno = saved;
    return fhsym_dist_variance(&d);
}

double fhsym_privacy_profile(double eps, double alpha, double gamma, double sensitivity)
{
    fhsym_dist d;
    int saved = errno;
    fhsym__dist_setup(&d, alpha, gamma, 0);
    errno = saved;
    return fhsym_dist_privacy_profile(&d, eps, sensitivity);
}
