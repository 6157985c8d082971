#ifndef FHSYM_H
#define FHSYM_H
/* The flipped Huber distribution FH(alpha, gamma^2) and the privacy profile of its mechanism
 * (Muthukrishnan & Kalyani, "Grafting Laplace and Gaussian distributions").
 *
 * All arguments and results are double.  alpha >= 0 (0: the Gaussian), gamma > 0, both finite with
 * alpha/gamma finite; t may be +-inf; q in [0, 1]; eps >= 0 and sensitivity > 0 finite.
 * Invalid parameters return NaN and set errno = EDOM; valid calls leave errno unchanged.
 * Accuracy against mpmath: see docs/codegen.md (measured by tests/test_codegen_c.py). */

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

/* Special functions of the runtime (C twins of fhsym.symbolic.special's nodes) */
double fhsym_erfcx(double x);                     /* exp(x^2) erfc(x) */
double fhsym_log_ndtr(double x);                  /* log Phi(x) */
double fhsym_ndtri(double p);                     /* Phi^{-1}(p) */
double fhsym_ndtri_exp(double y);                 /* Phi^{-1}(exp(y)), y <= 0 */
double fhsym_exprel(double x);                    /* (exp(x) - 1)/x */
double fhsym_erfinv(double z);                    /* erf^{-1}(z) */
double fhsym_lowergamma3_scaled(double y);        /* lowergamma(3, y)/y^3 */
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
