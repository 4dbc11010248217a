"""Interactive parts of the lectures (ipywidgets on live Matplotlib plots).

Each function builds its controls and returns the widget box, so a notebook cell ends with it and
Jupyter displays it. Nothing here runs at import, so autograding never touches it.
"""

from __future__ import annotations

from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np

from . import data, perceptron
from ._checks import positive_float, positive_int
from .plotting import plot_boundary, plot_points, plot_regions


def _readable(box):
    """Give every control in ``box`` a label as wide as its text ("sample se..." was cut off at
    ipywidgets' default width), and return the box."""
    for child in getattr(box, "children", ()):
        _readable(child)
    if getattr(box, "description", "") and hasattr(box, "style") and hasattr(box.style, "description_width"):
        box.style.description_width = "initial"
    return box


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
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=2, fontsize="small")
    bar.bar(["updates so far", "updates in all", "bound"], [step, run.n_mistakes, bound],
            color=["#7570b3", "#bbbbbb", "#e7298a"])
    bar.set_title("Novikoff: mistakes $\\leq (r/\\gamma)^2$")
    bar.tick_params(axis="x", labelrotation=30)
    fig.tight_layout()
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
    W.jslink((play, "value"), (step, "value"))

    def new_data(_=None):
        _, run = _perceptron_run(round(gamma.value, 3), seed.value, n)
        step.max = play.max = max(run.n_mistakes, 1)
        step.value = play.value = 0

    gamma.observe(new_data, "value")
    seed.observe(new_data, "value")
    new_data()
    out = W.interactive_output(lambda gamma, seed, step: draw_perceptron_step(gamma, seed, step, n),
                               dict(gamma=gamma, seed=seed, step=step))
    return _readable(W.VBox([W.HBox([gamma, seed]), W.HBox([play, step]), out]))


# --------------------------------------------------------------------------- lecture 01


