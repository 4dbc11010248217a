"""nbgrader preprocessors of the course (named in nbgrader_config.py).

- (``Judge``, which replaces nbgrader's Execute, is in tools/judge.py.)
- ``ExplainedOverwriteCells``: nbgrader's OverwriteCells (which puts back the original of every
  locked cell a student edited), without its false alarms and with reports in words; see there.
- ``HideHiddenTests``: for feedback, replaces the hidden part of every test cell by a note, so
  students learn which test failed and why, but not what the hidden tests are.
- ``FeedbackExporter``: nbgrader's feedback HTML with MathJax from the course's own copy instead
  of a CDN, so the formulas render without a network; see there.
- ``ShowModelAnswers``: in the formgrader only, the model answer and grading note of the solution
  notebook beside each written answer.
"""

from __future__ import annotations

import os
import re
import shutil
from importlib.metadata import version
from pathlib import Path

from jinja2 import DictLoader
from nbconvert.exporters import HTMLExporter
from nbformat.notebooknode import NotebookNode
from nbgrader.api import MissingEntry
from nbgrader.preprocessors import (
    ClearHiddenTests, ClearMarkScheme, NbGraderPreprocessor, OverwriteCells,
)
from traitlets import List, Unicode, default

HIDDEN = re.compile(r"^[ \t]*### BEGIN HIDDEN TESTS.*?^[ \t]*### END HIDDEN TESTS[^\n]*\n?", re.S | re.M)
HIDDEN_NOTE = "# (hidden tests were run here; they are not shown)\n"


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


SERVED_MATHJAX = "/static/jupyter_server_mathjax/MathJax.js"  # where jupyter-server-mathjax serves it


def formgrader_jupyter_path(root: Path) -> Path:
    """A Jupyter data folder (build/formgrader-jupyter) holding nbconvert/templates/formgrade/mathjax.html.j2,
    which loads the MathJax that Jupyter serves. nbgrader's formgrade template calls the macro without a
    URL, which would load MathJax from a CDN; make formgrader puts this folder first in JUPYTER_PATH, so
    the template named formgrade finds this macro before nbconvert's own (base/mathjax.html.j2)."""
    folder = root / "build" / "formgrader-jupyter"
    text = (MATHJAX_MACRO.replace("@URL@", f"{SERVED_MATHJAX}?config={MATHJAX_CONFIG}")
            .replace("(feedback/_mathjax)", "(jupyter-server-mathjax, served by Jupyter)"))
    path = folder / "nbconvert" / "templates" / "formgrade" / "mathjax.html.j2"
    if not path.is_file() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


# The course's layout of a feedback page, on nbgrader's template (found as index.html.j2 in its
# folder "feedback"): a summary naming each exercise with its points and result, failure messages
# wrapped and whole, and every demo's code and output folded away (a page of the notebook's outputs
# would be tens of thousands of pixels long, and slow on an old laptop).
FEEDBACK_TEMPLATE_NAME = "mlcourse_feedback.html.j2"
FEEDBACK_TEMPLATE = r"""{%- extends 'index.html.j2' -%}

{% block body %}
<body>
<style>
div.output_area pre { white-space: pre-wrap; overflow-wrap: anywhere; }
details.demo { margin: 0.3em 0 0.8em; }
details.demo > summary { cursor: pointer; color: #555; font-size: 13px; }
table.summary td, table.summary th { padding: 0.25em 0.8em 0.25em 0; vertical-align: top; }
table.summary .failed { color: #b52a1d; font-weight: bold; }
table.summary .passed { color: #1d7a2e; }
</style>
<a name="top"></a>
<div class="container">
  <div class="panel panel-default">
    <div class="panel-heading">
      <h4>{{ resources.nbgrader.notebook }}: {{ resources.nbgrader.score | float | round(2) }} of
          {{ resources.nbgrader.max_score | float | round(2) }} points</h4>
      <table class="summary">
        <tr><th>exercise</th><th>part</th><th>points</th><th></th></tr>
        {%- for cell in nb.cells if cell.metadata.nbgrader and cell.metadata.nbgrader.grade %}
        {%- set got = cell.metadata.nbgrader.score | float %}
        {%- set top = cell.metadata.nbgrader.points | float %}
        <tr>
          <td><a href="#{{ cell.metadata.nbgrader.grade_id }}">{{ (cell.metadata.mlcourse or {}).exercise or cell.metadata.nbgrader.grade_id }}</a></td>
          <td>{{ "written answer" if cell.cell_type == "markdown" else ("tests" if not cell.metadata.nbgrader.solution else "answer") }}</td>
          <td>{{ got | round(2) }} / {{ top | round(2) }}</td>
          <td>{%- if cell.cell_type == "code" and not cell.metadata.nbgrader.solution -%}
              {%- if got >= top -%}<span class="passed">passed</span>{%- else -%}<span class="failed">failed: see the message below the test</span>{%- endif -%}
              {%- endif -%}
              {%- if cell.metadata.nbgrader.comment %} (a comment){% endif -%}</td>
        </tr>
        {%- endfor %}
        {%- if resources.nbgrader.late_penalty > 0 %}
        <tr><td colspan="2" class="failed">late submission</td><td>-{{ resources.nbgrader.late_penalty | float | round(2) }}</td><td></td></tr>
        {%- endif %}
      </table>
      <p>The code of the demos and their outputs are folded: open one to see it.</p>
    </div>
    <div class="panel-body">
      <div id="notebook" class="border-box-sizing">
        <div class="container" id="notebook-container">
          {{ self.body_loop() }}
        </div>
      </div>
    </div>
  </div>
</div>
</body>
{%- endblock body %}

{% block codecell scoped %}
{%- if cell.metadata.nbgrader and (cell.metadata.nbgrader.grade or cell.metadata.nbgrader.solution) -%}
{{ super() }}
{%- else -%}
<details class="demo"><summary>a demo: its code and output</summary>
{{ super() }}
</details>
{%- endif -%}
{% endblock codecell %}
"""


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
        return [DictLoader({"mathjax.html.j2": MATHJAX_MACRO.replace("@URL@", url),
                            FEEDBACK_TEMPLATE_NAME: FEEDBACK_TEMPLATE})]

    @default("template_file")
    def _course_layout(self):
        return FEEDBACK_TEMPLATE_NAME

    def _mathjax_folder_url(self) -> str:
        """Install the copy under feedback/ and return its path relative to a feedback page."""
        from nbgrader.coursedir import CourseDirectory

        coursedir = getattr(self.parent, "coursedir", None) or CourseDirectory(parent=self)
        folder = install_mathjax(Path(coursedir.root) / coursedir.feedback_directory / MATHJAX_FOLDER)
        page_folder = coursedir.format_path(coursedir.feedback_directory, "student", "lecture")
        return Path(os.path.relpath(folder, page_folder)).as_posix()


