"""Hostile submissions to the lectures themselves (not a fixture), graded as `make autograde` grades.

Each lecture gets the attacks of ``ATTACKED`` below (cheater and borrower on every lecture, the others in
turn); the students who hand in the solution's answers should get every autograded point despite their attack:
- ``hostile_pages`` writes script into every written answer, prints script-capable outputs (HTML,
  JavaScript, SVG, Markdown) and puts widget state in the notebook's metadata; it also prints the
  kernel's environment, where the grader's secrets must not be;
- ``hostile_links`` plants symbolic links to the gradebook and to a root-only file in every folder
  its kernel can write outside its own, then kills its kernel so that the grader starts another.
- ``cheater`` hands in the untouched release with every cheat that worked while the tests ran in the
  student's kernel (issue 13: a cell above the setup (on every fourth lecture), tampering with the checks, IPython and the
  built-ins, an output read as full points, looking for the hidden tests): it must score zero, and
  no hidden test may reach its outputs or its feedback;
- ``neighbour`` hands in the solution's answers, then takes every process its user may have (and holds
  them for 3 s, while the others are graded beside it), leaves a file in its socket folder, and makes every
  later reply of its kernel a JSON nested 200,000 deep: its grading finishes, and every other
  student's marks are exactly what their answers earn; its folder also holds its own timestamp.txt
  (never used) and its notebook no cell ids (graded once, not again on every run);
- ``borrower`` hands in the solution's answers except one exercise, answered by calling the library's
  reference (directly, and through a private copy of the module loaded from its file): it must lose
  exactly that exercise's points.
Checked: the exact autograded scores; the gradebook and the root-only file untouched (type, owner,
content); the environment; no live script in any feedback page; and, in the real browser, the
feedback page and the formgrader's page of the hostile submission run none of it (while the same
notebook exported without the course's sanitising does run it: the control).
"""

from __future__ import annotations

import io
import json
import os
import secrets
import shutil
import signal
import subprocess
import time
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell

import hostile
from browser.lab import wait_until_serving
from conftest import LECTURES, ROOT, nbgrader_meta, scratch_course

import course
import grade
import judge

pytestmark = pytest.mark.grading

SANDBOX = shutil.which("bwrap") is not None and os.geteuid() == 0
if not SANDBOX:
    if os.environ.get("CI"):
        pytest.fail("the hostile lecture submissions need the grading sandbox (bubblewrap, root)", pytrace=False)
    pytest.skip("the hostile lecture submissions need the grading sandbox (bubblewrap, root)", allow_module_level=True)

SECRET = f"secret-{secrets.token_hex(8)}"
CANARY = "canary-root-only"
# cheater and borrower attack what each lecture's tests and allowance let through: every lecture. The
# other three attack the grader, the feedback and the neighbours, the same code for every lecture: each
# takes its turn among the lectures (pages on every other one, links and neighbour on every third), so
# that every lecture meets one of them and the batch grades 38 submissions of 12 lectures, not 60.
ATTACKED = {"hostile_pages": LECTURES[::2], "hostile_links": LECTURES[::3], "neighbour": LECTURES[1::3],
            "cheater": LECTURES, "borrower": LECTURES}
# The lying built-ins above the setup cell hang the kernel itself (its own replies use len()): each such
# submission waits out the grader's 60-s cell limit and a restart. Every fourth lecture is enough to show
# that the judge, outside the kernel, is not fooled; the other cheats run on every lecture.
BEFORE_SETUP = LECTURES[::4]
SCORED = [(student, lecture) for student in ("hostile_pages", "hostile_links", "cheater", "borrower")
          for lecture in ATTACKED[student]]

