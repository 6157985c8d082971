"""The checks ``--quick`` leaves out (``python -m proofs --quick``, ``fhsym verify --quick``).

``--quick`` is the smoke subset a user waits for (issue 30: 3.4 min before; the target is at most 90 s on two
cores, and docs/performance.md gives the measured times; ``--times N`` lists a run's slowest checks).
The rule: every topic, and every paper object (``Check.obj``) a quick run checked before, keeps at least one
check in the subset (``tests/test_proofs.py`` asserts it); what leaves is the slower of two checks of the same
object, named here with the check that stays.  The discrete topic's three building blocks (lattice sums,
Euler-Maclaurin bounds, Hermite derivatives) leave too: the checks that stay (normaliser, cdf/sf, variance,
profile, enclosure) compare what is built from them with exact summation.  The full run (``fhsym verify``,
``proofs/REPORT.md``) runs everything.
"""

from __future__ import annotations

from typing import Dict

#: check key -> the check of the same object (or the reason) that keeps it covered in --quick
LEFT_OUT_OF_QUICK: Dict[str, str] = {
    # distribution: a derivation and its quadrature comparison, or a kernel and its negative control
    "distribution.mgf_derivation": "distribution.mgf_subgaussian",
    "distribution.mgf_vs_quadrature": "distribution.mgf_subgaussian",
    "distribution.orlicz_derivation": "distribution.orlicz_monotone",
    "distribution.orlicz_vs_quadrature": "distribution.orlicz_monotone",
    "distribution.variance_derivation": "distribution.variance_vs_quadrature",
    "distribution.density_vs_quadrature": "distribution.density_normalised",
    "distribution.nfi_vs_quadrature": "distribution.nfi_bounds",
    "distribution.fisher_vs_quadrature": "distribution.fisher_derivation",
    "distribution.cdf_center_vs_quadrature": "distribution.cdf_center_derivation",
    "distribution.cdf_tail_upper_vs_quadrature": "distribution.cdf_tail_upper_derivation",
    "distribution.cdf_tail_lower_vs_quadrature": "distribution.cdf_tail_lower_derivation",
    "distribution.ppf_center_vs_quadrature": "distribution.ppf_center_derivation",
    "distribution.ppf_tail_vs_quadrature": "distribution.ppf_tail_derivation",
    "distribution.kernel_moment_std": "distribution.control_moment_std",
    "distribution.kernel_logsf_center": "distribution.control_logsf_center",
    "distribution.kernel_logsf_tail": "distribution.control_logsf_tail",
    "distribution.kernel_isf_tail": "distribution.control_isf_tail",
    "distribution.kernel_isf_tail_direct": "distribution.control_isf_tail_direct",
    "distribution.kernel_log_omega_tilde": "distribution.control_log_omega_tilde",
    "distribution.kernel_log_mgf_half_pos": "distribution.control_log_mgf_half_pos",
    "distribution.kernel_log_mgf_half_pos_far": "distribution.control_log_mgf_half_pos_far",
    "distribution.kernel_log_mgf_half_neg": "distribution.control_log_mgf_half_neg",
    # privacy profile: the two costliest symbolic proofs (4-7 s CPU each); the quick run keeps the checks of the same
    # object that test the same forms against the definition: the profile against quadrature of the hockey-stick
    # integral inside every case of the five regimes (the continuity at the case boundaries is then shown by the full
    # run only), and eq 15's inverse against bisection of the definition, with its PP1 erratum row
    "privacy_profile.profile_continuity": "privacy_profile.profile_vs_quadrature_alphaltDelta_2, "
                                          "privacy_profile.profile_vs_quadrature_Delta_2ltalphaltDelta, "
                                          "privacy_profile.profile_vs_quadrature_alphagtDelta",
    "privacy_profile.eq15_symbolic": "privacy_profile.eq15_vs_definition, privacy_profile.eq15_flat_point_erratum",
    # K dimensions
    "kdim.lemma5_eq20": "kdim.lemma5_statement",
    "kdim.table2_delta": "kdim.theorem8_box",
    "kdim.box_worst_case": "kdim.algorithm2_vs_pld",
    # discrete: building blocks, compared end to end with exact sums by the checks that stay
    "discrete.lattice_sums": "discrete.normaliser, discrete.variance (exact summation)",
    "discrete.em_bounds": "discrete.normaliser, discrete.cdf_sf (exact summation)",
    "discrete.hermite": "discrete.normaliser, discrete.variance (exact summation)",
}
