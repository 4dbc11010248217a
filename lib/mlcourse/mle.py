"""Lecture 03: maximum likelihood, a first look at MAP, and a generative classifier.

Conventions of the lecture:

* data are i.i.d. draws ``x_1, ..., x_n`` from a model ``p_theta``; the **log-likelihood** is
  ``l(theta) = sum_i log p_theta(x_i)`` (natural logarithm) and the **MLE** is a maximiser of it.
  Every log-likelihood here takes the *parameters first and the data last*, as in ``l(theta; x)``;
  the density :func:`gaussian_density` takes the point first, as in ``p(x; mu, Sigma)``;
* univariate data ``x`` have shape (n,); multivariate data ``X`` have shape (n, d), one point per
  row. A log-likelihood of no data at all is 0 (an empty product is 1); an MLE needs ``n >= 1``;
* the parameters of the univariate log-likelihoods may be arrays of candidate values (a grid to
  plot ``l`` on); the result then has their (broadcast) shape, otherwise it is a float;
* a parameter under which the data are impossible gives ``-inf`` (``theta = 0`` with a 1 in the
  data, ``p_k = 0`` with category ``k`` seen, ``lam = 0`` with a nonzero count), never a warning.
  The convention ``0 log 0 = 0`` makes ``theta = 0`` with no 1 in the data give 0 for that term;
* a covariance matrix ``Sigma`` must be symmetric positive definite. One whose smallest eigenvalue
  is at most ``1e-10`` times its largest counts as singular and is refused;
* for the classifier, the lecture numbers the classes ``0, ..., K - 1`` (the course's notation for
  probabilistic models of the classes), but labels ``y`` may be any integers (``{-1, +1}``,
  ``{0, ..., 9}``, ...): a class is a value that occurs in ``y``. **Ties go to the larger label**: a
  point with several most probable classes gets the largest of them (the course's rule);
* the linear model with Gaussian noise takes inputs ``X`` of shape (n, d) and lifts them by the bias
  trick, ``x_tilde = (1, x)``: its weights ``w`` have shape (d + 1,) and ``w[0]`` is the bias.

The closed forms, all derived in the lecture by setting the gradient of ``l`` to zero
(``k`` = number of ones, ``n_j`` = count of category ``j``, ``xbar`` = sample mean,
``Q`` = the scatter matrix ``sum_i (x_i - xbar)(x_i - xbar)^T``):

=====================  =================================================================
Bernoulli(theta)       ``theta_hat = k / n``
Categorical(p)         ``p_hat_j = n_j / n`` (Lagrange multiplier for ``sum_j p_j = 1``)
Poisson(lam)           ``lam_hat = xbar``
N(mu, sigma2)          ``mu_hat = xbar``, ``sigma2_hat = (1/n) sum_i (x_i - xbar)^2``
N_d(mu, Sigma)         ``mu_hat = xbar``, ``Sigma_hat = Q / n``
y = w . x_tilde + eps  ``w_hat`` = least squares, ``sigma2_hat`` = mean squared residual
=====================  =================================================================

The variance MLEs divide by ``n``, not ``n - 1``: they are biased,
``E[sigma2_hat] = (n - 1) / n * sigma2``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from ._special import gammaln, logsumexp, xlogy

from ._checks import _as_float_array, argmax_ties_to_largest, as_matrix, as_vector, positive_float

#: A symmetric matrix whose smallest eigenvalue is at most this times its largest counts as singular.
SINGULAR_RTOL = 1e-10

_LOG_2PI = math.log(2.0 * math.pi)


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class GaussianMLE:
    """The MLE of a univariate Gaussian: ``mu`` = sample mean, ``sigma2`` = the 1/n variance.

    ``sigma2`` is 0 when all the data are equal (in particular for ``n = 1``): the likelihood then
    grows without bound as ``sigma2 -> 0`` and has no maximiser; 0 is the limit, not a model.
    """

    mu: float
    sigma2: float
    n: int

    @property
    def sigma(self) -> float:
        """The standard deviation ``sqrt(sigma2)``."""
        return math.sqrt(self.sigma2)


@dataclass(frozen=True)
class MultivariateGaussianMLE:
    """The MLE of a Gaussian on R^d: ``mu`` (d,) = sample mean, ``Sigma`` (d, d) = the 1/n covariance.

    ``Sigma`` is singular when ``n <= d`` or the points lie in a hyperplane; the likelihood has no
    maximiser then. Both arrays are read-only.
    """

    mu: np.ndarray
    Sigma: np.ndarray
    n: int


@dataclass(frozen=True)
class LinearGaussianMLE:
    """The MLE of the linear model ``y = w . x_tilde + eps``, ``eps ~ N(0, sigma2)``.

    ``w`` (shape (d + 1,), read-only, ``w[0]`` the bias) is the least-squares solution and
    ``sigma2`` the mean squared residual ``(1/n) sum_i (y_i - w . x_tilde_i)^2`` (0 when the data
    are fitted exactly: the likelihood is then unbounded, 0 is a limit, not a model).
    """

    w: np.ndarray
    sigma2: float
    n: int


@dataclass(frozen=True)
class BetaPosterior:
    """The posterior ``Beta(alpha, beta)`` of a Bernoulli parameter (see :func:`bernoulli_posterior`)."""

    alpha: float
    beta: float

    @property
    def mean(self) -> float:
        """``alpha / (alpha + beta)``."""
        return self.alpha / (self.alpha + self.beta)

    @property
    def mode(self) -> float:
        """The MAP estimate: :func:`beta_mode` of ``(alpha, beta)``."""
        return beta_mode(self.alpha, self.beta)


@dataclass(frozen=True)
class GaussianClassModel:
    """A generative classifier: class priors and one Gaussian per class, fitted by MLE.

    Attributes
    ----------
    classes : ndarray of shape (K,)
        The labels, sorted increasingly (any integers).
    priors : ndarray of shape (K,)
        ``P(Y = classes[k])``; the MLE is the fraction of points in class ``k``.
    means : ndarray of shape (K, d)
        ``means[k]`` is the mean of ``X | Y = classes[k]``.
    covariances : ndarray of shape (K, d, d)
        ``covariances[k]`` is the covariance of ``X | Y = classes[k]``; with a shared covariance
        all K of them are the same matrix.
    shared_covariance : bool
        Whether one covariance was fitted for all classes.
    """

    classes: np.ndarray
    priors: np.ndarray
    means: np.ndarray
    covariances: np.ndarray
    shared_covariance: bool = False


# --------------------------------------------------------------------------- Bernoulli


def bernoulli_log_likelihood(theta, x):
    """Log-likelihood ``l(theta) = k log(theta) + (n - k) log(1 - theta)`` of 0/1 data ``x``.

    Parameters
    ----------
    theta : float or array
        ``P(X = 1)``, in [0, 1]; an array gives one value per entry.
    x : array of shape (n,)
        Outcomes 0 or 1 (``k`` of them are 1).

    Returns
    -------
    float or ndarray
        ``-inf`` where the data are impossible (``theta = 0`` and ``k > 0``, or ``theta = 1`` and
        ``k < n``).

    >>> bernoulli_log_likelihood(0.5, [1, 0, 1])  # 3 log(1/2)
    -2.0794415416798357
    """
    theta = _probability(theta, "theta")
    x = _binary_data(x, "x")
    k, n = x.sum(), x.size
    with np.errstate(divide="ignore"):
        return _out(xlogy(k, theta) + xlogy(n - k, 1.0 - theta))


def bernoulli_mle(x) -> float:
    """The MLE ``theta_hat = k / n`` of ``P(X = 1)`` from 0/1 data ``x`` (shape (n,), n >= 1).

    >>> bernoulli_mle([1, 0, 1, 1])
    0.75
    """
    x = _nonempty(_binary_data(x, "x"), "x")
    return float(x.mean())


# --------------------------------------------------------------------------- MAP with a Beta prior


def bernoulli_posterior(x, a, b) -> BetaPosterior:
    """Posterior of ``theta`` after 0/1 data ``x`` under the prior ``Beta(a, b)``: ``Beta(k + a, n - k + b)``.

    Prior density ``theta^(a-1) (1-theta)^(b-1)`` times likelihood ``theta^k (1-theta)^(n-k)`` is,
    up to a constant, the ``Beta(k + a, n - k + b)`` density. ``x`` may be empty (the posterior is
    then the prior). ``a`` and ``b`` must be > 0.
    """
    x = _binary_data(x, "x")
    a, b = positive_float(a, "a"), positive_float(b, "b")
    k = float(x.sum())
    return BetaPosterior(k + a, x.size - k + b)


def beta_mode(alpha, beta) -> float:
    """The point in [0, 1] where the ``Beta(alpha, beta)`` density is largest.

    With ``alpha, beta >= 1`` (not both 1) it is ``(alpha - 1) / (alpha + beta - 2)``: the log
    density ``(alpha-1) log t + (beta-1) log(1-t)`` is concave there and its derivative
    ``(alpha-1)/t - (beta-1)/(1-t)`` vanishes at that point (which is 0 when ``alpha = 1`` and 1
    when ``beta = 1``). Otherwise:

    * ``alpha < 1 <= beta``: 0 (the density decreases, and is unbounded at 0 when ``alpha < 1``);
    * ``beta < 1 <= alpha``: 1 (the mirror image);
    * ``alpha = beta = 1`` (uniform) and ``alpha, beta < 1`` (two modes, 0 and 1): no single mode,
      a ``ValueError``.

    >>> beta_mode(3, 2)
    0.6666666666666666
    """
    alpha, beta = positive_float(alpha, "alpha"), positive_float(beta, "beta")
    if alpha == 1 and beta == 1:
        raise ValueError("Beta(1, 1) is uniform on [0, 1]: every theta is a mode, the MAP is not unique "
                         "(a = b = 1 and no data)")
    if alpha < 1 and beta < 1:
        raise ValueError(f"Beta(alpha={alpha}, beta={beta}) with both parameters below 1 has two modes, "
                         "0 and 1: the MAP is not unique")
    if alpha >= 1 and beta >= 1:
        return (alpha - 1.0) / (alpha + beta - 2.0)
    return 0.0 if alpha < 1 else 1.0


def bernoulli_map(x, a, b) -> float:
    """MAP estimate of ``theta`` under the prior ``Beta(a, b)``: the posterior mode.

    For ``k + a >= 1`` and ``n - k + b >= 1`` (always the case when ``a, b >= 1``) it is
    ``(k + a - 1) / (n + a + b - 2)``; with ``a = b = 1`` (a flat prior) it is the MLE ``k / n``.
    Edge cases as in :func:`beta_mode`.

    >>> bernoulli_map([1, 1, 1], a=2, b=2)  # (3 + 1) / (3 + 2)
    0.8
    """
    return bernoulli_posterior(x, a, b).mode


def bernoulli_posterior_mean(x, a, b) -> float:
    """Posterior mean ``(k + a) / (n + a + b)`` of ``theta`` under the prior ``Beta(a, b)``.

    >>> bernoulli_posterior_mean([1, 1, 1], a=1, b=1)  # Laplace's rule of succession
    0.8
    """
    return bernoulli_posterior(x, a, b).mean


# --------------------------------------------------------------------------- categorical


def categorical_log_likelihood(p, x=None, *, counts=None) -> float:
    """Log-likelihood ``l(p) = sum_j n_j log(p_j)`` of i.i.d. categorical data.

    Give the data either as outcomes ``x`` (shape (n,), integers in ``0, ..., K - 1``) or as
    ``counts`` (shape (K,), ``counts[j] = n_j``). This is the likelihood of the *sequence* of
    outcomes; the multinomial probability of the counts has the extra factor ``n! / prod_j n_j!``,
    which does not depend on ``p``.

    Parameters
    ----------
    p : array of shape (K,)
        Probabilities of the categories: nonnegative, summing to 1.

    >>> categorical_log_likelihood([0.5, 0.25, 0.25], [0, 0, 2])  # 2 log(1/2) + log(1/4)
    -2.772588722239781
    """
    p = _simplex(p, "p")
    n_j = _category_counts(x, counts, len(p))
    with np.errstate(divide="ignore"):
        return float(xlogy(n_j, p).sum())


def categorical_mle(x=None, *, counts=None, n_categories: int | None = None) -> np.ndarray:
    """The MLE ``p_hat_j = n_j / n`` (shape (K,)).

    Give outcomes ``x`` (integers in ``0, ..., K - 1``; ``K = n_categories``, by default
    ``max(x) + 1``) or ``counts`` (shape (K,)). At least one observation is needed.

    >>> categorical_mle([0, 2, 2, 2])
    array([0.25, 0.  , 0.75])
    """
    if counts is None and n_categories is not None:
        if isinstance(n_categories, bool) or not isinstance(n_categories, (int, np.integer)) or n_categories < 1:
            raise ValueError(f"n_categories must be an integer >= 1; got {n_categories!r}")
    elif n_categories is not None:
        raise ValueError("n_categories goes with x; with counts the number of categories is len(counts)")
    n_j = _category_counts(x, counts, n_categories)
    if n_j.sum() == 0:
        raise ValueError("there is no observation (the counts sum to 0): the MLE needs at least one")
    return n_j / n_j.sum()


# --------------------------------------------------------------------------- Poisson


def poisson_log_likelihood(lam, x):
    """Log-likelihood ``l(lam) = (sum_i x_i) log(lam) - n lam - sum_i log(x_i!)`` of counts ``x``.

    Parameters
    ----------
    lam : float or array
        The rate, ``>= 0``; ``lam = 0`` is the point mass at 0 (``-inf`` if some ``x_i > 0``).
    x : array of shape (n,)
        Nonnegative integers.

    >>> round(poisson_log_likelihood(2.0, [0, 3]), 6)  # -2 + (3 log 2 - 2 - log 6)
    -3.712318
    """
    lam = _params(lam, "lam")
    if np.any(lam < 0):
        raise ValueError(f"lam must be >= 0; got {_first_bad(lam, lam < 0)}")
    x = _count_data(x, "x")
    with np.errstate(divide="ignore"):
        return _out(xlogy(x.sum(), lam) - x.size * lam - gammaln(x + 1.0).sum())


def poisson_mle(x) -> float:
    """The MLE ``lam_hat = (1/n) sum_i x_i`` from counts ``x`` (shape (n,), n >= 1).

    It is 0 when all counts are 0 (the point mass at 0, a limit of Poisson models).
    """
    return float(_nonempty(_count_data(x, "x"), "x").mean())


# --------------------------------------------------------------------------- Gaussian on R


def gaussian_log_likelihood(mu, sigma2, x):
    """Log-likelihood ``l(mu, sigma2) = -(n/2) log(2 pi sigma2) - sum_i (x_i - mu)^2 / (2 sigma2)``.

    Parameters
    ----------
    mu : float or array
        The mean.
    sigma2 : float or array
        The variance, ``> 0``. ``mu`` and ``sigma2`` broadcast against each other (a grid of both
        gives the surface ``l(mu, sigma2)``).
    x : array of shape (n,)

    Notes
    -----
    Computed as ``-(n/2) log(2 pi sigma2) - (Q + n (xbar - mu)^2) / (2 sigma2)`` with the scatter
    ``Q = sum_i (x_i - xbar)^2``: the same number, and cheap on a grid.
    """
    mu = _params(mu, "mu")
    sigma2 = _params(sigma2, "sigma2")
    if np.any(sigma2 <= 0):
        raise ValueError(f"sigma2 must be > 0; got {_first_bad(sigma2, sigma2 <= 0)} (a Gaussian needs a "
                         "positive variance; the MLE is 0 only when all the data are equal)")
    try:
        np.broadcast_shapes(mu.shape, sigma2.shape)
    except ValueError:
        raise ValueError(f"mu and sigma2 must broadcast against each other; got shapes {mu.shape} "
                         f"and {sigma2.shape}") from None
    x = _data_vector(x, "x")
    n = x.size
    if n == 0:
        return _out(np.zeros(np.broadcast_shapes(mu.shape, sigma2.shape)))
    xbar = x.mean()
    Q = np.sum((x - xbar) ** 2)
    return _out(-0.5 * n * (_LOG_2PI + np.log(sigma2)) - (Q + n * (xbar - mu) ** 2) / (2.0 * sigma2))


def gaussian_mle(x) -> GaussianMLE:
    """The MLE of a Gaussian from data ``x`` (shape (n,), n >= 1): the mean and the 1/n variance.

    Returns a :class:`GaussianMLE`. With ``n = 1`` (or all values equal) ``sigma2`` is 0: the
    likelihood is unbounded and no Gaussian maximises it; see :class:`GaussianMLE`.

    >>> gaussian_mle([1.0, 2.0, 6.0])
    GaussianMLE(mu=3.0, sigma2=4.666666666666667, n=3)
    """
    x = _nonempty(_data_vector(x, "x"), "x")
    mu = x.mean()
    return GaussianMLE(float(mu), float(np.mean((x - mu) ** 2)), int(x.size))


# --------------------------------------------------------------------------- Gaussian on R^d


def gaussian_log_density(X, mu, Sigma) -> np.ndarray:
    """The log density of ``N(mu, Sigma)`` at every row ``x`` of ``X`` (shape (n, d)); shape (n,).

    ``log p(x; mu, Sigma) = -(d/2) log(2 pi) - (1/2) log det Sigma - (1/2) (x-mu)^T Sigma^{-1} (x-mu)``.
    With the Cholesky factor ``Sigma = L L^T``: ``log det Sigma = 2 sum_j log L_jj`` and
    ``(x-mu)^T Sigma^{-1} (x-mu) = ||z||^2`` where ``L z = x - mu`` is solved, never inverting ``Sigma``.
    """
    X = as_matrix(X, "X")
    d = X.shape[1]
    mu = as_vector(mu, "mu", d)
    Sigma = _spd(Sigma, "Sigma", d)
    return _log_densities(X, mu[None, :], np.linalg.cholesky(Sigma)[None])[:, 0]


def gaussian_density(X, mu, Sigma) -> np.ndarray:
    """The multivariate normal density ``p(x; mu, Sigma)`` at every row of ``X``; shape (n,).

    ``p(x) = (2 pi)^(-d/2) det(Sigma)^(-1/2) exp(-(1/2) (x-mu)^T Sigma^{-1} (x-mu))``, the
    exponential of :func:`gaussian_log_density`.

    >>> gaussian_density([[0.0, 0.0]], [0.0, 0.0], np.eye(2))  # 1 / (2 pi)
    array([0.15915494])
    """
    return np.exp(gaussian_log_density(X, mu, Sigma))


def multivariate_gaussian_log_likelihood(mu, Sigma, X) -> float:
    """``l(mu, Sigma) = sum_i log p(x_i; mu, Sigma)`` for the rows of ``X`` (shape (n, d)).

    Equals ``-(n d / 2) log(2 pi) - (n / 2) log det Sigma - (1/2) sum_i (x_i-mu)^T Sigma^{-1} (x_i-mu)``.
    """
    return float(gaussian_log_density(X, mu, Sigma).sum())


def multivariate_gaussian_mle(X) -> MultivariateGaussianMLE:
    """The MLE of a Gaussian on R^d from the rows of ``X`` (shape (n, d), n >= 1).

    ``mu_hat`` is the sample mean and ``Sigma_hat = Q / n``, with the scatter matrix
    ``Q = sum_i (x_i - mu_hat)(x_i - mu_hat)^T``.
    ``Sigma_hat`` is returned even when it is singular (``n <= d``, or points in a hyperplane),
    but then no Gaussian maximises the likelihood and the density functions refuse it.
    """
    X = as_matrix(X, "X")
    mu = X.mean(axis=0)
    R = X - mu
    Sigma = R.T @ R / X.shape[0]
    Sigma = (Sigma + Sigma.T) / 2
    return MultivariateGaussianMLE(_frozen(mu), _frozen(Sigma), int(X.shape[0]))


# --------------------------------------------------------------------------- linear model, Gaussian noise


def linear_gaussian_log_likelihood(w, sigma2, X, y) -> float:
    """Log-likelihood of ``y`` given ``X`` under ``y_i = w . x_tilde_i + eps_i``, ``eps_i ~ N(0, sigma2)``.

    ``l(w, sigma2) = -(n/2) log(2 pi sigma2) - (1/(2 sigma2)) sum_i (y_i - w . x_tilde_i)^2`` with
    ``x_tilde_i = (1, x_i)`` (the bias trick): for a fixed ``sigma2`` it is a constant minus the sum
    of squared residuals over ``2 sigma2``.

    Parameters
    ----------
    w : array of shape (d + 1,)
        ``w[0]`` is the bias, ``w[1:]`` the weights of the ``d`` features.
    sigma2 : float
        The noise variance, ``> 0``.
    X : array of shape (n, d)
    y : array of shape (n,)

    >>> round(linear_gaussian_log_likelihood([1.0, 2.0], 1.0, [[0.0], [1.0]], [1.0, 4.0]), 6)  # residuals 0, 1
    -2.337877
    """
    X, y = _regression_data(X, y)
    w = as_vector(w, "w", X.shape[1] + 1)
    sigma2 = positive_float(sigma2, "sigma2")
    residuals = y - w[0] - X @ w[1:]
    return float(-0.5 * y.size * (_LOG_2PI + math.log(sigma2)) - residuals @ residuals / (2.0 * sigma2))


def linear_gaussian_mle(X, y) -> LinearGaussianMLE:
    """The MLE of the linear model with Gaussian noise: least squares, and the mean squared residual.

    Maximising :func:`linear_gaussian_log_likelihood` over ``w`` is minimising the sum of squared
    residuals, whatever ``sigma2``; then ``sigma2_hat = (1/n) sum_i (y_i - w_hat . x_tilde_i)^2``.
    Needs ``n >= d + 1`` points whose lifted inputs ``x_tilde_i`` span ``R^(d + 1)`` (else the least-
    squares solution is not unique, and a ``ValueError`` says so).

    >>> fit = linear_gaussian_mle([[0.0], [1.0], [2.0]], [1.0, 2.0, 4.0])
    >>> fit.w.round(6), round(fit.sigma2, 6)  # y = 0.833 + 1.5 x; residuals 1/6, -1/3, 1/6
    (array([0.833333, 1.5     ]), 0.055556)
    """
    X, y = _regression_data(X, y)
    n, d = X.shape
    X_tilde = np.column_stack([np.ones(n), X])
    w, _, rank, _ = np.linalg.lstsq(X_tilde, y, rcond=None)
    if rank < d + 1:
        raise ValueError(f"the least-squares solution is not unique: the lifted inputs (1, x_i) of the n = {n} "
                         f"points span only {rank} of d + 1 = {d + 1} dimensions (need n >= d + 1 points, "
                         "not all in a hyperplane, and no constant or repeated feature)")
    residuals = y - X_tilde @ w
    return LinearGaussianMLE(_frozen(w), float(residuals @ residuals / n), int(n))


# --------------------------------------------------------------------------- generative classifier


def fit_gaussian_classes(X, y, shared_covariance: bool = False) -> GaussianClassModel:
    """Fit class priors and class-conditional Gaussians by maximum likelihood.

    The log-likelihood of the labelled sample ``sum_i [log P(y_i) + log p(x_i | y_i)]`` splits
    into one term for the priors and one per class, so each part has its own closed form:

    * ``priors[k] = n_k / n`` (the categorical MLE of the labels);
    * ``means[k]`` = mean of the points of class k;
    * ``covariances[k] = Q_k / n_k`` with the class scatter
      ``Q_k = sum_{i in k} (x_i - means[k])(x_i - means[k])^T``; or, with ``shared_covariance=True``,
      one matrix for all classes, the pooled ``(1/n) sum_k Q_k = sum_k priors[k] * covariances_k``.

    Parameters
    ----------
    X : array of shape (n, d)
    y : array of shape (n,)
        Integer labels, any values; the classes are the distinct values, sorted.
    shared_covariance : bool
        Fit one covariance for all classes (the boundary between two classes is then linear).

    Raises
    ------
    ValueError
        When a fitted covariance is singular (a class with at most d points, or points in a
        hyperplane): use ``shared_covariance=True`` or more data.
    """
    X = as_matrix(X, "X")
    n, d = X.shape
    y = _integer_labels(y, n)
    if not isinstance(shared_covariance, (bool, np.bool_)):
        raise TypeError(f"shared_covariance must be True or False; got {shared_covariance!r}")
    classes, index, n_k = np.unique(y, return_inverse=True, return_counts=True)
    K = classes.size
    means = np.zeros((K, d))
    np.add.at(means, index, X)
    means /= n_k[:, None]
    R = X - means[index]
    scatter = np.stack([R[index == k].T @ R[index == k] for k in range(K)])  # (K, d, d), one product per class
    if shared_covariance:
        Sigma = scatter.sum(axis=0) / n
        Sigma = (Sigma + Sigma.T) / 2
        if _is_singular(Sigma):
            raise ValueError(
                f"the shared covariance MLE is singular (n = {n} points in K = {K} classes, d = {d}): "
                f"at least d + K = {d + K} points in general position are needed; add data or drop "
                "redundant features")
        covariances = np.repeat(Sigma[None], K, axis=0)
    else:
        covariances = scatter / n_k[:, None, None]
        covariances = (covariances + covariances.transpose(0, 2, 1)) / 2
        for c, m, Sigma_k in zip(classes, n_k, covariances):
            if _is_singular(Sigma_k):
                why = f": a class needs at least d + 1 = {d + 1} points" if m <= d else " (its points lie in a hyperplane)"
                raise ValueError(
                    f"the covariance MLE of class {c} is singular ({m} points in d = {d} dimensions{why}); "
                    "use shared_covariance=True or more data")
    return GaussianClassModel(_frozen(classes), _frozen(n_k / n), _frozen(means), _frozen(covariances),
                              bool(shared_covariance))


def class_log_scores(model: GaussianClassModel, X) -> np.ndarray:
    """``log p(x | Y = k) + log P(Y = k)`` for every row of ``X`` and class k; shape (n, K).

    This is ``log P(Y = k | x) + log p(x)``: the same argmax over k as the posterior.
    """
    classes, priors, means, covariances = _check_model(model)
    X = as_matrix(X, "X")
    if X.shape[1] != means.shape[1]:
        raise ValueError(f"X has {X.shape[1]} features per row; the model was fitted with {means.shape[1]}")
    with np.errstate(divide="ignore"):
        log_priors = np.log(priors)
    return _log_densities(X, means, np.linalg.cholesky(covariances)) + log_priors


def log_posterior(model: GaussianClassModel, X) -> np.ndarray:
    """``log P(Y = k | x)`` for every row of ``X`` and class k, by Bayes' rule; shape (n, K).

    ``log P(Y = k | x) = s_k(x) - log sum_j exp(s_j(x))`` with ``s`` = :func:`class_log_scores`.
    """
    scores = class_log_scores(model, X)
    return scores - logsumexp(scores, axis=1, keepdims=True)


def predict_gaussian_classes(model: GaussianClassModel, X) -> np.ndarray:
    """The label ``argmax_k [log p(x | Y = k) + log P(Y = k)]`` of every row of ``X``; shape (n,).

    Ties go to the larger label (the course's rule): among several classes with the largest score,
    the largest of them (``model.classes`` is sorted increasingly).

    >>> model = GaussianClassModel(np.array([0, 1]), np.array([0.5, 0.5]), np.array([[-1.0], [1.0]]),
    ...                            np.ones((2, 1, 1)))
    >>> predict_gaussian_classes(model, [[-0.5], [0.0], [0.5]])  # 0.0 is a tie: the larger class
    array([0, 1, 1])
    """
    scores = class_log_scores(model, X)  # checks the model first
    return np.asarray(model.classes)[argmax_ties_to_largest(scores)]


# --------------------------------------------------------------------------- helpers


def _out(value):
    value = np.asarray(value, dtype=float)
    return float(value) if value.ndim == 0 else value


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.array(a)
    a.flags.writeable = False
    return a


def _first_bad(values: np.ndarray, bad: np.ndarray):
    return values[bad].ravel()[0].item() if values.ndim else values.item()


def _params(value, name: str) -> np.ndarray:
    return _as_float_array(value, name)


def _probability(value, name: str) -> np.ndarray:
    value = _params(value, name)
    bad = (value < 0) | (value > 1)
    if np.any(bad):
        raise ValueError(f"{name} must lie in [0, 1]; got {_first_bad(value, bad)}")
    return value


def _data_vector(x, name: str) -> np.ndarray:
    x = _as_float_array(x, name)
    if x.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array of shape (n,); got shape {x.shape}")
    return x


def _nonempty(x: np.ndarray, name: str) -> np.ndarray:
    if x.size == 0:
        raise ValueError(f"{name} is empty: the MLE needs at least one observation")
    return x


def _binary_data(x, name: str) -> np.ndarray:
    x = _data_vector(x, name)
    return _refuse_first(x, (x != 0) & (x != 1), name, "0/1 outcomes only")


def _count_data(x, name: str) -> np.ndarray:
    x = _data_vector(x, name)
    return _refuse_first(x, (x < 0) | (x != np.floor(x)), name, "nonnegative integers (counts)")


def _refuse_first(x: np.ndarray, bad: np.ndarray, name: str, what: str) -> np.ndarray:
    """Raise naming the first entry of the 1-d ``x`` where ``bad`` holds; else return ``x``."""
    if bad.any():
        raise ValueError(f"{name} must hold {what}; found {x[bad][0].item()!r} at index {int(np.flatnonzero(bad)[0])}")
    return x


def _simplex(p, name: str) -> np.ndarray:
    p = as_vector(p, name)
    if p.size == 0:
        raise ValueError(f"{name} is empty; it needs one probability per category")
    if np.any(p < 0) or abs(p.sum() - 1.0) > 1e-9:
        raise ValueError(f"{name} must hold probabilities >= 0 summing to 1; got {p.tolist()} "
                         f"(sum {p.sum():.12g})")
    return p


def _category_counts(x, counts, K: int | None) -> np.ndarray:
    if (x is None) == (counts is None):
        raise ValueError("give the data either as outcomes x or as counts, exactly one of the two")
    if counts is not None:
        counts = _count_data(counts, "counts")
        if K is not None and counts.size != K:
            raise ValueError(f"counts has shape {counts.shape}, expected ({K},): one count per category")
        return counts
    x = _count_data(x, "x")
    if K is None:
        K = int(x.max()) + 1 if x.size else 0
    elif x.size and x.max() >= K:
        raise ValueError(f"x must hold categories 0, ..., {K - 1}; found {int(x.max())}")
    return np.bincount(x.astype(int), minlength=K).astype(float)


def _integer_labels(y, n: int) -> np.ndarray:
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"y must have shape ({n},) to match the rows of X; got shape {y.shape}")
    if y.dtype.kind in "iu":
        return y.astype(int)
    if y.dtype.kind == "f" and np.all(np.isfinite(y)) and np.all(y == np.round(y)):
        return y.astype(int)
    raise TypeError(f"y must hold integer class labels; got dtype {y.dtype}"
                    + (f" with value {y[0]!r}" if y.size else ""))


def _regression_data(X, y) -> tuple[np.ndarray, np.ndarray]:
    X = as_matrix(X, "X")
    y = _data_vector(y, "y")
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"y must have shape ({X.shape[0]},) to match the rows of X; got shape {y.shape}")
    return X, y


def _is_singular(S: np.ndarray) -> bool:
    eig = np.linalg.eigvalsh(S)
    return bool(eig[0] <= SINGULAR_RTOL * max(eig[-1], 0.0))


def _spd(Sigma, name: str, d: int) -> np.ndarray:
    Sigma = _as_float_array(Sigma, name)
    if Sigma.shape != (d, d):
        raise ValueError(f"{name} has shape {Sigma.shape}, expected ({d}, {d})")
    if not np.allclose(Sigma, Sigma.T, rtol=0.0, atol=1e-10 * np.abs(Sigma).max()):
        raise ValueError(f"{name} must be symmetric; it differs from its transpose by up to "
                         f"{np.abs(Sigma - Sigma.T).max():.3g}")
    Sigma = (Sigma + Sigma.T) / 2
    if _is_singular(Sigma):
        eig = np.linalg.eigvalsh(Sigma)
        raise ValueError(f"{name} must be positive definite; its eigenvalues run from {eig[0]:.3g} to "
                         f"{eig[-1]:.3g} (singular or nearly so)")
    return Sigma


def _log_densities(X: np.ndarray, means: np.ndarray, chol: np.ndarray) -> np.ndarray:
    """``log N(x_i; means[k], L_k L_k^T)`` for all rows i and k; ``chol`` (K, d, d); returns (n, K)."""
    d = X.shape[1]
    diff = X[None, :, :] - means[:, None, :]  # (K, n, d)
    z = np.linalg.solve(chol, diff.transpose(0, 2, 1))  # (K, d, n): L_k z = x - mu_k
    half_logdet = np.log(np.diagonal(chol, axis1=1, axis2=2)).sum(axis=1)  # (K,)
    return (-0.5 * d * _LOG_2PI - half_logdet[:, None] - 0.5 * np.sum(z**2, axis=1)).T


def _check_model(model):
    if not isinstance(model, GaussianClassModel):
        raise TypeError(f"model must be a GaussianClassModel (from fit_gaussian_classes); got {type(model).__name__}")
    means = as_matrix(model.means, "model.means")
    K, d = means.shape
    classes = np.asarray(model.classes)
    if classes.shape != (K,):
        raise ValueError(f"model.classes has shape {classes.shape}, expected ({K},)")
    priors = _model_priors(model, K)
    covariances = _as_float_array(model.covariances, "model.covariances")
    if covariances.shape != (K, d, d):
        raise ValueError(f"model.covariances has shape {covariances.shape}, expected ({K}, {d}, {d})")
    covariances = np.stack([_spd(S, f"model.covariances[{k}]", d) for k, S in enumerate(covariances)])
    return classes, priors, means, covariances


def _model_priors(model, K: int) -> np.ndarray:
    """``model.priors`` as K probabilities summing to 1 (the class models of lectures 03 and 04)."""
    priors = as_vector(model.priors, "model.priors", K)
    if np.any(priors < 0) or abs(priors.sum() - 1.0) > 1e-9:
        raise ValueError(f"model.priors must be >= 0 and sum to 1; got {priors.tolist()}")
    return priors

