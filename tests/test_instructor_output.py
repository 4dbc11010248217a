"""What an instructor reads when grading: the autograde table and logs, make feedback, make export,
and the feedback pages themselves.

A scratch course holds the tiny assignment 99-mini (tests/fixtures/99-mini: 4 autograded points, a
written answer of 2 points graded by hand, hidden tests in one test cell). Three students hand it in:
``done`` (every answer right), ``untouched`` (the release as given) and ``edited_test`` (right answers,
and a test cell replaced by ``pass``).
"""

from __future__ import annotations

import csv
import html
import io
import os
import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import nbformat
import pytest

from conftest import ROOT, nbgrader_meta

import course
import grade

pytestmark = pytest.mark.grading

SANDBOX = shutil.which("bwrap") is not None and os.geteuid() == 0  # as tests/test_grading_pipeline.py
LECTURE, NOTEBOOK = "99-mini", "mini.ipynb"
STUDENTS = ("done", "edited_test", "untouched")
EDITED = "test_column_means"  # the test cell edited_test replaces (it has hidden tests)


def mini_course(root: Path):
    """A scratch course in ``root`` holding 99-mini, released; (release, solution) notebooks."""
    shutil.copy(ROOT / "nbgrader_config.py", root)
    (root / "tools").symlink_to(ROOT / "tools")
    shutil.copytree(ROOT / "tests" / "fixtures" / LECTURE, root / "solutions" / LECTURE)
    course.nbgrader("generate_assignment", LECTURE, "--log-level=WARN", root=root)
    return (nbformat.read(root / "notebooks" / LECTURE / NOTEBOOK, as_version=4),
            nbformat.read(root / "solutions" / LECTURE / NOTEBOOK, as_version=4))


@pytest.fixture(scope="module")
def mini(tmp_path_factory):
    """The scratch course, graded; the autograde output kept in ``root / "autograde.out"``."""
    root = tmp_path_factory.mktemp("instructor")
    release, solution = mini_course(root)
    done = course.filled_release(release, solution)
    edited = nbformat.from_dict(done)
    for cell in edited.cells:
        if nbgrader_meta(cell).get("grade_id") == EDITED:
            cell.source = "pass  # my code is right\n"
    for student, nb in zip(STUDENTS, (done, edited, release)):
        (root / "submitted" / student / LECTURE).mkdir(parents=True)
        nbformat.write(nb, root / "submitted" / student / LECTURE / NOTEBOOK)
    out = io.StringIO()
    outcomes = grade.run(root, sandbox=SANDBOX, out=out)
    assert all(o.status == "graded" for o in outcomes), out.getvalue()
    (root / "autograde.out").write_text(out.getvalue())
    return root


def table(output: str) -> dict[str, dict[str, str]]:
    """The autograde summary as {submission: {column: text}}, cut at the header's column starts."""
    lines = output.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("submission "))
    names = ("submission", "status", "autograded", "by hand", "notes")
    starts = [lines[head].index(name) for name in names]
    rows = {}
    for line in lines[head + 1:]:
        if not line.strip():
            break
        cells = [line[a:b].strip() for a, b in zip(starts, [*starts[1:], None])]
        rows[cells[0]] = dict(zip(names, cells))
    return rows


# --------------------------------------------------------------------------- make autograde


def test_the_table_shows_autograded_points_and_points_to_grade_by_hand(mini):
    output = (mini / "autograde.out").read_text()
    rows = table(output)
    assert rows[f"done/{LECTURE}"]["autograded"] == "4/4", output
    assert rows[f"done/{LECTURE}"]["by hand"] == "2 to grade", output
    assert rows[f"untouched/{LECTURE}"]["autograded"] == "0/4", output
    assert rows[f"untouched/{LECTURE}"]["by hand"] == "0/2 blank", output  # nbgrader scores a blank answer 0
    assert f"done/{LECTURE}: graded, 4/4 autograded; 2 points to grade by hand" in output
    assert "autograded: score/points" in output and "by hand: score/points" in output, "a legend of the columns"
    assert re.search(r"^2 submission\(s\) have written answers to grade by hand, 4 points in all", output, re.M)


