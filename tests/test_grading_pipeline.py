"""End to end grading in a scratch course: release, collect, autograde, export.

Three students per lecture:
- ``filled`` hands in the release with every answer filled in from the solution, as a student would (the
  solution notebook itself passing its tests is nbgrader's validate, in tests/test_notebooks.py);
- ``untouched`` hands in the release as it was given;
- ``one_wrong`` hands in the filled release with the first exercise left as the stub.
"""

from __future__ import annotations

import csv
import io
import os
import re
import shutil

import nbformat
import pytest
from nbgrader.api import Gradebook

from conftest import LECTURES, ROOT, first_exercise, hand_in, nbgrader_meta, scratch_course

import course
import grade
from test_instructor_output import scripts, table

# make autograde confines student code with bubblewrap; .ci/run installs it. Elsewhere (no bwrap,
# not root) the pipeline is still tested, unconfined; tests/test_adversarial.py needs the sandbox.
SANDBOX = shutil.which("bwrap") is not None and os.geteuid() == 0

STUDENTS = ("filled", "untouched", "one_wrong")


@pytest.fixture(scope="module")
def graded_course(tmp_path_factory):
    root = scratch_course(tmp_path_factory.mktemp("course"), copy_solutions=True)
    for name in LECTURES:
        course.nbgrader("generate_assignment", name, "--log-level=WARN", root=root)
        hand_in(root, name, STUDENTS)
    out = io.StringIO()
    outcomes = grade.run(root, sandbox=SANDBOX, out=out)
    assert all(o.status == "graded" for o in outcomes), [(o.submission.name, o.why) for o in outcomes]
    (root / "autograde.out").write_text(out.getvalue())
    course.nbgrader("export", "--to=grades.csv", "--log-level=WARN", root=root)
    for name in LECTURES:
        course.nbgrader("generate_feedback", name, "--log-level=WARN", root=root)
    return root


def code_scores(root, name):
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        return {s: (gb.find_submission(name, s).code_score, gb.find_submission(name, s).max_code_score)
                for s in STUDENTS}


@pytest.mark.parametrize("name", LECTURES)
def test_solutions_grade_to_full_marks(graded_course, name):
    score, top = code_scores(graded_course, name)["filled"]
    assert top > 0 and score == top, f"{name}: the solution's answers scored {score} of {top} autograded points"


@pytest.mark.parametrize("name", LECTURES)
def test_untouched_release_grades_to_zero(graded_course, name):
    score, top = code_scores(graded_course, name)["untouched"]
    assert score == 0, f"{name}: the untouched release scored {score} of {top}"


@pytest.mark.parametrize("name", LECTURES)
def test_one_wrong_exercise_loses_exactly_its_points(graded_course, name):
    solution = nbformat.read(next((ROOT / "solutions" / name).glob("*.ipynb")), as_version=4)
    exercise, points = first_exercise(solution)
    score, top = code_scores(graded_course, name)["one_wrong"]
    assert score == top - points, f"{name}: leaving {exercise} ({points} points) undone gave {score} of {top}"


