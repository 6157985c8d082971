"""Optional integrations with other DP libraries (each module imports its library lazily).

* :mod:`fhsym.integrations.dp_accounting` -- flipped Huber noise inside Google's
  ``dp_accounting`` privacy loss distributions (``pip install dp-accounting``).
"""
