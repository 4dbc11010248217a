"""Lecture 05: distances, the k-nearest-neighbour rule, its limit (Cover and Hart), and k-d trees.

Conventions of the lecture:

* points are rows: ``X_train`` (n, d), queries ``X_query`` (m, d); labels are integers of any
  values (``0, ..., K - 1`` on the real data sets, ``-1, +1`` on the synthetic ones);
* the **Minkowski distance** ``||x - z||_p = (sum_j |x_j - z_j|^p)^(1/p)``, ``p = np.inf`` the
  largest coordinate difference. It is a metric for ``p >= 1``; for ``0 < p < 1`` the same formula
  breaks the triangle inequality;
* **ties**: training points at the same distance are taken in their order in the sample (the
  earlier first, a stable sort); a tied vote goes to the **larger** label, the course's rule;
* a **k-d tree** splits a cell with more than ``leaf_size`` points on the coordinate of largest
  spread (``max - min``, ties to the smaller coordinate) at its median: the first ``n_cell // 2``
  points in sorted order go left, and the threshold is the midpoint of the two values at the cut,
  so every left point has ``x_j <= threshold <= x_j`` of every right point.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import argmax_ties_to_largest, as_matrix, positive_int

# --------------------------------------------------------------------------- distances


def _pair(A, B, names=("A", "B")):
    A, B = as_matrix(A, names[0]), as_matrix(B, names[1])
    if A.shape[1] != B.shape[1]:
        raise ValueError(f"{names[0]} has shape {A.shape} and {names[1]} has shape {B.shape}: the points "
                         "must have the same dimension d (the same number of columns)")
    return A, B


def _exponent(p) -> float:
    if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)):
        raise TypeError(f"p must be a number > 0 or np.inf; got {type(p).__name__}")
    if not p > 0:
        raise ValueError(f"p must be > 0 (or np.inf); got {p}")
    return float(p)


def squared_distances(A, B) -> np.ndarray:
    """``D[i, j] = ||A[i] - B[j]||^2`` by one matrix product, ``||a||^2 - 2 a.b + ||b||^2``.

    Both sets are first moved near the mean of ``B`` (distances do not change; the terms that cancel
    become small, and so does their rounding error), and the result is clipped at 0. The centre is
    the mean rounded to a power of two near the spread of ``B``, so that on data of small integers
    (or any grid of such powers) every step is exact and equal distances stay exactly equal: the
    tie rule then sees the ties.

    >>> squared_distances([[0.0, 0.0], [1.0, 0.0]], [[3.0, 4.0]])
    array([[25.],
           [20.]])
    """
    A, B = _pair(A, B)
    centre = _centre(B)
    B = B - centre
    return _gram_distances(A - centre, B, (B * B).sum(axis=1))


def _gram_distances(A, B, B_norms) -> np.ndarray:
    D = A @ (-2.0 * B).T                          # in place from here: one (m, n) array in all
    D += (A * A).sum(axis=1)[:, None]
    D += B_norms[None, :]
    return np.maximum(D, 0.0, out=D)


def _centre(B) -> np.ndarray:
    spread = B.std(axis=0)
    unit = 2.0 ** np.floor(np.log2(np.where(spread > 0, spread, 1.0)))
    return np.round(B.mean(axis=0) / unit) * unit


def minkowski_distances(A, B, p=2.0) -> np.ndarray:
    """``D[i, j] = ||A[i] - B[j]||_p`` for ``p > 0`` or ``p = np.inf`` (not a metric for ``p < 1``).

    >>> minkowski_distances([[0.0, 0.0]], [[3.0, 4.0]], p=1)
    array([[7.]])
    >>> minkowski_distances([[0.0, 0.0]], [[3.0, 4.0]], p=np.inf)
    array([[4.]])
    """
    A, B = _pair(A, B)
    p = _exponent(p)
    if p == 2.0:
        return np.sqrt(squared_distances(A, B))
    diff = np.abs(A[:, None, :] - B[None, :, :])
    if np.isinf(p):
        return diff.max(axis=2)
    if p == 1.0:
        return diff.sum(axis=2)
    return (diff ** p).sum(axis=2) ** (1.0 / p)


def cosine_similarity(A, B) -> np.ndarray:
    """``S[i, j] = A[i] . B[j] / (||A[i]|| ||B[j]||)``; a zero row has no direction and is an error.

    >>> cosine_similarity([[1.0, 0.0]], [[2.0, 0.0], [0.0, 5.0]])
    array([[1., 0.]])
    """
    A, B = _pair(A, B)
    norms = []
    for name, M in (("A", A), ("B", B)):
        n = np.linalg.norm(M, axis=1)
        if np.any(n == 0):
            raise ValueError(f"{name} has a zero row (row {int(np.flatnonzero(n == 0)[0])}): the cosine of a "
                             "zero vector is not defined")
        norms.append(n)
    return np.clip((A @ B.T) / norms[0][:, None] / norms[1][None, :], -1.0, 1.0)


def standardise(X_train, X_other):
    """``(Z_train, Z_other)``: both arrays with the column means of ``X_train`` subtracted and divided by
    its column standard deviations (``np.std``), or by 1 where a column of ``X_train`` is constant.

    >>> standardise(np.array([[1.0, 5.0], [3.0, 5.0]]), np.array([[2.0, 6.0]]))[1]
    array([[0., 1.]])
    """
    X_train, X_other = _pair(X_train, X_other, ("X_train", "X_other"))
    mean, sd = X_train.mean(axis=0), X_train.std(axis=0)
    sd = np.where(sd > 0, sd, 1.0)
    return (X_train - mean) / sd, (X_other - mean) / sd


# --------------------------------------------------------------------------- k-NN


def _train_query(X_train, X_query, k):
    X_train, X_query = _pair(X_train, X_query, ("X_train", "X_query"))
    k = positive_int(k, "k")
    if k > len(X_train):
        raise ValueError(f"k = {k} is larger than the number of training points, {len(X_train)}")
    return X_train, X_query, k


def nearest_neighbours(X_train, X_query, k=1, p=2.0, *, ordered=True) -> np.ndarray:
    """Indices (m, k) of the ``k`` training points nearest to each query, nearer first; points at the
    same distance in the order of ``X_train`` (exactly a stable argsort of each row, first k).
    ``ordered=False`` gives each row's same k indices in no particular order, sooner (for a vote or a
    mean, which do not need the order).

    >>> nearest_neighbours([[0.0], [2.0], [-2.0]], [[1.0]], k=2)
    array([[0, 1]])
    """
    X_train, X_query, k = _train_query(X_train, X_query, k)
    p = _exponent(p)
    if p == 2.0:
        # ranking one query's neighbours needs ||b||^2 - 2 a.b only (||a||^2 is the same for all):
        # one matrix product of [-2a, 1] with [b, ||b||^2], centred first as in squared_distances
        centre = _centre(X_train)
        X_train, X_query = X_train - centre, X_query - centre
        B = np.hstack([X_train, (X_train * X_train).sum(axis=1, keepdims=True)])
        distances = lambda Q: np.hstack([-2.0 * Q, np.ones((len(Q), 1))]) @ B.T
    else:
        distances = lambda Q: minkowski_distances(Q, X_train, p)
    block = max(1, _BLOCK_ENTRIES // len(X_train))               # bounds the memory, not the answer
    return np.concatenate([_k_smallest(distances(X_query[i:i + block]), k, ordered)
                           for i in range(0, len(X_query), block)])


_BLOCK_ENTRIES = 1 << 20        # 8 MiB of float64 distances per block of queries
_SAMPLE = 256                   # columns sampled to bound the k-th smallest entry of a row


def _k_smallest(D, k, ordered=True) -> np.ndarray:
    """Column indices of the k smallest entries of each row of ``D``, smaller first, equal entries in
    column order: exactly ``np.argsort(D, axis=1, kind="stable")[:, :k]``, without sorting all of it.

    The k-th smallest of a sample of columns bounds the k-th smallest of the row from above, so only
    the entries at or below it (a few per cent) are candidates: they go into a narrow matrix, in column
    order, padded with inf, and the exact selection runs on that. ``ordered=False`` returns each row's
    same k columns unsorted."""
    m, n = D.shape
    if k == 1:
        return np.argmin(D, axis=1)[:, None]                   # the first of equal minima: the stable rule
    if n < 4 * _SAMPLE or k > _SAMPLE:
        return _k_smallest_exact(D, k, ordered)
    bound = np.partition(D[:, ::n // _SAMPLE], k - 1, axis=1)[:, k - 1:k]
    row, col = np.divmod(np.flatnonzero(D <= bound), n)         # row by row, columns in order
    count = np.bincount(row, minlength=m)
    slot = np.arange(len(row)) - np.repeat(np.cumsum(count) - count, count)
    narrow, where = np.full((m, count.max()), np.inf), np.zeros((m, count.max()), dtype=np.intp)
    narrow[row, slot], where[row, slot] = D[row, col], col
    return np.take_along_axis(where, _k_smallest_exact(narrow, k, ordered), axis=1)


def _k_smallest_exact(D, k, ordered=True) -> np.ndarray:
    if k == D.shape[1]:
        return np.argsort(D, axis=1, kind="stable") if ordered else np.broadcast_to(np.arange(k), D.shape)
    kth = np.partition(D, k - 1, axis=1)[:, k - 1:k]
    within = D <= kth
    exact = within.sum(axis=1) == k                  # no tie at the k-th distance: take all of them
    chosen = np.empty((len(D), k), dtype=np.intp)
    chosen[exact] = (np.flatnonzero(within[exact]) % D.shape[1]).reshape(-1, k)
    # more than k entries at or below the k-th: the earliest columns among the tied win (rare off a grid)
    tied = ~exact
    if tied.any():
        chosen[tied] = np.sort(np.argsort(D[tied], axis=1, kind="stable")[:, :k], axis=1)
    if not ordered:
        return chosen
    dist = np.take_along_axis(D, chosen, axis=1)
    return np.take_along_axis(chosen, np.argsort(dist, axis=1, kind="stable"), axis=1)


def knn_predict(X_train, y_train, X_query, k=1, p=2.0) -> np.ndarray:
    """The k-NN rule: the most frequent label among the ``k`` nearest training points; a tied vote
    goes to the larger label.

    >>> knn_predict([[0.0], [2.0], [-2.0], [4.0]], [0, 1, 0, 1], [[1.0]], k=2)
    array([1])
    """
    X_train, X_query, k = _train_query(X_train, X_query, k)
    y_train = _labels(y_train, len(X_train))
    labels, code = np.unique(y_train, return_inverse=True)
    nearest = nearest_neighbours(X_train, X_query, k, p, ordered=False)
    m, c = len(X_query), len(labels)
    cells = (np.arange(m)[:, None] * c + code[nearest]).ravel()       # (query, label) of each neighbour
    votes = np.bincount(cells, minlength=m * c).reshape(m, c)
    return labels[argmax_ties_to_largest(votes)]


def knn_error(X_train, y_train, X_test, y_test, k=1, p=2.0) -> float:
    """The fraction of ``X_test`` that the k-NN rule of ``(X_train, y_train)`` misclassifies."""
    X_test = as_matrix(X_test, "X_test")
    y_test = _labels(y_test, len(X_test), "y_test")
    return float(np.mean(knn_predict(X_train, y_train, X_test, k, p) != y_test))


def one_nn_limit(w, eta) -> float:
    """The limit of the 1-NN rule's expected error for a discrete input, with K classes (Lecture 05,
    Cover and Hart): ``R_1NN = sum_v w_v (1 - sum_y eta[v, y] ** 2)``.

    Parameters
    ----------
    w : array of shape (m,)
        The probabilities of the m values of X: non-negative, adding up to 1.
    eta : array of shape (m, K)
        ``eta[v, y] = P(Y = y | X = value v)``: non-negative, each row adding up to 1 (K >= 1).

    Returns
    -------
    float
        ``R_1NN``, at least the Bayes error ``R* = sum_v w_v (1 - max_y eta[v, y])`` and, for K >= 2, at
        most ``R* (2 - K R* / (K - 1))``.

    >>> one_nn_limit([0.5, 0.5], [[1.0, 0.0], [0.5, 0.5]])
    0.25
    """
    w = _probabilities(w, "w", 1)
    eta = _probabilities(eta, "eta", 2)
    if eta.shape[0] != w.shape[0]:
        raise ValueError(f"eta has shape {eta.shape} and w has shape {w.shape}: eta needs one row per value of X "
                         f"({w.shape[0]} rows)")
    return float(w @ (1.0 - (eta * eta).sum(axis=1)))


def _probabilities(a, name, ndim):
    """``a`` as a float array of probabilities adding up to 1 along its last axis, or a clear error."""
    try:
        a = np.asarray(a, dtype=float)
    except (TypeError, ValueError) as err:
        raise TypeError(f"{name} must be an array of probabilities; {err}") from None
    shape = "(m,)" if ndim == 1 else "(m, K)"
    if a.ndim != ndim or 0 in a.shape:
        raise ValueError(f"{name} must be a non-empty array of shape {shape}; got shape {a.shape}")
    if not np.isfinite(a).all() or (a < 0).any():
        raise ValueError(f"{name} must hold probabilities: finite and non-negative")
    sums = a.sum(axis=-1)
    if not np.allclose(sums, 1.0, rtol=0, atol=1e-6):
        where = "" if ndim == 1 else " in every row"
        raise ValueError(f"{name} must add up to 1{where}; got sums from {sums.min():.6g} to {sums.max():.6g}")
    return a


def _labels(y, n, name="y_train"):
    y = np.asarray(y)
    if y.shape != (n,):
        raise ValueError(f"{name} has shape {y.shape}, expected ({n},): one label per point")
    if y.dtype.kind not in "iub" and not (y.dtype.kind == "f" and np.all(y == np.round(y))):
        raise ValueError(f"{name} must hold integer labels; got dtype {y.dtype}")
    return y.astype(int)


# --------------------------------------------------------------------------- k-d trees


@dataclass(frozen=True)
class KDTree:
    """A k-d tree over ``points`` (n, d), stored flat, one entry per node (node 0 is the root).

    A node holds the points ``order[start:stop]`` (indices into ``points``). An inner node splits
    coordinate ``split_dim`` at ``split_value``: its children ``left`` and ``right`` hold the first
    ``(stop - start) // 2`` and the rest of its points sorted on that coordinate. A leaf has
    ``left = right = split_dim = -1`` and ``split_value = nan``.
    """

    points: np.ndarray
    order: np.ndarray
    split_dim: np.ndarray
    split_value: np.ndarray
    left: np.ndarray
    right: np.ndarray
    start: np.ndarray
    stop: np.ndarray
    leaf_size: int


@dataclass(frozen=True)
class KDSearch:
    """The result of one search: the ``index`` (into the tree's points) of the point found, its
    Euclidean ``distance`` to the query, how many point-to-query distances were computed, and how
    many leaves were visited."""

    index: int
    distance: float
    n_distances: int
    n_leaves: int


def build_kd_tree(X, leaf_size=1) -> KDTree:
    """Build a k-d tree: split on the coordinate of largest spread at its median until cells hold at
    most ``leaf_size`` points (or all their points are equal).

    >>> tree = build_kd_tree(np.array([[0.0, 0.0], [0.2, 1.0], [0.4, 0.0], [1.0, 0.0]]), leaf_size=2)
    >>> int(tree.split_dim[0]), float(tree.split_value[0])
    (0, 0.30000000000000004)
    """
    X = as_matrix(X, "X")
    leaf_size = positive_int(leaf_size, "leaf_size")
    order = np.arange(len(X))
    nodes = []                                    # [dim, value, left, right, start, stop]

    def grow(start, stop):
        node = len(nodes)
        nodes.append([-1, np.nan, -1, -1, start, stop])
        idx = order[start:stop]
        if stop - start <= leaf_size:
            return node
        spread = X[idx].max(axis=0) - X[idx].min(axis=0)
        dim = int(np.argmax(spread))
        if spread[dim] == 0:                      # all points equal: nothing to split
            return node
        sorted_idx = idx[np.argsort(X[idx, dim], kind="stable")]
        order[start:stop] = sorted_idx
        cut = start + (stop - start) // 2
        value = (X[order[cut - 1], dim] + X[order[cut], dim]) / 2
        nodes[node][:2] = [dim, value]
        nodes[node][2] = grow(start, cut)
        nodes[node][3] = grow(cut, stop)
        return node

    grow(0, len(X))
    table = np.array(nodes, dtype=float)
    as_int = lambda col: table[:, col].astype(int)
    return KDTree(X, order, as_int(0), table[:, 1], as_int(2), as_int(3), as_int(4), as_int(5), leaf_size)


def _leaf_best(tree, node, q, best):
    idx = tree.order[tree.start[node]:tree.stop[node]]
    dist = np.sqrt(((tree.points[idx] - q) ** 2).sum(axis=1))
    nearest = dist.min()
    i = int(idx[dist == nearest].min())           # the nearest, ties to the smaller index
    if (nearest, i) < (best[1], best[0]):
        best = (i, float(nearest))
    return best, len(idx)


def _query_point(tree, q):
    q = np.asarray(q, dtype=float)
    if q.shape != (tree.points.shape[1],):
        raise ValueError(f"the query has shape {q.shape}, expected ({tree.points.shape[1]},) like the tree's points")
    return q


def kd_nearest(tree: KDTree, q) -> KDSearch:
    """Exact nearest neighbour of ``q`` with backtracking: the near child first, the far child only if
    ``|q[dim] - split_value| <`` the best distance so far (or equal, so that a tie at the split goes
    to the smaller index, as brute force gives it)."""
    q = _query_point(tree, q)
    best, counts = (-1, np.inf), [0, 0]

    def visit(node):
        nonlocal best
        if tree.left[node] < 0:
            best, n = _leaf_best(tree, node, q, best)
            counts[0] += n
            counts[1] += 1
            return
        gap = q[tree.split_dim[node]] - tree.split_value[node]
        near, far = (tree.left[node], tree.right[node]) if gap <= 0 else (tree.right[node], tree.left[node])
        visit(near)
        if abs(gap) <= best[1]:
            visit(far)

    visit(0)
    return KDSearch(best[0], best[1], counts[0], counts[1])


def kd_descend(tree: KDTree, q) -> KDSearch:
    """The "descend only" search: down to the leaf whose cell holds ``q``, and the nearest point of
    that leaf. Fast, but it can miss the true nearest neighbour (lecture 05 shows when)."""
    q = _query_point(tree, q)
    node = 0
    while tree.left[node] >= 0:
        node = tree.left[node] if q[tree.split_dim[node]] <= tree.split_value[node] else tree.right[node]
    best, n = _leaf_best(tree, node, q, (-1, np.inf))
    return KDSearch(best[0], best[1], n, 1)


def kd_query(tree: KDTree, Q, exact=True):
    """Search every row of ``Q``: arrays ``(index, distance, n_distances)``, each of shape (m,)."""
    Q = as_matrix(Q, "Q")
    search = kd_nearest if exact else kd_descend
    found = [search(tree, q) for q in Q]
    return (np.array([f.index for f in found]), np.array([f.distance for f in found]),
            np.array([f.n_distances for f in found]))
