"""Figures of the paper, redrawn from fhsym's verified numerics (optional extra ``plot``).

Install with ``pip install 'fhsym[plot]'`` (matplotlib).  Every function returns a
``matplotlib.figure.Figure`` built without pyplot (no global state, no GUI
backend); save it with ``save`` or ``fig.savefig``.  ``fhsym reproduce``
(``scripts/reproduce_1d.py``) calls these functions to regenerate
``docs/figures/``.

| function | paper figure | what is drawn |
|---|---|---|
| ``density_figure`` | Fig 1 | FH densities g(t; alpha, gamma^2) (eq 8), transition points t = +-alpha marked |
| ``nfi_figure`` | Fig 2 | normalised Fisher information I sigma^2 against alpha/gamma (eq 11, 12) |
| ``variance_comparison_figure`` | Fig 3(a) | minimum variances against eps at fixed delta |
| ``kdim_variance_figure`` | Fig 4 | K-dim minimum per-coordinate variances against eps, one column per K |
| ``ratio_heatmap_figure`` | Fig 3(b), (c) | 10 log10(var_FH / var_other) in dB over (eps, delta) |
| ``privacy_profile_figure`` | Fig 6 | delta(eps) at equal noise variance |
| ``centered_loss_figure`` | Fig 7 | centred privacy losses zeta~_d(t) at equal scale |
| ``frontier_gain_figure`` | docs/frontier.md | FH's certified gain in dB over K x eps, one panel per delta (the frontier data) |
| ``optimum_excess_figure`` | docs/optimum.md | each mechanism's variance above the certified optimum, against eps |
| ``advice_figure`` | ``fhsym advise --plot`` | one release's certified ranking, the optimum band in one coordinate |

The curves are computed by the same public functions users call
(``fhsym.FlippedHuber``, ``fhsym.privacy_profile``,
``fhsym.centered_privacy_loss``, the comparison mechanisms of ``fhsym.noise``), whose accuracy is
stated in their own docstrings; the plots add no numerics of their own except
the two 1-D root finds ``fh_alpha_for_variance`` and
``osgt_vartheta_for_variance`` (relative tolerance 1e-12).

Examples
--------
>>> fig = nfi_figure()
>>> fig.axes[0].get_xscale()
'log'
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Callable, List, Mapping, Optional, Sequence, Tuple, Type, Union

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize

from ._core.types import FloatArray
from .frontier_figures import (DIGEST_KEY, advice_figure, advice_series, data_digest, frontier_gain_figure,
                               frontier_gain_series, optimum_excess_figure, optimum_excess_series)

if TYPE_CHECKING:  # the optional extra fhsym[plot]; imported where it is used
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.gridspec import GridSpec

__all__ = [
    "FIG1_PARAMS",
    "density_figure",
    "nfi_figure",
    "variance_comparison_figure",
    "kdim_variance_figure",
    "ratio_heatmap_figure",
    "privacy_profile_figure",
    "centered_loss_figure",
    "fh_alpha_for_variance",
    "osgt_vartheta_for_variance",
    "save",
    # pictures of the frontier data, the optimum and one release's advice (fhsym/frontier_figures.py)
    "DIGEST_KEY",
    "data_digest",
    "frontier_gain_series",
    "frontier_gain_figure",
    "optimum_excess_series",
    "optimum_excess_figure",
    "advice_series",
    "advice_figure",
]

#: (alpha, gamma) pairs drawn in Fig 1: the Gaussian (alpha = 0), growing alpha at gamma = 1, and a wider gamma.
FIG1_PARAMS: Tuple[Tuple[float, float], ...] = ((0.0, 1.0), (0.5, 1.0), (1.0, 1.0), (2.0, 1.0), (2.0, 1.5))

_COLORS = {
    "Flipped Huber": "#d62728",
    "Gaussian": "#1f77b4",
    "Laplace": "#2ca02c",
    "OSGT": "#9467bd",
    "truncated Laplace": "#ff7f0e",
    "Staircase": "#8c564b",
}


def _mpl() -> Type[Figure]:
    try:
        import matplotlib  # noqa: F401
        from matplotlib.figure import Figure
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise ImportError("fhsym.plotting needs matplotlib: pip install 'fhsym[plot]'") from exc
    return Figure


def _figure(ncols: int = 1, width: float = 6.4, height: float = 4.2) -> Tuple[Figure, List[Axes]]:
    Figure = _mpl()
    fig = Figure(figsize=(width, height), layout="constrained", dpi=100)
    axes = [fig.add_subplot(1, ncols, i + 1) for i in range(ncols)]
    for ax in axes:
        ax.grid(True, which="major", alpha=0.35)
        ax.tick_params(labelsize=9)
    return fig, axes


def _color(label: str) -> Optional[str]:
    """The colour of the first key that starts ``label`` (case-insensitive: "staircase (pure)" is the staircase)."""
    for key, c in _COLORS.items():
        if label.lower().startswith(key.lower()):
            return c
    return None


def save(fig: Figure, path: Union[str, Path], dpi: int = 150) -> Path:
    """Write ``fig`` to ``path`` (PNG unless the suffix says otherwise); return the path.

    Examples
    --------
    >>> import tempfile, os
    >>> p = save(nfi_figure(), os.path.join(tempfile.mkdtemp(), "nfi.png"))
    >>> p.stat().st_size > 1000
    True
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=dpi, metadata={"Software": None} if path.suffix.lower() == ".png" else None)
    return path


