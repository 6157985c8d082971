"""The frontier's data file, figures and page, from the sweep cache (see scripts/frontier.py).

``assemble(cache, out)`` writes ``fhsym/applications/data/frontier.json.gz`` (gzip-compressed JSON):

* ``calibrations``: ``{call_key: {"call", "variance", "parameters", "method", "achieved_delta", "seconds",
  "certificate"}}`` -- one record per distinct :func:`fhsym.calibrate` call computed, with its certificate
  (``Certificate.to_dict()``); ``call_key`` is the call's keyword arguments as sorted JSON
  (:func:`fhsym.applications.advise.call_key`);
* ``entries``: one per release of the grid (norm, dim, compositions, epsilon, delta) with each candidate's
  variance and status (``computed``, ``skipped: reason``, ``not computed``, ``error: ...``), the ranking of
  the computed candidates, the best, FH's gain in dB over the best other, and ``complete``;
* ``errors``: ``{call_key: error}`` of the calls that failed (the advisor reports them instead of re-running them);
* ``optimum``: the certified 1-D optimum interval (``fhsym.optimal_variance``) at each (eps, delta) computed;
* ``grid``, ``candidates``, ``summary`` (counts, task time), ``tl_vs_laplace``, ``verification`` (after ``verify``).

``report(data)`` draws ``docs/figures/frontier_*.png`` and writes ``docs/frontier.md``; every number on
the page is read from the data file.
"""

from __future__ import annotations

import gzip
import json
import math
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fhsym import __version__  # noqa: E402
from fhsym.applications import frontier as F  # noqa: E402
from fhsym.applications.advise import call_key  # noqa: E402
from fhsym.applications.frontier_shards import certificates_digest, shard_dir, write_shards  # noqa: E402
from fhsym.applications.sweeps import DiskCache  # noqa: E402

FIG = ROOT / "docs" / "figures"
PAGE = ROOT / "docs" / "frontier.md"
DATA = ROOT / "fhsym" / "applications" / "data" / "frontier.json.gz"
TL_RELEVANCE = 1.05
FORMAT = "fhsym-frontier/2"
G, LK, LP, TLN, S, SP, O = (F.Gaussian.name, F.LAPLACE_KFOLD, F.LAPLACE_PURE, F.TruncatedLaplace.name,
                            F.Staircase.name, F.STAIRCASE_PLD, F.OSGT.name)
TS = F.TruncatedStaircase.name  # a one-coordinate candidate (K T = 1 only: F.ONE_D_CANDIDATES)
SHORT = {F.FH: "FH", G: "G", LK: "L", LP: "Lp", TLN: "TL", S: "S", SP: "SP", O: "O", TS: "TS"}
LONG = {F.FH: "flipped Huber", G: "Gaussian (analytic)", LK: "Laplace (exact K-fold)", LP: "Laplace (pure, l1)",
        TLN: "truncated Laplace", S: "staircase (pure)", SP: "staircase (PLD)", O: "OSGT", TS: "truncated staircase"}


def _quantile(rec) -> "float | None":
    """The 99.9 % quantile of |noise| of a record's calibrated law (its exact isf)."""
    try:
        return F.abs_quantile(rec["certificate"]["mechanism"], rec["parameters"])
    except (ValueError, OverflowError):
        return None


def _kept_quantiles(path: "Path | None") -> dict:
    """``{call_key: ((call, law, certificate), quantile_999)}`` of a previous data file (or ``{}``)."""
    if path is None:
        return {}
    return {k: (_law(r), r.get("quantile_999")) for k, r in load(path)["calibrations"].items()}


def _law(rec) -> tuple:
    """What a record's 99.9 % quantile is a function of: its call, law and certificate."""
    return rec["call"], rec["parameters"], rec["certificate"]


def assemble(cache_dir: Path, out: Path, quantiles_from: "Path | None" = None) -> int:
    """Write the data file ``out`` from the cache.  ``quantiles_from``: a previous data file whose recorded 99.9 %
    quantile each calibration keeps where its call, law and certificate are unchanged (``frontier.py refresh``:
    only the stage recomputed may change); every other quantile is computed from the law's isf."""
    cache = DiskCache(cache_dir)
    kept = _kept_quantiles(quantiles_from)
    n_kept = 0
    cals, errors = {}, {}
    entries = []
    t0 = time.perf_counter()
    for r in F.releases():
        calls = F.calls_of(r)
        var, status, quant, members, box_var = {}, {}, {}, {}, {}
        for c, call in calls.items():
            k = call_key(call)
            if k not in cals and k not in errors:
                rec = cache.get(F.frontier_task(call))
                if rec is None:
                    errors.setdefault(k, None)
                elif "error" in rec:
                    errors[k] = rec["error"]
                else:
                    res = rec["result"]
                    cals[k] = {"call": call, "variance": res["variance"], "parameters": res["parameters"],
                               "method": res["method"], "achieved_delta": res["achieved_delta"],
                               "seconds": rec["seconds"], "certificate": res["certificate"]}
                    if k in kept and kept[k][0] == _law(cals[k]):
                        cals[k]["quantile_999"] = kept[k][1]
                        n_kept += 1
                    else:
                        cals[k]["quantile_999"] = _quantile(cals[k])
            if k in cals:
                var[c], status[c], quant[c] = cals[k]["variance"], "computed", cals[k]["quantile_999"]
            elif errors.get(k):
                var[c], status[c], quant[c] = None, f"error: {errors[k]}", None
            else:
                var[c], status[c], quant[c] = None, "not computed", None
        if r["norm"] != "linf" and r["dim"] > 1:  # balls: FH and OSGT at shape 0 are the Gaussian
            for c in F.GAUSSIAN_MEMBER:
                v, via = F.ball_best(c, var[c], var[F.Gaussian.name])
                members[c] = via
                if via != "box":
                    box_var[c] = var[c]
                    var[c], quant[c] = v, quant[F.Gaussian.name]
        e = F.entry(var, members)
        entries.append({**r, "variances": var, "quantiles": quant, "status": status, "members": members,
                        "box_variances": box_var, **e})
    # truncated Laplace against the K-fold Laplace, where both were computed (supports the TL pruning rule)
    TL, LK = F.TruncatedLaplace.name, F.LAPLACE_KFOLD
    ratios = [(en["variances"][LK] / en["variances"][TL], en) for en in entries
              if en["variances"][TL] and en["variances"][LK] and en["dim"] * en["compositions"] > 1
              and en["norm"] == "linf"]
    worst = max(ratios, key=lambda x: x[0]) if ratios else (None, None)
    tl_gap = None if worst[0] is None else worst[0] - 1.0
    box = {(en["dim"], en["compositions"], en["epsilon"], en["delta"]): en for en in entries if en["norm"] == "linf"}
    for en in entries:  # the box releases first: the rule is decided there
        if en["norm"] != "linf" or en["status"][TL] != "not computed":
            continue
        lap = en["variances"][LK]
        others = [v for c, v in en["variances"].items() if v is not None and c not in (TL, LK)]
        if lap is not None and others and tl_gap is not None and lap > TL_RELEVANCE * min(others):
            en["status"][TL] = (
                f"skipped: the K-fold Laplace variance is {100 * (lap / min(others) - 1):.1f} % above the best other "
                f"candidate, and truncated Laplace was at most {100 * tl_gap:.3f} % below the K-fold Laplace where "
                f"both were computed")
    for en in entries:  # a ball: truncated Laplace is the same box call as the box release of the same (K, T)
        if en["norm"] != "linf" and en["status"][TL] == "not computed":
            st = box[(en["dim"], en["compositions"], en["epsilon"], en["delta"])]["status"][TL]
            if st.startswith("skipped"):
                en["status"][TL] = st + " (decided over the box: the same call)"
    for en in entries:  # 'complete': every candidate computed, skipped by the rule, or failed to certify (listed)
        en["complete"] = all(s == "computed" or s.startswith(("skipped", "error")) for s in en["status"].values())
        en["failed"] = sorted(c for c, s in en["status"].items() if s.startswith("error"))
    optimum = []
    for d in F.DELTAS:
        for e in F.EPSILONS:
            rec = cache.get(F.optimum_task(e, d))
            if rec is not None and "error" not in rec:
                optimum.append({**rec["result"], "seconds": rec["seconds"]})
            elif rec is not None:
                optimum.append({"epsilon": e, "delta": d, "error": rec["error"]})
    task_seconds = sum(c["seconds"] for c in cals.values())
    summary = {
        "releases": len(entries),
        "complete": sum(e["complete"] for e in entries),
        "complete_with_failed_candidates": sum(e["complete"] and bool(e["failed"]) for e in entries),
        "calibrations": len(cals),
        "errors": sum(1 for v in errors.values() if v),
        "not_computed_calls": sum(1 for v in errors.values() if v is None),
        "task_seconds": round(task_seconds, 1),
        "optimum_seconds": round(sum(o.get("seconds", 0.0) for o in optimum), 1),
        "computed_per_candidate": {c: sum(e["status"].get(c) == "computed" for e in entries)
                                   for c in F.CANDIDATES + F.ONE_D_CANDIDATES},
        "skipped_per_candidate": {c: sum(e["status"].get(c, "").startswith("skipped") for e in entries)
                                  for c in F.CANDIDATES + F.ONE_D_CANDIDATES},
    }
    data = {
        "format": FORMAT,
        "fhsym_version": __version__,
        "generated_by": "python scripts/frontier.py run && python scripts/frontier.py assemble",
        "generated_at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "grid": {"epsilon": list(F.EPSILONS), "delta": list(F.DELTAS), "dim": list(F.DIMS),
                 "compositions": list(F.COMPOSITIONS), "norm": list(F.NORMS)},
        "candidates": list(F.CANDIDATES),
        "one_d_candidates": list(F.ONE_D_CANDIDATES),  # candidates of the releases with K T = 1 only
        "gain": "fh_gain_db = 10 log10(variance of the best other computed candidate / variance of flipped Huber)",
        "quantile": f"quantile_999: the {F.QUANTILE_LEVEL} quantile of |noise| of one coordinate, the law's exact isf "
                    f"at {(1 - F.QUANTILE_LEVEL) / 2:g}",
        "balls": "over an l2/l1 ball (K > 1) flipped Huber and OSGT are the better of their box calibration and their "
                 "Gaussian member (alpha = 0, vartheta = 0: the Gaussian's calibration); 'members' says which",
        "osgt_theta_max": F.OSGT_THETA_MAX,
        "tl_vs_laplace": None if worst[1] is None else {
            "max_relative_gap": tl_gap, "at": {k: worst[1][k] for k in ("norm", "dim", "compositions", "epsilon", "delta")},
            "rule": f"truncated Laplace is calibrated where var(Laplace K-fold) <= {TL_RELEVANCE} x the best other candidate"},
        "summary": summary,
        "optimum": optimum,
        "errors": {k: v for k, v in sorted(errors.items()) if v},  # call_key -> the error of a call that failed
        "entries": entries,
        "calibrations": cals,
    }
    prev = quantiles_from if quantiles_from is not None else out  # the file this one replaces
    if prev.is_file():  # the certificates unchanged: the previous bulk re-check still describes them
        try:
            old = load(prev).get("verification")
        except (OSError, ValueError, EOFError):
            old = None
        if old and old.get("digest") == _digest(cals):
            data["verification"] = old
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, allow_nan=False, separators=(",", ":")).encode()
    out.write_bytes(gzip.compress(text, mtime=0) if out.suffix == ".gz" else text)
    _write_shards(out)
    print(f"wrote {out}: {summary['releases']} releases, {summary['complete']} complete, {len(cals)} calibrations "
          f"({task_seconds / 3600:.2f} h of task time), {len(optimum)} optimum intervals, "
          f"{out.stat().st_size / 1e6:.2f} MB in {time.perf_counter() - t0:.0f} s"
          + (f"; {n_kept} quantiles kept from {quantiles_from}" if quantiles_from is not None else ""))
    return 0


