"""Adversarial submissions, graded end to end in the sandbox, all in one run.

A scratch course holds one tiny assignment, ``99-mini`` (tests/fixtures/99-mini/mini.ipynb: exercise 1
``add``, 1 point; exercise 2 ``column_means``, 2 points with hidden tests; exercise 3 a number ``answer``,
1 point; written answer A, 2 points by hand). Every case below is one student whose submission is
derived from the generated release as a student would make it: faults (syntax errors, a cell that never
ends, a dying kernel, memory exhaustion, a fork, a flood of output), edited notebooks (deleted, duplicated,
reordered, retyped or edited cells and metadata; renamed, missing, extra and broken notebooks), attempts
to get out of the sandbox (read the solutions, the gradebook or another student's work, write outside its
folder, reach the network) and attempts to fool the tests. A correct and an untouched student are graded
in the same run: whatever the others do, they must score 4/4 and 0/4.

Needs bubblewrap and root (as `make autograde` does). CI=true makes their absence a failure.
"""

from __future__ import annotations

import io
import json
import os
import secrets
import shutil
import socket
import stat
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell

from conftest import ROOT, nbgrader_meta

import course
import grade
import grades_export
import hostile
from hostile import (ALLOWED_ENVIRONMENT, CHEAT_BEFORE_SETUP, CHEAT_LEAK, CHEAT_TAMPER, ENVIRONMENT, HIDDEN_MARKERS,
                     SYMLINK_THEN_DIE)

_missing = ("bubblewrap (bwrap) is not installed" if shutil.which("bwrap") is None
            else "the grading sandbox needs root" if os.geteuid() != 0 else "")
if _missing:
    if os.environ.get("CI") == "true":
        pytest.fail(f"the adversarial grading suite cannot run: {_missing}", pytrace=False)
    pytest.skip(f"the adversarial grading suite needs the sandbox: {_missing}", allow_module_level=True)

pytestmark = pytest.mark.grading

LECTURE, NOTEBOOK = "99-mini", "mini.ipynb"
FIXTURE = ROOT / "tests" / "fixtures" / LECTURE
CELL_TIMEOUT = 5  # seconds per cell in the scratch course (the course's own is 60)
MAX_RESTARTS = 2  # of a submission's kernel in the scratch course (the course's own is 5)
TOKEN = secrets.token_hex(6)  # names the processes and files of this run
SECRET = f"secret-{secrets.token_hex(8)}"  # in the grader's environment and in a root-only file
FULL = 4.0  # autograded points of 99-mini

# Wrong answers of the right type and shape.
WRONG_ADD = "def add(a, b):\n    return a - b\n"
WRONG_MEANS = "import numpy as np\n\ndef column_means(X):\n    return np.zeros(X.shape[1])\n"
WRONG_ANSWER = "answer = 41\n"

# What a student writes to find out what the sandbox lets through: every attempt prints whether it
# was blocked, in the cell's output, which the test reads. (One that succeeds also leaves LEAKED in
# the kernel's folder; that folder is a private copy, so the output is what the test relies on.)
PROBE = '''
import os as _os
open("attempted", "w").close()
print("own folder writable:", _os.path.exists("attempted"))

def _attempt(what, action):
    try:
        action()
    except Exception as err:
        print(f"blocked: {what}: {type(err).__name__}: {err}")
        return
    print(f"LEAKED: {what}")
    with open("LEAKED", "a") as f:
        f.write(what + "\\n")
'''


class Probe:
    """Submission cells that try to leave the sandbox; ``course`` is the scratch course root."""

    @staticmethod
    def read_solutions(course):
        return PROBE + f'''
for _path in ("../../../solutions/99-mini/mini.ipynb", "{course}/solutions/99-mini/mini.ipynb",
              "{ROOT}/solutions", "{FIXTURE}/mini.ipynb"):
    _attempt("read " + _path, lambda: open(_path).read() if not _os.path.isdir(_path) else _os.listdir(_path))
'''

    @staticmethod
    def read_gradebook(course):
        return PROBE + f'''
for _path in ("../../../gradebook.db", "{course}/gradebook.db"):
    _attempt("read " + _path, lambda: open(_path, "rb").read(16))
'''

    @staticmethod
    def read_other_student(course):
        return PROBE + f'''
for _path in ("{course}/submitted/correct/99-mini/mini.ipynb", "{course}/autograded/correct/99-mini/mini.ipynb",
              "../../correct/99-mini/mini.ipynb", "{course}/build/grading/correct/99-mini/mini.ipynb"):
    _attempt("read " + _path, lambda: open(_path).read())
def _list_siblings():
    if "correct" not in _os.listdir("../.."):
        raise PermissionError("no other student in sight: " + repr(_os.listdir("../..")))
_attempt("list ../..", _list_siblings)
'''

    @staticmethod
    def write_outside(course):
        return PROBE + f'''
for _path in ("../../../pwned-relative", "{course}/pwned-absolute", "{course}/submitted/correct/99-mini/pwned",
              "../../correct/99-mini/pwned", "{ROOT}/pwned-{TOKEN}", "/var/tmp/pwned-{TOKEN}"):
    _attempt("write " + _path, lambda: open(_path, "w").write("pwned"))
_attempt("append to {course}/gradebook.db", lambda: open("{course}/gradebook.db", "ab").write(b"x"))
# /tmp is writable, but private to this kernel: the test checks the file is not on the host.
_ = open("/tmp/private-{TOKEN}", "w").write("only in the sandbox")
'''

    @staticmethod
    def network(course, port):
        return PROBE + f'''
import socket as _socket
_attempt("connect 127.0.0.1:{port}", lambda: _socket.create_connection(("127.0.0.1", {port}), timeout=3).close())
_attempt("connect 1.1.1.1:53", lambda: _socket.create_connection(("1.1.1.1", 53), timeout=3).close())
_attempt("resolve example.com", lambda: _socket.getaddrinfo("example.com", 80))
'''


