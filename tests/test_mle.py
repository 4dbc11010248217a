"""Unit and property tests of ``mlcourse.mle`` (lecture 03: maximum likelihood).

Checked against independent implementations where one exists (``scipy.stats`` log-pmfs and
log-pdfs, ``norm.fit`` and ``multivariate_normal.fit``, ``scipy.optimize.minimize`` on the negative
log-likelihood, scikit-learn's discriminant analysis and Gaussian naive Bayes), against the
calculus (central finite differences vanish at every closed form) and, for the lecture's claims
(the MLE maximises the likelihood, the 1/n variance is biased by (n-1)/n, MAP tends to the MLE),
with hypothesis and seeded Monte Carlo with stated error margins.
"""

from __future__ import annotations

import dataclasses
import doctest
import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import optimize, stats
from scipy.special import expit, gammaln

from mlcourse import mle
from mlcourse.mle import (
    BetaPosterior,
    GaussianClassModel,
    GaussianMLE,
    LinearGaussianMLE,
    MultivariateGaussianMLE,
    bernoulli_log_likelihood,
    bernoulli_map,
    bernoulli_mle,
    bernoulli_posterior,
    bernoulli_posterior_mean,
    beta_mode,
    categorical_log_likelihood,
    categorical_mle,
    class_log_scores,
    fit_gaussian_classes,
    gaussian_density,
    gaussian_log_density,
    gaussian_log_likelihood,
    gaussian_mle,
    linear_gaussian_log_likelihood,
    linear_gaussian_mle,
    log_posterior,
    multivariate_gaussian_log_likelihood,
    multivariate_gaussian_mle,
    poisson_log_likelihood,
    poisson_mle,
    predict_gaussian_classes,
)

PROPERTY = settings(max_examples=60, deadline=None)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def random_spd(rng, d, floor=0.3):
    """A random symmetric positive definite d x d matrix, eigenvalues >= floor."""
    A = rng.standard_normal((d, d))
    return A @ A.T + floor * np.eye(d)


def random_symmetric(rng, d):
    E = rng.standard_normal((d, d))
    return (E + E.T) / 2


def central_difference(f, t, h):
    return (f(t + h) - f(t - h)) / (2 * h)


