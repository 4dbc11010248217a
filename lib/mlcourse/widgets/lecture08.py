"""Lecture 08: ridge and the lasso side by side, on polynomial features, as the penalty moves.

The features are the Legendre polynomials ``P_1, ..., P_12`` (standardised): the same curves as the
powers ``x, ..., x^12`` can make, but nearly orthogonal on [-1, 1]. On the plain powers (condition
number about 1e4 after standardising) coordinate descent needs over 1e5 sweeps at small penalties,
too slow for a slider; on these it needs a few dozen."""

from __future__ import annotations

from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np

from .. import regression
from .._checks import positive_float
from ._common import _readable

POLYNOMIAL_DEGREE = 12
NOISE = 0.35                     # standard deviation of the noise on y
N_TEST = 500                     # fresh points for the test error
LAMBDA_RANGE = (1e-3, 1e3)       # from least squares (wiggly) to flat lines at the mean of y, for both
_GRID = np.linspace(-1, 1, 200)


def _truth(x):
    return np.sin(2.5 * x) + 0.5 * x


def _legendre(x):
    """The Legendre polynomials of degrees 1 to 12 at the points ``x``, shape (len(x), 12)."""
    from numpy.polynomial import legendre

    return legendre.legvander(np.asarray(x, dtype=float), POLYNOMIAL_DEGREE)[:, 1:]


@lru_cache(maxsize=8)
def _polynomial_sample(n: int, seed: int):
    """``(x, y, x_test, y_test, mean, scale)``: ``n`` noisy points of a smooth function on [-1, 1], 500
    fresh ones for the test error, and the mean and standard deviation of the training features
    ``P_1(x), ..., P_12(x)`` (every fit standardises with them, so one penalty treats all alike; a
    constant column, possible only for tiny ``n``, keeps scale 1)."""
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(-1, 1, n))
    x_test = rng.uniform(-1, 1, N_TEST)
    y = _truth(x) + NOISE * rng.standard_normal(n)
    y_test = _truth(x_test) + NOISE * rng.standard_normal(N_TEST)
    F = _legendre(x)
    scale = F.std(axis=0)
    return x, y, x_test, y_test, F.mean(axis=0), np.where(scale > 0, scale, 1.0)


@lru_cache(maxsize=8)
def _standardised_features(n: int, seed: int):
    """``(F, F_test, F_grid, bound)``: the standardised features of the training points, the test points
    and the plotting grid, and a y-limit for the coefficients that holds for every λ of the slider (the
    coefficients are largest at the smallest λ)."""
    x, y, x_test, _, mean, scale = _polynomial_sample(n, seed)
    F, F_test, F_grid = ((_legendre(t) - mean) / scale for t in (x, x_test, _GRID))
    largest = regression.fit_ridge(F, y, LAMBDA_RANGE[0]).w
    return F, F_test, F_grid, 1.15 * max(0.5, float(np.abs(largest).max()))


