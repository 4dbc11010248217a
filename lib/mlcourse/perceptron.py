"""Lecture 02: linear classifiers and the perceptron.

Conventions of the lecture:

* data ``X`` of shape (n, d), labels ``y`` in {-1, +1};
* the bias is handled by the *bias trick*: :func:`add_bias` lifts ``x`` to ``(1, x)``, so that
  ``w[0]`` is the bias and every other function sees a plain linear classifier ``x -> w . x``;
* a point counts as a *mistake* of ``w`` when ``y * (w . x) <= 0``: a point on the boundary is a
  mistake, which is what lets the perceptron move away from ``w = 0``;
* :func:`predict` breaks the tie ``w . x = 0`` towards +1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import as_labels, as_matrix, as_vector, positive_int


@dataclass(frozen=True)
class PerceptronResult:
    """What a perceptron run returns.

    Attributes
    ----------
    w : ndarray of shape (d,)
        The final weights.
    n_mistakes : int
        Number of updates made (for the batch rule: mistakes summed over iterations).
    n_epochs : int
        Passes over the data (for the batch rule: iterations).
    converged : bool
        True when the final ``w`` makes no mistake on the data.
    history : tuple of ndarray or None
        With ``record=True``: the weights before the first update and after each update.
    """

    w: np.ndarray
    n_mistakes: int
    n_epochs: int
    converged: bool
    history: tuple | None = None


@dataclass(frozen=True)
class PocketResult:
    """What :func:`pocket` returns: the best weights seen and the mistakes they make.

    ``errors[k]`` is the number of mistakes of the running weights after update ``k + 1``.
    """

    w: np.ndarray
    n_errors: int
    n_updates: int
    errors: np.ndarray


@dataclass(frozen=True)
class SeparabilityResult:
    """Verdict of :func:`is_linearly_separable`; ``w`` separates the data when one exists."""

    separable: bool
    w: np.ndarray | None


def add_bias(X) -> np.ndarray:
    """Lift every row ``x`` of ``X`` to ``(1, x)`` (the bias trick).

    >>> add_bias([[2.0, 3.0]])
    array([[1., 2., 3.]])
    """
    X = as_matrix(X)
    return np.hstack([np.ones((X.shape[0], 1)), X])


def decision_function(w, X) -> np.ndarray:
    """Return the scores ``X @ w``, shape (n,)."""
    X = as_matrix(X)
    w = as_vector(w, "w", X.shape[1])
    return X @ w


def predict(w, X) -> np.ndarray:
    """Labels ``sign(w . x)`` in {-1, +1}, with the tie ``w . x = 0`` broken towards +1."""
    return np.where(decision_function(w, X) >= 0, 1, -1)


def mistakes(w, X, y) -> np.ndarray:
    """Boolean mask of the points with ``y * (w . x) <= 0``."""
    scores = decision_function(w, X)
    return as_labels(y, len(scores)) * scores <= 0


def n_mistakes(w, X, y) -> int:
    """Number of points with ``y * (w . x) <= 0``."""
    return int(mistakes(w, X, y).sum())


def perceptron_update(w, x, y) -> np.ndarray:
    """One step of Rosenblatt's rule: ``w + y x`` if ``y (w . x) <= 0``, else ``w`` unchanged."""
    w = as_vector(w, "w")
    x = as_vector(x, "x", w.shape[0])
    if y not in (-1, 1):
        raise ValueError(f"y must be -1 or +1; got {y!r}")
    return w + y * x if y * (w @ x) <= 0 else w.copy()


def error_driven_update(w, x, y) -> np.ndarray:
    """The form ``w + (y - yhat) / 2 * x`` with ``yhat = predict(w, x)``.

    It equals :func:`perceptron_update` whenever ``w . x != 0``. On the boundary it differs:
    ``yhat = +1`` there, so a positive point on the boundary is not corrected.
    """
    w = as_vector(w, "w")
    x = as_vector(x, "x", w.shape[0])
    if y not in (-1, 1):
        raise ValueError(f"y must be -1 or +1; got {y!r}")
    yhat = 1 if w @ x >= 0 else -1
    return w + (y - yhat) / 2 * x


def train_perceptron(X, y, max_epochs: int = 1000, w0=None, record: bool = False) -> PerceptronResult:
    """Rosenblatt's online perceptron: pass over the points in order, update on every mistake.

    Stops after the first pass with no mistake (converged) or after ``max_epochs`` passes.

    Parameters
    ----------
    X : array of shape (n, d)
        Points (lift them with :func:`add_bias` first if the boundary need not pass through 0).
    y : array of shape (n,)
        Labels in {-1, +1}.
    max_epochs : int
        Most passes over the data.
    w0 : array of shape (d,), optional
        Starting weights (zeros by default).
    record : bool
        Keep every weight vector in ``history``.
    """
    X = as_matrix(X)
    y = as_labels(y, X.shape[0])
    max_epochs = positive_int(max_epochs, "max_epochs")
    w = np.zeros(X.shape[1]) if w0 is None else as_vector(w0, "w0", X.shape[1]).copy()
    history = [w.copy()] if record else None
    updates = 0
    for epoch in range(1, max_epochs + 1):
        updates_before = updates
        for x_i, y_i in zip(X, y):
            if y_i * (w @ x_i) <= 0:
                w = w + y_i * x_i
                updates += 1
                if record:
                    history.append(w.copy())
        if updates == updates_before:
            return PerceptronResult(w, updates, epoch, True, _maybe_tuple(history))
    converged = n_mistakes(w, X, y) == 0
    return PerceptronResult(w, updates, max_epochs, converged, _maybe_tuple(history))


