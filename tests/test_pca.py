"""mlcourse.pca and data.load_digits against independent implementations and the theorems of lecture 12.

Oracles: scikit-learn's ``PCA(svd_solver="full")`` (components, explained variance, ratios, mean, transform,
inverse_transform; with ``whiten=True`` for the whitening, and followed by ``LinearRegression`` in a pipeline for
principal-component regression), ``StandardScaler`` and ``load_digits``; SciPy's ``fractional_matrix_power`` (ZCA's
``S^(-1/2)``); the covariance route and the SVD route for the Gram route; NumPy's ``cov(bias=True)``, ``eigvalsh``, ``mean``
and ``var``; the sign rule and the lecture's small examples written out by hand or as a plain loop; SciPy's
Beta distribution (a uniformly random k-plane's squared projection of a fixed unit vector is Beta(k/2, (d-k)/2)).
Theorems, as hypothesis properties over data scaled by 1e-3 .. 1e3: orthonormal components; Ky Fan (no
k-dimensional subspace keeps more variance than the top k components, which keep the sum of the top k
eigenvalues); Eckart–Young (the mean squared reconstruction error is the sum of the eigenvalues left out, and no
subspace does better); uncorrelated scores with variances the eigenvalues; k = 0 gives the mean and k = min(n, d)
the data; translation invariance, and for the standardised PCA invariance to each feature's units.

Tolerances: entries of unit vectors to 1e-7 absolute; variances and sums of variances to 1e-8 relative to the
total variance (the round-off of an SVD or eigh is about 1e-16 times the largest eigenvalue, and an eigenvector
moves by that over the gap to its neighbours, which the comparisons keep above 1e-6 of the largest eigenvalue).
"""

import doctest
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threadpoolctl import threadpool_limits

from mlcourse import data, pca

SCALES = (1e-3, 1.0, 1e3)


@pytest.fixture(autouse=True, scope="module")
def _one_blas_thread():
    """The matrices here are small: more BLAS threads only contend, with each other and with the other jobs of a
    2-core machine (make test runs 2 workers), and slowed this file down several times."""
    with threadpool_limits(1):
        yield


def _correlated(rng, n, d, scale=1.0, offset=0.0):
    return (rng.standard_normal((n, d)) @ rng.standard_normal((d, d)) + offset * rng.standard_normal(d)) * scale


def _spectrum(X):
    """All d eigenvalues of the (1/n) covariance, largest first, by NumPy alone (an oracle independent of pca)."""
    return np.linalg.eigvalsh(np.atleast_2d(np.cov(X.T, bias=True)))[::-1]


def _determined(eigenvalues, gap=1e-6):
    """Which eigenvalues (all d of them, largest first) are apart from both neighbours and from zero: only those
    eigenvectors are determined. A repeated eigenvalue leaves any orthonormal basis of its eigenspace correct and a
    zero eigenvalue (n <= d, a constant feature) any basis of the null space, so those components are left out of
    entry-for-entry comparisons. The full spectrum is needed: with k components the k-th may tie the (k+1)-th."""
    lam = np.asarray(eigenvalues)
    if len(lam) == 0 or lam[0] <= 0:
        return np.zeros(len(lam), dtype=bool)
    sides = np.abs(np.diff(np.r_[np.inf, lam, -np.inf]))
    return (np.minimum(sides[:-1], sides[1:]) > gap * lam[0]) & (lam > gap * lam[0])


def _assert_same_components(ours, theirs, eigenvalues, atol=1e-7):
    """Rows of ``ours`` and ``theirs`` equal entry for entry where the eigenvalue is determined. Where the two
    largest |entries| of the oracle's row are closer than ``atol`` the sign rule is decided by round-off, so such
    a row is compared up to sign. Returns how many rows were compared (so a test can insist it is not none)."""
    keep = _determined(eigenvalues)[: len(ours)]
    for q, r in zip(ours[keep], theirs[keep]):
        top = np.sort(np.abs(r))[-2:]
        if len(r) > 1 and top[1] - top[0] < atol:
            r = r if np.abs(q - r).max() < np.abs(q + r).max() else -r
        np.testing.assert_allclose(q, r, atol=atol)
    return int(keep.sum())


def _resolve_k(k, n, d):
    return {"half": min(n, d) // 2, "all": min(n, d)}.get(k, k)


# --------------------------------------------------------------------------- against scikit-learn

# (n, d): n >= 2d takes the QR route; n < 2d the SVD of the centred data itself; n < d is wide.
SHAPES = [(500, 12), (300, 40), (60, 40), (40, 40), (15, 40), (2, 3)]


def _compare_with_scikit_learn(X, k, method):
    from sklearn.decomposition import PCA

    n = len(X)
    ours = pca.fit_pca(X, k, method=method)
    theirs = PCA(n_components=k, svd_solver="full").fit(X)
    lam = _spectrum(X)
    np.testing.assert_allclose(ours.mean, theirs.mean_, rtol=1e-12, atol=1e-14 * np.abs(X).max())
    np.testing.assert_allclose(ours.variances, theirs.explained_variance_ * (n - 1) / n, rtol=1e-8, atol=1e-10 * lam[0])
    np.testing.assert_allclose(ours.explained_variance_ratio, theirs.explained_variance_ratio_, rtol=1e-8, atol=1e-12)
    assert ours.total_variance == pytest.approx(lam.sum(), rel=1e-9)
    assert ours.n == n and ours.components.shape == theirs.components_.shape
    compared = _assert_same_components(ours.components, theirs.components_, lam)    # the same sign rule
    assert compared >= min(1, len(ours.components))


@pytest.mark.parametrize("method", pca.METHODS)
@pytest.mark.parametrize("k", [None, 1, 10, 64])
def test_fit_pca_matches_scikit_learn_on_the_digits(method, k):
    _compare_with_scikit_learn(data.load_digits().X, k, method)     # 1797 x 64, several pixels always 0


@pytest.mark.parametrize("method", pca.METHODS)
@pytest.mark.parametrize("k", [None, 1, "half", "all"])
@pytest.mark.parametrize("shape", SHAPES)
def test_fit_pca_matches_scikit_learn_on_random_data(method, k, shape):
    rng = np.random.default_rng(sum(shape))
    for scale in SCALES:
        X = _correlated(rng, *shape, scale=scale, offset=5)
        _compare_with_scikit_learn(X, _resolve_k(k, *shape), method)


def test_tall_data_take_the_qr_route_and_the_others_do_not(monkeypatch):
    calls = []
    qr = np.linalg.qr
    monkeypatch.setattr(np.linalg, "qr", lambda *a, **kw: calls.append(a[0].shape) or qr(*a, **kw))
    rng = np.random.default_rng(0)
    for n, d in SHAPES:
        calls.clear()
        pca.fit_pca(_correlated(rng, n, d))
        assert bool(calls) == (n >= 2 * d), (n, d, calls)
        before = len(calls)
        pca.fit_pca(_correlated(rng, n, d), method="eigh")        # the covariance route never factors X
        assert len(calls) == before


def test_load_digits_is_scikit_learns():
    from sklearn.datasets import load_digits

    ours, theirs = data.load_digits(), load_digits()
    assert ours.X.shape == (1797, 64) and ours.y.shape == (1797,)
    assert ours.X.dtype == np.float64 and np.issubdtype(ours.y.dtype, np.integer)
    np.testing.assert_array_equal(ours.X, theirs.data)
    np.testing.assert_array_equal(ours.y, theirs.target)
    np.testing.assert_array_equal(ours.X.reshape(-1, 8, 8), theirs.images)            # X[i].reshape(8, 8) is image i
    for i in (0, 5, 1796):
        np.testing.assert_array_equal(ours.X[i].reshape(8, 8), theirs.images[i])
    assert list(ours.feature_names) == list(theirs.feature_names)                     # pixel_r_c, row by row
    assert ours.target_names == tuple(str(t) for t in theirs.target_names)
    assert ours.X.min() == 0 and ours.X.max() == 16 and set(ours.y.tolist()) == set(range(10))


def test_load_digits_does_not_import_scikit_learn():
    import subprocess
    import sys

    code = "import sys; from mlcourse import data; data.load_digits(); print('sklearn' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# --------------------------------------------------------------------------- standardising

@pytest.mark.parametrize("k", [1, 3, 5, 6])
def test_standardised_pca_is_standard_scaler_then_pca_and_reconstructs_in_the_data_units(k):
    from sklearn.decomposition import PCA
    from sklearn.preprocessing import StandardScaler

    rng = np.random.default_rng(1)
    X = _correlated(rng, 200, 6, offset=3) * 10.0 ** np.arange(-3, 3)     # features in units 1e-3 .. 1e2
    X[:, 2] = 7.0                          # a constant feature (its mean is exactly 7): scale 1, as StandardScaler
    n = len(X)
    ours = pca.fit_pca(X, k, standardise=True)
    scaler = StandardScaler().fit(X)
    S = scaler.transform(X)
    theirs = PCA(k, svd_solver="full").fit(S)
    lam = _spectrum(S)
    assert ours.scale[2] == 1.0 and scaler.scale_[2] == 1.0
    np.testing.assert_allclose(ours.scale, scaler.scale_, rtol=1e-12)
    np.testing.assert_allclose(ours.mean, scaler.mean_, rtol=1e-12)
    np.testing.assert_allclose(ours.variances, theirs.explained_variance_ * (n - 1) / n, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(ours.explained_variance_ratio, theirs.explained_variance_ratio_, rtol=1e-8, atol=1e-12)
    assert ours.total_variance == pytest.approx(5.0)          # the trace of the correlation matrix: 5 that vary
    assert _assert_same_components(ours.components, theirs.components_, lam, atol=1e-8) == min(k, 5)
    keep = _determined(lam)[:k]
    np.testing.assert_allclose(pca.project(ours, X)[:, keep], theirs.transform(S)[:, keep], atol=1e-8)
    # the reconstruction goes back to the data's units: the oracle undoes PCA, then the scaler; compared in
    # standardised units because the features' units differ by 1e5 (the span of the top k is determined: every k
    # here sits above a gap)
    back = pca.reconstruct(ours, pca.project(ours, X))
    expected = scaler.inverse_transform(theirs.inverse_transform(theirs.transform(S)))
    np.testing.assert_allclose(back / scaler.scale_, expected / scaler.scale_, atol=1e-9)
    assert pca.reconstruction_error(ours, X) == pytest.approx(((X - expected) ** 2).sum() / n, rel=1e-7, abs=1e-20)
    if k == 6:
        np.testing.assert_allclose(back / scaler.scale_, X / scaler.scale_, rtol=1e-12, atol=1e-9)


def test_a_constant_feature_whose_mean_has_round_off_is_scaled_by_one():
    from sklearn.decomposition import PCA
    from sklearn.preprocessing import StandardScaler

    rng = np.random.default_rng(0)
    X = _correlated(rng, 50, 4)
    X[:, 1] = 0.1                                              # np.mean gives 0.1 - 2.8e-17
    ours = pca.fit_pca(X, standardise=True)
    scaler = StandardScaler().fit(X)
    theirs = PCA(svd_solver="full").fit(scaler.transform(X))
    assert ours.total_variance == pytest.approx(3.0)
    np.testing.assert_allclose(ours.scale, scaler.scale_, rtol=1e-12)
    np.testing.assert_allclose(ours.explained_variance_ratio, theirs.explained_variance_ratio_, rtol=1e-8, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 60), d=st.integers(1, 8), method=st.sampled_from(pca.METHODS))
def test_standardised_pca_does_not_depend_on_the_units_of_each_feature(seed, n, d, method):
    rng = np.random.default_rng(seed)
    X = _correlated(rng, n, d, offset=2)
    units = 10 ** rng.uniform(-3, 3, d)
    Y = X * units + 10 ** rng.uniform(-3, 3, d)                 # the same data in other units, from other zeros
    a = pca.fit_pca(X, standardise=True, method=method)
    b = pca.fit_pca(Y, standardise=True, method=method)
    np.testing.assert_allclose(b.scale, a.scale * units, rtol=1e-7)
    np.testing.assert_allclose(b.variances, a.variances, rtol=1e-7, atol=1e-9 * d)
    assert b.total_variance == pytest.approx(d, rel=1e-9) and a.total_variance == pytest.approx(d, rel=1e-9)
    _assert_same_components(b.components, a.components, _spectrum(X / X.std(axis=0)), atol=1e-6)
    # with every component the reconstruction returns the data in their own units (compared per unit of scale)
    np.testing.assert_allclose(pca.reconstruct(b, pca.project(b, Y)) / b.scale, Y / b.scale, rtol=1e-9, atol=1e-9)
    # the same scores (up to the sign of a component whose sign rule meets a near tie)
    signs = np.where(np.sum(a.components * b.components, axis=1) < 0, -1.0, 1.0)
    np.testing.assert_allclose(pca.project(b, Y), pca.project(a, X) * signs, atol=1e-6 * np.sqrt(n * d))


# --------------------------------------------------------------------------- centre, covariance, sign rule

def test_centre_and_covariance_against_numpy():
    rng = np.random.default_rng(2)
    for scale in SCALES:
        for n, d in ((40, 5), (3, 7), (1, 2)):
            X = _correlated(rng, n, d, scale, offset=3)
            np.testing.assert_allclose(pca.centre(X).sum(axis=0), 0, atol=1e-12 * np.abs(X).max() * n)
            np.testing.assert_allclose(pca.centre(X), X - np.mean(X, axis=0), rtol=1e-12, atol=1e-15 * np.abs(X).max())
            np.testing.assert_allclose(pca.covariance(X), np.atleast_2d(np.cov(X.T, bias=True)), rtol=1e-9,
                                       atol=1e-12 * np.abs(X).max() ** 2)
    assert pca.covariance([[1.0, 2.0], [3.0, 6.0]]).tolist() == [[1.0, 2.0], [2.0, 4.0]]       # by hand


def test_sign_convention_by_hand():
    Q = np.array([[0.6, -0.8],       # largest |entry| negative: flipped
                  [-0.6, 0.8],       # already positive: unchanged
                  [0.5, -0.5],       # a tie: the first entry decides, already positive
                  [-0.5, 0.5],       # a tie, first entry negative: flipped
                  [0.0, 0.0],        # all zero: unchanged
                  [-0.2, 0.1],
                  [0.7071067811865475, -0.7071067811865476],   # a tie broken by round-off (the last bit): still a
                  [-0.7071067811865476, 0.7071067811865475],   # tie, the first entry decides (unchanged, flipped)
                  [0.5, -0.5 * (1 + 1e-6)]])                   # 1e-6 apart is no tie: the second entry decides
    np.testing.assert_array_equal(pca.sign_convention(Q),
                                  [[-0.6, 0.8], [-0.6, 0.8], [0.5, -0.5], [0.5, -0.5], [0, 0], [0.2, -0.1],
                                   [0.7071067811865475, -0.7071067811865476], [0.7071067811865476, -0.7071067811865475],
                                   [-0.5, 0.5 * (1 + 1e-6)]])
    assert pca.sign_convention(np.zeros((0, 3))).shape == (0, 3)
    assert pca.sign_convention(np.zeros((2, 0))).shape == (2, 0)
    Q_before = Q.copy()
    pca.sign_convention(Q)
    np.testing.assert_array_equal(Q, Q_before)                                    # the argument is not changed


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(0, 6), d=st.integers(1, 6),
       decimals=st.sampled_from([0, 1, None]), log_scale=st.floats(-3, 3))
def test_sign_convention_is_the_rule_written_as_a_loop(seed, k, d, decimals, log_scale):
    rng = np.random.default_rng(seed)
    Q = rng.standard_normal((k, d))
    if decimals is not None:
        Q = np.round(Q, decimals)                   # ties in |entry| and rows of zeros, often
    Q = Q * 10**log_scale                           # the same factor everywhere keeps the ties exact
    if decimals is None:                            # near ties too: a copy of one entry, off by round-off
        for row in Q:
            if d > 1:
                row[1] = -row[0] * (1 + float(rng.choice([-1, 1])) * 2.0**-52)
    expected = []
    for row in Q.tolist():
        largest = max(abs(v) for v in row)
        first = next(v for v in row if abs(v) >= largest * (1 - 1e-8))     # ties within a relative 1e-8: the first
        expected.append([-v for v in row] if first < 0 else row)
    once = pca.sign_convention(Q)
    np.testing.assert_array_equal(once, np.array(expected).reshape(k, d))
    np.testing.assert_array_equal(pca.sign_convention(once), once)                               # idempotent
    flips = rng.choice([-1.0, 1.0], size=(k, 1))
    np.testing.assert_array_equal(pca.sign_convention(Q * flips), once)                          # sign-blind


@pytest.mark.parametrize("method", pca.METHODS)
def test_an_exact_tie_gets_the_same_sign_whatever_the_round_off(method):
    """Features 0 and 1 exchangeable (every point comes with its mirror image, the two features swapped) and
    anti-correlated: the first component is antisymmetric, q_0 = -q_1, an exact tie in |entry| that each route
    breaks in its last bits. The rule makes the first of the tied entries positive, on both routes, at every
    scale and row order (by hand: the component is (1, -1, ...)/sqrt(2) up to small other entries)."""
    rng = np.random.default_rng(7)
    for scale in SCALES:
        for n, d in ((30, 2), (40, 5), (200, 12)):
            base = rng.standard_normal((n, d))
            base[:, :2] += 4 * rng.standard_normal((n, 1)) * [1.0, -1.0]
            X = np.vstack([base, base[:, [1, 0, *range(2, d)]]]) * scale
            for rows in (np.arange(2 * n), rng.permutation(2 * n)):
                q = pca.fit_pca(X[rows], 1, method=method).components[0]
                assert abs(abs(q[0]) - abs(q[1])) < 1e-12 and q[0] > 0 > q[1], (scale, n, d, q[:2])
                assert np.abs(q[2:]).max(initial=0) < abs(q[0])


# --------------------------------------------------------------------------- the theorems, as properties

@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 60), d=st.integers(1, 12), k_share=st.floats(0, 1), seed=st.integers(0, 2**32 - 1),
       log_scale=st.floats(-3, 3), method=st.sampled_from(pca.METHODS))
def test_top_components_keep_the_most_and_lose_the_least(n, d, k_share, seed, log_scale, method):
    rng = np.random.default_rng(seed)
    X = _correlated(rng, n, d, 10**log_scale, offset=4)
    k = round(k_share * min(n, d))
    fit = pca.fit_pca(X, k, method=method)
    total = fit.total_variance
    tol = 1e-8 * total + 1e-300
    all_variances = np.clip(_spectrum(X), 0, None)
    assert fit.components.shape == (k, d) and fit.variances.shape == (k,)
    np.testing.assert_allclose(fit.components @ fit.components.T, np.eye(k), atol=1e-8)          # orthonormal rows
    assert np.all(np.diff(fit.variances) <= tol) and np.all(fit.variances >= -tol)                # sorted, >= 0
    assert total == pytest.approx(np.var(X, axis=0).sum(), rel=1e-9, abs=1e-300)                 # the trace
    np.testing.assert_allclose(fit.variances, all_variances[:k], atol=tol)
    np.testing.assert_allclose(fit.explained_variance_ratio, fit.variances / total, rtol=1e-12)
    kept = pca.captured_variance(X, fit.components)
    assert kept == pytest.approx(fit.variances.sum(), abs=tol)                                    # Ky Fan
    error = pca.reconstruction_error(fit, X)
    assert error == pytest.approx(total - fit.variances.sum(), abs=tol)                           # the variance split
    assert error == pytest.approx(all_variances[k:].sum(), abs=tol)                               # Eckart–Young
    Xc = X - X.mean(axis=0)
    for _ in range(20):                                                                           # no subspace does better
        B = pca.random_subspace(d, k, rng)
        assert pca.captured_variance(X, B) <= kept + tol
        assert ((Xc - Xc @ B.T @ B) ** 2).sum() / n >= error - tol
    Z = pca.project(fit, X)
    np.testing.assert_allclose(Z.mean(axis=0), 0, atol=1e-9 * np.sqrt(total) + 1e-300)             # centred scores
    np.testing.assert_allclose(Z.var(axis=0), fit.variances, atol=tol)                            # their variances
    np.testing.assert_allclose(Z.T @ Z / n, np.diag(fit.variances), atol=tol)                      # uncorrelated


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 40), d=st.integers(1, 10), seed=st.integers(0, 2**32 - 1), log_scale=st.floats(-3, 3),
       method=st.sampled_from(pca.METHODS))
def test_k_zero_is_the_mean_and_all_components_reconstruct_exactly(n, d, seed, log_scale, method):
    rng = np.random.default_rng(seed)
    X = _correlated(rng, n, d, 10**log_scale, offset=3)
    size = np.abs(X).max()
    nothing = pca.fit_pca(X, 0, method=method)
    assert pca.project(nothing, X).shape == (n, 0)
    np.testing.assert_allclose(pca.reconstruct(nothing, pca.project(nothing, X)),
                               np.broadcast_to(X.mean(axis=0), X.shape), rtol=1e-12, atol=1e-14 * size)
    assert pca.reconstruction_error(nothing, X) == pytest.approx(np.var(X, axis=0).sum(), rel=1e-9, abs=1e-300)
    everything = pca.fit_pca(X, method=method)
    assert len(everything.components) == min(n, d)
    np.testing.assert_allclose(pca.reconstruct(everything, pca.project(everything, X)), X, atol=1e-9 * size)
    assert pca.reconstruction_error(everything, X) <= 1e-16 * d * size**2 + 1e-9 * everything.total_variance


def test_lecture_example_by_hand():
    # three points along (1, 1): mean (2, 2), covariance [[8/3, 8/3], [8/3, 8/3]], eigenvalues 16/3 and 0
    fit = pca.fit_pca([[0.0, 0.0], [2.0, 2.0], [4.0, 4.0]], k=1)
    np.testing.assert_allclose(fit.mean, [2.0, 2.0])
    np.testing.assert_allclose(fit.components, [[2**-0.5, 2**-0.5]])
    np.testing.assert_allclose(fit.variances, [16 / 3])
    np.testing.assert_allclose(pca.project(fit, [[4.0, 4.0], [3.0, 1.0]]), [[8**0.5], [0.0]], atol=1e-15)
    assert pca.reconstruction_error(fit, [[3.0, 1.0]]) == pytest.approx(2.0)      # (3, 1) is sqrt 2 from (2, 2)
    # points along (0.6, -0.8): the component points along (-0.6, 0.8), its largest entry positive
    line = np.outer([-2.0, 1.0, 3.0, -1.0], [0.6, -0.8]) + [5.0, -1.0]
    for method in pca.METHODS:
        np.testing.assert_allclose(pca.fit_pca(line, 1, method=method).components, [[-0.6, 0.8]], atol=1e-12)


def test_module_doctests_pass():
    result = doctest.testmod(pca)
    assert result.attempted > 0 and result.failed == 0


def test_components_do_not_move_when_the_data_are_shifted():
    rng = np.random.default_rng(5)
    for scale in SCALES:
        X = _correlated(rng, 100, 6, scale)
        fit = pca.fit_pca(X, 4)
        shifted = pca.fit_pca(X + 1e3 * scale * rng.standard_normal(6), 4)
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
    assert not np.isclose(by_eigh[2], s[2], rtol=0.5)         # s^2 = 1e-20 is below the round-off of X^T X


def test_truncate_is_the_fit_with_fewer_components():
    rng = np.random.default_rng(7)
    X = _correlated(rng, 80, 7)
    full = pca.fit_pca(X)
    for k in (0, 3, 7):
        cut, fresh = pca.truncate(full, k), pca.fit_pca(X, k)
        np.testing.assert_allclose(cut.components, fresh.components, atol=1e-10)
        np.testing.assert_allclose(cut.variances, fresh.variances, rtol=1e-12)
        np.testing.assert_allclose(cut.explained_variance_ratio, fresh.explained_variance_ratio, rtol=1e-12)
        assert cut.total_variance == pytest.approx(fresh.total_variance) and cut.n == fresh.n == 80
        assert pca.reconstruction_error(cut, X) == pytest.approx(pca.reconstruction_error(fresh, X), rel=1e-9, abs=1e-12)


def test_a_fitted_pca_cannot_be_changed():
    fit = pca.fit_pca(np.random.default_rng(9).standard_normal((20, 4)), 2)
    for name in ("mean", "scale", "components", "variances", "explained_variance_ratio"):
        with pytest.raises(ValueError, match="read-only"):
            getattr(fit, name)[0] = 1.0
    with pytest.raises(AttributeError):
        fit.n = 3


# --------------------------------------------------------------------------- the Gram route (n < d)

WIDE = [(3, 4), (10, 40), (25, 26), (40, 300), (60, 61)]


@pytest.mark.parametrize("shape", WIDE)
def test_gram_route_matches_scikit_learn_and_the_covariance_route(shape):
    """n < d: the components and variances from the n x n Gram matrix are scikit-learn's (its variances times
    (n - 1)/n) and the d x d covariance's; the default k is n - 1, the number of non-zero eigenvalues."""
    from sklearn.decomposition import PCA

    n, d = shape
    rng = np.random.default_rng(n * d)
    for scale in SCALES:
        X = _correlated(rng, n, d, scale=scale, offset=5)
        lam = _spectrum(X)
        ours = pca.fit_pca_via_gram(X)
        assert ours.components.shape == (n - 1, d) and ours.n == n
        theirs = PCA(n_components=n - 1, svd_solver="full").fit(X)
        np.testing.assert_allclose(ours.variances, theirs.explained_variance_ * (n - 1) / n, rtol=1e-8, atol=1e-10 * lam[0])
        np.testing.assert_allclose(ours.explained_variance_ratio, theirs.explained_variance_ratio_, rtol=1e-8, atol=1e-12)
        np.testing.assert_allclose(ours.mean, theirs.mean_, rtol=1e-12, atol=1e-14 * np.abs(X).max())
        assert ours.total_variance == pytest.approx(lam.sum(), rel=1e-9)
        assert _assert_same_components(ours.components, theirs.components_, lam) >= 1
        by_cov = pca.fit_pca(X, n - 1, method="eigh")
        _assert_same_components(ours.components, by_cov.components, lam)
        np.testing.assert_allclose(ours.components @ ours.components.T, np.eye(n - 1), atol=1e-7)
        # the coordinates are s_j u_j: the same as projecting onto the mapped-back components
        Xc = X - X.mean(axis=0)
        s2, U = np.linalg.eigh(Xc @ Xc.T)
        Z = pca.project(ours, X)
        np.testing.assert_allclose(np.abs(Z), np.abs(U[:, ::-1][:, : n - 1] * np.sqrt(s2[::-1][: n - 1])),
                                   atol=1e-7 * np.sqrt(n * lam[0]))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 30), extra=st.integers(1, 40), log_scale=st.floats(-3, 3),
       standardise=st.booleans())
