"""mlcourse.kernels against scikit-learn, SciPy and plain loops."""

import doctest
import math

import numpy as np
import pytest
from scipy import stats
from scipy.linalg import eigh
from sklearn.kernel_approximation import RBFSampler
from sklearn.kernel_ridge import KernelRidge
from sklearn.metrics import pairwise
from sklearn.preprocessing import PolynomialFeatures

from mlcourse import kernels, perceptron


def random_sets(rng, trials=30):
    for _ in range(trials):
        m, n, d = (int(v) for v in rng.integers(1, [25, 25, 8]))
        scale = 10 ** rng.uniform(-2, 1)
        yield scale * rng.standard_normal((m, d)), scale * rng.standard_normal((n, d))


def test_docstring_examples_run():
    assert doctest.testmod(kernels).failed == 0


def test_kernels_equal_scikit_learn_across_scales():
    rng = np.random.default_rng(0)
    for A, B in random_sets(rng):
        np.testing.assert_allclose(kernels.linear_kernel(A, B), pairwise.linear_kernel(A, B), rtol=1e-12, atol=1e-12)
        p, c = int(rng.integers(1, 5)), float(rng.uniform(0, 3))
        np.testing.assert_allclose(kernels.polynomial_kernel(A, B, p, c),
                                   pairwise.polynomial_kernel(A, B, degree=p, gamma=1.0, coef0=c), rtol=1e-10, atol=1e-12)
        sigma = 10 ** rng.uniform(-1, 1) * A.std()
        np.testing.assert_allclose(kernels.rbf_kernel(A, B, sigma), pairwise.rbf_kernel(A, B, gamma=0.5 / sigma**2),
                                   rtol=1e-9, atol=1e-12)