SOCKET_FOLDER = ("import json, os\nfrom ipykernel.connect import get_connection_info\n"
                 "sockets = os.path.dirname(json.loads(get_connection_info())['ip'])\n")

CANARY = "canary-root-only"  # a file of root's, mode 600, in the scratch course
# Student folders whose names would reach nbgrader's patterns (*), grades.csv (commas, formulas) or
# the terminal (control characters).
REFUSED_FOLDERS = ("*", "correct*", "alice,,,0,0,22", "=1+1", "evil\x1b[2J", "-rf")

# --------------------------------------------------------------------------- fooling the tests

EQ_ANYTHING = '''
class Anything:
    """Equal to everything, different from nothing, and a fine number when asked."""
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    def __float__(self): return 42.0
    def __int__(self): return 5
    __hash__ = object.__hash__

def add(a, b):
    return Anything()

def column_means(X):
    return Anything()

answer = Anything()
'''

EQ_ANYTHING_SUBCLASS = '''
import numpy as np

class LiarInt(int):
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    __hash__ = int.__hash__

class LiarFloat(float):
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    def __float__(self): return 42.0
    __hash__ = float.__hash__

class LiarArray(np.ndarray):
    def __eq__(self, other): return np.ones(np.shape(other), bool)
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return True

def add(a, b):
    return LiarInt(0)

def column_means(X):
    return np.zeros(X.shape[1]).view(LiarArray)

answer = LiarFloat(0.0)
'''

PATCH_ALLCLOSE = '''
import numpy as np
import numpy._core.numeric

_yes = lambda *args, **kwargs: True
np.allclose = np.isclose = np.array_equal = _yes
numpy._core.numeric.allclose = numpy._core.numeric.isclose = _yes
'''

PATCH_ISINSTANCE = '''
import builtins
from numbers import Real

class Anything:
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    def __float__(self): return 42.0
    __hash__ = object.__hash__

_real_isinstance = builtins.isinstance

def _lying_isinstance(obj, classes):
    if type(obj) is Anything:  # pass for whatever the test expects: an int, a number
        return _real_isinstance(5, classes) or _real_isinstance(5.0, classes)
    return _real_isinstance(obj, classes)

builtins.isinstance = _lying_isinstance

def add(a, b):
    return Anything()

answer = Anything()
'''

PATCH_GRADING = '''
import mlcourse
from mlcourse import grading

_noop = lambda name, value, *args, **kwargs: value
for _name in ("check_array", "check_close", "check_equal", "check_labels", "_fail"):
    try:
        setattr(grading, _name, _noop)
    except Exception as err:
        print(f"grading.{_name}: {type(err).__name__}: {err}")
try:
    grading.check_number = lambda name, value, *args, **kwargs: 42.0
except Exception as err:
    print(f"grading.check_number: {type(err).__name__}: {err}")

class _FakeGrading:
    def __getattr__(self, name):
        return _noop
try:
    mlcourse.grading = _FakeGrading()
except Exception as err:
    print(f"mlcourse.grading: {type(err).__name__}: {err}")
'''

FAKE_GRADING = '''
import sys

class _FakeGrading:
    def __getattr__(self, name):
        return lambda name, value, *args, **kwargs: 42.0 if name == "answer" else value

grading = _FakeGrading()
sys.modules["mlcourse.grading"] = _FakeGrading()

class _FakeNumpy:
    def __getattr__(self, name):
        return lambda *args, **kwargs: True
np = _FakeNumpy()
'''

INPUT_TRANSFORMER = '''
def _skip_tests(lines):
    if any("grading." in line for line in lines):
        return ["pass\\n"]
    return lines

get_ipython().input_transformers_cleanup.append(_skip_tests)
'''

PRE_RUN_CELL = '''
import ast

class _DropChecks(ast.NodeTransformer):
    """Removes every statement of a cell that mentions the grading library."""
    def visit_Module(self, node):
        node.body = [s for s in node.body if "grading" not in ast.dump(s)] or [ast.Pass()]
        return node

def _before_each_cell(info):
    ip = get_ipython()
    if "grading" in (info.raw_cell or "") and not any(isinstance(t, _DropChecks) for t in ip.ast_transformers):
        ip.ast_transformers.append(_DropChecks())

get_ipython().events.register("pre_run_cell", _before_each_cell)
'''

SILENCED_ERRORS = '''
ip = get_ipython()
ip.set_custom_exc((BaseException,), lambda shell, etype, value, tb, tb_offset=None: None)
ip.showtraceback = lambda *args, **kwargs: None
ip._showtraceback = lambda *args, **kwargs: None
'''


# --------------------------------------------------------------------------- the cases


class Nb:
    """A notebook being edited as a student would: cells found by their nbgrader grade_id."""

    def __init__(self, nb):
        self.nb = nbformat.from_dict(nb)

    @property
    def cells(self):
        return self.nb.cells

    def index(self, grade_id):
        """Index of the cell with this grade_id; "setup" is the (ungraded) setup cell."""
        if grade_id == "setup":
            return next(i for i, c in enumerate(self.cells)
                        if c.cell_type == "code" and not nbgrader_meta(c) and "from mlcourse import grading" in c.source)
        return next(i for i, c in enumerate(self.cells) if nbgrader_meta(c).get("grade_id") == grade_id)

    def cell(self, grade_id):
        return self.cells[self.index(grade_id)]

    def set(self, grade_id, source):
        self.cell(grade_id).source = source
        return self

    def append_to(self, grade_id, source):
        self.cell(grade_id).source += "\n" + source
        return self

    def insert_before(self, grade_id, source):
        self.cells.insert(self.index(grade_id), new_code_cell(source))
        return self

    def insert_after(self, grade_id, source):
        self.cells.insert(self.index(grade_id) + 1, new_code_cell(source))
        return self


