"""Optional integrations with other DP libraries (each module imports its library lazily).

* :mod:`fhsym.integrations.dp_accounting` -- flipped Huber noise inside Google's
  ``dp_accounting``: an ``AdditiveNoisePrivacyLoss`` (with Poisson subsampling), pessimistic PLDs,
  a ``FlippedHuberDpEvent``, a ``PLDAccountant`` and an ``RdpAccountant``
  (:mod:`~fhsym.integrations.dp_accounting_rdp`) that take it among dp_accounting's own events
  (``pip install 'fhsym[dp-accounting]'``).
* :mod:`fhsym.integrations.renyi` -- certified Renyi divergences of flipped Huber noise and the general
  RDP subsampling bounds (Poisson; without replacement); :mod:`fhsym.integrations.renyi_subsampled` -- the
  exact Poisson-subsampled RDP of FH and the certified RDP of vector (l2-clipped) FH releases.
* :mod:`fhsym.integrations.opendp` -- OpenDP measurements (``make_flipped_huber`` /
  ``then_flipped_huber`` in OpenDP's argument order, exact lattice noise, a certified
  ``smoothed_max_divergence`` map; ``make_calibrated_flipped_huber``) (``pip install 'fhsym[opendp]'``);
  their profiles come from :mod:`fhsym.integrations.lattice_privacy`.
"""
