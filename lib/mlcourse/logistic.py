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

from ._checks import argmax_ties_to_largest, as_matrix, as_vector, nonnegative_float, positive_float, positive_int
from ._special import logsumexp

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
    """``1 / (1 + e^{-a})``, elementwise, without overflow for large ``|a|``.

    Computed from ``e^{-|a|}``, which never overflows: ``sigm(-|a|) = e^{-|a|} / (1 + e^{-|a|})`` keeps its
    digits in the far tail, and ``sigm(|a|) = 1 - sigm(-|a|)`` is at least 1/2, so nothing cancels.
    (The same values as ``losses.expit``, in fewer passes over the array: gradient descent calls it
    once per step.)
    """
    a = np.asarray(a, dtype=float)
    e = np.exp(-np.abs(a))
    e /= 1.0 + e
    return np.where(a >= 0, 1.0 - e, e)


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


def _solve(H, g):
    """``H^{-1} g``, or a least-squares solution where ``H`` is singular (a flat direction: separable data)."""
    try:
        return np.linalg.solve(H, g)
    except np.linalg.LinAlgError:
        return np.linalg.lstsq(H, g, rcond=None)[0]


def _descend(x, state, newton_direction, method, step, tol, max_iter, scale=1.0, tidy=None):
    """The loop both fits share. ``state(x)`` gives ``(loss, p, gradient)``; the fit stops when the largest entry
    of the gradient over ``scale`` is at most ``tol``, or after ``max_iter`` iterations. ``method="gradient"``:
    steps of ``-step * gradient``. Otherwise Newton's ``newton_direction(p, gradient)``, the step halved until
    the loss does not increase; ``tidy`` maps each candidate back to the representative the fit keeps.
    Returns ``(x, iterations, losses, norms)``."""
    loss, p, g = state(x)
    losses, norms = [loss], [float(np.abs(g).max()) / scale]
    iterations = 0
    while norms[-1] > tol and iterations < max_iter:
        iterations += 1
        if method == "gradient":
            x = x - step * g
            loss, p, g = state(x)
        else:
            direction = newton_direction(p, g)
            t = 1.0
            for _ in range(60):
                candidate = x - t * direction
                if tidy is not None:
                    candidate = tidy(candidate)
                new = state(candidate)
                if new[0] <= loss + 1e-13 * abs(loss):          # not above, up to the loss's own round-off
                    break
                t /= 2
            x, (loss, p, g) = candidate, new
        losses.append(loss)
        norms.append(float(np.abs(g).max()) / scale)
    return x, iterations, losses, norms


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

    def newton_direction(p, g):
        return _solve(_weighted_gram(Z, p * (1 - p), lam), g)

    theta, iterations, losses, norms = _descend(theta, state, newton_direction, method, step, tol, max_iter, scale=n)
    return LogisticFit(theta, iterations, bool(norms[-1] <= tol), np.array(losses), np.array(norms))


# --------------------------------------------------------------------------- several classes: softmax regression
#
# Labels y in {0, ..., K - 1} (the course's coding for probabilistic models of the classes). The parameters are a
# matrix Theta of shape (d + 1, K), column k = theta_k = (b_k, w_k); the scores are A = Z Theta, shape (n, K), and
# P(Y = k | x_i) = softmax(a_i)_k = e^{a_ik} / sum_m e^{a_im}. Unlike the two-class functions above, the loss is
# the *mean* over the sample (the empirical risk of the log-loss), so lam here is scikit-learn's 1 / (n C).


@dataclass(frozen=True)
class SoftmaxFit:
    """A fit of softmax regression: ``Theta`` of shape (d + 1, K), its columns summing to zero (the centred
    representative of the parameters that give the same probabilities); ``losses[t]`` and
    ``gradient_norms[t]`` (the largest entry of the gradient) at the start of iteration ``t`` and, last, at
    the end; ``converged`` when the gradient fell to ``tol`` within ``max_iter`` iterations."""

    Theta: np.ndarray
    iterations: int
    converged: bool
    losses: np.ndarray
    gradient_norms: np.ndarray


def _class_labels(y, n: int, K: int | None = None) -> tuple[np.ndarray, int]:
    """``y`` as integer labels in ``{0, ..., K - 1}`` of shape (n,), and ``K`` (by default ``max(y) + 1``, at least 2)."""
    y = np.asarray(y)
    if y.shape != (n,):
        raise ValueError(f"y has shape {y.shape}, expected ({n},) to match the rows of Z")
    if y.dtype.kind not in "iu" and not (y.dtype.kind == "f" and np.all(y == np.round(y))):
        raise ValueError(f"y must hold integer labels 0, ..., K - 1; got dtype {y.dtype}")
    y = y.astype(int)
    if y.min() < 0:
        raise ValueError(f"y must hold labels 0, ..., K - 1 (the course's coding); found {int(y.min())}")
    if K is None:
        K = max(int(y.max()) + 1, 2)
    elif y.max() >= K:
        raise ValueError(f"y holds the label {int(y.max())}, but Theta has K = {K} columns (labels 0, ..., {K - 1})")
    return y, K


