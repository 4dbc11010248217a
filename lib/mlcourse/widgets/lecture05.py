"""Lecture 05: k nearest neighbours."""

from __future__ import annotations

from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np

from .. import data
from .._checks import positive_int
from ..plotting import plot_points, plot_regions
from ._common import _readable


def knn_classes():
    """Lecture 05's two Gaussian classes: class 0 ``N((0, 0), I)``, class 1 the tighter
    ``N((1.6, 1.0), 0.3 I)``, equal priors (a closed, curved Bayes boundary)."""
    from .. import bayes

    return bayes.gaussian_classes([[0.0, 0.0], [1.6, 1.0]], [np.eye(2), 0.3 * np.eye(2)], priors=[0.5, 0.5])


@lru_cache(maxsize=1)
def _knn_reference(resolution: int = 200):
    """``(R*, R_1NN)`` of :func:`knn_classes` by the midpoint rule: ``R_1NN`` integrates
    ``2 eta (1 - eta) p(x) = 2 w_0 w_1 / (w_0 + w_1)`` with ``w_k = pi_k p_k(x)``."""
    from .. import bayes, mle

    model = knn_classes()
    points, area = bayes.grid(model, resolution)
    w = np.exp(mle.class_log_scores(model, points))
    total = w.sum(axis=1)
    r_star = float(np.sum(total - w.max(axis=1)) * area)
    r_1nn = float(np.sum(2 * w[:, 0] * w[:, 1] / np.where(total > 0, total, 1.0)) * area)
    return r_star, r_1nn


@lru_cache(maxsize=8)
def _knn_sample(n: int, seed: int):
    model = knn_classes()
    X, y = data.sample_gaussian_classes(model, n, seed)
    X_test, y_test = data.sample_gaussian_classes(model, 1000, 10_000 + seed)
    return X, 2 * y - 1, X_test, 2 * y_test - 1


def draw_knn_explorer(k: int, p: float, n: int, seed: int = 0, resolution: int = 80):
    """One frame of lecture 05's explorer: the k-NN regions of ``n`` training points under the
    distance ``||x - z||_p``, and the training and test errors against ``R*`` and ``R_1NN``.

    Returns ``(training_error, test_error)``.
    """
    from .. import neighbours

    k, n, p = positive_int(k, "k"), positive_int(n, "n"), float(p)
    X, y, X_test, y_test = _knn_sample(n, int(seed))
    k = min(k, n)
    train_err = float(np.mean(neighbours.knn_predict(X, y, X, k=k, p=p) != y))
    test_err = float(np.mean(neighbours.knn_predict(X, y, X_test, k=k, p=p) != y_test))
    r_star, r_1nn = _knn_reference()

    fig, (ax, bar) = plt.subplots(1, 2, figsize=(10, 4.6), gridspec_kw=dict(width_ratios=[1.4, 1]))
    ax.set_xlim(-3.2, 4.0)
    ax.set_ylim(-3.2, 4.0)
    plot_regions(lambda P: neighbours.knn_predict(X, y, P, k=k, p=p), ax, resolution=resolution, alpha=0.25)
    plot_points(X, y, ax, size=10 if n > 300 else 18, legend=False)
    ax.set(xlim=(-3.2, 4.0), ylim=(-3.2, 4.0), xticks=[], yticks=[])    # ticks would cost a third of the frame
    name = {1.0: "Manhattan", 2.0: "Euclidean"}.get(p, "max")
    ax.set_title(f"k = {k}, {name} distance, n = {n}", fontsize="medium")
    values = [train_err, test_err, r_1nn, r_star]
    bar.bar(["training", "test", "$R_{1NN}$", "$R^*$"], values, color=["#bbbbbb", "#1b9e77", "#7570b3", "k"])
    for i, v in enumerate(values):
        bar.text(i, v + 0.01, f"{v:.3f}", ha="center", fontsize="small")
    bar.set_ylim(0, 0.55)
    bar.set_ylabel("error")
    bar.set_title("errors (test: 1000 fresh points)", fontsize="medium")
    fig.subplots_adjust(left=0.05, right=0.99, bottom=0.11, top=0.93, wspace=0.25)
    plt.show()
    return train_err, test_err


def knn_explorer():
    """Sliders for lecture 05's k-NN: the number of neighbours, the distance and the sample size."""
    import ipywidgets as W

    style = dict(continuous_update=False)
    k = W.IntSlider(value=1, min=1, max=199, step=2, description="neighbours k", **style)
    p = W.Dropdown(options=[("Euclidean (p = 2)", 2.0), ("Manhattan (p = 1)", 1.0), ("max (p = ∞)", float("inf"))],
                   value=2.0, description="distance")
    n = W.IntSlider(value=200, min=50, max=800, step=50, description="training points", **style)
    seed = W.IntSlider(value=0, min=0, max=20, description="sample seed", **style)
    out = W.interactive_output(draw_knn_explorer, dict(k=k, p=p, n=n, seed=seed))
    return _readable(W.VBox([W.HBox([k, p]), W.HBox([n, seed]), out]))
