"""Lecture 10: the sample-size calculators side by side, and a simulation of the realizable bound."""

from __future__ import annotations

import numpy as np
import matplotlib.pyplot as plt

from .. import pac
from ..plotting import log_ticks
from .._checks import nonnegative_int, open_unit_float, positive_int
from ._common import _readable

def threshold_failure_rate(n: int, eps: float, class_size: int, repetitions: int = 2000, seed: int = 0) -> float:
    """The fraction of ``repetitions`` samples of size ``n`` on which some consistent hypothesis has risk
    above ``eps``, for the class of ``class_size`` thresholds of :func:`mlcourse.pac.threshold_erm_excess_risks`."""
    return float(np.mean(pac.threshold_erm_excess_risks(n, class_size, 0.0, repetitions, seed) > eps))


def draw_sample_sizes(eps: float, delta: float, class_size: int, vc_dim: int, repetitions: int = 1000):
    """One frame of lecture 10's explorer. Left: the sample sizes of the realizable and agnostic
    finite-class bounds (for ``class_size``) and of the VC bound (for ``vc_dim``) against the accuracy,
    the chosen ``eps`` marked. Right: for thresholds on a grid of ``class_size`` points (VC dimension 1),
    the simulated fraction of samples on which a consistent learner misses by more than ``eps``, against
    ``n``, with ``delta`` and the realizable sample size marked. Returns
    ``(realizable n, agnostic n, VC n, simulated failure rate at the realizable n)``."""
    eps, delta = open_unit_float(eps, "eps"), open_unit_float(delta, "delta")
    class_size, vc_dim = positive_int(class_size, "class_size"), nonnegative_int(vc_dim, "vc_dim")
    sizes = (pac.realizable_sample_size(eps, delta, class_size), pac.agnostic_sample_size(eps, delta, class_size),
             pac.vc_sample_size(eps, delta, vc_dim))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.0))
    ax = axes[0]
    grid = np.geomspace(0.01, 0.5, 30)
    for bound, style, name in ((lambda e: pac.realizable_sample_size(e, delta, class_size), "C0-", "realizable, |H|"),
                               (lambda e: pac.agnostic_sample_size(e, delta, class_size), "C1-", "agnostic, |H|"),
                               (lambda e: pac.vc_sample_size(e, delta, vc_dim), "C2--", f"VC bound, d = {vc_dim}")):
        ax.loglog(grid, [bound(e) for e in grid], style, label=name)
    ax.axvline(eps, color="k", lw=0.8)
    log_ticks(ax)
    ax.set_xlabel("accuracy ε")
    ax.set_ylabel("examples needed, n")
    ax.set_title(f"at ε = {eps:.2g}, δ = {delta:.2g}: realizable n = {sizes[0]}, agnostic {sizes[1]}, VC {sizes[2]:.3g}",
                 fontsize="medium")
    ax.legend(fontsize="small")
    ax = axes[1]
    ms = np.unique(np.geomspace(1, 3 * sizes[0], 14).astype(int))
    rates = [threshold_failure_rate(int(n), eps, class_size, repetitions) for n in ms]
    at_bound = threshold_failure_rate(sizes[0], eps, class_size, repetitions)
    ax.semilogx(ms, rates, "C0o-", ms=4, label="simulated failure rate")
    ax.axhline(delta, color="C3", lw=1, label="δ")
    ax.axvline(sizes[0], color="C0", lw=0.8, ls="--", label="realizable n")
    ax.set_ylim(-0.02, 1.02)
    log_ticks(ax, "x")
    ax.set_xlabel("sample size n")
    ax.set_ylabel(f"P(a consistent h has risk > {eps:.2g})")
    ax.set_title(f"thresholds on {class_size} grid points: {at_bound:.3f} at n = {sizes[0]}", fontsize="medium")
    ax.legend(fontsize="small")
    fig.subplots_adjust(left=0.06, right=0.99, bottom=0.13, top=0.93, wspace=0.28)
    plt.show()
    return sizes[0], sizes[1], sizes[2], at_bound


def sample_size_explorer():
    """Controls for lecture 10: the accuracy, the confidence, the class size and the VC dimension."""
    import ipywidgets as W

    style = dict(continuous_update=False)
    eps = W.FloatLogSlider(value=0.1, base=10, min=-1.7, max=np.log10(0.5), step=0.05, description="accuracy ε", **style)
    delta = W.FloatLogSlider(value=0.1, base=10, min=-3, max=np.log10(0.5), step=0.1, description="failure δ", **style)
    size = W.IntSlider(value=101, min=2, max=1001, step=1, description="class size |H|", **style)
    vc_dim = W.IntSlider(value=1, min=1, max=20, description="VC dimension", **style)
    out = W.interactive_output(lambda eps, delta, size, vc_dim: draw_sample_sizes(eps, delta, size, vc_dim),
                               dict(eps=eps, delta=delta, size=size, vc_dim=vc_dim))
    return _readable(W.VBox([W.HBox([eps, delta]), W.HBox([size, vc_dim]), out]))
