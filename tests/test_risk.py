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


@PROPERTY
@given(n=st.integers(1, 15), d=st.integers(1, 3), seed=seeds)
def test_memoriser_agrees_with_a_dictionary(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(n, d)).astype(float)  # small integers: repeated rows are common
    y = rng.normal(size=n)
    table = {}
    for row, label in zip(X, y):
        table[tuple(row)] = label  # the last occurrence wins
    queries = np.vstack([X, rng.integers(-3, 4, size=(20, d)).astype(float)])
    expected = [table.get(tuple(q), -7.0) for q in queries]
    np.testing.assert_array_equal(risk.memoriser(X, y, default=-7.0)(queries), expected)


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


@PROPERTY
@given(dist=step_distributions(), s=st.integers(1, 6), cells=st.integers(1, 6), seed=seeds)
def test_piecewise_risks_agrees_with_piecewise_risk_row_by_row(dist, s, cells, seed):
    rng = np.random.default_rng(seed)
    edges = np.sort(np.column_stack([np.zeros(s), rng.uniform(size=(s, cells - 1)), np.ones(s)]), axis=1)
    labels = rng.choice([-1, 1], size=(s, cells))
    expected = [risk.piecewise_risk(dist, np.unique(e), l[: len(np.unique(e)) - 1]) if len(np.unique(e)) == len(e)
                else None for e, l in zip(edges, labels)]
    got = risk.piecewise_risks(dist, edges, labels)
    assert got.shape == (s,)
    for value, want in zip(got, expected):
        if want is not None:
            assert value == pytest.approx(want, abs=1e-12)
    # an empty cell changes nothing: pad each classifier with a cell of width 0 at 1
    padded = risk.piecewise_risks(dist, np.column_stack([edges, np.ones(s)]), np.column_stack([labels, np.ones(s, int)]))
    np.testing.assert_allclose(padded, got, atol=1e-15)


def test_piecewise_risks_rejects_bad_classifiers():
    with pytest.raises(ValueError, match=r"^edges must have shape \(s, c \+ 1\) and labels shape \(s, c\)"):
        risk.piecewise_risks(DIST_A, [[0, 0.5, 1]], [[1, -1, 1]])
    with pytest.raises(ValueError, match="^each row of edges must run from 0 to 1 without decreasing"):
        risk.piecewise_risks(DIST_A, [[0, 0.7, 0.5, 1]], [[1, 1, 1]])
    with pytest.raises(ValueError, match="^labels must hold -1 and \\+1 only"):
        risk.piecewise_risks(DIST_A, [[0, 0.5, 1]], [[1, 0]])


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
@given(s=st.integers(1, 4), n=st.integers(1, 30), k=st.integers(1, 12), seed=seeds)
def test_threshold_empirical_risks_agree_with_comparing_every_threshold_with_every_point(s, n, k, seed):
    rng = np.random.default_rng(seed)
    grid = np.linspace(0, 1, 11)
    x = np.where(rng.uniform(size=(s, n)) < 0.4, rng.choice(grid, size=(s, n)), rng.uniform(size=(s, n)))
    y, thresholds = rng.choice([-1, 1], size=(s, n)), rng.choice(grid, size=k)  # unsorted, repeated, tied with x
    brute = np.mean(np.where(x[:, None, :] >= thresholds[:, None], 1, -1) != y[:, None, :], axis=-1)
    np.testing.assert_array_equal(risk.threshold_empirical_risks(x, y, thresholds), brute)
    np.testing.assert_array_equal(risk.threshold_empirical_risks(x[0], y[0], thresholds), brute[0])


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


# --------------------------------------------------------------------------- choosing the degree from data


def polyfit_values(x_train, y_train, degree, x_eval):
    """An independent fit: NumPy's polyfit (monomials, its own least squares) and polyval."""
    return np.polyval(np.polyfit(x_train, y_train, degree), x_eval)