@dataclass
class Case:
    score: float | None  # autograded points out of 4 (None: any, as long as a regrade gives the same)
    status: str = "graded"
    note: str = ""  # a phrase the outcome's notes must hold


CASES = {
    "correct": Case(FULL),
    "untouched": Case(0),
    # faults
    "syntax_error": Case(2),
    "exception": Case(2),
    "infinite_loop": Case(2),
    "uninterruptible_loop": Case(2),  # the new kernel runs add's cell again, so exercise 3 passes
    "kernel_dies": Case(2),
    "memory_exhaustion": Case(FULL),
    "fork_survivor": Case(FULL),
    "output_flood": Case(FULL),
    # edited notebooks
    "deleted_test_cell": Case(FULL),
    "deleted_answer_and_test": Case(2, note="deleted answer cells put back empty (column_means)"),
    "duplicated_cells": Case(FULL, note="duplicated or unknown graded cells made ordinary (column_means, test_column_means)"),
    "reordered_cells": Case(FULL),
    "retyped_cell": Case(FULL),
    "edited_test_cell": Case(2),
    "edited_metadata": Case(1, note="edited nbgrader metadata restored (test_add, test_answer)"),
    "renamed_notebook": Case(0, note="my-mini.ipynb: not a notebook of this lecture"),
    "missing_notebook": Case(0, note="mini.ipynb: missing, scores zero"),
    "extra_notebook": Case(FULL, note="extra.ipynb: not a notebook of this lecture"),
    "invalid_json": Case(0, note="not a readable notebook"),
    # getting out of the sandbox
    "read_solutions": Case(FULL),
    "read_gradebook": Case(FULL),
    "read_other_student": Case(FULL),
    "write_outside": Case(FULL),
    "network": Case(FULL),
    "symlink_then_die": Case(FULL),
    "environment": Case(FULL),
    # files the grader copies, and names that reach other tools
    "hardlinked_solution": Case(0, note="mini.ipynb: a hard link to another file, left out"),
    "fifo": Case(FULL, note="pipe: not a plain file"),
    "device": Case(FULL, note="zero: not a plain file"),
    "huge_file": Case(FULL, note="huge.bin: larger than"),
    "grade_id_list": Case(FULL, note="made ordinary (['test_add'])"),
    "control_characters": Case(FULL, note="notes\\x1b[2J.ipynb: not a notebook of this lecture"),
    # fooling the tests
    "eq_anything": Case(0),
    "eq_anything_subclass": Case(0),
    "patch_allclose": Case(2),
    "patch_isinstance": Case(2),
    "patch_grading": Case(0),
    "fake_grading": Case(0),
    "input_transformer": Case(0),
    "pre_run_cell": Case(0),
    "silenced_errors": Case(0),
    # judging the judge: the tests run in the grader's process, out of the kernel's reach
    "cheat_before_setup": Case(0),
    "cheat_tamper": Case(0),
    "cheat_leak": Case(1),  # exercise 3 is answered
    # a mark is a measurement
    "overwrite_inputs": Case(2),  # column_means zeroes the hidden test's X: the test's own copy is untouched
    "near_miss": Case(None),  # wrong on one row only: passes or fails by the draw, the same on every regrade
    "own_timestamp": Case(FULL, note="timestamp.txt: the submission's own, not used"),
    # no student can change another's mark, or stall the grader
    "process_hog": Case(FULL),  # holds every process its user may have while others are graded beside it
    "socket_drop": Case(FULL),  # leaves a file in its socket folder...
    "socket_peek": Case(FULL),  # ...which the next kernel of the batch must not find in its own (else answer 41)
    "deep_reply": Case(1),  # its replies nest 200,000 deep: its calls fail, nothing else does
    "kernel_killer": Case(1),  # every call and every replay kills its kernel: restarts are budgeted; answer counts
    "no_cell_ids": Case(FULL),  # nbformat would invent ids: the fingerprint must not change with them
}
PROBES = {"read_solutions": 4, "read_gradebook": 2, "read_other_student": 5, "write_outside": 7, "network": 3}
# (case: how many attempts it makes)


