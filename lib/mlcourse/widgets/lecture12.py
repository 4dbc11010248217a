"""Lecture 12: digits rebuilt from their first k principal components."""

from __future__ import annotations

from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np

from .. import data, pca, plotting
from .._checks import nonnegative_int
from ._common import _readable

SHOWN = 8


@lru_cache(maxsize=1)
def digits_pca() -> tuple:
    """The digits' pixels ``X`` (1797, 64), their PCA with all 64 components, and the mean squared
    reconstruction error for every ``k`` from 0 to 64 (the eigenvalues left out, summed)."""
    X = data.load_digits().X
    fit = pca.fit_pca(X)
    errors = fit.total_variance - np.concatenate([[0.0], np.cumsum(fit.variances)])
    return X, fit, np.clip(errors, 0.0, None)


def draw_reconstructions(k: int, first: int = 0) -> float:
    """One frame of lecture 12's explorer: ``SHOWN`` digits from image ``first`` on, above them rebuilt from
    their first ``k`` components (``k = 0``: the mean digit), and the mean squared reconstruction error against
    the number of components with ``k`` marked. Returns the error at ``k`` (per image, in squared pixel units)."""
    k = nonnegative_int(k, "k")
    X, fit, errors = digits_pca()
    if k > len(fit.variances):
        raise ValueError(f"k must be at most {len(fit.variances)}, the number of pixels; got {k}")
    first = nonnegative_int(first, "first")
    if first + SHOWN > len(X):
        raise ValueError(f"first must be at most {len(X) - SHOWN} so that {SHOWN} images follow it; got {first}")
    kept = pca.truncate(fit, k)
    images = X[first:first + SHOWN]
    rebuilt = pca.reconstruct(kept, pca.project(kept, images))
    fig, (ax_images, ax) = plt.subplots(1, 2, figsize=(11, 3.2), gridspec_kw=dict(width_ratios=[1.9, 1]))
    plotting.plot_image_grid(np.vstack([images, rebuilt]), ax_images, columns=SHOWN, vmin=0, vmax=16)
    ax_images.set_title(f"{SHOWN} digits (top) and their reconstructions from k = {k} component{'' if k == 1 else 's'} (bottom)",
                        fontsize="medium")
    ax.plot(np.arange(len(errors)), errors, "-", color="0.4")
    ax.plot([k], [errors[k]], "o", color="C3")
    ax.set_xlabel("components k")
    ax.set_ylabel("mean squared error per image")
    kept_share = 1 - errors[k] / errors[0]
    ax.set_title(f"k = {k}: error {errors[k]:.1f}, {100 * kept_share:.0f}% of the variance kept", fontsize="medium")
    fig.subplots_adjust(left=0.02, right=0.98, bottom=0.16, top=0.88, wspace=0.15)
    plt.show()
    return float(errors[k])


def reconstruction_explorer():
    """Controls for lecture 12: the number of components k (0 to 64) and which digits are shown."""
    import ipywidgets as W

    style = dict(continuous_update=False)
    k = W.IntSlider(value=5, min=0, max=64, description="components k", **style)
    first = W.IntSlider(value=0, min=0, max=1797 - SHOWN, step=SHOWN, description="first image", **style)
    out = W.interactive_output(lambda k, first: draw_reconstructions(k, first), dict(k=k, first=first))
    return _readable(W.VBox([W.HBox([k, first]), out]))
