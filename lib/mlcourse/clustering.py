"""Lecture 11: clustering: k-means (Lloyd's algorithm, k-means++), hierarchical clustering, Gaussian mixtures by EM,
and choosing K and judging a clustering (BIC, the silhouette, the adjusted Rand index).

Conventions of the lecture:

* ``X`` has shape ``(n, d)``; ``k`` is the number of clusters ``K`` (the lecture's symbol; the argument keeps the
  lower case of "k-means"); clusters are numbered ``0, ..., K - 1``; ``centres`` has shape ``(K, d)``;
* an argmin over clusters breaks ties to the smallest index (the course's rule);
* the k-means objective is ``J = sum_i ||x_i - c_{z_i}||^2`` (squared distances, no square root);
* hierarchical clustering uses Euclidean distances (not squared) and returns SciPy's linkage format: row ``t``
  merges clusters ``Z[t, 0] < Z[t, 1]`` at height ``Z[t, 2]`` into cluster ``n + t`` of ``Z[t, 3]`` points;
* a mixture has ``weights`` (K,), ``means`` (K, d), ``covariances`` (K, d, d); responsibilities ``resp`` (n, K);
  every density is handled as a log-density; ``covariance_floor`` is added to each covariance's diagonal in
  the M-step (scikit-learn's ``reg_covar``);
* the silhouette and the (adjusted) Rand index take labels of any names (integers or strings): only which points
  share a label matters.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import as_matrix, nonnegative_float, positive_int
from .data import as_rng


@dataclass(frozen=True)
class KMeansResult:
    """The end of one run of Lloyd's algorithm: the centres, the assignment, its objective, the rounds done,
    whether it stopped because an assignment changed nothing, every objective along the way (after the
    first assignment, then after each update and each assignment, alternately), and with ``record`` the
    ``(centres, labels)`` of every round."""

    centres: np.ndarray
    labels: np.ndarray
    objective: float
    n_iter: int
    converged: bool
    objectives: tuple
    history: tuple = ()


@dataclass(frozen=True)
class GMMResult:
    """A Gaussian mixture fitted by EM: its parameters, the responsibilities at the end, the log-likelihood
    at the start of every E-step, the iterations done, whether the rule ``tol`` stopped it, and with
    ``record`` the ``(weights, means, covariances, resp)`` of every iteration."""

    weights: np.ndarray
    means: np.ndarray
    covariances: np.ndarray
    resp: np.ndarray
    log_likelihoods: tuple
    n_iter: int
    converged: bool
    history: tuple = ()


def _frozen(a) -> np.ndarray:
    a = np.array(a)
    a.setflags(write=False)
    return a


def _centres(centres, d: int) -> np.ndarray:
    centres = as_matrix(centres, "centres")
    if centres.shape[1] != d:
        raise ValueError(f"centres must have d = {d} columns to match X; got shape {centres.shape}")
    return centres


def _labels(labels, n: int, k: int) -> np.ndarray:
    labels = np.asarray(labels)
    if labels.shape != (n,) or labels.dtype.kind not in "iu":
        raise ValueError(f"labels must be integers of shape ({n},); got {labels.dtype} of shape {labels.shape}")
    if n and (labels.min() < 0 or labels.max() >= k):
        raise ValueError(f"labels must lie in 0..{k - 1}; found {labels.min()}..{labels.max()}")
    return labels


# --------------------------------------------------------------------------- k-means

def squared_distances(X, centres) -> np.ndarray:
    """``D[i, k] = ||x_i - c_k||^2`` for all pairs at once, as ``||x||^2 + ||c||^2 - 2 x . c`` (one matrix product).
    Round-off can make the expansion slightly negative for a point on a centre: clipped at 0."""
    X = as_matrix(X)
    centres = _centres(centres, X.shape[1])
    D = (X**2).sum(axis=1)[:, None] + (centres**2).sum(axis=1)[None, :] - 2 * X @ centres.T
    return np.maximum(D, 0.0)


def assign(X, centres) -> np.ndarray:
    """The assignment step: the index of each point's nearest centre, ties to the smallest index."""
    return np.argmin(squared_distances(X, centres), axis=1)