def _softmax_problem(Theta, Z, y):
    Z = as_matrix(Z, "Z")
    Theta = as_matrix(Theta, "Theta")
    if Theta.shape[0] != Z.shape[1] or Theta.shape[1] < 2:
        raise ValueError(f"Theta has shape {Theta.shape}, expected ({Z.shape[1]}, K): one row per column of Z, "
                         "one column per class, K >= 2")
    y, K = _class_labels(y, Z.shape[0], Theta.shape[1])
    return Theta, Z, y


def softmax(A) -> np.ndarray:
    """The softmax of each row of the scores ``A`` (shape (n, K)): ``e^{a_k} / sum_m e^{a_m}`` (lecture 09).

    Each row's largest score is subtracted first, which changes nothing in the ratio: the largest
    exponential is then ``e^0 = 1``, so nothing overflows, and the denominator is at least 1, so a row
    whose scores are all very negative does not become ``0 / 0``.

    >>> softmax(np.array([[0.0, 0.0], [1000.0, 0.0]])).round(3).tolist()
    [[0.5, 0.5], [1.0, 0.0]]
    """
    A = np.asarray(A, dtype=float)
    if A.ndim != 2:
        raise ValueError(f"A must be a 2-d array of scores of shape (n, K); got shape {A.shape}")
    E = np.exp(A - A.max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)


def softmax_log_loss(Theta, Z, y, lam: float = 0.0) -> float:
    """The mean log-loss (cross-entropy) of softmax regression, plus ``lam/2 ||W||^2`` (lecture 09).

    ``(1/n) sum_i [log sum_k e^{a_ik} - a_{i y_i}] + lam/2 sum_{k} ||w_k||^2`` with ``A = Z Theta`` and ``W =
    Theta[1:]`` (the biases, ``Theta[0]``, are not penalised), the log-sum-exp computed with each row's
    largest score taken out. scikit-learn's multinomial ``LogisticRegression(C=c)`` minimises the same
    with ``lam = 1 / (n c)``.

    Parameters
    ----------
    Theta : array of shape (d + 1, K), column ``k`` is ``(b_k, w_k)``
    Z : array of shape (n, d + 1), the lifted design (a column of ones first)
    y : array of shape (n,), labels in ``{0, ..., K - 1}``
    lam : float >= 0
    """
    Theta, Z, y = _softmax_problem(Theta, Z, y)
    lam = nonnegative_float(lam, "lam")
    A = Z @ Theta
    data = np.mean(logsumexp(A, axis=1) - A[np.arange(len(y)), y])
    return float(data + 0.5 * lam * np.sum(Theta[1:] ** 2))


def softmax_gradient(Theta, Z, y, lam: float = 0.0) -> np.ndarray:
    """``(1/n) Z^T (P - Y) + lam [0; W]``, shape (d + 1, K): the gradient of :func:`softmax_log_loss` (lecture 09).

    ``P = softmax(Z Theta)`` holds the predicted probabilities and ``Y`` the one-hot labels
    (``Y_ik = 1`` where ``y_i = k``). Its columns sum to ``lam`` times those of ``[0; W]``: to zero for
    centred parameters, so gradient descent from 0 never moves along the directions the loss is flat in.
    """
    Theta, Z, y = _softmax_problem(Theta, Z, y)
    lam = nonnegative_float(lam, "lam")
    R = softmax(Z @ Theta)
    R[np.arange(len(y)), y] -= 1.0
    G = Z.T @ R / len(y)
    G[1:] += lam * Theta[1:]
    return G


def _softmax_hessian(Z, P, lam):
    n, D = Z.shape
    K = P.shape[1]
    B = (Z[:, :, None] * P[:, None, :]).reshape(n, D * K)          # rows z_i (x) p_i, index j * K + k
    H = -(B.T @ B)
    diagonal = np.einsum("ij,il,ik->jkl", Z, Z, P)                   # sum_i z_ij z_il p_ik, for k = m
    H.reshape(D, K, D, K)[:, np.arange(K), :, np.arange(K)] += diagonal.transpose(1, 0, 2)
    H /= n
    H[np.arange(K, D * K), np.arange(K, D * K)] += lam
    return H


def softmax_hessian(Theta, Z, y, lam: float = 0.0) -> np.ndarray:
    """The Hessian of :func:`softmax_log_loss` with ``Theta`` flattened row by row (entry ``(j, k)`` at
    ``j * K + k``): ``(1/n) sum_i (diag(p_i) - p_i p_i^T) (x) z_i z_i^T + lam (diag(0, 1, ..., 1) (x) I_K)``
    (lecture 09). Positive semidefinite, and singular: adding the same vector to every column of
    ``Theta`` changes no probability, so those directions are flat."""
    Theta, Z, y = _softmax_problem(Theta, Z, y)
    return _softmax_hessian(Z, softmax(Z @ Theta), nonnegative_float(lam, "lam"))


