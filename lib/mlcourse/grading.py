"""Assertions for the exercise tests: types first, then shapes, then values, with messages that help.

Every check raises ``AssertionError`` with a sentence a student can act on, and returns the
checked value (as an array where it makes sense) so tests can go on with it.

The checks run in the student's kernel, after the student's code, so they trust as little of it as
simple means allow: values must be of the exact built-in or NumPy types (a subclass of ``int`` or
``ndarray`` could redefine equality), values are compared as plain arrays with NumPy's operators
(not with ``np.allclose``, which a notebook can replace), the built-in and NumPy functions used here
are the ones there were when this module was imported, and the module's attributes cannot be
reassigned. See the README (what the sandbox protects against) for what this does not stop.
"""

from __future__ import annotations

import builtins
import math
import sys
import types
from contextlib import contextmanager
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


@contextmanager
def forbid(namespace: dict, *targets: str, why: str = "this exercise asks you to write it yourself"):
    """Within the block, calling any of ``targets`` fails the test.

    A target is a dotted name of a function (``"mlcourse.perceptron.train_perceptron"``) or of a whole
    module or package (``"scipy.stats"``: every function defined in it, methods of its objects such as
    ``scipy.stats.norm.logpdf`` included).

    Two nets catch a call. The function's name is replaced by a trap in its module and in
    ``namespace`` (pass the notebook's ``globals()``), so a direct call fails at once. And while the
    block runs, a profiler watches every call and records one that runs code *defined where a target
    is defined* (same file, same function), however it was reached: through an object's method, an
    alias taken earlier, or a private copy of the module loaded from its file. A target whose module
    is not imported yet cannot be imported inside the block. Turning the profiler off inside the block
    fails the test too.
    """
    calls: list[str] = []
    restore: list[tuple[dict, str, object]] = []
    blocked: list[str] = []
    functions: dict[tuple[str, int, str], str] = {}  # code location -> target name
    folders: dict[str, str] = {}  # a package's folder, or a module's file -> target name
    try:  # set up inside the try: a bad target must not leave earlier traps in place
        for target in targets:
            if target not in sys.modules and _is_module(target):  # not imported yet: importing fails
                sys.modules[target] = None
                blocked.append(target)
                continue
            module = sys.modules.get(target)
            if isinstance(module, types.ModuleType):
                _watch_module(module, target, folders)
                continue
            module_name, _, attr = target.rpartition(".")
            module = sys.modules.get(module_name)
            if module is None:
                if module_name not in sys.modules:
                    sys.modules[module_name] = None  # makes `import module_name` raise ImportError
                    blocked.append(module_name)
                continue
            original = getattr(module, attr)
            if isinstance(original, types.ModuleType):  # a submodule named by its attribute
                _watch_module(original, target, folders)
                continue
            code = getattr(getattr(original, "__wrapped__", original), "__code__", None)
            if code is not None:
                functions[(code.co_filename, code.co_firstlineno, code.co_name)] = target
            trap = _trap(target, calls)
            restore.append((module.__dict__, attr, original))
            setattr(module, attr, trap)
            for key, value in list(namespace.items()):
                if value is original:
                    restore.append((namespace, key, value))
                    namespace[key] = trap
        watcher = _watcher(functions, folders, calls)
        previous = sys.getprofile()
        sys.setprofile(watcher)
        try:
            try:
                yield
            except Exception:
                if not calls:
                    raise
                # the block failed because of (or after) a forbidden call: report that call below
            finally:
                if sys.getprofile() is not watcher:
                    calls.append("sys.setprofile (the grader watches calls while your code runs)")
        finally:
            sys.setprofile(previous)
    finally:
        for where, key, value in reversed(restore):
            where[key] = value
        for module_name in blocked:
            sys.modules.pop(module_name, None)
    if calls:
        _fail(f"your code called {calls[0]}: {why}", "")


def _is_module(name: str) -> bool:
    """Is ``name`` an importable module? Asked only when its parent package is imported already
    (finding a submodule imports its parent, which forbid must not do)."""
    import importlib.util

    parent = name.rpartition(".")[0]
    if parent and not isinstance(sys.modules.get(parent), types.ModuleType):
        return False
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError, AttributeError):
        return False


def _watch_module(module, target: str, folders: dict) -> None:
    """Record where the code of ``module`` lives: its package folder, or its file."""
    path = getattr(module, "__file__", None)
    if path is None:
        raise ValueError(f"forbid: module {target!r} has no file to watch")
    if getattr(module, "__path__", None) is not None:  # a package: everything under its folder
        path = path.rpartition("/")[0] + "/"
    folders[path] = target


def _watcher(functions: dict, folders: dict, calls: list):
    """A profile function that records calls of code defined where a target is."""
    prefixes = tuple(folders)

    def watch(frame, event, arg):
        if event == "call":
            code = frame.f_code
            filename = code.co_filename
            target = functions.get((filename, code.co_firstlineno, code.co_name))
            if target is None and filename.startswith(prefixes):
                target = next(t for p, t in folders.items() if filename.startswith(p))
                target = f"{target} ({code.co_qualname})"
            if target is not None and len(calls) < 10:
                calls.append(target)
        elif event == "c_call" and folders:
            module = getattr(arg, "__module__", None) or ""
            for target in folders.values():
                if module == target or module.startswith(target + "."):
                    if len(calls) < 10:
                        calls.append(f"{target} ({getattr(arg, '__qualname__', arg)})")
                    break

    return watch


class ForbiddenCall(Exception):
    """Raised when an exercise calls a function its tests forbid."""


def _trap(target: str, calls: list):
    def trapped(*args, **kwargs):
        calls.append(target)
        raise ForbiddenCall(f"{target} may not be used in this exercise")

    return trapped


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