def update_centres(X, labels, k, previous=None) -> np.ndarray:
    """The update step: row ``k`` is the mean of the points labelled ``k``. An empty cluster keeps its centre
    from ``previous`` (without ``previous``, an empty cluster is an error)."""
    X = as_matrix(X)
    k = positive_int(k, "k")
    labels = _labels(labels, X.shape[0], k)
    if previous is not None:
        previous = _centres(previous, X.shape[1])
        if previous.shape[0] != k:
            raise ValueError(f"previous must hold k = {k} centres; got shape {previous.shape}")
    return _cluster_means(X, labels, k, previous)


def _cluster_means(X, labels, k, previous):
    """The update step on checked input. The sums of the clusters are one product ``M @ X`` with the (k, n)
    membership matrix ``M[z_i, i] = 1`` while it fits in 32 MB (at n = 10^5, k = d = 10, 0.6 times the time of a
    ``bincount`` per column, and as fast as a SciPy sparse product, which costs a millisecond of overhead on small
    data and a third of a second to import); beyond that, one ``bincount`` per column."""
    n = X.shape[0]
    counts = np.bincount(labels, minlength=k)
    empty = counts == 0
    if empty.any() and previous is None:
        raise ValueError(f"cluster {int(np.flatnonzero(empty)[0])} has no point, and no previous centre was given to keep")
    if k * n <= 4_000_000:
        membership = np.zeros((k, n))
        membership[labels, np.arange(n)] = 1.0
        sums = membership @ X
    else:
        sums = np.column_stack([np.bincount(labels, weights=column, minlength=k) for column in X.T])
    means = sums / np.maximum(counts, 1)[:, None]
    return np.where(empty[:, None], previous, means) if empty.any() else means


def _first_argmin(S):
    """``(np.argmin(S, axis=0), S.min(axis=0))`` for scores ``S`` laid out (k, n): for each point the smallest
    ``j`` at which its column is least, and that least score. ``argmin`` along the short axis takes a step per
    point; ``min`` and ``max`` over the k rows run along the points, and the first minimal ``j`` is the minimal
    one of largest weight ``k - j`` (three times faster at k = 10)."""
    k = S.shape[0]
    least = S.min(axis=0)
    weights = np.arange(k, 0, -1, dtype=np.int16 if k < 2**15 else np.int64)[:, None]
    return (k - ((S == least) * weights).max(axis=0)).astype(np.intp), least


def kmeans_objective(X, centres, labels=None) -> float:
    """``J = sum_i ||x_i - c_{z_i}||^2`` for the given labels (for the nearest centres when ``labels`` is None)."""
    X = as_matrix(X)
    centres = _centres(centres, X.shape[1])
    if labels is None:
        return float(squared_distances(X, centres).min(axis=1).sum())
    labels = _labels(labels, X.shape[0], centres.shape[0])
    return float(((X - centres[labels]) ** 2).sum())


