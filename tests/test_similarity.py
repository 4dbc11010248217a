"""The copying report (`make similarity`, tools/similarity.py) on lecture 12 with a planted class.

The class: the model answers; two sets of answers written independently (one vectorised and built on the SVD,
one with loops and `eigh`); a copy of the first set with every variable renamed and independent lines
reordered; a student who pasted one answer from the `mlcourse` package and left the rest undone; a submission
that is not JSON; and one whose answers carry markup meant for the instructor's browser. Every submitted answer
is correct (the model answers' tests pass on it), so the report must tell copying from agreement.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import textwrap
from pathlib import Path

import nbformat
import pytest

import similarity
from conftest import ROOT

LECTURE = "12-pca"
STUB = "    # YOUR CODE HERE\n    raise NotImplementedError()"

INDEPENDENT_A = {
    "centre": """
means = np.mean(X, axis=0, keepdims=True)
return X - means""",
    "covariance": """
return np.einsum("ni,nj->ij", X - X.mean(0), X - X.mean(0)) / len(X)""",
    "top_components": """
centred_data = X - X.mean(axis=0)
_, _, rows = np.linalg.svd(centred_data, full_matrices=False)
V = rows[:k].copy()
for row in V:
    biggest = np.argmax(np.abs(row))
    if row[biggest] < 0:
        row *= -1
return V""",
    "reconstruct": """
mu = X.mean(axis=0)
projector = components.T @ components
return mu + (X - mu) @ projector""",
    "explained_variance_ratio": """
C = covariance(X)
values = np.sort(np.linalg.eigvalsh(C))[::-1]
return values / np.trace(C)""",
}

INDEPENDENT_B = {
    "centre": """
out = X.copy()
for j in range(X.shape[1]):
    out[:, j] = X[:, j] - X[:, j].sum() / len(X)
return out""",
    "covariance": """
n, d = X.shape
m = X.sum(axis=0) / n
C = np.zeros((d, d))
for x in X:
    C += np.outer(x - m, x - m)
return C / n""",
    "top_components": """
w, vectors = np.linalg.eigh(covariance(X))
order = np.argsort(w)[::-1][:k]
chosen = []
for i in order:
    v = vectors[:, i]
    if v[np.argmax(abs(v))] < 0:
        v = -v
    chosen.append(v)
return np.array(chosen)""",
    "reconstruct": """
centre_point = X.mean(axis=0)
Z = np.dot(X - centre_point, components.T)
return np.dot(Z, components) + centre_point""",
    "explained_variance_ratio": """
eig = np.linalg.eigvalsh(covariance(X))[::-1]
total = eig.sum()
return eig / total""",
}

# INDEPENDENT_A with every name changed and independent lines swapped.
COPY_OF_A = {
    "centre": """
average = np.mean(X, axis=0, keepdims=True)
return X - average""",
    "covariance": """
return np.einsum("ab,ac->bc", X - X.mean(0), X - X.mean(0)) / len(X)""",
    "top_components": """
Y = X - X.mean(axis=0)
_, _, W = np.linalg.svd(Y, full_matrices=False)
basis = W[:k].copy()
for r in basis:
    where = np.argmax(np.abs(r))
    if r[where] < 0:
        r *= -1
return basis""",
    "reconstruct": """
P = components.T @ components
centre_of_data = X.mean(axis=0)
return centre_of_data + (X - centre_of_data) @ P""",
    "explained_variance_ratio": """
cov = covariance(X)
eigenvalues = np.sort(np.linalg.eigvalsh(cov))[::-1]
return eigenvalues / np.trace(cov)""",
}

# lib/mlcourse/pca.py's fit_pca and sign_convention, pasted together.
FROM_THE_PACKAGE = {
    "top_components": """
n, d = X.shape
Xc = X - X.mean(axis=0)
small = np.linalg.qr(Xc, mode="r") if n >= 2 * d else Xc
_, s, Vt = np.linalg.svd(small, full_matrices=False)
Q = np.asarray(Vt[:k], dtype=float)
largest = Q[np.arange(len(Q)), np.argmax(np.abs(Q), axis=1)]
return Q * np.where(largest < 0, -1.0, 1.0)[:, None]""",
}

MARKUP = {
    "centre": """