def _digest(cals) -> str:
    """sha256 of every record's certificate, by call key: what a bulk re-check is a statement about (the same
    function digests each shard's certificates: fhsym.applications.frontier_shards)."""
    return certificates_digest(cals)


def _write_shards(path: Path) -> None:
    """The advisor's per-(eps, delta) index of the data file (fhsym.applications.frontier_shards), rewritten from the
    bytes just written so that it cannot go stale (tests/test_frontier_shards.py checks it)."""
    n = write_shards(path)
    print(f"wrote {n} shards of {path.name} into {shard_dir(path)}")


def _check(item):
    """(key, ok, rigorous, reason, seconds) of one record's certificate (a worker of :func:`verify`)."""
    from fhsym._core.limits import Budget
    from fhsym.calibration.verify import check_certificate

    k, cert = item
    t0 = time.perf_counter()
    try:
        # the data file's own certificates are within the default budget (60 s, 2 GiB; the costliest, the
        # K-fold Laplace at dim 100000, is estimated at 50.3 s); a margin for a slower re-check of them
        v = check_certificate(cert, Budget(600.0, 8 << 30))
        out = (k, v.ok, v.rigorous, v.reason)
    except ValueError as exc:  # malformed: it does not hold
        out = (k, False, False, f"malformed: {exc}")
    return (*out, time.perf_counter() - t0)


def _since(data, base_path: Path):
    """The calibrations of ``data`` whose certificates a previous data file's full re-check already covers.

    ``base_path``'s verification record must describe its own certificates (its digest equal to their digest):
    then a certificate of ``data`` equal, under the same call key, to one of the base's was checked then with
    that record's verdict.  Returns (covered keys, the base's record, the base's failed keys)."""
    base = load(base_path)
    bv = base.get("verification")
    if not bv or bv.get("digest") != _digest(base["calibrations"]):
        raise SystemExit(f"--since {base_path}: its verification record does not describe its certificates (no record, "
                         f"or its digest differs from theirs); re-check everything (without --since)")
    if bv.get("incremental"):
        raise SystemExit(f"--since {base_path}: its record is itself incremental; use the data file of the last full "
                         f"re-check")
    old = base["calibrations"]
    covered = {k for k, r in data["calibrations"].items() if k in old and old[k]["certificate"] == r["certificate"]}
    failed = {call_key(f["call"]) for f in bv["failed"]}
    return covered, bv, failed


def verify(data_path: Path, workers: int = 1, since: "Path | None" = None) -> int:
    """Re-check the certificates of the data file with fhsym.verify_certificate; record the counts in the file.

    ``since``: the data file of an earlier full re-check (e.g. the committed one, ``git show HEAD:...``); only the
    certificates that differ from it (or are new) are re-checked, the others keep that re-check's verdict, and the
    record says so (``incremental``: the base's time, digest and counts, the calls re-checked now)."""
    data = load(data_path)
    t0 = time.perf_counter()
    covered, base, base_failed = _since(data, since) if since is not None else (set(), None, set())
    items = [(k, rec["certificate"]) for k, rec in data["calibrations"].items() if k not in covered]
    if workers > 1 and len(items) > 1:
        import multiprocessing as mp

        with mp.get_context("fork").Pool(workers) as pool:
            results = pool.map(_check, items, chunksize=16)
    else:
        results = [_check(it) for it in items]
    failed, rigorous, secs = [], 0, 0.0
    for k, ok, rig, reason, dt in results:
        rigorous += rig
        secs += dt
        if not ok:
            failed.append({"call": data["calibrations"][k]["call"], "reason": reason})
    if base is not None:  # the covered ones keep the base's verdicts
        failed += [f for f in base["failed"] if call_key(f["call"]) in covered]
        not_rigorous = base["checked"] - base["rigorous"]  # which ones is not recorded: count them all as covered
        rigorous += len(covered) - min(not_rigorous, len(covered))
    n = len(data["calibrations"])
    now = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    data["verification"] = {"checked": n, "ok": n - len(failed), "rigorous": rigorous, "failed": failed,
                            "digest": _digest(data["calibrations"]),
                            "seconds": round(secs + (base["seconds"] if base else 0.0), 1),
                            "by": "fhsym.calibration.verify.check_certificate", "at": base["at"] if base else now}
    if base is not None:
        data["verification"]["incremental"] = {
            "base": {k: base[k] for k in ("at", "digest", "checked", "ok", "rigorous", "seconds")},
            "unchanged": len(covered), "rechecked": len(items), "at": now, "seconds": round(secs, 1),
            "rechecked_calls": [data["calibrations"][k]["call"] for k, _ in items][:200],
            "rule": "a certificate equal, under the same call key, to one of the base's full re-check keeps that "
                    "re-check's verdict; every other certificate was re-checked at 'at'"}
    text = json.dumps(data, allow_nan=False, separators=(",", ":")).encode()
    data_path.write_bytes(gzip.compress(text, mtime=0) if data_path.suffix == ".gz" else text)
    _write_shards(data_path)
    what = (f"{len(items)} certificates re-checked ({len(covered)} unchanged since the full re-check of {base['at']}, "
            f"which covers them)" if base is not None else f"{n} certificates re-checked")
    print(f"{what}: {n - len(failed)} of {n} hold ({rigorous} proven: ball arithmetic, exact rationals or a proven PLD "
          f"re-computed on the recorded grid), {len(failed)} do not; {secs:.0f} s of task time, "
          f"{time.perf_counter() - t0:.0f} s wall")
    for f in failed[:20]:
        print("  FAILED", f["call"], f["reason"][:160])
    return 0 if not failed else 1


