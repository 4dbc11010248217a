"""Lecture 09: kernel regression as the bandwidth and the kernel change, with its leave-one-out error."""

from __future__ import annotations

from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np

from .. import smoothing
from ..plotting import log_ticks
from .._checks import positive_float, positive_int
from ._common import _readable

BANDWIDTH_RANGE = (0.003, 0.5)


def _truth(x):
    return np.sin(2 * np.pi * x) + 0.5 * x


@lru_cache(maxsize=8)
def _sample(n: int, seed: int):
    """``(x, y)``: ``n`` points on [0, 1], sorted, with noisy targets (noise standard deviation 0.3)."""
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(0, 1, n))[:, None]
    return x, _truth(x[:, 0]) + 0.3 * rng.standard_normal(n)


def loo_curve(x, y, bandwidths, kernel: str) -> np.ndarray:
    """The leave-one-out error of kernel regression at each bandwidth; ``nan`` where some point has no
    other point within the kernel's reach (a bounded kernel and a small ``h``: leaving it out is undefined)."""
    out = []
    for h in bandwidths:
        H = smoothing.nadaraya_watson_weights(x, x, float(h), kernel)
        out.append(np.nan if np.any(np.diag(H) >= 1 - 1e-12) else float(np.mean(smoothing.loo_residuals(H, y) ** 2)))
    return np.array(out)


@lru_cache(maxsize=16)
def _loo_curve_cached(n: int, seed: int, kernel: str):
    x, y = _sample(n, seed)
    bandwidths = np.geomspace(*BANDWIDTH_RANGE, 40)
    return bandwidths, loo_curve(x, y, bandwidths, kernel)


def draw_bandwidth(h: float, kernel: str = "gaussian", n: int = 80, seed: int = 0):
    """One frame of lecture 09's explorer: kernel regression with bandwidth ``h`` and ``kernel`` on ``n``
    noisy points of a smooth function (left), and the leave-one-out error against the bandwidth with
    ``h`` marked (right). Returns ``(estimate on a grid of 400 points of [0, 1], LOO error at h)``."""
    h = positive_float(h, "h")
    if kernel not in smoothing.KERNELS:
        raise ValueError(f"kernel must be one of {smoothing.KERNELS}; got {kernel!r}")
    x, y = _sample(positive_int(n, "n"), int(seed))
    grid = np.linspace(0, 1, 400)[:, None]
    estimate = smoothing.nadaraya_watson(x, y, grid, h, kernel)
    loo_here = float(loo_curve(x, y, [h], kernel)[0])
    bandwidths, curve = _loo_curve_cached(len(y), int(seed), kernel)

    fig, axes = plt.subplots(1, 2, figsize=(11, 3.9))
    ax = axes[0]
    ax.scatter(x[:, 0], y, s=10, color="0.5", label="data")
    ax.plot(grid[:, 0], _truth(grid[:, 0]), color="0.3", lw=3, alpha=0.35, label="$f^*$")
    ax.plot(grid[:, 0], estimate, "C0", lw=1.6, label="kernel regression")
    ax.set_ylim(-2.0, 2.5)
    ax.set_xlabel("$x$")
    ax.set_title(f"{kernel} kernel, h = {h:.3g}", fontsize="medium")
    ax.legend(fontsize="small", loc="lower left")
    ax = axes[1]
    ax.semilogx(bandwidths, curve, "C0", lw=1.8)
    ax.axvline(h, color="C3", lw=1)
    ax.axhline(0.09, color="0.6", ls=":", label=r"noise variance $\sigma^2$")
    if np.isfinite(curve).any():
        best = bandwidths[np.nanargmin(curve)]
        ax.axvline(best, color="0.5", lw=0.8, ls="--", label=f"best h = {best:.3g}")
    ax.set_ylim(0, 0.6)
    log_ticks(ax, "x")
    ax.set_xlabel("bandwidth $h$")
    ax.set_ylabel("leave-one-out error")
    ax.set_title("LOO error at h: " + ("undefined (a point has no neighbour within h)" if np.isnan(loo_here)
                                       else f"{loo_here:.3f}"), fontsize="medium")
    ax.legend(fontsize="small", loc="upper left")
    fig.subplots_adjust(left=0.05, right=0.99, bottom=0.13, top=0.93, wspace=0.22)
    plt.show()
    return estimate, loo_here


def bandwidth_explorer():
    """Controls for lecture 09: the bandwidth (log scale), the kernel, and the sample."""
    import ipywidgets as W

    style = dict(continuous_update=False)
    low, high = np.log10(BANDWIDTH_RANGE)
    h = W.FloatLogSlider(value=0.04, base=10, min=low, max=high, step=0.05, description="bandwidth h", **style)
    kernel = W.Dropdown(options=smoothing.KERNELS, value="gaussian", description="kernel")
    seed = W.IntSlider(value=0, min=0, max=20, description="sample seed", **style)
    out = W.interactive_output(lambda h, kernel, seed: draw_bandwidth(h, kernel, seed=seed),
                               dict(h=h, kernel=kernel, seed=seed))
    return _readable(W.VBox([W.HBox([h, kernel, seed]), out]))
