"""Tests of ``mlcourse.neighbours`` (lecture 05): distances against SciPy's ``cdist``, k-NN against brute
force and scikit-learn's ``KNeighborsClassifier``, the k-d tree against brute force and ``KDTree``."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.distance import cdist
from sklearn.neighbors import KDTree as SkKDTree
from sklearn.neighbors import KNeighborsClassifier

from mlcourse import neighbours

PROPERTY = settings(max_examples=60, deadline=None)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def test_docstring_examples_run():
    result = doctest.testmod(neighbours)
    assert result.attempted >= 5 and result.failed == 0


@pytest.mark.parametrize("p", [1, 2, 3, 0.5, np.inf])
def test_minkowski_distances_equal_cdist_across_scales(p):
    rng = np.random.default_rng(1)
    for _ in range(20):
        d = int(rng.integers(1, 8))
        scale = 10 ** rng.uniform(-3, 3)
        A, B = rng.normal(size=(7, d)) * scale, rng.normal(size=(5, d)) * scale
        if np.isinf(p):
            want = cdist(A, B, "chebyshev")
        elif p < 1:
            want = (np.abs(A[:, None] - B[None]) ** p).sum(2) ** (1 / p)
        else:
            want = cdist(A, B, "minkowski", p=p)
        np.testing.assert_allclose(neighbours.minkowski_distances(A, B, p), want, rtol=1e-9, atol=1e-12 * scale)


def test_squared_distances_keep_their_digits_far_from_the_origin():
    rng = np.random.default_rng(2)
    A = 1e8 + rng.normal(size=(30, 4))
    B = 1e8 + rng.normal(size=(20, 4))
    want = cdist(A - 1e8, B - 1e8, "sqeuclidean")  # exact differences, computed near the origin
    ours = neighbours.squared_distances(A, B)
    naive = (A**2).sum(1)[:, None] - 2 * A @ B.T + (B**2).sum(1)[None]
    assert np.max(np.abs(ours - want) / want.max()) < 1e-6
    assert np.max(np.abs(naive - want) / want.max()) > 1e-2  # what the short formula alone loses


def test_squared_distances_of_identical_rows_are_zero_and_never_negative():
    rng = np.random.default_rng(3)
    A = rng.normal(size=(50, 6)) * 1e3 + 17
    D = neighbours.squared_distances(A, A)
    assert D.min() >= 0
    assert np.all(np.diag(D) <= 1e-9 * D.max())


def test_cosine_similarity_equals_one_minus_cdist_cosine_and_rejects_zero_rows():
    rng = np.random.default_rng(4)
    A, B = rng.normal(size=(6, 3)), rng.normal(size=(4, 3)) * 100
    np.testing.assert_allclose(neighbours.cosine_similarity(A, B), 1 - cdist(A, B, "cosine"), atol=1e-12)
    with pytest.raises(ValueError, match=r"B has a zero row \(row 1\)"):
        neighbours.cosine_similarity(A, np.array([[1.0, 0, 0], [0, 0, 0]]))


@PROPERTY
@given(seeds, st.sampled_from([1.0, 1.5, 2.0, 3.0, np.inf]))
def test_triangle_inequality_for_p_at_least_one(seed, p):
    rng = np.random.default_rng(seed)
    X, Z, V = rng.normal(size=(3, 50, 4)) * 10 ** rng.uniform(-3, 3, size=(1, 50, 1))
    dist = lambda a, b: neighbours.minkowski_distances(a, b, p).diagonal()
    assert np.all(dist(X, V) <= (dist(X, Z) + dist(Z, V)) * (1 + 1e-12))


def test_triangle_inequality_fails_for_p_one_half():
    x, z, v = np.array([[0.0, 0.0]]), np.array([[1.0, 0.0]]), np.array([[1.0, 1.0]])
    dist = lambda a, b: neighbours.minkowski_distances(a, b, 0.5)[0, 0]
    assert dist(x, v) == pytest.approx(4.0) and dist(x, z) + dist(z, v) == pytest.approx(2.0)


def test_nearest_neighbours_equal_a_stable_argsort_with_many_ties():
    rng = np.random.default_rng(5)
    for _ in range(40):
        n, d = int(rng.integers(1, 40)), int(rng.integers(1, 3))
        X = rng.integers(-2, 3, size=(n, d)).astype(float)
        Q = rng.integers(-2, 3, size=(15, d)).astype(float)
        k = int(rng.integers(1, n + 1))
        D = ((Q[:, None] - X[None]) ** 2).sum(2)
        np.testing.assert_array_equal(neighbours.nearest_neighbours(X, Q, k),
                                      np.argsort(D, axis=1, kind="stable")[:, :k])
        np.testing.assert_array_equal(np.sort(neighbours.nearest_neighbours(X, Q, k, ordered=False), axis=1),
                                      np.sort(np.argsort(D, axis=1, kind="stable")[:, :k], axis=1))


@pytest.mark.parametrize("layout", ["grid", "grid sorted", "continuous"])
def test_nearest_neighbours_equal_a_stable_argsort_in_blocks_and_past_the_sampled_bound(layout, monkeypatch):
    # n >= 4 * _SAMPLE takes the sampled-bound path; tiny blocks split the queries unevenly; training
    # data sorted on a coordinate make the sampled columns unrepresentative of a query's neighbours
    rng = np.random.default_rng(11)
    monkeypatch.setattr(neighbours, "_BLOCK_ENTRIES", 7 * 1500)
    for _ in range(5):
        n, d = int(rng.integers(4 * neighbours._SAMPLE, 3000)), int(rng.integers(1, 4))
        X = rng.integers(-3, 4, size=(n, d)).astype(float)
        Q = rng.integers(-3, 4, size=(30, d)).astype(float)
        if layout == "grid sorted":
            X = X[np.argsort(X[:, 0], kind="stable")]
        if layout == "continuous":
            X, Q = X + rng.normal(size=X.shape), Q + rng.normal(size=Q.shape)
        D = ((Q[:, None] - X[None]) ** 2).sum(2)
        for k in (1, 7, int(rng.integers(8, 300))):
            np.testing.assert_array_equal(neighbours.nearest_neighbours(X, Q, k),
                                          np.argsort(D, axis=1, kind="stable")[:, :k])
            np.testing.assert_array_equal(np.sort(neighbours.nearest_neighbours(X, Q, k, ordered=False), axis=1),
                                          np.sort(np.argsort(D, axis=1, kind="stable")[:, :k], axis=1))


def brute_knn(X, y, Q, k):
    out = []
    for q in Q:
        order = sorted(range(len(X)), key=lambda i: (((X[i] - q) ** 2).sum(), i))[:k]
        labels, votes = np.unique(y[order], return_counts=True)
        out.append(labels[votes == votes.max()].max())
    return np.array(out)


def test_knn_predict_follows_the_tie_rules_like_a_plain_loop():
    rng = np.random.default_rng(6)
    for trial in range(40):
        n = int(rng.integers(2, 30))
        X = rng.integers(-2, 3, size=(n, 2)).astype(float)
        y = rng.choice([[0, 1], [-1, 1], [0, 1, 2], [3, 8]][trial % 4], size=n)
        Q = rng.integers(-2, 3, size=(10, 2)).astype(float)
        k = int(rng.integers(1, n + 1))
        np.testing.assert_array_equal(neighbours.knn_predict(X, y, Q, k), brute_knn(X, y, Q, k))


@pytest.mark.parametrize("k, p", [(1, 2), (5, 2), (7, 1), (3, np.inf)])
def test_knn_predict_equals_scikit_learn_without_ties(k, p):
    rng = np.random.default_rng(7)
    X, Q = rng.normal(size=(300, 3)), rng.normal(size=(200, 3))
    y = np.where(X[:, 0] + rng.normal(size=300) > 0, 1, 0)
    theirs = KNeighborsClassifier(n_neighbors=k, p=p, algorithm="brute").fit(X, y).predict(Q)
    np.testing.assert_array_equal(neighbours.knn_predict(X, y, Q, k=k, p=p), theirs)
    assert neighbours.knn_error(X, y, X, y, k=1) == 0.0


def test_standardise_uses_the_training_statistics():
    rng = np.random.default_rng(8)
    A, B = rng.normal(size=(40, 3)) * [1, 100, 0.01], rng.normal(size=(10, 3))
    A[:, 2] = 5.0
    Z_a, Z_b = neighbours.standardise(A, B)
    np.testing.assert_allclose(Z_a[:, :2].mean(0), 0, atol=1e-12)
    np.testing.assert_allclose(Z_a[:, :2].std(0), 1)
    np.testing.assert_allclose(Z_a[:, 2], 0)
    np.testing.assert_allclose(Z_b[:, :2], (B[:, :2] - A[:, :2].mean(0)) / A[:, :2].std(0))


def check_tree_invariants(tree):
    assert sorted(tree.order) == list(range(len(tree.points)))
    for node in range(len(tree.left)):
        idx = tree.order[tree.start[node]:tree.stop[node]]
        if tree.left[node] < 0:
            assert len(idx) <= tree.leaf_size or np.all(tree.points[idx] == tree.points[idx[0]])
            continue
        j, t = tree.split_dim[node], tree.split_value[node]
        left = tree.order[tree.start[tree.left[node]]:tree.stop[tree.left[node]]]
        right = tree.order[tree.start[tree.right[node]]:tree.stop[tree.right[node]]]
        assert np.all(tree.points[left, j] <= t) and np.all(tree.points[right, j] >= t)
        assert len(left) + len(right) == len(idx)


def test_kd_tree_exact_search_equals_brute_force_and_scikit_learn():
    rng = np.random.default_rng(9)
    for trial in range(40):
        n, d = int(rng.integers(1, 400)), int(rng.integers(1, 11))
        P = rng.normal(size=(n, d)) * 10 ** rng.uniform(-3, 3)
        if trial % 3 == 0:
            P[rng.integers(n, size=n // 2)] = P[rng.integers(n, size=n // 2)]
        tree = neighbours.build_kd_tree(P, leaf_size=int(rng.integers(1, 21)))
        check_tree_invariants(tree)
        Q = rng.normal(size=(20, d)) * P.std() + (P[:20] if n >= 20 and trial % 2 else 0)
        idx, dist, counts = neighbours.kd_query(tree, Q)
        np.testing.assert_array_equal(idx, neighbours.nearest_neighbours(P, Q, 1)[:, 0])
        theirs = SkKDTree(P).query(Q, k=1)[0][:, 0]
        np.testing.assert_allclose(dist, theirs, rtol=1e-9, atol=1e-300)
        assert np.all(counts <= n)


def test_kd_tree_saves_distances_in_low_dimension_and_descending_only_can_miss():
    rng = np.random.default_rng(10)
    P = rng.uniform(size=(2000, 2))
    tree = neighbours.build_kd_tree(P, leaf_size=4)
    Q = rng.uniform(size=(200, 2))
    idx, _, counts = neighbours.kd_query(tree, Q)
    assert counts.mean() < 0.05 * len(P)
    quick = neighbours.kd_query(tree, Q, exact=False)[0]
    assert np.any(quick != idx)
    X = np.array([[0.0, 0.0], [0.2, 1.0], [0.4, 0.0], [1.0, 0.0]])  # written answer B's example
    small = neighbours.build_kd_tree(X, leaf_size=2)
    assert neighbours.kd_descend(small, [0.28, 0.0]).index == 0
    assert neighbours.kd_nearest(small, [0.28, 0.0]).index == 2


def test_one_nn_limit_equals_brute_force_and_its_bounds():
    # the limit as the probability that two independent labels at the same value differ, pair by pair
    rng = np.random.default_rng(11)
    for _ in range(200):
        m, K = int(rng.integers(1, 12)), int(rng.integers(1, 9))
        w = rng.dirichlet(np.full(m, 10 ** rng.uniform(-1, 1)))
        eta = rng.dirichlet(np.full(K, 10 ** rng.uniform(-1, 1)), size=m)
        differ = sum(w[v] * eta[v, a] * eta[v, b] for v in range(m) for a in range(K) for b in range(K) if a != b)
        got = neighbours.one_nn_limit(w, eta)
        assert got == pytest.approx(differ, rel=1e-9, abs=1e-12)
        r_star = float(w @ (1 - eta.max(axis=1)))
        assert r_star <= got * (1 + 1e-9) + 1e-12
        if K > 1:
            assert got <= r_star * (2 - K / (K - 1) * r_star) * (1 + 1e-9) + 1e-12


def test_one_nn_limit_is_where_scikit_learns_1nn_ends_up():
    # X uniform on [0, 1] cut into m pieces (the values, with probabilities their lengths), eta constant on
    # each: scikit-learn's 1-NN on 20 000 points, its exact error averaged over 20 000 test inputs
    rng = np.random.default_rng(12)
    for K in (2, 3, 5):
        m = 4
        breaks = np.r_[0, np.sort(rng.uniform(size=m - 1)), 1]
        eta = rng.dirichlet(np.full(K, 0.7), size=m)
        piece = lambda x: np.searchsorted(breaks, x, side="right") - 1
        x_train, x_test = rng.uniform(size=20_000), rng.uniform(size=20_000)
        u = rng.uniform(size=20_000)[:, None]
        y_train = np.minimum((u > np.cumsum(eta[piece(x_train)], axis=1)).sum(axis=1), K - 1)   # a label from each row
        pred = KNeighborsClassifier(n_neighbors=1).fit(x_train[:, None], y_train).predict(x_test[:, None])
        error = np.mean(1 - eta[piece(x_test), pred])
        assert error == pytest.approx(neighbours.one_nn_limit(np.diff(breaks), eta), abs=0.015)


@pytest.mark.parametrize("call, pattern", [
    (lambda: neighbours.squared_distances(np.zeros((2, 3)), np.zeros((2, 2))), r"A has shape \(2, 3\) and B has shape \(2, 2\)"),
    (lambda: neighbours.minkowski_distances(np.zeros((2, 2)), np.zeros((2, 2)), p=0), r"p must be > 0"),
    (lambda: neighbours.knn_predict(np.zeros((3, 2)), [0, 1], np.zeros((1, 2))), r"y_train has shape \(2,\)"),
    (lambda: neighbours.knn_predict(np.zeros((3, 2)), [0, 1, 1], np.zeros((1, 2)), k=4), r"k = 4 is larger"),
    (lambda: neighbours.knn_predict(np.zeros((3, 2)), [0.5, 1, 1], np.zeros((1, 2))), r"integer labels"),
    (lambda: neighbours.build_kd_tree(np.zeros((3, 2)), leaf_size=0), r"leaf_size must be at least 1"),
    (lambda: neighbours.kd_nearest(neighbours.build_kd_tree(np.zeros((3, 2))), [0.0]), r"query has shape \(1,\)"),
    (lambda: neighbours.one_nn_limit([0.5, 0.6], [[1, 0], [0, 1]]), r"w must add up to 1"),
    (lambda: neighbours.one_nn_limit([0.5, 0.5], [[1, 0], [0.5, 0.4]]), r"eta must add up to 1 in every row"),
    (lambda: neighbours.one_nn_limit([0.5, 0.5], [[1.0, 0.0]]), r"eta has shape \(1, 2\) and w has shape \(2,\)"),
    (lambda: neighbours.one_nn_limit([[1.0]], [[1.0]]), r"w must be a non-empty array of shape \(m,\)"),
    (lambda: neighbours.one_nn_limit([1.0], [[-0.5, 1.5]]), r"eta must hold probabilities"),
    (lambda: neighbours.one_nn_limit(["a"], [[1.0]]), r"w must be an array of probabilities"),
])
def test_bad_input_is_named(call, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        call()