# ---------------------------------------------------------------------------
# figures and page


def _select(entries, **kw):
    return [e for e in entries if all(e[k] == v for k, v in kw.items())]


#: a gain within +-TIE_DB dB (0.23 % of the variance) is a tie
TIE_DB = 0.01
#: the paper's baselines: FH's gain over the better of the Gaussian and the K-fold Laplace
BASELINES = (G, LK)


def load(path: Path) -> dict:
    raw = path.read_bytes()
    return json.loads(gzip.decompress(raw) if path.suffix == ".gz" else raw)


def gain_over(e, others) -> "float | None":
    """FH's gain in dB over the best of ``others`` (None unless FH and every one of them were computed)."""
    v = e["variances"]
    if v[F.FH] is None or any(v[c] is None for c in others):
        return None
    return F.gain_db(v[F.FH], min(v[c] for c in others))


def _best_of(e, others) -> str:
    v = e["variances"]
    return min(others, key=lambda c: v[c])


def _heatmaps(entries, norm: str, T: int, path: Path, others=None) -> bool:
    """Heat maps over (K, eps), one panel per delta: FH's gain over the best other (or over ``others``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.colors import SymLogNorm

    def cell(e):
        if others is None:
            return (e["fh_gain_db"], e["best_other"]) if e["complete"] and e["fh_gain_db"] is not None else (None, None)
        g = gain_over(e, others)
        return (g, _best_of(e, others)) if g is not None else (None, None)

    sel = _select(entries, norm=norm, compositions=T)
    vals = [g for g, _ in map(cell, sel) if g is not None]
    if not vals:
        return False
    fig, axes = plt.subplots(2, 2, figsize=(13, 8.5), sharex=True, sharey=True, constrained_layout=True)
    Ks, E = list(F.DIMS), list(F.EPSILONS)
    lim = max(abs(min(vals)), abs(max(vals)), 0.1)
    # symmetric-log colours: |gain| <= TIE_DB (a tie) is white, and 0.05 dB shows as clearly as 10 dB
    cnorm = SymLogNorm(linthresh=TIE_DB, linscale=0.3, vmin=-lim, vmax=lim, base=10)
    im = None
    for ax, d in zip(axes.flat, F.DELTAS):
        Z = np.full((len(Ks), len(E)), np.nan)
        label = {}
        for e in _select(sel, delta=d):
            g, who = cell(e)
            if g is not None:
                i, j = Ks.index(e["dim"]), E.index(e["epsilon"])
                Z[i, j], label[i, j] = g, SHORT[who]
        im = ax.imshow(Z, aspect="auto", cmap="RdBu", norm=cnorm, origin="lower")
        for (i, j), b in label.items():
            ax.text(j, i, f"{Z[i, j]:+.2f}\n{b}", ha="center", va="center", fontsize=5.0,
                    color="white" if abs(Z[i, j]) > 0.3 * lim else "black")
        ax.set_title(f"delta = {d:g}")
        ax.set_xticks(range(len(E)))
        ax.set_xticklabels([f"{x:g}" for x in E], rotation=90, fontsize=7)
        ax.set_yticks(range(len(Ks)))
        ax.set_yticklabels([str(k) for k in Ks])
        ax.set_xlabel("epsilon")
        ax.set_ylabel("K (coordinates)")
    cb = fig.colorbar(im, ax=axes, shrink=0.8)
    against = "the best other mechanism" if others is None else "the better of " + " and ".join(LONG[c] for c in others)
    cb.set_label(f"FH gain over {against}, dB (blue: FH needs less noise)")
    set_name = {"linf": "l_inf box", "l2": "l2 ball", "l1": "l1 ball"}[norm]
    fig.suptitle(f"Flipped Huber's certified gain over {against}; unit {set_name}, T = {T} release(s)\n"
                 f"cell: gain (dB) and the mechanism compared: G Gaussian, L Laplace K-fold, Lp pure Laplace, SP staircase (PLD), "
                 f"TL truncated Laplace, S staircase, O OSGT, TS truncated staircase (K = 1 only)\nblank: not computed; symmetric-log colours, "
                 f"white: a tie (|gain| <= {TIE_DB} dB)", fontsize=9)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def report(data_path: Path) -> int:
    data = load(data_path)
    entries = data["entries"]
    FIG.mkdir(parents=True, exist_ok=True)
    figs = []
    for norm in F.NORMS:
        for T in F.COMPOSITIONS:
            for kind, others in (("best", None), ("baselines", BASELINES))[:2 if T == 1 else 1]:
                p = FIG / f"frontier_{kind}_{norm}_T{T}.png"
                if _heatmaps(entries, norm, T, p, others):
                    figs.append((kind, norm, T, p))
    from figures import ADVISOR, advisor_js, render  # scripts/figures.py: the pictures that open the pages

    for p in render(data, FIG):
        print(f"wrote {p}", file=sys.stderr)
    ADVISOR.parent.mkdir(parents=True, exist_ok=True)
    ADVISOR.write_text(advisor_js(data))
    page = render_page(data, figs)
    PAGE.write_text(page)
    print(page)
    print("README headline: " + headline(data))
    print(f"wrote {PAGE} and {len(figs)} figure(s)", file=sys.stderr)
    return 0


# ---------------------------------------------------------------------------
# the page: every number below is computed here from the data file


def _g(x: float) -> str:
    return f"{x:+.4f}"


def _set(values) -> str:
    """Grid values as a person writes a set: '{1e-05, 1e-06}' (not a Python list of strings)."""
    return "{" + ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in values) + "}"


def _eps_ranges(eps_list, grid=None) -> str:
    """Consecutive values of ``grid`` (default: the eps grid) as ranges: '0.05-0.3, 2'."""
    if not eps_list:
        return "none"
    grid = sorted(grid) if grid is not None else list(F.EPSILONS)
    idx = sorted(grid.index(x) for x in eps_list)
    runs, start = [], idx[0]
    for a, b in zip(idx, idx[1:] + [None]):
        if b != a + 1:
            runs.append((start, a))
            start = b
    return ", ".join(f"{grid[i]:g}" if i == j else f"{grid[i]:g}-{grid[j]:g}" for i, j in runs)


def _classify(g: float) -> str:
    return "win" if g > TIE_DB else ("loss" if g < -TIE_DB else "tie")


def _decided(es) -> list:
    """The entries whose class is not undecided (all of them if none is): where a largest gain may be read."""
    out = [e for e in es if _cls(e) != "undecided"]
    return out or es


def _cls(e) -> str:
    """An entry's class: a 'win' with a candidate that failed to certify is 'undecided' (the failed one might win)."""
    c = _classify(e["fh_gain_db"])
    return "undecided" if c == "win" and e["failed"] else c


