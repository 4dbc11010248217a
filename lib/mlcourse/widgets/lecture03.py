"""Lecture 03: the likelihood of a Gaussian sample."""

from __future__ import annotations


import matplotlib.pyplot as plt
import numpy as np

from .._checks import positive_float, positive_int
from ._common import _readable


def draw_gaussian_likelihood(mu: float, sigma2: float, n: int, seed: int, n_samples: int = 2000):
    """One frame of lecture 03's explorer: the likelihood of one Gaussian sample and the sampling
    distribution of the variance MLE.

    A sample of ``n`` points from ``N(mu, sigma2)`` drawn with ``seed``. Left: contours of its
    log-likelihood over ``(mu, sigma2)``, the MLE and the truth. Right: the variance MLE of
    ``n_samples`` other samples of size ``n``, the truth and their mean (near ``(n-1)/n sigma2``).

    Returns ``(fit, mean_of_sigma2_hat)``: the :class:`mlcourse.mle.GaussianMLE` of the sample and
    the average of the ``n_samples`` variance MLEs.
    """
    from .. import mle

    mu, sigma2 = float(mu), positive_float(sigma2, "sigma2")
    n, seed = positive_int(n, "n"), int(seed)
    if n < 2:
        raise ValueError(f"n must be at least 2 (with one point the variance MLE is 0); got {n}")
    rng = np.random.default_rng(seed)
    x = rng.normal(mu, np.sqrt(sigma2), size=n)
    fit = mle.gaussian_mle(x)
    others = rng.normal(mu, np.sqrt(sigma2), size=(n_samples, n)).var(axis=1)

    half = 4 * np.sqrt(sigma2 / n) + 0.5 * np.sqrt(sigma2)
    mus = np.linspace(mu - half, mu + half, 200)
    s2s = np.linspace(0.05 * sigma2, 3.0 * sigma2, 200)
    M, S2 = np.meshgrid(mus, s2s)
    ell = mle.gaussian_log_likelihood(M, S2, x)
    top = mle.gaussian_log_likelihood(fit.mu, max(fit.sigma2, 1e-12), x)

    fig, (ax, hist) = plt.subplots(1, 2, figsize=(11, 4.2))
    ax.contourf(M, S2, np.maximum(ell, top - 30), levels=30, cmap="Greens")
    ax.contour(M, S2, ell, levels=top - np.array([20.0, 10.0, 5.0, 2.0, 1.0, 0.5]), colors="k", linewidths=0.6,
               linestyles="solid")
    ax.plot(fit.mu, fit.sigma2, "x", color="#d95f02", ms=10, mew=2.5, label="MLE of this sample")
    ax.plot(mu, sigma2, "o", mfc="none", color="k", ms=9, mew=1.5, label="truth")
    ax.set(xlabel=r"$\mu$", ylabel=r"$\sigma^2$", xlim=(mus[0], mus[-1]), ylim=(s2s[0], s2s[-1]),
           title=f"log-likelihood of one sample, n = {n}")
    ax.legend(loc="upper right", fontsize="small")

    hist.hist(others, bins=60, range=(0, 3 * sigma2), density=True, histtype="stepfilled",   # one patch, not 60
              color="#9ecae1")
    hist.axvline(sigma2, color="k", ls="--", label=r"true $\sigma_0^2$")
    hist.axvline(others.mean(), color="#d95f02", label=r"mean of $\hat\sigma^2$")
    hist.axvline((n - 1) / n * sigma2, color="#7570b3", ls=":", lw=2, label=r"$\frac{n-1}{n}\sigma_0^2$")
    hist.set(xlabel=r"$\hat\sigma^2$", yticks=[], title=f"variance MLE over {n_samples} samples of size {n}")
    hist.legend(fontsize="small")
    fig.subplots_adjust(left=0.07, right=0.99, bottom=0.14, top=0.93, wspace=0.25)
    plt.show()
    return fit, float(others.mean())


def likelihood_explorer():
    """Sliders for lecture 03: the true mean and variance, the sample size and the sample's seed."""
    import ipywidgets as W

    mu = W.FloatSlider(value=0.0, min=-2.0, max=2.0, step=0.1, description="true mean", continuous_update=False)
    sigma2 = W.FloatSlider(value=1.0, min=0.25, max=4.0, step=0.25, description="true variance",
                           continuous_update=False)
    n = W.IntSlider(value=10, min=2, max=200, description="sample size", continuous_update=False)
    seed = W.IntSlider(value=0, min=0, max=50, description="sample seed", continuous_update=False)
    out = W.interactive_output(lambda mu, sigma2, n, seed: draw_gaussian_likelihood(mu, sigma2, n, seed),
                               dict(mu=mu, sigma2=sigma2, n=n, seed=seed))
    return _readable(W.VBox([W.HBox([mu, sigma2]), W.HBox([n, seed]), out]))