def lloyd(X, centres, max_iter: int = 300, record: bool = False) -> KMeansResult:
    """Lloyd's algorithm from the given centres: assign, update, and again, until an assignment step changes no
    label (or ``max_iter`` rounds). A round is one update and the assignment after it.

    For speed each round computes one matrix of scores ``||c_k||^2 - 2 x_i . c_k`` (the squared distance less
    ``||x_i||^2``, which does not change the nearest centre), on data moved to their mean so that adding
    ``||x_i||^2`` back loses little precision: the recorded ``objectives`` are exact to about ``1e-16`` times
    the data's total squared norm; the final ``objective`` is computed directly. The scores are laid out
    (k, n), one array reused by every round, so that each step after the matrix product runs along the points.

    From the same centres scikit-learn's ``KMeans(init=centres, n_init=1, algorithm="lloyd", tol=0)`` ends with
    the same labels and centres (up to rounding) and counts one iteration more (its last finds no label
    changed), unless a cluster empties: it moves that centre to a far point, where this one keeps it."""
    X = as_matrix(X)
    centres = _centres(centres, X.shape[1])
    max_iter = positive_int(max_iter, "max_iter")
    k, n = centres.shape[0], X.shape[0]
    rows = np.arange(n)
    offset = X.mean(axis=0)
    X, centres = X - offset, centres - offset
    norms = float(np.einsum("ij,ij->", X, X))
    S = np.empty((k, n))

    def scores(c):
        np.matmul(-2.0 * c, X.T, out=S)
        return np.add(S, np.einsum("ij,ij->i", c, c)[:, None], out=S)

    def objective(least_scores):
        return max(norms + float(least_scores.sum()), 0.0)

    labels, least = _first_argmin(scores(centres))
    objectives = [objective(least)]
    history = [(centres + offset, labels.copy())] if record else []
    converged = False
    for n_iter in range(1, max_iter + 1):
        centres = _cluster_means(X, labels, k, previous=centres)
        scores(centres)
        objectives.append(objective(S[labels, rows]))             # new centres, old assignment
        new_labels, least = _first_argmin(S)
        objectives.append(objective(least))
        converged = np.array_equal(new_labels, labels)
        labels = new_labels
        if record:
            history.append((centres + offset, labels.copy()))
        if converged:
            break
    centres = centres + offset
    final = kmeans_objective(X + offset, centres, labels)         # exact, where the scores lose J's last digits
    return KMeansResult(_frozen(centres), _frozen(labels), final, n_iter, converged, tuple(objectives),
                        tuple((_frozen(c), _frozen(z)) for c, z in history))


def _k_of(X, k) -> int:
    k = positive_int(k, "k")
    if k > X.shape[0]:
        raise ValueError(f"k = {k} clusters need at least {k} points; X has {X.shape[0]}")
    return k


def random_init(X, k, seed=0) -> np.ndarray:
    """``k`` distinct rows of ``X``, drawn uniformly without replacement."""
    X = as_matrix(X)
    k = _k_of(X, k)
    return X[as_rng(seed).choice(X.shape[0], size=k, replace=False)].copy()


def kmeans_plus_plus(X, k, seed=0) -> np.ndarray:
    """k-means++ seeding (Arthur and Vassilvitskii, 2007): the first centre a uniformly drawn point, each next
    one a point drawn with probability proportional to its squared distance to the nearest centre so far.
    (One candidate per step; scikit-learn's default "greedy" k-means++ tries several, so seeds do not match.)
    Each draw is the one ``rng.choice(n, p=...)`` makes (the same uniform number against the same cumulative sum),
    without its checks of ``p``, which took two thirds of the time."""
    X = as_matrix(X)
    k = _k_of(X, k)
    rng = as_rng(seed)
    n = X.shape[0]
    norms = (X**2).sum(axis=1)

    def to(c):                                # squared distances to one centre, as squared_distances computes them
        return np.maximum(norms + (c**2).sum() - 2 * (X @ c), 0.0)

    chosen = [int(rng.integers(n))]
    nearest = to(X[chosen[0]])
    for _ in range(1, k):
        total = nearest.sum()
        if total <= 0:                        # every point sits on a centre: any point will do
            chosen.append(int(rng.integers(n)))
        else:                                 # rng.choice(n, p=nearest / total), draw for draw, without its checks
            cdf = np.cumsum(nearest / total)
            chosen.append(int(np.searchsorted(cdf / cdf[-1], rng.random(), side="right")))
        nearest = np.minimum(nearest, to(X[chosen[-1]]))
    return X[chosen].copy()


