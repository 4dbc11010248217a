"""nbgrader preprocessors of the course (named in nbgrader_config.py).

- ``SurvivingExecute``: nbgrader's Execute, except that a kernel that dies (memory cap, os._exit,
  a signal) or a cell that cannot be stopped at its time limit fails only that cell: the cell gets
  an error output, the kernel is restarted and grading goes on. Plain nbgrader abandons the whole
  submission and exits non-zero. Before each test cell it also undoes what the student's code did to
  the way IPython runs cells (input and AST transformers, pre-run callbacks, replaced methods of the
  shell), so a test cell runs as written; see GUARD_RESTORE.
- ``ExplainedOverwriteCells``: nbgrader's OverwriteCells (which puts back the original of every
  locked cell a student edited), without its false alarms and with reports in words; see there.
- ``HideHiddenTests``: for feedback, replaces the hidden part of every test cell by a note, so
  students learn which test failed and why, but not what the hidden tests are.
- ``FeedbackExporter``: nbgrader's feedback HTML with MathJax from the course's own copy instead
  of a CDN, so the formulas render without a network; see there.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
from importlib.metadata import version
from pathlib import Path

from jinja2 import DictLoader
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbclient.util import ensure_async, run_sync
from nbconvert.exporters import HTMLExporter
from nbformat.notebooknode import NotebookNode
from nbgrader.api import MissingEntry
from nbgrader.preprocessors import (
    ClearHiddenTests, ClearMarkScheme, Execute, NbGraderPreprocessor, OverwriteCells,
)
from traitlets import List, default

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

    # The HTML exporter configures NbConvertBase.display_data_priority for every preprocessor it
    # runs; NbGraderPreprocessor redeclares that trait without config=True, so traitlets warned
    # "Config option `display_data_priority` not recognized by `HideHiddenTests`" on every feedback
    # run. Declared configurable here (as nbgrader's own GetGrades does), the setting is accepted.
    display_data_priority = List(NbGraderPreprocessor.display_data_priority.default_value).tag(config=True)

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code" and "### BEGIN HIDDEN TESTS" in cell.source:
            cell.source = HIDDEN.sub(HIDDEN_NOTE, cell.source)
            for output in cell.get("outputs", []):
                if output.output_type == "error":
                    # The traceback would quote hidden lines; the error's own message is kept.
                    output.traceback = [f"{output.ename}: {output.evalue}"]
        return cell, resources


class ExplainedOverwriteCells(OverwriteCells):
    """nbgrader's OverwriteCells, which gives every locked cell (the test cells) of a submission its
    original source back, with two changes to what it reports in the autograde log:

    - A test cell exactly as released is not reported. The gradebook holds each test cell as the
      instructor wrote it, hidden tests included, and its checksum; the released cell has no hidden
      tests, so plain nbgrader finds every test cell with hidden tests changed in every submission,
      untouched ones too, and warns "Attribute 'checksum' for cell ... has changed!"
      (jupyter/nbgrader#1961). Here such a cell gets its hidden tests back before the comparison.
    - A real change is reported in words, e.g. "test cell test_x was edited; the original was
      restored and graded" (tools/grade.py copies these lines into its summary).
    """

    _current = None  # the cell being compared, for report_change

    def preprocess_cell(self, cell, resources, cell_index):
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id is not None:
            try:
                original = self.gradebook.find_source_cell(grade_id, self.notebook_id, self.assignment_id)
            except MissingEntry:
                original = None  # nbgrader reports it and makes the cell ordinary
            if original is not None and original.locked and cell.source == self._released_source(original):
                cell.source = original.source
        self._current = cell
        try:
            return super().preprocess_cell(cell, resources, cell_index)
        finally:
            self._current = None

    def _released_source(self, original) -> str:
        """The source of a gradebook cell as `nbgrader generate_assignment` released it."""
        cell = NotebookNode(cell_type=original.cell_type, source=original.source, metadata=NotebookNode())
        ClearHiddenTests(parent=self)._remove_hidden_test_region(cell)
        ClearMarkScheme(parent=self)._remove_mark_scheme_region(cell)
        return cell.source

    def report_change(self, name, attr, old, new):
        meta = self._current.metadata.get("nbgrader", {}) if self._current is not None else {}
        what = "test cell" if meta.get("grade") and not meta.get("solution") else "locked cell"
        if attr == "checksum":
            message = f"{what} {name} was edited; the original was restored" + (
                " and graded" if what == "test cell" else "")
        elif attr == "cell_type":
            message = f"cell {name} was turned into a {new} cell; it was made a {old} cell again"
        elif attr == "points":
            message = f"the points of cell {name} were changed to {new:g}; the original {old:g} count"
        elif attr == "locked":
            message = f"cell {name} was {'unlocked' if old else 'locked'}; that was undone"
        else:
            message = f"{attr} of cell {name} was changed from {old} to {new}; the original was restored"
        self.log.warning(message)


# MathJax 2, from the pinned package jupyter-server-mathjax (the one Jupyter's classic notebook
# served). Feedback pages load it from a copy in feedback/_mathjax/, by a relative path, so they
# render their formulas opened from disk (file://) with no network. Output: HTML-CSS with the
# STIX-Web fonts the package ships (it has no CommonHTML or SVG output). Safe: no \href, \style
# and the like from students' answers.
MATHJAX_PACKAGE = "jupyter-server-mathjax"
MATHJAX_FOLDER = "_mathjax"
MATHJAX_CONFIG = "TeX-AMS-MML_HTMLorMML-full,Safe"
MATHJAX_MACRO = r"""{%- macro mathjax(url=None) -%}
<!-- MathJax from this course's copy (feedback/_mathjax), not a CDN: formulas render offline -->
<script type="text/x-mathjax-config">
{%- raw %}
MathJax.Hub.Config({
    TeX: { equationNumbers: { autoNumber: "AMS", useLabelIds: true } },
    tex2jax: {
        inlineMath: [ ['$','$'], ["\\(","\\)"] ],
        displayMath: [ ['$$','$$'], ["\\[","\\]"] ],
        processEscapes: true,
        processEnvironments: true
    },
    displayAlign: 'center',
    messageStyle: 'none',
    "HTML-CSS": {
        availableFonts: [], preferredFont: null, webFont: "STIX-Web", imageFont: null,
        linebreaks: { automatic: true }
    }
});
{% endraw -%}
</script>
<script src="@URL@"></script>
{%- endmacro %}
"""


def install_mathjax(target: Path) -> Path:
    """Put the MathJax of the package into ``target`` (kept when it holds that version already)."""
    import jupyter_server_mathjax

    stamp = f"{MATHJAX_PACKAGE} {version(MATHJAX_PACKAGE)}\n"
    if (target / "VERSION").is_file() and (target / "VERSION").read_text() == stamp:
        return target
    source = Path(jupyter_server_mathjax.__file__).parent / "static"
    staging = target.with_name(f"{target.name}.new-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(source, staging)
    (staging / "README.txt").write_text(
        "MathJax for the feedback pages in this folder (they load it by a relative path, so they\n"
        "show their formulas without a network). Written by the course's feedback step; do not edit.\n")
    (staging / "VERSION").write_text(stamp)
    shutil.rmtree(target, ignore_errors=True)
    try:
        staging.rename(target)
    except OSError:  # another feedback run put it there first
        shutil.rmtree(staging, ignore_errors=True)
    return target


class FeedbackExporter(HTMLExporter):
    """nbgrader's feedback HTML, with MathJax from feedback/_mathjax/ (see install_mathjax).

    nbgrader's feedback template calls the macro ``mathjax()`` of nbconvert's template
    ``mathjax.html.j2`` without an argument, which loads MathJax from a CDN whatever
    HTMLExporter.mathjax_url says. This exporter's own ``mathjax.html.j2`` comes first in the
    template search, and loads the course's copy instead.
    """

    @default("extra_loaders")
    def _local_mathjax_loader(self):
        url = f"{self._mathjax_folder_url()}/MathJax.js?config={MATHJAX_CONFIG}"
        return [DictLoader({"mathjax.html.j2": MATHJAX_MACRO.replace("@URL@", url)})]

    def _mathjax_folder_url(self) -> str:
        """Install the copy under feedback/ and return its path relative to a feedback page."""
        from nbgrader.coursedir import CourseDirectory

        coursedir = getattr(self.parent, "coursedir", None) or CourseDirectory(parent=self)
        folder = install_mathjax(Path(coursedir.root) / coursedir.feedback_directory / MATHJAX_FOLDER)
        page_folder = coursedir.format_path(coursedir.feedback_directory, "student", "lecture")
        return Path(os.path.relpath(folder, page_folder)).as_posix()
