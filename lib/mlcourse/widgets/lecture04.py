"""Lecture 04: the Bayes classifier of two Gaussian classes."""

from __future__ import annotations


import matplotlib.pyplot as plt
import numpy as np

from ._common import _readable


def two_gaussian_classes(shift_x: float, shift_y: float, rho: float, spread: float, prior: float):
    """Lecture 04's explorer model: class 0 is ``N((0, 0), C)``, class 1 is
    ``N((shift_x, shift_y), spread^2 C)`` with ``C = [[1, rho], [rho, 1]]``, ``P(Y = 1) = prior``."""
    from .. import bayes

    C = np.array([[1.0, rho], [rho, 1.0]])
    return bayes.gaussian_classes([[0.0, 0.0], [shift_x, shift_y]], [C, spread**2 * C], [1.0 - prior, prior])


def draw_bayes_explorer(shift_x: float, shift_y: float, rho: float, spread: float, prior: float,
                        resolution: int = 120):
    """One frame of lecture 04's explorer: two Gaussian classes, their Bayes boundary and errors.

    Left: the plane, shaded by the Bayes classifier, with contours of ``pi_k p_k(x)``, the Bayes
    boundary (solid) and the boundary of naive Bayes with the true per-feature variances (dashed).
    Right: the errors, all computed on the same grid (so none can come out below the Bayes error):
    Bayes, naive Bayes, and the best constant prediction ``min(pi_0, pi_1)``.

    Returns ``(bayes_error, naive_error, constant_error)``.
    """
    from .. import bayes, mle

    model = two_gaussian_classes(float(shift_x), float(shift_y), float(rho), float(spread), float(prior))
    naive = bayes.naive_gaussian(model)
    bayes_err = bayes.classifier_error(model, lambda P: mle.predict_gaussian_classes(model, P), resolution)
    naive_err = bayes.classifier_error(model, lambda P: mle.predict_gaussian_classes(naive, P), resolution)
    constant_err = float(min(prior, 1.0 - prior))

    fig, (ax, bar) = plt.subplots(1, 2, figsize=(10, 4.6), gridspec_kw=dict(width_ratios=[1.4, 1]))
    lim = (-4.0, 6.0)
    g = np.linspace(*lim, resolution)
    gx, gy = np.meshgrid(g, g)
    P = np.c_[gx.ravel(), gy.ravel()]
    weighted = np.exp(mle.class_log_scores(model, P))
    labels = np.argmax(weighted, axis=1).reshape(gx.shape)
    ax.contourf(gx, gy, labels, levels=[-0.5, 0.5, 1.5], colors=["#d95f02", "#1b9e77"], alpha=0.15)
    for k, color in enumerate(["#d95f02", "#1b9e77"]):
        ax.contour(gx, gy, weighted[:, k].reshape(gx.shape), levels=4, colors=color, linewidths=0.7)
    score = bayes.bayes_rule(model).score(P).reshape(gx.shape)
    naive_score = bayes.bayes_rule(naive).score(P).reshape(gx.shape)
    if score.min() < 0 < score.max():
        ax.contour(gx, gy, score, levels=[0], colors="k", linewidths=2)
    if naive_score.min() < 0 < naive_score.max():
        ax.contour(gx, gy, naive_score, levels=[0], colors="#7570b3", linewidths=1.5, linestyles="--")
    ax.plot([], [], color="k", lw=2, label="Bayes boundary")
    ax.plot([], [], color="#7570b3", lw=1.5, ls="--", label="naive Bayes boundary")
    ax.set_xlim(*lim)
    ax.set_ylim(*lim)
    ax.set_aspect("equal")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.legend(loc="lower right", fontsize="small")
    kind = "linear" if spread == 1 else "quadratic"
    ax.set_title(f"$\\rho$ = {rho:.2f}, spread of class 1 = {spread:.2f}: {kind} boundary", fontsize="medium")

    values = [bayes_err, naive_err, constant_err]
    bar.bar(["Bayes", "naive Bayes", "constant"], values, color=["k", "#7570b3", "#bbbbbb"])
    for i, v in enumerate(values):
        bar.text(i, v + 0.01, f"{v:.3f}", ha="center", fontsize="small")
    bar.axhline(bayes_err, color="k", lw=0.8, ls=":")
    bar.set_ylim(0, 0.55)
    bar.set_ylabel("error $P(g(X) \\neq Y)$")
    bar.set_title(f"prior $P(Y=1)$ = {prior:.2f}", fontsize="medium")
    fig.subplots_adjust(left=0.05, right=0.99, bottom=0.11, top=0.93, wspace=0.25)
    plt.show()
    return bayes_err, naive_err, constant_err


def bayes_explorer():
    """Sliders for lecture 04's two Gaussian classes: the mean of class 1, the correlation, the
    spread of class 1 and the prior."""
    import ipywidgets as W

    style = dict(continuous_update=False)
    shift_x = W.FloatSlider(value=2.0, min=-2.0, max=4.0, step=0.25, description="mean x₁", **style)
    shift_y = W.FloatSlider(value=0.0, min=-2.0, max=4.0, step=0.25, description="mean x₂", **style)
    rho = W.FloatSlider(value=0.6, min=-0.9, max=0.9, step=0.05, description="correlation ρ", **style)
    spread = W.FloatSlider(value=1.0, min=0.4, max=2.5, step=0.1, description="spread (class 1)", **style)
    prior = W.FloatSlider(value=0.5, min=0.05, max=0.95, step=0.05, description="P(Y = 1)", **style)
    out = W.interactive_output(draw_bayes_explorer, dict(shift_x=shift_x, shift_y=shift_y, rho=rho,
                                                         spread=spread, prior=prior))
    return _readable(W.VBox([W.HBox([shift_x, shift_y, rho]), W.HBox([spread, prior]), out]))