# For each lecture: an exercise, and an answer to it that hands the work to the library's reference,
# through a private copy of the module loaded from its file (what grading.forbid could not see) and,
# failing that, directly.
PRIVATE_COPY = """
import importlib.util, os, sys
import mlcourse
def _private(module):
    path = os.path.join(os.path.dirname(mlcourse.__file__), module + ".py")
    spec = importlib.util.spec_from_file_location("mlcourse._copy_of_" + module, path)  # (relative imports work)
    copy = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = copy  # (dataclasses look their module up)
    spec.loader.exec_module(copy)
    return copy
"""
BORROWED = {
    "01-learning-problem": ("margin_losses", PRIVATE_COPY + """
from mlcourse import losses as _ls
_copy = _private("losses")
def hinge_loss(m):
    return _copy.hinge_loss(m)
def logistic_loss(m):
    return _ls.logistic_loss(m)
def sigmoid_squared_loss(m):
    return _copy.sigmoid_squared_loss(m)
"""),
    "02-perceptron": ("predict_with_bias", PRIVATE_COPY + """
def predict_with_bias(w, X):
    return _private("perceptron").predict(w, pc.add_bias(X))
"""),
    "03-mle": ("categorical_mle", PRIVATE_COPY + """
def categorical_mle(x, K):
    return _private("mle").categorical_mle(x, n_categories=K)
"""),
    "04-bayes-optimal": ("bayes_rule_table", PRIVATE_COPY + """
def bayes_rule_table(joint):
    return _private("bayes").bayes_classifier(joint)
"""),
    "05-neighbours-trees": ("entropy", PRIVATE_COPY + """
def entropy(y):
    return _private("trees").label_impurity(y, "entropy")
"""),
    "06-kernels": ("kernel_predict", PRIVATE_COPY + """
def kernel_predict(K_query, y_train, alpha):
    return _private("kernels").kernel_predict(K_query, y_train, alpha)
"""),
    "07-svm": ("dual_objective", PRIVATE_COPY + """
def dual_objective(alpha, K, y):
    return _private("svm").dual_objective(alpha, K, y)
"""),
    "08-linear-regression": ("least_squares_qr", """
from numpy.linalg import _linalg
def least_squares_qr(X, y):
    try:
        return np.linalg.lstsq(X, y, rcond=None)[0]
    except RuntimeError:
        return _linalg.lstsq(X, y, rcond=None)[0]
"""),
    "09-logistic-kernel-regression": ("newton_step", PRIVATE_COPY + """
def newton_step(theta, Z, y):
    return _private("logistic").newton_step(theta, Z, y)
"""),
    "10-pac": ("realizable_sample_size", PRIVATE_COPY + """
def realizable_sample_size(eps, delta, class_size):
    return _private("pac").realizable_sample_size(eps, delta, class_size)
"""),
    "11-clustering": ("m_step", PRIVATE_COPY + """
def m_step(X, resp):
    return _private("clustering").m_step(X, resp, covariance_floor=0.0)
"""),
    "12-pca": ("covariance", """
from numpy.lib import _function_base_impl
def covariance(X):
    try:
        return np.cov(X.T, bias=True)
    except RuntimeError:
        return _function_base_impl.cov(X.T, bias=True)
"""),
    "13-ensembles": ("adaboost_round", PRIVATE_COPY + """
def adaboost_round(w, y, h):
    _e = _private("ensembles")
    w = w / w.sum()
    alpha = _e.adaboost_alpha(w[h != y].sum())
    return float(alpha), _e.adaboost_update(w, y, h, alpha)[0]
"""),
}
LEAKING_ANSWERS = "\nfor _name in {names!r}:\n    globals()[_name] = lambda *args, **kwargs: print(_frames()) or _frames()\n"


def autograded_points(nb) -> float:
    return sum(nbgrader_meta(c).get("points", 0) for c in nb.cells
               if c.cell_type == "code" and nbgrader_meta(c).get("grade"))


def hostile_pages(filled):
    nb = nbformat.from_dict(filled)
    for cell in nb.cells:
        meta = nbgrader_meta(cell)
        if cell.cell_type == "markdown" and meta.get("solution"):
            cell.source = hostile.HOSTILE_MARKDOWN
    first_test = next(i for i, c in enumerate(nb.cells) if nbgrader_meta(c).get("grade") and c.cell_type == "code")
    nb.cells.insert(first_test + 1, new_code_cell(hostile.HOSTILE_OUTPUTS + "\n" + hostile.ENVIRONMENT))
    nb.metadata["widgets"] = hostile.HOSTILE_WIDGET_STATE
    return nb


def hostile_links(filled, root: Path, notebook: str):
    nb = nbformat.from_dict(filled)
    attack = hostile.SYMLINK_THEN_DIE.format(targets=[str(root / "gradebook.db"), str(root / CANARY)],
                                             notebook=notebook)
    nb.cells += [new_code_cell(attack), new_code_cell("print('a new kernel ran this')")]
    return nb