def draw_polynomial_fit(degree: int, n: int, seed: int, noise: float = 0.3, n_curves: int = 25):
    """One frame of lecture 01's explorer: a polynomial fit and its errors.

    ``n`` training inputs on the grid :func:`mlcourse.data.midpoint_grid`, labels
    ``sine_target(x) + noise * z`` drawn with ``seed``. Left: the truth, the sample, its
    least-squares polynomial of degree ``degree``, the fits to ``n_curves`` other samples (thin) and
    their exact mean. Right: the training and test error of this fit, and the exact expected test
    error split into noise, bias^2 and variance.

    Returns ``(train_error, test_error, terms)`` with ``terms`` a :class:`mlcourse.risk.BiasVariance`.
    """
    from . import risk

    degree, n, seed = int(degree), int(n), int(seed)
    x, y = data.noisy_sine(n, seed, noise=noise, design="grid")
    coef = risk.fit_polynomial(x, y, degree)
    train = float(np.mean((risk.predict_polynomial(coef, x) - y) ** 2))
    test = risk.squared_risk(lambda t: risk.predict_polynomial(coef, t), data.sine_target, noise)
    terms = risk.polynomial_bias_variance(degree, x, data.sine_target, noise)
    others, _ = risk.simulate_polynomial_fits(degree, x, data.sine_target, noise, n_curves, rng=seed + 10_000)
    mean_fit = risk.fit_polynomial(x, data.sine_target(x), degree)  # the fit is linear in y: E fit = fit(E y)

    grid = np.linspace(-1, 1, 300)
    fig, (ax, bar) = plt.subplots(1, 2, figsize=(10, 4.3), gridspec_kw=dict(width_ratios=[1.5, 1]))
    others_at = risk.predict_polynomial(others, grid)  # (n_curves, 300): one line, NaN between curves
    ax.plot(np.tile(np.r_[grid, np.nan], len(others_at)), np.c_[others_at, np.full(len(others_at), np.nan)].ravel(),
            color="#9ecae1", lw=0.6, alpha=0.7, label=f"fits to {n_curves} other samples")
    ax.plot(grid, data.sine_target(grid), color="k", lw=2, label="truth $f^*(x)$")
    ax.plot(grid, risk.predict_polynomial(mean_fit, grid), color="#2b8cbe", ls="--", lw=1.5,
            label=r"mean fit $\bar f(x)$")
    ax.plot(grid, risk.predict_polynomial(coef, grid), color="#d95f02", lw=2, label="fit to this sample")
    ax.scatter(x, y, s=18, color="#d95f02", edgecolor="k", linewidth=0.5, zorder=3, label="this sample")
    ax.set_xlim(-1, 1)
    ax.set_ylim(-2.2, 2.2)
    ax.set_xlabel("$x$")
    ax.set_title(f"degree {degree}, n = {n}")
    ax.legend(loc="lower left", fontsize="x-small", ncol=2)

    top = 0.8
    names = ["train\nerror", "test\nerror", "expected\ntest error"]
    bar.bar(names[:2], [min(train, top), min(test, top)], color=["#7570b3", "#e7298a"])
    bottom = 0.0
    for value, label, color in ((terms.noise, "noise", "#bbbbbb"), (terms.bias2, "bias$^2$", "#66a61e"),
                                (terms.variance, "variance", "#e6ab02")):
        bar.bar(names[2], min(value, max(top - bottom, 0)), bottom=bottom, color=color, label=label)
        bottom += value
    for i, value in enumerate([train, test, terms.expected_error]):
        text = f"{value:.3f}" if value < top else f"{value:.3g} ↑"
        bar.text(i, min(value, top) + 0.015, text, ha="center", fontsize="small")
    bar.set_ylim(0, top + 0.08)
    bar.set_ylabel("mean squared error")
    bar.legend(loc="upper left", fontsize="small")
    bar.set_title(f"bias$^2$ = {terms.bias2:.4f}, variance = {terms.variance:.4f}", fontsize="medium")
    fig.tight_layout()
    plt.show()
    return train, test, terms


def polynomial_explorer(noise: float = 0.3):
    """Sliders for the degree, the sample size and the sample's seed of lecture 01's polynomial fits."""
    import ipywidgets as W

    degree = W.IntSlider(value=3, min=0, max=12, description="degree", continuous_update=False)
    n = W.IntSlider(value=20, min=10, max=100, step=5, description="sample size", continuous_update=False)
    seed = W.IntSlider(value=0, min=0, max=50, description="sample seed", continuous_update=False)
    out = W.interactive_output(lambda degree, n, seed: draw_polynomial_fit(degree, n, seed, noise),
                               dict(degree=degree, n=n, seed=seed))
    return _readable(W.VBox([W.HBox([degree, n, seed]), out]))


# --------------------------------------------------------------------------- lecture 03


def draw_gaussian_likelihood(mu: float, sigma2: float, n: int, seed: int, n_samples: int = 2000):
    """One frame of lecture 03's explorer: the likelihood of one Gaussian sample and the sampling
    distribution of the variance MLE.

    A sample of ``n`` points from ``N(mu, sigma2)`` drawn with ``seed``. Left: contours of its
    log-likelihood over ``(mu, sigma2)``, the MLE and the truth. Right: the variance MLE of
    ``n_samples`` other samples of size ``n``, the truth and their mean (near ``(n-1)/n sigma2``).

    Returns ``(fit, mean_of_sigma2_hat)``: the :class:`mlcourse.mle.GaussianMLE` of the sample and
    the average of the ``n_samples`` variance MLEs.
    """
    from . import mle

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

    hist.hist(others, bins=60, range=(0, 3 * sigma2), density=True, color="#9ecae1")
    hist.axvline(sigma2, color="k", ls="--", label=r"true $\sigma_0^2$")
    hist.axvline(others.mean(), color="#d95f02", label=r"mean of $\hat\sigma^2$")
    hist.axvline((n - 1) / n * sigma2, color="#7570b3", ls=":", lw=2, label=r"$\frac{n-1}{n}\sigma_0^2$")
    hist.set(xlabel=r"$\hat\sigma^2$", yticks=[], title=f"variance MLE over {n_samples} samples of size {n}")
    hist.legend(fontsize="small")
    fig.tight_layout()
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


