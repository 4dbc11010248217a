"""Tests of ``mlcourse.plotting`` and ``mlcourse.widgets`` on the non-interactive Agg backend."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import PathCollection  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402
from matplotlib.contour import ContourSet  # noqa: E402

from mlcourse import bayes, data, perceptron, plotting, smoothing, widgets  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    plt.switch_backend("Agg")
    yield
    plt.close("all")


def new_axes(xlim=(-2.0, 3.0), ylim=(-1.0, 4.0)):
    fig, ax = plt.subplots(figsize=(4, 4), dpi=100)
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    return fig, ax


# --------------------------------------------------------------------------- plot_points


def test_plot_points_draws_one_scatter_per_class_in_the_class_style():
    X, y = data.two_gaussians(25, rng=0)
    ax = plotting.plot_points(X, y)
    scatters = [c for c in ax.collections if isinstance(c, PathCollection)]
    assert len(scatters) == 2
    by_label = {c.get_label(): c for c in scatters}
    for label, style in plotting.CLASS_STYLE.items():
        collection = by_label[style["label"]]
        np.testing.assert_array_equal(collection.get_offsets(), X[y == label])
        np.testing.assert_allclose(collection.get_facecolor()[0], to_rgba(style["color"]))
    legend = ax.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == [plotting.CLASS_STYLE[k]["label"] for k in (-1, 1)]


def test_plot_points_uses_the_given_axes_and_can_skip_the_legend():
    fig, ax = plt.subplots()
    out = plotting.plot_points([[0.0, 1.0], [1.0, 0.0]], [1, -1], ax=ax, legend=False)
    assert out is ax
    assert ax.get_legend() is None
    assert len(fig.axes) == 1


def test_plot_points_names_the_axes_and_keeps_markers_off_the_frame():
    X, y = data.xor_square()  # the corners of the unit square
    ax = plotting.plot_points(X, y)
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("$x_1$", "$x_2$")
    (x_lo, x_hi), (y_lo, y_hi) = ax.get_xlim(), ax.get_ylim()
    margin = min(X[:, 0].min() - x_lo, x_hi - X[:, 0].max(), X[:, 1].min() - y_lo, y_hi - X[:, 1].max())
    assert margin >= 0.1 * (X.max() - X.min())  # at least a tenth of the extent around the points
    ax = plotting.plot_points(X, y, plt.subplots()[1], xlabel="feature 1", ylabel=None)
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("feature 1", "")


@pytest.mark.parametrize("build", ["perceptron_stepper", "polynomial_explorer", "likelihood_explorer",
                                   "bayes_explorer", "knn_explorer", "regularisation_explorer", "bandwidth_explorer",
                                   "sample_size_explorer", "boosting_explorer"])
def test_every_control_label_is_shown_whole(build):
    """ipywidgets cuts a description longer than its default width ("sample se..."); 'initial' fits it."""
    box = getattr(widgets, build)()
    controls, todo = [], [box]
    while todo:
        w = todo.pop()
        todo.extend(getattr(w, "children", ()))
        if getattr(w, "description", ""):
            controls.append(w)
    assert controls
    assert all(c.style.description_width == "initial" for c in controls), [
        c.description for c in controls if c.style.description_width != "initial"]


@pytest.mark.parametrize(
    "X, y, pattern",
    [
        (np.zeros((4, 3)), np.ones(4), r"plot_points draws 2-d points; X has shape \(4, 3\)"),
        (np.zeros((4, 1)), np.ones(4), r"X has shape \(4, 1\)"),
        (np.zeros(4), np.ones(4), r"^X must be a 2-d array"),
        (np.zeros((4, 2)), np.ones(3), r"^y must have shape \(4,\)"),
        (np.zeros((4, 2)), np.array([0, 1, 1, 1]), r"^y must hold labels"),
    ],
)
def test_plot_points_rejects_bad_input(X, y, pattern):
    with pytest.raises(ValueError, match=pattern):
        plotting.plot_points(X, y)


# --------------------------------------------------------------------------- plot_boundary


@pytest.mark.parametrize(
    "w",
    [(0.5, 1.0, -2.0),  # flat line: drawn across the x range
     (0.5, 3.0, 1.0),  # steep line: drawn across the y range
     (-1.0, 0.0, 1.0),  # horizontal y = 1
     (-1.0, 1.0, 0.0)],  # vertical x = 1
)
def test_plot_boundary_with_bias_draws_the_zero_line(w):
    fig, ax = new_axes()
    limits = ax.get_xlim(), ax.get_ylim()
    line = plotting.plot_boundary(np.array(w), ax)
    assert line in ax.lines
    xs, ys = line.get_xdata(), line.get_ydata()
    assert len(xs) == 2
    b, w1, w2 = w
    np.testing.assert_allclose(b + w1 * xs + w2 * ys, 0.0, atol=1e-12)
    assert (ax.get_xlim(), ax.get_ylim()) == limits  # the view is not changed
    # the segment spans the visible range along the axis it is parametrised by
    if abs(w2) >= abs(w1):
        np.testing.assert_allclose(sorted(xs), limits[0])
    else:
        np.testing.assert_allclose(sorted(ys), limits[1])


def test_plot_boundary_without_bias_passes_through_the_origin():
    fig, ax = new_axes((-1, 1), (-1, 1))
    line = plotting.plot_boundary([2.0, 1.0], ax, bias=False)
    xs, ys = line.get_xdata(), line.get_ydata()
    np.testing.assert_allclose(2.0 * xs + 1.0 * ys, 0.0, atol=1e-12)
    # the line through the origin: the points are collinear with 0
    assert xs[0] * ys[1] - xs[1] * ys[0] == pytest.approx(0.0, abs=1e-12)


def test_plot_boundary_passes_the_line_style_on():
    fig, ax = new_axes()
    default = plotting.plot_boundary([0.0, 1.0, 1.0], ax)
    assert to_rgba(default.get_color()) == to_rgba("k")
    styled = plotting.plot_boundary([0.0, 1.0, 1.0], ax, color="r", linestyle="--", label="w")
    assert to_rgba(styled.get_color()) == to_rgba("r")
    assert styled.get_linestyle() == "--" and styled.get_label() == "w"


def test_plot_boundary_of_the_zero_vector_draws_nothing():
    fig, ax = new_axes()
    assert plotting.plot_boundary([1.0, 0.0, 0.0], ax) is None
    assert plotting.plot_boundary([0.0, 0.0], ax, bias=False) is None
    assert len(ax.lines) == 0


@pytest.mark.parametrize("w, bias", [([1.0, 2.0], True), ([1.0, 2.0, 3.0], False), ([[1.0, 2.0, 3.0]], True)])
def test_plot_boundary_rejects_a_w_of_the_wrong_shape(w, bias):
    fig, ax = new_axes()
    with pytest.raises(ValueError, match=r"^w "):
        plotting.plot_boundary(w, ax, bias=bias)


# --------------------------------------------------------------------------- plot_regions


def _pixel(fig, ax, point):
    """RGB (0..1) of the rendered figure at a data point of ``ax``."""
    fig.canvas.draw()
    image = np.asarray(fig.canvas.buffer_rgba())
    x_disp, y_disp = ax.transData.transform(point)
    row, col = image.shape[0] - int(round(y_disp)), int(round(x_disp))
    return image[row, col, :3] / 255.0


def test_plot_regions_shades_each_side_in_its_class_colour():
    fig, ax = new_axes((-1.0, 1.0), (-1.0, 1.0))
    seen = []

    def predict(P):
        seen.append(P.copy())
        # the lifted linear classifier with boundary x1 = 0.2 (w = (-0.2, 1, 0))
        return perceptron.predict([-0.2, 1.0, 0.0], perceptron.add_bias(P))

    alpha = 0.3
    out = plotting.plot_regions(predict, ax, resolution=60, alpha=alpha)
    assert out is ax
    # predict is called once on the whole grid spanning the current limits
    assert len(seen) == 1 and seen[0].shape == (60 * 60, 2)
    np.testing.assert_allclose(seen[0].min(axis=0), [-1.0, -1.0])
    np.testing.assert_allclose(seen[0].max(axis=0), [1.0, 1.0])
    assert ax.get_xlim() == (-1.0, 1.0) and ax.get_ylim() == (-1.0, 1.0)
    contours = [c for c in ax.collections if isinstance(c, ContourSet)]
    assert len(contours) == 1 and contours[0].filled
    # rendered colours: the class colour blended with alpha over the white background
    for point, label in [((0.7, 0.5), 1), ((-0.6, -0.4), -1), ((0.5, -0.8), 1), ((-0.1, 0.9), -1)]:
        expected = alpha * np.array(to_rgba(plotting.CLASS_STYLE[label]["color"])[:3]) + (1 - alpha)
        np.testing.assert_allclose(_pixel(fig, ax, point), expected, atol=3 / 255)


# --------------------------------------------------------------------------- widgets


def _independent_run(gamma, seed, n=40):
    sample = data.separable_with_margin(n, 2, gamma, rng=seed)
    run = perceptron.train_perceptron(sample.X, sample.y)
    R = np.linalg.norm(sample.X, axis=1).max()
    gamma_w = (sample.y * (sample.X @ sample.w_star)).min() / np.linalg.norm(sample.w_star)
    return run.n_mistakes, (R / gamma_w) ** 2


@pytest.mark.parametrize("gamma, seed", [(0.05, 0), (0.2, 3), (0.4, 11)])
def test_draw_perceptron_step_returns_mistakes_and_the_novikoff_bound(gamma, seed):
    expected_mistakes, expected_bound = _independent_run(gamma, seed)
    for step in (0, 1, expected_mistakes, expected_mistakes + 50):  # past the end is clamped
        plt.close("all")
        mistakes, bound = widgets.draw_perceptron_step(gamma, seed, step)
        assert mistakes == expected_mistakes
        assert bound == pytest.approx(expected_bound)
        assert mistakes <= bound
        fig = plt.gcf()
        plane, bars = fig.axes
        shown = min(step, mistakes)
        # w = 0 misclassifies every point; the final w misclassifies none
        if shown == 0:
            assert "40 of 40 points misclassified" in plane.get_title()
        if shown == mistakes:
            assert "0 of 40 points misclassified" in plane.get_title()
        heights = [p.get_height() for p in bars.patches]
        assert heights == pytest.approx([shown, mistakes, bound])


def test_perceptron_stepper_builds_and_follows_the_margin_slider():
    import ipywidgets as W

    box = widgets.perceptron_stepper()
    assert isinstance(box, W.VBox)
    (gamma, seed), (play, step) = box.children[0].children, box.children[1].children
    assert isinstance(gamma, W.FloatSlider) and isinstance(seed, W.IntSlider)
    assert isinstance(play, W.Play) and isinstance(step, W.IntSlider)
    assert isinstance(box.children[2], W.Output)

    expected, _ = _independent_run(round(gamma.value, 3), seed.value)
    assert step.max == play.max == max(expected, 1)

    step.value = step.max
    for new_gamma in (0.3, 0.04, 0.5):
        gamma.value = new_gamma
        expected, _ = _independent_run(new_gamma, seed.value)
        assert step.max == play.max == max(expected, 1)
        assert step.value == 0  # a new run starts from its first update

    seed.value = 7
    expected, _ = _independent_run(round(gamma.value, 3), 7)
    assert step.max == max(expected, 1)


def test_perceptron_stepper_draws_each_update_once_and_play_moves_the_slider(monkeypatch):
    drawn = []
    monkeypatch.setattr(widgets.lecture02, "draw_perceptron_step", lambda gamma, seed, step, n: drawn.append((gamma, seed, step)))
    box = widgets.perceptron_stepper()
    (gamma, seed), (play, step) = box.children[0].children, box.children[1].children
    assert drawn == [(gamma.value, 0, 0)]
    play.value = 1
    assert step.value == 1 and drawn[-1] == (gamma.value, 0, 1)
    del drawn[:]
    gamma.value = 0.3  # a new run: drawn once, from its first update, and play starts again there
    assert drawn == [(0.3, 0, 0)] and step.value == play.value == 0


# --------------------------------------------------------------------------- lecture 05


@pytest.mark.parametrize("k, p, n", [(1, 2.0, 50), (15, 1.0, 200), (199, float("inf"), 100)])
def test_draw_knn_explorer_reports_the_errors_of_an_independent_knn(k, p, n):
    from sklearn.neighbors import KNeighborsClassifier

    X, y, X_test, y_test = widgets.lecture05._knn_sample(n, 3)
    train_err, test_err = widgets.draw_knn_explorer(k, p, n, seed=3, resolution=20)
    plt.close("all")
    k = min(k, n)
    if k % 2 == 1:  # an odd vote of two labels cannot tie, so scikit-learn's rule is the course's
        model = KNeighborsClassifier(n_neighbors=k, p=p, algorithm="brute").fit(X, y)
        assert test_err == pytest.approx(np.mean(model.predict(X_test) != y_test))
        assert train_err == pytest.approx(np.mean(model.predict(X) != y))
    assert k > 1 or train_err == 0.0


def test_knn_reference_errors_obey_cover_and_hart():
    r_star, r_1nn = widgets.lecture05._knn_reference()
    model = widgets.knn_classes()
    assert r_star == pytest.approx(bayes.bayes_error_gaussian(model), abs=1e-4)
    assert r_star < r_1nn < 2 * r_star * (1 - r_star)
    rng = np.random.default_rng(0)  # Monte Carlo of E[2 eta (1 - eta)]
    X, _ = data.sample_gaussian_classes(model, 200_000, rng)
    from mlcourse import mle

    eta = np.exp(mle.log_posterior(model, X))[:, 1]
    assert r_1nn == pytest.approx(np.mean(2 * eta * (1 - eta)), abs=3e-3)


def test_draw_kernel_perceptron_reports_what_a_plain_perceptron_on_the_explicit_map_gets():
    from mlcourse import kernels

    X, y, X_test, y_test = widgets.lecture06._kernel_sample("disc and ring", 60, 2)
    run, train_err, test_err = widgets.draw_kernel_perceptron("disc and ring", "polynomial", 2, n=60, seed=2,
                                                              resolution=20)
    primal = perceptron.train_perceptron(kernels.polynomial_features(X, 2), y, max_epochs=100)
    w = (run.alpha * y) @ kernels.polynomial_features(X, 2)
    np.testing.assert_allclose(w, primal.w, rtol=1e-9, atol=1e-9)
    assert train_err == pytest.approx(np.mean(perceptron.predict(primal.w, kernels.polynomial_features(X, 2)) != y))
    assert test_err == pytest.approx(np.mean(perceptron.predict(primal.w, kernels.polynomial_features(X_test, 2)) != y_test))


def test_kernel_explorer_a_line_never_separates_the_ring_and_a_gaussian_fits_the_xor():
    run, train_err, _ = widgets.draw_kernel_perceptron("disc and ring", "polynomial", 1, max_epochs=30, resolution=20)
    assert not run.converged and train_err > 0.2
    run, train_err, test_err = widgets.draw_kernel_perceptron("exclusive or", "gaussian", 0.5, resolution=20)
    assert run.converged and train_err == 0.0 and test_err < 0.15
    assert set(run.support) == set(np.flatnonzero(run.alpha))


@pytest.mark.parametrize("call, pattern", [
    (lambda: widgets.draw_kernel_perceptron("moons", "gaussian", 1.0), "data_set must be one of"),
    (lambda: widgets.draw_kernel_perceptron("exclusive or", "sigmoid", 1.0), "kind must be"),
    (lambda: widgets.draw_kernel_perceptron("exclusive or", "gaussian", -1.0), "sigma"),
])
def test_kernel_explorer_names_bad_input(call, pattern):
    with pytest.raises(ValueError, match=pattern):
        call()


@pytest.mark.parametrize("data_set, kind, sigma, C", [("two overlapping clouds", "linear", 0.0, 1.0),
                                                      ("exclusive or", "gaussian", 0.5, 10.0),
                                                      ("disc and ring", "gaussian", 1.0, 0.1)])
def test_draw_svm_reports_what_libsvm_gets(data_set, kind, sigma, C):
    from sklearn.svm import SVC

    X, y, X_test, y_test = widgets.lecture07._svm_sample(data_set, 100, 4)
    run, train_err, test_err = widgets.draw_svm(data_set, kind, sigma, C, seed=4, resolution=20)
    options = dict(kernel="linear") if kind == "linear" else dict(kernel="rbf", gamma=0.5 / sigma**2)
    model = SVC(C=C, tol=1e-3, **options).fit(X, y)
    assert train_err == pytest.approx(np.mean(model.predict(X) != y), abs=0.021)
    assert test_err == pytest.approx(np.mean(model.predict(X_test) != y_test), abs=0.011)
    assert abs(len(run.support) - len(model.support_)) <= 2
    circles = [c for c in plt.gcf().axes[0].collections if isinstance(c, PathCollection) and len(c.get_offsets())
               and not np.any(c.get_facecolors()[:, 3] > 0)]
    assert sum(len(c.get_offsets()) for c in circles) == len(run.support)


@pytest.mark.parametrize("call, pattern", [
    (lambda: widgets.draw_svm("moons", "linear", 0.0, 1.0), "data_set must be one of"),
    (lambda: widgets.draw_svm("exclusive or", "poly", 1.0, 1.0), "kind must be"),
    (lambda: widgets.draw_svm("exclusive or", "linear", 0.0, -1.0), "C must be > 0"),
])
def test_svm_explorer_names_bad_input(call, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        call()


def _lecture08_features(n, seed):
    """The explorer's sample with its standardised features P_1, ..., P_12 built here from NumPy's
    Legendre class (not the module's legvander), to check the frame against."""
    from numpy.polynomial import Legendre

    x, y, x_test, y_test, _, _ = widgets.lecture08._polynomial_sample(n, seed)
    raw = lambda t: np.column_stack([Legendre.basis(j)(t) for j in range(1, 13)])
    mean, scale = raw(x).mean(axis=0), raw(x).std(axis=0)
    return x, y, y_test, lambda t: (raw(t) - mean) / scale, (raw(x_test) - mean) / scale


def _fit_line(ax, name):
    (line,) = [line for line in ax.lines if line.get_label() == f"{name} fit"]
    return line


def test_draw_penalties_shows_the_fits_it_reports():
    """Against fit_ridge and fit_lasso on features built independently, against scikit-learn (its Lasso
    divides the squared error by n: alpha = lam / n), and against the plotted curves, bars and titles."""
    from sklearn.linear_model import Lasso, Ridge

    from mlcourse import regression

    x, y, y_test, features, F_test = _lecture08_features(30, 3)
    F = features(x)
    for lam in (1e-3, 0.3, 30.0):
        ridge, lasso, ridge_error, lasso_error = widgets.draw_penalties(lam, seed=3)
        np.testing.assert_allclose(ridge.w, regression.fit_ridge(F, y, lam).w, rtol=1e-8, atol=1e-10)
        np.testing.assert_allclose(lasso.w, regression.fit_lasso(F, y, lam, tol=1e-10, max_sweeps=20_000).w, atol=1e-5)
        np.testing.assert_allclose(ridge.w, Ridge(alpha=lam).fit(F, y).coef_, rtol=1e-6, atol=1e-8)
        reference = Lasso(alpha=lam / 30, tol=1e-10, max_iter=100_000).fit(F, y)
        np.testing.assert_allclose(lasso.w, reference.coef_, atol=1e-4)
        # the test errors reported are those of independent fits on the 500 fresh points
        ridge_reference = Ridge(alpha=lam).fit(F, y)
        assert ridge_error == pytest.approx(np.mean((ridge_reference.predict(F_test) - y_test) ** 2), rel=1e-6)
        assert lasso_error == pytest.approx(np.mean((reference.predict(F_test) - y_test) ** 2), rel=1e-3)
        fig = plt.gcf()
        for ax, fit, name in ((fig.axes[0], ridge, "ridge"), (fig.axes[1], lasso, "lasso")):
            line = _fit_line(ax, name)
            np.testing.assert_allclose(line.get_ydata(), features(line.get_xdata()) @ fit.w + fit.b, atol=1e-8)
        bars = [[p.get_height() for p in ax.patches] for ax in fig.axes[2:]]
        np.testing.assert_allclose(bars, [ridge.w, lasso.w])
        assert f"test error {ridge_error:.3f}" in fig.axes[0].get_title()
        assert f"test error {lasso_error:.3f}, {np.count_nonzero(lasso.w)} of 12 non-zero" in fig.axes[1].get_title()
        plt.close("all")


def test_the_lasso_drops_coefficients_as_the_penalty_grows_and_ridge_does_not():
    """Over the slider's range: the lasso from all 12 features to none (its exact zeros marked on the
    axis), ridge keeping all 12."""
    counts = []
    for lam in np.geomspace(*widgets.lecture08.LAMBDA_RANGE, 7):
        ridge, lasso, _, _ = widgets.draw_penalties(lam)
        counts.append(np.count_nonzero(lasso.w))
        assert np.count_nonzero(ridge.w) == 12
        marked = [line for line in plt.gcf().axes[3].lines if line.get_label() == "exactly 0"]
        assert sum(len(line.get_xdata()) for line in marked) == 12 - counts[-1]
        if marked:
            np.testing.assert_array_equal(marked[0].get_xdata(), np.flatnonzero(lasso.w == 0) + 1)
            np.testing.assert_array_equal(marked[0].get_ydata(), 0)
        assert not [line for line in plt.gcf().axes[2].lines if line.get_label() == "exactly 0"]
        plt.close("all")
    assert counts[0] == 12 and counts[-1] == 0 and counts == sorted(counts, reverse=True)
    assert 0 < counts[3] < 12


def test_the_penalty_slider_goes_from_least_squares_to_flat_lines():
    """Both ends teach: at the smallest λ both fits are least squares (the wiggliest curve, the smallest
    training error); at the largest both are (nearly) flat at the mean of y; between, the lasso's test error
    is below both ends'."""
    from mlcourse import regression

    low, high = widgets.lecture08.LAMBDA_RANGE
    x, y, _, features, _ = _lecture08_features(30, 0)
    least_squares = regression.fit_ridge(features(x), y, 0.0)
    ridge, lasso, ridge_low, lasso_low = widgets.draw_penalties(low)
    for fit in (ridge, lasso):
        np.testing.assert_allclose(fit.w, least_squares.w, atol=1e-3)
    grid = np.linspace(-1, 1, 200)
    truth_range = np.ptp(widgets.lecture08._truth(grid))
    ridge, lasso, ridge_high, lasso_high = widgets.draw_penalties(high)
    assert np.ptp(features(grid) @ ridge.w) < 0.15 * truth_range
    assert not lasso.w.any() and lasso.b == pytest.approx(y.mean())
    assert ridge.b == pytest.approx(y.mean())
    middle = [widgets.draw_penalties(lam)[3] for lam in (0.3, 1.0, 3.0)]
    assert min(middle) < min(lasso_low, lasso_high)
    assert max(ridge_low, lasso_low) < min(ridge_high, lasso_high)   # the flat end underfits


def test_draw_penalties_keeps_the_coefficient_scale_as_lambda_moves():
    """Ridge's and the lasso's bars on one y-scale, the same for every λ of a sample (so a student sees
    them shrink), holding every bar; λ written plainly in the titles."""
    limits = set()
    for lam, text in ((1e-3, "λ = 0.001:"), (10 ** -2.75, "λ = 0.00178:"), (0.56, "λ = 0.56:"), (1e3, "λ = 1000:")):
        ridge, lasso, _, _ = widgets.draw_penalties(lam)
        fig = plt.gcf()
        assert fig.axes[2].get_ylim() == fig.axes[3].get_ylim()
        lo, hi = fig.axes[2].get_ylim()
        assert lo < min(ridge.w.min(), lasso.w.min()) and max(ridge.w.max(), lasso.w.max()) < hi
        limits.add((lo, hi))
        assert all(text in ax.get_title() for ax in fig.axes[:2]), [ax.get_title() for ax in fig.axes[:2]]
        plt.close("all")
    assert len(limits) == 1


def test_regularisation_explorer_builds_and_redraws_on_its_controls(monkeypatch):
    import ipywidgets as W

    calls = []
    monkeypatch.setattr(widgets.lecture08, "draw_penalties", lambda lam, seed=0: calls.append((lam, seed)))
    box = widgets.regularisation_explorer()
    (lam, seed), out = box.children[0].children, box.children[1]
    assert isinstance(lam, W.FloatLogSlider) and isinstance(seed, W.IntSlider) and isinstance(out, W.Output)
    assert (lam.base ** lam.min, lam.base ** lam.max) == pytest.approx(widgets.lecture08.LAMBDA_RANGE)
    assert calls == [(pytest.approx(0.01), 0)]
    lam.value = 100.0
    seed.value = 4
    assert calls[1:] == [(pytest.approx(100.0), 0), (pytest.approx(100.0), 4)]


@pytest.mark.parametrize("call, pattern", [
    (lambda: widgets.draw_penalties(0.0), "lam must be a finite number > 0; got 0.0"),
    (lambda: widgets.draw_penalties(float("nan")), "lam must be a finite number > 0; got nan"),
    (lambda: widgets.draw_penalties("big"), "lam must be a number; got str"),
    (lambda: widgets.draw_penalties(1.0, n=0), r"n must be at least 2 \(standardising .*\); got 0"),
    (lambda: widgets.draw_penalties(1.0, n=1), "n must be at least 2"),
    (lambda: widgets.draw_penalties(1.0, n=30.0), "n must be an integer; got float"),
])
def test_penalty_explorer_names_bad_input(call, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        call()


@pytest.mark.parametrize("kernel", ["gaussian", "epanechnikov", "box"])
def test_draw_bandwidth_shows_the_estimate_and_the_loo_error_it_reports(kernel):
    """The curve drawn is the estimate returned; the LOO error is the one got by refitting n times."""
    x, y = widgets.lecture09._sample(80, 2)
    estimate, loo = widgets.draw_bandwidth(0.08, kernel, seed=2)
    np.testing.assert_allclose(plt.gcf().axes[0].lines[-1].get_ydata(), estimate)
    refit = [y[i] - smoothing.nadaraya_watson(np.delete(x, i, 0), np.delete(y, i), x[i:i + 1], 0.08, kernel)[0]
             for i in range(80)]
    assert loo == pytest.approx(np.mean(np.square(refit)), rel=1e-9)
    assert f"{loo:.3f}" in plt.gcf().axes[1].get_title()


def test_draw_bandwidth_says_when_leaving_out_is_undefined():
    _, loo = widgets.draw_bandwidth(0.004, "box", seed=2)
    assert np.isnan(loo) and "undefined" in plt.gcf().axes[1].get_title()


@pytest.mark.parametrize("call, pattern", [
    (lambda: widgets.draw_bandwidth(0.0), "h must be a finite number > 0"),
    (lambda: widgets.draw_bandwidth(0.1, "cosine"), "kernel must be one of"),
    (lambda: widgets.draw_bandwidth(0.1, n=0), "n must be at least 1"),
])
def test_bandwidth_explorer_names_bad_input(call, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        call()


def test_draw_sample_sizes_reports_the_calculators_and_the_bound_holds_at_its_m():
    from mlcourse import pac

    realizable, agnostic, vc, rate = widgets.draw_sample_sizes(0.1, 0.1, 101, 2)
    assert (realizable, agnostic, vc) == (pac.realizable_sample_size(0.1, 0.1, 101), pac.agnostic_sample_size(0.1, 0.1, 101),
                                          pac.vc_sample_size(0.1, 0.1, 2))
    assert rate <= 0.1 < widgets.lecture10.threshold_failure_rate(max(1, realizable // 8), 0.1, 101)
    assert f"{rate:.3f} at n = {realizable}" in plt.gcf().axes[1].get_title()


@pytest.mark.parametrize("call, pattern", [
    (lambda: widgets.draw_sample_sizes(0.0, 0.1, 10, 1), "eps must be strictly between 0 and 1"),
    (lambda: widgets.draw_sample_sizes(0.1, 1.5, 10, 1), "delta must be strictly between 0 and 1"),
    (lambda: widgets.draw_sample_sizes(0.1, 0.1, 0, 1), "class_size must be at least 1"),
    (lambda: widgets.draw_sample_sizes(0.1, 0.1, 10, -1), "vc_dim must be an integer >= 0"),
])
def test_sample_size_explorer_names_bad_input(call, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        call()


def test_plot_dendrogram_keeps_branches_together_and_draws_every_merge():
    Z = np.array([[0, 3, 0.5, 2], [1, 2, 0.7, 2], [4, 5, 2.0, 4]])          # {0, 3} and {1, 2}, then all
    fig, ax = plt.subplots()
    order = plotting.plot_dendrogram(Z, ax, colours=["C0", "C1", "C1", "C0"])
    assert order == [0, 3, 1, 2]
    assert len(ax.lines) == 3
    assert [max(line.get_ydata()) for line in ax.lines] == [0.5, 0.7, 2.0]
    assert ax.lines[0].get_color() == "C0" and ax.lines[2].get_color() == "0.35"
    plt.close(fig)
    with pytest.raises(ValueError, match="linkage matrix of shape"):
        plotting.plot_dendrogram(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="one colour per point"):
        plotting.plot_dendrogram(Z, colours=["C0"])


def test_plot_gaussian_ellipses_pass_through_the_contour_points():
    """Points at mean + r sqrt(lambda) v (v an eigenvector) lie on the drawn ellipse of radius r."""
    rng = np.random.default_rng(0)
    A = rng.standard_normal((2, 2))
    cov, mean = A @ A.T + 0.1 * np.eye(2), np.array([1.0, -2.0])
    fig, ax = plt.subplots()
    plotting.plot_gaussian_ellipses(mean, cov, ax, n_std=(1, 2))
    lam, V = np.linalg.eigh(cov)
    for patch, r in zip(ax.patches, (1, 2)):
        for j in (0, 1):
            point = mean + r * np.sqrt(lam[j]) * V[:, j]
            inside = patch.get_transform().inverted().transform(ax.transData.transform(point))  # the unit circle
            assert np.hypot(*inside) == pytest.approx(1.0, rel=1e-6)
    plt.close(fig)
    with pytest.raises(ValueError, match="positive semidefinite"):
        plotting.plot_gaussian_ellipses(mean, -np.eye(2))


def test_draw_em_step_follows_em_and_the_figure_moves():
    from mlcourse.widgets import lecture11

    values = [widgets.draw_em_step(3, "random", t, seed=2) for t in (0, 1, 2, 10, 40)]
    assert all(a <= b + 1e-9 for a, b in zip(values, values[1:]))
    ax = plt.gcf().axes[0]
    assert len(ax.patches) == 6 and "after 40 iterations" in ax.get_title()
    widgets.draw_em_step(3, "random", 0, seed=2)
    first = [p.center for p in plt.gcf().axes[0].patches]
    widgets.draw_em_step(3, "random", 5, seed=2)
    assert not np.allclose(first, [p.center for p in plt.gcf().axes[0].patches])
    states = lecture11.em_states(3, "random", 2)
    assert len(states) == lecture11.ITERATIONS + 1 and values[-1] == pytest.approx(states[-1][4])
    plt.close("all")


def test_em_explorer_plays_each_frame_before_its_slider_shows_the_number(monkeypatch):
    """The play button steps the iteration from the kernel: the frame of iteration t is drawn before the
    slider's number t reaches the browser (linked in the browser, the number came a frame early)."""
    import ipywidgets as W
    from mlcourse.widgets import lecture11

    log = []
    monkeypatch.setattr(lecture11, "draw_em_step", lambda k, init, iteration, seed: log.append(("drawn", k, iteration)))
    box = widgets.em_explorer()
    (play, iteration), (k, _, _) = box.children[0].children, box.children[1].children
    assert isinstance(play, W.Play) and (play.min, play.max) == (iteration.min, iteration.max) == (0, lecture11.ITERATIONS)
    send = iteration.send_state
    monkeypatch.setattr(iteration, "send_state", lambda key=None: (log.append(("slider shows", iteration.value)), send(key)))
    assert log == [("drawn", 3, 0)]
    for t in (1, 2, 3):  # the browser's play button moves its own value
        play.value = t
    assert log[1:] == [("drawn", 3, 1), ("slider shows", 1), ("drawn", 3, 2), ("slider shows", 2),
                       ("drawn", 3, 3), ("slider shows", 3)]
    del log[:]
    iteration.value = 30  # the student drags the slider: one frame, and play goes on from there
    assert log == [("slider shows", 30), ("drawn", 3, 30)] and play.value == 30
    del log[:]
    k.value = 2
    assert log == [("drawn", 2, 30)]


@pytest.mark.parametrize("call, pattern", [
    (lambda: widgets.draw_em_step(0, "random", 0), "k must be at least 1"),
    (lambda: widgets.draw_em_step(2, "far", 0), "init must be one of"),
    (lambda: widgets.draw_em_step(2, "random", 41), "iteration must be an integer from 0 to 40"),
])
def test_em_explorer_names_bad_input(call, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        call()


@pytest.mark.parametrize("value, label", [(1e-4, "10⁻⁴"), (0.01, "10⁻²"), (1.0, "1"), (10.0, "10¹"), (1e12, "10¹²"),
                                          (0.5, "0.5"), (2e5, "200000"), (0.0, ""), (-1.0, "")])
def test_power_of_ten_label(value, label):
    assert plotting.power_of_ten_label(value) == label


def test_log_ticks_keeps_the_powers_of_ten_drops_the_minor_ticks_and_reads_back():
    fig, ax = plt.subplots()
    ax.loglog([1e-4, 1e2], [1.0, 1e5])
    plotting.log_ticks(ax)
    fig.canvas.draw()
    for axis in (ax.xaxis, ax.yaxis):
        assert axis.get_minorticklocs().size == 0
        low, high = axis.get_view_interval()
        shown = [(loc, t.get_text()) for loc, t in zip(axis.get_majorticklocs(), axis.get_majorticklabels()) if low <= loc <= high]
        assert len(shown) >= 4
        for loc, text in shown:                                  # each label is its tick's value, read back
            assert "$" not in text
            exponent = text[2:].translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")) if text.startswith("10") else "0"
            assert 10.0 ** int(exponent) == pytest.approx(loc)
    assert ax.get_xscale() == "log" and ax.get_xlim()[0] < 1e-3          # the scale and the data are untouched


def test_log_ticks_on_a_short_axis_ticks_1_2_5_and_names_bad_input():
    fig, ax = plt.subplots()
    ax.semilogx([0.05, 3.0], [1.0, 2.0])
    plotting.log_ticks(ax, "x")
    fig.canvas.draw()
    low, high = ax.xaxis.get_view_interval()
    texts = [t.get_text() for loc, t in zip(ax.get_xticks(), ax.get_xticklabels()) if low <= loc <= high]
    assert texts == ["0.05", "0.1", "0.2", "0.5", "1", "2"]
    fig2, both = plt.subplots()                                  # each axis gets its own style
    both.loglog([0.01, 0.5], [10.0, 1e8])
    plotting.log_ticks(both)
    fig2.canvas.draw()
    assert "0.1" in [t.get_text() for t in both.get_xticklabels()]           # not 10⁻¹
    assert "10⁶" in [t.get_text() for t in both.get_yticklabels()]
    with pytest.raises(ValueError, match="the y axis is not on a log scale"):
        plotting.log_ticks(ax, "y")
    with pytest.raises(ValueError, match='which must be "x", "y" or "both"'):
        plotting.log_ticks(ax, "z")


def test_plot_image_grid_places_every_image_and_leaves_gaps():
    images = np.arange(5 * 6, dtype=float).reshape(5, 6)            # five 2 x 3 images
    fig, ax = plt.subplots()
    shown = plotting.plot_image_grid(images, ax, columns=2, shape=(2, 3))
    grid = np.asarray(shown.get_array().filled(np.nan))
    assert grid.shape == (3 * 3 - 1, 2 * 4 - 1)
    for t, image in enumerate(images):
        r, c = divmod(t, 2)
        np.testing.assert_array_equal(grid[3 * r: 3 * r + 2, 4 * c: 4 * c + 3], image.reshape(2, 3))
    assert np.isnan(grid[2]).all() and np.isnan(grid[:, 3]).all() and np.isnan(grid[6:, 4:]).all()   # gaps, the empty sixth place
    plt.close(fig)
    with pytest.raises(ValueError, match=r"images must have shape \(m, 64\)"):
        plotting.plot_image_grid(np.zeros((3, 63)))
    with pytest.raises(ValueError, match="columns must be an integer"):
        plotting.plot_image_grid(np.zeros((3, 64)), columns=0)


def test_draw_reconstructions_follows_the_eigenvalues_and_the_images_change():
    from mlcourse import data, pca

    X = data.load_digits().X
    errors = [widgets.draw_reconstructions(k) for k in (0, 1, 5, 30, 64)]
    assert errors[0] == pytest.approx(np.trace(pca.covariance(X)))               # k = 0: every image is the mean
    assert all(a > b for a, b in zip(errors[:-2], errors[1:-1])) and errors[-1] == pytest.approx(0, abs=1e-9)
    fit = pca.fit_pca(X, 5)
    assert errors[2] == pytest.approx(pca.reconstruction_error(fit, X))           # what the curve shows is the real error
    grid = lambda: np.asarray(plt.gcf().axes[0].images[0].get_array().filled(np.nan))
    widgets.draw_reconstructions(2, first=16)
    before = grid()
    assert "k = 2 components" in plt.gcf().axes[0].get_title()
    np.testing.assert_array_equal(before[:8, :8], X[16].reshape(8, 8))              # the first original shown
    widgets.draw_reconstructions(20, first=16)
    after = grid()
    np.testing.assert_array_equal(before[:8], after[:8])                            # the originals stay
    assert not np.allclose(before[9:], after[9:], equal_nan=True)                   # the reconstructions move
    plt.close("all")


@pytest.mark.parametrize("call, pattern", [
    (lambda: widgets.draw_reconstructions(-1), "k must be an integer >= 0"),
    (lambda: widgets.draw_reconstructions(65), "k must be at most 64"),
    (lambda: widgets.draw_reconstructions(3, first=1790), "first must be at most 1789"),
])
def test_reconstruction_explorer_names_bad_input(call, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        call()


def test_widgets_package_imports_a_lecture_module_only_when_asked():
    """``mlcourse.widgets`` loads each explorer's module on first use, so a lecture's explorer cell does not
    import all twelve; every exported name still resolves to its lecture's function."""
    import importlib
    import subprocess
    import sys

    probe = ("import sys, mlcourse.widgets as w; before = sorted(m for m in sys.modules if 'lecture' in m); "
             "w.knn_explorer; after = sorted(m for m in sys.modules if 'lecture' in m); print(before, after)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[] ['mlcourse.widgets.lecture05']"
    for name in widgets.__all__:
        module = importlib.import_module(f"mlcourse.widgets.{widgets._WHERE[name]}")
        assert getattr(widgets, name) is getattr(module, name)
    assert set(widgets.__all__) <= set(dir(widgets))
    with pytest.raises(AttributeError, match="no_such_explorer"):
        widgets.no_such_explorer


def test_draw_boosting_reports_what_adaboost_gets_and_the_frame_moves():
    from mlcourse import ensembles
    from mlcourse.widgets.lecture13 import boosted

    X, y, X_test, y_test, model, _, _ = boosted("disc and ring")
    for rounds in (1, 30, 500):
        got = widgets.draw_boosting(rounds, "disc and ring")
        assert got["training error"] == pytest.approx(np.mean(ensembles.predict_adaboost(model, X, rounds) != y))
        assert got["test error"] == pytest.approx(np.mean(ensembles.predict_adaboost(model, X_test, rounds) != y_test))
        assert got["smallest margin"] == pytest.approx(ensembles.normalised_margins(model, X, y, rounds).min())
        regions = plt.gcf().axes[0]
        assert regions.get_title() == f"{rounds} stump{'' if rounds == 1 else 's'}"
        plt.close("all")
    assert widgets.draw_boosting(500)["smallest margin"] > 0 > widgets.draw_boosting(1)["smallest margin"]
    plt.close("all")


def test_boosting_explorer_deeper_learners_solve_what_stumps_cannot():
    """Stumps cannot express the exclusive or (each sees one feature); trees of depth 2 can."""
    from mlcourse import ensembles
    from mlcourse.widgets.lecture13 import boosted

    stumps = widgets.draw_boosting(500, "exclusive or", depth=1)
    plt.close("all")
    trees2 = widgets.draw_boosting(500, "exclusive or", depth=2)
    assert plt.gcf().axes[0].get_title() == "500 trees of depth 2"
    plt.close("all")
    assert stumps["test error"] > 0.3 and trees2["test error"] < 0.1
    X, y, X_test, y_test, model, _, test = boosted("exclusive or", 2)
    assert all(isinstance(t, ensembles.SplitNode) for t in model.stumps)
    assert trees2["test error"] == pytest.approx(np.mean(ensembles.predict_adaboost(model, X_test) != y_test))


def test_boosting_explorer_redraws_on_each_control(monkeypatch):
    from mlcourse.widgets import lecture13

    calls = []
    monkeypatch.setattr(lecture13, "draw_boosting", lambda rounds, data_set, depth: calls.append((rounds, data_set, depth)))
    box = widgets.boosting_explorer()
    rounds, depth, data_set = box.children[0].children
    assert calls == [(10, "disc and ring", 1)]
    depth.value = 3
    data_set.value = "exclusive or"
    rounds.value = 200
    assert calls[1:] == [(10, "disc and ring", 3), (10, "exclusive or", 3), (200, "exclusive or", 3)]


@pytest.mark.parametrize("call, pattern", [
    (lambda: widgets.draw_boosting(0), "rounds must be at least 1"),
    (lambda: widgets.draw_boosting(501), "rounds must be at most 500"),
    (lambda: widgets.draw_boosting(5, "moons"), "data_set must be one of"),
    (lambda: widgets.draw_boosting(5, "disc and ring", depth=4), "depth must be one of"),
])
def test_boosting_explorer_names_bad_input(call, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        call()
