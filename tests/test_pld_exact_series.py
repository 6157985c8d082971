"""The series node rule of proven PLDs (grid format ``pld-exact-2``; :mod:`fhsym.noise.plans.fh_nodes`).

* the ball of R(t1) - R(t1 + D) (R the Mills ratio) that the rule forms contains the 60-digit mpmath value of the
  definition (erfc form), at random arguments, with a correct and with a wrong float hint (the exact-cell path);
* on the grids ``calibrate`` issues, the series nodes give the same integers W_j as the per-node enclosures of
  format ``pld-exact-1`` at every node, hence the same bound: nothing in the certificate got weaker;
* certificates of format ``pld-exact-1`` issued before the rule (tests/data/pld_exact_1_certificates.json) still
  verify PROVEN, through the old node path alone;
* the formats are not interchangeable in a certificate (method and grid must be the claim's).
"""

from __future__ import annotations

import dataclasses
import json
import random
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
from flint import arb, ctx, fmpq

import fhsym
from fhsym.accounting import pld_exact as pe
from fhsym.calibration.verify import Verdict, check_certificate
from fhsym.noise.plans import fh_nodes

DATA = Path(__file__).parent / "data" / "pld_exact_1_certificates.json"


def _mp(a: arb) -> mpmath.mpf:
    m, e = a.man_exp()
    return mpmath.mpf(int(m)) * mpmath.mpf(2) ** int(e)


def _mills_ref(x: mpmath.mpf) -> mpmath.mpf:
    return mpmath.sqrt(mpmath.pi / 2) * mpmath.erfc(x / mpmath.sqrt(2)) * mpmath.exp(x * x / 2)


def test_series_difference_encloses_the_definition():
    rng = random.Random(31)
    worst = mpmath.mpf(0)
    home = ctx.prec
    with mpmath.workdps(60):
        for k in range(400):
            x = fmpq(rng.randint(1, 10**12), rng.choice([10**10, 10**11, 3 * 10**11, 10**12, 10**13]))
            D = fmpq(rng.randint(1, 10**6), rng.choice([10**5, 10**6, 10**7]))
            hint = float(x) * (1.0 + rng.choice([0.0, 0.0, 1e-3, -1e-3, 0.2]))  # a wrong hint: the exact cell
            ctx.prec = 150
            try:
                ball = fh_nodes._fdiff_series(arb(x), hint, lambda: x, D, fh_nodes._cells(D))
            finally:
                ctx.prec = home
            xm = mpmath.mpf(int(x.p)) / int(x.q)
            ref = _mills_ref(xm) - _mills_ref(xm + mpmath.mpf(int(D.p)) / int(D.q))
            mid, rad = _mp(ball.mid()), _mp(ball.rad())
            assert abs(ref - mid) <= rad, (x, D, hint)
            worst = max(worst, rad / ref)
    print(f"series R(t1) - R(t1 + D): 400 points contained, widest relative radius {mpmath.nstr(worst, 3)}")
    assert worst < mpmath.mpf(2) ** -100


def _W(ends, bits):
    out = []
    for man, ex in ends:
        s = ex + bits
        out.append(man << s if s >= 0 else -((-man) >> -s))
    return out


@pytest.mark.parametrize("kw", [dict(compositions=10), dict(dim=3, method="exact"), dict(dim=2, compositions=3)])
def test_series_nodes_are_the_old_nodes_and_the_bound_is_the_same(kw):
    cal = fhsym.calibrate(1.0, 1e-6, **kw)
    cert = cal.certificate
    assert cert.method == "pld-exact-2" and cert.grid["format"] == "pld-exact-2"
    g2 = pe.ExactGrid.from_dict(cert.grid)
    g1 = dataclasses.replace(g2, format=pe.GRID_FORMAT)
    law = cal.mechanism
    eps = pe._node_eps(g2.step, g2.nodes)
    old = _W(law.profile_upper_ends(eps, 1.0), g2.bits)
    new = _W(law.profile_series_upper_ends(eps, 1.0), g2.bits)
    diff = sum(a != b for a, b in zip(old, new))
    print(f"{kw}: {len(old)} nodes, W_j different at {diff}")
    assert diff == 0
    folds = cert.compositions * cert.dim
    b1 = pe.exact_delta_upper(law, 1.0, 1.0, folds, g1)
    b2 = pe.exact_delta_upper(law, 1.0, 1.0, folds, g2)
    assert b1.upper == b2.upper == cert.upper <= cert.target_delta