def test_progress_is_shown_from_the_first_step(mini):
    """Nothing silent before the first submission is graded: each step says what it does, and each
    graded submission how many are left and about how long they take."""
    lines = (mini / "autograde.out").read_text().splitlines()
    assert lines[0].startswith(f"found 3 submission(s) of {LECTURE}; putting the lectures and students in the gradebook")
    assert lines[1].startswith("staging 3 submission(s)")
    assert lines[2].startswith("grading 3 submission(s) with ")
    progress = [line for line in lines if line.startswith("[")]
    assert len(progress) == 3 and progress[-1].endswith("s elapsed"), progress
    assert all(re.search(r"\d+ left, \d+ s elapsed, about \d+ s left$", line) for line in progress[:-1]), progress


def test_the_table_shows_hand_grades_once_entered(mini):
    from nbgrader.api import Gradebook

    with Gradebook(grade.gradebook_url(mini)) as gb:
        written = next(g for g in gb.find_submission_notebook("mini", LECTURE, "done").grades if g.name == "written_a")
        written.manual_score, written.needs_manual_grade = 1.5, False  # as the formgrader saves a score
        gb.db.commit()
    out = io.StringIO()
    outcomes = grade.run(mini, sandbox=SANDBOX, out=out)
    assert {o.status for o in outcomes} == {"unchanged"}, out.getvalue()
    assert table(out.getvalue())[f"done/{LECTURE}"]["by hand"] == "1.5/2", out.getvalue()
    assert f"done/{LECTURE}: unchanged, 4/4 autograded; by hand 1.5/2" in out.getvalue()


def test_logs_do_not_report_untouched_test_cells_as_changed(mini):
    solution = nbformat.read(mini / "solutions" / LECTURE / NOTEBOOK, as_version=4)
    assert any("### BEGIN HIDDEN TESTS" in c.source for c in solution.cells), \
        "the fixture needs a test cell with hidden tests (plain nbgrader warns about those)"
    for student in ("done", "untouched"):
        log = (mini / "logs" / "autograde" / LECTURE / f"{student}.log").read_text()
        assert "Attribute 'checksum'" not in log and "has changed" not in log, f"{student}:\n{log}"
        assert "was edited" not in log, f"{student}:\n{log}"


def test_the_log_says_which_tests_failed_and_why_and_nothing_else(mini):
    log = (mini / "logs" / "autograde" / LECTURE / "untouched.log").read_text()
    lines = log.splitlines()
    assert lines[0].startswith(f"untouched/{LECTURE}: graded on ") and "0/4 autograded" in lines[0], log
    assert f"  {NOTEBOOK}: failed  test_column_means (2 points): NotImplementedError: your column_means(...) raised it" in log
    assert all(line.startswith("  ") for line in lines[1:]), log
    assert not any(noise in log for noise in ("SAWarning", "Ctrl-C", "AutogradeApp", "connection.json")), log
    done = (mini / "logs" / "autograde" / LECTURE / "done.log").read_text()
    assert "failed " not in done and done.count("passed  ") == 3, done
    assert "AutogradeApp" in (mini / "logs" / "autograde" / LECTURE / "untouched.nbgrader.log").read_text()


def test_an_edited_test_cell_is_reported_in_words_and_graded_as_written(mini):
    words = f"test cell {EDITED} was edited; the original was restored and graded"
    log = (mini / "logs" / "autograde" / LECTURE / "edited_test.log").read_text()
    assert words in log and "Attribute 'checksum'" not in log, log
    assert words in table((mini / "autograde.out").read_text())[f"edited_test/{LECTURE}"]["notes"]
    assert (grade.scores(grade.gradebook_url(mini), grade.Submission("edited_test", LECTURE))[:2]) == (4, 4)


# --------------------------------------------------------------------------- make feedback, make export


@pytest.fixture(scope="module")
def feedback_output(mini):
    out = io.StringIO()
    assert course.feedback(mini, out=out), out.getvalue()
    return out.getvalue()


