"""Lecture 07: the soft-margin SVM, its margins and its support vectors."""

from __future__ import annotations

from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np

from .. import kernels, svm
from .._checks import positive_int
from ..plotting import plot_points, plot_regions
from ._common import _readable, _two_classes

SVM_DATA_SETS = ("two overlapping clouds", "disc and ring", "exclusive or")
SVM_KERNELS = ([("linear", ("linear", 0.0))]
               + [(f"Gaussian, σ = {sigma:g}", ("gaussian", sigma)) for sigma in (0.1, 0.3, 0.5, 1.0, 2.0)])


@lru_cache(maxsize=8)
def _svm_sample(data_set: str, n: int, seed: int):
    """``(X, y, X_test, y_test)``: ``n`` training and 1000 test points of one of :data:`SVM_DATA_SETS`."""
    if data_set not in SVM_DATA_SETS:
        raise ValueError(f"data_set must be one of {SVM_DATA_SETS}; got {data_set!r}")
    rng = np.random.default_rng(seed)

    X, y = _two_classes(data_set, n, rng)
    X_test, y_test = _two_classes(data_set, 1000, rng)
    return X, y, X_test, y_test


def _svm_kernel(kind: str, sigma: float):
    if kind == "linear":
        return kernels.linear_kernel, "linear kernel"
    if kind == "gaussian":
        return (lambda A, B: kernels.rbf_kernel(A, B, sigma)), f"Gaussian kernel, σ = {sigma:g}"
    raise ValueError(f"kind must be 'linear' or 'gaussian'; got {kind!r}")


def draw_svm(data_set: str, kind: str, sigma: float, C: float, n: int = 100, seed: int = 0, resolution: int = 80):
    """One frame of lecture 07's explorer: the SVM with cost ``C`` on ``n`` points of ``data_set``; its
    regions, the boundary ``f = 0`` and the margins ``f = +-1``, the support vectors ringed (on the
    margin: thin; at ``alpha = C``: thick), the training and test errors.

    Returns ``(result, training_error, test_error)``."""
    kernel, name = _svm_kernel(kind, sigma)
    X, y, X_test, y_test = _svm_sample(data_set, positive_int(n, "n"), int(seed))
    run = svm.fit_svm(kernel(X, X), y, C=C)
    score = lambda P: svm.decision_function(kernel(P, X), y, run.alpha, run.b)
    train_err = float(np.mean(np.where(score(X) >= 0, 1, -1) != y))
    test_err = float(np.mean(np.where(score(X_test) >= 0, 1, -1) != y_test))

    fig, ax = plt.subplots(figsize=(6.2, 5.2))
    lim = (-3.4, 3.4)
    ax.set_xlim(*lim)
    ax.set_ylim(*lim)
    plot_regions(lambda P: np.where(score(P) >= 0, 1, -1), ax, resolution=resolution, alpha=0.2)
    g = np.linspace(*lim, resolution)
    gx, gy = np.meshgrid(g, g)
    f = score(np.c_[gx.ravel(), gy.ravel()]).reshape(gx.shape)
    ax.contour(gx, gy, f, levels=[-1, 0, 1], colors="k", linestyles=["--", "-", "--"], linewidths=[0.8, 1.4, 0.8])
    plot_points(X, y, ax, size=14, legend=False)
    at_c = run.alpha >= C * (1 - 1e-9)
    ax.scatter(*X[run.on_margin].T, s=80, facecolors="none", edgecolors="k", linewidths=0.8, label="on the margin (0 < α < C)")
    ax.scatter(*X[at_c].T, s=80, facecolors="none", edgecolors="k", linewidths=2.0, label="α = C")
    ax.set(xlim=lim, ylim=lim, xticks=[], yticks=[])                     # ticks would cost a third of the frame
    ax.set_title(f"{name}, C = {C:g}: {len(run.support)} support vectors of {n}\n"
                 f"training error {train_err:.2f}, test error {test_err:.2f}", fontsize="medium")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.07), ncol=4, fontsize="small", frameon=False,
              handletextpad=0.3, columnspacing=1.2)                     # under the axis name: it covers nothing
    fig.subplots_adjust(left=0.02, right=0.98, bottom=0.14, top=0.88)
    plt.show()
    return run, train_err, test_err


def svm_explorer():
    """Controls for lecture 07: the data, the kernel (with its bandwidth), the cost C, the sample."""
    import ipywidgets as W

    style = dict(continuous_update=False)
    data_set = W.Dropdown(options=SVM_DATA_SETS, value="two overlapping clouds", description="data")
    kernel = W.Dropdown(options=SVM_KERNELS, value=("linear", 0.0), description="kernel")
    C = W.FloatLogSlider(value=1.0, base=10, min=-2, max=3, step=0.25, description="cost C", **style)
    seed = W.IntSlider(value=0, min=0, max=20, description="sample seed", **style)
    out = W.interactive_output(lambda data_set, kernel, C, seed: draw_svm(data_set, *kernel, C, seed=seed),
                               dict(data_set=data_set, kernel=kernel, C=C, seed=seed))
    return _readable(W.VBox([W.HBox([data_set, kernel]), W.HBox([C, seed]), out]))