def submission(case: str, release, filled, course: Path, port: int):
    """The notebook a student hands in for ``case``, or None when the case writes its own files."""
    nb = Nb(filled)
    if case == "correct":
        return nb
    if case == "untouched":
        return Nb(release)
    if case == "syntax_error":
        return nb.set("column_means", "def column_means(X)\n    return X.mean(axis=0)\n")
    if case == "exception":  # at call time in exercise 2; after the answer is set in exercise 3
        nb.set("column_means", "def column_means(X):\n    return X.mean(axis=0) / int('zero')\n")
        return nb.append_to("answer", "{}['no such key']")
    if case == "infinite_loop":  # interrupted at the time limit: the kernel keeps add for exercise 3
        return nb.set("column_means", "while True:\n    pass\n").set("answer", "answer = add(40, 2)\n")
    if case == "uninterruptible_loop":  # deaf to the interrupt: the kernel is restarted, add is gone
        nb.set("column_means", "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass\n")
        return nb.set("answer", "answer = add(40, 2)\n")
    if case == "kernel_dies":
        return nb.set("column_means", "import os\nos._exit(1)\n\ndef column_means(X):\n    return X.mean(axis=0)\n")
    if case == "memory_exhaustion":  # 50 GB, 1 GB at a time, in a cell of its own before exercise 2
        # (np.empty: the cap is on address space, reached as surely and without touching the pages)
        return nb.insert_before("column_means", "import numpy as np\n\nhog = [np.empty(10**9, np.uint8) for _ in range(50)]\n")
    if case == "fork_survivor":
        return nb.append_to("add", f'''
import os, sys
_read, _write = os.pipe()
_child = os.fork()
if _child == 0:  # a daemon: new session, double fork, then a long sleep under a name the test looks for
    try:
        os.setsid()
        if os.fork() == 0:
            os.write(_write, str(os.getpid()).encode())
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)", "survivor-{TOKEN}"])
    finally:
        os._exit(0)
os.waitpid(_child, 0)
print("forked a daemon, pid", os.read(_read, 20).decode(), "in the sandbox")
''')
    if case == "output_flood":
        return nb.insert_after("add", "print('\\n'.join(map(str, range(3_000_000))))\n")
    if case == "deleted_test_cell":
        del nb.cells[nb.index("test_column_means")]
        return nb
    if case == "deleted_answer_and_test":
        del nb.cells[nb.index("column_means"):nb.index("test_column_means") + 1]
        return nb
    if case == "duplicated_cells":  # a wrong try kept above the right answer, tests and all
        first = nb.index("column_means")
        copies = [nbformat.from_dict(c) for c in nb.cells[first:first + 2]]
        for copy in copies:
            copy.id = secrets.token_hex(4)  # Jupyter gives pasted cells new ids
        copies[0].source = WRONG_MEANS
        nb.cells[first:first] = copies
        return nb
    if case == "reordered_cells":  # exercise 3 first (before the setup cell), then 2, then 1
        block = lambda sol, test: [nb.cells[nb.index(sol)], nb.cells[nb.index(test)]]  # noqa: E731
        ex1, ex2, ex3 = block("add", "test_add"), block("column_means", "test_column_means"), block("answer", "test_answer")
        rest = [c for c in nb.cells if not any(c is x for x in ex1 + ex2 + ex3)]
        nb.nb.cells = ex3 + rest[:2] + ex2 + ex1 + rest[2:]
        return nb
    if case == "retyped_cell":  # cells turned into Markdown and back: each gets its type back, and runs
        for grade_id in ("add", "test_answer"):
            cell = nb.cell(grade_id)
            cell.cell_type = "markdown"
            del cell["outputs"], cell["execution_count"]
        written = nb.cell("written_a")
        written.update(cell_type="code", outputs=[], execution_count=None)
        written.source = "open('LEAKED', 'w').write('a written answer ran as code')\n"
        return nb
    if case == "edited_test_cell":
        nb.set("column_means", WRONG_MEANS)
        return nb.set("test_column_means", "pass\n")
    if case == "edited_metadata":
        nb.cell("test_add").metadata.nbgrader["points"] = 100  # exercise 1 right: still 1 point
        nb.set("column_means", WRONG_MEANS)  # exercise 2 wrong, its test cell renamed and emptied
        nb.set("test_column_means", "pass\n").cell("test_column_means").metadata.nbgrader["grade_id"] = "mine"
        nb.set("answer", WRONG_ANSWER)  # exercise 3 wrong, its test cell made an ordinary, unlocked cell
        meta = nb.cell("test_answer").metadata.nbgrader
        meta.update(grade=False, locked=False, points=0)
        return nb.set("test_answer", "pass\n")
    if case == "renamed_notebook":
        return None
    if case == "missing_notebook":
        return None
    if case == "extra_notebook":
        return nb
    if case == "invalid_json":
        return None
    if case == "symlink_then_die":  # a cell of its own after exercise 1: the restart keeps every point
        return nb.insert_after("test_add", SYMLINK_THEN_DIE.format(
            targets=[str(course / "gradebook.db"), str(course / CANARY)], notebook=NOTEBOOK))
    if case == "environment":
        return nb.insert_after("test_add", ENVIRONMENT)
    if case == "grade_id_list":
        nb.cell("test_add").metadata.nbgrader["grade_id"] = ["test_add"]
        return nb
    if case in ("hardlinked_solution",):
        return None
    if case in ("fifo", "device", "huge_file", "control_characters"):
        return nb
    if case in PROBES:
        probe = getattr(Probe, case)
        return nb.append_to("add", probe(course, port) if case == "network" else probe(course))
    if case == "eq_anything":
        return nb.set("add", "").set("column_means", "").set("answer", EQ_ANYTHING)
    if case == "eq_anything_subclass":
        return nb.set("add", "").set("column_means", "").set("answer", EQ_ANYTHING_SUBCLASS)
    if case == "patch_allclose":
        return nb.set("column_means", WRONG_MEANS).insert_after("column_means", PATCH_ALLCLOSE)
    if case == "patch_isinstance":
        return nb.set("add", "").set("answer", "").insert_after("setup", PATCH_ISINSTANCE)
    if case == "patch_grading":
        nb.set("add", WRONG_ADD).set("column_means", WRONG_MEANS).set("answer", WRONG_ANSWER)
        return nb.insert_after("add", PATCH_GRADING)
    if case == "fake_grading":
        nb.set("add", WRONG_ADD).set("column_means", WRONG_MEANS).set("answer", WRONG_ANSWER)
        return nb.insert_after("add", FAKE_GRADING)
    if case == "input_transformer":
        return Nb(release).insert_after("setup", INPUT_TRANSFORMER)
    if case == "pre_run_cell":
        return Nb(release).insert_after("setup", PRE_RUN_CELL)
    if case == "silenced_errors":
        return Nb(release).insert_after("setup", SILENCED_ERRORS)
    if case == "cheat_before_setup":
        return Nb(release).insert_before("setup", CHEAT_BEFORE_SETUP)
    if case == "cheat_tamper":
        nb.set("add", WRONG_ADD).set("column_means", WRONG_MEANS).set("answer", WRONG_ANSWER)
        return nb.insert_after("add", CHEAT_TAMPER)
    if case == "cheat_leak":  # the answers return and print what they can see of the tests
        nb.set("add", CHEAT_LEAK + "\ndef add(a, b):\n    print(_frames())\n    return _frames()\n")
        return nb.set("column_means", "def column_means(X):\n    print(_frames())\n    return np.zeros(X.shape[1])\n")
    if case == "overwrite_inputs":  # right on the public example; elsewhere zeroes X and answers zeros
        return nb.set("column_means", "import numpy as np\n\ndef column_means(X):\n    if X.shape == (2, 2):\n"
                                      "        return X.mean(axis=0)\n    X[:] = 0\n    return np.zeros(X.shape[1])\n")
    if case in ("own_timestamp", "no_cell_ids"):  # the correct answers; the files are changed below
        return nb
    if case == "process_hog":  # children sleeping until its kernel goes, as many as its user may have
        return nb.insert_after("answer", hostile.PROCESS_HOG + hostile.RELEASE)
    if case == "socket_drop":
        return nb.insert_after("answer", SOCKET_FOLDER + "open(os.path.join(sockets, 'left-by-socket-drop'), 'w').write('hi')\n")
    if case == "socket_peek":
        return nb.set("answer", SOCKET_FOLDER + "foreign = [n for n in os.listdir(sockets) if not n.startswith('kernel')]\n"
                                "answer = 41 if foreign else 42\n")
    if case == "deep_reply":  # the kernel's side of the wire replaced: every call answers a JSON nested deep
        return nb.insert_after("answer", "_R = type(__mlcourse_judge__.describe('[]'))\n"
                                         "__mlcourse_judge__.call = lambda request: _R('[' * 200000 + ']' * 200000)\n")
    if case == "kernel_killer":  # its calls kill the kernel, and so does its last cell when run again
        nb.set("add", "import os\n\ndef add(a, b):\n    os._exit(1)\n")
        nb.set("column_means", "import os\n\ndef column_means(X):\n    os._exit(1)\n")
        return nb.set("answer", SOCKET_FOLDER + "marker = os.path.join(sockets, 'ran-before')\n"
                                "if os.path.exists(marker):\n    os._exit(1)\nopen(marker, 'w').close()\nanswer = 42\n")
    if case == "near_miss":  # the hidden test draws n from 1 to 19: about 4 gradings in 10 meet n = 1
        return nb.set("column_means", "import numpy as np\n\ndef column_means(X):\n"
                                      "    return X.mean(axis=0) if len(X) > 1 else np.zeros(X.shape[1])\n")
    raise AssertionError(f"no submission for case {case}")


