"""Tests of ``mlcourse.data``: seeded, reproducible synthetic data sets with the promised properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlcourse import data

PROPERTY = settings(max_examples=60, deadline=None)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


# --------------------------------------------------------------------------- reproducibility


GENERATORS = {
    "separable_with_margin": lambda rng: data.separable_with_margin(30, 3, 0.1, rng),
    "uniform_in_ball": lambda rng: data.uniform_in_ball(30, 3, 2.0, rng),
    "two_gaussians": lambda rng: data.two_gaussians(30, rng),
}


def _arrays(out):
    if isinstance(out, data.SeparableData):
        return [out.X, out.y, out.w_star]
    if isinstance(out, tuple):
        return list(out)
    return [out]


@pytest.mark.parametrize("name", GENERATORS)
def test_same_seed_gives_the_same_data(name):
    make = GENERATORS[name]
    first, second = _arrays(make(7)), _arrays(make(7))
    from_generator = _arrays(make(np.random.default_rng(7)))
    from_numpy_int = _arrays(make(np.int64(7)))
    for a, b, c, e in zip(first, second, from_generator, from_numpy_int):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(a, e)


@pytest.mark.parametrize("name", GENERATORS)
def test_different_seeds_give_different_data(name):
    make = GENERATORS[name]
    X7, X8 = _arrays(make(7))[0], _arrays(make(8))[0]
    assert X7.shape == X8.shape
    assert not np.array_equal(X7, X8)


def test_a_generator_passed_in_is_used_and_advanced():
    rng = np.random.default_rng(3)
    a = data.uniform_in_ball(10, 2, 1.0, rng)
    b = data.uniform_in_ball(10, 2, 1.0, rng)
    assert not np.array_equal(a, b)  # the same generator continues its stream


# --------------------------------------------------------------------------- as_rng


def test_as_rng_accepts_generators_and_integer_seeds():
    rng = np.random.default_rng(0)
    assert data.as_rng(rng) is rng
    for seed in (5, np.int32(5), np.int64(5)):
        np.testing.assert_array_equal(data.as_rng(seed).random(4), np.random.default_rng(5).random(4))


@pytest.mark.parametrize("bad", [None, 1.0, 2.5, np.float64(3.0), True, "3", [1], np.random.RandomState(0)])
def test_as_rng_rejects_everything_else(bad):
    with pytest.raises(TypeError, match=r"^rng must be a numpy Generator or an integer seed"):
        data.as_rng(bad)


@pytest.mark.parametrize("bad", [None, 0.5])
def test_generators_reject_a_bad_rng(bad):
    with pytest.raises(TypeError, match="^rng"):
        data.separable_with_margin(10, 2, 0.1, bad)
    with pytest.raises(TypeError, match="^rng"):
        data.two_gaussians(10, bad)


# --------------------------------------------------------------------------- separable_with_margin


@PROPERTY
@given(
    n=st.integers(1, 80),
    d=st.integers(1, 6),
    radius=st.floats(0.1, 10.0),
    fraction=st.floats(0.01, 0.5),
    seed=seeds,
)
def test_separable_with_margin_keeps_its_promises(n, d, radius, fraction, seed):
    gamma = fraction * radius
    sample = data.separable_with_margin(n, d, gamma, seed, radius=radius)
    X, y, w_star = sample.X, sample.y, sample.w_star
    assert X.shape == (n, d) and y.shape == (n,) and w_star.shape == (d,)
    assert sample.gamma == gamma
    assert set(np.unique(y)) <= {-1, 1}
    assert np.linalg.norm(w_star) == pytest.approx(1.0)
    scores = X @ w_star
    np.testing.assert_array_equal(y, np.sign(scores))  # labelled by the side of w_star
    assert np.all(y * scores >= gamma)  # margin at least gamma (w_star is a unit vector)
    assert np.all(np.linalg.norm(X, axis=1) <= radius * (1 + 1e-12))  # inside the ball


def test_separable_with_margin_has_both_labels_on_a_large_sample():
    y = data.separable_with_margin(200, 2, 0.1, 0).y
    assert (y == 1).sum() > 50 and (y == -1).sum() > 50


@pytest.mark.parametrize("gamma, radius", [(1.0, 1.0), (1.5, 1.0), (3.0, 2.0)])
def test_separable_with_margin_requires_gamma_below_radius(gamma, radius):
    with pytest.raises(ValueError, match=r"^gamma must be smaller than radius"):
        data.separable_with_margin(10, 2, gamma, 0, radius=radius)


@pytest.mark.parametrize(
    "kwargs, error, pattern",
    [
        (dict(n=0), ValueError, r"^n must be at least 1"),
        (dict(n=10.0), TypeError, r"^n must be an integer"),
        (dict(d=0), ValueError, r"^d must be at least 1"),
        (dict(d="2"), TypeError, r"^d must be an integer"),
        (dict(gamma=0.0), ValueError, r"^gamma must be a finite number > 0"),
        (dict(gamma=-0.1), ValueError, r"^gamma must be a finite number > 0"),
        (dict(gamma=float("nan")), ValueError, r"^gamma must be a finite number > 0"),
        (dict(gamma=None), TypeError, r"^gamma must be a number"),
        (dict(radius=0.0), ValueError, r"^radius must be a finite number > 0"),
    ],
)
def test_separable_with_margin_bad_arguments(kwargs, error, pattern):
    args = dict(n=10, d=2, gamma=0.1, rng=0) | kwargs
    with pytest.raises(error, match=pattern):
        data.separable_with_margin(**args)


# --------------------------------------------------------------------------- uniform_in_ball


@pytest.mark.parametrize("d", [1, 2, 3, 4])
@pytest.mark.parametrize("r", [0.5, 3.0])
def test_uniform_in_ball(d, r):
    n = 20_000
    X = data.uniform_in_ball(n, d, r, rng=100 + d)
    assert X.shape == (n, d)
    norms = np.linalg.norm(X, axis=1)
    assert np.all(norms <= r * (1 + 1e-12))
    # The ball of radius r/2 has volume fraction p = 2^-d. The count inside it is
    # Binomial(n, p), so the observed fraction has standard deviation sqrt(p (1 - p) / n)
    # (<= 0.0036 here). A deviation beyond 5 standard deviations has probability < 1e-6 for
    # a correct sampler, while e.g. radii drawn uniformly (fraction 1/2 for every d) or points on
    # the sphere (fraction 0) miss by far more.
    p = 2.0**-d
    tolerance = 5 * math.sqrt(p * (1 - p) / n)
    assert abs(np.mean(norms <= r / 2) - p) <= tolerance
    # the same argument for the fraction beyond 0.9 r: 1 - 0.9^d
    q = 1 - 0.9**d
    assert abs(np.mean(norms > 0.9 * r) - q) <= 5 * math.sqrt(q * (1 - q) / n)
    # isotropy: each coordinate has mean 0 and variance r^2 / (d + 2) in the ball, so the
    # sample mean has standard deviation r / sqrt((d + 2) n)
    assert np.all(np.abs(X.mean(axis=0)) <= 5 * r / math.sqrt((d + 2) * n))


# --------------------------------------------------------------------------- two_gaussians


@pytest.mark.parametrize("n", [1, 2, 7, 40, 401])
@pytest.mark.parametrize("d", [1, 2, 5])
def test_two_gaussians_shapes_labels_and_balance(n, d):
    X, y = data.two_gaussians(n, rng=n * 10 + d, d=d)
    assert X.shape == (n, d) and y.shape == (n,)
    assert np.issubdtype(y.dtype, np.integer)
    n_neg = n // 2
    np.testing.assert_array_equal(y[:n_neg], -1)  # negatives first
    np.testing.assert_array_equal(y[n_neg:], 1)
    assert abs((y == 1).sum() - (y == -1).sum()) <= 1


@pytest.mark.parametrize("distance, spread", [(3.0, 1.0), (6.0, 0.5), (0.0, 2.0)])
def test_two_gaussians_class_centres(distance, spread):
    n, d = 20_000, 3
    X, y = data.two_gaussians(n, rng=5, distance=distance, spread=spread, d=d)
    for label in (-1, 1):
        pts = X[y == label]
        centre = np.ones(d)
        centre[0] += label * distance / 2
        # the sample mean of n/2 Gaussian points with sd `spread` has sd spread / sqrt(n/2)
        assert np.all(np.abs(pts.mean(axis=0) - centre) <= 5 * spread / math.sqrt(len(pts)))
        # the sample sd of m Gaussian values has relative sd about 1 / sqrt(2 m): the tolerance
        # 5 / sqrt(m) is about 7 of those
        assert np.allclose(pts.std(axis=0), spread, rtol=5 / math.sqrt(len(pts)))


def test_xor_square_is_xor():
    X, y = data.xor_square()
    assert X.shape == (4, 2) and sorted(map(tuple, X)) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    np.testing.assert_array_equal(y, np.where(X[:, 0] != X[:, 1], 1, -1))


def test_random_covariance_is_symmetric_positive_definite_and_seeded():
    for d in (1, 2, 5):
        S = data.random_covariance(d, rng=d)
        assert S.shape == (d, d)
        np.testing.assert_array_equal(S, S.T)
        assert np.linalg.eigvalsh(S).min() >= 0.3 - 1e-12
        np.testing.assert_array_equal(S, data.random_covariance(d, rng=d))
    with pytest.raises(ValueError, match="d must be at least 1"):
        data.random_covariance(0, rng=0)
    with pytest.raises(ValueError, match="ridge must be a finite number > 0"):
        data.random_covariance(2, rng=0, ridge=0.0)


# --------------------------------------------------------------------------- real data


@pytest.mark.parametrize("name", ["load_wine", "load_breast_cancer", "load_iris"])
def test_real_data_equal_scikit_learns_loaders(name):
    import sklearn.datasets

    ours, theirs = getattr(data, name)(), getattr(sklearn.datasets, name)()
    np.testing.assert_array_equal(ours.X, theirs.data)
    np.testing.assert_array_equal(ours.y, theirs.target)
    assert ours.y.dtype.kind == "i"
    assert list(ours.feature_names) == [str(f) for f in theirs.feature_names]
    assert list(ours.target_names) == [str(t) for t in theirs.target_names]


def test_diabetes_equals_scikit_learns_unscaled_loader():
    import sklearn.datasets

    ours, theirs = data.load_diabetes(), sklearn.datasets.load_diabetes(scaled=False)
    np.testing.assert_array_equal(ours.X, theirs.data)
    np.testing.assert_array_equal(ours.y, theirs.target)
    assert list(ours.feature_names) == list(theirs.feature_names) and ours.target_names == ()


def test_real_data_loaders_do_not_import_scikit_learn():
    import subprocess
    import sys

    code = "import sys; from mlcourse import data; data.load_wine(); data.load_diabetes(); print('sklearn' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