def kmeans(X, k, init: str = "k-means++", n_init: int = 10, seed=0, max_iter: int = 300) -> KMeansResult:
    """The best of ``n_init`` runs of Lloyd's algorithm (smallest objective), each started by ``init``
    ("k-means++" or "random": random data points); the runs' seeds are drawn from ``seed``."""
    starts = {"k-means++": kmeans_plus_plus, "random": random_init}
    if init not in starts:
        raise ValueError(f"init must be one of {sorted(starts)}; got {init!r}")
    X = as_matrix(X)
    rng = as_rng(seed)
    runs = [lloyd(X, starts[init](X, k, rng), max_iter) for _ in range(positive_int(n_init, "n_init"))]
    return min(runs, key=lambda run: run.objective)


# --------------------------------------------------------------------------- hierarchical clustering

LINKAGES = ("single", "complete", "average")


def linkage(X, method: str) -> np.ndarray:
    """Agglomerative clustering with single, complete or average linkage on Euclidean distances, in SciPy's
    linkage format (see the module's notes). Each step merges the closest pair of clusters (the first pair in
    the order of their numbers when distances tie) and updates the distances to the new cluster by the
    Lance-Williams rule of the linkage. ``O(n^2)`` per merge."""
    if method not in LINKAGES:
        raise ValueError(f"method must be one of {LINKAGES}; got {method!r}")
    X = as_matrix(X)
    n = X.shape[0]
    if n < 2:
        raise ValueError(f"linkage needs at least 2 points; X has {n}")
    D = np.sqrt(squared_distances(X, X))
    np.fill_diagonal(D, np.inf)
    ids, sizes = np.arange(n), np.ones(n)            # the cluster number and size held in each row of D
    active = np.ones(n, dtype=bool)
    Z = np.empty((n - 1, 4))
    for t in range(n - 1):
        i, j = np.unravel_index(np.argmin(D), D.shape)
        i, j = (i, j) if ids[i] < ids[j] else (j, i)
        Z[t] = ids[i], ids[j], D[i, j], sizes[i] + sizes[j]
        if method == "single":
            merged = np.minimum(D[i], D[j])
        elif method == "complete":
            merged = np.maximum(D[i], D[j])
        else:
            merged = (sizes[i] * D[i] + sizes[j] * D[j]) / (sizes[i] + sizes[j])
        D[i], D[:, i] = merged, merged               # row i now holds the new cluster
        D[i, i] = np.inf
        D[j], D[:, j] = np.inf, np.inf               # row j is gone
        ids[i], sizes[i], active[j] = n + t, sizes[i] + sizes[j], False
    return Z


def cut(Z, k) -> np.ndarray:
    """The labels ``0..k-1`` of the ``k`` clusters left after the first ``n - k`` merges of the linkage ``Z``,
    numbered in the order in which the points first appear."""
    Z = np.asarray(Z, dtype=float)
    if Z.ndim != 2 or Z.shape[1] != 4:
        raise ValueError(f"Z must be a linkage matrix of shape (n - 1, 4); got shape {Z.shape}")
    n = Z.shape[0] + 1
    k = positive_int(k, "k")
    if k > n:
        raise ValueError(f"k must be at most the number of points, {n}; got {k}")
    parent = np.arange(2 * n - 1)
    for t in range(n - k):
        parent[int(Z[t, 0])] = parent[int(Z[t, 1])] = n + t
    root = np.arange(n)
    while True:                                      # follow each point up to the last merge it took part in
        up = parent[root]
        if np.array_equal(up, root):
            break
        root = up
    _, first, labels = np.unique(root, return_index=True, return_inverse=True)
    renumber = np.empty(len(first), dtype=int)
    renumber[np.argsort(first)] = np.arange(len(first))
    return renumber[labels]


def minimum_spanning_tree(X) -> np.ndarray:
    """The ``n - 1`` edge lengths (Euclidean) of a minimum spanning tree of the points, sorted (Prim's
    algorithm: grow the tree by the shortest edge from it to a point outside)."""
    X = as_matrix(X)
    n = X.shape[0]
    D = np.sqrt(squared_distances(X, X))
    in_tree = np.zeros(n, dtype=bool)
    in_tree[0] = True
    nearest = D[0].copy()                             # the distance from each point to the tree
    edges = []
    for _ in range(n - 1):
        j = int(np.argmin(np.where(in_tree, np.inf, nearest)))
        edges.append(nearest[j])
        in_tree[j] = True
        nearest = np.minimum(nearest, D[j])
    return np.sort(np.array(edges))


