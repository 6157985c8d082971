"""Command-line interface: ``fhsym calibrate | profile | sample``.

Every subcommand takes ``--json`` for machine-readable output.  Invalid input
prints one line naming the parameter to stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import List, Optional, Sequence

import numpy as np

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's own errors: status 2, one line
        self.exit(2, f"{self.prog}: error: {message}\n")


def _build() -> argparse.ArgumentParser:
    p = _Parser(prog="fhsym", description="The flipped Huber noise mechanism for differential privacy.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    c = sub.add_parser("calibrate", help="certified minimum-variance (alpha, gamma) for (eps, delta)-DP",
                       description="Minimum-variance flipped Huber parameters meeting (eps, delta)-DP, "
                                   "certified by re-evaluating the exact privacy profile at the result.")
    c.add_argument("--epsilon", type=float, required=True, help="privacy budget eps >= 0")
    c.add_argument("--delta", type=float, required=True, help="privacy leakage delta in (0, 1)")
    c.add_argument("--sensitivity", type=float, default=1.0, help="sensitivity Delta > 0 (default 1)")
    c.add_argument("--dim", type=int, default=1, help="query dimension K (only 1 is implemented so far)")
    c.add_argument("--json", action="store_true", help="print JSON")

    pr = sub.add_parser("profile", help="exact 1-D privacy profile delta(eps) (Theorem 3, eq 13)",
                        description="delta(eps) of the 1-D flipped Huber mechanism at the given eps values.")
    pr.add_argument("--alpha", type=float, required=True, help="transition parameter alpha >= 0")
    pr.add_argument("--gamma", type=float, required=True, help="scale parameter gamma > 0")
    pr.add_argument("--sensitivity", type=float, default=1.0, help="sensitivity Delta > 0 (default 1)")
    pr.add_argument("--epsilon", type=float, nargs="+", required=True, help="one or more eps >= 0")
    pr.add_argument("--json", action="store_true", help="print JSON")

    s = sub.add_parser("sample", help="draw flipped Huber noise (inverse-CDF sampler)",
                       description="Draw n samples of FH(alpha, gamma^2) noise.")
    s.add_argument("--alpha", type=float, required=True, help="transition parameter alpha >= 0")
    s.add_argument("--gamma", type=float, required=True, help="scale parameter gamma > 0")
    s.add_argument("-n", type=int, default=10, help="number of samples (default 10)")
    s.add_argument("--seed", type=int, default=None, help="random seed (default: fresh entropy)")
    s.add_argument("--out", default=None, help="write the samples to this .npy file instead of printing")
    s.add_argument("--json", action="store_true", help="print JSON")
    return p


def _cmd_calibrate(ns) -> dict:
    from .calibration import calibrate

    cal = calibrate(ns.epsilon, ns.delta, sensitivity=ns.sensitivity, dim=ns.dim)
    return cal.as_dict()


def _cmd_profile(ns) -> dict:
    from .privacy_profile import privacy_profile

    d = np.atleast_1d(privacy_profile(ns.epsilon, ns.alpha, ns.gamma, ns.sensitivity))
    return {"alpha": ns.alpha, "gamma": ns.gamma, "sensitivity": ns.sensitivity,
            "epsilon": list(map(float, ns.epsilon)), "delta": [float(x) for x in d]}


def _cmd_sample(ns) -> dict:
    from .distribution import FlippedHuber

    if ns.n < 0:
        raise ValueError(f"n must be a non-negative integer; got {ns.n}")
    x = np.atleast_1d(FlippedHuber(ns.alpha, ns.gamma).rvs(ns.n, random_state=ns.seed))
    if ns.out:
        np.save(ns.out, x)
        return {"alpha": ns.alpha, "gamma": ns.gamma, "n": ns.n, "seed": ns.seed, "out": ns.out}
    return {"alpha": ns.alpha, "gamma": ns.gamma, "n": ns.n, "seed": ns.seed, "samples": [float(v) for v in x]}


def _print_human(command: str, res: dict) -> None:
    if command == "calibrate":
        print(f"flipped Huber noise for ({res['epsilon']:g}, {res['delta']:g})-DP, sensitivity {res['sensitivity']:g}, dim {res['dim']}:")
        print(f"  alpha          = {res['alpha']:.17g}")
        print(f"  gamma          = {res['gamma']:.17g}")
        print(f"  variance       = {res['variance']:.17g}")
        print(f"  achieved delta = {res['achieved_delta']:.6e}  (target {res['delta']:g})")
        print(f"  certificate    : {res['certificate']}")
    elif command == "profile":
        print(f"privacy profile of FH(alpha={res['alpha']:g}, gamma={res['gamma']:g}), sensitivity {res['sensitivity']:g}:")
        for e, d in zip(res["epsilon"], res["delta"]):
            print(f"  eps = {e:<12g} delta = {d:.12e}")
    elif command == "sample":
        if "out" in res:
            print(f"wrote {res['n']} samples to {res['out']}")
        else:
            print("\n".join(f"{v:.17g}" for v in res["samples"]))


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = _build()
    ns = parser.parse_args(argv)
    handlers = {"calibrate": _cmd_calibrate, "profile": _cmd_profile, "sample": _cmd_sample}
    try:
        res = handlers[ns.command](ns)
    except (ValueError, NotImplementedError, OverflowError) as exc:
        print(f"fhsym {ns.command}: error: {exc}", file=sys.stderr)
        return 2
    if ns.json:
        print(json.dumps(res, allow_nan=False))
    else:
        _print_human(ns.command, res)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
