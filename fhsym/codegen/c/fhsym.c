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

static double fhsym__sf_std(const fhsym__dist *d, double s)
{
    if (s >= 0.0) return fhsym_p_sf_std_nonneg(d->b, s, d->lw, d->s_q);
    return 1.0 - fhsym_p_sf_std_nonneg(d->b, -s, d->lw, d->s_q);
}

double fhsym_logpdf(double t, double alpha, double gamma)
{
    fhsym__dist d;
    int saved = errno;
    double out;
    if (t != t || !fhsym__dist_init(alpha, gamma, 0, &d)) return fhsym__edom();
    out = fhsym_p_logpdf_std(d.b, fabs(t / gamma), d.lw) - log(gamma);
    errno = saved;
    return out;
}

double fhsym_pdf(double t, double alpha, double gamma)
{
    int saved = errno;
    double out = fhsym_logpdf(t, alpha, gamma);
    if (out != out) return out; /* errno = EDOM set by fhsym_logpdf */
    out = exp(out);
    errno = saved;
    return out;
}

double fhsym_sf(double t, double alpha, double gamma)
{
    fhsym__dist d;
    int saved = errno;
    double out;
    if (t != t || !fhsym__dist_init(alpha, gamma, 1, &d)) return fhsym__edom();
    out = fhsym__sf_std(&d, t / gamma);
    errno = saved;
    return out;
}

double fhsym_cdf(double t, double alpha, double gamma)
{
    return fhsym_sf(-t, alpha, gamma);
}

double fhsym_logsf(double t, double alpha, double gamma)
{
    fhsym__dist d;
    int saved = errno;
    double s, out;
    if (t != t || !fhsym__dist_init(alpha, gamma, 1, &d)) return fhsym__edom();
    s = t / gamma;
    if (s >= 0.0) out = fhsym_p_logsf_std_nonneg(d.b, s, d.lw, d.s_q);
    else out = log1p(-fhsym_p_sf_std_nonneg(d.b, -s, d.lw, d.s_q));
    errno = saved;
    return out;
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
    errno = saved;
    return out;
}

double fhsym_variance(double alpha, double gamma)
{
    fhsym__dist d;
    int saved = errno;
    double out;
    if (!fhsym__dist_init(alpha, gamma, 0, &d)) return fhsym__edom();
    if (d.b > 64.0) /* gamma^2 * 2/b^2 = 2 (gamma/b)^2: the Laplace kernel at b/gamma (no intermediate underflow) */
        out = fhsym_k_variance_std_laplace(d.b / gamma);
    else
        out = gamma * gamma * fhsym_p_variance_of_b(d.b, d.lw);
    errno = saved;
    return out;
}

double fhsym_privacy_profile(double eps, double alpha, double gamma, double sensitivity)
{
    fhsym__dist d;
    int saved = errno;
    double D, out;
    if (!(eps >= 0.0) || !isfinite(eps) || !(sensitivity > 0.0) || !isfinite(sensitivity)) return fhsym__edom();
    if (!fhsym__dist_init(alpha, gamma, 0, &d)) return fhsym__edom();
    D = sensitivity / gamma;
    /* the range the profile answers on (as fhsym.privacy.profile): D a normal double with a finite square
       (Table I uses D^2/2), and alpha Delta/gamma^2 = b D finite */
    if (!isfinite(D) || D < 2.2250738585072014e-308 || D > 1e150 || !isfinite(d.b * D)) return fhsym__edom();
    out = exp(fhsym_p_log_profile_std(d.b, D, eps, d.lw));
    errno = saved;
    return out;
}