def test_rbf_kernel_of_a_point_with_itself_is_one_far_from_the_origin():
    rng = np.random.default_rng(1)
    X = 1e7 + rng.standard_normal((20, 3))
    np.testing.assert_array_equal(np.diag(kernels.rbf_kernel(X, X, 1.0)), 1.0)
    np.testing.assert_allclose(kernels.rbf_kernel(X, X, 1.0),
                               np.exp(-((X[:, None] - X[None]) ** 2).sum(2) / 2), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("d, p", [(1, 1), (1, 5), (2, 2), (3, 3), (5, 2), (4, 4)])
def test_polynomial_features_realise_the_polynomial_kernel(d, p):
    rng = np.random.default_rng(d * 10 + p)
    for A, B in random_sets(rng, 10):
        A, B = A[:, :1].repeat(d, 1) * rng.uniform(0.5, 2, d), B[:, :1].repeat(d, 1) * rng.uniform(0.5, 2, d)
        c = float(rng.uniform(0, 2))
        phi_A, phi_B = kernels.polynomial_features(A, p, c), kernels.polynomial_features(B, p, c)
        assert phi_A.shape == (len(A), math.comb(d + p, p)) == (len(A), kernels.polynomial_feature_count(d, p))
        np.testing.assert_allclose(phi_A @ phi_B.T, (c + A @ B.T) ** p, rtol=1e-9, atol=1e-9)


def test_polynomial_features_span_the_same_monomials_as_scikit_learn():
    # with c = 1 each column is a weighted monomial: divided by its value at x = 1 it is the monomial
    rng = np.random.default_rng(3)
    X = rng.uniform(0.5, 2, size=(40, 3))
    ours = kernels.polynomial_features(X, 3, 1.0) / kernels.polynomial_features(np.ones((1, 3)), 3, 1.0)
    theirs = PolynomialFeatures(degree=3).fit_transform(X)
    assert ours.shape == theirs.shape
    key = lambda M: sorted(tuple(np.round(col, 9)) for col in M.T)
    assert key(ours) == key(theirs)


def test_truncated_rbf_features_converge_to_the_rbf_kernel():
    rng = np.random.default_rng(4)
    A, B = rng.uniform(-1, 1, (15, 2)), rng.uniform(-1, 1, (12, 2))
    exact = kernels.rbf_kernel(A, B, 0.8)
    errors = []
    for terms in (1, 2, 4, 8, 16, 24):
        phi_A, phi_B = kernels.rbf_features(A, 0.8, terms), kernels.rbf_features(B, 0.8, terms)
        errors.append(np.abs(phi_A @ phi_B.T - exact).max())
    assert all(later < earlier for earlier, later in zip(errors, errors[1:]))
    assert errors[-1] < 1e-10
    # and the block sizes are those of the homogeneous maps: C(d + k - 1, k) for k = 0 .. terms - 1
    assert kernels.rbf_features(A, 0.8, 5).shape[1] == sum(math.comb(2 + k - 1, k) for k in range(5))


def test_memorising_features_separate_any_labelling_and_map_new_points_to_zero():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((12, 3))
    y = rng.choice([-1, 1], size=12)
    Phi = kernels.memorising_features(X, X)
    np.testing.assert_array_equal(Phi, np.eye(12))
    assert np.all(y * (Phi @ y) > 0)
    np.testing.assert_array_equal(kernels.memorising_features(X, rng.standard_normal((5, 3))), 0)


def primal_updates(Phi, y, max_epochs):
    """The online perceptron on explicit features, as a plain loop: the indices updated on, in order."""
    w, order = np.zeros(Phi.shape[1]), []
    for _ in range(max_epochs):
        made = False
        for i in range(len(y)):
            if y[i] * (w @ Phi[i]) <= 0:
                w, made = w + y[i] * Phi[i], True
                order.append(i)
        if not made:
            break
    return order, w


def test_kernel_perceptron_makes_the_primal_perceptrons_mistakes_in_the_same_order():
    rng = np.random.default_rng(6)
    for trial in range(20):
        n = int(rng.integers(5, 60))
        # continuous data: the sqrt(2) weights of phi round differently from the kernel, so a score
        # that is exactly 0 one way (as on a grid of integers) could be 1e-16 the other way
        X = rng.uniform(-3, 3, size=(n, 2)) * 10 ** rng.uniform(-1, 1)
        y = np.where((X ** 2).sum(1) * rng.uniform(0.7, 1.3, n) >= 4 * (X ** 2).sum(1).mean() / 6, 1, -1)
        Phi = kernels.polynomial_features(X, 2, 1.0)
        result = kernels.train_kernel_perceptron(kernels.polynomial_kernel(X, X, 2, 1.0), y, max_epochs=30)
        order, w = primal_updates(Phi, y, 30)
        assert result.updates.tolist() == order
        np.testing.assert_array_equal(np.bincount(order, minlength=n), result.alpha)
        np.testing.assert_allclose(Phi @ w, kernels.kernel_decision_function(kernels.polynomial_kernel(X, X, 2, 1.0), y, result.alpha),
                                   rtol=1e-9, atol=1e-9)


def test_kernel_perceptron_with_the_linear_kernel_is_lecture_02s_perceptron():
    rng = np.random.default_rng(7)
    for _ in range(20):
        X = perceptron.add_bias(rng.integers(-5, 6, size=(int(rng.integers(2, 40)), 3)).astype(float))
        w_true = rng.standard_normal(4)
        y = np.where(X @ w_true >= 0, 1, -1)
        primal = perceptron.train_perceptron(X, y, max_epochs=50)
        dual = kernels.train_kernel_perceptron(kernels.linear_kernel(X, X), y, max_epochs=50)
        assert (dual.n_mistakes, dual.n_epochs, dual.converged) == (primal.n_mistakes, primal.n_epochs, primal.converged)
        np.testing.assert_array_equal((dual.alpha * y) @ X, primal.w)


def test_kernel_perceptron_resumes_from_alpha0_like_one_long_run():
    rng = np.random.default_rng(9)
    X = rng.standard_normal((40, 2))
    y = np.where((X ** 2).sum(1) > 1.2, 1, -1)
    K = kernels.rbf_kernel(X, X, 0.5)
    long = kernels.train_kernel_perceptron(K, y, max_epochs=3)
    first = kernels.train_kernel_perceptron(K, y, max_epochs=1)
    rest = kernels.train_kernel_perceptron(K, y, max_epochs=2, alpha0=first.alpha)
    np.testing.assert_array_equal(rest.alpha, long.alpha)
    assert first.updates.tolist() + rest.updates.tolist() == long.updates.tolist()


def test_kernel_prediction_sends_a_zero_score_to_plus_one():
    np.testing.assert_array_equal(kernels.kernel_predict(np.zeros((3, 2)), [1, -1], [0, 0]), [1, 1, 1])
    np.testing.assert_array_equal(kernels.kernel_predict([[1.0, 0.0], [0.0, 1.0]], [1, -1], [2, 3]), [1, -1])


def test_smallest_eigenvalue_and_psd_test_against_scipy():
    rng = np.random.default_rng(8)
    for _ in range(20):
        X = rng.standard_normal((int(rng.integers(2, 30)), int(rng.integers(1, 5)))) * 10 ** rng.uniform(-2, 2)
        for K, is_kernel in ((kernels.gram_matrix(kernels.rbf_kernel, X, sigma=X.std()), True),
                             (kernels.gram_matrix(kernels.polynomial_kernel, X, degree=3), True),
                             (np.sqrt(((X[:, None] - X[None]) ** 2).sum(2)), False)):
            assert kernels.smallest_eigenvalue(K) == pytest.approx(eigh(K, eigvals_only=True)[0],
                                                                    abs=1e-9 * np.abs(K).max())
            assert kernels.is_psd(K) == is_kernel


def test_kernel_ridge_equals_scikit_learns_kernel_ridge_across_scales():
    rng = np.random.default_rng(10)
    for A, B in random_sets(rng, 20):
        sigma = 10 ** rng.uniform(-1, 1) * A.std() + 1e-3
        K, K_query = kernels.rbf_kernel(A, A, sigma), kernels.rbf_kernel(B, A, sigma)
        y = 10 ** rng.uniform(-2, 2) * rng.standard_normal(len(A))
        lam = float(10 ** rng.uniform(-3, 1))
        theirs = KernelRidge(alpha=lam, kernel="precomputed").fit(K, y)
        alpha = kernels.kernel_ridge(K, y, lam)
        np.testing.assert_allclose(alpha, theirs.dual_coef_, rtol=1e-8, atol=1e-10 * np.abs(y).max() / lam)
        np.testing.assert_allclose(K_query @ alpha, theirs.predict(K_query), rtol=1e-8, atol=1e-10 * np.abs(y).max())


def test_kernel_ridge_is_ridge_on_the_explicit_map_and_lies_in_the_span():
    # the representer theorem for the polynomial kernel, whose map is finite: ridge over all of R^d'
    # (more coordinates than points) gives w = Phi' alpha, with alpha from the Gram matrix alone
    rng = np.random.default_rng(11)
    for _ in range(20):
        d, q, c = int(rng.integers(1, 4)), int(rng.integers(2, 4)), float(rng.uniform(0, 3))
        n = int(rng.integers(2, math.comb(d + q, q)))
        X = 10 ** rng.uniform(-1, 1) * rng.standard_normal((n, d))
        Phi = kernels.polynomial_features(X, q, c)
        y, lam = rng.standard_normal(n), float(10 ** rng.uniform(-2, 1)) * np.mean(np.sum(Phi ** 2, axis=1))
        w = np.linalg.solve(Phi.T @ Phi + lam * np.eye(Phi.shape[1]), Phi.T @ y)
        alpha = kernels.kernel_ridge(kernels.polynomial_kernel(X, X, q, c), y, lam)
        np.testing.assert_allclose(w, Phi.T @ alpha, rtol=1e-7, atol=1e-9 * np.abs(w).max())


def test_fourier_features_equal_rbf_samplers_from_its_frequencies_and_phases():
    rng = np.random.default_rng(12)
    for trial in range(10):
        d, D = int(rng.integers(1, 6)), int(rng.integers(1, 300))
        sigma = 10 ** rng.uniform(-2, 2)
        X = sigma * 10 ** rng.uniform(-1, 1) * rng.standard_normal((int(rng.integers(1, 30)), d))
        sampler = RBFSampler(gamma=0.5 / sigma ** 2, n_components=D, random_state=trial).fit(X)
        ours = kernels.fourier_features(X, sampler.random_weights_.T, sampler.random_offset_)
        np.testing.assert_allclose(ours, sampler.transform(X), rtol=1e-10, atol=1e-12)


def test_random_fourier_features_draw_rbf_samplers_distribution():
    # the same distribution of frequencies (N(0, I / sigma^2), per coordinate) and of phases (U[0, 2 pi])
    sigma, d, D = 0.3, 3, 4000
    ours = kernels.random_fourier_features(d, D, sigma, np.random.default_rng(13))
    theirs = RBFSampler(gamma=0.5 / sigma ** 2, n_components=D, random_state=13).fit(np.zeros((1, d)))
    assert ours.omega.shape == (D, d) and ours.b.shape == (D,) and ours.D == D and ours.sigma == sigma
    for j in range(d):
        assert stats.ks_2samp(ours.omega[:, j], theirs.random_weights_[j]).pvalue > 1e-3
        assert stats.kstest(ours.omega[:, j] * sigma, "norm").pvalue > 1e-3
    assert stats.ks_2samp(ours.b, theirs.random_offset_).pvalue > 1e-3
    assert stats.kstest(ours.b, "uniform", args=(0, 2 * np.pi)).pvalue > 1e-3


def test_random_fourier_features_approach_the_rbf_kernel_as_rbf_sampler_does():
    # E[z(x).z(x')] = k(x, x') with variance (1 + k^4/2 - k^2) / D: the mean squared error of the Gram
    # matrix, over 30 maps, is that variance's mean within 5 standard errors, for our map and for
    # scikit-learn's; a map of the wrong width (frequencies N(0, sigma^2 I)) is far from it
    rng = np.random.default_rng(14)
    sigma, D = 2.0, 200
    X = sigma * rng.standard_normal((15, 2))
    K = kernels.rbf_kernel(X, X, sigma)
    expected = np.mean(1 + K ** 4 / 2 - K ** 2) / D
    ours, theirs = [], []
    for trial in range(30):
        Z = kernels.random_fourier_features(2, D, sigma, rng)(X)
        ours.append(np.mean((Z @ Z.T - K) ** 2))
        Z = RBFSampler(gamma=0.5 / sigma ** 2, n_components=D, random_state=trial).fit_transform(X)
        theirs.append(np.mean((Z @ Z.T - K) ** 2))
    for mse in (np.array(ours), np.array(theirs)):
        assert abs(mse.mean() - expected) <= 5 * mse.std() / np.sqrt(len(mse))
    wide = kernels.FourierFeatures(kernels.random_fourier_features(2, D, sigma, rng).omega * sigma ** 2,
                                   rng.uniform(0, 2 * np.pi, D), sigma)(X)
    assert np.mean((wide @ wide.T - K) ** 2) > 10 * expected


def test_random_fourier_features_average_to_the_rbf_kernel():
    rng = np.random.default_rng(15)
    X = 0.5 * rng.standard_normal((6, 4))
    K = kernels.rbf_kernel(X, X, 0.7)
    Z = kernels.random_fourier_features(4, 200_000, 0.7, rng)(X)
    se = np.sqrt((1 + K ** 4 / 2 - K ** 2) / 200_000)
    assert np.all(np.abs(Z @ Z.T - K) <= 5 * se)


def test_random_fourier_features_follow_the_seed():
    a = kernels.random_fourier_features(2, 50, 1.5, 7)
    b = kernels.random_fourier_features(2, 50, 1.5, np.random.default_rng(7))
    np.testing.assert_array_equal(a.omega, b.omega)
    np.testing.assert_array_equal(a.b, b.b)


@pytest.mark.parametrize("call, pattern", [
    (lambda: kernels.polynomial_kernel([[1.0]], [[1.0, 2.0]]), "same dimension"),
    (lambda: kernels.polynomial_kernel([[1.0]], [[1.0]], degree=0), "degree"),
    (lambda: kernels.polynomial_kernel([[1.0]], [[1.0]], c=-1), "c"),
    (lambda: kernels.rbf_kernel([[1.0]], [[1.0]], sigma=0), "sigma"),
    (lambda: kernels.smallest_eigenvalue([[1.0, 2.0], [0.0, 1.0]]), "not symmetric"),
    (lambda: kernels.smallest_eigenvalue(np.ones(3)), "square"),
    (lambda: kernels.train_kernel_perceptron(np.eye(3), [1, -1]), r"shape \(3,\)"),
    (lambda: kernels.train_kernel_perceptron(np.eye(2), [1, 0]), "-1 and \\+1"),
    (lambda: kernels.train_kernel_perceptron(np.ones((2, 3)), [1, -1]), "square Gram matrix"),
    (lambda: kernels.kernel_predict(np.eye(2), [1, -1], [1, 2, 3]), "alpha has shape"),
    (lambda: kernels.train_kernel_perceptron(np.eye(2), [1, -1], alpha0=[1, -1]), "whole numbers >= 0"),
    (lambda: kernels.gram_matrix(lambda A, B: A @ B.T[:, :1], np.eye(3)), "expected"),
    (lambda: kernels.kernel_ridge(np.eye(2), [1.0, 2.0], 0.0), "lam"),
    (lambda: kernels.kernel_ridge(np.eye(2), [1.0, 2.0, 3.0], 1.0), r"y has shape \(3,\)"),
    (lambda: kernels.kernel_ridge(np.ones((2, 3)), [1.0, 2.0], 1.0), "square Gram matrix"),
    (lambda: kernels.fourier_features(np.zeros((2, 3)), np.zeros((5, 2)), np.zeros(5)), "omega has shape"),
    (lambda: kernels.fourier_features(np.zeros((2, 3)), np.zeros((5, 3)), np.zeros(4)), r"b has shape \(4,\)"),
    (lambda: kernels.random_fourier_features(2, 0, 1.0, 0), "D must be at least 1"),
    (lambda: kernels.random_fourier_features(2, 10, -1.0, 0), "sigma"),
    (lambda: kernels.random_fourier_features(2, 10, 1.0, "seed"), "rng"),
    (lambda: kernels.random_fourier_features(2.5, 10, 1.0, 0), "d must be an integer"),
])
def test_bad_input_is_named(call, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        call()
