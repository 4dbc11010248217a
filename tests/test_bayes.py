"""Unit and property tests of ``mlcourse.bayes`` (lecture 04: the Bayes-optimal classifier).

Checked against independent implementations where one exists (scikit-learn's ``BernoulliNB`` and
``GaussianNB``, ``scipy.stats`` densities and ``scipy.integrate``), against brute force (every
classifier on a finite input space, with or without a reject option, every ``x`` in ``{0, 1}^d``),
and, for the lecture's theorems (Bayes beats every classifier; the threshold c01 / (c01 + c10) for
unequal costs; Chow's rule for the reject option; the naive Bayes rule is linear), with hypothesis.
"""

from __future__ import annotations

import dataclasses
import doctest
import itertools
import math
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from scipy import integrate, stats  # noqa: E402
from sklearn.naive_bayes import BernoulliNB, GaussianNB  # noqa: E402

from mlcourse import bayes, data, mle, perceptron, widgets  # noqa: E402

PROPERTY = settings(max_examples=60, deadline=None)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def random_spd(rng, d, floor=0.3):
    A = rng.standard_normal((d, d))
    return A @ A.T + floor * np.eye(d)


def random_gaussian_pair(rng, d, shared):
    covs = random_spd(rng, d) if shared else np.stack([random_spd(rng, d), random_spd(rng, d)])
    return bayes.gaussian_classes(rng.normal(size=(2, d)), covs, priors=rng.dirichlet([2.0, 2.0]))


