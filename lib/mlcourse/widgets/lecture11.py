"""Lecture 11: EM for a Gaussian mixture, one iteration at a time."""

from __future__ import annotations

from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np

from .. import clustering, plotting
from .._checks import positive_int
from ._common import PlayedFrames, _readable

ITERATIONS = 40
INITS = ("k-means++", "random")


@lru_cache(maxsize=1)
def three_groups() -> np.ndarray:
    """The explorer's data: 300 points from three elongated Gaussians in the plane (a fixed draw)."""
    rng = np.random.default_rng(11)
    shapes = [np.array([[1.6, 0.0], [0.9, 0.35]]), np.array([[0.3, 0.0], [0.0, 1.5]]), np.array([[1.0, -0.8], [0.0, 0.3]])]
    centres = [np.array([0.0, 0.0]), np.array([4.5, 1.0]), np.array([1.5, 4.0])]
    return np.vstack([c + rng.standard_normal((100, 2)) @ A for c, A in zip(centres, shapes)])


@lru_cache(maxsize=32)
def em_states(k: int, init: str, seed: int) -> tuple:
    """``ITERATIONS + 1`` states of EM on :func:`three_groups`, each ``(weights, means, covariances, resp,
    log-likelihood)``: the start (means by ``init`` with ``seed``, equal weights, the data's covariance), then the
    state after each iteration (if EM stops early, at a fixed point, its last state is repeated)."""
    X = three_groups()
    start = clustering.kmeans_plus_plus(X, k, seed) if init == "k-means++" else clustering.random_init(X, k, seed)
    weights = np.full(k, 1 / k)
    covariances = np.repeat((np.cov(X.T, bias=True) + 1e-6 * np.eye(2))[None], k, axis=0)
    fit = clustering.fit_gmm(X, k, means_init=start, weights_init=weights, covariances_init=covariances,
                             tol=0.0, max_iter=ITERATIONS, record=True)
    parameters = [(weights, start, covariances)] + [state[:3] for state in fit.history]
    parameters += [parameters[-1]] * (ITERATIONS + 1 - len(parameters))
    return tuple(p + clustering.e_step(X, *p) for p in parameters)


def draw_em_step(k: int, init: str, iteration: int, seed: int = 0) -> float:
    """One frame of lecture 11's explorer: the mixture of ``k`` components after ``iteration`` EM iterations
    (0: the start) from means chosen by ``init`` ("k-means++" or "random" data points) with ``seed``. Left: the
    points coloured by their responsibilities, each component's 1- and 2-standard-deviation ellipses. Right:
    the log-likelihood over the iterations so far. Returns the log-likelihood at this iteration."""
    k = positive_int(k, "k")
    if init not in INITS:
        raise ValueError(f"init must be one of {INITS}; got {init!r}")
    if isinstance(iteration, bool) or not isinstance(iteration, (int, np.integer)) or not 0 <= iteration <= ITERATIONS:
        raise ValueError(f"iteration must be an integer from 0 to {ITERATIONS}; got {iteration!r}")
    X = three_groups()
    states = em_states(k, init, int(seed))
    weights, means, covariances, resp, log_likelihood = states[iteration]
    palette = np.array([plt.matplotlib.colors.to_rgb(f"C{j}") for j in range(k)])
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw=dict(width_ratios=[1.25, 1]))
    ax = axes[0]
    ax.scatter(X[:, 0], X[:, 1], c=resp @ palette, s=14, edgecolor="k", linewidth=0.2)
    for j in range(k):
        plotting.plot_gaussian_ellipses(means[j], covariances[j], ax, colour=f"C{j}")
    ax.set_xlim(-5, 9)
    ax.set_ylim(-3.5, 8)
    ax.set_aspect("equal")
    ax.set_title(f"K = {k}, {init} start, after {iteration} iteration{'' if iteration == 1 else 's'}", fontsize="medium")
    ax = axes[1]
    ax.plot(np.arange(iteration + 1), [state[4] for state in states[: iteration + 1]], "o-", ms=3)
    ax.set_xlim(-1, ITERATIONS + 1)
    ax.set_xlabel("iteration")
    ax.set_ylabel("log-likelihood")
    ax.set_title(f"log-likelihood {log_likelihood:.1f}", fontsize="medium")
    fig.subplots_adjust(left=0.06, right=0.98, wspace=0.25, bottom=0.13)
    plt.show()
    return float(log_likelihood)


def em_explorer():
    """Controls for lecture 11: the iteration (with a play button), the number of components, the start, a seed."""
    import ipywidgets as W

    style = dict(continuous_update=False)
    iteration = W.IntSlider(value=0, min=0, max=ITERATIONS, description="iteration", **style)
    play = W.Play(value=0, min=0, max=ITERATIONS, interval=600, description="play EM")
    k = W.Dropdown(options=list(range(1, 7)), value=3, description="components K")
    init = W.Dropdown(options=list(INITS), value="k-means++", description="start")
    seed = W.IntSlider(value=0, min=0, max=20, description="seed", **style)
    frames = PlayedFrames(draw_em_step, dict(k=k, init=init, iteration=iteration, seed=seed), "iteration", play)
    return _readable(W.VBox([W.HBox([play, iteration]), W.HBox([k, init, seed]), frames.out]))
