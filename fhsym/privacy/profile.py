"""Exact privacy of the 1-D flipped Huber mechanism (Theorem 3, eq 13-16): the privacy layer's name for it.

The mechanism M(D) = f(D) + T, T ~ FH(alpha, gamma^2), with sensitivity Delta is (eps, delta)-DP if and
only if delta >= delta^(1)(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt (eq 16, Lemma 11), evaluated in
closed form in five cases (eq 13, Table I).  The profile depends on the noise law only, so it is
computed in the noise layer (:mod:`fhsym.noise.flipped_huber_profile`, which ``FlippedHuber`` uses);
this module re-exports it where the privacy API lives.

>>> from fhsym.privacy.profile import privacy_profile
>>> f"{float(privacy_profile(1.0, alpha=1.0, gamma=2.0)):.10g}"
'0.006715055727'
"""

from __future__ import annotations

from ..noise.flipped_huber_profile import *  # noqa: F401,F403
from ..noise.flipped_huber_profile import __all__  # noqa: F401