def test_feedback_prints_only_what_helps_and_what_it_wrote(mini, feedback_output):
    assert "GenerateFeedbackApp" not in feedback_output, "nbgrader's raw log lines belong in logs/feedback/"
    assert "not recognized" not in feedback_output and "Alternative text" not in feedback_output
    assert "Config option" not in (mini / "logs" / "feedback" / f"{LECTURE}.log").read_text(), \
        "a config option nbgrader does not recognise: fix it at its cause"
    lines = feedback_output.strip().splitlines()
    assert lines[0] == f"[1/1] {LECTURE}: writing the feedback of 3 students...", "nothing said before the wait"
    assert lines[-1] == (f"wrote feedback/done/{LECTURE}/mini.html and 2 more: 3 students, 1 lecture "
                         "(formulas load from feedback/_mathjax/: no network needed)"), feedback_output
    assert f"{LECTURE}: mini.html for done, edited_test, untouched" in lines
    assert any(line.startswith("not graded by hand yet") and f"edited_test/{LECTURE}" in line for line in lines)
    for student in STUDENTS:
        assert (mini / "feedback" / student / LECTURE / "mini.html").is_file()


def test_feedback_names_submissions_it_could_not_give_feedback_for(mini, feedback_output):
    late = mini / "submitted" / "late" / LECTURE
    late.mkdir(parents=True)
    shutil.copy(mini / "notebooks" / LECTURE / NOTEBOOK, late)
    try:
        out = io.StringIO()
        course.feedback(mini, student="late", out=out)
        assert f"late/{LECTURE}: not autograded yet (make autograde), so no feedback" in out.getvalue()
    finally:
        shutil.rmtree(late.parent)
    evil = mini / "submitted" / "evil\x1b[2J" / LECTURE      # a folder name that would clear the terminal
    evil.mkdir(parents=True)
    try:
        out = io.StringIO()
        course.feedback(mini, out=out)
        assert "\x1b" not in out.getvalue() and "evil\\x1b[2J" in out.getvalue(), out.getvalue()
    finally:
        shutil.rmtree(evil.parent)


def test_the_feedback_page_names_each_exercise_and_folds_the_demos(mini, feedback_output):
    page = (mini / "feedback" / "untouched" / LECTURE / NOTEBOOK.replace(".ipynb", ".html")).read_text()
    summary = page[:page.index('id="notebook"')]
    for name in ("Exercise 1 (1 point): add two numbers", "Exercise 2 (2 points): the mean of every column",
                 "Written answer A (2 points)"):
        assert name in summary, f"the summary does not name {name!r}"
    assert summary.count("failed: see the message below the test") == 3 and "Test cell" not in summary
    solution = nbformat.read(mini / "solutions" / LECTURE / NOTEBOOK, as_version=4)
    demos = sum(1 for c in solution.cells if c.cell_type == "code" and not nbgrader_meta(c))
    assert page.count('<details class="demo">') == demos > 0
    assert "white-space: pre-wrap" in page  # a failure message wraps instead of running off the page


def test_export_says_what_grades_csv_holds(mini, feedback_output):
    out = io.StringIO()
    assert course.export(mini, out=out), out.getvalue()
    assert out.getvalue().startswith("wrote grades.csv: 3 rows, 3 students, 1 lecture; "), out.getvalue()
    assert "ExportApp" not in out.getvalue()
    with open(mini / "grades.csv", newline="") as f:
        rows = {r["student_id"]: r for r in csv.DictReader(f)}
    assert float(rows["done"]["max_score"]) == 6  # 4 autograded + 2 by hand: what the table splits


# --------------------------------------------------------------------------- the feedback page


def scripts(page: str) -> list[str]:
    return re.findall(r"<script\b[^>]*\bsrc\s*=\s*[\"']([^\"']+)", page, re.I)


@pytest.fixture(scope="module")
def nbgrader_feedback(mini):
    """Feedback made by plain `nbgrader generate_feedback`, as the formgrader's button makes it;
    returns what nbgrader printed."""
    done = course.nbgrader("generate_feedback", LECTURE, "--force", root=mini, capture_output=True, text=True)
    return done.stdout + done.stderr


def test_nbgrader_recognises_every_feedback_config_option(nbgrader_feedback):
    assert "not recognized" not in nbgrader_feedback, nbgrader_feedback


def test_feedback_loads_mathjax_from_a_local_copy(mini, nbgrader_feedback):
    for student in STUDENTS:
        path = mini / "feedback" / student / LECTURE / "mini.html"
        page = path.read_text()
        remote = [s for s in scripts(page) if urlsplit(s).scheme or s.startswith("//")]
        assert not remote, f"{path.name} of {student} loads scripts from the network: {remote}"
        assert not re.search(r"https?://[^\"'\s]*mathjax", page, re.I), "a MathJax URL on the network"
        mathjax = [s for s in scripts(page) if "MathJax.js" in s]
        assert len(mathjax) == 1, scripts(page)
        local = (path.parent / urlsplit(mathjax[0]).path).resolve()
        assert local.is_file(), f"{mathjax[0]} (from {path}) does not exist"
        assert "Safe" in urlsplit(mathjax[0]).query, "MathJax's Safe extension: no \\href etc. from answers"
        assert "text/x-mathjax-config" in page
    folder = mini / "feedback" / "_mathjax"
    for part in ("config/TeX-AMS-MML_HTMLorMML-full.js", "config/Safe.js", "extensions/Safe.js",
                 "jax/output/HTML-CSS/fonts/STIX-Web/fontdata.js", "fonts/HTML-CSS/STIX-Web/woff", "LICENSE"):
        assert (folder / part).exists(), f"feedback/_mathjax/{part} is missing"


def test_feedback_hides_the_hidden_tests(mini, nbgrader_feedback):
    solution = nbformat.read(mini / "solutions" / LECTURE / NOTEBOOK, as_version=4)
    hidden = {line.strip() for c in solution.cells
              for region in re.findall(r"### BEGIN HIDDEN TESTS(.*?)### END HIDDEN TESTS", c.source, re.S)
              for line in region.splitlines() if len(line.strip()) > 20}
    assert hidden
    for student in STUDENTS:
        text = html.unescape(re.sub(r"<[^>]+>", "", (mini / "feedback" / student / LECTURE / "mini.html").read_text()))
        assert "BEGIN HIDDEN TESTS" not in text
        assert not [line for line in hidden if line in text], f"{student}'s feedback shows hidden tests"


def test_mathjax_copy_is_kept_when_current_and_replaced_when_not(tmp_path):
    import nbgrader_ext

    target = nbgrader_ext.install_mathjax(tmp_path / "_mathjax")
    assert (target / "MathJax.js").is_file()
    stamp = (target / "VERSION").read_text()
    (target / "MathJax.js").write_text("// kept: the copy is current")
    nbgrader_ext.install_mathjax(target)
    assert (target / "MathJax.js").read_text() == "// kept: the copy is current"
    (target / "VERSION").write_text("jupyter-server-mathjax 0.0.1\n")
    nbgrader_ext.install_mathjax(target)
    assert (target / "VERSION").read_text() == stamp and "MathJax" in (target / "MathJax.js").read_text()[:500]
    assert not list(tmp_path.glob("_mathjax.new-*")), "no staging folder left behind"


