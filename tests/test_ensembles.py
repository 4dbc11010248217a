"""Lecture 13's library against independent oracles: scikit-learn (bagging and random forests in
accuracy; AdaBoost with stumps stump by stump), brute force and simulation."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sklearn.ensemble import AdaBoostClassifier, BaggingClassifier, RandomForestClassifier
from sklearn.tree import DecisionTreeClassifier

from mlcourse import data, ensembles as E, trees


def gaussians(n, seed, d=5, distance=1.5):
    """Two Gaussian classes, rounded to float32 (scikit-learn's trees work in float32)."""
    X, y = data.two_gaussians(n, seed, distance=distance, d=d)
    return X.astype(np.float32).astype(float), y


# --------------------------------------------------------------------------- correlated average


@pytest.mark.parametrize("B,rho", [(1, 0.3), (2, -1.0), (5, 0.0), (7, 0.6), (40, 1.0), (10, -1 / 9)])
def test_correlated_average_variance_is_the_quadratic_form(B, rho):
    sigma2 = 3.7
    cov = sigma2 * (rho * np.ones((B, B)) + (1 - rho) * np.eye(B))
    assert E.correlated_average_variance(sigma2, rho, B) == pytest.approx(np.ones(B) @ cov @ np.ones(B) / B ** 2)


def test_correlated_average_variance_by_simulation():
    rng = np.random.default_rng(0)
    sigma2, rho, B, M = 2.5, 0.35, 8, 200_000
    Z = np.sqrt(sigma2) * (np.sqrt(rho) * rng.standard_normal((M, 1)) + np.sqrt(1 - rho) * rng.standard_normal((M, B)))
    assert Z.mean(axis=1).var() == pytest.approx(E.correlated_average_variance(sigma2, rho, B), rel=0.02)


@pytest.mark.parametrize("args,name", [((-1.0, 0.5, 3), "sigma2"), ((1.0, 1.5, 3), "rho"), ((1.0, -0.6, 3), "rho"),
                                       ((1.0, 0.5, 0), "B"), ((1.0, 0.5, 2.0), "B"), ((1.0, np.nan, 2), "rho")])
def test_correlated_average_variance_names_bad_input(args, name):
    with pytest.raises((ValueError, TypeError), match=name):
        E.correlated_average_variance(*args)


# --------------------------------------------------------------------------- bootstrap


def test_bootstrap_is_seeded_and_in_range():
    a, b = E.bootstrap_indices(50, 7, 3), E.bootstrap_indices(50, 7, np.random.default_rng(3))
    assert a.shape == (7, 50) and np.array_equal(a, b) and a.min() >= 0 and a.max() < 50
    assert not np.array_equal(a, E.bootstrap_indices(50, 7, 4))


def test_out_of_bag_mask_against_sets():
    idx = E.bootstrap_indices(30, 20, 1)
    mask = E.out_of_bag_mask(idx, 30)
    for b in range(20):
        assert set(np.flatnonzero(mask[b])) == set(range(30)) - set(idx[b].tolist())


@pytest.mark.parametrize("n", [1, 2, 5, 100])
def test_out_of_bag_share_by_simulation(n):
    share = E.out_of_bag_mask(E.bootstrap_indices(n, 20_000, n), n).mean()
    assert share == pytest.approx((1 - 1 / n) ** n, abs=0.01)


@pytest.mark.parametrize("call,name", [
    (lambda: E.bootstrap_indices(0, 3, 0), "n"), (lambda: E.bootstrap_indices(3, 0, 0), "B"),
    (lambda: E.bootstrap_indices(3, 2, "seed"), "rng"),
    (lambda: E.out_of_bag_mask(np.array([[0, 3]]), 3), "indices"),
    (lambda: E.out_of_bag_mask(np.array([[0.0, 1.0]]), 3), "indices"),
])
def test_bootstrap_names_bad_input(call, name):
    with pytest.raises((ValueError, TypeError), match=name):
        call()


# --------------------------------------------------------------------------- bagging and forests


def test_random_tree_with_every_feature_is_lecture_05s_tree():
    X, y = gaussians(200, 2)
    for seed in range(3):
        t = E.fit_random_tree(X, y, X.shape[1], seed)
        ref = trees.fit_tree(X, y)
        assert np.array_equal(t.feature, ref.feature) and np.allclose(t.threshold, ref.threshold, equal_nan=True)
        assert np.array_equal(t.left, ref.left) and np.array_equal(t.counts, ref.counts)


def test_random_tree_fits_distinct_points_and_respects_depth():
    X, y = gaussians(150, 3)
    t = E.fit_random_tree(X, y, 1, 0)
    assert trees.tree_error(t, X, y) == 0
    assert E.fit_random_tree(X, y, 2, 0, max_depth=3).max_depth <= 3


def test_random_forest_draws_each_feature_equally_often():
    """m_try = 1 on data where only feature 0 matters: the root splits on each of the d = 4 features
    about equally often (the drawn one, which can always be cut here)."""
    X, y = gaussians(60, 6, d=4)
    X[:, 1:] = np.random.default_rng(0).standard_normal((60, 3))
    roots = np.bincount([E.fit_random_tree(X, y, 1, seed).feature[0] for seed in range(400)], minlength=4)
    assert np.all(np.abs(roots - 100) <= 5 * np.sqrt(400 * 0.25 * 0.75)), roots


def test_out_of_bag_error_by_brute_force():
    X, y = gaussians(80, 4)
    forest = E.fit_bagging(X, y, 15, 7)
    wrong = covered = 0
    for i in range(len(X)):
        votes = [trees.predict_tree(t, X[i:i + 1])[0] for b, t in enumerate(forest.trees)
                 if i not in set(forest.indices[b].tolist())]
        if votes:
            covered += 1
            counts = {c: votes.count(c) for c in set(votes)}
            top = max(counts.values())
            wrong += max(c for c in counts if counts[c] == top) != y[i]
    assert forest.oob_covered == covered and forest.oob_error == pytest.approx(wrong / covered)


def test_bagging_is_deterministic_and_keeps_any_labels():
    X, y = gaussians(60, 5)
    labels = np.where(y > 0, 7, 3)
    a, b = E.fit_bagging(X, labels, 5, 11), E.fit_bagging(X, labels, 5, 11)
    assert np.array_equal(a.indices, b.indices) and a.oob_error == b.oob_error
    assert set(E.predict_forest(a, X).tolist()) <= {3, 7}
    assert np.array_equal(E.predict_forest(a, X), E.predict_forest(b, X))


def test_bagging_matches_scikit_learn_in_accuracy():
    ours, theirs, single = [], [], []
    for seed in range(5):
        X, y = gaussians(300, seed)
        Xt, yt = gaussians(2000, 100 + seed)
        ours.append(E.forest_error(E.fit_bagging(X, y, 40, seed), Xt, yt))
        sk = BaggingClassifier(DecisionTreeClassifier(), n_estimators=40, random_state=seed).fit(X, y)
        theirs.append(np.mean(sk.predict(Xt) != yt))
        single.append(trees.tree_error(trees.fit_tree(X, y), Xt, yt))
    assert abs(np.mean(ours) - np.mean(theirs)) < 0.02
    assert np.mean(ours) < np.mean(single) - 0.02          # bagging beats one tree here


def test_random_forest_matches_scikit_learn_in_accuracy():
    ours, theirs = [], []
    for seed in range(5):
        X, y = gaussians(300, seed, d=9)
        Xt, yt = gaussians(2000, 100 + seed, d=9)
        ours.append(E.forest_error(E.fit_random_forest(X, y, 40, seed), Xt, yt))
        sk = RandomForestClassifier(40, max_features="sqrt", random_state=seed).fit(X, y)
        theirs.append(np.mean(sk.predict(Xt) != yt))
    assert abs(np.mean(ours) - np.mean(theirs)) < 0.02


def test_forest_votes_add_up():
    X, y = gaussians(60, 6)
    forest = E.fit_random_forest(X, y, 9, 0)
    votes = E.forest_votes(forest, X)
    assert votes.shape == (60, 2) and np.all(votes.sum(axis=1) == 9)
    assert np.all(E.forest_votes(forest, X, B=4).sum(axis=1) == 4)
    assert E.tree_predictions(forest, X).shape == (9, 60)


@pytest.mark.parametrize("call,name", [
    (lambda X, y: E.fit_bagging(X, y, 0, 0), "B"),
    (lambda X, y: E.fit_bagging(X, y[:-1], 3, 0), "y"),
    (lambda X, y: E.fit_bagging(X[:, 0], y, 3, 0), "X"),
    (lambda X, y: E.fit_random_forest(X, y, 3, 0, max_features=9), "max_features"),
    (lambda X, y: E.fit_random_forest(X, y, 3, 0, max_features="log"), "max_features"),
    (lambda X, y: E.fit_random_tree(X, y, 0, 0), "max_features"),
    (lambda X, y: E.predict_forest(E.fit_bagging(X, y, 2, 0), X, B=3), "B"),
    (lambda X, y: E.forest_error(E.fit_bagging(X, y, 2, 0), X, y[:3]), "y"),
])
def test_forests_name_bad_input(call, name):
    X, y = gaussians(20, 0)
    with pytest.raises((ValueError, TypeError), match=name):
        call(X, y)


# --------------------------------------------------------------------------- AdaBoost


def brute_force_stump_error(X, y, w):
    best = np.inf
    for j in range(X.shape[1]):
        v = np.unique(X[:, j])
        for t, left in itertools.product((v[1:] + v[:-1]) / 2, (1, -1)):
            h = np.where(X[:, j] <= t, left, -left)
            best = min(best, w[h != y].sum() / w.sum())
    return best


@pytest.mark.parametrize("seed", range(6))
def test_error_stump_is_the_brute_force_minimum(seed):
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(5, 40)), int(rng.integers(1, 4))
    X = rng.integers(0, 6, size=(n, d)).astype(float) * 10 ** rng.uniform(-3, 3)   # repeated values
    y = rng.choice([-1, 1], size=n)
    w = rng.exponential(size=n)
    if len(np.unique(X[:, 0])) < 2:
        X[0, 0] += 1
    s = E.fit_stump(X, y, w)
    assert E.weighted_error(s, X, y, w) == pytest.approx(brute_force_stump_error(X, y, w), abs=1e-12)


