"""nbgrader settings of the course: solutions/ is the source, notebooks/ the student release."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tools"))

from nbconvert.preprocessors import ClearMetadataPreprocessor, CSSHTMLHeaderPreprocessor  # noqa: E402
from nbgrader.preprocessors import (  # noqa: E402
    AssignLatePenalties, CheckCellMetadata, ClearOutput, DeduplicateIds, GetGrades, IgnorePattern, LimitOutput,
    OverwriteKernelspec, SaveAutoGrades,
)
from judge import Judge  # noqa: E402
from nbgrader_ext import (  # noqa: E402
    ExplainedOverwriteCells, FeedbackExporter, HideHiddenTests, NameExercises, ShowModelAnswers,
)
from release_ext import NameWhatGradingLacks, TagRaisesException  # noqa: E402
from sanitize_ext import SanitizeStudentContent  # noqa: E402

c = get_config()  # noqa: F821 (provided by nbgrader)

c.CourseDirectory.course_id = "foundations-of-ml"
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "notebooks"
# The gradebook: SQLite by default; PostgreSQL for parallel grading, e.g.
#   MLCOURSE_GRADEBOOK=postgresql+psycopg2://user:password@localhost/gradebook make autograde JOBS=8
if os.environ.get("MLCOURSE_GRADEBOOK"):
    c.CourseDirectory.db_url = os.environ["MLCOURSE_GRADEBOOK"]

# A cell that runs longer than this (seconds) is stopped and counts as failed.
c.ExecutePreprocessor.timeout = 60
c.ExecutePreprocessor.kernel_name = "mlcourse"

# The release: nbgrader's steps, then exercise and test cells tagged `raises-exception` so that
# Run All in JupyterLab goes on past an unfinished exercise (tools/release_ext.py).
from nbgrader.preprocessors import (  # noqa: E402
    ClearHiddenTests, ClearMarkScheme, ClearOutput, ClearSolutions, ComputeChecksums, IncludeHeaderFooter,
    InstantiateTests, LockCells, SaveCells,
)

c.GenerateAssignment.preprocessors = [
    IncludeHeaderFooter, InstantiateTests, LockCells, ClearSolutions, ClearOutput, CheckCellMetadata,
    ComputeChecksums, SaveCells, ClearHiddenTests, ClearMarkScheme, TagRaisesException, NameWhatGradingLacks,
    ComputeChecksums, CheckCellMetadata,
]

c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# Autograding: the student's answers run in the kernel, the tests here, in the grader's process
# (tools/judge.py); a dead kernel fails one cell, not the submission; deleted test cells come back.
# What the student wrote or printed is made inert (no script) before the graded notebook is saved:
# the formgrader and the feedback pages show it in browsers (tools/sanitize_ext.py).
c.Autograde.autograde_preprocessors = [
    Judge, IgnorePattern, ClearMetadataPreprocessor, LimitOutput, SanitizeStudentContent,
    SaveAutoGrades, AssignLatePenalties, CheckCellMetadata,
]
c.Judge.course_root = os.path.dirname(os.path.abspath(__file__))
c.OverwriteCells.add_missing_cells = True
# nbgrader's sanitizing steps, with OverwriteCells reporting only real edits, in words.
c.Autograde.sanitize_preprocessors = [
    ClearOutput, DeduplicateIds, OverwriteKernelspec, ExplainedOverwriteCells, CheckCellMetadata,
]

# Feedback never shows the hidden tests.
c.GenerateFeedback.preprocessors = [SanitizeStudentContent, HideHiddenTests, NameExercises, GetGrades,
                                    CSSHTMLHeaderPreprocessor]
# ... and loads MathJax from feedback/_mathjax/ (a pinned package's copy), not a CDN: it works offline.
c.GenerateFeedback.exporter_class = FeedbackExporter
# The formgrader (make formgrader) shows, beside each written answer, its model answer and grading note
# from solutions/; feedback for students never does.
c.HTMLExporter.preprocessors = [ShowModelAnswers]
c.FeedbackExporter.preprocessors = []
c.ShowModelAnswers.course_root = os.path.dirname(os.path.abspath(__file__))
