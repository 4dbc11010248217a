"""Assertions for the exercise tests: types first, then shapes, then values, with messages that help.

Every check raises ``AssertionError`` with a sentence a student can act on, and returns the
checked value (as an array where it makes sense) so tests can go on with it.

Students run the public tests with them in their own kernel; when work is graded, every test runs
in the grader's process (tools/judge.py) on the plain values the student's functions return, so what
a notebook does to this module cannot change a grade. The checks still trust their arguments as
little as simple means allow (values of the exact built-in or NumPy types, compared as plain arrays
with NumPy's operators; the module's attributes cannot be reassigned), which also keeps the public
tests' messages right for a student whose notebook replaced ``np.allclose`` or ``isinstance``.
"""

from __future__ import annotations

import builtins
import contextlib
import contextvars
import hashlib
import hmac
import math
import sys
import types
from fractions import Fraction

import numpy as np

# The functions below look built-ins up here, in a copy made now: a notebook that later replaces
# builtins.isinstance (or any other) does not change what they see.
__builtins__ = dict(vars(builtins))

# The NumPy functions used by the checks, as they are now (a notebook may replace np.isfinite...).
# Values are compared with the operators of plain arrays, which Python code cannot redefine.
_asarray, _isfinite, _unravel_index, _errstate = np.asarray, np.isfinite, np.unravel_index, np.errstate
_ndarray = np.ndarray
_NP_BOOL = np.bool_
_NP_INTEGERS = frozenset(t for t in np.sctypeDict.values() if issubclass(t, np.integer))
_NP_FLOATS = frozenset(t for t in np.sctypeDict.values() if issubclass(t, np.floating))
_INTEGER_TYPES = (int, *_NP_INTEGERS)  # exactly these types, not subclasses
_REAL_TYPES = (*_INTEGER_TYPES, *_NP_FLOATS, float, Fraction)
_PLAIN_NUMBERS = (*_INTEGER_TYPES, *_NP_FLOATS, float, bool, _NP_BOOL)  # what check_close converts


def check_array(name: str, value, shape: tuple, hint: str = "") -> np.ndarray:
    """``value`` must be a NumPy array of numbers of exactly ``shape``."""
    if not isinstance(value, _ndarray):
        _fail(f"{name} should be a NumPy array of shape {shape}, but it is a {type(value).__name__}", hint)
    plain = _asarray(value)  # a plain ndarray view: a subclass cannot misreport its dtype or shape
    if plain.dtype.kind not in "biuf":
        _fail(f"{name} should hold numbers, but its dtype is {plain.dtype}", hint)
    if plain.shape != tuple(shape):
        _fail(f"{name} has shape {plain.shape}, expected {tuple(shape)}", hint)
    if not _isfinite(plain).all():
        _fail(f"{name} contains NaN or infinite values", hint)
    return value


def check_labels(name: str, value, n: int, hint: str = "") -> np.ndarray:
    """``value`` must be an array of shape (n,) holding only -1 and +1."""
    value = check_array(name, value, (n,), hint)
    plain = _asarray(value)
    if plain.dtype.kind == "b":
        _fail(f"{name} should hold labels -1 and +1, but it is an array of booleans (True/False)", hint)
    bad = ~((plain == -1) | (plain == 1))
    if bad.any():
        _fail(f"{name} should hold labels -1 and +1 only, but has {plain[bad][0].item()!r} at index "
              f"{int(bad.nonzero()[0][0])}", hint)
    return value


def check_number(name: str, value, integer: bool = False, hint: str = ""):
    """``value`` must be a real number (an integer if ``integer``), not an array or a string."""
    if not _one_of(value, _INTEGER_TYPES if integer else _REAL_TYPES):  # bool is not one of them
        kind = "an integer" if integer else "a number"
        _fail(f"{name} should be {kind}, but it is a {type(value).__name__} ({value!r:.60})", hint)
    if not math.isfinite(float(value)):
        _fail(f"{name} should be finite, but it is {value}", hint)
    return int(value) if integer else float(value)


def check_close(name: str, got, expected, rtol: float = 1e-7, atol: float = 1e-9, hint: str = ""):
    """``got`` must equal ``expected`` within tolerance (arrays compared elementwise)."""
    try:
        got_a = _asarray(got)  # a plain ndarray, also for a subclass of ndarray
        if not isinstance(got, _ndarray):  # numbers, lists of numbers: of exact types, since NumPy
            leaves = _asarray(got, dtype=object).ravel()  # would convert a float subclass by its __float__
            if not all(_one_of(x, _PLAIN_NUMBERS) for x in leaves):
                got_a = _asarray(None)
    except ValueError:  # ragged nested lists
        got_a = _asarray(None)
    if got_a.dtype.kind not in "iuf":
        _fail(f"{name} should be a number or an array of numbers, but it is a {type(got).__name__} "
              f"({got!r:.60})", hint)
    got_a, expected_a = got_a.astype(float), _asarray(expected, dtype=float)
    if got_a.shape != expected_a.shape:
        _fail(f"{name} has shape {got_a.shape}, expected {expected_a.shape}", hint)
    with _errstate(invalid="ignore", over="ignore"):  # what np.isclose computes (inf - inf is nan)
        close = (got_a == expected_a) | (abs(got_a - expected_a) <= atol + rtol * abs(expected_a))
    if not close.all():
        if got_a.ndim == 0:
            _fail(f"{name} is {float(got_a):.6g}, expected {float(expected_a):.6g}", hint)
        where = (~close).ravel().nonzero()[0]
        i = _unravel_index(where[0], got_a.shape)
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