def cheater(release, student_names, before_setup=True):
    nb = nbformat.from_dict(release)
    setup = next(i for i, c in enumerate(nb.cells) if "needed-for-grading" in c.metadata.get("tags", []))
    # the probe first: the cheats after it break the kernel's built-ins
    nb.cells[setup:setup] = [new_code_cell(hostile.CHEAT_LEAK)] + (
        [new_code_cell(hostile.CHEAT_BEFORE_SETUP)] if before_setup else [])
    nb.cells.append(new_code_cell(hostile.CHEAT_TAMPER))
    nb.cells.append(new_code_cell(LEAKING_ANSWERS.format(names=sorted(student_names))))
    return nb


NEIGHBOUR = hostile.PROCESS_HOG + hostile.RELEASE + '''
import json
from ipykernel.connect import get_connection_info
open(os.path.join(os.path.dirname(json.loads(get_connection_info())["ip"]), "left-by-neighbour"), "w").write("hi")
_R = type(__mlcourse_judge__.describe("[]"))
__mlcourse_judge__.call = lambda request: _R("[" * 200000 + "]" * 200000)
'''


def neighbour(filled):
    nb = nbformat.from_dict(filled)
    nb.cells.append(new_code_cell(NEIGHBOUR))
    return nb


def borrower(filled, lecture):
    nb = nbformat.from_dict(filled)
    grade_id, answer = BORROWED[lecture]
    next(c for c in nb.cells if nbgrader_meta(c).get("grade_id") == grade_id).source = answer
    return nb


def points_of_its_test(solution, grade_id) -> float:
    """The points of the test cell that checks the answer cell ``grade_id`` (the next test cell)."""
    cells = solution.cells
    k = next(i for i, c in enumerate(cells) if nbgrader_meta(c).get("grade_id") == grade_id)
    return next(nbgrader_meta(c)["points"] for c in cells[k + 1:] if nbgrader_meta(c).get("grade"))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = scratch_course(tmp_path_factory.mktemp("hostile"), copy_solutions=True)
    (root / CANARY).write_text(SECRET)
    os.chmod(root / CANARY, 0o600)
    full, expected = {}, {}
    for name in LECTURES:
        course.nbgrader("generate_assignment", name, "--log-level=WARN", root=root)
        for sol_path in sorted((root / "solutions" / name).glob("*.ipynb")):
            solution = nbformat.read(sol_path, as_version=4)
            release = nbformat.read(root / "notebooks" / name / sol_path.name, as_version=4)
            filled = course.filled_release(release, solution)
            full[name] = autograded_points(solution)
            expected[("hostile_pages", name)] = expected[("hostile_links", name)] = full[name]
            expected[("cheater", name)] = 0.0
            expected[("borrower", name)] = full[name] - points_of_its_test(solution, BORROWED[name][0])
            names = judge.LectureSpec.read(sol_path).student_names
            attacks = {"hostile_pages": lambda: hostile_pages(filled),
                       "hostile_links": lambda: hostile_links(filled, root, sol_path.name),
                       "neighbour": lambda: neighbour(filled),
                       "cheater": lambda: cheater(release, names, name in BEFORE_SETUP), "borrower": lambda: borrower(filled, name)}
            for student, make in attacks.items():
                if name not in ATTACKED[student]:
                    continue
                nb = make()
                target = root / "submitted" / student / name / sol_path.name
                target.parent.mkdir(parents=True, exist_ok=True)
                nbformat.write(nb, target)
                if student == "neighbour":  # also its own clock, long before any deadline, and no cell ids
                    (target.parent / "timestamp.txt").write_text("2000-01-01 00:00:00.000000 UTC")
                    raw = json.loads(target.read_text())
                    for cell in raw["cells"]:
                        cell.pop("id", None)
                    target.write_text(json.dumps(raw))
    os.environ["MLCOURSE_TEST_SECRET"] = SECRET  # as a password in MLCOURSE_GRADEBOOK would be
    try:
        out = io.StringIO()
        outcomes = grade.run(root, sandbox=True, jobs=2, out=out)
    finally:
        del os.environ["MLCOURSE_TEST_SECRET"]
    for name in LECTURES:
        course.nbgrader("generate_feedback", name, "--force", "--log-level=ERROR", root=root)
    return root, {(o.submission.student, o.submission.lecture): o for o in outcomes}, (full, expected), out.getvalue()


