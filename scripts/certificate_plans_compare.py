"""The shipped laws' hand-written certificate plans against the generic plan of their declarations (issue 28).

For Gaussian, Laplace, OSGT and the truncated Laplace, the generic plan is what a declared twin runs for its
certificates: the certified crossing bracket of ``fhsym/_core/arb/crossing.py`` on the ball forms printed from the
law's declaration (``fhsym/_generated/declared/<law>.py``: ``psi_arb_0``, ``sf_arb_0``, ``loss_sup_arb``), at the
exact rational scale and shapes of the instance.  For each law, at points that include every case boundary of the
hand-written plan and far tails, it prints

* the relative width of both balls at the default ``rel_width`` (2^-60), the time per enclosure (the median of
  ``--repeat`` runs, the two plans timed interleaved in this process) and their ratio, with the load average;
* whether the two balls overlap (they must: both contain delta) and how often their float ends are equal;
* ``fhsym.calibrate(eps, delta, mechanism=law)`` at a few points with the class's plan and with the generic plan put
  in its place (``_arb_plan`` patched for the run): the calibrated parameters, equal bit for bit or not, and the
  certified upper ends (not timed: the enclosure table above is the interleaved timing).

The staircase is not log-concave (the crossing bracket's argument does not apply); it is not compared.

    PYTHONPATH=. python scripts/certificate_plans_compare.py [--repeat 3] [--no-calibrate]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from fractions import Fraction
from typing import Any, Callable, Dict, List, Tuple

from flint import fmpq

import fhsym
from fhsym._core.arb import Plan, enclose
from fhsym._core.arb.crossing import CrossingPlan, crossing_eval
from fhsym.codegen.declared_laws import generated_kernels
from fhsym.symbolic.laws import gaussian, laplace, osgt, truncated_laplace


def _q(x: float) -> fmpq:
    f = Fraction(x)
    return fmpq(f.numerator, f.denominator)


#: law -> (declaration, (scale, shapes) of an instance as exact rationals)
UNITS: Dict[str, Tuple[Any, Callable[[Any], Tuple[fmpq, Tuple[fmpq, ...]]]]] = {
    "gaussian": (gaussian.DECLARATION, lambda n: (_q(n.sigma), ())),
    "laplace": (laplace.DECLARATION, lambda n: (_q(n.beta), ())),
    "osgt": (osgt.DECLARATION, lambda n: (_q(n.varrho), (_q(n.vartheta) / _q(n.varrho),))),
    "truncated_laplace": (truncated_laplace.DECLARATION, lambda n: (_q(n.bound), (_q(n.bound) / _q(n.scale),))),
}


def generic_plan(law: str, noise: Any) -> Callable[[fmpq, fmpq], Plan]:
    """The declared twin's certificate plan (fhsym.noise.declared.DeclaredNoise._arb_plan) at exact shapes."""
    decl, units = UNITS[law]
    k = generated_kernels(decl)
    assert k is not None, law
    scale, shapes = units(noise)

    def plan(eps: fmpq, sens: fmpq) -> Plan:
        p = CrossingPlan(k.psi_arb, k.sf_arb, k.joins_exact, k.loss_sup_arb, shapes, eps, sens / scale,
                         end=k.end_exact)
        return crossing_eval, p, f"declared law {law!r}: certified crossing bracket of the loss"

    return plan


#: law -> [(instance, [(eps, Delta), ...])]: every case boundary of the hand-written plan and far tails
def points() -> Dict[str, List[Tuple[Any, List[Tuple[float, float]]]]]:
    G, L, O, T = fhsym.Gaussian, fhsym.Laplace, fhsym.OSGT, fhsym.TruncatedLaplace
    return {
        # t1 = eps sigma/Delta - Delta/(2 sigma) changes sign at eps = Delta^2/(2 sigma^2); delta ~ 1e-300 near eps 37
        "gaussian": [(G(1.0), [(0.0, 1.0), (0.5, 1.0), (1.0, 1.0), (3.0, 1.0), (10.0, 1.0), (37.0, 1.0),
                               (0.125, 0.5), (2.0, 2.0), (0.01, 0.1)]),
                     (G(4.224678889326917), [(1.0, 1.0), (0.1, 1.0)])],
        # delta = 0 exactly at eps >= Delta/beta
        "laplace": [(L(1.0), [(0.0, 1.0), (0.5, 1.0), (1.0 - 2.0**-40, 1.0), (1.0, 1.0), (2.0, 1.0), (0.1, 3.0)]),
                    (L(1e-3), [(5.0, 1.0)])],
        # the OSGT switch eps = S(S + 2 theta)/2 (S = Delta/varrho, theta = vartheta/varrho): 1.5 at (1, 1, 1)
        "osgt": [(O(1.0, 1.0), [(0.0, 1.0), (1.0, 1.0), (1.5, 1.0), (2.0, 1.0), (10.0, 1.0), (30.0, 1.0)]),
                 (O(183942.38784311805, 428.88680069089565), [(1.0, 1.0), (0.5, 1.0)]),
                 (O(1e-3, 1.0), [(0.5005, 1.0), (1.0, 1.0)])],
        # x = A - Delta = 0 (Delta = A), Delta = 2A (delta = 1), eps = Delta/lambda
        "truncated_laplace": [(T(1.0, 1.0), [(0.5, 1.0), (1.0, 1.0), (0.5, 0.5), (0.5, 1.5), (0.0, 2.0),
                                             (3.0, 1.5), (1.5, 1.5)]),
                              (T(1.0, 13.663689395970382), [(1.0, 1.0), (0.5, 1.0)])],
    }


