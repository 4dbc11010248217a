"""Lecture 02: stepping through the perceptron."""

from __future__ import annotations

from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np

from .. import data, perceptron
from ..plotting import plot_boundary, plot_points
from ._common import PlayedFrames, _readable


@lru_cache(maxsize=32)
def _perceptron_run(gamma: float, seed: int, n: int):
    sample = data.separable_with_margin(n, 2, gamma, rng=seed)
    run = perceptron.train_perceptron(sample.X, sample.y, record=True)
    return sample, run


def draw_perceptron_step(gamma: float, seed: int, step: int, n: int = 40):
    """Draw the data, the true separator and the perceptron's boundary after ``step`` updates.

    Left: the plane. Right: mistakes so far against Novikoff's bound ``(r/gamma)^2``.
    """
    sample, run = _perceptron_run(round(float(gamma), 3), int(seed), int(n))
    step = min(int(step), run.n_mistakes)
    w = run.history[step]
    bound = perceptron.mistake_bound(sample.X, sample.y, sample.w_star)
    fig, (ax, bar) = plt.subplots(1, 2, figsize=(9, 5), gridspec_kw=dict(width_ratios=[3, 1.4]))
    plot_points(sample.X, sample.y, ax, legend=False)
    ax.set_xlim(-1.1, 1.1)
    ax.set_ylim(-1.1, 1.1)
    plot_boundary(sample.w_star, ax, bias=False, color="grey", linestyle="--", label="$w^*$")
    if step > 0:
        plot_boundary(w, ax, bias=False, color="k", label=f"$w$ after {step} updates")
        moved = run.history[step] - run.history[step - 1]  # = y_i x_i of the point just corrected
        wrong = np.flatnonzero(np.all(np.isclose(sample.y[:, None] * sample.X, moved), axis=1))[:1]
        ax.scatter(*sample.X[wrong].T, s=160, facecolor="none", edgecolor="red", linewidth=2,
                   label="point just corrected")
        ax.arrow(0, 0, *(w / max(np.linalg.norm(w), 1e-12) * 0.5), width=0.01, color="k")
    still_wrong = perceptron.n_mistakes(w, sample.X, sample.y)
    ax.set_title(f"margin $\\gamma$={gamma:.2f}: {still_wrong} of {len(sample.y)} points misclassified")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=3, fontsize="small")    # below the axis name
    bar.bar(["updates so far", "updates in all", "bound"], [step, run.n_mistakes, bound],
            color=["#7570b3", "#bbbbbb", "#e7298a"])
    bar.set_title("Novikoff: mistakes $\\leq (r/\\gamma)^2$")
    bar.tick_params(axis="x", labelrotation=30)
    fig.subplots_adjust(left=0.07, right=0.98, bottom=0.21, top=0.94, wspace=0.3)
    plt.show()
    return run.n_mistakes, bound


def perceptron_stepper(n: int = 40):
    """Sliders for the margin and the data seed, and a play button stepping through the updates."""
    import ipywidgets as W

    gamma = W.FloatSlider(value=0.15, min=0.02, max=0.5, step=0.01, description="margin γ",
                          continuous_update=False)
    seed = W.IntSlider(value=0, min=0, max=50, description="data seed", continuous_update=False)
    step = W.IntSlider(value=0, min=0, max=1, description="update")
    play = W.Play(value=0, min=0, max=1, interval=400, description="play")
    frames = None

    def new_data(_=None):
        _, run = _perceptron_run(round(gamma.value, 3), seed.value, n)

        def restart():
            step.max = play.max = max(run.n_mistakes, 1)
            step.value = play.value = 0

        if frames is None:  # the first run, before anything is drawn
            restart()
        else:
            frames.quietly(restart)

    gamma.observe(new_data, "value")  # before PlayedFrames observes gamma: a new run starts, then it is drawn
    seed.observe(new_data, "value")
    new_data()
    frames = PlayedFrames(lambda gamma, seed, step: draw_perceptron_step(gamma, seed, step, n),
                          dict(gamma=gamma, seed=seed, step=step), "step", play)
    return _readable(W.VBox([W.HBox([gamma, seed]), W.HBox([play, step]), frames.out]))
