"""Lecture 10: PAC learning: how many examples are enough, for finite classes and by the VC dimension.

Conventions of the lecture:

* ``eps`` is the accuracy (the excess risk allowed) and ``delta`` the probability of failing, both in
  (0, 1); ``m`` is the sample size; ``class_size`` is ``|H|`` for a finite class (an integer >= 1, as
  large as you like: logarithms of Python integers are exact enough); ``vc_dim`` is the VC dimension;
* **realizable, finite class** (a consistent learner): ``P(some h with risk > eps fits all m examples)
  <= |H| (1 - eps)^m <= |H| e^{-eps m}``, at most ``delta`` once ``m >= (ln|H| + ln(1/delta)) / eps``;
* **agnostic, finite class** (ERM): by Hoeffding's inequality and the union bound every empirical
  risk is within ``t`` of its risk with probability ``>= 1 - 2|H| e^{-2 m t^2}``, and then ERM's excess
  risk is at most ``2t``; with ``t = eps / 2``: ``m >= 2 (ln|H| + ln(2/delta)) / eps^2``;
* **VC dimension** (ERM, agnostic): Shalev-Shwartz and Ben-David, *Understanding Machine Learning*
  (2014), Theorem 6.11: with probability ``>= 1 - delta`` every ``h`` has
  ``|L_D(h) - L_S(h)| <= (4 + sqrt(ln tau_H(2m))) / (delta sqrt(2m))``, with the growth function
  ``tau_H(2m) <= (2em/d)^d`` for ``2m > d + 1`` (Sauer's lemma); ERM's excess risk is at most twice that.
  Its constants are explicit but the bound is loose (``1/delta``, from Markov's inequality).
"""

from __future__ import annotations

import math

import numpy as np

from ._checks import as_matrix, nonnegative_int, open_unit_float, positive_int


def _log_class_size(class_size) -> float:
    if isinstance(class_size, bool) or not isinstance(class_size, (int, float, np.integer, np.floating)):
        raise TypeError(f"class_size must be a number (|H|); got {type(class_size).__name__}")
    if not class_size >= 1 or (isinstance(class_size, float) and not math.isfinite(class_size)):
        raise ValueError(f"class_size must be a finite number >= 1 (a class holds at least one hypothesis); got {class_size}")
    return math.log(class_size)


def realizable_sample_size(eps, delta, class_size) -> int:
    """The smallest ``m`` with ``|H| e^{-eps m} <= delta``: ``ceil((ln|H| + ln(1/delta)) / eps)``."""
    eps, delta = open_unit_float(eps, "eps"), open_unit_float(delta, "delta")
    return max(1, math.ceil((_log_class_size(class_size) + math.log(1 / delta)) / eps))


def agnostic_sample_size(eps, delta, class_size) -> int:
    """The smallest ``m`` with ``2|H| e^{-2 m (eps/2)^2} <= delta``: ``ceil(2 (ln|H| + ln(2/delta)) / eps^2)``."""
    eps, delta = open_unit_float(eps, "eps"), open_unit_float(delta, "delta")
    return max(1, math.ceil(2 * (_log_class_size(class_size) + math.log(2 / delta)) / eps**2))


def realizable_epsilon(m, delta, class_size) -> float:
    """The accuracy a consistent learner is guaranteed with ``m`` examples: ``(ln|H| + ln(1/delta)) / m``."""
    m, delta = positive_int(m, "m"), open_unit_float(delta, "delta")
    return (_log_class_size(class_size) + math.log(1 / delta)) / m


def agnostic_epsilon(m, delta, class_size) -> float:
    """The excess risk ERM is guaranteed with ``m`` examples: ``sqrt(2 ln(2|H|/delta) / m)``."""
    m, delta = positive_int(m, "m"), open_unit_float(delta, "delta")
    return math.sqrt(2 * (_log_class_size(class_size) + math.log(2 / delta)) / m)


def hoeffding_bound(m, t) -> float:
    """``2 e^{-2 m t^2}``: Hoeffding's two-sided bound on ``P(|mean of m draws in [0, 1] - its mean| >= t)``."""
    m = positive_int(m, "m")
    if isinstance(t, bool) or not isinstance(t, (int, float, np.integer, np.floating)) or not t > 0:
        raise ValueError(f"t must be a number > 0; got {t!r}")
    return min(1.0, 2 * math.exp(-2 * m * t * t))


def sauer_bound(m, vc_dim) -> int:
    """``sum_{i=0}^{d} C(m, i)``: Sauer's bound on the growth function of a class of VC dimension ``d``."""
    m = positive_int(m, "m")
    d = nonnegative_int(vc_dim, "vc_dim")
    return sum(math.comb(m, i) for i in range(min(d, m) + 1))


