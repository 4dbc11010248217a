"""mlcourse.smoothing against scikit-learn's KNeighborsRegressor, a direct double loop, and refitting
n times for leave-one-out."""

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsRegressor

from mlcourse import regression, smoothing


def sample(rng, n, d=1, noise=0.3):
    X = rng.uniform(-1, 1, (n, d)) * 10 ** rng.uniform(-1, 1)
    y = np.sin(3 * X[:, 0] / np.abs(X).max()) + noise * rng.standard_normal(n)
    return X, y


@pytest.mark.parametrize("kernel", smoothing.KERNELS)
def test_nadaraya_watson_equals_a_direct_double_loop(kernel):
    rng = np.random.default_rng(0)
    for _ in range(5):
        X, y = sample(rng, int(rng.integers(5, 40)), int(rng.integers(1, 4)))
        Q = X[:7] + 0.1 * rng.standard_normal((7, X.shape[1])) * np.abs(X).max()
        h = float(np.abs(X).max() * rng.uniform(0.2, 1.0))
        expected = []
        for q in Q:
            k = np.array([smoothing.kernel_profile(np.linalg.norm(q - x) / h, kernel) for x in X])
            expected.append(k @ y / k.sum() if k.sum() > 0 else np.nan)
        np.testing.assert_allclose(smoothing.nadaraya_watson(X, y, Q, h, kernel), expected, rtol=1e-10, atol=1e-12)
        W = smoothing.nadaraya_watson_weights(X, Q, h, kernel)
        rows = ~np.isnan(W).any(axis=1)
        np.testing.assert_allclose(W[rows].sum(axis=1), 1.0)


def test_a_tiny_bandwidth_gives_the_nearest_target_not_nan():
    """Gaussian weights are scaled per row before the division, so they cannot all underflow to 0."""
    X = np.array([[0.0], [1.0], [3.0]])
    y = np.array([5.0, 6.0, 7.0])
    np.testing.assert_allclose(smoothing.nadaraya_watson(X, y, np.array([[0.9], [2.9]]), 1e-6), [6.0, 7.0])


def test_bounded_kernels_leave_lonely_queries_undefined():
    X, y = np.array([[0.0], [1.0]]), np.array([1.0, 2.0])
    got = smoothing.nadaraya_watson(X, y, np.array([[0.1], [5.0]]), 0.5, "epanechnikov")
    assert got[0] == pytest.approx(1.0) and np.isnan(got[1])


def test_knn_regression_equals_scikit_learns():
    rng = np.random.default_rng(1)
    for _ in range(5):
        X, y = sample(rng, int(rng.integers(10, 80)), int(rng.integers(1, 4)))
        Q = rng.uniform(-1, 1, (20, X.shape[1])) * np.abs(X).max()
        k = int(rng.integers(1, 8))
        reference = KNeighborsRegressor(n_neighbors=k, algorithm="brute").fit(X, y).predict(Q)
        np.testing.assert_allclose(smoothing.knn_regression(X, y, Q, k), reference, rtol=1e-10)
        np.testing.assert_allclose(smoothing.knn_weights(X, Q, k) @ y, reference, rtol=1e-10)


@pytest.mark.parametrize("kernel", smoothing.KERNELS)
def test_loo_residuals_of_nadaraya_watson_equal_refitting_n_times(kernel):
    rng = np.random.default_rng(2)
    X, y = sample(rng, 60, 2)
    h = 0.6 * np.abs(X).max()
    H = smoothing.nadaraya_watson_weights(X, X, h, kernel)
    brute = [y[i] - smoothing.nadaraya_watson(np.delete(X, i, 0), np.delete(y, i), X[i:i + 1], h, kernel)[0]
             for i in range(len(y))]
    np.testing.assert_allclose(smoothing.loo_residuals(H, y), brute, rtol=1e-9, atol=1e-12)
    assert smoothing.loo_error(X, y, h, kernel) == pytest.approx(np.mean(np.square(brute)))


def test_loo_residuals_of_ridge_equal_refitting_n_times():
    """Least squares and ridge are linear smoothers whose leave-one-out fit obeys the same formula."""
    rng = np.random.default_rng(3)
    X = rng.standard_normal((30, 4))
    y = X @ rng.standard_normal(4) + rng.standard_normal(30)
    lam = 2.0
    H = X @ np.linalg.solve(X.T @ X + lam * np.eye(4), X.T)
    brute = []
    for i in range(30):
        fit = regression.fit_ridge(np.delete(X, i, 0), np.delete(y, i), lam, fit_intercept=False)
        brute.append(y[i] - X[i] @ fit.w)
    np.testing.assert_allclose(smoothing.loo_residuals(H, y), brute, rtol=1e-9)


def test_the_formula_does_not_hold_for_knn():
    """k-NN's leave-one-out fit brings in the (k+1)-th neighbour: not a renormalisation."""
    rng = np.random.default_rng(4)
    X, y = sample(rng, 50)
    W = smoothing.knn_weights(X, X, 5)
    brute = [y[i] - smoothing.knn_regression(np.delete(X, i, 0), np.delete(y, i), X[i:i + 1], 5)[0] for i in range(50)]
    assert np.abs(smoothing.loo_residuals(W, y) - brute).max() > 0.01


@pytest.mark.parametrize("call, error, pattern", [
    (lambda: smoothing.nadaraya_watson(np.zeros((3, 1)), np.zeros(3), np.zeros((2, 2)), 1.0), ValueError, "same dimension"),
    (lambda: smoothing.nadaraya_watson(np.zeros((3, 1)), np.zeros(2), np.zeros((2, 1)), 1.0), ValueError, r"y_train has shape \(2,\)"),
    (lambda: smoothing.nadaraya_watson(np.zeros((3, 1)), np.zeros(3), np.zeros((2, 1)), 0.0), ValueError, "h must be a finite number > 0"),
    (lambda: smoothing.nadaraya_watson(np.zeros((3, 1)), np.zeros(3), np.zeros((2, 1)), 1.0, "cosine"), ValueError, "kernel must be one of"),
    (lambda: smoothing.knn_regression(np.zeros((3, 1)), np.zeros(3), np.zeros((2, 1)), 4), ValueError, "k = 4 is larger"),
    (lambda: smoothing.loo_residuals(np.eye(3), np.zeros(3)), ValueError, "H_ii = 1"),
    (lambda: smoothing.loo_residuals(np.zeros((3, 2)), np.zeros(3)), ValueError, "must be square"),
])
def test_bad_input_is_named(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()
