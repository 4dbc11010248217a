"""Lecture 01: loss functions, above all the losses of a classifier as functions of the margin.

Conventions of the lecture:

* a linear classifier scores a point with ``a = w . x`` and labels it ``sign(a)``; labels ``y`` are
  in {-1, +1} and the **margin** of a point is ``m = y * a`` (positive when the point is on the
  right side, the larger the "more right");
* a *margin loss* is a function ``phi(m)``. Seven of them, each vectorised over arrays of any
  shape: :func:`zero_one_loss`, :func:`squared_loss`, :func:`absolute_loss`,
  :func:`sigmoid_squared_loss`, :func:`perceptron_loss`, :func:`hinge_loss`,
  :func:`logistic_loss` (natural logarithm);
* :data:`MARGIN_LOSSES` holds them with their derivative in ``m`` and whether they are convex and
  differentiable. At a kink the derivative returned is the **left** derivative, a subgradient of
  the convex losses (for the perceptron loss it makes ``m = 0`` count as a mistake, as in
  lecture 02);
* losses of a prediction ``y_hat`` against a label ``y`` (for regression, or labels compared as
  values) are :func:`squared_error`, :func:`absolute_error`, :func:`pinball_error` (lecture 09) and
  :func:`zero_one_error`.

The squared and sigmoid losses are squared errors in disguise: for ``y`` in {-1, +1},
``(y - a)^2 = (1 - y a)^2`` and ``(y - tanh a)^2 = (1 - tanh(y a))^2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ._checks import _as_float_array, as_labels, as_matrix, as_vector, positive_float, positive_int

# --------------------------------------------------------------------------- margin losses


def _margins(m) -> np.ndarray:
    return _as_float_array(m, "m")


def expit(z) -> np.ndarray:
    """The logistic function ``sigma(z) = 1 / (1 + exp(-z))``, elementwise, without overflow.

    Computed from ``exp(-|z|)``, which never overflows, so that both tails keep their digits:
    ``sigma(-800)`` is ``exp(-800)`` rounded (0.0), not ``1 / (1 + inf)`` with a warning. (It is
    ``scipy.special.expit``, written with NumPy so that the lecture does not need to import SciPy.)

    >>> expit([0.0])
    array([0.5])
    """
    z = np.asarray(z, dtype=float)
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def zero_one_loss(m) -> np.ndarray:
    """``1`` where ``m <= 0`` (a mistake, the boundary included), else ``0``.

    >>> zero_one_loss([-2.0, 0.0, 0.5])
    array([1., 1., 0.])
    """
    return (_margins(m) <= 0).astype(float)


def squared_loss(m) -> np.ndarray:
    """``(1 - m)^2``: the squared error ``(y - a)^2`` of the score, written in the margin."""
    return (1.0 - _margins(m)) ** 2


def absolute_loss(m) -> np.ndarray:
    """``|1 - m|``: the absolute error ``|y - a|`` of the score, written in the margin."""
    return np.abs(1.0 - _margins(m))


def sigmoid_squared_loss(m) -> np.ndarray:
    """``(1 - tanh m)^2``: the squared error ``(y - tanh a)^2`` of a squashed score.

    Computed as ``4 sigma(-2m)^2`` (``sigma`` the logistic function), which equals it and loses no
    digits when ``m`` is large.
    """
    return 4.0 * expit(-2.0 * _margins(m)) ** 2


def perceptron_loss(m) -> np.ndarray:
    """``max(0, -m)``: zero on the right side, growing linearly with how wrong a point is."""
    return np.maximum(0.0, -_margins(m))


def hinge_loss(m) -> np.ndarray:
    """``max(0, 1 - m)``: the perceptron loss moved to ask for a margin of at least 1."""
    return np.maximum(0.0, 1.0 - _margins(m))


def logistic_loss(m) -> np.ndarray:
    """``log(1 + exp(-m))`` (natural log), computed without overflow as ``logaddexp(0, -m)``."""
    return np.logaddexp(0.0, -_margins(m))


def _zero_one_derivative(m):
    return np.zeros_like(_margins(m))


def _squared_derivative(m):
    return -2.0 * (1.0 - _margins(m))


def _absolute_derivative(m):
    return np.where(_margins(m) <= 1.0, -1.0, 1.0)


def _sigmoid_squared_derivative(m):
    # d/dm (1 - tanh m)^2 = -2 (1 - tanh m)(1 - tanh^2 m), with 1 - tanh m = 2 sigma(-2m) and
    # 1 - tanh^2 m = 4 sigma(2m) sigma(-2m)
    m = _margins(m)
    return -16.0 * expit(-2.0 * m) ** 2 * expit(2.0 * m)


def _perceptron_derivative(m):
    return np.where(_margins(m) <= 0.0, -1.0, 0.0)


def _hinge_derivative(m):
    return np.where(_margins(m) <= 1.0, -1.0, 0.0)


def _logistic_derivative(m):
    return -expit(-_margins(m))


@dataclass(frozen=True)
class MarginLoss:
    """A loss of the margin, with the facts lecture 01 states about it.

    Attributes
    ----------
    name : str
    formula : str
        The formula in LaTeX, for plots and tables.
    value : callable
        ``m -> phi(m)``, vectorised.
    derivative : callable
        ``m -> phi'(m)``, vectorised; the left derivative at a kink (``0`` everywhere for the 0-1
        loss, which is flat wherever it has a derivative).
    convex, differentiable : bool
        As functions of ``m`` (and therefore of ``w``, since ``m = y w.x`` is linear in ``w``).
    """

    name: str
    formula: str
    value: Callable
    derivative: Callable
    convex: bool
    differentiable: bool

    def __call__(self, m) -> np.ndarray:
        return self.value(m)


MARGIN_LOSSES: dict[str, MarginLoss] = {
    loss.name: loss
    for loss in (
        MarginLoss("0-1", r"$\mathbb{1}[m \leq 0]$", zero_one_loss, _zero_one_derivative, False, False),
        MarginLoss("squared", r"$(1-m)^2$", squared_loss, _squared_derivative, True, True),
        MarginLoss("absolute", r"$|1-m|$", absolute_loss, _absolute_derivative, True, False),
        MarginLoss("sigmoid-squared", r"$(1-\tanh m)^2$", sigmoid_squared_loss, _sigmoid_squared_derivative,
                   False, True),
        MarginLoss("perceptron", r"$\max(0,-m)$", perceptron_loss, _perceptron_derivative, True, False),
        MarginLoss("hinge", r"$\max(0,1-m)$", hinge_loss, _hinge_derivative, True, False),
        MarginLoss("logistic", r"$\log(1+e^{-m})$", logistic_loss, _logistic_derivative, True, True),
    )
}
"""The seven margin losses of lecture 01, by name."""


def margin_loss(loss) -> MarginLoss:
    """Return the :class:`MarginLoss` called ``loss`` (a :class:`MarginLoss` is returned as is)."""
    if isinstance(loss, MarginLoss):
        return loss
    if loss not in MARGIN_LOSSES:
        raise ValueError(f"loss must be one of {', '.join(map(repr, MARGIN_LOSSES))}; got {loss!r}")
    return MARGIN_LOSSES[loss]


# --------------------------------------------------------------------------- on data


def margins(w, X, y) -> np.ndarray:
    """The margins ``y_i (w . x_i)`` of the rows of ``X``, shape (n,)."""
    X = as_matrix(X)
    w = as_vector(w, "w", X.shape[1])
    return as_labels(y, X.shape[0]) * (X @ w)


def mean_margin_loss(w, X, y, loss) -> float:
    """The empirical risk ``(1/n) sum_i phi(y_i w . x_i)`` of the linear classifier ``w``."""
    return float(margin_loss(loss).value(margins(w, X, y)).mean())


def mean_margin_loss_gradient(w, X, y, loss) -> np.ndarray:
    """Gradient in ``w`` of :func:`mean_margin_loss`: ``(1/n) sum_i phi'(m_i) y_i x_i`` (chain rule)."""
    X = as_matrix(X)
    y = as_labels(y, X.shape[0])
    w = as_vector(w, "w", X.shape[1])
    return _mean_gradient(w, X, y, margin_loss(loss))


