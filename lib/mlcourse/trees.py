"""Lecture 05: classification trees grown greedily by information gain.

Conventions of the lecture:

* a split "``x[feature] <= threshold`` goes left" (scikit-learn's rule); candidate thresholds of a
  feature are the midpoints between its consecutive distinct values;
* the **impurity** ``u`` of class counts: ``"error"`` ``1 - max_y p_y``, ``"gini"`` ``1 - sum_y p_y^2``,
  ``"entropy"`` ``-sum_y p_y log2 p_y`` (bits; ``0 log 0 = 0``); all concave in the proportions;
* the **information gain** of splitting a cell of ``n`` points into ``n_L`` and ``n_R``:
  ``u(C) - n_L/n u(C_L) - n_R/n u(C_R)`` (never negative, since ``u`` is concave);
* ties: of equally good thresholds the smallest, of equally good features the smaller index; a leaf
  predicts its majority label, a tie going to the **larger** label;
* stopping (scikit-learn's definitions): a node is a leaf when it is pure, at ``max_depth``, holds
  fewer than ``min_samples_split`` points, has no split leaving ``min_samples_leaf`` points on each
  side, or when its best split's weighted decrease ``n_node / n * gain`` is below
  ``min_impurity_decrease`` or its gain is not positive.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import argmax_ties_to_largest, as_matrix, positive_int

CRITERIA = ("error", "gini", "entropy")
_TINY = 1e-12  # a gain this small is round-off, not a gain


@dataclass(frozen=True)
class Split:
    """A split "``x[feature] <= threshold`` goes left" and its information gain."""

    feature: int
    threshold: float
    gain: float


@dataclass(frozen=True)
class Tree:
    """A fitted tree, stored flat, one entry per node in the order nodes were created (node 0 is the
    root, then depth first, left before right). At a leaf ``feature = left = right = -1`` and
    ``threshold = nan``. ``counts[node]`` are the training counts of ``classes`` reaching the node."""

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    counts: np.ndarray
    depth: np.ndarray
    classes: np.ndarray

    @property
    def n_nodes(self) -> int:
        return len(self.feature)

    @property
    def n_leaves(self) -> int:
        return int(np.sum(self.left < 0))

    @property
    def max_depth(self) -> int:
        return int(self.depth.max())


# --------------------------------------------------------------------------- impurity and gain


def impurity(counts, criterion="gini"):
    """Impurity of class counts ``(..., K) -> (...)``; a row of zeros has impurity 0.

    >>> float(impurity([2, 2], "entropy")), float(impurity([2, 2], "gini")), float(impurity([3, 1], "error"))
    (1.0, 0.5, 0.25)
    """
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {CRITERIA}; got {criterion!r}")
    counts = np.asarray(counts, dtype=float)
    if counts.ndim == 0 or np.any(counts < 0) or not np.all(np.isfinite(counts)):
        raise ValueError("counts must be an array (..., K) of finite counts >= 0")
    total = counts.sum(axis=-1, keepdims=True)
    p = counts / np.where(total > 0, total, 1.0)
    if criterion == "error":
        u = 1.0 - p.max(axis=-1)
    elif criterion == "gini":
        u = 1.0 - (p * p).sum(axis=-1)
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            u = -np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0)), 0.0).sum(axis=-1)
    return np.where(total[..., 0] > 0, np.maximum(u, 0.0), 0.0)


def _encode(y, n=None, name="y"):
    y = np.asarray(y)
    if y.ndim != 1 or (n is not None and y.shape[0] != n):
        raise ValueError(f"{name} has shape {y.shape}, expected ({n if n is not None else 'n'},): one label per point")
    if y.size == 0:
        raise ValueError(f"{name} is empty")
    if y.dtype.kind not in "iub" and not (y.dtype.kind == "f" and np.all(y == np.round(y))):
        raise ValueError(f"{name} must hold integer labels; got dtype {y.dtype}")
    classes, code = np.unique(y.astype(int), return_inverse=True)
    return classes, code


def label_impurity(y, criterion="gini") -> float:
    """Impurity of the labels in ``y``.

    >>> label_impurity([0, 1, 2, 2], "entropy")
    1.5
    """
    classes, code = _encode(y)
    return float(impurity(np.bincount(code, minlength=len(classes)), criterion))


def information_gain(y, left, criterion="gini") -> float:
    """``u(y) - n_L/n u(y[left]) - n_R/n u(y[~left])`` for a boolean mask ``left``."""
    classes, code = _encode(y)
    left = np.asarray(left)
    if left.shape != code.shape or left.dtype != bool:
        raise ValueError(f"left must be a boolean mask of shape {code.shape}; got {left.dtype} of shape {left.shape}")
    K = len(classes)
    c_all, c_left = np.bincount(code, minlength=K), np.bincount(code[left], minlength=K)
    n, n_left = len(code), int(left.sum())
    u = impurity(np.stack([c_all, c_left, c_all - c_left]), criterion)
    return float(u[0] - (n_left * u[1] + (n - n_left) * u[2]) / n)


# --------------------------------------------------------------------------- best splits


def _candidate_gains(X, code, K, criterion, min_samples_leaf):
    """Gains of every cut of every feature, from cumulative counts: arrays (n - 1, d) of gains
    (-inf where no cut is allowed) and thresholds, for X (n, d) and encoded labels (n,)."""
    n, d = X.shape
    order = np.argsort(X, axis=0, kind="stable")
    xs = np.take_along_axis(X, order, axis=0)
    onehot = np.eye(K)[code[order]]                           # (n, d, K)
    left = np.cumsum(onehot, axis=0)[:-1]                     # counts of the first i points, i = 1..n-1
    total = np.bincount(code, minlength=K)
    right = total - left
    n_left = np.arange(1, n)[:, None]
    gain = impurity(total, criterion) - (n_left * impurity(left, criterion)
                                            + (n - n_left) * impurity(right, criterion)) / n
    valid = (xs[1:] > xs[:-1]) & (n_left >= min_samples_leaf) & (n - n_left >= min_samples_leaf)
    thresholds = (xs[1:] + xs[:-1]) / 2
    return np.where(valid, gain, -np.inf), thresholds


def _best(gains, thresholds, feature_ids):
    if gains.size == 0 or not np.isfinite(gains).any():
        return None
    best = gains.max()
    # of equally good cuts (up to round-off): the smallest feature, then the smallest threshold
    tied = np.argwhere(gains >= best - _TINY)
    j = tied[:, 1].min()
    rows = tied[tied[:, 1] == j, 0]
    i = rows[np.argmin(thresholds[rows, j])]
    return Split(int(feature_ids[j]), float(thresholds[i, j]), float(gains[i, j]))


def best_threshold(x, y, criterion="gini", min_samples_leaf=1):
    """The best split of one feature ``x`` (n,) (``feature = 0``), or None if none is possible.

    >>> best_threshold(np.array([1.0, 2.0, 3.0, 4.0]), np.array([0, 0, 1, 1]))
    Split(feature=0, threshold=2.5, gain=0.5)
    """
    x = np.asarray(x, dtype=float)
    if x.ndim != 1:
        raise ValueError(f"x must be one feature, shape (n,); got shape {x.shape}")
    return best_split(x[:, None], y, criterion, min_samples_leaf)


def best_split(X, y, criterion="gini", min_samples_leaf=1):
    """The best split over all features of ``X`` (n, d), or None if none is possible."""
    X = as_matrix(X, "X")
    classes, code = _encode(y, len(X))
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {CRITERIA}; got {criterion!r}")
    min_samples_leaf = positive_int(min_samples_leaf, "min_samples_leaf")
    if len(X) < 2:
        return None
    gains, thresholds = _candidate_gains(X, code, len(classes), criterion, min_samples_leaf)
    return _best(gains, thresholds, np.arange(X.shape[1]))


# --------------------------------------------------------------------------- growing and predicting


def fit_tree(X, y, criterion="gini", max_depth=None, min_samples_split=2, min_samples_leaf=1,
             min_impurity_decrease=0.0) -> Tree:
    """Grow a classification tree greedily (see the module's conventions for the stopping rules).

    >>> tree = fit_tree(np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([0, 0, 1, 1]))
    >>> tree.n_leaves, float(tree.threshold[0])
    (2, 1.5)
    """
    X = as_matrix(X, "X")
    classes, code = _encode(y, len(X))
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {CRITERIA}; got {criterion!r}")
    if max_depth is not None:
        max_depth = positive_int(max_depth, "max_depth")
    min_samples_split = positive_int(min_samples_split, "min_samples_split")
    min_samples_leaf = positive_int(min_samples_leaf, "min_samples_leaf")
    if not min_impurity_decrease >= 0:
        raise ValueError(f"min_impurity_decrease must be >= 0; got {min_impurity_decrease}")
    K, n = len(classes), len(X)
    nodes = []                                            # [feature, threshold, left, right, depth]
    node_counts = []

    def grow(rows, depth):
        node = len(nodes)
        counts = np.bincount(code[rows], minlength=K)
        nodes.append([-1, np.nan, -1, -1, depth])
        node_counts.append(counts)
        if (np.count_nonzero(counts) <= 1 or (max_depth is not None and depth >= max_depth)
                or len(rows) < max(min_samples_split, 2 * min_samples_leaf)):
            return node
        gains, thresholds = _candidate_gains(X[rows], code[rows], K, criterion, min_samples_leaf)
        split = _best(gains, thresholds, np.arange(X.shape[1]))
        if split is None or split.gain <= _TINY or len(rows) / n * split.gain < min_impurity_decrease:
            return node
        goes_left = X[rows, split.feature] <= split.threshold
        nodes[node][:2] = [split.feature, split.threshold]
        nodes[node][2] = grow(rows[goes_left], depth + 1)
        nodes[node][3] = grow(rows[~goes_left], depth + 1)
        return node

    grow(np.arange(n), 0)
    table = np.array(nodes, dtype=float)
    as_int = lambda col: table[:, col].astype(int)
    return Tree(as_int(0), table[:, 1], as_int(2), as_int(3), np.array(node_counts), as_int(4), classes)


def _leaves(tree: Tree, X, max_depth=None) -> np.ndarray:
    X = as_matrix(X, "X")
    stop = tree.max_depth if max_depth is None else positive_int(max_depth, "max_depth")
    used = tree.feature[tree.feature >= 0]
    if used.size and X.shape[1] <= used.max():
        raise ValueError(f"X has {X.shape[1]} features but the tree splits feature {int(used.max())}")
    node = np.zeros(len(X), dtype=int)
    while True:                                           # all rows one level down at a time
        inner = (tree.left[node] >= 0) & (tree.depth[node] < stop)
        if not inner.any():
            return node
        rows = np.flatnonzero(inner)
        at = node[rows]
        go_left = X[rows, tree.feature[at]] <= tree.threshold[at]
        node[rows] = np.where(go_left, tree.left[at], tree.right[at])


def predict_tree(tree: Tree, X, max_depth=None) -> np.ndarray:
    """The majority label of the leaf each row of ``X`` falls in (ties to the larger label).

    With ``max_depth``, the tree is cut at that depth: the nodes there predict their own majority.
    A greedy split does not depend on the depth limit, so this is the prediction of
    ``fit_tree(..., max_depth=max_depth)`` with the same other arguments."""
    return tree.classes[argmax_ties_to_largest(tree.counts[_leaves(tree, X, max_depth)])]


def tree_error(tree: Tree, X, y) -> float:
    """The fraction of rows of ``X`` whose label ``y`` the tree gets wrong."""
    X = as_matrix(X, "X")
    y = np.asarray(y)
    if y.shape != (len(X),):
        raise ValueError(f"y has shape {y.shape}, expected ({len(X)},)")
    return float(np.mean(predict_tree(tree, X) != y))


def tree_text(tree: Tree, feature_names=None) -> str:
    """An indented listing of the tree, one line per node."""
    names = list(feature_names) if feature_names is not None else None
    lines = []

    def show(node, depth, prefix):
        counts = ", ".join(str(int(c)) for c in tree.counts[node])
        if tree.left[node] < 0:
            label = tree.classes[argmax_ties_to_largest(tree.counts[node])]
            lines.append(f"{'    ' * depth}{prefix}class {label} (counts {counts})")
            return
        j = tree.feature[node]
        name = names[j] if names is not None else f"x[{j}]"
        lines.append(f"{'    ' * depth}{prefix}{name} <= {tree.threshold[node]:.4g} ?  (counts {counts})")
        show(tree.left[node], depth + 1, "yes: ")
        show(tree.right[node], depth + 1, "no:  ")

    show(0, 0, "")
    return "\n".join(lines)
