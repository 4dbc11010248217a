"""Lecture 04: the Bayes-optimal classifier, its error, and naive Bayes with binary features.

Conventions of the lecture:

* a **discrete joint table** ``joint`` of shape (m, K) holds ``P(X = x, Y = y)`` for the inputs
  ``x = 0, ..., m - 1`` (rows) and the classes ``y = 0, ..., K - 1`` (columns): entries >= 0 that
  sum to 1. A classifier on it is an integer array ``f`` of shape (m,), ``f[x]`` in ``0, ..., K - 1``;
* labels are ``0, ..., K - 1`` (the course's coding for probabilistic models); ``y_pm = 2 y - 1``
  maps the classes 0 and 1 to the -1 and +1 of the margin-based lectures;
* the **Bayes classifier** is ``f*(x) = argmax_y P(Y = y | X = x) = argmax_y P(X = x, Y = y)``
  (``P(X = x)`` does not depend on ``y``). Ties go to the **largest** class, the course's rule
  (``K - 1 - argmax`` of the reversed scores); any tie-break is optimal;
* its error, the **Bayes error**, is ``1 - E[max_y P(Y = y | X)]``; on a table
  ``1 - sum_x max_y P(X = x, Y = y)``; for classes with densities
  ``1 - integral of max_k pi_k p_k(x) dx``;
* **Gaussian classes** are described by :class:`mlcourse.mle.GaussianClassModel` (priors, means,
  covariances): the same object lecture 03 fits by maximum likelihood, here with known parameters
  (build one with :func:`gaussian_classes`). Its Bayes classifier is
  :func:`mlcourse.mle.predict_gaussian_classes`;
* **unequal costs** (two classes): ``c01`` is the cost of predicting 1 when the truth is 0, ``c10``
  the cost of predicting 0 when the truth is 1. The rule of least expected cost predicts 1 where
  ``eta(x) >= c01 / (c01 + c10)`` (:func:`cost_threshold`, :func:`cost_sensitive_classifier`);
* **the reject option** (Chow's rule): abstaining (the label :data:`REJECT`) costs ``c_rej``, a
  mistake 1. The rule of least risk abstains where ``max_y P(Y = y | x) < 1 - c_rej`` and predicts
  the Bayes class elsewhere (:func:`chow_classifier`);
* **naive Bayes with binary features**: ``x`` in ``{0, 1}^d``, the features independent given the
  class, ``p[k, j] = P(x_j = 1 | Y = classes[k])``. Fitted by counting, with Laplace smoothing
  ``alpha``: ``p[k, j] = (N_kj + alpha) / (N_k + 2 alpha)`` and priors ``N_k / n``. With two classes
  its decision rule is linear: predict ``classes[1]`` iff ``u_0 + sum_j u_j x_j >= 0`` (a score of
  exactly 0 is a tie, which goes to the larger class) where

  ``u_0 = log(pi_1 / pi_0) + sum_j log((1 - p_1j) / (1 - p_0j))``,
  ``u_j = log(p_1j / p_0j) - log((1 - p_1j) / (1 - p_0j))``.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from . import mle
from ._special import logsumexp, ndtr, xlogy
from ._checks import (_as_float_array, argmax_ties_to_largest, as_matrix, as_vector, nonnegative_float,
                      positive_float, positive_int)

# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class QuadraticRule:
    """The two-class rule "predict ``classes[1]`` iff ``x^T A x + w . x + b >= 0``".

    For Gaussian classes the Bayes rule has this form with ``score(x) = log(pi_1 p_1(x)) -
    log(pi_0 p_0(x))``; ``A`` is zero (the boundary a hyperplane) when the two covariances are equal.
    A score of exactly 0 is a tie, and goes to the larger class ``classes[1]``.

    Attributes
    ----------
    A : ndarray of shape (d, d), symmetric
    w : ndarray of shape (d,)
    b : float
    classes : ndarray of shape (2,)
        The labels predicted for a score ``< 0`` and ``>= 0``.
    """

    A: np.ndarray
    w: np.ndarray
    b: float
    classes: np.ndarray

    @property
    def is_linear(self) -> bool:
        """Whether ``A`` is zero: the boundary ``{score = 0}`` is a hyperplane."""
        return bool(np.all(self.A == 0))

    def score(self, X) -> np.ndarray:
        """``x^T A x + w . x + b`` for every row of ``X`` (shape (n, d)); shape (n,)."""
        X = as_matrix(X, "X")
        if X.shape[1] != self.w.shape[0]:
            raise ValueError(f"X has {X.shape[1]} features per row; the rule has {self.w.shape[0]}")
        return np.einsum("ij,jk,ik->i", X, self.A, X) + X @ self.w + self.b

    def predict(self, X) -> np.ndarray:
        """``classes[1]`` where the score is >= 0 (ties to the larger class), ``classes[0]``
        elsewhere; shape (n,)."""
        return np.where(self.score(X) >= 0, self.classes[1], self.classes[0])


@dataclass(frozen=True)
class NaiveBayesModel:
    """Naive Bayes with binary features (see :func:`fit_naive_bayes`).

    Attributes
    ----------
    classes : ndarray of shape (K,)
        The labels, sorted increasingly.
    priors : ndarray of shape (K,)
        ``P(Y = classes[k])``.
    p : ndarray of shape (K, d)
        ``p[k, j] = P(x_j = 1 | Y = classes[k])``.
    alpha : float
        The Laplace smoothing used in the fit (0 = the plain MLE; nan when built from parameters).
    """

    classes: np.ndarray
    priors: np.ndarray
    p: np.ndarray
    alpha: float = math.nan


# --------------------------------------------------------------------------- discrete tables


def check_joint(joint, name: str = "joint") -> np.ndarray:
    """Return ``joint`` as a float array (m, K) of probabilities summing to 1, or raise naming it."""
    joint = _as_float_array(joint, name)
    if joint.ndim != 2 or joint.shape[0] == 0 or joint.shape[1] < 2:
        raise ValueError(f"{name} must be a table of shape (m, K) with m >= 1 inputs and K >= 2 classes; "
                         f"got shape {joint.shape}")
    if np.any(joint < 0) or abs(joint.sum() - 1.0) > 1e-9:
        raise ValueError(f"{name} must hold probabilities >= 0 summing to 1; its smallest entry is "
                         f"{joint.min():.3g} and its sum {joint.sum():.12g}")
    return joint


def posterior_table(joint) -> np.ndarray:
    """``P(Y = y | X = x) = P(x, y) / P(x)`` for every row ``x``; shape (m, K).

    A row with ``P(X = x) = 0`` has no conditional distribution; it gets the uniform one (the
    choice does not change any error, since such an ``x`` never occurs).

    >>> posterior_table([[0.1, 0.3], [0.4, 0.2]])
    array([[0.25      , 0.75      ],
           [0.66666667, 0.33333333]])
    """
    joint = check_joint(joint)
    marginal = joint.sum(axis=1, keepdims=True)
    uniform = np.full_like(joint, 1.0 / joint.shape[1])
    return np.divide(joint, marginal, out=uniform, where=marginal > 0)


def bayes_classifier(joint) -> np.ndarray:
    """The Bayes classifier ``f*(x) = argmax_y P(X = x, Y = y)`` of a joint table; shape (m,), ints.

    Ties go to the largest class (the course's rule); a row with ``P(X = x) = 0`` is all ties.

    >>> bayes_classifier([[0.1, 0.3], [0.4, 0.2], [0.0, 0.0]])
    array([1, 0, 1])
    """
    return argmax_ties_to_largest(check_joint(joint))


def accuracy(joint, f) -> float:
    """``P(f(X) = Y) = sum_x P(X = x, Y = f(x))`` of the classifier ``f`` (shape (m,)) on a table.

    ``f`` may also be a stack of classifiers, shape (N, m): the result is then an array (N,).
    """
    joint = check_joint(joint)
    f = _classifiers(f, joint.shape)
    acc = joint[np.arange(joint.shape[0]), f].sum(axis=-1)
    return float(acc) if acc.ndim == 0 else acc


def error(joint, f) -> float:
    """``P(f(X) != Y) = 1 - accuracy(joint, f)``; an array (N,) for a stack (N, m) of classifiers."""
    return 1.0 - accuracy(joint, f)


def bayes_error(joint) -> float:
    """The Bayes error ``1 - sum_x max_y P(X = x, Y = y)`` of a joint table.

    >>> round(bayes_error([[0.1, 0.3], [0.4, 0.2]]), 12)
    0.3
    """
    joint = check_joint(joint)
    return float(1.0 - joint.max(axis=1).sum())


def all_classifiers(m: int, K: int = 2) -> np.ndarray:
    """Every classifier from ``{0, ..., m-1}`` to ``{0, ..., K-1}``: an int array (K^m, m).

    Row ``i`` lists the labels ``f(0), ..., f(m - 1)`` of the ``i``-th classifier in
    lexicographic order. Refuses more than 2^20 classifiers.

    >>> all_classifiers(2)
    array([[0, 0],
           [0, 1],
           [1, 0],
           [1, 1]])
    """
    m, K = positive_int(m, "m"), positive_int(K, "K")
    if K**m > 2**20:
        raise ValueError(f"there are K^m = {K}^{m} classifiers, too many to list (at most 2^20)")
    return np.array(list(itertools.product(range(K), repeat=m)), dtype=int).reshape(K**m, m)


def pointwise_gain(joint, f, g) -> np.ndarray:
    """``P(f(x) = Y | X = x) - P(g(x) = Y | X = x)`` for every input ``x``; shape (m,).

    For two classes and ``f`` the Bayes classifier this equals
    ``(2 eta(x) - 1) (1{f(x) = 1} - 1{g(x) = 1})`` with ``eta(x) = P(Y = 1 | X = x)``, which is >= 0.
    """
    post = posterior_table(joint)
    f, g = _classifiers(f, post.shape, "f"), _classifiers(g, post.shape, "g")
    rows = np.arange(post.shape[0])
    return post[rows, f] - post[rows, g]


# --------------------------------------------------------------------------- unequal costs, the reject option

REJECT = -1
"""The label a classifier with a reject option returns where it abstains (see :func:`chow_classifier`)."""


def cost_threshold(c01, c10) -> float:
    """``c01 / (c01 + c10)``: where ``eta(x)`` reaches it, predicting 1 costs no more than predicting 0.

    ``c01 > 0`` is the cost of predicting 1 when the truth is 0, ``c10 > 0`` that of predicting 0
    when the truth is 1 (a right answer costs 0). Given ``x``, predicting 1 costs ``c01 (1 - eta(x))``
    on average and predicting 0 costs ``c10 eta(x)``; the first is at most the second exactly when
    ``eta(x) >= c01 / (c01 + c10)``. Equal costs give 1/2: the Bayes classifier.

    >>> cost_threshold(1, 3)
    0.25
    """
    c01, c10 = positive_float(c01, "c01"), positive_float(c10, "c10")
    return c01 / (c01 + c10)


def predict_with_costs(eta, c01, c10) -> np.ndarray:
    """``1`` where ``eta >= c01 / (c01 + c10)``, else ``0`` (ties to the larger label); ints of ``eta``'s shape.

    ``eta`` holds posterior probabilities ``P(Y = 1 | x)`` (any shape, values in [0, 1]).

    >>> predict_with_costs([0.1, 0.25, 0.9], c01=1, c10=3)
    array([0, 1, 1])
    """
    eta = _probabilities(eta, "eta")
    return (eta >= cost_threshold(c01, c10)).astype(int)


def expected_cost(joint, f, c01, c10):
    """``E[c01 1[f(X) = 1, Y = 0] + c10 1[f(X) = 0, Y = 1]]`` of a classifier ``f`` on a two-class table.

    ``= sum_x (c01 P(x, 0) 1[f(x) = 1] + c10 P(x, 1) 1[f(x) = 0])``. ``f`` may be a stack (N, m) of
    classifiers: the result is then an array (N,). With ``c01 = c10 = 1`` it is the error.

    >>> round(expected_cost([[0.1, 0.3], [0.4, 0.2]], [1, 1], c01=2, c10=1), 12)
    1.0
    """
    joint = _two_class_joint(joint)
    c01, c10 = positive_float(c01, "c01"), positive_float(c10, "c10")
    f = _classifiers(f, joint.shape)
    cost = np.where(f == 1, c01 * joint[:, 0], c10 * joint[:, 1]).sum(axis=-1)
    return float(cost) if cost.ndim == 0 else cost


def cost_sensitive_classifier(joint, c01, c10) -> np.ndarray:
    """The classifier of least :func:`expected_cost` on a two-class table; shape (m,), ints 0 and 1.

    Predicts 1 where ``c01 P(x, 0) <= c10 P(x, 1)``, that is where ``eta(x) >= c01 / (c01 + c10)``
    (:func:`cost_threshold`); a tie goes to the larger label, 1.

    >>> cost_sensitive_classifier([[0.1, 0.3], [0.4, 0.2]], c01=1, c10=3)
    array([1, 1])
    """
    joint = _two_class_joint(joint)
    c01, c10 = positive_float(c01, "c01"), positive_float(c10, "c10")
    return (c01 * joint[:, 0] <= c10 * joint[:, 1]).astype(int)


def all_classifiers_with_reject(m: int, K: int = 2) -> np.ndarray:
    """Every classifier with a reject option from ``{0, ..., m-1}`` to ``{REJECT, 0, ..., K-1}``.

    An int array ((K + 1)^m, m), in lexicographic order with :data:`REJECT` (-1) first. Refuses more
    than 2^20 classifiers.

    >>> all_classifiers_with_reject(1).ravel().tolist()
    [-1, 0, 1]
    """
    m, K = positive_int(m, "m"), positive_int(K, "K")
    if (K + 1) ** m > 2**20:
        raise ValueError(f"there are (K + 1)^m = {K + 1}^{m} classifiers with a reject option, too many to "
                         "list (at most 2^20)")
    return all_classifiers(m, K + 1) - 1


def reject_risk(joint, f, c_rej):
    """The risk of a classifier with a reject option: abstaining costs ``c_rej``, a mistake 1.

    ``sum_x [c_rej P(x) 1[f(x) = REJECT] + (P(x) - P(x, f(x))) 1[f(x) != REJECT]]``. ``f`` holds
    classes ``0, ..., K - 1`` or :data:`REJECT`; a stack (N, m) of classifiers gives an array (N,).
    A classifier that never abstains has its error as risk.

    >>> round(reject_risk([[0.1, 0.3], [0.4, 0.2]], [REJECT, 0], c_rej=0.2), 12)
    0.28
    """
    joint = check_joint(joint)
    c_rej = _unit_float(c_rej, "c_rej")
    f = _classifiers(f, joint.shape, allow_reject=True)
    rows = np.arange(joint.shape[0])
    marginal = joint.sum(axis=1)
    wrong = marginal - joint[rows, np.where(f == REJECT, 0, f)]
    risk = np.where(f == REJECT, c_rej * marginal, wrong).sum(axis=-1)
    return float(risk) if risk.ndim == 0 else risk


def predict_with_reject(posterior, c_rej) -> np.ndarray:
    """Chow's rule on posterior probabilities ``posterior`` (n, K): the Bayes class (ties to the
    largest), or :data:`REJECT` where ``max_k posterior[i, k] < 1 - c_rej``; ints (n,).

    >>> predict_with_reject([[0.3, 0.7], [0.45, 0.55], [0.9, 0.1]], c_rej=0.35).tolist()
    [1, -1, 0]
    """
    posterior = _probabilities(posterior, "posterior")
    if posterior.ndim != 2 or posterior.shape[1] < 2:
        raise ValueError(f"posterior must have shape (n, K) with K >= 2 classes; got shape {posterior.shape}")
    c_rej = _unit_float(c_rej, "c_rej")
    return np.where(posterior.max(axis=1) < 1.0 - c_rej, REJECT, argmax_ties_to_largest(posterior))


def chow_classifier(joint, c_rej) -> np.ndarray:
    """Chow's rule on a table: the classifier with a reject option of least :func:`reject_risk`.

    Given ``x``, predicting class ``k`` costs ``1 - P(k | x)`` on average and abstaining costs
    ``c_rej``. So abstain where ``max_y P(y | x) < 1 - c_rej`` (on the table: where
    ``max_y P(x, y) < (1 - c_rej) P(x)``) and predict the Bayes class elsewhere; at equality both
    cost the same and the rule predicts. With two classes ``max(eta, 1 - eta) >= 1/2``, so a cost
    ``c_rej >= 1/2`` never makes abstaining worth it. Returns ints (m,): classes, or :data:`REJECT`.

    >>> chow_classifier([[0.1, 0.3], [0.25, 0.35]], c_rej=0.3).tolist()  # P(1 | x) = 0.75, 0.58
    [1, -1]
    """
    joint = check_joint(joint)
    c_rej = _unit_float(c_rej, "c_rej")
    abstain = joint.max(axis=1) < (1.0 - c_rej) * joint.sum(axis=1)
    return np.where(abstain, REJECT, argmax_ties_to_largest(joint))


# --------------------------------------------------------------------------- Gaussian classes


def gaussian_classes(means, covariances, priors=None, classes=None) -> mle.GaussianClassModel:
    """Gaussian classes with known parameters, as a :class:`mlcourse.mle.GaussianClassModel`.

    Parameters
    ----------
    means : array of shape (K, d)
    covariances : array of shape (K, d, d), or (d, d) for one covariance shared by all classes
        Symmetric positive definite.
    priors : array of shape (K,), optional
        Nonnegative, summing to 1; equal priors by default.
    classes : array of shape (K,), optional
        Integer labels, increasing; ``0, ..., K - 1`` by default.
    """
    means = as_matrix(means, "means")
    K, d = means.shape
    covariances = _as_float_array(covariances, "covariances")
    shared = covariances.shape == (d, d)
    if shared:
        covariances = np.repeat(covariances[None], K, axis=0)
    priors = np.full(K, 1.0 / K) if priors is None else as_vector(priors, "priors", K)
    classes = np.arange(K) if classes is None else np.asarray(classes)
    if classes.shape != (K,) or classes.dtype.kind not in "iu" or np.any(np.diff(classes) <= 0):
        raise ValueError(f"classes must be {K} increasing integers; got {classes!r}")
    model = mle.GaussianClassModel(mle._frozen(classes), mle._frozen(priors), mle._frozen(means),
                                   mle._frozen(covariances), bool(shared))
    mle._check_model(model)  # priors on the simplex, covariances symmetric positive definite
    return model


def bayes_rule(model: mle.GaussianClassModel) -> QuadraticRule:
    """The Bayes rule of two Gaussian classes as a :class:`QuadraticRule`.

    ``score(x) = log(pi_1 p_1(x)) - log(pi_0 p_0(x)) = x^T A x + w . x + b`` with

    * ``A = -(1/2) (Lambda_1 - Lambda_0)``, where ``Lambda_k = Sigma_k^{-1}`` (the precision matrix);
    * ``w = Lambda_1 mu_1 - Lambda_0 mu_0``;
    * ``b = -(1/2) (mu_1^T Lambda_1 mu_1 - mu_0^T Lambda_0 mu_0) - (1/2) log(det Sigma_1 / det Sigma_0)
      + log(pi_1 / pi_0)``.

    With equal covariances ``A = 0`` exactly and the boundary is the hyperplane
    ``w . x + b = 0``, ``w = Sigma^{-1} (mu_1 - mu_0)``.
    """
    classes, priors, means, covs = mle._check_model(model)
    if len(classes) != 2:
        raise ValueError(f"bayes_rule needs two classes; the model has {len(classes)}")
    if np.any(priors == 0):
        raise ValueError(f"both priors must be > 0 for a finite score; got {priors.tolist()}")
    Lam = np.linalg.inv(covs)  # the precision matrices Lambda_k
    Lam = (Lam + Lam.transpose(0, 2, 1)) / 2
    logdet = np.linalg.slogdet(covs)[1]
    if np.array_equal(covs[0], covs[1]):
        Lam[1] = Lam[0]
        A = np.zeros_like(Lam[0])
    else:
        A = -0.5 * (Lam[1] - Lam[0])
    w = Lam[1] @ means[1] - Lam[0] @ means[0]
    b = (-0.5 * (means[1] @ Lam[1] @ means[1] - means[0] @ Lam[0] @ means[0]) - 0.5 * (logdet[1] - logdet[0])
         + math.log(priors[1] / priors[0]))
    return QuadraticRule(mle._frozen(A), mle._frozen(w), float(b), mle._frozen(classes))


def rule_error(model: mle.GaussianClassModel, w, b) -> float:
    """The exact error of the linear rule "predict ``classes[1]`` iff ``w . x + b >= 0``" on two
    Gaussian classes, in any dimension (with ``w != 0`` the tie ``w . x + b = 0`` has probability 0).

    Under class k, ``w . X + b`` is ``N(w . mu_k + b, w^T Sigma_k w)``, so the error is
    ``pi_0 Phi(m_0 / s_0) + pi_1 Phi(-m_1 / s_1)`` with ``m_k = w . mu_k + b``, ``s_k^2 = w^T Sigma_k w``.
    """
    classes, priors, means, covs = mle._check_model(model)
    if len(classes) != 2:
        raise ValueError(f"rule_error needs two classes; the model has {len(classes)}")
    w = as_vector(w, "w", means.shape[1])
    b = float(b)
    if not np.any(w):
        return float(priors[1] if b < 0 else priors[0])  # a constant rule; b = 0 is a tie: class 1
    m = means @ w + b
    s = np.sqrt(np.einsum("j,kjl,l->k", w, covs, w))
    return float(priors[0] * ndtr(m[0] / s[0]) + priors[1] * ndtr(-m[1] / s[1]))


def linear_bayes_error(model: mle.GaussianClassModel) -> float:
    """The Bayes error of two Gaussian classes with a shared covariance, in closed form.

    With the Mahalanobis distance ``D = sqrt((mu_1 - mu_0)^T Sigma^{-1} (mu_1 - mu_0))`` and
    ``kappa = log(pi_0 / pi_1)``: ``pi_1 Phi(kappa / D - D / 2) + pi_0 Phi(-kappa / D - D / 2)``;
    for equal priors ``Phi(-D / 2)``.
    """
    classes, priors, means, covs = mle._check_model(model)
    if len(classes) != 2 or not np.array_equal(covs[0], covs[1]):
        raise ValueError("linear_bayes_error needs two classes with the same covariance")
    if np.any(priors == 0):
        return 0.0
    diff = means[1] - means[0]
    D = math.sqrt(diff @ np.linalg.solve(covs[0], diff))
    kappa = math.log(priors[0] / priors[1])
    if D == 0:
        return float(priors.min())
    return float(priors[1] * ndtr(kappa / D - D / 2) + priors[0] * ndtr(-kappa / D - D / 2))


def grid(model: mle.GaussianClassModel, resolution: int = 400, width: float = 7.0):
    """A midpoint grid covering the classes of a model on R or R^2 (``width`` standard deviations
    around every mean, per axis). Returns the points, shape (N, d), and the area of one cell."""
    _, _, means, covs = mle._check_model(model)
    d = means.shape[1]
    if d > 2:
        raise ValueError(f"numerical integration on a grid is done in d = 1 or 2; the model has d = {d} "
                         "(use a Monte Carlo estimate)")
    resolution = positive_int(resolution, "resolution")
    sd = np.sqrt(np.diagonal(covs, axis1=1, axis2=2))
    lo, hi = (means - width * sd).min(axis=0), (means + width * sd).max(axis=0)
    step = (hi - lo) / resolution
    axes = [lo[j] + (np.arange(resolution) + 0.5) * step[j] for j in range(d)]
    points = np.stack([g.ravel() for g in np.meshgrid(*axes, indexing="ij")], axis=1)
    return points, float(np.prod(step))


def classifier_error(model: mle.GaussianClassModel, predict, resolution: int = 400) -> float:
    """``P(g(X) != Y) = sum_k pi_k integral p_k(x) 1{g(x) != classes[k]} dx`` by the midpoint rule,
    for any classifier ``predict`` (an array (N, d) of points -> labels (N,)), ``d`` = 1 or 2."""
    points, area = grid(model, resolution)
    weighted = np.exp(mle.class_log_scores(model, points))  # pi_k p_k(x), shape (N, K)
    labels = np.asarray(predict(points))
    if labels.shape != (points.shape[0],):
        raise ValueError(f"predict must return one label per point, shape ({points.shape[0]},); got {labels.shape}")
    wrong = labels[:, None] != np.asarray(model.classes)[None, :]
    return float(np.sum(weighted * wrong) * area)


def bayes_error_gaussian(model: mle.GaussianClassModel, resolution: int = 400) -> float:
    """The Bayes error ``1 - integral max_k pi_k p_k(x) dx`` of Gaussian classes on R or R^2, by
    the midpoint rule (the integrand ``sum_k - max_k`` is continuous, so the rule converges fast)."""
    points, area = grid(model, resolution)
    weighted = np.exp(mle.class_log_scores(model, points))
    return float(np.sum(weighted.sum(axis=1) - weighted.max(axis=1)) * area)


def monte_carlo_error(model: mle.GaussianClassModel, predict, n: int, rng) -> float:
    """Estimate ``P(g(X) != Y)`` from ``n`` draws of the model (see
    :func:`mlcourse.data.sample_gaussian_classes`); the standard error is about
    ``sqrt(err (1 - err) / n)``."""
    from .data import sample_gaussian_classes

    X, y = sample_gaussian_classes(model, n, rng)
    return float(np.mean(np.asarray(predict(X)) != y))


def naive_gaussian(model: mle.GaussianClassModel) -> mle.GaussianClassModel:
    """The same classes with every covariance replaced by its diagonal: what Gaussian naive Bayes
    assumes (features independent given the class), with the true per-feature variances."""
    classes, priors, means, covs = mle._check_model(model)
    diag = np.zeros_like(covs)
    idx = np.arange(means.shape[1])
    diag[:, idx, idx] = covs[:, idx, idx]
    return mle.GaussianClassModel(mle._frozen(classes), mle._frozen(priors), mle._frozen(means),
                                  mle._frozen(diag), bool(model.shared_covariance))


def fit_gaussian_naive_bayes(X, y) -> mle.GaussianClassModel:
    """Gaussian naive Bayes by maximum likelihood: the fit of
    :func:`mlcourse.mle.fit_gaussian_classes` with each class covariance cut to its diagonal
    (the 1/n_k variances of every feature)."""
    return naive_gaussian(mle.fit_gaussian_classes(X, y))


# --------------------------------------------------------------------------- naive Bayes, binary features


def fit_naive_bayes(X, y, alpha: float = 1.0) -> NaiveBayesModel:
    """Fit naive Bayes with binary features by counting, with Laplace smoothing ``alpha``.

    With ``N_k`` points in class k and ``N_kj`` of them having ``x_j = 1``:
    ``priors[k] = N_k / n`` and ``p[k, j] = (N_kj + alpha) / (N_k + 2 alpha)``. ``alpha = 0`` is the
    MLE (it can give probabilities 0 and 1); ``alpha = 1`` is Laplace's rule, what scikit-learn's
    ``BernoulliNB(alpha=1)`` computes.

    Parameters
    ----------
    X : array of shape (n, d) with entries 0 or 1
    y : array of shape (n,), integer labels (the classes are its distinct values, sorted)
    alpha : float >= 0

    >>> m = fit_naive_bayes([[1, 0], [1, 1], [0, 0]], [1, 1, 0], alpha=1.0)
    >>> m.priors, m.p
    (array([0.33333333, 0.66666667]), array([[0.33333333, 0.33333333],
           [0.75      , 0.5       ]]))
    """
    X = _binary_matrix(X, "X")
    y = mle._integer_labels(y, X.shape[0])
    alpha = nonnegative_float(alpha, "alpha")
    classes, index, n_k = np.unique(y, return_inverse=True, return_counts=True)
    one_hot = (index[:, None] == np.arange(classes.size)).astype(float)  # (n, K)
    n_kj = one_hot.T @ X  # (K, d)
    p = (n_kj + alpha) / (n_k[:, None] + 2.0 * alpha)
    return NaiveBayesModel(mle._frozen(classes), mle._frozen(n_k / X.shape[0]), mle._frozen(p), alpha)


def naive_bayes_model(priors, p, classes=None) -> NaiveBayesModel:
    """A :class:`NaiveBayesModel` from known parameters ``priors`` (K,) and ``p`` (K, d)."""
    p = _as_float_array(p, "p")
    if p.ndim != 2 or p.shape[0] < 2:
        raise ValueError(f"p must have shape (K, d) with K >= 2 classes; got shape {p.shape}")
    K = p.shape[0]
    priors = as_vector(priors, "priors", K)
    classes = np.arange(K) if classes is None else np.asarray(classes)
    model = NaiveBayesModel(mle._frozen(classes), mle._frozen(priors), mle._frozen(p))
    _check_nb(model)
    return model


def naive_bayes_log_joint(model: NaiveBayesModel, X) -> np.ndarray:
    """``log P(Y = k) + sum_j log P(x_j | Y = k)`` for every row of ``X`` and class k; shape (n, K).

    ``log P(x_j | k) = x_j log p[k, j] + (1 - x_j) log(1 - p[k, j])``; ``-inf`` where a count of 0
    (with ``alpha = 0``) makes ``x`` impossible in class k.
    """
    priors, p = _check_nb(model)
    X = _binary_matrix(X, "X")
    if X.shape[1] != p.shape[1]:
        raise ValueError(f"X has {X.shape[1]} features per row; the model has {p.shape[1]}")
    with np.errstate(divide="ignore"):
        if np.all((p > 0) & (p < 1)):  # two matrix products, no (n, K, d) array
            return X @ np.log(p).T + (1.0 - X) @ np.log1p(-p).T + np.log(priors)
        # a probability 0 or 1 (alpha = 0): 0 log 0 = 0 needs xlogy, term by term
        log_lik = xlogy(X[:, None, :], p[None]) + xlogy(1.0 - X[:, None, :], 1.0 - p[None])
        return log_lik.sum(axis=2) + np.log(priors)


def naive_bayes_log_posterior(model: NaiveBayesModel, X) -> np.ndarray:
    """``log P(Y = k | x)`` under the naive Bayes model; shape (n, K).

    Raises a ``ValueError`` for a row that is impossible under every class (zero counts with
    ``alpha = 0``): its posterior is undefined; smoothing (``alpha > 0``) avoids it.
    """
    scores = naive_bayes_log_joint(model, X)
    impossible = np.all(np.isneginf(scores), axis=1)
    if impossible.any():
        i = int(np.flatnonzero(impossible)[0])
        raise ValueError(f"row {i} of X has probability 0 under every class (a feature count of 0 or of "
                         "N_k without smoothing): its posterior is undefined; fit with alpha > 0")
    return scores - logsumexp(scores, axis=1, keepdims=True)


def predict_naive_bayes(model: NaiveBayesModel, X) -> np.ndarray:
    """``argmax_k [log P(Y = k) + sum_j log P(x_j | Y = k)]`` for every row of ``X``; shape (n,).

    A tie goes to the largest label (also a row impossible under every class), the course's rule.
    """
    scores = naive_bayes_log_joint(model, X)  # checks the model first
    return np.asarray(model.classes)[argmax_ties_to_largest(scores)]


def naive_bayes_weights(model: NaiveBayesModel) -> np.ndarray:
    """The weights ``u = (u_0, u_1, ..., u_d)`` of the two-class naive Bayes rule; shape (d + 1,).

    ``log P(Y=1 | x) - log P(Y=0 | x) = u_0 + sum_j u_j x_j`` exactly, with
    ``u_0 = log(pi_1 / pi_0) + sum_j log((1 - p_1j) / (1 - p_0j))`` and
    ``u_j = log(p_1j / p_0j) - log((1 - p_1j) / (1 - p_0j))``. Needs every ``p`` strictly between
    0 and 1 and both priors > 0.
    """
    priors, p = _check_nb(model)
    if p.shape[0] != 2:
        raise ValueError(f"the linear form is for two classes; the model has {p.shape[0]}")
    if np.any((p <= 0) | (p >= 1)) or np.any(priors <= 0):
        raise ValueError("every p[k, j] must lie strictly between 0 and 1 and both priors be > 0 for finite "
                         "weights; fit with alpha > 0")
    log_odds_one = np.log(p[1]) - np.log(p[0])  # feature on
    log_odds_zero = np.log1p(-p[1]) - np.log1p(-p[0])  # feature off
    u0 = math.log(priors[1] / priors[0]) + log_odds_zero.sum()
    return np.r_[u0, log_odds_one - log_odds_zero]


def predict_linear(u, X) -> np.ndarray:
    """``1`` where ``u_0 + sum_j u_j x_j >= 0``, else ``0``, for every row of ``X``; int array (n,).

    A score of exactly 0 is a tie and goes to the larger class, 1: with ``y_pm = 2 y - 1`` this is
    lecture 02's rule ``sign(w . (1, x))`` with ``sign(0) = +1``. These are class *indices*: index 1
    is ``classes[1]`` of the model the weights came from.
    """
    X = as_matrix(X, "X")
    u = as_vector(u, "u", X.shape[1] + 1)
    return (u[0] + X @ u[1:] >= 0).astype(int)


# --------------------------------------------------------------------------- helpers


def _two_class_joint(joint) -> np.ndarray:
    joint = check_joint(joint)
    if joint.shape[1] != 2:
        raise ValueError(f"joint must have two classes (columns) for the costs c01 and c10; got shape {joint.shape}")
    return joint


def _unit_float(value, name: str) -> float:
    value = nonnegative_float(value, name)
    if value > 1:
        raise ValueError(f"{name} must lie in [0, 1] (a mistake costs 1); got {value}")
    return value


def _probabilities(a, name: str) -> np.ndarray:
    a = _as_float_array(a, name)
    if np.any((a < 0) | (a > 1)):
        raise ValueError(f"{name} must hold probabilities in [0, 1]; found {a[(a < 0) | (a > 1)].ravel()[0]:.3g}")
    return a


def _classifiers(f, shape, name: str = "f", allow_reject: bool = False) -> np.ndarray:
    m, K = shape
    f = np.asarray(f)
    if f.dtype.kind not in "iu":
        if f.dtype.kind == "f" and np.all(np.isfinite(f)) and np.all(f == np.round(f)):
            f = f.astype(int)
        else:
            raise TypeError(f"{name} must hold integer class labels; got dtype {f.dtype}")
    if f.ndim not in (1, 2) or f.shape[-1] != m:
        raise ValueError(f"{name} must have shape ({m},) (one label per input), or (N, {m}); got {f.shape}")
    bad = (f >= K) | ((f < 0) & ~(allow_reject & (f == REJECT)))
    if np.any(bad):
        allowed = f"classes 0, ..., {K - 1}" + (f" or REJECT ({REJECT})" if allow_reject else "")
        raise ValueError(f"{name} must hold {allowed}; found {int(f[bad][0])}")
    return f


def _binary_matrix(X, name: str) -> np.ndarray:
    X = as_matrix(X, name)
    bad = (X != 0) & (X != 1)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ValueError(f"{name} must hold binary features 0 or 1; found {X[i, j].item()!r} at index ({i}, {j})")
    return X


def _check_nb(model):
    if not isinstance(model, NaiveBayesModel):
        raise TypeError(f"model must be a NaiveBayesModel (from fit_naive_bayes); got {type(model).__name__}")
    p = _as_float_array(model.p, "model.p")
    if p.ndim != 2:
        raise ValueError(f"model.p must have shape (K, d); got {p.shape}")
    if np.any((p < 0) | (p > 1)):
        raise ValueError("model.p must hold probabilities in [0, 1]")
    priors = mle._model_priors(model, p.shape[0])
    classes = np.asarray(model.classes)
    if classes.shape != (p.shape[0],):
        raise ValueError(f"model.classes has shape {classes.shape}, expected ({p.shape[0]},)")
    return priors, p
