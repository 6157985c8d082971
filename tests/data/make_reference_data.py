"""Write tests/data/fh_reference.json: mpmath ground truth for FlippedHuber.

Every value is computed by ``proofs/reference.py`` (quadrature of the
definition exp(-rho_alpha(t)/gamma^2), never a closed form of the paper) at
dps 40 and again at dps 55 (``reference.confirm_report``); the run aborts if
the two disagree in the first 35 significant digits.  The dps-55 value is
stored with 30 significant digits; inputs are stored as ``repr`` of the exact
binary floats that the tests pass to the numeric code.  See README.md.

Usage (outside CI; about 8 minutes on 2 cores)::

    .venv/bin/python tests/data/make_reference_data.py [--jobs N] [--quick]

Tables
------
pointwise  pdf, logpdf, cdf, sf, logcdf, logsf at 36 (alpha, gamma) pairs:
           alpha/gamma in {0, 1e-6, 1e-3, 0.1, 1, 3, 10, 37, 38, 100, 1e3, 1e4}
           x gamma in {1e-6, 1, 1e6}; points 0, +-alpha, +-nextafter(alpha)
           on both sides, +-alpha(1 -+ 1e-6), +-alpha/2, +-2 alpha,
           +-(alpha + gamma), and t/gamma in +-{1e-9, 0.1, 0.5, 1, 2.5, 7, 50, 1e3}.
quantiles  ppf and isf at q in {1e-300, 1e-100, 1e-16, 1e-6, 0.1, 0.25,
           0.5-1e-12, 0.5, 0.5+1e-12, 0.9, 1-1e-12} plus the mass boundaries
           q = P(T <= -alpha) and P(T <= alpha) where they are floats in
           [1e-300, 1).  (isf(q) = -ppf(q) exactly, rho being even.)
moments    variance, fisher_information, nfi, log omega (omega defined by
           kappa = gamma omega e^{-b^2/2}, kappa by quadrature), kappa.
mgf        log_mgf and mgf at s = c/gamma, c in {-3, -0.5, 1e-3, 0.5, 1, 3, 10}
           plus c in {b/2, b, 2b} for 0 < b <= 30 (c = b is the kink of the
           MGF integrand's exponent).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import mpmath  # noqa: E402
from mpmath import mp, mpf  # noqa: E402

from proofs import reference as R  # noqa: E402

OUT = Path(__file__).with_name("fh_reference.json")
DPS = 40
EXTRA = 15
MIN_DIGITS = DPS - 5
DIGITS_STORED = 30

B_VALUES = [0.0, 1e-6, 1e-3, 0.1, 1.0, 3.0, 10.0, 37.0, 38.0, 100.0, 1e3, 1e4]
GAMMAS = [1e-6, 1.0, 1e6]
S_POINTS = [1e-9, 0.1, 0.5, 1.0, 2.5, 7.0, 50.0, 1e3]
Q_VALUES = [1e-300, 1e-100, 1e-16, 1e-6, 0.1, 0.25, 0.5 - 1e-12, 0.5, 0.5 + 1e-12, 0.9, 1 - 1e-12]
C_VALUES = [-3.0, -0.5, 1e-3, 0.5, 1.0, 3.0, 10.0]


def fmt(v) -> str:
    """30 significant digits (mpf has an unbounded exponent: 1e-217151 is fine)."""
    if mpmath.isinf(v):
        return "inf" if v > 0 else "-inf"
    return mpmath.nstr(v, DIGITS_STORED, strip_zeros=False, min_fixed=-5, max_fixed=5)


def digits(d: float) -> float:
    return 99.0 if math.isinf(d) else round(d, 1)


def params():
    for b in B_VALUES:
        for g in GAMMAS:
            yield b * g, g  # alpha is the float product; the harness uses it exactly


def points(alpha: float, gamma: float) -> list:
    xs = {0.0}
    with mp.workdps(30):
        for s in S_POINTS:
            xs.add(float(mpf(s) * mpf(gamma)))
    if alpha > 0:
        xs.update(
            {
                alpha,
                math.nextafter(alpha, 0.0),
                math.nextafter(alpha, math.inf),
                alpha * (1 - 1e-6),
                alpha * (1 + 1e-6),
                alpha / 2,
                2 * alpha,
                alpha + gamma,
            }
        )
    return sorted(xs | {-x for x in xs})


def task_pointwise(args):
    alpha, gamma = args
    out = []
    for x in points(alpha, gamma):
        vals, agree = R.confirm_report(R.tail_bundle, x, alpha, gamma, dps=DPS, extra=EXTRA, digits=MIN_DIGITS)
        rec = {"alpha": repr(alpha), "gamma": repr(gamma), "x": repr(x)}
        for k in ("pdf", "logpdf", "cdf", "sf", "logcdf", "logsf"):
            rec[k] = fmt(vals[k])
        rec["agree_digits"] = digits(agree)
        out.append(rec)
    return out


def quantile_levels(alpha: float, gamma: float) -> list:
    qs = list(Q_VALUES)
    if alpha > 0:
        lower = float(R.cdf(-alpha, alpha, gamma, dps=30))  # P(T <= -alpha)
        upper = float(R.cdf(alpha, alpha, gamma, dps=30))  # P(T <= alpha)
        for q in (lower, upper):
            if 1e-300 <= q < 1.0 and q not in qs:
                qs.append(q)
    return qs


def task_quantile(args):
    alpha, gamma, q = args
    x, agree = R.confirm_report(R.isf, q, alpha, gamma, dps=DPS, extra=EXTRA, digits=MIN_DIGITS)
    with mp.workdps(DPS + EXTRA):
        return {
            "alpha": repr(alpha),
            "gamma": repr(gamma),
            "q": repr(q),
            "isf": fmt(x),
            "ppf": fmt(-x),
            "agree_digits": digits(agree),
        }


def _moment_bundle(alpha, gamma, dps):
    return {
        "variance": R.variance(alpha, gamma, dps=dps),
        "fisher_information": R.fisher_information(alpha, gamma, dps=dps),
        "nfi": R.nfi(alpha, gamma, dps=dps),
        "log_omega": R.log_omega(alpha, gamma, dps=dps),
        "kappa": R.kappa(alpha, gamma, dps=dps),
    }


def task_moments(args):
    alpha, gamma = args
    vals, agree = R.confirm_report(_moment_bundle, alpha, gamma, dps=DPS, extra=EXTRA, digits=MIN_DIGITS)
    rec = {"alpha": repr(alpha), "gamma": repr(gamma)}
    rec.update({k: fmt(v) for k, v in vals.items()})
    rec["agree_digits"] = digits(agree)
    return rec


def mgf_arguments(alpha: float, gamma: float) -> list:
    b = alpha / gamma
    cs = list(C_VALUES)
    if 0 < b <= 30:
        cs += [b / 2, b, 2 * b]
    out = []
    for c in cs:
        s = c / gamma
        if s not in out:
            out.append(s)
    return out


def task_mgf(args):
    alpha, gamma, s = args
    v, agree = R.confirm_report(R.log_mgf, s, alpha, gamma, dps=DPS, extra=EXTRA, digits=MIN_DIGITS)
    with mp.workdps(DPS + EXTRA):
        return {
            "alpha": repr(alpha),
            "gamma": repr(gamma),
            "s": repr(s),
            "log_mgf": fmt(v),
            "mgf": fmt(mpmath.exp(v)),
            "agree_digits": digits(agree),
        }


def _write(path: Path, data: dict) -> None:
    """JSON with one record per line (reviewable diffs)."""
    lines = ["{"]
    meta = [k for k in data if not isinstance(data[k], list)]
    tables = [k for k in data if isinstance(data[k], list)]
    for k in meta:
        lines.append("  %s: %s," % (json.dumps(k), json.dumps(data[k])))
    for i, k in enumerate(tables):
        lines.append("  %s: [" % json.dumps(k))
        rows = data[k]
        for j, r in enumerate(rows):
            lines.append("    " + json.dumps(r, separators=(", ", ": ")) + ("," if j < len(rows) - 1 else ""))
        lines.append("  ]" + ("," if i < len(tables) - 1 else ""))
    lines.append("}")
    path.write_text("\n".join(lines) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--quick", action="store_true", help="tiny sweep written to a temp file (smoke test)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)

    global B_VALUES, GAMMAS
    if args.quick:
        B_VALUES, GAMMAS = [0.0, 1.0, 1e4], [1.0]
        if args.out == OUT:
            args.out = Path("/tmp/fh_reference_quick.json")

    t0 = time.time()
    plist = list(params())
    qtasks = [(a, g, q) for a, g in plist for q in quantile_levels(a, g)]
    mtasks = [(a, g, s) for a, g in plist for s in mgf_arguments(a, g)]
    with ProcessPoolExecutor(max_workers=args.jobs) as ex:
        f_point = ex.map(task_pointwise, plist)
        f_quant = ex.map(task_quantile, qtasks)
        f_mom = ex.map(task_moments, plist)
        f_mgf = ex.map(task_mgf, mtasks)
        pointwise = [r for rs in f_point for r in rs]
        quantiles = list(f_quant)
        moments = list(f_mom)
        mgfs = list(f_mgf)
    elapsed = time.time() - t0

    all_agree = [r["agree_digits"] for tbl in (pointwise, quantiles, moments, mgfs) for r in tbl]
    data = {
        "description": "FlippedHuber ground truth from proofs/reference.py (mpmath quadrature of the definition); see README.md",
        "generator": "tests/data/make_reference_data.py",
        "harness": "proofs/reference.py",
        "mpmath_version": mpmath.__version__,
        "dps": DPS,
        "confirm_dps": DPS + EXTRA,
        "confirm_min_digits": MIN_DIGITS,
        "worst_agree_digits": min(all_agree),
        "digits_stored": DIGITS_STORED,
        "stored_value": "the dps-%d result; agree_digits = agreement of the dps-%d and dps-%d results" % (DPS + EXTRA, DPS, DPS + EXTRA),
        "generation_seconds": round(elapsed, 1),
        "jobs": args.jobs,
        "pointwise": pointwise,
        "quantiles": quantiles,
        "moments": moments,
        "mgf": mgfs,
    }
    _write(args.out, data)
    print(
        "wrote %s: %d pointwise, %d quantile, %d moment, %d mgf records in %.1f s (worst agreement %.1f digits)"
        % (args.out, len(pointwise), len(quantiles), len(moments), len(mgfs), elapsed, min(all_agree))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
