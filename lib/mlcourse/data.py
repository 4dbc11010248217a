"""Seeded synthetic data sets used across the lectures.

Every generator takes ``rng``: a ``numpy.random.Generator`` or an integer seed. The same seed
gives the same data.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import positive_float, positive_int


@dataclass(frozen=True)
class SeparableData:
    """Points ``X`` (n, d) labelled ``y`` by the unit vector ``w_star`` with margin at least ``gamma``."""

    X: np.ndarray
    y: np.ndarray
    w_star: np.ndarray
    gamma: float


def as_rng(rng) -> np.random.Generator:
    """Accept a Generator or an integer seed; anything else is an error."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    raise TypeError(f"rng must be a numpy Generator or an integer seed; got {type(rng).__name__}")


def separable_with_margin(n: int, d: int, gamma: float, rng, radius: float = 1.0) -> SeparableData:
    """``n`` points uniform in the ball of radius ``radius`` in R^d, at distance >= ``gamma``
    from the hyperplane through 0 orthogonal to a random unit ``w_star``, labelled by its side.

    Requires ``gamma < radius``. The margin of ``w_star`` on the data is at least ``gamma``.
    """
    n, d = positive_int(n, "n"), positive_int(d, "d")
    gamma, radius = positive_float(gamma, "gamma"), positive_float(radius, "radius")
    if gamma >= radius:
        raise ValueError(f"gamma must be smaller than radius; got gamma={gamma}, radius={radius}")
    rng = as_rng(rng)
    w_star = rng.standard_normal(d)
    w_star /= np.linalg.norm(w_star)
    kept = []
    while sum(len(k) for k in kept) < n:
        batch = uniform_in_ball(max(2 * n, 64), d, radius, rng)
        kept.append(batch[np.abs(batch @ w_star) >= gamma])
    X = np.vstack(kept)[:n]
    y = np.where(X @ w_star > 0, 1, -1)
    return SeparableData(X, y, w_star, gamma)


def uniform_in_ball(n: int, d: int, radius: float, rng) -> np.ndarray:
    """``n`` points drawn uniformly from the ball of radius ``radius`` in R^d."""
    rng = as_rng(rng)
    directions = rng.standard_normal((n, d))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    return directions * radius * rng.uniform(size=(n, 1)) ** (1.0 / d)


def two_gaussians(n: int, rng, distance: float = 3.0, spread: float = 1.0, d: int = 2):
    """Two round Gaussian classes of ``n // 2`` and ``n - n // 2`` points.

    Centres at ``-/+ distance / 2`` along the first axis, shifted by (1, 1, ...) so that the best
    boundary does not pass through the origin. Returns ``X`` (n, d) and ``y`` in {-1, +1}
    (negatives first).
    """
    n, d = positive_int(n, "n"), positive_int(d, "d")
    distance, spread = float(distance), positive_float(spread, "spread")
    rng = as_rng(rng)
    n_neg = n // 2
    y = np.r_[-np.ones(n_neg, dtype=int), np.ones(n - n_neg, dtype=int)]
    centres = np.ones((n, d))
    centres[:, 0] += y * distance / 2
    return centres + spread * rng.standard_normal((n, d)), y


def xor_square():
    """The four corners of the unit square labelled by XOR: no line separates them."""
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = np.array([-1, 1, 1, -1])
    return X, y
