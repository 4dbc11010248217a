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

from ._checks import positive_int


def _probability(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number; got {type(value).__name__}")
    if not 0 < value < 1:
        raise ValueError(f"{name} must be strictly between 0 and 1; got {value}")
    return float(value)


def _log_class_size(class_size) -> float:
    if isinstance(class_size, bool) or not isinstance(class_size, (int, float, np.integer, np.floating)):
        raise TypeError(f"class_size must be a number (|H|); got {type(class_size).__name__}")
    if not class_size >= 1 or (isinstance(class_size, float) and not math.isfinite(class_size)):
        raise ValueError(f"class_size must be a finite number >= 1 (a class holds at least one hypothesis); got {class_size}")
    return math.log(class_size)


def realizable_sample_size(eps, delta, class_size) -> int:
    """The smallest ``m`` with ``|H| e^{-eps m} <= delta``: ``ceil((ln|H| + ln(1/delta)) / eps)``."""
    eps, delta = _probability(eps, "eps"), _probability(delta, "delta")
    return max(1, math.ceil((_log_class_size(class_size) + math.log(1 / delta)) / eps))


def agnostic_sample_size(eps, delta, class_size) -> int:
    """The smallest ``m`` with ``2|H| e^{-2 m (eps/2)^2} <= delta``: ``ceil(2 (ln|H| + ln(2/delta)) / eps^2)``."""
    eps, delta = _probability(eps, "eps"), _probability(delta, "delta")
    return max(1, math.ceil(2 * (_log_class_size(class_size) + math.log(2 / delta)) / eps**2))


def realizable_epsilon(m, delta, class_size) -> float:
    """The accuracy a consistent learner is guaranteed with ``m`` examples: ``(ln|H| + ln(1/delta)) / m``."""
    m, delta = positive_int(m, "m"), _probability(delta, "delta")
    return (_log_class_size(class_size) + math.log(1 / delta)) / m


def agnostic_epsilon(m, delta, class_size) -> float:
    """The excess risk ERM is guaranteed with ``m`` examples: ``sqrt(2 ln(2|H|/delta) / m)``."""
    m, delta = positive_int(m, "m"), _probability(delta, "delta")
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
    d = _vc_dim(vc_dim)
    return sum(math.comb(m, i) for i in range(min(d, m) + 1))


def _vc_dim(vc_dim) -> int:
    if isinstance(vc_dim, bool) or not isinstance(vc_dim, (int, np.integer)) or vc_dim < 0:
        raise ValueError(f"vc_dim must be an integer >= 0; got {vc_dim!r}")
    return int(vc_dim)


def vc_epsilon(m, delta, vc_dim) -> float:
    """The excess risk of ERM guaranteed with ``m`` examples by the VC bound of the module's notes:
    ``2 (4 + sqrt(ln tau(2m))) / (delta sqrt(2m))`` with ``tau(2m)`` Sauer's bound (exact sum)."""
    m, delta, d = positive_int(m, "m"), _probability(delta, "delta"), _vc_dim(vc_dim)
    return 2 * (4 + math.sqrt(math.log(sauer_bound(2 * m, d)))) / (delta * math.sqrt(2 * m))


def vc_sample_size(eps, delta, vc_dim) -> int:
    """The smallest ``m`` with :func:`vc_epsilon` ``<= eps`` (it decreases in ``m``), found by doubling
    and then bisection."""
    eps, delta, d = _probability(eps, "eps"), _probability(delta, "delta"), _vc_dim(vc_dim)
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
