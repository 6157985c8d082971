"""The argument parser: every value validated at parse time against fhsym's parameter domains.

Nothing here imports numpy or the library at module level: ``fhsym --help`` builds the parser and
exits (``tests/test_cli_startup.py`` measures it); the domains are loaded when a value is parsed.
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Callable, NoReturn, Optional, Tuple

if TYPE_CHECKING:
    from .._core.domains import Domain


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse's own errors: status 2, one line
        self.exit(2, f"{self.prog}: error: {message}\n")


# ---------------------------------------------------------------------------
# argument types: validated at parse time against the domains of fhsym._core.domains,
# so every message names the option, its valid range and the offending value
# ---------------------------------------------------------------------------


def _real(name: str, open_range: Optional[Tuple[float, float]] = None) -> Callable[[str], float]:
    """A float option checked against the domain ``name`` of ``fhsym._core.domains`` (``EPSILON`` for
    ``"epsilon"``), or against the open interval ``open_range`` when given."""

    def parse(text: str) -> float:
        from .._core import domains as V  # numpy: imported when a value is parsed, not for --help

        domain: Domain = getattr(V, name.upper()) if open_range is None else V.Domain(name, *open_range)
        try:
            x = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(domain.message(text)) from None
        if not bool(domain.contains(x)):
            raise argparse.ArgumentTypeError(domain.message(x))
        return x

    parse.__name__ = name  # argparse uses it in "invalid <name> value" fall-backs
    return parse


def _integer(name: str, lower: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            x = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer >= {lower}; got {text!r}") from None
        if x < lower:
            raise argparse.ArgumentTypeError(f"{name} must be an integer >= {lower}; got {x}")
        return x

    parse.__name__ = name
    return parse


_EPS = _real("epsilon")
_DELTA = _real("delta")
_SENS = _real("sensitivity")
_ALPHA = _real("alpha")
_GAMMA = _real("gamma")
_L2 = _real("l2_sensitivity")
_L1 = _real("l1_sensitivity")
_STEP = _real("step")


# ---------------------------------------------------------------------------
# the parser
# ---------------------------------------------------------------------------


class _Given(argparse.Action):
    """Store the value and record that the option was given (``ns.given_<dest>``): a command can then refuse an
    option it would not use without refusing its default."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: Optional[str] = None) -> None:
        setattr(namespace, self.dest, values)
        setattr(namespace, f"given_{self.dest}", True)