# --------------------------------------------------------------------------- lecture 04


def two_gaussian_classes(shift_x: float, shift_y: float, rho: float, spread: float, prior: float):
    """Lecture 04's explorer model: class 0 is ``N((0, 0), C)``, class 1 is
    ``N((shift_x, shift_y), spread^2 C)`` with ``C = [[1, rho], [rho, 1]]``, ``P(Y = 1) = prior``."""
    from . import bayes

    C = np.array([[1.0, rho], [rho, 1.0]])
    return bayes.gaussian_classes([[0.0, 0.0], [shift_x, shift_y]], [C, spread**2 * C], [1.0 - prior, prior])


def draw_bayes_explorer(shift_x: float, shift_y: float, rho: float, spread: float, prior: float,
                        resolution: int = 120):
    """One frame of lecture 04's explorer: two Gaussian classes, their Bayes boundary and errors.

    Left: the plane, shaded by the Bayes classifier, with contours of ``pi_k p_k(x)``, the Bayes
    boundary (solid) and the boundary of naive Bayes with the true per-feature variances (dashed).
    Right: the errors, all computed on the same grid (so none can come out below the Bayes error):
    Bayes, naive Bayes, and the best constant prediction ``min(pi_0, pi_1)``.

    Returns ``(bayes_error, naive_error, constant_error)``.
    """
    from . import bayes, mle

    model = two_gaussian_classes(float(shift_x), float(shift_y), float(rho), float(spread), float(prior))
    naive = bayes.naive_gaussian(model)
    bayes_err = bayes.classifier_error(model, lambda P: mle.predict_gaussian_classes(model, P), resolution)
    naive_err = bayes.classifier_error(model, lambda P: mle.predict_gaussian_classes(naive, P), resolution)
    constant_err = float(min(prior, 1.0 - prior))

    fig, (ax, bar) = plt.subplots(1, 2, figsize=(10, 4.6), gridspec_kw=dict(width_ratios=[1.4, 1]))
    lim = (-4.0, 6.0)
    g = np.linspace(*lim, resolution)
    gx, gy = np.meshgrid(g, g)
    P = np.c_[gx.ravel(), gy.ravel()]
    weighted = np.exp(mle.class_log_scores(model, P))
    labels = np.argmax(weighted, axis=1).reshape(gx.shape)
    ax.contourf(gx, gy, labels, levels=[-0.5, 0.5, 1.5], colors=["#d95f02", "#1b9e77"], alpha=0.15)
    for k, color in enumerate(["#d95f02", "#1b9e77"]):
        ax.contour(gx, gy, weighted[:, k].reshape(gx.shape), levels=4, colors=color, linewidths=0.7)
    score = bayes.bayes_rule(model).score(P).reshape(gx.shape)
    naive_score = bayes.bayes_rule(naive).score(P).reshape(gx.shape)
    if score.min() < 0 < score.max():
        ax.contour(gx, gy, score, levels=[0], colors="k", linewidths=2)
    if naive_score.min() < 0 < naive_score.max():
        ax.contour(gx, gy, naive_score, levels=[0], colors="#7570b3", linewidths=1.5, linestyles="--")
    ax.plot([], [], color="k", lw=2, label="Bayes boundary")
    ax.plot([], [], color="#7570b3", lw=1.5, ls="--", label="naive Bayes boundary")
    ax.set_xlim(*lim)
    ax.set_ylim(*lim)
    ax.set_aspect("equal")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.legend(loc="lower right", fontsize="small")
    kind = "linear" if spread == 1 else "quadratic"
    ax.set_title(f"$\\rho$ = {rho:.2f}, spread of class 1 = {spread:.2f}: {kind} boundary", fontsize="medium")

    values = [bayes_err, naive_err, constant_err]
    bar.bar(["Bayes", "naive Bayes", "constant"], values, color=["k", "#7570b3", "#bbbbbb"])
    for i, v in enumerate(values):
        bar.text(i, v + 0.01, f"{v:.3f}", ha="center", fontsize="small")
    bar.axhline(bayes_err, color="k", lw=0.8, ls=":")
    bar.set_ylim(0, 0.55)
    bar.set_ylabel("error $P(g(X) \\neq Y)$")
    bar.set_title(f"prior $P(Y=1)$ = {prior:.2f}", fontsize="medium")
    fig.tight_layout()
    plt.show()
    return bayes_err, naive_err, constant_err