# </pre><script>document.title = "owned"</script><img src=x onerror=alert(1)>
return X - X.mean(axis=0)""",
}


def _release():
    return json.loads(next((ROOT / "notebooks" / LECTURE).glob("*.ipynb")).read_text())


def _model_answers() -> dict:
    nb = json.loads(next((ROOT / "solutions" / LECTURE).glob("*.ipynb")).read_text())
    answers = {}
    for cell in nb["cells"]:
        meta = cell["metadata"].get("nbgrader", {})
        if meta.get("solution") and cell["cell_type"] == "code":
            body = "".join(cell["source"]).split("### BEGIN SOLUTION\n")[1].split("    ### END SOLUTION")[0]
            answers[meta["grade_id"]] = textwrap.dedent(body)
    return answers


def _submission(answers: dict) -> dict:
    nb = _release()
    for cell in nb["cells"]:
        meta = cell["metadata"].get("nbgrader", {})
        if meta.get("solution") and cell["cell_type"] == "code" and meta["grade_id"] in answers:
            body = textwrap.indent(answers[meta["grade_id"]].strip("\n"), "    ")
            cell["source"] = "".join(cell["source"]).replace(STUB, body)
        cell["source"] = "".join(cell["source"])
    return nb


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("course")
    for part in (f"notebooks/{LECTURE}", f"solutions/{LECTURE}", "lib/mlcourse"):
        shutil.copytree(ROOT / part, root / part, ignore=shutil.ignore_patterns("__pycache__"))
    class_ = {"model": _model_answers(), "ana": INDEPENDENT_A, "ben": INDEPENDENT_B, "cole": COPY_OF_A,
              "pia": FROM_THE_PACKAGE, "mallory": MARKUP}
    for student, answers in class_.items():
        folder = root / "submitted" / student / LECTURE
        folder.mkdir(parents=True)
        (folder / "pca.ipynb").write_text(json.dumps(_submission(answers)))
    broken = root / "submitted" / "zed" / LECTURE
    broken.mkdir(parents=True)
    (broken / "pca.ipynb").write_text('{"cells": [')
    piped = root / "submitted" / "fifo" / LECTURE                     # reading it would wait for ever
    piped.mkdir(parents=True)
    os.mkfifo(piped / "pca.ipynb")
    (root / "submitted" / "evil\x1b[2J" / LECTURE).mkdir(parents=True)  # a name that would clear a terminal
    return root


@pytest.fixture(scope="module")
def report(course):
    return similarity.run(course, LECTURE, out=open(course / "printed.txt", "w"))[0]


def test_every_planted_answer_is_correct(course):
    """The fixture's answers pass the lecture's tests (visible and hidden): the report has to tell copying
    from correct work, not wrong from right."""
    nb = json.loads(next((ROOT / "solutions" / LECTURE).glob("*.ipynb")).read_text())
    cells = [c for c in nb["cells"] if c["cell_type"] == "code"]
    # each exercise's test is the graded cell right after its answer; an exercise a student left out is not tested
    tests = {answer["metadata"]["nbgrader"]["grade_id"]: "".join(test["source"]) for answer, test in zip(cells, cells[1:])
             if answer["metadata"].get("nbgrader", {}).get("solution") and test["metadata"].get("nbgrader", {}).get("grade")}
    setup = ["".join(c["source"]) for c in nb["cells"] if "needed-for-grading" in c["metadata"].get("tags", [])]
    for answers in (INDEPENDENT_A, INDEPENDENT_B, COPY_OF_A, {**_model_answers(), **FROM_THE_PACKAGE}):
        assert set(answers) <= set(tests), f"planted answers to no exercise: {set(answers) - set(tests)}"
        namespace = {}
        for code in setup:
            exec(code, namespace)
        for cell in _submission(answers)["cells"]:
            if cell["metadata"].get("nbgrader", {}).get("solution") and cell["cell_type"] == "code":
                exec(cell["source"], namespace)
        for exercise in answers:
            exec(tests[exercise], namespace)


def test_the_copy_is_flagged_and_independent_answers_are_not(report):
    flagged = {frozenset((p.first, p.second)) for p in report.pairs}
    assert flagged == {frozenset(("ana", "cole"))}, [(p.first, p.second, p.share_first, p.share_second) for p in report.pairs]


def test_each_flagged_answer_is_shown_whole_with_only_the_students_own_code_marked(course, report):
    """The release's lines (signature, docstring, stub) are shown, grey and never marked; every line the
    student wrote is shown; long lines wrap instead of being cut at the box's edge."""
    from similarity import _plain

    [pair] = report.pairs
    release = next((course / "notebooks" / LECTURE).glob("*.ipynb"))
    starts = similarity.answer_cells(release)
    given = {line.strip() for start in starts.values() for line in start.splitlines() if line.strip()}
    for side, student in zip(pair.marked, (pair.first, pair.second)):
        lines = side.split("\n")
        shown_given = [line for line in lines if "class='given'" in line]
        assert shown_given and not any("<mark>" in line for line in shown_given), "a release line is marked shared"
        assert all(_plain(re.sub(r"<span[^>]*>|</span>", "", line)).strip() in given for line in shown_given)
        submitted = nbformat.read(next((course / "submitted" / student / LECTURE).glob("*.ipynb")), as_version=4)
        written = [line for c in submitted.cells if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("solution")
                   for line in c.source.splitlines() if line.strip() and line.strip() not in given]
        text = "\n".join(_plain(re.sub(r"<span[^>]*>|</span>", "", line)) for line in lines)
        assert all(line in text for line in written), f"{student}: lines of the answer are missing from the report"
    page = (course / "similarity" / f"{LECTURE}.html").read_text()
    assert "white-space: pre-wrap" in page


