"""Lecture 02: linear classifiers and the perceptron.

Conventions of the lecture:

* data ``X`` of shape (n, d), labels ``y`` in {-1, +1};
* the bias is handled by the *bias trick*: :func:`add_bias` lifts ``x`` to ``(1, x)``, so that
  ``w[0]`` is the bias and every other function sees a plain linear classifier ``x -> w . x``;
* a point counts as a *mistake* of ``w`` when ``y * (w . x) <= 0``: a point on the boundary is a
  mistake, which is what lets the perceptron move away from ``w = 0``;
* :func:`predict` breaks the tie ``w . x = 0`` towards +1;
* the radius of the data is ``r = max_i ||x_i||`` and Novikoff's bound is ``(r / gamma)^2``; a step
  size is ``tau``.

Besides one run at a time (:func:`train_perceptron` and its variants), :func:`perceptron_path` keeps
every step of a run of any of the three rules, and :func:`train_perceptron_many` runs many online
perceptrons side by side, vectorised over the runs (what the lecture's proof checks use).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import _as_float_array, as_labels, as_matrix, as_vector, positive_int


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
class PerceptronPath:
    """Every step of one perceptron run, from :func:`perceptron_path`.

    Attributes
    ----------
    w : ndarray of shape (T + 1, d)
        ``w[t]`` is the weight vector after ``t`` steps; ``w[0] = 0``.
    added : ndarray of shape (T, n), bool
        ``added[t, i]`` is True when step ``t + 1`` added ``y_i x_i``: one point per step for the
        online and first-mistake rules, every current mistake for the batch rule.
    converged : bool
        True when ``w[-1]`` makes no mistake on the data.
    """

    w: np.ndarray
    added: np.ndarray
    converged: bool


@dataclass(frozen=True)
class PerceptronRuns:
    """What :func:`train_perceptron_many` returns: ``m`` online perceptron runs, one per data set.

    Attributes
    ----------
    w : ndarray of shape (m, d)
        The final weights of each run.
    n_mistakes : ndarray of shape (m,), int
        Updates made by each run.
    n_epochs : ndarray of shape (m,), int
        Passes each run made over its data.
    converged : ndarray of shape (m,), bool
        True where the final weights make no mistake on their data.
    history : ndarray of shape (m, T + 1, d) or None
        With ``record=True``: ``history[j, t]`` holds the weights of run ``j`` after ``t`` updates
        (``t = 0``: the start), ``T = n_mistakes.max()``; past its last update a run's row repeats
        its final weights.
    points : ndarray of shape (m, T), int, or None
        With ``record=True``: the index of the point behind update ``t + 1`` of run ``j``; -1 past
        its last update.
    epoch_ends : ndarray of shape (m, E), int, or None
        With ``record=True``: the updates run ``j`` had made by the end of each pass,
        ``E = n_epochs.max()``; past its last pass a row repeats its final count.
    """

    w: np.ndarray
    n_mistakes: np.ndarray
    n_epochs: np.ndarray
    converged: np.ndarray
    history: np.ndarray | None = None
    points: np.ndarray | None = None
    epoch_ends: np.ndarray | None = None


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


@dataclass(frozen=True)
class SeparabilityCertificate:
    """What :func:`separability_certificate` returns: the verdict with its proof.

    Separable: ``w`` with ``y_i (w . x_i) > 0`` for every i (checked exactly), the shortest ``w`` whose
    margins ``y_i (w . x_i)`` are all at least 1 (up to round-off). Not separable:
    ``weights`` u >= 0 with ``sum u = 1`` and ``sum_i u_i y_i x_i = 0`` up to ``residual`` (its norm, in units
    of the largest ``||x_i||``): for any ``w``, ``sum_i u_i y_i (w . x_i) = (sum_i u_i y_i x_i) . w``, so not
    every ``y_i (w . x_i)`` can exceed ``residual * max_i ||x_i|| * ||w||`` (Farkas' lemma)."""

    separable: bool
    w: np.ndarray | None
    weights: np.ndarray | None
    residual: float


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
    path = perceptron_path(X, y, "first_mistake", positive_int(max_updates, "max_updates"))
    updates = len(path.added)
    return PerceptronResult(path.w[-1], updates, updates + 1, path.converged)


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
    path = perceptron_path(X, y, "batch", positive_int(max_iterations, "max_iterations"))
    iterations = len(path.added) if path.converged else max_iterations
    return PerceptronResult(path.w[-1], int(path.added.sum()), iterations, path.converged)


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
    """Novikoff's bound ``(r / gamma)^2``: ``r`` the radius of the data, ``gamma`` the margin of the
    separator ``w``."""
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


def _nnls(E, f):
    """Lawson and Hanson's active-set method: ``u >= 0`` minimising ``||E u - f||`` (E of shape (m, n))."""
    n = E.shape[1]
    u, active = np.zeros(n), np.zeros(n, dtype=bool)
    tol = 10 * np.finfo(float).eps * np.abs(E).sum(axis=0).max() * max(E.shape)
    for _ in range(3 * n + 10):
        gradient = E.T @ (f - E @ u)
        if active.all() or gradient[~active].max() <= tol:
            return u
        active[np.argmax(np.where(active, -np.inf, gradient))] = True
        while True:
            z = np.zeros(n)
            z[active] = np.linalg.lstsq(E[:, active], f, rcond=None)[0]
            if z[active].min() > 0:
                break
            leaving = active & (z <= 0)
            step = np.min(u[leaving] / (u[leaving] - z[leaving]))    # as far towards z as keeps u >= 0
            u = u + step * (z - u)
            active &= u > tol
            u[~active] = 0.0
        u = z
    raise RuntimeError("the least-distance program did not finish")


def separability_certificate(X, y) -> SeparabilityCertificate:
    """Decide whether some ``w`` has ``y_i (w . x_i) > 0`` for all i, with a proof either way, in NumPy.

    Lawson and Hanson's least-distance program: with ``g_i = y_i x_i``, the shortest ``w`` with
    ``g_i . w >= 1`` for all i comes from the non-negative least squares ``u`` of ``[G^T; 1^T] u = (0, 1)``:
    if the residual ``r`` is not zero, ``w = -r[:d] / r[d]``; if it is, ``u`` proves that no ``w`` exists
    (``G^T u = 0`` with ``sum u = 1``). Either proof is checked before it is returned. The same verdicts as
    :func:`is_linearly_separable`, without SciPy. Lift ``X`` with :func:`add_bias` to allow a bias.
    """
    X = as_matrix(X)
    y = as_labels(y, X.shape[0])
    G = y[:, None] * X
    scale = float(np.linalg.norm(X, axis=1).max()) or 1.0
    E = np.vstack([G.T / scale, np.ones(len(G))])
    f = np.zeros(E.shape[0])
    f[-1] = 1.0
    u = _nnls(E, f)
    r = E @ u - f
    if r[-1] < 0:
        w = -r[:-1] / (r[-1] * scale)
        if np.all(G @ w > 0):
            return SeparabilityCertificate(True, w, None, 0.0)
    if u.sum() > 0:
        weights = u / u.sum()
        residual = float(np.linalg.norm(G.T @ weights)) / scale
        if residual <= 1e-9:
            return SeparabilityCertificate(False, None, weights, residual)
    raise RuntimeError("separability_certificate: neither proof checked out (a margin too small for floating point)")


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


def perceptron_path(X, y, rule: str = "online", max_steps: int = 10_000) -> PerceptronPath:
    """Run a perceptron rule from ``w = 0`` and keep every step (lecture 02).

    Parameters
    ----------
    X : array of shape (n, d)
        Points (lift them with :func:`add_bias` first to allow a bias).
    y : array of shape (n,)
        Labels in {-1, +1}.
    rule : {"online", "first_mistake", "batch"}
        ``"online"``: pass over the points in order, add ``y_i x_i`` at each mistake (the steps of
        :func:`train_perceptron`); ``"first_mistake"``: add ``y_i x_i`` for the mistake of lowest
        index (:func:`train_perceptron_first_mistake`); ``"batch"``: add ``y_i x_i`` for every
        current mistake at once (:func:`train_perceptron_batch`). A mistake is ``y_i (w . x_i) <= 0``.
    max_steps : int
        Most steps (updates, or iterations of the batch rule).

    Returns
    -------
    PerceptronPath
        The weights after each step and the points each step added.

    >>> path = perceptron_path([[1.0, 0.0], [0.0, 1.0]], [1, 1])
    >>> path.w.tolist(), path.added.tolist(), path.converged
    ([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]], [[True, False], [False, True]], True)
    """
    X = as_matrix(X)
    n, d = X.shape
    y = as_labels(y, n)
    max_steps = positive_int(max_steps, "max_steps")
    if rule not in ("online", "first_mistake", "batch"):
        raise ValueError(f"rule must be 'online', 'first_mistake' or 'batch'; got {rule!r}")
    w = np.zeros(d)
    weights, added = [w], []
    if rule == "online":
        i, clean = 0, 0  # clean: points in a row seen without a mistake
        while clean < n and len(added) < max_steps:
            if y[i] * (w @ X[i]) <= 0:
                w = w + y[i] * X[i]
                weights.append(w)
                added.append(np.arange(n) == i)
                clean = 0
            else:
                clean += 1
            i = (i + 1) % n
    else:
        while len(added) < max_steps:
            wrong = y * (X @ w) <= 0
            if not wrong.any():
                break
            if rule == "first_mistake":
                wrong = np.arange(n) == np.flatnonzero(wrong)[0]
            w = w + (y[wrong, None] * X[wrong]).sum(axis=0)
            weights.append(w)
            added.append(wrong)
    return PerceptronPath(np.array(weights), np.array(added, dtype=bool).reshape(len(added), n),
                          bool((y * (X @ w) > 0).all()))


def train_perceptron_many(X, y, sizes=None, max_epochs: int = 1000, w0=None, tau=1.0,
                          record: bool = False) -> PerceptronRuns:
    """Run ``m`` online perceptrons side by side, one per data set, vectorised over the runs.

    Run ``j`` is :func:`train_perceptron` on ``X[j, :sizes[j]]``, ``y[j, :sizes[j]]`` with the
    update ``w <- w + tau_j y x``: it passes over its points in order, updates on every
    ``y (w . x) <= 0``, and stops after its first pass with no update or after ``max_epochs``
    passes. With ``tau = 1`` and ``w0 = 0`` its results are exactly those of
    :func:`train_perceptron`.

    Parameters
    ----------
    X : array of shape (m, n, d)
        ``m`` data sets of up to ``n`` points each. Pad smaller data sets with any finite rows (and
        give their ``sizes``); pad smaller dimensions with zero columns, which change nothing.
    y : array of shape (m, n)
        Labels in {-1, +1} (entries past a data set's size are ignored).
    sizes : array of shape (m,) of ints in 1..n, optional
        Number of points of each data set (all ``n`` by default).
    max_epochs : int
        Most passes over the data.
    w0 : array of shape (d,) or (m, d), optional
        Starting weights (zeros by default).
    tau : float or array of shape (m,)
        Step sizes, > 0.
    record : bool
        Keep the weights after every update, the points behind them and the updates per pass
        (see :class:`PerceptronRuns`).
    """
    X = _as_float_array(X, "X")
    if X.ndim != 3 or 0 in X.shape:
        raise ValueError(f"X must be a 3-d array of shape (m, n, d) with no empty axis; got shape {X.shape}")
    m, n, d = X.shape
    y = np.asarray(y)
    if y.shape != (m, n):
        raise ValueError(f"y must have shape {(m, n)} to match X; got shape {y.shape}")
    if sizes is None:
        sizes = np.full(m, n)
    else:
        sizes = np.asarray(sizes)
        if sizes.shape != (m,) or sizes.dtype.kind not in "iu" or (sizes < 1).any() or (sizes > n).any():
            raise ValueError(f"sizes must hold {m} integers between 1 and {n}; got {sizes!r:.80}")
    used = np.arange(n) < sizes[:, None]
    if not np.isin(y[used], (-1, 1)).all():
        raise ValueError(f"y must hold labels -1 and +1 only; found values {np.unique(y[used])[:5].tolist()}")
    y = np.where(used, y, 1).astype(float)
    tau = _as_float_array(tau, "tau")
    if tau.shape not in ((), (m,)) or (tau <= 0).any():
        raise ValueError(f"tau must be a number > 0 or an array of {m} of them; got {tau!r:.80}")
    tau = np.broadcast_to(tau, (m,))
    max_epochs = positive_int(max_epochs, "max_epochs")
    if w0 is None:
        w = np.zeros((m, d))
    else:
        w0 = _as_float_array(w0, "w0")
        if w0.shape not in ((d,), (m, d)):
            raise ValueError(f"w0 has shape {w0.shape}, expected ({d},) or ({m}, {d})")
        w = np.broadcast_to(w0, (m, d)).copy()
    signed = (y[:, :, None] * X).reshape(m * n, d)          # y_i x_i, one row per point of every run
    steps = tau[:, None, None] * signed.reshape(m, n, d)      # tau_j y_i x_i: the update on a mistake
    steps = steps.reshape(m * n, d)
    first_row = np.arange(m) * n                             # row of each run's point 0 in the flat arrays
    position = np.zeros(m, dtype=int)
    updates, epochs = np.zeros(m, dtype=int), np.zeros(m, dtype=int)
    updated_this_pass = np.zeros(m, dtype=bool)
    active, converged = np.ones(m, dtype=bool), np.zeros(m, dtype=bool)
    if record:  # buffers indexed by each run's own update and pass counts, doubled when full
        history, points, ends = np.empty((m, 64, d)), np.full((m, 63), -1), np.zeros((m, 64), dtype=int)
        history[:, 0] = w
    while active.any():
        row = first_row + position
        wrong = active & (np.einsum("md,md->m", w, signed[row]) <= 0)
        if wrong.any():
            w += wrong[:, None] * steps[row]                 # adds exactly 0 to the other runs
            updates += wrong
            updated_this_pass |= wrong
            if record:
                who = np.flatnonzero(wrong)
                if updates[who].max() >= history.shape[1]:
                    history = np.concatenate([history, np.empty_like(history)], axis=1)
                    points = np.concatenate([points, np.full((m, history.shape[1] - 1 - points.shape[1]), -1)], axis=1)
                history[who, updates[who]] = w[who]
                points[who, updates[who] - 1] = position[who]
        position += active
        ended = position == sizes                            # a run stopped at a pass's end sits at 0
        if ended.any():
            epochs += ended
            clean = ended & ~updated_this_pass
            converged |= clean
            active &= ~clean & (epochs < max_epochs)
            position[ended] = 0
            updated_this_pass &= ~ended
            if record:
                if epochs.max() > ends.shape[1]:
                    ends = np.concatenate([ends, np.zeros_like(ends)], axis=1)
                ends[ended, epochs[ended] - 1] = updates[ended]
    # runs stopped by max_epochs: converged if their last update happened to fix every point
    stopped = ~converged
    if stopped.any():
        scores = y[stopped] * np.einsum("knd,kd->kn", X[stopped], w[stopped])
        converged[stopped] = ~((scores <= 0) & used[stopped]).any(axis=1)
    if not record:
        return PerceptronRuns(w, updates, epochs, converged)
    T, E = int(updates.max()), int(epochs.max())
    steps = np.arange(T + 1)
    hist = np.where((steps <= updates[:, None])[:, :, None], history[:, :T + 1], w[:, None, :])
    pts = np.where(steps[1:] <= updates[:, None], points[:, :T], -1)
    ends = np.where(np.arange(1, E + 1) <= epochs[:, None], ends[:, :E], updates[:, None])
    return PerceptronRuns(w, updates, epochs, converged, hist, pts, ends)


def _maybe_tuple(history):
    return None if history is None else tuple(history)
