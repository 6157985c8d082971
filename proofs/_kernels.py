"""One check for every stable kernel: stable form == paper form, and its negative control.

* :func:`declared_kernels` is the ONE place that reads which kernels exist and, for
  each, its naive float64 paper form and its stress point.  Today the kernels come
  from :data:`fhsym.symbolic.stable.KERNELS`, :data:`fhsym.symbolic.privacy.PROFILE_KERNELS`
  and :data:`fhsym.symbolic.privacy.LOSS_KERNELS`, the naive forms and stress points
  from :mod:`proofs._naive`; when the declarations move into ``fhsym/symbolic/``, this
  function is the only edit.
* :func:`check_identity` (one function for every kernel): the stable form equals the
  paper form, symbolically (PROVEN) or at >= 50 significant digits at random points of
  the kernel's domain and constraint (VERIFIED).
* :func:`check_control`: at the stress point the naive float64 paper form is measurably
  wrong (relative error >= 1e-7, or not finite) and the generated float64 kernel right to
  ~1e-14 against the paper form evaluated by mpmath at exact inputs (status CONTROL: one
  point, a failure mode shown, nothing verified in general).  A kernel declared without a
  stress point (``no_stress``: the paper form does not fail where the kernel is used) gets
  a one-point accuracy check of the kernel instead (VERIFIED, 1 point), not a control.
* :func:`register_kernel_checks` adds both checks of every kernel of the given families
  to a topic (names ``kernel_<name>``, ``control_<name>``).

What differs between kernel families (where to sample, how many digits the paper form
loses, how SymPy closes the identity) is a :class:`Family` supplied by the topic.
"""

from __future__ import annotations

import functools
import math
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import mpmath
import numpy as np
import sympy as sp
from mpmath import mp, mpf

from . import _fmt
from . import _mp as M
from ._harness import FAIL, PROVEN, VERIFIED, Outcome, Topic, negative_control, verified

__all__ = [
    "DeclaredKernel", "Family", "declared_kernels", "kernel_args", "kernel_fns", "satisfies",
    "check_identity", "check_control", "register_kernel_checks", "DIGITS", "NAIVE_MIN_ERR",
]

DIGITS = 50  # significant digits of the identity checks
NAIVE_MIN_ERR = 1e-7  # the naive float64 paper form must be at least this wrong (or non-finite)
CONTROL_DIGITS = 20  # digits of the mpmath value of the paper form at the stress point


@dataclass(frozen=True)
class DeclaredKernel:
    """A kernel of ``fhsym.symbolic`` with what the proofs need to control it."""

    kernel: Any  # fhsym.symbolic.stable.Kernel: name, args, expr, paper, paper_ref, domain, constraint
    family: str  # "distribution" | "profile" | "loss"
    generated: str  # module of fhsym._generated holding the float64 kernel
    naive: Optional[Callable[..., float]]  # the paper form typed into float64 (args without lw)
    stress: Optional[Tuple[float, ...]]  # where the naive form fails
    why: str  # why it fails there
    no_stress: Optional[str] = None  # reason the paper form has no float64 failure where the kernel is used

    @property
    def name(self) -> str:
        return self.kernel.name


def declared_kernels() -> Tuple[DeclaredKernel, ...]:
    """Every stable kernel with its naive paper form and stress point (the single source adapter)."""
    from fhsym.symbolic import privacy as P
    from fhsym.symbolic import stable as S

    from . import _naive as N

    out: List[DeclaredKernel] = []
    sources = (
        ("distribution", "flipped_huber", S.KERNELS, N.NAIVE, N.STRESS, N.NO_STRESS),
        ("profile", "privacy_profile", P.PROFILE_KERNELS, N.PRIVACY_NAIVE, N.PRIVACY_STRESS, N.PRIVACY_NO_STRESS),
        ("loss", "privacy_loss", P.LOSS_KERNELS, N.PRIVACY_NAIVE, N.PRIVACY_STRESS, N.PRIVACY_NO_STRESS),
    )
    for family, module, kernels, naive, stress, no_stress in sources:
        for k in kernels:
            pt, why = stress.get(k.name, (None, ""))
            out.append(DeclaredKernel(k, family, module, naive.get(k.name), pt, why, no_stress.get(k.name)))
    return tuple(out)


