"""mlcourse.pac: the calculators solve their inequalities exactly (the smallest m), agree with each
other, hold in simulation on a concrete finite class, and name bad input."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlcourse import pac

probabilities = st.floats(1e-4, 0.999)


@settings(max_examples=60, deadline=None)
@given(eps=probabilities, delta=probabilities, log_size=st.floats(0, 200))
def test_finite_class_sizes_are_the_smallest_that_meet_their_bounds(eps, delta, log_size):
    size = math.exp(log_size)
    m = pac.realizable_sample_size(eps, delta, size)
    assert size * math.exp(-eps * m) <= delta * (1 + 1e-9)
    assert m == 1 or size * math.exp(-eps * (m - 1)) > delta * (1 - 1e-9)
    m = pac.agnostic_sample_size(eps, delta, size)
    assert 2 * size * math.exp(-2 * m * (eps / 2) ** 2) <= delta * (1 + 1e-9)
    assert m == 1 or 2 * size * math.exp(-2 * (m - 1) * (eps / 2) ** 2) > delta * (1 - 1e-9)


@settings(max_examples=40, deadline=None)
@given(m=st.integers(1, 10**6), delta=probabilities, log_size=st.floats(0, 50))
def test_epsilon_from_m_inverts_the_sample_size(m, delta, log_size):
    size = math.exp(log_size)
    for eps_of, m_of in ((pac.realizable_epsilon, pac.realizable_sample_size), (pac.agnostic_epsilon, pac.agnostic_sample_size)):
        eps = eps_of(m, delta, size)
        if eps < 1:
            assert m_of(eps * (1 + 1e-9), delta, size) <= m


def test_a_huge_class_size_given_as_an_integer_works():
    assert pac.realizable_sample_size(0.1, 0.05, 2**1000) == math.ceil((1000 * math.log(2) + math.log(20)) / 0.1)


def _plain_draws(n, size, noise, repetitions, seed):
    """The grid, the true threshold and the samples (x, noisy labels) that the simulation draws, drawn again."""
    rng = np.random.default_rng(seed)
    grid = np.linspace(0, 1, size)
    truth = grid[np.argmin(np.abs(grid - pac.TRUE_THRESHOLD))]
    x = rng.uniform(0, 1, (repetitions, n))
    return grid, truth, x, (x >= truth) ^ (rng.uniform(0, 1, (repetitions, n)) < noise)


def _worst_minimiser_by_loop(x, y, grid, truth, noise):
    """The excess risk of the worst ERM among the grid thresholds, written as plainly as possible."""
    errors = [np.sum((x >= t) != y) for t in grid]
    best = min(errors)
    return max((1 - 2 * noise) * abs(t - truth) for t, e in zip(grid, errors) if e == best)


@pytest.mark.parametrize("m, size, noise", [(5, 11, 0.0), (30, 101, 0.0), (1, 2, 0.0), (40, 21, 0.2), (7, 5, 0.45)])
def test_threshold_simulation_equals_a_plain_loop(m, size, noise):
    risks = pac.threshold_erm_excess_risks(m, size, noise, repetitions=300, seed=7)
    grid, truth, x, y = _plain_draws(m, size, noise, 300, 7)
    expected = [_worst_minimiser_by_loop(a, b, grid, truth, noise) for a, b in zip(x, y)]
    np.testing.assert_allclose(risks, expected, rtol=0, atol=1e-12)


def test_threshold_simulation_is_the_same_in_chunks():
    """Long samples are simulated a chunk of repetitions at a time; the draws must not depend on it."""
    whole = pac.threshold_erm_excess_risks(3000, 11, 0.1, repetitions=3, seed=2)
    assert whole.shape == (3,) and (whole >= 0).all()
    np.testing.assert_array_equal(pac.threshold_erm_excess_risks(3000, 11, 0.1, repetitions=700, seed=2)[:3], whole)


def test_the_bounds_hold_in_simulation_on_thresholds():
    """At the calculated m the worst consistent hypothesis (realizable) or the worst ERM (agnostic, 20%
    label noise) misses by more than eps on at most a fraction delta of samples; at a tenth of m it does not."""
    eps, delta, size = 0.1, 0.1, 101
    m = pac.realizable_sample_size(eps, delta, size)
    assert np.mean(pac.threshold_erm_excess_risks(m, size) > eps) <= delta
    assert np.mean(pac.threshold_erm_excess_risks(m // 10, size) > eps) > delta
    m = pac.agnostic_sample_size(eps, delta, size)
    assert np.mean(pac.threshold_erm_excess_risks(m, size, 0.2) > eps) <= delta
    assert np.mean(pac.threshold_erm_excess_risks(m // 60, size, 0.2) > eps) > delta


def test_hoeffding_bound_holds_in_simulation():
    rng = np.random.default_rng(1)
    for m, p, t in ((20, 0.3, 0.15), (200, 0.5, 0.05), (1000, 0.1, 0.02)):
        means = rng.binomial(m, p, size=20_000) / m
        assert np.mean(np.abs(means - p) >= t) <= pac.hoeffding_bound(m, t)


def test_sauer_bound_is_the_growth_function_of_intervals():
    """Intervals on a line have VC dimension 2; on m points they pick C(m+1, 2) + 1 subsets, Sauer's bound."""
    for m in range(1, 12):
        x = np.arange(m)
        patterns = {tuple((x >= a) & (x <= b)) for a in range(-1, m + 1) for b in range(-1, m + 1)}
        assert len(patterns) == math.comb(m + 1, 2) + 1 == pac.sauer_bound(m, 2)


