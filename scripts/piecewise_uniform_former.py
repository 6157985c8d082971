"""Compare ``fhsym.PiecewiseUniform`` (numerics printed from its declaration, issue 28) with the former hand-written
class (``fhsym/noise/piecewise_uniform.py`` at a git revision, default af7ecfb) and both with exact rationals.

For the recorded optimum noises (96) (``fhsym/optimum/data``) and 40 random weight vectors (widths 2^-10 .. 3), at
points in every cell and on edges: logpdf, sf, cdf, ``P(0 < T <= x)``, isf, the variance and moments (n = 2, 4, 6),
the entropy, the float profile and the exact-rational certificate.  Prints, per quantity, the share of values that
are bit for bit the former ones and the worst relative difference; and the worst relative error of the new and the
former sf, ``P(0 < T <= x)`` and isf against exact rational sums of the definition (``_exact_*`` below, from the weights alone).

    PYTHONPATH=. python scripts/piecewise_uniform_former.py [REV]
"""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import Any, Dict, List, Tuple

import numpy as np

import fhsym.noise
from fhsym.noise import PiecewiseUniform
from fhsym.optimum.recorded import load

from _former_module import load_former  # scripts/ is on the path: run as a script


def former(rev: str) -> Any:
    # its exact bounds moved from fhsym/_core/arb/ to fhsym/noise/plans/ (b980541, code unchanged)
    moved = [("from .._core.arb.piecewise_uniform import", "from .plans.piecewise_uniform import")]
    return load_former(rev, "fhsym/noise/piecewise_uniform.py", "fhsym.noise._former_piecewise_uniform",
                       moved).PiecewiseUniform


def _exact_sf(width: float, weights: Tuple[int, ...], x: Fraction) -> Fraction:
    """P(T > x), summed over the cells of the definition (x in absolute units, exact)."""
    w, M = Fraction(width), len(weights) - 1
    N = weights[0] + 2 * sum(weights[1:])
    tot = Fraction(0)
    for k in range(-M, M + 1):
        lo, hi = (k - Fraction(1, 2)) * w, (k + Fraction(1, 2)) * w
        lo = max(lo, x)
        if hi > lo:
            tot += Fraction(weights[abs(k)], N) * (hi - lo) / w
    return tot


def cases(n_random: int = 40) -> List[Tuple[float, Tuple[int, ...]]]:
    out = [(float(r["noise"]["width"]), tuple(r["noise"]["weights"])) for r in load()]
    g = np.random.default_rng(28)
    for _ in range(n_random):
        m = int(g.integers(1, 60))
        wts = tuple(int(v) for v in g.integers(0, 10**int(g.integers(1, 9)), m))
        if not any(wts):
            wts = (1,) + wts[1:]
        out.append((float(2.0 ** g.uniform(-10, 1.6)), wts))
    return out


def rel(x: np.ndarray, y: np.ndarray) -> float:
    x, y = np.asarray(x, float), np.asarray(y, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        d = np.where(x == y, 0.0, np.abs(x - y) / np.maximum(np.abs(y), 1e-300))
    return float(np.max(d)) if d.size else 0.0


def main() -> None:
    rev = sys.argv[1] if len(sys.argv) > 1 else "af7ecfb"
    Old = former(rev)
    same: Dict[str, List[int]] = {}
    diff: Dict[str, float] = {}
    exact_err: Dict[str, List[float]] = {"sf new": [0.0], "sf former": [0.0], "sf abs new": [0.0], "sf abs former": [0.0],
                                         "half new": [0.0],
                                         "half former": [0.0], "isf new": [0.0], "isf former": [0.0]}
    g = np.random.default_rng(1)

    def note(key: str, new: Any, old: Any) -> None:
        a, b = np.atleast_1d(np.asarray(new, float)), np.atleast_1d(np.asarray(old, float))
        c = same.setdefault(key, [0, 0])
        c[0] += int(np.sum((a == b) | (np.isnan(a) & np.isnan(b))))
        c[1] += a.size
        diff[key] = max(diff.get(key, 0.0), rel(a, b))

    for width, wts in cases():
        new, old = PiecewiseUniform(width, wts), Old(width, wts)
        M = len(wts) - 1
        cells = np.arange(-M - 1, M + 2)
        x = np.concatenate([(cells + g.uniform(-0.5, 0.5, cells.size)) * width, (cells + 0.5) * width])
        for name in ("logpdf", "sf", "cdf"):
            note(name, getattr(new, name)(x), getattr(old, name)(x))
        pos = np.abs(x)
        note("P(0 < T <= x)", new._half_mass(pos), old._half_mass(pos))
        p = np.concatenate([g.uniform(0, 1, 40), [1e-12, 0.5, 1 - 1e-9]])
        note("isf", new.isf(p), old.isf(p))
        note("variance", new.var(), old.var())
        assert new.exact_variance() == old.exact_variance()
        for n in (2, 4, 6):
            note(f"E[T^{n}]", new._moment(n), old._moment(n))
        note("entropy", new.entropy(), old.entropy())
        eps = np.array([0.0, 0.3, 1.0, 2.5])
        for d in (0.37 * width, width, 2.6 * width, 7.5 * width):
            note("profile (float)", new.privacy_profile(eps, d), old.privacy_profile(eps, d))
        for e in (0.5, 1.0):
            note("certified sup profile", new.certified_sup_profile(e, 3 * width), old.certified_sup_profile(e, 3 * width))
        # against exact sums of the definition (a few points per case: Fractions are slow)
        sel = x[:: max(1, x.size // 12)]
        for xs in sel:
            ref = _exact_sf(width, wts, Fraction(float(xs)))
            u = abs(float(xs)) / width
            near_edge = abs(u - np.floor(u) - 0.5) < 1e-12 * max(u, 1.0)  # the cell lookup of x/w rounds there
            if ref > 0:
                for tag, law in (("new", new), ("former", old)):
                    err = abs(float(law.sf(xs)) - float(ref))
                    exact_err[f"sf abs {tag}"].append(err)
                    if not near_edge:
                        exact_err[f"sf {tag}"].append(err / float(ref))
            href = Fraction(1, 2) - _exact_sf(width, wts, Fraction(abs(float(xs))))
            if href > 0:
                for tag, law in (("new", new), ("former", old)):
                    exact_err[f"half {tag}"].append(abs(float(law._half_mass(abs(xs))) - float(href)) / float(href))
        for pp in (0.013, 0.2, 0.49):
            for tag, law in (("new", new), ("former", old)):
                xq = float(law.isf(pp))
                back = _exact_sf(width, wts, Fraction(xq))  # the exact tail at the float quantile
                exact_err[f"isf {tag}"].append(abs(float(back) - pp) / pp)
    print(f"{len(cases())} laws ({len(load())} recorded optimum noises + 40 random), former = {rev}")
    for key, (eq, tot) in same.items():
        print(f"  {key:24s} bit for bit {eq}/{tot} ({100 * eq / tot:.1f} %), worst relative difference {diff[key]:.2e}")
    print("against exact rational sums of the definition (relative; sf abs: absolute, every point; sf: relative, "
          "points within 1e-12 of a cell edge left out, where x/w rounds across it):")
    for key, v in exact_err.items():
        print(f"  {key:14s} worst {max(v):.2e} ({len(v) - 1} values)")


if __name__ == "__main__":
    main()