def _add_jobs(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("-j", "--jobs", type=_integer("jobs", 1), default=min(2, os.cpu_count() or 1), metavar="N",
                        action=_Given, help=f"{what} (default: min(2, cpus))")


_EPILOG_EXIT = "exit status: 0 success, 2 bad input (one line on stderr naming the parameter)"

#: the built-in laws (``fhsym.noise.NOISE_CLASSES`` without the declared ones; tests/test_cli.py checks it): the choices
#: of calibrate's ``--mechanism`` listed by ``--help``, which builds no registry (it loads no numerical library).  The
#: value is checked against the registry itself when the command runs, after ``--law`` files have declared their laws.
BUILTIN_MECHANISMS = ("flipped_huber", "gaussian", "laplace", "truncated_laplace", "staircase", "osgt",
                      "discrete_flipped_huber", "piecewise_uniform", "truncated_staircase")


def _add_law(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--law", action="append", default=[], type=Path, metavar="FILE.py",
                        help="a Python file that declares a noise law (fhsym.declare_law, docs/declare.md), run before "
                             f"the command (repeatable); {what}")


def build_parser() -> argparse.ArgumentParser:
    fmt = argparse.RawDescriptionHelpFormatter
    p = _Parser(
        prog="fhsym",
        description="The flipped Huber noise mechanism for differential privacy: certified calibration, exact "
        "privacy profiles, sampling, the proofs and the paper's figures.",
        epilog="Every subcommand takes --json (machine-readable output on stdout) and --help. "
        "Examples:\n  fhsym calibrate --epsilon 1 --delta 1e-6\n"
        "  fhsym profile --alpha 1 --gamma 2 --epsilon 0.5 1 2 --json\n"
        "  fhsym sample --alpha 1 --gamma 2 -n 5 --seed 0\n  fhsym advise --epsilon 0.3 --delta 1e-6 --dim 5\n"
        "  fhsym verify --quick\n  fhsym reproduce --out docs",
        formatter_class=fmt,
    )
    from .._core.version import __version__

    p.add_argument("--version", action="version", version=f"fhsym {__version__}")
    fh_parameters = _Parser(add_help=False)  # the flipped Huber law of `profile` and `sample`
    fh_parameters.add_argument("--alpha", type=_ALPHA, required=True, metavar="A", help="transition parameter alpha >= 0")
    fh_parameters.add_argument("--gamma", type=_GAMMA, required=True, metavar="G", help="scale parameter gamma > 0")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")

    c = sub.add_parser(
        "calibrate", formatter_class=fmt,
        help="certified minimum-variance (alpha, gamma) for (eps, delta)-DP",
        description="Minimum-variance flipped Huber parameters meeting (eps, delta)-DP (fhsym.calibrate).\n"
        "1-D: the exact condition of Theorem 3 (eq 13); the result is certified: delta(eps) at the exact\n"
        "returned floats is enclosed by ball arithmetic (python-flint arb), and it never under-noises.\n"
        "K > 1 (--dim): Theorem 8 (sufficient) or the exact K-fold profile (privacy-loss distributions).",
        epilog="examples:\n  fhsym calibrate --epsilon 0.3 --delta 1e-6 --json\n"
        "  fhsym calibrate --epsilon 1 --delta 1e-6 --law docs/examples/logistic_law.py --mechanism logistic\n"
        + _EPILOG_EXIT,
    )
    c.add_argument("--epsilon", type=_EPS, required=True, metavar="E", help="privacy budget eps >= 0")
    c.add_argument("--delta", type=_DELTA, required=True, metavar="D", help="privacy leakage delta in (0, 1)")
    c.add_argument("--sensitivity", type=_SENS, default=None, metavar="S",
                   help="per-coordinate (l_inf) sensitivity Delta > 0 (default 1 when no sensitivity is given)")
    c.add_argument("--dim", type=_integer("dim", 1), default=1, metavar="K", help="query dimension K >= 1 (default 1)")
    c.add_argument("--l2-sensitivity", type=_L2, default=None, metavar="S2",
                   help="l2 sensitivity Delta_2 > 0 (dim 1: the same number as --sensitivity; dim K: "
                        "default sqrt(K) Delta)")
    c.add_argument("--l1-sensitivity", type=_L1, default=None, metavar="S1",
                   help="l1 sensitivity Delta_1 > 0 (dim 1: the same number as --sensitivity; dim K: default K Delta). "
                        "Every given sensitivity is used: in dim 1 they must agree, in dim K the set is the "
                        "intersection of the given balls")
    c.add_argument("--method", default="auto", metavar="NAME",
                   help="auto (default: the least variance among the proven claims that apply) or one of the "
                        "mechanism's methods, the keys of the calibration plans its law declares (checked when the "
                        "command runs; an unknown one lists them): e.g. flipped Huber exact, sufficient (Theorem 8, "
                        "dim > 1), zcdp (not proven); Laplace pure (delta = 0), exact; the staircase pure, "
                        "kfold-pld-sup; the truncated staircase closed")
    c.add_argument("--mechanism", default="flipped_huber", metavar="NAME",
                   help=f"the noise to calibrate: a registered law, {{{','.join(BUILTIN_MECHANISMS)}}} or one declared by "
                        "--law (default flipped_huber; discrete_flipped_huber needs --step; piecewise_uniform is the "
                        "optimum's noise, fhsym.optimal_variance)")
    _add_law(c, "its law is then a --mechanism (a file none of whose laws is the --mechanism is refused)")
    c.add_argument("--compositions", type=_integer("compositions", 1), default=1, metavar="T",
                   help="number of releases composed, T >= 1 (default 1; the guarantee covers all T)")
    c.add_argument("--step", type=_STEP, default=None, metavar="H",
                   help="lattice spacing h > 0 of --mechanism discrete_flipped_huber (the sensitivity is a multiple of it)")
    c.add_argument("--bins", type=_integer("bins", 1), default=None, metavar="M",
                   help="bins per unit sensitivity (a power of two) of --mechanism piecewise_uniform (default: automatic)")
    c.add_argument("--certificate", type=Path, default=None, metavar="FILE",
                   help="also write the certificate as JSON to FILE (re-check it with: fhsym check-certificate FILE)")

    ad = sub.add_parser(
        "advise", formatter_class=fmt,
        help="which mechanism needs the least noise for this release (every one certified)",
        description="Certified calibrations of every mechanism (flipped Huber, Gaussian, Laplace K-fold and pure,\n"
        "truncated Laplace, staircase, OSGT; the truncated staircase for one release of one coordinate,\n"
        "K T = 1, where alone a claim covers it) for one release, sorted by per-coordinate variance, best first,\n"
        "with the gain over the runner-up (fhsym.advise).  Calibrations held by the frontier data file\n"
        "(fhsym/applications/data/frontier.json.gz, read through its shard of (E, D)) are reused: a certificate\n"
        "that fhsym.verify_certificate proved when the data were built (the digest of the shard's certificates\n"
        "equals the one that re-check recorded) is served as verified then (--reverify re-checks it now), any\n"
        "other is re-verified now; the rest are computed (progress on stderr).  The sensitivity set is the --norm ball of radius\n"
        "--sensitivity (default 1);\n"
        "the box-based mechanisms cover an l2 / l1 ball through the box that contains it.",
        epilog="examples:\n  fhsym advise --epsilon 0.3 --delta 1e-6\n"
        "  fhsym advise --epsilon 1 --delta 1e-8 --dim 20 --norm l2 --compositions 10 --json\n"
        "  fhsym advise --epsilon 1 --delta 1e-6 --plot advice.png\n" + _EPILOG_EXIT,
    )
    ad.add_argument("--epsilon", type=_real("epsilon", (0.0, math.inf)), required=True, metavar="E",
                    help="privacy budget eps > 0")
    ad.add_argument("--delta", type=_DELTA, required=True, metavar="D", help="privacy leakage delta in (0, 1)")
    ad.add_argument("--dim", type=_integer("dim", 1), default=1, metavar="K", help="coordinates K >= 1 (default 1)")
    ad.add_argument("--norm", choices=("linf", "l2", "l1"), default="linf",
                    help="the sensitivity set: the ball of this norm (default linf: the box)")
    ad.add_argument("--sensitivity", type=_SENS, default=1.0, metavar="S",
                    help="radius S > 0 of the sensitivity set (default 1); the frontier data (radius 1) is\n"
                         "reused only for S = 1, other radii are calibrated now")
    ad.add_argument("--compositions", type=_integer("compositions", 1), default=1, metavar="T",
                    help="releases composed T >= 1 (default 1)")
    _add_law(ad, "its laws join the candidates")
    ad.add_argument("--plot", type=Path, default=None, metavar="FILE",
                    help="also draw the ranking (variance per mechanism; the optimum band in one coordinate)\n"
                         "into FILE (PNG, SVG or PDF by its suffix; needs matplotlib)")
    ad.add_argument("--no-data", action="store_true", help="compute everything (do not reuse the frontier data file)")
    ad.add_argument("--reverify", action="store_true", help="re-check every reused certificate now with\n"
                    "fhsym.verify_certificate, also those proven when the data were built (slower: ~1 s at --dim 5)")
    ad.add_argument("--no-progress", action="store_true", help="no progress lines on stderr")

    cc = sub.add_parser(
        "check-certificate", formatter_class=fmt,
        help="re-check a certificate written by calibrate --certificate",
        description="Re-derive the enclosure of delta(eps) recorded in a certificate from its inputs alone\n"
        "through its claim (fhsym.verify_certificate: ball arithmetic at the exact parameters, exact\n"
        "rationals, or the exact-arithmetic privacy-loss distribution on the recorded grid) and compare\n"
        "it with the target; every field must be what the claim uses or reproduces.  A certificate whose\n"
        "re-check would exceed the verification budget (60 s, 2048 MB) is refused before any work.",
        epilog="example: fhsym check-certificate cert.json\n"
        "exit status: 0 the claim holds and is proven, 1 it does not hold, 2 unreadable or malformed file\n"
        "(or over the budget), 3 it holds only as a floating-point estimate (not proven)",
    )
    cc.add_argument("file", type=Path, metavar="FILE", help="a certificate JSON file")
    cc.add_argument("--max-seconds", type=_real("max_seconds", (0.0, 1e9)), default=60.0, metavar="S",
                    help="verification budget: refuse a certificate whose re-check is estimated to take longer\n"
                         "than S seconds (default 60; the estimate is made before any work)")
    cc.add_argument("--max-mb", type=_integer("max_mb", 1), default=2048, metavar="MB",
                    help="verification budget: refuse a certificate whose re-check is estimated to need more\n"
                         "than MB megabytes (default 2048)")

    pr = sub.add_parser(
        "profile", formatter_class=fmt, parents=[fh_parameters],
        help="exact 1-D privacy profile delta(eps) (Theorem 3, eq 13)",
        description="delta(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt of the 1-D flipped Huber mechanism\n"
        "(Theorem 3, eq 13; fhsym.privacy_profile), at one or more eps.  Relative error <= 1e-10.",
        epilog="example: fhsym profile --alpha 1 --gamma 2 --epsilon 0.5 1 2\n" + _EPILOG_EXIT,
    )
    pr.add_argument("--sensitivity", type=_SENS, default=1.0, metavar="S", help="sensitivity Delta > 0 (default 1)")
    pr.add_argument("--epsilon", type=_EPS, nargs="+", required=True, metavar="E", help="one or more eps >= 0")

    s = sub.add_parser(
        "sample", formatter_class=fmt, parents=[fh_parameters],
        help="draw flipped Huber noise (float ziggurat sampler)",
        description="Draw n samples of FH(alpha, gamma^2) noise (FlippedHuber.rvs: a ziggurat on eq 8).",
        epilog="example: fhsym sample --alpha 1 --gamma 2 -n 1000 --seed 0 --out noise.npy\n" + _EPILOG_EXIT,
    )
    s.add_argument("-n", type=_integer("n", 0), default=10, metavar="N", help="number of samples >= 0 (default 10)")
    s.add_argument("--seed", type=_integer("seed", 0), default=None, metavar="SEED",
                   help="random seed >= 0 (default: fresh OS entropy)")
    s.add_argument("--out", default=None, metavar="FILE.npy", help="write the samples to this .npy file instead of printing")

    v = sub.add_parser(
        "verify", formatter_class=fmt,
        help="run the proofs (python -m proofs) with a progress bar",
        description="Run fhsym's proofs: every closed form derived symbolically and checked against mpmath\n"
        "quadrature of its definition (the same checks as `python -m proofs`).  The proofs ship in the wheel\n"
        "(fhsym._proofs): an installed fhsym runs them and writes a report only where --report says; in a\n"
        "source checkout (pip install -e .) the checkout's proofs/ run and a full run rewrites proofs/REPORT.md.\n"
        "Measured run times: docs/performance.md (--times N lists the slowest checks of a run).",
        epilog="examples:\n  fhsym verify                     # everything (long); in a checkout writes proofs/REPORT.md\n"
        "  fhsym verify --quick             # the smoke subset, every topic and paper object\n"
        "  fhsym verify --quick --only distribution\n"
        "  fhsym verify --check distribution.rho_properties\n"
        "exit status: 0 all checks pass, 1 a check failed, 2 bad input or no proofs (neither the wheel's nor a checkout's)",
    )
    v.add_argument("--quick", action="store_true", help="the fast subset: every topic and paper object, fewer random "
                   "points and sweep values; proofs/_quick.py lists what it leaves out")
    v.add_argument("--only", action="append", default=[], metavar="TOPIC", help="run only this topic (repeatable)")
    v.add_argument("--check", action="append", default=[], metavar="TOPIC.NAME",
                   help="run only this check (repeatable), e.g. distribution.rho_properties")
    v.add_argument("--list", action="store_true", help="list the topics and checks, then exit (the options of a run, "
                   "--quick, --only, --check, --report, --no-report, --times, --jobs, are refused with it)")
    _add_jobs(v, "parallel processes")
    v.add_argument("--report", type=Path, default=None, metavar="PATH",
                   help="write the markdown report here (default: none, except a full run in a source checkout, "
                        "which rewrites proofs/REPORT.md)")
    v.add_argument("--no-report", action="store_true", help="do not write a report")
    v.add_argument("--no-progress", action="store_true", help="no progress bar")
    v.add_argument("--times", type=_integer("times", 0), default=0, metavar="N",
                   help="after the run, list the N slowest checks (wall and CPU seconds) and where the time went "
                        "(--json always gives each check's seconds)")

    r = sub.add_parser(
        "reproduce", formatter_class=fmt,
        help="regenerate the paper's tables and figures (Fig 1, 2, 3, 4, 6, 7)",
        description="Regenerate the paper's numbers and figures: the 1-D tables and Fig 1, 2, 3 (a, b, c), 6, 7\n"
        "(scripts/reproduce_1d.py) and the K-dimensional results with Fig 4 (scripts/reproduce_kdim.py).\n"
        "Figures go to OUT/figures/, tables to OUT/reproduction/; OUT is a new folder in the working\n"
        "directory unless --out names one (--out docs rewrites the checkout's docs; nothing else of the\n"
        "checkout or the installed package is written).  Calibrations are cached in\n"
        "OUT/reproduction/data/1d.json (invalidated when the numeric code changes; a new OUT starts from\n"
        "the checkout's committed cache, read only).  Progress with an ETA (the K-dim part's from the last\n"
        "run).  Needs matplotlib (pip install 'fhsym[plot]') and a source checkout.",
        epilog="examples:\n  fhsym reproduce                  # 1-D then K-dim (~10 min) into ./fhsym-reproduction-<time>/\n"
        "  fhsym reproduce --quick --skip-kdim --out /tmp/fh\n"
        "  fhsym reproduce --out docs       # regenerate the checkout's docs/figures and docs/reproduction\n"
        "exit status: 0 success, 1 a step failed, 2 bad input, no matplotlib or no source checkout",
    )
    r.add_argument("--out", type=Path, default=None, metavar="DIR", help="output directory (default: a new folder "
                   "fhsym-reproduction-<date>-<time> in the working directory)")
    r.add_argument("--quick", action="store_true", help="coarse grids (a smoke run: ~1 min for the 1-D part)")
    r.add_argument("--skip-kdim", action="store_true", help="skip the K-dimensional part (Fig 4, Table II)")
    r.add_argument("--no-cache", action="store_true", help="recompute every calibration (ignore the cache)")
    _add_jobs(r, "parallel processes for the calibrations")
    r.add_argument("--no-progress", action="store_true", help="no progress bar")
    for command in sub.choices.values():  # every subcommand, last in its help
        command.add_argument("--json", action="store_true", help="print JSON")
    return p
