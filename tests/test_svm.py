"""mlcourse.svm against libsvm (scikit-learn's SVC), a general-purpose optimiser (SciPy), and the
theory: strong duality, the optimality conditions, and that only the support vectors matter."""

import doctest

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.svm import SVC

from mlcourse import kernels, svm


def noisy_linear(rng, n, d=2, noise=0.5, scale=1.0):
    X = scale * rng.standard_normal((n, d))
    y = np.where(X @ rng.standard_normal(d) / scale + noise * rng.standard_normal(n) > 0, 1, -1)
    if np.all(y == y[0]):
        y[0] = -y[0]
    return X, y


def libsvm_alpha(model, n):
    alpha = np.zeros(n)
    alpha[model.support_] = np.abs(model.dual_coef_[0])
    return alpha


def test_docstring_examples_run():
    assert doctest.testmod(svm).failed == 0


@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly"])
def test_fit_svm_equals_libsvm(kernel):
    rng = np.random.default_rng({"linear": 0, "rbf": 1, "poly": 2}[kernel])
    for trial in range(8):
        n = int(rng.integers(10, 80))
        X, y = noisy_linear(rng, n, d=int(rng.integers(1, 5)), scale=10 ** rng.uniform(-1, 1))
        C = float(10 ** rng.uniform(-1.5, 1.5))
        K = {"linear": lambda: kernels.linear_kernel(X, X),
             "rbf": lambda: kernels.rbf_kernel(X, X, X.std()),
             "poly": lambda: kernels.polynomial_kernel(X / X.std(), X / X.std(), 3, 1.0)}[kernel]()
        ours = svm.fit_svm(K, y, C=C, tol=1e-9)
        theirs = SVC(kernel="precomputed", C=C, tol=1e-9).fit(K, y)
        assert ours.converged
        scale = max(1.0, abs(ours.dual))
        assert ours.dual == pytest.approx(svm.dual_objective(libsvm_alpha(theirs, n), K, y), abs=1e-7 * scale)
        # the same classifier: decision values agree (alpha itself is unique only where K is non-singular)
        np.testing.assert_allclose(svm.decision_function(K, y, ours.alpha, ours.b), theirs.decision_function(K),
                                   atol=1e-5 * max(1.0, np.abs(theirs.decision_function(K)).max()))


def test_fit_svm_reaches_the_optimum_of_a_general_purpose_optimiser():
    rng = np.random.default_rng(3)
    for _ in range(6):
        n = int(rng.integers(5, 16))
        X, y = noisy_linear(rng, n)
        K, C = kernels.rbf_kernel(X, X, 1.0), float(rng.uniform(0.1, 5))
        Q = (y[:, None] * y[None, :]) * K
        best = minimize(lambda a: 0.5 * a @ Q @ a - a.sum(), np.full(n, min(C, 1.0) / 2), jac=lambda a: Q @ a - 1,
                        bounds=[(0, C)] * n, constraints=[{"type": "eq", "fun": lambda a: a @ y, "jac": lambda a: y.astype(float)}],
                        method="SLSQP", options={"ftol": 1e-12, "maxiter": 500})
        ours = svm.fit_svm(K, y, C=C, tol=1e-9)
        assert ours.dual >= -best.fun - 1e-7
        assert ours.dual == pytest.approx(-best.fun, abs=1e-6)


def test_strong_duality_and_the_optimality_conditions_for_the_linear_kernel():
    rng = np.random.default_rng(4)
    for _ in range(10):
        X, y = noisy_linear(rng, int(rng.integers(10, 60)), d=3)
        C = float(10 ** rng.uniform(-1, 1))
        K = kernels.linear_kernel(X, X)
        r = svm.fit_svm(K, y, C=C, tol=1e-10)
        w = svm.weights(X, y, r.alpha)
        assert svm.primal_objective(w, r.b, X, y, C) == pytest.approx(r.dual, rel=1e-6, abs=1e-8)
        assert not any(svm.kkt_report(r.alpha, K, y, r.b, C, tol=1e-6).values())