def _sample_size(n) -> int:
    """``n`` as an int >= 2 (a feature's standard deviation needs two points), or raise naming it."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"n must be an integer; got {type(n).__name__}")
    if n < 2:
        raise ValueError(f"n must be at least 2 (standardising a feature needs two points); got {n}")
    return int(n)


def _lam_text(lam: float) -> str:
    """λ with three significant digits, as the slider shows it, but never with an exponent: 0.00178,
    0.562, 17.8, 1000 (the slider's ``.3g`` writes 1e+03)."""
    return np.format_float_positional(lam, precision=3, unique=False, fractional=False, trim="-")


def draw_penalties(lam: float, n: int = 30, seed: int = 0):
    """One frame of lecture 08's explorer: ridge (``1/2 ||y - Xw - b||^2 + lam/2 ||w||^2``) and the lasso
    (``1/2 ||y - Xw - b||^2 + lam ||w||_1``) with the same ``lam``, fitted to ``n`` noisy points with the
    standardised features ``P_1(x), ..., P_12(x)`` (each column scaled to mean 0 and standard deviation 1
    on the training points, so the penalty treats them alike; the intercept ``b`` is not penalised).
    Top: their curves over the data and the true function; bottom: their coefficients on one scale (the
    same for every λ of a sample), the lasso's exact zeros marked on the axis; the test error on 500
    fresh points and the lasso's number of non-zero coefficients in the titles.

    Returns ``(ridge, lasso, ridge_test_error, lasso_test_error)``: the two fits (``LinearFit`` and
    ``SparseFit`` on the standardised features) and their mean squared errors on the fresh points."""
    lam = positive_float(lam, "lam")
    n, seed = _sample_size(n), int(seed)
    x, y, x_test, y_test, _, _ = _polynomial_sample(n, seed)
    F, F_test, F_grid, bound = _standardised_features(n, seed)
    ridge = regression.fit_ridge(F, y, lam)
    lasso = regression.fit_lasso(F, y, lam, tol=1e-8, max_sweeps=20_000)
    errors = [float(np.mean((F_test @ fit.w + fit.b - y_test) ** 2)) for fit in (ridge, lasso)]

    degrees = np.arange(1, POLYNOMIAL_DEGREE + 1)
    bound = max(bound, 1.05 * max(float(np.abs(fit.w).max()) for fit in (ridge, lasso)))
    top_lim = max(2.6, float(np.abs(y).max()) + 0.3)
    fig, axes = plt.subplots(2, 2, figsize=(10.5, 6.6), sharey="row", gridspec_kw=dict(height_ratios=(3, 2)))
    fig.subplots_adjust(left=0.07, right=0.985, top=0.94, bottom=0.08, wspace=0.06, hspace=0.32)
    for column, (fit, name, error) in enumerate(((ridge, "ridge", errors[0]), (lasso, "lasso", errors[1]))):
        top, bottom = axes[0, column], axes[1, column]
        colour = "C0" if column == 0 else "C3"
        top.plot(_GRID, _truth(_GRID), color="0.6", lw=3, alpha=0.6, label="true function")
        top.scatter(x, y, s=14, color="k", zorder=3, label=f"data ({n} points)")
        top.plot(_GRID, F_grid @ fit.w + fit.b, colour, lw=1.8, label=f"{name} fit")
        top.set_xlim(-1.05, 1.05)
        top.set_xticks(np.linspace(-1, 1, 5))   # fewer labels: the two panels' "1.00" and "-1.00" touched
        top.set_ylim(-top_lim, top_lim)
        top.set_xlabel("x", fontstyle="italic", labelpad=1)   # no mathtext: parsing it costs 0.1 s a frame
        if column == 0:
            top.set_ylabel("y", fontstyle="italic")
        kept = int(np.count_nonzero(fit.w))
        top.set_title(f"{name}, λ = {_lam_text(lam)}: test error {error:.3f}"
                      + (f", {kept} of {POLYNOMIAL_DEGREE} non-zero" if column else ""), fontsize="medium")
        top.legend(fontsize="small", loc="lower right")
        bottom.axhline(0, color="0.7", lw=0.8)
        bottom.bar(degrees, fit.w, color=colour)
        zero = fit.w == 0
        if zero.any():
            bottom.plot(degrees[zero], np.zeros(zero.sum()), "o", ms=6, mfc="white", mec=colour, mew=1.5,
                        label="exactly 0")
            bottom.legend(fontsize="small", loc="upper right")
        bottom.set_xlim(0.3, POLYNOMIAL_DEGREE + 0.7)
        bottom.set_ylim(-bound, bound)
        bottom.set_xticks(degrees)
        bottom.set_xlabel("j (feature: the Legendre polynomial Pⱼ(x), standardised)", labelpad=1)
        if column == 0:
            bottom.set_ylabel("coefficient wⱼ")
    plt.show()
    return ridge, lasso, errors[0], errors[1]


def regularisation_explorer():
    """Controls for lecture 08: the penalty λ (log scale) for ridge and the lasso, and the sample."""
    import ipywidgets as W

    style = dict(continuous_update=False)
    low, high = np.log10(LAMBDA_RANGE)
    lam = W.FloatLogSlider(value=1e-2, base=10, min=low, max=high, step=0.25, description="penalty λ", **style)
    seed = W.IntSlider(value=0, min=0, max=20, description="sample seed", **style)
    out = W.interactive_output(lambda lam, seed: draw_penalties(lam, seed=seed), dict(lam=lam, seed=seed))
    return _readable(W.VBox([W.HBox([lam, seed]), out]))