def test_pld_exact_1_certificates_still_verify_through_the_old_path(monkeypatch):
    certs = json.loads(DATA.read_text())

    def refuse(*a, **k):
        raise AssertionError("a pld-exact-1 certificate took the series nodes")

    monkeypatch.setattr(fhsym.FlippedHuber, "profile_series_upper_ends", refuse)
    for name, d in certs.items():
        assert d["method"] == "pld-exact" and d["grid"]["format"] == "pld-exact-1", name
        v = check_certificate(d)
        assert v.ok and v.rigorous and v.upper == float.fromhex(d["upper"]), (name, v)
        assert fhsym.verify_certificate(json.dumps(d)) is Verdict.PROVEN


def test_formats_are_not_interchangeable():
    d = json.loads(DATA.read_text())["dim3"]
    e = json.loads(json.dumps(d))
    e["method"] = "pld-exact-2"  # the old grid with the new method: not what the claim gives
    assert not check_certificate(e).ok
    e = json.loads(json.dumps(d))
    e["grid"]["format"] = "pld-exact-2"  # the new format with the old node text: not what the claim records
    assert not check_certificate(e).ok
    e["grid"]["format"] = "pld-exact-3"
    with pytest.raises(ValueError, match="grid format"):
        check_certificate(e)


def test_series_format_needs_a_law_with_series_nodes():
    g = pe.ExactGrid(Fraction(1, 256), 64, 40, 0, 0, pe.SERIES_FORMAT)
    with pytest.raises(ValueError, match="pld-exact-2"):
        pe.exact_delta_upper(fhsym.Laplace(1.0), 1.0, 1.0, 2, g)
    with pytest.raises(ValueError, match="grid format"):
        pe.ExactGrid(Fraction(1, 256), 64, 40, 0, 0, "pld-exact-9")
    assert pe.ExactGrid.from_dict(g.to_dict()) == g


def test_series_ends_equal_the_per_node_ends_on_random_laws(monkeypatch):
    """The ends are rounded up to the caller's precision (53 bits): where both balls are narrow, they are the same
    float.  Random laws, sensitivities and epsilons; the series rule must have formed most Gaussian-branch nodes."""
    used = [0]
    inner = fh_nodes._fdiff_series

    def counted(*a):
        used[0] += 1
        return inner(*a)

    monkeypatch.setattr(fh_nodes, "_fdiff_series", counted)
    rng = random.Random(7)
    n = diff = 0
    for _ in range(15):
        alpha = rng.choice([0.05, 0.5, 2.0, 7.5, 30.0]) * rng.uniform(0.5, 2)
        gamma = rng.choice([0.3, 1.0, 5.0, 13.5, 60.0]) * rng.uniform(0.5, 2)
        D = rng.choice([0.1, 1.0, 3.0])
        eps = sorted(rng.uniform(0, 12) * rng.random() for _ in range(150))
        a = fh_nodes.fh_upper_ends(eps, D, alpha, gamma)
        b = fh_nodes.fh_upper_ends(eps, D, alpha, gamma, series=True)
        n += len(a)
        diff += sum(x != y for x, y in zip(a, b))
    print(f"{n} nodes over 15 random laws, {used[0]} by the series rule: upper ends different at {diff}")
    assert used[0] >= n // 3 and diff == 0


def test_sup_claim_of_flipped_huber_keeps_the_per_node_format():
    """Claim ``pld-kfold-sup`` forms its nodes through the sup (no series rule): ``exact_grid`` picks the series
    format for flipped Huber, and the claim must not take it (it raised ValueError before)."""
    from fhsym._core.sensitivities import resolve_sensitivities
    from fhsym.accounting.claims import KFOLD_SUP
    from fhsym.privacy.claims import Release

    release = Release(fhsym.FlippedHuber(1.0, 3.0), 1.0, resolve_sensitivities(3, 1.0, None, None), 1)
    KFOLD_SUP.check(release)
    ev = KFOLD_SUP.certify_evidence(release, 1e-3)
    assert ev.rigorous and ev.method == "pld-exact" and ev.grid["format"] == pe.GRID_FORMAT
    again = KFOLD_SUP.evidence(release, ev.grid)
    assert again.upper == ev.upper and again.grid == ev.grid


