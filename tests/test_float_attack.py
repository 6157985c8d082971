"""A Mironov-style floating-point attack (CCS 2012) on a naive float sampler, and on the exact one.

Setting: neighbouring datasets with f(D) = 0 and f(D') = Delta = 1, Laplace noise of scale
b = 100 (epsilon = 0.01).  Pure epsilon-DP bounds the accuracy of *any* test that guesses D or
D' from one output (uniform prior) by e^eps / (1 + e^eps) = 0.50250.

Naive sampler: ``x + noise`` in doubles with the textbook inverse CDF,
``noise = -b sgn(u) log(1 - 2|u|)``, ``u = U - 1/2``, U = k 2^-53 (a 53-bit uniform).

Distinguisher (fixed here, before any secure output is generated): an output y is *reachable*
from x if some grid point k has fl(x + noise(k)) == y bit for bit (the k near the inverse of
y - x are searched, +-8 grid points); guess D if y is reachable from 0 only, D' if from 1
only, and a fair coin otherwise.

Secure mechanism: the value snapped to the lattice 2^-10 Z (0 and 1 are lattice points) plus
exact discrete flipped Huber noise with alpha = 1e4, gamma = 1e3 (a discrete Laplace of scale
gamma^2/alpha = 100 on |x| <= alpha), released as the float (k0 + k) * 2^-10 (exact).

The test prints the accuracies with 99.9 % Wilson intervals; docs/security.md quotes them.
"""

from __future__ import annotations

import math

import numpy as np

from fhsym.noise.discrete_flipped_huber import DiscreteFlippedHuber, lattice_index

B = 100.0  # Laplace scale: epsilon = Delta/B = 0.01
DELTA = 1.0
EPS = DELTA / B
N = 100_000  # outputs per dataset
WINDOW = 8
Z999 = 3.2905  # two-sided 99.9 % normal quantile
DP_BOUND = math.exp(EPS) / (1 + math.exp(EPS))
STEP = 2.0**-10


def _noise(k: np.ndarray) -> np.ndarray:
    u = k * 2.0**-53 - 0.5
    return -B * np.sign(u) * np.log(1.0 - 2.0 * np.abs(u))


def naive_release(x: float, n: int, rng: np.random.Generator) -> np.ndarray:
    k = rng.integers(1, 2**53, size=n)
    return x + _noise(k)


def reachable(y: np.ndarray, x: float) -> np.ndarray:
    """Is y = fl(x + noise(k)) for some grid point k near the inverse of y - x?"""
    n0 = y - x
    u0 = np.sign(n0) * (-np.expm1(-np.abs(n0) / B)) / 2
    k0 = np.rint((u0 + 0.5) * 2.0**53)
    hit = np.zeros(y.shape, dtype=bool)
    for o in range(-WINDOW, WINDOW + 1):
        k = np.clip(k0 + o, 1, 2**53 - 1)
        hit |= (x + _noise(k)) == y
    return hit


def distinguisher(y: np.ndarray, coin: np.ndarray):
    """Guess 0 (D) or 1 (D') from the low-order-bit pattern of y; coin where undecided."""
    r0, r1 = reachable(y, 0.0), reachable(y, DELTA)
    guess = np.where(r0 & ~r1, 0, np.where(r1 & ~r0, 1, coin))
    return guess, r0 ^ r1


def _wilson(p: float, n: int, z: float = Z999):
    c = p + z * z / (2 * n)
    r = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    d = 1 + z * z / n
    return (c - r) / d, (c + r) / d


def _accuracy(y0: np.ndarray, y1: np.ndarray, rng: np.random.Generator):
    g0, dec0 = distinguisher(y0, rng.integers(0, 2, y0.size))
    g1, dec1 = distinguisher(y1, rng.integers(0, 2, y1.size))
    correct = int((g0 == 0).sum() + (g1 == 1).sum())
    n = y0.size + y1.size
    acc = correct / n
    decided = int(dec0.sum() + dec1.sum())
    acc_dec = (int((g0[dec0] == 0).sum() + (g1[dec1] == 1).sum()) / decided) if decided else float("nan")
    return acc, n, decided / n, acc_dec


def test_naive_float_sampler_is_broken_and_exact_sampler_is_not():
    rng = np.random.default_rng(20120816)
    # --- the naive float mechanism
    y0 = naive_release(0.0, N, rng)
    y1 = naive_release(DELTA, N, rng)
    only0 = float(np.mean(reachable(y0, 0.0) & ~reachable(y0, DELTA)))
    only1 = float(np.mean(reachable(y1, DELTA) & ~reachable(y1, 0.0)))
    acc, n, dec, acc_dec = _accuracy(y0, y1, rng)
    lo, hi = _wilson(acc, n)
    print(
        f"\n[attack] naive float Laplace (b={B:g}, eps={EPS:g}): outputs from D reachable only from D: {only0:.4f}; "
        f"from D' only from D': {only1:.4f}"
    )
    print(
        f"[attack] naive: distinguisher accuracy {acc:.4f} (99.9% CI [{lo:.4f}, {hi:.4f}]), advantage {acc - 0.5:+.4f}; "
        f"decided on {dec:.3f} of outputs, accuracy there {acc_dec:.4f}; eps-DP allows at most {DP_BOUND:.5f}"
    )
    assert lo > DP_BOUND + 0.3  # the float mechanism is far from eps-DP

    # --- the exact lattice mechanism (distinguisher unchanged)
    d = DiscreteFlippedHuber(alpha=1e4, gamma=1e3, step=STEP)
    k0 = d.rvs(N, random_state=101, output="index")
    k1 = d.rvs(N, random_state=202, output="index")
    s0 = (lattice_index(0.0, STEP) + k0) * STEP
    s1 = (lattice_index(DELTA, STEP) + k1) * STEP
    acc, n, dec, acc_dec = _accuracy(s0, s1, rng)
    lo, hi = _wilson(acc, n)
    print(
        f"[attack] exact lattice (step 2^-10, DFH alpha=1e4 gamma=1e3): accuracy {acc:.4f} (99.9% CI [{lo:.4f}, {hi:.4f}]), "
        f"advantage {acc - 0.5:+.4f}; decided on {dec:.3f}, accuracy there {acc_dec:.4f}"
    )
    assert lo <= 0.5 <= hi or hi <= DP_BOUND  # chance level, within the DP bound
    assert hi < DP_BOUND + 0.01
