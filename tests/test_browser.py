"""The course in a real browser: every lecture as a student first opens it in JupyterLab, and feedback.

For each release notebook (notebooks/*/*.ipynb), in one JupyterLab started as `make lab` starts it
(on a scratch copy of notebooks/) and one Chromium driven by Playwright:
1. open it, Run > Run All Cells, wait until the kernel is idle;
2. every code cell ran, errors stand only in exercise and test cells (nbgrader's ``solution`` or
   ``grade``), and every figure and widget of the solution's saved outputs is there;
3. every ipywidgets control is moved as a student moves it (a slider by keyboard, a dropdown to another
   option, a play button clicked) and its figure must change.
Then one lecture's HTML feedback, made by grading a scratch course with the course's tools, is opened
from disk: its formulas are typeset by MathJax (no raw TeX left) and no hidden test shows.

Screenshots go to a folder under pytest's tmp dir (named in each failure). Without Chromium or
Playwright the test is skipped, except in CI (the environment variable CI set), where it fails.
"""

from __future__ import annotations

import io
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import pytest

from browser.lab import (MATHS_JS, ROOT, WIDGET, LabServer, Notebook, Screenshots, WidgetCell, chromium_for_tests,
                         digest, has_widget, is_exercise, masters, raw_tex, run_all_problems)
from conftest import nbgrader_meta, scratch_course

pytestmark = pytest.mark.notebooks

RELEASES = sorted(p.relative_to(ROOT / "notebooks").as_posix() for p in (ROOT / "notebooks").glob("*/*.ipynb"))


def lecture_id(rel_path: str) -> str:
    return rel_path.split("/")[0]


@pytest.fixture(scope="module", autouse=True)
def stopwatch(shots):
    start = time.monotonic()
    yield
    line = f"browser test: {time.monotonic() - start:.0f} s in all"
    (shots.folder / "timing.txt").write_text(line + "\n")
    print(f"\n{line}; screenshots in {shots.folder}", flush=True)


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Screenshots:
    return Screenshots(tmp_path_factory.mktemp("browser-screenshots"))


@pytest.fixture(scope="module")
def browser():
    yield from chromium_for_tests()


@pytest.fixture(scope="module")
def lab(browser, tmp_path_factory):
    server = LabServer(tmp_path_factory.mktemp("lab")).start()
    yield server
    server.stop()


@dataclass
class LectureRun:
    notebook: Notebook
    solution: nbformat.NotebookNode
    ran: nbformat.NotebookNode | None = None
    seconds: float = 0.0
    failure: str | None = None  # why the notebook could not be opened, run or saved
    notes: list[str] = field(default_factory=list)

    def require(self) -> None:
        if self.failure:
            pytest.fail(self.failure, pytrace=False)


@pytest.fixture(scope="module", params=RELEASES, ids=lecture_id)
def lecture_run(request, lab, browser, shots):
    """The lecture opened in JupyterLab and run with Run All Cells, saved as JupyterLab left it."""
    rel = request.param
    master = ROOT / "solutions" / rel  # its saved outputs tell which figures and widgets to expect
    solution = nbformat.read(master, as_version=4) if master.is_file() else nbformat.v4.new_notebook()
    run = LectureRun(Notebook(lab, browser, rel, shots), solution)
    try:
        t0 = time.monotonic()
        run.notebook.open()
        t1 = time.monotonic()
        run.seconds = run.notebook.run_all()
        t2 = time.monotonic()
        run.ran = run.notebook.save_and_read()
        shots.page(run.notebook.page, f"{run.notebook.name}-after-run-all")
        print(f"{run.notebook.name}: opened in {t1 - t0:.0f} s, Run All {run.seconds:.0f} s, "
              f"saved in {time.monotonic() - t2:.0f} s", flush=True)
    except AssertionError as e:
        run.failure = str(e)
    except Exception as e:  # Playwright's errors: say which lecture, keep a screenshot
        try:
            shot = shots.page(run.notebook.page, f"{run.notebook.name}-broken")
        except Exception as again:
            shot = f"(none: {again})"
        run.failure = f"{run.notebook.name}: {type(e).__name__}: {e}\nscreenshot {shot}"
    yield run
    run.notebook.close()
    lab.shut_down_kernels()


