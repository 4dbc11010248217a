"""The judge: grading with the tests in the grader's process and only the student's code in the kernel.

``Judge`` takes the place of nbgrader's Execute in `nbgrader autograde` (nbgrader_config.py). For one
submitted notebook it

1. starts the student's kernel (the sandbox, tools/sandbox-kernel) with what the lecture's allowance
   offers (tools/allowance.py): of the course's library only the functions the allowance names and
   what they need, of the environment only what the kernel needs and the packages it names, and
   NumPy without the shortcuts the lecture withholds;
2. runs in it only what the tests need: the author's cells tagged ``needed-for-grading`` (as the
   solution notebook has them), then the student's answer cells and the cells the student added, in
   the submission's order. Demos and proof checks are not run;
3. runs each test cell, as the solution notebook has it (hidden tests included), here, in the
   grader's process. A name the student defines (a function, a value) is, for the tests, a
   ``RemoteFunction`` that calls it in the kernel, or the value read from the kernel. Only plain data
   passes between the two (tools/judge_wire.py); the grader checks it;
4. writes each test cell's outputs itself: what the test printed, and on failure the error, with the
   line of the public test that failed (a hidden test is never quoted). nbgrader's SaveAutoGrades
   then scores a test cell with an error output zero, any other full.

So nothing the kernel prints or does reaches the verdict except the values its functions return,
and the hidden tests and reference answers never enter the kernel.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import re
import shutil
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import numpy as np
import zmq
import zmq.asyncio
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbclient.util import ensure_async, run_sync
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import Execute
from traitlets import Int, Unicode

import judge_wire as wire
from allowance import Allowance, grading_library
from grading_secret import grading_secret
from mlcourse import grading

SETUP_TAG = "needed-for-grading"
# The folder whose lib/ and .venv the kernels use (tools/sandbox-kernel's): this file's course.
LIBRARY_ROOT = Path(__file__).resolve().parent.parent
HIDDEN_BEGIN, HIDDEN_END = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")

KERNEL_DIED = ("KernelDied", "the kernel stopped while running this cell (a memory or process limit, "
               "os._exit or a crash); it was restarted for the cells below")
TIMED_OUT = ("CellTimeoutError", "this cell ran past its time limit and could not be interrupted; the "
             "kernel was restarted for the cells below")
# A submission's budget, restarts of its kernel included: past it, what is left fails without running.
MAX_RESTARTS = 5
SUBMISSION_SECONDS = 20 * 60
OUT_OF_BUDGET = ("OutOfBudget", "the submission used up its grading budget (restarts of its kernel, or time "
                 "in all): this cell was not run")


# ----------------------------------------------------------------------------- what a lecture says


@dataclass
class LectureSpec:
    """What the solution notebook says grading needs."""
    setup: list[str]  # sources of the cells tagged needed-for-grading, in order
    tests: dict[str, str]  # grade_id -> source of each test cell, hidden tests included
    answers: set[str]  # grade_ids of the answer (solution) code cells
    student_names: set[str]  # names the answer cells define
    allowance: Allowance  # what the grading kernel offers the answers
    sources: set[str] = field(default_factory=set)  # every code cell's source: not "added" by a student

    @classmethod
    def read(cls, path: Path) -> "LectureSpec":
        nb = nbformat.read(path, as_version=4)
        setup, tests, answers, names = [], {}, set(), set()
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            meta = cell.metadata.get("nbgrader", {})
            if SETUP_TAG in cell.metadata.get("tags", []):
                setup.append(cell.source)
            if meta.get("grade") and not meta.get("solution"):
                tests[meta["grade_id"]] = cell.source
            elif meta.get("solution"):
                answers.add(meta["grade_id"])
                names |= defined_names(cell.source)
        allowance = Allowance.of(nb.metadata, str(path))
        return cls(setup, tests, answers, names, allowance, {c.source for c in nb.cells if c.cell_type == "code"})


def defined_names(source: str) -> set[str]:
    """Top-level names a cell defines: functions, classes and assigned variables (not imports)."""
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names


def used_names(source: str) -> set[str]:
    return {n.id for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Name)}


def hidden_lines(source: str) -> set[int]:
    """Line numbers (from 1) of the hidden-test region of a test cell, markers included."""
    hidden, inside = set(), False
    for k, line in enumerate(source.splitlines(), 1):
        if line.strip().startswith(HIDDEN_BEGIN):
            inside = True
        if inside:
            hidden.add(k)
        if line.strip().startswith(HIDDEN_END):
            inside = False
    return hidden


# ----------------------------------------------------------------------------- calling the kernel


class StudentError(Exception):
    """The student's function raised in the kernel, or could not be called or read."""

    def __init__(self, message: str, ename: str = "Error"):
        super().__init__(message)
        self.ename = ename


