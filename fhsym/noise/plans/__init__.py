"""The certificate plans of the shipped laws: each law's ball-arithmetic plan lives with the law (issue 28).

A *plan* is the exact rational work of one enclosure of the law's 1-D privacy profile (ratios of the inputs, the
crossing point, every case decision, all in Q) and its *evaluation* at a given precision on arb balls; the generic
machinery that drives it (:func:`fhsym._core.arb.enclose`, its precision policy, clipping and float rounding) and the
proof that the ball contains delta stay in :mod:`fhsym._core.arb.enclosures`.  Each law class calls its plan from its
``_arb_plan`` hook:

* :mod:`.flipped_huber`: flipped Huber (Theorem 3 / eq 16, the exact crossing t1 and its Table I case) --
  :func:`.flipped_huber.flipped_huber_plan`; :mod:`.fh_nodes` its fast path at the nodes of a proven PLD (the same
  ball upper ends, bit for bit: tests/test_pld_exact_nodes.py) and, for grid format "pld-exact-2", its series rule
  (other balls at the Gaussian-branch nodes, from Taylor series shared by a cell: tests/test_pld_exact_series.py);
* :mod:`.piecewise_uniform`: the piecewise uniform law's exact rational bounds (its profile and its sup over the
  shifts; :func:`.piecewise_uniform.profile_bounds`, ``sup_profile_bounds``), whose rational helpers the optimum
  (:mod:`fhsym.optimum`) shares;
* :mod:`.osgt`: OSGT (both cases of Appendix F-A(c), rational crossing) and the Gaussian (OSGT with theta = 0,
  Balle-Wang eq 29) -- :func:`.osgt.osgt_plan_of`, :func:`.osgt.gaussian_plan`;
* :mod:`.laplace`: Laplace -- :func:`.laplace.laplace_plan_of`;
* :mod:`.truncated_laplace`: the truncated Laplace -- :func:`.truncated_laplace.truncated_laplace_plan`;
* :mod:`.staircase`: the staircase -- :func:`.staircase.staircase_plan_of`;
* :mod:`.truncated_staircase`: the truncated staircase -- :func:`.truncated_staircase.ts_plan`, ``ts_eval`` (its
  class builds the method text; proofs: ``python -m proofs --only truncated_staircase``, rows ``profile`` and
  ``sup_over_shifts``: the enclosures contain 50-digit sums of the definition).

These stable forms are hand-written, not printed from the laws' declarations, because a certificate records its
plan's method text and the bits it used and :func:`fhsym.verify_certificate` re-derives the enclosure exactly: the
generic plan of a declared law (:mod:`fhsym._core.arb.crossing`) would not re-verify a single certificate issued
before, costs 9 to 13 times as much per enclosure (timed interleaved), and loses its width where the loss is flat at eps
(``scripts/certificate_plans_compare.py``).  Each stays with a proof row that it equals the form derived from the
declaration: ``python -m proofs --only shipped_gaussian`` (likewise ``shipped_laplace``, ``shipped_osgt``,
``shipped_truncated_laplace``, ``step_staircase``), row ``certificate_plan``.

Every module here uses only python-flint, exact rationals and Python integers (no numpy, scipy or float kernel;
:mod:`.fh_nodes` compares float epsilons with the floats of exact losses to pick a piece, exactly in Q when they are
close): what a certificate's re-check runs.
"""
