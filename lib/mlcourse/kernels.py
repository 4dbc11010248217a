"""Lecture 06: feature maps, kernels, and the perceptron written with kernels.

Conventions of the lecture:

* points are rows (``A`` (m, d), ``B`` (n, d)); a kernel function takes two such sets and returns the
  (m, n) matrix ``K[i, j] = k(A[i], B[j])``; the **Gram matrix** of one set ``X`` is ``k(X, X)``;
* the **polynomial kernel** ``(c + a.b)^p`` (degree ``p >= 1``, ``c >= 0``) and its explicit map
  :func:`polynomial_features`, whose coordinates are the monomials of degree at most ``p`` weighted
  by square roots of multinomial coefficients, so that ``phi(a).phi(b) = (c + a.b)^p`` exactly;
* the **Gaussian (RBF) kernel** ``exp(-||a - b||^2 / (2 sigma^2))`` of bandwidth ``sigma > 0``
  (scikit-learn's ``gamma`` is ``1 / (2 sigma^2)``);
* the **kernel perceptron** keeps ``alpha[i]``, the number of updates made on point ``i``; its score
  is ``f(x) = sum_i alpha_i y_i k(x_i, x)``. It is lecture 02's perceptron run on ``phi(x)`` without
  writing ``phi``: same order of the points, a mistake when ``y f(x) <= 0``, prediction ``sign``
  with ``sign(0) = +1``, starting from ``w = 0`` (no bias: a constant in the kernel plays its part);
* **kernel ridge regression** minimises ``1/2 sum_i (y_i - f(x_i))^2 + lam/2 ||w||^2`` over
  ``f(x) = w . phi(x)``; by the representer theorem ``f(x) = sum_i alpha_i k(x_i, x)`` with
  ``alpha = (K + lam I)^{-1} y`` (:func:`kernel_ridge`; scikit-learn's ``KernelRidge(alpha=lam)``);
* **random Fourier features** ``z(x) = sqrt(2/D) cos(omega x + b)`` with ``D`` frequencies ``omega_k``
  drawn from ``N(0, I / sigma^2)`` and phases ``b_k`` from ``U[0, 2 pi]``: ``z(x) . z(x')`` is an
  unbiased estimate of the RBF kernel of bandwidth ``sigma``, with variance
  ``(1 + k^4 / 2 - k^2) / D`` where ``k = k(x, x')`` (scikit-learn's ``RBFSampler`` with
  ``gamma = 1 / (2 sigma^2)`` draws the same map).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ._checks import (as_gram_and_labels, as_labels, as_matrix, as_vector, nonnegative_float, positive_float,
                      positive_int)
from .data import as_rng
from .neighbours import _pair, squared_distances

# --------------------------------------------------------------------------- kernels


def linear_kernel(A, B) -> np.ndarray:
    """``K[i, j] = A[i] . B[j]``.

    >>> linear_kernel([[1.0, 2.0]], [[3.0, 4.0], [0.0, 1.0]])
    array([[11.,  2.]])
    """
    A, B = _pair(A, B)
    return A @ B.T


def polynomial_kernel(A, B, degree=2, c=1.0) -> np.ndarray:
    """``K[i, j] = (c + A[i] . B[j])^degree``.

    >>> polynomial_kernel([[1.0, 2.0]], [[3.0, 4.0]], degree=2, c=1.0)
    array([[144.]])
    """
    A, B = _pair(A, B)
    degree = positive_int(degree, "degree")
    c = nonnegative_float(c, "c")
    return (c + A @ B.T) ** degree


def rbf_kernel(A, B, sigma=1.0) -> np.ndarray:
    """``K[i, j] = exp(-||A[i] - B[j]||^2 / (2 sigma^2))``, with the squared distances of lecture 05
    (centred, never negative), so that ``K[i, i] = 1`` for equal points however far from the origin.

    >>> rbf_kernel([[0.0, 0.0]], [[0.0, 0.0], [1.0, 1.0]], sigma=1.0).round(4)
    array([[1.    , 0.3679]])
    """
    sigma = positive_float(sigma, "sigma")
    K = squared_distances(A, B)
    K *= -0.5 / sigma**2
    return np.exp(K, out=K)


def gram_matrix(kernel, X, **params) -> np.ndarray:
    """The Gram matrix ``kernel(X, X, **params)``, made exactly symmetric (rounding can leave the two
    triangles a last digit apart, which eigenvalue routines for symmetric matrices assume away)."""
    X = as_matrix(X)
    K = np.asarray(kernel(X, X, **params), dtype=float)
    if K.shape != (len(X), len(X)):
        raise ValueError(f"the kernel returned shape {K.shape} for {len(X)} points; expected ({len(X)}, {len(X)})")
    return (K + K.T) / 2


def _symmetric_eigenvalues(K) -> np.ndarray:
    K = np.asarray(K, dtype=float)
    if K.ndim != 2 or K.shape[0] != K.shape[1] or K.size == 0:
        raise ValueError(f"K must be a square matrix; got shape {K.shape}")
    if not np.all(np.isfinite(K)):
        raise ValueError("K has entries that are not finite")
    if not np.allclose(K, K.T, rtol=1e-10, atol=1e-12 * max(1.0, np.abs(K).max())):
        raise ValueError("K is not symmetric: a Gram matrix has K[i, j] = k(x_i, x_j) = K[j, i]")
    return np.linalg.eigvalsh((K + K.T) / 2)


def smallest_eigenvalue(K) -> float:
    """The smallest eigenvalue of the symmetric matrix ``K``: negative (beyond rounding) means ``K`` is
    not positive semidefinite, so no feature map has it as Gram matrix."""
    return float(_symmetric_eigenvalues(K)[0])


def is_psd(K, rtol=1e-9) -> bool:
    """Whether ``K`` is positive semidefinite up to rounding: its smallest eigenvalue is at least
    ``-rtol`` times its largest absolute eigenvalue (the scale of the rounding errors)."""
    eigenvalues = _symmetric_eigenvalues(K)
    return bool(eigenvalues[0] >= -rtol * max(np.abs(eigenvalues).max(), np.finfo(float).tiny))


# --------------------------------------------------------------------------- explicit feature maps


def polynomial_feature_count(d, degree) -> int:
    """The number of monomials of degree at most ``degree`` in ``d`` variables, ``C(d + p, p)``: the
    dimension of :func:`polynomial_features`.

    >>> polynomial_feature_count(2, 2), polynomial_feature_count(100, 3)
    (6, 176851)
    """
    return math.comb(positive_int(d, "d") + positive_int(degree, "degree"), degree)


@lru_cache(maxsize=1024)
def _monomials(d, degree, homogeneous=False):
    """Exponent vectors ``k`` (M, d + 1) of the monomials of the map, column 0 the power of the constant
    ``sqrt(c)`` (0 throughout when ``homogeneous``), one per multiset of size ``degree``, in a fixed
    order; and the weights ``sqrt(degree! / prod_j k_j!)`` (M,)."""
    first = 1 if homogeneous else 0
    combos = np.array(list(itertools.combinations_with_replacement(range(first, d + 1), degree)), dtype=int)
    exponents = np.stack([np.sum(combos == j, axis=1) for j in range(d + 1)], axis=1)
    log_weight = math.lgamma(degree + 1) - np.vectorize(math.lgamma)(exponents + 1.0).sum(axis=1)
    return exponents, np.exp(log_weight / 2)


def _weighted_monomials(U, degree, homogeneous=False):
    exponents, weights = _monomials(U.shape[1] - 1, degree, homogeneous)
    # powers[:, j, e] = U[:, j] ** e for e = 0..degree, by repeated products: gathering from this table
    # costs a tenth of raising every entry to its exponent with pow
    powers = np.cumprod(np.concatenate([np.ones(U.shape + (1,)), np.repeat(U[:, :, None], degree, axis=2)], axis=2),
                        axis=2)
    return weights * np.prod(powers[:, np.arange(U.shape[1]), exponents], axis=2)


def polynomial_features(X, degree=2, c=1.0) -> np.ndarray:
    """The explicit map ``phi`` with ``phi(a) . phi(b) = (c + a . b)^degree``, shape (n, C(d + p, p)).

    Write ``c + a.b = sum_{j=0}^d u_j v_j`` with ``u = (sqrt c, a)``, ``v = (sqrt c, b)``; the
    multinomial theorem expands its p-th power into ``sum_k (p! / prod k_j!) prod_j (u_j v_j)^{k_j}``
    over exponent vectors ``k`` with ``sum k_j = p``. So the coordinate of ``k`` is
    ``sqrt(p! / prod k_j!) prod_j u_j^{k_j}``. For d = 2, p = 2, c = 1: ``(1, sqrt2 a_1, sqrt2 a_2,
    a_1^2, sqrt2 a_1 a_2, a_2^2)`` in this function's order.

    >>> polynomial_features([[1.0, 2.0]], degree=2).round(4)
    array([[1.    , 1.4142, 2.8284, 1.    , 2.8284, 4.    ]])
    """
    X = as_matrix(X)
    degree = positive_int(degree, "degree")
    c = nonnegative_float(c, "c")
    return _weighted_monomials(np.hstack([np.full((len(X), 1), math.sqrt(c)), X]), degree)


def rbf_features(X, sigma=1.0, terms=10) -> np.ndarray:
    """A truncated explicit map for the RBF kernel: ``phi(a) . phi(b)`` is the RBF kernel with the
    series of ``exp(2 gamma a.b)`` cut after ``terms`` terms (degrees ``0, ..., terms - 1``).

    With ``gamma = 1 / (2 sigma^2)``,
    ``exp(-gamma ||a - b||^2) = exp(-gamma ||a||^2) exp(-gamma ||b||^2) sum_{k>=0} (2 gamma)^k (a.b)^k / k!``
    and ``(a.b)^k`` is the inner product of the degree-k homogeneous monomial maps (the multinomial
    weights of :func:`polynomial_features` without the constant). Block k is that map times
    ``exp(-gamma ||a||^2) sqrt((2 gamma)^k / k!)``; the full map has infinitely many blocks.
    """
    X = as_matrix(X)
    gamma = 0.5 / positive_float(sigma, "sigma") ** 2
    terms = positive_int(terms, "terms")
    U = np.hstack([np.ones((len(X), 1)), X])
    envelope = np.exp(-gamma * (X * X).sum(axis=1))[:, None]
    blocks = [envelope * np.ones((len(X), 1))]
    for k in range(1, terms):
        scale = math.exp((k * math.log(2 * gamma) - math.lgamma(k + 1)) / 2)
        blocks.append(envelope * scale * _weighted_monomials(U, k, homogeneous=True))
    return np.hstack(blocks)


def memorising_features(X_train, X) -> np.ndarray:
    """The map that gives each training point a coordinate of its own: ``phi(x)_i = 1`` if ``x`` equals
    ``X_train[i]``, else 0. Any labelling of distinct training points is separated by
    ``w = y`` (``w . phi(x_i) = y_i``), and a point not in the training set maps to 0."""
    X_train, X = _pair(X_train, X, ("X_train", "X"))
    return np.all(X[:, None, :] == X_train[None, :, :], axis=2).astype(float)


# --------------------------------------------------------------------------- the kernel perceptron


@dataclass(frozen=True)
class KernelPerceptronResult:
    """What :func:`train_kernel_perceptron` returns.

    ``alpha[i]``: updates made on point ``i``; ``updates``: the indices of the points updated on, in
    order; ``n_epochs``: passes over the data; ``converged``: the last pass made no mistake."""

    alpha: np.ndarray
    updates: np.ndarray
    n_epochs: int
    converged: bool

    @property
    def n_mistakes(self) -> int:
        return len(self.updates)

    @property
    def support(self) -> np.ndarray:
        """Indices of the points with ``alpha > 0``: the only ones the classifier needs."""
        return np.flatnonzero(self.alpha > 0)


def train_kernel_perceptron(K, y, max_epochs=1000, alpha0=None) -> KernelPerceptronResult:
    """The perceptron in its dual form, on the Gram matrix ``K`` (n, n) of the training points.

    Passes over the points in order; on a mistake at ``i`` (``y_i f(x_i) <= 0``), ``alpha_i += 1``.
    Starts from ``alpha0`` (counts >= 0; zeros, that is ``w = 0``, by default).
    The scores ``f(x_j)`` of all points are kept up to date (an update adds ``y_i K[:, i]``), so a check
    costs one lookup and an update one column.

    >>> K = linear_kernel([[1.0], [-1.0]], [[1.0], [-1.0]])
    >>> r = train_kernel_perceptron(K, [1, -1])
    >>> r.alpha.tolist(), r.updates.tolist(), r.converged
    ([1, 0], [0], True)
    """
    K, y = as_gram_and_labels(K, y)
    max_epochs = positive_int(max_epochs, "max_epochs")
    n = len(y)
    alpha = np.zeros(n, dtype=int) if alpha0 is None else _counts(alpha0, n)
    scores = K @ (alpha * y)
    updates = []
    for epoch in range(1, max_epochs + 1):
        before = len(updates)
        for i in range(n):
            if y[i] * scores[i] <= 0:
                alpha[i] += 1
                scores += y[i] * K[:, i]
                updates.append(i)
        if len(updates) == before:
            return KernelPerceptronResult(alpha, np.array(updates, dtype=int), epoch, True)
    converged = bool(np.all(y * scores > 0))
    return KernelPerceptronResult(alpha, np.array(updates, dtype=int), max_epochs, converged)


def _counts(alpha, n):
    alpha = np.asarray(alpha)
    if alpha.shape != (n,):
        raise ValueError(f"alpha has shape {alpha.shape}; expected ({n},), one count per training point")
    if not (np.all(alpha >= 0) and np.all(alpha == np.round(alpha))):
        raise ValueError("alpha must hold whole numbers >= 0: the updates made on each point")
    return alpha.astype(int)


def kernel_decision_function(K_query, y_train, alpha) -> np.ndarray:
    """Scores ``f(x) = sum_i alpha_i y_i k(x_i, x)`` of the queries, from ``K_query[q, i] = k(x_q, x_i)``
    (m, n)."""
    K_query = np.asarray(K_query, dtype=float)
    if K_query.ndim != 2:
        raise ValueError(f"K_query must be a matrix (queries, training points); got shape {K_query.shape}")
    y_train = as_labels(y_train, K_query.shape[1], "y_train")
    alpha = np.asarray(alpha, dtype=float)
    if alpha.shape != y_train.shape:
        raise ValueError(f"alpha has shape {alpha.shape}; expected {y_train.shape}, one count per training point")
    return K_query @ (alpha * y_train)


def kernel_predict(K_query, y_train, alpha) -> np.ndarray:
    """Labels ``sign(f(x))`` in {-1, +1}, a score of exactly 0 predicting +1."""
    return np.where(kernel_decision_function(K_query, y_train, alpha) >= 0, 1, -1)


# --------------------------------------------------------------------------- kernel ridge regression


def kernel_ridge(K, y, lam) -> np.ndarray:
    """The coefficients ``alpha = (K + lam I)^{-1} y`` of kernel ridge regression (lecture 06).

    They minimise ``1/2 ||y - K alpha||^2 + lam/2 alpha' K alpha``, which is
    ``1/2 sum_i (y_i - f(x_i))^2 + lam/2 ||w||^2`` for ``f = w . phi = sum_i alpha_i k(x_i, .)``; by the
    representer theorem no ``w`` outside the span of the ``phi(x_i)`` does better. Predictions at new
    points are ``K_query @ alpha`` with ``K_query[q, i] = k(x_q, x_i)``. Scikit-learn's
    ``KernelRidge(alpha=lam, kernel="precomputed")`` has the same ``dual_coef_``.

    Parameters
    ----------
    K : array of shape (n, n), the Gram matrix of the training points (symmetric, positive semidefinite)
    y : array of shape (n,), real targets
    lam : float > 0, the weight of the penalty

    >>> kernel_ridge([[1.0, 0.0], [0.0, 1.0]], [2.0, 4.0], 1.0)
    array([1., 2.])
    """
    K = np.asarray(K, dtype=float)
    if K.ndim != 2 or K.shape[0] != K.shape[1] or K.size == 0:
        raise ValueError(f"K must be the square Gram matrix of the training points; got shape {K.shape}")
    if not np.all(np.isfinite(K)):
        raise ValueError("K has entries that are not finite")
    y = as_vector(y, "y", K.shape[0])
    lam = positive_float(lam, "lam")
    return np.linalg.solve((K + K.T) / 2 + lam * np.eye(len(y)), y)


# --------------------------------------------------------------------------- random Fourier features


def fourier_features(X, omega, b) -> np.ndarray:
    """The map ``z(x) = sqrt(2/D) cos(omega x + b)`` of each row ``x`` of ``X`` (lecture 06), shape (n, D).

    Parameters
    ----------
    X : array of shape (n, d), the points
    omega : array of shape (D, d), one frequency per row
    b : array of shape (D,), the phases

    >>> fourier_features([[0.0], [np.pi]], [[1.0], [0.5]], [0.0, 0.0]).round(4)
    array([[ 1.,  1.],
           [-1.,  0.]])
    """
    X = as_matrix(X)
    omega = as_matrix(omega, "omega")
    if omega.shape[1] != X.shape[1]:
        raise ValueError(f"omega has shape {omega.shape}: one frequency per row, with the dimension of X, "
                         f"{X.shape[1]}, as its number of columns")
    b = as_vector(b, "b", omega.shape[0])
    D = omega.shape[0]
    return math.sqrt(2.0 / D) * np.cos(X @ omega.T + b)


@dataclass(frozen=True)
class FourierFeatures:
    """A drawn random Fourier map (what :func:`random_fourier_features` returns): frequencies ``omega``
    (D, d), phases ``b`` (D,) and the bandwidth ``sigma`` they were drawn for. Call it on points ``X``
    (n, d) for their features (n, D); the same map must be applied to training and new points."""

    omega: np.ndarray
    b: np.ndarray
    sigma: float

    @property
    def D(self) -> int:
        return self.omega.shape[0]

    def __call__(self, X) -> np.ndarray:
        return fourier_features(X, self.omega, self.b)


def random_fourier_features(d, D, sigma, rng) -> FourierFeatures:
    """Draw a random Fourier map of ``D`` features for the RBF kernel of bandwidth ``sigma`` in ``d``
    dimensions (Rahimi and Recht; lecture 06).

    The kernel ``exp(-||x - x'||^2 / (2 sigma^2))`` is ``E cos(omega . (x - x'))`` for
    ``omega ~ N(0, I / sigma^2)`` (the characteristic function of that normal), and
    ``2 cos(omega . x + b) cos(omega . x' + b) = cos(omega . (x - x')) + cos(omega . (x + x') + 2 b)``,
    whose second term has mean 0 over ``b ~ U[0, 2 pi]``. So ``z(x) . z(x')`` is unbiased for the
    kernel. Scikit-learn's ``RBFSampler(gamma=1 / (2 sigma^2))`` draws its ``random_weights_`` (the
    transposed ``omega``) and ``random_offset_`` (``b``) from the same distributions.

    >>> F = random_fourier_features(3, 500, 2.0, np.random.default_rng(0))
    >>> F.omega.shape, F.b.shape, F(np.zeros((4, 3))).shape
    ((500, 3), (500,), (4, 500))
    """
    d, D = positive_int(d, "d"), positive_int(D, "D")
    sigma = positive_float(sigma, "sigma")
    rng = as_rng(rng)
    omega = rng.standard_normal((D, d)) / sigma
    b = rng.uniform(0.0, 2 * np.pi, D)
    return FourierFeatures(omega, b, sigma)