def test_run_all_runs_every_demo_with_errors_only_in_exercises(lecture_run):
    run = lecture_run
    run.require()
    problems = run_all_problems(run.ran, run.solution)
    if not problems:
        return
    nb, name = run.notebook, run.notebook.name
    lines = [what for _, what in problems]
    shots = []
    not_run = [i for i, what in problems if "did not run" in what]
    if not_run:
        failed_before = [i for i, c in enumerate(run.ran.cells[:not_run[0]])
                         if c.cell_type == "code" and any(o.output_type == "error" for o in c.get("outputs", []))]
        if failed_before:
            stop = failed_before[-1]
            kind = "an exercise" if is_exercise(run.ran.cells[stop]) else "a demo"
            lines.insert(0, f"Run All stopped at cell {stop} ({kind}: its error ends Run All unless the cell is "
                            f"tagged raises-exception); {len(not_run)} code cell(s) below it never ran")
            shots.append(nb.shoot_cell(stop, f"{name}-cell{stop}-stopped-run-all"))
        shots.append(nb.shoot_cell(not_run[0], f"{name}-cell{not_run[0]}-not-run"))
    for index, what in problems:
        if "did not run" not in what:
            shots.append(nb.shoot_cell(index, f"{name}-cell{index}-problem"))
            break
    pytest.fail(f"{name}: after Run > Run All Cells in JupyterLab ({run.seconds:.0f} s):\n  "
                + "\n  ".join(lines) + "\nscreenshots:\n  " + "\n  ".join(map(str, shots)), pytrace=False)


def test_every_widget_control_changes_its_figure(lecture_run):
    run = lecture_run
    run.require()
    nb, name = run.notebook, run.notebook.name
    cells = [i for i, (c, master) in enumerate(zip(run.ran.cells, masters(run.ran, run.solution)))
             if has_widget(c) or (master is not None and has_widget(master))]
    failures, start = [], time.monotonic()
    for index in cells:
        if run.ran.cells[index].get("execution_count") is None or not has_widget(run.ran.cells[index]):
            shot = nb.shoot_cell(index, f"{name}-cell{index}-widget-not-shown")
            failures.append(f"{name}, cell {index}: the widget was not shown (its cell did not run or showed "
                            f"no widget after Run All); screenshot {shot}")
            continue
        widget = WidgetCell(nb, index)
        try:
            widget.wait_for_figure()
        except AssertionError as e:
            failures.append(str(e))
            continue
        controls = widget.controls()
        if not controls:
            failures.append(f"{name}, cell {index}: the widget has no control to move; screenshot "
                            f"{widget.shoot('no-controls')}")
        widget.shoot("start")
        for control in controls:
            label = f"{control['index']}-{control['kind']}-{control['label']}"
            widget.settle()
            figures = widget.figures()
            before = digest(figures)
            before_shot = widget.shoot(f"{label}-before")
            try:
                done = widget.move(control)
            except AssertionError as e:
                failures.append(f"{e}; screenshot {widget.shoot(f'{label}-stuck')}")
                continue
            except Exception as e:  # Playwright could not reach the control
                failures.append(f"{name}, cell {index}: could not move {control['kind']} {control['label']!r}: "
                                f"{type(e).__name__}: {str(e).splitlines()[0]}; screenshot {widget.shoot(f'{label}-stuck')}")
                continue
            playing = control["kind"] == "play"
            after = widget.wait_for_change(before, settle=not playing)
            after_shot = widget.shoot(f"{label}-after")
            if playing:
                widget.stop_playing(control)
            if after is None:
                failures.append(f"{name}, cell {index}: {done}, but its figure did not change within {WIDGET} s; "
                                f"screenshots before {before_shot}, after {after_shot}")
            errors = widget.figures()["errors"]
            if errors:
                failures.append(f"{name}, cell {index}: after {done} the widget's output shows an error: "
                                f"{errors[0][-300:]!r}; screenshot {after_shot}")
        widget.settle()
    print(f"{name}: widgets moved in {time.monotonic() - start:.0f} s", flush=True)
    assert not failures, "\n".join(failures)


# --------------------------------------------------------------------------- feedback

FEEDBACK_LECTURE = lecture_id(RELEASES[0]) if RELEASES else None


