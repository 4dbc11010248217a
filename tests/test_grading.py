"""Tests of ``mlcourse.grading``: every check passes good values and fails bad ones with an
``AssertionError`` whose message names the variable and the problem."""

from __future__ import annotations

import importlib
import importlib.util

import numpy as np
import pytest

from mlcourse import grading
from mlcourse.grading import check_array, check_close, check_equal, check_labels, check_number

# --------------------------------------------------------------------------- check_array


@pytest.mark.parametrize(
    "value, shape",
    [(np.zeros((2, 3)), (2, 3)), (np.arange(4), (4,)), (np.float32(1.5) * np.ones(2), [2]),
     (np.array(3.0), ())],
)
def test_check_array_passes_and_returns_good_values(value, shape):
    assert check_array("w", value, shape) is value


@pytest.mark.parametrize(
    "value, pattern",
    [
        ([1.0, 2.0], r"^w should be a NumPy array of shape \(2,\), but it is a list"),
        ((1.0, 2.0), r"^w should be a NumPy array .* but it is a tuple"),
        ("12", r"^w should be a NumPy array .* but it is a str"),
        (3.0, r"^w should be a NumPy array .* but it is a float"),
        (np.array(["1", "2"]), r"^w should hold numbers, but its dtype is <U1"),
        (np.array([1.0, 2.0], dtype=object), r"^w should hold numbers, but its dtype is object"),
        (np.zeros(3), r"^w has shape \(3,\), expected \(2,\)"),
        (np.zeros((2, 1)), r"^w has shape \(2, 1\), expected \(2,\)"),
        (np.zeros((1, 2)), r"^w has shape \(1, 2\), expected \(2,\)"),
        (np.array([1.0, np.nan]), r"^w contains NaN or infinite values"),
        (np.array([np.inf, 1.0]), r"^w contains NaN or infinite values"),
    ],
)
def test_check_array_fails_bad_values(value, pattern):
    with pytest.raises(AssertionError, match=pattern):
        check_array("w", value, (2,))


def test_hints_are_appended_to_the_message():
    with pytest.raises(AssertionError, match=r"^w has shape \(3,\), expected \(2,\): did you add the bias twice\?$"):
        check_array("w", np.zeros(3), (2,), hint="did you add the bias twice?")
    with pytest.raises(AssertionError, match=r": look at the sign$"):
        check_close("b", 1.0, -1.0, hint="look at the sign")


# --------------------------------------------------------------------------- check_labels


@pytest.mark.parametrize("value", [np.array([-1, 1, 1]), np.array([1.0, -1.0, 1.0]), np.array([-1, -1, -1])])
def test_check_labels_passes_good_labels(value):
    assert check_labels("y_hat", value, 3) is value


@pytest.mark.parametrize(
    "value, pattern",
    [
        ([-1, 1, 1], r"^y_hat should be a NumPy array of shape \(3,\), but it is a list"),
        (np.array([0, 1, -1]), r"^y_hat should hold labels -1 and \+1 only, but has (np\.int64\()?0\)? at index 0$"),
        (np.array([1, -1, 2]), r"^y_hat should hold labels -1 and \+1 only, but has (np\.int64\()?2\)? at index 2$"),
        (np.array([1.0, 0.5, -1.0]), r"^y_hat should hold labels .* but has (np\.float64\()?0\.5\)? at index 1$"),
        (np.array([1.0, np.nan, -1.0]), r"^y_hat contains NaN"),
        (np.array([-1, 1]), r"^y_hat has shape \(2,\), expected \(3,\)"),
        (np.array([[-1, 1, 1]]), r"^y_hat has shape \(1, 3\), expected \(3,\)"),
        (np.array([True, True, True]), r"^y_hat should hold labels -1 and \+1, but it is an array of booleans"),
        (np.array([True, False, True]), r"^y_hat should hold labels -1 and \+1, but it is an array of booleans"),
        (np.array(["-1", "1", "1"]), r"^y_hat should hold numbers"),
    ],
)
def test_check_labels_fails_bad_values(value, pattern):
    with pytest.raises(AssertionError, match=pattern):
        check_labels("y_hat", value, 3)


# --------------------------------------------------------------------------- check_number


