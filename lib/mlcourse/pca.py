"""Lecture 12: principal component analysis, by the SVD of the centred data, by the eigenvectors of the covariance or
by those of the n x n Gram matrix; whitening; principal-component regression.

Conventions of the lecture:

* ``X`` has shape ``(n, d)``; ``k`` components, ``0 <= k <= min(n, d)`` (``k = 0`` keeps only the mean);
* the covariance is ``(1/n) sum_i (x_i - mean)(x_i - mean)^T``, lecture 03's maximum-likelihood estimate
  (scikit-learn's ``explained_variance_`` divides by ``n - 1`` instead; the ratios are the same);
* ``components`` has shape ``(k, d)``: row ``j`` is the unit vector ``q_j`` of the ``j``-th largest variance,
  so the rows are orthonormal; ``variances[j]`` is that variance, the ``j``-th largest eigenvalue;
* the sign of an eigenvector is not determined, so the course fixes it: in each component the entry of
  largest absolute value is positive, where entries within a relative ``TIE`` (1e-8) of the largest count as
  tied and the first of them (the lowest index) decides. An exact tie, such as the (1, -1)/sqrt(2) that
  symmetric data give, comes out of a computation with its last bits set by round-off, so a rule comparing
  the entries exactly would give either sign, depending on the machine; the tolerance is far above that
  round-off (about 1e-16 over an eigenvalue's relative gap to its neighbours) and far below any difference
  that means something. scikit-learn's ``PCA`` (version 1.5 on) takes the entry of largest absolute value
  too, but breaks ties exactly (``np.argmax``): the components agree with its ``components_`` entry for entry
  except where two entries tie within ``TIE``, where its sign is decided by round-off;
* whitened coordinates have covariance (1/n) the identity: each coordinate is divided by the square root of
  its variance with the lecture's 1/n, so they are ``sqrt(n / (n - 1))`` times scikit-learn's
  ``PCA(whiten=True)``, which divides by the (n - 1) variances;
* with ``standardise=True`` every feature is divided by its standard deviation (1/n) after centring, and a
  constant feature (variance within round-off, as scikit-learn's StandardScaler decides) by 1; projections
  work in those units, reconstructions return to the data's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import as_matrix, as_vector, nonnegative_float, nonnegative_int, positive_int
from .data import as_rng
from .regression import LinearFit

METHODS = ("svd", "eigh")
TIE = 1e-8  # entries of a component within this relative distance of its largest |entry| tie (the sign rule)


@dataclass(frozen=True)
class PCA:
    """A fitted principal component analysis: the mean and the scale of each feature (ones unless standardised),
    the ``k`` components as orthonormal rows, their variances (the ``k`` largest eigenvalues of the covariance),
    the total variance (the trace: the sum of all ``d`` eigenvalues), the explained-variance ratios
    ``variances / total_variance`` (zeros when every point is the same, where scikit-learn gives NaN), and the
    number of points ``n``."""

    mean: np.ndarray
    scale: np.ndarray
    components: np.ndarray
    variances: np.ndarray
    total_variance: float
    explained_variance_ratio: np.ndarray
    n: int


def _frozen(a) -> np.ndarray:
    a = np.array(a, dtype=float)
    a.setflags(write=False)
    return a


def centre(X) -> np.ndarray:
    """``X`` minus the mean of its rows: every column of the result sums to zero."""
    X = as_matrix(X)
    return X - X.mean(axis=0)


def covariance(X) -> np.ndarray:
    """The covariance matrix ``(1/n) Xc^T Xc`` of the rows of ``X``, ``Xc`` the centred data; shape (d, d)."""
    Xc = centre(X)
    return Xc.T @ Xc / len(Xc)


def sign_convention(components) -> np.ndarray:
    """The rows of ``components`` (shape (k, d)), each multiplied by +1 or -1 so that its entry of largest
    absolute value is positive: the first entry (lowest index) whose absolute value is within a relative
    ``TIE`` of the row's largest, so that a tie that round-off has broken either way is still a tie.
    A row of zeros stays as it is."""
    Q = np.asarray(components, dtype=float)
    if Q.ndim != 2:
        raise ValueError(f"components must be a 2-d array of shape (k, d); got shape {Q.shape}")
    if Q.shape[1] == 0:
        return Q.copy()
    # the first entry whose absolute value is within TIE of the largest
    largest = Q[np.arange(len(Q)), np.argmax(np.abs(Q) >= np.abs(Q).max(axis=1, keepdims=True) * (1 - TIE), axis=1)]
    return Q * np.where(largest < 0, -1.0, 1.0)[:, None]


def _scale(Xc: np.ndarray, mean: np.ndarray, standardise: bool) -> np.ndarray:
    """Each feature's standard deviation, or 1 for a constant feature: one whose variance is within the
    round-off of computing it (the test of scikit-learn's StandardScaler), so a column of 0.1s whose mean came
    out as 0.1 - 3e-17 is not blown up into a feature of variance 1."""
    if not standardise:
        return np.ones(Xc.shape[1])
    n, eps = len(Xc), np.finfo(float).eps
    var = (Xc**2).mean(axis=0)
    constant = var <= n * eps * var + (n * mean * eps) ** 2
    return np.where(constant, 1.0, np.sqrt(var))


def _k(k, n: int, d: int) -> int:
    if k is None:
        return min(n, d)
    k = nonnegative_int(k, "k")
    if k > min(n, d):
        raise ValueError(f"k must be at most min(n, d) = {min(n, d)} for X of shape ({n}, {d}); got {k}")
    return k


def fit_pca(X, k=None, *, standardise: bool = False, method: str = "svd") -> PCA:
    """The first ``k`` principal components of the rows of ``X`` (all ``min(n, d)`` if ``k`` is None).

    ``method="svd"`` takes the right singular vectors of the centred data ``Xc = U S V^T`` (the variances are
    ``s_j^2 / n``): it never forms ``Xc^T Xc``, whose condition number is the square of ``Xc``'s, and is the
    route to use. ``method="eigh"`` takes the eigenvectors of the covariance, largest eigenvalue first (an
    eigenvalue below zero, round-off only, is set to 0): the other view of the same answer.

    >>> pca = fit_pca([[0.0, 0.0], [2.0, 2.0], [4.0, 4.0]], k=1)
    >>> pca.components.round(3).tolist(), pca.variances.round(3).tolist()
    ([[0.707, 0.707]], [5.333])
    """
    X = as_matrix(X)
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}; got {method!r}")
    n, d = X.shape
    k = _k(k, n, d)
    mean = X.mean(axis=0)
    Xc = X - mean
    scale = _scale(Xc, mean, standardise)
    if standardise:
        Xc = Xc / scale
    if method == "svd":
        # For a tall Xc = QR the SVD of the small triangle R has the same singular values and right singular
        # vectors, and QR is as stable as the SVD: about half the time when n >> d.
        small = np.linalg.qr(Xc, mode="r") if n >= 2 * d else Xc
        _, s, Vt = np.linalg.svd(small, full_matrices=False)
        eigenvalues, vectors = s**2 / n, Vt
    else:
        eigenvalues, V = np.linalg.eigh(Xc.T @ Xc / n)
        eigenvalues, vectors = np.clip(eigenvalues[::-1], 0.0, None), V[:, ::-1].T
    total = float((Xc**2).sum() / n)
    variances = eigenvalues[:k]
    ratio = variances / total if total > 0 else np.zeros(k)
    return PCA(_frozen(mean), _frozen(scale), _frozen(sign_convention(vectors[:k])), _frozen(variances), total,
               _frozen(ratio), n)


def fit_pca_via_gram(X, k=None, *, standardise: bool = False) -> PCA:
    """The first ``k`` principal components of the rows of ``X`` from the ``n x n`` Gram matrix ``G = Xc Xc^T``
    of the centred data, the route for fewer points than features (``n < d``).

    If ``G u = mu u`` with ``||u|| = 1`` and ``mu > 0``, then ``v = Xc^T u / sqrt(mu)`` is a unit eigenvector of
    ``Xc^T Xc`` with the same eigenvalue, so of the covariance ``Xc^T Xc / n`` with ``lambda = mu / n``: the
    component is ``v = Xc^T u / sqrt(n lambda)`` and its variance ``lambda``. Forming ``G`` costs ``O(n^2 d)`` and
    its eigenvectors ``O(n^3)``, against ``O(n d^2 + d^3)`` for the covariance; like the covariance it squares the
    condition number of ``Xc``, so a variance below about ``1e-16`` of the largest is lost in round-off (and a
    direction whose variance is within that of its neighbours is not accurate). An eigenvalue ``mu = 0`` has no
    direction to map back (``G 1 = 0`` always: the centred rows sum to zero, so at most ``n - 1`` components have a
    variance), so ``k`` (default: all of them) is at most the number of eigenvalues above ``max(n, d) eps mu_1``.
    Standardising, the sign rule and the returned ``PCA`` are those of :func:`fit_pca` (Lecture 12).

    >>> fit = fit_pca_via_gram([[0.0, 0.0, 1.0], [2.0, 2.0, 1.0]])
    >>> fit.components.round(3).tolist(), fit.variances.round(3).tolist()
    ([[0.707, 0.707, 0.0]], [2.0])
    """
    X = as_matrix(X)
    n, d = X.shape
    mean = X.mean(axis=0)
    Xc = X - mean
    scale = _scale(Xc, mean, standardise)
    if standardise:
        Xc = Xc / scale
    mu, U = np.linalg.eigh(Xc @ Xc.T)
    mu, U = mu[::-1], U[:, ::-1]
    rank = int(np.sum(mu > max(n, d) * np.finfo(float).eps * mu[0])) if mu[0] > 0 else 0
    if k is None:
        k = rank
    k = nonnegative_int(k, "k")
    if k > rank:
        raise ValueError(f"k must be at most {rank}, the number of non-zero eigenvalues of the Gram matrix of X (shape "
                         f"({n}, {d})): a component of variance 0 has no direction to map back; got {k}")
    vectors = (Xc.T @ U[:, :k]) / np.sqrt(mu[:k])            # v_j = Xc^T u_j / sqrt(n lambda_j), unit
    total = float((Xc**2).sum() / n)
    variances = mu[:k] / n
    ratio = variances / total if total > 0 else np.zeros(k)
    return PCA(_frozen(mean), _frozen(scale), _frozen(sign_convention(vectors.T)), _frozen(variances), total,
               _frozen(ratio), n)


def _check_pca(pca) -> PCA:
    if not isinstance(pca, PCA):
        raise TypeError(f"pca must be the PCA that fit_pca returns; got {type(pca).__name__}")
    return pca


def project(pca: PCA, X) -> np.ndarray:
    """The coordinates of the rows of ``X`` along the components, ``((x - mean) / scale) . q_j``; shape (n, k)."""
    pca = _check_pca(pca)
    X = as_matrix(X)
    d = len(pca.mean)
    if X.shape[1] != d:
        raise ValueError(f"X must have d = {d} columns, as the data the PCA was fitted on; got shape {X.shape}")
    return (X - pca.mean) / pca.scale @ pca.components.T


def reconstruct(pca: PCA, Z) -> np.ndarray:
    """The points of the data's space with coordinates ``Z`` (shape (n, k)) along the components:
    ``mean + scale * sum_j z_j q_j``; shape (n, d). With ``Z = project(pca, X)`` this is the orthogonal
    projection of each (centred, scaled) row onto the span of the components."""
    pca = _check_pca(pca)
    k = len(pca.components)
    Z = np.asarray(Z, dtype=float)
    if Z.ndim != 2 or Z.shape[1] != k:
        raise ValueError(f"Z must have shape (n, {k}), one column per component; got shape {Z.shape}")
    return Z @ pca.components * pca.scale + pca.mean


def reconstruction_error(pca: PCA, X) -> float:
    """The mean squared distance ``(1/n) sum_i ||x_i - x_hat_i||^2`` between the rows of ``X`` and their
    reconstructions from the components (in the data's units). On the data the PCA was fitted on, without
    standardising, it is the sum of the eigenvalues left out."""
    X = as_matrix(X)
    residual = X - reconstruct(pca, project(pca, X))
    return float((residual**2).sum() / len(X))


def whiten(pca: PCA, X, *, zca: bool = False, floor=0.0) -> np.ndarray:
    """The whitened coordinates of the rows of ``X`` (Lecture 12): ``z = (Lambda + floor I)^(-1/2) V^T (x - mean)``,
    shape (n, k), with ``V`` the ``k`` components as columns and ``Lambda`` their variances (PCA whitening); with
    ``zca=True``, ``V z``, shape (n, d), the same point turned back into the data's axes (ZCA whitening, the
    whitening that moves the centred points least). On the data the PCA was fitted on, with ``floor = 0``, the
    whitened coordinates have covariance (1/n) the identity (ZCA's: ``V V^T``, the identity when ``k = d``).

    A component of tiny variance is divided by a tiny number: its noise is blown up to unit variance, and a
    variance of 0 cannot be whitened at all. ``floor > 0`` (same units as the variances) divides by
    ``sqrt(lambda_j + floor)`` instead, which leaves a component of variance ``lambda_j`` with variance
    ``lambda_j / (lambda_j + floor)``: about 1 for ``lambda_j >> floor``, about ``lambda_j / floor`` below it.
    With ``standardise=True`` the coordinates are in the standardised units (ZCA: of the centred, scaled data).
    scikit-learn's ``PCA(whiten=True)`` divides by the (n - 1) variances: its ``transform`` is
    ``sqrt((n - 1) / n)`` times the PCA whitening here.
    """
    pca = _check_pca(pca)
    if not isinstance(zca, (bool, np.bool_)):
        raise TypeError(f"zca must be True or False; got {zca!r}")
    floor = nonnegative_float(floor, "floor")
    Z = project(pca, X)
    spread = np.sqrt(pca.variances + floor)
    if np.any(spread == 0):
        j = int(np.flatnonzero(spread == 0)[0])
        raise ValueError(f"component {j} has variance 0 and cannot be whitened: pass floor > 0, or keep fewer components")
    W = Z / spread
    return W @ pca.components if zca else W


def fit_pcr(X, y, k, *, standardise: bool = False) -> LinearFit:
    """Principal-component regression (Lecture 12): least squares of ``y`` on the coordinates of the rows of ``X``
    along its first ``k`` principal components, with an intercept, written back as ``f(x) = w . x + b``.

    The coordinates ``Z = Xc V_k`` are centred and orthogonal, ``Z^T Z = n diag(lambda_1 .. lambda_k)``, so the
    least-squares coefficient of column ``j`` of ``Z`` is ``Z[:, j] . y_c / (n lambda_j)`` (``y_c = y - mean(y)``), ``w`` is
    ``V_k`` times these coefficients (divided by each feature's scale when standardised) and ``b = mean(y) - w . mean(X)``. In the SVD ``Xc = U diag(s) V^T`` this is
    ``w = sum_{j <= k} (u_j . y_c / s_j) v_j``: ridge's sum with its filter factors ``s_j^2 / (s_j^2 + lam)``
    replaced by 1 for the first ``k`` directions and 0 for the rest. ``k = 0`` predicts the mean of ``y``; ``k``
    is at most the number of components of non-zero variance."""
    X = as_matrix(X)
    y = as_vector(y, "y")
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"y has shape {y.shape}, expected ({X.shape[0]},) to match the rows of X")
    fit = fit_pca(X, k, standardise=standardise)
    lam = fit.variances
    if np.any(lam <= max(X.shape) * np.finfo(float).eps * max(fit.total_variance, np.finfo(float).tiny)):
        raise ValueError(f"k must be at most the number of components of non-zero variance "
                         f"({int(np.sum(lam > max(X.shape) * np.finfo(float).eps * fit.total_variance))} here); got {k}")
    y_mean = float(y.mean())
    Z = project(fit, X)
    coefficients = Z.T @ (y - y_mean) / (len(X) * lam)
    w = fit.components.T @ coefficients / fit.scale
    return LinearFit(w, y_mean - float(fit.mean @ w))


def captured_variance(X, basis) -> float:
    """The variance of the centred rows of ``X`` kept by the subspace spanned by the orthonormal rows of
    ``basis`` (shape (k, d)): ``(1/n) ||Xc basis^T||_F^2 = trace(basis C basis^T)``."""
    Xc = centre(X)
    Q = np.asarray(basis, dtype=float)
    if Q.ndim != 2 or Q.shape[1] != Xc.shape[1]:
        raise ValueError(f"basis must have shape (k, {Xc.shape[1]}); got shape {Q.shape}")
    if not np.allclose(Q @ Q.T, np.eye(len(Q)), atol=1e-8):
        raise ValueError("the rows of basis must be orthonormal (basis @ basis.T the identity)")
    return float(((Xc @ Q.T) ** 2).sum() / len(Xc))


def random_subspace(d: int, k: int, rng) -> np.ndarray:
    """A random ``k``-dimensional subspace of ``R^d``, uniformly distributed, as ``k`` orthonormal rows."""
    d, k = positive_int(d, "d"), nonnegative_int(k, "k")
    if k > d:
        raise ValueError(f"k must be at most d = {d}; got {k}")
    Q, R = np.linalg.qr(as_rng(rng).standard_normal((d, k)))
    return (Q * np.sign(np.diag(R))).T


def truncate(pca: PCA, k) -> PCA:
    """The same PCA with only its first ``k`` components (``0 <= k <=`` the number it has): the PCA with ``k``
    components of the same data, without fitting again."""
    pca = _check_pca(pca)
    k = nonnegative_int(k, "k")
    if k > len(pca.components):
        raise ValueError(f"k must be at most {len(pca.components)}, the number of components of this PCA; got {k}")
    return PCA(pca.mean, pca.scale, pca.components[:k], pca.variances[:k], pca.total_variance,
               pca.explained_variance_ratio[:k], pca.n)