def _mean_gradient(w, X, y, phi) -> np.ndarray:
    """:func:`mean_margin_loss_gradient` on inputs already checked (a descent loop checks them once)."""
    return (phi.derivative(y * (X @ w)) * y) @ X / X.shape[0]


@dataclass(frozen=True)
class DescentResult:
    """What :func:`gradient_descent` returns.

    Attributes
    ----------
    w : ndarray of shape (d,)
        The final weights.
    path : ndarray of shape (n_steps + 1, d)
        The weights before the first step and after each step.
    risk : ndarray of shape (n_steps + 1,)
        The mean loss along the path.
    error : ndarray of shape (n_steps + 1,)
        The fraction of training points with margin ``<= 0`` along the path.
    """

    w: np.ndarray
    path: np.ndarray
    risk: np.ndarray
    error: np.ndarray


def gradient_descent(X, y, loss, w0, step_size: float = 0.1, n_steps: int = 100) -> DescentResult:
    """Plain gradient descent ``w <- w - step_size * grad`` on the mean margin loss.

    Parameters
    ----------
    X : array of shape (n, d)
        Points (lift them with :func:`mlcourse.perceptron.add_bias` to allow a bias).
    y : array of shape (n,)
        Labels in {-1, +1}.
    loss : str or MarginLoss
        One of :data:`MARGIN_LOSSES`; at kinks the left derivative is used.
    w0 : array of shape (d,)
        Starting weights.
    step_size : float
    n_steps : int
    """
    X = as_matrix(X)
    y = as_labels(y, X.shape[0])
    phi = margin_loss(loss)
    step_size, n_steps = positive_float(step_size, "step_size"), positive_int(n_steps, "n_steps")
    w = as_vector(w0, "w0", X.shape[1]).copy()
    path = np.empty((n_steps + 1, X.shape[1]))
    path[0] = w
    for t in range(1, n_steps + 1):  # each step needs the previous one; the inputs were checked above
        w = w - step_size * _mean_gradient(w, X, y, phi)
        path[t] = w
    m = y * (path @ X.T)  # (n_steps + 1, n) margins along the path
    return DescentResult(w, path, phi.value(m).mean(axis=1), (m <= 0).mean(axis=1))