@dataclass(frozen=True)
class Family:
    """How to check the kernels of one family.

    ``sample(k, n, rng, ctx) -> (points, stats, note)``: ``n`` random points of the domain
    satisfying the constraint (``stats['random']``) plus edge points (``stats['edge']``);
    ``need(k, point) -> digits`` lost to cancellation by the paper form (a starting precision);
    ``symbolic(k, points) -> (strategy or None, notes, gap)``: the SymPy proof, evidence lines, and
    ``gap`` (None, or why the SymPy part does not prove the identity on the whole domain, e.g. a
    step decided numerically at the sample points: then the identity is at most VERIFIED).
    """

    name: str
    sample: Callable
    need: Callable[[Any, Dict[str, float]], float]
    symbolic: Callable
    f64_tol: float  # generated float64 kernel at its stress point
    log_abs_error: bool = False  # log kernels: absolute error of the log (= relative error of the value)
    control_need: Optional[Callable[[Any, Dict[str, float]], float]] = None


def kernel_args(k) -> Tuple[sp.Symbol, ...]:
    from fhsym.symbolic import stable as S

    return tuple(a for a in k.args if a != S.lw)


_FNS: Dict[str, Tuple[Callable, Callable, Callable]] = {}


def _fns(k) -> Tuple[Callable, Callable, Callable]:
    if k.name in _FNS:
        return _FNS[k.name]
    from fhsym.symbolic import stable as S

    args = kernel_args(k)
    f_paper = M.mp_function(args, k.paper.subs(S.lw, S.LW_PAPER))
    f_stable = M.mp_function(args, k.expr.subs(S.lw, S.LW_PAPER))
    f_cons = M.mp_function(args, k.constraint) if k.constraint is not None else (lambda *a: True)
    _FNS[k.name] = (f_paper, f_stable, f_cons)
    return _FNS[k.name]


def kernel_fns(k) -> Tuple[Callable, Callable, Callable]:
    """(paper form, stable form, constraint) of ``k`` as mpmath functions of its arguments (lw substituted)."""
    return _fns(k)


def satisfies(k, point: Sequence[Any]) -> bool:
    """The kernel's constraint holds at ``point`` (decided at 40 digits)."""
    fc = _fns(k)[2]
    with mp.workdps(40):
        return bool(fc(*[M.to_mpf(x) for x in point]))


