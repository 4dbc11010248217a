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
    order = np.argsort(X, axis=0, kind="stable")
    one_group = np.zeros(len(X), dtype=int)
    node_counts = np.bincount(code, minlength=len(classes))[None, :]
    gain, thresholds = _level_gains(X, order, code, len(classes), np.array([0]), np.array([len(X)]),
                                    one_group, node_counts, criterion, min_samples_leaf)
    j, t, g = _level_best(gain, thresholds, np.array([0]), one_group)
    return Split(int(j[0]), float(t[0]), float(g[0])) if np.isfinite(g[0]) else None


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
    grown = _grow_level_by_level(X, code, len(classes), criterion, max_depth, min_samples_split,
                                 min_samples_leaf, min_impurity_decrease)
    return Tree(*grown, classes)


def _grow_level_by_level(X, code, K, criterion, max_depth, min_samples_split, min_samples_leaf,
                         min_impurity_decrease):
    """The greedy tree of ``fit_tree``, grown one level at a time with every node of the level in the
    same array operations (the recursion node by node gives the same tree, only slower).

    ``order`` holds, for each feature (column), the rows of the unfinished nodes: grouped by node, the
    same groups in every column, sorted by that feature within a group. Cumulative label counts down
    a column, less those before the group, are the left counts of every cut of every node at once."""
    n, d = X.shape
    capacity = 2 * n - 1                                  # a binary tree with n leaves at most
    feature, left, right = (np.full(capacity, -1) for _ in range(3))
    threshold, depth = np.full(capacity, np.nan), np.zeros(capacity, dtype=int)
    counts = np.zeros((capacity, K), dtype=np.int64)
    counts[0] = np.bincount(code, minlength=K)
    order = np.argsort(X, axis=0, kind="stable")
    starts, level, n_nodes, level_depth = np.array([0]), np.array([0]), 1, 0
    while True:
        sizes = np.diff(np.append(starts, len(order)))
        group = np.repeat(np.arange(len(starts)), sizes)            # group of each position
        gain, thresholds = _level_gains(X, order, code, K, starts, sizes, group, counts[level],
                                        criterion, min_samples_leaf)
        best_feature, best_threshold, best_gain = _level_best(gain, thresholds, starts, group)
        can_split = ((np.count_nonzero(counts[level], axis=1) > 1)
                     & (sizes >= max(min_samples_split, 2 * min_samples_leaf))
                     & (best_gain > _TINY) & (sizes / n * best_gain >= min_impurity_decrease))
        if max_depth is not None and level_depth >= max_depth:
            can_split[:] = False
        if not can_split.any():
            break
        parents = level[can_split]
        children = n_nodes + np.arange(2 * len(parents))            # left, right, left, right, ...
        feature[parents], threshold[parents] = best_feature[can_split], best_threshold[can_split]
        left[parents], right[parents] = children[0::2], children[1::2]
        depth[children] = level_depth + 1
        # the rows of the splitting nodes, the side each goes to, and the children's label counts
        splitting = can_split[group]
        rows, at = order[splitting, 0], group[splitting]
        goes_left = np.zeros(n, dtype=bool)
        goes_left[rows] = X[rows, best_feature[at]] <= best_threshold[at]
        rank = (np.cumsum(can_split) - 1)[at]                       # 0, 1, ... among splitting nodes
        child = 2 * rank + ~goes_left[rows]
        counts[children] = np.bincount(child * K + code[rows], minlength=len(children) * K).reshape(-1, K)
        order, starts = _partition(order[splitting], rank, goes_left, sizes[can_split])
        level, n_nodes, level_depth = children, n_nodes + len(children), level_depth + 1
    return _depth_first(feature[:n_nodes], threshold[:n_nodes], left[:n_nodes], right[:n_nodes],
                        counts[:n_nodes], depth[:n_nodes])


