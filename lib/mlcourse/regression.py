"""Lecture 08: linear regression (least squares, four ways) and its regularised forms.

Conventions of the lecture:

* the data are ``X`` of shape (n, d) (a point per row) and real targets ``y`` of shape (n,); the
  predictor is ``f(x) = w . x + b``. Functions with ``fit_intercept`` keep the intercept ``b`` out of
  every penalty: they centre ``X`` and ``y``, fit ``w`` on the centred data, and set
  ``b = mean(y) - mean(X) . w``;
* **least squares** minimises ``||y - X w||^2``. Its solutions solve the normal equations
  ``X^T X w = X^T y``; the one of smallest norm is ``X^+ y`` (``X^+`` the pseudo-inverse);
* **ridge** minimises ``1/2 ||y - X w||^2 + lam/2 ||w||^2``, so ``w = (X^T X + lam I)^{-1} X^T y``
  (scikit-learn's ``Ridge(alpha=lam)``);
* the **elastic net** minimises ``1/2 ||y - X w||^2 + lam1 ||w||_1 + lam2/2 ||w||^2``; ``lam2 = 0`` is
  the **lasso**. scikit-learn divides the squared error by ``n``: its ``Lasso(alpha=lam1 / n)`` and
  ``ElasticNet(alpha=(lam1 + lam2) / n, l1_ratio=lam1 / (lam1 + lam2))`` solve the same problems;
* the lasso and the elastic net are solved by cyclic **coordinate descent**; it stops when the
  duality gap is at most ``tol * ||y_c||^2`` (``y_c`` the centred targets when there is an
  intercept), scikit-learn's rule, so both stop at the same accuracy;
* **inference** (section 3) reads ``X`` as fixed and ``y = X w* + noise``, the noise ``N(0, sigma^2 I)``:
  ``sigma^2`` is estimated by ``||e||^2 / (n - d)``, coordinate ``j`` of ``w`` has the standard error
  ``sigma_hat sqrt([(X^T X)^{-1}]_jj)``, and ``w_j +- t_{n-d, 1-alpha/2} se_j`` covers ``w*_j`` with probability
  exactly ``1 - alpha``. Student's t is computed here from its closed form for whole degrees of freedom
  (no SciPy: the lecture does not import it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._checks import as_matrix, as_vector, nonnegative_float, open_unit_float, positive_float, positive_int

LEAST_SQUARES_METHODS = ("qr", "svd", "normal")


@dataclass(frozen=True)
class LinearFit:
    """A fitted linear predictor ``f(x) = w . x + b``."""

    w: np.ndarray
    b: float


@dataclass(frozen=True)
class LeastSquaresInference:
    """Least squares with its standard errors and confidence intervals (lecture 08, section 3).

    ``w`` the estimate (d,); ``sigma2`` the unbiased noise estimate ``||e||^2 / (n - d)``; ``df = n - d``
    the degrees of freedom of the residuals; ``se`` the standard errors (d,); ``lower`` and ``upper``
    (d,) the ends of the intervals ``w_j +- t_{df, 1 - alpha/2} se_j``, each of which covers the true
    ``w*_j`` with probability ``1 - alpha`` under the Gaussian model.
    """

    w: np.ndarray
    sigma2: float
    df: int
    se: np.ndarray
    alpha: float
    lower: np.ndarray
    upper: np.ndarray


@dataclass(frozen=True)
class SparseFit:
    """A lasso or elastic-net fit by coordinate descent.

    ``sweeps`` counts the passes over the coordinates; ``gap`` is the duality gap at the end (an upper
    bound on how far the objective is above its minimum); ``converged`` says it fell below the
    tolerance before ``max_sweeps``.
    """

    w: np.ndarray
    b: float
    sweeps: int
    gap: float
    converged: bool


def _data(X, y):
    X = as_matrix(X)
    y = as_vector(y, "y")
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"y has shape {y.shape}, expected ({X.shape[0]},) to match the rows of X")
    return X, y


def _centred(X, y, fit_intercept: bool):
    if not isinstance(fit_intercept, (bool, np.bool_)):
        raise TypeError(f"fit_intercept must be True or False; got {fit_intercept!r}")
    if not fit_intercept:
        return X, y, np.zeros(X.shape[1]), 0.0
    x_mean, y_mean = X.mean(axis=0), float(y.mean())
    return X - x_mean, y - y_mean, x_mean, y_mean


def predict(X, w, b: float = 0.0) -> np.ndarray:
    """``X w + b`` for the rows of ``X``."""
    X = as_matrix(X)
    w = as_vector(w, "w", X.shape[1])
    return X @ w + float(b)


# --------------------------------------------------------------------------- least squares


def pseudo_inverse(X, rcond: float | None = None) -> np.ndarray:
    """The Moore–Penrose pseudo-inverse ``X^+ = V diag(1/s) U^T`` from the SVD, of shape (d, n).

    Singular values at most ``rcond * s_max`` count as zero (their reciprocal is replaced by 0);
    ``rcond`` defaults to ``max(n, d) * machine epsilon``, NumPy's choice.
    """
    X = as_matrix(X)
    if rcond is None:
        rcond = max(X.shape) * np.finfo(float).eps
    rcond = nonnegative_float(rcond, "rcond")
    U, s, Vt = np.linalg.svd(X, full_matrices=False)
    keep = s > rcond * (s[0] if s.size else 0.0)
    return (Vt[keep].T / s[keep]) @ U[:, keep].T


def numerical_rank(X, rcond: float | None = None) -> int:
    """The number of singular values of ``X`` above ``rcond * s_max`` (default as :func:`pseudo_inverse`)."""
    X = as_matrix(X)
    if rcond is None:
        rcond = max(X.shape) * np.finfo(float).eps
    s = np.linalg.svd(X, compute_uv=False)
    return int(np.sum(s > nonnegative_float(rcond, "rcond") * s[0])) if s.size else 0


def least_squares(X, y, method: str = "qr") -> np.ndarray:
    """A ``w`` minimising ``||y - X w||^2``.

    ``method``:

    * ``"qr"`` (default): ``X = QR``, then solve ``R w = Q^T y``; needs full column rank;
    * ``"svd"``: ``X^+ y``, the solution of smallest norm, whatever the rank;
    * ``"normal"``: solve the normal equations ``X^T X w = X^T y`` (by Cholesky). It squares the
      condition number, and is here to show what that costs.
    """
    X, y = _data(X, y)
    if method not in LEAST_SQUARES_METHODS:
        raise ValueError(f"method must be one of {LEAST_SQUARES_METHODS}; got {method!r}")
    if method == "svd":
        return pseudo_inverse(X) @ y
    n, d = X.shape
    if method == "qr":
        R = _triangular_factor(np.column_stack([X, y]))      # [[R, Q^T y], [0, +-||residual||]]
        diagonal = np.abs(np.diag(R)[:d])
        if n < d or diagonal.min() <= max(n, d) * np.finfo(float).eps * diagonal.max():
            raise ValueError(f"X (shape {X.shape}) does not have full column rank, so least squares has "
                             "many solutions: use method='svd' for the one of smallest norm")
        return _solve_upper(R[:d, :d], R[:d, d])
    try:
        L = np.linalg.cholesky(X.T @ X)
    except np.linalg.LinAlgError:
        raise ValueError(f"X^T X (X of shape {X.shape}) is singular to working precision: X does not have "
                         "full column rank; use method='svd'") from None
    return _solve_upper(L.T, _solve_lower(L, X.T @ y))


def _triangular_factor(A, rows: int = 4096) -> np.ndarray:
    """The ``R`` of a QR factorisation of ``A`` (m, k), ``Q`` never formed. Tall ``A`` is factored a block
    of rows at a time and the stacked ``R``s factored again (the ``R`` of ``[R_1; R_2]`` is one of ``A``,
    as ``A^T A = R_1^T R_1 + R_2^T R_2``): blocks that fit in cache make it twice as fast."""
    if A.shape[0] <= 2 * rows:
        return np.linalg.qr(A, mode="r")
    blocks = [np.linalg.qr(A[i:i + rows], mode="r") for i in range(0, A.shape[0], rows)]
    return np.linalg.qr(np.vstack(blocks), mode="r")


def _solve_upper(R, z):
    """``x`` with ``R x = z``, ``R`` upper triangular: back substitution, the last unknown first. (Written
    with NumPy: importing SciPy's linalg for it cost lecture 08 more time than all of its solves.)"""
    x = np.empty(len(z))
    for i in range(len(z) - 1, -1, -1):
        x[i] = (z[i] - R[i, i + 1:] @ x[i + 1:]) / R[i, i]
    return x


def _solve_lower(L, z):
    """``x`` with ``L x = z``, ``L`` lower triangular: forward substitution, the first unknown first."""
    x = np.empty(len(z))
    for i in range(len(z)):
        x[i] = (z[i] - L[i, :i] @ x[:i]) / L[i, i]
    return x


def hat_matrix(X) -> np.ndarray:
    """``H = X X^+``, the orthogonal projection onto the column space of ``X`` (n, n): ``H y`` are the
    fitted values of least squares. Computed as ``U_r U_r^T`` from the SVD (r the rank)."""
    X = as_matrix(X)
    U, s, _ = np.linalg.svd(X, full_matrices=False)
    U = U[:, s > max(X.shape) * np.finfo(float).eps * s[0]]
    return U @ U.T


def fit_least_squares(X, y, fit_intercept: bool = True, method: str = "qr") -> LinearFit:
    """Least squares with an intercept: ``w`` from the centred data, ``b = mean(y) - mean(X) . w``."""
    X, y = _data(X, y)
    Xc, yc, x_mean, y_mean = _centred(X, y, fit_intercept)
    w = least_squares(Xc, yc, method)
    return LinearFit(w, y_mean - float(x_mean @ w))


# --------------------------------------------------------------------------- inference


def _t_coefficients(df: int) -> np.ndarray:
    """The coefficients of the series of :func:`_t_central`, lowest power first."""
    if df % 2 == 0:
        i = np.arange(1, df // 2)
        return np.r_[1.0, np.cumprod((2 * i - 1) / (2 * i))]
    i = np.arange(1, (df - 1) // 2)
    return np.r_[1.0, np.cumprod(2 * i / (2 * i + 1))] if df > 1 else np.zeros(0)


def _t_central(theta, df: int, coefficients=None):
    """``P(|T| <= sqrt(df) tan(theta))`` for Student's t with ``df`` (whole) degrees of freedom, ``theta`` in
    [0, pi/2]: the finite series of Abramowitz and Stegun (26.7.3, 26.7.4), in ``c = cos^2 theta``:

    * ``df`` even: ``sin(theta) (1 + 1/2 c + (1 3)/(2 4) c^2 + ... )``, ``df / 2`` terms;
    * ``df`` odd: ``2/pi (theta + sin(theta) cos(theta) (1 + 2/3 c + (2 4)/(3 5) c^2 + ...))``, ``(df - 1) / 2``
      terms (none for ``df = 1``, the Cauchy distribution).

    Every term is positive: nothing cancels, and the cost grows like ``df``."""
    if coefficients is None:
        coefficients = _t_coefficients(df)
    if isinstance(theta, float):
        cos, sin = math.cos(theta), math.sin(theta)
    else:
        theta = np.asarray(theta, dtype=float)
        cos, sin = np.cos(theta), np.sin(theta)
    c = cos * cos
    series = 0.0 * c
    for a in coefficients[::-1]:                        # Horner, from the highest power of c down
        series = series * c + a
    if df % 2 == 0:
        return sin * series
    return 2 / math.pi * (theta + sin * cos * series)


def t_cdf(t, df: int):
    """The distribution function ``P(T <= t)`` of Student's t with ``df`` degrees of freedom (a whole
    number >= 1), elementwise, from the closed form of :func:`_t_central` (accurate to about ``df`` times
    the machine precision, absolutely; SciPy's ``scipy.stats.t.cdf`` is the tests' oracle)."""
    df = positive_int(df, "df")
    t = np.asarray(t, dtype=float)
    if np.isnan(t).any():
        raise ValueError("t contains NaN")
    central = _t_central(np.arctan(np.abs(t) / np.sqrt(df)), df)
    return (0.5 + np.sign(t) * central / 2)[()]


def t_quantile(q, df: int):
    """The ``q``-quantile of Student's t with ``df`` degrees of freedom (a whole number >= 1), ``q`` in
    (0, 1), elementwise: the ``t`` with ``P(T <= t) = q``.

    Found by bisection on the angle ``theta = arctan(t / sqrt(df))`` in [0, pi/2), where
    ``P(|T| <= t)`` climbs from 0 to 1: 64 halvings pin ``theta`` to round-off, whatever ``q`` (the result
    is within a relative 1e-9 of SciPy's ``scipy.stats.t.ppf`` for ``q`` in [1e-6, 1 - 1e-6]). Lecture 08
    builds its confidence intervals ``w_j +- t_{n-d, 1-alpha/2} se_j`` with it (no SciPy needed).

    Examples
    --------
    >>> round(float(t_quantile(0.975, 2)), 6)     # df = 2: P(|T| <= t) = t / sqrt(2 + t^2) = 0.95
    4.302653
    """
    df = positive_int(df, "df")
    q = np.asarray(q, dtype=float)
    if not ((q > 0) & (q < 1)).all():
        raise ValueError(f"q must be strictly between 0 and 1; got {q[~((q > 0) & (q < 1))].ravel()[:3].tolist()}")
    target = np.abs(2 * q - 1)                          # P(|T| <= |t|)
    coefficients = _t_coefficients(df).tolist()
    if q.ndim == 0:                                     # one quantile: the same halvings on Python floats
        low, high, target = 0.0, math.pi / 2, float(target)
        for _ in range(64):
            middle = (low + high) / 2
            if _t_central(middle, df, coefficients) < target:
                low = middle
            else:
                high = middle
        return float(np.sign(q - 0.5) * math.sqrt(df) * math.tan((low + high) / 2))
    low, high = np.zeros_like(q), np.full_like(q, np.pi / 2)
    for _ in range(64):
        middle = (low + high) / 2
        below = _t_central(middle, df, coefficients) < target
        low, high = np.where(below, middle, low), np.where(below, high, middle)
    return np.sign(q - 0.5) * np.sqrt(df) * np.tan((low + high) / 2)


def _full_rank_with_residual_room(X, y):
    X, y = _data(X, y)
    n, d = X.shape
    if n <= d:
        raise ValueError(f"X has shape {X.shape}: estimating the noise needs more rows than columns (n > d), "
                         "so that the residuals have n - d > 0 directions")
    return X, y


def standard_errors(X, y) -> np.ndarray:
    """The standard errors of the least-squares coefficients, ``sigma_hat sqrt([(X^T X)^{-1}]_jj)`` (d,),
    with ``sigma_hat^2 = ||y - X w_hat||^2 / (n - d)`` (lecture 08, section 3). ``X`` of full column rank,
    ``n > d``. Computed from ``X = QR``: ``(X^T X)^{-1} = R^{-1} R^{-T}``, whose diagonal holds the squared
    norms of the rows of ``R^{-1}``."""
    return least_squares_inference(X, y).se


def least_squares_inference(X, y, alpha: float = 0.05) -> LeastSquaresInference:
    """Least squares with standard errors and the confidence intervals of level ``1 - alpha``.

    Under the model ``y = X w* + noise`` (``X`` fixed, of full column rank, ``n > d``; the noise
    ``N(0, sigma^2 I)``), ``(w_hat_j - w*_j) / se_j`` has Student's t distribution with ``n - d`` degrees
    of freedom, so the interval ``w_hat_j +- t_{n-d, 1-alpha/2} se_j`` covers ``w*_j`` with probability
    exactly ``1 - alpha`` (lecture 08, section 3). No intercept is added: put a column of ones in ``X``
    for one (it then counts in ``d``).

    Returns
    -------
    LeastSquaresInference
        ``w``, ``sigma2``, ``df``, ``se``, ``alpha``, ``lower``, ``upper``.
    """
    X, y = _full_rank_with_residual_room(X, y)
    alpha = open_unit_float(alpha, "alpha")
    n, d = X.shape
    w = least_squares(X, y, "qr")                       # raises if X is not of full column rank
    R = np.linalg.qr(X, mode="r")
    R_inv = np.column_stack([_solve_upper(R, column) for column in np.eye(d)])
    e = y - X @ w
    sigma2 = float(e @ e) / (n - d)
    se = np.sqrt(sigma2 * np.einsum("ij,ij->i", R_inv, R_inv))
    half = float(t_quantile(1 - alpha / 2, n - d)) * se
    return LeastSquaresInference(w, sigma2, n - d, se, alpha, w - half, w + half)


# --------------------------------------------------------------------------- ridge


def fit_ridge(X, y, lam: float, fit_intercept: bool = True) -> LinearFit:
    """Ridge regression: ``w`` minimises ``1/2 ||y_c - X_c w||^2 + lam/2 ||w||^2`` (the intercept is not
    penalised). Solved by Cholesky on ``X^T X + lam I`` (d <= n) or on ``X X^T + lam I`` (d > n, since
    ``(X^T X + lam I)^{-1} X^T = X^T (X X^T + lam I)^{-1}``). ``lam = 0`` is least squares by SVD."""
    X, y = _data(X, y)
    lam = nonnegative_float(lam, "lam")
    Xc, yc, x_mean, y_mean = _centred(X, y, fit_intercept)
    n, d = Xc.shape
    if lam == 0:
        w = pseudo_inverse(Xc) @ yc
    elif d <= n:
        A = Xc.T @ Xc
        A[np.diag_indices(d)] += lam
        L = np.linalg.cholesky(A)
        w = _solve_upper(L.T, _solve_lower(L, Xc.T @ yc))
    else:
        A = Xc @ Xc.T
        A[np.diag_indices(n)] += lam
        L = np.linalg.cholesky(A)
        w = Xc.T @ _solve_upper(L.T, _solve_lower(L, yc))
    return LinearFit(w, y_mean - float(x_mean @ w))


def ridge_path(X, y, lams, fit_intercept: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Ridge for many ``lams`` from one SVD ``X_c = U diag(s) V^T``:
    ``w(lam) = V diag(s / (s^2 + lam)) U^T y_c``. Returns ``W`` (len(lams), d) and ``b`` (len(lams),)."""
    X, y = _data(X, y)
    lams = as_vector(np.atleast_1d(lams), "lams")
    if (lams < 0).any():
        raise ValueError(f"lams must be >= 0; got {lams[lams < 0][:3].tolist()}")
    Xc, yc, x_mean, y_mean = _centred(X, y, fit_intercept)
    U, s, Vt = np.linalg.svd(Xc, full_matrices=False)
    keep = s > max(X.shape) * np.finfo(float).eps * s[0]
    U, s, Vt = U[:, keep], s[keep], Vt[keep]
    factors = s / (s**2 + lams[:, None])                 # (len(lams), r)
    W = (factors * (U.T @ yc)) @ Vt
    return W, y_mean - W @ x_mean


def effective_degrees_of_freedom(X, lam: float, fit_intercept: bool = True) -> float:
    """``sum_j s_j^2 / (s_j^2 + lam)`` over the singular values of (centred) ``X``: the trace of the
    ridge hat matrix, plus one for an unpenalised intercept. ``lam = 0`` gives the rank (+1)."""
    X = as_matrix(X)
    lam = nonnegative_float(lam, "lam")
    Xc = X - X.mean(axis=0) if fit_intercept else X
    s = np.linalg.svd(Xc, compute_uv=False)
    s = s[s > max(X.shape) * np.finfo(float).eps * s[0]] if s.size and s[0] > 0 else s[:0]
    return float(np.sum(s**2 / (s**2 + lam)) + (1 if fit_intercept else 0))


# --------------------------------------------------------------------------- lasso and elastic net


def soft_threshold(z, t: float):
    """``sign(z) max(|z| - t, 0)``, elementwise: the minimiser of ``1/2 (w - z)^2 + t |w|``."""
    t = nonnegative_float(t, "t")
    z = np.asarray(z, dtype=float)
    return np.sign(z) * np.maximum(np.abs(z) - t, 0.0)


def elastic_net_objective(X, y, w, lam1: float, lam2: float = 0.0, b: float = 0.0) -> float:
    """``1/2 ||y - X w - b||^2 + lam1 ||w||_1 + lam2/2 ||w||^2``."""
    X, y = _data(X, y)
    w = as_vector(w, "w", X.shape[1])
    r = y - X @ w - float(b)
    return float(0.5 * r @ r + nonnegative_float(lam1, "lam1") * np.abs(w).sum()
                 + 0.5 * nonnegative_float(lam2, "lam2") * w @ w)


def lambda_max(X, y, fit_intercept: bool = True) -> float:
    """The smallest ``lam1`` at which the lasso's solution is ``w = 0``: ``max_j |x_j . y|`` (centred)."""
    X, y = _data(X, y)
    Xc, yc, _, _ = _centred(X, y, fit_intercept)
    return float(np.max(np.abs(Xc.T @ yc)))


def duality_gap(X, y, w, lam1: float, lam2: float = 0.0) -> float:
    """The duality gap of the elastic net at ``w`` (no intercept: pass centred data).

    With ``r = y - X w``, the dual point ``theta = s r`` with ``s = min(1, lam1 / ||X^T r - lam2 w||_inf)``
    is feasible, and the gap is ``1/2 (1 + s^2)(||r||^2 + lam2 ||w||^2) + lam1 ||w||_1 - s r . y``: it
    is >= 0, and 0 exactly at the solution.
    """
    X, y = _data(X, y)
    w = as_vector(w, "w", X.shape[1])
    lam1, lam2 = positive_float(lam1, "lam1"), nonnegative_float(lam2, "lam2")
    r = y - X @ w
    return _gap(float(r @ r), float(r @ y), X.T @ r, w, lam1, lam2)


def _gap(rr, ry, Xtr, w, lam1, lam2):
    dual_norm = np.max(np.abs(Xtr - lam2 * w)) if w.size else 0.0
    s = 1.0 if dual_norm <= lam1 else lam1 / dual_norm
    ww = float(w @ w)
    return 0.5 * (1 + s * s) * (rr + lam2 * ww) + lam1 * float(np.abs(w).sum()) - s * ry


def coordinate_descent_sweep(X, y, w, lam1: float, lam2: float = 0.0) -> np.ndarray:
    """One pass of cyclic coordinate descent on the elastic net (no intercept): for j = 0, ..., d-1 in
    turn, ``w_j <- S(x_j . r_j, lam1) / (||x_j||^2 + lam2)`` with ``r_j = y - sum_{k != j} x_k w_k``
    the residual without coordinate j (``S`` the soft threshold). Returns the new ``w``; ``w`` is not
    changed."""
    X, y = _data(X, y)
    w = as_vector(w, "w", X.shape[1]).copy()
    lam1, lam2 = nonnegative_float(lam1, "lam1"), nonnegative_float(lam2, "lam2")
    norms = np.einsum("ij,ij->j", X, X)
    r = y - X @ w
    for j in range(X.shape[1]):
        if norms[j] + lam2 == 0:
            continue                                        # a zero column with no ridge: w_j is free
        rho = X[:, j] @ r + norms[j] * w[j]
        new = float(np.sign(rho) * max(abs(rho) - lam1, 0.0) / (norms[j] + lam2))
        if new != w[j]:
            r -= X[:, j] * (new - w[j])
            w[j] = new
    return w


def fit_elastic_net(X, y, lam1: float, lam2: float = 0.0, fit_intercept: bool = True, tol: float = 1e-4,
                    max_sweeps: int = 1000, w0=None) -> SparseFit:
    """The elastic net by cyclic coordinate descent, stopped when the duality gap is at most
    ``tol * ||y_c||^2``. ``lam1 > 0`` (for ``lam1 = 0`` use :func:`fit_ridge`); ``w0`` is a warm start.

    With d <= n the sweeps work on the Gram matrix ``X^T X`` (each update costs O(d) rather than O(n)).
    """
    X, y = _data(X, y)
    lam1, lam2 = positive_float(lam1, "lam1"), nonnegative_float(lam2, "lam2")
    tol, max_sweeps = positive_float(tol, "tol"), positive_int(max_sweeps, "max_sweeps")
    Xc, yc, x_mean, y_mean = _centred(X, y, fit_intercept)
    n, d = Xc.shape
    w = np.zeros(d) if w0 is None else as_vector(w0, "w0", d).copy()
    yy = float(yc @ yc)
    threshold = tol * yy
    if yy == 0:
        return SparseFit(np.zeros(d), y_mean, 0, 0.0, True)
    denominators = (np.einsum("ij,ij->j", Xc, Xc) + lam2).tolist()
    order = [j for j in range(d) if denominators[j] > 0]          # a zero column with lam2 = 0 keeps w_j
    if d <= n:
        w, sweeps, gap = _sweeps_on_gram(Xc, yc, w, lam1, lam2, denominators, order, threshold, max_sweeps)
    else:
        w, sweeps, gap = _sweeps_on_residual(Xc, yc, w, lam1, lam2, denominators, order, threshold, max_sweeps)
    return SparseFit(w, y_mean - float(x_mean @ w), sweeps, float(gap), bool(gap <= threshold))


GAP_EVERY = 4  # sweeps between two duality gaps once past the first few (a gap costs half a sweep on the Gram)


def _sweeps_on_gram(X, y, w, lam1, lam2, denominators, order, threshold, max_sweeps):
    """Coordinate descent with ``G = X^T X`` and ``c = X^T y`` (d <= n): ``X_j . r_j = c_j - (G w)_j + G_jj w_j``,
    ``q = G w`` kept up to date, the scalars handled as Python floats (NumPy's scalars cost more). The gap is
    computed after each of the first GAP_EVERY sweeps, then after every GAP_EVERY-th and the last: a long run
    may make up to GAP_EVERY - 1 sweeps more than it needed, each bringing it closer."""
    G, c = X.T @ X, X.T @ y
    rows, c_list, g_diag = list(G), c.tolist(), np.diag(G).tolist()
    w_list, q = w.tolist(), G @ w
    yy = float(y @ y)
    gap, sweeps = np.inf, 0
    for sweeps in range(1, max_sweeps + 1):
        for j in order:
            wj = w_list[j]
            rho = c_list[j] - q.item(j) + g_diag[j] * wj
            new = (rho - lam1 if rho > lam1 else rho + lam1 if rho < -lam1 else 0.0) / denominators[j]
            if new != wj:
                q += rows[j] * (new - wj)
                w_list[j] = new
        if sweeps > GAP_EVERY and sweeps % GAP_EVERY and sweeps < max_sweeps:
            continue
        w = np.array(w_list)
        wc = float(w @ c)
        gap = _gap(yy - 2 * wc + float(w @ q), yy - wc, c - q, w, lam1, lam2)
        if gap <= threshold:
            break
    return w, sweeps, gap


def _sweeps_on_residual(X, y, w, lam1, lam2, denominators, order, threshold, max_sweeps):
    """Coordinate descent keeping the residual ``r = y - X w`` (d > n, where ``X^T X`` would be larger than X)."""
    norms = np.einsum("ij,ij->j", X, X)
    r = y - X @ w
    gap, sweeps = np.inf, 0
    for sweeps in range(1, max_sweeps + 1):
        for j in order:
            wj = w[j]
            rho = X[:, j] @ r + norms[j] * wj
            new = (rho - lam1 if rho > lam1 else rho + lam1 if rho < -lam1 else 0.0) / denominators[j]
            if new != wj:
                r -= X[:, j] * (new - wj)
                w[j] = new
        gap = _gap(float(r @ r), float(r @ y), X.T @ r, w, lam1, lam2)
        if gap <= threshold:
            break
    return w, sweeps, gap


def fit_lasso(X, y, lam: float, fit_intercept: bool = True, tol: float = 1e-4, max_sweeps: int = 1000,
              w0=None) -> SparseFit:
    """The lasso, ``1/2 ||y_c - X_c w||^2 + lam ||w||_1``: :func:`fit_elastic_net` with ``lam2 = 0``."""
    return fit_elastic_net(X, y, lam, 0.0, fit_intercept, tol, max_sweeps, w0)


def elastic_net_path(X, y, lams1, lam2: float = 0.0, fit_intercept: bool = True, tol: float = 1e-4,
                     max_sweeps: int = 1000) -> tuple[np.ndarray, np.ndarray]:
    """The elastic net (the lasso for ``lam2 = 0``) at each ``lam1`` in ``lams1``, warm-started from the
    solution at the previous one (so give them from large to small). Returns ``W`` (len, d) and ``b``."""
    lams1 = as_vector(np.atleast_1d(lams1), "lams1")
    W, b, w = [], [], None
    for lam1 in lams1:
        fit = fit_elastic_net(X, y, float(lam1), lam2, fit_intercept, tol, max_sweeps, w)
        W.append(fit.w)
        b.append(fit.b)
        w = fit.w
    return np.array(W), np.array(b)