def write_submissions(root: Path, port: int) -> None:
    release = nbformat.read(root / "notebooks" / LECTURE / NOTEBOOK, as_version=4)
    solution = nbformat.read(root / "solutions" / LECTURE / NOTEBOOK, as_version=4)
    filled = course.filled_release(release, solution)
    for case in CASES:
        folder = root / "submitted" / case / LECTURE
        folder.mkdir(parents=True)
        nb = submission(case, release, filled, root, port)
        if nb is not None:
            nbformat.write(nb.nb, folder / NOTEBOOK)
        if case == "renamed_notebook":
            nbformat.write(filled, folder / "my-mini.ipynb")
        elif case == "missing_notebook":
            (folder / "notes.txt").write_text("I ran out of time.\n")
        elif case == "extra_notebook":
            nbformat.write(filled, folder / "extra.ipynb")
        elif case == "invalid_json":
            (folder / NOTEBOOK).write_text('{"cells": [ this is not JSON\n')
        elif case == "hardlinked_solution":  # the solutions, handed in as the student's work
            os.link(root / "solutions" / LECTURE / NOTEBOOK, folder / NOTEBOOK)
        elif case == "fifo":  # opening it would wait forever for a writer
            os.mkfifo(folder / "pipe")
        elif case == "device":  # /dev/zero: reading it never ends
            os.mknod(folder / "zero", 0o600 | stat.S_IFCHR, os.makedev(1, 5))
        elif case == "huge_file":
            with open(folder / "huge.bin", "wb") as f:
                f.truncate(grade.MAX_FILE_BYTES + 1)
        elif case == "control_characters":  # would clear the instructor's terminal in the summary
            nbformat.write(filled, folder / "notes\x1b[2J.ipynb")
        elif case == "own_timestamp":  # the student's clock, set to long before the deadline
            (folder / "timestamp.txt").write_text("2000-01-01 00:00:00.000000 UTC")
        elif case == "no_cell_ids":
            raw = json.loads((folder / NOTEBOOK).read_text())
            for cell in raw["cells"]:
                cell.pop("id", None)
            (folder / NOTEBOOK).write_text(json.dumps(raw))
    # Folders that are not a student's submission to grade: each is refused, and harms no one.
    for name in REFUSED_FOLDERS:
        (root / "submitted" / name / LECTURE).mkdir(parents=True)
        nbformat.write(filled, root / "submitted" / name / LECTURE / NOTEBOOK)
    (root / "submitted" / "linked_lecture").mkdir()
    (root / "submitted" / "linked_lecture" / LECTURE).symlink_to(root / "solutions" / LECTURE)


# --------------------------------------------------------------------------- the grading run


class Listener:
    """A TCP server on a free port of 127.0.0.1 that records every connection it accepts."""

    def __init__(self):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections: list = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self):
        while not self._stop.is_set():
            try:
                conn, peer = self.sock.accept()
            except OSError:
                continue
            self.connections.append(peer)
            conn.close()

    def close(self):
        self._stop.set()
        self._thread.join()
        self.sock.close()


@dataclass
class Run:
    root: Path
    outcomes: dict  # student -> grade.Outcome
    scores: dict  # student -> (code_score, max_code_score) read from the gradebook right after the run
    log: str
    seconds: float
    listener: Listener

    def autograded(self, student: str) -> Path:
        return self.root / "autograded" / student / LECTURE

    def notebook(self, student: str):
        return Nb(nbformat.read(self.autograded(student) / NOTEBOOK, as_version=4))