def check_identity(dk: DeclaredKernel, fam: Family, ctx) -> Outcome:
    """Stable form == paper form: PROVEN (SymPy, confirmed at 50 digits) or VERIFIED (50 digits only)."""
    from fhsym.symbolic import stable as S

    k = dk.kernel
    args = kernel_args(k)
    names = [a.name for a in args]
    rng = ctx.rng(k.name)
    n = ctx.n(30, 3)
    pts, stats, note = fam.sample(k, n, rng, ctx)
    ev = [f"- paper reference: {k.paper_ref}", f"- stable form: `{sp.sstr(k.expr)}`"]
    how, notes, gap = fam.symbolic(k, pts)
    ev += notes
    ev.append(f"- SymPy (stable form rewritten to textbook functions, lw = log omega - b^2/2, minus the paper form): "
              f"`{how or 'not closed by SymPy'}`" + (f" (not a proof on the whole domain: {gap})" if gap and how else ""))
    f_paper, f_stable, _ = _fns(k)
    errs: List[Tuple[float, str]] = []
    failures: List[str] = []
    max_dps = 0
    maxes = [([x for x in mx.args if x != 0][0]) for mx in k.expr.atoms(sp.Max)]
    active_max = 0
    for p in pts:
        need = fam.need(k, dict(zip(names, p)))
        try:
            pv, sv, d, dps = M.evaluate_pair(f_paper, f_stable, p, digits=DIGITS, need=need)
        except M.PrecisionError as e:
            failures.append(f"{_fmt.pt(names, p)}: {e}")
            continue
        max_dps = max(max_dps, dps)
        errs.append((d, _fmt.pt(names, p)))
        if d > 10.0**-DIGITS:
            failures.append(f"{_fmt.pt(names, p)}: paper {mpmath.nstr(pv, 20)} vs stable {mpmath.nstr(sv, 20)} (rel {d:.2e})")
        for inner in maxes:  # a Max(x, 0) of the stable form must not be active: x > 0
            fi = M.mp_function(args, inner.subs(S.lw, S.LW_PAPER))
            with mp.workdps(60 + int(need)):
                if not fi(*[M.to_mpf(x) for x in p]) > 0:
                    active_max += 1
    worst, where = max(errs, key=lambda z: z[0]) if errs else (0.0, "")
    floor = 10.0**-DIGITS
    num_ok = not failures and len(errs) == len(pts) and stats["random"] >= n and active_max == 0
    ev.append(
        f"- numeric: {len(pts)} points ({stats['random']} random + {stats['edge']} edge{note}); domain {k.domain}, constraint "
        f"`{sp.sstr(k.constraint) if k.constraint is not None else 'none'}`; both sides at exact binary inputs with adaptive "
        f"precision (highest {max_dps} digits); worst relative difference {_fmt.err(worst, floor)}"
    )
    if stats.get("resampled_for_precision"):
        ev.append(f"- {stats['resampled_for_precision']} draws resampled because the paper form would need more than "
                  f"{int(stats['cap'])} digits there")
    if maxes:
        ev.append(f"- the pieces inside Max(., 0) are > 0 at every point (the Max is never active): {active_max == 0}")
    ev += [f"- **mismatch** {f}" for f in failures[:5]]
    shown_where = "" if worst < floor else where
    if num_ok and how and not gap:
        return Outcome(PROVEN, f"SymPy ({how}); confirmed at {DIGITS} digits, {len(pts)} points", "0 (exact)", "", ev)
    status = VERIFIED if num_ok else FAIL
    why = " (SymPy did not close the identity)" if how is None else (f" (SymPy: {gap})" if gap else "")
    return Outcome(status, f"numeric, both forms at adaptive precision{why}", _fmt.err(worst, floor), shown_where, ev,
                   points=len(pts), digits=f">= {DIGITS} digits")


