"""Lecture 06: the kernel perceptron on data no line separates."""

from __future__ import annotations

from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np

from .. import kernels
from .._checks import positive_float, positive_int
from ..plotting import plot_points, plot_regions
from ._common import _readable, _two_classes

DATA_SETS = ("disc and ring", "exclusive or")


@lru_cache(maxsize=8)
def _kernel_sample(data_set: str, n: int, seed: int):
    """``(X, y, X_test, y_test)``: ``n`` training and 1000 test points of one of :data:`DATA_SETS`."""
    if data_set not in DATA_SETS:
        raise ValueError(f"data_set must be one of {DATA_SETS}; got {data_set!r}")
    rng = np.random.default_rng(seed)

    X, y = _two_classes(data_set, n, rng)
    X_test, y_test = _two_classes(data_set, 1000, rng)
    return X, y, X_test, y_test


def _kernel(kind: str, parameter: float):
    if kind == "polynomial":
        degree = positive_int(int(round(parameter)), "degree")
        return lambda A, B: kernels.polynomial_kernel(A, B, degree, 1.0), f"(1 + x.z)^{degree}"
    if kind == "gaussian":
        sigma = positive_float(parameter, "sigma")
        return lambda A, B: kernels.rbf_kernel(A, B, sigma), f"Gaussian, σ = {sigma:.3g}"
    raise ValueError(f"kind must be 'polynomial' or 'gaussian'; got {kind!r}")


def draw_kernel_perceptron(data_set: str, kind: str, parameter: float, n: int = 120, seed: int = 0,
                           max_epochs: int = 100, resolution: int = 80):
    """One frame of lecture 06's explorer: the kernel perceptron (at most ``max_epochs`` passes) on
    ``n`` points of ``data_set``, with the polynomial kernel of degree ``parameter`` or the Gaussian
    kernel of bandwidth ``parameter``; its regions, its support ringed, its errors.

    Returns ``(result, training_error, test_error)``."""
    kernel, name = _kernel(kind, parameter)
    X, y, X_test, y_test = _kernel_sample(data_set, positive_int(n, "n"), int(seed))
    run = kernels.train_kernel_perceptron(kernel(X, X), y, positive_int(max_epochs, "max_epochs"))
    predict = lambda P: kernels.kernel_predict(kernel(P, X), y, run.alpha)
    train_err = float(np.mean(predict(X) != y))
    test_err = float(np.mean(predict(X_test) != y_test))

    fig, ax = plt.subplots(figsize=(6.2, 5.2))
    ax.set_xlim(-3.2, 3.2)
    ax.set_ylim(-3.2, 3.2)
    plot_regions(predict, ax, resolution=resolution, alpha=0.25)
    plot_points(X, y, ax, size=14, legend=False)
    ax.scatter(*X[run.support].T, s=80, facecolors="none", edgecolors="k", linewidths=0.9, label="support")
    ax.set(xlim=(-3.2, 3.2), ylim=(-3.2, 3.2), xticks=[], yticks=[])    # ticks would cost a third of the frame
    stop = f"converged in {run.n_epochs} passes" if run.converged else f"not converged after {run.n_epochs} passes"
    ax.set_title(f"{name}: {stop}, {run.n_mistakes} updates\n{len(run.support)} of {n} points are support; "
                 f"training error {train_err:.2f}, test error {test_err:.2f}", fontsize="medium")
    ax.legend(loc="upper right", fontsize="small")
    plt.show()
    return run, train_err, test_err


KERNEL_CHOICES = ([(f"polynomial (1 + x.z)^{q}", ("polynomial", float(q))) for q in range(1, 7)]
                  + [(f"Gaussian, σ = {sigma:g}", ("gaussian", sigma)) for sigma in (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)])


def kernel_perceptron_explorer():
    """Controls for lecture 06: the data set, the kernel with its degree or bandwidth, the sample.

    One menu holds each kernel with its parameter, so every control always acts on the picture."""
    import ipywidgets as W

    data_set = W.Dropdown(options=DATA_SETS, value="exclusive or", description="data")
    kernel = W.Dropdown(options=KERNEL_CHOICES, value=("gaussian", 0.5), description="kernel")
    seed = W.IntSlider(value=0, min=0, max=20, description="sample seed", continuous_update=False)
    out = W.interactive_output(lambda data_set, kernel, seed: draw_kernel_perceptron(data_set, *kernel, seed=seed),
                               dict(data_set=data_set, kernel=kernel, seed=seed))
    return _readable(W.VBox([W.HBox([data_set, kernel, seed]), out]))