# ---------------------------------------------------------------------------
# Fig 1 and Fig 2: the distribution
# ---------------------------------------------------------------------------


def density_figure(params: Sequence[Tuple[float, float]] = FIG1_PARAMS, t_max: float = 5.0) -> Figure:
    """Fig 1: flipped Huber densities g(t; alpha, gamma^2) (eq 8), linear and log scale.

    Left panel: the densities; right panel: log10 g, where the Laplace centre
    (linear in |t|) and the Gaussian tails (quadratic) are visible.  The
    transition points t = +-alpha are marked with dots, as in the paper.
    Values from ``fhsym.FlippedHuber.pdf`` (relative error <= 1e-12).

    Examples
    --------
    >>> fig = density_figure([(0.0, 1.0), (1.0, 1.0)])
    >>> [ax.get_xlabel() for ax in fig.axes]
    ['$t$', '$t$']
    >>> len(fig.axes[0].get_legend().get_texts())
    2
    """
    from .noise.flipped_huber import FlippedHuber

    fig, (ax, axl) = _figure(2, width=10.0, height=4.2)
    t = np.linspace(-t_max, t_max, 1601)
    for alpha, gamma in params:
        fh = FlippedHuber(alpha, gamma)
        g = fh.pdf(t)
        lab = (r"$\alpha=%g,\ \gamma=%g$" % (alpha, gamma)) + (" (Gaussian)" if alpha == 0 else "")
        (line,) = ax.plot(t, g, lw=1.8, label=lab)
        axl.plot(t, np.log10(g), lw=1.8, color=line.get_color())
        if alpha > 0:
            pts = np.array([-alpha, alpha])
            ax.plot(pts, fh.pdf(pts), "o", color=line.get_color(), ms=6)
            axl.plot(pts, np.log10(fh.pdf(pts)), "o", color=line.get_color(), ms=6)
    ax.set_xlabel("$t$")
    ax.set_ylabel(r"density $g(t;\alpha,\gamma^2)$")
    ax.set_title("(a) flipped Huber densities", fontsize=11)
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=9, title=r"$\bullet$ transition $|t|=\alpha$", title_fontsize=9)
    axl.set_xlabel("$t$")
    axl.set_ylabel(r"$\log_{10} g(t;\alpha,\gamma^2)$")
    axl.set_title("(b) log scale: Laplace centre, Gaussian tails", fontsize=11)
    axl.set_ylim(bottom=max(axl.get_ylim()[0], -6.0))
    return fig