def test_vc_sample_size_is_the_smallest_m_and_the_bound_decreases():
    for eps, delta, d in ((0.2, 0.1, 1), (0.1, 0.05, 3), (0.3, 0.2, 10)):
        m = pac.vc_sample_size(eps, delta, d)
        assert pac.vc_epsilon(m, delta, d) <= eps < pac.vc_epsilon(m - 1, delta, d)
        ms = np.unique(np.geomspace(1, 4 * m, 60).astype(int))
        values = [pac.vc_epsilon(int(k), delta, d) for k in ms]
        assert all(a >= b for a, b in zip(values, values[1:]))


@pytest.mark.parametrize("call, error, pattern", [
    (lambda: pac.realizable_sample_size(0.0, 0.1, 10), ValueError, "eps must be strictly between 0 and 1"),
    (lambda: pac.agnostic_sample_size(0.1, 1.0, 10), ValueError, "delta must be strictly between 0 and 1"),
    (lambda: pac.realizable_sample_size(0.1, 0.1, 0), ValueError, "class_size must be a finite number >= 1"),
    (lambda: pac.realizable_sample_size(0.1, 0.1, "ten"), TypeError, "class_size must be a number"),
    (lambda: pac.agnostic_epsilon(0, 0.1, 10), ValueError, "n must be at least 1"),
    (lambda: pac.vc_sample_size(0.1, 0.1, -1), ValueError, "vc_dim must be an integer >= 0"),
    (lambda: pac.hoeffding_bound(10, 0.0), ValueError, "t must be a number > 0"),
    (lambda: pac.realizable_sample_size(True, 0.1, 10), TypeError, "eps must be a number"),
])
def test_bad_input_is_named(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()


# --------------------------------------------------------------------------- labelings, shattering, growth

def _rows(labelings):
    """The labelings as a set of tuples of booleans (True for +1), after checking they are -1 and +1."""
    assert set(np.unique(labelings)) <= {-1, 1}
    return {tuple(bool(v > 0) for v in row) for row in labelings}


@settings(max_examples=40, deadline=None)
@given(x=st.lists(st.integers(-5, 5), min_size=1, max_size=9))
def test_threshold_and_interval_labelings_are_those_of_every_endpoint(x):
    """Any threshold or interval picks the same points as one whose ends sit at half-integers between the
    (integer) points; trying all such ends is an independent enumeration, ties included."""
    x = np.array(x, dtype=float)
    ends = np.arange(-6, 7) + 0.5
    assert _rows(pac.threshold_labelings(x)) == {tuple(x >= t) for t in ends}
    assert _rows(pac.interval_labelings(x)) == {tuple((x >= a) & (x <= b)) for a in ends for b in ends}
    assert len(pac.interval_labelings(x)) == len(_rows(pac.interval_labelings(x)))     # rows are distinct


def test_rectangle_labelings_by_trying_every_box():
    """Boxes whose sides pass through the points' coordinates (or beyond them) pick out every subset any box
    can; enumerating them all is an independent count."""
    rng = np.random.default_rng(3)
    for m in (1, 2, 4, 5, 6):
        for X in (rng.integers(0, 4, (m, 2)).astype(float), rng.standard_normal((m, 2))):
            xs, ys = (np.unique(X[:, k]) for k in (0, 1))
            boxes = {tuple(((X[:, 0] >= a) & (X[:, 0] <= b) & (X[:, 1] >= c) & (X[:, 1] <= d)))
                     for a in xs for b in xs for c in ys for d in ys}
            boxes.add((False,) * m)
            assert _rows(pac.rectangle_labelings(X)) == boxes


def test_halfplane_labelings_agree_with_linear_programming():
    """Lecture 02's LP decides separability labeling by labeling: the same set as the count by pairs."""
    from mlcourse.perceptron import add_bias, is_linearly_separable

    rng = np.random.default_rng(4)
    for m in (1, 2, 3, 4, 5, 6):
        X = rng.standard_normal((m, 2)) * 10 ** rng.uniform(-2, 2)
        by_lp = {labels for labels in np.ndindex(*(2,) * m)
                 if len(set(labels)) == 1 or is_linearly_separable(add_bias(X), 2 * np.array(labels) - 1).separable}
        assert _rows(pac.halfplane_labelings(X)) == {tuple(bool(v) for v in labels) for labels in by_lp}
        assert len(by_lp) == m * m - m + 2


def test_vc_dimensions_and_sauer_on_counted_growth():
    """Counted labelings never exceed Sauer's bound with the true VC dimension, and shattering stops there:
    thresholds 1, intervals 2, half-planes 3, rectangles 4 (a diamond is shattered, five points never)."""
    rng = np.random.default_rng(5)
    diamond = np.array([[0.0, 1], [1, 0], [0, -1], [-1, 0]])
    assert pac.shatters(pac.rectangle_labelings(diamond))
    for m in range(1, 9):
        X = rng.standard_normal((m, 2))
        for labelings, d in ((pac.threshold_labelings(X[:, 0]), 1), (pac.interval_labelings(X[:, 0]), 2),
                             (pac.halfplane_labelings(X), 3), (pac.rectangle_labelings(X), 4)):
            assert len(labelings) <= pac.sauer_bound(m, d)
            assert m <= d or not pac.shatters(labelings)
            assert m > d or d == 4 or pac.shatters(labelings)       # lines, intervals, half-planes: any set of <= d
        assert len(pac.threshold_labelings(X[:, 0])) == pac.sauer_bound(m, 1)
        assert len(pac.interval_labelings(X[:, 0])) == pac.sauer_bound(m, 2)
    assert not any(pac.shatters(pac.rectangle_labelings(rng.standard_normal((5, 2)))) for _ in range(200))


@pytest.mark.parametrize("call, error, pattern", [
    (lambda: pac.threshold_labelings(np.zeros((2, 2))), ValueError, "x must be a non-empty 1-d array"),
    (lambda: pac.interval_labelings([]), ValueError, "x must be a non-empty 1-d array"),
    (lambda: pac.rectangle_labelings(np.zeros((17, 2))), ValueError, "at most 16 points"),
    (lambda: pac.halfplane_labelings(np.zeros((3, 3))), ValueError, "shape \\(n, 2\\)"),
    (lambda: pac.halfplane_labelings([[0, 0], [1, 1], [2, 2]]), ValueError, "general position"),
    (lambda: pac.halfplane_labelings([[0, 0], [0, 0]]), ValueError, "general position"),
    (lambda: pac.shatters([1, 0]), ValueError, "labelings must be a 2-d array"),
    (lambda: pac.threshold_erm_excess_risks(10, 11, noise=0.5), ValueError, "noise must be a number in \\[0, 1/2\\)"),
])
def test_bad_labelings_input_is_named(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()


def test_grid_bins_are_searchsorted():
    """The arithmetic binning of the threshold simulation, on random points and on the grid points and
    their floating-point neighbours, where rounding could put a point in the wrong bin."""
    rng = np.random.default_rng(6)
    for size in (1, 2, 3, 11, 101, 1001, 4097):
        grid = np.linspace(0, 1, size)
        x = np.concatenate([rng.uniform(0, 1, 5000), grid, np.nextafter(grid, -1).clip(0, 1), np.nextafter(grid, 2).clip(0, 1)])
        np.testing.assert_array_equal(pac._grid_bins(x, grid), np.searchsorted(grid, x, side="right"))


def test_uniform_deviation_of_thresholds_by_a_plain_loop():
    """Delta = max over the grid of |errors / n - (noise + (1 - 2 noise)|t - t*|)|, on the same draws."""
    for n, size, noise in ((20, 11, 0.2), (3, 5, 0.0), (50, 101, 0.4)):
        got = pac.threshold_uniform_deviations(n, size, noise, repetitions=200, seed=3)
        grid, truth, x, y = _plain_draws(n, size, noise, 200, 3)
        expected = [max(abs(np.mean((a >= t) != b) - (noise + (1 - 2 * noise) * abs(t - truth))) for t in grid)
                    for a, b in zip(x, y)]
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
