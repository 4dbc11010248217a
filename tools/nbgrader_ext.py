"""nbgrader preprocessors of the course (named in nbgrader_config.py).

- ``SurvivingExecute``: nbgrader's Execute, except that a kernel that dies (memory cap, os._exit,
  a signal) fails only the cell it died in: the cell gets an error output, the kernel is restarted
  and grading goes on. Plain nbgrader abandons the whole submission and exits non-zero.
- ``HideHiddenTests``: for feedback, replaces the hidden part of every test cell by a note, so
  students learn which test failed and why, but not what the hidden tests are.
"""

from __future__ import annotations

import re

from nbclient.exceptions import DeadKernelError
from nbclient.util import ensure_async, run_sync
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import Execute, NbGraderPreprocessor

KERNEL_DIED = ("KernelDied", "the kernel stopped while running this cell (a memory or process limit, "
               "os._exit or a crash); it was restarted for the cells below, without your variables")

HIDDEN = re.compile(r"^[ \t]*### BEGIN HIDDEN TESTS.*?^[ \t]*### END HIDDEN TESTS[^\n]*\n?", re.S | re.M)
HIDDEN_NOTE = "# (hidden tests were run here; they are not shown)\n"


class SurvivingExecute(Execute):
    """Execute that restarts a dead kernel and goes on with the next cell."""

    def preprocess_cell(self, cell, resources, index):
        try:
            return super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            self.log.warning("kernel died in cell %d; restarting it", index)
            ename, evalue = KERNEL_DIED
            cell.outputs.append(NotebookNode(output_type="error", ename=ename, evalue=evalue,
                                             traceback=[f"{ename}: {evalue}"]))
            self._restart_kernel()
            return cell, self.resources

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
