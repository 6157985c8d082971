"""Compare ``fhsym.Staircase``'s privacy profile beyond one period (issue 28: the derived per-period form of
``fhsym.symbolic.steps.profile_periods``, printed into ``fhsym/_generated/declared/staircase.py``) with the former
class's exact-rational lattice sum (``fhsym/noise/staircase.py`` at a git revision, default fbac25f), and both with
the definition's exact piece sums at 50 digits (``proofs/reference_steps.py``: ``StepRef.profile_far``).

Fixed sample: 5 laws (Delta0 in {0.37, 1, 2.5, 0.1}, W near 1 among them) x 9 shifts (d/Delta0 from 1 + 2^-40 to
10^5) x 6 eps (0 to past the largest level difference).  Prints the share of values equal bit for bit, the worst
relative change, the worst relative error of each against the definition, and the time per call of each.

    PYTHONPATH=. python scripts/staircase_profile_former.py [REV]
"""

from __future__ import annotations

import sys
import time

import mpmath

import fhsym
from proofs.reference_steps import StepRef

from _former_module import load_former  # scripts/ is on the path: run as a script

LAWS = ((1.0, 1.0, 0.3), (0.7, 0.37, 0.2), (3.0, 2.5, 0.9), (0.5, 1.0, 1 - 1e-13), (2.0, 0.1, 0.5))
PERIODS = (1 + 2.0**-40, 1 + 1.5e-13, 2.0, 3.7, 31.25, 1000.3, 1e4 + 2.0**-30, 1e5 + 0.3, 99999.0)


def main() -> None:
    rev = sys.argv[1] if len(sys.argv) > 1 else "fbac25f"
    Old = load_former(rev, "fhsym/noise/staircase.py", "fhsym.noise._former_staircase").Staircase
    M = mpmath.mpf
    same = n = 0
    change = err_new = err_old = 0.0
    t_new = t_old = 0.0
    for eps0, d0, gamma in LAWS:
        new, old = fhsym.Staircase(eps0, d0, gamma), Old(eps0, d0, gamma)
        with mpmath.workdps(60):
            ref = StepRef(eps0, M(new.width) / d0, None, dps=50)
        for per in PERIODS:
            d = per * d0
            for fe in (0.0, 0.37, 2.5, per - 0.5, per + 0.3, per + 1.7):
                e = fe * eps0
                t = time.perf_counter()
                vn = float(new.privacy_profile(e, d))
                t_new += time.perf_counter() - t
                t = time.perf_counter()
                vo = float(old.privacy_profile(e, d))
                t_old += time.perf_counter() - t
                with mpmath.workdps(60):
                    want = ref.profile_far(e, M(d) / d0)
                    err_new = max(err_new, float(abs(M(vn) / want - 1)) if want else abs(vn))
                    err_old = max(err_old, float(abs(M(vo) / want - 1)) if want else abs(vo))
                n += 1
                same += vn == vo
                change = max(change, abs(vn - vo) / abs(vo) if vo else abs(vn))
    print(f"{n} profiles beyond one period: {same} bit for bit ({100 * same / n:.1f} %), worst relative change "
          f"{change:.1e} against {rev}")
    print(f"against the definition (50 digits): derived form {err_new:.1e}, former lattice sum {err_old:.1e}")
    print(f"time per call: derived form {1e3 * t_new / n:.3f} ms, former lattice sum {1e3 * t_old / n:.1f} ms")


if __name__ == "__main__":
    main()
