/* ---------------------------------------------------------------------------------------------
 * fhsym C library (declared in fhsym.h), one translation unit, libm only:
 *   fhsym_special.c    the hand-written runtime of special functions C99 lacks;
 *   fhsym_kernels.inc  the kernels and region dispatch printed from SymPy by
 *                      `python -m fhsym.codegen --target c` into fhsym/_generated/c/;
 *   below              the hand-written public API: parameter checks, standard units and symmetry
 *                      around the region dispatch, mirroring fhsym/noise/flipped_huber.py and
 *                      fhsym/privacy/profile.py.
 * Build: cc -std=c99 -O2 -I fhsym/_generated/c -c fhsym/codegen/c/fhsym.c (link with -lm); never
 * -ffast-math.  Invalid parameters: NaN with errno = EDOM.  Valid calls leave errno as they found it.
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

/* the distribution in standard units: b = alpha/gamma, lw = log(kappa/gamma), the dispatch thresholds */
typedef struct {
    double gamma, b, lw, p_tail, p_direct, s_q;
} fhsym__dist;

static int fhsym__dist_init(double alpha, double gamma, int quartile, fhsym__dist *d)
{
    if (!(alpha >= 0.0) || !isfinite(alpha) || !(gamma > 0.0) || !isfinite(gamma)) return 0;
    d->gamma = gamma;
    d->b = alpha / gamma;
    if (!isfinite(d->b)) return 0;
    d->lw = fhsym_p_log_kappa_std(d->b);
    d->p_tail = fhsym_p_tail_mass_of_b(d->b, d->lw);
    /* smallest p with p omega/sqrt(2 pi) >= 1e-290: ndtri directly above, from log p below */
    d->p_direct = exp(fhsym__min(-290.0 * log(10.0) - (d->lw + 0.5 * d->b * d->b) + 0.5 * log(2.0 * FHSYM__PI), 0.0));
    d->s_q = quartile ? fhsym_p_isf_std(d->b, 0.25, 0.25, d->lw, d->p_tail, d->p_direct) : NAN;
    return 1;
}

/* the pointwise functions of s = t/gamma in standard units (s_q set for the survival functions) */
static double fhsym__logpdf_std(const fhsym__dist *d, double s)
{
    return fhsym_p_logpdf_std(d->b, fabs(s), d->lw) - log(d->gamma);
}

static double fhsym__sf_std(const fhsym__dist *d, double s)
{
    if (s >= 0.0) return fhsym_p_sf_std_nonneg(d->b, s, d->lw, d->s_q);
    return 1.0 - fhsym_p_sf_std_nonneg(d->b, -s, d->lw, d->s_q);
}

static double fhsym__logsf_std(const fhsym__dist *d, double s)
{
    if (s >= 0.0) return fhsym_p_logsf_std_nonneg(d->b, s, d->lw, d->s_q);
    return log1p(-fhsym_p_sf_std_nonneg(d->b, -s, d->lw, d->s_q));
}

/* f(t/gamma) of FH(alpha, gamma^2), f one of the above: the checks of (t, alpha, gamma), standard units */
static double fhsym__pointwise(double (*f)(const fhsym__dist *, double), int quartile, double t, double alpha, double gamma)
{
    fhsym__dist d;
    int saved = errno;
    if (t != t || !fhsym__dist_init(alpha, gamma, quartile, &d)) return fhsym__edom();
    return fhsym__valid(saved, f(&d, t / gamma));
}

double fhsym_logpdf(double t, double alpha, double gamma)
{
    return fhsym__pointwise(fhsym__logpdf_std, 0, t, alpha, gamma);
}

double fhsym_pdf(double t, double alpha, double gamma)
{
    int saved = errno;
    double out = fhsym_logpdf(t, alpha, gamma);
    if (out != out) return out; /* errno = EDOM set by fhsym_logpdf */
    return fhsym__valid(saved, exp(out));
}

double fhsym_sf(double t, double alpha, double gamma)
{
    return fhsym__pointwise(fhsym__sf_std, 1, t, alpha, gamma);
}

double fhsym_cdf(double t, double alpha, double gamma)
{
    return fhsym_sf(-t, alpha, gamma);
}

double fhsym_logsf(double t, double alpha, double gamma)
{
    return fhsym__pointwise(fhsym__logsf_std, 1, t, alpha, gamma);
}

double fhsym_ppf(double q, double alpha, double gamma)
{
    fhsym__dist d;
    int saved = errno;
    double out;
    if (q != q || q < 0.0 || q > 1.0 || !fhsym__dist_init(alpha, gamma, 0, &d)) return fhsym__edom();
    if (q == 0.0) out = -HUGE_VAL;
    else if (q == 1.0) out = HUGE_VAL;
    else if (q <= 0.5) /* p = q, h = 1/2 - q (exact for q >= 1/4) */
        out = -gamma * fhsym_p_isf_std(d.b, q, 0.5 - q, d.lw, d.p_tail, d.p_direct) + 0.0;
    else /* p = 1 - q and h = q - 1/2, both exact */
        out = gamma * fhsym_p_isf_std(d.b, 1.0 - q, q - 0.5, d.lw, d.p_tail, d.p_direct);
    return fhsym__valid(saved, out);
}

double fhsym_variance(double alpha, double gamma)
{
    fhsym__dist d;
    int saved = errno;
    if (!fhsym__dist_init(alpha, gamma, 0, &d)) return fhsym__edom();
    if (d.b > 64.0) /* gamma^2 * 2/b^2 = 2 (gamma/b)^2: the Laplace kernel at b/gamma (no intermediate underflow) */
        return fhsym__valid(saved, fhsym_k_variance_std_laplace(d.b / gamma));
    return fhsym__valid(saved, gamma * gamma * fhsym_p_variance_of_b(d.b, d.lw));
}

double fhsym_privacy_profile(double eps, double alpha, double gamma, double sensitivity)
{
    fhsym__dist d;
    int saved = errno;
    double D;
    if (!(eps >= 0.0) || !isfinite(eps) || !(sensitivity > 0.0) || !isfinite(sensitivity)) return fhsym__edom();
    if (!fhsym__dist_init(alpha, gamma, 0, &d)) return fhsym__edom();
    D = sensitivity / gamma;
    /* the range the profile answers on (as fhsym.privacy.profile): D a normal double with a finite square
       (Table I uses D^2/2), and alpha Delta/gamma^2 = b D finite */
    if (!isfinite(D) || D < 2.2250738585072014e-308 || D > 1e150 || !isfinite(d.b * D)) return fhsym__edom();
    return fhsym__valid(saved, exp(fhsym_p_log_profile_std(d.b, D, eps, d.lw)));
}