class ShowModelAnswers(NbGraderPreprocessor):
    """In the formgrader, after each written answer of a submission, the model answer and grading note
    that the solution notebook holds in that cell, quoted and headed "for the grader".

    The formgrader renders a submitted notebook with a plain HTMLExporter, whose preprocessors
    nbgrader_config.py sets to this one. It acts only on what the formgrader renders (its resources
    name the submission and carry no ``nbgrader`` entry); feedback for students never runs it
    (FeedbackExporter's own preprocessors are none, and GenerateFeedback's list does not name it).
    """

    course_root = Unicode("", help="the course's folder (solutions/ is read from it)").tag(config=True)
    display_data_priority = List(NbGraderPreprocessor.display_data_priority.default_value).tag(config=True)

    def preprocess(self, nb, resources):
        if "submission_id" not in resources or "nbgrader" in resources:
            return nb, resources
        notes = self.notes(resources.get("assignment_id", ""), resources.get("notebook_id", ""))
        cells = []
        for cell in nb.cells:
            cells.append(cell)
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id in notes:
                quoted = "\n".join("> " + line for line in notes[grade_id].splitlines())
                cells.append(NotebookNode(cell_type="markdown", metadata={}, source=(
                    f"> **For the grader** (the solution notebook's model answer and grading note for "
                    f"{grade_id}; students never see this):\n>\n{quoted}")))
        nb.cells = cells
        return nb, resources

    def notes(self, assignment: str, notebook: str) -> dict[str, str]:
        """grade id -> the solution's text of each written answer of that notebook."""
        import nbformat

        if not re.fullmatch(r"[\w.-]+", assignment) or not re.fullmatch(r"[\w.-]+", notebook):
            return {}
        path = Path(self.course_root or os.getcwd()) / "solutions" / assignment / f"{notebook}.ipynb"
        if not path.is_file():
            return {}
        solution = nbformat.read(path, as_version=4)
        return {c.metadata["nbgrader"]["grade_id"]: c.source for c in solution.cells
                if c.cell_type == "markdown" and c.metadata.get("nbgrader", {}).get("solution")
                and c.metadata["nbgrader"].get("grade")}


class NameExercises(NbGraderPreprocessor):
    """For the feedback page's summary: each graded cell gets the title of its exercise, the nearest
    heading above it ("Exercise 2 (2 points): the mean of every column"), in its metadata."""

    display_data_priority = List(NbGraderPreprocessor.display_data_priority.default_value).tag(config=True)

    def preprocess(self, nb, resources):
        title = ""
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                heading = [line for line in cell.source.splitlines() if line.startswith("#")]
                if heading:
                    title = heading[-1].lstrip("#").strip()
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("grade") and title:
                cell.metadata["mlcourse"] = {"exercise": title}
        return nb, resources