@pytest.fixture(scope="module")
def feedback_html(tmp_path_factory) -> Path:
    """Feedback of one student of FEEDBACK_LECTURE who left the first exercise undone (so the page shows
    a failing test too), made as `make autograde` and `make feedback` make it, in a scratch course."""
    import course
    import grade
    from course import filled_release
    from test_grading_pipeline import SANDBOX, first_exercise

    name = FEEDBACK_LECTURE
    root = scratch_course(tmp_path_factory.mktemp("feedback-course"), copy_solutions=True)
    course.nbgrader("generate_assignment", name, "--log-level=WARN", root=root)
    for sol_path in sorted((root / "solutions" / name).glob("*.ipynb")):
        solution = nbformat.read(sol_path, as_version=4)
        release = nbformat.read(root / "notebooks" / name / sol_path.name, as_version=4)
        submission = filled_release(release, solution)
        undone, _ = first_exercise(solution)
        for cell, original in zip(submission.cells, release.cells):
            if nbgrader_meta(cell).get("grade_id") == undone:
                cell.source = original.source
        target = root / "submitted" / "student" / name / sol_path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(submission, target)
    out = io.StringIO()
    outcomes = grade.run(root, lecture=name, sandbox=SANDBOX, out=out)
    assert all(o.status == "graded" for o in outcomes), out.getvalue()
    course.nbgrader("generate_feedback", name, "--force", "--log-level=ERROR", root=root)
    pages = sorted((root / "feedback" / "student" / name).glob("*.html"))
    assert pages, f"nbgrader wrote no feedback for {name} under {root / 'feedback'}"
    return pages[0]


@pytest.mark.skipif(not RELEASES, reason="no lecture in notebooks/")
def test_feedback_page_typesets_maths_and_shows_no_hidden_test(browser, feedback_html, shots):
    from test_grading_pipeline import hidden_lines

    name = FEEDBACK_LECTURE
    context = browser.new_context(viewport={"width": 1200, "height": 1000})
    page = context.new_page()
    failed_requests = []
    page.on("requestfailed", lambda r: failed_requests.append(f"{r.url} ({r.failure})"))
    try:
        page.goto(feedback_html.as_uri(), wait_until="load", timeout=60_000)
        deadline, state = time.monotonic() + 30, None
        while time.monotonic() < deadline:  # MathJax typesets after the page has loaded
            state = page.evaluate(MATHS_JS)
            if state["rendered"] and not state["busy"] and not raw_tex(state["texts"]):
                break
            time.sleep(0.5)
        shot = shots.page(page, f"feedback-{name}")
        problems = []
        raw = raw_tex(state["texts"])
        if not state["rendered"] or raw:
            why = ("MathJax did not load" if not state["mathjax"] else "MathJax loaded but did not typeset")
            problems.append(f"the formulas are not typeset ({why}; {state['rendered']} MathJax element(s), "
                            f"{len(raw)} raw TeX formula(s) in the text, e.g. {raw[:3]})")
            problems += [f"  request failed: {r}" for r in failed_requests[:3]]
        text = state["body"]
        if "BEGIN HIDDEN TESTS" in text or "END HIDDEN TESTS" in text:
            problems.append("the page shows a hidden-test marker")
        overflowing = page.evaluate("[...document.querySelectorAll('div.output_area pre')].filter(p => p.scrollWidth > p.clientWidth + 1).length")
        if overflowing:
            problems.append(f"{overflowing} output(s) run past the page's width instead of wrapping")
        if "For the grader" in text:
            problems.append("the page shows the grading note of a written answer (the formgrader's, never students')")
        leaked = [line for line in hidden_lines(name) if line in text]
        if leaked:
            problems.append(f"the page shows {len(leaked)} line(s) of the hidden tests, e.g. {leaked[:2]}")
        assert not problems, (f"feedback of {name} ({feedback_html}) in Chromium:\n  " + "\n  ".join(problems)
                              + f"\nscreenshot {shot}")
    finally:
        context.close()