class RemoteFunction:
    """A function of the student's, as the tests see it: calling it calls it in the kernel.

    Arguments are sent as plain data (functions of the test's are called back in the grader); the
    result comes back as plain data. Nothing the kernel sends back changes the test's own values: the
    kernel works on copies. ``call_reporting_arguments`` also returns the positional arguments as the
    function left them (``grading.call_unchanged`` uses it to catch a change made in place)."""

    def __init__(self, judge: "Judge", name: str):
        self._judge, self.__name__ = judge, name

    def __call__(self, *args, **kwargs):
        return self._judge.call(self.__name__, args, kwargs)[0]

    def call_reporting_arguments(self, *args, **kwargs):
        return self._judge.call(self.__name__, args, kwargs)

    def __repr__(self):
        return f"<your function {self.__name__}>"


def format_raised(name: str, raised: dict) -> str:
    where = "".join(f"\n    in {w}" for w in raised.get("where", [])[-3:] if isinstance(w, str))
    # (shown after the exception's name: "NotImplementedError: your perceptron_step(...) raised it: ...")
    ename, evalue = str(raised.get("ename"))[:100], str(raised.get("evalue", ""))
    if ename == "NotImplementedError" and not evalue:
        evalue = "the exercise is not done yet"
    return f"your {name}(...) raised it" + (f": {evalue}" if evalue else "") + where


# ----------------------------------------------------------------------------- the preprocessor