def _table_best(entries, norm: str, T: int) -> list:
    """Per delta and K: FH against the best other candidate."""
    out = []
    for d in F.DELTAS:
        rows = []
        for K in F.DIMS:
            es = [e for e in _select(entries, norm=norm, compositions=T, delta=d, dim=K)
                  if e["complete"] and e["fh_gain_db"] is not None]
            if not es:
                continue
            cls = Counter(_cls(e) for e in es)
            top = max(_decided(es), key=lambda e: e["fh_gain_db"])
            bot = min(es, key=lambda e: e["fh_gain_db"])
            winners = Counter(SHORT[e["best"]] for e in es)
            und = f" (+{cls['undecided']} undecided)" if cls["undecided"] else ""
            rows.append(f"| {K} | {len(es)}/{len(F.EPSILONS)} | {cls['win']}{und} | {cls['tie']} | {cls['loss']} | "
                        f"{_g(top['fh_gain_db'])} at {top['epsilon']:g} ({SHORT[top['best_other']]}) | "
                        f"{_g(bot['fh_gain_db'])} at {bot['epsilon']:g} ({SHORT[bot['best_other']]}) | "
                        + ", ".join(f"{k} {n}" for k, n in winners.most_common()) + " |")
        if rows:
            out += [f"**delta = {d:g}**", "",
                    "| K | eps done | FH wins | ties | FH loses | largest gain, dB (at eps; vs) | "
                    "smallest gain, dB (at eps; vs) | best mechanism (count of eps) |",
                    "|---|---|---|---|---|---|---|---|", *rows, ""]
    return out


def _table_baselines(entries, norm: str, T: int) -> list:
    """Per delta and K: FH against the Gaussian and the K-fold Laplace (the paper's baselines)."""
    out = []
    for d in F.DELTAS:
        rows = []
        for K in F.DIMS:
            es = [e for e in _select(entries, norm=norm, compositions=T, delta=d, dim=K)
                  if gain_over(e, BASELINES) is not None]
            if not es:
                continue
            gs = {e["epsilon"]: gain_over(e, BASELINES) for e in es}
            wins = [x for x, g in gs.items() if g > TIE_DB]
            tie_g = [e["epsilon"] for e in es if abs(gain_over(e, (G,))) <= TIE_DB]
            tie_l = [e["epsilon"] for e in es if abs(gain_over(e, (LK,))) <= TIE_DB]
            top = max(gs, key=gs.get)
            done = sorted(gs)
            rows.append(f"| {K} | {len(es)}/{len(F.EPSILONS)} | {_eps_ranges(wins, done)} | {_g(gs[top])} at {top:g} | "
                        f"{_eps_ranges(tie_g, done)} | {_eps_ranges(tie_l, done)} |")
        if rows:
            out += [f"**delta = {d:g}**", "",
                    f"| K | eps done | eps where FH beats both by > {TIE_DB} dB | largest gain over both, dB | "
                    f"eps where FH ties the Gaussian | eps where FH ties the K-fold Laplace |",
                    "|---|---|---|---|---|---|", *rows, ""]
    return out


def _overall(entries, **kw):
    es = [e for e in _select(entries, **kw) if e["complete"] and e["fh_gain_db"] is not None]
    if not es:
        return None
    cls = Counter(_cls(e) for e in es)
    top = max(_decided(es), key=lambda e: e["fh_gain_db"])
    bases = [(gain_over(e, BASELINES), e) for e in es if gain_over(e, BASELINES) is not None]
    btop = max(bases, key=lambda x: x[0]) if bases else (None, None)
    return {"n": len(es), "cls": cls, "top": top, "best": Counter(e["best"] for e in es), "btop": btop,
            "bwins": sum(g > TIE_DB for g, _ in bases), "nb": len(bases)}


def _per_k(entries) -> list:
    """One plain line per K (l_inf box, T = 1, every delta computed): who is best, FH's gains, its ties."""
    out = []
    for K in F.DIMS:
        es = [e for e in _select(entries, norm="linf", compositions=1, dim=K) if e["complete"] and e["fh_gain_db"] is not None]
        if not es:
            continue
        gains = [e["fh_gain_db"] for e in es]
        best = Counter(LONG[e["best"]] for e in es).most_common()
        base = [(gain_over(e, BASELINES), e) for e in es if gain_over(e, BASELINES) is not None]
        tg = [e for e in es if gain_over(e, (G,)) is not None and abs(gain_over(e, (G,))) <= TIE_DB]
        tl = [e for e in es if gain_over(e, (LK,)) is not None
              and abs(gain_over(e, (LK,))) <= TIE_DB]
        deltas = sorted({e["delta"] for e in es}, reverse=True)
        line = (f"- **K = {K}** ({len(es)} releases, delta in {_set(deltas)}): the least noise is "
                + ", ".join(f"{c} ({n})" for c, n in best)
                + f"; FH's gain over the best other is {_g(min(gains))} to {_g(max(gains))} dB, strictly best "
                  f"(> {TIE_DB} dB) in {sum(g > TIE_DB for g in gains)}")
        if base:
            g, e = max(base, key=lambda x: x[0])
            line += (f"; over the Gaussian and the K-fold Laplace alone it gains at most {_g(g)} dB (eps = "
                     f"{e['epsilon']:g}, delta = {e['delta']:g}), more than {TIE_DB} dB in "
                     f"{sum(x > TIE_DB for x, _ in base)} of {len(base)}")
        done = sorted({e["epsilon"] for e in es})
        where = ([f"the Gaussian at eps {_eps_ranges(sorted({e['epsilon'] for e in tg}), done)}"] if tg else []) + (
            [f"the Laplace at eps {_eps_ranges(sorted({e['epsilon'] for e in tl}), done)}"] if tl else [])
        line += (f"; it ties the Gaussian in {len(tg)} and the K-fold Laplace in {len(tl)} of these releases"
                 + (f" ({'; '.join(where)})" if where else "") + ".")
        out.append(line)
    return out


def _rest(entries) -> str:
    """One sentence on the releases beyond the l_inf box at T = 1 (the balls and the compositions)."""
    es = [e for e in entries if not (e["norm"] == "linf" and e["compositions"] == 1)
          and e["complete"] and e["fh_gain_db"] is not None]
    if not es:
        return ""
    cls = Counter(_cls(e) for e in es)
    top = max(_decided(es), key=lambda e: e["fh_gain_db"])
    member = sum(e["members"].get(F.FH) == G for e in es)
    und = f", is undecided in {cls['undecided']} (a candidate failed)" if cls["undecided"] else ""
    return (f"Over the other {len(es)} releases (l2 and l1 balls, and T = 10 or 100 compositions) it is strictly best "
            f"in {cls['win']}, ties in {cls['tie']}{und} and loses in {cls['loss']} (largest gain {_g(top['fh_gain_db'])} dB; "
            f"over the balls its best certified calibration is its Gaussian member, alpha = 0, in {member}).")


def _ball_losses(entries, norm=None, T=None) -> str:
    """How many of FH's losses beyond the l_inf box at T = 1 (or over one ball at one T) go to pure Laplace, and why:
    every candidate but the Gaussian and pure Laplace is certified over the box that encloses the ball."""
    if norm is None:
        es = [e for e in entries if not (e["norm"] == "linf" and e["compositions"] == 1)]
    else:
        es = _select(entries, norm=norm, compositions=T)
    lost = [e for e in es if e["complete"] and e["fh_gain_db"] is not None and _cls(e) == "loss"]
    to_lp = sum(e["best_other"] == LP for e in lost)
    if not to_lp:
        return ""
    on_balls = sum(e["norm"] != "linf" for e in lost)
    where = (f" Of these {len(lost)} losses ({on_balls} of them over the l2 and l1 balls), {to_lp}" if norm is None
             else f" FH loses in {len(lost)} of these releases; {to_lp} of them")
    return (where + " go to pure Laplace over a ball: every mechanism but the Gaussian and pure Laplace is certified over the "
            "l_inf box that encloses the ball, so FH with alpha > 0 pays for the box while pure Laplace is calibrated "
            "at the ball's own l1 radius.")