def _R_quad(x: mpmath.mpf) -> mpmath.mpf:
    """The Mills ratio by quadrature of its definition e^{x^2/2} int_x^inf e^{-s^2/2} ds, written (s = x + u) as
    int_0^inf e^{-x u - u^2/2} du (no erfc, no cancellation)."""
    w = 1 / (x + 1)
    return mpmath.quad(lambda u: mpmath.exp(-x * u - u * u / 2), [0, w, 4 * w, 16 * w, 64 * w, mpmath.inf])


def test_series_difference_encloses_the_definition_at_cell_edges():
    """Adversarial points: both edges of first, middle and last cells of binades 2^-40 .. 2^20 (t1 exactly at i w,
    1e-30 inside it, 1e-30 below (i + 1) w), D from 1e-12 to 1e6 and a non-dyadic D, float hints on either side of
    t1 and far off, t1 exact and as a ball; the reference is the erfc form at 80 digits (at 60 it is off by 1e-49
    relative at 2^20), itself checked against quadrature of the definition."""
    k = fh_nodes.SERIES_CELLS_LOG2
    pts = []
    for e in (-40, -8, -1, 0, 1, 3, 8, 20):
        w = fmpq(2) ** (e - k) if e >= k else fmpq(1, 2 ** (k - e))
        for i in (32, 47, 63):
            lo, hi = i * w, (i + 1) * w
            pts += [lo, lo + fmpq(1, 10**30), hi - fmpq(1, 10**30), hi - w / 7]
    Ds = [fmpq(1, 10**12), fmpq(1, 3), fmpq(7, 3), fmpq(10**6), fmpq(1, 10**3) + fmpq(1, 3**40)]
    home = ctx.prec
    n = 0
    with mpmath.workdps(80):
        for t in pts[::5]:
            xm = mpmath.mpf(int(t.p)) / int(t.q)
            assert abs(_R_quad(xm) - _mills_ref(xm)) <= mpmath.mpf(10) ** -60 * _mills_ref(xm), t
        for t in pts:
            xm = mpmath.mpf(int(t.p)) / int(t.q)
            tf = float(t)
            for D in Ds:
                ref = _mills_ref(xm) - _mills_ref(xm + mpmath.mpf(int(D.p)) / int(D.q))
                for hint in (tf, tf * (1 + 2**-52), tf * (1 - 2**-53), tf * 1.3, tf * 0.7):
                    for wide in (False, True):
                        ctx.prec = 150
                        try:
                            tb = arb(t) + arb(0, 2.0**-160 * tf) if wide else arb(t)
                            ball = fh_nodes._fdiff_series(tb, hint, lambda: t, D, fh_nodes._cells(D))
                        finally:
                            ctx.prec = home
                        assert abs(ref - _mp(ball.mid())) <= _mp(ball.rad()), (t, D, hint, wide)
                        n += 1
    assert n == len(pts) * len(Ds) * 10


def test_a_wrong_cell_is_refused_not_used(monkeypatch):
    """The exact-cell path checks |t1 - c| <= rho in Q (the remainder bound's premise) instead of trusting
    ``_cell_of``: given a wrong cell it returns None (the node takes the per-node path)."""
    D = fmpq(1, 3)
    x = fmpq(5, 2)
    for y in (x, fmpq(2), fmpq(3) - fmpq(1, 10**20), fmpq(1, 7), fmpq(10**6 + 1, 3)):
        e, i = fh_nodes._cell_of(y)
        w = fmpq(2) ** (e - fh_nodes.SERIES_CELLS_LOG2) if e >= fh_nodes.SERIES_CELLS_LOG2 else \
            fmpq(1, 2 ** (fh_nodes.SERIES_CELLS_LOG2 - e))
        assert 32 <= i < 64 and i * w <= y < (i + 1) * w, y
    home = ctx.prec
    ctx.prec = 150
    try:
        assert fh_nodes._fdiff_series(arb(x), -1.0, lambda: x, D, fh_nodes._cells(D)) is not None
        monkeypatch.setattr(fh_nodes, "_cell_of", lambda q: (1, 33))  # the cell [2.0625, 2.125): not x's
        assert fh_nodes._fdiff_series(arb(x), -1.0, lambda: x, D, fh_nodes._cells(D)) is None
    finally:
        ctx.prec = home