def nfi_figure(b_min: float = 1e-2, b_max: float = 1e2, n: int = 400) -> Figure:
    """Fig 2: normalised Fisher information I*sigma^2 of FH against alpha/gamma (log axis).

    NFI depends on b = alpha/gamma only and rises from 1 (Gaussian, b -> 0) to 2
    (Laplace, b -> inf) (``python -m proofs``: ``distribution.nfi_limits``,
    ``distribution.nfi_bounds``).  Values from ``fhsym.FlippedHuber.nfi``.

    Examples
    --------
    >>> fig = nfi_figure(n=20)
    >>> "Fisher information" in fig.axes[0].get_ylabel()
    True
    """
    from .noise.flipped_huber import FlippedHuber

    fig, (ax,) = _figure(1, width=6.4, height=4.2)
    b = np.geomspace(b_min, b_max, n)
    nfi = np.array([FlippedHuber(float(x), 1.0).nfi() for x in b])
    ax.semilogx(b, nfi, color=_COLORS["Flipped Huber"], lw=2, label="flipped Huber")
    ax.axhline(1.0, color=_COLORS["Gaussian"], ls="--", lw=1.2, label="Gaussian (NFI = 1, the minimum)")
    ax.axhline(2.0, color=_COLORS["Laplace"], ls="--", lw=1.2, label="Laplace (NFI = 2)")
    ax.set_xlabel(r"$\alpha/\gamma$")
    ax.set_ylabel(r"normalised Fisher information $\mathcal{I}\,\sigma^2$")
    ax.set_ylim(0.9, 2.1)
    ax.set_xlim(b_min, b_max)
    ax.legend(fontsize=9, loc="center left")
    ax.set_title("Normalised Fisher information of FH$(\\alpha,\\gamma^2)$", fontsize=11)
    return fig


# ---------------------------------------------------------------------------
# Fig 3: 1-D comparisons (data computed by scripts/reproduce_1d.py)
# ---------------------------------------------------------------------------


def variance_comparison_figure(
    epsilon: Sequence[float],
    variances: Mapping[str, Sequence[float]],
    delta: float = 1e-6,
    sensitivity: float = 1.0,
    paper: Optional[Mapping[str, Mapping[float, float]]] = None,
    relative_to: Optional[str] = "truncated Laplace",
) -> Figure:
    """Fig 3(a): minimum noise variance against eps at fixed delta, log-log.

    ``variances`` maps a curve label (its first word picks the colour:
    "Flipped Huber", "Gaussian", "OSGT", "truncated Laplace", ...) to the
    variances at ``epsilon``; NaN entries are skipped.  ``paper`` maps a label to
    ``{eps: variance}`` values reported by the paper, drawn as black-edged markers.
    When ``relative_to`` names one of the curves, a lower panel shows every curve's
    excess variance over it, var / var_ref - 1 (symmetric log scale, linear
    within 1e-7), where curves that overlap on the log-log plot can be told apart.

    Examples
    --------
    >>> fig = variance_comparison_figure([0.3, 1.0, 3.0], {"Gaussian": [168.8, 21.0, 2.38]},
    ...                                  paper={"Gaussian": {0.3: 168.80}})
    >>> fig.axes[0].get_yscale(), len(fig.axes)
    ('log', 1)
    """
    has_ref = relative_to is not None and relative_to in variances
    Figure = _mpl()
    if not has_ref:
        fig, (ax,) = _figure(1, width=7.0, height=4.8)
        axr = None
    else:
        fig = Figure(figsize=(7.0, 7.0), layout="constrained", dpi=100)
        gs = fig.add_gridspec(2, 1, height_ratios=[3, 2])
        ax, axr = _variance_axes(fig, gs, 0)
    title = r"1-D, $\delta=%s$, $\Delta=%g$" % (_tex_num(delta), sensitivity)
    _draw_variances(ax, axr, epsilon, variances, relative_to if has_ref else None, paper, title, linthresh=1e-7)
    return fig