def _optimum_rows(data):
    """The 1-D releases (K = 1, T = 1) with their certified optimum interval: (entry, optimum record)."""
    opt = {(o["epsilon"], o["delta"]): o for o in data.get("optimum", []) if "error" not in o}
    out = []
    for e in _select(data["entries"], norm="linf", compositions=1, dim=1):
        o = opt.get((e["epsilon"], e["delta"]))
        if o is not None:
            out.append((e, o))
    return out


#: the mechanisms of the 1-D optimum table (the staircase with PLD is the staircase in one coordinate)
ONE_D = (F.FH, G, LK, LP, TLN, S, O, TS)


def _excess(v, o) -> "float | None":
    """Percent above the optimum's certified lower end (>= the distance to the optimum)."""
    return None if v is None else 100.0 * (v / o["lower"] - 1.0)


def _excess_interval(v, o) -> "tuple[float, float]":
    """The certified interval of ``v``'s excess over the optimum V* in percent: V* in [lower, upper] gives
    excess in [v/upper - 1, v/lower - 1] (the first clipped at 0: no noise has less variance than V*)."""
    return max(0.0, 100.0 * (v / o["upper"] - 1.0)), 100.0 * (v / o["lower"] - 1.0)


def _pct(x: float) -> str:
    """A percentage with three significant digits after any leading zeros, at most two decimals above 1 %."""
    return f"{x:.2f} %" if x >= 1.0 else f"{x:.2g} %"


def _optimum_summary(data) -> list:
    rows = _optimum_rows(data)
    if not rows:
        return []
    out = []
    widths = [100.0 * (o["upper"] / o["lower"] - 1.0) for _, o in rows]
    for c in ONE_D:
        xs = [(_excess(e["variances"].get(c), o), e) for e, o in rows if e["variances"].get(c) is not None]
        if xs:
            lo, elo = min(xs, key=lambda x: x[0])
            hi, ehi = max(xs, key=lambda x: x[0])
            out.append(f"{LONG[c]} {lo:.2f} % (eps = {elo['epsilon']:g}, delta = {elo['delta']:g}) to {hi:.2f} % "
                       f"(eps = {ehi['epsilon']:g}, delta = {ehi['delta']:g})")
    return [f"In one coordinate (K = 1, T = 1; {len(rows)} releases) every mechanism is compared with the least variance "
            f"of *any* additive (eps, delta)-DP noise, `fhsym.optimal_variance(eps, delta)`: a certified interval "
            f"[lower, upper] (lower: a linear program's dual checked in exact rationals; upper: an explicit "
            f"piecewise-uniform noise proven private; width {min(widths):.2f} % to {max(widths):.2f} % of the lower "
            f"end). Variance above the lower end (an upper bound on the distance to the optimum; the distance itself "
            f"is at least this minus the width): " + "; ".join(out) + ".", ""]


def _optimum_table(data) -> list:
    rows = _optimum_rows(data)
    out = []
    for d in F.DELTAS:
        lines = []
        for e, o in rows:
            if e["delta"] != d:
                continue
            cells = [("-" if _excess(e["variances"].get(c), o) is None else f"{_excess(e['variances'][c], o):.2f}")
                     for c in ONE_D]
            lines.append(f"| {e['epsilon']:g} | {o['lower']:.6g} | {o['upper']:.6g} | "
                         f"{100 * (o['upper'] / o['lower'] - 1):.2f} | " + " | ".join(cells) + " |")
        if lines:
            out += [f"**delta = {d:g}** (variance above the optimum's lower end, %)", "",
                    "| eps | optimum: lower | upper | width, % | " + " | ".join(SHORT[c] for c in ONE_D) + " |",
                    "|---|---|---|---|" + "---|" * len(ONE_D), *lines, ""]
    return out


#: quantiles within this relative difference (0.01 dB of amplitude) are a tie
Q_TIE = 10.0 ** (TIE_DB / 20.0) - 1.0


def _quantile_lines(entries) -> list:
    """Per K (l_inf box, T = 1): who has the least 99.9 % quantile of |noise|, and FH against the variance-best."""
    out = []
    for K in F.DIMS:
        es = [e for e in _select(entries, norm="linf", compositions=1, dim=K)  # every candidate certified
              if e["complete"] and not e["failed"] and e["quantiles"].get(F.FH) is not None]
        if not es:
            continue
        least = Counter()
        fh_rel, fh_least = [], 0
        for e in es:
            q = {c: x for c, x in e["quantiles"].items() if x is not None and e["variances"][c] is not None}
            best = min(q, key=lambda c: (q[c], F.candidate_rank(c)))
            least[SHORT[best]] += 1
            others = [x for c, x in q.items() if c != F.FH]
            fh_least += bool(others) and q[F.FH] < min(others) / (1.0 + Q_TIE)
            vb = e["best"] if e["best"] != F.FH else (e["best_other"] or F.FH)
            fh_rel.append((100.0 * (q[F.FH] / q[vb] - 1.0), e, vb))
        lo = min(fh_rel, key=lambda x: x[0])
        hi = max(fh_rel, key=lambda x: x[0])
        out.append(f"- **K = {K}** ({len(es)} releases): least quantile " + ", ".join(f"{k} {n}" for k, n in
                   least.most_common()) + f"; FH strictly least (by > {100 * Q_TIE:.3f} %) in {fh_least}; FH's quantile "
                   f"against the variance-best other mechanism's: {lo[0]:+.2f} % (eps = {lo[1]['epsilon']:g}, "
                   f"delta = {lo[1]['delta']:g}, {SHORT[lo[2]]}) to {hi[0]:+.2f} % (eps = {hi[1]['epsilon']:g}, "
                   f"delta = {hi[1]['delta']:g}, {SHORT[hi[2]]}).")
    return out


def _osgt_shapes(data) -> str:
    """The largest OSGT shape theta = vartheta/varrho the calibrations picked, against the scan's cap."""
    cals = data["calibrations"]
    th = [(r["parameters"]["vartheta"] / r["parameters"]["varrho"], r) for r in cals.values()
          if r["call"]["mechanism"] == O]
    if not th:
        return ""
    top, rec = max(th, key=lambda x: x[0])
    call = rec["call"]
    near = [r for t, r in th if t >= 0.5 * F.OSGT_THETA_MAX]
    # OSGT tends to Laplace as theta -> inf: how far below the Laplace of the same call the capped ones are
    lap = {call_key({**r["call"], "mechanism": F.Laplace.name, "method": "exact"}): r["variance"] for r in cals.values()
           if r["call"]["mechanism"] == F.Laplace.name and r["call"]["method"] == "exact"}
    gaps = [1.0 - r["variance"] / lap[k] for r in near
            if (k := call_key({kk: v for kk, v in r["call"].items() if kk != "theta_max"}
                              | {"mechanism": F.Laplace.name, "method": "exact"})) in lap]
    text = (f"OSGT's shape scan reaches theta = vartheta/varrho = {F.OSGT_THETA_MAX:g} (the family's default stops at "
            f"1e4); the largest theta picked is {top:.4g} (K T = {call['dim'] * call['compositions']}, eps = "
            f"{call['epsilon']:g}, delta = {call['delta']:g}); {len(near)} of {len(th)} OSGT calibrations picked theta "
            f">= half the cap")
    if gaps:
        text += (f", and there OSGT's variance differs from the K-fold Laplace's (its theta -> inf limit) by at most "
                 f"{max(abs(g) for g in gaps):.2g} relative: the objective is flat beyond the cap")
    return text + "."