@PROPERTY
@given(s=st.integers(1, 4), n=st.integers(26, 50), m=st.integers(1, 10), seed=seeds)
def test_polynomial_fit_values_agree_with_polyfit_sample_by_sample(s, n, m, seed):
    # at least two points per coefficient: with fewer, polyfit's monomial basis loses digits of its own
    rng = np.random.default_rng(seed)
    x, x_eval = rng.uniform(-1, 1, size=(s, n)), rng.uniform(-1, 1, size=(s, m))
    y = data.sine_target(x) + rng.normal(size=(s, n))
    degrees = np.array([3, 0, 7, 3, 12])  # any order, repeats allowed
    values = risk.polynomial_fit_values(x, y, degrees, x_eval)
    assert values.shape == (s, 5, m)
    for r in range(s):
        for j, q in enumerate(degrees):
            np.testing.assert_allclose(values[r, j], polyfit_values(x[r], y[r], q, x_eval[r]), rtol=1e-6, atol=1e-8)


def test_polynomial_fit_values_of_an_ill_conditioned_fit_against_exact_rational_arithmetic():
    # degree 12 through 14 random points: the least-squares solution of the normal equations, solved with
    # Python's fractions (no rounding at all), is the reference
    from fractions import Fraction

    rng = np.random.default_rng(6)
    x, x_eval = rng.uniform(-1, 1, 14), rng.uniform(-1, 1, 4)
    y = data.sine_target(x) + rng.normal(size=14)
    X, Y = [Fraction(float(v)) for v in x], [Fraction(float(v)) for v in y]
    V = [[xi**k for k in range(13)] for xi in X]
    M = [[sum(V[i][j] * V[i][k] for i in range(14)) for k in range(13)] + [sum(V[i][j] * Y[i] for i in range(14))]
         for j in range(13)]
    for c in range(13):  # Gauss-Jordan elimination, exact
        for r in range(13):
            if r != c:
                f = M[r][c] / M[c][c]
                M[r] = [a - f * b for a, b in zip(M[r], M[c])]
    coef = [M[j][13] / M[j][j] for j in range(13)]
    exact = np.array([float(sum(coef[k] * Fraction(float(t)) ** k for k in range(13))) for t in x_eval])
    np.testing.assert_allclose(risk.polynomial_fit_values(x, y, [12], x_eval)[0], exact, rtol=1e-8)


def test_polynomial_fit_values_with_a_shared_design_and_shared_evaluation_points():
    x = data.midpoint_grid(20)
    Y = data.sine_target(x) + 0.3 * np.random.default_rng(1).standard_normal((6, 20))
    t = np.linspace(-1, 1, 9)
    values = risk.polynomial_fit_values(x, Y, np.arange(13), t)
    assert values.shape == (6, 13, 9)
    for q in range(13):
        np.testing.assert_allclose(values[:, q], risk.predict_polynomial(risk.fit_polynomial(x, Y, q), t),
                                   rtol=1e-7, atol=1e-9)
    one = risk.polynomial_fit_values(x, Y[0], [4], t)  # one sample: no sample axis
    assert one.shape == (1, 9)
    np.testing.assert_allclose(one[0], values[0, 4], rtol=1e-12, atol=1e-12)


def test_polynomial_errors_are_mean_or_weighted_squared_errors():
    rng = np.random.default_rng(2)
    x, y = rng.uniform(-1, 1, size=(3, 25)), rng.normal(size=(3, 25))
    x_eval, y_eval = rng.uniform(-1, 1, size=(3, 7)), rng.normal(size=(3, 7))
    errors = risk.polynomial_errors(x, y, [1, 5], x_eval, y_eval)
    for r in range(3):
        for j, q in enumerate((1, 5)):
            expected = np.mean((polyfit_values(x[r], y[r], q, x_eval[r]) - y_eval[r]) ** 2)
            assert errors[r, j] == pytest.approx(expected, rel=1e-6)
    nodes, weights = risk.uniform_nodes()
    weighted = risk.polynomial_errors(x, y, [2], nodes, data.sine_target(nodes), weights)
    for r in range(3):
        coef = np.polyfit(x[r], y[r], 2)
        exact = integrate.quad(lambda t: (np.polyval(coef, t) - data.sine_target(t)) ** 2, -1, 1)[0] / 2
        assert weighted[r, 0] == pytest.approx(exact, rel=1e-9)


def test_polynomial_fit_risks_agree_with_squared_risk_of_each_fit():
    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, size=(4, 30))
    y = data.sine_target(x) + 0.3 * rng.standard_normal(x.shape)
    risks = risk.polynomial_fit_risks(x, y, np.arange(8), data.sine_target, 0.3)
    assert risks.shape == (4, 8)
    for r in range(4):
        for q in range(8):
            coef = np.polyfit(x[r], y[r], q)
            expected = risk.squared_risk(lambda t: np.polyval(coef, t), data.sine_target, 0.3)
            assert risks[r, q] == pytest.approx(expected, rel=1e-7)
    with pytest.raises(ValueError, match="^noise is a standard deviation"):
        risk.polynomial_fit_risks(x, y, [1], data.sine_target, -0.3)


