"""The library's own special functions (mlcourse._special) against SciPy's, edge cases included."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special

from mlcourse import _special


def _random_logs(rng, shape):
    """Log-weights across scales, with some -inf (weight 0) entries and whole -inf rows."""
    a = rng.standard_normal(shape) * 10 ** rng.uniform(-2, 3, size=shape[:1] + (1,) * (len(shape) - 1))
    a[rng.uniform(size=shape) < 0.2] = -np.inf
    a[0] = -np.inf
    return a


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_logsumexp_matches_scipy(axis, keepdims):
    rng = np.random.default_rng(3)
    for shape in ((5, 7), (1, 1), (4, 3, 2)):
        a = _random_logs(rng, shape)
        with np.errstate(divide="ignore"):
            want = special.logsumexp(a, axis=axis, keepdims=keepdims)
        got = _special.logsumexp(a, axis=axis, keepdims=keepdims)
        assert np.shape(got) == np.shape(want)
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=0)


def test_logsumexp_no_overflow_and_infinities():
    big = np.array([1000.0, 1000.0])
    assert _special.logsumexp(big) == pytest.approx(1000 + np.log(2), rel=1e-15)
    assert _special.logsumexp(np.array([-np.inf, -np.inf])) == -np.inf
    assert _special.logsumexp(np.array([np.inf, 1.0])) == np.inf
    assert np.isnan(_special.logsumexp(np.array([np.nan, 1.0])))
    assert np.ndim(_special.logsumexp(np.array([1.0, 2.0]))) == 0


def test_xlogy_matches_scipy_including_zeros_and_nan():
    rng = np.random.default_rng(4)
    x = rng.choice([0.0, 1.0, 2.5, -3.0], size=(200,))
    y = rng.choice([0.0, 1e-300, 0.5, 7.0, -1.0, np.nan, np.inf], size=(200,))
    with np.errstate(divide="ignore", invalid="ignore"):
        want = special.xlogy(x, y)
    got = _special.xlogy(x, y)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got[~np.isnan(want)], want[~np.isnan(want)], rtol=1e-15, atol=0)
    assert _special.xlogy(0.0, 0.0) == 0.0 and np.ndim(_special.xlogy(0.0, 0.0)) == 0
    assert np.isnan(_special.xlogy(0.0, np.nan))


def test_ndtr_matches_scipy_in_both_tails():
    z = np.r_[np.linspace(-37, 8, 400), 0.0]                  # down to 6e-300, above the subnormals
    np.testing.assert_allclose(_special.ndtr(z), special.ndtr(z), rtol=1e-12, atol=0)