def vc_epsilon(m, delta, vc_dim) -> float:
    """The excess risk of ERM guaranteed with ``m`` examples by the VC bound of the module's notes:
    ``2 (4 + sqrt(ln tau(2m))) / (delta sqrt(2m))`` with ``tau(2m)`` Sauer's bound (exact sum)."""
    m, delta, d = positive_int(m, "m"), open_unit_float(delta, "delta"), nonnegative_int(vc_dim, "vc_dim")
    return 2 * (4 + math.sqrt(math.log(sauer_bound(2 * m, d)))) / (delta * math.sqrt(2 * m))


def vc_sample_size(eps, delta, vc_dim) -> int:
    """The smallest ``m`` with :func:`vc_epsilon` ``<= eps`` (it decreases in ``m``), found by doubling
    and then bisection."""
    eps, delta, d = open_unit_float(eps, "eps"), open_unit_float(delta, "delta"), nonnegative_int(vc_dim, "vc_dim")
    high = 1
    while vc_epsilon(high, delta, d) > eps:
        high *= 2
    low = high // 2
    while high - low > 1:
        middle = (low + high) // 2
        if vc_epsilon(middle, delta, d) > eps:
            low = middle
        else:
            high = middle
    return high


# --------------------------------------------------------------------------- simulation on thresholds

TRUE_THRESHOLD = 0.3141


