"""The judge's parts that need no kernel: the wire format, the grading library, what a lecture says.

(Grading end to end, with the kernel, is tested by test_grading_pipeline.py, test_adversarial.py and
test_hostile_lectures.py.)"""

from __future__ import annotations

import ast
import builtins
import json
import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import allowance
import judge
import judge_wire as wire
from conftest import LECTURES, ROOT

# --------------------------------------------------------------------------- the wire


def same(a, b) -> bool:
    """Equal values of exactly the same types, all the way down."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, float) and a != a:
        return b != b
    if isinstance(a, np.generic) and a.dtype.kind in "fc":
        return a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True)
    return a == b


dtypes = st.sampled_from(["<f8", "<f4", "<i8", "<i4", "|u1", "|b1", "<c16"])
arrays = dtypes.flatmap(lambda d: hnp.arrays(np.dtype(d), hnp.array_shapes(min_dims=0, max_dims=3, max_side=4)))
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(allow_nan=True),
                    st.text(max_size=20), arrays, arrays.map(lambda a: a.reshape(-1)[:1]).filter(len).map(lambda a: a[0]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.lists(inner, max_size=4).map(tuple),
    st.dictionaries(st.one_of(st.text(max_size=5), st.integers()), inner, max_size=4)), max_leaves=12)


@given(values)
def test_values_cross_the_wire_unchanged_in_value_and_type(value):
    assert same(wire.loads(wire.dumps(value)), value)


def test_arrays_arrive_writeable_and_not_sharing_memory():
    back = wire.loads(wire.dumps(np.arange(6.0).reshape(2, 3)))
    back[0, 0] = 7.0
    assert back.flags.writeable and back.flags.owndata


class LiarInt(int):
    def __eq__(self, other):
        return True


class LiarArray(np.ndarray):
    def __eq__(self, other):
        return True


def test_subclasses_arrive_as_the_plain_types_that_cannot_lie():
    back = wire.loads(wire.dumps((LiarInt(3), np.zeros(2).view(LiarArray))))
    assert type(back[0]) is int and back[0] != 4
    assert type(back[1]) is np.ndarray and not (back[1] == 1).any()


def test_what_the_wire_does_not_carry_arrives_as_a_named_unreadable():
    back = wire.loads(wire.dumps([object(), np.array(["a"]), sum]))
    assert all(isinstance(v, wire.Unreadable) for v in back)
    assert type(back[0]).__name__ == "object" and "cannot receive" in repr(back[0])


@pytest.mark.parametrize("data, why", [
    ({"t": "ndarray", "dtype": "|O", "shape": [1], "data": ""}, "not carried"),
    ({"t": "ndarray", "dtype": "<f8", "shape": [3], "data": "AAAA"}, "wrong size"),
    ({"t": "ndarray", "dtype": "<f8", "shape": [-1], "data": ""}, "shape"),
    ({"t": "ndarray", "dtype": [["a", "<f8"]], "shape": [1], "data": ""}, "dtype"),
    ({"t": "pickle", "v": "gASVAAAA"}, "unknown kind"),
    ({"t": "callback", "id": 0}, "unknown kind"),  # only the kernel's side accepts callbacks
    ({"t": "float", "v": "1e308"}, "nan or infinite"),
    ({"no": "kind"}, "unexpected"),
])
def test_malformed_data_is_refused(data, why):
    with pytest.raises(wire.WireError, match=why):
        wire.decode(data)


def test_depth_and_size_are_capped():
    deep = []
    for _ in range(wire.MAX_DEPTH + 5):
        deep = [deep]
    with pytest.raises(wire.WireError, match="deeply"):
        wire.decode(deep)
    with pytest.raises(wire.WireError, match="larger than"):
        wire.decode(["x" * (wire.MAX_BYTES // 2)] * 3)
    with pytest.raises(wire.WireError, match="at most"):
        wire.loads(json.dumps("x" * (wire.MAX_BYTES + 1)))


def test_unreadable_names_cannot_smuggle_markup():
    back = wire.decode({"t": "unreadable", "type": "<script>alert(1)</script>" * 20})
    assert "<" not in type(back).__name__ and len(type(back).__name__) <= 60


# --------------------------------------------------------------------------- the grading library

SOURCE = '''
import numpy as np

from ._checks import as_vector

TABLE = {"double": None}


def wanted(x):
    """Kept."""
    return _helper(as_vector(x)) + 1


def _helper(x):
    return 2 * x


def _private_answer(x):
    return np.sum(x) * 54321


def secret(x):
    """The reference answer."""
    return np.sum(x) * 12345
'''


def modules_with(source):
    return {"demo": allowance.Module.parse("demo", source),
            "_checks": allowance.Module.parse("_checks", "def as_vector(x):\n    return x\n\ndef unused():\n    pass\n"),
            "other": allowance.Module.parse("other", "def f():\n    pass\n")}


def test_the_allowance_reaches_a_function_and_what_it_needs_in_its_module_and_others():
    keep, loaded = allowance.library_closure(modules_with(SOURCE), ["mlcourse.demo.wanted"])
    assert set(keep) == {("demo", "wanted"), ("demo", "_helper"), ("_checks", "as_vector")}
    assert keep[("demo", "_helper")] == "mlcourse.demo.wanted"
    assert loaded == {"demo", "_checks"}  # "other" is not imported: it is not there at all
    keep, _ = allowance.library_closure(modules_with(SOURCE), ["mlcourse.demo"])  # all its public names
    assert {n for m, n in keep if m == "demo"} == {"wanted", "secret", "_helper"}


def test_what_the_allowance_does_not_reach_loses_its_code_and_raises_saying_why():
    module = allowance.Module.parse("demo", SOURCE)
    stripped = allowance.withheld_source(module, {"wanted", "_helper"}, {"secret"})
    assert "12345" not in stripped and "54321" not in stripped
    namespace = {"__name__": "demo"}
    exec(compile(stripped.replace("from ._checks import as_vector", "as_vector = lambda x: x"), "demo", "exec"), namespace)
    assert namespace["wanted"](1) == 3
    with pytest.raises(RuntimeError, match="mlcourse.demo.secret is not available when your work is graded: the "
                                           "exercise asks you to write it yourself"):
        namespace["secret"]([1])
    with pytest.raises(RuntimeError, match="mlcourse.demo._private_answer is not available .* may use only"):
        namespace["_private_answer"]([1])
    assert namespace["secret"].__mlcourse_withheld__


@pytest.mark.parametrize("allows, why", [
    (["mlcourse.perceptron.no_such_function"], "has no function or class no_such_function"),
    (["mlcourse.nope"], "neither"),
    (["scipy.nope"], "not a package or module of scipy"),
    (["nope"], "not an installed package"),
])
def test_an_allowance_with_a_wrong_name_is_an_error_naming_it(allows, why):
    with pytest.raises(ValueError, match=why):
        allowance.grading_library(ROOT, allowance.Allowance(tuple(allows), ()))


@pytest.mark.parametrize("lacks, why", [
    (["mlcourse.perceptron.no_such_function"], "not a function of mlcourse"),
    (["numpy.linalg.no_such_function"], "numpy.linalg has no function no_such_function"),
    (["numpy.linalg"], "cannot be hidden"),
    (["numpy"], "cannot be hidden"),
    (["numpy.linalg.LinAlgError"], "not a function of NumPy"),
    (["sklearn"], "need not be withheld"),
])
def test_kernel_lacks_with_a_wrong_name_is_an_error_naming_it(lacks, why):
    with pytest.raises(ValueError, match=why):
        allowance.grading_library(ROOT, allowance.Allowance(("mlcourse.grading",), tuple(lacks)))


def test_an_allowance_that_reaches_an_answer_it_withholds_is_an_error_naming_the_chain():
    with pytest.raises(ValueError, match="withholds mlcourse.perceptron.add_bias, but the allowance reaches it"):
        allowance.grading_library(ROOT, allowance.Allowance(("mlcourse.perceptron",), ("mlcourse.perceptron.add_bias",)))


def test_the_grading_library_offers_exactly_the_allowance(tmp_path):
    folder, site = allowance.grading_library(ROOT, allowance.Allowance(
        ("mlcourse.grading", "mlcourse.perceptron.predict"), ("mlcourse.perceptron.train_perceptron",)))
    code = (f"import sys; sys.path.insert(0, {str(folder)!r}); import numpy as np; from mlcourse import perceptron as pc\n"
            "X = np.array([[1.0, 1.0], [1.0, -1.0]]); y = np.array([1, -1])\n"
            "print(pc.predict(np.array([0.0, 1.0]), X).tolist())\n"
            "try:\n    pc.train_perceptron(X, y)\nexcept RuntimeError as err:\n    print(err)\n"
            "import mlcourse.svm\ntry:\n    mlcourse.svm.fit_svm\nexcept AttributeError as err:\n    print(err)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["[1, -1]", "mlcourse.perceptron.train_perceptron is not available when your work "
                                "is graded: the exercise asks you to write it yourself",
                                "mlcourse.svm.fit_svm is not available when your work is graded: your answers may "
                                "use only what the lecture's first cell lists"]
    original = (ROOT / "lib" / "mlcourse" / "perceptron.py").read_text()
    body = ast.get_source_segment(original, next(n for n in ast.parse(original).body
                                                 if getattr(n, "name", "") == "train_perceptron"))
    assert body.splitlines()[-1].strip() not in (folder / "mlcourse" / "perceptron.py").read_text()
    assert not list(folder.rglob("*.py"))[0].stat().st_mode & 0o022  # nobody can change it
    assert "sklearn" not in site.entries and "scipy" not in site.entries and "numpy" in site.entries
    assert all(p.name in ("site-packages", "dist-packages") for p in site.others)


def test_a_partly_allowed_package_shows_only_what_importing_the_allowed_part_loads():
    site = allowance.kernel_site(("scipy.special",))
    assert "scipy" in site.entries and "sklearn" not in site.entries
    hidden = {p.name for p in site.hidden}
    assert {"stats", "spatial", "cluster", "optimize"} <= hidden and "special" not in hidden


def test_a_withheld_numpy_function_raises_wherever_numpy_holds_it_or_a_twin():
    """Withdrawn when the grading library is imported (the tagged setup cells do, before any answer), in
    numpy.linalg and in the private module that defines it, so `from numpy.linalg._linalg import lstsq`
    fails too, and with its twins: numpy.cov takes numpy.ma.cov along. Every other function still works."""
    folder, _ = allowance.grading_library(ROOT, allowance.Allowance(("mlcourse.grading",),
                                                                    ("numpy.cov", "numpy.linalg.lstsq", "numpy.linalg.pinv")))
    code = (f"import sys; sys.path.insert(0, {str(folder)!r}); import numpy as np; import mlcourse\n"
            "from numpy.linalg._linalg import lstsq\n"
            "A = np.eye(2)\n"
            "print(np.linalg.solve(A, np.ones(2)).tolist())\n"
            "for f in (lambda: np.linalg.lstsq(A, np.ones(2)), lambda: lstsq(A, np.ones(2)), lambda: np.linalg.pinv(A),\n"
            "          lambda: np.ma.cov(A), lambda: np.ma.extras.cov(A)):\n"
            "    try:\n        f()\n    except RuntimeError as err:\n        print(err)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["[1.0, 1.0]"] + [
        f"{f} is not available when your work is graded: the exercise asks you to write what it "
        "does yourself" for f in ("numpy.linalg.lstsq", "numpy.linalg.lstsq", "numpy.linalg.pinv", "numpy.cov", "numpy.cov")]
    plain, _ = allowance.grading_library(ROOT, allowance.Allowance(("mlcourse.grading",), ()))
    assert "_withdraw" not in (plain / "mlcourse" / "__init__.py").read_text()


# --------------------------------------------------------------------------- what a lecture says


def test_hidden_lines_and_defined_names():
    source = "a = 1\n### BEGIN HIDDEN TESTS\nb = 2\n### END HIDDEN TESTS\nc = 3\n"
    assert judge.hidden_lines(source) == {2, 3, 4}
    assert judge.defined_names("import os\ndef f(): pass\nx, (y, z) = 1, (2, 3)\nw: int = 4\nclass K: pass\n") == \
        {"f", "x", "y", "z", "w", "K"}


@pytest.mark.parametrize("name", LECTURES)
def test_every_name_a_test_uses_is_there_for_the_grader(name):
    """The tests run in the grader with the cells tagged needed-for-grading, the student's names and
    their own: a name from an untagged demo cell would be undefined there."""
    spec = judge.LectureSpec.read(next((ROOT / "solutions" / name).glob("*.ipynb")))
    assert spec.setup, f"{name}: no cell is tagged {judge.SETUP_TAG} (the imports, at least)"
    known = set(dir(builtins)) | spec.student_names
    for source in [*spec.setup, *spec.tests.values()]:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                known.add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                known.add(node.name)
                known |= {a.arg for a in node.args.args} if isinstance(node, ast.FunctionDef) else set()
            elif isinstance(node, ast.Lambda):
                known |= {a.arg for a in node.args.args}
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                known |= {a.asname or a.name.split(".")[0] for a in node.names}
    missing = {gid: sorted(judge.used_names(src) - known) for gid, src in spec.tests.items()}
    assert not any(missing.values()), f"{name}: tests use names no tagged cell defines: {missing}"
    allowance.grading_library(ROOT, spec.allowance)  # every name it allows or withholds exists
    assert "mlcourse.grading" in spec.allowance.allows, f"{name}: the setup cells import mlcourse.grading"
    if spec.allowance.numpy:  # withdrawn when the tagged cells import mlcourse
        assert any(re.search(r"^\s*(from mlcourse\b|import mlcourse\b)", cell, re.M) for cell in spec.setup), \
            f"{name}: kernel_lacks names NumPy functions, but no needed-for-grading cell imports mlcourse"
