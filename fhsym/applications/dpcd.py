"""Differentially private coordinate descent, DP-CD (paper Appendix D, Algorithm 3).

Problem.  ``min_theta F(theta) = (1/N) sum_n J(theta; x_n, y_n) + psi(theta)`` with

* ``loss="squared"``:  J = (x^T theta - y)^2 / 2;
* ``loss="logistic"``: J = log(1 + exp(-y x^T theta)), labels y in {-1, +1} ({0, 1} is mapped to {-1, +1});
* ``regularizer="l2"``: psi(theta) = (lam/2) ||theta||_2^2;  ``"l1"``: lam ||theta||_1;  ``"none"``.

The regulariser is separable and handled by its proximal operator (it is never clipped or
noised: it does not depend on the data).

Algorithm 3 (L passes over the K coordinates, cyclic, in place)::

    for l = 1..L:  for i = 1..K:
        nu_i = (1/N) sum_n clip(grad_i J(theta; D_n), C_i) + t_i^(l)      t ~ N(0, sigma_i^2) or FH(alpha_i, gamma_i^2)
        theta_i <- prox_{tau_i psi_i}(theta_i - tau_i nu_i)

with the coordinate-wise smoothness constants of the data term (Mangold, Bellet, Salmon &
Tommasi, ICML 2022, Sec 5.2, for generalised linear models)::

    M_i = (beta / N) sum_n x_{n,i}^2,        beta = 1 (squared loss), 1/4 (logistic loss)

step sizes tau_i = tau / M_i, clipping thresholds C_i = C sqrt(M_i / sum_j M_j), and the
per-coordinate sensitivity under replace-one neighbouring lambda_i = 2 C_i / N (each clipped
per-sample gradient lies in [-C_i, C_i], so swapping one record moves the average by at most
2 C_i / N, whatever theta is).  The noise is calibrated for the whole run by
:mod:`fhsym.applications.accounting`.

A privacy caveat the paper does not state.  The accounting treats M_i (hence C_i and tau_i) as
public.  Computed from the private data itself (``smoothness=None``, the paper's choice) they
are a function of the data that is *not* covered by the (eps, delta) guarantee.  For a rigorous
guarantee pass ``smoothness`` computed from public data (a public split, or known feature
bounds); :func:`dp_coordinate_descent` records which was used (``DPCDResult.smoothness_public``).
The same holds for any data-dependent preprocessing (standardisation) and for hyperparameters
tuned on the private data.

Implementation: vectorised numpy; the per-sample gradients of one coordinate are one vector
operation over the N records (no per-sample Python loop); the margins X theta are kept up to
date incrementally and recomputed exactly at the start of every pass.  Several independent runs
(``n_runs``) are vectorised together.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Dict, Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import ArrayLike
from scipy import special as sc

from .._core import domains as V
from .._core.config import UNSET, config_signature, resolve_config
from .._core.random import RandomState, as_generator
from .._core.types import FloatArray, Real
from ..accounting.dpcd import ACCOUNTANTS, MECHANISMS, RunPrivacy, account_run
from .dpcd_noise import calibrate_dpcd_noise, dpcd_parameters, dpcd_sample
from ..calibration.result import Calibration
from ..noise.flipped_huber import FlippedHuber

__all__ = [
    "LOSSES",
    "REGULARIZERS",
    "coordinate_smoothness",
    "clipping_thresholds",
    "coordinate_sensitivities",
    "per_sample_coordinate_gradients",
    "clipped_coordinate_gradient",
    "objective",
    "prox",
    "coordinate_descent",
    "DPCDResult",
    "DPCDConfig",
    "dp_coordinate_descent",
]

LOSSES = ("squared", "logistic")
REGULARIZERS = ("l2", "l1", "none")
_LOSS_SMOOTHNESS = {"squared": 1.0, "logistic": 0.25}


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------


def _choice(value: object, name: str, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(repr(c) for c in choices)}; got {value!r}")
    return value


def _check_X(X: ArrayLike) -> FloatArray:
    try:
        A = np.asarray(X, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"X must be a 2-D array of finite real numbers (N samples x K features); got {type(X).__name__}") from None
    if A.ndim != 2 or A.shape[0] < 1 or A.shape[1] < 1:
        raise ValueError(f"X must be a 2-D array with N >= 1 rows and K >= 1 columns; got shape {A.shape}")
    if not np.all(np.isfinite(A)):
        raise ValueError("X must contain finite real numbers only (no NaN or inf)")
    return A


def _check_y(y: ArrayLike, n: int, loss: str) -> FloatArray:
    try:
        v = np.asarray(y, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"y must be a 1-D array of N = {n} finite real numbers") from None
    if v.ndim != 1 or v.size != n:
        raise ValueError(f"y must be a 1-D array of N = {n} entries (one per row of X); got shape {v.shape}")
    if not np.all(np.isfinite(v)):
        raise ValueError("y must contain finite real numbers only (no NaN or inf)")
    if loss == "logistic":
        vals = set(np.unique(v).tolist())
        if vals <= {0.0, 1.0}:
            v = 2.0 * v - 1.0
        elif not vals <= {-1.0, 1.0}:
            raise ValueError(f"y must contain labels in {{-1, +1}} (or {{0, 1}}) for loss='logistic'; got values {sorted(vals)[:5]}")
    return v


def _check_lam(lam: float, regularizer: str) -> float:
    v = V.check_scalar(lam, V.Domain("lam", 0.0, math.inf, closed_lower=True))
    if regularizer == "none" and v != 0.0:  # psi = 0: a positive lam would be ignored
        raise ValueError(f"lam = {lam!r} is not used with regularizer='none' (psi = 0); give lam = 0 or regularizer "
                         "'l2' / 'l1'")
    return v


def _check_problem(X: ArrayLike, y: ArrayLike, loss: str, regularizer: str, lam: float, n_passes: int
                   ) -> Tuple[str, str, FloatArray, FloatArray, float, int]:
    """The validated problem of a coordinate-descent run: (loss, regularizer, X, y, lam, n_passes)."""
    ls = _choice(loss, "loss", LOSSES)
    rg = _choice(regularizer, "regularizer", REGULARIZERS)
    A = _check_X(X)
    return ls, rg, A, _check_y(y, A.shape[0], ls), _check_lam(lam, rg), V.check_int(n_passes, "n_passes", 1)


def _check_theta(theta: ArrayLike, K: int, name: str = "theta") -> FloatArray:
    t = V.check_array(theta, V.Domain(name, -math.inf, math.inf))
    if t.shape[-1:] != (K,):
        raise ValueError(f"{name} must have K = {K} entries in its last axis; got shape {t.shape}")
    return t


# ---------------------------------------------------------------------------
# building blocks
# ---------------------------------------------------------------------------


def coordinate_smoothness(X: ArrayLike, loss: str = "squared") -> FloatArray:
    """Coordinate-wise smoothness constants of the data term: M_i = (beta/N) sum_n x_{n,i}^2.

    beta = 1 for the squared loss and 1/4 for the logistic loss (Mangold et al. 2022, Sec 5.2):
    the second derivative of J along coordinate i is beta_n x_{n,i}^2 with beta_n <= beta.
    """
    ls = _choice(loss, "loss", LOSSES)
    A = _check_X(X)
    M: FloatArray = _LOSS_SMOOTHNESS[ls] * np.mean(A * A, axis=0)
    return M


def clipping_thresholds(smoothness: ArrayLike, clip: float) -> FloatArray:
    """C_i = C sqrt(M_i / sum_j M_j) (``clip`` = C > 0; ``inf`` disables clipping)."""
    M = np.atleast_1d(V.check_array(smoothness, V.Domain("smoothness", 0.0, math.inf)))
    C = V.check_scalar(clip, V.Domain("clip", 0.0, math.inf, closed_upper=True, allow_inf=True))
    if math.isinf(C):
        return np.full(M.shape, math.inf)
    out: FloatArray = C * np.sqrt(M / np.sum(M))
    return out


def coordinate_sensitivities(clip_thresholds_: ArrayLike, n_samples: int) -> FloatArray:
    """lambda_i = 2 C_i / N: the replace-one sensitivity of the clipped average gradient of coordinate i."""
    C = np.atleast_1d(V.check_array(clip_thresholds_, V.Domain("clip_thresholds", 0.0, math.inf, closed_upper=True, allow_inf=True)))
    N = V.check_int(n_samples, "n_samples", 1)
    return 2.0 * C / N


def _link(z: FloatArray, y: FloatArray, loss: str) -> FloatArray:
    """dJ/dz at the margins z = x^T theta (per sample): z - y, or -y sigmoid(-y z)."""
    if loss == "squared":
        return z - y
    out: FloatArray = -y * sc.expit(-y * z)  # scipy is untyped
    return out


def _grad_samples(xcol: FloatArray, z: FloatArray, y: FloatArray, loss: str) -> FloatArray:
    return _link(z, y, loss) * xcol


def per_sample_coordinate_gradients(X: ArrayLike, y: ArrayLike, theta: ArrayLike, i: int, loss: str = "squared") -> FloatArray:
    """grad_i J(theta; D_n) for every sample n (shape (N,), or (R, N) for a batch of theta of shape (R, K))."""
    ls = _choice(loss, "loss", LOSSES)
    A = _check_X(X)
    N, K = A.shape
    v = _check_y(y, N, ls)
    t = _check_theta(theta, K)
    j = V.check_int(i, "i", 0)
    if j >= K:
        raise ValueError(f"i must be an integer in [0, {K - 1}]; got {i!r}")
    z = t @ A.T
    return _grad_samples(A[:, j], z, v, ls)


def clipped_coordinate_gradient(X: ArrayLike, y: ArrayLike, theta: ArrayLike, i: int, clip_threshold: float,
                                loss: str = "squared") -> Real:
    """(1/N) sum_n clip(grad_i J(theta; D_n), C_i): the quantity DP-CD releases (before noise)."""
    g = per_sample_coordinate_gradients(X, y, theta, i, loss)
    C = V.check_scalar(clip_threshold, V.Domain("clip_threshold", 0.0, math.inf, closed_upper=True, allow_inf=True))
    out: Real = np.mean(np.clip(g, -C, C), axis=-1)
    return out


def objective(X: ArrayLike, y: ArrayLike, theta: ArrayLike, loss: str = "squared", regularizer: str = "l2",
              lam: float = 0.0) -> Real:
    """F(theta) = (1/N) sum_n J(theta; D_n) + psi(theta) (vectorised over a batch of theta)."""
    ls = _choice(loss, "loss", LOSSES)
    rg = _choice(regularizer, "regularizer", REGULARIZERS)
    A = _check_X(X)
    v = _check_y(y, A.shape[0], ls)
    t = _check_theta(theta, A.shape[1])
    return _objective(A, v, t, ls, rg, _check_lam(lam, rg))


def _objective(A: FloatArray, v: FloatArray, t: FloatArray, ls: str, rg: str, lam: float) -> Real:
    z = t @ A.T
    if ls == "squared":
        data = 0.5 * np.mean((z - v) ** 2, axis=-1)
    else:
        data = np.mean(np.logaddexp(0.0, -v * z), axis=-1)
    if rg == "l2":
        reg = 0.5 * lam * np.sum(t * t, axis=-1)
    elif rg == "l1":
        reg = lam * np.sum(np.abs(t), axis=-1)
    else:
        reg = 0.0
    out: Real = data + reg
    return out


def prox(v: ArrayLike, step: ArrayLike, regularizer: str = "l2", lam: float = 0.0) -> FloatArray:
    """prox_{step psi_i}(v): v / (1 + step lam) (l2), soft thresholding at step lam (l1), v (none)."""
    rg = _choice(regularizer, "regularizer", REGULARIZERS)
    return _prox(np.asarray(v, dtype=float), np.asarray(step, dtype=float), rg, _check_lam(lam, rg))


def _prox(v: FloatArray, step: Union[float, FloatArray], rg: str, lam: float) -> FloatArray:
    if rg == "l2":
        return v / (1.0 + step * lam)
    if rg == "l1":
        return np.sign(v) * np.maximum(np.abs(v) - step * lam, 0.0)
    return v


# ---------------------------------------------------------------------------
# the algorithm
# ---------------------------------------------------------------------------


def coordinate_descent(X: ArrayLike, y: ArrayLike, *, loss: str = "squared", regularizer: str = "l2", lam: float = 0.0,
                       n_passes: int, step_sizes: ArrayLike, clip_thresholds: Optional[ArrayLike] = None,
                       noise: Optional[ArrayLike] = None, theta0: Optional[ArrayLike] = None,
                       track_objective: bool = True) -> Tuple[FloatArray, Optional[FloatArray]]:
    """The iteration of Algorithm 3 with given step sizes, thresholds and noise (no privacy claim).

    ``step_sizes`` tau_i (K,); ``clip_thresholds`` C_i (K,) or None (no clipping); ``noise`` an
    array (L, K) -- or (R, L, K) for R runs vectorised together -- added to the released
    gradients, or None.  Returns (theta, objective after each pass incl. the start) with shapes
    (K,), (L+1,) -- or (R, K), (R, L+1).  :func:`dp_coordinate_descent` is the private entry
    point; this function is the plain algorithm (non-private CD with ``noise=None``).
    """
    ls, rg, A, v, lm, L = _check_problem(X, y, loss, regularizer, lam, n_passes)
    N, K = A.shape
    tau = np.atleast_1d(V.check_array(step_sizes, V.Domain("step_sizes", 0.0, math.inf)))
    if tau.shape != (K,):
        raise ValueError(f"step_sizes must have K = {K} entries; got shape {tau.shape}")
    if clip_thresholds is None:
        C = np.full(K, math.inf)
    else:
        C = np.atleast_1d(V.check_array(clip_thresholds, V.Domain("clip_thresholds", 0.0, math.inf, closed_upper=True, allow_inf=True)))
        if C.shape != (K,):
            raise ValueError(f"clip_thresholds must have K = {K} entries; got shape {C.shape}")
    single = True
    if noise is None:
        R = 1
        T = None
    else:
        T = np.asarray(V.check_array(noise, V.Domain("noise", -math.inf, math.inf)))
        if T.ndim == 2:
            T = T[None]
        elif T.ndim == 3:
            single = False
        if T.ndim != 3 or T.shape[1:] != (L, K):
            raise ValueError(f"noise must have shape (n_passes, K) = ({L}, {K}) or (R, {L}, {K}); got {np.shape(noise)}")
        R = T.shape[0]
    if theta0 is None:
        theta = np.zeros((R, K))
    else:
        t0 = _check_theta(theta0, K, "theta0")
        theta = np.array(np.broadcast_to(t0, (R, K)), dtype=float)
    Xc = np.ascontiguousarray(A.T)  # columns as contiguous rows
    clip_any = np.isfinite(C)
    trace = np.empty((R, L + 1)) if track_objective else None
    if trace is not None:
        trace[:, 0] = _objective(A, v, theta, ls, rg, lm)
    for l in range(L):
        z = theta @ Xc  # exact margins at the start of every pass
        for i in range(K):
            x = Xc[i]
            g = _grad_samples(x, z, v, ls)
            if clip_any[i]:
                np.clip(g, -C[i], C[i], out=g)
            nu = g.mean(axis=1)
            if T is not None:
                nu = nu + T[:, l, i]
            new = _prox(theta[:, i] - tau[i] * nu, tau[i], rg, lm)
            d = new - theta[:, i]
            theta[:, i] = new
            z += d[:, None] * x[None, :]
        if trace is not None:
            trace[:, l + 1] = _objective(A, v, theta, ls, rg, lm)
    if single:
        return theta[0], (trace[0] if trace is not None else None)
    return theta, trace


@dataclass(frozen=True)
class DPCDResult:
    """The output of :func:`dp_coordinate_descent`.

    ``theta`` (K,) or (n_runs, K); ``objective_trace`` F after each pass (L+1,) or (n_runs, L+1);
    ``smoothness`` M_i, ``step_sizes`` tau_i, ``clip_thresholds`` C_i, ``sensitivities`` lambda_i;
    ``noise`` the :class:`~fhsym.applications.accounting.Calibration` (None if non-private);
    ``alphas``, ``gammas`` the per-coordinate noise parameters (sigma_i in ``gammas`` for the
    Gaussian); ``privacy`` the run's certified accounting (None if non-private);
    ``smoothness_public`` whether M_i were supplied (True) or computed from X (False: not covered
    by the guarantee, see the module docstring).
    """

    theta: FloatArray
    objective_trace: FloatArray
    smoothness: FloatArray
    step_sizes: FloatArray
    clip_thresholds: FloatArray
    sensitivities: FloatArray
    noise: Optional[Calibration]
    alphas: Optional[FloatArray]
    gammas: Optional[FloatArray]
    privacy: Optional[RunPrivacy]
    smoothness_public: bool

    @property
    def objective(self) -> Real:
        """F at the returned theta (per run)."""
        return self.objective_trace[..., -1]


def _check_reused(noise: Calibration, given: Dict[str, Any]) -> None:
    """``ValueError`` for a ``mechanism`` / ``accountant`` in ``given`` that the reused ``noise`` (which fixes both)
    would ignore: mechanism=None (a non-private run), another noise or another accountant than its own."""
    own = {"mechanism": noise.mechanism.name, "accountant": str(noise.extra.get("accountant"))}
    for name, value in given.items():
        if value != own[name]:
            raise ValueError(f"{name} = {value!r} is not used with noise= (the calibration fixes the {name}: "
                             f"{own[name]!r}); leave {name} out or pass {own[name]!r}")


@dataclass(frozen=True)
class DPCDConfig:
    """The settings of one DP-CD run (:func:`dp_coordinate_descent`), validated when it is made.

    Problem: ``loss`` (``"squared"``, ``"logistic"``), ``regularizer`` (``"l2"``, ``"l1"``,
    ``"none"``), ``lam`` >= 0.  Optimiser (Algorithm 3, paper Appendix D): ``n_passes`` L >= 1,
    ``step`` tau > 0 (tau_i = tau / M_i), ``clip`` C > 0 (C_i = C sqrt(M_i / sum M); may be inf
    only for a non-private run), ``smoothness`` public M_i > 0 or None (computed from X: not
    covered by the guarantee), ``theta0`` the public start (default 0).  Privacy of the whole run:
    ``epsilon`` > 0 and ``delta`` in (0, 1), ``mechanism`` (``"flipped_huber"``, ``"gaussian"``,
    or None for non-private CD), ``accountant`` (``"pld"``, ``"zcdp"``), or ``noise`` a DP-CD
    :class:`~fhsym.calibration.Calibration` to reuse; ``verify`` re-accounts the run.  The number
    of features K is checked against ``smoothness`` / ``theta0`` / ``noise`` when the data arrive.

    >>> import numpy as np
    >>> from fhsym.applications import DPCDConfig, dp_coordinate_descent
    >>> cfg = DPCDConfig(n_passes=2, step=0.5, clip=2.0, epsilon=1.0, delta=1e-6, mechanism="gaussian")
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((200, 3)); y = X @ np.array([1.0, -0.5, 0.0])
    >>> res = dp_coordinate_descent(X, y, config=cfg, random_state=1)
    >>> bool(res.privacy.ok), res.theta.shape
    (True, (3,))
    >>> DPCDConfig(n_passes=0)
    Traceback (most recent call last):
    ...
    ValueError: n_passes must be an integer >= 1; got 0
    """

    n_passes: int
    loss: str = "squared"
    regularizer: str = "l2"
    lam: float = 0.0
    step: float = 1.0
    clip: float = 1.0
    epsilon: Optional[float] = None
    delta: Optional[float] = None
    mechanism: Optional[str] = FlippedHuber.name
    accountant: str = "pld"
    noise: Optional[Calibration] = None
    smoothness: Optional[ArrayLike] = None
    theta0: Optional[ArrayLike] = None
    verify: bool = True

    def __post_init__(self) -> None:
        _choice(self.loss, "loss", LOSSES)
        rg = _choice(self.regularizer, "regularizer", REGULARIZERS)
        _check_lam(self.lam, rg)
        V.check_int(self.n_passes, "n_passes", 1)
        V.check_scalar(self.step, V.Domain("step", 0.0, math.inf))
        private = self.noise is not None or self.mechanism is not None
        V.check_scalar(self.clip, V.Domain("clip", 0.0, math.inf, closed_upper=not private, allow_inf=not private))
        if self.smoothness is not None:
            V.check_array(self.smoothness, V.Domain("smoothness", 0.0, math.inf))
        if self.theta0 is not None:
            V.check_array(self.theta0, V.Domain("theta0", -math.inf, math.inf))
        if self.noise is not None:
            if not isinstance(self.noise, Calibration) or not self.noise.method.startswith("dpcd-"):
                raise ValueError(f"noise must be a DP-CD Calibration (from calibrate_dpcd_noise) or None; got {self.noise!r}")
            _check_reused(self.noise, {k: v for k, v, default in (("mechanism", self.mechanism, FlippedHuber.name),
                                                                  ("accountant", self.accountant, "pld"))
                                       if v != default})  # a default is kept; any other value must be the noise's
        elif private:
            _choice(self.mechanism, "mechanism", MECHANISMS)
            _choice(self.accountant, "accountant", ACCOUNTANTS)
        if not private and (self.epsilon is not None or self.delta is not None):
            raise ValueError("mechanism=None runs non-private CD: do not pass epsilon/delta (choose a mechanism)")
        if self.epsilon is not None:
            V.check_scalar(self.epsilon, V.Domain("epsilon", 0.0, math.inf))
        if self.delta is not None:
            V.check_scalar(self.delta, V.Domain("delta", 0.0, 1.0))
        if not isinstance(self.verify, (bool, np.bool_)):
            raise ValueError(f"verify must be True or False; got {self.verify!r}")


@config_signature(DPCDConfig)
def dp_coordinate_descent(
    X: ArrayLike, y: ArrayLike, *, config: Optional[DPCDConfig] = None,
    loss: str = UNSET, regularizer: str = UNSET, lam: float = UNSET,
    n_passes: int = UNSET, step: float = UNSET, clip: float = UNSET,
    epsilon: Optional[float] = UNSET, delta: Optional[float] = UNSET,
    mechanism: Optional[str] = UNSET, accountant: str = UNSET,
    noise: Optional[Calibration] = UNSET, smoothness: Optional[ArrayLike] = UNSET, theta0: Optional[ArrayLike] = UNSET,
    random_state: RandomState = None, n_runs: Optional[int] = None, verify: bool = UNSET,
) -> DPCDResult:
    """DP-CD (Algorithm 3) with noise calibrated for (epsilon, delta)-DP of the whole run.

    The settings come either as keywords or as one :class:`DPCDConfig` (``config=``), not both:
    a keyword passed together with ``config`` raises ``ValueError`` naming it.  Defaults are those
    of :class:`DPCDConfig` (``n_passes`` is required).

    Parameters
    ----------
    X, y : the data (N x K, N); see the module docstring for the losses and labels.
    config : a :class:`DPCDConfig` holding every setting below except ``random_state``, ``n_runs``.
    loss : ``"squared"`` or ``"logistic"``;  regularizer : ``"l2"``, ``"l1"`` or ``"none"``;  lam >= 0 (0 with
        ``"none"``).
    n_passes : L >= 1;  step : tau > 0 (tau_i = tau / M_i);  clip : C > 0 (C_i = C sqrt(M_i / sum M)).
    epsilon, delta : the guarantee for the whole run (epsilon > 0, delta in (0, 1)).
    mechanism : ``"flipped_huber"``, ``"gaussian"``, or None for non-private CD (no noise; C may be inf).
    accountant : ``"pld"`` (exact composition, certified) or ``"zcdp"`` (the paper's).
    noise : a :class:`Calibration` to reuse (its L, K must match; it fixes the four above: epsilon, delta,
        mechanism or accountant given with it must be its own, else ``ValueError``).
    smoothness : public M_i (K,), or None to compute them from X (paper; not covered by the guarantee).
    theta0 : the public starting point (default 0).
    random_state : seed / Generator for the noise (refused by a non-private run, which draws none);  n_runs : None
        for one run, or R independent runs.
    verify : re-account the run from its absolute per-coordinate parameters and raise
        ``RuntimeError`` if the certified delta exceeds the target (default True).

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((200, 2)); y = X @ np.array([1.0, -1.0])
    >>> res = dp_coordinate_descent(X, y, n_passes=3, mechanism=None, lam=0.0)
    >>> res.noise is None, res.objective_trace.shape
    (True, (4,))
    """
    if config is None and n_passes is UNSET:
        raise ValueError("n_passes is required (an integer >= 1), as a keyword or in config=")
    mechanism_kw, accountant_kw = mechanism, accountant  # UNSET unless passed
    cfg = resolve_config(DPCDConfig, config, dict(
        loss=loss, regularizer=regularizer, lam=lam, n_passes=n_passes, step=step, clip=clip, epsilon=epsilon,
        delta=delta, mechanism=mechanism, accountant=accountant, noise=noise, smoothness=smoothness, theta0=theta0,
        verify=verify), "dp_coordinate_descent")
    loss, regularizer, lam, n_passes, step, clip = cfg.loss, cfg.regularizer, cfg.lam, cfg.n_passes, cfg.step, cfg.clip
    epsilon, delta, mechanism, accountant = cfg.epsilon, cfg.delta, cfg.mechanism, cfg.accountant
    noise, smoothness, theta0, verify = cfg.noise, cfg.smoothness, cfg.theta0, cfg.verify
    ls, rg, A, v, lm, L = _check_problem(X, y, loss, regularizer, lam, n_passes)
    N, K = A.shape
    tau = V.check_scalar(step, V.Domain("step", 0.0, math.inf))
    private = noise is not None or mechanism is not None
    C = V.check_scalar(clip, V.Domain("clip", 0.0, math.inf, closed_upper=not private, allow_inf=not private))
    if smoothness is None:
        M = coordinate_smoothness(A, ls)
        public = False
    else:
        M = np.atleast_1d(V.check_array(smoothness, V.Domain("smoothness", 0.0, math.inf)))
        if M.shape != (K,):
            raise ValueError(f"smoothness must have K = {K} entries; got shape {M.shape}")
        public = True
    if not np.all(M > 0):
        raise ValueError("smoothness must be > 0 for every coordinate (X has an all-zero column: drop it)")
    R = None if n_runs is None else V.check_int(n_runs, "n_runs", 1)
    taus = tau / M
    Cs = clipping_thresholds(M, C)
    lams = coordinate_sensitivities(Cs, N)
    cal = None
    alphas = gammas = None
    privacy = None
    T = None
    if private:
        if noise is not None:
            if not isinstance(noise, Calibration) or not noise.method.startswith("dpcd-"):
                raise ValueError(f"noise must be a DP-CD Calibration (from calibrate_dpcd_noise) or None; got {noise!r}")
            if (noise.compositions, noise.dim) != (L, K):
                raise ValueError(f"noise was calibrated for n_passes = {noise.compositions}, K = {noise.dim}; "
                                 f"this run has n_passes = {L}, K = {K}")
            # a keyword passed explicitly must be the calibration's own (the config's own check keeps the defaults)
            _check_reused(noise, {k: v for k, v in (("mechanism", mechanism_kw), ("accountant", accountant_kw))
                                  if v is not UNSET})
            for name, val, ref in (("epsilon", epsilon, noise.epsilon), ("delta", delta, noise.target_delta)):
                if val is not None and val != ref:
                    raise ValueError(f"{name} = {val!r} disagrees with the calibration passed as noise ({name} = {ref!r})")
            cal = noise
        else:
            if epsilon is None or delta is None:
                raise ValueError("epsilon and delta are required for a private run (or pass mechanism=None for non-private CD)")
            mech = _choice(mechanism, "mechanism", MECHANISMS)
            acc = _choice(accountant, "accountant", ACCOUNTANTS)
            cal = calibrate_dpcd_noise(epsilon, delta, L, K, mech, acc)
        alphas, gammas = dpcd_parameters(cal, lams)
        if verify:
            privacy = account_run(alphas, gammas, lams, L, cal.epsilon, cal.target_delta, cal.extra["accountant"])
            if not privacy.ok:
                raise RuntimeError(f"the run is not certified: {privacy.statement} > target delta {cal.target_delta:g}")
        rng = as_generator(random_state)
        T = dpcd_sample(cal, lams, ((R,) if R is not None else ()) + (L,), rng)
    elif epsilon is not None or delta is not None:
        raise ValueError("mechanism=None runs non-private CD: do not pass epsilon/delta (choose a mechanism)")
    elif random_state is not None:  # no noise is drawn: a seed would be ignored
        raise ValueError(f"random_state = {random_state!r} is not used by a non-private run (mechanism=None draws no "
                         "noise); leave it out or choose a mechanism")
    if T is None and R is not None:
        T = np.zeros((R, L, K))
    theta, trace = coordinate_descent(A, v, loss=ls, regularizer=rg, lam=lm, n_passes=L, step_sizes=taus,
                                      clip_thresholds=Cs, noise=T, theta0=theta0)
    assert trace is not None  # track_objective is on
    return DPCDResult(theta, trace, M, taus, Cs, lams, cal, alphas, gammas, privacy, public)