def gradebook(root: Path):
    from nbgrader.api import Gradebook

    return Gradebook(f"sqlite:///{root / 'gradebook.db'}")


def code_scores(root: Path) -> dict:
    with gradebook(root) as gb:
        return {s.student_id: (s.code_score, s.max_code_score) for s in gb.assignment_submissions(LECTURE)}


def processes_named(word: str) -> list[int]:
    """Host pids of the processes whose command line holds ``word`` (any pid namespace)."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if word.encode() in (proc / "cmdline").read_bytes():
                    found.append(int(proc.name))
            except OSError:
                pass
    return found


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A scratch course with only 99-mini, every case submitted, all graded in one sandboxed run."""
    root = tmp_path_factory.mktemp("adversarial")
    # as conftest.scratch_course, but with 99-mini as the only lecture and a short per-cell timeout
    shutil.copy(ROOT / "nbgrader_config.py", root)
    with open(root / "nbgrader_config.py", "a") as f:
        f.write(f"\nc.ExecutePreprocessor.timeout = {CELL_TIMEOUT}  # tests/test_adversarial.py\n"
                f"c.Judge.max_restarts = {MAX_RESTARTS}\n")
    (root / "tools").symlink_to(ROOT / "tools")
    shutil.copytree(FIXTURE, root / "solutions" / LECTURE)
    course.nbgrader("generate_assignment", LECTURE, "--log-level=WARN", root=root)
    listener = Listener()
    (root / CANARY).write_text(SECRET)
    os.chmod(root / CANARY, 0o600)
    os.environ["MLCOURSE_TEST_SECRET"] = SECRET  # as a database password in MLCOURSE_GRADEBOOK would be
    try:
        write_submissions(root, listener.port)
        out, start = io.StringIO(), time.perf_counter()
        outcomes = grade.run(root, sandbox=True, jobs=2, out=out)  # two at once, on SQLite
        seconds = time.perf_counter() - start
        yield Run(root, {o.submission.student: o for o in outcomes}, code_scores(root), out.getvalue(), seconds,
                  listener)
    finally:
        del os.environ["MLCOURSE_TEST_SECRET"]
        listener.close()
        for pid in processes_named(f"survivor-{TOKEN}"):  # never leave one behind, even when a test fails
            os.kill(pid, 9)


# --------------------------------------------------------------------------- every case: score and status


@pytest.mark.parametrize("case", CASES)
def test_case_is_graded_to_its_exact_score(run, case):
    expected = CASES[case]
    outcome = run.outcomes[case]
    assert outcome.status == expected.status, f"{case}: {outcome.status} ({outcome.why})\n{run.log}"
    score, top = run.scores[case]
    if expected.score is None:
        expected = Case(score, expected.status, expected.note)
    assert (score, top) == (expected.score, FULL), f"{case}: {score} of {top} autograded points, expected {expected.score}"
    assert (outcome.score, outcome.max_score) == (expected.score, FULL)
    assert expected.note in outcome.why, f"{case}: the notes {outcome.why!r} should say {expected.note!r}"


def test_one_run_grades_the_correct_student_fully_and_the_untouched_one_to_zero(run):
    assert set(run.outcomes) == set(CASES), "every submission is graded in the one run"
    assert run.scores["correct"] == (FULL, FULL)
    assert run.scores["untouched"] == (0, FULL)
    assert "with 2 job(s)" in run.log, "the run grades two submissions at once, on the SQLite gradebook"
    print(f"graded {len(run.outcomes)} submissions in {run.seconds:.0f} s")


def test_a_regrade_gives_every_submission_the_same_marks_and_messages(run):
    """FORCE=1 grades them again: the hidden tests draw the same inputs for each student (from the
    course's grading secret), so every test cell scores and reads as before, the near miss included."""
    def outputs(student):
        nb = run.notebook(student)
        return [(c.metadata.get("nbgrader", {}).get("grade_id"), [o.get("evalue") or o.get("text") for o in c.get("outputs", [])])
                for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]

    students = ("correct", "untouched", "near_miss", "overwrite_inputs", "exception", "cheat_leak")
    before = {s: outputs(s) for s in students}
    for student in students:
        [outcome] = grade.run(run.root, student=student, force=True, jobs=1, out=io.StringIO())
        assert outcome.status == "graded", (student, outcome.why)
    assert {s: code_scores(run.root)[s] for s in students} == {s: run.scores[s] for s in students}
    assert {s: outputs(s) for s in students} == before
    failed = [e for _, out in before["near_miss"] for e in out if e and "hidden test" in e]
    assert all(f"drawn for near_miss in {LECTURE}" in e for e in failed), failed


def test_a_kernel_that_dies_on_every_call_has_a_budget_of_restarts(run):
    log = (run.root / "logs" / "autograde" / LECTURE / "kernel_killer.log").read_text()
    assert "used up its grading budget" in log
    assert log.count("restarting the kernel") == MAX_RESTARTS, log.count("restarting the kernel")


def test_each_job_runs_its_kernels_as_a_user_of_its_own(run):
    """The hog took every process its user may have; the kernels of the other job, started meanwhile,
    ran as another user and were not refused (every other case scored exactly)."""
    assert "with 2 job(s)" in run.log
    assert run.scores["process_hog"] == (FULL, FULL) and run.scores["correct"] == (FULL, FULL)


def test_a_submission_without_cell_ids_is_not_regraded_when_nothing_changed(run):
    """nbformat invents random ids for cells that have none; staging gives them fixed ones, so the fingerprint
    of an unchanged submission stays the same and re-running grades nothing again."""
    [outcome] = grade.run(run.root, student="no_cell_ids", jobs=1, out=io.StringIO())
    assert outcome.status == "unchanged", (outcome.status, outcome.why)


