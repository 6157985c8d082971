#!/usr/bin/env python
"""DP-CD with flipped Huber vs Gaussian noise, zCDP vs exact (PLD) accounting (mission row H, issue 6).

One command (needs the optional extra ``examples``: scikit-learn; matplotlib for the figures)::

    python scripts/run_dpcd_experiment.py            # ~2-5 min on 2 cores

Protocol (see docs/dpcd.md for the reading of the results)
---------------------------------------------------------
* Data: scikit-learn's diabetes (N = 442, 10 features; least squares) and breast cancer
  (N = 569, 30 features; logistic), each with l2 and with l1 regularisation, lam = LAM; and a
  deliberately low-dimensional variant of diabetes (3 features: bmi, bp, s5) with l2, chosen
  *because* few coordinates mean few composed releases, the regime where FH can help.
* One fixed random split per dataset: 20 % *public* (used for standardisation, the smoothness
  constants M_i and hyperparameter tuning; treated as public data), 20 % test, 60 % *private*
  training data.  The DP guarantee is for the private split: eps = 1, delta = 1/N^2 with N its size.
  An intercept column of ones is appended (a coordinate like the others).
* Hyperparameters (L, tau, C) for each method: the grid GRID, chosen by the mean objective of
  ``TUNE_SEEDS`` simulated runs on the *public* split, with the noise the private run would get
  (lambda_i = 2 C_i / N_private).  No private data is touched by the tuning, so it costs no privacy.
* Evaluation: each method with its tuned hyperparameters on the private split, ``--seeds`` noise
  seeds, the same seeds for every method (the noise is sampled by ``FlippedHuber.rvs`` from the same random words,
  so the runs of different methods are coupled: common random numbers); excess objective F(theta) - F* on the private split (F* from non-private CD run to
  convergence, cross-checked against scikit-learn) and the test error.  Every private run is
  re-certified by ``dp_coordinate_descent(verify=True)``.
* Also: the calibrated noise per release vs the number of releases L K (figure 2), which shows
  where FH can help at all.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from fhsym.applications import (  # noqa: E402
    calibrate_dpcd_noise,
    clipping_thresholds,
    coordinate_descent,
    coordinate_sensitivities,
    coordinate_smoothness,
    dp_coordinate_descent,
    dpcd_noise_std,
    dpcd_sample,
    objective,
)

EPS = 1.0
LAM = 0.01
GRID = {"L": [1, 2, 3, 5, 10], "tau": [0.05, 0.1, 0.2, 0.5, 1.0], "C": [0.1, 0.3, 1.0, 3.0, 10.0]}
TUNE_SEEDS = 30
CURVE_EPS = [1.0, 4.0]
METHODS = [("gaussian", "zcdp"), ("flipped_huber", "zcdp"), ("gaussian", "pld"), ("flipped_huber", "pld")]
LABEL = {("gaussian", "zcdp"): "Gaussian + zCDP", ("flipped_huber", "zcdp"): "FH + zCDP",
         ("gaussian", "pld"): "Gaussian + PLD", ("flipped_huber", "pld"): "FH + PLD"}
PROBLEMS = [
    ("diabetes", "squared", "l2"),
    ("diabetes_bmi_bp_s5", "squared", "l2"),
    ("diabetes", "squared", "l1"),
    ("breast_cancer", "logistic", "l2"),
    ("breast_cancer", "logistic", "l1"),
]
BEGIN, END = "<!-- BEGIN GENERATED: scripts/run_dpcd_experiment.py -->", "<!-- END GENERATED -->"


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


# ---------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------


def load(name: str, split_seed: int = 2024):
    from sklearn.datasets import load_breast_cancer, load_diabetes

    if name.startswith("diabetes"):
        X, y = load_diabetes(return_X_y=True)
        if name == "diabetes_bmi_bp_s5":  # a deliberately low-dimensional model: few releases per pass
            X = X[:, [2, 3, 8]]
    else:
        X, y = load_breast_cancer(return_X_y=True)
        y = 2.0 * y - 1.0
    rng = np.random.default_rng(split_seed)
    perm = rng.permutation(len(y))
    n_pub = n_test = int(round(0.2 * len(y)))
    pub, test, priv = perm[:n_pub], perm[n_pub:n_pub + n_test], perm[n_pub + n_test:]
    mu, sd = X[pub].mean(0), X[pub].std(0)
    sd[sd == 0] = 1.0

    def prep(idx):
        Z = (X[idx] - mu) / sd
        return np.hstack([Z, np.ones((len(idx), 1))])

    if name.startswith("diabetes"):  # standardise the target with public statistics too
        ym, ys = y[pub].mean(), y[pub].std()
        yt = (y - ym) / ys
    else:
        yt = y
    return {"public": (prep(pub), yt[pub]), "test": (prep(test), yt[test]), "private": (prep(priv), yt[priv])}


def test_error(loss, X, y, theta):
    z = theta @ X.T
    if loss == "squared":
        return np.mean((z - y) ** 2, axis=-1)  # MSE in units of the (public) target variance
    return np.mean(np.sign(z) != y, axis=-1)  # misclassification rate


def reference_optimum(X, y, loss, reg):
    """F* by non-private CD to convergence, cross-checked against scikit-learn."""
    res = dp_coordinate_descent(X, y, loss=loss, regularizer=reg, lam=LAM, n_passes=5000, step=1.0,
                                clip=math.inf, mechanism=None)
    th = res.theta
    N = X.shape[0]
    from sklearn.linear_model import Lasso, LogisticRegression, Ridge

    if loss == "squared" and reg == "l2":
        ref = Ridge(alpha=N * LAM, fit_intercept=False, solver="cholesky").fit(X, y).coef_
    elif loss == "squared":
        ref = Lasso(alpha=LAM, fit_intercept=False, tol=1e-14, max_iter=10**6).fit(X, y).coef_
    elif reg == "l2":
        ref = LogisticRegression(C=1.0 / (N * LAM), fit_intercept=False, tol=1e-12, max_iter=10**5).fit(X, y).coef_[0]
    else:
        ref = LogisticRegression(penalty="l1", C=1.0 / (N * LAM), fit_intercept=False, solver="liblinear",
                                 tol=1e-12, max_iter=10**6).fit(X, y).coef_[0]
    f_cd = float(objective(X, y, th, loss, reg, LAM))
    f_sk = float(objective(X, y, ref, loss, reg, LAM))
    return th, f_cd, f_sk, float(np.max(np.abs(th - ref)))


# ---------------------------------------------------------------------------
# calibration (depends on L K, eps, delta only) and tuning on the public split
# ---------------------------------------------------------------------------

_CAL = {}


def calibration(L, K, delta, mech, acc):
    key = (L, K, delta, mech, acc)
    if key not in _CAL:
        _CAL[key] = calibrate_dpcd_noise(EPS, delta, L, K, mech, acc)
    return _CAL[key]


def tune(pub, n_private, M, loss, reg, delta, mech, acc, seed, passes=None):
    X, y = pub
    K = X.shape[1]
    best = None
    for L, tau, C in itertools.product(passes or GRID["L"], GRID["tau"], GRID["C"]):
        taus = tau / M
        Cs = clipping_thresholds(M, C)
        if mech is None:
            T = np.zeros((TUNE_SEEDS, L, K))
        else:
            lam = coordinate_sensitivities(Cs, n_private)  # the noise of the private run
            T = dpcd_sample(calibration(L, K, delta, mech, acc), lam, (TUNE_SEEDS, L), np.random.default_rng(seed))
        th, _ = coordinate_descent(X, y, loss=loss, regularizer=reg, lam=LAM, n_passes=L, step_sizes=taus,
                                   clip_thresholds=Cs, noise=T, track_objective=False)
        score = float(np.mean(objective(X, y, th, loss, reg, LAM)))
        if best is None or score < best[0]:
            best = (score, L, tau, C)
    return {"L": best[1], "tau": best[2], "C": best[3], "public_objective": best[0]}


# ---------------------------------------------------------------------------
# main experiment
# ---------------------------------------------------------------------------


def summarise(a):
    a = np.asarray(a, dtype=float)
    q1, med, q3 = np.percentile(a, [25, 50, 75])
    return {"mean": float(a.mean()), "se": float(a.std(ddof=1) / math.sqrt(a.size)) if a.size > 1 else 0.0,
            "median": float(med), "q1": float(q1), "q3": float(q3)}


def run_problem(name, loss, reg, n_seeds, seed0):
    data = load(name)
    Xp, yp = data["private"]
    N, K = Xp.shape
    delta = 1.0 / N**2
    M = coordinate_smoothness(data["public"][0], loss)  # public smoothness constants
    th_star, f_cd, f_sk, dev = reference_optimum(Xp, yp, loss, reg)
    f_star = min(f_cd, f_sk)  # the best objective value known (CD after 5000 passes, or scikit-learn)
    out = {"dataset": name, "loss": loss, "regularizer": reg, "lam": LAM, "N_private": N,
           "N_public": len(data["public"][1]), "N_test": len(data["test"][1]), "K": K, "epsilon": EPS, "delta": delta,
           "F_star": f_star, "sklearn_check": {"F_cd": f_cd, "F_sklearn": f_sk, "max_abs_theta_diff": dev}, "methods": {}}
    Xt, yt = data["test"]
    out["nonprivate"] = {"test_error": float(test_error(loss, Xt, yt, th_star))}
    for k, (mech, acc) in enumerate(METHODS):
        hp = tune(data["public"], N, M, loss, reg, delta, mech, acc, seed=seed0 + 7919)
        cal = calibration(hp["L"], K, delta, mech, acc)
        res = dp_coordinate_descent(Xp, yp, loss=loss, regularizer=reg, lam=LAM, n_passes=hp["L"], step=hp["tau"],
                                    clip=hp["C"], noise=cal, smoothness=M, random_state=seed0, n_runs=n_seeds)
        assert res.privacy.ok and res.privacy.delta <= delta
        # the noise of this run, accounted by the other accountant as well
        other = "pld" if acc == "zcdp" else "zcdp"
        from fhsym.applications import account_run
        cross = account_run(res.alphas, res.gammas, res.sensitivities, hp["L"], EPS, delta, other)
        exc = res.objective - f_star
        out["methods"][LABEL[(mech, acc)]] = {
            "hyperparameters": hp, "multiplier": cal.multiplier, "shape": cal.shape,
            "variance_factor": cal.variance, "noise_std_coord": [float(s) for s in dpcd_noise_std(cal, res.sensitivities)],
            "certified_delta": res.privacy.delta, "certified_epsilon": res.privacy.epsilon_at_target,
            "other_accountant": {"accountant": other, "epsilon_at_delta": cross.epsilon_at_target, "delta_at_eps": cross.delta},
            "excess_objective": summarise(exc), "test_error": summarise(test_error(loss, Xt, yt, res.theta)),
            "excess_raw": [float(v) for v in exc],
            "trace_median": [float(v) for v in np.median(res.objective_trace - f_star, axis=0)],
        }
        log(f"  {name}/{loss}+{reg}: {LABEL[(mech, acc)]:16s} L={hp['L']:2d} tau={hp['tau']:<4} C={hp['C']:<4} "
            f"g={cal.multiplier:8.3f} b={cal.shape:.3g} var={cal.variance:10.2f} "
            f"excess med={np.median(exc):.4f} mean={exc.mean():.4f}")
    # the same hyperparameters for all four noises (those tuned for Gaussian + zCDP): isolates the noise
    hp = out["methods"]["Gaussian + zCDP"]["hyperparameters"]
    same = {}
    for k, (mech, acc) in enumerate(METHODS):
        cal = calibration(hp["L"], K, delta, mech, acc)
        res = dp_coordinate_descent(Xp, yp, loss=loss, regularizer=reg, lam=LAM, n_passes=hp["L"], step=hp["tau"],
                                    clip=hp["C"], noise=cal, smoothness=M, random_state=seed0 + 100, n_runs=n_seeds,
                                    verify=False)  # same calibrations as above, already certified
        same[LABEL[(mech, acc)]] = summarise(res.objective - f_star)
    out["same_hyperparameters"] = {"hyperparameters": hp, "excess_objective": same}
    # a single pass (L = 1 fixed; tau, C tuned on the public split): the fewest releases DP-CD can make
    single = {}
    for k, (mech, acc) in enumerate(METHODS):
        hp1 = tune(data["public"], N, M, loss, reg, delta, mech, acc, seed=seed0 + 104729, passes=[1])
        cal = calibration(1, K, delta, mech, acc)
        res = dp_coordinate_descent(Xp, yp, loss=loss, regularizer=reg, lam=LAM, n_passes=1, step=hp1["tau"],
                                    clip=hp1["C"], noise=cal, smoothness=M, random_state=seed0 + 200, n_runs=n_seeds)
        assert res.privacy.ok
        single[LABEL[(mech, acc)]] = {"hyperparameters": hp1, "variance_factor": cal.variance, "shape": cal.shape,
                                      "excess_objective": summarise(res.objective - f_star)}
    out["single_pass"] = single
    return out


def noise_curve(eps, delta, ns):
    rows = []
    for n in ns:
        row = {"n_releases": n}
        for mech, acc in METHODS:
            c = calibrate_dpcd_noise(eps, delta, 1, n, mech, acc)
            row[LABEL[(mech, acc)]] = {"variance_factor": c.variance, "shape": c.shape}
        rows.append(row)
        log(f"  eps = {eps:g}, n = {n:4d}: " + ", ".join(f"{k} {row[k]['variance_factor']:.4g} (b={row[k]['shape']:.2g})"
                                           for k in LABEL.values()))
    return rows


def shape_landscape(eps, delta, ns, shapes):
    """Calibrated variance with the FH shape b forced, relative to b = 0 (the Gaussian), per accountant."""
    out = []
    for n in ns:
        for acc in ("zcdp", "pld"):
            base = calibrate_dpcd_noise(eps, delta, 1, n, "flipped_huber", acc, shape=0.0).variance
            row = {"n_releases": n, "accountant": acc,
                   "ratio": [calibrate_dpcd_noise(eps, delta, 1, n, "flipped_huber", acc, shape=b).variance / base
                             for b in shapes]}
            out.append(row)
            log(f"  shape landscape n = {n}, {acc}: " + ", ".join(f"b={b:g}: {r:.3f}" for b, r in zip(shapes, row["ratio"])))
    return {"epsilon": eps, "delta": delta, "shapes": shapes, "rows": out}


# ---------------------------------------------------------------------------
# output
# ---------------------------------------------------------------------------


def fmt(s, digits=4):
    return f"{s['median']:.{digits}f} [{s['q1']:.{digits}f}, {s['q3']:.{digits}f}]"


def fmt_mean(s, digits=4):
    return f"{s['mean']:.{digits}f} ± {s['se']:.{digits}f}"


def markdown(results, curve, n_seeds, runtime):
    lines = [BEGIN, "",
             f"_Generated by `python scripts/run_dpcd_experiment.py` ({n_seeds} seeds per method, "
             f"runtime {runtime:.0f} s). eps = {EPS:g}, delta = 1/N^2 (N = size of the private split)._", ""]
    for r in results:
        err = "test MSE" if r["loss"] == "squared" else "test error rate"
        lines += [f"#### {r['dataset']}: {r['loss']} loss + {r['regularizer']} (lam = {r['lam']:g}), "
                  f"N = {r['N_private']} private / {r['N_public']} public / {r['N_test']} test, K = {r['K']}, "
                  f"delta = {r['delta']:.3g}", "",
                  f"| method | L, tau, C (tuned on public split) | noise std / lambda_i (b = alpha/gamma) | "
                  f"excess objective F - F*: median [IQR] | mean ± s.e. | {err}: median [IQR] | eps by the other accountant |",
                  "|---|---|---|---|---|---|---|",
                  f"| non-private CD (converged) | - | - | 0 | 0 | {r['nonprivate']['test_error']:.4f} | - |"]
        for name, m in r["methods"].items():
            hp = m["hyperparameters"]
            oth = m["other_accountant"]
            lines.append(f"| {name} | {hp['L']}, {hp['tau']:g}, {hp['C']:g} | {math.sqrt(m['variance_factor']):.2f} "
                         f"({m['shape']:.2g}) | {fmt(m['excess_objective'])} | {fmt_mean(m['excess_objective'])} | "
                         f"{fmt(m['test_error'])} | {oth['accountant']}: {oth['epsilon_at_delta']:.3f} |")
        s = r["same_hyperparameters"]
        hp = s["hyperparameters"]
        lines += ["", f"Same hyperparameters for all (L = {hp['L']}, tau = {hp['tau']:g}, C = {hp['C']:g}), "
                      "excess objective median [IQR]: " +
                  "; ".join(f"{k} {fmt(v)}" for k, v in s["excess_objective"].items()), ""]
        sp = r["single_pass"]
        lines += [f"Single pass (L = 1, n = K = {r['K']} releases; tau, C tuned per method), excess objective median [IQR] "
                  "(noise std / lambda_i, b): " +
                  "; ".join(f"{k} {fmt(v['excess_objective'])} ({math.sqrt(v['variance_factor']):.2f}, {v['shape']:.2g})"
                            for k, v in sp.items()), ""]
        sc = r["sklearn_check"]
        lines.append(f"F* = {r['F_star']:.8f}: the smaller of non-private CD after 5000 passes ({sc['F_cd']:.10f}) and "
                     f"scikit-learn ({sc['F_sklearn']:.10f}); max |theta_CD - theta_sklearn| = {sc['max_abs_theta_diff']:.1e}.")
        lines.append("")
    for cv in curve["curves"]:
        lines += ["", f"#### Calibrated noise variance per release vs the number of releases n = L K "
                  f"(eps = {cv['epsilon']:g}, delta = {curve['delta']:.3g}), relative to Gaussian + PLD", "",
                  "| n | Gaussian + PLD (var / lambda^2) | Gaussian + zCDP | FH + zCDP (b) | FH + PLD (b) |",
                  "|---|---|---|---|---|"]
        for row in cv["rows"]:
            gp = row["Gaussian + PLD"]["variance_factor"]
            lines.append(f"| {row['n_releases']} | {gp:.4g} | {row['Gaussian + zCDP']['variance_factor'] / gp:.3f} | "
                         f"{row['FH + zCDP']['variance_factor'] / gp:.3f} ({row['FH + zCDP']['shape']:.2g}) | "
                         f"{row['FH + PLD']['variance_factor'] / gp:.3f} ({row['FH + PLD']['shape']:.2g}) |")
    ls = curve["landscape"]
    lines += ["", f"#### Forcing a flipped Huber shape: calibrated variance at b = alpha/gamma relative to b = 0 "
              f"(eps = {ls['epsilon']:g}, delta = {ls['delta']:.3g})", "",
              "| n | accountant | " + " | ".join(f"b = {b:g}" for b in ls["shapes"]) + " |",
              "|---|---|" + "---|" * len(ls["shapes"])]
    for row in ls["rows"]:
        lines.append(f"| {row['n_releases']} | {row['accountant']} | " + " | ".join(f"{r:.3f}" for r in row["ratio"]) + " |")
    lines += ["", END]
    return "\n".join(lines)


def write_doc(path, block):
    if os.path.exists(path):
        text = open(path).read()
        if BEGIN in text and END in text:
            text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
        else:
            text = text.rstrip() + "\n\n" + block + "\n"
    else:
        text = "# DP coordinate descent\n\n" + block + "\n"
    with open(path, "w") as f:
        f.write(text)


def figures(results, curve, outdir):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib not installed: no figures (optional extra 'plot')")
        return []
    os.makedirs(outdir, exist_ok=True)
    paths = []
    colors = {"Gaussian + zCDP": "#1f77b4", "FH + zCDP": "#ff7f0e", "Gaussian + PLD": "#2ca02c", "FH + PLD": "#d62728"}
    ncol = min(3, len(results))
    nrow = int(math.ceil(len(results) / ncol))
    fig, axes = plt.subplots(nrow, ncol, figsize=(4.4 * ncol, 3.8 * nrow), squeeze=False)
    for ax in axes.ravel()[len(results):]:
        ax.axis("off")
    for ax, r in zip(axes.ravel(), results):
        names = list(r["methods"])
        data = [np.maximum(r["methods"][k]["excess_raw"], 1e-8) for k in names]
        bp = ax.boxplot(data, tick_labels=[k.replace(" + ", "\n+ ") for k in names], showfliers=False, patch_artist=True)
        for patch, k in zip(bp["boxes"], names):
            patch.set_facecolor(colors[k])
            patch.set_alpha(0.5)
        ax.set_yscale("log")
        ax.set_title(f"{r['dataset']}: {r['loss']} + {r['regularizer']}\nN={r['N_private']}, K={r['K']}", fontsize=9)
        ax.tick_params(axis="x", labelsize=7)
    for row in axes:
        row[0].set_ylabel("excess objective F - F* (private split)", fontsize=8)
    fig.suptitle(f"DP-CD at eps = {EPS:g}, delta = 1/N^2: {len(results[0]['methods']['FH + PLD']['excess_raw'])} seeds, "
                 "hyperparameters tuned on a public split", fontsize=10)
    fig.tight_layout()
    p = os.path.join(outdir, "dpcd_results.png")
    fig.savefig(p, dpi=120)
    plt.close(fig)
    paths.append(p)

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for cv, ls in zip(curve["curves"], ["-", ":"]):
        ns = [row["n_releases"] for row in cv["rows"]]
        for k in ["Gaussian + zCDP", "FH + zCDP", "FH + PLD"]:
            ratio = [row[k]["variance_factor"] / row["Gaussian + PLD"]["variance_factor"] for row in cv["rows"]]
            ax.plot(ns, ratio, ls, marker="o" if "FH" in k else "s", color=colors[k], ms=4,
                    label=f"{k}, eps = {cv['epsilon']:g}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.axhline(1.0, color="gray", lw=0.5)
    ax.set_xlabel("number of composed releases n = L K")
    ax.set_ylabel("calibrated noise variance / (Gaussian + PLD)")
    ax.set_title(f"Least noise per release meeting (eps, {curve['delta']:.2g})-DP for n releases", fontsize=10)
    ax.legend(fontsize=7)
    fig.tight_layout()
    p = os.path.join(outdir, "dpcd_noise_vs_releases.png")
    fig.savefig(p, dpi=120)
    plt.close(fig)
    paths.append(p)

    fig, axes = plt.subplots(nrow, ncol, figsize=(4.4 * ncol, 3.4 * nrow), squeeze=False)
    for ax in axes.ravel()[len(results):]:
        ax.axis("off")
    for ax, r in zip(axes.ravel(), results):
        for k, m in r["methods"].items():
            tr = np.maximum(m["trace_median"], 1e-8)
            if "Gaussian" in k:  # wide translucent lines under thin FH lines: coinciding curves stay visible
                ax.plot(range(len(tr)), tr, "-", color=colors[k], label=k, lw=4, alpha=0.45)
            else:
                ax.plot(range(len(tr)), tr, "o:", color=colors[k], label=k, ms=3, lw=1.2)
        ax.set_yscale("log")
        ax.set_xlabel("pass")
        ax.set_title(f"{r['dataset']}: {r['loss']} + {r['regularizer']}", fontsize=9)
    for row in axes:
        row[0].set_ylabel("median excess objective", fontsize=8)
    axes[0, 0].legend(fontsize=7)
    fig.tight_layout()
    p = os.path.join(outdir, "dpcd_traces.png")
    fig.savefig(p, dpi=120)
    plt.close(fig)
    paths.append(p)
    return paths


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=100, help="noise seeds per method (>= 10; default 100)")
    ap.add_argument("--seed", type=int, default=12345, help="base seed")
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "dpcd.md"), help="markdown file to update ('' to skip)")
    ap.add_argument("--figures", default=os.path.join(ROOT, "docs", "figures"), help="figure directory ('' to skip)")
    ap.add_argument("--json", default="", help="write all numbers to this JSON file")
    ap.add_argument("--problems", default="all", help="comma-separated subset of indices 0-4 into PROBLEMS (default all)")
    args = ap.parse_args(argv)
    if args.seeds < 10:
        ap.error("--seeds must be >= 10")
    try:
        import sklearn  # noqa: F401
    except ImportError:
        sys.exit("scikit-learn is required: pip install 'fhsym[examples]'")
    t0 = time.time()
    probs = PROBLEMS if args.problems == "all" else [PROBLEMS[int(i)] for i in args.problems.split(",")]
    results = []
    for name, loss, reg in probs:
        log(f"{name}: {loss} + {reg}")
        results.append(run_problem(name, loss, reg, args.seeds, args.seed))
    n_diab = load("diabetes")["private"][0].shape[0]
    delta_c = 1.0 / n_diab**2
    log(f"noise vs number of releases (delta = {delta_c:.3g})")
    ns = [1, 2, 3, 5, 8, 11, 22, 33, 55, 110, 310]
    curve = {"delta": delta_c, "curves": [{"epsilon": e, "rows": noise_curve(e, delta_c, ns)} for e in CURVE_EPS]}
    curve["landscape"] = shape_landscape(EPS, delta_c, [4, 11, 55], [0.1, 0.3, 1.0, 3.0, 10.0])
    runtime = time.time() - t0
    block = markdown(results, curve, args.seeds, runtime)
    print(block)
    if args.doc:
        write_doc(args.doc, block)
        log(f"wrote {args.doc}")
    if args.figures:
        for p in figures(results, curve, args.figures):
            log(f"wrote {p}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"results": results, "noise_curve": curve, "runtime_s": runtime}, f, indent=1)
    log(f"done in {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
