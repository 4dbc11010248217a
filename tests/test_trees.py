"""Tests of ``mlcourse.trees`` (lecture 05): impurities against ``scipy.stats.entropy`` and their formulas,
best splits against brute force, whole trees against scikit-learn's ``DecisionTreeClassifier``."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import entropy as scipy_entropy
from sklearn.tree import DecisionTreeClassifier

from mlcourse import data, trees

PROPERTY = settings(max_examples=80, deadline=None)


def test_docstring_examples_run():
    result = doctest.testmod(trees)
    assert result.attempted >= 4 and result.failed == 0


def test_impurities_by_hand_and_against_scipy():
    rng = np.random.default_rng(1)
    for _ in range(50):
        c = rng.integers(0, 20, size=int(rng.integers(2, 6))).astype(float)
        c[0] += 1
        p = c / c.sum()
        assert trees.impurity(c, "entropy") == pytest.approx(scipy_entropy(p, base=2))
        assert trees.impurity(c, "gini") == pytest.approx(1 - (p**2).sum())
        assert trees.impurity(c, "error") == pytest.approx(1 - p.max())
    assert trees.impurity(np.zeros(3), "gini") == 0.0
    np.testing.assert_allclose(trees.impurity([[5, 0], [1, 1], [0, 0]], "entropy"), [0, 1, 0])


@PROPERTY
@given(st.lists(st.integers(0, 50), min_size=2, max_size=5), st.lists(st.integers(0, 50), min_size=2, max_size=5))
def test_gain_is_never_negative_and_extremes_are_right(left, right):
    K = max(len(left), len(right))
    L, R = np.pad(left, (0, K - len(left))), np.pad(right, (0, K - len(right)))
    if L.sum() == 0 or R.sum() == 0:
        return
    for crit in trees.CRITERIA:
        u = trees.impurity(np.stack([L + R, L, R]), crit)
        assert u[0] - (L.sum() * u[1] + R.sum() * u[2]) / (L + R).sum() >= -1e-12
    assert trees.impurity(np.ones(K), "entropy") == pytest.approx(np.log2(K))
    assert trees.impurity(np.ones(K), "gini") == pytest.approx(1 - 1 / K)


def brute_best(x, y, crit, min_leaf=1):
    best = None
    values = np.unique(x)
    for t in (values[1:] + values[:-1]) / 2:
        left = x <= t
        if min(left.sum(), (~left).sum()) < min_leaf:
            continue
        g = trees.information_gain(y, left, crit)
        if best is None or g > best[1] + 1e-12:
            best = (t, g)
    return best


@pytest.mark.parametrize("crit", trees.CRITERIA)
def test_best_threshold_equals_brute_force(crit):
    rng = np.random.default_rng(2)
    for trial in range(60):
        n = int(rng.integers(2, 50))
        x = rng.integers(0, 10, size=n) * 10 ** rng.uniform(-2, 2)
        y = rng.integers(0, 3, size=n)
        min_leaf = 1 + trial % 3
        want, got = brute_best(x, y, crit, min_leaf), trees.best_threshold(x, y, crit, min_samples_leaf=min_leaf)
        if want is None:
            assert got is None
        else:
            assert got.gain == pytest.approx(want[1], abs=1e-12) and got.threshold == pytest.approx(want[0])


def test_best_split_takes_the_best_feature():
    rng = np.random.default_rng(3)
    for _ in range(30):
        X = rng.normal(size=(40, 4))
        y = (X[:, int(rng.integers(4))] + 0.5 * rng.normal(size=40) > 0).astype(int)
        per_feature = [trees.best_threshold(X[:, j], y, "gini") for j in range(4)]
        j = int(np.argmax([s.gain for s in per_feature]))
        got = trees.best_split(X, y, "gini")
        assert (got.feature, got.threshold) == (j, per_feature[j].threshold)


def float32_data(rng, n, d, K):
    X = rng.normal(size=(n, d)).astype(np.float32).astype(np.float64)
    y = (np.argmax(X[:, :K] + rng.normal(size=(n, K)), axis=1)) if K <= d else rng.integers(0, K, size=n)
    return X, y


def same_as_sklearn(ours, theirs, X, y, crit):
    """Walk both trees from the root: the same counts at every node, the same split wherever the best
    split is unique; where two splits tie in gain (scikit-learn breaks ties by a random order of the
    features), both must be best and the subtrees below are not compared. Returns the nodes compared."""
    t, compared = theirs.tree_, 0
    stack = [(0, 0, np.arange(len(y)))]
    while stack:
        a, b, rows = stack.pop()
        compared += 1
        assert np.array_equal(ours.counts[a], np.round(t.value[b][0] * t.n_node_samples[b]))
        if (ours.left[a] < 0) != (t.children_left[b] < 0):
            raise AssertionError(f"node {a}: a leaf in one tree only")
        if ours.left[a] < 0:
            continue
        if ours.feature[a] != t.feature[b] or not np.isclose(ours.threshold[a], t.threshold[b], rtol=1e-6):
            gain = lambda j, th: trees.information_gain(y[rows], X[rows, j] <= th, crit)
            assert gain(ours.feature[a], ours.threshold[a]) == pytest.approx(gain(t.feature[b], t.threshold[b]), abs=1e-9)
            continue
        left = X[rows, ours.feature[a]] <= ours.threshold[a]
        stack += [(ours.left[a], t.children_left[b], rows[left]), (ours.right[a], t.children_right[b], rows[~left])]
    return compared


@pytest.mark.parametrize("crit", ["gini", "entropy"])
@pytest.mark.parametrize("kwargs", [{}, dict(max_depth=3), dict(min_samples_leaf=5), dict(min_samples_split=20),
                                    dict(min_impurity_decrease=0.01)])
def test_fit_tree_matches_scikit_learn_split_for_split(crit, kwargs):
    rng = np.random.default_rng(4)
    for _ in range(3):
        X, y = float32_data(rng, 200, 4, 3)
        ours = trees.fit_tree(X, y, criterion=crit, **kwargs)
        theirs = DecisionTreeClassifier(criterion=crit, random_state=0, **kwargs).fit(X, y)
        assert same_as_sklearn(ours, theirs, X, y, crit) >= min(ours.n_nodes, 5)


def test_fit_tree_matches_scikit_learn_on_breast_cancer():
    cancer = data.load_breast_cancer()
    X = cancer.X.astype(np.float32).astype(np.float64)
    ours = trees.fit_tree(X, cancer.y, criterion="gini", max_depth=3)
    theirs = DecisionTreeClassifier(criterion="gini", max_depth=3, random_state=0).fit(X, cancer.y)
    # the first two levels (7 nodes) agree; one node below has two equally good splits
    assert same_as_sklearn(ours, theirs, X, cancer.y, "gini") >= 7
    assert trees.tree_error(ours, X, cancer.y) == pytest.approx(1 - theirs.score(X, cancer.y))


def grow_node_by_node(X, y, criterion, max_depth, min_samples_split, min_samples_leaf, decrease):
    """The greedy tree the plain way, recursion and trees.best_split (tested against brute force):
    (feature, threshold, counts, depth) of every node in depth-first order."""
    classes = np.unique(y)
    nodes = []

    def grow(rows, depth):
        counts = np.array([np.sum(y[rows] == c) for c in classes])
        nodes.append([-1, np.nan, counts, depth])
        if (np.count_nonzero(counts) <= 1 or (max_depth is not None and depth >= max_depth)
                or len(rows) < max(min_samples_split, 2 * min_samples_leaf)):
            return
        split = trees.best_split(X[rows], y[rows], criterion, min_samples_leaf)
        if split is None or split.gain <= 1e-12 or len(rows) / len(y) * split.gain < decrease:
            return
        nodes[-1][:2] = [split.feature, split.threshold]
        goes_left = X[rows, split.feature] <= split.threshold
        grow(rows[goes_left], depth + 1)
        grow(rows[~goes_left], depth + 1)

    grow(np.arange(len(y)), 0)
    return nodes


def test_fit_tree_grown_level_by_level_equals_the_tree_grown_node_by_node():
    rng = np.random.default_rng(8)
    for t in range(150):
        n, d = int(rng.integers(1, 90)), int(rng.integers(1, 5))
        X = rng.integers(0, 5, size=(n, d)).astype(float) if t % 2 else rng.normal(size=(n, d))
        y = rng.integers(0, int(rng.integers(1, 4)), size=n)
        args = (["gini", "entropy", "error"][t % 3], [None, 1, 3][t % 3 - 1 if t % 7 else 0],
                int(rng.integers(2, 6)), int(rng.integers(1, 4)), [0.0, 0.02][t % 2])
        tree = trees.fit_tree(X, y, *args)
        expected = grow_node_by_node(X, y, *args)
        assert tree.n_nodes == len(expected)
        for node, (feature, threshold, counts, depth) in enumerate(expected):
            assert (tree.feature[node], tree.depth[node]) == (feature, depth)
            np.testing.assert_array_equal(tree.counts[node], counts)
            np.testing.assert_array_equal(tree.threshold[node], threshold)   # nan == nan here
            if feature >= 0:   # depth first: the left child is the next node
                assert tree.left[node] == node + 1


def test_a_full_tree_fits_its_training_data_and_ties_go_to_the_larger_label():
    rng = np.random.default_rng(5)
    X, y = rng.normal(size=(300, 3)), rng.integers(0, 3, size=300)
    tree = trees.fit_tree(X, y)
    assert trees.tree_error(tree, X, y) == 0.0
    stump = trees.fit_tree(np.array([[0.0], [0.0], [1.0], [1.0]]), np.array([2, 5, 2, 5]))
    assert stump.n_leaves == 1
    np.testing.assert_array_equal(trees.predict_tree(stump, np.array([[0.5]])), [5])
    text = trees.tree_text(trees.fit_tree(X[:20], y[:20], max_depth=1), feature_names=["a", "b", "c"])
    assert "<=" in text and "class" in text


def test_a_tree_cut_at_a_depth_predicts_like_a_tree_grown_to_that_depth():
    rng = np.random.default_rng(6)
    X, y = rng.normal(size=(300, 4)), rng.integers(0, 3, size=300)
    full = trees.fit_tree(X, y, criterion="entropy", min_samples_leaf=2)
    Q = rng.normal(size=(200, 4))
    for depth in range(1, full.max_depth + 2):
        limited = trees.fit_tree(X, y, criterion="entropy", min_samples_leaf=2, max_depth=depth)
        np.testing.assert_array_equal(trees.predict_tree(full, Q, max_depth=depth), trees.predict_tree(limited, Q))


@pytest.mark.parametrize("call, pattern", [
    (lambda: trees.impurity([1, 2], "misclassification"), r"criterion must be one of"),
    (lambda: trees.impurity([-1, 2]), r"counts >= 0"),
    (lambda: trees.information_gain([0, 1], np.array([1, 0])), r"left must be a boolean mask"),
    (lambda: trees.fit_tree(np.zeros((3, 2)), [0, 1]), r"y has shape \(2,\), expected \(3,\)"),
    (lambda: trees.fit_tree(np.zeros((3, 2)), [0, 1, 1], max_depth=0), r"max_depth must be at least 1"),
    (lambda: trees.predict_tree(trees.fit_tree(np.eye(3)[::-1], [0, 1, 1]), np.zeros((2, 1))), r"X has 1 features"),
])
def test_bad_input_is_named(call, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        call()
