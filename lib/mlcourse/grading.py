"""Assertions for the exercise tests: types first, then shapes, then values, with messages that help.

Every check raises ``AssertionError`` with a sentence a student can act on, and returns the
checked value (as an array where it makes sense) so tests can go on with it.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from numbers import Integral, Real

import numpy as np


def check_array(name: str, value, shape: tuple, hint: str = "") -> np.ndarray:
    """``value`` must be a NumPy array of numbers of exactly ``shape``."""
    if not isinstance(value, np.ndarray):
        _fail(f"{name} should be a NumPy array of shape {shape}, but it is a {type(value).__name__}", hint)
    if value.dtype.kind not in "biuf":
        _fail(f"{name} should hold numbers, but its dtype is {value.dtype}", hint)
    if value.shape != tuple(shape):
        _fail(f"{name} has shape {value.shape}, expected {tuple(shape)}", hint)
    if not np.isfinite(value).all():
        _fail(f"{name} contains NaN or infinite values", hint)
    return value


def check_labels(name: str, value, n: int, hint: str = "") -> np.ndarray:
    """``value`` must be an array of shape (n,) holding only -1 and +1."""
    value = check_array(name, value, (n,), hint)
    if value.dtype.kind == "b":
        _fail(f"{name} should hold labels -1 and +1, but it is an array of booleans (True/False)", hint)
    bad = ~np.isin(value, (-1, 1))
    if bad.any():
        _fail(f"{name} should hold labels -1 and +1 only, but has {value[bad][0].item()!r} at index "
              f"{int(np.flatnonzero(bad)[0])}", hint)
    return value


def check_number(name: str, value, integer: bool = False, hint: str = ""):
    """``value`` must be a real number (an integer if ``integer``), not an array or a string."""
    wanted = Integral if integer else Real
    if isinstance(value, bool) or not isinstance(value, wanted):
        kind = "an integer" if integer else "a number"
        _fail(f"{name} should be {kind}, but it is a {type(value).__name__} ({value!r:.60})", hint)
    if not np.isfinite(float(value)):
        _fail(f"{name} should be finite, but it is {value}", hint)
    return int(value) if integer else float(value)


def check_close(name: str, got, expected, rtol: float = 1e-7, atol: float = 1e-9, hint: str = ""):
    """``got`` must equal ``expected`` within tolerance (arrays compared elementwise)."""
    try:
        got_a = np.asarray(got)
    except ValueError:  # ragged nested lists
        got_a = np.asarray(None)
    if got_a.dtype.kind not in "iuf":
        _fail(f"{name} should be a number or an array of numbers, but it is a {type(got).__name__} "
              f"({got!r:.60})", hint)
    got_a, expected_a = got_a.astype(float), np.asarray(expected, dtype=float)
    if got_a.shape != expected_a.shape:
        _fail(f"{name} has shape {got_a.shape}, expected {expected_a.shape}", hint)
    if not np.allclose(got_a, expected_a, rtol=rtol, atol=atol):
        if got_a.ndim == 0:
            _fail(f"{name} is {float(got_a):.6g}, expected {float(expected_a):.6g}", hint)
        where = np.flatnonzero(~np.isclose(got_a, expected_a, rtol=rtol, atol=atol))
        i = np.unravel_index(where[0], got_a.shape)
        _fail(f"{name} differs from the expected value at {len(where)} of {got_a.size} entries; "
              f"first at index {tuple(int(k) for k in i)}: got {got_a[i]:.6g}, expected "
              f"{expected_a[i]:.6g}", hint)
    return got


def check_equal(name: str, got, expected, hint: str = ""):
    """``got == expected`` for plain values (ints, bools, strings)."""
    if _kind(got) is not _kind(expected):
        _fail(f"{name} should be a {type(expected).__name__}, but it is a {type(got).__name__}", hint)
    if got != expected:
        _fail(f"{name} is {got!r}, expected {expected!r}", hint)
    return got


@contextmanager
def forbid(namespace: dict, *targets: str, why: str = "this exercise asks you to write it yourself"):
    """Within the block, calling any of ``targets`` (dotted names such as
    ``"mlcourse.perceptron.train_perceptron"``) fails the test.

    Names in ``namespace`` (pass the notebook's ``globals()``) that refer to a target are trapped
    too, and a target whose module is not imported yet cannot be imported inside the block.
    """
    calls: list[str] = []
    restore: list[tuple[dict, str, object]] = []
    blocked: list[str] = []
    try:  # set up inside the try: a bad target must not leave earlier traps in place
        for target in targets:
            module_name, _, attr = target.rpartition(".")
            module = sys.modules.get(module_name)
            if module is None:
                if module_name not in sys.modules:
                    sys.modules[module_name] = None  # makes `import module_name` raise ImportError
                    blocked.append(module_name)
                continue
            original = getattr(module, attr)
            trap = _trap(target, calls)
            restore.append((module.__dict__, attr, original))
            setattr(module, attr, trap)
            for key, value in list(namespace.items()):
                if value is original:
                    restore.append((namespace, key, value))
                    namespace[key] = trap
        try:
            yield
        except Exception:
            if not calls:
                raise
            # the block failed because of (or after) a forbidden call: report that call below
    finally:
        for where, key, value in reversed(restore):
            where[key] = value
        for module_name in blocked:
            sys.modules.pop(module_name, None)
    if calls:
        _fail(f"your code called {calls[0]}: {why}", "")


class ForbiddenCall(Exception):
    """Raised when an exercise calls a function its tests forbid."""


def _trap(target: str, calls: list):
    def trapped(*args, **kwargs):
        calls.append(target)
        raise ForbiddenCall(f"{target} may not be used in this exercise")

    return trapped


def _kind(value):
    """Type used by :func:`check_equal`: bools (Python or NumPy) and integers are kinds of their own."""
    if isinstance(value, (bool, np.bool_)):
        return bool
    if isinstance(value, Integral):
        return int
    return type(value)


def _fail(message: str, hint: str):
    raise AssertionError(message + (f": {hint}" if hint else ""))