def kdim_variance_figure(
    panels: Mapping[int, Tuple[Sequence[float], Mapping[str, Sequence[float]]]],
    delta: float = 1e-8,
    paper: Optional[Mapping[int, Mapping[str, Mapping[float, float]]]] = None,
    relative_to: str = "Flipped Huber (exact)",
) -> Figure:
    """Fig 4: minimum per-coordinate noise variance against eps in K dimensions, one column per K.

    ``panels`` maps K to ``(epsilon, {label: variances})`` (as written by
    ``scripts/reproduce_kdim.py`` to ``docs/reproduction/data/kdim_fig4.json``);
    ``paper`` maps K to ``{label: {eps: variance}}`` values quoted from the paper.
    Upper panels: variances, log-log.  Lower panels: var / var_ref - 1 against the
    curve ``relative_to`` (symmetric log scale, linear within 1e-5), so the nearly
    coincident FH exact, FH sufficient and OSGT curves can be told apart.

    Examples
    --------
    >>> fig = kdim_variance_figure({3: ([0.3, 1.0], {"Flipped Huber (exact)": [200.0, 18.0],
    ...                                               "Gaussian": [774.4, 78.04]})})
    >>> len(fig.axes), fig.axes[0].get_yscale()
    (2, 'log')
    """
    Figure = _mpl()
    Ks = sorted(panels)
    fig = Figure(figsize=(5.4 * len(Ks), 7.0), layout="constrained", dpi=100)
    gs = fig.add_gridspec(2, len(Ks), height_ratios=[3, 2])
    for j, K in enumerate(Ks):
        eps, variances = panels[K]
        if relative_to not in variances:
            raise ValueError(f"relative_to must name a curve of every panel; got {relative_to!r}, panel K = {K} has "
                             f"{sorted(variances)}")
        ax, axr = _variance_axes(fig, gs, j)
        title = r"$K=%d$, $\delta=%s$, $\Delta_\infty=1$, $\Delta_2=\sqrt{%d}$" % (K, _tex_num(delta), K)
        _draw_variances(ax, axr, eps, variances, relative_to, (paper or {}).get(K), title, linthresh=1e-5,
                        ylabel="per-coordinate noise variance" if j == 0 else None)
    return fig


def _variance_axes(fig: Figure, gs: GridSpec, col: int) -> Tuple[Axes, Axes]:
    ax = fig.add_subplot(gs[0, col])
    axr = fig.add_subplot(gs[1, col], sharex=ax)
    for a in (ax, axr):
        a.grid(True, which="major", alpha=0.35)
        a.tick_params(labelsize=9)
    return ax, axr


_VARIANCE_STYLES = {"truncated Laplace": dict(ls="--", lw=2.2), "OSGT (paper": dict(ls=":", lw=2.2),
                    "OSGT (unc": dict(ls="-.", lw=1.6), "OSGT": dict(ls="-.", lw=1.8),
                    "Flipped Huber (suff": dict(ls="--", lw=2.0, color="#ff7f0e"),
                    "Flipped Huber": dict(ls="-", lw=2.6, alpha=0.8)}


def _draw_variances(ax: Axes, axr: Optional[Axes], epsilon: Sequence[float], variances: Mapping[str, Sequence[float]],
                    relative_to: Optional[str], paper: Optional[Mapping[str, Mapping[float, float]]], title: str,
                    linthresh: float, ylabel: Optional[str] = "noise variance (minimum over parameters)") -> None:
    """Variance curves on ``ax`` (log-log), their excess over ``relative_to`` on ``axr``."""
    eps = np.asarray(epsilon, dtype=float)
    ref = np.asarray(variances[relative_to], dtype=float) if relative_to is not None else None
    for label, values in variances.items():
        v = np.asarray(values, dtype=float)
        ok = np.isfinite(v)
        st = dict(next((s for k, s in _VARIANCE_STYLES.items() if label.startswith(k)), dict(ls="-", lw=1.6)))
        st.setdefault("color", _color(label))
        ax.loglog(eps[ok], v[ok], label=label, **st)
        if axr is not None and ref is not None:
            r = v / ref - 1.0
            ok = np.isfinite(r)
            axr.semilogx(eps[ok], r[ok], **st)
    if paper:
        markers = iter("sDo^v<>")
        for label, pts in paper.items():
            e = list(pts.keys())
            ax.loglog(e, list(pts.values()), ls="none", marker=next(markers), ms=8, mfc="none", mec="black",
                      mew=1.4, label=f"paper: {label}")
    if ylabel:
        ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=11)
    ax.grid(True, which="minor", alpha=0.12)
    ax.legend(fontsize=8.5, loc="lower left")
    if axr is None:
        ax.set_xlabel(r"privacy budget $\varepsilon$")
        return
    ax.tick_params(labelbottom=False)
    axr.set_xlabel(r"privacy budget $\varepsilon$")
    if relative_to is not None:
        axr.set_ylabel(r"$\sigma^2/\sigma^2_{\mathrm{%s}} - 1$" % relative_to.replace(" ", r"\ "), fontsize=10)
    axr.set_yscale("symlog", linthresh=linthresh, linscale=0.5)
    axr.axhline(0.0, color="0.4", lw=0.8)
    axr.grid(True, which="minor", alpha=0.12)