def test_docstring_examples_run():
    result = doctest.testmod(mle, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 8 and result.failed == 0


# --------------------------------------------------------------------------- log-likelihoods vs scipy.stats


@pytest.mark.parametrize("seed", range(4))
def test_bernoulli_log_likelihood_is_the_sum_of_scipy_logpmf(seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 2, size=rng.integers(1, 60))
    thetas = np.array([0.01, 0.2, 0.5, 0.77, 0.999])
    for theta in thetas:
        expected = stats.bernoulli.logpmf(x, theta).sum()
        assert bernoulli_log_likelihood(theta, x) == pytest.approx(expected, rel=1e-12)
        assert isinstance(bernoulli_log_likelihood(theta, x), float)
    # an array of thetas gives one value per theta, of the same shape
    grid = bernoulli_log_likelihood(thetas.reshape(5, 1), x)
    assert grid.shape == (5, 1)
    np.testing.assert_allclose(grid[:, 0], [stats.bernoulli.logpmf(x, t).sum() for t in thetas], rtol=1e-12)


def test_bernoulli_log_likelihood_at_the_ends_is_minus_inf_or_zero_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a RuntimeWarning (log of 0) would fail the test
        assert bernoulli_log_likelihood(0.0, [0, 1, 0]) == -math.inf
        assert bernoulli_log_likelihood(1.0, [0, 1, 1]) == -math.inf
        assert bernoulli_log_likelihood(0.0, [0, 0, 0]) == 0.0  # 0 log 0 = 0
        assert bernoulli_log_likelihood(1.0, [1, 1]) == 0.0
        ends = bernoulli_log_likelihood(np.array([0.0, 1.0]), [1, 0])
        np.testing.assert_array_equal(ends, [-np.inf, -np.inf])
    assert bernoulli_log_likelihood(0.3, []) == 0.0  # no data: the empty product is 1


@pytest.mark.parametrize("seed", range(4))
def test_categorical_log_likelihood_is_the_sum_of_one_trial_multinomial_logpmf(seed):
    rng = np.random.default_rng(seed)
    K = int(rng.integers(2, 7))
    p = rng.dirichlet(np.ones(K))
    x = rng.integers(0, K, size=int(rng.integers(1, 50)))
    one_hot = np.eye(K, dtype=int)[x]
    expected = stats.multinomial.logpmf(one_hot, 1, p).sum()
    assert categorical_log_likelihood(p, x) == pytest.approx(expected, rel=1e-12)
    # from counts: the multinomial log-pmf of the counts minus the log of n! / prod n_j!
    counts = np.bincount(x, minlength=K)
    n = counts.sum()
    log_coefficient = gammaln(n + 1) - gammaln(counts + 1).sum()
    expected_counts = stats.multinomial.logpmf(counts, n, p) - log_coefficient
    assert categorical_log_likelihood(p, counts=counts) == pytest.approx(expected_counts, rel=1e-10)


def test_categorical_log_likelihood_with_a_zero_probability():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert categorical_log_likelihood([0.5, 0.0, 0.5], [0, 2, 2]) == pytest.approx(3 * math.log(0.5))
        assert categorical_log_likelihood([0.5, 0.0, 0.5], [0, 1]) == -math.inf
        assert categorical_log_likelihood([0.5, 0.0, 0.5], counts=[1, 1, 0]) == -math.inf


@pytest.mark.parametrize("seed", range(4))
def test_poisson_log_likelihood_is_the_sum_of_scipy_logpmf(seed):
    rng = np.random.default_rng(seed)
    x = rng.poisson(rng.uniform(0.2, 20), size=int(rng.integers(1, 60)))
    lams = np.array([0.05, 1.0, 3.3, 17.0, 80.0])
    for lam in lams:
        assert poisson_log_likelihood(lam, x) == pytest.approx(stats.poisson.logpmf(x, lam).sum(), rel=1e-12)
    np.testing.assert_allclose(poisson_log_likelihood(lams, x),
                               [stats.poisson.logpmf(x, lam).sum() for lam in lams], rtol=1e-12)


def test_poisson_log_likelihood_at_rate_zero():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert poisson_log_likelihood(0.0, [0, 0, 0]) == 0.0
        assert poisson_log_likelihood(0.0, [0, 2]) == -math.inf
    assert stats.poisson.logpmf([0, 2], 0.0).sum() == -math.inf  # scipy agrees


@pytest.mark.parametrize("seed", range(4))
def test_gaussian_log_likelihood_is_the_sum_of_scipy_logpdf(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(rng.uniform(-50, 50), rng.uniform(0.1, 10), size=int(rng.integers(1, 60)))
    for mu, sigma2 in [(0.0, 1.0), (x.mean(), 0.01), (-3.0, 250.0), (x[0], 7.5)]:
        expected = stats.norm.logpdf(x, mu, math.sqrt(sigma2)).sum()
        assert gaussian_log_likelihood(mu, sigma2, x) == pytest.approx(expected, rel=1e-11)
    # a grid: mu (4, 1) against sigma2 (1, 3) gives the (4, 3) surface
    mus, sigma2s = np.linspace(-5, 5, 4)[:, None], np.array([[0.5, 2.0, 9.0]])
    surface = gaussian_log_likelihood(mus, sigma2s, x)
    assert surface.shape == (4, 3)
    for i in range(4):
        for j in range(3):
            expected = stats.norm.logpdf(x, mus[i, 0], math.sqrt(sigma2s[0, j])).sum()
            assert surface[i, j] == pytest.approx(expected, rel=1e-11)


@pytest.mark.parametrize("d", [1, 2, 3, 5])
def test_multivariate_log_likelihood_and_density_agree_with_scipy(d):
    rng = np.random.default_rng(d)
    mu, Sigma = rng.normal(size=d), random_spd(rng, d)
    X = rng.multivariate_normal(mu + 0.5, Sigma, size=40)
    reference = stats.multivariate_normal(mu, Sigma)
    assert multivariate_gaussian_log_likelihood(mu, Sigma, X) == pytest.approx(reference.logpdf(X).sum(), rel=1e-11)
    np.testing.assert_allclose(gaussian_density(X, mu, Sigma), reference.pdf(X), rtol=1e-10)
    np.testing.assert_allclose(gaussian_log_density(X, mu, Sigma), reference.logpdf(X), rtol=1e-11)
    assert gaussian_density(X, mu, Sigma).shape == (40,)
    assert gaussian_density(X[:1], mu, Sigma).shape == (1,)


def test_density_in_one_dimension_is_the_normal_pdf_and_the_formula_has_a_square_root():
    x = np.array([[-1.0], [0.0], [2.5]])
    np.testing.assert_allclose(gaussian_density(x, [0.5], [[4.0]]), stats.norm.pdf(x[:, 0], 0.5, 2.0), rtol=1e-12)
    # at the mean in d dimensions the density is (2 pi)^(-d/2) det(Sigma)^(-1/2)
    Sigma = np.diag([1.0, 4.0, 9.0])
    at_mean = gaussian_density(np.zeros((1, 3)), np.zeros(3), Sigma)[0]
    assert at_mean == pytest.approx((2 * math.pi) ** -1.5 / math.sqrt(36.0), rel=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_gaussian_density_integrates_to_one_in_two_dimensions(seed):
    rng = np.random.default_rng(seed)
    mu, Sigma = rng.normal(size=2), random_spd(rng, 2, floor=0.5)
    # trapezoid rule on a 601 x 601 grid over +-9 standard deviations: for a smooth, fast-decaying
    # integrand its error is far below 1e-8 (the mass outside the box is below 1e-17)
    half = 9 * math.sqrt(np.linalg.eigvalsh(Sigma).max())
    a, b = (np.linspace(m - half, m + half, 601) for m in mu)
    A, B = np.meshgrid(a, b, indexing="ij")
    values = gaussian_density(np.column_stack([A.ravel(), B.ravel()]), mu, Sigma).reshape(A.shape)
    total = np.trapezoid(np.trapezoid(values, b, axis=1), a)
    assert total == pytest.approx(1.0, abs=1e-8)


# --------------------------------------------------------------------------- closed forms are stationary points


@pytest.mark.parametrize("seed", range(5))
def test_bernoulli_mle_is_a_stationary_point(seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 2, size=50)
    assert 0 < x.sum() < x.size
    theta = bernoulli_mle(x)
    ll = lambda t: bernoulli_log_likelihood(t, x)  # noqa: E731
    assert abs(central_difference(ll, theta, 1e-6)) < 1e-5
    # power check: a step away the slope is far from zero (curvature is n / (theta (1 - theta)) >= 4n)
    assert abs(central_difference(ll, theta + 0.05, 1e-6)) > 5


@pytest.mark.parametrize("seed", range(5))
def test_poisson_mle_is_a_stationary_point(seed):
    rng = np.random.default_rng(seed)
    x = rng.poisson(4.0, size=40)
    lam = poisson_mle(x)
    ll = lambda t: poisson_log_likelihood(t, x)  # noqa: E731
    assert abs(central_difference(ll, lam, 1e-6)) < 1e-5
    assert abs(central_difference(ll, lam * 1.1, 1e-6)) > 1  # slope there is about -n * 0.1 / 1.1


@pytest.mark.parametrize("seed", range(5))
def test_categorical_mle_is_a_stationary_point_on_the_simplex(seed):
    rng = np.random.default_rng(seed)
    K = 5
    x = rng.integers(0, K, size=80)
    p = categorical_mle(x, n_categories=K)
    assert (p > 0).all()
    for _ in range(5):
        v = rng.normal(size=K)
        v -= v.mean()  # directions that stay on the plane sum(p) = 1
        ll = lambda t: categorical_log_likelihood(p + t * v, x)  # noqa: E731
        assert abs(central_difference(ll, 0.0, 1e-7)) < 1e-5
    # the unconstrained gradient n_j / p_j is not zero: it equals n in every coordinate
    np.testing.assert_allclose(np.bincount(x, minlength=K) / p, x.size)


@pytest.mark.parametrize("seed", range(5))
def test_gaussian_mle_is_a_stationary_point_in_mu_and_sigma2(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(3.0, 2.0, size=30)
    fit = gaussian_mle(x)
    d_mu = central_difference(lambda m: gaussian_log_likelihood(m, fit.sigma2, x), fit.mu, 1e-6)
    d_s2 = central_difference(lambda s: gaussian_log_likelihood(fit.mu, s, x), fit.sigma2, 1e-6)
    assert abs(d_mu) < 1e-5 and abs(d_s2) < 1e-5
    # the seed's slip: the variance around the *true* mean 3 is not the stationary point
    sigma2_true_mean = np.mean((x - 3.0) ** 2)
    assert abs(sigma2_true_mean - fit.sigma2) > 1e-6
    assert abs(central_difference(lambda m: gaussian_log_likelihood(m, sigma2_true_mean, x), fit.mu, 1e-6)) < 1e-5
    assert gaussian_log_likelihood(fit.mu, sigma2_true_mean, x) < gaussian_log_likelihood(fit.mu, fit.sigma2, x)


@pytest.mark.parametrize("d", [1, 2, 4])
def test_multivariate_mle_mean_is_stationary_and_no_covariance_perturbation_helps(d):
    rng = np.random.default_rng(10 + d)
    X = rng.multivariate_normal(rng.normal(size=d), random_spd(rng, d), size=25)
    fit = multivariate_gaussian_mle(X)
    ll = lambda m, S: multivariate_gaussian_log_likelihood(m, S, X)  # noqa: E731
    best = ll(fit.mu, fit.Sigma)
    for j in range(d):
        e = np.eye(d)[j]
        assert abs(central_difference(lambda t: ll(fit.mu + t * e, fit.Sigma), 0.0, 1e-6)) < 1e-5
    scale = np.linalg.eigvalsh(fit.Sigma).min()
    for _ in range(20):
        E = random_symmetric(rng, d)
        E *= scale / np.abs(np.linalg.eigvalsh(E)).max()  # ||E|| = smallest eigenvalue: Sigma + t E stays PD
        # directional derivative in Sigma vanishes
        assert abs(central_difference(lambda t: ll(fit.mu, fit.Sigma + t * E), 0.0, 1e-6)) < 1e-5
        for t in (-0.9, -0.3, -0.01, 0.01, 0.3, 0.9):
            assert ll(fit.mu, fit.Sigma + t * E) <= best


# --------------------------------------------------------------------------- numerical optimisation lands on the closed form


@pytest.mark.parametrize("seed", range(3))
def test_minimize_on_the_bernoulli_negative_log_likelihood(seed):
    rng = np.random.default_rng(seed)
    x = rng.binomial(1, rng.uniform(0.15, 0.85), size=60)
    # theta = expit(s) keeps theta in (0, 1) without bounds
    res = optimize.minimize(lambda s: -bernoulli_log_likelihood(expit(s[0]), x), x0=[0.0], method="BFGS",
                            options={"gtol": 1e-9})
    assert res.success
    assert expit(res.x[0]) == pytest.approx(bernoulli_mle(x), abs=1e-6)


@pytest.mark.parametrize("seed", range(3))
def test_minimize_on_the_poisson_negative_log_likelihood(seed):
    rng = np.random.default_rng(seed)
    x = rng.poisson(rng.uniform(0.5, 30), size=50)
    res = optimize.minimize(lambda s: -poisson_log_likelihood(math.exp(s[0]), x), x0=[0.0], method="BFGS",
                            options={"gtol": 1e-9})
    assert res.success
    assert math.exp(res.x[0]) == pytest.approx(poisson_mle(x), rel=1e-6)


@pytest.mark.parametrize("seed", range(3))
def test_minimize_on_the_gaussian_negative_log_likelihood_in_mu_and_log_variance(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(rng.uniform(-10, 10), rng.uniform(0.5, 5), size=40)
    res = optimize.minimize(lambda v: -gaussian_log_likelihood(v[0], math.exp(v[1]), x), x0=[0.0, 0.0],
                            method="BFGS", options={"gtol": 1e-9})
    fit = gaussian_mle(x)
    assert res.x[0] == pytest.approx(fit.mu, abs=1e-5 * (1 + abs(fit.mu)))
    assert math.exp(res.x[1]) == pytest.approx(fit.sigma2, rel=1e-5)


# --------------------------------------------------------------------------- closed forms against scipy fits and hand values


@pytest.mark.parametrize("seed", range(4))
def test_gaussian_mle_agrees_with_norm_fit(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(rng.uniform(-5, 5), rng.uniform(0.5, 3), size=int(rng.integers(2, 80)))
    loc, scale = stats.norm.fit(x)  # the MLE: mean and the 1/n standard deviation
    fit = gaussian_mle(x)
    assert isinstance(fit, GaussianMLE)
    assert fit.mu == pytest.approx(loc, rel=1e-12, abs=1e-12)
    assert fit.sigma == pytest.approx(scale, rel=1e-10)
    assert fit.sigma2 == pytest.approx(np.var(x, ddof=0), rel=1e-12)
    assert fit.n == x.size


@pytest.mark.parametrize("d", [1, 3])
def test_multivariate_mle_agrees_with_scipy_fit_and_is_read_only(d):
    rng = np.random.default_rng(d)
    X = rng.multivariate_normal(rng.normal(size=d), random_spd(rng, d), size=30)
    mean, cov = stats.multivariate_normal.fit(X)
    fit = multivariate_gaussian_mle(X)
    assert isinstance(fit, MultivariateGaussianMLE)
    np.testing.assert_allclose(fit.mu, mean, rtol=1e-12)
    np.testing.assert_allclose(fit.Sigma, cov, rtol=1e-10)
    np.testing.assert_allclose(fit.Sigma, np.cov(X.T, bias=True).reshape(d, d), rtol=1e-10)
    np.testing.assert_array_equal(fit.Sigma, fit.Sigma.T)
    with pytest.raises(ValueError):
        fit.Sigma[0, 0] = 1.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        fit.mu = np.zeros(d)


def test_closed_forms_on_small_hand_examples():
    assert bernoulli_mle([1, 0, 1, 1, 0]) == 0.6
    np.testing.assert_array_equal(categorical_mle([2, 0, 2, 2]), [0.25, 0.0, 0.75])
    np.testing.assert_array_equal(categorical_mle([2, 0, 2, 2], n_categories=5), [0.25, 0, 0.75, 0, 0])
    np.testing.assert_array_equal(categorical_mle(counts=[3, 0, 1]), [0.75, 0.0, 0.25])
    assert poisson_mle([0, 3, 3, 6]) == 3.0
    assert poisson_mle([0, 0]) == 0.0
    fit = gaussian_mle([1.0, 2.0, 6.0])  # mean 3, squared deviations 4 + 1 + 9 = 14
    assert (fit.mu, fit.sigma2) == (3.0, pytest.approx(14 / 3))
    fit2 = multivariate_gaussian_mle([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0], [2.0, 2.0]])
    np.testing.assert_allclose(fit2.mu, [1.0, 1.0])
    np.testing.assert_allclose(fit2.Sigma, np.eye(2))  # each coordinate is +-1 from its mean, uncorrelated


def test_variance_mle_of_one_point_is_zero_and_the_likelihood_refuses_it():
    fit = gaussian_mle([4.2])
    assert (fit.mu, fit.sigma2, fit.n) == (4.2, 0.0, 1)
    # the likelihood has no maximiser: it grows without bound as sigma2 -> 0
    values = [gaussian_log_likelihood(4.2, s, [4.2]) for s in (1.0, 1e-2, 1e-4, 1e-8)]
    assert all(b > a for a, b in zip(values, values[1:]))
    with pytest.raises(ValueError, match="^sigma2 must be > 0; got 0.0"):
        gaussian_log_likelihood(fit.mu, fit.sigma2, [4.2])
    one = multivariate_gaussian_mle([[1.0, 2.0]])
    np.testing.assert_array_equal(one.Sigma, np.zeros((2, 2)))
    with pytest.raises(ValueError, match="^Sigma must be positive definite"):
        multivariate_gaussian_log_likelihood(one.mu, one.Sigma, [[1.0, 2.0]])


# --------------------------------------------------------------------------- properties (hypothesis)


binary_samples = st.lists(st.integers(0, 1), min_size=1, max_size=60)


@PROPERTY
@given(x=binary_samples)
def test_bernoulli_mle_is_the_mean_and_lies_in_the_unit_interval(x):
    theta = bernoulli_mle(x)
    assert 0.0 <= theta <= 1.0
    assert theta == sum(x) / len(x)


@PROPERTY
@given(x=binary_samples, alternatives=st.lists(st.floats(0, 1), min_size=1, max_size=10))
def test_bernoulli_likelihood_is_largest_at_the_mle(x, alternatives):
    best = bernoulli_log_likelihood(bernoulli_mle(x), x)
    for theta in alternatives:
        assert bernoulli_log_likelihood(theta, x) <= best + 1e-12 * (1 + abs(best))


@PROPERTY
@given(x=st.lists(st.integers(0, 200), min_size=1, max_size=40),
       alternatives=st.lists(st.floats(0, 400), min_size=1, max_size=10))
def test_poisson_likelihood_is_largest_at_the_mle(x, alternatives):
    best = poisson_log_likelihood(poisson_mle(x), x)
    for lam in alternatives:
        assert poisson_log_likelihood(lam, x) <= best + 1e-12 * (1 + abs(best))


@PROPERTY
@given(x=st.lists(st.integers(0, 4), min_size=1, max_size=50), seed=seeds)
def test_categorical_likelihood_is_largest_at_the_mle(x, seed):
    rng = np.random.default_rng(seed)
    p_hat = categorical_mle(x, n_categories=5)
    best = categorical_log_likelihood(p_hat, x)
    for p in rng.dirichlet(np.full(5, 0.7), size=10):
        assert categorical_log_likelihood(p, x) <= best + 1e-12 * (1 + abs(best))


@PROPERTY
@given(x=st.lists(st.floats(-1e3, 1e3), min_size=2, max_size=40),
       mu=st.floats(-2e3, 2e3), sigma2=st.floats(1e-3, 1e7))
def test_gaussian_likelihood_is_largest_at_the_mle(x, mu, sigma2):
    assume(np.ptp(x) > 1e-3)
    fit = gaussian_mle(x)
    best = gaussian_log_likelihood(fit.mu, fit.sigma2, x)
    assert gaussian_log_likelihood(mu, sigma2, x) <= best + 1e-10 * (1 + abs(best))
    assert gaussian_log_likelihood(mu, fit.sigma2, x) <= best + 1e-10 * (1 + abs(best))
    assert gaussian_log_likelihood(fit.mu, sigma2, x) <= best + 1e-10 * (1 + abs(best))


@PROPERTY
@given(seed=seeds, d=st.integers(1, 4))
def test_multivariate_likelihood_is_largest_at_the_mle(seed, d):
    rng = np.random.default_rng(seed)
    X = rng.multivariate_normal(rng.normal(size=d), random_spd(rng, d), size=d + 3 + int(rng.integers(0, 20)))
    fit = multivariate_gaussian_mle(X)
    best = multivariate_gaussian_log_likelihood(fit.mu, fit.Sigma, X)
    for _ in range(5):
        mu, Sigma = fit.mu + rng.normal(scale=0.5, size=d), random_spd(rng, d, floor=0.05)
        assert multivariate_gaussian_log_likelihood(mu, Sigma, X) <= best + 1e-10 * (1 + abs(best))
        assert multivariate_gaussian_log_likelihood(fit.mu, Sigma, X) <= best + 1e-10 * (1 + abs(best))
        assert multivariate_gaussian_log_likelihood(mu, fit.Sigma, X) <= best + 1e-10 * (1 + abs(best))


# --------------------------------------------------------------------------- bias of the variance MLE (Monte Carlo)


def test_variance_mle_is_biased_by_n_minus_one_over_n():
    rng = np.random.default_rng(2024)
    n, sigma2, reps = 5, 4.0, 20_000
    samples = rng.normal(1.0, math.sqrt(sigma2), size=(reps, n))
    estimates = np.array([gaussian_mle(s).sigma2 for s in samples])
    # n sigma2_hat / sigma2 is chi-square with n - 1 degrees of freedom, so
    # Var(sigma2_hat) = 2 (n - 1) sigma2^2 / n^2 = 5.12 and the standard error of the mean of
    # 20000 estimates is sqrt(5.12 / 20000) = 0.016. Five standard errors: 0.08.
    standard_error = math.sqrt(2 * (n - 1) * sigma2**2 / n**2 / reps)
    assert abs(estimates.mean() - (n - 1) / n * sigma2) < 5 * standard_error
    # and the bias (0.8) is 50 standard errors: the unbiased value sigma2 is clearly rejected
    assert abs(estimates.mean() - sigma2) > 30 * standard_error


# --------------------------------------------------------------------------- MAP with a Beta prior


def test_bernoulli_posterior_parameters_and_mean_agree_with_scipy_beta():
    x = [1, 0, 1, 1, 1, 0, 1]  # k = 5, n = 7
    post = bernoulli_posterior(x, 2.0, 3.0)
    assert isinstance(post, BetaPosterior)
    assert (post.alpha, post.beta) == (7.0, 5.0)
    assert bernoulli_posterior_mean(x, 2.0, 3.0) == pytest.approx(stats.beta(7, 5).mean(), rel=1e-14)
    assert bernoulli_map(x, 2.0, 3.0) == pytest.approx(6 / 10)  # (k + a - 1) / (n + a + b - 2)
    assert bernoulli_map(x, 1, 1) == pytest.approx(bernoulli_mle(x))
    # no data: the posterior is the prior
    assert bernoulli_map([], 3, 2) == pytest.approx(2 / 3)
    assert bernoulli_posterior_mean([], 3, 2) == pytest.approx(3 / 5)


@pytest.mark.parametrize("seed", range(6))
def test_bernoulli_map_maximises_log_likelihood_plus_log_prior(seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 2, size=int(rng.integers(0, 30)))
    a, b = rng.uniform(1.0, 6.0, size=2)
    objective = lambda t: -(stats.bernoulli.logpmf(x, t).sum() + stats.beta.logpdf(t, a, b))  # noqa: E731
    res = optimize.minimize_scalar(objective, bounds=(1e-12, 1 - 1e-12), method="bounded",
                                   options={"xatol": 1e-11})
    assert bernoulli_map(x, a, b) == pytest.approx(res.x, abs=1e-6)


@pytest.mark.parametrize(
    "alpha, beta, mode",
    [(1.0, 3.0, 0.0), (3.0, 1.0, 1.0), (0.5, 3.0, 0.0), (3.0, 0.4, 1.0), (1.0, 0.5, 1.0), (0.5, 1.0, 0.0),
     (2.0, 2.0, 0.5), (5.0, 2.0, 0.8)],
)
def test_beta_mode_at_the_edges_is_where_the_density_is_largest(alpha, beta, mode):
    assert beta_mode(alpha, beta) == pytest.approx(mode)
    grid = np.linspace(1e-6, 1 - 1e-6, 20001)
    assert grid[np.argmax(stats.beta.pdf(grid, alpha, beta))] == pytest.approx(mode, abs=1e-4)


@pytest.mark.parametrize("alpha, beta", [(1.0, 1.0), (0.5, 0.5), (0.2, 0.9)])
def test_beta_mode_refuses_when_the_mode_is_not_unique(alpha, beta):
    with pytest.raises(ValueError, match="not unique"):
        beta_mode(alpha, beta)


def test_map_with_a_flat_prior_and_no_data_is_refused():
    with pytest.raises(ValueError, match="^Beta\\(1, 1\\) is uniform"):
        bernoulli_map([], 1, 1)


@PROPERTY
@given(x=st.lists(st.integers(0, 1), min_size=1, max_size=200), a=st.floats(1, 50), b=st.floats(1, 50))
def test_map_approaches_the_mle_at_rate_one_over_n(x, a, b):
    # MAP - MLE = ((n - k)(a - 1) - k (b - 1)) / (n (n + a + b - 2)), so
    # |MAP - MLE| <= max(a - 1, b - 1) / (n + a + b - 2), and MAP lies between the MLE and the prior mode.
    assume(a + b > 2)
    n = len(x)
    gap = abs(bernoulli_map(x, a, b) - bernoulli_mle(x))
    assert gap <= max(a - 1, b - 1) / (n + a + b - 2) + 1e-12
    lo, hi = sorted([bernoulli_mle(x), beta_mode(a, b)])
    assert lo - 1e-12 <= bernoulli_map(x, a, b) <= hi + 1e-12


# --------------------------------------------------------------------------- the generative classifier


def three_classes(seed, n_per=(60, 90, 50), labels=(-3, 2, 7), d=2):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.multivariate_normal(rng.normal(scale=3, size=d), random_spd(rng, d), size=m) for m in n_per])
    y = np.repeat(labels, n_per)
    order = rng.permutation(len(y))
    return X[order], y[order]


@pytest.mark.parametrize("seed", range(3))
def test_fitted_parameters_are_the_per_class_mles(seed):
    X, y = three_classes(seed)
    model = fit_gaussian_classes(X, y)
    assert isinstance(model, GaussianClassModel)
    np.testing.assert_array_equal(model.classes, [-3, 2, 7])
    np.testing.assert_allclose(model.priors, [60 / 200, 90 / 200, 50 / 200])
    for k, c in enumerate([-3, 2, 7]):
        fit = multivariate_gaussian_mle(X[y == c])
        np.testing.assert_allclose(model.means[k], X[y == c].mean(axis=0), rtol=1e-12)
        np.testing.assert_allclose(model.covariances[k], fit.Sigma, rtol=1e-10)
    shared = fit_gaussian_classes(X, y, shared_covariance=True)
    pooled = sum((y == c).sum() / len(y) * np.cov(X[y == c].T, bias=True) for c in (-3, 2, 7))
    for k in range(3):
        np.testing.assert_allclose(shared.covariances[k], pooled, rtol=1e-10)
    assert shared.shared_covariance and not model.shared_covariance


def test_shared_covariance_is_a_stationary_point_of_the_joint_likelihood():
    X, y = three_classes(7)
    model = fit_gaussian_classes(X, y, shared_covariance=True)
    Sigma = model.covariances[0]

    def joint(S):
        return sum(multivariate_gaussian_log_likelihood(model.means[k], S, X[y == c])
                   for k, c in enumerate(model.classes))

    rng = np.random.default_rng(0)
    best = joint(Sigma)
    for _ in range(10):
        E = random_symmetric(rng, 2)
        E *= 0.5 * np.linalg.eigvalsh(Sigma).min() / np.abs(np.linalg.eigvalsh(E)).max()
        assert abs(central_difference(lambda t: joint(Sigma + t * E), 0.0, 1e-6)) < 1e-4
        assert joint(Sigma + E) <= best and joint(Sigma - E) <= best


@pytest.mark.parametrize("seed", range(3))
def test_posterior_and_predictions_follow_bayes_rule_written_with_scipy(seed):
    X, y = three_classes(seed)
    model = fit_gaussian_classes(X, y)
    rng = np.random.default_rng(100 + seed)
    X_new = rng.normal(scale=4, size=(50, 2))
    joint = np.column_stack([
        model.priors[k] * stats.multivariate_normal(model.means[k], model.covariances[k]).pdf(X_new)
        for k in range(3)
    ])
    np.testing.assert_allclose(np.exp(log_posterior(model, X_new)), joint / joint.sum(axis=1, keepdims=True),
                               rtol=1e-8, atol=1e-14)
    np.testing.assert_allclose(class_log_scores(model, X_new), np.log(joint), rtol=1e-10)
    np.testing.assert_array_equal(predict_gaussian_classes(model, X_new), model.classes[2 - np.argmax(joint[:, ::-1], axis=1)])
    assert predict_gaussian_classes(model, X_new).dtype.kind == "i"


@pytest.mark.parametrize("seed", range(3))
def test_full_covariance_classifier_is_sklearn_qda(seed):
    from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis

    # scikit-learn 1.9 (pinned) documents and computes QDA's covariance_ as the maximum-likelihood
    # (1/n_k) estimate (older releases used 1/(n_k - 1)), and its rule is argmax of
    # log prior + log Gaussian density: the very model fitted here, so everything must agree.
    X, y = three_classes(seed)
    qda = QuadraticDiscriminantAnalysis(store_covariance=True).fit(X, y)
    model = fit_gaussian_classes(X, y)
    np.testing.assert_array_equal(qda.classes_, model.classes)
    np.testing.assert_allclose(qda.priors_, model.priors, rtol=1e-12)
    np.testing.assert_allclose(qda.means_, model.means, rtol=1e-12)
    for k in range(3):
        np.testing.assert_allclose(qda.covariance_[k], model.covariances[k], rtol=1e-9)
        # the unbiased (1/(n_k - 1)) covariance is a different matrix: rescaling ours by n_k/(n_k - 1) gives it
        n_k = (y == model.classes[k]).sum()
        np.testing.assert_allclose(model.covariances[k] * n_k / (n_k - 1), np.cov(X[y == model.classes[k]].T),
                                   rtol=1e-10)
    X_new = np.random.default_rng(seed).normal(scale=4, size=(300, 2))
    np.testing.assert_array_equal(qda.predict(X_new), predict_gaussian_classes(model, X_new))
    np.testing.assert_allclose(qda.predict_log_proba(X_new), log_posterior(model, X_new), atol=1e-8)


@pytest.mark.parametrize("solver", ["svd", "lsqr", "eigen"])
def test_shared_covariance_classifier_is_sklearn_lda(solver):
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    # scikit-learn 1.9's LDA pools the class covariances as sum_k prior_k * (1/n_k) scatter_k
    # = (1/n) * total within-class scatter, the MLE (older releases' svd solver used 1/(n - K)).
    # With priors estimated from the data this is the model fitted here.
    X, y = three_classes(3)
    lda = LinearDiscriminantAnalysis(solver=solver, store_covariance=True).fit(X, y)
    model = fit_gaussian_classes(X, y, shared_covariance=True)
    np.testing.assert_allclose(lda.covariance_, model.covariances[0], rtol=1e-10)
    np.testing.assert_allclose(lda.means_, model.means, rtol=1e-12)
    X_new = np.random.default_rng(1).normal(scale=4, size=(300, 2))
    np.testing.assert_array_equal(lda.predict(X_new), predict_gaussian_classes(model, X_new))
    np.testing.assert_allclose(lda.predict_log_proba(X_new), log_posterior(model, X_new), atol=1e-7)


def test_gaussian_naive_bayes_is_another_model_that_mostly_agrees_on_a_diagonal_truth():
    from sklearn.naive_bayes import GaussianNB

    rng = np.random.default_rng(5)
    means = np.array([[0.0, 0.0], [2.0, 1.0]])
    sds = np.array([[1.0, 2.0], [1.5, 0.7]])  # diagonal covariances: the naive Bayes assumption holds
    y = rng.integers(0, 2, size=4000)
    X = means[y] + sds[y] * rng.standard_normal((4000, 2))
    nb = GaussianNB().fit(X, y)
    model = fit_gaussian_classes(X, y)
    # the parameters it shares with our model must agree: priors, means, and the diagonal of the
    # covariances (GaussianNB adds var_smoothing * largest feature variance to every variance)
    np.testing.assert_allclose(nb.class_prior_, model.priors, rtol=1e-12)
    np.testing.assert_allclose(nb.theta_, model.means, rtol=1e-12)
    np.testing.assert_allclose(nb.var_ - nb.epsilon_, np.diagonal(model.covariances, axis1=1, axis2=2), rtol=1e-9)
    # the off-diagonal entries are estimated by us (close to 0 here) and fixed at 0 by naive Bayes,
    # so predictions differ only near the boundary: both approach the same Bayes rule
    X_test = means[y[:2000]] + sds[y[:2000]] * rng.standard_normal((2000, 2))
    agreement = np.mean(nb.predict(X_test) == predict_gaussian_classes(model, X_test))
    assert agreement > 0.97
    # where the classes differ only by their correlation, the two models really differ: naive Bayes
    # sees two identical diagonal Gaussians and is left with the prior, the full model separates them
    C = np.array([[1.0, 0.9], [0.9, 1.0]])
    Xc = np.vstack([rng.multivariate_normal([0, 0], C, 500), rng.multivariate_normal([0, 0], C * [[1, -1], [-1, 1]], 500)])
    yc = np.repeat([0, 1], 500)
    full_accuracy = np.mean(predict_gaussian_classes(fit_gaussian_classes(Xc, yc), Xc) == yc)
    naive_accuracy = np.mean(GaussianNB().fit(Xc, yc).predict(Xc) == yc)
    assert full_accuracy > 0.8 and naive_accuracy < 0.6


# --------------------------------------------------------------------------- ties go to the larger label


@pytest.mark.parametrize("classes", [(0, 1), (-1, 1), (2, 7)])
def test_a_tie_between_two_classes_goes_to_the_larger_label(classes):
    # means -m and +m, one covariance, equal priors: the scores at x = 0 are equal to the last bit
    m = np.array([1.3, -0.4])
    Sigma = np.array([[2.0, 0.3], [0.3, 0.5]])
    model = GaussianClassModel(np.array(classes), np.array([0.5, 0.5]), np.stack([-m, m]), np.stack([Sigma, Sigma]))
    scores = class_log_scores(model, np.zeros((1, 2)))
    assert scores[0, 0] == scores[0, 1]
    assert predict_gaussian_classes(model, np.zeros((1, 2)))[0] == classes[1]
    # off the tie, the nearer mean wins
    np.testing.assert_array_equal(predict_gaussian_classes(model, np.stack([-m, m])), classes)


def test_a_tie_among_three_classes_goes_to_the_largest_of_the_tied_ones():
    # classes 0 and 2 symmetric about x = 0, class 1 far away with a tiny prior: a tie of 0 and 2 at 0
    means = np.array([[-1.0], [40.0], [1.0]])
    model = GaussianClassModel(np.array([0, 1, 2]), np.array([0.45, 0.1, 0.45]), means, np.ones((3, 1, 1)))
    np.testing.assert_array_equal(predict_gaussian_classes(model, [[0.0], [-2.0], [2.0], [40.0]]), [2, 0, 2, 1])


# --------------------------------------------------------------------------- linear model with Gaussian noise


def regression_data(seed, n=60, d=3, scale=1.0):
    rng = np.random.default_rng(seed)
    X = scale * rng.normal(size=(n, d))
    w = rng.normal(size=d + 1)
    y = w[0] + X @ w[1:] + 0.3 * rng.normal(size=n)
    return X, y


@pytest.mark.parametrize("seed", range(3))
def test_linear_log_likelihood_is_the_sum_of_scipy_normal_logpdf(seed):
    X, y = regression_data(seed)
    rng = np.random.default_rng(seed + 10)
    w, sigma2 = rng.normal(size=4), float(rng.uniform(0.1, 5))
    expected = stats.norm.logpdf(y, w[0] + X @ w[1:], np.sqrt(sigma2)).sum()
    assert linear_gaussian_log_likelihood(w, sigma2, X, y) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("seed, scale", [(0, 1e-3), (1, 1.0), (2, 1e3)])
def test_linear_mle_is_least_squares_and_the_mean_squared_residual(seed, scale):
    from sklearn.linear_model import LinearRegression

    X, y = regression_data(seed, scale=scale)
    fit = linear_gaussian_mle(X, y)
    assert isinstance(fit, LinearGaussianMLE) and fit.n == 60 and fit.w.shape == (4,)
    reg = LinearRegression().fit(X, y)
    np.testing.assert_allclose(fit.w, np.r_[reg.intercept_, reg.coef_], rtol=1e-8, atol=1e-10 / scale)
    residuals = y - reg.predict(X)
    assert fit.sigma2 == pytest.approx(np.mean(residuals**2), rel=1e-9)
    assert not fit.w.flags.writeable


@pytest.mark.parametrize("seed", range(3))
def test_linear_mle_is_a_stationary_point_and_an_optimiser_lands_on_it(seed):
    X, y = regression_data(seed, n=40, d=2)
    fit = linear_gaussian_mle(X, y)
    ell = lambda w, s2: linear_gaussian_log_likelihood(w, s2, X, y)
    for j in range(3):
        e = np.zeros(3)
        e[j] = 1.0
        assert abs(central_difference(lambda t: ell(fit.w + t * e, fit.sigma2), 0.0, 1e-6)) < 1e-5
    assert abs(central_difference(lambda t: ell(fit.w, fit.sigma2 * np.exp(t)), 0.0, 1e-6)) < 1e-5
    # the 1/(n - d - 1) residual variance is not the MLE: its derivative is not zero
    unbiased = fit.sigma2 * 40 / 37
    assert abs(central_difference(lambda t: ell(fit.w, unbiased * np.exp(t)), 0.0, 1e-6)) > 0.5
    res = optimize.minimize(lambda t: -ell(t[:3], np.exp(t[3])), np.zeros(4), method="BFGS", options={"gtol": 1e-8})
    np.testing.assert_allclose(res.x[:3], fit.w, atol=1e-4)
    assert np.exp(res.x[3]) == pytest.approx(fit.sigma2, rel=1e-4)


def test_linear_mle_refuses_data_that_do_not_fix_the_weights():
    with pytest.raises(ValueError, match=r"^the least-squares solution is not unique: .* span only 2 of d \+ 1 = 3"):
        linear_gaussian_mle([[0.0, 0.0], [1.0, 2.0], [2.0, 4.0]], [0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match=r"span only 2 of d \+ 1 = 3"):
        linear_gaussian_mle([[0.0, 1.0], [1.0, 1.0], [2.0, 1.0]], [0.0, 1.0, 2.0])  # a constant feature
    with pytest.raises(ValueError, match=r"span only 1 of d \+ 1 = 2"):
        linear_gaussian_mle([[3.0]], [1.0])


def test_labels_may_be_any_integers_and_floats_holding_integers():
    X, y = three_classes(0, labels=(0, 1, 2))
    a = fit_gaussian_classes(X, y)
    b = fit_gaussian_classes(X, y * 10 - 5)
    c = fit_gaussian_classes(X, y.astype(float))
    np.testing.assert_allclose(a.means, b.means)
    np.testing.assert_array_equal(b.classes, [-5, 5, 15])
    np.testing.assert_array_equal(predict_gaussian_classes(b, X), predict_gaussian_classes(a, X) * 10 - 5)
    np.testing.assert_array_equal(c.classes, [0, 1, 2])
    assert c.classes.dtype.kind == "i"


def test_model_is_frozen_and_read_only():
    X, y = three_classes(0)
    model = fit_gaussian_classes(X, y)
    with pytest.raises(dataclasses.FrozenInstanceError):
        model.priors = np.ones(3) / 3
    with pytest.raises(ValueError):
        model.means[0, 0] = 1.0


def test_singular_class_covariance_is_refused_with_advice():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(20, 3)), rng.normal(size=(3, 3)) + 5])  # class 5 has 3 points in R^3
    y = np.r_[np.zeros(20, int), np.full(3, 5)]
    with pytest.raises(ValueError, match=r"^the covariance MLE of class 5 is singular \(3 points in d = 3.*"
                                         r"shared_covariance=True or more data"):
        fit_gaussian_classes(X, y)
    fit_gaussian_classes(X, y, shared_covariance=True)  # 23 points for 3 dimensions and 2 classes: fine
    # enough points but all on a line
    t = rng.normal(size=10)
    X_line = np.vstack([rng.normal(size=(10, 2)), np.column_stack([t, 2 * t])])
    y_line = np.repeat([1, 2], 10)
    with pytest.raises(ValueError, match="class 2 is singular.*hyperplane"):
        fit_gaussian_classes(X_line, y_line)
    with pytest.raises(ValueError, match="^the shared covariance MLE is singular"):
        fit_gaussian_classes(np.column_stack([np.arange(6.0), np.arange(6.0)]), [0, 0, 0, 1, 1, 1],
                             shared_covariance=True)


def test_one_point_classes_are_refused():
    with pytest.raises(ValueError, match="class 1 is singular \\(1 points"):
        fit_gaussian_classes([[0.0], [1.0], [3.0]], [0, 0, 1])


# --------------------------------------------------------------------------- bad input


X2 = np.array([[0.0, 1.0], [1.0, 0.5], [2.0, 2.0], [3.0, 1.0]])
MODEL = fit_gaussian_classes(np.random.default_rng(0).normal(size=(20, 2)), np.repeat([0, 1], 10))


@pytest.mark.parametrize(
    "call, error, pattern",
    [
        (lambda: bernoulli_log_likelihood(1.5, [0, 1]), ValueError, r"^theta must lie in \[0, 1\]; got 1.5"),
        (lambda: bernoulli_log_likelihood([0.2, -0.1], [0, 1]), ValueError, r"^theta must lie in \[0, 1\]; got -0.1"),
        (lambda: bernoulli_log_likelihood(np.nan, [0, 1]), ValueError, r"^theta contains NaN"),
        (lambda: bernoulli_log_likelihood(0.5, [0, 2, 1]), ValueError, r"^x must hold 0/1 outcomes only; found 2.0 at index 1"),
        (lambda: bernoulli_log_likelihood(0.5, [[0, 1]]), ValueError, r"^x must be a 1-d array of shape \(n,\); got shape \(1, 2\)"),
        (lambda: bernoulli_mle([0.5, 1.0]), ValueError, r"^x must hold 0/1 outcomes"),
        (lambda: bernoulli_mle([]), ValueError, r"^x is empty: the MLE needs at least one observation"),
        (lambda: bernoulli_mle(["a", "b"]), TypeError, r"^x must be an array of numbers"),
        (lambda: bernoulli_map([1, 0], 0.0, 1.0), ValueError, r"^a must be a finite number > 0; got 0.0"),
        (lambda: bernoulli_map([1, 0], 2.0, -1.0), ValueError, r"^b must be a finite number > 0"),
        (lambda: bernoulli_posterior_mean([1, 0], "2", 1.0), TypeError, r"^a must be a number"),
        (lambda: bernoulli_posterior([1, 3], 2.0, 2.0), ValueError, r"^x must hold 0/1 outcomes"),
        (lambda: beta_mode(0.0, 2.0), ValueError, r"^alpha must be a finite number > 0"),
        (lambda: categorical_log_likelihood([0.5, 0.6], [0, 1]), ValueError, r"^p must hold probabilities >= 0 summing to 1"),
        (lambda: categorical_log_likelihood([1.2, -0.2], [0, 1]), ValueError, r"^p must hold probabilities >= 0"),
        (lambda: categorical_log_likelihood([[0.5, 0.5]], [0, 1]), ValueError, r"^p must be a 1-d array"),
        (lambda: categorical_log_likelihood([0.5, 0.5], [0, 2]), ValueError, r"^x must hold categories 0, \.\.\., 1; found 2"),
        (lambda: categorical_log_likelihood([0.5, 0.5], [0, -1]), ValueError, r"^x must hold nonnegative integers"),
        (lambda: categorical_log_likelihood([0.5, 0.5], [0, 1], counts=[1, 1]), ValueError, r"^give the data either as outcomes x or as counts"),
        (lambda: categorical_log_likelihood([0.5, 0.5]), ValueError, r"^give the data either"),
        (lambda: categorical_log_likelihood([0.5, 0.5], counts=[1, 1, 0]), ValueError, r"^counts has shape \(3,\), expected \(2,\)"),
        (lambda: categorical_mle(counts=[1.5, 2]), ValueError, r"^counts must hold nonnegative integers"),
        (lambda: categorical_mle(counts=[0, 0]), ValueError, r"^there is no observation"),
        (lambda: categorical_mle([0, 3], n_categories=2), ValueError, r"^x must hold categories 0, \.\.\., 1; found 3"),
        (lambda: categorical_mle([0, 1], n_categories=0), ValueError, r"^n_categories must be an integer >= 1"),
        (lambda: categorical_mle(counts=[1, 1], n_categories=2), ValueError, r"^n_categories goes with x"),
        (lambda: poisson_log_likelihood(-1.0, [1, 2]), ValueError, r"^lam must be >= 0; got -1.0"),
        (lambda: poisson_log_likelihood(1.0, [1, 2.5]), ValueError, r"^x must hold nonnegative integers \(counts\); found 2.5 at index 1"),
        (lambda: poisson_log_likelihood(1.0, [1, -2]), ValueError, r"^x must hold nonnegative integers"),
        (lambda: poisson_mle([]), ValueError, r"^x is empty"),
        (lambda: poisson_mle([1, np.inf]), ValueError, r"^x contains NaN or infinite"),
        (lambda: gaussian_log_likelihood(0.0, -1.0, [1.0]), ValueError, r"^sigma2 must be > 0; got -1.0"),
        (lambda: gaussian_log_likelihood(0.0, [1.0, 0.0], [1.0]), ValueError, r"^sigma2 must be > 0; got 0.0"),
        (lambda: gaussian_log_likelihood(np.inf, 1.0, [1.0]), ValueError, r"^mu contains NaN or infinite"),
        (lambda: gaussian_log_likelihood(0.0, 1.0, [[1.0, 2.0]]), ValueError, r"^x must be a 1-d array"),
        (lambda: gaussian_log_likelihood([0.0, 1.0], [1.0, 2.0, 3.0], [1.0]), ValueError, r"^mu and sigma2 must broadcast against each other; got shapes \(2,\) and \(3,\)"),
        (lambda: gaussian_mle([]), ValueError, r"^x is empty"),
        (lambda: gaussian_density(X2, [0.0, 0.0, 0.0], np.eye(2)), ValueError, r"^mu has shape \(3,\), expected \(2,\)"),
        (lambda: gaussian_density(X2, [0.0, 0.0], np.eye(3)), ValueError, r"^Sigma has shape \(3, 3\), expected \(2, 2\)"),
        (lambda: gaussian_density(X2, [0.0, 0.0], [[1.0, 0.5], [0.0, 1.0]]), ValueError, r"^Sigma must be symmetric"),
        (lambda: gaussian_density(X2, [0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]]), ValueError, r"^Sigma must be positive definite; its eigenvalues run from -1"),
        (lambda: gaussian_density(X2, [0.0, 0.0], [[1.0, 1.0], [1.0, 1.0]]), ValueError, r"^Sigma must be positive definite"),
        (lambda: gaussian_density(X2, [0.0, 0.0], np.zeros((2, 2))), ValueError, r"^Sigma must be positive definite"),
        (lambda: gaussian_density([1.0, 2.0], [0.0, 0.0], np.eye(2)), ValueError, r"^X must be a 2-d array of shape \(n, d\)"),
        (lambda: multivariate_gaussian_log_likelihood([0.0, 0.0], [[1.0, np.nan], [np.nan, 1.0]], X2), ValueError, r"^Sigma contains NaN"),
        (lambda: multivariate_gaussian_mle(np.zeros((0, 2))), ValueError, r"^X has no rows"),
        (lambda: fit_gaussian_classes(X2, [0, 1, 0]), ValueError, r"^y must have shape \(4,\) to match the rows of X"),
        (lambda: fit_gaussian_classes(X2, [0.5, 1, 0, 1]), TypeError, r"^y must hold integer class labels; got dtype float64"),
        (lambda: fit_gaussian_classes(X2, ["a", "b", "a", "b"]), TypeError, r"^y must hold integer class labels"),
        (lambda: fit_gaussian_classes(X2, [0, 1, 0, 1], shared_covariance="yes"), TypeError, r"^shared_covariance must be True or False"),
        (lambda: predict_gaussian_classes(MODEL, np.zeros((3, 3))), ValueError, r"^X has 3 features per row; the model was fitted with 2"),
        (lambda: predict_gaussian_classes("model", X2), TypeError, r"^model must be a GaussianClassModel"),
        (lambda: linear_gaussian_mle(X2, [1.0, 2.0, 3.0]), ValueError, r"^y must have shape \(4,\) to match the rows of X; got shape \(3,\)"),
        (lambda: linear_gaussian_mle([1.0, 2.0], [1.0, 2.0]), ValueError, r"^X must be a 2-d array of shape \(n, d\)"),
        (lambda: linear_gaussian_mle(X2, [[1.0, 2.0, 3.0, 4.0]]), ValueError, r"^y must be a 1-d array of shape \(n,\)"),
        (lambda: linear_gaussian_log_likelihood([0.0, 1.0], 1.0, X2, np.zeros(4)), ValueError, r"^w has shape \(2,\), expected \(3,\)"),
        (lambda: linear_gaussian_log_likelihood([0.0, 1.0, 1.0], 0.0, X2, np.zeros(4)), ValueError, r"^sigma2 must be a finite number > 0"),
        (lambda: linear_gaussian_log_likelihood([0.0, 1.0, 1.0], 1.0, X2, [0.0, np.nan, 0.0, 0.0]), ValueError, r"^y contains NaN"),
        (lambda: log_posterior(dataclasses.replace(MODEL, priors=np.array([0.7, 0.7])), X2), ValueError, r"^model.priors must be >= 0 and sum to 1"),
        (lambda: class_log_scores(dataclasses.replace(MODEL, covariances=-MODEL.covariances), X2), ValueError, r"^model.covariances\[0\] must be positive definite"),
    ],
)
def test_bad_input_is_refused_with_a_message_naming_the_argument(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()


# --------------------------------------------------------------------------- lecture 03's explorer


def test_likelihood_explorer_frame_reports_the_mle_and_the_bias_of_the_variance(monkeypatch):
    import matplotlib.pyplot as plt

    from mlcourse import widgets

    monkeypatch.setattr(plt, "show", lambda: plt.close("all"))
    fit, mean_s2 = widgets.draw_gaussian_likelihood(0.5, 2.0, 4, seed=7, n_samples=20_000)
    x = np.random.default_rng(7).normal(0.5, np.sqrt(2.0), size=4)  # the frame's sample, drawn first
    assert fit == mle.gaussian_mle(x)
    # E[sigma2_hat] = (n-1)/n sigma2 = 1.5; the sd of the mean of 20000 draws is about 0.01
    assert abs(mean_s2 - 1.5) < 0.05
    assert widgets.draw_gaussian_likelihood(0.5, 2.0, 4, seed=7, n_samples=20_000) == (fit, mean_s2)


@pytest.mark.parametrize("kwargs, message", [
    (dict(mu=0.0, sigma2=0.0, n=5, seed=0), "sigma2"),
    (dict(mu=0.0, sigma2=1.0, n=1, seed=0), "n must be at least 2"),
    (dict(mu=0.0, sigma2=1.0, n=0, seed=0), "n"),
])
def test_likelihood_explorer_frame_refuses_bad_input(kwargs, message):
    from mlcourse import widgets

    with pytest.raises(ValueError, match=message):
        widgets.draw_gaussian_likelihood(**kwargs)


def test_likelihood_explorer_builds_its_controls():
    from mlcourse import widgets

    box = widgets.likelihood_explorer()
    descriptions = [w.description for row in box.children[:2] for w in row.children]
    assert descriptions == ["true mean", "true variance", "sample size", "sample seed"]