def test_polynomial_fits_reject_bad_input():
    x, y = np.linspace(-1, 1, 5), np.zeros(5)
    with pytest.raises(ValueError, match="^a polynomial of degree 5 needs at least 6 training points; got 5"):
        risk.polynomial_fit_values(x, y, [1, 5], x)
    with pytest.raises(ValueError, match="^degrees must be a non-empty 1-d array of integers >= 0"):
        risk.polynomial_fit_values(x, y, [1.5], x)
    with pytest.raises(ValueError, match="^degrees must be a non-empty 1-d array of integers >= 0"):
        risk.polynomial_fit_values(x, y, [], x)
    with pytest.raises(ValueError, match=r"^x_train must have the shape of y_train, \(5,\), or its last axis"):
        risk.polynomial_fit_values(x[:4], y, [1], x)
    with pytest.raises(ValueError, match=r"^x_eval must have shape \(m,\) or \(\.\.\., m\)"):
        risk.polynomial_fit_values(x, np.zeros((2, 5)), [1], np.zeros((3, 4)))
    with pytest.raises(ValueError, match=r"^y_eval must have shape \(m,\) or \(\.\.\., m\)"):
        risk.polynomial_errors(x, y, [1], x, np.zeros(4))
    with pytest.raises(ValueError, match=r"^weights must have shape \(5,\)"):
        risk.polynomial_errors(x, y, [1], x, y, weights=np.ones(4))


@pytest.mark.parametrize("n, n_folds", [(10, 2), (11, 3), (30, 5), (7, 7)])
def test_fold_indices_are_those_of_sklearn_kfold(n, n_folds):
    from sklearn.model_selection import KFold

    ours = risk.fold_indices(n, n_folds)
    theirs = [test for _, test in KFold(n_splits=n_folds).split(np.zeros(n))]
    assert len(ours) == n_folds
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a, b)


def test_fold_indices_reject_impossible_folds():
    with pytest.raises(ValueError, match="^n_folds must be between 2 and n = 5; got 6"):
        risk.fold_indices(5, 6)
    with pytest.raises(ValueError, match="^n_folds must be between 2 and n = 5; got 1"):
        risk.fold_indices(5, 1)


@pytest.mark.parametrize("n, n_folds, seed", [(30, 5, 0), (23, 4, 1), (40, 2, 2)])
def test_cross_validation_errors_agree_with_sklearn(n, n_folds, seed):
    from sklearn.linear_model import LinearRegression
    from sklearn.model_selection import KFold, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import PolynomialFeatures

    x, y = data.noisy_sine(n, rng=seed)
    degrees = np.arange(6)
    ours = risk.cross_validation_errors(x, y, degrees, n_folds)
    sizes = np.array([len(f) for f in risk.fold_indices(n, n_folds)])
    for q in degrees:
        model = make_pipeline(PolynomialFeatures(q), LinearRegression())
        fold_mse = -cross_val_score(model, x[:, None], y, cv=KFold(n_folds), scoring="neg_mean_squared_error")
        assert ours[q] == pytest.approx(sizes @ fold_mse / n, rel=1e-6)
    # many samples at once give each sample's own errors
    X, Y = np.stack([x, x[::-1]]), np.stack([y, y[::-1]])
    both = risk.cross_validation_errors(X, Y, degrees, n_folds)
    np.testing.assert_allclose(both[0], ours, rtol=1e-9)
    np.testing.assert_allclose(both[1], risk.cross_validation_errors(x[::-1], y[::-1], degrees, n_folds), rtol=1e-9)


def test_validation_errors_by_brute_force():
    rng = np.random.default_rng(4)
    x = rng.uniform(-1, 1, size=(2, 30))
    y = data.sine_target(x) + 0.3 * rng.standard_normal(x.shape)
    errors = risk.validation_errors(x, y, [0, 2, 6], 20)
    for r in range(2):
        for j, q in enumerate((0, 2, 6)):
            expected = np.mean((polyfit_values(x[r, :20], y[r, :20], q, x[r, 20:]) - y[r, 20:]) ** 2)
            assert errors[r, j] == pytest.approx(expected, rel=1e-6)
    with pytest.raises(ValueError, match="^n_train must leave at least one point to validate on"):
        risk.validation_errors(x, y, [1], 30)


