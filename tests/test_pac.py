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


def test_the_realizable_bound_holds_in_simulation_on_thresholds():
    """H = thresholds on a grid of 101 points of [0, 1], the truth one of them, x uniform: at the
    calculated m a consistent learner misses by more than eps on at most a fraction delta of samples."""
    rng = np.random.default_rng(0)
    grid = np.linspace(0, 1, 101)
    eps, delta = 0.1, 0.1
    m = pac.realizable_sample_size(eps, delta, len(grid))
    truth = 0.37
    failures = 0
    for _ in range(2000):
        x = rng.uniform(0, 1, m)
        y = x >= truth
        consistent = [t for t in grid if np.array_equal(x >= t, y)]
        worst = max(abs(t - truth) for t in consistent)                 # the risk of the worst consistent h
        failures += worst > eps
    assert failures / 2000 <= delta


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
    (lambda: pac.agnostic_epsilon(0, 0.1, 10), ValueError, "m must be at least 1"),
    (lambda: pac.vc_sample_size(0.1, 0.1, -1), ValueError, "vc_dim must be an integer >= 0"),
    (lambda: pac.hoeffding_bound(10, 0.0), ValueError, "t must be a number > 0"),
    (lambda: pac.realizable_sample_size(True, 0.1, 10), TypeError, "eps must be a number"),
])
def test_bad_input_is_named(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()
