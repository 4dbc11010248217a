"""Lecture 08: ridge and the lasso side by side, on polynomial features, as the penalty moves.

The features are the Legendre polynomials ``P_1, ..., P_12`` (standardised): the same curves as the
powers ``x, ..., x^12`` can make, but nearly orthogonal on [-1, 1]. On the plain powers (condition
number about 1e5 after standardising) coordinate descent needs some 1e5 sweeps at small penalties,
too slow for a slider; on these it needs a few dozen."""

from __future__ import annotations

from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np

from .. import regression
from .._checks import positive_float, positive_int
from ._common import _readable

POLYNOMIAL_DEGREE = 12
LAMBDA_RANGE = (1e-3, 1e2)       # from following the noise to a flat line, for both penalties


def _truth(x):
    return np.sin(2.5 * x) + 0.5 * x


@lru_cache(maxsize=8)
def _polynomial_sample(n: int, seed: int):
    """``(x, y, x_test, y_test, mean, scale)``: ``n`` noisy points of a smooth function on [-1, 1], 500
    fresh ones for the test error, and the mean and standard deviation of the training features
    ``P_1(x), ..., P_12(x)`` (every fit standardises with them, so one penalty treats all alike)."""
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(-1, 1, n))
    x_test = rng.uniform(-1, 1, 500)
    y = _truth(x) + 0.25 * rng.standard_normal(n)
    y_test = _truth(x_test) + 0.25 * rng.standard_normal(500)
    F = _legendre(x)
    return x, y, x_test, y_test, F.mean(axis=0), F.std(axis=0)


def _legendre(x):
    """The Legendre polynomials of degrees 1 to 12 at the points ``x``, shape (len(x), 12)."""
    from numpy.polynomial import legendre

    return legendre.legvander(np.asarray(x, dtype=float), POLYNOMIAL_DEGREE)[:, 1:]


def draw_penalties(lam: float, n: int = 30, seed: int = 0):
    """One frame of lecture 08's explorer: ridge (``1/2 ||y - Xw - b||^2 + lam/2 ||w||^2``) and the lasso
    (``1/2 ||y - Xw - b||^2 + lam ||w||_1``) with the same ``lam``, fitted to ``n`` noisy points with the
    standardised features ``P_1(x), ..., P_12(x)``; their curves over the data and the true function (top) and
    their coefficients on one scale (bottom), the test error on 500 fresh points in the titles.

    Returns ``(ridge, lasso, ridge_test_error, lasso_test_error)``: the two fits (``LinearFit`` and
    ``SparseFit`` on the standardised features) and their mean squared errors on the fresh points."""
    lam = positive_float(lam, "lam")
    x, y, x_test, y_test, mean, scale = _polynomial_sample(positive_int(n, "n"), int(seed))
    features = lambda t: (_legendre(t) - mean) / scale
    ridge = regression.fit_ridge(features(x), y, lam)
    lasso = regression.fit_lasso(features(x), y, lam, tol=1e-8, max_sweeps=20_000)
    errors = [float(np.mean((features(x_test) @ fit.w + fit.b - y_test) ** 2)) for fit in (ridge, lasso)]

    grid = np.linspace(-1, 1, 200)
    fig, axes = plt.subplots(2, 2, figsize=(10.5, 6.4), gridspec_kw=dict(height_ratios=(3, 2)))
    bound = max(1.0, max(np.abs(fit.w).max() for fit in (ridge, lasso))) * 1.1
    for column, (fit, name, error) in enumerate(((ridge, "ridge", errors[0]), (lasso, "lasso", errors[1]))):
        top, bottom = axes[0, column], axes[1, column]
        top.plot(grid, _truth(grid), color="0.6", lw=3, alpha=0.6, label="true function")
        top.scatter(x, y, s=14, color="k", zorder=3, label="data")
        top.plot(grid, features(grid) @ fit.w + fit.b, "C0" if column == 0 else "C3", lw=1.8, label=f"{name} fit")
        top.set_ylim(-2.6, 2.6)
        top.set_xlabel("$x$")
        kept = int(np.count_nonzero(fit.w))
        top.set_title(f"{name}, λ = {lam:.2g}: test error {error:.3f}" + (f", {kept} of 12 non-zero" if column else ""),
                      fontsize="medium")
        top.legend(fontsize="small", loc="lower right")
        bottom.axhline(0, color="0.7", lw=0.8)
        bottom.bar(np.arange(1, POLYNOMIAL_DEGREE + 1), fit.w, color="C0" if column == 0 else "C3")
        bottom.set_ylim(-bound, bound)
        bottom.set_xticks(np.arange(1, POLYNOMIAL_DEGREE + 1))
        bottom.set_xlabel("degree of the Legendre polynomial (standardised feature)")
        bottom.set_ylabel("coefficient")
    fig.tight_layout()
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
