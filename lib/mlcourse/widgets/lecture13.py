"""Lecture 13: AdaBoost (with stumps or deeper trees), round by round — the decision regions, the error curves
and the margins."""

from __future__ import annotations

from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np

from .. import ensembles, plotting
from .._checks import positive_int
from ._common import _readable, _two_classes

DATA_SETS = ("two overlapping clouds", "disc and ring", "exclusive or")
MAX_ROUNDS = 500
DEPTHS = (1, 2, 3)


@lru_cache(maxsize=9)
def boosted(data_set: str, depth: int = 1) -> tuple:
    """200 training and 1000 test points of ``data_set`` (fixed seeds), AdaBoost with base learners of
    ``depth`` (1: stumps) for ``MAX_ROUNDS`` rounds on the training points (fewer if it stops early), and
    the training and test error after every round."""
    if data_set not in DATA_SETS:
        raise ValueError(f"data_set must be one of {DATA_SETS}; got {data_set!r}")
    if depth not in DEPTHS:
        raise ValueError(f"depth must be one of {DEPTHS}; got {depth!r}")
    X, y = _two_classes(data_set, 200, np.random.default_rng(13))
    X_test, y_test = _two_classes(data_set, 1000, np.random.default_rng(1013))
    model = ensembles.fit_adaboost(X, y, MAX_ROUNDS, depth=depth)
    train = (np.where(ensembles.staged_scores(model, X) >= 0, 1, -1) != y).mean(axis=1)
    test = (np.where(ensembles.staged_scores(model, X_test) >= 0, 1, -1) != y_test).mean(axis=1)
    return X, y, X_test, y_test, model, train, test


def draw_boosting(rounds: int, data_set: str = "disc and ring", depth: int = 1) -> dict:
    """One frame of lecture 13's explorer: the regions of AdaBoost (base learners of ``depth``: 1 for stumps)
    after ``rounds`` rounds over the training points, the training and test errors and the bound prod Z_t
    against the round (``rounds`` marked), and the distribution of the training points' normalised margins at ``rounds`` (and, thin, at round 1).
    Returns the training error, the test error and the smallest normalised margin at ``rounds``."""
    rounds = positive_int(rounds, "rounds")
    X, y, _, _, model, train, test = boosted(data_set, depth)
    if rounds > model.T:
        raise ValueError(f"rounds must be at most {model.T}; got {rounds}")
    fig, (ax_regions, ax_errors, ax_margins) = plt.subplots(1, 3, figsize=(12, 3.8))
    fig.subplots_adjust(left=0.01, right=0.98, bottom=0.15, top=0.9, wspace=0.22)
    plotting.plot_points(X, y, ax_regions, size=10, legend=False)
    plotting.plot_regions(lambda P: ensembles.predict_adaboost(model, P, rounds=rounds), ax_regions, resolution=80)
    ax_regions.set(xticks=[], yticks=[], xlabel="", ylabel="", title=_learners(rounds, depth))
    t = np.arange(1, model.T + 1)
    ax_errors.plot(t, train, label="training error")
    ax_errors.plot(t, test, label="test error")
    ax_errors.plot(t, np.cumprod(model.Z), "--", label=r"bound $Z_1 \cdots Z_t$")
    ax_errors.axvline(rounds, color="0.4", lw=0.8)
    ax_errors.set_xscale("log")
    ax_errors.set(xlabel="round t", ylim=(0, 1), yticks=[0, 0.25, 0.5, 0.75, 1])
    plotting.log_ticks(ax_errors, "x")
    ax_errors.legend(frameon=False, fontsize=8)
    margins = np.sort(ensembles.normalised_margins(model, X, y, rounds=rounds))
    first = np.sort(ensembles.normalised_margins(model, X, y, rounds=1))
    share = np.arange(1, len(y) + 1) / len(y)
    ax_margins.step(first, share, where="post", color="0.7", lw=0.8, label="round 1")
    ax_margins.step(margins, share, where="post", color="C3", label=f"round {rounds}")
    ax_margins.axvline(0, color="0.4", lw=0.8)
    ax_margins.set(xlabel="normalised margin", xlim=(-1, 1), xticks=[-1, -0.5, 0, 0.5, 1], yticks=[0, 0.5, 1],
                   title="share of training points below a margin")
    ax_margins.legend(frameon=False, fontsize=8, loc="upper left")
    plt.show()
    return {"training error": float(train[rounds - 1]), "test error": float(test[rounds - 1]),
            "smallest margin": float(margins[0])}


def _learners(rounds: int, depth: int) -> str:
    plural = "" if rounds == 1 else "s"
    return f"{rounds} stump{plural}" if depth == 1 else f"{rounds} tree{plural} of depth {depth}"


def boosting_explorer():
    """Controls for lecture 13: the number of rounds (1 to 500), the base learner's depth and the data set."""
    import ipywidgets as W

    style = dict(continuous_update=False)
    rounds = W.IntSlider(value=10, min=1, max=MAX_ROUNDS, description="rounds T", **style)
    depth = W.Dropdown(options=[("1 (stumps)", 1), ("2", 2), ("3", 3)], value=1, description="depth of each learner")
    data_set = W.Dropdown(options=DATA_SETS, value="disc and ring", description="data")
    out = W.interactive_output(lambda rounds, depth, data_set: draw_boosting(min(rounds, boosted(data_set, depth)[4].T),
                                                                            data_set, depth),
                               dict(rounds=rounds, depth=depth, data_set=data_set))
    return _readable(W.VBox([W.HBox([rounds, depth, data_set]), out]))
