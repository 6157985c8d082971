"""Are FlippedHuber's public results unchanged?  Bit for bit, against a baseline revision (default: the claims branch).

    python benchmarks/compare_flipped_huber.py [--baseline REF] [--quick]

Runs the same seeded grid of calls on the baseline's ``fhsym`` (extracted with ``git archive`` into a temporary
package, :mod:`baseline_copy`) and on the working tree's, each in its own process, and compares every result:
its type (Python float or numpy scalar, array dtype and shape) and every bit of every float (NaN payloads aside), or
the exception's type and message.  A float that differs is reported with its distance in ulps; the script prints
the counts and every difference, and exits 1 if any result differs by more than 1 ulp or in type/shape.

The grid: alpha in {0, 1e-3, 0.5, 2, 50, 1e4} x gamma in {1e-3, 1, 30}; points 0, -0, +-alpha and their neighbours,
the tails alpha + k gamma (k up to 300), 1e-300, +-inf and 24 seeded normal points; probabilities 0, 1, 5e-324,
1e-300 ... 1 - 2^-53, the neighbours of 1/2, the tail mass and 24 seeded uniforms; every array method on the
whole array, on each point as a scalar and on 3000 more seeded points; the moments, interval, expect, privacy profile (at the kink and next to
it), epsilon_for_delta, privacy loss, mgf, zcdp, samplers (seeded) and the mechanism hooks.  A section with array
parameters is compared and reported separately (``--arrays``: informative only, not required to be bitwise).
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import pickle
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Dict

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
ALPHAS = (0.0, 1e-3, 0.5, 2.0, 50.0, 1e4)
GAMMAS = (1e-3, 1.0, 30.0)


# ----------------------------------------------------------------------------- recording
def _norm(v: Any) -> Any:
    """A result as plain data: type tags plus exact bits."""
    if isinstance(v, np.ndarray):
        if v.dtype == object:
            return ("objarray", v.shape, tuple(_norm(x) for x in v.ravel()))
        return ("array", str(v.dtype), v.shape, v.tobytes())
    if isinstance(v, np.generic):
        return ("npscalar", type(v).__name__, np.asarray(v).tobytes())
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return ("py", repr(v))
    if isinstance(v, float):
        return ("float", np.float64(v).tobytes())
    if isinstance(v, int):
        return ("int", v)
    if isinstance(v, Fraction):
        return ("fraction", str(v))
    if isinstance(v, tuple):
        return (type(v).__name__, tuple(_norm(x) for x in v))
    if isinstance(v, list):
        return ("list", tuple(_norm(x) for x in v))
    if isinstance(v, dict):
        return ("dict", tuple((k, _norm(x)) for k, x in v.items()))
    return ("repr", type(v).__name__, repr(v))


def _call(fn: Callable[[], Any]) -> Any:
    try:
        return _norm(fn())
    except Exception as exc:  # recorded: an exception is a result too
        return ("raise", type(exc).__name__, str(exc))


def points(alpha: float, gamma: float, rng: np.random.Generator) -> np.ndarray:
    pts = [0.0, -0.0, 1e-300, alpha, np.nextafter(alpha, 0.0), np.nextafter(alpha, np.inf), alpha * (1 + 1e-9),
           0.3 * gamma, gamma, 3.0 * gamma, 1e-8 * gamma]
    pts += [alpha + k * gamma for k in (1, 5, 20, 40, 300)]
    pts += [np.inf]
    pts = pts + [-p for p in pts]
    pts += list(rng.standard_normal(24) * 3.0 * (alpha + gamma))
    return np.array(pts, dtype=float)


def probabilities(fh: Any, rng: np.random.Generator) -> np.ndarray:
    tm = fh.tail_mass()
    q = [0.0, 1.0, 0.5, np.nextafter(0.5, 0.0), np.nextafter(0.5, 1.0), 0.25, 0.75, 5e-324, 1e-300, 1e-17, 1e-10,
         1e-3, 0.1, 0.9, 1 - 1e-10, 1 - 2.0**-53, np.nextafter(1.0, 0.0), tm, 1.0 - tm, 0.5 - 1e-17, 0.5 - 1e-9]
    q += list(rng.random(24))
    return np.array(q, dtype=float)


def record(pkg: Any, quick: bool, arrays: bool) -> Dict[str, Any]:
    FH = pkg.FlippedHuber
    out: Dict[str, Any] = {}
    rng = np.random.default_rng(20240521)
    array_methods = ("pdf", "logpdf", "cdf", "sf", "logcdf", "logsf")
    for alpha in ALPHAS:
        for gamma in GAMMAS:
            key = f"a={alpha!r},g={gamma!r}"
            fh = FH(alpha, gamma)
            x = points(alpha, gamma, rng)
            q = probabilities(fh, rng)
            for m in array_methods:
                out[f"{key}/{m}(x)"] = _call(lambda: getattr(fh, m)(x))
                out[f"{key}/{m}(list)"] = _call(lambda: getattr(fh, m)(x[:3].tolist()))
                for i, xi in enumerate(x):
                    out[f"{key}/{m}(x[{i}])"] = _call(lambda: getattr(fh, m)(float(xi)))
            big = np.concatenate([x, rng.standard_normal(3000) * 3.0 * (alpha + gamma)])  # large arrays
            qbig = np.concatenate([q, rng.random(3000)])
            for m in array_methods:
                out[f"{key}/{m}(big)"] = _call(lambda: getattr(fh, m)(big))
            for m in ("ppf", "isf"):
                out[f"{key}/{m}(qbig)"] = _call(lambda: getattr(fh, m)(qbig))
            for m in ("ppf", "isf"):
                out[f"{key}/{m}(q)"] = _call(lambda: getattr(fh, m)(q))
                out[f"{key}/{m}(q2d)"] = _call(lambda: getattr(fh, m)(q[:6].reshape(2, 3)))
                for i, qi in enumerate(q):
                    out[f"{key}/{m}(q[{i}])"] = _call(lambda: getattr(fh, m)(float(qi)))
            for name in ("var", "std", "mean", "median", "support", "entropy", "log_omega", "omega", "kappa",
                         "log_kappa", "tail_mass", "fisher_information", "nfi", "gaussian_sigma", "zcdp", "__repr__"):
                out[f"{key}/{name}()"] = _call(lambda: getattr(fh, name)())
            for n in range(0, 9):
                out[f"{key}/moment({n})"] = _call(lambda: fh.moment(n))
            for s in ("m", "mv", "mvsk", "k"):
                out[f"{key}/stats({s})"] = _call(lambda: fh.stats(s))
            conf = np.array([0.0, 1e-300, 1e-10, 0.1, 0.5, 0.9, 0.95, 1 - 1e-12, 1.0])
            out[f"{key}/interval(conf)"] = _call(lambda: fh.interval(conf))
            for c in conf:
                out[f"{key}/interval({c!r})"] = _call(lambda: fh.interval(float(c)))
            if not quick:
                out[f"{key}/expect()"] = _call(lambda: fh.expect())
                out[f"{key}/expect(abs)"] = _call(lambda: fh.expect(abs))
                out[f"{key}/expect(sq,cond)"] = _call(lambda: fh.expect(lambda t: t * t, lb=-gamma, ub=2 * gamma,
                                                                        conditional=True))
            s_arg = np.array([0.0, 1e-3, 0.3, -0.3, 2.0, -40.0, 100.0]) / gamma
            out[f"{key}/log_mgf(s)"] = _call(lambda: fh.log_mgf(s_arg))
            out[f"{key}/mgf(s)"] = _call(lambda: fh.mgf(s_arg))
            out[f"{key}/log_mgf(0.5)"] = _call(lambda: fh.log_mgf(0.5))
            for sens in (1.0, 0.5 * gamma, 3.0 * gamma):
                kink = alpha * sens / gamma**2
                eps = np.array([0.0, 1e-6, 0.1, 0.5, 1.0, 2.0, 5.0, 20.0, 50.0, kink, kink * (1 + 1e-7),
                                kink * (1 - 1e-7), kink * (1 + 1e-3), kink * (1 - 1e-3)])
                sk = f"{key},D={sens!r}"
                out[f"{sk}/privacy_profile(eps)"] = _call(lambda: fh.privacy_profile(eps, sens))
                out[f"{sk}/log_privacy_profile(eps)"] = _call(lambda: fh.log_privacy_profile(eps, sens))
                for i, e in enumerate(eps[:9]):
                    out[f"{sk}/privacy_profile({i})"] = _call(lambda: fh.privacy_profile(float(e), sens))
                out[f"{sk}/privacy_loss(x,D)"] = _call(lambda: fh.privacy_loss(x, sens))
                out[f"{sk}/privacy_loss(x,-D)"] = _call(lambda: fh.privacy_loss(x, -sens))
                out[f"{sk}/centered_privacy_loss(x,D)"] = _call(lambda: fh.centered_privacy_loss(x, sens))
                out[f"{sk}/privacy_loss(0.3,D)"] = _call(lambda: fh.privacy_loss(0.3 * gamma, sens))
                out[f"{sk}/zcdp(D,dim=3)"] = _call(lambda: fh.zcdp(sens, dim=3))
                out[f"{sk}/zcdp_parameters(D)"] = _call(lambda: fh.zcdp_parameters(sens))
                out[f"{sk}/loss_atoms(D)"] = _call(lambda: fh.loss_atoms(sens))
                out[f"{sk}/loss_range(D)"] = _call(lambda: fh.loss_range(sens))
                out[f"{sk}/pld_profile(D)"] = _call(lambda: fh.pld_profile(sens)(eps[:9]))
                out[f"{sk}/pld_profile(D,uncert)"] = _call(lambda: fh.pld_profile(sens, certified=False)(eps[:9]))
                if not quick and sens == 1.0:
                    out[f"{sk}/epsilon_for_delta"] = _call(lambda: fh.epsilon_for_delta([1e-3, 1e-6, 1e-12], sens))
                    out[f"{sk}/epsilon_for_delta(1e-6)"] = _call(lambda: fh.epsilon_for_delta(1e-6, sens))
                    out[f"{sk}/profile_enclosure(1)"] = _call(lambda: tuple(
                        float(v) for v in (fh.profile_enclosure(1.0, sens).lower, fh.profile_enclosure(1.0, sens).upper)))
            for seed in (0, 7):
                out[f"{key}/rvs(None,{seed})"] = _call(lambda: fh.rvs(random_state=seed))
                out[f"{key}/rvs(5,{seed})"] = _call(lambda: fh.rvs(5, random_state=seed))
                out[f"{key}/rvs((2,3),{seed})"] = _call(lambda: fh.rvs((2, 3), random_state=np.random.default_rng(seed)))
                out[f"{key}/rvs(1000,{seed})"] = _call(lambda: fh.rvs(1000, random_state=seed))
                out[f"{key}/rvs_inversion(7,{seed})"] = _call(lambda: fh.rvs_inversion(7, random_state=seed))
                out[f"{key}/sample_stream({seed})"] = _call(lambda: fh.sample_stream(seed).draw(9))
            out[f"{key}/rvs(RandomState)"] = _call(lambda: fh.rvs(4, random_state=np.random.RandomState(3)))
            for name in ("family_shape", "family_scale", "parameters", "parameter_shape"):
                out[f"{key}/{name}"] = _call(lambda: getattr(fh, name))
    if arrays:
        a = np.array([0.0, 1e-3, 0.5, 2.0, 50.0, 1e4])[:, None]
        g = np.array([1e-3, 1.0, 30.0])
        fa = FH(alpha=a, gamma=g)
        x = np.array([-3.0, -0.5, 0.0, 0.2, 1.0, 40.0])[:, None, None]
        q = np.array([0.0, 1e-300, 0.1, 0.5, 0.9, 1.0])[:, None, None]
        for m in array_methods:
            out[f"array/{m}"] = _call(lambda: getattr(fa, m)(x))
        for m in ("ppf", "isf"):
            out[f"array/{m}"] = _call(lambda: getattr(fa, m)(q))
        for name in ("var", "std", "mean", "median", "entropy"):
            out[f"array/{name}()"] = _call(lambda: getattr(fa, name)())
        out["array/interval(0.9)"] = _call(lambda: fa.interval(0.9))
        out["array/moment(4)"] = _call(lambda: fa.moment(4))
        out["array/privacy_profile"] = _call(lambda: fa.privacy_profile(np.array([0.5, 2.0])[:, None, None], 1.0))
    return out


# ----------------------------------------------------------------------------- comparing
def _ulps(a: bytes, b: bytes) -> float:
    x = np.frombuffer(a, dtype=np.float64)
    y = np.frombuffer(b, dtype=np.float64)
    if x.shape != y.shape:
        return math.inf
    xi = x.view(np.int64).astype(object)
    yi = y.view(np.int64).astype(object)
    worst = 0
    for u, v, fu, fv in zip(xi, yi, x, y):
        if np.isnan(fu) and np.isnan(fv):
            continue
        if np.isnan(fu) or np.isnan(fv):
            return math.inf
        if u != v and fu == fv == 0.0:  # +0.0 against -0.0: counted as 1 ulp
            worst = max(worst, 1)
            continue
        ku = u if u >= 0 else -(u & 0x7FFFFFFFFFFFFFFF)  # map the bit patterns to a monotone integer line
        kv = v if v >= 0 else -(v & 0x7FFFFFFFFFFFFFFF)
        worst = max(worst, abs(ku - kv))
    return float(worst)


def distance(a: Any, b: Any) -> float:
    """0 if identical, the largest float difference in ulps if only float bits differ, inf otherwise."""
    if a == b:
        return 0.0
    if type(a) is not type(b) or not isinstance(a, tuple) or len(a) != len(b) or a[0] != b[0]:
        return math.inf
    tag = a[0]
    if tag == "float":
        return _ulps(a[1], b[1])
    if tag == "npscalar":
        return _ulps(a[2], b[2]) if a[1] == b[1] == "float64" else math.inf
    if tag == "array":
        if a[1] != b[1] or a[2] != b[2] or a[1] != "float64":
            return math.inf
        return _ulps(a[3], b[3])
    if tag in ("objarray",):
        if a[1] != b[1]:
            return math.inf
        return max((distance(x, y) for x, y in zip(a[2], b[2])), default=0.0)
    if tag in ("list", "tuple") or isinstance(a[1], tuple):
        if len(a[1]) != len(b[1]):
            return math.inf
        return max((distance(x, y) for x, y in zip(a[1], b[1])), default=0.0)
    return math.inf


def dump(package: str, path: str, quick: bool, arrays: bool) -> None:
    pkg = importlib.import_module(package)
    with open(path, "wb") as f:
        pickle.dump(record(pkg, quick, arrays), f)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default=None, help="git revision of the baseline (default: merge-base of HEAD and claims)")
    ap.add_argument("--quick", action="store_true", help="skip expect, epsilon_for_delta and the enclosures")
    ap.add_argument("--arrays", action="store_true", help="also compare array-parameter results (informative)")
    ap.add_argument("--dump", nargs=2, metavar=("PACKAGE", "FILE"), help=argparse.SUPPRESS)
    ns = ap.parse_args()
    if ns.dump:
        dump(ns.dump[0], ns.dump[1], ns.quick, ns.arrays)
        return 0
    sys.path.insert(0, str(HERE))
    from baseline_copy import commit_of, materialise

    ref = ns.baseline or subprocess.run(["git", "-C", str(REPO), "merge-base", "HEAD", "claims"], check=True,
                                        capture_output=True, text=True).stdout.strip()
    root, name, commit = materialise(ref)
    tmp = tempfile.mkdtemp(prefix="fh_compare_")
    files = {}
    flags = (["--quick"] if ns.quick else []) + (["--arrays"] if ns.arrays else [])
    for label, package, path in (("baseline", name, root), ("working tree", "fhsym", str(REPO))):
        files[label] = os.path.join(tmp, f"{label.replace(' ', '_')}.pkl")
        env = dict(os.environ, PYTHONPATH=path + os.pathsep + str(REPO))
        subprocess.run([sys.executable, __file__, "--dump", package, files[label], *flags], check=True, env=env)
    with open(files["baseline"], "rb") as f:
        base = pickle.load(f)
    with open(files["working tree"], "rb") as f:
        new = pickle.load(f)
    head = commit_of("HEAD")
    print(f"baseline {commit[:10]} ({ref}) against the working tree (HEAD {head[:10]}, uncommitted changes included)")
    keys = sorted(set(base) | set(new))
    bad, ulp1, same = [], [], 0
    arr_diff = []
    for k in keys:
        if k not in base or k not in new:
            bad.append((k, "missing on one side"))
            continue
        d = distance(base[k], new[k])
        if k.startswith("array/"):
            if d:
                arr_diff.append((k, d))
            continue
        if d == 0.0:
            same += 1
        elif d <= 1.0:
            ulp1.append(k)
        else:
            bad.append((k, f"{d:g} ulp" if math.isfinite(d) else f"{base[k]!r:.200} -> {new[k]!r:.200}"))
    n = sum(1 for k in keys if not k.startswith("array/"))
    print(f"{n} scalar-parameter results: {same} bitwise identical, {len(ulp1)} within 1 ulp, {len(bad)} different")
    for k in ulp1:
        print(f"  1 ulp: {k}")
    for k, why in bad:
        print(f"  DIFFERENT: {k}: {why}")
    if ns.arrays:
        na = sum(1 for k in keys if k.startswith("array/"))
        print(f"{na} array-parameter results (informative): {na - len(arr_diff)} identical")
        for k, d in arr_diff:
            print(f"  array: {k}: {d:g} ulp" if math.isfinite(d) else f"  array: {k}: differs (type, shape or value)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
