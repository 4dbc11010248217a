"""nbgrader preprocessors of the course (named in nbgrader_config.py).

- ``SurvivingExecute``: nbgrader's Execute, except that a kernel that dies (memory cap, os._exit,
  a signal) or a cell that cannot be stopped at its time limit fails only that cell: the cell gets
  an error output, the kernel is restarted and grading goes on. Plain nbgrader abandons the whole
  submission and exits non-zero. Before each test cell it also undoes what the student's code did to
  the way IPython runs cells (input and AST transformers, pre-run callbacks, replaced methods of the
  shell), so a test cell runs as written; see GUARD_RESTORE.
- ``HideHiddenTests``: for feedback, replaces the hidden part of every test cell by a note, so
  students learn which test failed and why, but not what the hidden tests are.
"""

from __future__ import annotations

import re
import secrets

from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbclient.util import ensure_async, run_sync
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import Execute, NbGraderPreprocessor

KERNEL_DIED = ("KernelDied", "the kernel stopped while running this cell (a memory or process limit, "
               "os._exit or a crash); it was restarted for the cells below, without your variables")
TIMED_OUT = ("CellTimeoutError", "this cell ran past its time limit and could not be interrupted; the "
             "kernel was restarted for the cells below, without your variables")
TAMPERED = ("GradingGuard", "this test was not run: the notebook changed how IPython runs cells, and "
            "that could not be undone; the kernel was restarted for the cells below")

# Run in the kernel (through user_expressions, which no input transformer or pre-run callback sees)
# when it starts, before any cell: remember how IPython runs cells.
GUARD_SNAPSHOT = """
from IPython.core.getipython import get_ipython
ip = get_ipython()
m = ip.input_transformer_manager
ip._mlcourse_hooks = dict(
    manager=m, cleanup=list(m.cleanup_transforms), line=list(m.line_transforms),
    token=list(m.token_transformers), post=list(ip.input_transformers_post), ast=list(ip.ast_transformers),
    events=ip.events, callbacks={k: list(v) for k, v in ip.events.callbacks.items() if k.startswith("pre_")},
    custom_exceptions=ip.custom_exceptions, CustomTB=ip.CustomTB,
)
"""
# Run before each test cell: put that back, and drop methods of the shell and kernel that the
# notebook replaced on the instance. Post-run callbacks stay (matplotlib's inline backend uses one).
GUARD_RESTORE = """
from IPython.core.getipython import get_ipython
ip = get_ipython()
h = ip._mlcourse_hooks
ip.input_transformer_manager = m = h["manager"]
m.cleanup_transforms, m.line_transforms, m.token_transformers = list(h["cleanup"]), list(h["line"]), list(h["token"])
ip.input_transformers_post, ip.ast_transformers = list(h["post"]), list(h["ast"])
ip.events = h["events"]
ip.events.callbacks.update({k: list(v) for k, v in h["callbacks"].items()})
ip.custom_exceptions, ip.CustomTB = h["custom_exceptions"], h["CustomTB"]
for name in ("run_cell", "run_cell_async", "_run_cell", "should_run_async", "transform_cell", "transform_ast",
             "run_ast_nodes", "run_code", "showtraceback", "_showtraceback", "showsyntaxerror",
             "showindentationerror", "user_expressions", "ex", "ev"):
    ip.__dict__.pop(name, None)
for name in ("do_execute", "execute_request", "send_response"):
    ip.kernel.__dict__.pop(name, None)
"""

HIDDEN = re.compile(r"^[ \t]*### BEGIN HIDDEN TESTS.*?^[ \t]*### END HIDDEN TESTS[^\n]*\n?", re.S | re.M)
HIDDEN_NOTE = "# (hidden tests were run here; they are not shown)\n"


class SurvivingExecute(Execute):
    """Execute that restarts a dead kernel and goes on with the next cell; guards test cells."""

    _guarded_client = None  # the kernel client whose kernel's hooks were snapshot

    def preprocess_cell(self, cell, resources, index):
        try:
            if self._guarded_client is not self.kc:  # a new kernel: nothing of the student's ran yet
                self._guarded_client = self.kc
                if not self._guard(GUARD_SNAPSHOT):
                    self.log.warning("could not snapshot the kernel's hooks before cell %d", index)
            is_test = cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("grade")
            if is_test and not self._guard(GUARD_RESTORE):
                self.log.warning("the hooks of the kernel could not be restored before test cell %d", index)
                return self._fail_and_restart(cell, TAMPERED)
            return super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            self.log.warning("kernel died in cell %d; restarting it", index)
            return self._fail_and_restart(cell, KERNEL_DIED)
        except CellTimeoutError:  # the interrupt did not stop the cell
            self.log.warning("cell %d could not be interrupted at its time limit; restarting the kernel", index)
            return self._fail_and_restart(cell, TIMED_OUT)

    def _fail_and_restart(self, cell, error):
        ename, evalue = error
        cell.setdefault("outputs", []).append(NotebookNode(output_type="error", ename=ename, evalue=evalue,
                                                           traceback=[f"{ename}: {evalue}"]))
        self._restart_kernel()
        return cell, self.resources

    async def _async_guard(self, source: str) -> bool:
        """Run ``source`` in the kernel outside the cell machinery; True when it ran to the end."""
        nonce = secrets.token_hex(8)
        expression = f"exec({source!r}, {{}}) or {nonce!r}"
        msg_id = self.kc.execute("", silent=True, store_history=False, allow_stdin=False,
                                 user_expressions={"guard": expression})
        reply = await self.async_wait_for_reply(msg_id)
        if reply is None:
            return False
        result = reply["content"].get("user_expressions", {}).get("guard", {})
        if result.get("status") != "ok":
            self.log.warning("guard: %s: %s", result.get("ename"), result.get("evalue"))
        return result.get("status") == "ok" and result.get("data", {}).get("text/plain") == repr(nonce)

    _guard = run_sync(_async_guard)

    async def _async_restart_kernel(self):
        if self.kc is not None:
            await ensure_async(self.kc.stop_channels())
        await ensure_async(self.km.restart_kernel(now=True))
        self.kc = self.km.client()
        await ensure_async(self.kc.start_channels())
        await ensure_async(self.kc.wait_for_ready(timeout=self.startup_timeout))
        self.kc.allow_stdin = False

    _restart_kernel = run_sync(_async_restart_kernel)


class HideHiddenTests(NbGraderPreprocessor):
    """Drop the hidden-test regions from test cells (and the tracebacks that quote them)."""

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code" and "### BEGIN HIDDEN TESTS" in cell.source:
            cell.source = HIDDEN.sub(HIDDEN_NOTE, cell.source)
            for output in cell.get("outputs", []):
                if output.output_type == "error":
                    # The traceback would quote hidden lines; the error's own message is kept.
                    output.traceback = [f"{output.ename}: {output.evalue}"]
        return cell, resources