def test_the_submission_time_is_the_collections_never_the_students(run):
    staged = run.root / "build" / "grading" / "own_timestamp" / LECTURE
    assert not (staged / "timestamp.txt").exists(), "the student's own timestamp.txt reached grading"
    from nbgrader.api import Gradebook

    with Gradebook(grade.gradebook_url(run.root)) as gb:
        assert gb.find_submission(LECTURE, "own_timestamp").timestamp is None or \
            gb.find_submission(LECTURE, "own_timestamp").timestamp.year != 2000


def test_the_gradebook_is_intact(run):
    with gradebook(run.root) as gb:
        assert {s.id for s in gb.students} == set(CASES)
        assignment = gb.find_assignment(LECTURE)
        assert [n.name for n in assignment.notebooks] == ["mini"]
        cells = {c.name: c.max_score for c in gb.find_notebook("mini", LECTURE).grade_cells}
        assert cells == {"test_add": 1, "test_column_means": 2, "test_answer": 1, "written_a": 2}
        assert assignment.max_score == 6 and assignment.max_code_score == FULL
        for student in CASES:
            sub = gb.find_submission(LECTURE, student)
            assert (sub.max_score, sub.max_code_score) == (6, FULL), student
            grades = {g.name: g.max_score for g in gb.find_submission_notebook("mini", LECTURE, student).grades}
            assert grades == cells, f"{student}: the graded cells changed: {grades}"


# --------------------------------------------------------------------------- faults


def errors(cell) -> list[str]:
    return [o.ename for o in cell.get("outputs", []) if o.output_type == "error"]


def test_no_hidden_test_reaches_the_kernel_or_the_outputs(run):
    """The kernel never has the hidden tests: not in its folder, its history or its callers' frames."""
    nb = run.notebook("cheat_leak")
    leaked = "".join(str(o) for c in nb.cells for o in c.get("outputs", []))
    assert "LEAK-FILES" in leaked, "the probe did not run"
    assert not [m for m in HIDDEN_MARKERS if m in leaked], leaked[:3000]


def test_a_cell_that_never_ends_is_stopped_and_the_rest_graded(run):
    nb = run.notebook("infinite_loop")
    assert "KeyboardInterrupt" in errors(nb.cell("column_means")), "the endless cell is interrupted"
    assert not errors(nb.cell("answer")) and not errors(nb.cell("test_answer")), "the kernel kept its variables"
    nb = run.notebook("uninterruptible_loop")
    assert errors(nb.cell("column_means")) == ["CellTimeoutError"], "the cell fails at its time limit"
    assert not errors(nb.cell("answer")), "the new kernel ran the cells before again: add is back"
    assert not errors(nb.cell("test_add")) and not errors(nb.cell("test_answer")), "the points are kept"


def test_a_dying_kernel_fails_one_cell_and_keeps_the_points_before(run):
    nb = run.notebook("kernel_dies")
    assert errors(nb.cell("column_means")) == ["KernelDied"]
    assert not errors(nb.cell("test_add")) and not errors(nb.cell("test_answer"))


def test_memory_exhaustion_fails_the_cell_that_asked_for_it(run):
    nb = run.notebook("memory_exhaustion")
    hog = nb.cells[nb.index("column_means") - 1]
    assert "hog" in hog.source
    assert errors(hog) in (["MemoryError"], ["KernelDied"]), errors(hog)


def stdout(cell) -> str:
    return "".join(o.text for o in cell.get("outputs", []) if o.output_type == "stream" and o.name == "stdout")


def test_a_forked_process_does_not_outlive_grading(run):
    assert "forked a daemon, pid" in stdout(run.notebook("fork_survivor").cell("add")), "the fork should have happened"
    sleeper = f"survivor-{TOKEN}-control"  # the search itself finds a process that is there
    import subprocess
    import sys

    control = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", sleeper])
    try:
        # Popen returns once exec has begun, which can be before the kernel shows the new command
        # line in /proc: look again for a few seconds before concluding the search is blind.
        deadline = time.monotonic() + 5
        while processes_named(sleeper) != [control.pid] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert processes_named(sleeper) == [control.pid]
    finally:
        control.kill()
        control.wait()
    assert processes_named(f"survivor-{TOKEN}") == [], "a process forked by the submission is still running"


def test_a_flood_of_output_is_cut_short(run):
    path = run.autograded("output_flood") / NOTEBOOK
    assert path.stat().st_size < 200_000, f"the autograded notebook is {path.stat().st_size} bytes"
    nb = run.notebook("output_flood")
    flood = nb.cells[nb.index("add") + 1]
    assert "3_000_000" in flood.source and flood.outputs, "the flood's output is kept, cut short"


# --------------------------------------------------------------------------- edited notebooks


def test_deleted_and_edited_test_cells_are_the_original_ones_when_graded(run):
    original = nbformat.read(run.root / "solutions" / LECTURE / NOTEBOOK, as_version=4)  # hidden tests and all
    source = Nb(original).cell("test_column_means").source
    for student in ("deleted_test_cell", "deleted_answer_and_test", "edited_test_cell", "edited_metadata"):
        # (nbgrader starts a cell it put back with a comment that says so)
        assert run.notebook(student).cell("test_column_means").source.endswith(source), student


def test_retyped_cells_get_their_type_back(run):
    nb = run.notebook("retyped_cell")
    assert [nb.cell(g).cell_type for g in ("add", "test_answer", "written_a")] == ["code", "code", "markdown"]


def test_an_extra_notebook_is_not_run(run):
    assert not (run.autograded("extra_notebook") / "extra.ipynb").exists()


# --------------------------------------------------------------------------- getting out of the sandbox


@pytest.mark.parametrize("case", PROBES)
def test_the_sandbox_stops_the_attempt(run, case):
    out = stdout(run.notebook(case).cell("add"))
    assert "own folder writable: True" in out, f"{case}: the probe did not run:\n{out}"
    assert "LEAKED" not in out, f"{case}: the sandbox let through:\n{out}"
    assert out.count("blocked: ") == PROBES[case], f"{case}: not every attempt ran:\n{out}"
    assert not (run.autograded(case) / "LEAKED").exists()


