"""Every sensitivity argument is used or refused (issue 9, item 2).

The bug this guards against: ``calibrate(1, 1e-6, dim=1, l2_sensitivity=2)`` returned the noise
for sensitivity 1 (a quarter of the variance sensitivity 2 needs).  In one dimension the l_inf,
l2 and l1 sensitivities are the same number; in K dimensions the sensitivity set is the
intersection of the given balls.  The reference for "the documented noise" is scale invariance:
the flipped Huber family is a scale family, so the minimum variance for sensitivity s is exactly
s^2 times the one for sensitivity 1 (up to the calibration's own tolerance).
"""

from __future__ import annotations

import itertools
import json
import math

import pytest

import fhsym
from fhsym import cli
from fhsym.accounting.sufficient import resolve_sensitivities

NAMES = ("sensitivity", "l2_sensitivity", "l1_sensitivity")
FLAGS = {"sensitivity": "--sensitivity", "l2_sensitivity": "--l2-sensitivity", "l1_sensitivity": "--l1-sensitivity"}


@pytest.fixture(scope="module")
def unit_variance():
    return fhsym.calibrate(1.0, 1e-6).variance


def _subsets():
    for r in range(1, 4):
        yield from itertools.combinations(NAMES, r)


@pytest.mark.parametrize("names", list(_subsets()), ids=lambda n: "+".join(n))
def test_1d_any_agreeing_subset_is_the_sensitivity(names, unit_variance):
    kwargs = {n: 2.0 for n in names}
    cal = fhsym.calibrate(1.0, 1e-6, **kwargs)
    assert cal.sensitivity == 2.0
    # scale family: 4x the unit-sensitivity variance (tolerance of the shape search)
    assert cal.variance == pytest.approx(4.0 * unit_variance, rel=1e-6)
    assert cal.achieved_delta <= 1e-6
    assert fhsym.is_private(1.0, 1e-6, cal.alpha, cal.gamma, 2.0)


@pytest.mark.parametrize("pair", list(itertools.combinations(NAMES, 2)), ids=lambda n: "+".join(n))
def test_1d_disagreeing_pair_is_refused_naming_both(pair):
    kwargs = {pair[0]: 1.0, pair[1]: 2.0}
    with pytest.raises(ValueError) as exc:
        fhsym.calibrate(1.0, 1e-6, **kwargs)
    assert pair[0] in str(exc.value) and pair[1] in str(exc.value)


def test_1d_default_is_unit_sensitivity(unit_variance):
    cal = fhsym.calibrate(1.0, 1e-6)
    assert cal.sensitivity == 1.0 and cal.variance == unit_variance


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("bad", [0.0, -1.0, math.nan, math.inf, "2"])
def test_bad_sensitivity_names_the_parameter(name, bad):
    with pytest.raises(ValueError, match=name):
        fhsym.calibrate(1.0, 1e-6, **{name: bad})


# -- K dimensions: the tightest radii the given balls imply -------------------------------------


@pytest.mark.parametrize(
    "K, given, expected",
    [
        (4, {}, (1.0, 2.0, 4.0)),                                   # unit box
        (4, {"sensitivity": 3.0}, (3.0, 6.0, 12.0)),                # box of side 3
        (4, {"l2_sensitivity": 2.0}, (2.0, 2.0, 4.0)),              # l2 ball alone: l_inf <= 2, l1 <= sqrt(K) 2
        (4, {"l1_sensitivity": 2.0}, (2.0, 2.0, 2.0)),              # l1 ball alone
        (4, {"sensitivity": 1.0, "l2_sensitivity": 1.5}, (1.0, 1.5, 3.0)),
        (4, {"sensitivity": 1.0, "l2_sensitivity": 5.0}, (1.0, 2.0, 4.0)),   # l2 looser than the box: the box
        (4, {"sensitivity": 1.0, "l1_sensitivity": 1.5}, (1.0, math.sqrt(1.25), 1.5)),  # (1, 0.5, 0, 0) (issue 32)
        (30, {"sensitivity": 1.0, "l1_sensitivity": 10.0}, (1.0, math.sqrt(10.0), 10.0)),  # ten 1s, not sqrt(30)
        (4, {"l2_sensitivity": 1.0, "l1_sensitivity": 1.5}, (1.0, 1.0, 1.5)),
        (9, {"sensitivity": 1.0, "l2_sensitivity": 2.0, "l1_sensitivity": 5.0}, (1.0, 2.0, 5.0)),
    ],
)
def test_kdim_sensitivity_set(K, given, expected):
    got = resolve_sensitivities(K, given.get("sensitivity"), given.get("l2_sensitivity"), given.get("l1_sensitivity"))
    assert got[0] == K
    assert got[1:] == pytest.approx(expected, rel=1e-15)


def test_kdim_l2_only_is_not_the_unit_box():
    """An l2 ball of radius 2 in 2-D contains (2, 0): the noise must cover l_inf sensitivity 2, not 1."""
    cal = fhsym.calibrate(1.0, 1e-6, dim=2, l2_sensitivity=2.0, method="exact")
    unit = fhsym.calibrate(1.0, 1e-6, dim=2, method="exact")
    assert cal.sensitivity == 2.0
    # the exact method covers the box of side 2 (conservative for the ball): scale family, 4x
    assert cal.variance == pytest.approx(4.0 * unit.variance, rel=1e-3)


def test_zcdp_uses_every_sensitivity():
    fh = fhsym.FlippedHuber(1.0, 2.0)
    assert fh.zcdp(l2_sensitivity=2.0) == fh.zcdp(sensitivity=2.0) == (0.125, 0.5)
    with pytest.raises(ValueError, match="l2_sensitivity"):
        fh.zcdp(sensitivity=1.0, l2_sensitivity=2.0)
    # K = 4, l2 ball of radius 2: l_inf up to 2, so xi = K R_2(alpha) / (2 gamma^2) = 4 * 1 / 8
    assert fh.zcdp(dim=4, l2_sensitivity=2.0) == (0.5, 0.5)


# -- the CLI: the same rules, status 2 for a refusal ---------------------------------------------


def _cli(capsys, *args):
    code = cli.main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("names", list(_subsets()), ids=lambda n: "+".join(n))
def test_cli_1d_every_agreeing_subset(names, capsys, unit_variance):
    args = ["calibrate", "--epsilon", "1", "--delta", "1e-6", "--json"]
    for n in names:
        args += [FLAGS[n], "2"]
    code, out, _ = _cli(capsys, *args)
    assert code == 0
    res = json.loads(out)
    assert res["sensitivity"] == 2.0
    assert res["variance"] == pytest.approx(4.0 * unit_variance, rel=1e-6)


@pytest.mark.parametrize("pair", list(itertools.combinations(NAMES, 2)), ids=lambda n: "+".join(n))
def test_cli_1d_disagreeing_pair_exits_2(pair, capsys):
    code, out, err = _cli(capsys, "calibrate", "--epsilon", "1", "--delta", "1e-6", FLAGS[pair[0]], "1", FLAGS[pair[1]], "2")
    assert code == 2
    assert pair[0] in err and pair[1] in err
    assert len(err.strip().splitlines()) == 1
