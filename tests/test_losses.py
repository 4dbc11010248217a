"""Unit and property tests of ``mlcourse.losses`` (lecture 01).

Checked against independent implementations where one exists (scikit-learn's metrics and
LogisticRegression, lecture 02's perceptron criterion and batch perceptron, finite differences) and,
for the claims the lecture makes about each loss (convexity, differentiability, margin form), with
hypothesis.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy.special import expit

from mlcourse import data, perceptron
from mlcourse import losses as ls

PROPERTY = settings(max_examples=60, deadline=None)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
margins_st = st.floats(-30, 30, allow_nan=False, allow_subnormal=False)

CONVEX = [name for name, loss in ls.MARGIN_LOSSES.items() if loss.convex]
NOT_CONVEX = [name for name, loss in ls.MARGIN_LOSSES.items() if not loss.convex]
KINKS = {"0-1": 0.0, "absolute": 1.0, "perceptron": 0.0, "hinge": 1.0}  # where each non-smooth loss breaks


def labelled_scores(seed, n=50, scale=2.0):
    rng = np.random.default_rng(seed)
    return rng.choice([-1, 1], size=n), rng.normal(scale=scale, size=n)


# --------------------------------------------------------------------------- the registry


def test_the_seven_losses_of_the_lecture_with_their_properties():
    expected = {  # name: (convex, differentiable), as the lecture's table states
        "0-1": (False, False), "squared": (True, True), "absolute": (True, False),
        "sigmoid-squared": (False, True), "perceptron": (True, False), "hinge": (True, False),
        "logistic": (True, True),
    }
    assert {n: (l.convex, l.differentiable) for n, l in ls.MARGIN_LOSSES.items()} == expected
    for name, loss in ls.MARGIN_LOSSES.items():
        assert loss.name == name and loss.formula.startswith("$")
        assert ls.margin_loss(name) is loss and ls.margin_loss(loss) is loss
        np.testing.assert_array_equal(loss([0.5, -1.0]), loss.value(np.array([0.5, -1.0])))
    with pytest.raises(AttributeError):
        ls.MARGIN_LOSSES["hinge"].convex = False


def test_margin_loss_names_the_choices_for_an_unknown_loss():
    with pytest.raises(ValueError, match=r"^loss must be one of '0-1', 'squared'.*; got 'square'"):
        ls.margin_loss("square")


# --------------------------------------------------------------------------- values


def test_losses_by_hand():
    m = np.array([-2.0, 0.0, 1.0, 3.0])
    np.testing.assert_array_equal(ls.zero_one_loss(m), [1, 1, 0, 0])  # m = 0 is a mistake
    np.testing.assert_allclose(ls.squared_loss(m), [9, 1, 0, 4])
    np.testing.assert_allclose(ls.absolute_loss(m), [3, 1, 0, 2])
    np.testing.assert_allclose(ls.perceptron_loss(m), [2, 0, 0, 0])
    np.testing.assert_allclose(ls.hinge_loss(m), [3, 1, 0, 0])
    np.testing.assert_allclose(ls.logistic_loss(m), np.log1p(np.exp([2.0, 0.0, -1.0, -3.0])), rtol=1e-14)
    np.testing.assert_allclose(ls.sigmoid_squared_loss(m), (1 - np.tanh(m)) ** 2, rtol=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_mean_losses_agree_with_sklearn_metrics(seed):
    from sklearn.metrics import hinge_loss, log_loss, mean_absolute_error, mean_squared_error, zero_one_loss

    y, a = labelled_scores(seed)
    m = y * a
    assert ls.hinge_loss(m).mean() == pytest.approx(hinge_loss(y, a), rel=1e-12)
    # logistic: the log loss of the probability sigma(a) that the label is +1
    assert ls.logistic_loss(m).mean() == pytest.approx(log_loss(y, expit(a), labels=[-1, 1]), rel=1e-9)
    # the squared losses are squared errors of the score, written in the margin
    assert ls.squared_loss(m).mean() == pytest.approx(mean_squared_error(y, a), rel=1e-12)
    assert ls.absolute_loss(m).mean() == pytest.approx(mean_absolute_error(y, a), rel=1e-12)
    assert ls.sigmoid_squared_loss(m).mean() == pytest.approx(mean_squared_error(y, np.tanh(a)), rel=1e-9)
    assert ls.zero_one_loss(m).mean() == pytest.approx(zero_one_loss(y, np.where(a >= 0, 1, -1)))  # no ties here


@PROPERTY
@given(n=st.integers(1, 30), d=st.integers(1, 5), seed=seeds)
def test_perceptron_loss_sums_to_lecture_02s_criterion(n, d, seed):
    rng = np.random.default_rng(seed)
    X, w, y = rng.normal(size=(n, d)), rng.normal(size=d), rng.choice([-1, 1], size=n)
    total = ls.perceptron_loss(ls.margins(w, X, y)).sum()
    assert total == pytest.approx(perceptron.perceptron_loss(w, X, y), rel=1e-12, abs=1e-12)


@PROPERTY
@given(y=st.sampled_from([-1, 1]), a=margins_st)
def test_squared_errors_are_functions_of_the_margin(y, a):
    assert ls.squared_loss(y * a) == pytest.approx((y - a) ** 2, rel=1e-12, abs=1e-12)
    assert ls.absolute_loss(y * a) == pytest.approx(abs(y - a), rel=1e-12, abs=1e-12)
    assert ls.sigmoid_squared_loss(y * a) == pytest.approx((y - np.tanh(a)) ** 2, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("m", [-1000.0, -745.0, 745.0, 1000.0])
def test_logistic_and_sigmoid_losses_are_finite_and_right_for_huge_margins(m):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow warning either
        log_value, sig_value = ls.logistic_loss(m), ls.sigmoid_squared_loss(m)
        log_slope = ls.MARGIN_LOSSES["logistic"].derivative(m)
        sig_slope = ls.MARGIN_LOSSES["sigmoid-squared"].derivative(m)
    if m < 0:
        assert log_value == pytest.approx(-m, rel=1e-12) and sig_value == pytest.approx(4.0)
        assert log_slope == pytest.approx(-1.0) and abs(sig_slope) < 1e-300
    else:
        assert 0 <= log_value < 1e-300 and 0 <= sig_value < 1e-300
        assert -1e-300 < log_slope <= 0 and -1e-300 < sig_slope <= 0


@pytest.mark.parametrize("name", ls.MARGIN_LOSSES)
def test_losses_are_elementwise_and_keep_the_shape(name):
    loss = ls.MARGIN_LOSSES[name]
    M = np.random.default_rng(0).normal(size=(3, 4))
    out = loss(M)
    assert out.shape == (3, 4)
    np.testing.assert_array_equal(out.ravel(), loss(M.ravel()))
    assert loss.derivative(M).shape == (3, 4)
    M_before = M.copy()
    loss(M), loss.derivative(M)
    np.testing.assert_array_equal(M, M_before)
    assert np.asarray(loss(0.25)).shape == ()
    np.testing.assert_array_equal(loss([[0.5, -1.0]]), loss(np.array([[0.5, -1.0]])))  # lists too


@pytest.mark.parametrize("bad", [np.nan, np.inf, [1.0, np.nan]])
def test_losses_reject_nan_and_infinity_naming_m(bad):
    with pytest.raises(ValueError, match=r"^m contains NaN"):
        ls.hinge_loss(bad)


# --------------------------------------------------------------------------- convexity and slopes


@PROPERTY
@given(m1=margins_st, m2=margins_st, lam=st.floats(0, 1))
def test_convex_losses_satisfy_the_chord_inequality(m1, m2, lam):
    for name in CONVEX:
        phi = ls.MARGIN_LOSSES[name]
        left = phi(lam * m1 + (1 - lam) * m2)
        right = lam * phi(m1) + (1 - lam) * phi(m2)
        assert left <= right + 1e-9 * (1 + abs(right)), name


@pytest.mark.parametrize("name, m1, m2", [("0-1", -1.0, 1.0), ("sigmoid-squared", -3.0, -0.5)])
def test_non_convex_losses_break_the_chord_inequality(name, m1, m2):
    phi = ls.MARGIN_LOSSES[name]
    assert name in NOT_CONVEX
    assert phi((m1 + m2) / 2) > (phi(m1) + phi(m2)) / 2 + 0.05


@PROPERTY
@given(m=st.floats(-8, 8))
def test_derivatives_match_central_differences_away_from_kinks(m):
    assume(all(abs(m - k) > 1e-4 for k in (0.0, 1.0)))
    h = 1e-6
    for name, phi in ls.MARGIN_LOSSES.items():
        numeric = (phi(m + h) - phi(m - h)) / (2 * h)
        assert phi.derivative(m) == pytest.approx(numeric, abs=1e-6), name


@pytest.mark.parametrize("name", ls.MARGIN_LOSSES)
def test_differentiable_exactly_when_one_sided_slopes_agree_at_the_kinks(name):
    phi = ls.MARGIN_LOSSES[name]
    h = 1e-7
    for k in (0.0, 1.0):
        left = (phi(k) - phi(k - h)) / h
        right = (phi(k + h) - phi(k)) / h
        agree = abs(left - right) < 1e-5 and abs(phi(k + h) - phi(k - h)) < 1e-5
        if phi.differentiable or KINKS.get(name) != k:
            assert agree, (name, k, left, right)
        else:
            assert not agree, (name, k)
            # the slope returned at the kink is the left one (for the 0-1 loss: 0, its slope elsewhere)
            assert phi.derivative(k) == pytest.approx(left if name != "0-1" else 0.0, abs=1e-5)


def test_slopes_on_badly_wrong_and_too_right_points():
    d = {name: float(phi.derivative(-10.0)) for name, phi in ls.MARGIN_LOSSES.items()}
    assert abs(d["sigmoid-squared"]) < 1e-7  # almost no pull: gradient descent crawls
    assert d["perceptron"] == d["hinge"] == d["absolute"] == -1.0
    assert d["logistic"] == pytest.approx(-1.0, abs=1e-4)
    assert d["squared"] == -22.0 and d["0-1"] == 0.0
    too_right = {name: float(phi.derivative(3.0)) for name, phi in ls.MARGIN_LOSSES.items()}
    assert too_right["squared"] == 4.0 and too_right["absolute"] == 1.0  # punished
    assert too_right["perceptron"] == too_right["hinge"] == 0.0
    assert -0.05 < too_right["logistic"] < 0 and -0.05 < too_right["sigmoid-squared"] < 0


@PROPERTY
@given(z=hnp.arrays(float, st.integers(1, 30), elements=st.floats(-1e4, 1e4, allow_subnormal=False)))
def test_expit_agrees_with_scipy_in_both_tails_without_warnings(z):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = ls.expit(z)
    np.testing.assert_allclose(ours, expit(z), rtol=1e-14, atol=1e-300)  # scipy rounds exp(-710) and below to 0
    assert np.all((ours >= 0) & (ours <= 1))


def test_expit_by_hand():
    np.testing.assert_array_equal(ls.expit([0.0, -800.0, 800.0]), [0.5, 0.0, 1.0])
    assert ls.expit(-40.0) == pytest.approx(np.exp(-40.0) / (1 + np.exp(-40.0)), rel=1e-15)
    # far out in the left tail it keeps its relative precision (1 - sigma(30) would have lost it)
    assert ls.expit(-30.0) == pytest.approx(1 / (1 + np.exp(30.0)), rel=1e-15)


# --------------------------------------------------------------------------- on data


def test_margins_by_hand_and_their_errors():
    X = np.array([[1.0, 2.0], [1.0, -1.0]])
    np.testing.assert_allclose(ls.margins([0.5, 1.0], X, [1, -1]), [2.5, 0.5])
    with pytest.raises(ValueError, match=r"^w has shape \(3,\), expected \(2,\)"):
        ls.margins([1.0, 2.0, 3.0], X, [1, -1])
    with pytest.raises(ValueError, match=r"^y must hold labels -1 and \+1"):
        ls.margins([1.0, 2.0], X, [1, 0])


@PROPERTY
@given(n=st.integers(1, 30), d=st.integers(1, 4), seed=seeds,
       name=st.sampled_from(["squared", "sigmoid-squared", "logistic"]))
def test_gradient_of_the_mean_loss_matches_finite_differences(n, d, seed, name):
    rng = np.random.default_rng(seed)
    X, w, y = rng.normal(size=(n, d)), rng.normal(size=d), rng.choice([-1, 1], size=n)
    h = 1e-6
    numeric = np.array([
        (ls.mean_margin_loss(w + h * e, X, y, name) - ls.mean_margin_loss(w - h * e, X, y, name)) / (2 * h)
        for e in np.eye(d)
    ])
    np.testing.assert_allclose(ls.mean_margin_loss_gradient(w, X, y, name), numeric, atol=1e-5, rtol=1e-5)


@PROPERTY
@given(n=st.integers(2, 40), gamma=st.floats(0.05, 0.4), seed=seeds)
def test_gradient_descent_on_the_perceptron_loss_with_step_n_is_the_batch_perceptron(n, gamma, seed):
    # grad of (1/n) sum max(0, -m_i) with the left slope at 0 is -(1/n) sum_{m_i <= 0} y_i x_i: a step of
    # size n adds sum_{mistakes} y_i x_i, the batch rule of lecture 02, and stops moving once all m_i > 0
    sample = data.separable_with_margin(n, 3, gamma, rng=seed)
    batch = perceptron.train_perceptron_batch(sample.X, sample.y)
    run = ls.gradient_descent(sample.X, sample.y, "perceptron", np.zeros(3), step_size=float(n),
                              n_steps=batch.n_epochs + 3)
    np.testing.assert_allclose(run.w, batch.w, rtol=1e-12, atol=1e-12)
    assert run.error[-1] == 0.0


def test_gradient_descent_records_its_path_and_leaves_w0_alone():
    X, y = data.two_gaussians(30, rng=2)
    Z = perceptron.add_bias(X)
    w0 = np.array([0.1, -0.2, 0.3])
    run = ls.gradient_descent(Z, y, "hinge", w0, step_size=0.05, n_steps=7)
    assert run.path.shape == (8, 3) and run.risk.shape == run.error.shape == (8,)
    np.testing.assert_array_equal(run.path[0], [0.1, -0.2, 0.3])
    np.testing.assert_array_equal(w0, [0.1, -0.2, 0.3])
    np.testing.assert_array_equal(run.w, run.path[-1])
    for k in range(7):  # every step is w - step * gradient
        gradient = ls.mean_margin_loss_gradient(run.path[k], Z, y, "hinge")
        np.testing.assert_allclose(run.path[k + 1], run.path[k] - 0.05 * gradient)
    for k in (0, 7):
        assert run.risk[k] == pytest.approx(ls.mean_margin_loss(run.path[k], Z, y, "hinge"))
        assert run.error[k] == pytest.approx(np.mean(ls.margins(run.path[k], Z, y) <= 0))
    with pytest.raises(ValueError, match=r"^step_size must be a finite number > 0"):
        ls.gradient_descent(Z, y, "hinge", w0, step_size=0.0)
    with pytest.raises(ValueError, match=r"^w0 has shape \(2,\), expected \(3,\)"):
        ls.gradient_descent(Z, y, "hinge", [0.0, 0.0])


def test_gradient_descent_on_the_logistic_loss_reaches_sklearns_unpenalised_logistic_regression():
    from sklearn.linear_model import LogisticRegression

    X, y = data.two_gaussians(60, rng=5, distance=1.5)  # overlapping: a finite minimiser exists
    Z = perceptron.add_bias(X)
    run = ls.gradient_descent(Z, y, "logistic", np.zeros(3), step_size=1.0, n_steps=3000)
    reference = LogisticRegression(C=np.inf, fit_intercept=False, tol=1e-12, max_iter=10_000).fit(Z, y).coef_[0]
    np.testing.assert_allclose(run.w, reference, atol=1e-4)
    assert np.all(np.diff(run.risk) <= 1e-12)  # a small enough step never increases a smooth convex risk


@pytest.mark.parametrize("seed", range(3))
def test_least_squares_classifier_agrees_with_sklearn_and_the_normal_equations(seed):
    from sklearn.linear_model import LinearRegression

    X, y = data.two_gaussians(40, rng=seed)
    Z = perceptron.add_bias(X)
    w = ls.least_squares_classifier(Z, y)
    np.testing.assert_allclose(w, LinearRegression(fit_intercept=False).fit(Z, y).coef_, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(Z.T @ Z @ w, Z.T @ y, rtol=1e-8, atol=1e-10)
    # and it minimises the squared margin loss: the gradient vanishes there
    np.testing.assert_allclose(ls.mean_margin_loss_gradient(w, Z, y, "squared"), 0.0, atol=1e-10)


# --------------------------------------------------------------------------- losses of predictions


@PROPERTY
@given(pairs=hnp.arrays(float, st.tuples(st.integers(1, 20), st.just(2)), elements=st.floats(-1e3, 1e3)))
def test_prediction_losses_agree_with_sklearn(pairs):
    from sklearn.metrics import mean_absolute_error, mean_squared_error

    y_hat, y = pairs[:, 0], pairs[:, 1]
    assert ls.squared_error(y_hat, y).mean() == pytest.approx(mean_squared_error(y, y_hat), rel=1e-9, abs=1e-9)
    assert ls.absolute_error(y_hat, y).mean() == pytest.approx(mean_absolute_error(y, y_hat), rel=1e-9, abs=1e-9)


def test_zero_one_error_counts_disagreements():
    np.testing.assert_array_equal(ls.zero_one_error([1, -1, 1, 0.5], [1, 1, -1, 0.5]), [0, 1, 1, 0])
    with pytest.raises(ValueError, match=r"^y_hat has shape \(2,\) but y has shape \(3,\)"):
        ls.zero_one_error([1, 1], [1, 1, 1])
