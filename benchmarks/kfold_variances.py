"""Certified variances of the K-fold calibrations, to compare two checkouts (issue 21: the proven PLD bound).

    PYTHONPATH=<checkout> python benchmarks/kfold_variances.py OUT.json [mechanism] [--compare BASE.json]

Flipped Huber (method "exact") at K in {2, 5, 20, 100, 1000}, eps in {0.3, 1, 3}, delta 1e-6 and 1e-10; Laplace
("exact"), truncated Laplace and OSGT at four (eps, delta, K, T).  Writes variance, exact parameters, achieved delta,
claim, rigorous and seconds per case.  The records of 0b836ee (float PLD, 1e-4 margin) and of the proven bound are
docs/reproduction/data/kfold_variances_0b836ee.json and kfold_variances_proven.json.
"""
import json, sys, time
import fhsym
out = {}
cases = []
for dl in (1e-6, 1e-10):
    for eps in (0.3, 1.0, 3.0):
        for K in (2, 5, 20, 100, 1000):
            cases.append(("flipped_huber", eps, dl, K, 1))
for mech in ("laplace", "truncated_laplace", "osgt"):
    for (eps, dl, K, T) in ((1.0, 1e-6, 2, 1), (1.0, 1e-6, 20, 1), (0.5, 1e-10, 5, 2), (3.0, 1e-6, 100, 1)):
        cases.append((mech, eps, dl, K, T))
args = sys.argv[1:]
base = None
if "--compare" in args:  # print each variance against a recorded run (issue 21: at most +1e-4 relative)
    i = args.index("--compare")
    base = json.load(open(args[i + 1]))
    del args[i:i + 2]
only = args[1] if len(args) > 1 else None
worst = (-float("inf"), None)
for mech, eps, dl, K, T in cases:
    if only and mech != only:
        continue
    t0 = time.perf_counter()
    try:
        kw = dict(method="exact") if mech in ("flipped_huber", "laplace") else {}
        c = fhsym.calibrate(eps, dl, dim=K, compositions=T, mechanism=mech, **kw)
        rec = dict(variance=c.variance, params={k: v.hex() for k, v in c.mechanism.parameters.items()},
                   achieved=c.achieved_delta, claim=c.certificate.claim, rigorous=c.certificate.rigorous,
                   seconds=time.perf_counter() - t0)
    except Exception as e:
        rec = dict(error=repr(e), seconds=time.perf_counter() - t0)
    key = f"{mech} eps={eps} delta={dl} K={K} T={T}"
    out[key] = rec
    print(key, rec, flush=True)
    if base is not None and "variance" in rec and "variance" in base.get(key, {}):
        change = rec["variance"] / base[key]["variance"] - 1.0
        worst = max(worst, (change, key))
        print(f"    against the base: {change:+.2e} relative", flush=True)
    json.dump(out, open(args[0], "w"), indent=1)
if base is not None:
    print(f"largest relative increase against the base: {worst[0]:+.2e} ({worst[1]})")
