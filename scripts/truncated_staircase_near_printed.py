"""The truncated staircase at shifts d <= Delta0: would the printed cut weights (``profile_weights_cut`` of
``fhsym.symbolic.steps``, printed as ``profile_weight_n`` and ``profile_inf`` into
``fhsym/_generated/declared/truncated_staircase.py``) be as accurate as the class's closed form of the plan?

Evaluates, at the class's exact parameters (d/Delta0, W, beta = K + rho as Fractions), (a) the printed form
I(d) + sum_n W_n(d) (1 - e^(eps - n eps0))_+, (b) a hybrid: I(d) = P(T > beta - d) from the derived tail with its first
periods factored out exactly (as the class does beyond one period) + the printed W_n, and (c) the class's
``privacy_profile``, each against the definition's exact piece sums at 50 digits (``proofs/reference_steps.py``), at
21 laws (the proofs' cases and four calibrated laws) x shifts at the cell edges, the cut, random ones x 6 eps.
Prints the worst relative error of each, the share bit for bit and the time per call (uncached).

    PYTHONPATH=. python scripts/truncated_staircase_near_printed.py
"""
import math, random
from fractions import Fraction
import mpmath, numpy as np
import fhsym
from fhsym._generated.declared import truncated_staircase as G
from proofs.reference_steps import StepRef

def printed(ts, e, d):
    d0 = Fraction(ts.sensitivity)
    du, beta, Wq = Fraction(d) / d0, Fraction(ts.bound) / d0, Fraction(ts.width) / d0
    K = math.floor(beta); rho = beta - K; e0 = ts.epsilon
    with np.errstate(under="ignore"):
        out = float(G.profile_inf(du, e0, Wq, K, rho))
        for n, fn in G.PROFILE_WEIGHTS.items():
            w = float(fn(du, e0, Wq, K, rho))
            if w > 0 and Fraction(e) < n * Fraction(e0):
                out += w * -math.expm1(e - n * e0)
    return out

def hybrid(ts, e, d):
    """P(T > beta - d) from the derived tail with its first periods factored out exactly (as the class's _far does) +
    the printed W_n (1 - e^(eps - n eps0))_+."""
    d0 = Fraction(ts.sensitivity)
    du, beta, Wq = Fraction(d) / d0, Fraction(ts.bound) / d0, Fraction(ts.width) / d0
    K = math.floor(beta); rho = beta - K; e0 = ts.epsilon; E0 = Fraction(e0)
    def rpow(k):
        if k * E0 > 800: return 0.0
        hi = float(k * E0)
        return math.exp(-hi) * math.exp(-float(k * E0 - Fraction(hi)))
    def tail(x):
        k = math.floor(x); u = x - k
        if k >= K and rho == 0: return 0.0
        s = min(k, K - 1); k, Ks = k - s, K - s
        if k >= Ks: val = G.sf_top(u, e0, Wq, Ks, rho)
        else: val = G.sf_0(k, Wq - u, e0, Wq, Ks, rho) if u < Wq else G.sf_1(k, 1 - u, e0, Wq, Ks, rho)
        return rpow(s) * float(val) * (float(G.norm(e0, Wq, Ks, rho)) / float(G.norm(e0, Wq, K, rho)))
    with np.errstate(under="ignore"):
        out = tail(beta - du)
        for n, fn in G.PROFILE_WEIGHTS.items():
            w = float(fn(du, e0, Wq, K, rho))
            if w > 0 and Fraction(e) < n * Fraction(e0):
                out += w * -math.expm1(e - n * e0)
    return out

worst_h = 0.0
rnd = random.Random(5)
laws = [(1.0, 1.0, 0.4, 5.3), (0.3, 2.0, 0.47, 31.7), (3.0, 0.5, 0.26, 2.1), (10.0, 1.0, 0.028, 2.0158),
        (0.05, 1.0, 0.0, 3.0), (2.0, 1.0, 1.0, 4.0), (0.7, 1.0, 0.3, 1.0), (0.1, 3.0, 0.49, 60.1), (6.0, 1.0, 0.1, 3.3),
        (1.0, 1.0, 0.4167, 3.5), (2.0, 1.0, 0.25, 1.0), (0.5, 2.0, 0.7, 5.3), (3.0, 1.0, 0.1, 2.05), (20.0, 1.0, 0.5, 2.5),
        (0.5, 1.0, 0.3, 40.5), (2.0, 1.0, 0.4, 12.3), (1.0, 0.37, 0.6, 0.37 * 25.2)]
for c in [fhsym.calibrate(e, dl, mechanism="truncated_staircase").mechanism for e, dl in ((0.1, 1e-6), (1.0, 1e-5), (3.0, 1e-8), (10.0, 1e-10))]:
    laws.append((c.epsilon, c.sensitivity, c.gamma, c.bound))
worst_new = worst_old = 0.0; n = same = 0; wchange = 0.0; t_new = t_old = 0.0
import time
for e0, d0, g, B in laws:
    ts = fhsym.TruncatedStaircase(e0, d0, g, B)
    with mpmath.workdps(60):
        ref = StepRef(e0, mpmath.mpf(ts.width) / mpmath.mpf(d0), mpmath.mpf(ts.bound) / mpmath.mpf(d0), dps=50)
    W = ts.width / d0; beta = ts.bound / d0; K = math.floor(beta)
    ds = [W, 1 - W, beta - K, 1.0, 1e-3, 0.5] + [beta - k - W for k in (K - 1, K)] + [rnd.uniform(0, 1) for _ in range(4)]
    for du in ds:
        if not 0 < du <= 1: continue
        d = du * d0
        if d > d0: continue
        for e in (0.0, e0 / 2, math.nextafter(e0, 0), e0, 2 * e0, 0.9 * e0):
            r = ref.profile(e, mpmath.mpf(d) / mpmath.mpf(d0))
            t0 = time.perf_counter(); a = printed(ts, e, d); t1 = time.perf_counter(); b = float(ts.privacy_profile(e, d)); t2 = time.perf_counter()
            t_new += t1 - t0; t_old += t2 - t1
            h = hybrid(ts, e, d)
            if r > 1e-300:
                worst_h = max(worst_h, float(abs(h - r) / r))
                en, eo = float(abs(a - r) / r), float(abs(b - r) / r)
                worst_new = max(worst_new, en); worst_old = max(worst_old, eo)
                if b: wchange = max(wchange, abs(a - b) / b)
            n += 1; same += a == b
print(f"hybrid (exact-tail infinite-loss mass + printed W_n): worst {worst_h:.2e}")
print(f"{len(laws)} laws, {n} points: printed cut weights worst {worst_new:.2e}, class (plan closed form) worst {worst_old:.2e} "
      f"against 50-digit piece sums; {same} of {n} bit for bit, worst change {wchange:.2e}; time printed {t_new/n*1e3:.3f} ms, class {t_old/n*1e3:.3f} ms a call")
