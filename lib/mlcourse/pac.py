"""Lecture 10: PAC learning: how many examples are enough, for finite classes and by the VC dimension.

Conventions of the lecture:

* ``eps`` is the accuracy (the excess risk allowed) and ``delta`` the probability of failing, both in
  (0, 1); ``n`` is the sample size; ``class_size`` is ``|H|`` for a finite class (an integer >= 1, as
  large as you like: logarithms of Python integers are exact enough); ``vc_dim`` is the VC dimension;
* **realizable, finite class** (a consistent learner): ``P(some h with risk > eps fits all n examples)
  <= |H| (1 - eps)^n <= |H| e^{-eps n}``, at most ``delta`` once ``n >= (ln|H| + ln(1/delta)) / eps``;
* **agnostic, finite class** (ERM): by Hoeffding's inequality and the union bound every empirical
  risk is within ``t`` of its risk with probability ``>= 1 - 2|H| e^{-2 n t^2}``, and then ERM's excess
  risk is at most ``2t``; with ``t = eps / 2``: ``n >= 2 (ln|H| + ln(2/delta)) / eps^2``;
* **VC dimension** (ERM, agnostic): Shalev-Shwartz and Ben-David, *Understanding Machine Learning*
  (2014), Theorem 6.11: with probability ``>= 1 - delta`` every ``h`` has
  ``|R(h) - R_S(h)| <= (4 + sqrt(ln tau_H(2n))) / (delta sqrt(2n))``, with the growth function
  ``tau_H(2n) <= sum_{i <= d} C(2n, i)`` (Sauer's lemma; at most ``(2en/d)^d`` once ``2n >= d``); ERM's excess risk is at most twice that.
  Its constants are explicit but the bound is loose (``1/delta``, from Markov's inequality);
* labels are -1 and +1 (the course's convention for PAC): a threshold, an interval or a rectangle says +1
  on the set it picks out; the labelings a class makes on ``n`` points are the rows of an ``(k, n)`` array.
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
    """The smallest ``n`` with ``|H| e^{-eps n} <= delta``: ``ceil((ln|H| + ln(1/delta)) / eps)``."""
    eps, delta = open_unit_float(eps, "eps"), open_unit_float(delta, "delta")
    return max(1, math.ceil((_log_class_size(class_size) + math.log(1 / delta)) / eps))


def agnostic_sample_size(eps, delta, class_size) -> int:
    """The smallest ``n`` with ``2|H| e^{-2 n (eps/2)^2} <= delta``: ``ceil(2 (ln|H| + ln(2/delta)) / eps^2)``."""
    eps, delta = open_unit_float(eps, "eps"), open_unit_float(delta, "delta")
    return max(1, math.ceil(2 * (_log_class_size(class_size) + math.log(2 / delta)) / eps**2))


def realizable_epsilon(n, delta, class_size) -> float:
    """The accuracy a consistent learner is guaranteed with ``n`` examples: ``(ln|H| + ln(1/delta)) / n``."""
    n, delta = positive_int(n, "n"), open_unit_float(delta, "delta")
    return (_log_class_size(class_size) + math.log(1 / delta)) / n


def agnostic_epsilon(n, delta, class_size) -> float:
    """The excess risk ERM is guaranteed with ``n`` examples: ``sqrt(2 ln(2|H|/delta) / n)``."""
    n, delta = positive_int(n, "n"), open_unit_float(delta, "delta")
    return math.sqrt(2 * (_log_class_size(class_size) + math.log(2 / delta)) / n)


def hoeffding_bound(n, t) -> float:
    """``2 e^{-2 n t^2}``: Hoeffding's two-sided bound on ``P(|mean of n draws in [0, 1] - its mean| >= t)``."""
    n = positive_int(n, "n")
    if isinstance(t, bool) or not isinstance(t, (int, float, np.integer, np.floating)) or not t > 0:
        raise ValueError(f"t must be a number > 0; got {t!r}")
    return min(1.0, 2 * math.exp(-2 * n * t * t))


def sauer_bound(n, vc_dim) -> int:
    """``sum_{i=0}^{d} C(n, i)``: Sauer's bound on the growth function of a class of VC dimension ``d``."""
    n = positive_int(n, "n")
    d = nonnegative_int(vc_dim, "vc_dim")
    return sum(math.comb(n, i) for i in range(min(d, n) + 1))


def vc_epsilon(n, delta, vc_dim) -> float:
    """The excess risk of ERM guaranteed with ``n`` examples by the VC bound of the module's notes:
    ``2 (4 + sqrt(ln tau(2m))) / (delta sqrt(2m))`` with ``tau(2m)`` Sauer's bound (exact sum)."""
    n, delta, d = positive_int(n, "n"), open_unit_float(delta, "delta"), nonnegative_int(vc_dim, "vc_dim")
    return 2 * (4 + math.sqrt(math.log(sauer_bound(2 * n, d)))) / (delta * math.sqrt(2 * n))