def predict_softmax_proba(Theta, Z) -> np.ndarray:
    """``P(Y = k | x)`` for each row of ``Z`` and class ``k``: ``softmax(Z Theta)``, shape (n, K)."""
    Z = as_matrix(Z, "Z")
    Theta = as_matrix(Theta, "Theta")
    if Theta.shape[0] != Z.shape[1]:
        raise ValueError(f"Theta has shape {Theta.shape}, expected ({Z.shape[1]}, K): one row per column of Z")
    return softmax(Z @ Theta)


def predict_softmax(Theta, Z) -> np.ndarray:
    """The most probable class of each row of ``Z``, ``argmax_k (Z Theta)_k``; a tie goes to the larger class."""
    return argmax_ties_to_largest(predict_softmax_proba(Theta, Z))


def fit_softmax(Z, y, lam: float = 0.0, K: int | None = None, method: str = "newton", tol: float = 1e-4,
                max_iter: int | None = None, step: float | None = None) -> SoftmaxFit:
    """Minimise the (penalised) mean log-loss of softmax regression from ``Theta = 0`` (lecture 09).

    The loss does not change when the same vector is added to every column of ``Theta`` (every score of
    a point moves by the same amount), so its minimisers, when there are any, form a line of such shifts
    at least. The fit returns the **centred** one, whose columns sum to zero. With ``lam > 0`` that is no
    choice for the weights: the penalty ``sum_k ||w_k - c||^2`` over the shifts ``c`` is smallest at ``c`` =
    the mean of the ``w_k``, so the penalised minimiser has centred weights; the biases, not penalised,
    are centred by convention (as scikit-learn does).

    ``method="newton"``: Newton's method with the step halved until the loss does not increase. The
    Hessian is singular along the shifts; the gradient has no component along them (its columns sum to
    zero at centred parameters), so the system is solved with the projector onto the shifts added to
    the Hessian, which makes it invertible and changes nothing else. ``method="gradient"``: gradient
    descent with step ``1 / M``, ``M = ||Z||_2^2 / (2n) + lam`` a bound on the Hessian's largest eigenvalue
    (each ``diag(p) - p p^T`` has eigenvalues at most ``1/2``, by Gershgorin). ``max_iter`` defaults to 100
    for Newton and 10 000 for gradient descent. The fit stops when the largest entry of the gradient is
    at most ``tol``.

    Parameters
    ----------
    Z : array of shape (n, d + 1), the lifted design (a column of ones first)
    y : array of shape (n,), labels in ``{0, ..., K - 1}``
    lam : float >= 0, the weight of ``lam/2 ||W||^2``; scikit-learn's ``C`` is ``1 / (n lam)``
    K : int, the number of classes (default ``max(y) + 1``)

    >>> Z = np.c_[np.ones(6), [0.0, 0.2, 1.0, 1.2, 2.0, 2.1]]
    >>> fit = fit_softmax(Z, [0, 0, 1, 1, 2, 2], lam=0.1, tol=1e-10)
    >>> fit.converged, np.allclose(fit.Theta.sum(axis=1), 0)
    (True, True)
    """
    if method not in FIT_METHODS:
        raise ValueError(f"method must be one of {FIT_METHODS}; got {method!r}")
    Z = as_matrix(Z, "Z")
    n, D = Z.shape
    if K is not None:
        K = positive_int(K, "K")
        if K < 2:
            raise ValueError(f"K must be at least 2; got {K}")
    y, K = _class_labels(y, n, K)
    lam, tol = nonnegative_float(lam, "lam"), positive_float(tol, "tol")
    max_iter = positive_int(max_iter if max_iter is not None else (100 if method == "newton" else 10_000), "max_iter")
    if method == "gradient":
        step = positive_float(step, "step") if step is not None else 1.0 / (np.linalg.norm(Z, 2) ** 2 / (2 * n) + lam)
    rows = np.arange(n)
    shifts = np.kron(np.eye(D), np.full((K, K), 1.0 / K))             # the projector onto Theta + c 1^T

    def state(Theta):
        A = Z @ Theta
        loss = float(np.mean(logsumexp(A, axis=1) - A[rows, y]) + 0.5 * lam * np.sum(Theta[1:] ** 2))
        P = softmax(A)
        R = P.copy()
        R[rows, y] -= 1.0
        G = Z.T @ R / n
        G[1:] += lam * Theta[1:]
        return loss, P, G

    def newton_direction(P, G):
        return _solve(_softmax_hessian(Z, P, lam) + shifts, G.ravel()).reshape(D, K)

    def centred(Theta):                                                 # stay centred (round-off)
        return Theta - Theta.mean(axis=1, keepdims=True)

    Theta, iterations, losses, norms = _descend(np.zeros((D, K)), state, newton_direction, method, step, tol,
                                                max_iter, tidy=centred)
    return SoftmaxFit(Theta, iterations, bool(norms[-1] <= tol), np.array(losses), np.array(norms))