def test_weak_duality_every_dual_value_is_below_every_primal_value():
    rng = np.random.default_rng(5)
    X, y = noisy_linear(rng, 30)
    K, C = kernels.linear_kernel(X, X), 2.0
    for _ in range(200):
        alpha = rng.uniform(0, C, len(y))
        pos, neg = y > 0, y < 0
        alpha[neg] *= (alpha[pos].sum() / alpha[neg].sum())               # sum alpha y = 0
        if alpha.max() > C:
            alpha *= C / alpha.max()
        w, b = rng.standard_normal(2) * 3, rng.standard_normal()
        assert svm.dual_objective(alpha, K, y) <= svm.primal_objective(w, b, X, y, C) + 1e-12


def test_hard_margin_on_separable_data_and_its_margin_against_libsvm():
    rng = np.random.default_rng(6)
    X = rng.standard_normal((40, 2))
    y = np.where(X[:, 0] - X[:, 1] > 0, 1, -1)
    X = X + 0.3 * y[:, None] * np.array([1, -1]) / np.sqrt(2)              # push the classes apart
    K = kernels.linear_kernel(X, X)
    hard = svm.fit_svm(K, y, C=np.inf, tol=1e-10)
    w = svm.weights(X, y, hard.alpha)
    assert hard.converged and np.all(y * (X @ w + hard.b) >= 1 - 1e-6)
    big = SVC(kernel="linear", C=1e8, tol=1e-10).fit(X, y)
    assert 1 / np.linalg.norm(w) == pytest.approx(1 / np.linalg.norm(big.coef_[0]), rel=1e-4)
    # the margin is the largest: no random unit direction separates with a larger one
    for _ in range(500):
        u = rng.standard_normal(2)
        u /= np.linalg.norm(u)
        projections = X @ u
        best = (projections[y > 0].min() - projections[y < 0].max()) / 2
        assert best <= 1 / np.linalg.norm(w) + 1e-9


def test_only_the_support_vectors_matter():
    rng = np.random.default_rng(7)
    X, y = noisy_linear(rng, 80)
    K = kernels.rbf_kernel(X, X, 1.0)
    full = svm.fit_svm(K, y, C=1.0, tol=1e-10)
    keep = full.support
    again = svm.fit_svm(K[np.ix_(keep, keep)], y[keep], C=1.0, tol=1e-10)
    Q = rng.standard_normal((200, 2))
    np.testing.assert_allclose(svm.decision_function(kernels.rbf_kernel(Q, X[keep], 1.0), y[keep], again.alpha, again.b),
                               svm.decision_function(kernels.rbf_kernel(Q, X, 1.0), y, full.alpha, full.b), atol=1e-6)


def test_prediction_sends_a_zero_score_to_plus_one_and_the_hinge_loss():
    np.testing.assert_array_equal(svm.predict(np.zeros((2, 2)), [1, -1], [0.5, 0.5], 0.0), [1, 1])
    np.testing.assert_array_equal(svm.hinge_loss([3, 1, 0, -2]), [0, 0, 1, 3])


def test_a_run_out_of_iterations_says_so():
    rng = np.random.default_rng(8)
    X, y = noisy_linear(rng, 50, noise=2.0)
    r = svm.fit_svm(kernels.linear_kernel(X, X), y, C=np.inf, max_iter=50)
    assert not r.converged and r.n_iter == 50 and r.gap > 1e-3


@pytest.mark.parametrize("call, pattern", [
    (lambda: svm.fit_svm(np.eye(3), [1, -1]), r"shape \(3,\)"),
    (lambda: svm.fit_svm(np.eye(2), [1, 1]), "both classes"),
    (lambda: svm.fit_svm(np.eye(2), [1, -1], C=0), "C"),
    (lambda: svm.fit_svm(np.eye(2), [1, -1], tol=-1), "tol"),
    (lambda: svm.fit_svm(np.ones((2, 3)), [1, -1]), "square Gram matrix"),
    (lambda: svm.fit_svm(np.eye(2), [1, 2]), "-1 and \\+1"),
    (lambda: svm.dual_objective([1.0], np.eye(2), [1, -1]), "alpha has shape"),
    (lambda: svm.primal_objective([1.0], 0.0, np.eye(2), [1, -1], 1.0), "w has shape"),
])
def test_bad_input_is_named(call, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        call()
