"""Lecture 09: logistic regression, fitted by maximum likelihood with gradient descent or Newton's method.

Conventions of the lecture:

* labels ``y`` in {0, 1} (the course's coding for probabilistic models); the model is
  ``P(Y = 1 | x) = sigm(b + w . x)``. The functions take the **lifted design** ``Z = [1, X]`` (lecture
  02's ``perceptron.add_bias``: a column of ones first) and the parameters ``theta = (b, w)``, so that
  the scores are ``a = Z theta``;
* the **log-loss** is the negative log-likelihood, summed over the sample:
  ``L(theta) = sum_i [log(1 + e^{a_i}) - y_i a_i]``, plus ``lam/2 ||w||^2`` when ``lam > 0`` (the bias,
  ``theta[0]``, is never penalised). scikit-learn's ``LogisticRegression(C=c)`` minimises the same with
  ``lam = 1 / c``;
* its gradient is ``Z^T (p - y) + lam (0, w)`` and its Hessian ``Z^T diag(p (1 - p)) Z + lam diag(0, 1, ..., 1)``,
  with ``p = sigm(Z theta)``: positive semidefinite, so the loss is convex;
* the fits stop when the largest entry of the gradient divided by ``n`` is at most ``tol`` (scikit-learn's
  rule for its lbfgs solver, which minimises the mean loss); predictions are ``1`` where ``p >= 1/2``
  (ties go to the larger label).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import as_matrix, as_vector, nonnegative_float, positive_float, positive_int
from .losses import expit

FIT_METHODS = ("newton", "gradient")


@dataclass(frozen=True)
class LogisticFit:
    """A fit of logistic regression: ``theta = (b, w)``; ``losses[t]`` and ``gradient_norms[t]`` (the
    largest entry of the gradient, over ``n``) at the start of iteration ``t`` and, last, at the end;
    ``converged`` when the gradient fell to ``tol`` within ``max_iter`` iterations."""

    theta: np.ndarray
    iterations: int
    converged: bool
    losses: np.ndarray
    gradient_norms: np.ndarray


def _problem(theta, Z, y):
    Z = as_matrix(Z, "Z")
    theta = as_vector(theta, "theta", Z.shape[1])
    y = np.asarray(y)
    if y.shape != (Z.shape[0],):
        raise ValueError(f"y has shape {y.shape}, expected ({Z.shape[0]},) to match the rows of Z")
    if not np.isin(y, (0, 1)).all():
        raise ValueError(f"y must hold labels 0 and 1 only; found values {np.unique(y)[:5].tolist()}")
    return theta, Z, y.astype(float)


def sigmoid(a):
    """``1 / (1 + e^{-a})``, elementwise, without overflow for large ``|a|``."""
    return expit(np.asarray(a, dtype=float))


def log_one_plus_exp(a):
    """``log(1 + e^a)``, elementwise, accurate for large positive and negative ``a``."""
    return np.logaddexp(0.0, np.asarray(a, dtype=float))


def _penalty_vector(theta, lam):
    v = lam * theta
    v[0] = 0.0
    return v


def log_loss(theta, Z, y, lam: float = 0.0) -> float:
    """``sum_i [log(1 + e^{a_i}) - y_i a_i] + lam/2 ||w||^2`` with ``a = Z theta``, ``w = theta[1:]``."""
    theta, Z, y = _problem(theta, Z, y)
    lam = nonnegative_float(lam, "lam")
    a = Z @ theta
    return float(np.sum(log_one_plus_exp(a) - y * a) + 0.5 * lam * theta[1:] @ theta[1:])


def gradient(theta, Z, y, lam: float = 0.0) -> np.ndarray:
    """``Z^T (sigm(Z theta) - y) + lam (0, w)``."""
    theta, Z, y = _problem(theta, Z, y)
    return Z.T @ (sigmoid(Z @ theta) - y) + _penalty_vector(theta, nonnegative_float(lam, "lam"))


def hessian(theta, Z, y, lam: float = 0.0) -> np.ndarray:
    """``Z^T diag(p (1 - p)) Z + lam diag(0, 1, ..., 1)`` with ``p = sigm(Z theta)``."""
    theta, Z, y = _problem(theta, Z, y)
    lam = nonnegative_float(lam, "lam")
    p = sigmoid(Z @ theta)
    return _weighted_gram(Z, p * (1 - p), lam)


def _weighted_gram(Z, s, lam):
    """``Z^T diag(s) Z + lam diag(0, 1, ..., 1)``, as ``A^T A`` with ``A = sqrt(s) Z``: NumPy sees the
    product of a matrix with its own transpose and computes half of it (BLAS's syrk)."""
    A = Z * np.sqrt(s)[:, None]
    H = A.T @ A
    H[np.arange(1, Z.shape[1]), np.arange(1, Z.shape[1])] += lam
    return H


def newton_step(theta, Z, y, lam: float = 0.0) -> np.ndarray:
    """The full Newton step from ``theta``: ``theta - H^{-1} g`` (no line search)."""
    return as_vector(theta, "theta") - np.linalg.solve(hessian(theta, Z, y, lam), gradient(theta, Z, y, lam))


def predict_proba(theta, Z) -> np.ndarray:
    """``P(Y = 1 | x) = sigm(Z theta)`` for each row of ``Z``."""
    Z = as_matrix(Z, "Z")
    return sigmoid(Z @ as_vector(theta, "theta", Z.shape[1]))


def predict(theta, Z) -> np.ndarray:
    """``1`` where ``P(Y = 1 | x) >= 1/2`` (that is, ``Z theta >= 0``), else ``0``."""
    Z = as_matrix(Z, "Z")
    return (Z @ as_vector(theta, "theta", Z.shape[1]) >= 0).astype(int)


def fit_logistic(Z, y, lam: float = 0.0, method: str = "newton", tol: float = 1e-4, max_iter: int | None = None,
                 step: float | None = None, theta0=None) -> LogisticFit:
    """Minimise the (penalised) log-loss from ``theta0`` (default 0).

    ``method="newton"``: Newton's method (iteratively reweighted least squares), each step halved until
    the loss does not increase (a damped Newton method; near the minimum the full step is taken and
    convergence is quadratic). ``method="gradient"``: gradient descent with a fixed ``step``, by
    default ``1 / M`` with ``M = ||Z||_2^2 / 4 + lam``, a bound on the Hessian's largest eigenvalue (as
    ``p (1 - p) <= 1/4``), for which the loss never increases. ``max_iter`` defaults to 100 for Newton
    and 10 000 for gradient descent.

    On separable data without a penalty the loss has no minimiser: it tends to 0 as ``||w|| -> inf``,
    and so does the gradient, so the fit stops either at ``max_iter`` or, with a loose ``tol``, "converged"
    at some large ``theta`` that a smaller ``tol`` would make larger still.
    """
    if method not in FIT_METHODS:
        raise ValueError(f"method must be one of {FIT_METHODS}; got {method!r}")
    Z = as_matrix(Z, "Z")
    theta = np.zeros(Z.shape[1]) if theta0 is None else as_vector(theta0, "theta0", Z.shape[1]).copy()
    theta, Z, y = _problem(theta, Z, y)
    lam, tol = nonnegative_float(lam, "lam"), positive_float(tol, "tol")
    max_iter = positive_int(max_iter if max_iter is not None else (100 if method == "newton" else 10_000), "max_iter")
    n = Z.shape[0]
    if method == "gradient":
        step = positive_float(step, "step") if step is not None else 1.0 / (np.linalg.norm(Z, 2) ** 2 / 4 + lam)

    def state(theta):
        a = Z @ theta
        p = sigmoid(a)
        loss = float(np.sum(log_one_plus_exp(a) - y * a) + 0.5 * lam * theta[1:] @ theta[1:])
        return loss, p, Z.T @ (p - y) + _penalty_vector(theta, lam)

    loss, p, g = state(theta)
    losses, norms = [loss], [float(np.abs(g).max()) / n]
    iterations = 0
    while norms[-1] > tol and iterations < max_iter:
        iterations += 1
        if method == "gradient":
            theta = theta - step * g
            loss, p, g = state(theta)
        else:
            H = _weighted_gram(Z, p * (1 - p), lam)
            try:
                direction = np.linalg.solve(H, g)
            except np.linalg.LinAlgError:
                direction = np.linalg.lstsq(H, g, rcond=None)[0]      # a flat direction (separable data)
            t = 1.0
            for _ in range(60):
                candidate = theta - t * direction
                new = state(candidate)
                if new[0] <= loss + 1e-13 * abs(loss):          # not above, up to the loss's own round-off
                    break
                t /= 2
            theta, (loss, p, g) = candidate, new
        losses.append(loss)
        norms.append(float(np.abs(g).max()) / n)
    return LogisticFit(theta, iterations, bool(norms[-1] <= tol), np.array(losses), np.array(norms))
