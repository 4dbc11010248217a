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
  on the set it picks out; the labelings a class makes on ``n`` points are the rows of an ``(k, n)`` array;
* **lower bounds**: two coins of bias ``1/2 +- gamma`` that no learner tells apart reliably from fewer than about
  ``ln(1/delta) / gamma^2`` flips (:func:`majority_error`, the smallest probability of error there is);
* **half-spaces** in ``R^d``: every labeling of ``d + 1`` points in general position is a half-space's, and
  of ``d + 2`` points all but the two read off an affine dependence (Radon's theorem; :func:`halfspace_verdicts`,
  :func:`radon_labeling`);
* **structural risk minimisation** on nested classes of histogram classifiers (:func:`histogram_erm`);
* exact binomial probabilities without SciPy (:func:`binomial_pmf`, :func:`binomial_cdf`, :func:`binomial_sf`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._checks import _as_float_array, as_matrix, nonnegative_int, open_unit_float, positive_int


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


# --------------------------------------------------------------------------- binomial probabilities, without SciPy

_BLOCK = 256


def _unit_interval(p, name: str) -> float:
    if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number; got {type(p).__name__}")
    if not 0 <= p <= 1:
        raise ValueError(f"{name} must be a probability, in [0, 1]; got {p}")
    return float(p)


def binomial_pmf(n, p) -> np.ndarray:
    """``P(K = k)`` for ``k = 0, ..., n``, ``K ~ Binomial(n, p)``: an array of shape ``(n + 1,)``.

    Lecture 10 computes its probabilities exactly, and importing ``scipy.stats`` costs the lecture most of a
    second. ``ln C(n, k)`` is a cumulative sum of ``ln((n - k + 1) / k)``, restarted every 256 terms from
    ``math.lgamma`` so that rounding does not pile up along a long sum (relative error about ``1e-9`` at
    ``n = 10^5``, far less for small ``n``); ``k ln p + (n - k) ln(1 - p)`` is added and the sum exponentiated
    (probabilities below ``1e-308`` come out as ``0``).

    >>> binomial_pmf(2, 0.5)
    array([0.25, 0.5 , 0.25])
    """
    n, p = nonnegative_int(n, "n"), _unit_interval(p, "p")
    if p in (0.0, 1.0):
        out = np.zeros(n + 1)
        out[0 if p == 0 else n] = 1.0
        return out
    k = np.arange(1, n + 1)
    steps = np.zeros(-(-(n + 1) // _BLOCK) * _BLOCK)
    steps[1:n + 1] = np.log((n - k + 1) / k)                # ln C(n, k) - ln C(n, k - 1)
    steps = steps.reshape(-1, _BLOCK)
    log_n = math.lgamma(n + 1)
    steps[:, 0] = [log_n - math.lgamma(a + 1) - math.lgamma(n - a + 1) for a in range(0, n + 1, _BLOCK)]
    log_comb = np.cumsum(steps, axis=1).ravel()[:n + 1]
    k = np.arange(n + 1)
    return np.exp(log_comb + k * math.log(p) + (n - k) * math.log1p(-p))


def _binomial_tail(k, n, p, upper: bool) -> np.ndarray:
    k = _as_float_array(k, "k") if not np.isscalar(k) or not np.isinf(k) else np.asarray(float(k))
    n, p = _as_float_array(n, "n"), _as_float_array(p, "p")
    try:
        k, n, p = np.broadcast_arrays(k, n, p)
    except ValueError:
        raise ValueError(f"k, n and p must broadcast together; got shapes {np.shape(k)}, {np.shape(n)} and {np.shape(p)}") from None
    if np.any(n < 0) or np.any(n != np.round(n)):
        raise ValueError("n must hold whole numbers >= 0 (numbers of trials)")
    if np.any((p < 0) | (p > 1)):
        raise ValueError("p must hold probabilities, in [0, 1]")
    k = np.floor(k)
    out = np.empty(k.shape)
    pairs = {(float(n.flat[0]), float(p.flat[0]))} if (n == n.flat[0]).all() and (p == p.flat[0]).all() else \
        set(zip(n.ravel().tolist(), p.ravel().tolist()))
    for trials, chance in sorted(pairs):
        where = (n == trials) & (p == chance)
        pmf = binomial_pmf(int(trials), float(chance))
        at = np.clip(k[where], -1, trials).astype(int)         # -1: below every count; trials: above
        if upper:                                             # P(K > k) = sum of pmf[k + 1:], summed from the top
            tails = np.append(np.cumsum(pmf[::-1])[::-1], 0.0)
            out[where] = np.where(at < 0, 1.0, tails[at + 1])
        else:                                                 # P(K <= k) = sum of pmf[:k + 1], summed from the bottom
            heads = np.cumsum(pmf)
            out[where] = np.where(at < 0, 0.0, np.where(at >= trials, 1.0, heads[np.maximum(at, 0)]))
    return out[()]


def binomial_cdf(k, n, p):
    """``P(K <= k)`` for ``K ~ Binomial(n, p)``, as ``scipy.stats.binom.cdf(k, n, p)``: NumPy arrays broadcast
    together, ``k`` any real number (``0`` below ``0``, ``1`` from ``n`` on). Sums of :func:`binomial_pmf` from
    the bottom, so that a small lower tail keeps its relative accuracy. Lecture 10."""
    return _binomial_tail(k, n, p, upper=False)


def binomial_sf(k, n, p):
    """``P(K > k)`` for ``K ~ Binomial(n, p)``, as ``scipy.stats.binom.sf(k, n, p)`` (see :func:`binomial_cdf`),
    summed from the top, so that a small upper tail keeps its relative accuracy. Lecture 10."""
    return _binomial_tail(k, n, p, upper=True)


# --------------------------------------------------------------------------- lower bounds: two coins

def majority_error(m, gamma) -> np.ndarray:
    """The smallest probability of error in telling two coins apart from ``m`` flips (lecture 10's lower bound).

    A label is ``+1`` with probability ``1/2 + s gamma``, the sign ``s`` being ``+1`` or ``-1`` with probability
    ``1/2`` each. From ``m`` labels, the majority vote (a fair coin at a tie) guesses ``s`` wrongly with probability
    ``beta(m) = P(K < m/2) + P(K = m/2) / 2``, ``K ~ Binomial(m, 1/2 + gamma)``; it is the Bayes rule, so no learner
    errs less often on average over ``s``.

    Computed for every ``m`` at once from the identity ``beta(2J - 1) = beta(2J) = gamma sum_{j >= J} C(2j, j)
    (1/4 - gamma^2)^j``: two more flips after ``2J - 1`` change the majority only from a margin of one, which gives
    ``beta(2J + 1) = beta(2J - 1) - gamma C(2J, J) (1/4 - gamma^2)^J``, and ``beta`` tends to ``0`` (at ``m = 0``
    the sum is ``1/(2 gamma)`` by ``sum_j C(2j, j) x^j = (1 - 4x)^(-1/2)``). Where ``beta >= 1e-3`` it is ``1/2`` minus
    the first terms (no cancellation worth the name); below, the tail is summed from its smallest terms, far enough
    that the rest is below ``e^-50`` of it.

    Parameters
    ----------
    m : int or array of ints >= 0, the numbers of flips
    gamma : float in (0, 1/2], the bias

    Returns
    -------
    float or ndarray of the shape of ``m``

    >>> float(majority_error(1, 0.1))   # one flip: wrong when it shows the less likely side
    0.4
    """
    m_array = np.asarray(m)
    if m_array.dtype == bool or not np.issubdtype(m_array.dtype, np.integer) or np.any(m_array < 0):
        raise ValueError(f"m must hold whole numbers >= 0 (numbers of flips); got {m!r}")
    if isinstance(gamma, bool) or not isinstance(gamma, (int, float, np.integer, np.floating)) or not 0 < gamma <= 0.5:
        raise ValueError(f"gamma must be a number in (0, 1/2]; got {gamma!r}")
    gamma = float(gamma)
    first = (m_array + 1) // 2                                  # beta(m) = gamma * tail[ceil(m/2)]
    top = int(first.max(initial=0))
    if gamma == 0.5:                                            # the labels tell s for sure: only m = 0 errs
        return np.where(m_array == 0, 0.5, 0.0)[()]
    decay = -math.log1p(-4 * gamma * gamma)                     # ln of the ratio of terms tends to -decay

    def terms(start, stop):                                     # C(2j, j) (1/4 - gamma^2)^j for start <= j < stop
        j = np.arange(max(start, 1), stop)
        logs = -j * decay + np.cumsum(np.log1p(-0.5 / j))       # the ratio of neighbours is (1 - 1/(2j)) e^-decay
        if start > 1:                                           # anchored at j = start
            logs += start * decay - np.log1p(-0.5 / start) + _log_central(start, decay)
        return np.concatenate(([1.0] if start == 0 else [], np.exp(logs)))

    beta = 0.5 - gamma * np.concatenate(([0.0], np.cumsum(terms(0, top))))          # beta at J = 0, ..., top
    small = np.flatnonzero(beta < 1e-3)
    if small.size:                                              # where 1/2 - (the first terms) would cancel
        start = int(small[0])
        tail = np.cumsum(terms(start, top + int(math.ceil(50 / decay)) + 2)[::-1])[::-1]
        beta[start:] = gamma * tail[:top + 1 - start]
    return beta[first][()]


def _log_central(j: int, decay: float) -> float:
    """``ln(C(2j, j) 4^-j (1 - 4 gamma^2)^j)``, with ``decay = -ln(1 - 4 gamma^2)``, by ``math.lgamma``."""
    return math.lgamma(2 * j + 1) - 2 * math.lgamma(j + 1) - j * math.log(4) - j * decay


# --------------------------------------------------------------------------- half-spaces in R^d: Radon's theorem

@dataclass(frozen=True)
class HalfspaceVerdicts:
    """Every labeling of a few points, decided by half-spaces (see :func:`halfspace_verdicts`).

    Attributes
    ----------
    labelings : ndarray of shape (2^n, n), every labeling (-1 and +1), in the order of ``np.ndindex``
    separable : ndarray of shape (2^n,), bool: whether some half-space makes the labeling
    weights : ndarray of shape (2^n, p): for a separable labeling, ``w`` (the bias first, as
        ``perceptron.add_bias`` lifts the points) with ``y_i (w . z_i) > 0`` for every lifted point ``z_i``;
        NaN for the others
    dependence : ndarray of shape (n,), or None: ``lambda != 0`` with ``sum_i lambda_i z_i = 0`` (unit length,
        its first non-zero entry positive) when ``n = p + 1``; None when ``n <= p``
    """

    labelings: np.ndarray
    separable: np.ndarray
    weights: np.ndarray
    dependence: np.ndarray | None


def halfspace_verdicts(X, bias: bool = True) -> HalfspaceVerdicts:
    """Decide, for every labeling of the points ``X``, whether a half-space makes it, with a witness either way.

    Lecture 10. The points are lifted to ``z_i = (1, x_i)`` (``bias=True``: half-spaces ``w . x + b > 0``; the
    course's ``sign(0) = +1`` makes the same labelings) or kept as they are (``bias=False``: through the origin),
    ``n`` of them in ``R^p``, and must be in general position: ``n <= p`` independent vectors, or ``n = p + 1``
    of which any ``p`` span ``R^p`` up to exact dependences such as three points on a line (the rank must be ``p``).

    * ``n <= p``: every labeling ``y`` is made, by the ``w`` that solves ``z_i . w = y_i``.
    * ``n = p + 1``: the vectors have a dependence ``sum_i lambda_i z_i = 0``. A labeling is impossible exactly when
      the non-zero ``lambda_i y_i`` all have one sign: then ``0 = sum_i lambda_i (w . z_i) = sum_i (lambda_i y_i)
      (y_i w . z_i)`` would be a sum of terms of one sign, one at least non-zero. Otherwise targets ``t_i = y_i c_i``,
      ``c_i > 0``, with ``sum_i lambda_i t_i = 0`` lie in the range of the ``z_i`` (the orthogonal complement of
      ``lambda``), and the ``w`` solving ``z_i . w = t_i`` separates.

    Linear programming (``perceptron.is_linearly_separable``) gives the same verdicts (tests/test_pac.py).
    """
    X = as_matrix(X)
    Z = np.hstack([np.ones((X.shape[0], 1)), X]) if bias else X
    n, p = Z.shape
    if n > p + 1:
        raise ValueError(f"X must hold at most {p + 1} points here (d + {2 if bias else 1} in R^d); got {n}")
    if n > 16:
        raise ValueError(f"halfspace_verdicts tries all 2^n labelings: at most 16 points; got {n}")
    U, s, _ = np.linalg.svd(Z)
    if s[-1] <= 1e-10 * s[0] or len(s) < min(n, p):
        raise ValueError("X must be in general position (the lifted points of full rank: no d + 1 of them on one "
                         "hyperplane when bias=True)")
    labelings = 2 * np.array(list(np.ndindex(*(2,) * n)), dtype=int).reshape(-1, n) - 1
    if n <= p:
        dependence, separable, targets = None, np.ones(len(labelings), dtype=bool), labelings.astype(float)
    else:
        dependence = U[:, p].copy()
        dependence[np.abs(dependence) <= 1e-9 * np.abs(dependence).max()] = 0.0
        dependence *= np.sign(dependence[np.flatnonzero(dependence)[0]])
        a = dependence * labelings
        positive, negative = a > 0, a < 0
        separable = positive.any(axis=1) & negative.any(axis=1)
        with np.errstate(divide="ignore"):
            share = np.where(positive, 1 / positive.sum(axis=1, keepdims=True), 1 / negative.sum(axis=1, keepdims=True))
            c = np.where(a != 0, share / np.abs(np.where(a != 0, a, 1.0)), 1.0)
        targets = labelings * c                                # sum_i lambda_i t_i = 1 - 1 = 0 when separable
    weights = np.linalg.lstsq(Z, targets.T, rcond=None)[0].T
    weights[~separable] = np.nan
    return HalfspaceVerdicts(labelings, separable, weights, dependence)


def radon_labeling(X) -> np.ndarray:
    """The labeling of ``d + 2`` points of ``R^d`` (shape ``(d + 2, d)``, in general position: any ``d + 1`` of them
    affinely independent) that no half-space makes, with the last point labelled ``-1``. Lecture 10.

    The last point is an affine combination of the others, ``x_{d+2} = sum_i alpha_i x_i`` with ``sum_i alpha_i = 1``
    (``alpha``: its barycentric coordinates in the simplex of the first ``d + 1``). So ``lambda = (alpha, -1)`` is
    an affine dependence, and the labels are ``+1`` where ``lambda > 0``, ``-1`` where ``lambda < 0`` (Radon's
    partition: the convex hulls of the two sides meet). The other impossible labeling is its negation.

    >>> radon_labeling([[0.0], [2.0], [1.0]]).tolist()    # on a line: the middle point apart from the ends
    [1, 1, -1]
    """
    X = as_matrix(X)
    m, d = X.shape
    if m != d + 2:
        raise ValueError(f"X must hold d + 2 points of R^d, shape (d + 2, d); got shape {X.shape}")
    A = np.vstack([X[:-1].T, np.ones(d + 1)])
    scale = np.abs(A).max()
    if np.linalg.svd(A, compute_uv=False)[-1] <= 1e-10 * scale * math.sqrt(d + 1):
        raise ValueError("X must be in general position (its first d + 1 points affinely independent)")
    alpha = np.linalg.solve(A, np.append(X[-1], 1.0))
    if np.any(np.abs(alpha) <= 1e-9 * np.abs(alpha).max()):
        raise ValueError("X must be in general position (no d + 1 of the points on one hyperplane)")
    return np.append(np.where(alpha > 0, 1, -1), -1)


# --------------------------------------------------------------------------- structural risk minimisation

@dataclass(frozen=True)
class HistogramRuns:
    """What :func:`histogram_erm` returns: one row per sample, one column per class ``H_0, ..., H_K``.

    Attributes
    ----------
    empirical : ndarray of shape (repetitions, K + 1), the training error of ERM over ``H_k``
    risk : ndarray of shape (repetitions, K + 1), the risk of that ERM
    deviation : ndarray of shape (repetitions, K + 1), ``Delta_k = max over H_k of |R_S(h) - R(h)|``
    best : ndarray of shape (K + 1,), ``R(h_k)``, the smallest risk in ``H_k``
    """

    empirical: np.ndarray
    risk: np.ndarray
    deviation: np.ndarray
    best: np.ndarray


def histogram_erm(n, eta, repetitions=1000, seed=0) -> HistogramRuns:
    """ERM over nested classes of histogram classifiers, on many samples (lecture 10, structural risk minimisation).

    ``x`` is uniform on ``[0, 1)``, cut into ``2^K = len(eta)`` equal cells, and ``P(y = +1 | x in cell c) = eta[c]``.
    The class ``H_k`` (``k = 0, ..., K``) labels each of ``2^k`` equal cells (each a run of ``2^(K - k)`` neighbouring
    cells) ``+1`` or ``-1``: ``|H_k| = 2^(2^k)``, ``H_0 ⊂ H_1 ⊂ ... ⊂ H_K``. Risks and empirical risks add up over the
    cells, so ERM over ``H_k`` takes the majority of each cell (ties, and empty cells, to ``+1``, the larger label),
    and ``max over H_k of R_S(h) - R(h)`` is the sum over the cells of the larger of the two labels' deviations
    (likewise the smallest): ``Delta_k`` exactly, although ``H_k`` has ``2^(2^k)`` members. A sample is drawn as its
    counts per cell and label (multinomial), so the work does not grow with ``n``.
    """
    n, repetitions = positive_int(n, "n"), positive_int(repetitions, "repetitions")
    eta = _as_float_array(eta, "eta")
    cells = eta.size
    if eta.ndim != 1 or cells & (cells - 1) or np.any((eta < 0) | (eta > 1)):
        raise ValueError(f"eta must be a 1-d array of probabilities whose length is a power of 2; got shape {eta.shape}")
    levels = cells.bit_length() - 1
    positives, negatives = _histogram_counts(n, eta, repetitions, np.random.default_rng(seed))
    empirical, risk, deviation = (np.empty((repetitions, levels + 1)) for _ in range(3))
    best = np.empty(levels + 1)
    plus, minus = positives, negatives
    mass_plus, mass_minus = eta / cells, (1 - eta) / cells              # P(x in the cell, y = +1), and y = -1
    for k in range(levels, -1, -1):                                     # from the finest cells, merging neighbours
        if k < levels:
            plus, minus = (a.reshape(repetitions, -1, 2).sum(axis=2) for a in (plus, minus))
            mass_plus, mass_minus = (a.reshape(-1, 2).sum(axis=1) for a in (mass_plus, mass_minus))
        says_plus = plus >= minus
        empirical[:, k] = np.where(says_plus, minus, plus).sum(axis=1) / n
        risk[:, k] = np.where(says_plus, mass_minus, mass_plus).sum(axis=1)
        if_plus, if_minus = minus / n - mass_minus, plus / n - mass_plus   # R_S - R on the cell, for each label
        deviation[:, k] = np.maximum(np.maximum(if_plus, if_minus).sum(axis=1), -np.minimum(if_plus, if_minus).sum(axis=1))
        best[k] = np.minimum(mass_plus, mass_minus).sum()
    return HistogramRuns(empirical, risk, deviation, best)


def _histogram_counts(n, eta, repetitions, rng):
    """The counts of label +1 and of label -1 in each cell, for ``repetitions`` samples of ``n`` examples: a
    multinomial draw, made by splitting each count between the two halves of its cell with a binomial draw
    (the left half gets each example with probability 1/2), level by level, then between the labels with
    probability ``eta``. Vectorised over the samples (NumPy's multinomial loops over them)."""
    counts = np.full((repetitions, 1), n)
    while counts.shape[1] < eta.size:
        left = rng.binomial(counts, 0.5)
        counts = np.stack([left, counts - left], axis=2).reshape(repetitions, -1)
    positives = rng.binomial(counts, eta)
    return positives, counts - positives