def test_gini_stump_is_scikit_learns_weighted_stump():
    for seed in range(8):
        X, y = gaussians(120, seed, d=4, distance=1.0)
        w = np.random.default_rng(seed).exponential(size=len(y))
        s = E.fit_stump(X, y, w, criterion="gini")
        tr = DecisionTreeClassifier(max_depth=1).fit(X, y, sample_weight=w)
        assert s.feature == tr.tree_.feature[0] and s.threshold == pytest.approx(tr.tree_.threshold[0])
        assert np.array_equal(E.stump_predict(s, X), tr.predict(X))


@pytest.mark.parametrize("seed", range(5))
def test_adaboost_is_scikit_learns_samme_with_stumps(seed):
    """Same data, same stumps (unique on continuous data), alphas half of SAMME's (two classes:
    SAMME's ln((1-eps)/eps) is AdaBoost's 2 alpha, with the same reweighting), same predictions."""
    X, y = gaussians(200, seed, d=4, distance=1.2)
    Xt, _ = gaussians(500, 50 + seed, d=4)
    T = 25
    ours = E.fit_adaboost(X, y, T, criterion="gini")
    sk = AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=T, random_state=seed).fit(X, y)
    assert ours.T == len(sk.estimators_) == T
    for s, est in zip(ours.stumps, sk.estimators_):
        assert s.feature == est.tree_.feature[0] and s.threshold == pytest.approx(est.tree_.threshold[0])
        assert np.array_equal(E.stump_predict(s, X), est.predict(X))
    assert np.allclose(2 * ours.alpha, sk.estimator_weights_[:T], rtol=1e-9)
    assert np.allclose(ours.eps, sk.estimator_errors_[:T], rtol=1e-9)
    assert np.array_equal(E.predict_adaboost(ours, Xt), sk.predict(Xt))