def test_nothing_was_written_outside_the_students_folder(run):
    root = run.root
    for path in (root / "pwned-relative", root / "pwned-absolute", root / "submitted" / "correct" / LECTURE / "pwned",
                 root / "autograded" / "correct" / LECTURE / "pwned", ROOT / f"pwned-{TOKEN}",
                 Path(f"/var/tmp/pwned-{TOKEN}"), Path(f"/tmp/private-{TOKEN}")):
        assert not path.exists(), f"the submission wrote {path}"


def test_no_connection_reached_the_local_server(run):
    assert run.listener.connections == []


def test_root_writes_nothing_through_links_the_kernel_planted(run):
    nb = run.notebook("symlink_then_die")
    attack = nb.cells[nb.index("test_add") + 1]
    assert "planted" in stdout(attack) and errors(attack) == ["KernelDied"], "the attack should have run, then died"
    planted = int(stdout(attack).split()[1])
    assert planted >= 8, f"only {planted} links planted: the attack no longer reaches the folders it should"
    for path in (run.root / "gradebook.db", run.root / CANARY):
        info = path.lstat()
        assert path.is_file() and not path.is_symlink(), f"{path.name} is no longer a plain file"
        assert (info.st_uid, info.st_gid) == (0, 0), f"{path.name} now belongs to uid {info.st_uid}"
    assert (run.root / CANARY).read_text() == SECRET and ((run.root / CANARY).stat().st_mode & 0o777) == 0o600
    assert (run.root / "gradebook.db").read_bytes()[:16] == b"SQLite format 3\x00"


def test_the_kernel_gets_a_minimal_environment(run):
    out = stdout(run.notebook("environment").cells[run.notebook("environment").index("test_add") + 1])
    assert "MPLCONFIGDIR" in out, f"the environment was not printed: {out[:300]}"
    assert SECRET not in out and "MLCOURSE" not in out, "the grader's environment reached the kernel"
    names = {k for k, _ in eval(out)}  # noqa: S307 (our own test's output: a list of pairs of strings)
    assert names <= ALLOWED_ENVIRONMENT, (
        f"the kernel sees more of the grader's environment than it needs: {sorted(names - ALLOWED_ENVIRONMENT)}")


def test_folders_with_hostile_names_are_refused_and_harm_no_one(run):
    skipped = [line for line in run.log.splitlines() if "skipped" in line]
    for name in REFUSED_FOLDERS:
        assert not any(o.submission.student == name for o in run.outcomes.values()), f"{name!r} was graded"
        assert any(repr(name)[1:-1] in line for line in skipped), f"{name!r} is not named in the summary"
    assert any("linked_lecture/99-mini: not a folder" in line for line in skipped)
    assert "\x1b" not in run.log, "a control character reached the terminal"
    # 'correct*' and '*' are patterns to nbgrader: the real 'correct' must keep its graded notebook
    assert (run.autograded("correct") / NOTEBOOK).is_file() and run.scores["correct"] == (FULL, FULL)
    with gradebook(run.root) as gb:
        assert {s.id for s in gb.students} == set(CASES)


def test_grades_csv_is_safe_to_open_in_a_spreadsheet(run):
    import csv

    assert course.export(run.root, out=io.StringIO())
    with open(run.root / "grades.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert {r["student_id"] for r in rows} == set(CASES)
    for row in rows:
        for value in row.values():
            assert not (value and value[0] in "=+-@" and not value.lstrip("+-").replace(".", "", 1).isdigit()), value
    assert grades_export.spreadsheet_safe("=HYPERLINK(1)") == "'=HYPERLINK(1)" and grades_export.spreadsheet_safe("-2.5") == "-2.5"


def test_special_files_were_never_read(run):
    staged = run.root / "build" / "grading"
    for case, name in (("fifo", "pipe"), ("device", "zero"), ("huge_file", "huge.bin")):
        assert not (staged / case / LECTURE / name).exists(), f"{case}: {name} was copied"
    assert run.seconds < 60 * len(CASES), "grading stalled"


# --------------------------------------------------------------------------- re-running


def set_manual_score(root: Path, student: str, points: float) -> None:
    with gradebook(root) as gb:
        gb.find_grade("written_a", "mini", LECTURE, student).manual_score = points
        gb.db.commit()


def manual_score(root: Path, student: str):
    with gradebook(root) as gb:
        return gb.find_grade("written_a", "mini", LECTURE, student).manual_score


def test_a_rerun_changes_nothing_and_keeps_manual_scores(run):
    set_manual_score(run.root, "correct", 1.5)
    outcomes = grade.run(run.root, sandbox=True, out=io.StringIO())
    assert {o.submission.student: o.status for o in outcomes} == dict.fromkeys(CASES, "unchanged")
    assert code_scores(run.root) == run.scores
    assert manual_score(run.root, "correct") == 1.5


def test_a_changed_submission_is_regraded_and_keeps_its_manual_score(run):
    set_manual_score(run.root, "untouched", 2)
    path = run.root / "submitted" / "untouched" / LECTURE / NOTEBOOK
    nb = Nb(nbformat.read(path, as_version=4)).set("add", "def add(a, b):\n    return a + b\n")
    nbformat.write(nb.nb, path)
    outcomes = {o.submission.student: o for o in grade.run(run.root, sandbox=True, out=io.StringIO())}
    assert outcomes["untouched"].status == "graded" and outcomes["untouched"].score == 1
    assert all(o.status == "unchanged" for s, o in outcomes.items() if s != "untouched")
    assert code_scores(run.root)["untouched"] == (1, FULL)
    assert manual_score(run.root, "untouched") == 2
    assert manual_score(run.root, "correct") == 1.5