@pytest.mark.parametrize("value", [3, 3.5, -0.25, np.float64(2.0), np.float32(0.5), np.int64(4)])
def test_check_number_passes_numbers(value):
    out = check_number("gamma", value)
    assert type(out) is float and out == float(value)


@pytest.mark.parametrize("value", [3, np.int64(4), np.uint8(7)])
def test_check_number_integer_passes_integers(value):
    out = check_number("k", value, integer=True)
    assert type(out) is int and out == int(value)


@pytest.mark.parametrize(
    "value, integer, pattern",
    [
        (True, False, r"^gamma should be a number, but it is a bool \(True\)"),
        (np.True_, False, r"^gamma should be a number, but it is a bool"),
        (False, True, r"^gamma should be an integer, but it is a bool"),
        ("0.5", False, r"^gamma should be a number, but it is a str \('0.5'\)"),
        (None, False, r"^gamma should be a number, but it is a NoneType"),
        ([0.5], False, r"^gamma should be a number, but it is a list"),
        (np.array([0.5]), False, r"^gamma should be a number, but it is a ndarray"),
        (np.array(0.5), False, r"^gamma should be a number, but it is a ndarray"),
        (3.0, True, r"^gamma should be an integer, but it is a float \(3.0\)"),
        (np.float64(3.0), True, r"^gamma should be an integer, but it is a float64"),
        (float("nan"), False, r"^gamma should be finite, but it is nan"),
        (np.inf, False, r"^gamma should be finite, but it is inf"),
        (-np.inf, False, r"^gamma should be finite, but it is -inf"),
    ],
)
def test_check_number_fails_bad_values(value, integer, pattern):
    with pytest.raises(AssertionError, match=pattern):
        check_number("gamma", value, integer=integer)


def test_check_number_truncates_a_long_value_in_its_message():
    with pytest.raises(AssertionError) as info:
        check_number("gamma", "x" * 500)
    assert len(str(info.value)) < 150


# --------------------------------------------------------------------------- check_close


@pytest.mark.parametrize(
    "got, expected",
    [
        (1.0, 1.0),
        (1.0 + 1e-9, 1.0),
        (np.float64(0.1 + 0.2), 0.3),
        (3, 3.0),
        (np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.0 + 1e-10])),
        (np.eye(2), np.eye(2)),
    ],
)
def test_check_close_passes_close_values(got, expected):
    assert check_close("loss", got, expected) is got


@pytest.mark.parametrize(
    "got, expected, pattern",
    [
        (1.1, 1.0, r"^loss is 1.1, expected 1$"),
        (np.float64(-2.0), 2.0, r"^loss is -2, expected 2$"),
        (np.array([1.0, 2.5, 3.0]), np.array([1.0, 2.0, 3.0]),
         r"^loss differs from the expected value at 1 of 3 entries; first at index \(1,\): got 2.5, expected 2$"),
        (np.array([[1.0, 0.0], [0.0, 0.0]]), np.eye(2),
         r"^loss differs .* at 1 of 4 entries; first at index \(1, 1\): got 0, expected 1$"),
        (np.zeros(3), np.zeros(2), r"^loss has shape \(3,\), expected \(2,\)"),
        (np.zeros((2, 1)), np.zeros(2), r"^loss has shape \(2, 1\), expected \(2,\)"),
        (np.array([1.0]), 1.0, r"^loss has shape \(1,\), expected \(\)"),
        (float("nan"), 1.0, r"^loss is nan, expected 1"),
        (np.array([np.nan, 1.0]), np.array([1.0, 1.0]), r"^loss differs .* first at index \(0,\): got nan"),
        ("1.0", 1.0, r"^loss should be a number or an array of numbers, but it is a str \('1.0'\)"),
        (True, 1.0, r"^loss should be a number or an array of numbers, but it is a bool"),
        (np.array([True, False]), np.array([1.0, 0.0]), r"^loss should be a number or an array of numbers"),
        (None, 1.0, r"^loss should be a number or an array of numbers, but it is a NoneType"),
        ([[1.0, 2.0], [3.0]], np.zeros((2, 2)), r"^loss should be a number or an array of numbers, but it is a list"),
    ],
)
def test_check_close_fails_bad_values(got, expected, pattern):
    with pytest.raises(AssertionError, match=pattern):
        check_close("loss", got, expected)