@pytest.mark.parametrize("depth", [2, 3])
def test_weighted_tree_is_scikit_learns_weighted_tree(depth):
    for seed in range(6):
        X, y = gaussians(150, seed, d=3, distance=1.0)
        w = np.random.default_rng(seed).exponential(size=len(y))
        ours = E.fit_weighted_tree(X, y, w, depth)
        sk = DecisionTreeClassifier(max_depth=depth).fit(X, y, sample_weight=w)
        assert ours.feature == sk.tree_.feature[0] and ours.threshold == pytest.approx(sk.tree_.threshold[0])
        Xt, _ = gaussians(400, 100 + seed, d=3)
        assert np.array_equal(E.learner_predict(ours, X), sk.predict(X))
        assert np.array_equal(E.learner_predict(ours, Xt), sk.predict(Xt))


def test_weighted_tree_of_depth_one_is_the_gini_stump_and_a_pure_node_stops():
    X, y = gaussians(80, 3, d=2)
    w = np.full(len(y), 1.0)
    assert E.fit_weighted_tree(X, y, w, 1) == E.fit_stump(X, y, w, criterion="gini")
    X1 = np.array([[0.0], [1.0], [2.0], [3.0]])
    tree = E.fit_weighted_tree(X1, np.array([-1, -1, 1, 1]), np.ones(4), 3)
    assert isinstance(tree, E.SplitNode) and isinstance(tree.left, E.Stump) and isinstance(tree.right, E.Stump)
    assert np.array_equal(E.learner_predict(tree, X1), [-1, -1, 1, 1])


