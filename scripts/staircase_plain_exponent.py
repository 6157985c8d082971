"""What fhsym.Staircase's profile beyond one period would lose with its exponents formed in plain doubles.

The class forms every exponent ``eps - n eps0`` of the per-period form as an exact double-double product
(``Staircase._sub_prod``).  This script replaces that by the plain double ``eps - n * eps0`` (the head terms; the runs'
exponents stay exact rationals) and measures the profile against the definition's exact piece sums at 50 digits
(``proofs/reference_steps.py``: ``StepRef.profile_far``) on the laws and eps of ``tests/test_step_laws.py``'s
beyond-one-period test, at 10^4, 10^5 and 10^6 periods.  Prints the worst relative error per shift.

    PYTHONPATH=. python scripts/staircase_plain_exponent.py
"""

from __future__ import annotations

import mpmath

import fhsym
from proofs.reference_steps import StepRef


class PlainExponent(fhsym.Staircase):
    def _sub_prod(self, eps, n):  # type: ignore[override]
        return eps - n * self.epsilon


FAR_LAWS = ((1.0, 1.0, 0.3), (0.7, 0.37, 0.2), (3.0, 2.5, 0.9), (0.5, 1.0, 1 - 1e-13), (0.4, 0.1, 0.5),
            (8.0, 1.0, 0.01))


def main() -> None:
    for per in (1e4 + 2.0**-30, 1e5 + 0.3, 999997.6):
        worst = {"plain": 0.0, "class": 0.0}
        for eps0, d0, g in FAR_LAWS:
            laws = {"plain": PlainExponent(eps0, d0, g), "class": fhsym.Staircase(eps0, d0, g)}
            with mpmath.workdps(60):
                ref = StepRef(eps0, mpmath.mpf(laws["class"].width) / d0, None, dps=50)
            d = per * d0
            for fe in (0.0, 0.37, 2.5, per - 0.5, per + 0.3, per + 1.7):
                e = fe * eps0
                with mpmath.workdps(60):
                    want = ref.profile_far(e, mpmath.mpf(d) / d0)
                for k, law in laws.items():
                    got = float(law.privacy_profile(e, d))
                    with mpmath.workdps(60):
                        err = float(abs(mpmath.mpf(got) / want - 1)) if want else abs(got)
                    worst[k] = max(worst[k], err)
        print(f"{per:.7g} periods: plain double exponents worst {worst['plain']:.1e}, the class (double-double) "
              f"{worst['class']:.1e} against 50-digit piece sums ({len(FAR_LAWS)} laws x 6 eps)")


if __name__ == "__main__":
    main()