def _time_pair(a: Callable[[], Any], b: Callable[[], Any], repeat: int) -> Tuple[Any, float, Any, float]:
    """Both results and their median times, measured interleaved in this process (a, b, a, b, ...)."""
    ta, tb, ra, rb = [], [], None, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        ra = a()
        t1 = time.perf_counter()
        rb = b()
        t2 = time.perf_counter()
        ta.append(t1 - t0)
        tb.append(t2 - t1)
    return ra, statistics.median(ta), rb, statistics.median(tb)


def _rel(e: Any) -> float:
    return 0.0 if e.upper == e.lower else ((e.upper - e.lower) / e.lower if e.lower > 0 else float("inf"))


def compare_enclosures(repeat: int) -> None:
    print(f"law                 | points | hand: worst rel width, time/enclosure | generic: worst rel width, "
          f"time/enclosure | generic/hand (ratio of the summed medians, interleaved, {repeat} rounds) | overlap | "
          f"equal float ends")
    for law, rows in points().items():
        wh, wg, th, tg, overlap, equal, n = 0.0, 0.0, [], [], True, 0, 0
        for noise, pts in rows:
            plan = generic_plan(law, noise)
            for e, s in pts:
                eh, t1, eg, t2 = _time_pair(lambda: noise.profile_enclosure(e, s), lambda: enclose(plan, e, s), repeat)
                n += 1
                th.append(t1)
                tg.append(t2)
                if eh.upper > 0:
                    wh, wg = max(wh, _rel(eh)), max(wg, _rel(eg))
                overlap &= eh.lower <= eg.upper and eg.lower <= eh.upper
                equal += (eh.lower, eh.upper) == (eg.lower, eg.upper)
                if (eh.lower, eh.upper) != (eg.lower, eg.upper):
                    print(f"    {law} {noise} eps={e!r} Delta={s!r}: hand [{eh.lower!r}, {eh.upper!r}] "
                          f"generic [{eg.lower!r}, {eg.upper!r}]")
        print(f"{law:19s} | {n:6d} | {wh:9.2e}, {1e3 * statistics.mean(th):7.2f} ms (max {1e3 * max(th):.2f}) | "
              f"{wg:9.2e}, {1e3 * statistics.mean(tg):7.2f} ms (max {1e3 * max(tg):.2f}) | {sum(tg) / sum(th):5.1f}x | "
              f"{overlap} | {equal}/{n}")


CAL_POINTS = [(1.0, 1e-6), (0.1, 1e-3), (3.0, 1e-12), (0.5, 1e-9)]


def compare_calibrations() -> None:
    print("\nfhsym.calibrate(eps, delta, mechanism=law): the class's plan vs the generic plan in its place")
    classes: Dict[str, Any] = {"gaussian": fhsym.Gaussian, "laplace": fhsym.Laplace, "osgt": fhsym.OSGT,
               "truncated_laplace": fhsym.TruncatedLaplace}
    for law, cls in classes.items():
        for e, d in CAL_POINTS:
            a = fhsym.calibrate(e, d, mechanism=law)
            own = cls._arb_plan
            cls._arb_plan = lambda self, eps, sens, law=law: generic_plan(law, self)(eps, sens)
            try:
                b = fhsym.calibrate(e, d, mechanism=law)
            finally:
                cls._arb_plan = own
            same = a.mechanism.parameters == b.mechanism.parameters
            print(f"  {law} ({e}, {d:g}): hand {a.mechanism} upper {a.certificate.upper!r}; generic "
                  f"{b.mechanism} upper {b.certificate.upper!r}; parameters bit for bit: {same}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-calibrate", action="store_true")
    args = ap.parse_args()
    if args.repeat < 1:
        raise SystemExit("--repeat must be >= 1")
    print(f"load average {os.getloadavg()[0]:.2f}")
    compare_enclosures(args.repeat)
    if not args.no_calibrate:
        compare_calibrations()


if __name__ == "__main__":
    main()
