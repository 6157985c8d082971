"""The generated C and JAX targets against fhsym's numpy API on 10^6 points, measured in one process.

    python benchmarks/bench_targets.py [--n 1000000] [--repeat 5] [--shapes 0,0.5,1,2,10] [--no-jax] [--no-c]

For each shape b = alpha/gamma (gamma = 1) and each of pdf, cdf, ppf and the privacy profile
(sensitivity 1) on the same n points, the three implementations are timed interleaved (numpy,
C, JAX, numpy, C, JAX, ...; ``--repeat`` rounds after a warm-up that also compiles):

* numpy: ``FlippedHuber(alpha, gamma).pdf(t)`` ..., ``fhsym.privacy_profile(eps, alpha, gamma, 1)``;
* C: the library written by ``python -m fhsym.codegen --target c --out DIR`` into a temporary
  directory, compiled with ``cc -std=c99 -O2 -fPIC -shared``, a handle set up once
  (``fhsym_dist_init``) and the C-side loops ``fhsym_dist_<f>_n`` called through ctypes (one call
  for the n points: Python's call overhead is not what is measured);
* JAX: ``jax.jit(fhsym.jax.<f>)`` (compiled in the warm-up), ``block_until_ready``.

Prints the median and minimum times and the ratios C / numpy and JAX / numpy of the medians and of
the minima (targets, issue 22: C <= 1, JAX <= 2), and the largest relative difference of each
target from the numpy values (a sanity check; the accuracy tests are tests/test_codegen_c.py and
tests/test_codegen_jax.py).  Points: t uniform on [-(b + 4), b + 4] gamma (centre and Gaussian
tails), q uniform on (0, 1), eps uniform on [0, 2 b + 3] without the points within 1e-6 of the kink
eps = b (which the numpy API re-evaluates in mpmath).  No timing is asserted anywhere in the tests.
"""

from __future__ import annotations

import argparse
import ctypes
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import fhsym

FUNCTIONS = ("pdf", "cdf", "ppf", "privacy_profile")
_P = ctypes.POINTER(ctypes.c_double)


def build_c(tmp: Path):
    """The generated C library, compiled into ``tmp``; None (with the reason printed) without a C compiler."""
    cc = next((c for c in ("cc", "gcc", "clang") if shutil.which(c)), None)
    if cc is None:
        print("no C compiler (cc, gcc, clang): C skipped")
        return None
    subprocess.run([sys.executable, "-m", "fhsym.codegen", "--target", "c", "--out", str(tmp)], check=True, capture_output=True)
    so = tmp / "libfhsym.so"
    subprocess.run([cc, "-std=c99", "-O2", "-fPIC", "-shared", str(tmp / "fhsym.c"), "-o", str(so), "-lm"], check=True)
    lib = ctypes.CDLL(str(so))
    lib.fhsym_dist_init.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_double]
    lib.fhsym_dist_init.restype = ctypes.c_int
    for name in FUNCTIONS[:3]:
        f = getattr(lib, f"fhsym_dist_{name}_n")
        f.argtypes = [ctypes.c_void_p, ctypes.c_size_t, _P, _P]
        f.restype = ctypes.c_int
    lib.fhsym_dist_privacy_profile_n.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_size_t, _P, _P]
    lib.fhsym_dist_privacy_profile_n.restype = ctypes.c_int
    return lib


def c_caller(lib, name: str, alpha: float, gamma: float, x: np.ndarray):
    handle = (ctypes.c_double * 512)()  # room for fhsym_dist (fhsym.h), 8-byte aligned
    assert lib.fhsym_dist_init(handle, alpha, gamma) == 0
    out = np.empty_like(x)
    xp, op = x.ctypes.data_as(_P), out.ctypes.data_as(_P)
    if name == "privacy_profile":
        return lambda: (lib.fhsym_dist_privacy_profile_n(handle, 1.0, x.size, xp, op), out)[1]
    f = getattr(lib, f"fhsym_dist_{name}_n")
    return lambda: (f(handle, x.size, xp, op), out)[1]