def test_docstring_examples_run():
    result = doctest.testmod(bayes, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 5 and result.failed == 0


# --------------------------------------------------------------------------- discrete tables


def test_small_table_by_hand():
    joint = np.array([[0.1, 0.3], [0.25, 0.15], [0.05, 0.05], [0.0, 0.1]])
    np.testing.assert_array_equal(bayes.bayes_classifier(joint), [1, 0, 1, 1])  # the tie goes to class 1
    assert bayes.bayes_error(joint) == pytest.approx(0.3, abs=1e-12)
    assert bayes.accuracy(joint, [1, 0, 0, 1]) == pytest.approx(0.7)
    assert bayes.error(joint, [0, 0, 0, 0]) == pytest.approx(0.6)  # 1 - (0.1 + 0.25 + 0.05 + 0)
    post = bayes.posterior_table(joint)
    np.testing.assert_allclose(post, [[0.25, 0.75], [0.625, 0.375], [0.5, 0.5], [0.0, 1.0]])


def test_ties_go_to_the_largest_class():
    joint = np.array([[0.1, 0.1, 0.05], [0.2, 0.05, 0.2], [0.0, 0.0, 0.0], [0.1, 0.1, 0.1]])
    np.testing.assert_array_equal(bayes.bayes_classifier(joint), [1, 2, 2, 2])
    rng = np.random.default_rng(4)
    for _ in range(50):  # small integer tables: many exact ties; the largest maximiser of each row
        W = rng.integers(0, 3, size=(6, 4)).astype(float)
        W[0, 0] += 1
        J = W / W.sum()
        expected = [max(np.flatnonzero(row == row.max())) for row in J]
        np.testing.assert_array_equal(bayes.bayes_classifier(J), expected)


def test_posterior_of_an_impossible_input_is_uniform_and_silent():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        post = bayes.posterior_table([[0.0, 0.0, 0.0], [0.2, 0.5, 0.3]])
    np.testing.assert_allclose(post[0], [1 / 3, 1 / 3, 1 / 3])


def test_all_classifiers_lists_every_function_once():
    G = bayes.all_classifiers(3, 3)
    assert G.shape == (27, 3) and G.dtype.kind == "i"
    assert len({tuple(g) for g in G}) == 27
    assert bayes.all_classifiers(1, 2).tolist() == [[0], [1]]


def test_accuracy_of_a_stack_equals_one_at_a_time():
    rng = np.random.default_rng(0)
    joint = data.random_joint_table(5, 3, rng)
    G = bayes.all_classifiers(5, 3)
    stacked = bayes.accuracy(joint, G)
    assert stacked.shape == (243,)
    np.testing.assert_allclose(stacked, [sum(joint[x, g[x]] for x in range(5)) for g in G])
    assert all(stacked[i] == bayes.accuracy(joint, G[i]) for i in range(0, 243, 17))


@PROPERTY
@given(seed=seeds, m=st.integers(1, 7), K=st.integers(2, 3))
def test_bayes_beats_or_ties_every_classifier(seed, m, K):
    """The theorem, exhaustively on a random finite table; ties only where the choice is free."""
    rng = np.random.default_rng(seed)
    joint = data.random_joint_table(m, K, rng, concentration=float(rng.choice([0.2, 1.0, 5.0])))
    if rng.uniform() < 0.5:  # also tables with exact ties and impossible inputs
        joint = rng.integers(0, 3, size=(m, K)).astype(float)
        joint[0, 0] += 1
        joint /= joint.sum()
    G = bayes.all_classifiers(m, K)
    acc = bayes.accuracy(joint, G)
    best = bayes.accuracy(joint, bayes.bayes_classifier(joint))
    assert np.all(acc <= best + 1e-12)
    assert bayes.bayes_error(joint) == pytest.approx(1 - acc.max(), abs=1e-12)
    # a classifier ties iff it picks a largest entry in every row with P(x) > 0
    picks_max = np.all((joint[np.arange(m), G] == joint.max(axis=1)) | (joint.sum(axis=1) == 0), axis=1)
    np.testing.assert_array_equal(np.isclose(acc, best, rtol=0, atol=1e-12), picks_max)


@PROPERTY
@given(seed=seeds, m=st.integers(1, 8))
def test_pointwise_identity(seed, m):
    rng = np.random.default_rng(seed)
    joint = data.random_joint_table(m, 2, rng)
    eta = bayes.posterior_table(joint)[:, 1]
    G = bayes.all_classifiers(m)
    f = G[rng.integers(len(G))]
    gain = bayes.pointwise_gain(joint, f, G)
    np.testing.assert_allclose(gain, (2 * eta - 1) * ((f == 1).astype(float) - (G == 1)), atol=1e-12)
    assert np.all(bayes.pointwise_gain(joint, bayes.bayes_classifier(joint), G) >= -1e-12)


def test_bayes_error_matches_monte_carlo():
    rng = np.random.default_rng(3)
    joint = data.random_joint_table(6, 3, rng)
    x, y = data.sample_joint_table(joint, 200_000, rng)
    R = bayes.bayes_error(joint)
    assert np.mean(bayes.bayes_classifier(joint)[x] != y) == pytest.approx(R, abs=5 * math.sqrt(R * (1 - R) / 200_000))
    counts = np.zeros_like(joint)
    np.add.at(counts, (x, y), 1)
    np.testing.assert_allclose(counts / len(x), joint, atol=0.005)


@pytest.mark.parametrize(
    "call, exc, pattern",
    [
        (lambda: bayes.bayes_classifier([0.5, 0.5]), ValueError, r"joint must be a table of shape \(m, K\)"),
        (lambda: bayes.bayes_classifier([[0.5], [0.5]]), ValueError, "K >= 2 classes"),
        (lambda: bayes.bayes_error([[0.5, 0.6]]), ValueError, "summing to 1"),
        (lambda: bayes.bayes_error([[-0.1, 1.1]]), ValueError, "smallest entry is -0.1"),
        (lambda: bayes.bayes_error([["a", "b"]]), TypeError, "joint must be an array of numbers"),
        (lambda: bayes.accuracy([[0.5, 0.5]], [0, 1]), ValueError, r"f must have shape \(1,\)"),
        (lambda: bayes.accuracy([[0.5, 0.5]], [2]), ValueError, "f must hold classes 0, ..., 1; found 2"),
        (lambda: bayes.accuracy([[0.5, 0.5]], [0.5]), TypeError, "f must hold integer class labels"),
        (lambda: bayes.pointwise_gain([[0.5, 0.5]], [0], [[3]]), ValueError, "g must hold classes"),
        (lambda: bayes.all_classifiers(30), ValueError, "too many"),
        (lambda: bayes.all_classifiers(0), ValueError, "m must be at least 1"),
        (lambda: bayes.accuracy([[0.5, 0.5]], [bayes.REJECT]), ValueError, "f must hold classes 0, ..., 1; found -1"),
        (lambda: data.random_joint_table(3, 2.0, 0), TypeError, "K must be an integer"),
        (lambda: data.sample_joint_table([[1.0, 0.0]], 0, 0), ValueError, "n must be at least 1"),
    ],
)
def test_bad_tables_are_refused_with_clear_messages(call, exc, pattern):
    with pytest.raises(exc, match=pattern):
        call()


def test_random_joint_table_is_seeded():
    a, b = data.random_joint_table(4, 3, 7), data.random_joint_table(4, 3, np.random.default_rng(7))
    np.testing.assert_array_equal(a, b)
    assert a.shape == (4, 3) and a.sum() == pytest.approx(1.0) and np.all(a >= 0)


# --------------------------------------------------------------------------- unequal costs, the reject option


def tie_prone_table(rng, m, K):
    """A random table; half the time with small integer weights (exact ties, impossible inputs)."""
    if rng.uniform() < 0.5:
        return data.random_joint_table(m, K, rng, concentration=float(10 ** rng.uniform(-1, 1)))
    W = rng.integers(0, 4, size=(m, K)).astype(float)
    W[0, 0] += 1
    return W / W.sum()


def test_costs_by_hand():
    joint = np.array([[1, 3], [4, 2], [3, 1], [0, 0]]) / np.array([[8], [16], [32], [1]])  # exact in binary
    assert bayes.cost_threshold(1, 3) == 0.25 and bayes.cost_threshold(2.0, 2.0) == 0.5
    # eta = 0.75, 1/3, 0.25 and an impossible input; at eta = threshold (a tie) the rule predicts 1
    np.testing.assert_array_equal(bayes.cost_sensitive_classifier(joint, 1, 3), [1, 1, 1, 1])
    np.testing.assert_array_equal(bayes.cost_sensitive_classifier(joint, 3, 1), [1, 0, 0, 1])
    # predicting 1 everywhere costs c01 P(Y = 0) = 15/32; predicting 0 everywhere c10 P(Y = 1) = 3 * 17/32
    assert bayes.expected_cost(joint, [1, 1, 1, 1], 1, 3) == pytest.approx(15 / 32)
    assert bayes.expected_cost(joint, [0, 0, 0, 0], 1, 3) == pytest.approx(51 / 32)
    np.testing.assert_array_equal(bayes.predict_with_costs([[0.2, 0.25], [0.7, 1.0]], 1, 3), [[0, 1], [1, 1]])


@PROPERTY
@given(seed=seeds, m=st.integers(1, 8))
def test_the_cost_threshold_gives_the_least_expected_cost_of_all_classifiers(seed, m):
    rng = np.random.default_rng(seed)
    joint = tie_prone_table(rng, m, 2)
    c01, c10 = 10 ** rng.uniform(-2, 2, size=2)
    G = bayes.all_classifiers(m)
    costs = bayes.expected_cost(joint, G, c01, c10)
    brute = np.array([sum(c01 * joint[x, 0] if g[x] == 1 else c10 * joint[x, 1] for x in range(m)) for g in G])
    np.testing.assert_allclose(costs, brute, rtol=1e-12, atol=1e-15)
    f = bayes.cost_sensitive_classifier(joint, c01, c10)
    best = bayes.expected_cost(joint, f, c01, c10)
    assert best <= costs.min() + 1e-12 * max(c01, c10)
    eta = bayes.posterior_table(joint)[:, 1]
    t = bayes.cost_threshold(c01, c10)
    possible = joint.sum(axis=1) > 0
    clear = (np.abs(eta - t) > 1e-9) & possible
    np.testing.assert_array_equal(f[clear], bayes.predict_with_costs(eta, c01, c10)[clear])
    assert np.all(f[~possible] == 1)  # impossible inputs are ties: class 1


def test_the_swapped_threshold_is_not_optimal():
    joint = np.array([[0.3, 0.2], [0.1, 0.4]])  # eta = 0.4, 0.8
    c01, c10 = 1.0, 4.0  # right threshold 0.2: predict 1 at both; swapped 0.8: predict 1 only at x = 1
    swapped = (bayes.posterior_table(joint)[:, 1] >= c10 / (c01 + c10)).astype(int)
    assert bayes.expected_cost(joint, swapped, c01, c10) > bayes.expected_cost(
        joint, bayes.cost_sensitive_classifier(joint, c01, c10), c01, c10) + 0.1


def test_equal_costs_are_the_0_1_loss():
    rng = np.random.default_rng(12)
    joint = data.random_joint_table(6, 2, rng)
    G = bayes.all_classifiers(6)
    np.testing.assert_allclose(bayes.expected_cost(joint, G, 1.0, 1.0), bayes.error(joint, G), atol=1e-12)
    np.testing.assert_array_equal(bayes.cost_sensitive_classifier(joint, 2.5, 2.5), bayes.bayes_classifier(joint))


def test_reject_by_hand():
    joint = np.array([[2, 6], [3, 5], [0, 0]]) / 16  # P(1 | x) = 0.75, 0.625, impossible; exact in binary
    np.testing.assert_array_equal(bayes.chow_classifier(joint, 0.3), [1, bayes.REJECT, 1])
    np.testing.assert_array_equal(bayes.chow_classifier(joint, 0.25), [1, bayes.REJECT, 1])  # 0.75 = 1 - 0.25: predict
    np.testing.assert_array_equal(bayes.chow_classifier(joint, 0.5), [1, 1, 1])
    assert bayes.reject_risk(joint, [bayes.REJECT, bayes.REJECT, 0], 0.3) == pytest.approx(0.3)
    assert bayes.reject_risk(joint, [1, bayes.REJECT, 0], 0.3) == pytest.approx(0.125 + 0.15)
    G = bayes.all_classifiers_with_reject(2)
    assert G.shape == (9, 2) and G[0].tolist() == [-1, -1] and G[-1].tolist() == [1, 1]
    assert bayes.all_classifiers_with_reject(3, K=3).shape == (64, 3)


@PROPERTY
@given(seed=seeds, m=st.integers(1, 6), K=st.integers(2, 3))
def test_chows_rule_has_the_least_risk_of_all_classifiers_with_reject(seed, m, K):
    rng = np.random.default_rng(seed)
    joint = tie_prone_table(rng, m, K)
    c_rej = float(rng.choice([rng.uniform(0, 1), 0.5 * 10 ** rng.uniform(-3, 0), 0.0, 0.25, 1 / 3]))
    G = bayes.all_classifiers_with_reject(m, K)
    risks = bayes.reject_risk(joint, G, c_rej)
    P = joint.sum(axis=1)
    brute = np.array([sum(c_rej * P[x] if g[x] == bayes.REJECT else P[x] - joint[x, g[x]] for x in range(m))
                      for g in G])
    np.testing.assert_allclose(risks, brute, rtol=1e-12, atol=1e-15)
    f = bayes.chow_classifier(joint, c_rej)
    assert bayes.reject_risk(joint, f, c_rej) <= risks.min() + 1e-12
    never = np.all(G != bayes.REJECT, axis=1)  # without abstaining the risk is the error
    np.testing.assert_allclose(risks[never], bayes.error(joint, G[never]), atol=1e-12)
    post = bayes.posterior_table(joint)
    clear = (np.abs(post.max(axis=1) - (1 - c_rej)) > 1e-9) & (P > 0)  # an impossible x: no posterior
    np.testing.assert_array_equal(f[clear], bayes.predict_with_reject(post, c_rej)[clear])


def test_a_costly_abstention_is_never_used_with_two_classes():
    rng = np.random.default_rng(6)
    for _ in range(20):
        joint = data.random_joint_table(7, 2, rng)
        for c_rej in (0.5, 0.7, 1.0):
            np.testing.assert_array_equal(bayes.chow_classifier(joint, c_rej), bayes.bayes_classifier(joint))
    # abstaining for free is always at least as good: reject wherever the class is uncertain
    joint = np.array([[0.2, 0.0], [0.3, 0.5]])
    np.testing.assert_array_equal(bayes.chow_classifier(joint, 0.0), [0, bayes.REJECT])


@pytest.mark.parametrize(
    "call, exc, pattern",
    [
        (lambda: bayes.cost_threshold(0, 1), ValueError, "c01 must be a finite number > 0"),
        (lambda: bayes.cost_sensitive_classifier([[0.5, 0.5]], 1, -2), ValueError, "c10 must be a finite number > 0"),
        (lambda: bayes.expected_cost([[0.2, 0.3, 0.5]], [0], 1, 1), ValueError, "two classes"),
        (lambda: bayes.expected_cost([[0.5, 0.5]], [bayes.REJECT], 1, 1), ValueError, "f must hold classes 0, ..., 1"),
        (lambda: bayes.predict_with_costs([0.5, 1.2], 1, 1), ValueError, "eta must hold probabilities"),
        (lambda: bayes.chow_classifier([[0.5, 0.5]], 1.5), ValueError, r"c_rej must lie in \[0, 1\]"),
        (lambda: bayes.chow_classifier([[0.5, 0.5]], -0.1), ValueError, "c_rej must be a finite number >= 0"),
        (lambda: bayes.reject_risk([[0.5, 0.5]], [-2], 0.2), ValueError, r"f must hold classes 0, ..., 1 or REJECT \(-1\); found -2"),
        (lambda: bayes.predict_with_reject([0.5, 0.5], 0.2), ValueError, r"posterior must have shape \(n, K\)"),
        (lambda: bayes.all_classifiers_with_reject(13), ValueError, "too many"),
    ],
)
def test_bad_cost_and_reject_inputs_are_refused(call, exc, pattern):
    with pytest.raises(exc, match=pattern):
        call()



# --------------------------------------------------------------------------- Gaussian classes


def test_gaussian_classes_builds_a_checked_frozen_model():
    model = bayes.gaussian_classes([[0.0, 0.0], [1.0, 2.0]], np.eye(2))
    assert isinstance(model, mle.GaussianClassModel)
    assert model.shared_covariance and model.covariances.shape == (2, 2, 2)
    np.testing.assert_array_equal(model.priors, [0.5, 0.5])
    np.testing.assert_array_equal(model.classes, [0, 1])
    with pytest.raises(ValueError):
        model.means[0, 0] = 5.0  # read-only
    with pytest.raises(dataclasses.FrozenInstanceError):
        model.priors = np.array([0.1, 0.9])


@pytest.mark.parametrize(
    "kwargs, exc, pattern",
    [
        (dict(means=[[0.0, 0.0], [1.0, 1.0]], covariances=np.eye(3)), ValueError, "model.covariances has shape"),
        (dict(means=[[0.0], [1.0]], covariances=[[1.0]], priors=[0.5, 0.6]), ValueError, "sum to 1"),
        (dict(means=[[0.0], [1.0]], covariances=[[1.0]], priors=[1.0]), ValueError, r"priors has shape \(1,\)"),
        (dict(means=[[0.0, 0.0], [1.0, 1.0]], covariances=[[1.0, 1.0], [1.0, 1.0]]), ValueError, "positive definite"),
        (dict(means=[[0.0], [1.0]], covariances=[[1.0]], classes=[1, 0]), ValueError, "increasing integers"),
        (dict(means=[0.0, 1.0], covariances=[[1.0]]), ValueError, "means must be a 2-d array"),
    ],
)
def test_bad_gaussian_classes_are_refused(kwargs, exc, pattern):
    with pytest.raises(exc, match=pattern):
        bayes.gaussian_classes(**kwargs)


@PROPERTY
@given(seed=seeds, d=st.integers(1, 4), shared=st.booleans())
def test_bayes_rule_score_is_the_log_posterior_ratio(seed, d, shared):
    rng = np.random.default_rng(seed)
    model = random_gaussian_pair(rng, d, shared)
    rule = bayes.bayes_rule(model)
    assert rule.is_linear == shared
    X = rng.normal(scale=2.0, size=(40, d))
    log_post = mle.log_posterior(model, X)
    np.testing.assert_allclose(rule.score(X), log_post[:, 1] - log_post[:, 0], atol=1e-8, rtol=1e-8)
    np.testing.assert_array_equal(rule.predict(X)[np.abs(rule.score(X)) > 1e-8],
                                  mle.predict_gaussian_classes(model, X)[np.abs(rule.score(X)) > 1e-8])


def test_bayes_rule_against_scipy_densities():
    rng = np.random.default_rng(1)
    model = random_gaussian_pair(rng, 3, shared=False)
    X = rng.normal(size=(20, 3))
    dens = [stats.multivariate_normal(model.means[k], model.covariances[k]).logpdf(X) + np.log(model.priors[k])
            for k in range(2)]
    np.testing.assert_allclose(bayes.bayes_rule(model).score(X), dens[1] - dens[0], rtol=1e-9, atol=1e-9)


def test_bayes_error_in_one_dimension_against_scipy_quad():
    model = bayes.gaussian_classes([[0.0], [1.5]], [[[1.0]], [[2.0]]], priors=[0.3, 0.7])
    p0 = lambda t: 0.3 * stats.norm(0.0, 1.0).pdf(t)  # noqa: E731
    p1 = lambda t: 0.7 * stats.norm(1.5, math.sqrt(2.0)).pdf(t)  # noqa: E731
    expected, _ = integrate.quad(lambda t: min(p0(t), p1(t)), -30, 30, points=[-3.0, 0.0, 1.0, 3.0], limit=200)
    assert bayes.bayes_error_gaussian(model, resolution=4000) == pytest.approx(expected, abs=1e-6)


@PROPERTY
@given(seed=seeds)
def test_three_ways_to_the_bayes_error_of_a_shared_covariance_agree(seed):
    rng = np.random.default_rng(seed)
    model = random_gaussian_pair(rng, 2, shared=True)
    closed = bayes.linear_bayes_error(model)
    rule = bayes.bayes_rule(model)
    assert bayes.rule_error(model, rule.w, rule.b) == pytest.approx(closed, abs=1e-12)
    assert bayes.bayes_error_gaussian(model) == pytest.approx(closed, abs=2e-4)


def test_bayes_error_matches_monte_carlo_for_different_covariances():
    rng = np.random.default_rng(5)
    model = random_gaussian_pair(rng, 2, shared=False)
    R = bayes.bayes_error_gaussian(model)
    R_mc = bayes.monte_carlo_error(model, lambda P: mle.predict_gaussian_classes(model, P), 200_000, rng)
    assert R_mc == pytest.approx(R, abs=5 * math.sqrt(R * (1 - R) / 200_000))
    rule = bayes.bayes_rule(model)
    assert bayes.classifier_error(model, rule.predict) == pytest.approx(R, abs=2e-3)


def test_equal_priors_shared_identity_gives_phi_of_minus_half_distance():
    for D in (0.0, 1.0, 3.0):
        model = bayes.gaussian_classes([[0.0, 0.0], [D, 0.0]], np.eye(2))
        assert bayes.linear_bayes_error(model) == pytest.approx(stats.norm.cdf(-D / 2), abs=1e-12)


@PROPERTY
@given(seed=seeds, d=st.integers(1, 5))
def test_no_linear_rule_beats_the_bayes_rule(seed, d):
    rng = np.random.default_rng(seed)
    model = random_gaussian_pair(rng, d, shared=True)
    best = bayes.linear_bayes_error(model)
    for _ in range(20):
        assert bayes.rule_error(model, rng.normal(size=d), rng.normal()) >= best - 1e-12
    assert bayes.rule_error(model, np.zeros(d), -1.0) == pytest.approx(model.priors[1])  # always class 0
    assert bayes.rule_error(model, np.zeros(d), 0.0) == pytest.approx(model.priors[0])  # a tie: always class 1


def test_quadratic_rule_gives_a_zero_score_to_the_larger_class():
    rule = bayes.QuadraticRule(np.zeros((1, 1)), np.array([1.0]), -1.0, np.array([3, 7]))
    np.testing.assert_array_equal(rule.predict([[0.5], [1.0], [1.5]]), [3, 7, 7])


def test_rule_error_against_monte_carlo():
    rng = np.random.default_rng(8)
    model = random_gaussian_pair(rng, 3, shared=False)
    w, b = rng.normal(size=3), 0.3
    X, y = data.sample_gaussian_classes(model, 200_000, rng)
    R = bayes.rule_error(model, w, b)
    assert np.mean((X @ w + b > 0).astype(int) != y) == pytest.approx(R, abs=5 * math.sqrt(R * (1 - R) / 200_000))


def test_sample_gaussian_classes_has_the_model_moments():
    model = bayes.gaussian_classes([[0.0, 1.0], [2.0, -1.0]], [[[1.0, 0.4], [0.4, 0.5]], [[2.0, -0.3], [-0.3, 1.0]]],
                                   priors=[0.3, 0.7])
    X, y = data.sample_gaussian_classes(model, 100_000, 0)
    assert np.mean(y == 1) == pytest.approx(0.7, abs=0.01)
    fit = mle.fit_gaussian_classes(X, y)
    np.testing.assert_allclose(fit.means, model.means, atol=0.03)
    np.testing.assert_allclose(fit.covariances, model.covariances, atol=0.05)
    X2, y2 = data.sample_gaussian_classes(model, 100, 0)
    np.testing.assert_array_equal(X2, data.sample_gaussian_classes(model, 100, np.random.default_rng(0))[0])


def test_naive_gaussian_keeps_only_the_diagonal_and_gaussian_nb_agrees_with_sklearn():
    rng = np.random.default_rng(2)
    model = random_gaussian_pair(rng, 3, shared=False)
    naive = bayes.naive_gaussian(model)
    for k in range(2):
        np.testing.assert_array_equal(naive.covariances[k], np.diag(np.diag(model.covariances[k])))
    X, y = data.sample_gaussian_classes(model, 500, rng)
    fit = bayes.fit_gaussian_naive_bayes(X, y)
    sk = GaussianNB(var_smoothing=0.0).fit(X, y)
    np.testing.assert_allclose(fit.means, sk.theta_, rtol=1e-12)
    np.testing.assert_allclose(np.diagonal(fit.covariances, axis1=1, axis2=2), sk.var_, rtol=1e-10)
    np.testing.assert_allclose(np.exp(mle.log_posterior(fit, X)), sk.predict_proba(X), atol=1e-10)
    np.testing.assert_array_equal(mle.predict_gaussian_classes(fit, X), sk.predict(X))


def test_naive_and_bayes_boundaries_agree_along_an_eigenvector():
    C = np.array([[1.0, 0.7], [0.7, 1.0]])
    along = bayes.gaussian_classes([[0.0, 0.0], [1.0, 1.0]], C)
    across = bayes.gaussian_classes([[0.0, 0.0], [1.0, 0.0]], C)
    for model, same in ((along, True), (across, False)):
        rb, rn = bayes.bayes_rule(model), bayes.bayes_rule(bayes.naive_gaussian(model))
        cosine = rb.w @ rn.w / np.linalg.norm(rb.w) / np.linalg.norm(rn.w)
        assert np.isclose(cosine, 1.0) == same
        assert bayes.rule_error(model, rn.w, rn.b) >= bayes.rule_error(model, rb.w, rb.b) - 1e-12


@pytest.mark.parametrize(
    "call, exc, pattern",
    [
        (lambda m: bayes.bayes_rule(bayes.gaussian_classes([[0.0], [1.0], [2.0]], [[1.0]])), ValueError, "two classes"),
        (lambda m: bayes.bayes_rule("model"), TypeError, "model must be a GaussianClassModel"),
        (lambda m: bayes.rule_error(m, [1.0], 0.0), ValueError, r"w has shape \(1,\), expected \(3,\)"),
        (lambda m: bayes.bayes_error_gaussian(m), ValueError, "d = 3"),
        (lambda m: bayes.linear_bayes_error(bayes.gaussian_classes([[0.0], [1.0]], [[[1.0]], [[2.0]]])),
         ValueError, "same covariance"),
        (lambda m: bayes.classifier_error(bayes.gaussian_classes([[0.0], [1.0]], [[1.0]]), lambda P: [0]),
         ValueError, "one label per point"),
        (lambda m: bayes.QuadraticRule(np.zeros((3, 3)), np.zeros(3), 0.0, np.array([0, 1])).score(np.zeros((2, 2))),
         ValueError, "X has 2 features"),
    ],
)
def test_bad_gaussian_inputs_are_refused(call, exc, pattern):
    model = random_gaussian_pair(np.random.default_rng(0), 3, shared=True)
    with pytest.raises(exc, match=pattern):
        call(model)


# --------------------------------------------------------------------------- naive Bayes, binary features


def binary_data(rng, n, d):
    y = rng.permutation(np.r_[0, 1, rng.integers(0, 2, size=n - 2)])
    return rng.integers(0, 2, size=(n, d)), y


def test_fit_by_hand():
    X = np.array([[1, 0, 1], [1, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 1]])
    y = np.array([1, 1, 0, 1, 0])
    mle_fit = bayes.fit_naive_bayes(X, y, alpha=0.0)
    np.testing.assert_allclose(mle_fit.priors, [0.4, 0.6])
    np.testing.assert_allclose(mle_fit.p, [[0.0, 0.5, 1.0], [1.0, 1 / 3, 1 / 3]])
    np.testing.assert_allclose(bayes.fit_naive_bayes(X, y, alpha=1.0).p, [[0.25, 0.5, 0.75], [0.8, 0.4, 0.4]])
    assert isinstance(mle_fit, bayes.NaiveBayesModel)
    with pytest.raises(dataclasses.FrozenInstanceError):
        mle_fit.alpha = 2.0


@pytest.mark.parametrize("seed", range(6))
def test_laplace_smoothing_matches_sklearn_bernoulli_nb(seed):
    rng = np.random.default_rng(seed)
    X, y = binary_data(rng, int(rng.integers(5, 80)), int(rng.integers(1, 12)))
    if seed % 2:
        y = np.where(y == 1, 7, -3)  # any integer labels
    for alpha in (1.0, 0.5, 2.0):
        ours = bayes.fit_naive_bayes(X, y, alpha=alpha)
        sk = BernoulliNB(alpha=alpha).fit(X, y)
        np.testing.assert_array_equal(ours.classes, sk.classes_)
        np.testing.assert_allclose(np.log(ours.p), sk.feature_log_prob_, rtol=1e-12)
        np.testing.assert_allclose(np.log(ours.priors), sk.class_log_prior_, rtol=1e-12)
        X_new = rng.integers(0, 2, size=(30, X.shape[1]))
        np.testing.assert_allclose(np.exp(bayes.naive_bayes_log_posterior(ours, X_new)), sk.predict_proba(X_new),
                                   atol=1e-12)
        clear = np.abs(np.diff(sk.predict_log_proba(X_new), axis=1)[:, 0]) > 1e-9  # sklearn ties go to the smallest
        np.testing.assert_array_equal(bayes.predict_naive_bayes(ours, X_new)[clear], sk.predict(X_new)[clear])


def test_counts_maximise_the_likelihood():
    rng = np.random.default_rng(11)
    X, y = binary_data(rng, 30, 4)
    fit = bayes.fit_naive_bayes(X, y, alpha=0.0)

    def loglik(model):
        return bayes.naive_bayes_log_joint(model, X)[np.arange(len(y)), y].sum()

    best = loglik(fit)
    for _ in range(200):
        other = bayes.naive_bayes_model(rng.dirichlet([1.0, 1.0]), rng.uniform(size=(2, 4)))
        assert loglik(other) <= best + 1e-9
    # and it is the per-class Bernoulli MLE of lecture 03
    for c in (0, 1):
        for j in range(4):
            assert fit.p[c, j] == pytest.approx(mle.bernoulli_mle(X[y == c, j]))


@PROPERTY
@given(seed=seeds, d=st.integers(1, 7))
def test_naive_bayes_rule_is_linear(seed, d):
    """The theorem: u . (1, x) is the log posterior ratio on every x in {0, 1}^d."""
    rng = np.random.default_rng(seed)
    model = bayes.naive_bayes_model(rng.dirichlet([1.0, 1.0]), rng.uniform(0.01, 0.99, size=(2, d)))
    X = np.array(list(itertools.product([0, 1], repeat=d)))
    log_post = bayes.naive_bayes_log_posterior(model, X)
    u = bayes.naive_bayes_weights(model)
    assert u.shape == (d + 1,)
    np.testing.assert_allclose(u[0] + X @ u[1:], log_post[:, 1] - log_post[:, 0], atol=1e-9)
    clear = np.abs(log_post[:, 1] - log_post[:, 0]) > 1e-9
    np.testing.assert_array_equal(bayes.predict_linear(u, X)[clear], bayes.predict_naive_bayes(model, X)[clear])


def test_the_weights_by_hand():
    model = bayes.naive_bayes_model([0.5, 0.5], [[0.2], [0.8]])
    np.testing.assert_allclose(bayes.naive_bayes_weights(model), [-math.log(4), 2 * math.log(4)])
    np.testing.assert_array_equal(bayes.predict_linear([-1.0, 1.0, 1.0], [[1, 0], [1, 1], [0, 0]]), [1, 1, 0])


def test_naive_bayes_ties_go_to_the_larger_class_as_in_lecture_02():
    # equal priors, a feature as likely in both classes: every x is a tie, predicted as the larger class
    model = bayes.naive_bayes_model([0.5, 0.5], [[0.3], [0.3]], classes=[2, 5])
    np.testing.assert_array_equal(bayes.predict_naive_bayes(model, [[0], [1]]), [5, 5])
    np.testing.assert_array_equal(bayes.predict_linear(bayes.naive_bayes_weights(model), [[0], [1]]), [1, 1])
    rng = np.random.default_rng(9)
    for _ in range(30):  # integer weights: exact zeros; with y_pm = 2 y - 1 it is lecture 02's sign rule
        d = int(rng.integers(1, 6))
        u = rng.integers(-2, 3, size=d + 1).astype(float)
        X = rng.integers(0, 2, size=(20, d))
        np.testing.assert_array_equal(2 * bayes.predict_linear(u, X) - 1, perceptron.predict(u, perceptron.add_bias(X)))


def test_zero_counts_veto_without_smoothing_and_not_with_it():
    X = np.array([[1, 0], [1, 0], [0, 1], [0, 0]])
    y = np.array([1, 1, 0, 0])
    raw = bayes.fit_naive_bayes(X, y, alpha=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scores = bayes.naive_bayes_log_joint(raw, [[1, 1]])
    assert np.all(np.isneginf(scores))  # feature 0 never on in class 0, feature 1 never on in class 1
    with pytest.raises(ValueError, match="fit with alpha > 0"):
        bayes.naive_bayes_log_posterior(raw, [[1, 1]])
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        bayes.naive_bayes_weights(raw)
    smooth = bayes.fit_naive_bayes(X, y, alpha=1.0)
    assert np.all(np.isfinite(bayes.naive_bayes_log_posterior(smooth, [[1, 1]])))


@pytest.mark.parametrize(
    "call, exc, pattern",
    [
        (lambda: bayes.fit_naive_bayes([[0, 2]], [0]), ValueError, r"X must hold binary features 0 or 1; found 2.0 at index \(0, 1\)"),
        (lambda: bayes.fit_naive_bayes([[0, 1]], [0, 1]), ValueError, r"y must have shape \(1,\)"),
        (lambda: bayes.fit_naive_bayes([[0, 1]], [0], alpha=-1.0), ValueError, "alpha must be a finite number >= 0"),
        (lambda: bayes.fit_naive_bayes([[0, 1]], [0], alpha="1"), TypeError, "alpha must be a number"),
        (lambda: bayes.fit_naive_bayes([[0, 1]], [0.5]), TypeError, "y must hold integer class labels"),
        (lambda: bayes.naive_bayes_model([0.5, 0.5], [[1.2], [0.5]]), ValueError, r"model.p must hold probabilities"),
        (lambda: bayes.naive_bayes_model([0.5, 0.6], [[0.2], [0.5]]), ValueError, "sum to 1"),
        (lambda: bayes.naive_bayes_model([1.0], [0.5]), ValueError, r"p must have shape \(K, d\)"),
        (lambda: bayes.naive_bayes_weights(bayes.naive_bayes_model([0.2, 0.3, 0.5], np.full((3, 2), 0.5))),
         ValueError, "two classes"),
        (lambda: bayes.predict_naive_bayes("model", [[0]]), TypeError, "model must be a NaiveBayesModel"),
        (lambda: bayes.predict_naive_bayes(bayes.naive_bayes_model([0.5, 0.5], [[0.2], [0.5]]), [[0, 1]]),
         ValueError, "X has 2 features per row; the model has 1"),
        (lambda: bayes.predict_linear([1.0, 2.0], [[0, 1]]), ValueError, r"u has shape \(2,\), expected \(3,\)"),
    ],
)
def test_bad_naive_bayes_inputs_are_refused(call, exc, pattern):
    with pytest.raises(exc, match=pattern):
        call()


# --------------------------------------------------------------------------- the widget's drawing function


@pytest.fixture
def no_show(monkeypatch):
    plt.switch_backend("Agg")
    monkeypatch.setattr(plt, "show", lambda: None)
    yield
    plt.close("all")


@pytest.mark.parametrize("args", [(2.0, 0.0, 0.6, 1.0, 0.5), (1.5, 1.0, -0.5, 2.0, 0.3), (0.0, 0.0, 0.0, 1.0, 0.9),
                                  (1.0, 1.0, 0.8, 1.0, 0.5)])
def test_draw_bayes_explorer_returns_sane_errors(no_show, args):
    bayes_err, naive_err, constant_err = widgets.draw_bayes_explorer(*args, resolution=150)
    prior = args[-1]
    assert 0.0 <= bayes_err <= naive_err + 1e-12  # naive Bayes never beats Bayes (same grid)
    assert bayes_err <= constant_err + 1e-3 and constant_err == pytest.approx(min(prior, 1 - prior))
    model = widgets.two_gaussian_classes(*args)
    assert bayes_err == pytest.approx(bayes.bayes_error_gaussian(model, resolution=150), abs=1e-12)
    fig = plt.gcf()
    assert len(fig.axes) == 2


def test_draw_bayes_explorer_limits():
    plt.switch_backend("Agg")
    import unittest.mock as mock

    with mock.patch.object(plt, "show"):
        same = widgets.draw_bayes_explorer(0.0, 0.0, 0.3, 1.0, 0.5, resolution=100)  # identical classes
        assert same[0] == pytest.approx(0.5, abs=1e-6) and same[1] == pytest.approx(0.5, abs=1e-6)
        along = widgets.draw_bayes_explorer(1.0, 1.0, 0.8, 1.0, 0.5, resolution=100)  # eigenvector: no loss
        assert along[1] == pytest.approx(along[0], abs=1e-9)
    plt.close("all")


def test_explorer_builds_its_controls():
    pytest.importorskip("ipywidgets")
    plt.switch_backend("Agg")
    box = widgets.bayes_explorer()
    assert len(box.children) == 3
    plt.close("all")


@pytest.mark.parametrize("p", [[[0.2, 0.35, 0.7], [0.5, 0.9, 0.1]],   # all inside (0, 1): matrix products
                               [[0.2, 0.0, 0.7], [0.5, 1.0, 0.1]]])   # a 0 and a 1 (alpha = 0): term by term
def test_log_joint_is_the_log_prior_plus_the_feature_log_probabilities(p):
    model = bayes.naive_bayes_model([0.4, 0.6], p)
    X = np.array(list(itertools.product([0, 1], repeat=3)))
    expected = np.zeros((8, 2))
    for i, x in enumerate(X):
        for k in range(2):
            probs = [p[k][j] if x[j] else 1 - p[k][j] for j in range(3)]
            expected[i, k] = -math.inf if 0 in probs else math.log([0.4, 0.6][k]) + sum(map(math.log, probs))
    got = bayes.naive_bayes_log_joint(model, X)
    np.testing.assert_array_equal(np.isneginf(got), np.isneginf(expected))
    finite = np.isfinite(expected)
    np.testing.assert_allclose(got[finite], expected[finite], rtol=1e-12)
