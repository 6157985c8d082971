/* Test driver of the generated C library (tests/test_codegen_c.py): reads blocks
 *     <function> <alpha> <gamma> <sensitivity> <n>
 *     <n points, C99 hex floats>
 * from stdin.  For each block it evaluates the function at the n points three ways -- the one-call API
 * (fhsym_cdf(t, alpha, gamma)), the handle point by point (fhsym_dist_cdf(&d, t)) and the handle's loop
 * (fhsym_dist_cdf_n(&d, n, t, out)) -- and prints "MISMATCH ..." and exits 1 unless the three agree bit for
 * bit (NaN with NaN); otherwise it prints the loop's return code and errno (0 or EDOM), then the n values
 * (%a), one a line.  "variance" takes n = 0 and prints one value; a distribution fhsym_dist_init refuses
 * prints "EDOM <errno == EDOM>". */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fhsym.h"

typedef double (*one_call_fn)(double, double, double);
typedef double (*point_fn)(const fhsym_dist *, double);
typedef int (*loop_fn)(const fhsym_dist *, size_t, const double *, double *);

static const struct {
    const char *name;
    one_call_fn one_call;
    point_fn point;
    loop_fn loop;
} TABLE[] = {
    {"logpdf", fhsym_logpdf, fhsym_dist_logpdf, fhsym_dist_logpdf_n},
    {"pdf", fhsym_pdf, fhsym_dist_pdf, fhsym_dist_pdf_n},
    {"cdf", fhsym_cdf, fhsym_dist_cdf, fhsym_dist_cdf_n},
    {"sf", fhsym_sf, fhsym_dist_sf, fhsym_dist_sf_n},
    {"logsf", fhsym_logsf, fhsym_dist_logsf, fhsym_dist_logsf_n},
    {"ppf", fhsym_ppf, fhsym_dist_ppf, fhsym_dist_ppf_n},
};

static int same(double u, double v)
{
    return (isnan(u) && isnan(v)) || memcmp(&u, &v, sizeof u) == 0;
}

int main(void)
{
    char name[32];
    double alpha, gamma, sens;
    unsigned long count;
    size_t n, i, k;
    while (scanf("%31s %lf %lf %lf %lu", name, &alpha, &gamma, &sens, &count) == 5) {
        double *x, *loop, *point, *one;
        fhsym_dist d;
        int rc, err;
        n = count;
        x = malloc((n + 1) * sizeof *x);
        loop = malloc((n + 1) * sizeof *x);
        point = malloc((n + 1) * sizeof *x);
        one = malloc((n + 1) * sizeof *x);
        if (!x || !loop || !point || !one) return 2;
        for (i = 0; i < n; i++)
            if (scanf("%lf", &x[i]) != 1) return 2;
        errno = 0;
        if (fhsym_dist_init(&d, alpha, gamma) != 0) {
            printf("EDOM %d\n", errno == EDOM);
            free(x), free(loop), free(point), free(one);
            continue;
        }
        if (strcmp(name, "variance") == 0) {
            double v = fhsym_dist_variance(&d), w = fhsym_variance(alpha, gamma);
            if (!same(v, w)) {
                printf("MISMATCH variance %a %a\n", v, w);
                return 1;
            }
            printf("%a\n", v);
            free(x), free(loop), free(point), free(one);
            continue;
        }
        errno = 0;
        if (strcmp(name, "privacy_profile") == 0) {
            rc = fhsym_dist_privacy_profile_n(&d, sens, n, x, loop);
            err = errno;
            for (i = 0; i < n; i++) {
                point[i] = fhsym_dist_privacy_profile(&d, x[i], sens);
                one[i] = fhsym_privacy_profile(x[i], alpha, gamma, sens);
            }
        } else {
            for (k = 0; k < sizeof TABLE / sizeof TABLE[0] && strcmp(TABLE[k].name, name) != 0; k++) {
            }
            if (k == sizeof TABLE / sizeof TABLE[0]) return 2;
            rc = TABLE[k].loop(&d, n, x, loop);
            err = errno;
            for (i = 0; i < n; i++) {
                point[i] = TABLE[k].point(&d, x[i]);
                one[i] = TABLE[k].one_call(x[i], alpha, gamma);
            }
        }
        for (i = 0; i < n; i++) {
            if (!same(loop[i], point[i]) || !same(loop[i], one[i])) {
                printf("MISMATCH %s alpha=%a gamma=%a x=%a: loop %a, handle %a, one call %a\n", name, alpha, gamma, x[i],
                       loop[i], point[i], one[i]);
                return 1;
            }
        }
        printf("%d %d\n", rc, err);
        for (i = 0; i < n; i++) printf("%a\n", loop[i]);
        free(x), free(loop), free(point), free(one);
    }
    return 0;
}