def test_check_close_tolerances_are_used():
    check_close("loss", 1.05, 1.0, rtol=0.1)
    with pytest.raises(AssertionError, match="^loss is 1.05"):
        check_close("loss", 1.05, 1.0, rtol=0.01)
    check_close("loss", 1e-3, 0.0, atol=1e-2)
    with pytest.raises(AssertionError, match="^loss is 0.001, expected 0"):
        check_close("loss", 1e-3, 0.0)


# --------------------------------------------------------------------------- check_equal


@pytest.mark.parametrize(
    "got, expected",
    [(3, 3), (np.int64(3), 3), (3, np.int32(3)), ("relu", "relu"), (True, True), (np.True_, True),
     (False, np.False_), (None, None)],
)
def test_check_equal_passes_equal_values(got, expected):
    assert check_equal("answer", got, expected) is got


@pytest.mark.parametrize(
    "got, expected, pattern",
    [
        (4, 3, r"^answer is 4, expected 3$"),
        (np.int64(2), 3, r"^answer is (np\.int64\()?2\)?, expected 3$"),
        ("tanh", "relu", r"^answer is 'tanh', expected 'relu'$"),
        (False, True, r"^answer is False, expected True$"),
        (np.False_, True, r"^answer is (np\.)?False_?, expected True$"),
        (True, 1, r"^answer should be a int, but it is a bool$"),
        (np.True_, 1, r"^answer should be a int, but it is a bool$"),
        (1, True, r"^answer should be a bool, but it is a int$"),
        (0, False, r"^answer should be a bool, but it is a int$"),
        ("3", 3, r"^answer should be a int, but it is a str$"),
        (3.0, 3, r"^answer should be a int, but it is a float$"),
        ([3], 3, r"^answer should be a int, but it is a list$"),
    ],
)
def test_check_equal_fails_bad_values(got, expected, pattern):
    with pytest.raises(AssertionError, match=pattern):
        check_equal("answer", got, expected)


# --------------------------------------------------------------------------- tricks that must not pass


class LiarInt(int):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = int.__hash__


class LiarFloat(float):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __float__(self):
        return 42.0

    __hash__ = float.__hash__


class LiarArray(np.ndarray):
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return True


class Anything:
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __float__(self):
        return 42.0

    __hash__ = object.__hash__


def test_subclasses_that_redefine_equality_do_not_pass():
    with pytest.raises(AssertionError, match="should be a int, but it is a LiarInt"):
        check_equal("add(2, 3)", LiarInt(0), 5)
    with pytest.raises(AssertionError, match="should be a number, but it is a LiarFloat"):
        check_number("answer", LiarFloat(0.0))
    with pytest.raises(AssertionError, match="differs from the expected value"):
        check_close("means", np.zeros(2).view(LiarArray), [1.0, 2.0])
    # NumPy would convert these by their __float__ (42): they are refused instead
    with pytest.raises(AssertionError, match="should be a number or an array of numbers, but it is a LiarFloat"):
        check_close("answer", LiarFloat(0.0), 42)
    with pytest.raises(AssertionError, match="should be a number or an array of numbers, but it is a list"):
        check_close("answer", [1.0, LiarFloat(0.0)], [1.0, 42.0])
    check_close("answer", [1, 2.0, np.float32(3)], [1.0, 2.0, 3.0])  # plain numbers in a list are fine


def test_checks_use_numpy_and_builtins_as_they_were_at_import(monkeypatch):
    import builtins

    monkeypatch.setattr(np, "allclose", lambda *args, **kwargs: True)
    monkeypatch.setattr(np, "isclose", lambda *args, **kwargs: np.ones(np.shape(args[0]), bool))
    monkeypatch.setattr(np, "isfinite", lambda *args, **kwargs: np.ones(np.shape(args[0]), bool))
    with pytest.raises(AssertionError, match="differs from the expected value at 2 of 2 entries"):
        check_close("means", np.zeros(2), [1.0, 2.0])
    with pytest.raises(AssertionError, match="contains NaN"):
        check_array("w", np.array([np.nan, 1.0]), (2,))
    real = builtins.isinstance
    monkeypatch.setattr(builtins, "isinstance",
                        lambda obj, cls: (real(5, cls) or real(5.0, cls)) if type(obj) is Anything else real(obj, cls))
    with pytest.raises(AssertionError, match="should be a int, but it is a Anything"):
        check_equal("add(2, 3)", Anything(), 5)
    with pytest.raises(AssertionError, match="should be a number, but it is a Anything"):
        check_number("answer", Anything())