def test_a_series_certificate_does_not_verify_with_its_format_or_method_switched():
    """The other direction of ``test_formats_are_not_interchangeable``: a genuine pld-exact-2 certificate with its
    grid format, its node text or its method alone switched to format 1's is refused; switched together (and the
    statement) it is a genuine format-1 certificate, re-derived through the per-node path: the same bound."""
    d = fhsym.calibrate(1.0, 1e-6, dim=3, method="exact").certificate.to_dict()
    assert d["method"] == "pld-exact-2" and d["grid"]["format"] == "pld-exact-2"
    assert check_certificate(json.loads(json.dumps(d))).ok
    old_text = pe.ExactGrid.from_dict({**d["grid"], "format": pe.GRID_FORMAT}).to_dict()["node_enclosures"]
    for edit in ({"format": pe.GRID_FORMAT}, {"node_enclosures": old_text}):
        e = json.loads(json.dumps(d))
        e["grid"].update(edit)
        assert not check_certificate(e).ok, edit
    e = json.loads(json.dumps(d))
    e["method"] = "pld-exact"
    assert not check_certificate(e).ok
    e["grid"].update(format=pe.GRID_FORMAT, node_enclosures=old_text)
    e["text"] = e["text"].replace("method 'pld-exact-2'", "method 'pld-exact'")
    v = check_certificate(e)
    assert v.ok and v.rigorous and v.upper == float.fromhex(d["upper"])


def test_a_cell_is_the_same_whatever_precision_first_asked_for_it():
    """A cell is memoised per D: its centre and radius balls must be exact however low the precision of the node that
    formed it (max_prec may be as low as 2), or a later node at the usual precision would get another ball -- and a
    re-check in the same process other ends than the certificate's."""
    D = fmpq(1, 3) + fmpq(1, 10**17 + 3)  # a D no other test uses: its cells are formed here
    t = fmpq(5, 2) + fmpq(1, 10**9)
    home = ctx.prec
    try:
        ctx.prec = 150
        clean = fh_nodes._fdiff_series(arb(t), float(t), lambda: t, D, fh_nodes._cells(D))
        fh_nodes._cells(D).clear()
        ctx.prec = 3
        fh_nodes._fdiff_series(arb(t), float(t), lambda: t, D, fh_nodes._cells(D))
        cell = fh_nodes._cells(D)[fh_nodes._cell_of(t)]
        ctx.prec = 150
        again = fh_nodes._fdiff_series(arb(t), float(t), lambda: t, D, fh_nodes._cells(D))
    finally:
        ctx.prec = home
    assert cell[2].rad() == 0 and cell[3].rad() == 0
    assert again.mid() == clean.mid() and again.rad() == clean.rad()


def test_an_issued_pld_exact_2_certificate_still_verifies_through_the_series_path(monkeypatch):
    """tests/data/pld_exact_2_certificates.json, issued at 6837dde: the series rule's constants, cells and precisions
    are part of format pld-exact-2 (the certificate does not record them), so a change of any of them that moves an
    end breaks this re-check."""
    d = json.loads((Path(__file__).parent / "data" / "pld_exact_2_certificates.json").read_text())["dim3"]
    assert d["method"] == "pld-exact-2" and d["grid"]["format"] == "pld-exact-2"
    calls = [0]
    inner = fhsym.FlippedHuber.profile_series_upper_ends

    def counted(self, *a, **k):
        calls[0] += 1
        return inner(self, *a, **k)

    monkeypatch.setattr(fhsym.FlippedHuber, "profile_series_upper_ends", counted)
    v = check_certificate(d)
    assert v.ok and v.rigorous and v.upper == float.fromhex(d["upper"]) and calls[0] >= 1
    assert fhsym.verify_certificate(json.dumps(d)) is Verdict.PROVEN