@pytest.mark.skipif(not RELEASES, reason="no lecture in notebooks/")
def test_the_formgrader_shows_grading_notes_and_typesets_maths_offline(browser, feedback_html, shots):
    """`make formgrader` on a graded course: a written answer's page shows the solution's model answer and
    grading note beside the student's answer, and its formulas typeset with no network (MathJax served by
    Jupyter itself, not a CDN)."""
    import secrets
    import subprocess

    import formgrader
    from browser.lab import wait_until_serving
    from nbgrader.api import Gradebook

    root = feedback_html.parents[3]
    name = FEEDBACK_LECTURE
    port, token = formgrader.free_port(0), secrets.token_hex(16)
    server = subprocess.Popen(formgrader.command(port, token, browser=False, root=root), cwd=root,
                              env=formgrader.environment(root), stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                              start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    context = browser.new_context(viewport={"width": 1200, "height": 1000})
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(base) else route.abort())
    try:
        wait_until_serving(base, token, server, why=lambda: "make formgrader")
        with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
            notebook = gb.find_submission_notebook(feedback_html.stem, name, "student")
            submission_id = notebook.id
        page = context.new_page()
        page.goto(f"{base}/formgrader/submissions/{submission_id}/?index=0&token={token}", wait_until="load",
                  timeout=60_000)
        deadline, state = time.monotonic() + 30, None
        while time.monotonic() < deadline:
            state = page.evaluate(MATHS_JS)
            if state["rendered"] and not state["busy"] and not raw_tex(state["texts"]):
                break
            time.sleep(0.5)
        shot = shots.page(page, f"formgrader-{name}")
        assert state["mathjax"] and state["rendered"] and not raw_tex(state["texts"]), (
            f"the formgrader's formulas are not typeset offline ({state['rendered']} MathJax elements, raw TeX "
            f"{raw_tex(state['texts'])[:3]}); screenshot {shot}")
        written = sum(1 for c in nbformat.read(root / "solutions" / name / feedback_html.name.replace(".html", ".ipynb"),
                                               as_version=4).cells
                      if c.cell_type == "markdown" and nbgrader_meta(c).get("solution") and nbgrader_meta(c).get("grade"))
        manage = context.new_page()
        manage.goto(f"{base}/formgrader/manage_assignments?token={token}", wait_until="load", timeout=60_000)
        assert manage.locator("#warning-exchange").count() == 0, "the formgrader warns about a missing exchange"
        assert written and state["body"].count("For the grader") == written, (
            f"{state['body'].count('For the grader')} grading notes shown beside {written} written answers; "
            f"screenshot {shot}")
    finally:
        context.close()
        import os
        import signal
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


# --------------------------------------------------------------------------- what a student's Lab offers


@pytest.mark.skipif(not RELEASES, reason="no lecture in notebooks/")
def test_the_students_lab_shows_no_instructor_tools(lab, browser, shots):
    """`make lab` is the students' command: nbgrader's Formgrader, Create Assignment and course lists
    are turned off there (lab-config/), client and server side; the notebook's Validate button stays."""
    import urllib.error
    import urllib.request

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        page.goto(lab.open_url(RELEASES[0], "browser-test-instructor-tools"))
        page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell").first.wait_for(timeout=180_000)
        time.sleep(1)
        shot = shots.page(page, "student-lab")
        menus = page.locator(".lm-MenuBar-content .lm-MenuBar-itemLabel").all_inner_texts()
        assert "Run" in menus, f"the menu bar was not read: {menus}; screenshot {shot}"
        assert "Nbgrader" not in menus, f"the student's Lab has an Nbgrader menu; screenshot {shot}"
        assert page.get_by_text("Create Assignment").count() == 0, f"a Create Assignment panel shows; screenshot {shot}"
        assert page.get_by_title("Validate", exact=False).count() + page.get_by_text("Validate").count() >= 1, (
            f"the notebook's Validate button is gone; screenshot {shot}")
    finally:
        context.close()
    schema = lab.api("GET", "/lab/api/settings/@jupyterlab/apputils-extension:notification")["schema"]["properties"]
    assert schema["fetchNews"]["default"] == "false" and schema["checkForUpdates"]["default"] is False, (
        "a student's first Lab would ask to fetch news, a pop-up over the outputs' right edge")
    for path in ("/formgrader", "/formgrader/api/assignments"):
        try:
            urllib.request.urlopen(f"{lab.url}{path}?token={lab.token}", timeout=10)
            status = 200
        except urllib.error.HTTPError as err:
            status = err.code
        assert status == 404, f"{path} answers {status} in the student's Lab: the formgrader is served"
