/* ---------------------------------------------------------------------------------------------
 * fhsym C runtime: the special functions the generated kernels call that C99's libm lacks.
 * Hand-written; not a translation unit of its own: fhsym.c includes it ahead of the generated
 * kernels (fhsym/_generated/c/fhsym_kernels.inc).  Each is the C twin of a SymPy node of
 * fhsym.symbolic.special (numpy twins: scipy.special and fhsym/_core/numerics.py); accuracy against
 * mpmath is measured by tests/test_codegen_c.py and reported in docs/codegen.md.
 *
 * Requirements: C99 and libm (erf, erfc, expm1, log1p, fma).  Compile without value-changing
 * optimisations (no -ffast-math; ISO mode, e.g. -std=c99, keeps -ffp-contract=off): the
 * error-free transformations below rely on IEEE rounding of every operation.
 * ------------------------------------------------------------------------------------------- */

static const double FHSYM__PI = 3.141592653589793;
static const double FHSYM__SQRT_PI = 1.7724538509055159;   /* sqrt(pi) */
static const double FHSYM__SQRT_2PI = 2.5066282746310002;  /* sqrt(2 pi) */
static const double FHSYM__SQRT1_2 = 0.7071067811865476;   /* 1/sqrt(2) */
static const double FHSYM__LN2 = 0.6931471805599453;

/* min/max that propagate NaN (C's fmin/fmax return the other argument) */
static double fhsym__min(double a, double b) { return (a != a || b != b) ? NAN : (a < b ? a : b); }
static double fhsym__max(double a, double b) { return (a != a || b != b) ? NAN : (a > b ? a : b); }

/* exp(-(x*x)/2) with x*x = hi + lo exactly (fma): no loss from rounding x*x for large |x| */
static double fhsym__exp_mhalf_sq(double x)
{
    double hi = x * x;
    double lo = fma(x, x, -hi);
    return exp(-0.5 * hi) * (1.0 - 0.5 * lo);
}

/* erfcx(x) = exp(x^2) erfc(x).  x < 25: exp(x^2) with x^2 = hi + lo exactly, times libm erfc; x >= 25:
 * the Laplace continued fraction erfc(x) = exp(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))),
 * evaluated backwards with 40 terms (converged to < 1e-17 relative for x >= 25).  Overflows (HUGE_VAL) for
 * x < -26.6 as the true value does. */
double fhsym_erfcx(double x)
{
    if (x != x) return x;
    if (x < 25.0) {
        double hi, lo, e;
        if (x < -26.7) return HUGE_VAL;
        hi = x * x;
        lo = fma(x, x, -hi);
        e = exp(hi) * (1.0 + lo);
        if (x >= 0.0) return e * erfc(x);
        return 2.0 * e - fhsym_erfcx(-x);
    }
    if (x == HUGE_VAL) return 0.0;
    {
        double t = x;
        int k;
        for (k = 40; k >= 1; --k) t = x + 0.5 * k / t;
        return 1.0 / (FHSYM__SQRT_PI * t);
    }
}

/* log Phi(x), the log of the standard normal CDF, relative accuracy for every x.
 * x < -1: log(erfcx(-x/sqrt2)/2) - x^2/2 (two negative terms; x^2/2 from the exact square);
 * -1 <= x < 1: log(erfc(-x/sqrt2)/2);  x >= 1: log1p(-exp(-x^2/2) erfcx(x/sqrt2)/2). */
double fhsym_log_ndtr(double x)
{
    if (x != x) return x;
    if (x < -1.0) {
        double hi = x * x;
        double lo = fma(x, x, -hi);
        if (x == -HUGE_VAL) return -HUGE_VAL;
        return (log(0.5 * fhsym_erfcx(-x * FHSYM__SQRT1_2)) - 0.5 * lo) - 0.5 * hi;
    }
    if (x < 1.0) return log(0.5 * erfc(-x * FHSYM__SQRT1_2));
    if (x == HUGE_VAL) return 0.0;
    return log1p(-0.5 * fhsym__exp_mhalf_sq(x) * fhsym_erfcx(x * FHSYM__SQRT1_2));
}

/* Phi(x) - p for the Halley refinement of ndtri below p = 1e-300 (from erfc, relatively accurate there) */
static double fhsym__ndtr_minus(double x, double p)
{
    return 0.5 * erfc(-x * FHSYM__SQRT1_2) - p;
}

