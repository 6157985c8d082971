"""Independent reference computations for tests/optimum: exact rationals and mpmath only (no fhsym code).

* :func:`density` and :func:`hockey_stick`: the piecewise-uniform density straight from its
  definition and the hockey-stick integral int [g(t) - e^eps g(t + d)]_+ dt by exact piecewise
  summation (the integrand is constant between consecutive bin edges of g(t) and g(t + d));
* :func:`dual_bound`: the weak-duality bound of the quantised LP rebuilt from its definition
  (rows as dicts keyed by variable names), in Fractions.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp


def total(weights):
    return weights[0] + 2 * sum(weights[1:])


def density(width: Fraction, weights, t: Fraction) -> Fraction:
    """g(t) = q_k / w on [(k - 1/2) w, (k + 1/2) w), q_k = n_|k| / N."""
    k = math.floor(t / width + Fraction(1, 2))
    if abs(k) >= len(weights):
        return Fraction(0)
    return Fraction(weights[abs(k)], total(weights)) / width


def hockey_stick(width: float, weights, eps: float, d: float, dps: int = 40) -> mp.mpf:
    """int [g(t) - e^eps g(t + d)]_+ dt, summed exactly piece by piece (mpmath only for e^eps)."""
    w, dd = Fraction(width), Fraction(d)
    M = len(weights) - 1
    edges = [(k + Fraction(1, 2)) * w for k in range(-M - 1, M + 1)]
    pts = sorted(set(edges) | {e - dd for e in edges})
    with mp.workdps(dps):
        E = mp.exp(mp.mpf(eps))
        acc = mp.mpf(0)
        for a, b in zip(pts, pts[1:]):
            mid = (a + b) / 2
            g1 = density(w, weights, mid)
            if g1 == 0:
                continue
            g2 = density(w, weights, mid + dd)
            v = mp.mpf(g1.numerator) / g1.denominator - E * (mp.mpf(g2.numerator) / g2.denominator)
            if v > 0:
                acc += mp.mpf((b - a).numerator) / (b - a).denominator * v
        return +acc


def dual_bound(dual: dict) -> Fraction:
    """The weak-duality lower bound on the LP value from the recorded dual (JSON form), rebuilt from the LP's definition
    (:func:`dual_bounds` at the dual's own delta)."""
    return dual_bounds(dual, [dual["delta"]])[0]


def dual_bounds(dual: dict, deltas) -> list:
    """:func:`dual_bound` of the same dual with its ``delta`` replaced by each of ``deltas`` (the rows' multipliers and
    reduced costs do not depend on delta: they are rebuilt once).

    Variables ("q", i) i = 0..M, ("t",), ("s", j, k), ("sE", j); rows ("jk", j, k): q_|k| - r q_|k-j| - s_{j,k} <= 0,
    ("E", j): sum_{i = M-j+1}^{M} q_i - r t - sE_j <= 0, ("d", j): sum_k s_{j,k} + sE_j <= delta; normalisation
    q_0 + 2 sum q_i + 2 t = 1; cost a_i (i/m)^2 for q_i, 2 ((M+1)/m)^2 for t.
    """
    m, M, r = dual["m"], dual["M"], Fraction(dual["r"])
    y = Fraction(dual["y"])
    z = {j: min(Fraction(v), Fraction(0)) for j, v in zip(range(1, m + 1), dual["z"])}

    def clip(v, j):
        return min(max(Fraction(v), z[j]), Fraction(0))

    mult = {}  # row -> multiplier (<= 0)
    for j, k, v in zip(dual["u"]["j"], dual["u"]["k"], dual["u"]["value"]):
        assert 1 <= j <= m and -M + j <= k <= M
        mult[("jk", j, k)] = clip(v, j)
    for j in range(1, m + 1):
        mult[("E", j)] = clip(dual["u_e"][j - 1], j)
        mult[("d", j)] = z[j]

    def row(name):
        if name[0] == "jk":
            _, j, k = name
            coef = {("q", abs(k)): Fraction(1)}
            coef[("q", abs(k - j))] = coef.get(("q", abs(k - j)), Fraction(0)) - r
            coef[("s", j, k)] = Fraction(-1)
            return coef
        if name[0] == "E":
            j = name[1]
            coef = {("q", i): Fraction(1) for i in range(M - j + 1, M + 1)}
            coef[("t",)] = -r
            coef[("sE", j)] = Fraction(-1)
            return coef
        j = name[1]
        coef = {("s", j, k): Fraction(1) for k in range(-M + j, M + 1)}
        coef[("sE", j)] = Fraction(1)
        return coef

    weight = {("q", i): Fraction(1 if i == 0 else 2) for i in range(M + 1)}
    weight[("t",)] = Fraction(2)
    cost = {("q", i): weight[("q", i)] * Fraction(i * i, m * m) for i in range(M + 1)}
    cost[("t",)] = 2 * Fraction((M + 1) ** 2, m * m)
    rho = {v: cost[v] - y * weight[v] for v in weight}
    s_rho = {}
    for name, mu in mult.items():
        if mu == 0:
            continue
        for var, a in row(name).items():
            if var in rho:
                rho[var] -= a * mu
            else:
                s_rho[var] = s_rho.get(var, Fraction(0)) - a * mu
    # s and sE columns have cost 0 and no normalisation weight: their reduced cost must be >= 0
    # (a column untouched by any non-zero multiplier has reduced cost 0)
    assert all(v >= 0 for v in s_rho.values()), min(s_rho.values())
    bases = [y + Fraction(delta) * sum(z.values()) for delta in deltas]
    if dual.get("cap") is None:
        worst = max([Fraction(0)] + [-v / weight[var] for var, v in rho.items()])
        return [base - worst for base in bases]
    # capped: for a feasible x with c.x <= U each column has x_v <= U / cost_v (costs >= 0), so
    # min sum_v rho_v x_v over {x >= 0, sum_v weight_v x_v <= 1, x_v <= U / cost_v} bounds rho.x below.  Computed here
    # by its Lagrangian dual (not by the greedy fhsym uses): that minimum is
    # max_{lam >= 0} -lam + sum_v min over x_v in [0, cap_v] of (rho_v + lam weight_v) x_v, a concave piecewise-linear
    # function of lam whose maximum sits at lam = 0 or at a breakpoint lam = -rho_v / weight_v; a column without a
    # cap (cost 0) forces lam >= -rho_v / weight_v.
    U = Fraction(dual["cap"])
    assert U >= 0
    caps = {v: (U / cost[v] if cost[v] > 0 else None) for v in rho}
    floor = max([Fraction(0)] + [-rho[v] / weight[v] for v in rho if caps[v] is None])

    def g(lam):
        return -lam + sum(caps[v] * min(Fraction(0), rho[v] + lam * weight[v]) for v in rho if caps[v] is not None)

    lams = [floor] + [-rho[v] / weight[v] for v in rho if rho[v] < 0 and -rho[v] / weight[v] > floor]
    least = max(g(lam) for lam in lams)
    return [min(U, base + least) for base in bases]