def test_export_has_a_row_per_student_and_lecture(graded_course):
    with open(graded_course / "grades.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    got = {(r["student_id"], r["assignment"]): float(r["score"]) for r in rows}
    expected = {(s, n): code_scores(graded_course, n)[s][0] for n in LECTURES for s in STUDENTS}
    assert got == expected


def hidden_lines(name):
    """Lines that stand only in the hidden-test regions of a lecture's test cells."""
    lines = set()
    for path in (ROOT / "solutions" / name).glob("*.ipynb"):
        for cell in nbformat.read(path, as_version=4).cells:
            for region in re.findall(r"### BEGIN HIDDEN TESTS(.*?)### END HIDDEN TESTS", cell.source, re.S):
                lines |= {ln.strip() for ln in region.splitlines() if len(ln.strip()) > 25}
    public = "".join(c.source for p in (ROOT / "notebooks" / name).glob("*.ipynb")
                     for c in nbformat.read(p, as_version=4).cells)
    return {ln for ln in lines if ln not in public}


@pytest.mark.parametrize("name", LECTURES)
def test_feedback_shows_the_tests_but_not_the_hidden_ones(graded_course, name):
    import html

    assert hidden_lines(name), f"{name} has no hidden test lines to look for"
    for student in ("filled", "one_wrong"):
        pages = list((graded_course / "feedback" / student / name).glob("*.html"))
        assert pages, f"no feedback for {student}/{name}"
        text = html.unescape(re.sub(r"<[^>]+>", "", pages[0].read_text()))
        assert "Public test" in text, "the feedback should show the public tests"
        leaked = [ln for ln in hidden_lines(name) if ln in text]
        assert not leaked, f"feedback for {student}/{name} reveals hidden tests: {leaked[:3]}"


@pytest.mark.parametrize("name", LECTURES)
def test_the_autograde_table_splits_autograded_and_hand_graded_points(graded_course, name):
    solution = nbformat.read(next((ROOT / "solutions" / name).glob("*.ipynb")), as_version=4)
    hand = sum(nbgrader_meta(c)["points"] for c in solution.cells
               if nbgrader_meta(c).get("grade") and c.cell_type == "markdown")
    assert hand > 0, f"{name} has no written answers"
    _, top = code_scores(graded_course, name)["filled"]
    row = table((graded_course / "autograde.out").read_text())[f"filled/{name}"]
    assert (row["autograded"], row["by hand"]) == (f"{top:g}/{top:g}", f"{hand:g} to grade"), row


@pytest.mark.parametrize("name", LECTURES)
def test_autograde_logs_report_no_change_in_untouched_test_cells(graded_course, name):
    for student in STUDENTS:
        log = (graded_course / "logs" / "autograde" / name / f"{student}.log").read_text()
        alarms = [ln for ln in log.splitlines() if "has changed" in ln or "was edited" in ln]
        assert not alarms, f"{student}/{name}: no test cell was edited, yet the log says {alarms[:2]}"


@pytest.mark.parametrize("name", LECTURES)
def test_feedback_renders_its_maths_without_a_network(graded_course, name):
    for path in sorted((graded_course / "feedback").glob(f"*/{name}/*.html")):
        srcs = scripts(path.read_text())
        assert not [s for s in srcs if re.match(r"(https?:)?//", s)], f"{path}: scripts from the network: {srcs}"
        mathjax = [s for s in srcs if "MathJax.js" in s]
        assert mathjax and (path.parent / mathjax[0].split("?")[0]).resolve().is_file(), f"{path}: {srcs}"


@pytest.mark.skipif(os.geteuid() != 0, reason="job users are leased by root, who grades")
def test_a_job_user_is_never_shared_with_another_grader_on_the_machine(tmp_path):
    """Two graders at once (another `make autograde`, or another worker of this test suite) must not
    run kernels as one user: a submission taking every process of its user would stop the other's
    kernels from starting. The lease is held until the job's process ends, however it ends."""
    import subprocess
    import sys

    held = subprocess.Popen([sys.executable, "-c", "import sys, time; sys.path.insert(0, 'tools'); import grade\n"
                             "with grade.job_uid() as uid:\n    print(uid, flush=True); time.sleep(60)"],
                            cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        other = int(held.stdout.readline())
        with grade.job_uid() as mine, grade.job_uid() as second:
            assert len({other, mine, second}) == 3
            assert {other, mine, second} <= set(grade.JOB_UIDS)
    finally:
        held.kill()
        held.wait()
    import fcntl
    with open(grade.uid_locks() / str(other), "a") as lock:  # the dead grader's user is free again
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    leased = []
    for _ in range(3):
        with grade.job_uid() as uid:
            leased.append(uid)
    assert len(set(leased)) == 1  # a released user is leased again
