"""The students' copy (`make student-copy`): self-contained, set up by its own `make setup`, and holding no answer.

What is searched, and where. Every file of the copy is read as text (a notebook as the text of its cells).
- Hidden tests: every line of every `### BEGIN HIDDEN TESTS` region of every lecture that is at least 30
  characters long once stripped and is not a comment. Shorter lines are generic (`for _trial in range(10):`)
  and could be written by anyone; longer ones carry the test's inputs and expected values. A line the lecture
  also shows students (a hint repeated in the public test) gives nothing away and is left out. Searched everywhere.
- Model answers: every `### BEGIN SOLUTION` region, its lines stripped and joined (the region as a whole).
  Searched everywhere except the copied `mlcourse` package: the package holds the reference code the demos
  use, and some functions there are an exercise's answer (`pca.centre` is `X - X.mean(axis=0)`). The course
  ships the package as it is; grading withdraws those functions (`mlcourse.kernel_lacks`), and the README
  tells students that handing in the package's code is copying.
- Written answers and grading notes: every line of at least 40 characters of a graded Markdown answer cell
  of `solutions/` (the model answer and its "*Grading note.*"), less the lines the lecture's text also shows
  (a formula stated in the text and again in the answer). Searched everywhere.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from conftest import LECTURES, ROOT, nbgrader_meta

sys.path.insert(0, str(ROOT / "tools"))
import student_copy  # noqa: E402

FORBIDDEN = ("solutions", "tools", "tests", ".ci", "build", "nbgrader_config.py", "gradebook.db", "submitted",
             "autograded", "feedback", "conftest.py")


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    return student_copy.build(tmp_path_factory.mktemp("students") / "course")


def _regions(source: str, begin: str, end: str) -> list[list[str]]:
    regions, inside = [], None
    for line in source.splitlines():
        if line.strip() == begin:
            inside = []
        elif line.strip() == end and inside is not None:
            regions.append(inside)
            inside = None
        elif inside is not None:
            inside.append(line.strip())
    return regions


def _outside(source: str, begin: str, end: str) -> str:
    """The lines of ``source`` outside its ``begin``/``end`` regions, stripped."""
    kept, inside = [], False
    for line in source.splitlines():
        if line.strip() == begin:
            inside = True
        elif line.strip() == end:
            inside = False
        elif not inside and line.strip():
            kept.append(line.strip())
    return "\n".join(kept)


def secrets() -> dict:
    """What no student may see, by kind: hidden-test lines, model answers (joined), written answers' lines.
    A line that the lecture also shows students (a hint repeated in the public test, a formula stated in the
    text and again in a model answer) gives nothing away and is not searched for."""
    hidden, answers, written = set(), set(), set()
    for name in LECTURES:
        for path in (ROOT / "solutions" / name).glob("*.ipynb"):
            cells = nbformat.read(path, as_version=4).cells
            public = "\n".join(
                _outside(_outside(c.source, "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"), "### BEGIN SOLUTION", "### END SOLUTION")
                for c in cells if not (c.cell_type == "markdown" and nbgrader_meta(c).get("solution")))
            for cell in cells:
                meta = nbgrader_meta(cell)
                if cell.cell_type == "code" and meta.get("grade"):
                    for region in _regions(cell.source, "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"):
                        hidden |= {line for line in region if len(line) >= 30 and not line.startswith("#") and line not in public}
                elif cell.cell_type == "code" and meta.get("solution"):
                    for region in _regions(cell.source, "### BEGIN SOLUTION", "### END SOLUTION"):
                        answers.add("\n".join(line for line in region if line))
                elif cell.cell_type == "markdown" and meta.get("grade") and meta.get("solution"):
                    written |= {line.strip() for line in cell.source.splitlines()
                                if len(line.strip()) >= 40 and line.strip() not in public}
    assert hidden and answers and written, "found nothing to search for: the markers of solutions/ changed?"
    return {"hidden test": hidden, "model answer": answers, "written answer or grading note": written}


def _text(path: Path) -> str:
    """A file as stripped lines; a notebook as the stripped lines of its cells."""
    raw = path.read_text(errors="replace")
    if path.suffix == ".ipynb":
        raw = "\n".join("".join(cell["source"]) for cell in json.loads(raw)["cells"])
    return "\n".join(line.strip() for line in raw.splitlines() if line.strip())


def test_the_copy_holds_the_course_and_nothing_of_the_instructors(copy):
    for part in ("README.md", "Makefile", "pyproject.toml", "environment.yml", "notebooks/NOTATION.md",
                 "lib/mlcourse/__init__.py", "lib/mlcourse/widgets/__init__.py", "lab-config/labconfig/page_config.json"):
        assert (copy / part).is_file(), f"the students' copy lacks {part}"
    assert sorted(p.name for p in (copy / "notebooks").iterdir() if p.is_dir()) == LECTURES
    present = [name for name in FORBIDDEN if (copy / name).exists()]
    assert not present, f"the students' copy holds what is the instructors' only: {present}"
    assert not list(copy.rglob("__pycache__")) and not list(copy.rglob("*.egg-info"))
    readme = (copy / "README.md").read_text()
    assert "{lectures}" not in readme and "| 12 |" in readme and "autograde" not in readme


def test_the_copy_holds_no_hidden_test_no_model_answer_no_grading_note(copy):
    package = copy / "lib" / "mlcourse"
    texts = {path: _text(path) for path in copy.rglob("*") if path.is_file()}
    found = []
    for kind, items in secrets().items():
        for item in items:
            for path, text in texts.items():
                if kind == "model answer" and package in path.parents:
                    continue
                if item in text:
                    found.append(f"{kind} in {path.relative_to(copy)}: {item.splitlines()[0][:80]!r}")
    assert not found, "the students' copy gives answers away:\n" + "\n".join(found[:20])


def test_the_search_finds_an_answer_planted_in_a_copy(tmp_path):
    """The search above can fail: plant one hidden-test line and one model answer and it must find both."""
    planted = student_copy.build(tmp_path / "course")
    kinds = secrets()
    hidden, answer = sorted(kinds["hidden test"])[0], sorted(kinds["model answer"])[0]
    (planted / "notebooks" / "leak.py").write_text(f"{hidden}\n\n{answer}\n")
    text = _text(planted / "notebooks" / "leak.py")
    assert hidden in text and answer in text


def test_pins_are_the_repositorys(copy):
    import tomllib

    ours = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    theirs = tomllib.loads((copy / "pyproject.toml").read_text())["project"]
    assert theirs["dependencies"] == ours and "optional-dependencies" not in theirs
    conda = (copy / "environment.yml").read_text()
    assert all(f"  - {spec.replace('==', '=')}\n" in conda for spec in ours)


def test_a_non_empty_destination_is_refused_and_left_as_it_was(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("my own work")
    with pytest.raises(SystemExit, match="is not empty; nothing was written"):
        student_copy.build(mine)
    assert [p.name for p in mine.iterdir()] == ["thesis.tex"]
    with pytest.raises(SystemExit, match="lies inside it"):
        student_copy.build(ROOT / "students")


@pytest.mark.notebooks
def test_the_copy_sets_itself_up_and_runs_a_lecture(copy):
    """`make setup` in the copy, as a student runs it (a fresh venv, the pinned packages from the package
    registry, the kernel registered inside it), then lecture 01 run there as a student first opens it."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("VIRTUAL_ENV", "JUPYTER", "PYTHONPATH"))}
    env["PATH"] = ":".join(p for p in env["PATH"].split(":") if not p.startswith(str(ROOT)))
    setup = subprocess.run(["make", "-C", str(copy), "setup"], env=env, capture_output=True, text=True, timeout=1800)
    assert setup.returncode == 0, f"make setup failed in the students' copy:\n{setup.stdout[-3000:]}\n{setup.stderr[-3000:]}"
    lecture = next((copy / "notebooks" / LECTURES[0]).glob("*.ipynb"))
    run = f"""
import sys, nbformat
from nbclient import NotebookClient
nb = nbformat.read({str(lecture)!r}, as_version=4)
NotebookClient(nb, kernel_name="mlcourse", timeout=300, allow_errors=True, resources={{"metadata": {{"path": {str(lecture.parent)!r}}}}}).execute()
import mlcourse, jupyter_client.kernelspec as ks
print("mlcourse from", mlcourse.__file__)
print("kernel from", ks.KernelSpecManager().get_kernel_spec("mlcourse").resource_dir)
for i, c in enumerate(nb.cells):
    meta = c.metadata.get("nbgrader", {{}})
    if c.cell_type == "code" and not (meta.get("solution") or meta.get("grade")):
        errors = [o for o in c.outputs if o.output_type == "error"]
        if errors:
            print("BROKEN", i, errors[0].ename, errors[0].evalue)
"""
    result = subprocess.run([str(copy / ".venv" / "bin" / "python"), "-c", run], env=env, capture_output=True, text=True,
                            timeout=600, cwd=copy)
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"mlcourse from {copy}" in result.stdout and f"kernel from {copy}" in result.stdout, result.stdout
    assert "BROKEN" not in result.stdout, result.stdout