def least_squares_classifier(X, y) -> np.ndarray:
    """The ``w`` minimising ``sum_i (y_i - w . x_i)^2``, i.e. the squared margin loss, in closed form.

    It solves the normal equations ``X^T X w = X^T y`` (the minimum-norm solution when ``X`` has
    dependent columns), by ``numpy.linalg.lstsq``.
    """
    X = as_matrix(X)
    y = as_labels(y, X.shape[0])
    return np.linalg.lstsq(X, y.astype(float), rcond=None)[0]


# --------------------------------------------------------------------------- losses of predictions


def _pair(y_hat, y):
    y_hat, y = _as_float_array(y_hat, "y_hat"), _as_float_array(y, "y")
    if y_hat.shape != y.shape:
        raise ValueError(f"y_hat has shape {y_hat.shape} but y has shape {y.shape}: one prediction per label")
    return y_hat, y


def squared_error(y_hat, y) -> np.ndarray:
    """``(y_hat - y)^2``, elementwise."""
    y_hat, y = _pair(y_hat, y)
    d = np.subtract(y_hat, y, out=np.empty(y.shape))       # then in place: one array, not two
    return np.multiply(d, d, out=d)[()]                     # [()]: a number for numbers


def absolute_error(y_hat, y) -> np.ndarray:
    """``|y_hat - y|``, elementwise."""
    y_hat, y = _pair(y_hat, y)
    d = np.subtract(y_hat, y, out=np.empty(y.shape))
    return np.abs(d, out=d)[()]


def pinball_error(y_hat, y, tau: float) -> np.ndarray:
    """The pinball (quantile) loss at level ``tau`` in (0, 1), elementwise: ``tau (y - y_hat)`` when the
    prediction is too low, ``(1 - tau)(y_hat - y)`` when too high (lecture 09). Its expected value is
    smallest at the ``tau``-quantile of ``y``; ``tau = 1/2`` is half the absolute error."""
    y_hat, y = _pair(y_hat, y)
    if isinstance(tau, bool) or not isinstance(tau, (int, float, np.integer, np.floating)) or not 0 < tau < 1:
        raise ValueError(f"tau must be a number strictly between 0 and 1; got {tau!r}")
    u = np.subtract(y, y_hat, out=np.empty(y.shape))
    over = u * (tau - 1)                                    # the too-high side; then the too-low side in place
    u *= tau
    return np.maximum(u, over, out=u)[()]


def zero_one_error(y_hat, y) -> np.ndarray:
    """``1`` where ``y_hat != y``, else ``0``, elementwise."""
    y_hat, y = _pair(y_hat, y)
    return (y_hat != y).astype(float)