def call_unchanged(f, *args, names: tuple = (), hint: str = "", **kwargs):
    """``f(*args, **kwargs)``, failing if ``f`` changed one of its array arguments in place.

    ``f`` works on copies, so the caller's arrays stay as they were whatever ``f`` does (and an expected
    value computed from them afterwards is still right). ``names`` names the positional arguments in
    the message ("w" rather than "argument 1"). When work is graded, ``f`` stands for the student's
    function in the kernel (tools/judge.py), which reports how the call left the kernel's copies."""
    reporting = getattr(f, "call_reporting_arguments", None)
    if reporting is not None:
        result, after = reporting(*args, **kwargs)
    else:
        after = [a.copy() if isinstance(a, _ndarray) else a for a in args]
        result = f(*after, **kwargs)
    function = getattr(f, "__name__", "the function")
    for k, before in enumerate(args):
        if not isinstance(before, _ndarray):
            continue
        now = after[k] if k < len(after) else None
        same = isinstance(now, _ndarray) and now.shape == before.shape and bool(
            ((_asarray(now) == _asarray(before)) | ((now != now) & (before != before))).all())
        if not same:
            name = names[k] if k < len(names) else f"argument {k + 1}"
            _fail(f"{function}(...) changed its argument {name} in place",
                  hint or f"work on a copy of {name} (or build a new array) and leave the caller's {name} as it was")
    return result


# The key of the hidden tests' generators while a submission is graded (``hidden_inputs``).
_HIDDEN_KEY = contextvars.ContextVar("mlcourse_hidden_key", default=None)


def hidden_rng(label: str) -> np.random.Generator:
    """The random generator of the hidden test ``label`` (by convention its grade id).

    When work is graded (tools/judge.py) it is seeded from the course's grading secret, the lecture, the
    student and ``label``: a regrade draws exactly the same inputs, two students draw different ones,
    and no student can predict theirs. Anywhere else (the solution notebook run by nbval or by nbgrader
    validate) it is seeded from ``label`` alone, so those runs are reproducible too."""
    if not isinstance(label, str) or not label:
        raise TypeError(f"hidden_rng needs the test's label, a non-empty string; got {label!r}")
    key = _HIDDEN_KEY.get()
    material = label.encode() if key is None else hmac.new(key, label.encode(), "sha256").digest()
    return np.random.default_rng(int.from_bytes(hashlib.sha256(material).digest()[:16], "little"))


def hidden_key(secret: bytes, lecture: str, student: str) -> bytes:
    """The key from which the hidden tests of one student's lecture draw (``hidden_rng``)."""
    return hmac.new(secret, f"{lecture}\0{student}".encode(), "sha256").digest()


@contextlib.contextmanager
def hidden_inputs(key: bytes):
    """Within this block, ``hidden_rng`` draws from ``key`` (see ``hidden_key``)."""
    token = _HIDDEN_KEY.set(bytes(key))
    try:
        yield
    finally:
        _HIDDEN_KEY.reset(token)


def _kind(value):
    """Type used by :func:`check_equal`: bools (Python or NumPy) and integers (Python or NumPy) are
    kinds of their own; anything else is its exact type (a subclass is not its base class)."""
    if _one_of(value, (bool, _NP_BOOL)):
        return bool
    if _one_of(value, _INTEGER_TYPES):
        return int
    return type(value)


def _one_of(value, kinds) -> bool:
    """Is the type of ``value`` exactly one of ``kinds``? (By identity: a metaclass can redefine ==.)"""
    kind = type(value)
    return any(kind is k for k in kinds)


def _fail(message: str, hint: str):
    raise AssertionError(message + (f": {hint}" if hint else ""))


def _show_from_the_test(shell, etype, value, tb, tb_offset=None):
    """In a notebook, a failed check is shown from the line of the test that called it: the frames of
    this module below that line say nothing a student can act on (IPython keeps the last frame of a
    traceback even when it is marked hidden, so they are cut off here)."""
    last_outside, node = None, tb
    while node is not None:
        if node.tb_frame.f_code.co_filename != __file__:
            last_outside = node
        node = node.tb_next
    if last_outside is not None:
        last_outside.tb_next = None
    return shell.showtraceback((etype, value, tb), tb_offset=tb_offset)


def _install_in_notebook() -> None:
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None and hasattr(shell, "set_custom_exc"):
        shell.set_custom_exc((AssertionError,), _show_from_the_test)


_install_in_notebook()


class _Sealed(types.ModuleType):
    """A module whose names listed in ``__sealed__`` cannot be reassigned or deleted."""

    def __setattr__(self, name, value):
        if name in self.__dict__.get("__sealed__", ()) and name in self.__dict__:
            raise AttributeError(f"{self.__name__}.{name} cannot be replaced: the tests rely on it")
        super().__setattr__(name, value)

    def __delattr__(self, name):
        if name in self.__dict__.get("__sealed__", ()):
            raise AttributeError(f"{self.__name__}.{name} cannot be deleted: the tests rely on it")
        super().__delattr__(name)


def _seal() -> None:
    """Seal this module's names, and its name in the package (``mlcourse.grading = ...`` fails too)."""
    me = sys.modules[__name__]
    me.__dict__["__sealed__"] = frozenset(k for k in me.__dict__ if not k.startswith("__"))
    me.__class__ = _Sealed
    package = sys.modules.get(__name__.rpartition(".")[0])
    if package is not None and type(package) in (types.ModuleType, _Sealed):
        package.__dict__["__sealed__"] = frozenset({__name__.rpartition(".")[2]})
        package.__class__ = _Sealed


_seal()
