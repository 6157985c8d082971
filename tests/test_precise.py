"""Any precision from an installed fhsym (issue 29): ``at_precision`` against mpmath quadrature of the definitions.

References are independent of the code under test: the density is exp(-rho_alpha(t)/gamma^2)/kappa
with kappa itself by quadrature, every moment/probability a quadrature of it, the profile the
integral of [g(t) - e^eps g(t + Delta)]_+ from a crossing point found by bisection on the
definition's loss.  Quadrature runs at digits + 20 with breakpoints at the kinks and on a
geometric ladder of the scale gamma^2/alpha (tanh-sinh then converges on each smooth piece).
Agreement is asserted to digits - 4 significant digits; every ball must contain the reference.
The 300-digit sweep is marked slow.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from flint import arb, ctx

import fhsym
from fhsym.noise.precise import PreciseFlippedHuber

M = mpmath.mpf


class FHRef:
    """FH(alpha, gamma^2) from its definition (eq 6-8) at the current mpmath precision.

    Integrals over the Laplace centre |t| <= alpha are tanh-sinh quadratures (breakpoints on a ladder of
    the centre's scale gamma^2/alpha); beyond alpha the integrand is a Gaussian, integrated with its
    exact antiderivative (int_x^inf e^{-t^2/(2 gamma^2)} dt = gamma sqrt(pi/2) erfc(x/(gamma sqrt 2))):
    quadrature of a far Gaussian tail on [x, inf] loses digits (2.7e-6 relative at x = 33 sigma, 120 digits).
    """

    def __init__(self, alpha: float, gamma: float) -> None:
        self.a, self.g = M(alpha), M(gamma)
        self.kappa = M(1)
        self.kappa = 2 * self.mass(0, lambda t: 1)

    def rho(self, t):
        t = abs(M(t))
        return self.a * t if t <= self.a else (t * t + self.a**2) / 2

    def pdf(self, t):
        return mpmath.exp(-self.rho(t) / self.g**2) / self.kappa

    def _gauss_tail(self, x):
        """int_x^inf exp(-(t^2 + alpha^2)/(2 gamma^2)) dt / kappa for x >= alpha."""
        a, g = self.a, self.g
        return g * mpmath.sqrt(mpmath.pi / 2) * mpmath.exp(-(a / g) ** 2 / 2) * mpmath.erfc(x / (g * mpmath.sqrt(2))) / self.kappa

    def _centre(self, lo, hi, f):
        """int_lo^hi f(t) g(t) dt on 0 <= lo <= hi <= alpha (a ladder on the scale gamma^2/alpha)."""
        if hi <= lo:
            return M(0)
        c = self.g**2 / self.a
        nodes = sorted({M(lo), M(hi), *[lo + c * 2**k for k in range(-6, 14) if lo + c * 2**k < hi]})
        return mpmath.quad(lambda t: f(t) * self.pdf(t), nodes)

    def mass(self, x, f):
        """int_x^inf f(t) g(t) dt for x >= 0; f = 1 beyond alpha unless ``f`` is given (then quadrature there too)."""
        x = M(x)
        centre = self._centre(x, self.a, f) if x < self.a else M(0)
        lo = max(x, self.a)
        return centre + self._gauss_tail(lo)

    def sf(self, x):
        x = M(x)
        if x < 0:
            return 1 - self.sf(-x)
        if x >= self.a:
            return self._gauss_tail(x)
        # the centre's integral of e^{-alpha t/gamma^2} in closed form (quadrature at b = 1e4 loses 1e-11 here)
        c = self.g**2 / self.a
        return c * (mpmath.exp(-x / c) - mpmath.exp(-self.a / c)) / self.kappa + self._gauss_tail(self.a)

    def _tail_moment(self, f):
        """int_alpha^inf f(t) g(t) dt for a polynomial-times-exponential f (finite cut-off where g < 10^-(dps+40))."""
        a, g = self.a, self.g
        T = mpmath.sqrt(a * a + 2 * g * g * (mpmath.mp.dps + 60) * mpmath.log(10)) + 10 * g
        nodes = sorted({a, *[a + g * 2**k for k in range(-4, 12) if a + g * 2**k < T], T})
        return mpmath.quad(lambda t: f(t) * self.pdf(t), nodes)

    def expect(self, f):
        """E f(T) for an even f: 2 (centre + tail)."""
        return 2 * (self._centre(0, self.a, f) + self._tail_moment(f))

    def moment(self, n):
        return self.expect(lambda t: t**n)

    def fisher(self):
        return self.expect(lambda t: (max(t, self.a) / self.g**2) ** 2)

    def entropy(self):
        return mpmath.log(self.kappa) + self.expect(lambda t: self.rho(t) / self.g**2)

    def mgf(self, s):
        return self.expect(lambda t: (mpmath.exp(s * t) + mpmath.exp(-s * t)) / 2)

    def profile(self, eps, delta):
        """int [g(t) - e^eps g(t + Delta)]_+ dt = sf-differences: the loss L(t) = (rho(t + Delta) - rho(t))/gamma^2 is
        non-decreasing, so the integral is P(T > t1) - e^eps P(T > t1 + Delta) at its crossing t1 (bisection on
        the definition), each mass from the definition as above."""
        eps, D = M(eps), M(delta)
        L = lambda t: (self.rho(t + D) - self.rho(t)) / self.g**2  # noqa: E731
        lo, hi = -self.a - D - 10 * self.g, M(1)
        while L(hi) < eps:
            hi *= 2
        if L(lo) > eps:  # cannot happen for eps >= 0 here (L(-inf) = -D (D + 2 alpha)... < 0)
            raise AssertionError("crossing below the search interval")
        for _ in range(mpmath.mp.prec + 20):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if L(mid) < eps else (lo, mid)
        t1 = hi
        # P(T > t1) - e^eps P(T > t1 + D), with the centre part as one quadrature of the integrand (no cancellation
        # between two separate quadratures) and the Gaussian parts exact
        f = lambda t: self.pdf(t) - mpmath.exp(eps) * self.pdf(t + D)  # noqa: E731
        cut = self.a  # beyond max(t1, alpha) both t and t + D are in the Gaussian tail
        if t1 >= cut:
            return self._gauss_tail(t1) - mpmath.exp(eps) * self._gauss_tail(t1 + D)
        kinks = sorted({t1, cut, *[p for p in (-self.a - D, -self.a, self.a - D, M(0), -D) if t1 < p < cut]})
        c = min(self.g, self.g**2 / self.a) if self.a > 0 else self.g
        nodes = sorted({*kinks, *[k + c * 2**j for k in kinks for j in range(-6, 14) if k + c * 2**j < cut]})
        return mpmath.quad(f, nodes) + self._gauss_tail(cut) - mpmath.exp(eps) * self._gauss_tail(cut + D)


def _close(value, ref, digits, what):
    err = abs(value - ref) / abs(ref) if ref != 0 else abs(value)
    assert err <= mpmath.mpf(10) ** (4 - digits), f"{what}: {mpmath.nstr(value, 20)} vs {mpmath.nstr(ref, 20)}, rel err {mpmath.nstr(err, 3)}"
    return err


def _contains(ball, ref, digits, what, ref_err=None):
    """|ref - mid| <= rad + the reference's own quadrature error (10**-(digits + 8) relative)."""
    man, exp = ref.man_exp  # mpmath drops the sign here
    with ctx.workprec(int(3.33 * digits) + 200):
        r = (-1 if ref < 0 else 1) * arb(int(man)) * arb(2) ** int(exp)  # exact: a dyadic of any exponent
        err = abs(r) * arb(10) ** (-(digits + 8))
        ok = bool((abs(r - ball.mid()) - ball.rad() - err).upper() <= 0)
    assert ok, f"{what}: ball {ball.str(digits + 5)} does not contain {mpmath.nstr(ref, digits + 5)}"


# (alpha, gamma): b = alpha/gamma from 1e-6 to 1e4, as the double-precision tests use
PARAMS = [(1e-6, 1.0), (0.01, 1.0), (1.0, 2.0), (3.0, 0.5), (10.0, 1.0), (1e4, 1.0)]


def _points(alpha, gamma):
    return [0.0, 0.3 * min(alpha, gamma), alpha, alpha + 0.25 * gamma, 8.0 * gamma + alpha, -(alpha + 30.0 * gamma)]


def _check_distribution(alpha, gamma, digits, ball=True):
    fh = fhsym.FlippedHuber(alpha=alpha, gamma=gamma)
    p = fh.at_precision(digits)
    B = fh.at_precision(digits, ball=True) if ball else None
    with mpmath.workdps(digits + 20):
        ref = FHRef(alpha, gamma)
        _close(p.log_kappa(), mpmath.log(ref.kappa), digits, "log kappa")
        for x in _points(alpha, gamma):
            g, s = ref.pdf(x), ref.sf(x)
            _close(p.pdf(x), g, digits, f"pdf({x})")
            _close(p.logpdf(x), mpmath.log(g), digits, f"logpdf({x})")
            _close(p.sf(x), s, digits, f"sf({x})")
            _close(p.cdf(-x), s, digits, f"cdf({-x})")
            logsf = mpmath.log1p(-ref.sf(-x)) if x < 0 else mpmath.log(s)  # log(1 - tiny) would lose the tiny
            _close(p.logsf(x), logsf, digits, f"logsf({x})")
            if x > 0:
                _close(p.isf(s), M(x), digits, f"isf(sf({x}))")
            elif x < 0:  # sf(x) > 1/2 is 1 - tiny: invert the small tail instead, ppf(cdf(x))
                _close(p.ppf(ref.sf(-x)), M(x), digits, f"ppf(cdf({x}))")
            if B is not None:
                _contains(B.pdf(x), g, digits, f"ball pdf({x})")
                _contains(B.logpdf(x), mpmath.log(g), digits, f"ball logpdf({x})")
                _contains(B.sf(x), s, digits, f"ball sf({x})")
                _contains(B.cdf(-x), s, digits, f"ball cdf({-x})")
        v = ref.moment(2)
        _close(p.var(), v, digits, "var")
        _close(p.moment(4), ref.moment(4), digits, "moment 4")
        fi = ref.fisher()
        _close(p.fisher_information(), fi, digits, "fisher")
        _close(p.nfi(), v * fi, digits, "nfi")
        if B is not None:
            _contains(B.var(), v, digits, "ball var")
            _contains(B.moment(4), ref.moment(4), digits, "ball moment 4")
            _contains(B.fisher_information(), fi, digits, "ball fisher")
            _contains(B.nfi(), v * fi, digits, "ball nfi")
        h = ref.entropy()
        _close(p.entropy(), h, digits, "entropy")
        s = 0.5 / gamma
        lm = mpmath.log(ref.mgf(s))
        _close(p.log_mgf(s), lm, digits, "log_mgf")
        # near s = 0 the MGF is 1 + ~(s^2 Var/2): the reference is log1p of E[cosh(sT) - 1] = E[2 sinh(sT/2)^2], its
        # integrand divided by s^2 (mpmath's quadrature tolerance is absolute: an integral of 1e-41 would keep 80 digits)
        tiny = 1e-20 / gamma
        st = M(tiny)
        lm0 = mpmath.log1p(st**2 * ref.expect(lambda t: 2 * (mpmath.sinh(st * t / 2) / st) ** 2))
        _close(p.log_mgf(tiny), lm0, digits, f"log_mgf({tiny})")
        if B is not None:
            _contains(B.entropy(), h, digits, "ball entropy")
            _contains(B.log_mgf(s), lm, digits, "ball log_mgf")
            _contains(B.mgf(-s), mpmath.exp(lm), digits, "ball mgf")  # the law is symmetric: M(-s) = M(s)
            _contains(B.log_mgf(tiny), lm0, digits, f"ball log_mgf({tiny})")


#: the default run takes three of them (< 60 s in all); the others run with -m slow
FAST = {(1e-6, 1.0), (1.0, 2.0), (1e4, 1.0), (1.0, 2.0, 1.0), (0.25, 1.0, 2.0)}


def _speed(params):
    return [p if p in FAST else pytest.param(*p, marks=pytest.mark.slow) for p in params]


@pytest.mark.parametrize("alpha,gamma", _speed(PARAMS))
def test_distribution_at_100_digits(alpha, gamma):
    _check_distribution(alpha, gamma, 100)


def _boundaries(b: Fraction, D: Fraction):
    """Table I's case boundaries e3 <= nu1 <= nu2 (in eps) at exact b = alpha/gamma, D = Delta/gamma."""
    e3 = -D * b + max(D, 2 * b) ** 2 / 2
    nu1 = D * b + max(Fraction(0), D - b) ** 2 / 2
    nu2 = D * (D + 2 * b) / 2
    return [e3, nu1, nu2]


# (alpha, gamma, Delta): D > 2b (case i) and D <= 2b (case ii) configurations
PROFILE_PARAMS = [(1.0, 2.0, 1.0), (0.25, 1.0, 2.0), (1e-6, 1.0, 1.0), (3.0, 1.0, 0.5)]


def _check_profile(alpha, gamma, delta, digits):
    fh = fhsym.FlippedHuber(alpha=alpha, gamma=gamma)
    p, B = fh.at_precision(digits), fh.at_precision(digits, ball=True)
    b, D = Fraction(alpha) / Fraction(gamma), Fraction(delta) / Fraction(gamma)
    eps_list = [Fraction(0), Fraction(1, 10)]
    for e in _boundaries(b, D):
        eps_list += [e, e * (1 + Fraction(1, 10**6)), e * 2]
    with mpmath.workdps(digits + 20):
        ref = FHRef(alpha, gamma)
        for e in sorted(set(x for x in eps_list if x >= 0)):
            r = ref.profile(mpmath.mpf(e.numerator) / e.denominator, delta)
            _close(p.privacy_profile(e, delta), r, digits, f"profile({float(e)})")
            _contains(B.privacy_profile(e, delta), r, digits, f"ball profile({float(e)})")
        target = mpmath.mpf(10) ** -6
        eps = p.epsilon_for_delta(target, delta)
        _close(ref.profile(eps, delta), target, digits - 2, "profile(epsilon_for_delta)")


@pytest.mark.parametrize("alpha,gamma,delta", _speed(PROFILE_PARAMS))
def test_profile_at_100_digits(alpha, gamma, delta):
    _check_profile(alpha, gamma, delta, 100)


@pytest.mark.slow
@pytest.mark.parametrize("alpha,gamma", PARAMS)
def test_distribution_at_300_digits(alpha, gamma):
    _check_distribution(alpha, gamma, 300)


@pytest.mark.slow
@pytest.mark.parametrize("alpha,gamma,delta", PROFILE_PARAMS)
def test_profile_at_300_digits(alpha, gamma, delta):
    _check_profile(alpha, gamma, delta, 300)


def test_zcdp_and_theorem8():
    """zCDP exactly (R_Delta(alpha)/(2 gamma^2), Delta^2/(2 gamma^2)); Theorem 8's LHS against the double API."""
    fh = fhsym.FlippedHuber(alpha=1.0, gamma=2.0)
    p = fh.at_precision(50)
    xi, eta = p.zcdp(1.0)
    assert xi == mpmath.mpf(1) / 8 and eta == mpmath.mpf(1) / 8
    xi3, _ = fhsym.FlippedHuber(alpha=3.0, gamma=2.0).at_precision(50).zcdp(1.0)  # alpha > Delta: Delta (2 alpha - Delta)
    assert xi3 == mpmath.mpf(5) / 8
    from fhsym.accounting.sufficient import theorem8_lhs

    ref = theorem8_lhs(1.0, 1.0, 2.0, 3, sensitivity=1.0)
    assert abs(p.theorem8_lhs(1.0, 3, sensitivity=1.0) / ref - 1) < 1e-11


def _q_tail(x):
    """Q(x) = P(N(0, 1) > x) = erfc(x/sqrt 2)/2 (mpmath's erfc)."""
    return mpmath.erfc(x / mpmath.sqrt(2)) / 2


def _q_inverse(p):
    """x with Q(x) = p (0 < p <= 1/2): bisection on Q to the working precision."""
    lo, hi = M(0), M(1)
    while _q_tail(hi) > p:
        hi *= 2
    for _ in range(mpmath.mp.prec + 10):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _q_tail(mid) > p else (lo, mid)
    return (lo + hi) / 2


def _theorem8_reference(alpha, gamma, eps, K, D, D2, D1):
    """[Q(A) - e^eps Q(B)]_+ of Theorem 8 from its statement: kappa by quadrature of the density (FHRef), omega =
    (kappa/gamma) e^{alpha^2/(2 gamma^2)} (Definition 7), theta = gamma Q^{-1}(sqrt(pi/2)/omega) (Lemma 6, eq 22), R_Delta(alpha) = alpha^2 - [alpha - Delta]_+^2
    (Lemma 5), A and B of Lemmas 5 and 7."""
    a, g, e, D, D2, D1 = (M(v) for v in (alpha, gamma, eps, D, D2, D1))
    ref = FHRef(alpha, gamma)
    th_std = _q_inverse(mpmath.sqrt(mpmath.pi / 2) / (ref.kappa / g * mpmath.exp((a / g) ** 2 / 2)))
    R = a * a - max(M(0), a - D) ** 2
    A = g * e / D2 - D2 / (2 * g) - K * R / (2 * g * D2)
    B = g * e / D2 + D2 / (2 * g) + K * R / (2 * g * D2) + th_std * D1 / D2
    return max(M(0), _q_tail(A) - mpmath.exp(e) * _q_tail(B))


# (alpha, gamma, eps, K, sensitivity, l2, l1): fhsym.calibrate's sufficient-condition answers at (0.3, 1e-6, K = 5: b =
# 1e4, the Laplace end) and (1, 1e-6, K = 20: alpha = 0, the Gaussian end), with l2 and l1 given, alpha -> 0 and a far
# tail (2e-277).  (Q(A) - e^eps Q(B) is positive for every admissible input: e^eps Q(B) >= 1 > Q(A) would need
# e^eps Q(sqrt(2 eps)) >= 1, as B >= sqrt(2 eps) by AM-GM; the generated -inf piece is never reached.)
T8 = [(1667020965.9960907, 166702.09659960907, 0.3, 5, 1.0, None, None), (0.0, 18.89333835937902, 1.0, 20, 1.0, None, None),
      (1.0, 2.0, 1.0, 5, 1.0, None, None), (0.5, 1.5, 3.0, 20, 1.0, 20**0.5, 20.0), (1e-6, 1.0, 2.0, 3, 0.5, None, None),
      (1e-6, 100.0, 0.5, 2, 1.0, None, None)]


@pytest.mark.parametrize("alpha,gamma,eps,K,sens,l2,l1", T8)
def test_theorem8_number_and_ball_at_100_digits(alpha, gamma, eps, K, sens, l2, l1):
    """Theorem 8's left-hand side at 100 digits: the number agrees with, and the ball contains, the statement's value
    computed from the definitions (the radii are the resolved sensitivity set, the inputs of the theorem)."""
    from fhsym._core.sensitivities import resolve_sensitivities

    fh = fhsym.FlippedHuber(alpha=alpha, gamma=gamma)
    p, B = fh.at_precision(100), fh.at_precision(100, ball=True)
    _, D, D2, D1 = resolve_sensitivities(K, sens, l2, l1)
    with mpmath.workdps(120):
        r = _theorem8_reference(alpha, gamma, eps, K, D, D2, D1)
        v, ball = p.theorem8_lhs(eps, K, sens, l2, l1), B.theorem8_lhs(eps, K, sens, l2, l1)
        assert r > 0
        _close(v, r, 100, "theorem8_lhs")
        _contains(ball, r, 100, "ball theorem8_lhs")


@pytest.mark.parametrize("alpha,gamma,D", [(1.0, 2.0, 1.0), (3.0, 2.0, 1.0), (0.25, 0.5, 2.0), (0.0, 1.0, 1.0)])
def test_zcdp_balls_are_exact_and_bound_the_renyi_divergence(alpha, gamma, D):
    """(xi, eta) as balls: exactly K R_Delta(alpha)/(2 gamma^2) and Delta_2^2/(2 gamma^2) (Fractions from Lemma 5's
    definition), in K = 1 and K = 4; and the definition of zCDP holds for them: the Renyi divergence of order lam
    between T and T + D, by quadrature of int g(t)^lam g(t + D)^(1 - lam) dt, is at most xi + eta lam."""
    a, g, d = Fraction(alpha), Fraction(gamma), Fraction(D)
    R = a * a - max(Fraction(0), a - d) ** 2
    B = fhsym.FlippedHuber(alpha=alpha, gamma=gamma).at_precision(60, ball=True)
    for K in (1, 4):
        xi, eta = B.zcdp(D, dim=K, l2_sensitivity=D * K**0.5 if K > 1 else None)
        _, _, D2, _ = __import__("fhsym._core.sensitivities", fromlist=["x"]).resolve_sensitivities(
            K, D, D * K**0.5 if K > 1 else None, None)
        for ball, want in ((xi, K * R / (2 * g * g)), (eta, Fraction(D2) ** 2 / (2 * g * g))):
            with ctx.workprec(400):
                assert ball.is_exact() and ball == arb(want.numerator) / want.denominator, (ball, want)
    xi, eta = B.zcdp(D)
    with mpmath.workdps(30):
        ref = FHRef(alpha, gamma)
        Dm = M(D)
        for lam in (M(3) / 2, M(2), M(5), M(20)):
            integrand = lambda t: mpmath.exp(-(lam * ref.rho(t) + (1 - lam) * ref.rho(t + Dm)) / ref.g**2)  # noqa: E731
            kinks = sorted({-ref.a - Dm, -Dm, ref.a - Dm, -ref.a, M(0), ref.a})
            centre = (lam - 1) * Dm  # the tilted integrand peaks near (lam - 1) D for a Gaussian
            nodes = [-mpmath.inf] + sorted(set(kinks) | {centre - 20 * ref.g, centre + 20 * ref.g}) + [mpmath.inf]
            div = mpmath.log(mpmath.quad(integrand, nodes) / ref.kappa) / (lam - 1)
            bound = M(xi.mid().str(40, radius=False)) + M(eta.mid().str(40, radius=False)) * lam
            assert div <= bound * (1 + M(10) ** -20), (alpha, gamma, D, lam, div, bound)
            assert div > 0


class _Law:
    """Gaussian and Laplace from their densities, by quadrature."""

    def __init__(self, pdf, kinks):
        self.pdf, self.kinks = pdf, kinks

    def sf(self, x):
        return mpmath.quad(self.pdf, sorted({M(x), *[k for k in self.kinks if k > x]}) + [mpmath.inf])

    def profile(self, eps, D, t1):
        f = lambda t: self.pdf(t) - mpmath.exp(eps) * self.pdf(t + D)  # noqa: E731
        return mpmath.quad(f, sorted({M(t1), *[k for k in self.kinks if k > t1]}) + [mpmath.inf])


def test_gaussian_and_laplace_at_100_digits():
    digits = 100
    G, L = fhsym.Gaussian(sigma=1.5), fhsym.Laplace(beta=0.75)
    pg, pl = G.at_precision(digits), L.at_precision(digits)
    with mpmath.workdps(digits + 20):
        sg, bl = M(1.5), M(0.75)
        g = _Law(lambda t: mpmath.exp(-t * t / (2 * sg**2)) / (sg * mpmath.sqrt(2 * mpmath.pi)), [M(0), M(3), M(10)])
        lap = _Law(lambda t: mpmath.exp(-abs(t) / bl) / (2 * bl), [M(0), M(-1), M(2), M(8)])
        for x in (0.0, 1.0, 20.0, -5.0):
            _close(pg.pdf(x), g.pdf(M(x)), digits, "gauss pdf")
            _close(pg.sf(x), g.sf(x), digits, "gauss sf")
            _close(pl.pdf(x), lap.pdf(M(x)), digits, "laplace pdf")
            _close(pl.cdf(-x), lap.sf(x), digits, "laplace cdf")
        _close(pg.var(), mpmath.quad(lambda t: 2 * t * t * g.pdf(t), [0, 3, 10, mpmath.inf]), digits, "gauss var")
        _close(pl.var(), mpmath.quad(lambda t: 2 * t * t * lap.pdf(t), [0, 2, 8, mpmath.inf]), digits, "laplace var")
        for eps in (0.1, 0.5, 2.0):
            # Gaussian crossing: eps = (2 t D + D^2)/(2 sigma^2); Laplace: the loss is eps on t >= 0 only if eps < D/beta
            t1 = (2 * sg**2 * eps - 1) / 2
            r = g.profile(M(eps), M(1), t1)
            _close(pg.privacy_profile(eps, 1.0), r, digits, "gauss profile")
            _contains(G.at_precision(digits, ball=True).privacy_profile(eps, 1.0), r, digits, "gauss ball profile")
            # Laplace: log g(t)/g(t+1) = (|t+1| - |t|)/beta = eps at t = (eps beta - 1)/2 in [-1, 0]
            r = lap.profile(M(eps), M(1), (eps * bl - 1) / 2) if eps < 1 / 0.75 else M(0)
            if r:
                _close(pl.privacy_profile(eps, 1.0), r, digits, "laplace profile")
            else:
                assert pl.privacy_profile(eps, 1.0) == 0


def test_other_laws_profile_ball_and_number_agree_with_double():
    for law in (fhsym.TruncatedLaplace(1.0, 10.0), fhsym.OSGT(0.5, 1.0), fhsym.Staircase(1.0)):
        p, b = law.at_precision(40), law.at_precision(40, ball=True)
        v, ball = p.privacy_profile(0.5, 1.0), b.privacy_profile(0.5, 1.0)
        assert ball.rel_accuracy_bits() >= 130
        assert abs(v / float(law.privacy_profile(0.5, 1.0)) - 1) < 1e-13
        man, exp = ball.mid().man_exp()
        with mpmath.workdps(80):
            assert abs(v - M(int(man)) * M(2) ** int(exp)) <= abs(v) * M(10) ** -39


def test_exact_parameters_and_errors():
    p = PreciseFlippedHuber("0.1", Fraction(1), 30)
    assert p.alpha == Fraction(1, 10)
    q = fhsym.FlippedHuber(alpha=0.1, gamma=1.0).at_precision(30)
    assert q.alpha == Fraction(0.1) != Fraction(1, 10)  # the float's exact binary value
    assert p.var() != q.var()
    fh = fhsym.FlippedHuber(alpha=1.0, gamma=2.0)
    for call, name in [(lambda: fh.at_precision(0), "digits"), (lambda: fh.at_precision(10, bits=10), "digits"),
                       (lambda: PreciseFlippedHuber(-1.0, 1.0, 10), "alpha"), (lambda: PreciseFlippedHuber(1.0, 0, 10), "gamma"),
                       (lambda: PreciseFlippedHuber(1.0, "x", 10), "gamma"), (lambda: fh.at_precision(10).isf(1.5), "q"),
                       (lambda: fh.at_precision(10).privacy_profile(-1.0), "epsilon"),
                       (lambda: fh.at_precision(10).epsilon_for_delta(1.0), "delta"),
                       (lambda: fh.at_precision(10).pdf(float("nan")), "x")]:
        with pytest.raises(ValueError, match=name):
            call()
    assert fh.at_precision(bits=200).bits == 200


def test_flipped_huber_balls_of_inverses_and_loss():
    """isf/ppf and epsilon_for_delta balls bracket the reference root (FHRef's sf and profile at the ball's
    ends); the loss ball is the exact rational (rho(t + d) - rho(t))/gamma^2 of the definition (eq 7)."""
    digits = 40
    fh = fhsym.FlippedHuber(alpha=1.0, gamma=2.0)
    B = fh.at_precision(digits, ball=True)
    with mpmath.workdps(digits + 20):
        ref = FHRef(1.0, 2.0)

        def ends(ball):  # the ball's ends, exactly (lower/upper round outward at flint's precision)
            with ctx.workprec(4 * digits + 200):
                vs = (ball.lower(), ball.upper())
            return [M(int(v.man_exp()[0])) * M(2) ** int(v.man_exp()[1]) for v in vs]
        for q in ("0.01", "1e-40"):
            lo, hi = ends(B.isf(q))
            assert ref.sf(lo) >= M(q) >= ref.sf(hi) and hi - lo <= abs(hi) * M(10) ** (4 - digits)
            lo2, hi2 = ends(B.ppf(q))
            assert (lo2, hi2) == (-hi, -lo)
        lo, hi = ends(B.epsilon_for_delta("1e-6"))
        assert hi - lo <= abs(hi) * M(10) ** (4 - digits)
        for e, side in ((lo, 1), (hi, -1)):
            D = M(1) / 2  # Delta/gamma in standard units
            # delta(e) from the definition: the integral of [g(t) - e^eps g(t + Delta)]_+ (crossing by bisection)
            f = lambda t: ref.pdf(t) - mpmath.exp(e) * ref.pdf(t + 1)  # noqa: E731
            a, b = M(-1), M(40)
            for _ in range(300):
                m = (a + b) / 2
                a, b = (m, b) if f(m) <= 0 else (a, m)
            d = mpmath.quad(f, [b, b + 1, b + 4, b + 16, mpmath.inf])
            assert (d - M("1e-6")) * side >= 0, (e, d, D)
    # rho(1.5) = (1.5^2 + 1)/2 = 1.625 (beyond alpha = 1), rho(0.5) = 0.5: (1.625 - 0.5)/2^2 = 0.28125
    assert B.privacy_loss(0.5, 1.0).is_exact() and B.privacy_loss(0.5, 1.0) == arb("0.28125")