def bayes_explorer():
    """Sliders for lecture 04's two Gaussian classes: the mean of class 1, the correlation, the
    spread of class 1 and the prior."""
    import ipywidgets as W

    style = dict(continuous_update=False)
    shift_x = W.FloatSlider(value=2.0, min=-2.0, max=4.0, step=0.25, description="mean x₁", **style)
    shift_y = W.FloatSlider(value=0.0, min=-2.0, max=4.0, step=0.25, description="mean x₂", **style)
    rho = W.FloatSlider(value=0.6, min=-0.9, max=0.9, step=0.05, description="correlation ρ", **style)
    spread = W.FloatSlider(value=1.0, min=0.4, max=2.5, step=0.1, description="spread (class 1)", **style)
    prior = W.FloatSlider(value=0.5, min=0.05, max=0.95, step=0.05, description="P(Y = 1)", **style)
    out = W.interactive_output(draw_bayes_explorer, dict(shift_x=shift_x, shift_y=shift_y, rho=rho,
                                                         spread=spread, prior=prior))
    return _readable(W.VBox([W.HBox([shift_x, shift_y, rho]), W.HBox([spread, prior]), out]))


# --------------------------------------------------------------------------- lecture 05


def knn_classes():
    """Lecture 05's two Gaussian classes: class 0 ``N((0, 0), I)``, class 1 the tighter
    ``N((1.6, 1.0), 0.3 I)``, equal priors (a closed, curved Bayes boundary)."""
    from . import bayes

    return bayes.gaussian_classes([[0.0, 0.0], [1.6, 1.0]], [np.eye(2), 0.3 * np.eye(2)], priors=[0.5, 0.5])


@lru_cache(maxsize=1)
def _knn_reference(resolution: int = 300):
    """``(R*, R_1NN)`` of :func:`knn_classes` by the midpoint rule: ``R_1NN`` integrates
    ``2 eta (1 - eta) p(x) = 2 w_0 w_1 / (w_0 + w_1)`` with ``w_k = pi_k p_k(x)``."""
    from . import bayes, mle

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
    from . import neighbours

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
    ax.set_xlim(-3.2, 4.0)
    ax.set_ylim(-3.2, 4.0)
    name = {1.0: "Manhattan", 2.0: "Euclidean"}.get(p, "max")
    ax.set_title(f"k = {k}, {name} distance, n = {n}", fontsize="medium")
    values = [train_err, test_err, r_1nn, r_star]
    bar.bar(["training", "test", "$R_{1NN}$", "$R^*$"], values, color=["#bbbbbb", "#1b9e77", "#7570b3", "k"])
    for i, v in enumerate(values):
        bar.text(i, v + 0.01, f"{v:.3f}", ha="center", fontsize="small")
    bar.set_ylim(0, 0.55)
    bar.set_ylabel("error")
    bar.set_title("errors (test: 1000 fresh points)", fontsize="medium")
    fig.tight_layout()
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
