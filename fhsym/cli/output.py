"""Human-readable output of each subcommand (``--json`` prints the result dict instead)."""

from __future__ import annotations

from typing import Any, Dict


_MEANING = {"alpha": "transition point of the Laplace centre and the Gaussian tails",
            "gamma": "scale of the Gaussian tails" , "sigma": "standard deviation", "beta": "Laplace scale",
            "scale": "Laplace scale before truncation", "bound": "truncation half-width",
            "vartheta": "offset of the Gaussian tails", "varrho": "scale of the Gaussian tails",
            "epsilon": "design privacy of the staircase", "sensitivity": "design sensitivity (step period)",
            "step": "lattice spacing of the noise", "width": "bin width", "weights": "bin weights n_0, n_1, ... (bin k holds n_|k|/N)"}


def _print_calibration(res: Dict[str, Any]) -> None:
    """The calibration as a person reads it: what the noise is, what it costs, how to draw it."""
    from ..noise import noise_class  # the law's prose name and class (imported when a calibration is printed)

    law = noise_class(res["mechanism"])
    name, cls = law.display_name, law.__name__
    dim = res.get("dim", 1)
    sens = f"sensitivity {res['sensitivity']:g}" if dim == 1 else (
        f"sensitivity set ||d||_inf <= {res['sensitivity']:g}, ||d||_2 <= {res['l2_sensitivity']:g}, "
        f"||d||_1 <= {res['l1_sensitivity']:g}")
    print(f"{name} noise for ({res['epsilon']:g}, {res['target_delta']:g})-DP, {sens}, dim {dim}:")
    params = res.get("parameters", {})
    for k, v in params.items():
        shown = f"{len(v)} integers ({v[0]}, ...)" if isinstance(v, (list, tuple)) else f"{v:.17g}"
        print(f"  {k:<17}= {shown}   ({_MEANING.get(k, 'parameter')})")
    per = "  (per coordinate)" if dim != 1 else ""
    print(f"  {'variance':<17}= {res['variance']:.17g}{per}")
    print(f"  {'std':<17}= {res['std']:.17g}{per}")
    print(f"  {'achieved delta':<17}= {res['achieved_delta']:.6e}   (certified upper bound; target {res['target_delta']:g})")
    texts = res.get("_comparison_text", {})
    for other, var in res.get("comparison", {}).items():
        more = f": {texts[other]} variance" if other in texts else ""
        print(f"  {other + ' variance':<17}= {var:.7g}   (the same guarantee with {other} noise{more})")
    if res.get("method"):
        print(f"  {'method':<17}: {res['method']}")
    if res.get("certificate"):
        print(f"  {'certificate':<17}: {res['certificate']}")
    if res.get("certificate_file"):
        print(f"  {'written to':<17}: {res['certificate_file']}  (re-check: fhsym check-certificate {res['certificate_file']})")
    args = ", ".join(f"{k}={v!r}" if not isinstance(v, (list, tuple)) else f"{k}=cal.parameters[{k!r}]"
                     for k, v in params.items())
    size = "size" if dim == 1 else f"(size, {dim})"
    if law.lattice:
        print(f"  release          : fhsym.release(value, calibration=cal, secure=True)   # exact lattice noise, integers "
              f"only; or fhsym.{cls}({args}).rvs(size, output='index')")
    else:
        print(f"  draw the noise   : fhsym.{cls}({args}).rvs({size})   # floating point; see docs/security.md")



def print_human(command: str, res: Dict[str, Any]) -> None:
    if command == "advise":
        print(res["_text"])
    elif command == "calibrate":
        _print_calibration(res)
    elif command == "check-certificate":
        print(f"{res['file']}: " + {"proven": "holds, proven",
                                     "unproven": "holds only as a floating-point estimate (NOT PROVEN)",
                                     "false": "DOES NOT HOLD"}[res["verdict"]])
        print(f"  {res['reason']}")
    elif command == "profile":
        print(f"privacy profile of FH(alpha={res['alpha']:g}, gamma={res['gamma']:g}), sensitivity {res['sensitivity']:g}:")
        for e, d in zip(res["epsilon"], res["delta"]):
            print(f"  eps = {e:<12g} delta = {d:.12e}")
    elif command == "sample":
        if "out" in res:
            print(f"wrote {res['n']} samples to {res['out']}")
        else:
            print("\n".join(f"{v:.17g}" for v in res["samples"]))
    elif command == "verify":
        if "topics" in res:
            for t in res["topics"]:
                print(f"{t['topic']}: {t['title']}")
                for c in t["checks"]:
                    print(f"  {c['key']:48s} {c['paper']:28s} {'quick' if c['quick'] else ''}".rstrip())
            return
        print(res["_table"])
        print()
        for key, claim, evidence in res["_failures"]:
            print(f"FAIL {key}: {claim}")
            for e in evidence:
                print("    " + e)
        if res["errata"]:
            print(f"errata documented: {', '.join(res['errata'])} (docs/errata.md)")
        print(f"{res['checks']} checks, {res['passed']} PASS, {res['failed']} FAIL in {res['seconds']:.1f}s")
        if res["_times"]:
            print(res["_times"])
        if res["report"]:
            print(f"wrote {res['report']}")
    elif command == "reproduce":
        print(f"fhsym reproduce: outputs in {res['out']} ({res['seconds']:.0f} s)")
        for f in res.get("figures", []):
            print(f"  figure  {f}")
        for t in res.get("tables", []):
            print(f"  table   {t}")
        for d in res.get("data", []):
            print(f"  data    {d}")
        k = res["kdim"]
        print(f"  K-dim   {k['note']}")
        for o in k.get("outputs", []):
            print(f"          {o}")


def json_ready(res: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in res.items() if not k.startswith("_")}
