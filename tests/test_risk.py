"""Unit and property tests of ``mlcourse.risk``, lecture 01's additions to ``mlcourse.data`` and its widget.

Checked against independent implementations where one exists (scikit-learn's metrics, SciPy's
quadrature, NumPy's polyfit and polyval, brute-force loops, closed forms worked out by hand) and, for
the lecture's theorems (the Bayes classifier is optimal, the excess-risk split and its bound, the
bias-variance decomposition), with hypothesis and seeded Monte Carlo with stated error margins.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate

from mlcourse import data, risk, widgets
from mlcourse import losses as ls

PROPERTY = settings(max_examples=50, deadline=None)
seeds = st.integers(min_value=0, max_value=2**32 - 1)

DIST_A = risk.step_distribution([0, 0.4, 0.8, 1], [0.1, 0.8, 0.3])  # the lecture's distribution
THETAS = np.round(np.linspace(0, 1, 21), 2)


@st.composite
def step_distributions(draw):
    k = draw(st.integers(1, 5))
    inner = sorted(set(draw(st.lists(st.floats(0.01, 0.99), min_size=k - 1, max_size=k - 1))))
    breaks = [0.0, *inner, 1.0]
    eta = draw(st.lists(st.floats(0, 1), min_size=len(breaks) - 1, max_size=len(breaks) - 1))
    return risk.step_distribution(breaks, eta)


def eta_python(dist, x):
    """eta(x) by a plain loop over the pieces: an independent reading of the definition."""
    for lo, hi, e in zip(dist.breaks[:-1], dist.breaks[1:], dist.eta):
        if lo <= x < hi:
            return e
    return dist.eta[-1]


def quad(f, a, b, breaks):
    """int_a^b f by SciPy, told where f jumps (negative when b < a)."""
    lo, hi = min(a, b), max(a, b)
    points = [p for p in breaks if lo < p < hi]
    value = integrate.quad(f, lo, hi, points=points or None, limit=200, epsabs=1e-12)[0]
    return value if a <= b else -value


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


# --------------------------------------------------------------------------- empirical risk, memoriser


@pytest.mark.parametrize("seed", range(3))
def test_empirical_risk_agrees_with_sklearn_and_calls_predict_once(seed):
    from sklearn.metrics import mean_squared_error, zero_one_loss

    rng = np.random.default_rng(seed)
    X, w, y = rng.normal(size=(25, 3)), rng.normal(size=3), rng.normal(size=25)
    calls = []

    def predict(A):
        calls.append(A.shape)
        return A @ w

    r = risk.empirical_risk(predict, X, y, ls.squared_error)
    assert r == pytest.approx(mean_squared_error(y, X @ w), rel=1e-12)
    assert calls == [(25, 3)]
    labels = rng.choice([-1, 1], size=25)
    r = risk.empirical_risk(lambda A: np.where(A @ w >= 0, 1, -1), X, labels, ls.zero_one_error)
    assert r == pytest.approx(zero_one_loss(labels, np.where(X @ w >= 0, 1, -1)))
    assert isinstance(r, float)


def test_empirical_risk_rejects_predictions_of_the_wrong_shape():
    with pytest.raises(ValueError, match=r"^predict\(X\) has shape \(1,\), expected \(3,\)"):
        risk.empirical_risk(lambda X: np.zeros(1), np.zeros(3), np.zeros(3), ls.squared_error)


def test_the_memoriser_of_the_lecture_has_empirical_risk_0_and_risk_1():
    rng = np.random.default_rng(0)
    x, y = rng.uniform(size=3), np.ones(3)
    f = risk.memoriser(x, y)
    for loss in (ls.zero_one_error, ls.squared_error):
        assert risk.empirical_risk(f, x, y, loss) == 0.0
        fresh = rng.uniform(size=10_000)
        assert risk.empirical_risk(f, fresh, np.ones_like(fresh), loss) == 1.0


def test_memoriser_lookup_rules():
    X = np.array([[0.0, 1.0], [2.0, 3.0], [0.0, 1.0]])
    f = risk.memoriser(X, [5.0, 6.0, 7.0], default=-1.0)
    # exact matches only; the last of a repeated input wins; -0.0 is 0.0
    queries = np.array([[2.0, 3.0], [-0.0, 1.0], [0.0, 1.0000001], [3.0, 2.0]])
    np.testing.assert_array_equal(f(queries), [6, 7, -1, -1])
    with pytest.raises(ValueError, match="features per input"):
        f(np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"^X must have shape \(n,\) or \(n, d\) and y shape \(n,\)"):
        risk.memoriser(np.zeros(3), np.zeros(2))


# --------------------------------------------------------------------------- the step distribution


def test_step_distribution_validates_and_freezes():
    dist = risk.step_distribution([0, 0.5, 1], [0.2, 0.9])
    with pytest.raises(ValueError):
        dist.eta[0] = 0.5  # read-only
    with pytest.raises(AttributeError):
        dist.eta = np.zeros(2)
    breaks = np.array([0.0, 0.5, 1.0])
    risk.step_distribution(breaks, [0.1, 0.2])
    breaks[1] = 0.6  # the caller's array is not tied to the distribution
    for bad_breaks, bad_eta, pattern in [
        ([0.1, 1], [0.5], "^breaks must increase strictly from 0 to 1"),
        ([0, 0.5, 0.5, 1], [0.5, 0.5, 0.5], "^breaks must increase strictly"),
        ([0, 1], [0.5, 0.5], r"^eta must have one value per piece, shape \(1,\)"),
        ([0, 1], [1.5], r"^eta holds probabilities, in \[0, 1\]"),
    ]:
        with pytest.raises(ValueError, match=pattern):
            risk.step_distribution(bad_breaks, bad_eta)


@PROPERTY
@given(dist=step_distributions(), xs=st.lists(st.floats(0, 1), min_size=1, max_size=20))
def test_conditional_probability_and_bayes_classifier_follow_the_definition(dist, xs):
    x = np.array(xs)
    expected = np.array([eta_python(dist, t) for t in xs])
    np.testing.assert_array_equal(risk.conditional_probability(dist, x), expected)
    np.testing.assert_array_equal(risk.bayes_classifier(dist, x), np.where(expected >= 0.5, 1, -1))


@PROPERTY
@given(dist=step_distributions(), a=st.floats(0, 1), b=st.floats(0, 1))
def test_eta_integral_agrees_with_scipy_quad(dist, a, b):
    expected = quad(lambda t: eta_python(dist, t), a, b, dist.breaks)
    assert risk.eta_integral(dist, a, b) == pytest.approx(expected, abs=1e-9)


@PROPERTY
@given(dist=step_distributions(), theta=st.floats(0, 1))
def test_threshold_risk_is_the_integral_of_the_conditional_error(dist, theta):
    def wrong(t):  # probability that h_theta is wrong at t
        e = eta_python(dist, t)
        return e if t < theta else 1 - e

    assert risk.threshold_risk(dist, theta) == pytest.approx(quad(wrong, 0, 1, [*dist.breaks, theta]), abs=1e-9)


def test_threshold_risks_of_the_lecture_by_hand():
    # R(h_theta) = int_0^theta eta + int_theta^1 (1 - eta), done by hand for dist A
    assert risk.threshold_risk(DIST_A, 0.4) == pytest.approx(0.4 * 0.1 + 0.4 * 0.2 + 0.2 * 0.7)
    assert risk.threshold_risk(DIST_A, 0.0) == pytest.approx(0.4 * 0.9 + 0.4 * 0.2 + 0.2 * 0.7)
    assert risk.threshold_risk(DIST_A, 1.0) == pytest.approx(0.4 * 0.1 + 0.4 * 0.8 + 0.2 * 0.3)
    assert risk.bayes_risk(DIST_A) == pytest.approx(0.18)
    np.testing.assert_allclose(risk.threshold_risk(DIST_A, [-1.0, 2.0]), risk.threshold_risk(DIST_A, [0.0, 1.0]))


def test_threshold_risk_matches_monte_carlo():
    x, y = risk.sample(DIST_A, 400_000, rng=11)
    mc = np.array([np.mean(np.where(x >= t, 1, -1) != y) for t in THETAS])
    exact = risk.threshold_risk(DIST_A, THETAS)
    # each Monte Carlo estimate has standard deviation sqrt(R (1 - R) / N) <= 0.0008; 5 of them
    np.testing.assert_array_less(np.abs(mc - exact), 5 * np.sqrt(exact * (1 - exact) / len(x)))


@PROPERTY
@given(dist=step_distributions(), seed=seeds)
def test_bayes_risk_is_the_smallest_risk(dist, seed):
    rng = np.random.default_rng(seed)
    bayes = risk.bayes_risk(dist)
    smaller = lambda t: min(eta_python(dist, t), 1 - eta_python(dist, t))  # noqa: E731
    assert bayes == pytest.approx(quad(smaller, 0, 1, dist.breaks), abs=1e-9)
    # the Bayes classifier, constant on the pieces, attains it
    labels = np.where(dist.eta >= 0.5, 1, -1)
    assert risk.piecewise_risk(dist, dist.breaks, labels) == pytest.approx(bayes, abs=1e-12)
    for _ in range(20):
        edges = np.unique(np.r_[0.0, rng.uniform(size=rng.integers(0, 8)), 1.0])
        assert risk.piecewise_risk(dist, edges, rng.choice([-1, 1], size=len(edges) - 1)) >= bayes - 1e-12
    assert np.all(risk.threshold_risk(dist, np.linspace(0, 1, 11)) >= bayes - 1e-12)


@PROPERTY
@given(dist=step_distributions(), theta=st.floats(0.001, 0.999))
def test_piecewise_risk_of_a_threshold_classifier_is_its_threshold_risk(dist, theta):
    as_cells = risk.piecewise_risk(dist, [0.0, theta, 1.0], [-1, 1])
    assert as_cells == pytest.approx(risk.threshold_risk(dist, theta), abs=1e-12)


def test_piecewise_risk_rejects_bad_cells():
    with pytest.raises(ValueError, match="^edges must increase"):
        risk.piecewise_risk(DIST_A, [0, 0.7, 0.5, 1], [1, 1, 1])
    with pytest.raises(ValueError, match="^labels must hold one label"):
        risk.piecewise_risk(DIST_A, [0, 0.5, 1], [1, 0])


def test_sampling_is_reproducible_and_follows_eta():
    x1, y1 = risk.sample(DIST_A, 1000, rng=3)
    x2, y2 = data.step_classification(1000, np.random.default_rng(3), DIST_A.breaks, DIST_A.eta)
    np.testing.assert_array_equal(x1, x2)
    np.testing.assert_array_equal(y1, y2)
    x, y = risk.sample(DIST_A, 200_000, rng=4)
    assert x.min() >= 0 and x.max() < 1 and set(np.unique(y)) == {-1, 1}
    for lo, hi, e in zip(DIST_A.breaks[:-1], DIST_A.breaks[1:], DIST_A.eta):
        inside = (x >= lo) & (x < hi)
        # the fraction of +1 among m points has standard deviation sqrt(e (1 - e) / m)
        assert abs(np.mean(y[inside] == 1) - e) <= 5 * math.sqrt(e * (1 - e) / inside.sum())
        assert abs(inside.mean() - (hi - lo)) <= 5 * math.sqrt((hi - lo) * (1 - hi + lo) / len(x))


# --------------------------------------------------------------------------- ERM over thresholds


def erm_by_loops(x, y, thresholds):
    best = None
    for theta in thresholds:
        wrong = sum(1 for xi, yi in zip(x, y) if (1 if xi >= theta else -1) != yi)
        if best is None or wrong < best[1]:
            best = (theta, wrong)
    return best[0], best[1] / len(x)


@PROPERTY
@given(n=st.integers(1, 40), k=st.integers(1, 15), seed=seeds)
def test_erm_threshold_agrees_with_a_double_loop(n, k, seed):
    rng = np.random.default_rng(seed)
    grid = np.linspace(0, 1, 11)
    x = np.where(rng.uniform(size=n) < 0.3, rng.choice(grid, size=n), rng.uniform(size=n))  # ties with thresholds
    y, thresholds = rng.choice([-1, 1], size=n), rng.choice(grid, size=k)
    result = risk.erm_threshold(x, y, thresholds)
    theta, emp = erm_by_loops(x, y, thresholds)
    assert (result.theta, result.empirical_risk) == (pytest.approx(theta), pytest.approx(emp))
    assert thresholds[result.index] == result.theta
    assert result.empirical_risks.shape == (k,)
    np.testing.assert_allclose(result.empirical_risks, [erm_by_loops(x, y, [t])[1] for t in thresholds])


def test_erm_threshold_breaks_ties_by_order_and_is_frozen():
    x, y = np.array([0.1, 0.3, 0.5, 0.7, 0.9]), np.array([-1, -1, 1, -1, 1])
    assert risk.erm_threshold(x, y, np.array([1.0, 0.6])).theta == 1.0
    assert risk.erm_threshold(x, y, np.array([0.6, 1.0])).theta == 0.6
    result = risk.erm_threshold(x, y, THETAS)
    with pytest.raises(AttributeError):
        result.theta = 0.0
    with pytest.raises(ValueError, match=r"^x must have shape \(n,\)"):
        risk.erm_threshold(x[None, :], y[None, :], THETAS)


def test_threshold_empirical_risks_of_many_samples_at_once():
    x, y = risk.sample(DIST_A, 60, rng=7)
    X, Y = x.reshape(3, 20), y.reshape(3, 20)
    batched = risk.threshold_empirical_risks(X, Y, THETAS)
    assert batched.shape == (3, 21)
    for s in range(3):
        np.testing.assert_array_equal(batched[s], risk.threshold_empirical_risks(X[s], Y[s], THETAS))
    with pytest.raises(ValueError, match="^y must hold labels"):
        risk.threshold_empirical_risks(x, np.zeros(60), THETAS)


@PROPERTY
@given(dist=step_distributions(), n=st.integers(1, 60), seed=seeds)
def test_excess_risk_split_and_the_two_delta_bound(dist, n, seed):
    x, y = risk.sample(dist, n, rng=seed)
    result = risk.erm_threshold(x, y, THETAS)
    split = risk.excess_risk(dist, THETAS, result.theta)
    exact = risk.threshold_risk(dist, THETAS)
    assert split.bayes == pytest.approx(risk.bayes_risk(dist))
    assert split.best_in_class == pytest.approx(exact.min())
    assert split.chosen == pytest.approx(exact[result.index])
    assert split.excess == pytest.approx(split.estimation + split.approximation)
    assert split.estimation >= -1e-12 and split.approximation >= -1e-12
    delta = np.abs(result.empirical_risks - exact).max()
    assert split.estimation <= 2 * delta + 1e-12


def test_approximation_error_of_the_lecture():
    assert risk.excess_risk(DIST_A, THETAS, 0.4).approximation == pytest.approx(0.26 - 0.18)
    assert risk.excess_risk(DIST_A, THETAS, 0.4).estimation == pytest.approx(0.0)


# --------------------------------------------------------------------------- quadrature and squared risk


@pytest.mark.parametrize("low, high", [(-1.0, 1.0), (0.0, 1.0), (-3.0, 5.0)])
def test_uniform_expectation_is_exact_for_polynomials_and_agrees_with_quad(low, high):
    for k in range(0, 30, 3):  # E X^k for X uniform on [low, high]
        exact = (high ** (k + 1) - low ** (k + 1)) / ((k + 1) * (high - low))
        assert risk.uniform_expectation(lambda x: x**k, low, high) == pytest.approx(exact, rel=1e-12, abs=1e-14)
    g = lambda x: np.exp(np.sin(3 * x))  # noqa: E731
    expected = integrate.quad(g, low, high)[0] / (high - low)
    assert risk.uniform_expectation(g, low, high) == pytest.approx(expected, rel=1e-10)
    nodes, weights = risk.uniform_nodes(low, high, 8)
    assert weights.sum() == pytest.approx(1.0) and nodes.min() > low and nodes.max() < high
    with pytest.raises(ValueError, match="^high must be larger than low"):
        risk.uniform_nodes(1.0, 1.0)


def test_sine_target_has_mean_0_and_mean_square_one_half():
    assert risk.uniform_expectation(data.sine_target) == pytest.approx(0.0, abs=1e-14)
    assert risk.uniform_expectation(lambda x: data.sine_target(x) ** 2) == pytest.approx(0.5, rel=1e-13)


def test_squared_risk_matches_monte_carlo():
    rng = np.random.default_rng(8)
    coef = np.array([0.1, 0.8, -0.3])
    f = lambda x: np.polyval(coef[::-1], x)  # noqa: E731
    x = rng.uniform(-1, 1, size=400_000)
    losses = (data.sine_target(x) + 0.3 * rng.standard_normal(x.size) - f(x)) ** 2
    exact = risk.squared_risk(f, data.sine_target, 0.3)
    assert abs(losses.mean() - exact) <= 5 * losses.std() / math.sqrt(x.size)
    assert risk.squared_risk(data.sine_target, data.sine_target, 0.3) == pytest.approx(0.09)
    with pytest.raises(ValueError, match="^noise is a standard deviation"):
        risk.squared_risk(f, data.sine_target, -0.1)


# --------------------------------------------------------------------------- polynomial fits


@pytest.mark.parametrize("degree", range(8))
def test_fit_polynomial_agrees_with_numpy_polyfit(degree):
    x, y = data.noisy_sine(30, rng=degree)
    coef = risk.fit_polynomial(x, y, degree)
    assert coef.shape == (degree + 1,)
    np.testing.assert_allclose(coef, np.polyfit(x, y, degree)[::-1], rtol=1e-7, atol=1e-9)
    t = np.linspace(-1, 1, 7)
    expected = np.polynomial.polynomial.polyval(t, coef)
    np.testing.assert_allclose(risk.predict_polynomial(coef, t), expected, rtol=1e-12)


def test_fit_polynomial_fits_many_label_sets_at_once_and_interpolates_when_it_can():
    x = data.midpoint_grid(6)
    Y = np.random.default_rng(0).normal(size=(4, 6))
    coefs = risk.fit_polynomial(x, Y, 3)
    assert coefs.shape == (4, 4)
    for k in range(4):
        np.testing.assert_allclose(coefs[k], risk.fit_polynomial(x, Y[k], 3), rtol=1e-10, atol=1e-12)
    assert risk.predict_polynomial(coefs, x).shape == (4, 6)
    for degree in (5, 8):  # n - 1 and more: the fit goes through every point
        np.testing.assert_allclose(risk.predict_polynomial(risk.fit_polynomial(x, Y[0], degree), x), Y[0], atol=1e-8)
    with pytest.raises(ValueError, match=r"^y must have shape \(6,\) or \(k, 6\)"):
        risk.fit_polynomial(x, np.zeros(5), 2)
    with pytest.raises(ValueError, match="^degree must be an integer >= 0"):
        risk.fit_polynomial(x, Y[0], -1)


@PROPERTY
@given(n=st.integers(5, 30), seed=seeds)
def test_training_error_never_increases_with_the_degree(n, seed):
    x, y = data.noisy_sine(n, rng=seed)
    errors = [np.mean((risk.predict_polynomial(risk.fit_polynomial(x, y, d), x) - y) ** 2) for d in range(min(n, 10))]
    assert np.all(np.diff(errors) <= 1e-10)


# --------------------------------------------------------------------------- bias and variance


def test_bias_variance_terms_by_hand_and_their_identity():
    P = np.array([[1.0, 3.0], [3.0, 5.0]])
    terms = risk.bias_variance_terms(P, [1.0, 1.0], noise=0.5)
    assert (terms.noise, terms.bias2, terms.variance) == (0.5, 5.0, 1.0)
    assert terms.expected_error == 6.5
    rng = np.random.default_rng(1)
    P, truth = rng.normal(size=(7, 5)), rng.normal(size=5)
    t = risk.bias_variance_terms(P, truth)
    # mean over fits and points of the squared distance to the truth = bias^2 + variance, exactly
    assert np.mean((P - truth) ** 2) == pytest.approx(t.bias2 + t.variance, rel=1e-12)
    w = rng.dirichlet(np.ones(5))
    tw = risk.bias_variance_terms(P, truth, weights=w)
    assert tw.bias2 == pytest.approx(w @ (P.mean(axis=0) - truth) ** 2)
    with pytest.raises(ValueError, match=r"^predictions must have shape \(n_fits, m\) and truth shape \(m,\)"):
        risk.bias_variance_terms(P, truth[:3])


def test_degree_0_bias_and_variance_in_closed_form():
    # the constant fit is the mean label: its mean is c = mean f*(x_i), so bias^2 = E (f*(X) - c)^2 = 1/2 + c^2
    # (f* has mean 0 and mean square 1/2 on [-1, 1]) and its variance is sigma^2 / n at every x
    for n, noise in ((5, 0.3), (20, 1.0), (33, 0.1)):
        x = data.midpoint_grid(n)
        c = data.sine_target(x).mean()
        terms = risk.polynomial_bias_variance(0, x, data.sine_target, noise)
        assert terms.bias2 == pytest.approx(0.5 + c**2, rel=1e-12)
        assert terms.variance == pytest.approx(noise**2 / n, rel=1e-12)
        assert terms.noise == pytest.approx(noise**2)
        expected_train = np.mean((data.sine_target(x) - c) ** 2) + noise**2 * (n - 1) / n
        assert risk.expected_training_error(0, x, data.sine_target, noise) == pytest.approx(expected_train, rel=1e-12)


@pytest.mark.parametrize("degree", [1, 3, 6])
def test_polynomial_bias_variance_and_training_error_match_monte_carlo(degree):
    x, noise, fits = data.midpoint_grid(15), 0.3, 4000
    coefs, Y = risk.simulate_polynomial_fits(degree, x, data.sine_target, noise, fits, rng=degree)
    nodes, weights = risk.uniform_nodes()
    exact = risk.polynomial_bias_variance(degree, x, data.sine_target, noise)
    at_nodes = risk.predict_polynomial(coefs, nodes)
    distance = ((at_nodes - data.sine_target(nodes)) ** 2) @ weights  # E_X (f_S - f*)^2 per fit: mean bias^2 + var
    assert abs(distance.mean() - (exact.bias2 + exact.variance)) <= 5 * distance.std() / math.sqrt(fits)
    mc = risk.bias_variance_terms(at_nodes, data.sine_target(nodes), weights=weights)
    assert mc.variance == pytest.approx(exact.variance, rel=0.1)  # relative sd of a variance estimate ~ sqrt(2/fits)
    train = np.mean((risk.predict_polynomial(coefs, x) - Y) ** 2, axis=1)
    expected_train = risk.expected_training_error(degree, x, data.sine_target, noise)
    assert abs(train.mean() - expected_train) <= 5 * train.std() / math.sqrt(fits)
    # the optimism of least squares: in-sample test error minus training error is 2 sigma^2 p / n on average
    assert exact.noise + (exact.bias2 + exact.variance) > expected_train


def test_interpolating_fit_has_zero_expected_training_error():
    x = data.midpoint_grid(8)
    assert risk.expected_training_error(7, x, data.sine_target, 0.3) == pytest.approx(0.0, abs=1e-12)


def test_simulate_polynomial_fits_is_reproducible():
    x = data.midpoint_grid(10)
    a, Ya = risk.simulate_polynomial_fits(2, x, data.sine_target, 0.3, 5, rng=9)
    b, Yb = risk.simulate_polynomial_fits(2, x, data.sine_target, 0.3, 5, rng=np.random.default_rng(9))
    assert a.shape == (5, 3) and Ya.shape == (5, 10)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(Ya, Yb)


# --------------------------------------------------------------------------- data generators of lecture 01


def test_labels_from_probability():
    rng = np.random.default_rng(0)
    p = np.array([0.0, 1.0, 0.3])
    Y = np.array([data.labels_from_probability(p, rng) for _ in range(20_000)])
    assert Y.dtype.kind == "i" and Y.shape == (20_000, 3)
    assert np.all(Y[:, 0] == -1) and np.all(Y[:, 1] == 1)
    assert abs(np.mean(Y[:, 2] == 1) - 0.3) <= 5 * math.sqrt(0.3 * 0.7 / 20_000)
    with pytest.raises(ValueError, match="^p must hold probabilities"):
        data.labels_from_probability([1.2], rng)


def test_step_classification_rejects_bad_pieces():
    with pytest.raises(ValueError, match="^breaks must increase strictly from 0 to 1"):
        data.step_classification(10, 0, [0, 0.5], [0.5])
    with pytest.raises(ValueError, match="^n must be at least 1"):
        data.step_classification(0, 0, [0, 1], [0.5])


def test_midpoint_grid_and_noisy_sine():
    np.testing.assert_allclose(data.midpoint_grid(4), [-0.75, -0.25, 0.25, 0.75])
    np.testing.assert_allclose(data.midpoint_grid(2, 0.0, 1.0), [0.25, 0.75])
    x, y = data.noisy_sine(5000, rng=3, noise=0.5)
    assert x.shape == y.shape == (5000,) and x.min() >= -1 and x.max() <= 1
    residual = y - data.sine_target(x)
    assert abs(residual.std() - 0.5) <= 5 * 0.5 / math.sqrt(2 * 5000)
    xg, yg = data.noisy_sine(7, rng=3, design="grid")
    np.testing.assert_array_equal(xg, data.midpoint_grid(7))
    np.testing.assert_array_equal(data.noisy_sine(7, rng=3, design="grid")[1], yg)
    with pytest.raises(ValueError, match="^design must be 'random' or 'grid'"):
        data.noisy_sine(5, 0, design="fixed")


# --------------------------------------------------------------------------- the widget


@pytest.mark.parametrize("degree, n, seed", [(0, 10, 0), (3, 20, 1), (12, 15, 2), (12, 10, 3)])
def test_draw_polynomial_fit_reports_the_errors_of_its_fit(degree, n, seed):
    train, test, terms = widgets.draw_polynomial_fit(degree, n, seed)
    x, y = data.noisy_sine(n, seed, noise=0.3, design="grid")
    if degree < n:  # polyfit cannot do the underdetermined case
        fitted = np.polyval(np.polyfit(x, y, degree), x)
        assert train == pytest.approx(np.mean((fitted - y) ** 2), rel=1e-6, abs=1e-12)
        coef = np.polyfit(x, y, degree)
        distance = integrate.quad(lambda t: (np.polyval(coef, t) - data.sine_target(t)) ** 2, -1, 1, limit=200)[0] / 2
        assert test == pytest.approx(0.09 + distance, rel=1e-6)
    assert terms == risk.polynomial_bias_variance(degree, x, data.sine_target, 0.3)
    fig = plt.gcf()
    curves, bars = fig.axes
    assert f"degree {degree}, n = {n}" in curves.get_title()
    heights = [p.get_height() for p in bars.patches]
    assert heights[:2] == pytest.approx([min(train, 0.8), min(test, 0.8)])
    assert sum(heights[2:]) == pytest.approx(min(terms.expected_error, 0.8))


def test_polynomial_explorer_builds_its_sliders():
    import ipywidgets as W

    box = widgets.polynomial_explorer()
    assert isinstance(box, W.VBox)
    degree, n, seed = box.children[0].children
    assert (degree.value, degree.min, degree.max) == (3, 0, 12)
    assert (n.value, n.min, n.max) == (20, 10, 100)
    assert isinstance(seed, W.IntSlider) and isinstance(box.children[1], W.Output)
