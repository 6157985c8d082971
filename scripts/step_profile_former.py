"""Compare the step laws' privacy profile beyond one period (issue 28: the derived per-period forms of
``fhsym.symbolic.steps.profile_periods`` and ``profile_periods_cut``, printed into ``fhsym/_generated/declared/``) with
the former classes' exact-rational lattice sums (``fhsym/noise/staircase.py`` and ``truncated_staircase.py`` at a git
revision, default fbac25f), and both with the definition's exact piece sums at 50 digits (``proofs/reference_steps.py``:
``StepRef.profile_far``).

Fixed samples.  Staircase: 5 laws (Delta0 in {0.37, 1, 2.5, 0.1}, W near 1 among them) x 9 shifts (d/Delta0 from
1 + 2^-40 to 10^5) x 6 eps (0 to past the largest level difference).  Truncated staircase: 7 laws (B/Delta0 from 1
to 40.5; K = 1, rho = 0, W near 1 among them) x up to 12 shifts in (1, 2B) (whole periods, B +- tiny, 2B - tiny) x 6
eps.  Prints, per law, the share of values equal bit for bit, the worst relative change, the worst relative error of
each against the definition, and the time per call of each.

    PYTHONPATH=. python scripts/step_profile_former.py [REV]
"""

from __future__ import annotations

import math
import random
import sys
import time
from typing import Any, Iterator, Tuple

import mpmath

import fhsym
from proofs.reference_steps import StepRef

from _former_module import load_former  # scripts/ is on the path: run as a script

STAIR = ((1.0, 1.0, 0.3), (0.7, 0.37, 0.2), (3.0, 2.5, 0.9), (0.5, 1.0, 1 - 1e-13), (2.0, 0.1, 0.5))
PERIODS = (1 + 2.0**-40, 1 + 1.5e-13, 2.0, 3.7, 31.25, 1000.3, 1e4 + 2.0**-30, 1e5 + 0.3, 99999.0)
CUT = ((1.0, 1.0, 0.3, 5.25), (0.7, 0.37, 0.2, 1.1), (3.0, 2.5, 0.9, 2.95), (0.5, 1.0, 0.6, 1.0), (2.0, 0.1, 0.4, 3.0),
       (0.3, 1.0, 0.5, 40.5), (1.0, 1.0, 1 - 1e-13, 3.0 + 1e-13))


def stair_cases(Old: Any) -> Iterator[Tuple[Any, Any, Any, float, float]]:
    for eps0, d0, gamma in STAIR:
        new, old = fhsym.Staircase(eps0, d0, gamma), Old(eps0, d0, gamma)
        with mpmath.workdps(60):
            ref = StepRef(eps0, mpmath.mpf(new.width) / d0, None, dps=50)
        for per in PERIODS:
            yield new, old, ref, per, d0


def cut_cases(Old: Any) -> Iterator[Tuple[Any, Any, Any, float, float]]:
    rnd = random.Random(3)
    for eps0, d0, gamma, bb in CUT:
        new, old = fhsym.TruncatedStaircase(eps0, d0, gamma, bb * d0), Old(eps0, d0, gamma, bb * d0)
        with mpmath.workdps(60):
            beta = mpmath.mpf(new.bound) / d0
            ref = StepRef(eps0, mpmath.mpf(new.width) / d0, beta, dps=50)
        b = float(beta)
        for per in sorted({1 + 2.0**-40, 1.5, 2.0, b - 1, b - 2.0**-30, b, b + 2.0**-30, b + 0.5, 2 * b - 0.25,
                           2 * b - 2.0**-35, math.floor(b) + 1.0, 1 + rnd.uniform(0, 2 * b)}):
            if 1.0 < per < 2 * b:
                yield new, old, ref, per, d0


def compare(label: str, rev: str, cases: Iterator[Tuple[Any, Any, Any, float, float]]) -> None:
    M = mpmath.mpf
    same = n = 0
    change = err_new = err_old = 0.0
    t_new = t_old = 0.0
    for new, old, ref, per, d0 in cases:
        d = per * d0
        for fe in (0.0, 0.37, 2.5, per - 0.5, per + 0.3, per + 1.7):
            e = fe * new.epsilon
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
    print(f"{label}: {n} profiles beyond one period: {same} bit for bit ({100 * same / n:.1f} %), worst relative "
          f"change {change:.1e} against {rev}")
    print(f"  against the definition (50 digits): derived form {err_new:.1e}, former lattice sum {err_old:.1e}")
    print(f"  time per call: derived form {1e3 * t_new / n:.3f} ms, former lattice sum {1e3 * t_old / n:.2f} ms")


def main() -> None:
    rev = sys.argv[1] if len(sys.argv) > 1 else "fbac25f"
    OldS = load_former(rev, "fhsym/noise/staircase.py", "fhsym.noise._former_staircase").Staircase
    # golden_section moved from fhsym._core.search to fhsym._core.minimise after fbac25f (the search split)
    moved = [("from .._core.search import golden_section", "from .._core.minimise import golden_section")]
    OldT = load_former(rev, "fhsym/noise/truncated_staircase.py", "fhsym.noise._former_ts", moved).TruncatedStaircase
    compare("truncated staircase", rev, cut_cases(OldT))
    compare("staircase", rev, stair_cases(OldS))


if __name__ == "__main__":
    main()
