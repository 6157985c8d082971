"""fhsym: the flipped Huber noise mechanism for differential privacy.

Reference implementation of Muthukrishnan & Kalyani, *Grafting Laplace and
Gaussian distributions: a new noise mechanism for differential privacy*:
symbolic derivations (:mod:`fhsym.symbolic`, ``proofs/``), generated stable
numerics (:mod:`fhsym._generated`) and the numeric API exported here.
"""

from .distribution import FlippedHuber

__version__ = "0.1.0"

__all__ = ["FlippedHuber", "__version__"]
