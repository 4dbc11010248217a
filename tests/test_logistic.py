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


# --------------------------------------------------------------------------- softmax regression (several classes)


def multiclass_sample(rng, n, d, K, scale=1.0):
    X = rng.standard_normal((n, d)) * scale
    W = rng.standard_normal((d, K)) / scale
    A = X @ W + rng.standard_normal(K)
    P = np.exp(A - A.max(axis=1, keepdims=True))
    P /= P.sum(axis=1, keepdims=True)
    y = (rng.uniform(size=(n, 1)) > P.cumsum(axis=1)).sum(axis=1)
    y[:K] = np.arange(K)                                      # every class present
    return X, y


def test_softmax_is_stable_and_equals_scipys():
    from scipy.special import softmax as scipy_softmax

    A = np.array([[0.0, 0.0, 0.0], [1000.0, 999.0, -1000.0], [-5000.0, -5001.0, -4000.0], [1e4, -1e4, 0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")                        # no overflow, no 0/0
        P = logistic.softmax(A)
    np.testing.assert_allclose(P, scipy_softmax(A, axis=1), rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=1e-15)
    assert P[3].tolist() == [1.0, 0.0, 0.0]


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 30), d=st.integers(1, 4), K=st.integers(2, 5), lam=st.floats(0, 10), seed=st.integers(0, 2**32 - 1))
def test_softmax_gradient_and_hessian_are_the_derivatives_of_the_loss(n, d, K, lam, seed):
    rng = np.random.default_rng(seed)
    Z, y = add_bias(rng.standard_normal((n, d))), rng.integers(0, K, size=n)
    Theta = rng.standard_normal((d + 1, K))
    G, H = logistic.softmax_gradient(Theta, Z, y, lam), logistic.softmax_hessian(Theta, Z, y, lam)
    eps, D = 1e-6, (d + 1) * K
    E = np.eye(D).reshape(D, d + 1, K) * eps
    numeric_G = np.array([(logistic.softmax_log_loss(Theta + e, Z, y, lam) - logistic.softmax_log_loss(Theta - e, Z, y, lam))
                          / (2 * eps) for e in E]).reshape(d + 1, K)
    numeric_H = np.array([((logistic.softmax_gradient(Theta + e, Z, y, lam) - logistic.softmax_gradient(Theta - e, Z, y, lam))
                           / (2 * eps)).ravel() for e in E])
    np.testing.assert_allclose(G, numeric_G, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(H, numeric_H, rtol=1e-5, atol=1e-6)
    assert np.linalg.eigvalsh(H).min() >= -1e-10 * max(1.0, np.abs(H).max())     # convex
    # the flat directions: adding c to every column changes neither the unpenalised loss nor the probabilities
    c = rng.standard_normal(d + 1) * 10
    assert logistic.softmax_log_loss(Theta + c[:, None], Z, y) == pytest.approx(logistic.softmax_log_loss(Theta, Z, y), rel=1e-9)
    np.testing.assert_allclose(logistic.softmax_gradient(Theta, Z, y).sum(axis=1), 0.0, atol=1e-12)
    v = np.kron(c, np.ones(K))                                # the shift, flattened as the Hessian's index j * K + k
    np.testing.assert_allclose(H @ v, lam * v * (np.arange(v.size) >= K), atol=1e-9 * max(1.0, np.abs(H).max()) * np.abs(v).max())


def test_softmax_log_loss_equals_scikit_learns_log_loss_with_huge_scores():
    from sklearn.metrics import log_loss

    rng = np.random.default_rng(5)
    Z, y = add_bias(rng.standard_normal((40, 2))), np.arange(40) % 3
    Theta = rng.standard_normal((3, 3))
    expected = log_loss(y, logistic.predict_softmax_proba(Theta, Z), labels=[0, 1, 2])
    assert logistic.softmax_log_loss(Theta, Z, y) == pytest.approx(expected, rel=1e-12)
    huge = np.array([[0.0, 0.0, 0.0], [2000.0, -2000.0, 0.0], [0.0, 0.0, 0.0]])
    Z1 = np.array([[1.0, 1.0, 0.0], [1.0, -1.0, 0.0]])     # scores (2000, -2000, 0) and (-2000, 2000, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value = logistic.softmax_log_loss(huge, Z1, [1, 1])
        G = logistic.softmax_gradient(huge, Z1, [1, 1])
    assert value == pytest.approx(2000.0, rel=1e-12)           # (4000 + 0) / 2: a confident miss costs its margin
    np.testing.assert_allclose(G, Z1.T @ (np.array([[1.0, -1.0, 0.0], [0.0, 0.0, 0.0]])) / 2, atol=1e-300)


@pytest.mark.parametrize("C", [1e4, 1.0, 0.05])
@pytest.mark.parametrize("K", [3, 4])
def test_fit_softmax_equals_scikit_learns_multinomial_logistic_regression(C, K):
    rng = np.random.default_rng(K)
    for _ in range(3):
        n, d = int(rng.integers(40, 300)), int(rng.integers(1, 5))
        X, y = multiclass_sample(rng, n, d, K, scale=10 ** rng.uniform(-1, 1))
        reference = LogisticRegression(C=C, tol=1e-12, max_iter=100_000).fit(X, y)
        expected_Theta = np.vstack([reference.intercept_, reference.coef_.T])
        fit = logistic.fit_softmax(add_bias(X), y, lam=1 / (n * C), tol=1e-10)
        assert fit.converged
        np.testing.assert_allclose(fit.Theta.sum(axis=1), 0.0, atol=1e-10)               # centred, as scikit-learn's
        np.testing.assert_allclose(logistic.predict_softmax_proba(fit.Theta, add_bias(X)), reference.predict_proba(X), atol=1e-6)
        np.testing.assert_allclose(fit.Theta, expected_Theta, rtol=1e-4, atol=1e-5 * max(1.0, np.abs(expected_Theta).max()))
        assert np.all(np.diff(fit.losses) <= 1e-12 * fit.losses[0])                         # never uphill


def test_softmax_gradient_descent_reaches_newtons_fit_and_stays_centred():
    rng = np.random.default_rng(8)
    X, y = multiclass_sample(rng, 150, 2, 3)
    Z = add_bias(X)
    newton = logistic.fit_softmax(Z, y, lam=0.01, tol=1e-10)
    descent = logistic.fit_softmax(Z, y, lam=0.01, method="gradient", tol=1e-8, max_iter=100_000)
    assert descent.converged and newton.converged and newton.iterations < 15 < descent.iterations
    assert np.all(np.diff(descent.losses) <= 1e-12 * descent.losses[0])                    # the step 1/M is safe
    np.testing.assert_allclose(descent.Theta.sum(axis=1), 0.0, atol=1e-10)
    np.testing.assert_allclose(descent.Theta, newton.Theta, atol=1e-5)


def test_fit_softmax_with_two_classes_is_logistic_regression():
    rng = np.random.default_rng(6)
    X, y = sample(rng, 200, 3)
    Z = add_bias(X)
    fit = logistic.fit_softmax(Z, y, tol=1e-11)
    binary = logistic.fit_logistic(Z, y, tol=1e-11)
    np.testing.assert_allclose(fit.Theta[:, 1] - fit.Theta[:, 0], binary.theta, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(logistic.predict_softmax_proba(fit.Theta, Z)[:, 1], logistic.predict_proba(binary.theta, Z), atol=1e-10)
    assert logistic.softmax_log_loss(fit.Theta, Z, y) == pytest.approx(logistic.log_loss(binary.theta, Z, y) / len(y), rel=1e-10)


def test_penalised_softmax_fit_is_stationary_and_its_weights_centred():
    rng = np.random.default_rng(7)
    X, y = multiclass_sample(rng, 120, 2, 3)
    Z = add_bias(X)
    fit = logistic.fit_softmax(Z, y, lam=0.1, tol=1e-12)
    assert fit.converged and fit.iterations <= 15
    np.testing.assert_allclose(logistic.softmax_gradient(fit.Theta, Z, y, 0.1), 0.0, atol=1e-12)
    shifted = fit.Theta + np.array([0.0, 0.3, -0.2])[:, None]                 # same probabilities, larger penalty
    assert logistic.softmax_log_loss(shifted, Z, y, 0.1) > logistic.softmax_log_loss(fit.Theta, Z, y, 0.1)


def test_softmax_predictions_break_ties_towards_the_larger_class():
    Theta = np.array([[0.0, 0.0, 0.0], [1.0, 1.0, -1.0]])
    Z = np.array([[1.0, 1.0], [1.0, 0.0], [1.0, -1.0]])      # scores (1, 1, -1), (0, 0, 0), (-1, -1, 1)
    assert logistic.predict_softmax(Theta, Z).tolist() == [1, 2, 2]


@pytest.mark.parametrize("call, error, pattern", [
    (lambda: logistic.softmax(np.zeros(3)), ValueError, r"A must be a 2-d array"),
    (lambda: logistic.softmax_log_loss(np.zeros((3, 2)), np.ones((4, 2)), np.zeros(4, dtype=int)), ValueError, r"Theta has shape \(3, 2\), expected \(2, K\)"),
    (lambda: logistic.softmax_log_loss(np.zeros((2, 1)), np.ones((4, 2)), np.zeros(4, dtype=int)), ValueError, "K >= 2"),
    (lambda: logistic.softmax_gradient(np.zeros((2, 3)), np.ones((4, 2)), np.array([0, 1, 3, 0])), ValueError, "label 3, but Theta has K = 3"),
    (lambda: logistic.softmax_gradient(np.zeros((2, 3)), np.ones((4, 2)), np.array([0, -1, 1, 0])), ValueError, "labels 0, ..., K - 1"),
    (lambda: logistic.softmax_gradient(np.zeros((2, 3)), np.ones((4, 2)), np.array([0.5, 1, 1, 0])), ValueError, "integer labels"),
    (lambda: logistic.softmax_hessian(np.zeros((2, 3)), np.ones((4, 2)), np.zeros(3, dtype=int)), ValueError, r"y has shape \(3,\), expected \(4,\)"),
    (lambda: logistic.fit_softmax(np.ones((4, 2)), np.array([0, 1, 2, 0]), lam=-1.0), ValueError, "lam must be"),
    (lambda: logistic.fit_softmax(np.ones((4, 2)), np.array([0, 1, 2, 0]), K=1), ValueError, "K must be at least 2"),
    (lambda: logistic.fit_softmax(np.ones((4, 2)), np.array([0, 1, 2, 0]), method="sgd"), ValueError, "method must be one of"),
    (lambda: logistic.fit_softmax(np.ones((4, 2)), np.array([0, 1, 2, 0]), K=2.0), TypeError, "K must be an integer"),
    (lambda: logistic.predict_softmax_proba(np.zeros((3, 2)), np.ones((4, 2))), ValueError, r"Theta has shape \(3, 2\)"),
])
def test_softmax_bad_input_is_named(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()
