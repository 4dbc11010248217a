"""Lecture 13: ensembles — averaging (bagging, random forests) and boosting (AdaBoost with stumps).

Conventions of the lecture:

* an average of ``B`` predictors, each of variance ``sigma2`` with pairwise correlation ``rho``, has
  variance ``rho sigma2 + (1 - rho) sigma2 / B``;
* a **bootstrap sample** is ``n`` indices drawn uniformly with replacement from ``0 .. n-1``; the
  points it never draws are **out of bag** (about ``(1 - 1/n)^n -> 1/e`` of them);
* bagging and random forests grow Lecture 05's trees (:mod:`mlcourse.trees`, Gini by default) on
  bootstrap samples and take a **majority vote** of the trees (hard votes, ties to the larger label;
  scikit-learn averages the trees' class probabilities instead);
* a random forest draws ``max_features`` of the ``d`` features afresh **at every split** and splits on
  the best of them (Lecture 05's ``best_split`` on those columns). If none of the drawn features can
  split the node (all constant there), the best of the remaining features is used, as scikit-learn
  does; a node whose best split gains nothing is a leaf, as in ``trees.fit_tree``;
* AdaBoost takes labels in ``{-1, +1}``; a **stump** "``x[feature] <= threshold`` predicts ``left``,
  else ``right``" (``left, right`` in ``{-1, +1}``); round ``t`` fits a stump to the weights
  ``w_t`` (summing to 1), with weighted error ``eps_t``, and sets
  ``alpha_t = 1/2 ln((1 - eps_t) / eps_t)``, ``w_{t+1,i} = w_{t,i} exp(-alpha_t y_i h_t(x_i)) / Z_t``,
  ``Z_t = 2 sqrt(eps_t (1 - eps_t))``; the ensemble's score is ``f_T = sum_t alpha_t h_t`` and its
  prediction ``sign(f_T)`` (``sign(0) = +1``); ``gamma_t = 1/2 - eps_t`` is the edge of round t.
* everything random takes a ``seed`` (an int or a numpy Generator): the same seed, the same result.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import trees
from ._checks import argmax_ties_to_largest, as_labels, as_matrix, positive_int
from .data import as_rng

_TINY = 1e-12  # a gain or a difference of errors this small is round-off


def _number(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number; got {type(value).__name__}")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite; got {value}")
    return value


# --------------------------------------------------------------------------- why averaging helps


def correlated_average_variance(sigma2, rho, B) -> float:
    """Variance of the average of ``B`` predictors of variance ``sigma2`` and pairwise correlation ``rho``:
    ``rho sigma2 + (1 - rho) sigma2 / B``.

    ``rho`` must lie in ``[-1/(B-1), 1]`` (below, no such covariance matrix exists).

    >>> correlated_average_variance(4.0, 0.25, 3)
    2.0
    """
    sigma2, rho, B = _number(sigma2, "sigma2"), _number(rho, "rho"), positive_int(B, "B")
    if sigma2 < 0:
        raise ValueError(f"sigma2 is a variance, so at least 0; got {sigma2}")
    low = -1.0 / (B - 1) if B > 1 else -1.0
    if not low - 1e-12 <= rho <= 1:
        raise ValueError(f"rho must lie in [{low:.4g}, 1] for B = {B} predictors; got {rho}")
    return rho * sigma2 + (1 - rho) * sigma2 / B


# --------------------------------------------------------------------------- the bootstrap


def bootstrap_indices(n, B, seed) -> np.ndarray:
    """``B`` bootstrap samples of ``0 .. n-1``: an int array (B, n), row b drawn uniformly with replacement."""
    n, B = positive_int(n, "n"), positive_int(B, "B")
    return as_rng(seed).integers(0, n, size=(B, n))


def out_of_bag_mask(indices, n) -> np.ndarray:
    """Boolean (B, n): ``[b, i]`` is True when point ``i`` is not in bootstrap sample ``b`` (out of bag).

    >>> out_of_bag_mask(np.array([[0, 0, 2]]), 3).tolist()
    [[False, True, False]]
    """
    n = positive_int(n, "n")
    indices = np.asarray(indices)
    if indices.ndim == 1:
        indices = indices[None, :]
    if indices.ndim != 2 or indices.dtype.kind not in "iu":
        raise ValueError(f"indices must be an integer array (B, m) of bootstrap samples; got {indices.dtype} "
                         f"of shape {indices.shape}")
    if indices.size and (indices.min() < 0 or indices.max() >= n):
        raise ValueError(f"indices must lie in 0 .. n-1 = {n - 1}; found {indices.min()} .. {indices.max()}")
    in_bag = np.zeros((len(indices), n), dtype=bool)
    np.put_along_axis(in_bag, indices, True, axis=1)
    return ~in_bag


# --------------------------------------------------------------------------- bagging and random forests


@dataclass(frozen=True)
class Forest:
    """Trees grown on bootstrap samples (``indices`` (B, n)), voting by majority over ``classes``.

    ``max_features`` is None for bagging (every feature at every split), else the number of features
    drawn at each split (a random forest). ``oob_votes`` (n, K) counts, for each training point, the
    votes of the trees it is out of bag for; ``oob_error`` is the error of that vote over the points
    with at least one such tree (``oob_covered`` of them)."""

    trees: tuple
    indices: np.ndarray
    classes: np.ndarray
    max_features: int | None
    oob_votes: np.ndarray
    oob_error: float
    oob_covered: int

    @property
    def B(self) -> int:
        return len(self.trees)


def fit_random_tree(X, y, max_features, seed, criterion="gini", max_depth=None) -> trees.Tree:
    """A tree of Lecture 05 whose every split looks at ``max_features`` features drawn afresh (without
    replacement) at that node; ties and stopping as in ``trees.fit_tree`` (see the module docstring)."""
    X = as_matrix(X, "X")
    classes, code = trees._encode(y, len(X))
    d = X.shape[1]
    m_try = positive_int(max_features, "max_features")
    if m_try > d:
        raise ValueError(f"max_features must be at most d = {d}; got {m_try}")
    if criterion not in trees.CRITERIA:
        raise ValueError(f"criterion must be one of {trees.CRITERIA}; got {criterion!r}")
    if max_depth is not None:
        max_depth = positive_int(max_depth, "max_depth")
    rng, K = as_rng(seed), len(classes)
    feature, threshold, left, right, counts, depth = [], [], [], [], [], []
    stack = [(np.arange(len(X)), 0, -1, False)]          # rows, depth, parent, is the right child
    while stack:                                        # popping left before right numbers depth first
        rows, dep, parent, is_right = stack.pop()
        node = len(feature)
        if parent >= 0:
            (right if is_right else left)[parent] = node
        c = np.bincount(code[rows], minlength=K)
        feature.append(-1), threshold.append(np.nan), left.append(-1), right.append(-1)
        counts.append(c), depth.append(dep)
        if np.count_nonzero(c) < 2 or (max_depth is not None and dep >= max_depth):
            continue
        order = rng.permutation(d)
        drawn, rest = np.sort(order[:m_try]), np.sort(order[m_try:])   # sorted: ties to the smaller feature
        Xr = X[rows]
        split, cols = trees.best_split(Xr[:, drawn], code[rows], criterion), drawn
        if split is None and m_try < d:                 # nothing to cut among those drawn: the rest
            split, cols = trees.best_split(Xr[:, rest], code[rows], criterion), rest
        if split is None or split.gain <= _TINY:
            continue
        j = int(cols[split.feature])
        feature[node], threshold[node] = j, split.threshold
        goes_left = Xr[:, j] <= split.threshold
        stack.append((rows[~goes_left], dep + 1, node, True))
        stack.append((rows[goes_left], dep + 1, node, False))
    return trees.Tree(np.array(feature), np.array(threshold), np.array(left), np.array(right),
                      np.array(counts, dtype=np.int64), np.array(depth), classes)


def fit_bagging(X, y, B, seed, max_features=None, criterion="gini", max_depth=None) -> Forest:
    """Bagging: ``B`` trees (``trees.fit_tree``) on bootstrap samples drawn from ``seed``, with their
    out-of-bag vote. With ``max_features`` (an int), a random forest (see ``fit_random_forest``)."""
    X = as_matrix(X, "X")
    classes, code = trees._encode(y, len(X))
    B = positive_int(B, "B")
    rng = as_rng(seed)
    n, d = X.shape
    if max_features is not None:
        max_features = positive_int(max_features, "max_features")
        if max_features > d:
            raise ValueError(f"max_features must be at most d = {d}; got {max_features}")
    indices = bootstrap_indices(n, B, rng)
    oob = out_of_bag_mask(indices, n)
    grown, oob_votes = [], np.zeros((n, len(classes)), dtype=np.int64)
    for b in range(B):
        Xb, yb = X[indices[b]], code[indices[b]]
        if max_features is None or max_features == d:   # every feature at every split: Lecture 05's tree
            tree = trees.fit_tree(Xb, yb, criterion=criterion, max_depth=max_depth)
        else:
            tree = fit_random_tree(Xb, yb, max_features, rng, criterion=criterion, max_depth=max_depth)
        # a tree's classes are the codes seen in its sample: map them back to the forest's
        tree = trees.Tree(tree.feature, tree.threshold, tree.left, tree.right, tree.counts, tree.depth,
                          classes[tree.classes])
        grown.append(tree)
        rows = np.flatnonzero(oob[b])
        if rows.size:
            pred = np.searchsorted(classes, trees.predict_tree(tree, X[rows]))
            np.add.at(oob_votes, (rows, pred), 1)
    covered = oob_votes.sum(axis=1) > 0
    oob_pred = classes[argmax_ties_to_largest(oob_votes[covered])]
    oob_error = float(np.mean(oob_pred != classes[code[covered]])) if covered.any() else float("nan")
    return Forest(tuple(grown), indices, classes, max_features, oob_votes, oob_error, int(covered.sum()))


def fit_random_forest(X, y, B, seed, max_features="sqrt", criterion="gini", max_depth=None) -> Forest:
    """A random forest: bagging whose trees draw ``max_features`` features at every split
    (``"sqrt"``: ``max(1, floor(sqrt(d)))``, scikit-learn's default for classification)."""
    X = as_matrix(X, "X")
    if isinstance(max_features, str):
        if max_features != "sqrt":
            raise ValueError(f"max_features must be an int or 'sqrt'; got {max_features!r}")
        max_features = max(1, int(np.sqrt(X.shape[1])))
    return fit_bagging(X, y, B, seed, max_features=max_features, criterion=criterion, max_depth=max_depth)


def tree_predictions(forest: Forest, X) -> np.ndarray:
    """Each tree's labels for the rows of ``X``: an array (B, m)."""
    X = as_matrix(X, "X")
    return np.stack([trees.predict_tree(t, X) for t in forest.trees])


def forest_votes(forest: Forest, X, B=None) -> np.ndarray:
    """Votes (m, K) of the first ``B`` trees (all by default) for each class of ``forest.classes``."""
    preds = tree_predictions(forest, X)
    if B is not None:
        B = positive_int(B, "B")
        if B > forest.B:
            raise ValueError(f"B must be at most the forest's {forest.B} trees; got {B}")
        preds = preds[:B]
    K = len(forest.classes)
    code = np.searchsorted(forest.classes, preds)
    return np.stack([(code == k).sum(axis=0) for k in range(K)], axis=1)


def predict_forest(forest: Forest, X, B=None) -> np.ndarray:
    """The majority vote of the (first ``B``) trees; ties to the larger label."""
    return forest.classes[argmax_ties_to_largest(forest_votes(forest, X, B))]


def forest_error(forest: Forest, X, y, B=None) -> float:
    """The fraction of rows of ``X`` whose label ``y`` the majority vote gets wrong."""
    X = as_matrix(X, "X")
    y = np.asarray(y)
    if y.shape != (len(X),):
        raise ValueError(f"y has shape {y.shape}, expected ({len(X)},): one label per row of X")
    return float(np.mean(predict_forest(forest, X, B) != y))


# --------------------------------------------------------------------------- AdaBoost with stumps


@dataclass(frozen=True)
class Stump:
    """"``x[feature] <= threshold`` predicts ``left``, else ``right``" (``left, right`` in {-1, +1})."""

    feature: int
    threshold: float
    left: int
    right: int


def stump_predict(stump: Stump, X) -> np.ndarray:
    """The stump's labels (m,) in {-1, +1} for the rows of ``X``."""
    return _predict(stump, as_matrix(X, "X"))


def _as_weights(w, n, name="w"):
    w = np.asarray(w, dtype=float)
    if w.shape != (n,):
        raise ValueError(f"{name} has shape {w.shape}, expected ({n},): one weight per point")
    if not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
        raise ValueError(f"{name} must be finite weights >= 0 with a positive sum")
    return w


def weighted_error(stump: Stump, X, y, w) -> float:
    """``sum_i w_i [h(x_i) != y_i] / sum_i w_i``: the stump's weighted training error."""
    X = as_matrix(X, "X")
    y = as_labels(y, len(X))
    w = _as_weights(w, len(X))
    return float(w[stump_predict(stump, X) != y].sum() / w.sum())


def fit_stump(X, y, w, criterion="error") -> Stump:
    """The best stump for weights ``w`` (n,) over every feature and every midpoint threshold.

    ``criterion="error"`` minimises the weighted error (each side predicting the opposite label;
    AdaBoost's weak learner). ``"gini"`` minimises the weighted Gini impurity of the two sides and
    each side predicts its weighted majority (scikit-learn's ``DecisionTreeClassifier(max_depth=1)``
    with ``sample_weight``). Ties: the smallest feature, then the smallest threshold, then ``left = +1``;
    a weighted majority tie predicts +1. With no threshold at all (every feature constant), the stump
    ``x[0] <= inf`` predicts the weighted majority everywhere."""
    X = as_matrix(X, "X")
    y = as_labels(y, len(X))
    w = _as_weights(w, len(X))
    if criterion not in ("error", "gini"):
        raise ValueError(f"criterion must be 'error' or 'gini'; got {criterion!r}")
    return _SortedColumns(X, y).best_stump(w / w.sum(), criterion)


class _SortedColumns:
    """``X``'s columns sorted once, for the best stump under many weightings (AdaBoost's rounds)."""

    def __init__(self, X: np.ndarray, y: np.ndarray):
        self.order = np.argsort(X, axis=0, kind="stable")
        xs = np.take_along_axis(X, self.order, axis=0)
        self.ys = y[self.order]
        self.is_pos, self.is_neg = self.ys > 0, self.ys < 0
        self.y = y
        self.valid = xs[1:] > xs[:-1]
        self.thresholds = (xs[1:] + xs[:-1]) / 2

    def best_stump(self, w: np.ndarray, criterion: str) -> Stump:
        """The best stump for weights ``w`` summing to 1 (see :func:`fit_stump`)."""
        ws = w[self.order]
        pos_left = np.cumsum(ws * self.is_pos, axis=0)[:-1]        # (n-1, d): weight of +1 left of each cut
        neg_left = np.cumsum(ws * self.is_neg, axis=0)[:-1]
        pos_all, neg_all = w[self.y > 0].sum(), w[self.y < 0].sum()
        pos_right, neg_right = pos_all - pos_left, neg_all - neg_left
        if criterion == "error":
            # left = +1, right = -1 errs on the -1 on the left and the +1 on the right; the flip on the rest
            loss = np.stack([neg_left + pos_right, pos_left + neg_right])       # (2, n-1, d): left = +1, -1
        else:
            W_L, W_R = pos_left + neg_left, pos_right + neg_right
            with np.errstate(invalid="ignore", divide="ignore"):
                gini = (W_L - (pos_left ** 2 + neg_left ** 2) / np.where(W_L > 0, W_L, 1)
                        + W_R - (pos_right ** 2 + neg_right ** 2) / np.where(W_R > 0, W_R, 1))
            loss = np.stack([gini, np.full_like(gini, np.inf)])
        loss = np.where(self.valid[None], loss, np.inf)
        best = loss.min() if loss.size else np.inf
        if not np.isfinite(best):
            sign = 1 if pos_all >= neg_all else -1
            return Stump(0, float("inf"), sign, sign)
        s, i, j = np.nonzero(loss <= best + _TINY)
        # smallest feature, then smallest threshold, then left = +1 (s = 0)
        pick = np.lexsort((s, self.thresholds[i, j], j))[0]
        s, i, j = int(s[pick]), int(i[pick]), int(j[pick])
        if criterion == "error":
            left = 1 if s == 0 else -1
            return Stump(j, float(self.thresholds[i, j]), left, -left)
        left = 1 if pos_left[i, j] >= neg_left[i, j] else -1
        right = 1 if pos_right[i, j] >= neg_right[i, j] else -1
        return Stump(j, float(self.thresholds[i, j]), left, right)


@dataclass(frozen=True)
class SplitNode:
    """A base learner deeper than a stump: ``x[feature] <= threshold`` goes to ``left``, else to ``right``,
    each a ``SplitNode`` or, at the bottom, a ``Stump``."""

    feature: int
    threshold: float
    left: object
    right: object


def fit_weighted_tree(X, y, w, depth) -> Stump | SplitNode:
    """The greedy tree of at most ``depth`` levels for weights ``w``: every cut minimises the weighted Gini
    impurity of its two sides (``fit_stump`` with ``criterion="gini"`` on the node's points), the bottom
    stumps predict each side's weighted majority; ``depth = 1`` is that stump. A node that is pure, or
    whose points cannot be cut, ends as a stump. (scikit-learn's ``DecisionTreeClassifier(max_depth=depth)``
    with ``sample_weight``, up to ties.)"""
    X = as_matrix(X, "X")
    y = as_labels(y, len(X))
    w = _as_weights(w, len(X))
    return _grow_weighted(X, y, w, positive_int(depth, "depth"))


def _grow_weighted(X, y, w, depth):
    stump = _SortedColumns(X, y).best_stump(w / w.sum(), "gini")
    if depth == 1 or not np.isfinite(stump.threshold) or np.all(y == y[0]):
        return stump
    goes_left = X[:, stump.feature] <= stump.threshold
    return SplitNode(stump.feature, stump.threshold,
                     _grow_weighted(X[goes_left], y[goes_left], w[goes_left], depth - 1),
                     _grow_weighted(X[~goes_left], y[~goes_left], w[~goes_left], depth - 1))


def learner_predict(learner: Stump | SplitNode, X) -> np.ndarray:
    """The labels (m,) in {-1, +1} of a base learner (a stump or a ``SplitNode`` tree) for the rows of ``X``."""
    X = as_matrix(X, "X")
    return _predict(learner, X)


def _predict(learner, X):
    if learner.feature >= X.shape[1]:
        kind = "stump" if isinstance(learner, Stump) else "tree"
        raise ValueError(f"X has {X.shape[1]} features but the {kind} splits feature {learner.feature}")
    goes_left = X[:, learner.feature] <= learner.threshold
    if isinstance(learner, Stump):
        return np.where(goes_left, learner.left, learner.right)
    return np.where(goes_left, _predict(learner.left, X), _predict(learner.right, X))


def adaboost_alpha(eps):
    """``alpha = 1/2 ln((1 - eps) / eps)`` for a weighted error ``eps`` in (0, 1) (array or number)."""
    e = np.asarray(eps, dtype=float)
    if not np.all((e > 0) & (e < 1)):
        raise ValueError(f"eps must lie strictly between 0 and 1; got {eps}")
    a = 0.5 * np.log((1 - e) / e)
    return float(a) if a.ndim == 0 else a


def adaboost_normaliser(eps):
    """``Z = 2 sqrt(eps (1 - eps))``: the sum of the updated weights before normalising, at the optimal alpha."""
    e = np.asarray(eps, dtype=float)
    if not np.all((e >= 0) & (e <= 1)):
        raise ValueError(f"eps must lie in [0, 1]; got {eps}")
    z = 2 * np.sqrt(e * (1 - e))
    return float(z) if z.ndim == 0 else z


def adaboost_update(w, y, h, alpha):
    """One round's reweighting: ``(w * exp(-alpha y h) / Z, Z)`` with ``Z`` the sum before normalising.

    ``w`` (n,) the current weights (summing to 1), ``y`` and ``h`` (n,) in {-1, +1}: labels and the stump's
    predictions. Returns the new weights (summing to 1) and ``Z``."""
    w = np.asarray(w, dtype=float)
    if w.ndim != 1:
        raise ValueError(f"w must be a 1-d array of weights; got shape {w.shape}")
    w = _as_weights(w, len(w))
    y, h = as_labels(y, len(w), "y"), as_labels(h, len(w), "h")
    return _reweight(w, y, h, _number(alpha, "alpha"))


def _reweight(w, y, h, alpha):
    unnormalised = w * np.exp(-alpha * y * h)
    Z = float(unnormalised.sum())
    return unnormalised / Z, Z


@dataclass(frozen=True)
class AdaBoost:
    """AdaBoost's ``T`` rounds: ``stumps`` (the base learners: stumps, or ``SplitNode`` trees when grown
    with ``depth > 1``), ``alpha`` (T,), weighted errors ``eps`` (T,), normalisers ``Z`` (T,) and the
    weights ``w`` (T+1, n) before each round (row 0 uniform) and after the last."""

    stumps: tuple
    alpha: np.ndarray
    eps: np.ndarray
    Z: np.ndarray
    w: np.ndarray

    @property
    def T(self) -> int:
        return len(self.stumps)

    @property
    def gamma(self) -> np.ndarray:
        """The edges ``gamma_t = 1/2 - eps_t``."""
        return 0.5 - self.eps


def fit_adaboost(X, y, T, criterion=None, depth=1) -> AdaBoost:
    """AdaBoost for ``T`` rounds on labels in {-1, +1}, with stumps (``fit_stump`` with ``criterion``,
    "error" by default) or, with ``depth > 1``, trees of that depth (``fit_weighted_tree``, whose cuts
    minimise the weighted Gini impurity: ``criterion`` must then be None or "gini").

    Deterministic (no randomness). It stops early when a stump has weighted error 0 (it is kept with
    ``alpha = 1`` and ``Z = 0``: it alone classifies the sample) or 1/2 or more (no edge left; not kept).
    """
    X = as_matrix(X, "X")
    y = as_labels(y, len(X))
    T = positive_int(T, "T")
    depth = positive_int(depth, "depth")
    n = len(X)
    criterion = ("error" if depth == 1 else "gini") if criterion is None else criterion
    if criterion not in ("error", "gini"):
        raise ValueError(f"criterion must be 'error' or 'gini'; got {criterion!r}")
    if depth > 1 and criterion != "gini":
        raise ValueError(f"trees of depth {depth} cut by the weighted Gini impurity: criterion must be None or "
                         f"'gini'; got {criterion!r}")
    columns = _SortedColumns(X, y) if depth == 1 else None   # stumps: each feature sorted once for all rounds
    w = np.full(n, 1.0 / n)
    stumps, alphas, epss, Zs, ws = [], [], [], [], [w]
    for _ in range(T):
        stump = columns.best_stump(w, criterion) if depth == 1 else _grow_weighted(X, y, w, depth)
        h = _predict(stump, X)
        eps = float(w[h != y].sum())
        if eps >= 0.5 - _TINY:
            break
        if eps <= _TINY:
            stumps.append(stump), alphas.append(1.0), epss.append(0.0), Zs.append(0.0), ws.append(w)
            break
        alpha = adaboost_alpha(eps)
        w, Z = _reweight(w, y, h, alpha)                                 # adaboost_update
        stumps.append(stump), alphas.append(alpha), epss.append(eps), Zs.append(Z), ws.append(w)
    return AdaBoost(tuple(stumps), np.array(alphas), np.array(epss), np.array(Zs), np.array(ws))


def staged_scores(model: AdaBoost, X) -> np.ndarray:
    """The scores ``f_t(x) = sum_{s <= t} alpha_s h_s(x)`` after each round: an array (T, m)."""
    X = as_matrix(X, "X")
    if model.T == 0:
        return np.zeros((0, len(X)))
    return np.cumsum(model.alpha[:, None] * _stump_votes(model, X, model.T), axis=0)


def _stump_votes(model: AdaBoost, X: np.ndarray, t: int) -> np.ndarray:
    """``h_s(x)`` of the first ``t`` base learners at the rows of ``X``, (t, m): every stump at once."""
    stumps = model.stumps[:t]
    if not all(isinstance(s, Stump) for s in stumps):
        return np.stack([_predict(s, X) for s in stumps]) if stumps else np.zeros((0, len(X)), dtype=int)
    feature = np.array([s.feature for s in stumps], dtype=int)
    if feature.size and feature.max() >= X.shape[1]:
        raise ValueError(f"X has {X.shape[1]} features but a stump splits feature {feature.max()}")
    threshold = np.array([s.threshold for s in stumps])[:, None]
    left, right = (np.array([getattr(s, side) for s in stumps])[:, None] for side in ("left", "right"))
    return np.where(X[:, feature].T <= threshold, left, right)


def _rounds(model, rounds):
    if rounds is None:
        return model.T
    rounds = positive_int(rounds, "rounds")
    if rounds > model.T:
        raise ValueError(f"rounds must be at most the model's T = {model.T}; got {rounds}")
    return rounds


def ensemble_scores(model: AdaBoost, X, rounds=None) -> np.ndarray:
    """``f(x) = sum_t alpha_t h_t(x)`` over the first ``rounds`` rounds (all by default), shape (m,)."""
    X = as_matrix(X, "X")
    t = _rounds(model, rounds)
    return model.alpha[:t] @ _stump_votes(model, X, t)


def predict_adaboost(model: AdaBoost, X, rounds=None) -> np.ndarray:
    """``sign(f(x))`` in {-1, +1}, a score of 0 predicting +1."""
    return np.where(ensemble_scores(model, X, rounds) >= 0, 1, -1)


def normalised_margins(model: AdaBoost, X, y, rounds=None) -> np.ndarray:
    """``y f(x) / sum_t |alpha_t|`` for each row: in [-1, 1], positive where the ensemble is right."""
    X = as_matrix(X, "X")
    y = as_labels(y, len(X))
    t = _rounds(model, rounds)
    return y * ensemble_scores(model, X, t) / np.abs(model.alpha[:t]).sum()


def training_error_bound(eps):
    """For weighted errors ``eps`` (T,), the two sides of the bound after each round t:
    ``prod_{s <= t} 2 sqrt(eps_s (1 - eps_s))`` and ``exp(-2 sum_{s <= t} gamma_s^2)``, ``gamma_s = 1/2 - eps_s``.
    The training error after round t is at most the first, which is at most the second."""
    e = np.atleast_1d(np.asarray(eps, dtype=float))
    if e.ndim != 1 or not np.all((e >= 0) & (e <= 1)):
        raise ValueError(f"eps must be a 1-d array of weighted errors in [0, 1]; got {eps}")
    return np.cumprod(adaboost_normaliser(e)), np.exp(-2 * np.cumsum((0.5 - e) ** 2))