def test_an_answer_pasted_from_the_package_is_flagged(report):
    matches = {(m.student, m.exercise, m.module) for m in report.package}
    assert ("pia", "top_components", "mlcourse/pca.py") in matches
    assert all(m.student == "pia" for m in report.package), matches


def test_the_report_names_what_it_left_out_and_escapes_everything(course, report):
    skipped = dict(report.skipped)
    assert sorted(skipped) == ["evil\\x1b[2J: not a valid student id (letters, digits, . _ -, starting with a letter or "
                               "digit), not graded", "fifo", "zed"], skipped
    assert "pca.ipynb: not a plain file" in skipped["fifo"] and "not a readable notebook" in skipped["zed"]
    page = (course / "similarity" / f"{LECTURE}.html").read_text()
    assert "<script>" not in page.split("</style>")[1] and "onerror=alert" not in page.replace("onerror=alert(1)&gt;", "")
    assert "&lt;script&gt;" not in page or "mallory" not in page         # mallory's code is only shown if flagged
    assert re.search(r"Content-Security-Policy\" content=\"default-src 'none'", page)
    assert "ana" in page and "cole" in page and "mlcourse/pca.py" in page
    printed = (course / "printed.txt").read_text()
    assert "pair     ana / cole" in printed and "package  pia, top_components" in printed and "left out zed" in printed
    assert "\x1b" not in printed and "left out fifo" in printed


def test_markup_in_a_flagged_answer_is_shown_as_text(tmp_path, course):
    """The same markup inside a pair that is flagged: it appears, escaped, and nothing of it runs."""
    root = tmp_path / "course"
    shutil.copytree(course, root, ignore=shutil.ignore_patterns("similarity", "printed.txt", "fifo"))
    hostile = {k: "# </pre><script>alert(1)</script>\n" + v for k, v in INDEPENDENT_A.items()}
    for student in ("ana", "cole"):
        (root / "submitted" / student / LECTURE / "pca.ipynb").write_text(json.dumps(_submission(hostile)))
    report = similarity.run(root, LECTURE, out=open(root / "printed.txt", "w"))[0]
    assert {frozenset((p.first, p.second)) for p in report.pairs} == {frozenset(("ana", "cole"))}
    page = (root / "similarity" / f"{LECTURE}.html").read_text()
    assert "&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page


def test_an_unknown_lecture_is_named(course):
    with pytest.raises(SystemExit, match="no lecture '99-x'"):
        similarity.run(course, "99-x")


@pytest.fixture(scope="module")
def browser():
    from browser.lab import chromium_for_tests

    yield from chromium_for_tests()


def test_the_report_reads_well_in_a_browser(course, report, browser):
    """Opened in Chromium: both sides of the flagged pair side by side, every line of code wrapped within its
    box (none cut at the edge), the release's lines grey, and nothing of the page running as a script."""
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.goto((course / "similarity" / f"{LECTURE}.html").as_uri(), wait_until="load")
        state = page.evaluate("""() => {
            const pres = [...document.querySelectorAll('.side pre')];
            return {boxes: pres.length, cut: pres.filter(p => p.scrollWidth > p.clientWidth + 1).length,
                    grey: getComputedStyle(document.querySelector('.given')).color,
                    wide: document.documentElement.scrollWidth > window.innerWidth + 1,
                    text: document.body.innerText};
        }""")
    finally:
        page.close()
    assert state["boxes"] >= 2 and state["cut"] == 0 and not state["wide"], state
    assert state["grey"] == "rgb(138, 138, 138)", state["grey"]
    assert "ana and cole" in state["text"]
    assert not [e for e in errors if "Content Security Policy" not in e], errors
