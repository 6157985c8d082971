"""Time ``DiscreteFlippedHuber(...).at_precision(digits)`` against the former ball view (``fhsym/noise/
precise_discrete.py`` at a git revision, default 9bb9e83: every Gaussian tail summed term by term), interleaved in one
process: sf at K + 1 steps (with Z), the variance and the profile at eps = 1, 4 steps, each on a fresh view, for laws
with long Gaussian tails (c = step/gamma = 1e-2 .. 1e-4), and whether the two agree to digits - 2 digits.  Which of
the two runs first alternates from one measurement to the next.

    PYTHONPATH=. python scripts/discrete_at_precision_former.py [DIGITS] [REV]
"""

from __future__ import annotations

import os
import sys
import time

import fhsym
import fhsym.noise
from fhsym.noise import precise_discrete as NEW

from _former_module import load_former  # scripts/ is on the path: run as a script


def main() -> None:
    digits = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    rev = sys.argv[2] if len(sys.argv) > 2 else "9bb9e83"
    old = load_former(rev, "fhsym/noise/precise_discrete.py", "fhsym.noise._former_precise_discrete")
    print(f"load {os.getloadavg()}, {digits} digits, former = {rev}")
    turn = 0
    for a, g, h in [(0.0, 100.0, 1.0), (1.0, 10.0, 0.01), (0.0, 1000.0, 1.0), (0.0, 10000.0, 1.0)]:
        d = fhsym.DiscreteFlippedHuber(a, g, h)
        for name, call in (("sf(K+1)", lambda P: P.sf((d.K + 1) * d.step)), ("var", lambda P: P.var()),
                           ("profile(1, 4 steps)", lambda P: P.privacy_profile(1.0, 4 * d.step))):
            got = {}
            for mod in ((old, NEW) if turn % 2 == 0 else (NEW, old)):  # who goes first alternates: no warm-up bias
                P = mod.DiscreteFlippedHuberAtPrecision(d, digits)
                t = time.perf_counter()
                v = call(P)
                got[mod] = (time.perf_counter() - t, v)
            turn += 1
            out = [got[old], got[NEW]]
            same = abs(out[0][1] - out[1][1]) <= abs(out[0][1]) * 10 ** -(digits - 2)
            print(f"  ({a}, {g}, {h}) c = {h / g:.0e} {name}: former {out[0][0]:.3f} s, now {out[1][0]:.3f} s, "
                  f"agree to {digits - 2} digits: {same}")


if __name__ == "__main__":
    main()
