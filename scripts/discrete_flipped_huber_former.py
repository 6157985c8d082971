"""Compare ``fhsym.DiscreteFlippedHuber`` (the centre's log tail and the Gaussian tail's summand exponent printed from
its declaration, issue 28) with the former hand-written class and lattice sums (``fhsym/noise/discrete_flipped_huber.py``
and ``lattice_sums.py`` at a git revision, default af7ecfb): logpmf, cdf, sf, logsf, logcdf at 81 lattice points,
log Z, the variance, the log profile (eps 0.1, 1, 3; 4 steps) and the privacy loss (1, 4, 37 steps, k around
-S/2, 0, K and in the tail) of 64 laws (60 random: gamma 0.1 .. 1000, step
2^-8 .. 4, alpha/gamma 1e-3 .. 30; and four fixed); and the lattice sums themselves where the laws above rarely reach
them: log R_0 and log R_2 on their Euler-Maclaurin path (array and one-point forms, 2,000 random (m, c) with c in
1e-9 .. 5e-3, m up to 1e12) and the n^2 centre sum (400 random (K, lam), K up to 1e9, lam 1e-9 .. 10: direct and
Euler-Maclaurin); and the certificate plan of claim ``profile-lattice`` (``fhsym/noise/discrete_profile_arb.py``, its
formulas printed as ball programs from the declaration): the profile balls (midpoint and radius), their outward float
ends and log ends, and ``profile_upper_ends``, for the laws above at 1, 4 and 37 steps and eps in {0, 0.1, 1, 3, lam S}.
Prints the share of values that are bit for bit the former ones.

    PYTHONPATH=. python scripts/discrete_flipped_huber_former.py [REV]
"""

from __future__ import annotations

import sys
from typing import Any, Dict

import numpy as np

import fhsym.noise
from fhsym.noise import DiscreteFlippedHuber

from _former_module import load_former as _load  # scripts/ is on the path: run as a script


