"""Rigorous enclosures of the exact 1-D privacy profiles (python-flint ``arb``), by mechanism name.

The ball arithmetic lives in the bottom layer (:mod:`fhsym._core.arb`: it depends on nothing else in
fhsym); each noise law supplies its plan through :meth:`fhsym.NoiseDistribution.profile_enclosure`.
:func:`enclose_profile` is the by-name entry point for data (a certificate names its mechanism and
parameters): the registry of :mod:`fhsym.noise` builds the law, whose constructor validates the
parameters.
"""

from __future__ import annotations

from typing import Any, Mapping

from .._core.arb import Enclosure
from ..noise import noise_class

__all__ = ["Enclosure", "enclose_profile"]


def enclose_profile(mechanism: str, params: Mapping[str, float], epsilon: float, sensitivity: float,
                    **options: Any) -> Enclosure:
    """:meth:`~fhsym.NoiseDistribution.profile_enclosure` of the noise law ``mechanism`` with ``params``.

    ``options``: ``rel_width``, ``max_prec`` (see :func:`fhsym._core.arb.enclose`).

    >>> e = enclose_profile("gaussian", {"sigma": 1.0}, 1.0, 1.0)
    >>> f"{e.lower:.12g} {e.upper:.12g}"
    '0.126936737507 0.126936737507'
    >>> enclose_profile("laplace", {"beta": 1.0}, 1.0, 1.0).upper
    0.0
    """
    if not isinstance(params, Mapping):
        raise ValueError(f"params must be a mapping of parameter names to floats; got {params!r}")
    enclosure: Enclosure = noise_class(mechanism).from_parameters(params).profile_enclosure(epsilon, sensitivity, **options)
    return enclosure