def test_a_submission_that_could_not_be_graded_is_marked_so_never_zero(mini, tmp_path, monkeypatch):
    """A grading that fails (here: its nbgrader process) is reported as such in the table, flagged in
    the gradebook, and written "not graded" in grades.csv; the next make autograde retries it."""
    root = tmp_path / "course"
    shutil.copytree(mini, root, symlinks=True)
    real = grade.run_nbgrader

    def failing(course_root, batch, sandbox, uid=grade.NOBODY):
        if any(sub.student == "done" for sub, _ in batch):
            raise RuntimeError("Resource temporarily unavailable")
        return real(course_root, batch, sandbox, uid)

    monkeypatch.setattr(grade, "run_nbgrader", failing)
    out = io.StringIO()
    outcomes = {o.submission.student: o for o in grade.run(root, sandbox=SANDBOX, force=True, out=out)}
    assert outcomes["done"].status == "failed" and outcomes["untouched"].status == "graded"
    assert table(out.getvalue())[f"done/{LECTURE}"]["autograded"] == "not graded", out.getvalue()
    assert "1 submission(s) could not be graded" in out.getvalue()
    from nbgrader.api import Gradebook

    with Gradebook(grade.gradebook_url(root)) as gb:
        assert all(nb.flagged for nb in gb.find_submission(LECTURE, "done").notebooks)
    printed = io.StringIO()
    assert course.export(root, out=printed)
    with open(root / "grades.csv", newline="") as f:
        rows = {r["student_id"]: r for r in csv.DictReader(f)}
    assert rows["done"]["score"] == "not graded" and float(rows["untouched"]["score"]) == 0
    assert "could not be graded, so their score reads 'not graded'" in printed.getvalue()

    monkeypatch.setattr(grade, "run_nbgrader", real)
    [again] = grade.run(root, sandbox=SANDBOX, student="done", out=io.StringIO())
    assert again.status == "graded" and again.score == 4
    assert course.export(root, out=io.StringIO())
    with open(root / "grades.csv", newline="") as f:
        assert {r["student_id"]: r for r in csv.DictReader(f)}["done"]["score"] != "not graded"
    with Gradebook(grade.gradebook_url(root)) as gb:
        assert not any(nb.flagged for nb in gb.find_submission(LECTURE, "done").notebooks)


# --------------------------------------------------------------------------- grades back to the platform

PLATFORM_ROSTER = """student_id,first_name,last_name,platform_id,email
s001,Jane,Doe,1001,jane@uni.example
s002,Élodie,"Martin, Jr.",1002,elodie@uni.example
s003,Ravi,Kumar,77,ravi@uni.example
"""


@pytest.fixture(scope="module")
def platform_class(tmp_path_factory):
    """A class of three collected from the platforms: two from a Canvas zip (one marked late, a day and an
    hour after the deadline), one from a Moodle zip; all hand in the right answers. deadlines.toml gives
    the lecture a deadline and 10% a started day."""
    import collect
    import zipfile

    root = tmp_path_factory.mktemp("platform")
    release, solution = mini_course(root)
    done = nbformat.writes(course.filled_release(release, solution)).encode()
    (root / "roster.csv").write_text(PLATFORM_ROSTER, encoding="utf-8")
    (root / "deadlines.toml").write_text('[policy]\ntimezone = "Europe/Berlin"\npenalty_per_day = 0.1\n'
                                         f'zero_after_days = 7\n\n[deadlines]\n"{LECTURE}" = "2026-11-02 12:00"\n')
    with zipfile.ZipFile(root / "canvas.zip", "w") as z:
        z.writestr(zipfile.ZipInfo("doejane_1001_9001_mini.ipynb", (2026, 11, 1, 9, 0, 0)), done)
        z.writestr(zipfile.ZipInfo("martinjrelodie_LATE_1002_9002_mini.ipynb", (2026, 11, 3, 13, 0, 0)), done)
    with zipfile.ZipFile(root / "moodle.zip", "w") as z:
        z.writestr(zipfile.ZipInfo("Ravi Kumar_77_assignsubmission_file/mini.ipynb", (2026, 11, 2, 11, 0, 0)), done)
    collected = io.StringIO()
    for name in ("canvas.zip", "moodle.zip"):
        collect.report(collect.collect(root / name, LECTURE, root / "roster.csv", root=root), LECTURE, out=collected)
    (root / "collect.out").write_text(collected.getvalue())
    outcomes = grade.run(root, sandbox=SANDBOX, out=io.StringIO())
    assert all(o.status == "graded" for o in outcomes)
    printed = io.StringIO()
    assert course.export(root, out=printed)
    (root / "export.out").write_text(printed.getvalue())
    return root


