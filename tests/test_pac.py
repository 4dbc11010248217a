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


# --------------------------------------------------------------------------- binomial probabilities, two coins

@pytest.mark.parametrize("n, p", [(0, 0.3), (1, 0.5), (7, 0.0), (7, 1.0), (40, 0.01), (1000, 0.5), (3000, 0.9),
                                  (60_000, 0.37), (200_000, 0.5)])
def test_binomial_probabilities_agree_with_scipy(n, p):
    from scipy import stats

    pmf = pac.binomial_pmf(n, p)
    expected = stats.binom.pmf(np.arange(n + 1), n, p)
    assert pmf.shape == (n + 1,)
    shown = expected > 1e-290                                # (below, both underflow in their own ways)
    np.testing.assert_allclose(pmf[shown], expected[shown], rtol=5e-9)
    k = np.unique(np.concatenate([np.arange(-2, min(n, 60) + 3), np.linspace(-1, n + 1, 50).round(), [n / 2 + 0.5]]))
    for ours, theirs in ((pac.binomial_cdf, stats.binom.cdf), (pac.binomial_sf, stats.binom.sf)):
        got, want = ours(k, n, p), theirs(k, n, p)
        shown = want > 1e-290
        np.testing.assert_allclose(got[shown], want[shown], rtol=5e-9, atol=0)
        assert np.all(got[~shown] <= 1e-280)


