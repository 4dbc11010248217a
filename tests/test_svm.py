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


# --------------------------------------------------------------------------- Pegasos (section 7)

from sklearn.linear_model import SGDClassifier  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402


def lifted(X):
    return np.column_stack([np.ones(len(X)), X])


def pegasos_reference(X, y, lam, order, steps, project=True):
    """The iterates of Pegasos written out plainly, one example at a time, for a given order of the examples."""
    Z = lifted(X)
    w, path = np.zeros(Z.shape[1]), []
    for t, i in enumerate(order, start=1):
        path.append(w.copy())
        margin = y[i] * sum(a * b for a, b in zip(w, Z[i]))
        w = [(1 - steps[t - 1] * lam) * a + (steps[t - 1] * y[i] * b if margin < 1 else 0.0) for a, b in zip(w, Z[i])]
        w = np.array(w)
        length = np.sqrt(np.sum(w ** 2))
        if project and length > 1 / np.sqrt(lam):
            w = w / (np.sqrt(lam) * length)
    path.append(w)
    return np.array(path)


def test_pegasos_follows_its_definition_step_by_step():
    rng = np.random.default_rng(20)
    for trial in range(6):
        X, y = noisy_linear(rng, int(rng.integers(5, 30)), d=int(rng.integers(1, 4)), scale=10 ** rng.uniform(-1, 1))
        lam, T = float(10 ** rng.uniform(-2, 1)), 200
        steps = None if trial % 2 == 0 else 1.0 / np.arange(1, T + 1)
        run = svm.pegasos(X, y, lam, T, np.random.default_rng(trial), steps=steps, path=True)
        want = pegasos_reference(X, y, lam, run.order, 1 / (lam * np.arange(1, T + 1)) if steps is None else steps)
        np.testing.assert_allclose(run.path, want, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(np.r_[run.b, run.w], want[:-1].mean(axis=0), rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(np.r_[run.b_last, run.w_last], want[-1], rtol=1e-9, atol=1e-12)
        again = svm.pegasos(X, y, lam, T, np.random.default_rng(trial), steps=steps)       # without the path: the same
        assert np.array_equal(again.order, run.order)
        np.testing.assert_allclose(again.w, run.w, rtol=1e-9, atol=1e-12)
        # and step by step through pegasos_step
        w = np.zeros(X.shape[1] + 1)
        for t, i in enumerate(run.order[:20], start=1):
            if steps is None:
                w = svm.pegasos_step(w, lifted(X)[i], int(y[i]), lam, t)
                np.testing.assert_allclose(w, run.path[t], rtol=1e-9, atol=1e-12)


def test_pegasos_without_a_bias_keeps_b_at_zero():
    rng = np.random.default_rng(21)
    X, y = noisy_linear(rng, 40)
    run = svm.pegasos(X, y, 0.1, 500, rng, bias=False, path=True)
    assert run.b == 0.0 and run.b_last == 0.0 and not run.path[:, 0].any()


def test_fit_svm_through_origin_equals_liblinear():
    """liblinear (LinearSVC with the hinge loss) penalises its intercept like a weight: with intercept_scaling = 1 it
    solves the problem of the SVM through the origin on the points (1, x); without an intercept, on the points x."""
    rng = np.random.default_rng(22)
    for trial in range(6):
        n = int(rng.integers(10, 60))
        X, y = noisy_linear(rng, n, d=int(rng.integers(1, 4)), scale=10 ** rng.uniform(-0.5, 0.5))
        C = float(10 ** rng.uniform(-1.5, 0.5))
        for intercept in (True, False):
            Z = lifted(X) if intercept else X
            ours = svm.fit_svm_through_origin(Z, y, C=C, tol=1e-10)
            theirs = LinearSVC(loss="hinge", C=C, fit_intercept=intercept, intercept_scaling=1.0, tol=1e-10,
                               max_iter=1_000_000).fit(X, y)
            u = np.r_[theirs.intercept_, theirs.coef_[0]] if intercept else theirs.coef_[0]
            objective = lambda v: 0.5 * v @ v + C * svm.hinge_loss(y * (Z @ v)).sum()   # noqa: E731
            assert objective(ours) <= objective(u) + 1e-9 * max(1.0, objective(u))          # ours is the optimum ...
            assert objective(ours) == pytest.approx(objective(u), rel=1e-5)                   # ... and so is theirs
            np.testing.assert_allclose(ours, u, atol=1e-3 * max(1.0, np.abs(u).max()))
            assert ours @ ours <= n * C * (1 + 1e-9)                                          # the ball holds it


def test_pegasos_reaches_the_optimum_of_smo_and_of_sgdclassifier():
    """Pegasos's average iterate against SMO's optimum (the SVM through the origin on (1, x), times lambda), and
    scikit-learn's SGDClassifier on the same objective (alpha = lambda, the constant feature in place of an intercept)."""
    rng = np.random.default_rng(23)
    for trial in range(4):
        n = int(rng.integers(30, 80))
        X, y = noisy_linear(rng, n, d=2)
        C = float(10 ** rng.uniform(-1.5, -0.5))
        lam = 1 / (C * n)
        w_star = svm.fit_svm_through_origin(lifted(X), y, C=C, tol=1e-10)
        F_star = svm.pegasos_objective(w_star[1:], w_star[0], X, y, lam)
        assert F_star == pytest.approx(lam * (0.5 * w_star @ w_star + C * svm.hinge_loss(y * (lifted(X) @ w_star)).sum()))
        run = svm.pegasos(X, y, lam, 20_000, rng)
        F_run = svm.pegasos_objective(run.w, run.b, X, y, lam)
        assert F_star - 1e-9 <= F_run <= F_star + 0.01 * F_star
        sgd = SGDClassifier(loss="hinge", penalty="l2", alpha=lam, fit_intercept=False, learning_rate="optimal",
                            max_iter=200, tol=None, random_state=trial).fit(lifted(X), y)
        F_sgd = svm.pegasos_objective(sgd.coef_[0][1:], sgd.coef_[0][0], X, y, lam)
        assert F_star - 1e-9 <= F_sgd <= F_star + 0.01 * F_star


def test_pegasos_regret_bound_on_every_run():
    """The regret against the optimum, the last and the average iterate is at most sum_t ||g_t||^2 / (2 lam t), and
    that is at most g_max^2 (1 + ln T) / (2 lam) (section 7)."""
    rng = np.random.default_rng(24)
    for trial in range(10):
        n = int(rng.integers(5, 40))
        X, y = noisy_linear(rng, n, d=int(rng.integers(1, 4)), scale=10 ** rng.uniform(-1, 1))
        Z = lifted(X)
        R = np.linalg.norm(Z, axis=1).max()
        lam, T = float(R ** 2 * 10 ** rng.uniform(-2, 0.5)), 400
        run = svm.pegasos(X, y, lam, T, rng, path=True)
        W, yz = run.path, (Z * y[:, None])[run.order]
        m = np.einsum("tj,tj->t", W[:-1], yz)
        g = lam * W[:-1] - (m < 1)[:, None] * yz
        loss = 0.5 * lam * (W[:-1] ** 2).sum(axis=1) + np.maximum(0, 1 - m)
        middle = np.sum((g ** 2).sum(axis=1) / (2 * lam * np.arange(1, T + 1)))
        assert middle <= (np.sqrt(lam) + R) ** 2 * (1 + np.log(T)) / (2 * lam)
        w_star = svm.fit_svm_through_origin(Z, y, C=1 / (lam * n), tol=1e-10)
        for u in (w_star, W[-1], W[:-1].mean(axis=0)):
            assert u @ u <= 1 / lam * (1 + 1e-9)
            regret = np.sum(loss - 0.5 * lam * u @ u - np.maximum(0, 1 - yz @ u))
            assert regret <= middle * (1 + 1e-9) + 1e-12


def test_pegasos_step_cases():
    step = svm.pegasos_step
    np.testing.assert_allclose(step(np.array([1.0, 0.0]), np.array([0.5, 1.0]), 1, 1.0, 2), [0.75, 0.5])
    np.testing.assert_allclose(step(np.array([1.0, 0.0]), np.array([2.0, 0.0]), 1, 1.0, 4), [0.75, 0.0])
    np.testing.assert_allclose(step(np.array([1.0, 0.0]), np.array([1.0, 5.0]), 1, 1.0, 2), [0.5, 0.0])   # margin 1
    np.testing.assert_allclose(step(np.zeros(2), np.array([3.0, 4.0]), -1, 1.0, 1), [-0.6, -0.8])
    np.testing.assert_allclose(step(np.zeros(2), np.array([3.0, 4.0]), -1, 1.0, 1, project=False), [-3.0, -4.0])
    w = np.array([1.0, 2.0])
    step(w, np.array([0.1, 0.1]), 1, 0.5, 3)
    assert w.tolist() == [1.0, 2.0]


@pytest.mark.parametrize("call, pattern", [
    (lambda: svm.pegasos(np.eye(2), [1, -1], 0.0, 10, np.random.default_rng(0)), "lam"),
    (lambda: svm.pegasos(np.eye(2), [1, -1], 1.0, 0, np.random.default_rng(0)), "n_iter"),
    (lambda: svm.pegasos(np.eye(2), [1, -1], 1.0, 10, 0), "rng"),
    (lambda: svm.pegasos(np.eye(2), [1, -1], 1.0, 10, np.random.default_rng(0), steps=np.ones(9)), "steps has shape"),
    (lambda: svm.pegasos(np.eye(2), [1, -1], 1.0, 3, np.random.default_rng(0), steps=[1.0, -1.0, 1.0]), "steps"),
    (lambda: svm.pegasos(np.eye(2), [1, 2], 1.0, 10, np.random.default_rng(0)), "-1 and \\+1"),
    (lambda: svm.pegasos_step(np.zeros(2), np.zeros(3), 1, 1.0, 1), "z has shape"),
    (lambda: svm.pegasos_step(np.zeros(2), np.zeros(2), 2, 1.0, 1), "y must be"),
    (lambda: svm.pegasos_step(np.zeros(2), np.zeros(2), 1, 1.0, 0), "t must be"),
    (lambda: svm.pegasos_step(np.zeros(2), np.zeros(2), 1, -1.0, 1), "lam"),
    (lambda: svm.pegasos_objective([1.0], 0.0, np.eye(2), [1, -1], 1.0), "w has shape"),
    (lambda: svm.fit_svm_through_origin(np.eye(2), [1, -1], C=0), "C"),
])
def test_pegasos_bad_input_is_named(call, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        call()
