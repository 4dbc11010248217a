"""mlcourse.logistic against scikit-learn's LogisticRegression and finite differences; the pinball
loss against the quantiles it asks for."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import LogisticRegression

from mlcourse import logistic, losses
from mlcourse.perceptron import add_bias


def sample(rng, n, d, scale=1.0, separable=False):
    X = rng.standard_normal((n, d)) * scale
    w = rng.standard_normal(d) / scale
    a = X @ w + 0.3
    y = (a > 0).astype(int) if separable else (rng.uniform(size=n) < 1 / (1 + np.exp(-a))).astype(int)
    if y.min() == y.max():
        y[0] = 1 - y[0]
    return X, y


def test_sigmoid_and_log_one_plus_exp_are_stable_at_the_extremes():
    a = np.array([-1e4, -800.0, -30.0, 0.0, 30.0, 800.0, 1e4])
    with warnings.catch_warnings():
        warnings.simplefilter("error")                        # no overflow warning either
        p, l = logistic.sigmoid(a), logistic.log_one_plus_exp(a)
    assert np.all(np.isfinite(p)) and np.all(np.isfinite(l))
    assert p[0] == 0.0 and p[-1] == 1.0 and p[3] == 0.5
    np.testing.assert_allclose(l, [0.0, 0.0, np.log1p(np.exp(-30.0)), np.log(2), 30 + np.log1p(np.exp(-30.0)), 800, 1e4],
                               rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(logistic.sigmoid(-a), 1 - logistic.sigmoid(a), atol=1e-15)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 30), d=st.integers(1, 5), lam=st.floats(0, 10), seed=st.integers(0, 2**32 - 1))
def test_gradient_and_hessian_are_the_derivatives_of_the_loss(n, d, lam, seed):
    rng = np.random.default_rng(seed)
    X, y = sample(rng, n, d)
    Z, theta = add_bias(X), rng.standard_normal(d + 1)
    g, H = logistic.gradient(theta, Z, y, lam), logistic.hessian(theta, Z, y, lam)
    eps = 1e-6
    E = np.eye(d + 1) * eps
    numeric_g = np.array([(logistic.log_loss(theta + e, Z, y, lam) - logistic.log_loss(theta - e, Z, y, lam)) / (2 * eps) for e in E])
    numeric_H = np.array([(logistic.gradient(theta + e, Z, y, lam) - logistic.gradient(theta - e, Z, y, lam)) / (2 * eps) for e in E])
    np.testing.assert_allclose(g, numeric_g, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(H, numeric_H, rtol=1e-5, atol=1e-5)
    assert np.linalg.eigvalsh(H).min() >= -1e-10 * max(1.0, np.abs(H).max())   # convex


@pytest.mark.parametrize("C", [np.inf, 10.0, 0.1])
def test_fit_equals_scikit_learns_logistic_regression(C):
    rng = np.random.default_rng(0)
    for _ in range(5):
        n, d = int(rng.integers(30, 300)), int(rng.integers(1, 6))
        X, y = sample(rng, n, d, scale=10 ** rng.uniform(-1, 1))
        reference = LogisticRegression(C=C, tol=1e-10, max_iter=10_000).fit(X, y)
        for method in logistic.FIT_METHODS:
            fit = logistic.fit_logistic(add_bias(X), y, lam=1 / C, method=method, tol=1e-9, max_iter=200_000)
            assert fit.converged
            np.testing.assert_allclose(fit.theta, np.r_[reference.intercept_, reference.coef_[0]], rtol=1e-4, atol=1e-5)
            np.testing.assert_allclose(logistic.predict_proba(fit.theta, add_bias(X)), reference.predict_proba(X)[:, 1],
                                       atol=1e-6)


def test_both_methods_never_increase_the_loss_and_newton_converges_in_few_steps():
    rng = np.random.default_rng(1)
    X, y = sample(rng, 400, 4, scale=3.0)
    Z = add_bias(X)
    newton = logistic.fit_logistic(Z, y, method="newton", tol=1e-10)
    descent = logistic.fit_logistic(Z, y, method="gradient", tol=1e-10, max_iter=500_000)
    for fit in (newton, descent):
        assert fit.converged and np.all(np.diff(fit.losses) <= 1e-12 * fit.losses[0])
    assert newton.iterations <= 12 < descent.iterations
    assert newton.losses[-1] == pytest.approx(descent.losses[-1], rel=1e-9)


def test_newton_step_is_the_minimiser_of_the_quadratic_model():
    rng = np.random.default_rng(2)
    X, y = sample(rng, 50, 3)
    Z, theta = add_bias(X), rng.standard_normal(4)
    step = logistic.newton_step(theta, Z, y, 0.5)
    g, H = logistic.gradient(theta, Z, y, 0.5), logistic.hessian(theta, Z, y, 0.5)
    np.testing.assert_allclose(H @ (step - theta), -g, rtol=1e-9, atol=1e-12)


def test_separable_data_has_no_mle_and_a_penalty_gives_one():
    rng = np.random.default_rng(3)
    X, y = sample(rng, 60, 2, separable=True)
    Z = add_bias(X)
    free = [logistic.fit_logistic(Z, y, max_iter=m, tol=1e-300) for m in (5, 10, 20)]
    norms = [np.linalg.norm(f.theta[1:]) for f in free]
    assert not free[-1].converged and norms[0] < norms[1] < norms[2]
    assert free[-1].losses[-1] < 1e-4 * free[0].losses[-1]          # the loss goes to 0, not to a minimum
    loose = logistic.fit_logistic(Z, y)                          # the gradient goes to 0 too: a loose tol "converges"
    assert loose.converged and np.linalg.norm(loose.theta[1:]) > 10 * np.linalg.norm(logistic.fit_logistic(Z, y, lam=1.0).theta[1:])
    assert logistic.predict(free[-1].theta, Z).tolist() == y.tolist()
    penalised = logistic.fit_logistic(Z, y, lam=1.0, tol=1e-10)
    assert penalised.converged and np.linalg.norm(penalised.theta[1:]) < norms[0]


def test_predictions_break_ties_towards_one():
    assert logistic.predict(np.array([0.0, 1.0]), np.array([[1.0, 0.0], [1.0, -1.0], [1.0, 2.0]])).tolist() == [1, 0, 1]


@pytest.mark.parametrize("tau", [0.1, 0.5, 0.9])
def test_pinball_loss_is_smallest_at_the_quantile(tau):
    rng = np.random.default_rng(4)
    y = rng.exponential(size=2001)
    grid = np.linspace(0, 5, 5001)
    risks = [losses.pinball_error(np.full_like(y, c), y, tau).mean() for c in grid]
    assert grid[int(np.argmin(risks))] == pytest.approx(np.quantile(y, tau, method="inverted_cdf"), abs=2e-3)
    np.testing.assert_allclose(losses.pinball_error(np.zeros(3), np.array([2.0, -2.0, 0.0]), 0.5),
                               0.5 * losses.absolute_error(np.zeros(3), np.array([2.0, -2.0, 0.0])))


@pytest.mark.parametrize("call, error, pattern", [
    (lambda: logistic.log_loss(np.zeros(2), np.ones((3, 2)), np.array([0, 1, 2])), ValueError, "labels 0 and 1"),
    (lambda: logistic.log_loss(np.zeros(3), np.ones((3, 2)), np.array([0, 1, 1])), ValueError, r"theta has shape \(3,\), expected \(2,\)"),
    (lambda: logistic.gradient(np.zeros(2), np.ones((3, 2)), np.array([0, 1])), ValueError, r"y has shape \(2,\), expected \(3,\)"),
    (lambda: logistic.fit_logistic(np.ones((3, 2)), np.array([0, 1, 1]), method="lbfgs"), ValueError, "method must be one of"),
    (lambda: logistic.fit_logistic(np.ones((3, 2)), np.array([0, 1, 1]), lam=-1.0), ValueError, "lam must be"),
    (lambda: logistic.fit_logistic(np.ones((3, 2)), np.array([0, 1, 1]), method="gradient", step=0.0), ValueError, "step must be"),
    (lambda: losses.pinball_error(np.zeros(2), np.zeros(2), 1.0), ValueError, "tau must be a number strictly between 0 and 1"),
])
def test_bad_input_is_named(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()