def _tex_num(x: float) -> str:
    m, e = f"{x:.0e}".split("e")
    if float(m) == 1.0:
        return r"10^{%d}" % int(e)
    return r"%s\times10^{%d}" % (m, int(e))


def ratio_heatmap_figure(
    epsilon: Sequence[float],
    delta: Sequence[float],
    ratio_db: np.ndarray,
    reference: str,
    note: str = "",
    ylabel: str = r"privacy leakage $\delta$",
) -> Figure:
    """Fig 3(b), (c): 10 log10(var_FH / var_reference) in dB over a grid of (eps, delta).

    ``ratio_db[i, j]`` belongs to ``delta[i]`` and ``epsilon[j]`` (both drawn on
    log axes, cells centred on the grid points).  Blue: flipped Huber needs less
    variance; red: more (a diverging map centred at 0 dB when both occur, else a
    one-sided one; |dB| <= 0.05 counts as 0).
    Contours are drawn at +-1, 3, 6, 10, 20, 30 dB where they fall inside the
    data (interpolated in log eps, log delta).  The axes are linear in
    log10 eps and log10 delta, labelled as powers of ten.

    Examples
    --------
    >>> import numpy as np
    >>> r = np.array([[-3.0, 0.0], [-1.0, 2.0]])
    >>> fig = ratio_heatmap_figure([0.1, 1.0], [1e-6, 1e-3], r, "Laplace")
    >>> fig.axes[0].get_xlabel().endswith("(log scale)")
    True
    """
    from matplotlib.colors import Normalize, TwoSlopeNorm
    from matplotlib.ticker import FuncFormatter, MultipleLocator

    fig, (ax,) = _figure(1, width=7.2, height=4.8)
    ax.grid(False)
    eps = np.asarray(epsilon, dtype=float)
    dl = np.asarray(delta, dtype=float)
    z = np.asarray(ratio_db, dtype=float)
    if z.shape != (dl.size, eps.size):
        raise ValueError(f"ratio_db must have shape (len(delta), len(epsilon)) = {(dl.size, eps.size)}; got {z.shape}")
    finite = np.isfinite(z)
    lo = float(np.min(z[finite])) if finite.any() else -1.0
    hi = float(np.max(z[finite])) if finite.any() else 1.0
    if hi <= 0.05:  # one-signed data (up to rounding): a one-sided colour map, no empty half of the bar
        cmap, norm = "Blues_r", Normalize(vmin=min(lo, -0.1), vmax=0.0)
    elif lo >= -0.05:
        cmap, norm = "Reds", Normalize(vmin=0.0, vmax=max(hi, 0.1))
    else:
        cmap, norm = "RdBu_r", TwoSlopeNorm(vmin=lo, vcenter=0.0, vmax=hi)
    # drawn in (log10 eps, log10 delta) on linear axes, so cells and contours are interpolated in log space
    lx, ly = np.log10(eps), np.log10(dl)
    pcm = ax.pcolormesh(np.log10(_edges(eps)), np.log10(_edges(dl)), z, cmap=cmap, norm=norm, shading="flat")
    if z.shape[0] > 1 and z.shape[1] > 1 and finite.all():
        levels = [v for v in (-30, -20, -10, -6, -3, -1, 1, 3, 6, 10, 20, 30) if lo < v < hi]
        if levels:
            cs = ax.contour(lx, ly, z, levels=levels, colors="black", linewidths=0.9)
            ax.clabel(cs, fmt=lambda v: f"{v:g} dB", fontsize=8)
    pow10 = FuncFormatter(lambda v, _: r"$10^{%d}$" % round(v) if abs(v - round(v)) < 1e-9 else "")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(MultipleLocator(1.0))
        axis.set_major_formatter(pow10)
    ax.yaxis.set_major_locator(MultipleLocator(2.0 if np.ptp(ly) > 6 else 1.0))
    cb = fig.colorbar(pcm, ax=ax)
    cb.set_label(r"$10\log_{10}(\sigma^2_{\mathrm{FH}}/\sigma^2_{\mathrm{%s}})$  [dB]" % reference.replace(" ", r"\ "))
    ax.set_xlabel(r"privacy budget $\varepsilon$ (log scale)")
    ax.set_ylabel(ylabel + " (log scale)")
    ax.set_title(f"flipped Huber vs {reference}" + (f" ({note})" if note else ""), fontsize=10.5)
    return fig