def jax_caller(name: str, alpha: float, gamma: float, x: np.ndarray):
    import jax

    from fhsym import jax as fhj

    f = jax.jit(getattr(fhj, name))
    xj = jax.numpy.asarray(x)
    if name == "privacy_profile":
        return lambda: np.asarray(f(xj, alpha, gamma, 1.0).block_until_ready())
    return lambda: np.asarray(f(xj, alpha, gamma).block_until_ready())


def numpy_caller(name: str, alpha: float, gamma: float, x: np.ndarray):
    if name == "privacy_profile":
        return lambda: fhsym.privacy_profile(x, alpha, gamma, 1.0)
    fh = fhsym.FlippedHuber(alpha, gamma)
    return lambda: getattr(fh, name)(x)


def points(name: str, b: float, n: int, rng) -> np.ndarray:
    if name == "ppf":
        return rng.uniform(0.0, 1.0, n)
    if name == "privacy_profile":
        eps = rng.uniform(0.0, 2 * b + 3, n)
        return np.ascontiguousarray(eps[np.abs(eps - b) > 1e-6 * max(1.0, b)])
    return rng.uniform(-(b + 4), b + 4, n)


def max_rel(got: np.ndarray, ref: np.ndarray) -> float:
    with np.errstate(invalid="ignore", divide="ignore"):
        rel = np.where(got == ref, 0.0, np.abs(got - ref) / np.maximum(np.abs(ref), 1e-300))
    return float(np.max(np.where(np.isnan(rel), np.inf, rel)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--shapes", default="0,0.5,1,2,10", help="alpha/gamma values (gamma = 1)")
    ap.add_argument("--functions", default=",".join(FUNCTIONS))
    ap.add_argument("--no-jax", action="store_true")
    ap.add_argument("--no-c", action="store_true")
    ns = ap.parse_args()
    rng = np.random.default_rng(20261127)
    with tempfile.TemporaryDirectory() as tmp:
        lib = None if ns.no_c else build_c(Path(tmp))
        use_jax = not ns.no_jax
        if use_jax:
            try:
                import fhsym.jax  # noqa: F401
            except ImportError as exc:
                print(f"JAX skipped: {exc}")
                use_jax = False
        print(f"n = {ns.n:,} points, {ns.repeat} interleaved rounds (numpy, C, JAX), gamma = 1; times in ms (median / min)")
        worst = {"C": 0.0, "JAX": 0.0}
        for name in ns.functions.split(","):
            for b in (float(v) for v in ns.shapes.split(",")):
                x = points(name, b, ns.n, rng)
                callers = {"numpy": numpy_caller(name, b, 1.0, x)}
                if lib is not None:
                    callers["C"] = c_caller(lib, name, b, 1.0, x)
                if use_jax:
                    callers["JAX"] = jax_caller(name, b, 1.0, x)
                ref = callers["numpy"]()
                diffs = {k: max_rel(np.asarray(f(), dtype=float), ref) for k, f in callers.items() if k != "numpy"}  # warm-up, compile
                times = {k: [] for k in callers}
                for _ in range(ns.repeat):
                    for k, f in callers.items():
                        t0 = time.perf_counter()
                        f()
                        times[k].append(time.perf_counter() - t0)
                med = {k: statistics.median(v) for k, v in times.items()}
                low = {k: min(v) for k, v in times.items()}
                line = f"{name:>15} alpha/gamma={b:<4g} numpy {med['numpy'] * 1e3:7.1f} / {low['numpy'] * 1e3:7.1f}"
                for k in ("C", "JAX"):
                    if k in med:
                        r_med, r_min = med[k] / med["numpy"], low[k] / low["numpy"]
                        worst[k] = max(worst[k], r_med)
                        line += (f" | {k} {med[k] * 1e3:7.1f} / {low[k] * 1e3:7.1f}, ratio {r_med:5.2f} (median) {r_min:5.2f} (min),"
                                 f" max rel diff {diffs[k]:.1e}")
                print(line, flush=True)
        for k, target in (("C", 1.0), ("JAX", 2.0)):
            if worst[k]:
                print(f"worst {k} / numpy ratio of medians: {worst[k]:.2f} (target <= {target:g}: "
                      f"{'met' if worst[k] <= target else 'MISSED'})")


if __name__ == "__main__":
    main()