def test_binomial_tails_broadcast_as_scipy_does():
    from scipy import stats

    k, n, p = np.arange(12)[:, None], np.array([[5, 10, 11]]), np.array([[0.2], [0.5], [0.7]] * 4)
    np.testing.assert_allclose(pac.binomial_cdf(k, n, p), stats.binom.cdf(k, n, p), rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(pac.binomial_sf(k, n, p), stats.binom.sf(k, n, p), rtol=1e-12, atol=1e-300)
    assert isinstance(pac.binomial_sf(3, 10, 0.5), float)


@pytest.mark.parametrize("gamma", [0.005, 0.05, 0.2, 0.45, 0.5])
def test_majority_error_is_the_binomial_sum(gamma):
    """beta(m) = P(K < m/2) + P(K = m/2)/2, K ~ Binomial(m, 1/2 + gamma), by SciPy, for every m up to 300 and a few
    large ones; and it is the Bayes error, the average error of the best rule, found by trying every rule on small m."""
    from scipy import stats

    m = np.concatenate([np.arange(301), [1000, 4001, 20_000]])
    a = 0.5 + gamma
    expected = stats.binom.cdf(np.ceil(m / 2) - 1, m, a) + np.where(m % 2 == 0, stats.binom.pmf(m // 2, m, a) / 2, 0.0)
    got = pac.majority_error(m, gamma)
    shown = expected > 1e-280
    np.testing.assert_allclose(got[shown], expected[shown], rtol=1e-9, atol=0)
    assert np.all(np.diff(got) <= 1e-15)                       # more flips never hurt the best rule
    for flips in range(0, 6):                                   # the Bayes error: the best of all 2^(2^m) rules on counts
        k = np.arange(flips + 1)
        plus, minus = stats.binom.pmf(k, flips, a), stats.binom.pmf(k, flips, 1 - a)
        assert math.isclose(pac.majority_error(flips, gamma), 0.5 * np.minimum(plus, minus).sum(), rel_tol=1e-12)


def test_majority_error_names_bad_input():
    with pytest.raises(ValueError, match="gamma must be a number in \\(0, 1/2\\]"):
        pac.majority_error(3, 0.0)
    with pytest.raises(ValueError, match="m must hold whole numbers >= 0"):
        pac.majority_error(2.5, 0.1)
    with pytest.raises(ValueError, match="n must be an integer >= 0"):
        pac.binomial_pmf(-1, 0.5)
    with pytest.raises(ValueError, match="p must be a probability"):
        pac.binomial_pmf(3, 1.5)
    with pytest.raises(ValueError, match="n must hold whole numbers"):
        pac.binomial_cdf(1, 2.5, 0.5)


# --------------------------------------------------------------------------- half-spaces in R^d, Radon

def _lp_separable(X, labels, bias=True):
    from mlcourse.perceptron import add_bias, is_linearly_separable

    return is_linearly_separable(add_bias(X) if bias else X, labels).separable


@pytest.mark.parametrize("d", [1, 2, 3, 4])
def test_halfspaces_in_d_dimensions_by_linear_programming(d):
    """Lecture 02's LP: every labeling of 0 and the unit vectors (and of random d + 1 points) is separable; of d + 2
    random points exactly 2^(d+2) - 2 are, the two others being the Radon labeling and its negation. The verdicts
    and witnesses of pac.halfspace_verdicts agree labeling by labeling, with the bias and without it."""
    rng = np.random.default_rng(40 + d)
    simplex = np.vstack([np.zeros(d), np.eye(d)])
    for X in (simplex, rng.standard_normal((d + 1, d)) * 10 ** rng.uniform(-2, 2, d)):
        verdicts = pac.halfspace_verdicts(X)
        assert verdicts.separable.all() and len(verdicts.labelings) == 2 ** (d + 1)
        assert all(_lp_separable(X, y) for y in verdicts.labelings)
        margins = verdicts.labelings * (verdicts.weights @ np.hstack([np.ones((d + 1, 1)), X]).T)
        assert (margins > 0).all()
    for _ in range(3):
        X = rng.standard_normal((d + 2, d)) * 10 ** rng.uniform(-2, 2, d) + rng.standard_normal(d)
        radon = pac.radon_labeling(X)
        assert radon[-1] == -1 and not _lp_separable(X, radon) and not _lp_separable(X, -radon)
        verdicts = pac.halfspace_verdicts(X)
        by_lp = np.array([_lp_separable(X, y) for y in verdicts.labelings])
        np.testing.assert_array_equal(verdicts.separable, by_lp)
        assert by_lp.sum() == 2 ** (d + 2) - 2
        impossible = verdicts.labelings[~by_lp]
        assert {tuple(row) for row in impossible} == {tuple(radon), tuple(-radon)}
        Z = np.hstack([np.ones((d + 2, 1)), X])
        assert np.linalg.norm(verdicts.dependence @ Z) <= 1e-9 * np.abs(verdicts.dependence) @ np.linalg.norm(Z, axis=1)
        for bias_free in (X[:d + 1],):                       # through the origin: d + 1 points are never shattered
            verdicts = pac.halfspace_verdicts(bias_free, bias=False)
            by_lp = np.array([_lp_separable(bias_free, y, bias=False) for y in verdicts.labelings])
            np.testing.assert_array_equal(verdicts.separable, by_lp)
            assert not by_lp.all()


def test_halfspace_verdicts_with_an_exact_dependence():
    """Three points on a line and a fourth: the middle one apart from the ends is impossible, whatever the fourth."""
    X = np.array([[0.0, 0], [1, 1], [2, 2], [0, 3]])
    verdicts = pac.halfspace_verdicts(X)
    by_lp = np.array([_lp_separable(X, y) for y in verdicts.labelings])
    np.testing.assert_array_equal(verdicts.separable, by_lp)
    assert (~by_lp).sum() == 4 and verdicts.dependence[3] == 0


def test_radon_labeling_on_known_sets():
    assert pac.radon_labeling([[0.0], [2.0], [1.0]]).tolist() == [1, 1, -1]
    assert pac.radon_labeling([[0.0, 0], [1, 1], [1, 0], [0, 1]]).tolist() == [1, 1, -1, -1]      # a square's diagonals
    assert pac.radon_labeling([[0.0, 0], [4, 0], [0, 4], [1, 1]]).tolist() == [1, 1, 1, -1]       # a point in a triangle
    assert pac.radon_labeling([[1.0, 1], [0, 0], [4, 0], [0, 4]]).tolist() == [1, -1, -1, -1]    # the inside point first


@pytest.mark.parametrize("call, pattern", [
    (lambda: pac.radon_labeling(np.zeros((3, 2))), "shape \\(d \\+ 2, d\\)"),
    (lambda: pac.radon_labeling([[0.0, 0], [1, 1], [2, 2], [0, 3]]), "general position"),
    (lambda: pac.radon_labeling([[0.0, 0], [1, 0], [0, 1], [0, 0.5]]), "general position"),
    (lambda: pac.halfspace_verdicts(np.zeros((5, 2))), "at most 4 points"),
    (lambda: pac.halfspace_verdicts([[0.0, 0], [1, 1], [2, 2]]), "general position"),
])
def test_radon_and_verdicts_name_bad_input(call, pattern):
    with pytest.raises(ValueError, match=pattern):
        call()


# --------------------------------------------------------------------------- structural risk minimisation

def test_histogram_erm_by_trying_every_classifier():
    """On 4 cells, every member of H_0, H_1, H_2 (2, 4 and 16 classifiers) tried on the same counts: ERM's training
    error and risk (ties to +1), Delta_k and the best risk, against the function's."""
    eta = np.array([0.9, 0.3, 0.5, 0.05])
    n, repetitions, seed = 13, 50, 3
    runs = pac.histogram_erm(n, eta, repetitions, seed)
    positives, negatives = pac._histogram_counts(n, eta, repetitions, np.random.default_rng(seed))
    counts = np.hstack([positives, negatives])
    for k in range(3):
        width = 4 >> k
        members = [np.repeat(np.array(labels) * 2 - 1, width) for labels in np.ndindex(*(2,) * 2**k)]
        risks = np.array([np.sum(np.where(h > 0, 1 - eta, eta)) / 4 for h in members])
        assert math.isclose(runs.best[k], risks.min())
        for r, (pos, neg) in enumerate(zip(counts[:, :4], counts[:, 4:])):
            empirical = np.array([np.sum(np.where(h > 0, neg, pos)) / n for h in members])
            assert math.isclose(runs.empirical[r, k], empirical.min(), abs_tol=1e-12)
            assert math.isclose(runs.deviation[r, k], np.abs(empirical - risks).max(), abs_tol=1e-12)
            cells_plus = pos.reshape(-1, width).sum(axis=1) >= neg.reshape(-1, width).sum(axis=1)
            erm = np.repeat(np.where(cells_plus, 1, -1), width)
            assert math.isclose(runs.risk[r, k], np.sum(np.where(erm > 0, 1 - eta, eta)) / 4, abs_tol=1e-12)


def test_histogram_counts_are_multinomial():
    """The counts per cell and label, drawn by binomial splits, have the multinomial law: their means and
    covariances over many samples match n p_c and n (diag(p) - p p^T) within a few standard errors."""
    eta = np.array([0.9, 0.3, 0.5, 0.05, 0.7, 0.2, 0.6, 0.4])
    n, repetitions = 50, 40_000
    positives, negatives = pac._histogram_counts(n, eta, repetitions, np.random.default_rng(9))
    counts = np.hstack([positives, negatives])
    assert (counts.sum(axis=1) == n).all()
    p = np.concatenate([eta, 1 - eta]) / 8
    mean_error = (counts.mean(axis=0) - n * p) / np.sqrt(n * p * (1 - p) / repetitions)
    assert np.abs(mean_error).max() < 5
    covariance = np.cov(counts, rowvar=False)
    expected = n * (np.diag(p) - np.outer(p, p))
    assert np.abs(covariance - expected).max() < 0.05 * n * p.max()


def test_histogram_erm_names_bad_input():
    with pytest.raises(ValueError, match="power of 2"):
        pac.histogram_erm(10, np.full(3, 0.5))
    with pytest.raises(ValueError, match="n must be at least 1"):
        pac.histogram_erm(0, np.full(4, 0.5))