def test_the_module_and_its_name_in_the_package_cannot_be_replaced():
    import mlcourse

    with pytest.raises(AttributeError, match="cannot be replaced"):
        grading.check_close = lambda *args, **kwargs: None
    with pytest.raises(AttributeError, match="cannot be deleted"):
        del grading._fail
    with pytest.raises(AttributeError, match="cannot be replaced"):
        mlcourse.grading = object()
    assert mlcourse.grading is grading and grading.check_close is check_close
    assert importlib.reload(grading) is grading  # reloading still works


# --------------------------------------------------------------------------- hidden_rng, call_unchanged


def draws(label, key=None):
    if key is None:
        return grading.hidden_rng(label).integers(0, 2**62, size=4).tolist()
    with grading.hidden_inputs(key):
        return grading.hidden_rng(label).integers(0, 2**62, size=4).tolist()


def test_hidden_inputs_are_the_same_on_every_regrade_and_differ_between_students_and_tests():
    alice = grading.hidden_key(b"secret", "02-perceptron", "alice")
    assert draws("test_x", alice) == draws("test_x", grading.hidden_key(b"secret", "02-perceptron", "alice"))
    others = [grading.hidden_key(b"secret", "02-perceptron", "bob"), grading.hidden_key(b"secret", "03-mle", "alice"),
              grading.hidden_key(b"other secret", "02-perceptron", "alice")]
    assert all(draws("test_x", key) != draws("test_x", alice) for key in others)
    assert draws("test_y", alice) != draws("test_x", alice)
    # outside grading (nbval, nbgrader validate) the label alone seeds it, and the block is left cleanly
    assert draws("test_x") == draws("test_x") != draws("test_x", alice)
    with pytest.raises(TypeError, match="the test's label"):
        grading.hidden_rng("")


def test_call_unchanged_names_the_argument_changed_in_place_and_never_changes_the_callers():
    def in_place(w, x):
        w += x
        return w

    w, x = np.zeros(2), np.ones(2)
    with pytest.raises(AssertionError, match=r"^in_place\(...\) changed its argument w in place: work on a copy of w"):
        grading.call_unchanged(in_place, w, x, names=("w", "x"))
    assert np.array_equal(w, np.zeros(2))
    with pytest.raises(AssertionError, match="changed its argument argument 2 in place: copy first"):
        grading.call_unchanged(lambda a, b: b.fill(3), w, x, hint="copy first")
    nan = np.array([np.nan, 1.0])
    assert np.array_equal(grading.call_unchanged(lambda a, k=2: a * k, nan, k=3), [np.nan, 3.0], equal_nan=True)


def test_call_unchanged_reads_what_the_judge_reports():
    class Remote:  # the judge's stand-in for a student's function (tools/judge.py, RemoteFunction)
        __name__ = "centre"

        def call_reporting_arguments(self, X):
            return X - 1, [X - 1]

    with pytest.raises(AssertionError, match="centre\\(...\\) changed its argument X in place"):
        grading.call_unchanged(Remote(), np.ones(3), names=("X",))


@pytest.mark.notebooks
def test_a_failed_check_is_shown_from_the_line_of_the_test_in_a_notebook():
    """In the student's kernel a failed check's traceback ends at the test's line, with the message; the
    frames of mlcourse/grading.py are cut. Other errors keep their whole traceback."""
    import re

    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import numpy as np\nfrom mlcourse import grading"),
                nbformat.v4.new_code_cell("grading.check_array('w', np.zeros(3), (2,), hint='did you add the bias twice?')"),
                nbformat.v4.new_code_cell("def f():\n    raise ValueError('mine')\nf()")]
    NotebookClient(nb, kernel_name="mlcourse", allow_errors=True, timeout=120).execute()
    plain = lambda cell: re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(cell.outputs[0]["traceback"]))
    check = plain(nb.cells[1])
    assert "grading.py" not in check and "check_array('w'" in check, check
    assert check.rstrip().endswith("AssertionError: w has shape (3,), expected (2,): did you add the bias twice?"), check
    assert "in f()" in plain(nb.cells[2])