class Judge(Execute):
    """nbgrader's Execute replaced: see the module's docstring."""

    course_root = Unicode("", help="the course folder (with solutions/ and lib/)").tag(config=True)
    sandbox_uid = Int(65534, help="the user the sandboxed kernels of this grader run as (one per job)").tag(config=True)
    max_restarts = Int(MAX_RESTARTS, help="restarts of a submission's kernel at most").tag(config=True)
    submission_seconds = Int(SUBMISSION_SECONDS, help="seconds of grading for one submission at most").tag(config=True)
    # The kernel is done with once the tests have run: kill it rather than wait for it to shut down.
    shutdown_kernel = Unicode("immediate").tag(config=True)
    _deadline = None  # while a test runs: when its time is up (all its calls together)

    def preprocess(self, nb, resources, km=None):
        from nbclient import NotebookClient

        NotebookClient.__init__(self, nb, km)
        self.reset_execution_trackers()
        self._check_assign_resources(resources)
        root = Path(self.course_root or os.getcwd())
        info = resources["nbgrader"]
        spec = LectureSpec.read(root / "solutions" / info["assignment"] / f"{info['notebook']}.ipynb")
        library, site = grading_library(LIBRARY_ROOT, spec.allowance)
        start = {}
        self._sockets = None
        if self.kernel_name == "mlcourse-sandbox":
            self.extra_arguments = ["--lib", str(library), "--uid", str(self.sandbox_uid),
                                    *[a for e in site.entries for a in ("--site", e)],
                                    *[a for p in site.hidden for a in ("--hide", str(p))],
                                    *[a for p in site.others for a in ("--hide-python", str(p))]]
            self._sockets = self.private_sockets()
        else:  # unconfined (SANDBOX=0): the copy of the library comes first; packages cannot be hidden
            start["env"] = {**os.environ, "PYTHONPATH": str(library)}
        self._ran, self._restarts = [], 0
        self._budget_end = time.monotonic() + self.submission_seconds
        self._seed_label = f"{info['student']} in {info['assignment']}"
        key = grading.hidden_key(grading_secret(root), info["assignment"], info["student"])
        start["cwd"] = kernel_folder = self._kernel_folder(Path(resources["metadata"]["path"]))
        try:
            with grading.hidden_inputs(key):
                self._judge(nb, spec, start)
        finally:
            shutil.rmtree(kernel_folder, ignore_errors=True)
            if self._sockets is not None:
                shutil.rmtree(self._sockets, ignore_errors=True)
        return nb, resources

    def private_sockets(self) -> Path:
        """A socket folder for this submission's kernel alone, beside the one the grader was given
        (``KernelManager.ip``, in a folder of root's with mode 711), owned by the kernel's user: no
        file one submission leaves there is seen by the next."""
        configured = Path(str(self.config.KernelManager.get("ip", "")) or "/nonexistent/sockets/kernel")
        parent = configured.parent.parent
        info = parent.lstat() if parent.exists() else None
        if info is None or not parent.is_dir() or parent.is_symlink() or info.st_uid != 0 or (info.st_mode & 0o777) != 0o711:
            raise RuntimeError(f"{parent} must be a folder of root's with mode 711 (make autograde prepares it)")
        folder = Path(tempfile.mkdtemp(prefix="sockets-", dir=parent))
        os.chmod(folder, 0o700)
        os.chown(folder, self.sandbox_uid, self.sandbox_uid)
        return folder

    def create_kernel_manager(self):
        km = super().create_kernel_manager()
        if getattr(self, "_sockets", None) is not None:
            km.ip = str(self._sockets / "kernel")
        return km

    @staticmethod
    def _kernel_folder(graded: Path) -> str:
        """The kernel's working folder: the submission's files but its notebooks, which nbgrader has
        written back here with the hidden tests restored."""
        folder = tempfile.mkdtemp(prefix="mlcourse-kernel-")
        os.chmod(folder, 0o755)
        for path in sorted(graded.rglob("*")):
            if path.is_file() and not path.is_symlink() and path.suffix != ".ipynb":
                (Path(folder) / path.relative_to(graded)).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, Path(folder) / path.relative_to(graded))
        return folder

    def _judge(self, nb, spec: LectureSpec, start: dict) -> None:
        with self.setup_kernel(**start):
            self._prepare_kernel()
            for source in spec.setup:
                self._run_quietly(source)
            for index, cell in enumerate(nb.cells):
                if self._runs_in_kernel(cell, spec):
                    self._run_cell(cell, index)
            namespace = self._test_namespace(spec)
            for cell in nb.cells:
                grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
                if cell.cell_type == "code" and grade_id in spec.tests:
                    cell.outputs = self._run_test(grade_id, spec.tests[grade_id], namespace)

    # -- the kernel's side

    @staticmethod
    def _runs_in_kernel(cell, spec: LectureSpec) -> bool:
        """An answer cell, or a code cell the student added (one the lecture does not have)."""
        if cell.cell_type != "code":
            return False
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("grade_id") in spec.answers and not meta.get("grade"):
            return True
        return not meta and cell.source not in spec.sources and SETUP_TAG not in cell.metadata.get("tags", [])

    def _prepare_kernel(self):
        """Define __mlcourse_judge__ in the kernel (silently: not in its history)."""
        source = (Path(__file__).parent / "judge_wire.py").read_text()
        code = (f"exec({source!r}, __j := {{'__name__': '__mlcourse_judge_wire__'}})\n"
                "__mlcourse_judge__ = __j['KernelSide'](get_ipython().user_ns, get_ipython().kernel.raw_input)\n"
                "del __j\n")
        self._run_quietly(code, store_history=False)

    def _run_quietly(self, source: str, store_history: bool = True) -> None:
        """Run ``source`` in the kernel; its outputs are not kept."""
        cell = NotebookNode(cell_type="code", source=source, metadata=NotebookNode(), outputs=[],
                            execution_count=None)
        # nbclient stores the executed cell back at its index: run it as an extra last cell
        self.nb.cells.append(cell)
        try:
            ran = self._run_cell(cell, len(self.nb.cells) - 1, store_history=store_history, replay=False)
        finally:
            del self.nb.cells[next(i for i in range(len(self.nb.cells) - 1, -1, -1) if self.nb.cells[i] is cell)]
        if ran and store_history:
            self._ran.append(source)

    def _out_of_budget(self) -> bool:
        return self._restarts > self.max_restarts or time.monotonic() > self._budget_end

    def _run_cell(self, cell, index, store_history=True, replay=True) -> bool:
        """Run a cell; a dead kernel or a cell that cannot be stopped fails that cell only (and it is
        not run again when the kernel restarts). True if it ran."""
        if self._out_of_budget():
            self._fail(cell, OUT_OF_BUDGET)
            return False
        try:
            self.execute_cell(cell, index, store_history=store_history)
            if replay:
                self._ran.append(cell.source)
            return True
        except DeadKernelError:
            self.log.warning("kernel died in cell %d; restarting it", index)
            self._fail(cell, KERNEL_DIED)
            self._restart()
            return False
        except CellTimeoutError:
            self.log.warning("cell %d could not be interrupted at its time limit; restarting the kernel", index)
            self._fail(cell, TIMED_OUT)
            self._restart()
        return False

    @staticmethod
    def _fail(cell, error):
        ename, evalue = error
        cell.setdefault("outputs", []).append(NotebookNode(output_type="error", ename=ename, evalue=evalue,
                                                           traceback=[f"{ename}: {evalue}"]))

    def _restart(self):
        """A fresh kernel, with what ran before (but the cell that killed it) run again; none past the
        submission's budget (``MAX_RESTARTS``), after which what is left fails without running."""
        self._restarts += 1
        if self._out_of_budget():
            self.log.warning("the submission used up its grading budget; what is left fails")
            return
        self.log.warning("restarting the kernel (%d of at most %d restarts)", self._restarts, self.max_restarts)
        run_sync(self._async_restart_kernel)()
        replay, self._ran = self._ran, []
        self._prepare_kernel()
        for source in replay:
            self._run_quietly(source)

    async def _async_restart_kernel(self):
        if self.kc is not None:
            await ensure_async(self.kc.stop_channels())
        await ensure_async(self.km.restart_kernel(now=True))
        self.kc = self.km.client()
        await ensure_async(self.kc.start_channels())
        await ensure_async(self.kc.wait_for_ready(timeout=self.startup_timeout))

    # -- calls

    def call(self, name: str, args: tuple, kwargs: dict) -> tuple:
        """Call the student's ``name`` in the kernel; the test's functions among the arguments are
        called back here. Returns the result, and the positional arguments as the call left the
        kernel's copies of them (the test's own are never changed)."""
        callbacks: list = []

        def register(function):
            callbacks.append(function)
            return len(callbacks) - 1

        request = json.dumps({"name": name, "args": wire.encode(list(args), register),
                              "kwargs": wire.encode(dict(kwargs), register)})
        reply = self._ask(f"__mlcourse_judge__.call({request!r})", callbacks, f"calling {name}(...)")
        after = reply.get("after")
        if not isinstance(after, list) or len(after) != len(args):
            after = [None] * len(args)
        after = [self._decoded(back) if isinstance(sent, np.ndarray) else sent for sent, back in zip(args, after)]
        if "raised" in reply:
            raised = reply["raised"] if isinstance(reply["raised"], dict) else {}
            if raised.get("ename") == "KeyboardInterrupt":
                raise StudentError(f"calling {name}(...) took longer than the time limit ({self.timeout} s)")
            raise StudentError(format_raised(name, raised), ename=str(raised.get("ename"))[:100])
        try:
            return wire.decode(reply.get("result")), after
        except RecursionError:
            raise StudentError(f"calling {name}(...) returned a value nested too deeply to be read") from None

    @staticmethod
    def _decoded(value):
        try:
            return wire.decode(value)
        except (wire.WireError, ValueError, TypeError, RecursionError) as err:
            return wire.Unreadable(f"value that could not be read ({err})")

    def describe(self, names: list[str]) -> dict:
        return self._ask(f"__mlcourse_judge__.describe({json.dumps(names)!r})", [], "reading your names")

    def _ask(self, expression: str, callbacks: list, what: str) -> dict:
        if self._out_of_budget():
            raise StudentError(f"{what}: {OUT_OF_BUDGET[1].split(': this cell')[0]}", ename="OutOfBudget")
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise StudentError(f"{what}: the test ran out of time ({self.timeout} s for the whole test)")
        reply = run_sync(self._async_ask)(expression, callbacks)
        if reply is None:  # no answer in time, or the kernel died: start afresh for what comes next
            alive = run_sync(self.km.is_alive)()
            self._restart()
            if alive:
                raise StudentError(f"{what} took longer than the time limit ({self.timeout} s)")
            raise StudentError(f"{what} stopped the kernel (a memory or process limit, os._exit or a crash)")
        result = reply["content"].get("user_expressions", {}).get("r", {})
        if result.get("status") != "ok":
            raise StudentError(f"{what} failed in the kernel: {result.get('ename')}: {result.get('evalue')}")
        data = result.get("data", {}).get("application/json")
        if not isinstance(data, dict) or not isinstance(data.get("reply"), str):
            raise StudentError(f"{what}: the kernel sent back something other than the grader's reply")
        try:
            answer = json.loads(data["reply"])
        except (ValueError, RecursionError):  # not JSON, or nested beyond what the parser follows
            answer = None
        if not isinstance(answer, dict):
            raise StudentError(f"{what}: the kernel's reply could not be read")
        return answer

    async def _async_ask(self, expression: str, callbacks: list):
        """The execute_reply to ``expression`` (as a user expression), answering callbacks; None if the
        kernel did not answer within the time left or died."""
        limit = self.timeout if self.timeout else 60
        deadline = min(time.monotonic() + limit, self._deadline or float("inf"))
        msg_id = self.kc.execute("", silent=True, store_history=False, allow_stdin=True,
                                 user_expressions={"r": expression})
        poller = zmq.asyncio.Poller()
        shell, stdin = self.kc.shell_channel.socket, self.kc.stdin_channel.socket
        poller.register(shell, zmq.POLLIN)
        poller.register(stdin, zmq.POLLIN)
        interrupted = False
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                if interrupted or not await ensure_async(self.km.is_alive()):
                    return None
                await ensure_async(self.km.interrupt_kernel())
                interrupted, deadline = True, time.monotonic() + 5
                continue
            ready = dict(await poller.poll(timeout=min(left, 1.0) * 1000))
            if stdin in ready:
                request = await self.kc.get_stdin_msg(timeout=0)
                self.kc.input(self._callback_answer(request, callbacks))
            if shell in ready:
                reply = await self.kc.get_shell_msg(timeout=0)
                if reply.get("parent_header", {}).get("msg_id") == msg_id:
                    return reply
            elif not ready and not await ensure_async(self.km.is_alive()):
                return None

    @staticmethod
    def _callback_answer(request, callbacks) -> str:
        """Run the test's function the kernel asks for, with the arguments it sends; reply as JSON."""
        prompt = request.get("content", {}).get("prompt", "")
        if not isinstance(prompt, str) or not prompt.startswith(wire.CALLBACK_PROMPT):
            return ""  # the student's own input(): there is no one to type
        try:
            asked = json.loads(prompt[len(wire.CALLBACK_PROMPT):])
            function = callbacks[asked["id"]] if type(asked.get("id")) is int and 0 <= asked["id"] < len(callbacks) else None
            if function is None:
                return json.dumps({"raised": "no such function"})
            args, kwargs = wire.decode(asked.get("args")), wire.decode(asked.get("kwargs"))
            if not isinstance(args, list) or not isinstance(kwargs, dict) or not all(isinstance(k, str) for k in kwargs):
                return json.dumps({"raised": "arguments that could not be read"})
            return json.dumps({"result": wire.encode(function(*args, **kwargs))})
        except Exception as err:  # noqa: BLE001 (reported to the student's code as an exception)
            return json.dumps({"raised": f"{type(err).__name__}: {str(err)[:500]}"})

    # -- the tests' side

    def _test_namespace(self, spec: LectureSpec) -> dict:
        """The setup cells run here, then the student's names the tests use, read from the kernel."""
        namespace = {"__name__": "__main__"}
        with _quiet():
            for source in spec.setup:
                exec(compile(source, "<setup>", "exec"), namespace)  # noqa: S102 (the author's code)
        wanted = sorted(spec.student_names & set().union(*map(used_names, spec.tests.values())))
        self._missing = set()
        try:
            described = self.describe(wanted)
        except StudentError as err:
            self.log.warning("could not read the notebook's names: %s", err)
            described = {}
        for name in wanted:
            entry = described.get(name) if isinstance(described, dict) else None
            if not isinstance(entry, dict) or entry.get("missing"):
                namespace.pop(name, None)
                self._missing.add(name)
            elif entry.get("function"):
                namespace[name] = RemoteFunction(self, name)
            else:
                try:
                    namespace[name] = wire.decode(entry.get("value"))
                except (wire.WireError, ValueError, TypeError, RecursionError) as err:
                    namespace[name] = wire.Unreadable(f"value that could not be read ({err})")
        return namespace

    def _run_test(self, grade_id: str, source: str, namespace: dict) -> list:
        """Run one test cell here; its outputs: what it printed, and the error if it failed."""
        printed = io.StringIO()
        self._deadline = time.monotonic() + (self.timeout or 60)
        error = None
        try:
            with contextlib.redirect_stdout(printed), _quiet_warnings():
                exec(compile(source, f"<{grade_id}>", "exec"), namespace)  # noqa: S102 (the author's test)
        except Exception as err:  # noqa: BLE001 (every failure of a test is reported)
            error = self._explain(err, grade_id, source)
        finally:
            self._deadline = None
        outputs = []
        if printed.getvalue():
            outputs.append(NotebookNode(output_type="stream", name="stdout", text=printed.getvalue()[:20_000]))
        if error is not None:  # where it failed goes into the message: feedback shows only the message
            ename, evalue, where = error
            evalue = "\n".join([evalue, *where])
            outputs.append(NotebookNode(output_type="error", ename=ename, evalue=evalue,
                                        traceback=[f"{ename}: {evalue}"]))
        return outputs

    def _explain(self, err: Exception, grade_id: str, source: str):
        """(ename, message, [where]) for a failed test, quoting no hidden line."""
        frames = [f for f in traceback.extract_tb(err.__traceback__) if f.filename == f"<{grade_id}>"]
        lineno = frames[-1].lineno if frames else None
        if lineno is None:
            where = []
        elif lineno in hidden_lines(source):
            where = [f"(in a hidden test; its inputs are drawn for {self._seed_label}, the same on every regrade)"]
        else:
            where = [f"(in the test, line {lineno}: {source.splitlines()[lineno - 1].strip()})"]
        if isinstance(err, NameError) and getattr(err, "name", None) in self._missing:
            return ("NameError", f"your notebook does not define {err.name}: did its cell run without an "
                                 "error, and does it keep the name the exercise gives?", where)
        if isinstance(err, StudentError):
            return (err.ename, str(err), where)
        message = str(err) if not isinstance(err, AssertionError) or str(err) else "a check failed"
        return (type(err).__name__, ANSI.sub("", message)[:4000], where)


@contextlib.contextmanager
def _quiet():
    """The setup cells' prints, figures and warnings are of no use to grading."""
    import matplotlib

    matplotlib.use("Agg")
    with contextlib.redirect_stdout(io.StringIO()), _quiet_warnings():
        yield
    import matplotlib.pyplot as plt

    plt.close("all")


@contextlib.contextmanager
def _quiet_warnings():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield
