"""mlcourse.clustering against independent implementations (scikit-learn's KMeans and GaussianMixture, SciPy's
linkage, minimum spanning tree and multivariate normal, brute-force loops) and the theorems of lecture 11."""

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mlcourse import clustering


def _grouped(rng, n, d, k, scale=1.0):
    return (rng.standard_normal((n, d)) + 4 * rng.standard_normal((k, d))[rng.integers(0, k, n)]) * scale


# --------------------------------------------------------------------------- k-means

def test_squared_distances_and_assign_against_cdist_and_a_loop():
    from scipy.spatial.distance import cdist

    rng = np.random.default_rng(0)
    for scale in (1e-3, 1.0, 1e3):
        X, C = rng.standard_normal((50, 3)) * scale, rng.standard_normal((6, 3)) * scale
        np.testing.assert_allclose(clustering.squared_distances(X, C), cdist(X, C, "sqeuclidean"), rtol=1e-9, atol=1e-12 * scale**2)
        expected = [min(range(6), key=lambda k: (np.sum((x - C[k]) ** 2), k)) for x in X]
        np.testing.assert_array_equal(clustering.assign(X, C), expected)
    X, C = np.array([[0.5], [1.5], [0.0]]), np.array([[0.0], [1.0], [2.0], [0.0]])   # ties, and a repeated centre
    np.testing.assert_array_equal(clustering.assign(X, C), [0, 1, 0])
    assert clustering.squared_distances(C, C).min() == 0.0


def test_update_centres_means_and_empty_clusters():
    X = np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 5.0]])
    np.testing.assert_allclose(clustering.update_centres(X, np.array([0, 0, 1]), 2), [[1.0, 0.0], [1.0, 5.0]])
    previous = np.array([[9.0, 9.0], [1.0, 1.0], [7.0, 7.0]])
    np.testing.assert_allclose(clustering.update_centres(X, np.array([1, 1, 1]), 3, previous), [[9.0, 9.0], [1.0, 5 / 3], [7.0, 7.0]])
    with pytest.raises(ValueError, match="cluster 0 has no point"):
        clustering.update_centres(X, np.array([1, 1, 1]), 2)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 300), d=st.integers(1, 5), k=st.integers(1, 8),
       log_scale=st.floats(-3, 3))
def test_lloyd_never_increases_the_objective_and_stops(seed, n, d, k, log_scale):
    rng = np.random.default_rng(seed)
    X = _grouped(rng, n, d, k, 10**log_scale)
    run = clustering.lloyd(X, X[rng.choice(n, size=min(k, n), replace=False)])
    J = np.array(run.objectives)
    assert np.all(np.diff(J) <= 1e-9 * J[0] + 1e-300)
    assert run.converged and run.objective == pytest.approx(clustering.kmeans_objective(X, run.centres, run.labels))
    np.testing.assert_array_equal(run.labels, clustering.assign(X, run.centres))


def test_lloyd_matches_scikit_learn_from_the_same_start():
    from sklearn.cluster import KMeans

    rng = np.random.default_rng(1)
    for n, d, k in ((500, 4, 5), (2000, 10, 10), (60, 2, 3)):
        X = _grouped(rng, n, d, k)
        start = X[rng.choice(n, size=k, replace=False)]
        ours = clustering.lloyd(X, start)
        theirs = KMeans(k, init=start, n_init=1, algorithm="lloyd", tol=0, max_iter=300).fit(X)
        np.testing.assert_array_equal(ours.labels, theirs.labels_)
        np.testing.assert_allclose(ours.centres, theirs.cluster_centers_, rtol=1e-9, atol=1e-9)
        assert ours.objective == pytest.approx(theirs.inertia_, rel=1e-9)
        assert ours.converged and theirs.n_iter_ == ours.n_iter + 1      # its last iteration finds nothing changed


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 40), k=st.integers(1, 12))
def test_lloyds_fast_argmin_is_argmin_with_ties_to_the_smallest_index(seed, n, k):
    rng = np.random.default_rng(seed)
    S = rng.integers(-3, 3, size=(k, n)).astype(float)               # small integers: many ties
    labels, least = clustering._first_argmin(S)
    np.testing.assert_array_equal(labels, np.argmin(S, axis=0))
    np.testing.assert_array_equal(least, S.min(axis=0))
    assert labels.dtype == np.intp


def test_update_centres_equals_a_loop_over_the_clusters():
    rng = np.random.default_rng(12)
    for _ in range(20):
        n, d, k = int(rng.integers(1, 80)), int(rng.integers(1, 6)), int(rng.integers(1, 8))
        X = rng.standard_normal((n, d)) * 10 ** rng.uniform(-3, 3) + rng.standard_normal(d)
        labels, previous = rng.integers(0, k, n), rng.standard_normal((k, d))
        expected = np.array([X[labels == j].mean(axis=0) if np.any(labels == j) else previous[j] for j in range(k)])
        np.testing.assert_allclose(clustering.update_centres(X, labels, k, previous), expected, rtol=1e-12,
                                   atol=1e-14 * np.abs(X).max())


def test_update_centres_on_data_too_large_for_the_dense_membership_matrix():
    """Beyond k n = 4e6 the sums come from one bincount per column instead of the (k, n) product."""
    rng = np.random.default_rng(13)
    n, d, k = 500_000, 3, 9
    X = rng.standard_normal((n, d)) + 100.0
    labels = rng.integers(0, k - 1, n)                     # cluster k - 1 stays empty: it keeps its previous centre
    previous = rng.standard_normal((k, d))
    expected = np.array([X[labels == j].mean(axis=0) for j in range(k - 1)] + [previous[-1]])
    np.testing.assert_allclose(clustering.update_centres(X, labels, k, previous), expected, rtol=1e-12)


def test_lloyd_stops_at_a_local_minimum():
    """Four corners of a 4 x 1 rectangle, K = 2: splitting left from right costs 2, top from bottom 16; started
    with one centre per long side, Lloyd keeps the bad split."""
    X = np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 1.0], [4.0, 1.0]])
    bad = clustering.lloyd(X, np.array([[2.0, 0.0], [2.0, 1.0]]))
    good = clustering.lloyd(X, np.array([[0.0, 0.5], [4.0, 0.5]]))
    assert bad.converged and bad.objective == pytest.approx(16.0) and good.objective == pytest.approx(1.0)


def test_kmeans_plus_plus_draws_proportionally_to_squared_distance():
    """Points 0, 1 and 3 on a line: with the first centre at 0 (drawn with probability 1/3), the second is 1
    or 3 with probabilities 1/10 and 9/10."""
    X = np.array([[0.0], [1.0], [3.0]])
    pairs = [tuple(clustering.kmeans_plus_plus(X, 2, seed)[:, 0]) for seed in range(6000)]
    firsts = np.array([p[0] for p in pairs])
    assert np.allclose([np.mean(firsts == v) for v in (0, 1, 3)], 1 / 3, atol=0.025)
    seconds = np.array([p[1] for p in pairs if p[0] == 0])
    assert np.mean(seconds == 3) == pytest.approx(0.9, abs=0.03)
    np.testing.assert_array_equal(clustering.kmeans_plus_plus(X, 3, 7), clustering.kmeans_plus_plus(X, 3, 7))
    assert len({tuple(c) for c in clustering.kmeans_plus_plus(X, 3, 1)}) == 3


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 300), d=st.integers(1, 5), k=st.integers(1, 12),
       log_scale=st.floats(-3, 3), duplicates=st.booleans())
def test_kmeans_plus_plus_draws_what_rng_choice_draws(seed, n, d, k, log_scale, duplicates):
    """The seeding written with NumPy's own weighted draw, rng.choice(n, p=...), and squared_distances: the same
    centres from the same seed."""
    rng = np.random.default_rng(seed)
    X = _grouped(rng, n, d, 3, 10**log_scale)
    if duplicates:
        X = np.round(X[:, :1] / 10**log_scale) * np.ones((1, d))         # few distinct points: distances of 0
    k = min(k, n)
    draw = np.random.default_rng(seed + 1)
    chosen = [int(draw.integers(n))]
    nearest = clustering.squared_distances(X, X[chosen])[:, 0]
    for _ in range(1, k):
        total = nearest.sum()
        chosen.append(int(draw.integers(n)) if total <= 0 else int(draw.choice(n, p=nearest / total)))
        nearest = np.minimum(nearest, clustering.squared_distances(X, X[chosen[-1:]])[:, 0])
    np.testing.assert_array_equal(clustering.kmeans_plus_plus(X, k, np.random.default_rng(seed + 1)), X[chosen])


def test_kmeans_keeps_the_best_run_and_random_init_draws_distinct_points():
    rng = np.random.default_rng(2)
    X = _grouped(rng, 300, 2, 6)
    best = clustering.kmeans(X, 6, n_init=8, seed=3)
    singles = [clustering.lloyd(X, clustering.kmeans_plus_plus(X, 6, s)).objective for s in np.random.default_rng(3).integers(0, 2**63, 8)]
    assert best.objective <= min(singles) + 1e-9 or best.objective == pytest.approx(min(singles))
    start = clustering.random_init(X, 6, 4)
    assert len({tuple(c) for c in start}) == 6 and all(any(np.array_equal(c, x) for x in X) for c in start)


# --------------------------------------------------------------------------- hierarchical clustering

@pytest.mark.parametrize("method", clustering.LINKAGES)
def test_linkage_equals_scipys(method):
    from scipy.cluster.hierarchy import fcluster, linkage

    rng = np.random.default_rng(5)
    for n, d in ((2, 1), (7, 2), (60, 3), (150, 4)):
        X = rng.standard_normal((n, d)) * 10 ** rng.uniform(-2, 2, size=d)
        ours, theirs = clustering.linkage(X, method), linkage(X, method)
        np.testing.assert_allclose(ours[:, 2], theirs[:, 2], rtol=1e-9)
        np.testing.assert_array_equal(ours[:, [0, 1, 3]], theirs[:, [0, 1, 3]])
        for k in range(1, n + 1):
            a, b = clustering.cut(ours, k), fcluster(theirs, k, "maxclust")
            assert len(set(a)) == k and len(set(zip(a, b))) == k        # the same partition, relabelled


def test_single_linkage_heights_are_the_minimum_spanning_tree():
    from scipy.sparse.csgraph import minimum_spanning_tree
    from scipy.spatial.distance import squareform, pdist

    rng = np.random.default_rng(6)
    for n in (2, 5, 40, 120):
        X = rng.standard_normal((n, 3))
        edges = clustering.minimum_spanning_tree(X)
        assert edges.sum() == pytest.approx(minimum_spanning_tree(squareform(pdist(X))).sum(), rel=1e-12)
        np.testing.assert_allclose(clustering.linkage(X, "single")[:, 2], edges, rtol=1e-12)


def test_cut_numbers_clusters_by_first_appearance():
    Z = np.array([[0, 3, 0.5, 2], [1, 2, 0.7, 2], [4, 5, 2.0, 4]])
    np.testing.assert_array_equal(clustering.cut(Z, 2), [0, 1, 1, 0])
    np.testing.assert_array_equal(clustering.cut(Z, 4), [0, 1, 2, 3])
    np.testing.assert_array_equal(clustering.cut(Z, 1), [0, 0, 0, 0])


# --------------------------------------------------------------------------- Gaussian mixtures

def _random_mixture(rng, k, d, scale=1.0):
    A = rng.standard_normal((k, d, d)) * scale
    return (rng.dirichlet(np.ones(k)), rng.standard_normal((k, d)) * 3 * scale,
            A @ np.transpose(A, (0, 2, 1)) + 0.2 * scale**2 * np.eye(d))


def test_gaussian_log_densities_equal_scipys():
    from scipy.stats import multivariate_normal

    rng = np.random.default_rng(7)
    for d, scale in ((1, 1e-2), (3, 1.0), (5, 1e2)):
        _, means, covs = _random_mixture(rng, 4, d, scale)
        X = rng.standard_normal((30, d)) * 3 * scale
        expected = np.column_stack([multivariate_normal(m, S).logpdf(X).reshape(-1) for m, S in zip(means, covs)])
        np.testing.assert_allclose(clustering.gaussian_log_densities(X, means, covs), expected, rtol=1e-9, atol=1e-9)


def test_e_step_in_log_space_equals_the_direct_formula_and_survives_underflow():
    from scipy.stats import multivariate_normal

    rng = np.random.default_rng(8)
    weights, means, covs = _random_mixture(rng, 3, 2)
    X = rng.standard_normal((40, 2)) * 3
    joint = np.column_stack([w * multivariate_normal(m, S).pdf(X) for w, m, S in zip(weights, means, covs)])
    resp, ll = clustering.e_step(X, weights, means, covs)
    np.testing.assert_allclose(resp, joint / joint.sum(axis=1, keepdims=True), rtol=1e-9)
    assert ll == pytest.approx(np.log(joint.sum(axis=1)).sum(), rel=1e-12)
    far = np.array([[1e3, -1e3]])
    direct = np.array([w * multivariate_normal(m, S).pdf(far[0]) for w, m, S in zip(weights, means, covs)])
    assert np.all(direct == 0)                                  # every density underflows: the direct ratio is 0/0
    resp_far, ll_far = clustering.e_step(far, weights, means, covs)
    assert np.isfinite(resp_far).all() and resp_far.sum() == pytest.approx(1.0) and np.isfinite(ll_far)


def test_m_step_equals_scikit_learns_estimates_and_a_loop():
    from sklearn.mixture._gaussian_mixture import _estimate_gaussian_parameters

    rng = np.random.default_rng(9)
    X = rng.standard_normal((80, 3)) * 5 + 2
    resp = rng.dirichlet(np.ones(4), size=80)
    weights, means, covs = clustering.m_step(X, resp, covariance_floor=1e-6)
    counts, their_means, their_covs = _estimate_gaussian_parameters(X, resp, 1e-6, "full")
    np.testing.assert_allclose(weights, counts / 80, rtol=1e-12)
    np.testing.assert_allclose(means, their_means, rtol=1e-12)
    np.testing.assert_allclose(covs, their_covs, rtol=1e-10)
    k = 2
    loop = sum(resp[i, k] * np.outer(X[i] - means[k], X[i] - means[k]) for i in range(80)) / resp[:, k].sum()
    np.testing.assert_allclose(clustering.m_step(X, resp, 0.0)[2][k], loop, rtol=1e-10)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(20, 300), d=st.integers(1, 3), k=st.integers(1, 5),
       log_scale=st.floats(-2, 2))
def test_em_never_decreases_the_log_likelihood(seed, n, d, k, log_scale):
    """Exact EM (no covariance floor: with one, the M-step is no longer the maximiser, and a component that
    collapsed onto the floor can lower the likelihood a little); runs that collapse are left out."""
    rng = np.random.default_rng(seed)
    X = _grouped(rng, n, d, k, 10**log_scale)
    try:
        fit = clustering.fit_gmm(X, k, seed=seed, tol=0.0, max_iter=30, covariance_floor=0.0)
    except ValueError as collapsed:
        assert "not positive definite" in str(collapsed)
        assume(False)
    ll = np.array(fit.log_likelihoods)
    assert np.all(np.diff(ll) >= -1e-9 * np.abs(ll).max())
    assert np.allclose(fit.resp.sum(axis=1), 1) and fit.weights.sum() == pytest.approx(1.0)


def test_fit_gmm_matches_scikit_learn_from_the_same_start():
    from sklearn.mixture import GaussianMixture

    rng = np.random.default_rng(10)
    for n, d, k, iterations in ((500, 2, 3, 25), (300, 4, 4, 10)):
        X = _grouped(rng, n, d, k)
        means0, weights0 = X[rng.choice(n, size=k, replace=False)], np.full(k, 1 / k)
        covs0 = np.repeat(np.cov(X.T, bias=True)[None], k, axis=0)
        ours = clustering.fit_gmm(X, k, means0, weights0, covs0, tol=0.0, max_iter=iterations)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")                      # it warns that tol = 0 never converged
            theirs = GaussianMixture(k, means_init=means0, weights_init=weights0, precisions_init=np.linalg.inv(covs0),
                                     tol=0, max_iter=iterations).fit(X)
        assert ours.n_iter == theirs.n_iter_ == iterations
        np.testing.assert_allclose(ours.weights, theirs.weights_, rtol=1e-7, atol=1e-10)
        np.testing.assert_allclose(ours.means, theirs.means_, rtol=1e-7, atol=1e-9)
        np.testing.assert_allclose(ours.covariances, theirs.covariances_, rtol=1e-7, atol=1e-9)
        assert ours.log_likelihoods[-1] / n == pytest.approx(theirs.lower_bound_, rel=1e-6)


def test_fit_gmm_stops_when_scikit_learn_stops():
    """tol > 0: the same number of iterations and the same verdict as GaussianMixture (abs of the change of
    the mean log-likelihood below tol), and the same parameters."""
    from sklearn.mixture import GaussianMixture

    rng = np.random.default_rng(13)
    for n, d, k, tol in ((400, 2, 3, 1e-3), (300, 3, 2, 1e-5), (200, 1, 4, 1e-2)):
        X = _grouped(rng, n, d, k)
        means0, weights0 = X[rng.choice(n, size=k, replace=False)], rng.dirichlet(np.ones(k))
        covs0 = np.repeat(np.cov(X.T, bias=True).reshape(1, d, d), k, axis=0) * rng.uniform(0.5, 2, (k, 1, 1))
        ours = clustering.fit_gmm(X, k, means0, weights0, covs0, tol=tol, max_iter=500)
        theirs = GaussianMixture(k, means_init=means0, weights_init=weights0, precisions_init=np.linalg.inv(covs0),
                                 tol=tol, max_iter=500).fit(X)
        assert ours.converged and theirs.converged_ and ours.n_iter == theirs.n_iter_
        np.testing.assert_allclose(ours.means, theirs.means_, rtol=1e-7, atol=1e-9)
        np.testing.assert_allclose(ours.covariances, theirs.covariances_, rtol=1e-7, atol=1e-9)


def test_the_floor_keeps_a_collapsing_component_finite():
    """One component on a single point with a vanishing covariance: without a floor its Cholesky factor fails
    (the covariance is 0); with the floor the likelihood stays finite and EM runs on."""
    X = np.vstack([[[5.0, 5.0]], np.random.default_rng(11).standard_normal((50, 2))])
    resp = np.zeros((51, 2))
    resp[0, 0] = 1.0
    resp[1:, 1] = 1.0
    weights, means, covs = clustering.m_step(X, resp, covariance_floor=0.0)
    assert np.allclose(covs[0], 0)
    with pytest.raises(ValueError, match="covariance 0 is not positive definite"):
        clustering.e_step(X, weights, means, covs)
    weights, means, covs = clustering.m_step(X, resp, covariance_floor=1e-6)
    _, ll = clustering.e_step(X, weights, means, covs)
    assert np.isfinite(ll)
    fit = clustering.fit_gmm(X, 2, means, weights, covs, max_iter=5)
    assert np.isfinite(fit.log_likelihoods).all()


# --------------------------------------------------------------------------- choosing K and judging a clustering

def test_parameter_count_and_bic_equal_scikit_learns_at_its_fitted_parameters():
    """Our BIC at scikit-learn's fitted mixture is its ``GaussianMixture.bic`` (same count p, same value), and our
    EM from scikit-learn's start ends at the same BIC."""
    from sklearn.mixture import GaussianMixture

    rng = np.random.default_rng(21)
    for n, d, k, scale in ((400, 2, 3, 1e-2), (250, 4, 2, 1.0), (150, 1, 5, 1e3), (300, 3, 1, 1.0)):
        X = _grouped(rng, n, d, max(k, 2), scale)
        theirs = GaussianMixture(k, random_state=0).fit(X)
        assert clustering.mixture_parameter_count(k, d) == theirs._n_parameters()
        assert clustering.mixture_parameter_count(k, d) == (k - 1) + k * d + k * d * (d + 1) // 2
        ours_at_theirs = clustering.bic(X, theirs.weights_, theirs.means_, theirs.covariances_)
        assert ours_at_theirs == pytest.approx(theirs.bic(X), rel=1e-9)
        means0 = X[rng.choice(n, size=k, replace=False)]
        covs0 = np.repeat(np.cov(X.T, bias=True).reshape(1, d, d), k, axis=0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = GaussianMixture(k, means_init=means0, precisions_init=np.linalg.inv(covs0), weights_init=np.full(k, 1 / k),
                                     tol=0, max_iter=20).fit(X)
        ours = clustering.fit_gmm(X, k, means0, np.full(k, 1 / k), covs0, tol=0.0, max_iter=20)
        assert clustering.bic(X, ours.weights, ours.means, ours.covariances) == pytest.approx(theirs.bic(X), rel=1e-7)


def test_bic_is_minus_twice_the_log_likelihood_plus_the_penalty():
    rng = np.random.default_rng(22)
    weights, means, covs = _random_mixture(rng, 3, 2)
    X = rng.standard_normal((50, 2)) * 3
    p = 2 + 3 * 2 + 3 * 3                                          # 2 weights, 3 means of 2, 3 covariances of 3 entries
    expected = -2 * clustering.mixture_log_likelihood(X, weights, means, covs) + p * np.log(50)
    assert clustering.bic(X, weights, means, covs) == pytest.approx(expected, rel=1e-12)
    assert [clustering.mixture_parameter_count(1, d) for d in (1, 2, 3)] == [2, 5, 9]   # a Gaussian: d + d(d+1)/2


def _labellings(rng, n, k):
    """A labelling of n points into (at most) k clusters, named by arbitrary integers (negative ones too)."""
    names = rng.choice(np.arange(-50, 50), size=k, replace=False)
    return names[rng.integers(0, k, n)]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 200), k=st.integers(2, 8), d=st.integers(1, 4),
       log_scale=st.floats(-3, 3))
def test_silhouette_equals_scikit_learns(seed, n, k, d, log_scale):
    from sklearn.metrics import silhouette_samples, silhouette_score

    rng = np.random.default_rng(seed)
    X = _grouped(rng, n, d, k, 10**log_scale)
    labels = _labellings(rng, n, k)
    if rng.random() < 0.3:
        labels[rng.integers(n)] = 99                               # a singleton cluster: s = 0 there
    assume(2 <= len(np.unique(labels)) <= n - 1)
    np.testing.assert_allclose(clustering.silhouette_samples(X, labels), silhouette_samples(X, labels), rtol=1e-7, atol=1e-9)
    assert clustering.silhouette_score(X, labels) == pytest.approx(silhouette_score(X, labels), rel=1e-7, abs=1e-9)


def test_silhouette_leaves_the_point_out_of_its_own_mean_and_gives_singletons_zero():
    """Against a loop over the points, with the definitions written out; duplicate points; a singleton."""
    rng = np.random.default_rng(23)
    X = np.vstack([rng.standard_normal((12, 2)), rng.standard_normal((9, 2)) + 4, [[10.0, 10.0]], [[0.5, 0.5]], [[0.5, 0.5]]])
    labels = np.r_[np.zeros(12, int), np.ones(9, int), [7], [0, 0]]
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(axis=2))
    expected = []
    for i in range(len(X)):
        own = (labels == labels[i]) & (np.arange(len(X)) != i)
        if not own.any():
            expected.append(0.0)
            continue
        a = D[i, own].mean()
        b = min(D[i, labels == c].mean() for c in set(labels) - {labels[i]})
        expected.append((b - a) / max(a, b))
    np.testing.assert_allclose(clustering.silhouette_samples(X, labels), expected, rtol=1e-9, atol=1e-12)
    assert clustering.silhouette_samples(X, labels)[21] == 0.0
    same = np.zeros((4, 2))                                        # a = b = 0: 0, not 0/0
    np.testing.assert_array_equal(clustering.silhouette_samples(same, [0, 0, 1, 1]), 0.0)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 300), ka=st.integers(1, 12), kb=st.integers(1, 12),
       related=st.booleans())
def test_adjusted_rand_index_rand_index_and_table_equal_scikit_learns(seed, n, ka, kb, related):
    from sklearn.metrics import adjusted_rand_score, rand_score
    from sklearn.metrics.cluster import contingency_matrix

    rng = np.random.default_rng(seed)
    a = _labellings(rng, n, ka)
    b = _labellings(rng, n, kb)
    if related:                                                    # b a relabelled copy of a with a few points moved
        names = rng.choice(np.arange(100, 200), size=ka, replace=False)
        b = names[np.unique(a, return_inverse=True)[1].reshape(-1)]
        moved = rng.random(n) < rng.uniform(0, 0.3)
        b[moved] = rng.choice(names, size=moved.sum())
    assert clustering.adjusted_rand_index(a, b) == pytest.approx(adjusted_rand_score(a, b), rel=1e-9, abs=1e-12)
    np.testing.assert_array_equal(clustering.contingency_table(a, b), contingency_matrix(a, b))
    if n >= 2:
        assert clustering.rand_index(a, b) == pytest.approx(rand_score(a, b), rel=1e-12)


def test_rand_indices_against_a_count_over_all_pairs():
    rng = np.random.default_rng(24)
    for n in (2, 3, 17, 60):
        a, b = rng.integers(0, 3, n), rng.integers(0, 4, n)
        together_a, together_b = [], []
        for i in range(n):
            for j in range(i + 1, n):
                together_a.append(a[i] == a[j])
                together_b.append(b[i] == b[j])
        together_a, together_b = np.array(together_a), np.array(together_b)
        N = n * (n - 1) // 2
        T, A, B = np.sum(together_a & together_b), together_a.sum(), together_b.sum()
        assert clustering.rand_index(a, b) == pytest.approx(np.mean(together_a == together_b), rel=1e-12)
        if N * (A + B) != 2 * A * B:
            expected = (T - A * B / N) / ((A + B) / 2 - A * B / N)
            assert clustering.adjusted_rand_index(a, b) == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert clustering.adjusted_rand_index([3, 3, 1], [0, 0, 2]) == 1.0
    assert clustering.adjusted_rand_index([0, 0, 0], [1, 1, 1]) == 1.0          # both one cluster: 0/0, agree on every pair
    assert clustering.adjusted_rand_index([0, 1, 2], [0, 1, 2]) == 1.0          # both all singletons
    assert clustering.adjusted_rand_index([0, 0, 0, 0], [0, 1, 2, 3]) == 0.0
    assert clustering.adjusted_rand_index(["x", "x", "y"], [1, 1, 2]) == 1.0


def test_the_adjusted_rand_index_has_mean_zero_over_all_permutations():
    """The permutation model, exhaustively: over all n! orders of b's labels, the mean of T is A B / N, so the
    mean adjusted index is 0 (the mean Rand index is not)."""
    from itertools import permutations

    a, b = np.array([0, 0, 0, 1, 1, 2, 2]), np.array([0, 0, 1, 1, 1, 1, 2])
    values = [clustering.adjusted_rand_index(a, b[list(order)]) for order in permutations(range(7))]
    assert np.mean(values) == pytest.approx(0.0, abs=1e-12)
    rand = [clustering.rand_index(a, b[list(order)]) for order in permutations(range(7))]
    assert np.mean(rand) > 0.4


@pytest.mark.parametrize("call, error, pattern", [
    (lambda: clustering.assign(np.zeros((3, 2)), np.zeros((2, 3))), ValueError, "centres must have d = 2 columns"),
    (lambda: clustering.random_init(np.zeros((3, 2)), 4), ValueError, "k = 4 clusters need at least 4 points"),
    (lambda: clustering.kmeans_plus_plus(np.zeros((3, 2)), 0), ValueError, "k must be at least 1"),
    (lambda: clustering.kmeans(np.zeros((3, 2)), 2, init="far"), ValueError, "init must be one of"),
    (lambda: clustering.linkage(np.zeros((3, 2)), "ward"), ValueError, "method must be one of"),
    (lambda: clustering.linkage(np.zeros((1, 2)), "single"), ValueError, "at least 2 points"),
    (lambda: clustering.cut(np.zeros((3, 4)), 5), ValueError, "at most the number of points, 4"),
    (lambda: clustering.update_centres(np.zeros((3, 2)), np.array([0, 1, 2]), 2), ValueError, "labels must lie in 0..1"),
    (lambda: clustering.e_step(np.zeros((3, 2)), [0.5, 0.6], np.zeros((2, 2)), np.repeat(np.eye(2)[None], 2, 0)), ValueError,
     "weights must be 2 non-negative numbers summing to 1"),
    (lambda: clustering.e_step(np.zeros((3, 2)), [1.0], np.zeros((1, 2)), np.eye(2)), ValueError, "covariances must have shape"),
    (lambda: clustering.e_step(np.zeros((3, 2)), [1.0], np.zeros((1, 2)), -np.eye(2)[None]), ValueError, "not positive definite"),
    (lambda: clustering.m_step(np.zeros((3, 2)), np.full((3, 2), 0.7)), ValueError, "rows summing to 1"),
    (lambda: clustering.fit_gmm(np.zeros((3, 2)), 2, covariance_floor=-1.0), ValueError, "covariance_floor must be a finite number >= 0"),
    (lambda: clustering.mixture_parameter_count(0, 2), ValueError, "k must be at least 1"),
    (lambda: clustering.bic(np.zeros((3, 2)), [1.0], np.zeros((1, 3)), np.eye(3)[None]), ValueError, "centres must have d = 2"),
    (lambda: clustering.silhouette_samples(np.zeros((3, 2)), [0, 0, 0]), ValueError, "2 <= K <= n - 1 = 2 clusters; labels name 1"),
    (lambda: clustering.silhouette_samples(np.zeros((3, 2)), [0, 1, 2]), ValueError, "2 <= K <= n - 1"),
    (lambda: clustering.silhouette_samples(np.zeros((3, 2)), [0, 1]), ValueError, r"labels must have shape \(3,\)"),
    (lambda: clustering.silhouette_score(np.zeros((3, 2)), [0.5, 1.0, 1.0]), TypeError, "labels must hold integer"),
    (lambda: clustering.adjusted_rand_index([0, 1, 1], [0, 1]), ValueError, r"labels_b must have shape \(3,\)"),
    (lambda: clustering.adjusted_rand_index([[0, 1]], [[0, 1]]), ValueError, "labels_a must be a 1-d array"),
    (lambda: clustering.rand_index([0], [1]), ValueError, "at least 2 points"),
])
def test_bad_input_is_named(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()