def _staircase_text(data) -> list:
    """What the proven PLD gives the staircase over basic composition (box releases, K T > 1)."""
    es = [e for e in data["entries"] if e["norm"] == "linf" and e["dim"] * e["compositions"] > 1
          and e["variances"][S] and e["variances"][SP]]
    if not es:
        return []
    g = [(10 * math.log10(e["variances"][S] / e["variances"][SP]), e) for e in es]
    hi, ehi = max(g, key=lambda x: x[0])
    small = [e for x, e in g if e["dim"] * e["compositions"] <= 5]
    gs = max((x for x, e in g if e in small), default=None)
    wins = Counter(e["dim"] * e["compositions"] for e in data["entries"] if e["norm"] == "linf" and e["best"] == SP)
    text = (f"**The composed staircase.** The staircase is not log-concave, so the corner argument of the K-fold claim "
            f"does not apply to it. Claim `pld-kfold-sup` (fhsym/accounting/claims.py) composes instead the symmetric "
            f"pair built from the supremum of the 1-D profile over the shifts 0 < d <= Delta, which dominates every "
            f"coordinate's pair whatever its shift; for the staircase with design sensitivity Delta0 = Delta that "
            f"supremum is the profile at Delta (the loss takes only -eps0, 0, eps0, and the set where it is eps0 grows "
            f"with the shift: `Staircase.worst_profile_enclosure`; checked against an independent piecewise integration "
            f"in tests/test_frontier_staircase.py), and the composition is exact on the lattice eps0 Z. Against basic "
            f"composition (eps0 = eps/(K T)) it needs up to {hi:.2f} dB less variance (K T = "
            f"{ehi['dim'] * ehi['compositions']}, eps = {ehi['epsilon']:g}, delta = {ehi['delta']:g})")
    if gs is not None:
        text += f", at most {gs:.4f} dB for K T <= 5"
    text += ("; it is the least-variance mechanism in " + (", ".join(f"K T = {k}: {n}" for k, n in sorted(wins.items()))
                                                           if wins else "no") + " box release(s).")
    return [text, ""]


def _search_misses(data) -> list:
    """Calibrations at a Gaussian member (FH alpha = 0, OSGT vartheta = 0) noisier than the Gaussian's own
    calibration of the same box call: certified, but the search missed the Gaussian's scale."""
    cals = data["calibrations"]
    gauss = {}
    for r in cals.values():
        c = r["call"]
        if c["mechanism"] == G and "sensitivity" in c:
            gauss[(c["epsilon"], c["delta"], c["dim"], c["compositions"], c["sensitivity"])] = r["variance"]
    out = []
    for r in cals.values():
        c, p = r["call"], r["parameters"]
        if c["mechanism"] in (F.FH, O) and p.get("alpha", p.get("vartheta")) == 0.0:
            g = gauss.get((c["epsilon"], c["delta"], c["dim"], c["compositions"], c.get("sensitivity")))
            if g is not None and r["variance"] > g * (1 + 1e-6):
                out.append((r["variance"] / g, c))
    return sorted(out, key=lambda x: -x[0])


def headline(data) -> str:
    """The README's frontier paragraph, from the data."""
    o = _overall(data["entries"], norm="linf", compositions=1)
    if o is None:
        return ""
    g, e = o["btop"]
    lost = Counter(x["best_other"] for x in _select(data["entries"], norm="linf", compositions=1)
                   if x["complete"] and x["fh_gain_db"] is not None and x["fh_gain_db"] < -TIE_DB)
    losers = [f"{LONG[c]} {n}" for c, n in lost.most_common()]
    text = (f"Measured, not assumed (docs/frontier.md): over {o['n']} certified releases (unit l_inf box, one release, "
            f"K up to 1000), flipped Huber needs strictly less noise (by > {TIE_DB} dB) than every other mechanism "
            f"fhsym implements in {o['cls']['win']}; it ties the best within {TIE_DB} dB in {o['cls']['tie']} and "
            f"loses in {o['cls']['loss']} (to " + ", ".join(losers) + "). Against the Gaussian and "
            f"the Laplace alone, its gain is at most {_g(g)} dB (K = {e['dim']}, eps = {e['epsilon']:g}, "
            f"delta = {e['delta']:g}). ")
    rows = _optimum_rows(data)
    if rows:
        fh = [(_excess_interval(x["variances"][F.FH], op), x) for x, op in rows if x["variances"][F.FH] is not None]
        (hi_u, hi_l), ehi = max(fh, key=lambda y: y[0][1])
        (lo_u, lo_l), elo = min(fh, key=lambda y: y[0][1])
        text += (f"In one coordinate the least variance of any additive noise lies in a certified interval "
                 f"(`fhsym.optimal_variance`); FH's variance is above it by {_pct(lo_u)} to {_pct(lo_l)} at the least "
                 f"(eps = {elo['epsilon']:g}, delta = {elo['delta']:g}) and by {_pct(hi_u)} to {_pct(hi_l)} at the most "
                 f"(eps = {ehi['epsilon']:g}, delta = {ehi['delta']:g}), each range from the excess over the interval's "
                 f"upper end to the excess over its lower end. ")
    return text + _rest(data["entries"])


def _coverage(data) -> list:
    entries = data["entries"]
    lines = ["| set | T | " + " | ".join(f"delta = {d:g}" for d in F.DELTAS) + " |",
             "|---|---|" + "---|" * len(F.DELTAS)]
    for norm in F.NORMS:
        for T in F.COMPOSITIONS:
            cells = []
            for d in F.DELTAS:
                es = _select(entries, norm=norm, compositions=T, delta=d)
                cells.append(f"{sum(e['complete'] for e in es)}/{len(es)}")
            lines.append(f"| {norm} | {T} | " + " | ".join(cells) + " |")
    return lines


def _incremental_text(ver) -> str:
    """What an incremental re-check (``verify --since``) covered: the certificates changed since the full one."""
    inc = ver.get("incremental")
    if not inc:
        return ""
    calls = inc["rechecked_calls"]
    kinds = Counter(c["mechanism"] for c in calls)
    return (f" The {inc['rechecked']} certificates that differ from the ones of that full re-check "
            f"(" + ", ".join(f"{n} {m}" for m, n in kinds.most_common()) + f") were re-checked at {inc['at']} "
            f"(`verify --since`), the other {inc['unchanged']} are byte for byte the ones checked then.")