def read_csv(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def test_collect_says_which_submissions_the_platform_marked_late(platform_class):
    assert "marked late by the platform: s002" in (platform_class / "collect.out").read_text()


def test_grades_csv_has_the_rosters_names_the_platform_ids_and_the_late_penalty(platform_class):
    with open(platform_class / "grades.csv", newline="", encoding="utf-8") as f:
        rows = {r["student_id"]: r for r in csv.DictReader(f)}
    jane, elodie, ravi = rows["s001"], rows["s002"], rows["s003"]
    assert (jane["first_name"], jane["last_name"], jane["email"]) == ("Jane", "Doe", "jane@uni.example")
    assert elodie["last_name"] == "Martin, Jr." and elodie["first_name"] == "Élodie"  # a comma stays in its field
    assert (jane["platform"], jane["platform_id"], ravi["platform"], ravi["platform_id"]) == ("canvas", "1001", "moodle", "77")
    assert jane["timestamp"] == "2026-11-01T08:00:00+00:00"  # 09:00 in Berlin, the zone of deadlines.toml
    assert jane["duedate"] == "2026-11-02T12:00:00+01:00"
    # the written answer (2 points) waits for the formgrader: raw 4 of 6
    assert [float(jane[k]) for k in ("raw_score", "late_submission_penalty", "score", "max_score")] == [4, 0, 4, 6]
    assert elodie["days_late"] == "2"  # a day and an hour late: two started days
    assert [float(elodie[k]) for k in ("raw_score", "late_submission_penalty", "score")] == [4, 0.8, 3.2]
    assert ravi["days_late"] == "0" and float(ravi["score"]) == 4
    out = (platform_class / "export.out").read_text()
    assert "late: s002/99-mini, 2 day(s) after the deadline: -0.8 of 4 (deadline 2026-11-02 12:00 CET, 10% per started day late, 0 after 7 days)" in out


def test_canvas_gets_its_gradebook_import_format(platform_class):
    """Canvas's import: Student, ID, SIS User ID, SIS Login ID, Section, then a column per assignment;
    ID is the Canvas user id the zip gave; only the Canvas students are in it."""
    rows = read_csv(platform_class / "grades-canvas.csv")
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", LECTURE]
    assert rows[1:] == [["Doe, Jane", "1001", "", "", "", "4"], ["Martin, Jr., Élodie", "1002", "", "", "", "3.2"]]
    assert "wrote grades-canvas.csv: Canvas's gradebook import" in (platform_class / "export.out").read_text()


def test_moodle_gets_its_grading_worksheet(platform_class):
    """Moodle's offline grading worksheet: its importer finds the columns Identifier ("Participant <id>"),
    Grade and Last modified (grade) by name; the comment says how the grade was made."""
    rows = read_csv(platform_class / f"grades-moodle-{LECTURE}.csv")
    assert rows[0] == ["Identifier", "Full name", "Email address", "Grade", "Maximum Grade", "Last modified (grade)",
                       "Feedback comments"]
    [ravi] = rows[1:]
    assert ravi[:5] == ["Participant 77", "Ravi Kumar", "ravi@uni.example", "4", "6"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", ravi[5])
    assert ravi[6] == "4/6 points; written answers not graded yet"


@pytest.mark.parametrize("text, message", [
    ('[policy]\npenalty_per_day = 10\n', "penalty_per_day = 10 must be a share of the score between 0 and 1"),
    ('[policy]\ntimezone = "Mars/Olympus"\n', "is not a time zone"),
    ('[deadlines]\n"99-mini" = "next friday"\n', "is not a time like"),
    ('[policy]\npenalty = 0.1\n', "unknown key(s) penalty"),
    ('[deadline]\n', "unknown section(s) deadline"),
])
def test_a_mistake_in_the_late_policy_is_named(tmp_path, text, message):
    import deadlines

    (tmp_path / "deadlines.toml").write_text(text)
    with pytest.raises(SystemExit, match=re.escape(message)):
        deadlines.load(tmp_path)


def test_a_deadline_for_no_lecture_is_named_and_nothing_written(platform_class):
    policy = platform_class / "deadlines.toml"
    kept = policy.read_text()
    try:
        policy.write_text(kept + '"99-mnii" = "2026-11-02 12:00"\n')
        out = io.StringIO()
        assert not course.export(platform_class, out=out)
        assert "no lecture is called 99-mnii" in out.getvalue()
    finally:
        policy.write_text(kept)