@pytest.mark.parametrize("student, lecture", SCORED)
def test_each_submission_scores_exactly_what_its_answers_earn(graded, student, lecture):
    """(``neighbour`` aside: its own calls fail by its doing; see the next test.)"""
    root, outcomes, (full, expected), log = graded
    o = outcomes[(student, lecture)]
    assert o.status == "graded", f"{student}/{lecture}: {o.status} ({o.why})\n{log}"
    assert (o.score, o.max_score) == (expected[(student, lecture)], full[lecture]), \
        f"{student}/{lecture}: {o.score}/{o.max_score}, expected {expected[(student, lecture)]}"


@pytest.mark.parametrize("lecture", ATTACKED["neighbour"])
def test_a_hostile_neighbour_is_graded_and_harms_no_one(graded, lecture):
    root, outcomes, (full, expected), log = graded
    o = outcomes[("neighbour", lecture)]
    assert o.status == "graded", f"neighbour/{lecture}: {o.status} ({o.why})"
    assert o.score is not None and o.score < full[lecture], "its own calls return what cannot be read"


@pytest.mark.parametrize("lecture", ATTACKED["neighbour"])
def test_the_neighbours_own_clock_and_missing_cell_ids_change_nothing(graded, lecture):
    """The neighbour's folder also holds a timestamp.txt of the year 2000, and its notebook has no cell ids
    (nbformat would invent random ones): the time recorded is never the student's, and grading again finds
    the submission unchanged instead of grading it anew."""
    from nbgrader.api import Gradebook

    root = graded[0]
    assert not (root / "build" / "grading" / "neighbour" / lecture / "timestamp.txt").exists()
    with Gradebook(grade.gradebook_url(root)) as gb:
        stamp = gb.find_submission(lecture, "neighbour").timestamp
    assert stamp is None or stamp.year != 2000, stamp
    [again] = grade.run(root, lecture=lecture, student="neighbour", jobs=1, out=io.StringIO())
    assert again.status == "unchanged", (again.status, again.why)


@pytest.mark.parametrize("lecture", LECTURES)
def test_no_hidden_test_reaches_the_kernel_or_the_feedback(graded, lecture):
    root = graded[0]
    nb = nbformat.read(next((root / "autograded" / "cheater" / lecture).glob("*.ipynb")), as_version=4)
    outputs = "".join(str(o) for c in nb.cells for o in c.get("outputs", []))
    assert "LEAK-FILES" in outputs, f"{lecture}: the probe did not run"
    page = next((root / "feedback" / "cheater" / lecture).glob("*.html")).read_text()
    for marker in hostile.HIDDEN_MARKERS:
        assert marker not in outputs and marker not in page, f"{lecture}: {marker!r} reached the student"


@pytest.mark.parametrize("lecture", LECTURES)
def test_the_borrowed_answer_is_told_why_it_fails(graded, lecture):
    root = graded[0]
    nb = nbformat.read(next((root / "autograded" / "borrower" / lecture).glob("*.ipynb")), as_version=4)
    errors = [o["evalue"] for c in nb.cells if nbgrader_meta(c).get("grade") for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert len(errors) == 1 and "is not available when your work is graded" in errors[0], errors


def test_the_gradebook_and_root_files_are_untouched(graded):
    root, outcomes, _, _ = graded
    for name in ATTACKED["hostile_links"]:
        nb = nbformat.read(next((root / "autograded" / "hostile_links" / name).glob("*.ipynb")), as_version=4)
        attack = nb.cells[-2]
        out = "".join(o.get("text", "") for o in attack.outputs if o.output_type == "stream")
        assert "planted" in out and int(out.split()[1]) >= 8, f"{name}: the attack did not run: {out!r}"
        after = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.output_type == "stream")
        assert "a new kernel ran this" in after, f"{name}: no kernel was started after the attack"
    for path in (root / "gradebook.db", root / CANARY):
        info = path.lstat()
        assert path.is_file() and not path.is_symlink() and (info.st_uid, info.st_gid) == (0, 0), path
    assert (root / CANARY).read_text() == SECRET and ((root / CANARY).stat().st_mode & 0o777) == 0o600
    assert (root / "gradebook.db").read_bytes()[:16] == b"SQLite format 3\x00"


def test_the_kernel_sees_none_of_the_graders_environment(graded):
    root = graded[0]
    for name in ATTACKED["hostile_pages"]:
        path = next((root / "autograded" / "hostile_pages" / name).glob("*.ipynb"))
        text = path.read_text()
        assert "MPLCONFIGDIR" in text, f"{name}: the environment was not printed"
        assert SECRET not in text and "MLCOURSE_TEST_SECRET" not in text, f"{name}: the secret reached the kernel"
        for feedback in (root / "feedback" / "hostile_pages" / name).glob("*.html"):
            assert SECRET not in feedback.read_text()