def _edges(x: ArrayLike) -> FloatArray:
    """Cell edges for centres x on a log axis (geometric midpoints)."""
    x = np.asarray(x, dtype=float)
    if x.size == 1:
        return np.array([x[0] / 1.5, x[0] * 1.5])
    lx = np.log(x)
    mid = (lx[1:] + lx[:-1]) / 2
    edges: FloatArray = np.exp(np.concatenate([[lx[0] - (mid[0] - lx[0])], mid, [lx[-1] + (lx[-1] - mid[-1])]]))
    return edges


# ---------------------------------------------------------------------------
# Fig 6 and Fig 7: equal variance / equal scale comparisons
# ---------------------------------------------------------------------------


def _offset_for_variance(var_of: Callable[[float], float], variance: float, scale: float, scale_name: str) -> float:
    """The offset x > 0 with var_of(x) = variance, for a variance decreasing from scale^2 (x = 0) towards 0.

    The root is unique; found by Brent's method on log x (rtol 1e-12), bracketed from
    [scale e^-10, scale e^2] upwards.
    """
    if not (0 < variance < scale**2):
        raise ValueError(f"variance must be in (0, {scale_name}^2) = (0, {scale**2:g}); got {variance!r}")

    def f(lx: float) -> float:
        return math.log(var_of(math.exp(lx))) - math.log(variance)

    lo, hi = math.log(scale) - 10.0, math.log(scale) + 2.0
    while f(hi) > 0:
        hi += 2.0
    return math.exp(optimize.brentq(f, lo, hi, xtol=1e-14, rtol=1e-12))


def fh_alpha_for_variance(variance: float, gamma: float) -> float:
    """The alpha with Var FH(alpha, gamma^2) = variance (eq 11), for variance < gamma^2.

    The variance decreases from gamma^2 (alpha = 0) towards 0 as alpha grows, so
    the root is unique; found by Brent's method on log alpha (rtol 1e-12).

    Examples
    --------
    >>> a = fh_alpha_for_variance(16.0, 7.0)
    >>> from fhsym import FlippedHuber
    >>> round(FlippedHuber(a, 7.0).var(), 9)
    16.0
    """
    from .noise.flipped_huber import FlippedHuber

    return _offset_for_variance(lambda a: FlippedHuber(a, gamma).var(), variance, gamma, "gamma")


def osgt_vartheta_for_variance(variance: float, varrho: float) -> float:
    """The offset vartheta with Var OSGT(vartheta, varrho^2) = variance, for variance < varrho^2.

    Examples
    --------
    >>> v = osgt_vartheta_for_variance(16.0, 7.0)
    >>> from fhsym.noise import OSGT
    >>> round(OSGT(v, 7.0).variance(), 9)
    16.0
    """
    from .noise import OSGT

    return _offset_for_variance(lambda v: OSGT(v, varrho).variance(), variance, varrho, "varrho")


def privacy_profile_figure(
    variance: float = 16.0,
    scale: float = 7.0,
    sensitivity: float = 1.0,
    epsilon: Optional[Sequence[float]] = None,
    delta_floor: float = 1e-16,
) -> Figure:
    """Fig 6: 1-D privacy profiles delta(eps) of Gaussian, OSGT and flipped Huber at equal variance.

    The paper's setting (Appendix E-A): variance 16, Delta = 1; Gaussian sigma = 4;
    OSGT varrho = 7 and FH gamma = 7, with vartheta resp. alpha chosen so that the
    variance is 16 (``osgt_vartheta_for_variance``, ``fh_alpha_for_variance``).
    Profiles from ``fhsym.privacy_profile`` (relative error <= 1e-10) and
    ``fhsym.OSGT.privacy_profile``,
    ``fhsym.Gaussian.privacy_profile``.

    Examples
    --------
    >>> fig = privacy_profile_figure(epsilon=[0.0, 0.5, 1.0])
    >>> [t.get_text().split(" ")[0] for t in fig.axes[0].get_legend().get_texts()]
    ['Gaussian', 'OSGT', 'flipped']
    """
    from .noise import OSGT, Gaussian
    from .privacy.profile import privacy_profile

    fig, (ax,) = _figure(1, width=7.0, height=4.8)
    eps = np.linspace(0.0, 2.5, 501) if epsilon is None else np.asarray(epsilon, dtype=float)
    sigma = math.sqrt(variance)
    alpha = fh_alpha_for_variance(variance, scale)
    vartheta = osgt_vartheta_for_variance(variance, scale)
    curves = [
        (r"Gaussian $\sigma=%g$" % sigma, "Gaussian", Gaussian(sigma).privacy_profile(eps, sensitivity), "-"),
        (r"OSGT $\varrho=%g$, $\vartheta=%.4g$" % (scale, vartheta), "OSGT",
         OSGT(vartheta, scale).privacy_profile(eps, sensitivity), "-."),
        (r"flipped Huber $\gamma=%g$, $\alpha=%.4g$" % (scale, alpha), "Flipped Huber",
         privacy_profile(eps, alpha, scale, sensitivity), "-"),
    ]
    for label, key, d, ls in curves:
        d = np.asarray(d, dtype=float)
        ok = d > delta_floor
        ax.semilogy(eps[ok], d[ok], color=_COLORS[key], ls=ls, lw=2, label=label)
    ax.set_xlabel(r"privacy budget $\varepsilon$")
    ax.set_ylabel(r"smallest $\delta$ (privacy profile $\delta(\varepsilon)$)")
    ax.set_title(r"1-D privacy profiles at equal noise variance %g, $\Delta=%g$" % (variance, sensitivity), fontsize=11)
    ax.grid(True, which="minor", alpha=0.12)
    ax.legend(fontsize=9, loc="lower left")
    return fig


