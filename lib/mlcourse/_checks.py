"""Input validation shared by the modules: clear errors that name the argument and what was seen."""

from __future__ import annotations

import numpy as np


def as_matrix(X, name: str = "X") -> np.ndarray:
    """Return ``X`` as a float array of shape (n, d), or raise naming what was wrong."""
    X = _as_float_array(X, name)
    if X.ndim != 2:
        raise ValueError(f"{name} must be a 2-d array of shape (n, d); got shape {X.shape}")
    if X.shape[0] == 0:
        raise ValueError(f"{name} has no rows (shape {X.shape}); at least one point is needed")
    return X


def as_vector(v, name: str, size: int | None = None) -> np.ndarray:
    """Return ``v`` as a float array of shape (size,), or raise naming what was wrong."""
    v = _as_float_array(v, name)
    if v.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array; got shape {v.shape}")
    if size is not None and v.shape[0] != size:
        raise ValueError(f"{name} has shape {v.shape}, expected ({size},)")
    return v


def as_labels(y, n: int, name: str = "y") -> np.ndarray:
    """Return labels ``y`` in {-1, +1} as an int array of shape (n,)."""
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"{name} must have shape ({n},) to match the rows of X; got shape {y.shape}")
    if not np.isin(y, (-1, 1)).all():
        seen = np.unique(y)[:5]
        raise ValueError(f"{name} must hold labels -1 and +1 only; found values {seen.tolist()}")
    return y.astype(int)


def positive_int(value, name: str) -> int:
    """Return ``value`` as an int >= 1, or raise naming it."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer; got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1; got {value}")
    return int(value)


def positive_float(value, name: str) -> float:
    """Return ``value`` as a float > 0, or raise naming it."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number; got {type(value).__name__}")
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0; got {value}")
    return float(value)


def nonnegative_float(value, name: str) -> float:
    """Return ``value`` as a float >= 0, or raise naming it."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number; got {type(value).__name__}")
    if not np.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number >= 0; got {value}")
    return float(value)


def open_unit_float(value, name: str) -> float:
    """Return ``value`` as a float strictly between 0 and 1 (an accuracy, a probability of failing), or raise."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number; got {type(value).__name__}")
    if not 0 < value < 1:
        raise ValueError(f"{name} must be strictly between 0 and 1; got {value}")
    return float(value)


def nonnegative_int(value, name: str) -> int:
    """Return ``value`` as an int >= 0, or raise naming it."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer >= 0; got {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must be an integer >= 0; got {value}")
    return int(value)


def _as_float_array(a, name: str) -> np.ndarray:
    try:
        a = np.asarray(a, dtype=float)
    except (TypeError, ValueError) as err:
        raise TypeError(f"{name} must be an array of numbers; {err}") from None
    if not np.isfinite(a).all():
        raise ValueError(f"{name} contains NaN or infinite values")
    return a


def as_gram_and_labels(K, y):
    """``K`` as the square Gram matrix (n, n) of the training points and ``y`` as their labels in {-1, +1}."""
    K = np.asarray(K, dtype=float)
    if K.ndim != 2 or K.shape[0] != K.shape[1] or K.size == 0:
        raise ValueError(f"K must be the square Gram matrix of the training points; got shape {K.shape}")
    if not np.all(np.isfinite(K)):
        raise ValueError("K has entries that are not finite")
    return K, as_labels(y, K.shape[0])


def argmax_ties_to_largest(scores) -> np.ndarray:
    """``argmax`` over the last axis, a tie going to the largest index: the course's rule for ties
    (the larger label wins). ``np.argmax`` gives the smallest."""
    scores = np.asarray(scores)
    return scores.shape[-1] - 1 - np.argmax(scores[..., ::-1], axis=-1)