def threshold_erm_excess_risks(m, class_size, noise=0.0, repetitions=2000, seed=0) -> np.ndarray:
    """The excess risk of the *worst* empirical risk minimiser on each of ``repetitions`` samples of size ``m``.

    The class is the ``class_size`` thresholds ``h_t(x) = 1[x >= t]`` on an even grid of [0, 1]; ``x`` is
    uniform on [0, 1]; the label is ``h_{t*}(x)`` for the grid point ``t*`` nearest :data:`TRUE_THRESHOLD`,
    flipped with probability ``noise`` (in [0, 1/2)). The risk of ``h_t`` is then
    ``noise + (1 - 2 noise) |t - t*|``, so the excess risk of ``h_t`` over the best in the class is
    ``(1 - 2 noise) |t - t*|``. With ``noise = 0`` the minimisers are the consistent hypotheses and this is the
    risk of the worst consistent one. Taking the worst minimiser checks a bound that holds for *every*
    consistent learner (or every ERM), whatever its tie rule. Vectorised over the samples.
    """
    m, class_size = positive_int(m, "m"), positive_int(class_size, "class_size")
    repetitions = positive_int(repetitions, "repetitions")
    if isinstance(noise, bool) or not isinstance(noise, (int, float, np.integer, np.floating)) or not 0 <= noise < 0.5:
        raise ValueError(f"noise must be a number in [0, 1/2); got {noise!r}")
    rng = np.random.default_rng(seed)
    grid = np.linspace(0, 1, class_size)
    truth = grid[np.argmin(np.abs(grid - TRUE_THRESHOLD))]
    distance = np.abs(grid - truth)
    chunk = max(1, 2_000_000 // m)
    excess = []
    for start in range(0, repetitions, chunk):
        r = min(chunk, repetitions - start)
        x = rng.uniform(0, 1, (r, m))
        y = (x >= truth) ^ (rng.uniform(0, 1, (r, m)) < noise)
        # bin b holds grid[b-1] <= x < grid[b]; h_{grid[k]} says 0 exactly on the bins b <= k
        flat = np.arange(r)[:, None] * (class_size + 1) + np.searchsorted(grid, x, side="right")
        ones = np.bincount(flat[y], minlength=r * (class_size + 1)).reshape(r, -1)
        zeros = np.bincount(flat[~y], minlength=r * (class_size + 1)).reshape(r, -1)
        errors = np.cumsum(ones, axis=1)[:, :class_size] + zeros.sum(axis=1, keepdims=True) - np.cumsum(zeros, axis=1)[:, :class_size]
        minimisers = errors == errors.min(axis=1, keepdims=True)
        excess.append((1 - 2 * noise) * np.where(minimisers, distance, 0.0).max(axis=1))
    return np.concatenate(excess)


# --------------------------------------------------------------------------- what a class does on a point set

def _labelings(rows) -> np.ndarray:
    """Distinct rows of a boolean array, in a fixed order (lexicographic)."""
    return np.unique(np.asarray(rows, dtype=bool), axis=0)


def _points_on_a_line(x) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if x.ndim != 1 or x.size == 0 or not np.isfinite(x).all():
        raise ValueError(f"x must be a non-empty 1-d array of finite numbers (points on a line); got shape {x.shape}")
    return x


def threshold_labelings(x) -> np.ndarray:
    """Every labeling of the points ``x`` (shape ``(m,)``) by the thresholds ``h_t(x) = 1[x >= t]``, ``t`` real:
    a boolean array of shape ``(k, m)`` with distinct rows. (``k = m + 1`` for distinct points.)"""
    x = _points_on_a_line(x)
    cuts = np.append(np.unique(x), np.inf)
    return _labelings(x[None, :] >= cuts[:, None])


def interval_labelings(x) -> np.ndarray:
    """Every labeling of the points ``x`` (shape ``(m,)``) by the intervals ``h_{a,b}(x) = 1[a <= x <= b]``
    (``a > b`` gives the empty set): distinct rows of shape ``(k, m)``."""
    x = _points_on_a_line(x)
    ends = np.unique(x)
    inside = (x >= ends[:, None, None]) & (x <= ends[None, :, None])       # [i, j] = the interval [ends_i, ends_j]
    rows = inside[np.triu_indices(len(ends))]
    return _labelings(np.vstack([rows, np.zeros((1, len(x)), dtype=bool)]))


MAX_SUBSET_POINTS = 16


def rectangle_labelings(X) -> np.ndarray:
    """Every labeling of the points ``X`` (shape ``(m, d)``, ``m <= 16``) by axis-aligned rectangles (boxes)
    ``h(x) = 1[lo <= x <= hi]`` coordinate-wise. A subset is picked out exactly when the smallest box around
    it holds no other point; all ``2^m`` subsets are tried at once."""
    X = as_matrix(X)
    m = X.shape[0]
    if m > MAX_SUBSET_POINTS:
        raise ValueError(f"rectangle_labelings tries all 2^m subsets: at most {MAX_SUBSET_POINTS} points; got {m}")
    subsets = (np.arange(2**m)[:, None] >> np.arange(m)[None, :]) & 1 == 1       # (2^m, m)
    lo = np.where(subsets[:, :, None], X[None], np.inf).min(axis=1)
    hi = np.where(subsets[:, :, None], X[None], -np.inf).max(axis=1)
    inside = ((X[None] >= lo[:, None]) & (X[None] <= hi[:, None])).all(axis=2)
    return _labelings(subsets[(inside == subsets).all(axis=1)])


def halfplane_labelings(X) -> np.ndarray:
    """Every labeling of the points ``X`` (shape ``(m, 2)``, in general position: distinct, no three on a
    line) by half-planes ``h(x) = 1[w . x + b >= 0]``.

    A labeling with both labels can be cut by a line through two of the points (move a separating line until
    it meets a point, turn it about that point until it meets another), and a small move of that line gives
    the two points any labels. So the labelings are: all 0, all 1, and for each pair ``i, j`` either side of
    the line through ``x_i`` and ``x_j`` labelled 1, and ``x_i, x_j`` labelled in all four ways. ``O(m^3)`` work, no
    linear programming (the tests check it against lecture 02's separability test)."""
    X = as_matrix(X)
    m = X.shape[0]
    if X.shape[1] != 2:
        raise ValueError(f"X must hold points of the plane, shape (m, 2); got shape {X.shape}")
    i, j = np.triu_indices(m, 1)
    direction = X[j] - X[i]
    offset = X[None, :, :] - X[i][:, None, :]
    side = direction[:, None, 0] * offset[:, :, 1] - direction[:, None, 1] * offset[:, :, 0]   # (pairs, m)
    scale = np.abs(direction).max(axis=1)[:, None] * np.abs(offset).max(axis=2) + 1e-300
    on_line = np.abs(side) <= 1e-9 * scale
    on_line[np.arange(len(i)), i] = on_line[np.arange(len(i)), j] = False
    if on_line.any() or (np.abs(direction).max(axis=1) == 0).any():
        raise ValueError("X must be in general position (distinct points, no three on one line)")
    rows = [np.zeros((1, m), dtype=bool), np.ones((1, m), dtype=bool)]
    for positive_side in (side > 0, side < 0):                    # the line's two orientations
        for label_i, label_j in ((False, False), (False, True), (True, False), (True, True)):
            labels = positive_side.copy()
            labels[np.arange(len(i)), i] = label_i
            labels[np.arange(len(i)), j] = label_j
            rows.append(labels)
    return _labelings(np.vstack(rows))


def shatters(labelings) -> bool:
    """Whether the labelings (rows of a ``(k, m)`` 0/1 array) are all ``2^m`` labelings of the ``m`` points."""
    labelings = np.asarray(labelings)
    if labelings.ndim != 2:
        raise ValueError(f"labelings must be a 2-d array, one labeling per row; got shape {labelings.shape}")
    return len(_labelings(labelings)) == 2 ** labelings.shape[1]
