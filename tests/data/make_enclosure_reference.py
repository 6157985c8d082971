"""Write tests/data/enclosure_reference.json: ground truth for ``fhsym.privacy.enclosures``.

Recipe (independent of fhsym: nothing from ``fhsym`` is imported here).  For each mechanism,
48 parameter points drawn from a seeded generator (log-uniform shapes over the whole range the
references can certify, the FH kink and every Table I boundary -- exactly, with dyadic inputs,
and 1e-15 .. 1e-3 relative off it --, the OSGT case switch, the Laplace/truncated-Laplace
crossing eps = Delta/scale, eps = 0, tiny and large eps, delta from ~1 down to ~1e-700) and

    delta = int [g(t) - e^eps g(t + Delta)]_+ dt

computed from the DEFINITION:

* flipped_huber: ``proofs.reference.privacy_profile`` (quadrature of the definition, crossing
  point by bisection on the loss, split at every kink; the harness raises unless mpmath's
  error estimate is below 10^-(dps+3) relative) at dps 50 and 65 (``confirm_report``, >= 40
  agreeing digits); for Delta/gamma < 1e-20, where the harness's guard digits do not cover the
  cancellation, ``proofs.reference_mechanisms.profile_by_quadrature`` of the FH log-density
  (eq 7-8, normaliser from the harness) at dps 50 + |log10 Delta/gamma| and 15 more;
* gaussian, osgt, laplace, truncated_laplace: ``proofs.reference_mechanisms.*_profile_ref``
  (quadrature of the definition with ``error=True``) at dps P and P + 15,
  P = 50 + (digits lost to the cancellation of the integrand);
* staircase: ``proofs.reference_mechanisms.StaircaseRef`` (exact sum over every constant piece
  of the piecewise-constant integrand, 50 digits, tail bound recorded);
* truncated_staircase: ``proofs.reference_truncated_staircase.Ref`` (exact sum over every constant
  piece of the integrand on the finite support, breakpoints in exact rationals, 60 digits), its
  records drawn from their own seed (SEED + 31) and added by ``--only truncated_staircase``.

Each record stores the higher-precision value (45 significant digits) and ``error``: a bound on
its error, max(|v_P - v_P+15|, quadrature error estimate, neglected tail) + 1e-44 |v|.  Inputs
are float reprs (the enclosure is evaluated at exactly those binary values).  Runs outside CI
(~15 minutes):

    python tests/data/make_enclosure_reference.py [--quick] [--only MECHANISM]

``--only`` recomputes one mechanism's records and replaces them in the existing file (the others kept).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

import mpmath as mp

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from proofs import reference as RF  # noqa: E402
from proofs import reference_mechanisms as RM  # noqa: E402
from proofs import reference_truncated_staircase as RTS  # noqa: E402

OUT = Path(__file__).with_name("enclosure_reference.json")
N_PER_MECHANISM = 48
SEED = 20240611
DPS = 50
EXTRA = 15


def logu(rng: random.Random, lo: float, hi: float) -> float:
    return 10.0 ** rng.uniform(lo, hi)


def jitter(rng: random.Random, x: float) -> float:
    """x exactly, or x (1 +- 10^-k) for k in {15, 9, 3}."""
    k = rng.choice([None, 15, 9, 3])
    if k is None:
        return x
    return x * (1.0 + rng.choice([-1.0, 1.0]) * 10.0**-k)


# ---------------------------------------------------------------------------
# parameter points


def fh_points(rng: random.Random):
    pts = []
    # exact Table I boundaries with dyadic inputs (every boundary is a dyadic rational)
    for a, g, dl in [(0.25, 1.0, 1.0), (0.75, 1.0, 1.0), (1.5, 0.5, 0.25), (3.0, 2.0, 0.5)]:
        b, D = a / g, dl / g
        bounds = {b * D, (max(2 * b, D) ** 2 - 2 * b * D) / 2, (max(D - b, 0) ** 2 + 2 * b * D) / 2,
                  (D + 2 * b) * D / 2}
        for e in sorted(bounds)[:3]:
            if e >= 0:
                pts.append((e, a, g, dl, "exact Table I boundary"))
    while len(pts) < N_PER_MECHANISM - 4:
        g = rng.choice([logu(rng, -3, 3), 2.0 ** rng.randint(-8, 8)])
        b = 0.0 if rng.random() < 0.15 else logu(rng, -6, 4)
        D = logu(rng, -6, 3)
        a, dl = b * g, D * g
        b, D = a / g, dl / g
        e3 = (max(2 * b, D) ** 2 - 2 * b * D) / 2
        nu1 = (max(D - b, 0.0) ** 2 + 2 * b * D) / 2
        nu2 = (D + 2 * b) * D / 2
        mode = rng.random()
        cands = [x for x in (e3, nu1, nu2, b * D) if 0 < x < 1e4]
        if mode < 0.35 and cands:
            eps, note = jitter(rng, rng.choice(cands)), "near a Table I boundary / the kink"
        elif mode < 0.45:
            eps, note = 0.0, "eps = 0"
        elif mode < 0.6:
            eps, note = logu(rng, -14, -3), "tiny eps"
        elif mode < 0.8:
            x = rng.uniform(20.0, 50.0)  # delta ~ e^{-x^2/2}: 1e-87 .. 1e-543
            eps, note = nu2 + D * x + D * D / 2, "tail, tiny delta"
        else:
            eps, note = rng.uniform(0.0, 30.0), "generic"
        pts.append((eps, a, g, dl, note))
    pts.append((0.0, 1.0, 1.0, 1e-300, "Delta/gamma = 1e-300"))
    pts.append((1e-300, 0.0, 1.0, 1e-300, "Delta/gamma = 1e-300, Gaussian limit"))
    pts.append((2e-25, 3.0, 1.0, 1e-25, "Delta/gamma = 1e-25, case (ii)"))
    pts.append((1.0, 1e8, 1.0, 1.0, "alpha/gamma = 1e8 (Laplace limit)"))
    return pts


def gaussian_points(rng):
    pts = []
    while len(pts) < N_PER_MECHANISM:
        sigma = logu(rng, -3, 3)
        s = logu(rng, -8, 3)
        mode = rng.random()
        if mode < 0.15:
            eps, note = 0.0, "eps = 0"
        elif mode < 0.35:
            eps, note = s * logu(rng, -10, 0), "tiny eps"
        elif mode < 0.6:
            x = rng.uniform(20.0, 37.0)
            eps, note = s * x + s * s / 2, "tail, tiny delta"
        else:
            eps, note = rng.uniform(0.0, 50.0), "generic"
        pts.append((eps, {"sigma": sigma}, s * sigma, note))
    return pts


def osgt_points(rng):
    pts = []
    while len(pts) < N_PER_MECHANISM:
        vr = logu(rng, -3, 3)
        theta = 0.0 if rng.random() < 0.15 else logu(rng, -3, 3)
        s = logu(rng, -6, 2.5)
        vt, dl = theta * vr, s * vr
        theta, s = vt / vr, dl / vr
        mode = rng.random()
        if mode < 0.3:
            eps, note = jitter(rng, s * (s + 2 * theta) / 2), "near the case switch"
        elif mode < 0.4:
            eps, note = 0.0, "eps = 0"
        elif mode < 0.7:
            eps, note = s * (s + 2 * theta) / 2 + s * rng.uniform(0.0, 30.0), "second case"
        else:
            eps, note = rng.uniform(0.0, 40.0), "generic"
        pts.append((eps, {"vartheta": vt, "varrho": vr}, dl, note))
    return pts


def laplace_points(rng):
    pts = []
    while len(pts) < N_PER_MECHANISM:
        beta = logu(rng, -3, 3)
        s = logu(rng, -6, 2)
        dl = s * beta
        s = dl / beta
        mode = rng.random()
        if mode < 0.4:
            eps, note = s * (1.0 - rng.choice([1e-15, 1e-9, 1e-3, 0.5])), "just below eps = Delta/beta"
        elif mode < 0.5:
            eps, note = s * rng.choice([1.0, 1.5]), "at or above eps = Delta/beta (delta = 0)"
        elif mode < 0.6:
            eps, note = 0.0, "eps = 0"
        else:
            eps, note = rng.uniform(0.0, s), "generic"
        pts.append((eps, {"beta": beta}, dl, note))
    return pts


def tl_points(rng):
    pts = []
    while len(pts) < N_PER_MECHANISM:
        lam = logu(rng, -2, 2)
        a = logu(rng, -1.5, 1.7)
        s = logu(rng, -4, 1.5)
        A, dl = a * lam, s * lam
        s = dl / lam
        mode = rng.random()
        if mode < 0.3:
            eps, note = s * (1.0 - rng.choice([0.0, 1e-12, 1e-6, 0.3])), "at / below eps = Delta/scale"
        elif mode < 0.4:
            eps, note = 0.0, "eps = 0"
        else:
            eps, note = rng.uniform(0.0, 2 * s + 5.0), "generic"
        pts.append((eps, {"scale": lam, "bound": A}, dl, note))
    return pts


def staircase_points(rng):
    pts = []
    while len(pts) < N_PER_MECHANISM:
        eps0 = logu(rng, -1, 0.8)
        d0 = logu(rng, -2, 2)
        gam = rng.choice([0.0, 1.0, rng.random(), rng.random()])
        dl = d0 * rng.choice([logu(rng, -3, 1), float(rng.randint(1, 7)), rng.randint(1, 25) / 4])
        mode = rng.random()
        if mode < 0.3:
            eps, note = eps0 * rng.randint(1, 5) * (1.0 - rng.choice([0.0, 1e-12])), "at / below a step"
        elif mode < 0.4:
            eps, note = 0.0, "eps = 0"
        else:
            eps, note = rng.uniform(0.0, 5 * eps0), "generic"
        pts.append((eps, {"epsilon": eps0, "sensitivity": d0, "gamma": gam}, dl, note))
    return pts


def ts_points(rng):
    pts = []
    while len(pts) < N_PER_MECHANISM:
        eps0 = logu(rng, -1.3, 1)
        d0 = logu(rng, -2, 2)
        gam = rng.choice([0.0, 1.0, rng.random(), rng.random()])
        beta = rng.choice([1.0, logu(rng, 0, 1), logu(rng, 0, 2.3)])
        dl = d0 * rng.choice([logu(rng, -3, 0), 1.0, 1.0, rng.randint(1, 3) * 0.75, 2.0 * beta * 1.01])
        mode = rng.random()
        if mode < 0.3:
            eps, note = eps0 * (1.0 - rng.choice([0.0, 1e-12])), "at / below eps0"
        elif mode < 0.4:
            eps, note = 0.0, "eps = 0"
        else:
            eps, note = rng.uniform(0.0, 3 * eps0), "generic"
        pts.append((eps, {"epsilon": eps0, "sensitivity": d0, "gamma": gam, "bound": beta * d0}, dl, note))
    return pts


# ---------------------------------------------------------------------------
# references


class RefError(ArithmeticError):
    pass


def _two(fn, p):
    """(value at p + EXTRA, error bound) from evaluations at p and p + EXTRA."""
    out = []
    for dps in (p, p + EXTRA):
        with mp.workdps(dps):
            v, e = fn()
            out.append((+v, +e))
    (v1, e1), (v2, e2) = out
    with mp.workdps(p + EXTRA):
        err = max(abs(v2 - v1), e2) + abs(v2) * mp.mpf(10) ** -44
        if v2 != 0 and err > mp.mpf(10) ** -40 * abs(v2):
            raise RefError(f"precisions disagree: {mp.nstr(v1, 30)} vs {mp.nstr(v2, 30)} (err {mp.nstr(err, 3)})")
        return v2, err


def _digits_lost(*xs) -> int:
    lost = 0
    for x in xs:
        if x > 0:
            lost = max(lost, int(abs(math.log10(x))) + 1)
    return lost


def fh_reference(eps, a, g, dl):
    D = dl / g
    if D >= 1e-20:
        v, agree = RF.confirm_report(RF.privacy_profile, eps, a, g, dl, dps=DPS, digits=40)
        with mp.workdps(DPS + EXTRA):
            v = mp.mpf(v)
            return v, abs(v) * mp.mpf(10) ** -40, f"proofs.reference.privacy_profile dps {DPS}/{DPS + EXTRA}"

    def fn():
        b = mp.mpf(a) / mp.mpf(g)
        d = mp.mpf(dl) / mp.mpf(g)
        Z = RF.normaliser(b, dps=mp.mp.dps)
        kinks = [-b, b, -b - d, b - d, mp.mpf(0), -d]
        v, e = RM.profile_by_quadrature(lambda s: -RF._r(s, b), eps, d, kinks, mp.mpf(1) / (1 + b),
                                        lambda t: abs(t) + b)
        return v / Z, e / Z

    p = DPS + _digits_lost(D)
    v, err = _two(fn, p)
    return v, err, f"profile_by_quadrature of the FH log-density, dps {p}/{p + EXTRA}"


def mech_reference(name, params, eps, dl):
    if name == "gaussian":
        sig = params["sigma"]
        s = dl / sig
        p = DPS + _digits_lost(s) + 5

        def fn():
            return RM.gaussian_profile_ref(sig, eps, dl)
    elif name == "osgt":
        vt, vr = params["vartheta"], params["varrho"]
        p = DPS + _digits_lost(dl / vr) + 5

        def fn():
            return RM.osgt_profile_ref(vt, vr, eps, dl)
    elif name == "laplace":
        beta = params["beta"]
        p = DPS + _digits_lost(dl / beta, abs(dl / beta - eps) if eps < dl / beta else 0) + 5

        def fn():
            return RM.laplace_profile_ref(beta, eps, dl)
    elif name == "truncated_laplace":
        lam, A = params["scale"], params["bound"]
        p = DPS + _digits_lost(dl / lam) + 5

        def fn():
            return RM.tl_profile_ref(lam, A, eps, dl)
    elif name == "staircase":
        eps0, d0, gam = params["epsilon"], params["sensitivity"], params["gamma"]
        with mp.workdps(DPS + 10):
            ref, neglected = RM.StaircaseRef(eps0, d0, gam * d0).profile(eps, dl, periods=int(110 / eps0) + 4)
            err = neglected + abs(ref) * mp.mpf(10) ** -44
            return ref, err, "exact piece sum (StaircaseRef), 60 digits"
    elif name == "truncated_staircase":
        ref = RTS.Ref(params["epsilon"], params["sensitivity"], params["gamma"], params["bound"], dps=DPS + 10)
        with mp.workdps(DPS + 10):
            v = ref.profile(eps, dl)
            return v, abs(v) * mp.mpf(10) ** -44, "exact piece sum (reference_truncated_staircase.Ref), 60 digits"
    else:  # pragma: no cover
        raise ValueError(name)
    v, err = _two(fn, p)
    return v, err, f"quadrature of the definition (reference_mechanisms), dps {p}/{p + EXTRA}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="3 points per mechanism, written to /tmp")
    ap.add_argument("--only", help="recompute this mechanism's records only, replacing them in the existing file")
    args = ap.parse_args()
    rng = random.Random(SEED)
    t0 = time.time()
    records = []
    if args.only:
        old = json.loads(OUT.read_text())
        records = [r for r in old["records"] if r["mechanism"] != args.only]
    gens = {
        "flipped_huber": lambda: [(e, {"alpha": a, "gamma": g}, d, n) for e, a, g, d, n in fh_points(rng)],
        "gaussian": lambda: gaussian_points(rng),
        "osgt": lambda: osgt_points(rng),
        "laplace": lambda: laplace_points(rng),
        "truncated_laplace": lambda: tl_points(rng),
        "staircase": lambda: staircase_points(rng),
        "truncated_staircase": lambda: ts_points(random.Random(SEED + 31)),
    }
    if args.only:
        gens = {args.only: gens[args.only]}
    for name, gen in gens.items():
        pts = gen()
        if args.quick:
            pts = pts[:3]
        for eps, params, dl, note in pts:
            t1 = time.time()
            if name == "flipped_huber":
                ref, err, how = fh_reference(eps, params["alpha"], params["gamma"], dl)
            else:
                ref, err, how = mech_reference(name, params, eps, dl)
            with mp.workdps(60):
                rec = {
                    "mechanism": name,
                    "params": {k: repr(float(v)) for k, v in params.items()},
                    "epsilon": repr(float(eps)),
                    "sensitivity": repr(float(dl)),
                    "reference": mp.nstr(ref, 45, min_fixed=1, max_fixed=0) if ref != 0 else "0",
                    "error": mp.nstr(err, 5, min_fixed=1, max_fixed=0),
                    "method": how,
                    "note": note,
                }
            records.append(rec)
            print(f"{name:18s} {rec['reference'][:22]:24s} {note:40s} {time.time() - t1:6.1f}s", flush=True)
    out = {
        "recipe": __doc__.split("Runs outside CI")[0].strip().splitlines(),
        "seed": SEED,
        "generation_seconds": round(time.time() - t0, 1) + (old["generation_seconds"] if args.only else 0.0),
        "records": records,
    }
    path = Path("/tmp/enclosure_reference.json") if args.quick else OUT
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {len(records)} records to {path} in {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
