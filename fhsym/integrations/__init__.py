"""Optional integrations with other DP libraries (each module imports its library lazily).

* :mod:`fhsym.integrations.dp_accounting` -- flipped Huber noise inside Google's
  ``dp_accounting``: an ``AdditiveNoisePrivacyLoss`` (with Poisson subsampling), pessimistic PLDs,
  a ``FlippedHuberDpEvent`` and a ``PLDAccountant`` that takes it among dp_accounting's own events
  (``pip install 'fhsym[dp-accounting]'``).
* :mod:`fhsym.integrations.opendp` -- an OpenDP ``Measurement`` (``make_flipped_huber``) whose privacy
  map is fhsym's certified privacy profile (``pip install 'fhsym[opendp]'``).
"""