def _level_gains(X, order, code, K, starts, sizes, group, node_counts, criterion, min_samples_leaf):
    """Gain (m, d) of the cut after each position of each column (``-inf`` where no cut is allowed)
    and its threshold, for all groups of ``order`` at once: ``[W(C) - W(C_L) - W(C_R)] / n_C`` with
    ``W`` the weighted impurity ``n u`` (the gain's definition multiplied through by ``n_C``)."""
    m = len(order)
    running = np.cumsum(np.eye(K, dtype=np.int64)[code[order]], axis=0)       # (m, d, K)
    before = np.where((starts > 0)[:, None, None], running[starts - 1], 0)     # counts before each group
    left_counts = running - before[group]
    right_counts = node_counts[group][:, None, :] - left_counts
    n_node = sizes[group][:, None]
    n_left = (np.arange(m) - starts[group] + 1)[:, None]
    table = _weighted_impurity_table(criterion, int(sizes.max()))
    gain = (_weighted_impurity(node_counts, sizes, criterion, table)[group][:, None]
            - _weighted_impurity(left_counts, n_left, criterion, table)
            - _weighted_impurity(right_counts, n_node - n_left, criterion, table)) / n_node
    xs = np.take_along_axis(X, order, axis=0)
    valid = np.zeros(gain.shape, dtype=bool)
    valid[:-1] = ((group[1:] == group[:-1])[:, None] & (xs[1:] > xs[:-1])
                  & (n_left[:-1] >= min_samples_leaf) & (n_node[:-1] - n_left[:-1] >= min_samples_leaf))
    thresholds = np.zeros(gain.shape)
    thresholds[:-1] = (xs[1:] + xs[:-1]) / 2
    return np.where(valid, gain, -np.inf), thresholds


def _weighted_impurity_table(criterion, n_max):
    """For entropy, ``c log2 c`` of every count ``c = 0 .. n_max`` (``0 log 0 = 0``), looked up, not
    recomputed, for the millions of counts of a level."""
    if criterion != "entropy":
        return None
    c = np.arange(n_max + 1, dtype=float)
    return c * np.log2(np.maximum(c, 1.0))


def _weighted_impurity(counts, n, criterion, table):
    """``n u(counts)`` for integer counts (..., K) summing to ``n`` (...): ``n - max_y c_y`` (error),
    ``n - sum_y c_y^2 / n`` (Gini), ``n log2 n - sum_y c_y log2 c_y`` (entropy); 0 where ``n = 0``."""
    if criterion == "error":
        return n - counts.max(axis=-1)
    if criterion == "gini":
        return n - (counts * counts).sum(axis=-1) / np.maximum(n, 1)
    return table[n] - table[counts].sum(axis=-1)


def _level_best(gain, thresholds, starts, group):
    """Per group: the best cut's feature, threshold and gain (gain ``-inf`` where there is none). Of
    cuts within ``_TINY`` of the best: the smallest feature, then the smallest threshold."""
    m, d = gain.shape
    best = np.maximum.reduceat(gain.max(axis=1), starts)
    tied = gain >= (best[group] - _TINY)[:, None]
    score = np.where(tied & np.isfinite(gain), np.arange(d)[None, :] * m + np.arange(m)[:, None], d * m)
    pick = np.minimum.reduceat(score.min(axis=1), starts)
    found = pick < d * m
    j, i = np.where(found, pick // m, 0), np.where(found, pick % m, 0)
    return j, thresholds[i, j], np.where(found, gain[i, j], -np.inf)


def _partition(order, group, goes_left, sizes):
    """The next level's ``order`` and group starts: each group (numbered 0, 1, ...; ``sizes`` long)
    becomes its left rows, then its right rows, in the same sorted order within each column (a stable
    partition, all columns at once)."""
    m, d = order.shape
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    is_left = goes_left[order]                                       # (m, d)
    left_before = np.cumsum(is_left, axis=0) - is_left               # lefts before each position
    left_before -= left_before[starts][group]                        # ... within its group
    n_left = np.add.reduceat(is_left[:, 0].astype(int), starts)
    offset = np.arange(m)[:, None] - starts[group][:, None]          # position within the group
    new_position = starts[group][:, None] + np.where(is_left, left_before,
                                                     n_left[group][:, None] + offset - left_before)
    new_order = np.empty_like(order)
    np.put_along_axis(new_order, new_position, order, axis=0)
    child_starts = np.stack([starts, starts + n_left], axis=1).ravel()
    return new_order, child_starts


def _depth_first(feature, threshold, left, right, counts, depth):
    """Renumber the nodes in depth-first order (root, then its left subtree, then its right)."""
    preorder, stack = [], [0]
    while stack:
        v = stack.pop()
        preorder.append(v)
        if left[v] >= 0:
            stack += [right[v], left[v]]
    preorder = np.array(preorder)
    new_id = np.empty(len(preorder), dtype=int)
    new_id[preorder] = np.arange(len(preorder))
    relabel = lambda child: np.where(child >= 0, new_id[np.maximum(child, 0)], -1)
    return (feature[preorder], threshold[preorder], relabel(left[preorder]), relabel(right[preorder]),
            counts[preorder], depth[preorder])


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
