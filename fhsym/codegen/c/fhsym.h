#ifndef FHSYM_H
#define FHSYM_H
/* The flipped Huber distribution FH(alpha, gamma^2) and the privacy profile of its mechanism
 * (Muthukrishnan & Kalyani, "Grafting Laplace and Gaussian distributions").
 *
 * All arguments and results are double.  alpha >= 0 (0: the Gaussian), gamma > 0, both finite with
 * alpha/gamma finite; t may be +-inf; q in [0, 1]; eps >= 0 and sensitivity > 0 finite.
 * Invalid parameters return NaN and set errno = EDOM; valid calls leave errno unchanged.
 * Accuracy against mpmath: see docs/codegen.md (measured by tests/test_codegen_c.py).
 *
 * Two ways to call it, with the same values bit for bit:
 *   - one call per point with the parameters, fhsym_cdf(t, alpha, gamma): sets the distribution up
 *     (log kappa, the tail mass, the dispatch thresholds) on every call;
 *   - a handle set up once, fhsym_dist d; fhsym_dist_init(&d, alpha, gamma); then fhsym_dist_cdf(&d, t)
 *     per point, or fhsym_dist_cdf_n(&d, n, t, out) for n points (the loops over points). */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

double fhsym_logpdf(double t, double alpha, double gamma);   /* log g(t), eq 8 */
double fhsym_pdf(double t, double alpha, double gamma);      /* g(t), eq 8 */
double fhsym_cdf(double t, double alpha, double gamma);      /* P(T <= t), eq 10 */
double fhsym_sf(double t, double alpha, double gamma);       /* P(T > t) */
double fhsym_logsf(double t, double alpha, double gamma);    /* log P(T > t), finite for finite t */
double fhsym_ppf(double q, double alpha, double gamma);      /* the t with P(T <= t) = q */
double fhsym_variance(double alpha, double gamma);           /* Var T, eq 11 */
/* delta^(1)(eps) of the mechanism adding FH noise to a query of sensitivity Delta (Theorem 3, eq 13) */
double fhsym_privacy_profile(double eps, double alpha, double gamma, double sensitivity);

/* FH(alpha, gamma^2) set up once: read its fields, do not write them (fhsym_dist_init does). */
typedef struct {
    double alpha, gamma;  /* the parameters */
    double b, lw;         /* alpha/gamma and log(kappa/gamma) (standard units) */
    double log_gamma;     /* log(gamma) */
    double p_tail;        /* P(T > alpha) */
    double p_direct;      /* below it, the Gaussian tail's quantile is taken from log p */
    double s_q;           /* the upper quartile in standard units */
    double k[32];         /* the kernels' parameter-only subexpressions (erfcx(b/sqrt 2), exp(-lw), ...) */
    int hoisted;          /* 1: k is set (fhsym_dist_init) */
    int valid;            /* 1 after a successful fhsym_dist_init, else 0 (every call then gives NaN, EDOM) */
} fhsym_dist;

/* Set d up for FH(alpha, gamma^2): 0, or EDOM (and errno = EDOM) for invalid parameters. */
int fhsym_dist_init(fhsym_dist *d, double alpha, double gamma);
double fhsym_dist_logpdf(const fhsym_dist *d, double t);
double fhsym_dist_pdf(const fhsym_dist *d, double t);
double fhsym_dist_cdf(const fhsym_dist *d, double t);
double fhsym_dist_sf(const fhsym_dist *d, double t);
double fhsym_dist_logsf(const fhsym_dist *d, double t);
double fhsym_dist_ppf(const fhsym_dist *d, double q);
double fhsym_dist_variance(const fhsym_dist *d);
double fhsym_dist_privacy_profile(const fhsym_dist *d, double eps, double sensitivity);

/* out[i] = fhsym_dist_<f>(d, x[i]) for i < n (out may be x).  Returns 0, or EDOM (and errno = EDOM)
 * if d or some x[i] is invalid: those out[i] are NaN, the others are computed. */
int fhsym_dist_logpdf_n(const fhsym_dist *d, size_t n, const double *t, double *out);
int fhsym_dist_pdf_n(const fhsym_dist *d, size_t n, const double *t, double *out);
int fhsym_dist_cdf_n(const fhsym_dist *d, size_t n, const double *t, double *out);
int fhsym_dist_sf_n(const fhsym_dist *d, size_t n, const double *t, double *out);
int fhsym_dist_logsf_n(const fhsym_dist *d, size_t n, const double *t, double *out);
int fhsym_dist_ppf_n(const fhsym_dist *d, size_t n, const double *q, double *out);
int fhsym_dist_privacy_profile_n(const fhsym_dist *d, double sensitivity, size_t n, const double *eps, double *out);

/* Special functions of the runtime (C twins of fhsym.symbolic.special's nodes) */
double fhsym_erfcx(double x);                     /* exp(x^2) erfc(x) */
double fhsym_log_ndtr(double x);                  /* log Phi(x) */
double fhsym_ndtri(double p);                     /* Phi^{-1}(p) */
double fhsym_ndtri_exp(double y);                 /* Phi^{-1}(exp(y)), y <= 0 */
double fhsym_exprel(double x);                    /* (exp(x) - 1)/x */
double fhsym_erfinv(double z);                    /* erf^{-1}(z) */
double fhsym_lowergamma3_scaled(double y);        /* lowergamma(3, y)/y^3 */
/* Incomplete gamma (fhsym_special.c).  Tested against 50-digit mpmath by tests/test_declared_special_targets.py for
 * n <= 8 and a from 1/6 to 10 (x up to 7.5e4): relative error 1.5e-15 (lowergamma_scaled), 7.6e-15 (Gamma(a, x)),
 * 3.2e-15 (log Gamma(a, x)); Gamma(0.01, 1) 1.5e-13.  Outside those ranges the accuracy is not measured. */
double fhsym_lowergamma_scaled(int n, double y); /* lowergamma(n + 1, y)/y^(n + 1), 0 <= n <= 100 */
double fhsym_uppergamma(double a, double x);     /* Gamma(a, x), a > 0, x >= 0 */
double fhsym_log_uppergamma(double a, double x); /* log Gamma(a, x) */
double fhsym_log1mexp(double x);                  /* log(1 - exp(-x)), x > 0 */
double fhsym_logaddexp(double x, double y);       /* log(exp(x) + exp(y)) */
double fhsym_erfcx_diff(double y, double k);      /* erfcx(y) - erfcx(y + k), k >= 0 */
double fhsym_gauss_profile(double x, double D);   /* Q(x) - exp(D x + D^2/2) Q(x + D) */
double fhsym_log_gauss_profile(double x, double D);
double fhsym_sub_prod(double e, double x, double y);     /* e - x y, one rounding */
double fhsym_abs_sum_sub(double x, double y, double c);  /* |x + y| - c, x + y error-free */

#ifdef __cplusplus
}
#endif
#endif /* FHSYM_H */