def test_select_degree_takes_the_smallest_error_and_the_first_of_ties():
    errors = np.array([[0.3, 0.1, 0.2], [0.2, 0.2, 0.5]])
    np.testing.assert_array_equal(risk.select_degree(errors, [0, 1, 2]), [1, 0])
    np.testing.assert_array_equal(risk.select_degree(errors, [4, 2, 7]), [2, 4])
    with pytest.raises(ValueError, match=r"^errors must have shape \(\.\.\., 2\), one per degree"):
        risk.select_degree(errors, [0, 1])


def test_validation_error_of_a_fixed_degree_is_unbiased_and_cv_estimates_smaller_samples():
    # seeded Monte Carlo of the two facts lecture 01 checks, at one configuration with clear margins
    rng = np.random.default_rng(5)
    n, sigma, fits = 40, 0.5, 3000
    x = rng.uniform(-1, 1, size=(fits, n))
    y = data.sine_target(x) + sigma * rng.standard_normal(x.shape)
    degrees = np.array([1, 3, 6])
    validation = risk.validation_errors(x, y, degrees, 30)
    fitted = risk.polynomial_fit_risks(x[:, :30], y[:, :30], degrees, data.sine_target, sigma)
    difference = validation - fitted
    assert np.all(np.abs(difference.mean(axis=0)) <= 5 * difference.std(axis=0) / math.sqrt(fits))
    cv = risk.cross_validation_errors(x[:1000], y[:1000], degrees, 2)
    half = risk.polynomial_fit_risks(x[:1000, :20], y[:1000, :20], degrees, data.sine_target, sigma)
    full = risk.polynomial_fit_risks(x[:1000], y[:1000], degrees, data.sine_target, sigma)
    assert cv[:, 2].mean() > full[:, 2].mean()  # pessimistic for the fit to all n at a high degree
    assert abs(cv[:, 2].mean() - half[:, 2].mean()) < abs(cv[:, 2].mean() - full[:, 2].mean())


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


@PROPERTY
# R below 1e-300 is left out: there scipy's binomial pmf itself overflows (R = 2.2e-308, n = 4)
@given(st.integers(1, 400), st.one_of(st.just(0.0), st.floats(1e-300, 1)), st.floats(0, 1))
def test_deviation_probability_agrees_with_scipy_binomial(n, R, delta):
    from scipy.stats import binom

    k = np.arange(n + 1)
    expected = binom.pmf(k, n, R)[np.abs(k / n - R) > delta].sum()
    assert risk.deviation_probability(R, n, delta) == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_deviation_probability_by_hand_and_many_problems_at_once():
    # n = 2, R = 1/2: R_hat is 0, 1/2 or 1 with chances 1/4, 1/2, 1/4; |R_hat - 1/2| > 0.49 when R_hat is 0 or 1
    assert risk.deviation_probability(0.5, 2, 0.49) == pytest.approx(0.5)
    assert risk.deviation_probability(0.5, 2, 0.5) == 0.0           # the deviation is at most 1/2
    assert risk.deviation_probability(0.0, 5, 0.0) == 0.0           # R = 0: R_hat = 0 surely
    assert risk.deviation_probability(2.2250738585072014e-308, 4, 0.0) == 1.0  # R_hat is 0 or >= 1/4: never R
    assert risk.deviation_probability(1.0, 5, 0.5) == 0.0
    R, n, delta = np.array([0.1, 0.5, 0.3]), np.array([10, 3, 50]), np.array([0.05, 0.4, 0.1])
    many = risk.deviation_probability(R, n, delta)
    assert many.shape == (3,)
    assert many == pytest.approx([float(risk.deviation_probability(*args)) for args in zip(R, n, delta)])
    assert np.all(many <= 2 * np.exp(-2 * n * delta**2))             # Hoeffding
    with pytest.raises(ValueError):
        risk.deviation_probability(0.5, 0, 0.1)
    with pytest.raises(ValueError):
        risk.deviation_probability(1.5, 3, 0.1)
