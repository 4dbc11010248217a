"""Lecture 01: risk and empirical risk, empirical risk minimisation, and the decompositions of error.

Conventions of the lecture:

* a *predictor* is a function ``f`` that maps an array of inputs (one per row, or one per entry
  for inputs on a line) to an array of predictions, one per input;
* a *loss* ``loss(y_hat, y)`` is vectorised and returns one number per prediction (see
  :mod:`mlcourse.losses`); the **risk** of ``f`` is ``R(f) = E loss(f(X), Y)`` over the
  distribution of ``(X, Y)``, its **empirical risk** on a sample is the mean loss on it;
* for classification on ``[0, 1]`` the distribution is known exactly: ``X`` is uniform and
  ``P(Y = +1 | X = x)`` is a step function (:class:`StepDistribution`), so every risk below is an
  exact integral, not an estimate. The finite class is that of *thresholds*
  ``h_theta(x) = +1 if x >= theta else -1``;
* for regression, ``X`` is uniform on ``[low, high]`` (``[-1, 1]`` by default) and
  ``Y = f*(X) + noise``; expectations over ``X`` are computed by Gauss-Legendre quadrature,
  exact for polynomials of degree below ``2 * n_nodes``;
* polynomial fits are least squares on the design ``x`` (fixed inputs, random noise: the
  *fixed design* in which bias and variance have closed forms).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np

from ._checks import _as_float_array, positive_float, positive_int
from .data import as_rng, step_classification

# --------------------------------------------------------------------------- risk, empirical risk


def empirical_risk(predict: Callable, X, y, loss: Callable) -> float:
    """The mean loss ``(1/n) sum_i loss(f(x_i), y_i)`` of the predictor ``predict`` on a sample.

    ``predict`` is called once, on all of ``X``.
    """
    y = np.asarray(y)
    predictions = np.asarray(predict(X))
    if predictions.shape != y.shape:
        raise ValueError(f"predict(X) has shape {predictions.shape}, expected {y.shape} (one prediction per label)")
    return float(np.mean(loss(predictions, y)))


def deviation_probability(risk_value, n: int, delta) -> np.ndarray:
    """The exact chance that an empirical 0-1 risk strays more than ``delta`` from the risk.

    For a classifier fixed before the sample, with risk ``R = risk_value``, the number of mistakes on
    ``n`` independent points is Binomial(n, R), so
    ``P(|R_hat - R| > delta) = sum over k with |k/n - R| > delta of C(n, k) R^k (1 - R)^(n - k)``.
    ``risk_value`` and ``delta`` may be arrays of the same shape (one problem per entry); ``n`` is one
    sample size or an array of that shape too. This is what Hoeffding's inequality bounds by
    ``2 exp(-2 n delta^2)``.
    """
    R = _as_float_array(risk_value, "risk_value")
    delta = _as_float_array(delta, "delta")
    sizes = np.asarray(n)
    if not np.issubdtype(sizes.dtype, np.integer) or np.any(sizes < 1):
        raise ValueError(f"n must hold positive integers; got {n!r}")
    if np.any((R < 0) | (R > 1)):
        raise ValueError("risk_value must lie in [0, 1]")
    R, delta, sizes = np.broadcast_arrays(R, delta, sizes)
    out = np.empty(R.shape)
    for index in np.ndindex(R.shape):
        m, r = int(sizes[index]), float(R[index])
        k = np.arange(m + 1)
        log_choose = (math.lgamma(m + 1) - np.array([math.lgamma(j + 1) + math.lgamma(m - j + 1) for j in k]))
        with np.errstate(divide="ignore", invalid="ignore"):  # 0 * log 0 = 0 where R is 0 or 1
            log_pmf = (log_choose + np.where(k > 0, k * np.log(r), 0.0)
                       + np.where(k < m, (m - k) * np.log1p(-r), 0.0))
        out[index] = np.sum(np.exp(log_pmf)[np.abs(k / m - r) > delta[index]])
    return out


def memoriser(X, y, default: float = 0.0) -> Callable:
    """The predictor that has learnt its sample by heart and nothing else.

    It returns ``y_i`` at an input equal to a training input ``x_i`` (the last one when an input
    occurs twice) and ``default`` everywhere else. Its empirical risk on its own sample is zero
    under any loss that is zero on correct predictions.

    >>> f = memoriser([0.25, 0.5], [1.0, 1.0])
    >>> f(np.array([0.5, 0.3]))
    array([1., 0.])
    """
    X_train = _as_float_array(X, "X")
    y_train = _as_float_array(y, "y")
    if X_train.ndim not in (1, 2) or y_train.shape != X_train.shape[:1]:
        raise ValueError(f"X must have shape (n,) or (n, d) and y shape (n,); "
                         f"got {X_train.shape} and {y_train.shape}")
    rows_train = X_train.reshape(len(X_train), -1) + 0.0  # + 0.0 turns -0.0 into 0.0
    keys_train = _row_keys(rows_train)
    order = np.argsort(keys_train, kind="stable")  # equal inputs keep their order: the last one is found
    keys_sorted, labels_sorted = keys_train[order], y_train[order]

    def predict(X_new) -> np.ndarray:
        X_new = _as_float_array(X_new, "X")
        rows_new = X_new.reshape(len(X_new), -1) + 0.0
        if rows_new.shape[1] != rows_train.shape[1]:
            raise ValueError(f"X has {rows_new.shape[1]} features per input; "
                             f"the memoriser learnt {rows_train.shape[1]}")
        keys_new = _row_keys(rows_new)
        where = np.searchsorted(keys_sorted, keys_new, side="right") - 1  # the last training input <= each key
        found = (where >= 0) & (keys_sorted[np.maximum(where, 0)] == keys_new)
        return np.where(found, labels_sorted[np.maximum(where, 0)], default)

    return predict


def _row_keys(rows: np.ndarray) -> np.ndarray:
    """One opaque key per row, equal exactly when the rows are equal bit for bit (sortable, searchable)."""
    rows = np.ascontiguousarray(rows, dtype=float)
    return rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()


# --------------------------------------------------------------------------- a known classification problem


@dataclass(frozen=True)
class StepDistribution:
    """``X`` uniform on ``[0, 1]``; ``P(Y = +1 | X = x) = eta[k]`` for ``breaks[k] <= x < breaks[k + 1]``.

    Make one with :func:`step_distribution`, which checks the arguments.
    """

    breaks: np.ndarray
    eta: np.ndarray


def step_distribution(breaks, eta) -> StepDistribution:
    """A :class:`StepDistribution`; ``breaks`` run from 0 to 1 increasing, ``eta`` has one value in
    ``[0, 1]`` per piece.

    >>> step_distribution([0, 0.5, 1], [0.2, 0.9]).eta
    array([0.2, 0.9])
    """
    breaks, eta = _as_float_array(breaks, "breaks").copy(), _as_float_array(eta, "eta").copy()
    if breaks.ndim != 1 or len(breaks) < 2 or breaks[0] != 0 or breaks[-1] != 1 or np.any(np.diff(breaks) <= 0):
        raise ValueError(f"breaks must increase strictly from 0 to 1; got {breaks.tolist()}")
    if eta.shape != (len(breaks) - 1,):
        raise ValueError(f"eta must have one value per piece, shape ({len(breaks) - 1},); got shape {eta.shape}")
    if np.any((eta < 0) | (eta > 1)):
        raise ValueError(f"eta holds probabilities, in [0, 1]; got {eta.tolist()}")
    breaks.flags.writeable = eta.flags.writeable = False
    return StepDistribution(breaks, eta)


def conditional_probability(dist: StepDistribution, x) -> np.ndarray:
    """``eta(x) = P(Y = +1 | X = x)``, elementwise (``eta(1)`` is the value of the last piece)."""
    x = _as_float_array(x, "x")
    piece = np.clip(np.searchsorted(dist.breaks, x, side="right") - 1, 0, len(dist.eta) - 1)
    return dist.eta[piece]


def sample(dist: StepDistribution, n: int, rng):
    """``n`` independent pairs ``(x_i, y_i)`` from ``dist``: arrays ``x`` (n,) and ``y`` (n,) in {-1, +1}."""
    return step_classification(n, rng, dist.breaks, dist.eta)


def eta_integral(dist: StepDistribution, a, b) -> np.ndarray:
    """``int_a^b eta(x) dx`` for ``0 <= a, b <= 1`` (elementwise; negative when ``b < a``)."""
    a, b = _as_float_array(a, "a"), _as_float_array(b, "b")
    if np.any((a < 0) | (a > 1) | (b < 0) | (b > 1)):
        raise ValueError("a and b must lie in [0, 1], where X lives")
    cumulative = np.r_[0.0, np.cumsum(dist.eta * np.diff(dist.breaks))]  # the integral is piecewise linear
    return np.interp(b, dist.breaks, cumulative) - np.interp(a, dist.breaks, cumulative)


def threshold_predict(theta, x) -> np.ndarray:
    """``h_theta(x)``: ``+1`` where ``x >= theta``, else ``-1``."""
    return np.where(_as_float_array(x, "x") >= float(theta), 1, -1)


def threshold_risk(dist: StepDistribution, theta) -> np.ndarray:
    """The exact 0-1 risk of ``h_theta``, elementwise in ``theta`` (values outside [0, 1] are clipped).

    Left of ``theta`` it says -1 and is wrong with probability ``eta``; right of it, it says +1 and
    is wrong with probability ``1 - eta``:
    ``R(h_theta) = int_0^theta eta + int_theta^1 (1 - eta)``.
    """
    theta = np.clip(_as_float_array(theta, "theta"), 0.0, 1.0)
    left = eta_integral(dist, 0.0, theta)
    right = (1.0 - theta) - eta_integral(dist, theta, 1.0)
    return left + right


def bayes_classifier(dist: StepDistribution, x) -> np.ndarray:
    """The best classifier of all: ``+1`` where ``eta(x) >= 1/2``, else ``-1``."""
    return np.where(conditional_probability(dist, x) >= 0.5, 1, -1)


def bayes_risk(dist: StepDistribution) -> float:
    """The smallest 0-1 risk of any classifier: ``E min(eta(X), 1 - eta(X))``."""
    return float(np.sum(np.minimum(dist.eta, 1.0 - dist.eta) * np.diff(dist.breaks)))


def piecewise_risk(dist: StepDistribution, edges, labels) -> float:
    """The exact 0-1 risk of the classifier that says ``labels[j]`` on ``[edges[j], edges[j + 1])``.

    ``edges`` run from 0 to 1 increasing; ``labels`` has one entry in {-1, +1} per cell.
    """
    edges, labels = _as_float_array(edges, "edges"), np.asarray(labels)
    if edges.ndim != 1 or edges[0] != 0 or edges[-1] != 1 or np.any(np.diff(edges) <= 0):
        raise ValueError(f"edges must increase strictly from 0 to 1; got {edges.tolist()}")
    if labels.shape != (len(edges) - 1,) or not np.isin(labels, (-1, 1)).all():
        raise ValueError(f"labels must hold one label, -1 or +1, per cell: shape ({len(edges) - 1},)")
    mass_plus = eta_integral(dist, edges[:-1], edges[1:])  # P(Y = +1, X in cell)
    mass_minus = np.diff(edges) - mass_plus
    return float(np.sum(np.where(labels == 1, mass_minus, mass_plus)))


def piecewise_risks(dist: StepDistribution, edges, labels) -> np.ndarray:
    """:func:`piecewise_risk` of many classifiers at once: one per row.

    ``edges`` has shape (s, c + 1), each row from 0 to 1 non-decreasing (empty cells are allowed,
    so that classifiers with fewer cells can be padded), and ``labels`` shape (s, c) in {-1, +1}.
    Returns the exact 0-1 risks, shape (s,).
    """
    edges, labels = _as_float_array(edges, "edges"), np.asarray(labels)
    if edges.ndim != 2 or edges.shape[1] < 2 or labels.shape != (edges.shape[0], edges.shape[1] - 1):
        raise ValueError(f"edges must have shape (s, c + 1) and labels shape (s, c); got {edges.shape} and {labels.shape}")
    if np.any(edges[:, 0] != 0) or np.any(edges[:, -1] != 1) or np.any(np.diff(edges, axis=1) < 0):
        raise ValueError("each row of edges must run from 0 to 1 without decreasing")
    if not np.isin(labels, (-1, 1)).all():
        raise ValueError("labels must hold -1 and +1 only")
    mass_plus = eta_integral(dist, edges[:, :-1], edges[:, 1:])  # P(Y = +1, X in cell)
    mass_minus = np.diff(edges, axis=1) - mass_plus
    return np.sum(np.where(labels == 1, mass_minus, mass_plus), axis=1)


# --------------------------------------------------------------------------- ERM over thresholds


@dataclass(frozen=True)
class ERMResult:
    """What :func:`erm_threshold` returns.

    Attributes
    ----------
    theta : float
        The threshold chosen: the first of ``thresholds`` with the smallest empirical risk.
    index : int
        Its position in ``thresholds``.
    empirical_risk : float
        Its empirical 0-1 risk.
    empirical_risks : ndarray of shape (k,)
        The empirical risk of every threshold.
    """

    theta: float
    index: int
    empirical_risk: float
    empirical_risks: np.ndarray


def threshold_empirical_risks(x, y, thresholds) -> np.ndarray:
    """Empirical 0-1 risk of ``h_theta`` on ``(x, y)`` for every ``theta`` in ``thresholds``.

    ``x`` and ``y`` of shape (n,) give risks of shape (k,); of shape (s, n), ``s`` samples at once,
    risks of shape (s, k).
    """
    x, thresholds = _as_float_array(x, "x"), _as_float_array(thresholds, "thresholds")
    y = np.asarray(y)
    if x.ndim not in (1, 2) or y.shape != x.shape or thresholds.ndim != 1:
        raise ValueError(f"x and y must have the same shape, (n,) or (s, n), and thresholds shape (k,); "
                         f"got {x.shape}, {y.shape}, {thresholds.shape}")
    if not np.isin(y, (-1, 1)).all():
        raise ValueError("y must hold labels -1 and +1 only")
    # Counting instead of comparing every threshold with every point (O(n + k) per sample, not O(n k)).
    # With the thresholds sorted, t_0 <= ... <= t_{k-1}, let b_i be the number of them <= x_i: h_{t_j}
    # says +1 at x_i exactly when j < b_i. So t_j errs on the +1 points with b_i <= j and on the -1
    # points with b_i > j: cumulative counts over b.
    order = np.argsort(thresholds, kind="stable")
    k, n = len(thresholds), x.shape[-1]
    b = np.searchsorted(thresholds[order], x, side="right")  # (..., n), values 0..k
    rows = x.reshape(-1, n).shape[0]
    cell = (np.arange(rows)[:, None] * (k + 1) + b.reshape(rows, n)).ravel()
    positive = (y.reshape(rows, n) == 1).ravel()
    pos = np.bincount(cell[positive], minlength=rows * (k + 1)).reshape(rows, k + 1)
    neg = np.bincount(cell[~positive], minlength=rows * (k + 1)).reshape(rows, k + 1)
    wrong_sorted = np.cumsum(pos, axis=1)[:, :k] + (neg.sum(axis=1, keepdims=True) - np.cumsum(neg, axis=1)[:, :k])
    wrong = np.empty_like(wrong_sorted)
    wrong[:, order] = wrong_sorted
    return (wrong / n).reshape(*x.shape[:-1], k)


def erm_threshold(x, y, thresholds) -> ERMResult:
    """Empirical risk minimisation over the finite class ``{h_theta : theta in thresholds}``.

    Ties go to the first minimiser in the order of ``thresholds``.
    """
    if np.ndim(x) != 1:
        raise ValueError(f"x must have shape (n,): one sample; got shape {np.shape(x)}")
    risks = threshold_empirical_risks(x, y, thresholds)
    k = int(np.argmin(risks))
    return ERMResult(float(np.asarray(thresholds, dtype=float)[k]), k, float(risks[k]), risks)


@dataclass(frozen=True)
class ExcessRisk:
    """The risks that split the excess risk of a chosen classifier ``h_hat`` in a class ``H``.

    ``excess = risk(h_hat) - bayes = estimation + approximation`` with
    ``estimation = risk(h_hat) - best_in_class`` and ``approximation = best_in_class - bayes``.
    """

    bayes: float
    best_in_class: float
    chosen: float

    @property
    def approximation(self) -> float:
        return self.best_in_class - self.bayes

    @property
    def estimation(self) -> float:
        return self.chosen - self.best_in_class

    @property
    def excess(self) -> float:
        return self.chosen - self.bayes


def excess_risk(dist: StepDistribution, thresholds, theta_hat) -> ExcessRisk:
    """The exact :class:`ExcessRisk` of ``h_theta_hat`` in the class of ``thresholds`` under ``dist``."""
    best = float(np.min(threshold_risk(dist, thresholds)))
    return ExcessRisk(bayes_risk(dist), best, float(threshold_risk(dist, theta_hat)))


# --------------------------------------------------------------------------- squared loss, regression


@lru_cache(maxsize=8)
def _gauss_legendre(n_nodes: int):
    nodes, weights = np.polynomial.legendre.leggauss(n_nodes)
    return nodes, weights / 2.0  # weights of the uniform distribution on [-1, 1]


def uniform_nodes(low: float = -1.0, high: float = 1.0, n_nodes: int = 64):
    """Nodes and weights (summing to 1) with ``E g(X) = sum_k weights[k] g(nodes[k])`` for ``X``
    uniform on ``[low, high]``: Gauss-Legendre, exact for polynomials of degree below ``2 n_nodes``."""
    n_nodes = positive_int(n_nodes, "n_nodes")
    low, high = float(low), float(high)
    if not high > low:
        raise ValueError(f"high must be larger than low; got low={low}, high={high}")
    nodes, weights = _gauss_legendre(n_nodes)
    return low + (nodes + 1.0) * (high - low) / 2.0, weights.copy()


def uniform_expectation(g: Callable, low: float = -1.0, high: float = 1.0, n_nodes: int = 64) -> np.ndarray:
    """``E g(X)`` for ``X`` uniform on ``[low, high]``, by :func:`uniform_nodes`.

    ``g`` maps an array of inputs (m,) to values (m,) or (..., m); the expectation is over the last axis.
    """
    nodes, weights = uniform_nodes(low, high, n_nodes)
    return np.asarray(g(nodes)) @ weights


def squared_risk(predict: Callable, target: Callable, noise: float, low: float = -1.0, high: float = 1.0) -> float:
    """The risk ``E (Y - f(X))^2`` when ``Y = target(X) + noise * Z`` with ``E[Z | X] = 0``, ``Var Z = 1``.

    By the decomposition of lecture 01 it is ``noise^2 + E (target(X) - f(X))^2``: the noise plus the
    squared distance of ``f`` to the regression function.
    """
    noise = float(noise)
    if noise < 0:
        raise ValueError(f"noise is a standard deviation, >= 0; got {noise}")
    return float(noise**2 + uniform_expectation(lambda x: (target(x) - predict(x)) ** 2, low, high))


def polynomial_features(x, degree: int) -> np.ndarray:
    """The Vandermonde matrix ``[1, x, x^2, ..., x^degree]``, shape (n, degree + 1)."""
    x = _as_float_array(x, "x")
    if x.ndim != 1:
        raise ValueError(f"x must be a 1-d array of inputs; got shape {x.shape}")
    degree = _degree(degree)
    return x[:, None] ** np.arange(degree + 1)


def fit_polynomial(x, y, degree: int) -> np.ndarray:
    """Least-squares polynomial of degree ``degree``: coefficients, constant term first.

    ``y`` of shape (n,) gives coefficients (degree + 1,); ``y`` of shape (k, n) fits k data sets that
    share the inputs ``x`` and gives (k, degree + 1). With fewer distinct inputs than coefficients the
    minimum-norm interpolating polynomial is returned (``numpy.linalg.lstsq``).
    """
    V = polynomial_features(x, degree)
    y = _as_float_array(y, "y")
    if y.shape[-1:] != (V.shape[0],) or y.ndim > 2:
        raise ValueError(f"y must have shape ({V.shape[0]},) or (k, {V.shape[0]}) to match x; got {y.shape}")
    return np.linalg.lstsq(V, y.T, rcond=None)[0].T


def predict_polynomial(coef, x) -> np.ndarray:
    """Values of the polynomial(s) ``coef`` (constant first; shape (p,) or (k, p)) at ``x`` (m,)."""
    coef = _as_float_array(coef, "coef")
    if coef.ndim not in (1, 2):
        raise ValueError(f"coef must have shape (p,) or (k, p); got {coef.shape}")
    return coef @ polynomial_features(x, coef.shape[-1] - 1).T


@dataclass(frozen=True)
class BiasVariance:
    """The three terms of the expected squared error of a learning method.

    ``expected_error = noise + bias2 + variance``, all averaged over the test input ``X``.
    """

    noise: float
    bias2: float
    variance: float

    @property
    def expected_error(self) -> float:
        return self.noise + self.bias2 + self.variance


def bias_variance_terms(predictions, truth, noise: float = 0.0, weights=None) -> BiasVariance:
    """Bias and variance of repeated fits, from their predictions.

    Parameters
    ----------
    predictions : array of shape (n_fits, m)
        ``predictions[s, j]`` is the prediction at test input ``x_j`` of the model fitted to the
        ``s``-th training set.
    truth : array of shape (m,)
        The regression function ``f*(x_j)``.
    noise : float
        The noise variance, copied into the result.
    weights : array of shape (m,), optional
        Weights of the test inputs (summing to 1) for an expectation over ``X``; equal by default.

    Returns
    -------
    BiasVariance
        ``bias2 = sum_j weights_j (mean_s predictions[s, j] - truth_j)^2`` and
        ``variance = sum_j weights_j mean_s (predictions[s, j] - mean_s predictions[s, j])^2``
        (the mean over fits divides by ``n_fits``).
    """
    P = _as_float_array(predictions, "predictions")
    truth = _as_float_array(truth, "truth")
    if P.ndim != 2 or truth.shape != (P.shape[1],):
        raise ValueError(f"predictions must have shape (n_fits, m) and truth shape (m,); "
                         f"got {P.shape}, {truth.shape}")
    w = np.full(P.shape[1], 1.0 / P.shape[1]) if weights is None else _as_float_array(weights, "weights")
    if w.shape != truth.shape:
        raise ValueError(f"weights must have shape {truth.shape}; got {w.shape}")
    mean = P.mean(axis=0)
    return BiasVariance(float(noise), float(w @ (mean - truth) ** 2), float(w @ P.var(axis=0)))


def _prediction_operator(degree, x_train, nodes):
    """The matrix ``A`` (m, n) with ``fit(y) evaluated at nodes = A @ y`` for least squares."""
    V = polynomial_features(x_train, degree)
    return polynomial_features(nodes, degree) @ np.linalg.pinv(V)


def polynomial_bias_variance(degree: int, x_train, target: Callable, noise: float,
                             low: float = -1.0, high: float = 1.0) -> BiasVariance:
    """Exact noise, bias^2 and variance of least-squares polynomials on the fixed design ``x_train``.

    The training labels are ``target(x_train) + noise * Z`` with independent standard ``Z``; the test
    input is uniform on ``[low, high]``. The fit is linear in the labels, ``fit(x) = a(x) . y``, so
    its mean is ``a(x) . target(x_train)`` and its variance ``noise^2 |a(x)|^2``.
    """
    noise = positive_float(noise, "noise")
    nodes, weights = uniform_nodes(low, high)
    A = _prediction_operator(degree, _as_float_array(x_train, "x_train"), nodes)
    mean_fit = A @ target(np.asarray(x_train, dtype=float))
    bias2 = weights @ (mean_fit - target(nodes)) ** 2
    variance = noise**2 * weights @ (A**2).sum(axis=1)
    return BiasVariance(noise**2, float(bias2), float(variance))


def expected_training_error(degree: int, x_train, target: Callable, noise: float) -> float:
    """Exact expected training mean squared error of the least-squares polynomial on ``x_train``.

    With ``H`` the projection onto the polynomials (the hat matrix) and ``f = target(x_train)``:
    ``E train = (|(I - H) f|^2 + noise^2 trace(I - H)) / n``.
    """
    noise = positive_float(noise, "noise")
    x_train = _as_float_array(x_train, "x_train")
    H = _prediction_operator(degree, x_train, x_train)
    residual = target(x_train) - H @ target(x_train)
    n = len(x_train)
    return float((residual @ residual + noise**2 * (n - np.trace(H))) / n)


def simulate_polynomial_fits(degree: int, x_train, target: Callable, noise: float, n_fits: int, rng):
    """Fit ``n_fits`` training sets that share the inputs ``x_train`` and differ in their noise.

    Returns the coefficients (n_fits, degree + 1) and the training labels (n_fits, n).
    """
    x_train = _as_float_array(x_train, "x_train")
    noise, n_fits, rng = positive_float(noise, "noise"), positive_int(n_fits, "n_fits"), as_rng(rng)
    Y = target(x_train) + noise * rng.standard_normal((n_fits, len(x_train)))
    return fit_polynomial(x_train, Y, degree), Y


def _degree(degree) -> int:
    if isinstance(degree, bool) or not isinstance(degree, (int, np.integer)) or degree < 0:
        raise ValueError(f"degree must be an integer >= 0; got {degree!r}")
    return int(degree)


# --------------------------------------------------------------------------- choosing the degree from data


def _degrees(degrees) -> np.ndarray:
    d = np.asarray(degrees)
    if d.ndim != 1 or d.size == 0 or d.dtype.kind not in "iu" or np.any(d < 0):
        raise ValueError(f"degrees must be a non-empty 1-d array of integers >= 0; got {degrees!r}")
    return d.astype(int)


def _legendre_columns(x: np.ndarray, degree: int) -> np.ndarray:
    """``[P_0(x), ..., P_degree(x)]`` along a new last axis (Legendre polynomials, by their recurrence
    ``k P_k = (2k - 1) x P_{k-1} - (k - 1) P_{k-2}``)."""
    columns = [np.ones_like(x), x]
    for k in range(2, degree + 1):
        columns.append(((2 * k - 1) * x * columns[-1] - (k - 1) * columns[-2]) / k)
    return np.stack(columns[: degree + 1], axis=-1)


def polynomial_fit_values(x_train, y_train, degrees, x_eval) -> np.ndarray:
    """Values at ``x_eval`` of the least-squares polynomial of each degree fitted to each sample.

    Parameters
    ----------
    x_train : array of shape (..., n) or (n,)
        The training inputs: one row per sample (a random design), or one row shared by all
        samples (a fixed design).
    y_train : array of shape (..., n)
        The training labels, one row per sample.
    degrees : array of int, shape (k,)
        The degrees to fit; every one needs at least ``degree + 1`` training points (distinct inputs).
    x_eval : array of shape (..., m) or (m,)
        Where to evaluate the fits: one set per sample, or one set shared by all samples.

    Returns
    -------
    ndarray of shape (..., k, m)
        ``values[..., j, :]`` is the fit of degree ``degrees[j]`` at ``x_eval``.

    Notes
    -----
    All degrees share one QR factorisation ``V = QR`` of the design matrix in the Legendre basis
    (well conditioned on [-1, 1]; Legendre polynomials of degree ``<= q`` span the same space as
    ``1, x, ..., x^q``, so the fits are those of :func:`fit_polynomial`). The fit on the first
    ``q + 1`` columns has coefficients ``R_q^{-1} (Q^T y)_q`` (``R_q`` the leading block of ``R``), and
    since ``R`` is upper triangular ``R_q^{-1}`` is the leading block of ``R^{-1}``: with
    ``G = W R^{-1}`` (``W`` the Legendre matrix of ``x_eval``), the fit of degree ``q`` at ``x_eval``
    is ``sum_{j <= q} G_j (Q^T y)_j``, one matrix product for all degrees.
    """
    degrees = _degrees(degrees)
    x_train, y_train = _as_float_array(x_train, "x_train"), _as_float_array(y_train, "y_train")
    if y_train.ndim < 1 or x_train.shape not in (y_train.shape, y_train.shape[-1:]):
        raise ValueError(f"x_train must have the shape of y_train, {y_train.shape}, or its last axis, "
                         f"{y_train.shape[-1:]}; got {x_train.shape}")
    top = int(degrees.max())
    if y_train.shape[-1] < top + 1:
        raise ValueError(f"a polynomial of degree {top} needs at least {top + 1} training points; "
                         f"got {y_train.shape[-1]}")
    x_eval = _as_float_array(x_eval, "x_eval")
    if x_eval.ndim < 1 or (x_eval.ndim > 1 and x_eval.shape[:-1] != y_train.shape[:-1]):
        raise ValueError(f"x_eval must have shape (m,) or (..., m) with the samples of y_train, "
                         f"{y_train.shape[:-1]}; got {x_eval.shape}")
    Q, R = np.linalg.qr(_legendre_columns(x_train, top))                  # (.., n, P), (.., P, P)
    R_inv = np.linalg.inv(R)
    b = (y_train[..., None, :] @ Q)[..., 0, :]                             # Q^T y, (..., P)
    G = _legendre_columns(x_eval, top) @ R_inv                                    # (..., m, P)
    upto = np.arange(top + 1)[:, None] <= degrees                          # (P, k): column j keeps 0..degrees[j]
    values = G @ (b[..., :, None] * upto)                                  # (..., m, k)
    return np.swapaxes(values, -1, -2)


def polynomial_errors(x_train, y_train, degrees, x_eval, y_eval, weights=None) -> np.ndarray:
    """Squared error on ``(x_eval, y_eval)`` of the least-squares polynomial of each degree fitted to
    each sample ``(x_train, y_train)``.

    Shapes as in :func:`polynomial_fit_values`, with ``y_eval`` of shape (..., m) or (m,). ``weights``
    (m,) turns the mean over the evaluation points into a weighted sum (an expectation by quadrature,
    see :func:`uniform_nodes`). Returns an array of shape (..., k): one error per sample and degree.
    """
    values = polynomial_fit_values(x_train, y_train, degrees, x_eval)
    y_eval = _as_float_array(y_eval, "y_eval")
    if y_eval.shape[-1:] != values.shape[-1:] or (y_eval.ndim > 1 and y_eval.shape[:-1] != values.shape[:-2]):
        raise ValueError(f"y_eval must have shape (m,) or (..., m) matching x_eval and the samples; got {y_eval.shape}")
    squared = (values - y_eval[..., None, :]) ** 2
    if weights is None:
        return squared.mean(axis=-1)
    weights = _as_float_array(weights, "weights")
    if weights.shape != values.shape[-1:]:
        raise ValueError(f"weights must have shape {values.shape[-1:]}; got {weights.shape}")
    return squared @ weights


def polynomial_fit_risks(x_train, y_train, degrees, target: Callable, noise: float,
                         low: float = -1.0, high: float = 1.0) -> np.ndarray:
    """Exact risk ``E (Y - fit(X))^2`` of the least-squares fit of each degree to each sample.

    ``Y = target(X) + noise * Z`` with ``X`` uniform on ``[low, high]`` and ``E[Z | X] = 0``,
    ``Var Z = 1``, so the risk is ``noise^2 + E (target(X) - fit(X))^2`` (lecture 01, section 5),
    computed by quadrature. Shapes as in :func:`polynomial_errors`: (..., n) samples give (..., k).
    """
    noise = float(noise)
    if not np.isfinite(noise) or noise < 0:
        raise ValueError(f"noise is a standard deviation, >= 0; got {noise}")
    nodes, weights = uniform_nodes(low, high)
    return noise**2 + polynomial_errors(x_train, y_train, degrees, nodes, target(nodes), weights)


def fold_indices(n: int, n_folds: int) -> list:
    """The folds of V-fold cross-validation: ``n_folds`` consecutive blocks of ``0, ..., n - 1`` whose
    sizes differ by at most one (the larger first, as ``numpy.array_split`` and scikit-learn's
    ``KFold`` without shuffling cut them). For an i.i.d. sample consecutive blocks are random folds.

    >>> [f.tolist() for f in fold_indices(5, 2)]
    [[0, 1, 2], [3, 4]]
    """
    n, n_folds = positive_int(n, "n"), positive_int(n_folds, "n_folds")
    if not 2 <= n_folds <= n:
        raise ValueError(f"n_folds must be between 2 and n = {n}; got {n_folds}")
    return np.array_split(np.arange(n), n_folds)


def validation_errors(x, y, degrees, n_train: int) -> np.ndarray:
    """Hold-out validation: fit each degree on the first ``n_train`` points of each sample and return
    its mean squared error on the other ``n - n_train`` (the validation part).

    ``x``, ``y`` of shape (..., n) give errors of shape (..., k) for the ``k`` degrees. The points of
    an i.i.d. sample come in random order, so the first ``n_train`` are a random training part.
    """
    x = _as_float_array(x, "x")
    n_train = positive_int(n_train, "n_train")
    if x.ndim < 1 or not n_train < x.shape[-1]:
        raise ValueError(f"n_train must leave at least one point to validate on: 1 <= n_train < n = "
                         f"{x.shape[-1] if x.ndim else 0}; got {n_train}")
    y = _as_float_array(y, "y")
    return polynomial_errors(x[..., :n_train], y[..., :n_train], degrees, x[..., n_train:], y[..., n_train:])


def cross_validation_errors(x, y, degrees, n_folds: int) -> np.ndarray:
    """V-fold cross-validation error of least-squares polynomials of each degree.

    The sample is cut into ``n_folds`` folds (:func:`fold_indices`); each fold is predicted by the fit
    to the other folds, and the error is the mean over all ``n`` points of those squared errors,
    ``CV = (1/n) sum_v sum_{i in fold v} (y_i - fit_{-v}(x_i))^2``.

    ``x``, ``y`` of shape (..., n) give errors of shape (..., k) for the ``k`` degrees.
    """
    x, y = _as_float_array(x, "x"), _as_float_array(y, "y")
    if x.ndim < 1 or y.shape != x.shape:
        raise ValueError(f"x and y must have the same shape (..., n); got {x.shape} and {y.shape}")
    n = x.shape[-1]
    total = 0.0
    for fold in fold_indices(n, n_folds):
        keep = np.setdiff1d(np.arange(n), fold)
        total = total + len(fold) / n * polynomial_errors(x[..., keep], y[..., keep], degrees,
                                                          x[..., fold], y[..., fold])
    return total


def select_degree(errors, degrees) -> np.ndarray:
    """The degree with the smallest error, along the last axis of ``errors`` (shape (..., k)).

    Ties (which have probability 0 with continuous noise) go to the first in the order of
    ``degrees``: the smallest degree when they are sorted, the simplest model.
    """
    degrees = _degrees(degrees)
    errors = _as_float_array(errors, "errors")
    if errors.shape[-1:] != degrees.shape:
        raise ValueError(f"errors must have shape (..., {len(degrees)}), one per degree; got {errors.shape}")
    return degrees[np.argmin(errors, axis=-1)]
