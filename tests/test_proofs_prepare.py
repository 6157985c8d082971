"""What a parallel proofs run computes in the parent before it forks the checks (issue 30.6: the quick run's CPU).

``Topic.shared`` may be called several times on one topic: its ``prepare`` then computes every shared value, once
each, in the order declared, and a check that asks for one afterwards gets the prepared object (not a recomputed
one).  ``proofs._warm.WARM_IMPORTS`` names the modules the checks import on first use: each must exist (a
renamed module would make the warm-up a silent no-op), and a ``module:function`` entry names a callable.
"""

from __future__ import annotations

import importlib

from proofs import _harness as H
from proofs import _warm as W


def test_a_topic_shares_several_derivations_each_prepared_once():
    made = []
    t = H.Topic("_prepare_test", "title")
    try:
        first = t.shared(lambda: made.append("a") or ["a"])
        second = t.shared(lambda: made.append("b") or ["b"])
        assert made == []  # nothing at declaration
        assert t.prepare is not None
        t.prepare()
        assert made == ["a", "b"]
        a, b = first(), second()
        assert a == ["a"] and b == ["b"] and made == ["a", "b"]  # the checks get the prepared objects
        t.prepare()  # a second prepare recomputes nothing
        assert made == ["a", "b"] and first() is a and second() is b
    finally:
        H.TOPICS.pop("_prepare_test", None)


def test_prepare_runs_once_per_topic_and_a_failure_is_left_to_the_checks():
    made = []
    t = H.Topic("_prepare_fail_test", "title")
    try:
        t.shared(lambda: made.append(1) or 1)
        t.shared(lambda: 1 / 0)  # raises: the checks that need it recompute it and report the failure as theirs
        prepared: set = set()
        H._prepare("_prepare_fail_test", prepared)
        H._prepare("_prepare_fail_test", prepared)
        assert made == [1] and prepared == {"_prepare_fail_test"}
    finally:
        H.TOPICS.pop("_prepare_fail_test", None)


def test_every_warm_import_exists():
    for entry in W.WARM_IMPORTS:
        name, _, fn = entry.partition(":")
        mod = importlib.import_module(name)
        assert not fn or callable(getattr(mod, fn)), entry