# --------------------------------------------------------------------------- Gaussian mixtures

def _mixture(X, weights, means, covariances):
    X = as_matrix(X)
    means = _centres(means, X.shape[1])
    k, d = means.shape
    weights = np.asarray(weights, dtype=float)
    if weights.shape != (k,) or np.any(weights < 0) or not abs(weights.sum() - 1.0) <= 1e-9:
        raise ValueError(f"weights must be {k} non-negative numbers summing to 1; got {weights!r:.80}")
    covariances = np.asarray(covariances, dtype=float)
    if covariances.shape != (k, d, d):
        raise ValueError(f"covariances must have shape ({k}, {d}, {d}); got {covariances.shape}")
    return X, weights, means, covariances


def _cholesky(covariances) -> np.ndarray:
    try:
        return np.linalg.cholesky(covariances)
    except np.linalg.LinAlgError:
        smallest = [np.linalg.eigvalsh((S + S.T) / 2) for S in covariances]
        bad = int(np.argmin([e[0] / max(abs(e[-1]), 1e-300) for e in smallest]))     # the least definite one
        raise ValueError(f"covariance {bad} is not positive definite (a component collapsed? use a covariance floor)") from None


def gaussian_log_densities(X, means, covariances) -> np.ndarray:
    """``L[i, k] = log N(x_i; mu_k, Sigma_k)``, from Cholesky factors ``Sigma_k = L_k L_k^T``: the quadratic form
    is ``||L_k^{-1}(x - mu_k)||^2`` (one triangular solve) and ``log det Sigma_k = 2 sum log diag L_k``."""
    X = as_matrix(X)
    means = _centres(means, X.shape[1])
    k, d = means.shape
    covariances = np.asarray(covariances, dtype=float)
    if covariances.shape != (k, d, d):
        raise ValueError(f"covariances must have shape ({k}, {d}, {d}); got {covariances.shape}")
    factors = _cholesky(covariances)
    constant = np.log(np.diagonal(factors, axis1=1, axis2=2)).sum(axis=1) + 0.5 * d * np.log(2 * np.pi)
    out = np.empty((X.shape[0], k))
    with np.errstate(over="ignore"):                 # a point beyond 1e154 standard deviations: log-density -inf
        for j in range(k):                           # K is small; each solve is vectorised over the points
            u = np.linalg.solve(factors[j], (X - means[j]).T)
            out[:, j] = -0.5 * (u**2).sum(axis=0) - constant[j]
    return out


