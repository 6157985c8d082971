"""Accounting for many coordinates and many releases.

* :mod:`~fhsym.accounting.pld` -- privacy-loss distributions: pessimistic discretisation of a
  1-D profile, FFT composition, certified upper / lower bounds on delta(eps).
* :mod:`~fhsym.accounting.kdim` -- the exact K-dimensional profile of i.i.d. FH noise
  (worst-case difference vectors, K-fold PLD).
* :mod:`~fhsym.accounting.sufficient` -- Theorem 8 (the paper's sufficient condition) and its lemmas.
* :mod:`~fhsym.accounting.zcdp` -- zero-concentrated DP: parameters, composition, conversion.
* :mod:`~fhsym.accounting.iterative` -- the paper's Algorithm 2 (iterative integration).
"""

from .iterative import iterative_profile
from .kdim import (
    KDimPLDConfig,
    aligned_step,
    default_step,
    kdim_epsilon,
    kdim_pld,
    kdim_privacy_profile,
    worst_case_candidates,
    worst_case_lower_bound,
)
from .pld import (
    PrivacyLossDistribution,
    compose,
    flipped_huber_pld,
    from_privacy_profile,
    gaussian_pld,
    laplace_pld,
)
from .sufficient import (
    R_Delta,
    R_Delta_inverse,
    alpha_max,
    applicable,
    lemma5_bound,
    lemma7_bound,
    log_theorem8_lhs,
    theorem8_holds,
    theorem8_lhs,
    theta,
)
from .zcdp import zcdp_compose, zcdp_delta, zcdp_params, zcdp_to_dp

__all__ = [
    "KDimPLDConfig",
    "PrivacyLossDistribution",
    "R_Delta",
    "R_Delta_inverse",
    "aligned_step",
    "alpha_max",
    "applicable",
    "compose",
    "default_step",
    "flipped_huber_pld",
    "from_privacy_profile",
    "gaussian_pld",
    "iterative_profile",
    "kdim_epsilon",
    "kdim_pld",
    "kdim_privacy_profile",
    "laplace_pld",
    "lemma5_bound",
    "lemma7_bound",
    "log_theorem8_lhs",
    "theorem8_holds",
    "theorem8_lhs",
    "theta",
    "worst_case_candidates",
    "worst_case_lower_bound",
    "zcdp_compose",
    "zcdp_delta",
    "zcdp_params",
    "zcdp_to_dp",
]