def render_page(data, figs) -> str:
    entries, summ = data["entries"], data["summary"]
    total, done = summ["releases"], summ["complete"]
    L = ["# When does flipped Huber win? The certified frontier", "",
         "Generated by `python scripts/frontier_report.py report` from "
         "`fhsym/applications/data/frontier.json.gz` (fhsym " + data["fhsym_version"] + ", assembled "
         + data["generated_at"] + "); every number on this page is computed from that file. Each variance is "
         "the certified minimum per-coordinate variance of one mechanism for one release (`fhsym.calibrate`, or the "
         "composed staircase of `fhsym.applications.staircase_pld`; certificate in the data file, format 2, "
         "`fhsym.verify_certificate` re-checks it).", "",
         "Where flipped Huber wins (blue), ties within 0.01 dB (white) or loses (red) against the best other "
         "mechanism, in dB over K coordinates x eps, one panel per delta (unit l_inf box, one release):", "",
         "![FH gain over the best other mechanism, K x eps, per delta](figures/frontier_gain_best.png)", "",
         "Against the paper's baselines alone (the better of the Gaussian and the exact K-fold Laplace):", "",
         "![FH gain over the Gaussian and the K-fold Laplace, K x eps, per delta](figures/frontier_gain_baselines.png)",
         "",
         "In one coordinate, every mechanism's variance above the certified optimum of any additive noise "
         "([optimum](optimum.md)); the grey band is the optimum's certified interval:", "",
         "![Variance above the certified optimum, one coordinate](figures/optimum_excess.png)", "",
         "Your own release: the [interactive advisor](advisor.md) (the same data, in the browser) or "
         "`fhsym advise --epsilon E --delta D --dim K --plot advice.png`. The pictures are drawn by "
         "`python scripts/figures.py` (also run by the report); the counts in their titles are the ones below.", ""]
    o = _overall(entries, norm="linf", compositions=1)
    if o is not None:
        cls, top = o["cls"], o["top"]
        best_txt = ", ".join(f"{LONG[c]} {n}" for c, n in o["best"].most_common())
        L += ["## The answer", "",
              f"Over the {o['n']} computed releases of the unit l_inf box with one release (T = 1), flipped Huber "
              f"needs less noise than every other mechanism by more than {TIE_DB} dB in **{cls['win']}**, is within "
              f"{TIE_DB} dB of the best other in **{cls['tie']}**, and needs more noise by more than {TIE_DB} dB in "
              f"**{cls['loss']}**. Its largest gain over the best other mechanism is {_g(top['fh_gain_db'])} dB "
              f"(K = {top['dim']}, eps = {top['epsilon']:g}, delta = {top['delta']:g}, against "
              f"{LONG[top['best_other']]}). The mechanism with the least certified variance: {best_txt} (releases). "
              + (f"In {cls['undecided']} more FH is least among the certified candidates while another failed to "
                 f"certify (undecided). " if cls['undecided'] else "") + _rest(entries) + _ball_losses(entries), ""]
        if o["btop"][1] is not None:
            g, e = o["btop"]
            L += ["Per K (l_inf box, T = 1, the deltas computed):", "", *_per_k(entries), ""]
            L += [f"Against the paper's baselines only (the Gaussian and the exact K-fold Laplace), FH gains more than "
                  f"{TIE_DB} dB in {o['bwins']} of {o['nb']} releases, at most {_g(g)} dB (K = {e['dim']}, "
                  f"eps = {e['epsilon']:g}, delta = {e['delta']:g}). Where FH ties the Gaussian or the Laplace is "
                  f"in the second table of each section below.", ""]
    opt = _optimum_summary(data)
    if opt:
        L += ["## Distance to the optimum (one coordinate)", "", *opt, *_optimum_table(data)]
    ql = _quantile_lines(entries)
    if ql:
        L += ["## A second utility: the 99.9 % quantile of |noise|", "",
              f"The paper motivates flipped Huber by fewer outliers. For each certified calibration the data file holds "
              f"the {F.QUANTILE_LEVEL} quantile of |noise| of one coordinate, from the law's exact quantile function "
              f"(`isf((1 - {F.QUANTILE_LEVEL})/2)`; over a ball FH and OSGT take their Gaussian member's where that is "
              f"their best). Each mechanism at its own variance-optimal calibration; l_inf box, T = 1, the releases where "
              f"every candidate was certified:", "", *ql, ""]
    L += ["## What is compared", "",
          "| candidate | calibration |", "|---|---|",
          "| flipped Huber (FH) | exact K T-fold profile over the box (Theorem 3 in 1-D), alpha and gamma optimised; "
          "over a ball also its alpha = 0 member (the Gaussian) |",
          "| Gaussian (G) | analytic Gaussian at the set's l2 radius times sqrt(T) |",
          "| Laplace K-fold (L) | exact K T-fold profile over the box |",
          "| pure Laplace (Lp) | pure eps-DP at the set's l1 radius times T |",
          "| truncated Laplace (TL) | exact K T-fold profile over the box |",
          "| staircase, pure (S) | pure eps/(K T)-DP per coordinate (basic composition) |",
          "| staircase, PLD (SP) | the staircase composed through a proven PLD over the box (claim `pld-kfold-sup`: "
          "the pair built from the sup of the 1-D profile over the shifts, composed in exact arithmetic); eps0 and "
          "gamma optimised; in one coordinate it is S |",
          f"| OSGT (O) | exact K T-fold profile over the box, shapes theta = vartheta/varrho up to "
          f"{F.OSGT_THETA_MAX:g}; over a ball also its vartheta = 0 member (the Gaussian) |",
          "| truncated staircase (TS) | one release of one coordinate only (K T = 1): exact 1-D profile, closed form "
          "(`fhsym.TruncatedStaircase`, docs/optimum.md) |", "",
          "**The truncated staircase is a candidate only where K T = 1.** Its loss is infinite on the cut (a shift "
          "moves mass beyond its bounded support), so none of fhsym's K-fold, composed or ball claims carries over "
          "to it: no K-fold profile over the box, no PLD or basic composition, no calibration at a ball's radius. "
          "The releases with K T > 1 are ranked without it, and `fhsym.advise` lists it as failed there when it is "
          "named.", "",
          "Gain = 10 log10(variance of the other / variance of FH) in dB; positive: FH needs less noise. "
          f"|gain| <= {TIE_DB} dB (0.23 % of the variance) counts as a tie.", "",
          "**Box only.** Over an l2 or l1 ball, FH (alpha > 0), K-fold and truncated Laplace, both staircases and "
          "OSGT (vartheta > 0) are certified over the l_inf box that contains the ball: their K-fold claims are "
          "proven at the box corner, and Theorem 8 with the ball's radii is not proven (Lemma 7 fails below the "
          "extreme vectors, docs/kdim.md), so fhsym has no smaller certified bound for them. FH at alpha = 0 and OSGT "
          "at vartheta = 0 are the Gaussian, which is certified at the ball's l2 radius: over a ball each of the two is "
          "the better of its box calibration and the Gaussian's (a tie with the Gaussian where the Gaussian is better).",
          "", _osgt_shapes(data), "", *_staircase_text(data)]
    if data.get("tl_vs_laplace"):
        t = data["tl_vs_laplace"]
        at = t["at"]
        L += [f"Truncated Laplace was calibrated everywhere in the first tier (K in {{5, 20, 100, 1000}}, "
              f"delta in {{1e-6, 1e-10}}, T = 1) and elsewhere only where the K-fold Laplace is within "
              f"{TL_RELEVANCE} x the best other candidate; where both were computed it was at most "
              f"{100 * t['max_relative_gap']:.3f} % below the K-fold Laplace (K = {at['dim']}, T = "
              f"{at['compositions']}, eps = {at['epsilon']:g}, delta = {at['delta']:g}).", ""]
    L += ["## Coverage", "",
          f"The grid: K in {_set(F.DIMS)}, T in {_set(F.COMPOSITIONS)}, eps in {len(F.EPSILONS)} values from "
          f"{F.EPSILONS[0]:g} to {F.EPSILONS[-1]:g} (log-spaced), delta in {_set(F.DELTAS)}, sets l_inf box, l2 ball, "
          f"l1 ball: {total} releases. **{done} are complete** (every candidate computed, truncated Laplace "
          f"skipped by the rule above, or a candidate that fhsym could not certify: "
          f"{summ['complete_with_failed_candidates']} releases, where the ranking is of the certified candidates); {summ['calibrations']} certified calibrations, "
          f"{summ['task_seconds'] / 3600:.2f} h of task time, {summ['errors']} calibration(s) that failed "
          f"(listed in the entries' status), {summ['not_computed_calls']} calibration call(s) not made (truncated Laplace where the rule above skips it). "
          "Complete releases per set, T and delta:", "", *_coverage(data), ""]
    kfold_eps = sorted({e["epsilon"] for e in entries if e["dim"] * e["compositions"] > 1 and e["complete"]})
    missing = [x for x in F.EPSILONS if x not in kfold_eps]
    if missing:
        L += [f"**The K-fold calibrations (K T > 1) cover {len(kfold_eps)} of the {len(F.EPSILONS)} eps values**: "
              f"{_set(kfold_eps)}. This round's compute budget (a 2-core machine shared with other jobs, about 2.5 h "
              f"of wall time for the sweep and the re-verification) did not fit the full grid, so the exact K-fold "
              f"searches ran on these values first (`scripts/frontier.py run --eps core`); at the other eps "
              f"({_set(missing)}) only the one-coordinate releases and the cheap candidates (Gaussian, pure Laplace, "
              f"both staircases) are computed, and those releases are counted as incomplete "
              f"(`python scripts/frontier.py run --eps rest` completes them).", ""]
    ver = data.get("verification")
    if ver:
        L += [f"Every certificate of the data file was re-checked by `fhsym.verify_certificate` ({ver['at']}): "
              f"{ver['ok']} of {ver['checked']} hold ({ver['rigorous']} of them proven: ball arithmetic, exact "
              f"rationals or a proven PLD re-computed on the recorded grid; {ver.get('seconds', 0.0) / 3600:.2f} h of "
              f"task time); {len(ver['failed'])} do not"
              + (": " + "; ".join(f"{f['call']['mechanism']} K T = {f['call']['dim'] * f['call']['compositions']}, "
                                  f"eps = {f['call']['epsilon']:g}, delta = {f['call']['delta']:g}"
                                  for f in ver["failed"][:10]) if ver["failed"] else "") + "."
              + _incremental_text(ver), ""]
    else:
        L += ["The certificates of this data file have not been re-checked in bulk (`python scripts/frontier_report.py "
              "verify`).", ""]
    errs: dict = {}
    for e in entries:
        for c, st in e["status"].items():
            if st.startswith("error"):
                msg = re.sub(r"\d[\d.e+-]*", "#", st)[:200]
                errs.setdefault((c, msg), set()).add((e["dim"] * e["compositions"], e["epsilon"], e["delta"]))
    if errs:
        L += ["Calibrations that failed to certify (the release is ranked without them; numbers in the message "
              "replaced by #):", ""]
        for (c, msg), where in sorted(errs.items(), key=lambda kv: -len(kv[1])):
            kts = sorted({w[0] for w in where})
            L += [f"- {LONG[c]}, {len(where)} calibration(s) (K T in {_set(kts)}, delta in "
                  f"{_set(sorted({w[2] for w in where}))}, eps {min(w[1] for w in where):g}-{max(w[1] for w in where):g}): "
                  f"`{msg}`"]
        L += [""]
        if any("CalibrationTimeout" in msg for _, msg in errs):
            L += ["A calibration stopped by the sweep's time limit is a search that does not end: for the Gaussian at "
                  "eps = 6, delta = 1e-10 `fhsym.calibrate` proposes, in its 1-D search (`fhsym/calibration/search.py`, "
                  "`max_u`), a scale at which the float profile underflows to 0, and the ulp search below it "
                  "(`least_double_scale`) then steps down by 1e-9 per iteration. A defect of the search, not of the "
                  "claim; reported. A release where a candidate failed is ranked among the certified candidates, and a "
                  "win of FH there is counted as undecided.", ""]
    miss = _search_misses(data)
    if miss:
        worst, c = miss[0]
        L += [f"Certified but not optimal: {len(miss)} calibration(s) of FH or OSGT whose search ended at the Gaussian "
              f"member (alpha = 0, vartheta = 0) with more variance than the Gaussian's own calibration of the same "
              f"release, by up to {worst:.4g}x ({c['mechanism']}, K T = {c['dim']}, eps = {c['epsilon']:g}, delta = "
              f"{c['delta']:g}): the same search defect. They are valid certificates and are ranked as they are; "
              f"where the Gaussian was computed they are never the best other mechanism.", ""]
    for norm in F.NORMS:
        for T in F.COMPOSITIONS:
            ov = _overall(entries, norm=norm, compositions=T)
            if ov is None:
                continue
            set_name = {"linf": "l_inf box", "l2": "l2 ball", "l1": "l1 ball"}[norm]
            L += [f"## Unit {set_name}, T = {T}", "",
                  f"{ov['n']} complete releases: FH wins {ov['cls']['win']}, ties {ov['cls']['tie']}, loses "
                  f"{ov['cls']['loss']}" + (f", undecided {ov['cls']['undecided']}" if ov['cls']['undecided'] else "")
                  + f"; largest gain {_g(ov['top']['fh_gain_db'])} dB (K = {ov['top']['dim']}, "
                  f"eps = {ov['top']['epsilon']:g}, delta = {ov['top']['delta']:g}).", ""]
            for kind, n, t, p in figs:
                if n == norm and t == T:
                    what = "the best other mechanism" if kind == "best" else "the Gaussian and the K-fold Laplace"
                    L += [f"![FH gain over {what}, {set_name}, T = {T}](figures/{p.name})", ""]
            if norm != "linf" and T == 1:
                L += [f"Over the {set_name} the Gaussian and pure Laplace are calibrated at the ball's own radius; "
                      "L, TL, S, SP and the non-Gaussian members of FH and OSGT are box only (see What is compared): "
                      "for K > 1 their noise here is an upper bound, not their optimum over the ball. FH's best "
                      f"certified calibration is its Gaussian member in {sum(x['members'].get(F.FH) == G for x in _select(entries, norm=norm, compositions=T) if x['dim'] > 1)} "
                      f"of these releases (counted as a tie with the Gaussian)." + _ball_losses(entries, norm, T), ""]
            if T > 1 and norm == "linf":
                L += ["Over the box, T releases of K coordinates are the same mechanism as one release of K T "
                      "coordinates, so these entries repeat the T = 1 entries at K T where K T is on the grid.", ""]
            if T == 1:
                L += ["FH against the best other mechanism:", "", *_table_best(entries, norm, T)]
                L += ["FH against the paper's baselines (ties: within " f"{TIE_DB} dB):", "",
                      *_table_baselines(entries, norm, T)]
    L += ["## Reproduce", "", "```",
          "# cached and resumable; stages cheap, staircase (PLD), optimum, tier1-4 (the exact K-fold searches);",
          "# this file: two processes (--shard 0/2 and 1/2), each call stopped after --timeout seconds (an error)",
          "python scripts/frontier.py run --scheduler serial --shard 0/2 --timeout 60   # and --shard 1/2",
          "python scripts/frontier.py run --scheduler local --workers 2                 # or on a Dask cluster",
          "python scripts/frontier.py assemble                # cache -> fhsym/applications/data/frontier.json.gz",
          "python scripts/frontier_report.py verify --workers 2  # re-check every certificate, record the counts",
          "# after re-running a few calls (seed a fresh cache, delete their files, run, assemble): re-check only the",
          "# certificates that differ from the last fully re-checked data file",
          "python scripts/frontier_report.py verify --since PREVIOUS.json.gz",
          "python scripts/frontier_report.py report           # figures and this page",
          "# after a change to the code of one stage (e.g. fhsym.optimal_variance: the optimum intervals, "
          f"{summ.get('optimum_seconds', 0.0):.0f} s of task time",
          "# for this file): recompute that stage alone, keep every other record and quantile of the data file, assemble,",
          "# print each changed interval and any other field that differs, then the figures and this page (when",
          "# nothing but timings changed, nothing is written)",
          "python scripts/frontier.py refresh --stage optimum",
          "python scripts/frontier.py compare BEFORE.json.gz AFTER.json.gz   # the same comparison of two data files",
          "```", "",
          "For one release, `fhsym advise --epsilon E --delta D --dim K --norm linf --compositions T --json` lists "
          "every mechanism's certified calibration, best first (re-using this data file where it holds the call).", ""]
    return "\n".join(L)


def main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python scripts/frontier_report.py", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("assemble", help="write the data file from the sweep cache")
    a.add_argument("--cache", type=Path, default=ROOT / ".frontier-cache")
    a.add_argument("--out", type=Path, default=DATA)
    a.add_argument("--quantiles-from", type=Path, default=None, metavar="DATA", help="keep this data file's 99.9 %% "
                   "quantile of every calibration recorded there unchanged (else each is computed again)")
    r = sub.add_parser("report", help="figures and docs/frontier.md from the data file (prints the page)")
    r.add_argument("--data", type=Path, default=DATA)
    v = sub.add_parser("verify", help="re-check every certificate of the data file and record the counts in it")
    v.add_argument("--data", type=Path, default=DATA)
    v.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    v.add_argument("--since", type=Path, default=None, metavar="BASE", help="the data file of an earlier full re-check: "
                   "re-check only the certificates that differ from it (the record says so)")
    ns = ap.parse_args(argv)
    if ns.cmd == "assemble":
        return assemble(ns.cache, ns.out, quantiles_from=ns.quantiles_from)
    return verify(ns.data, ns.workers, ns.since) if ns.cmd == "verify" else report(ns.data)


if __name__ == "__main__":
    sys.exit(main())