def check_control(dk: DeclaredKernel, fam: Family, ctx) -> Outcome:
    """At the stress point: naive float64 paper form wrong, generated float64 kernel right (CONTROL, one point).

    A kernel with ``no_stress`` (no float64 failure of the paper form where the kernel is used): the kernel's
    accuracy at that one point only (VERIFIED, 1 point)."""
    import importlib

    from fhsym.symbolic import stable as S

    k = dk.kernel
    names = [a.name for a in kernel_args(k)]
    if dk.naive is None or dk.stress is None:
        return Outcome(FAIL, "negative control", "-", evidence=[
            f"- `{k.name}` has no naive float64 paper form or no stress point: declare them (see `proofs/_kernels.py: declared_kernels`)"])
    pt, why = dk.stress, dk.why
    exempt = dk.no_stress is not None
    in_region = satisfies(k, pt)
    exact = [sp.Rational(*float(x).as_integer_ratio()) for x in pt]  # inputs made exact
    f_paper = _fns(k)[0]
    need = (fam.control_need or (lambda kk, p: fam.need(kk, p) + 20))(k, dict(zip(names, pt)))
    truth, dps = M.evaluate(f_paper, exact, digits=CONTROL_DIGITS, need=need)
    gen = importlib.import_module(f"fhsym._generated.{dk.generated}")
    K = importlib.import_module("fhsym._generated.flipped_huber")
    fk = getattr(gen, k.name)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        xs = [np.float64(x) for x in pt]
        if S.lw in k.args:
            lw = float(K.log_omega_tilde(np.float64(pt[names.index("b")])))
            kv = float(fk(*xs, lw))
        else:
            kv = float(fk(*xs))
        nv = float(dk.naive(*pt))
    is_log = fam.log_abs_error and k.name.startswith("log_")

    def error(v: float) -> float:
        if not math.isfinite(v):
            return math.inf
        if is_log:
            with mp.workdps(40):
                return float(abs(mpf(v) - truth))
        return M.rel_diff(v, truth)

    kerr, nerr = error(kv), error(nv)
    naive_wrong = not math.isfinite(nv) or nerr >= NAIVE_MIN_ERR
    # log kernels: log delta itself is rounded to float64, so allow a few ulps of |log delta|
    tol = max(fam.f64_tol, 4 * 2.0**-52 * float(abs(truth))) if is_log else fam.f64_tol
    ok = in_region and kerr <= tol and (naive_wrong or exempt)
    unit = "absolute error in log delta (= relative error of delta)" if is_log else "relative error"
    ev = [
        f"- stress point {_fmt.pt(names, pt)} ({why}); inside the kernel's constraint: {in_region}; exact inputs via Rational(*x.as_integer_ratio())",
        f"- truth (paper form, mpmath, {dps} digits of working precision): {mpmath.nstr(truth, 17)}",
        f"- generated float64 kernel `fhsym._generated.{dk.generated}.{k.name}`"
        f"{' (lw from the generated log_omega_tilde)' if S.lw in k.args else ''}: {kv!r}, {unit} {_fmt.err(kerr)} (tolerance {tol:.2g})",
    ]
    naive_txt = f"{nv!r} ({unit} {_fmt.err(nerr)})"
    where = _fmt.pt(names, pt)
    ref = f"float64 vs {CONTROL_DIGITS} digits"
    if exempt:
        ev.append(f"- naive float64 paper form (`proofs/_naive.py`): {naive_txt}: **no stress point** — "
                  f"{dk.no_stress}; only the kernel's accuracy is required here (so this is not a negative control)")
        return verified(ok, "kernel accuracy at one point vs the paper form in mpmath (the paper form has no float64 failure "
                        "where the kernel is used)", 1, ref, f"kernel {_fmt.err(kerr)}, naive {_fmt.err(nerr)}", where, ev)
    ev.append(f"- naive float64 paper form (`proofs/_naive.py`): {naive_txt} (must be >= {NAIVE_MIN_ERR:g} or non-finite)")
    return negative_control(ok, "negative control: float64 naive form and kernel vs the paper form in mpmath", where, ref,
                            f"kernel {_fmt.err(kerr)}, naive {_fmt.err(nerr)}", f"{naive_txt}; {why}", ev)


def _short_ref(ref: str) -> str:
    r = ref.split(":")[0]
    if len(r) > 32 and " (" in r:
        r = r.split(" (")[0]
    return r if len(r) <= 32 else r.split(",")[0]


def register_kernel_checks(topic: Topic, families: Dict[str, Family], module: str) -> List[str]:
    """Add ``kernel_<name>`` and ``control_<name>`` to ``topic`` for every declared kernel of ``families``.

    ``module`` is the registering module (imported by a worker process to find the checks).
    Returns the kernel names.
    """
    names = []
    for dk in declared_kernels():
        fam = families.get(dk.family)
        if fam is None:
            continue
        k = dk.kernel
        ident = functools.partial(check_identity, dk, fam)
        ctrl = functools.partial(check_control, dk, fam)
        paper = _short_ref(k.paper_ref)
        topic.add(ident, obj=k.name, paper=paper, claim="stable form == paper form", name=f"kernel_{k.name}", module=module)
        claim = ("negative control: naive float64 paper form wrong, kernel right" if dk.no_stress is None else
                 "kernel accuracy at one point (no negative control: the paper form does not fail in float64 where the kernel is used)")
        topic.add(ctrl, obj=k.name, paper=paper, claim=claim, name=f"control_{k.name}", module=module)
        names.append(k.name)
    return names