def main() -> None:
    rev = sys.argv[1] if len(sys.argv) > 1 else "af7ecfb"
    assert fhsym.noise  # the package the former modules import from
    OldLS = _load(rev, "fhsym/noise/lattice_sums.py", "fhsym.noise._former_lattice_sums")
    Old = _load(rev, "fhsym/noise/discrete_flipped_huber.py", "fhsym.noise._former_dfh",
                [("from . import lattice_sums as LS", "from . import _former_lattice_sums as LS")]).DiscreteFlippedHuber
    g = np.random.default_rng(5)
    same: Dict[str, int] = {}
    total: Dict[str, int] = {}
    worst: Dict[str, float] = {}

    def note(key: str, new: Any, old: Any) -> None:
        a, b = np.atleast_1d(np.asarray(new, float)), np.atleast_1d(np.asarray(old, float))
        eq = (a == b) | (np.isnan(a) & np.isnan(b))
        same[key] = same.get(key, 0) + int(eq.sum())
        total[key] = total.get(key, 0) + a.size
        with np.errstate(all="ignore"):
            d = np.where(eq, 0.0, np.abs(a - b) / np.abs(b))
        worst[key] = max(worst.get(key, 0.0), float(np.nanmax(d)))

    params = []
    for _ in range(60):
        gam = float(10 ** g.uniform(-1, 3))
        step = float(2.0 ** int(g.integers(-8, 3)))
        params.append((float(gam * 10 ** g.uniform(-3, 1.5)), gam, step))
    params += [(0.0, 100.0, 1.0), (1.0, 2.0, 0.25), (1.0, 1.0, 0.5), (50.0, 3.0, 0.001953125)]
    count = 0
    for alpha, gamma, step in params:
        try:
            new, old = DiscreteFlippedHuber(alpha, gamma, step), Old(alpha, gamma, step)
        except ValueError:
            continue
        count += 1
        x = (np.arange(-40, 41) * max(1, int(alpha / step) // 20 + 1)).astype(float) * step
        for name in ("logpmf", "cdf", "sf", "logsf", "logcdf"):
            note(name, getattr(new, name)(x), getattr(old, name)(x))
        note("log Z", new.log_normaliser(), old.log_normaliser())
        note("variance", new.var(), old.var())
        for e in (0.1, 1.0, 3.0):
            note("log profile", new.log_privacy_profile(e, 4 * step), old.log_privacy_profile(e, 4 * step))
        for s in (1, 4, 37):  # the loss at k around -S/2, 0, K and in the tail
            ks = sorted({-s - 1, -(s // 2) - 1, -(s // 2), 0, 1, new.K - s, new.K - 1, new.K, new.K + 1, 3 * new.K + 50})
            note("loss", [new._loss(k, s) for k in ks], [old._loss(k, s) for k in ks])
    from fhsym.noise import lattice_sums as LS

    em_points = em_paths = 0
    while em_paths < 2000:
        c, m = float(10 ** g.uniform(-9, -2.3)), np.floor(10 ** g.uniform(0, 12, size=4))
        m = m[LS.terms_needed(m, c) > LS.DIRECT_TERMS]
        if m.size == 0:
            continue
        em_paths += 1
        for p in (0, 2):
            note(f"log R_{p} (EM)", LS._log_r(m, c, p), OldLS._log_r(m, c, p))
            note(f"log R_{p} (EM)", LS._log_r(m[:1], c, p), OldLS._log_r(m[:1], c, p))  # the one-point path
            em_points += m.size + 1
    em2 = 0
    for _ in range(400):
        lam, K = float(10 ** g.uniform(-9, 1)), float(np.floor(10 ** g.uniform(0, 9)))
        em2 += int(min(K, np.ceil((44.0 + 2 * np.log(max(K, 2.0))) / lam) + 2) > 200_000)
        note("n^2 centre", [LS.geometric2(K, lam), LS.log_geometric2(K, lam)],
             [OldLS.geometric2(K, lam), OldLS.log_geometric2(K, lam)])
    # the certificate plan (claim profile-lattice): the balls of the printed ball programs against the former
    # hand-written module's, mid and radius compared exactly, and the float ends a certificate records
    from flint import ctx as arb_ctx

    from fhsym.noise import discrete_profile_arb as NA

    OA = _load(rev, "fhsym/noise/discrete_profile_arb.py", "fhsym.noise._former_discrete_profile_arb")
    balls = balls_em = 0
    em_calls = {"past the zeros": 0, "Cauchy-Schwarz": 0}
    printed_em = NA._gen.em_tail_arb

    def counted(m: int, c: Any, b2h: Any, k: Any) -> Any:  # which remainder bound the printed program takes
        em_calls["past the zeros" if c * m >= k[2] else "Cauchy-Schwarz"] += 1
        return printed_em(m, c, b2h, k)

    NA._gen.em_tail_arb = counted
    for alpha, gamma, step in params:
        try:
            DiscreteFlippedHuber(alpha, gamma, step)
        except ValueError:
            continue
        lam = alpha * step / gamma**2
        em_law = (step / gamma) ** 2 / 2 * 800 <= 1  # the plan's Euler-Maclaurin tails are reachable
        for s in (1, 4, 37):
            epss = [0.0, 0.1, 1.0, 3.0] + ([lam * s] if 0 < lam * s < 50 else [])
            for e in epss:
                new_b, old_b = NA.profile_ball(e, alpha, gamma, step, s), OA.profile_ball(e, alpha, gamma, step, s)
                key = "plan ball"
                same[key] = same.get(key, 0) + int(new_b.mid().man_exp() == old_b.mid().man_exp()
                                                   and new_b.rad().man_exp() == old_b.rad().man_exp())
                total[key] = total.get(key, 0) + 1
                worst[key] = 0.0 if key not in worst else worst[key]
                balls += 1
                balls_em += int(em_law)
                for lg in (False, True):
                    note("plan ends", NA.ball_ends(new_b, lg), OA.ball_ends(old_b, lg))
            note("plan upper ends", NA.profile_upper_ends(epss, alpha, gamma, step, 4),
                 OA.profile_upper_ends(epss, alpha, gamma, step, 4))
    NA._gen.em_tail_arb = printed_em
    assert arb_ctx.prec == 53  # the enclosures restore the caller's precision
    print(f"{count} laws, former = {rev}; lattice sums: {em_points} Euler-Maclaurin tail values, 400 n^2 centre sums "
          f"({em2} on the Euler-Maclaurin path); certificate plan: {balls} profile balls ({balls_em} of laws whose "
          f"Gaussian tails may take the Euler-Maclaurin path; its tails evaluated (new code, memo misses): "
          f"{em_calls['past the zeros']} past the zeros of He_40, {em_calls['Cauchy-Schwarz']} before)")
    for key in same:
        print(f"  {key:12s} bit for bit {same[key]}/{total[key]} ({100 * same[key] / total[key]:.1f} %), "
              f"worst relative difference {worst[key]:.2e}")


if __name__ == "__main__":
    main()
