"""Unit and property tests of ``mlcourse.perceptron`` (lecture 02).

Checked against independent implementations where one exists (scikit-learn's Perceptron, a
re-implementation of the pocket algorithm from its docstring, finite differences, brute-force
enumeration of labellings) and, for the theorems, with hypothesis.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from mlcourse import data
from mlcourse.perceptron import (
    PerceptronPath,
    PerceptronResult,
    PerceptronRuns,
    PocketResult,
    add_bias,
    decision_function,
    error_driven_update,
    is_linearly_separable,
    margin,
    mistake_bound,
    mistakes,
    n_mistakes,
    perceptron_loss,
    perceptron_loss_gradient,
    perceptron_path,
    perceptron_update,
    pocket,
    predict,
    radius,
    separability_certificate,
    train_perceptron,
    train_perceptron_batch,
    train_perceptron_first_mistake,
    train_perceptron_many,
)

PROPERTY = settings(max_examples=60, deadline=None)

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def square_corners():
    return np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])


def overlapping_gaussians(seed, n=40):
    """Lifted two-class data whose classes overlap (distance 1, spread 1): not separable."""
    X, y = data.two_gaussians(n, seed, distance=1.0)
    return add_bias(X), y


# --------------------------------------------------------------------------- basics


def test_add_bias_prepends_a_column_of_ones():
    X = np.array([[2.0, 3.0], [-1.0, 0.5], [0.0, 0.0]])
    Z = add_bias(X)
    assert Z.shape == (3, 3)
    np.testing.assert_array_equal(Z[:, 0], 1.0)
    np.testing.assert_array_equal(Z[:, 1:], X)


def test_add_bias_accepts_lists_and_does_not_touch_its_input():
    X = [[1, 2]]
    np.testing.assert_array_equal(add_bias(X), [[1.0, 1.0, 2.0]])
    assert X == [[1, 2]]


def test_predict_is_the_sign_with_ties_to_plus_one():
    w = np.array([1.0, -1.0])
    X = np.array([[1.0, 1.0], [2.0, 1.0], [1.0, 2.0], [0.0, 0.0]])  # scores 0, 1, -1, 0
    np.testing.assert_array_equal(predict(w, X), [1, 1, -1, 1])
    # the zero vector puts everything on the boundary: every point is predicted +1
    np.testing.assert_array_equal(predict(np.zeros(2), X), [1, 1, 1, 1])


def test_decision_function_is_X_times_w():
    rng = np.random.default_rng(0)
    X, w = rng.standard_normal((7, 3)), rng.standard_normal(3)
    expected = [sum(X[i, j] * w[j] for j in range(3)) for i in range(7)]
    np.testing.assert_allclose(decision_function(w, X), expected, rtol=1e-12)


def test_mistakes_counts_points_on_the_boundary():
    w = np.array([1.0, -1.0])
    X = np.array([[1.0, 1.0], [2.0, 1.0], [1.0, 2.0], [3.0, 0.0]])  # scores 0, 1, -1, 3
    y = np.array([1, -1, -1, 1])  # y * score: 0 (boundary), -1 (wrong), 1, 3
    np.testing.assert_array_equal(mistakes(w, X, y), [True, True, False, False])
    assert n_mistakes(w, X, y) == 2
    assert isinstance(n_mistakes(w, X, y), int)
    # w = 0: every point is on the boundary, so every point is a mistake
    assert n_mistakes(np.zeros(2), X, y) == 4


# --------------------------------------------------------------------------- one update


def test_perceptron_update_on_a_mistake_adds_y_x():
    w, x = np.array([1.0, 0.0]), np.array([2.0, 1.0])  # w . x = 2
    np.testing.assert_array_equal(perceptron_update(w, x, -1), w - x)
    np.testing.assert_array_equal(perceptron_update(w, x, 1), w)


def test_perceptron_update_corrects_a_point_on_the_boundary():
    w, x = np.array([1.0, 0.0]), np.array([0.0, 3.0])  # w . x = 0
    np.testing.assert_array_equal(perceptron_update(w, x, 1), w + x)
    np.testing.assert_array_equal(perceptron_update(w, x, -1), w - x)
    # from w = 0 every point is corrected
    np.testing.assert_array_equal(perceptron_update(np.zeros(2), x, 1), x)


@pytest.mark.parametrize("y", [-1, 1])
def test_perceptron_update_returns_a_new_array_and_leaves_its_input_alone(y):
    w, x = np.array([0.5, -0.25, 2.0]), np.array([1.0, 1.0, 1.0])
    w_before, x_before = w.copy(), x.copy()
    out = perceptron_update(w, x, y)  # y = -1: correct side, no update; y = +1: no, w.x > 0
    assert out is not w
    assert not np.shares_memory(out, w)
    np.testing.assert_array_equal(w, w_before)
    np.testing.assert_array_equal(x, x_before)
    out[:] = 99.0  # writing to the result must not reach the caller's w
    np.testing.assert_array_equal(w, w_before)


@PROPERTY
@given(
    wx=st.integers(1, 5).flatmap(
        lambda d: st.tuples(
            hnp.arrays(float, d, elements=st.floats(-10, 10, allow_subnormal=False)),
            hnp.arrays(float, d, elements=st.floats(-10, 10, allow_subnormal=False)),
        )
    ),
    y=st.sampled_from([-1, 1]),
)
def test_error_driven_update_equals_perceptron_update_off_the_boundary(wx, y):
    w, x = wx
    assume(w @ x != 0)
    np.testing.assert_array_equal(error_driven_update(w, x, y), perceptron_update(w, x, y))


def test_error_driven_update_differs_on_the_boundary_for_a_positive_point():
    w, x = np.array([1.0, 0.0]), np.array([0.0, 2.0])  # w . x = 0, predicted +1
    np.testing.assert_array_equal(error_driven_update(w, x, 1), w)  # no correction
    np.testing.assert_array_equal(perceptron_update(w, x, 1), w + x)  # corrected
    # a negative point on the boundary is wrongly predicted +1: both rules correct it
    np.testing.assert_array_equal(error_driven_update(w, x, -1), w - x)
    np.testing.assert_array_equal(perceptron_update(w, x, -1), w - x)


# --------------------------------------------------------------------------- training runs


def test_train_perceptron_result_is_a_frozen_dataclass():
    sample = data.separable_with_margin(20, 2, 0.2, rng=1)
    result = train_perceptron(sample.X, sample.y)
    assert isinstance(result, PerceptronResult)
    with pytest.raises(AttributeError):
        result.n_mistakes = 0


def test_train_perceptron_history_replays_the_updates():
    sample = data.separable_with_margin(25, 3, 0.1, rng=4)
    X, y = sample.X, sample.y
    result = train_perceptron(X, y, record=True)
    assert result.converged and n_mistakes(result.w, X, y) == 0
    history = result.history
    assert len(history) == result.n_mistakes + 1
    np.testing.assert_array_equal(history[0], 0.0)
    np.testing.assert_array_equal(history[-1], result.w)
    # replay the online pass by hand: the k-th update corrects the k-th mistake met in order
    w, k = np.zeros(3), 0
    for _ in range(result.n_epochs):
        for x_i, y_i in zip(X, y):
            if y_i * (w @ x_i) <= 0:
                w = w + y_i * x_i
                k += 1
                np.testing.assert_array_equal(history[k], w)
    assert k == result.n_mistakes
    assert train_perceptron(X, y).history is None


def test_train_perceptron_from_a_separating_start_makes_no_update():
    sample = data.separable_with_margin(30, 3, 0.1, rng=2)
    w0 = sample.w_star.copy()
    result = train_perceptron(sample.X, sample.y, w0=w0)
    assert (result.n_mistakes, result.n_epochs, result.converged) == (0, 1, True)
    np.testing.assert_array_equal(result.w, sample.w_star)
    np.testing.assert_array_equal(w0, sample.w_star)  # w0 not modified


def test_train_perceptron_stops_after_max_epochs_on_non_separable_data():
    X, y = overlapping_gaussians(0)
    assert not is_linearly_separable(X, y).separable
    result = train_perceptron(X, y, max_epochs=7)
    assert result.n_epochs == 7
    assert result.converged is False
    assert result.n_mistakes >= 7  # a pass with no update would have stopped the run


def _sklearn_perceptron_w(X, y, epochs):
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf = Perceptron(fit_intercept=False, shuffle=False, eta0=1.0, tol=None, max_iter=epochs)
        clf.fit(X, y)
    return clf.coef_[0]


@pytest.mark.parametrize(
    "n, d, gamma, seed",
    [(10, 1, 0.2, 0), (30, 2, 0.05, 1), (50, 3, 0.1, 2), (80, 5, 0.02, 3), (40, 8, 0.15, 4),
     (60, 2, 0.3, 5)],
)
def test_train_perceptron_agrees_with_sklearn_on_separable_data(n, d, gamma, seed):
    sample = data.separable_with_margin(n, d, gamma, rng=seed)
    result = train_perceptron(sample.X, sample.y)
    assert result.converged
    np.testing.assert_array_equal(result.w, _sklearn_perceptron_w(sample.X, sample.y, result.n_epochs))


@pytest.mark.parametrize("seed, epochs", [(0, 1), (1, 2), (2, 5), (3, 13)])
def test_train_perceptron_agrees_with_sklearn_on_non_separable_data(seed, epochs):
    X, y = overlapping_gaussians(seed)
    assert not is_linearly_separable(X, y).separable
    result = train_perceptron(X, y, max_epochs=epochs)
    assert not result.converged and result.n_epochs == epochs
    np.testing.assert_array_equal(result.w, _sklearn_perceptron_w(X, y, epochs))


# --------------------------------------------------------------------------- Novikoff


@PROPERTY
@given(n=st.integers(1, 60), d=st.integers(1, 6), gamma=st.floats(0.02, 0.5), seed=seeds)
def test_novikoff_bound_online_perceptron(n, d, gamma, seed):
    sample = data.separable_with_margin(n, d, gamma, rng=seed)
    bound = mistake_bound(sample.X, sample.y, sample.w_star)
    # every pass before the last makes at least one update, so at most bound + 1 passes are needed
    result = train_perceptron(sample.X, sample.y, max_epochs=math.floor(bound) + 1)
    assert result.converged
    assert result.n_mistakes <= bound
    assert result.n_epochs <= result.n_mistakes + 1
    assert n_mistakes(result.w, sample.X, sample.y) == 0


@PROPERTY
@given(n=st.integers(1, 60), d=st.integers(1, 6), gamma=st.floats(0.02, 0.5), seed=seeds)
def test_novikoff_bound_first_mistake_perceptron(n, d, gamma, seed):
    sample = data.separable_with_margin(n, d, gamma, rng=seed)
    bound = mistake_bound(sample.X, sample.y, sample.w_star)
    result = train_perceptron_first_mistake(sample.X, sample.y, max_updates=math.floor(bound) + 1)
    assert result.converged
    assert result.n_mistakes <= bound
    assert result.n_epochs == result.n_mistakes + 1
    assert n_mistakes(result.w, sample.X, sample.y) == 0


@PROPERTY
@given(n=st.integers(1, 60), d=st.integers(1, 6), gamma=st.floats(0.02, 0.5), seed=seeds)
def test_batch_perceptron_iterations_within_n_times_novikoff(n, d, gamma, seed):
    # With m_t mistakes corrected at iteration t and K = sum m_t: w . w* >= gamma K and
    # ||w||^2 <= r^2 sum m_t^2 <= n r^2 K, so T <= K <= n (r / gamma)^2.
    sample = data.separable_with_margin(n, d, gamma, rng=seed)
    bound = n * (radius(sample.X) / margin(sample.w_star, sample.X, sample.y)) ** 2
    result = train_perceptron_batch(sample.X, sample.y, max_iterations=math.floor(bound) + 1)
    assert result.converged
    assert result.n_epochs <= result.n_mistakes <= bound
    assert n_mistakes(result.w, sample.X, sample.y) == 0


def test_batch_perceptron_update_adds_all_current_mistakes():
    # by hand: from w = 0 every point is a mistake, so the first step adds sum y_i x_i
    X = np.array([[1.0, 2.0], [1.0, -1.0], [1.0, 0.5]])
    y = np.array([1, -1, 1])
    result = train_perceptron_batch(X, y, max_iterations=1)
    np.testing.assert_array_equal(result.w, [1.0 - 1.0 + 1.0, 2.0 + 1.0 + 0.5])
    assert (result.n_mistakes, result.n_epochs) == (3, 1)


# --------------------------------------------------------------------------- every step of a run


def test_perceptron_path_by_hand():
    path = perceptron_path([[1.0, 0.0], [0.0, 1.0]], [1, 1])
    assert isinstance(path, PerceptronPath)
    np.testing.assert_array_equal(path.w, [[0, 0], [1, 0], [1, 1]])
    np.testing.assert_array_equal(path.added, [[True, False], [False, True]])
    assert path.converged is True
    # the batch rule adds both points at once: one iteration
    batch = perceptron_path([[1.0, 0.0], [0.0, 1.0]], [1, 1], rule="batch")
    np.testing.assert_array_equal(batch.w, [[0, 0], [1, 1]])
    np.testing.assert_array_equal(batch.added, [[True, True]])


@pytest.mark.parametrize("seed", range(8))
def test_perceptron_path_online_replays_train_perceptron(seed):
    sample = data.separable_with_margin(30, 3, 0.05, rng=seed)
    run = train_perceptron(sample.X, sample.y, record=True)
    path = perceptron_path(sample.X, sample.y, rule="online")
    np.testing.assert_array_equal(path.w, np.array(run.history))
    assert path.added.shape == (run.n_mistakes, 30)
    assert (path.added.sum(axis=1) == 1).all()
    assert path.converged == run.converged
    # each step adds y_i x_i for a point that is a mistake of the weights before it
    i = path.added.argmax(axis=1)
    np.testing.assert_array_equal(path.w[1:], path.w[:-1] + sample.y[i, None] * sample.X[i])
    assert (sample.y[i] * np.einsum("td,td->t", path.w[:-1], sample.X[i]) <= 0).all()


@pytest.mark.parametrize("seed", range(8))
def test_perceptron_path_first_mistake_corrects_the_lowest_index_mistake(seed):
    sample = data.separable_with_margin(40, 4, 0.05, rng=seed)
    X, y = sample.X, sample.y
    path = perceptron_path(X, y, rule="first_mistake")
    run = train_perceptron_first_mistake(X, y)
    np.testing.assert_array_equal(path.w[-1], run.w)
    assert len(path.added) == run.n_mistakes and path.converged == run.converged
    for w, added in zip(path.w[:-1], path.added):
        wrong = np.flatnonzero(y * (X @ w) <= 0)
        np.testing.assert_array_equal(np.flatnonzero(added), wrong[:1])


@pytest.mark.parametrize("seed", range(8))
def test_perceptron_path_batch_adds_every_current_mistake(seed):
    sample = data.separable_with_margin(40, 4, 0.05, rng=seed)
    X, y = sample.X, sample.y
    path = perceptron_path(X, y, rule="batch")
    run = train_perceptron_batch(X, y)
    np.testing.assert_array_equal(path.w[-1], run.w)
    assert len(path.added) == run.n_epochs
    assert int(path.added.sum()) == run.n_mistakes
    for w, added in zip(path.w[:-1], path.added):
        np.testing.assert_array_equal(added, y * (X @ w) <= 0)


def test_perceptron_path_stops_after_max_steps_on_non_separable_data():
    X, y = overlapping_gaussians(3)
    for rule in ("online", "first_mistake", "batch"):
        path = perceptron_path(X, y, rule=rule, max_steps=17)
        assert path.w.shape == (18, 3) and path.added.shape == (17, len(y))
        assert path.converged is False
    online = train_perceptron(X, y, max_epochs=50, record=True)
    np.testing.assert_array_equal(perceptron_path(X, y, max_steps=17).w, np.array(online.history[:18]))


# --------------------------------------------------------------------------- many runs side by side


def _padded(sets, n=None, d=None):
    """Stack data sets of different sizes and dimensions into (m, n, d) and (m, n), with sizes."""
    n = n or max(len(y) for _, y in sets)
    d = d or max(X.shape[1] for X, _ in sets)
    X_all, y_all = np.zeros((len(sets), n, d)), np.ones((len(sets), n), dtype=int)
    for j, (X, y) in enumerate(sets):
        X_all[j, :len(y), :X.shape[1]] = X
        y_all[j, :len(y)] = y
    return X_all, y_all, np.array([len(y) for _, y in sets])


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("max_epochs", [1, 3, 1000])
def test_train_perceptron_many_equals_one_run_at_a_time(seed, max_epochs):
    rng = np.random.default_rng(seed)
    sets = []
    for k in range(7):
        n, d = int(rng.integers(1, 40)), int(rng.integers(1, 5))
        if k % 2:
            sample = data.separable_with_margin(n, d, 0.05, rng)
            sets.append((sample.X, sample.y))
        else:
            X, y = data.two_gaussians(max(n, 2), rng, distance=1.0, d=d)
            sets.append((X, y))
    X_all, y_all, sizes = _padded(sets)
    many = train_perceptron_many(X_all, y_all, sizes=sizes, max_epochs=max_epochs, record=True)
    assert isinstance(many, PerceptronRuns)
    T, E = many.n_mistakes.max(), many.n_epochs.max()
    assert many.history.shape == (7, T + 1, X_all.shape[2])
    assert many.points.shape == (7, T) and many.epoch_ends.shape == (7, E)
    for j, (X, y) in enumerate(sets):
        one = train_perceptron(X, y, max_epochs=max_epochs, record=True)
        d, k = X.shape[1], one.n_mistakes
        np.testing.assert_array_equal(many.w[j, :d], one.w)
        np.testing.assert_array_equal(many.w[j, d:], 0.0)
        assert (many.n_mistakes[j], many.n_epochs[j], many.converged[j]) == (k, one.n_epochs, one.converged)
        np.testing.assert_array_equal(many.history[j, :k + 1, :d], np.array(one.history))
        np.testing.assert_array_equal(many.history[j, k + 1:, :d], np.broadcast_to(one.w, (T - k, d)))
        # the points behind the updates, and the updates counted at the end of each pass, replayed
        w, t, ends = np.zeros(d), 0, []
        for _ in range(one.n_epochs):
            for i, (x_i, y_i) in enumerate(zip(X, y)):
                if y_i * (w @ x_i) <= 0:
                    w, t = w + y_i * x_i, t + 1
                    assert many.points[j, t - 1] == i
            ends.append(t)
        np.testing.assert_array_equal(many.points[j, k:], -1)
        np.testing.assert_array_equal(many.epoch_ends[j], ends + [k] * (E - len(ends)))
    assert train_perceptron_many(X_all, y_all, sizes=sizes).history is None


@pytest.mark.parametrize("seed", range(5))
def test_train_perceptron_many_with_a_step_size_and_a_start(seed):
    rng = np.random.default_rng(seed)
    X, y = data.two_gaussians(25, rng, distance=1.5)
    X = add_bias(X)
    tau = 10 ** rng.uniform(-3, 3, size=4)
    w0 = rng.normal(size=(4, 3))
    stack_X, stack_y = np.stack([X] * 4), np.stack([y] * 4)
    got = train_perceptron_many(stack_X, stack_y, max_epochs=6, w0=w0, tau=tau, record=True)
    for j in range(4):  # a reference loop with the step size tau_j from w0_j
        w, history = w0[j].copy(), [w0[j].copy()]
        for _ in range(6):
            for x_i, y_i in zip(X, y):
                if y_i * (w @ x_i) <= 0:
                    w = w + tau[j] * y_i * x_i
                    history.append(w)
        np.testing.assert_allclose(got.w[j], w, rtol=1e-12, atol=0)
        np.testing.assert_allclose(got.history[j, :len(history)], history, rtol=1e-12, atol=0)
    # from w0 = 0 the step size only rescales the weights: the same points are corrected
    scaled = train_perceptron_many(stack_X, stack_y, max_epochs=6, tau=tau, record=True)
    plain = train_perceptron_many(stack_X, stack_y, max_epochs=6, record=True)
    np.testing.assert_array_equal(scaled.points, plain.points)
    gap = np.linalg.norm(scaled.history - tau[:, None, None] * plain.history, axis=2)
    assert (gap <= 1e-9 * tau[:, None] * (1 + np.linalg.norm(plain.history, axis=2))).all()


def test_train_perceptron_many_converged_by_the_last_update_of_the_last_pass():
    # one pass: the update on the second point fixes both, but the pass made an update
    X = np.array([[[1.0, 0.0], [1.0, 1.0]]])
    y = np.array([[1, 1]])
    one = train_perceptron(X[0], y[0], max_epochs=1)
    many = train_perceptron_many(X, y, max_epochs=1)
    assert (one.n_epochs, one.converged) == (1, True)
    assert (many.n_epochs[0], many.converged[0]) == (1, True)


@pytest.mark.parametrize(
    "kwargs, error, pattern",
    [
        (dict(X=np.zeros((3, 2))), ValueError, r"^X must be a 3-d array"),
        (dict(X=np.zeros((0, 2, 2))), ValueError, r"^X must be a 3-d array"),
        (dict(y=np.ones((2, 4))), ValueError, r"^y must have shape \(2, 3\)"),
        (dict(y=np.array([[1, 0, 1], [1, 1, 1]])), ValueError, r"^y must hold labels -1 and \+1"),
        (dict(sizes=[3, 4]), ValueError, r"^sizes must hold 2 integers between 1 and 3"),
        (dict(sizes=[3.0, 2.0]), ValueError, r"^sizes must hold"),
        (dict(tau=0.0), ValueError, r"^tau must be a number > 0"),
        (dict(tau=[1.0, 2.0, 3.0]), ValueError, r"^tau must be"),
        (dict(w0=np.zeros(3)), ValueError, r"^w0 has shape \(3,\), expected \(2,\) or \(2, 2\)"),
        (dict(max_epochs=0), ValueError, r"^max_epochs must be at least 1"),
        (dict(X=np.full((2, 3, 2), np.nan)), ValueError, r"^X contains NaN"),
    ],
)
def test_train_perceptron_many_refuses_bad_input(kwargs, error, pattern):
    args = dict(X=np.ones((2, 3, 2)), y=np.ones((2, 3), dtype=int)) | kwargs
    with pytest.raises(error, match=pattern):
        train_perceptron_many(**args)


def test_train_perceptron_many_ignores_labels_past_a_data_sets_size():
    X = np.array([[[1.0], [2.0], [3.0]]])
    got = train_perceptron_many(X, np.array([[1, 1, 7]]), sizes=np.array([2]))
    assert got.converged[0] and got.n_mistakes[0] == 1


# --------------------------------------------------------------------------- loss and gradient


@PROPERTY
@given(n=st.integers(1, 30), d=st.integers(1, 5), seed=seeds)
def test_perceptron_loss_gradient_matches_finite_differences(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(scale=3.0, size=(n, d))
    y = rng.choice([-1, 1], size=n)
    w = rng.standard_normal(d)
    assume(np.abs(X @ w).min() > 1e-6)
    # a step that moves no score by more than 5e-7 cannot cross the boundary, and the loss is
    # linear between crossings, so central differences are exact up to rounding
    h = 5e-7 / np.abs(X).max()
    numeric = np.array([
        (perceptron_loss(w + h * e, X, y) - perceptron_loss(w - h * e, X, y)) / (2 * h)
        for e in np.eye(d)
    ])
    np.testing.assert_allclose(perceptron_loss_gradient(w, X, y), numeric, atol=1e-4, rtol=1e-6)


def test_perceptron_loss_by_hand():
    w = np.array([1.0, -1.0])
    X = np.array([[1.0, 1.0], [2.0, 1.0], [1.0, 3.0]])  # scores 0, 1, -2
    y = np.array([1, -1, 1])  # y * score: 0, -1, -2
    assert perceptron_loss(w, X, y) == pytest.approx(0 + 1 + 2)
    # only strict mistakes (points 2 and 3) enter the gradient
    np.testing.assert_allclose(perceptron_loss_gradient(w, X, y), -(-X[1] + X[2]))


# --------------------------------------------------------------------------- margin, radius, bound


def test_margin_radius_and_mistake_bound_by_hand():
    X = np.array([[2.0, 0.0], [0.0, -1.0]])
    y = np.array([1, -1])
    w = np.array([1.0, 1.0])  # y * (X w) = (2, 1), ||w|| = sqrt(2)
    assert margin(w, X, y) == pytest.approx(1 / math.sqrt(2))
    assert margin(5 * w, X, y) == pytest.approx(1 / math.sqrt(2))  # scale-free
    assert radius(X) == pytest.approx(2.0)
    assert mistake_bound(X, y, w) == pytest.approx((2.0 / (1 / math.sqrt(2))) ** 2)  # = 8
    assert radius([[3.0, 4.0], [0.0, 1.0]]) == pytest.approx(5.0)


def test_margin_is_negative_for_a_misclassifying_w_and_mistake_bound_refuses_it():
    X = np.array([[2.0, 0.0], [0.0, -1.0]])
    y = np.array([1, -1])
    w = np.array([1.0, -1.0])  # y * (X w) = (2, -1)
    assert margin(w, X, y) == pytest.approx(-1 / math.sqrt(2))
    with pytest.raises(ValueError, match="does not separate"):
        mistake_bound(X, y, w)
    with pytest.raises(ValueError, match="does not separate"):
        mistake_bound(X, y, np.array([0.0, 1.0]))  # first point on the boundary: margin 0


def test_margin_of_the_zero_vector_is_an_error():
    with pytest.raises(ValueError, match="zero vector"):
        margin(np.zeros(2), np.eye(2), np.array([1, -1]))


# --------------------------------------------------------------------------- separability


def test_xor_is_not_linearly_separable():
    X, y = data.xor_square()
    np.testing.assert_array_equal(y, [1 if a != b else -1 for a, b in X])  # really XOR
    result = is_linearly_separable(add_bias(X), y)
    assert result.separable is False
    assert result.w is None


def test_fourteen_of_sixteen_labellings_of_a_square_are_separable():
    Z = add_bias(square_corners())
    xor = (-1, 1, 1, -1)
    separable = []
    for labels in itertools.product((-1, 1), repeat=4):
        y = np.array(labels)
        result = is_linearly_separable(Z, y)
        if result.separable:
            assert np.all(y * (Z @ result.w) > 0)
            separable.append(labels)
            # an independent witness: the perceptron converges on separable data
            assert train_perceptron(Z, y, max_epochs=1000).converged
        else:
            assert not train_perceptron(Z, y, max_epochs=200).converged
    assert len(separable) == 14
    missing = set(itertools.product((-1, 1), repeat=4)) - set(separable)
    assert missing == {xor, tuple(-v for v in xor)}


@PROPERTY
@given(n=st.integers(1, 50), d=st.integers(1, 5), gamma=st.floats(0.05, 0.5), seed=seeds)
def test_is_linearly_separable_agrees_with_the_perceptron(n, d, gamma, seed):
    sample = data.separable_with_margin(n, d, gamma, rng=seed)
    result = is_linearly_separable(sample.X, sample.y)
    assert result.separable
    assert np.all(sample.y * (sample.X @ result.w) > 0)
    # the LP's w is a separator too, so Novikoff bounds the run with its margin as well
    run = train_perceptron(sample.X, sample.y)
    assert run.converged
    assert run.n_mistakes <= mistake_bound(sample.X, sample.y, result.w) * (1 + 1e-9)


@pytest.mark.parametrize("seed", range(5))
def test_is_linearly_separable_rejects_a_point_with_both_labels(seed):
    sample = data.separable_with_margin(20, 3, 0.1, rng=seed)
    X = np.vstack([sample.X, sample.X[:1]])
    y = np.r_[sample.y, -sample.y[:1]]
    assert not is_linearly_separable(X, y).separable
    assert not train_perceptron(X, y, max_epochs=50).converged


def _check_certificate(result, X, y):
    if result.separable:
        assert result.weights is None
        assert np.all(y * (X @ result.w) > 0)
        assert np.all(y * (X @ result.w) >= 1 - 1e-6)
    else:
        assert result.w is None
        assert np.all(result.weights >= 0) and result.weights.sum() == pytest.approx(1.0)
        scale = np.linalg.norm(X, axis=1).max() or 1.0
        assert np.linalg.norm((result.weights * y) @ X) / scale == pytest.approx(result.residual, abs=1e-15)
        assert result.residual <= 1e-9


@pytest.mark.parametrize("seed", range(6))
def test_separability_certificate_agrees_with_linear_programming(seed):
    # SciPy's LP (is_linearly_separable) as the oracle, on labellings that are separable, that are not
    # (random labels, the exclusive or, a point with both labels) and data spanning four decades
    rng = np.random.default_rng(seed)
    verdicts = set()
    for k in range(60):
        n, d = int(rng.integers(1, 60)), int(rng.integers(1, 5))
        X = rng.standard_normal((n, d)) * 10 ** rng.uniform(-2, 2)
        y = [np.where(rng.standard_normal(n) > 0, 1, -1), np.where(X @ rng.standard_normal(d) > 0, 1, -1),
             np.where(X[:, 0] * X[:, -1] > 0, 1, -1)][k % 3]
        if k % 4 == 3:
            X, y = np.vstack([X, X[:1]]), np.r_[y, -y[:1]]
        Z = add_bias(X)
        result = separability_certificate(Z, y)
        assert result.separable == is_linearly_separable(Z, y).separable
        _check_certificate(result, Z, y)
        verdicts.add(result.separable)
    assert verdicts == {True, False}


@PROPERTY
@given(n=st.integers(1, 50), d=st.integers(1, 5), gamma=st.floats(0.001, 0.5), seed=seeds)
def test_separability_certificate_finds_the_separator_of_a_margin(n, d, gamma, seed):
    sample = data.separable_with_margin(n, d, gamma, rng=seed)
    result = separability_certificate(sample.X, sample.y)
    assert result.separable
    _check_certificate(result, sample.X, sample.y)
    # the shortest w with margins >= 1 has length at most 1 / gamma (the sample's unit separator scaled)
    assert np.linalg.norm(result.w) <= 1 / gamma * (1 + 1e-6)


def test_separability_certificate_proves_the_exclusive_or_inseparable():
    X = add_bias([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    result = separability_certificate(X, [1, 1, -1, -1])
    assert not result.separable
    np.testing.assert_allclose(result.weights, 0.25)
    _check_certificate(result, X, np.array([1, 1, -1, -1]))


# --------------------------------------------------------------------------- pocket


def reference_pocket(X, y, max_updates):
    """Independent pocket, straight from the docstring of ``mlcourse.perceptron.pocket``.

    Start at w = 0 with the pocket holding w = 0 and its n mistakes. Visit the points cyclically
    in order; on a mistake (y w.x <= 0) update w += y x, count the update, record the mistakes of
    the new w on all the data, and pocket the new w if that count is strictly smaller than the
    pocket's. Stop after max_updates updates or as soon as the running w makes no mistake.
    Returns (pocketed w, its mistakes, number of updates, list of recorded mistake counts).
    """
    n, d = X.shape
    w = np.zeros(d)
    best_w, best = w.copy(), n
    errors = []
    since_last_update = 0
    for i in itertools.cycle(range(n)):
        if len(errors) == max_updates or (errors and errors[-1] == 0) or since_last_update > n:
            break
        if y[i] * np.dot(X[i], w) <= 0:
            w = w + y[i] * X[i]
            since_last_update = 0
            count = sum(1 for j in range(n) if y[j] * np.dot(X[j], w) <= 0)
            errors.append(count)
            if count < best:
                best_w, best = w.copy(), count
        else:
            since_last_update += 1
    return best_w, best, len(errors), errors


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("max_updates", [1, 7, 60])
def test_pocket_matches_a_reference_implementation(seed, max_updates):
    X, y = overlapping_gaussians(seed, n=30)
    result = pocket(X, y, max_updates=max_updates)
    w, best, n_updates, errors = reference_pocket(X, y, max_updates)
    assert isinstance(result, PocketResult)
    np.testing.assert_array_equal(result.w, w)
    assert result.n_errors == best
    assert result.n_updates == n_updates == max_updates  # non-separable: the budget is used up
    np.testing.assert_array_equal(result.errors, errors)


@PROPERTY
@given(seed=seeds, n=st.integers(2, 40), max_updates=st.integers(1, 80))
def test_pocket_is_never_worse_than_the_plain_perceptron(seed, n, max_updates):
    X, y = overlapping_gaussians(seed, n=n)
    result = pocket(X, y, max_updates=max_updates)
    assert result.errors.shape == (result.n_updates,)
    assert result.n_errors == n_mistakes(result.w, X, y)
    assert result.n_errors == min(n, result.errors.min())
    # the perceptron makes at least one update per pass until it converges, so max_updates
    # passes reach the same number of updates as the pocket run (or convergence)
    run = train_perceptron(X, y, max_epochs=max_updates, record=True)
    assert len(run.history) > result.n_updates
    plain_w = run.history[result.n_updates]
    assert result.n_errors <= n_mistakes(plain_w, X, y)
    # the running weights of the pocket are the perceptron's: errors[k] is the count of w_(k+1)
    for k in range(result.n_updates):
        assert result.errors[k] == n_mistakes(run.history[k + 1], X, y)


@PROPERTY
@given(n=st.integers(1, 40), d=st.integers(1, 4), gamma=st.floats(0.05, 0.5), seed=seeds)
def test_pocket_finds_a_separator_on_separable_data(n, d, gamma, seed):
    sample = data.separable_with_margin(n, d, gamma, rng=seed)
    bound = mistake_bound(sample.X, sample.y, sample.w_star)
    result = pocket(sample.X, sample.y, max_updates=math.floor(bound) + 1)
    assert result.n_errors == 0
    assert n_mistakes(result.w, sample.X, sample.y) == 0
    assert result.n_updates == train_perceptron(sample.X, sample.y).n_mistakes
    assert result.errors[-1] == 0


# --------------------------------------------------------------------------- bad input


X_OK = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])
Y_OK = np.array([1, -1, 1])


@pytest.mark.parametrize(
    "call, error, pattern",
    [
        (lambda: train_perceptron(np.array([1.0, 2.0, 3.0]), Y_OK), ValueError, r"^X must be a 2-d"),
        (lambda: train_perceptron(X_OK[None], Y_OK), ValueError, r"^X must be a 2-d"),
        (lambda: train_perceptron(np.zeros((0, 2)), []), ValueError, r"^X has no rows"),
        (lambda: train_perceptron(X_OK, Y_OK[:2]), ValueError, r"^y must have shape \(3,\)"),
        (lambda: train_perceptron(X_OK, Y_OK[:, None]), ValueError, r"^y must have shape \(3,\)"),
        (lambda: train_perceptron(X_OK, [1, 0, 1]), ValueError, r"^y must hold labels -1 and \+1"),
        (lambda: train_perceptron(X_OK, [1, 2, -1]), ValueError, r"^y must hold labels"),
        (lambda: train_perceptron(X_OK, [1.0, np.nan, -1.0]), ValueError, r"^y must hold labels"),
        (lambda: train_perceptron(np.where(X_OK > 2, np.nan, X_OK), Y_OK), ValueError, r"^X contains NaN"),
        (lambda: train_perceptron([["a", "b"], ["c", "d"], ["e", "f"]], Y_OK), TypeError, r"^X must be an array of numbers"),
        (lambda: train_perceptron(X_OK, Y_OK, max_epochs=2.5), TypeError, r"^max_epochs must be an integer"),
        (lambda: train_perceptron(X_OK, Y_OK, max_epochs=10.0), TypeError, r"^max_epochs must be an integer"),
        (lambda: train_perceptron(X_OK, Y_OK, max_epochs="10"), TypeError, r"^max_epochs must be an integer"),
        (lambda: train_perceptron(X_OK, Y_OK, max_epochs=True), TypeError, r"^max_epochs must be an integer"),
        (lambda: train_perceptron(X_OK, Y_OK, max_epochs=0), ValueError, r"^max_epochs must be at least 1"),
        (lambda: train_perceptron(X_OK, Y_OK, w0=np.zeros(3)), ValueError, r"^w0 has shape \(3,\), expected \(2,\)"),
        (lambda: train_perceptron_first_mistake(X_OK, Y_OK, max_updates=1.5), TypeError, r"^max_updates"),
        (lambda: train_perceptron_batch(X_OK, Y_OK, max_iterations=-1), ValueError, r"^max_iterations"),
        (lambda: pocket(X_OK, Y_OK, max_updates=None), TypeError, r"^max_updates"),
        (lambda: pocket(X_OK, [-1, -1, 3]), ValueError, r"^y must hold labels"),
        (lambda: predict(np.zeros(3), X_OK), ValueError, r"^w has shape \(3,\), expected \(2,\)"),
        (lambda: predict(np.zeros((2, 1)), X_OK), ValueError, r"^w must be a 1-d array"),
        (lambda: predict([np.nan, 1.0], X_OK), ValueError, r"^w contains NaN"),
        (lambda: mistakes(np.zeros(2), X_OK, [1, 1]), ValueError, r"^y must have shape \(3,\)"),
        (lambda: perceptron_update(np.zeros(2), np.zeros(3), 1), ValueError, r"^x has shape \(3,\), expected \(2,\)"),
        (lambda: perceptron_update(np.zeros(2), np.ones(2), 0), ValueError, r"^y must be -1 or \+1"),
        (lambda: perceptron_update(np.zeros(2), np.ones(2), "1"), ValueError, r"^y must be -1 or \+1"),
        (lambda: error_driven_update(np.zeros(2), np.ones(2), 2), ValueError, r"^y must be -1 or \+1"),
        (lambda: error_driven_update(np.zeros(2), np.ones(3), 1), ValueError, r"^x has shape"),
        (lambda: margin(np.zeros(3), X_OK, Y_OK), ValueError, r"^w has shape"),
        (lambda: perceptron_loss(np.zeros(2), X_OK, [1, -1, 5]), ValueError, r"^y must hold labels"),
        (lambda: perceptron_loss_gradient(np.zeros(2), X_OK[:, :1], Y_OK), ValueError, r"^w has shape"),
        (lambda: radius([1.0, 2.0]), ValueError, r"^X must be a 2-d"),
        (lambda: is_linearly_separable(X_OK, [1, -1]), ValueError, r"^y must have shape"),
        (lambda: separability_certificate(X_OK, [1, -1]), ValueError, r"^y must have shape"),
        (lambda: separability_certificate(X_OK, [1, 0, 1]), ValueError, r"^y must hold labels"),
        (lambda: separability_certificate([[np.nan, 1.0]], [1]), ValueError, r"^X contains NaN"),
        (lambda: perceptron_path(X_OK, Y_OK, rule="stochastic"), ValueError, r"^rule must be 'online'"),
        (lambda: perceptron_path(X_OK, Y_OK, max_steps=0), ValueError, r"^max_steps must be at least 1"),
        (lambda: perceptron_path(X_OK, [1, 1]), ValueError, r"^y must have shape \(3,\)"),
        (lambda: add_bias([[1.0, np.inf]]), ValueError, r"^X contains NaN or infinite"),
    ],
)
def test_bad_input_is_refused_with_a_message_naming_the_argument(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()
