"""K dimensions and composition for the flipped Huber mechanism (mission rows A8, A9, F).

* :mod:`fhsym.kdim.pld` -- privacy loss distributions with a certified upper and a lower
  bound on delta(eps); composition of any mix of FH, Gaussian and Laplace mechanisms.
* :mod:`fhsym.kdim.profile` -- the exact K-dimensional profile of i.i.d. FH noise, and the
  difference vectors it covers.
* :mod:`fhsym.kdim.sufficient` -- the paper's sufficient condition (Section IV-B, Theorem 8).
* :mod:`fhsym.kdim.iterative` -- the paper's Algorithm 2 (iterative integration), K <= 5.
* :mod:`fhsym.kdim.zcdp` -- zCDP of FH (talk slides / Sec VI-A) and zCDP -> (eps, delta).
* :mod:`fhsym.kdim.calibration` -- certified K-dimensional calibration.
"""

from .calibration import calibrate_kdim
from .iterative import iterative_profile
from .pld import (
    PrivacyLossDistribution,
    compose,
    flipped_huber_pld,
    from_privacy_profile,
    gaussian_pld,
    laplace_pld,
)
from .profile import (
    aligned_step,
    default_step,
    kdim_epsilon,
    kdim_pld,
    kdim_privacy_profile,
    worst_case_candidates,
    worst_case_lower_bound,
)
from .sufficient import (
    R_Delta,
    R_Delta_inverse,
    alpha_max,
    lemma5_bound,
    lemma7_bound,
    log_theorem8_lhs,
    theorem8_holds,
    theorem8_lhs,
    theta,
)
from .zcdp import zcdp_compose, zcdp_delta, zcdp_params, zcdp_to_dp

__all__ = [
    "calibrate_kdim",
    "iterative_profile",
    "zcdp_compose",
    "zcdp_delta",
    "zcdp_params",
    "zcdp_to_dp",
    "PrivacyLossDistribution",
    "compose",
    "flipped_huber_pld",
    "from_privacy_profile",
    "gaussian_pld",
    "laplace_pld",
    "aligned_step",
    "default_step",
    "kdim_epsilon",
    "kdim_pld",
    "kdim_privacy_profile",
    "worst_case_candidates",
    "worst_case_lower_bound",
    "R_Delta",
    "R_Delta_inverse",
    "alpha_max",
    "lemma5_bound",
    "lemma7_bound",
    "log_theorem8_lhs",
    "theorem8_holds",
    "theorem8_lhs",
    "theta",
]