def test_gram_route_is_the_svd_route_on_wide_data(seed, n, extra, log_scale, standardise):
    rng = np.random.default_rng(seed)
    X = _correlated(rng, n, n + extra, 10**log_scale, offset=3)
    gram = pca.fit_pca_via_gram(X, standardise=standardise)
    k = len(gram.variances)
    svd = pca.fit_pca(X, k, standardise=standardise)
    assert k == n - 1 or (standardise and k <= n - 1)
    np.testing.assert_allclose(gram.variances, svd.variances, rtol=0, atol=1e-8 * svd.total_variance)
    np.testing.assert_allclose(gram.scale, svd.scale, rtol=1e-12)
    assert gram.total_variance == pytest.approx(svd.total_variance, rel=1e-9)
    _assert_same_components(gram.components, svd.components,
                            np.r_[svd.variances, np.zeros(X.shape[1] - k)], atol=1e-6)
    for j in (0, k // 2):                                     # fewer components: the first ones, truncated
        np.testing.assert_allclose(pca.fit_pca_via_gram(X, j, standardise=standardise).components,
                                   gram.components[:j], atol=1e-12)


def test_gram_route_by_hand_and_on_tall_data():
    # the exercise's public example: points at 3, -3, 0 along (0.6, 0.8, 0, 0) and 1, 1, -2 along (0, 0, 0.8, -0.6)
    X = np.array([[2.8, 4.4, 3.8, 3.4], [-0.8, -0.4, 3.8, 3.4], [1.0, 2.0, 1.4, 5.2]])
    fit = pca.fit_pca_via_gram(X)
    np.testing.assert_allclose(fit.variances, [6.0, 2.0], rtol=1e-12)
    np.testing.assert_allclose(fit.components, [[0.6, 0.8, 0, 0], [0, 0, 0.8, -0.6]], atol=1e-12)
    np.testing.assert_allclose(fit.mean, [1, 2, 3, 4], rtol=1e-12)
    # n > d works too (the route is for n < d, but nothing in it needs that): d non-zero eigenvalues
    rng = np.random.default_rng(11)
    tall = _correlated(rng, 50, 4, offset=2)
    np.testing.assert_allclose(pca.fit_pca_via_gram(tall).variances, pca.fit_pca(tall).variances, rtol=1e-9)
    # every point the same: no component has a variance
    assert pca.fit_pca_via_gram(np.ones((3, 5))).components.shape == (0, 5)


# --------------------------------------------------------------------------- whitening

@pytest.mark.parametrize("shape", [(200, 5), (40, 12), (13, 12)])
def test_whitening_is_scikit_learns_times_sqrt_n_over_n_minus_1(shape):
    from sklearn.decomposition import PCA

    n, d = shape
    rng = np.random.default_rng(n + d)
    for scale in SCALES:
        X = _correlated(rng, n, d, scale=scale, offset=4)
        for k in (1, d // 2, d):
            fit = pca.fit_pca(X, k)
            theirs = PCA(n_components=k, whiten=True, svd_solver="full").fit(X)
            keep = _determined(_spectrum(X))[:k]
            ours = pca.whiten(fit, X)
            assert ours.shape == (n, k)
            signs = np.sign(np.sum(fit.components * theirs.components_, axis=1))       # near ties may differ in sign
            np.testing.assert_allclose(ours[:, keep], (theirs.transform(X) * signs * np.sqrt(n / (n - 1)))[:, keep],
                                       atol=1e-7 * np.sqrt(n))
            np.testing.assert_allclose(ours.T @ ours / n, np.eye(k), atol=1e-8)        # white, by the lecture's 1/n
            Y = X[: n // 2] * 1.5 + 1.0                                              # new points, as transform does
            np.testing.assert_allclose(pca.whiten(fit, Y)[:, keep], (theirs.transform(Y) * signs * np.sqrt(n / (n - 1)))[:, keep],
                                       atol=1e-7 * np.sqrt(n) * 10)


def test_zca_is_the_symmetric_inverse_square_root_and_moves_least():
    from scipy.linalg import fractional_matrix_power

    rng = np.random.default_rng(12)
    for scale in SCALES:
        for n, d in ((300, 6), (30, 20)):
            X = _correlated(rng, n, d, scale=scale, offset=3)
            fit = pca.fit_pca(X)
            S = np.cov(X.T, bias=True)
            root = np.real(fractional_matrix_power(S, -0.5))                  # SciPy's S^(-1/2), by its Schur form
            Xc = X - X.mean(axis=0)
            zca = pca.whiten(fit, X, zca=True)
            np.testing.assert_allclose(zca, Xc @ root.T, atol=1e-6 * np.abs(zca).max())
            np.testing.assert_allclose(zca.T @ zca / n, np.eye(d), atol=1e-7)
            # Mahalanobis distances
            i, j = rng.integers(0, n, (2, 30))
            diff = X[i] - X[j]
            maha = np.einsum("pd,de,pe->p", diff, np.linalg.inv(S), diff)
            for W in (zca, pca.whiten(fit, X)):
                np.testing.assert_allclose(((W[i] - W[j]) ** 2).sum(axis=1), maha, rtol=1e-6, atol=1e-9 * maha.max())
            # no whitening Q S^(-1/2) moves the points less
            moved = ((zca - Xc) ** 2).sum() / n
            for _ in range(20):
                Q = np.linalg.qr(rng.standard_normal((d, d)))[0]
                assert ((Xc @ (Q @ root).T - Xc) ** 2).sum() / n >= moved * (1 - 1e-9)


def test_whitening_with_a_floor_and_fewer_components():
    rng = np.random.default_rng(13)
    X = _correlated(rng, 100, 6, offset=2)
    X[:, 5] = X[:, 0] - X[:, 1]                                         # a direction of variance 0
    fit = pca.fit_pca(X)
    lam = fit.variances
    assert lam[-1] < 1e-12 * lam[0]
    for floor in (1e-3, 1.0, 1e3):
        W = pca.whiten(fit, X, floor=floor)
        np.testing.assert_allclose(W.T @ W / 100, np.diag(lam / (lam + floor)), atol=1e-9)
    top = pca.truncate(fit, 3)
    Z = pca.whiten(top, X, zca=True)                                    # ZCA with k < d: covariance V_k V_k^T
    V = top.components.T
    np.testing.assert_allclose(Z.T @ Z / 100, V @ V.T, atol=1e-9)
    np.testing.assert_allclose(pca.whiten(top, X, zca=True), pca.whiten(top, X) @ top.components, atol=1e-12)
    # standardised: the whitened coordinates do not depend on the features' units
    Y = X * 10.0 ** np.arange(-2, 4) + 7.0
    a = pca.whiten(pca.fit_pca(X[:, :5], standardise=True), X[:, :5])
    b = pca.whiten(pca.fit_pca(Y[:, :5], standardise=True), Y[:, :5])
    np.testing.assert_allclose(np.abs(a), np.abs(b), atol=1e-6)


# --------------------------------------------------------------------------- principal-component regression

@pytest.mark.parametrize("standardise", [False, True])
@pytest.mark.parametrize("shape", [(100, 8), (30, 30), (12, 40)])
def test_pcr_is_scikit_learns_pca_then_least_squares(shape, standardise):
    from sklearn.decomposition import PCA
    from sklearn.linear_model import LinearRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    n, d = shape
    rng = np.random.default_rng(n + 3 * d)
    for scale in SCALES:
        X = _correlated(rng, n, d, scale=scale, offset=3) * (10.0 ** rng.uniform(-1, 1, d) if standardise else 1.0)
        y = X @ rng.standard_normal(d) / scale + rng.standard_normal(n) + 5.0
        for k in (1, min(n - 1, d) // 2, min(n - 1, d)):
            ours = pca.fit_pcr(X, y, k, standardise=standardise)
            steps = ([StandardScaler()] if standardise else []) + [PCA(k, svd_solver="full"), LinearRegression()]
            theirs = make_pipeline(*steps).fit(X, y)
            np.testing.assert_allclose(X @ ours.w + ours.b, theirs.predict(X), rtol=1e-7, atol=1e-7 * np.abs(y).max())
            new = _correlated(rng, 5, d, scale=scale)
            np.testing.assert_allclose(new @ ours.w + ours.b, theirs.predict(new), rtol=1e-6, atol=1e-6 * np.abs(y).max())


def test_pcr_filter_factors_and_its_ends():
    from mlcourse import regression

    rng = np.random.default_rng(14)
    X = _correlated(rng, 60, 7, offset=2)
    y = rng.standard_normal(60) * 3 + 2
    zero = pca.fit_pcr(X, y, 0)
    np.testing.assert_array_equal(zero.w, np.zeros(7))
    assert zero.b == pytest.approx(y.mean())
    full = pca.fit_pcr(X, y, 7)                                           # every component: least squares
    ls = regression.fit_least_squares(X, y)
    np.testing.assert_allclose(full.w, ls.w, rtol=1e-9)
    assert full.b == pytest.approx(ls.b, rel=1e-9)
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    U, s, Vt = np.linalg.svd(Xc, full_matrices=False)
    for k in range(8):                                                    # w = sum_{j <= k} (u_j . y_c / s_j) v_j
        np.testing.assert_allclose(pca.fit_pcr(X, y, k).w, Vt[:k].T @ (U[:, :k].T @ yc / s[:k]), atol=1e-10)


# --------------------------------------------------------------------------- random subspaces

def test_random_subspace_is_orthonormal_and_uniform():
    from scipy import stats

    rng = np.random.default_rng(8)
    draws_per_case = 4000
    for d, k in ((5, 2), (6, 5), (3, 1)):
        draws = np.array([pca.random_subspace(d, k, rng) for _ in range(draws_per_case)])
        assert draws.shape == (draws_per_case, k, d)
        np.testing.assert_allclose(draws @ draws.transpose(0, 2, 1), np.broadcast_to(np.eye(k), (draws_per_case, k, k)),
                                   atol=1e-12)
        # E[Q^T Q] = (k/d) I for a uniform k-plane. The diagonal entries are Beta(k/2, (d-k)/2), standard
        # deviation at most 0.3, the off-diagonal ones smaller: 4000 draws put the mean within 0.0047 (one
        # standard error), and 0.03 is more than 6 of them
        projector_mean = np.einsum("mkd,mke->de", draws, draws) / draws_per_case
        np.testing.assert_allclose(projector_mean, k / d * np.eye(d), atol=0.03)
        # beyond the mean: for every fixed unit vector u (here e_1, the diagonal and a random one) the squared
        # length ||Q u||^2 of its projection has the Beta(k/2, (d-k)/2) distribution (a Kolmogorov–Smirnov test
        # at level 1e-3; the seed is fixed)
        for u in (np.eye(d)[0], np.full(d, d**-0.5), rng.standard_normal(d)):
            kept = ((draws @ (u / np.linalg.norm(u))) ** 2).sum(axis=1)
            assert stats.kstest(kept, stats.beta(k / 2, (d - k) / 2).cdf).pvalue > 1e-3, (d, k, u)
    np.testing.assert_array_equal(pca.random_subspace(5, 2, 9), pca.random_subspace(5, 2, 9))     # a seed repeats
    assert pca.random_subspace(4, 0, 0).shape == (0, 4)
    full = pca.random_subspace(4, 4, 0)
    np.testing.assert_allclose(full.T @ full, np.eye(4), atol=1e-12)                              # k = d: all of R^d


# --------------------------------------------------------------------------- bad input

def _fit(X=None, k=None):
    return pca.fit_pca(np.eye(3) if X is None else X, k)


@pytest.mark.parametrize("call, error, pattern", [
    (lambda: pca.fit_pca(np.ones((3, 5)), 4), ValueError, r"k must be at most min\(n, d\) = 3 for X of shape \(3, 5\); got 4"),
    (lambda: pca.fit_pca(np.ones((6, 2)), 3), ValueError, r"k must be at most min\(n, d\) = 2"),
    (lambda: pca.fit_pca(np.ones((3, 5)), -1), ValueError, "k must be an integer >= 0; got -1"),
    (lambda: pca.fit_pca(np.ones((3, 5)), 1.5), TypeError, "k must be an integer >= 0; got float"),
    (lambda: pca.fit_pca(np.ones((3, 5)), True), TypeError, "k must be an integer >= 0; got bool"),
    (lambda: pca.fit_pca(np.ones((3, 5)), "2"), TypeError, "k must be an integer >= 0; got str"),
    (lambda: pca.fit_pca(np.ones((3, 5)), 1, method="power"), ValueError, r"method must be one of \('svd', 'eigh'\); got 'power'"),
    (lambda: pca.fit_pca(np.ones(5)), ValueError, r"X must be a 2-d array"),
    (lambda: pca.fit_pca(np.ones((0, 3))), ValueError, "X has no rows"),
    (lambda: pca.fit_pca([[1.0, np.nan]]), ValueError, "X contains NaN or infinite values"),
    (lambda: pca.fit_pca([["a", "b"]]), TypeError, "X must be an array of numbers"),
    (lambda: pca.project(_fit(), np.ones((2, 4))), ValueError, r"X must have d = 3 columns, as the data the PCA was fitted on; got shape \(2, 4\)"),
    (lambda: pca.project(_fit(), np.ones(3)), ValueError, "X must be a 2-d array"),
    (lambda: pca.project("a pca", np.ones((2, 3))), TypeError, "pca must be the PCA that fit_pca returns; got str"),
    (lambda: pca.reconstruct(_fit(k=2), np.ones((2, 3))), ValueError, r"Z must have shape \(n, 2\), one column per component; got shape \(2, 3\)"),
    (lambda: pca.reconstruct(_fit(k=2), np.ones(2)), ValueError, r"Z must have shape \(n, 2\)"),
    (lambda: pca.reconstruct(None, np.ones((2, 2))), TypeError, "pca must be the PCA that fit_pca returns; got NoneType"),
    (lambda: pca.reconstruction_error({"mean": 0}, np.ones((2, 3))), TypeError, "pca must be the PCA that fit_pca returns; got dict"),
    (lambda: pca.reconstruction_error(_fit(), np.ones((2, 2))), ValueError, "X must have d = 3 columns"),
    (lambda: pca.captured_variance(np.eye(3), np.ones((1, 3))), ValueError, r"the rows of basis must be orthonormal"),
    (lambda: pca.captured_variance(np.eye(3), [[1.0, 0, 0], [1.0, 0, 0]]), ValueError, "must be orthonormal"),
    (lambda: pca.captured_variance(np.eye(3), np.ones((1, 2))), ValueError, r"basis must have shape \(k, 3\); got shape \(1, 2\)"),
    (lambda: pca.captured_variance(np.eye(3), np.ones(3)), ValueError, r"basis must have shape \(k, 3\)"),
    (lambda: pca.truncate(_fit(k=2), 3), ValueError, "k must be at most 2, the number of components of this PCA; got 3"),
    (lambda: pca.truncate(_fit(k=2), -1), ValueError, "k must be an integer >= 0"),
    (lambda: pca.truncate("a pca", 1), TypeError, "pca must be the PCA that fit_pca returns"),
    (lambda: pca.random_subspace(3, 4, 0), ValueError, "k must be at most d = 3; got 4"),
    (lambda: pca.random_subspace(0, 0, 0), ValueError, "d must be at least 1"),
    (lambda: pca.random_subspace(3, -1, 0), ValueError, "k must be an integer >= 0"),
    (lambda: pca.random_subspace(3.0, 1, 0), TypeError, "d must be an integer"),
    (lambda: pca.random_subspace(3, 1, "seed"), TypeError, "rng must be a numpy Generator or an integer seed"),
    (lambda: pca.sign_convention(np.ones(3)), ValueError, r"components must be a 2-d array of shape \(k, d\); got shape \(3,\)"),
    (lambda: pca.fit_pca_via_gram(np.arange(12.0).reshape(3, 4) ** 2, 3), ValueError,
     r"k must be at most 2, the number of non-zero eigenvalues of the Gram matrix of X \(shape \(3, 4\)\)"),
    (lambda: pca.fit_pca_via_gram(np.ones((3, 4)), -1), ValueError, "k must be an integer >= 0"),
    (lambda: pca.fit_pca_via_gram(np.ones((3, 4)), 1.0), TypeError, "k must be an integer >= 0; got float"),
    (lambda: pca.fit_pca_via_gram(np.ones(4)), ValueError, "X must be a 2-d array"),
    (lambda: pca.fit_pca_via_gram([[1.0, np.inf]]), ValueError, "X contains NaN or infinite values"),
    (lambda: pca.whiten(_fit(np.ones((3, 3))), np.ones((2, 3))), ValueError,
     "component 0 has variance 0 and cannot be whitened: pass floor > 0, or keep fewer components"),
    (lambda: pca.whiten(_fit(), np.ones((2, 3)), floor=-1.0), ValueError, "floor must be"),
    (lambda: pca.whiten(_fit(), np.ones((2, 3)), floor="a"), TypeError, "floor must be a number"),
    (lambda: pca.whiten(_fit(), np.ones((2, 3)), zca=1), TypeError, "zca must be True or False; got 1"),
    (lambda: pca.whiten(_fit(), np.ones((2, 4))), ValueError, "X must have d = 3 columns"),
    (lambda: pca.whiten("a pca", np.ones((2, 3))), TypeError, "pca must be the PCA that fit_pca returns"),
    (lambda: pca.fit_pcr(np.eye(3), np.ones(2), 1), ValueError, r"y has shape \(2,\), expected \(3,\) to match the rows of X"),
    (lambda: pca.fit_pcr(np.eye(3), np.ones((3, 1)), 1), ValueError, "y must be a 1-d array"),
    (lambda: pca.fit_pcr(np.eye(3), np.ones(3), 4), ValueError, r"k must be at most min\(n, d\) = 3"),
    (lambda: pca.fit_pcr(np.eye(3), np.ones(3), 3), ValueError, r"k must be at most the number of components of non-zero variance \(2 here\); got 3"),
    (lambda: pca.fit_pcr(np.eye(3), np.ones(3), 1.5), TypeError, "k must be an integer >= 0; got float"),
])
def test_bad_input_is_named(call, error, pattern):
    with warnings.catch_warnings():
        warnings.simplefilter("error")                  # a clear error, not a warning on the way to one
        with pytest.raises(error, match=pattern):
            call()
