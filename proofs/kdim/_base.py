"""The kdim topic, its errata and the symbols its checks share (see the package docstring)."""

from __future__ import annotations

import sympy as sp

from fhsym.symbolic import kdim as SK

from .._harness import Topic

topic = Topic(
    "kdim",
    "K dimensions and composition: Section IV-B (Lemmas 5-7, Theorem 8), zCDP, the exact K-fold profile (A8, A9, F, G)",
    order=40,
    description=(
        "Symbols as in `fhsym.symbolic.kdim`. 'PLD' = `fhsym.accounting.pld`: certified upper and lower bounds on the exact "
        "K-fold privacy profile (connect-the-dots discretisation, FFT composition, explicit floating-point allowance). "
        "Standard units where stated: b = alpha/gamma, s = t/gamma."
    ),
)

K1 = topic.erratum(
    "K1",
    "Lemma 5's step (20), P{T'd > a} <= Q(a/(gamma ||d||_2)), is cited as a consequence of sub-Gaussianity, which "
    "only gives exp(-a^2/(2 gamma^2 ||d||^2)); it is true for FH by Proschan's peakedness theorem (HAND PROOF in docs/errata.md, K1)",
)
K2 = topic.erratum(
    "K2",
    "Lemma 7 is false for difference vectors below the extremes of the sensitivity set (normals with different "
    "variances are not stochastically ordered); it holds when ||d||_2 = Delta_2 and ||d||_1 = Delta_1, which suffices "
    "for Theorem 8 with only an l_inf sensitivity (box); for tighter l_2/l_1 sets Theorem 8 is only numerically supported",
)
K3 = topic.erratum(
    "K3",
    "Algorithm 2, line 4 integrates delta^(k-1)(eps - zeta~) where delta^(k-1)(nu - zeta~) is meant; read literally, "
    "delta^(k) does not depend on nu and the algorithm returns the 2-fold profile for every K >= 2",
)
K4 = topic.erratum(
    "K4",
    "Table II (K = 20) is not at delta = 1e-8, as the text's 'same simulation setup' suggests: every FH (sufficient) value is "
    "below Theorem 8's minimum variance at 1e-8, and at or above it at 1e-6 (the talk slides' delta), as a grid search must be",
)
K5 = topic.erratum(
    "K5",
    "Sec V-B: the 'exact' K = 5, eps = 0.3, delta = 1e-8 variance 502 is below a certified lower bound on the exact minimum variance",
)

al, g, Dl, D2, D1, Kk, ep, nu, dd, tt, Lam = SK.alpha, SK.gamma, SK.Delta, SK.Delta2, SK.Delta1, SK.K, SK.eps, SK.nu, SK.d, SK.t, SK.Lam


def simp0(e: sp.Expr) -> bool:
    return sp.simplify(e) == 0