@pytest.mark.parametrize("seed", range(3))
def test_adaboost_with_depth_two_trees_is_scikit_learns_samme(seed):
    X, y = gaussians(200, seed, d=3, distance=1.0)
    Xt, _ = gaussians(500, 60 + seed, d=3)
    T = 15
    ours = E.fit_adaboost(X, y, T, depth=2)
    sk = AdaBoostClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=T, random_state=seed).fit(X, y)
    assert ours.T == len(sk.estimators_) == T
    for tree, est in zip(ours.stumps, sk.estimators_):
        assert np.array_equal(E.learner_predict(tree, X), est.predict(X))
    assert np.allclose(2 * ours.alpha, sk.estimator_weights_[:T], rtol=1e-9)
    assert np.array_equal(E.predict_adaboost(ours, Xt), sk.predict(Xt))
    F = E.staged_scores(ours, X)                         # the identity of the bound holds for any base learner
    assert np.allclose(np.exp(-y * F).mean(axis=1), np.cumprod(ours.Z), rtol=1e-9)


def test_adaboost_identity_bound_and_margins():
    X, y = gaussians(150, 9, d=3, distance=1.0)
    m = E.fit_adaboost(X, y, 40)
    F = E.staged_scores(m, X)
    assert np.allclose(np.exp(-y * F).mean(axis=1), np.cumprod(m.Z), rtol=1e-9)   # exp loss = prod Z_t
    prodZ, expbound = E.training_error_bound(m.eps)
    assert np.allclose(prodZ, np.cumprod(m.Z), rtol=1e-9)
    err = (np.where(F >= 0, 1, -1) != y).mean(axis=1)
    assert np.all(err <= prodZ + 1e-12) and np.all(prodZ <= expbound + 1e-12)
    assert np.allclose(m.w.sum(axis=1), 1)
    margins = E.normalised_margins(m, X, y)
    assert np.all(np.abs(margins) <= 1 + 1e-12)
    assert np.array_equal(margins >= 0, E.predict_adaboost(m, X) == y)


