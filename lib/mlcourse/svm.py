"""Lecture 07: the support vector machine, its dual, and a solver for it.

Conventions of the lecture:

* labels ``y`` in {-1, +1}; the classifier is ``f(x) = w . x + b`` (the bias ``b`` apart from ``w``:
  the margin penalises ``||w||`` only), predicting ``sign f(x)`` with ``sign(0) = +1``;
* the **soft-margin primal**: minimise ``1/2 ||w||^2 + C sum_i xi_i`` subject to
  ``y_i f(x_i) >= 1 - xi_i`` and ``xi_i >= 0``; equivalently ``1/2 ||w||^2 + C sum_i hinge(y_i f(x_i))``
  with ``hinge(m) = max(0, 1 - m)``. ``C = inf`` is the hard margin;
* the **dual**: maximise ``D(alpha) = sum_i alpha_i - 1/2 sum_ij alpha_i alpha_j y_i y_j K(x_i, x_j)``
  subject to ``0 <= alpha_i <= C`` and ``sum_i alpha_i y_i = 0``; then
  ``f(x) = sum_i alpha_i y_i K(x_i, x) + b``;
* the **solver** is sequential minimal optimisation (SMO) with the second-order choice of the pair
  of Fan, Chen and Lin (2005), the method of libsvm, on the Gram matrix ``K``: it stops when the
  largest violation of the optimality conditions, ``max over I_up - min over I_low`` of ``-y_t g_t``
  (``g`` the gradient of ``-D``), is at most ``tol``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import as_gram_and_labels, as_labels, as_matrix, as_vector, positive_float, positive_int

_TAU = 1e-12      # libsvm's floor on the curvature of a pair (a non-positive one means a flat direction)


# --------------------------------------------------------------------------- losses and objectives


def hinge_loss(margins) -> np.ndarray:
    """``max(0, 1 - m)`` elementwise for margins ``m = y f(x)``.

    >>> hinge_loss([2.0, 1.0, 0.5, -1.0])
    array([0. , 0. , 0.5, 2. ])
    """
    return np.maximum(0.0, 1.0 - np.asarray(margins, dtype=float))


def primal_objective(w, b, X, y, C) -> float:
    """``1/2 ||w||^2 + C sum_i hinge(y_i (w . x_i + b))`` (the soft-margin primal, slacks at their best)."""
    X = as_matrix(X)
    y = as_labels(y, len(X))
    w = np.asarray(w, dtype=float)
    if w.shape != (X.shape[1],):
        raise ValueError(f"w has shape {w.shape}; expected ({X.shape[1]},), one weight per feature")
    C = _cost(C)
    losses = hinge_loss(y * (X @ w + float(b)))
    return float(0.5 * w @ w + (C * losses.sum() if np.isfinite(C) else (0.0 if not losses.any() else np.inf)))


def dual_objective(alpha, K, y) -> float:
    """``D(alpha) = sum_i alpha_i - 1/2 (alpha * y)^T K (alpha * y)``."""
    K, y = as_gram_and_labels(K, y)
    alpha = _alpha(alpha, len(y))
    ay = alpha * y
    return float(alpha.sum() - 0.5 * ay @ K @ ay)


def _cost(C) -> float:
    """``C > 0``, finite or ``np.inf`` (the hard margin)."""
    if isinstance(C, bool) or not isinstance(C, (int, float, np.integer, np.floating)):
        raise TypeError(f"C must be a number > 0 (or np.inf for the hard margin); got {type(C).__name__}")
    if not C > 0:
        raise ValueError(f"C must be > 0 (or np.inf for the hard margin); got {C}")
    return float(C)


def _alpha(alpha, n):
    alpha = np.asarray(alpha, dtype=float)
    if alpha.shape != (n,):
        raise ValueError(f"alpha has shape {alpha.shape}; expected ({n},), one multiplier per training point")
    return alpha


# --------------------------------------------------------------------------- the solver


@dataclass(frozen=True)
class SVMResult:
    """What :func:`fit_svm` returns: the multipliers ``alpha`` (n,), the bias ``b``, the dual objective,
    the iterations (pair updates) made, whether the optimality gap reached ``tol``, and the gap."""

    alpha: np.ndarray
    b: float
    dual: float
    n_iter: int
    converged: bool
    gap: float
    C: float

    @property
    def support(self) -> np.ndarray:
        """Indices of the support vectors: ``alpha_i > 0``."""
        return np.flatnonzero(self.alpha > 0)

    @property
    def on_margin(self) -> np.ndarray:
        """Indices with ``0 < alpha_i < C``: the support vectors that lie exactly on the margin."""
        return np.flatnonzero((self.alpha > 0) & (self.alpha < self.C))


def fit_svm(K, y, C=1.0, tol=1e-3, max_iter=None) -> SVMResult:
    """Solve the SVM dual on the Gram matrix ``K`` (n, n) by SMO (see the module's conventions).

    ``C = np.inf`` asks for the hard margin; on data the kernel does not separate it then runs out of
    iterations (``converged`` False). ``max_iter`` defaults to ``max(10 n, 10 000)`` pair updates.

    >>> K = np.array([[1.0, -1.0], [-1.0, 1.0]])          # the points 1 and -1 on a line, linear kernel
    >>> r = fit_svm(K, [1, -1], C=10.0)
    >>> r.alpha.round(6).tolist(), round(r.b, 6)
    ([0.5, 0.5], 0.0)
    """
    K, y = as_gram_and_labels(K, y)
    C = _cost(C)
    tol = positive_float(tol, "tol")
    n = len(y)
    max_iter = max(10 * n, 10_000) if max_iter is None else positive_int(max_iter, "max_iter")
    if np.all(y == y[0]):
        raise ValueError(f"y holds only the label {int(y[0])}: an SVM needs points of both classes")
    diag = np.diag(K).copy()
    alpha = np.zeros(n)
    # score_t = -y_t g_t, with g = Q alpha - 1 the gradient of -D and Q_ts = y_t y_s K_ts; at alpha = 0, y
    score = y.astype(float)
    pos = y > 0
    up, low = _up_low(alpha, pos, C)
    # 0 in a set, -inf (or +inf) outside: a masked score is one addition; buffers are reused
    up_pen, low_pen = np.where(up, 0.0, -np.inf), np.where(low, 0.0, np.inf)
    up_score, low_score, curve, step = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    n_iter, gap = 0, np.inf
    while n_iter < max_iter:
        np.add(score, up_pen, out=up_score)
        np.add(score, low_pen, out=low_score)
        i = int(up_score.argmax())
        gap = up_score[i] - low_score.min()
        if not gap > tol:                           # also when I_up or I_low is empty (-inf or nan)
            break
        # j: second order, the largest decrease b^2 / a among t in I_low with b = score_i - score_t > 0
        np.subtract(score[i], low_score, out=step)  # b; -inf outside I_low
        np.maximum(step, 0.0, out=step)             # no gain where b <= 0 (the best has b = gap > 0)
        np.multiply(K[i], -2.0, out=curve)
        curve += diag
        curve += diag[i]
        np.maximum(curve, _TAU, out=curve)          # a = K_ii + K_tt - 2 K_it, floored
        step *= step
        step /= curve
        j = int(step.argmax())
        change_i, change_j = _update_pair(i, j, alpha, score, y, C, K, diag)
        np.multiply(K[i], y[i] * change_i, out=step)
        score -= step
        np.multiply(K[j], y[j] * change_j, out=step)
        score -= step                               # rows: K is symmetric
        for t in (i, j):
            up[t] = (alpha[t] < C) if pos[t] else (alpha[t] > 0)
            low[t] = (alpha[t] > 0) if pos[t] else (alpha[t] < C)
            up_pen[t], low_pen[t] = (0.0 if up[t] else -np.inf), (0.0 if low[t] else np.inf)
        n_iter += 1
    if up.any() and low.any():                      # the gap where the run ended (after its last update)
        gap = score[up].max() - score[low].min()
    gap = float(gap) if np.isfinite(gap) else 0.0
    return SVMResult(alpha, _bias(alpha, score, up, low, C), dual_objective(alpha, K, y), n_iter, bool(gap <= tol),
                     gap, C)


def _up_low(alpha, pos, C):
    """The index sets of libsvm: ``I_up`` where ``alpha_t`` may move so that ``y_t alpha_t`` grows,
    ``I_low`` where it may shrink."""
    below, above = alpha < C, alpha > 0
    return (below & pos) | (above & ~pos), (below & ~pos) | (above & pos)


def _update_pair(i, j, alpha, score, y, C, K, diag):
    """Optimise the dual over ``alpha_i, alpha_j`` with the others fixed (keeping ``y . alpha``), as in
    libsvm; return the two changes."""
    grad_i, grad_j = -y[i] * score[i], -y[j] * score[j]
    a = diag[i] + diag[j] - 2.0 * K[i, j]
    a = a if a > 0 else _TAU
    old_i, old_j = alpha[i], alpha[j]
    if y[i] != y[j]:
        delta = (-grad_i - grad_j) / a
        diff = old_i - old_j
        new_i, new_j = old_i + delta, old_j + delta
        if diff > 0 and new_j < 0:
            new_j, new_i = 0.0, diff
        elif diff <= 0 and new_i < 0:
            new_i, new_j = 0.0, -diff
        if diff > 0 and new_i > C:          # only when C is finite
            new_i, new_j = C, C - diff
        elif diff <= 0 and new_j > C:
            new_j, new_i = C, C + diff
    else:
        delta = (grad_i - grad_j) / a
        total = old_i + old_j
        new_i, new_j = old_i - delta, old_j + delta
        if total > C and new_i > C:
            new_i, new_j = C, total - C
        elif total <= C and new_j < 0:
            new_j, new_i = 0.0, total
        if total > C and new_j > C:
            new_j, new_i = C, total - C
        elif total <= C and new_i < 0:
            new_i, new_j = 0.0, total
    alpha[i], alpha[j] = new_i, new_j
    return new_i - old_i, new_j - old_j


def _bias(alpha, score, up, low, C) -> float:
    """``b`` from the optimality conditions: the mean of the scores ``-y_i g_i`` over the points on the
    margin (``0 < alpha_i < C``); without any, the middle of the interval the conditions allow."""
    free = (alpha > 0) & (alpha < C)
    if free.any():
        return float(score[free].mean())
    hi = score[low].min() if low.any() else np.inf      # b may not exceed any score of I_low ...
    lo = score[up].max() if up.any() else -np.inf       # ... nor fall below any of I_up
    if np.isfinite(hi) and np.isfinite(lo):
        return float((hi + lo) / 2)
    return float(hi if np.isfinite(hi) else lo)


# --------------------------------------------------------------------------- using the solution


def decision_function(K_query, y_train, alpha, b) -> np.ndarray:
    """``f(x) = sum_i alpha_i y_i K(x_i, x) + b`` for ``K_query[q, i] = K(x_q, x_i)`` (m, n)."""
    K_query = np.asarray(K_query, dtype=float)
    if K_query.ndim != 2:
        raise ValueError(f"K_query must be a matrix (queries, training points); got shape {K_query.shape}")
    y_train = as_labels(y_train, K_query.shape[1], "y_train")
    return K_query @ (_alpha(alpha, len(y_train)) * y_train) + float(b)


def predict(K_query, y_train, alpha, b) -> np.ndarray:
    """Labels ``sign f(x)`` in {-1, +1}, a score of exactly 0 predicting +1."""
    return np.where(decision_function(K_query, y_train, alpha, b) >= 0, 1, -1)


def weights(X, y, alpha) -> np.ndarray:
    """``w = sum_i alpha_i y_i x_i``: the primal weights of a linear-kernel solution."""
    X = as_matrix(X)
    y = as_labels(y, len(X))
    return (_alpha(alpha, len(y)) * y) @ X


def kkt_report(alpha, K, y, b, C, tol=1e-3) -> dict:
    """How many points break each optimality condition at ``(alpha, b)``, with ``m_i = y_i f(x_i)``:
    ``alpha_i = 0`` needs ``m_i >= 1``; ``0 < alpha_i < C`` needs ``m_i = 1``; ``alpha_i = C`` needs
    ``m_i <= 1``; and ``sum_i alpha_i y_i = 0``, ``0 <= alpha_i <= C``. Tolerances: ``tol`` on the margins,
    and a relative ``1e-8 C`` for ``alpha`` at its bounds."""
    K, y = as_gram_and_labels(K, y)
    alpha = _alpha(alpha, len(y))
    C = _cost(C)
    m = y * decision_function(K, y, alpha, b)
    edge = 1e-8 * (C if np.isfinite(C) else max(1.0, alpha.max()))
    zero, top = alpha <= edge, alpha >= C - edge
    free = ~zero & ~top
    return {
        "alpha = 0 inside the margin": int(np.sum(zero & (m < 1 - tol))),
        "0 < alpha < C off the margin": int(np.sum(free & (np.abs(m - 1) > tol))),
        "alpha = C outside the margin": int(np.sum(top & (m > 1 + tol))),
        "alpha out of [0, C]": int(np.sum((alpha < -edge) | (alpha > C + edge))),
        "sum alpha y != 0": int(abs(alpha @ y) > 1e-8 * max(1.0, alpha.sum())),
    }


# --------------------------------------------------------------------------- the primal by stochastic subgradients


def fit_svm_through_origin(X, y, C=1.0, tol=1e-9, max_iter=None) -> np.ndarray:
    """The linear SVM without a bias: ``w`` minimising ``1/2 ||w||^2 + C sum_i hinge(y_i w . x_i)``.

    Lecture 07 (section 7): Pegasos penalises its bias, so it solves this problem on the points
    ``(1, x_i)``. :func:`fit_svm` always fits a bias; on the ``2 n`` points ``y_i x_i`` (label +1) and
    ``-y_i x_i`` (label -1) with cost ``C / 2`` its objective is
    ``1/2 ||w||^2 + C/2 sum_i [hinge(y_i w . x_i + b) + hinge(y_i w . x_i - b)]``, convex and unchanged by
    ``b -> -b``, so ``b = 0`` is optimal there and the two problems share their (unique) ``w``.
    ``C = np.inf`` is the hard margin through the origin (the data must be separable through it).

    >>> fit_svm_through_origin([[2.0], [-1.0]], [1, -1], C=10.0).round(6).tolist()
    [1.0]
    """
    X = as_matrix(X)
    y = as_labels(y, len(X))
    C = _cost(C)
    S = X * y[:, None]
    S = np.vstack([S, -S])
    s = np.r_[np.ones(len(y), int), -np.ones(len(y), int)]
    fit = fit_svm(S @ S.T, s, C=C / 2, tol=tol, max_iter=max_iter)
    return weights(S, s, fit.alpha)


def pegasos_objective(w, b, X, y, lam) -> float:
    """``lam/2 (||w||^2 + b^2) + (1/n) sum_i hinge(y_i (w . x_i + b))``: Pegasos's objective, the bias
    penalised like a weight (pass ``b = 0`` for a classifier through the origin).

    Lecture 07 (section 7). With ``lam = 1 / (C n)`` it is ``lam`` times the soft-margin objective on the
    points ``(1, x_i)`` without a bias, ``1/2 ||(b, w)||^2 + C sum_i hinge``.
    """
    X = as_matrix(X)
    y = as_labels(y, len(X))
    w = np.asarray(w, dtype=float)
    if w.shape != (X.shape[1],):
        raise ValueError(f"w has shape {w.shape}; expected ({X.shape[1]},), one weight per feature")
    lam = positive_float(lam, "lam")
    b = float(b)
    return float(0.5 * lam * (w @ w + b * b) + hinge_loss(y * (X @ w + b)).mean())


def pegasos_step(w, z, y, lam, t, project=True) -> np.ndarray:
    """One step of Pegasos: ``w_{t+1}`` from ``w_t`` and the example ``(z, y)`` drawn at step ``t``.

    Lecture 07 (section 7). With the margin ``m = y w . z``: ``w - tau g`` for the subgradient
    ``g = lam w - [m < 1] y z`` and the step ``tau = 1 / (lam t)``, that is
    ``(1 - 1/t) w + [m < 1] y z / (lam t)`` (a margin of exactly 1 takes the subgradient without the hinge);
    then, with ``project``, the projection onto the ball ``||w|| <= 1 / sqrt(lam)``. ``z`` is the point as
    Pegasos sees it, ``(1, x)`` when the bias is learnt. A new array is returned; ``w`` is left alone.

    >>> pegasos_step(np.zeros(2), np.array([1.0, 2.0]), -1, lam=0.5, t=1).round(4).tolist()   # (-2, -4), shortened
    [-0.6325, -1.2649]
    """
    w = as_vector(w, "w")
    z = as_vector(z, "z", w.shape[0])
    if isinstance(y, bool) or np.ndim(y) != 0 or y not in (-1, 1):
        raise ValueError(f"y must be the label -1 or +1 of the example; got {y!r}")
    lam = positive_float(lam, "lam")
    t = positive_int(t, "t")
    active = y * (w @ z) < 1.0
    new = (1.0 - 1.0 / t) * w + (y / (lam * t)) * z * active
    if project:
        norm2 = new @ new
        if norm2 > 1.0 / lam:
            new *= 1.0 / np.sqrt(lam * norm2)
    return new


@dataclass(frozen=True)
class PegasosResult:
    """What :func:`pegasos` returns: the average iterate ``(w, b)`` (the mean of ``w_1, ..., w_T``, the
    points at which the ``T`` subgradients were taken), the last iterate ``(w_last, b_last)`` (``w_{T+1}``),
    ``lam``, the index of the example drawn at each step (``order``, shape (T,)), and, when asked for,
    ``path`` of shape (T + 1, d + 1): row ``t - 1`` is the iterate ``w_t`` as ``(b, w)``, the bias first
    (0 throughout without a bias)."""

    w: np.ndarray
    b: float
    w_last: np.ndarray
    b_last: float
    lam: float
    order: np.ndarray
    path: np.ndarray | None


def pegasos(X, y, lam, n_iter, rng, bias=True, project=True, steps=None, path=False) -> PegasosResult:
    """Pegasos (Shalev-Shwartz, Singer, Srebro and Cotter, 2011): stochastic subgradient descent on
    ``F(w) = lam/2 ||w||^2 + (1/n) sum_i hinge(y_i w . z_i)``, with ``z_i = (1, x_i)`` when ``bias`` (the
    bias is then penalised like a weight) and ``z_i = x_i`` otherwise.

    Lecture 07 (section 7). Starting from ``w_1 = 0``, step ``t = 1, ..., T`` draws ``i`` uniformly (with
    ``rng``), takes the subgradient ``g_t = lam w_t - [y_i w_t . z_i < 1] y_i z_i`` of
    ``F_i(w) = lam/2 ||w||^2 + hinge(y_i w . z_i)`` and steps ``w_{t+1} = w_t - tau_t g_t`` with
    ``tau_t = 1 / (lam t)`` (as :func:`pegasos_step`); with ``project``, ``w_{t+1}`` is then projected onto the
    ball ``||w|| <= 1 / sqrt(lam)``, which holds the minimiser. ``steps`` (shape (T,), positive) replaces the
    steps ``tau_t`` (for comparison: a constant step, or ``1/t``). The result holds the average iterate
    (the one the guarantee is about) and the last. ``lam = 1 / (C n)`` makes ``F`` equal to ``lam`` times the
    lecture's soft-margin objective with the bias penalised (see :func:`pegasos_objective`).

    >>> X, y = [[1.0], [-1.0]], [1, -1]                      # F is smallest at w = 1, b = 0: F = 0.25
    >>> r = pegasos(X, y, lam=0.5, n_iter=1000, rng=np.random.default_rng(0))
    >>> round(pegasos_objective(r.w, r.b, X, y, 0.5), 2), round(float(r.w_last[0]), 2), abs(r.b_last) < 0.01
    (0.25, 1.0, True)
    """
    X = as_matrix(X)
    y = as_labels(y, len(X))
    lam = positive_float(lam, "lam")
    T = positive_int(n_iter, "n_iter")
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator (np.random.default_rng(seed)); got {type(rng).__name__}")
    if steps is None:
        steps = 1.0 / (lam * np.arange(1, T + 1))
    else:
        steps = np.asarray(steps, dtype=float)
        if steps.shape != (T,):
            raise ValueError(f"steps has shape {steps.shape}; expected ({T},), one step size per iteration")
        if not np.all(np.isfinite(steps)) or not np.all(steps > 0):
            raise ValueError("steps must be finite and > 0")
    n, d = X.shape
    Z = np.column_stack([np.ones(n), X]) if bias else np.column_stack([np.zeros(n), X])
    rows = list(Z * y[:, None])                   # y_i z_i, one array per example (indexing a list is cheaper)
    order = rng.integers(0, n, T)
    radius2 = 1.0 / lam
    w = np.zeros(d + 1)
    total = np.zeros(d + 1)
    W = np.empty((T + 1, d + 1)) if path else None
    # a Python loop, the algorithm being sequential: Python numbers for the scalars, in-place updates for w
    for t, (i, tau, shrink) in enumerate(zip(order.tolist(), steps.tolist(), (1.0 - lam * steps).tolist())):
        if path:
            W[t] = w
        else:
            total += w
        yz = rows[i]
        if w.dot(yz) < 1.0:                      # the margin y_i w . z_i, before the step
            w *= shrink
            w += tau * yz
        else:
            w *= shrink
        if project:
            norm2 = w.dot(w)
            if norm2 > radius2:
                w *= (radius2 / norm2) ** 0.5
    if path:
        W[T] = w
        total = W[:T].sum(axis=0)
    mean = total / T
    return PegasosResult(mean[1:].copy(), float(mean[0]), w[1:].copy(), float(w[0]), lam, order, W)
