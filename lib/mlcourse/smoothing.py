"""Lecture 09: nonparametric regression by local averages: k-nearest-neighbour regression and the
kernel (Nadaraya–Watson) estimator, and leave-one-out cross-validation for linear smoothers.

Conventions of the lecture:

* training points are rows ``X_train`` (n, d) with real targets ``y_train`` (n,); queries ``X_query`` (m, d);
* a **linear smoother** predicts ``f(X_query) = W y_train`` with weights ``W`` (m, n) that depend on the
  inputs only; every row of ``W`` sums to 1;
* the **Nadaraya–Watson** weights are ``K(||x - x_j|| / h) / sum_l K(||x - x_l|| / h)`` with a bandwidth
  ``h > 0`` and a kernel profile ``K``: ``"gaussian"`` ``exp(-u^2/2)``, ``"epanechnikov"``
  ``(1 - u^2)_+`` and ``"box"`` ``1[u <= 1]`` (constant factors cancel in the ratio). With a kernel of
  bounded support a query with no training point within ``h`` has no estimate: ``nan``;
* **k-NN regression** averages the ``k`` nearest targets (ties in distance: the earlier point first,
  lecture 05's rule);
* for a smoother whose leave-one-out fit is the same weights renormalised without point ``i`` (Nadaraya–
  Watson; also least squares and ridge, by the Sherman–Morrison formula), the leave-one-out residual is
  ``(y_i - f(x_i)) / (1 - H_ii)`` with ``H = W`` on the training points. It is **not** so for k-NN,
  whose leave-one-out fit brings in the (k+1)-th neighbour.
"""

from __future__ import annotations

import numpy as np

from ._checks import as_matrix, as_vector, positive_float, positive_int
from .neighbours import _pair, nearest_neighbours, squared_distances

KERNELS = ("gaussian", "epanechnikov", "box")


def kernel_profile(u, kernel: str = "gaussian") -> np.ndarray:
    """``K(u)`` for distances ``u >= 0`` (in units of the bandwidth), elementwise."""
    u = np.asarray(u, dtype=float)
    if kernel == "gaussian":
        return np.exp(-0.5 * u * u)
    if kernel == "epanechnikov":
        return np.maximum(1.0 - u * u, 0.0)
    if kernel == "box":
        return (u <= 1.0).astype(float)
    raise ValueError(f"kernel must be one of {KERNELS}; got {kernel!r}")


def _training(X_train, y_train):
    X_train = as_matrix(X_train, "X_train")
    y_train = as_vector(y_train, "y_train")
    if y_train.shape[0] != X_train.shape[0]:
        raise ValueError(f"y_train has shape {y_train.shape}, expected ({X_train.shape[0]},) to match X_train")
    return X_train, y_train


def _kernel_matrix(X_train, X_query, h, kernel):
    """Unnormalised kernel weights (m, n); for the Gaussian each row is scaled so its largest is 1."""
    X_query, X_train = _pair(X_query, X_train, ("X_query", "X_train"))
    h = positive_float(h, "h")
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS}; got {kernel!r}")
    D2 = squared_distances(X_query, X_train)
    D2 *= 1.0 / (h * h)
    if kernel == "gaussian":
        # subtract each row's smallest distance before exponentiating: the ratio is unchanged, and the
        # nearest point's weight is exp(0) = 1, so no row underflows to 0 / 0 however small h is
        D2 -= D2.min(axis=1, keepdims=True)
        D2 *= -0.5
        return np.exp(D2, out=D2)
    return kernel_profile(np.sqrt(D2), kernel)


def nadaraya_watson_weights(X_train, X_query, h: float, kernel: str = "gaussian") -> np.ndarray:
    """The smoother matrix ``W`` (m, n) of the Nadaraya–Watson estimator: row ``q`` holds the normalised
    kernel weights of the training points for query ``q`` (a row of ``nan`` where they are all 0)."""
    K = _kernel_matrix(X_train, X_query, h, kernel)
    totals = K.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(totals > 0, K / totals, np.nan)


def nadaraya_watson(X_train, y_train, X_query, h: float, kernel: str = "gaussian") -> np.ndarray:
    """The kernel regression estimate at each query: the kernel-weighted mean of the training targets
    (``nan`` where a kernel of bounded support puts no training point within ``h``)."""
    X_train, y_train = _training(X_train, y_train)
    K = _kernel_matrix(X_train, X_query, h, kernel)
    totals = K.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(totals > 0, (K @ y_train) / totals, np.nan)


def knn_weights(X_train, X_query, k: int) -> np.ndarray:
    """The smoother matrix (m, n) of k-NN regression: ``1/k`` on each query's ``k`` nearest training points."""
    X_query, X_train = _pair(X_query, X_train, ("X_query", "X_train"))
    k = positive_int(k, "k")
    if k > X_train.shape[0]:
        raise ValueError(f"k = {k} is larger than the number of training points ({X_train.shape[0]})")
    W = np.zeros((X_query.shape[0], X_train.shape[0]))
    np.put_along_axis(W, nearest_neighbours(X_train, X_query, k, ordered=False), 1.0 / k, axis=1)
    return W


def knn_regression(X_train, y_train, X_query, k: int) -> np.ndarray:
    """The mean target of each query's ``k`` nearest training points."""
    X_train, y_train = _training(X_train, y_train)
    X_query = as_matrix(X_query, "X_query")
    k = positive_int(k, "k")
    if k > X_train.shape[0]:
        raise ValueError(f"k = {k} is larger than the number of training points ({X_train.shape[0]})")
    return y_train[nearest_neighbours(X_train, X_query, k, ordered=False)].mean(axis=1)


def loo_residuals(H, y) -> np.ndarray:
    """``(y_i - (H y)_i) / (1 - H_ii)``: the leave-one-out residuals of a linear smoother whose
    leave-one-out fit renormalises its weights (see the module's notes), from one fit."""
    H = as_matrix(H, "H")
    y = as_vector(y, "y", H.shape[0])
    if H.shape[0] != H.shape[1]:
        raise ValueError(f"H must be square (the smoother on the training points themselves); got shape {H.shape}")
    diagonal = np.diag(H)
    if np.any(diagonal >= 1):
        raise ValueError("some H_ii = 1: that point's fit is its own target, and leaving it out is undefined")
    return (y - H @ y) / (1 - diagonal)


def loo_error(X_train, y_train, h: float, kernel: str = "gaussian") -> float:
    """The leave-one-out mean squared error of the Nadaraya–Watson estimator with bandwidth ``h``."""
    X_train, y_train = _training(X_train, y_train)
    residuals = loo_residuals(nadaraya_watson_weights(X_train, X_train, h, kernel), y_train)
    return float(np.mean(residuals**2))