def _log_sum_exp(a) -> np.ndarray:
    top = a.max(axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    return (top + np.log(np.exp(a - top).sum(axis=1, keepdims=True)))[:, 0]


def e_step(X, weights, means, covariances):
    """The E-step: ``(resp, log_likelihood)``, with ``resp[i, k] = P(z_i = k | x_i)`` computed in log space
    (``exp(a_ik - LSE_j a_ij)``, ``a_ik = log pi_k + log N(x_i; mu_k, Sigma_k)``) and the log-likelihood
    ``sum_i LSE_k a_ik``."""
    X, weights, means, covariances = _mixture(X, weights, means, covariances)
    with np.errstate(divide="ignore"):               # a weight of 0 gives a = -inf: that component takes nothing
        a = np.log(weights) + gaussian_log_densities(X, means, covariances)
    totals = _log_sum_exp(a)
    return np.exp(a - totals[:, None]), float(totals.sum())


def mixture_log_likelihood(X, weights, means, covariances) -> float:
    """``sum_i log sum_k pi_k N(x_i; mu_k, Sigma_k)``."""
    return e_step(X, weights, means, covariances)[1]


def m_step(X, resp, covariance_floor: float = 1e-6):
    """The M-step: ``(weights, means, covariances)``, the weighted maximum-likelihood estimates
    ``pi_k = n_k / n``, ``mu_k = sum_i r_ik x_i / n_k``, ``Sigma_k = sum_i r_ik (x_i - mu_k)(x_i - mu_k)^T / n_k``,
    with ``n_k = sum_i r_ik``, and ``covariance_floor`` added to each covariance's diagonal."""
    X = as_matrix(X)
    resp = np.asarray(resp, dtype=float)
    if (resp.ndim != 2 or resp.shape[0] != X.shape[0] or np.any(resp < 0)
            or not np.all(np.abs(resp.sum(axis=1) - 1) <= 1e-5 + 1e-8)):          # np.allclose's test, faster
        raise ValueError(f"resp must have shape ({X.shape[0]}, K), entries >= 0 and rows summing to 1; got shape {resp.shape}")
    floor = nonnegative_float(covariance_floor, "covariance_floor")
    counts = resp.sum(axis=0)
    if np.any(counts <= 0):
        raise ValueError(f"component {int(np.flatnonzero(counts <= 0)[0])} has no responsibility for any point")
    means = resp.T @ X / counts[:, None]
    covariances = np.empty((resp.shape[1], X.shape[1], X.shape[1]))
    for j in range(resp.shape[1]):
        centred = X - means[j]
        covariances[j] = (resp[:, j, None] * centred).T @ centred / counts[j]
    return counts / X.shape[0], means, covariances + floor * np.eye(X.shape[1])


def fit_gmm(X, k, means_init=None, weights_init=None, covariances_init=None, seed=0, max_iter: int = 100,
            tol: float = 1e-3, covariance_floor: float = 1e-6, record: bool = False) -> GMMResult:
    """EM for a Gaussian mixture with full covariances. Starts from the given parameters; without them, from
    k-means++ means (``seed``), equal weights and the covariance of ``X`` (plus the floor). Each iteration is an
    E-step then an M-step; it stops when the mean log-likelihood per point changed by less than ``tol`` (the
    rule of scikit-learn's ``GaussianMixture``) or after ``max_iter`` iterations. The final responsibilities come from
    one more E-step at the final parameters."""
    X = as_matrix(X)
    n, d = X.shape
    k = _k_of(X, k)
    floor = nonnegative_float(covariance_floor, "covariance_floor")
    tol = nonnegative_float(tol, "tol")
    means = kmeans_plus_plus(X, k, seed) if means_init is None else _centres(means_init, d)
    weights = np.full(k, 1 / k) if weights_init is None else np.asarray(weights_init, dtype=float)
    if covariances_init is None:
        covariances = np.repeat((np.cov(X.T, bias=True).reshape(d, d) + floor * np.eye(d))[None], k, axis=0)
    else:
        covariances = np.asarray(covariances_init, dtype=float)
    _mixture(X, weights, means, covariances)
    log_likelihoods, history, converged = [], [], False
    for n_iter in range(1, positive_int(max_iter, "max_iter") + 1):
        resp, log_likelihood = e_step(X, weights, means, covariances)
        log_likelihoods.append(log_likelihood)
        weights, means, covariances = m_step(X, resp, floor)
        if record:
            history.append(tuple(_frozen(a) for a in (weights, means, covariances, resp)))
        if n_iter > 1 and abs(log_likelihoods[-1] - log_likelihoods[-2]) / n < tol:      # abs: scikit-learn's test
            converged = True
            break
    resp, _ = e_step(X, weights, means, covariances)
    return GMMResult(_frozen(weights), _frozen(means), _frozen(covariances), _frozen(resp), tuple(log_likelihoods),
                     n_iter, converged, tuple(history))


# --------------------------------------------------------------------------- choosing K and judging a clustering

def mixture_parameter_count(k, d) -> int:
    """The number of free parameters of a mixture of ``k`` Gaussians with full covariances in ``d`` dimensions,
    ``p = (K - 1) + K d + K d (d + 1) / 2``: ``K - 1`` weights (they sum to 1), ``K`` means of ``d`` entries, and
    ``K`` symmetric ``d x d`` covariances of ``d (d + 1) / 2`` free entries each (scikit-learn's ``_n_parameters``
    for ``covariance_type="full"``). Lecture 11."""
    k, d = positive_int(k, "k"), positive_int(d, "d")
    return (k - 1) + k * d + k * d * (d + 1) // 2


def bic(X, weights, means, covariances) -> float:
    """The Bayesian information criterion of a Gaussian mixture (full covariances) on the data ``X``,
    ``BIC = -2 l_hat + p ln n``, with ``l_hat`` the log-likelihood at the given (fitted) parameters and ``p``
    from :func:`mixture_parameter_count`; smaller is better. Equals scikit-learn's ``GaussianMixture.bic`` at
    the same parameters. Lecture 11.

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> round(bic(X, [1.0], [[1.5]], [[[1.25]]]), 4)   # one Gaussian, p = 2: 4 ln(2.5 pi) + 4 + 2 ln 4
    15.0167
    """
    X, weights, means, covariances = _mixture(X, weights, means, covariances)
    k, d = means.shape
    return float(-2.0 * mixture_log_likelihood(X, weights, means, covariances) + mixture_parameter_count(k, d) * np.log(X.shape[0]))


def _codes(labels, name: str, n: int | None = None):
    """The labels of a partition as codes ``0..m-1`` (in the order of the sorted distinct labels) and ``m``: the
    names of the clusters mean nothing, only which points share one."""
    labels = np.asarray(labels)
    if labels.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array of cluster labels; got shape {labels.shape}")
    if n is not None and labels.shape[0] != n:
        raise ValueError(f"{name} must have shape ({n},) to match; got shape {labels.shape}")
    if labels.dtype.kind not in "iubUS":
        raise TypeError(f"{name} must hold integer (or string) cluster labels; got dtype {labels.dtype}")
    distinct, codes = np.unique(labels, return_inverse=True)
    return codes.reshape(-1), len(distinct)


def pairwise_distances(X) -> np.ndarray:
    """``D[i, j] = ||x_i - x_j||`` for all pairs (Euclidean, not squared), from one matrix product on the data moved
    to their mean (:func:`squared_distances`), with a zero diagonal. ``O(n^2)`` memory."""
    X = as_matrix(X)
    X = X - X.mean(axis=0)
    D = np.sqrt(squared_distances(X, X))
    np.fill_diagonal(D, 0.0)
    return D


def silhouette_samples(X, labels) -> np.ndarray:
    """The silhouette of every point, ``s(i) = (b(i) - a(i)) / max(a(i), b(i))``, with ``a(i)`` the mean distance
    from ``x_i`` to the *other* points of its own cluster (divided by ``|C| - 1``: the point itself is left out) and
    ``b(i)`` the smallest, over the other clusters, of the mean distance from ``x_i`` to their points; Euclidean
    distances. A point alone in its cluster gets ``s = 0`` (scikit-learn's convention), and so does a point with
    ``a = b = 0``. The pairwise distances are computed once; the sums over each cluster are one product ``D M``
    with the (n, K) membership matrix. Needs ``2 <= K <= n - 1`` clusters. Lecture 11.

    Examples
    --------
    >>> silhouette_samples(np.array([[0.0], [1.0], [5.0], [6.0]]), [0, 0, 1, 1])  # x = 0: a = 1, b = 5.5
    array([0.81818182, 0.77777778, 0.77777778, 0.81818182])
    """
    X = as_matrix(X)
    n = X.shape[0]
    codes, k = _codes(labels, "labels", n)
    if not 2 <= k <= n - 1:
        raise ValueError(f"the silhouette needs 2 <= K <= n - 1 = {n - 1} clusters; labels name {k}")
    membership = np.zeros((n, k))
    membership[np.arange(n), codes] = 1.0
    sums = pairwise_distances(X) @ membership          # sums[i, k]: the distances from x_i to the points of cluster k
    sizes = membership.sum(axis=0)
    rows = np.arange(n)
    own = sizes[codes]
    a = sums[rows, codes] / np.maximum(own - 1, 1)     # x_i's own distance, 0, is in the sum but not in the count
    others = sums / sizes
    others[rows, codes] = np.inf
    b = others.min(axis=1)
    top = np.maximum(a, b)
    with np.errstate(invalid="ignore", divide="ignore"):
        s = (b - a) / top
    return np.where((own > 1) & (top > 0), s, 0.0)


def silhouette_score(X, labels) -> float:
    """The mean silhouette over the points (:func:`silhouette_samples`), as scikit-learn's ``silhouette_score``
    (Euclidean, no sampling). Lecture 11."""
    return float(silhouette_samples(X, labels).mean())


def contingency_table(labels_a, labels_b) -> np.ndarray:
    """The table ``n_kl`` of two partitions of the same ``n`` points: the number of points in cluster ``k`` of
    ``labels_a`` and cluster ``l`` of ``labels_b`` (rows and columns in the order of the sorted distinct labels).
    Lecture 11."""
    a, rows = _codes(labels_a, "labels_a")
    b, columns = _codes(labels_b, "labels_b", a.shape[0])
    return np.bincount(a * columns + b, minlength=rows * columns).reshape(rows, columns)


def _pair_counts(labels_a, labels_b):
    """``(T, A, B, N)`` as Python integers (exact): the pairs of points together in both partitions, together in
    ``labels_a``, together in ``labels_b``, and all ``N = n (n - 1) / 2`` pairs."""
    table = contingency_table(labels_a, labels_b)
    pairs = lambda m: int((m * (m - 1) // 2).sum())
    n = int(table.sum())
    return pairs(table), pairs(table.sum(axis=1)), pairs(table.sum(axis=0)), n * (n - 1) // 2


def rand_index(labels_a, labels_b) -> float:
    """The Rand index: the fraction of the ``n (n - 1) / 2`` pairs of points on which the two partitions agree (both
    put the pair together, or both apart), ``(N + 2T - A - B) / N`` in the notation of :func:`adjusted_rand_index`.
    Not centred: two unrelated partitions can score close to 1. Lecture 11."""
    T, A, B, N = _pair_counts(labels_a, labels_b)
    if N == 0:
        raise ValueError("the Rand index needs at least 2 points")
    return (N + 2 * T - A - B) / N


def adjusted_rand_index(labels_a, labels_b) -> float:
    """The adjusted Rand index (Hubert and Arabie, 1985) of two partitions of the same points:
    ``(T - E) / ((A + B) / 2 - E)`` with ``T = sum_kl C(n_kl, 2)`` the pairs together in both, ``A = sum_k C(n_k., 2)``
    and ``B = sum_l C(n_.l, 2)`` the pairs together in each (row and column sums of the contingency table), and
    ``E = A B / C(n, 2)`` the expected ``T`` when one labelling is permuted at random (the cluster sizes fixed).
    1 for the same partition (whatever the names of its clusters), 0 on average for unrelated ones, can be
    negative. Computed exactly in integers (times ``C(n, 2)``) up to one division; when the denominator is 0 (both
    partitions a single cluster, or both all singletons, or fewer than 2 points: they agree on every pair) it is 1,
    as scikit-learn's ``adjusted_rand_score``. Lecture 11.

    Examples
    --------
    >>> adjusted_rand_index([0, 0, 1, 1], [5, 5, 3, 3])
    1.0
    >>> round(adjusted_rand_index([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 2, 2]), 4)
    0.2424
    """
    T, A, B, N = _pair_counts(labels_a, labels_b)
    numerator, denominator = 2 * (N * T - A * B), N * (A + B) - 2 * A * B
    return 1.0 if denominator == 0 else numerator / denominator