/* Wichura's algorithm AS 241 (PPND16; Appl. Statist. 37 (1988) 477-484): Phi^{-1}(p) to about 1e-16
 * relative, one rational function, no iteration.  Central part, |q| <= 0.425 with q = p - 1/2 (q times a
 * rational function of q^2: relative accuracy as q -> 0 for exact q); tail part, p < 0.075 (r = sqrt(-log p)
 * in [1.6, 27]: down to p = exp(-729), 2.5e-317), negative. */
static double fhsym__ppnd16_central(double q)
{
    double r = 0.180625 - q * q;
    return q * (((((((r * 2509.0809287301226727 + 33430.575583588128105) * r + 67265.770927008700853) * r +
                    45921.953931549871457) * r + 13731.693765509461125) * r + 1971.5909503065514427) * r +
                 133.14166789178437745) * r + 3.387132872796366608) /
           (((((((r * 5226.495278852545925 + 28729.085735721942674) * r + 39307.89580009271061) * r +
                21213.794301586595867) * r + 5394.1960214247511077) * r + 687.1870074920579083) * r +
             42.313330701600911252) * r + 1.0);
}

static double fhsym__ppnd16_tail(double p)
{
    double r = sqrt(-log(p)), x;
    if (r <= 5.0) {
        r -= 1.6;
        x = (((((((r * 7.7454501427834140764e-4 + 0.0227238449892691845833) * r + 0.24178072517745061177) * r +
                 1.27045825245236838258) * r + 3.64784832476320460504) * r + 5.7694972214606914055) * r +
              4.6303378461565452959) * r + 1.42343711074968357734) /
            (((((((r * 1.05075007164441684324e-9 + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r +
                 0.14810397642748007459) * r + 0.68976733498510000455) * r + 1.6763848301838038494) * r +
              2.05319162663775882187) * r + 1.0);
    } else {
        r -= 5.0;
        x = (((((((r * 2.01033439929228813265e-7 + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r +
                 0.026532189526576123093) * r + 0.29656057182850489123) * r + 1.7848265399172913358) * r +
              5.4637849111641143699) * r + 6.6579046435011037772) /
            (((((((r * 2.04426310338993978564e-15 + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r +
                 7.868691311456132591e-4) * r + 0.0148753612908506148525) * r + 0.13692988092273580531) * r +
              0.59983220655588793769) * r + 1.0);
    }
    return -x;
}

/* Phi^{-1}(p).  p >= 1e-300: AS 241 (above).  Below, Acklam's rational approximation (relative error
 * < 1.2e-9), then Halley steps on Phi(x) - p (erfc) until the step is below 1e-16 |x|. */
double fhsym_ndtri(double p)
{
    static const double c[6] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
    static const double d[4] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                3.754408661907416e+00};
    double x, q;
    int i;
    if (p != p || p < 0.0 || p > 1.0) return NAN;
    if (p == 0.0) return -HUGE_VAL;
    if (p == 1.0) return HUGE_VAL;
    if (p > 0.5) return -fhsym_ndtri(1.0 - p); /* 1 - p is exact for p in [1/2, 1] */
    if (p >= 0.075) return fhsym__ppnd16_central(p - 0.5);
    if (p >= 1e-300) return fhsym__ppnd16_tail(p);
    q = sqrt(-2.0 * log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    for (i = 0; i < 4; ++i) {
        /* u = (Phi(x) - p)/phi(x); Halley: x -= u/(1 + x u/2) */
        double u = fhsym__ndtr_minus(x, p) * FHSYM__SQRT_2PI / fhsym__exp_mhalf_sq(x);
        double step = u / (1.0 + 0.5 * x * u);
        x -= step;
        if (fabs(step) <= 1e-16 * fabs(x)) break;
    }
    return x;
}

/* Phi^{-1}(exp(y)) for y <= 0.  y > -log 2: -ndtri(-expm1(y)) (1 - p exactly); y > -700: ndtri(exp(y))
 * (the rounding of exp(y) moves x by < eps/x^2 relative); below, Newton on log_ndtr(x) = y from the
 * asymptotic start -sqrt(-2y - log(-4 pi y)). */
double fhsym_ndtri_exp(double y)
{
    double x;
    int i;
    if (y != y || y > 0.0) return NAN;
    if (y == 0.0) return HUGE_VAL;
    if (y > -FHSYM__LN2) return -fhsym_ndtri(-expm1(y));
    if (y > -700.0) return fhsym_ndtri(exp(y));
    if (y == -HUGE_VAL) return -HUGE_VAL;
    x = -sqrt(-2.0 * y - log(-4.0 * FHSYM__PI * y));
    for (i = 0; i < 60; ++i) {
        double ln = fhsym_log_ndtr(x);
        /* d log Phi/dx = phi(x)/Phi(x) = exp(log phi - log Phi) */
        double slope = exp(-0.5 * x * x - 0.5 * log(2.0 * FHSYM__PI) - ln);
        double step = (ln - y) / slope;
        x -= step;
        if (fabs(step) <= 4e-16 * fabs(x)) break;
    }
    return x;
}

/* (exp(x) - 1)/x, 1 at x = 0 */
double fhsym_exprel(double x)
{
    if (x == 0.0) return 1.0;
    if (x == -HUGE_VAL) return 0.0;
    return expm1(x) / x;
}

/* erf^{-1}(z) for -1 <= z <= 1: erf^{-1}(z) = Phi^{-1}((1 + z)/2)/sqrt2.  |z| <= 0.85: AS 241's central part at
 * q = z/2 (exact; relative accuracy as z -> 0); |z| > 0.85: its tail part at (1 - |z|)/2 (exact). */
double fhsym_erfinv(double z)
{
    double az = fabs(z), x;
    if (z != z || az > 1.0) return NAN;
    if (az == 1.0) return z > 0 ? HUGE_VAL : -HUGE_VAL;
    if (z == 0.0) return z;
    if (az <= 0.85) x = fhsym__ppnd16_central(0.5 * az) * FHSYM__SQRT1_2;
    else x = -fhsym__ppnd16_tail(0.5 * (1.0 - az)) * FHSYM__SQRT1_2;
    return z > 0 ? x : -x;
}

/* lowergamma(3, y)/y^3 = int_0^1 u^2 exp(-y u) du for y >= 0 (1/3 at 0).  y <= 30: the positive series
 * exp(-y) sum_k y^k/(3 4 ... (3 + k)); above: 2 (1 - exp(-y)(1 + y + y^2/2))/y^3 (cancellation < 1e-10). */
double fhsym_lowergamma3_scaled(double y)
{
    if (y != y || y < 0.0) return NAN;
    if (y <= 30.0) {
        double term = 1.0 / 3.0, sum = term;
        int k;
        for (k = 1; k < 200; ++k) {
            term *= y / (3.0 + k);
            sum += term;
            if (term <= 1e-17 * sum) break;
        }
        return exp(-y) * sum;
    }
    return 2.0 * (1.0 - exp(-y) * (1.0 + y + 0.5 * y * y)) / (y * y * y);
}

/* lowergamma(n + 1, y)/y^(n + 1) = int_0^1 u^n exp(-y u) du for an integer 0 <= n <= 100 and y >= 0 (1/(n + 1) at 0).
 * y <= 30 + 2n: the positive series exp(-y) sum_k y^k/((n + 1) ... (n + 1 + k)); above: n! (1 - exp(-y) e_n(y))/y^(n + 1),
 * e_n the exponential sum to y^n/n! (exp(-y) e_n(y) < 1e-6 there: no cancellation).  (The C twin of
 * fhsym._core.numerics.lowergamma_scaled, which the derivation's bounded integrals call.) */
double fhsym_lowergamma_scaled(int n, double y)
{
    double e, s = 1.0, t = 1.0, r;
    int k;
    if (y != y || y < 0.0 || n < 0 || n > 100) return NAN;
    if (y <= 30.0 + 2.0 * n) {
        double term = 1.0 / (n + 1.0), sum = term;
        for (k = 1; k < 500; ++k) {
            term *= y / (n + 1.0 + k);
            sum += term;
            if (term <= 1e-17 * sum) break;
        }
        return exp(-y) * sum;
    }
    r = 1.0 / y;
    for (k = 1; k <= n; ++k) r *= k / y;  /* n!/y^(n + 1) */
    e = exp(-y);
    if (e == 0.0) return r;               /* y > 745: exp(-y) e_n(y) < 1e-300 relative */
    for (k = 1; k <= n; ++k) {
        t *= y / k;
        s += t;
    }
    return r * (1.0 - e * s);
}

/* The incomplete gamma function Gamma(a, x), a > 0, x >= 0, in two forms (Numerical Recipes' split at x = a + 1):
 * x < a + 1, the lower function's positive series: gamma(a, x) = exp(-x) x^a sum_k x^k/(a (a + 1) ... (a + k));
 * x >= a + 1, Legendre's continued fraction Gamma(a, x) = exp(-x) x^a / (x + 1 - a - 1 (1 - a)/(x + 3 - a - ...)),
 * by the modified Lentz method.  Each to a relative 1e-17 of its sum, at most 500 terms. */
static double fhsym__gamma_series(double a, double x)
{
    double term = 1.0 / a, sum = term;
    int k;
    for (k = 1; k < 500; ++k) {
        term *= x / (a + k);
        sum += term;
        if (term <= 1e-17 * sum) break;
    }
    return sum;
}

static double fhsym__gamma_cf(double a, double x)  /* 1/(x + 1 - a - 1 (1 - a)/(x + 3 - a - ...)) */
{
    const double tiny = 1e-300;
    double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d, an, del;
    int k;
    for (k = 1; k < 500; ++k) {
        an = -k * (k - a);
        b += 2.0;
        d = an * d + b;
        if (fabs(d) < tiny) d = tiny;
        c = b + an / c;
        if (fabs(c) < tiny) c = tiny;
        d = 1.0 / d;
        del = d * c;
        h *= del;
        if (fabs(del - 1.0) <= 1e-17) break;
    }
    return h;
}

/* exp(-x) x^a as (exp(-x/2) x^a) exp(-x/2) (each factor to an ulp: no underflow of exp(-x) alone where the product
 * is a normal number), else exp(a log x - x) */
static double fhsym__gamma_front(double a, double x)
{
    double e = exp(-0.5 * x), v = (e * pow(x, a)) * e;
    return (v > 1e-300 && v < 1e300) ? v : exp(a * log(x) - x);
}

/* Gamma(a, x) for a > 0, x >= 0 */
double fhsym_uppergamma(double a, double x)
{
    if (a != a || x != x || !(a > 0.0) || x < 0.0) return NAN;
    if (x == 0.0) return tgamma(a);
    if (isinf(x)) return 0.0;
    if (x < a + 1.0) return tgamma(a) - fhsym__gamma_front(a, x) * fhsym__gamma_series(a, x);
    return fhsym__gamma_front(a, x) * fhsym__gamma_cf(a, x);
}

/* log Gamma(a, x) for a > 0, x >= 0: lgamma(a) + log1p(-P(a, x)) below a + 1 (P the regularised lower function, by
 * the series), -x + a log x + log(continued fraction) above (no underflow far out) */
double fhsym_log_uppergamma(double a, double x)
{
    if (a != a || x != x || !(a > 0.0) || x < 0.0) return NAN;
    if (x == 0.0) return lgamma(a);
    if (isinf(x)) return -HUGE_VAL;
    if (x < a + 1.0) return lgamma(a) + log1p(-exp(a * log(x) - x - lgamma(a)) * fhsym__gamma_series(a, x));
    return a * log(x) - x + log(fhsym__gamma_cf(a, x));
}

/* log(1 - exp(-x)) for x > 0 (Maechler 2012) */
double fhsym_log1mexp(double x)
{
    if (x != x || x < 0.0) return NAN;
    return x <= FHSYM__LN2 ? log(-expm1(-x)) : log1p(-exp(-x));
}

/* log(exp(x) + exp(y)) */
double fhsym_logaddexp(double x, double y)
{
    double m;
    if (x != x || y != y) return NAN;
    m = x > y ? x : y;
    if (m == -HUGE_VAL || m == HUGE_VAL) return m;
    return m + log1p(exp(-fabs(x - y)));
}

/* e - x y with one rounding (fma) */
double fhsym_sub_prod(double e, double x, double y) { return fma(-x, y, e); }

/* |x + y| - c with x + y taken error-free (Knuth's TwoSum) */
double fhsym_abs_sum_sub(double x, double y, double c)
{
    double h = x + y;
    double bb = h - x;
    double l = (x - (h - bb)) + (y - bb);
    if (!isfinite(l)) return fabs(x + y) - c;
    return (fabs(h) - c) + (h < 0 ? -l : l);
}

/* erfcx(y) - erfcx(y + k), k >= 0, without cancellation (the C twin of fhsym._numerics.erfcx_diff):
 * y >= 7: the asymptotic series differenced term by term with c_{2m+1} = 1 - q^{2m+1}, q = y/(y + k), by
 * the positive recurrence c_{n+2} = (1 - q^2) + q^2 c_n (terms by band of y, remainder < 1e-18);
 * y < 7, k max(1, -y) >= 1/2: the direct difference; otherwise 8-point Gauss-Legendre of
 * -erfcx'(t) = 2/sqrt(pi) - 2 t erfcx(t) over [y, y + k]. */
double fhsym_erfcx_diff(double y, double k)
{
    static const double gl_x[8] = {-0.9602898564975362, -0.7966664774136267, -0.525532409916329,
                                   -0.18343464249564978, 0.18343464249564978, 0.525532409916329,
                                   0.7966664774136267, 0.9602898564975362};
    static const double gl_w[8] = {0.10122853629037706, 0.22238103445337443, 0.3137066458778869,
                                   0.36268378337836166, 0.36268378337836166, 0.3137066458778869,
                                   0.22238103445337443, 0.10122853629037706};
    if (y != y || k != k) return NAN;
    if (y == INFINITY) return 0.0; /* erfcx(inf) = erfcx(inf + k) = 0 */
    if (y >= 7.0) {
        int terms, m;
        double inv = 1.0 / y, inv2 = inv * inv, s = y + k, q, c, q2, dd, acc = 0.0, pw = inv, coef;
        if (y < 10.0) terms = 40;
        else if (y < 14.0) terms = 18;
        else if (y < 20.0) terms = 13;
        else if (y < 30.0) terms = 11;
        else if (y < 50.0) terms = 9;
        else if (y < 100.0) terms = 8;
        else if (y < 1e3) terms = 7;
        else terms = 5;
        q = y / s;
        c = (k == HUGE_VAL) ? 1.0 : k / s;
        q2 = q * q;
        dd = c * (1.0 + q);
        coef = 1.0 / FHSYM__SQRT_PI;
        for (m = 0; m < terms; ++m) {
            acc += coef * pw * c;
            pw *= inv2;
            c = dd + q2 * c;
            coef *= -(2.0 * m + 1.0) / 2.0;
        }
        return acc;
    }
    if (k * (y < -1.0 ? -y : 1.0) >= 0.5) return fhsym_erfcx(y) - fhsym_erfcx(y + k);
    {
        double half = 0.5 * k, mid = y + half, tot = 0.0;
        int i;
        for (i = 0; i < 8; ++i) {
            double t = mid + half * gl_x[i];
            tot += gl_w[i] * (2.0 / FHSYM__SQRT_PI - 2.0 * t * fhsym_erfcx(t));
        }
        return tot * half;
    }
}

static double fhsym__gauss_profile_hi(double x, double D)
{
    return 0.5 * fhsym__exp_mhalf_sq(x) * fhsym_erfcx_diff(x * FHSYM__SQRT1_2, D * FHSYM__SQRT1_2);
}

static double fhsym__gauss_profile_direct(double x, double D)
{
    return 0.5 * erfc(x * FHSYM__SQRT1_2) - 0.5 * fhsym__exp_mhalf_sq(x) * fhsym_erfcx((x + D) * FHSYM__SQRT1_2);
}

/* H(x, D) = Q(x) - exp(D x + D^2/2) Q(x + D) >= 0, D > 0 (fhsym._numerics.gauss_profile): x >= -5 through
 * erfcx_diff; x < -5 < x + D/2 directly; otherwise the reflection -expm1(a) + e^a H(-x - D, D), a = D(x + D/2). */
double fhsym_gauss_profile(double x, double D)
{
    if (x != x || D != D) return NAN;
    if (x >= -5.0) return fhsym__gauss_profile_hi(x, D);
    if (x + 0.5 * D > 0.0) return fhsym__gauss_profile_direct(x, D);
    {
        double a = D * (x + 0.5 * D);
        double xm = -x - D;
        double hm = xm >= -5.0 ? fhsym__gauss_profile_hi(xm, D) : fhsym__gauss_profile_direct(xm, D);
        return -expm1(a) + exp(a) * hm;
    }
}

/* log H(x, D), finite wherever H > 0 */
double fhsym_log_gauss_profile(double x, double D)
{
    if (x != x || D != D) return NAN;
    if (x >= -5.0) {
        double hi = x * x;
        double lo = fma(x, x, -hi);
        return (log(0.5 * fhsym_erfcx_diff(x * FHSYM__SQRT1_2, D * FHSYM__SQRT1_2)) - 0.5 * lo) - 0.5 * hi;
    }
    return log(fhsym_gauss_profile(x, D));
}