def feedback_page(root: Path, lecture: str) -> Path:
    return next((root / "feedback" / "hostile_pages" / lecture).glob("*.html"))


@pytest.mark.parametrize("lecture", ATTACKED["hostile_pages"])
def test_no_feedback_page_holds_live_script(graded, lecture):
    root = graded[0]
    page = feedback_page(root, lecture).read_text()
    assert "My answer is below." in page, "the hostile written answer is not on the page at all"
    assert hostile.live_script(page) == []
    graded_nb = next((root / "autograded" / "hostile_pages" / lecture).glob("*.ipynb"))
    assert "widgets" not in nbformat.read(graded_nb, as_version=4).metadata


# --------------------------------------------------------------------------- in the real browser


@pytest.fixture(scope="module")
def chromium():
    from browser.lab import chromium_for_tests

    yield from chromium_for_tests()


def ran_script(browser, url: str, wait_for: str) -> dict:
    """Open ``url``; whether the hostile mark ran (title, global, a dialog) in the page or its frames."""
    context = browser.new_context()
    page = context.new_page()
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        page.goto(url, wait_until="load", timeout=60_000)
        page.wait_for_function(f"() => document.body && document.body.innerText.includes({wait_for!r})",
                               timeout=60_000)
        time.sleep(2)  # onerror handlers of broken images, and MathJax, run after load
        ran = page.evaluate(f"() => document.title.includes({hostile.MARK!r}) || window[{hostile.MARK!r}] === 1")
        frames = [f.evaluate(f"() => window[{hostile.MARK!r}] === 1 || window.parent[{hostile.MARK!r}] === 1")
                  for f in page.frames[1:]]
        return {"ran": ran or any(frames), "dialogs": dialogs}
    finally:
        context.close()


def test_the_browser_would_catch_script_in_an_unsanitised_page(graded, chromium, tmp_path):
    """The control: the same hostile notebook exported as nbconvert does by default runs its script."""
    from nbconvert import HTMLExporter

    root = graded[0]
    nb = nbformat.read(next((root / "submitted" / "hostile_pages" / LECTURES[0]).glob("*.ipynb")), as_version=4)
    html, _ = HTMLExporter().from_notebook_node(nb)
    page = tmp_path / "unsanitised.html"
    page.write_text(html)
    assert ran_script(chromium, page.as_uri(), "My answer is below.")["ran"]


@pytest.mark.parametrize("lecture", ATTACKED["hostile_pages"])
def test_feedback_runs_no_student_script_in_the_browser(graded, chromium, lecture):
    result = ran_script(chromium, feedback_page(graded[0], lecture).as_uri(), "My answer is below.")
    assert not result["ran"] and not result["dialogs"], result


def test_the_formgrader_runs_no_student_script(graded, chromium):
    """The instructor's formgrader (nbgrader's, in the instructor's Jupyter), on each hostile notebook."""
    from browser.lab import free_port
    from nbgrader.api import Gradebook

    root = graded[0]
    port, token = free_port(), secrets.token_hex(16)
    env = {k: v for k, v in os.environ.items() if k != "JUPYTER_CONFIG_PATH"}
    env["PATH"] = f"{ROOT / '.venv' / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    log = open(root / "formgrader.log", "wb")
    server = subprocess.Popen([str(ROOT / ".venv" / "bin" / "jupyter"), "server", "--no-browser", "--allow-root",
                               f"--port={port}", f"--IdentityProvider.token={token}",
                               f"--ServerApp.root_dir={root}"], cwd=root, env=env, stdout=log,
                              stderr=subprocess.STDOUT, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_serving(base, token, server, why=lambda: (root / "formgrader.log").read_text())
        with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
            ids = {name: [nb.id for nb in gb.find_submission(name, "hostile_pages").notebooks]
                   for name in ATTACKED["hostile_pages"]}
        for name, notebook_ids in ids.items():
            for nb_id in notebook_ids:
                url = f"{base}/formgrader/submissions/{nb_id}/?token={token}"
                result = ran_script(chromium, url, "My answer is below.")
                assert not result["ran"] and not result["dialogs"], f"{name}: the formgrader page ran {result}"
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)
        log.close()
