"""Pictures of the certified frontier, the optimum and one release's advice (optional extra ``plot``).

Re-exported by :mod:`fhsym.plotting`.  Every function takes the data it draws: the frontier data file as a dict
(:func:`fhsym.applications.advisor_table.load_data`) or an :class:`fhsym.applications.advise.Advice`.  The
``*_series`` functions return exactly the numbers a figure plots; :func:`data_digest` of them is written into the
PNG's metadata (key :data:`DIGEST_KEY`) by ``python scripts/figures.py``, so a test can tell a stale picture
from a fresh one without comparing pixels (fonts differ between machines).

| function | what is drawn |
|---|---|
| ``frontier_gain_figure`` | FH's gain in dB over the best other mechanism (or the Gaussian and the K-fold Laplace), over K x eps, one panel per delta; classes of a diverging colormap centred at a tie |
| ``optimum_excess_figure`` | each mechanism's variance above the certified optimum's lower end (%, log scale) against eps, one panel per delta; the optimum interval as a band |
| ``advice_figure`` | one release's certified ranking: variance per mechanism, the optimum interval as a band in one coordinate |

>>> from fhsym.applications.advise import default_data_path
>>> from fhsym.applications.advisor_table import load_data
>>> s = frontier_gain_series(load_data(default_data_path()))
>>> sorted(s["counts"]["1e-06"])
['loss', 'tie', 'win']
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Tuple

from .applications.frontier import (CANDIDATES, DELTAS, DIMS, EPSILONS, FH, LAPLACE_KFOLD, LAPLACE_PURE,
                                    ONE_D_CANDIDATES, STAIRCASE_PLD, candidate_label, gain_db)

if TYPE_CHECKING:  # the optional extra fhsym[plot]; imported where it is used
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from .applications.advise import Advice

__all__ = ["DIGEST_KEY", "GAIN_CLASSES_DB", "TIE_DB", "data_digest", "frontier_gain_series", "frontier_gain_figure",
           "optimum_excess_series", "optimum_excess_figure", "advice_series", "advice_figure"]

#: the PNG metadata key that holds :func:`data_digest` of the plotted numbers
DIGEST_KEY = "fhsym-data-digest"
#: a gain within +-TIE_DB dB (0.23 % of the variance) is a tie (as on docs/frontier.md)
TIE_DB = 0.01
#: the class boundaries of the gain in dB (symmetric about 0: the colormap's centre is a tie)
GAIN_CLASSES_DB: Tuple[float, ...] = (-3.0, -1.0, -0.1, -TIE_DB, TIE_DB, 0.1, 1.0, 3.0)
#: the mechanisms of the one-coordinate optimum figure (in 1-D the staircase with PLD is the staircase), with the
#: one-coordinate candidates (the truncated staircase)
ONE_D: Tuple[str, ...] = tuple(c for c in CANDIDATES if c != STAIRCASE_PLD) + ONE_D_CANDIDATES
_COLOR = {"flipped_huber": "#d62728", "gaussian": "#1f77b4", "laplace_kfold": "#2ca02c", "laplace_pure": "#98df8a",
          "truncated_laplace": "#ff7f0e", "staircase": "#8c564b", "staircase_pld": "#c49c94", "osgt": "#9467bd",
          "truncated_staircase": "#e377c2"}
_BASELINES = ("gaussian", LAPLACE_KFOLD)
_FONT = {"title": 15.0, "label": 15.0, "tick": 13.0}


def data_digest(series: Any) -> str:
    """A short sha256 of the plotted numbers (floats to 10 significant digits, so that the last bit of a float
    printed differently does not matter).

    >>> data_digest({"x": [1.0, 2.0]}) == data_digest({"x": [1.00000000001, 2.0]})
    True
    """
    def norm(x: Any) -> Any:
        if isinstance(x, float):
            return None if math.isnan(x) else float(f"{x:.10g}")
        if isinstance(x, dict):
            return {str(k): norm(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [norm(v) for v in x]
        return x

    return hashlib.sha256(json.dumps(norm(series), sort_keys=True).encode()).hexdigest()[:20]


def _figure(nrows: int, ncols: int, width: float, height: float) -> Tuple[Figure, List[Axes]]:
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise ImportError("fhsym.plotting needs matplotlib: pip install 'fhsym[plot]'") from exc
    fig = Figure(figsize=(width, height), layout="constrained", dpi=100)
    axes = [fig.add_subplot(nrows, ncols, i + 1) for i in range(nrows * ncols)]
    for ax in axes:
        ax.tick_params(labelsize=_FONT["tick"])
    return fig, axes


def _gain(entry: Mapping[str, Any], against: Optional[Sequence[str]]) -> Optional[float]:
    if against is None:
        g = entry.get("fh_gain_db")
        return float(g) if entry.get("complete") and g is not None else None
    v = entry["variances"]
    if v.get(FH) is None or any(v.get(c) is None for c in against):
        return None
    return gain_db(v[FH], min(v[c] for c in against))


def frontier_gain_series(data: Mapping[str, Any], against: Optional[Sequence[str]] = None, norm: str = "linf",
                         compositions: int = 1) -> Dict[str, Any]:
    """FH's gain in dB (10 log10(var_other / var_FH)) at each (delta, K, eps) of one set and T, and the counts of
    wins, ties (|gain| <= :data:`TIE_DB`) and losses per delta.

    ``against``: None for the best other mechanism (complete releases only), or the candidates FH is compared
    with (e.g. ``("gaussian", "laplace_kfold")``, the paper's baselines).  ``gain[delta][i][j]`` is at
    ``DIMS[i]``, ``EPSILONS[j]`` (None: not computed).
    """
    gain: Dict[str, List[List[Optional[float]]]] = {}
    counts: Dict[str, Dict[str, int]] = {}
    for d in DELTAS:
        Z: List[List[Optional[float]]] = [[None] * len(EPSILONS) for _ in DIMS]
        for e in data["entries"]:
            if e["norm"] == norm and e["compositions"] == compositions and e["delta"] == d:
                Z[DIMS.index(e["dim"])][EPSILONS.index(e["epsilon"])] = _gain(e, against)
        flat = [g for row in Z for g in row if g is not None]
        gain[f"{d:g}"] = Z
        counts[f"{d:g}"] = {"win": sum(g > TIE_DB for g in flat), "tie": sum(abs(g) <= TIE_DB for g in flat),
                            "loss": sum(g < -TIE_DB for g in flat)}
    return {"norm": norm, "compositions": compositions, "against": list(against) if against else "best other",
            "dims": list(DIMS), "epsilons": list(EPSILONS), "gain": gain, "counts": counts}


def _edges(xs: Sequence[float]) -> List[float]:
    """Cell edges of log-spaced centres (geometric midpoints)."""
    mids = [math.sqrt(a * b) for a, b in zip(xs[:-1], xs[1:])]
    return [xs[0] ** 2 / mids[0], *mids, xs[-1] ** 2 / mids[-1]]


def frontier_gain_figure(data: Mapping[str, Any], against: Optional[Sequence[str]] = None, norm: str = "linf",
                         compositions: int = 1) -> Figure:
    """Where flipped Huber wins or ties: its gain in dB over K x eps, one panel per delta (2 x 2).

    Blue: FH needs less noise, white: a tie (within :data:`TIE_DB` dB), red: FH needs more; the classes of
    :data:`GAIN_CLASSES_DB` on a diverging colormap centred at 0 dB; grey: not computed.  Each panel's title
    counts the wins, ties and losses.  The numbers are :func:`frontier_gain_series`.

    >>> from fhsym.applications.advise import default_data_path
    >>> from fhsym.applications.advisor_table import load_data
    >>> fig = frontier_gain_figure(load_data(default_data_path()))
    >>> len(fig.axes)  # four deltas and the colour bar
    5
    """
    import numpy as np
    from matplotlib import colormaps
    from matplotlib.colors import BoundaryNorm, ListedColormap

    s = frontier_gain_series(data, against, norm, compositions)
    bounds = [-1e9, *GAIN_CLASSES_DB, 1e9]
    base = colormaps["RdBu"]
    n = len(bounds) - 1
    colors = [base(0.08 + 0.84 * i / (n - 1)) for i in range(n)]
    colors[n // 2] = (1.0, 1.0, 1.0, 1.0)  # the middle class is the tie: white
    cmap = ListedColormap(colors).with_extremes(bad="#bdbdbd")
    cnorm = BoundaryNorm(bounds, n)
    fig, axes = _figure(2, 2, 11.0, 8.2)
    xe, ye = _edges(list(EPSILONS)), np.arange(len(DIMS) + 1) - 0.5
    mesh = None
    for ax, d in zip(axes, DELTAS):
        Z = np.array([[np.nan if g is None else g for g in row] for row in s["gain"][f"{d:g}"]], dtype=float)
        mesh = ax.pcolormesh(xe, ye, np.ma.masked_invalid(Z), cmap=cmap, norm=cnorm, edgecolors="#f0f0f0",
                             linewidth=0.3)
        ax.set_xscale("log")
        ax.set_xticks([0.1, 1.0, 10.0], ["0.1", "1", "10"])
        ax.set_yticks(range(len(DIMS)), [str(k) for k in DIMS])
        c = s["counts"][f"{d:g}"]
        ax.set_title(f"delta = {d:g}\nFH wins {c['win']}, ties {c['tie']}, loses {c['loss']}", fontsize=_FONT["title"])
    for ax in axes[2:]:
        ax.set_xlabel("epsilon", fontsize=_FONT["label"])
    for ax in axes[::2]:
        ax.set_ylabel("K (coordinates)", fontsize=_FONT["label"])
    ticks = [(a + b) / 2 for a, b in zip(bounds[:-1], bounds[1:])]  # the middle of each class on the bar
    assert mesh is not None
    cb = fig.colorbar(mesh, ax=axes, ticks=ticks, shrink=0.9, aspect=30)
    labels = ["< -3", "-3 to -1", "-1 to -0.1", "-0.1 to -0.01", "tie", "0.01 to 0.1", "0.1 to 1", "1 to 3", "> 3"]
    cb.ax.set_yticklabels(labels, fontsize=_FONT["tick"])
    cb.set_label("FH gain, dB (blue: FH needs less noise)", fontsize=_FONT["label"])
    what = ("the best other mechanism" if against is None else
            "the better of " + " and ".join(candidate_label(c) for c in against))
    set_name = {"linf": "l_inf box", "l2": "l2 ball", "l1": "l1 ball"}[norm]
    fig.suptitle(f"Flipped Huber against {what}\n(unit {set_name}, T = {compositions}; grey: not computed)",
                 fontsize=_FONT["title"] + 1)
    return fig


def optimum_excess_series(data: Mapping[str, Any]) -> Dict[str, Any]:
    """In one coordinate: each mechanism's variance above the certified optimum's lower end, in %, at each eps of
    each delta, and the interval's width in % (the band: the optimum itself lies within it).

    The interval is the one :func:`fhsym.advise` gives (:func:`~fhsym.applications.advisor_table.optimum_bounds`:
    the re-checked record, its upper end the best certified law fhsym has, the truncated staircase at most points),
    not the frontier file's LP upper end.  ``excess[delta][candidate][j]`` is at ``epsilons[delta][j]`` (None: not
    computed).
    """
    from .applications.advisor_table import optimum_bounds

    opt = optimum_bounds(data)
    ent = {(e["epsilon"], e["delta"]): e for e in data["entries"]
           if e["norm"] == "linf" and e["dim"] == 1 and e["compositions"] == 1}
    out: Dict[str, Any] = {"candidates": list(ONE_D), "epsilons": {}, "width": {}, "excess": {}}
    for d in DELTAS:
        eps = [x for x in EPSILONS if (x, d) in opt and (x, d) in ent]
        lo = [opt[(x, d)][0] for x in eps]
        out["epsilons"][f"{d:g}"] = eps
        out["width"][f"{d:g}"] = [100.0 * (opt[(x, d)][1] / lo_ - 1.0) for x, lo_ in zip(eps, lo)]
        out["excess"][f"{d:g}"] = {c: [None if ent[(x, d)]["variances"].get(c) is None else
                                       100.0 * (ent[(x, d)]["variances"][c] / lo_ - 1.0) for x, lo_ in zip(eps, lo)]
                                   for c in ONE_D}
    return out


def optimum_excess_figure(data: Mapping[str, Any]) -> Figure:
    """How far each mechanism is from the best possible additive noise, in one coordinate.

    Variance above the certified optimum's lower end in % (log scale) against eps, one panel per delta; the
    grey band is the certified interval itself (from 0 to its width): a mechanism inside it may be optimal,
    one above it is at least (its line minus the band) from the optimum.  Numbers: :func:`optimum_excess_series`.

    >>> from fhsym.applications.advise import default_data_path
    >>> from fhsym.applications.advisor_table import load_data
    >>> fig = optimum_excess_figure(load_data(default_data_path()))
    >>> fig.axes[0].get_yscale()
    'log'
    """
    s = optimum_excess_series(data)
    fig, axes = _figure(2, 2, 11.0, 8.2)
    floor = 1e-3
    top = max([y for per in s["excess"].values() for ys in per.values() for y in ys if y is not None] + [100.0])
    for ax, d in zip(axes, DELTAS):
        key = f"{d:g}"
        eps, width = s["epsilons"][key], s["width"][key]
        if eps:
            ax.fill_between(eps, floor, [max(w, floor) for w in width], color="#999999", alpha=0.45, lw=0,
                            label="optimum interval")
        for c in ONE_D:
            ys = [math.nan if y is None else max(y, floor) for y in s["excess"][key][c]]
            ax.plot(eps, ys, color=_COLOR[c], lw=3.0 if c == FH else 1.8, marker="o" if c == FH else None, ms=4,
                    label=candidate_label(c), ls="--" if c == LAPLACE_PURE else "-")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(floor, 3.0 * top)
        ax.set_xticks([0.1, 1.0, 10.0], ["0.1", "1", "10"])
        ax.set_yticks([1e-2, 1.0, 1e2], ["0.01 %", "1 %", "100 %"])
        ax.grid(True, which="major", alpha=0.35)
        ax.set_title(f"delta = {d:g}", fontsize=_FONT["title"])
    for ax in axes[2:]:
        ax.set_xlabel("epsilon", fontsize=_FONT["label"])
    for ax in axes[::2]:
        ax.set_ylabel("variance above the optimum", fontsize=_FONT["label"])
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside right center", fontsize=_FONT["tick"], frameon=False)
    fig.suptitle("One coordinate: distance to the certified optimum of any additive noise\n"
                 "(grey band: the optimum's certified interval)", fontsize=_FONT["title"] + 1)
    return fig


def advice_series(advice: Advice) -> Dict[str, Any]:
    """The numbers :func:`advice_figure` draws: each option's candidate and variance (best first) and the optimum
    interval (None beyond one coordinate)."""
    opt = advice.optimum
    return {"release": [advice.epsilon, advice.delta, advice.dim, advice.norm, advice.compositions,
                        advice.sensitivity],
            "options": [[o.candidate, o.variance] for o in advice.options],
            "optimum": None if opt is None else [opt.lower, opt.upper]}


def advice_figure(advice: Advice) -> Figure:
    """One release's certified ranking: each mechanism's per-coordinate variance, best at the top, with its
    extra variance over the best; in one coordinate the certified optimum interval as a band.

    >>> import fhsym
    >>> adv = fhsym.advise(1.0, 1e-6, data=False, candidates=("gaussian", "laplace_pure", "staircase"))
    >>> fig = advice_figure(adv)
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ['staircase', 'Laplace (pure)', 'Gaussian']
    """
    s = advice_series(advice)
    opts = s["options"]
    fig, (ax,) = _figure(1, 1, 9.0, 1.6 + 0.55 * len(opts))
    ys = list(range(len(opts)))
    var = [v for _, v in opts]
    ax.barh(ys, var, color=[_COLOR.get(c, "#777777") for c, _ in opts], height=0.6)
    ax.set_yticks(ys, [candidate_label(c) for c, _ in opts], fontsize=_FONT["tick"])
    ax.invert_yaxis()
    wide = max(var) / min(var) > 20
    if wide:
        ax.set_xscale("log")
    left = min(var) / 3 if wide else 0.0
    ax.set_xlim(left, max(var) * (8 if wide else 1.45))
    for y, v in zip(ys, var):
        r = v / var[0]
        txt = "best" if y == 0 else (f"{r:.3g}x" if r >= 10 else f"{100 * (r - 1):+.3g} %")
        ax.text(v, y, f"  {v:.7g}  ({txt})", va="center", fontsize=_FONT["tick"] - 1)
    if s["optimum"] is not None:
        lo, hi = s["optimum"]
        ax.axvspan(lo, hi, color="#555555", alpha=0.35, lw=0)
        ax.axvline(lo, color="#333333", lw=1.2, label=f"optimum of any additive noise: [{lo:.7g}, {hi:.7g}]")
        ax.legend(loc="upper right", fontsize=_FONT["tick"] - 2, frameon=False)
    ax.set_xlabel("per-coordinate variance (certified)", fontsize=_FONT["label"])
    ax.grid(True, axis="x", which="major", alpha=0.35)
    eps, delta, K, norm, T, S = s["release"]
    ax.set_title(f"({eps:g}, {delta:g})-DP, K = {K}, T = {T}, {norm} ball of radius {S:g}", fontsize=_FONT["title"])
    return fig