def test_alpha_is_the_line_search_minimiser():
    X, y = gaussians(100, 10, d=3, distance=0.8)
    m = E.fit_adaboost(X, y, 10)
    F = np.vstack([np.zeros(len(y)), E.staged_scores(m, X)])
    for t, s in enumerate(m.stumps):
        h = E.stump_predict(s, X)
        grid = m.alpha[t] + np.linspace(-0.5, 0.5, 2001)
        loss = np.exp(-y * (F[t][None, :] + grid[:, None] * h)).sum(axis=1)
        assert abs(grid[np.argmin(loss)] - m.alpha[t]) < 1e-3


def test_one_round_by_hand():
    y = np.array([1, 1, -1, -1])
    h = np.array([1, -1, -1, -1])                      # one mistake, weight 1/4
    w, Z = E.adaboost_update(np.full(4, 0.25), y, h, E.adaboost_alpha(0.25))
    assert Z == pytest.approx(E.adaboost_normaliser(0.25)) and Z == pytest.approx(np.sqrt(3) / 2)
    assert np.allclose(w, [1 / 6, 1 / 2, 1 / 6, 1 / 6])      # the mistake carries half the weight
    assert E.adaboost_alpha(0.25) == pytest.approx(0.5 * np.log(3))


def test_perfect_stump_stops():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    m = E.fit_adaboost(X, np.array([-1, -1, 1, 1]), 5)
    assert m.T == 1 and m.eps[0] == 0 and np.array_equal(E.predict_adaboost(m, X), [-1, -1, 1, 1])


@pytest.mark.parametrize("call,name", [
    (lambda X, y: E.fit_adaboost(X, (y + 1) // 2, 3), "y"),
    (lambda X, y: E.fit_adaboost(X, y, 0), "T"),
    (lambda X, y: E.fit_adaboost(X, y, 3, depth=0), "depth"),
    (lambda X, y: E.fit_adaboost(X, y, 3, criterion="error", depth=2), "criterion must be None or 'gini'"),
    (lambda X, y: E.fit_weighted_tree(X, y, np.ones(len(y)), 1.5), "depth"),
    (lambda X, y: E.fit_weighted_tree(X, y, -np.ones(len(y)), 2), "w must be"),
    (lambda X, y: E.learner_predict(E.fit_weighted_tree(X, y, np.ones(len(y)), 2), X[:, :1]), "features"),
    (lambda X, y: E.fit_stump(X, y, -np.ones(len(y))), "w"),
    (lambda X, y: E.fit_stump(X, y, np.ones(3)), "w"),
    (lambda X, y: E.fit_stump(X, y, np.ones(len(y)), criterion="entropy"), "criterion"),
    (lambda X, y: E.adaboost_alpha(0.0), "eps"),
    (lambda X, y: E.adaboost_normaliser(1.5), "eps"),
    (lambda X, y: E.adaboost_update(np.full(len(y), 0.1), y, np.zeros(len(y)), 0.3), "h"),
    (lambda X, y: E.adaboost_update(np.full(len(y), 0.1), y, y, "a"), "alpha"),
    (lambda X, y: E.ensemble_scores(E.fit_adaboost(X, y, 2), X, rounds=5), "rounds"),
    (lambda X, y: E.normalised_margins(E.fit_adaboost(X, y, 2), X, y[:4]), "y"),
    (lambda X, y: E.training_error_bound([0.2, 1.2]), "eps"),
])
def test_adaboost_names_bad_input(call, name):
    X, y = gaussians(20, 0)
    with pytest.raises((ValueError, TypeError), match=name):
        call(X, y)
