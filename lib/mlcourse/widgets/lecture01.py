"""Lecture 01: fitting polynomials of any degree."""

from __future__ import annotations


import matplotlib.pyplot as plt
import numpy as np

from .. import data
from ._common import _readable


def draw_polynomial_fit(degree: int, n: int, seed: int, noise: float = 0.3, n_curves: int = 25):
    """One frame of lecture 01's explorer: a polynomial fit and its errors.

    ``n`` training inputs on the grid :func:`mlcourse.data.midpoint_grid`, labels
    ``sine_target(x) + noise * z`` drawn with ``seed``. Left: the truth, the sample, its
    least-squares polynomial of degree ``degree``, the fits to ``n_curves`` other samples (thin) and
    their exact mean. Right: the training and test error of this fit, and the exact expected test
    error split into noise, bias^2 and variance.

    Returns ``(train_error, test_error, terms)`` with ``terms`` a :class:`mlcourse.risk.BiasVariance`.
    """
    from .. import risk

    degree, n, seed = int(degree), int(n), int(seed)
    x, y = data.noisy_sine(n, seed, noise=noise, design="grid")
    coef = risk.fit_polynomial(x, y, degree)
    train = float(np.mean((risk.predict_polynomial(coef, x) - y) ** 2))
    test = risk.squared_risk(lambda t: risk.predict_polynomial(coef, t), data.sine_target, noise)
    terms = risk.polynomial_bias_variance(degree, x, data.sine_target, noise)
    others, _ = risk.simulate_polynomial_fits(degree, x, data.sine_target, noise, n_curves, rng=seed + 10_000)
    mean_fit = risk.fit_polynomial(x, data.sine_target(x), degree)  # the fit is linear in y: E fit = fit(E y)

    grid = np.linspace(-1, 1, 300)
    fig, (ax, bar) = plt.subplots(1, 2, figsize=(10, 4.3), gridspec_kw=dict(width_ratios=[1.5, 1]))
    others_at = risk.predict_polynomial(others, grid)  # (n_curves, 300): one line, NaN between curves
    ax.plot(np.tile(np.r_[grid, np.nan], len(others_at)), np.c_[others_at, np.full(len(others_at), np.nan)].ravel(),
            color="#9ecae1", lw=0.6, alpha=0.7, label=f"fits to {n_curves} other samples")
    ax.plot(grid, data.sine_target(grid), color="k", lw=2, label="truth $f^*(x)$")
    ax.plot(grid, risk.predict_polynomial(mean_fit, grid), color="#2b8cbe", ls="--", lw=1.5,
            label=r"mean fit $\bar f(x)$")
    ax.plot(grid, risk.predict_polynomial(coef, grid), color="#d95f02", lw=2, label="fit to this sample")
    ax.scatter(x, y, s=18, color="#d95f02", edgecolor="k", linewidth=0.5, zorder=3, label="this sample")
    ax.set_xlim(-1, 1)
    ax.set_ylim(-2.2, 2.2)
    ax.set_xlabel("$x$")
    ax.set_title(f"degree {degree}, n = {n}")
    ax.legend(loc="lower left", fontsize="x-small", ncol=2)

    top = 0.8
    names = ["train\nerror", "test\nerror", "expected\ntest error"]
    bar.bar(names[:2], [min(train, top), min(test, top)], color=["#7570b3", "#e7298a"])
    bottom = 0.0
    for value, label, color in ((terms.noise, "noise", "#bbbbbb"), (terms.bias2, "bias$^2$", "#66a61e"),
                                (terms.variance, "variance", "#e6ab02")):
        bar.bar(names[2], min(value, max(top - bottom, 0)), bottom=bottom, color=color, label=label)
        bottom += value
    for i, value in enumerate([train, test, terms.expected_error]):
        text = f"{value:.3f}" if value < top else f"{value:.3g} ↑"
        bar.text(i, min(value, top) + 0.015, text, ha="center", fontsize="small")
    bar.set_ylim(0, top + 0.08)
    bar.set_ylabel("mean squared error")
    bar.legend(loc="upper left", fontsize="small")
    bar.set_title(f"bias$^2$ = {terms.bias2:.4f}, variance = {terms.variance:.4f}", fontsize="medium")
    fig.subplots_adjust(left=0.06, right=0.99, bottom=0.12, top=0.93, wspace=0.25)
    plt.show()
    return train, test, terms


def polynomial_explorer(noise: float = 0.3):
    """Sliders for the degree, the sample size and the sample's seed of lecture 01's polynomial fits."""
    import ipywidgets as W

    degree = W.IntSlider(value=3, min=0, max=12, description="degree", continuous_update=False)
    n = W.IntSlider(value=20, min=10, max=100, step=5, description="sample size", continuous_update=False)
    seed = W.IntSlider(value=0, min=0, max=50, description="sample seed", continuous_update=False)
    out = W.interactive_output(lambda degree, n, seed: draw_polynomial_fit(degree, n, seed, noise),
                               dict(degree=degree, n=n, seed=seed))
    return _readable(W.VBox([W.HBox([degree, n, seed]), out]))