def centered_loss_figure(
    scale: float = 1.0 / math.sqrt(2.0),
    d: float = 1.0,
    alpha: float = 1.0,
    vartheta: float = 1.0,
    t_max: float = 2.5,
) -> Figure:
    """Fig 7: centred privacy losses zeta~_d(t) = psi(t + d/2) - psi(t - d/2) at a common scale.

    The paper's setting (Appendix E-B): scale 1/sqrt(2) for every mechanism
    (Gaussian sigma, Laplace beta, OSGT varrho, FH gamma), d = 1.  The paper does
    not print the FH transition alpha or the OSGT offset vartheta; both default
    to 1 here.  FH's loss coincides with the Gaussian's in the tails (slope
    d/gamma^2) and is flattened in the centre; OSGT's is the Gaussian's plus a
    Laplace step.  Curves from ``fhsym.centered_privacy_loss`` and the
    ``centered_privacy_loss`` methods of the comparison mechanisms (``fhsym.noise``; closed forms).

    Examples
    --------
    >>> fig = centered_loss_figure()
    >>> len(fig.axes[0].get_lines()) >= 4
    True
    """
    from .noise import OSGT, Gaussian, Laplace
    from .privacy.profile import centered_privacy_loss

    fig, (ax,) = _figure(1, width=7.0, height=4.8)
    t = np.linspace(-t_max, t_max, 2001)
    s = r"%.4g" % scale if abs(scale - 1 / math.sqrt(2)) > 1e-15 else r"1/\sqrt{2}"
    curves = [
        (r"Gaussian $\sigma=%s$" % s, "Gaussian", Gaussian(scale).centered_privacy_loss(t, d), "-", 1.6),
        (r"Laplace $\beta=%s$" % s, "Laplace", Laplace(scale).centered_privacy_loss(t, d), "--", 1.6),
        (r"OSGT $\varrho=%s$, $\vartheta=%g$" % (s, vartheta), "OSGT",
         OSGT(vartheta, scale).centered_privacy_loss(t, d), "-.", 1.8),
        (r"flipped Huber $\gamma=%s$, $\alpha=%g$" % (s, alpha), "Flipped Huber",
         centered_privacy_loss(t, d, alpha, scale), "-", 2.4),
    ]
    for label, key, z, ls, lw in curves:
        ax.plot(t, z, color=_COLORS[key], ls=ls, lw=lw, label=label)
    for x in (-d / 2, d / 2):
        ax.axvline(x, color="0.5", lw=0.8, ls=":")
    ax.axhline(0.0, color="0.5", lw=0.8)
    ax.set_xlabel("$t$")
    ax.set_ylabel(r"centred privacy loss $\tilde\zeta_d(t)$")
    ax.set_title(r"Centred privacy losses, common scale $%s$, $d=%g$ (dotted: $t=\pm d/2$)" % (s, d), fontsize=11)
    ax.legend(fontsize=9, loc="upper left")
    return fig