def train_perceptron_first_mistake(X, y, max_updates: int = 100_000) -> PerceptronResult:
    """Batch perceptron that always corrects the *first* point (lowest index) it gets wrong.

    ``n_epochs`` counts the scans of the data, one per update plus the final clean one.
    """
    X = as_matrix(X)
    y = as_labels(y, X.shape[0])
    max_updates = positive_int(max_updates, "max_updates")
    w = np.zeros(X.shape[1])
    for update in range(max_updates + 1):
        wrong = np.flatnonzero(y * (X @ w) <= 0)
        if wrong.size == 0:
            return PerceptronResult(w, update, update + 1, True)
        if update == max_updates:
            break
        i = wrong[0]
        w = w + y[i] * X[i]
    return PerceptronResult(w, max_updates, max_updates + 1, False)


def perceptron_loss(w, X, y) -> float:
    """The perceptron criterion ``sum_i max(0, -y_i w . x_i)``."""
    scores = decision_function(w, X)
    return float(np.maximum(0.0, -as_labels(y, len(scores)) * scores).sum())


def perceptron_loss_gradient(w, X, y) -> np.ndarray:
    """Gradient of :func:`perceptron_loss` where it exists: ``-sum over y_i w.x_i < 0 of y_i x_i``."""
    X = as_matrix(X)
    scores = decision_function(w, X)
    y = as_labels(y, len(scores))
    wrong = y * scores < 0
    return -(y[wrong, None] * X[wrong]).sum(axis=0)


def train_perceptron_batch(X, y, max_iterations: int = 10_000) -> PerceptronResult:
    """Batch perceptron: add the sum of ``y_i x_i`` over *all* current mistakes at once.

    Where no point lies on the boundary this is gradient descent with step 1 on
    :func:`perceptron_loss`. ``n_mistakes`` sums the mistakes corrected over all iterations.
    """
    X = as_matrix(X)
    y = as_labels(y, X.shape[0])
    max_iterations = positive_int(max_iterations, "max_iterations")
    w = np.zeros(X.shape[1])
    total = 0
    for iteration in range(max_iterations):
        wrong = y * (X @ w) <= 0
        if not wrong.any():
            return PerceptronResult(w, total, iteration, True)
        w = w + (y[wrong, None] * X[wrong]).sum(axis=0)
        total += int(wrong.sum())
    return PerceptronResult(w, total, max_iterations, n_mistakes(w, X, y) == 0)


def margin(w, X, y) -> float:
    """Geometric margin of ``w`` on the data: ``min_i y_i (w . x_i) / ||w||``.

    Negative when ``w`` misclassifies a point.
    """
    X = as_matrix(X)
    w = as_vector(w, "w", X.shape[1])
    norm = np.linalg.norm(w)
    if norm == 0:
        raise ValueError("w is the zero vector: its margin is undefined")
    return float((as_labels(y, X.shape[0]) * (X @ w)).min() / norm)


def radius(X) -> float:
    """Radius of the data: ``max_i ||x_i||``."""
    return float(np.linalg.norm(as_matrix(X), axis=1).max())


def mistake_bound(X, y, w) -> float:
    """Novikoff's bound ``(R / gamma)^2`` with ``gamma`` the margin of the separator ``w``."""
    gamma = margin(w, X, y)
    if gamma <= 0:
        raise ValueError(f"w does not separate the data (its margin is {gamma:.3g} <= 0)")
    return (radius(X) / gamma) ** 2


def is_linearly_separable(X, y) -> SeparabilityResult:
    """Decide whether some ``w`` has ``y_i (w . x_i) > 0`` for all i, by linear programming.

    Strict separation is scale-free, so it is the same as the feasibility of
    ``y_i (w . x_i) >= 1``: a linear program with a zero objective. Lift ``X`` with
    :func:`add_bias` first to allow a boundary that misses the origin.
    """
    from scipy.optimize import linprog

    X = as_matrix(X)
    y = as_labels(y, X.shape[0])
    d = X.shape[1]
    result = linprog(
        c=np.zeros(d),
        A_ub=-(y[:, None] * X),
        b_ub=-np.ones(X.shape[0]),
        bounds=[(None, None)] * d,
        method="highs",
    )
    if result.status == 0:
        return SeparabilityResult(True, result.x)
    if result.status == 2:
        return SeparabilityResult(False, None)
    raise RuntimeError(f"the linear program did not finish: {result.message}")


def pocket(X, y, max_updates: int = 1000) -> PocketResult:
    """The pocket algorithm: run the online perceptron, keep the weights with fewest mistakes.

    Starts from ``w = 0`` (every point a mistake), passes over the points in order and updates on
    each mistake; after every update the new weights go in the pocket if they make strictly fewer
    mistakes on the whole data than the pocketed ones. Stops after ``max_updates`` updates or
    when the running weights make no mistake.
    """
    X = as_matrix(X)
    y = as_labels(y, X.shape[0])
    max_updates = positive_int(max_updates, "max_updates")
    w = np.zeros(X.shape[1])
    best_w, best_errors = w.copy(), X.shape[0]
    errors = []
    while len(errors) < max_updates and best_errors > 0:
        for x_i, y_i in zip(X, y):
            if y_i * (w @ x_i) <= 0:
                w = w + y_i * x_i
                errors.append(int((y * (X @ w) <= 0).sum()))
                if errors[-1] < best_errors:
                    best_w, best_errors = w.copy(), errors[-1]
                if len(errors) == max_updates or best_errors == 0:
                    break
    return PocketResult(best_w, best_errors, len(errors), np.array(errors, dtype=int))


def _maybe_tuple(history):
    return None if history is None else tuple(history)
