"""mlcourse.pca against independent implementations (scikit-learn's PCA and StandardScaler, NumPy's cov and
eigvalsh, scikit-learn's copy of the digits) and the theorems of lecture 12 (Ky Fan / Eckart–Young, the
variance split, translation invariance)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlcourse import data, pca


def _correlated(rng, n, d, scale=1.0, offset=0.0):
    return (rng.standard_normal((n, d)) @ rng.standard_normal((d, d)) + offset * rng.standard_normal(d)) * scale


def _determined(variances, gap=1e-6):
    """The components whose eigenvalue is distinct from its neighbours and not zero: only their directions are
    determined (a repeated or vanishing eigenvalue leaves any basis of its eigenspace correct)."""
    lam = np.asarray(variances)
    sides = np.abs(np.diff(np.r_[np.inf, lam, -np.inf]))
    return (np.minimum(sides[:-1], sides[1:]) > gap * lam[0]) & (lam > gap * lam[0])


# --------------------------------------------------------------------------- against scikit-learn

@pytest.mark.parametrize("method", pca.METHODS)
@pytest.mark.parametrize("shape, k", [((1797, 64), None), ((1797, 64), 10), ((500, 12), 3), ((300, 40), None),
                                      ((15, 40), None), ((15, 40), 5), ((2, 3), 1)])
def test_fit_pca_matches_scikit_learn(method, shape, k):
    from sklearn.decomposition import PCA

    rng = np.random.default_rng(sum(shape))
    X = data.load_digits().X if shape == (1797, 64) else _correlated(rng, *shape, scale=10 ** rng.uniform(-3, 3), offset=5)
    n = len(X)
    ours = pca.fit_pca(X, k, method=method)
    theirs = PCA(n_components=k, svd_solver="full").fit(X)
    keep = _determined(ours.variances)
    np.testing.assert_allclose(ours.mean, theirs.mean_, rtol=1e-12, atol=1e-12 * np.abs(X).max())
    np.testing.assert_allclose(ours.variances, theirs.explained_variance_ * (n - 1) / n, rtol=1e-8,
                               atol=1e-10 * ours.variances[0])
    np.testing.assert_allclose(ours.explained_variance_ratio, theirs.explained_variance_ratio_, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(ours.components[keep], theirs.components_[keep], atol=1e-7)    # the same sign rule
    assert ours.n == n and ours.components.shape == (len(ours.variances), X.shape[1])


def test_load_digits_is_scikit_learns():
    from sklearn.datasets import load_digits

    ours, theirs = data.load_digits(), load_digits()
    assert ours.X.shape == (1797, 64) and ours.y.shape == (1797,)
    np.testing.assert_array_equal(ours.X, theirs.data)
    np.testing.assert_array_equal(ours.y, theirs.target)
    np.testing.assert_array_equal(ours.X[5].reshape(8, 8), theirs.images[5])
    assert ours.target_names == tuple(str(t) for t in theirs.target_names) and ours.feature_names[9] == "pixel_1_1"


def test_standardised_pca_is_standard_scaler_then_pca_and_reconstructs_in_the_data_units():
    from sklearn.decomposition import PCA
    from sklearn.preprocessing import StandardScaler

    rng = np.random.default_rng(1)
    X = _correlated(rng, 200, 6) * 10.0 ** np.arange(-3, 3)
    X[:, 2] = 7.0                                                     # a constant feature: scale 1, as StandardScaler
    ours = pca.fit_pca(X, 4, standardise=True)
    scaler = StandardScaler().fit(X)
    theirs = PCA(4, svd_solver="full").fit(scaler.transform(X))
    np.testing.assert_allclose(ours.scale, scaler.scale_, rtol=1e-12)
    np.testing.assert_allclose(ours.components, theirs.components_, atol=1e-8)
    np.testing.assert_allclose(pca.project(ours, X), theirs.transform(scaler.transform(X)), atol=1e-8)
    full = pca.fit_pca(X, standardise=True)
    np.testing.assert_allclose(pca.reconstruct(full, pca.project(full, X)), X, rtol=1e-9, atol=1e-9 * np.abs(X).max())


def test_centre_and_covariance_against_numpy():
    rng = np.random.default_rng(2)
    for scale in (1e-3, 1.0, 1e3):
        X = _correlated(rng, 40, 5, scale, offset=3)
        np.testing.assert_allclose(pca.centre(X).sum(axis=0), 0, atol=1e-12 * np.abs(X).max() * 40)
        np.testing.assert_allclose(pca.centre(X), X - np.mean(X, axis=0), rtol=1e-12, atol=1e-15 * np.abs(X).max())
        np.testing.assert_allclose(pca.covariance(X), np.cov(X.T, bias=True), rtol=1e-9, atol=1e-12 * scale**2)


def test_sign_convention_by_hand():
    Q = np.array([[0.6, -0.8], [-0.6, 0.8], [0.5, -0.5], [-0.5, 0.5], [0.0, 0.0], [-0.2, 0.1]])
    np.testing.assert_array_equal(pca.sign_convention(Q), [[-0.6, 0.8], [-0.6, 0.8], [0.5, -0.5], [0.5, -0.5], [0, 0], [0.2, -0.1]])
    rng = np.random.default_rng(3)
    R = rng.standard_normal((7, 5))
    once = pca.sign_convention(R)
    np.testing.assert_array_equal(pca.sign_convention(once), once)                     # idempotent
    np.testing.assert_array_equal(np.abs(once), np.abs(R))
    assert np.all(once[np.arange(7), np.argmax(np.abs(R), axis=1)] > 0)


# --------------------------------------------------------------------------- the theorems, as properties

@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 60), d=st.integers(1, 12), k_share=st.floats(0, 1), seed=st.integers(0, 2**32 - 1),
       log_scale=st.floats(-3, 3), method=st.sampled_from(pca.METHODS))
def test_top_components_keep_the_most_and_lose_the_least(n, d, k_share, seed, log_scale, method):
    rng = np.random.default_rng(seed)
    X = _correlated(rng, n, d, 10**log_scale, offset=4)
    k = int(round(k_share * min(n, d)))
    fit = pca.fit_pca(X, k, method=method)
    total = fit.total_variance
    tol = 1e-8 * total + 1e-300
    np.testing.assert_allclose(fit.components @ fit.components.T, np.eye(k), atol=1e-8)          # orthonormal rows
    assert total == pytest.approx(np.trace(pca.covariance(X)), rel=1e-9, abs=1e-300)
    assert pca.captured_variance(X, fit.components) == pytest.approx(fit.variances.sum(), abs=tol)
    all_variances = np.clip(np.linalg.eigvalsh(pca.covariance(X))[::-1], 0, None)
    assert pca.reconstruction_error(fit, X) == pytest.approx(all_variances[k:].sum(), abs=tol)      # Eckart–Young
    for _ in range(20):                                                                             # no subspace does better
        B = pca.random_subspace(d, k, rng)
        assert pca.captured_variance(X, B) <= fit.variances.sum() + tol
    Z = pca.project(fit, X)
    np.testing.assert_allclose(Z.mean(axis=0), 0, atol=1e-9 * np.sqrt(total) + 1e-300)
    np.testing.assert_allclose(Z.T @ Z / n, np.diag(fit.variances), atol=tol)                      # uncorrelated coordinates


def test_k_zero_is_the_mean_and_all_components_reconstruct_exactly():
    rng = np.random.default_rng(4)
    for shape in ((30, 5), (4, 9)):
        X = _correlated(rng, *shape, offset=3)
        nothing = pca.fit_pca(X, 0)
        np.testing.assert_allclose(pca.reconstruct(nothing, pca.project(nothing, X)), np.tile(X.mean(axis=0), (len(X), 1)))
        assert pca.reconstruction_error(nothing, X) == pytest.approx(nothing.total_variance)
        everything = pca.fit_pca(X)
        np.testing.assert_allclose(pca.reconstruct(everything, pca.project(everything, X)), X, atol=1e-10 * np.abs(X).max())


def test_components_do_not_move_when_the_data_are_shifted():
    rng = np.random.default_rng(5)
    X = _correlated(rng, 100, 6)
    shifted = pca.fit_pca(X + 1e3 * rng.standard_normal(6), 4)
    fit = pca.fit_pca(X, 4)
    np.testing.assert_allclose(shifted.components, fit.components, atol=1e-8)
    np.testing.assert_allclose(shifted.variances, fit.variances, rtol=1e-8)


def test_svd_route_keeps_singular_values_the_covariance_loses():
    rng = np.random.default_rng(6)
    s = np.array([1.0, 1e-3, 1e-10])
    U = np.linalg.qr(pca.centre(rng.standard_normal((50, 3))))[0]
    X = U * s @ np.linalg.qr(rng.standard_normal((3, 3)))[0].T
    by_svd = np.sqrt(50 * pca.fit_pca(X).variances)
    by_eigh = np.sqrt(50 * pca.fit_pca(X, method="eigh").variances)
    np.testing.assert_allclose(by_svd, s, rtol=1e-4)
    assert not np.isclose(by_eigh[2], s[2], rtol=0.5)


def test_truncate_is_the_fit_with_fewer_components():
    rng = np.random.default_rng(7)
    X = _correlated(rng, 80, 7)
    full = pca.fit_pca(X)
    for k in (0, 3, 7):
        cut, fresh = pca.truncate(full, k), pca.fit_pca(X, k)
        np.testing.assert_allclose(cut.components, fresh.components, atol=1e-10)
        assert cut.total_variance == pytest.approx(fresh.total_variance)
        assert pca.reconstruction_error(cut, X) == pytest.approx(pca.reconstruction_error(fresh, X), rel=1e-9, abs=1e-12)


def test_random_subspace_is_orthonormal_and_uniform():
    rng = np.random.default_rng(8)
    draws = np.array([pca.random_subspace(5, 2, rng) for _ in range(4000)])
    np.testing.assert_allclose(draws @ draws.transpose(0, 2, 1), np.broadcast_to(np.eye(2), (4000, 2, 2)), atol=1e-12)
    projector_mean = np.einsum("mkd,mke->de", draws, draws) / 4000                # E[B B^T] = (k/d) I when uniform
    np.testing.assert_allclose(projector_mean, 0.4 * np.eye(5), atol=0.03)
    np.testing.assert_array_equal(pca.random_subspace(5, 2, 9), pca.random_subspace(5, 2, 9))


# --------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("call, error, pattern", [
    (lambda: pca.fit_pca(np.ones((3, 5)), 4), ValueError, r"k must be at most min\(n, d\) = 3"),
    (lambda: pca.fit_pca(np.ones((3, 5)), -1), ValueError, "k must be an integer >= 0"),
    (lambda: pca.fit_pca(np.ones((3, 5)), 1.5), TypeError, "k must be an integer"),
    (lambda: pca.fit_pca(np.ones((3, 5)), 1, method="power"), ValueError, "method must be one of"),
    (lambda: pca.fit_pca(np.ones(5)), ValueError, r"X must be a 2-d array"),
    (lambda: pca.project(pca.fit_pca(np.eye(3)), np.ones((2, 4))), ValueError, "X must have d = 3 columns"),
    (lambda: pca.reconstruct(pca.fit_pca(np.eye(3), 2), np.ones((2, 3))), ValueError, r"Z must have shape \(n, 2\)"),
    (lambda: pca.project("a pca", np.ones((2, 3))), TypeError, "pca must be the PCA that fit_pca returns"),
    (lambda: pca.captured_variance(np.eye(3), np.ones((1, 3))), ValueError, "must be orthonormal"),
    (lambda: pca.captured_variance(np.eye(3), np.ones((1, 2))), ValueError, r"basis must have shape \(k, 3\)"),
    (lambda: pca.truncate(pca.fit_pca(np.eye(3), 2), 3), ValueError, "k must be at most 2"),
    (lambda: pca.random_subspace(3, 4, 0), ValueError, "k must be at most d = 3"),
    (lambda: pca.sign_convention(np.ones(3)), ValueError, "components must be a 2-d array"),
])
def test_bad_input_is_named(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()