def vc_sample_size(eps, delta, vc_dim) -> int:
    """The smallest ``n`` with :func:`vc_epsilon` ``<= eps`` (it decreases in ``n``), found by doubling
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


def threshold_erm_excess_risks(n, class_size, noise=0.0, repetitions=2000, seed=0) -> np.ndarray:
    """The excess risk of the *worst* empirical risk minimiser on each of ``repetitions`` samples of size ``n``.

    The class is the ``class_size`` thresholds ``h_t(x) = +1 if x >= t else -1`` on an even grid of [0, 1]; ``x`` is
    uniform on [0, 1]; the label is ``h_{t*}(x)`` for the grid point ``t*`` nearest :data:`TRUE_THRESHOLD`,
    flipped with probability ``noise`` (in [0, 1/2)). The risk of ``h_t`` is then
    ``noise + (1 - 2 noise) |t - t*|``, so the excess risk of ``h_t`` over the best in the class is
    ``(1 - 2 noise) |t - t*|``. With ``noise = 0`` the minimisers are the consistent hypotheses and this is the
    risk of the worst consistent one. Taking the worst minimiser checks a bound that holds for *every*
    consistent learner (or every ERM), whatever its tie rule. Vectorised over the samples.
    """
    excess = []
    for errors, grid, truth, noise in _threshold_errors(n, class_size, noise, repetitions, seed):
        minimisers = errors == errors.min(axis=1, keepdims=True)
        excess.append((1 - 2 * noise) * np.where(minimisers, np.abs(grid - truth), 0.0).max(axis=1))
    return np.concatenate(excess)


def threshold_uniform_deviations(n, class_size, noise=0.0, repetitions=2000, seed=0) -> np.ndarray:
    """``Delta = max_h |R_S(h) - R(h)|`` over the thresholds of :func:`threshold_erm_excess_risks` (the same
    class, distribution and draws for the same arguments), one value per sample."""
    deviations = []
    for errors, grid, truth, noise in _threshold_errors(n, class_size, noise, repetitions, seed):
        risks = noise + (1 - 2 * noise) * np.abs(grid - truth)
        deviations.append(np.abs(errors / int(n) - risks).max(axis=1))
    return np.concatenate(deviations)


def _threshold_errors(n, class_size, noise, repetitions, seed):
    """Yields, a chunk of samples at a time, the number of errors of every grid threshold on each sample
    (an array of shape ``(samples, class_size)``), with the grid, the true threshold and the noise."""
    n, class_size = positive_int(n, "n"), positive_int(class_size, "class_size")
    repetitions = positive_int(repetitions, "repetitions")
    if isinstance(noise, bool) or not isinstance(noise, (int, float, np.integer, np.floating)) or not 0 <= noise < 0.5:
        raise ValueError(f"noise must be a number in [0, 1/2); got {noise!r}")
    rng = np.random.default_rng(seed)
    grid = np.linspace(0, 1, class_size)
    truth = grid[np.argmin(np.abs(grid - TRUE_THRESHOLD))]
    chunk = max(1, 2_000_000 // n)
    for start in range(0, repetitions, chunk):
        r = min(chunk, repetitions - start)
        x = rng.uniform(0, 1, (r, n))
        y = x >= truth
        if noise:                                      # (no draws spent on flips that cannot happen)
            y ^= rng.uniform(0, 1, (r, n)) < noise
        # bin b holds grid[b-1] <= x < grid[b]; h_{grid[k]} says -1 exactly on the bins b <= k
        flat = np.arange(r)[:, None] * (class_size + 1) + _grid_bins(x, grid)
        ones = np.bincount(flat[y], minlength=r * (class_size + 1)).reshape(r, -1)
        zeros = np.bincount(flat[~y], minlength=r * (class_size + 1)).reshape(r, -1)
        yield (np.cumsum(ones, axis=1)[:, :class_size] + zeros.sum(axis=1, keepdims=True)
               - np.cumsum(zeros, axis=1)[:, :class_size]), grid, truth, float(noise)


def _grid_bins(x, grid):
    """``np.searchsorted(grid, x, side="right")`` for the even grid ``linspace(0, 1, K)`` and ``x`` in [0, 1],
    by arithmetic (several times faster), then mended where rounding put ``x`` on the wrong side of a point."""
    steps = len(grid) - 1
    if steps == 0:
        return (x >= grid[0]).astype(np.intp)
    bins = np.minimum(np.floor(x * steps).astype(np.intp) + 1, len(grid))
    bins -= grid[bins - 1] > x
    bins += (bins < len(grid)) & (grid[np.minimum(bins, steps)] <= x)
    return bins


# --------------------------------------------------------------------------- what a class does on a point set

def _labelings(rows) -> np.ndarray:
    """The distinct rows of a boolean array (True: inside the set) as labels -1 and +1, in lexicographic order."""
    return np.unique(np.where(np.asarray(rows, dtype=bool), 1, -1).astype(np.int8), axis=0)


def _points_on_a_line(x) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if x.ndim != 1 or x.size == 0 or not np.isfinite(x).all():
        raise ValueError(f"x must be a non-empty 1-d array of finite numbers (points on a line); got shape {x.shape}")
    return x


def threshold_labelings(x) -> np.ndarray:
    """Every labeling of the points ``x`` (shape ``(n,)``) by the thresholds ``h_t(x) = +1 if x >= t
    else -1``, ``t`` real: an array of labels -1 and +1 of shape ``(k, n)``, one labeling per row, the rows
    distinct. (``k = n + 1`` for distinct points.)"""
    x = _points_on_a_line(x)
    cuts = np.append(np.unique(x), np.inf)
    return _labelings(x[None, :] >= cuts[:, None])


def interval_labelings(x) -> np.ndarray:
    """Every labeling of the points ``x`` (shape ``(n,)``) by the intervals ``h_{a,b}(x) = +1 if a <= x <= b
    else -1`` (``a > b``: the empty interval, all -1): distinct rows of -1 and +1, shape ``(k, n)``."""
    x = _points_on_a_line(x)
    ends = np.unique(x)
    inside = (x >= ends[:, None, None]) & (x <= ends[None, :, None])       # [i, j] = the interval [ends_i, ends_j]
    rows = inside[np.triu_indices(len(ends))]
    return _labelings(np.vstack([rows, np.zeros((1, len(x)), dtype=bool)]))


MAX_SUBSET_POINTS = 16


def rectangle_labelings(X) -> np.ndarray:
    """Every labeling of the points ``X`` (shape ``(n, d)``, ``n <= 16``) by axis-aligned rectangles (boxes),
    ``h(x) = +1`` if ``lo <= x <= hi`` coordinate-wise and ``-1`` otherwise (rows of -1 and +1). A subset is picked out exactly when the smallest box around
    it holds no other point; all ``2^n`` subsets are tried at once."""
    X = as_matrix(X)
    n = X.shape[0]
    if n > MAX_SUBSET_POINTS:
        raise ValueError(f"rectangle_labelings tries all 2^n subsets: at most {MAX_SUBSET_POINTS} points; got {n}")
    subsets = (np.arange(2**n)[:, None] >> np.arange(n)[None, :]) & 1 == 1       # (2^n, n)
    lo = np.where(subsets[:, :, None], X[None], np.inf).min(axis=1)
    hi = np.where(subsets[:, :, None], X[None], -np.inf).max(axis=1)
    inside = ((X[None] >= lo[:, None]) & (X[None] <= hi[:, None])).all(axis=2)
    return _labelings(subsets[(inside == subsets).all(axis=1)])


def halfplane_labelings(X) -> np.ndarray:
    """Every labeling of the points ``X`` (shape ``(n, 2)``, in general position: distinct, no three on a
    line) by half-planes ``h(x) = sign(w . x + b)``
    (``sign(0) = +1``), as distinct rows of -1 and +1.

    A labeling with both labels can be cut by a line through two of the points (move a separating line until
    it meets a point, turn it about that point until it meets another), and a small move of that line gives
    the two points any labels. So the labelings are: all -1, all +1, and for each pair ``i, j`` either side
    of the line through ``x_i`` and ``x_j`` labelled +1, and ``x_i, x_j`` labelled in all four ways. ``O(n^3)`` work, no
    linear programming (the tests check it against lecture 02's separability test)."""
    X = as_matrix(X)
    n = X.shape[0]
    if X.shape[1] != 2:
        raise ValueError(f"X must hold points of the plane, shape (n, 2); got shape {X.shape}")
    i, j = np.triu_indices(n, 1)
    direction = X[j] - X[i]
    offset = X[None, :, :] - X[i][:, None, :]
    side = direction[:, None, 0] * offset[:, :, 1] - direction[:, None, 1] * offset[:, :, 0]   # (pairs, n)
    scale = np.abs(direction).max(axis=1)[:, None] * np.abs(offset).max(axis=2) + 1e-300
    on_line = np.abs(side) <= 1e-9 * scale
    on_line[np.arange(len(i)), i] = on_line[np.arange(len(i)), j] = False
    if on_line.any() or (np.abs(direction).max(axis=1) == 0).any():
        raise ValueError("X must be in general position (distinct points, no three on one line)")
    rows = [np.zeros((1, n), dtype=bool), np.ones((1, n), dtype=bool)]
    for positive_side in (side > 0, side < 0):                    # the line's two orientations
        for label_i, label_j in ((False, False), (False, True), (True, False), (True, True)):
            labels = positive_side.copy()
            labels[np.arange(len(i)), i] = label_i
            labels[np.arange(len(i)), j] = label_j
            rows.append(labels)
    return _labelings(np.vstack(rows))


def shatters(labelings) -> bool:
    """Whether the labelings (the rows of a ``(k, n)`` array of two labels) are all ``2^n`` labelings of the
    ``n`` points: whether the class that made them shatters the points."""
    labelings = np.asarray(labelings)
    if labelings.ndim != 2:
        raise ValueError(f"labelings must be a 2-d array, one labeling per row; got shape {labelings.shape}")
    return len(np.unique(labelings, axis=0)) == 2 ** labelings.shape[1] and len(np.unique(labelings)) <= 2
